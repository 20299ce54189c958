"""The world of the `support-triage` session: the open tickets of the
eu-standard support queue on 2024-05-06, the customers behind them, their
orders and shipments, and the knowledge base. Planted: a refund for damaged
scanners whose order the customer only names in a follow-up ticket (the most
recent order, which an agent would guess, also holds scanners, at another
price), a duplicate charge, a wrong size, a parcel held at customs and one
delivered to an old address, two enterprise bugs and an SSO outage past their
SLA, two duplicate tickets, mixed-case emails, and a tier-1 refund limit.
Deterministic: tool.py and answers.py read it."""

AS_OF = "2024-05-06T10:00:00Z"
QUEUE = "eu-standard"
REFUND_LIMIT = 200.0
PAGE_SIZE = 10

# customer_id -> customer record (addresses as the order system has them)
CUSTOMERS = {
    "CUS-20931": {"customer_id": "CUS-20931", "name": "Mara Lindqvist", "email": "m.lindqvist@nordlicht-logistik.de",
                  "company": "Nordlicht Logistik GmbH", "plan": "enterprise", "account_manager": "Jonas Falk",
                  "country": "DE", "since": "2019-03-11", "address": "Hafenstrasse 40, 20457 Hamburg"},
    "CUS-31877": {"customer_id": "CUS-31877", "name": "Pieter de Vries", "email": "pieter.devries@kpnmail.nl",
                  "company": None, "plan": "pro", "account_manager": None, "country": "NL", "since": "2021-08-02",
                  "address": "Prinsengracht 263, 1016 GV Amsterdam"},
    "CUS-18452": {"customer_id": "CUS-18452", "name": "Ana Ferreira", "email": "ana@ferreira-filhos.pt",
                  "company": "Ferreira & Filhos Lda", "plan": "pro", "account_manager": None, "country": "PT",
                  "since": "2020-05-19", "address": "Rua das Flores 72, 4050-262 Porto"},
    "CUS-40266": {"customer_id": "CUS-40266", "name": "Tomasz Nowak", "email": "t.nowak@poczta.onet.pl",
                  "company": None, "plan": "basic", "account_manager": None, "country": "PL", "since": "2023-11-27",
                  "address": "ul. Dluga 14/3, 00-238 Warszawa"},
    "CUS-27719": {"customer_id": "CUS-27719", "name": "Claire Dubois", "email": "claire.dubois@atelier-dubois.fr",
                  "company": "Atelier Dubois SAS", "plan": "enterprise", "account_manager": "Jonas Falk",
                  "country": "FR", "since": "2018-01-08", "address": "12 rue Oberkampf, 75011 Paris"},
    "CUS-35104": {"customer_id": "CUS-35104", "name": "Luca Bianchi", "email": "luca.bianchi@libero.it",
                  "company": None, "plan": "basic", "account_manager": None, "country": "IT", "since": "2022-02-14",
                  "address": "Via Garibaldi 9, 10122 Torino"},
    "CUS-22963": {"customer_id": "CUS-22963", "name": "Sofia Marin", "email": "sofia.marin@gmail.com",
                  "company": None, "plan": "pro", "account_manager": None, "country": "ES", "since": "2021-06-30",
                  "address": "Calle de Atocha 31, 28012 Madrid"},
    "CUS-41580": {"customer_id": "CUS-41580", "name": "Henrik Aalto", "email": "henrik.aalto@elisanet.fi",
                  "company": None, "plan": "basic", "account_manager": None, "country": "FI", "since": "2024-01-05",
                  "address": "Mannerheimintie 5, 00100 Helsinki"},
}


def item(sku, name, qty, price):
    return {"sku": sku, "name": name, "qty": qty, "price_eur": price}


def ship(carrier, tracking, status, eta, delivered_to=None):
    return {"carrier": carrier, "tracking": tracking, "status": status, "eta": eta, "delivered_to": delivered_to}


