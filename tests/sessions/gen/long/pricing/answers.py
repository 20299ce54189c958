#!/usr/bin/env python3
"""The model answers of the price-reconciliation session (40 turns).
SKUs, rates, prices and tickets the agent reuses are taken from world.py, as
the model takes them from the prints of earlier turns."""
import math
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()

s.turn("First the policy and the shop's own pricing settings.", r'''
(println data/policy)
(def settings (tool/shop-settings))
(println settings)
''')

s.turn("The shop converts with a manually set rate from January. Let me look at the ERP price list's first page.", r'''
(def erp1 (tool/erp-price-list {:catalogue "outdoor" :page 1}))
(println (dissoc erp1 :items))
(println (count (:items erp1)) "items, first:" (first (:items erp1)))
''')

s.turn("Three pages; I'll fetch the other two and keep all items.", r'''
(def erp-items
  (into (:items erp1)
        (mapcat #(:items (tool/erp-price-list {:catalogue "outdoor" :page %})) [2 3])))
(println (count erp-items) "ERP items")
''')

s.turn("Now the shop side, all of it in one call.", r'''
(def shop (tool/shop-products {:category "outdoor" :offset 0 :limit 200}))
''', "tool")

s.turn("At most 50 per call, so three pages.", r'''
(def shop-items
  (vec (mapcat #(:items (tool/shop-products {:category "outdoor" :offset % :limit 50})) [0 50 100])))
(println (count shop-items) "shop items")
(println (take 3 shop-items))
''')

s.turn("Index both sides by SKU to compare them.", r'''
(def erp-by-sku (index-by :sku erp-items))
''', "unbound_symbol")

s.turn("No index-by; a map built with juxt does the same. Then the SKUs on one side only.", r'''
(def erp-by-sku (into {} (map (juxt :sku identity) erp-items)))
(def shop-by-sku (into {} (map (juxt :sku identity) shop-items)))
(def only-shop (sort (remove erp-by-sku (keys shop-by-sku))))
(def only-erp (sort (remove shop-by-sku (keys erp-by-sku))))
(println "only in shop:" only-shop)
(println "only in ERP:" only-erp)
''')

s.turn("Before comparing prices I need today's reference rate.", r'''
(def fx (tool/fx-rate {:from "USD" :to "EUR"}))
(println fx)
''')

s.turn("The ECB rate is %s against the shop's %s. Expected price per SKU and the deviation in percent:" % (w.RATE, w.STALE_RATE), r'''
(defn expected-eur [sku]
  (* (:list_usd (erp-by-sku sku)) (:rate fx)))
(def deviations
  (for [p shop-items
        :when (erp-by-sku (:sku p))]
    {:sku (:sku p)
     :shop (:price_eur p)
     :expected (expected-eur (:sku p))
     :pct (* 100 (/ (- (:price_eur p) (expected-eur (:sku p))) (expected-eur (:sku p))))}))
(println (count deviations))
''', "type")

COMMA = [x for x in w.SHOP if isinstance(x["price_eur"], str)]

s.turn("Some shop prices are strings. Which ones?", r"""
(def string-prices (filter #(string? (:price_eur %)) shop-items))
(println (count string-prices) (map (juxt :sku :price_eur) string-prices))
""")

s.turn("Decimal commas from an import. A parser that also copes with a thousands dot:", r"""
(defn parse-price [p]
  (if (number? p)
    p
    (parse-double (-> p (clojure.string/replace "." "") (clojure.string/replace "," ".")))))
(println (map parse-price ["%s" "1.049,00" 210.45]))
""" % COMMA[0]["price_eur"])

s.turn("Now the deviations again, with parsed prices.", r"""
(defn expected-eur [sku]
  (* (:list_usd (erp-by-sku sku)) (:rate fx)))
(def deviations
  (for [p shop-items
        :when (erp-by-sku (:sku p))
        :let [shop (parse-price (:price_eur p))
              exp (expected-eur (:sku p))]]
    {:sku (:sku p) :shop shop :expected exp :pct (* 100 (/ (- shop exp) exp)) :promo (:promo p)}))
(def off (filter #(> (abs (:pct %)) (:tolerance_pct data/policy)) deviations))
(println (count deviations) "compared," (count off) "off by more than the tolerance")
(println (sort-by val > (frequencies (map #(/ (round (* 10 (:pct %))) 10.0) off))))
""")

s.turn("Almost all are +1.5%%, which is exactly the ratio of the two rates (%s / %s). Checking:" % (w.STALE_RATE, w.RATE), r"""
(println (/ %s %s))
(println (count (filter #(< 1.4 (:pct %%) 1.6) off)) "SKUs between +1.4%% and +1.6%%")
""" % (w.STALE_RATE, w.RATE))

