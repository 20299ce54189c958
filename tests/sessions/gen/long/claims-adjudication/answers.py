#!/usr/bin/env python3
"""The model answers of the claims-adjudication session.
Claim numbers, member ids, NPIs, TINs, auth numbers, dates, allowed amounts,
deductible figures and the ids the tools hand out (adjudication ids, the
report id) are taken from world.py (and tool.py's numbering), as the model
takes them from the prints of earlier turns. Three corrections, each after
the old value was printed and used: the fee schedule of CLM-2025-0081734 and
its same-day lab claim is first looked up in the member's rating area 02
(Seattle; 99214 at 148.62) and, once the provider directory puts Rao Family
Medicine in locality 04 and clause FS-3.1 says the provider's locality
prices, redone at 04 (`fees` and `plan-a` redefined; 99214 at 131.17); the
deductible left for 0081734 is first 1500.00 - 1375.00 = 125.00 from the
nightly accumulators and, once the same-day lab claim CLM-2025-0081762 has
posted 58.97 to the deductible (eligibility shows it only after the next
nightly run), 66.03 (`ded-left` and `plan-a` redefined;
0081734 pays 122.65 instead of 101.17); the denosumab auth of
CLM-2025-0081826 is first taken from a last-name search (PA-771902, the
other Maria Delgado's, M0048213-02; refused by adj-claim) and then PA-771920
of M0052907-01 (`auth-f` redefined). Later programs write only the new
values. Failed turns: an unbound `reduced`, an arity error, a tool refusal of
an NPI failing its check digit, a prose-only answer, a tool refusal of the
wrong member's auth, a type error (amounts parsed from the primary EOB still
strings), and the batch report cut off mid-form."""
import math
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


def r2(x):
    return math.floor(x * 100 + 0.5) / 100.0


def price(fees, copay, left, lines):
    out = []
    for l in lines:
        allowed = r2(min(l["billed"], l["units"] * fees[l["code"]]))
        em = l["code"].startswith("992")
        cp = copay if em else 0.0
        ded = 0.0 if em else min(left, allowed)
        coins = 0.0 if em else r2(0.2 * (allowed - ded))
        paid = r2(allowed - cp - ded - coins)
        left = r2(left - ded)
        out.append({"line": l["line"], "code": l["code"], "units": l["units"], "allowed": allowed, "copay": cp,
                    "deductible": ded, "coinsurance": coins, "paid": paid})
    return out


def fee_map(codes, loc):
    return {c: w.FEES[c][4][loc] for c in codes}


A, B, C, D, E, F, G = ("CLM-2025-0081734", "CLM-2025-0081762", "CLM-2025-0081784", "CLM-2025-0081791",
                       "CLM-2025-0081810", "CLM-2025-0081826", "CLM-2025-0081833")
DEL2, DEL1 = "M0048213-02", "M0052907-01"
CA, CB = w.CLAIMS[A], w.CLAIMS[B]
M2 = w.MEMBERS[DEL2]
PPO = w.PLANS["CHP-PPO-1500"]
DED0 = PPO["deductible"] - M2["deductible_met"]
assert DED0 == 125.0
AB_CODES = [l["code"] for l in CA["lines"]] + [l["code"] for l in CB["lines"]]
PLAN_B = price(fee_map(AB_CODES, "04"), 30.0, DED0, CB["lines"])
ADJ_B = t.adj_claim({"claim_no": B, "member_id": DEL2, "lines": [dict(x, action="pay") for x in PLAN_B],
                     "interest": 0.0})
APPLIED_B = ADJ_B["accumulators_after"]["deductible_applied"]
DED1 = r2(DED0 - APPLIED_B)
assert (APPLIED_B, DED1) == (58.97, 66.03), (APPLIED_B, DED1)
PLAN_A = price(fee_map(AB_CODES, "04"), 30.0, DED1, CA["lines"])
PAID_A = r2(sum(x["paid"] for x in PLAN_A))
assert PAID_A == 122.65, PAID_A
PLAN_A_OLD = price(fee_map(AB_CODES, "04"), 30.0, DED0, CA["lines"])
assert r2(sum(x["paid"] for x in PLAN_A_OLD)) == 101.17
ADJ_A = t.adj_claim({"claim_no": A, "member_id": DEL2, "lines": [dict(x, action="pay") for x in PLAN_A],
                     "interest": 0.0})
ADJ_C = t.adj_claim({"claim_no": C, "member_id": DEL1, "lines": [{"line": 1, "action": "deny", "carc": "16",
                                                                 "rarc": "N290"}]})
CF = w.CLAIMS[F]
PLAN_F = price(fee_map(["J0897", "96372"], "99"), 0.0, 0.0, CF["lines"])
PAID_F = r2(sum(x["paid"] for x in PLAN_F))
INT_F = r2(PAID_F * 0.01 / 30 * 5)
assert (PAID_F, INT_F) == (1378.36, 2.3), (PAID_F, INT_F)
AUTH_WRONG = next(a for a in w.AUTHS if a["code"] == "J0897")
AUTH_F = next(a for a in w.AUTHS if a["code"] == "J0897" and a["member_id"] == DEL1)
assert AUTH_WRONG["auth_no"] == "PA-771902" and AUTH_F["auth_no"] == "PA-771920"
ADJ_F = t.adj_claim({"claim_no": F, "member_id": DEL1, "interest": INT_F,
                     "lines": [dict(x, action="pay", auth=AUTH_F["auth_no"]) if x["code"] == "J0897"
                               else dict(x, action="pay") for x in PLAN_F]})
