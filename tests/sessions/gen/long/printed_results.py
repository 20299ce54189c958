#!/usr/bin/env python3
"""Writes a variant of sessions in which every successful turn also printed
each of its tool results: an agent that prints what it gets instead of a
summary. The corpus's programs print summaries (180-290 characters a turn);
this is the regime of larger outputs, where history is most of the bill.

Usage: python3 tests/sessions/gen/long/printed_results.py OUT_DIR [SESSION.json...]
(default: the long sessions of tests/sessions/, LONG below)

Each result is appended to the turn's prints as one line,
`NAME => RESULT`, the result's EDN cut to RESULT_CHARS characters. Nothing
else changes (programs, definitions, tool calls, results), so a fact a later
program reuses that only a tool result held is now printed too. The files
are a measurement, not part of the corpus: `ptc compare --session
OUT_DIR/*.json` (docs/benchmarks.md, *Larger outputs*).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SESSIONS_DIR = os.path.abspath(os.path.join(HERE, "..", ".."))
LONG = [
    "budget-revisions",
    "crm-cleanup",
    "fleet-maintenance",
    "incident-investigation",
    "price-reconciliation",
    "support-triage",
    "upgrade-research",
    "vendor-due-diligence",
    "ci-flake-triage",
    "cloud-cost-audit",
    "refactor-migration",
    "event-pipeline-backfill",
    "literature-review",
    "returns-desk",
    "sql-analytics",
    "security-triage",
    "k8s-rollout",
    "variant-interpretation",
    "travel-rebooking",
    "dns-migration",
    "contract-review",
    "lab-inventory",
    "claims-adjudication",
    "payroll-close",
    "test-regression-fix",
    "api-client-integration",
]
# Characters of one result kept in its print line.
RESULT_CHARS = 3000


def printed(session):
    """The session with each successful turn's tool results among its prints; the characters added."""
    added = 0
    for turn in session["turns"]:
        if not turn.get("success"):
            continue
        lines = [f"{c['name']} => {c['result'][:RESULT_CHARS]}" for c in turn.get("tool_calls") or [] if c.get("result")]
        turn["prints"] = list(turn.get("prints") or []) + lines
        added += sum(len(line) for line in lines)
    return session, added


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: printed_results.py OUT_DIR [SESSION.json...]")
    out = sys.argv[1]
    paths = sys.argv[2:] or [os.path.join(SESSIONS_DIR, f"{name}.json") for name in LONG]
    os.makedirs(out, exist_ok=True)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            session, added = printed(json.load(f))
        target = os.path.join(out, os.path.basename(path))
        with open(target, "w", encoding="utf-8") as f:
            json.dump(session, f, ensure_ascii=False, indent=1)
            f.write("\n")
        print(f"{target}: {len(session['turns'])} turns, {added // max(1, len(session['turns']))} characters printed a turn more")


if __name__ == "__main__":
    main()
