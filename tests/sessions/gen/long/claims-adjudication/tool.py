#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the claims-adjudication session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: adjudication and report ids are derived from the request itself; an
adjudication reports what it applied to the accumulators (posted intraday: the
eligibility check keeps showing the nightly run's figures)."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

MEMBER = re.compile(r"^M\d{7}-\d\d$")
DATE = re.compile(r"^\d{4}-\d\d-\d\d$")


def cents(x):
    return round(x + 1e-9, 2)


def claim_arg(args):
    c = need(args, "claim_no")
    if c not in w.CLAIMS:
        raise ToolError("no pended claim %r (claim numbers look like CLM-2025-0081734)" % c)
    return c


def member_arg(args):
    m = need(args, "member_id")
    if not MEMBER.match(m):
        raise ToolError("member_id must carry the dependent suffix, like M0048213-02; got %r" % m)
    if m not in w.MEMBERS:
        raise ToolError("no member %r" % m)
    return m


def queue_row(c):
    x = w.CLAIMS[c]
    m = w.MEMBERS[x["member_id"]]
    return {"claim_no": c, "received": x["received"], "due_by": w.due_by(c), "member_id": x["member_id"],
            "patient": m["name"], "billing_npi": x["billing_npi"], "lines": len(x["lines"]),
            "total_billed": x["total_billed"], "pend_reason": x["pend_reason"]}


def clm_queue(args):
    rows = [queue_row(c) for c in sorted(w.CLAIMS, key=lambda c: (w.due_by(c), c))]
    return {"queue": "PEND-PROF", "as_of": w.NOW, "count": len(rows), "claims": rows}


def clm_get(args):
    c = claim_arg(args)
    x = w.CLAIMS[c]
    m = w.MEMBERS[x["member_id"]]
    return {"claim_no": c, "received": x["received"], "due_by": w.due_by(c), "claim_type": "professional (837P)",
            "frequency": x["frequency"], "member_id": x["member_id"], "patient": m["name"], "patient_dob": m["dob"],
            "billing_npi": x["billing_npi"], "rendering_npi": x["rendering_npi"], "billing_tin": x["billing_tin"],
            "place_of_service": x["pos"], "total_billed": x["total_billed"], "pend_reason": x["pend_reason"],
            "pend_detail": x["pend_detail"], "diagnoses": {d: w.DX[d] for l in x["lines"] for d in l["dx"]},
            "lines": [dict(l) for l in x["lines"]], "attachments": [dict(a) for a in x["attachments"]]}


def elig_check(args):
    mid = member_arg(args)
    dos = need(args, "dos")
    if not DATE.match(dos):
        raise ToolError("dos must be a date like 2025-02-03")
    m = w.MEMBERS[mid]
    p = w.PLANS[m["plan_id"]]
    active = m["coverage_start"] <= dos and (m["coverage_end"] is None or dos <= m["coverage_end"])
    out = {"member_id": mid, "name": m["name"], "dob": m["dob"], "sex": m["sex"], "relationship": m["relationship"],
           "subscriber_id": m["subscriber_id"], "subscriber_name": m["subscriber_name"], "group": m["group"],
           "plan_id": m["plan_id"], "plan_name": p["plan_name"], "rating_area": m["rating_area"],
           "rating_area_name": w.LOCALITIES[m["rating_area"]], "coverage_start": m["coverage_start"],
           "coverage_end": m["coverage_end"], "dos": dos, "eligible_on_dos": active,
           "status": "active" if m["coverage_end"] is None else "terminated"}
    if m.get("termination_reason"):
        out["termination_reason"] = m["termination_reason"]
    out["benefits"] = {"deductible": p["deductible"], "coinsurance": p["coinsurance"], "oop_max": p["oop_max"],
                       "copays": dict(p["copays"])}
    out["accumulators"] = {"plan_year": 2025, "as_of": "2025-03-13 nightly run",
                           "deductible_met": m["deductible_met"], "oop_to_date": m["oop_to_date"]}
    return out


def prov_row(n):
    p = w.PROVIDERS[n]
    return dict({"npi": n}, **p, locality_name=w.LOCALITIES[p["locality"]], sanctions=[])


def prov_lookup(args):
    n, tin = args.get("npi"), args.get("tin")
    if not n and not tin:
        raise ToolError("give npi or tin")
    if n:
        n = str(n)
        if not re.match(r"^\d{10}$", n):
            raise ToolError("npi must be 10 digits, got %r" % n)
        if not w.npi_valid(n):
            raise ToolError("%s is not a valid NPI: the check digit (Luhn, prefix 80840) does not match; "
                            "no provider can carry it" % n)
        if n not in w.PROVIDERS:
            raise ToolError("NPI %s is valid but not in the Cascadia provider directory" % n)
        return prov_row(n)
    rows = [prov_row(k) for k, p in w.PROVIDERS.items() if p["tin"] == tin]
    return {"tin": tin, "count": len(rows), "providers": rows}


def fee_schedule(args):
    codes = need(args, "codes")
    loc = need(args, "locality")
    if loc not in w.LOCALITIES:
        raise ToolError("locality must be one of %s (the provider directory gives it)" % ", ".join(sorted(w.LOCALITIES)))
    if not isinstance(codes, list):
        raise ToolError("codes must be a list of CPT/HCPCS codes")
    rows, missing = [], []
    for c in codes:
        if c not in w.FEES:
            missing.append(c)
            continue
        d, glob, pa, unit, by = w.FEES[c]
        rows.append({"code": c, "description": d, "allowed": by[loc], "per": unit, "global_days": glob,
                     "pa_required": pa})
    return {"schedule": "CHP-PROF-2025", "effective": "2025-01-01", "locality": loc,
            "locality_name": w.LOCALITIES[loc], "rows": rows, "not_found": missing}


def pa_lookup(args):
    mid, last = args.get("member_id"), args.get("last_name")
    if not mid and not last:
        raise ToolError("give member_id or last_name")
    code = args.get("code")
    out = []
    for a in w.AUTHS:
        if mid and a["member_id"] != mid:
            continue
        if last and not a["patient"].startswith(last.upper() + ","):
            continue
        if code and a["code"] != code:
            continue
        out.append(dict(a, remaining_units=a["approved_units"] - a["used_units"]))
    return {"count": len(out), "auths": out}


def dup_search(args):
    mid = member_arg(args)
    lo = args.get("dos_from") or "2025-01-01"
    hi = args.get("dos_to") or w.AS_OF
    out = []
    for h in w.HISTORY:
        if h["member_id"] == mid and any(lo <= l["dos"] <= hi for l in h["lines"]):
            out.append(dict(h, provider=w.PROVIDERS[h["billing_npi"]]["name"], total_paid=cents(sum(l["paid"] for l in h["lines"]))))
    for c, x in sorted(w.CLAIMS.items()):
        if x["member_id"] == mid and any(lo <= l["dos"] <= hi for l in x["lines"]):
            out.append({"claim_no": c, "member_id": mid, "received": x["received"], "status": "pended",
                        "billing_npi": x["billing_npi"],
                        "provider": w.PROVIDERS.get(x["billing_npi"], {}).get("name", "(not in directory)"),
                        "frequency": x["frequency"],
                        "lines": [{k: l[k] for k in ("line", "dos", "code", "modifiers", "units", "billed")}
                                  for l in x["lines"]]})
    return {"member_id": mid, "dos_from": lo, "dos_to": hi, "count": len(out), "claims": out}


def cob_lookup(args):
    mid = member_arg(args)
    r = w.COB.get(mid)
    if not r:
        return {"member_id": mid, "other_coverage": [], "this_plan_order": "primary", "verified": "2025-01-06"}
    return dict({"member_id": mid}, **r)


def med_policy(args):
    sec = args.get("section")
    doc = w.POLICY
    if not sec:
        return {"document": doc["document"], "version": doc["version"], "effective": doc["effective"],
                "sections": [{"section": k, "title": v[0], "clauses": [c[0] for c in v[1]]}
                             for k, v in doc["sections"].items()]}
    if sec not in doc["sections"]:
        raise ToolError("no section %r; sections: %s" % (sec, ", ".join(doc["sections"])))
    title, clauses = doc["sections"][sec]
    return {"section": sec, "title": title, "clauses": [{"id": i, "text": t} for i, t in clauses]}


def adj_id(c):
    return "ADJ-250314-%06d" % (crc("adj", c) % 1000000)


def num(v, what):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ToolError("%s must be a number, got %r" % (what, v))
    return float(v)


def adj_claim(args):
    c = claim_arg(args)
    x = w.CLAIMS[c]
    mid = need(args, "member_id")
    if mid != x["member_id"]:
        raise ToolError("%s is for member %s, not %s" % (c, x["member_id"], mid))
    lines = need(args, "lines")
    if not isinstance(lines, list):
        raise ToolError("lines must be a list")
    by_no = {l["line"]: l for l in x["lines"]}
    seen = [l.get("line") for l in lines]
    if sorted(seen) != sorted(by_no):
        raise ToolError("give one entry for each line of %s: lines %s" % (c, sorted(by_no)))
    m = w.MEMBERS[mid]
    out_lines, ded_sum, resp_sum, paid_sum = [], 0.0, 0.0, 0.0
    aid = adj_id(c)
    for e in sorted(lines, key=lambda e: e["line"]):
        cl = by_no[e["line"]]
        act = e.get("action")
        if act not in ("pay", "deny"):
            raise ToolError("line %d: action must be pay or deny" % e["line"])
        if act == "deny":
            if not e.get("carc"):
                raise ToolError("line %d: a denied line needs its CARC" % e["line"])
            out_lines.append({"line": cl["line"], "code": cl["code"], "action": "deny", "carc": str(e["carc"]),
                              "rarc": e.get("rarc"), "paid": 0.0, "line_adj_id": "%s-%d" % (aid, cl["line"])})
            continue
        allowed = num(e.get("allowed"), "line %d allowed" % e["line"])
        copay = num(e.get("copay", 0), "copay")
        ded = num(e.get("deductible", 0), "deductible")
        coins = num(e.get("coinsurance", 0), "coinsurance")
        paid = num(e.get("paid"), "line %d paid" % e["line"])
        if allowed > cl["billed"] + 0.005:
            raise ToolError("line %d: allowed %.2f exceeds billed %.2f" % (e["line"], allowed, cl["billed"]))
        d, glob, pa, unit, by = w.FEES[cl["code"]]
        if pa:
            auth = e.get("auth")
            if not auth:
                raise ToolError("line %d: %s requires prior authorization; give the auth number (or deny with CARC 197)"
                                % (e["line"], cl["code"]))
            a = next((a for a in w.AUTHS if a["auth_no"] == auth), None)
            if a is None:
                raise ToolError("line %d: no authorization %r" % (e["line"], auth))
            if a["member_id"] != mid:
                raise ToolError("line %d: %s was issued to member %s, not to %s; nothing was posted"
                                % (e["line"], auth, a["member_id"], mid))
            if a["code"] != cl["code"] or not a["from"] <= cl["dos"] <= a["to"] \
                    or a["approved_units"] - a["used_units"] < cl["units"]:
                raise ToolError("line %d: %s does not cover %s x%d on %s" % (e["line"], auth, cl["code"], cl["units"], cl["dos"]))
        if "cob_primary_paid" in e:
            num(e["cob_primary_paid"], "cob_primary_paid")
            if paid - 0.005 > allowed - copay - ded - coins:
                raise ToolError("line %d: secondary payment %.2f exceeds the normal benefit" % (e["line"], paid))
            resp = 0.0
        else:
            if abs(allowed - copay - ded - coins - paid) > 0.011:
                raise ToolError("line %d: allowed %.2f - copay %.2f - deductible %.2f - coinsurance %.2f is %.2f, not paid %.2f"
                                % (e["line"], allowed, copay, ded, coins, allowed - copay - ded - coins, paid))
            resp = copay + ded + coins
        ded_sum += ded if "cob_primary_paid" not in e else 0.0
        resp_sum += resp
        paid_sum += paid
        row = {"line": cl["line"], "code": cl["code"], "action": "pay", "allowed": cents(allowed), "copay": cents(copay),
               "deductible": cents(ded), "coinsurance": cents(coins), "paid": cents(paid),
               "line_adj_id": "%s-%d" % (aid, cl["line"])}
        if e.get("auth"):
            row["auth"] = e["auth"]
        if "cob_primary_paid" in e:
            row["cob_primary_paid"] = cents(e["cob_primary_paid"])
        out_lines.append(row)
    interest = num(args.get("interest", 0) or 0, "interest")
    return {"adjudication_id": aid, "claim_no": c, "member_id": mid, "status": "finalized",
            "adjudicated_at": "2025-03-14T%02d:%02d:00-07:00" % (9 + crc("h", c) % 3, crc("m", c) % 60),
            "lines": out_lines, "total_paid": cents(paid_sum), "interest": cents(interest),
            "member_responsibility": cents(resp_sum),
            "accumulators_after": {"plan_year": 2025, "deductible_applied": cents(ded_sum), "oop_applied": cents(resp_sum),
                                   "posting": "intraday; elig-check shows the nightly run's accumulators until "
                                              "tonight's run"},
            "remit": "835 batch ERA-20250317 (payment cycle Monday)"}


def batch_submit(args):
    bid = need(args, "batch_id")
    if bid != w.BATCH:
        raise ToolError("no open batch %r" % bid)
    need(args, "adjudicator")
    rows = need(args, "claims")
    got = {}
    for r in rows:
        c = r.get("claim_no")
        if c not in w.CLAIMS:
            raise ToolError("no claim %r in the batch" % c)
        if r.get("adjudication_id") != adj_id(c):
            raise ToolError("%s: adjudication id %r is not this claim's" % (c, r.get("adjudication_id")))
        got[c] = r
    missing = [c for c in w.DUE if c not in got]
    if missing:
        raise ToolError("due claims not finalized: %s" % ", ".join(missing))
    carried = args.get("carried_over") or []
    if sorted(carried) != w.LATER:
        raise ToolError("carried_over must list the pended claims not yet due: %d expected" % len(w.LATER))
    paid = cents(sum(float(r.get("paid") or 0) for r in rows))
    interest = cents(sum(float(r.get("interest") or 0) for r in rows))
    late = [c for c in got if w.due_by(c) < w.AS_OF]
    return {"report_id": "BR-20250314-%04d" % (crc("rpt", *sorted(got)) % 10000), "batch_id": bid,
            "status": "accepted", "received_at": "2025-03-14T15:42:08-07:00", "claims_finalized": len(got),
            "paid_lines_total": paid, "interest_total": interest, "finalized_after_due_date": sorted(late),
            "carried_over": len(carried), "next_due": min(w.due_by(c) for c in w.LATER)}


TOOLS = {"clm-queue": clm_queue, "clm-get": clm_get, "elig-check": elig_check, "prov-lookup": prov_lookup,
         "fee-schedule": fee_schedule, "pa-lookup": pa_lookup, "dup-search": dup_search, "cob-lookup": cob_lookup,
         "med-policy": med_policy, "adj-claim": adj_claim, "clm-batch-submit": batch_submit}

if __name__ == "__main__":
    serve(TOOLS)
