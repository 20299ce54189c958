#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the vendor-due-diligence session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, need, serve  # noqa: E402

TODAY = "2024-06-24"
SEARCH_STEM = 6  # a query word matches a name word sharing its first 6 letters


def words(text):
    return re.findall(r"[a-zà-ÿ0-9]+", text.lower())


def registry_search(args):
    query = [x[:SEARCH_STEM] for x in words(need(args, "name")) if len(x) >= 4]
    country = args.get("country")
    out = []
    for rid, c in w.COMPANIES.items():
        stems = [x[:SEARCH_STEM] for x in words(c["name"])]
        if query and query[0] in stems and (country is None or c["country"] == country):
            out.append({"registry_id": rid, "name": c["name"], "status": c["status"], "city": c["city"],
                        "country": c["country"]})
    return out


def company(args):
    rid = need(args, "registry_id")
    if rid not in w.COMPANIES:
        raise ToolError("no registry entry %r (ids look like DE-HRB-118204 or GB-09381127)" % rid)
    return rid, w.COMPANIES[rid]


def registry_record(args):
    rid, c = company(args)
    extract = args.get("extract") or "cache"
    if extract not in ("cache", "live"):
        raise ToolError("extract must be cache or live, not %r" % extract)
    rec = {"registry_id": rid}
    rec.update(c)
    if extract == "cache":
        rec.update(w.CACHED.get(rid, {}))
        rec.update({"source": "KYC cache", "as_of": w.CACHE_DATE})
    else:
        rec.update({"source": "registry (live extract)", "as_of": TODAY})
    return rec


def registry_filings(args):
    rid, c = company(args)
    return w.FILINGS.get(rid, [{"filing_id": "F-%s-0001" % c["founded"], "date": c["founded"], "type": "incorporation",
                                "summary": "company registered"}])


def contract_summary(ct):
    return {k: ct[k] for k in ("contract_id", "title", "counterparty", "status", "start", "end", "value_eur")}


def contract_search(args):
    q = need(args, "counterparty").lower()
    return [contract_summary(ct) for ct in w.CONTRACTS if q in ct["counterparty"].lower()]


def contract_get(args):
    cid = need(args, "contract_id")
    for ct in w.CONTRACTS:
        if ct["contract_id"] == cid:
            return ct
    raise ToolError("no contract %r (ids look like CT-2021-0183)" % cid)


def news_search(args):
    q = words(need(args, "query"))
    since = args.get("since") or "2000-01-01"
    hits = [a for a in w.ARTICLES if a["date"] >= since
            and all(x in words(a["headline"] + " " + a["body"]) for x in q)]
    hits.sort(key=lambda a: a["date"], reverse=True)
    return [{k: a[k] for k in ("article_id", "date", "source", "headline", "snippet")} for a in hits]


def news_article(args):
    aid = need(args, "article_id")
    for a in w.ARTICLES:
        if a["article_id"] == aid:
            return a
    raise ToolError("no article %r" % aid)


def reviews(args):
    vendor = need(args, "vendor")
    if vendor not in w.REVIEWS:
        close = [v for v in w.REVIEWS if v.lower().startswith(vendor.lower()[:6])]
        raise ToolError("no review profile named %r%s" % (vendor, "; did you mean %r?" % close[0] if close else ""))
    r = w.REVIEWS[vendor]
    return {"vendor": vendor, "rating": r["rating"], "count": r["count"],
            "reviews": [{"review_id": i, "stars": s, "date": d, "title": t, "text": x} for i, s, d, t, x in r["reviews"]]}


def sanctions_screen(args):
    names = need(args, "names")
    out = []
    for n in names:
        hit = w.EXCLUSIONS.get(n)
        row = {"name": n, "status": "potential match" if hit else "clear"}
        if hit:
            row.update(hit)
        out.append(row)
    return out


TOOLS = {"registry-search": registry_search, "registry-record": registry_record,
         "registry-filings": registry_filings, "contract-search": contract_search, "contract-get": contract_get,
         "news-search": news_search, "news-article": news_article, "reviews": reviews,
         "sanctions-screen": sanctions_screen}

if __name__ == "__main__":
    serve(TOOLS)
