#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the event-pipeline-backfill session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: job ids and incident keys are derived from the request itself."""
import datetime as dt
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

DATES = ["2024-11-0%d" % d for d in range(1, 7)]
TABLES = [w.TABLE, w.CANARY_TABLE]
MODES = ["insert-missing", "dedupe"]
MAX_LIMIT = 50


def topic_name(args, key="topic"):
    t = need(args, key)
    names = [x["topic"] for x in w.TOPICS]
    if t not in names:
        raise ToolError("unknown topic %r (topics: %s)" % (t, ", ".join(names)))
    return t


def topics(args):
    if not args.get("topic"):
        return [dict(x) for x in w.TOPICS]
    t = topic_name(args)
    if t == w.DLQ:
        return {"topic": t, "cluster": w.CLUSTER, "as_of": w.AS_OF,
                "partitions": [{"partition": 0, "leader": w.BROKERS[1], "log_start_offset": w.DLQ_LOG_START,
                                "end_offset": w.DLQ_END}], "consumer_groups": []}
    if t != w.TOPIC:
        raise ToolError("no partition details for %r in this environment" % t)
    parts = [{"partition": p, "leader": w.BROKERS[p % 3], "log_start_offset": w.LOG_START[p],
              "end_offset": w.END_OFFSET[p]} for p in range(w.NPART)]
    groups = []
    for g, gen, members, state, committed in [
            (w.GROUP, 63, 3, "Stable", [e - (41 + 17 * p) for p, e in enumerate(w.END_OFFSET)]),
            (w.CANARY, 12, 0, "Empty", w.CANARY_COMMITTED),
            ("fraud-scorer", 208, 4, "Stable", [e - (3 + p) for p, e in enumerate(w.END_OFFSET)])]:
        offs = [{"partition": p, "committed": c, "lag": w.END_OFFSET[p] - c} for p, c in enumerate(committed)]
        groups.append({"group": g, "state": state, "generation": gen, "members": members,
                       "total_lag": sum(x["lag"] for x in offs), "offsets": offs})
    return {"topic": t, "cluster": w.CLUSTER, "as_of": w.AS_OF, "partitions": parts, "consumer_groups": groups}


def date_arg(args):
    d = need(args, "date")
    if d not in DATES:
        raise ToolError("date %r out of range (2024-11-01..2024-11-06, YYYY-MM-DD)" % d)
    return d


def topic_hourly(args):
    t = topic_name(args)
    if t != w.TOPIC:
        raise ToolError("hourly counts are kept for %s only" % w.TOPIC)
    d = date_arg(args)
    p = args.get("partition")
    if p is not None and p not in range(w.NPART):
        raise ToolError("partition %r out of range 0..%d" % (p, w.NPART - 1))
    rows = []
    for i in range(w.NHOURS):
        h = w.hour_start(i)
        if h.strftime("%Y-%m-%d") != d:
            continue
        if p is None:
            rows.append({"hour": w.iso(h), "messages": sum(w.COUNTS[q][i] for q in range(w.NPART))})
        else:
            rows.append({"hour": w.iso(h), "messages": w.COUNTS[p][i], "first_offset": w.FIRST[p][i],
                         "last_offset": w.FIRST[p][i] + w.COUNTS[p][i] - 1})
    out = {"topic": t, "date": d, "timezone": "UTC"}
    if p is not None:
        out["partition"] = p
    out["total"] = sum(r["messages"] for r in rows)
    out["hours"] = rows
    return out


