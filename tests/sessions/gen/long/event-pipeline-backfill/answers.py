#!/usr/bin/env python3
"""The model answers of the event-pipeline-backfill session.
Run ids, offsets, event ids, schema ids, DLQ offsets, hours, job ids and
owners the agent reuses are taken from world.py (and tool.py's numbering),
as the model takes them from the prints of earlier turns. Two corrections,
each after the old value was printed: partition 4's lost offsets are first
taken to end at generation 59's resume offset (`p4-range` [B, C)), and,
once the events after C turn out to be missing too and the log shows the
closed writer failing until generation 60, redefined as [B, E); the gap
hours are first written in UTC, as the topic counts them (`gap-hours`), and
redefined in the warehouse's Europe/Berlin buckets once the table's page
says so. The backfills, the incident and the result use only the corrected
values."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # gen/long/
sys.path.append(HERE)
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()

# --- what the agent sees, mirrored to write the literals it copies -------------------------

RUN_B = w.RUN_B
B, C, E = w.B, w.C, w.E
Q0, Q1 = w.Q0, w.Q1
P4_JOB_ARGS = {"topic": w.TOPIC, "partition": 4, "start_offset": B, "end_offset": E, "table": w.TABLE,
               "mode": "insert-missing"}
DLQ_JOB_ARGS = {"topic": w.DLQ, "partition": 0, "start_offset": Q0, "end_offset": Q1, "table": w.TABLE,
                "mode": "insert-missing"}
P4_JOB = t.job_id(t.spec_of(P4_JOB_ARGS))
DLQ_JOB = t.job_id(t.spec_of(DLQ_JOB_ARGS))
INCIDENT_TITLE = "orders.v2.created -> analytics.orders_created: 17,708 orders lost on 2024-11-03 and 2024-11-04"
INCIDENT = "DATAINC-%d" % (311 + t.crc(INCIDENT_TITLE) % 40)

DLQ_LAST = Q1 - 1
FIRST_DLQ = t.read_messages({"topic": w.DLQ, "partition": 0, "offset": w.DLQ_LOG_START, "limit": 8})["messages"]
FIRST_INC = next(m for m in FIRST_DLQ if m["offset"] == Q0)
DLQ_IDS = [m["value"]["event_id"] for m in FIRST_DLQ if m["offset"] >= Q0][:2]
# a v7 message of partition 0 just before the change, to compare payloads
V7_OFF = w.SCHEMA_LOST[0][0] - 1
LOCAL_GAPS = ["2024-11-03 17:00", "2024-11-03 18:00", "2024-11-03 19:00",
              "2024-11-04 10:00", "2024-11-04 11:00", "2024-11-04 12:00", "2024-11-04 13:00"]
UTC_GAPS = ["2024-11-03T16:00:00Z", "2024-11-03T17:00:00Z", "2024-11-03T18:00:00Z",
            "2024-11-04T09:00:00Z", "2024-11-04T10:00:00Z", "2024-11-04T11:00:00Z", "2024-11-04T12:00:00Z"]
assert [h["event_hour"] for h in t.backfill_status({"job_id": P4_JOB})["inserted_by_hour"]] == LOCAL_GAPS[:3]
assert [h["event_hour"] for h in t.backfill_status({"job_id": DLQ_JOB})["inserted_by_hour"]] == LOCAL_GAPS[3:]
assert E - B + Q1 - Q0 == 17708, E - B + Q1 - Q0

# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the finance ticket and the topics on the cluster.", r'''
(println data/ticket)
(def topics (tool/topics {}))
(doseq [t topics]
  (println (format "%-24s %d partitions %4dh  owner %-28s groups: %s" (:topic t) (:partitions t)
                   (:retention_hours t) (:owner t) (str/join ", " (:consumer_groups t)))))
''')

s.turn("The order events are in orders.v2.created, read by wh-loader (and a canary). Its partitions and consumer groups:", r'''
(def orders-topic (tool/topics {:topic "orders.v2.created"}))
(println "cluster" (:cluster orders-topic) "as of" (:as_of orders-topic))
(doseq [p (:partitions orders-topic)]
  (println (format "p%d  %-38s log start %9d  end %9d" (:partition p) (:leader p) (:log_start_offset p) (:end_offset p))))
(doseq [g (:consumer_groups orders-topic)]
  (println (format "%-17s %-7s gen %3d members %d total lag %,9d" (:group g) (:state g) (:generation g) (:members g) (:total_lag g))))
''')

s.turn("wh-loader is caught up (lag in the hundreds), while wh-loader-canary has no members and 765k lag. The loader's runbook first:", r'''
(def runbook (tool/wiki {:page "runbooks/orders-wh-loader"}))
(println "updated" (:updated runbook) "by" (:updated_by runbook))
(println (:body runbook))
''')

s.turn("The canary is paused on purpose (DATA-2240). Confirming it is not writing anything:", r'''
(def canary-runs (tool/job-runs {:job "orders-wh-loader-canary"}))
(doseq [r (:runs canary-runs)]
  (println (:run_id r) (:status r) (:image r) "paused at" (:paused_at r) "|" (:pause_reason r)))
(def canary-counts (tool/warehouse-counts {:table "analytics_canary.orders_created" :date "2024-11-03"}))
(println "analytics_canary.orders_created on 2024-11-03:" (:total canary-counts) "rows")
''')

s.turn("A dead end, as the runbook says. Now the topic's daily counts against the table's, for the four days of the ticket:", r'''
(def days ["2024-11-02" "2024-11-03" "2024-11-04" "2024-11-05"])
(def topic-days (into {} (pmap (fn [d] [d (tool/topic-hourly {:topic "orders.v2.created" :date d})]) days)))
(def wh-days (into {} (pmap (fn [d] [d (tool/warehouse-counts {:table "analytics.orders_created" :date d})]) days)))
(println "date        topic  warehouse     diff      pct")
(doseq [d days]
  (let [tp (:total (topic-days d)) wh (:total (wh-days d))]
    (println (format "%s %7d %10d %8d %7.2f%%" d tp wh (- wh tp) (* 100.0 (/ (- wh tp) tp))))))
''')

s.turn("11-03 and 11-04 are short by thousands. 11-02 and 11-05 are a few hundred off in both directions, and my topic totals are not the order service's totals in the ticket either; probably events near midnight, I'll come back to it. The table's hours on the two bad days, with 11-05 for reference:", r'''
(println "event_hour (11-04)  11-03  11-04  11-05")
(doseq [i (range 24)]
  (let [row (fn [d] (:rows (nth (:rows (wh-days d)) i)))]
    (println (:event_hour (nth (:rows (wh-days "2024-11-04")) i))
             (format "  %6d %6d %6d" (row "2024-11-03") (row "2024-11-04") (row "2024-11-05")))))
''')

s.turn("On 11-04 the hours 11:00 and 12:00 are empty and 10:00 and 13:00 low. On 11-03 nothing is empty, so it may be one partition; the table by partition for that afternoon:", r'''
(def wh-1103-parts (tool/warehouse-counts {:table "analytics.orders_created" :date "2024-11-03" :by "partition"}))
(doseq [[h rows] (sort-by key (group-by :event_hour (:rows wh-1103-parts)))
        :when (<= 14 (parse-long (subs h 11 13)) 21)]
  (println h (str/join " " (map #(format "p%d %5d" (:partition %) (:rows %)) (sort-by :partition rows)))))
''')

s.turn("Partition 4 is nearly empty at 18:00 and short at 17:00 and 19:00; the other five look normal. The loader's runs:", r'''
(def runs (tool/job-runs {:job "orders-wh-loader"}))
(doseq [r (:runs runs)]
  (println (:run_id r) (format "%-10s" (:status r)) (:started r) "->" (or (:ended r) "now") (last (str/split (:image r) #"/"))
           "dlq" (:dlq_records r) "restarts" (pr-str (:restarts r))))
''')

s.turn(fill("Run <<RUN>> (2.14.1) covers both days and had a pod OOMKilled on 2024-11-03 at 16:52:07Z, back at 18:21:09Z. Its errors that day:", RUN=RUN_B), fill(r'''
(def errors-1103 (tool/job-logs {:run_id "<<RUN>>" :since "2024-11-03T00:00:00Z"
                                 :until "2024-11-04T00:00:00Z" :level "ERROR"}))
(println (:matched errors-1103) "error lines")
(doseq [l (:lines errors-1103)]
  (println l))
''', RUN=RUN_B))

s.turn("After the OOM, pod -0 took partition 4 over and its writer for it was closed: batches failed and were skipped. Everything about partition 4 around it:", fill(r'''
(def p4-log (tool/job-logs {:run_id "<<RUN>>" :since "2024-11-03T16:45:00Z"
                            :until "2024-11-03T17:40:00Z" :grep "partition=4"}))
(println (:matched p4-log) "lines, truncated:" (:truncated p4-log))
(doseq [l (:lines p4-log)]
  (println l))
''', RUN=RUN_B))

s.turn("The failures start at the committed offset of generation 58 and stop with the rebalance of generation 59, which resumed partition 4 further on. The range between the two resume lines:", r'''
(def resumes (filter #(str/includes? % "event=resume") (:lines p4-log)))
(def p4-start (second (re-find #"offset=(\d+)" (first resumes))))
(def p4-end (second (re-find #"offset=(\d+)" (last resumes))))
(println "partition 4 lost" p4-start ".." p4-end "=" (- p4-end p4-start) "events")
''', "type")

s.turn(fill("The offsets came out as strings. From the two resume lines: generation 58 resumed at <<B>>, generation 59 at <<C>>.", B=B, C=C), fill(r'''
(def p4-range [<<B>> <<C>>])
(println "partition 4: offsets" (first p4-range) "to" (dec (second p4-range)) "=" (- (second p4-range) (first p4-range))
         "events, 2024-11-03T16:52:02Z to 17:36:40Z")
''', B=B, C=C))

s.turn("Checking the edges against the table before I trust it: the two events before the range and the three at its end.", fill(r'''
(def before-gap (tool/read-messages {:topic "orders.v2.created" :partition 4 :offset <<B2>> :limit 2}))
(def after-gap (tool/read-messages {:topic "orders.v2.created" :partition 4 :offset <<C>> :limit 3}))
(prn (first (:messages before-gap)))
(def edge-msgs (concat (:messages before-gap) (:messages after-gap)))
(def edge-check (tool/warehouse-lookup {:table "analytics.orders_created"
                                        :event_ids (mapv #(get-in % [:value :event_id]) edge-msgs)}))
(doseq [m edge-msgs]
  (let [hit (first (filter #(= (:event_id %) (get-in m [:value :event_id])) (:events edge-check)))]
    (println (:offset m) (:timestamp m) (get-in m [:value :event_id])
             (if (:found hit) (str "loaded, event_hour " (:event_hour hit)) "MISSING"))))
''', B2=B - 2, C=C))

s.turn(fill("The events from <<C>> on are missing too: the gap did not end at generation 59. Partition 4's log after that rebalance:", C=C), fill(r'''
(def p4-log-after (tool/job-logs {:run_id "<<RUN>>" :since "2024-11-03T17:36:00Z"
                                  :until "2024-11-03T19:00:00Z" :grep "partition=4"}))
(doseq [l (:lines p4-log-after)]
  (println l))
''', RUN=RUN_B))

s.turn(fill("Generation 59 left partition 4 on wh-loader-7c9d5-0 (sticky assignment), with the same closed writer; the failures go on until generation 60 moved it to the restarted -2 at <<E>>. The range is <<B>>..<<E>>; checking that end too:", B=B, E=E), fill(r'''
(def p4-range-gen59 p4-range)
(def p4-range [<<B>> <<E>>])
(def end-msgs (:messages (tool/read-messages {:topic "orders.v2.created" :partition 4 :offset <<E1>> :limit 2})))
(def end-check (tool/warehouse-lookup {:table "analytics.orders_created"
                                       :event_ids (mapv #(get-in % [:value :event_id]) end-msgs)}))
(doseq [[m e] (map vector end-msgs (:events end-check))]
  (println (:offset m) (:timestamp m) (:event_id e) (if (:found e) "loaded" "MISSING")))
(println "partition 4 lost" (first p4-range) ".." (dec (second p4-range)) "=" (- (second p4-range) (first p4-range))
         "events (not" (- (second p4-range-gen59) (first p4-range-gen59)) "as I first had)")
''', B=B, E=E, E1=E - 1))

s.turn("In which hours of the topic those offsets were written:", r'''
(def p4-hours (tool/topic-hourly {:topic "orders.v2.created" :date "2024-11-03" :partition 4}))
(doseq [h (:hours p4-hours)
        :let [[a b] p4-range
              lost (max 0 (- (min b (inc (:last_offset h))) (max a (:first_offset h))))]
        :when (pos? lost)]
  (println (:hour h) (:first_offset h) "-" (:last_offset h) (format "%5d messages, %5d lost" (:messages h) lost)))
''')

s.turn("Now 11-04. The warnings of the same run that morning:", fill(r'''
(def warn-1104 (tool/job-logs {:run_id "<<RUN>>" :since "2024-11-04T09:00:00Z"
                               :until "2024-11-04T13:00:00Z" :level "WARN" :limit 10}))
(println (:matched warn-1104) "warnings, showing" (:returned warn-1104))
(doseq [l (:lines warn-1104)]
  (println l))
(doseq [l (:lines (tool/job-logs {:run_id "<<RUN>>" :since "2024-11-04T00:00:00Z"
                                  :until "2024-11-05T00:00:00Z" :grep "schema_seen"}))]
  (println l))
''', RUN=RUN_B))

s.turn("From 09:42:31Z every event went to the DLQ with a null customer_id, right after the loader saw schema id 1047 (version 8); version 9 (id 1052) arrived at 12:17:04Z. The subject's versions:", r'''
(def subject (tool/schema-registry {:subject "orders.v2.created-value"}))
(println (:subject subject) "compatibility" (:compatibility subject))
(doseq [v (:versions subject)]
  (println (format "v%d id %4d %s %-26s %s" (:version v) (:schema_id v) (:registered_at v) (:registered_by v) (:note v))))
''')

s.turn("Version 8 renamed customer.id, which the loader still reads with version 7 (id 1031). The diffs 7 -> 8 and 8 -> 9:", r'''
(doseq [[from to] [[7 8] [8 9]]]
  (let [d (tool/schema-registry {:subject "orders.v2.created-value" :version to :compare_to from})]
    (println (str "v" from " (" (:from_schema_id d) ") -> v" to " (" (:to_schema_id d) ")"))
    (doseq [c (:diff d)]
      (println "  " (case (:change c) "added" "+" "removed" "-" "~") (:field c) (or (:type c) (str (:from c) " -> " (:to c)))))))
''')

s.turn("The rejected events should all be in orders.v2.created.dlq. Its first messages:", r'''
(def dlq-head (tool/read-messages {:topic "orders.v2.created.dlq" :partition 0 :offset 0 :limit 10}))
(println (:next_offset dlq-head))
''', "tool")

s.turn("The DLQ starts at 40512 (14 days of retention). From there:", r'''
(def dlq-head (tool/read-messages {:topic "orders.v2.created.dlq" :partition 0 :offset 40512 :limit 8}))
(doseq [m (:messages dlq-head)]
  (let [h (:headers m)]
    (println (:offset m) (:timestamp m) (str "p" (get h :x-source-partition) "@" (get h :x-source-offset))
             "schema" (get h :x-schema-id) "|" (get h :x-error))))
(prn (:value (first (filter #(= "1047" (get-in % [:headers :x-schema-id])) (:messages dlq-head)))))
''')

s.turn(fill("Six older malformed events, then the incident from offset <<Q0>>. A version-7 event of partition 0 just before the change, to compare with the version-8 one above:", Q0=Q0), fill(r'''
(def v7-msg (first (:messages (tool/read-messages {:topic "orders.v2.created" :partition 0 :offset <<V7>> :limit 1}))))
(def v8-msg (first (filter #(= <<Q0>> (:offset %)) (:messages dlq-head))))
(println "v7:" (:timestamp v7-msg) (pr-str (get-in v7-msg [:value :customer])) "schema-id" (get-in v7-msg [:headers :schema-id]))
(println "v8:" (:timestamp v8-msg) (pr-str (get-in v8-msg [:value :customer])) "schema-id" (get-in v8-msg [:headers :x-schema-id]))
(println "keys only in v7:" (remove (set (keys (get-in v8-msg [:value :customer]))) (keys (get-in v7-msg [:value :customer]))))
''', V7=V7_OFF, Q0=Q0))

s.turn("Now the end of the incident in the DLQ, reading back from its end offset:", r'''
(def dlq-info (tool/topics {:topic "orders.v2.created.dlq"}))
(def dlq-end (:end_offset (first (:partitions dlq-info))))
(def dlq-tail (tool/read-messages {:topic "orders.v2.created.dlq" :partition 0 :offset (- dlq-end 8) :limit 8}))
(println "end offset" dlq-end)
(doseq [m (:messages dlq-tail)]
  (println (:offset m) (:timestamp m) (str "p" (get-in m [:headers :x-source-partition])) "schema" (get-in m [:headers :x-schema-id])
           "|" (get-in m [:headers :x-error])))
''')

s.turn(fill("The last rejected event is <<L>> at 12:17:03Z; after it, the usual malformed ones. The DLQ range of the incident and its size:", L=DLQ_LAST), fill(r'''
(def dlq-range [<<Q0>> <<Q1>>])
(println "DLQ offsets" (first dlq-range) ".." (dec (second dlq-range)) "=" (- (second dlq-range) (first dlq-range)) "events")
(println "run dlq_records" (:dlq_records (second (:runs runs))) "= incident + malformed ones during the run:"
         (- (:dlq_records (second (:runs runs))) (- (second dlq-range) (first dlq-range))))
(def dlq-check (tool/warehouse-lookup {:table "analytics.orders_created" :event_ids [<<IDS>>]}))
(println "in the table:" (:found dlq-check) "of" (count (:events dlq-check)))
''', Q0=Q0, Q1=Q1, IDS=" ".join('"%s"' % x for x in DLQ_IDS)))

s.turn("How long each window lasted, in minutes:", r'''
(def windows {:rebalance ["2024-11-03T16:52:02Z" "2024-11-03T18:21:15Z"]
              :schema ["2024-11-04T09:42:31Z" "2024-11-04T12:17:04Z"]})
(doseq [[k [a b]] windows]
  (println k a b (/ (- (inst-ms b) (inst-ms a)) 60000.0)))
''', "unbound_symbol")

s.turn("No inst-ms; seconds of the day from the string, both windows are within one day. Then the gap hours, from the windows' hours:", r'''
(defn day-seconds [ts]
  (+ (* 3600 (parse-long (subs ts 11 13))) (* 60 (parse-long (subs ts 14 16))) (parse-long (subs ts 17 19))))
(def windows {:rebalance ["2024-11-03T16:52:02Z" "2024-11-03T18:21:15Z"]
              :schema ["2024-11-04T09:42:31Z" "2024-11-04T12:17:04Z"]})
(doseq [[k [a b]] windows]
  (println k a "->" b (format "%.1f min" (/ (- (day-seconds b) (day-seconds a)) 60.0))))
(def gap-hours ["2024-11-03T16:00:00Z" "2024-11-03T17:00:00Z" "2024-11-03T18:00:00Z"
                "2024-11-04T09:00:00Z" "2024-11-04T10:00:00Z" "2024-11-04T11:00:00Z" "2024-11-04T12:00:00Z"])
(println "gap hours:" (str/join ", " gap-hours))
''')

s.turn("Before going on, the table at these hours against the topic, to size the gap per hour:", r'''
(defn wh-label [h] (str (subs h 0 10) " " (subs h 11 16)))
(doseq [h gap-hours]
  (let [d (subs h 0 10)
        tp (:messages (first (filter #(= h (:hour %)) (:hours (topic-days d)))))
        wh (:rows (first (filter #(= (wh-label h) (:event_hour %)) (:rows (wh-days d)))))]
    (println h (format "topic %5d  table %5d  %+6d" tp wh (- wh tp)))))
''')

s.turn("That does not fit. The DLQ took about 460 events every 5 minutes from 09:42Z, so 09:00 should be short by some 1,600, not 425; 11-03 16:00 should be short by the 8 minutes of partition 4 after 16:52, about 190, not 912; and the table's 13:00 was short (turn 6) although the DLQ stopped at 12:17Z. As if the table's hours were one later than the topic's. The table's page:", r'''
(def table-page (tool/wiki {:page "tables/analytics.orders_created"}))
(println "updated" (:updated table-page) "by" (:updated_by table-page))
(println (:body table-page))
''')

s.turn("event_hour is in Europe/Berlin time, UTC+1 since 2024-10-27: the gap hours must be the table's buckets, one hour later than the topic's. Redefining them, with a helper to go from a topic hour to a table bucket:", r'''
(defn local-hour [utc-hour offset-h]
  (let [h (+ (parse-long (subs utc-hour 11 13)) offset-h)]
    (str (subs utc-hour 0 10) " " (format "%02d:00" h))))
(def gap-hours-utc gap-hours)
(def gap-hours ["2024-11-03 17:00" "2024-11-03 18:00" "2024-11-03 19:00"
                "2024-11-04 10:00" "2024-11-04 11:00" "2024-11-04 12:00" "2024-11-04 13:00"])
(println "gap hours (event_hour, Europe/Berlin):" (str/join ", " gap-hours))
(println "check:" (= gap-hours (mapv #(local-hour % 1) gap-hours-utc)))
''')

s.turn("The per-hour comparison again, each bucket against the topic hour it holds:", r'''
(doseq [h gap-hours-utc]
  (let [d (subs h 0 10)
        tp (:messages (first (filter #(= h (:hour %)) (:hours (topic-days d)))))
        wh (:rows (first (filter #(= (local-hour h) (:event_hour %)) (:rows (wh-days d)))))]
    (println (local-hour h) "<-" h (format "topic %5d  table %5d  %+6d" tp wh (- wh tp)))))
''', "arity")

s.turn("local-hour takes the offset too.", r'''
(def hour-gaps
  (vec (for [h gap-hours-utc]
         (let [d (subs h 0 10)
               tp (:messages (first (filter #(= h (:hour %)) (:hours (topic-days d)))))
               wh (:rows (first (filter #(= (local-hour h 1) (:event_hour %)) (:rows (wh-days d)))))]
           {:event_hour (local-hour h 1) :utc h :topic tp :table wh :missing (- tp wh)}))))
(doseq [g hour-gaps]
  (println (:event_hour g) "<-" (:utc g) (format "topic %5d  table %5d  missing %5d" (:topic g) (:table g) (:missing g))))
(println "missing on 11-03:" (reduce + (map :missing (take 3 hour-gaps))) "| on 11-04:" (reduce + (map :missing (drop 3 hour-gaps))))
''')

s.turn("The per-bucket shortfalls add up exactly to the partition 4 range and the DLQ range. And the days, now as Berlin days (the ticket's and the dashboard's): the topic's UTC hours shifted by one, 23:00Z into the next day:", r'''
(def topic-1101 (tool/topic-hourly {:topic "orders.v2.created" :date "2024-11-01"}))
(def topic-hours (vec (concat (:hours topic-1101) (mapcat #(:hours (topic-days %)) days))))
(def next-day (zipmap ["2024-11-01" "2024-11-02" "2024-11-03" "2024-11-04" "2024-11-05"]
                      ["2024-11-02" "2024-11-03" "2024-11-04" "2024-11-05" "2024-11-06"]))
(defn berlin-day [utc-hour]
  (if (= "23" (subs utc-hour 11 13)) (next-day (subs utc-hour 0 10)) (subs utc-hour 0 10)))
(def topic-local-days
  (reduce (fn [m h] (update m (berlin-day (:hour h)) (fnil + 0) (:messages h))) {} topic-hours))
(doseq [d days]
  (let [tp (topic-local-days d) wh (:total (wh-days d))]
    (println d (format "topic %6d  table %6d  missing %5d  %5.2f%%  order service %6d" tp wh (- tp wh)
                       (* 100.0 (/ (- tp wh) tp)) (:order_service (first (filter #(= d (:date %)) (:daily data/ticket))))))))
''')

s.prose(fill("""Where this stands:

