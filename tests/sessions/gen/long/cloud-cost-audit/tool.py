#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the cloud-cost-audit session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: ticket keys are derived from the request itself."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

COST_TYPES = ["amortized", "net_amortized", "unblended", "net_unblended"]
GROUPS = ["account", "service", "day", "team"]
KINDS = ["instance", "volume", "db", "cache", "opensearch", "bucket", "nat-gateway", "kafka", "redshift", "load-balancer"]
REGIONS = sorted({region for _, region in w.EC2_PRICES})


def month(args):
    m = need(args, "month")
    if m != w.MONTH:
        raise ToolError("no bill for %r: the cost data holds %s (closed 2024-11-03)" % (m, w.MONTH))
    return m


def account(args, required=True):
    a = args.get("account_id") if not required else need(args, "account_id")
    if a is None:
        return None
    if a not in w.ACCOUNT_NAME:
        raise ToolError("no account %r in the organisation (accounts: %s)" % (a, ", ".join(w.ACCOUNT_NAME)))
    return a


def cost_report(args):
    m = month(args)
    group = need(args, "group_by")
    if group not in GROUPS:
        raise ToolError("cannot group by %r (group_by: %s)" % (group, ", ".join(GROUPS)))
    ctype = args.get("cost_type") or "amortized"
    if ctype not in COST_TYPES:
        raise ToolError("unknown cost_type %r (cost types: %s)" % (ctype, ", ".join(COST_TYPES)))
    acc = account(args, required=False)
    service = args.get("service")
    lines = [x for x in w.lines() if (acc is None or x[0] == acc) and (service is None or x[1] == service)]
    if service is not None and not lines:
        raise ToolError("no cost for service %r%s" % (service, " in account %s" % acc if acc else ""))
    sums = {}
    for a, s, team, _, daily in lines:
        f = w.factor(s, ctype)
        if group == "day":
            for i, x in enumerate(daily):
                sums[(w.DATES[i],)] = sums.get((w.DATES[i],), 0.0) + x * f
            continue
        key = {"account": (a,), "service": (s, a), "team": (team or "(untagged)",)}[group]
        sums[key] = sums.get(key, 0.0) + sum(daily) * f
    total = sum(sums.values())
    keys = sorted(sums) if group == "day" else sorted(sums, key=lambda k: -sums[k])
    rows = []
    for k in keys:
        row = {"key": k[0]}
        if group in ("account", "service"):
            a = k[0] if group == "account" else k[1]
            if group == "service":
                row["account_id"] = a
            row["account_name"] = w.ACCOUNT_NAME[a]
        row["amount"] = round(sums[k], 2)
        row["share_pct"] = round(100 * sums[k] / total, 2)
        rows.append(row)
    page = int(args.get("page") or 1)
    pages = max(1, (len(rows) + w.PAGE_SIZE - 1) // w.PAGE_SIZE)
    if not 1 <= page <= pages:
        raise ToolError("page %d out of range 1..%d" % (page, pages))
    out = {"month": m, "group_by": group, "cost_type": ctype, "currency": "USD"}
    if acc:
        out["account_id"] = acc
    if service:
        out["service"] = service
    out.update({"total": round(total, 2), "page": page, "pages": pages, "rows": rows[(page - 1) * w.PAGE_SIZE:
                                                                                      page * w.PAGE_SIZE]})
    return out


def resource_view(r):
    out = {"resource_id": r["resource_id"], "arn": r["arn"], "kind": r["kind"], "type": r["type"],
           "region": r["region"]}
    if r.get("az"):
        out["az"] = r["az"]
    out.update({"state": r["state"], "launched": r["launched"], "tags": r["tags"], "created_by": r["created_by"],
                "monthly_cost": round(r["monthly"], 2)})
    if r.get("size_gb"):
        out["size_gb"] = r["size_gb"]
    if r.get("attached_to"):
        out["attached_to"] = r["attached_to"]
    if r.get("detached"):
        out["available_since"] = r["detached"]
    return out


def resources(args):
    acc = account(args)
    kind = args.get("kind")
    if kind is not None and kind not in KINDS:
        raise ToolError("unknown kind %r (kinds: %s)" % (kind, ", ".join(KINDS)))
    rows = [resource_view(r) for r in w.RESOURCES if r["account_id"] == acc and (kind is None or r["kind"] == kind)]
    return {"account_id": acc, "account_name": w.ACCOUNT_NAME[acc], "count": len(rows), "resources": rows}


def _minus(date, days):
    d = int(date[-2:])
    if d - days + 1 >= 1:
        return date[:-2] + "%02d" % (d - days + 1)
    return "2024-10-%02d" % (31 + d - days + 1)


def utilisation(args):
    rid = need(args, "resource_id")
    r = w.RES_BY_ID.get(rid)
    if r is None:
        hint = ""
        if isinstance(rid, str) and rid.startswith("arn:"):
            hint = "; give the resource id (i-..., vol-..., a db or cluster name), not the ARN"
        raise ToolError("no resource %r in the organisation%s" % (rid, hint))
    days = int(args.get("days") or 14)
    if not 1 <= days <= 30:
        raise ToolError("days must be between 1 and 30")
    out = {"resource_id": rid, "kind": r["kind"], "type": r["type"], "days": days,
           "from": _minus(w.UTIL_END, days), "to": w.UTIL_END, "state": r["state"]}
    if r["kind"] == "volume":
        out["attached_to"] = r.get("attached_to")
        out["available_since"] = r.get("detached")
        out["iops_avg"] = 0.0 if r["state"] == "available" else round(40 + crc("iops", rid) % 900 / 10, 1)
        return out
    if r["kind"] == "nat-gateway":
        first = _minus(w.UTIL_END, days)
        gb = [x for d, x in zip(w.DATES, r["gb"]) if d >= first] if first.startswith("2024-10") else []
        out["network_gb"] = round(sum(gb) + 31.0 * (4 if first.startswith("2024-10") else int(w.UTIL_END[-2:]) - int(first[-2:]) + 1), 1)
        return out
    if r["kind"] == "bucket":
        out["network_gb"] = round(r["size_gb"] * 0.002 * days, 1)
        return out
    out.update(w.util_of(r, days))
    return out


def coverage(args):
    m = month(args)
    rows = w.coverage_rows()
    odh = sum(x["on_demand_hours"] for x in rows)
    cov = sum(x["covered_hours"] for x in rows)
    return {"month": m, "target_pct": w.COVERAGE_TARGET, "ec2_coverage_pct": round(100 * cov / (odh + cov), 1),
            "savings_plans": w.SAVINGS_PLANS, "reserved_instances": w.RESERVATIONS, "by_family": rows}


def tagging_policy(args):
    return w.TAGGING_POLICY


def directory(args):
    team, service, email, name = (args.get(k) for k in ("team", "service", "email", "name"))
    if not any((team, service, email, name)):
        raise ToolError("give a team, service, email or name")
    people, services = [], []
    if team:
        people += [p for p in w.PEOPLE if p["team"] == team]
        services += [s for s, v in w.SERVICES.items() if v[0] == team]
    if service:
        if service in w.SERVICES:
            services.append(service)
            people += [w.PERSON[w.SERVICES[service][1]]]
    if email:
        p = w.PERSON.get(email.lower())
        if p:
            people.append(p)
            services += [s for s, v in w.SERVICES.items() if v[1] == p["email"]]
    if name:
        people += [p for p in w.PEOPLE if name.lower() in p["name"].lower()]
    seen, ppl = set(), []
    for p in people:
        if p["email"] not in seen:
            seen.add(p["email"])
            ppl.append(p)
    svc = []
    for s in dict.fromkeys(services):
        t, owner, since, prev = w.SERVICES[s]
        row = {"service": s, "team": t, "owner": owner, "since": since}
        if prev:
            row["previous_team"] = prev
            row["note"] = "transferred from %s to %s on %s" % (prev, t, since)
        svc.append(row)
    return {"people": ppl, "services": svc}


def price_list(args):
    itype = need(args, "instance_type")
    region = need(args, "region")
    os_ = args.get("os") or "Linux"
    if region not in REGIONS:
        if region[:-1] in REGIONS and region[-1].isalpha():
            raise ToolError("unknown region %r: that is an availability zone, prices are per region (%s)"
                            % (region, region[:-1]))
        raise ToolError("unknown region %r (regions: %s)" % (region, ", ".join(REGIONS)))
    if os_ != "Linux":
        raise ToolError("only Linux prices are loaded")
    p = w.EC2_PRICES.get((itype, region))
    if p is None:
        types = sorted(t for t, r in w.EC2_PRICES if r == region)
        raise ToolError("no price for %r in %s (types: %s)" % (itype, region, ", ".join(types)))
    vcpu, mem, od, ri, sp = p
    return {"instance_type": itype, "region": region, "os": os_, "vcpu": vcpu, "memory_gib": mem, "currency": "USD",
            "on_demand_hourly": od, "ri_1y_no_upfront_hourly": ri, "savings_plan_1y_hourly": sp,
            "price_basis": "public list price", "contract": w.EDP}


def tickets(args):
    words = need(args, "query").lower().split()
    status = args.get("status") or "all"
    out = []
    for t in w.TICKETS:
        hay = " ".join([t["summary"], t["text"], " ".join(t["labels"]), " ".join(t["resources"])]).lower()
        if all(x in hay for x in words) and status in ("all", t["status"]):
            out.append({"key": t["key"], "summary": t["summary"], "status": t["status"], "assignee": t["assignee"],
                        "created": t["created"], "labels": t["labels"], "resources": t["resources"],
                        "snippet": t["text"][:160]})
    return out


def new_ticket_key(summary):
    return "FINOPS-%d" % (412 + crc(summary) % 60)


def ticket_create(args):
    summary = need(args, "summary")
    need(args, "description")
    assignee = need(args, "assignee")
    if assignee not in w.PERSON:
        near = [p["email"] for p in w.PEOPLE if assignee.lower() in p["name"].lower()]
        raise ToolError("unknown assignee %r%s" % (assignee, " (did you mean %s?)" % near[0] if near else
                                                   "; assignees are emails from the directory"))
    labels = args.get("labels") or []
    bad = [x for x in labels if x not in w.LABELS]
    if bad:
        raise ToolError("unknown labels %s (labels: %s)" % (", ".join(bad), ", ".join(w.LABELS)))
    key = new_ticket_key(summary)
    out = {"ok": True, "key": key, "url": "https://kestrel.atlassian.net/browse/%s" % key, "summary": summary,
           "assignee": assignee, "labels": labels, "status": "open", "created": w.AS_OF}
    if args.get("monthly_savings_usd") is not None:
        out["monthly_savings_usd"] = args["monthly_savings_usd"]
    return out


def budget_alerts(args):
    month(args)
    out = []
    for b in w.budgets():
        used = 100 * b["actual_raw"] / b["limit_raw"]
        out.append({"alert_id": b["alert_id"], "budget": b["budget"], "scope": b["scope"], "basis": "net amortized",
                    "limit": w.usd(b["limit_raw"]), "actual": w.usd(b["actual_raw"]), "used_pct": round(used, 1),
                    "state": "ALARM" if used > 100 else "OK", "first_breach": b["first_breach"]})
    return out


TOOLS = {"cost-report": cost_report, "resources": resources, "utilisation": utilisation, "coverage": coverage,
         "tagging-policy": tagging_policy, "directory": directory, "price-list": price_list, "tickets": tickets,
         "ticket-create": ticket_create, "budget-alerts": budget_alerts}

if __name__ == "__main__":
    serve(TOOLS)
