#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the sql-analytics session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: query ids, timings and report ids are derived from the request itself."""
import os
import re
import sqlite3
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

# --- the catalogue -------------------------------------------------------------------------------

TABLES = {
    "analytics.dim_users": ("table", "One row per user: signup time, plan and channel at signup. Source of truth for "
                            "cohorts (owner: data-platform).", "user_id", [
        ("user_id", "BIGINT", "primary key"),
        ("signup_ts", "TIMESTAMP", "account creation time, UTC"),
        ("plan_at_signup", "VARCHAR", "free | premium_trial"),
        ("country", "VARCHAR", "ISO 3166-1 alpha-2, from the store or IP at signup"),
        ("acquisition_channel", "VARCHAR", "organic | app_store_search | referral | paid_social"),
        ("is_test", "INTEGER", "1 for internal, QA and load-test accounts; exclude in all reporting")]),
    "analytics.dim_user": ("view", "DEPRECATED (2024-06): legacy user view kept for old dashboards; use "
                           "analytics.dim_users.", "user_id", [
        ("user_id", "BIGINT", ""),
        ("signed_up_at", "TIMESTAMP", "signup time in America/Los_Angeles local time (no offset)"),
        ("platform", "VARCHAR", "platform of the user's most recent session"),
        ("plan", "VARCHAR", "current plan (free | premium), not the plan at signup"),
        ("country", "VARCHAR", "")]),
    "analytics.dim_devices": ("table", "One row per device (app install or browser) a user has used.", "device_id", [
        ("device_id", "VARCHAR", "primary key"),
        ("user_id", "BIGINT", "a user can have several devices"),
        ("platform", "VARCHAR", "ios | android | web"),
        ("app_version", "VARCHAR", "version installed when the device was first seen"),
        ("first_seen_ts", "TIMESTAMP", "UTC"),
        ("is_signup_device", "INTEGER", "1 for the device the account was created on"),
        ("push_opt_in", "INTEGER", "1 if the OS notification permission was granted during onboarding; NULL on web")]),
    "analytics.fct_sessions": ("table", "App and web sessions, one row per session; partitioned by "
                               "session_start_ts (daily).", "session_id", [
        ("session_id", "VARCHAR", "primary key"),
        ("device_id", "VARCHAR", "-> analytics.dim_devices"),
        ("user_id", "BIGINT", "-> analytics.dim_users"),
        ("platform", "VARCHAR", "platform of the session's device"),
        ("session_start_ts", "TIMESTAMP", "UTC; partition column"),
        ("duration_s", "INTEGER", "foreground seconds; sessions under 10 s are mostly widget taps and push opens")]),
    "analytics.fct_experiment_exposures": ("table", "First exposure of a user to an experiment (experiment "
                                           "registry keys).", None, [
        ("experiment_key", "VARCHAR", "key in the experiment registry"),
        ("variant", "VARCHAR", ""),
        ("user_id", "BIGINT", ""),
        ("exposed_ts", "TIMESTAMP", "UTC")]),
}
COLD = {"analytics.fct_events": "Raw client events. Moved to cold storage on 2024-11-01 (events lake); not "
                                "queryable from the warehouse."}


def row_count(table):
    return w.sql("SELECT COUNT(*) FROM %s" % table)[1][0][0]


def wh_schemas(args):
    tables = [{"table": t, "kind": k, "rows": row_count(t), "description": d} for t, (k, d, _, _) in TABLES.items()]
    tables.append({"table": "analytics.fct_events", "kind": "external", "rows": None,
                   "description": COLD["analytics.fct_events"]})
    return {"warehouse": w.WAREHOUSE, "schemas": [{"schema": "analytics", "tables": sorted(tables, key=lambda t: t["table"])}],
            "data_until": w.DATA_UNTIL + " UTC"}


def wh_describe(args):
    t = need(args, "table").strip()
    if "." not in t:
        t = "analytics." + t
    if t in COLD:
        return {"table": t, "kind": "external", "description": COLD[t], "columns": []}
    if t not in TABLES:
        near = [x for x in TABLES if x.rstrip("s") == t.rstrip("s")]
        raise ToolError("table %s does not exist%s" % (t, " (did you mean %s?)" % near[0] if near else ""))
    kind, desc, pk, cols = TABLES[t]
    return {"table": t, "kind": kind, "rows": row_count(t), "description": desc, "primary_key": pk,
            "columns": [{"name": n, "type": ty, "comment": c} for n, ty, c in cols]}


def check_sql(args):
    q = need(args, "sql").strip().rstrip(";")
    if not re.match(r"(?is)^\s*(select|with)\b", q):
        raise ToolError("only SELECT (or WITH ... SELECT) statements run in interactive queries")
    for t in re.findall(r"(?i)\banalytics\.(\w+)", q):
        if "analytics." + t.lower() in COLD:
            raise ToolError("analytics.%s is an external table in cold storage; not queryable from the warehouse" % t)
    return q


