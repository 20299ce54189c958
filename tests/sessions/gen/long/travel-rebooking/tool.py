#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the travel-rebooking session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: ticket numbers, seats, hotel confirmations, message and pre-approval ids are
derived from the request itself."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

TICKET_PREFIX = {"LH": "220", "LX": "724", "TP": "047", "OS": "257", "AF": "057"}
LOW_COST = {"U2", "FR", "W6"}
POSITION = {"Basel": ["BSL", "ZRH"], "Vienna": ["VIE"], "Boston": ["MUC"]}
MCT = {"MUC": 50, "ZRH": 40, "CDG": 60, "VIE": 30}


def money(x):
    return "{:,.2f}".format(x)


def fare_of(basis):
    """(option id, fare tuple) of the first option offering `basis`."""
    for oid, (_, fares) in w.OPTIONS.items():
        for f in fares:
            if f[0] == basis:
                return oid, f
    return None, None


# --- bookings and flights ---------------------------------------------------------------------------

def segment(flight):
    carrier, frm, to, dep, arr, _ = w.SCHEDULE[flight]
    st = w.STATUS.get(flight, {}).get("status")
    return {"flight": flight, "from": frm, "to": to, "dep": dep, "arr": arr,
            "status": "UN" if st == "CANCELLED" else "HK"}


def tr_bookings(args):
    date = args.get("date") or w.TODAY
    if date != w.TODAY:
        raise ToolError("only the bookings travelling on %s are loaded (the disruption day)" % w.TODAY)
    rows = []
    for pnr, (emp, ticket, basis, cur, total, _, flights, booked) in w.BOOKINGS.items():
        p = w.PEOPLE[emp]
        segs = [segment(f) for f in flights]
        remarks = []
        if any(s["status"] == "UN" for s in segs):
            remarks.append("UN: cancelled by the carrier (FRA closed)")
        if "LH 423" in flights:
            remarks.append("LH 423 diverted to MUC, see flight status")
        rows.append({"pnr": pnr, "traveller": p[5], "employee_id": emp, "office": p[1], "ticket": ticket,
                     "fare_basis": basis, "ticket_total": {"amount": total, "currency": cur}, "booked": booked,
                     "segments": segs, "return": w.RETURNS[pnr], "remarks": remarks})
    return {"agency": w.DESK, "company": w.COMPANY, "travel_date": date, "as_of": w.NOW, "count": len(rows),
            "bookings": rows}


def flight_times(flight):
    if flight in w.SCHEDULE:
        _, frm, to, dep, arr, _ = w.SCHEDULE[flight]
        return frm, to, dep, arr
    for segs, _ in w.OPTIONS.values():
        for f, _, frm, to, dep, arr, _ in segs:
            if f == flight:
                return frm, to, dep, arr
    return None


def tr_flight_status(args):
    flights = args.get("flights") or ([args["flight"]] if args.get("flight") else None)
    if not flights:
        raise ToolError("missing required argument: flights (a list like [\"LH 1166\"])")
    out = []
    for f in flights:
        t = flight_times(f)
        if t is None:
            raise ToolError("no flight %r in the operations feed (flight numbers look like \"LH 1166\")" % f)
        frm, to, dep, arr = t
        st = dict(w.STATUS.get(f, {"status": "SCHEDULED", "remark": "on time"}))
        row = {"flight": f, "from": frm, "to": to, "sched_dep": w.zulu(dep), "sched_arr": w.zulu(arr)}
        row.update(st)
        out.append(row)
    return {"feed": "LH Group operations feed", "times": "UTC", "as_of": w.zulu(w.NOW),
            "closures": [w.CLOSURE], "flights": out}


# --- availability and fares -------------------------------------------------------------------------

