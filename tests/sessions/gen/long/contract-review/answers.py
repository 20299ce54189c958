#!/usr/bin/env python3
"""The model answers of the contract-review session: Halvard Freight
Logistics plc's legal operations review the vendor contracts that renew
automatically by 2025-09-30 (as of 2025-03-03): notice deadlines, liability
caps against the playbook in GBP, data protection, governing law,
counterparties and sanctions, ERP spend; then redlines, tickets and the
renewal memo.
Contract ids, sections, clause wording, amendment, playbook, counterparty,
vendor, screening, redline, ticket and memo ids, dates and amounts the agent
reuses are taken from world.py (and tool.py's numbering), as the model takes
them from the prints of earlier turns. Two corrections, each after the old
value was printed and used: the non-renewal deadlines are first computed
from the executed clauses (`deadlines`: Norvale Systems Ltd's MSA-2021-0147
and its DPA by 2025-04-15, 90 days under clause 14.2) and redone once the
amendments show AMD-0147-02 made it 120 days (2025-03-16, a Sunday); the
liability caps in GBP are first computed with the register's currency for
the look-alike Norvale Systems Inc.'s ORD-NV-0392 (`caps-gbp`, `cap-gaps`:
1,250,000 taken as GBP, meeting the GBP 1,000,000 floor of PB-LIAB-03) and
redone once its definition of "Currency" (US dollars) is read: GBP
990,099.01, below the floor. Later programs write only the new values."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # gen/long/
sys.path.append(HERE)
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()

# --- what the agent sees, mirrored to write the literals it copies -------------------------

C = w.CONTRACT
SOW = "SOW-2024-0147-03"
assert C[SOW][11] == w.MSA_LTD and C[SOW][5] < C[w.MSA_LTD][5]
LTD, DPA, NV, BW, KE, PE = w.MSA_LTD, w.DPA_LTD, w.ORD_INC, w.MSA_BW, w.MSA_KE, w.ORD_PE
END = {cid: C[cid][5] for cid in w.SCOPE}
DL_OLD = w.minus_days(END[LTD], 90)
DL = {LTD: w.minus_days(END[LTD], 120), DPA: w.minus_days(END[LTD], 120), NV: w.minus_days(END[NV], 60),
      BW: w.minus_months(END[BW], 3), KE: w.minus_months(END[KE], 6), PE: w.minus_days(END[PE], 30)}
assert DL_OLD == "2025-04-15" and DL[LTD] == "2025-03-16" and w.weekday(DL[LTD]) == "Sunday"
LEFT = {cid: w.days_between(w.AS_OF, d) for cid, d in DL.items()}
DUE_LTD = w.minus_days(DL[LTD], 2)  # the Friday before
DUE_MARCH = w.minus_days(DL[PE], 3)  # the Friday before 2025-03-31
SPEND = {cid: w.spend_12m(cid) for cid in w.SCOPE}
CAP_NV_USD = 1250000
CAP_NV_GBP = w.cents(CAP_NV_USD / w.FX["USD"])
USD_FLOOR = w.cents(1000000 * w.FX["USD"])
KE_MONTHLY = w.INVOICES[KE][-1][4]
KE_FEE_EUR = 6 * KE_MONTHLY
KE_FEE_GBP = w.cents(KE_FEE_EUR / w.FX["EUR"])
KE_CAP_GBP = w.cents(2000000 / w.FX["EUR"])
KE_RENEWED_TO = "2027-08-31"
NV_FEE_USD, NV_RATE = 229080, 1.2450
assert abs(NV_FEE_USD / NV_RATE - SPEND[NV]) < 0.01
LTD_RISE = w.cents(100 * (74718.42 / 73110.00 - 1))
KE_RISE = w.cents(100 * (55360.00 / 53333.33 - 1))

CP = {cid: C[cid][3] for cid in w.SCOPE}
KCP = w.COUNTERPARTIES["CP-0588"]
KPARENT_NAME, KPARENT_REG = "Kestrel Holding AG", "CHE-114.392.507"
assert KPARENT_NAME in KCP["parent"] and KPARENT_REG in KCP["parent"]
HIT = w.LISTED[0]
SCREEN = {cp: t.cr_screen({"name": w.COUNTERPARTIES[cp]["legal_name"], "country": w.COUNTERPARTIES[cp]["country"]})
          for cp in sorted(set(CP.values()))}
K_RESCREEN = t.cr_screen({"name": KCP["legal_name"], "country": "DE", "reg_no": KCP["reg_no"]})
K_PARENT = t.cr_screen({"name": KPARENT_NAME, "country": "CH", "reg_no": KPARENT_REG})
assert SCREEN["CP-0588"]["result"] == "potential_match" and K_RESCREEN["result"] == "clear"
assert all(v["result"] == "clear" for k, v in SCREEN.items() if k != "CP-0588")


def redline(cid, sec, pb, based_on=None):
    args = {"contract_id": cid, "section": sec, "playbook_id": pb, "proposed_text": "x"}
    if based_on:
        args["based_on"] = based_on
    return t.cr_redline(args)["redline_id"]


RL_BW = redline(BW, "10.2", "PB-LIAB-03")
RL_NV = redline(NV, "1.2", "PB-LIAB-03")
RL_DPA = redline(DPA, "7.1", "PB-DP-02")
RL_LTD = redline(LTD, "14.2", "PB-TERM-02", "AMD-0147-02")
assert len({RL_BW, RL_NV, RL_DPA, RL_LTD}) == 4


def ticket(cid, queue):
    return t.cr_ticket({"title": "x", "contract_id": cid, "priority": "P1", "queue": queue})["ticket_id"]


TK = {(LTD, "legal"): None, (DPA, "privacy"): None, (NV, "legal"): None, (PE, "legal"): None,
      (KE, "procurement"): None, (KE, "compliance"): None, (BW, "legal"): None}
TK = {k: ticket(*k) for k in TK}
assert len(set(TK.values())) == len(TK)
MEMO = t.cr_memo_submit({"title": "x", "as_of": w.AS_OF, "to": ["x"], "summary": "x",
                         "contracts": [{"contract_id": c, "recommendation": "x", "deadline": DL[c]}
                                       for c in w.SCOPE]})["memo_id"]


def money(x):
    return w.amount_text(x)


# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the brief and the contract register.", r'''
(println data/brief)
(def contracts (tool/cr-contracts {}))
(println (count contracts) "contracts in the register")
(doseq [c contracts]
  (println (format "%-16s %-10s %-27s %s..%s auto=%-5s %s %7d  %s" (:contract_id c) (:type c) (:counterparty c)
                   (:effective c) (:term_end c) (:auto_renew c) (:currency c) (:annual_value c) (:owner c))))
''')

s.turn("Ten contracts. The scope is what renews automatically between the review date and the horizon:", r'''
(def as-of (:as_of data/brief))
(def horizon (:renewal_horizon data/brief))
(defn within? [d] (and (pos? (compare d as-of)) (<= (compare d horizon) 0)))
(def scope (filterv #(and (:auto_renew %) (within? (:term_end %))) contracts))
(def register (into {} (map (juxt :contract_id identity) scope)))
(println (count scope) "contracts renew automatically by" horizon)
(doseq [c scope]
  (println (:contract_id c) "|" (:title c) "|" (:counterparty c) (str "(" (:cp_id c) ")") "| ends" (:term_end c)
           "| renews for" (:renewal_term_months c) "months | parent" (or (:parent c) "-")))
(doseq [c (remove (set scope) contracts)]
  (println "  out:" (:contract_id c) (:type c) "ends" (:term_end c) "auto" (:auto_renew c)))
''')

s.turn("Six in scope, including the DPA that hangs off the Norvale MSA; the payroll MSA ends a month after the horizon. The clauses of the six, as executed:", r'''
(def clauses
  (into {} (map (juxt :contract_id identity) (pmap #(tool/cr-clauses {:contract_id (:contract_id %)}) scope))))
(defn clause
  "Clause `section` of contract `id` as executed."
  [id section]
  (first (filter #(= section (:section %)) (:clauses (clauses id)))))
(doseq [c scope]
  (let [k (clauses (:contract_id c))]
    (println (:contract_id c) (str "(" (:version k) ", " (count (:clauses k)) " clauses):")
             (str/join " | " (map #(str (:section %) " " (:heading %)) (:clauses k))))))
''')

s.turn("The term and renewal clauses of each, in full:", r'''
(doseq [c scope]
  (doseq [k (filter #(re-find #"(?i)renew|duration|term$" (:heading %)) (:clauses (clauses (:contract_id c))))]
    (println (:contract_id c) (:section k) (str "[" (:heading k) "]") (:text k))))
''')

s.turn(fill("Notice periods: <<LTD>> 14.2 ninety days; the DPA ends with the MSA (12.1); <<NV>> 8.3 sixty days; <<BW>> 17.1 three months; <<KE>> 19.2 six months (renewing by 24 months at a time); <<PE>> 5.2 thirty days. The last day for notice of each, with date helpers:",
           LTD=LTD, NV=NV, BW=BW, KE=KE, PE=PE), fill(r'''
(def notice
  {"<<LTD>>" {:section "14.2" :days 90}
   "<<DPA>>" {:section "12.1" :follows "<<LTD>>"}
   "<<NV>>" {:section "8.3" :days 60}
   "<<BW>>" {:section "17.1" :months 3}
   "<<KE>>" {:section "19.2" :months 6}
   "<<PE>>" {:section "5.2" :days 30}})
(defn day-no
  "Days since 2000-01-01 of a yyyy-mm-dd date."
  [s]
  (let [[y m d] (map parse-long (str/split (subs s 0 10) #"-"))
        leap? (fn [y] (and (zero? (rem y 4)) (or (pos? (rem y 100)) (zero? (rem y 400)))))
        cum [0 31 59 90 120 151 181 212 243 273 304 334]]
    (+ (* 365 (- y 2000)) (quot (+ (- y 2000) 3) 4) (nth cum (dec m)) (if (and (leap? y) (> m 2)) 1 0) (dec d))))
(defn date-of
  "The yyyy-mm-dd date of a day number (inverse of day-no)."
  [n]
  (let [y (loop [y 2000] (if (> (day-no (format "%d-01-01" (inc y))) n) y (recur (inc y))))
        m (loop [m 12] (if (<= (day-no (format "%d-%02d-01" y m)) n) m (recur (dec m))))]
    (format "%d-%02d-%02d" y m (inc (- n (day-no (format "%d-%02d-01" y m)))))))
(defn minus-months
  "The date n calendar months before s, clamped to the month's last day."
  [s n]
  (let [[y m d] (map parse-long (str/split s #"-"))
        t (- (+ (* 12 y) (dec m)) n)
        y2 (quot t 12)
        m2 (inc (rem t 12))
        first-next (if (= m2 12) (format "%d-01-01" (inc y2)) (format "%d-%02d-01" y2 (inc m2)))
        month-len (- (day-no first-next) (day-no (format "%d-%02d-01" y2 m2)))]
    (format "%d-%02d-%02d" y2 m2 (min d month-len))))
(defn weekday [s] (nth ["Mon" "Tue" "Wed" "Thu" "Fri" "Sat" "Sun"] (mod (+ (day-no s) 5) 7)))
(defn deadline-of
  "The last day to serve notice of non-renewal on contract `id`."
  [id]
  (let [n (notice id)
        end (:term_end (register id))]
    (cond (:follows n) (deadline-of (:follows n))
          (:days n) (date-of (- (day-no end) (:days n)))
          :else (minus-months end (:months n)))))
(defn show-deadlines [dls]
  (doseq [c (sort-by #(dls (:contract_id %)) scope)]
    (let [id (:contract_id c)
          n (notice id)
          dl (dls id)
          left (- (day-no dl) (day-no as-of))]
      (println (format "%-15s %-26s %-5s %-16s ends %s  notice by %s %s %4d days  %s" id (:counterparty c) (:section n)
                       (cond (:days n) (str (:days n) " days") (:months n) (str (:months n) " months")
                             :else (str "= " (:follows n)))
                       (:term_end c) dl (weekday dl) left
                       (cond (neg? left) "PASSED" (< left 30) "URGENT" :else "ok"))))))
(def deadlines (into (sorted-map) (for [c scope] [(:contract_id c) (deadline-of (:contract_id c))])))
(def work-order (sort-by deadlines (keys deadlines)))
(show-deadlines deadlines)
''', LTD=LTD, DPA=DPA, NV=NV, BW=BW, KE=KE, PE=PE))

s.turn(fill("The Kestrel window closed on <<KE_DL>>, three days ago; <<PE>> and <<NV>> are under 30 days, the Norvale MSA and its DPA have <<LEFT>> days. Now the liability clauses:",
            KE_DL=DL[KE], PE=PE, NV=NV, LEFT=w.days_between(w.AS_OF, DL_OLD)), r'''
(doseq [c scope]
  (doseq [k (filter #(re-find #"(?i)liabilit|cap" (:heading %)) (:clauses (clauses (:contract_id c))))]
    (println (:contract_id c) (:section k) (str "[" (:heading k) "]") (:text k))))
''')

s.turn("The playbook's positions, to measure these against:", r'''
(def playbook (:positions (tool/cr-playbook {})))
(defn position [id] (first (filter #(= id (:id %)) playbook)))
(doseq [p playbook]
  (println (:id p) (str "[" (:topic p) "]") (:title p) "| approver:" (:approver p))
  (println "    standard:" (:standard p))
  (println "    fallback:" (or (:fallback p) "-") "| walk-away:" (:walkaway p)))
''')

s.turn("PB-LIAB-03 measures the cap against the charges of the last 12 months, so I need the spend. From the ERP:", r'''
(def spend-raw
  (into {} (map (juxt :contract_id identity) (pmap #(tool/cr-spend {:contract_id (:contract_id %)}) scope))))
(doseq [[id s] spend-raw]
  (println id (:vendor_id s) (:supplier s) (count (:invoices s)) "invoices" (:currency s)
           (sum (map :amount (:invoices s)))))
''', "type")

s.turn('The ERP exports amounts as text with thousands separators ("74,718.42"). Parsing them:', r'''
(def spend-raw
  (into {} (map (juxt :contract_id identity) (pmap #(tool/cr-spend {:contract_id (:contract_id %)}) scope))))
(defn amount "An ERP amount string (\"74,718.42\") as a number." [s] (parse-double (str/replace s "," "")))
(defn cents [x] (/ (round (* 100 x)) 100.0))
(def spend
  (into (sorted-map)
        (for [[id s] spend-raw]
          [id {:vendor (:vendor_id s) :supplier (:supplier s) :currency (:currency s) :invoices (count (:invoices s))
               :total (cents (sum (map (comp amount :amount) (:invoices s))))
               :first (:amount (first (:invoices s))) :last (:amount (last (:invoices s)))}])))
(println "period" (:period (spend-raw (first (keys spend-raw)))))
(doseq [[id s] spend]
  (println (format "%-15s %-7s %-26s %2d invoices %s %,12.2f  first %10s  last %10s" id (:vendor s) (:supplier s)
                   (:invoices s) (:currency s) (:total s) (or (:first s) "-") (or (:last s) "-"))))
(println (:note (spend-raw "<<DPA>>")))
'''.replace("<<DPA>>", DPA))

s.turn(fill("The Norvale WMS charges stepped from <<A>> to <<B>> a month and Kestrel's from <<C>> to <<D>>. Checking both against the indexation clauses (7.4 and 4.5):",
            A=money(73110), B=money(74718.42), C=money(53333.33), D=money(55360)), fill(r'''
(doseq [id ["<<LTD>>" "<<KE>>"]]
  (let [inv (:invoices (spend-raw id))
        steps (filter (fn [[a b]] (not= (:amount a) (:amount b))) (partition 2 1 inv))]
    (doseq [[a b] steps]
      (println id (:invoice_no a) (:date a) (:amount a) "->" (:invoice_no b) (:date b) (:amount b)
               (format "%+.2f%%" (* 100 (- (/ (amount (:amount b)) (amount (:amount a))) 1)))))))
(println "7.4:" (:text (clause "<<LTD>>" "7.4")))
(println "4.5:" (:text (clause "<<KE>>" "4.5")))
''', LTD=LTD, KE=KE))

s.turn(fill("+<<R1>>% in July (within CPI and 5%) and +<<R2>>% in September (within 4%). The treasury rates for the review date, to put every cap in GBP:",
            R1="%.2f" % LTD_RISE, R2="%.2f" % KE_RISE), r'''
(def fx (tool/cr-fx {:date as-of}))
(println (:quote fx) "|" (:source fx) "|" (:date fx))
(println (:rates fx))
(defn to-gbp [amt ccy] (if (= ccy "GBP") amt (/ amt (get-in fx [:rates (keyword ccy)]))))
(doseq [[id s] spend]
  (println id "12-month spend in GBP:" (format "%,.2f" (to-gbp (:total s) (:currency s)))))
''')

s.turn(fill("Now the caps against PB-LIAB-03 (the greater of 12 months' charges and GBP 1,000,000), or PB-LIAB-05 for contracts under GBP 100,000 a year. From the clauses: <<LTD>> 9.1 the greater of fees and £1,500,000; the DPA follows the MSA (10.1); <<NV>> 1.2 a Liability Cap of 1,250,000; <<BW>> 10.2 £500,000; <<KE>> 13.3 EUR 2,000,000; <<PE>> 7.1 100% of fees.",
            LTD=LTD, NV=NV, BW=BW, KE=KE, PE=PE), fill(r'''
(def cap-terms
  {"<<LTD>>" {:section "9.1" :fixed 1500000 :or-fees true}
   "<<DPA>>" {:section "10.1" :follows "<<LTD>>"}
   "<<NV>>" {:section "1.2" :fixed 1250000}
   "<<BW>>" {:section "10.2" :fixed 500000}
   "<<KE>>" {:section "13.3" :fixed 2000000}
   "<<PE>>" {:section "7.1" :fees-pct 100}})
(defn fees-gbp [id] (to-gbp (:total (spend id)) (:currency (spend id))))
(defn cap-gbp
  "Contract `id`'s liability cap in GBP: fixed amounts in the contract's currency, fee caps from the ERP spend."
  [id]
  (let [t (cap-terms id)
        ccy (:currency (register id))]
    (cond (:follows t) (cap-gbp (:follows t))
          (:fees-pct t) (* (fees-gbp id) (/ (:fees-pct t) 100))
          (:or-fees t) (max (fees-gbp id) (to-gbp (:fixed t) ccy))
          :else (to-gbp (:fixed t) ccy))))
(defn cap-position [id]
  (let [t (cap-terms id)]
    (cond (:follows t) (cap-position (:follows t))
          (< (:annual_value (register id)) 100000) {:pb "PB-LIAB-05" :floor (fees-gbp id)}
          :else {:pb "PB-LIAB-03" :floor (max (fees-gbp id) 1000000)})))
(defn cap-table []
  (into (sorted-map)
        (for [c scope :let [id (:contract_id c) p (cap-position id)]]
          [id {:section (:section (cap-terms id)) :cap (cents (cap-gbp id)) :floor (cents (:floor p)) :pb (:pb p)}])))
(defn show-caps [caps]
  (doseq [[id c] caps]
    (println (format "%-15s %-5s cap GBP %,14.2f  floor GBP %,14.2f  %-10s %s" id (:section c) (:cap c) (:floor c)
                     (:pb c) (if (< (:cap c) (:floor c)) "BELOW" "meets")))))
(def caps-gbp (cap-table))
(def cap-gaps (vec (for [[id c] caps-gbp :when (< (:cap c) (:floor c))] id)))
(show-caps caps-gbp)
(println "below the playbook:" cap-gaps)
''', LTD=LTD, DPA=DPA, NV=NV, BW=BW, KE=KE, PE=PE))

s.turn(fill("Only Brightwater's £500,000 is below the floor. Before any redline: the amendments, which may have replaced clauses I have been reading as executed.",
            ), r'''
(def amendments
  (into (sorted-map) (map (juxt :contract_id :amendments) (pmap #(tool/cr-amendments {:contract_id (:contract_id %)}) scope))))
(doseq [[id as] amendments
        a as]
  (println id (:amendment_id a) (:signed a) (str "\"" (:title a) "\"") "| signed by" (str/join ", " (:signatories a)))
  (doseq [ch (:changes a)]
    (println "    " (:action ch) (:section ch) "->" (:text ch))))
(println "no amendments:" (vec (for [[id as] amendments :when (empty? as)] id)))
''')

s.turn(fill("AMD-0147-02 (signed <<D>>) replaced clause 14.2 of <<LTD>>: the non-renewal notice is one hundred and twenty days, not ninety, and 14.2A requires service under 24.3. The deadlines again, with the amendment:",
            D="2023-09-14", LTD=LTD), fill(r'''
(def notice (assoc notice "<<LTD>>" {:section "14.2" :days 120 :amended-by "AMD-0147-02"}))
(def deadlines-executed deadlines)
(def deadlines (into (sorted-map) (for [c scope] [(:contract_id c) (deadline-of (:contract_id c))])))
(def work-order (sort-by deadlines (keys deadlines)))
(doseq [[id dl] deadlines :when (not= dl (deadlines-executed id))]
  (println id "notice by" (deadlines-executed id) "->" dl (weekday dl) (- (day-no dl) (day-no as-of)) "days left"))
(show-deadlines deadlines)
(println "14.2 as amended:" (:text (first (filter #(= "14.2" (:section %)) (mapcat :changes (amendments "<<LTD>>"))))))
(println "14.2A:" (:text (first (filter #(= "14.2A" (:section %)) (mapcat :changes (amendments "<<LTD>>"))))))
(println "24.3:" (:text (clause "<<LTD>>" "24.3")))
''', LTD=LTD))

s.turn(fill("The Norvale deadline is <<DL>>, a Sunday, so the notice has to be received by Friday <<DUE>>, by hand or recorded delivery. Now who the counterparties are. Two Norvale entities appear in the register:",
            DL=DL[LTD], DUE=DUE_LTD), r'''
(def norvale (tool/cr-counterparty {:query "Norvale"}))
(doseq [r norvale]
  (println (:cp_id r) (:legal_name r) "|" (:jurisdiction r) "|" (:registry r) (:reg_no r) "|" (:address r))
  (println "    parent:" (:parent r) "| ERP vendor" (:erp_vendor r) "| VAT" (or (:vat r) "-") "| since" (:since r)
           "| contracts" (:contracts r)))
''')

s.turn(fill("<<LTD_NAME>> (CP-0412, 08817342) holds the MSA, the DPA and SOW 3; <<INC_NAME>> (CP-0977, Delaware 6120457) holds the order form. The other three, and a check that each contract's ERP vendor is its own counterparty's:",
            LTD_NAME=w.NORVALE_LTD, INC_NAME=w.NORVALE_INC), r'''
(def counterparties
  (into (into {} (map (juxt :cp_id identity) norvale))
        (map (juxt :cp_id identity)
             (mapcat #(tool/cr-counterparty {:query %}) ["Brightwater Analytics" "Kestrel Datenwerk" "Pellucid Print"]))))
(doseq [cp ["CP-0419" "CP-0588" "CP-0640"]]
  (let [r (counterparties cp)]
    (println cp (:legal_name r) "|" (:jurisdiction r) "|" (:registry r) (:reg_no r) "|" (:address r) "| parent"
             (or (:parent r) "-") "| vendor" (:erp_vendor r))))
(doseq [c scope]
  (let [r (counterparties (:cp_id c))
        v (:vendor (spend (:contract_id c)))]
    (println (:contract_id c) (:cp_id c) (:legal_name r) "| ERP vendor" v
             (if (= v (:erp_vendor r)) "= counterparty's" (str "MISMATCH: counterparty has " (:erp_vendor r))))))
''')

s.turn("Every contract is booked to its own entity. Sanctions screening of the five counterparties:", r'''
(def screens
  (into (sorted-map)
        (pmap (fn [[cp r]] [cp (tool/cr-screen {:name (:legal_name r) :country (:country r)})]) counterparties)))
(doseq [[cp s] screens]
  (println cp (:screen_id s) (:subject s) (:country s) "->" (:result s) "|" (count (:hits s)) "hits"
           (str/join "; " (map #(str (:entry %) " [" (:list %) "] score " (:score %)) (:hits s)))))
(println "lists:" (:lists_checked (first (vals screens))))
''')

s.turn(fill("A potential match for Kestrel Datenwerk GmbH (<<SID>>). The listed entry against our counterparty record:",
            SID=SCREEN["CP-0588"]["screen_id"]), r'''
(def kestrel-hit (first (:hits (screens "CP-0588"))))
(doseq [[k v] kestrel-hit]
  (println (format "  %-13s %s" (name k) v)))
(println "ours:" (select-keys (counterparties "CP-0588") [:legal_name :jurisdiction :registry :reg_no :address :parent]))
''')

s.turn(fill("The listed entity is a Moscow LLC (<<REG>>), listed <<LISTED>>; ours is registered at the <<REGISTRY>> under <<KREG>>, in Munich. A name-only match. Screening again with the registration number, and the Swiss parent too:",
            REG=HIT["registration"], LISTED=HIT["listed"], REGISTRY=KCP["registry"], KREG=KCP["reg_no"]), fill(r'''
(def kestrel-rescreen (tool/cr-screen {:name "<<KNAME>>" :country "DE" :reg_no "<<KREG>>"}))
(def kestrel-parent-screen (tool/cr-screen {:name "<<PNAME>>" :country "CH" :reg_no "<<PREG>>"}))
(println (:screen_id kestrel-rescreen) (:subject kestrel-rescreen) (:result kestrel-rescreen) "| excluded:"
         (:excluded kestrel-rescreen))
(println (:screen_id kestrel-parent-screen) (:subject kestrel-parent-screen) (:result kestrel-parent-screen)
         (count (:hits kestrel-parent-screen)) "hits")
(def screening
  (assoc (into (sorted-map) (map (fn [[cp s]] [cp {:screen (:screen_id s) :result (:result s)}]) screens))
         "CP-0588" {:screen (:screen_id kestrel-rescreen) :parent-screen (:screen_id kestrel-parent-screen)
                    :result "clear: false positive against <<ENTRY>>, <<REG>>"}))
(doseq [[cp s] screening] (println cp s))
''', KNAME=KCP["legal_name"], KREG=KCP["reg_no"], PNAME=KPARENT_NAME, PREG=KPARENT_REG,
     ENTRY=HIT["entry"].split(" (")[0], REG=HIT["registration"]))

s.turn(fill("All clear. Data protection next: the DPA's operative clauses against the playbook's PB-DP-02, PB-DP-04 and the super-cap PB-LIAB-08.",
            ), fill(r'''
(doseq [sec ["5.2" "7.1" "9.1" "10.1"]]
  (let [k (clause "<<DPA>>" sec)]
    (println "DPA" sec (str "[" (:heading k) "]") (:text k))))
(println "MSA 9.3:" (:text (clause "<<LTD>>" "9.3")))
(doseq [id ["PB-DP-02" "PB-DP-04" "PB-LIAB-08"]]
  (let [p (position id)]
    (println id (:title p) "| standard:" (:standard p) "| fallback:" (:fallback p) "| walk-away:" (:walkaway p))))
(println "super-cap floor: greater of 3x annual charges and 2.5m =" (format "%,.2f" (max (* 3 (fees-gbp "<<LTD>>")) 2500000))
         "| MSA 9.3 gives 3,000,000.00")
''', DPA=DPA, LTD=LTD))

s.turn(fill("The 72-hour breach notice in DPA 7.1 is past the 48-hour walk-away of PB-DP-02; sub-processors (30 days) and the £3,000,000 super-cap (above the <<F>> floor) are fine. Governing law and notice formalities of each contract:",
            F=money(max(3 * SPEND[LTD], 2500000))), r'''
(doseq [c scope]
  (doseq [k (filter #(re-find #"(?i)governing law|notices|form of notice" (:heading %)) (:clauses (clauses (:contract_id c))))]
    (println (:contract_id c) (:section k) (str "[" (:heading k) "]") (:text k))))
(let [p (position "PB-LAW-01")]
  (println "PB-LAW-01:" (:standard p) "| fallback:" (:fallback p)))
''')

s.turn(fill("New York law for <<NV>> and German law for <<KE>> are PB-LAW-01 fallbacks that the General Counsel has to approve in the memo. PB-LIAB-05 holds only where the supplier processes no personal data, and label printing handles consignee addresses. What <<PE>> says:", NV=NV, KE=KE, PE=PE), fill(r'''
(def pellucid-data (tool/cr-clauses {:contract_id "<<PE>>" :section "8.1"}))
(doseq [k (:clauses pellucid-data)]
  (println (:section k) (str "[" (:heading k) "]") (:text k)))
(println "PB-LIAB-05:" (:standard (position "PB-LIAB-05")))
(println "annual value" (:annual_value (register "<<PE>>")) "| 12-month spend" (:total (spend "<<PE>>")) "| cap (7.1)"
         (:cap (caps-gbp "<<PE>>")))
''', PE=PE))

s.prose(fill("""Where the review stands (as of <<ASOF>>):

