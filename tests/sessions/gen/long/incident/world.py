"""The world of the `incident-checkout` session: a checkout latency incident on
2024-03-14 caused by a payments-api config deploy that shrank its database
pool (max_size 50 -> 12, connection timeout 30 s -> 2 s). Deterministic: the
tools (tool.py) and the model answers (answers.py) both read it."""
import math
import random

DAY = "2024-03-14"


def ts(sec):
    """Seconds since midnight -> ISO timestamp."""
    return "%sT%02d:%02d:%02dZ" % (DAY, sec // 3600, sec // 60 % 60, sec % 60)


def parse_ts(text):
    """ISO timestamp of DAY -> seconds since midnight; ValueError otherwise."""
    if not isinstance(text, str) or not text.startswith(DAY + "T") or not text.endswith("Z") or len(text) != 20:
        raise ValueError("timestamps look like %sT09:30:00Z, got %r" % (DAY, text))
    h, m, s = text[11:19].split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


def hms(h, m, s=0):
    return h * 3600 + m * 60 + s


# --- key moments ------------------------------------------------------------
INV_DEPLOY = hms(9, 30, 12)
BAD_DEPLOY = hms(9, 41, 30)
FIRST_ERROR = hms(9, 42, 17)
SCALE = hms(10, 5, 11)
ROLLBACK = hms(10, 18, 40)
LAST_ERROR = hms(10, 19, 58)
RANGE = (hms(6, 0), hms(12, 0))
AVG_ORDER_EUR = 87.46

SERVICES = [
    {"name": "checkout", "tier": 1, "team": "checkout", "oncall": "Ravi Menon", "replicas": 6,
     "depends_on": ["cart-svc", "pricing-svc", "inventory-svc", "payments-api"]},
    {"name": "payments-api", "tier": 1, "team": "payments", "oncall": "Lena Fischer", "replicas": 4,
     "depends_on": ["pg-payments", "fraud-check", "psp-gateway"]},
    {"name": "inventory-svc", "tier": 1, "team": "fulfilment", "oncall": "Rui Silva", "replicas": 4,
     "depends_on": ["pg-inventory", "redis-stock"]},
    {"name": "cart-svc", "tier": 2, "team": "checkout", "oncall": "Ravi Menon", "replicas": 3,
     "depends_on": ["redis-cart"]},
    {"name": "pricing-svc", "tier": 2, "team": "pricing", "oncall": "Mei Tanaka", "replicas": 3,
     "depends_on": ["pg-catalog"]},
    {"name": "fraud-check", "tier": 2, "team": "risk", "oncall": "Omar Haddad", "replicas": 2,
     "depends_on": ["ml-scoring"]},
    {"name": "psp-gateway", "tier": 1, "team": "payments", "oncall": "Lena Fischer", "replicas": 2,
     "depends_on": []},
    {"name": "search-api", "tier": 2, "team": "discovery", "oncall": "Anna Nowak", "replicas": 5,
     "depends_on": ["opensearch"]},
    {"name": "pg-payments", "tier": 1, "team": "dba", "oncall": "Jorge Ortega", "replicas": 2, "depends_on": []},
    {"name": "pg-inventory", "tier": 1, "team": "dba", "oncall": "Jorge Ortega", "replicas": 2, "depends_on": []},
    {"name": "pg-catalog", "tier": 2, "team": "dba", "oncall": "Jorge Ortega", "replicas": 2, "depends_on": []},
    {"name": "redis-stock", "tier": 2, "team": "fulfilment", "oncall": "Rui Silva", "replicas": 3, "depends_on": []},
    {"name": "redis-cart", "tier": 2, "team": "checkout", "oncall": "Ravi Menon", "replicas": 3, "depends_on": []},
    {"name": "ml-scoring", "tier": 3, "team": "risk", "oncall": "Omar Haddad", "replicas": 2, "depends_on": []},
]
SERVICE_NAMES = [s["name"] for s in SERVICES]

DEPLOYS = [
    {"id": "dep-71aa4f", "service": "payments-api", "at": "2024-03-12T14:20:05Z", "kind": "deploy",
     "author": "m.keller", "commit": "4b2d9a0", "summary": "payments-api v3.14.0: idempotency keys for refunds"},
    {"id": "dep-3e9a11", "service": "search-api", "at": ts(hms(8, 55, 3)), "kind": "deploy",
     "author": "a.nowak", "commit": "c81f3e2", "summary": "search-api v2.31.0: synonyms for brand names"},
    {"id": "dep-b81a02", "service": "inventory-svc", "at": ts(INV_DEPLOY), "kind": "config",
     "author": "r.silva", "commit": "77d01be", "summary": "feature flag inventory.reserve_v2 from 10% to 100%"},
    {"id": "dep-4c91e7", "service": "payments-api", "at": ts(BAD_DEPLOY), "kind": "config",
     "author": "m.keller", "commit": "9e1f0c4", "summary": "bump HikariCP 5.0.1 -> 5.1.0 and tidy db pool settings"},
    {"id": "dep-5d0e88", "service": "payments-api", "at": ts(SCALE), "kind": "scale",
     "author": "l.fischer", "commit": None, "summary": "replicas 4 -> 8"},
    {"id": "dep-e05d3b", "service": "payments-api", "at": ts(ROLLBACK), "kind": "rollback",
     "author": "l.fischer", "commit": "4b2d9a0", "summary": "rollback config to dep-71aa4f"},
    {"id": "dep-c2f7d9", "service": "pricing-svc", "at": ts(hms(10, 42, 0)), "kind": "deploy",
     "author": "m.tanaka", "commit": "e3a9c71", "summary": "pricing-svc v1.88.2: currency rounding fix"},
]

DIFFS = {
    "dep-4c91e7": """--- payments-api/config/application.yaml  (dep-71aa4f)
+++ payments-api/config/application.yaml  (dep-4c91e7)
@@ -12,14 +12,14 @@ db:
   url: jdbc:postgresql://pg-payments-primary:5432/payments
   username: payments_app
   pool:
-    max_size: 50
+    max_size: 12
     min_idle: 10
-    connection_timeout_ms: 30000
+    connection_timeout_ms: 2000
     idle_timeout_ms: 600000
     max_lifetime_ms: 1800000
-    leak_detection_threshold_ms: 0
+    leak_detection_threshold_ms: 60000
 psp:
   base_url: https://psp-gateway.internal:8443
   timeout_ms: 4000
--- payments-api/build.gradle
+++ payments-api/build.gradle
-    implementation 'com.zaxxer:HikariCP:5.0.1'
+    implementation 'com.zaxxer:HikariCP:5.1.0'
change request: CHG-20931   reviewed-by: j.ortega""",
    "dep-b81a02": """--- flags/inventory.yaml  (flagset 2024-03-13.2)
+++ flags/inventory.yaml  (flagset 2024-03-14.1)
   inventory.reserve_v2:
-    rollout_pct: 10
+    rollout_pct: 100
     owner: fulfilment
   inventory.batch_reservations:
     rollout_pct: 0
change request: CHG-20925   reviewed-by: a.brandt""",
    "dep-5d0e88": """--- deploy/payments-api/hpa.yaml
+++ deploy/payments-api/hpa.yaml
-  replicas: 4
+  replicas: 8
manual scale during incident INC-5521 (no change request)""",
    "dep-e05d3b": """--- payments-api/config/application.yaml  (dep-4c91e7)
+++ payments-api/config/application.yaml  (dep-71aa4f)
   pool:
-    max_size: 12
+    max_size: 50
     min_idle: 10
-    connection_timeout_ms: 2000
+    connection_timeout_ms: 30000
     idle_timeout_ms: 600000
     max_lifetime_ms: 1800000
-    leak_detection_threshold_ms: 60000
+    leak_detection_threshold_ms: 0
emergency rollback during incident INC-5521 (approved by on-call lead)""",
    "dep-3e9a11": """--- search-api/config/synonyms.txt
+++ search-api/config/synonyms.txt
+sneakers, trainers, running shoes
+hoodie, hooded sweatshirt
change request: CHG-20918   reviewed-by: k.lee""",
    "dep-c2f7d9": """--- pricing-svc/src/money.rs
+++ pricing-svc/src/money.rs
-    amount.round_dp(2)
+    amount.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
change request: CHG-20934   reviewed-by: a.brandt""",
    "dep-71aa4f": """--- payments-api/src/refunds.kt
+++ payments-api/src/refunds.kt
+    val key = request.idempotencyKey ?: throw MissingIdempotencyKey()
change request: CHG-20877   reviewed-by: j.ortega""",
}

CHANGES = {
    "CHG-20931": {"id": "CHG-20931", "title": "payments-api: HikariCP 5.1.0 and pool settings cleanup",
                  "requested_by": "m.keller", "approved_by": "j.ortega", "risk": "low", "status": "implemented",
                  "planned_for": "2024-03-14T09:40:00Z",
                  "description": "Upgrade HikariCP to 5.1.0 (fixes a leak-detection false positive). While there, align "
                                 "the pool with the new replica sizing agreed in the capacity review: max pool size 120 per "
                                 "instance, fail fast on connection acquisition (2 s instead of 30 s) so that checkout can "
                                 "retry on another instance, enable leak detection at 60 s.",
                  "rollback_plan": "redeploy previous config (dep-71aa4f)",
                  "comments": [{"by": "j.ortega", "at": "2024-03-13T16:02:11Z",
                                "text": "pg-payments max_connections is 400, 4 x 120 fits. LGTM."},
                               {"by": "m.keller", "at": "2024-03-14T09:38:40Z", "text": "deploying now"}]},
    "CHG-20925": {"id": "CHG-20925", "title": "inventory: reserve_v2 to 100%", "requested_by": "r.silva",
                  "approved_by": "a.brandt", "risk": "medium", "status": "implemented",
                  "planned_for": "2024-03-14T09:30:00Z",
                  "description": "Roll the new reservation path out to all traffic after a week at 10% with no errors.",
                  "rollback_plan": "flag to 10%", "comments": []},
}

ONE_TRACE_SPANS = None  # filled lazily


def _rng(*key):
    return random.Random(":".join(str(k) for k in key))


# --- checkout traffic, per minute --------------------------------------------
def phase_fraction(sec):
    """Share of checkouts failing at second `sec`."""
    if FIRST_ERROR <= sec < SCALE:
        return 0.21
    if SCALE <= sec < ROLLBACK:
        return 0.09
    if ROLLBACK <= sec <= LAST_ERROR:
        return 0.05
    return 0.0


def minute_stats(minute):
    """{attempts, failed} of the checkout minute starting at second `minute`."""
    r = _rng("attempts", minute)
    attempts = int(182 + 22 * math.sin(minute / 1900.0) + r.randint(-9, 9))
    frac = sum(phase_fraction(minute + s) for s in range(60)) / 60.0
    if frac > 0:
        failed = int(round(attempts * frac * r.uniform(0.85, 1.15)))
    else:
        failed = 1 if r.random() < 0.12 else 0
    return attempts, failed


def checkout_failures():
    """(second, trace_id, kind) of every failed checkout, sorted."""
    out = []
    for minute in range(RANGE[0], RANGE[1], 60):
        attempts, failed = minute_stats(minute)
        r = _rng("fail-secs", minute)
        if failed == 0:
            continue
        lo, hi = minute, minute + 59
        if minute <= FIRST_ERROR < minute + 60:
            lo = FIRST_ERROR
        if minute <= LAST_ERROR - 2 < minute + 60:
            hi = LAST_ERROR - 2
        incident = any(phase_fraction(minute + s) > 0 for s in range(60))
        secs = sorted(r.randint(lo, hi) for _ in range(failed))
        if incident:
            secs[0] = lo if lo == FIRST_ERROR else secs[0]
            secs[-1] = hi if hi == LAST_ERROR - 2 else secs[-1]
        for k, sec in enumerate(secs):
            tid = "tr-%08x" % _rng("trace", minute, k).getrandbits(32)
            kind = "pool" if incident and FIRST_ERROR <= sec <= LAST_ERROR else "other"
            out.append((sec, tid, kind))
    return sorted(out)


_FAILURES = None


def failures():
    global _FAILURES
    if _FAILURES is None:
        _FAILURES = checkout_failures()
    return _FAILURES


def payments_hosts(sec):
    n = 8 if SCALE <= sec < ROLLBACK + 90 else 4
    return ["pay-api-%d" % i for i in range(1, n + 1)]


def pay_hosts(tid, sec):
    """The payments-api hosts of the two attempts of a failed checkout."""
    r = _rng("pay-host", tid)
    return [r.choice(payments_hosts(sec)), r.choice(payments_hosts(sec))]


# --- logs ----------------------------------------------------------------------
OTHER_CHECKOUT_ERRORS = [
    "cart-svc: timeout after 800ms (GET /cart)",
    "pricing-svc: 500 Internal Server Error (POST /quote)",
    "card declined by issuer, not retried",
]


def log_entries(service):
    """Every WARN/ERROR/INFO log line of a service, sorted by time."""
    out = []
    if service == "checkout":
        for sec, tid, kind in failures():
            r = _rng("co-log", sec, tid)
            host = "co-%d" % r.randint(1, 6)
            if kind == "pool":
                ms = 2000 + r.randint(1, 9)
                msg = "upstream payments-api: 503 Service Unavailable after %dms (POST /v2/charges), retries exhausted" % ms
            else:
                msg = r.choice(OTHER_CHECKOUT_ERRORS)
            out.append({"ts": ts(sec + 2 if kind == "pool" else sec), "level": "ERROR", "host": host, "msg": msg,
                        "trace_id": tid})
        for sec in range(hms(9, 47, 30), hms(10, 20, 0), 300):
            out.append({"ts": ts(sec), "level": "WARN", "host": "co-1",
                        "msg": "circuit breaker payments-api half-open (failure rate above 20%)", "trace_id": None})
    elif service == "payments-api":
        out.append({"ts": ts(BAD_DEPLOY + 21), "level": "INFO", "host": "pay-api-1",
                    "msg": "config reloaded: HikariPool-1 maximumPoolSize=12 connectionTimeout=2000", "trace_id": None})
        for sec, tid, kind in failures():
            if kind != "pool":
                continue
            r = _rng("pay-log", sec, tid)
            for attempt, host in enumerate(pay_hosts(tid, sec)):
                out.append({"ts": ts(sec + 2 * attempt), "level": "ERROR", "host": host,
                            "msg": "E_POOL_TIMEOUT HikariPool-1 - Connection is not available, request timed out after %dms "
                                   "(total=12, active=12, idle=0, waiting=%d)" % (2000 + r.randint(0, 3), r.randint(9, 61)),
                            "trace_id": tid})
        out.append({"ts": ts(ROLLBACK + 19), "level": "INFO", "host": "pay-api-1",
                    "msg": "config reloaded: HikariPool-1 maximumPoolSize=50 connectionTimeout=30000", "trace_id": None})
        out = [e for e in out if parse_ts(e["ts"]) <= LAST_ERROR or e["level"] != "ERROR"]
    elif service == "inventory-svc":
        r = _rng("inv")
        sec = INV_DEPLOY + 40
        while sec < RANGE[1]:
            out.append({"ts": ts(sec), "level": "WARN", "host": "inv-%d" % r.randint(1, 4),
                        "msg": "reserve_v2 slow path %dms sku=%s" % (r.randint(310, 520), "SKU-%05d" % r.randint(10000, 99999)),
                        "trace_id": None})
            sec += r.randint(25, 70)
    elif service == "fraud-check":
        r = _rng("fraud")
        for k in range(9):
            sec = hms(9, 10) + k * 780 + r.randint(0, 200)
            out.append({"ts": ts(sec), "level": "WARN", "host": "fraud-%d" % r.randint(1, 2),
                        "msg": "rule set v41 evaluation took %dms (budget 150ms)" % r.randint(160, 240), "trace_id": None})
    elif service == "cart-svc":
        for sec, tid, kind in failures():
            if kind == "other" and _rng("cart", sec).random() < 0.5:
                out.append({"ts": ts(sec), "level": "ERROR", "host": "cart-2", "msg": "redis-cart timeout after 750ms",
                            "trace_id": tid})
    out.sort(key=lambda e: e["ts"])
    return out


# --- metrics -----------------------------------------------------------------------
METRICS = {
    "checkout": ["latency_p99_ms", "error_rate", "rps"],
    "payments-api": ["latency_p99_ms", "error_rate", "rps", "db_pool_in_use", "db_pool_max", "db_pool_wait_ms", "cpu_pct"],
    "inventory-svc": ["latency_p99_ms", "error_rate", "rps"],
    "cart-svc": ["latency_p99_ms", "error_rate", "rps"],
    "fraud-check": ["latency_p99_ms", "error_rate"],
    "pg-payments": ["cpu_pct", "active_connections", "max_connections"],
}


def metric_value(service, metric, minute):
    r = _rng("m", service, metric, minute)
    attempts, failed = minute_stats(minute)
    frac = sum(phase_fraction(minute + s) for s in range(60)) / 60.0
    sec = minute + 30
    if service == "checkout":
        if metric == "rps":
            return round(attempts / 60.0, 2)
        if metric == "error_rate":
            return round(failed / attempts, 4)
        if metric == "latency_p99_ms":
            if FIRST_ERROR <= minute + 59 and minute < SCALE:
                return 4000 + r.randint(60, 260) if minute >= FIRST_ERROR else 2311
            if SCALE <= minute + 59 and minute < ROLLBACK:
                return 2400 + r.randint(80, 300)
            if ROLLBACK <= minute + 59 and minute <= LAST_ERROR:
                return 1612
            return 410 + r.randint(0, 60)
    if service == "payments-api":
        bad = BAD_DEPLOY + 21 <= sec < ROLLBACK + 19
        if metric == "db_pool_max":
            return 12 if bad else 50
        if metric == "db_pool_in_use":
            if bad:
                return 12 if frac > 0 or minute < SCALE else 12 - (r.random() < 0.3)
            return 17 + r.randint(0, 14)
        if metric == "db_pool_wait_ms":
            return (1500 + r.randint(0, 498)) if frac > 0 else (r.randint(0, 3) if not bad else r.randint(40, 300))
        if metric == "latency_p99_ms":
            return 2004 if frac > 0 else 160 + r.randint(0, 40)
        if metric == "error_rate":
            return round(min(0.6, frac * 2.1 * r.uniform(0.9, 1.1)), 4) if frac > 0 else 0.0
        if metric == "rps":
            return round(attempts / 60.0 * (1.0 + frac * 2) + 1.3, 2)
        if metric == "cpu_pct":
            return 22 + r.randint(0, 9)
    if service == "pg-payments":
        if metric == "cpu_pct":
            return 31 + r.randint(0, 7)
        if metric == "max_connections":
            return 400
        if metric == "active_connections":
            bad = BAD_DEPLOY + 21 <= sec < ROLLBACK + 19
            n = len(payments_hosts(sec))
            return n * 12 + r.randint(2, 6) if bad else 4 * (17 + r.randint(0, 14)) + r.randint(2, 6)
    if service == "inventory-svc":
        if metric == "latency_p99_ms":
            return (455 + r.randint(0, 85)) if minute >= INV_DEPLOY else 380 + r.randint(0, 30)
        if metric == "error_rate":
            return 0.0
        if metric == "rps":
            return round(attempts / 60.0 * 3.1, 2)
    if service == "cart-svc":
        if metric == "latency_p99_ms":
            return 35 + r.randint(0, 15)
        if metric == "error_rate":
            return 0.0005 if r.random() < 0.1 else 0.0
        if metric == "rps":
            return round(attempts / 60.0 * 4.2, 2)
    if service == "fraud-check":
        if metric == "latency_p99_ms":
            return 120 + r.randint(0, 90)
        if metric == "error_rate":
            return 0.0
    raise KeyError(metric)


# --- traces -------------------------------------------------------------------------
def trace(trace_id):
    for sec, tid, kind in failures():
        if tid == trace_id:
            break
    else:
        return None
    r = _rng("trace-spans", tid)
    spans = []
    t = 0

    def span(service, op, dur, status="ok", error=None, host=None):
        nonlocal t
        spans.append({"span": "%04x" % r.getrandbits(16), "service": service, "op": op, "start_ms": t,
                      "duration_ms": dur, "status": status, "error": error, "host": host})
        t += dur + r.randint(0, 3)

    span("cart-svc", "GET /cart", 8 + r.randint(0, 9), host="cart-%d" % r.randint(1, 3))
    span("pricing-svc", "POST /quote", 18 + r.randint(0, 12), host="pricing-%d" % r.randint(1, 3))
    span("inventory-svc", "POST /reserve", (330 if sec >= INV_DEPLOY else 30) + r.randint(0, 60),
         host="inv-%d" % r.randint(1, 4))
    if kind == "pool":
        span("fraud-check", "POST /score", 95 + r.randint(0, 40), host="fraud-%d" % r.randint(1, 2))
        for attempt, host in enumerate(pay_hosts(tid, sec), 1):
            span("payments-api", "POST /v2/charges (attempt %d)" % attempt, 2001 + r.randint(0, 6), "error",
                 "E_POOL_TIMEOUT", host=host)
        total = t + 4
        status = 503
    else:
        span("payments-api", "POST /v2/charges (attempt 1)", 140 + r.randint(0, 60), host=r.choice(payments_hosts(sec)))
        total = t + 4
        status = 502
    return {"trace_id": tid, "root": "POST /checkout", "started_at": ts(sec - 3), "duration_ms": total,
            "http_status": status, "spans": spans}


def first_pool_traces(n):
    return [tid for sec, tid, kind in failures() if kind == "pool"][:n]


def window_failed(lo, hi):
    """Failed checkouts in the minutes [lo, hi] (seconds of minute starts)."""
    return sum(minute_stats(m)[1] for m in range(lo, hi + 1, 60))
