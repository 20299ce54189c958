"""The world of the `payroll-close` session: Harrowgate Instruments closes
the semi-monthly pay run PR-2025-11B (pay period 2025-06-01..2025-06-15, pay
date 2025-06-20) of its US (USD, Massachusetts, ACH) and UK (GBP, BACS)
staff on 2025-06-18, before the bank cut-off at 14:00 Boston time.

Planted:
- the time clock (Kronos) exports overtime of hourly staff in
  premium-equivalent hours (actual hours x 1.5) since clock rule KR-OT-15 was
  switched on; manual timesheet rows carry actual hours. Paying 1.5x on the
  Kronos rows pays the premium twice: the variance report against
  PR-2025-11A flags the overtime of E-10248, E-10301 and E-10362.
- a raise for Dana Whitfield (E-10482, CC-4410) effective 2025-06-09, a new
  hire (E-10561) starting 2025-06-05 and a leaver (E-10377, last day
  2025-06-10, 24 h PTO paid out): the checklist says to prorate on working
  days (10 in the period), not on calendar days (15).
- look-alikes: Dana Whitfield E-10482 (US, CC-4410, account ..3306) and Dana
  Whitfeld E-10428 (UK, CC-4501, new account ..7719); cost centres CC-4410
  and CC-4401; garnishment orders GO-2025-0418 (child support, E-10482) and
  GO-2025-0481 (creditor levy, E-10248, balance nearly paid off).
- the 401(k) of E-10217 hits the annual cap; E-10390 reaches the Social
  Security wage base.
Deterministic: tool.py and answers.py read it."""
import math

RUN_ID = "PR-2025-11B"
PREV_RUN = "PR-2025-11A"
PREV_APPROVAL = "APR-2025-01873"
GONE = "E-10289"  # left 2025-05-30, paid in PR-2025-11A
PERIOD = ("2025-06-01", "2025-06-15")
PAY_DATE = "2025-06-20"
CUTOFF = "2025-06-18T14:00:00-04:00"
AS_OF = "2025-06-18T09:12:00-04:00"
DAYS = ["2025-06-%02d" % d for d in range(1, 16)]
WEEKDAY = {d: (i + 6) % 7 for i, d in enumerate(DAYS)}  # 2025-06-01 is a Sunday; 0 = Monday
WORKING = [d for d in DAYS if WEEKDAY[d] < 5]
assert len(WORKING) == 10


def cents(x):
    """What the agent's (cents x) does: (/ (round (* x 100)) 100.0), round half up."""
    return math.floor(x * 100 + 0.5) / 100.0


# --- cost centres, employees -------------------------------------------------------------------------

COST_CENTRES = {
    "CC-4400": "Executive (Boston)",
    "CC-4401": "Field Service (Boston)",
    "CC-4402": "Assembly & Test (Lowell)",
    "CC-4410": "Product Engineering (Boston)",
    "CC-4501": "UK Engineering (Cambridge)",
    "CC-4502": "UK Sales & Support (Cambridge)",
}

