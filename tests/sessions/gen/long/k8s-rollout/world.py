"""The world of the `k8s-rollout` session: Tuesday 2025-03-18 at Fernhill
(an online retailer), from 09:40 UTC. The payments team asks platform to roll
checkout-api 4.18.0 out to the three production clusters, canary first, before
the US Spring Sale freeze.

Planted:
- the clusters pull through regional mirrors of registry.fernhill.io; the
  running pods name mirror-euw1.registry.fernhill.io, whose sync has been
  stuck since 2025-03-14 22:10. There the tag 4.18.0 still points at the
  first 4.18.0 build (#8802, pushed 2025-03-14, only signed by the CI
  pre-release key), withdrawn before release sign-off and rebuilt on
  2025-03-17 on a patched base image (build #8841, release-signed). The two
  digests share their first five hex digits; the admission policy refuses
  the first one. The tag list also holds 4.18.0-rc.2 and 4.18.0-rc.1.
- checkout-api-staging (a namespace of eu-west-1-prod) has run 4.18.0 since
  yesterday with a 4.17.3 baseline pod; its canary numbers look better than
  prod's (tiny traffic). An analysis of the staging namespace cannot promote
  the prod rollout.
- look-alikes: checkout-api / checkout-api-worker / checkout-web (incidents,
  HPAs), pods checkout-api-84c6d9f5b-k4m2z (4 restarts, redis pool
  exhaustion, the CHKOUT-2291 bug 4.18.0 fixes) / -k4m7z, nodes
  ip-10-61-12-9 / ip-10-61-12-90 and ip-10-42-17-203 / ip-10-42-17-230,
  freezes FRZ-2025-013 (past) / FRZ-2025-014, analysis runs AR-euw1-7486
  (staging) / AR-euw1-8719 (prod).
- eu-central-1-prod: HPA near its max (11 of 12) and a payroll blackout
  12:00-12:45 UTC; us-east-1-prod: freeze from 17:00 UTC; eu-west-1-prod:
  node AMI rotation 14:00-16:00 UTC.
The clusters change as steps are applied (tool.py keeps the applied steps);
everything else is fixed. Deterministic: tool.py and answers.py read it."""
import hashlib
import math

from toolkit import crc  # gen/long/, on the path of every importer

DAY = "2025-03-18"
START = "2025-03-18T09:40:00Z"
SERVICE = "checkout-api"
WORKER = "checkout-api-worker"
RELEASE = "checkout-api"
VERSION = "4.18.0"
OLD = "4.17.3"
NS = "checkout-api"
NS_STG = "checkout-api-staging"
CLUSTERS = ["eu-west-1-prod", "eu-central-1-prod", "us-east-1-prod"]
SHORT = {"eu-west-1-prod": "euw1", "eu-central-1-prod": "euc1", "us-east-1-prod": "use1"}
REGION = {"eu-west-1-prod": "eu-west-1", "eu-central-1-prod": "eu-central-1", "us-east-1-prod": "us-east-1"}
PRIMARY = "registry.fernhill.io"
MIRROR = {c: "mirror-%s.registry.fernhill.io" % SHORT[c] for c in CLUSTERS}
MIRROR_SYNC = {"mirror-euw1.registry.fernhill.io": "2025-03-14T22:10:05Z",
               "mirror-euc1.registry.fernhill.io": "2025-03-18T09:30:12Z",
               "mirror-use1.registry.fernhill.io": "2025-03-18T09:31:47Z"}
REPO = "checkout/checkout-api"
CHANNEL = "#checkout-releases"


def _hex(seed):
    return hashlib.sha256(seed.encode()).hexdigest()


