"""The world of the `returns-desk` session: the open return and warranty
cases of Velora Versand GmbH, a European online shop for home appliances and
electronics (DE, AT, FR, CH), in the week of 2024-11-18..22, with the orders
behind them, the carriers' tracking, the returns policy and the stock.

Planted: most orders were paid with a voucher, which the policy shares out
over the order's lines, so a refund at the list price pays too much; a TV
refund is above the desk's 1000 EUR limit and needs a team lead; a Swiss
customer, Jürgen Weiss of Zürich (who calls his Barista 720 "Barista Pro"),
has a near namesake, Jürgen Weiß of Berlin, who bought the Barista Pro 920 in
the same week; Swiss returns go by Post CH, not DHL; Hanna Bauer quotes the
tracking number of her delivery, not of her return parcel (the two differ in
the last three digits); two look-alike customers in France (Zoë Lefèvre of
Lyon and Zoé Lefebvre of Bordeaux) have the black and the blue headphones
(KW-HP500-BK and KW-HP500-BL); a grinder is discontinued (refund instead of
a replacement); a warranty claim is two months past 24 months; one parcel
lies at a DHL hub; one customer has a PayPal dispute open; one case is a
duplicate. Deterministic: tool.py and answers.py read it."""

SHOP = "Velora Versand GmbH"
AS_OF = "2024-11-22"
NOW = "2024-11-22T10:15:00+01:00"
WEEK = "2024-11-18..2024-11-22"
PAGE_SIZE = 20
RETURNS_CENTRE = {"name": "Velora Retourenzentrum", "street": "Am Exer 9", "postcode": "04158", "city": "Leipzig",
                  "country": "DE"}
LIMITS = {"EUR": 1000.0, "CHF": 1000.0}


# --- money as the shop prints it -------------------------------------------------------------------

def _group(x, sep):
    whole, frac = ("%.2f" % x).split(".")
    out = ""
    while len(whole) > 3:
        out = sep + whole[-3:] + out
        whole = whole[:-3]
    return whole + out, frac


def money(x, country):
    """An amount as the shop of `country` formats it."""
    neg = x < 0
    x = abs(x)
    if country == "CH":
        whole, frac = _group(x, "'")
        s = "CHF %s.%s" % (whole, "–" if frac == "00" else frac)
    elif country == "AT":
        whole, frac = _group(x, ".")
        s = "€ %s,%s" % (whole, frac)
    elif country == "FR":
        whole, frac = _group(x, "\u202f")
        s = "%s,%s €" % (whole, frac)
    else:
        whole, frac = _group(x, ".")
        s = "%s,%s €" % (whole, frac)
    return ("-" if neg else "") + s


def ean13(base12):
    digits = [int(c) for c in base12]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return base12 + str(check)


def iban(country, bban):
    """A valid IBAN (mod 97) for a BBAN of digits, grouped by four."""
    num = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(num) % 97
    s = "%s%02d%s" % (country, check, bban)
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


# --- products --------------------------------------------------------------------------------------

# sku -> (name, EAN base, EUR price, CHF price, weight kg)
PRODUCTS = {
    "VL-ESP-920": ("Velora Barista Pro 920 Siebträgermaschine", "426057183001", 1299.00, 1249.00, 12.4),
    "VL-ESP-720": ("Velora Barista 720 Siebträgermaschine", "426057183002", 899.00, 849.00, 10.9),
    "KW-HP500-BK": ("Klangwerk KW-500 Over-Ear-Kopfhörer, schwarz", "426057183014", 129.99, 139.00, 0.4),
    "KW-HP500-BL": ("Klangwerk KW-500 Over-Ear-Kopfhörer, blau", "426057183015", 129.99, 139.00, 0.4),
    "NV-TV55-Q7": ("Nordvik Q7 55\" QLED-Fernseher", "426057183021", 1549.00, 1499.00, 18.2),
    "BR-SAUG-X3": ("Brisa X3 Saugroboter mit Wischfunktion", "426057183033", 499.00, 479.00, 4.1),
    "HF-WK17-SW": ("Hofmann Wasserkocher 1,7 l, schwarz", "426057183040", 49.90, 54.90, 1.3),
    "KM-MX600": ("Küchenmeister MX600 Küchenmaschine", "426057183057", 389.00, 399.00, 8.7),
    "LM-STH-400": ("Lumen Stehleuchte STH-400, Messing", "426057183064", 159.00, 169.00, 6.2),
    "GR-KAFF-M2": ("Grano M2 Kaffeemühle, Kegelmahlwerk", "426057183071", 119.00, 129.00, 2.2),
    "BT-SPK-MINI": ("Klangwerk Mini Bluetooth-Lautsprecher", "426057183088", 79.99, 84.90, 0.6),
    "DY-FOEHN-H1": ("Aeris H1 Haartrockner", "426057183095", 229.00, 239.00, 0.8),
    "AIR-PUR-300": ("Purio 300 Luftreiniger mit HEPA-Filter", "426057183101", 279.00, 289.00, 7.5),
    "BK-SET-12": ("Besteckset Nordlys 24-teilig", "426057183118", 89.90, 94.90, 2.0),
    "PF-GUSS-28": ("Gusseisenpfanne 28 cm", "426057183125", 74.95, 79.90, 3.4),
    "SM-WATCH-S2": ("Pulso S2 Smartwatch", "426057183132", 249.00, 259.00, 0.2),
    "EB-BIKE-HELM": ("Velo Urban Fahrradhelm M", "426057183149", 69.90, 74.90, 0.5),
    "TX-BETT-200": ("Satin-Bettwäsche 200 x 200 cm, anthrazit", "426057183156", 59.95, 64.90, 1.6),
}
EAN = {sku: ean13(p[1]) for sku, p in PRODUCTS.items()}