def order(oid, cid, placed, status, items, shipment, captures=1, refunded=0.0):
    total = round(sum(i["qty"] * i["price_eur"] for i in items), 2)
    return {"order_id": oid, "customer_id": cid, "placed": placed, "status": status, "items": items,
            "total_eur": total, "shipment": shipment,
            "payment": {"method": "invoice" if CUSTOMERS[cid]["plan"] == "enterprise" else "card",
                        "captures": captures, "captured_eur": round(total * captures, 2), "refunded_eur": refunded}}


ORDERS = [
    order("ORD-2024-116204", "CUS-20931", "2024-03-18", "delivered",
          [item("HS-40", "Handheld scanner HS-40", 6, 389.0), item("CR-4", "Charging cradle CR-4", 6, 59.0)],
          ship("DB Schenker", "SCH7710482213", "delivered", "2024-03-25")),
    order("ORD-2024-118734", "CUS-20931", "2024-04-15", "delivered",
          [item("HS-40", "Handheld scanner HS-40", 4, 389.0), item("BAT-40", "Spare battery HS-40", 8, 34.5)],
          ship("DB Schenker", "SCH7712905561", "delivered", "2024-04-22")),
    order("ORD-2024-119020", "CUS-20931", "2024-04-29", "delivered",
          [item("HS-40", "Handheld scanner HS-40", 3, 372.0), item("LP-2", "Label printer LP-2", 2, 249.0)],
          ship("DB Schenker", "SCH7713388120", "delivered", "2024-05-03")),
    order("ORD-2024-118902", "CUS-31877", "2024-04-24", "delivered",
          [item("KB-MX", "Mechanical keyboard MX", 1, 129.9), item("WR-2", "Wrist rest", 1, 35.0)],
          ship("PostNL", "3SPNL0412877651", "delivered", "2024-04-26"), captures=2),
    order("ORD-2024-117655", "CUS-18452", "2024-04-08", "shipped",
          [item("DK-12", "Docking station DK-12", 3, 189.0), item("CB-C", "USB-C cable 2 m", 6, 12.9)],
          ship("DHL", "JJD0002249871563", "held at customs", "2024-05-09")),
    order("ORD-2024-118577", "CUS-40266", "2024-04-21", "delivered",
          [item("HS-HD", "Headset HD-200", 1, 79.0)],
          ship("InPost", "620111390844715", "delivered", "2024-04-25",
               delivered_to="ul. Pulawska 120/8, 02-620 Warszawa")),
    order("ORD-2024-118311", "CUS-22963", "2024-04-18", "delivered",
          [item("TR-W38", "Trail runner W size 38", 1, 119.95), item("SK-3", "Running socks 3-pack", 1, 18.5)],
          ship("SEUR", "SEU44100238810", "delivered", "2024-04-23")),
    order("ORD-2024-117990", "CUS-41580", "2024-04-12", "delivered",
          [item("MN-27", "Monitor 27 QHD", 1, 319.0)],
          ship("Posti", "JJFI6401553210", "delivered", "2024-04-17")),
]
ORDER_BY_ID = {o["order_id"]: o for o in ORDERS}