# id: (name, country, cost centre, grade, pay basis, rate as exported, tax, bank last 4)
US_EMP = {
    "E-10217": ("Marcus Oyelaran", "CC-4410", "P6", "annual", "142000.00", "married", "4471"),
    "E-10248": ("Tomasz Brzezinski", "CC-4401", "T3", "hourly", "38.2500", "single", "0925"),
    "E-10301": ("Aaliyah Brooks", "CC-4401", "T3", "hourly", "31.8000", "single", "6120"),
    "E-10315": ("Ken Takahashi", "CC-4402", "T2", "hourly", "29.5000", "married", "2287"),
    "E-10344": ("Rosa Delgado", "CC-4410", "T4", "hourly", "35.1000", "single", "5503"),
    "E-10362": ("Owen Fairbanks", "CC-4402", "T1", "hourly", "27.7500", "single", "8841"),
    "E-10377": ("Grace Lindqvist", "CC-4401", "P3", "annual", "78000.00", "single", "1964"),
    "E-10390": ("Samuel Achterberg", "CC-4400", "E2", "annual", "210000.00", "married", "7032"),
    "E-10403": ("Mei-Ling Cho", "CC-4410", "P5", "annual", "118000.00", "single", "3958"),
    "E-10416": ("Jorge Castellanos", "CC-4401", "P4", "annual", "88500.00", "married", "6675"),
    "E-10455": ("Benjamin Okafor", "CC-4402", "P4", "annual", "101000.00", "single", "2140"),
    "E-10482": ("Dana Whitfield", "CC-4410", "P4", "annual", "96000.00", "single", "3306"),
    "E-10561": ("Priya Raman", "CC-4410", "P4", "annual", "91000.00", "single", "5817"),
}
# id: (name, cost centre, grade, annual GBP, tax code, NI category, bank last 4)
GB_EMP = {
    "E-10428": ("Dana Whitfeld", "CC-4501", "P4", "64000.00", "1257L", "A", "2093"),
    "E-10433": ("Hamish McCrae", "CC-4501", "P5", "72500.00", "1257L", "A", "5561"),
    "E-10439": ("Olivia Pennington", "CC-4502", "S2", "48000.00", "1257L", "A", "0388"),
    "E-10446": ("Ravi Chaudhry", "CC-4501", "P6", "91000.00", "1257L", "A", "7745"),
    "E-10451": ("Siobhan Keane", "CC-4502", "S1", "39500.00", "BR", "A", "4129"),
    "E-10467": ("Thomas Ashdown", "CC-4501", "P4", "55000.00", "1100L", "A", "9902"),
    "E-10472": ("Nia Edwards", "CC-4502", "S3", "61000.00", "1257L", "A", "1376"),
}
HIRE_DATES = {"E-10561": "2025-06-05", "E-10217": "2016-03-14", "E-10248": "2019-08-05", "E-10301": "2021-01-11",
              "E-10315": "2022-04-25", "E-10344": "2018-10-01", "E-10362": "2024-02-12", "E-10377": "2020-09-08",
              "E-10390": "2015-06-01", "E-10403": "2017-11-20", "E-10416": "2021-07-06", "E-10455": "2023-03-13",
              "E-10482": "2020-02-03", "E-10428": "2021-05-17", "E-10433": "2019-01-07", "E-10439": "2023-09-04",
              "E-10446": "2018-04-16", "E-10451": "2024-06-03", "E-10467": "2022-10-10", "E-10472": "2020-11-30"}
YTD_SS_WAGES = {"E-10390": 170500.00, "E-10217": 65740.00}
US_IDS = sorted(US_EMP)
GB_IDS = sorted(GB_EMP)
RUN_IDS = sorted(US_IDS + GB_IDS)

DANA_US, DANA_GB = "E-10482", "E-10428"
LEAVER, HIRE = "E-10377", "E-10561"
HIRE_FIRST = "2025-06-05"
NEW_ACCOUNT = "7719"

# --- timesheets ---------------------------------------------------------------------------------------

HOURLY = [i for i in US_IDS if US_EMP[i][3] == "hourly"]
KRONOS = {"E-10248", "E-10301", "E-10362"}
# actual overtime hours per working day (index into WORKING); regular hours off on some days
OT_ACTUAL = {
    "E-10248": {1: 2.0, 3: 1.5, 6: 2.5},
    "E-10301": {0: 1.5, 2: 2.0, 4: 2.0, 7: 1.5, 8: 2.0},
    "E-10315": {2: 1.5, 5: 2.5},
    "E-10344": {},
    "E-10362": {3: 2.0, 8: 2.0},
}
REG_OFF = {"E-10315": {9: 4.0}, "E-10362": {6: 4.0}}
EXPORT_ID = "TS-EXP-20250616-0712"
TS_NOTES = [
    "Export of approved timesheets, pay period 2025-06-01..2025-06-15, hourly (non-exempt) staff.",
    "Rows with source kronos come from the time clock. Since clock rule KR-OT-15 went live on 2025-05-19, the clock "
    "exports overtime_hours as premium-equivalent hours (actual overtime hours x 1.5).",
    "Rows with source manual were keyed by supervisors and carry actual hours.",
]


def timesheet_rows(eid):
    rows = []
    for k, d in enumerate(WORKING):
        ot = OT_ACTUAL[eid].get(k, 0.0)
        kron = eid in KRONOS
        rows.append({"date": d, "regular_hours": 8.0 - REG_OFF.get(eid, {}).get(k, 0.0),
                     "overtime_hours": ot * 1.5 if kron else ot, "source": "kronos" if kron else "manual",
                     "cost_centre": US_EMP[eid][1]})
    return rows


def hours(eid):
    rows = timesheet_rows(eid)
    return sum(r["regular_hours"] for r in rows), sum(r["overtime_hours"] for r in rows)


# --- changes, benefits, garnishments ---------------------------------------------------------------------