# sku -> (status, {warehouse: qty}, next inbound, substitute)
STOCK = {
    "KW-HP500-BK": ("active", {"Leipzig": 4, "Straßburg": 0, "Dietikon": 0}, "2024-12-09", None),
    "KW-HP500-BL": ("active", {"Leipzig": 31, "Straßburg": 6, "Dietikon": 2}, None, None),
    "GR-KAFF-M2": ("discontinued", {"Leipzig": 0, "Straßburg": 0, "Dietikon": 0}, None, None),
    "HF-WK17-SW": ("active", {"Leipzig": 12, "Straßburg": 0, "Dietikon": 3}, None, None),
    "KM-MX600": ("active", {"Leipzig": 7, "Straßburg": 1, "Dietikon": 0}, None, None),
    "BT-SPK-MINI": ("active", {"Leipzig": 58, "Straßburg": 9, "Dietikon": 4}, None, None),
}
WAREHOUSE_FOR = {"DE": "Leipzig", "AT": "Leipzig", "FR": "Straßburg", "CH": "Dietikon"}

# --- customers -------------------------------------------------------------------------------------

# key -> name, email, phone, street, postcode, city, country, lang, payment
CUSTOMERS = {
    "vogt": ("Katrin Vogt", "katrin.vogt@posteo.de", "+49 40 5503172", "Eppendorfer Weg 211", "20253", "Hamburg",
             "DE", "de", ("SEPA-Lastschrift", iban("DE", "200400600628473511"))),
    "bauer": ("Hanna Bauer", "hanna.bauer@web.de", "+49 341 2258813", "Karl-Liebknecht-Straße 87", "04275",
              "Leipzig", "DE", "de", ("SEPA-Lastschrift", iban("DE", "860555920091230447"))),
    "jansen": ("Ole Jansen", "ole.jansen@gmail.com", "+49 431 6619024", "Holtenauer Straße 154", "24105", "Kiel",
               "DE", "de", ("PayPal", "ole.jansen@gmail.com")),
    "durand": ("Camille Durand", "camille.durand@orange.fr", "+33 1 43 57 21 90", "48 rue Oberkampf", "75011",
               "Paris", "FR", "fr", ("Carte bancaire", "CB •••• 7730")),
    "yilmaz": ("Mehmet Yılmaz", "m.yilmaz@t-online.de", "+49 221 9934518", "Venloer Straße 312", "50823", "Köln",
               "DE", "de", ("SEPA-Lastschrift", iban("DE", "370501980019284735"))),
    "lefevre": ("Zoë Lefèvre", "zoe.lefevre@free.fr", "+33 4 78 62 15 09", "27 rue Paul Bert", "69003", "Lyon",
                "FR", "fr", ("Carte bancaire", "CB •••• 4102")),
    "gruber": ("Verena Gruber", "verena.gruber@gmx.at", "+43 1 5231847", "Neubaugasse 64", "1070", "Wien", "AT", "de",
               ("eps-Überweisung", iban("AT", "2011182931004471"))),
    "hoffmann": ("Anja Hoffmann", "anja.hoffmann@mailbox.org", "+49 351 4827730", "Louisenstraße 52", "01099",
                 "Dresden", "DE", "de", ("PayPal", "anja.hoffmann@mailbox.org")),
    "grant": ("Oliver Grant", "oliver.grant@fastmail.com", "+49 30 44031877", "Kastanienallee 19", "10435", "Berlin",
              "DE", "en", ("Kreditkarte", "Visa •••• 4417")),
    "krueger": ("Sabine Krüger", "s.krueger@web.de", "+49 89 21936640", "Westendstraße 98", "80339", "München", "DE",
                "de", ("PayPal", "s.krueger@web.de")),
    "nowak": ("Felix Nowak", "felix.nowak@gmx.de", "+49 711 2460193", "Hauptstätter Straße 61", "70178",
              "Stuttgart", "DE", "de", ("SEPA-Lastschrift", iban("DE", "600501010002748813"))),
    "martin": ("Hugo Martin", "hugo.martin@laposte.net", "+33 3 20 57 44 81", "12 rue Gambetta", "59000", "Lille",
               "FR", "fr", ("SEPA", iban("FR", "3000400828000104417318"))),
    "maass": ("Rüdiger Maaß", "r.maass@htp-tel.de", "+49 511 3387205", "Lister Meile 33", "30161", "Hannover", "DE",
              "de", ("Rechnung", iban("DE", "250501800910442871"))),
    "keller": ("Nadine Keller", "nadine.keller@bluewin.ch", "+41 31 3112640", "Lorrainestrasse 18", "3013", "Bern",
               "CH", "de", ("PostFinance", iban("CH", "09000000304421907"))),
    "wagner": ("Sophie Wagner", "sophie.wagner@icloud.com", "+49 30 6129384", "Boxhagener Straße 27", "10245",
               "Berlin", "DE", "de", ("Kreditkarte", "Mastercard •••• 0381")),
    "murphy": ("Sean Murphy", "sean.murphy@outlook.com", "+43 660 4127795", "Praterstraße 41", "1020", "Wien", "AT",
               "en", ("Kreditkarte", "Visa •••• 9926")),
    "lang": ("Petra Lang", "petra.lang@gmx.net", "+49 911 3304125", "Bucher Straße 74", "90419", "Nürnberg", "DE",
             "de", ("SEPA-Lastschrift", iban("DE", "760501010011938264"))),
    "engel": ("Markus Engel", "markus.engel@arcor.de", "+49 211 8873016", "Kölner Straße 148", "40227", "Düsseldorf",
              "DE", "de", ("Kreditkarte", "Visa •••• 2208")),
    "lefebvre": ("Zoé Lefebvre", "zoe.lefebvre@gmail.com", "+33 5 56 81 37 22", "14 cours Victor Hugo", "33000",
                 "Bordeaux", "FR", "fr", ("PayPal", "zoe.lefebvre@gmail.com")),
    "schaefer": ("Lukas Schäfer", "lukas.schaefer@posteo.de", "+49 69 94418207", "Berger Straße 166", "60385",
                 "Frankfurt am Main", "DE", "de", ("PayPal", "lukas.schaefer@posteo.de")),
    "huber": ("Florian Huber", "florian.huber@aon.at", "+43 316 718254", "Annenstraße 23", "8020", "Graz", "AT", "de",
              ("Kreditkarte", "Mastercard •••• 6654")),
    "wolff": ("Dennis Wolff", "d.wolff@gmx.de", "+49 234 5420917", "Alleestraße 81", "44793", "Bochum", "DE", "de",
              ("PayPal", "d.wolff@gmx.de")),
    "nair": ("Priya Nair", "priya.nair@proton.me", "+49 89 54328810", "Tumblingerstraße 12", "80337", "München",
             "DE", "en", ("Kreditkarte", "Amex •••• 1009")),
    "richter": ("Paul Richter", "paul.richter@freenet.de", "+49 341 9124406", "Zschochersche Straße 40", "04229",
                "Leipzig", "DE", "de", ("SEPA-Lastschrift", iban("DE", "860400410147558290"))),
    "weiss_ch": ("Jürgen Weiss", "j.weiss@bluewin.ch", "+41 79 412 33 08", "Badenerstrasse 120", "8004", "Zürich",
                 "CH", "de", ("TWINT", "+41 79 412 33 08")),
    "weiss_de": ("Jürgen Weiß", "juergen.weiss@gmx.de", "+49 30 901820", "Invalidenstraße 44", "10115", "Berlin",
                 "DE", "de", ("SEPA-Lastschrift", iban("DE", "100100100827364512"))),
    "koehler": ("Jana Köhler", "jana.koehler@web.de", "+49 421 6930418", "Ostertorsteinweg 70", "28203", "Bremen",
                "DE", "de", ("PayPal", "jana.koehler@web.de")),
    "rousseau": ("Élodie Rousseau", "elodie.rousseau@sfr.fr", "+33 2 40 89 16 53", "5 quai de la Fosse", "44000",
                 "Nantes", "FR", "fr", ("Carte bancaire", "CB •••• 5561")),
}
VAT = {"DE": 19.0, "AT": 20.0, "FR": 20.0, "CH": 8.1}
SHIPPING = {"DE": 4.95, "AT": 5.95, "FR": 6.90, "CH": 9.90}