def tables_in(q):
    return sorted({"analytics." + t.lower() for t in re.findall(r"(?i)\banalytics\.(\w+)", q)})


def wh_query(args):
    q = check_sql(args)
    limit = int(args.get("max_rows") or w.MAX_ROWS)
    if limit > w.MAX_ROWS:
        raise ToolError("max_rows %d is over the limit of %d for interactive queries" % (limit, w.MAX_ROWS))
    try:
        con = w.connect()
        cur = con.execute(q)
        cols = [c[0] for c in cur.description]
        rows = [list(r) for r in cur.fetchall()]
    except sqlite3.Error as e:
        raise ToolError("SQL compilation error: %s" % e)
    if len(rows) > limit:
        raise ToolError("query returned %d rows, over the %d-row limit of interactive queries: aggregate further or "
                        "add a LIMIT" % (len(rows), limit))
    h = crc("q", q)
    scanned = sum(row_count(t) for t in tables_in(q)) * 61
    return {"query_id": "01b8%04x-%04x" % (h % 65536, (h >> 16) % 65536), "columns": cols, "rows": rows,
            "row_count": len(rows), "bytes_scanned": scanned, "elapsed_ms": 120 + h % 2400}


def wh_explain(args):
    q = check_sql(args)
    try:
        plan = [r[3] for r in w.connect().execute("EXPLAIN QUERY PLAN " + q).fetchall()]
    except sqlite3.Error as e:
        raise ToolError("SQL compilation error: %s" % e)
    tabs = tables_in(q)
    est = sum(row_count(t) for t in tabs) * 61
    warnings = []
    if "analytics.fct_sessions" in tabs and not re.search(r"(?i)session_start_ts\s*(>=|>|between)", q):
        warnings.append("no filter on the partition column session_start_ts: all 2024 partitions of "
                        "analytics.fct_sessions are scanned")
        est *= 9
    if "analytics.dim_user" in tabs:
        warnings.append("analytics.dim_user is deprecated: use analytics.dim_users")
    return {"plan": plan, "tables": tabs, "est_bytes_scanned": est, "est_cost_usd": round(est / 1e12 * 5.0, 4),
            "warnings": warnings}


# --- semantic layer -------------------------------------------------------------------------------

METRICS = {
    "retention_wk4": {
        "metric": "retention_wk4", "label": "Week-4 retention", "status": "certified", "owner": "maya.okafor@loopwell.app",
        "description": "Share of a signup cohort with at least one qualifying session on days 22-28 after signup "
                       "(signup day = day 0).",
        "cohort": {"sql": w.COHORT_DATE,
                   "note": "cohorts are signup dates in the reporting timezone, America/Los_Angeles (signup_ts is UTC)"},
        "numerator": w.WK4_NUM, "denominator": w.WK4_DEN,
        "from": "analytics.dim_users u " + w.WK4_JOIN,
        "filters": [w.WK4_WHERE, "s.duration_s >= 10"],
        "day_n": w.DAY_N,
        "dimensions": ["platform", "plan", "channel", "country"],
        "used_by": ["DB-2291"], "certified_on": "2024-06-18"},
    "retention_w4": {
        "metric": "retention_w4", "label": "Week 4 retention (legacy)", "status": "deprecated",
        "owner": "tom.becker@loopwell.app", "deprecated_on": "2024-06-18", "superseded_by": "retention_wk4",
        "description": "Share of users with any event on days 21-27 after signup, by UTC signup date. Counts widget "
                       "taps and push opens; includes test accounts.",
        "numerator": "COUNT(DISTINCT CASE WHEN e.day_n BETWEEN 21 AND 27 THEN u.user_id END)",
        "denominator": "COUNT(DISTINCT u.user_id)", "from": "analytics.dim_user u LEFT JOIN analytics.fct_events e "
                                                            "ON e.user_id = u.user_id",
        "filters": [], "used_by": ["DB-2219"]},
    "push_opt_in_rate": {
        "metric": "push_opt_in_rate", "label": "Push opt-in rate at onboarding", "status": "certified",
        "owner": "priyanka.rao@loopwell.app",
        "description": "Share of mobile signups whose signup device granted the notification permission in onboarding.",
        "numerator": "SUM(d.push_opt_in)", "denominator": "COUNT(d.push_opt_in)",
        "from": "analytics.dim_users u " + w.PLATFORM_JOIN, "filters": ["u.is_test = 0", "d.platform IN ('ios', 'android')"],
        "dimensions": ["platform", "app_version"], "used_by": ["DB-2307"]},
    "activation_d1": {
        "metric": "activation_d1", "label": "Day-1 activation", "status": "certified", "owner": "daniel.mensah@loopwell.app",
        "description": "Share of signups with a qualifying session on day 1.",
        "numerator": "COUNT(DISTINCT CASE WHEN day_n = 1 THEN u.user_id END)", "denominator": "COUNT(DISTINCT u.user_id)",
        "from": "analytics.dim_users u " + w.WK4_JOIN, "filters": ["u.is_test = 0", "s.duration_s >= 10"],
        "used_by": ["DB-2291"]},
}
DIMENSIONS = {
    "platform": {"dimension": "platform", "sql": "d.platform", "join": w.PLATFORM_JOIN,
                 "note": "the platform of the device the account was created on; analytics.dim_devices has one row per "
                         "device and about a fifth of users have more than one, so join on the signup device only"},
    "plan": {"dimension": "plan", "sql": "u.plan_at_signup",
             "note": "plan at signup; analytics.dim_user.plan is the current plan and must not be used for cohorts"},
    "channel": {"dimension": "channel", "sql": "u.acquisition_channel", "note": "channel at signup"},
    "country": {"dimension": "country", "sql": "u.country", "note": ""},
    "app_version": {"dimension": "app_version", "sql": "d.app_version", "join": w.PLATFORM_JOIN,
                    "note": "version of the app the account was created with"},
}


