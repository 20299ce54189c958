#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the price-reconciliation session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: a ticket number is derived from the request itself."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402


def ticket(*parts):
    return "PRC-%d" % (w.TICKET_START + crc(*parts) % 480)


def catalogue(args):
    if need(args, "catalogue") != "outdoor":
        raise ToolError("unknown catalogue %r (known: outdoor)" % args["catalogue"])


def erp_price_list(args):
    catalogue(args)
    page = int(args.get("page") or 1)
    size = 40
    pages = (len(w.ERP) + size - 1) // size
    if not 1 <= page <= pages:
        raise ToolError("page %d out of range 1..%d" % (page, pages))
    return {"price_list_id": w.PRICE_LIST, "currency": "USD", "valid_from": "2024-04-01", "page": page,
            "pages": pages, "items": w.ERP[(page - 1) * size:page * size]}


def erp_item(args):
    sku = need(args, "sku")
    it = next((x for x in w.ITEMS if x["sku"] == sku), None)
    if it is None:
        raise ToolError("no ERP item %r" % sku)
    if w.role(sku) == "discontinued":
        return {"sku": sku, "name": it["name"], "status": "discontinued", "discontinued_on": "2024-03-31",
                "last_list_usd": it["list_usd"], "price_list": None}
    e = w.ERP_BY_SKU[sku]
    out = {"sku": sku, "name": it["name"], "status": "active", "list_usd": e["list_usd"], "price_list": w.PRICE_LIST}
    if w.role(sku) == "new-in-erp":
        out["launched"] = "2024-04-01"
    return out


def shop_products(args):
    if need(args, "category") != "outdoor":
        raise ToolError("unknown category %r" % args["category"])
    offset = int(args.get("offset") or 0)
    limit = int(args.get("limit") or 20)
    if limit > 50:
        raise ToolError("limit must be at most 50")
    return {"total": len(w.SHOP), "offset": offset, "items": w.SHOP[offset:offset + limit]}


def shop_settings(args):
    return {"currency": "EUR", "fx_usd_eur": w.STALE_RATE, "fx_updated": "2024-01-15", "fx_source": "manual",
            "price_sync": "manual export from ERP list price x fx_usd_eur", "last_sync": "2024-03-25T18:40:00Z"}


RATES = {("USD", "EUR"): {w.RATE_DATE: w.RATE, "2024-01-15": w.STALE_RATE, "2024-04-01": 0.9268},
         ("GBP", "EUR"): {w.RATE_DATE: 1.1694}, ("EUR", "USD"): {w.RATE_DATE: 1.0902}}


def fx_rate(args):
    pair = (need(args, "from"), need(args, "to"))
    if pair not in RATES:
        raise ToolError("no rate for %s->%s" % pair)
    date = args.get("date") or w.RATE_DATE
    if date not in RATES[pair]:
        raise ToolError("no ECB reference rate for %s on %s" % (pair[0] + pair[1], date))
    return {"from": pair[0], "to": pair[1], "rate": RATES[pair][date], "date": date, "source": "ECB"}


def promo_lookup(args):
    code = need(args, "code")
    if code not in w.PROMOS:
        raise ToolError("no promotion %r" % code)
    p = dict(w.PROMOS[code])
    p["skus"] = [s["sku"] for s in w.SHOP if s["promo"] == code]
    return p


def supplier_cost(args):
    sku = need(args, "sku")
    it = next((x for x in w.ITEMS if x["sku"] == sku), None)
    if it is None:
        raise ToolError("no ERP item %r" % sku)
    raised = w.role(sku) in ("erp-raised", "erp-raised-synced")
    return {"sku": sku, "supplier": it["supplier"], "cost_usd": w.supplier_cost_usd(sku),
            "changed_at": "2024-03-28" if raised else "2023-11-02"}


def propose_price(args):
    sku = need(args, "sku")
    price = float(need(args, "price_eur"))
    reason = need(args, "reason")
    if not any(s["sku"] == sku for s in w.SHOP):
        raise ToolError("%s is not listed in the shop" % sku)
    floor = w.supplier_cost_usd(sku) * w.RATE * (1 + w.MIN_MARGIN)
    if price < floor:
        return {"ok": False, "sku": sku, "reason": "below the 18%% minimum margin: cost %.2f EUR, lowest allowed %.2f EUR"
                % (w.supplier_cost_usd(sku) * w.RATE, floor)}
    return {"ok": True, "sku": sku, "price_eur": price, "ticket": ticket(sku, price, reason), "status": "pending approval"}


def set_fx_rate(args):
    rate = float(need(args, "rate"))
    source = need(args, "source")
    if not 0.5 < rate < 1.5:
        raise ToolError("rate %s out of range" % rate)
    return {"ok": True, "fx_usd_eur": rate, "previous": w.STALE_RATE, "ticket": ticket("fx", rate, source),
            "note": "prices are recomputed at the next sync"}


TOOLS = {"erp-price-list": erp_price_list, "erp-item": erp_item, "shop-products": shop_products,
         "shop-settings": shop_settings, "fx-rate": fx_rate, "promo-lookup": promo_lookup,
         "supplier-cost": supplier_cost, "propose-price": propose_price, "set-fx-rate": set_fx_rate}

if __name__ == "__main__":
    serve(TOOLS)
