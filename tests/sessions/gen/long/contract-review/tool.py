#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the contract-review session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: screening, redline, ticket and memo ids are derived from the request itself."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

QUEUES = {"legal": "Legal Operations (Sana Mirza)", "procurement": "Procurement (Dev Pillai)",
          "privacy": "Privacy Office (Tom Lennox)", "compliance": "Financial Crime Compliance (Ines Carvalho)"}
PRIORITIES = ["P1", "P2", "P3", "P4"]
LISTS = ["UK OFSI Consolidated", "OFAC SDN", "EU Consolidated", "UN Security Council"]
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def contract_of(args):
    cid = need(args, "contract_id").strip()
    if cid not in w.CONTRACT:
        near = [c for c in w.CONTRACT if sorted(c) == sorted(cid) or c[-4:] == cid[-4:]]
        raise ToolError("no contract %r%s (contract ids look like MSA-2021-0147; cr-contracts lists them)"
                        % (cid, "; did you mean %s?" % " or ".join(near) if near else ""))
    return cid


def row(c):
    cid, typ, title, cp, eff, end, auto, months, ccy, value, owner, parent = c
    return {"contract_id": cid, "type": typ, "title": title, "counterparty": w.COUNTERPARTIES[cp]["legal_name"],
            "cp_id": cp, "effective": eff, "term_end": end, "auto_renew": auto, "renewal_term_months": months,
            "currency": ccy, "annual_value": value, "owner": owner, "parent": parent}


def cr_contracts(args):
    typ = args.get("type")
    rows = [row(c) for c in w.CONTRACTS if not typ or c[1] == typ]
    if typ and not rows:
        raise ToolError("unknown type %r (types: %s)" % (typ, ", ".join(sorted({c[1] for c in w.CONTRACTS}))))
    return rows


def sections(cid):
    return [s for s, *_ in w.CLAUSES.get(cid, [])]


def cr_clauses(args):
    cid = contract_of(args)
    c = w.CONTRACT[cid]
    clauses = w.CLAUSES.get(cid, [])
    sec = args.get("section")
    if sec:
        clauses = [x for x in clauses if x[0] == sec]
        if not clauses:
            raise ToolError("%s has no section %r (sections: %s)" % (cid, sec, ", ".join(sections(cid))))
    return {"contract_id": cid, "title": c[2], "parties": [w.CLIENT, w.COUNTERPARTIES[c[3]]["legal_name"]],
            "version": w.VERSIONS.get(cid, "executed"), "text_as": "executed (amendments are separate documents)",
            "clauses": [{"section": s, "heading": h, "text": t} for s, h, _, t in clauses]}


def cr_amendments(args):
    cid = contract_of(args)
    return {"contract_id": cid,
            "amendments": [{"amendment_id": a, "signed": d, "title": t, "signatories": sig,
                            "changes": [{"section": s, "action": act, "text": txt} for s, act, txt in ch]}
                           for a, d, t, sig, ch in w.AMENDMENTS.get(cid, [])]}


def cr_playbook(args):
    topic = args.get("topic")
    q = (args.get("query") or "").lower().split()
    out = []
    for p in w.PLAYBOOK:
        if topic and p["topic"] != topic:
            continue
        hay = " ".join(str(v) for v in p.values()).lower()
        if q and not all(x in hay for x in q):
            continue
        out.append(p)
    if topic and not out:
        raise ToolError("unknown topic %r (topics: %s)" % (topic, ", ".join(dict.fromkeys(p["topic"] for p in w.PLAYBOOK))))
    return {"playbook": "Halvard supplier contracts playbook", "version": "2024-11", "positions": out}


def cr_counterparty(args):
    q = need(args, "query").strip().lower()
    out = []
    for cp, r in w.COUNTERPARTIES.items():
        if q in r["legal_name"].lower() or q == r["reg_no"].lower() or q == cp.lower():
            out.append(dict({"cp_id": cp}, **r, contracts=[c[0] for c in w.CONTRACTS if c[3] == cp]))
    return out


def cr_screen(args):
    name = need(args, "name").strip()
    country = args.get("country")
    reg = args.get("reg_no")
    low = name.lower()
    hits, excluded = [], []
    for e in w.LISTED:
        if not e["match_on"] or e["match_on"][0] not in low:
            continue
        if not any(x in low for x in e["match_on"][1:]):
            continue
        hit = {k: e[k] for k in ("entry", "list", "program", "country", "address", "registration", "listed")}
        hit["score"] = 0.87
        hit["matched_on"] = "name (fuzzy)"
        if reg and e["registration"] and reg.replace(" ", "") != e["registration"].replace(" ", ""):
            excluded.append("%s: registration %s differs from %s" % (e["entry"], reg, e["registration"]))
        else:
            hits.append(hit)
    out = {"screen_id": "SCR-25-%05d" % (crc("screen", name, country, reg) % 100000), "subject": name,
           "country": country, "reg_no": reg, "lists_checked": LISTS, "result": "potential_match" if hits else "clear",
           "hits": hits, "screened_at": w.NOW}
    if excluded:
        out["excluded"] = excluded
    return out


def parse_date(args, key):
    d = need(args, key)
    if not DATE.match(str(d)):
        raise ToolError("%s must be a date YYYY-MM-DD, got %r" % (key, d))
    return d