# --- orders ----------------------------------------------------------------------------------------

# order -> customer, placed, lines [(sku, qty)], voucher (code, kind, value) or None, carrier, tracking,
# shipped, delivered (None: not delivered)
ORDERS = {
    "ORD-DE-4468810": ("vogt", "2024-10-21", [("KM-MX600", 1), ("BK-SET-12", 1)], None, "dhl",
                       "JJD000224911764208", "2024-10-22", "2024-10-23"),
    "ORD-DE-4467342": ("bauer", "2024-10-25", [("BR-SAUG-X3", 1)], None, "dhl", "JJD000224911870366",
                       "2024-10-28", "2024-10-29"),
    "ORD-DE-4466021": ("jansen", "2024-09-30", [("LM-STH-400", 1)], None, "dhl", "JJD000224911502917",
                       "2024-10-01", "2024-10-02"),
    "ORD-FR-2210457": ("durand", "2024-10-24", [("AIR-PUR-300", 1)], ("BIENVENUE10", "percent", 10), "colissimo",
                       "6A23817465029", "2024-10-25", "2024-10-28"),
    "ORD-DE-4469377": ("yilmaz", "2024-10-26", [("NV-TV55-Q7", 1)], ("BLACKWEEK10", "percent", 10), "ups",
                       "1Z4A7W916803391225", "2024-10-28", "2024-10-29"),
    "ORD-FR-2208126": ("lefevre", "2024-03-11", [("KW-HP500-BK", 1)], None, "colissimo", "6A22940518377",
                       "2024-03-12", "2024-03-14"),
    "ORD-AT-0871264": ("gruber", "2024-10-25", [("DY-FOEHN-H1", 1), ("BK-SET-12", 1)], ("WIEN20", "fixed", 20.0),
                       "dhl", "JJD000224911889530", "2024-10-28", "2024-10-30"),
    "ORD-DE-4452290": ("hoffmann", "2024-05-20", [("GR-KAFF-M2", 1)], None, "dhl", "JJD000224910377164",
                       "2024-05-21", "2024-05-22"),
    "ORD-DE-4470032": ("grant", "2024-10-30", [("BT-SPK-MINI", 2)], None, "dhl", "JJD000224911921148",
                       "2024-10-31", "2024-11-01"),
    "ORD-DE-4470415": ("krueger", "2024-11-01", [("SM-WATCH-S2", 1), ("EB-BIKE-HELM", 1)],
                       ("HERBST15", "percent", 15), "dhl", "JJD000224911957702", "2024-11-02", "2024-11-04"),
    "ORD-DE-4459931": ("nowak", "2024-07-08", [("HF-WK17-SW", 1)], None, "dhl", "JJD000224910921655",
                       "2024-07-09", "2024-07-10"),
    "ORD-FR-2210893": ("martin", "2024-11-02", [("PF-GUSS-28", 1)], None, "colissimo", "6A23819027346",
                       "2024-11-04", "2024-11-06"),
    "ORD-DE-3917204": ("maass", "2022-09-10", [("KM-MX600", 1)], None, "dhl", "JJD000224903318826",
                       "2022-09-12", "2022-09-14"),
    "ORD-CH-0339120": ("keller", "2024-10-28", [("LM-STH-400", 1)], None, "post-ch", "99.60.103847.20451290",
                       "2024-10-29", "2024-10-31"),
    "ORD-DE-4470788": ("wagner", "2024-11-05", [("AIR-PUR-300", 1)], None, "dhl", "JJD000224911932207",
                       "2024-11-06", None),
    "ORD-AT-0869955": ("murphy", "2024-10-08", [("SM-WATCH-S2", 1)], None, "dhl", "JJD000224911633480",
                       "2024-10-09", "2024-10-11"),
    "ORD-DE-4471108": ("lang", "2024-11-03", [("BR-SAUG-X3", 1)], ("NEUKUNDE25", "fixed", 25.0), "dhl",
                       "JJD000224911968813", "2024-11-04", "2024-11-05"),
    "ORD-DE-4471955": ("engel", "2024-11-14", [("KM-MX600", 1)], None, "ups", "1Z999AA10123456784", "2024-11-15",
                       "2024-11-19"),
    "ORD-FR-2211304": ("lefebvre", "2024-11-08", [("KW-HP500-BL", 1)], None, "colissimo", "6A23826641098",
                       "2024-11-09", "2024-11-12"),
    "ORD-DE-4471590": ("schaefer", "2024-11-06", [("EB-BIKE-HELM", 1), ("TX-BETT-200", 1)], None, "dhl",
                       "JJD000224912001376", "2024-11-07", "2024-11-08"),
    "ORD-AT-0871702": ("huber", "2024-10-31", [("AIR-PUR-300", 1)], None, "dhl", "JJD000224911940551",
                       "2024-11-04", "2024-11-05"),
    "ORD-DE-4469920": ("wolff", "2024-10-27", [("SM-WATCH-S2", 1), ("BT-SPK-MINI", 1)], None, "dhl",
                       "JJD000224911877015", "2024-10-29", "2024-10-30"),
    "ORD-DE-4471833": ("nair", "2024-11-09", [("TX-BETT-200", 2)], None, "dhl", "JJD000224912019942",
                       "2024-11-11", "2024-11-12"),
    "ORD-DE-4472230": ("richter", "2024-11-15", [("BT-SPK-MINI", 1)], None, "dhl", "JJD000224912048817",
                       "2024-11-18", "2024-11-20"),
    "ORD-CH-0340577": ("weiss_ch", "2024-10-30", [("VL-ESP-720", 1)], None, "post-ch", "99.60.103847.20488136",
                       "2024-10-31", "2024-11-04"),
    "ORD-DE-4471203": ("weiss_de", "2024-11-02", [("VL-ESP-920", 1)], None, "dhl", "JJD000224911979264",
                       "2024-11-04", "2024-11-05"),
    "ORD-DE-4472016": ("koehler", "2024-11-12", [("BK-SET-12", 1)], None, "dhl", "JJD000224912030460",
                       "2024-11-13", "2024-11-14"),
    "ORD-FR-2211788": ("rousseau", "2024-11-10", [("DY-FOEHN-H1", 1)], None, "colissimo", "6A23829155870",
                       "2024-11-12", "2024-11-14"),
}


