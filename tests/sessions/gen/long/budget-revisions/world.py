"""The world of the `budget-revisions` session: the Q3 2024 budget and the
ledgers of the Operations division's cost centres, the revisions posted
after the preliminary close, the treasury's GBP rates and the ledger
postings behind each line. Planted: two cost-centre ids one digit-swap apart
(Field Marketing CC-4471, Facilities Munich CC-4417, the latter out of
scope), a closing rate next to the average rate the scope asks for, revisions
that raise freight, credit cloud hosting, move a trade-fair cost between
accounts and accrue a bonus in the GBP cost centre (one line crosses the
threshold only after its revision), an unbudgeted travel line, and a submit
tool that checks cents and comments. Deterministic: tool.py and answers.py
read it."""
import random

QUARTER = "2024-Q3"
DIVISION = "Operations"
PRELIM_AS_OF = "2024-10-03"
FINAL_AS_OF = "2024-10-08"
BUDGET_VERSION = "B2024-v3"
FX = {("GBP", "EUR"): {"closing": (1.1862, "2024-09-30"), "average": (1.1794, "2024-07-01..2024-09-30")}}
THRESHOLD_PCT = 5.0
THRESHOLD_ABS_EUR = 25000.0

ACCOUNTS = {"6010": ("Salaries", "Personnel"), "6050": ("Temporary staff", "Personnel"),
            "6200": ("Events & trade fairs", "Marketing"), "6210": ("Advertising", "Marketing"),
            "6400": ("Freight & carriage", "Logistics"), "6420": ("Warehouse rent", "Facilities"),
            "6430": ("Energy", "Facilities"), "6440": ("Maintenance", "Facilities"),
            "6810": ("Cloud hosting", "IT"), "6820": ("Software licences", "IT"),
            "6830": ("Telephony", "IT"), "6900": ("Travel", "Other")}

COST_CENTRES = [
    {"cc_id": "CC-4410", "name": "Logistics Hamburg", "owner": "Birte Sommer", "currency": "EUR", "entity": "DE01"},
    {"cc_id": "CC-4412", "name": "Logistics Rotterdam", "owner": "Joost Bakker", "currency": "EUR", "entity": "NL02"},
    {"cc_id": "CC-4417", "name": "Facilities Munich", "owner": "Anton Huber", "currency": "EUR", "entity": "DE01"},
    {"cc_id": "CC-4471", "name": "Field Marketing", "owner": "Elena Rossi", "currency": "EUR", "entity": "DE01"},
    {"cc_id": "CC-4530", "name": "IT Operations", "owner": "Marek Kowalski", "currency": "EUR", "entity": "DE01"},
    {"cc_id": "CC-4602", "name": "Customer Service UK", "owner": "Hannah Price", "currency": "GBP", "entity": "UK03"},
    {"cc_id": "CC-4615", "name": "Fleet Services", "owner": "Ole Hansen", "currency": "EUR", "entity": "DE01"},
    {"cc_id": "CC-4702", "name": "Procurement", "owner": "Ines Vogel", "currency": "EUR", "entity": "DE01"},
]
CC_BY_ID = {c["cc_id"]: c for c in COST_CENTRES}
SCOPE = ["Logistics Hamburg", "Logistics Rotterdam", "Field Marketing", "IT Operations", "Customer Service UK"]

# cc -> account -> (budget, preliminary actual); None budget: not budgeted
LINES = {
    "CC-4410": {"6010": (412000, 418245.10), "6050": (58000, 71930.55), "6400": (640000, 695060.40),
                "6420": (186000, 186000.00), "6900": (12000, 10884.20)},
    "CC-4412": {"6010": (298000, 301118.00), "6050": (41000, 38402.75), "6400": (455000, 471890.15),
                "6420": (142500, 142500.00), "6900": (9500, 8710.30)},
    "CC-4417": {"6010": (96000, 95220.00), "6420": (210000, 210000.00), "6430": (64000, 93880.25),
                "6440": (38000, 41310.00)},
    "CC-4471": {"6010": (185000, 183400.00), "6200": (120000, 158720.00), "6210": (240000, 201455.90),
                "6900": (31000, 36880.45)},
    "CC-4530": {"6010": (356000, 349870.00), "6810": (210000, 262340.75), "6820": (148000, 176905.00),
                "6900": (None, 7412.60)},
    "CC-4602": {"6010": (268000, 271450.00), "6050": (22000, 30880.00), "6830": (18500, 17240.00),
                "6900": (4000, 3150.00)},
    "CC-4615": {"6010": (120000, 118300.00), "6400": (88000, 90120.40)},
    "CC-4702": {"6010": (144000, 143010.00), "6900": (8000, 6220.15)},
}