D_OLD = "sha256:" + _hex("checkout-api 4.17.3 build 8512")
D_172 = "sha256:" + _hex("checkout-api 4.17.2 build 8420")
D_RC1 = "sha256:" + _hex("checkout-api 4.18.0-rc.1 build 8733")
D_RC2 = "sha256:" + _hex("checkout-api 4.18.0-rc.2 build 8790")
D_FIRST = "sha256:7c4e1" + _hex("checkout-api 4.18.0 build 8802 withdrawn")[5:]
D_REL = "sha256:7c4e1" + _hex("checkout-api 4.18.0 build 8841 rebuilt")[5:]
assert D_FIRST[:12] == D_REL[:12] and D_FIRST[12] != D_REL[12], (D_FIRST, D_REL)
for _d in (D_OLD, D_172, D_RC1, D_RC2, D_FIRST, D_REL):
    assert len(_d) == 71

BUILD_REL, BUILD_FIRST = "#8841", "#8802"
PUSH_REL = "2025-03-17T14:05:33Z"
PUSH_FIRST = "2025-03-14T09:12:48Z"
CVE = "CVE-2025-0665"
CHKOUT = "CHKOUT-2291"          # the redis pool bug 4.18.0 fixes (REDIS_POOL_SIZE 64 -> 128)
TAX_ENV = "TAX_V2_TIMEOUT_MS"   # new in 4.18.0, 800 ms
POSTMORTEM = "PM-0311"          # of incident #48207 (eu-central HPA at its max)

TAGS_PRIMARY = [
    {"tag": "latest", "digest": D_REL, "pushed_at": PUSH_REL, "size_mb": 187.4, "build": BUILD_REL,
     "signed_by": ["ci-prerelease", "release"]},
    {"tag": "4.18.0", "digest": D_REL, "pushed_at": PUSH_REL, "size_mb": 187.4, "build": BUILD_REL,
     "signed_by": ["ci-prerelease", "release"],
     "previous_digests": [{"digest": D_FIRST, "from": PUSH_FIRST, "until": PUSH_REL, "build": BUILD_FIRST,
                           "signed_by": ["ci-prerelease"],
                           "note": "first 4.18.0 build, withdrawn before release sign-off: rebuilt on the patched "
                                   "base image (%s)" % CVE}]},
    {"tag": "4.18.0-rc.2", "digest": D_RC2, "pushed_at": "2025-03-13T16:41:07Z", "size_mb": 186.9, "build": "#8790",
     "signed_by": ["ci-prerelease"]},
    {"tag": "4.18.0-rc.1", "digest": D_RC1, "pushed_at": "2025-03-11T11:02:55Z", "size_mb": 186.2, "build": "#8733",
     "signed_by": ["ci-prerelease"]},
    {"tag": "4.17.3", "digest": D_OLD, "pushed_at": "2025-02-26T10:18:40Z", "size_mb": 181.7, "build": "#8512",
     "signed_by": ["ci-prerelease", "release"]},
    {"tag": "4.17.2", "digest": D_172, "pushed_at": "2025-02-12T15:30:12Z", "size_mb": 181.5, "build": "#8420",
     "signed_by": ["ci-prerelease", "release"]},
]


def tags(registry):
    """The tag list a registry shows: the mirror of eu-west-1 is stuck before the rebuild."""
    out = []
    stale = registry == "mirror-euw1.registry.fernhill.io"
    for t in TAGS_PRIMARY:
        t = dict(t)
        if stale and t["tag"] in ("latest", "4.18.0"):
            t.update(digest=D_FIRST, pushed_at=PUSH_FIRST, size_mb=187.1, build=BUILD_FIRST)
            t.pop("previous_digests", None)
        if registry != PRIMARY:
            t.pop("signed_by", None)
            t.pop("previous_digests", None)
        out.append(t)
    return out


# --- clusters, nodes, pods ------------------------------------------------------------------------

ALPHA = "bcdfghjklmnpqrstvwxz2456789"


def suffix(*seed):
    n = crc("pod", *seed)
    s = ""
    for _ in range(5):
        s += ALPHA[n % len(ALPHA)]
        n //= len(ALPHA)
    return s


def _nodes(region, ips, domain, base_cpu, base_mem):
    return [{"name": "ip-%s.%s" % (ip.replace(".", "-"), domain), "zone": region + "abc"[i % 3],
             "instance_type": "m6i.xlarge", "allocatable_cpu": "3920m", "allocatable_memory": "15136Mi",
             "base_cpu": base_cpu[i], "base_mem": base_mem[i]}
            for i, ip in enumerate(ips)]


