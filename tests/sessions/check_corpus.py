#!/usr/bin/env python3
"""Structural check of the session corpus in tests/sessions/*.json (format ptc-session/1).

Usage: python3 tests/sessions/check_corpus.py [FILE...]
Without arguments every *.json beside this script is checked. Exits 1 and
prints one line per problem (file, JSON path, what is wrong) when anything
fails; prints one summary line per file otherwise.

What it checks:
- top-level fields, their types, format == "ptc-session/1", max_turns >= turns;
- tools: name / signature (string or null) / description;
- data: name -> EDN text that parses as exactly one form;
- turns numbered 1..N consecutively, every field present with the right type;
- program == the code of the first fenced block of raw_response (or, for an
  answer cut off before its closing fence, everything after the opening
  fence), and null exactly when raw_response has no fenced block;
- success/error consistency: failed turns have result null, an error with a
  known kind and a non-empty message, and no definitions; successful turns
  have a result and error null;
- every EDN field (data, result, tool args/results, definition values) parses;
- tool calls name a declared tool and carry either a result or an error;
- definitions have the documented shape, return_type is a known type label,
  and their names follow the top-level def/defn forms of the program in order;
- (return ...) / (fail ...) only in the last turn, and the top-level result is
  the returned value (null after fail or when the run ran out of turns);
- the optional `status` that `ptc run` writes agrees with how the turns end.
"""
import json
import os
import re
import sys

ERROR_KINDS = {"parse", "unbound_symbol", "arity", "type", "tool", "timeout", "step_limit",
               "depth_limit", "loop_limit", "size_limit", "memory_limit", "other",
               # the run loop's (docs/spec/session-format.md, "Error kinds")
               "fail", "no_code", "cut_off", "invalid_return"}
TOP_KEYS = ["format", "agent", "mission", "system_prompt", "max_turns", "tools", "data", "turns", "result", "usage"]
OPTIONAL_TOP_KEYS = ["status"]  # written by `ptc run` (docs/session-format.md)
STATUSES = {"returned", "failed", "out_of_turns", "error"}
# A tool call's fields (docs/spec/session-format.md): always, and when they apply.
CALL_KEYS = {"name", "args", "result", "error", "duration_ms"}
CALL_OPTIONAL = {"error_kind", "cached", "session", "usage"}
TOOL_ERROR_KINDS = ["unknown_tool", "bad_arguments", "bad_result", "limit", "timeout"]
TURN_KEYS = ["number", "raw_response", "program", "success", "result", "error", "prints", "tool_calls", "definitions"]
TYPE_LABEL = re.compile(r"^(string|integer|float|boolean|keyword|nil|(list|map|set)\[\d+\]|#fn\[.*\])$")
FENCE = re.compile(r"```[A-Za-z-]*[ \t]*\n(.*?)\n?```", re.S)
OPEN_FENCE = re.compile(r"```[A-Za-z-]*[ \t]*\n(.*)\Z", re.S)  # an answer cut off mid-block


class EdnError(Exception):
    pass


def parse_edn(text):
    """Parses exactly one EDN form (plus #'var) and returns nothing; raises EdnError."""
    pos = skip_ws(text, 0)
    pos = parse_form(text, pos)
    pos = skip_ws(text, pos)
    if pos != len(text):
        raise EdnError("trailing text at %d: %r" % (pos, text[pos:pos + 20]))


def skip_ws(t, i):
    while i < len(t):
        if t[i] in " \t\r\n,":
            i += 1
        elif t[i] == ";":
            while i < len(t) and t[i] != "\n":
                i += 1
        else:
            break
    return i


ATOM_END = set(" \t\r\n,()[]{}\"")
NUMBER = re.compile(r"^[+-]?(\d+|\d+\.\d+([eE][+-]?\d+)?|\d+[eE][+-]?\d+)$")
SYMBOL = re.compile(r"^[A-Za-z*+!\-_?<>=/.&%$][A-Za-z0-9*+!\-_?<>=/.&%$'#:]*$")