def read_messages(args):
    t = topic_name(args)
    p = args.get("partition")
    if p is None:
        raise ToolError("missing required argument: partition")
    off = args.get("offset")
    if off is None:
        raise ToolError("missing required argument: offset")
    limit = int(args.get("limit") or 10)
    if not 1 <= limit <= MAX_LIMIT:
        raise ToolError("limit must be between 1 and %d" % MAX_LIMIT)
    if t == w.DLQ:
        if p != 0:
            raise ToolError("partition %r out of range for %s (1 partition)" % (p, t))
        lo, hi = w.DLQ_LOG_START, w.DLQ_END
    elif t == w.TOPIC:
        if p not in range(w.NPART):
            raise ToolError("partition %r out of range for %s (0..5)" % (p, t))
        lo, hi = w.FIRST[p][0], w.END_OFFSET[p]
        lo = max(lo, w.LOG_START[p])
    else:
        raise ToolError("reading %r is not allowed from this environment" % t)
    if not lo <= off < hi:
        raise ToolError("offset %d out of range for %s/%d: log start offset %d, end offset %d" % (
            off, t, p, lo if t == w.DLQ else w.LOG_START[p], hi))
    msgs = []
    for o in range(off, min(off + limit, hi)):
        msgs.append(w.dlq_message(o) if t == w.DLQ else w.message(p, o))
    return {"topic": t, "partition": p, "next_offset": off + len(msgs), "end_offset": hi, "messages": msgs}


def table_arg(args):
    t = need(args, "table")
    if t not in TABLES:
        raise ToolError("unknown table %r (tables: %s)" % (t, ", ".join(TABLES)))
    return t


def warehouse_counts(args):
    table = table_arg(args)
    d = date_arg(args)
    by = args.get("by") or "hour"
    if by not in ("hour", "partition"):
        raise ToolError("by must be hour or partition")
    rows = []
    for i in range(w.NHOURS):
        lt = w.local(w.hour_start(i))
        if lt.strftime("%Y-%m-%d") != d:
            continue
        label = lt.strftime("%Y-%m-%d %H:00")
        per = [0 if table == w.CANARY_TABLE else w.wh_rows(p, i) for p in range(w.NPART)]
        if by == "hour":
            rows.append({"event_hour": label, "rows": sum(per)})
        else:
            for p in range(w.NPART):
                rows.append({"event_hour": label, "partition": p, "rows": per[p]})
    return {"table": table, "date": d, "rows": rows, "total": sum(r["rows"] for r in rows)}


EVENT_INDEX = {}


def find_event(eid):
    """(partition, offset) of an event id: the ids the session can have seen are near the incidents."""
    if not EVENT_INDEX:
        spans = [(4, w.B - 60, w.E + 60)] + [(p, lo - 60, hi + 60) for p, (lo, hi) in enumerate(w.SCHEMA_LOST)]
        for p, lo, hi in spans:
            for o in range(lo, hi):
                EVENT_INDEX[w.event_id(p, o)] = (p, o)
    return EVENT_INDEX.get(eid)


def warehouse_lookup(args):
    table = table_arg(args)
    ids = need(args, "event_ids")
    if not isinstance(ids, list) or len(ids) > 100:
        raise ToolError("event_ids must be a list of at most 100 ids")
    out = []
    for eid in ids:
        hit = find_event(eid)
        if hit and table == w.TABLE and w.in_warehouse(*hit):
            p, o = hit
            t = w.msg_time(p, o)
            out.append({"event_id": eid, "found": True, "event_hour": w.local(t).strftime("%Y-%m-%d %H:00"),
                        "_kafka_partition": p, "_kafka_offset": o,
                        "_loaded_at": w.iso(t + dt.timedelta(seconds=2 + crc("ld", eid) % 5))})
        else:
            out.append({"event_id": eid, "found": False})
    return {"table": table, "found": sum(x["found"] for x in out), "missing": sum(not x["found"] for x in out),
            "events": out}


def job_runs(args):
    job = need(args, "job")
    if job not in w.RUNS:
        raise ToolError("unknown job %r (jobs: %s)" % (job, ", ".join(sorted(w.RUNS))))
    out = []
    for r in w.RUNS[job]:
        r = dict(r)
        end = r["ended"] or w.AS_OF
        r["duration_s"] = int((w.ts(end) - w.ts(r["started"])).total_seconds())
        out.append(r)
    return {"job": job, "runs": out}