CL = {
    "eu-west-1-prod": {
        "rs_old": "7d9f8b6c5", "rs_new": "5c7f9d8b4", "rs_worker": "6f8d4b7c2", "replicas": 9, "revision": 57,
        "hpa": {"min": 6, "max": 18, "target": 65, "cpu": [58, 57, 55, 54], "scaled": "2025-03-18T07:55:20Z"},
        "nodes": _nodes("eu-west-1", ["10.42.17.203", "10.42.17.230", "10.42.21.88", "10.42.33.145", "10.42.40.12"],
                        "eu-west-1.compute.internal", [2110, 1985, 2430, 2240, 1870], [8210, 7940, 9350, 8800, 7460]),
    },
    "eu-central-1-prod": {
        "rs_old": "6b4d8f7c9", "rs_new": "78d5c9f6b", "rs_worker": "5d9c7f8b4", "replicas": 11, "revision": 44,
        "hpa": {"min": 6, "max": 12, "target": 65, "cpu": [71, 70, 66, 63], "scaled": "2025-03-18T09:22:48Z"},
        "nodes": _nodes("eu-central-1", ["10.51.8.77", "10.51.8.170", "10.51.19.4", "10.51.27.201"],
                        "eu-central-1.compute.internal", [2860, 2790, 2940, 2705], [10120, 9870, 10560, 9640]),
    },
    "us-east-1-prod": {
        "rs_old": "84c6d9f5b", "rs_new": "9f7b6c4d8", "rs_worker": "7b5f9c6d4", "replicas": 14, "revision": 63,
        "hpa": {"min": 8, "max": 24, "target": 65, "cpu": [61, 60, 57, 55], "scaled": "2025-03-18T09:05:02Z"},
        "nodes": _nodes("us-east-1", ["10.61.4.17", "10.61.12.9", "10.61.12.90", "10.61.30.222", "10.61.41.6",
                                      "10.61.52.133"],
                        "ec2.internal", [1940, 2260, 2080, 1875, 2395, 2150], [7720, 8460, 8010, 7390, 9120, 8230]),
    },
}

POD_X2K9P = "checkout-api-7d9f8b6c5-x2k9p"
POD_K4M2Z = "checkout-api-84c6d9f5b-k4m2z"
POD_K4M7Z = "checkout-api-84c6d9f5b-k4m7z"
NODE_K4M2Z = "ip-10-61-12-9.ec2.internal"
NODE_K4M7Z = "ip-10-61-12-90.ec2.internal"
FIXED_OLD = {("eu-west-1-prod", 0): (POD_X2K9P, "ip-10-42-17-203.eu-west-1.compute.internal"),
             ("us-east-1-prod", 2): (POD_K4M2Z, NODE_K4M2Z),
             ("us-east-1-prod", 3): (POD_K4M7Z, NODE_K4M7Z)}
OLD_STARTED = {"eu-west-1-prod": "2025-03-04T11:2%d:%02dZ", "eu-central-1-prod": "2025-03-04T13:0%d:%02dZ",
               "us-east-1-prod": "2025-03-04T15:4%d:%02dZ"}


def _pod_ip(c, i, new):
    base = {"eu-west-1-prod": "10.42", "eu-central-1-prod": "10.51", "us-east-1-prod": "10.61"}[c]
    return "%s.%d.%d" % (base, 128 + crc("ip", c, i, new) % 64, 2 + crc("ip2", c, i, new) % 250)