def order_currency(no):
    return "CHF" if CUSTOMERS[ORDERS[no][0]][6] == "CH" else "EUR"


def unit_price(no, sku):
    p = PRODUCTS[sku]
    return p[3] if order_currency(no) == "CHF" else p[2]


def order_amounts(no):
    """subtotal, voucher amount (positive), shipping, total."""
    cust, _, lines, voucher, *_ = ORDERS[no]
    sub = round(sum(unit_price(no, s) * q for s, q in lines), 2)
    vam = 0.0
    if voucher:
        vam = round(sub * voucher[2] / 100.0, 2) if voucher[1] == "percent" else voucher[2]
    ship = SHIPPING[CUSTOMERS[cust][6]] if sub < 50 else 0.0
    return sub, vam, ship, round(sub - vam + ship, 2)


# --- returns already under way (labels issued before this week) -------------------------------------

# case -> (carrier, return tracking, issued, dropped off, received at the returns centre or None)
RETURN_LABELS = {
    "RMA-2024-118702": ("dhl", "JJD000224912107735", "2024-11-04", "2024-11-11", "2024-11-14"),
    "RMA-2024-118709": ("colissimo", "8R00412379185", "2024-11-06", "2024-11-08", "2024-11-15"),
    "RMA-2024-118711": ("ups", "1Z4A7W919004418377", "2024-11-07", "2024-11-13", "2024-11-18"),
    "RMA-2024-118716": ("dhl", "JJD000224912121904", "2024-11-08", "2024-11-14", "2024-11-19"),
    "RMA-2024-118720": ("dhl", "JJD000224912139617", "2024-11-11", "2024-11-15", "2024-11-18"),
    "RMA-2024-118723": ("dhl", "JJD000224912150089", "2024-11-12", "2024-11-16", "2024-11-20"),
    "RMA-2024-118727": ("colissimo", "8R00412395046", "2024-11-12", "2024-11-14", "2024-11-20"),
    "RMA-2024-118731": ("post-ch", "99.60.103847.20530714", "2024-11-08", "2024-11-14", "2024-11-19"),
    "RMA-2024-118738": ("dhl", "JJD000224912168452", "2024-11-13", "2024-11-18", "2024-11-21"),
}
# Hanna Bauer's return parcel: the paper label in the box (no label issued by the desk)
BAUER_RETURN = ("dhl", "JJD000224911870379", "2024-11-09", "2024-11-12")