REVISIONS = [
    {"rev_id": "REV-7731", "cc_id": "CC-4410", "account": "6400", "delta": 41250.00, "posted_at": "2024-10-04",
     "reason": "accrual: September carrier invoices (Kuehne+Nagel) received after the cut-off"},
    {"rev_id": "REV-7733", "cc_id": "CC-4412", "account": "6400", "delta": 16400.00, "posted_at": "2024-10-04",
     "reason": "accrual: Rotterdam port handling surcharge for Q3"},
    {"rev_id": "REV-7735", "cc_id": "CC-4417", "account": "6430", "delta": -4200.00, "posted_at": "2024-10-07",
     "reason": "meter reading correction, September"},
    {"rev_id": "REV-7736", "cc_id": "CC-4530", "account": "6810", "delta": -18400.00, "posted_at": "2024-10-07",
     "reason": "credit note: July over-billing of reserved instances"},
    {"rev_id": "REV-7738", "cc_id": "CC-4471", "account": "6200", "delta": -12500.00, "posted_at": "2024-10-07",
     "reason": "reclass to 6210: trade-fair booth branding is advertising"},
    {"rev_id": "REV-7739", "cc_id": "CC-4471", "account": "6210", "delta": 12500.00, "posted_at": "2024-10-07",
     "reason": "reclass from 6200: trade-fair booth branding is advertising"},
    {"rev_id": "REV-7742", "cc_id": "CC-4602", "account": "6010", "delta": 21900.00, "posted_at": "2024-10-08",
     "reason": "accrual: Q3 team bonus"},
    {"rev_id": "REV-7744", "cc_id": "CC-4615", "account": "6400", "delta": 2310.00, "posted_at": "2024-10-08",
     "reason": "fuel surcharge, September"},
]


def budget_lines(cc):
    return [{"account": a, "name": ACCOUNTS[a][0], "group": ACCOUNTS[a][1], "amount": float(b)}
            for a, (b, _) in LINES[cc].items() if b is not None]


def actual_lines(cc, final):
    out = []
    for a, (_, actual) in LINES[cc].items():
        amount = actual
        if final:
            amount = round(amount + sum(r["delta"] for r in REVISIONS if r["cc_id"] == cc and r["account"] == a), 2)
        out.append({"account": a, "name": ACCOUNTS[a][0], "group": ACCOUNTS[a][1], "amount": amount,
                    "postings": len(postings(cc, a))})
    return out


VENDORS = {"6400": ["Kuehne+Nagel", "DB Schenker", "DSV", "Dachser", "Rhenus"],
           "6810": ["AWS EMEA", "Hetzner Online", "Cloudflare", "Google Cloud EMEA"],
           "6820": ["Atlassian", "Microsoft Ireland", "JetBrains", "Datadog", "Salesforce"],
           "6200": ["Messe Muenchen", "Koelnmesse", "Expo Events BV", "Standbau Kraus"],
           "6210": ["Google Ads", "LinkedIn Ireland", "Stroeer", "Meta Platforms Ireland"],
           "6430": ["Stadtwerke Muenchen", "E.ON Energie"], "6440": ["Kone", "Caverion", "Piepenbrock"],
           "6010": ["Payroll"], "6050": ["Randstad", "Adecco", "Hays"], "6420": ["Hafen Immobilien", "Prologis"],
           "6830": ["BT Business", "Vodafone UK"], "6900": ["Lufthansa", "Deutsche Bahn", "Booking.com", "KLM"]}


def postings(cc, account):
    """The ledger postings of a preliminary line: deterministic, summing to the amount."""
    total = LINES[cc][account][1]
    r = random.Random("%s:%s" % (cc, account))
    n = 3 if account in ("6010", "6420") else r.randint(9, 24)
    weights = [r.uniform(0.3, 1.7) for _ in range(n)]
    amounts = [round(total * x / sum(weights), 2) for x in weights]
    amounts[-1] = round(total - sum(amounts[:-1]), 2)
    vendors = VENDORS[account]
    out = []
    for k, amount in enumerate(amounts):
        month = 7 + k * 3 // n
        day = 1 + r.randrange(28)
        vendor = vendors[r.randrange(len(vendors))] if k else vendors[0]
        out.append({"posting_id": "JE-%s-%04d" % (cc[3:], r.randrange(1, 9999)),
                    "date": "2024-%02d-%02d" % (month, day), "vendor": vendor, "amount": amount,
                    "text": "%s %s" % (ACCOUNTS[account][0].lower(), vendor)})
    # the planted drivers: the largest posting of a few lines
    top = max(out, key=lambda p: p["amount"])
    if (cc, account) == ("CC-4410", "6400"):
        top.update(vendor="Kuehne+Nagel", text="Q3 rate increase: diesel and toll surcharge")
    if (cc, account) == ("CC-4530", "6810"):
        top.update(vendor="AWS EMEA", text="reserved instances renewal July (billed twice)")
    if (cc, account) == ("CC-4471", "6200"):
        top.update(vendor="Messe Muenchen", text="transport logistic 2024: booth and branding")
    if (cc, account) == ("CC-4530", "6820"):
        top.update(vendor="Datadog", text="annual plan true-up: hosts over commitment")
    return sorted(out, key=lambda p: p["date"])


def fmt_ok(x):
    return abs(round(x, 2) - x) < 1e-9
