#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the dns-migration session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.

Tessera (the new provider), the DynaZone TTL jobs and the change ticket keep
state across the calls of one run: a JSON file in the temp directory named
after the `ptc run` process (its pid and start time), so every run starts
from the same world (the partial import of February). Ids are derived from
the request (crc), never random."""
import ipaddress
import json
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, run_state, serve  # noqa: E402

TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


# --- state of one run -----------------------------------------------------------------------------

def initial_state():
    return {"records": {rid: dict(r) for rid, r in w.TS_PARTIAL.items()}, "jobs": {}, "tickets": {}, "plans": {}}


def state():
    return run_state("dns-migration", initial_state)


# --- ids ------------------------------------------------------------------------------------------

def record_id(zone, fq, rtype):
    return "trc-%08x" % crc("rec", zone, fq, rtype)


def job_id(zone, at, ttl):
    return "DZJ-%06d" % (crc("job", zone, at, ttl) % 1000000)


def ticket_id(title):
    return "CHG-2025-%04d" % (400 + crc("chg", title) % 600)


def plan_id(ticket, at):
    return "CUT-%05d" % (crc("plan", ticket, at) % 100000)


def registrar_job(domain, at):
    return "GND-%07d" % (crc("gandi", domain, at) % 10000000)


# --- helpers --------------------------------------------------------------------------------------

def zone_arg(args, key="zone"):
    z = need(args, key).rstrip(".").lower()
    if z not in w.ZONES:
        raise ToolError("no zone %r; zones: %s" % (args[key], ", ".join(w.ZONES)))
    return z


def ts_arg(args, key):
    v = need(args, key)
    if not isinstance(v, str) or not TS.match(v):
        raise ToolError("%s must be a UTC timestamp like 2025-03-16T05:00:00Z; got %r" % (key, v))
    return v


def epoch(ts):
    import datetime as dt
    return int(dt.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).timestamp())


def true_max_ttl(zone):
    return max(r["ttl"] for r in w.truth(zone) if r["type"] not in ("NS", "SOA"))


def ts_fqdn(zone, name):
    n = name.strip()
    if n in ("@", ""):
        return zone + "."
    if n.endswith("."):
        if not (n[:-1].lower() == zone or n[:-1].lower().endswith("." + zone)):
            raise ToolError("%s is not in zone %s" % (n, zone))
        return n.lower()
    if n.lower().endswith("." + zone) or n.lower() == zone:
        raise ToolError("name %r looks like a full name without the final dot: give %r (fully qualified) "
                        "or the part relative to the zone" % (n, n + "."))
    return "%s.%s." % (n.lower(), zone)


# --- DynaZone -------------------------------------------------------------------------------------

def dz_zones(args):
    out = []
    for z in w.ZONES:
        d = w.DZ_ZONES[z]
        row = {"zone": z, "zone_id": d["dz_id"], "visibility": d["visibility"], "serial": d["serial"],
               "last_modified": d["last_modified"], "dnssec": d["dnssec"], "parent": d["parent"],
               "registrar": d["registrar"], "sub_zones": d["sub_zones"],
               "nameservers": w.OLD_NS if d["visibility"] == "public" else []}
        if d["visibility"] == "private":
            row["vpc"] = d["vpc"]
            row["resolver"] = d["resolver"]
        out.append(row)
    return {"provider": "DynaZone", "account": "CORVANE-8841", "contract_ends": w.DYNAZONE_END, "zones": out}


def dz_export(args):
    z = zone_arg(args)
    text = w.export_text(z)
    return {"zone": z, "zone_id": w.DZ_ZONES[z]["dz_id"], "serial": w.DZ_ZONES[z]["serial"], "format": "bind",
            "lines": text.count("\n"), "text": text}


def dz_ttl(args):
    z = zone_arg(args)
    ttl = need(args, "ttl")
    if not isinstance(ttl, int) or not 60 <= ttl <= 86400:
        raise ToolError("ttl must be an integer number of seconds between 60 and 86400")
    at = ts_arg(args, "at")
    if epoch(at) < epoch(w.AS_OF):
        raise ToolError("at %s is in the past (now %s)" % (at, w.AS_OF))
    types = args.get("types")
    present = sorted({r["type"] for r in w.truth(z)} - {"NS", "SOA"})
    if types is not None:
        if not isinstance(types, list) or not types:
            raise ToolError("types must be a non-empty list of record types")
        bad = [t for t in types if t in ("NS", "SOA")]
        if bad:
            raise ToolError("%s record sets cannot be changed: DynaZone manages the apex NS and SOA itself "
                            "(the delegation TTL is the parent zone's); leave them out of types, or omit types "
                            "to lower every other record set" % " and ".join(bad))
        unknown = [t for t in types if t not in present]
        if unknown:
            raise ToolError("zone %s has no %s record sets (it has %s)" % (z, ", ".join(unknown), ", ".join(present)))
        sel = types
    else:
        sel = present
    sets = {(r["fqdn"], r["type"]) for r in w.truth(z) if r["type"] in sel}
    jid = job_id(z, at, ttl)
    with state() as st:
        prev = [j for j in st["jobs"].values() if j["zone"] == z and j["status"] == "scheduled" and j["job_id"] != jid]
        for j in prev:
            j["status"] = "superseded"
        job = {"job_id": jid, "zone": z, "ttl": ttl, "at": at, "types": sel, "record_sets": len(sets),
               "status": "scheduled", "supersedes": prev[0]["job_id"] if prev else None}
        st["jobs"][jid] = job
    return dict(job)


# --- resolution -----------------------------------------------------------------------------------

def ts_zone_records(st, zone):
    return [dict(r, record_id=rid) for rid, r in st["records"].items() if r["zone"] == zone]


def answer(records, name, rtype):
    at_name = [r for r in records if r["fqdn"] == name]
    if not at_name:
        below = [r for r in records if r["fqdn"].endswith("." + name)]
        return ("NOERROR" if below else "NXDOMAIN"), []
    hit = [r for r in at_name if r["type"] == rtype]
    if not hit and rtype != "CNAME":
        hit = [r for r in at_name if r["type"] == "CNAME"]
    return "NOERROR", hit


def resolve_old(name, rtype):
    z = w.zone_of(name)
    recs = w.truth(z)
    if rtype == "ANAME":
        rtype = "ALIAS"
    rcode, hit = answer(recs, name, rtype)
    out = []
    for r in hit:
        if r["type"] == "ALIAS" and rtype != "ALIAS":
            continue
        data = r["data"]
        if r["type"] == "TXT":
            s = QUOTED.findall(data)[0]
            data = " ".join('"%s"' % s[i:i + 255] for i in range(0, len(s), 255))
        out.append({"name": r["fqdn"], "ttl": r["ttl"], "type": r["type"], "data": data})
    if not out and rcode == "NOERROR" and rtype in ("A", "AAAA"):
        alias = [r for r in w.truth(z) if r["fqdn"] == name and r["type"] == "ALIAS"]
        if alias:
            out = [{"name": name, "ttl": 300, "type": rtype, "data": "104.21.48.%d" % (17 if rtype == "A" else 0)
                    if rtype == "A" else "2606:4700:3031::6815:3011"}]
    # delegation of eu.corvane.com from the parent zone
    return rcode, out


def resolve_new(st, name, rtype):
    z = w.zone_of(name)
    recs = ts_zone_records(st, z)
    if name == z + "." and rtype == "NS" and w.TS_ZONES[z]["nameservers"]:
        return "NOERROR", [{"name": name, "ttl": 172800, "type": "NS", "data": ns} for ns in w.TS_ZONES[z]["nameservers"]]
    rcode, hit = answer(recs, name, rtype)
    out = []
    for r in hit:
        if r["type"] == "ANAME" and rtype != "ANAME":
            continue
        for v in r["values"]:
            out.append({"name": r["fqdn"], "ttl": r["ttl"], "type": r["type"], "data": v})
    if not out and rcode == "NOERROR" and rtype in ("A", "AAAA"):
        an = [r for r in recs if r["fqdn"] == name and r["type"] == "ANAME"]
        if an:
            out = [{"name": name, "ttl": an[0]["ttl"], "type": rtype,
                    "data": "104.21.48.17" if rtype == "A" else "2606:4700:3031::6815:3011"}]
    return rcode, out


def dns_resolve(args):
    server = need(args, "server")
    if server not in ("old", "new", "parent"):
        raise ToolError("server must be old (DynaZone), new (Tessera) or parent (the delegating zone's servers)")
    qs = need(args, "queries")
    if not isinstance(qs, list) or not 1 <= len(qs) <= 60:
        raise ToolError("queries must be a list of 1 to 60 {name, type} maps")
    results = []
    with state() as st:
        for qu in qs:
            if not isinstance(qu, dict) or not qu.get("name") or not qu.get("type"):
                raise ToolError("each query needs a name and a type, got %r" % (qu,))
            name = qu["name"].lower()
            if not name.endswith("."):
                name += "."
            rtype = qu["type"].upper()
            z = w.zone_of(name)
            if z is None:
                results.append({"name": name, "type": rtype, "rcode": "REFUSED", "answers": [],
                                "note": "not a Corvane zone"})
                continue
            if server == "parent":
                if name.rstrip(".") in w.PARENT_NS and rtype == "NS":
                    host, ttl = w.PARENT_NS[name.rstrip(".")]
                    results.append({"name": name, "type": "NS", "rcode": "NOERROR", "server": host, "aa": False,
                                    "answers": [{"name": name, "ttl": ttl, "type": "NS", "data": ns} for ns in w.OLD_NS]})
                elif name == "eu.corvane.com." and rtype == "NS":
                    results.append({"name": name, "type": "NS", "rcode": "NOERROR", "server": w.OLD_NS[0],
                                    "aa": False, "answers": [{"name": name, "ttl": 86400, "type": "NS", "data": ns}
                                                             for ns in w.OLD_NS[:2]]})
                else:
                    raise ToolError("server parent answers NS queries for corvane.com, corvane.io and "
                                    "eu.corvane.com only")
                continue
            if server == "old":
                rcode, out = resolve_old(name, rtype)
                srv = w.DZ_ZONES[z].get("resolver") or w.OLD_NS[0]
            else:
                rcode, out = resolve_new(st, name, rtype)
                srv = "10.20.0.2 (Tessera private view)" if z == "int.corvane.com" else w.TS_ZONES[z]["nameservers"][0]
            results.append({"name": name, "type": rtype, "rcode": rcode, "server": srv, "aa": True, "answers": out})
    return {"server": server, "count": len(results), "results": results}


# --- IPAM, health, certificates -------------------------------------------------------------------

def ip_key(ip):
    a = ipaddress.ip_address(ip)
    return (a.version, int(a))


def ipam_lookup(args):
    qv = need(args, "query").strip()
    try:
        net = ipaddress.ip_network(qv, strict=False)
    except ValueError:
        raise ToolError("query must be an IP address or a CIDR prefix, got %r" % qv)
    if net.prefixlen < (16 if net.version == 4 else 40):
        raise ToolError("prefix %s is too large; ask for a /16 (IPv4) or /40 (IPv6) or smaller" % net)
    rows = []
    for ip in sorted(w.IPAM, key=ip_key):
        if ipaddress.ip_address(ip) in net:
            st, host, owner, alloc, note, repl = w.IPAM[ip]
            row = {"ip": ip, "status": st, "hostname": host, "owner": owner, "allocated": alloc, "note": note}
            if repl:
                row["replaced_by"] = repl
            rows.append(row)
    pref = [{"cidr": p, "description": d, "site": s} for p, (d, s) in w.PREFIXES.items()
            if ipaddress.ip_network(p).version == net.version and
            (ipaddress.ip_network(p).overlaps(net))]
    return {"query": qv, "prefixes": pref, "count": len(rows), "allocations": rows}


def origin_health(args):
    ips = need(args, "ips")
    if not isinstance(ips, list) or not 1 <= len(ips) <= 40:
        raise ToolError("ips must be a list of 1 to 40 addresses")
    port = int(args.get("port") or 443)
    out = []
    for ip in ips:
        try:
            a = ipaddress.ip_address(ip)
        except ValueError:
            raise ToolError("%r is not an IP address" % ip)
        private = a.version == 4 and a in ipaddress.ip_network("10.0.0.0/8")
        probe = "probe-vpc-euc1" if private else "probe-fra1"
        r = {"ip": ip, "port": port, "probe": probe, "checked_at": "2025-03-14T%s" % (
            "10:%02d:%02dZ" % (4 + crc("m", ip) % 3, crc("s", ip) % 60))}
        if ip in w.DOWN:
            r.update(status="down", latency_ms=None, detail=w.DOWN[ip])
        elif ip not in w.IPAM:
            r.update(status="unknown", latency_ms=None, detail="address not in IPAM; no probe configured")
        else:
            lat = 1 + crc("lat", ip) % 9 if private else 4 + crc("lat", ip) % 30
            r.update(status="up", latency_ms=lat,
                     detail="tcp/%d open%s" % (port, ", TLS handshake ok" if port == 443 and not private else ""))
        out.append(r)
    return {"checked": len(out), "down": sum(r["status"] == "down" for r in out), "results": out}


def tls_cert(args):
    host = need(args, "host").rstrip(".").lower()
    if host not in w.CERT_OF:
        raise ToolError("no HTTPS endpoint answers for %s (known: %s)" % (host, ", ".join(sorted(w.CERT_OF))))
    c = w.CERTS[w.CERT_OF[host]]
    days = (epoch(c["not_after"]) - epoch(w.AS_OF)) // 86400
    return {"host": host, "port": 443, "subject_cn": w.CERT_OF[host], "sans": c["sans"], "issuer": c["issuer"],
            "serial": c["serial"], "key": c["key"], "not_before": c["not_before"], "not_after": c["not_after"],
            "days_left": days, "covers_host": host in c["sans"], "chain_ok": True, "renewal": c["renewal"]}


# --- Tessera --------------------------------------------------------------------------------------

def ts_records(args):
    z = zone_arg(args)
    meta = w.TS_ZONES[z]
    with state() as st:
        recs = sorted(ts_zone_records(st, z), key=lambda r: (r["fqdn"], r["type"]))
    out = {"zone": z, "zone_id": meta["zone_id"], "visibility": meta["visibility"],
           "nameservers": meta["nameservers"], "supported_types": w.TS_TYPES, "record_sets": len(recs),
           "records": [{"record_id": r["record_id"], "fqdn": r["fqdn"], "type": r["type"], "ttl": r["ttl"],
                        "values": r["values"], "source": r["source"], "updated_at": r["updated_at"]} for r in recs]}
    if meta.get("vpc_associations"):
        out["vpc_associations"] = meta["vpc_associations"]
    return out


def check_value(rtype, v, zone, fq):
    if not isinstance(v, str) or not v.strip():
        raise ToolError("values must be non-empty strings")
    if rtype == "A":
        try:
            ipaddress.IPv4Address(v)
        except ValueError:
            raise ToolError("%r is not an IPv4 address" % v)
    elif rtype == "AAAA":
        try:
            ipaddress.IPv6Address(v)
        except ValueError:
            raise ToolError("%r is not an IPv6 address" % v)
    elif rtype == "TXT":
        if v.startswith('"'):
            parts = QUOTED.findall(v)
            if " ".join('"%s"' % p for p in parts) != v.strip():
                raise ToolError('TXT value %r: give one string, or quoted strings separated by single spaces' % v[:40])
        else:
            parts = [v]
        for p in parts:
            if len(p) > 255:
                raise ToolError("TXT value of %s has a character-string of %d characters; at most 255 per string: "
                                "split the value into several quoted strings, like \"\\\"first 255\\\" \\\"rest\\\"\""
                                % (fq, len(p)))
    elif rtype in ("CNAME", "NS", "ANAME", "PTR"):
        if not v.endswith("."):
            raise ToolError("%s target %r must be fully qualified (end with a dot)" % (rtype, v))
    elif rtype == "MX":
        if not re.match(r"^\d+ \S+\.$", v):
            raise ToolError("MX value %r must be 'PRIORITY HOST.'" % v)
    elif rtype == "SRV":
        if not re.match(r"^\d+ \d+ \d+ \S+\.$", v):
            raise ToolError("SRV value %r must be 'PRIORITY WEIGHT PORT TARGET.'" % v)
    elif rtype == "CAA":
        if not re.match(r'^\d+ (issue|issuewild|iodef) "[^"]*"$', v):
            raise ToolError('CAA value %r must be like 0 issue "letsencrypt.org"' % v)


def ts_upsert(args):
    z = zone_arg(args)
    name = need(args, "name")
    rtype = need(args, "type").upper()
    if rtype == "ALIAS":
        raise ToolError("Tessera has no ALIAS type; its apex alias is ANAME (flattened to A/AAAA at query time)")
    if rtype not in w.TS_TYPES:
        raise ToolError("type %s is not supported (supported: %s)" % (rtype, ", ".join(w.TS_TYPES)))
    fq = ts_fqdn(z, name)
    ttl = need(args, "ttl")
    if not isinstance(ttl, int) or not 30 <= ttl <= 172800:
        raise ToolError("ttl must be an integer between 30 and 172800 seconds")
    values = need(args, "values")
    if not isinstance(values, list) or not values:
        raise ToolError("values must be a non-empty list of strings")
    for v in values:
        check_value(rtype, v, z, fq)
    if fq == z + "." and rtype == "NS":
        raise ToolError("the apex NS of %s is managed by Tessera (%s)" % (z, ", ".join(w.TS_ZONES[z]["nameservers"])))
    if rtype == "CNAME" and fq == z + ".":
        raise ToolError("CNAME is not allowed at the zone apex; use ANAME")
    rid = args.get("record_id")
    with state() as st:
        recs = st["records"]
        same = [k for k, r in recs.items() if r["zone"] == z and r["fqdn"] == fq and r["type"] == rtype]
        if rid:
            if rid not in recs:
                raise ToolError("no record %s in Tessera" % rid)
            r = recs[rid]
            if r["zone"] != z or r["fqdn"] != fq or r["type"] != rtype:
                raise ToolError("record %s is %s %s in %s, not %s %s: pass its own record_id or none"
                                % (rid, r["fqdn"], r["type"], r["zone"], fq, rtype))
        elif same:
            rid = same[0]
        other = [r["type"] for k, r in recs.items() if r["zone"] == z and r["fqdn"] == fq and k != rid]
        if other and (rtype == "CNAME" or "CNAME" in other):
            raise ToolError("%s already has %s records; a CNAME cannot share its name" % (fq, "/".join(other)))
        if rid:
            old = recs[rid]
            status = "unchanged" if old["values"] == values and old["ttl"] == ttl else "updated"
            prev = {"ttl": old["ttl"], "values": old["values"]}
        else:
            rid = record_id(z, fq, rtype)
            status, prev = "created", None
        stamp = "2025-03-14T10:%02d:%02dZ" % (crc("m", rid) % 50, crc("s", rid, ttl) % 60)
        if status != "unchanged":
            recs[rid] = {"zone": z, "fqdn": fq, "type": rtype, "ttl": ttl, "values": list(values), "source": "api",
                         "updated_at": stamp}
        out = {"record_id": rid, "zone_id": w.TS_ZONES[z]["zone_id"], "fqdn": fq, "type": rtype, "ttl": ttl,
               "values": list(values), "status": status}
        if prev and status == "updated":
            out["previous"] = prev
    return out


# --- change and cutover ---------------------------------------------------------------------------

TICKET_FIELDS = ["title", "zones", "window_start", "window_end", "ttl_lower_at", "rollback", "links", "note"]


def change_ticket(args):
    action = need(args, "action")
    with state() as st:
        if action == "create":
            for k in ("title", "zones", "window_start", "window_end", "ttl_lower_at", "rollback"):
                need(args, k)
            ws, we = ts_arg(args, "window_start"), ts_arg(args, "window_end")
            ts_arg(args, "ttl_lower_at")
            if epoch(we) <= epoch(ws):
                raise ToolError("window_end must be after window_start")
            tid = ticket_id(args["title"])
            t = {k: args.get(k) for k in TICKET_FIELDS if args.get(k) is not None}
            t.update(ticket_id=tid, revision=1, status="scheduled", template="STD-DNS-NS-CHANGE",
                     approvals=[{"group": "netops-cab", "status": "pre-approved (standard change STD-DNS-NS-CHANGE)"},
                                {"group": "dns-owners", "status": "approved", "by": "m.reuter"}],
                     url="https://itsm.corvane.com/change/%s" % tid, created="2025-03-14T%02d:%02d:11Z" % (
                         10, 10 + crc("t", tid) % 40))
            st["tickets"][tid] = t
            return dict(t)
        if action == "update":
            tid = need(args, "ticket_id")
            if tid not in st["tickets"]:
                raise ToolError("no change ticket %s" % tid)
            t = st["tickets"][tid]
            changed = []
            for k in TICKET_FIELDS:
                if args.get(k) is not None and k not in ("title",):
                    if k == "ttl_lower_at":
                        ts_arg(args, k)
                    if k == "links":
                        t["links"] = (t.get("links") or []) + [x for x in args[k] if x not in (t.get("links") or [])]
                    elif k == "note":
                        t.setdefault("notes", []).append(args[k])
                    else:
                        t[k] = args[k]
                    changed.append(k)
            if args.get("status"):
                if args["status"] not in ("scheduled", "implementing", "done", "cancelled"):
                    raise ToolError("status must be scheduled, implementing, done or cancelled")
                t["status"] = args["status"]
                changed.append("status")
            if not changed:
                raise ToolError("nothing to update: give ttl_lower_at, window_start, window_end, rollback, links, note or status")
            t["revision"] += 1
            return {"ticket_id": tid, "revision": t["revision"], "changed": changed, "status": t["status"],
                    "ttl_lower_at": t.get("ttl_lower_at"), "window": [t.get("window_start"), t.get("window_end")],
                    "links": t.get("links") or [], "url": t["url"]}
    raise ToolError("action must be create or update")


def expected_sets(zone):
    """What Tessera must hold for a zone at the cutover: (fqdn, type) -> sorted values."""
    out = {}
    for r in w.truth(zone):
        if r["type"] == "SOA" or (r["type"] == "NS" and r["fqdn"] == zone + "."):
            continue
        rtype = "ANAME" if r["type"] == "ALIAS" else r["type"]
        data = r["data"]
        if r["fqdn"] == "eu.corvane.com." and rtype == "NS":
            continue
        if r["fqdn"] == "api-eu-origin.int.corvane.com.":
            data = "10.20.30.41"
        out.setdefault((r["fqdn"], rtype), set()).add(data)
    if zone == "corvane.com":
        out[("eu.corvane.com.", "NS")] = set(w.TS_ZONES["eu.corvane.com"]["nameservers"])
    return out


def txt_join(v):
    parts = QUOTED.findall(v)
    return "".join(parts) if parts else v


def cutover_submit(args):
    tid = need(args, "ticket_id")
    at = ts_arg(args, "ns_change_at")
    lowered = ts_arg(args, "ttl_lowered_at")
    keep = ts_arg(args, "keep_old_until")
    zones = need(args, "zones")
    need(args, "rollback")
    verified = need(args, "verified_rrsets")
    if not isinstance(zones, list) or not zones:
        raise ToolError("zones must be a list of {zone, tessera_zone_id, nameservers}")
    with state() as st:
        if tid not in st["tickets"]:
            raise ToolError("no change ticket %s" % tid)
        t = st["tickets"][tid]
        if t.get("window_start") != at:
            raise ToolError("ns_change_at %s is not the start of %s's window (%s)" % (at, tid, t.get("window_start")))
        if t.get("ttl_lower_at") != lowered:
            raise ToolError("ttl_lowered_at %s differs from the ticket's ttl_lower_at %s" % (lowered, t.get("ttl_lower_at")))
        names = [z.get("zone") for z in zones]
        if sorted(names) != sorted(w.ZONES):
            raise ToolError("the plan must list every zone: %s" % ", ".join(w.ZONES))
        checks = []
        for zspec in zones:
            z = zspec["zone"]
            meta = w.TS_ZONES[z]
            if zspec.get("tessera_zone_id") != meta["zone_id"]:
                raise ToolError("%s: tessera_zone_id %r is not the Tessera zone of %s" % (z, zspec.get("tessera_zone_id"), z))
            if meta["nameservers"] and sorted(zspec.get("nameservers") or []) != sorted(meta["nameservers"]):
                raise ToolError("%s: nameservers must be the zone's Tessera nameservers" % z)
            mx = true_max_ttl(z)
            gap = epoch(at) - epoch(lowered)
            if gap < mx:
                raise ToolError("%s: TTLs lowered at %s leave %d s before the NS change, but its largest TTL is %d s"
                                % (z, lowered, gap, mx))
            jobs = [j for j in st["jobs"].values() if j["zone"] == z and j["status"] == "scheduled"]
            if not jobs or jobs[0]["at"] != lowered:
                raise ToolError("%s: no scheduled DynaZone TTL job at %s" % (z, lowered))
            have = {}
            for r in st["records"].values():
                if r["zone"] == z:
                    have[(r["fqdn"], r["type"])] = {txt_join(v) if r["type"] == "TXT" else v for v in r["values"]}
            missing, wrong = [], []
            for k, vals in expected_sets(z).items():
                vals = {txt_join(v) if k[1] == "TXT" else v for v in vals}
                if k not in have:
                    missing.append("%s %s" % k)
                elif have[k] != vals:
                    wrong.append("%s %s" % k)
            if missing or wrong:
                raise ToolError("%s at Tessera is not ready: missing %s; different %s" % (
                    z, ", ".join(missing) or "none", ", ".join(wrong) or "none"))
            checks.append({"zone": z, "record_sets": len(expected_sets(z)), "ttl_job": jobs[0]["job_id"],
                           "result": "ok"})
        if epoch(keep) < epoch(at) + 172800:
            raise ToolError("keep_old_until must be at least 172800 s (the .com delegation TTL) after ns_change_at")
        if epoch(keep) > epoch(w.DYNAZONE_END + "T23:59:59Z"):
            raise ToolError("keep_old_until is after the DynaZone contract ends (%s)" % w.DYNAZONE_END)
        pid = plan_id(tid, at)
        reg = [{"domain": d, "registrar": "Gandi SAS", "job_id": registrar_job(d, at), "at": at,
                "nameservers": w.TS_ZONES[d]["nameservers"]} for d in ("corvane.com", "corvane.io")]
        plan = {"plan_id": pid, "ticket_id": tid, "status": "scheduled", "ns_change_at": at,
                "ttl_lowered_at": lowered, "keep_old_until": keep, "verified_rrsets": verified,
                "registrar_jobs": reg,
                "delegations": [{"zone": "eu.corvane.com", "in": "corvane.com", "served_by": "Tessera TZ-7Q4M2K",
                                 "nameservers": w.TS_ZONES["eu.corvane.com"]["nameservers"]}],
                "private_resolver": {"zone": "int.corvane.com", "at": at,
                                     "action": "associate Tessera TZ-7Q4M3F with vpc-0a7e3c19, then remove the DynaZone private view"},
                "checks": checks}
        st["plans"][pid] = plan
    return plan


TOOLS = {"dz-zones": dz_zones, "dz-export": dz_export, "dz-ttl": dz_ttl, "dns-resolve": dns_resolve,
         "ipam-lookup": ipam_lookup, "origin-health": origin_health, "tls-cert": tls_cert,
         "ts-records": ts_records, "ts-upsert": ts_upsert, "dns-change-ticket": change_ticket,
         "dns-cutover-submit": cutover_submit}

if __name__ == "__main__":
    serve(TOOLS)
