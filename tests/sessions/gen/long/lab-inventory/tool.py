#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the lab-inventory session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: move, waste request, requisition, flag batch and report ids are derived from the request itself."""
import datetime as dt
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

TZ = dt.timezone(dt.timedelta(hours=1))
TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?([+-]\d\d:\d\d)$")
MAX_HOURS = 72

CHECKLIST = {
    "checklist": "EHS-LAB-CHK-2025 (laboratory chemical and sample storage)",
    "version": "2025-01",
    "inspection": w.INSPECTION,
    "items": [
        {"id": "C-01", "title": "Inventory records",
         "text": "Every container is in the inventory with its location, lot, quantity and expiry date."},
        {"id": "C-02", "title": "Safety data sheets",
         "text": "A current SDS (revision not older than five years on the inspection date) is on file for every "
                 "hazardous substance in stock."},
        {"id": "C-03", "title": "Segregation",
         "text": "Storage groups that the EHS compatibility matrix marks incompatible are never stored in the same "
                 "cabinet, refrigerator or hood; groups marked separate share a cabinet only on separate spill "
                 "trays. A location holds only the storage groups it is approved for; any other container is "
                 "moved (inv-move) before the inspection."},
        {"id": "C-04", "title": "Flammable liquids outside approved storage",
         "text": "Flammable liquids (H224, H225, H226) stored outside flammables safety cabinets and "
                 "flammable-rated refrigerators: at most 10 L per room, counted as container contents in litres."},
        {"id": "C-05", "title": "Refrigerators",
         "text": "Refrigerators and freezers not rated for flammable atmospheres hold no flammable liquids."},
        {"id": "C-06", "title": "Cabinet capacity",
         "text": "Flammables cabinets hold no more than their rated capacity (litres of contents)."},
        {"id": "C-07", "title": "Expired stock",
         "text": "Stock past its expiry date, and stock expiring before the inspection date, is removed: one "
                 "waste request per waste stream (inv-waste-request), container labelled FOR DISPOSAL with the "
                 "request id until the pickup."},
        {"id": "C-08", "title": "Peroxide formers",
         "text": "Peroxide formers (EUH019) are dated on opening and disposed of 12 months after opening "
                 "(unopened: at expiry)."},
        {"id": "C-09", "title": "Cold storage logs",
         "text": "The temperature logs of every refrigerator and freezer since the last weekly check "
                 "(2025-03-06 09:00) are reviewed; each excursion above the alarm threshold is documented with "
                 "start, end, duration in minutes and peak temperature, taken from the logger's alarm events "
                 "where it has them."},
        {"id": "C-10", "title": "Samples after an excursion",
         "text": "After an excursion of more than 60 minutes above -70 °C, every sample stored in that freezer "
                 "that requires -80 °C is flagged excursion-exposed (inv-sample-flag), aliquots and derived "
                 "samples included when they are stored there; aliquots and derived samples stored elsewhere are "
                 "not affected. Samples requiring -20 °C are affected only when the freezer rose above -15 °C. "
                 "Depleted samples are not flagged."},
        {"id": "C-11", "title": "Replacement",
         "text": "Disposed stock the lab still uses is reordered (inv-reorder) when no other in-date container of "
                 "the same product and concentration remains; peroxide formers in the smallest pack available, "
                 "delivered to approved storage."},
        {"id": "C-12", "title": "Pre-inspection report",
         "text": "Submitted through the EHS portal (inv-inspection-submit): every finding with its checklist "
                 "item, severity (critical, major, minor), the containers or samples concerned and the actions "
                 "taken with their ids."},
    ],
}
CHECK_IDS = [c["id"] for c in CHECKLIST["items"]]
GUIDANCE = {
    "C-03": "Use the compatibility matrix (inv-compat) over every pair of storage groups present in a location. "
            "Typical fixes: oxidizers to the oxidizer cabinet, hypochlorite away from acids and from amines.",
    "C-04": "Count every container holding a flammable liquid (H224/H225/H226), whatever its other hazards "
            "(corrosive flammables such as triethylamine count). Fume hoods and open shelves are not approved "
            "storage. Convert mL to L before adding.",
    "C-07": "Waste streams: solvent-nonhalogenated, solvent-halogenated, acid-inorganic, acid-oxidizing, "
            "base-inorganic, oxidizer, toxic-solid, toxic-liquid, peroxide-former, non-hazardous. Give each "
            "container's item id, lot and quantity in its unit. Pickups are scheduled by EHS.",
    "C-10": "Flag with flag 'excursion-exposed' and a reason naming the freezer, the excursion's start and end, "
            "its duration and peak. The sample owners are notified by the registry.",
}


