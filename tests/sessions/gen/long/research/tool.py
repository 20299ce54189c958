#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the upgrade-research session: `python3 tool.py TOOL`, JSON
arguments on stdin, JSON result on stdout, an error on stderr with exit 2."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, need, serve  # noqa: E402


def words(text):
    return set(re.findall(r"[a-z0-9_-]+", text.lower()))


def snippet(doc):
    body = doc["body"].split("\n", 2)[2] if doc["body"].count("\n") >= 2 else doc["body"]
    text = " ".join(body.split())
    return text[:160] + ("..." if len(text) > 160 else "")


def wiki_search(args):
    q = words(need(args, "query"))
    limit = int(args.get("limit") or 5)
    scored = []
    for rank, (doc_id, keywords) in enumerate(w.SEARCH_INDEX):
        doc = w.DOCS.get(doc_id)
        title = doc["title"] if doc else w.ATTACHMENT["title"]
        score = len(q & (words(keywords) | words(title)))
        if score:
            scored.append((-score, rank, doc_id))
    hits = []
    for _, _, doc_id in sorted(scored)[:limit]:
        if doc_id == w.ATTACHMENT["doc_id"]:
            hits.append(dict(w.ATTACHMENT))
        else:
            d = w.DOCS[doc_id]
            hits.append({"doc_id": doc_id, "title": d["title"], "updated": d["updated"], "snippet": snippet(d)})
    return hits


def wiki_fetch(args):
    doc_id = need(args, "doc_id")
    if doc_id == w.ATTACHMENT["doc_id"]:
        raise ToolError("%s is a PDF attachment; no text available" % doc_id)
    if doc_id not in w.DOCS:
        raise ToolError("no wiki page %r" % doc_id)
    d = w.DOCS[doc_id]
    return {"doc_id": doc_id, "title": d["title"], "updated": d["updated"], "author": d["author"], "body": d["body"]}


def ticket_search(args):
    q = words(need(args, "query"))
    status = args.get("status")
    out = []
    for t in w.TICKETS.values():
        if status and t["status"] != status:
            continue
        if q & words(t["title"] + " " + t["description"]):
            out.append({"id": t["id"], "title": t["title"], "status": t["status"], "team": t["team"]})
    return out


def ticket_get(args):
    tid = need(args, "id")
    if tid not in w.TICKETS:
        raise ToolError("no ticket %r" % tid)
    return w.TICKETS[tid]


def maintenance_windows(args):
    if need(args, "system") != "pg-orders":
        raise ToolError("no maintenance calendar for %r" % args["system"])
    lo, hi = need(args, "from"), need(args, "to")
    for d in (lo, hi):
        if not re.match(r"^\d{4}-\d{2}-\d{2}$", d):
            raise ToolError("dates are YYYY-MM-DD, got %r" % d)
    out = []
    for day in w.SUNDAYS:
        if lo <= day <= hi:
            status, note = "free", None
            if day in w.FROZEN:
                status, note = "frozen", w.FROZEN[day]
            elif day in w.BOOKED:
                status, note = "booked", w.BOOKED[day]
            out.append({"date": day, "start": "02:00", "end": "06:00", "tz": "UTC", "status": status, "note": note})
    return out


def team_directory(args):
    team = need(args, "team")
    if team not in w.TEAMS:
        raise ToolError("unknown team %r (teams: %s)" % (team, ", ".join(sorted(w.TEAMS))))
    return w.TEAMS[team]


TOOLS = {"wiki-search": wiki_search, "wiki-fetch": wiki_fetch, "ticket-search": ticket_search,
         "ticket-get": ticket_get, "maintenance-windows": maintenance_windows, "team-directory": team_directory}

if __name__ == "__main__":
    serve(TOOLS)