# --- the cases -------------------------------------------------------------------------------------

# case id -> opened, reason, customer key, order ref as given (or ""), returned lines [(sku, qty)], messages
# [(at, from, text)], attachments [(file, description)]
CASES = {
    "RMA-2024-118702": ("2024-11-04", "return", "vogt", "ORD-DE-4468810", [("KM-MX600", 1)], [
        ("2024-11-04T08:12:00+01:00", "customer",
         "Hallo, ich möchte die Küchenmaschine MX600 zurückgeben, sie ist für unsere Küche zu groß. "
         "Das Besteckset behalte ich. Viele Grüße, Katrin Vogt"),
        ("2024-11-04T10:40:00+01:00", "agent", "Retourenetikett JJD000224912107735 gesendet.")], []),
    "RMA-2024-118704": ("2024-11-18", "refund_status", "bauer", "ORD-DE-4467342", [("BR-SAUG-X3", 1)], [
        ("2024-11-18T19:03:00+01:00", "customer",
         "Guten Abend, ich habe den Saugroboter schon vor über einer Woche zurückgeschickt (Sendungsnummer "
         "JJD000224911870366) und noch kein Geld gesehen. Wann kommt die Erstattung? Hanna Bauer")],
        [("einlieferungsbeleg.jpg", "Foto eines DHL-Einlieferungsbelegs der Filiale Leipzig-Connewitz vom "
          "09.11.2024, Sendungsnummer JJD000224911870379, Empfänger Velora Retourenzentrum, 04158 Leipzig")]),
    "RMA-2024-118706": ("2024-11-18", "return", "jansen", "ORD-DE-4466021", [("LM-STH-400", 1)], [
        ("2024-11-18T11:27:00+01:00", "customer",
         "Moin, die Stehleuchte passt farblich doch nicht zu unserem Wohnzimmer. Ich würde sie gern "
         "zurückschicken, sie ist unbenutzt. Gruß Ole Jansen")], []),
    "RMA-2024-118709": ("2024-11-06", "return", "durand", "ORD-FR-2210457", [("AIR-PUR-300", 1)], [
        ("2024-11-06T09:15:00+01:00", "customer",
         "Bonjour, le purificateur d'air est beaucoup trop bruyant la nuit, je souhaite le retourner. "
         "Cordialement, Camille Durand"),
        ("2024-11-06T14:02:00+01:00", "agent", "Étiquette retour 8R00412379185 envoyée.")], []),
    "RMA-2024-118711": ("2024-11-07", "return", "yilmaz", "ORD-DE-4469377", [("NV-TV55-Q7", 1)], [
        ("2024-11-07T17:44:00+01:00", "customer",
         "Hallo, der Fernseher hat ein deutlich sichtbares Clouding in den Ecken. Ich möchte vom Kauf "
         "zurücktreten. Mehmet Yılmaz"),
        ("2024-11-07T18:10:00+01:00", "agent", "Abholung durch UPS beauftragt, Sendung 1Z4A7W919004418377.")],
        [("tv_ecken.jpg", "Foto des Fernsehers mit grauem Bild: hellere Flecken in allen vier Ecken")]),
    "RMA-2024-118713": ("2024-11-18", "defect", "lefevre", "ORD-FR-2208126", [("KW-HP500-BK", 1)], [
        ("2024-11-18T20:31:00+01:00", "customer",
         "Bonjour, depuis une semaine l'écouteur gauche de mon casque KW-500 noir ne fait plus aucun son, "
         "même en filaire. Je l'ai acheté en mars. Pouvez-vous me l'échanger ? Merci, Zoë Lefèvre")],
        [("casque.jpg", "Photo du casque Klangwerk KW-500 noir, étiquette KW-HP500-BK, numéro de série "
          "KW5-24B-018842")]),
    "RMA-2024-118716": ("2024-11-08", "return", "gruber", "ORD-AT-0871264", [("DY-FOEHN-H1", 1)], [
        ("2024-11-08T12:05:00+01:00", "customer",
         "Grüß Gott, den Föhn H1 möchte ich zurückgeben, das Besteck behalte ich. Liebe Grüße, Verena Gruber"),
        ("2024-11-08T13:30:00+01:00", "agent", "Retourenetikett JJD000224912121904 gesendet.")], []),
    "RMA-2024-118718": ("2024-11-19", "defect", "hoffmann", "ORD-DE-4452290", [("GR-KAFF-M2", 1)], [
        ("2024-11-19T07:58:00+01:00", "customer",
         "Guten Morgen, meine Kaffeemühle M2 (gekauft im Mai) brummt nur noch, das Mahlwerk dreht sich nicht "
         "mehr. Bitte um Ersatz. Anja Hoffmann")],
        [("muehle.mp4", "Video, 12 s: Motor brummt, Kegelmahlwerk steht still")]),
    "RMA-2024-118720": ("2024-11-11", "return", "grant", "ORD-DE-4470032", [("BT-SPK-MINI", 2)], [
        ("2024-11-11T16:20:00+01:00", "customer",
         "Hi, I ordered two Mini speakers but they won't pair as a stereo pair with my phone. I'd like to "
         "return both, unopened second one. Thanks, Oliver Grant"),
        ("2024-11-11T16:45:00+01:00", "agent", "Return label JJD000224912139617 sent.")], []),
    "RMA-2024-118723": ("2024-11-12", "return", "krueger", "ORD-DE-4470415", [("SM-WATCH-S2", 1)], [
        ("2024-11-12T09:33:00+01:00", "customer",
         "Hallo, die Smartwatch S2 gefällt mir nicht, der Helm ist super und bleibt hier. Sabine Krüger"),
        ("2024-11-12T10:02:00+01:00", "agent", "Retourenetikett JJD000224912150089 gesendet.")], []),
    "RMA-2024-118725": ("2024-11-20", "defect", "nowak", "ORD-DE-4459931", [("HF-WK17-SW", 1)], [
        ("2024-11-20T06:47:00+01:00", "customer",
         "Hallo, der Wasserkocher ist am Boden undicht, es tropft Wasser auf die Arbeitsplatte. Gekauft im "
         "Juli. Felix Nowak")],
        [("wasserkocher.jpg", "Foto: Wasserlache unter dem Wasserkocher, Kalkrand an der Bodennaht")]),
    "RMA-2024-118727": ("2024-11-12", "return", "martin", "ORD-FR-2210893", [("PF-GUSS-28", 1)], [
        ("2024-11-12T18:11:00+01:00", "customer",
         "Bonjour, la poêle est trop lourde pour moi, je la renvoie. Hugo Martin"),
        ("2024-11-12T18:40:00+01:00", "agent", "Étiquette retour 8R00412395046 envoyée.")], []),
    "RMA-2024-118729": ("2024-11-18", "defect", "maass", "ORD-DE-3917204", [("KM-MX600", 1)], [
        ("2024-11-18T14:52:00+01:00", "customer",
         "Sehr geehrte Damen und Herren, das Getriebe meiner Küchenmaschine MX600 ist defekt, der Knethaken "
         "dreht durch. Ich erwarte eine kostenlose Reparatur. Mit freundlichen Grüßen, Rüdiger Maaß")], []),
    "RMA-2024-118731": ("2024-11-08", "return", "keller", "ORD-CH-0339120", [("LM-STH-400", 1)], [
        ("2024-11-08T08:09:00+01:00", "customer",
         "Grüezi, die Stehleuchte ist zu hoch für unsere Dachwohnung. Ich sende sie zurück. Freundliche "
         "Grüsse, Nadine Keller"),
        ("2024-11-08T09:00:00+01:00", "agent", "Rücksendeetikett 99.60.103847.20530714 (Post CH) gesendet.")], []),
    "RMA-2024-118733": ("2024-11-15", "not_received", "wagner", "ORD-DE-4470788", [("AIR-PUR-300", 1)], [
        ("2024-11-15T13:22:00+01:00", "customer",
         "Hallo, meine Bestellung sollte am 08.11. kommen, laut DHL hängt sie seitdem im Paketzentrum. "
         "Was ist da los? Sophie Wagner"),
        ("2024-11-20T21:14:00+01:00", "customer",
         "Immer noch nichts. Ich möchte das Gerät jetzt wirklich haben oder mein Geld zurück.")], []),
    "RMA-2024-118735": ("2024-11-15", "return", "murphy", "ORD-AT-0869955", [("SM-WATCH-S2", 1)], [
        ("2024-11-15T22:08:00+01:00", "customer",
         "Hello, I'd like to send back the S2 watch, I've gone back to my old one. It's in its box. Regards, "
         "Sean Murphy")], []),
    "RMA-2024-118738": ("2024-11-13", "return", "lang", "ORD-DE-4471108", [("BR-SAUG-X3", 1)], [
        ("2024-11-13T15:36:00+01:00", "customer",
         "Hallo, der Saugroboter bleibt ständig an unseren Teppichkanten hängen. Ich schicke ihn zurück. "
         "Petra Lang"),
        ("2024-11-13T16:01:00+01:00", "agent", "Retourenetikett JJD000224912168452 gesendet.")], []),
    "RMA-2024-118740": ("2024-11-19", "damaged", "engel", "ORD-DE-4471955", [("KM-MX600", 1)], [
        ("2024-11-19T18:25:00+01:00", "customer",
         "Die Küchenmaschine kam heute mit eingedrücktem Karton an, die Rührschüssel hat eine Delle und der "
         "Schwenkarm klemmt. Bitte um Ersatz. Markus Engel")],
        [("karton.jpg", "Foto: Karton an einer Ecke eingedrückt, UPS-Aufkleber mit Schadensvermerk"),
         ("schuessel.jpg", "Foto: Edelstahlschüssel mit Delle am Rand")]),
    "RMA-2024-118741": ("2024-11-19", "return", "lefebvre", "ORD-FR-2211304", [("KW-HP500-BL", 1)], [
        ("2024-11-19T10:14:00+01:00", "customer",
         "Bonjour, je voudrais retourner le casque bleu, je ne l'ai pas ouvert (cadeau en double). "
         "Merci d'avance, Zoé Lefebvre")], []),
    "RMA-2024-118744": ("2024-11-18", "return", "schaefer", "ORD-DE-4471590", [("EB-BIKE-HELM", 1)], [
        ("2024-11-18T07:41:00+01:00", "customer",
         "Hallo, der Helm in M ist mir zu klein. Die Bettwäsche behalte ich. Lukas Schäfer")], []),
    "RMA-2024-118746": ("2024-11-20", "return", "huber", "ORD-AT-0871702", [("AIR-PUR-300", 1)], [
        ("2024-11-20T19:50:00+01:00", "customer",
         "Servus, der Luftreiniger ist uns zu laut im Schlafzimmer, bitte um ein Rücksendeetikett. "
         "Florian Huber")], []),
    "RMA-2024-118748": ("2024-11-16", "other", "wolff", "ORD-DE-4469920", [("SM-WATCH-S2", 1)], [
        ("2024-11-16T11:02:00+01:00", "customer",
         "Die Uhr zeigt nach zwei Wochen die Schritte falsch an. Ich habe bei PayPal einen Käuferschutz-Fall "
         "eröffnet (PP-D-48213376) und meinen Anwalt informiert. Dennis Wolff")], []),
    "RMA-2024-118749": ("2024-11-21", "return", "nair", "ORD-DE-4471833", [("TX-BETT-200", 2)], [
        ("2024-11-21T12:30:00+01:00", "customer",
         "Hi, the two duvet covers are a much darker grey than in the photos. I'd like to return both, "
         "still sealed. Best, Priya Nair")], []),
    "RMA-2024-118750": ("2024-11-20", "damaged", "richter", "ORD-DE-4472230", [("BT-SPK-MINI", 1)], [
        ("2024-11-20T17:12:00+01:00", "customer",
         "Der Lautsprecher kam heute an, das Gehäuse ist auf der Rückseite gesprungen. Paul Richter")],
        [("lautsprecher.jpg", "Foto: Riss über die ganze Rückseite des Lautsprechers, Karton außen unbeschädigt")]),
    "RMA-2024-118752": ("2024-11-19", "return", "weiss_ch", "", [("VL-ESP-720", 1)], [
        ("2024-11-19T08:55:00+01:00", "customer",
         "Guten Tag, die Barista Pro, die ich Anfang November bekommen habe, ist mir zu laut, ich möchte sie "
         "zurückgeben. Die Bestellnummer finde ich leider nicht mehr. Jürgen Weiss"),
        ("2024-11-20T07:31:00+01:00", "customer",
         "Nachtrag: Foto vom Typenschild anbei. Erreichbar unter +41 79 412 33 08. Freundliche Grüsse, "
         "Jürgen Weiss, Badenerstrasse 120, 8004 Zürich")],
        [("typenschild.jpg", "Foto des Typenschilds: Velora Barista 720, Art.-Nr. VL-ESP-720, 230 V~ 50 Hz, "
          "Stecker Typ J (CH)")]),
    "RMA-2024-118755": ("2024-11-20", "return", "koehler", "ORD-DE-4472016", [("BK-SET-12", 1)], [
        ("2024-11-20T13:18:00+01:00", "customer",
         "Hallo, das Besteck ist schöner auf den Bildern, ich schicke es zurück. Jana Köhler")], []),
    "RMA-2024-118757": ("2024-11-21", "return", "rousseau", "ORD-FR-2211788", [("DY-FOEHN-H1", 1)], [
        ("2024-11-21T09:47:00+01:00", "customer",
         "Bonjour, le sèche-cheveux H1 ne me convient pas, je souhaite le retourner. Il est comme neuf. "
         "Élodie Rousseau")], []),
    "RMA-2024-118759": ("2024-11-21", "refund_status", "vogt", "ORD-DE-4468810", [("KM-MX600", 1)], [
        ("2024-11-21T20:16:00+01:00", "customer",
         "Die Küchenmaschine ist laut DHL seit dem 14.11. bei Ihnen. Wo bleibt mein Geld? Katrin Vogt")], []),
}