def inv_checklist(args):
    iid = args.get("item")
    if iid in (None, ""):
        return CHECKLIST
    c = next((x for x in CHECKLIST["items"] if x["id"] == iid), None)
    if c is None:
        raise ToolError("no checklist item %r (items C-01 to C-12)" % iid)
    return dict(c, guidance=GUIDANCE.get(iid, ""))


def inv_locations(args):
    return {"lab": w.LAB, "department": "Molecular Medicine", "rooms": ["B2.114", "B2.116"],
            "locations": w.LOCATIONS}


def loc_of(args, key="location"):
    loc = need(args, key)
    if loc not in w.LOC:
        raise ToolError("no location %r; the lab's locations: %s" % (loc, ", ".join(w.LOC)))
    return loc


def item_view(x):
    return {k: v for k, v in x.items() if k != "location"}


def inv_items(args):
    loc = loc_of(args)
    items = [item_view(x) for x in w.ITEMS if x["location"] == loc]
    out = {"location": loc, "kind": w.LOC[loc]["kind"], "as_of": w.AS_OF, "count": len(items), "items": items}
    if not items:
        out["note"] = "no chemical stock recorded here; samples are in the sample registry (inv-samples)"
    return out


def sds_section1(cas):
    x = next(i for i in w.ITEMS if i["cas"] == cas)
    products = sorted({(i["supplier"], i["catalog_no"]) for i in w.ITEMS if i["cas"] == cas})
    text = "1.1 Product identifier: %s\n1.2 Relevant uses: laboratory chemical\n1.3 Supplier: %s\n" % (
        x["name"], x["supplier"])
    text += "Product numbers in stock: %s" % ", ".join(c for _, c in products)
    if cas == "60-29-7":
        text += "\nPack sizes: 32203-250ML (250 mL), 32203-500ML (500 mL), 32203-1L-M (1 L)"
    return text


def sds_section2(cas):
    ghs = sorted({g for i in w.ITEMS if i["cas"] == cas for g in i["ghs"]})
    return "2.1 Classification (EC 1272/2008): %s\n2.2 Label elements: signal word %s" % (
        ", ".join(ghs) or "not classified", "Danger" if any(g in ("H314", "H225", "H224", "H300", "H301", "H350")
                                                              for g in ghs) else "Warning" if ghs else "none")


def inv_sds(args):
    cas = need(args, "cas")
    if not isinstance(cas, str) or not re.match(r"^\d{2,7}-\d\d-\d$", cas):
        raise ToolError("cas must be a CAS number like 64-17-5, got %r" % (cas,))
    section = args.get("section") or 1
    if cas in w.NO_SDS:
        return {"cas": cas, "on_file": False, "note": "no SDS on file for this CAS number; request one from the supplier"}
    if cas not in w.SDS_REVISION:
        raise ToolError("no substance with CAS %s in the lab's inventory" % cas)
    if section not in w.SDS_TITLES:
        raise ToolError("section must be one of %s" % ", ".join(map(str, sorted(w.SDS_TITLES))))
    x = next(i for i in w.ITEMS if i["cas"] == cas)
    if section == 1:
        text = sds_section1(cas)
    elif section == 2:
        text = sds_section2(cas)
    elif section == 9:
        d = w.DENSITY.get(cas)
        text = "9.1 Physical state: %s\nDensity: %s" % (
            "liquid" if x["quantity"]["unit"] in ("L", "mL") else "solid",
            "%.3g g/cm³ at 20 °C" % d if d else "no data")
    else:
        text = w.SDS_TEXT.get((cas, section)) or (
            "%d. %s: see the supplier's SDS; no specific %s." % (
                section, w.SDS_TITLES[section], "storage restrictions beyond storage class"
                if section == 7 else "incompatibilities beyond strong oxidizing agents"))
    return {"cas": cas, "on_file": True, "product": x["name"], "supplier": x["supplier"],
            "revision": w.SDS_REVISION[cas], "section": section, "title": w.SDS_TITLES[section], "text": text}


