#!/usr/bin/env python3
"""The model answers of the payroll-close session.
The run id, employee ids and names, cost centres, change ids, garnishment
orders, annual salaries, effective dates, thresholds of the tax tables, the
FX fixing, bank account endings, batch ids with their control counts and
totals and the approval id the agent reuses are taken from world.py (and
tool.py's numbering), as the model takes them from the prints of earlier
turns. Two corrections, each after the old value was printed and used: the
overtime of the hourly staff is first paid at 1.5x on every timesheet row
(`ot-pay`), and redone once the variance report flags the overtime of
E-10248, E-10301 and E-10362 and the export's notes say that the Kronos rows
already carry premium-equivalent hours (1.5x only on manual rows); the raise
of Dana Whitfield (E-10482), the new hire E-10561 and the leaver E-10377 are
first prorated on calendar days (x/15, `raise-pay`, `hire-pay`,
`leaver-pay`) and redone on working days (x/10) as the checklist requires.
The GBP nets, first left unrounded, are refused by the bank file preview and
rounded to the penny (`gb-net` redefined). Later programs write only the
corrected values."""
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

RUN = w.RUN_ID
US_FINAL = {e: w.us_pay(e) for e in w.US_IDS}
GB_FINAL = {e: w.gb_pay(e) for e in w.GB_IDS}
PAYMENTS = [{"employee_id": e, "amount": US_FINAL[e]["net"], "currency": "USD"} for e in w.US_IDS] + \
    [{"employee_id": e, "amount": GB_FINAL[e]["net"], "currency": "GBP"} for e in w.GB_IDS]
PREVIEW = t.pay_bank_preview({"run_id": RUN, "payments": PAYMENTS})
ACH = next(b for b in PREVIEW["batches"] if b["currency"] == "USD")
BACS = next(b for b in PREVIEW["batches"] if b["currency"] == "GBP")
FX = w.FX[w.FX_LAST]
USD_EQ = w.cents(BACS["total"] * FX)
SUBMIT = t.pay_submit({"run_id": RUN, "approver": "r.nakashima",
                       "batches": [{"batch_id": b["batch_id"], "currency": b["currency"], "count": b["count"],
                                    "total": b["total"]} for b in (ACH, BACS)]})
APPROVAL = SUBMIT["approval_id"]
RAISE = [c for c in w.CHANGES if c["change_id"] == "CHG-5512"][0]
HIRE = [c for c in w.CHANGES if c["change_id"] == "CHG-5515"][0]
LEAVE = [c for c in w.CHANGES if c["change_id"] == "CHG-5519"][0]
G418, G481 = w.GARNISHMENTS[0], w.GARNISHMENTS[1]
DW, DG = w.DANA_US, w.DANA_GB
NEW_KRONOS_OT = {e: US_FINAL[e]["overtime"] for e in sorted(w.KRONOS)}
F = dict(RUN=RUN, DW=DW, DG=DG, HIRE=w.HIRE, LEAVER=w.LEAVER, LEVY=G481["employee_id"],
         FROM=RAISE["detail"]["annual_from"][:-3], TO=RAISE["detail"]["annual_to"][:-3], EFF=RAISE["effective"],
         HANNUAL=HIRE["detail"]["annual"][:-3], HFIRST=HIRE["effective"], LAST=LEAVE["effective"],
         LANNUAL=w.US_EMP[w.LEAVER][4][:-3], PTO=int(LEAVE["detail"]["pto_payout_hours"]),
         G418=G418["order_no"], G481=G481["order_no"], GAMT=G418["amount_per_period"], GBAL=G481["balance_remaining"],
         EXPORT=w.EXPORT_ID, FX=FX, FXDATE=w.FX_LAST, NEWACC=w.NEW_ACCOUNT, OLDACC=w.GB_EMP[DG][6],
         USACC=w.US_EMP[DW][6], ACH=ACH["batch_id"], BACS=BACS["batch_id"], ACHN=ACH["count"], BACSN=BACS["count"],
         ACHT="%.2f" % ACH["total"], BACST="%.2f" % BACS["total"], USDEQ="%.2f" % USD_EQ, APR=APPROVAL,
         BAND=w.TAX_TABLES["GB-PAYE"]["bands"][0]["up_to"], PT=w.TAX_TABLES["GB-NI"]["primary_threshold"],
         UEL=w.TAX_TABLES["GB-NI"]["upper_earnings_limit"],
         SSBASE="%.1f" % w.TAX_TABLES["US-FICA"]["social_security"]["wage_base_annual"],
         CAP="%.1f" % w.K401_CAP, CUTOFF=w.CUTOFF, PREVAPR=w.PREV_APPROVAL, PREV=w.PREV_RUN, GONE=w.GONE)

CAP_EMP = [e for e in w.US_IDS if w.BENEFITS_US[e][5] + US_FINAL[e]["k401"] >= w.K401_CAP][0]
SS_EMP = [e for e in w.US_IDS if w.YTD_SS_WAGES.get(e, 0) > 100000][0]

# --- the session -------------------------------------------------------------------------

s.turn("Starting with the checklist and the pay runs of the group.", r'''
(println (:company data/checklist) "|" (:payroll_group data/checklist))
(println (:handover data/checklist))
(doseq [[i step] (map-indexed vector (:steps data/checklist))]
  (println (str (inc i) ".") step))
(def runs (tool/pay-run {}))
(println "as of" (:as_of runs))
(doseq [r (:runs runs)]
  (println (format "%-12s %-9s %-22s pay %s %-7s %2d employees" (:run_id r) (:group r) (:period r) (:pay_date r)
                   (:status r) (:employees r))
           (or (:bank_cutoff r) (:approval_id r))))
''')

