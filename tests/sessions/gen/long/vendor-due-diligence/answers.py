#!/usr/bin/env python3
"""The model answers of the vendor-due-diligence session (41 turns).
Registry ids, company and people's names, contract, article and review ids
and scores the agent reuses are taken from world.py, as the model takes
them from the prints of earlier turns. The registry record of Nordlicht
Scanning GmbH is corrected mid-session (the KYC cache named Thomas Brenner
as managing director; the live extract, after the correction filing, names
Tobias Brenner): `records`, `screening`, `risks` and `scores` are redefined
and only the new values are written as literals afterwards."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()


def q(xs):
    return " ".join('"%s"' % x for x in xs)


# --- the ids and names the agent copies from earlier prints ------------------------

NORDLICHT, SCAN, KORVELL, KORVELL_DE, VANTARO, VANTARO_GROUP = (
    "DE-HRB-118204", "DE-HRB-104577", "GB-09381127", "DE-HRB-152201", "SE-556812-4471", "SE-559102-3385")
LEGAL = {"Nordlicht Scanning": w.COMPANIES[NORDLICHT]["name"], "Korvell Data Systems": w.COMPANIES[KORVELL]["name"],
         "Vantaro Devices": w.COMPANIES[VANTARO]["name"]}
EXCL = w.EXCLUSIONS["Thomas Brenner"]["entry"]

BIDS = {"Nordlicht Scanning": (689.0, 41000, 6, 4.4, 1.0), "Korvell Data Systems": (642.5, 46500, 8, 3.1, 0.0),
        "Vantaro Devices": (598.0, 52000, 5, 3.8, 0.5)}
COST = {v: b[0] * 420 + 3 * b[1] for v, b in BIDS.items()}


def score(v, mediums, highs):
    price, _, weeks, rating, history = BIDS[v]
    return (50 * min(COST.values()) / COST[v] + 20 * rating / 5.0 + 10 * 5 / weeks + 20 * history
            - 10 * mediums - 30 * highs)


SCORES_OLD = {"Nordlicht Scanning": score("Nordlicht Scanning", 0, 1), "Korvell Data Systems": score("Korvell Data Systems", 1, 1),
              "Vantaro Devices": score("Vantaro Devices", 1, 1)}
SCORES = dict(SCORES_OLD, **{"Nordlicht Scanning": score("Nordlicht Scanning", 0, 0)})


def one(x):
    return "%.1f" % x


# --- the session -------------------------------------------------------------------

s.turn("First the RFQ and the three bids.", r'''
(def rfq data/rfq)
(println (:rfq rfq) "-" (:item rfq) "x" (:quantity rfq) "- decide by" (:decision_by rfq))
(doseq [b (:bids rfq)]
  (println (:bid_id b) (:vendor b) (:model b) (:unit_price_eur b) "EUR/unit" (:maintenance_eur_per_year b) "EUR/yr"
           (:delivery_weeks b) "weeks, contact" (:contact b)))
''')

s.turn("The bids name trade names only. Looking the first vendor up in the company registry:", r'''
(def hits-nordlicht (tool/registry-search {:name "Nordlicht Scanning"}))
(doseq [h hits-nordlicht]
  (println (:registry_id h) "|" (:name h) "|" (:status h) "|" (:city h) (:country h)))
''')

s.turn("Four similar names: the bidder is the Hamburg GmbH; Nordlicht Scan GmbH in Kiel is dissolved. Now Korvell:", r'''
(def hits-korvell (tool/registry-search {:name "Korvell Data Systems"}))
(doseq [h hits-korvell]
  (println (:registry_id h) "|" (:name h) "|" (:status h) "|" (:city h) (:country h)))
''')

s.turn("The bid comes from the UK Ltd (country GB); it has a German GmbH and a holding. Korvel Data Ltd is another, dissolved company. Vantaro:", r'''
(def hits-vantaro (tool/registry-search {:name "Vantaro Devices"}))
(doseq [h hits-vantaro]
  (println (:registry_id h) "|" (:name h) "|" (:status h) "|" (:city h) (:country h)))
''')

s.turn("The bidders' registry ids, and their registry records:", r'''
(def bidder-ids {"Nordlicht Scanning" "%s"
                 "Korvell Data Systems" "%s"
                 "Vantaro Devices" "%s"})
(def records (into {} (map (fn [[v id]] [v (tool/registry-record {:registry_id id})]) bidder-ids)))
(doseq [[v r] records]
  (println v "->" (:name r) (:legal_form r) (:status r) "founded" (:founded r) "employees" (:employees r)
           "revenue" (:revenue_eur r) "| source" (:source r) (:as_of r))
  (doseq [d (:directors r)]
    (println "   " (:role d) (:name d) "since" (:since d) "born" (:born d))))
''' % (NORDLICHT, KORVELL, VANTARO))

s.turn("All three are active. Who owns them, and what do they own?", r'''
(doseq [[v r] records]
  (println v "owners:" (map (juxt :name :registry_id :share_pct) (:owners r)))
  (println v "subsidiaries:" (map (juxt :name :registry_id) (:subsidiaries r))))
''')

s.turn("Nordlicht Scanning's managing director is Thomas Brenner. The dissolved Nordlicht Scan GmbH (%s) has a similar name; who ran it?" % SCAN, r'''
(def scan (tool/registry-record {:registry_id "%s"}))
(println (:name scan) (:status scan) "founded" (:founded scan) "dissolved" (:dissolved scan))
(println "insolvency:" (:insolvency scan))
(println "directors:" (map (juxt :name :role :since :until :born) (:directors scan)))
(println "owners:" (map (juxt :name :share_pct) (:owners scan)))
''' % SCAN)

s.turn("Thomas Brenner ran the insolvent Nordlicht Scan GmbH until 2019 and is listed as Nordlicht Scanning's director since 2019-09-01. Screening every director and owner of the bidders:", r'''
(def people
  (distinct (concat (mapcat #(map :name (:directors %)) (vals records))
                    (mapcat #(map :name (:owners %)) (vals records)))))
(def screening (tool/sanctions-screen {:names (vec people)}))
(doseq [x screening]
  (println (:name x) "->" (:status x) (or (:list x) "") (or (:entry x) "") (or (:reason x) "") (or (:until x) "")))
''')

s.turn("A potential match: Thomas Brenner on the EU exclusion list (%s, fraudulent bankruptcy of Nordlicht Scan GmbH, until 2025-03-31). That is a high risk for Nordlicht Scanning. Keeping the risks per vendor:" % EXCL, r'''
(def risks
  {"Nordlicht Scanning"
   [{:level "high" :what "managing director on the EU exclusion list (insolvency of Nordlicht Scan GmbH)"
     :person "Thomas Brenner" :sources ["%s" "%s"]}]})
(println risks)
''' % (SCAN, EXCL))

s.turn("Now our own history with the vendors: contracts with Nordlicht first.", r'''
(def ct-nordlicht (tool/contract-search {:counterparty "Nordlicht"}))
(doseq [c ct-nordlicht]
  (println (:contract_id c) "|" (:title c) "|" (:counterparty c) "|" (:status c) (:start c) "-" (:end c) (:value_eur c) "EUR"))
''')

s.turn("CT-2016-0092 was with Nordlicht Scan GmbH, the insolvent one. Its notes:", r'''
(def ct-0092 (tool/contract-get {:contract_id "CT-2016-0092"}))
(println (:title ct-0092) "| owner" (:owner ct-0092))
(println (:notes ct-0092))
''')

s.turn("That ties Thomas Brenner to the insolvency from our side too. Korvell's contracts:", r'''
(def ct-korvell (tool/contract-search {:counterparty "Korvell"}))
(doseq [c ct-korvell]
  (println (:contract_id c) "|" (:title c) "|" (:counterparty c) "|" (:status c) (:start c) "-" (:end c) (:value_eur c) "EUR"))
''')

s.turn("The Leipzig rental with the German GmbH was terminated early. Its details:", r'''
(def ct-0447 (tool/contract-get {:contract_id "CT-2019-447"}))
(println (:notes ct-0447))
''', "tool")

s.turn("I dropped a digit: CT-2019-0447.", r'''
(def ct-0447 (tool/contract-get {:contract_id "CT-2019-0447"}))
(println (:title ct-0447) "|" (:counterparty ct-0447) "| owner" (:owner ct-0447) "|" (:terms ct-0447))
(println (:notes ct-0447))
(doseq [i (:incidents ct-0447)]
  (println "  " (:date i) (:text i)))
''')

s.turn("Terminated for SLA breaches, with a settlement in our favour. Vantaro:", r'''
(def ct-vantaro (tool/contract-search {:counterparty "Vantaro"}))
(println (count ct-vantaro) "contracts with Vantaro")
''')

s.turn("No history with Vantaro. The news, starting with Korvell:", r'''
(def news-korvell (tool/news-search {:query "Korvell"}))
(doseq [a news-korvell]
  (println (:article_id a) (:date a) (:source a) "|" (:headline a)))
''')

s.turn("NW-60117 is about Korvel Data, the other company. The breach article:", r'''
(def breach (tool/news-article {:article_id "NW-58812"}))
(println (:headline breach))
(println (:body breach))
''')

s.turn("A breach in October 2023 and the 1.2m GBP fine (NW-59370). The Nordlicht news, looking for Brenner:", r'''
(def news-nordlicht (tool/news-search {:query "Nordlicht"}))
(println (map :article_id (filter #(clojure.string/includes? (:snippet %) "Brenner") news-nordlicht)))
''', "type")

s.turn("One article has no snippet. Headline and snippet of each:", r'''
(def news-nordlicht (tool/news-search {:query "Nordlicht"}))
(doseq [a news-nordlicht]
  (println (:article_id a) (:date a) (:source a) "|" (:headline a) "|" (or (:snippet a) "-")))
''')

s.turn("NW-41877 is the 2019 insolvency of Nordlicht Scan. Vantaro's news:", r'''
(def news-vantaro (tool/news-search {:query "Vantaro"}))
(doseq [a news-vantaro]
  (println (:article_id a) (:date a) (:source a) "|" (:headline a) "|" (or (:snippet a) "-")))
''')

s.turn("A battery recall of the VX-40, the very model Vantaro bids. The article:", r'''
(def recall (tool/news-article {:article_id "NW-60931"}))
(println (:body recall))
''')

s.turn("Adding Korvell's and Vantaro's risks:", r'''
(def risks
  (merge risks
         {"Korvell Data Systems"
          [{:level "high" :what "customer portal breach 2023, ICO fine 1.2m GBP" :sources ["NW-58812" "NW-59370"]}
           {:level "medium" :what "rental contract terminated for SLA breaches" :sources ["CT-2019-0447"]}]
          "Vantaro Devices"
          [{:level "high" :what "battery pack recall of the bid model VX-40" :sources ["NW-60931"]}
           {:level "medium" :what "new majority owner Helix Industrial Partners plans a merger" :sources ["NW-60455" "%s"]}]}))
(doseq [[v rs] risks]
  (println v (map (juxt :level :what) rs)))
''' % VANTARO)

s.turn("Now the reviews of each vendor.", r'''
(def reviews-by (into {} (map (fn [b] [(:vendor b) (tool/reviews {:vendor (:vendor b)})]) (:bids rfq))))
''', "tool")

s.turn("The review site wants the legal names, the ones the registry gave:", r'''
(def legal-name {"Nordlicht Scanning" "%s"
                 "Korvell Data Systems" "%s"
                 "Vantaro Devices" "%s"})
(def reviews-by (into {} (map (fn [[v n]] [v (tool/reviews {:vendor n})]) legal-name)))
(doseq [[v r] reviews-by]
  (println v (:rating r) "stars from" (:count r) "reviews"))
''' % (LEGAL["Nordlicht Scanning"], LEGAL["Korvell Data Systems"], LEGAL["Vantaro Devices"]))

s.turn("The low reviews say more than the averages:", r'''
(doseq [[v r] reviews-by
        x (:reviews r)
        :when (<= (:stars x) 2)]
  (println v (:review_id x) (:stars x) (:date x) (:title x) "-" (:text x)))
''')

s.turn("Our history with each vendor (active contract with its SLA met, none, terminated) and the three-year cost of each bid:", r'''
(def history {"Nordlicht Scanning" 1.0 "Korvell Data Systems" 0.0 "Vantaro Devices" 0.5})
(defn three-year-cost [b]
  (+ (* (:unit_price_eur b) (:quantity rfq)) (* 3 (:maintenance_eur_per_year b))))
(def bids (into {} (map (juxt :vendor identity) (:bids rfq))))
(doseq [[v b] bids]
  (println v (three-year-cost b) "EUR over three years"))
''')

s.turn("Scoring by the RFQ weights; a medium risk costs 10 points and a high one 30 (and excludes).", r'''
(def cheapest (apply min (map three-year-cost (vals bids))))
(def fastest (apply min (map :delivery_weeks (vals bids))))
(defn score [v]
  (let [b (bids v) wt (:weights rfq) rs (get risks v [])]
    (round-to 1 (+ (* (:price wt) (/ cheapest (three-year-cost b)))
                   (* (:reviews wt) (/ (:rating (reviews-by v)) 5.0))
                   (* (:delivery wt) (/ fastest (:delivery_weeks b)))
                   (* (:history wt) (history v))
                   (* -10 (count (filter #(= "medium" (:level %)) rs)))
                   (* -30 (count (filter #(= "high" (:level %)) rs)))))))
(println (score "Vantaro Devices"))
''', "unbound_symbol")

s.turn("No round-to; I'll format the scores when printing.", r'''
(def cheapest (apply min (map three-year-cost (vals bids))))
(def fastest (apply min (map :delivery_weeks (vals bids))))
(defn score [v]
  (let [b (bids v) wt (:weights rfq) rs (get risks v [])]
    (+ (* (:price wt) (/ cheapest (three-year-cost b)))
       (* (:reviews wt) (/ (:rating (reviews-by v)) 5.0))
       (* (:delivery wt) (/ fastest (:delivery_weeks b)))
       (* (:history wt) (history v))
       (* -10 (count (filter #(= "medium" (:level %)) rs)))
       (* -30 (count (filter #(= "high" (:level %)) rs))))))
(defn eligible? [v] (not-any? #(= "high" (:level %)) (get risks v [])))
(def scores (into {} (map (fn [v] [v (/ (round (* 10 (score v))) 10.0)]) (keys bids))))
(doseq [[v sc] (sort-by val > scores)]
  (println (format "%-22s %6.1f  eligible: %s" v sc (eligible? v))))
''')

s.prose("""Every bidder carries a high risk, so by the RFQ's rule none can be awarded as things stand:

