#!/usr/bin/env python3
"""Counts the facts a session's programs reuse from earlier output.

Usage: python3 tests/sessions/gen/long/facts.py [-v] [SESSION.json...]
(default: every tests/sessions/*.json)

A *fact reuse* is a literal in turn N's program that the agent can only have
learned from what earlier turns showed:
- the literal is a string of 4 or more characters, or a number with 3 or more
  significant digits (leading zeros do not count: 0.9173 has 4, 0.01 has 1);
  regex literals (#"..."), keywords, symbols and comments are not literals;
- it appears in the prints, tool results or result of a turn before N
  (strings as substrings; numbers as numeric tokens of equal value);
- it does not appear in the mission, the data or the tool list (names,
  signatures, descriptions), which the agent is given from the start.
Each (turn, literal) pair counts once; failed turns count (their program was
written from the same prompt). The *source* of a reuse is the latest earlier
turn that printed or returned it, or, when none did, the latest earlier turn
whose tool results hold it; *age* is N minus that turn (how far back the
agent's memory has to reach).

Per session the script prints the turns, the reuses, the distinct facts, how
many reuses are 10+ and 20+ turns old, and how many came only from tool
results (never printed or returned: a model could not have seen them unless
the prompt shows tool results). -v lists every reuse.
"""
import json
import os
import re
import sys

NUMBER_TOKEN = re.compile(r"^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$")
NUMBER_IN_TEXT = re.compile(r"(?<![\w.])[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")
DELIMS = set(" \t\r\n,()[]{}\"';`^@~")


def literals(program):
    """(kind, text, value) of every string and number literal of a PTC-Lisp program."""
    out = []
    i, n = 0, len(program)
    while i < n:
        c = program[i]
        if c == ";":
            while i < n and program[i] != "\n":
                i += 1
        elif c == '"' or (c == "#" and program.startswith('#"', i)):
            regex = c == "#"
            i += 2 if regex else 1
            buf = []
            while i < n and program[i] != '"':
                if program[i] == "\\" and i + 1 < n:
                    buf.append({"n": "\n", "t": "\t", "r": "\r"}.get(program[i + 1], program[i + 1]))
                    i += 2
                else:
                    buf.append(program[i])
                    i += 1
            i += 1
            if not regex:
                out.append(("string", "".join(buf), None))
        elif c == "\\":
            i += 2  # character literal
        elif c in DELIMS:
            i += 1
        else:
            j = i
            while j < n and program[j] not in DELIMS:
                j += 1
            tok = program[i:j]
            if NUMBER_TOKEN.match(tok):
                out.append(("number", tok, float(tok)))
            i = j
    return out


def significant_digits(tok):
    mantissa = re.split(r"[eE]", tok)[0]
    return len(re.sub(r"\D", "", mantissa).lstrip("0"))


def is_candidate(lit):
    kind, text, _ = lit
    return len(text) >= 4 if kind == "string" else significant_digits(text) >= 3


class Source:
    """A text the agent saw, searchable for string and number literals."""

    def __init__(self, text):
        self.text = text
        self.numbers = {float(m.group(0)) for m in NUMBER_IN_TEXT.finditer(text)}

    def holds(self, lit):
        kind, text, value = lit
        if kind == "number":
            return value in self.numbers
        escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return text in self.text or escaped in self.text


def turn_outputs(turn):
    """(shown, tool_only) sources of one turn: prints and result, then tool results."""
    shown = list(turn.get("prints") or [])
    if turn.get("result") is not None:
        shown.append(turn["result"])
    tools = [c["result"] for c in turn.get("tool_calls") or [] if c.get("result") is not None]
    return Source("\n".join(shown)), Source("\n".join(tools))


def reuses(session):
    """Every fact reuse of a session: dicts with turn, literal, source turn, age, via."""
    given = Source("\n".join([session.get("mission") or ""]
                             + list((session.get("data") or {}).values())
                             + [json.dumps(t, ensure_ascii=False) for t in session.get("tools") or []]))
    outputs = []
    found = []
    for turn in session["turns"]:
        seen = set()
        for lit in literals(turn.get("program") or ""):
            key = (lit[0], lit[1])
            if key in seen or not is_candidate(lit) or given.holds(lit):
                continue
            shown_in = [k for k, (shown, _) in enumerate(outputs, 1) if shown.holds(lit)]
            tool_in = [k for k, (_, tools) in enumerate(outputs, 1) if tools.holds(lit)]
            if shown_in or tool_in:
                source = (shown_in or tool_in)[-1]
                found.append({"turn": turn["number"], "literal": lit[1], "kind": lit[0], "source": source,
                              "age": turn["number"] - source, "via": "shown" if shown_in else "tool-only"})
                seen.add(key)
        outputs.append(turn_outputs(turn))
    return found


def main(argv):
    verbose = "-v" in argv
    files = [a for a in argv if a != "-v"]
    if not files:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        files = sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith(".json"))
    print("%-34s %5s %7s %8s %6s %6s %9s" % ("session", "turns", "reuses", "distinct", "age10+", "age20+", "tool-only"))
    for path in files:
        with open(path, encoding="utf-8") as f:
            session = json.load(f)
        found = reuses(session)
        print("%-34s %5d %7d %8d %6d %6d %9d" % (
            os.path.basename(path), len(session["turns"]), len(found), len({(r["kind"], r["literal"]) for r in found}),
            sum(r["age"] >= 10 for r in found), sum(r["age"] >= 20 for r in found),
            sum(r["via"] == "tool-only" for r in found)))
        if verbose:
            for r in found:
                print("    turn %2d  %-7s %-40s from turn %2d (age %2d, %s)" % (
                    r["turn"], r["kind"], r["literal"][:40], r["source"], r["age"], r["via"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
