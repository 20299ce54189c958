"""The world of the `vendor-due-diligence` session: three bids for rugged
handheld scanners (RFQ-2291) checked through a company registry, the
contract archive, a news index, a review site and a sanctions screen.
Planted: near-identical company names (Nordlicht Scanning GmbH, the
insolvent Nordlicht Scan GmbH, the unrelated NordLicht Scanning Systems AG;
Korvell Data Systems Ltd, its GmbH, the dissolved Korvel Data Ltd) and
people (Thomas and Tobias Brenner; Ana Lindqvist and Anna Lindquist); the
KYC cache's extract of Nordlicht Scanning GmbH names the wrong managing
director (Thomas Brenner, who led the insolvent Nordlicht Scan GmbH and is
on an exclusion list), corrected in the registry on 2024-06-11 (Tobias
Brenner): the live extract has it right. Korvell had a data breach and a
contract terminated for SLA breaches; Vantaro was bought by a fund and
recalls the batteries of the model it bids. Deterministic: tool.py and
answers.py read it."""

RFQ = "RFQ-2291"
CACHE_DATE = "2024-05-02"
CORRECTION_DATE = "2024-06-11"
CORRECTION_FILING = "F-2024-06-11-0932"

COMPANIES = {
    "DE-HRB-118204": {
        "name": "Nordlicht Scanning GmbH", "country": "DE", "city": "Hamburg", "legal_form": "GmbH",
        "status": "active", "founded": "2012-04-17",
        "directors": [{"name": "Tobias Brenner", "role": "managing director", "since": "2019-09-01", "born": 1981},
                      {"name": "Frauke Ohlsen", "role": "managing director (finance)", "since": "2016-01-01", "born": 1975}],
        "owners": [{"name": "Nordlicht Holding GmbH", "registry_id": "DE-HRB-97733", "share_pct": 80.0},
                   {"name": "Frauke Ohlsen", "registry_id": None, "share_pct": 20.0}],
        "subsidiaries": [{"name": "Nordlicht Service Polska Sp. z o.o.", "registry_id": "PL-KRS-0000718245"}],
        "employees": 142, "revenue_eur": 31800000, "filed_accounts": "2023",
    },
    "DE-HRB-104577": {
        "name": "Nordlicht Scan GmbH", "country": "DE", "city": "Kiel", "legal_form": "GmbH",
        "status": "dissolved", "founded": "2007-10-02", "dissolved": "2021-02-01",
        "insolvency": "proceedings opened 2019-03-12 (Amtsgericht Kiel 27 IN 88/19)",
        "directors": [{"name": "Thomas Brenner", "role": "managing director", "since": "2007-10-02", "until": "2019-03-12", "born": 1962}],
        "owners": [{"name": "Thomas Brenner", "registry_id": None, "share_pct": 100.0}],
        "subsidiaries": [], "employees": None, "revenue_eur": None, "filed_accounts": "2017",
    },
    "CH-CHE-331.908.442": {
        "name": "NordLicht Scanning Systems AG", "country": "CH", "city": "Zug", "legal_form": "AG",
        "status": "active", "founded": "2018-06-20",
        "directors": [{"name": "Reto Ammann", "role": "president of the board", "since": "2018-06-20", "born": 1970}],
        "owners": [], "subsidiaries": [], "employees": 9, "revenue_eur": None, "filed_accounts": None,
    },
    "DE-HRB-97733": {
        "name": "Nordlicht Holding GmbH", "country": "DE", "city": "Hamburg", "legal_form": "GmbH",
        "status": "active", "founded": "2012-03-30",
        "directors": [{"name": "Tobias Brenner", "role": "managing director", "since": "2019-09-01", "born": 1981}],
        "owners": [{"name": "Tobias Brenner", "registry_id": None, "share_pct": 55.0},
                   {"name": "Hanne Brenner", "registry_id": None, "share_pct": 45.0}],
        "subsidiaries": [{"name": "Nordlicht Scanning GmbH", "registry_id": "DE-HRB-118204"}],
        "employees": 0, "revenue_eur": None, "filed_accounts": "2023",
    },
    "GB-09381127": {
        "name": "Korvell Data Systems Ltd", "country": "GB", "city": "London", "legal_form": "Ltd",
        "status": "active", "founded": "2015-01-13",
        "directors": [{"name": "Daniel Ashcombe", "role": "director", "since": "2015-01-13", "born": 1977},
                      {"name": "Ana Lindqvist", "role": "director", "since": "2020-05-04", "born": 1979}],
        "owners": [{"name": "Korvell Group Holdings Ltd", "registry_id": "GB-11820454", "share_pct": 100.0}],
        "subsidiaries": [{"name": "Korvell Data Systems GmbH", "registry_id": "DE-HRB-152201"}],
        "employees": 388, "revenue_eur": 64100000, "filed_accounts": "2023",
    },
    "DE-HRB-152201": {
        "name": "Korvell Data Systems GmbH", "country": "DE", "city": "Frankfurt am Main", "legal_form": "GmbH",
        "status": "active", "founded": "2017-08-09",
        "directors": [{"name": "Anna Lindquist", "role": "managing director", "since": "2020-06-01", "born": 1979}],
        "owners": [{"name": "Korvell Data Systems Ltd", "registry_id": "GB-09381127", "share_pct": 100.0}],
        "subsidiaries": [], "employees": 61, "revenue_eur": 9200000, "filed_accounts": "2023",
    },
    "GB-11820454": {
        "name": "Korvell Group Holdings Ltd", "country": "GB", "city": "London", "legal_form": "Ltd",
        "status": "active", "founded": "2019-02-27",
        "directors": [{"name": "Daniel Ashcombe", "role": "director", "since": "2019-02-27", "born": 1977}],
        "owners": [{"name": "Pellworth Capital LLP", "registry_id": "GB-OC412873", "share_pct": 62.0},
                   {"name": "Daniel Ashcombe", "registry_id": None, "share_pct": 38.0}],
        "subsidiaries": [{"name": "Korvell Data Systems Ltd", "registry_id": "GB-09381127"}],
        "employees": 0, "revenue_eur": None, "filed_accounts": "2023",
    },
    "GB-12933001": {
        "name": "Korvel Data Ltd", "country": "GB", "city": "Leeds", "legal_form": "Ltd",
        "status": "dissolved", "founded": "2020-10-05", "dissolved": "2022-11-29",
        "directors": [{"name": "Imran Shah", "role": "director", "since": "2020-10-05", "until": "2022-11-29", "born": 1988}],
        "owners": [], "subsidiaries": [], "employees": None, "revenue_eur": None, "filed_accounts": None,
    },
    "SE-556812-4471": {
        "name": "Vantaro Devices AB", "country": "SE", "city": "Malmö", "legal_form": "AB",
        "status": "active", "founded": "2009-03-02",
        "directors": [{"name": "Elin Sjöberg", "role": "CEO", "since": "2017-05-15", "born": 1980},
                      {"name": "Magnus Hedlund", "role": "chair", "since": "2024-05-02", "born": 1966}],
        "owners": [{"name": "Vantaro Group AB", "registry_id": "SE-559102-3385", "share_pct": 100.0}],
        "subsidiaries": [{"name": "Vantaro Devices Oy", "registry_id": "FI-2874419-6"}],
        "employees": 203, "revenue_eur": 41500000, "filed_accounts": "2023",
    },
    "SE-559102-3385": {
        "name": "Vantaro Group AB", "country": "SE", "city": "Malmö", "legal_form": "AB",
        "status": "active", "founded": "2017-01-20",
        "directors": [{"name": "Magnus Hedlund", "role": "chair", "since": "2024-04-30", "born": 1966}],
        "owners": [{"name": "Helix Industrial Partners Fund III SCSp", "registry_id": "LU-B254190", "share_pct": 71.0},
                   {"name": "Elin Sjöberg", "registry_id": None, "share_pct": 17.0},
                   {"name": "Per Vantaro", "registry_id": None, "share_pct": 12.0}],
        "subsidiaries": [{"name": "Vantaro Devices AB", "registry_id": "SE-556812-4471"}],
        "employees": 0, "revenue_eur": None, "filed_accounts": "2023",
    },
    "SE-556120-0998": {
        "name": "Vantaro Bygg AB", "country": "SE", "city": "Lund", "legal_form": "AB",
        "status": "active", "founded": "1994-09-12",
        "directors": [{"name": "Per Vantaro", "role": "CEO", "since": "1994-09-12", "born": 1958}],
        "owners": [], "subsidiaries": [], "employees": 23, "revenue_eur": 3100000, "filed_accounts": "2023",
    },
}

