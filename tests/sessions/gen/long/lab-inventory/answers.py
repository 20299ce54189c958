#!/usr/bin/env python3
"""The model answers of the lab-inventory session.
Location ids, item ids, CAS numbers, lots, expiry dates, sample ids,
temperatures, times and the ids the tools hand out (moves, waste requests,
requisitions, the flag batch, the report) are taken from world.py (and
tool.py's numbering), as the model takes them from the prints of earlier
turns. Three corrections, each after the old value was printed and used:
- `hcl`: the hydrochloric acid next to the hypochlorite is looked up in an
  index keyed by CAS (`by-cas`, a zipmap), which keeps only the last of the
  three 7647-01-0 containers: the 1 mol/L bottle, lot HC310885, expiry
  2025-09-30, written into the segregation finding; the expiry scan shows the
  opened 37 % bottle lot K53422817 expired on 2025-02-28, and `by-cas`, `hcl`
  and `seg-findings` are redefined (the look-alike lot K53422871 is the
  unopened 37 % bottle, in date);
- `excursion`: FRZ-B2-03's excursion is first taken from the 30-minute
  readings (02:30-07:30, 300 minutes) and redefined from the logger's alarm
  events as the checklist asks (02:09-07:43, 334 minutes; peak -51.8 °C);
- `outside-flam-l`: the flammable liquids outside approved storage in B2.114
  are first summed as if every container were in mL (3.61 L, within the
  10 L limit, printed with a hard-coded "mL" label); the cabinet-capacity
  check shows a 4 L and a 2.5 L container among them, and the total is
  redone in litres (10.1 L, over the limit), which leads to moving the 4 L
  methanol into the under-hood cabinet.
Later programs write only the corrected values.
Failed turns: the temperature logger refuses a 120-hour window (tool); a
Clojure 1.12 `partitionv` (unbound symbol); dates compared with `<` (type);
a prose-only status summary (no code); the hypochlorite refused by the base
cabinet, which holds triethylamine (tool); a unit helper called with two
arguments (arity); the report submission cut off mid-form (parse)."""
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

I = w.ITEM
H2O2, HYPO, HCL37, HCL37B, HCL1, NITRIC = "INV-0249", "INV-0424", "INV-0412", "INV-0413", "INV-0415", "INV-0418"
ACX, ACOK, PHENOL, NAOH05, ETHER, THF, TEA, MEOH = ("INV-0232", "INV-0231", "INV-0704", "INV-0431", "INV-0801",
                                                   "INV-0246", "INV-0437", "INV-0702")
AZIDE, APS, TEMED, ETOH70, MECN, XYL, IPA1, IPA2 = ("INV-0507", "INV-0452", "INV-0812", "INV-0604", "INV-0705",
                                                   "INV-0709", "INV-0601", "INV-0602")
for _i in (H2O2, HYPO, HCL37, HCL37B, HCL1, NITRIC, ACX, ACOK, PHENOL, NAOH05, ETHER, THF, TEA, MEOH, AZIDE, APS,
           TEMED, ETOH70, MECN, XYL, IPA1, IPA2):
    assert _i in I, _i
assert I[HCL37]["cas"] == I[HCL37B]["cas"] == I[HCL1]["cas"]
EXC = w.EXCURSION
FRZ03_SAMPLES = [x for x in w.SAMPLES if x["location"] == w.FRZ03]
FLAGGED = [x["sample_id"] for x in FRZ03_SAMPLES if x["required_temp_c"] == -80 and x["status"] != "depleted"]
MINUS20 = [x["sample_id"] for x in FRZ03_SAMPLES if x["required_temp_c"] == -20]
DEPLETED = [x["sample_id"] for x in FRZ03_SAMPLES if x["status"] == "depleted"]
ELSEWHERE = [x["sample_id"] for x in w.SAMPLES if x["parent"] in ("S-2024-00417", "S-2024-00502")
             and x["location"] != w.FRZ03]
assert ELSEWHERE == ["S-2024-00419", "S-2024-00504"], ELSEWHERE
HM = lambda ts: ts[11:16]  # noqa: E731
FLAG_REASON = ("%s excursion on 2025-03-08: above -70 °C from %s to %s (%d min), peak %.1f °C at %s "
               "(compressor fault E-17)" % (w.FRZ03, HM(EXC["alarm"]), HM(EXC["cleared"]), EXC["minutes"],
                                            EXC["peak"], HM(EXC["peak_at"])))
FLAG = t.inv_sample_flag({"sample_ids": FLAGGED, "flag": "excursion-exposed", "reason": FLAG_REASON})
MOVE_HYPO = t.inv_move({"item_id": HYPO, "to": w.OC1, "reason": "x"})
MOVE_H2O2 = t.inv_move({"item_id": H2O2, "to": w.OC1, "reason": "x"})
MOVE_MEOH = t.inv_move({"item_id": MEOH, "to": w.FC3, "reason": "x"})
DISPOSE = [ACX, HCL37, PHENOL, NAOH05, ETHER]
WASTE = {I[i]["waste_stream"]: t.inv_waste_request({"stream": I[i]["waste_stream"], "reason": "x", "items": [
    {"item_id": i, "lot": I[i]["lot"], "quantity": I[i]["quantity"]["amount"], "unit": I[i]["quantity"]["unit"]}]})
    for i in DISPOSE}
assert len(WASTE) == 5
WR = {i: WASTE[I[i]["waste_stream"]]["request_id"] for i in DISPOSE}
CAT_PHENOL, CAT_NAOH, CAT_ETHER = I[PHENOL]["catalog_no"], I[NAOH05]["catalog_no"], "32203-250ML"
REORDER = {
    CAT_PHENOL: t.inv_reorder({"catalog_no": CAT_PHENOL, "quantity": 1, "deliver_to": w.REF04,
                               "cost_center": w.COST_CENTER}),
    CAT_NAOH: t.inv_reorder({"catalog_no": CAT_NAOH, "quantity": 1, "deliver_to": w.BC1,
                             "cost_center": w.COST_CENTER}),
    CAT_ETHER: t.inv_reorder({"catalog_no": CAT_ETHER, "quantity": 1, "deliver_to": w.REF07,
                              "cost_center": w.COST_CENTER}),
}
REQ = {k: v["requisition_id"] for k, v in REORDER.items()}


def litres(x):
    q = x["quantity"]
    return q["amount"] / 1000.0 if q["unit"] == "mL" else q["amount"]


FLAM_STORAGE = {w.FC1, w.FC3, w.REF07}
OUTSIDE = [x for x in w.ITEMS if set(x["ghs"]) & {"H224", "H225", "H226"} and x["location"] not in FLAM_STORAGE]
NAIVE = round(sum(x["quantity"]["amount"] for x in OUTSIDE) / 1000.0, 2)
TRUE_L = round(sum(litres(x) for x in OUTSIDE), 2)
AFTER_L = round(TRUE_L - litres(I[MEOH]) - litres(I[ETHER]), 2)
assert (NAIVE, TRUE_L, AFTER_L) == (3.61, 10.1, 5.6), (NAIVE, TRUE_L, AFTER_L)
FC3_FREE = w.LOC[w.FC3]["capacity_l"] - sum(litres(x) for x in w.ITEMS if x["location"] == w.FC3)
SDS_CUTOFF = "%d%s" % (int(w.INSPECTION[:4]) - 5, w.INSPECTION[4:])
OLD_SDS = sorted(c for c, r in w.SDS_REVISION.items() if r < SDS_CUTOFF)
assert OLD_SDS == [I[AZIDE]["cas"], I[APS]["cas"]], OLD_SDS
CHECKS = ["C-03", "C-03", "C-04", "C-05", "C-08", "C-07", "C-02", "C-02", "C-09", "C-10"]
REPORT = t.inv_inspection_submit({"findings": [{"check": c, "severity": "minor"} for c in CHECKS]})
# the split the temperature logger's refusal proposes
WIN_MID = (t.dt.datetime.fromisoformat(w.LAST_CHECK) + t.dt.timedelta(hours=t.MAX_HOURS)).isoformat()