s.turn("One open run. Its details, the calendar and who is in it:", fill(r'''
(def run (tool/pay-run {:run_id "<<RUN>>"}))
(println (:run_id run) (:company run) (:period run) "pay date" (:pay_date run) "cut-off" (:bank_cutoff run)
         "previous" (:previous_run run))
(println "calendar:" (:calendar run))
(doseq [c (:cost_centres run)]
  (println "  " (:code c) (:name c)))
(doseq [e (:employees run)]
  (println (format "%-8s %-19s %-2s %-3s %-7s %s" (:employee_id e) (:name e) (:country e) (:currency e)
                   (:cost_centre e) (:pay_basis e))))
(println (frequencies (map :country (:employees run))) (frequencies (map :pay_basis (:employees run))))
''', **F))

s.turn("20 people, 13 US and 7 UK. Note the two Danas: Whitfield (E-10482, US) and Whitfeld (E-10428, UK). The US master:", r'''
(def us-master (:employees (tool/pay-employees {:country "US"})))
(doseq [e us-master]
  (println (format "%-8s %-18s %-7s %-2s %-6s %10s %-7s hired %s ACH ..%s ytd-ss %s" (:employee_id e) (:name e)
                   (:cost_centre e) (:grade e) (:pay_basis e) (:pay_rate e) (get-in e [:tax :w4_filing_status])
                   (:hire_date e) (get-in e [:bank :account_last4]) (get-in e [:tax :ytd_ss_wages]))))
''')

s.turn("And the UK master:", r'''
(def gb-master (:employees (tool/pay-employees {:country "GB"})))
(doseq [e gb-master]
  (println (format "%-8s %-18s %-7s %-2s %9s GBP  code %-5s NI %s  hired %s BACS ..%s" (:employee_id e) (:name e)
                   (:cost_centre e) (:grade e) (:pay_rate e) (get-in e [:tax :tax_code]) (get-in e [:tax :ni_category])
                   (:hire_date e) (get-in e [:bank :account_last4]))))
(def gb-ids (mapv :employee_id gb-master))
(def us-ids (mapv :employee_id us-master))
''')

s.turn("The timesheets of the five hourly people:", fill(r'''
(def ts (tool/pay-timesheets {:run_id "<<RUN>>"}))
(println (:export_id ts) "exported" (:exported ts) "approved" (:approved ts) "-" (count (:rows ts)) "rows")
(def hours-by-emp (group-by :employee_id (:rows ts)))
(doseq [[eid rows] (sort-by key hours-by-emp)]
  (println (format "%-8s %-7s reg %5.1f  ot %4.1f  days %2d" eid (:cost_centre (first rows))
                   (sum-by :regular_hours rows) (sum-by :overtime_hours rows) (count rows))
           (frequencies (map :source rows))))
(println "rows with overtime or short days:")
(doseq [r (filter #(or (pos? (:overtime_hours %)) (< (:regular_hours %) 8.0)) (:rows ts))]
  (println "  " (:employee_id r) (:date r) "reg" (:regular_hours r) "ot" (:overtime_hours r) (:source r)))
''', **F))

s.turn("Hourly gross: regular hours at the rate, overtime at 1.5x.", r'''
(def rates (into {} (map (juxt :employee_id :pay_rate) us-master)))
(def hourly-ids (vec (sort (keys hours-by-emp))))
(def hourly-pay
  (into {} (for [eid hourly-ids]
             (let [rows (hours-by-emp eid)]
               [eid {:regular (* (rates eid) (sum-by :regular_hours rows))
                     :overtime (* (rates eid) 1.5 (sum-by :overtime_hours rows))}]))))
(println hourly-pay)
''', "type")

s.turn("The master exports pay_rate as a string. Parsing it, and rounding to the cent:", r'''
(defn cents [x] (/ (round (* x 100)) 100.0))
(def rates (into {} (map (juxt :employee_id #(parse-double (:pay_rate %))) us-master)))
(def hourly-ids (vec (sort (keys hours-by-emp))))
(def hourly-base (into {} (for [eid hourly-ids] [eid (cents (* (rates eid) (sum-by :regular_hours (hours-by-emp eid))))])))
(def ot-pay (into {} (for [eid hourly-ids] [eid (cents (* (rates eid) 1.5 (sum-by :overtime_hours (hours-by-emp eid))))])))
(println (format "%-8s %7s %6s %5s %9s %8s %9s" "id" "rate" "reg" "ot" "base" "ot pay" "gross"))
(doseq [eid hourly-ids]
  (let [rows (hours-by-emp eid)]
    (println (format "%-8s %7.2f %6.1f %5.1f %9.2f %8.2f %9.2f" eid (rates eid) (sum-by :regular_hours rows)
                     (sum-by :overtime_hours rows) (hourly-base eid) (ot-pay eid) (+ (hourly-base eid) (ot-pay eid))))))
(println "overtime total:" (cents (reduce + (vals ot-pay))))
''')

s.turn("Now the HR changes pending for the run:", fill(r'''
(def changes (:changes (tool/pay-changes {:run_id "<<RUN>>"})))
(doseq [c changes]
  (println (:change_id c) (:employee_id c) (format "%-17s %-14s eff %s" (:name c) (:type c) (:effective c))
           (pr-str (:detail c)) (or (:note c) "")))
''', **F))

