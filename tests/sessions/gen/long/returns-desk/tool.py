#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the returns-desk session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: refund, label, replacement and message ids are derived from the request itself."""
import os
import sys
import unicodedata

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

CARRIER_COUNTRIES = {"dhl": ["DE", "AT"], "colissimo": ["FR"], "post-ch": ["CH"], "ups": ["DE", "AT", "FR", "CH"]}
LANGS = ["de", "fr", "en"]
STATUSES = ["closed", "waiting_return", "escalated"]
RESOLUTIONS = ["refunded", "replaced", "declined", "duplicate", "label_sent"]
ESCALATE_TO = {"team-lead": "Teamleitung Retouren (Ute Brandl)", "carrier-desk": "Carrier Desk (Nachforschungen)",
               "payments": "Payments & Disputes"}


def fold(s):
    s = s.lower().replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def case_of(args):
    cid = need(args, "case_id")
    if cid not in w.CASES:
        raise ToolError("no case %r (case ids look like RMA-2024-118702)" % cid)
    return cid


def order_of(args):
    no = need(args, "order_no")
    if no not in w.ORDERS:
        raise ToolError("no order %r (order numbers look like ORD-DE-4468810)" % no)
    return no


def belongs(cid, no):
    if w.case_order(cid) != no:
        raise ToolError("order %s is not the order of case %s (customer %s)"
                        % (no, cid, w.CUSTOMERS[w.CASES[cid][2]][1]))


def status_of(cid):
    if cid in w.RETURN_LABELS:
        return "waiting_return"
    return "open"