DUP = w.HISTORY[0]
ADJ_D = t.adj_claim({"claim_no": D, "member_id": "M0061178-01",
                     "lines": [{"line": 1, "action": "deny", "carc": "18"}, {"line": 2, "action": "deny", "carc": "18"}]})
CE = w.CLAIMS[E]
NORMAL_E = price(fee_map(["99213", "87880"], "02"), 30.0, 0.0, CE["lines"])
RESP_E = [23.60, 4.20]
PRIM_PAID_E = [94.40, 16.80]
SEC_E = [min(n["paid"], r) for n, r in zip(NORMAL_E, RESP_E)]
PAID_E = r2(sum(SEC_E))
assert PAID_E == 27.8, PAID_E
ADJ_E = t.adj_claim({"claim_no": E, "member_id": "M0073344-03", "interest": 0.0,
                     "lines": [{"line": n["line"], "action": "pay", "allowed": n["allowed"], "paid": sc,
                                "cob_primary_paid": pp} for n, sc, pp in zip(NORMAL_E, SEC_E, PRIM_PAID_E)]})
ADJ_G = t.adj_claim({"claim_no": G, "member_id": "M0055561-01", "lines": [{"line": 1, "action": "deny", "carc": "27"}]})
ADJ = {c: a["adjudication_id"] for c, a in
       [(A, ADJ_A), (B, ADJ_B), (C, ADJ_C), (D, ADJ_D), (E, ADJ_E), (F, ADJ_F), (G, ADJ_G)]}
PAID = {A: PAID_A, B: 0.0, C: 0.0, D: 0.0, E: PAID_E, F: PAID_F, G: 0.0}
REPORT = t.batch_submit({"batch_id": w.BATCH, "adjudicator": w.ADJUDICATOR, "carried_over": w.LATER,
                         "claims": [{"claim_no": c, "adjudication_id": ADJ[c], "paid": PAID[c],
                                     "interest": INT_F if c == F else 0.0} for c in w.DUE]})
K = dict(A=A, B=B, C=C, D=D, E=E, F=F, G=G, DEL2=DEL2, DEL1=DEL1, RAO=w.NPI_RAO, BAD=w.NPI_RAO_BAD,
         INP=w.NPI_INP, SUMMIT=w.NPI_SUMMIT, CASCADE=w.NPI_CASCADE, NORTHGATE=w.NPI_NORTHGATE,
         ADJA=ADJ[A], ADJB=ADJ[B], ADJC=ADJ[C], ADJD=ADJ[D], ADJE=ADJ[E], ADJF=ADJ[F], ADJG=ADJ[G],
         APPLIED_B="%.2f" % APPLIED_B, DED1="%.2f" % DED1, PAIDA="%.2f" % PAID_A, PAIDF="%.2f" % PAID_F, INTF="%.2f" % INT_F,
         PAIDE="%.2f" % PAID_E, PA_OK=AUTH_F["auth_no"], PA_BAD=AUTH_WRONG["auth_no"], DUP=DUP["claim_no"],
         DUP2=w.HISTORY[1]["claim_no"], REPORT=REPORT["report_id"], TIN="91-1834402",
         WHIT="M0061178-01", NAT="M0073344-03", ORT="M0055561-01")


def f(code):
    return fill(code, **{k: v for k, v in K.items() if "<<%s>>" % k in code})


# --- the session -------------------------------------------------------------------------

s.turn("First the brief and the whole pended queue, sorted by prompt-pay due date.", r'''
(println (:handover data/brief))
(doseq [i (:instructions data/brief)] (println "-" i))
(def queue (tool/clm-queue {}))
(println (:count queue) "pended claims, as of" (:as_of queue))
(println (format "%-17s %-10s %-10s %-12s %-20s %-10s %2s %9s %s" "claim" "received" "due" "member" "patient" "bill NPI" "ln" "billed" "pend"))
(doseq [c (:claims queue)]
  (println (format "%-17s %-10s %-10s %-12s %-20s %-10s %2d %9.2f %s" (:claim_no c) (:received c) (:due_by c)
                   (:member_id c) (:patient c) (:billing_npi c) (:lines c) (:total_billed c) (:pend_reason c))))
(def due (filterv #(<= (compare (:due_by %) (:batch_date data/brief)) 0) (:claims queue)))
(println (count due) "due on or before" (:batch_date data/brief) ":" (mapv :claim_no due))
''')

s.turn("Seven claims must be finalized today, three of them already past due. Fetching all seven with their lines:", r'''
(def claims (into {} (map (juxt :claim_no identity)) (pmap #(tool/clm-get {:claim_no %}) (mapv :claim_no due))))
(doseq [c (sort-by :due_by (vals claims))]
  (println (str "== " (:claim_no c) " due " (:due_by c) " | " (:member_id c) " " (:patient c) " (" (:patient_dob c) ")"
                " | NPI " (:billing_npi c) "/" (:rendering_npi c) " TIN " (:billing_tin c) " POS " (:place_of_service c)
                " freq " (:frequency c)))
  (println "   pend:" (:pend_reason c) "-" (:pend_detail c))
  (doseq [l (:lines c)]
    (println (format "   %d %s %-6s %-4s x%-3d %8.2f  %s" (:line l) (:dos l) (:code l) (str/join "," (:modifiers l))
                     (:units l) (:billed l) (str/join " " (:dx l)))))
  (when (seq (:attachments c)) (println "   attachments:" (mapv :type (:attachments c)))))
''')