s.turn(fill("Dana Whitfield's raise (CHG-5512, <<FROM>> -> <<TO>>) starts on <<EFF>>, mid-period. Prorating by days at each rate:", **F), fill(r'''
(defn day-of [d] (parse-long (subs d 8 10)))
(defn cal-days [from to] (inc (- (day-of to) (day-of from))))
(defn prorate [annual days total] (cents (/ (* (/ annual 24) days) total)))
(def whitfield-days {:old (cal-days "2025-06-01" "2025-06-08") :new (cal-days "<<EFF>>" "2025-06-15")})
(def raise-pay (+ (prorate <<FROM>>.0 (:old whitfield-days) 15) (prorate <<TO>>.0 (:new whitfield-days) 15)))
(println "<<DW>> Dana Whitfield:" whitfield-days "of 15 days ->" raise-pay
         "| full period at old" (cents (/ <<FROM>>.0 24)) "at new" (cents (/ <<TO>>.0 24)))
''', **F))

s.turn(fill("The new hire <<HIRE>> starts on <<HFIRST>>; the leaver <<LEAVER>> works to <<LAST>> and gets <<PTO>> h of PTO.", **F), fill(r'''
(def hire-pay (prorate <<HANNUAL>>.0 (cal-days "<<HFIRST>>") 15))
(def leaver-pay (+ (prorate <<LANNUAL>>.0 (cal-days "2025-06-01" "<<LAST>>") 15) (cents (* (/ <<LANNUAL>>.0 2080) <<PTO>>))))
(println "<<HIRE>>" hire-pay "| <<LEAVER>>" leaver-pay)
''', **F), "arity")

s.turn("cal-days takes both ends.", fill(r'''
(def hire-pay (prorate <<HANNUAL>>.0 (cal-days "<<HFIRST>>" "2025-06-15") 15))
(def pto-payout (cents (* (/ <<LANNUAL>>.0 2080) <<PTO>>)))
(def leaver-pay (+ (prorate <<LANNUAL>>.0 (cal-days "2025-06-01" "<<LAST>>") 15) pto-payout))
(println "<<HIRE>> Priya Raman:" (cal-days "<<HFIRST>>" "2025-06-15") "of 15 days ->" hire-pay)
(println "<<LEAVER>> Grace Lindqvist:" (cal-days "2025-06-01" "<<LAST>>") "of 15 days ->"
         (- leaver-pay pto-payout) "+ PTO" pto-payout "=" leaver-pay)
''', **F))

s.turn("Gross for every US employee: the three changes, hourly base plus overtime, salaried annual/24.", r'''
(def special {"<<DW>>" raise-pay "<<HIRE>>" hire-pay "<<LEAVER>>" leaver-pay})
(defn gross-of [e]
  (let [eid (:employee_id e)]
    (cond (contains? special eid) (cents (special eid))
          (= "hourly" (:pay_basis e)) (cents (+ (hourly-base eid) (ot-pay eid)))
          :else (cents (/ (rates eid) 24)))))
(def us-gross (into {} (map (juxt :employee_id gross-of) us-master)))
(doseq [e us-master]
  (println (format "%-8s %-18s %-7s %-6s %10.2f %s" (:employee_id e) (:name e) (:cost_centre e) (:pay_basis e)
                   (us-gross (:employee_id e)) (if (contains? special (:employee_id e)) "(prorated)" ""))))
(println "US gross:" (cents (reduce + (vals us-gross))))
'''.replace("<<DW>>", DW).replace("<<HIRE>>", w.HIRE).replace("<<LEAVER>>", w.LEAVER))

s.turn("Deductions: benefits for everyone in the run.", r'''
(def benefits (tool/pay-benefits {:employee_ids (into us-ids gb-ids)}))
(def bens (into {} (map (juxt :employee_id identity) (:benefits benefits))))
(doseq [n (:notes benefits)] (println "note:" n))
(doseq [eid us-ids]
  (let [b (bens eid)]
    (println (format "%-8s med %-9s %7.2f  den %-5s %6.2f  401k %2d%% ytd %9.2f cap %.0f" eid
                     (or (get-in b [:medical :plan]) "-") (get-in b [:medical :per_period])
                     (or (get-in b [:dental :plan]) "-") (get-in b [:dental :per_period])
                     (get-in b [:retirement :pct]) (get-in b [:retirement :ytd]) (get-in b [:retirement :annual_cap])))))
(doseq [eid gb-ids]
  (println eid "pension" (get-in (bens eid) [:pension :scheme]) (get-in (bens eid) [:pension :pct]) "% salary sacrifice"))
''')

s.turn("The tax tables for both countries:", r'''
(def tax (into {} (map (fn [j] [j (tool/pay-tax-tables {:jurisdiction j})]) ["US-FED" "US-MA" "US-FICA" "UK-PAYE" "UK-NI"])))
(println (keys tax))
''', "tool")

