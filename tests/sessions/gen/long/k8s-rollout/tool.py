#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the k8s-rollout session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.

The clusters change as the rollout goes: the steps applied (and the change
request's revisions) are kept in a state file in the temp directory, one per
`ptc run` process (the tools' parent), so every run starts from the morning's
clusters; answers.py removes the files of earlier runs (build.py runs
answers.py, then the agent). Ids (change, rollout, analysis runs) and times
come from world.py."""
import glob
import json
import os
import re
import sys
import tempfile

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

STATE_GLOB = os.path.join(tempfile.gettempdir(), "ptc-k8s-rollout-state-*.json")
STATE = STATE_GLOB.replace("*", str(os.getppid()))
TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
IMAGE = re.compile(r"^([a-z0-9.-]+)/checkout/checkout-api@(sha256:[0-9a-f]{64})$")
HOSTS = [w.PRIMARY] + sorted(w.MIRROR.values())


def load():
    try:
        with open(STATE, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"weights": {}, "cr": None}


def save(state):
    tmp = STATE + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f)
    os.replace(tmp, STATE)


def reset():
    """Removes the state of earlier runs."""
    for f in glob.glob(STATE_GLOB):
        os.remove(f)


def cluster_arg(args):
    c = need(args, "cluster")
    if c not in w.CLUSTERS:
        raise ToolError("unknown cluster %r; the clusters are %s" % (c, ", ".join(w.CLUSTERS)))
    return c


def ns_arg(args, c):
    ns = need(args, "namespace")
    allowed = [w.NS, w.NS_STG] if c == "eu-west-1-prod" else [w.NS]
    if ns not in allowed:
        raise ToolError("namespace %r not found in %s (checkout namespaces there: %s)" % (ns, c, ", ".join(allowed)))
    return ns


def ts_arg(args, key):
    v = need(args, key)
    if not isinstance(v, str) or not TS.match(v):
        raise ToolError("%s must be a UTC timestamp like 2025-03-18T10:15:00Z, got %r" % (key, v))
    return v


def millis(n):
    return "%dm" % n


# --- the clusters as they are now -------------------------------------------------------------------

def weight_of(state, c):
    return state["weights"].get(c, 0)


SEQ = {"eu-west-1-prod": (10, 50, 100), "eu-central-1-prod": (10, 100), "us-east-1-prod": (10, 100)}


def started_new(c, i):
    """When new pod i of cluster c started (pods start with the step that created them)."""
    prev = 0
    for wt in SEQ[c]:
        if i < w.canary_count(c, wt):
            break
        prev = w.canary_count(c, wt)
    at = w.STEPS[(c, wt)]
    s = int(at[17:19]) + 9 + 4 * (i - prev)
    m = int(at[14:16]) + s // 60
    return "%s%02d:%02dZ" % (at[:14], m, s % 60)


def current_pods(state, c, ns):
    if ns == w.NS_STG:
        return w.staging_pods()
    wt = weight_of(state, c)
    n_new = w.canary_count(c, wt)
    old = w.old_pods(c)
    old = old[:len(old) - n_new]
    new = [dict(p, started=started_new(c, i)) for i, p in enumerate(w.new_pods(c)[:n_new])]
    return old + new + w.worker_pods(c)


POD_REQ = {w.SERVICE: (250, 512), w.WORKER: (100, 256), "checkout-api-baseline": (250, 512)}


def k8s_workloads(args):
    c = cluster_arg(args)
    ns = ns_arg(args, c)
    state = load()
    pods = current_pods(state, c, ns)
    cl = w.CL[c]
    mirror = w.MIRROR[c]
    if ns == w.NS_STG:
        rollouts = [{"kind": "Deployment", "name": w.SERVICE, "version": w.VERSION, "image": "%s/%s@%s" % (
                        mirror, w.REPO, w.D_REL), "desired": 2, "ready": 2, "revision": 12,
                     "updated": "2025-03-17T16:10:02Z"},
                    {"kind": "Deployment", "name": "checkout-api-baseline", "version": w.OLD,
                     "image": "%s/%s@%s" % (mirror, w.REPO, w.D_OLD), "desired": 1, "ready": 1, "revision": 9,
                     "updated": "2025-03-17T16:09:40Z"}]
    else:
        wt = weight_of(state, c)
        n_new = w.canary_count(c, wt)
        old_img = "%s/%s@%s" % (mirror, w.REPO, w.D_OLD)
        new_img = "%s/%s@%s" % (mirror, w.REPO, w.D_REL)
        stable = {"replicaset": "checkout-api-" + cl["rs_old"], "version": w.OLD, "image": old_img,
                  "pods": cl["replicas"] - n_new}
        canary = {"replicaset": "checkout-api-" + cl["rs_new"], "version": w.VERSION, "image": new_img, "pods": n_new}
        if wt >= 100:
            ro = {"kind": "Rollout", "name": w.SERVICE, "strategy": "canary", "status": "Healthy",
                  "revision": cl["revision"] + 1, "desired": cl["replicas"], "ready": cl["replicas"],
                  "canary_weight": 100, "stable": dict(canary, pods=cl["replicas"]), "canary": None,
                  "updated": w.COMPLETED[c]}
        elif wt > 0:
            ro = {"kind": "Rollout", "name": w.SERVICE, "strategy": "canary", "status": "Paused",
                  "revision": cl["revision"] + 1, "desired": cl["replicas"], "ready": cl["replicas"],
                  "canary_weight": wt, "stable": stable, "canary": canary, "updated": w.STEPS[(c, wt)]}
        else:
            ro = {"kind": "Rollout", "name": w.SERVICE, "strategy": "canary", "status": "Healthy",
                  "revision": cl["revision"], "desired": cl["replicas"], "ready": cl["replicas"], "canary_weight": 0,
                  "stable": stable, "canary": None, "updated": w.OLD_STARTED[c] % (0, 5)}
        rollouts = [ro, {"kind": "Deployment", "name": w.WORKER, "version": "2.9.1",
                         "image": "%s/checkout/checkout-api-worker@sha256:%s" % (mirror, w._hex("worker 2.9.1")),
                         "desired": 3, "ready": 3, "revision": 21, "updated": "2025-03-11T08:10:00Z"}]
    nodes = []
    all_pods = current_pods(state, c, w.NS) + (w.staging_pods() if c == "eu-west-1-prod" else [])
    for n in cl["nodes"]:
        on = [p for p in all_pods if p["node"] == n["name"]]
        cpu = n["base_cpu"] + sum(POD_REQ[p["deployment"]][0] for p in on)
        mem = n["base_mem"] + sum(POD_REQ[p["deployment"]][1] for p in on)
        nodes.append({"name": n["name"], "zone": n["zone"], "instance_type": n["instance_type"],
                      "allocatable_cpu": n["allocatable_cpu"], "allocatable_memory": n["allocatable_memory"],
                      "requested_cpu": millis(cpu), "requested_memory": "%dMi" % mem,
                      "pods": 9 + len(on) + crc("np", n["name"]) % 5})
    return {"cluster": c, "namespace": ns, "workloads": rollouts, "pods": pods, "nodes": nodes}


def find_pod(state, c, ns, name):
    pods = current_pods(state, c, ns)
    for p in pods:
        if p["name"] == name:
            return p
    near = [p["name"] for p in pods if p["name"][:-5] == str(name)[:-5]]
    raise ToolError("pods %r not found in %s/%s%s" % (
        name, c, ns, "; pods of that replica set: " + ", ".join(near[:6]) if near else ""))


def k8s_describe_pod(args):
    c = cluster_arg(args)
    ns = ns_arg(args, c)
    state = load()
    p = find_pod(state, c, ns, need(args, "pod"))
    new = p["version"] == w.VERSION
    api = p["deployment"] in (w.SERVICE, "checkout-api-baseline")
    digest = w.D_REL if new else w.D_OLD
    img = "%s/%s@%s" % (w.MIRROR[c], w.REPO, digest)
    limits = {"cpu": "1", "memory": "1Gi" if new else "768Mi"} if api else {"cpu": "500m", "memory": "512Mi"}
    req = POD_REQ[p["deployment"]]
    container = {"name": "checkout-api" if api else w.WORKER, "image": img if api else "(worker image)",
                 "image_id": "%s/%s@%s" % (w.PRIMARY, w.REPO, digest) if api else None,
                 "state": {"running": {"started_at": p["started"]}}, "ready": True,
                 "restart_count": p["restarts"],
                 "requests": {"cpu": millis(req[0]), "memory": "%dMi" % req[1]}, "limits": limits,
                 "liveness": "http-get :8080/healthz delay=20s timeout=2s period=10s #failure=3",
                 "readiness": "http-get :8080/ready delay=5s timeout=2s period=5s #failure=2"}
    events = []
    if p["name"] == w.POD_K4M2Z:
        container["state"] = {"running": {"started_at": "2025-03-18T06:41:58Z"}}
        container["last_state"] = {"terminated": {"reason": "Error", "exit_code": 137,
                                                  "started_at": "2025-03-17T22:03:10Z",
                                                  "finished_at": "2025-03-18T06:41:43Z"}}
        events = [
            {"type": "Warning", "reason": "Unhealthy", "count": 14, "first_seen": "2025-03-17T13:58:02Z",
             "last_seen": "2025-03-18T06:41:32Z", "from": "kubelet",
             "message": "Liveness probe failed: HTTP probe failed with statuscode: 503"},
            {"type": "Normal", "reason": "Killing", "count": 4, "first_seen": "2025-03-17T14:00:12Z",
             "last_seen": "2025-03-18T06:41:42Z", "from": "kubelet",
             "message": "Container checkout-api failed liveness probe, will be restarted"},
            {"type": "Normal", "reason": "Pulled", "count": 4, "first_seen": "2025-03-17T14:00:27Z",
             "last_seen": "2025-03-18T06:41:57Z", "from": "kubelet",
             "message": "Container image \"%s\" already present on machine" % img},
            {"type": "Warning", "reason": "Unhealthy", "count": 31, "first_seen": "2025-03-17T13:57:40Z",
             "last_seen": "2025-03-18T09:26:14Z", "from": "kubelet",
             "message": "Readiness probe failed: HTTP probe failed with statuscode: 503"},
        ]
    elif new:
        events = [
            {"type": "Normal", "reason": "Scheduled", "count": 1, "first_seen": p["started"], "last_seen": p["started"],
             "from": "default-scheduler", "message": "Successfully assigned %s/%s to %s" % (ns, p["name"], p["node"])},
            {"type": "Normal", "reason": "Pulled", "count": 1, "first_seen": p["started"], "last_seen": p["started"],
             "from": "kubelet", "message": "Successfully pulled image \"%s\" in 6.81s" % img},
            {"type": "Normal", "reason": "Started", "count": 1, "first_seen": p["started"], "last_seen": p["started"],
             "from": "kubelet", "message": "Started container checkout-api"},
        ]
    return {"name": p["name"], "namespace": ns, "cluster": c, "node": p["node"], "ip": p["ip"],
            "start_time": p["started"], "phase": p["phase"], "qos_class": "Burstable",
            "labels": {"app.kubernetes.io/name": p["deployment"], "app.kubernetes.io/version": p["version"],
                       "rollouts-pod-template-hash": p["name"].split("-")[-2]},
            "containers": [container, {"name": "linkerd-proxy", "image": "cr.l5d.io/linkerd/proxy:stable-2.14.10",
                                       "ready": True, "restart_count": 0,
                                       "requests": {"cpu": "100m", "memory": "64Mi"},
                                       "limits": {"cpu": "500m", "memory": "256Mi"}}] if api else [container],
            "conditions": {"Initialized": True, "Ready": True, "ContainersReady": True, "PodScheduled": True},
            "events": events}


def k8s_logs(args):
    c = cluster_arg(args)
    ns = ns_arg(args, c)
    state = load()
    p = find_pod(state, c, ns, need(args, "pod"))
    prev = bool(args.get("previous"))
    if p["name"] == w.POD_K4M2Z:
        rows = w.K4M2Z_PREVIOUS if prev else w.K4M2Z_CURRENT
        lines = [{"ts": a, "level": b, "msg": m} for a, b, m in rows]
    elif prev:
        raise ToolError("previous terminated container \"checkout-api\" in pod %r not found (restarts: 0)" % p["name"])
    elif p["version"] == w.VERSION and ns == w.NS:
        lines = w.canary_log(c, p["name"], p["started"])
    else:
        st = p["started"]
        lines = [{"ts": st[:19] + ".%03dZ" % (crc("l", p["name"]) % 1000), "level": "INFO",
                  "msg": "%s %s starting, profile=%s region=%s" % (p["deployment"], p["version"],
                                                                    "staging" if ns == w.NS_STG else "prod",
                                                                    w.REGION[c])},
                 {"ts": "2025-03-18T09:%02d:%02d.%03dZ" % (crc("m", p["name"]) % 40, crc("s", p["name"]) % 60,
                                                           crc("ms", p["name"]) % 1000),
                  "level": "INFO", "msg": "checkout: POST /v1/checkout 201 %dms" % (180 + crc("d", p["name"]) % 300)}]
    grep = args.get("grep")
    if grep:
        lines = [x for x in lines if grep.lower() in x["msg"].lower()]
    tail = int(args.get("tail") or 100)
    if not 1 <= tail <= 500:
        raise ToolError("tail must be between 1 and 500")
    return {"pod": p["name"], "container": "checkout-api", "previous": prev, "lines": lines[-tail:]}


def k8s_hpa(args):
    c = cluster_arg(args)
    ns = ns_arg(args, c)
    if ns == w.NS_STG:
        return {"cluster": c, "namespace": ns, "hpas": []}
    state = load()
    cl = w.CL[c]
    h = cl["hpa"]
    wt = weight_of(state, c)
    cpu = h["cpu"][{0: 0, 10: 1, 50: 2, 100: 3}[wt]]
    n = cl["replicas"]
    cond = [{"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale"},
            {"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound"},
            {"type": "ScalingLimited", "status": "True" if n >= h["max"] - 1 else "False",
             "reason": "TooManyReplicas" if n >= h["max"] - 1 else "DesiredWithinRange",
             "message": "the desired replica count is within 1 of maxReplicas" if n >= h["max"] - 1 else
             "the desired count is within the acceptable range"}]
    return {"cluster": c, "namespace": ns, "hpas": [
        {"name": w.SERVICE, "target": "Rollout/%s" % w.SERVICE, "min_replicas": h["min"], "max_replicas": h["max"],
         "current_replicas": n, "desired_replicas": n, "target_cpu_pct": h["target"], "current_cpu_pct": cpu,
         "last_scale": h["scaled"], "conditions": cond},
        {"name": w.WORKER, "target": "Deployment/%s" % w.WORKER, "min_replicas": 3, "max_replicas": 8,
         "current_replicas": 3, "desired_replicas": 3, "target_cpu_pct": 70, "current_cpu_pct": 22 + crc("wc", c) % 30,
         "last_scale": "2025-03-11T08:10:00Z", "conditions": cond[:2]}]}


# --- registry, helm ----------------------------------------------------------------------------------

def ro_registry(args):
    repo = need(args, "repository")
    reg = args.get("registry") or w.PRIMARY
    if reg not in HOSTS:
        raise ToolError("unknown registry %r; known: %s" % (reg, ", ".join(HOSTS)))
    if repo != w.REPO:
        raise ToolError("repository %r not found in %s (did you mean %s?)" % (repo, reg, w.REPO))
    out = {"registry": reg, "repository": repo}
    if reg != w.PRIMARY:
        out.update(kind="pull-through mirror", upstream=w.PRIMARY, last_sync=w.MIRROR_SYNC[reg])
    else:
        out.update(kind="primary", signing_keys={"release": "cosign key release@fernhill (KMS fh-release-2024)",
                                                 "ci-prerelease": "cosign key ci@fernhill (pre-release builds)"})
    out["tags"] = w.tags(reg)
    return out


def image_arg(args):
    img = need(args, "image")
    m = IMAGE.match(str(img))
    if not m:
        if ":" in str(img).split("/")[-1] and "@" not in str(img):
            raise ToolError("image %r is a tag; pin it by digest: HOST/checkout/checkout-api@sha256:<64 hex>" % img)
        raise ToolError("image must look like HOST/checkout/checkout-api@sha256:<64 hex>, got %r" % img)
    if m.group(1) not in HOSTS:
        raise ToolError("unknown registry host %r; known: %s" % (m.group(1), ", ".join(HOSTS)))
    return img, m.group(2)


def ro_helm_diff(args):
    c = cluster_arg(args)
    rel = need(args, "release")
    if rel != w.RELEASE:
        raise ToolError("release %r not found in %s (releases: checkout-api, checkout-api-worker)" % (rel, c))
    img, digest = image_arg(args)
    old = "%s/%s@%s" % (w.MIRROR[c], w.REPO, w.D_OLD)
    region = w.REGION[c]
    cl = w.CL[c]
    diff = "\n".join([
        "checkout-api, checkout-api, Rollout (argoproj.io) has changed:",
        "   metadata:",
        "     labels:",
        "-      helm.sh/chart: checkout-api-4.17.3",
        "+      helm.sh/chart: checkout-api-4.18.0",
        "-      app.kubernetes.io/version: \"4.17.3\"",
        "+      app.kubernetes.io/version: \"4.18.0\"",
        "   spec:",
        "     strategy:",
        "       canary:",
        "         steps: [setWeight 10, pause, setWeight 50, pause, setWeight 100]",
        "     template:",
        "       spec:",
        "         containers:",
        "           - name: checkout-api",
        "-            image: %s" % old,
        "+            image: %s" % img,
        "             env:",
        "               - name: REGION",
        "                 value: \"%s\"" % region,
        "               - name: REDIS_POOL_SIZE",
        "-                value: \"64\"",
        "+                value: \"128\"      # %s: pool exhaustion under peak load" % w.CHKOUT,
        "               - name: TAX_CLIENT",
        "-                value: \"legacy\"",
        "+                value: \"v2\"",
        "+              - name: %s" % w.TAX_ENV,
        "+                value: \"800\"",
        "+              - name: PRICE_CACHE_ENABLED",
        "+                value: \"true\"",
        "+              - name: PRICE_CACHE_MAX_ENTRIES",
        "+                value: \"250000\"",
        "             resources:",
        "               requests:",
        "                 cpu: 250m",
        "                 memory: 512Mi",
        "               limits:",
        "                 cpu: \"1\"",
        "-                memory: 768Mi",
        "+                memory: 1Gi",
        "checkout-api, checkout-api-config, ConfigMap (v1) has changed:",
        "   data:",
        "-    pricing.url: http://pricing-svc.pricing.svc.cluster.local:8080",
        "+    pricing.url: http://pricing-svc.pricing.svc.cluster.local:8080/v2",
        "-    tax.url: http://tax-service.tax.svc.cluster.local:8080",
        "+    tax.url: http://tax-service-v2.tax.svc.cluster.local:8080",
        "checkout-api, checkout-api, HorizontalPodAutoscaler (autoscaling/v2) unchanged (min %d, max %d)" % (
            cl["hpa"]["min"], cl["hpa"]["max"]),
        "checkout-api, checkout-api, PodDisruptionBudget (policy/v1) unchanged (maxUnavailable 1)",
    ])
    return {"cluster": c, "release": rel, "namespace": w.NS, "revision": cl["revision"],
            "chart": {"from": "checkout-api-4.17.3", "to": "checkout-api-4.18.0"},
            "values": ["values.yaml", "values-prod.yaml", "values-%s.yaml" % w.SHORT[c]], "diff": diff}


# --- calendar, incidents --------------------------------------------------------------------------------

def ro_calendar(args):
    lo = ts_arg(args, "from")
    hi = ts_arg(args, "to")
    if hi <= lo:
        raise ToolError("to must be after from")
    scope = args.get("scope")
    out = []
    for e in w.CALENDAR:
        if e["end"] <= lo or e["start"] >= hi:
            continue
        if scope and scope not in e["scope"] and "all-prod" not in e["scope"]:
            continue
        out.append(e)
    return {"from": lo, "to": hi, "entries": out}


def ro_incidents(args):
    since = args.get("since") or "2025-03-11T00:00:00Z"
    if not TS.match(str(since)):
        raise ToolError("since must be a UTC timestamp like 2025-03-18T00:00:00Z")
    service = args.get("service")
    status = args.get("status")
    if status not in (None, "open", "resolved", "all"):
        raise ToolError("status must be open, resolved or all")
    out = []
    for i in w.INCIDENTS:
        if i["created"] < since:
            continue
        if service and i["service"] != service:
            continue
        if status == "open" and i["status"] == "resolved" or status == "resolved" and i["status"] != "resolved":
            continue
        out.append(i)
    return {"as_of": "2025-03-18T09:44:10Z", "since": since, "incidents": out}


# --- canary analysis -------------------------------------------------------------------------------------

def ro_canary_analysis(args):
    c = cluster_arg(args)
    ns = ns_arg(args, c)
    lo = ts_arg(args, "from")
    hi = ts_arg(args, "to")
    mins = w.hhmm(hi) - w.hhmm(lo)
    if lo[:10] != w.DAY or hi[:10] != w.DAY or not 10 <= mins <= 60:
        raise ToolError("the window must be 10 to 60 minutes of %s, got %d minutes" % (w.DAY, mins))
    if ns == w.NS_STG:
        wt = 100
    else:
        wt = w.weight_at(c, lo)
        if w.weight_at(c, hi) != wt:
            raise ToolError("the window spans a change of the canary weight; analyse one step at a time")
    key = (c, ns, wt)
    if key not in w.ANALYSIS:
        return {"analysis_id": None, "cluster": c, "namespace": ns, "service": w.SERVICE,
                "window": {"from": lo, "to": hi}, "canary_weight": wt,
                "note": "no canary traffic in the window (no %s pods serving)" % w.VERSION, "versions": []}
    (cr, ce, c50, c95, c99), (sr, se, s50, s95, s99) = w.ANALYSIS[key]
    scale = mins / 15.0
    cr, ce, sr, se = (round(x * scale) for x in (cr, ce, sr, se))
    n_c = 2 if ns == w.NS_STG else w.canary_count(c, wt)
    n_s = 1 if ns == w.NS_STG else w.CL[c]["replicas"] - n_c

    def ver(role, v, dg, pods, r, e, p50, p95, p99):
        return {"role": role, "version": v, "digest": dg, "pods": pods, "requests": r, "errors_5xx": e,
                "error_rate_pct": round(100.0 * e / r, 2), "p50_ms": p50, "p95_ms": p95, "p99_ms": p99, "restarts": 0}
    per_min = []
    weights = [1000 + crc("pm", c, ns, wt, k) % 160 for k in range(mins)]
    tot = sum(weights)
    left_r = cr
    slot_of = [crc("es", c, ns, wt, j) % mins for j in range(ce)]
    for k in range(mins):
        r = left_r if k == mins - 1 else round(cr * weights[k] / tot)
        left_r -= r
        e = slot_of.count(k)
        h, m = divmod(w.hhmm(lo) + k, 60)
        per_min.append({"minute": "%02d:%02d" % (h, m), "requests": r, "errors_5xx": e,
                        "p99_ms": c99 - 40 + crc("p99", c, ns, wt, k) % 70})
    return {"analysis_id": w.analysis_id(c, ns, wt), "cluster": c, "namespace": ns, "service": w.SERVICE,
            "window": {"from": lo, "to": hi}, "canary_weight": wt,
            "versions": [ver("canary", w.VERSION, w.D_REL, n_c, cr, ce, c50, c95, c99),
                         ver("stable", w.OLD, w.D_OLD, n_s, sr, se, s50, s95, s99)],
            "canary_per_minute": per_min}


def decode_analysis(aid):
    for c in w.CLUSTERS:
        for ns in (w.NS, w.NS_STG):
            for wt in (0, 10, 50, 100):
                if w.analysis_id(c, ns, wt) == aid:
                    return c, ns, wt
    return None


# --- change request, rollout, post -------------------------------------------------------------------------

CR_FIELDS = ("title", "service", "version", "image", "plan", "rollback", "risk", "links", "status", "note")


def check_plan(plan):
    if not isinstance(plan, list) or not plan:
        raise ToolError("plan must be a list of {cluster, start, end} maps, one per cluster")
    out = []
    for p in plan:
        if not isinstance(p, dict) or p.get("cluster") not in w.CLUSTERS:
            raise ToolError("every plan entry needs a cluster of %s" % ", ".join(w.CLUSTERS))
        for k in ("start", "end"):
            if not TS.match(str(p.get(k))):
                raise ToolError("plan %s: %s must be a UTC timestamp like 2025-03-18T10:15:00Z" % (p["cluster"], k))
        for e in w.CALENDAR:
            if e["kind"] == "event":
                continue
            if p["cluster"] in e["scope"] or "all-prod" in e["scope"]:
                if p["start"] < e["end"] and e["start"] < p["end"]:
                    raise ToolError("refused: %s window %s..%s overlaps %s %s (%s, %s..%s); nothing was filed" % (
                        p["cluster"], p["start"], p["end"], e["kind"], e["id"], e["title"], e["start"], e["end"]))
        out.append({"cluster": p["cluster"], "window": "%s..%s" % (p["start"], p["end"]), "conflicts": []})
    return out


def ro_change_request(args):
    state = load()
    amends = args.get("amends")
    if amends:
        cr = state.get("cr")
        if not cr or amends != cr["change_id"]:
            raise ToolError("no change request %r to amend" % amends)
        changed = [k for k in CR_FIELDS if k in args and args[k] != cr["fields"].get(k)]
        if not changed:
            raise ToolError("nothing to amend: no field differs from revision %d" % cr["revision"])
        if "image" in args:
            image_arg(args)
        if "plan" in args:
            check_plan(args["plan"])
        if args.get("status") not in (None, "implemented", "approved", "cancelled"):
            raise ToolError("status must be approved, implemented or cancelled")
        cr["fields"].update({k: args[k] for k in changed})
        cr["revision"] += 1
        status = cr["fields"].get("status") or "approved"
        at = w.CR_AMENDED if cr["revision"] == 2 else w.CR_CLOSED
        save(state)
        return {"change_id": cr["change_id"], "revision": cr["revision"], "status": status, "changed": changed,
                "at": at, "url": "https://change.fernhill.io/%s" % cr["change_id"]}
    for k in ("title", "service", "version", "image", "plan", "rollback"):
        need(args, k)
    if args["service"] != w.SERVICE:
        raise ToolError("service %r has no standard change template (templates: checkout-api)" % args["service"])
    image_arg(args)
    checks = check_plan(args["plan"])
    fields = {k: args[k] for k in CR_FIELDS if k in args}
    state["cr"] = {"change_id": w.CR_ID, "revision": 1, "fields": fields}
    save(state)
    return {"change_id": w.CR_ID, "revision": 1, "status": "approved",
            "approval": "standard change template SC-CHECKOUT-ROLLOUT (pre-approved by CAB 2024-11-07)",
            "created": w.CR_CREATED, "freeze_check": checks, "url": "https://change.fernhill.io/%s" % w.CR_ID}


def ro_rollout_step(args):
    c = cluster_arg(args)
    ns = ns_arg(args, c)
    if ns != w.NS:
        raise ToolError("refused: %s is deployed by the staging pipeline, not by production rollouts" % ns)
    state = load()
    chg = need(args, "change_id")
    cr = state.get("cr")
    if not cr or chg != cr["change_id"]:
        raise ToolError("no approved change request %r" % chg)
    img, digest = image_arg(args)
    if digest != w.D_REL:
        tag = next((tg for tg in w.TAGS_PRIMARY if tg["digest"] == digest and tg["tag"] != "latest"), None)
        prev = next(((tg, p) for tg in w.TAGS_PRIMARY for p in tg.get("previous_digests", []) if p["digest"] == digest),
                    None)
        if tag:
            signed, where = tag["signed_by"], "tagged %s" % tag["tag"]
        elif prev:
            signed, where = prev[1]["signed_by"], "no longer tagged (it was %s from %s until %s)" % (
                prev[0]["tag"], prev[1]["from"], prev[1]["until"])
        else:
            signed, where = [], "unknown"
        raise ToolError("admission policy require-release-signature denied %s: signed by [%s], no signature of the "
                        "release key; in %s this digest is %s. Release images must be pinned by the digest the "
                        "primary registry lists for the release tag." % (digest, ", ".join(signed), w.PRIMARY, where))
    cr_digest = IMAGE.match(cr["fields"]["image"]).group(2)
    if cr_digest != digest:
        raise ToolError("refused: change %s revision %d names image digest %s, not %s; amend the change request "
                        "first" % (cr["change_id"], cr["revision"], cr_digest, digest))
    step = need(args, "step")
    wt = int(need(args, "weight"))
    cur = weight_of(state, c)
    if step == "canary":
        if wt != 10:
            raise ToolError("the canary step starts at weight 10")
        if cur:
            raise ToolError("%s already runs the canary at weight %d" % (c, cur))
        busy = [k for k, v in state["weights"].items() if 0 < v < 100]
        if busy:
            raise ToolError("refused: one cluster at a time; %s is still at weight %d" % (busy[0], state["weights"][busy[0]]))
    elif step == "promote":
        if wt not in (50, 100) or wt <= cur:
            raise ToolError("promote takes weight 50 or 100, above the current %d" % cur)
        if not cur:
            raise ToolError("no canary running in %s; start with step canary" % c)
        aid = need(args, "analysis_id")
        dec = decode_analysis(aid)
        if not dec:
            raise ToolError("unknown analysis run %r" % aid)
        ac, ans, awt = dec
        if (ac, ans) != (c, ns):
            raise ToolError("refused: analysis %s was run on %s/%s (weight %d), not on this rollout; promoting "
                            "%s/%s from weight %d needs an analysis of its canary at weight %d" % (
                                aid, ac, ans, awt, c, ns, cur, cur))
        if awt != cur:
            raise ToolError("refused: analysis %s covers weight %d; the canary is at weight %d" % (aid, awt, cur))
        if c == "eu-west-1-prod" and cur == 10 and wt == 100:
            raise ToolError("refused: the first cluster goes 10 -> 50 -> 100")
    else:
        raise ToolError("step must be canary or promote")
    state["weights"][c] = wt
    save(state)
    n_before = w.canary_count(c, cur)
    n_after = w.canary_count(c, wt)
    pods = [{"name": p["name"], "node": p["node"], "started": started_new(c, i)}
            for i, p in enumerate(w.new_pods(c)) if n_before <= i < n_after]
    out = {"rollout_id": w.rollout_id(c), "cluster": c, "namespace": ns, "change_id": chg, "step": step,
           "weight": wt, "image": img, "at": w.STEPS[(c, wt)],
           "status": "Healthy" if wt == 100 else "Paused",
           "replicas": {"desired": w.CL[c]["replicas"], "stable": w.CL[c]["replicas"] - n_after if wt < 100 else 0,
                        "canary": n_after},
           "new_pods": pods}
    if wt == 100:
        out["completed_at"] = w.COMPLETED[c]
        out["scaled_down"] = "checkout-api-%s (%s)" % (w.CL[c]["rs_old"], w.OLD)
    return out


def ro_post(args):
    ch = need(args, "channel")
    text = need(args, "text")
    if not str(ch).startswith("#"):
        raise ToolError("channel must be a #channel name")
    if len(text) > 4000:
        raise ToolError("text is %d characters; the limit is 4000" % len(text))
    ts = "1742299924.%06d" % (crc("post", ch) % 1000000)
    return {"ok": True, "channel": ch, "ts": ts, "posted_at": w.POST_AT,
            "permalink": "https://fernhill.slack.com/archives/C05CHKREL/p%s" % ts.replace(".", "")}


TOOLS = {"k8s-workloads": k8s_workloads, "k8s-describe-pod": k8s_describe_pod, "k8s-logs": k8s_logs,
         "k8s-hpa": k8s_hpa, "ro-registry": ro_registry, "ro-helm-diff": ro_helm_diff, "ro-calendar": ro_calendar,
         "ro-incidents": ro_incidents, "ro-canary-analysis": ro_canary_analysis,
         "ro-change-request": ro_change_request, "ro-rollout-step": ro_rollout_step, "ro-post": ro_post}

if __name__ == "__main__":
    serve(TOOLS)
