"""The world of the `event-pipeline-backfill` session: Quillmart's order
event pipeline as of 2024-11-06T10:00Z. The order service writes
`orders.v2.created` (6 partitions) on the Kafka cluster kafka-prod-eu1; the
streaming job `orders-wh-loader` (consumer group `wh-loader`) loads it into
the warehouse table `analytics.orders_created`; rows it cannot load go to
`orders.v2.created.dlq`. A canary of the loader (`wh-loader-canary`,
`orders-wh-loader-canary`) has been paused since 2024-10-30 and is far
behind, on purpose.

Planted:
- 2024-11-03T16:52:07Z the loader pod wh-loader-7c9d5-2 (partitions 3 and 4)
  is OOMKilled; at the rebalance (generation 58) wh-loader-7c9d5-0 takes
  partition 4 over, but its writer for the partition is closed (a bug of
  2.14.1 on reassigned partitions): every batch fails and is skipped
  (on_error=skip) while the offsets are committed. Generation 59 (17:36:40Z,
  an autoscaled pod joins) leaves partition 4 with the same pod (sticky),
  so the loss goes on; only generation 60 (18:21:15Z, -2 back) ends it. The
  lost offsets are [B, E), not [B, C) as generation 59's resume line
  suggests.
- 2024-11-04T09:42:31Z the order service starts writing schema version 8
  (id 1047) of orders.v2.created-value, which renames customer.id to
  customer.customer_ref; the loader reads with version 7 (id 1031), gets a
  null customer_id, and the warehouse's NOT NULL sends every event to the
  DLQ until version 9 (id 1052, both fields) goes out at 12:17:04Z.
- the warehouse buckets `event_hour` in Europe/Berlin local time (UTC+1 in
  November), while the topic's hours are UTC.
- similar names: Lena Hoffmann (data platform, owns the loader and the
  table) and Lena Hofmann (orders team, owns the order service, the topic
  and its schema); wh-loader and wh-loader-canary; orders.v2.created and
  orders.v2.created.dlq (and the retired orders.v1.created).
Deterministic: tool.py and answers.py read it."""
import datetime as dt
from toolkit import crc  # gen/long/, on the path of every importer

AS_OF = "2024-11-06T10:00:00Z"
CLUSTER = "kafka-prod-eu1"
BROKERS = ["b-%d.kafka-prod-eu1.qm.internal:9092" % i for i in (1, 2, 3)]
TOPIC = "orders.v2.created"
DLQ = "orders.v2.created.dlq"
SUBJECT = "orders.v2.created-value"
GROUP = "wh-loader"
CANARY = "wh-loader-canary"
JOB = "orders-wh-loader"
CANARY_JOB = "orders-wh-loader-canary"
TABLE = "analytics.orders_created"
CANARY_TABLE = "analytics_canary.orders_created"
NPART = 6
TZ_OFFSET_H = 1  # Europe/Berlin in November

HOFFMANN = "lena.hoffmann@quillmart.io"  # data platform: loader, table
HOFMANN = "lena.hofmann@quillmart.io"    # orders team: order service, topic, schema
PEOPLE = [
    {"name": "Lena Hoffmann", "email": HOFFMANN, "team": "data-platform", "role": "staff data engineer"},
    {"name": "Lena Hofmann", "email": HOFMANN, "team": "orders", "role": "senior engineer"},
    {"name": "Tobias Krüger", "email": "tobias.krueger@quillmart.io", "team": "data-platform",
     "role": "engineering manager"},
    {"name": "Jana Roth", "email": "jana.roth@quillmart.io", "team": "finance", "role": "controller"},
    {"name": "Malik Osei", "email": "malik.osei@quillmart.io", "team": "payments", "role": "engineer"},
]
PERSON = {p["email"]: p for p in PEOPLE}