s.turn("The UK tables are GB-PAYE and GB-NI.", r'''
(def tax (into {} (map (fn [j] [j (tool/pay-tax-tables {:jurisdiction j})]) ["US-FED" "US-MA" "US-FICA" "GB-PAYE" "GB-NI"])))
(let [fed (tax "US-FED")]
  (println "US-FED:" (:method fed) "|" (:applies_to fed))
  (doseq [[status rows] (:brackets fed)]
    (println "  " (name status) (str/join "  " (map #(format "%.2f+%.0f%%" (:over %) (* 100 (:rate %))) rows)))
    (println "     base" (str/join " " (map :base rows)))))
(println "US-MA:" (:rate (tax "US-MA")) "|" (:applies_to (tax "US-MA")))
(println "US-FICA:" (dissoc (tax "US-FICA") :jurisdiction))
(println "GB-PAYE:" (:basis (tax "GB-PAYE")) "|" (:allowance (tax "GB-PAYE")))
(println "   bands" (:bands (tax "GB-PAYE")) "|" (:applies_to (tax "GB-PAYE")))
(println "GB-NI:" (select-keys (tax "GB-NI") [:primary_threshold :upper_earnings_limit :main_rate :upper_rate :applies_to]))
''')

s.turn("The US net per employee, in the order of the tables: 401(k) within the cap, section 125, federal, MA (401(k) not excluded), FICA up to the wage base.", fill(r'''
(defn bracket-tax [taxable status]
  (let [r (last (filter #(<= (:over %) taxable) (get-in tax ["US-FED" :brackets (keyword status)])))]
    (cents (+ (:base r) (* (- taxable (:over r)) (:rate r))))))
(def us-by-id (into {} (map (juxt :employee_id identity) us-master)))
(defn us-net [eid gross ot]
  (let [b (bens eid) e (us-by-id eid)
        med (get-in b [:medical :per_period]) den (get-in b [:dental :per_period])
        k (cents (min (/ (* gross (get-in b [:retirement :pct])) 100) (- (get-in b [:retirement :annual_cap]) (get-in b [:retirement :ytd]))))
        fit (bracket-tax (- gross k med den) (get-in e [:tax :w4_filing_status]))
        ma (cents (* (- gross med den) 0.05))
        fica (- gross med den)
        ss (cents (* (min fica (- <<SSBASE>> (get-in e [:tax :ytd_ss_wages]))) 0.062))
        mc (cents (* fica 0.0145))]
    {:employee_id eid :gross gross :overtime ot :k401 k :medical med :dental den :fit fit :ma ma :ss ss :medicare mc
     :disposable (- gross fit ma ss mc) :garnishment 0.0 :net (cents (- gross k med den fit ma ss mc 0.0))}))
(def us-lines (mapv #(us-net % (us-gross %) (get ot-pay % 0.0)) us-ids))
(println (format "%-8s %9s %7s %7s %7s %7s %7s %7s %9s" "id" "gross" "401k" "med+den" "fed" "MA" "SS" "Medi" "net"))
(doseq [l us-lines]
  (println (format "%-8s %9.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %9.2f" (:employee_id l) (:gross l) (:k401 l)
                   (+ (:medical l) (:dental l)) (:fit l) (:ma l) (:ss l) (:medicare l) (:net l))))
''', **F))

s.turn("Garnishment orders on file:", fill(r'''
(def garn-file (tool/pay-garnishments {:run_id "<<RUN>>"}))
(doseq [o (:orders garn-file)]
  (println (:order_no o) (:employee_id o) (format "%-17s %-13s" (:name o) (:type o)) (:issuer o) "| case" (:case_no o)
           "| per period" (:amount_per_period o) "| max" (str (:max_pct_disposable o) "%") "| balance" (:balance_remaining o)
           "|" (:status o)))
(doseq [r (:rules garn-file)] (println "rule:" r))
''', **F))

s.turn(fill("Two active orders: <<G418>> (child support, <<DW>> Dana Whitfield, <<GAMT>> per period, at most 50%) and <<G481>> (levy on <<LEVY>>, 25%, only <<GBAL>> left). <<G418>> is not Dana Whitfeld's (E-10428). Applying them:", **F), fill(r'''
(defn garn-of [l]
  (case (:employee_id l)
    "<<DW>>" (min <<GAMT>> (cents (* (:disposable l) 0.5)))
    "<<LEVY>>" (min (cents (* (:disposable l) 0.25)) <<GBAL>>)
    0.0))
(defn with-garn [l]
  (let [g (garn-of l)]
    (assoc l :garnishment g
             :net (cents (- (:gross l) (:k401 l) (:medical l) (:dental l) (:fit l) (:ma l) (:ss l) (:medicare l) g)))))
(defn us-line [eid] (with-garn (us-net eid (us-gross eid) (get ot-pay eid 0.0))))
(def us-lines (mapv us-line us-ids))
(doseq [l (filter #(pos? (:garnishment %)) us-lines)]
  (println (:employee_id l) "disposable" (cents (:disposable l)) "garnishment" (:garnishment l) "net" (:net l)))
''', **F))

s.turn("Checking the two limits the tables mention: the 401(k) cap and the Social Security wage base.", fill(r'''
(doseq [l us-lines
        :let [b (bens (:employee_id l)) e (us-by-id (:employee_id l))
              ytd (get-in b [:retirement :ytd]) ss-ytd (get-in e [:tax :ytd_ss_wages])]
        :when (or (> (+ ytd (:k401 l)) (- <<CAP>> 1000)) (> ss-ytd 100000))]
  (println (:employee_id l) (:name e) "| 401k" (:k401 l) "ytd after" (+ ytd (:k401 l)) "of <<CAP>>"
           "| SS wages ytd" ss-ytd "+" (cents (- (:gross l) (:medical l) (:dental l))) "-> SS" (:ss l)
           (if (< (- <<SSBASE>> ss-ytd) (- (:gross l) (:medical l) (:dental l))) "(capped at the wage base)" "")))
''', **F))

