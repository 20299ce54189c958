"""The world of the `claims-adjudication` session: Cascadia Health Plan's
pended professional-claims queue on Friday 2025-03-14, the day several of its
claims reach the 30-day prompt-pay limit (Washington, WAC 284-170).

Planted:
- two members named Maria Delgado born in 1986: M0048213-02 (spouse on a
  PPO 1500 family contract, rating area 02, deductible 1375.00 of 1500.00
  met) and M0052907-01 (subscriber of an HMO 2000 contract, deductible met);
  each has a J0897 (denosumab) prior authorization: PA-771902 (-02) and
  PA-771920 (-01).
- CLM-2025-0081734 (Delgado -02, office visit 99214-25 with a trigger-point
  injection at Rao Family Medicine in Spokane, locality 04) and
  CLM-2025-0081784 (Delgado -01, 99215, billed under NPI 1487652290, which
  fails the NPI check digit; Rao's real NPI is 1487652293).
- the member's rating area (02, Seattle) is not the pricing locality: the
  fee schedule is priced at the rendering provider's locality (FS-3.1).
- CLM-2025-0081762: the same member's same-day lab claim; once it posts, the
  deductible left for 0081734 drops from 125.00 to 66.03.
- CLM-2025-0081791 duplicates the paid CLM-2025-0079115 (99215 + 73562);
  CLM-2025-0079151 is a different visit (99214, 2025-01-14).
- CLM-2025-0081810: a child whose father's plan is primary (birthday rule);
  the primary EOB is attached as text.
- CLM-2025-0081833: coverage ended 2025-01-31.
Deterministic: tool.py and answers.py read it."""

AS_OF = "2025-03-14"
NOW = "2025-03-14T09:05:00-07:00"
BATCH = "PEND-PROF-20250314"
ADJUDICATOR = "kmorales"
PROMPT_DAYS = 30