- Nordlicht Scanning (%s): managing director Thomas Brenner, who ran the insolvent Nordlicht Scan GmbH and is on the EU exclusion list (%s). Without that risk it would lead clearly with %s points.
- Korvell Data Systems (%s): the 2023 portal breach and ICO fine (NW-58812, NW-59370), and the Leipzig rental CT-2019-0447 terminated for SLA breaches.
- Vantaro Devices (%s): battery recall of the VX-40 it bids (NW-60931), new owner planning a merger (NW-60455).

Before escalating, I want to make sure the director link is real: the record came from the KYC cache of %s, and the award article NW-61204 names a Tobias Brenner.""" % (
    NORDLICHT, EXCL, one(SCORES["Nordlicht Scanning"]), KORVELL, VANTARO, w.CACHE_DATE))

s.turn("Checking the filings of Nordlicht Scanning GmbH since 2019:", r'''
(def filings (tool/registry-filings {:registry_id "%s"}))
(doseq [f filings]
  (println (:filing_id f) (:date f) (:type f) "-" (:summary f)))
''' % NORDLICHT)

s.turn("A correction filed on %s (%s): the director is Tobias Brenner, born 1981, not Thomas Brenner. The cached extract predates it; the live one:" % (
    w.CORRECTION_DATE, w.CORRECTION_FILING), r'''
(def records (assoc records "Nordlicht Scanning" (tool/registry-record {:registry_id "%s" :extract "live"})))
(def nordlicht (records "Nordlicht Scanning"))
(println (:name nordlicht) "| source" (:source nordlicht) (:as_of nordlicht))
(doseq [d (:directors nordlicht)]
  (println "   " (:role d) (:name d) "since" (:since d) "born" (:born d)))
''' % NORDLICHT)

s.turn("Screening the corrected director, and the whole list again from the corrected records:", r'''
(def people
  (distinct (concat (mapcat #(map :name (:directors %)) (vals records))
                    (mapcat #(map :name (:owners %)) (vals records)))))
(def screening (tool/sanctions-screen {:names (vec people)}))
(println (count screening) "screened," (count (filter #(= "potential match" (:status %)) screening)) "potential matches")
(println (first (filter #(= "Tobias Brenner" (:name %)) screening)))
''')

s.turn("Tobias Brenner is clear. Nordlicht's high risk goes; what remains for it is the firmware recall from the reviews (RV-28810) and the incident in our maintenance contract:", r'''
(def risks
  (assoc risks "Nordlicht Scanning"
         [{:level "low" :what "firmware recall left the swap pool short for 3 days in 2023" :sources ["CT-2021-0183" "RV-28810"]}]))
(doseq [[v rs] risks]
  (println v (map (juxt :level :sources) rs)))
''')

s.turn("Scores again with the corrected risks.", r'''
(def scores (into {} (map #(vector % (score % risks)) (keys bids))))
''', "arity")

s.turn("score reads the risks itself.", r'''
(def scores (into {} (map (fn [v] [v (/ (round (* 10 (score v))) 10.0)]) (keys bids))))
(doseq [[v sc] (sort-by val > scores)]
  (println (format "%-22s %6.1f  eligible: %s" v sc (eligible? v))))
''')

s.turn("Nordlicht Scanning is eligible and leads. Before writing it up: the Korvell GmbH in Frankfurt (%s) was the counterparty of CT-2019-0447. Who runs it?" % KORVELL_DE, r'''
(def korvell-de (tool/registry-record {:registry_id "%s"}))
(println (:name korvell-de) (:status korvell-de) "owner" (map :name (:owners korvell-de)))
(println "directors:" (map (juxt :name :role :born) (:directors korvell-de)))
''' % KORVELL_DE)

s.turn("Anna Lindquist, born 1979, as is the Ltd's director Ana Lindqvist: the same person spelled two ways. And the Vantaro owner, Vantaro Group AB (%s):" % VANTARO_GROUP, r'''
(def vantaro-group (tool/registry-record {:registry_id "%s"}))
(println (:name vantaro-group) "chair" (map :name (:directors vantaro-group)))
(doseq [o (:owners vantaro-group)]
  (println "   " (:name o) (:share_pct o) "%%" (or (:registry_id o) "")))
''' % VANTARO_GROUP)

s.turn("Helix holds 71%. Last, our current maintenance contract with Nordlicht Scanning, which runs out:", r'''
(def ct-0183 (tool/contract-get {:contract_id "CT-2021-0183"}))
(println (:title ct-0183) "|" (:status ct-0183) (:start ct-0183) "-" (:end ct-0183) "| owner" (:owner ct-0183))
(println (:terms ct-0183))
(println (:notes ct-0183))
''')

AWARD_COST = int(COST["Nordlicht Scanning"])

s.cut("The recommendation:", r'''
(def recommendation
  {:rfq "RFQ-2291"
   :award {:vendor "%s" :registry-id "%s" :bid "BID-2291-01"
           :three-year-cost-eur %d :score %s}
   :scores {"Nordlicht Scanning" %s "Vantaro Devices" %s "Korvell Data Systems" %s}
   :risks {"Nordlicht Scanning" {:level "low" :sources ["CT-2021-0183" "RV-28810"]
                                 :resolved {:what "director link to Nordlicht Scan GmbH was a registry clerical error"
                                            :filing "%s" :registry-id "%s"}}
           "Korvell Data Systems" {:level "high" :registry-ids ["%s" "%s"]
                                   :sources ["NW-58812" "NW-59370" "CT-2019-0447"]
                                   :people ["Daniel Ashcombe" "Ana Lindqvist"''' % (
    LEGAL["Nordlicht Scanning"], NORDLICHT, AWARD_COST, one(SCORES["Nordlicht Scanning"]),
    one(SCORES["Nordlicht Scanning"]), one(SCORES["Vantaro Devices"]), one(SCORES["Korvell Data Systems"]),
    w.CORRECTION_FILING, NORDLICHT, KORVELL, KORVELL_DE))

s.turn("Cut off. The same recommendation, with the details in the sources:", r'''
(def recommendation
  {:rfq "RFQ-2291"
   :award {:vendor "%s" :registry-id "%s" :bid "BID-2291-01" :three-year-cost-eur %d :score %s}
   :scores {"Nordlicht Scanning" %s "Vantaro Devices" %s "Korvell Data Systems" %s}
   :risks {"Nordlicht Scanning" {:level "low" :sources ["CT-2021-0183" "RV-28810" "%s"]}
           "Korvell Data Systems" {:level "high" :sources ["%s" "%s" "NW-58812" "NW-59370" "CT-2019-0447"]}
           "Vantaro Devices" {:level "high" :sources ["%s" "%s" "NW-60931" "NW-60455" "RV-30655"]}}
   :ownership {"Nordlicht Scanning" "Nordlicht Holding GmbH"
               "Korvell Data Systems" "Korvell Group Holdings Ltd"
               "Vantaro Devices" "Helix Industrial Partners Fund III SCSp"}
   :people {"Korvell Data Systems" ["Daniel Ashcombe" "Ana Lindqvist" "Anna Lindquist"]
            "Vantaro Devices" ["Elin Sjöberg" "Magnus Hedlund"]}
   :contacts {:managing-director "Tobias Brenner" :vendor-sales "Sabine Kroeger"
              :our-contract-owner "Miriam Hoss" :renewal "CT-2021-0183" :korvell-termination "Jens Pauly"}})
(println (get-in recommendation [:award :vendor]) (get-in recommendation [:award :score]))
(println (count (mapcat :sources (vals (:risks recommendation)))) "sources cited")
''' % (LEGAL["Nordlicht Scanning"], NORDLICHT, AWARD_COST, one(SCORES["Nordlicht Scanning"]),
       one(SCORES["Nordlicht Scanning"]), one(SCORES["Vantaro Devices"]), one(SCORES["Korvell Data Systems"]),
       w.CORRECTION_FILING, KORVELL, KORVELL_DE, VANTARO, VANTARO_GROUP))

s.turn("Does every id cited come from what the tools returned?", r'''
(def seen-ids
  (set (concat (map :registry_id (concat hits-nordlicht hits-korvell hits-vantaro))
               (map :contract_id (concat ct-nordlicht ct-korvell))
               (map :article_id (concat news-korvell news-nordlicht news-vantaro))
               (mapcat #(map :review_id (:reviews %)) (vals reviews-by))
               (map :filing_id filings))))
(def cited (mapcat :sources (vals (:risks recommendation))))
(println "not found:" (remove seen-ids cited))
(println "award score matches:" (= (format "%.1f" (scores "Nordlicht Scanning")) (format "%.1f" (get-in recommendation [:award :score]))))
''')

s.turn("Every source checks out; Nordlicht Scanning GmbH is the recommendation.", r'''
(return recommendation)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
