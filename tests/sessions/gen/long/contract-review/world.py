"""The world of the `contract-review` session: the vendor contracts of
Halvard Freight Logistics plc, a UK freight and warehousing group, as its
legal-operations team reviews them on Monday 2025-03-03 for the renewals
due up to 2025-09-30: the contract register, the contracts' clauses, their
amendments, the negotiation playbook, the counterparty register, sanctions
screening, the ERP's invoices and the treasury's FX rates.

Planted: six contracts renew automatically inside the horizon. The
warehouse platform MSA of Norvale Systems Ltd (MSA-2021-0147) has a 90-day
non-renewal notice in clause 14.2, but its second amendment (AMD-0147-02,
2023-09-14) made it 120 days, so the last day for notice is 2025-03-16 (a
Sunday), not 2025-04-15; its DPA ends with it. A look-alike counterparty,
Norvale Systems Inc. of Delaware, holds the route-optimiser order form
ORD-NV-0392, invoiced in GBP but whose "Liability Cap" of 1,250,000 is in
"the Currency", defined as US dollars: USD 1,250,000 is GBP 990,099.01 at
the as_of rate, under the playbook's GBP 1,000,000 floor (PB-LIAB-03; the
data-protection super-cap PB-LIAB-08 is its look-alike). The analytics MSA
of Brightwater Analytics Ltd (MSA-2021-0174, a transposed look-alike of
0147, with its own AMD-0174-01) caps liability at GBP 500,000. Kestrel
Datenwerk GmbH's MSA renews by 24 months unless notice is given 6 months
before 2025-08-31: the window closed on 2025-02-28, leaving termination
for convenience (16.4, six months' fees). The sanctions screen flags
Kestrel against the listed KESTREL DATA WORKS LLC of Moscow, a false
positive that the registration number clears. The DPA's breach
notification of 72 hours is beyond the playbook's 48-hour walk-away.
ERP amounts are strings with thousands separators. Deterministic: tool.py
and answers.py read it."""
import datetime as dt

CLIENT = "Halvard Freight Logistics plc"
AS_OF = "2025-03-03"
HORIZON = "2025-09-30"
NOW = "2025-03-03T10:20:00+00:00"

FX_DATE = AS_OF
FX = {"USD": 1.2625, "EUR": 1.1934, "CHF": 1.1372, "SEK": 13.612, "PLN": 4.9811, "DKK": 8.9017}


def day(s):
    return dt.date.fromisoformat(s)


def minus_days(s, n):
    return (day(s) - dt.timedelta(days=n)).isoformat()