# the open tickets, oldest first
TICKETS = [
    {"id": "TCK-60412", "customer": "CUS-20931", "email": "M.Lindqvist@nordlicht-logistik.de", "channel": "email",
     "created": "2024-05-03T07:12:00Z", "sla_due": "2024-05-06T15:12:00Z", "order_ref": None,
     "subject": "Pallet scanners arrived damaged",
     "body": "Hello, two of the HS-40 handheld scanners from our order last month arrived with cracked screens "
             "(photos attached). We need replacements or a credit note before our inventory count on 13 May. "
             "Regards, Mara Lindqvist, Nordlicht Logistik",
     "messages": []},
    {"id": "TCK-60415", "customer": "CUS-31877", "email": "pieter.devries@kpnmail.nl", "channel": "web",
     "created": "2024-05-03T09:40:00Z", "sla_due": "2024-05-06T09:40:00Z", "order_ref": "ORD-2024-118902",
     "subject": "Charged twice for my order",
     "body": "My credit card statement shows the same amount twice for order ORD-2024-118902. Please refund one "
             "of the charges.",
     "messages": []},
    {"id": "TCK-60419", "customer": "CUS-18452", "email": "ana@ferreira-filhos.pt", "channel": "email",
     "created": "2024-05-03T11:05:00Z", "sla_due": "2024-05-06T08:05:00Z", "order_ref": "ORD-2024-117655",
     "subject": "Where is my order? Ordered 4 weeks ago",
     "body": "We ordered three docking stations on 8 April and the tracking has not moved for ten days. "
             "Our new office opens next week.",
     "messages": [{"from": "ana@ferreira-filhos.pt", "at": "2024-05-05T18:22:00Z",
                   "text": "Any news? Nobody has answered yet."}]},
    {"id": "TCK-60423", "customer": "CUS-40266", "email": "t.nowak@poczta.onet.pl", "channel": "chat",
     "created": "2024-05-04T08:31:00Z", "sla_due": "2024-05-07T08:31:00Z", "order_ref": None,
     "subject": "Cannot log in after password reset",
     "body": "I reset my password yesterday and now the login page says 'account locked'. The reset mail "
             "link also says expired.",
     "messages": []},
    {"id": "TCK-60427", "customer": "CUS-27719", "email": "claire.dubois@atelier-dubois.fr", "channel": "email",
     "created": "2024-05-04T10:02:00Z", "sla_due": "2024-05-06T14:02:00Z", "order_ref": None,
     "subject": "API returns 500 on bulk export",
     "body": "Since Friday our nightly job gets HTTP 500 from GET /v2/orders/export?format=csv for date ranges "
             "over 31 days. Request id of the last failure: req_7Hc2LkQ9. This blocks our month-end close.",
     "messages": []},
    {"id": "TCK-60430", "customer": "CUS-35104", "email": "luca.bianchi@libero.it", "channel": "web",
     "created": "2024-05-04T13:47:00Z", "sla_due": "2024-05-07T13:47:00Z", "order_ref": None,
     "subject": "How do I change the invoice address?",
     "body": "I moved. Where can I change the address printed on my invoices?",
     "messages": []},
    {"id": "TCK-60436", "customer": "CUS-22963", "email": "Sofia.Marin@gmail.com", "channel": "web",
     "created": "2024-05-04T16:20:00Z", "sla_due": "2024-05-07T16:20:00Z", "order_ref": "ORD-2024-118311",
     "subject": "Wrong size delivered",
     "body": "I ordered the trail runners in size 39 and got size 38. I would rather have my money back than "
             "wait for an exchange.",
     "messages": []},
    {"id": "TCK-60441", "customer": "CUS-41580", "email": "henrik.aalto@elisanet.fi", "channel": "email",
     "created": "2024-05-05T07:55:00Z", "sla_due": "2024-05-08T07:55:00Z", "order_ref": "ORD-2024-117990",
     "subject": "Invoice shows wrong VAT",
     "body": "The invoice for my monitor has 24% VAT but my company is VAT registered (FI31877402). Can you "
             "issue a corrected invoice?",
     "messages": []},
    {"id": "TCK-60444", "customer": "CUS-20931", "email": "m.lindqvist@nordlicht-logistik.de", "channel": "email",
     "created": "2024-05-05T08:10:00Z", "sla_due": "2024-05-06T12:10:00Z", "order_ref": None,
     "subject": "Scanner firmware update fails at 80%",
     "body": "Updating the HS-40 scanners to firmware 3.2.1 stops at 80% with error E-217 and the device "
             "reboots into 3.1.4. Happens on all 14 devices we tried.",
     "messages": []},
    {"id": "TCK-60452", "customer": "CUS-31877", "email": "pieter.devries@kpnmail.nl", "channel": "chat",
     "created": "2024-05-05T12:30:00Z", "sla_due": "2024-05-08T12:30:00Z", "order_ref": "ORD-2024-118902",
     "subject": "Still no refund??",
     "body": "I wrote two days ago about being charged twice and nobody answered.",
     "messages": []},
    {"id": "TCK-60457", "customer": "CUS-27719", "email": "claire.dubois@atelier-dubois.fr", "channel": "phone",
     "created": "2024-05-05T15:45:00Z", "sla_due": "2024-05-06T07:45:00Z", "order_ref": None,
     "subject": "SSO login broken for new users",
     "body": "Users we added to our Azure AD group since Saturday cannot sign in: they get 'user not "
             "provisioned'. Existing users are fine. 6 new hires are blocked.",
     "messages": []},
    {"id": "TCK-60463", "customer": "CUS-40266", "email": "t.nowak@poczta.onet.pl", "channel": "web",
     "created": "2024-05-05T19:02:00Z", "sla_due": "2024-05-08T19:02:00Z", "order_ref": "ORD-2024-118577",
     "subject": "Parcel delivered to wrong address",
     "body": "Tracking says delivered but not to my address. I never got the headset.",
     "messages": []},
    {"id": "TCK-60470", "customer": "CUS-18452", "email": "ana@ferreira-filhos.pt", "channel": "web",
     "created": "2024-05-06T06:48:00Z", "sla_due": "2024-05-09T06:48:00Z", "order_ref": None,
     "subject": "How to export order history to CSV",
     "body": "For our accountant: can I download all our orders of 2023 as a spreadsheet?",
     "messages": []},
    {"id": "TCK-60488", "customer": "CUS-20931", "email": "m.lindqvist@nordlicht-logistik.de", "channel": "email",
     "created": "2024-05-06T08:05:00Z", "sla_due": "2024-05-06T16:05:00Z", "order_ref": "ORD-2024-118734",
     "subject": "Re: Pallet scanners arrived damaged - order number",
     "body": "Sorry, I forgot the order number: the damaged scanners were on ORD-2024-118734, delivered on "
             "22 April (not the one from last week, those are fine).",
     "messages": []},
]
TICKET_BY_ID = {t["id"]: t for t in TICKETS}

