#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the literature-review session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: citation keys and submission ids are derived from the request itself."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

DOI_RE = re.compile(r"^10\.\d{4,9}/\S+$")
ARXIV_RE = re.compile(r"^(arxiv:)?\d{4}\.\d{4,5}(v\d+)?$", re.I)
STOP = {"a", "an", "the", "of", "for", "and", "in", "on", "with", "to"}


def paper(args, key="id"):
    ident = need(args, key)
    if not isinstance(ident, str) or not (DOI_RE.match(ident.strip()) or ARXIV_RE.match(ident.strip())):
        raise ToolError("not a DOI or arXiv id: %r (give a bare DOI like 10.1145/3580305.3599412 or an arXiv "
                        "id like 2403.01178v2)" % (ident,))
    k = w.find(ident)
    if k is None:
        if ident.strip()[-1] in ".,;:)":
            raise ToolError("no record for %r: DOIs and arXiv ids do not end in %r (copied with the "
                            "punctuation of a reference?)" % (ident, ident.strip()[-1]))
        raise ToolError("no record for %r" % ident)
    return k


def vancouver(k):
    p = w.PAPERS[k]
    names = [w.initials(a) for a in p["authors"]]
    authors = ", ".join(names[:6]) + (", et al" if len(names) > 6 else "")
    title = p["title"]
    if p["doi"] is None and p["venue"] == "arXiv preprint":
        return "%s. %s [Preprint]. arXiv:%s. %d." % (authors, title, p["arxiv"], p["year"])
    tail = " doi:%s." % p["doi"] if p["doi"] else (" arXiv:%s." % p["arxiv"] if p["arxiv"] else "")
    if p["index"]["type"] == "journal-article":
        vol = p["volume"] or ""
        if p["issue"]:
            vol += "(%s)" % p["issue"]
        return "%s. %s. %s. %d;%s:%s.%s" % (authors, title, p["venue"], p["year"], vol, p["pages"], tail)
    return "%s. %s. In: %s; %d. p. %s.%s" % (authors, title, p["venue"], p["year"], p["pages"], tail)


def apa(k):
    p = w.PAPERS[k]
    names = p["authors"]
    authors = ", ".join(names[:-1]) + ", & " + names[-1] if len(names) > 1 else names[0]
    where = p["venue"] + (", " + p["volume"] if p["volume"] else "") + (", " + p["pages"] if p["pages"] else "")
    link = "https://doi.org/" + p["doi"] if p["doi"] else "https://arxiv.org/abs/" + p["arxiv"]
    return "%s (%d). %s. %s. %s" % (authors, p["year"], p["title"], where, link)


def acm(k):
    p = w.PAPERS[k]
    return "%s. %d. %s. %s%s." % ("; ".join(p["authors"]), p["year"], p["title"], p["venue"],
                                  ", " + p["pages"] if p["pages"] else "")


def ieee(k):
    p = w.PAPERS[k]
    names = [re.sub(r"^(.*), (.*)$", r"\2 \1", a) for a in p["authors"]]
    return "%s, \"%s,\" %s, %d%s." % (", ".join(names[:6]) + (" et al." if len(names) > 6 else ""), p["title"],
                                      p["venue"], p["year"], ", pp. " + p["pages"] if p["pages"] else "")


FORMATS = {"vancouver": vancouver, "apa-7": apa, "acm-sig": acm, "ieee": ieee}