def uuid(*parts):
    a, b, c, d = crc("u1", *parts), crc("u2", *parts), crc("u3", *parts), crc("u4", *parts)
    return "%08x-%04x-4%03x-%04x-%04x%08x" % (a, b >> 16, b & 0xfff, 0x8000 | (c & 0x3fff), c >> 16, d)


# --- hours and counts ------------------------------------------------------------------------

T0 = dt.datetime(2024, 11, 1, 0, 0, tzinfo=dt.timezone.utc)
NHOURS = 5 * 24 + 10  # up to AS_OF
CURVE = [150, 100, 80, 70, 72, 110, 240, 500, 760, 900, 980, 1040, 1110, 1060, 1010, 1040, 1120, 1240, 1320,
         1250, 1040, 730, 450, 250]  # per partition and hour, by local hour
PART_FACTOR = [1.00, 0.97, 1.03, 0.99, 1.02, 0.98]
DAY_FACTOR = {"2024-11-01": 1.0, "2024-11-02": 1.08, "2024-11-03": 1.15, "2024-11-04": 0.95,
              "2024-11-05": 0.93, "2024-11-06": 0.97}
START_OFFSET = [18204551, 18193072, 18240917, 18187730, 18221468, 18199305]  # at 2024-11-01T00:00Z
LOG_START = [o - 41_207 - 311 * p for p, o in enumerate(START_OFFSET)]  # 7 days of retention


def hour_start(i):
    return T0 + dt.timedelta(hours=i)


def iso(t, ms=False):
    if ms:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def local(t):
    return t + dt.timedelta(hours=TZ_OFFSET_H)


def count(p, i):
    t = local(hour_start(i))
    base = CURVE[t.hour] * PART_FACTOR[p] * DAY_FACTOR[t.strftime("%Y-%m-%d")]
    return int(round(base * (1 + ((crc("n", p, i) % 61) - 30) / 1000.0)))


COUNTS = [[count(p, i) for i in range(NHOURS)] for p in range(NPART)]
FIRST = [[0] * NHOURS for _ in range(NPART)]
for _p in range(NPART):
    _o = START_OFFSET[_p]
    for _i in range(NHOURS):
        FIRST[_p][_i] = _o
        _o += COUNTS[_p][_i]
END_OFFSET = [FIRST[p][-1] + COUNTS[p][-1] for p in range(NPART)]