s.turn("The UK side: salary sacrifice first, then PAYE on the code's allowance and employee NI.", fill(r'''
(def gb-by-id (into {} (map (juxt :employee_id identity) gb-master)))
(defn allowance [code]
  (if (= code "BR") 0.0 (/ (* (parse-long (subs code 0 (dec (count code)))) 10) 24.0)))
(defn gb-net [eid]
  (let [e (gb-by-id eid)
        gross (/ (parse-double (:pay_rate e)) 24)
        pension (/ (* gross (get-in (bens eid) [:pension :pct])) 100)
        adj (- gross pension)
        code (get-in e [:tax :tax_code])
        taxable (max 0.0 (- adj (allowance code)))
        paye (if (= code "BR") (* taxable 0.2) (+ (* 0.2 (min taxable <<BAND>>)) (* 0.4 (max 0.0 (- taxable <<BAND>>)))))
        ni (+ (* 0.08 (min (max (- adj <<PT>>) 0.0) (- <<UEL>> <<PT>>))) (* 0.02 (max 0.0 (- adj <<UEL>>))))]
    {:employee_id eid :gross gross :overtime 0.0 :pension pension :paye paye :ni ni :net (- adj paye ni)}))
(def gb-lines (mapv gb-net gb-ids))
(doseq [l gb-lines]
  (println (format "%-8s %-18s %-5s gross %8.2f pension %7.2f PAYE %7.2f NI %7.2f net %8.2f" (:employee_id l)
                   (:name (gb-by-id (:employee_id l))) (get-in (gb-by-id (:employee_id l)) [:tax :tax_code])
                   (:gross l) (:pension l) (:paye l) (:ni l) (:net l))))
''', **F))

s.turn(fill("Every line has a gross and a net. The variance report against <<PREV>>:", **F), fill(r'''
(defn vline [l] (select-keys l [:employee_id :gross :overtime :net]))
(def variance (tool/pay-variance {:run_id "<<RUN>>" :lines (mapv vline (concat us-lines gb-lines))}))
(println (:lines variance) "lines vs" (:previous_run variance) "| flagged:" (:flagged variance))
(doseq [r (:rows variance) :when (seq (:flags r))]
  (println (:employee_id r) (:name r) "gross" (:gross r) "ot" (:overtime r) "| previous" (:previous r))
  (doseq [f (:flags r)] (println "    " f)))
(doseq [m (:not_in_this_run variance)]
  (println "not in this run:" (:employee_id m) (:previous m) (:note m)))
''', **F))

s.turn("Overtime up 33-69% for three hourly people while their hours look normal. The timesheet export's notes, and each person's overtime by source:", r'''
(doseq [n (:notes ts)] (println "note:" n))
(doseq [eid hourly-ids]
  (let [rows (hours-by-emp eid)]
    (println eid (str/join " " (map (fn [[src rs]] (str src " " (sum-by :overtime_hours rs) " h")) (group-by :source rows)))
             "| paid" (ot-pay eid))))
''')

s.turn(fill("Since KR-OT-15 the clock exports premium-equivalent hours: paying 1.5x on the Kronos rows paid the premium twice for <<K>>. Redoing the overtime: Kronos hours at the plain rate, manual hours at 1.5x.", K=", ".join(sorted(w.KRONOS))), r'''
(def ot-pay-first ot-pay)
(def ot-pay
  (into {} (for [eid hourly-ids]
             (let [rows (hours-by-emp eid)
                   kronos (sum-by :overtime_hours (filter #(= "kronos" (:source %)) rows))
                   manual (sum-by :overtime_hours (remove #(= "kronos" (:source %)) rows))]
               [eid (cents (+ (cents (* (rates eid) kronos)) (cents (* (rates eid) 1.5 manual))))]))))
(doseq [eid hourly-ids]
  (println eid "overtime" (ot-pay-first eid) "->" (ot-pay eid)))
(def us-gross (into {} (map (juxt :employee_id gross-of) us-master)))
(def us-lines (mapv us-line us-ids))
(println "US gross now" (cents (reduce + (vals us-gross))) "| overtime" (cents (reduce + (vals ot-pay-first))) "->"
         (cents (reduce + (vals ot-pay))))
''')

s.turn("The variance report again with the corrected lines:", fill(r'''
(def variance (tool/pay-variance {:run_id "<<RUN>>" :lines (mapv vline (concat us-lines gb-lines))}))
(println "flagged:" (:flagged variance))
(doseq [r (:rows variance) :when (or (seq (:flags r)) (contains? (set hourly-ids) (:employee_id r)))]
  (println (format "%-8s %-18s gross %8.2f (%5s%%) ot %7.2f (%5s%%) net %8.2f" (:employee_id r) (:name r) (:gross r)
                   (or (:gross_change_pct r) "-") (:overtime r) (or (:overtime_change_pct r) "-") (:net r))
           (str/join "; " (:flags r))))
''', **F))