def inv_compat(args):
    groups = need(args, "groups")
    if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
        raise ToolError("groups must be a list of storage group codes")
    bad = [g for g in groups if g not in w.GROUPS]
    if bad:
        raise ToolError("unknown storage group %s; groups: %s" % (", ".join(bad), ", ".join(w.GROUPS)))
    gs = list(dict.fromkeys(groups))
    pairs = []
    for i, a in enumerate(gs):
        for b in gs[i + 1:]:
            r, note = w.rule(a, b)
            pairs.append({"a": a, "b": b, "rule": r, "note": note})
    return {"matrix": w.MATRIX_ID, "groups": {g: w.GROUPS[g] for g in gs}, "pairs": pairs}


def ts_arg(args, key):
    v = need(args, key)
    if not isinstance(v, str) or not TS.match(v):
        raise ToolError("%s must be an ISO-8601 local time with offset, like 2025-03-06T09:00:00+01:00; got %r"
                        % (key, v))
    return dt.datetime.fromisoformat(v)


def inv_temp_log(args):
    loc = loc_of(args)
    if w.LOC[loc]["logger"] is None:
        raise ToolError("%s has no temperature logger" % loc)
    lo, hi = ts_arg(args, "from"), ts_arg(args, "to")
    hours = (hi - lo).total_seconds() / 3600
    if hours <= 0:
        raise ToolError("to must be after from")
    if hours > MAX_HOURS:
        mid = lo + dt.timedelta(hours=MAX_HOURS)
        raise ToolError("window of %g hours: the logger serves at most %d hours per request; split it (e.g. %s to %s, "
                        "then %s to %s)" % (hours, MAX_HOURS, lo.isoformat(), mid.isoformat(), mid.isoformat(),
                                            hi.isoformat()))
    rows = []
    for d, hm in w.SLOTS:
        t = dt.datetime(2025, 3, d, int(hm[:2]), int(hm[3:]), tzinfo=TZ)
        if lo <= t < hi:
            rows.append({"ts": w.slot_ts(d, hm), "temp_c": float(w.reading(loc, d, hm))})
    lo_s, hi_s = lo.strftime("%Y-%m-%dT%H:%M"), hi.strftime("%Y-%m-%dT%H:%M")
    events = [{"ts": ts, "type": k, "text": txt} for ts, k, txt in w.LOG_EVENTS.get(loc, []) if lo_s <= ts < hi_s]
    L = w.LOC[loc]
    return {"location": loc, "logger": L["logger"], "unit": "°C", "timezone": "+01:00", "interval_min": 30,
            "setpoint_c": L["setpoint_c"], "alarm_high_c": L["alarm_high_c"], "from": lo.isoformat(),
            "to": hi.isoformat(), "readings": rows, "events": events}


def sample_view(s):
    children = [c["sample_id"] for c in w.SAMPLES if c["parent"] == s["sample_id"]]
    return dict(s, children=children)


def inv_samples(args):
    sid = args.get("sample_id")
    loc = args.get("location")
    if sid:
        if sid not in w.SAMPLE:
            raise ToolError("no sample %r in the registry (ids look like S-2025-00032)" % sid)
        s = w.SAMPLE[sid]
        parent = w.SAMPLE.get(s["parent"]) if s["parent"] else None
        return {"sample": sample_view(s),
                "parent": {k: parent[k] for k in ("sample_id", "type", "location", "required_temp_c", "status")}
                if parent else None,
                "children": [{k: c[k] for k in ("sample_id", "type", "relation", "location", "position",
                                                "required_temp_c", "status")}
                             for c in w.SAMPLES if c["parent"] == sid]}
    if loc:
        loc_of(args)
        rows = [sample_view(s) for s in w.SAMPLES if s["location"] == loc]
        return {"location": loc, "count": len(rows), "samples": rows}
    raise ToolError("give a location (a freezer) or a sample_id")


