#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the incident-investigation session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, need, serve  # noqa: E402


def window(args):
    try:
        lo, hi = w.parse_ts(need(args, "from")), w.parse_ts(need(args, "to"))
    except ValueError as e:
        raise ToolError(str(e))
    if hi <= lo:
        raise ToolError("`to` must be after `from`")
    if lo < w.RANGE[0] or hi > w.RANGE[1]:
        raise ToolError("data is only kept for %s to %s" % (w.ts(w.RANGE[0]), w.ts(w.RANGE[1])))
    return lo, hi


def service(args):
    name = need(args, "service")
    if name not in w.SERVICE_NAMES:
        raise ToolError("unknown service %r" % name)
    return name


def list_services(args):
    return w.SERVICES


def get_metrics(args):
    svc = service(args)
    metric = need(args, "metric")
    known = w.METRICS.get(svc, [])
    if metric not in known:
        raise ToolError("unknown metric %r for %s; available: %s" % (metric, svc, ", ".join(known) or "none"))
    lo, hi = window(args)
    step = int(args.get("step_s") or 60)
    if step % 60 or step <= 0:
        raise ToolError("step_s must be a multiple of 60")
    if (hi - lo) // step > 240:
        raise ToolError("at most 240 points per query; use a larger step_s")
    points = []
    for start in range(lo - lo % 60, hi, step):
        vals = [w.metric_value(svc, metric, m) for m in range(start, min(start + step, hi), 60)]
        v = max(vals)
        points.append([w.ts(start), v])
    unit = "ms" if metric.endswith("_ms") else "pct" if metric.endswith("_pct") else \
        "ratio" if metric == "error_rate" else "req/s" if metric == "rps" else "connections"
    return {"service": svc, "metric": metric, "unit": unit, "step_s": step, "points": points}


def search_logs(args):
    svc = service(args)
    lo, hi = window(args)
    level = args.get("level")
    if level is not None and level not in ("ERROR", "WARN", "INFO"):
        raise ToolError("level must be ERROR, WARN or INFO")
    query = args.get("query")
    limit = int(args.get("limit") or 50)
    if limit > 200:
        raise ToolError("limit must be at most 200")
    hits = [e for e in w.log_entries(svc)
            if lo <= w.parse_ts(e["ts"]) < hi
            and (level is None or e["level"] == level)
            and (query is None or query.lower() in (e["msg"] + " " + e["host"]).lower())]
    return {"total": len(hits), "returned": min(limit, len(hits)), "entries": hits[:limit]}


def list_deploys(args):
    since = need(args, "since")
    svc = args.get("service")
    if svc is not None and svc not in w.SERVICE_NAMES:
        raise ToolError("unknown service %r" % svc)
    return [d for d in w.DEPLOYS if d["at"] >= since and (svc is None or d["service"] == svc)]


def get_config_diff(args):
    dep = need(args, "deploy_id")
    for d in w.DEPLOYS:
        if d["id"] == dep:
            return {"deploy_id": dep, "service": d["service"], "diff": w.DIFFS[dep]}
    raise ToolError("no deploy %r" % dep)


def get_trace(args):
    tid = need(args, "trace_id")
    t = w.trace(tid)
    if t is None:
        raise ToolError("trace %r not found (sampled traces of failed requests are kept 7 days)" % tid)
    return t


def checkout_stats(args):
    lo, hi = window(args)
    per = []
    for m in range(lo - lo % 60, hi, 60):
        a, f = w.minute_stats(m)
        per.append({"minute": w.ts(m), "attempts": a, "failed": f})
    return {"from": w.ts(lo), "to": w.ts(hi), "attempts": sum(p["attempts"] for p in per),
            "failed": sum(p["failed"] for p in per), "avg_order_eur": w.AVG_ORDER_EUR, "per_minute": per}


def get_change(args):
    cid = need(args, "id")
    if cid not in w.CHANGES:
        raise ToolError("no change request %r" % cid)
    return w.CHANGES[cid]


TOOLS = {"list-services": list_services, "get-metrics": get_metrics, "search-logs": search_logs,
         "list-deploys": list_deploys, "get-config-diff": get_config_diff, "get-trace": get_trace,
         "checkout-stats": checkout_stats, "get-change": get_change}

if __name__ == "__main__":
    serve(TOOLS)
