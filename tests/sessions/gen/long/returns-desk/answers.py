#!/usr/bin/env python3
"""The model answers of the returns-desk session.
Case ids, order numbers, SKUs, EANs, tracking numbers, refund ids, amounts,
names and dates the agent reuses are taken from world.py (and tool.py's
numbering and formatting), as the model takes them from the prints of
earlier turns. Two corrections, each after the old value was printed: the
refunds of the nine received returns are first computed at the lines' list
prices and redone at the price paid once the orders turn out to carry
vouchers (`refunds` redefined; 3428.93 -> 3169.42 EUR); Jürgen Weiss's case,
which names no order, is first matched to the Barista Pro 920 order of
Jürgen Weiß of Berlin (ORD-DE-4471203, 1.299,00 €) and re-matched to his own
Barista 720 order from Zürich (ORD-CH-0340577, CHF 849.–) once his follow-up
and the type plate photo are read (`weiss-order` redefined). Later programs
write only the corrected values."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()

# --- what the agent sees, mirrored to write the literals it copies -------------------------

RECEIVED = sorted(w.RETURN_LABELS)


def paid_share(no, sku):
    o = t.shop_order({"order_no": no})
    sub = sum(q * w.unit_price(no, s_) for s_, q in w.ORDERS[no][2])
    vam = w.order_amounts(no)[1]
    line = [x for x in o["lines"] if x["sku"] == sku][0]
    price = line["qty"] * w.unit_price(no, sku)
    return round(100 * (price - vam * (price / sub))) / 100.0


REFUND_AMOUNT = {cid: paid_share(w.CASES[cid][3], w.CASES[cid][4][0][0]) for cid in RECEIVED}
REFUNDS = {cid: t.refund_create({"case_id": cid, "order_no": w.CASES[cid][3], "amount": REFUND_AMOUNT[cid],
                                 "currency": w.order_currency(w.CASES[cid][3])})
           for cid in RECEIVED if cid != "RMA-2024-118711"}
TV = "RMA-2024-118711"
ESC_TV = t.rma_update({"case_id": TV, "status": "escalated", "escalate_to": "team-lead"})["escalation_id"]
WEISS_LABEL = t.label_create({"case_id": "RMA-2024-118752", "order_no": "ORD-CH-0340577", "carrier": "post-ch"})
LABELS = {cid: t.label_create({"case_id": cid, "order_no": w.CASES[cid][3],
                               "carrier": t.POLICY["return_carriers"][w.CUSTOMERS[w.CASES[cid][2]][6]]})
          for cid in ["RMA-2024-118741", "RMA-2024-118744", "RMA-2024-118746", "RMA-2024-118749",
                      "RMA-2024-118755", "RMA-2024-118757"]}
REPL = {cid: t.replacement_create({"case_id": cid, "order_no": w.CASES[cid][3], "sku": w.CASES[cid][4][0][0],
                                   "qty": 1})
        for cid in ["RMA-2024-118713", "RMA-2024-118725", "RMA-2024-118740", "RMA-2024-118750"]}
GRINDER = t.refund_create({"case_id": "RMA-2024-118718", "order_no": "ORD-DE-4452290", "amount": 119.0,
                           "currency": "EUR"})
BAUER = t.refund_create({"case_id": "RMA-2024-118704", "order_no": "ORD-DE-4467342", "amount": 499.0,
                         "currency": "EUR"})
ESC_WAGNER = t.rma_update({"case_id": "RMA-2024-118733", "status": "escalated",
                           "escalate_to": "carrier-desk"})["escalation_id"]
ESC_WOLFF = t.rma_update({"case_id": "RMA-2024-118748", "status": "escalated",
                          "escalate_to": "payments"})["escalation_id"]
LIST_EUR = sum(w.unit_price(w.CASES[c][3], w.CASES[c][4][0][0]) * w.CASES[c][4][0][1] for c in RECEIVED
               if w.order_currency(w.CASES[c][3]) == "EUR")
PAID_EUR = sum(v for c, v in REFUND_AMOUNT.items() if w.order_currency(w.CASES[c][3]) == "EUR")
EUR_REFUNDED = round(sum(r["amount"] for r in REFUNDS.values() if r["currency"] == "EUR")
                     + GRINDER["amount"] + BAUER["amount"], 2)


def f2(x):
    return "%.2f" % x


# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the brief and the open cases of the returns desk.", r'''
(println data/brief)
(def q1 (tool/rma-queue {}))
(println (:total q1) "cases on" (:pages q1) "pages," (count (:cases q1)) "on page 1")
''')

s.turn("28 cases. Page 2, then the whole queue as a table:", r'''
(def queue (into (:cases q1) (:cases (tool/rma-queue {:page 2}))))
(doseq [c queue]
  (println (format "%-16s %s %-13s %-2s %-14s %-16s %s" (:case_id c) (:opened c) (:reason c) (:lang c)
                   (:status c) (:customer c) (:order_ref c))))
(println (frequencies (map :reason queue)))
''')

s.turn("Mostly returns, then defects. The policy first:", r'''
(def policy (tool/returns-policy))
(doseq [[k v] policy]
  (println (str (name k) ":") v))
''')

s.turn("Now every case in full: messages, attachments and any return label already issued.", r'''
(def cases (into {} (map (juxt :case_id identity) (pmap #(tool/rma-case {:case_id (:case_id %)}) queue))))
(doseq [c queue]
  (let [k (cases (:case_id c))
        m (last (:messages k))]
    (println (:case_id c) (:reason k) (if-let [l (:return_label k)] (str (:carrier l) " " (:tracking_no l)) "-")
             (count (:attachments k)) "att |" (subs (:text m) 0 (min 90 (count (:text m)))))))
''')

s.turn("Nine cases are waiting for a return parcel. The orders behind the cases (one case has no order number):", r'''
(def orders
  (into {} (map (juxt :order_no identity)
                (pmap #(tool/shop-order {:order_no %}) (distinct (remove str/blank? (map :order_ref queue)))))))
(doseq [[no o] (sort-by key orders)]
  (println no (:placed o) (get-in o [:shipping_address :country]) (format "%-14s" (:total o))
           (or (get-in o [:voucher :code]) "-") (str/join "," (map :sku (:lines o)))
           (get-in o [:shipment :carrier]) (get-in o [:shipment :tracking_no]) "delivered" (get-in o [:shipment :delivered])))
''')

s.turn("Where the nine return parcels are:", r'''
(def waiting (filter :return_label (vals cases)))
(def returns-tracking
  (into {} (pmap (fn [c] [(:case_id c) (tool/parcel-track {:tracking_no (get-in c [:return_label :tracking_no])})])
                 waiting)))
(doseq [[id tr] (sort-by key returns-tracking)]
  (println id (:tracking_no tr) (:carrier tr) (:status tr) (:last_event tr) (:location (last (:events tr)))))
''')

s.turn("All nine are scanned in at the returns centre, so all nine are due a refund. The amount per case, from the returned lines:", r'''
(def received (sort (keys returns-tracking)))
(def refunds
  (for [id received]
    (let [c (cases id)
          o (orders (:order_ref c))
          lines (filter #(contains? (set (map :sku (:items c))) (:sku %)) (:lines o))]
      {:case id :order (:order_no o) :amount (reduce + (map #(* (:qty %) (:unit_price %)) lines))})))
(println refunds)
''', "type")

s.turn('The prices are strings ("389,00 €", "€ 229,00", "CHF 169.–", and French ones with narrow spaces). A parser, then the refunds:', r'''
(def received (sort (keys returns-tracking)))
(defn money
  "The amount of a shop price string: 1.299,00 € | € 229,00 | 1 299,00 € | CHF 1'249.– | CHF 64.90 (sign dropped)."
  [s]
  (if (str/starts-with? s "CHF")
    (parse-double (str/replace (str/replace (subs s 4) "'" "") "–" "00"))
    (parse-double (str/replace (str/replace s #"[^0-9,]" "") "," "."))))
(def refunds
  (vec (for [id received]
         (let [c (cases id)
               o (orders (:order_ref c))
               skus (set (map :sku (:items c)))
               lines (filter #(contains? skus (:sku %)) (:lines o))]
           {:case id :order (:order_no o) :customer (get-in o [:customer :name]) :lang (:lang c)
            :skus (mapv :sku lines) :currency (:currency o)
            :amount (sum (map #(* (:qty %) (money (:unit_price %))) lines))}))))
(doseq [r refunds]
  (println (format "%-16s %-15s %-15s %-25s %9.2f %s" (:case r) (:order r) (:customer r) (str/join "," (:skus r))
                   (:amount r) (:currency r))))
(println "total" (format "%.2f" (sum (map :amount (filter #(= "EUR" (:currency %)) refunds)))) "EUR +"
         (sum (map :amount (filter #(= "CHF" (:currency %)) refunds))) "CHF")
''')

s.turn("Before paying anything out, the vouchers and payment methods of these nine orders:", r'''
(doseq [r refunds]
  (let [o (orders (:order r))]
    (println (:order r) "subtotal" (:subtotal o) "| voucher" (or (:voucher o) "none") "| paid" (:total o)
             "| lines" (count (:lines o)) "|" (get-in o [:payment :method]) (get-in o [:payment :account]))))
''')

s.turn("Five of the nine orders had a voucher (BIENVENUE10, BLACKWEEK10, WIEN20, HERBST15, NEUKUNDE25), and the policy refunds what was paid: the voucher shared over the order's lines by price. At list prices I would overpay. Again, at the price paid:", r'''
(defn paid-share
  "What was paid for `line` of order `o`: its price less its share of the order's voucher."
  [o line]
  (let [price (* (:qty line) (money (:unit_price line)))
        voucher (if (:voucher o) (money (get-in o [:voucher :amount])) 0)]
    (- price (* voucher (/ price (money (:subtotal o)))))))
(defn cents [x] (/ (round (* 100 x)) 100.0))
(def refunds-at-list refunds)
(def refunds
  (mapv (fn [r]
          (let [o (orders (:order r))]
            (assoc r :amount (cents (sum (map #(paid-share o %) (filter #(some #{(:sku %)} (:skus r)) (:lines o))))))))
        refunds-at-list))
(doseq [[a b] (map vector refunds-at-list refunds)]
  (println (:case b) (format "%-15s %9.2f -> %9.2f %s" (:customer b) (:amount a) (:amount b) (:currency b))))
(println "EUR total" (format "%.2f" (sum (map :amount (filter #(= "EUR" (:currency %)) refunds)))))
''')

TV_AMT = REFUND_AMOUNT[TV]
s.turn(fill("Issuing them, the largest first: Mehmet Yılmaz's TV, <<A>> EUR.", A=f2(TV_AMT)), fill(r'''
(def tv-refund (tool/refund-create {:case_id "RMA-2024-118711" :order_no "ORD-DE-4469377" :amount <<A>>
                                    :currency "EUR" :reason "withdrawal, return received 2024-11-18"}))
(println tv-refund)
''', A=TV_AMT), "tool")

s.turn("Above the desk's limit of 1000 EUR: the case goes to the team lead, and Mr Yılmaz gets word that it is on its way.", fill(r'''
(def tv-escalation
  (tool/rma-update {:case_id "RMA-2024-118711" :status "escalated" :escalate_to "team-lead"
                    :note "Nordvik Q7 55\" of ORD-DE-4469377 received 2024-11-18 (UPS 1Z4A7W919004418377). Refund due: <<A>> EUR (1.549,00 € less the BLACKWEEK10 share), above the 1000 EUR desk limit: please approve."}))
(def tv-msg
  (tool/customer-message {:case_id "RMA-2024-118711" :lang "de"
                          :text "Guten Tag Herr Yılmaz,\n\nIhr Fernseher ist am 18.11. in unserem Retourenzentrum eingegangen. Die Erstattung von <<T>> haben wir heute zur Freigabe an unsere Teamleitung gegeben; sie geht in den nächsten Tagen auf Ihr Konto.\n\nIhr Velora Kundenservice"}))
(println tv-escalation)
(println tv-msg)
''', A=f2(TV_AMT), T=w.money(TV_AMT, "DE")))

s.turn("The other eight refunds are under the limit:", r'''
(def refund-results
  (vec (pmap #(tool/refund-create {:case_id (:case %) :order_no (:order %) :amount (:amount %)
                                   :currency (:currency %) :reason "withdrawal, return received"})
             (remove #(= "RMA-2024-118711" (:case %)) refunds))))
(doseq [r refund-results]
  (println (:refund_id r) (:case_id r) (format "%-12s" (:amount_text r)) (:method r) "->" (:to r) (:value_date r)))
(println (count refund-results) "refunds booked:"
         (format "%.2f" (sum (map :amount (filter #(= "EUR" (:currency %)) refund-results)))) "EUR +"
         (sum (map :amount (filter #(= "CHF" (:currency %)) refund-results))) "CHF")
''')

s.turn("Each customer gets a confirmation in their language, and the case is closed as refunded.", r'''
(defn notify
  "Sends `text` to the customer of case `id` in `lang`."
  [id lang text]
  (tool/customer-message {:case_id id :lang lang :text text}))
(defn refund-text [lang r]
  (case lang
    "de" (str "Guten Tag,\n\nIhre Rücksendung ist bei uns eingegangen. Wir haben " (:amount_text r) " erstattet ("
              (:method r) ", " (:to r) "); das Geld ist in 2-5 Werktagen bei Ihnen. Referenz: " (:refund_id r)
              ".\n\nIhr Velora Kundenservice")
    "fr" (str "Bonjour,\n\nNous avons bien reçu votre retour et vous avons remboursé " (:amount_text r) " ("
              (:method r) ", " (:to r) "). Référence : " (:refund_id r) ".\n\nLe service client Velora")
    (str "Hello,\n\nyour return has arrived and we have refunded " (:amount_text r) " to your " (:method r) " ("
         (:to r) "). Reference: " (:refund_id r) ".\n\nVelora customer care")))
(def refund-msgs
  (mapv #(let [lang (:lang (cases (:case_id %)))] (notify (:case_id %) lang (refund-text lang %))) refund-results))
(def refund-closed
  (mapv #(tool/rma-update {:case_id (:case_id %) :status "closed" :resolution "refunded"
                           :note (str (:refund_id %) " " (:amount_text %))})
        refund-results))
(doseq [[m u] (map vector refund-msgs refund-closed)]
  (println (:case_id u) (:status u) (:resolution u) (:message_id m) (:lang m) (:to m)))
(println (refund-text "fr" (second refund-results)))
''')

s.turn("Next, the return requests with no label yet. The window is 30 days from the carrier's delivery scan, so the delivery scan of each order:", r'''
(def requests
  (filter #(and (= "return" (:reason %)) (nil? (:return_label %)) (not (str/blank? (:order_ref %)))) (vals cases)))
(def deliveries
  (into {} (pmap (fn [c]
                   (let [tr (tool/parcel-track {:tracking_no (get-in (orders (:order_ref c)) [:shipment :tracking_no])})]
                     [(:case_id c) (:at (find-first #(= "DELIVERED" (:code %)) (:events tr)))]))
                 requests)))
(println deliveries)
''', "unbound_symbol")

s.turn("No find-first; the tracking result has a delivered_at field anyway. Days from delivery to the request:", r'''
(def requests
  (filter #(and (= "return" (:reason %)) (nil? (:return_label %)) (not (str/blank? (:order_ref %)))) (vals cases)))
(defn day-no
  "Days since 2000-01-01 of a date or timestamp string (yyyy-mm-dd...)."
  [s]
  (let [[y m d] (map parse-long (str/split (subs s 0 10) #"-"))
        cum [0 31 59 90 120 151 181 212 243 273 304 334]]
    (+ (* 365 (- y 2000)) (quot (+ (- y 2000) 3) 4) (nth cum (dec m)) (if (and (zero? (rem y 4)) (> m 2)) 1 0)
       (dec d))))
(def deliveries
  (into {} (pmap (fn [c]
                   [(:case_id c)
                    (:delivered_at (tool/parcel-track {:tracking_no (get-in (orders (:order_ref c)) [:shipment :tracking_no])}))])
                 requests)))
(def windows
  (into (sorted-map) (for [[id at] deliveries]
                       [id {:delivered (subs at 0 10) :days (- (day-no (:opened (cases id))) (day-no at))}])))
(doseq [[id wd] windows]
  (println id (format "%-16s" (get-in cases [id :customer :name])) (:order_ref (cases id)) "delivered" (:delivered wd)
           "request after" (:days wd) "days" (if (<= (:days wd) 30) "ok" "LATE")))
''')

s.turn("Six are in time, two are late. Labels for the six, with the carrier the policy sets for the sender's country:", r'''
(def carrier-for {"DE" "dhl" "AT" "dhl" "FR" "colissimo" "CH" "post-ch"})
(def eligible (filter #(<= (:days (windows %)) 30) (keys windows)))
(def labels
  (into (sorted-map)
        (pmap (fn [id]
                (let [o (orders (:order_ref (cases id)))]
                  [id (tool/label-create {:case_id id :order_no (:order_no o)
                                          :carrier (carrier-for (get-in o [:shipping_address :country]))})]))
              eligible)))
(doseq [[id l] labels]
  (println id (:carrier l) (:return_tracking l) (:label_id l) (get-in l [:sender :name]) (get-in l [:sender :postcode])
           (get-in l [:sender :city]) "valid until" (:valid_until l)))
''')

s.turn("Sending the labels, and setting the six cases to waiting_return:", r'''
(defn label-text [lang l]
  (case lang
    "de" (str "Guten Tag,\n\nIhr Rücksendeetikett (" (str/upper-case (:carrier l)) ", Sendungsnummer " (:return_tracking l)
              ") finden Sie hier: " (:label_url l) " (gültig bis " (:valid_until l) "). Sobald das Paket in unserem "
              "Retourenzentrum eingescannt ist, erstatten wir Ihnen den Kaufpreis.\n\nIhr Velora Kundenservice")
    "fr" (str "Bonjour,\n\nVoici votre étiquette de retour Colissimo (numéro " (:return_tracking l) ") : " (:label_url l)
              " (valable jusqu'au " (:valid_until l) "). Nous vous rembourserons dès que le colis sera arrivé à notre "
              "centre de retours.\n\nLe service client Velora")
    (str "Hello,\n\nhere is your return label (" (str/upper-case (:carrier l)) ", tracking " (:return_tracking l) "): "
         (:label_url l) " (valid until " (:valid_until l) "). We refund the price as soon as the parcel is scanned in "
         "at our returns centre.\n\nVelora customer care")))
(def label-msgs (mapv (fn [[id l]] (notify id (:lang (cases id)) (label-text (:lang (cases id)) l))) labels))
(def label-updates
  (mapv (fn [[id l]] (tool/rma-update {:case_id id :status "waiting_return"
                                       :note (str "label " (:label_id l) " " (:return_tracking l))}))
        labels))
(doseq [[m u] (map vector label-msgs label-updates)]
  (println (:case_id u) (:status u) (:message_id m) (:lang m) (:to m)))
''')

s.turn("The two late ones are declined, as the policy says, with the dates:", r'''
(def late-msgs
  [(notify "RMA-2024-118706" "de"
           "Guten Tag Herr Jansen,\n\nIhre Stehleuchte wurde am 02.10.2024 zugestellt, die Rückgabefrist von 30 Tagen endete damit am 01.11.2024. Eine Rücknahme ist leider nicht mehr möglich.\n\nIhr Velora Kundenservice")
   (notify "RMA-2024-118735" "en"
           "Hello Mr Murphy,\n\nyour S2 watch was delivered on 2024-10-11, so the 30-day return period ended on 2024-11-10. We are sorry, but we cannot take it back.\n\nVelora customer care")])
(def late-closed
  (mapv #(tool/rma-update {:case_id % :status "closed" :resolution "declined"
                           :note "return requested after the 30-day window"})
        ["RMA-2024-118706" "RMA-2024-118735"]))
(println (map :message_id late-msgs) (map (juxt :case_id :status :resolution) late-closed))
''')

s.turn("RMA-2024-118752 names no order. What the customer wrote first, and the orders under his name:", r'''
(def weiss-case (cases "RMA-2024-118752"))
(println (:customer weiss-case) "opened" (:opened weiss-case))
(println "Kunde:" (str "\"" (:text (first (:messages weiss-case))) "\""))
(def weiss-hits (tool/orders-by-customer {:query "Jürgen Weiss"}))
(doseq [h weiss-hits]
  (println (:order_no h) (:placed h) (:customer h) (:city h) (:country h) (:items h) (:total h)))
''')

s.turn("He writes of a Barista Pro that came in early November: that is ORD-DE-4471203, the Barista Pro 920.", r'''
(def weiss-order (tool/shop-order {:order_no "ORD-DE-4471203"}))
(println (:customer weiss-order) (:shipping_address weiss-order))
(println (map (juxt :sku :ean :unit_price) (:lines weiss-order)) (:total weiss-order) (:payment weiss-order))
(println (:shipment weiss-order))
''')

s.turn("Delivered 2024-11-05, so in time. Before the label, the rest of his case: the follow-up and the attachment.", r'''
(doseq [m (:messages weiss-case)]
  (println (:at m) (:from m) "|" (:text m)))
(doseq [a (:attachments weiss-case)]
  (println (:file a) "|" (:description a)))
(println "case email" (get-in weiss-case [:customer :email]) "| order email" (get-in weiss-order [:customer :email]))
''')

s.turn("Wrong order: the type plate says Barista 720 with a Swiss plug, he lives at Badenerstrasse 120, 8004 Zürich, and the email is not the Berlin customer's. His order is ORD-CH-0340577, Jürgen Weiss of Zürich; Jürgen Weiß of Berlin has nothing to do with the case.", r'''
(def weiss-order (tool/shop-order {:order_no "ORD-CH-0340577"}))
(println (:customer weiss-order) (:shipping_address weiss-order))
(println (map (juxt :sku :ean :unit_price) (:lines weiss-order)) (:total weiss-order) (:payment weiss-order))
(println (:shipment weiss-order) "->"
         (- (day-no "2024-11-19") (day-no (get-in weiss-order [:shipment :delivered]))) "days before the request")
''')

s.turn("Delivered 2024-11-04, 15 days before his request: in time. His return label:", r'''
(def weiss-label (tool/label-create {:case_id "RMA-2024-118752" :order_no "ORD-CH-0340577" :carrier "dhl"}))
(println weiss-label)
''', "tool")

s.turn("Swiss returns go by post-ch, as the policy's table says.", r'''
(def weiss-label (tool/label-create {:case_id "RMA-2024-118752" :order_no "ORD-CH-0340577" :carrier "post-ch"}))
(def weiss-msg
  (notify "RMA-2024-118752" "de"
          (str "Grüezi Herr Weiss\n\nBesten Dank für das Foto: Es geht um Ihre Barista 720 (Bestellung ORD-CH-0340577). "
               "Ihr Rücksendeetikett der Post (Sendungsnummer " (:return_tracking weiss-label) ") finden Sie hier: "
               (:label_url weiss-label) " (gültig bis " (:valid_until weiss-label) "). Nach Eingang erstatten wir "
               "Ihnen CHF 849.– auf Ihr TWINT-Konto.\n\nFreundliche Grüsse\nIhr Velora Kundenservice")))
(def weiss-update
  (tool/rma-update {:case_id "RMA-2024-118752" :status "waiting_return"
                    :note (str "order ORD-CH-0340577 (not ORD-DE-4471203 of Jürgen Weiß, Berlin); label "
                               (:label_id weiss-label))}))
(println (:return_tracking weiss-label) (:label_id weiss-label) (:sender weiss-label))
(println (:message_id weiss-msg) (:status weiss-update))
''')

s.prose(fill("""Where the week stands:

- 8 withdrawals refunded and closed (<<EUR>> EUR and CHF 169.00), 1 TV refund (<<TV>> EUR) escalated to the team lead.
- 7 return labels sent (six by DHL or Colissimo, Jürgen Weiss's by Post CH), cases waiting for the parcels.
- 2 late returns declined.

Left: the four defects (warranty), the two transport damages, Sophie Wagner's parcel that never arrived, Dennis Wolff's PayPal dispute, Hanna Bauer's refund question and Katrin Vogt's second case.""",
             EUR=f2(sum(r["amount"] for r in REFUNDS.values() if r["currency"] == "EUR")), TV=f2(TV_AMT)))

s.turn("The warranty cases: how old each item is (24 months from delivery) and what is wrong with it.", r'''
(def warranty (sort-by :case_id (filter #(= "defect" (:reason %)) (vals cases))))
(doseq [c warranty]
  (let [o (orders (:order_ref c))
        d (get-in o [:shipment :delivered])]
    (println (:case_id c) (get-in c [:customer :name]) (:order_ref c) (mapv :sku (:items c)) "delivered" d
             (format "%.1f months" (/ (- (day-no (:opened c)) (day-no d)) 30.44)))
    (println "   " (:text (first (:messages c))))))
''')

s.turn("Rüdiger Maaß's MX600 was delivered on 2022-09-14: past the 24 months. For the other three, stock of the same SKU:", r'''
(def stock (into {} (pmap (fn [sku] [sku (tool/stock-check {:sku sku})]) ["KW-HP500-BK" "GR-KAFF-M2" "HF-WK17-SW"])))
(doseq [[sku r] stock]
  (println sku (:ean r) (:name r) (:status r) "available" (:available r) (mapv (juxt :warehouse :qty) (:stock r))
           "next inbound" (:next_inbound r)))
''')

s.turn("The grinder is discontinued: a refund. The black headphones are in stock in Leipzig only. Zoé Lefebvre of Bordeaux, who is returning the blue KW-HP500-BL, looks a lot like Zoë Lefèvre of Lyon with the black KW-HP500-BK: checking I have the right one before I replace anything.", r'''
(doseq [id ["RMA-2024-118713" "RMA-2024-118741"]]
  (let [c (cases id)
        o (orders (:order_ref c))]
    (println id (:reason c) (get-in o [:customer :name]) (get-in o [:shipping_address :street])
             (get-in o [:shipping_address :postcode]) (get-in o [:shipping_address :city]) (:order_no o)
             (mapv (juxt :sku :ean) (:lines o)) (get-in c [:customer :email]))))
''')

s.turn("Right: the defect is Zoë Lefèvre's black pair from ORD-FR-2208126. Replacements for her and for Felix Nowak's kettle:", r'''
(def replacements
  [(tool/replacement-create {:case_id "RMA-2024-118713" :order_no "ORD-FR-2208126" :sku "KW-HP500-BK" :qty 1})
   (tool/replacement-create {:case_id "RMA-2024-118725" :order_no "ORD-DE-4459931" :sku "HF-WK17-SW" :qty 1})])
(doseq [r replacements]
  (println (:replacement_order r) (:case_id r) (:sku r) (:ean r) "from" (:ship_from r) (:carrier r) (:tracking_no r)
           "eta" (:eta r) "collect old item:" (:collect_old_item r)))
''')

s.turn("Anja Hoffmann's grinder: ORD-DE-4452290 had no voucher and no shipping charge, so the price paid is 119,00 €.", r'''
(def grinder-refund
  (tool/refund-create {:case_id "RMA-2024-118718" :order_no "ORD-DE-4452290" :amount 119.0 :currency "EUR"
                       :reason "warranty: GR-KAFF-M2 discontinued, no replacement"}))
(println grinder-refund)
''')

R_ZOE, R_KETTLE = REPL["RMA-2024-118713"], REPL["RMA-2024-118725"]
WARRANTY_MSGS = fill(r'''
  [(notify "RMA-2024-118713"
           "Bonjour Madame Lefèvre,\n\nVotre casque KW-500 noir est sous garantie : nous vous envoyons aujourd'hui un casque neuf (commande <<RZ>>, suivi Colissimo <<RZT>>, livraison prévue le <<RZE>>). Le livreur reprendra l'ancien casque, préparez-le dans son emballage.\n\nLe service client Velora")
   (notify "RMA-2024-118718" "de"
           "Guten Tag Frau Hoffmann,\n\ndie Kaffeemühle M2 wird nicht mehr hergestellt, deshalb erstatten wir Ihnen den Kaufpreis von 119,00 € auf Ihr PayPal-Konto (Referenz <<GR>>). Die defekte Mühle müssen Sie nicht zurückschicken.\n\nIhr Velora Kundenservice")
   (notify "RMA-2024-118725" "de"
           "Guten Tag Herr Nowak,\n\nIhr Wasserkocher ist ein Garantiefall. Ein neuer ist unterwegs (Auftrag <<RK>>, DHL <<RKT>>, Zustellung voraussichtlich am <<RKE>>). Den alten Wasserkocher können Sie entsorgen.\n\nIhr Velora Kundenservice")
   (notify "RMA-2024-118729" "de"
           "Sehr geehrter Herr Maaß,\n\nIhre Küchenmaschine MX600 wurde am 14.09.2022 geliefert; die Garantie von 24 Monaten ist am 14.09.2024 abgelaufen. Gern reparieren wir sie kostenpflichtig über unseren Reparaturservice: ein Kostenvoranschlag ist unverbindlich.\n\nMit freundlichen Grüßen\nIhr Velora Kundenservice")]''',
    RZ=R_ZOE["replacement_order"], RZT=R_ZOE["tracking_no"], RZE=R_ZOE["eta"], GR=GRINDER["refund_id"],
    RK=R_KETTLE["replacement_order"], RKT=R_KETTLE["tracking_no"], RKE=R_KETTLE["eta"])

s.turn("Answers to the four warranty customers:", "(def warranty-msgs" + WARRANTY_MSGS + ")\n(println (map :message_id warranty-msgs))",
       "arity")

s.turn("The first call lacks the language. Again, and closing the four cases:", "(def warranty-msgs" +
       WARRANTY_MSGS.replace('(notify "RMA-2024-118713"\n', '(notify "RMA-2024-118713" "fr"\n', 1) + r''')
(def warranty-closed
  (mapv (fn [[id res]] (tool/rma-update {:case_id id :status "closed" :resolution res}))
        [["RMA-2024-118713" "replaced"] ["RMA-2024-118718" "refunded"] ["RMA-2024-118725" "replaced"]
         ["RMA-2024-118729" "declined"]]))
(doseq [[m u] (map vector warranty-msgs warranty-closed)]
  (println (:case_id u) (:status u) (:resolution u) (:message_id m) (:lang m)))
''')

s.turn("Now the two transport damages: the outbound tracking of each and the photos.", r'''
(def damaged (sort-by :case_id (filter #(= "damaged" (:reason %)) (vals cases))))
(doseq [c damaged]
  (let [o (orders (:order_ref c))
        tr (tool/parcel-track {:tracking_no (get-in o [:shipment :tracking_no])})]
    (println (:case_id c) (get-in c [:customer :name]) (:order_ref c) (mapv :sku (:items c)) (:carrier tr) (:tracking_no tr)
             "delivered" (:delivered_at tr) "reported" (:at (first (:messages c))))
    (doseq [e (:events tr)]
      (println "   " (:at e) (format "%-16s" (:code e)) (:location e)))
    (doseq [a (:attachments c)]
      (println "    photo:" (:description a)))))
''')

s.turn("Both were reported within hours of delivery with photos; UPS even logged the damage at Köln-Eifeltor. Stock, then replacements:", r'''
(println (map (juxt :sku :available) (pmap #(tool/stock-check {:sku %}) ["KM-MX600" "BT-SPK-MINI"])))
(def damage-replacements
  [(tool/replacement-create {:case_id "RMA-2024-118740" :order_no "ORD-DE-4471955" :sku "KM-MX600" :qty 1})
   (tool/replacement-create {:case_id "RMA-2024-118750" :order_no "ORD-DE-4472230" :sku "BT-SPK-MINI" :qty 1})])
(doseq [r damage-replacements]
  (println (:replacement_order r) (:case_id r) (:sku r) (:ean r) "from" (:ship_from r) (:carrier r) (:tracking_no r)
           "eta" (:eta r) "collect old item:" (:collect_old_item r)))
''')

R_ENGEL, R_RICHTER = REPL["RMA-2024-118740"], REPL["RMA-2024-118750"]
s.turn("Telling Markus Engel and Paul Richter, and closing both:", fill(r'''
(def damage-msgs
  [(notify "RMA-2024-118740" "de"
           "Guten Tag Herr Engel,\n\nes tut uns leid, dass Ihre Küchenmaschine beschädigt ankam. Eine neue MX600 ist unterwegs (Auftrag <<RE>>, DHL <<RET>>, Zustellung voraussichtlich am <<REE>>); die beschädigte nimmt der Fahrer mit, bitte halten Sie sie verpackt bereit.\n\nIhr Velora Kundenservice")
   (notify "RMA-2024-118750" "de"
           "Guten Tag Herr Richter,\n\nwir senden Ihnen einen neuen Lautsprecher (Auftrag <<RR>>, DHL <<RRT>>, Zustellung voraussichtlich am <<RRE>>). Den beschädigten müssen Sie nicht zurückschicken.\n\nIhr Velora Kundenservice")])
(def damage-closed
  (mapv #(tool/rma-update {:case_id % :status "closed" :resolution "replaced" :note "transport damage"})
        ["RMA-2024-118740" "RMA-2024-118750"]))
(println (map :message_id damage-msgs) (map (juxt :case_id :status) damage-closed))
''', RE=R_ENGEL["replacement_order"], RET=R_ENGEL["tracking_no"], REE=R_ENGEL["eta"],
    RR=R_RICHTER["replacement_order"], RRT=R_RICHTER["tracking_no"], RRE=R_RICHTER["eta"]))

s.turn("Sophie Wagner's parcel that never arrived, JJD000224911932207:", r'''
(def wagner-parcel (tool/parcel-track {:tracking_no "JJD000224911932207"}))
(doseq [e (:events wagner-parcel)]
  (println (:at e) (:code e) (:location e) "|" (:text e)))
(println "last scan" (:last_event wagner-parcel) "->" (- (day-no "2024-11-22") (day-no (:last_event wagner-parcel)))
         "days ago")
''')

s.turn("No scan since 2024-11-08 at Paketzentrum Aschheim, two weeks: the carrier desk investigates, no refund or replacement before DHL answers. And Dennis Wolff's full message:", r'''
(def wagner-escalation
  (tool/rma-update {:case_id "RMA-2024-118733" :status "escalated" :escalate_to "carrier-desk"
                    :note "DHL JJD000224911932207 (ORD-DE-4470788, Purio 300): last scan 2024-11-08 Paketzentrum Aschheim, nothing since. Please open a Nachforschungsauftrag."}))
(def wagner-msg
  (notify "RMA-2024-118733" "de"
          "Guten Tag Frau Wagner,\n\nIhre Sendung JJD000224911932207 wurde zuletzt am 08.11. im Paketzentrum Aschheim gescannt. Wir haben bei DHL einen Nachforschungsauftrag gestellt und melden uns, sobald DHL antwortet, spätestens mit einem Ersatz oder der Erstattung.\n\nIhr Velora Kundenservice"))
(println wagner-escalation)
(println (:message_id wagner-msg))
(println (:text (first (:messages (cases "RMA-2024-118748")))))
''')

s.turn("A PayPal buyer protection case is open (PP-D-48213376): payments handles it and the desk does nothing else.", r'''
(def wolff-escalation
  (tool/rma-update {:case_id "RMA-2024-118748" :status "escalated" :escalate_to "payments"
                    :note "PayPal Käuferschutz-Fall PP-D-48213376 open for ORD-DE-4469920 (Pulso S2, step count); customer mentions a lawyer. No action taken by the returns desk."}))
(println wolff-escalation)
''')

s.turn("Hanna Bauer (RMA-2024-118704) asks where her refund is and quotes JJD000224911870366:", r'''
(def bauer-parcel (tool/parcel-track {:tracking_no "JJD000224911870366"}))
(println (:direction bauer-parcel) (:reference bauer-parcel) (:status bauer-parcel) (:delivered_at bauer-parcel))
(println (:attachments (cases "RMA-2024-118704")))
''')

s.turn("That is the delivery of her robot to her, not her return. The receipt in her photo has JJD000224911870379, three digits apart:", r'''
(def bauer-return (tool/parcel-track {:tracking_no "JJD000224911870379"}))
(println (:direction bauer-return) (:reference bauer-return) (:status bauer-return) (:delivered_at bauer-return)
         (:location (last (:events bauer-return))))
(def bauer-refund
  (tool/refund-create {:case_id "RMA-2024-118704" :order_no "ORD-DE-4467342" :amount 499.0 :currency "EUR"
                       :reason "withdrawal, return JJD000224911870379 received 2024-11-12"}))
(println bauer-refund)
''')

VOGT = REFUNDS["RMA-2024-118702"]
s.turn("Received on 2024-11-12 and refunded (no voucher on ORD-DE-4467342). Her answer, and Katrin Vogt's second case, RMA-2024-118759, a duplicate of RMA-2024-118702, which was refunded this morning:", fill(r'''
(def bauer-msg
  (notify "RMA-2024-118704" "de"
          (str "Guten Tag Frau Bauer,\n\nentschuldigen Sie die Wartezeit: Ihre Rücksendung (DHL JJD000224911870379) ist am 12.11. bei uns eingegangen. "
               "Wir haben Ihnen heute " (:amount_text bauer-refund) " auf Ihr Konto " (:to bauer-refund) " erstattet (Referenz "
               (:refund_id bauer-refund) ").\n\nIhr Velora Kundenservice")))
(def vogt-msg
  (notify "RMA-2024-118759" "de"
          "Guten Tag Frau Vogt,\n\nIhre Küchenmaschine ist am 14.11. bei uns eingegangen, und wir haben Ihnen heute <<VT>> auf Ihr Konto <<VTO>> erstattet (Referenz <<VID>>). Das Geld ist in 2-5 Werktagen bei Ihnen. Ihre Anfrage schließen wir hiermit.\n\nIhr Velora Kundenservice"))
(def last-closed
  [(tool/rma-update {:case_id "RMA-2024-118704" :status "closed" :resolution "refunded" :note (:refund_id bauer-refund)})
   (tool/rma-update {:case_id "RMA-2024-118759" :status "closed" :resolution "duplicate"
                     :note "duplicate of RMA-2024-118702 (refund <<VID>>)"})])
(println (:message_id bauer-msg) (:message_id vogt-msg) (map (juxt :case_id :status :resolution) last-closed))
''', VT=VOGT["amount_text"], VTO=VOGT["to"], VID=VOGT["refund_id"]))

OUT_ROWS = "\n    ".join([
    '"RMA-2024-118711" {:status "escalated" :action "refund %s EUR needs team lead" :ref "%s"}' % (f2(TV_AMT), ESC_TV),
    '"RMA-2024-118752" {:status "waiting_return" :action "label post-ch" :ref "%s"}' % WEISS_LABEL["return_tracking"],
    '"RMA-2024-118706" {:status "closed" :action "declined: 47 days"}',
    '"RMA-2024-118735" {:status "closed" :action "declined: 35 days"}',
    '"RMA-2024-118713" {:status "closed" :action "replaced KW-HP500-BK" :ref "%s"}' % R_ZOE["replacement_order"],
    '"RMA-2024-118718" {:status "closed" :action "refunded 119.00 EUR" :ref "%s"}' % GRINDER["refund_id"],
    '"RMA-2024-118725" {:status "closed" :action "replaced HF-WK17-SW" :ref "%s"}' % R_KETTLE["replacement_order"],
    '"RMA-2024-118729" {:status "closed" :action "declined: warranty ended 2024-09-14"}',
    '"RMA-2024-118740" {:status "closed" :action "replaced KM-MX600" :ref "%s"}' % R_ENGEL["replacement_order"],
    '"RMA-2024-118750" {:status "closed" :action "replaced BT-SPK-MINI" :ref "%s"}' % R_RICHTER["replacement_order"],
    '"RMA-2024-118733" {:status "escalated" :action "carrier desk: DHL investigation" :ref "%s"}' % ESC_WAGNER,
    '"RMA-2024-118748" {:status "escalated" :action "payments: PayPal dispute PP-D-48213376" :ref "%s"}' % ESC_WOLFF,
    '"RMA-2024-118704" {:status "closed" :action "refunded 499.00 EUR" :ref "%s"}' % BAUER["refund_id"],
    '"RMA-2024-118759" {:status "closed" :action "duplicate of RMA-2024-118702" :ref "%s"}' % VOGT["refund_id"],
])
s.turn("Every case should now have an outcome. The ledger of the week, checked against the queue:", fill(r'''
(def outcomes
  (merge
   (into {} (map (fn [r] [(:case_id r) {:status "closed" :action (str "refunded " (:amount_text r)) :ref (:refund_id r)}])
                 refund-results))
   (into {} (map (fn [[id l]] [id {:status "waiting_return" :action (str "label " (:carrier l)) :ref (:return_tracking l)}])
                 labels))
   {<<ROWS>>}))
(doseq [c queue]
  (let [o (outcomes (:case_id c))]
    (println (format "%-16s %-16s %-14s %-38s %s" (:case_id c) (:customer c) (:status o) (:action o) (or (:ref o) "")))))
(println (count outcomes) "outcomes for" (count queue) "cases;" (frequencies (map :status (vals outcomes))))
''', ROWS=OUT_ROWS))

s.turn("All 28 accounted for. The money that went out this week:", fill(r'''
(def eur-refunds (concat (filter #(= "EUR" (:currency %)) refund-results) [grinder-refund bauer-refund]))
(def chf-refunds (filter #(= "CHF" (:currency %)) refund-results))
(println (count eur-refunds) "EUR refunds:" (format "%.2f" (sum (map :amount eur-refunds)))
         "| CHF:" (format "%.2f" (sum (map :amount chf-refunds))) "| pending approval: <<TV>> EUR (RMA-2024-118711)")
(println "overpaid had I used list prices:"
         (format "%.2f" (- (sum (map :amount (filter #(= "EUR" (:currency %)) refunds-at-list)))
                           (sum (map :amount (filter #(= "EUR" (:currency %)) refunds))))) "EUR")
''', TV=f2(TV_AMT)))

SUMMARY_HEAD = r'''(def summary
  {:desk "Velora Versand GmbH returns desk" :week "2024-11-18..2024-11-22"
   :cases 28
'''
s.cut("Everything is handled. The summary:", SUMMARY_HEAD + r'''   :closed (count (filter #(= "closed" (:status %)) (vals outcomes)))
   :refunds {:count 10 :eur (sum (map :amount eur-refunds)) :chf (sum (map :amount chf-refunds''')

REFUND_IDS = " ".join('"%s"' % r["refund_id"] for _, r in sorted(REFUNDS.items())) + ' "%s" "%s"' % (
    GRINDER["refund_id"], BAUER["refund_id"])
s.turn("Cut off; the whole summary again:", SUMMARY_HEAD + fill(r'''   :closed 18 :waiting-return 7 :escalated 3
   :refunds {:count 10 :eur <<EUR>> :chf 169.0
             :ids [<<RIDS>>]
             :basis "price paid: vouchers shared over the order lines (list prices would have paid <<OVER>> EUR too much)"}
   :replacements [{:case "RMA-2024-118713" :customer "Zoë Lefèvre" :sku "KW-HP500-BK" :ean "<<EBK>>" :order "<<RZ>>"}
                  {:case "RMA-2024-118725" :customer "Felix Nowak" :sku "HF-WK17-SW" :ean "<<EKT>>" :order "<<RK>>"}
                  {:case "RMA-2024-118740" :customer "Markus Engel" :sku "KM-MX600" :ean "<<EMX>>" :order "<<RE>>"}
                  {:case "RMA-2024-118750" :customer "Paul Richter" :sku "BT-SPK-MINI" :ean "<<ESP>>" :order "<<RR>>"}]
   :labels (conj (mapv (fn [[id l]] [id (:return_tracking l)]) labels) ["RMA-2024-118752" "<<WL>>"])
   :declined ["RMA-2024-118706" "RMA-2024-118735" "RMA-2024-118729"]
   :escalations [{:case "RMA-2024-118711" :to "team-lead" :id "<<ETV>>" :why "refund of <<TV>> EUR above the 1000 EUR limit"}
                 {:case "RMA-2024-118733" :to "carrier-desk" :id "<<EWA>>" :why "DHL JJD000224911932207 without a scan since 2024-11-08"}
                 {:case "RMA-2024-118748" :to "payments" :id "<<EWO>>" :why "PayPal dispute PP-D-48213376"}]
   :notes ["RMA-2024-118752 is Jürgen Weiss, 8004 Zürich (ORD-CH-0340577, CHF 849.–), not Jürgen Weiß, 10115 Berlin (ORD-DE-4471203)"
           "Hanna Bauer quoted her delivery JJD000224911870366; her return JJD000224911870379 arrived 2024-11-12"
           "RMA-2024-118759 duplicates RMA-2024-118702"]})
(println (:closed summary) "closed," (get-in summary [:refunds :eur]) "EUR +" (get-in summary [:refunds :chf]) "CHF refunded,"
         (count (:replacements summary)) "replacements," (count (:escalations summary)) "escalations")
''', EUR=f2(EUR_REFUNDED), RIDS=REFUND_IDS, OVER=f2(LIST_EUR - PAID_EUR), EBK=w.EAN["KW-HP500-BK"],
    EKT=w.EAN["HF-WK17-SW"], EMX=w.EAN["KM-MX600"], ESP=w.EAN["BT-SPK-MINI"], RZ=R_ZOE["replacement_order"],
    RK=R_KETTLE["replacement_order"], RE=R_ENGEL["replacement_order"], RR=R_RICHTER["replacement_order"],
    WL=WEISS_LABEL["return_tracking"], ETV=ESC_TV, TV=f2(TV_AMT), EWA=ESC_WAGNER, EWO=ESC_WOLFF))

s.turn("The week's work, with the corrected refunds and Jürgen Weiss's own order:", r'''
(return summary)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
