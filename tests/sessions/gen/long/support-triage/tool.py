#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the support-triage session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: refund, escalation and update ids are derived from the request itself."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402


def derived(prefix, start, span, *parts):
    return "%s-%d" % (prefix, start + crc(*parts) % span)


def ticket(tid):
    if tid not in w.TICKET_BY_ID:
        raise ToolError("no ticket %r" % tid)
    return w.TICKET_BY_ID[tid]


def ticket_list(args):
    if need(args, "queue") != w.QUEUE:
        raise ToolError("unknown queue %r (yours: %s)" % (args["queue"], w.QUEUE))
    status = args.get("status") or "open"
    rows = w.TICKETS if status == "open" else []
    page = int(args.get("page") or 1)
    pages = max(1, (len(rows) + w.PAGE_SIZE - 1) // w.PAGE_SIZE)
    if not 1 <= page <= pages:
        raise ToolError("page %d out of range 1..%d" % (page, pages))
    chunk = rows[(page - 1) * w.PAGE_SIZE:page * w.PAGE_SIZE]
    return {"queue": w.QUEUE, "status": status, "total": len(rows), "page": page, "pages": pages,
            "tickets": [{"id": t["id"], "subject": t["subject"], "channel": t["channel"], "created": t["created"],
                         "sla_due": t["sla_due"]} for t in chunk]}


def ticket_get(args):
    t = ticket(need(args, "id"))
    return {"id": t["id"], "subject": t["subject"], "status": "open", "channel": t["channel"],
            "customer_email": t["email"], "order_ref": t["order_ref"], "created": t["created"],
            "sla_due": t["sla_due"], "priority": "unset", "body": t["body"], "messages": t["messages"]}


def customer_lookup(args):
    if args.get("customer_id"):
        c = w.CUSTOMERS.get(args["customer_id"])
        if c is None:
            raise ToolError("no customer %r" % args["customer_id"])
    else:
        email = need(args, "email")
        c = next((c for c in w.CUSTOMERS.values() if c["email"] == email), None)
        if c is None:
            raise ToolError("no customer with email %r (emails are stored lower-case)" % email)
    out = dict(c)
    out["open_tickets"] = sum(1 for t in w.TICKETS if t["customer"] == c["customer_id"])
    return out


def order_search(args):
    cid = need(args, "customer_id")
    if cid not in w.CUSTOMERS:
        raise ToolError("no customer %r" % cid)
    rows = [o for o in w.ORDERS if o["customer_id"] == cid]
    return [{"order_id": o["order_id"], "placed": o["placed"], "status": o["status"], "total_eur": o["total_eur"],
             "items": sum(i["qty"] for i in o["items"])} for o in sorted(rows, key=lambda o: o["placed"], reverse=True)]


def order_get(args):
    oid = need(args, "order_id")
    if oid not in w.ORDER_BY_ID:
        raise ToolError("no order %r" % oid)
    return w.ORDER_BY_ID[oid]


def refunded(oid, amount):
    return derived("RF", 88100, 900, oid, "%.2f" % amount)


def refund_issue(args):
    oid = need(args, "order_id")
    amount = need(args, "amount_eur")
    need(args, "reason")
    if not isinstance(amount, (int, float)):
        raise ToolError("amount_eur must be a number, got %r" % amount)
    o = w.ORDER_BY_ID.get(oid)
    if o is None:
        raise ToolError("no order %r" % oid)
    if amount > o["payment"]["captured_eur"] - o["payment"]["refunded_eur"]:
        raise ToolError("%.2f EUR is more than the %.2f EUR captured on %s"
                        % (amount, o["payment"]["captured_eur"], oid))
    if amount > w.REFUND_LIMIT and not args.get("approval_ref"):
        return {"ok": False, "order_id": oid, "amount_eur": amount,
                "reason": "above the tier-1 limit of %.2f EUR: needs an approval_ref from the account manager"
                % w.REFUND_LIMIT}
    return {"ok": True, "refund_id": refunded(oid, amount), "order_id": oid, "amount_eur": amount,
            "status": "queued", "expected_on_statement": "3-5 business days"}


def escalate(args):
    tid = ticket(need(args, "ticket_id"))["id"]
    to = need(args, "to")
    reason = need(args, "reason")
    if to not in w.ESCALATION_TARGETS:
        raise ToolError("unknown escalation target %r (known: %s)" % (to, ", ".join(w.ESCALATION_TARGETS)))
    minutes = {"engineering-l2": 120, "identity": 60, "account-management": 240, "logistics": 480}[to]
    return {"ok": True, "escalation_id": derived("ESC", 3300, 600, tid, to, reason), "ticket_id": tid, "to": to,
            "response_sla_minutes": minutes}


def ticket_update(args):
    tid = ticket(need(args, "id"))["id"]
    category = need(args, "category")
    if category not in w.CATEGORIES:
        raise ToolError("unknown category %r (known: %s)" % (category, ", ".join(w.CATEGORIES)))
    priority = need(args, "priority")
    if priority not in ("urgent", "high", "normal", "low"):
        raise ToolError("unknown priority %r (known: urgent, high, normal, low)" % priority)
    status = "closed" if category == "duplicate" else "triaged"
    return {"ok": True, "id": tid, "status": status, "category": category, "priority": priority,
            "team": args.get("team"), "kb_article": args.get("kb_article"), "updated_at": w.AS_OF}


def kb_search(args):
    words = need(args, "query").lower().split()
    limit = int(args.get("limit") or 3)
    scored = []
    for a in w.KB:
        hay = (a["title"] + " " + a["words"]).lower()
        score = sum(1 for x in words if x in hay)
        if score:
            scored.append((score, a))
    scored.sort(key=lambda p: (-p[0], p[1]["article_id"]))
    return [{"article_id": a["article_id"], "title": a["title"], "updated": a["updated"],
             "score": round(s / len(words), 2)} for s, a in scored[:limit]]


TOOLS = {"ticket-list": ticket_list, "ticket-read": ticket_get, "customer-lookup": customer_lookup,
         "order-search": order_search, "order-get": order_get, "refund-issue": refund_issue, "escalate": escalate,
         "ticket-update": ticket_update, "kb-search": kb_search}

if __name__ == "__main__":
    serve(TOOLS)