def semantic_metric(args):
    if args.get("metric"):
        m = args["metric"].strip()
        if m not in METRICS:
            raise ToolError("no metric %r in the semantic layer" % m)
        return METRICS[m]
    if args.get("dimension"):
        d = args["dimension"].strip()
        if d not in DIMENSIONS:
            raise ToolError("no dimension %r (dimensions: %s)" % (d, ", ".join(DIMENSIONS)))
        return DIMENSIONS[d]
    qs = need(args, "search").lower().split()
    hits = [m for m in METRICS.values()
            if all(x in (m["metric"] + " " + m["label"] + " " + m["description"]).lower() for x in qs)]
    return {"search": args["search"], "metrics": [{k: m[k] for k in ("metric", "label", "status", "owner", "description")}
                                                   for m in hits]}


# --- dashboards -------------------------------------------------------------------------------------

def wk4_tile():
    by = w.certified_by_month()
    return [{"cohort_month": m, "users": n, "retained": r, "retention_wk4": "%.1f%%" % (100.0 * r / n)}
            for m, (n, r) in sorted(by.items()) if m in ("2024-08", "2024-09", "2024-10")][1:]


def signups_tile():
    _, rows = w.sql("""SELECT substr(%s, 1, 7), d.platform, COUNT(*) FROM analytics.dim_users u %s
WHERE u.is_test = 0 AND %s >= '2024-09-01' GROUP BY 1, 2 ORDER BY 1, 2""" % (w.COHORT_DATE, w.PLATFORM_JOIN, w.COHORT_DATE))
    return [{"month": m, "platform": p, "signups": n} for m, p, n in rows]


def optin_tile():
    _, rows = w.sql("""SELECT substr(%s, 1, 7), d.platform, ROUND(100.0 * SUM(d.push_opt_in) / COUNT(d.push_opt_in), 1)
FROM analytics.dim_users u %s WHERE u.is_test = 0 AND d.platform IN ('ios', 'android') AND %s >= '2024-09-01'
GROUP BY 1, 2 ORDER BY 1, 2""" % (w.COHORT_DATE, w.PLATFORM_JOIN, w.COHORT_DATE))
    return [{"month": m, "platform": p, "push_opt_in_rate": "%.1f%%" % v} for m, p, v in rows]