def minus_months(s, n):
    d = day(s)
    y, m = d.year, d.month - n
    while m < 1:
        m += 12
        y -= 1
    last = [31, 29 if y % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    return dt.date(y, m, min(d.day, last)).isoformat()


def days_between(a, b):
    return (day(b) - day(a)).days


def weekday(s):
    return day(s).strftime("%A")


def amount_text(x):
    return "{:,.2f}".format(x)


# --- counterparties --------------------------------------------------------------------------------

NORVALE_LTD = "Norvale Systems Ltd"
NORVALE_INC = "Norvale Systems Inc."

# cp_id -> fields
COUNTERPARTIES = {
    "CP-0412": {"legal_name": NORVALE_LTD, "jurisdiction": "England and Wales", "country": "GB",
                "reg_no": "08817342", "registry": "Companies House",
                "address": "4th Floor, 21 Garrick Street, London WC2E 9BB", "vat": "GB 219 4471 06",
                "parent": "Norvale Group Holdings Ltd (England and Wales, 08817001)", "erp_vendor": "V-10412",
                "status": "active", "since": "2022-05-30"},
    "CP-0977": {"legal_name": NORVALE_INC, "jurisdiction": "Delaware, USA", "country": "US",
                "reg_no": "6120457", "registry": "Delaware Division of Corporations",
                "address": "1900 S Congress Ave, Suite 400, Austin, TX 78704", "vat": None,
                "parent": "Norvale Group Holdings Ltd (England and Wales, 08817001)", "erp_vendor": "V-30977",
                "status": "active", "since": "2023-04-18"},
    "CP-0419": {"legal_name": "Brightwater Analytics Ltd", "jurisdiction": "England and Wales", "country": "GB",
                "reg_no": "10933561", "registry": "Companies House",
                "address": "Brightwater House, 8 Quayside, Newcastle upon Tyne NE1 3DX", "vat": "GB 274 0918 33",
                "parent": None, "erp_vendor": "V-10419", "status": "active", "since": "2021-08-09"},
    "CP-0588": {"legal_name": "Kestrel Datenwerk GmbH", "jurisdiction": "Germany", "country": "DE",
                "reg_no": "HRB 118402", "registry": "Amtsgericht München",
                "address": "Landsberger Straße 302, 80687 München", "vat": "DE 297 551 804",
                "parent": "Kestrel Holding AG, Zug (CHE-114.392.507)", "erp_vendor": "V-20588",
                "status": "active", "since": "2022-07-04"},
    "CP-0640": {"legal_name": "Pellucid Print Services Ltd", "jurisdiction": "England and Wales", "country": "GB",
                "reg_no": "06614270", "registry": "Companies House",
                "address": "Unit 7, Wharfedale Business Park, Leeds LS10 1RP", "vat": "GB 936 2207 41",
                "parent": None, "erp_vendor": "V-10640", "status": "active", "since": "2023-03-20"},
    "CP-0231": {"legal_name": "Corvid Cloud Hosting Ltd", "jurisdiction": "England and Wales", "country": "GB",
                "reg_no": "07150398", "registry": "Companies House",
                "address": "3 Brindley Place, Birmingham B1 2JB", "vat": "GB 101 8842 57",
                "parent": None, "erp_vendor": "V-10231", "status": "active", "since": "2020-11-16"},
    "CP-0107": {"legal_name": "Tallis Payroll Services Ltd", "jurisdiction": "Scotland", "country": "GB",
                "reg_no": "SC412877", "registry": "Companies House",
                "address": "44 Melville Street, Edinburgh EH3 7HF", "vat": "GB 133 6120 98",
                "parent": None, "erp_vendor": "V-10107", "status": "active", "since": "2019-09-02"},
}

# --- the contract register -------------------------------------------------------------------------

# id, type, title, cp_id, effective, term_end, auto_renew, renewal_term_months, currency, annual_value,
# owner, parent contract
CONTRACTS = [
    ("MSA-2019-0032", "MSA", "Payroll bureau services", "CP-0107", "2019-11-01", "2025-10-31", True, 12, "GBP",
     96500, "People Operations (Gwen Faulkner)", None),
    ("MSA-2020-0088", "MSA", "Managed hosting and backup services", "CP-0231", "2021-02-01", "2026-01-31", True,
     12, "GBP", 356000, "IT Infrastructure (Ravi Okafor)", None),
    ("MSA-2021-0147", "MSA", "Warehouse management platform (SaaS)", "CP-0412", "2022-07-15", "2025-07-14", True,
     12, "GBP", 896621, "Operations Technology (Priya Raman)", None),
    ("DPA-2021-0147A", "DPA", "Data processing agreement to MSA-2021-0147", "CP-0412", "2022-07-15", "2025-07-14",
     True, 12, "GBP", 0, "Privacy Office (Tom Lennox)", "MSA-2021-0147"),
    ("SOW-2024-0147-03", "SOW", "Wave-planning module rollout (SOW 3 under MSA-2021-0147)", "CP-0412",
     "2024-04-01", "2025-06-30", False, 0, "GBP", 138000, "Operations Technology (Priya Raman)", "MSA-2021-0147"),
    ("MSA-2021-0174", "MSA", "Freight analytics and reporting services", "CP-0419", "2021-10-01", "2025-09-30",
     True, 12, "GBP", 212400, "Commercial Finance (Helen Achterberg)", None),
    ("ORD-NV-0392", "Order Form", "Route optimiser subscription (Order Form 0392, Master Subscription Terms v4.2)",
     "CP-0977", "2023-06-01", "2025-05-31", True, 12, "GBP", 184000, "Transport Planning (Marek Dvorak)", None),
    ("MSA-2022-0219", "MSA", "Telematics data feed and device management", "CP-0588", "2022-09-01", "2025-08-31",
     True, 24, "EUR", 664320, "Fleet (Jonas Lindqvist)", None),
    ("ORD-2023-0458", "Order Form", "Managed label printing service", "CP-0640", "2023-05-01", "2025-04-30", True,
     12, "GBP", 48900, "Warehousing (Aisha Begum)", None),
    ("NDA-2024-0311", "NDA", "Mutual NDA: freight benchmarking study", "CP-0419", "2024-02-12", "2027-02-11",
     False, 0, "GBP", 0, "Commercial Finance (Helen Achterberg)", None),
]
CONTRACT = {c[0]: c for c in CONTRACTS}
SCOPE = [c[0] for c in CONTRACTS if c[6] and AS_OF < c[5] <= HORIZON]

MSA_LTD, DPA_LTD, ORD_INC, MSA_BW, MSA_KE, ORD_PE = ("MSA-2021-0147", "DPA-2021-0147A", "ORD-NV-0392",
                                                     "MSA-2021-0174", "MSA-2022-0219", "ORD-2023-0458")

# --- clauses: contract -> [(section, heading, topic, text)] -----------------------------------------

N14_2_OLD = ('This Agreement shall automatically renew for successive periods of twelve (12) months (each a '
             '"Renewal Term") unless either party gives the other written notice of non-renewal not less than '
             'ninety (90) days before the expiry of the Initial Term or the then-current Renewal Term.')
N14_2_NEW = ('This Agreement shall automatically renew for successive periods of twelve (12) months (each a '
             '"Renewal Term") unless either party gives the other written notice of non-renewal not less than '
             'one hundred and twenty (120) days before the expiry of the Initial Term or the then-current '
             'Renewal Term.')
N14_2A = ('A notice of non-renewal under clause 14.2 shall be served in accordance with clause 24.3 and shall take '
          'effect only on its receipt by the other party; notice by email alone shall not be valid.')
DPA_7_1 = ('The Processor shall notify the Controller without undue delay and in any event within seventy-two (72) '
           'hours after becoming aware of a Personal Data Breach, providing the information required by Article '
           '33(3) UK GDPR to the extent then available.')
NV_1_2 = '"Liability Cap" means 1,250,000 (one million two hundred and fifty thousand) in the Currency.'
NV_1_3 = ('"Currency" means United States dollars (USD). Fees are invoiced quarterly in pounds sterling (GBP) at '
          'the Invoice Rate set out in Schedule B; invoicing in GBP does not change the Currency of any amount '
          'stated in this Order Form.')
KE_19_2 = ('The Agreement shall be extended automatically by twenty-four (24) months at a time unless terminated by '
           'either party with six (6) months\' notice to the end of the respective term.')
KE_16_4 = ('The Customer may terminate the Agreement for convenience with three (3) months\' notice to the end of a '
           'calendar month, against payment of a termination fee equal to the Fees for six (6) months at the rate '
           'applicable on the date of the notice.')

CLAUSES = {
    MSA_LTD: [
        ("1.1", "Definitions", "definitions",
         '"Charges" means the charges payable by the Customer for the Services as set out in Schedule 4 (Charges); '
         '"Contract Year" means each period of twelve (12) months beginning on the Effective Date or an anniversary '
         'of it; "Initial Term" means the period of three (3) years from the Effective Date; "Services" means the '
         'warehouse management platform services described in Schedule 1.'),
        ("2.1", "Commencement and term", "term",
         'This Agreement commences on 15 July 2022 (the "Effective Date") and shall continue for the Initial Term, '
         'after which it shall renew in accordance with clause 14.2.'),
        ("6.3", "Service levels", "service_levels",
         'The Supplier shall meet the Service Levels in Schedule 3. Where Availability in any month falls below '
         '99.7%, the Customer shall be entitled to the Service Credits in Schedule 3, which shall not exceed fifteen '
         'per cent (15%) of the monthly Charges.'),
        ("7.2", "Invoicing and payment", "payment",
         '(a) The Supplier shall invoice the Charges monthly in arrears. (b) The Customer shall pay each valid and '
         'undisputed invoice within forty-five (45) days of receipt. (c) Interest on late payment accrues at two per '
         'cent (2%) a year above the Bank of England base rate.'),
        ("7.4", "Indexation", "price",
         'On each anniversary of the Effective Date the Supplier may increase the Charges by no more than the lower '
         'of CPI and five per cent (5%), by giving not less than sixty (60) days\' written notice.'),
        ("9.1", "Limitation of liability", "liability_cap",
         'Subject to clauses 9.2 and 9.3, each party\'s total aggregate liability arising out of or in connection '
         'with this Agreement, whether in contract, tort (including negligence), breach of statutory duty or '
         'otherwise, shall not exceed in each Contract Year the greater of (a) one hundred per cent (100%) of the '
         'Charges paid or payable in the twelve (12) months immediately preceding the event giving rise to the claim '
         'and (b) one million five hundred thousand pounds sterling (£1,500,000).'),
        ("9.2", "Unlimited liability", "liability_exclusions",
         'Nothing in this Agreement limits either party\'s liability for death or personal injury caused by its '
         'negligence, for fraud or fraudulent misrepresentation, or for any liability which cannot be limited by '
         'law.'),
        ("9.3", "Data protection cap", "data_protection_cap",
         'The Supplier\'s total aggregate liability for breach of clause 11 (Data Protection) or of the DPA shall '
         'not exceed three million pounds sterling (£3,000,000).'),
        ("11.1", "Data protection", "data_protection",
         'Each party shall comply with the Data Protection Legislation. The parties\' obligations in respect of '
         'Personal Data processed by the Supplier are set out in the data processing agreement between them dated '
         '15 July 2022 (the "DPA").'),
        ("14.1", "Termination for convenience", "termination_convenience",
         'The Customer may terminate this Agreement for convenience on one hundred and eighty (180) days\' written '
         'notice, subject to payment of the Early Termination Fee set out in Schedule 4.'),
        ("14.2", "Renewal", "renewal", N14_2_OLD),
        ("14.4", "Exit", "exit",
         'On expiry or termination the Supplier shall provide the Exit Services for up to six (6) months at the '
         'rates in Schedule 4 and shall return all Customer Data in CSV format within thirty (30) days.'),
        ("21.1", "Governing law", "governing_law",
         'This Agreement and any dispute or claim (including non-contractual disputes or claims) arising out of or '
         'in connection with it shall be governed by the law of England and Wales.'),
        ("21.2", "Jurisdiction", "jurisdiction",
         'The courts of England shall have exclusive jurisdiction to settle any dispute or claim arising out of or '
         'in connection with this Agreement.'),
        ("24.3", "Notices", "notices",
         'Notices under clause 14 shall be in writing and delivered by hand or by recorded delivery to the '
         'registered office of the recipient, with a copy by email to legal@norvale.co.uk (Supplier) or '
         'contracts@halvardfreight.co.uk (Customer).'),
    ],
    DPA_LTD: [
        ("1.1", "Definitions", "definitions",
         '"Controller", "Processor", "Personal Data", "Personal Data Breach" and "Sub-processor" have the meanings '
         'given in the UK GDPR; "Agreement" means the master services agreement MSA-2021-0147 between the parties '
         'dated 15 July 2022.'),
        ("3.1", "Processing on instructions", "data_protection",
         'The Processor shall process Customer Personal Data only on the documented instructions of the Controller, '
         'including as set out in Annex 1 (Details of Processing).'),
        ("5.2", "Sub-processors", "subprocessors",
         'The Processor shall give the Controller not less than thirty (30) days\' prior written notice of any '
         'intended addition or replacement of a Sub-processor, during which the Controller may object on '
         'reasonable data protection grounds.'),
        ("7.1", "Personal Data Breach", "breach_notification", DPA_7_1),
        ("8.2", "Audits", "audit",
         'The Controller may audit the Processor\'s compliance with this DPA once in any twelve (12) month period '
         'on thirty (30) days\' written notice, or at any time following a Personal Data Breach.'),
        ("9.1", "International transfers", "transfers",
         'The Processor shall not transfer Customer Personal Data outside the United Kingdom except to its '
         'affiliate Norvale Systems Inc. (United States) for second-line support, under the International Data '
         'Transfer Addendum attached as Annex 3.'),
        ("10.1", "Liability", "liability_cap",
         'The liability of each party under this DPA is subject to the limitations and exclusions of clause 9 of the '
         'Agreement, including the data protection cap in clause 9.3 of the Agreement.'),
        ("12.1", "Duration", "renewal",
         'This DPA shall remain in force for so long as the Processor processes Customer Personal Data under the '
         'Agreement and shall terminate automatically on the termination or expiry of the Agreement.'),
        ("13.1", "Governing law", "governing_law",
         'This DPA is governed by the law of England and Wales, and the courts of England have exclusive '
         'jurisdiction.'),
    ],
    ORD_INC: [
        ("1.1", "Terms", "definitions",
         '"Terms" means the Norvale Systems Inc. Master Subscription Terms version 4.2, which are incorporated into '
         'this Order Form; if they conflict, this Order Form prevails.'),
        ("1.2", "Liability Cap", "liability_cap", NV_1_2),
        ("1.3", "Currency", "definitions", NV_1_3),
        ("3.1", "Subscription", "scope",
         'Norvale Route Optimizer, Enterprise tier: up to 420 vehicles and 6 planning seats, hosted in the AWS '
         'us-east-1 and eu-west-2 regions.'),
        ("4.2", "Fees", "price",
         'Annual subscription fee: USD 229,080, invoiced quarterly in arrears at the Invoice Rate of 1.2450 USD per '
         'GBP (GBP 46,000.00 a quarter).'),
        ("8.3", "Renewal", "renewal",
         'The Subscription Term renews automatically for successive twelve (12) month periods unless Customer '
         'notifies Norvale in writing at least sixty (60) days prior to the end of the then-current Subscription '
         'Term.'),
        ("8.4", "Renewal pricing", "price",
         'Norvale may increase the Fees for a renewal term by up to seven per cent (7%) by notice given at least '
         'ninety (90) days before the end of the Subscription Term.'),
        ("9.1", "Limitation of Liability", "liability_cap",
         'EXCEPT FOR EXCLUDED CLAIMS, EACH PARTY\'S AGGREGATE LIABILITY ARISING OUT OF OR RELATING TO THIS ORDER '
         'FORM AND THE TERMS SHALL NOT EXCEED THE LIABILITY CAP.'),
        ("9.2", "Excluded Claims", "liability_exclusions",
         '"Excluded Claims" means (a) a party\'s indemnification obligations under Section 10 of the Terms, '
         '(b) Customer\'s obligation to pay Fees, and (c) a party\'s gross negligence, fraud or wilful misconduct.'),
        ("11.1", "Data processing", "data_protection",
         'Norvale processes Customer Personal Data only under the Data Processing Addendum version 2.1 published at '
         'norvale.com/legal/dpa, which forms part of the Terms.'),
        ("12.1", "Governing law", "governing_law",
         'This Order Form and the Terms are governed by the laws of the State of New York, without regard to its '
         'conflict of laws rules; the state and federal courts in New York County have exclusive jurisdiction.'),
        ("13.2", "Notices", "notices",
         'Notices to Norvale shall be sent to legal@norvalesystems.com with a copy to Norvale Systems Inc., '
         'Attn: General Counsel, 1900 S Congress Ave, Suite 400, Austin, TX 78704.'),
    ],
    MSA_BW: [
        ("1.1", "Definitions", "definitions",
         '"Fees" means the fees set out in clause 8.1; "Initial Term" means four (4) years from 1 October 2021; '
         '"Deliverables" means the monthly freight analytics reports and dashboards described in Schedule 2.'),
        ("8.1", "Fees", "price",
         'The Customer shall pay the Supplier sixteen thousand five hundred pounds (£16,500) per month, invoiced '
         'monthly in advance.'),
        ("10.1", "Exclusions", "liability_exclusions",
         'Nothing in this Agreement limits liability for death or personal injury caused by negligence, or for '
         'fraud or fraudulent misrepresentation.'),
        ("10.2", "Limitation of liability", "liability_cap",
         'Subject to clause 10.1, the Supplier\'s total liability under or in connection with this Agreement, '
         'whether arising in contract, tort (including negligence) or otherwise, shall be limited to five hundred '
         'thousand pounds (£500,000) in aggregate.'),
        ("10.4", "Indirect loss", "liability_exclusions",
         'Neither party shall be liable for loss of profits, revenue, goodwill or anticipated savings, or for any '
         'indirect or consequential loss.'),
        ("12.3", "Personal data", "data_protection",
         'The Supplier shall not receive Personal Data under this Agreement other than the business contact '
         'details of the Customer\'s staff.'),
        ("17.1", "Renewal", "renewal",
         'On expiry of the Initial Term this Agreement shall renew for a further period of twelve (12) months, and '
         'on each anniversary thereafter, unless terminated by either party giving not less than three (3) months\' '
         'written notice expiring on the last day of the Initial Term or of any renewal period.'),
        ("17.3", "Termination for convenience", "termination_convenience",
         'Either party may terminate this Agreement on six (6) months\' written notice.'),
        ("20.1", "Governing law", "governing_law",
         'This Agreement is governed by the law of England and Wales and the parties submit to the exclusive '
         'jurisdiction of the courts of England.'),
    ],
    MSA_KE: [
        ("1.1", "Definitions", "definitions",
         '"Devices" means the telematics units listed in Annex 1; "Data Feed" means the vehicle position and CAN '
         'bus data feed described in Annex 2; "Fees" means the fees in clause 4.1, stated in euros (EUR).'),
        ("4.1", "Fees", "price",
         'The Customer shall pay Fees of EUR 640,000 per contract year, in twelve equal monthly instalments.'),
        ("4.5", "Price adjustment", "price",
         'Kestrel may adjust the Fees once a year in line with the German consumer price index (VPI) published by '
         'Destatis, by no more than four per cent (4%).'),
        ("13.1", "Exclusions", "liability_exclusions",
         'The limitations below do not apply to liability for intent or gross negligence, for injury to life, body '
         'or health, or under the German Product Liability Act (ProdHaftG).'),
        ("13.3", "Limitation of liability", "liability_cap",
         'In all other cases the liability of either party shall be limited to EUR 2,000,000 (two million euros) '
         'per contract year.'),
        ("13.5", "Data protection liability", "data_protection_cap",
         'For breaches of Annex 3 (Data Processing) Kestrel\'s liability shall be limited to EUR 4,000,000 (four '
         'million euros) in aggregate.'),
        ("16.4", "Termination for convenience", "termination_convenience", KE_16_4),
        ("19.2", "Term and renewal", "renewal", KE_19_2),
        ("19.4", "Form of notice", "notices",
         'Any notice of termination must be given in text form (Section 126b BGB) to vertrag@kestrel-datenwerk.de.'),
        ("22.1", "Governing law", "governing_law",
         'This Agreement is governed by the laws of the Federal Republic of Germany, excluding the UN Convention on '
         'Contracts for the International Sale of Goods (CISG). Place of jurisdiction is Munich.'),
    ],
    ORD_PE: [
        ("2.1", "Services", "scope",
         'Managed label printing: 38 Zebra ZT411 printers across the Daventry, Thurrock, Doncaster and Bellshill '
         'sites, with consumables, next-business-day repair and a loan pool of 4 printers.'),
        ("3.1", "Fees", "price", 'GBP 4,075 per month, invoiced monthly in arrears, payable within 30 days.'),
        ("5.1", "Term", "term", 'Twenty-four (24) months from 1 May 2023.'),
        ("5.2", "Renewal", "renewal",
         'This Order Form renews for successive one (1) year terms unless either party gives at least thirty (30) '
         'days\' written notice before the end of the current term.'),
        ("7.1", "Limitation of liability", "liability_cap",
         'Each party\'s total liability under this Order Form shall be limited to one hundred per cent (100%) of the '
         'fees paid under it in the twelve (12) months preceding the claim.'),
        ("7.2", "Exclusions", "liability_exclusions",
         'Clause 7.1 does not limit liability for death or personal injury caused by negligence, or for fraud.'),
        ("8.1", "Print data", "data_protection",
         'Print jobs are rendered on the Customer\'s own print servers; the Supplier has no access to the content of '
         'print jobs or to any Personal Data, and its engineers work on printers only after the Customer has '
         'cleared their job queues.'),
        ("9.1", "Governing law", "governing_law", 'The law of England and Wales governs this Order Form.'),
    ],
    "MSA-2019-0032": [
        ("15.1", "Renewal", "renewal",
         'This Agreement renews for successive twelve (12) month periods unless either party gives three (3) '
         'months\' written notice before the end of the then-current term.'),
        ("11.2", "Limitation of liability", "liability_cap",
         'Each party\'s aggregate liability shall not exceed one million pounds (£1,000,000).'),
    ],
    "MSA-2020-0088": [
        ("18.1", "Renewal", "renewal",
         'This Agreement renews for successive twelve (12) month periods unless either party gives ninety (90) '
         'days\' written notice before the end of the then-current term.'),
        ("12.1", "Limitation of liability", "liability_cap",
         'Each party\'s aggregate liability shall not exceed the greater of 150% of the annual charges and '
         '£1,000,000.'),
    ],
    "SOW-2024-0147-03": [
        ("1.1", "Agreement", "definitions",
         'This Statement of Work No. 3 is issued under and governed by the master services agreement MSA-2021-0147; '
         'on the expiry or termination of that agreement this SOW ends with it.'),
        ("2.1", "Scope", "scope",
         'Rollout of the wave-planning module to the Daventry and Thurrock sites: configuration, data migration, '
         'user acceptance testing and hypercare.'),
        ("3.2", "Milestones", "price",
         'M1 design sign-off GBP 41,400 (June 2024); M2 Daventry go-live GBP 55,200 (October 2024); M3 Thurrock '
         'go-live and hypercare exit GBP 41,400 (May 2025).'),
        ("4.1", "Term", "term", 'This SOW ends on 30 June 2025 or on acceptance of milestone M3, if earlier.'),
    ],
    "NDA-2024-0311": [
        ("6.1", "Term", "term", 'This Agreement lasts three (3) years from 12 February 2024.'),
    ],
}
VERSIONS = {MSA_LTD: "executed 2022-07-12", DPA_LTD: "executed 2022-07-12", ORD_INC: "executed 2023-05-24",
            MSA_BW: "executed 2021-09-21", MSA_KE: "executed 2022-08-19", ORD_PE: "executed 2023-04-26"}

# --- amendments: contract -> [(id, signed, title, signatories, [(section, action, text)])] -----------

AMENDMENTS = {
    MSA_LTD: [
        ("AMD-0147-01", "2022-11-02", "First amendment: service levels",
         ["Priya Raman (Halvard)", "Callum Reid (Norvale Systems Ltd)"],
         [("6.3", "replace",
           'The Supplier shall meet the Service Levels in Schedule 3. Where Availability in any month falls below '
           '99.8%, the Customer shall be entitled to the Service Credits in Schedule 3, which shall not exceed twenty '
           'per cent (20%) of the monthly Charges.')]),
        ("AMD-0147-02", "2023-09-14", "Second amendment: commercial terms",
         ["Fiona Marsh (Halvard)", "Callum Reid (Norvale Systems Ltd)"],
         [("14.2", "replace", N14_2_NEW),
          ("14.2A", "insert", N14_2A),
          ("Schedule 4", "replace", 'Charges from 15 July 2023: GBP 73,110 a month; indexation under clause 7.4 '
                                    'applies from 15 July 2024.')]),
    ],
    MSA_BW: [
        ("AMD-0174-01", "2024-03-28", "Amendment 1: fees",
         ["Helen Achterberg (Halvard)", "Dominic Yeo (Brightwater Analytics Ltd)"],
         [("8.1", "replace",
           'The Customer shall pay the Supplier seventeen thousand seven hundred pounds (£17,700) per month from 1 '
           'April 2024, invoiced monthly in advance.')]),
    ],
    MSA_KE: [
        ("AMD-0219-01", "2024-01-22", "Nachtrag 1: price adjustment",
         ["Jonas Lindqvist (Halvard)", "Dr. Sabine Ortmann (Kestrel Datenwerk GmbH)"],
         [("4.5", "replace",
           'Kestrel may adjust the Fees once a year with effect from 1 September in line with the German consumer '
           'price index (VPI) published by Destatis, by no more than six per cent (6%).')]),
    ],
}


def amended(contract_id, section):
    """The amendment that replaced `section` of `contract_id`, or None."""
    for a in AMENDMENTS.get(contract_id, []):
        for sec, action, _ in a[4]:
            if sec == section and action == "replace":
                return a[0]
    return None


# --- the playbook ---------------------------------------------------------------------------------

PLAYBOOK = [
    {"id": "PB-LIAB-03", "topic": "liability_cap", "title": "General liability cap (supplier contracts)",
     "standard": "The supplier's aggregate cap is not less than the greater of (i) 100% of the charges paid or "
                 "payable in the preceding 12 months and (ii) GBP 1,000,000 (or its equivalent at the treasury "
                 "rate on the review date).",
     "fallback": "GBP 750,000 for contracts under GBP 250,000 a year, with CFO sign-off.",
     "walkaway": "A cap below GBP 500,000, or a cap of fees alone for a contract over GBP 100,000 a year.",
     "approver": "General Counsel"},
    {"id": "PB-LIAB-05", "topic": "liability_cap", "title": "Liability cap, low-value contracts",
     "standard": "For contracts under GBP 100,000 a year, a cap of 100% of the annual fees is acceptable where the "
                 "supplier processes no personal data.",
     "fallback": None, "walkaway": "Any cap below the annual fees.", "approver": "Legal Operations Manager"},
    {"id": "PB-LIAB-08", "topic": "data_protection_cap", "title": "Data protection super-cap",
     "standard": "A separate cap for breach of data protection obligations of not less than the greater of 3x the "
                 "annual charges and GBP 2,500,000; unlimited for wilful breach.",
     "fallback": "2x the annual charges, with DPO sign-off.", "walkaway": "No separate data protection cap.",
     "approver": "Data Protection Officer"},
    {"id": "PB-TERM-02", "topic": "renewal", "title": "Auto-renewal and non-renewal notice",
     "standard": "Automatic renewal only with a non-renewal notice period of no more than 90 days and renewal "
                 "terms of no more than 12 months.",
     "fallback": "Up to 6 months' notice or 24-month renewal terms for strategic suppliers, with Procurement "
                 "Director approval.",
     "walkaway": "Notice periods over 6 months.", "approver": "Procurement Director"},
    {"id": "PB-TERM-05", "topic": "termination_convenience", "title": "Termination for convenience",
     "standard": "The customer may terminate for convenience on no more than 90 days' notice, with a termination "
                 "fee of no more than 3 months' charges.",
     "fallback": "180 days' notice or a fee of up to 6 months' charges.", "walkaway": "No termination right.",
     "approver": "General Counsel"},
    {"id": "PB-DP-02", "topic": "breach_notification", "title": "Personal data breach notification",
     "standard": "The processor notifies the controller without undue delay and in any event within 24 hours of "
                 "becoming aware of a personal data breach.",
     "fallback": "Within 48 hours, with DPO sign-off.",
     "walkaway": "More than 48 hours, or 'without undue delay' with no fixed period.",
     "approver": "Data Protection Officer"},
    {"id": "PB-DP-04", "topic": "subprocessors", "title": "Sub-processor changes",
     "standard": "At least 30 days' prior notice of a new sub-processor, with a right to object.",
     "fallback": "14 days' notice.", "walkaway": "General authorisation without notice.",
     "approver": "Data Protection Officer"},
    {"id": "PB-LAW-01", "topic": "governing_law", "title": "Governing law and jurisdiction",
     "standard": "Law of England and Wales; exclusive jurisdiction of the English courts.",
     "fallback": "The supplier's home law within the EU/EEA or the State of New York, with General Counsel "
                 "approval, recorded in the renewal memo.",
     "walkaway": "Any other law, or arbitration seated outside London, Paris or New York.",
     "approver": "General Counsel"},
    {"id": "PB-PRICE-01", "topic": "price", "title": "Price increases",
     "standard": "Increases at most once a year, capped at the lower of CPI and 5%, on 60 days' notice.",
     "fallback": "Capped at 7%.", "walkaway": "Uncapped increases.", "approver": "Procurement Director"},
]
PB = {p["id"]: p for p in PLAYBOOK}

# --- sanctions lists ------------------------------------------------------------------------------

LISTED = [
    {"entry": "KESTREL DATA WORKS LLC (a.k.a. OOO KESTREL DATAWORKS)", "list": "OFAC SDN; UK OFSI Consolidated",
     "program": "RUSSIA-EO14024", "country": "RU", "address": "Prospekt Mira 68, Moscow 129110",
     "registration": "OGRN 1187746521093", "listed": "2023-05-19", "ofsi_group_id": "15872",
     "match_on": ["kestrel", "data", "werk"]},
    {"entry": "NORVAL SHIPPING SYSTEMS CO.", "list": "OFAC SDN", "program": "IRAN", "country": "IR",
     "address": "Bandar Abbas", "registration": None, "listed": "2019-09-03", "ofsi_group_id": None,
     "match_on": []},
]

# --- the ERP: invoices of the last 12 months ------------------------------------------------------

SPEND_PERIOD = ("2024-03-01", "2025-02-28")


def _month_ends():
    out = []
    for y, m in [(2024, m) for m in range(3, 13)] + [(2025, 1), (2025, 2)]:
        nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
        out.append((nxt - dt.timedelta(days=1)).isoformat())
    return out


MONTH_ENDS = _month_ends()


def _invoices():
    inv = {}
    rows = []
    for i, d in enumerate(MONTH_ENDS):
        amt = 73110.00 if d < "2024-07-15" else 74718.42
        rows.append(("NSL-%d" % (240311 + i * 7), d, "PO-4500187731", "WMS platform charges, %s" % d[:7], amt))
    inv[MSA_LTD] = rows
    inv[ORD_INC] = [("NSI-2024-%04d" % (1184 + i * 53), d, "PO-4500201456", "Route Optimizer subscription, "
                     "quarter ending %s" % d, 46000.00) for i, d in enumerate(MONTH_ENDS[2::3])]
    inv[MSA_BW] = [("BWA-%05d" % (30871 + i * 3), d[:8] + "01", "PO-4500166092",
                    "Freight analytics, %s" % d[:7], 16500.00 if d < "2024-04" else 17700.00)
                   for i, d in enumerate(MONTH_ENDS)]
    inv[MSA_KE] = [("KDW-RE-%06d" % (240330 + i * 11), d, "PO-4500179918",
                    "Telematik-Datenfeed %s" % d[:7], 53333.33 if d < "2024-09-01" else 55360.00)
                   for i, d in enumerate(MONTH_ENDS)]
    inv[ORD_PE] = [("PPS-%d" % (77120 + i * 4), d, "PO-4500198840", "Managed print service %s" % d[:7], 4075.00)
                   for i, d in enumerate(MONTH_ENDS)]
    inv[DPA_LTD] = []
    return inv


INVOICES = _invoices()
CURRENCY = {MSA_LTD: "GBP", ORD_INC: "GBP", MSA_BW: "GBP", MSA_KE: "EUR", ORD_PE: "GBP", DPA_LTD: "GBP"}


def spend_12m(cid):
    return round(sum(r[4] for r in INVOICES.get(cid, [])), 2)


# --- what the review finds (for answers.py) -------------------------------------------------------

def gbp(amount, ccy):
    return amount if ccy == "GBP" else amount / FX[ccy]


def cents(x):
    return round(x * 100) / 100.0