# The KYC cache's extract of Nordlicht Scanning GmbH, made before the correction.
CACHED = {"DE-HRB-118204": {"directors": [
    {"name": "Thomas Brenner", "role": "managing director", "since": "2019-09-01", "born": 1962},
    {"name": "Frauke Ohlsen", "role": "managing director (finance)", "since": "2016-01-01", "born": 1975}]}}

FILINGS = {
    "DE-HRB-118204": [
        {"filing_id": "F-2012-04-17-0311", "date": "2012-04-17", "type": "incorporation", "summary": "company registered; share capital 50,000 EUR"},
        {"filing_id": "F-2019-09-02-1187", "date": "2019-09-02", "type": "officers", "summary": "new managing director appointed with effect from 2019-09-01"},
        {"filing_id": "F-2024-04-29-0517", "date": "2024-04-29", "type": "accounts", "summary": "annual accounts 2023 filed"},
        {"filing_id": CORRECTION_FILING, "date": CORRECTION_DATE, "type": "correction",
         "summary": "correction of a clerical error in filing F-2019-09-02-1187: the managing director appointed with effect from 2019-09-01 is Tobias Brenner (born 1981), not Thomas Brenner (born 1962)"},
    ],
}

CONTRACTS = [
    {"contract_id": "CT-2016-0092", "title": "Barcode label printers Kiel DC", "counterparty": "Nordlicht Scan GmbH",
     "status": "terminated", "start": "2016-05-01", "end": "2019-04-30", "value_eur": 64800,
     "owner": "Jens Pauly", "terms": "supply and service of 40 label printers",
     "notes": "terminated by us on 2019-04-30 after the supplier's insolvency (proceedings opened 2019-03-12); their contact was Thomas Brenner",
     "incidents": []},
    {"contract_id": "CT-2021-0183", "title": "Scanner maintenance Hamburg DC", "counterparty": "Nordlicht Scanning GmbH",
     "status": "active", "start": "2021-07-01", "end": "2024-06-30", "value_eur": 115200,
     "owner": "Miriam Hoss", "terms": "maintenance of 260 handheld scanners, 48 h swap, SLA 98% availability",
     "notes": "SLA met in every quarter (lowest 98.7% in 2023-Q1); renewal under negotiation",
     "incidents": [{"date": "2023-02-14", "text": "swap pool ran short for 3 days after a firmware recall; credited 1,150 EUR"}]},
    {"contract_id": "CT-2019-0447", "title": "Warehouse handheld fleet rental Leipzig", "counterparty": "Korvell Data Systems GmbH",
     "status": "terminated", "start": "2019-10-01", "end": "2022-06-30", "value_eur": 221000,
     "owner": "Jens Pauly", "terms": "rental of 300 handhelds with device management, SLA 97% availability",
     "notes": "terminated early for repeated SLA breaches (availability 93.1% in 2021-Q4, 94.6% in 2022-Q1); settlement 18,500 EUR in our favour",
     "incidents": [{"date": "2021-11-22", "text": "device management outage, 2 days"},
                   {"date": "2022-02-08", "text": "firmware rollout bricked 41 devices"},
                   {"date": "2022-03-30", "text": "second SLA breach notice sent by Jens Pauly"}]},
    {"contract_id": "CT-2023-0311", "title": "Mobile printer pilot Poznan", "counterparty": "Korvell Data Systems Ltd",
     "status": "expired", "start": "2023-03-01", "end": "2023-08-31", "value_eur": 12400,
     "owner": "Miriam Hoss", "terms": "pilot of 20 mobile printers", "notes": "pilot ended as planned; not extended",
     "incidents": []},
]