DASHBOARDS = {
    "DB-2291": {"title": "Growth Weekly", "owner": "maya.okafor@loopwell.app", "team": "Growth Analytics",
                "status": "certified", "refreshed": "2024-12-02T06:00:00-08:00", "metrics": ["retention_wk4", "activation_d1",
                                                                                               "signups"],
                "tiles": lambda: [
                    {"tile": "Week-4 retention by signup month", "metric": "retention_wk4",
                     "note": "cohorts by signup month (America/Los_Angeles); November matures on 2024-12-29",
                     "values": wk4_tile()},
                    {"tile": "Signups by platform", "metric": "signups", "values": signups_tile()}]},
    "DB-2219": {"title": "Retention Deep Dive (legacy)", "owner": "tom.becker@loopwell.app", "team": "Growth Analytics",
                "status": "deprecated", "refreshed": "2024-06-30T06:00:00-07:00", "metrics": ["retention_w4"],
                "tiles": lambda: [{"tile": "Week 4 retention", "metric": "retention_w4",
                                   "note": "frozen since analytics.fct_events moved to cold storage", "values": []}]},
    "DB-2307": {"title": "Android Health", "owner": "priyanka.rao@loopwell.app", "team": "Android",
                "status": "certified", "refreshed": "2024-12-02T06:00:00-08:00",
                "metrics": ["push_opt_in_rate", "crash_free_sessions"],
                "tiles": lambda: [{"tile": "Push opt-in at onboarding by signup month", "metric": "push_opt_in_rate",
                                   "values": optin_tile()},
                                  {"tile": "Crash-free sessions", "metric": "crash_free_sessions",
                                   "values": [{"month": "2024-09", "value": "99.71%"}, {"month": "2024-10", "value": "99.64%"},
                                              {"month": "2024-11", "value": "99.78%"}]}]},
    "DB-2145": {"title": "Acquisition & Campaigns", "owner": "carla.mendes@loopwell.app", "team": "Marketing",
                "status": "certified", "refreshed": "2024-12-02T05:00:00-08:00", "metrics": ["signups", "cac"],
                "tiles": lambda: [{"tile": "Campaigns", "metric": "cac", "values": [
                    {"campaign": "fall-referral-boost", "channel": "referral", "start": "2024-09-09", "end": "2024-09-22",
                     "spend_usd": 6400},
                    {"campaign": w.CAMPAIGN[0], "channel": "paid_social", "start": w.CAMPAIGN[1], "end": w.CAMPAIGN[2],
                     "spend_usd": 48200}]}]},
}


def dashboard_search(args):
    if args.get("dashboard_id"):
        i = args["dashboard_id"].strip()
        if i not in DASHBOARDS:
            raise ToolError("no dashboard %r" % i)
        d = DASHBOARDS[i]
        out = {"dashboard_id": i}
        out.update({k: v for k, v in d.items() if k != "tiles"})
        out["url"] = "https://bi.loopwell.app/d/%s" % i
        out["tiles"] = d["tiles"]()
        return out
    qs = need(args, "query").lower().split()
    hits = []
    for i, d in DASHBOARDS.items():
        text = " ".join([i, d["title"], d["team"]] + d["metrics"]).lower()
        if any(x in text for x in qs):
            hits.append({"dashboard_id": i, "title": d["title"], "owner": d["owner"], "status": d["status"],
                         "metrics": d["metrics"], "refreshed": d["refreshed"]})
    return {"query": args["query"], "dashboards": hits}


# --- experiments and releases -------------------------------------------------------------------

def experiment_lookup(args):
    if args.get("key"):
        k = args["key"].strip()
        for e in w.EXPERIMENTS:
            if e["key"] == k:
                return e
        near = [e["key"] for e in w.EXPERIMENTS if e["key"].replace("s_", "_") == k.replace("s_", "_")]
        raise ToolError("no experiment %r%s" % (k, " (did you mean %s?)" % near[0] if near else ""))
    qs = need(args, "query").lower().split()
    hits = [e for e in w.EXPERIMENTS if all(x in (e["key"] + " " + e["name"] + " " + e["team"]).lower() for x in qs)]
    return {"query": args["query"], "experiments": [{k: e[k] for k in ("key", "name", "status", "platforms", "start", "end",
                                                                         "owner")} for e in hits]}


def release_calendar(args):
    frm = need(args, "from")
    to = need(args, "to")
    p = args.get("platform")
    if p and p not in ("ios", "android", "web"):
        raise ToolError("unknown platform %r (ios, android, web)" % p)
    return {"from": frm, "to": to, "releases": [
        {"platform": pl, "version": v, "date": d, "rollout": r, "notes": n}
        for pl, v, d, r, n in w.RELEASES if frm <= d <= to and (not p or p == pl)]}


def notebook_publish(args):
    title = need(args, "title")
    body = need(args, "body_md")
    links = args.get("link_dashboards") or []
    for i in links:
        if i not in DASHBOARDS:
            raise ToolError("no dashboard %r to link" % i)
    reviewers = args.get("reviewers") or []
    h = crc("nb", title)
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower())[:48].strip("-")
    rid = "NB-%05d" % (10000 + h % 90000)
    return {"report_id": rid, "url": "https://notebooks.loopwell.app/r/%s/%s" % (rid, slug), "title": title,
            "words": len(body.split()), "linked_dashboards": links, "reviewers": reviewers,
            "published_at": w.NOW, "visibility": "company"}


TOOLS = {"wh-schemas": wh_schemas, "wh-describe": wh_describe, "wh-query": wh_query, "wh-explain": wh_explain,
         "semantic-metric": semantic_metric, "dashboard-search": dashboard_search,
         "experiment-lookup": experiment_lookup, "release-calendar": release_calendar,
         "notebook-publish": notebook_publish}

if __name__ == "__main__":
    serve(TOOLS)