def months_open(iid):
    o = I[iid]["opened"]
    return 12 * (int(w.AUDIT_DATE[:4]) - int(o[:4])) + int(w.AUDIT_DATE[5:7]) - int(o[5:7])


KW = dict(
    FC1=w.FC1, FC3=w.FC3, AC1=w.AC1, BC1=w.BC1, OC1=w.OC1, GC2=w.GC2, SH3=w.SH3, FH1=w.FH1, REF04=w.REF04,
    REF07=w.REF07, FRZ03=w.FRZ03, FRZ08=w.FRZ08, FRZ12=w.FRZ12,
    H2O2=H2O2, HYPO=HYPO, HCL37=HCL37, HCL37B=HCL37B, HCL1=HCL1, NITRIC=NITRIC, ACX=ACX, ACOK=ACOK, PHENOL=PHENOL,
    NAOH05=NAOH05, ETHER=ETHER, THF=THF, TEA=TEA, MEOH=MEOH, AZIDE=AZIDE, APS=APS, TEMED=TEMED, ETOH70=ETOH70,
    MECN=MECN, XYL=XYL, IPA1=IPA1, IPA2=IPA2,
    L_HCL37=I[HCL37]["lot"], L_HCL37B=I[HCL37B]["lot"], L_HCL1=I[HCL1]["lot"], L_ACX=I[ACX]["lot"],
    L_ACOK=I[ACOK]["lot"], L_PHENOL=I[PHENOL]["lot"], L_NAOH05=I[NAOH05]["lot"], L_ETHER=I[ETHER]["lot"],
    L_H2O2=I[H2O2]["lot"],
    X_HCL37=I[HCL37]["expiry"], X_HCL1=I[HCL1]["expiry"], X_ACX=I[ACX]["expiry"], X_PHENOL=I[PHENOL]["expiry"],
    X_NAOH05=I[NAOH05]["expiry"], O_ETHER=I[ETHER]["opened"], M_ETHER=months_open(ETHER), M_THF=months_open(THF),
    CAS_HCL=I[HCL37]["cas"], CAS_HYPO=I[HYPO]["cas"], CAS_H2O2=I[H2O2]["cas"], CAS_ETHER=I[ETHER]["cas"],
    CAS_MEOH=I[MEOH]["cas"], CAS_AZIDE=I[AZIDE]["cas"], CAS_APS=I[APS]["cas"], CAS_TEMED=I[TEMED]["cas"],
    CAS_KMNO4=I["INV-0451"]["cas"], R_AZIDE=w.SDS_REVISION[I[AZIDE]["cas"]], R_APS=w.SDS_REVISION[I[APS]["cas"]],
    R_KMNO4=w.SDS_REVISION[I["INV-0451"]["cas"]], SDS_CUTOFF=SDS_CUTOFF,
    WIN0=w.LAST_CHECK, WIN1=WIN_MID, WIN2=w.AS_OF,
    EXC_FROM=EXC["alarm"], EXC_TO=EXC["cleared"], EXC_MIN=EXC["minutes"], PEAK="%.1f" % EXC["peak"],
    H_FROM=HM(EXC["alarm"]), H_TO=HM(EXC["cleared"]), H_PEAK=HM(EXC["peak_at"]), H_ACK=HM(w.ACK),
    R_MIN=30 * (int(HM(EXC["readings_to"])[:2]) * 2 + int(HM(EXC["readings_to"])[3:]) // 30
                - int(HM(EXC["readings_from"])[:2]) * 2 - int(HM(EXC["readings_from"])[3:]) // 30),
    TICKET=w.SERVICE_TICKET, REASON=FLAG_REASON, FB=FLAG["batch_id"],
    P417="S-2024-00417", P471="S-2024-00471", P502="S-2024-00502", S419=ELSEWHERE[0], S504=ELSEWHERE[1],
    S047="S-2025-00047", S011="S-2025-00011", S014="S-2025-00014", S388=DEPLETED[0],
    MV1=MOVE_HYPO["move_id"], MV2=MOVE_H2O2["move_id"], MV3=MOVE_MEOH["move_id"],
    WR_ACX=WR[ACX], WR_HCL=WR[HCL37], WR_PHENOL=WR[PHENOL], WR_NAOH=WR[NAOH05], WR_ETHER=WR[ETHER],
    CAT_PHENOL=CAT_PHENOL, CAT_NAOH=CAT_NAOH, CAT_ETHER=CAT_ETHER,
    RQ_PHENOL=REQ[CAT_PHENOL], RQ_NAOH=REQ[CAT_NAOH], RQ_ETHER=REQ[CAT_ETHER],
    NAIVE="%.2f" % NAIVE, TRUE_L=TRUE_L, AFTER_L=AFTER_L, FC3_FREE="%.1f" % FC3_FREE,
    REP=REPORT["report_id"], PICKUP=WASTE[I[ACX]["waste_stream"]]["pickup"]["date"],
)
assert KW["R_MIN"] == 300, KW["R_MIN"]
assert set(MINUS20) == {KW["S011"], KW["S014"], KW["S047"]}, MINUS20


def F(code):
    """`code` with every <<NAME>> of KW filled in."""
    return fill(code, **KW)


def it(iid, key):
    return I[iid][key]


# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the brief and the EHS checklist the inspection follows.", r'''
(println data/brief)
(def checklist (tool/inv-checklist {}))
(println (:checklist checklist) "| version" (:version checklist) "| inspection" (:inspection checklist))
(doseq [c (:items checklist)]
  (println (str (:id c) " " (:title c) ": " (:text c))))
''')

s.turn("Twelve checklist items. The storage locations of the two rooms:", r'''
(def locs (:locations (tool/inv-locations {})))
(println (count locs) "locations")
(println (format "%-11s %-7s %-18s %-12s %4s %5s %5s %-8s %s" "id" "room" "kind" "approved" "cap" "set" "alarm" "logger" "responsible"))
(doseq [l locs]
  (println (format "%-11s %-7s %-18s %-12s %4s %5s %5s %-8s %s" (:location_id l) (:room l) (:kind l)
                   (str/join "," (:approved_for l)) (or (:capacity_l l) "-") (or (:setpoint_c l) "-")
                   (or (:alarm_high_c l) "-") (or (:logger l) "-") (:responsible l))))
(doseq [l locs]
  (println (:location_id l) "-" (:description l)))
''')

s.turn("Ten chemical locations and three sample freezers. All chemical stock at once, then the tables of the two flammables cabinets and the acid cabinet:", F(r'''
(def chem-locs (mapv :location_id (remove #(str/starts-with? (:kind %) "freezer") locs)))
(def stock (pmap #(tool/inv-items {:location %}) chem-locs))
(def inv (vec (mapcat (fn [r] (map #(assoc % :location (:location r)) (:items r))) stock)))
(println (count inv) "containers:" (str/join ", " (map #(str (:location %) " " (:count %)) stock)))
(defn clip [s n] (if (> (count s) n) (str (subs s 0 (dec n)) "~") s))
(defn row [x]
  (format "%-8s %-34s %-10s %-10s %-9s %6s %-2s %-10s %-10s %-5s %s"
          (:item_id x) (clip (:name x) 34) (:cas x) (:lot x) (clip (:concentration x) 9)
          (get-in x [:quantity :amount]) (get-in x [:quantity :unit]) (or (:opened x) "unopened") (:expiry x)
          (str/join "," (:storage_groups x)) (str/join " " (:ghs x))))
(doseq [loc ["<<FC1>>" "<<FC3>>" "<<AC1>>"]]
  (println (str "== " loc))
  (doseq [x (filter #(= loc (:location %)) inv)]
    (println (row x) "|" (:position x))))
'''))

s.turn("Hydrogen peroxide (an oxidizer, OX) sits in the flammables cabinet, and the acid cabinet has sodium hypochlorite (OB) on tray A. The base, oxidizer and general cabinets and the open shelf:", F(r'''
(doseq [loc ["<<BC1>>" "<<OC1>>" "<<GC2>>" "<<SH3>>"]]
  (println (str "== " loc))
  (doseq [x (filter #(= loc (:location %)) inv)]
    (println (row x) "|" (:position x))))
'''))

s.turn("The fume hood and the two refrigerators; and an index by CAS number for the SDS lookups:", F(r'''
(doseq [loc ["<<FH1>>" "<<REF04>>" "<<REF07>>"]]
  (println (str "== " loc))
  (doseq [x (filter #(= loc (:location %)) inv)]
    (println (row x) "|" (:position x))))
(def by-cas (zipmap (map :cas inv) inv))
(println (count by-cas) "CAS numbers over" (count inv) "containers")
'''))

s.turn(F("Diethyl ether (H224) is in <<REF04>>, the domestic fridge. Now segregation (C-03): the matrix for every storage group in stock, then every pair of containers sharing a location that the matrix does not call compatible."), r'''
(def all-groups (vec (distinct (mapcat :storage_groups inv))))
(def compat (tool/inv-compat {:groups all-groups}))
(println (:matrix compat) (:groups compat))
(doseq [p (remove #(= "compatible" (:rule %)) (:pairs compat))]
  (println (format "  %-3s %-3s %-12s %s" (:a p) (:b p) (:rule p) (:note p))))
(def rule-of (into {} (mapcat (fn [p] [[[(:a p) (:b p)] p] [[(:b p) (:a p)] p]]) (:pairs compat))))
(defn conflicts [loc]
  (let [items (filter #(= loc (:location %)) inv)]
    (for [[x y] (combinations items 2)
          a (:storage_groups x)
          b (:storage_groups y)
          :let [p (rule-of [a b])]
          :when (and p (not= "compatible" (:rule p)))]
      {:loc loc :rule (:rule p) :a (:item_id x) :b (:item_id y) :groups (str a "/" b)
       :trays (str (:position x) " / " (:position y))})))
(def seg (vec (mapcat conflicts chem-locs)))
(println (count seg) "pairs:")
(doseq [c seg]
  (println (format "  %-11s %-12s %s x %s %-6s %s" (:loc c) (:rule c) (:a c) (:b c) (:groups c) (:trays c))))
''')

s.turn(F("Two incompatible placements: <<H2O2>> (peroxide, OX) with every solvent in <<FC1>>, and <<HYPO>> (hypochlorite, OB) on tray A of <<AC1>> with the acids, and with the nitric acid <<NITRIC>>; nitric acid against the other acids is only 'separate', and it has tray B to itself. Containers in locations not approved for their groups, and the two SDS on reactivity and storage:"), F(r'''
(def approved (into {} (map (juxt :location_id :approved_for) locs)))
(def misplaced (filterv #(not (some (set (approved (:location %))) (:storage_groups %))) inv))
(doseq [x misplaced]
  (println (format "%-11s %-8s %-34s groups %-6s approved %s" (:location x) (:item_id x) (clip (:name x) 34)
                   (str/join "," (:storage_groups x)) (str/join "," (approved (:location x))))))
(doseq [[cas sec] [["<<CAS_HYPO>>" 10] ["<<CAS_H2O2>>" 7]]]
  (let [sds (tool/inv-sds {:cas cas :section sec})]
    (println (str "-- SDS " cas " (" (:product sds) ", rev. " (:revision sds) ") section " sec " " (:title sds)))
    (println (:text sds))))
'''))

s.turn(F("The peroxide's SDS rules out the flammables cabinet, and hypochlorite releases chlorine with acids. The wash bottles and the canister on <<SH3>> are working quantities (C-04 counts them). Now the hydrochloric acid record next to the hypochlorite, and its SDS:"), F(r'''
(def hcl (get by-cas "<<CAS_HCL>>"))
(println "HCl:" (:item_id hcl) "|" (:name hcl) "| lot" (:lot hcl) "| opened" (:opened hcl) "| expires" (:expiry hcl) "|" (:position hcl))
(def hcl-sds (tool/inv-sds {:cas "<<CAS_HCL>>" :section 10}))
(println "SDS rev." (:revision hcl-sds))
(println (:text hcl-sds))
'''))

s.turn(F("The hydrochloric acid on tray A (lot <<L_HCL1>>) is in date until <<X_HCL1>>, so it stays; the hypochlorite has to leave the acid cabinet. Recording the two segregation findings:"), F(r'''
(def seg-findings
  [{:check "C-03" :severity "critical" :location "<<AC1>>"
    :items ["<<HYPO>>" (:item_id hcl) "<<NITRIC>>"]
    :summary (str "sodium hypochlorite (<<HYPO>>) on tray A with hydrochloric acid (lot " (:lot hcl) ", in date until "
                  (:expiry hcl) ") and next to nitric acid: acids liberate chlorine")}
   {:check "C-03" :severity "critical" :location "<<FC1>>"
    :items ["<<H2O2>>"]
    :summary "hydrogen peroxide 30 % w/w (<<CAS_H2O2>>, lot <<L_H2O2>>), an oxidizer, in the flammables cabinet with nine solvents"}])
(doseq [f seg-findings]
  (println (:check f) (:severity f) (:location f) (:items f) "-" (:summary f)))
'''))

s.turn("Cold storage (C-09): the logs of the five cold units since the last weekly check.", F(r'''
(def cold ["<<REF04>>" "<<REF07>>" "<<FRZ03>>" "<<FRZ08>>" "<<FRZ12>>"])
(def raw-logs (pmap #(tool/inv-temp-log {:location % :from "<<WIN0>>" :to "<<WIN2>>"}) cold))
(println (count raw-logs) "logs")
'''), "tool")

s.turn("At most 72 hours per request. Two windows per unit, joined:", F(r'''
(def windows [["<<WIN0>>" "<<WIN1>>"] ["<<WIN1>>" "<<WIN2>>"]])
(def cold ["<<REF04>>" "<<REF07>>" "<<FRZ03>>" "<<FRZ08>>" "<<FRZ12>>"])
(def logs
  (into {} (for [loc cold]
             (let [parts (pmap (fn [[f t]] (tool/inv-temp-log {:location loc :from f :to t})) windows)]
               [loc {:logger (:logger (first parts)) :setpoint (:setpoint_c (first parts)) :alarm (:alarm_high_c (first parts))
                     :readings (vec (mapcat :readings parts)) :events (vec (mapcat :events parts))}]))))
(println (format "%-10s %-8s %4s %5s %4s %7s %7s %6s %s" "unit" "logger" "set" "alarm" "n" "min" "max" "above" "events"))
(doseq [[loc l] logs]
  (let [ts (map :temp_c (:readings l))]
    (println (format "%-10s %-8s %4d %5d %4d %7.1f %7.1f %6d %d" loc (:logger l) (:setpoint l) (:alarm l)
                     (count ts) (apply min ts) (apply max ts) (count (filter #(> % (:alarm l)) ts)) (count (:events l))))))
(println "<<FRZ03>> on 2025-03-08, 01:00-09:30:")
(doseq [r (filter #(and (<= (compare "2025-03-08T01:00" (:ts %)) 0) (<= (compare (:ts %) "2025-03-08T09:30") 0))
                  (:readings (get logs "<<FRZ03>>")))]
  (println " " (:ts r) (:temp_c r)))
'''))

s.turn(F("<<FRZ03>> went above its -70 °C alarm on 2025-03-08 for eleven readings, peaking at <<PEAK>> °C; every other unit stayed below its threshold. The excursion from the readings, with the steepest rise between consecutive readings:"), F(r'''
(def frz (:readings (get logs "<<FRZ03>>")))
(def above (filterv #(> (:temp_c %) -70) frz))
(def rises (map (fn [[a b]] {:at (:ts b) :delta (- (:temp_c b) (:temp_c a))}) (partitionv 2 1 frz)))
(println "steepest rise:" (apply max-key :delta rises))
(println (count above) "readings above -70 °C")
'''), "unbound_symbol")

s.turn("No partitionv here; partition does the same for this.", F(r'''
(def frz (:readings (get logs "<<FRZ03>>")))
(def above (filterv #(> (:temp_c %) -70) frz))
(def rises (map (fn [[a b]] {:at (:ts b) :delta (- (:temp_c b) (:temp_c a))}) (partition 2 1 frz)))
(def steepest (apply max-key :delta rises))
(println "steepest rise:" (:at steepest) (format "%+.1f °C in 30 min" (:delta steepest)))
(def excursion {:freezer "<<FRZ03>>" :from (:ts (first above)) :to (:ts (last above))
                :minutes (* 30 (dec (count above))) :peak (apply max (map :temp_c above))
                :peak-at (:ts (apply max-key :temp_c above))})
(println "excursion:" excursion)
'''))

s.turn("C-09 wants start and end from the logger's alarm events where there are any. The events of every unit:", r'''
(doseq [[loc l] logs
        e (:events l)]
  (println (format "%-10s %s %-8s %s" loc (:ts e) (:type e) (:text e))))
''')

s.turn(F("<<FRZ03>> logged the alarm at <<H_FROM>> and its clearing at <<H_TO>>; the readings every 30 minutes only bracket that. Redefining the excursion from the two events:"), F(r'''
(defn minute-of-day [ts] (+ (* 60 (parse-long (subs ts 11 13))) (parse-long (subs ts 14 16))))
(def frz-events (:events (get logs "<<FRZ03>>")))
(def alarm-on (:ts (first (filter #(= "alarm" (:type %)) frz-events))))
(def alarm-off (:ts (first (filter #(= "clear" (:type %)) frz-events))))
(def excursion-readings excursion)
(def excursion (assoc excursion :from alarm-on :to alarm-off :minutes (- (minute-of-day alarm-off) (minute-of-day alarm-on))
                      :source "logger alarm events"))
(println "excursion:" excursion-readings)
(println "       ->" excursion)
'''))

s.turn(F("The excursion is now <<EXC_FROM>> to <<EXC_TO>>, <<EXC_MIN>> minutes above -70 °C (not <<R_MIN>>), peak <<PEAK>> °C, and nobody answered the alarm calls until <<H_ACK>>: far over the 60 minutes of C-10. The samples stored in <<FRZ03>>:"), F(r'''
(def frz03 (tool/inv-samples {:location "<<FRZ03>>"}))
(println (:count frz03) "samples in <<FRZ03>>")
(doseq [x (:samples frz03)]
  (println (format "%-13s %-34s %-13s %-26s %-10s %4d %8s %-5s %-10s %-9s %s"
                   (:sample_id x) (clip (:type x) 34) (or (:parent x) "-") (or (:relation x) "-") (:position x)
                   (:required_temp_c x) (:amount x) (:unit x) (:created x) (:status x) (:owner x))))
'''))

s.turn("Several of them have parents or aliquots elsewhere. The relations of the two primaries with aliquots, and of the derived samples whose parent is not in this freezer:", F(r'''
(def traced (pmap #(tool/inv-samples {:sample_id %}) ["<<P417>>" "<<P502>>" "<<S047>>" "<<S011>>"]))
(doseq [r traced]
  (let [x (:sample r)]
    (println (:sample_id x) (:type x) "in" (:location x) (str (:required_temp_c x) " °C"))
    (when (:parent r)
      (println "   parent" (:sample_id (:parent r)) (:type (:parent r)) "in" (:location (:parent r))))
    (doseq [c (:children r)]
      (println "   child " (:sample_id c) (format "%-28s" (:relation c)) "in" (:location c) (:position c) (str (:required_temp_c c) " °C")))))
'''))

s.turn(F("<<S419>> (aliquot of <<P417>>) and <<S504>> are in <<FRZ08>>; <<S047>>'s parent is <<P471>> (not <<P417>>), also in <<FRZ08>>, and <<S047>> itself needs only -20 °C. <<FRZ08>> had a door opening on 2025-03-09; its samples and its readings around it:"), F(r'''
(def frz08 (tool/inv-samples {:location "<<FRZ08>>"}))
(doseq [x (:samples frz08)]
  (println (format "%-13s %-20s %-13s %-26s %-10s %4d %6s %s" (:sample_id x) (clip (:type x) 20) (or (:parent x) "-")
                   (or (:relation x) "-") (:position x) (:required_temp_c x) (:amount x) (:status x))))
(println "<<FRZ08>> 2025-03-09 13:00-16:00:"
         (mapv (juxt :ts :temp_c) (filter #(and (<= (compare "2025-03-09T13:00" (:ts %)) 0) (<= (compare (:ts %) "2025-03-09T16:00") 0))
                                          (:readings (get logs "<<FRZ08>>")))))
'''))

s.turn(F("<<FRZ08>> peaked at -74.6 °C after the 7-minute door opening, below its -70 °C alarm: its samples, <<S419>>, <<S504>> and <<P471>> included, are not affected. The checklist's rule for the samples, then the list for <<FRZ03>>:"), r'''
(def c10 (tool/inv-checklist {:item "C-10"}))
(println (:text c10))
(println "guidance:" (:guidance c10))
(def to-flag (mapv :sample_id (filter #(and (= -80 (:required_temp_c %)) (not= "depleted" (:status %))) (:samples frz03))))
(def not-flagged (for [x (:samples frz03) :when (not (some #{(:sample_id x)} to-flag))]
                   [(:sample_id x) (if (= "depleted" (:status x)) "depleted" (str "requires " (:required_temp_c x) " °C; peak " (:peak excursion)))]))
(println "flag" (count to-flag) ":" to-flag)
(doseq [[id why] not-flagged] (println "  not flagged" id "-" why))
''')

s.turn("Nine samples rated -80 °C to flag; the depleted lysate and the three -20 °C samples stay as they are (the peak never reached -15 °C). Flagging them:", F(r'''
(def flag-batch (tool/inv-sample-flag {:sample_ids to-flag :flag "excursion-exposed"
                                       :reason "<<REASON>>"}))
(println (:batch_id flag-batch) (:flag flag-batch) (count (:flagged flag-batch)) "samples; notified" (:notified flag-batch))
(doseq [f (:flagged flag-batch)] (println "  " (:sample_id f) (:previous_status f) "->" (:status f)))
'''))

s.turn("Now expired stock (C-07): everything past the audit date, and what expires before the inspection.", r'''
(def audit-date (:audit_date data/brief))
(def inspection-date (get-in data/brief [:inspection :date]))
(def expired (filterv #(< (:expiry %) audit-date) inv))
(def expiring (filterv #(and (>= (:expiry %) audit-date) (< (:expiry %) inspection-date)) inv))
(doseq [x (concat expired expiring)] (println (row x) "|" (:location x)))
''', "type")

s.turn("Dates are strings here; compare them with compare.", r'''
(def audit-date (:audit_date data/brief))
(def inspection-date (get-in data/brief [:inspection :date]))
(defn before? [a b] (neg? (compare a b)))
(def expired (filterv #(before? (:expiry %) audit-date) inv))
(def expiring (filterv #(and (not (before? (:expiry %) audit-date)) (before? (:expiry %) inspection-date)) inv))
(println "expired before" audit-date ":")
(doseq [x expired] (println " " (row x) "|" (:location x) (:waste_stream x)))
(println "expiring before the inspection on" inspection-date ":")
(doseq [x expiring] (println " " (row x) "|" (:location x) (:waste_stream x)))
''')

s.turn(F("<<HCL37>> is the opened 37 % hydrochloric acid, lot <<L_HCL37>>, expired <<X_HCL37>>. But `hcl` said lot <<L_HCL1>>, in date until <<X_HCL1>>: the zipmap kept only the last container per CAS number, and three share <<CAS_HCL>>. Rebuilding the index, `hcl` and the segregation finding:"), F(r'''
(def by-cas (group-by :cas inv))
(doseq [x (get by-cas "<<CAS_HCL>>")]
  (println (row x) "|" (:position x)))
(def hcl (first (filter #(= "<<L_HCL37>>" (:lot %)) (get by-cas "<<CAS_HCL>>"))))
(println "HCl 37 % opened:" (:item_id hcl) (:lot hcl) "expired" (:expiry hcl))
(def seg-findings
  [{:check "C-03" :severity "critical" :location "<<AC1>>"
    :items ["<<HYPO>>" "<<HCL37>>" "<<HCL37B>>" "<<HCL1>>" "<<NITRIC>>"]
    :summary "sodium hypochlorite (<<HYPO>>) on tray A with three hydrochloric acid containers (<<HCL37>> 37 % lot <<L_HCL37>>, expired <<X_HCL37>>; <<HCL37B>> 37 % lot <<L_HCL37B>>; <<HCL1>> 1 mol/L) and next to nitric acid <<NITRIC>>: acids liberate chlorine"}
   (second seg-findings)])
(doseq [f seg-findings] (println (:check f) (:location f) (:items f) "-" (:summary f)))
'''))

s.turn("Peroxide formers (C-08): every EUH019 container with its months since opening, and the ether's SDS on storage and packs.", F(r'''
(defn months-between [a b]
  (+ (* 12 (- (parse-long (subs b 0 4)) (parse-long (subs a 0 4)))) (- (parse-long (subs b 5 7)) (parse-long (subs a 5 7)))))
(def peroxide-formers (filterv #(some #{"EUH019"} (:ghs %)) inv))
(doseq [x peroxide-formers]
  (println (:item_id x) (:name x) "| lot" (:lot x) "|" (:location x) "| opened" (:opened x) "->"
           (months-between (:opened x) audit-date) "months | expiry" (:expiry x)))
(doseq [sec [7 1]]
  (let [sds (tool/inv-sds {:cas "<<CAS_ETHER>>" :section sec})]
    (println (str "-- SDS <<CAS_ETHER>> rev. " (:revision sds) " section " sec))
    (println (:text sds))))
'''))

s.turn(F("The ether (<<ETHER>>, lot <<L_ETHER>>) was opened on <<O_ETHER>>: <<M_ETHER>> months, past the 12-month limit, and it sits in a domestic fridge (C-05), so it goes to waste; the THF is at <<M_THF>> months. Now C-04: flammable liquids outside the flammables cabinets and the flammable-safe fridge, per room."), r'''
(def flam-storage (set (map :location_id (filter #(or (= "flammables cabinet" (:kind %)) (str/includes? (:description %) "flammable-safe")) locs))))
(def room-of (into {} (map (juxt :location_id :room) locs)))
(defn flammable? [x] (some #{"H224" "H225" "H226"} (:ghs x)))
(def outside-flam (filterv #(and (flammable? %) (not (flam-storage (:location %)))) inv))
(println "approved flammable storage:" flam-storage)
(doseq [x outside-flam]
  (println (format "%-8s %-40s %-11s %8s mL" (:item_id x) (clip (:name x) 40) (:location x) (get-in x [:quantity :amount]))))
(def outside-flam-l (/ (sum (map #(get-in % [:quantity :amount]) outside-flam)) 1000.0))
(println "per room:" (frequencies (map (comp room-of :location) outside-flam)))
(println (format "B2.114: %.2f L of flammable liquids outside approved storage (limit 10 L)" outside-flam-l))
''')

s.prose(F("""Where the audit stands before I start fixing:

- C-03 segregation: hydrogen peroxide 30 % (<<H2O2>>, <<CAS_H2O2>>) in the flammables cabinet <<FC1>>; sodium hypochlorite (<<HYPO>>) on tray A of <<AC1>> with three hydrochloric acid containers and the nitric acid. Both need to move.
- C-05 / C-08: diethyl ether <<ETHER>> opened <<O_ETHER>>, <<M_ETHER>> months, in the domestic fridge <<REF04>>: waste, and a small pack reordered into the flammable-safe fridge <<REF07>>.
- C-07: expired acetone <<ACX>> (lot <<L_ACX>>), hydrochloric acid 37 % <<HCL37>> (lot <<L_HCL37>>), phenol:chloroform:isoamyl alcohol <<PHENOL>>; sodium hydroxide 0.5 mol/L <<NAOH05>> expires <<X_NAOH05>>, before the inspection.
- C-04: <<NAIVE>> L outside approved storage in B2.114, within the 10 L limit.
- C-09 / C-10: <<FRZ03>> above -70 °C from <<H_FROM>> to <<H_TO>> on 2025-03-08 (<<EXC_MIN>> min, peak <<PEAK>> °C); nine -80 °C samples flagged (<<FB>>).

Next: the moves (hypochlorite to the base cabinet, peroxide to the oxidizer cabinet), the capacity of the flammables cabinets, the SDS revisions, then waste requests, reorders and the report."""))

s.turn("Moving the hypochlorite out of the acid cabinet into the base cabinet:", F(r'''
(def move-hypo (tool/inv-move {:item_id "<<HYPO>>" :to "<<BC1>>"
                               :reason "C-03: hypochlorite (OB) on tray A with hydrochloric acid in <<AC1>> (chlorine)"}))
(println (:move_id move-hypo) (:status move-hypo) (:from move-hypo) "->" (:to move-hypo))
'''), "tool")

s.turn(F("Refused: the base cabinet holds triethylamine (<<TEA>>, a flammable base), incompatible with hypochlorite. The hypochlorite SDS on storage, the matrix for OB/OX, then both oxidizing containers into the oxidizer cabinet <<OC1>>:"), F(r'''
(def hypo-sds (tool/inv-sds {:cas "<<CAS_HYPO>>" :section 7}))
(println (:text hypo-sds))
(println "OC1 holds:" (map (juxt :item_id :name :storage_groups) (filter #(= "<<OC1>>" (:location %)) inv)))
(println "OB/OX:" (select-keys (first (:pairs (tool/inv-compat {:groups ["OB" "OX"]}))) [:rule :note]))
(def move-hypo (tool/inv-move {:item_id "<<HYPO>>" :to "<<OC1>>"
                               :reason "C-03: hypochlorite (OB) out of the acid cabinet <<AC1>> (chlorine with acids); the base cabinet holds triethylamine"}))
(def move-h2o2 (tool/inv-move {:item_id "<<H2O2>>" :to "<<OC1>>"
                               :reason "C-03: hydrogen peroxide 30 % (OX) out of the flammables cabinet <<FC1>>"}))
(doseq [m [move-hypo move-h2o2]]
  (println (:move_id m) (:item_id m) (:name m) "lot" (:lot m) (:from m) "->" (:to m) (:status m) "at" (:at m) "|" (:label m)))
'''))

s.turn("Both recorded. Cabinet capacity (C-06): litres in each flammables cabinet against its rating, with a unit helper.", F(r'''
(defn ->l [q] (case (:unit q) "L" (:amount q) "mL" (/ (:amount q) 1000.0) 0.0))
(def capacity (into {} (map (juxt :location_id :capacity_l) locs)))
(def cabinet-fill
  (for [loc ["<<FC1>>" "<<FC3>>"]]
    (let [items (filter #(= loc (:location %)) inv)]
      {:loc loc :l (sum (map #(->l (get-in % [:quantity :amount]) (get-in % [:quantity :unit])) items)) :cap (capacity loc)})))
(doseq [c cabinet-fill] (println (:loc c) (:l c) "of" (:cap c) "L"))
'''), "arity")

s.turn("->l takes the quantity map.", F(r'''
(defn ->l [q] (case (:unit q) "L" (:amount q) "mL" (/ (:amount q) 1000.0) 0.0))
(def capacity (into {} (map (juxt :location_id :capacity_l) locs)))
(def cabinet-fill
  (vec (for [loc ["<<FC1>>" "<<FC3>>"]]
         (let [items (filter #(= loc (:location %)) inv)]
           {:loc loc :l (sum (map #(->l (:quantity %)) items)) :cap (capacity loc)}))))
(doseq [c cabinet-fill] (println (format "%-11s %5.2f L of %d L" (:loc c) (:l c) (:cap c))))
(println "units in stock:" (frequencies (map #(get-in % [:quantity :unit]) inv)))
(println "units of the flammables outside approved storage:" (frequencies (map #(get-in % [:quantity :unit]) outside-flam)))
'''))

s.turn("The flammables outside approved storage are not all in mL: two containers are in L, and my C-04 sum counted them as mL (the table even printed them as \"4.0 mL\" and \"2.5 mL\"). Redoing it in litres:", r'''
(def outside-flam-ml-sum outside-flam-l)
(def outside-flam-l (sum (map #(->l (:quantity %)) outside-flam)))
(doseq [x outside-flam]
  (println (format "%-8s %-40s %-11s %6.1f %-2s = %5.2f L" (:item_id x) (clip (:name x) 40) (:location x)
                   (get-in x [:quantity :amount]) (get-in x [:quantity :unit]) (->l (:quantity x)))))
(println (format "B2.114: %.2f L outside approved storage (was %.2f L); limit 10 L -> %s" outside-flam-l outside-flam-ml-sum
                 (if (> outside-flam-l 10) "OVER" "ok")))
''')

s.turn(F("<<TRUE_L>> L: over the limit. The biggest container is the 4 L methanol <<MEOH>> on the hood floor; the ether leaves anyway. Methanol's SDS on working quantities, then the methanol into the under-hood cabinet <<FC3>> (<<FC3_FREE>> L of 20 L free):"), F(r'''
(println (:text (tool/inv-sds {:cas "<<CAS_MEOH>>" :section 7})))
(def move-meoh (tool/inv-move {:item_id "<<MEOH>>" :to "<<FC3>>"
                               :reason "C-04: B2.114 holds <<TRUE_L>> L of flammable liquids outside approved storage (limit 10 L)"}))
(println (:move_id move-meoh) (:item_id move-meoh) (:name move-meoh) "lot" (:lot move-meoh) (:from move-meoh) "->" (:to move-meoh)
         "| cabinet" (:contents_after_l move-meoh) "of" (:capacity_l move-meoh) "L")
(println (format "outside approved storage after the move and the ether's disposal: %.2f L"
                 (- outside-flam-l (->l (:quantity (first (filter #(= "<<MEOH>>" (:item_id %)) inv))))
                    (->l (:quantity (first (filter #(= "<<ETHER>>" (:item_id %)) inv)))))))
'''))

s.turn("Safety data sheets (C-02): the revision of every SDS on file, against five years before the inspection.", F(r'''
(def sds-cutoff "<<SDS_CUTOFF>>")
(def cas-list (vec (distinct (map :cas inv))))
(def sds-meta (pmap #(tool/inv-sds {:cas %}) cas-list))
(def sds-missing (filterv #(false? (:on_file %)) sds-meta))
(def sds-old (filterv #(and (:on_file %) (before? (:revision %) sds-cutoff)) sds-meta))
(println (count cas-list) "CAS numbers," (count (filter :on_file sds-meta)) "SDS on file; oldest revisions:")
(doseq [x (take 6 (sort-by :revision (filter :on_file sds-meta)))]
  (println (format "  %-11s %-10s %s" (:cas x) (:revision x) (:product x))))
(println "older than" sds-cutoff ":" (mapv (juxt :cas :product :revision) sds-old))
(println "missing:" (mapv (juxt :cas :note) sds-missing) (mapv (juxt :item_id :name :location) (filter #(some #{(:cas %)} (map :cas sds-missing)) inv)))
'''))

s.turn(F("Two SDS are older than five years (sodium azide <<CAS_AZIDE>> from <<R_AZIDE>>, ammonium persulfate <<CAS_APS>> from <<R_APS>>; permanganate's <<R_KMNO4>> just passes) and none is on file for TEMED (<<CAS_TEMED>>). Now the disposals: the C-07 guidance, then the list by waste stream."), r'''
(def c07 (tool/inv-checklist {:item "C-07"}))
(println "guidance:" (:guidance c07))
(def disposals
  (vec (for [x (concat expired expiring peroxide-formers)
             :when (or (some #{x} expired) (some #{x} expiring) (>= (months-between (:opened x) audit-date) 12))]
         {:item_id (:item_id x) :lot (:lot x) :quantity (get-in x [:quantity :amount]) :unit (get-in x [:quantity :unit])
          :stream (:waste_stream x) :name (:name x) :location (:location x) :position (:position x)
          :why (cond (some #{x} expired) (str "expired " (:expiry x))
                     (some #{x} expiring) (str "expires " (:expiry x) ", before the inspection")
                     :else (str "peroxide former opened " (:opened x)))})))
(doseq [[stream xs] (group-by :stream disposals)]
  (println stream)
  (doseq [d xs] (println (format "   %-8s %-10s %7.1f %-2s %-38s %-11s %s" (:item_id d) (:lot d) (:quantity d) (:unit d) (clip (:name d) 38) (:location d) (:why d)))))
''')

s.turn("Five containers, each in its own stream. One request per stream:", r'''
(def waste
  (vec (pmap (fn [[stream xs]]
               (tool/inv-waste-request {:stream stream
                                        :items (mapv #(select-keys % [:item_id :lot :quantity :unit]) xs)
                                        :reason (str "C-07/C-08 before the EHS inspection on " inspection-date ": "
                                                     (str/join "; " (map #(str (:item_id %) " " (:why %)) xs)))}))
             (group-by :stream disposals))))
(doseq [r waste]
  (println (:request_id r) (:stream r) (:status r) "| pickup" (:date (:pickup r)) (:window (:pickup r)) "|"
           (str/join ", " (map #(str (:item_id %) " lot " (:lot %)) (:items r)))))
(println (:label (first waste)))
''')

s.turn(F("All five scheduled for pickup on <<PICKUP>>, before the inspection. The labels to put on the containers today, where each one stands:"), r'''
(def labels
  (vec (for [r waste
             i (:items r)
             :let [d (first (filter #(= (:item_id i) (:item_id %)) disposals))]]
         {:label (str "FOR DISPOSAL " (:request_id r)) :item (:item_id i) :lot (:lot i) :where (str (:location d) ", " (:position d))})))
(doseq [l labels]
  (println (format "%-28s %-8s lot %-10s %s" (:label l) (:item l) (:lot l) (:where l))))
''')

s.turn("Reorders (C-11): for each disposed container, what in-date stock of the same product and concentration remains.", r'''
(def remaining
  (for [d disposals]
    (let [x (first (filter #(= (:item_id d) (:item_id %)) inv))
          same (filter #(and (= (:cas %) (:cas x)) (= (:concentration %) (:concentration x)) (not= (:item_id %) (:item_id x))
                             (not (some #{(:item_id %)} (map :item_id disposals)))) inv)]
      {:item (:item_id d) :name (:name x) :catalog (:catalog_no x) :cas (:cas x) :left (mapv (juxt :item_id :lot :expiry) same)})))
(doseq [r remaining]
  (println (format "%-8s %-44s %-13s %-11s left: %s" (:item r) (clip (:name r) 44) (:catalog r) (:cas r) (if (seq (:left r)) (:left r) "none"))))
''')

s.turn(F("Acetone and 37 % hydrochloric acid have in-date containers left (<<ACOK>> lot <<L_ACOK>>, <<HCL37B>> lot <<L_HCL37B>>); the phenol:chloroform, the 0.5 mol/L sodium hydroxide and the ether do not. Reordering those three, the ether as the 250 mL pack from its SDS, into the flammable-safe fridge:"), F(r'''
(def reorders
  (vec (pmap #(tool/inv-reorder (assoc % :cost_center (:cost_center data/brief) :quantity 1))
             [{:catalog_no "<<CAT_PHENOL>>" :deliver_to "<<REF04>>" :note "replaces <<PHENOL>> (expired <<X_PHENOL>>)"}
              {:catalog_no "<<CAT_NAOH>>" :deliver_to "<<BC1>>" :note "replaces <<NAOH05>> (expires <<X_NAOH05>>)"}
              {:catalog_no "<<CAT_ETHER>>" :deliver_to "<<REF07>>" :note "replaces <<ETHER>> (peroxide former, opened <<O_ETHER>>); smallest pack"}])))
(doseq [r reorders]
  (println (:requisition_id r) (:status r) "|" (:catalog_no r) (:product r) (:pack r) "|" (:total_eur r) "EUR | eta" (:eta r) "->" (:deliver_to r)))
(println "total" (sum (map :total_eur reorders)) "EUR")
'''))

s.turn("Before the report, a check of the layout after the moves and disposals: conflicts, flammables outside approved storage, flammables in the domestic fridge.", F(r'''
(def moved {"<<HYPO>>" "<<OC1>>" "<<H2O2>>" "<<OC1>>" "<<MEOH>>" "<<FC3>>"})
(def gone (set (map :item_id disposals)))
(def inv-after (vec (for [x inv :when (not (gone (:item_id x)))] (assoc x :location (get moved (:item_id x) (:location x))))))
(def seg-after
  (vec (for [loc chem-locs
             [x y] (combinations (filter #(= loc (:location %)) inv-after) 2)
             a (:storage_groups x) b (:storage_groups y)
             :let [p (rule-of [a b])]
             :when (and p (= "incompatible" (:rule p)))]
         [loc (:item_id x) (:item_id y)])))
(def outside-after (sum (map #(->l (:quantity %)) (filter #(and (flammable? %) (not (flam-storage (:location %)))) inv-after))))
(println "incompatible pairs after:" seg-after)
(println (format "flammables outside approved storage after: %.2f L" outside-after))
(println "flammables in <<REF04>> after:" (mapv :item_id (filter #(and (= "<<REF04>>" (:location %)) (flammable? %)) inv-after)))
(println "<<OC1>> after:" (mapv (juxt :item_id :storage_groups) (filter #(= "<<OC1>>" (:location %)) inv-after)))
'''))

s.turn(F("Clean: no incompatible pair left, <<AFTER_L>> L outside approved storage, no flammables in <<REF04>>. The findings for the report, each with its actions:"), F(r'''
(def findings
  (into (mapv #(assoc % :actions (if (= "<<AC1>>" (:location %)) ["<<MV1>>"] ["<<MV2>>"]))
              seg-findings)
        [{:check "C-04" :severity "major" :location "B2.114"
          :items ["<<MEOH>>" "<<ETOH70>>" "<<MECN>>" "<<XYL>>" "<<IPA1>>" "<<IPA2>>" "<<ETHER>>" "<<TEA>>"]
          :summary "<<TRUE_L>> L of flammable liquids outside approved storage in B2.114 (limit 10 L); <<AFTER_L>> L after the methanol move and the ether's disposal"
          :actions ["<<MV3>>" "<<WR_ETHER>>"]}
         {:check "C-05" :severity "major" :location "<<REF04>>" :items ["<<ETHER>>"]
          :summary "diethyl ether in the domestic refrigerator <<REF04>> (not rated for flammables)"
          :actions ["<<WR_ETHER>>"]}
         {:check "C-08" :severity "major" :location "<<REF04>>" :items ["<<ETHER>>"]
          :summary "diethyl ether lot <<L_ETHER>> opened <<O_ETHER>>, <<M_ETHER>> months (limit 12); disposed; 250 mL pack reordered into <<REF07>>"
          :actions ["<<WR_ETHER>>" "<<RQ_ETHER>>"]}
         {:check "C-07" :severity "minor" :location "B2.114"
          :items ["<<ACX>>" "<<HCL37>>" "<<PHENOL>>" "<<NAOH05>>"]
          :summary "expired: acetone lot <<L_ACX>> (<<X_ACX>>), hydrochloric acid 37 % lot <<L_HCL37>> (<<X_HCL37>>), phenol:chloroform:isoamyl alcohol lot <<L_PHENOL>> (<<X_PHENOL>>); sodium hydroxide 0.5 mol/L lot <<L_NAOH05>> expires <<X_NAOH05>>"
          :actions ["<<WR_ACX>>" "<<WR_HCL>>" "<<WR_PHENOL>>" "<<WR_NAOH>>" "<<RQ_PHENOL>>" "<<RQ_NAOH>>"]}
         {:check "C-02" :severity "minor" :location "<<GC2>> / <<OC1>>" :items ["<<AZIDE>>" "<<APS>>"]
          :summary "SDS older than five years: sodium azide <<CAS_AZIDE>> (<<R_AZIDE>>), ammonium persulfate <<CAS_APS>> (<<R_APS>>); current versions requested from the suppliers"
          :actions []}
         {:check "C-02" :severity "minor" :location "<<REF07>>" :items ["<<TEMED>>"]
          :summary "no SDS on file for TEMED (<<CAS_TEMED>>); requested from Sigma-Aldrich" :actions []}
         {:check "C-09" :severity "critical" :location "<<FRZ03>>" :items []
          :summary "<<FRZ03>> above -70 °C on 2025-03-08 from <<H_FROM>> to <<H_TO>> (<<EXC_MIN>> min), peak <<PEAK>> °C at <<H_PEAK>>; compressor fault E-17; alarm calls unanswered until <<H_ACK>>"
          :actions ["<<TICKET>>"]}
         {:check "C-10" :severity "critical" :location "<<FRZ03>>" :items to-flag
          :summary "9 samples requiring -80 °C flagged excursion-exposed; not affected: <<S419>> and <<S504>> (aliquots in <<FRZ08>>), <<S011>>, <<S014>>, <<S047>> (-20 °C), <<S388>> (depleted)"
          :actions ["<<FB>>"]}]))
(doseq [f findings]
  (println (format "%-4s %-8s %-22s %s" (:check f) (:severity f) (:location f) (:summary f)))
  (println "      items:" (str/join " " (:items f)) "| actions:" (str/join " " (:actions f))))
'''))

SUBMIT_HEAD = r'''
(def report
  (tool/inv-inspection-submit
    {:lab (:lab data/brief)
     :inspection_date inspection-date
     :findings (mapv #(select-keys % [:check :severity :summary :items :actions]) findings)
'''

s.cut("Every finding has its containers and actions. Submitting the pre-inspection report:",
      SUBMIT_HEAD.lstrip("\n") + F(r'''     :moves ["<<MV1>>" "<<MV2>>" "<<MV3>>"]
     :waste_requests (mapv :request_id waste)
     :reorders (mapv :requisition_id reorders)
     :sample_flags ["<<FB>>"]
     :excursions [{:location "<<FRZ03>>" :from "<<EXC_FROM>>" :to "<<EXC_TO>>"'''))

s.turn("The answer was cut off; the whole call again, with shorter notes:", SUBMIT_HEAD + F(r'''     :moves ["<<MV1>>" "<<MV2>>" "<<MV3>>"]
     :waste_requests (mapv :request_id waste)
     :reorders (mapv :requisition_id reorders)
     :sample_flags ["<<FB>>"]
     :excursions [{:location "<<FRZ03>>" :from "<<EXC_FROM>>" :to "<<EXC_TO>>" :minutes <<EXC_MIN>> :peak_c <<PEAK>>}]
     :notes "Containers for disposal are labelled with their waste request ids until the EHS pickup on <<PICKUP>>. Current SDS requested for <<CAS_AZIDE>>, <<CAS_APS>> and <<CAS_TEMED>>."}))
(println (:report_id report) (:status report) "| received" (:received report) "|" (:inspector report) "|" (:findings report) "findings," (:open_actions report) "without an action")
(println (:url report))
'''))

s.turn("Submitted; the two findings without an action id are the SDS requests. The summary:", F(r'''
(return
  {:report "<<REP>>"
   :inspection "2025-03-14"
   :findings (mapv #(select-keys % [:check :severity :items :summary]) findings)
   :moves [{:move "<<MV1>>" :item "<<HYPO>>" :from "<<AC1>>" :to "<<OC1>>"}
           {:move "<<MV2>>" :item "<<H2O2>>" :cas "<<CAS_H2O2>>" :from "<<FC1>>" :to "<<OC1>>"}
           {:move "<<MV3>>" :item "<<MEOH>>" :from "<<FH1>>" :to "<<FC3>>"}]
   :waste-requests [{:request "<<WR_ACX>>" :item "<<ACX>>" :lot "<<L_ACX>>" :why "expired <<X_ACX>>"}
                    {:request "<<WR_HCL>>" :item "<<HCL37>>" :lot "<<L_HCL37>>" :why "expired <<X_HCL37>>"}
                    {:request "<<WR_PHENOL>>" :item "<<PHENOL>>" :lot "<<L_PHENOL>>" :why "expired <<X_PHENOL>>"}
                    {:request "<<WR_NAOH>>" :item "<<NAOH05>>" :lot "<<L_NAOH05>>" :why "expires <<X_NAOH05>>"}
                    {:request "<<WR_ETHER>>" :item "<<ETHER>>" :lot "<<L_ETHER>>" :why "peroxide former opened <<O_ETHER>>"}]
   :reorders [{:requisition "<<RQ_PHENOL>>" :catalog "<<CAT_PHENOL>>" :to "<<REF04>>"}
              {:requisition "<<RQ_NAOH>>" :catalog "<<CAT_NAOH>>" :to "<<BC1>>"}
              {:requisition "<<RQ_ETHER>>" :catalog "<<CAT_ETHER>>" :to "<<REF07>>"}]
   :flammables-outside-l {:room "B2.114" :before <<TRUE_L>> :after <<AFTER_L>> :limit 10}
   :excursion {:freezer "<<FRZ03>>" :from "<<EXC_FROM>>" :to "<<EXC_TO>>" :minutes <<EXC_MIN>> :peak-c <<PEAK>>
               :service-ticket "<<TICKET>>"}
   :sds {:outdated [{:cas "<<CAS_AZIDE>>" :revision "<<R_AZIDE>>"} {:cas "<<CAS_APS>>" :revision "<<R_APS>>"}]
         :missing ["<<CAS_TEMED>>"] :within-five-years {:cas "<<CAS_KMNO4>>" :revision "<<R_KMNO4>>"}}
   :samples-flagged {:batch "<<FB>>" :samples to-flag}
   :not-affected ["<<S419>>" "<<S504>>" "<<P471>>"]})
'''), "return")

if __name__ == "__main__":
    s.write(__file__)