def old_pods(c):
    cl = CL[c]
    nodes = [n["name"] for n in cl["nodes"]]
    out = []
    for i in range(cl["replicas"]):
        name, node = FIXED_OLD.get((c, i), ("checkout-api-%s-%s" % (cl["rs_old"], suffix(c, "old", i)),
                                            nodes[i % len(nodes)]))
        started = OLD_STARTED[c] % (i % 6, (17 * i + 5) % 60)
        if c == "eu-central-1-prod" and i >= 9:
            started = "2025-03-18T09:2%d:%02dZ" % (i - 7, 31 + i)  # scaled up at 09:22
        out.append({"name": name, "deployment": SERVICE, "version": OLD, "node": node, "ip": _pod_ip(c, i, False),
                    "phase": "Running", "ready": "2/2", "restarts": 4 if name == POD_K4M2Z else 0,
                    "started": started})
    return out


def new_pods(c):
    cl = CL[c]
    nodes = [n["name"] for n in cl["nodes"]]
    out = []
    for i in range(cl["replicas"]):
        out.append({"name": "checkout-api-%s-%s" % (cl["rs_new"], suffix(c, "new", i)), "deployment": SERVICE,
                    "version": VERSION, "node": nodes[(i + 2) % len(nodes)], "ip": _pod_ip(c, i, True),
                    "phase": "Running", "ready": "2/2", "restarts": 0})
    return out


def worker_pods(c):
    cl = CL[c]
    nodes = [n["name"] for n in cl["nodes"]]
    return [{"name": "%s-%s-%s" % (WORKER, cl["rs_worker"], suffix(c, "worker", i)), "deployment": WORKER,
             "version": "2.9.1", "node": nodes[(2 * i + 1) % len(nodes)], "ip": _pod_ip(c, 100 + i, False),
             "phase": "Running", "ready": "1/1", "restarts": 0, "started": "2025-03-11T08:1%d:%02dZ" % (i, 9 * i + 4)}
            for i in range(3)]


# --- the rollout schedule (when each step the agent applies takes effect) --------------------

STEPS = {
    ("eu-west-1-prod", 10): "2025-03-18T10:16:05Z",
    ("eu-west-1-prod", 50): "2025-03-18T10:34:18Z",
    ("eu-west-1-prod", 100): "2025-03-18T10:52:44Z",
    ("eu-central-1-prod", 10): "2025-03-18T11:02:30Z",
    ("eu-central-1-prod", 50): "2025-03-18T11:20:11Z",
    ("eu-central-1-prod", 100): "2025-03-18T11:20:11Z",
    ("us-east-1-prod", 10): "2025-03-18T11:36:02Z",
    ("us-east-1-prod", 50): "2025-03-18T11:54:20Z",
    ("us-east-1-prod", 100): "2025-03-18T11:54:20Z",
}
COMPLETED = {"eu-west-1-prod": "2025-03-18T10:58:10Z", "eu-central-1-prod": "2025-03-18T11:27:40Z",
             "us-east-1-prod": "2025-03-18T12:03:15Z"}


def hhmm(ts):
    h, m = ts[11:16].split(":")
    return int(h) * 60 + int(m)


def weight_at(c, ts):
    """The canary weight serving in cluster c at `ts` (from the schedule)."""
    w = 0
    for (cc, wt), at in sorted(STEPS.items(), key=lambda kv: kv[1]):
        if cc == c and at <= ts:
            w = max(w, wt)
    return w


def canary_count(c, weight):
    return CL[c]["replicas"] if weight >= 100 else math.ceil(CL[c]["replicas"] * weight / 100)


# --- canary analysis numbers (15-minute windows) ------------------------------------------------

# (cluster, namespace, weight) -> canary (requests, errors, p50, p95, p99), stable (...)
ANALYSIS = {
    ("eu-west-1-prod", NS, 10): ((8946, 17, 88, 246, 431), (80512, 129, 84, 231, 385)),
    ("eu-west-1-prod", NS, 50): ((44870, 81, 86, 239, 402), (44512, 76, 84, 232, 389)),
    ("eu-central-1-prod", NS, 10): ((6120, 13, 91, 238, 402), (55240, 99, 87, 226, 371)),
    ("us-east-1-prod", NS, 10): ((11530, 16, 79, 214, 356), (103870, 135, 77, 209, 339)),
    ("eu-west-1-prod", NS_STG, 100): ((2418, 1, 61, 142, 196), (2377, 2, 63, 149, 204)),
}


