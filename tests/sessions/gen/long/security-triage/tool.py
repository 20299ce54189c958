#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the security-triage session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: change ids, containment ids and incident ids are derived from the request itself."""
import ipaddress
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

SAMPLES = 40
SEVERITIES = ["info", "low", "medium", "high", "critical"]
TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)$")


def ts_arg(args, key, default):
    v = args.get(key)
    if v in (None, ""):
        return w.parse_ts(default)
    if not isinstance(v, str) or not TS.match(v):
        raise ToolError("%s must be an ISO-8601 timestamp with an offset, like 2024-11-13T02:00:00+01:00; got %r"
                        % (key, v))
    return w.parse_ts(v.replace("Z", "+00:00"))


def siem_alerts(args):
    lo = ts_arg(args, "since", w.NIGHT[0])
    hi = ts_arg(args, "until", w.NIGHT[1])
    sev = args.get("min_severity")
    if sev is not None and sev not in SEVERITIES:
        raise ToolError("min_severity must be one of %s" % ", ".join(SEVERITIES))
    out = []
    for a in w.ALERTS:
        t = w.parse_ts(a["created"])
        if not lo <= t < hi:
            continue
        if sev and SEVERITIES.index(a["severity"]) < SEVERITIES.index(sev):
            continue
        out.append(dict(a, summary=w.ALERT_SUMMARY[a["alert_id"]], events=len(w.ALERT_EVENTS[a["alert_id"]]),
                        status="new"))
    return {"since": lo.isoformat(), "until": hi.isoformat(), "count": len(out), "alerts": out}


def alert_events(args):
    aid = need(args, "alert_id")
    if aid not in w.ALERT_EVENTS:
        raise ToolError("no alert %r" % aid)
    limit = int(args.get("limit") or 20)
    if not 1 <= limit <= SAMPLES:
        raise ToolError("limit must be between 1 and %d (the SIEM keeps %d sample events per alert)" % (SAMPLES, SAMPLES))
    ev = w.ALERT_EVENTS[aid]
    a = next(x for x in w.ALERTS if x["alert_id"] == aid)
    return {"alert_id": aid, "rule": a["rule"], "total_events": len(ev), "returned": min(limit, len(ev), SAMPLES),
            "events": [{"n": i + 1, "raw": r} for i, r in enumerate(ev[:min(limit, SAMPLES)])]}


def ti_lookup(args):
    ind = need(args, "indicator")
    if not isinstance(ind, str):
        raise ToolError("indicator must be a string")
    if "[.]" in ind or "hxxp" in ind or "[:]" in ind:
        raise ToolError("indicator %r looks defanged; give it refanged (%s)" % (
            ind, ind.replace("[.]", ".").replace("hxxp", "http").replace("[:]", ":")))
    ind = ind.strip()
    r = w.intel(ind.lower() if not re.match(r"^[0-9a-f]{64}$", ind, re.I) else ind.lower())
    if r is None:
        kind = "sha256" if re.match(r"^[0-9a-fA-F]{64}$", ind) else "ip" if re.match(r"^[\d.:a-f]+$", ind) else "domain"
        return {"indicator": ind, "type": kind, "verdict": "unknown", "note": "no intelligence on this indicator"}
    return r


def in_net(ip, net):
    try:
        return ipaddress.ip_address(ip) in ipaddress.ip_network(net, strict=False)
    except ValueError:
        return False


def idp_signins(args):
    lo = ts_arg(args, "since", w.NIGHT[0])
    hi = ts_arg(args, "until", w.NIGHT[1])
    user = args.get("user")
    ip = args.get("ip")
    result = args.get("result")
    ua = args.get("user_agent")
    if result not in (None, "success", "failure"):
        raise ToolError("result must be success or failure")
    if user and "@" not in user:
        raise ToolError("user must be a UPN like name@lumenbrook.com, got %r" % user)
    if ip:
        try:
            ipaddress.ip_network(ip, strict=False)
        except ValueError:
            raise ToolError("ip must be an address or a CIDR, got %r" % ip)
    limit = int(args.get("limit") or 100)
    if not 1 <= limit <= 500:
        raise ToolError("limit must be between 1 and 500")
    rows = []
    for r in w.SIGNINS:
        t = w.parse_ts(r["ts"])
        if not lo <= t < hi:
            continue
        if user and r["user"] != user.lower():
            continue
        if ip and not in_net(r["ip"], ip):
            continue
        if result and r["result"] != result:
            continue
        if ua and ua not in r["user_agent"]:
            continue
        rows.append(r)
    return {"total": len(rows), "returned": min(limit, len(rows)), "truncated": len(rows) > limit,
            "signins": rows[:limit]}


def idp_user(args):
    u = need(args, "user").lower()
    if u not in w.USERS:
        if "@" in u and u.endswith("@" + w.DOMAIN):
            return {"upn": u, "status": "enabled", "department": None, "hosts": [], "groups": ["GL-Staff"],
                    "note": "no further directory details in this mirror"}
        raise ToolError("no user %r (give the UPN, like name@lumenbrook.com)" % u)
    return dict(w.USERS[u])