def lit_search(args):
    q = need(args, "query")
    words = [x for x in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", q.lower()) if x not in STOP]
    if not words:
        raise ToolError("empty query")
    y0, y1 = args.get("year_from"), args.get("year_to")
    limit = int(args.get("limit") or 10)
    if not 1 <= limit <= 25:
        raise ToolError("limit must be between 1 and 25")
    scored = []
    for k in w.ORDER:
        p = w.PAPERS[k]
        if (y0 and p["year"] < y0) or (y1 and p["year"] > y1):
            continue
        hay = " ".join([p["title"], " ".join(p["keywords"]), p["abstract"]]).lower()
        hits = sum(1 for x in words if x in hay)
        if hits * 3 >= len(words) * 2:
            scored.append((-hits, -p["index"]["citations"], k))
    scored.sort()
    rows = []
    for _, _, k in scored[:limit]:
        p = w.PAPERS[k]
        rows.append({"title": p["title"], "authors": p["index"]["authors"], "venue": p["index"]["venue"],
                     "year": p["year"], "type": p["index"]["type"], "doi": p["doi"],
                     "arxiv": p["arxiv"] if p["doi"] is None else None, "citations": p["index"]["citations"]})
    return {"query": q, "total": len(scored), "returned": len(rows), "results": rows}


def paper_record(args):
    k = paper(args)
    p = w.PAPERS[k]
    return {"title": p["title"], "authors": p["authors"], "venue": p["venue"], "year": p["year"],
            "volume": p["volume"], "issue": p["issue"], "pages": p["pages"], "doi": p["doi"], "arxiv": p["arxiv"],
            "publisher": p.get("publisher", "arXiv"), "published": p["published"], "versions": p["versions"],
            "keywords": p["keywords"], "abstract": p["abstract"],
            "sections": [{"title": t, "page": pg} for t, pg in p["sections"]],
            "references": [vancouver(r) for r in p["references"]]}


def paper_tables(args):
    k = paper(args)
    p = w.PAPERS[k]
    tables = w.TABLES.get(k, [])
    want = args.get("table")
    if want:
        tables = [t for t in tables if t["table"] == want]
        if not tables:
            raise ToolError("%s has no %s (tables: %s)" % (args["id"], want,
                                                           ", ".join(t["table"] for t in w.TABLES.get(k, []))))
    version = "arXiv %s" % re.sub(r"^.*(v\d+)$", r"\1", p["arxiv"]) if p["doi"] is None else "published"
    return {"id": args["id"], "title": p["title"], "version": version, "tables": tables}


def paper_snippets(args):
    k = paper(args)
    q = need(args, "query").lower().split()
    hits = [{"page": pg, "section": sec, "text": text} for pg, sec, text in w.TEXT.get(k, [])
            if all(x in text.lower() for x in q)]
    return {"id": args["id"], "query": args["query"], "hits": hits}


def author_profile(args):
    name = need(args, "name").strip().lower()
    aff = (args.get("affiliation") or "").lower()
    out = []
    for a in w.AUTHORS:
        if name not in (a["short"].lower(), a["name"].lower()) and not a["name"].lower().startswith(name):
            continue
        if aff and not any(aff in x["org"].lower() for x in a["affiliations"]):
            continue
        out.append({"name": a["name"], "orcid": a["orcid"], "affiliations": a["affiliations"],
                    "topics": a["topics"], "h_index": a["h_index"],
                    "works": [{"title": w.PAPERS[k]["title"], "year": w.PAPERS[k]["year"],
                               "venue": w.PAPERS[k]["index"]["venue"], "id": w.ident(w.PAPERS[k])}
                              for k in a["works"]]})
    return {"query": args["name"], "candidates": out}


def retraction_check(args):
    ids = need(args, "ids")
    if not isinstance(ids, list):
        raise ToolError("ids must be a list of DOIs or arXiv ids")
    out = []
    for i in ids:
        k = paper({"id": i})
        notes = w.NOTICES.get(k, [])
        status = notes[0]["type"] if notes else "ok"
        out.append({"id": i, "title": w.PAPERS[k]["title"], "status": status, "notices": notes})
    return {"checked": len(out), "as_of": w.AS_OF, "results": out}


def venue_rank(args):
    v = need(args, "venue").strip().lower()
    hits = [x for x in w.VENUES if v == x["acronym"].lower() or v in x["venue"].lower()]
    if not hits:
        raise ToolError("no venue matching %r" % args["venue"])
    x = dict(hits[0])
    x.setdefault("note", None)
    return x


TYPES = ("article", "inproceedings", "preprint", "dataset")


def bib_add(args):
    e = need(args, "entry")
    if not isinstance(e, dict):
        raise ToolError("entry must be a map")
    for k in ("type", "title", "authors", "year"):
        need(e, k)
    if e["type"] not in TYPES:
        raise ToolError("unknown entry type %r (types: %s)" % (e["type"], ", ".join(TYPES)))
    if not isinstance(e["authors"], list) or not all(isinstance(a, str) and "," in a for a in e["authors"]):
        raise ToolError("authors must be a list of \"Surname, I.\" strings")
    if e["type"] == "preprint" and not e.get("arxiv"):
        raise ToolError("a preprint needs its arxiv id")
    if e["type"] != "preprint" and not e.get("venue"):
        raise ToolError("missing required argument: entry.venue")
    key = w.cite_key(e["authors"], e["year"], e["title"])
    warnings = []
    if e["type"] in ("article", "inproceedings") and not e.get("pages"):
        warnings.append("no pages")
    if not e.get("doi") and e["type"] != "preprint":
        warnings.append("no DOI")
    return {"key": key, "stored": True, "type": e["type"], "first_author": e["authors"][0], "year": e["year"],
            "title": e["title"], "library": "VR-2025-03817 / related-work", "warnings": warnings}


def cite_format(args):
    ids = need(args, "ids")
    style = need(args, "style")
    if style not in w.STYLES:
        raise ToolError("unknown style %r (styles: %s)" % (style, ", ".join(w.STYLES)))
    return {"style": style, "references": [{"id": i, "text": FORMATS[style](paper({"id": i}))} for i in ids]}


def submission_id(pid, section, rev):
    return "%s-S%s-r%d" % (pid, section.split()[0].replace(".", ""), rev)


def proposal_submit(args):
    pid = need(args, "proposal_id")
    if pid != w.PROPOSAL_ID:
        raise ToolError("no proposal %r in your workspace" % pid)
    section = need(args, "section")
    text = need(args, "text")
    refs = need(args, "references")
    words = len(text.split())
    if words > w.MAX_WORDS:
        raise ToolError("section has %d words; the call allows at most %d" % (words, w.MAX_WORDS))
    cited = []
    for k in re.findall(r"\[@([a-z0-9]+)", text) + re.findall(r"; @([a-z0-9]+)", text):
        if k not in cited:
            cited.append(k)
    keys = [r.get("key") for r in refs]
    missing = [k for k in cited if k not in keys]
    if missing:
        raise ToolError("cited but not in references: %s" % ", ".join(missing))
    unused = [k for k in keys if k not in cited]
    rev = 1 + crc(pid, section) % 5
    return {"ok": True, "proposal_id": pid, "section": section, "submission_id": submission_id(pid, section, rev),
            "words": words, "characters": len(text), "citations": len(cited), "references": len(refs),
            "warnings": ["listed but not cited: %s" % k for k in unused], "saved": w.AS_OF + "T14:05:00Z"}


TOOLS = {"lit-search": lit_search, "paper-record": paper_record, "paper-tables": paper_tables,
         "paper-snippets": paper_snippets, "author-profile": author_profile, "retraction-check": retraction_check,
         "venue-rank": venue_rank, "bib-add": bib_add, "cite-format": cite_format, "proposal-submit": proposal_submit}

if __name__ == "__main__":
    serve(TOOLS)