def hour_index(t):
    return int((t - T0).total_seconds() // 3600)


def msg_time(p, offset):
    """The timestamp of message `offset` of partition `p`: evenly spread in its hour."""
    i = max(k for k in range(NHOURS) if FIRST[p][k] <= offset)
    n = COUNTS[p][i]
    secs = (offset - FIRST[p][i] + 0.5) * 3600.0 / n
    return hour_start(i) + dt.timedelta(microseconds=int(secs * 1e6) // 1000 * 1000)


def offset_at(p, t):
    """The first offset of partition `p` at or after time `t`."""
    i = hour_index(t)
    n = COUNTS[p][i]
    frac = (t - hour_start(i)).total_seconds() / 3600.0
    k = FIRST[p][i] + int(max(0.0, frac * n - 0.5)) 
    while k < FIRST[p][i] + n and msg_time(p, k) < t:
        k += 1
    while k > FIRST[p][i] and msg_time(p, k - 1) >= t:
        k -= 1
    return k


def ts(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


# --- the rebalance of 2024-11-03 ----------------------------------------------------------------

POD = "wh-loader-7c9d5-%d"
OOM_AT = ts("2024-11-03T16:52:07Z")
LAST_COMMIT = ts("2024-11-03T16:52:02Z")
GEN58 = ts("2024-11-03T16:52:38Z")
GEN59 = ts("2024-11-03T17:36:40Z")
GEN60 = ts("2024-11-03T18:21:15Z")
B = offset_at(4, LAST_COMMIT)  # committed by -2 before it died: everything before was written
C = offset_at(4, GEN59 - dt.timedelta(seconds=5))  # committed by -0 just before generation 59
E = offset_at(4, GEN60 - dt.timedelta(seconds=5))  # committed by -0 just before generation 60
P4_LOST = (B, E)

# --- the schema change of 2024-11-04 ------------------------------------------------------------

V8_FROM = ts("2024-11-04T09:42:31Z")
V9_FROM = ts("2024-11-04T12:17:04Z")
SCHEMA_IDS = {6: 988, 7: 1031, 8: 1047, 9: 1052}
SCHEMA_LOST = [(offset_at(p, V8_FROM), offset_at(p, V9_FROM)) for p in range(NPART)]


def schema_version(p, offset):
    t = msg_time(p, offset)
    return 7 if t < V8_FROM else 8 if t < V9_FROM else 9


def lost(p, offset):
    if p == 4 and B <= offset < E:
        return True
    lo, hi = SCHEMA_LOST[p]
    return lo <= offset < hi


# the DLQ: a trickle of malformed events, then the schema incident's events in time order
DLQ_LOG_START = 40512
_TRICKLE_BEFORE = [("2024-10-30T07:12:44Z", 2, "malformed JSON at line 1 column 311"),
                   ("2024-10-31T19:03:10Z", 5, "malformed JSON at line 1 column 87"),
                   ("2024-11-01T11:40:02Z", 0, "order.total.amount: -12.5 is negative"),
                   ("2024-11-02T22:18:51Z", 3, "malformed JSON at line 1 column 402"),
                   ("2024-11-03T08:27:36Z", 1, "order.total.currency: 'EUR ' is not ISO 4217"),
                   ("2024-11-04T06:55:20Z", 4, "malformed JSON at line 1 column 64")]
_TRICKLE_AFTER = [("2024-11-04T18:30:11Z", 2, "malformed JSON at line 1 column 199"),
                  ("2024-11-05T09:14:47Z", 0, "order.total.currency: 'eur' is not ISO 4217"),
                  ("2024-11-05T21:02:05Z", 5, "malformed JSON at line 1 column 512"),
                  ("2024-11-06T07:49:33Z", 3, "malformed JSON at line 1 column 90")]
NOT_NULL = "NOT NULL constraint failed: analytics.orders_created.customer_id"


def _dlq():
    rows = []
    for t, p, err in _TRICKLE_BEFORE:
        rows.append((ts(t), p, None, err))
    inc = []
    for p in range(NPART):
        lo, hi = SCHEMA_LOST[p]
        inc += [(msg_time(p, o) + dt.timedelta(milliseconds=180), p, o, NOT_NULL) for o in range(lo, hi)]
    rows += sorted(inc, key=lambda r: (r[0], r[1]))
    for t, p, err in _TRICKLE_AFTER:
        rows.append((ts(t), p, None, err))
    return rows


DLQ_ROWS = _dlq()
DLQ_END = DLQ_LOG_START + len(DLQ_ROWS)
Q0 = DLQ_LOG_START + len(_TRICKLE_BEFORE)
Q1 = Q0 + sum(hi - lo for lo, hi in SCHEMA_LOST)


def dlq_source_offset(p, t):
    """A made-up offset for the trickle's malformed events (not loaded anyway)."""
    return offset_at(p, t)


# --- messages -----------------------------------------------------------------------------------

CHANNELS = ["web", "web", "app", "app", "app", "marketplace"]
SEGMENTS = ["new", "returning", "returning", "vip"]


def event_id(p, offset):
    return uuid("evt", p, offset)


def payload(p, offset):
    t = msg_time(p, offset)
    v = schema_version(p, offset)
    lt = local(t)
    h = crc("pl", p, offset)
    cust = "cus_%06d" % (h % 900000 + 100000)
    customer = {"id": cust} if v == 7 else {"customer_ref": cust} if v == 8 else {"id": cust, "customer_ref": cust}
    customer["segment"] = SEGMENTS[h % 4]
    cents = 1290 + (h >> 8) % 23000
    return {
        "event_id": event_id(p, offset),
        "event_type": "order.created",
        "schema_version": v,
        "occurred_at": lt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+01:00" % (lt.microsecond // 1000),
        "order": {"id": "ORD-%s-%06d" % (lt.strftime("%y%m"), (h >> 4) % 1000000),
                  "channel": CHANNELS[(h >> 3) % 6],
                  "total": {"amount": cents / 100.0, "currency": "EUR"},
                  "items": 1 + (h >> 12) % 6},
        "customer": customer,
    }


def message(p, offset):
    t = msg_time(p, offset)
    pl = payload(p, offset)
    return {"offset": offset, "timestamp": iso(t + dt.timedelta(milliseconds=37), ms=True),
            "key": pl["order"]["id"],
            "headers": {"producer": "order-service", "schema-id": str(SCHEMA_IDS[pl["schema_version"]]),
                        "trace-id": "%016x" % (crc("tr", p, offset) * 4294967311 % (1 << 64))},
            "value": pl}


def dlq_message(offset):
    t, p, src, err = DLQ_ROWS[offset - DLQ_LOG_START]
    if src is None:
        so = dlq_source_offset(p, t)
        value = {"raw": '{"event_id":"%s","event_type":"order.created","schema_version":7,"order":{"id":"ORD-%s-%06d"' % (
            uuid("bad", offset), t.strftime("%y%m"), crc("bad", offset) % 1000000)}
        sid = "1031"
    else:
        so = src
        value = payload(p, src)
        sid = str(SCHEMA_IDS[value["schema_version"]])
    return {"offset": offset, "timestamp": iso(t, ms=True),
            "key": value["order"]["id"] if "order" in value else None,
            "headers": {"x-error": err, "x-source-topic": TOPIC, "x-source-partition": str(p),
                        "x-source-offset": str(so), "x-schema-id": sid, "x-failed-by": GROUP},
            "value": value}


def in_warehouse(p, offset):
    return FIRST[p][0] <= offset < END_OFFSET[p] and not lost(p, offset)


# --- warehouse rows by local hour -------------------------------------------------------------

def wh_rows(p, i):
    """Rows of partition p's UTC hour i that reached the warehouse."""
    n = COUNTS[p][i]
    lo, hi = FIRST[p][i], FIRST[p][i] + n
    miss = 0
    ranges = [SCHEMA_LOST[p]] + ([P4_LOST] if p == 4 else [])
    for a, b in ranges:
        miss += max(0, min(hi, b) - max(lo, a))
    return n - miss


# --- job runs -------------------------------------------------------------------------------------

RUN_A = uuid("run", "a")
RUN_B = uuid("run", "b")
RUN_C = uuid("run", "c")
CANARY_RUN = uuid("run", "canary")
RUNS = {
    JOB: [
        {"run_id": RUN_C, "status": "running", "started": "2024-11-05T15:31:08Z", "ended": None,
         "image": "registry.qm.internal/data/wh-loader:2.14.2", "consumer_group": GROUP, "pods": 3,
         "restarts": [], "dlq_records": 2, "triggered_by": HOFFMANN},
        {"run_id": RUN_B, "status": "superseded", "started": "2024-11-01T10:02:13Z", "ended": "2024-11-05T15:31:08Z",
         "image": "registry.qm.internal/data/wh-loader:2.14.1", "consumer_group": GROUP, "pods": 3,
         "restarts": [{"pod": POD % 2, "at": iso(OOM_AT), "reason": "OOMKilled", "exit_code": 137,
                       "back_at": "2024-11-03T18:21:09Z"}],
         "dlq_records": None, "triggered_by": HOFFMANN},
        {"run_id": RUN_A, "status": "superseded", "started": "2024-10-28T09:15:40Z", "ended": "2024-11-01T10:02:13Z",
         "image": "registry.qm.internal/data/wh-loader:2.14.0", "consumer_group": GROUP, "pods": 3,
         "restarts": [], "dlq_records": 2, "triggered_by": "tobias.krueger@quillmart.io"},
    ],
    CANARY_JOB: [
        {"run_id": CANARY_RUN, "status": "paused", "started": "2024-10-21T08:00:00Z", "ended": None,
         "image": "registry.qm.internal/data/wh-loader:2.15.0-rc1", "consumer_group": CANARY, "pods": 1,
         "restarts": [], "dlq_records": 0, "triggered_by": HOFFMANN,
         "paused_at": "2024-10-30T08:00:12Z", "pause_reason": "DATA-2240: canary paused until the 2.15 writer fix"},
    ],
}
for _r in RUNS[JOB]:
    if _r["run_id"] == RUN_B:
        _r["dlq_records"] = (Q1 - Q0) + sum(1 for r in DLQ_ROWS if r[2] is None and ts(_r["started"]) <= r[0] < ts(_r["ended"]))
CANARY_COMMITTED = [FIRST[p][0] - 38_950 - 97 * p for p in range(NPART)]  # as of 2024-10-30T08:00Z

# --- wiki ---------------------------------------------------------------------------------------

WIKI = {
    "runbooks/orders-wh-loader": """# Runbook: orders-wh-loader

Streams `orders.v2.created` (kafka-prod-eu1, 6 partitions) into `analytics.orders_created`.
Consumer group: `wh-loader`. 3 pods (wh-loader-<rs>-0..2), autoscaled up to 5 on lag > 50k.
Owner: Lena Hoffmann (lena.hoffmann@quillmart.io), data-platform. Escalation: Tobias Krüger.

## Semantics
- at-least-once; the loader commits offsets every 5 s (auto commit); rows are upserted by event_id.
- rows that fail validation go to `orders.v2.created.dlq` with the error in header `x-error`.
- on_error=skip: a failed batch write is logged (event=write_failed) and skipped; see "Data loss".

## Canary
`orders-wh-loader-canary` (group `wh-loader-canary`, table `analytics_canary.orders_created`) runs
release candidates on the same topic. It is paused since 2024-10-30 (DATA-2240), so its lag grows by
~110k a day. Do not page on canary lag.

## Data loss
Compare the topic's hourly counts with the table's (`warehouse-counts`). For lost offsets, schedule a
backfill (runbooks/backfill) and open an incident (SEV-2 from 1,000 lost events, SEV-3 below).

## Links
- tables/analytics.orders_created
- runbooks/backfill
- dashboards: https://grafana.qm.internal/d/wh-loader
""",
    "tables/analytics.orders_created": """# Table: analytics.orders_created

One row per order.created event of `orders.v2.created`, written by orders-wh-loader.
Owner: lena.hoffmann@quillmart.io. Unique key: event_id. Retention: 25 months.

| column | type | note |
|---|---|---|
| event_id | STRING NOT NULL | from the payload |
| order_id | STRING NOT NULL | order.id |
| customer_id | STRING NOT NULL | customer.id |
| channel | STRING | order.channel |
| amount_eur | NUMERIC(12,2) | order.total.amount |
| occurred_at | TIMESTAMP | occurred_at, stored in UTC |
| event_hour | STRING | hour bucket of occurred_at, 'YYYY-MM-DD HH:00', in Europe/Berlin local time (the loader runs with TZ=Europe/Berlin; DATA-1182 is open to move it to UTC) |
| _kafka_partition | INT | |
| _kafka_offset | INT | |
| _loaded_at | TIMESTAMP | |

Daily dashboards group by the date of event_hour (Berlin days).
""",
    "runbooks/backfill": """# Runbook: backfills into the warehouse

`backfill-create` replays a range of one partition of a topic into a table.

- range: start_offset inclusive, end_offset exclusive; at most 200,000 offsets per job; the range must
  still be within the topic's retention.
- modes: `insert-missing` loads the events whose event_id is not in the table (safe to re-run);
  `dedupe` removes duplicate event_ids in the range, keeping the first load.
- replaying from a DLQ: give `reader_schema_id`, the writer schema id of the events (header
  `x-schema-id`); the backfill worker maps schema 1047's customer.customer_ref to customer_id.
- `verify_hours`: the table's event_hour buckets to recount after the load.
- `approved_by`: the email of the target table's owner (every backfill into analytics.* needs it).
- check progress with `backfill-status`; a job of 20k events takes about 4 minutes.
- then open the incident with the job ids.
""",
}
WIKI_PAGES = sorted(WIKI) + ["runbooks/kafka-consumer-lag", "runbooks/schema-changes"]
WIKI_UPDATED = {"runbooks/orders-wh-loader": ("2024-10-30", HOFFMANN),
                "tables/analytics.orders_created": ("2024-06-18", HOFFMANN),
                "runbooks/backfill": ("2024-09-02", "tobias.krueger@quillmart.io")}

# --- topics ------------------------------------------------------------------------------------

TOPICS = [
    {"topic": TOPIC, "partitions": 6, "retention_hours": 168, "owner": HOFMANN, "schema_subject": SUBJECT,
     "consumer_groups": [GROUP, CANARY, "fraud-scorer"]},
    {"topic": DLQ, "partitions": 1, "retention_hours": 336, "owner": HOFFMANN, "schema_subject": None,
     "consumer_groups": []},
    {"topic": "orders.v2.updated", "partitions": 6, "retention_hours": 168, "owner": HOFMANN,
     "schema_subject": "orders.v2.updated-value", "consumer_groups": ["wh-loader-updates", "fraud-scorer"]},
    {"topic": "orders.v1.created", "partitions": 3, "retention_hours": 72, "owner": HOFMANN,
     "schema_subject": "orders.v1.created-value", "consumer_groups": []},
    {"topic": "payments.v1.captured", "partitions": 4, "retention_hours": 168, "owner": "malik.osei@quillmart.io",
     "schema_subject": "payments.v1.captured-value", "consumer_groups": ["wh-loader-payments"]},
]

# --- schema registry ----------------------------------------------------------------------------

_BASE = [("event_id", "string"), ("event_type", "string"), ("schema_version", "int"), ("occurred_at", "string"),
         ("order.id", "string"), ("order.channel", "string"), ("order.total.amount", "double"),
         ("order.total.currency", "string"), ("order.items", "int")]
SCHEMAS = {
    6: _BASE[:-1] + [("customer.id", "string?"), ("customer.segment", "string?")],
    7: _BASE + [("customer.id", "string?"), ("customer.segment", "string?")],
    8: _BASE + [("customer.customer_ref", "string"), ("customer.segment", "string?")],
    9: _BASE + [("customer.id", "string?"), ("customer.customer_ref", "string?"), ("customer.segment", "string?")],
}
VERSIONS = [
    {"version": 6, "schema_id": 988, "registered_at": "2024-08-12T13:20:41Z", "registered_by": HOFMANN},
    {"version": 7, "schema_id": 1031, "registered_at": "2024-09-23T10:05:17Z", "registered_by": HOFMANN},
    {"version": 8, "schema_id": 1047, "registered_at": "2024-11-04T09:38:12Z", "registered_by": HOFMANN},
    {"version": 9, "schema_id": 1052, "registered_at": "2024-11-04T12:09:55Z", "registered_by": HOFMANN},
]
SCHEMA_NOTES = {6: "initial v2 schema", 7: "add order.items", 8: "customer.id renamed to customer.customer_ref (CRM migration)",
                9: "restore customer.id next to customer.customer_ref"}

# --- the loader's logs (run B, the two incident windows) --------------------------------------

STACK = """java.lang.IllegalStateException: writer for analytics.orders_created[p4] is closed (closed at generation 55)
\tat com.quillmart.loader.sink.PartitionWriterPool.get(PartitionWriterPool.java:88)
\tat com.quillmart.loader.sink.WarehouseSink.write(WarehouseSink.java:141)
\tat com.quillmart.loader.pipeline.BatchProcessor.flush(BatchProcessor.java:203)
\tat com.quillmart.loader.pipeline.BatchProcessor.onBatch(BatchProcessor.java:117)
\tat com.quillmart.loader.kafka.ConsumerLoop.run(ConsumerLoop.java:76)
\tat java.base/java.lang.Thread.run(Thread.java:1583)"""

# assignments: (from, {pod: partitions})
ASSIGN = [
    (ts("2024-11-01T10:02:40Z"), 57, {0: [0, 1], 1: [2, 5], 2: [3, 4]}),
    (GEN58, 58, {0: [0, 1, 4], 1: [2, 3, 5]}),
    (GEN59, 59, {0: [0, 4], 1: [2, 3], 3: [1, 5]}),
    (GEN60, 60, {0: [0, 1], 1: [2], 2: [3, 4], 3: [5]}),
    (ts("2024-11-04T02:10:22Z"), 61, {0: [0, 1], 1: [2, 5], 2: [3, 4]}),
]


def owner(p, t):
    cur = None
    for since, gen, a in ASSIGN:
        if since <= t:
            cur = next(pod for pod, ps in a.items() if p in ps)
    return cur


def _line(t, level, host, text):
    return (t, level, "%s level=%s host=%s %s" % (iso(t, ms=True), level, host, text))


def _logs():
    out = []
    d = dt.timedelta
    # routine commits, every 10 minutes in both windows
    windows = [(ts("2024-11-03T16:00:00Z"), ts("2024-11-03T19:00:00Z")),
               (ts("2024-11-04T09:30:00Z"), ts("2024-11-04T12:30:00Z"))]
    for lo, hi in windows:
        t = lo + d(minutes=2, seconds=2)
        while t < hi:
            for p in range(NPART):
                if t > OOM_AT - d(seconds=5) and t < GEN58 and p in (3, 4):
                    pass
                o = owner(p, t)
                if o == 2 and OOM_AT <= t < GEN60:
                    continue
                tt = t + d(milliseconds=4 + 3 * p)
                out.append(_line(tt, "INFO", POD % o, "event=commit group=wh-loader partition=%d offset=%d"
                                 % (p, offset_at(p, t))))
            t += d(minutes=10)
    for t, ms, heap in [("2024-11-03T16:31:12Z", 1840, 93), ("2024-11-03T16:44:50Z", 3120, 96),
                        ("2024-11-03T16:50:33Z", 4410, 98)]:
        out.append(_line(ts(t) + d(milliseconds=211), "WARN", POD % 2,
                         "event=gc_pause ms=%d heap_used_pct=%d memory_limit=2Gi" % (ms, heap)))
    out.append(_line(OOM_AT + d(milliseconds=530), "ERROR", "kube-node-eu1-14",
                     "event=container_exit pod=%s reason=OOMKilled exit_code=137 memory_limit=2Gi" % (POD % 2)))
    out.append(_line(ts("2024-11-03T18:21:09Z") + d(milliseconds=77), "INFO", "kube-node-eu1-09",
                     "event=container_start pod=%s restart_count=1" % (POD % 2)))
    out.append(_line(GEN59 - d(seconds=3), "INFO", "kube-node-eu1-11",
                     "event=container_start pod=%s reason=autoscaler lag=61234" % (POD % 3)))
    for since, gen, a in ASSIGN[1:4]:
        for pod, ps in sorted(a.items()):
            out.append(_line(since + d(milliseconds=12 + pod), "INFO", POD % pod,
                             "event=rebalance group=wh-loader generation=%d members=%d assigned=%s"
                             % (gen, len(a), ",".join(map(str, ps)))))
            for p in ps:
                at = LAST_COMMIT if gen == 58 and p in (3, 4) else since - d(seconds=5)
                out.append(_line(since + d(milliseconds=40 + 5 * p), "INFO", POD % pod,
                                 "event=resume group=wh-loader generation=%d partition=%d offset=%d"
                                 % (gen, p, offset_at(p, at))))
    # partition 4's failed writes on -0
    first_batch = offset_at(4, GEN58)
    out.append((GEN58 + d(milliseconds=1120), "ERROR", "%s level=ERROR host=%s event=write_failed table=%s "
                "partition=4 first_offset=%d last_offset=%d rows=%d on_error=skip\n%s"
                % (iso(GEN58 + d(milliseconds=1120), ms=True), POD % 0, TABLE, B, first_batch - 1, first_batch - B,
                   STACK)))
    t = ts("2024-11-03T16:54:39Z")
    prev = first_batch
    while t < GEN60:
        hi = min(offset_at(4, t), E)
        if hi > prev:
            out.append(_line(t + d(milliseconds=402), "WARN", POD % 0,
                             "event=write_failed table=%s partition=4 batches=%d rows=%d first_offset=%d "
                             "last_offset=%d on_error=skip error=\"writer for analytics.orders_created[p4] is closed\""
                             % (TABLE, (hi - prev + 249) // 250, hi - prev, prev, hi - 1)))
        prev = max(prev, hi)
        t += d(minutes=10)
    if E > prev:
        tt = GEN60 - d(milliseconds=650)
        out.append(_line(tt, "WARN", POD % 0,
                         "event=write_failed table=%s partition=4 batches=%d rows=%d first_offset=%d last_offset=%d "
                         "on_error=skip error=\"writer for analytics.orders_created[p4] is closed\""
                         % (TABLE, (E - prev + 249) // 250, E - prev, prev, E - 1)))
    # the schema change
    out.append(_line(V8_FROM + d(milliseconds=420), "INFO", POD % owner(0, V8_FROM),
                     "event=schema_seen subject=%s schema_id=1047 version=8 reader_schema_id=1031" % SUBJECT))
    for p in range(NPART):
        lo, _ = SCHEMA_LOST[p]
        q = next(k for k, r in enumerate(DLQ_ROWS) if r[2] == lo and r[1] == p) + DLQ_LOG_START
        tt = msg_time(p, lo) + d(milliseconds=180)
        out.append(_line(tt, "WARN", POD % owner(p, tt),
                         "event=dlq_write partition=%d offset=%d schema_id=1047 dlq=%s dlq_offset=%d error=\"%s\""
                         % (p, lo, DLQ, q, NOT_NULL)))
    t = V8_FROM + d(minutes=5)
    while t < V9_FROM + d(minutes=5):
        n = sum(1 for r in DLQ_ROWS if r[2] is not None and t - d(minutes=5) <= r[0] < t)
        out.append(_line(t + d(milliseconds=3), "WARN", POD % 1,
                         "event=dlq_summary window=5m records=%d dlq=%s top_error=\"%s\"" % (n, DLQ, NOT_NULL)))
        if t < V8_FROM + d(minutes=6):
            out.append(_line(t + d(milliseconds=9), "ERROR", POD % 1,
                             "event=dlq_rate_high rate_per_min=%d threshold=50 dlq=%s" % (n // 5, DLQ)))
        t += d(minutes=5)
    out.append(_line(V9_FROM + d(milliseconds=310), "INFO", POD % owner(0, V9_FROM),
                     "event=schema_seen subject=%s schema_id=1052 version=9 reader_schema_id=1031" % SUBJECT))
    out.sort(key=lambda x: x[0])
    return out


LOGS = {RUN_B: _logs()}