s.turn("Two patients named DELGADO, MARIA with different member ids. Before pricing anything, the policy: its contents and the sections on order of work, cost sharing and prompt-pay interest.", r'''
(def policy (tool/med-policy {}))
(println (:document policy) (:version policy) "effective" (:effective policy))
(doseq [s (:sections policy)] (println " " (:section s) "-" (:title s) (:clauses s)))
(doseq [sec (pmap #(tool/med-policy {:section %}) ["ADJ" "BEN" "PP"])]
  (println "##" (:section sec) (:title sec))
  (doseq [c (:clauses sec)] (println (:id c) (:text c))))
''')

s.turn(f("ADJ-2: <<DEL2>> has two claims on 2025-02-03 (<<A>> received 02-10, the lab claim <<B>> received 02-12), so her accumulators matter. Her eligibility on that date:"), f(r'''
(def elig-d2 (tool/elig-check {:member_id "<<DEL2>>" :dos "2025-02-03"}))
(println (:member_id elig-d2) (:name elig-d2) (:dob elig-d2) (:relationship elig-d2) "of" (:subscriber_id elig-d2) (:subscriber_name elig-d2))
(println (:group elig-d2) "|" (:plan_id elig-d2) (:plan_name elig-d2) "| coverage" (:coverage_start elig-d2) "-" (or (:coverage_end elig-d2) "open")
         "| eligible on DOS:" (:eligible_on_dos elig-d2) "| rating area" (:rating_area elig-d2) (:rating_area_name elig-d2))
(println "benefits:" (:benefits elig-d2))
(println "accumulators:" (:accumulators elig-d2))
(def ded-left (- (get-in elig-d2 [:benefits :deductible]) (get-in elig-d2 [:accumulators :deductible_met])))
(def pcp-copay (get-in elig-d2 [:benefits :copays :primary_care_visit]))
(println "deductible left:" ded-left "| PCP copay:" pcp-copay)
'''))

s.turn("Deductible left 125.00, PCP copay 30.00. Fee schedule for the codes of her two claims, in her area 02:", r'''
(def ab-codes (vec (distinct (map :code (concat (:lines (claims "CLM-2025-0081734")) (:lines (claims "CLM-2025-0081762")))))))
(def fs-02 (tool/fee-schedule {:codes ab-codes :locality "02"}))
(println (:schedule fs-02) "locality" (:locality fs-02) (:locality_name fs-02) "not found:" (:not_found fs-02))
(doseq [r (:rows fs-02)]
  (println (format "%-6s %8.2f per %-9s global %s PA %-5s %s" (:code r) (:allowed r) (:per r) (:global_days r) (:pa_required r) (:description r))))
(def fees (into {} (map (juxt :code :allowed)) (:rows fs-02)))
''')

s.turn("Pricing 0081734 line by line: E/M lines get the copay, the other lines eat the deductible in line order, then 20% coinsurance. A reduce that stops once the deductible is gone:", r'''
(defn round2 [x] (/ (round (* 100 x)) 100.0))
(defn price-claim [fees copay ded-left lines]
  (:out (reduce (fn [acc l]
                  (let [allowed (round2 (min (:billed l) (* (:units l) (get fees (:code l)))))]
                    (if (<= (:left acc) 0)
                      (reduced (update acc :out conj {:line (:line l) :allowed allowed}))
                      (let [ded (min (:left acc) allowed)]
                        (-> acc (update :left - ded) (update :out conj {:line (:line l) :allowed allowed :deductible ded}))))))
                {:left ded-left :out []} lines)))
(println (price-claim fees pcp-copay ded-left (:lines (claims "CLM-2025-0081734"))))
''', "unbound_symbol")

s.turn("No `reduced` here, and that version dropped the lines after the deductible anyway. A loop over the lines, carrying what is left of the deductible:", r'''
(defn round2 [x] (/ (round (* 100 x)) 100.0))
(defn price-claim [fees copay ded-left lines]
  (loop [ls lines left ded-left out []]
    (if (empty? ls)
      out
      (let [l (first ls)
            allowed (round2 (min (:billed l) (* (:units l) (get fees (:code l)))))
            em? (str/starts-with? (:code l) "992")
            cp (if em? copay 0.0)
            ded (if em? 0.0 (min left allowed))
            coins (if em? 0.0 (round2 (* 0.2 (- allowed ded))))
            paid (round2 (- allowed cp ded coins))]
        (recur (rest ls) (round2 (- left ded))
               (conj out {:line (:line l) :code (:code l) :units (:units l) :allowed allowed :copay cp
                          :deductible ded :coinsurance coins :paid paid}))))))
(defn print-plan [plan]
  (println (format "%-4s %-6s %5s %8s %7s %8s %7s %8s" "line" "code" "units" "allowed" "copay" "deduct" "coins" "paid"))
  (doseq [p plan]
    (println (format "%-4d %-6s %5d %8.2f %7.2f %8.2f %7.2f %8.2f" (:line p) (:code p) (:units p) (:allowed p) (:copay p)
                     (:deductible p) (:coinsurance p) (:paid p))))
  (println (format "%-17s %8.2f %7.2f %8.2f %7.2f %8.2f" "total" (sum-by :allowed plan) (sum-by :copay plan)
                   (sum-by :deductible plan) (sum-by :coinsurance plan) (sum-by :paid plan))))
(def plan-a (price-claim fees pcp-copay ded-left (:lines (claims "CLM-2025-0081734"))))
(print-plan plan-a)
''')

