#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the payroll-close session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: batch ids are derived from a batch's currency, count and total (so
a submit can check its control totals), the approval id from the request."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

APPROVERS = ["r.nakashima", "j.pryor"]


def run_arg(args):
    rid = need(args, "run_id")
    if rid != w.RUN_ID:
        if rid in (w.PREV_RUN, "PR-2025-10B"):
            raise ToolError("run %s is closed; the open run is %s" % (rid, w.RUN_ID))
        raise ToolError("no pay run %r (run ids look like %s)" % (rid, w.RUN_ID))
    return rid


def name_of(eid):
    return (w.US_EMP.get(eid) or w.GB_EMP.get(eid))[0]


def pay_run(args):
    if not args.get("run_id"):
        return {"as_of": w.AS_OF, "runs": [
            {"run_id": w.RUN_ID, "group": "HGI-SEMI", "period": "%s..%s" % w.PERIOD, "pay_date": w.PAY_DATE,
             "status": "open", "employees": len(w.RUN_IDS), "bank_cutoff": w.CUTOFF},
            {"run_id": w.PREV_RUN, "group": "HGI-SEMI", "period": "2025-05-16..2025-05-31", "pay_date": "2025-06-05",
             "status": "closed", "employees": 20, "approval_id": w.PREV_APPROVAL},
            {"run_id": "PR-2025-10B", "group": "HGI-SEMI", "period": "2025-05-01..2025-05-15", "pay_date": "2025-05-20",
             "status": "closed", "employees": 20, "approval_id": "APR-2025-01790"}]}
    rid = run_arg(args)
    emps = []
    for eid in w.RUN_IDS:
        if eid in w.US_EMP:
            e = w.US_EMP[eid]
            emps.append({"employee_id": eid, "name": e[0], "country": "US", "currency": "USD", "cost_centre": e[1],
                         "pay_basis": e[3]})
        else:
            e = w.GB_EMP[eid]
            emps.append({"employee_id": eid, "name": e[0], "country": "GB", "currency": "GBP", "cost_centre": e[1],
                         "pay_basis": "annual"})
    return {"run_id": rid, "group": "HGI-SEMI", "company": "Harrowgate Instruments", "period": "%s..%s" % w.PERIOD,
            "pay_date": w.PAY_DATE, "bank_cutoff": w.CUTOFF, "previous_run": w.PREV_RUN, "status": "open",
            "calendar": {"calendar_days": 15, "working_days": 10, "holidays": [],
                         "first_day_weekday": "Sunday"},
            "cost_centres": [{"code": k, "name": v} for k, v in sorted(w.COST_CENTRES.items())],
            "employees": emps}


def pay_employees(args):
    country = need(args, "country")
    if country not in ("US", "GB"):
        raise ToolError("country must be US or GB, got %r" % country)
    ids = args.get("employee_ids")
    out = []
    if country == "US":
        for eid in w.US_IDS:
            if ids and eid not in ids:
                continue
            e = w.US_EMP[eid]
            out.append({"employee_id": eid, "name": e[0], "cost_centre": e[1], "grade": e[2], "pay_basis": e[3],
                        "pay_rate": e[4], "currency": "USD", "flsa": "non-exempt" if e[3] == "hourly" else "exempt",
                        "hire_date": w.HIRE_DATES[eid], "status": "active",
                        "tax": {"w4_filing_status": e[5], "state": "MA", "ytd_ss_wages": w.YTD_SS_WAGES.get(eid, 0.0)},
                        "bank": {"rail": "ACH", "account_last4": e[6]}})
    else:
        for eid in w.GB_IDS:
            if ids and eid not in ids:
                continue
            e = w.GB_EMP[eid]
            out.append({"employee_id": eid, "name": e[0], "cost_centre": e[1], "grade": e[2], "pay_basis": "annual",
                        "pay_rate": e[3], "currency": "GBP", "hire_date": w.HIRE_DATES[eid], "status": "active",
                        "tax": {"tax_code": e[4], "ni_category": e[5]},
                        "bank": {"rail": "BACS", "account_last4": e[6]}})
    return {"country": country, "count": len(out), "employees": out}


def pay_timesheets(args):
    run_arg(args)
    rows = []
    for eid in w.HOURLY:
        for r in w.timesheet_rows(eid):
            rows.append(dict({"employee_id": eid}, **r))
    return {"export_id": w.EXPORT_ID, "exported": "2025-06-16T07:12:40-04:00", "period": "%s..%s" % w.PERIOD,
            "notes": w.TS_NOTES, "approved": True, "rows": rows}


def pay_changes(args):
    run_arg(args)
    return {"run_id": w.RUN_ID, "count": len(w.CHANGES), "changes": w.CHANGES}


