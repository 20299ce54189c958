"""The world of the `crm-cleanup` session: a messy CRM customers table (420
rows) to clean before a migration. Planted: country names in many spellings
(and a region instead of a country), misspelled email domains, a few emails
that cannot be fixed, signup dates in five formats or missing, revenue as
numbers, decimal-comma strings or nil, and duplicate customers (same person
imported twice, with another id, spelling or email case), plus two different
people who share a name. Deterministic: tool.py and answers.py read it."""
import random

FIRST = ["Anna", "Lukas", "Maria", "Jonas", "Sofia", "Elias", "Lea", "Noah", "Emma", "Paul", "Mia", "Felix", "Clara",
         "Jan", "Laura", "David", "Sara", "Tim", "Nina", "Ben", "Julia", "Leon", "Eva", "Max", "Lena", "Tom", "Ida",
         "Oskar", "Zoe", "Karl", "Ines", "Hugo", "Marta", "Pedro", "Chloe", "Louis", "Giulia", "Marco", "Olivia", "Jack"]
LAST = ["Müller", "Schmidt", "García", "Rossi", "Dubois", "Novak", "Kowalski", "Jansen", "Smith", "Fischer",
        "Weber", "Martin", "López", "Bianchi", "Nielsen", "Larsen", "Horvat", "Wagner", "Brown", "Moreau",
        "Ferrari", "Becker", "Schulz", "Hoffmann", "Santos", "Silva", "Costa", "Peeters", "De Vries", "Bauer"]
COUNTRIES = {
    "DE": (["Germany", "Deutschland", "DE", "germany", "GER", "Germany ", "Bavaria"],
           ["Berlin", "Hamburg", "München", "Köln", "Leipzig"]),
    "FR": (["France", "FR", "france", "Frankreich"], ["Paris", "Lyon", "Lille"]),
    "ES": (["Spain", "España", "ES", "spain"], ["Madrid", "Barcelona", "Valencia"]),
    "IT": (["Italy", "Italia", "IT"], ["Milano", "Roma", "Torino"]),
    "NL": (["Netherlands", "The Netherlands", "Holland", "NL"], ["Amsterdam", "Utrecht"]),
    "GB": (["United Kingdom", "UK", "U.K.", "Great Britain", "England"], ["London", "Leeds", "Bristol"]),
    "AT": (["Austria", "Österreich", "AT"], ["Wien", "Graz"]),
    "PL": (["Poland", "Polska", "PL"], ["Warszawa", "Kraków"]),
}
DOMAINS = ["gmail.com", "gmail.com", "gmail.com", "web.de", "gmx.de", "outlook.com", "yahoo.com", "hotmail.com",
           "posteo.de", "orange.fr", "libero.it", "wp.pl", "proton.me"]
TYPO_DOMAINS = {"gmial.com": "gmail.com", "gmai.com": "gmail.com", "hotmial.com": "hotmail.com",
                "outlok.com": "outlook.com", "yahooo.com": "yahoo.com", "gmx.d": "gmx.de"}
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
N_PEOPLE = 392
REGION_ALIASES = {"Bavaria": "DE", "England": "GB"}


def ascii_fold(s):
    table = str.maketrans("üöäéíóáàçñÖÜÄ", "uoaeioaacnOUA")
    return s.translate(table)


def fmt_date(y, m, d, style):
    if style == 0:
        return "%04d-%02d-%02d" % (y, m, d)
    if style == 1:
        return "%02d/%02d/%04d" % (d, m, y)
    if style == 2:
        return "%d %s %04d" % (d, MONTHS[m - 1], y)
    if style == 3:
        return "%04d.%02d.%02d" % (y, m, d)
    return ""


def fmt_revenue(x, style):
    if style == 0:
        return x
    if style == 1:
        whole, dec = ("%.2f" % x).split(".")
        if len(whole) > 3:
            whole = whole[:-3] + "." + whole[-3:]
        return whole + "," + dec
    return None


