#!/usr/bin/env python3
"""The model answers of the test-regression-fix session.
CI run ids, commit SHAs (short and full), authors and handles, file paths,
line numbers, test ids, assertion amounts, version pins, the lines of source
copied as the `old` text of edits, the PR number and URL the agent reuses are
taken from world.py (and tool.py), as the model takes them from the prints
(or, for a few, only the tool results) of earlier turns. Two corrections, each
after the old value was printed and used:
- `fix-target`: the agent greps for a guessed name, `prorate_days`, finds the
  credit-note helper in src/invoicing/utils/dates.py (it uses relativedelta,
  the bumped library) and patches it; the four tests still fail with the same
  amounts and the two credit-note tests break, so the edit is reverted and
  `fix-target` redefined to `prorated_days` in src/invoicing/proration.py;
- `dateutil-pin`: first read from requirements.lock (python-dateutil==2.8.2)
  and compared with what CI installed; CI installs requirements.txt since
  #440, so it is redefined to python-dateutil==2.9.0.post0.
Later programs write only the corrected values."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # gen/long/
sys.path.append(HERE)
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, clj, fill  # noqa: E402

s = Script()




# --- what the agent sees, mirrored to write the literals it copies -------------------------

mem = t.Memory()
t.STATE[0] = mem

RUNS = t.ci_runs({})["runs"]
BUMP_RUN = RUNS[1]
LATEST_RUN = RUNS[0]
assert "python-dateutil" in BUMP_RUN["title"] and BUMP_RUN["conclusion"] == "failure"
LAST_GREEN = RUNS[2]
assert LAST_GREEN["conclusion"] == "success"
FLAKY_RUNS = [r for r in RUNS[2:] if r["conclusion"] == "failure"]
assert len(FLAKY_RUNS) == 3
BUMP = w.BUMP
CI_COMMIT = w.commit_by_subject("ci: install")
PRORATION_COMMIT = w.commit_by_subject("feat(proration)")
DUNNING_COMMIT = w.commit_by_subject("feat(dunning)")
CREDITS_COMMIT = w.commit_by_subject("feat(credits)")

P_PROR, P_DATES = "src/invoicing/proration.py", "src/invoicing/utils/dates.py"
T_PROR = "tests/test_proration.py"
FAILING = ["tests/test_api.py::test_preview_upgrade_returns_totals",
           "tests/test_invoices.py::test_invoice_total_with_midcycle_upgrade",
           "tests/test_proration.py::test_prorate_leap_year",
           "tests/test_proration.py::test_prorate_month_end_upgrade"]
FLAKY = w.FLAKY
CREDIT_TESTS = ["tests/test_credits.py::test_credit_note_partial_month", "tests/test_credits.py::test_credit_note_full_month"]

WRONG_OLD = "    span = relativedelta(end, on)\n    return max(0, span.days)"
WRONG_NEW = "    return max(0, (end - on).days + 1)"
FIX_OLD = ("    span = relativedelta(end, period_start)\n    days_in_period = span.days + 1\n"
           "    days_charged = relativedelta(end, change_date).days + 1")
FIX_BAD = FIX_OLD.replace("relativedelta(end, period_start)", "relativedelta(period_start, end)")
FIX_NEW = "    days_in_period = (end - period_start).days + 1\n    days_charged = (end - change_date).days + 1"
for line in FIX_OLD.splitlines() + WRONG_OLD.splitlines():
    assert w.FILES[P_PROR].count(line) + w.FILES[P_DATES].count(line) == 1, line
TEST_ANCHOR = "        prorated_days(date(2024, 2, 15), date(2024, 3, 15))"
NEW_TESTS = '''


def test_prorated_days_counts_leap_february():
    assert prorated_days(date(2024, 2, 15), date(2024, 2, 29)) == (15, 29)
    assert prorated_days(date(2023, 2, 15), date(2023, 2, 28)) == (15, 28)


def test_prorated_days_month_end_period():
    assert prorated_days(date(2024, 1, 31), date(2024, 2, 20)) == (9, 29)'''
NEW_IDS = ["tests/test_proration.py::test_prorated_days_counts_leap_february",
           "tests/test_proration.py::test_prorated_days_month_end_period"]
CHANGELOG_OLD = "## [Unreleased]\n"
CHANGELOG_NEW = ("## [Unreleased]\n### Fixed\n- Proration counts the days of a period with date arithmetic instead of "
                 "`relativedelta(...).days`, which came out one day short with python-dateutil 2.9.0.post0.\n")

# the run of the session, replayed on the in-memory tree
t.edit({"path": P_DATES, "old": WRONG_OLD, "new": WRONG_NEW})
R1 = t.run_tests({"tests": FAILING + ["tests/test_credits.py"]})
assert R1["failed"] == 6, R1["summary"]
t.edit({"path": P_DATES, "old": WRONG_NEW, "new": WRONG_OLD})
assert not t.diff({})["files"]
t.edit({"path": P_PROR, "old": FIX_OLD, "new": FIX_NEW})
R2 = t.run_tests({"tests": FAILING + ["tests/test_credits.py"]})
assert R2["failed"] == 0, R2
FULL = t.run_tests({})
assert FULL["failed"] == 0 and FULL["passed"] == 30
t.edit({"path": T_PROR, "old": TEST_ANCHOR, "new": TEST_ANCHOR + NEW_TESTS})
R3 = t.run_tests({"tests": [T_PROR]})
assert R3["failed"] == 0 and R3["passed"] == 9
t.edit({"path": "CHANGELOG.md", "old": CHANGELOG_OLD, "new": CHANGELOG_NEW})
DIFF = t.diff({})
assert len(DIFF["files"]) == 3
FINAL = t.run_tests({})
assert FINAL["passed"] == 32 and FINAL["failed"] == 0
BRANCH = "fix/prorated-days-dateutil-2.9"
TITLE = "fix(proration): count period days with date arithmetic, not relativedelta (CI red since #471)"
PR = t.open_pr({"title": TITLE, "body": "x" * 50, "branch": BRANCH, "reviewers": ["@mkowalczyk"]})
PR_NUMBER, PR_URL = PR["number"], PR["url"]

F = dict(BUMPRUN=BUMP_RUN["run_id"], LATEST=LATEST_RUN["run_id"], GREEN=LAST_GREEN["run_id"],
         BUMPSTART=BUMP_RUN["started"], BUMPSHA=BUMP["sha"], BUMPSHORT=BUMP["sha"][:7],
         CISHORT=CI_COMMIT["sha"][:7], PRORSHORT=PRORATION_COMMIT["sha"][:7], PRORSHA=PRORATION_COMMIT["sha"],
         DUNSHORT=DUNNING_COMMIT["sha"][:7], CREDSHORT=CREDITS_COMMIT["sha"][:7],
         FLAKY=FLAKY, PROR=P_PROR, DATES=P_DATES, TPROR=T_PROR,
         T_API=FAILING[0], T_INV=FAILING[1], T_LEAP=FAILING[2], T_MONTH=FAILING[3],
         C_PART=CREDIT_TESTS[0], C_FULL=CREDIT_TESTS[1], N1=NEW_IDS[0], N2=NEW_IDS[1],
         FR1=FLAKY_RUNS[0]["run_id"], FR2=FLAKY_RUNS[1]["run_id"], FR3=FLAKY_RUNS[2]["run_id"],
         PRN=PR_NUMBER, PRURL=PR_URL, PRHEAD=PR["head_sha"], BRANCH=BRANCH, TITLE=TITLE, PRRUN=PR["ci_run_id"],
         WRONG_OLD=clj(WRONG_OLD), WRONG_NEW=clj(WRONG_NEW), FIX_OLD=clj(FIX_OLD), FIX_BAD=clj(FIX_BAD),
         FIX_NEW=clj(FIX_NEW), ANCHOR=clj(TEST_ANCHOR), NEWTESTS=clj(TEST_ANCHOR + NEW_TESTS),
         CHOLD=clj(CHANGELOG_OLD), CHNEW=clj(CHANGELOG_NEW), FULLSUM=FULL["summary"], FINALSUM=FINAL["summary"])

# --- the session -------------------------------------------------------------------------

s.turn("Starting with the brief and the recent CI runs on main.", r'''
(println (:repo data/brief) "-" (:request data/brief))
(doseq [c (:conventions data/brief)] (println " -" c))
(def runs (:runs (tool/trf-ci-runs {})))
(println (format "%-11s %-9s %-21s %-8s %-8s %s" "run" "event" "started" "sha" "result" "test job | title"))
(doseq [r runs]
  (let [t (first (filter #(= "test" (:name %)) (:jobs r)))]
    (println (format "%-11d %-9s %-21s %-8s %-8s %s | %s" (:run_id r) (:event r) (:started r) (subs (:head_sha r) 0 7)
                     (:conclusion r) (:summary t) (:title r)))))
''')

s.turn(fill("The nightly <<GREEN>> was green; the first red push after it is <<BUMPRUN>>, the python-dateutil bump itself. Its test log:", **F), fill(r'''
(def bump-run <<BUMPRUN>>)
(def bump-log (:log (tool/trf-ci-log {:run_id bump-run})))
(def log-lines (str/split-lines bump-log))
(println (count log-lines) "log lines")
(doseq [l log-lines
        :when (or (str/starts-with? l "FAILED") (str/starts-with? l "HEAD is now") (str/starts-with? l "collected")
                  (re-find #"^=+ \d+ failed" l))]
  (println l))
''', **F))

s.turn("Five failures, one of them in dunning, which has nothing to do with dates of a period. Did the earlier red runs fail on the same tests?", fill(r'''
(def earlier (filter #(< (:started %) "<<BUMPSTART>>") runs))
(println (count earlier) "runs before the bump")
''', **F), "type")

s.turn("Timestamps are strings: compare them with compare.", fill(r'''
(def earlier (filter #(neg? (compare (:started %) "<<BUMPSTART>>")) runs))
(def earlier-red (filter #(= "failure" (:conclusion %)) earlier))
(defn failed-ids [log]
  (->> (str/split-lines log)
       (filter #(str/starts-with? % "FAILED "))
       (map #(second (re-find #"^FAILED (\S+) - " %)))))
(doseq [r earlier-red]
  (println (:run_id r) (:event r) (subs (:started r) 0 10) "->" (vec (failed-ids (:log (tool/trf-ci-log {:run_id (:run_id r)}))))))
(def bump-failed (vec (failed-ids bump-log)))
(println "<<BUMPRUN>>:" bump-failed)
''', **F))

s.turn(fill("The dunning test already failed in <<FR1>>, <<FR2>> and <<FR3>>, before the bump: 2024-03-02 is a Saturday, 2024-03-01 and 2024-02-23 Fridays, like the bump run. A flaky, date-dependent test. The four others are new; their tracebacks:", **F), fill(r'''
(def flaky-test "<<FLAKY>>")
(def failing-tests (vec (remove #(= flaky-test %) bump-failed)))
(defn section [lines test-name]
  (let [start (first (keep-indexed (fn [i l] (when (and (str/starts-with? l "_") (str/includes? l (str " " test-name " "))) i)) lines))]
    (when start
      (take-while #(not (or (str/starts-with? % "___") (str/starts-with? % "-----"))) (drop (inc start) lines)))))
(doseq [t (conj failing-tests flaky-test)]
  (println "##" t)
  (println (str/join "\n" (section log-lines (second (str/split t #"::"))))))
''', **F))

s.turn(fill("Every regression is an amount one day off in a period around a month end (32.14 instead of 31.04, 19.29 instead of 18.62). Checking that the latest run <<LATEST>> fails the same four and that the flaky one passed there (a Monday):", **F), fill(r'''
(def latest-log (:log (tool/trf-ci-log {:run_id <<LATEST>>})))
(def latest-failed (vec (failed-ids latest-log)))
(println "<<LATEST>>:" latest-failed)
(println "same four:" (= (set latest-failed) (set failing-tests)) "| flaky failed:" (contains? (set latest-failed) flaky-test))
(println (last (filter #(re-find #"^=+ " %) (str/split-lines latest-log))))
''', **F))

s.turn("The repository layout:", r'''
(def tree (:files (tool/trf-tree {})))
(println (count tree) "files," (reduce + (map :lines tree)) "lines")
(doseq [f tree] (println (format "%-42s %4d" (:path f) (:lines f))))
''')

s.turn("Which python-dateutil the project pins: pyproject's range, then the lock file.", r'''
(println (:text (tool/trf-read {:path "pyproject.toml" :start 10 :end 16})))
(def lock (:text (tool/trf-read {:path "requirements.lock"})))
(def lock-pins (->> (str/split-lines lock)
                    (keep #(re-find #"\s([a-z][\w.-]*)==(\S+)$" %))
                    (map (fn [[_ k v]] [k v]))
                    (into {})))
(println (count lock-pins) "pins:" lock-pins)
(def dateutil-pin (str "python-dateutil==" (lock-pins "python-dateutil")))
(println "lock pins" dateutil-pin)
''')

s.turn("The lock says 2.8.2, yet the failures started with a dateutil bump. Comparing the pin with what CI installed in the bump run, and how CI installs:", r'''
(def ci-dateutil (second (re-find #"python-dateutil-(\S+)" bump-log)))
(println "lock:" dateutil-pin "| CI installed python-dateutil" ci-dateutil "| match:" (str/ends-with? dateutil-pin ci-dateutil))
(println (:text (tool/trf-read {:path ".github/workflows/ci.yml" :start 20 :end 30})))
''')

s.turn("CI installs requirements.txt, not the lock. The real pins and who changed them:", r'''
(println (:text (tool/trf-read {:path "requirements.txt"})))
(def req-log (:commits (tool/trf-git-log {:path "requirements.txt"})))
(doseq [c req-log] (println (:short c) (:date c) (:author c) "|" (:subject c)))
(def dateutil-pin-lock dateutil-pin)
(def dateutil-pin "python-dateutil==2.9.0.post0")
(println "CI pin:" dateutil-pin "| stale lock:" dateutil-pin-lock)
''')

s.turn(fill("The bump is <<BUMPSHORT>>; <<CISHORT>> is where CI stopped reading the lock. Both commits:", **F), fill(r'''
(def bump (tool/trf-git-show {:sha "<<BUMPSHORT>>"}))
(println (:author bump) (:date bump) "|" (:subject bump))
(println (:body bump))
(println (:diff bump))
(def ci-change (tool/trf-git-show {:sha "<<CISHORT>>"}))
(println (:author ci-change) (:date ci-change) "|" (:subject ci-change))
(println (:body ci-change))
(doseq [f (:files ci-change)] (println "  " (:path f) (:status f) (str "+" (:additions f) "/-" (:deletions f))))
''', **F))

s.turn("The only change of the bump is python-dateutil 2.8.2 -> 2.9.0.post0, so the day counting on top of relativedelta is the suspect. The tests are all about prorating; looking for the day-count helper:", r'''
(def helper-hits (:hits (tool/trf-grep {:pattern "def prorate_days"})))
(doseq [h helper-hits] (println h))
(def rd-hits (:hits (tool/trf-grep {:pattern "relativedelta" :path "src/invoicing/utils"})))
(doseq [h rd-hits] (println h))
''')

s.turn("prorate_days counts days with relativedelta. The whole module:", r'''
(def dates-src (tool/trf-read {:path "src/invoicing/utils/dates.py"}))
(println (:text dates-src))
''')

s.turn("`span.days` is only the day component of the relativedelta, not the length of the span, which is what broke. Replacing it with plain date subtraction, both ends counted as the proration docs say:", fill(r'''
(def fix-target {:path "<<DATES>>" :function "prorate_days" :line 17})
(def edit-1 (tool/trf-edit {:path (:path fix-target)
                            :old <<WRONG_OLD>>
                            :new <<WRONG_NEW>>}))
(println edit-1)
''', **F))

s.turn("Running the four regressions and the credit notes, which use this helper:", fill(r'''
(def run-1 (tool/trf-run-tests {:tests ["<<T_API>>" "<<T_INV>>" "tests/test_proration.py::test_prorate_leapyear"
                                        "<<T_MONTH>>" "tests/test_credits.py"]}))
(println (:summary run-1))
''', **F), "tool")

s.turn("Wrong test name; the failing ids are in failing-tests already.", r'''
(defn show-run [label res]
  (println label "|" (:summary res) "| python-dateutil" (:python_dateutil res))
  (doseq [f (:failures res)] (println "  FAIL" (:nodeid f) "@" (:where f) "-" (:message f))))
(def run-1 (tool/trf-run-tests {:tests (conj failing-tests "tests/test_credits.py")}))
(show-run "after the prorate_days edit" run-1)
''')

s.turn(fill("Worse: the four still fail with exactly the same amounts, and the edit broke <<C_PART>> and <<C_FULL>>. prorate_days is the credit-note helper; the proration module must have its own. Every prorat* definition:", **F), r'''
(doseq [h (:hits (tool/trf-grep {:pattern "def prorat" :path "src"}))] (println h))
(def proration-src (tool/trf-read {:path "src/invoicing/proration.py"}))
(doseq [chunk (partition-all 30 (str/split-lines (:text proration-src)))]
  (println (str/join "\n" chunk)))
''')

s.turn(fill("It is prorated_days (with a d), line 32 of <<PROR>>: lines 37-39 take the period length from `relativedelta(end, period_start)` and `.days`. First undoing my edit of the credit-note helper; what it changed:", **F), fill(r'''
(def fix-target-wrong fix-target)
(def fix-target {:path "<<PROR>>" :function "prorated_days" :line 32})
(def wrong-diff (tool/trf-diff {}))
(println (:files wrong-diff))
(println (:diff wrong-diff))
(println "target was" fix-target-wrong "-> now" fix-target)
''', **F))

s.turn("Reverting it with the exact lines of the diff:", fill(r'''
(def revert (tool/trf-edit {:path "<<DATES>>"
                            :old "    return max(0, (end - on).days + 1)"
                            :new "    span = relativedelta(end, on)\n    return max(0, span.days)"}))
(println revert)
(println "working tree changes left:" (:files (tool/trf-diff {})))
''', **F))

s.turn(fill("Clean again. Now the real fix in prorated_days (<<PROR>>, lines 37-39):", **F), fill(r'''
(def edit-2 (tool/trf-edit {:path (:path fix-target)
                            :old <<FIX_BAD>>
                            :new <<FIX_NEW>>}))
(println edit-2)
''', **F), "tool")

s.turn("I swapped the arguments of the first relativedelta from memory. Copying the lines exactly as printed:", fill(r'''
(def edit-2 (tool/trf-edit {:path (:path fix-target)
                            :old <<FIX_OLD>>
                            :new <<FIX_NEW>>}))
(println edit-2)
(println (:text (tool/trf-read {:path (:path fix-target) :start 32 :end 40})))
''', **F))

s.turn("Fixed. relativedelta is still imported there: is it still used (an unused import would fail the lint job), and who else calls the two helpers?", fill(r'''
(doseq [h (:hits (tool/trf-grep {:pattern "relativedelta" :path "<<PROR>>"}))] (println h))
(def callers (:hits (tool/trf-grep {:pattern "prorated_days\\(|prorate_days\\(" :path "src"})))
(doseq [h callers] (println h))
''', **F))

s.turn("The four regressions and the credit notes again:", r'''
(def run-2 (tool/trf-run-tests {:tests (conj failing-tests "tests/test_credits.py")}))
(show-run "after the prorated_days fix" run-2)
(doseq [r (:results run-2)] (println (format "  %-7s %.3fs %s" (:outcome r) (:duration_s r) (:nodeid r))))
''')

s.turn("All eight pass. The whole suite now:", r'''
(def full (tool/trf-run-tests {}))
(show-run full)
''', "arity")

s.turn("show-run takes a label first.", r'''
(def full (tool/trf-run-tests {}))
(show-run "full suite" full)
(println "collected" (:collected full) "| slowest:")
(doseq [r (take 3 (sort-by :duration_s > (:results full)))]
  (println (format "  %.3fs %s" (:duration_s r) (:nodeid r))))
(println "flaky test today:" (:outcome (first (filter #(= flaky-test (:nodeid %)) (:results full)))) "on" (:date full))
''')

s.turn(fill("<<FULLSUM>>. A regression test that pins the day counts themselves, next to the existing ones in <<TPROR>>:", **F), fill(r'''
(def test-src (tool/trf-read {:path "<<TPROR>>"}))
(println (:total_lines test-src) "lines")
(println (:text test-src))
''', **F))

s.turn("Adding two tests after the last one (line 41): the leap February against a common-year one, and a period that starts on a month end.", fill(r'''
(def edit-3 (tool/trf-edit {:path "<<TPROR>>"
                            :old <<ANCHOR>>
                            :new <<NEWTESTS>>}))
(println edit-3)
''', **F))

s.turn("Running the proration tests with the new ones:", fill(r'''
(def run-3 (tool/trf-run-tests {:tests ["<<TPROR>>"]}))
(show-run "tests/test_proration.py" run-3)
(def new-tests ["<<N1>>" "<<N2>>"])
(doseq [r (:results run-3) :when (some #{(:nodeid r)} new-tests)]
  (println "  new:" (:nodeid r) (:outcome r)))
''', **F))

s.turn("Both pass. Now the flaky test: its source, history and owner, to report it rather than touch it.", fill(r'''
(println (:text (tool/trf-read {:path "tests/test_dunning.py" :start 10 :end 14})))
(def dunning-log (:commits (tool/trf-git-log {:path "tests/test_dunning.py"})))
(doseq [c dunning-log] (println (:short c) (:date c) (:author c) "|" (:subject c)))
(def flaky-owner (tool/trf-owners {:path "tests/test_dunning.py"}))
(println "owners:" (:rule flaky-owner) (mapv :handle (:owners flaky-owner)))
''', **F))

s.turn("Before writing the PR: every failure of the bump run should be explained by the four regressions plus the flaky test.", r'''
(let [[only-ci only-mine _] (clojure.data/diff (set bump-failed) (set (conj failing-tests flaky-test)))]
  (println "unexplained:" only-ci "| extra:" only-mine))
''', "unbound_symbol")

s.turn("No clojure.data; set/difference both ways:", fill(r'''
(def explained (set (conj failing-tests flaky-test)))
(println "unexplained:" (set/difference (set bump-failed) explained) "| extra:" (set/difference explained (set bump-failed)))
(def flaky-runs [{:run <<FR1>> :date "2024-03-02" :day "Saturday"}
                 {:run <<FR2>> :date "2024-03-01" :day "Friday"}
                 {:run <<FR3>> :date "2024-02-23" :day "Friday"}
                 {:run <<BUMPRUN>> :date "2024-03-08" :day "Friday"}])
(doseq [r flaky-runs] (println "flaky failed in" (:run r) "on" (:date r) (:day r)))
(println "passed in <<LATEST>> (Monday 2024-03-11) and locally on" (:date full))
''', **F))

s.turn("Reviewers come from the code owners of what I change:", fill(r'''
(def changed ["<<PROR>>" "<<TPROR>>" "CHANGELOG.md"])
(def owners (into {} (map (fn [p] [p (tool/trf-owners {:path p})]) changed)))
(doseq [[p o] owners] (println (format "%-28s %-26s %s" p (:rule o) (mapv :handle (:owners o)))))
(def prorat-log (:commits (tool/trf-git-log {:path "<<PROR>>"})))
(doseq [c prorat-log] (println (:short c) (:date c) (:author c) "|" (:subject c)))
''', **F))

s.turn(fill("Before judging the expected values: the commit that introduced prorated_days, <<PRORSHORT>>.", **F), fill(r'''
(def origin (tool/trf-git-show {:sha "<<PRORSHORT>>"}))
(println (:author origin) (:name origin) (:date origin) "|" (:subject origin))
(println (:body origin))
(doseq [f (:files origin)] (println "  " (:path f) (:status f) (str "+" (:additions f))))
(println "span = relativedelta(end, period_start) since then:" (str/includes? (:diff origin) "span = relativedelta(end, period_start)"))
''', **F))

s.turn(fill("prorated_days comes from <<PRORSHORT>> (@mkowalczyk, ADR-0007). Checking the expected amounts against the ADR, since the convention says not to change expectations:", **F), r'''
(println (:text (tool/trf-read {:path "docs/adr/0007-actual-day-proration.md" :start 5 :end 15})))
(println "ADR example net:" (- 77.07 46.03) "| test expects 31.04 | CI got 32.14")
''')

s.turn("The ADR's example is the test's case. Recomputing both amounts with 29 and with 28 days, rounding each line half up as the ADR says:", r'''
(defn cents [x] (/ (round (* x 100)) 100.0))
(defn net [old new days total] (cents (- (cents (/ (* new days) total)) (cents (/ (* old days) total)))))
(println "Pro 89.0 -> Business 149.0, 15 days: of 29 ->" (net 89.0 149.0 15 29) "| of 28 ->" (net 89.0 149.0 15 28))
(println "lines of 29: credit" (cents (/ (* 89.0 15) 29)) "charge" (cents (/ (* 149.0 15) 29)) "(ADR: 46.03 and 77.07)")
(println "NL total with VAT: of 29 ->" (cents (* (net 89.0 149.0 15 29) 1.21)) "| of 28 ->" (cents (* (net 89.0 149.0 15 28) 1.21))
         "| CI: 38.89, expected 37.56")
''')

s.prose(fill("""Where this stands:

