#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the budget-revisions session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: the report id is derived from the request itself."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

PERIOD = re.compile(r"^\d{4}-Q[1-4]$")


def period(args, key):
    p = need(args, key)
    if not PERIOD.match(p):
        raise ToolError("%s must look like 2024-Q3, got %r" % (key, p))
    if p != w.QUARTER:
        raise ToolError("no figures for %s (closed quarters: %s)" % (p, w.QUARTER))
    return p


def cost_centre(args):
    cc = need(args, "cc_id")
    if cc not in w.CC_BY_ID:
        raise ToolError("no cost centre %r" % cc)
    return w.CC_BY_ID[cc]


def cost_centres(args):
    if need(args, "division") != w.DIVISION:
        raise ToolError("unknown division %r (known: %s)" % (args["division"], w.DIVISION))
    return w.COST_CENTRES


def budget(args):
    c = cost_centre(args)
    return {"cc_id": c["cc_id"], "quarter": period(args, "quarter"), "currency": c["currency"],
            "version": w.BUDGET_VERSION, "lines": w.budget_lines(c["cc_id"])}


def ledger(args):
    c = cost_centre(args)
    p = period(args, "period")
    status = args.get("status") or "preliminary"
    if status not in ("preliminary", "final"):
        raise ToolError("status must be preliminary or final")
    final = status == "final"
    lines = w.actual_lines(c["cc_id"], final)
    return {"cc_id": c["cc_id"], "name": c["name"], "period": p, "currency": c["currency"], "status": status,
            "as_of": w.FINAL_AS_OF if final else w.PRELIM_AS_OF, "lines": lines,
            "total": round(sum(x["amount"] for x in lines), 2)}


def postings(args):
    c = cost_centre(args)
    period(args, "period")
    account = need(args, "account")
    if account not in w.LINES[c["cc_id"]]:
        raise ToolError("%s has no postings on account %s" % (c["cc_id"], account))
    rows = w.postings(c["cc_id"], account)
    limit = int(args.get("limit") or 50)
    return {"cc_id": c["cc_id"], "account": account, "total": len(rows), "postings": rows[:limit]}


def revisions(args):
    period(args, "period")
    since = args.get("since") or "2024-10-01"
    out = []
    for r in w.REVISIONS:
        if r["posted_at"] < since:
            continue
        before = w.LINES[r["cc_id"]][r["account"]][1]
        prior = sum(x["delta"] for x in w.REVISIONS
                    if (x["cc_id"], x["account"]) == (r["cc_id"], r["account"]) and x["rev_id"] < r["rev_id"])
        old = round(before + prior, 2)
        out.append({"rev_id": r["rev_id"], "cc_id": r["cc_id"], "account": r["account"], "old_amount": old,
                    "new_amount": round(old + r["delta"], 2), "delta": r["delta"],
                    "currency": w.CC_BY_ID[r["cc_id"]]["currency"], "reason": r["reason"],
                    "posted_at": r["posted_at"]})
    return out


def fx_rate(args):
    pair = (need(args, "from"), need(args, "to"))
    period(args, "period")
    kind = args.get("kind") or "closing"
    if pair not in w.FX:
        raise ToolError("no treasury rate for %s/%s" % pair)
    if kind not in w.FX[pair]:
        raise ToolError("kind must be closing or average")
    rate, date = w.FX[pair][kind]
    return {"from": pair[0], "to": pair[1], "period": w.QUARTER, "kind": kind, "rate": rate, "date": date,
            "source": "treasury"}


def cents(x):
    return isinstance(x, (int, float)) and w.fmt_ok(float(x))


def variance_submit(args):
    period(args, "quarter")
    if need(args, "division") != w.DIVISION:
        raise ToolError("unknown division %r" % args["division"])
    lines = need(args, "lines")
    comments = args.get("comments") or {}
    flagged = []
    for k, line in enumerate(lines):
        cc = line.get("cc_id")
        if cc is None:
            raise ToolError("lines[%d]: missing cc_id (a line has cc_id, account, budget_eur, actual_eur; got %s)"
                            % (k, ", ".join(sorted(line))))
        if cc not in w.CC_BY_ID:
            raise ToolError("lines[%d]: no cost centre %r" % (k, cc))
        for key in ("budget_eur", "actual_eur"):
            if not cents(line.get(key)):
                raise ToolError("lines[%d].%s: %r is not an amount in cents (round to 2 decimals)"
                                % (k, key, line.get(key)))
        diff = line["actual_eur"] - line["budget_eur"]
        pct = 100.0 * diff / line["budget_eur"] if line["budget_eur"] else None
        if abs(diff) > w.THRESHOLD_ABS_EUR and (pct is None or abs(pct) > w.THRESHOLD_PCT):
            flagged.append("%s/%s" % (cc, line.get("account")))
    missing = [f for f in flagged if not comments.get(f)]
    if missing:
        return {"ok": False, "flagged": len(flagged), "missing_comments": missing,
                "note": "every line over both thresholds needs a comment keyed CC/ACCOUNT"}
    key = ":".join("%s/%s=%.2f" % (x["cc_id"], x.get("account"), x["actual_eur"]) for x in lines)
    return {"ok": True, "report_id": "VR-2024Q3-OPS-%04d" % (crc(key) % 10000), "status": "submitted",
            "lines": len(lines), "flagged": len(flagged), "approver": "Division controller (Katrin Weiss)"}


TOOLS = {"cost-centres": cost_centres, "budget": budget, "ledger": ledger, "postings": postings,
         "revisions": revisions, "treasury-rate": fx_rate, "variance-submit": variance_submit}

if __name__ == "__main__":
    serve(TOOLS)