def build():
    r = random.Random("crm")
    people = []
    used = set()
    for k in range(N_PEOPLE):
        while True:
            first, last = r.choice(FIRST), r.choice(LAST)
            if (first, last) not in used:
                used.add((first, last))
                break
        iso = r.choice(list(COUNTRIES) + ["DE", "DE", "FR", "ES", "GB"])
        spellings, cities = COUNTRIES[iso]
        people.append({"first": first, "last": last, "iso": iso, "city": r.choice(cities),
                       "domain": r.choice(DOMAINS), "spelling": r.choice(spellings),
                       "signup": (r.randint(2015, 2023), r.randint(1, 12), r.randint(1, 28)),
                       "revenue": round(r.uniform(20, 4800), 2)})
    # two different people who share a name (different city and email)
    twin = dict(people[17])
    twin.update(city=[c for c in COUNTRIES[twin["iso"]][1] if c != twin["city"]][0], domain="proton.me",
                signup=(2022, 6, 14), revenue=310.4)
    people.append(twin)
    rows = []
    ids = r.sample(range(1000, 12000), 460)
    for k, p in enumerate(people):
        local = "%s.%s" % (ascii_fold(p["first"]).lower(), ascii_fold(p["last"]).lower().replace(" ", ""))
        if k == len(people) - 1:
            local += "84"
        domain = p["domain"]
        if k % 23 == 5:
            domain = list(TYPO_DOMAINS)[k % len(TYPO_DOMAINS)]
        email = local + "@" + domain
        if k in (40, 212):
            email = local + " at " + domain  # not fixable
        if k == 301:
            email = ""
        name = "%s %s" % (p["first"], p["last"]) if k % 9 else "%s, %s" % (p["last"], p["first"])
        y, m, d = p["signup"]
        style = r.choice([0, 0, 0, 1, 1, 2, 3, 4]) if k % 31 else 4
        rows.append({"id": "C-%06d" % ids[k], "name": name, "email": email, "country": p["spelling"],
                     "city": p["city"], "signup": fmt_date(y, m, d, style),
                     "revenue": fmt_revenue(p["revenue"], r.choice([0, 0, 1, 2]) if k % 17 else 2),
                     "source": r.choice(["web", "shop", "web", "import-2019"]), "person": k})
    # duplicates: the same person imported again, with another id and small differences
    dups = []
    for j, k in enumerate(r.sample(range(N_PEOPLE), 28)):
        base = rows[k]
        p = people[k]
        twin = dict(base)
        twin["id"] = "C-%06d" % ids[N_PEOPLE + 1 + j]
        twin["source"] = "import-2019" if base["source"] != "import-2019" else "shop"
        variant = j % 4
        if variant == 0:
            twin["email"] = base["email"].upper() if base["email"] else base["email"]
        elif variant == 1:
            twin["name"] = "%s %s" % (ascii_fold(p["first"]), ascii_fold(p["last"]))
        elif variant == 2:
            twin["country"] = r.choice(COUNTRIES[p["iso"]][0])
        else:
            twin["name"] = twin["name"].upper()
        y, m, d = p["signup"]
        twin["signup"] = fmt_date(y + (1 if j % 3 == 0 else 0), m, d, j % 4)
        twin["revenue"] = fmt_revenue(round(r.uniform(15, 900), 2), j % 3)
        dups.append(twin)
    rows += dups
    r.shuffle(rows)
    return people, rows


PEOPLE, ALL = build()
ROWS = [{k: v for k, v in row.items() if k != "person"} for row in ALL]


def orders_revenue(customer_id):
    """Revenue in EUR per the order system (the truth; CRM's revenue column is stale)."""
    r = random.Random("orders:" + customer_id)
    n = r.randint(0, 14)
    return n, round(sum(r.uniform(12, 380) for _ in range(n)), 2)
