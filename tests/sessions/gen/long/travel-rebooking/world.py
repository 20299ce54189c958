"""The world of the `travel-rebooking` session: the corporate travel desk of
Brennwald Diagnostics AG (Basel) on Tuesday 2025-03-11 at 10:20 CET, when
storm Ylva has closed Frankfurt airport (FRA) and every flight through it is
cancelled. Seven employees (three from Basel, two from Vienna, two from
Boston) were booked through FRA to Lisbon for the ELAF 2025 trade fair, where
the booth is set up tonight and Li Wei speaks on 2025-03-12 at 14:00.

Planted: the two Boston travellers are already in the air on LH 423, which
is diverted to Munich; the flight status feed gives its new arrival in UTC
(12:55Z, i.e. 13:55 local), while every schedule and availability gives local
times with their offsets, so the 14:30 Munich-Lisbon flight looks like a
95-minute connection and is in fact 35 minutes, under the 50-minute minimum
(non-Schengen to Schengen) at MUC; the only economy seats to Lisbon that
evening are gone, so they fly the next morning (LH 1790, 06:55) and sleep at
an airport hotel with an early shuttle. Swiss flights are priced in CHF, the
others in EUR; the original Boston tickets are US-issued in USD. The FX tool
gives the last closing rate (2025-03-10) unless asked for a date, while the
policy and the card charges use the booking day's desk rate (2025-03-11).
Look-alikes: Wei Li (Basel, WEI/LI MS) and Li Wei (Boston, LI/WEI MR), both on
the team; Jana Nováková (Vienna, team) and Jana Novak (Basel, going to
Hamburg, not on the team) with PNRs QX7P2M (Novak) vs QX7R2M (Marc Tschudi)
and tickets 220-2345678910 vs 220-2345678901. LX 2086 has only two seats
left in the in-policy fare for the three Basel travellers; the flex fare for
the third is above the cap and its exception does not apply (the next
in-policy option lands 2 h 45 min later, not more than 3 h).
Deterministic: tool.py and answers.py read it."""
from datetime import datetime, timedelta, timezone

COMPANY = "Brennwald Diagnostics AG"
DESK = "Brennwald Travel Desk, Basel"
NOW = "2025-03-11T10:20:00+01:00"
TODAY = "2025-03-11"
COST_CENTER = "CC-4410"
WAIVER = "LH-WX-0311"


def parse(ts):
    """An ISO timestamp with Z or an offset, as an aware datetime."""
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


def utc(ts):
    return parse(ts).astimezone(timezone.utc)


def zulu(ts):
    return utc(ts).strftime("%Y-%m-%dT%H:%M:%SZ")