- <<LTD>> (Norvale Systems Ltd): notice of non-renewal by <<DL>> (120 days under 14.2 as amended by AMD-0147-02), to be received by <<DUE>>. Cap meets PB-LIAB-03.
- <<DPA>>: ends with the MSA; breach notification of 72 hours in 7.1 breaches PB-DP-02.
- <<NV>> (Norvale Systems Inc.): notice by <<DLNV>>; Liability Cap 1,250,000 meets the GBP 1,000,000 floor; New York law (PB-LAW-01 fallback).
- <<BW>> (Brightwater): notice by <<DLBW>>; cap £500,000 below PB-LIAB-03.
- <<KE>> (Kestrel): the notice window closed on <<DLKE>>; German law; sanctions hit cleared as a false positive.
- <<PE>> (Pellucid): notice by <<DLPE>>; 100% fees cap within PB-LIAB-05.

Next: redlines for the Brightwater cap, the DPA breach clause and the Norvale notice period, then tickets and the memo.""",
             ASOF=w.AS_OF, LTD=LTD, DL=DL[LTD], DUE=DUE_LTD, DPA=DPA, NV=NV, DLNV=DL[NV], BW=BW, DLBW=DL[BW], KE=KE,
             DLKE=DL[KE], PE=PE, DLPE=DL[PE]))

s.turn(fill("Before drafting, the whole of <<NV>>, since its cap is a defined term and the order form sits on Norvale Inc.'s own terms:", NV=NV), fill(r'''
(doseq [k (:clauses (clauses "<<NV>>"))]
  (println (:section k) (str "[" (:heading k) "]") (:text k)))
''', NV=NV))

s.turn(fill("1.3: \"Currency\" means United States dollars; only the invoices are in GBP. I converted the Liability Cap of <<NV>> as pounds. Redoing the caps with the cap's own currency:", NV=NV), fill(r'''
(def cap-currency {"<<NV>>" "USD"})
(defn cap-gbp
  "Contract `id`'s liability cap in GBP: fixed amounts in the cap's currency (cap-currency, else the contract's), fee caps from the ERP spend."
  [id]
  (let [t (cap-terms id)
        ccy (get cap-currency id (:currency (register id)))]
    (cond (:follows t) (cap-gbp (:follows t))
          (:fees-pct t) (* (fees-gbp id) (/ (:fees-pct t) 100))
          (:or-fees t) (max (fees-gbp id) (to-gbp (:fixed t) ccy))
          :else (to-gbp (:fixed t) ccy))))
(def caps-gbp-register-ccy caps-gbp)
(def caps-gbp (cap-table))
(def cap-gaps (vec (for [[id c] caps-gbp :when (< (:cap c) (:floor c))] id)))
(println "<<NV>>:" (format "%,.2f" (:cap (caps-gbp-register-ccy "<<NV>>"))) "->" (format "%,.2f" (:cap (caps-gbp "<<NV>>")))
         "GBP (USD 1,250,000 at" (get-in fx [:rates :USD]) ")")
(show-caps caps-gbp)
(println "below the playbook:" cap-gaps)
(println "USD needed for GBP 1,000,000:" (format "%,.2f" (* 1000000 (get-in fx [:rates :USD]))))
(println "raw: cap" (:cap (caps-gbp "<<NV>>")) "GBP, shortfall" (cents (- 1000000 (:cap (caps-gbp "<<NV>>"))))
         "GBP, cap needed USD" (* 1000000 (get-in fx [:rates :USD])))
''', NV=NV))

s.turn(fill("GBP <<CAP>>: below the floor now, by <<SHORT>>. A cross-check that I read the order form's currency right: clause 4.2's USD fee at its Invoice Rate should give the ERP's GBP spend, booked to the Delaware entity (file <<REG>>), not to the UK one.",
            CAP=money(CAP_NV_GBP), SHORT=money(1000000 - CAP_NV_GBP), REG=w.COUNTERPARTIES["CP-0977"]["reg_no"]), fill(r'''
(println "4.2:" (:text (clause "<<NV>>" "4.2")))
(println "USD <<FEE>> / <<RATE>> =" (format "%,.2f" (/ <<FEE>> <<RATE>>)) "GBP | ERP 12 months:"
         (format "%,.2f" (:total (spend "<<NV>>"))) "GBP from" (:vendor (spend "<<NV>>")) (:supplier (spend "<<NV>>")))
(def norvale-inc (first (tool/cr-counterparty {:query "<<REG>>"})))
(println "<<REG>> ->" (:cp_id norvale-inc) (:legal_name norvale-inc) (:jurisdiction norvale-inc) "| vendor" (:erp_vendor norvale-inc)
         (if (= (:erp_vendor norvale-inc) (:vendor (spend "<<NV>>"))) "= the vendor invoicing <<NV>>" "MISMATCH"))
''', NV=NV, FEE=NV_FEE_USD, RATE="%.4f" % NV_RATE, REG=w.COUNTERPARTIES["CP-0977"]["reg_no"]))

s.turn(fill("It matches: the order form is priced in dollars. First redline, Brightwater's cap in clause 10.2 of <<BW>>, to the PB-LIAB-03 standard:", BW=BW), fill(r'''
(def rl-bw
  (tool/cr-redline {:contract_id "<<BW>>" :section "10.2" :playbook_id "PB-LIAB-03"
                    :proposed_text "Subject to clause 10.1, the Supplier's total liability under or in connection with this Agreement, whether arising in contract, tort (including negligence) or otherwise, shall be limited in each Contract Year to the greater of (a) one hundred per cent (100%) of the Fees paid or payable in the twelve (12) months preceding the event giving rise to the claim and (b) one million pounds (£1,000,000)."
                    :rationale "£500,000 is below the PB-LIAB-03 standard (greater of 12 months' Fees, GBP <<BWFEES>>, and GBP 1,000,000) and below the GBP 750,000 fallback."}))
(println rl-bw)
''', BW=BW, BWFEES=money(SPEND[BW])))

s.turn(fill("<<RL>>, with the General Counsel. Now the Norvale Inc. cap, defined in 1.2 of <<NV>>:", RL=RL_BW, NV=NV), fill(r'''
(def rl-nv
  (tool/cr-redline {:contract_id "<<NV>>" :section "1.2" :playbook_id "PB-LIAB-08"
                    :proposed_text "\"Liability Cap\" means the greater of (a) 1,262,500 (one million two hundred and sixty-two thousand five hundred) in the Currency and (b) the Fees paid or payable in the twelve (12) months preceding the claim."
                    :rationale "USD 1,250,000 is GBP <<CAP>> at 1.2625, below the GBP 1,000,000 floor."}))
(println rl-nv)
''', NV=NV, CAP=money(CAP_NV_GBP)), "tool")

s.turn("Wrong position: PB-LIAB-08 is the data-protection super-cap; a general cap is PB-LIAB-03. Again, and the DPA's breach notification against PB-DP-02:", fill(r'''
(def rl-nv
  (tool/cr-redline {:contract_id "<<NV>>" :section "1.2" :playbook_id "PB-LIAB-03"
                    :proposed_text "\"Liability Cap\" means the greater of (a) 1,262,500 (one million two hundred and sixty-two thousand five hundred) in the Currency and (b) the Fees paid or payable in the twelve (12) months preceding the claim."
                    :rationale "USD 1,250,000 is GBP <<CAP>> at 1.2625, below the GBP 1,000,000 floor of PB-LIAB-03; USD 1,262,500 is GBP 1,000,000."}))
(def rl-dpa
  (tool/cr-redline {:contract_id "<<DPA>>" :section "7.1" :playbook_id "PB-DP-02"
                    :proposed_text "The Processor shall notify the Controller without undue delay and in any event within twenty-four (24) hours after becoming aware of a Personal Data Breach, providing the information required by Article 33(3) UK GDPR to the extent then available."
                    :rationale "72 hours is beyond the PB-DP-02 walk-away of 48 hours."}))
(doseq [r [rl-nv rl-dpa]]
  (println (:redline_id r) (:contract_id r) (:section r) (:heading r) (:playbook_id r) "|" (:counterparty r) "|"
           (:words_changed r) "words |" (:status r)))
''', NV=NV, DPA=DPA, CAP=money(CAP_NV_GBP)))

s.turn(fill("And the Norvale Ltd notice period: 120 days is above PB-TERM-02's 90. Redlining 14.2 of <<LTD>> back to ninety days for the renewal negotiation:", LTD=LTD), fill(r'''
(def rl-ltd
  (tool/cr-redline {:contract_id "<<LTD>>" :section "14.2" :playbook_id "PB-TERM-02"
                    :proposed_text "<<OLD>>"
                    :rationale "PB-TERM-02: non-renewal notice of no more than 90 days."}))
(println rl-ltd)
''', LTD=LTD, OLD=w.N14_2_OLD.replace('"', '\\"')), "tool")

s.turn("The redline has to mark up the text in force, the amendment's:", fill(r'''
(def rl-ltd
  (tool/cr-redline {:contract_id "<<LTD>>" :section "14.2" :playbook_id "PB-TERM-02" :based_on "AMD-0147-02"
                    :proposed_text "<<OLD>>"
                    :rationale "PB-TERM-02: non-renewal notice of no more than 90 days; AMD-0147-02 raised it to 120."}))
(println (:redline_id rl-ltd) (:section rl-ltd) (:heading rl-ltd) "based on" (:based_on rl-ltd) "|" (:words_changed rl-ltd)
         "words |" (:status rl-ltd))
(def redlines
  {"<<BW>>" [(:redline_id rl-bw)] "<<NV>>" [(:redline_id rl-nv)] "<<DPA>>" [(:redline_id rl-dpa)]
   "<<LTD>>" [(:redline_id rl-ltd)]})
(println redlines)
''', LTD=LTD, BW=BW, NV=NV, DPA=DPA, OLD=w.N14_2_OLD.replace('"', '\\"')))

s.turn(fill("A notice of non-renewal on <<LTD>> also touches the SOW that hangs off it, <<SOW>> (wave planning, ending <<END>>). Its terms:", LTD=LTD, SOW=SOW, END=C[SOW][5]), r'''
(def sow (tool/cr-clauses {:contract_id "<<SOW>>"}))
(doseq [k (:clauses sow)]
  (println (:section k) (str "[" (:heading k) "]") (:text k)))
(println "MSA expiry" (:term_end (register "<<LTD>>")) "| SOW end" (:term_end (first (filter #(= "<<SOW>>" (:contract_id %)) contracts)))
         "| MSA 14.4 exit:" (:text (clause "<<LTD>>" "14.4")))
'''.replace("<<LTD>>", LTD).replace("<<SOW>>", SOW))

s.turn(fill("The SOW ends on 30 June, two weeks before the MSA would expire, so a protective notice leaves M3 untouched, and 14.4 gives six months of exit services. Kestrel: the notice window closed on <<DL>>, so <<KE>> extends by 24 months. What it costs to stay, against leaving under 16.4:", DL=DL[KE], KE=KE), fill(r'''
(doseq [sec ["19.2" "16.4" "19.4"]]
  (println sec (:text (clause "<<KE>>" sec))))
(def kestrel-monthly (amount (:last (spend "<<KE>>"))))
(def kestrel-renewed-to (str (+ 2 (parse-long (subs (:term_end (register "<<KE>>")) 0 4))) (subs (:term_end (register "<<KE>>")) 4)))
(def kestrel-tfc-fee (* 6 kestrel-monthly))
(println "monthly fee" kestrel-monthly "EUR | renewed to" kestrel-renewed-to "| 24 more months:"
         (format "%,.2f" (* 24 kestrel-monthly)) "EUR")
(println "termination for convenience (16.4): fee" (format "%,.2f" kestrel-tfc-fee) "EUR ="
         (format "%,.2f" (to-gbp kestrel-tfc-fee "EUR")) "GBP; PB-TERM-05:" (:standard (position "PB-TERM-05"))
         "| fallback:" (:fallback (position "PB-TERM-05")))
(println "raw: fee EUR" kestrel-tfc-fee "| GBP" (cents (to-gbp kestrel-tfc-fee "EUR")) "| EUR rate" (get-in fx [:rates :EUR]))
''', KE=KE))

T_LTD = "Serve notice of non-renewal on Norvale Systems Ltd (%s) by %s" % (LTD, DUE_LTD)
s.turn(fill("Six months' fees, EUR <<FEE>> (GBP <<FEEG>>): at the PB-TERM-05 fallback. Tickets for every deadline and open issue, P1 where the deadline is under 30 days away or gone:",
            FEE=money(KE_FEE_EUR), FEEG=money(KE_FEE_GBP)), fill(r'''
(defn ticket!
  "Opens a ticket on contract `id`."
  [id title priority queue due body]
  (tool/cr-ticket {:contract_id id :title title :priority priority :queue queue :due due :body body}))
(def tickets
  [(ticket! "<<LTD>>" "<<TLTD>>" "P1" "legal" "<<DUE>>")
   (ticket! "<<DPA>>" "Negotiate 24-hour breach notification (<<RLDPA>>)" "P1" "privacy" "<<DUE>>")])
(println (map :ticket_id tickets))
''', LTD=LTD, DPA=DPA, TLTD=T_LTD, DUE=DUE_LTD, RLDPA=RL_DPA), "arity")

s.turn("The body argument is missing. All seven tickets, with their bodies:", fill(r'''
(defn ticket!
  "Opens a ticket on contract `id`."
  [id title priority queue due body]
  (tool/cr-ticket {:contract_id id :title title :priority priority :queue queue :due due :body body}))
(def tickets
  [(ticket! "<<LTD>>" "<<TLTD>>" "P1" "legal" "<<DUE>>"
            "Last day for notice is <<DL>> (a Sunday): 120 days under clause 14.2 as amended by AMD-0147-02. Serve under 14.2A and 24.3: by hand or recorded delivery to 4th Floor, 21 Garrick Street, London WC2E 9BB, copy to legal@norvale.co.uk. Protective notice; renewal to be renegotiated with <<RLLTD>> (90 days).")
   (ticket! "<<DPA>>" "Negotiate 24-hour breach notification in DPA 7.1 (<<RLDPA>>)" "P1" "privacy" "<<DUE>>"
            "DPA 7.1: \"within seventy-two (72) hours\" is beyond the PB-DP-02 walk-away (48 hours). The DPA ends with <<LTD>>.")
   (ticket! "<<NV>>" "Norvale Systems Inc. order form: raise the Liability Cap or give notice by <<DLNV>>" "P1" "legal" "<<DUEM>>"
            "Liability Cap USD 1,250,000 (1.2, 1.3: Currency = USD) = GBP <<CAP>>, below the PB-LIAB-03 floor. Redline <<RLNV>>. Notice under 8.3 (60 days) to legal@norvalesystems.com by <<DLNV>>. New York law: PB-LAW-01 fallback, GC approval.")
   (ticket! "<<PE>>" "Pellucid managed print: confirm renewal with Warehousing by <<DUEM>>" "P1" "legal" "<<DUEM>>"
            "Notice under 5.2 (30 days) by <<DLPE>>. Terms within the playbook (cap 7.1 = 100% of fees, PB-LIAB-05). Renew unless Warehousing objects.")
   (ticket! "<<KE>>" "Kestrel Datenwerk: notice window missed (<<DLKE>>); decide on termination for convenience" "P1" "procurement" "<<DUEM>>"
            "19.2: extended by 24 months to <<TO>>. 16.4: termination for convenience on 3 months' notice to a month end, fee = 6 months' Fees = EUR <<FEE>> (GBP <<FEEG>>). Notice in text form (19.4) to vertrag@kestrel-datenwerk.de.")
   (ticket! "<<KE>>" "Record sanctions false positive for Kestrel Datenwerk GmbH" "P3" "compliance" "<<DUEM>>"
            "<<S1>> matched KESTREL DATA WORKS LLC (OFAC SDN; UK OFSI, RUSSIA-EO14024, OGRN 1187746521093). Re-screened with HRB 118402: <<S2>> clear; parent Kestrel Holding AG (CHE-114.392.507): <<S3>> clear.")
   (ticket! "<<BW>>" "Brightwater analytics MSA: negotiate the liability cap before <<DLBW>>" "P3" "legal" "<<DLBW>>"
            "10.2 caps liability at £500,000, below PB-LIAB-03 and its fallback. Redline <<RLBW>>. Notice under 17.1 (3 months) by <<DLBW>>.")])
(doseq [t tickets]
  (println (:ticket_id t) (:priority t) (format "%-11s" (:queue t)) (:contract_id t) "due" (:due t) "|" (:assignee t) "|" (:title t)))
(println "scope without a ticket:" (vec (remove (set (map :contract_id tickets)) (map :contract_id scope))))
''', LTD=LTD, DPA=DPA, NV=NV, PE=PE, KE=KE, BW=BW, TLTD=T_LTD, DUE=DUE_LTD, DUEM=DUE_MARCH, DL=DL[LTD],
     DLNV=DL[NV], DLPE=DL[PE], DLKE=DL[KE], DLBW=DL[BW], RLLTD=RL_LTD, RLDPA=RL_DPA, RLNV=RL_NV, RLBW=RL_BW,
     CAP=money(CAP_NV_GBP), TO=KE_RENEWED_TO, FEE=money(KE_FEE_EUR), FEEG=money(KE_FEE_GBP),
     S1=SCREEN["CP-0588"]["screen_id"], S2=K_RESCREEN["screen_id"], S3=K_PARENT["screen_id"]))

s.turn("Every contract in scope has a ticket. The memo's rows: a money formatter first, then one row per contract.", fill(r'''
(defn gbp-text [x] (clojure.pprint/cl-format nil "GBP ~:d" (round x)))
(def ticket-ids (reduce (fn [m t] (update m (:contract_id t) (fnil conj []) (:ticket_id t))) {} tickets))
(println (gbp-text (:cap (caps-gbp "<<NV>>"))) ticket-ids)
''', NV=NV), "unbound_symbol")

REC = {
    LTD: "Serve protective notice of non-renewal by %s (deadline %s, 120 days under 14.2 as amended by AMD-0147-02); "
         "renegotiate the notice period to 90 days (PB-TERM-02) before renewing." % (DUE_LTD, DL[LTD]),
    DPA: "Ends with %s; renew only with 24-hour breach notification in 7.1 (PB-DP-02)." % LTD,
    NV: "Renew only if the Liability Cap rises to USD 1,262,500 (GBP 1,000,000, PB-LIAB-03); otherwise give notice "
        "under 8.3 by %s. New York law accepted as the PB-LAW-01 fallback (GC approval)." % DL[NV],
    BW: "Renew; raise the 10.2 cap from £500,000 to the greater of 12 months' Fees and £1,000,000 before %s." % DL[BW],
    KE: "Notice window closed %s: extended to %s. Decide by %s whether to terminate for convenience under 16.4 (fee "
        "EUR %s); German law accepted as the PB-LAW-01 fallback." % (DL[KE], KE_RENEWED_TO, DUE_MARCH,
                                                                  money(KE_FEE_EUR)),
    PE: "Renew: within the playbook (PB-LIAB-05); confirm with Warehousing by %s." % DUE_MARCH,
}
REC_MAP = "\n   ".join('"%s" "%s"' % (cid, REC[cid]) for cid in [LTD, DPA, NV, BW, KE, PE])

s.turn("No cl-format here; format with a comma flag does the same. The rows:", fill(r'''
(defn gbp-text [x] (str "GBP " (format "%,.2f" (double x))))
(def ticket-ids (reduce (fn [m t] (update m (:contract_id t) (fnil conj []) (:ticket_id t))) {} tickets))
(def recommendations
  {<<REC>>})
(def memo-rows
  (vec (for [id work-order :let [c (register id) cap (caps-gbp id)]]
         {:contract_id id :counterparty (:counterparty c) :deadline (deadlines id)
          :notice_clause (str (:section (notice id)) (when-let [a (:amended-by (notice id))] (str " as amended by " a)))
          :cap_gbp (gbp-text (:cap cap)) :cap_position (str (:pb cap) (if (< (:cap cap) (:floor cap)) " below" " meets"))
          :recommendation (recommendations id) :redlines (get redlines id []) :tickets (ticket-ids id)})))
(doseq [r memo-rows]
  (println (format "%-15s %-26s %s %-35s %-18s %-17s" (:contract_id r) (:counterparty r) (:deadline r) (:notice_clause r)
                   (:cap_gbp r) (:cap_position r)) (:redlines r) (:tickets r)))
''', REC=REC_MAP))

QUOTE_LTD = "not less than one hundred and twenty (120) days before the expiry"
QUOTE_DPA = "without undue delay and in any event within seventy-two (72) hours"
QUOTE_NV = '"Currency" means United States dollars (USD)'
QUOTE_KE = "extended automatically by twenty-four (24) months"
for q, src in [(QUOTE_LTD, w.N14_2_NEW), (QUOTE_DPA, w.DPA_7_1), (QUOTE_NV, w.NV_1_3), (QUOTE_KE, w.KE_19_2)]:
    assert q in src, q

s.turn("The memo should quote the clauses that drive the deadlines and the redlines word for word. Checking each quote against the text in force:", fill(r'''
(defn in-force
  "The text in force of `section` of contract `id`: the latest amendment's replacement, else the executed clause."
  [id section]
  (or (:text (last (filter #(and (= section (:section %)) (= "replace" (:action %))) (mapcat :changes (amendments id)))))
      (:text (clause id section))))
(def quotes
  [["<<LTD>>" "14.2" "<<Q1>>"]
   ["<<DPA>>" "7.1" "<<Q2>>"]
   ["<<NV>>" "1.3" "<<Q3>>"]
   ["<<KE>>" "19.2" "<<Q4>>"]])
(doseq [[id sec q] quotes]
  (println id sec (if (str/includes? (in-force id sec) q) "found" "NOT FOUND") "|" q))
''', LTD=LTD, DPA=DPA, NV=NV, KE=KE, Q1=QUOTE_LTD, Q2=QUOTE_DPA, Q3=QUOTE_NV.replace('"', '\\"'), Q4=QUOTE_KE))

SUMMARY = fill(
    "Six vendor contracts renew automatically by <<H>>. Two need action this month: Norvale Systems Ltd's WMS "
    "platform MSA (<<LTD>>) must receive notice of non-renewal by <<DL>> (clause 14.2 as amended by AMD-0147-02: "
    "\\\"<<Q1>>\\\"), in practice by Friday <<DUE>>; and Kestrel Datenwerk GmbH's telematics MSA (<<KE>>) has "
    "already extended to <<TO>> because notice was due by <<DLKE>> (19.2: \\\"<<Q4>>\\\"). The look-alike Norvale "
    "Systems Inc. order form (<<NV>>) states its Liability Cap in US dollars (1.3: Currency \\\"<<Q3>>\\\"): USD 1,250,000 is "
    "GBP <<CAP>>, below the GBP 1,000,000 floor of PB-LIAB-03. Brightwater's cap of £500,000 (<<BW>> 10.2) is also "
    "below it. The Norvale DPA notifies breaches \\\"<<Q2>>\\\", beyond PB-DP-02. Sanctions screening is clear; the "
    "Kestrel hit on KESTREL DATA WORKS LLC is a false positive (<<S2>>).",
    H=w.HORIZON, LTD=LTD, DL=DL[LTD], Q1=QUOTE_LTD, DUE=DUE_LTD, KE=KE, TO=KE_RENEWED_TO, DLKE=DL[KE], Q4=QUOTE_KE,
    NV=NV, Q3=QUOTE_NV.split('" ')[1], CAP=money(CAP_NV_GBP), BW=BW, Q2=QUOTE_DPA, S2=K_RESCREEN["screen_id"])

s.turn("All four found. The memo's summary, and a look at it before it goes:", r'''
(def memo-summary
  "<<SUMMARY>>")
(doseq [line (re-seq #".{1,110}(?:\s|$)" memo-summary)]
  (println "  " (str/trim line)))
(println (count (str/split memo-summary #"\s+")) "words; to" (:memo_to data/brief))
'''.replace("<<SUMMARY>>", SUMMARY))

s.cut("Submitting the memo:", fill(r'''
(def memo
  (tool/cr-memo-submit {:title "Vendor renewals to <<H>>: review of <<ASOF>>"
                        :as_of as-of
                        :to (:memo_to data/brief)
                        :summary memo-summary
                        :contracts (mapv #(select-keys % [:contract_id :counterparty :deadline :notice_clause :cap_gbp
                                                          :cap_position :recommendation :redlines :tickets
''', H=w.HORIZON, ASOF=w.AS_OF))

s.turn("Cut off. The submission again, kept short:", fill(r'''
(def memo
  (tool/cr-memo-submit {:title "Vendor renewals to <<H>>: review of <<ASOF>>" :as_of as-of :to (:memo_to data/brief)
                        :summary memo-summary :contracts memo-rows}))
(println memo)
''', H=w.HORIZON, ASOF=w.AS_OF))

RESULT = fill(r'''
(return
 {:memo "<<MEMO>>"
  :as-of "<<ASOF>>"
  :contracts
  {"<<LTD>>" {:counterparty "Norvale Systems Ltd" :deadline "<<DL_LTD>>" :notice "14.2 as amended by AMD-0147-02 (120 days)"
              :recommendation "serve protective non-renewal notice by <<DUE>>; renegotiate notice to 90 days"
              :redlines ["<<RL_LTD>>"] :tickets ["<<T_LTD>>"]}
   "<<DPA>>" {:counterparty "Norvale Systems Ltd" :deadline "<<DL_LTD>>" :notice "12.1 (ends with <<LTD>>)"
              :recommendation "renew only with 24-hour breach notification (PB-DP-02)"
              :redlines ["<<RL_DPA>>"] :tickets ["<<T_DPA>>"]}
   "<<NV>>" {:counterparty "Norvale Systems Inc." :deadline "<<DL_NV>>" :notice "8.3 (60 days)"
             :recommendation "renew only with the Liability Cap at USD 1,262,500; cap now USD 1,250,000 = GBP <<CAP>>"
             :redlines ["<<RL_NV>>"] :tickets ["<<T_NV>>"]}
   "<<BW>>" {:counterparty "Brightwater Analytics Ltd" :deadline "<<DL_BW>>" :notice "17.1 (3 months)"
             :recommendation "renew with the 10.2 cap raised from £500,000 to the PB-LIAB-03 standard"
             :redlines ["<<RL_BW>>"] :tickets ["<<T_BW>>"]}
   "<<KE>>" {:counterparty "Kestrel Datenwerk GmbH" :deadline "<<DL_KE>>" :notice "19.2 (6 months; window closed)"
             :recommendation "extended to <<TO>>; decide on termination for convenience under 16.4 (fee EUR <<FEE>>)"
             :redlines [] :tickets ["<<T_KE>>" "<<T_KEC>>"]}
   "<<PE>>" {:counterparty "Pellucid Print Services Ltd" :deadline "<<DL_PE>>" :notice "5.2 (30 days)"
             :recommendation "renew; within PB-LIAB-05" :redlines [] :tickets ["<<T_PE>>"]}}
  :screening {"CP-0412" "<<S0412>>" "CP-0977" "<<S0977>>" "CP-0419" "<<S0419>>" "CP-0640" "<<S0640>>"
              "CP-0588" {:first "<<S0588>>" :hit "<<HIT>>" :hit-registration "<<HITREG>>" :ours "<<KREG>>"
                         :rescreen "<<SRE>>" :parent "<<PNAME>>" :parent-screen "<<SPA>>" :result "clear (false positive)"}}
  :look-alikes {"<<LTDNAME>>" {:cp "CP-0412" :reg "<<REGLTD>>" :vendor "<<VLTD>>" :contracts ["<<LTD>>" "<<DPA>>" "<<SOW>>"]}
                "<<INCNAME>>" {:cp "CP-0977" :reg "<<REGINC>>" :vendor "<<VINC>>" :contracts ["<<NV>>"]}}
  :figures {:nv-cap-usd 1250000 :nv-cap-gbp <<CAPRAW>> :nv-cap-proposed-usd <<USDFLOOR>> :usd-per-gbp <<USD>>
            :kestrel-tfc-fee-eur <<FEERAW>> :kestrel-tfc-fee-gbp <<FEEGRAW>> :eur-per-gbp <<EUR>>}
  :corrections ["<<LTD>> and <<DPA>>: notice deadline <<DL_LTD>> under AMD-0147-02 (120 days), not the executed 90 days"
                "<<NV>>: Liability Cap is USD 1,250,000 = GBP <<CAP>>, below PB-LIAB-03, not GBP 1,250,000"]})
''', MEMO=MEMO, ASOF=w.AS_OF, LTD=LTD, DPA=DPA, NV=NV, BW=BW, KE=KE, PE=PE, DL_LTD=DL[LTD], DUE=DUE_LTD,
    RL_LTD=RL_LTD, RL_DPA=RL_DPA, RL_NV=RL_NV, RL_BW=RL_BW, T_LTD=TK[(LTD, "legal")], T_DPA=TK[(DPA, "privacy")],
    T_NV=TK[(NV, "legal")], T_BW=TK[(BW, "legal")], T_KE=TK[(KE, "procurement")], T_KEC=TK[(KE, "compliance")],
    T_PE=TK[(PE, "legal")], DL_NV=DL[NV], DL_BW=DL[BW], DL_KE=DL[KE], DL_PE=DL[PE], CAP=money(CAP_NV_GBP),
    TO=KE_RENEWED_TO, FEE=money(KE_FEE_EUR), S0412=SCREEN["CP-0412"]["screen_id"],
    S0977=SCREEN["CP-0977"]["screen_id"], S0419=SCREEN["CP-0419"]["screen_id"], S0640=SCREEN["CP-0640"]["screen_id"],
    S0588=SCREEN["CP-0588"]["screen_id"], SRE=K_RESCREEN["screen_id"], SPA=K_PARENT["screen_id"],
    HIT=HIT["entry"].split(" (")[0], HITREG=HIT["registration"], KREG=KCP["reg_no"], PNAME=KPARENT_NAME,
    LTDNAME=w.NORVALE_LTD, INCNAME=w.NORVALE_INC, REGLTD=w.COUNTERPARTIES["CP-0412"]["reg_no"],
    REGINC=w.COUNTERPARTIES["CP-0977"]["reg_no"], VLTD=w.COUNTERPARTIES["CP-0412"]["erp_vendor"],
    VINC=w.COUNTERPARTIES["CP-0977"]["erp_vendor"], SOW=SOW, CAPRAW=CAP_NV_GBP, USDFLOOR=USD_FLOOR, USD=w.FX["USD"],
    FEERAW=KE_FEE_EUR, FEEGRAW=KE_FEE_GBP, EUR=w.FX["EUR"])

s.turn(fill("Memo <<MEMO>> is submitted to the General Counsel and the Procurement Director. The review, with the amended Norvale deadline and the Norvale Inc. cap in dollars:",
            MEMO=MEMO), RESULT, "return")

# --- every id the answers write exists in the world or was handed out by a tool -------------

KNOWN = (set(w.CONTRACT) | set(w.COUNTERPARTIES) | set(w.PB) | {r["erp_vendor"] for r in w.COUNTERPARTIES.values()}
         | {a[0] for amds in w.AMENDMENTS.values() for a in amds}
         | {v["screen_id"] for v in SCREEN.values()} | {K_RESCREEN["screen_id"], K_PARENT["screen_id"]}
         | {RL_BW, RL_NV, RL_DPA, RL_LTD} | set(TK.values()) | {MEMO})
IDS = re.compile(r"\b(?:PB-[A-Z]+-\d+|CP-\d{4}|AMD-\d{4}-\d{2}|SCR-\d{2}-\d{5}|RL-\d{2}-\d{5}|LEG-\d{4}|RM-\d{4}-\d{3}"
                 r"|V-\d{5}|(?:MSA|DPA|ORD|SOW|NDA)-[A-Z0-9]+(?:-[A-Z0-9]+)*)\b")
for answer in s.answers:
    unknown = set(IDS.findall(answer)) - KNOWN
    assert not unknown, unknown

if __name__ == "__main__":
    s.write(__file__)