def parse_form(t, i):
    if i >= len(t):
        raise EdnError("unexpected end")
    c = t[i]
    if c == '"':
        i += 1
        while True:
            if i >= len(t):
                raise EdnError("unterminated string")
            if t[i] == "\\":
                if i + 1 >= len(t) or t[i + 1] not in '\\"ntr':
                    raise EdnError("bad escape at %d" % i)
                i += 2
            elif t[i] == '"':
                return i + 1
            else:
                i += 1
    closers = {"(": ")", "[": "]", "{": "}"}
    if c in closers or t.startswith("#{", i):
        is_map = c == "{"
        close = "}" if t.startswith("#{", i) else closers[c]
        i += 2 if t.startswith("#{", i) else 1
        n = 0
        while True:
            i = skip_ws(t, i)
            if i >= len(t):
                raise EdnError("unclosed %s" % close)
            if t[i] == close:
                if is_map and n % 2:
                    raise EdnError("map with an odd number of forms")
                return i + 1
            if t[i] in ")]}":
                raise EdnError("mismatched %s at %d" % (t[i], i))
            i = parse_form(t, i)
            n += 1
    if t.startswith("#'", i):
        return parse_atom(t, i + 2, symbol_only=True)
    if t.startswith("##", i):
        j = i + 2
        while j < len(t) and t[j] not in ATOM_END:
            j += 1
        if t[i:j] not in ("##Inf", "##-Inf", "##NaN"):
            raise EdnError("bad symbolic value %r" % t[i:j])
        return j
    if c in ")]}":
        raise EdnError("unexpected %s at %d" % (c, i))
    return parse_atom(t, i)


def parse_atom(t, i, symbol_only=False):
    j = i
    while j < len(t) and t[j] not in ATOM_END:
        j += 1
    tok = t[i:j]
    if not tok:
        raise EdnError("empty token at %d" % i)
    if symbol_only:
        if not SYMBOL.match(tok):
            raise EdnError("bad var name %r" % tok)
        return j
    if tok in ("nil", "true", "false") or NUMBER.match(tok):
        return j
    if tok.startswith(":") and len(tok) > 1 and SYMBOL.match(tok[1:].replace(":", "a")):
        return j
    if SYMBOL.match(tok):
        return j
    raise EdnError("bad token %r" % tok)


def top_level_defs(program):
    """Names of top-level (def NAME / (defn NAME forms, in order (a form starts at column 0)."""
    names = []
    depth = 0
    i = 0
    t = program
    while i < len(t):
        c = t[i]
        if c == '"':
            i += 1
            while i < len(t) and t[i] != '"':
                i += 2 if t[i] == "\\" else 1
        elif c == ";":
            while i < len(t) and t[i] != "\n":
                i += 1
        elif c in "([{":
            if depth == 0 and c == "(":
                m = re.match(r"\((def|defn)\s+([^\s()\[\]{}\"]+)", t[i:])
                if m:
                    names.append(m.group(2))
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return names


