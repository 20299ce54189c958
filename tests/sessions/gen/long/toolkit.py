"""What every command tool of the long sessions shares: a tool is
`python3 NAME/tool.py TOOL`, reads its JSON arguments on stdin and writes its
JSON result on stdout, or one error line on stderr with exit status 2 (which
`ptc run` records as a `tool` error of the turn)."""
import json
import sys
import zlib


class ToolError(Exception):
    """A refusal the tool reports to the agent (stderr, exit 2)."""


def need(args, key):
    """The required argument `key`, or a ToolError naming it."""
    if args.get(key) in (None, ""):
        raise ToolError("missing required argument: %s" % key)
    return args[key]


def serve(tools):
    """Runs the tool named by the first command-line argument."""
    try:
        result = tools[sys.argv[1]](json.load(sys.stdin))
    except ToolError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    json.dump(result, sys.stdout, ensure_ascii=False)


def crc(*parts):
    """A deterministic number from `parts`: the IDs a tool makes up
    (tickets, reports, issue keys) stay the same from one build to the next."""
    return zlib.crc32(":".join(map(str, parts)).encode())