def analysis_id(c, ns, weight):
    return "AR-%s-%04d" % (SHORT[c], crc("ar", c, ns, weight) % 10000)


def staging_pods():
    return ([{"name": "checkout-api-6c8d5f9b7-%s" % suffix("stg", i), "deployment": SERVICE, "version": VERSION,
              "node": CL["eu-west-1-prod"]["nodes"][(i + 3) % 5]["name"], "ip": _pod_ip("eu-west-1-prod", 200 + i, True),
              "phase": "Running", "ready": "2/2", "restarts": 0, "started": "2025-03-17T16:1%d:%02dZ" % (i, 12 + 7 * i)}
             for i in range(2)] +
            [{"name": "checkout-api-baseline-7d9f8b6c5-%s" % suffix("stgb", 0), "deployment": "checkout-api-baseline",
              "version": OLD, "node": CL["eu-west-1-prod"]["nodes"][1]["name"], "ip": _pod_ip("eu-west-1-prod", 210, False),
              "phase": "Running", "ready": "2/2", "restarts": 0, "started": "2025-03-17T16:09:51Z"}])


# --- calendar, incidents -------------------------------------------------------------------------------

CALENDAR = [
    {"id": "FRZ-2025-013", "kind": "freeze", "title": "EU Spring Sale: change freeze",
     "scope": ["eu-west-1-prod", "eu-central-1-prod"], "start": "2025-03-14T16:00:00Z", "end": "2025-03-17T06:00:00Z",
     "owner": "commerce-ops", "notes": "no deploys or config changes on customer-facing services"},
    {"id": "BLK-2025-031", "kind": "blackout", "title": "EU payroll settlement batch", "scope": ["eu-central-1-prod"],
     "start": "2025-03-18T12:00:00Z", "end": "2025-03-18T12:45:00Z", "owner": "finance-platform",
     "notes": "checkout and payments changes held: the settlement job reads checkout-api order exports"},
    {"id": "MNT-3391", "kind": "maintenance", "title": "EKS node AMI rotation (ami-0b7e4c2d19a3f5e68)",
     "scope": ["eu-west-1-prod"], "start": "2025-03-18T14:00:00Z", "end": "2025-03-18T16:00:00Z",
     "owner": "platform-compute", "notes": "nodes cordoned and drained one at a time; no rollouts during the rotation"},
    {"id": "FRZ-2025-014", "kind": "freeze", "title": "US Spring Sale: change freeze", "scope": ["us-east-1-prod"],
     "start": "2025-03-18T17:00:00Z", "end": "2025-03-20T06:00:00Z", "owner": "commerce-ops",
     "notes": "no deploys or config changes on customer-facing services; emergency changes need the commerce-ops duty manager"},
    {"id": "EVT-0318", "kind": "event", "title": "US Spring Sale: campaign e-mail send (4.2M recipients)",
     "scope": ["us-east-1-prod"], "start": "2025-03-18T18:00:00Z", "end": "2025-03-18T19:00:00Z",
     "owner": "growth-marketing", "notes": "expect 3-4x checkout traffic in us-east-1 from 18:00"},
    {"id": "FRZ-2025-016", "kind": "freeze", "title": "Quarter-end freeze", "scope": ["all-prod"],
     "start": "2025-03-27T18:00:00Z", "end": "2025-04-02T08:00:00Z", "owner": "cab",
     "notes": "standard changes suspended"},
]