s.turn(f("All of 0081734's non-visit lines go to the deductible; the plan pays the visit less the copay. Before posting: the providers of her two claims, and her claim history around 2025-02-03 for duplicates."), f(r'''
(def provs (into {} (map (juxt :npi identity)) (pmap #(tool/prov-lookup {:npi %}) ["<<RAO>>" "<<INP>>"])))
(doseq [p (vals provs)]
  (println (:npi p) (:name p) "|" (:rendering p) "|" (:specialty p) "| TIN" (:tin p) "|" (:network_status p) (:networks p)
           "| locality" (:locality p) (:locality_name p) "|" (:service_address p)))
(def hist-d2 (tool/dup-search {:member_id "<<DEL2>>" :dos_from "2025-01-01" :dos_to "2025-03-14"}))
(doseq [h (:claims hist-d2)]
  (println (:claim_no h) (:status h) (:provider h) "received" (:received h)
           (mapv #(str (:dos %) " " (:code %) (when (seq (:modifiers %)) (str "-" (str/join "-" (:modifiers %)))) " x" (:units %)) (:lines h))))
'''))

s.turn("No duplicates: 0076420 is an earlier visit elsewhere, the two pended claims are different providers. But both providers are in Spokane, locality 04, and I priced at her rating area 02. The pricing section decides which:", r'''
(def fs-policy (tool/med-policy {:section "FS"}))
(doseq [c (:clauses fs-policy)] (println (:id c) (:text c)))
''')

s.turn("FS-3.1: the provider's locality prices, the member's rating area never does. Redoing the fee lookup at 04 and 0081734's plan; the 02 figures are wrong:", r'''
(def fs-04 (tool/fee-schedule {:codes ab-codes :locality "04"}))
(def fees-02 fees)
(def fees (into {} (map (juxt :code :allowed)) (:rows fs-04)))
(println (format "%-6s %8s %8s" "code" "loc 02" "loc 04"))
(doseq [c ab-codes] (println (format "%-6s %8.2f %8.2f" c (fees-02 c) (fees c))))
(def plan-a (price-claim fees ded-left (:lines (claims "CLM-2025-0081734"))))
(print-plan plan-a)
''', "arity")

s.turn("price-claim takes the copay too. Again:", r'''
(def fs-04 (tool/fee-schedule {:codes ab-codes :locality "04"}))
(def fees-02 fees)
(def fees (into {} (map (juxt :code :allowed)) (:rows fs-04)))
(println (:schedule fs-04) "locality" (:locality fs-04) (:locality_name fs-04))
(println (format "%-6s %8s %8s" "code" "loc 02" "loc 04"))
(doseq [c ab-codes] (println (format "%-6s %8.2f %8.2f" c (fees-02 c) (fees c))))
(def plan-a (price-claim fees pcp-copay ded-left (:lines (claims "CLM-2025-0081734"))))
(print-plan plan-a)
''')

s.turn("99214 is 131.17 at 04. 0081734 still waits on the modifier review, so the lab claim 0081762 (due today) goes first, priced with the same accumulators:", r'''
(def plan-b (price-claim fees pcp-copay ded-left (:lines (claims "CLM-2025-0081762"))))
(print-plan plan-b)
(println "deductible taken by 0081762:" (round2 (sum-by :deductible plan-b)))
''')

s.turn(f("All six lab lines go to the deductible (58.97), nothing payable. Finalizing <<B>> (due today, on time):"), f(r'''
(def adj-b (tool/adj-claim {:claim_no "<<B>>" :member_id "<<DEL2>>" :interest 0.0
                            :lines (mapv #(assoc % :action "pay") plan-b)}))
(println (:adjudication_id adj-b) (:claim_no adj-b) (:status adj-b) (:adjudicated_at adj-b) "paid" (:total_paid adj-b)
         "member" (:member_responsibility adj-b))
(doseq [l (:lines adj-b)] (println "  " (:line_adj_id l) (:code l) (:allowed l) "ded" (:deductible l) "paid" (:paid l)))
(println "accumulators:" (:accumulators_after adj-b))
'''))

s.turn(f("Posted as <<ADJB>>, applying <<APPLIED_B>> to her deductible at once. 0081734's plan above still assumes the nightly run's figure, and ADJ-2 says elig-check will not show today's posting. What is left after the lab claim, and 0081734 again:"), f(r'''
(def ded-left-nightly ded-left)
(def ded-left (round2 (- ded-left-nightly <<APPLIED_B>>)))
(def plan-a-before plan-a)
(def plan-a (price-claim fees pcp-copay ded-left (:lines (claims "<<A>>"))))
(println "deductible left:" ded-left-nightly "->" ded-left)
(print-plan plan-a)
(println "paid:" (round2 (sum-by :paid plan-a-before)) "->" (round2 (sum-by :paid plan-a)))
'''))

s.turn(f("<<A>> now pays <<PAIDA>>: the trigger-point line takes the last <<DED1>> of the deductible. Its pend reason is the modifier 25 on the 99214 next to the 20552 (global 000). The policy and the progress note:"), f(r'''
(doseq [c (:clauses (tool/med-policy {:section "MOD"}))] (println (:id c) (:text c)))
(println)
(println (:text (first (:attachments (claims "<<A>>")))))
'''))