def minutes(a, b):
    """Minutes from timestamp a to timestamp b (offsets respected)."""
    return int((utc(b) - utc(a)).total_seconds() // 60)


def local_hm(ts):
    return ts[11:16]


# --- people ---------------------------------------------------------------------------------------

# employee id -> name, office, role, email, phone, GDS name
PEOPLE = {
    "E-10457": ("Marc Tschudi", "Basel", "Head of Sales EMEA (team lead)", "marc.tschudi@brennwald-dx.ch",
                "+41 61 228 40 57", "TSCHUDI/MARC MR"),
    "E-11382": ("Wei Li", "Basel", "Application Scientist", "wei.li@brennwald-dx.ch", "+41 61 228 43 82",
                "WEI/LI MS"),
    "E-10981": ("Sabine Gerber", "Basel", "Marketing Manager", "sabine.gerber@brennwald-dx.ch",
                "+41 61 228 49 81", "GERBER/SABINE MS"),
    "E-30215": ("Jana Nováková", "Vienna", "Key Account Manager CEE", "jana.novakova@brennwald-dx.at",
                "+43 1 890 32 15", "NOVAKOVA/JANA MS"),
    "E-30248": ("Lukas Brandstätter", "Vienna", "Field Service Engineer", "lukas.brandstaetter@brennwald-dx.at",
                "+43 1 890 32 48", "BRANDSTAETTER/LUKAS MR"),
    "E-20417": ("Li Wei", "Boston", "Senior Scientist (speaker)", "li.wei@brennwald-dx.com", "+1 617 555 0417",
                "LI/WEI MR"),
    "E-20533": ("Daniel Okafor", "Boston", "Product Manager", "daniel.okafor@brennwald-dx.com",
                "+1 617 555 0533", "OKAFOR/DANIEL MR"),
    # not on the team
    "E-10033": ("Claudia Baumann", "Basel", "Head of Marketing (owner of CC-4410)",
                "claudia.baumann@brennwald-dx.ch", "+41 61 228 40 33", "BAUMANN/CLAUDIA MS"),
    "E-10664": ("Jana Novak", "Basel", "Regulatory Affairs Specialist", "jana.novak@brennwald-dx.ch",
                "+41 61 228 46 64", "NOVAK/JANA MS"),
    "E-10122": ("Thomas Meier", "Basel", "VP Operations", "thomas.meier@brennwald-dx.ch", "+41 61 228 41 22",
                "MEIER/THOMAS MR"),
    "E-30190": ("Petra Holzer", "Vienna", "Service Manager", "petra.holzer@brennwald-dx.at", "+43 1 890 31 90",
                "HOLZER/PETRA MS"),
}
TEAM = ["E-10457", "E-11382", "E-10981", "E-30215", "E-30248", "E-20417", "E-20533"]
OWNER = "E-10033"

EVENT = {
    "name": "ELAF 2025 - European Lab Automation Forum",
    "venue": "FIL - Feira Internacional de Lisboa, Rua do Bojador, 1998-010 Lisboa",
    "booth": "Hall 1, stand B14",
    "setup": "2025-03-11 16:00-22:00 (Lisbon time, UTC+00:00)",
    "fair": "2025-03-12..2025-03-14",
    "deadline": "every traveller in Lisbon by 2025-03-12 11:00 Lisbon time at the latest "
                "(Li Wei speaks on 2025-03-12 at 14:00, Hall 2); tonight for the booth setup if possible",
    "team_hotel": "Hotel Parque Oriente, Lisboa (booked 2025-03-11..2025-03-14, unchanged)",
}

# --- the bookings of the day ----------------------------------------------------------------------

# flight -> carrier, from, to, dep (local), arr (local), aircraft
SCHEDULE = {
    "LH 1207": ("LH", "BSL", "FRA", "2025-03-11T10:55:00+01:00", "2025-03-11T11:50:00+01:00", "CRJ-900"),
    "LH 1233": ("LH", "VIE", "FRA", "2025-03-11T10:40:00+01:00", "2025-03-11T12:05:00+01:00", "A320neo"),
    "LH 1166": ("LH", "FRA", "LIS", "2025-03-11T13:30:00+01:00", "2025-03-11T15:25:00+00:00", "A321"),
    "LH 423": ("LH", "BOS", "FRA", "2025-03-10T22:35:00-04:00", "2025-03-11T10:55:00+01:00", "A340-300"),
    "LH 10": ("LH", "FRA", "HAM", "2025-03-11T13:15:00+01:00", "2025-03-11T14:25:00+01:00", "A320"),
    "LX 1070": ("LX", "ZRH", "FRA", "2025-03-11T09:40:00+01:00", "2025-03-11T10:40:00+01:00", "A220-100"),
    "LH 432": ("LH", "FRA", "ORD", "2025-03-11T13:10:00+01:00", "2025-03-11T15:35:00-05:00", "B747-8"),
    "OS 121": ("OS", "VIE", "FRA", "2025-03-11T07:15:00+01:00", "2025-03-11T08:40:00+01:00", "A320"),
    "LH 900": ("LH", "FRA", "LHR", "2025-03-11T11:20:00+01:00", "2025-03-11T12:00:00+00:00", "A321"),
}

# pnr -> employee, ticket, fare basis, currency, ticket total, unused outbound value, flights, booked
BOOKINGS = {
    "QX7R2M": ("E-10457", "220-2345678901", "VLOWCH", "CHF", 612.40, 306.20, ["LH 1207", "LH 1166"], "2025-02-03"),
    "L4KTZP": ("E-11382", "220-2345678915", "VLOWCH", "CHF", 612.40, 306.20, ["LH 1207", "LH 1166"], "2025-02-03"),
    "B9WQ3N": ("E-10981", "220-2345678922", "VLOWCH", "CHF", 612.40, 306.20, ["LH 1207", "LH 1166"], "2025-02-04"),
    "VZ8H6C": ("E-30215", "220-2345679140", "VLOWAT", "EUR", 548.30, 274.15, ["LH 1233", "LH 1166"], "2025-02-05"),
    "VZ8J2F": ("E-30248", "220-2345679141", "VLOWAT", "EUR", 548.30, 274.15, ["LH 1233", "LH 1166"], "2025-02-05"),
    "HX3D9R": ("E-20417", "220-8813400572", "KLOWUS", "USD", 1486.70, 214.60, ["LH 423", "LH 1166"], "2025-01-28"),
    "HX3D4K": ("E-20533", "220-8813400573", "KLOWUS", "USD", 1486.70, 214.60, ["LH 423", "LH 1166"], "2025-01-28"),
    "QX7P2M": ("E-10664", "220-2345678910", "VLOWCH", "CHF", 498.90, 249.45, ["LH 1207", "LH 10"], "2025-02-19"),
    "T6GNB8": ("E-10122", "220-2345677788", "HFLEXCH", "CHF", 3184.00, 1592.00, ["LX 1070", "LH 432"],
               "2025-02-21"),
    "W5CUEA": ("E-30190", "220-2345679502", "VLOWAT", "EUR", 412.60, 206.30, ["OS 121", "LH 900"], "2025-02-26"),
}
RETURNS = {  # pnr -> the return flights (unchanged), shown in the booking
    "QX7R2M": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 1214 FRA-BSL 21:35",
    "L4KTZP": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 1214 FRA-BSL 21:35",
    "B9WQ3N": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 1214 FRA-BSL 21:35",
    "VZ8H6C": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 1250 FRA-VIE 21:50",
    "VZ8J2F": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 1250 FRA-VIE 21:50",
    "HX3D9R": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 424 FRA-BOS 2025-03-15 13:05",
    "HX3D4K": "LH 1173 LIS-FRA 2025-03-14 16:10 / LH 424 FRA-BOS 2025-03-15 13:05",
    "QX7P2M": "LH 13 HAM-FRA 2025-03-12 18:00 / LH 1216 FRA-BSL 20:10",
    "T6GNB8": "LH 431 ORD-FRA 2025-03-16 / LX 1073 FRA-ZRH 2025-03-17",
    "W5CUEA": "LH 903 LHR-FRA 2025-03-12 / OS 128 FRA-VIE 2025-03-12",
}

# flight -> status in the operations feed (times UTC)
STATUS = {
    "LH 1207": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva)"},
    "LH 1233": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva)"},
    "LH 1166": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva)"},
    "LH 10": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva)"},
    "LX 1070": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva); aircraft returned to stand"},
    "LH 432": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva)"},
    "OS 121": {"status": "LANDED", "actual_dep": "2025-03-11T06:21:00Z", "actual_arr": "2025-03-11T07:36:00Z",
               "remark": "landed before the closure"},
    "LH 900": {"status": "CANCELLED", "remark": "FRA closed (storm Ylva)"},
    "LH 423": {"status": "DIVERTED", "actual_dep": "2025-03-11T04:40:00Z", "diverted_to": "MUC",
               "est_arr": "2025-03-11T12:55:00Z",
               "remark": "departed BOS 2 h 05 late (de-icing); FRA closed en route, diverted to MUC; "
                         "passengers' onward flights to be rebooked by their agency"},
}
CLOSURE = {"airport": "FRA", "from": "2025-03-11T08:00:00Z", "until": "2025-03-12T05:00:00Z",
           "reason": "storm Ylva (gusts over 120 km/h), runways and ramp closed"}