INCIDENTS = [
    {"id": "PQ7M2KX", "number": 48188, "title": "tax-service 5xx above 2% in us-east-1", "service": "tax-service",
     "cluster": "us-east-1-prod", "urgency": "high", "status": "resolved", "created": "2025-03-14T19:02:11Z",
     "resolved": "2025-03-14T19:48:40Z", "assignee": "Dana Whitfield",
     "notes": "bad tax table import; rolled back. checkout-api retried, customers saw slow checkouts"},
    {"id": "PZ3K8DW", "number": 48198, "title": "checkout-api OOMKilled in eu-west-1 after the price import",
     "service": "checkout-api", "cluster": "eu-west-1-prod", "urgency": "high", "status": "resolved",
     "created": "2025-03-15T06:20:37Z", "resolved": "2025-03-15T07:05:02Z", "assignee": "Jonas Wirth",
     "notes": "memory limit raised 512Mi -> 768Mi in values-prod.yaml (PLAT-4459)"},
    {"id": "P8WQ4RT", "number": 48207, "title": "checkout-api p99 latency above 800 ms in eu-central-1",
     "service": "checkout-api", "cluster": "eu-central-1-prod", "urgency": "high", "status": "resolved",
     "created": "2025-03-17T07:12:40Z", "resolved": "2025-03-17T08:03:11Z", "assignee": "Jonas Wirth",
     "notes": "HPA pinned at maxReplicas 10; raised to 12 (PLAT-4466). Postmortem %s in review" % POSTMORTEM},
    {"id": "PK2N7VB", "number": 48219, "title": "checkout-web 4xx spike on /cart in us-east-1", "service": "checkout-web",
     "cluster": "us-east-1-prod", "urgency": "low", "status": "acknowledged", "created": "2025-03-18T08:52:05Z",
     "resolved": None, "assignee": "Priya Raman", "notes": "bot traffic on /cart; WAF rule in review"},
    {"id": "PJ5T9HC", "number": 48221, "title": "payments-gateway: Adyen webhook lag above 120 s",
     "service": "payments-gateway", "cluster": "eu-west-1-prod", "urgency": "low", "status": "triggered",
     "created": "2025-03-18T09:14:37Z", "resolved": None, "assignee": None,
     "notes": "provider-side delay; status.adyen.com reports degraded webhooks"},
    {"id": "PR6X3LM", "number": 48224, "title": "checkout-api-worker queue lag above 5 min in us-east-1",
     "service": "checkout-api-worker", "cluster": "us-east-1-prod", "urgency": "low", "status": "triggered",
     "created": "2025-03-18T09:31:02Z", "resolved": None, "assignee": None,
     "notes": "order-export consumer behind after the 09:00 batch; catching up"},
]

CR_ID = "CHG-%05d" % (30000 + crc("chg", SERVICE, VERSION) % 10000)
CR_CREATED = "2025-03-18T09:58:12Z"
CR_AMENDED = "2025-03-18T10:14:40Z"
CR_CLOSED = "2025-03-18T12:16:30Z"
POST_AT = "2025-03-18T12:12:04Z"


def rollout_id(c):
    return "RLT-%s-%05d" % (SHORT[c], crc("rlt", c, VERSION) % 100000)


# --- logs -----------------------------------------------------------------------------------------------