def check_file(path):
    problems = []

    def bad(where, msg):
        problems.append("%s: %s: %s" % (os.path.basename(path), where, msg))

    def edn(where, value, nullable=False):
        if value is None:
            if not nullable:
                bad(where, "is null")
            return
        if not isinstance(value, str):
            bad(where, "EDN value must be a string, got %s" % type(value).__name__)
            return
        try:
            parse_edn(value)
        except EdnError as e:
            bad(where, "invalid EDN (%s): %s" % (e, value[:80]))

    def typed(where, value, types, nullable=False):
        if value is None and nullable:
            return True
        if not isinstance(value, types) or isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
            bad(where, "expected %s, got %r" % (types, value if not isinstance(value, str) else value[:40]))
            return False
        return True

    try:
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        return ["%s: not valid JSON: %s" % (path, e)], None

    if not isinstance(s, dict):
        return ["%s: $: not an object" % path], None
    for k in TOP_KEYS:
        if k not in s:
            bad("$", "missing field %r" % k)
    for k in s:
        if k not in TOP_KEYS + OPTIONAL_TOP_KEYS:
            bad("$", "unexpected field %r" % k)
    if problems:
        return problems, None
    if s["format"] != "ptc-session/1":
        bad("$.format", "must be ptc-session/1")
    for k in ("agent", "mission", "system_prompt"):
        if typed("$." + k, s[k], str) and not s[k].strip():
            bad("$." + k, "empty")
    typed("$.max_turns", s["max_turns"], int)
    typed("$.usage", s["usage"], dict)
    edn("$.result", s["result"], nullable=True)

    tool_names = set()
    if typed("$.tools", s["tools"], list):
        for i, t in enumerate(s["tools"]):
            w = "$.tools[%d]" % i
            if not isinstance(t, dict) or set(t) != {"name", "signature", "description"}:
                bad(w, "must have exactly name, signature, description")
                continue
            typed(w + ".name", t["name"], str)
            typed(w + ".signature", t["signature"], str, nullable=True)
            typed(w + ".description", t["description"], str, nullable=True)
            if t["name"] in tool_names:
                bad(w, "duplicate tool name %r" % t["name"])
            tool_names.add(t["name"])
    if typed("$.data", s["data"], dict):
        for k, v in s["data"].items():
            edn("$.data.%s" % k, v)

    turns = s["turns"]
    if not typed("$.turns", turns, list) or not turns:
        bad("$.turns", "no turns")
        return problems, None
    if isinstance(s["max_turns"], int) and len(turns) > s["max_turns"]:
        bad("$.max_turns", "%d turns but max_turns %d" % (len(turns), s["max_turns"]))

    n_calls = n_prints = 0
    ended = None  # "return" / "fail"
    last_result = None
    for idx, t in enumerate(turns):
        w = "$.turns[%d]" % idx
        if not isinstance(t, dict):
            bad(w, "not an object")
            continue
        missing = [k for k in TURN_KEYS if k not in t]
        if missing:
            bad(w, "missing %s" % missing)
            continue
        if t["number"] != idx + 1:
            bad(w + ".number", "expected %d, got %r" % (idx + 1, t["number"]))
        if not typed(w + ".raw_response", t["raw_response"], str):
            continue
        typed(w + ".program", t["program"], str, nullable=True)
        blocks = FENCE.findall(t["raw_response"])
        if not blocks:
            cut = OPEN_FENCE.search(t["raw_response"])
            blocks = [cut.group(1).strip()] if cut else []
        if t["program"] is None:
            if blocks:
                bad(w + ".program", "null although raw_response has a code block")
        else:
            if not blocks:
                bad(w + ".program", "raw_response has no fenced code block")
            elif blocks[0] != t["program"]:
                bad(w + ".program", "differs from the code block of raw_response")
            if not t["program"].strip():
                bad(w + ".program", "empty program")
        typed(w + ".success", t["success"], bool)
        if t["success"]:
            if t["error"] is not None:
                bad(w + ".error", "successful turn with an error")
            edn(w + ".result", t["result"])
            if t["program"] is None:
                bad(w + ".program", "successful turn without a program")
        else:
            if t["result"] is not None:
                bad(w + ".result", "failed turn with a result")
            e = t["error"]
            if not isinstance(e, dict) or set(e) != {"kind", "message"}:
                bad(w + ".error", "failed turn needs error {kind, message}")
            else:
                if e["kind"] not in ERROR_KINDS:
                    bad(w + ".error.kind", "unknown kind %r" % e["kind"])
                if not isinstance(e["message"], str) or not e["message"].strip():
                    bad(w + ".error.message", "empty")
            if t["definitions"]:
                bad(w + ".definitions", "failed turn keeps definitions")
        if typed(w + ".prints", t["prints"], list):
            for j, p in enumerate(t["prints"]):
                typed("%s.prints[%d]" % (w, j), p, str)
                if isinstance(p, str) and len(p) > 2003:
                    bad("%s.prints[%d]" % (w, j), "longer than the 2,000 character println cut")
            n_prints += len(t["prints"])
        if typed(w + ".tool_calls", t["tool_calls"], list):
            for j, c in enumerate(t["tool_calls"]):
                cw = "%s.tool_calls[%d]" % (w, j)
                if not isinstance(c, dict) or not CALL_KEYS <= set(c) <= CALL_KEYS | CALL_OPTIONAL:
                    bad(cw, "must have name, args, result, error, duration_ms, and only %s besides"
                        % ", ".join(sorted(CALL_OPTIONAL)))
                    continue
                if "error_kind" in c and (c["error"] is None or c["error_kind"] not in TOOL_ERROR_KINDS):
                    bad(cw + ".error_kind", "only with an error, one of %s" % ", ".join(TOOL_ERROR_KINDS))
                if "cached" in c and c["cached"] is not True:
                    bad(cw + ".cached", "written only when true")
                if c["name"] not in tool_names:
                    bad(cw + ".name", "undeclared tool %r" % c["name"])
                edn(cw + ".args", c["args"])
                if isinstance(c["args"], str) and not c["args"].startswith("{"):
                    bad(cw + ".args", "args must be an EDN map")
                if (c["result"] is None) == (c["error"] is None):
                    bad(cw, "exactly one of result and error must be set")
                edn(cw + ".result", c["result"], nullable=True)
                typed(cw + ".error", c["error"], str, nullable=True)
                if typed(cw + ".duration_ms", c["duration_ms"], int) and c["duration_ms"] < 0:
                    bad(cw + ".duration_ms", "negative")
            n_calls += len(t["tool_calls"])
        if typed(w + ".definitions", t["definitions"], list):
            for j, d in enumerate(t["definitions"]):
                dw = "%s.definitions[%d]" % (w, j)
                if not isinstance(d, dict):
                    bad(dw, "not an object")
                    continue
                if d.get("kind") == "value":
                    if set(d) != {"name", "kind", "value", "docstring"}:
                        bad(dw, "value definition must have exactly name, kind, value, docstring")
                        continue
                    edn(dw + ".value", d["value"])
                elif d.get("kind") == "function":
                    if set(d) != {"name", "kind", "params", "variadic", "docstring", "return_type"}:
                        bad(dw, "function definition must have exactly name, kind, params, variadic, docstring, return_type")
                        continue
                    if typed(dw + ".params", d["params"], list):
                        for p in d["params"]:
                            typed(dw + ".params[]", p, str)
                    typed(dw + ".variadic", d["variadic"], str, nullable=True)
                    if typed(dw + ".return_type", d["return_type"], str, nullable=True) and d["return_type"] is not None:
                        if not TYPE_LABEL.match(d["return_type"]):
                            bad(dw + ".return_type", "unknown type label %r" % d["return_type"])
                else:
                    bad(dw + ".kind", "must be value or function")
                    continue
                typed(dw + ".name", d["name"], str)
                typed(dw + ".docstring", d["docstring"], str, nullable=True)
            if t["success"] and isinstance(t["program"], str):
                want = top_level_defs(t["program"])
                got = [d.get("name") for d in t["definitions"] if isinstance(d, dict)]
                if want != got:
                    bad(w + ".definitions", "names %s do not follow the program's def/defn forms %s" % (got, want))
        prog = t["program"] or ""
        ends = re.search(r"\((return|fail)[\s)]", prog)
        if ends and t["success"]:
            if idx != len(turns) - 1:
                bad(w, "(%s ...) but later turns follow" % ends.group(1))
            ended = ends.group(1)
            last_result = t["result"]

    if ended == "return":
        if s["result"] != last_result:
            bad("$.result", "must equal the result of the final (return ...) turn")
    elif s["result"] is not None:
        bad("$.result", "must be null: the run did not end with (return ...)")
    if ended is None and len(turns) != s["max_turns"]:
        bad("$.turns", "the run neither returns nor fails nor uses all max_turns")
    if "status" in s:
        want = {"return": "returned", "fail": "failed", None: "out_of_turns"}[ended]
        if s["status"] not in STATUSES:
            bad("$.status", "unknown status %r" % s["status"])
        elif s["status"] != want:
            bad("$.status", "is %r but the turns say %r" % (s["status"], want))
    return problems, (len(turns), n_calls, n_prints, ended or "out of turns")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    files = argv or sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith(".json"))
    if not files:
        print("no session files found")
        return 1
    all_problems = []
    for f in files:
        problems, stats = check_file(f)
        all_problems += problems
        if stats and not problems:
            print("ok   %-28s %2d turns, %3d tool calls, %3d prints, ends: %s" % ((os.path.basename(f),) + stats))
    for p in all_problems:
        print("FAIL " + p)
    print("%d files, %d problems" % (len(files), len(all_problems)))
    return 1 if all_problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
