#!/usr/bin/env python3
"""The model answers of the budget-revisions session (38 turns).
The agent works from the preliminary close, then corrects itself three
times and reuses the corrected values: a cost-centre id it copied with two
digits swapped (`scope-ccs`, `budgets`, `ledgers`), the revisions posted
after the close (`variances`, `cc-totals`, `flagged`), and the GBP rate
(`gbp-eur`: closing, then the average the scope asks for). Figures, ids and
names are taken from world.py where the model takes them from earlier
prints."""
import math
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()
CLOSING = w.FX[("GBP", "EUR")]["closing"][0]
AVERAGE = w.FX[("GBP", "EUR")]["average"][0]
SCOPE = ["CC-4410", "CC-4412", "CC-4471", "CC-4530", "CC-4602"]
MISREAD = ["CC-4410", "CC-4412", "CC-4417", "CC-4530", "CC-4602"]


def round2(x):
    """As the agent's round2 computes it (round: half up)."""
    return math.floor(x * 100 + 0.5) / 100.0


def final_variances():
    """The variance lines the agent computes after the corrections (turn 24)."""
    out = []
    for cc in SCOPE:
        rate = AVERAGE if w.CC_BY_ID[cc]["currency"] == "GBP" else 1.0
        for line in w.actual_lines(cc, True):
            b = round2(rate * (w.LINES[cc][line["account"]][0] or 0))
            a = round2(rate * line["amount"])
            out.append({"cc": cc, "account": line["account"], "name": line["name"], "budget": b, "actual": a,
                        "variance": round2(a - b), "pct": 100 * (a - b) / b if b > 0 else None})
    return out


V = final_variances()
FLAGGED = [v for v in V if abs(v["variance"]) > 25000 and (v["pct"] is None or abs(v["pct"]) > 5.0)]
FL = {"%s/%s" % (v["cc"], v["account"]): v for v in FLAGGED}
DIV_BUDGET = round2(sum(v["budget"] for v in V))
DIV_ACTUAL = round2(sum(v["actual"] for v in V))
REV = {r["rev_id"]: r for r in w.REVISIONS}


def top_posting(cc, account):
    return max(w.postings(cc, account), key=lambda p: p["amount"])


def fig(key):
    v = FL[key]
    return "%+.2f EUR (%+.1f%%)" % (v["variance"], v["pct"])


s.turn("The scope first, then the division's cost centres.", r'''
(println data/scope)
(def ccs (tool/cost-centres {:division "Operations"}))
(doseq [c ccs]
  (println (:cc_id c) (:name c) "|" (:owner c) "|" (:currency c) (:entity c)))
''')

s.turn("Five of the eight are in scope: Logistics Hamburg CC-4410, Logistics Rotterdam CC-4412, Field Marketing "
       "CC-4417, IT Operations CC-4530 and Customer Service UK CC-4602, which books in GBP. Their budgets:", r'''
(def scope-ccs ["%s"])
(def budgets (into {} (map (fn [cc] [cc (tool/budget {:cc_id cc :quarter "2024-Q3"})]) scope-ccs)))
(doseq [cc scope-ccs]
  (let [b (budgets cc)]
    (println cc (:currency b) (:version b) (count (:lines b)) "lines, total" (sum (map :amount (:lines b))))))
''' % '" "'.join(MISREAD))

s.turn("Now the actuals from the ledger.", r'''
(def ledgers (into {} (map (fn [cc] [cc (tool/ledger {:cc_id cc :period "Q3 2024"})]) scope-ccs)))
''', "tool")

s.turn("The period is written 2024-Q3.", r'''
(def ledgers (into {} (map (fn [cc] [cc (tool/ledger {:cc_id cc :period "2024-Q3"})]) scope-ccs)))
(doseq [cc scope-ccs]
  (let [l (ledgers cc)]
    (println cc (:status l) "as of" (:as_of l) (:currency l) (:total l))))
''')