RAISE_FROM, RAISE_TO, RAISE_EFF = "96000.00", "104400.00", "2025-06-09"
LEAVER_LAST = "2025-06-10"
PTO_HOURS = 24.0
CHANGES = [
    {"change_id": "CHG-5512", "employee_id": DANA_US, "name": "Dana Whitfield", "type": "salary_change",
     "effective": RAISE_EFF, "detail": {"annual_from": RAISE_FROM, "annual_to": RAISE_TO, "reason": "promotion to P4 step 3"},
     "approved_by": "HR-BP k.osei", "status": "approved"},
    {"change_id": "CHG-5515", "employee_id": HIRE, "name": "Priya Raman", "type": "new_hire", "effective": "2025-06-05",
     "detail": {"annual": "91000.00", "first_day": "2025-06-05", "w4": "single", "benefits_start": "2025-07-01"},
     "approved_by": "HR-BP k.osei", "status": "approved"},
    {"change_id": "CHG-5519", "employee_id": LEAVER, "name": "Grace Lindqvist", "type": "termination",
     "effective": LEAVER_LAST, "detail": {"last_day": LEAVER_LAST, "pto_payout_hours": PTO_HOURS,
                                          "reason": "resignation", "final_pay": "with this run (MA: on the next regular pay date)"},
     "approved_by": "HR-BP k.osei", "status": "approved"},
    {"change_id": "CHG-5521", "employee_id": "E-10455", "name": "Benjamin Okafor", "type": "401k_election",
     "effective": "2025-06-01", "detail": {"pct_from": 6, "pct_to": 10}, "approved_by": "self-service", "status": "approved"},
    {"change_id": "CHG-5527", "employee_id": DANA_GB, "name": "Dana Whitfeld", "type": "bank_account",
     "effective": "2025-06-12", "detail": {"account_last4_from": "2093", "account_last4_to": NEW_ACCOUNT,
                                          "sort_code": "20-45-77", "callback_verified": "2025-06-13 by payroll-ops m.greer"},
     "approved_by": "payroll-ops", "status": "approved"},
    {"change_id": "CHG-5530", "employee_id": "E-10301", "name": "Aaliyah Brooks", "type": "address",
     "effective": "2025-06-14", "detail": {"state_from": "MA", "state_to": "MA", "note": "moved within Lowell"},
     "approved_by": "self-service", "status": "approved"},
    {"change_id": "CHG-5533", "employee_id": "E-10433", "name": "Hamish McCrae", "type": "salary_change",
     "effective": "2025-07-01", "detail": {"annual_from": "72500.00", "annual_to": "75400.00", "reason": "annual review"},
     "approved_by": "HR-BP l.ward", "status": "approved", "note": "effective next period; not for this run"},
]
K401_CAP = 23500.00
# US benefits: (medical plan, medical per period, dental plan, dental per period, 401k pct, ytd 401k)
BENEFITS_US = {
    "E-10217": ("MED-PPO-2", 186.40, "DEN-B", 14.20, 10, 23105.00),
    "E-10248": ("MED-HMO-1", 98.75, "DEN-A", 8.10, 4, 1960.32),
    "E-10301": ("MED-PPO-1", 132.60, "DEN-A", 8.10, 5, 2012.85),
    "E-10315": ("MED-HMO-2", 171.30, "DEN-B", 14.20, 3, 1104.66),
    "E-10344": ("MED-PPO-1", 132.60, None, 0.0, 6, 3170.88),
    "E-10362": (None, 0.0, None, 0.0, 0, 0.0),
    "E-10377": ("MED-PPO-2", 186.40, "DEN-A", 8.10, 5, 3412.50),
    "E-10390": ("MED-PPO-2", 186.40, "DEN-B", 14.20, 8, 14000.00),
    "E-10403": ("MED-HMO-1", 98.75, "DEN-A", 8.10, 7, 7260.15),
    "E-10416": ("MED-PPO-2", 186.40, "DEN-B", 14.20, 4, 3245.00),
    "E-10455": ("MED-PPO-1", 132.60, "DEN-A", 8.10, 10, 4419.02),
    "E-10482": ("MED-PPO-2", 186.40, "DEN-A", 8.10, 6, 4430.77),
    "E-10561": (None, 0.0, None, 0.0, 0, 0.0),
}
PENSION_GB = {"E-10428": 5, "E-10433": 5, "E-10439": 4, "E-10446": 8, "E-10451": 3, "E-10467": 5, "E-10472": 5}
GARNISHMENTS = [
    {"order_no": "GO-2025-0418", "employee_id": DANA_US, "name": "Dana Whitfield", "type": "child_support",
     "issuer": "MA DOR Child Support Enforcement", "case_no": "CSE-2291-7740", "amount_per_period": 412.00,
     "max_pct_disposable": 50, "balance_remaining": None, "remit_to": "MA DOR CSE, EFT ID 04-6002284",
     "received": "2025-04-22", "status": "active"},
    {"order_no": "GO-2025-0481", "employee_id": "E-10248", "name": "Tomasz Brzezinski", "type": "creditor_levy",
     "issuer": "Middlesex County District Court", "case_no": "2481CV000913", "amount_per_period": None,
     "max_pct_disposable": 25, "balance_remaining": 286.40, "remit_to": "Constable office, check by mail",
     "received": "2025-03-03", "status": "active"},
    {"order_no": "GO-2024-1187", "employee_id": "E-10344", "name": "Rosa Delgado", "type": "student_loan",
     "issuer": "US Dept. of Education AWG", "case_no": "AWG-88310452", "amount_per_period": None,
     "max_pct_disposable": 15, "balance_remaining": 0.0, "remit_to": "US Treasury", "received": "2024-09-18",
     "status": "released 2025-05-29"},
]