def option_view(oid):
    segs, fares = w.OPTIONS[oid]
    out = {"option": oid,
           "segments": [{"flight": f, "carrier": c, "from": frm, "to": to, "dep": dep, "arr": arr, "aircraft": ac}
                        for f, c, frm, to, dep, arr, ac in segs],
           "duration": "%dh%02d" % divmod(w.minutes(segs[0][4], segs[-1][5]), 60)}
    if len(segs) > 1:
        out["connection"] = "%d min at %s" % (w.minutes(segs[0][5], segs[1][4]), segs[0][3])
    out["fares"] = [{"fare_basis": b, "class": k, "family": fam, "cabin": w.FAMILIES[fam][4],
                     "price": "%.2f" % amt, "currency": cur, "seats": n} for b, k, fam, amt, cur, n in fares]
    if oid in w.FULL_REMARK:
        out["remark"] = w.FULL_REMARK[oid]
    return out


def tr_availability(args):
    frm = need(args, "from").upper()
    to = need(args, "to").upper()
    date = need(args, "date")
    after = args.get("after")
    if to != "LIS":
        raise ToolError("the disruption search of this desk covers flights to LIS only (got %s)" % to)
    hits = []
    for oid, (segs, _) in w.OPTIONS.items():
        if segs[0][2] != frm or segs[0][4][:10] != date:
            continue
        if after and segs[0][4][11:16] < after:
            continue
        hits.append(option_view(oid))
    return {"from": frm, "to": to, "date": date, "after": after, "searched_at": w.NOW,
            "times": "local time of each airport, with its UTC offset", "airport_note": w.AIRPORT_NOTES.get(frm, ""),
            "count": len(hits), "options": hits}


ORIGINAL_RULES = {
    "VLOWCH": ("LH", "Economy Classic (Swiss point of sale)", "CHF", 70.0),
    "VLOWAT": ("LH", "Economy Classic (Austrian point of sale)", "EUR", 70.0),
    "KLOWUS": ("LH", "Economy Classic (US point of sale)", "USD", 200.0),
    "HFLEXCH": ("LH", "Economy Flex (Swiss point of sale)", "CHF", 0.0),
}


def tr_fare_rules(args):
    basis = need(args, "fare_basis").strip().upper()
    if basis in ORIGINAL_RULES:
        carrier, fam, cur, fee = ORIGINAL_RULES[basis]
        return {"fare_basis": basis, "carrier": carrier, "family": fam, "currency": cur,
                "changes": "permitted before departure, %s %s plus any fare difference" % (cur, money(fee)),
                "refund": "non-refundable; government taxes refundable" if fee else "fully refundable",
                "involuntary": "Flight cancelled or diverted by the carrier: the unused coupons are refunded at their "
                               "prorated value to the original form of payment, without fee.",
                "waiver": "%s (FRA closed 2025-03-11, storm Ylva): tickets with an FRA segment on 2025-03-11 or "
                          "2025-03-12 may be rerouted by the issuing agency on any carrier; the unused outbound "
                          "coupons are refunded in full in the ticket's currency, the return coupons stay valid. "
                          "The refund is credited within 20 days." % w.WAIVER,
                "baggage": "1 x 23 kg"}
    oid, f = fare_of(basis)
    if f is None:
        raise ToolError("no fare rules for %r (fare basis codes look like MCLASSCH or KCLASSDE)" % basis)
    segs = w.OPTIONS[oid][0]
    carrier = segs[0][0].split()[0]
    changeable, fee, refundable, bag, cabin = w.FAMILIES[f[2]]
    if changeable and fee and carrier == "TP":
        fee = w.TP_FEE
    cur = f[4]
    return {"fare_basis": basis, "carrier": carrier, "family": f[2], "cabin": cabin, "booking_class": f[1],
            "currency": cur,
            "changes": ("free of charge" if changeable and not fee else
                        "%s %s per change plus any fare difference" % (cur, money(fee)) if changeable else
                        "not permitted"),
            "change_fee": fee if changeable else None,
            "refund": "fully refundable" if refundable else "non-refundable; government taxes refundable",
            "baggage": bag, "seat_reservation": "free" if f[2] != "Standard" else "against a fee",
            "validity": "one way, travel on the booked flight only"}


# --- policy, money ----------------------------------------------------------------------------------