# --- what is still flying -------------------------------------------------------------------------

# fare family -> changeable, change fee (amount in the fare's currency), refundable, bag, cabin
FAMILIES = {
    "Light": (False, None, False, "hand baggage only", "economy"),
    "Discount": (False, None, False, "hand baggage only", "economy"),
    "Classic": (True, 70.0, False, "1 x 23 kg", "economy"),
    "Flex": (True, 0.0, True, "1 x 23 kg", "economy"),
    "Business": (True, 0.0, True, "2 x 32 kg", "business"),
    "Executive": (True, 0.0, True, "2 x 32 kg", "business"),
    "Standard": (True, 45.0, False, "1 x 15 kg, no seat choice", "economy"),
}
TP_FEE = 60.0  # TAP's Classic change fee, instead of the 70 of the Lufthansa group

# option id -> segments [(flight, carrier name, from, to, dep, arr, aircraft)], fares
# [(basis, class, family, amount, currency, seats)]
OPTIONS = {
    "BSL-1": ([("AF 1135", "Air France", "BSL", "CDG", "2025-03-11T13:10:00+01:00", "2025-03-11T14:25:00+01:00",
                "E190"),
               ("AF 1024", "Air France", "CDG", "LIS", "2025-03-11T15:35:00+01:00", "2025-03-11T17:15:00+00:00",
                "A320")],
              [("GLIGHTFR", "G", "Light", 241.00, "EUR", 0), ("MSTDFR", "M", "Classic", 398.00, "EUR", 0),
               ("ZBUSFR", "Z", "Business", 1214.00, "EUR", 3)]),
    "BSL-2": ([("U2 1331", "easyJet", "BSL", "LIS", "2025-03-11T17:05:00+01:00", "2025-03-11T18:55:00+00:00",
                "A320neo")],
              [("EZSTD", "Y", "Standard", 214.99, "EUR", 9)]),
    "ZRH-1": ([("LX 2086", "Swiss", "ZRH", "LIS", "2025-03-11T16:25:00+01:00", "2025-03-11T18:20:00+00:00",
                "A320")],
              [("LLIGHTCH", "L", "Light", 289.00, "CHF", 0), ("MCLASSCH", "M", "Classic", 436.00, "CHF", 2),
               ("YFLEXCH", "Y", "Flex", 1020.00, "CHF", 3), ("JBUSCH", "J", "Business", 1380.00, "CHF", 4)]),
    "ZRH-2": ([("TP 927", "TAP Air Portugal", "ZRH", "LIS", "2025-03-11T19:10:00+01:00",
                "2025-03-11T21:05:00+00:00", "A321neo")],
              [("ADISCCH", "A", "Discount", 312.00, "CHF", 1), ("UCLASSCH", "U", "Classic", 488.00, "CHF", 6),
               ("JEXECCH", "J", "Executive", 1190.00, "CHF", 8)]),
    "VIE-1": ([("LH 1693", "Lufthansa", "VIE", "MUC", "2025-03-11T12:10:00+01:00", "2025-03-11T13:15:00+01:00",
                "A319"),
               ("LH 1792", "Lufthansa", "MUC", "LIS", "2025-03-11T14:30:00+01:00", "2025-03-11T16:45:00+00:00",
                "A320neo")],
              [("LLIGHTAT", "L", "Light", 279.00, "EUR", 4), ("KCLASSAT", "K", "Classic", 356.00, "EUR", 3),
               ("YFLEXAT", "Y", "Flex", 842.00, "EUR", 9)]),
    "VIE-2": ([("TP 1279", "TAP Air Portugal", "VIE", "LIS", "2025-03-11T15:20:00+01:00",
                "2025-03-11T17:55:00+00:00", "A320neo")],
              [("ADISCAT", "A", "Discount", 199.00, "EUR", 2), ("UCLASSAT", "U", "Classic", 318.00, "EUR", 5),
               ("JEXECAT", "J", "Executive", 1020.00, "EUR", 8)]),
    "MUC-1": ([("LH 1792", "Lufthansa", "MUC", "LIS", "2025-03-11T14:30:00+01:00", "2025-03-11T16:45:00+00:00",
                "A320neo")],
              [("LLIGHTDE", "L", "Light", 279.00, "EUR", 0), ("KCLASSDE", "K", "Classic", 356.00, "EUR", 3),
               ("YFLEXDE", "Y", "Flex", 842.00, "EUR", 9)]),
    "MUC-2": ([("TP 559", "TAP Air Portugal", "MUC", "LIS", "2025-03-11T17:40:00+01:00",
                "2025-03-11T20:05:00+00:00", "A320")],
              [("ADISCDE", "A", "Discount", 199.00, "EUR", 0), ("UCLASSDE", "U", "Classic", 331.00, "EUR", 0),
               ("JEXECDE", "J", "Executive", 1140.00, "EUR", 6)]),
    "MUC-3": ([("LH 1794", "Lufthansa", "MUC", "LIS", "2025-03-11T19:55:00+01:00", "2025-03-11T22:10:00+00:00",
                "A320neo")],
              [("LLIGHTDE", "L", "Light", 279.00, "EUR", 0), ("KCLASSDE", "K", "Classic", 356.00, "EUR", 0),
               ("YFLEXDE", "Y", "Flex", 842.00, "EUR", 0)]),
    "MUC-4": ([("LH 1790", "Lufthansa", "MUC", "LIS", "2025-03-12T06:55:00+01:00", "2025-03-12T09:10:00+00:00",
                "A320neo")],
              [("LLIGHTDE", "L", "Light", 279.00, "EUR", 2), ("KCLASSDE", "K", "Classic", 356.00, "EUR", 5),
               ("YFLEXDE", "Y", "Flex", 842.00, "EUR", 9)]),
    "MUC-5": ([("TP 561", "TAP Air Portugal", "MUC", "LIS", "2025-03-12T10:05:00+01:00",
                "2025-03-12T12:20:00+00:00", "A320")],
              [("ADISCDE", "A", "Discount", 199.00, "EUR", 3), ("UCLASSDE", "U", "Classic", 331.00, "EUR", 4),
               ("JEXECDE", "J", "Executive", 1140.00, "EUR", 6)]),
}
FULL_REMARK = {"MUC-3": "fully booked, waitlist only", "BSL-1": "economy sold out"}
AIRPORT_NOTES = {
    "BSL": "EuroAirport Basel-Mulhouse; Zurich airport (ZRH) is 1 h 05 from Basel SBB by train",
    "ZRH": "Zurich; trains from Basel SBB at :03 and :33, 1 h 05 to Zurich Flughafen",
    "VIE": "Vienna-Schwechat",
    "MUC": "Munich Franz Josef Strauss; MCT non-Schengen -> Schengen 50 min, Schengen -> Schengen 30 min",
}

