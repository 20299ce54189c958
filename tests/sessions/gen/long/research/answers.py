#!/usr/bin/env python3
"""The model answers of the upgrade-research session (32 turns).
Doc ids, ticket ids, names and dates the agent reuses are taken from
world.py, as the model takes them from the prints of earlier turns."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()

s.turn("I'll start by searching the wiki for the upgrade and for the cluster.", r'''
(def hits (tool/wiki-search {:query "postgres 16 upgrade pg-orders" :limit 8}))
(doseq [h hits]
  (println (:doc_id h) "|" (:title h) "|" (:updated h)))
''')

s.turn("Which of these talk about pg-orders?", r'''
(println (map :doc_id (filter #(clojure.string/includes? (:snippet %) "pg-orders") hits)))
''', "type")

s.turn("One hit has no snippet (the PDF). Treating a missing snippet as empty:", r'''
(doseq [h (filter #(clojure.string/includes? (or (:snippet %) "") "pg-orders") hits)]
  (println (:doc_id h) (:snippet h)))
''')

s.turn("The platform guide %s is the main reference; reading it whole." % "DOC-4520", r'''
(def guide (tool/wiki-fetch {:doc_id "DOC-4520"}))
(println (:title guide) "-" (:author guide) "-" (:updated guide) "-" (count (:body guide)) "chars")
(println (:body guide))
''')

s.turn("The print was cut at 2,000 characters. The rest of the guide:", r'''
(println (subs (:body guide) 1990))
''')

s.turn("The guide names timescaledb, pg_partman, pglogical slots and old libpq clients. The runbook %s should say what pg-orders has." % "DOC-4471", r'''
(def runbook (tool/wiki-fetch {:doc_id "DOC-4471"}))
(def runbook-lines (clojure.string/split-lines (:body runbook)))
(doseq [l (filter #(clojure.string/starts-with? % "|") runbook-lines)]
  (println l))
''')

s.turn("timescaledb 2.3.1 and pg_partman 4.7.4 both need work, and pglogical carries the CDC slot. The clients:", r'''
(defn section [lines heading]
  (->> lines
       (drop-while #(not= % heading))
       rest
       (take-while #(not (clojure.string/starts-with? % "## ")))
       (remove clojure.string/blank?)))
(doseq [l (section runbook-lines "## Clients")]
  (println l))
(println (section runbook-lines "## Known issues"))
''')

T = w.TICKETS

s.turn("legacy-billing on libpq 9.6 with md5 will break under scram-sha-256. The runbook names DBA-2292 (timescaledb) and DATA-733 (the slot). First the timescaledb ticket:", r"""
(def t-timescale (tool/ticket-get {:id "DBA-2292"}))
(println (:id t-timescale) (:status t-timescale) (:team t-timescale) (:assignee t-timescale))
(println (:description t-timescale))
(println (:comments t-timescale))
""")

s.turn("Is there an umbrella ticket for the upgrade?", r"""
(def found (tool/ticket-search {:query "pg-orders upgrade PostgreSQL 16"}))
(doseq [t found]
  (println (:id t) (:status t) (:team t) "-" (:title t)))
