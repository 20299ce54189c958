#!/usr/bin/env python3
"""ptc command tools of the core bench suite: JSON args on stdin, JSON result
on stdout; an error is a message on stderr and exit code 2.

    registry.py vault   {"key": "alpha"}      -> {"key": "alpha", "secret": "VX-4417"}
    registry.py ledger  {"account": "A-100"}  -> {"account": "A-100", "balance": 48213, "currency": "EUR"}
    registry.py archive {"page": 3}           -> {"page": 3, "text": "..."} (long filler text)
    registry.py logbook {"page": 5}           -> {"page": 5, "text": "..."} (long filler text; page 5
                                                 names a delivery reference halfway through)
    registry.py contract {"page": 5}          -> {"page": 5, "text": "..."} (long filler text; page 5
                                                 words a notice clause halfway through)
"""
import json
import sys

VAULT = {"alpha": "VX-4417", "beta": "VX-9023", "gamma": "VX-3381", "delta": "VX-7260", "epsilon": "VX-5154"}
LEDGER = {"A-100": (48213, "EUR"), "A-200": (91577, "USD"), "A-300": (12944, "GBP")}
WORDS = ("quarterly archive entry with routine notes about shelving, labels, boxes, "
         "inventory rounds, cleaning schedules and nothing of consequence for the mission; ")
# The long-page tools: per tool, the page that holds one line in the middle
# of its filler, and the line. The logbook's is a fact (a reference); the
# contract's is prose, no fact by shape, so compact history keeps no part of it.
BURIED = {
    "logbook": (5, "the courier's delivery reference for the returned pallets is DR-58213; "),
    "contract": (5, "clause fourteen: either party may end this agreement by written notice "
                    "of not less than ninety days before the renewal date; "),
}


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    args = json.load(sys.stdin)
    if mode == "vault":
        key = args.get("key")
        if key not in VAULT:
            fail(f"no key {key}; keys: {', '.join(VAULT)}")
        return {"key": key, "secret": VAULT[key]}
    if mode == "ledger":
        account = args.get("account")
        if account not in LEDGER:
            fail(f"unknown account {account} (known: {', '.join(LEDGER)})")
        balance, currency = LEDGER[account]
        return {"account": account, "balance": balance, "currency": currency}
    if mode == "archive":
        page = int(args.get("page", 0))
        return {"page": page, "text": f"page {page}: " + WORDS * 12}
    if mode in BURIED:
        page = int(args.get("page", 0))
        at, line = BURIED[mode]
        return {"page": page, "text": f"{mode} page {page}: " + WORDS * 6 + (line if page == at else "") + WORDS * 6}
    fail(f"unknown mode {mode!r}: vault, ledger, archive, logbook or contract")


json.dump(main(), sys.stdout)