s.prose(fill("""Where the close stands:

- Run <<RUN>> (2025-06-01..2025-06-15, pay date 2025-06-20), 20 people: 13 US, 7 UK.
- Overtime corrected: the Kronos rows of <<EXPORT>> already carry premium-equivalent hours (rule KR-OT-15), so only manual rows get 1.5x. The variance report now flags only the new hire <<HIRE>>.
- Changes applied: raise of Dana Whitfield <<DW>> (CHG-5512) from <<EFF>>, new hire <<HIRE>> from <<HFIRST>>, leaver <<LEAVER>> to <<LAST>> with <<PTO>> h PTO.
- Garnishments: <<G418>> on <<DW>> (412.00), <<G481>> on <<LEVY>> (capped at the 286.40 balance).
- <<CAPEMP>> hits the 401(k) cap, <<SSEMP>> the Social Security wage base.

Before the bank file: go through the checklist once more, then FX, preview, submit.""", CAPEMP=CAP_EMP, SSEMP=SS_EMP, **F))

s.turn("Going through the checklist steps against what was done:", r'''
(doseq [[i step] (map-indexed vector (:steps data/checklist))]
  (println (str (inc i) ".") step))
(println "calendar:" (:calendar run))
''')

s.turn("Step 2: prorate on working days, never calendar days, and I used x/15. The working days of the period, by week (it starts on a Sunday):", r'''
(def period-days (mapv #(format "2025-06-%02d" %) (range 1 16)))
(def weeks (partitionv 7 period-days))
(def working (vec (mapcat #(subvec % 1 (min 6 (count %))) weeks)))
(println (count working) "working days:" working)
''', "unbound_symbol")

s.turn("No partitionv. The weekday from the day of the month instead (the 1st is a Sunday):", fill(r'''
(def period-days (mapv #(format "2025-06-%02d" %) (range 1 16)))
(defn weekday [d] (mod (+ (day-of d) 5) 7))
(def working (filterv #(< (weekday %) 5) period-days))
(defn work-days [from to] (count (filter #(and (<= (compare from %) 0) (<= (compare % to) 0)) working)))
(println (count working) "working days:" (str/join " " (map #(subs % 8) working)))
(def raise-pay-calendar raise-pay)
(def hire-pay-calendar hire-pay)
(def leaver-pay-calendar leaver-pay)
(def raise-pay (+ (prorate <<FROM>>.0 (work-days "2025-06-01" "2025-06-08") 10) (prorate <<TO>>.0 (work-days "<<EFF>>" "2025-06-15") 10)))
(def hire-pay (prorate <<HANNUAL>>.0 (work-days "<<HFIRST>>" "2025-06-15") 10))
(def leaver-pay (+ (prorate <<LANNUAL>>.0 (work-days "2025-06-01" "<<LAST>>") 10) pto-payout))
(println "<<DW>> raise: " (work-days "2025-06-01" "2025-06-08") "+" (work-days "<<EFF>>" "2025-06-15") "of 10 ->" raise-pay-calendar "->" raise-pay)
(println "<<HIRE>> hire:  " (work-days "<<HFIRST>>" "2025-06-15") "of 10 ->" hire-pay-calendar "->" hire-pay)
(println "<<LEAVER>> leaver:" (work-days "2025-06-01" "<<LAST>>") "of 10 ->" leaver-pay-calendar "->" leaver-pay)
''', **F))

s.turn("Rebuilding the US lines with the working-day amounts; the garnishment of Dana Whitfield follows her new disposable earnings:", fill(r'''
(def special {"<<DW>>" raise-pay "<<HIRE>>" hire-pay "<<LEAVER>>" leaver-pay})
(def us-gross (into {} (map (juxt :employee_id gross-of) us-master)))
(def us-lines (mapv us-line us-ids))
(doseq [l us-lines :when (contains? special (:employee_id l))]
  (prn (dissoc l :medical :dental)))
(println "US gross" (cents (reduce + (map :gross us-lines))) "net" (cents (reduce + (map :net us-lines))))
''', **F))

s.turn("And the variance once more, to be sure nothing new is flagged:", fill(r'''
(def variance (tool/pay-variance {:run_id "<<RUN>>" :lines (mapv vline (concat us-lines gb-lines))}))
(println "flagged:" (:flagged variance))
(doseq [eid ["<<DW>>" "<<HIRE>>" "<<LEAVER>>"]]
  (let [r (first (filter #(= eid (:employee_id %)) (:rows variance)))]
    (println eid (:name r) "gross" (:gross r) "net" (:net r) "| previous" (:previous r) "|" (or (:gross_change_pct r) "-") "%"
             (str/join "; " (:flags r)))))
''', **F))

s.turn("Only the new hire, as expected. The GBP fixing for the funding:", r'''
(def fx (tool/pay-fx {:pair "GBP/USD"}))
(println (:pair fx) (:date fx) (:rate fx) "-" (:source fx))
(doseq [r (:recent fx)] (println "  " (:date r) (:rate r)))
''')

s.turn("The bank file preview with every net payment:", fill(r'''
(def payments (into (mapv #(hash-map :employee_id (:employee_id %) :amount (:net %) :currency "USD") us-lines)
                    (mapv #(hash-map :employee_id (:employee_id %) :amount (:net %) :currency "GBP") gb-lines)))
(def preview (tool/pay-bank-preview {:run_id "<<RUN>>" :payments payments}))
(doseq [b (:batches preview)]
  (println (:batch_id b) (:currency b) (:count b) (:total b)))
''', **F), "tool")