""")

s.turn("%s is the epic. What blocks it?" % "DBA-2291", r"""
(def epic (tool/ticket-get {:id "DBA-2291"}))
(println (:title epic) "| due" (:due epic) "|" (:assignee epic))
(println "blocked by:" (:blocked_by epic))
(println (map :text (:comments epic)))
""")

s.turn("Fetching the five blockers at once.", r"""
(def blockers (mapv #(tool/ticket-get {:id %}) (:blocked_by epic)))
(println (clojure.string/join "\n"
  (map #(format "%-10s %-12s %-14s %-14s due %-10s %s  blocked by %s" (:id %) (:status %) (:team %) (:assignee %)
                (or (:due %) "-") (:title %) (:blocked_by %))
       blockers)))
""")

s.turn("pg_partman (%s) is itself blocked by another ticket. Checking it:" % "DBA-2301", r"""
(println (tool/ticket-get {:id "INFRA-5210"}))
""", "tool")

s.turn("Wrong number, the blocker is %s." % "INFRA-5120", r"""
(def staging (tool/ticket-get {:id "INFRA-5120"}))
(println (:status staging) "-" (:description staging))
""")

s.turn("Staging is refreshed. The CDC page %s explains the slot re-creation:" % "DOC-4415", r"""
(def cdc (tool/wiki-fetch {:doc_id "DOC-4415"}))
(println (:body cdc))
(println "comments on DATA-733:" (map :text (:comments (first (filter #(= "DATA-733" (:id %)) blockers)))))
""")

s.prose("""What I know so far about the blockers of DBA-2291:

- DBA-2292 (dba, Marek Nowak): drop timescaledb after exporting audit_events_ts to S3 (~6 hours). Open.
- DBA-2301 (dba, Marek Nowak): pg_partman 4.7.4 -> 5.1.0 on PG12, tested on staging first (INFRA-5120 is done, staging refreshed from the 2024-06-02 snapshot). Open.
- DATA-733 (data-platform, Tomás Ortiz): pause cdc-loader, note the LSN, re-create the analytics_cdc slot after the upgrade. They need 5 working days notice.
- BILL-1450 (billing, Hannah Berg): legacy-billing moves to libpq 15, production rollout planned 2024-07-17, due 2024-07-19.
- PLAT-877 (platform): PG16 images, done.

Still open: how long the window takes, which Sundays are free (freeze calendar DOC-4602), and who leads each team.""")

s.turn("The pg-inventory retro %s has real timings; the relevant lines:" % "DOC-4388", r"""
(def retro (tool/wiki-fetch {:doc_id "DOC-4388"}))
(doseq [l (filter #(re-find #"(?i)minutes|hours|slot|window" %) (clojure.string/split-lines (:body retro)))]
  (println l))
""")

s.turn("Now the freeze calendar %s and the windows the pg-orders calendar offers until the deadline." % "DOC-4602", r"""
(def freeze (tool/wiki-fetch {:doc_id "DOC-4602"}))
(doseq [l (filter #(clojure.string/starts-with? % "| ") (clojure.string/split-lines (:body freeze)))]
  (println l))
(def windows (tool/maintenance-windows {:system "pg-orders" :from "2024-06-20" :to "2024-09-30"}))
(doseq [win windows]
  (println (:date win) (:start win) "-" (:end win) (:status win) (or (:note win) "")))
""")

s.turn("Free Sundays exist before and after the summer freeze. A filter for the windows that are free and late enough for the blockers:", r"""
(defn usable? [win earliest]
  (and (= "free" (:status win))
       (>= (compare (:date win) earliest) 0)))
(def candidates (filter usable? windows))
(println (map :date candidates))
""", "arity")

s.turn("usable? needs the earliest date too. BILL-1450 reaches production on 2024-07-17, so the upgrade cannot come before the week after.", r"""
(defn usable? [win earliest]
  (and (= "free" (:status win))
       (>= (compare (:date win) earliest) 0)))
(def candidates (filter #(usable? % "2024-07-22") windows))
(println (map :date candidates))
""")

s.turn("Who leads the teams involved?", r"""
(def teams
  (into {} (map (fn [t] [t (tool/team-directory {:team t})]) ["dba" "data-platform" "billing" "platform"])))
(doseq [[t d] teams]
  (println t "| lead" (:lead d) "|" (:slack d) "| on call" (:oncall d)))
""")

s.turn("DATA-733 needs 5 working days notice before the window; let me compute the latest notice date for each candidate.", r"""
(println (map #(vector (:date %) (minus-working-days (:date %) 5)) candidates))
""", "unbound_symbol")

s.turn("No date arithmetic available; I'll reason from the calendar by hand. More important is whether the work fits the 4-hour window:", r"""
(def window-minutes
  {:stop-writers 15
   :pg-upgrade-check 10
   :pg-upgrade-link 5
   :analyze-in-stages (* 40 2.1)
   :rebuild-one-replica 90
   :slots-and-restart 30})
(println window-minutes)
(println (reduce + (vals window-minutes)) "minutes of" (* 60 (:window_hours data/upgrade)))
""")

s.turn("234 of 240 minutes: tight but it fits if the second replica is rebuilt after the window, as the retro advises (no IO competition with ANALYZE). The plan:", r"""
(def plan
  [{:step 1 :date "2024-07-07" :owner "Marek Nowak" :team "dba"
    :what "export audit_events_ts to S3 (~6 h), then DROP EXTENSION timescaledb" :closes ["DBA-2292"]}
   {:step 2 :date "2024-07-14" :owner "Marek Nowak" :team "dba"
    :what "pg_partman 4.7.4 -> 5.1.0: staging first, then production in the window" :closes ["DBA-2301"]}
   {:step 3 :date "2024-07-17" :owner "Hannah Berg" :team "billing"
    :what "legacy-billing on libpq 15 in production" :closes ["BILL-1450"]}
   {:step 4 :date "2024-07-28" :owner "Priya Raman" :team "dba"
    :what "timed rehearsal of the whole window on pg-orders-stg" :closes []}
   {:step 5 :date "2024-08-09" :owner "Tomás Ortiz" :team "data-platform"
    :what "staff the window, pause cdc-loader plan (5 working days notice)" :closes []}
   {:step 6 :date "2024-08-18" :owner "Priya Raman" :team "dba"
    :what "upgrade window 02:00-06:00 UTC: pg_upgrade --link, analyze in stages, rebuild pg-orders-2, re-create analytics_cdc"
    :closes ["DBA-2291" "DATA-733"]}
   {:step 7 :date "2024-08-19" :owner "Jun Li" :team "dba"
    :what "rebuild pg-orders-3, REINDEX order_events_created_at_idx" :closes []}])
(println (count plan) "steps")
""")

s.cut("Let me render the plan as a readable table with the team leads and channels:", r"""
(println
  (clojure.string/join "\n"
    (for [{:keys [step date owner team what closes]} plan
          :let [t (teams team)]]
      (format "%d. %s  %-12s (%s, lead %s, %s)  %s  closes %s"
              step date owner team (:lead t) (:slack t) what (if (seq closes) (clojure.string/join ", " closes) "-")))))
(println "fallback window:" (:date (first (filter #(pos? (compare (:date %) "2024-08-18")) candidates""")

s.turn("That was cut off. Shorter:", r"""
(doseq [{:keys [step date owner what closes]} plan]
  (println step date owner "-" what (if (seq closes) closes "")))
""")

s.turn("The guide mentioned the security policy %s on md5 after 2024-06-30; today is 2024-06-20, so billing's date matters. Checking it:" % "SEC-12", r"""
(def sec (tool/ticket-get {:id "SEC-12"}))
(println (:title sec) "| due" (:due sec) "|" (:description sec))
""")

s.turn("legacy-billing will run on md5 from 2024-06-30 until 2024-07-17: it needs an exception. Adding that, and the first free Sunday after the freeze as fallback.", r"""
(def plan
  (-> plan
      (assoc-in [2 :note] "needs a SEC-12 exception for md5 from 2024-06-30 until the rollout")
      (conj {:step 8 :date "2024-09-15" :owner "Priya Raman" :team "dba"
             :what "fallback window if 2024-08-18 is cancelled" :closes []})))
(println (map (juxt :step :date) plan))
""")

s.turn("Does every blocker of the epic get closed by a step?", r"""
(def closed (set (mapcat :closes plan)))
(println "not closed by the plan:" (remove closed (map :id blockers)))
""")

s.turn("PLAT-877 is already done, like INFRA-5120 (staging). I'll record them as prerequisites met on the rehearsal step.", r"""
(def plan (assoc-in plan [3 :prerequisites-done] ["PLAT-877" "INFRA-5120"]))
(println (plan 3))
""")

s.turn("Is my ANALYZE estimate consistent with the guide's budget of about 1 hour for 2 TB?", r"""
(println "retro rate:" (* 40 2.1) "min; guide rate:" (* 60 (/ 2.1 2)) "min")
""")

s.turn("The retro rate (84 min) is the more conservative; I keep it. Final overview of dates and owners:", r"""
(println (map (juxt :date :owner :closes) plan))
""")

s.turn("The plan is complete.", r"""
(return {:cluster "pg-orders"
         :window "2024-08-18 02:00-06:00 UTC"
         :fallback "2024-09-15"
         :epic "DBA-2291"
         :blockers (mapv #(select-keys % [:id :team :assignee :status]) blockers)
         :estimated-minutes (reduce + (vals window-minutes))
         :extensions {"timescaledb" "2.3.1: drop (DBA-2292)"
                      "pg_partman" "4.7.4 -> 5.1.0 (DBA-2301)"
                      "pglogical" "2.4.1 -> 2.4.4, slot analytics_cdc re-created (DATA-733)"}
         :sources ["DOC-4520" "DOC-4471" "DOC-4388" "DOC-4415" "DOC-4602"]
         :steps plan})
""", "return")

if __name__ == "__main__":
    s.write(__file__)
