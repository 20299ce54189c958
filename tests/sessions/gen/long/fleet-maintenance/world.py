"""The world of the `fleet-maintenance` session: the 20 delivery vans of the
North depot, their telemetry, service history, service specs, fault library,
parts stock and workshop slots. Planted: the telemetry gateway GW-3 sent
readings cached since 2024-06-30 in feed TLM-0826-A (odometers two months
behind, and a misfire fault on VH-2047 that was repaired since); the depot
notices announce the re-sent feed TLM-0826-B with the current readings, which
makes VH-2038 and VH-2048 due and VH-2047 not. A Sprinter brake pad part
number (BRK-2210) that does not fit the Crafter that needs pads; a workshop
slot listed free but already taken; parts that run short only once the
corrected feed adds two vans. Deterministic: tool.py and answers.py read it."""
import random

DEPOT = "north"
REF_DATE = "2024-08-26"
INTERVAL_KM = 30000
LABOUR_EUR_H = 68.0
FEED_A = "TLM-0826-A"
FEED_B = "TLM-0826-B"
STALE_GATEWAY = "GW-3"
STALE_READ_AT = "2024-06-30T23:10:00Z"

MODELS = {
    "Sprinter 316": {"labour_h": 3.0, "parts": [["FLT-OIL-651", 1], ["OIL-5W30", 10], ["FLT-AIR-2210", 1], ["FLT-CAB-118", 1]]},
    "Crafter 35": {"labour_h": 2.8, "parts": [["FLT-OIL-335", 1], ["OIL-5W30", 7], ["FLT-AIR-2210", 1], ["FLT-CAB-118", 1]]},
    "Daily 35S": {"labour_h": 3.2, "parts": [["FLT-OIL-880", 1], ["OIL-5W30", 9], ["FLT-AIR-2210", 1], ["FLT-CAB-118", 1]]},
    "e-Transit": {"labour_h": 1.5, "parts": [["FLT-CAB-118", 1], ["BRK-FLUID-1L", 1]]},
}

PARTS = {
    "FLT-OIL-651": {"name": "Oil filter OM651", "unit_cost_eur": 18.4, "on_hand": 6, "reserved": 1, "lead_days": 2, "fits": ["Sprinter 316"]},
    "FLT-OIL-335": {"name": "Oil filter EA288", "unit_cost_eur": 14.9, "on_hand": 2, "reserved": 0, "lead_days": 2, "fits": ["Crafter 35"]},
    "FLT-OIL-880": {"name": "Oil filter F1C", "unit_cost_eur": 16.2, "on_hand": 4, "reserved": 0, "lead_days": 2, "fits": ["Daily 35S"]},
    "OIL-5W30": {"name": "Engine oil 5W-30 (litre)", "unit_cost_eur": 7.8, "on_hand": 70, "reserved": 12, "lead_days": 1, "fits": ["Sprinter 316", "Crafter 35", "Daily 35S"]},
    "FLT-AIR-2210": {"name": "Air filter element", "unit_cost_eur": 22.5, "on_hand": 6, "reserved": 0, "lead_days": 2, "fits": ["Sprinter 316", "Crafter 35", "Daily 35S"]},
    "FLT-CAB-118": {"name": "Cabin filter", "unit_cost_eur": 19.9, "on_hand": 12, "reserved": 2, "lead_days": 2, "fits": ["Sprinter 316", "Crafter 35", "Daily 35S", "e-Transit"]},
    "BRK-FLUID-1L": {"name": "Brake fluid DOT4 1 L", "unit_cost_eur": 11.6, "on_hand": 8, "reserved": 0, "lead_days": 1, "fits": ["Sprinter 316", "Crafter 35", "Daily 35S", "e-Transit"]},
    "BRK-2210": {"name": "Brake pads front axle", "unit_cost_eur": 84.0, "on_hand": 3, "reserved": 0, "lead_days": 3, "fits": ["Sprinter 316"]},
    "BRK-2201": {"name": "Brake pads front axle", "unit_cost_eur": 79.5, "on_hand": 0, "reserved": 0, "lead_days": 3, "fits": ["Crafter 35"]},
    "BRK-2290": {"name": "Brake pads front axle", "unit_cost_eur": 91.0, "on_hand": 2, "reserved": 0, "lead_days": 3, "fits": ["e-Transit"]},
    "BRK-2240": {"name": "Brake pads front axle", "unit_cost_eur": 88.0, "on_hand": 1, "reserved": 0, "lead_days": 3, "fits": ["Daily 35S"]},
    "SEN-NOX-41": {"name": "NOx sensor upstream", "unit_cost_eur": 212.0, "on_hand": 1, "reserved": 0, "lead_days": 5, "fits": ["Sprinter 316", "Crafter 35"]},
    "SEN-O2-17": {"name": "Lambda sensor", "unit_cost_eur": 64.0, "on_hand": 2, "reserved": 0, "lead_days": 4, "fits": ["Sprinter 316", "Crafter 35", "Daily 35S"]},
}