s.turn("The UK nets were never rounded. Redoing gb-net with every component to the penny:", fill(r'''
(defn gb-net [eid]
  (let [e (gb-by-id eid)
        gross (cents (/ (parse-double (:pay_rate e)) 24))
        pension (cents (/ (* gross (get-in (bens eid) [:pension :pct])) 100))
        adj (- gross pension)
        code (get-in e [:tax :tax_code])
        taxable (max 0.0 (- adj (cents (allowance code))))
        paye (if (= code "BR") (cents (* taxable 0.2)) (cents (+ (* 0.2 (min taxable <<BAND>>)) (* 0.4 (max 0.0 (- taxable <<BAND>>))))))
        ni (cents (+ (* 0.08 (min (max (- adj <<PT>>) 0.0) (- <<UEL>> <<PT>>))) (* 0.02 (max 0.0 (- adj <<UEL>>)))))]
    {:employee_id eid :gross gross :overtime 0.0 :pension pension :paye paye :ni ni :net (cents (- adj paye ni))}))
(def gb-lines (mapv gb-net gb-ids))
(doseq [l gb-lines]
  (println (format "%-8s gross %8.2f pension %7.2f PAYE %7.2f NI %7.2f net %8.2f" (:employee_id l) (:gross l) (:pension l)
                   (:paye l) (:ni l) (:net l))))
''', **F))

s.turn("Before previewing again, the two Danas' lines in full, to see the new UK figures beside the US one:", fill(r'''
(prn (first (filter #(= "<<DW>>" (:employee_id %)) us-lines)))
(prn (first (filter #(= "<<DG>>" (:employee_id %)) gb-lines)))
(println "<<DW>>" (:cost_centre (us-by-id "<<DW>>")) (get-in (us-by-id "<<DW>>") [:bank :account_last4])
         "| <<DG>>" (:cost_centre (gb-by-id "<<DG>>")) (get-in (gb-by-id "<<DG>>") [:bank :account_last4]) "(master, before CHG-5527)")
''', **F))

s.turn("Preview again:", fill(r'''
(def payments (into (mapv #(hash-map :employee_id (:employee_id %) :amount (:net %) :currency "USD") us-lines)
                    (mapv #(hash-map :employee_id (:employee_id %) :amount (:net %) :currency "GBP") gb-lines)))
(def preview (tool/pay-bank-preview {:run_id "<<RUN>>" :payments payments}))
(println (:file preview))
(doseq [b (:batches preview)]
  (println (:batch_id b) (:currency b) (:rail b) "settles" (:settlement_date b) "|" (:count b) "payments, total"
           (format "%.2f" (:total b))))
(doseq [x (:warnings preview)] (println "warning:" x))
''', **F))

s.turn("Both Danas in the file, side by side, to be sure the accounts are not swapped:", fill(r'''
(def pay-rows (mapcat :payments (:batches preview)))
(doseq [r (filter #(str/starts-with? (:name %) "Dana Whitf") pay-rows)]
  (println (:employee_id r) (:name r) "..." (:account_last4 r) (:amount r)))
(println "<<DG>> on the new account ..<<NEWACC>> (was ..<<OLDACC>>):"
         (= "<<NEWACC>>" (:account_last4 (first (filter #(= "<<DG>>" (:employee_id %)) pay-rows)))))
(println "<<DW>> stays on ..<<USACC>>:" (= "<<USACC>>" (:account_last4 (first (filter #(= "<<DW>>" (:employee_id %)) pay-rows)))))
''', **F))

s.turn(fill("Right: Whitfeld (<<DG>>, GBP) goes to ..<<NEWACC>>, Whitfield (<<DW>>, USD, garnished) to ..<<USACC>>. The GBP batch in USD at the <<FXDATE>> fixing:", **F), fill(r'''
(def gbp-batch (first (filter #(= "GBP" (:currency %)) (:batches preview))))
(def usd-batch (first (filter #(= "USD" (:currency %)) (:batches preview))))
(def gbp-in-usd (cents (* (:total gbp-batch) <<FX>>)))
(println "GBP" (format "%.2f" (:total gbp-batch)) "x <<FX>> = USD" (format "%.2f" gbp-in-usd))
(println "funding total USD" (format "%.2f" (cents (+ (:total usd-batch) gbp-in-usd))))
''', **F))

s.turn("The cost-centre journal of the run (gross), watching CC-4410 against CC-4401:", r'''
(def cc-of (merge (into {} (map (juxt :employee_id :cost_centre) us-master))
                  (into {} (map (juxt :employee_id :cost_centre) gb-master))))
(doseq [[cc ls] (sort-by key (group-by #(cc-of (:employee_id %)) (concat us-lines gb-lines)))]
  (println (format "%-7s %-3s %2d people  gross %10.2f  net %10.2f" cc (if (some #(contains? (set us-ids) (:employee_id %)) ls) "USD" "GBP")
                   (count ls) (cents (reduce + (map :gross ls))) (cents (reduce + (map :net ls))))
           (str/join "," (map :employee_id ls))))
(doseq [cc ["CC-4410" "CC-4401"]]
  (println cc (get (into {} (map (juxt :code :name) (:cost_centres run))) cc) "->"
           (vec (sort (filter #(= cc (cc-of %)) us-ids)))))
''')