def case_order(case_id):
    """The order a case is really about (Jürgen Weiss gave none)."""
    c = CASES[case_id]
    return c[3] or "ORD-CH-0340577"


# --- carrier scans ---------------------------------------------------------------------------------

DEPOTS = {
    "dhl": ["Paketzentrum Radefeld", "Paketzentrum Aschheim", "Paketzentrum Hamburg", "Zustellbasis"],
    "ups": ["UPS Leipzig", "UPS Köln-Eifeltor", "UPS Zustellfahrzeug"],
    "colissimo": ["Plateforme Strasbourg", "Plateforme Chilly-Mazarin", "Bureau distributeur"],
    "post-ch": ["Briefzentrum Härkingen", "Paketzentrum Frauenfeld", "Zustellstelle"],
}
TEXTS = {
    "dhl": {"PICKED_UP": "Die Sendung wurde vom Absender in das DHL-Netz eingeliefert.",
            "IN_TRANSIT": "Die Sendung wurde im Paketzentrum bearbeitet.",
            "OUT_FOR_DELIVERY": "Die Sendung wurde in das Zustellfahrzeug geladen.",
            "DELIVERED": "Die Sendung wurde erfolgreich zugestellt.",
            "DROPPED_OFF": "Die Sendung wurde in der Filiale eingeliefert.",
            "RETURN_RECEIVED": "Die Sendung wurde an den Empfänger (Retourenzentrum) zugestellt."},
    "ups": {"PICKED_UP": "Pickup Scan", "IN_TRANSIT": "Arrival Scan", "OUT_FOR_DELIVERY": "Out For Delivery Today",
            "DELIVERED": "Delivered", "DAMAGE_REPORTED": "Damage reported - package will be delivered; "
            "consignee may refuse", "DROPPED_OFF": "Collected by UPS driver",
            "RETURN_RECEIVED": "Delivered to returns centre"},
    "colissimo": {"PICKED_UP": "Votre colis est pris en charge par La Poste.",
                  "IN_TRANSIT": "Votre colis est en cours d'acheminement.",
                  "OUT_FOR_DELIVERY": "Votre colis est en cours de livraison.",
                  "DELIVERED": "Votre colis est livré.",
                  "DROPPED_OFF": "Votre colis a été déposé en bureau de poste.",
                  "RETURN_RECEIVED": "Votre colis est livré au destinataire (retour)."},
    "post-ch": {"PICKED_UP": "Aufgabe", "IN_TRANSIT": "Sortierung", "OUT_FOR_DELIVERY": "Zur Zustellung vorbereitet",
                "DELIVERED": "Zugestellt", "DROPPED_OFF": "Aufgabe in Filiale",
                "RETURN_RECEIVED": "Zugestellt an Empfänger (Retoure)"},
}


