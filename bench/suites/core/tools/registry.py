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
    registry.py source {"page": 5}            -> {"page": 5, "text": "..."} (a page of Python source as one
                                                 string; page 5 holds the line an edit later needs)
    registry.py source-lines {"page": 5}      -> {"page": 5, "lines": ["...", ...]} (the same page, a
                                                 string per line)
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

# The source tools: pages of one Python module, about 1,300 characters each,
# numbered lines of routine code; page 5 holds, halfway through, the line a
# code-writing agent later copies as the old text of its edit. A line of code
# is no fact by shape.
SOURCE_FILLER = [
    "    def _headers(self):",
    "        return {\"Content-Type\": \"application/json\"}",
    "",
    "    def _get(self, path, params=None):",
    "        resp = self.transport(\"GET\", self.base_url + path, params)",
    "        return self._decode(resp)",
    "",
    "    def _decode(self, resp):",
    "        data = json.loads(resp.body or \"{}\")",
    "        self.last_request_id = resp.headers.get(\"X-Request-Id\")",
    "        return data",
    "",
]
SOURCE_LINE = "        if resp.status == 404 and not self.strict:"


def source_lines(page):
    body = SOURCE_FILLER * 3
    if page == 5:
        body = SOURCE_FILLER + [SOURCE_LINE, "            return None"] + SOURCE_FILLER * 2
    first = (page - 1) * len(SOURCE_FILLER) * 3 + 1
    return ["%4d  %s" % (first + i, line) for i, line in enumerate(body)]


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
    if mode in ("source", "source-lines"):
        page = int(args.get("page", 0))
        lines = source_lines(page)
        return {"page": page, "text": "\n".join(lines)} if mode == "source" else {"page": page, "lines": lines}
    fail(f"unknown mode {mode!r}: vault, ledger, archive, logbook, contract, source or source-lines")


json.dump(main(), sys.stdout)