s.turn("The notes for the approver, one per adjustment:", fill(r'''
(def adjustments
  [{:ref "<<EXPORT>>" :employee (str/join ", " (filter #(not= (ot-pay-first %) (ot-pay %)) hourly-ids))
    :what (str "Kronos overtime is premium-equivalent (KR-OT-15): plain rate, manual rows 1.5x; overtime "
               (cents (reduce + (vals ot-pay-first))) " -> " (cents (reduce + (vals ot-pay))))}
   {:ref "CHG-5512" :employee "<<DW>>" :what (str "Dana Whitfield raise from <<EFF>>, 5 + 5 of 10 working days: " raise-pay)}
   {:ref "CHG-5515" :employee "<<HIRE>>" :what (str "Priya Raman from <<HFIRST>>, 7 of 10 working days: " hire-pay)}
   {:ref "CHG-5519" :employee "<<LEAVER>>" :what (str "Grace Lindqvist to <<LAST>>, 7 of 10 working days + " pto-payout " PTO: " leaver-pay)}
   {:ref "CHG-5527" :employee "<<DG>>" :what "Dana Whitfeld, new account ..<<NEWACC>> (callback verified 2025-06-13)"}
   {:ref "<<G418>>" :employee "<<DW>>" :what (str "child support " (:garnishment (first (filter #(= "<<DW>>" (:employee_id %)) us-lines))))}
   {:ref "<<G481>>" :employee "<<LEVY>>" :what (str "creditor levy, remaining balance " (:garnishment (first (filter #(= "<<LEVY>>" (:employee_id %)) us-lines))) " paid off")}
   {:ref "<<PREV>>" :employee "<<HIRE>>" :what "variance: only the new hire flagged; <<GONE>> left in <<PREV>>"}])
(def approval-notes
  (str "<<RUN>> (2025-06-01..2025-06-15), pay date 2025-06-20\n"
       (str/join "\n" (map #(str (:ref %) " | " (:employee %) " | " (:what %)) adjustments))))
(println (count adjustments) "notes," (count approval-notes) "characters; refs:" (str/join " " (map :ref adjustments)))
''', **F))

s.cut("Submitting with the control counts and totals of the preview:", fill(r'''
(def submission
  (tool/pay-submit {:run_id "<<RUN>>"
                    :approver "r.nakashima"
                    :batches [{:batch_id "<<ACH>>" :currency "USD" :count <<ACHN>> :total <<ACHT>>}
                              {:batch_id "<<BACS>>" :currency "GBP" :count <<BACSN>>
''', **F))

s.turn("Cut off; again, whole:", fill(r'''
(def submission
  (tool/pay-submit {:run_id "<<RUN>>"
                    :approver "r.nakashima"
                    :batches [{:batch_id "<<ACH>>" :currency "USD" :count <<ACHN>> :total <<ACHT>>}
                              {:batch_id "<<BACS>>" :currency "GBP" :count <<BACSN>> :total <<BACST>>}]
                    :notes approval-notes}))
(println (:approval_id submission) (:status submission) "approver" (:approver submission) "submitted" (:submitted submission)
         "| cut-off" (:bank_cutoff submission))
(println (:batches submission) "-" (:next submission))
''', **F))

s.turn("Submitted ahead of the cut-off. The summary:", fill(r'''
(return
  {:run-id "<<RUN>>"
   :approval-id "<<APR>>"
   :status "pending_approval"
   :bank-cutoff "<<CUTOFF>>"
   :previous-run {:run-id "<<PREV>>" :approval-id "<<PREVAPR>>"}
   :batches [{:batch-id "<<ACH>>" :currency "USD" :count <<ACHN>> :total <<ACHT>>}
             {:batch-id "<<BACS>>" :currency "GBP" :count <<BACSN>> :total <<BACST>> :usd-equivalent <<USDEQ>>
              :fx {:pair "GBP/USD" :date "<<FXDATE>>" :rate <<FX>>}}]
   :adjustments {:overtime {:export "<<EXPORT>>" :rule "KR-OT-15" :employees [<<KIDS>>]
                            :fix "Kronos overtime is premium-equivalent: plain rate; manual rows 1.5x"}
                 :raise {:change "CHG-5512" :employee "<<DW>>" :name "Dana Whitfield" :effective "<<EFF>>" :gross raise-pay}
                 :new-hire {:change "CHG-5515" :employee "<<HIRE>>" :first-day "<<HFIRST>>" :gross hire-pay}
                 :leaver {:change "CHG-5519" :employee "<<LEAVER>>" :last-day "<<LAST>>" :pto-hours <<PTO>> :gross leaver-pay}
                 :proration "working days (x/10), not calendar days"
                 :bank-account {:change "CHG-5527" :employee "<<DG>>" :name "Dana Whitfeld" :account "..<<NEWACC>>"}
                 :garnishments [{:order "<<G418>>" :employee "<<DW>>" :amount <<GAMT>>}
                                {:order "<<G481>>" :employee "<<LEVY>>" :amount <<GBAL>> :note "balance paid off"}]}
   :limits {:k401-cap "<<CAPEMP>>" :ss-wage-base "<<SSEMP>>"}
   :variance {:previous-run "<<PREV>>"
              :flags {"<<HIRE>>" "new hire, no line in <<PREV>>"}
              :explained {"<<KFIRST>>" "overtime flags cleared after the premium-hours fix"
                          "<<GONE>>" "left 2025-05-30, paid in <<PREV>>"}}})
''', KIDS=" ".join('"%s"' % k for k in sorted(w.KRONOS)), KFIRST=", ".join(sorted(w.KRONOS)), CAPEMP=CAP_EMP, SSEMP=SS_EMP, **F), "return")

if __name__ == "__main__":
    s.write(__file__)