POLICY = {
    "document": "Brennwald Diagnostics AG - Business Travel Policy (TP-2024-07), excerpt for the travel desk",
    "cabin": "1. Economy for every flight of up to 6 hours block time; business only above 6 hours. "
               "Premium economy above 4 hours with the line manager's approval.",
    "carriers": "2. Book network carriers through the desk's GDS. Low-cost carriers (easyJet, Ryanair, Wizz Air) "
                  "are not bookable by the desk.",
    "fares": "3.1 Book the lowest in-policy fare of the itinerary that meets the business need. "
               "3.2 Cap for a one-way economy flight within Europe: CHF 700.00 (foreign fares converted as in 6). "
               "3.3 While a disruption is active (storm, strike, airport closure), book only changeable fares "
               "(change fee up to CHF 100 or its equivalent). "
               "3.4 Flex exception: a flex economy fare above the cap is allowed only when every in-policy option "
               "arrives more than 3 hours later than the flex option.",
    "connections": "4. Respect the airport's minimum connection time (MCT): MUC 50 min from a non-Schengen arrival "
                     "to a Schengen departure (30 min Schengen-Schengen), ZRH 40 min, CDG 60 min, VIE 30 min. "
                     "Self-built connections (separate tickets, a diverted inbound) count from the actual or "
                     "estimated arrival.",
    "hotels": "5. Caps per night incl. breakfast: Munich EUR 190, Lisbon EUR 180, Vienna EUR 170, Zurich CHF 240. "
                "For a flight before 07:30 choose a hotel with terminal access or an airport shuttle that reaches "
                "the terminal at least 60 minutes before departure; within that, the lowest rate. "
                "Disruption hotels are booked by the desk on the company card.",
    "currency": "6. Convert foreign-currency amounts at the Treasury desk rate of the booking day "
                  "(tr-fx-rates with date = booking day); the company card is charged at that rate.",
    "budget": "7. Disruption costs (new tickets, hotels) are charged to the trip's cost center. Refunds of unused "
                "coupons are not netted until credited. Costs above CHF 1,000.00 per event need an expense "
                "pre-approval by the cost center owner the same day (tr-expense-preapproval); in a disruption "
                "the desk may ticket first.",
    "communication": "8. Every rebooked traveller gets the new itinerary in writing: PNR, ticket number, each flight "
                       "with local times, seat, hotel with confirmation number. The cost center owner gets the "
                       "total and the pre-approval id.",
}


def tr_travel_policy(args):
    return POLICY


def tr_fx_rates(args):
    date = args.get("date") or w.LAST_CLOSE
    if date not in w.FX:
        raise ToolError("no desk rates for %r (available: %s)" % (date, ", ".join(sorted(w.FX))))
    pub = "%sT09:30:00+01:00" % date
    out = {"source": "Brennwald Treasury desk rates", "as_of": date, "published": pub, "quote": "CHF per 1 unit",
           "rates": [{"currency": c, "chf": r} for c, r in w.FX[date].items()]}
    if not args.get("date"):
        out["note"] = "no date given: last closing rate; pass date (YYYY-MM-DD) for that day's desk rate"
    return out


def tr_budget(args):
    cc = need(args, "cost_center")
    if cc != w.COST_CENTER:
        raise ToolError("no cost center %r on the travel desk's list (e.g. %s)" % (cc, w.COST_CENTER))
    b = w.BUDGET
    committed = round(sum(a for _, a in b["lines"]), 2)
    out = {"cost_center": cc, "name": b["name"], "owner": b["owner"], "currency": b["currency"],
           "budget": b["budget"], "lines": [{"item": i, "amount": a} for i, a in b["lines"]],
           "committed": committed, "available": w.budget_available(), "committed_by": b["committed_by"],
           "note": "refunds of unused coupons are credited when the airline pays them, not before"}
    amt = args.get("check_amount_chf")
    if amt is not None:
        if isinstance(amt, (str, bool)):
            raise ToolError("check_amount_chf must be a number, got %r" % amt)
        out["check"] = {"amount_chf": amt, "fits": amt <= out["available"],
                        "available_after": round(out["available"] - amt, 2),
                        "preapproval_required": amt > w.PREAPPROVAL_ABOVE_CHF}
    return out