FAULTS = {
    "powertrain": {
        "P0300": {"description": "Random/multiple cylinder misfire detected", "severity": "high", "action": "ignition and injector check", "labour_h": 2.0, "part": None},
        "P2200": {"description": "NOx sensor circuit bank 1", "severity": "high", "action": "replace upstream NOx sensor", "labour_h": 1.0, "part": "SEN-NOX-41"},
        "P2463": {"description": "Diesel particulate filter soot accumulation", "severity": "medium", "action": "forced DPF regeneration", "labour_h": 1.5, "part": None},
        "P0136": {"description": "O2 sensor circuit bank 1 sensor 2", "severity": "low", "action": "monitor; replace lambda sensor at next service if it persists", "labour_h": 0.6, "part": "SEN-O2-17"},
        "U0100": {"description": "Lost communication with ECM/PCM", "severity": "medium", "action": "check CAN wiring and telematics unit", "labour_h": 0.8, "part": None},
    },
    "chassis": {
        "C1513": {"description": "Brake pad wear indicator front axle", "severity": "medium", "action": "replace front brake pads (model-specific part)", "labour_h": 1.2, "part": None},
    },
    "body": {
        "B1325": {"description": "Auxiliary battery voltage low", "severity": "low", "action": "test auxiliary battery at next service", "labour_h": 0.3, "part": None},
    },
}


def fault(code):
    for lib, codes in FAULTS.items():
        if code in codes:
            return lib, codes[code]
    return None, None


# id, model, gateway, last service (date, km), km since service now, faults now
# None km_since: drawn at random below 25,000 km.
VANS = [
    ("VH-2031", "Sprinter 316", "GW-1", "2024-03-12", None, []),
    ("VH-2032", "Crafter 35", "GW-1", "2024-05-06", None, []),
    ("VH-2033", "Sprinter 316", "GW-1", "2023-11-20", 31870, []),
    ("VH-2034", "Daily 35S", "GW-1", "2024-02-19", None, ["P0136"]),
    ("VH-2035", "Sprinter 316", "GW-1", "2024-06-03", None, []),
    ("VH-2036", "Crafter 35", "GW-2", "2023-12-04", 33410, ["C1513"]),
    ("VH-2037", "e-Transit", "GW-2", "2024-01-22", None, []),
    ("VH-2038", "Crafter 35", "GW-3", "2023-10-30", 32260, []),
    ("VH-2039", "e-Transit", "GW-2", "2023-08-14", 18920, ["B1325"]),
    ("VH-2040", "Daily 35S", "GW-2", "2024-04-15", None, []),
    ("VH-2041", "Daily 35S", "GW-2", "2023-12-18", 30950, ["P2463"]),
    ("VH-2042", "Sprinter 316", "GW-2", "2024-07-01", None, []),
    ("VH-2043", "Crafter 35", "GW-3", "2024-02-26", 24110, []),
    ("VH-2044", "e-Transit", "GW-1", "2024-03-25", None, []),
    ("VH-2045", "Sprinter 316", "GW-1", "2023-10-09", 36200, ["U0100"]),
    ("VH-2046", "Daily 35S", "GW-2", "2024-05-27", None, []),
    ("VH-2047", "Sprinter 316", "GW-3", "2024-04-08", 19480, []),
    ("VH-2048", "Daily 35S", "GW-3", "2023-11-06", 30740, []),
    ("VH-2050", "Crafter 35", "GW-1", "2024-01-08", 21330, ["P2200"]),
    ("VH-2051", "Sprinter 316", "GW-3", "2024-03-04", 22870, []),
]
PLATES = {}
STALE_FAULTS = {"VH-2047": ["P0300"]}  # in the cached GW-3 readings only (repaired 2024-07-09)


def _r(*key):
    return random.Random(":".join(map(str, key)))


def build():
    vans = []
    for vid, model, gw, last_date, since, faults in VANS:
        r = _r("van", vid)
        last_km = r.randrange(60, 190) * 1000 + r.randrange(0, 1000)
        if since is None:
            since = r.randrange(4000, 24000)
        odo = last_km + since
        days_since = (int(REF_DATE[5:7]) - int(last_date[5:7])) + 12 * (int(REF_DATE[:4]) - int(last_date[:4]))
        stale_odo = odo - (r.randrange(5200, 6400) if gw == STALE_GATEWAY else 0)
        hours = round(odo / 38.0 + r.uniform(-300, 300))
        fuel = 0.0 if model == "e-Transit" else round(r.uniform(9.4, 11.8), 1)
        if vid == "VH-2034":
            fuel = 14.8
        plate = "NL-%s %d" % ("".join(r.choice("BCDFGHKLMNPRSTVXZ") for _ in range(2)), r.randrange(100, 999))
        vans.append({"vehicle_id": vid, "plate": plate, "model": model, "year": 2018 + r.randrange(0, 6),
                     "gateway": gw, "last_service_date": last_date, "last_service_km": last_km,
                     "odometer_km": odo, "stale_odometer_km": stale_odo, "engine_hours": hours,
                     "stale_engine_hours": hours - (140 if gw == STALE_GATEWAY else 0),
                     "fuel_l_100km": fuel, "faults": faults, "months_since": days_since})
    return vans