def npi(base):
    """A 10-digit NPI: `base` (9 digits) and its Luhn check digit (prefix 80840)."""
    tot = 0
    for i, ch in enumerate(reversed("80840" + base)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        tot += d
    return base + str((10 - tot % 10) % 10)


def npi_valid(s):
    return isinstance(s, str) and len(s) == 10 and s.isdigit() and npi(s[:9]) == s


NPI_RAO = npi("148765229")
NPI_RAO_BAD = "1487652290"
assert NPI_RAO != NPI_RAO_BAD and not npi_valid(NPI_RAO_BAD)
NPI_INP = npi("152038847")
NPI_SUMMIT = npi("177409316")
NPI_CASCADE = npi("130662584")
NPI_NORTHGATE = npi("164591072")
NPI_SBJ = npi("119834457")
NPI_PUGET = npi("186020733")
NPI_OLYMPIC = npi("141257908")

LOCALITIES = {"02": "Seattle (King County)", "03": "Everett (Snohomish County)",
              "04": "Spokane (Eastern Washington)", "99": "Rest of Washington"}

PROVIDERS = {
    NPI_RAO: {"name": "Rao Family Medicine PLLC", "rendering": "Anika Rao, MD", "type": "group",
              "specialty": "Family Medicine", "tin": "91-1834402", "network_status": "in-network",
              "networks": ["Cascadia PPO", "Cascadia HMO"], "effective": "2019-07-01", "locality": "04",
              "service_address": "1210 N Division St, Spokane WA 99202"},
    NPI_INP: {"name": "Inland Northwest Pathology LLP", "rendering": None, "type": "independent lab",
              "specialty": "Clinical Laboratory", "tin": "91-2207815", "network_status": "in-network",
              "networks": ["Cascadia PPO", "Cascadia HMO"], "effective": "2016-01-01", "locality": "04",
              "service_address": "601 W 5th Ave, Spokane WA 99204"},
    NPI_SUMMIT: {"name": "Summit Rheumatology & Bone Health", "rendering": "Lena Hartwell, MD", "type": "group",
                 "specialty": "Rheumatology", "tin": "91-3390127", "network_status": "in-network",
                 "networks": ["Cascadia HMO"], "effective": "2021-04-01", "locality": "99",
                 "service_address": "1301 Walla Walla Ave, Wenatchee WA 98801"},
    NPI_CASCADE: {"name": "Cascade Orthopedic Associates", "rendering": "Peter Lindqvist, MD", "type": "group",
                  "specialty": "Orthopaedic Surgery", "tin": "91-1457730", "network_status": "in-network",
                  "networks": ["Cascadia PPO"], "effective": "2018-03-01", "locality": "02",
                  "service_address": "1600 E Jefferson St, Seattle WA 98122"},
    NPI_NORTHGATE: {"name": "Northgate Pediatrics", "rendering": "Sun-Hee Park, MD", "type": "group",
                    "specialty": "Pediatrics", "tin": "91-2764118", "network_status": "in-network",
                    "networks": ["Cascadia PPO", "Cascadia HMO"], "effective": "2017-09-01", "locality": "02",
                    "service_address": "10330 Meridian Ave N, Seattle WA 98133"},
    NPI_SBJ: {"name": "Spokane Bone & Joint", "rendering": "Owen Brandt, MD", "type": "group",
              "specialty": "Endocrinology", "tin": "91-2081954", "network_status": "in-network",
              "networks": ["Cascadia PPO"], "effective": "2020-02-01", "locality": "04",
              "service_address": "910 W 5th Ave, Spokane WA 99204"},
    NPI_PUGET: {"name": "Puget Sound Dermatology", "rendering": "Hana Okafor, MD", "type": "group",
                "specialty": "Dermatology", "tin": "91-3012266", "network_status": "out-of-network",
                "networks": [], "effective": None, "locality": "03",
                "service_address": "3301 Colby Ave, Everett WA 98201"},
    NPI_OLYMPIC: {"name": "Olympic Physical Therapy", "rendering": "Marco Reyes, DPT", "type": "group",
                  "specialty": "Physical Therapy", "tin": "91-1998340", "network_status": "in-network",
                  "networks": ["Cascadia PPO"], "effective": "2015-05-01", "locality": "02",
                  "service_address": "4700 42nd Ave SW, Seattle WA 98116"},
}

PLANS = {
    "CHP-PPO-1500": {"plan_name": "Cascadia PPO 1500", "deductible": 1500.00, "oop_max": 5000.00,
                     "coinsurance": 0.20, "copays": {"primary_care_visit": 30.00, "specialist_visit": 50.00,
                                                     "urgent_care": 75.00}},
    "CHP-HMO-2000": {"plan_name": "Cascadia HMO 2000", "deductible": 2000.00, "oop_max": 6500.00,
                     "coinsurance": 0.20, "copays": {"primary_care_visit": 25.00, "specialist_visit": 45.00,
                                                     "urgent_care": 60.00}},
}

# member_id -> facts; deductible_met / oop_to_date as of the nightly accumulator run of 2025-03-13
MEMBERS = {
    "M0048213-02": {"name": "DELGADO, MARIA L", "dob": "1986-04-11", "sex": "F", "relationship": "spouse",
                    "subscriber_id": "M0048213-01", "subscriber_name": "DELGADO, RAMON A",
                    "group": "GRP-20417 Pacific Rim Freight Co", "plan_id": "CHP-PPO-1500", "rating_area": "02",
                    "coverage_start": "2023-01-01", "coverage_end": None, "deductible_met": 1375.00,
                    "oop_to_date": 1802.40, "address": "4418 Rainier Ave S, Seattle WA 98118"},
    "M0052907-01": {"name": "DELGADO, MARIA", "dob": "1986-09-23", "sex": "F", "relationship": "subscriber",
                    "subscriber_id": "M0052907-01", "subscriber_name": "DELGADO, MARIA",
                    "group": "GRP-31188 Wenatchee School District", "plan_id": "CHP-HMO-2000", "rating_area": "99",
                    "coverage_start": "2024-09-01", "coverage_end": None, "deductible_met": 2000.00,
                    "oop_to_date": 2310.40, "address": "22 Orondo Ave, Wenatchee WA 98801"},
    "M0061178-01": {"name": "WHITFIELD, TERRENCE J", "dob": "1971-06-30", "sex": "M", "relationship": "subscriber",
                    "subscriber_id": "M0061178-01", "subscriber_name": "WHITFIELD, TERRENCE J",
                    "group": "GRP-20930 Elliott Bay Marine", "plan_id": "CHP-PPO-1500", "rating_area": "02",
                    "coverage_start": "2022-04-01", "coverage_end": None, "deductible_met": 640.00,
                    "oop_to_date": 912.75, "address": "2715 W Dravus St, Seattle WA 98199"},
    "M0073344-03": {"name": "NATARAJAN, PRIYA", "dob": "2016-08-02", "sex": "F", "relationship": "child",
                    "subscriber_id": "M0073344-01", "subscriber_name": "NATARAJAN, LAKSHMI",
                    "group": "GRP-41502 Northlake Software", "plan_id": "CHP-PPO-1500", "rating_area": "02",
                    "coverage_start": "2021-01-01", "coverage_end": None, "deductible_met": 1500.00,
                    "oop_to_date": 1644.10, "address": "11820 5th Ave NE, Seattle WA 98125"},
    "M0055561-01": {"name": "ORTEGA, LUIS F", "dob": "1964-12-09", "sex": "M", "relationship": "subscriber",
                    "subscriber_id": "M0055561-01", "subscriber_name": "ORTEGA, LUIS F",
                    "group": "GRP-20417 Pacific Rim Freight Co", "plan_id": "CHP-PPO-1500", "rating_area": "04",
                    "coverage_start": "2020-06-01", "coverage_end": "2025-01-31", "deductible_met": 0.00,
                    "oop_to_date": 0.00, "address": "508 E Sprague Ave, Spokane WA 99202",
                    "termination_reason": "employment ended 2025-01-31; COBRA election window closed 2025-03-02, not elected"},
    "M0064420-01": {"name": "BRENNAN, COLLEEN M", "dob": "1958-03-17", "sex": "F", "relationship": "subscriber",
                    "subscriber_id": "M0064420-01", "subscriber_name": "BRENNAN, COLLEEN M",
                    "group": "GRP-20930 Elliott Bay Marine", "plan_id": "CHP-PPO-1500", "rating_area": "03",
                    "coverage_start": "2019-01-01", "coverage_end": None, "deductible_met": 1500.00,
                    "oop_to_date": 3120.00, "address": "1907 Hoyt Ave, Everett WA 98201"},
    "M0070185-02": {"name": "HOANG, DUC MINH", "dob": "1990-11-05", "sex": "M", "relationship": "spouse",
                    "subscriber_id": "M0070185-01", "subscriber_name": "HOANG, LINH T",
                    "group": "GRP-41502 Northlake Software", "plan_id": "CHP-PPO-1500", "rating_area": "02",
                    "coverage_start": "2024-02-01", "coverage_end": None, "deductible_met": 212.30,
                    "oop_to_date": 212.30, "address": "7710 35th Ave SW, Seattle WA 98126"},
}

# code -> (description, global days, prior auth, unit, {locality: allowed})
FEES = {
    "99213": ("Office/outpatient visit, established patient, low MDM, 20+ min", "XXX", False, "visit",
              {"02": 104.37, "03": 98.21, "04": 92.14, "99": 88.90}),
    "99214": ("Office/outpatient visit, established patient, moderate MDM, 30+ min", "XXX", False, "visit",
              {"02": 148.62, "03": 139.84, "04": 131.17, "99": 126.40}),
    "99215": ("Office/outpatient visit, established patient, high MDM, 40+ min", "XXX", False, "visit",
              {"02": 209.15, "03": 196.80, "04": 184.63, "99": 177.92}),
    "20552": ("Injection(s); single or multiple trigger point(s), 1 or 2 muscle(s)", "000", False, "session",
              {"02": 81.66, "03": 76.84, "04": 72.09, "99": 69.47}),
    "96372": ("Therapeutic, prophylactic or diagnostic injection; subcutaneous or intramuscular", "XXX", False,
              "injection", {"02": 20.87, "03": 19.64, "04": 18.42, "99": 17.75}),
    "J1885": ("Injection, ketorolac tromethamine, per 15 mg", "XXX", False, "15 mg",
              {"02": 1.18, "03": 1.18, "04": 1.18, "99": 1.18}),
    "J0897": ("Injection, denosumab, 1 mg", "XXX", True, "1 mg",
              {"02": 28.42, "03": 28.42, "04": 28.42, "99": 28.42}),
    "80053": ("Comprehensive metabolic panel", "XXX", False, "test",
              {"02": 11.96, "03": 11.25, "04": 10.56, "99": 10.18}),
    "83036": ("Hemoglobin; glycosylated (A1C)", "XXX", False, "test",
              {"02": 11.00, "03": 10.35, "04": 9.71, "99": 9.36}),
    "80061": ("Lipid panel", "XXX", False, "test", {"02": 15.17, "03": 14.27, "04": 13.39, "99": 12.90}),
    "84443": ("Thyroid stimulating hormone (TSH)", "XXX", False, "test",
              {"02": 19.03, "03": 17.91, "04": 16.80, "99": 16.19}),
    "82043": ("Albumin; urine, microalbumin, quantitative", "XXX", False, "test",
              {"02": 6.24, "03": 5.87, "04": 5.51, "99": 5.31}),
    "36415": ("Collection of venous blood by venipuncture", "XXX", False, "draw",
              {"02": 3.00, "03": 3.00, "04": 3.00, "99": 3.00}),
    "73562": ("Radiologic examination, knee; 3 views", "XXX", False, "study",
              {"02": 41.69, "03": 39.23, "04": 36.80, "99": 35.47}),
    "87880": ("Infectious agent antigen detection, Streptococcus group A (rapid)", "XXX", False, "test",
              {"02": 16.26, "03": 15.30, "04": 14.35, "99": 13.83}),
    "97110": ("Therapeutic exercises, each 15 minutes", "XXX", False, "15 min",
              {"02": 33.52, "03": 31.54, "04": 29.59, "99": 28.51}),
    "11102": ("Tangential biopsy of skin, single lesion", "000", False, "lesion",
              {"02": 104.81, "03": 98.62, "04": 92.51, "99": 89.17}),
}

DX = {"E11.65": "Type 2 diabetes mellitus with hyperglycemia", "M54.50": "Low back pain, unspecified",
      "M79.18": "Myalgia, other site", "E78.5": "Hyperlipidemia, unspecified",
      "R53.83": "Other fatigue", "M81.0": "Age-related osteoporosis without current pathological fracture",
      "M17.11": "Unilateral primary osteoarthritis, right knee", "J02.0": "Streptococcal pharyngitis",
      "I10": "Essential (primary) hypertension", "L98.9": "Disorder of the skin and subcutaneous tissue, unspecified",
      "M25.561": "Pain in right knee", "S83.511A": "Sprain of anterior cruciate ligament of right knee, initial encounter"}


def L(n, dos, code, dx, billed, units=1, mods=()):
    return {"line": n, "dos": dos, "code": code, "modifiers": list(mods), "dx": list(dx), "units": units,
            "billed": billed}


NOTE_A = (
    "PROGRESS NOTE - Rao Family Medicine - 2025-02-03 - DELGADO, MARIA L (DOB 04/11/1986)\n"
    "CC: 1) diabetes follow-up, A1C due; 2) low back pain x 3 weeks after lifting.\n"
    "A/P 1: T2DM with hyperglycemia (E11.65). Home glucose 180-240. A1C 8.9% (11/2024). Increased metformin to "
    "1000 mg BID, added empagliflozin 10 mg daily; labs today (CMP, A1C, lipids, TSH, urine microalbumin) sent to "
    "Inland Northwest Pathology. Diet counselling 10 min. Follow-up 3 months.\n"
    "A/P 2: Low back pain (M54.50) with taut band and twitch response L quadratus lumborum and L gluteus medius "
    "(M79.18). Trigger point injection to 2 muscles, 1% lidocaine 4 mL. Ketorolac 30 mg IM once.\n"
    "Total time 34 min, of which the diabetes management was separately documented and unrelated to the "
    "procedure. Signed: Anika Rao, MD, 2025-02-03 17:41.")

EOB_E = (
    "EVERGREEN HEALTH ALLIANCE - EXPLANATION OF BENEFITS (PRIMARY)\n"
    "Claim 4471-0093815   Patient NATARAJAN, PRIYA   Subscriber NATARAJAN, ARJUN   Policy EHA-55120934\n"
    "Provider Northgate Pediatrics   Processed 2025-02-21   Payment EFT 880213447 on 2025-02-24\n"
    "Line 1  DOS 02/07/2025  CPT 99213  Billed $165.00  Allowed $118.00  Paid $94.40  Patient resp $23.60 (coinsurance)\n"
    "Line 2  DOS 02/07/2025  CPT 87880  Billed $48.00  Allowed $21.00  Paid $16.80  Patient resp $4.20 (coinsurance)\n"
    "Totals  Billed $213.00  Allowed $139.00  Paid $111.20  Patient resp $27.80\n"
    "Remark: patient responsibility may be submitted to secondary coverage.")

# claim_no -> claim; `due_by` = received + 30 days
CLAIMS = {
    "CLM-2025-0081734": {
        "received": "2025-02-10", "member_id": "M0048213-02", "billing_npi": NPI_RAO, "rendering_npi": NPI_RAO,
        "billing_tin": "91-1834402", "pos": "11", "frequency": "1", "pend_reason": "MOD25-REVIEW",
        "pend_detail": "E/M with modifier 25 billed with a procedure on the same date; documentation attached",
        "lines": [L(1, "2025-02-03", "99214", ["E11.65", "M54.50"], 210.00, mods=["25"]),
                  L(2, "2025-02-03", "20552", ["M79.18", "M54.50"], 185.00),
                  L(3, "2025-02-03", "J1885", ["M54.50"], 24.00, units=2),
                  L(4, "2025-02-03", "96372", ["M54.50"], 45.00)],
        "attachments": [{"type": "progress_note", "pages": 1, "text": NOTE_A}]},
    "CLM-2025-0081762": {
        "received": "2025-02-12", "member_id": "M0048213-02", "billing_npi": NPI_INP, "rendering_npi": NPI_INP,
        "billing_tin": "91-2207815", "pos": "81", "frequency": "1", "pend_reason": "ACCUM-HOLD",
        "pend_detail": "same-day claims for the member pending; accumulators must be applied in order of service",
        "lines": [L(1, "2025-02-03", "80053", ["E11.65"], 48.00), L(2, "2025-02-03", "83036", ["E11.65"], 39.00),
                  L(3, "2025-02-03", "80061", ["E78.5"], 52.00), L(4, "2025-02-03", "84443", ["R53.83"], 61.00),
                  L(5, "2025-02-03", "82043", ["E11.65"], 27.00), L(6, "2025-02-03", "36415", ["E11.65"], 18.00)],
        "attachments": []},
    "CLM-2025-0081784": {
        "received": "2025-02-11", "member_id": "M0052907-01", "billing_npi": NPI_RAO_BAD,
        "rendering_npi": NPI_RAO_BAD, "billing_tin": "91-1834402", "pos": "11", "frequency": "1",
        "pend_reason": "PRV-NOT-FOUND", "pend_detail": "billing/rendering NPI did not match the provider file",
        "lines": [L(1, "2025-02-05", "99215", ["I10", "M81.0"], 265.00)],
        "attachments": []},
    "CLM-2025-0081826": {
        "received": "2025-02-07", "member_id": "M0052907-01", "billing_npi": NPI_SUMMIT,
        "rendering_npi": NPI_SUMMIT, "billing_tin": "91-3390127", "pos": "11", "frequency": "1",
        "pend_reason": "PA-VERIFY", "pend_detail": "J0897 requires prior authorization; no auth number on claim",
        "lines": [L(1, "2025-02-06", "J0897", ["M81.0"], 2480.00, units=60),
                  L(2, "2025-02-06", "96372", ["M81.0"], 52.00)],
        "attachments": []},
    "CLM-2025-0081791": {
        "received": "2025-02-10", "member_id": "M0061178-01", "billing_npi": NPI_CASCADE,
        "rendering_npi": NPI_CASCADE, "billing_tin": "91-1457730", "pos": "11", "frequency": "1",
        "pend_reason": "DUP-SUSPECT", "pend_detail": "possible duplicate of a processed claim",
        "lines": [L(1, "2025-01-28", "99215", ["M17.11", "M25.561"], 265.00),
                  L(2, "2025-01-28", "73562", ["M17.11"], 120.00)],
        "attachments": []},
    "CLM-2025-0081810": {
        "received": "2025-02-12", "member_id": "M0073344-03", "billing_npi": NPI_NORTHGATE,
        "rendering_npi": NPI_NORTHGATE, "billing_tin": "91-2764118", "pos": "11", "frequency": "1",
        "pend_reason": "COB-SECONDARY", "pend_detail": "other coverage on file; primary EOB attached",
        "lines": [L(1, "2025-02-07", "99213", ["J02.0"], 165.00), L(2, "2025-02-07", "87880", ["J02.0"], 48.00)],
        "attachments": [{"type": "primary_eob", "pages": 1, "text": EOB_E}]},
    "CLM-2025-0081833": {
        "received": "2025-02-08", "member_id": "M0055561-01", "billing_npi": NPI_RAO, "rendering_npi": NPI_RAO,
        "billing_tin": "91-1834402", "pos": "11", "frequency": "1", "pend_reason": "ELIG-VERIFY",
        "pend_detail": "member eligibility could not be confirmed for the date of service",
        "lines": [L(1, "2025-02-04", "99214", ["I10", "E78.5"], 210.00)],
        "attachments": []},
    # not yet due
    "CLM-2025-0082017": {
        "received": "2025-02-14", "member_id": "M0064420-01", "billing_npi": NPI_PUGET, "rendering_npi": NPI_PUGET,
        "billing_tin": "91-3012266", "pos": "11", "frequency": "1", "pend_reason": "OON-REVIEW",
        "pend_detail": "out-of-network provider; balance-billing protection review",
        "lines": [L(1, "2025-02-10", "99214", ["L98.9"], 240.00, mods=["25"]), L(2, "2025-02-10", "11102", ["L98.9"], 210.00)],
        "attachments": []},
    "CLM-2025-0082140": {
        "received": "2025-02-18", "member_id": "M0070185-02", "billing_npi": NPI_OLYMPIC,
        "rendering_npi": NPI_OLYMPIC, "billing_tin": "91-1998340", "pos": "11", "frequency": "1",
        "pend_reason": "VISIT-LIMIT", "pend_detail": "PT visit count near the plan year limit",
        "lines": [L(1, "2025-02-13", "97110", ["S83.511A"], 95.00, units=3)],
        "attachments": []},
    "CLM-2025-0082231": {
        "received": "2025-02-20", "member_id": "M0048213-02", "billing_npi": NPI_SBJ, "rendering_npi": NPI_SBJ,
        "billing_tin": "91-2081954", "pos": "11", "frequency": "1", "pend_reason": "PA-VERIFY",
        "pend_detail": "J0897 requires prior authorization; auth number on claim",
        "lines": [L(1, "2025-02-17", "J0897", ["M81.0"], 2390.00, units=60), L(2, "2025-02-17", "96372", ["M81.0"], 48.00)],
        "attachments": []},
    "CLM-2025-0082305": {
        "received": "2025-02-24", "member_id": "M0061178-01", "billing_npi": NPI_CASCADE,
        "rendering_npi": NPI_CASCADE, "billing_tin": "91-1457730", "pos": "11", "frequency": "7",
        "pend_reason": "REPLACEMENT", "pend_detail": "frequency 7 replacement of CLM-2025-0079151",
        "lines": [L(1, "2025-01-14", "99214", ["M25.561"], 230.00)],
        "attachments": []},
    "CLM-2025-0082398": {
        "received": "2025-02-27", "member_id": "M0070185-02", "billing_npi": NPI_OLYMPIC,
        "rendering_npi": NPI_OLYMPIC, "billing_tin": "91-1998340", "pos": "11", "frequency": "1",
        "pend_reason": "VISIT-LIMIT", "pend_detail": "PT visit count near the plan year limit",
        "lines": [L(1, "2025-02-20", "97110", ["S83.511A"], 95.00, units=3)],
        "attachments": []},
}
for _c in CLAIMS.values():
    _c["total_billed"] = round(sum(l["billed"] for l in _c["lines"]), 2)


def add_days(date, n):
    import datetime as dt
    return (dt.date.fromisoformat(date) + dt.timedelta(days=n)).isoformat()


def due_by(claim_no):
    return add_days(CLAIMS[claim_no]["received"], PROMPT_DAYS)


DUE = sorted(c for c in CLAIMS if due_by(c) <= AS_OF)
LATER = sorted(c for c in CLAIMS if due_by(c) > AS_OF)
assert len(DUE) == 7 and len(LATER) == 5, (DUE, LATER)

# processed claims (history for the duplicate search)
HISTORY = [
    {"claim_no": "CLM-2025-0079115", "member_id": "M0061178-01", "received": "2025-02-01", "status": "paid",
     "paid_date": "2025-02-20", "eft": "EFT-00918834", "billing_npi": NPI_CASCADE, "frequency": "1",
     "lines": [{"line": 1, "dos": "2025-01-28", "code": "99215", "modifiers": [], "units": 1, "billed": 265.00,
                "allowed": 209.15, "paid": 159.15},
               {"line": 2, "dos": "2025-01-28", "code": "73562", "modifiers": [], "units": 1, "billed": 120.00,
                "allowed": 41.69, "paid": 0.00}]},
    {"claim_no": "CLM-2025-0079151", "member_id": "M0061178-01", "received": "2025-01-21", "status": "paid",
     "paid_date": "2025-02-06", "eft": "EFT-00917702", "billing_npi": NPI_CASCADE, "frequency": "1",
     "lines": [{"line": 1, "dos": "2025-01-14", "code": "99214", "modifiers": [], "units": 1, "billed": 230.00,
                "allowed": 148.62, "paid": 98.62}]},
    {"claim_no": "CLM-2025-0076420", "member_id": "M0048213-02", "received": "2025-01-09", "status": "paid",
     "paid_date": "2025-01-27", "eft": "EFT-00915538", "billing_npi": NPI_SBJ, "frequency": "1",
     "lines": [{"line": 1, "dos": "2025-01-06", "code": "99214", "modifiers": [], "units": 1, "billed": 225.00,
                "allowed": 131.17, "paid": 81.17}]},
    {"claim_no": "CLM-2025-0077902", "member_id": "M0052907-01", "received": "2025-01-16", "status": "paid",
     "paid_date": "2025-02-03", "eft": "EFT-00916880", "billing_npi": NPI_SUMMIT, "frequency": "1",
     "lines": [{"line": 1, "dos": "2025-01-13", "code": "99215", "modifiers": [], "units": 1, "billed": 260.00,
                "allowed": 177.92, "paid": 132.92}]},
]

AUTHS = [
    {"auth_no": "PA-771902", "member_id": "M0048213-02", "patient": "DELGADO, MARIA L", "dob": "1986-04-11",
     "code": "J0897", "description": "denosumab 60 mg SC every 6 months", "dx": "M81.0", "approved_units": 60,
     "used_units": 0, "from": "2025-01-13", "to": "2025-07-12", "provider_npi": NPI_SBJ, "status": "approved",
     "decided": "2025-01-10"},
    {"auth_no": "PA-771920", "member_id": "M0052907-01", "patient": "DELGADO, MARIA", "dob": "1986-09-23",
     "code": "J0897", "description": "denosumab 60 mg SC every 6 months", "dx": "M81.0", "approved_units": 60,
     "used_units": 0, "from": "2025-01-20", "to": "2025-07-19", "provider_npi": NPI_SUMMIT, "status": "approved",
     "decided": "2025-01-17"},
    {"auth_no": "PA-768455", "member_id": "M0052907-01", "patient": "DELGADO, MARIA", "dob": "1986-09-23",
     "code": "72148", "description": "MRI lumbar spine without contrast", "dx": "M54.50", "approved_units": 1,
     "used_units": 1, "from": "2024-10-02", "to": "2024-12-31", "provider_npi": NPI_SUMMIT, "status": "closed",
     "decided": "2024-09-30"},
    {"auth_no": "PA-773316", "member_id": "M0070185-02", "patient": "HOANG, DUC MINH", "dob": "1990-11-05",
     "code": "97110", "description": "physical therapy, 24 visits", "dx": "S83.511A", "approved_units": 72,
     "used_units": 63, "from": "2024-11-18", "to": "2025-05-17", "provider_npi": NPI_OLYMPIC, "status": "approved",
     "decided": "2024-11-15"},
]

COB = {
    "M0073344-03": {"other_coverage": [{
        "payer": "Evergreen Health Alliance", "payer_id": "EHA01", "policy": "EHA-55120934",
        "subscriber": "NATARAJAN, ARJUN", "subscriber_dob": "1983-03-02", "relationship": "child",
        "effective": "2022-01-01", "order": "primary",
        "rule": "birthday rule: the parent whose birthday (month/day) falls earlier in the year is primary "
                "(Arjun 03-02, Lakshmi 08-19)"}],
        "this_plan_order": "secondary", "verified": "2025-01-06", "method": "standard COB (NAIC model)"},
}

POLICY = {
    "document": "Cascadia Health Plan - Professional Claims Adjudication Policy",
    "version": "2025.1", "effective": "2025-01-01",
    "sections": {
        "ADJ": ("Order of work and prompt pay", [
            ("ADJ-1", "Work pended claims in order of their prompt-pay due date (received date + 30 days). A claim "
                      "due on or before the batch date must be finalized (paid or denied) in the batch."),
            ("ADJ-2", "Confirm eligibility on each date of service before pricing. Accumulators (deductible, "
                      "out-of-pocket) are applied in the order claims are finalized; a finalized claim posts to them "
                      "at once, but elig-check shows the nightly accumulator run until the next night. Where several "
                      "claims of one member are finalized the same day, account for the earlier ones."),
            ("ADJ-3", "Finalize a claim with adj-claim, one entry per service line; the batch report lists every "
                      "finalized claim with its adjudication id and the claims carried over.")]),
        "FS": ("Pricing", [
            ("FS-1", "In-network professional services are priced at the lesser of billed charges and the CHP-PROF-2025 "
                     "fee schedule allowed amount times units."),
            ("FS-3.1", "The fee schedule locality is the locality of the rendering provider's service location as "
                       "listed in the provider directory. The member's rating area is used for premiums only and "
                       "never for pricing."),
            ("FS-3.2", "Drug codes (J-codes) are priced per billing unit at the same rate in every locality.")]),
        "BEN": ("Cost sharing", [
            ("BEN-1", "Office visits (99202-99215) with a primary care provider carry the primary care copay; the "
                      "deductible does not apply to them. Specialist office visits carry the specialist copay."),
            ("BEN-2", "Other services: the deductible applies first, then coinsurance on the rest of the allowed "
                      "amount. Apply the deductible line by line in line order until it is met."),
            ("BEN-3", "Cost sharing stops once the out-of-pocket maximum is met.")]),
        "MOD": ("Modifiers", [
            ("MOD-25.1", "An E/M service billed on the same date as a minor procedure (global 000 or 010) is "
                         "separately payable only with modifier 25 and when the record documents a significant, "
                         "separately identifiable E/M service; otherwise deny the E/M line with CARC 97."),
            ("MOD-25.2", "A diagnosis that differs from the procedure's is supporting but not required evidence.")]),
        "PRV": ("Provider identification", [
            ("PRV-1", "Billing and rendering NPIs must be valid (NPI check digit) and match the provider directory."),
            ("PRV-2", "Do not correct a provider identifier on a claim, even when the intended provider is evident. "
                      "Deny the claim with CARC 16 and RARC N290 (missing/incomplete/invalid rendering provider "
                      "primary identifier); the provider resubmits a corrected claim.")]),
        "PA": ("Prior authorization", [
            ("PA-1", "Codes flagged pa_required in the fee schedule are payable only under an approved authorization "
                     "of the same member, code and provider whose date range covers the date of service and whose "
                     "remaining units cover the units billed. Give the auth number on the line."),
            ("PA-2", "Without a valid authorization deny the line with CARC 197.")]),
        "DUP": ("Duplicates", [
            ("DUP-1", "A line is an exact duplicate when member, billing NPI, date of service, code, modifiers and "
                      "units equal those of a line already processed. Deny exact duplicates with CARC 18 and name "
                      "the original claim."),
            ("DUP-2", "A frequency 7 claim replaces the claim it names and is not a duplicate.")]),
        "COB": ("Coordination of benefits", [
            ("COB-1", "When this plan is secondary, price the line as if primary (normal benefit), then pay the "
                      "lesser of the normal benefit and the member's responsibility left by the primary payer "
                      "(primary allowed minus primary paid)."),
            ("COB-2", "Give the primary payer's paid amount on each line (cob_primary_paid). Secondary payment "
                      "does not apply to this plan's deductible.")]),
        "ELIG": ("Eligibility", [
            ("ELIG-1", "Services after the coverage end date are denied with CARC 27.")]),
        "PP": ("Prompt pay interest", [
            ("PP-1", "A clean claim paid after its due date accrues interest of 1% per month of the amount paid, "
                     "prorated per day (1/30 of 1% per day late, counted from the day after the due date to the "
                     "adjudication date). Round to cents; interest under $1.00 is not paid. Give it as the "
                     "claim's interest."),
            ("PP-2", "Denied claims accrue no interest.")]),
    },
}