s.turn("So the stale rate explains most of them. What is off even at the shop's own rate of %s?" % w.STALE_RATE, r"""
(defn pct-at [d rate]
  (let [exp (* (:list_usd (erp-by-sku (:sku d))) rate)]
    (* 100 (/ (- (:shop d) exp) exp))))
(def residual (filter #(> (abs (pct-at %% %s)) 1.0) deviations))
(println (count residual) "SKUs are off at the shop's rate too:")
(println (clojure.string/join "\n"
  (map #(format "%%-10s %%9.2f %%9.2f %%8.1f%%%%  %%s" (:sku %%) (:shop %%)
                (* (:list_usd (erp-by-sku (:sku %%))) %s) (pct-at %% %s) (or (:promo %%) ""))
       residual)))
""" % (w.STALE_RATE, w.STALE_RATE, w.STALE_RATE))

RAISED = w.skus_with("erp-raised")
TYPOS = w.skus_with("typo")
EXPIRED = w.skus_with("expired-promo")[0]
NEW = w.skus_with("new-in-erp")


def new_price(sku):
    """As the agent's new-price computes it (Math/round: half up)."""
    return math.floor(w.ERP_BY_SKU[sku]["list_usd"] * w.RATE * 100 + 0.5) / 100.0


s.turn("Seven of those carry SPRING15 and one WINTER10. Which promotions does the shop use at all?", r"""
(println (frequencies (keep :promo shop-items)))
""")

s.turn("Looking up the spring promotion first.", r"""
(println (tool/promo-lookup {:code "SPRNG15"}))
""", "tool")

s.turn("I misspelled it. Both codes:", r"""
(def promos (into {} (map (fn [c] [c (tool/promo-lookup {:code c})]) ["SPRING15" "WINTER10"])))
(doseq [[c p] promos]
  (println c (:discount_pct p) "% from" (:starts p) "to" (:ends p) "active:" (:active p) "skus:" (:skus p)))
""")

s.turn("SPRING15 is running (15%%); WINTER10 ended on 2024-03-01 but %s still has it. "
       "I'll fold active promotions into the expected price and look again at the shop's rate." % EXPIRED, r"""
(def active-discount {"SPRING15" 15})
(defn expected-at [d rate]
  (let [base (* (:list_usd (erp-by-sku (:sku d))) rate)
        disc (get active-discount (:promo d) 0)]
    (* base (- 1 (/ disc 100.0)))))
(defn pct-at [d rate]
  (let [e (expected-at d rate)]
    (* 100 (/ (- (:shop d) e) e))))
(def residual (filter #(> (abs (pct-at %% %s)) 1.0) deviations))
(println (count residual) "left:")
(doseq [d residual]
  (println (:sku d) (:shop d) (format "%%.1f%%%%" (pct-at d %s)) (or (:promo d) "-")))
""" % (w.STALE_RATE, w.STALE_RATE))

s.turn("Four SKUs are 6-8% low without a promotion. The price list is valid from 2024-04-01; did the ERP change their prices?", r"""
(def raised (filter :prev_usd erp-items))
(doseq [e raised]
  (println (:sku e) (:name e) (:supplier e) (:prev_usd e) "->" (:list_usd e)))
""")

s.turn("Exactly those four, plus %s, which the shop already has at the new price. Did the supplier costs move too?" % w.skus_with("erp-raised-synced")[0], r"""
(def raised-costs (mapv #(tool/supplier-cost {:sku %%}) [%s]))
(doseq [c raised-costs]
  (println c))
""" % " ".join('"%s"' % x for x in RAISED))

s.prose("""Here is where the reconciliation stands.

1. Exchange rate: the shop converts with 0.9312 (set by hand on 2024-01-15) instead of the ECB rate 0.9173, which makes 87 SKUs 1.5%% too expensive. One fix in the shop settings covers them.
2. Promotions: 7 SKUs carry SPRING15 (15%%, active until 2024-04-30), which is legitimate. %s still has WINTER10, which ended on 2024-03-01: it needs its full price back.
3. ERP price changes: %s were raised in the Q2 price list after the suppliers raised their costs on 2024-03-28; the shop still sells them at the old price.
4. Typos: %s are off by a factor of 10.
5. Not in the ERP: 6 shop SKUs, and 2 ERP SKUs are missing from the shop.

Next I will check the SKUs that exist on one side only, then file the corrections.""" % (
    EXPIRED, ", ".join(RAISED), ", ".join(TYPOS)))

s.turn("Checking the six shop SKUs that are missing from the price list.", r"""
(def gone (mapv #(tool/erp-item {:sku %}) only-shop))
(doseq [g gone]
  (println (:sku g) (:status g) (:discontinued_on g) (:name g) "last list" (:last_list_usd g)))
""")