VANS_BY_ID = {v["vehicle_id"]: v for v in build()}
ALL = list(VANS_BY_ID.values())


def fleet_row(v):
    return {k: v[k] for k in ("vehicle_id", "plate", "model", "year", "last_service_date", "last_service_km")}


def reading(v, feed):
    stale = feed == FEED_A and v["gateway"] == STALE_GATEWAY
    return {"vehicle_id": v["vehicle_id"], "gateway": v["gateway"],
            "read_at": STALE_READ_AT if stale else "2024-08-26T05:%02dZ" % (int(v["vehicle_id"][-2:]) % 60),
            "odometer_km": v["stale_odometer_km"] if stale else v["odometer_km"],
            "engine_hours": v["stale_engine_hours"] if stale else v["engine_hours"],
            "fuel_l_100km": v["fuel_l_100km"],
            "fault_codes": (STALE_FAULTS.get(v["vehicle_id"], []) + v["faults"]) if stale else v["faults"]}


def feed(feed_id):
    return {"feed_id": feed_id, "depot": DEPOT,
            "generated_at": "2024-08-26T06:00:00Z" if feed_id == FEED_A else "2024-08-26T10:42:00Z",
            "vehicles": len(ALL), "readings": [reading(v, feed_id) for v in ALL]}


def history(vid):
    """Three work orders per van, oldest first; the last is its last service."""
    v = VANS_BY_ID[vid]
    r = _r("history", vid)
    out = []
    km = v["last_service_km"]
    date = v["last_service_date"]
    spec = MODELS[v["model"]]
    for k in range(3):
        y, m = int(date[:4]), int(date[5:7])
        items = [p for p, _ in spec["parts"]]
        if vid == "VH-2033" and k == 0:
            items = items + ["BRK-2210"]
        cost = round(spec["labour_h"] * 64.0 + sum(PARTS[p]["unit_cost_eur"] * q for p, q in spec["parts"])
                     + (84.0 + 1.2 * 64 if "BRK-2210" in items else 0) + r.uniform(-20, 20), 2)
        out.append({"work_order": "WO-%d" % (51000 + (int(vid[-4:]) * 37 + k * 911) % 8000), "date": date, "km": km,
                    "job": "scheduled service" + (" + front brake pads" if "BRK-2210" in items else ""),
                    "parts": items, "cost_eur": cost})
        m -= 11 + k
        while m < 1:
            m += 12
            y -= 1
        date = "%d-%02d-%02d" % (y, m, 3 + r.randrange(0, 25))
        km -= r.randrange(24000, 30000)
    if vid == "VH-2034":
        out[1]["job"] = "scheduled service; tow bar fitted for trailer use (higher fuel use expected)"
    return list(reversed(out))


def slots():
    out = []
    for day in ["02", "03", "04", "05", "06", "09", "10", "11", "12", "13"]:
        for bay in ("B1", "B2"):
            if day == "09" and bay == "B2":
                continue
            out.append({"slot_id": "WS-N-09%s-%s" % (day, bay), "date": "2024-09-%s" % day, "bay": bay, "hours": 8})
    return out


TAKEN = {"WS-N-0903-B1": "booked by depot south (BK-77103) at 2024-08-26T07:12Z"}
NOTICES = [
    {"id": "NTC-0412", "date": "2024-08-19", "text": "Tyre supplier changes to Reifen Kraus from 2024-09-01; order tyres through the new catalogue."},
    {"id": "NTC-0417", "date": "2024-08-23", "text": "Workshop bay B2 is closed on 2024-09-09 for the lift inspection."},
    {"id": "NTC-0421", "date": "2024-08-26", "text": "Telemetry gateway GW-3 sent readings cached since 2024-06-30 in feed TLM-0826-A (odometers, engine hours and fault codes of its vans are out of date). Feed TLM-0826-B, sent at 10:42, carries the current readings of all vans; use it instead."},
]


def job_parts(model, faults_with_parts):
    """Part -> quantity of a service of `model` plus the given fault parts."""
    out = {}
    for p, q in MODELS[model]["parts"]:
        out[p] = out.get(p, 0) + q
    for p in faults_with_parts:
        out[p] = out.get(p, 0) + 1
    return out