- Root cause: `prorated_days` in <<PROR>> took the period length from `relativedelta(end, period_start).days + 1`; `.days` is only the day component of a relativedelta. With python-dateutil 2.9.0.post0 (bump <<BUMPSHORT>>, #471) it came out one day short for periods around a month end: 28 instead of 29 days for 2024-02-15..2024-03-14, so 32.14 instead of 31.04.
- Fixed with plain date subtraction (lines 37-39 became two lines); the four regressions pass, the full suite too.
- My first attempt patched the credit-note helper `prorate_days` in <<DATES>> instead; reverted, the working tree has no change there.
- requirements.lock still pins 2.8.2 but CI has not read it since <<CISHORT>> (#440): not part of this fix.
- <<FLAKY>> is flaky (date.today(), fails on Fridays and Saturdays): owned by @okeefe-j, to be reported, not touched.

Left: the CHANGELOG line, the diff review and the PR.""", **F))

s.turn("The CHANGELOG, where the line goes:", r'''
(println (:text (tool/trf-read {:path "CHANGELOG.md" :start 1 :end 8})))
''')

s.turn("Adding the Fixed entry under [Unreleased]:", fill(r'''
(def edit-4 (tool/trf-edit {:path "CHANGELOG.md"
                            :old <<CHOLD>>
                            :new <<CHNEW>>}))
(println edit-4)
''', **F))

s.turn("The whole working diff, to review before committing:", r'''
(def final-diff (tool/trf-diff {}))
(doseq [f (:files final-diff)] (println (format "%-28s +%d -%d" (:path f) (:additions f) (:deletions f))))
(doseq [chunk (partition-all 30 (str/split-lines (:diff final-diff)))]
  (println (str/join "\n" chunk)))
''')

s.turn("Three files, as intended. The full suite once more on the final tree:", r'''
(def final-run (tool/trf-run-tests {}))
(show-run "final" final-run)
(println "new tests:" (filterv #(some #{(:nodeid %)} new-tests) (:results final-run)))
''')

s.turn("The PR body, following the conventions (failing tests, CI run, commit, root cause, verification, the flaky test for its owner):", fill(r'''
(def pr-branch "<<BRANCH>>")
(def pr-title "<<TITLE>>")
(defn code [x] (str "`" x "`"))
(def pr-body
  (str/join "\n"
    [(str "CI on main is red since " (code "<<BUMPSHORT>>") " (#471, " (code "python-dateutil==2.9.0.post0")
          "); first failing run " <<BUMPRUN>> " (" "<<BUMPSTART>>" "), still failing in " <<LATEST>> ".")
     ""
     "### Failing tests"
     (str/join "\n" (map #(str "- " (code %)) ["<<T_API>>" "<<T_INV>>" "<<T_LEAP>>" "<<T_MONTH>>"]))
     ""
     "### Root cause"
     (str (code "prorated_days") " (" (code "<<PROR>>") ", line 32) took the period length from "
          (code "relativedelta(end, period_start)") " and its " (code ".days") ", which is only the day component of a "
          "relativedelta. With 2.9.0.post0 that is one day short for periods around a month end: 28 instead of 29 days "
          "for " "2024-02-15..2024-03-14" ", so " "32.14" " instead of " "31.04" ", " "19.29" " instead of " "18.62"
          " and an invoice total of " "38.89" " instead of " "37.56" ".")
     ""
     "### Fix"
     (str "Plain date subtraction for both counts. The expected values are those of " "ADR-0007" " and stay as they are. "
          "Regression tests: " (code "<<N1>>") ", " (code "<<N2>>") ".")
     ""
     "### Verified"
     (str (:summary final-run) " locally with python-dateutil " (:python_dateutil final-run) ", including "
          (code "tests/test_credits.py") ": credit notes use " (code "prorate_days") " in " (code "<<DATES>>")
          ", which is unchanged. The last green run on main was the nightly " <<GREEN>> ".")
     ""
     "### Not in this PR"
     (str "- " (code "<<FLAKY>>") " is flaky: it uses " (code "date.today()") " and fails on Fridays and Saturdays (runs "
          (str/join ", " (map :run flaky-runs)) "). @okeefe-j, can you take it?")
     (str "- " (code "requirements.lock") " still pins " (code "python-dateutil==2.8.2") " but CI has not read it since "
          "<<CISHORT>>" " (#440).")]))
(println pr-title)
(println pr-body)
(println (count pr-body) "chars")
''', **F))

s.cut("Opening the PR with the proration owner as reviewer:", r'''
(def pr (tool/trf-open-pr {:title pr-title
                           :body pr-body
                           :branch pr-branch
                           :reviewers ["@mkowalczyk"
''')

s.turn("That was cut off; again, whole:", r'''
(def pr (tool/trf-open-pr {:title pr-title :body pr-body :branch pr-branch :reviewers ["@mkowalczyk"]}))
(println "#" (:number pr) (:url pr) (:status pr) "| head" (:head_sha pr) "| ci run" (:ci_run_id pr))
(println (:files pr) "+" (:additions pr) "-" (:deletions pr))
(println (:checks pr))
''')

s.turn(fill("PR #<<PRN>> is open. Its CI run on <<BRANCH>>:", **F), fill(r'''
(def pr-runs (:runs (tool/trf-ci-runs {:branch "<<BRANCH>>"})))
(doseq [r pr-runs]
  (println (:run_id r) (:event r) (:conclusion r) (subs (:head_sha r) 0 7) "|"
           (str/join "; " (map #(str (:name %) " " (:conclusion %) (if (:summary %) (str " (" (:summary %) ")") "")) (:jobs r)))))
''', **F))

s.turn("Green on the PR. The summary:", fill(r'''
(return
  {:status "pr_opened"
   :pr {:number <<PRN>> :url "<<PRURL>>" :branch "<<BRANCH>>" :head "<<PRHEAD>>" :reviewers ["@mkowalczyk"]
        :ci-run <<PRRUN>> :ci "success"}
   :started {:commit "<<BUMPSHA>>" :short "<<BUMPSHORT>>" :subject "fix(deps): update dependency python-dateutil to v2.9.0.post0 (#471)"
             :author "renovate[bot]" :first-failing-run <<BUMPRUN>> :last-green-run <<GREEN>> :latest-red-run <<LATEST>>}
   :dependency {:pin "python-dateutil==2.9.0.post0" :from "2.8.2" :file "requirements.txt"
                :stale-lock "requirements.lock still pins python-dateutil==2.8.2; unused by CI since <<CISHORT>> (#440)"}
   :root-cause (str "prorated_days (<<PROR>>:32) took the period length from relativedelta(end, period_start).days + 1, "
                    "the day component only; with 2.9.0.post0 it is one day short for periods around a month end")
   :changes [{:file "<<PROR>>" :function "prorated_days" :lines "37-39" :what "date subtraction instead of relativedelta(...).days"}
             {:file "<<TPROR>>" :added ["test_prorated_days_counts_leap_february" "test_prorated_days_month_end_period"]}
             {:file "CHANGELOG.md" :what "Fixed entry under [Unreleased]"}]
   :tests-fixed ["<<T_API>>" "<<T_INV>>" "<<T_LEAP>>" "<<T_MONTH>>"]
   :symptom {:leap-year "32.14 instead of 31.04" :month-end "19.29 instead of 18.62" :invoice-total "38.89 instead of 37.56"
             :days-in-period "28 instead of 29 for 2024-02-15..2024-03-14"}
   :regression-tests ["<<N1>>" "<<N2>>"]
   :proration-author {:handle "@mkowalczyk" :name "Marta Kowalczyk" :commit "<<PRORSHORT>>" :adr "ADR-0007"}
   :verified "<<FINALSUM>>"
   :reverted {:file "<<DATES>>" :function "prorate_days" :note "credit-note helper patched by mistake, reverted"}
   :left-for-others [{:test "<<FLAKY>>" :owner "@okeefe-j" :commit "<<DUNSHORT>>"
                      :why "uses date.today(); fails on Fridays and Saturdays (<<FR1>>, <<FR2>>, <<FR3>>, <<BUMPRUN>>)"}
                     {:file "requirements.lock" :owner "@hlindgren" :why "stale pins (python-dateutil==2.8.2); delete or regenerate"}]})
''', **F), "return")

if __name__ == "__main__":
    s.write(__file__)
