"""The world of the `sql-analytics` session: the product warehouse of
Loopwell, a habit-tracking app (iOS, Android, web; plans free and
premium_trial), as of Monday 2024-12-02, and the catalogues around it: a
semantic layer of metric definitions, the dashboard catalogue, the
experiment registry and the release calendar.

Planted: the October 2024 signup cohort's week-4 retention (metric
`retention_wk4`, days 22-28 after signup, sessions of 10 s or more, test
accounts out, cohorts by signup date in America/Los_Angeles) is below
September's. Two causes: Android 7.12.0 (2024-10-16) stopped asking new
users for the notification permission (fixed in 7.12.2 on 2024-11-05), so
Android signups of the second half of October opted in to push far less
and came back less; and a paid-social campaign (2024-10-07..27) brought
users who retain worse. Traps: a deprecated look-alike metric
(`retention_w4`, days 21-27, any session) and table (`analytics.dim_user`,
`signed_up_at` in local time, current plan); `signup_ts` is UTC, the
dashboard's cohorts are in Pacific time; about a fifth of the users have a
second device, so joining `analytics.dim_devices` without
`is_signup_device = 1` counts them twice; two onboarding experiments with
near-identical keys (`exp_onboarding_checklist_v3`, mobile, and
`exp_onboarding_checklists_v3`, web), neither with an effect; a QA load
test's accounts on 2024-10-10. Deterministic: tool.py and answers.py read it.
The warehouse is an SQLite database built from a seeded generator (cached
in the system's temp directory by a hash of this file)."""
import datetime as dt
import hashlib
import os
import random
import sqlite3
import tempfile
from zoneinfo import ZoneInfo

COMPANY = "Loopwell"
TODAY = "2024-12-02"
NOW = "2024-12-02T09:40:00-08:00"
TZ = "America/Los_Angeles"
PT = ZoneInfo(TZ)
UTC = dt.timezone.utc
DATA_UNTIL = "2024-12-01 23:59:59"  # last session loaded (UTC)
MAX_ROWS = 500
WAREHOUSE = "loopwell-prod (SQLite 3 dialect; UDF convert_tz(tz, ts) -> local 'YYYY-MM-DD HH:MM:SS')"

# --- releases: (platform, version, date, rollout, notes) ------------------------------------------

RELEASES = [
    ("android", "7.11.0", "2024-09-24", "100%", "Streak freeze; widget redesign; bug fixes"),
    ("ios", "7.11.0", "2024-09-25", "100%", "Streak freeze; Live Activities for timers"),
    ("web", "web-2024.40", "2024-10-02", "100%", "New habit templates gallery"),
    ("android", "7.11.1", "2024-10-03", "100%", "Fix: reminders firing twice after DST change"),
    ("android", "7.12.0", "2024-10-16", "100% (staged 10% -> 100% by 2024-10-18)",
     "New onboarding flow: permissions step merged into the first-habit screen; targetSdk 34"),
    ("ios", "7.12.0", "2024-10-17", "100%", "New onboarding flow: permissions step merged into the first-habit screen"),
    ("android", "7.12.1", "2024-10-23", "100%", "Fix: crash on Pixel 6 when adding a home-screen widget"),
    ("web", "web-2024.44", "2024-10-30", "100%", "Faster dashboard load; dark mode fixes"),
    ("android", "7.12.2", "2024-11-05", "100%",
     "Fix: POST_NOTIFICATIONS permission prompt not shown during onboarding on Android 13+ (regression in 7.12.0)"),
    ("ios", "7.12.1", "2024-11-06", "100%", "Bug fixes and performance improvements"),
    ("web", "web-2024.46", "2024-11-13", "100%", "Habit sharing links"),
    ("android", "7.13.0", "2024-11-20", "10% (staged)", "Weekly insights card"),
    ("ios", "7.13.0", "2024-11-21", "100%", "Weekly insights card"),
]


def app_version(platform, day, rng):
    """The app version a user who signs up on PT date `day` (YYYY-MM-DD) installs."""
    if platform == "web":
        vs = [v for p, v, d, _, _ in RELEASES if p == "web" and d <= day]
        return vs[-1] if vs else "web-2024.36"
    vs = [(d, v) for p, v, d, _, _ in RELEASES if p == platform and d <= day and not v.startswith("7.13")]
    latest = vs[-1][1] if vs else "7.10.2"
    prev = vs[-2][1] if len(vs) > 1 else "7.10.2"
    return prev if rng.random() < 0.08 else latest


BROKEN_PUSH = {"7.12.0", "7.12.1"}  # Android versions that never show the notification prompt

# --- experiments -------------------------------------------------------------------------------------