# --- seat maps ------------------------------------------------------------------------------------

# flight -> economy rows, layout, free seats {row: letters}
SEATS = {
    "LX 2086": (range(7, 29), "ABC DEF", {9: "C", 21: "AB", 26: "E"}),
    "TP 927": (range(8, 31), "ABC DEF", {11: "C", 17: "D", 24: "AB", 28: "F", 30: "BC"}),
    "TP 1279": (range(7, 29), "ABC DEF", {10: "F", 15: "D", 19: "C", 23: "AB", 27: "D"}),
    "LH 1792": (range(7, 30), "ABC DEF", {12: "DE", 18: "A", 22: "BC", 29: "F"}),
    "LH 1790": (range(7, 30), "ABC DEF", {8: "AC", 11: "EF", 16: "B", 19: "DE", 25: "A", 27: "CD"}),
    "LH 1794": (range(7, 30), "ABC DEF", {}),
    "TP 559": (range(7, 29), "ABC DEF", {}),
}
EXIT_ROWS = {"LX 2086": [12, 13], "TP 927": [12, 13], "TP 1279": [12, 13], "LH 1792": [14, 15],
             "LH 1790": [14, 15], "LH 1794": [14, 15], "TP 559": [12, 13]}

# --- hotels ---------------------------------------------------------------------------------------