def pay_benefits(args):
    ids = need(args, "employee_ids")
    if not isinstance(ids, list):
        raise ToolError("employee_ids must be a list of employee ids")
    out = []
    for eid in ids:
        if eid in w.BENEFITS_US:
            med_plan, med, den_plan, den, pct, ytd = w.BENEFITS_US[eid]
            if eid == "E-10455":
                pct = 10
            out.append({"employee_id": eid, "medical": {"plan": med_plan, "per_period": med, "pre_tax": True},
                        "dental": {"plan": den_plan, "per_period": den, "pre_tax": True},
                        "retirement": {"plan": "401k" if pct else None, "pct": pct, "ytd": ytd, "annual_cap": w.K401_CAP, "pre_tax": True}})
        elif eid in w.PENSION_GB:
            out.append({"employee_id": eid, "pension": {"scheme": "HGI-GPP", "pct": w.PENSION_GB[eid],
                                                        "salary_sacrifice": True}})
        else:
            raise ToolError("no employee %r" % eid)
    return {"count": len(out), "benefits": out,
            "notes": ["401(k): the deferral stops at the annual cap (ytd + this period <= annual_cap)",
                      "US medical and dental are section 125 (pre-tax for federal, MA and FICA)",
                      "E-10561: benefits start 2025-07-01"]}


def pay_tax_tables(args):
    j = need(args, "jurisdiction")
    if j not in w.TAX_TABLES:
        raise ToolError("unknown jurisdiction %r; available: %s" % (j, ", ".join(sorted(w.TAX_TABLES))))
    return w.TAX_TABLES[j]


def pay_garnishments(args):
    run_arg(args)
    return {"run_id": w.RUN_ID, "orders": w.GARNISHMENTS,
            "rules": ["apply after taxes; disposable earnings = gross - federal, state, social security and medicare",
                      "child support: amount_per_period, at most max_pct_disposable of disposable earnings",
                      "creditor levy: max_pct_disposable of disposable earnings, at most balance_remaining"]}


def pay_fx(args):
    pair = need(args, "pair")
    if pair != "GBP/USD":
        raise ToolError("pair must be GBP/USD (the only funded pair of HGI-SEMI)")
    d = args.get("date") or w.FX_LAST
    if d not in w.FX:
        if d > w.FX_LAST:
            raise ToolError("no fixing for %s yet: fixings are published up to %s (as of %s)" % (d, w.FX_LAST, w.AS_OF))
        raise ToolError("no fixing for %s (weekend or holiday); fixings: %s" % (d, ", ".join(sorted(w.FX))))
    return {"pair": pair, "date": d, "rate": w.FX[d], "source": "WM/Reuters 16:00 London fix",
            "recent": [{"date": k, "rate": v} for k, v in sorted(w.FX.items())]}


def pay_variance(args):
    run_arg(args)
    lines = need(args, "lines")
    seen = set()
    rows, flags = [], []
    for ln in lines:
        eid = ln.get("employee_id")
        if eid not in w.RUN_IDS:
            raise ToolError("line for %r: not an employee of %s" % (eid, w.RUN_ID))
        seen.add(eid)
        prev = w.PREV.get(eid)
        row = {"employee_id": eid, "name": name_of(eid), "gross": ln.get("gross"), "overtime": ln.get("overtime", 0.0),
               "net": ln.get("net")}
        if prev is None:
            row["previous"] = None
            row["flags"] = ["new: no line in %s" % w.PREV_RUN]
        else:
            row["previous"] = prev
            f = []
            for k, lim in (("gross", 10), ("net", 10), ("overtime", 25)):
                cur, old = float(ln.get(k) or 0.0), prev[k]
                if old:
                    pct = round(100.0 * (cur - old) / old, 1)
                    row["%s_change_pct" % k] = pct
                    if abs(pct) > lim:
                        f.append("%s %+.1f%% vs %s (threshold %d%%)" % (k, pct, w.PREV_RUN, lim))
            row["flags"] = f
        rows.append(row)
        if row["flags"]:
            flags.append(eid)
    missing = [{"employee_id": k, "previous": v, "note": "terminated 2025-05-30, final pay in %s" % w.PREV_RUN}
               for k, v in sorted(w.PREV.items()) if v and k not in seen and k not in w.RUN_IDS]
    return {"run_id": w.RUN_ID, "previous_run": w.PREV_RUN, "lines": len(rows), "flagged": flags, "rows": rows,
            "not_in_this_run": missing}


def batch_id(cur, count, total):
    return "%s-250620-%04d" % ("ACH" if cur == "USD" else "BACS", crc("batch", cur, count, "%.2f" % total) % 10000)