s.turn(f("The note documents the diabetes management (E11.65) separately from the back pain treated with the injections: MOD-25.1 is met, the 99214-25 pays. <<A>> was due 2025-03-12, so two days late; PP-1 interest on <<PAIDA>>:"), f(r'''
(def days-late-a (- 14 12))
(def interest-a (round2 (* (sum-by :paid plan-a) 0.01 (/ days-late-a 30.0))))
(println "interest:" interest-a "-> under 1.00, not paid")
(def adj-a (tool/adj-claim {:claim_no "<<A>>" :member_id "<<DEL2>>" :interest 0.0
                            :note "MOD-25.1 met: E11.65 management documented separately from the TPI"
                            :lines (mapv #(assoc % :action "pay") plan-a)}))
(println (:adjudication_id adj-a) (:claim_no adj-a) (:status adj-a) "paid" (:total_paid adj-a) "member" (:member_responsibility adj-a))
(doseq [l (:lines adj-a)]
  (println "  " (:line_adj_id l) (:code l) "allowed" (:allowed l) "copay" (:copay l) "ded" (:deductible l) "coins" (:coinsurance l) "paid" (:paid l)))
(println "accumulators:" (:accumulators_after adj-a))
'''))

s.turn(f("Now the other Maria Delgado, <<DEL1>> (born 1986-09-23, not 1986-04-11): <<C>>, a 99215 on 2025-02-05, pended because its NPI did not match. Her eligibility:"), f(r'''
(def elig-d1 (tool/elig-check {:member_id "<<DEL1>>" :dos "2025-02-05"}))
(println (:member_id elig-d1) (:name elig-d1) (:dob elig-d1) (:relationship elig-d1) "|" (:group elig-d1) "|" (:plan_id elig-d1)
         (:plan_name elig-d1) "| eligible:" (:eligible_on_dos elig-d1) "| area" (:rating_area elig-d1))
(println "benefits:" (:benefits elig-d1) "| accumulators:" (:accumulators elig-d1))
(println "vs" (:member_id elig-d2) (:name elig-d2) (:dob elig-d2) (:plan_id elig-d2))
'''))

s.turn(f("Eligible, HMO 2000 with the deductible already met. The provider on <<C>>:"), f(r'''
(def prov-c (tool/prov-lookup {:npi "<<BAD>>"}))
(println (:name prov-c) (:locality prov-c))
'''), "tool")

s.prose(f("The directory refuses <<BAD>> outright: it fails the NPI check digit, so no provider can carry it. The claim's TIN <<TIN>> is Rao Family Medicine's, whose NPI <<RAO>> differs from the billed one only in the last digit, so this is almost certainly a keying error by the provider's billing office. Whether I may correct it is a policy question; I will look up the TIN and read the provider identification section before deciding."))

s.turn(f("Looking up the TIN and the provider section:"), f(r'''
(def by-tin (tool/prov-lookup {:tin "<<TIN>>"}))
(doseq [p (:providers by-tin)] (println (:tin by-tin) "->" (:npi p) (:name p) (:rendering p) (:locality p)))
(println "billed NPI on the claim:" (:billing_npi (claims "<<C>>")) "| directory NPI:" (mapv :npi (:providers by-tin)))
(doseq [c (:clauses (tool/med-policy {:section "PRV"}))] (println (:id c) (:text c)))
'''))

s.turn(f("PRV-2: no correcting provider ids, even when the intended one (<<RAO>>) is evident. <<C>> is denied CARC 16 / N290; the provider resubmits."), f(r'''
(def adj-c (tool/adj-claim {:claim_no "<<C>>" :member_id "<<DEL1>>"
                            :note "billing/rendering NPI <<BAD>> fails the NPI check digit; PRV-2, not corrected"
                            :lines [{:line 1 :action "deny" :carc "16" :rarc "N290"}]}))
(println (:adjudication_id adj-c) (:claim_no adj-c) (:status adj-c) (mapv (juxt :line_adj_id :action :carc :rarc) (:lines adj-c)))
'''))

s.turn(f("Her second claim, <<F>> (denosumab J0897 x60 and the injection, 2025-02-06), due 2025-03-09 and five days late. Provider, fee schedule at its locality, and the prior-authorization section:"), f(r'''
(def prov-f (tool/prov-lookup {:npi "<<SUMMIT>>"}))
(println (:npi prov-f) (:name prov-f) "|" (:specialty prov-f) "|" (:network_status prov-f) (:networks prov-f) "| locality" (:locality prov-f) (:locality_name prov-f))
(def fs-f (tool/fee-schedule {:codes ["J0897" "96372"] :locality (:locality prov-f)}))
(doseq [r (:rows fs-f)] (println (:code r) (:allowed r) "per" (:per r) "PA required:" (:pa_required r) "-" (:description r)))
(def fees-f (into {} (map (juxt :code :allowed)) (:rows fs-f)))
(doseq [c (:clauses (tool/med-policy {:section "PA"}))] (println (:id c) (:text c)))
'''))

s.turn("J0897 needs an approved auth. Searching the authorizations by her last name:", r'''
(def auths (tool/pa-lookup {:last_name "DELGADO"}))
(doseq [a (:auths auths)]
  (println (:auth_no a) (:member_id a) (:patient a) (:dob a) (:code a) (:approved_units a) "units, used" (:used_units a)
           (:from a) "-" (:to a) "NPI" (:provider_npi a) (:status a)))
(def auth-f (:auth_no (first (filter #(= "J0897" (:code %)) (:auths auths)))))
(println "auth for J0897:" auth-f)
''')