EXPERIMENTS = [
    {"key": "exp_onboarding_checklist_v3", "name": "Onboarding checklist v3 (mobile)", "owner": "daniel.mensah@loopwell.app",
     "team": "Growth - Activation", "platforms": ["ios", "android"], "status": "concluded",
     "start": "2024-10-07T17:00:00Z", "end": "2024-11-04T17:00:00Z", "allocation": "50% of new mobile signups",
     "variants": [{"name": "control", "weight": 0.5}, {"name": "checklist", "weight": 0.5}],
     "primary_metric": "activation_d1", "exposure": "analytics.fct_experiment_exposures (exposed at signup)"},
    {"key": "exp_onboarding_checklists_v3", "name": "Onboarding checklists v3 (web)", "owner": "lena.park@loopwell.app",
     "team": "Web", "platforms": ["web"], "status": "running",
     "start": "2024-10-21T18:00:00Z", "end": None, "allocation": "50% of new web signups",
     "variants": [{"name": "control", "weight": 0.5}, {"name": "compact_checklist", "weight": 0.5}],
     "primary_metric": "activation_d1", "exposure": "analytics.fct_experiment_exposures (exposed at signup)"},
    {"key": "exp_paywall_copy_q4", "name": "Paywall copy Q4", "owner": "sara.lindgren@loopwell.app",
     "team": "Monetisation", "platforms": ["ios", "android", "web"], "status": "concluded",
     "start": "2024-09-16T16:00:00Z", "end": "2024-10-14T16:00:00Z", "allocation": "20% of paywall views",
     "variants": [{"name": "control", "weight": 0.5}, {"name": "benefit_led", "weight": 0.5}],
     "primary_metric": "trial_start_rate", "exposure": "analytics.fct_experiment_exposures (exposed at paywall view)"},
    {"key": "exp_streak_reminder_time", "name": "Smart streak reminder time", "owner": "daniel.mensah@loopwell.app",
     "team": "Growth - Engagement", "platforms": ["ios", "android"], "status": "draft",
     "start": None, "end": None, "allocation": "not started",
     "variants": [{"name": "control", "weight": 0.5}, {"name": "smart_time", "weight": 0.5}],
     "primary_metric": "retention_wk4", "exposure": "analytics.fct_experiment_exposures"},
]

# --- campaigns (marketing calendar, read through the dashboard catalogue) -------------------------

CAMPAIGN = ("spooky-streaks-paid-social", "2024-10-07", "2024-10-27")

# --- generation --------------------------------------------------------------------------------------

COUNTRIES = [("US", 60), ("CA", 8), ("GB", 10), ("AU", 5), ("DE", 5), ("MX", 5), ("BR", 4), ("IN", 3)]
HOURS = [2, 1, 1, 1, 1, 2, 3, 5, 6, 6, 6, 6, 7, 6, 6, 6, 7, 8, 9, 10, 11, 10, 7, 4]  # PT signup hour weights


