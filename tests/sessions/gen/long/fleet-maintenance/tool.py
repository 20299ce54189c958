#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the fleet-maintenance session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: booking and order numbers are derived from the request itself."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402


def number(prefix, start, *parts):
    return "%s-%d" % (prefix, start + crc(*parts) % 9000)


def depot(args):
    if need(args, "depot") != w.DEPOT:
        raise ToolError("unknown depot %r (known: north)" % args["depot"])


def vehicle(args):
    vid = need(args, "vehicle_id")
    if vid not in w.VANS_BY_ID:
        raise ToolError("no vehicle %r in the fleet register" % vid)
    return w.VANS_BY_ID[vid]


def fleet_list(args):
    depot(args)
    return [w.fleet_row(v) for v in w.ALL]


def telemetry(args):
    depot(args)
    return w.feed(w.FEED_A)


def telemetry_feed(args):
    feed_id = need(args, "feed_id")
    if feed_id not in (w.FEED_A, w.FEED_B):
        raise ToolError("no telemetry feed %r (feeds of 2024-08-26: %s, %s)" % (feed_id, w.FEED_A, w.FEED_B))
    return w.feed(feed_id)


def depot_notices(args):
    depot(args)
    return w.NOTICES


def service_history(args):
    v = vehicle(args)
    return {"vehicle_id": v["vehicle_id"], "model": v["model"], "work_orders": w.history(v["vehicle_id"])}


def service_spec(args):
    model = need(args, "model")
    if model not in w.MODELS:
        raise ToolError("no service spec for model %r (models: %s)" % (model, ", ".join(w.MODELS)))
    spec = w.MODELS[model]
    return {"model": model, "interval_km": w.INTERVAL_KM, "interval_months": 12, "labour_h": spec["labour_h"],
            "parts": [{"part_no": p, "qty": q} for p, q in spec["parts"]]}


def fault_info(args):
    code = need(args, "code")
    library = args.get("library") or "powertrain"
    if library not in w.FAULTS:
        raise ToolError("unknown library %r (libraries: powertrain, chassis, body)" % library)
    if code not in w.FAULTS[library]:
        other, _ = w.fault(code)
        hint = {"C": "chassis", "B": "body", "U": "powertrain", "P": "powertrain"}.get(code[:1], "powertrain")
        raise ToolError("no fault code %s in library %s; %s codes are in library %s"
                        % (code, library, code[:1] + "....", other or hint))
    f = dict(w.FAULTS[library][code])
    f.update({"code": code, "library": library})
    return f


def parts_stock(args):
    part = need(args, "part_no")
    if part not in w.PARTS:
        raise ToolError("no part %r in the catalogue" % part)
    p = w.PARTS[part]
    return {"part_no": part, "name": p["name"], "on_hand": p["on_hand"], "reserved": p["reserved"],
            "unit_cost_eur": p["unit_cost_eur"], "lead_days": p["lead_days"], "fits": p["fits"]}


def parts_search(args):
    query = need(args, "query").lower()
    model = args.get("model")
    out = []
    for part, p in w.PARTS.items():
        if all(word in p["name"].lower() for word in query.split()) and (model is None or model in p["fits"]):
            out.append({"part_no": part, "name": p["name"], "fits": p["fits"], "unit_cost_eur": p["unit_cost_eur"]})
    return out


def workshop_slots(args):
    depot(args)
    lo, hi = need(args, "from"), need(args, "to")
    return [s for s in w.slots() if lo <= s["date"] <= hi]


def book_slot(args):
    slot = need(args, "slot_id")
    v = vehicle(args)
    job = need(args, "job")
    if not any(s["slot_id"] == slot for s in w.slots()):
        raise ToolError("no workshop slot %r" % slot)
    if slot in w.TAKEN:
        raise ToolError("slot %s is no longer free: %s" % (slot, w.TAKEN[slot]))
    return {"ok": True, "booking": number("BK", 78000, slot, v["vehicle_id"]), "slot_id": slot,
            "vehicle_id": v["vehicle_id"], "job": job}


def order_parts(args):
    part = need(args, "part_no")
    qty = int(need(args, "qty"))
    if part not in w.PARTS:
        raise ToolError("no part %r in the catalogue" % part)
    lead = w.PARTS[part]["lead_days"]
    return {"ok": True, "po": number("PO", 33000, part, qty), "part_no": part, "qty": qty,
            "total_eur": round(qty * w.PARTS[part]["unit_cost_eur"], 2), "eta": "2024-08-%02d" % (27 + lead)
            if 27 + lead <= 31 else "2024-09-%02d" % (27 + lead - 31)}


TOOLS = {"fleet-list": fleet_list, "telemetry": telemetry, "telemetry-feed": telemetry_feed,
         "depot-notices": depot_notices, "service-history": service_history, "service-spec": service_spec,
         "fault-info": fault_info, "parts-stock": parts_stock, "parts-search": parts_search,
         "workshop-slots": workshop_slots, "book-slot": book_slot, "order-parts": order_parts}

if __name__ == "__main__":
    serve(TOOLS)
