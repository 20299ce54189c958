#!/usr/bin/env python3
"""The model answers of the ci-flake-triage session.
Run ids, commit SHAs, test ids, issue keys, people, rates and durations the
agent reuses are taken from world.py (and tool.py's numbering), as the model
takes them from the prints of earlier turns. Two corrections, each after
the old value was printed: the broken test is first blamed on 5b7a2c9
(Priya Raman's refund rounding, the commit whose subject names refunds); its
revert e03b6d8 leaves the test red, and the log and the diff point to
a90d3f4 (Priya Ramanathan's money helpers), so `culprit` is redefined; the
flake rates are first computed over test-history's default 30 days, then
over the policy's 14 (`histories` and `flake-rates` redefined), which puts
test_sync_after_restock over the quarantine threshold. Later programs write
only the corrected values."""
import os
import statistics
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()



# --- what the agent sees, mirrored to write the literals it copies -------------------------

SUMMARIES = [w.run_summary(x) for x in reversed(w.WINDOW_RUNS)]
N_RUNS = len(SUMMARIES)
FAILED = [x for x in SUMMARIES if x["status"] == "failed"]
N_FAILED = len(FAILED)
MEDIAN_S = statistics.median(x["duration_s"] for x in SUMMARIES)
RED_RATE = "%.3f" % (N_FAILED / N_RUNS)
DISK, PULL = w.DISK_RUNS, w.PULL_RUNS
RUNNER = "ci-runner-07"
DISK_FIX = w.PLANTED["disk"][0]

H30 = {x: t.test_history({"test": x}) for x in w.TRACKED}
H14 = {x: t.test_history({"test": x, "days": 14}) for x in w.TRACKED}
FLAKY = [w.THREEDS, w.WEBHOOK, w.RESTOCK, w.PAGINATION]


def rate(h):
    return h["failed"] / h["runs"]


R30 = {x: "%.3f" % rate(H30[x]) for x in FLAKY}
R14 = {x: "%.3f" % rate(H14[x]) for x in FLAKY}
assert rate(H30[w.RESTOCK]) < 0.10 <= rate(H14[w.RESTOCK])

LAST_GREEN = (18455, w.PLANTED["last-green"][0])
FIRST_RED = (18458, w.PLANTED["changelog"][0])
assert [o for o in H30[w.REFUND]["outcomes"] if o["outcome"] == "passed"][0]["run_id"] == LAST_GREEN[0]
WRONG, RIGHT, REVERT = w.PLANTED["rounding"][0], w.PLANTED["money"][0], w.PLANTED["revert"][0]
VAT_FIX = w.PLANTED["vat-fix"][0]
HEAD = SUMMARIES[0]["sha"]

TITLES = {
    w.THREEDS: "Flaky: tests/e2e/test_checkout.py::test_checkout_3ds_challenge times out waiting for the 3DS frame",
    w.RESTOCK: "Flaky: tests/integration/test_inventory_sync.py::test_sync_after_restock times out after 30.0s",
    w.PAGINATION: "Flaky: tests/api/test_orders.py::test_list_orders_pagination repeats an order across pages",
}
KEY = {x: t.new_issue_key(title) for x, title in TITLES.items()}
KEY[w.WEBHOOK] = "PLAT-1790"
BROKEN_TITLE = "Broken: tests/api/test_orders.py::test_refund_partial since a90d3f4 (to_minor_units truncates)"
BROKEN_KEY = t.new_issue_key(BROKEN_TITLE)
assert len(set(KEY.values()) | {BROKEN_KEY}) == 5, KEY
OWNER = {w.THREEDS: ("Jonas Weber", "@jweber"), w.WEBHOOK: ("Priya Ramanathan", "@pramanathan"),
         w.RESTOCK: ("Tomás Ortega", "@tortega"), w.PAGINATION: ("Priya Raman", "@praman")}
Q = {x: t.quarantine_test({"test": x, "issue": KEY[x], "days": 14}) for x in (w.THREEDS, w.RESTOCK, w.WEBHOOK)}
assert len({q["change"] for q in Q.values()}) == 3, Q

# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the policy and the first page of CI runs on main since the window starts.", r'''
(println data/policy)
(def page1 (tool/ci-runs {:branch "main" :since "2024-09-02T00:00:00Z"}))
(println (:total page1) "runs since" (:since page1) "-" (:pages page1) "pages of" (count (:runs page1)))
(println (first (:runs page1)))
''')

s.turn("Three pages. The other two, then the figures of the window.", r'''
(def runs
  (into (:runs page1)
        (mapcat #(:runs (tool/ci-runs {:branch "main" :since "2024-09-02T00:00:00Z" :page %})) [2 3])))
(def failed (filterv #(= "failed" (:status %)) runs))
(def durations (sort (map :duration_s runs)))
(def median-s (/ (+ (nth durations (dec (quot (count durations) 2))) (nth durations (quot (count durations) 2))) 2))
(println (count runs) "runs," (count failed) "failed, red rate" (format "%.3f" (/ (count failed) (count runs))))
(println "median run" median-s "s, fastest" (first durations) "s, slowest" (last durations) "s")
(println "failed jobs:" (frequencies (mapcat :failed_jobs failed)))
(println "triggers:" (frequencies (map :trigger runs)))
''')

s.turn("Most failures are in api-tests. The failed runs, newest first:", r'''
(doseq [r failed]
  (println (:run_id r) (:sha r) (:started_at r) (format "%-8s" (:trigger r)) (format "%6.1f s" (:duration_s r))
           (clojure.string/join "," (:failed_jobs r))))
''')

s.turn("A red streak on api-tests since 2024-09-11 and scattered failures before. Which tests failed in each run:", r'''
(def details (pmap #(tool/ci-run {:run_id (:run_id %)}) failed))
(def failing
  (for [d details j (:jobs d) test (:failed_tests j)]
    {:test test :run (:run_id d) :sha (:sha d) :job (:job j) :at (:started_at d)}))
(doseq [[test n] (sort-by val > (frequencies (map :test failing)))]
  (println (format "%2d" n) test))
(def no-test-failures
  (vec (for [d details j (:jobs d) :when (and (= "failed" (:status j)) (empty? (:failed_tests j)))]
         [(:run_id d) (:job j) (:duration_s j)])))
(println "failed jobs that failed no test:" no-test-failures)
''')

s.turn("Six tests, plus five jobs that failed without a failing test. Grouping the failures by test for later:", r'''
(def fail-runs (update-vals (group-by :test failing) #(mapv :run %)))
(def job-of (into {} (map (juxt :test :job) failing)))
(def tests (vec (keys fail-runs)))
''')

s.turn("The jobs that failed no test must have failed before pytest. The whole log of the first one:", r'''
(def log-%d (tool/job-log {:run_id %d :job "integration" :tail 500}))
(println (:runner log-%d) (:returned log-%d) "lines")
''' % (DISK[0], DISK[0], DISK[0], DISK[0]), "tool")

s.turn("At most 400 lines.", r'''
(def log-%d (tool/job-log {:run_id %d :job "integration" :tail 400}))
(println (:runner log-%d) (:duration_s log-%d) "s," (:returned log-%d) "lines")
(doseq [l (:lines log-%d)]
  (println l))
''' % ((DISK[0],) * 6))

s.turn("Docker ran out of disk on %s before any test. The error line of each of the five jobs:" % RUNNER, r'''
(def infra-errors
  (mapv (fn [[rid job]]
          (let [l (tool/job-log {:run_id rid :job job :grep "rror"})]
            {:run rid :job job :runner (:runner l) :at (subs (first (:lines l)) 0 19)
             :error (last (remove #(clojure.string/includes? % "##[error]") (:lines l)))}))
        no-test-failures))
(doseq [e infra-errors]
  (println (:run e) (:job e) (:runner e) (:at e) "| ..." (subs (:error e) (max 25 (- (count (:error e)) 110)))))
''')

s.turn("Two causes: the full disk of %s (three integration jobs, 09-03 to 09-05) and Docker Hub's pull rate limit (two e2e jobs on 09-13). Existing issues?" % RUNNER, r'''
(def disk-issues (tool/issue-search {:query "no space left on device"}))
(def pull-issues (tool/issue-search {:query "pull rate limit"}))
(doseq [i (concat disk-issues pull-issues)]
  (println (:key i) (:state i) (:assignee i) (:created i) "|" (:title i))
  (println "   " (:snippet i)))
''')

s.turn("Both are known: PLAT-1811 (fixed on 2024-09-09) and PLAT-1834 (open). Recording them; nothing to open.", fill(r'''
(def infra
  {:disk {:runs [<<D0>> <<D1>> <<D2>>] :job "integration" :runner "<<RUNNER>>" :issue "PLAT-1811"
          :status "closed, fixed by <<FIX>>"}
   :docker-pull {:runs [<<P0>> <<P1>>] :job "e2e" :issue "PLAT-1834" :status "open"}})
''', D0=DISK[0], D1=DISK[1], D2=DISK[2], P0=PULL[0], P1=PULL[1], RUNNER=RUNNER, FIX=DISK_FIX))

s.turn("Now the history of each failing test on main, and its flake rate: failed runs over the runs that ran it.", r'''
(def histories (into {} (map (fn [test] [test (tool/test-history {:test test})]) tests)))
(defn flake-rate [h] (/ (:failed h) (:runs h)))
(doseq [[test h] histories]
  (println (format "%-68s %3d runs %3d failed  %.3f" test (:runs h) (:failed h) (flake-rate h))))
''')

s.turn("Rates alone do not tell a broken test from a flaky one. By the shape of the failures: broken if every run since the first failure failed, fixed if the failures are one streak that ended, flaky otherwise.", r'''
(defn classify [h]
  (let [failed? #(= "failed" (:outcome %))
        from-first (drop-while (complement failed?) (reverse (:outcomes h)))
        streak (take-while failed? from-first)]
    (cond (every? failed? from-first) "broken"
          (not-any? failed? (drop (count streak) from-first)) "fixed"
          :else "flaky")))
(def kinds (into {} (map (fn [[test h]] [test (classify h)]) histories)))
(doseq [[test k] (sort-by val kinds)]
  (println (format "%-7s" k) test))
''')

s.turn("One broken, one fixed, four flaky. The flaky ones against the 0.10 threshold, as a table:", r'''
(def flaky (filterv #(= "flaky" (kinds %)) tests))
(def flake-rates (into {} (map (fn [test] [test (flake-rate (histories test))]) flaky)))
(clojure.pprint/print-table
  (for [test (sort-by flake-rates > flaky)]
    {:test test :rate (format "%.3f" (flake-rates test)) :quarantine (>= (flake-rates test) 0.10)}))
''', "unbound_symbol")

s.turn("No print-table; formatting the rows myself.", r'''
(def flaky (filterv #(= "flaky" (kinds %)) tests))
(def flake-rates (into {} (map (fn [test] [test (flake-rate (histories test))]) flaky)))
(doseq [test (sort-by flake-rates > flaky)]
  (let [h (histories test)]
    (println (format "%-68s %.3f  %2d/%3d  %s" test (flake-rates test) (:failed h) (:runs h)
                     (if (>= (flake-rates test) 0.10) "quarantine" "issue only")))))
''')

s.turn("test_vat_rounding_de is the fixed one. Its failures and the run after them:", fill(r'''
(def vat-h (histories "<<VAT>>"))
(def vat-old-first (vec (reverse (:outcomes vat-h))))
(def vat-fails (filterv #(= "failed" (:outcome %)) vat-old-first))
(def vat-pass (first (filter #(and (= "passed" (:outcome %)) (pos? (compare (:at %) (:at (last vat-fails)))))
                             vat-old-first)))
(doseq [o vat-fails]
  (println "failed" (:run_id o) (:sha o) (:at o)))
(println "passes again from" (:run_id vat-pass) (:sha vat-pass) (:at vat-pass))
''', VAT=w.VAT))

VAT_FAILS = [o for o in reversed(H30[w.VAT]["outcomes"]) if o["outcome"] == "failed"]
s.turn("The commits between the last failing run and the first passing one:", fill(r'''
(def vat-fix-log (tool/git-log {:from "<<A>>" :to "<<B>>"}))
(doseq [c vat-fix-log]
  (println (:sha c) (:date c) (:author c) "|" (:subject c)))
''', A=VAT_FAILS[-1]["sha"], B=VAT_FIX))

s.turn("Fixed by %s, Lena Hoffmann's fixture fix, the same afternoon: nothing to do. Now the broken test: its last green and first red run." % VAT_FIX, fill(r'''
(def refund-h (histories "<<REFUND>>"))
(def red-streak (take-while #(= "failed" (:outcome %)) (:outcomes refund-h)))
(def first-red (last red-streak))
(def last-green (first (drop (count red-streak) (:outcomes refund-h))))
(println "last green:" (:run_id last-green) (:sha last-green) (:at last-green))
(println "first red: " (:run_id first-red) (:sha first-red) (:at first-red))
(println "red in" (count red-streak) "runs in a row, up to" (:run_id (first red-streak)) (:sha (first red-streak)))
''', REFUND=w.REFUND))

s.turn("What the test says in the first red run:", fill(r'''
(def red-log (tool/job-log {:run_id <<R>> :job "api-tests" :grep "FAILED"}))
(doseq [l (:lines red-log)]
  (println l))
''', R=FIRST_RED[0]))

s.turn("2998 instead of 2999 minor units. The commits between the last green and the first red run:", fill(r'''
(def suspects (tool/git-log {:from "<<G>>" :to "<<R>>"}))
(doseq [c suspects]
  (println (:sha c) (:date c) (:author c) "|" (:subject c) "|" (:files c) "files"))
''', G=LAST_GREEN[1], R=FIRST_RED[1]))

s.turn("Three commits; %s rounds partial refunds, which is what the test checks. Its diff:" % WRONG, fill(r'''
(def rounding (tool/git-show {:sha "<<S>>"}))
(println (:sha rounding) (:author rounding) (:author_handle rounding) (:date rounding))
(println (:subject rounding))
(println (:body rounding))
(doseq [f (:files rounding)]
  (println "---" (:path f) (str "+" (:additions f) " -" (:deletions f)))
  (doseq [h (:hunks f)]
    (println h)))
''', S=WRONG))

s.turn("It changes how create_refund rounds, in the commit that turned the test red. Taking it as the culprit:", fill(r'''
(def culprit {:sha "<<S>>" :author "Priya Raman" :handle "@praman" :pr "#2231"})
(println "broken by" (:sha culprit) (:pr culprit) "-" (:author culprit) (:handle culprit))
''', S=WRONG))

s.turn("Now the owners of the failing tests' files.", r'''
(def files (distinct (map #(first (clojure.string/split % #"::")) tests)))
(def owners (into {} (map (fn [f] [f (tool/code-owners {:path f})]) files)))
(doseq [[f o] owners]
  (println f "->" (:rule o) "|" (clojure.string/join ", " (map #(str (:name %) " " (:handle %) " (" (:team %) ")") (:owners o)))))
''')

s.turn("Open issues about the flaky tests, searched by test name:", r'''
(def existing
  (into {} (map (fn [test] [test (tool/issue-search {:query (second (clojure.string/split test #"::")) :state "open"})])
                flaky)))
(doseq [[test found] existing]
  (println test "->" (if (seq found) (map (juxt :key :assignee :title) found) "none")))
''')

s.turn("Only the webhook test has one (PLAT-1790, Priya Ramanathan). Maybe the 3DS timeout is known under another title:", r'''
(def threeds-issues (tool/issue-search {:query "3DS challenge"}))
(doseq [i threeds-issues]
  (println (:key i) (:state i) (:assignee i) (:labels i) "|" (:title i))
  (println "   " (:snippet i)))
''')

s.prose(fill("""Where the triage stands (window 2024-09-02 to 2024-09-15, <<N>> runs on main, <<F>> failed, median run <<M>> s):

- Broken: test_refund_partial has failed in every run since <<R>> (<<RS>>, 2024-09-11); last green <<G>> at <<GS>>. The push brought three commits; the culprit looks like <<W>> (Priya Raman, partial refund rounding).
- Fixed: test_vat_rounding_de failed twice on 2024-09-05 and was fixed by <<VF>>.
- Flaky: test_checkout_3ds_challenge <<R3>> and test_webhook_retry_backoff <<RW>> are over the 0.10 threshold (the latter has PLAT-1790); test_sync_after_restock <<RR>> and test_list_orders_pagination <<RP>> are under it.
- Infrastructure: the full disk on <<RUNNER>> (PLAT-1811, fixed) and Docker Hub's pull rate limit (PLAT-1834, open).

Next: issues for the flaky tests without one, then the broken test's issue, then the quarantines.""",
                N=N_RUNS, F=N_FAILED, M=MEDIAN_S, R=FIRST_RED[0], RS=FIRST_RED[1], G=LAST_GREEN[0],
                GS=LAST_GREEN[1], W=WRONG, VF=VAT_FIX, RUNNER=RUNNER, R3=R30[w.THREEDS], RW=R30[w.WEBHOOK],
                RR=R30[w.RESTOCK], RP=R30[w.PAGINATION]))

s.turn("PLAT-1837 is a product report with no assignee, not the test. The error each flaky test fails with, from its latest failure:", r'''
(def errors
  (into {} (for [test flaky]
             [test (first (:lines (tool/job-log {:run_id (first (fail-runs test)) :job (job-of test)
                                                 :grep (str "FAILED " test)})))])))
(doseq [[test e] errors]
  (println (subs e 25)))
''')

s.turn("Opening issues for the three flaky tests without one, each for its code owner, with the failure counts and the error.", fill(r'''
(def new-issues
  (into {}
        (for [[test owner title error note]
              [["<<T3>>" "@jweber"
                "<<TT3>>"
                "Locator.wait_for: Timeout 60000ms exceeded." " See also PLAT-1837."]
               ["<<TR>>" "@tortega"
                "<<TTR>>"
                "TimeoutError: waited 30.0s for event inventory.restocked (last offset 18842)" ""]
               ["<<TP>>" "@praman"
                "<<TTP>>"
                "AssertionError: assert not {'ord_7f3k2Q'}" ""]]]
          [test (tool/issue-create {:title title :assignee owner :labels ["flaky-test"]
                                    :body (str "Fails intermittently on main: " (:failed (histories test)) " of "
                                               (:runs (histories test)) " runs. Last error: " error "." note)})])))
(doseq [[test i] new-issues]
  (println (:key i) (:assignee i) "|" (:title i)))
''', T3=w.THREEDS, TT3=TITLES[w.THREEDS], TR=w.RESTOCK, TTR=TITLES[w.RESTOCK], TP=w.PAGINATION,
    TTP=TITLES[w.PAGINATION]))

s.turn("Before filing the broken test against %s: has anything touched refunds since the first red run?" % WRONG, fill(r'''
(def since-red (tool/git-log {:from "<<R>>" :to "<<HEAD>>" :grep "refund"}))
(doseq [c since-red]
  (println (:sha c) (:date c) (:author c) "|" (:subject c)))
''', R=FIRST_RED[1], HEAD=HEAD))

s.turn("%s reverted %s on 2024-09-12. If that commit broke the test, it should pass after the revert:" % (REVERT, WRONG), fill(r'''
(def after-revert (take-while #(not= "<<REV>>" (:sha %)) (:outcomes refund-h)))
(def at-revert (first (filter #(= "<<REV>>" (:sha %)) (:outcomes refund-h))))
(println "run at the revert:" (:run_id at-revert) (:at at-revert) (:outcome at-revert))
(println (count after-revert) "runs after it:" (frequencies (map :outcome after-revert)))
''', REV=REVERT))

s.turn("Still red after the revert, so %s is not the cause. The whole failure in the first red run's log:" % WRONG, fill(r'''
(def red-full (tool/job-log {:run_id <<R>> :job "api-tests" :tail 400}))
(doseq [l (take 15 (drop-while #(not (clojure.string/includes? % "test_refund_partial ___")) (:lines red-full)))]
  (println (subs l 25)))
''', R=FIRST_RED[0]))

s.turn("The 2998 comes from to_minor_units in services/payments/money.py, the module %s created. Its diff:" % RIGHT, fill(r'''
(def money-commit (tool/git-show {:sha "<<S>>"}))
(println (:sha money-commit) (:author money-commit) (:author_handle money-commit) (:date money-commit))
(println (:subject money-commit))
(println (:body money-commit))
(doseq [f (:files money-commit)]
  (println "---" (:path f) (str "+" (:additions f) " -" (:deletions f)))
  (doseq [h (:hunks f)]
    (println h)))
''', S=RIGHT))

s.turn("That is it: the old helper quantized a Decimal half-up, the moved one truncates `float(amount) * 100`, and float(29.99) * 100 is 2998.999... The culprit is %s by Priya Ramanathan, not Priya Raman's change." % RIGHT, fill(r'''
(def culprit {:sha "<<S>>" :author "Priya Ramanathan" :handle "@pramanathan" :pr "#2229"
              :file "services/payments/money.py"
              :cause "to_minor_units truncates float(amount) * 10 ** exponent instead of rounding a Decimal"})
(println "broken by" (:sha culprit) (:pr culprit) "-" (:author culprit) (:handle culprit))
''', S=RIGHT))

s.turn("Filing the broken test for her, label ci-broken, with the runs and the evidence.", fill(r'''
(def broken-issue
  (tool/issue-create
    {:title "<<TITLE>>"
     :assignee (:handle culprit) :labels ["ci-broken" "payments"]
     :body (str "tests/api/test_orders.py::test_refund_partial fails in every run on main since run <<R>> "
                "(2024-09-11, " (count red-streak) " runs so far): assert 2998 == 2999. Last green run <<G>> at <<GS>>. "
                "Cause: " (:cause culprit) " (" (:file culprit) ", " (:pr culprit) "); "
                "float(29.99) * 100 truncates to 2998. The revert <<REV>> does not fix it.")}))
(println (:key broken-issue) (:assignee broken-issue) (:labels broken-issue) (:url broken-issue))
''', TITLE=BROKEN_TITLE, R=FIRST_RED[0], G=LAST_GREEN[0], GS=LAST_GREEN[1], REV=REVERT))

s.turn("Now the quarantines for the flaky tests over the threshold, linked to their issues, for a month:", fill(r'''
(def quarantines
  (mapv (fn [[test issue]] (tool/quarantine-test {:test test :issue issue :days 30}))
        [["<<TW>>" "PLAT-1790"]
         ["<<T3>>" "<<K3>>"]]))
(doseq [q quarantines]
  (println (:ok q) (:test q) (:until q) (:change q)))
''', TW=w.WEBHOOK, T3=w.THREEDS, K3=KEY[w.THREEDS]), "tool")

s.turn("Fourteen days at most, as the policy says. And the policy's window is 14 days as well, while test-history defaults to 30: the rates I compared with 0.10 cover a month. Recomputing them over the window:", r'''
(def rates-14 (into {} (map (fn [test] [test (flake-rate (histories test) "2024-09-02T00:00:00Z")]) flaky)))
(println rates-14)
''', "arity")

s.turn("flake-rate takes the history only. Fetching the histories of the last 14 days instead:", r'''
(def old-rates flake-rates)
(def histories (into {} (map (fn [test] [test (tool/test-history {:test test :days 14})]) tests)))
(def flake-rates (into {} (map (fn [test] [test (flake-rate (histories test))]) flaky)))
(println "since" (:since (val (first histories))) "-" (:days (val (first histories))) "days")
(doseq [test (sort-by flake-rates > flaky)]
  (let [h (histories test)]
    (println (format "%-68s %.3f -> %.3f  %2d/%2d  %s" test (old-rates test) (flake-rates test) (:failed h) (:runs h)
                     (if (>= (flake-rates test) 0.10) "quarantine" "issue only")))))
(println "kinds unchanged:" (= kinds (into {} (map (fn [[test h]] [test (classify h)]) histories))))
''')

s.turn(fill("Over the window test_sync_after_restock fails in <<R>> of its runs: over the threshold, so it is quarantined too, with the issue just opened for Tomás Ortega (<<KR>>).", R=R14[w.RESTOCK], KR=KEY[w.RESTOCK]), fill(r'''
(def quarantines
  (mapv (fn [[test issue]] (tool/quarantine-test {:test test :issue issue :days 14}))
        [["<<T3>>" "<<K3>>"]
         ["<<TR>>" "<<KR>>"]
         ["<<TW>>" "PLAT-1790"]]))
(doseq [q quarantines]
  (println (:ok q) (:test q) (:issue q) (:until q) (:change q)))
''', T3=w.THREEDS, K3=KEY[w.THREEDS], TR=w.RESTOCK, KR=KEY[w.RESTOCK], TW=w.WEBHOOK))

s.turn("Quarantined until 2024-09-30. How long do the flaky tests take when they fail and when they pass? A table for the report, highest rate first:", r'''
(defn median [xs]
  (let [v (vec (sort xs)) n (count v)]
    (if (even? n) (/ (+ (v (dec (quot n 2))) (v (quot n 2))) 2) (v (quot n 2)))))
(def flaky-rows
  (for [test flaky
        :let [os (:outcomes (histories test))
              by (group-by :outcome os)]]
    {:test test :rate (format "%.3f" (flake-rates test))
     :fail-s (median (map :duration_s (by "failed"))) :pass-s (median (map :duration_s (by "passed")))}))
(doseq [r (sort-by :rate > flaky-rows)]
  (println (:rate r) (:fail-s r) (:pass-s r) (:test r)))
''', "type")

s.turn("The rates are formatted strings there; sorting by the numbers instead (and median again: the failed turn defined nothing).", r'''
(defn median [xs]
  (let [v (vec (sort xs)) n (count v)]
    (if (even? n) (/ (+ (v (dec (quot n 2))) (v (quot n 2))) 2) (v (quot n 2)))))
(def flaky-rows
  (for [test (sort-by flake-rates > flaky)
        :let [by (group-by :outcome (:outcomes (histories test)))]]
    {:test test :rate (flake-rates test)
     :fail-s (median (map :duration_s (by "failed"))) :pass-s (median (map :duration_s (by "passed")))}))
(doseq [r flaky-rows]
  (println (format "%.3f  fails after %6.2f s, passes in %5.2f s  %s" (:rate r) (:fail-s r) (:pass-s r) (:test r))))
''')

s.turn("How much of the window's red is the broken test alone, and how much is left once it, the quarantined tests and the infrastructure are out of the way?", fill(r'''
(def failing-by-run (group-by :run failing))
(def only-refund (filter (fn [[_ fs]] (every? #(= "<<REFUND>>" (:test %)) fs)) failing-by-run))
(def quarantined (set (map :test (filter :ok quarantines))))
(def still-red
  (remove (fn [r] (let [fs (failing-by-run (:run_id r))]
                    (or (empty? fs) (every? #(or (quarantined (:test %)) (= "<<REFUND>>" (:test %))) fs))))
          failed))
(println (count only-refund) "runs red only because of test_refund_partial")
(println "red without the broken test, the quarantined tests and infrastructure:" (count still-red) "of" (count runs)
         (format "%.3f" (/ (count still-red) (count runs))))
(doseq [r still-red]
  (println "  " (:run_id r) (:started_at r) (map :test (failing-by-run (:run_id r)))))
''', REFUND=w.REFUND))

s.turn("What is left is the pagination test and the fixed VAT test. Do the new issues go to the right Priya? Checking the two handles against the commit and CODEOWNERS:", fill(r'''
(println "broken:" (:key broken-issue) "->" (:assignee broken-issue) "| author of <<S>>:" (:author money-commit) (:author_handle money-commit))
(println "pagination:" (:key (new-issues "<<TP>>")) "->" (:assignee (new-issues "<<TP>>"))
         "| owner of tests/api/:" (map :name (:owners (owners "tests/api/test_orders.py"))))
''', S=RIGHT, TP=w.PAGINATION))

FLAKY_LIT = "\n             ".join(
    '{:test "%s" :rate %s :owner "%s" :issue "%s"%s}' % (
        x, R14[x], OWNER[x][0], KEY[x],
        ' :quarantine {:until "%s" :change "%s"}' % (Q[x]["until"], Q[x]["change"]) if x in Q else ' :quarantine nil')
    for x in sorted(FLAKY, key=lambda x: -rate(H14[x])))

FIRST_FLAKY = max(FLAKY, key=lambda x: rate(H14[x]))
s.cut("Everything is filed. The triage:", fill(r'''
(def triage
  {:window {:since "2024-09-02" :until "2024-09-15" :runs <<N>> :failed-runs <<F>> :red-rate <<RR>>
            :median-run-s <<M>>}
   :broken [{:test "<<REFUND>>" :culprit "<<S>>" :author "Priya Ramanathan"
             :pr "#2229" :first-red <<R>> :last-green <<G>> :issue "<<BK>>"}]
   :fixed [{:test "<<VAT>>" :fixed-by "<<VF>>"}]
   :flaky [{:test "<<T1>>" :rate <<R1>> :owner "<<O1>>"
''', N=N_RUNS, F=N_FAILED, RR=RED_RATE, M=MEDIAN_S, REFUND=w.REFUND, S=RIGHT, R=FIRST_RED[0], G=LAST_GREEN[0],
    BK=BROKEN_KEY, VAT=w.VAT, VF=VAT_FIX, T1=FIRST_FLAKY, R1=R14[FIRST_FLAKY], O1=OWNER[FIRST_FLAKY][0]))

s.turn("The answer was cut off. The same triage, written out again:", fill(r'''
(def triage
  {:window {:since "2024-09-02" :until "2024-09-15" :runs <<N>> :failed-runs <<F>> :red-rate <<RR>>
            :median-run-s <<M>>}
   :broken [{:test "<<REFUND>>" :culprit "<<S>>" :author "Priya Ramanathan"
             :pr "#2229" :first-red <<R>> :last-green <<G>> :issue "<<BK>>"}]
   :fixed [{:test "<<VAT>>" :fixed-by "<<VF>>"}]
   :flaky [<<FLAKY>>]
   :infra [{:cause "no space left on device on <<RUNNER>>" :runs [<<D0>> <<D1>> <<D2>>] :issue "PLAT-1811" :state "closed"}
           {:cause "Docker Hub pull rate limit" :runs [<<P0>> <<P1>>] :issue "PLAT-1834" :state "open"}]})
(println (:window triage))
(println (map (juxt :issue :rate) (:flaky triage)))
''', N=N_RUNS, F=N_FAILED, RR=RED_RATE, M=MEDIAN_S, REFUND=w.REFUND, S=RIGHT, R=FIRST_RED[0], G=LAST_GREEN[0],
    BK=BROKEN_KEY, VAT=w.VAT, VF=VAT_FIX, FLAKY=FLAKY_LIT, RUNNER=RUNNER, D0=DISK[0], D1=DISK[1], D2=DISK[2],
    P0=PULL[0], P1=PULL[1]))

s.turn("A last check of the triage against what the tools returned:", r'''
(println "rates match the 14-day histories:"
         (every? #(= (format "%.3f" (flake-rates (:test %))) (format "%.3f" (:rate %))) (:flaky triage)))
(println "quarantines match:"
         (= (set (map :change (filter :ok quarantines))) (set (keep #(get-in % [:quarantine :change]) (:flaky triage)))))
(println "culprit and issue:" (= (:sha culprit) (:culprit (first (:broken triage))))
         (= (:key broken-issue) (:issue (first (:broken triage)))))
(println "infra runs:" (= (set (map first no-test-failures)) (set (mapcat :runs (:infra triage)))))
''')

s.turn("The triage is consistent with the issues, the quarantines and the corrected culprit and rates.", r'''
(return triage)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