- 2024-11-03: pod wh-loader-7c9d5-2 was OOMKilled at 16:52:07Z. At the rebalance (generation 58) wh-loader-7c9d5-0 took partition 4 with a writer closed since generation 55; with on_error=skip every batch failed and was skipped while the offsets were committed. Generation 59 kept partition 4 on the same pod; generation 60 (18:21:15Z) ended it. Lost: partition 4, offsets <<B>>..<<E1>> (2247 events), buckets 17:00-19:00 Berlin.
- 2024-11-04: the order service moved to schema version 8 (id 1047) at 09:42:31Z, renaming customer.id; the loader reads with version 7 (id 1031), so customer_id was null and all 15461 events went to the DLQ (offsets <<Q0>>..<<QL>>) until version 9 (id 1052) at 12:17:04Z. Buckets 10:00-13:00 Berlin.
- The small differences on 11-02 and 11-05 were my UTC days; in Berlin days they are 0, as in the ticket.

Next: the backfill runbook, then one job per range, then the incident.""", B=B, E1=E - 1, Q0=Q0, QL=Q1 - 1))

s.turn("The backfill runbook:", r'''
(def backfill-page (tool/wiki {:page "runbooks/backfill"}))
(println (:body backfill-page))
''')

s.turn("Partition 4 first: insert-missing from the topic, the three Berlin buckets of 11-03 to verify, approved by the owner.", fill(r'''
(def p4-job (tool/backfill-create {:topic "orders.v2.created" :partition 4
                                   :start_offset (first p4-range) :end_offset (second p4-range)
                                   :table "analytics.orders_created" :mode "insert-missing"
                                   :verify_hours (vec (take 3 gap-hours))
                                   :approved_by "<<WRONG>>"
                                   :reason "DATA-2291: partition 4 lost after the wh-loader rebalance of 2024-11-03"}))
(println p4-job)
''', WRONG=w.HOFMANN), "tool")

s.turn(fill("<<WRONG>> is Lena Hofmann of the orders team, who owns the topic; the table is Lena Hoffmann's (<<RIGHT>>), as the table page says.", WRONG=w.HOFMANN, RIGHT=w.HOFFMANN), fill(r'''
(def p4-job (tool/backfill-create {:topic "orders.v2.created" :partition 4
                                   :start_offset (first p4-range) :end_offset (second p4-range)
                                   :table "analytics.orders_created" :mode "insert-missing"
                                   :verify_hours (vec (take 3 gap-hours))
                                   :approved_by "<<RIGHT>>"
                                   :reason "DATA-2291: partition 4 lost after the wh-loader rebalance of 2024-11-03"}))
(println (:job_id p4-job) (:status p4-job) (:offsets p4-job) "offsets" (:start_offset p4-job) ".." (:end_offset p4-job))
(println (:staging_uri p4-job))
''', RIGHT=w.HOFFMANN))

s.turn("And the DLQ range, read with the writer schema of those events (1047, from x-schema-id):", fill(r'''
(def dlq-job (tool/backfill-create {:topic "orders.v2.created.dlq" :partition 0
                                    :start_offset <<Q0>> :end_offset <<Q1>>
                                    :table "analytics.orders_created" :mode "insert-missing"
                                    :reader_schema_id 1047
                                    :verify_hours (vec (drop 3 gap-hours))
                                    :approved_by "<<RIGHT>>"
                                    :reason "DATA-2291: events rejected to the DLQ after schema v8 on 2024-11-04"}))
(println (:job_id dlq-job) (:status dlq-job) (:offsets dlq-job) "offsets, reader schema" (:reader_schema_id dlq-job))
(println (:staging_uri dlq-job))
''', Q0=Q0, Q1=Q1, RIGHT=w.HOFFMANN))

s.turn("Both queued. Their status:", fill(r'''
(def statuses (mapv #(tool/backfill-status {:job_id %}) ["<<P4J>>" "<<DLQJ>>"]))
(doseq [st statuses]
  (println (:job_id st) (:status st) (:topic st) (str "p" (:partition st)) "read" (:rows_read st) "inserted" (:rows_inserted st)
           "skipped" (:rows_skipped_existing st) "rejected" (:rows_rejected st) (str (:duration_s st) "s"))
  (doseq [h (:inserted_by_hour st)]
    (println "   " (:event_hour h) (:rows h))))
''', P4J=P4_JOB, DLQJ=DLQ_JOB))

s.turn("Do the inserted rows land exactly in the gap buckets, as many as were missing?", r'''
(def inserted (into {} (for [st statuses h (:inserted_by_hour st)] [(:event_hour h) (:rows h)])))
(println "buckets match:" (= (set (keys inserted)) (set gap-hours)))
(doseq [g hour-gaps]
  (println (:event_hour g) "missing" (:missing g) "inserted" (inserted (:event_hour g)) (if (= (:missing g) (inserted (:event_hour g))) "ok" "DIFF")))
(println "total inserted" (reduce + (vals inserted)) "of" (reduce + (map :missing hour-gaps)))
''')

s.turn("All 17708 back. The incident text, for the audit file the ticket asks for:", fill(r'''
(def incident-summary
  (str/join "\n"
    ["Two losses between orders.v2.created and analytics.orders_created (DATA-2291):"
     (format (str "1. %s: %s OOMKilled (memory_limit=2Gi) in run %s. At the rebalance (generation 58) %s took partition 4 "
                  "with a writer closed since generation 55; with on_error=skip every batch was skipped while offsets were committed. "
                  "Generation 59 kept the partition on the same pod; generation 60 (%s) ended it. Lost: partition 4, offsets %d..%d (%d events).")
             "2024-11-03T16:52:07Z" "wh-loader-7c9d5-2" "<<RUN>>" "wh-loader-7c9d5-0" "2024-11-03T18:21:15Z"
             <<B>> <<E1>> 2247)
     (format (str "2. %s: %s version 8 (schema id %d) renamed customer.id to customer.customer_ref; the loader reads with version 7 "
                  "(id %d), customer_id was null and %d events went to %s (offsets %d..%d) until version 9 (id %d) at %s.")
             "2024-11-04T09:42:31Z" "orders.v2.created-value" 1047 1031 15461 "orders.v2.created.dlq" <<Q0>> <<QL>> 1052
             "2024-11-04T12:17:04Z")
     (str "Gap hours (event_hour, Europe/Berlin): " (str/join ", " gap-hours))
     (format "Backfills: %s (partition 4, %d rows), %s (DLQ, %d rows), both succeeded." "<<P4J>>" 2247 "<<DLQJ>>" 15461)]))
(println incident-summary)
''', RUN=RUN_B, B=B, E1=E - 1, Q0=Q0, QL=Q1 - 1, P4J=P4_JOB, DLQJ=DLQ_JOB))

INCIDENT_HEAD = fill(r'''
(def incident
  (tool/incident-create
    {:title "<<TITLE>>"
     :severity "SEV-2"
     :owner "<<RIGHT>>"
     :summary incident-summary
''', TITLE=INCIDENT_TITLE, RIGHT=w.HOFFMANN)

s.cut("17708 lost events is SEV-2 by the runbook. Opening it for the loader's owner, with follow-ups for both causes:",
      INCIDENT_HEAD.lstrip("\n") + fill(r'''     :backfill_jobs ["<<P4J>>" "<<DLQJ>>"]
     :follow_ups [{:owner "<<RIGHT>>" :action "wh-loader: re-open partition writers on reassignment; on_error=skip must not commit"}
                  {:owner "<<WRONG>>" :action "order-service: schema changes of orders.v2.created-value need''', P4J=P4_JOB,
                                        DLQJ=DLQ_JOB, RIGHT=w.HOFFMANN, WRONG=w.HOFMANN))

s.turn("Cut off; the incident again:", INCIDENT_HEAD + fill(r'''     :backfill_jobs ["<<P4J>>" "<<DLQJ>>"]
     :follow_ups [{:owner "<<RIGHT>>" :action "wh-loader: re-open partition writers on reassignment; on_error=skip must not commit offsets"}
                  {:owner "<<RIGHT>>" :action "wh-loader: raise memory_limit above 2Gi (done in 2.14.2?)"}
                  {:owner "<<WRONG>>" :action "order-service: announce schema changes of orders.v2.created-value to consumers; no field renames without an alias"}
                  {:owner "<<RIGHT>>" :action "DATA-1182: move event_hour to UTC or name the time zone in the column"}]
     :links ["DATA-2291" "DATA-1182" "https://grafana.qm.internal/d/wh-loader"
             "s3://qm-backfill-staging/analytics/orders_created/<<P4J>>/"
             "s3://qm-backfill-staging/analytics/orders_created/<<DLQJ>>/"]}))
(println (:key incident) (:url incident) (:severity incident) (:status incident) (:owner incident))
''', P4J=P4_JOB, DLQJ=DLQ_JOB, RIGHT=w.HOFFMANN, WRONG=w.HOFMANN))

s.turn("Done. The summary:", fill(r'''
(return
  {:ticket "DATA-2291"
   :incident "<<INC>>"
   :backfill-jobs [{:job_id "<<P4J>>" :source "orders.v2.created" :partition 4 :offsets [<<B>> <<E>>] :rows 2247}
                   {:job_id "<<DLQJ>>" :source "orders.v2.created.dlq" :partition 0 :offsets [<<Q0>> <<Q1>>] :rows 15461
                    :reader_schema_id 1047}]
   :gap-hours gap-hours
   :gap-hours-timezone "Europe/Berlin (event_hour)"
   :lost {"2024-11-03" 2247 "2024-11-04" 15461 :total 17708}
   :root-causes [{:date "2024-11-03" :cause "rebalance after wh-loader-7c9d5-2 was OOMKilled: partition 4's writer on wh-loader-7c9d5-0 was closed, batches skipped (on_error=skip) from generation 58 to 60"
                  :run_id "<<RUN>>" :partition 4 :window ["2024-11-03T16:52:02Z" "2024-11-03T18:21:15Z"]}
                 {:date "2024-11-04" :cause "schema v8 (id 1047) renamed customer.id; the loader reads v7 (id 1031), null customer_id rejected to the DLQ until v9 (id 1052)"
                  :window ["2024-11-04T09:42:31Z" "2024-11-04T12:17:04Z"]}]
   :owners {:loader "<<RIGHT>>" :producer "<<WRONG>>" :escalation "tobias.krueger@quillmart.io"}
   :pipeline {:cluster "kafka-prod-eu1" :consumer-group "wh-loader" :job "orders-wh-loader"
              :current-run "<<RUNC>>" :current-image "wh-loader:2.14.2"}
   :not-a-cause {:group "wh-loader-canary" :lag 765278 :paused-at "2024-10-30T08:00:12Z" :ticket "DATA-2240"}})
''', INC=INCIDENT, P4J=P4_JOB, DLQJ=DLQ_JOB, B=B, E=E, Q0=Q0, Q1=Q1, RUN=RUN_B, RUNC=w.RUN_C, RIGHT=w.HOFFMANN,
    WRONG=w.HOFMANN),
       "return")

if __name__ == "__main__":
    s.write(__file__)