KB = [
    {"article_id": "KB-1042", "title": "Damaged or defective items: replacement and refund", "updated": "2024-02-12",
     "words": "damaged defective broken cracked refund replacement credit"},
    {"article_id": "KB-1108", "title": "Refunds: how long they take and where they appear", "updated": "2024-03-30",
     "words": "refund charged twice duplicate charge card statement"},
    {"article_id": "KB-0977", "title": "Shipments held at customs (non-EU origin)", "updated": "2023-12-01",
     "words": "customs held shipping delay tracking where order"},
    {"article_id": "KB-1215", "title": "Account locked after password reset", "updated": "2024-04-18",
     "words": "login locked password reset expired link account access"},
    {"article_id": "KB-0861", "title": "Changing billing and invoice addresses", "updated": "2023-09-14",
     "words": "invoice address billing change moved"},
    {"article_id": "KB-1190", "title": "Exporting orders to CSV or Excel", "updated": "2024-04-02",
     "words": "export csv excel spreadsheet order history download"},
    {"article_id": "KB-1033", "title": "VAT reverse charge for registered businesses", "updated": "2024-01-22",
     "words": "vat invoice reverse charge registered business corrected invoice"},
    {"article_id": "KB-1251", "title": "SSO: provisioning new users from Azure AD / Okta", "updated": "2024-04-29",
     "words": "sso login provisioned azure okta new users saml"},
    {"article_id": "KB-0912", "title": "Wrong item or size: returns and exchanges", "updated": "2023-10-05",
     "words": "wrong size item exchange return"},
    {"article_id": "KB-1164", "title": "Parcel marked delivered but not received", "updated": "2024-03-08",
     "words": "delivered not received wrong address parcel claim carrier"},
    {"article_id": "KB-1229", "title": "HS-40 firmware update: known errors", "updated": "2024-05-02",
     "words": "firmware update hs-40 scanner error e-217 reboot"},
    {"article_id": "KB-1077", "title": "API rate limits and export endpoints", "updated": "2024-01-30",
     "words": "api export 500 error rate limit bulk endpoint"},
]

CATEGORIES = ["refund", "shipping", "bug", "access", "how-to", "billing", "duplicate"]
ESCALATION_TARGETS = ["engineering-l2", "identity", "account-management", "logistics"]