def pay_bank_preview(args):
    run_arg(args)
    pays = need(args, "payments")
    if not isinstance(pays, list) or not pays:
        raise ToolError("payments must be a non-empty list of {employee_id, amount}")
    by = {"USD": [], "GBP": []}
    for p in pays:
        eid = p.get("employee_id")
        if eid not in w.RUN_IDS:
            raise ToolError("payment for %r: not an employee of %s" % (eid, w.RUN_ID))
        a = p.get("amount")
        if not isinstance(a, (int, float)) or a <= 0:
            raise ToolError("payment for %s: amount must be a positive number, got %r" % (eid, a))
        if abs(a * 100 - round(a * 100)) > 1e-6:
            raise ToolError("payment for %s: amount %r has more than 2 decimals; the bank file takes cents/pence, "
                            "round each amount to 2 decimals" % (eid, a))
        cur = "USD" if eid in w.US_EMP else "GBP"
        if p.get("currency") not in (None, cur):
            raise ToolError("payment for %s: currency %s, but %s is paid in %s" % (eid, p.get("currency"), eid, cur))
        last4 = w.NEW_ACCOUNT if eid == w.DANA_GB else (w.US_EMP.get(eid) or w.GB_EMP.get(eid))[-1]
        by[cur].append({"employee_id": eid, "name": name_of(eid), "account_last4": last4, "amount": a})
    batches, warnings = [], []
    for cur, rows in by.items():
        if not rows:
            continue
        total = round(sum(r["amount"] for r in rows), 2)
        batches.append({"batch_id": batch_id(cur, len(rows), total), "currency": cur,
                        "rail": "ACH (NACHA PPD, HGI Boston operating account ..6604)" if cur == "USD"
                        else "BACS (HGI UK Ltd, Barclays ..1172)",
                        "settlement_date": w.PAY_DATE if cur == "USD" else "2025-06-20",
                        "count": len(rows), "total": total, "payments": sorted(rows, key=lambda r: r["employee_id"])})
    ids = {p.get("employee_id") for p in pays}
    for eid in w.RUN_IDS:
        if eid not in ids:
            warnings.append("%s %s: no payment in this file" % (eid, name_of(eid)))
    if w.DANA_GB in ids:
        warnings.append("%s Dana Whitfeld: first payment to the new account ..%s (CHG-5527, callback verified 2025-06-13)"
                        % (w.DANA_GB, w.NEW_ACCOUNT))
    if w.LEAVER in ids:
        warnings.append("%s Grace Lindqvist: final pay of a leaver (CHG-5519); account stays open until settlement"
                        % w.LEAVER)
    return {"run_id": w.RUN_ID, "file": "HGI-SEMI-%s.preview" % w.PAY_DATE.replace("-", ""), "batches": batches,
            "warnings": warnings}


def pay_submit(args):
    rid = run_arg(args)
    batches = need(args, "batches")
    approver = need(args, "approver")
    if approver not in APPROVERS:
        raise ToolError("approver must be one of %s (payroll controllers of HGI-SEMI)" % ", ".join(APPROVERS))
    for b in batches:
        bid, cur, n, tot = b.get("batch_id"), b.get("currency"), b.get("count"), b.get("total")
        if cur not in ("USD", "GBP") or not isinstance(n, int) or not isinstance(tot, (int, float)):
            raise ToolError("each batch needs batch_id, currency (USD or GBP), count and total")
        if bid != batch_id(cur, n, round(tot, 2)):
            raise ToolError("batch %s: control count %d / total %.2f do not match the bank file preview; "
                            "preview again and copy its count and total" % (bid, n, tot))
    aid = "APR-2025-%05d" % (1900 + crc("apr", rid, *[b["batch_id"] for b in batches]) % 100)
    return {"approval_id": aid, "run_id": rid, "status": "pending_approval", "approver": approver,
            "submitted": "2025-06-18T10:41:27-04:00", "bank_cutoff": w.CUTOFF,
            "batches": [b["batch_id"] for b in batches],
            "next": "the approver releases the files in the bank portal; release before the cut-off"}


TOOLS = {"pay-run": pay_run, "pay-employees": pay_employees, "pay-timesheets": pay_timesheets,
         "pay-changes": pay_changes, "pay-benefits": pay_benefits, "pay-tax-tables": pay_tax_tables,
         "pay-garnishments": pay_garnishments, "pay-fx": pay_fx, "pay-variance": pay_variance,
         "pay-bank-preview": pay_bank_preview, "pay-submit": pay_submit}

if __name__ == "__main__":
    serve(TOOLS)
