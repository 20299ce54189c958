#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the crm-cleanup session: `python3 tool.py TOOL`, JSON
arguments on stdin, JSON result on stdout, an error on stderr with exit 2."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, need, serve  # noqa: E402


def table(args):
    if need(args, "table") != "customers":
        raise ToolError("unknown table %r (tables: customers)" % args["table"])


def crm_schema(args):
    table(args)
    return {"table": "customers", "rows": len(w.ROWS), "columns": [
        {"name": "id", "type": "string", "note": "C-nnnnnn"},
        {"name": "name", "type": "string", "note": "free text, as typed"},
        {"name": "email", "type": "string", "note": "free text, as typed"},
        {"name": "country", "type": "string", "note": "free text; the old form had no country list"},
        {"name": "city", "type": "string", "note": None},
        {"name": "signup", "type": "string", "note": "date as typed; empty when unknown"},
        {"name": "revenue", "type": "number or string", "note": "lifetime revenue, last updated 2021, not maintained"},
        {"name": "source", "type": "string", "note": "web, shop, import-2019 (the 2019 import created duplicates)"}]}


def crm_rows(args):
    table(args)
    offset = int(args.get("offset") or 0)
    limit = int(args.get("limit") or 100)
    if limit > 200:
        raise ToolError("limit must be at most 200")
    return {"total": len(w.ROWS), "offset": offset, "rows": w.ROWS[offset:offset + limit]}


ISO = {"germany": "DE", "deutschland": "DE", "de": "DE", "france": "FR", "fr": "FR", "frankreich": "FR",
       "spain": "ES", "españa": "ES", "es": "ES", "italy": "IT", "italia": "IT", "it": "IT",
       "netherlands": "NL", "the netherlands": "NL", "holland": "NL", "nl": "NL", "united kingdom": "GB",
       "uk": "GB", "u.k.": "GB", "great britain": "GB", "england": "GB", "austria": "AT", "österreich": "AT", "at": "AT",
       "poland": "PL", "polska": "PL", "pl": "PL"}
NAMES = {"DE": "Germany", "FR": "France", "ES": "Spain", "IT": "Italy", "NL": "Netherlands", "GB": "United Kingdom",
         "AT": "Austria", "PL": "Poland"}


def iso_country(args):
    name = need(args, "name")
    key = name.lower()  # exact up to case: "Germany " with a space is not found
    if key == "bavaria":
        raise ToolError("'Bavaria' is a region, not a country")
    if key not in ISO:
        raise ToolError("unknown country %r" % name)
    out = {"input": name, "iso2": ISO[key], "country": NAMES[ISO[key]]}
    if key == "england":
        out["note"] = "constituent country of the United Kingdom"
    return out


def email_domain(args):
    domain = need(args, "domain").lower()
    if domain in w.TYPO_DOMAINS:
        return {"domain": domain, "valid_mx": False, "suggestion": w.TYPO_DOMAINS[domain]}
    if domain in w.DOMAINS:
        return {"domain": domain, "valid_mx": True, "suggestion": None}
    return {"domain": domain, "valid_mx": False, "suggestion": None}


def orders_summary(args):
    ids = need(args, "customer_ids")
    if not isinstance(ids, list):
        raise ToolError("customer_ids must be a list of ids")
    if len(ids) > 100:
        raise ToolError("at most 100 customer ids per call, got %d" % len(ids))
    known = {r["id"] for r in w.ROWS}
    out = []
    for cid in ids:
        if cid not in known:
            raise ToolError("unknown customer id %r" % cid)
        n, eur = w.orders_revenue(cid)
        out.append({"customer_id": cid, "orders": n, "revenue_eur": eur})
    return out


TOOLS = {"crm-schema": crm_schema, "crm-rows": crm_rows, "iso-country": iso_country, "email-domain": email_domain,
         "orders-summary": orders_summary}

if __name__ == "__main__":
    serve(TOOLS)