s.turn("Preliminary figures as of %s. CC-4602 needs a GBP rate:" % w.PRELIM_AS_OF, r'''
(def fx (tool/treasury-rate {:from "GBP" :to "EUR" :period "2024-Q3"}))
(println fx)
(def gbp-eur (:rate fx))
''')

s.turn("%s. Budget against actual per account, in EUR:" % CLOSING, r'''
(defn to-eur [cc amount]
  (if (= "GBP" (:currency (ledgers cc))) (* amount gbp-eur) amount))
(defn line-variances [cc]
  (let [budget-by-account (into {} (map (juxt :account :amount) (:lines (budgets cc))))]
    (for [l (:lines (ledgers cc))]
      (let [b (to-eur cc (budget-by-account (:account l)))
            a (to-eur cc (:amount l))]
        {:cc cc :account (:account l) :name (:name l) :group (:group l)
         :budget b :actual a :variance (- a b) :pct (* 100 (/ (- a b) b))}))))
(def variances (mapcat line-variances scope-ccs))
(println (count variances) "lines")
''', "type")

s.turn("Some ledger account has no budget line, so the budget came back nil. Taking it as 0, with no percentage:", r'''
(defn to-eur [cc amount]
  (if (= "GBP" (:currency (ledgers cc))) (* amount gbp-eur) amount))
(defn line-variances [cc]
  (let [budget-by-account (into {} (map (juxt :account :amount) (:lines (budgets cc))))]
    (for [l (:lines (ledgers cc))]
      (let [b (to-eur cc (get budget-by-account (:account l) 0))
            a (to-eur cc (:amount l))]
        {:cc cc :account (:account l) :name (:name l) :group (:group l)
         :budget b :actual a :variance (- a b) :pct (when (pos? b) (* 100 (/ (- a b) b)))}))))
(def variances (vec (mapcat line-variances scope-ccs)))
(println (count variances) "lines," (count (remove :pct variances)) "without a budget:"
         (map (juxt :cc :account :name) (remove :pct variances)))
''')

TABLE = r'''(doseq [v variances]
  (println (format "%-8s %s %-22s %12.2f %12.2f %11.2f %7s" (:cc v) (:account v) (:name v)
                   (:budget v) (:actual v) (:variance v)
                   (if (:pct v) (format "%+.1f%%" (:pct v)) "n/a"))))'''

s.turn("Travel on IT Operations was never budgeted. The whole table:", TABLE)

s.turn("Totals per cost centre:", r'''
(def cc-totals
  (into {} (for [[cc vs] (group-by :cc variances)]
             [cc {:budget (sum (map :budget vs)) :actual (sum (map :actual vs))}])))
(doseq [cc scope-ccs]
  (let [t (cc-totals cc)]
    (println cc (format "budget %.2f  actual %.2f  variance %+.2f" (:budget t) (:actual t) (- (:actual t) (:budget t))))))
''')

FLAG = r'''(def flagged (filterv over? variances))
(doseq [v flagged]
  (println (:cc v) (:account v) (:name v)
           (format "%+.2f EUR (%s)" (:variance v) (if (:pct v) (format "%+.1f%%" (:pct v)) "unbudgeted"))))'''

s.turn("The lines over both thresholds of the scope (5% and 25000 EUR; unbudgeted: 25000 EUR):", r'''
(defn over? [v]
  (and (> (abs (:variance v)) 25000)
       (or (nil? (:pct v)) (> (abs (:pct v)) 5.0))))
''' + FLAG)

s.turn("Four lines. Freight in Hamburg is the largest; the postings behind it:", r'''
(def freight (tool/postings {:cc_id "CC-4410" :account "6400" :period "2024-Q3"}))
(println (:total freight) "postings, the largest:")
(doseq [p (take 5 (sort-by :amount > (:postings freight)))]
  (println (:posting_id p) (:date p) (:vendor p) (:amount p) "-" (:text p)))
''')