def canary_log(c, pod, start):
    """The log of a 4.18.0 pod started at `start` (ISO, seconds)."""
    base = start[:17]
    sec = int(start[17:19])

    def t(dm, ds, ms):
        m = int(base[14:16]) + dm + (sec + ds) // 60
        h = int(base[11:13]) + m // 60
        return "%s%02d:%02d:%02d.%03dZ" % (base[:11], h, m % 60, (sec + ds) % 60, ms)
    region = REGION[c]
    lines = [
        (t(0, 21, 204), "INFO", "checkout-api %s (build 8841, commit 3e9a1c7) starting, profile=prod region=%s" % (VERSION, region)),
        (t(0, 21, 377), "INFO", "config: REDIS_POOL_SIZE=128 TAX_CLIENT=v2 PRICE_CACHE_ENABLED=true PRICE_CACHE_MAX_ENTRIES=250000"),
        (t(0, 22, 19), "INFO", "redis: pool ready (size=128) host=checkout-cache.%s.fernhill.internal:6379" % SHORT[c]),
        (t(0, 26, 441), "INFO", "price-cache: warm-up loaded 231904 entries in 4.2s (heap 402MiB of 1024MiB)"),
        (t(0, 26, 903), "INFO", "http: listening on :8080 (pod %s)" % pod),
        (t(0, 31, 12), "INFO", "readiness: ok (redis, pricing-svc, tax-service v2)"),
        (t(3, 12, 550), "WARN", "tax-v2: upstream timeout after 800ms, retry 1/2 (order=ord_8KQ2M4T)"),
        (t(3, 13, 401), "INFO", "checkout: POST /v1/checkout 201 1402ms (order=ord_8KQ2M4T)"),
        (t(6, 47, 88), "WARN", "tax-v2: upstream timeout after 800ms, retry 1/2 (order=ord_8KR1X0Z)"),
        (t(6, 48, 702), "WARN", "tax-v2: upstream timeout after 800ms, retry 2/2 (order=ord_8KR1X0Z)"),
        (t(6, 49, 511), "ERROR", "checkout: POST /v1/checkout 502 tax-v2 upstream timeout after 2 retries (order=ord_8KR1X0Z)"),
        (t(9, 5, 230), "INFO", "price-cache: refresh 1184 entries changed, hit ratio 0.962"),
        (t(11, 40, 617), "WARN", "payments-gateway: webhook confirmation pending > 90s (order=ord_8KS7B2P)"),
        (t(13, 2, 45), "INFO", "price-cache: refresh 402 entries changed, hit ratio 0.968"),
    ]
    return [{"ts": a, "level": b, "msg": m} for a, b, m in lines]


K4M2Z_PREVIOUS = [
    ("2025-03-18T06:38:55.114Z", "INFO", "checkout: POST /v1/checkout 201 388ms (order=ord_8JZ0Q1C)"),
    ("2025-03-18T06:40:02.771Z", "WARN", "redis: pool exhausted (size=64, waiting=12) host=checkout-cache.use1.fernhill.internal:6379"),
    ("2025-03-18T06:40:31.006Z", "WARN", "redis: pool exhausted (size=64, waiting=37) host=checkout-cache.use1.fernhill.internal:6379"),
    ("2025-03-18T06:40:49.350Z", "ERROR", "checkout: POST /v1/checkout 503 redis pool timeout after 2000ms (order=ord_8JZ0T7K)"),
    ("2025-03-18T06:41:12.530Z", "ERROR", "http: GET /healthz 503 redis pool timeout"),
    ("2025-03-18T06:41:22.531Z", "ERROR", "http: GET /healthz 503 redis pool timeout"),
    ("2025-03-18T06:41:32.529Z", "ERROR", "http: GET /healthz 503 redis pool timeout"),
    ("2025-03-18T06:41:42.617Z", "INFO", "shutdown: SIGTERM received, draining 41 connections"),
]
K4M2Z_CURRENT = [
    ("2025-03-18T06:41:58.402Z", "INFO", "checkout-api 4.17.3 (build 8512, commit 91b0d4e) starting, profile=prod region=us-east-1"),
    ("2025-03-18T06:41:58.560Z", "INFO", "config: REDIS_POOL_SIZE=64 TAX_CLIENT=legacy"),
    ("2025-03-18T06:41:59.117Z", "INFO", "redis: pool ready (size=64) host=checkout-cache.use1.fernhill.internal:6379"),
    ("2025-03-18T06:42:00.842Z", "INFO", "http: listening on :8080 (pod %s)" % POD_K4M2Z),
    ("2025-03-18T08:12:44.903Z", "WARN", "redis: pool exhausted (size=64, waiting=9) host=checkout-cache.use1.fernhill.internal:6379"),
    ("2025-03-18T08:12:45.660Z", "INFO", "redis: pool recovered (waiting=0)"),
    ("2025-03-18T09:26:13.318Z", "WARN", "redis: pool exhausted (size=64, waiting=21) host=checkout-cache.use1.fernhill.internal:6379"),
    ("2025-03-18T09:26:15.001Z", "ERROR", "checkout: POST /v1/checkout 503 redis pool timeout after 2000ms (order=ord_8KP4W2N)"),
    ("2025-03-18T09:26:16.240Z", "INFO", "redis: pool recovered (waiting=0)"),
]
