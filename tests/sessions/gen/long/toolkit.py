"""What every command tool of the long sessions shares: a tool is
`python3 NAME/tool.py TOOL`, reads its JSON arguments on stdin and writes its
JSON result on stdout, or one error line on stderr with exit status 2 (which
`ptc run` records as a `tool` error of the turn)."""
import fcntl
import json
import os
import re
import sys
import tempfile
import zlib
from contextlib import contextmanager


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


def _state_path(name):
    """The state file of the `ptc run` that called this tool: named after its
    pid and start time, so every run starts afresh."""
    ppid = os.getppid()
    try:
        with open("/proc/%d/stat" % ppid) as f:
            start = f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        start = "0"
    return os.path.join(tempfile.gettempdir(), "ptc-%s-%d-%s.json" % (name, ppid, start))


def _sweep(name, current):
    """Removes the state files of earlier runs whose `ptc run` has ended."""
    folder = os.path.dirname(current)
    for entry in os.listdir(folder):
        m = re.match(r"^ptc-%s-(\d+)-\d+\.json(\.lock)?$" % re.escape(name), entry)
        path = os.path.join(folder, entry)
        if m and not path.startswith(current) and not os.path.exists("/proc/%s" % m.group(1)):
            try:
                os.remove(path)
            except OSError:
                pass


@contextmanager
def run_state(name, initial, save_on_error=False):
    """The state session `name`'s tools keep across the calls of one run
    (a dict, `initial()` on the run's first call), locked while a call
    uses it and written back after it; after a ToolError too when
    `save_on_error`."""
    path = _state_path(name)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(path) as f:
                st = json.load(f)
        except (OSError, ValueError):
            st = initial()
            _sweep(name, path)
        try:
            yield st
        except ToolError:
            if save_on_error:
                with open(path, "w") as f:
                    json.dump(st, f)
            raise
        with open(path, "w") as f:
            json.dump(st, f)