# --- rebooking --------------------------------------------------------------------------------------

def chf(amount, cur):
    return round(amount * (1.0 if cur == "CHF" else w.FX[w.TODAY][cur]), 2)


def in_policy(oid, fare):
    changeable = w.FAMILIES[fare[2]][0]
    return (w.OPTIONS[oid][0][0][0].split()[0] not in LOW_COST and changeable and w.FAMILIES[fare[2]][4] == "economy" and fare[5] > 0
            and chf(fare[3], fare[4]) <= w.CAPS["flight_eu_oneway_chf"])


def find_option(flights, date):
    for oid, (segs, fares) in w.OPTIONS.items():
        if [s[0] for s in segs] == flights and segs[0][4][:10] == date:
            return oid
    return None


def seat_for(pnr, flight):
    """A free seat of `flight`: the team's travellers get the free seats in the team's order."""
    free = [("%d%s" % (r, c)) for r, cs in sorted(w.SEATS.get(flight, (None, None, {}))[2].items()) for c in cs]
    if not free:
        return None
    emp = w.BOOKINGS[pnr][0]
    i = w.TEAM.index(emp) if emp in w.TEAM else crc("seat", pnr, flight)
    return free[i % len(free)]


def tr_rebook(args):
    pnr = need(args, "pnr").strip().upper()
    if pnr not in w.BOOKINGS:
        raise ToolError("no PNR %r (record locators look like QX7R2M)" % pnr)
    emp, ticket, basis0, cur0, _, unused, flights0, _ = w.BOOKINGS[pnr]
    p = w.PEOPLE[emp]
    tk = need(args, "ticket").strip()
    if tk != ticket:
        other = [k for k, b in w.BOOKINGS.items() if b[1] == tk]
        raise ToolError("ticket %s is not on PNR %s (%s, ticket %s)%s" % (
            tk, pnr, p[5], ticket,
            "; it belongs to PNR %s (%s)" % (other[0], w.PEOPLE[w.BOOKINGS[other[0]][0]][5]) if other else ""))
    flights = need(args, "flights")
    if isinstance(flights, str):
        flights = [flights]
    date = need(args, "date")
    basis = need(args, "fare_basis").strip().upper()
    oid = find_option(flights, date)
    if oid is None:
        raise ToolError("no bookable itinerary %s departing on %s (search tr-availability first)"
                        % (" + ".join(flights), date))
    segs, fares = w.OPTIONS[oid]
    fare = next((f for f in fares if f[0] == basis), None)
    if fare is None:
        raise ToolError("fare basis %s is not offered on %s (fares: %s)" % (basis, " + ".join(flights),
                                                                           ", ".join(f[0] for f in fares)))
    if fare[5] <= 0:
        raise ToolError("no seats left in %s on %s %s" % (basis, " + ".join(flights), date))
    if segs[0][2] not in POSITION[p[1]]:
        raise ToolError("%s (%s) cannot start from %s: the traveller is at %s" % (
            p[5], pnr, segs[0][2], " or ".join(POSITION[p[1]])))
    if p[1] == "Boston":
        st = w.STATUS["LH 423"]
        eta = st["est_arr"]
        local = w.utc(eta).astimezone(w.parse(segs[0][4]).tzinfo)
        conn = w.minutes(eta, segs[0][4])
        if conn < MCT["MUC"]:
            raise ToolError(
                "minimum connection time not met for %s (PNR %s): LH 423 (diverted to MUC) is estimated at MUC "
                "%s = %s local; %s departs MUC %s, %d min later; the MCT at MUC from a non-Schengen arrival to a "
                "Schengen departure is %d min" % (p[5], pnr, eta, local.strftime("%H:%M%z")[:-2] + ":00",
                                                  flights[0], segs[0][4], conn, MCT["MUC"]))
    carrier = segs[0][0].split()[0]
    if carrier in LOW_COST:
        raise ToolError("%s is a low-cost carrier and not bookable by the desk (policy 2)" % segs[0][1])
    changeable, _, _, _, cabin = w.FAMILIES[fare[2]]
    if cabin != "economy":
        raise ToolError("%s is %s class; policy 1 allows business only above 6 hours block time (%s: %s)" % (
            basis, cabin, " + ".join(flights), option_view(oid)["duration"]))
    if not changeable:
        raise ToolError("%s (%s) cannot be changed; policy 3.3 requires changeable fares while the FRA "
                        "disruption is active" % (basis, fare[2]))
    amt_chf = chf(fare[3], fare[4])
    cap = w.CAPS["flight_eu_oneway_chf"]
    if amt_chf > cap:
        arr = segs[-1][5]
        alts = [(w.OPTIONS[o][0][-1][5], o, f) for o, (ss, fs) in w.OPTIONS.items()
                if o != oid and ss[0][2] in POSITION[p[1]] for f in fs if in_policy(o, f) and w.utc(w.OPTIONS[o][0][-1][5]) >= w.utc(arr)]
        alts.sort(key=lambda a: w.utc(a[0]))
        if alts:
            a_arr, a_oid, a_f = alts[0]
            gap = w.minutes(arr, a_arr)
            if gap <= 180:
                raise ToolError(
                    "fare %s (%s) on %s is CHF %s, above the policy cap of CHF %s for a one-way economy flight in "
                    "Europe (policy 3.2). The flex exception (3.4) needs every in-policy option to arrive more than "
                    "3 h later: %s (%s, %s %s) arrives %s, %d h %02d min after %s. Book an in-policy fare." % (
                        basis, fare[2], " + ".join(flights), money(amt_chf), money(cap),
                        " + ".join(s[0] for s in w.OPTIONS[a_oid][0]), a_f[0], a_f[4], money(a_f[3]), a_arr,
                        gap // 60, gap % 60, flights[-1]))
    new_ticket = "%s-%010d" % (TICKET_PREFIX[carrier], crc("ticket", pnr, *flights, basis) % 10 ** 10)
    rate = 1.0 if fare[4] == "CHF" else w.FX[w.TODAY][fare[4]]
    return {"status": "ticketed", "pnr": pnr, "traveller": p[5], "employee_id": emp, "old_ticket": ticket,
            "old_ticket_status": "outbound coupons refunded under waiver %s (credited within 20 days); return "
                                 "coupons valid" % w.WAIVER,
            "refund_pending": {"amount": unused, "currency": cur0},
            "new_ticket": new_ticket,
            "segments": [{"flight": f, "carrier": c, "from": frm, "to": to, "dep": dep, "arr": arr,
                          "class": fare[1], "fare_basis": basis, "seat": seat_for(pnr, f), "status": "HK"}
                         for f, c, frm, to, dep, arr, _ in segs],
            "fare": {"amount": fare[3], "currency": fare[4]},
            "charged": {"card": "AirPlus company card ...4410", "amount_chf": amt_chf, "rate": rate,
                        "rate_date": w.TODAY},
            "return": w.RETURNS[pnr], "ticketed_at": w.NOW}


# --- hotels -----------------------------------------------------------------------------------------

def tr_hotel_search(args):
    near = need(args, "near").strip().upper()
    checkin = need(args, "checkin")
    nights = int(args.get("nights") or 1)
    if near != "MUC":
        raise ToolError("the disruption hotel search covers airport hotels at MUC only (got %s)" % near)
    if checkin not in ("2025-03-11", "2025-03-12"):
        raise ToolError("checkin must be a date of the disruption (2025-03-11 or 2025-03-12), got %r" % checkin)
    rows = []
    for hid, (name, addr, km, access, shuttle, rate, code, canc, bf) in w.HOTELS_MUC.items():
        rows.append({"hotel_id": hid, "name": name, "address": addr, "km_to_terminal": km, "access": access,
                     "first_shuttle": shuttle, "rate": "%.2f" % rate, "currency": "EUR", "rate_code": code,
                     "rooms_left": 2 + crc("rooms", hid) % 5, "cancellation": canc, "breakfast": bf})
    return {"near": near, "checkin": checkin, "nights": nights, "count": len(rows), "hotels": rows,
            "note": "corporate rates per room and night; shuttles take 15-20 min to Terminal 2"}


def tr_hotel_book(args):
    hid = need(args, "hotel_id")
    if hid not in w.HOTELS_MUC:
        raise ToolError("no hotel %r (ids look like MUC-H01)" % hid)
    emp = need(args, "employee_id")
    if emp not in w.PEOPLE:
        raise ToolError("no employee %r" % emp)
    checkin = need(args, "checkin")
    nights = int(args.get("nights") or 1)
    name, addr, km, access, shuttle, rate, code, canc, bf = w.HOTELS_MUC[hid]
    rc = need(args, "rate_code")
    if rc != code:
        raise ToolError("rate code %s is not offered by %s (rate code: %s)" % (rc, name, code))
    cap_cur, cap = w.CAPS["hotel"]["MUC"]
    if rate > cap:
        raise ToolError("rate EUR %s at %s is above the Munich cap of EUR %s per night (policy 5)" % (
            money(rate), name, money(cap)))
    day = int(checkin[8:10]) + nights
    conf = "%s-%08d" % (code.split("-")[0], crc("hotel", hid, emp, checkin, nights) % 10 ** 8)
    return {"confirmation": conf, "hotel_id": hid, "hotel": name, "address": addr, "guest": w.PEOPLE[emp][0],
            "employee_id": emp, "checkin": checkin, "checkout": "%s%02d" % (checkin[:8], day), "nights": nights,
            "rate": rate, "currency": "EUR", "total": round(rate * nights, 2), "guarantee": "company card ...4410",
            "cancellation": canc, "breakfast": bf, "first_shuttle": shuttle, "access": access}


# --- messages, approval -----------------------------------------------------------------------------

def tr_notify(args):
    emp = need(args, "employee_id")
    if emp not in w.PEOPLE:
        raise ToolError("no employee %r (employee ids look like E-10457)" % emp)
    subject = need(args, "subject")
    text = need(args, "text")
    p = w.PEOPLE[emp]
    out = {"message_id": "TN-%07d" % (crc("msg", emp, subject, text) % 10 ** 7), "to": p[3], "name": p[0],
           "subject": subject, "chars": len(text), "sent_at": w.NOW}
    if args.get("sms"):
        out["sms_to"] = p[4]
    return out


def tr_expense_preapproval(args):
    cc = need(args, "cost_center")
    if cc != w.COST_CENTER:
        raise ToolError("no cost center %r" % cc)
    amt = need(args, "amount_chf")
    if isinstance(amt, (str, bool)):
        raise ToolError("amount_chf must be a number, got %r" % amt)
    reason = need(args, "reason")
    items = args.get("items") or []
    if items:
        tot = round(sum(float(i.get("chf", 0)) for i in items), 2)
        if abs(tot - amt) > 0.011:
            raise ToolError("the items add up to CHF %s, not the CHF %s asked for" % (money(tot), money(amt)))
    avail = w.budget_available()
    if amt > avail:
        raise ToolError("CHF %s is above the CHF %s available on %s; ask the owner for a budget increase"
                        % (money(amt), money(avail), cc))
    return {"preapproval_id": "PA-2025-%05d" % (crc("pa", cc, amt) % 100000), "status": "approved",
            "cost_center": cc, "amount_chf": amt, "approver": "Claudia Baumann (E-10033)",
            "mode": "auto-approved within the available budget; the owner is informed",
            "available_after": round(avail - amt, 2), "items": len(items), "reason": reason,
            "valid_until": "2025-03-31", "approved_at": w.NOW}


TOOLS = {"tr-bookings": tr_bookings, "tr-flight-status": tr_flight_status, "tr-availability": tr_availability,
         "tr-fare-rules": tr_fare_rules, "tr-travel-policy": tr_travel_policy, "tr-fx-rates": tr_fx_rates,
         "tr-budget": tr_budget, "tr-rebook": tr_rebook, "tr-hotel-search": tr_hotel_search,
         "tr-hotel-book": tr_hotel_book, "tr-notify": tr_notify, "tr-expense-preapproval": tr_expense_preapproval}

if __name__ == "__main__":
    serve(TOOLS)
