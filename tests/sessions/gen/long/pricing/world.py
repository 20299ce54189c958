"""The world of the `price-reconciliation` session: an outdoor catalogue
whose web shop prices drifted from the ERP price list. Causes planted: the
shop converts with a stale USD->EUR rate (0.9312 instead of 0.9173), a spring
promotion (legitimate), an expired promotion still applied, ERP list prices
raised on 2024-04-01 and not synced, three typos, products the ERP
discontinued, two new ERP products not yet in the shop, and prices imported
as strings with a decimal comma. Deterministic: tool.py and answers.py read it."""
import random

STALE_RATE = 0.9312
RATE = 0.9173
RATE_DATE = "2024-04-02"
PRICE_LIST = "PL-2024-Q2-OUT"
MIN_MARGIN = 0.18

NOUNS = ["Trail tent 2P", "Trail tent 3P", "Ultralight tarp", "Down sleeping bag -5C", "Synthetic sleeping bag 0C",
         "Sleeping pad R4", "Inflatable pillow", "Trekking poles carbon", "Trekking poles alu", "Headlamp 400 lm",
         "Headlamp 800 lm", "Gas stove compact", "Titanium pot 750 ml", "Water filter squeeze", "Daypack 22 L",
         "Backpack 45 L", "Backpack 65 L", "Rain jacket 3L", "Softshell jacket", "Fleece midlayer",
         "Merino base layer", "Hiking boots GTX", "Trail runners", "Gaiters", "Camp chair", "Camp table",
         "Cooler box 25 L", "Hammock single", "Bear canister", "First aid kit", "GPS watch", "Satellite messenger",
         "Climbing harness", "Belay device", "Carabiner set", "Helmet", "Chalk bag", "Rope 60 m", "Crampons",
         "Ice axe", "Snowshoes", "Avalanche beacon", "Probe 240 cm", "Shovel alu", "Ski skins",
         "Thermal bottle 1 L", "Dry bag 20 L", "Packable down vest", "Sun hoodie", "Bucket hat",
         "Compass", "Map case", "Solar panel 21 W", "Power bank 20000", "Camp lantern", "Multi-tool"]
TYPICAL_USD = [249, 329, 119, 389, 149, 129, 29, 169, 79, 45, 79, 49, 59, 39, 89, 219, 289, 279, 169, 89,
               79, 229, 149, 39, 69, 79, 119, 59, 89, 39, 399, 349, 69, 35, 49, 79, 19, 229, 169, 129, 249, 329, 59,
               55, 139, 39, 25, 129, 59, 29, 29, 19, 199, 49, 39, 79]
SUPPLIERS = ["SUP-118", "SUP-124", "SUP-131", "SUP-140", "SUP-152", "SUP-167"]


def _r(*key):
    return random.Random(":".join(map(str, key)))


def cents(x):
    return float("%.2f" % x)


def build():
    r = _r("catalogue")
    skus = sorted(r.sample(range(40100, 40999), 110))
    items = []
    for k, n in enumerate(skus):
        base = NOUNS[k % len(NOUNS)] + ("" if k < len(NOUNS) else " II")
        typical = TYPICAL_USD[k % len(NOUNS)] * (1.0 if k < len(NOUNS) else 1.15)
        list_usd = cents(round(typical * r.uniform(0.9, 1.1)) - r.choice([0.0, 0.05, 0.1, 1.0]))
        items.append({"sku": "OUT-%d" % n, "name": base, "supplier": SUPPLIERS[k % len(SUPPLIERS)],
                      "list_usd": list_usd, "prev_usd": None, "status": "active"})
    # roles
    rr = _r("roles")
    pool = list(range(len(items)))
    rr.shuffle(pool)
    roles = {}
    take = lambda n: [pool.pop() for _ in range(n)]  # noqa: E731
    for i in take(7):
        roles[i] = "promo"
    roles[take(1)[0]] = "expired-promo"
    for i in take(4):
        roles[i] = "erp-raised"
    roles[take(1)[0]] = "erp-raised-synced"
    for i in take(3):
        roles[i] = "typo"
    for i in take(6):
        roles[i] = "discontinued"
    for i in take(2):
        roles[i] = "new-in-erp"
    for i in take(5):
        roles.setdefault(i, "comma-string")
    return items, roles


ITEMS, ROLES = build()


def role(sku):
    for i, it in enumerate(ITEMS):
        if it["sku"] == sku:
            return ROLES.get(i, "plain")
    return None


def erp_items():
    """The price list: every active item (new ones too), raised ones with prev_usd."""
    out = []
    for i, it in enumerate(ITEMS):
        role = ROLES.get(i)
        if role == "discontinued":
            continue
        row = dict(it)
        if role in ("erp-raised", "erp-raised-synced"):
            row["prev_usd"] = it["list_usd"]
            row["list_usd"] = cents(it["list_usd"] * (1.07 + 0.02 * (i % 3)))
        row.pop("status")
        out.append(row)
    return out


ERP = erp_items()
ERP_BY_SKU = {e["sku"]: e for e in ERP}


def supplier_cost_usd(sku):
    it = next(x for x in ITEMS if x["sku"] == sku)
    e = ERP_BY_SKU.get(sku)
    price = e["list_usd"] if e else it["list_usd"]
    if role(sku) in ("erp-raised", "erp-raised-synced"):
        return cents(price * 0.80)  # the supplier raised its price: the reason for the new list price
    return cents(price * (0.62 + 0.08 * (int(sku[-1]) % 3) / 2))


def comma(x):
    whole, dec = ("%.2f" % x).split(".")
    if len(whole) > 3:
        whole = whole[:-3] + "." + whole[-3:]
    return whole + "," + dec


PROMOS = {"SPRING15": {"code": "SPRING15", "discount_pct": 15, "starts": "2024-03-20", "ends": "2024-04-30",
                       "active": True},
          "WINTER10": {"code": "WINTER10", "discount_pct": 10, "starts": "2023-12-01", "ends": "2024-03-01",
                       "active": False}}


def shop_items():
    out = []
    for i, it in enumerate(ITEMS):
        role = ROLES.get(i, "plain")
        if role == "new-in-erp":
            continue
        usd = it["list_usd"]
        if role == "erp-raised-synced":
            usd = ERP_BY_SKU[it["sku"]]["list_usd"]
        price = cents(usd * STALE_RATE)
        promo = None
        if role == "promo":
            promo = "SPRING15"
            price = cents(price * 0.85)
        if role == "expired-promo":
            promo = "WINTER10"
            price = cents(price * 0.90)
        if role == "typo":
            price = cents(price / 10) if i % 2 else cents(price * 10)
        value = comma(price) if role == "comma-string" else price
        out.append({"sku": it["sku"], "title": it["name"], "price_eur": value, "promo": promo,
                    "updated_at": "2024-01-15" if role != "erp-raised-synced" else "2024-04-01"})
    return out


SHOP = shop_items()


def skus_with(role_name):
    return [ITEMS[i]["sku"] for i in sorted(ROLES) if ROLES[i] == role_name]


def expected_eur(sku, rate=RATE):
    e = ERP_BY_SKU[sku]
    return cents(e["list_usd"] * rate)


TICKET_START = 5510