def job_logs(args):
    rid = need(args, "run_id")
    known = [r["run_id"] for rs in w.RUNS.values() for r in rs]
    if rid not in known:
        raise ToolError("no run %r (give a run_id from job-runs)" % rid)
    since = args.get("since")
    until = args.get("until")
    try:
        lo = w.ts(since) if since else None
        hi = w.ts(until) if until else None
    except ValueError:
        raise ToolError("since/until must be ISO-8601 UTC timestamps like 2024-11-03T16:00:00Z")
    level = (args.get("level") or "INFO").upper()
    levels = {"ERROR": ["ERROR"], "WARN": ["WARN", "ERROR"], "INFO": ["INFO", "WARN", "ERROR"]}
    if level not in levels:
        raise ToolError("level must be INFO, WARN or ERROR")
    grep = args.get("grep")
    limit = int(args.get("limit") or 100)
    if not 1 <= limit <= 200:
        raise ToolError("limit must be between 1 and 200")
    lines = [x for t, lv, x in w.LOGS.get(rid, [])
             if (lo is None or t >= lo) and (hi is None or t < hi) and lv in levels[level]
             and (not grep or grep in x)]
    return {"run_id": rid, "matched": len(lines), "returned": min(limit, len(lines)),
            "truncated": len(lines) > limit, "lines": lines[:limit]}


def schema_registry(args):
    subject = need(args, "subject")
    subjects = [x["schema_subject"] for x in w.TOPICS if x["schema_subject"]]
    if subject not in subjects:
        raise ToolError("unknown subject %r (subjects: %s)" % (subject, ", ".join(subjects)))
    if subject != w.SUBJECT:
        raise ToolError("subject %r has no versions in this registry mirror" % subject)
    v = args.get("version")
    if v is None:
        return {"subject": subject, "compatibility": "BACKWARD",
                "versions": [dict(x, note=w.SCHEMA_NOTES[x["version"]]) for x in w.VERSIONS]}
    if v not in w.SCHEMAS:
        raise ToolError("subject %s has versions 6..9" % subject)
    meta = next(x for x in w.VERSIONS if x["version"] == v)
    out = dict(meta, subject=subject,
               fields=[{"name": n, "type": t.rstrip("?"), "nullable": t.endswith("?")} for n, t in w.SCHEMAS[v]])
    base = args.get("compare_to")
    if base is not None:
        if base not in w.SCHEMAS:
            raise ToolError("compare_to: subject %s has versions 6..9" % subject)
        old, new = dict(w.SCHEMAS[base]), dict(w.SCHEMAS[v])
        diff = []
        for n, t in w.SCHEMAS[base]:
            if n not in new:
                diff.append({"change": "removed", "field": n, "type": t})
            elif new[n] != t:
                diff.append({"change": "changed", "field": n, "from": t, "to": new[n]})
        for n, t in w.SCHEMAS[v]:
            if n not in old:
                diff.append({"change": "added", "field": n, "type": t})
        out = {"subject": subject, "from_version": base, "to_version": v,
               "from_schema_id": w.SCHEMA_IDS[base], "to_schema_id": w.SCHEMA_IDS[v], "diff": diff}
    return out


def wiki(args):
    page = need(args, "page")
    if page not in w.WIKI:
        raise ToolError("no page %r (pages: %s)" % (page, ", ".join(w.WIKI_PAGES)))
    updated, by = w.WIKI_UPDATED[page]
    return {"page": page, "updated": updated, "updated_by": by, "body": w.WIKI[page]}


def job_id(spec):
    return "bf-20241106-%05x" % (crc(*spec) % 0xfffff)


def spec_of(args):
    return (args["topic"], args["partition"], args["start_offset"], args["end_offset"], args["table"],
            args["mode"])