s.turn("And per carrier:", r'''
(doseq [[vendor ps] (sort-by #(- (sum (map :amount (val %)))) (group-by :vendor (:postings freight)))]
  (println (format "%-14s %2d postings %12.2f" vendor (count ps) (sum (map :amount ps)))))
''')

s.turn("Kuehne+Nagel's rate increase stands out. Now cloud hosting and licences on CC-4530:", r'''
(def cloud (tool/postings {:cc_id "CC-4530" :account "6810" :period "2024-Q3"}))
(def licences (tool/postings {:cc_id "CC-4530" :account "6820" :period "2024-Q3"}))
(doseq [p (concat (take 3 (sort-by :amount > (:postings cloud))) (take 3 (sort-by :amount > (:postings licences))))]
  (println (:posting_id p) (:date p) (:vendor p) (:amount p) "-" (:text p)))
''')

s.turn("A reserved-instance renewal billed twice, and a Datadog true-up. The energy line on CC-4417:", r'''
(def energy (tool/postings {:cc_id "CC-4417" :account "6430" :period "2024-Q3"}))
(doseq [p (take 3 (sort-by :amount > (:postings energy)))]
  (println (:posting_id p) (:date p) (:vendor p) (:amount p) "-" (:text p)))
(println "by month:" (update-vals (group-by #(subs (:date %) 0 7) (:postings energy)) count))
''')

P_FREIGHT = top_posting("CC-4410", "6400")
P_CLOUD = top_posting("CC-4530", "6810")
P_LIC = top_posting("CC-4530", "6820")

s.prose("""Preliminary picture (close of %s, GBP at %s):

- CC-4410 freight +55060.40 EUR (+8.6%%): Kuehne+Nagel's Q3 rate increase (%s).
- CC-4530 cloud hosting +52340.75 EUR (+24.9%%): the July reserved-instance renewal was billed twice (%s).
- CC-4530 licences +28905.00 EUR (+19.5%%): Datadog true-up (%s).
- CC-4417 energy +29880.25 EUR (+46.7%%): higher energy bills (Stadtwerke Muenchen).

Field Marketing's energy line is odd, but the figures are what the ledger says. The scope asks for final figures, so next I check the revisions posted since the preliminary close.""" % (
    w.PRELIM_AS_OF, CLOSING, P_FREIGHT["posting_id"], P_CLOUD["posting_id"], P_LIC["posting_id"]))

s.turn("The revisions since the close:", r'''
(def revs (tool/revisions {:period "2024-Q3"}))
(doseq [r revs]
  (println (:rev_id r) (:cc_id r) (:account r) (:old_amount r) "->" (:new_amount r) (:currency r) "|" (:reason r)))
''')

s.turn("REV-7738 and REV-7739 move a trade-fair cost within CC-4471, which the cost-centre list says is Field "
       "Marketing. But I have CC-4417 in scope. What did I fetch?", r'''
(doseq [cc scope-ccs]
  (println cc (:name (ledgers cc))))
''')

s.turn("CC-4417 is Facilities Munich: I swapped two digits when I copied Field Marketing's id. Fixing the scope "
       "and fetching CC-4471:", r'''
(def scope-ccs ["%s"])
(def budgets (-> budgets (dissoc "CC-4417") (assoc "CC-4471" (tool/budget {:cc_id "CC-4471" :quarter "2024-Q3"}))))
(def ledgers (-> ledgers (dissoc "CC-4417") (assoc "CC-4471" (tool/ledger {:cc_id "CC-4471" :period "2024-Q3"}))))
(println (map #(:name (ledgers %%)) scope-ccs))
(println "CC-4471 budget" (sum (map :amount (:lines (budgets "CC-4471")))) "actual" (:total (ledgers "CC-4471")))
''' % '" "'.join(SCOPE))