# --- tax tables (per semi-monthly period) --------------------------------------------------------------

TAX_TABLES = {
    "US-FED": {"jurisdiction": "US-FED", "method": "percentage method, semi-monthly, 2020+ W-4, no step 2/3/4 amounts",
               "applies_to": "federal taxable wages (gross less pre-tax 401(k), medical and dental)",
               "brackets": {
                   "single": [{"over": 0.0, "base": 0.0, "rate": 0.0}, {"over": 625.00, "base": 0.0, "rate": 0.10},
                              {"over": 1118.75, "base": 49.38, "rate": 0.12}, {"over": 2630.21, "base": 230.75, "rate": 0.22},
                              {"over": 4897.92, "base": 729.65, "rate": 0.24}, {"over": 8779.17, "base": 1661.15, "rate": 0.32},
                              {"over": 10977.08, "base": 2364.48, "rate": 0.35}],
                   "married": [{"over": 0.0, "base": 0.0, "rate": 0.0}, {"over": 1250.00, "base": 0.0, "rate": 0.10},
                               {"over": 2237.50, "base": 98.75, "rate": 0.12}, {"over": 5260.42, "base": 461.50, "rate": 0.22},
                               {"over": 9795.83, "base": 1459.29, "rate": 0.24}, {"over": 17558.33, "base": 3322.29, "rate": 0.32},
                               {"over": 21954.17, "base": 4728.96, "rate": 0.35}]},
               "rounding": "each tax to the cent"},
    "US-MA": {"jurisdiction": "US-MA", "method": "flat rate", "rate": 0.05,
              "applies_to": "gross less pre-tax medical and dental; 401(k) deferrals are NOT excluded in Massachusetts",
              "surtax": {"rate": 0.04, "over_annual": 1083150.00}, "rounding": "to the cent"},
    "US-FICA": {"jurisdiction": "US-FICA", "social_security": {"rate": 0.062, "wage_base_annual": 176100.00},
                "medicare": {"rate": 0.0145, "additional_rate": 0.009, "additional_over_annual": 200000.00},
                "applies_to": "gross less pre-tax medical and dental (401(k) deferrals are subject to FICA)",
                "rounding": "each tax to the cent"},
    "GB-PAYE": {"jurisdiction": "GB-PAYE", "tax_year": "2025/26", "basis": "non-cumulative per semi-monthly period (company scheme)",
                "allowance": "code number x 10 / 24 per period, to the penny (1257L: 523.75); BR: no allowance, all at basic rate",
                "bands": [{"name": "basic", "rate": 0.20, "up_to": 1570.83}, {"name": "higher", "rate": 0.40, "up_to": 5208.33},
                          {"name": "additional", "rate": 0.45, "up_to": None}],
                "applies_to": "gross less salary-sacrifice pension", "rounding": "to the penny"},
    "GB-NI": {"jurisdiction": "GB-NI", "tax_year": "2025/26", "category": "A",
              "primary_threshold": 523.75, "upper_earnings_limit": 2094.58, "main_rate": 0.08, "upper_rate": 0.02,
              "applies_to": "gross less salary-sacrifice pension", "rounding": "to the penny"},
}

FX = {"2025-06-12": 1.3561, "2025-06-13": 1.3529, "2025-06-16": 1.3573, "2025-06-17": 1.3547}
FX_LAST = "2025-06-17"

# --- the correct computation (what the agent ends with), and the previous run --------------------------


def fed_tax(taxable, status):
    rows = [r for r in TAX_TABLES["US-FED"]["brackets"][status] if r["over"] <= taxable]
    r = rows[-1]
    return cents(r["base"] + (taxable - r["over"]) * r["rate"])


