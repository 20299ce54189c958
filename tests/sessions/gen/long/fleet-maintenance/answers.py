#!/usr/bin/env python3
"""The model answers of the fleet-maintenance session (40 turns).
Vehicle ids, mileages, work orders, part numbers, slots, costs and bookings
the agent reuses are taken from world.py (and tool.py's numbering), as the
model takes them from the prints of earlier turns. The telemetry feed is
corrected mid-session (TLM-0826-A -> TLM-0826-B): `feed`, `km-since`,
`fleet-km`, `codes-by-van`, `due-ids`, `job-costs`, `est-total`, `need`,
`shortages` and `schedule` are redefined with the new values, and only the
new values are written as literals afterwards; a wrong brake pad part
(`pad-part`) is corrected the same way."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()


def q(xs):
    return " ".join('"%s"' % x for x in xs)


# --- what the agent computes, mirrored to write the literals it copies -----------

SEVERITY = {c: f["severity"] for lib in w.FAULTS.values() for c, f in lib.items()}
FAULT_H = {c: f["labour_h"] for lib in w.FAULTS.values() for c, f in lib.items()}


def km_since(vid, feed):
    v = w.VANS_BY_ID[vid]
    return (v["stale_odometer_km"] if feed == w.FEED_A else v["odometer_km"]) - v["last_service_km"]


def codes(vid, feed):
    return w.reading(w.VANS_BY_ID[vid], feed)["fault_codes"]


def due(feed):
    out = []
    for v in w.ALL:
        vid = v["vehicle_id"]
        if km_since(vid, feed) >= 30000 or v["last_service_date"] <= "2023-08-26" \
                or any(SEVERITY[c] == "high" for c in codes(vid, feed)):
            out.append(vid)
    return out


def job_cost(vid, feed, pad):
    model = w.VANS_BY_ID[vid]["model"]
    repair = [c for c in codes(vid, feed) if SEVERITY[c] in ("high", "medium")]
    hours = w.MODELS[model]["labour_h"] + sum(FAULT_H[c] for c in repair)
    parts = list(w.MODELS[model]["parts"]) + [[{"P2200": "SEN-NOX-41", "C1513": pad}[c], 1]
                                              for c in repair if c in ("P2200", "C1513")]
    return hours * w.LABOUR_EUR_H + sum(qty * w.PARTS[p]["unit_cost_eur"] for p, qty in parts)


def money(x):
    return "%.2f" % x


def lit(x):
    """A cost as the model copies it from a %.2f print: 463.40 -> 463.4."""
    return repr(float(money(x)))


DUE_A = due(w.FEED_A)
DUE_B = due(w.FEED_B)
ADDED = [v for v in DUE_B if v not in DUE_A]
DROPPED = [v for v in DUE_A if v not in DUE_B]
assert ADDED == ["VH-2038", "VH-2048"] and DROPPED == ["VH-2047"], (ADDED, DROPPED)
FLEET_KM_A = sum(v["stale_odometer_km"] for v in w.ALL)
FLEET_KM_B = sum(v["odometer_km"] for v in w.ALL)
COST_B = {vid: job_cost(vid, w.FEED_B, "BRK-2201") for vid in DUE_B}
TOTAL_B = sum(COST_B.values())


def priority(vid):
    cs = codes(vid, w.FEED_B)
    if any(SEVERITY[c] == "high" for c in cs):
        return 0
    return 1 if any(SEVERITY[c] == "medium" for c in cs) else 2


ORDER_B = sorted(sorted(DUE_B, key=lambda v: -km_since(v, w.FEED_B)), key=priority)
SLOTS = [x["slot_id"] for x in w.slots()]
LAST_WO = {vid: w.history(vid)[-1]["work_order"] for vid in DUE_B}
WORK = {"VH-2050": "service + NOx sensor (P2200)", "VH-2045": "service + CAN wiring check (U0100)",
        "VH-2036": "service + front brake pads (C1513)", "VH-2041": "service + DPF regeneration (P2463)",
        "VH-2038": "service", "VH-2033": "service", "VH-2048": "service",
        "VH-2039": "service (12 months) + aux battery test (B1325)"}
# the slot taken by depot south is skipped: everyone after it moves up one slot
BOOKED_SLOTS = [x for x in SLOTS if x not in w.TAKEN][:len(ORDER_B)]
BOOKING = {vid: t.number("BK", 78000, slot, vid) for vid, slot in zip(ORDER_B, BOOKED_SLOTS)}
ORDERS = [["BRK-2201", 1], ["FLT-OIL-335", 2], ["FLT-AIR-2210", 2], ["OIL-5W30", 20]]
PO = [t.number("PO", 33000, p, n) for p, n in ORDERS]
assert ORDER_B[:3] == ["VH-2050", "VH-2045", "VH-2036"], ORDER_B

# --- the session ---------------------------------------------------------------

s.turn("I'll start with the policy and the vans of the North depot.", r'''
(println data/policy)
(def fleet (tool/fleet-list {:depot "north"}))
(println (count fleet) "vans; models:" (frequencies (map :model fleet)))
(println (first fleet))
''')

s.turn("Twenty vans of four models. The telemetry feed gives the current odometers and fault codes.", r'''
(def feed (tool/telemetry {:depot "north"}))
(println (dissoc feed :readings))
(println (first (:readings feed)))
''')

s.turn("One reading per van. Kilometres since the last service, per van, and the fleet total:", r'''
(def van (into {} (map (juxt :vehicle_id identity) fleet)))
(def km-since
  (into {} (map (fn [r] [(:vehicle_id r) (- (:odometer_km r) (:last_service_km (van (:vehicle_id r))))])
                (:readings feed))))
(def fleet-km (reduce + (map :odometer_km (:readings feed))))
(println "fleet odometer total:" fleet-km "km")
(doseq [r (:readings feed)]
  (let [v (van (:vehicle_id r))]
    (println (format "%-8s %-13s %7d km %6d since service (last %s)"
                     (:vehicle_id r) (:model v) (:odometer_km r) (km-since (:vehicle_id r)) (:last_service_date v)))))
''')

s.turn("Several vans are past 30,000 km. Now the active fault codes.", r'''
(def codes-by-van (into {} (map (juxt :vehicle_id :fault_codes) (:readings feed))))
(def faults (for [[vid cs] codes-by-van c cs] [vid c]))
(println (count faults) "active fault codes:" faults)
''')

s.turn("Seven codes on seven vans. Looking each code up in the fault library.", r'''
(def fault-lib
  (into {} (map (fn [c] [c (tool/fault-info {:code c})]) (distinct (map second faults)))))
(println (count fault-lib) "codes")
''', "tool")

s.turn("The library defaults to powertrain; C codes are chassis, B codes body. Passing the library by the code's first letter:", r'''
(def library-of {"P" "powertrain" "U" "powertrain" "C" "chassis" "B" "body"})
(def fault-lib
  (into {} (map (fn [c] [c (tool/fault-info {:code c :library (library-of (subs c 0 1))})])
                (distinct (map second faults)))))
(doseq [[vid c] faults]
  (let [f (fault-lib c)]
    (println vid c (:severity f) "-" (:description f) "|" (:action f) (:labour_h f) "h" (or (:part f) ""))))
''')

s.turn("Two faults are high (P0300 on VH-2047, P2200 on VH-2050). The vans due by the policy: 30,000 km, 12 months, or a high fault.", r'''
(def cutoff "2023-08-26")
(defn high-fault? [vid]
  (some #(= "high" (:severity (fault-lib %))) (codes-by-van vid)))
(defn due-reason [vid]
  (cond (>= (km-since vid) 30000) "km"
        (< (:last_service_date (van vid)) cutoff) "12 months"
        (high-fault? vid) "high fault"
        :else nil))
(def due-ids (vec (filter due-reason (map :vehicle_id fleet))))
(println due-ids)
''', "type")

s.turn("Dates are strings: compare instead of <. The failed turn defined nothing, so all of it again.", r'''
(def cutoff "2023-08-26")
(defn high-fault? [vid]
  (some #(= "high" (:severity (fault-lib %))) (codes-by-van vid)))
(defn due-reason [vid]
  (cond (>= (km-since vid) 30000) "km"
        (neg? (compare (:last_service_date (van vid)) cutoff)) "12 months"
        (high-fault? vid) "high fault"
        :else nil))
(def due-ids (vec (filter due-reason (map :vehicle_id fleet))))
(println (count due-ids) "due:" due-ids)
(doseq [vid due-ids]
  (println vid (:model (van vid)) (due-reason vid) (km-since vid) "km since service" (codes-by-van vid)))
''')

s.turn("Before going on, the fuel figures: anything unusual among the diesels?", r'''
(def diesel (remove #(zero? (:fuel_l_100km %)) (:readings feed)))
(def avg-fuel (/ (reduce + (map :fuel_l_100km diesel)) (count diesel)))
(println "diesel average" (format "%.2f" avg-fuel) "l/100km")
(println "above +20%:" (map (juxt :vehicle_id :fuel_l_100km) (filter #(> (:fuel_l_100km %) (* 1.2 avg-fuel)) diesel)))
''')

s.turn("VH-2034 burns 14.8 l/100km with only a low-severity lambda code. Its service history may say why.", r'''
(def h-2034 (tool/service-history {:vehicle_id "VH-2034"}))
(doseq [wo (:work_orders h-2034)]
  (println (:work_order wo) (:date wo) (:km wo) (:cost_eur wo) (:job wo)))
''')

s.turn("A tow bar for trailer use explains the fuel; not a maintenance issue. The service histories of the due vans:", r'''
(def histories
  (into {} (map (fn [vid] [vid (:work_orders (tool/service-history {:vehicle_id vid}))]) due-ids)))
(doseq [[vid wos] histories]
  (let [l (last wos)]
    (println vid (:work_order l) (:date l) (:km l) "km" (:cost_eur l) "EUR" (:job l) (:parts l))))
''')

s.turn("What did a service cost on average last time?", r'''
(println (mean (map (comp :cost_eur last) (vals histories))))
''', "unbound_symbol")

s.turn("No mean; sum and count.", r'''
(def last-costs (map (comp :cost_eur last) (vals histories)))
(println "average last service" (format "%.2f" (/ (reduce + last-costs) (count last-costs)))
         "EUR, max" (apply max last-costs) "min" (apply min last-costs))
''')

s.turn("Around 350 EUR. The service spec of each model due gives the labour and the parts.", r'''
(def specs
  (into {} (map (fn [m] [m (tool/service-spec {:model m})]) (distinct (map (comp :model van) due-ids)))))
(doseq [[m sp] specs]
  (println m (:labour_h sp) "h" (map (juxt :part_no :qty) (:parts sp))))
''')

s.turn("C1513 on VH-2036 needs front brake pads, and the library gives no part number. %s's last work order %s fitted front pads %s; I'll take that part." % (
    "VH-2033", w.history("VH-2033")[-1]["work_order"], "BRK-2210"), r'''
(def pad-part "BRK-2210")
(def pad-stock (tool/parts-stock {:part_no pad-part}))
(println (select-keys pad-stock [:part_no :name :on_hand :unit_cost_eur :lead_days]))
''')

s.turn("Three in stock at 84 EUR. A job per van: the model's service plus the repairs of high and medium faults.", r'''
(def fault-parts {"P2200" "SEN-NOX-41" "C1513" pad-part})
(defn repair-codes [vid]
  (filter #(contains? #{"high" "medium"} (:severity (fault-lib %))) (codes-by-van vid)))
(defn job [vid]
  (let [sp (specs (:model (van vid)))
        cs (repair-codes vid)]
    {:labour_h (+ (:labour_h sp) (reduce + (map #(:labour_h (fault-lib %)) cs)))
     :parts (concat (map (juxt :part_no :qty) (:parts sp))
                    (keep #(if (fault-parts %) [(fault-parts %) 1]) cs))}))
(println "VH-2036" (job "VH-2036"))
(println "VH-2050" (job "VH-2050"))
''')

s.turn("Now the stock and price of every part, and the cost of each job at 68 EUR an hour, in cents.", r'''
(def stock
  (into {} (map (fn [p] [p (tool/parts-stock {:part_no p})])
                (distinct (map first (mapcat #(:parts (job %)) due-ids))))))
(defn job-cost [vid]
  (let [j (job vid)]
    (/ (round (* 100 (+ (* (:labour_h j) (:labour_eur_per_hour data/policy))
                        (reduce + (map (fn [[p n]] (* n (:unit_cost_eur (stock p)))) (:parts j))))))
       100.0)))
(def job-costs (into {} (map (juxt identity job-cost) due-ids)))
(def est-total (/ (round (* 100 (reduce + (vals job-costs)))) 100.0))
(doseq [[vid c] job-costs]
  (println (format "%-8s %-13s %8.2f EUR" vid (:model (van vid)) c)))
(println "estimated total" (format "%.2f" est-total) "EUR")
''')

s.turn("Is every part there in the quantities needed?", r'''
(def need
  (reduce (fn [acc [p n]] (update acc p (fnil + 0) n)) {} (mapcat #(:parts (job %)) due-ids)))
(doseq [[p n] need]
  (let [st (stock p)]
    (println (format "%-13s need %3d  free %3d  %7.2f EUR  fits %s" p n (- (:on_hand st) (:reserved st))
                     (:unit_cost_eur st) (clojure.string/join ", " (:fits st))))))
''')

s.turn("BRK-2210 fits the Sprinter 316 only, and VH-2036 is a Crafter 35. Searching the pads that fit it:", r'''
(println (tool/parts-search {:query "brake pads" :model "Crafter 35"}))
''')

s.turn("BRK-2201 is the Crafter's part (79.50 EUR, none in stock). Correcting the part, the costs and the shortages:", r'''
(def pad-part "BRK-2201")
(def fault-parts {"P2200" "SEN-NOX-41" "C1513" pad-part})
(def stock (assoc stock pad-part (tool/parts-stock {:part_no pad-part})))
(def job-costs (into {} (map (juxt identity job-cost) due-ids)))
(def est-total (/ (round (* 100 (reduce + (vals job-costs)))) 100.0))
(def need
  (reduce (fn [acc [p n]] (update acc p (fnil + 0) n)) {} (mapcat #(:parts (job %)) due-ids)))
(def shortages
  (into {} (for [[p n] need
                 :let [free (- (:on_hand (stock p)) (:reserved (stock p)))]
                 :when (> n free)]
             [p (- n free)])))
(println "VH-2036" (:parts (job "VH-2036")) (format "%.2f" (job-costs "VH-2036")) "EUR")
(println "estimated total" (format "%.2f" est-total) "EUR; short:" shortages)
''')

s.prose("""Where the plan stands:

- 7 vans are due: VH-2033, VH-2036, VH-2039, VH-2041 and VH-2045 by mileage or age, VH-2047 and VH-2050 for high-severity faults (P0300 misfire, P2200 NOx sensor).
- Medium faults to repair at the same visit: C1513 brake pads on VH-2036 (part BRK-2201, not BRK-2210), P2463 DPF soot on VH-2041, U0100 on VH-2045.
- The estimate is about 2,846 EUR, within the 3,200 EUR budget; only the Crafter pads are short.
- VH-2034's high fuel use comes from trailer use, not a fault.

Next: the workshop slots in the window, then parts orders and bookings.""")

s.turn("The workshop slots in the window:", r'''
(def slots (tool/workshop-slots {:depot "north" :from "2024-09-02" :to "2024-09-13"}))
(println (count slots) "slots")
(println (clojure.string/join "\n" (map #(str (:slot_id %) " " (:date %) " " (:bay %)) (take 10 slots))))
''')

s.turn("High faults first, then medium faults, then by kilometres since service; one van per slot.", r'''
(defn priority [vid]
  (cond (high-fault? vid) 0
        (seq (repair-codes vid)) 1
        :else 2))
(def order (sort-by priority (sort-by km-since > due-ids)))
(def schedule (zipmap order (map :slot_id slots)))
(doseq [vid order]
  (println vid (schedule vid) (due-reason vid) (format "%.2f" (job-costs vid))))
''')

s.turn("Before ordering and booking, the depot notices, in case a bay is closed.", r'''
(def notices (tool/depot-notices {:depot "north"}))
(doseq [n notices]
  (println (:id n) (:date n) (:text n)))
''')

s.turn("NTC-0421: GW-3 sent two-month-old readings in TLM-0826-A, the feed I used. The re-sent feed, and what changed:", r'''
(def old-readings (into {} (map (juxt :vehicle_id identity) (:readings feed))))
(def feed (tool/telemetry-feed {:feed_id "TLM-0826-B"}))
(println (dissoc feed :readings))
(doseq [r (:readings feed)
        :let [o (old-readings (:vehicle_id r))]
        :when (not= (:odometer_km r) (:odometer_km o))]
  (println (:vehicle_id r) (:gateway r) (:odometer_km o) "->" (:odometer_km r) "km, faults" (:fault_codes o) "->" (:fault_codes r)))
''')

s.turn("Five GW-3 vans moved and the P0300 on VH-2047 is gone. Recomputing kilometres, faults and the due list from %s:" % w.FEED_B, r'''
(def km-since
  (into {} (map (fn [r] [(:vehicle_id r) (- (:odometer_km r) (:last_service_km (van (:vehicle_id r))))])
                (:readings feed))))
(def codes-by-van (into {} (map (juxt :vehicle_id :fault_codes) (:readings feed))))
(def fleet-km (reduce + (map :odometer_km (:readings feed))))
(def old-due due-ids)
(def due-ids (vec (filter due-reason (map :vehicle_id fleet))))
(println "fleet odometer total:" fleet-km "km (was %d)")
(println (count due-ids) "due:" due-ids)
(println "dropped:" (remove (set due-ids) old-due))
(doseq [vid (remove (set old-due) due-ids)]
  (println "added:" vid (:model (van vid)) (km-since vid) "km since service"))
''' % FLEET_KM_A)

s.turn("VH-2038 and VH-2048 are now due, VH-2047 is not. Their service histories:", r'''
(def histories
  (merge histories
         (into {} (map (fn [vid] [vid (:work_orders (tool/service-history {:vehicle_id vid}))]) [%s]))))
(doseq [vid [%s]]
  (let [l (last (histories vid))]
    (println vid (:work_order l) (:date l) (:km l) "km" (:cost_eur l) "EUR" (:job l))))
''' % (q(ADDED), q(ADDED)))

s.turn("The job costs again, for the new due list.", r'''
(def job-costs (into {} (map #(vector % (job-cost % 68.0)) due-ids)))
''', "arity")

s.turn("job-cost takes the van only; the rate comes from the policy.", r'''
(def job-costs (into {} (map (juxt identity job-cost) due-ids)))
(def est-total (/ (round (* 100 (reduce + (vals job-costs)))) 100.0))
(println "estimated total" (format "%%.2f" est-total) "EUR for" (count due-ids) "vans, budget" (:budget_eur data/policy))
(doseq [vid [%s]]
  (println vid (format "%%.2f" (job-costs vid)) "EUR"))
''' % q(ADDED))

s.turn("Two more vans need more parts. The shortages now:", r'''
(def need
  (reduce (fn [acc [p n]] (update acc p (fnil + 0) n)) {} (mapcat #(:parts (job %)) due-ids)))
(def shortages
  (into {} (for [[p n] need
                 :let [free (- (:on_hand (stock p)) (:reserved (stock p)))]
                 :when (> n free)]
             [p (- n free)])))
(doseq [[p n] shortages]
  (println p "short" n "lead" (:lead_days (stock p)) "days"))
''')

s.turn("Four parts are short. Ordering them, the oil as a 20 litre drum and a spare filter of each kind:", r'''
(def orders
  (mapv (fn [[p n]] (tool/order-parts {:part_no p :qty n}))
        [%s]))
(doseq [o orders]
  (println (:po o) (:part_no o) (:qty o) (:total_eur o) "EUR, eta" (:eta o)))
''' % " ".join('["%s" %d]' % (p, n) for p, n in ORDERS))

s.turn("Everything arrives before 2024-09-02. The schedule for the corrected due list:", r'''
(def order (sort-by priority (sort-by km-since > due-ids)))
(def schedule (zipmap order (map :slot_id slots)))
(doseq [vid order]
  (println vid (schedule vid) (due-reason vid) (codes-by-van vid)))
''')

s.turn("Booking the two vans with high or medium faults first.", r'''
(def bookings
  [(tool/book-slot {:slot_id "%s" :vehicle_id "%s" :job "%s"})
   (tool/book-slot {:slot_id "%s" :vehicle_id "%s" :job "%s"})])
(doseq [b bookings]
  (println (:booking b) (:slot_id b) (:vehicle_id b) (:job b)))
''' % (SLOTS[0], ORDER_B[0], WORK[ORDER_B[0]], SLOTS[1], ORDER_B[1], WORK[ORDER_B[1]]))

s.turn("Next %s with the brake pads." % ORDER_B[2], r'''
(def b-2036 (tool/book-slot {:slot_id "%s" :vehicle_id "%s" :job "%s"}))
(println b-2036)
''' % (SLOTS[2], ORDER_B[2], WORK[ORDER_B[2]]), "tool")

s.turn("Depot south took %s this morning. Everyone from %s on moves up one slot:" % (SLOTS[2], ORDER_B[2]), r'''
(def bookings
  (into bookings
        (map (fn [[slot vid job]] (tool/book-slot {:slot_id slot :vehicle_id vid :job job}))
             [%s])))
(doseq [b bookings]
  (println (:booking b) (:slot_id b) (:vehicle_id b) (:job b)))
''' % "\n              ".join('["%s" "%s" "%s"]' % (slot, vid, WORK[vid])
                              for slot, vid in zip(BOOKED_SLOTS[2:], ORDER_B[2:])))

s.turn("All eight booked. Low-severity faults to note for the workshop:", r'''
(def notes
  (for [[vid cs] codes-by-van
        c cs
        :when (= "low" (:severity (fault-lib c)))]
    (str vid " " c ": " (:action (fault-lib c)))))
(doseq [n notes]
  (println n))
''')

PLAN_VANS = [(vid, BOOKED_SLOTS[k], BOOKING[vid], km_since(vid, w.FEED_B), LAST_WO[vid], WORK[vid], lit(COST_B[vid]))
             for k, vid in enumerate(ORDER_B)]
PARTS_READY = "2024-08-30"  # the latest eta of the orders (the brake pads)
DUE_A_LAST = [w.history(v)[-1]["cost_eur"] for v in DUE_A]
LAST_AVG = money(sum(DUE_A_LAST) / len(DUE_A_LAST))
DIESEL = [v["fuel_l_100km"] for v in w.ALL if v["fuel_l_100km"]]
DIESEL_AVG = money(sum(DIESEL) / len(DIESEL))
NOTES = ["VH-2034 P0136: lambda sensor at next service; high fuel use is trailer use",
         "VH-2039 B1325: test the aux battery at the service"]

s.cut("Everything is booked and ordered. The plan:", r'''
(def plan
  {:depot "north"
   :telemetry "%s"
   :fleet-km %d
   :vans [%s
''' % (w.FEED_B, FLEET_KM_B, "\n          ".join(
    '{:id "%s" :slot "%s" :booking "%s" :km-since %d :last-wo "%s" :work "%s" :cost-eur %s}' % x
    for x in PLAN_VANS[:5])))

s.turn("Cut off; the same plan with shorter van entries:", r'''
(def plan
  {:depot "north"
   :telemetry "%s"
   :fleet-km %d
   :vans [%s]
   :parts-orders [%s]
   :parts-ready "%s"
   :total-eur %s
   :budget-eur 3200
   :last-service-avg-eur %s
   :diesel-avg-l-100km %s
   :notes [%s]})
(println (count (:vans plan)) "vans," (count (:parts-orders plan)) "orders, total" (:total-eur plan))
''' % (w.FEED_B, FLEET_KM_B, "\n          ".join(
    '["%s" "%s" "%s" %d "%s" %s]' % (vid, slot, bk, km, wo, cost) for vid, slot, bk, km, wo, _, cost in PLAN_VANS),
    q(PO), PARTS_READY, lit(TOTAL_B), LAST_AVG, DIESEL_AVG, q(NOTES)))

s.turn("A last check: does the plan match what was booked and computed?", r'''
(println "costs add up:" (= (format "%.2f" (reduce + (map last (:vans plan)))) (format "%.2f" est-total)))
(println "bookings match:" (= (set (map #(nth % 2) (:vans plan))) (set (map :booking bookings))))
(println "all due vans planned:" (= (set (map first (:vans plan))) (set due-ids)))
''')

s.turn("The plan is consistent with the bookings, the orders and the corrected telemetry.", r'''
(return plan)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