APPLY = r'''(defn apply-revisions [ledger]
  (let [mine (filter #(= (:cc_id ledger) (:cc_id %)) revs)
        delta (update-vals (group-by :account mine) #(sum (map :delta %)))]
    (assoc ledger
           :status "final (own)"
           :lines (mapv (fn [l] (update l :amount #(round2 (+ % (get delta (:account l) 0))))) (:lines ledger)))))
(def final-ledgers (update-vals ledgers apply-revisions))'''

s.turn("Now the revisions applied to the preliminary ledgers, rounded to cents.", APPLY + r'''
(println (update-vals final-ledgers #(sum (map :amount (:lines %)))))
''', "unbound_symbol")

s.turn("round2 was never defined.", r'''
(defn round2 [x] (/ (round (* 100 x)) 100.0))
''' + APPLY + r'''
(doseq [cc scope-ccs]
  (println cc (:name (final-ledgers cc)) "preliminary" (:total (ledgers cc))
           "final" (round2 (sum (map :amount (:lines (final-ledgers cc)))))))
''')

s.turn("Does the ledger's own final close agree? Checking Hamburg and the GBP centre:", r'''
(def check (mapv #(tool/ledger {:cc_id % :period "2024-Q3" :status "final"}) ["CC-4410" "CC-4602"]))
(doseq [l check]
  (println (:cc_id l) (:status l) "as of" (:as_of l) (:total l)
           "mine:" (round2 (sum (map :amount (:lines (final-ledgers (:cc_id l))))))))
''')

s.turn("Both agree. Re-reading the scope before recomputing: it asks for the treasury's Q3 average rate, and I "
       "took the closing rate (%s)." % CLOSING, r'''
(def fx-avg (tool/treasury-rate {:from "GBP" :to "EUR" :period "2024-Q3" :kind "average"}))
(println fx-avg)
(def gbp-eur (:rate fx-avg))
(println "GBP->EUR" gbp-eur "instead of %s")
''' % CLOSING)

s.turn("Everything again from the final ledgers at %s, rounded to cents:" % AVERAGE, r'''
(defn line-variances [cc]
  (let [budget-by-account (into {} (map (juxt :account :amount) (:lines (budgets cc))))
        rate (if (= "GBP" (:currency (budgets cc))) gbp-eur 1.0)]
    (for [l (:lines (final-ledgers cc))]
      (let [b (round2 (* rate (get budget-by-account (:account l) 0)))
            a (round2 (* rate (:amount l)))]
        {:cc cc :account (:account l) :name (:name l) :group (:group l)
         :budget b :actual a :variance (round2 (- a b)) :pct (when (pos? b) (* 100 (/ (- a b) b)))}))))
(def variances (vec (mapcat line-variances scope-ccs)))
''' + TABLE)

s.turn("Totals per cost centre, final:", r'''
(def cc-totals
  (into {} (for [[cc vs] (group-by :cc variances)]
             [cc {:budget (round2 (sum (map :budget vs))) :actual (round2 (sum (map :actual vs)))}])))
(doseq [cc scope-ccs]
  (let [t (cc-totals cc)]
    (println cc (:name (final-ledgers cc))
             (format "budget %.2f  actual %.2f  variance %+.2f" (:budget t) (:actual t) (- (:actual t) (:budget t))))))
''')

s.turn("And the flagged lines, final:", FLAG)

# the AWS renewal and its credit note, as the agent read them in turns 13 and 16
assert P_CLOUD["posting_id"] == "JE-4530-6828" and REV["REV-7736"]["delta"] == -18400.0
s.turn("Seven now. Is the cloud overspend still the double billing? The AWS renewal JE-4530-6828 against the credit "
       "note REV-7736:", r'''
(def aws (first (filter #(= "JE-4530-6828" (:posting_id %)) (:postings cloud))))
(println (:posting_id aws) (:vendor aws) (:amount aws) "credited" 18400.0 "-> not credited"
         (round2 (- (:amount aws) 18400.0)))
''')

