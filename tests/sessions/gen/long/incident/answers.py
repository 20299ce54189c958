#!/usr/bin/env python3
"""The model answers of the incident-investigation session (48 turns).
IDs, timestamps and figures the agent reuses are taken from world.py, as the
model takes them from the prints of earlier turns."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()

s.turn("I'll start with the alerts and the service map, to know what checkout depends on.", r'''
(println data/alerts)
(def services (tool/list-services))
(println (count services) "services")
(doseq [svc services]
  (println (:name svc) "tier" (:tier svc) (:team svc) "->" (:depends_on svc)))
''')

s.turn("ALR-7731 is the checkout p99 alert. Let me pull checkout's p99 latency for the morning.", r'''
(def lat (tool/get-metrics {:service "checkout" :metric "latency_p99_ms"
                            :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z"}))
(println (:unit lat) (count (:points lat)) "points")
(println (take 5 (:points lat)))
''')

s.turn("Points are [timestamp value] pairs. Where does it cross 1500 ms, and how high does it go?", r'''
(def lat-points (:points lat))
(def slow (filter #(> (second %) 1500) lat-points))
(println "first above 1500:" (first slow))
(println "last above 1500:" (last slow))
(println "minutes above:" (count slow) "max:" (apply max (map second lat-points)))
''')

s.turn("Latency jumped at 09:42, well before the alert fired at 09:47. Let me check the checkout error rate too.", r'''
(def errs (tool/get-metrics {:service "checkout" :metric "errors"
                             :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z"}))
''', "tool")

s.turn("The metric is called error_rate.", r'''
(def err-rate (tool/get-metrics {:service "checkout" :metric "error_rate"
                                 :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z"}))
(def bad-minutes (filter #(> (second %) 0.01) (:points err-rate)))
(println "minutes over 1%:" (count bad-minutes))
(println "first:" (first bad-minutes) "last:" (last bad-minutes))
(println "peak:" (apply max-key second (:points err-rate)))
''')

s.turn("Errors and latency start in the same minute. Let me read the checkout error logs around the start.", r'''
(def co-errors (tool/search-logs {:service "checkout" :level "ERROR"
                                  :from "2024-03-14T09:40:00Z" :to "2024-03-14T09:50:00Z"}))
(println "total" (:total co-errors) "returned" (:returned co-errors))
(doseq [e (take 8 (:entries co-errors))]
  (println (:ts e) (:host e) (:trace_id e) (:msg e)))
''')

s.turn("Almost everything looks like the same upstream failure. Let me group the messages by shape.", r'''
(defn msg-shape [msg]
  (clojure.string/replace msg #"\d+" "N"))
(def shapes (frequencies (map (comp msg-shape :msg) (:entries co-errors))))
(doseq [[shape n] (sort-by val > shapes)]
  (println n shape))
''')

s.turn("Every error is payments-api answering 503 after ~2 s. Something changed at 09:41-09:42; let me list today's deploys.", r'''
(def deploys (tool/list-deploys {:since "2024-03-14T00:00:00Z"}))
(doseq [d deploys]
  (println (:at d) (:id d) (:service d) (:kind d) (:author d) "-" (:summary d)))
''')

s.turn("Two changes landed shortly before: the inventory-svc flag at %s and the payments-api config at %s. "
       "Checkout calls inventory first, so I'll look at the earlier one." % (w.ts(w.INV_DEPLOY)[11:19], w.ts(w.BAD_DEPLOY)[11:19]), r'''
(def inv-diff (tool/get-config-diff {:deploy_id "%s"}))
(println (:diff inv-diff))
''' % "dep-b81a02")

s.turn("reserve_v2 went from 10%% to 100%%. Are there inventory warnings after %s?" % w.ts(w.INV_DEPLOY)[11:19], r'''
(def inv-warn (tool/search-logs {:service "inventory-svc" :level "WARN"
                                 :from "2024-03-14T09:25:00Z" :to "2024-03-14T10:30:00Z" :limit 200}))
(println "warnings:" (:total inv-warn) "returned:" (:returned inv-warn))
(doseq [e (take 5 (:entries inv-warn))]
  (println (:ts e) (:host e) (:msg e)))
''')

s.turn("The reserve_v2 slow path is a few hundred ms. Let me see if inventory latency or errors moved enough to matter.", r'''
(def inv-lat (tool/get-metrics {:service "inventory-svc" :metric "latency_p99_ms"
                                :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z" :step_s 300}))
(def inv-err (tool/get-metrics {:service "inventory-svc" :metric "error_rate"
                                :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z" :step_s 300}))
(println "p99 per 5 min:" (map second (:points inv-lat)))
(println "max error rate:" (apply max (map second (:points inv-err))))
''')

s.turn("Inventory went from ~400 to ~500 ms at 09:30 and has no errors: that can't explain 4 s and 503s from payments. "
       "Let me open the first failing trace, %s." % w.first_pool_traces(1)[0], r'''
(def t1 (tool/get-trace {:trace_id "%s"}))
(println (:root t1) (:http_status t1) (:duration_ms t1) "ms, started" (:started_at t1))
(doseq [sp (:spans t1)]
  (println (format "%%-14s %%-30s %%5d ms  %%-6s %%s" (:service sp) (:op sp) (:duration_ms sp) (:status sp) (or (:error sp) ""))))
''' % w.first_pool_traces(1)[0])

s.turn("Both payments-api attempts wait ~2 s and fail with E_POOL_TIMEOUT. A second trace to be sure.", r'''
(def t2 (tool/get-trace {:trace_id "%s"}))
(println (map (juxt :service :duration_ms :error :host) (filter #(= "error" (:status %%)) (:spans t2))))
''' % w.first_pool_traces(2)[1])

s.turn("Same pattern. Now the payments-api logs from the start of the incident.", r'''
(def pay-errors (tool/search-logs {:service "payments-api" :level "ERROR"
                                   :from "2024-03-14T09:40:00Z" :to "2024-03-14T09:45:00Z" :limit 20}))
(println "total" (:total pay-errors))
(doseq [e (take 6 (:entries pay-errors))]
  (println (:ts e) (:host e) (:msg e)))
''')

s.turn("The pool reports total=12, active=12. How many connections does payments-api normally hold?", r'''
(def conns (tool/get-metrics {:service "payments-api" :metric "db_connections"
                              :from "2024-03-14T09:35:00Z" :to "2024-03-14T09:50:00Z"}))
(println (map second (:points conns)))
''', "tool")

s.turn("The error lists the pool metrics. Pool usage against pool size around the deploy:", r'''
(def pool (tool/get-metrics {:service "payments-api" :metric "db_pool_in_use"
                             :from "2024-03-14T09:35:00Z" :to "2024-03-14T09:50:00Z"}))
(def pool-max (tool/get-metrics {:service "payments-api" :metric "db_pool_max"
                                 :from "2024-03-14T09:35:00Z" :to "2024-03-14T09:50:00Z"}))
(doseq [[[t used] [_ mx]] (map vector (:points pool) (:points pool-max))]
  (println (subs t 11 16) used "/" mx))
''')

s.turn("The pool shrank from 50 to 12 at 09:42 and has been full since. That matches the payments-api config deploy; let me read its diff.", r'''
(def pay-diff (tool/get-config-diff {:deploy_id "%s"}))
(println (:diff pay-diff))
''' % "dep-4c91e7")

s.turn("max_size 50 -> 12 and connection_timeout_ms 30000 -> 2000. Before settling on it: is pg-payments itself in trouble?", r'''
(def db-cpu (tool/get-metrics {:service "pg-payments" :metric "cpu_pct"
                               :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z" :step_s 300}))
(def db-conns (tool/get-metrics {:service "pg-payments" :metric "active_connections"
                                 :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z" :step_s 300}))
(println "cpu %:" (map second (:points db-cpu)))
(println "connections:" (map (juxt #(subs (first %) 11 16) second) (:points db-conns)))
''')

s.turn("The database is idle (CPU under 40%%, connections halved): the clients starve themselves. "
       "Let me count the payments errors before and after the scale-up at %s." % w.ts(w.SCALE)[11:19], r'''
(def pay-all (tool/search-logs {:service "payments-api" :level "ERROR"
                                :from "2024-03-14T09:40:00Z" :to "2024-03-14T10:30:00Z" :limit 100}))
(def before-scale (filter #(< (:ts %%) "%s") (:entries pay-all)))
(println (count before-scale))
''' % w.ts(w.SCALE), "type")

s.turn("Timestamps are strings, so I need compare instead of <.", r'''
(def pay-all (tool/search-logs {:service "payments-api" :level "ERROR"
                                :from "2024-03-14T09:40:00Z" :to "2024-03-14T10:30:00Z" :limit 100}))
(defn before? [a b] (neg? (compare a b)))
(println "total" (:total pay-all) "returned" (:returned pay-all))
(println "returned before the scale-up:" (count (filter #(before? (:ts %%) "%s") (:entries pay-all))))
''' % w.ts(w.SCALE))

s.turn("Only the first 100 of the errors come back, so the logs can't show the trend. The payments error rate per 5 minutes will.", r'''
(def pay-err (tool/get-metrics {:service "payments-api" :metric "error_rate"
                                :from "2024-03-14T09:30:00Z" :to "2024-03-14T10:30:00Z" :step_s 300}))
(doseq [[t v] (:points pay-err)]
  (println (subs t 11 16) v))
''')

s.prose("The picture is consistent now. Deploy dep-4c91e7 (payments-api, 09:41:30) shrank the database pool from 50 to 12 "
        "connections per instance and cut the acquisition timeout from 30 s to 2 s. From 09:42:17 requests wait 2 s for a "
        "connection and fail with E_POOL_TIMEOUT; checkout retries once and returns 503 after ~4.5 s, which is the p99 "
        "the alert saw. pg-payments is idle the whole time, so the database is not the cause. Scaling payments-api from 4 "
        "to 8 replicas at 10:05:11 halved the error rate (more pools of 12), and the rollback dep-e05d3b at 10:18:40 "
        "ended it. Next I will quantify the failed checkouts and the revenue at risk with checkout-stats, then write the "
        "postmortem.")

s.turn("Quantifying the impact with checkout-stats for the whole morning.", r'''
(def stats (tool/checkout-stats {:from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z"}))
(println "attempts" (:attempts stats) "failed" (:failed stats) "avg order EUR" (:avg_order_eur stats))
(println (take 3 (:per_minute stats)))
''')

s.turn("Failures per minute during the incident, then their sum.", r'''
(def by-minute (:per_minute stats))
(def incident-minutes (filter #(> (:failed %) 2) by-minute))
(println (count incident-minutes) "minutes," (sum (map :failed incident-minutes)) "failed")
''', "unbound_symbol")

s.turn("No sum in PTC-Lisp; reduce + it is. Let me also print the minutes around the incident as a table.", r'''
(def by-minute (:per_minute stats))
(def incident-minutes (filter #(> (:failed %) 2) by-minute))
(println (count incident-minutes) "minutes," (reduce + (map :failed incident-minutes)) "failed")
(println (clojure.string/join "\n"
  (for [m by-minute
        :when (and (<= 0 (compare (:minute m) "2024-03-14T09:38:00Z"))
                   (neg? (compare (:minute m) "2024-03-14T10:24:00Z")))]
    (str (subs (:minute m) 11 16) "  attempts " (:attempts m) "  failed " (:failed m)))))
''')

s.turn("Failures stop after 10:19. When exactly did payments-api recover? The rollback %s should tell." % "dep-e05d3b", r'''
(def rollback-diff (tool/get-config-diff {:deploy_id "%s"}))
(println (:diff rollback-diff))
(def tail-errors (tool/search-logs {:service "payments-api" :level "ERROR"
                                    :from "2024-03-14T10:17:00Z" :to "2024-03-14T10:30:00Z" :limit 200}))
(println "errors after 10:17:" (:total tail-errors) "last:" (:ts (last (:entries tail-errors))))
''' % "dep-e05d3b")

s.turn("The last error is at %s, 78 s after the rollback. I'll count the failed checkouts per minute between the first error and recovery with a helper." % w.ts(w.LAST_ERROR)[11:19], r'''
(defn in-window? [m start end]
  (and (<= 0 (compare (:minute m) start))
       (<= (compare (:minute m) end) 0)))
(def window-minutes (filter in-window? by-minute))
(println (count window-minutes))
''', "arity")

s.turn("filter passes one argument; I'll close over the window bounds.", r'''
(defn in-window? [m start end]
  (and (<= 0 (compare (:minute m) start))
       (<= (compare (:minute m) end) 0)))
(def window-minutes (filter #(in-window? %% "%s" "%s") by-minute))
(def failed-in-window (reduce + (map :failed window-minutes)))
(def attempts-in-window (reduce + (map :attempts window-minutes)))
(println (count window-minutes) "minutes," failed-in-window "failed of" attempts-in-window "attempts")
''' % (w.ts(w.hms(9, 42)), w.ts(w.hms(10, 19))))

# Figures the agent has seen printed by now (turns 22 and 27).
WIN = (w.hms(9, 42), w.hms(10, 19))
FAILED = w.window_failed(*WIN)
ATTEMPTS = sum(w.minute_stats(m)[0] for m in range(WIN[0], WIN[1] + 1, 60))
BASE_F = sum(w.minute_stats(m)[1] for m in range(w.hms(9, 0), w.hms(9, 42), 60))
BASE_A = sum(w.minute_stats(m)[0] for m in range(w.hms(9, 0), w.hms(9, 42), 60))
EXPECTED = int(BASE_F / BASE_A * ATTEMPTS + 0.5)
EXCESS = FAILED - EXPECTED
LOST = "%.2f" % (EXCESS * w.AVG_ORDER_EUR)

s.turn("%d failed checkouts in 38 minutes. Some checkouts fail anyway (about one a minute before 09:42), so I'll subtract that baseline before pricing the damage." % FAILED, r'''
(def baseline (filter #(neg? (compare (:minute %%) "%s")) by-minute))
(def base-rate (/ (reduce + (map :failed baseline)) (double (reduce + (map :attempts baseline)))))
(def expected-failures (round (* base-rate attempts-in-window)))
(def excess (- %d expected-failures))
(println "baseline failure rate" base-rate "-> expected" expected-failures "excess" excess)
(println "lost revenue EUR" (* excess %s))
''' % (w.ts(WIN[0]), FAILED, w.AVG_ORDER_EUR))

s.turn("About %s EUR of orders failed. Did the scale-up help? Failure rate before and after it:" % LOST.split(".")[0], r'''
(defn failure-rate [ms]
  (/ (reduce + (map :failed ms)) (double (reduce + (map :attempts ms)))))
(println "09:42-10:04" (failure-rate (filter #(in-window? % "2024-03-14T09:42:00Z" "2024-03-14T10:04:00Z") by-minute)))
(println "10:05-10:18" (failure-rate (filter #(in-window? % "2024-03-14T10:05:00Z" "2024-03-14T10:18:00Z") by-minute)))
''')

s.turn("The failure rate halved after the scale-up but did not stop. Which hosts failed after %s?" % w.ts(w.SCALE)[11:19], r'''
(def after-scale (tool/search-logs {:service "payments-api" :level "ERROR"
                                    :from "%s" :to "%s" :limit 100}))
(println "errors" (:total after-scale))
(println (sort-by key (frequencies (map :host (:entries after-scale)))))
''' % (w.ts(w.SCALE), w.ts(w.ROLLBACK)))

s.turn("All 8 hosts fail alike: more pools of 12 only spread the load. One more dependency to rule out: fraud-check sits in the same call path.", r'''
(def fraud (tool/search-logs {:service "fraud-check" :from "2024-03-14T09:00:00Z" :to "2024-03-14T11:00:00Z"}))
(println "fraud-check lines:" (:total fraud))
(doseq [e (:entries fraud)]
  (println (:ts e) (:level e) (:msg e)))
''')

s.turn("fraud-check warns at the same pace before, during and after: unrelated. The diff of %s cites change request %s; let me read it." % ("dep-4c91e7", "CHG-20931"), r'''
(def chg (tool/get-change {:id "%s"}))
(println (:title chg) "|" (:requested_by chg) "approved by" (:approved_by chg) "|" (:status chg))
(println (:description chg))
(doseq [c (:comments chg)]
  (println (:at c) (:by c) ":" (:text c)))
''' % "CHG-20931")

s.turn("The change asked for 120 connections per instance and shipped 12: a typo the review did not catch. Who owns payments-api?", r'''
(println (map (juxt :name :oncall :team) (filter #(= "payments" (:team %)) services)))
''')

s.cut("Let me put the whole timeline together with the numbers for each phase.", r'''
(def timeline
  (->> [{:at "2024-03-14T09:30:12Z" :what "dep-b81a02 inventory-svc reserve_v2 to 100% (not related)"}
        {:at "2024-03-14T09:41:30Z" :what "dep-4c91e7 payments-api pool max_size 50 -> 12, timeout 30000 -> 2000 ms"}
        {:at "2024-03-14T09:42:17Z" :what "first E_POOL_TIMEOUT"}
        {:at "2024-03-14T09:47:00Z" :what "ALR-7731 fires"}
        {:at "2024-03-14T10:05:11Z" :what "dep-5d0e88 scale 4 -> 8 replicas"
         :failure-rate (failure-rate (filter #(in-window? % "2024-03-14T10:05:00Z" "2024-03-14T10:18:00Z") by-minute))}
        {:at "2024-03-14T10:18:40Z" :what "dep-e05d3b rollback"}
        {:at "2024-03-14T10:19:58Z" :what "last error"
         :failed (reduce + (map :failed (filter #(in-window? % "2024-03-14T09:42:00Z"''')

s.turn("My answer was cut off. A shorter timeline, without the computed columns:", r'''
(def timeline
  [["%s" "%s inventory-svc reserve_v2 to 100%% (not related)"]
   ["%s" "%s payments-api pool max_size 50 -> 12, timeout 30000 -> 2000 ms"]
   ["%s" "first E_POOL_TIMEOUT on %s"]
   ["2024-03-14T09:47:00Z" "ALR-7731 fires"]
   ["%s" "%s payments-api scaled 4 -> 8"]
   ["%s" "%s rollback to the dep-71aa4f config"]
   ["%s" "last payments-api error"]])
(doseq [[at what] timeline]
  (println (subs at 11 19) what))
''' % (w.ts(w.INV_DEPLOY), "dep-b81a02", w.ts(w.BAD_DEPLOY), "dep-4c91e7", w.ts(w.FIRST_ERROR), "pay-api-4",
       w.ts(w.SCALE), "dep-5d0e88", w.ts(w.ROLLBACK), "dep-e05d3b", w.ts(w.LAST_ERROR)))

s.turn("Were there checkout errors before 09:42 that have another cause? msg-shape should also hide trace ids now.", r'''
(defn msg-shape [msg]
  (-> msg
      (clojure.string/replace #"tr-[0-9a-f]+" "tr-X")
      (clojure.string/replace #"\d+" "N")))
(def early (tool/search-logs {:service "checkout" :level "ERROR"
                              :from "2024-03-14T06:00:00Z" :to "2024-03-14T09:42:00Z" :limit 200}))
(println "checkout errors before 09:42:" (:total early))
(doseq [[shape n] (frequencies (map (comp msg-shape :msg) (:entries early)))]
  (println n shape))
''')

s.turn("A handful of unrelated errors, the baseline I subtracted. Did payments-api log the config reloads?", r'''
(def reloads (tool/search-logs {:service "payments-api" :level "INFO"
                                :from "%s" :to "2024-03-14T10:30:00Z"}))
(doseq [e (:entries reloads)]
  (println (:ts e) (:host e) (:msg e)))
''' % w.ts(w.BAD_DEPLOY))

s.turn("Both reloads are logged. Checkout p99 around the recovery:", r'''
(println (filter #(in-window? {:minute (first %)} "2024-03-14T10:15:00Z" "2024-03-14T10:25:00Z") lat-points))
''')

s.turn("p99 is back to normal from 10:20. Let me cross-check the failed count with checkout-stats over exactly that window.", r'''
(def window-stats (tool/checkout-stats {:from "%s" :to "2024-03-14T10:20:00Z"}))
(println "failed" (:failed window-stats) "attempts" (:attempts window-stats))
''' % w.ts(WIN[0]))

s.turn("Same figures. A short list of the payments-api changes of the day for the report.", r'''
(def deploy-lines
  (map #(str (subs (:deployed_at %) 11 19) " " (:id %) " " (:kind %) " " (:summary %))
       (filter #(= "payments-api" (:service %)) deploys)))
(println (clojure.string/join "\n" deploy-lines))
''', "type")

s.turn("The deploy field is :at, not :deployed_at.", r'''
(def deploy-lines
  (map #(str (subs (:at %) 11 19) " " (:id %) " " (:kind %) " " (:summary %))
       (filter #(= "payments-api" (:service %)) deploys)))
(println (clojure.string/join "\n" deploy-lines))
''')

s.turn("Now the follow-ups.", r'''
(def follow-ups
  ["Fix payments-api pool: max_size 120 per instance as %s intended; keep connection_timeout_ms 30000 until checkout retries are tuned"
   "Config lint: fail CI when db pool max_size drops by more than 50%% in one change"
   "Alert on payments-api db_pool_wait_ms and pool saturation (in_use = max for 2 min), not only on checkout p99"
   "Review checklist: diff of numeric limits shown side by side in change requests"
   "Canary config changes on one payments-api instance for 10 minutes"])
(println (count follow-ups) "follow-ups")
''' % "CHG-20931")

s.turn("Drafting the postmortem text from what I found.", r'''
(def report
  (str "Checkout incident 2024-03-14 (ALR-7731)\n"
       "Root cause: payments-api config deploy %s (%s, %s) set the DB pool max_size to 12 instead of 120 "
       "and connection_timeout_ms to 2000. Requests waited 2 s for a connection and failed with E_POOL_TIMEOUT; "
       "checkout retried once and answered 503 after ~4.5 s.\n"
       "Not the cause: inventory-svc reserve_v2 rollout (%s, +100 ms p99, no errors), pg-payments (CPU < 40%%), fraud-check.\n"
       "Timeline (UTC):\n"
       (clojure.string/join "\n" (map (fn [[at what]] (str "  " (subs at 11 19) "  " what)) timeline))
       "\nImpact: " failed-in-window " failed checkouts of " attempts-in-window " (" excess " above baseline), "
       "about " (format "%%.2f" (* excess %s)) " EUR of orders.\n"
       "Mitigation: scale-up %s halved failures; rollback %s ended them.\n"
       "Follow-ups:\n"
       (clojure.string/join "\n" (map-indexed (fn [i f] (str "  " (inc i) ". " f)) follow-ups))))
(println report)
''' % ("dep-4c91e7", "m.keller", "CHG-20931", "dep-b81a02", w.AVG_ORDER_EUR, "dep-5d0e88", "dep-e05d3b"))

s.turn("The report reads well. Now the postmortem map the mission asks for.", r'''
(def postmortem
  {:root-cause-service "payments-api"
   :trigger "%s"
   :change-request "%s"
   :first-error "%s"
   :recovered-at "%s"
   :failed-checkouts %d
   :lost-revenue-eur %s
   :follow-ups follow-ups})
(println (dissoc postmortem :follow-ups))
''' % ("dep-4c91e7", "CHG-20931", w.ts(w.FIRST_ERROR), w.ts(w.LAST_ERROR), FAILED, LOST))

s.turn("I wrote %s EUR, which counts the baseline failures out. The mission asks for failed checkouts between the first error and recovery, so the revenue should match %d failures; let me compare both." % (LOST, FAILED), r'''
(println "all failures:" (format "%%.2f" (* %d %s)) "excess only:" (format "%%.2f" (* excess %s)))
''' % (FAILED, w.AVG_ORDER_EUR, w.AVG_ORDER_EUR))

s.turn("I'll report all failed checkouts (what the mission defines), keep the excess as a separate figure, and add the owner, the alert and the mitigation.", r'''
(def postmortem
  (assoc postmortem
         :failed-above-baseline excess
         :lost-revenue-eur %s
         :owner "%s"
         :alert "ALR-7731"
         :mitigation "rollback %s at %s (scale-up %s at %s halved failures)"))
(println (count postmortem) "keys," (count (:follow-ups postmortem)) "follow-ups")
''' % ("%.2f" % (FAILED * w.AVG_ORDER_EUR), "Lena Fischer", "dep-e05d3b", w.ts(w.ROLLBACK)[11:19], "dep-5d0e88",
       w.ts(w.SCALE)[11:19]))

s.turn("Everything is in place.", r'''
(return postmortem)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