def inv_move(args):
    iid = need(args, "item_id")
    if iid not in w.ITEM:
        raise ToolError("no item %r (item ids look like INV-0231)" % iid)
    to = loc_of(args, "to")
    need(args, "reason")
    x = w.ITEM[iid]
    if x["location"] == to:
        raise ToolError("%s is already in %s" % (iid, to))
    if x["expiry"] < w.AUDIT_DATE:
        raise ToolError("%s (%s, lot %s) expired on %s: expired stock is not relocated; file a waste request "
                        "(C-07)" % (iid, x["name"], x["lot"], x["expiry"]))
    L = w.LOC[to]
    primary = x["storage_groups"][0]
    if primary not in L["approved_for"]:
        raise ToolError("%s is not approved for storage group %s (%s); approved: %s"
                        % (to, primary, w.GROUPS[primary], ", ".join(L["approved_for"])))
    checks = []
    for other in w.ITEMS:
        if other["location"] != to:
            continue
        for a in x["storage_groups"]:
            for b in other["storage_groups"]:
                r, note = w.rule(a, b)
                if r != "compatible":
                    checks.append((r, other, a, b, note))
    bad = [c for c in checks if c[0] == "incompatible"]
    if bad:
        r, other, a, b, note = bad[0]
        raise ToolError("refused: %s holds %s %s (group %s); %s and %s are incompatible (%s: %s). Choose a location "
                        "without %s" % (to, other["item_id"], other["name"], b, a, b, w.MATRIX_ID, note,
                                        w.GROUPS[b]))
    def litres(i):
        q = i["quantity"]
        return q["amount"] / 1000.0 if q["unit"] == "mL" else q["amount"] if q["unit"] == "L" else 0.0
    used = sum(litres(i) for i in w.ITEMS if i["location"] == to) + litres(x)
    if L["capacity_l"] is not None and used > L["capacity_l"]:
        raise ToolError("refused: %s would hold %.1f L, over its rated %d L" % (to, used, L["capacity_l"]))
    n = crc("move", iid, to) % 9000 + 1000
    return {"move_id": "MV-25-%04d" % n, "item_id": iid, "name": x["name"], "lot": x["lot"],
            "from": x["location"], "to": to, "status": "recorded",
            "at": "2025-03-11T%02d:%02d:00+01:00" % (10 + n % 3, n % 60),
            "separate_trays": [{"with": c[1]["item_id"], "groups": [c[2], c[3]], "note": c[4]}
                               for c in checks if c[0] == "separate"],
            "contents_after_l": round(used, 2) if L["capacity_l"] is not None else None,
            "capacity_l": L["capacity_l"],
            "label": "move the container and scan its barcode at %s to confirm" % to}


def inv_waste_request(args):
    stream = need(args, "stream")
    items = need(args, "items")
    reason = need(args, "reason")
    if not isinstance(items, list) or not items:
        raise ToolError("items must be a non-empty list of {item_id, lot, quantity, unit}")
    out = []
    for it in items:
        if not isinstance(it, dict):
            raise ToolError("each item must be a map {item_id, lot, quantity, unit}")
        iid = it.get("item_id")
        if iid not in w.ITEM:
            raise ToolError("no item %r" % iid)
        x = w.ITEM[iid]
        if it.get("lot") != x["lot"]:
            twin = next((o for o in w.ITEMS if o["lot"] == it.get("lot")), None)
            raise ToolError("%s is lot %s, not %r%s" % (iid, x["lot"], it.get("lot"), (
                " (lot %s is %s, expiry %s)" % (twin["lot"], twin["item_id"], twin["expiry"])) if twin else ""))
        if it.get("unit") != x["quantity"]["unit"]:
            raise ToolError("%s: give the quantity in the container's unit (%s), got %r"
                            % (iid, x["quantity"]["unit"], it.get("unit")))
        if x["waste_stream"] != stream:
            raise ToolError("one waste stream per request: %s belongs to stream %s, not %s"
                            % (iid, x["waste_stream"], stream))
        out.append({"item_id": iid, "name": x["name"], "lot": x["lot"], "quantity": it.get("quantity"),
                    "unit": x["quantity"]["unit"], "location": x["location"]})
    n = crc("waste", stream, *[o["item_id"] for o in out]) % 90000 + 10000
    return {"request_id": "WR-2025-%05d" % n, "stream": stream, "status": "scheduled", "reason": reason,
            "items": out, "pickup": {"date": "2025-03-13", "window": "08:00-10:00", "by": "EHS waste service"},
            "label": "label each container FOR DISPOSAL WR-2025-%05d and leave it in place until the pickup" % n}