s.turn("Only part of the duplicate renewal was credited. Rotterdam freight crossed the threshold with REV-7733; its postings:", r'''
(def rdam-freight (tool/postings {:cc_id "CC-4412" :account "6400" :period "2024-Q3"}))
(doseq [[vendor ps] (sort-by #(- (sum (map :amount (val %)))) (group-by :vendor (:postings rdam-freight)))]
  (println (format "%-14s %2d postings %12.2f" vendor (count ps) (sum (map :amount ps)))))
''')

s.turn("Field Marketing: events over, advertising under. The largest postings of each:", r'''
(def events (tool/postings {:cc_id "CC-4471" :account "6200" :period "2024-Q3"}))
(def ads (tool/postings {:cc_id "CC-4471" :account "6210" :period "2024-Q3"}))
(doseq [p (take 3 (sort-by :amount > (:postings events)))]
  (println (:posting_id p) (:date p) (:vendor p) (:amount p) "-" (:text p)))
(println "advertising by month:"
         (update-vals (group-by #(subs (:date %) 0 7) (:postings ads)) #(round2 (sum (map :amount %)))))
''')

s.turn("Lines over 5% but under 25000 EUR are not flagged; for the record:", r'''
(doseq [v (remove over? (filter #(and (:pct %) (> (abs (:pct %)) 5.0)) variances))]
  (println (:cc v) (:account v) (:name v) (format "%+.2f EUR (%+.1f%%)" (:variance v) (:pct v))))
''')

s.turn("The division as a whole:", r'''
(def division {:budget (round2 (sum (map :budget variances))) :actual (round2 (sum (map :actual variances)))})
(println division
         (format "variance %+.2f EUR (%+.2f%%)" (- (:actual division) (:budget division))
                 (* 100 (/ (- (:actual division) (:budget division)) (:budget division)))))
''')

P_EVENTS = top_posting("CC-4471", "6200")
COMMENTS = [
    ("CC-4410/6400", "%s: Kuehne+Nagel Q3 rate increase (%s) and the September carrier accrual REV-7731" % (
        fig("CC-4410/6400"), P_FREIGHT["posting_id"])),
    ("CC-4412/6400", "%s: Rotterdam port handling surcharge accrued after the close (REV-7733)" % fig("CC-4412/6400")),
    ("CC-4471/6200", "%s: transport logistic 2024 booth (%s), net of the branding moved to advertising by REV-7738" % (
        fig("CC-4471/6200"), P_EVENTS["posting_id"])),
    ("CC-4530/6810", "%s: July reserved-instance renewal billed twice (%s), partly credited by REV-7736" % (
        fig("CC-4530/6810"), P_CLOUD["posting_id"])),
    ("CC-4530/6820", "%s: Datadog annual true-up for hosts over commitment (%s)" % (
        fig("CC-4530/6820"), P_LIC["posting_id"])),
    ("CC-4602/6010", "%s at the Q3 average rate %s: Q3 team bonus accrued by REV-7742" % (
        fig("CC-4602/6010"), AVERAGE)),
]
ADS_COMMENT = "%s: campaigns of September postponed to Q4; includes the booth branding moved in by REV-7739" % (
    fig("CC-4471/6210"))


def clj_map(pairs, indent):
    return ("\n" + " " * indent).join('"%s" "%s"' % p for p in pairs)


s.turn("A comment per flagged overspend, from the postings and revisions I read:", r'''
(def comments
  {%s})
(println (count comments) "comments:" (keys comments))
''' % clj_map(COMMENTS, 3))

s.turn("Submitting the report.", r'''
(def submitted (tool/variance-submit {:quarter "2024-Q3" :division "Operations" :lines variances
                                      :comments comments :fx {"GBP" %s}}))
(println submitted)
''' % AVERAGE, "tool")