ARTICLES = [
    {"article_id": "NW-41877", "date": "2019-03-14", "source": "Kieler Wirtschaft",
     "headline": "Kiel scanner maker Nordlicht Scan files for insolvency",
     "snippet": "Managing director Thomas Brenner blamed the loss of two retail customers.",
     "body": "Nordlicht Scan GmbH, a Kiel maker of barcode scanners and label printers, has filed for insolvency. Managing director Thomas Brenner blamed the loss of two retail customers and a failed product launch. About 60 jobs are affected. The court appointed an administrator on 2019-03-12. Customers with service contracts were told to expect delays."},
    {"article_id": "NW-52290", "date": "2021-09-30", "source": "Logistik Heute",
     "headline": "Nordlicht Scanning opens service hub in Poznan",
     "snippet": None,
     "body": "Hamburg-based Nordlicht Scanning GmbH opened a repair and swap hub in Poznan run by its subsidiary Nordlicht Service Polska. The company said the hub would cut swap times for customers in Poland and eastern Germany to 24 hours."},
    {"article_id": "NW-61204", "date": "2024-05-21", "source": "Logistik Heute",
     "headline": "Nordlicht Scanning wins warehouse technology award",
     "snippet": "Managing director Tobias Brenner accepted the award for the NS-7 rugged scanner.",
     "body": "Nordlicht Scanning GmbH won this year's warehouse technology award for its NS-7 rugged scanner. Managing director Tobias Brenner accepted the award in Hamburg and announced a second swap hub. The jury praised the scanner's battery life and the company's service record."},
    {"article_id": "NW-58812", "date": "2023-11-14", "source": "The Register",
     "headline": "Korvell Data Systems confirms breach of customer portal",
     "snippet": "Director Daniel Ashcombe said device serials and customer contacts were exposed.",
     "body": "Korvell Data Systems Ltd has confirmed that attackers accessed its customer portal for eleven days in October. Director Daniel Ashcombe said device serial numbers, customer contact details and support tickets were exposed, but no payment data. The German subsidiary Korvell Data Systems GmbH, led by Anna Lindquist, notified its customers separately. The company has hired an outside firm to review its security."},
    {"article_id": "NW-59370", "date": "2024-02-02", "source": "Computer Weekly",
     "headline": "ICO fines Korvell Data Systems 1.2m GBP over portal breach",
     "snippet": "The regulator found that patches had been outstanding for nine months.",
     "body": "The Information Commissioner's Office fined Korvell Data Systems Ltd 1.2m GBP over the 2023 breach of its customer portal, finding that security patches had been outstanding for nine months. Director Ana Lindqvist said the company had since rebuilt the portal. Korvell said it would not appeal."},
    {"article_id": "NW-60117", "date": "2024-04-03", "source": "Logistics Manager",
     "headline": "Korvel Data wound up after failed merger",
     "snippet": "The Leeds firm was struck off in 2022.",
     "body": "Korvel Data Ltd, a Leeds software firm unrelated to Korvell Data Systems, was struck off the register in 2022 after a failed merger. Its founder Imran Shah has started a new business."},
    {"article_id": "NW-49925", "date": "2021-03-08", "source": "Dagens Industri",
     "headline": "Vantaro Devices doubles handheld sales",
     "snippet": "CEO Elin Sjoberg expects growth in logistics.",
     "body": "Vantaro Devices AB doubled its sales of rugged handhelds in 2020. CEO Elin Sjöberg expects further growth in logistics and has opened a Finnish subsidiary, Vantaro Devices Oy."},
    {"article_id": "NW-60455", "date": "2024-04-30", "source": "Dagens Industri",
     "headline": "Helix Industrial Partners buys majority of Vantaro Group",
     "snippet": "The fund takes 71 percent; Magnus Hedlund becomes chair.",
     "body": "Helix Industrial Partners has bought 71 percent of Vantaro Group AB, the owner of Vantaro Devices AB, through its Fund III. Magnus Hedlund, an operating partner of the fund, becomes chair. Founder Per Vantaro keeps 12 percent. The fund said it plans to merge Vantaro with another portfolio company within two years."},
    {"article_id": "NW-60931", "date": "2024-05-15", "source": "Elektroniktidningen",
     "headline": "Vantaro recalls battery packs of VX-40 handhelds",
     "snippet": "Packs made between October 2023 and February 2024 can swell.",
     "body": "Vantaro Devices AB is recalling the battery packs of its VX-40 rugged handheld made between October 2023 and February 2024 after reports of swelling. The company said about 18,000 packs are affected and that replacements would ship from July. CEO Elin Sjöberg said no injuries had been reported."},
]