# id -> name, address, km to terminal, access, first shuttle, rate EUR, rate code, cancellation, breakfast
HOTELS_MUC = {
    "MUC-H01": ("Skyline Airport Hotel München", "Terminalstraße Mitte 20, 85356 München-Flughafen", 0.3,
                "covered walkway to Terminal 2", None, 229.00, "SKY-CORP", "free until 18:00 on arrival day",
                "from 04:30, EUR 32"),
    "MUC-H02": ("Hotel Freisinger Hof Airport", "Mainburger Straße 4, 85356 Freising", 6.1,
                "hotel shuttle every 30 min", "05:15", 149.00, "FH-BRW", "free until 18:00 on arrival day",
                "included, from 04:45"),
    "MUC-H03": ("Aviva Hotel Hallbergmoos", "Ludwigstraße 43, 85399 Hallbergmoos", 7.8,
                "hotel shuttle every 30 min", "05:30", 178.00, "AVV-CORP", "free until 16:00 on arrival day",
                "included, from 05:00"),
    "MUC-H04": ("Gasthof Schwaig am Moos", "Schwaiger Hauptstraße 12, 85445 Oberding-Schwaig", 3.2,
                "taxi only (about EUR 18)", None, 119.00, "GSM-STD", "non-refundable", "from 07:00"),
    "MUC-H05": ("Hotel Erdinger Moos Residenz", "Am Stadtpark 9, 85435 Erding", 11.4,
                "hotel shuttle every 60 min", "06:00", 139.00, "EMR-CORP", "free until 18:00 on arrival day",
                "included, from 06:00"),
}