def inv_reorder(args):
    cat = need(args, "catalog_no")
    if cat not in w.CATALOG:
        raise ToolError("no catalogue entry %r for the lab's suppliers" % cat)
    qty = args.get("quantity") or 1
    if not isinstance(qty, int) or qty < 1:
        raise ToolError("quantity is a number of packs (integer >= 1)")
    to = loc_of(args, "deliver_to")
    cc = need(args, "cost_center")
    if cc != w.COST_CENTER:
        raise ToolError("cost center %r is not the lab's" % cc)
    c = w.CATALOG[cat]
    group = next(i["storage_groups"][0] for i in w.ITEMS if i["cas"] == c["cas"])
    if group not in w.LOC[to]["approved_for"]:
        raise ToolError("deliver_to %s is not approved for %s (%s)" % (to, group, w.GROUPS[group]))
    total = round(c["price_eur"] * qty, 2)
    n = crc("req", cat, qty, to) % 90000 + 10000
    eta = (dt.date(2025, 3, 11) + dt.timedelta(days=c["lead_days"])).isoformat()
    return {"requisition_id": "REQ-25-%05d" % n, "status": "approved" if total <= 250 else "awaiting PI approval",
            "catalog_no": cat, "product": c["product"], "supplier": c["supplier"], "pack": c["pack"],
            "quantity": qty, "unit_price_eur": c["price_eur"], "total_eur": total, "deliver_to": to,
            "cost_center": cc, "eta": eta, "note": args.get("note")}


def inv_sample_flag(args):
    ids = need(args, "sample_ids")
    flag = need(args, "flag")
    reason = need(args, "reason")
    if flag not in ("excursion-exposed", "quarantine", "discard"):
        raise ToolError("flag must be excursion-exposed, quarantine or discard")
    if not isinstance(ids, list) or not ids:
        raise ToolError("sample_ids must be a non-empty list")
    unknown = [i for i in ids if i not in w.SAMPLE]
    if unknown:
        raise ToolError("not in the registry: %s" % ", ".join(map(str, unknown)))
    n = crc("flag", flag, *ids) % 9000 + 1000
    owners = sorted({w.SAMPLE[i]["owner"] for i in ids})
    return {"batch_id": "SFB-25-%04d" % n, "flag": flag, "reason": reason,
            "flagged": [{"sample_id": i, "previous_status": w.SAMPLE[i]["status"], "status": flag} for i in ids],
            "notified": [w.OWNER_EMAIL[o] for o in owners]}


def inv_inspection_submit(args):
    findings = need(args, "findings")
    if not isinstance(findings, list) or not findings:
        raise ToolError("findings must be a non-empty list")
    for i, f in enumerate(findings):
        if not isinstance(f, dict):
            raise ToolError("finding %d is not a map" % (i + 1))
        if f.get("check") not in CHECK_IDS:
            raise ToolError("finding %d: check must be a checklist item id (C-01..C-12), got %r"
                            % (i + 1, f.get("check")))
        if f.get("severity") not in ("critical", "major", "minor"):
            raise ToolError("finding %d: severity must be critical, major or minor" % (i + 1))
    n = crc("report", len(findings), *[f["check"] for f in findings]) % 9000 + 1000
    open_actions = sum(1 for f in findings if not f.get("actions"))
    return {"report_id": "EHS-PRE-25-%04d" % n, "status": "submitted", "lab": w.LAB,
            "inspection_date": w.INSPECTION, "received": "2025-03-11T15:48:00+01:00",
            "inspector": "Karin Lindahl (EHS chemical safety)", "findings": len(findings),
            "open_actions": open_actions,
            "url": "https://ehs.lindqvist.se/inspections/EHS-PRE-25-%04d" % n}


if __name__ == "__main__":
    serve({
        "inv-checklist": inv_checklist, "inv-locations": inv_locations, "inv-items": inv_items,
        "inv-sds": inv_sds, "inv-compat": inv_compat, "inv-temp-log": inv_temp_log, "inv-samples": inv_samples,
        "inv-move": inv_move, "inv-waste-request": inv_waste_request, "inv-reorder": inv_reorder,
        "inv-sample-flag": inv_sample_flag, "inv-inspection-submit": inv_inspection_submit,
    })