def _ts(date, hm):
    return "%sT%s:00+01:00" % (date, hm)


def _prev(date, days=1):
    y, m, d = map(int, date.split("-"))
    dim = [31, 29 if y % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    d -= days
    while d < 1:
        m -= 1
        if m < 1:
            m, y = 12, y - 1
        d += dim[m - 1]
    return "%04d-%02d-%02d" % (y, m, d)


def parcel(tracking):
    """Tracking of a parcel: (carrier, direction, reference, events) or None."""
    for no, (cust, _, _, _, carrier, tr, shipped, delivered) in ORDERS.items():
        if tr != tracking:
            continue
        dep = DEPOTS[carrier]
        city = CUSTOMERS[cust][5]
        ev = [(_ts(shipped, "17:42"), "PICKED_UP", dep[0])]
        if tracking == "JJD000224911932207":  # Sophie Wagner's: stuck at the hub
            ev += [(_ts("2024-11-07", "02:15"), "IN_TRANSIT", dep[0]),
                   (_ts("2024-11-08", "04:51"), "IN_TRANSIT", "Paketzentrum Aschheim")]
            return carrier, "outbound", no, ev
        mid = _prev(delivered)
        ev.append((_ts(mid if mid > shipped else shipped, "23:08"), "IN_TRANSIT", dep[1]))
        if tracking == "1Z999AA10123456784":
            ev.append((_ts("2024-11-19", "05:12"), "DAMAGE_REPORTED", "UPS Köln-Eifeltor"))
        ev.append((_ts(delivered, "07:55"), "OUT_FOR_DELIVERY", "%s %s" % (dep[-1], city)))
        ev.append((_ts(delivered, "13:%02d" % (10 + len(city))), "DELIVERED", city))
        return carrier, "outbound", no, ev
    rl = [(c, v) for c, v in RETURN_LABELS.items() if v[1] == tracking]
    if rl or tracking == BAUER_RETURN[1]:
        if rl:
            case_id, (carrier, _, _, dropped, received) = rl[0]
            no = CASES[case_id][3]
        else:
            carrier, _, dropped, received = BAUER_RETURN
            no = "ORD-DE-4467342"
        city = CUSTOMERS[ORDERS[no][0]][5]
        dep = DEPOTS[carrier]
        ev = [(_ts(dropped, "11:26"), "DROPPED_OFF", city), (_ts(_prev(received), "22:40"), "IN_TRANSIT", dep[1])]
        if received:
            ev.append((_ts(received, "09:12"), "RETURN_RECEIVED", "Velora Retourenzentrum Leipzig"))
        return carrier, "return", no, ev
    return None
