import random

rnd = random.Random(100)
SENSORS = [("S-01", "lab", 1), ("S-02", "lab", 1), ("S-03", "office", 2), ("S-04", "office", 2),
           ("S-05", "server room", 0), ("S-06", "lobby", 0), ("S-07", "greenhouse", 3), ("S-08", "storage", 0)]
BASE = {"S-01": (21.0, 40), "S-02": (21.5, 42), "S-03": (22.0, 38), "S-04": (22.5, 37), "S-05": (26.0, 30),
        "S-06": (20.0, 45), "S-07": (24.0, 68), "S-08": (18.5, 50)}
recs = []
for h in range(40):
    ts = "2024-06-%02dT%02d:00" % (1 + h // 24, h % 24)
    for sid, _, _ in SENSORS:
        t0, h0 = BASE[sid]
        temp = round(t0 + 2.0 * (1 if 10 <= h % 24 <= 17 else 0) + rnd.uniform(-1.5, 1.5), 1)
        hum = h0 + rnd.randint(-6, 6)
        ok = not (sid == "S-08" and h in (7, 8, 9))
        recs.append('{:sensor "%s" :ts "%s" :temp %r :humidity %d :ok %s}' % (sid, ts, temp, hum, "true" if ok else "false"))

TOOL_IMPL = '''
{"get-thresholds" (fn [_] {:temp_max 27.5 :humidity_max 70 :updated "2024-05-20"})}
'''

SESSION = {
    "agent": "sensor-monitor",
    "mission": "Check the 40 hours of sensor readings in data/readings against the alert thresholds, compute per-sensor "
               "statistics, and return the number of alerts, the sensors that triggered them (with their room), and the hottest sensor.",
    "max_turns": 12,
    "tools": [{"name": "get-thresholds", "signature": "-> {temp_max :float, humidity_max :int, updated :string}",
               "description": "Current alert thresholds for all sensors"}],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"get-thresholds": [8, 20]},
    "seed": 4,
    "data": {"readings": "[" + " ".join(recs) + "]",
             "sensors": "[" + " ".join('{:id "%s" :room "%s" :floor %d}' % s for s in SENSORS) + "]"},
    "turns": [
        T("Let me check the size and shape of the readings.",
          "(count data/readings)\n(first data/readings)"),
        T("I'll keep the readings in memory and add a Fahrenheit column, some reports need it.",
          "(def readings (vec data/readings))\n(def enriched (mapv #(assoc % :temp_f (+ 32 (* 1.8 (:temp %)))) readings))"),
        T("Now the thresholds.",
          "(def thresholds (tool/get-thresholds))"),
        T("Readings above either threshold are alerts. Also drop readings flagged as not ok.",
          "(def valid (filterv :ok readings))\n(def alerts\n  (filterv #(or (> (:temp %) (:temp_max thresholds))\n                (> (:humidity %) (:humidity_max thresholds)))\n           valid))\n[(count valid) (count alerts)]"),
        T("Group the valid readings by sensor.",
          "(def by-sensor (group-by :sensor valid))\n(update-vals by-sensor count)"),
        T("I'll also build a CSV export of all valid readings; it may be useful for the report.",
          "(def csv\n  (str \"sensor,ts,temp,humidity\\n\"\n       (str/join \"\\n\" (map #(str/join \",\" [(:sensor %) (:ts %) (:temp %) (:humidity %)]) valid))))\n(count csv)"),
        T("Per-sensor statistics.",
          "(def stats\n  (update-vals by-sensor\n               (fn [rs] {:n (count rs)\n                         :avg-temp (/ (reduce + (map :temp rs)) (count rs))\n                         :max-temp (apply max (map :temp rs))\n                         :max-hum (apply max (map :humidity rs))})))\n(doseq [[s st] stats]\n  (println s (:n st) (format \"avg %.2f max %.1f hum %d\" (:avg-temp st) (:max-temp st) (:max-hum st))))"),
        T("Which sensors triggered alerts, and where are they?",
          "(def rooms (into {} (map (juxt :id :room) data/sensors)))\n(def alert-sensors (frequencies (map :sensor alerts)))\n(doseq [[s n] alert-sensors] (println s (get rooms s) n))"),
        T("A text report of all alerts, one line each.",
          "(def alert-report\n  (str/join \"\\n\" (map #(format \"%s %s temp=%.1f hum=%d\" (:sensor %) (:ts %) (:temp %) (:humidity %)) alerts)))\n(println (count alert-report) \"chars\")\n(println (subs alert-report 0 200))"),
        T("The hottest sensor by average temperature:",
          "(def hottest (key (apply max-key #(:avg-temp (val %)) stats)))\n(println hottest (get rooms hottest) (get-in stats [hottest :avg-temp]))"),
        T("Returning the result.",
          "(return {:alerts (count alerts)\n         :alert-sensors (mapv (fn [[s n]] {:sensor s :room (get rooms s) :alerts n}) alert-sensors)\n         :hottest {:sensor hottest :room (get rooms hottest)}})"),
    ],
}