def backfill_create(args):
    t = topic_name(args)
    p = args.get("partition")
    if p is None:
        raise ToolError("missing required argument: partition")
    a, b = need(args, "start_offset"), need(args, "end_offset")
    table = table_arg(args)
    mode = need(args, "mode")
    if mode not in MODES:
        raise ToolError("unknown mode %r (modes: %s)" % (mode, ", ".join(MODES)))
    approver = need(args, "approved_by")
    owner = w.HOFFMANN
    if approver != owner:
        raise ToolError("approved_by %s is not the owner of %s (owner: %s)" % (approver, table, owner))
    lo, hi = (w.DLQ_LOG_START, w.DLQ_END) if t == w.DLQ else (w.LOG_START[p], w.END_OFFSET[p])
    if not (lo <= a < b <= hi):
        raise ToolError("range %d..%d not within %s/%d (%d..%d)" % (a, b, t, p, lo, hi))
    if b - a > 200000:
        raise ToolError("range of %d offsets over the 200,000 limit" % (b - a))
    if t == w.DLQ and not args.get("reader_schema_id"):
        raise ToolError("a DLQ replay needs reader_schema_id")
    jid = job_id(spec_of(args))
    out = {"job_id": jid, "status": "queued", "topic": t, "partition": p, "start_offset": a, "end_offset": b,
           "offsets": b - a, "table": table, "mode": mode}
    if args.get("reader_schema_id"):
        out["reader_schema_id"] = args["reader_schema_id"]
    out.update({"verify_hours": args.get("verify_hours") or [], "approved_by": approver,
                "staging_uri": "s3://qm-backfill-staging/%s/%s/" % (w.TABLE.replace(".", "/"), jid),
                "created": "2024-11-06T10:%02d:%02dZ" % (12 + crc(jid) % 40, crc("s", jid) % 60)})
    return out


def events_of(spec):
    """(partition, offset) of the source events of a job."""
    t, p, a, b = spec[:4]
    if t == w.DLQ:
        out = []
        for o in range(a, b):
            _, sp, src, _ = w.DLQ_ROWS[o - w.DLQ_LOG_START]
            if src is not None:
                out.append((sp, src))
        return out, (b - a) - len(out)
    return [(p, o) for o in range(a, b)], 0


KNOWN_SPECS = [(w.TOPIC, 4, w.B, w.E, w.TABLE, "insert-missing"),
               (w.DLQ, 0, w.Q0, w.Q1, w.TABLE, "insert-missing")]


def backfill_status(args):
    jid = need(args, "job_id")
    spec = next((s for s in KNOWN_SPECS if job_id(s) == jid), None)
    if spec is None:
        raise ToolError("no backfill job %r" % jid)
    evs, bad = events_of(spec)
    missing = [(p, o) for p, o in evs if not w.in_warehouse(p, o)]
    hours = {}
    for p, o in missing:
        lbl = w.local(w.msg_time(p, o)).strftime("%Y-%m-%d %H:00")
        hours[lbl] = hours.get(lbl, 0) + 1
    return {"job_id": jid, "status": "succeeded", "topic": spec[0], "partition": spec[1],
            "rows_read": spec[3] - spec[2], "rows_inserted": len(missing),
            "rows_skipped_existing": len(evs) - len(missing), "rows_rejected": bad,
            "started": "2024-11-06T10:%02d:05Z" % (14 + crc(jid) % 40),
            "duration_s": 40 + (spec[3] - spec[2]) // 80,
            "inserted_by_hour": [{"event_hour": h, "rows": n} for h, n in sorted(hours.items())]}


def incident_create(args):
    title = need(args, "title")
    sev = need(args, "severity")
    if sev not in ("SEV-1", "SEV-2", "SEV-3"):
        raise ToolError("severity must be SEV-1, SEV-2 or SEV-3")
    owner = need(args, "owner")
    if owner not in w.PERSON:
        raise ToolError("unknown owner %r (owners are directory emails)" % owner)
    need(args, "summary")
    key = "DATAINC-%d" % (311 + crc(title) % 40)
    out = {"key": key, "url": "https://quillmart.atlassian.net/browse/%s" % key, "title": title, "severity": sev,
           "owner": owner, "status": "open", "created": "2024-11-06T10:41:27Z"}
    for k in ("backfill_jobs", "follow_ups", "links"):
        if args.get(k):
            out[k] = args[k]
    return out


TOOLS = {"topics": topics, "topic-hourly": topic_hourly, "read-messages": read_messages,
         "warehouse-counts": warehouse_counts, "warehouse-lookup": warehouse_lookup, "job-runs": job_runs,
         "job-logs": job_logs, "schema-registry": schema_registry, "wiki": wiki, "backfill-create": backfill_create,
         "backfill-status": backfill_status, "incident-create": incident_create}

if __name__ == "__main__":
    serve(TOOLS)