# --- money ----------------------------------------------------------------------------------------

# treasury desk rates, CHF per unit
FX = {
    "2025-03-07": {"EUR": 0.9498, "USD": 0.8794, "GBP": 1.1318, "SEK": 0.08712, "DKK": 0.12733, "NOK": 0.08155,
                   "PLN": 0.22641, "CZK": 0.03791, "HUF": 0.002402},
    "2025-03-10": {"EUR": 0.9531, "USD": 0.8807, "GBP": 1.1342, "SEK": 0.08744, "DKK": 0.12776, "NOK": 0.08179,
                   "PLN": 0.22716, "CZK": 0.03802, "HUF": 0.002409},
    "2025-03-11": {"EUR": 0.9584, "USD": 0.8842, "GBP": 1.1395, "SEK": 0.08801, "DKK": 0.12848, "NOK": 0.08213,
                   "PLN": 0.22853, "CZK": 0.03826, "HUF": 0.002421},
}
LAST_CLOSE = "2025-03-10"

BUDGET = {
    "cost_center": COST_CENTER,
    "name": "ELAF 2025 Lisbon - trade fair participation",
    "owner": "Claudia Baumann (E-10033)",
    "currency": "CHF",
    "budget": 48000.00,
    "lines": [
        ("Stand space Hall 1 B14 (36 m2), FIL", 14760.00),
        ("Stand build and logistics (Expodesign Lisboa)", 11840.00),
        ("Hotel Parque Oriente, 7 rooms x 3 nights", 5418.00),
        ("Flights, 7 original tickets (LH)", 6212.60),
        ("Registration and exhibitor passes", 2980.00),
        ("Demo instruments shipping (Kuehne+Nagel)", 2345.40),
        ("Hospitality and customer dinner 2025-03-13", 1294.00),
    ],
    "committed_by": "2025-03-10",
}
CAPS = {"flight_eu_oneway_chf": 700.00, "hotel": {"MUC": ("EUR", 190.00), "LIS": ("EUR", 180.00),
                                                   "ZRH": ("CHF", 240.00), "VIE": ("EUR", 170.00)}}
PREAPPROVAL_ABOVE_CHF = 1000.00


def budget_available():
    return round(BUDGET["budget"] - sum(a for _, a in BUDGET["lines"]), 2)