REVIEWS = {
    "Nordlicht Scanning GmbH": {"rating": 4.4, "count": 87, "reviews": [
        ("RV-30412", 5, "2024-03-02", "Swap service as promised", "Broken scanners swapped within 48 hours every time."),
        ("RV-30977", 4, "2024-01-19", "Solid devices", "NS-7 survives drops; the charging cradles are flimsy."),
        ("RV-28810", 2, "2023-02-20", "Firmware recall hurt", "A firmware recall left us short of devices for three days."),
        ("RV-31503", 5, "2024-05-28", "Good account management", "Responsive account team in Hamburg.")]},
    "Korvell Data Systems Ltd": {"rating": 3.1, "count": 142, "reviews": [
        ("RV-27731", 1, "2023-11-20", "Our data was in the breach", "We learned about the portal breach from the press."),
        ("RV-29105", 2, "2024-01-09", "Device management unreliable", "Two outages in six months, support slow."),
        ("RV-26320", 4, "2023-06-11", "Good price", "Cheap rental, devices fine."),
        ("RV-30020", 3, "2024-02-27", "Mixed", "Hardware good, software updates break things.")]},
    "Vantaro Devices AB": {"rating": 3.8, "count": 64, "reviews": [
        ("RV-30655", 2, "2024-04-12", "Swollen batteries", "Four VX-40 batteries swelled within a month."),
        ("RV-29988", 5, "2024-02-03", "Great value", "Best price per device we found; good scanner."),
        ("RV-31120", 2, "2024-05-20", "Waiting for replacement packs", "Recall announced, no packs yet."),
        ("RV-28540", 4, "2023-09-30", "Light and fast", "Workers like the VX-40.")]},
}

EXCLUSIONS = {"Thomas Brenner": {"list": "EU EDES exclusion database", "entry": "EDES-2020-0418",
                                 "reason": "fraudulent bankruptcy, Nordlicht Scan GmbH", "until": "2025-03-31",
                                 "born": 1962}}