s.turn("All six were discontinued on 2024-03-31. And the two ERP items the shop does not list:", r"""
(println (tool/erp-item {:sku "%s"}))
(println (tool/erp-item {:sku "%s"}))
""" % tuple(NEW))

s.turn("Two new products launched on 2024-04-01, not yet listed. Now the typos: shop price against the expected one at the ECB rate.", r"""
(doseq [sku [%s]]
  (let [d (first (filter #(= sku (:sku %%)) deviations))]
    (println sku (:shop d) "expected" (format "%%.2f" (:expected d)))))
""" % " ".join('"%s"' % x for x in TYPOS))

s.turn("I'll compute the corrected prices, rounded to cents, with a helper.", r"""
(defn new-price [sku]
  (/ (round (* 100 (expected-eur sku))) 100.0))
(def typo-fixes (map #(new-price %% %s) [%s]))
(println typo-fixes)
""" % (w.RATE, " ".join('"%s"' % x for x in TYPOS)), "arity")

s.turn("new-price takes only the SKU; the rate comes from fx.", r"""
(defn new-price [sku]
  (/ (round (* 100 (expected-eur sku))) 100.0))
(def typo-fixes (into {} (map (juxt identity new-price) [%s])))
(println typo-fixes)
""" % " ".join('"%s"' % x for x in TYPOS))

import zlib  # noqa: E402


def ticket(*parts):
    return "PRC-%d" % (w.TICKET_START + zlib.crc32(":".join(map(str, parts)).encode()) % 480)


FX_TICKET = ticket("fx", w.RATE, "ECB reference rate %s" % w.RATE_DATE)
WRONG = RAISED[0]
PREV = w.ERP_BY_SKU[WRONG]["prev_usd"]

s.turn("First the exchange rate, once, in the shop settings.", r"""
(def fx-change (tool/set-fx-rate {:rate %s :source "ECB reference rate %s"}))
(println fx-change)
""" % (w.RATE, w.RATE_DATE))

s.turn("Filed as %s. Now the three typo corrections." % FX_TICKET, r"""
(def typo-tickets
  [(tool/propose-price {:sku "%s" :price_eur %s :reason "typo: price entered x10"})
   (tool/propose-price {:sku "%s" :price_eur %s :reason "typo: price entered x10"})
   (tool/propose-price {:sku "%s" :price_eur %s :reason "typo: price entered /10"})])
(doseq [t typo-tickets]
  (println (:sku t) (:ok t) (:ticket t) (:status t)))
""" % (TYPOS[0], new_price(TYPOS[0]), TYPOS[1], new_price(TYPOS[1]), TYPOS[2], new_price(TYPOS[2])))

s.turn("Now the four SKUs whose ERP list price went up on 2024-04-01.", r"""
(def raised-tickets
  (mapv (fn [[sku price]]
          (tool/propose-price {:sku sku :price_eur price :reason "ERP list price raised in %s"}))
        [["%s" %s]
         ["%s" (new-price "%s")]
         ["%s" (new-price "%s")]
         ["%s" (new-price "%s")]]))
(doseq [t raised-tickets]
  (println (:sku t) (:ok t) (or (:ticket t) (:reason t))))
""" % (w.PRICE_LIST, WRONG, "%.2f" % (PREV * w.RATE), RAISED[1], RAISED[1], RAISED[2], RAISED[2], RAISED[3], RAISED[3]))

s.turn("%s was refused: I typed its old list price (%s USD) instead of the new one (%s USD). Again with the new price:" % (
    WRONG, PREV, w.ERP_BY_SKU[WRONG]["list_usd"]), r"""
(def retry (tool/propose-price {:sku "%s" :price_eur (new-price "%s") :reason "ERP list price raised in %s"}))
(println retry)
""" % (WRONG, WRONG, w.PRICE_LIST))

s.turn("Now %s: WINTER10 ended on 2024-03-01, so it goes back to the full price." % EXPIRED, r"""
(def expired-ticket
  (tool/propose-price {:sku "%s" :price_eur (new-price "%s") :reason "promotion WINTER10 ended 2024-03-01"}))
(println expired-ticket)
""" % (EXPIRED, EXPIRED))

s.turn("The five SKUs stored as strings: are they right apart from the format?", r"""
(doseq [d (filter #(string? (:price_eur (shop-by-sku (:sku %)))) deviations)]
  (println (:sku d) (:shop d) (format "%.2f%% at the shop rate" (pct-at d 0.9312))))
""")

s.turn("They only carry the exchange rate error. How much too expensive is the average item today?", r"""
(def overcharge (/ (- (reduce + (map :price_eur shop-items)) (reduce + (map :expected deviations))) (count deviations)))
(println overcharge)
""", "type")