def us_base(eid, prorate=True):
    """The period's base pay (salaried) and the PTO payout, on working days."""
    annual = float(US_EMP[eid][4])
    if eid == DANA_US:
        d_old = len([d for d in WORKING if d < RAISE_EFF])
        return cents(float(RAISE_FROM) / 24 * d_old / 10) + cents(float(RAISE_TO) / 24 * (10 - d_old) / 10)
    if eid == HIRE:
        return cents(annual / 24 * len([d for d in WORKING if d >= HIRE_FIRST]) / 10)
    if eid == LEAVER:
        return cents(annual / 24 * len([d for d in WORKING if d <= LEAVER_LAST]) / 10) + cents(annual / 2080 * PTO_HOURS)
    return cents(annual / 24)


def us_pay(eid, base_ot=None):
    """(gross, overtime pay, net, parts) of a US employee with the corrected overtime."""
    e = US_EMP[eid]
    if e[3] == "hourly":
        rate = float(e[4])
        reg, ot = hours(eid)
        base = cents(rate * reg)
        otp = cents(rate * ot) if eid in KRONOS else cents(rate * 1.5 * ot)
    else:
        base, otp = us_base(eid), 0.0
    if base_ot:
        base, otp = base_ot
    gross = cents(base + otp)
    return us_net(eid, gross, otp)


def us_net(eid, gross, otp):
    med_plan, med, den_plan, den, pct, ytd = BENEFITS_US[eid]
    pct = 10 if eid == "E-10455" else pct
    k = cents(min(gross * pct / 100, K401_CAP - ytd))
    fed_taxable = gross - k - med - den
    fit = fed_tax(fed_taxable, US_EMP[eid][5])
    ma = cents((gross - med - den) * 0.05)
    fica_base = gross - med - den
    ss = cents(min(fica_base, 176100.00 - YTD_SS_WAGES.get(eid, 0.0)) * 0.062)
    mc = cents(fica_base * 0.0145)
    disposable = gross - fit - ma - ss - mc
    garn = 0.0
    if eid == DANA_US:
        garn = min(412.00, cents(disposable * 0.5))
    if eid == "E-10248":
        garn = min(cents(disposable * 0.25), 286.40)
    net = cents(gross - k - med - den - fit - ma - ss - mc - garn)
    return {"gross": gross, "overtime": otp, "k401": k, "medical": med, "dental": den, "fit": fit, "ma": ma,
            "ss": ss, "medicare": mc, "garnishment": garn, "net": net}


def gb_pay(eid, annual=None):
    e = GB_EMP[eid]
    gross = cents(float(annual or e[3]) / 24)
    pension = cents(gross * PENSION_GB[eid] / 100)
    adj = gross - pension
    code = e[4]
    allowance = 0.0 if code == "BR" else cents(int(code[:-1]) * 10 / 24)
    taxable = max(0.0, adj - allowance)
    paye = cents(taxable * 0.2) if code == "BR" else cents(0.2 * min(taxable, 1570.83) + 0.4 * max(0.0, taxable - 1570.83))
    ni = cents(0.08 * min(max(adj - 523.75, 0.0), 2094.58 - 523.75) + 0.02 * max(0.0, adj - 2094.58))
    net = cents(adj - paye - ni)
    return {"gross": gross, "overtime": 0.0, "pension": pension, "paye": paye, "ni": ni, "net": net}


# the previous run PR-2025-11A (2025-05-16..2025-05-31): actual overtime hours then
PREV_OT = {"E-10248": 5.5, "E-10301": 8.0, "E-10315": 4.0, "E-10344": 0.0, "E-10362": 4.5}


def prev_line(eid):
    if eid in GB_EMP:
        p = gb_pay(eid)
        return {"gross": p["gross"], "overtime": 0.0, "net": p["net"]}
    if eid == HIRE:
        return None
    e = US_EMP[eid]
    if e[3] == "hourly":
        rate = float(e[4])
        base, otp = cents(rate * 80.0), cents(rate * 1.5 * PREV_OT[eid])
    else:
        base, otp = cents(float(RAISE_FROM if eid == DANA_US else e[4]) / 24), 0.0
    p = us_net(eid, cents(base + otp), otp)
    return {"gross": p["gross"], "overtime": otp, "net": p["net"]}


PREV = {eid: prev_line(eid) for eid in RUN_IDS}
PREV[GONE] = {"gross": 3125.00, "overtime": 0.0, "net": 2291.06}  # left 2025-05-30, paid in PR-2025-11A