def rma_queue(args):
    status = args.get("status") or "all"
    if status not in ("all", "open", "waiting_return"):
        raise ToolError("unknown status %r (status: all, open, waiting_return)" % status)
    rows = []
    for cid in sorted(w.CASES):
        opened, reason, cust, ref, _, msgs, _ = w.CASES[cid]
        c = w.CUSTOMERS[cust]
        if status not in ("all", status_of(cid)):
            continue
        rows.append({"case_id": cid, "opened": opened, "customer": c[0], "email": c[1], "order_ref": ref,
                     "reason": reason, "lang": c[7], "status": status_of(cid), "updated": msgs[-1][0][:10]})
    page = int(args.get("page") or 1)
    pages = max(1, (len(rows) + w.PAGE_SIZE - 1) // w.PAGE_SIZE)
    if not 1 <= page <= pages:
        raise ToolError("page %d out of range 1..%d" % (page, pages))
    return {"queue": "returns-desk", "status": status, "total": len(rows), "page": page, "pages": pages,
            "cases": rows[(page - 1) * w.PAGE_SIZE:page * w.PAGE_SIZE]}


def rma_case(args):
    cid = case_of(args)
    opened, reason, cust, ref, items, msgs, atts = w.CASES[cid]
    c = w.CUSTOMERS[cust]
    out = {"case_id": cid, "opened": opened, "status": status_of(cid), "reason": reason, "lang": c[7],
           "customer": {"name": c[0], "email": c[1]}, "order_ref": ref,
           "items": [{"sku": s, "qty": q} for s, q in items] if ref else [],
           "messages": [{"at": at, "from": who, "text": text} for at, who, text in msgs],
           "attachments": [{"file": f, "description": d} for f, d in atts]}
    if cid in w.RETURN_LABELS:
        carrier, tr, issued, _, _ = w.RETURN_LABELS[cid]
        out["return_label"] = {"carrier": carrier, "tracking_no": tr, "issued": issued}
    return out


def shop_order(args):
    no = order_of(args)
    cust, placed, lines, voucher, carrier, tr, shipped, delivered = w.ORDERS[no]
    c = w.CUSTOMERS[cust]
    country = c[6]
    sub, vam, ship, total = w.order_amounts(no)
    out = {"order_no": no, "placed": placed, "status": "delivered" if delivered else "shipped",
           "customer": {"name": c[0], "email": c[1], "phone": c[2]},
           "shipping_address": {"name": c[0], "street": c[3], "postcode": c[4], "city": c[5], "country": country},
           "currency": w.order_currency(no),
           "lines": [{"pos": i + 1, "sku": s, "ean": w.EAN[s], "name": w.PRODUCTS[s][0], "qty": q,
                      "unit_price": w.money(w.unit_price(no, s), country),
                      "line_total": w.money(w.unit_price(no, s) * q, country), "vat_rate": w.VAT[country]}
                     for i, (s, q) in enumerate(lines)],
           "subtotal": w.money(sub, country)}
    if voucher:
        out["voucher"] = {"code": voucher[0], "kind": voucher[1],
                          "value": "%d %%" % voucher[2] if voucher[1] == "percent" else w.money(voucher[2], country),
                          "amount": w.money(-vam, country)}
    out.update({"shipping": w.money(ship, country), "total": w.money(total, country),
                "payment": {"method": c[8][0], "account": c[8][1]},
                "shipment": {"carrier": carrier, "tracking_no": tr, "shipped": shipped, "delivered": delivered}})
    return out


def orders_by_customer(args):
    q = fold(need(args, "query").strip())
    out = []
    for no, (cust, placed, lines, *_rest) in w.ORDERS.items():
        c = w.CUSTOMERS[cust]
        if q in fold(c[0]) or q == c[1].lower() or q == c[4]:
            out.append({"order_no": no, "placed": placed, "customer": c[0], "city": c[5], "country": c[6],
                        "items": [w.PRODUCTS[s][0] for s, _ in lines], "total": w.money(w.order_amounts(no)[3], c[6])})
    return sorted(out, key=lambda r: r["placed"], reverse=True)


def parcel_track(args):
    tr = need(args, "tracking_no").strip()
    p = w.parcel(tr)
    if p is None:
        raise ToolError("no parcel %r with dhl, ups, colissimo or post-ch" % tr)
    carrier, direction, ref, events = p
    evs = [{"at": at, "code": code, "location": loc, "text": w.TEXTS[carrier][code]} for at, code, loc in events]
    last = evs[-1]
    out = {"tracking_no": tr, "carrier": carrier, "direction": direction, "reference": ref,
           "status": last["code"], "last_event": last["at"]}
    done = [e["at"] for e in evs if e["code"] in ("DELIVERED", "RETURN_RECEIVED")]
    if done:
        out["delivered_at"] = done[0]
    out["events"] = evs
    return out


POLICY = {
    "version": "2024-10",
    "withdrawal": "Customers may return any item within 30 days of delivery (the carrier's delivery scan) "
                  "without giving a reason. Later requests are declined politely; offer nothing else.",
    "warranty": "24 months from delivery. A defect within warranty is replaced with the same SKU when it is in "
                "stock; when it is not and no restock is due within 14 days, or the SKU is discontinued, refund "
                "the price paid. After 24 months: decline and point to our paid repair service.",
    "refund_basis": "Refund what the customer paid for the returned lines: an order voucher is shared out over "
                    "all lines of the order in proportion to their price. Outbound shipping is refunded only when "
                    "the whole order comes back.",
    "refund_timing": "Withdrawals: refund once the return parcel is scanned in at the returns centre. Defects "
                     "without a replacement: at once.",
    "damaged_in_transit": "Reported within 48 h of delivery with photos: send a replacement at once; the damaged "
                          "item is collected with the replacement's pickup label.",
    "not_received": "No carrier scan for 5 working days: escalate to the carrier desk for an investigation; no "
                    "refund or replacement before the carrier's answer.",
    "disputes": "A payment dispute (PayPal, chargeback) is open: escalate to payments and take no other action.",
    "duplicates": "Close a duplicate case with resolution duplicate, answering the customer with the state of "
                  "the original case.",
    "return_carriers": {"DE": "dhl", "AT": "dhl", "FR": "colissimo", "CH": "post-ch"},
    "returns_centre": "%s, %s, %s %s" % (w.RETURNS_CENTRE["name"], w.RETURNS_CENTRE["street"],
                                        w.RETURNS_CENTRE["postcode"], w.RETURNS_CENTRE["city"]),
    "languages": "Answer in the customer's language (de, fr, en); sign as the Velora Kundenservice / service "
                 "client Velora / Velora customer care.",
}


def returns_policy(args):
    return POLICY


def stock_check(args):
    sku = need(args, "sku").strip()
    if sku not in w.PRODUCTS:
        near = [s for s in w.PRODUCTS if s[:6] == sku[:6]]
        raise ToolError("no SKU %r%s" % (sku, " (did you mean %s?)" % ", ".join(near) if near else ""))
    status, stock, inbound, sub = w.STOCK.get(sku, ("active", {"Leipzig": 20, "Straßburg": 4, "Dietikon": 2},
                                                   None, None))
    return {"sku": sku, "ean": w.EAN[sku], "name": w.PRODUCTS[sku][0], "status": status,
            "stock": [{"warehouse": k, "qty": v} for k, v in stock.items()], "available": sum(stock.values()),
            "next_inbound": inbound}


def parse_amount(args):
    a = need(args, "amount")
    if isinstance(a, str) or isinstance(a, bool):
        raise ToolError("amount must be a number, got %r" % a)
    return round(float(a), 2)


def refund_create(args):
    cid = case_of(args)
    no = order_of(args)
    belongs(cid, no)
    amount = parse_amount(args)
    cur = need(args, "currency")
    if cur != w.order_currency(no):
        raise ToolError("order %s was paid in %s, not %s" % (no, w.order_currency(no), cur))
    total = w.order_amounts(no)[3]
    if amount <= 0 or amount > total:
        raise ToolError("amount %.2f %s is not between 0 and the %.2f %s paid for %s" % (amount, cur, total, cur, no))
    if amount > w.LIMITS[cur]:
        raise ToolError("refund of %.2f %s is above the returns desk's limit of %.2f %s per case: it needs a team "
                        "lead's approval (escalate the case to team-lead)" % (amount, cur, w.LIMITS[cur], cur))
    c = w.CUSTOMERS[w.ORDERS[no][0]]
    method, account = c[8]
    return {"refund_id": "RF-2024-%06d" % (100000 + crc("refund", cid, no, amount) % 900000), "case_id": cid,
            "order_no": no, "amount": amount, "currency": cur, "amount_text": w.money(amount, c[6]),
            "method": method, "to": account, "status": "booked", "value_date": "2024-11-25"}


def replacement_create(args):
    cid = case_of(args)
    no = order_of(args)
    belongs(cid, no)
    sku = need(args, "sku")
    qty = int(args.get("qty") or 1)
    lines = dict(w.ORDERS[no][2])
    if sku not in lines:
        raise ToolError("SKU %s is not on order %s (lines: %s)" % (sku, no, ", ".join(lines)))
    if qty > lines[sku]:
        raise ToolError("order %s has %d x %s" % (no, lines[sku], sku))
    country = w.CUSTOMERS[w.ORDERS[no][0]][6]
    wh = w.WAREHOUSE_FOR[country]
    stock = w.STOCK.get(sku, (None, {wh: 20}))[1]
    if stock.get(wh, 0) < qty:
        wh = max(stock, key=stock.get)
        if stock[wh] < qty:
            raise ToolError("no stock of %s in any warehouse" % sku)
    carrier = POLICY["return_carriers"][country]
    h = crc("replacement", cid, sku, qty)
    tr = {"dhl": "JJD00022492%07d" % (h % 10000000), "colissimo": "6A2384%07d" % (h % 10000000),
          "post-ch": "99.60.103847.2061%04d" % (h % 10000)}[carrier]
    price = w.unit_price(no, sku)
    return {"replacement_order": "ERS-2024-%05d" % (10000 + h % 90000), "case_id": cid, "sku": sku,
            "ean": w.EAN[sku], "qty": qty, "ship_from": wh, "carrier": carrier, "tracking_no": tr,
            "ships": w.AS_OF, "eta": "2024-11-26" if country in ("DE", "AT") else "2024-11-27",
            "collect_old_item": price * qty >= 100}


def label_create(args):
    cid = case_of(args)
    no = order_of(args)
    belongs(cid, no)
    carrier = need(args, "carrier")
    if carrier not in CARRIER_COUNTRIES:
        raise ToolError("unknown carrier %r (carriers: %s)" % (carrier, ", ".join(CARRIER_COUNTRIES)))
    c = w.CUSTOMERS[w.ORDERS[no][0]]
    country = c[6]
    if country not in CARRIER_COUNTRIES[carrier]:
        raise ToolError("carrier %s does not collect returns from %s (sender %s, %s %s); returns from %s go by %s"
                        % (carrier, country, c[0], c[4], c[5], country, POLICY["return_carriers"][country]))
    h = crc("label", cid, carrier)
    tr = {"dhl": "JJD00022492%07d" % (h % 10000000), "colissimo": "8R004124%05d" % (h % 100000),
          "post-ch": "99.60.103847.2055%04d" % (h % 10000), "ups": "1Z4A7W91%010d" % (h % 10 ** 10)}[carrier]
    label_id = "RL-%06d" % (h % 1000000)
    return {"label_id": label_id, "case_id": cid, "carrier": carrier, "return_tracking": tr,
            "sender": {"name": c[0], "street": c[3], "postcode": c[4], "city": c[5], "country": country},
            "to": POLICY["returns_centre"], "label_url": "https://returns.velora.de/labels/%s.pdf" % label_id,
            "valid_until": "2024-12-06"}


def customer_message(args):
    cid = case_of(args)
    lang = need(args, "lang")
    if lang not in LANGS:
        raise ToolError("unknown lang %r (lang: %s)" % (lang, ", ".join(LANGS)))
    text = need(args, "text")
    c = w.CUSTOMERS[w.CASES[cid][2]]
    return {"message_id": "MSG-%07d" % (crc("msg", cid, text) % 10000000), "case_id": cid, "to": c[1],
            "lang": lang, "chars": len(text), "sent_at": w.NOW}


def rma_update(args):
    cid = case_of(args)
    status = need(args, "status")
    if status not in STATUSES:
        raise ToolError("unknown status %r (status: %s)" % (status, ", ".join(STATUSES)))
    out = {"case_id": cid, "status": status}
    if status == "escalated":
        to = need(args, "escalate_to")
        if to not in ESCALATE_TO:
            raise ToolError("unknown escalate_to %r (%s)" % (to, ", ".join(ESCALATE_TO)))
        out.update({"escalated_to": ESCALATE_TO[to], "escalation_id": "ESC-%05d" % (crc("esc", cid) % 100000)})
    if status == "closed":
        res = need(args, "resolution")
        if res not in RESOLUTIONS:
            raise ToolError("unknown resolution %r (resolutions: %s)" % (res, ", ".join(RESOLUTIONS)))
        out["resolution"] = res
    if args.get("note"):
        out["note"] = args["note"]
    out["updated"] = w.NOW
    return out


TOOLS = {"rma-queue": rma_queue, "rma-case": rma_case, "shop-order": shop_order,
         "orders-by-customer": orders_by_customer, "parcel-track": parcel_track, "returns-policy": returns_policy,
         "stock-check": stock_check, "refund-create": refund_create, "replacement-create": replacement_create,
         "label-create": label_create, "customer-message": customer_message, "rma-update": rma_update}

if __name__ == "__main__":
    serve(TOOLS)