s.turn(f("Pricing <<F>>: deductible met, so 20% coinsurance on each line; PP-1 interest for 5 days late (due 03-09)."), f(r'''
(def plan-f (price-claim fees-f 0.0 0.0 (:lines (claims "<<F>>"))))
(print-plan plan-f)
(def interest-f (round2 (* (sum-by :paid plan-f) 0.01 (/ 5 30.0))))
(println "interest:" interest-f)
'''))

s.turn(f("Interest <<INTF>> (over 1.00, paid). Finalizing with the auth:"), f(r'''
(def adj-f (tool/adj-claim {:claim_no "<<F>>" :member_id "<<DEL1>>" :interest interest-f
                            :lines (mapv #(cond-> (assoc % :action "pay") (= "J0897" (:code %)) (assoc :auth auth-f)) plan-f)}))
(println (:adjudication_id adj-f) (:status adj-f) (:total_paid adj-f) (:interest adj-f))
'''), "tool")

s.turn(f("<<PA_BAD>> is the other Maria Delgado's auth (<<DEL2>>). The search by last name returned both; this claim's member is <<DEL1>>. Taking her own auth and posting again:"), f(r'''
(def auth-f (:auth_no (first (filter #(and (= "J0897" (:code %)) (= "<<DEL1>>" (:member_id %))) (:auths auths)))))
(println "auth for J0897:" auth-f)
(def adj-f (tool/adj-claim {:claim_no "<<F>>" :member_id "<<DEL1>>" :interest interest-f
                            :lines (mapv #(cond-> (assoc % :action "pay") (= "J0897" (:code %)) (assoc :auth auth-f)) plan-f)}))
(println (:adjudication_id adj-f) (:claim_no adj-f) (:status adj-f) (:adjudicated_at adj-f) "paid" (:total_paid adj-f)
         "interest" (:interest adj-f) "member" (:member_responsibility adj-f))
(doseq [l (:lines adj-f)] (println "  " (:line_adj_id l) (:code l) (:auth l) (:allowed l) (:coinsurance l) (:paid l)))
'''))

s.turn(f("Next <<D>> (Whitfield, 99215 and a knee X-ray on 2025-01-28), suspected duplicate. Eligibility, his claim history and the duplicates section:"), f(r'''
(def elig-w (tool/elig-check {:member_id "<<WHIT>>" :dos "2025-01-28"}))
(println (:member_id elig-w) (:name elig-w) (:plan_id elig-w) "eligible:" (:eligible_on_dos elig-w) (:accumulators elig-w))
(def hist-w (tool/dup-search {:member_id "<<WHIT>>"}))
(doseq [h (:claims hist-w)]
  (println "==" (:claim_no h) (:status h) "received" (:received h) (or (:paid_date h) "") (or (:eft h) "") "NPI" (:billing_npi h) "freq" (:frequency h))
  (doseq [l (:lines h)]
    (println (format "   %d %s %-6s %-4s x%d %8.2f %s" (:line l) (:dos l) (:code l) (str/join "," (:modifiers l)) (:units l) (:billed l)
                     (if (:paid l) (format "paid %.2f" (:paid l)) "")))))
(doseq [c (:clauses (tool/med-policy {:section "DUP"}))] (println (:id c) (:text c)))
'''))

s.turn(f("<<DUP>> (paid 2025-02-20) has the same NPI, date, 99215 and 73562 with the same units: both lines are exact duplicates. <<DUP2>> is a different visit (99214 on 2025-01-14). Denying <<D>> with CARC 18:"), f(r'''
(def adj-d (tool/adj-claim {:claim_no "<<D>>" :member_id "<<WHIT>>"
                            :note "DUP-1: exact duplicate of <<DUP>> (paid 2025-02-20)"
                            :lines [{:line 1 :action "deny" :carc "18"} {:line 2 :action "deny" :carc "18"}]}))
(println (:adjudication_id adj-d) (:claim_no adj-d) (:status adj-d) (mapv (juxt :line_adj_id :code :carc) (:lines adj-d)))
'''))

s.turn(f("<<E>>: Priya Natarajan, a child with other coverage. COB on file, her eligibility, the COB section and the attached primary EOB:"), f(r'''
(def cob-e (tool/cob-lookup {:member_id "<<NAT>>"}))
(doseq [o (:other_coverage cob-e)] (println (:payer o) (:policy o) (:subscriber o) (:order o) "-" (:rule o)))
(println "this plan:" (:this_plan_order cob-e) "| method:" (:method cob-e))
(def elig-e (tool/elig-check {:member_id "<<NAT>>" :dos "2025-02-07"}))
(println (:name elig-e) (:dob elig-e) (:plan_id elig-e) "eligible:" (:eligible_on_dos elig-e) (:benefits elig-e) (:accumulators elig-e))
(doseq [c (:clauses (tool/med-policy {:section "COB"}))] (println (:id c) (:text c)))
(println (:text (first (:attachments (claims "<<E>>")))))
'''))