s.turn("The lines need the tool's keys.", r'''
(def report-lines
  (mapv (fn [v] {:cc_id (:cc v) :account (:account v) :budget_eur (:budget v) :actual_eur (:actual v)}) variances))
(def submitted (tool/variance-submit {:quarter "2024-Q3" :division "Operations" :lines report-lines
                                      :comments comments :fx {"GBP" %s}}))
(println submitted)
''' % AVERAGE)

s.cut("An underspend needs a comment too. Adding it, and a summary of all the comments with their figures, before submitting again:", r'''
(def comments (assoc comments "CC-4471/6210" "%s"))
(doseq [[k c] (sort comments)]
  (let [[cc account] (clojure.string/split k #"/")
        v (first (filter #(and (= cc (:cc %%)) (= account (:account %%))) variances))]
    (println k (format "%%+.2f" (:variance v)) (subs c 0 (min 60 (count c''' % ADS_COMMENT)

s.turn("Cut off. Just the comment and the submission:", r'''
(def comments (assoc comments "CC-4471/6210" "%s"))
(def submitted (tool/variance-submit {:quarter "2024-Q3" :division "Operations" :lines report-lines
                                      :comments comments :fx {"GBP" %s}}))
(println submitted)
''' % (ADS_COMMENT, AVERAGE))

REPORT_ID = None  # read from the session by the agent; computed below as the tool does
import zlib  # noqa: E402
key = ":".join("%s/%s=%.2f" % (v["cc"], v["account"], v["actual"]) for v in V)
REPORT_ID = "VR-2024Q3-OPS-%04d" % (zlib.crc32(key.encode()) % 10000)
OWNERS = {c["cc_id"]: c["owner"] for c in w.COST_CENTRES}

s.turn("Submitted as %s. The flagged lines for the answer, with each owner:" % REPORT_ID, r'''
(defn flagged-row [v owners]
  {:line (str (:cc v) "/" (:account v)) :owner (owners (:cc v)) :variance-eur (:variance v)})
(println (map flagged-row flagged))
''', "arity")

s.turn("flagged-row takes the owners map as well; they are in the cost-centre list.", r'''
(defn flagged-row [v owners]
  {:line (str (:cc v) "/" (:account v)) :owner (owners (:cc v)) :variance-eur (:variance v)})
(def owners (into {} (map (juxt :cc_id :owner) ccs)))
(def flagged-rows (mapv #(flagged-row % owners) flagged))
(println (count flagged-rows) "rows," (count (filter :owner flagged-rows)) "with an owner")
''')

CC_VARIANCES = " ".join('"%s" %s' % (cc, round2(sum(v["actual"] for v in V if v["cc"] == cc)
                                                  - sum(v["budget"] for v in V if v["cc"] == cc))) for cc in SCOPE)
FLAGGED_LITS = "\n".join('   {:line "%s/%s" :owner "%s" :variance-eur %s :pct %s}' % (
    v["cc"], v["account"], OWNERS[v["cc"]], v["variance"], "%.1f" % v["pct"]) for v in FLAGGED)

s.turn("The report for the answer.", r'''
(def report
  {:report-id "%s"
   :quarter "2024-Q3"
   :budget-version "%s"
   :preliminary-close "%s"
   :final-as-of "%s"
   :revisions ["%s"]
   :fx {"GBP" %s :kind "average"}
   :cost-centres ["%s"]
   :division {:budget-eur %s :actual-eur %s :variance-eur %s}
   :variance-by-cost-centre {%s}
   :flagged [
%s]
   :comments comments})
(println (:division report) (count (:flagged report)) "flagged")
''' % (REPORT_ID, w.BUDGET_VERSION, w.PRELIM_AS_OF, w.FINAL_AS_OF,
       '" "'.join(r["rev_id"] for r in w.REVISIONS if r["cc_id"] in SCOPE), AVERAGE, '" "'.join(SCOPE), DIV_BUDGET, DIV_ACTUAL,
       round2(DIV_ACTUAL - DIV_BUDGET), CC_VARIANCES, FLAGGED_LITS))

s.turn("Submitted and complete.", r'''
(return report)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
