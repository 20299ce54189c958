#!/usr/bin/env python3
"""The model answers of the sql-analytics session.
Table and column names, SQL fragments, metric ids, experiment keys, versions,
dates, counts, rates, dashboard ids and owners the agent reuses are taken
from world.py and tool.py (and from queries on the world's warehouse that
mirror the agent's), as the model takes them from the prints of earlier
turns. Two corrections, each after the old value was printed: the cohorts
are first cut by UTC signup month and then, once the semantic layer's
definition of retention_wk4 is read, by the signup date in
America/Los_Angeles (`cohort-month`, `cohort-where` and `cohort-counts`
redefined; October 4660 -> 4645 users); the retention by platform and plan
first joins every device of a user, counting users with two devices twice,
and is redone on the signup device with a distinct count (`by-seg`
redefined). Later programs write only the corrected values."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()

# --- mirrors of what the agent's queries return ---------------------------------------------


def rows(q):
    cols, rs = w.sql(q)
    return [dict(zip(cols, r)) for r in rs]


COHORT_DATE = w.COHORT_DATE
DAY_N = w.DAY_N
PT_MONTH = "substr(%s, 1, 7)" % COHORT_DATE
PT_WHERE = "u.is_test = 0 AND %s BETWEEN '2024-09-01' AND '2024-10-31'" % COHORT_DATE
UTC_WHERE = "u.is_test = 0 AND u.signup_ts >= '2024-09-01 00:00:00' AND u.signup_ts < '2024-11-01 00:00:00'"
SESSIONS_JOIN = w.WK4_JOIN + " AND s.session_start_ts >= '2024-09-01 07:00:00'"
USER_WK4 = ("WITH uw AS (\n  SELECT u.user_id, %s AS cohort_date, %s AS cohort_month, u.plan_at_signup AS plan,"
            " u.acquisition_channel AS channel,\n         MAX(CASE WHEN %s BETWEEN 22 AND 28 THEN 1 ELSE 0 END) AS wk4\n"
            "  FROM analytics.dim_users u %s\n  WHERE %s\n  GROUP BY u.user_id)\n"
            % (COHORT_DATE, PT_MONTH, DAY_N, SESSIONS_JOIN, PT_WHERE))
PLATFORM_JOIN = w.PLATFORM_JOIN

UTC_COUNTS = {r["m"]: r["n"] for r in rows(
    "SELECT substr(u.signup_ts, 1, 7) m, COUNT(*) n FROM analytics.dim_users u WHERE %s GROUP BY 1" % UTC_WHERE)}
PT_COUNTS = {r["m"]: r["n"] for r in rows(
    "SELECT %s m, COUNT(*) n FROM analytics.dim_users u WHERE %s GROUP BY 1" % (PT_MONTH, PT_WHERE))}
FIRST = {r["m"]: (r["n"], r["r"]) for r in rows(
    "SELECT substr(u.signup_ts, 1, 7) m, COUNT(DISTINCT u.user_id) n, COUNT(DISTINCT CASE WHEN "
    "julianday(s.session_start_ts) - julianday(u.signup_ts) BETWEEN 21 AND 28 THEN u.user_id END) r "
    "FROM analytics.dim_users u LEFT JOIN analytics.fct_sessions s ON s.user_id = u.user_id WHERE %s GROUP BY 1"
    % UTC_WHERE)}
CERT = w.certified_by_month()
SEP_N, SEP_R = CERT["2024-09"]
OCT_N, OCT_R = CERT["2024-10"]
SEP_PCT = 100.0 * SEP_R / SEP_N
OCT_PCT = 100.0 * OCT_R / OCT_N
DROP = OCT_PCT - SEP_PCT


def pct(r):
    return 100.0 * r["retained"] / r["users"]


FANOUT = rows(USER_WK4 + "SELECT uw.cohort_month, d.platform, uw.plan, COUNT(*) AS users, SUM(uw.wk4) AS retained\n"
              "FROM uw JOIN analytics.dim_devices d ON d.user_id = uw.user_id\nGROUP BY 1, 2, 3 ORDER BY 2, 3, 1")
FANOUT_OCT = sum(r["users"] for r in FANOUT if r["cohort_month"] == "2024-10")
FANOUT_WEB = sum(r["users"] for r in FANOUT if r["cohort_month"] == "2024-10" and r["platform"] == "web")
DASH_WEB = [v for v in t.signups_tile() if v["month"] == "2024-10" and v["platform"] == "web"][0]["signups"]
SEG = rows(USER_WK4 + "SELECT u.cohort_month, d.platform, u.plan, COUNT(DISTINCT u.user_id) AS users, "
           "SUM(u.wk4) AS retained\nFROM uw u " + PLATFORM_JOIN + "\nGROUP BY 1, 2, 3 ORDER BY 2, 3, 1")


def seg(platform=None, plan=None):
    out = {}
    for m in ("2024-09", "2024-10"):
        rs = [r for r in SEG if r["cohort_month"] == m and platform in (None, r["platform"]) and plan in (None, r["plan"])]
        out[m] = 100.0 * sum(r["retained"] for r in rs) / sum(r["users"] for r in rs)
    return out["2024-09"], out["2024-10"], out["2024-10"] - out["2024-09"]


def f1(x):
    return "%.1f" % x


def pp(x):
    return "%+.1f" % x


# Android, by onboarding flow and opt-in
BROKEN = ["7.12.0", "7.12.1"]
AND = rows(USER_WK4 + "SELECT u.cohort_month, CASE WHEN d.app_version IN ('7.12.0', '7.12.1') THEN 'no_prompt' "
           "ELSE 'prompt' END AS onboarding, d.push_opt_in, COUNT(DISTINCT u.user_id) AS users, SUM(u.wk4) AS retained\n"
           "FROM uw u " + PLATFORM_JOIN + " WHERE d.platform = 'android'\nGROUP BY 1, 2, 3 ORDER BY 1, 2, 3")


def cell(m, onb, opt):
    return [r for r in AND if r["cohort_month"] == m and r["onboarding"] == onb and r["push_opt_in"] == opt][0]


PROMPT = [r for r in AND if r["onboarding"] == "prompt"]
P_PRE = sum(r["users"] for r in PROMPT if r["push_opt_in"] == 1) / sum(r["users"] for r in PROMPT)
NP_IN, NP_OUT = cell("2024-10", "no_prompt", 1), cell("2024-10", "no_prompt", 0)
NP_N = NP_IN["users"] + NP_OUT["users"]
NP_ACTUAL = NP_IN["retained"] + NP_OUT["retained"]
NP_CF = NP_N * (P_PRE * NP_IN["retained"] / NP_IN["users"] + (1 - P_PRE) * NP_OUT["retained"] / NP_OUT["users"])
ANDROID_PP = 100.0 * (NP_CF - NP_ACTUAL) / OCT_N
NP_OPTIN = 100.0 * NP_IN["users"] / NP_N

CH = rows(USER_WK4 + "SELECT u.cohort_month, u.channel, COUNT(*) AS users, SUM(u.wk4) AS retained FROM uw u "
          "GROUP BY 1, 2 ORDER BY 1, 2")
CH_SEP = {r["channel"]: r for r in CH if r["cohort_month"] == "2024-09"}
CH_OCT = {r["channel"]: r for r in CH if r["cohort_month"] == "2024-10"}
MIX_PCT = sum(CH_SEP[c]["users"] / SEP_N * CH_OCT[c]["retained"] / CH_OCT[c]["users"] for c in CH_SEP) * 100.0
MIX_PP = MIX_PCT - OCT_PCT
PAID_SHARE_SEP = 100.0 * CH_SEP["paid_social"]["users"] / SEP_N
PAID_SHARE_OCT = 100.0 * CH_OCT["paid_social"]["users"] / OCT_N
OTHER_PP = -DROP - ANDROID_PP - MIX_PP

OPTIN_WEEKS = rows("SELECT date(%s, '-6 days', 'weekday 1') AS week, d.platform, SUM(d.push_opt_in) AS opted_in, "
                   "COUNT(d.push_opt_in) AS devices FROM analytics.dim_users u %s WHERE u.is_test = 0 AND "
                   "d.platform IN ('ios', 'android') AND %s BETWEEN '2024-09-01' AND '2024-11-30' GROUP BY 1, 2 "
                   "ORDER BY 1, 2" % (COHORT_DATE, PLATFORM_JOIN, COHORT_DATE))
NOV = rows("SELECT d.app_version, COUNT(*) AS devices, SUM(d.push_opt_in) AS opted_in FROM analytics.dim_users u %s "
           "WHERE u.is_test = 0 AND d.platform = 'android' AND %s BETWEEN '2024-11-01' AND '2024-11-30' GROUP BY 1 "
           "ORDER BY 1" % (PLATFORM_JOIN, COHORT_DATE))
FIXED = [r for r in NOV if r["app_version"] == "7.12.2"][0]
FIXED_OPTIN = 100.0 * FIXED["opted_in"] / FIXED["devices"]

TITLE = "Why week-4 retention of the October 2024 cohort dropped"
PUBLISHED = t.notebook_publish({"title": TITLE, "body_md": "x", "link_dashboards": ["DB-2291", "DB-2307"]})

# --- the session -----------------------------------------------------------------------------

s.turn("I'll start with the question and find the dashboard it refers to.", r'''
(println data/question)
(def dash-hits (tool/dashboard-search {:query "growth retention weekly"}))
(doseq [d (:dashboards dash-hits)]
  (println (:dashboard_id d) "|" (:title d) "|" (:status d) "|" (:owner d) "|" (str/join ", " (:metrics d))
           "| refreshed" (:refreshed d)))
''')

s.turn("DB-2291 Growth Weekly is the certified one; DB-2219 is a deprecated legacy board. Its tiles and current values:", r'''
(def growth (tool/dashboard-search {:dashboard_id "DB-2291"}))
(println (:title growth) (:url growth) "owner" (:owner growth) "refreshed" (:refreshed growth))
(doseq [t (:tiles growth)]
  (println "##" (:tile t) "-" (:metric t) "-" (or (:note t) ""))
  (doseq [v (:values t)]
    (println "  " v)))
''')

s.turn(fill("The tile uses retention_wk4: September <<SP>>% of <<SN>> users, October <<OP>>% of <<ON>>. The warehouse next:",
            SP=f1(SEP_PCT), SN=SEP_N, OP=f1(OCT_PCT), ON=OCT_N), r'''
(def schemas (tool/wh-schemas))
(println (:warehouse schemas) "| data until" (:data_until schemas))
(doseq [sc (:schemas schemas)
        t (:tables sc)]
  (println (format "%-38s %-8s %8s  %s" (:table t) (:kind t) (or (:rows t) "-") (:description t))))
''')

s.turn("Two user tables with nearly the same name: dim_users (current) and dim_user (deprecated view). Their columns:", r'''
(def user-tables (pmap #(tool/wh-describe {:table %}) ["analytics.dim_users" "analytics.dim_user"]))
(doseq [t user-tables]
  (println "==" (:table t) (str "(" (:kind t) ", " (:rows t) " rows)") "-" (:description t))
  (doseq [c (:columns t)]
    (println (format "   %-22s %-10s %s" (:name c) (:type c) (:comment c)))))
''')

s.turn("dim_users.signup_ts is UTC, dim_user.signed_up_at is local time and its plan is the current one. I'll use analytics.dim_users. Devices, sessions and experiment exposures:", r'''
(def fact-tables (pmap #(tool/wh-describe {:table %})
                       ["analytics.dim_devices" "analytics.fct_sessions" "analytics.fct_experiment_exposures"]))
(doseq [t fact-tables]
  (println "==" (:table t) (str "(" (:rows t) " rows, pk " (:primary_key t) ")") "-" (:description t))
  (doseq [c (:columns t)]
    (println (format "   %-22s %-10s %s" (:name c) (:type c) (:comment c)))))
''')

s.turn("A query helper that turns the rows into maps, and an ASCII table printer. First a look at a few sessions:", r'''
(defn q
  "Runs `sql` on the warehouse and returns the rows as maps keyed by column name."
  [sql]
  (let [r (tool/wh-query {:sql sql})
        ks (mapv keyword (:columns r))]
    (mapv #(zipmap ks %) (:rows r))))
(defn ascii-table
  "Prints the maps `rows` as a bordered table of the columns `cols`."
  [cols rows]
  (let [cell (fn [v] (if (nil? v) "NULL" (str v)))
        widths (mapv (fn [c] (apply max (count (name c)) (map #(count (cell (get % c))) rows))) cols)
        line (str "+" (str/join "+" (map #(apply str (repeat (+ 2 %) "-")) widths)) "+")
        fmt-row (fn [vs] (str "| " (str/join " | " (map (fn [wd v] (format (str "%-" wd "s") v)) widths vs)) " |"))]
    (println line)
    (println (fmt-row (map name cols)))
    (println line)
    (doseq [r rows]
      (println (fmt-row (map #(cell (get r %)) cols))))
    (println line)))
(def sample (q "SELECT s.session_id, s.user_id, s.device_id, s.platform, s.session_start_ts, s.duration_s FROM analytics.fct_sessions s WHERE s.session_start_ts >= '2024-10-16 00:00:00' ORDER BY s.session_start_ts LIMIT 6"))
(ascii-table [:session_id :user_id :device_id :platform :session_start_ts :duration_s] sample)
''')

s.turn("Cohort sizes by signup month, test accounts excluded:", r'''
(def cohort-month "substr(u.signup_ts, 1, 7)")
(def cohort-where "u.is_test = 0 AND u.signup_ts >= '2024-09-01 00:00:00' AND u.signup_ts < '2024-11-01 00:00:00'")
(def cohort-counts
  (q (str "SELECT " cohort-month " AS cohort_month, COUNT(*) AS users FROM analytics.dim_users u WHERE " cohort-where
          " GROUP BY 1 ORDER BY 1")))
(ascii-table [:cohort_month :users] cohort-counts)
''')

FIRST_SQL = r'''(def wk4-sql
  (str "SELECT " cohort-month " AS cohort_month, COUNT(DISTINCT u.user_id) AS users,\n"
       "  COUNT(DISTINCT CASE WHEN julianday(s.session_start_ts) - julianday(u.signup_ts) BETWEEN 21 AND 28\n"
       "                      THEN u.user_id END) AS retained<<COMMA>>\n"
       "FROM analytics.dim_users u\n"
       "LEFT JOIN analytics.fct_sessions s ON s.user_id = u.user_id\n"
       "WHERE " cohort-where "\n"
       "GROUP BY 1 ORDER BY 1"))
(println wk4-sql)'''
s.turn("Now week-4 retention per month: users with a session in the fourth week after signup.",
       fill(FIRST_SQL, COMMA=",") + r'''
(def wk4-first (q wk4-sql))
(ascii-table [:cohort_month :users :retained] wk4-first)
''', "tool")

s.turn("A trailing comma before FROM. Again, with the rate and the dashboard's figures beside it:",
       fill(FIRST_SQL, COMMA="") + r'''
(def wk4-first
  (mapv #(assoc % :wk4 (format "%.1f%%" (* 100.0 (/ (:retained %) (:users %))))) (q wk4-sql)))
(def tile (:values (first (:tiles growth))))
(ascii-table [:cohort_month :users :retained :wk4]
             (concat wk4-first (map #(assoc % :cohort_month (str (:cohort_month %) " (DB-2291)") :wk4 (:retention_wk4 %)) tile)))
''')

s.turn(fill("Neither the users (<<U9>> and <<U10>> against <<SN>> and <<ON>>) nor the rates match: my definition is not the dashboard's. The semantic layer:",
            U9=UTC_COUNTS["2024-09"], U10=UTC_COUNTS["2024-10"], SN=SEP_N, ON=OCT_N), r'''
(def metric-hits (tool/semantic-metric {:search "retention"}))
(doseq [m (:metrics metric-hits)]
  (println (:metric m) "|" (:label m) "|" (:status m) "|" (:owner m))
  (println "   " (:description m)))
''')

s.turn("Two look-alikes: retention_wk4 (certified, the dashboard's) and retention_w4 (legacy). Both in full:", r'''
(def wk4-def (tool/semantic-metric {:metric "retention_wk4"}))
(def w4-def (tool/semantic-metric {:metric "retention_w4"}))
(doseq [[k v] wk4-def]
  (println (str (name k) ":") (pr-str v)))
(println "----")
(doseq [k [:metric :status :superseded_by :description :numerator :from]]
  (println (str (name k) ":") (get w4-def k)))
''')

CERT_DEFS = fill(r'''(def cohort-date "<<CD>>")
(def day-n "<<DN>>")
(def wk4-num "<<NUM>>")
(def wk4-den "COUNT(DISTINCT u.user_id)")
(def wk4-join "<<JOIN>>")
(def cohort-month (str "substr(" cohort-date ", 1, 7)"))
(def cohort-where (str "u.is_test = 0 AND " cohort-date " BETWEEN '2024-09-01' AND '2024-10-31'"))
(def cohort-counts-utc cohort-counts)
(def cohort-counts
  (q (str "SELECT " cohort-month " AS cohort_month, COUNT(*) AS users FROM analytics.dim_users u WHERE " cohort-where
          " GROUP BY 1 ORDER BY 1")))''', CD=COHORT_DATE, DN=DAY_N, NUM=w.WK4_NUM, JOIN=w.WK4_JOIN)

s.turn("The certified metric assigns cohorts by the signup date in America/Los_Angeles, counts days 22-28 and only sessions of 10 s or more. My cohorts were UTC months. Redefining the cohort with the metric's own snippets, and comparing:",
       CERT_DEFS + r'''
(println (clojure.data/diff (set cohort-counts-utc) (set cohort-counts)))
''', "unbound_symbol")

s.turn("No clojure.data here. The same, compared by hand:", CERT_DEFS + r'''
(ascii-table [:cohort_month :utc :pacific :change]
             (map (fn [a b] {:cohort_month (:cohort_month b) :utc (:users a) :pacific (:users b)
                             :change (- (:users b) (:users a))})
                  cohort-counts-utc cohort-counts))
''')

s.turn(fill("Pacific-time cohorts give <<SN>> and <<ON>>, the dashboard's numbers. The filter u.is_test = 0 matters on some days? Test accounts by signup date:",
            SN=SEP_N, ON=OCT_N), r'''
(def test-days
  (q (str "SELECT " cohort-date " AS signup_date, SUM(u.is_test) AS test_accounts, COUNT(*) AS signups\n"
          "FROM analytics.dim_users u WHERE " cohort-date " BETWEEN '2024-09-01' AND '2024-10-31'\n"
          "GROUP BY 1 HAVING SUM(u.is_test) > 2 ORDER BY 1")))
(ascii-table [:signup_date :test_accounts :signups] test-days)
''')

s.turn(fill("2024-10-10 stands out (46 test accounts: a QA load test); all are excluded by the filter. Before running the metric over the sessions, the cost of the query:"), r'''
(def wk4-month-sql
  (str "SELECT " cohort-month " AS cohort_month, " wk4-den " AS users, " wk4-num " AS retained\n"
       "FROM analytics.dim_users u " wk4-join "\nWHERE " cohort-where "\nGROUP BY 1 ORDER BY 1"))
(def plan (tool/wh-explain {:sql wk4-month-sql}))
(doseq [p (:plan plan)] (println "  " p))
(println "scan" (:est_bytes_scanned plan) "bytes, est" (:est_cost_usd plan) "USD")
(println "warnings:" (:warnings plan))
''')

s.turn("It scans every partition. The earliest session that can matter is at the start of 2024-09-01 Pacific (07:00 UTC), so I bound the join:", r'''
(def sessions-join (str wk4-join " AND s.session_start_ts >= '2024-09-01 07:00:00'"))
(def wk4-month-sql
  (str "SELECT " cohort-month " AS cohort_month, " wk4-den " AS users, " wk4-num " AS retained\n"
       "FROM analytics.dim_users u " sessions-join "\nWHERE " cohort-where "\nGROUP BY 1 ORDER BY 1"))
(println (:warnings (tool/wh-explain {:sql wk4-month-sql})))
(def wk4-month
  (mapv #(assoc % :retention_wk4 (format "%.1f%%" (* 100.0 (/ (:retained %) (:users %))))) (q wk4-month-sql)))
(ascii-table [:cohort_month :users :retained :retention_wk4] wk4-month)
(println "DB-2291:" (map (juxt :cohort_month :users :retention_wk4) tile))
''')

USER_WK4_DEF = r'''(def user-wk4
  (str "WITH uw AS (\n  SELECT u.user_id, " cohort-date " AS cohort_date, " cohort-month " AS cohort_month, u.plan_at_signup AS plan, u.acquisition_channel AS channel,\n"
       "         MAX(CASE WHEN " day-n " BETWEEN 22 AND 28 THEN 1 ELSE 0 END) AS wk4\n"
       "  FROM analytics.dim_users u " sessions-join "\n  WHERE " cohort-where "\n  GROUP BY u.user_id)\n"))'''
s.turn(fill("Identical to the dashboard: <<SP>>% and <<OP>>%, a drop of <<D>> points. Now per platform and plan. The platform is on the devices, so: one row per user with a week-4 flag, joined to analytics.dim_devices.",
            SP=f1(SEP_PCT), OP=f1(OCT_PCT), D=f1(-DROP)), USER_WK4_DEF + r'''
(defn pct [r] (when r (* 100.0 (/ (:retained r) (:users r)))))
(defn sep-vs-oct
  "One row per [platform plan]: September and October users and week-4 retention, and the change in points."
  [rows]
  (vec (for [[[p pl] rs] (sort-by key (group-by (juxt :platform :plan) rows))
             :let [m (into {} (map (juxt :cohort_month identity) rs))
                   sep (m "2024-09")
                   oct (m "2024-10")]]
         {:platform p :plan pl :sep_users (:users sep) :sep_wk4 (format "%.1f%%" (pct sep))
          :oct_users (:users oct) :oct_wk4 (format "%.1f%%" (pct oct)) :delta_pp (format "%+.1f" (- (pct oct) (pct sep)))})))
(def by-seg
  (q (str user-wk4 "SELECT uw.cohort_month, d.platform, uw.plan, COUNT(*) AS users, SUM(uw.wk4) AS retained\n"
          "FROM uw JOIN analytics.dim_devices d ON d.user_id = uw.user_id\nGROUP BY 1, 2, 3 ORDER BY 2, 3, 1")))
(ascii-table [:platform :plan :sep_users :sep_wk4 :oct_users :oct_wk4 :delta_pp] (sep-vs-oct by-seg))
''')

s.turn(fill("The users per platform are far above the dashboard's signups by platform (web <<FW>> against <<DW>> in October), and web retains better than it should. Do the segments add up to the cohort? And which users have several devices:", FW=FANOUT_WEB, DW=DASH_WEB), r'''
(println "October segments:" (sum (map :users (filter #(= "2024-10" (:cohort_month %)) by-seg)))
         "users vs cohort" (:users (second cohort-counts)))
(def multi (q (str "SELECT d.user_id, COUNT(*) AS devices, GROUP_CONCAT(d.platform) AS platforms\n"
                   "FROM analytics.dim_devices d JOIN analytics.dim_users u ON u.user_id = d.user_id\n"
                   "WHERE " cohort-where "\nGROUP BY d.user_id HAVING COUNT(*) > 1")))
(println (count multi) "multi-device users" (take 5 multi))
''', "tool")

s.turn(fill("<<F>> against <<ON>>: the join fans out. Counting instead of listing, and the semantic layer's platform dimension:",
            F=FANOUT_OCT, ON=OCT_N), r'''
(def device-counts
  (q (str "SELECT cohort_month, devices, COUNT(*) AS users FROM (\n"
          "  SELECT d.user_id, " cohort-month " AS cohort_month, COUNT(*) AS devices\n"
          "  FROM analytics.dim_devices d JOIN analytics.dim_users u ON u.user_id = d.user_id\n"
          "  WHERE " cohort-where " GROUP BY d.user_id)\nGROUP BY 1, 2 ORDER BY 1, 2")))
(ascii-table [:cohort_month :devices :users] device-counts)
(def platform-dim (tool/semantic-metric {:dimension "platform"}))
(println "sql:" (:sql platform-dim))
(println "join:" (:join platform-dim))
(println "note:" (:note platform-dim))
''')

s.turn("About a fifth of the users have two devices, and they retain better, so they inflated every platform they touch (web most). The platform is the signup device's. Redefining the segment table with that join and a distinct count:", r'''
(def platform-join "JOIN analytics.dim_devices d ON d.user_id = u.user_id AND d.is_signup_device = 1")
(def by-seg-fanout by-seg)
(def by-seg
  (q (str user-wk4 "SELECT u.cohort_month, d.platform, u.plan, COUNT(DISTINCT u.user_id) AS users, SUM(u.wk4) AS retained\n"
          "FROM uw u " platform-join "\nGROUP BY 1, 2, 3 ORDER BY 2, 3, 1")))
(println "October segments:" (sum (map :users (filter #(= "2024-10" (:cohort_month %)) by-seg))) "users")
(ascii-table [:platform :plan :sep_users :sep_wk4 :oct_users :oct_wk4 :delta_pp] (sep-vs-oct by-seg))
(defn rollup [k rows]
  (for [[[m v] rs] (group-by (juxt :cohort_month k) rows)]
    {:cohort_month m :platform (if (= k :platform) v "all") :plan (if (= k :plan) v "all")
     :users (sum (map :users rs)) :retained (sum (map :retained rs))}))
(ascii-table [:platform :plan :sep_users :sep_wk4 :oct_users :oct_wk4 :delta_pp]
             (concat (sep-vs-oct (rollup :platform by-seg)) (sep-vs-oct (rollup :plan by-seg))))
''')

# weekly android
WEEKS = rows(USER_WK4 + "SELECT date(u.cohort_date, '-6 days', 'weekday 1') AS week, d.platform, COUNT(*) AS users, "
             "SUM(u.wk4) AS retained FROM uw u " + PLATFORM_JOIN + " GROUP BY 1, 2 ORDER BY 1, 2")


def wk(week, platform):
    r = [x for x in WEEKS if x["week"] == week and x["platform"] == platform][0]
    return pct(r)


A_SEP, A_OCT, A_D = seg("android")
s.turn(fill("Android fell most (<<AD>> points, <<AS>>% to <<AO>>%), on both plans. When in October? Retention by signup week and platform:",
            AD=f1(A_D), AS=f1(A_SEP), AO=f1(A_OCT)), r'''
(def by-week
  (q (str user-wk4 "SELECT date(u.cohort_date, '-6 days', 'weekday 1') AS week, d.platform, COUNT(*) AS users, SUM(u.wk4) AS retained\n"
          "FROM uw u " platform-join "\nGROUP BY 1, 2 ORDER BY 1, 2")))
(println "week       | android        | ios            | web")
(doseq [[wk rs] (sort-by key (group-by :week by-week))]
  (let [m (into {} (map (juxt :platform identity) rs))]
    (println wk "|" (str/join " | " (map #(let [r (m %)] (format "%5.1f%% (%4d)" (pct r) (:users r)))
                                        ["android" "ios" "web"])))))
''')

s.prose(fill("""Where this stands:

- The dashboard's figures reproduce exactly with the certified `retention_wk4` on Pacific-time cohorts: September <<SP>>% (<<SN>> users), October <<OP>>% (<<ON>> users), <<D>> points.
- Android carries most of the drop; it starts with the signups of the week of 2024-10-14 (<<W1>>% that week against <<W0>>% the week before) and stays low to the end of the month. iOS and web move little.
- Candidates: something that shipped to Android in mid-October (release or experiment), or a change in who signed up.

Next: the experiment registry, then the release calendar.""",
                   SP=f1(SEP_PCT), SN=SEP_N, OP=f1(OCT_PCT), ON=OCT_N, D=f1(DROP),
                   W1=f1(wk("2024-10-14", "android")), W0=f1(wk("2024-10-07", "android"))))

s.turn("Experiments on onboarding in that period:", r'''
(def exps (tool/experiment-lookup {:query "onboarding"}))
(doseq [e (:experiments exps)]
  (println (:key e) "|" (:name e) "|" (:status e) "|" (str/join "," (:platforms e)) "|" (:start e) "->" (or (:end e) "open")
           "|" (:owner e)))
(def exp-mobile (tool/experiment-lookup {:key "exp_onboarding_checklist_v3"}))
(println (:allocation exp-mobile) (map :name (:variants exp-mobile)) "primary:" (:primary_metric exp-mobile))
''')

s.turn("Two keys a letter apart: exp_onboarding_checklist_v3 (mobile, from 2024-10-07) and exp_onboarding_checklists_v3 (web, from 2024-10-21). Week-4 retention by variant for both:", r'''
(def exp-wk4
  (q (str user-wk4 "SELECT e.experiment_key, e.variant, COUNT(DISTINCT u.user_id) AS users, SUM(u.wk4) AS retained\n"
          "FROM uw u JOIN analytics.fct_experiment_exposures e ON e.user_id = u.user_id\n"
          "WHERE e.experiment_key IN ('exp_onboarding_checklist_v3', 'exp_onboarding_checklists_v3')\nGROUP BY 1, 2 ORDER BY 1, 2")))
(ascii-table [:experiment_key :variant :users :retained :wk4] (map #(assoc % :wk4 (format "%.1f%%" (pct %))) exp-wk4))
''')

s.turn("No difference between the arms of either experiment: not the cause. The release calendar from mid-September:", r'''
(def releases (tool/release-calendar {:from "2024-09-15" :to "2024-11-30"}))
(doseq [r (:releases releases)]
  (println (:date r) (format "%-8s %-12s" (:platform r) (:version r)) (:rollout r) "|" (:notes r)))
''')

s.turn("Android 7.12.0 shipped on 2024-10-16 with a merged permissions step; 7.12.2 on 2024-11-05 fixes a notification prompt that was never shown (a regression in 7.12.0). The push opt-in metric, and opt-in by signup week:", r'''
(def optin-def (tool/semantic-metric {:metric "push_opt_in_rate"}))
(println (:numerator optin-def) "/" (:denominator optin-def) "| from" (:from optin-def) "| filters" (:filters optin-def)
         "| used by" (:used_by optin-def) (:owner optin-def))
(def optin-weeks
  (q (str "SELECT date(" cohort-date ", '-6 days', 'weekday 1') AS week, d.platform, SUM(d.push_opt_in) AS opted_in, COUNT(d.push_opt_in) AS devices\n"
          "FROM analytics.dim_users u " platform-join "\n"
          "WHERE u.is_test = 0 AND d.platform IN ('ios', 'android') AND " cohort-date " BETWEEN '2024-09-01' AND '2024-11-30'\n"
          "GROUP BY 1, 2 ORDER BY 1, 2")))
(println "week       | android opt-in | ios opt-in")
(doseq [[wk rs] (sort-by key (group-by :week optin-weeks))]
  (let [m (into {} (map (juxt :platform identity) rs))]
    (println wk "|" (str/join " | " (map #(let [r (m %)] (format "%5.1f%% of %4d" (* 100.0 (/ (:opted_in r) (:devices r))) (:devices r)))
                                        ["android" "ios"])))))
''')

A_VERS = rows(USER_WK4 + "SELECT d.app_version, COUNT(DISTINCT u.user_id) AS users, SUM(d.push_opt_in) AS opted_in, "
              "SUM(u.wk4) AS retained FROM uw u " + PLATFORM_JOIN + " WHERE d.platform = 'android' AND "
              "u.cohort_month = '2024-10' GROUP BY 1 ORDER BY 1")
s.turn("Android opt-in falls from about 70% to the low teens in the week of 2024-10-14 and comes back after 2024-11-04; iOS is flat. October Android signups by the app version they signed up with:", r'''
(def android-versions
  (q (str user-wk4 "SELECT d.app_version, COUNT(DISTINCT u.user_id) AS users, SUM(d.push_opt_in) AS opted_in, SUM(u.wk4) AS retained\n"
          "FROM uw u " platform-join "\nWHERE d.platform = 'android' AND u.cohort_month = '2024-10'\nGROUP BY 1 ORDER BY 1")))
(ascii-table [:app_version :users :opted_in :opt_in :retained :wk4]
             (map #(assoc % :opt_in (format "%.1f%%" (* 100.0 (/ (:opted_in %) (:users %)))) :wk4 (format "%.1f%%" (pct %)))
                  android-versions))
''')

s.turn("The two versions without the prompt opt in at about 14% and retain worse than 7.11.1. Is it the prompt itself? Android retention by onboarding flow and opt-in:", r'''
(def broken-versions ["7.12.0" "7.12.1"])
(def android-optin
  (q (str user-wk4 "SELECT u.cohort_month, CASE WHEN d.app_version IN (" (str/join ", " (map #(str "'" % "'") broken-versions))
          ") THEN 'no_prompt' ELSE 'prompt' END AS onboarding, d.push_opt_in, COUNT(DISTINCT u.user_id) AS users, SUM(u.wk4) AS retained\n"
          "FROM uw u " platform-join " WHERE d.platform = 'android'\nGROUP BY 1, 2, 3 ORDER BY 1, 2, 3")))
(ascii-table [:cohort_month :onboarding :push_opt_in :users :retained :wk4]
             (map #(assoc % :wk4 (format "%.1f%%" (pct %))) android-optin))
''')

s.turn(fill("Within each opt-in group, retention is the same with or without the new flow: what changed is how many opted in (<<NPO>>% instead of about <<PPRE>>%). The rest of the drop might be who signed up. Channel mix, and the campaigns board:",
            NPO=f1(NP_OPTIN), PPRE="%.0f" % (100 * P_PRE)), r'''
(def by-channel
  (q (str user-wk4 "SELECT u.cohort_month, u.channel, COUNT(*) AS users, SUM(u.wk4) AS retained FROM uw u GROUP BY 1, 2 ORDER BY 1, 2")))
(def month-users (into {} (map (juxt :cohort_month :users) cohort-counts)))
(ascii-table [:cohort_month :channel :users :share :retained :wk4]
             (map #(assoc % :share (format "%.1f%%" (* 100.0 (/ (:users %) (month-users (:cohort_month %)))))
                            :wk4 (format "%.1f%%" (pct %)))
                  by-channel))
(def campaigns (tool/dashboard-search {:dashboard_id "DB-2145"}))
(println (:title campaigns) (:owner campaigns))
(doseq [v (:values (first (:tiles campaigns)))] (println "  " v))
''')

s.turn("Is paid social one platform's problem? Its share and week-4 retention per platform:", r'''
(def paid-by-platform
  (q (str user-wk4 "SELECT u.cohort_month, d.platform, COUNT(*) AS users, SUM(u.channel = 'paid_social') AS paid_users,\n"
          "       SUM(CASE WHEN u.channel = 'paid_social' THEN u.wk4 ELSE 0 END) AS paid_retained\n"
          "FROM uw u " platform-join "\nGROUP BY 1, 2 ORDER BY 2, 1")))
(ascii-table [:platform :cohort_month :users :paid_users :paid_share :paid_wk4]
             (map #(assoc % :paid_share (format "%.1f%%" (* 100.0 (/ (:paid_users %) (:users %))))
                            :paid_wk4 (format "%.1f%%" (* 100.0 (/ (:paid_retained %) (:paid_users %)))))
                  paid-by-platform))
''')

DECOMP = r'''(def oct-users <<ON>>)
(def drop-pp (- (pct {:retained <<OR>> :users <<ON>>}) (pct {:retained <<SR>> :users <<SN>>})))
(def optin-cells (into {} (map (juxt (juxt :cohort_month :onboarding :push_opt_in) identity) android-optin)))
(def prompt-rows (filter #(= "prompt" (:onboarding %)) android-optin))
(def p-pre (/ (sum (map :users (filter #(= 1 (:push_opt_in %)) prompt-rows))) (sum (map :users prompt-rows))))
(def np-in (optin-cells ["2024-10" "no_prompt" 1]))
(def np-out (optin-cells ["2024-10" "no_prompt" 0]))
(def np-users (+ (:users np-in) (:users np-out)))
(def np-actual (+ (:retained np-in) (:retained np-out)))
(def np-expected (* np-users (+ (* p-pre (/ (:retained np-in) (:users np-in))) (* (- 1 p-pre) (/ (:retained np-out) (:users np-out))))))'''
DECOMP = fill(DECOMP, ON=OCT_N, OR=OCT_R, SN=SEP_N, SR=SEP_R)

s.turn(fill("Paid social went from <<PS>>% to <<PO>>% of signups (the spooky-streaks-paid-social campaign, 2024-10-07 to 2024-10-27) and retains far worse. Splitting the drop: Android without the prompt, had they opted in at the usual rate; and October with September's channel mix.",
            PS=f1(PAID_SHARE_SEP), PO=f1(PAID_SHARE_OCT)), DECOMP + r'''
(println (format "Android no-prompt signups: %d, retained %d, expected at %.1f%% opt-in: %d" np-users np-actual (* 100 p-pre) np-expected))
''', "type")

s.turn("np-expected is a float. Rounding it, and the channel reweighting:", DECOMP + fill(r'''
(println (format "Android no-prompt signups: %d, retained %d, expected at %.1f%% opt-in: %d" np-users np-actual (* 100 p-pre) (round np-expected)))
(def ch (group-by :cohort_month by-channel))
(def sep-share (into {} (map (fn [r] [(:channel r) (/ (:users r) (month-users "2024-09"))]) (ch "2024-09"))))
(def oct-mix-adjusted (* 100.0 (sum (map (fn [r] (* (sep-share (:channel r)) (/ (:retained r) (:users r)))) (ch "2024-10")))))
(def decomp
  {:drop_pp drop-pp
   :android_prompt_pp (* 100.0 (/ (- np-expected np-actual) oct-users))
   :channel_mix_pp (- oct-mix-adjusted (pct {:retained <<OR>> :users <<ON>>}))})
(def decomp (assoc decomp :other_pp (- (- (:drop_pp decomp)) (:android_prompt_pp decomp) (:channel_mix_pp decomp))))
(doseq [[k v] decomp] (println (format "%-18s %+.2f" (name k) v)))
''', OR=OCT_R, ON=OCT_N))

s.turn("Both causes together explain nearly all of it. Their shares of the drop, for the write-up:", r'''
(defn share-of-drop
  "Percent of the total drop `total-pp` that `part-pp` points explain."
  [part-pp total-pp]
  (* 100.0 (/ part-pp (- total-pp))))
(def causes
  [{:cause "Android 7.12.0/7.12.1 onboarding never showed the notification prompt" :pp (:android_prompt_pp decomp)
    :share (share-of-drop (:android_prompt_pp decomp))}
   {:cause "paid-social campaign shifted the channel mix" :pp (:channel_mix_pp decomp)
    :share (share-of-drop (:channel_mix_pp decomp))}])
(println causes)
''', "arity")

s.turn("share-of-drop takes the total too.", r'''
(defn share-of-drop
  "Percent of the total drop `total-pp` that `part-pp` points explain."
  [part-pp total-pp]
  (* 100.0 (/ part-pp (- total-pp))))
(def causes
  [{:cause "Android 7.12.0/7.12.1 onboarding never showed the notification prompt" :pp (:android_prompt_pp decomp)
    :share (share-of-drop (:android_prompt_pp decomp) (:drop_pp decomp))}
   {:cause "paid-social campaign shifted the channel mix" :pp (:channel_mix_pp decomp)
    :share (share-of-drop (:channel_mix_pp decomp) (:drop_pp decomp))}
   {:cause "other (iOS, web, noise)" :pp (:other_pp decomp) :share (share-of-drop (:other_pp decomp) (:drop_pp decomp))}])
(doseq [c causes] (println (format "%5.2f pp  %5.1f%%  %s" (:pp c) (:share c) (:cause c))))
''')

s.turn("A cross-check: leave out both causes (paid-social signups, Android signups on the two versions without the prompt) and the months should nearly agree.", r'''
(def check
  (q (str user-wk4 "SELECT u.cohort_month, COUNT(*) AS users, SUM(u.wk4) AS retained FROM uw u " platform-join "\n"
          "WHERE u.channel <> 'paid_social' AND NOT (d.platform = 'android' AND d.app_version IN ("
          (str/join ", " (map #(str "'" % "'") broken-versions)) "))\nGROUP BY 1 ORDER BY 1")))
(ascii-table [:cohort_month :users :retained :wk4] (map #(assoc % :wk4 (format "%.1f%%" (pct %))) check))
''')

s.turn("Does 7.12.2 bring the opt-in back? November Android signups by version:", r'''
(def nov-android
  (q (str "SELECT d.app_version, COUNT(*) AS devices, SUM(d.push_opt_in) AS opted_in\nFROM analytics.dim_users u " platform-join
          "\nWHERE u.is_test = 0 AND d.platform = 'android' AND " cohort-date " BETWEEN '2024-11-01' AND '2024-11-30'\nGROUP BY 1 ORDER BY 1")))
(ascii-table [:app_version :devices :opted_in :opt_in]
             (map #(assoc % :opt_in (format "%.1f%%" (* 100.0 (/ (:opted_in %) (:devices %))))) nov-android))
(def android-health (tool/dashboard-search {:dashboard_id "DB-2307"}))
(println (:title android-health) (:owner android-health))
(doseq [v (:values (first (:tiles android-health)))] (println "  " v))
''')

SEGS = [(p, pl) + seg(p, pl) for p in ("android", "ios", "web") for pl in ("free", "premium_trial")]
PLAT = [(p,) + seg(p) for p in ("android", "ios", "web")]
PLANS = [(pl,) + seg(None, pl) for pl in ("free", "premium_trial")]
s.turn(fill("Yes: 7.12.2 is back at <<FX>>%, and the Android Health board shows the same dip. The notebook, in markdown:", FX=f1(FIXED_OPTIN)),
       fill(r'''(defn md-table [cols rows]
  (str/join "\n" (concat [(str "| " (str/join " | " (map name cols)) " |")
                          (str "|" (str/join "|" (repeat (count cols) "---")) "|")]
                         (map (fn [r] (str "| " (str/join " | " (map #(str (get r %)) cols)) " |")) rows))))
(def report-md
  (str "# Why week-4 retention of the October 2024 cohort dropped\n\n"
       "**retention_wk4** (certified; days 22-28 after signup, sessions >= 10 s, test accounts excluded, cohorts by signup date in America/Los_Angeles) "
       "fell from <<SP>>% (September, <<SN>> users) to <<OP>>% (October, <<ON>> users): <<D>> points, as on DB-2291.\n\n"
       "## By platform and plan (signup device)\n\n"
       (md-table [:platform :plan :sep_users :sep_wk4 :oct_users :oct_wk4 :delta_pp]
                 (concat (sep-vs-oct by-seg) (sep-vs-oct (rollup :platform by-seg)) (sep-vs-oct (rollup :plan by-seg))))
       "\n\n## Causes\n\n"
       (md-table [:cause :pp :share] (map #(assoc % :pp (format "%.2f" (:pp %)) :share (format "%.0f%%" (:share %))) causes))
       "\n\n1. **Android 7.12.0 (2024-10-16) and 7.12.1** never showed the POST_NOTIFICATIONS prompt in onboarding; "
       "push opt-in of those signups fell to <<NPO>>% (about <<PPRE>>% before). Within each opt-in group retention did not change. Fixed in 7.12.2 (2024-11-05): <<FX>>% opt-in.\n"
       "2. **spooky-streaks-paid-social** (2024-10-07 to 2024-10-27) raised paid social from <<PS>>% to <<PO>>% of signups; they retain far worse.\n"
       "3. Not the cause: exp_onboarding_checklist_v3 (mobile) and exp_onboarding_checklists_v3 (web) show no difference between arms.\n\n"
       "## Definitions\n\n"
       "- cohort: `" cohort-date "`\n- platform: `" platform-join "` (joining every device counts a fifth of the users twice)\n"
       "- sessions: `" sessions-join "`\n"))
(println (count report-md) "chars," (count (str/split report-md #"\s+")) "words")
(println (subs report-md 0 1200))
''', SP=f1(SEP_PCT), SN=SEP_N, OP=f1(OCT_PCT), ON=OCT_N, D=f1(DROP), NPO=f1(NP_OPTIN), PPRE="%.0f" % (100 * P_PRE),
            FX=f1(FIXED_OPTIN), PS=f1(PAID_SHARE_SEP), PO=f1(PAID_SHARE_OCT)))

PUBLISH = r'''(def published
  (tool/notebook-publish {:title "Why week-4 retention of the October 2024 cohort dropped"
                          :body_md report-md
                          :link_dashboards ["DB-2291" "DB-2307"]
                          :reviewers ["maya.okafor@loopwell.app" "priyanka.rao@loopwell.app"]}))
(println published)'''
s.cut("Publishing it, linked from Growth Weekly and Android Health, with their owners as reviewers:",
      PUBLISH[:PUBLISH.index(':reviewers') + 40])

s.turn("Cut off; again:", PUBLISH)

SUMMARY = fill(r'''(def summary
  {:question "week-4 retention of the October 2024 signup cohort"
   :metric "retention_wk4"
   :cohorts {"2024-09" {:users <<SN>> :retained <<SR>> :retention_wk4 <<SP>>}
             "2024-10" {:users <<ON>> :retained <<OR>> :retention_wk4 <<OP>>}}
   :drop_pp <<D>>
   :by_platform {"android" <<PA>> "ios" <<PI>> "web" <<PW>>}
   :by_plan {"free" <<PF>> "premium_trial" <<PT>>}
   :by_platform_plan [<<SEGS>>]
   :causes [{:cause "Android 7.12.0 (2024-10-16) and 7.12.1 skipped the notification prompt; fixed in 7.12.2 (2024-11-05)"
             :opt_in_pct {:before <<PPRE>> :without_prompt <<NPO>> :after_fix <<FX>>}
             :pp <<AP>> :share_pct <<AS>>}
            {:cause "spooky-streaks-paid-social campaign (2024-10-07..2024-10-27): paid social <<PS>>% -> <<PO>>% of signups"
             :pp <<MP>> :share_pct <<MS>>}
            {:cause "other" :pp <<XP>>}]
   :ruled_out [{:experiment "exp_onboarding_checklist_v3" :platforms ["ios" "android"] :start "2024-10-07T17:00:00Z"}
               {:experiment "exp_onboarding_checklists_v3" :platforms ["web"] :start "2024-10-21T18:00:00Z"}]
   :releases {"7.12.0" "2024-10-16" "7.12.1" "2024-10-23" "7.12.2" "2024-11-05"}
   :definitions {:cohort "date(convert_tz('America/Los_Angeles', u.signup_ts))"
                 :platform "JOIN analytics.dim_devices d ON d.user_id = u.user_id AND d.is_signup_device = 1"
                 :filters ["u.is_test = 0" "s.duration_s >= 10"]
                 :excluded_qa_load_test "2024-10-10"}
   :data_until "2024-12-01 23:59:59 UTC"
   :notebook "<<URL>>"
   :dashboards {"DB-2291" {:url "https://bi.loopwell.app/d/DB-2291" :owner "maya.okafor@loopwell.app"}
                "DB-2307" {:owner "priyanka.rao@loopwell.app"}}})
(println summary)''',
               SN=SEP_N, SR=SEP_R, SP=f1(SEP_PCT), ON=OCT_N, OR=OCT_R, OP=f1(OCT_PCT), D=f1(DROP),
               PA=pp(seg("android")[2]), PI=pp(seg("ios")[2]), PW=pp(seg("web")[2]),
               PF=pp(seg(None, "free")[2]), PT=pp(seg(None, "premium_trial")[2]),
               SEGS="\n                     ".join('["%s" "%s" %s]' % (p_, pl, pp(d)) for p_, pl, _, _, d in SEGS),
               PPRE="%.1f" % (100 * P_PRE), NPO=f1(NP_OPTIN), FX=f1(FIXED_OPTIN),
               AP="%.2f" % ANDROID_PP, AS="%.0f" % (100 * ANDROID_PP / -DROP),
               PS=f1(PAID_SHARE_SEP), PO=f1(PAID_SHARE_OCT),
               MP="%.2f" % MIX_PP, MS="%.0f" % (100 * MIX_PP / -DROP), XP="%.2f" % OTHER_PP, URL=PUBLISHED["url"])
s.turn("Published. The summary:", SUMMARY)

s.turn("Returning it.", "(return summary)", "return")

if __name__ == "__main__":
    s.write(__file__)
    print("drop %.2f android %.2f mix %.2f other %.2f p_pre %.3f np_optin %.1f fixed %.1f" % (
        DROP, ANDROID_PP, MIX_PP, OTHER_PP, P_PRE, NP_OPTIN, FIXED_OPTIN))
    print("utc", UTC_COUNTS, "pt", PT_COUNTS, "first", FIRST, "fanout oct", FANOUT_OCT)
    for x in SEGS + PLAT + PLANS:
        print(x)