s.turn("Her deductible is met. Our normal benefit needs the fee schedule at Northgate Pediatrics' locality:", f(r'''
(def prov-e (tool/prov-lookup {:npi "<<NORTHGATE>>"}))
(println (:name prov-e) (:network_status prov-e) "locality" (:locality prov-e) (:locality_name prov-e))
(def fs-e (tool/fee-schedule {:codes ["99213" "87880"] :locality (:locality prov-e)}))
(doseq [r (:rows fs-e)] (println (:code r) (:allowed r) (:description r)))
(def fees-e (into {} (map (juxt :code :allowed)) (:rows fs-e)))
(def normal-e (price-claim fees-e 30.0 0.0 (:lines (claims "<<E>>"))))
(print-plan normal-e)
'''))

s.turn("The primary's figures from the EOB text, line by line, and the secondary payment per COB-1:", f(r'''
(def eob-lines
  (mapv (fn [[_ n code allowed paid]] {:line (parse-long n) :code code :allowed allowed :paid paid})
        (re-seq #"Line (\d)\s+DOS \S+\s+CPT (\w+)\s+Billed \$[\d.]+\s+Allowed \$([\d.]+)\s+Paid \$([\d.]+)"
                (:text (first (:attachments (claims "<<E>>")))))))
(def cob-plan (mapv (fn [n e] (assoc n :resp (- (:allowed e) (:paid e)))) normal-e eob-lines))
(println cob-plan)
'''), "type")

s.turn("The regex groups are strings. Parsing them:", f(r'''
(def eob-lines
  (mapv (fn [[_ n code allowed paid]] {:line (parse-long n) :code code :allowed (parse-double allowed) :paid (parse-double paid)})
        (re-seq #"Line (\d)\s+DOS \S+\s+CPT (\w+)\s+Billed \$[\d.]+\s+Allowed \$([\d.]+)\s+Paid \$([\d.]+)"
                (:text (first (:attachments (claims "<<E>>")))))))
(def cob-plan
  (mapv (fn [n e] (let [resp (round2 (- (:allowed e) (:paid e)))]
                    {:line (:line n) :code (:code n) :allowed (:allowed n) :normal (:paid n) :primary_allowed (:allowed e)
                     :primary_paid (:paid e) :resp resp :pay (min (:paid n) resp)}))
        normal-e eob-lines))
(println (format "%-4s %-6s %8s %8s %8s %8s %8s %8s" "line" "code" "allowed" "normal" "p.allow" "p.paid" "resp" "pay"))
(doseq [c cob-plan]
  (println (format "%-4d %-6s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f" (:line c) (:code c) (:allowed c) (:normal c)
                   (:primary_allowed c) (:primary_paid c) (:resp c) (:pay c))))
(println "secondary pays" (round2 (sum-by :pay cob-plan)))
'''))

s.turn(f("The primary left 23.60 and 4.20, both under our normal benefit: we pay <<PAIDE>>. Due today, on time."), f(r'''
(def adj-e (tool/adj-claim {:claim_no "<<E>>" :member_id "<<NAT>>" :interest 0.0
                            :note "secondary to Evergreen Health Alliance EHA-55120934 (birthday rule); COB-1"
                            :lines (mapv (fn [c] {:line (:line c) :action "pay" :allowed (:allowed c) :paid (:pay c)
                                                  :cob_primary_paid (:primary_paid c)}) cob-plan)}))
(println (:adjudication_id adj-e) (:claim_no adj-e) (:status adj-e) "paid" (:total_paid adj-e))
(doseq [l (:lines adj-e)] (println "  " (:line_adj_id l) (:code l) (:allowed l) "primary paid" (:cob_primary_paid l) "we pay" (:paid l)))
'''))

s.turn(f("Last due claim: <<G>>, Luis Ortega, a 99214 at Rao Family Medicine on 2025-02-04, pended for eligibility."), f(r'''
(def elig-g (tool/elig-check {:member_id "<<ORT>>" :dos "2025-02-04"}))
(println (:member_id elig-g) (:name elig-g) (:plan_id elig-g) (:status elig-g) "| coverage" (:coverage_start elig-g) "-" (:coverage_end elig-g)
         "| eligible on DOS:" (:eligible_on_dos elig-g))
(println "reason:" (:termination_reason elig-g))
(doseq [c (:clauses (tool/med-policy {:section "ELIG"}))] (println (:id c) (:text c)))
'''))

s.turn(f("Coverage ended 2025-01-31 and COBRA was not elected: ELIG-1, CARC 27."), f(r'''
(def adj-g (tool/adj-claim {:claim_no "<<G>>" :member_id "<<ORT>>"
                            :note "coverage ended 2025-01-31; COBRA not elected"
                            :lines [{:line 1 :action "deny" :carc "27"}]}))
(println (:adjudication_id adj-g) (:claim_no adj-g) (:status adj-g) (mapv (juxt :line_adj_id :carc) (:lines adj-g)))
'''))

s.turn("All seven finalized. Turnaround per claim against its due date, and the day's totals:", r'''
(def finalized [adj-a adj-b adj-c adj-d adj-e adj-f adj-g])
(println (format "%-17s %-12s %-10s %-9s %s" "claim" "member" "due" "days late" "decision"))
(doseq [a (sort-by #(:due_by (claims (:claim_no %))) finalized)]
  (let [c (claims (:claim_no a))
        late (max 0 (- 14 (parse-long (subs (:due_by c) 8))))]
    (println (format "%-17s %-12s %-10s %9d %s" (:claim_no a) (:member_id a) (:due_by c) late
                     (str/join "," (distinct (map #(if (= "deny" (:action %)) (str "deny " (:carc %)) "pay") (:lines a))))))))
(println "paid:" (round2 (sum-by :total_paid finalized)) "| interest:" (round2 (sum-by :interest finalized))
         "| member responsibility:" (round2 (sum-by :member_responsibility finalized)))
''')