s.turn("price_eur holds strings for those five; I have the parsed prices in deviations.", r"""
(def overcharge
  (/ (reduce + (map #(- (:shop %) (:expected %)) (filter #(< 1.4 (:pct %) 1.6) deviations)))
     (count (filter #(< 1.4 (:pct %) 1.6) deviations))))
(println (format "%.2f EUR per item on the SKUs with only the rate error" overcharge))
""")

REASON_RAISED = "ERP list price raised in %s" % w.PRICE_LIST
REASON_EXPIRED = "promotion WINTER10 ended 2024-03-01"
TYPO_REASONS = ["typo: price entered x10", "typo: price entered x10", "typo: price entered /10"]
TYPO_TICKETS = [ticket(k, new_price(k), r) for k, r in zip(TYPOS, TYPO_REASONS)]
RAISED_TICKETS = [ticket(k, new_price(k), REASON_RAISED) for k in RAISED]
EXPIRED_TICKET = ticket(EXPIRED, new_price(EXPIRED), REASON_EXPIRED)
PROMO = w.skus_with("promo")
GONE = w.skus_with("discontinued")
COMMA_SKUS = [x["sku"] for x in COMMA]


def q(xs):
    return " ".join('"%s"' % x for x in xs)


s.cut("Everything is filed. The findings by cause, with the evidence for each:", r"""
(def findings
  {:exchange-rate {:cause "shop converts with 0.9312 (set by hand 2024-01-15), ECB rate is 0.9173"
                   :skus (map :sku (filter #(< 1.4 (:pct %%) 1.6) off))
                   :ticket "%s"}
   :promotion-active {:code "SPRING15" :discount-pct 15 :until "2024-04-30"
                      :skus [%s]
                      :note "legitimate, no action"}
   :promotion-expired {:code "WINTER10" :ended "2024-03-01" :skus ["%s"] :tickets ["%s"]}
   :erp-price-change {:price-list "%s" :skus [%s]
                      :tickets [%s]
                      :evidence (map (fn [c] (str (:sku c) " cost " (:cost_usd c) " USD since " (:changed_at c)))
                                     raised-costs)}
   :typo {:skus [%s] :tickets [%s]}
   :not-in-erp {:skus [%s] :status (distinct (map :status gone""" % (
    FX_TICKET, q(PROMO), EXPIRED, EXPIRED_TICKET, w.PRICE_LIST, q(RAISED), q(RAISED_TICKETS), q(TYPOS), q(TYPO_TICKETS), q(GONE)))

s.turn("The answer was cut off. The same map, written more compactly:", r"""
(def findings
  {:exchange-rate {:from %s :to %s :skus 88 :ticket "%s"}
   :promotion-active {:code "SPRING15" :skus [%s]}
   :promotion-expired {:code "WINTER10" :skus ["%s"] :tickets ["%s"]}
   :erp-price-change {:price-list "%s" :skus [%s] :tickets [%s]}
   :typo {:skus [%s] :tickets [%s]}
   :discontinued {:skus [%s]}
   :missing-in-shop {:skus [%s]}
   :price-as-string {:skus [%s]}})
(println (count findings) "causes")
""" % (w.STALE_RATE, w.RATE, FX_TICKET, q(PROMO), EXPIRED, EXPIRED_TICKET, w.PRICE_LIST, q(RAISED), q(RAISED_TICKETS),
       q(TYPOS), q(TYPO_TICKETS), q(GONE), q(NEW), q(COMMA_SKUS)))

s.turn("Does every SKU off by more than 1% have a cause in the findings?", r"""
(def explained
  (set (mapcat :skus (vals (dissoc findings :exchange-rate)))))
(def unexplained (remove #(or (explained (:sku %)) (< 1.4 (:pct %) 1.6)) off))
(println (count explained) "explained by name," (count unexplained) "unexplained:" (map :sku unexplained))
(println "rate only:" (count (filter #(< 1.4 (:pct %) 1.6) off)))
""")

s.turn("Nothing is unexplained. I typed 88 for the rate group by hand, but the data says 87 (%s, already at its new list price, is one of them). I'll take the count from the data." % w.skus_with("erp-raised-synced")[0], r"""
(def findings
  (assoc findings :exchange-rate
         {:from %s :set-on "2024-01-15" :to %s :ecb-date "%s"
          :skus (count (filter #(< 1.4 (:pct %%) 1.6) off))
          :ticket "%s"}))
(println (:exchange-rate findings))
""" % (w.STALE_RATE, w.RATE, w.RATE_DATE, FX_TICKET))

s.turn("A last look at the tickets filed, per cause.", r"""
(doseq [[cause f] findings]
  (println cause (or (:tickets f) (:ticket f) "-") (if (number? (:skus f)) (:skus f) (count (:skus f))) "SKUs"))
""")

s.turn("Every cause has its SKUs and the corrections are filed.", r"""
(return findings)
""", "return")

if __name__ == "__main__":
    s.write(__file__)