def idp_account_action(args):
    u = need(args, "user").lower()
    action = need(args, "action")
    if action not in ("disable", "force-password-reset", "revoke-sessions"):
        raise ToolError("action must be disable, force-password-reset or revoke-sessions")
    if u not in w.USERS:
        raise ToolError("no user %r" % u)
    need(args, "reason")
    out = {"action_id": "IDP-ACT-%06d" % (crc("act", u, action) % 1000000), "user": u, "action": action,
           "status": "done", "at": "2024-11-13T04:%02d:%02d+01:00" % (31 + crc("m", u, action) % 20, crc("s", u) % 60)}
    if action in ("disable", "revoke-sessions"):
        out["sessions_revoked"] = [dict(s) for s in w.ACTIVE_SESSIONS[u]]
        out["refresh_tokens_revoked"] = 2 * len(w.ACTIVE_SESSIONS[u]) + 1
    if action == "disable":
        out["account_status"] = "disabled"
    if action == "force-password-reset":
        out["account_status"] = "enabled, password change required at next sign-in"
    return out


def host_arg(args):
    h = need(args, "host")
    known = list(w.PROCS) + ["IT-ADM-007", "FIN-LT-0188"]
    if h not in known:
        near = [k for k in known if k.lower() == h.lower()]
        raise ToolError("no host %r in EDR%s" % (h, " (did you mean %s?)" % near[0] if near else ""))
    return h


def edr_process_tree(args):
    h = host_arg(args)
    lo = ts_arg(args, "since", w.NIGHT[0])
    hi = ts_arg(args, "until", w.NIGHT[1])
    procs = [p for p in w.PROCS.get(h, []) if w.parse_ts(p["start"]) < hi]
    procs = [p for p in procs if w.parse_ts(p["start"]) >= lo or any(q["ppid"] == p["pid"] for q in procs)]
    return {"host": h, "since": lo.isoformat(), "until": hi.isoformat(), "processes": procs}


def edr_hash_search(args):
    h = need(args, "sha256")
    if not re.match(r"^[0-9a-fA-F]{64}$", h):
        raise ToolError("sha256 must be 64 hex characters, got %d characters" % len(h))
    hits = w.HASH_SIGHTINGS.get(h.lower(), [])
    return {"sha256": h.lower(), "hosts": len(hits), "sightings": hits}


def edr_isolate(args):
    h = host_arg(args)
    need(args, "reason")
    return {"host": h, "status": "isolated", "containment_id": "CNT-%05d" % (crc("iso", h) % 100000),
            "allowed": ["edr-cloud", "soc-jump-01.corp.lumenbrook.com"], "at": "2024-11-13T04:%02d:10+01:00" % (
                33 + crc("iso", h) % 10)}


def fw_block(args):
    cidrs = need(args, "cidrs")
    if not isinstance(cidrs, list) or not cidrs:
        raise ToolError("cidrs must be a non-empty list of networks")
    need(args, "reason")
    nets = []
    for c in cidrs:
        try:
            n = ipaddress.ip_network(c, strict=True)
        except ValueError as e:
            raise ToolError("%r is not a network: %s" % (c, e))
        for p in w.PROTECTED:
            if n.overlaps(ipaddress.ip_network(p["cidr"])) if n.version == ipaddress.ip_network(p["cidr"]).version else False:
                raise ToolError("refused: %s overlaps protected range %s (%s); nothing was applied" % (c, p["cidr"], p["name"]))
        nets.append(str(n))
    ttl = int(args.get("ttl_hours") or 720)
    cid = "CHG-%07d" % (crc("chg", *nets) % 10000000)
    return {"change_id": cid, "rule_id": "EDGE-BLK-%04d" % (400 + crc("rule", *nets) % 600), "cidrs": nets,
            "ttl_hours": ttl, "applied_to": ["edge-fw-osl1", "edge-fw-osl2", "waf-adfs"], "status": "applied"}


def file_audit(args):
    u = need(args, "user").lower()
    if u not in w.USERS:
        raise ToolError("no user %r" % u)
    lo = ts_arg(args, "since", w.NIGHT[0])
    hi = ts_arg(args, "until", w.NIGHT[1])
    limit = int(args.get("limit") or 50)
    if not 1 <= limit <= 200:
        raise ToolError("limit must be between 1 and 200")
    ev = [f for f in w.FILES if u == w.JDAE and lo <= w.parse_ts(f["ts"]) < hi]
    return {"user": u, "total": len(ev), "bytes": sum(f["bytes"] for f in ev), "returned": min(limit, len(ev)),
            "events": ev[:limit]}


def soc_incident(args):
    title = need(args, "title")
    sev = need(args, "severity")
    if sev not in ("P1", "P2", "P3", "P4"):
        raise ToolError("severity must be P1, P2, P3 or P4")
    need(args, "summary")
    iid = "SEC-2024-%04d" % (1100 + crc(title) % 400)
    out = {"incident_id": iid, "url": "https://soar.lumenbrook.com/incidents/%s" % iid, "title": title,
           "severity": sev, "status": "open", "assigned_to": "soc-tier2", "created": "2024-11-13T04:52:18+01:00"}
    for k in ("alerts", "accounts", "hosts", "iocs", "actions"):
        if args.get(k):
            out[k] = args[k]
    return out


TOOLS = {"siem-alerts": siem_alerts, "alert-events": alert_events, "ti-lookup": ti_lookup,
         "idp-signins": idp_signins, "idp-user": idp_user, "idp-account-action": idp_account_action,
         "edr-process-tree": edr_process_tree, "edr-hash-search": edr_hash_search, "edr-isolate": edr_isolate,
         "fw-block": fw_block, "file-audit": file_audit, "soc-incident": soc_incident}

if __name__ == "__main__":
    serve(TOOLS)