s.turn("The five claims not yet due, carried over:", r'''
(def carried (filterv #(pos? (compare (:due_by %) (:batch_date data/brief))) (:claims queue)))
(doseq [c carried] (println (:claim_no c) "due" (:due_by c) (:member_id c) (:patient c) (:pend_reason c)))
(println "next due:" (:due_by (first carried)))
''')

SUBMIT_HEAD = f(r'''
(def report
  (tool/clm-batch-submit
    {:batch_id "PEND-PROF-20250314"
     :adjudicator "kmorales"
     :claims [{:claim_no "<<A>>" :adjudication_id "<<ADJA>>" :status "paid" :paid <<PAIDA>> :interest 0.0}
              {:claim_no "<<B>>" :adjudication_id "<<ADJB>>" :status "paid (to deductible)" :paid 0.0 :interest 0.0}
              {:claim_no "<<C>>" :adjudication_id "<<ADJC>>" :status "denied 16/N290" :paid 0.0 :interest 0.0}
''')

s.cut("Submitting the batch report:", SUBMIT_HEAD.lstrip("\n") + f(r'''              {:claim_no "<<D>>" :adjudication_id "<<ADJD>>" :status "denied 18" :paid 0.0 :interest 0.0}
              {:claim_no "<<E>>" :adjudication_id "<<ADJE>>" :status "paid (secondary)" :paid <<PAIDE>>
'''))

s.turn("Cut off; the whole report again:", SUBMIT_HEAD + f(r'''              {:claim_no "<<D>>" :adjudication_id "<<ADJD>>" :status "denied 18" :paid 0.0 :interest 0.0}
              {:claim_no "<<E>>" :adjudication_id "<<ADJE>>" :status "paid (secondary)" :paid <<PAIDE>> :interest 0.0}
              {:claim_no "<<F>>" :adjudication_id "<<ADJF>>" :status "paid" :paid <<PAIDF>> :interest <<INTF>>}
              {:claim_no "<<G>>" :adjudication_id "<<ADJG>>" :status "denied 27" :paid 0.0 :interest 0.0}]
     :carried_over (mapv :claim_no carried)
     :notes "<<C>>: NPI <<BAD>> fails the check digit (Rao Family Medicine is <<RAO>>), denied per PRV-2. <<F>>: auth <<PA_OK>> of <<DEL1>>. <<D>>: duplicate of <<DUP>>."}))
(println (:report_id report) (:status report) (:received_at report) "| finalized" (:claims_finalized report)
         "| paid" (:paid_lines_total report) "| interest" (:interest_total report))
(println "finalized after due date:" (:finalized_after_due_date report) "| carried over:" (:carried_over report) "| next due:" (:next_due report))
'''))

s.turn(f("Accepted as <<REPORT>>. Done:"), f(r'''
(return
  {:report_id "<<REPORT>>"
   :batch_id "PEND-PROF-20250314"
   :finalized [{:claim "<<A>>" :adjudication "<<ADJA>>" :decision "paid" :paid <<PAIDA>> :interest 0.0
                :deductible_applied <<DED1>> :note "MOD-25.1 met; priced at locality 04 (FS-3.1); deductible left <<DED1>> after the same-day lab claim"}
               {:claim "<<B>>" :adjudication "<<ADJB>>" :decision "paid, all to deductible" :paid 0.0 :interest 0.0
                :deductible_applied <<APPLIED_B>>}
               {:claim "<<C>>" :adjudication "<<ADJC>>" :decision "denied CARC 16 / N290" :paid 0.0 :interest 0.0}
               {:claim "<<D>>" :adjudication "<<ADJD>>" :decision "denied CARC 18, duplicate of <<DUP>>" :paid 0.0 :interest 0.0}
               {:claim "<<E>>" :adjudication "<<ADJE>>" :decision "paid as secondary" :paid <<PAIDE>> :interest 0.0}
               {:claim "<<F>>" :adjudication "<<ADJF>>" :decision "paid under <<PA_OK>>" :paid <<PAIDF>> :interest <<INTF>>}
               {:claim "<<G>>" :adjudication "<<ADJG>>" :decision "denied CARC 27, coverage ended 2025-01-31" :paid 0.0 :interest 0.0}]
   :carried_over (mapv :claim_no carried)
   :problems ["<<C>> billed under NPI <<BAD>>, which fails the check digit; Rao Family Medicine (TIN <<TIN>>) is <<RAO>>: not corrected (PRV-2), provider to resubmit"
              "two members named DELGADO, MARIA born 1986: <<DEL2>> and <<DEL1>>; a last-name auth search returns both; <<F>> is covered by <<PA_OK>> only"
              "the member's rating area (02) is not the pricing locality: Rao Family Medicine and Inland Northwest Pathology price at 04"
              "<<A>> and <<B>> share 2025-02-03: the nightly accumulators were stale once <<B>> posted"
              "<<F>> (due 2025-03-09) finalized 5 days late, interest <<INTF>>; <<A>> 2 days late, interest under 1.00"]})
'''), "return")

if __name__ == "__main__":
    s.write(__file__)