def pick(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.random() * total
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


def fmt(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


def to_utc(local_date, seconds):
    """UTC timestamp string of a PT date plus seconds after local midnight."""
    d = dt.datetime.strptime(local_date, "%Y-%m-%d").replace(tzinfo=PT) + dt.timedelta(seconds=seconds)
    d = d.astimezone(PT)  # normalise across DST
    return d.astimezone(UTC)


def days(start, end):
    d = dt.date.fromisoformat(start)
    while d.isoformat() <= end:
        yield d.isoformat()
        d += dt.timedelta(days=1)


def generate():
    rng = random.Random(20241202)
    users, devices, sessions, exposures = [], [], [], []
    uid = 1840000
    until = dt.datetime.strptime(DATA_UNTIL, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    for day in days("2024-08-31", "2024-11-30"):
        weekday = dt.date.fromisoformat(day).weekday()
        n = 128 + (14 if weekday in (0, 6) else 0) + rng.randint(-12, 12)
        campaign = CAMPAIGN[1] <= day <= CAMPAIGN[2]
        extra = rng.randint(22, 34) if campaign else 0
        qa = 46 if day == "2024-10-10" else 0
        for i in range(n + extra + qa):
            uid += rng.randint(1, 3)
            is_qa = i >= n + extra
            channel = "paid_social" if i >= n and not is_qa else pick(
                rng, [("organic", 55), ("app_store_search", 20), ("referral", 13), ("paid_social", 12)])
            platform = "android" if is_qa else pick(rng, [("ios", 44), ("android", 36), ("web", 20)])
            plan = "premium_trial" if rng.random() < (0.12 if channel == "paid_social" else 0.22) else "free"
            country = "US" if is_qa else pick(rng, COUNTRIES)
            is_test = 1 if is_qa or rng.random() < 0.003 else 0
            secs = pick(rng, list(enumerate(HOURS))) * 3600 + rng.randint(0, 3599)
            signup = to_utc(day, secs)
            users.append((uid, fmt(signup), plan, country, channel, is_test, platform, day))
            ver = app_version(platform, day, rng)
            if platform == "web":
                opt = None
            elif platform == "ios":
                opt = 1 if rng.random() < 0.57 else 0
            else:
                opt = 1 if rng.random() < (0.13 if ver in BROKEN_PUSH else 0.70) else 0
            dev0 = "dv_%08x" % (rng.getrandbits(32))
            devices.append((dev0, uid, platform, ver, fmt(signup), 1, opt))
            devs = [(dev0, platform, signup)]
            multi = rng.random() < 0.21
            if multi:
                p2 = "web" if platform != "web" and rng.random() < 0.7 else pick(rng, [("ios", 5), ("android", 4)])
                if p2 == platform and p2 == "web":
                    p2 = "ios"
                seen = signup + dt.timedelta(days=rng.randint(0, 18), seconds=rng.randint(0, 86399))
                dev1 = "dv_%08x" % (rng.getrandbits(32))
                d2 = seen.astimezone(PT).date().isoformat()
                opt2 = None if p2 == "web" else (1 if rng.random() < 0.6 else 0)
                devices.append((dev1, uid, p2, app_version(p2, d2, rng), fmt(seen), 0, opt2))
                devs.append((dev1, p2, seen))
            # week-4 retention probability
            r = 0.40 if plan == "premium_trial" else 0.25
            r *= {"ios": 1.05, "android": 1.0, "web": 0.8}[platform]
            r *= {"paid_social": 0.62, "referral": 1.15}.get(channel, 1.0)
            if opt is not None:
                r *= 1.2 if opt else 0.74
            if multi:
                r += 0.10
            if is_qa:
                r = 0.0
            r = min(r, 0.9)
            retained = rng.random() < r

            def add(day_from, day_to, k, short=False):
                for _ in range(k):
                    dn = rng.randint(day_from, day_to)
                    start = to_utc(day, dn * 86400 + rng.randint(6 * 3600, 23 * 3600))
                    if start > until or start < signup:
                        continue
                    cands = [d for d in devs if d[2] <= start]
                    dv = cands[-1] if len(cands) > 1 and rng.random() < 0.4 else cands[0]
                    dur = rng.randint(2, 9) if short else rng.randint(15, 1400)
                    sessions.append((dv[0], uid, dv[1], fmt(start), dur))

            add(0, 0, rng.randint(1, 3))
            if not is_qa:
                for lo, hi, p in [(1, 6, r + 0.35), (7, 13, r + 0.2), (14, 21, r + 0.08)]:
                    if rng.random() < min(p, 0.95):
                        add(lo, hi, rng.randint(1, 4))
                if retained:
                    add(22, 28, rng.randint(1, 4))
                elif rng.random() < 0.09:
                    add(22, 28, 1, short=True)
                for lo, hi in [(29, 35), (36, 42), (43, 56)]:
                    if rng.random() < (r - 0.02 if retained else 0.04):
                        add(lo, hi, rng.randint(1, 3))
            # experiments, exposed two minutes after signup
            exp_at = fmt(signup + dt.timedelta(minutes=2))
            if platform in ("ios", "android") and "2024-10-07T17:00:00Z" <= signup.strftime("%Y-%m-%dT%H:%M:%SZ") \
                    < "2024-11-04T17:00:00Z":
                exposures.append(("exp_onboarding_checklist_v3", "checklist" if rng.random() < 0.5 else "control",
                                  uid, exp_at))
            if platform == "web" and signup.strftime("%Y-%m-%dT%H:%M:%SZ") >= "2024-10-21T18:00:00Z":
                exposures.append(("exp_onboarding_checklists_v3",
                                  "compact_checklist" if rng.random() < 0.5 else "control", uid, exp_at))
    sessions.sort(key=lambda s: s[3])
    sessions = [("ss_%07d" % (5200000 + i),) + s for i, s in enumerate(sessions)]
    return users, devices, sessions, exposures


SCHEMA = """
CREATE TABLE analytics.dim_users (user_id INTEGER PRIMARY KEY, signup_ts TEXT, plan_at_signup TEXT, country TEXT,
  acquisition_channel TEXT, is_test INTEGER);
CREATE TABLE analytics.dim_user (user_id INTEGER, signed_up_at TEXT, platform TEXT, plan TEXT, country TEXT);
CREATE TABLE analytics.dim_devices (device_id TEXT PRIMARY KEY, user_id INTEGER, platform TEXT, app_version TEXT,
  first_seen_ts TEXT, is_signup_device INTEGER, push_opt_in INTEGER);
CREATE TABLE analytics.fct_sessions (session_id TEXT PRIMARY KEY, device_id TEXT, user_id INTEGER, platform TEXT,
  session_start_ts TEXT, duration_s INTEGER);
CREATE TABLE analytics.fct_experiment_exposures (experiment_key TEXT, variant TEXT, user_id INTEGER, exposed_ts TEXT);
CREATE INDEX analytics.ix_sessions_user ON fct_sessions (user_id);
CREATE INDEX analytics.ix_devices_user ON dim_devices (user_id);
"""


def convert_tz(tz, ts):
    if ts is None:
        return None
    t = dt.datetime.strptime(ts[:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    return fmt(t.astimezone(ZoneInfo(tz)))


def _build(path):
    users, devices, sessions, exposures = generate()
    tmp = "%s.%d.tmp" % (path, os.getpid())
    # one file: its tables are the schema `analytics`, attached under that name at query time
    con = sqlite3.connect(tmp)
    con.executescript(SCHEMA.replace("analytics.ix_", "ix_").replace("analytics.", ""))
    con.executemany("INSERT INTO dim_users VALUES (?,?,?,?,?,?)", [u[:6] for u in users])
    rng = random.Random(7)
    current = {}
    for u in users:
        p = u[2]
        current[u[0]] = "premium" if p == "premium_trial" and rng.random() < 0.45 else (
            "free" if p == "premium_trial" else ("premium" if rng.random() < 0.03 else "free"))
    last_platform = {}
    for s in sessions:
        last_platform[s[2]] = s[3]
    con.executemany("INSERT INTO dim_user VALUES (?,?,?,?,?)",
                    [(u[0], convert_tz(TZ, u[1]), last_platform.get(u[0], u[6]), current[u[0]], u[3]) for u in users])
    con.executemany("INSERT INTO dim_devices VALUES (?,?,?,?,?,?,?)", devices)
    con.executemany("INSERT INTO fct_sessions VALUES (?,?,?,?,?,?)", sessions)
    con.executemany("INSERT INTO fct_experiment_exposures VALUES (?,?,?,?)", exposures)
    con.commit()
    con.close()
    os.replace(tmp, path)


def db_path():
    with open(__file__, "rb") as f:
        h = hashlib.sha1(f.read()).hexdigest()[:12]
    return os.path.join(tempfile.gettempdir(), "ptc-sql-analytics-%s.sqlite" % h)


def connect():
    """A read-only connection to the warehouse, its tables under the schema `analytics`."""
    path = db_path()
    if not os.path.exists(path):
        _build(path)
    con = sqlite3.connect(":memory:")
    con.execute("ATTACH DATABASE ? AS analytics", (path,))
    con.execute("PRAGMA query_only = 1")
    con.create_function("convert_tz", 2, convert_tz, deterministic=True)
    return con


def sql(q):
    """(columns, rows) of a query, for answers.py and the catalogues."""
    con = connect()
    cur = con.execute(q)
    cols = [c[0] for c in cur.description]
    return cols, [list(r) for r in cur.fetchall()]


# --- the certified metric, as the semantic layer writes it --------------------------------------------

COHORT_DATE = "date(convert_tz('America/Los_Angeles', u.signup_ts))"
DAY_N = ("CAST(julianday(date(convert_tz('America/Los_Angeles', s.session_start_ts))) - "
         "julianday(date(convert_tz('America/Los_Angeles', u.signup_ts))) AS INTEGER)")
WK4_NUM = "COUNT(DISTINCT CASE WHEN %s BETWEEN 22 AND 28 THEN u.user_id END)" % DAY_N
WK4_DEN = "COUNT(DISTINCT u.user_id)"
WK4_JOIN = "LEFT JOIN analytics.fct_sessions s ON s.user_id = u.user_id AND s.duration_s >= 10"
WK4_WHERE = "u.is_test = 0"
PLATFORM_JOIN = "JOIN analytics.dim_devices d ON d.user_id = u.user_id AND d.is_signup_device = 1"


def certified_by_month():
    cols, rows = sql("""
SELECT substr(%s, 1, 7) AS cohort_month, %s AS users, %s AS retained
FROM analytics.dim_users u %s
WHERE %s GROUP BY 1 ORDER BY 1""" % (COHORT_DATE, WK4_DEN, WK4_NUM, WK4_JOIN, WK4_WHERE))
    return {r[0]: (r[1], r[2]) for r in rows}