def cr_spend(args):
    cid = contract_of(args)
    if cid not in w.INVOICES:
        raise ToolError("no ERP spend for %s (only contracts renewing by %s are loaded)" % (cid, w.HORIZON))
    cp = w.COUNTERPARTIES[w.CONTRACT[cid][3]]
    ccy = w.CURRENCY[cid]
    out = {"contract_id": cid, "supplier": cp["legal_name"], "vendor_id": cp["erp_vendor"], "currency": ccy,
           "period": {"from": w.SPEND_PERIOD[0], "to": w.SPEND_PERIOD[1]},
           "invoices": [{"invoice_no": n, "date": d, "po": po, "description": desc, "amount": w.amount_text(a),
                         "currency": ccy} for n, d, po, desc, a in w.INVOICES[cid]]}
    if not w.INVOICES[cid]:
        out["note"] = "no invoices: %s carries no charges of its own" % cid
    return out


def cr_fx(args):
    d = parse_date(args, "date")
    if d != w.FX_DATE:
        raise ToolError("the treasury fixing is published for review dates only; latest is %s" % w.FX_DATE)
    return {"base": "GBP", "date": d, "quote": "units of currency per 1 GBP",
            "source": "Treasury daily fixing (WM/Reuters 16:00 London)", "rates": w.FX}


def clause(cid, sec):
    for s, h, topic, t in w.CLAUSES.get(cid, []):
        if s == sec:
            return h, topic, t
    return None


def cr_redline(args):
    cid = contract_of(args)
    sec = need(args, "section")
    pb = need(args, "playbook_id")
    text = need(args, "proposed_text")
    base = args.get("based_on") or "executed text"
    cl = clause(cid, sec)
    if cl is None:
        raise ToolError("%s has no section %r (sections: %s)" % (cid, sec, ", ".join(sections(cid))))
    if pb not in w.PB:
        raise ToolError("no playbook position %r (ids look like PB-LIAB-03)" % pb)
    heading, topic, old = cl
    amd = w.amended(cid, sec)
    if amd and base != amd:
        a = [x for x in w.AMENDMENTS[cid] if x[0] == amd][0]
        raise ToolError("section %s of %s was replaced by %s (%s, signed %s): the executed text is not in force; "
                        "pass based_on \"%s\" to mark up the text in force" % (sec, cid, amd, a[2], a[1], amd))
    if not amd and base != "executed text":
        raise ToolError("%s does not amend section %s of %s" % (base, sec, cid))
    if w.PB[pb]["topic"] != topic:
        fits = [p["id"] for p in w.PLAYBOOK if p["topic"] == topic]
        raise ToolError("%s (%s) is not a position for section %s \"%s\" of %s (topic %s); positions for it: %s"
                        % (pb, w.PB[pb]["title"], sec, heading, cid, topic, ", ".join(fits) or "none"))
    if amd:
        old = [t for s, act, t in [c for a in w.AMENDMENTS[cid] for c in a[4]] if s == sec][0]
    old_words = set(re.findall(r"\w+", old.lower()))
    changed = len([x for x in re.findall(r"\w+", text.lower()) if x not in old_words])
    return {"redline_id": "RL-25-%05d" % (crc("redline", cid, sec, pb) % 100000), "contract_id": cid,
            "counterparty": w.COUNTERPARTIES[w.CONTRACT[cid][3]]["legal_name"], "section": sec, "heading": heading,
            "based_on": base, "playbook_id": pb, "approver": w.PB[pb]["approver"], "words_changed": changed,
            "status": "draft: awaiting %s" % w.PB[pb]["approver"], "created": w.NOW}


def cr_ticket(args):
    title = need(args, "title")
    cid = contract_of(args)
    pr = need(args, "priority")
    if pr not in PRIORITIES:
        raise ToolError("priority must be one of %s, got %r" % (", ".join(PRIORITIES), pr))
    q = need(args, "queue")
    if q not in QUEUES:
        raise ToolError("unknown queue %r (queues: %s)" % (q, ", ".join(QUEUES)))
    due = parse_date(args, "due") if args.get("due") else None
    n = 4100 + crc("ticket", cid, q) % 900
    return {"ticket_id": "LEG-%d" % n, "title": title, "contract_id": cid, "queue": q, "assignee": QUEUES[q],
            "priority": pr, "due": due, "status": "open", "url": "https://legal.halvardfreight.co.uk/tickets/LEG-%d" % n,
            "created": w.NOW}


def cr_memo_submit(args):
    title = need(args, "title")
    parse_date(args, "as_of")
    to = need(args, "to")
    summary = need(args, "summary")
    rows = need(args, "contracts")
    ids = []
    for r in rows:
        cid = contract_of(r)
        for k in ("recommendation", "deadline"):
            if not r.get(k):
                raise ToolError("contract %s: missing %s" % (cid, k))
        parse_date(r, "deadline")
        ids.append(cid)
    missing = [c for c in w.SCOPE if c not in ids]
    if missing:
        raise ToolError("the memo leaves out contracts renewing by %s: %s" % (w.HORIZON, ", ".join(missing)))
    words = len(summary.split()) + sum(len(" ".join(str(v) for v in r.values()).split()) for r in rows)
    return {"memo_id": "RM-2025-%03d" % (crc("memo", w.AS_OF) % 1000), "title": title, "status": "submitted",
            "routed_to": to, "contracts": len(rows), "words": words, "received": w.NOW}


TOOLS = {"cr-contracts": cr_contracts, "cr-clauses": cr_clauses, "cr-amendments": cr_amendments,
         "cr-playbook": cr_playbook, "cr-counterparty": cr_counterparty, "cr-screen": cr_screen,
         "cr-spend": cr_spend, "cr-fx": cr_fx, "cr-redline": cr_redline, "cr-ticket": cr_ticket,
         "cr-memo-submit": cr_memo_submit}

if __name__ == "__main__":
    serve(TOOLS)
