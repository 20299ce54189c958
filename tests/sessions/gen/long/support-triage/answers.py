#!/usr/bin/env python3
"""The model answers of the support-triage session (39 turns).
Ticket, customer and order ids are read from tool results (the agent prints
subjects, names and short ticket numbers, rarely a whole id) and written as
literals up to 35 turns later; names, tracking numbers, refund and escalation
ids come from prints. The Nordlicht order is first guessed (the latest
order) and corrected when the customer's follow-up names it: `nordlicht-order`
and `nordlicht-refund` are redefined and the corrected values reused."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
import tool  # noqa: E402
from script import Script  # noqa: E402

s = Script()
C = w.CUSTOMERS
O = w.ORDER_BY_ID
LINDQVIST = C["CUS-20931"]
GUESSED = "ORD-2024-119020"   # the latest Nordlicht order, guessed first
DAMAGED = "ORD-2024-118734"   # the one the customer names in TCK-60488
GUESS_PRICE = O[GUESSED]["items"][0]["price_eur"]
SCANNER_PRICE = O[DAMAGED]["items"][0]["price_eur"]
NL_REFUND = 2 * SCANNER_PRICE
DV_ORDER = "ORD-2024-118902"
DV_AMOUNT = O[DV_ORDER]["total_eur"]
MARIN_ORDER = "ORD-2024-118311"
MARIN_AMOUNT = O[MARIN_ORDER]["items"][0]["price_eur"]
FERREIRA = O["ORD-2024-117655"]["shipment"]
NOWAK = O["ORD-2024-118577"]["shipment"]
DV_REFUND_ID = tool.refunded(DV_ORDER, DV_AMOUNT)
MARIN_REFUND_ID = tool.refunded(MARIN_ORDER, MARIN_AMOUNT)

NL_REASON = "refund of %s EUR for 2 HS-40 with cracked screens on %s needs approval (account manager %s)" % (
    NL_REFUND, DAMAGED, LINDQVIST["account_manager"])
API_REASON = "enterprise: GET /v2/orders/export returns 500 for ranges over 31 days (req_7Hc2LkQ9), blocks month-end close"
FW_REASON = "enterprise: HS-40 firmware 3.2.1 stops at 80% with E-217 and rolls back to 3.1.4 on all 14 devices"
SSO_REASON = "enterprise, SLA breached at 2024-05-06T07:45:00Z: new Azure AD users get 'user not provisioned', 6 blocked"
NL_ESC = tool.derived("ESC", 3300, 600, "TCK-60412", "account-management", NL_REASON)
API_ESC = tool.derived("ESC", 3300, 600, "TCK-60427", "engineering-l2", API_REASON)
FW_ESC = tool.derived("ESC", 3300, 600, "TCK-60444", "engineering-l2", FW_REASON)
SSO_ESC = tool.derived("ESC", 3300, 600, "TCK-60457", "identity", SSO_REASON)

s.turn("I'll start with the policy and the first page of the queue.", r'''
(println data/policy)
(def page1 (tool/ticket-list {:queue "eu-standard" :page 1}))
(println (:total page1) "open tickets," (:pages page1) "pages")
''')

s.turn("Fourteen tickets on two pages. The second page, then the whole queue in order.", r'''
(def queue (into (:tickets page1) (:tickets (tool/ticket-list {:queue "eu-standard" :page 2}))))
(println (count queue) "tickets")
(doseq [[i t] (map vector (range 1 100) queue)]
  (println i (:channel t) (:sla_due t) (:subject t)))
''')

s.turn("Reading every ticket in full; the bodies carry the order numbers and details.", r'''
(def tickets (mapv #(tool/ticket-read {:id (:id %)}) queue))
(println (count (filter :order_ref tickets)) "of" (count tickets) "name an order;"
         (count (distinct (map :customer_email tickets))) "distinct sender addresses")
(println (frequencies (map :channel tickets)))
''')

s.turn("A first classification by keywords in subject and body.", r'''
(defn classify [t]
  (let [text (clojure.string/lower-case (str (:subject t) " " (:body t)))]
    (cond
      (re-find #"refund|charged twice|damaged|wrong size" text) "refund"
      (re-find #"where is my order|delivered|tracking|customs" text) "shipping"
      (re-find #"log ?in|password|sso|locked" text) "access"
      (re-find #"500|error|fails|firmware" text) "bug"
      (re-find #"how do i|how to|can i" text) "how-to"
      :else "other")))
(def categories (mapv classify tickets))
(println (frequencies categories))
''')

s.turn("One ticket fits no rule. What is it?", r'''
(doseq [t (filter #(= "other" (classify %)) tickets)]
  (println (:subject t) "|" (:customer_email t) "|" (:body t)))
''')

s.turn("A VAT correction on an invoice is billing. Adding that rule before the how-to one:", r'''
(defn classify [t]
  (let [text (clojure.string/lower-case (str (:subject t) " " (:body t)))]
    (cond
      (re-find #"refund|charged twice|damaged|wrong size" text) "refund"
      (re-find #"where is my order|delivered|tracking|customs" text) "shipping"
      (re-find #"log ?in|password|sso|locked" text) "access"
      (re-find #"500|error|fails|firmware" text) "bug"
      (re-find #"vat|invoice shows" text) "billing"
      (re-find #"how do i|how to|can i" text) "how-to"
      :else "other")))
(def categories (mapv classify tickets))
(println (frequencies categories))
''')

s.turn("Now the customers behind the sender addresses.", r'''
(def customers
  (into {} (map (fn [e] [e (tool/customer-lookup {:email e})])
                (distinct (map :customer_email tickets)))))
''', "tool")

s.turn("Two senders wrote their address with capitals; the accounts are stored lower-case. Keeping the ticket's spelling as the key:", r'''
(def customers
  (into {} (map (fn [e] [e (tool/customer-lookup {:email (clojure.string/lower-case e)})])
                (distinct (map :customer_email tickets)))))
(doseq [c (distinct (vals customers))]
  (println (:name c) "|" (:plan c) "|" (or (:company c) "-") "|" (or (:account_manager c) "-") "|"
           (:open_tickets c) "open"))
''')

s.turn("Which tickets are already past their SLA?", r'''
(def breached (filter #(< (:sla_due %) (:as_of data/policy)) tickets))
(println (count breached))
''', "type")

s.turn("Timestamps are strings; they are all UTC in the same format, so compare works.", r'''
(def breached (filterv #(neg? (compare (:sla_due %) (:as_of data/policy))) tickets))
(println (count breached) "breached:")
(doseq [t breached]
  (println (:sla_due t) (:subject t) "-" (:name (customers (:customer_email t)))))
''')

s.turn("The SSO ticket is breached and from an enterprise customer. All enterprise tickets:", r'''
(defn customer-of [t] (customers (:customer_email t)))
(def enterprise (filterv #(= "enterprise" (:plan (customer-of %))) tickets))
(doseq [t enterprise]
  (println (:sla_due t) (:name (customer-of t)) "-" (:subject t)))
''')

s.turn("Three of the five are Nordlicht Logistik's. The damaged scanners first: that ticket names no order, so Nordlicht's orders:", r'''
(def nl-orders (tool/order-search {:customer_id "CUS-20931"}))
(doseq [o nl-orders]
  (println (:order_id o) (:placed o) (:status o) (:items o) "items" (:total_eur o) "EUR"))
''')

s.turn("The most recent one, %s, delivered last week, must be it." % GUESSED, r'''
(def nordlicht-order "%s")
(def nl-order (tool/order-get {:order_id nordlicht-order}))
(doseq [i (:items nl-order)]
  (println (:sku i) (:name i) (:qty i) "x" (:price_eur i)))
(println (:shipment nl-order))
''' % GUESSED)

s.turn("Three HS-40 at %s each on it; two arrived cracked:" % GUESS_PRICE, r'''
(def nordlicht-refund (* 2 %s))
(println "refund for 2 x HS-40 on" nordlicht-order ":" nordlicht-refund "EUR")
''' % GUESS_PRICE)

s.turn("Above the tier-1 limit either way. What does the knowledge base say about damaged items?", r'''
(def kb-damaged (tool/kb-search {:query "damaged cracked scanner refund"}))
(doseq [a kb-damaged]
  (println (:article_id a) (:score a) (:title a)))
''')

s.turn("Next the duplicate charge on Pieter de Vries's order.", r'''
(def dv-order (tool/order-get {:order_id "%s"}))
(println "total" (:total_eur dv-order) "payment" (:payment dv-order))
''' % DV_ORDER)

s.turn("Captured twice (%s EUR for a %s EUR order). One capture back; that is under the limit." % (
    O[DV_ORDER]["payment"]["captured_eur"], DV_AMOUNT), r'''
(def dv-refund (tool/refund-issue {:order_id "%s" :amount_eur %s :reason "duplicate card capture"}))
(println dv-refund)
''' % (DV_ORDER, DV_AMOUNT))

s.turn("Sofia Marin got the wrong size and wants her money back. A helper that refunds one item of an order:", r'''
(defn refund-item [order-id sku reason]
  (let [o (tool/order-get {:order_id order-id})
        it (first (filter #(= sku (:sku %%)) (:items o)))]
    (tool/refund-issue {:order_id order-id :amount_eur (* (:qty it) (:price_eur it)) :reason reason})))
(def marin-order (tool/order-get {:order_id "%s"}))
(println (map (juxt :sku :name :qty :price_eur) (:items marin-order)))
''' % MARIN_ORDER)

s.turn("The trail runners are TR-W38.", r'''
(def marin-refund (refund-item "%s" "TR-W38"))
(println marin-refund)
''' % MARIN_ORDER, "arity")

s.turn("refund-item needs the reason too.", r'''
(def marin-refund (refund-item "%s" "TR-W38" "wrong size delivered (38 instead of 39), customer wants a refund"))
(println marin-refund)
''' % MARIN_ORDER)

s.turn("Now the shipping tickets. Ana Ferreira's docking stations:", r'''
(def ferreira-order (tool/order-get {:order_id "ORD-2024-117655"}))
(println (:placed ferreira-order) (:status ferreira-order) (:shipment ferreira-order))
(println (map :text (:messages (first (filter #(= "ORD-2024-117655" (:order_ref %)) tickets)))))
''')

s.turn("Held at customs with DHL, expected %s. Tomasz Nowak's headset, and the address on his account:" % FERREIRA["eta"], r'''
(def nowak-order (tool/order-get {:order_id "ORD-2024-118577"}))
(def nowak (tool/customer-lookup {:customer_id "CUS-40266"}))
(println "carrier:" (:carrier (:shipment nowak-order)) (:tracking (:shipment nowak-order)) (:status (:shipment nowak-order)))
(println "delivered to:" (:delivered_to (:shipment nowak-order)))
(println "account address:" (:address nowak))
''')

s.prose("""Where the triage stands:

- Refunds: the duplicate charge of Pieter de Vries is refunded (%s, %s EUR) and Sofia Marin's wrong-size trail runners (%s, %s EUR). Nordlicht Logistik's two damaged HS-40 scanners come to %s EUR on %s, above the 200 EUR tier-1 limit, so that needs Jonas Falk's approval.
- Shipping: Ana Ferreira's order is held at customs (DHL %s, eta %s); Tomasz Nowak's headset went to %s, not his address.
- Enterprise: Claire Dubois's API export bug and SSO outage, Mara Lindqvist's firmware failure.
- Three tickets are past their SLA.

Next: the escalations, then category, priority, team and article on every ticket.""" % (
    DV_REFUND_ID, DV_AMOUNT, MARIN_REFUND_ID, MARIN_AMOUNT, 2 * GUESS_PRICE, GUESSED, FERREIRA["tracking"],
    FERREIRA["eta"], NOWAK["delivered_to"]))

s.turn("Before escalating the Nordlicht refund: has Mara Lindqvist written anything more since?", r'''
(doseq [t (filter #(= "Mara Lindqvist" (:name (customer-of %))) tickets)]
  (println (:id t) (:created t) (:order_ref t) "|" (:subject t))
  (println "   " (:body t)))
''')

s.turn("Her follow-up names %s, delivered on 22 April, and says the later order is fine. I had the wrong order; correcting it and the refund:" % DAMAGED, r'''
(def nordlicht-order "%s")
(def nl-order (tool/order-get {:order_id nordlicht-order}))
(def scanner (first (filter #(= "HS-40" (:sku %%)) (:items nl-order))))
(def nordlicht-refund (* 2 (:price_eur scanner)))
(println nordlicht-order (:placed nl-order) "HS-40 at" (:price_eur scanner) "-> refund" nordlicht-refund "EUR")
''' % DAMAGED)

s.turn("%s EUR on %s. Trying the refund; the tool should refuse it above the limit." % (NL_REFUND, DAMAGED), r'''
(def nl-refund (tool/refund-issue {:order_id "%s" :amount_eur %s
                                   :reason "2 HS-40 scanners arrived with cracked screens"}))
(println nl-refund)
''' % (DAMAGED, NL_REFUND))

s.turn("Refused as expected. Escalating to account management for Jonas Falk's approval.", r'''
(def nl-escalation (tool/escalate {:ticket_id "TCK-60412" :to "account-management"
                                   :reason "%s"}))
(println nl-escalation)
''' % NL_REASON)

KB_QUERIES = [("TCK-60412", "damaged cracked refund"), ("TCK-60415", "charged twice refund"),
              ("TCK-60419", "customs shipping delay"), ("TCK-60423", "account locked password reset"),
              ("TCK-60427", "api export 500"), ("TCK-60430", "change invoice address"),
              ("TCK-60436", "wrong size return"), ("TCK-60441", "vat invoice corrected"),
              ("TCK-60444", "hs-40 firmware update error"), ("TCK-60457", "sso new users provisioned"),
              ("TCK-60463", "delivered not received wrong address"), ("TCK-60470", "export order history csv")]

s.turn("Now an article for every ticket but the duplicates, searched per ticket.", r'''
(def kb
  (into {} (map (fn [[id q]] [id (tool/kb-search {:query q :limit 2})])
                [%s])))
(doseq [[id hits] kb]
  (println (subs id 4) (:article_id (first hits)) (:score (first hits)) (:title (first hits))))
''' % "\n                 ".join('["%s" "%s"]' % p for p in KB_QUERIES))

s.turn("Every ticket has a fitting article. Escalating Claire Dubois's API bug and Nordlicht's firmware failure to engineering.", r'''
(def bug-escalations
  (mapv (fn [[id reason]] (tool/escalate {:ticket_id id :to "engineering-l2" :reason reason}))
        [["TCK-60427" "%s"]
         ["TCK-60444" "%s"]]))
(doseq [e bug-escalations]
  (println (:ticket_id e) (:escalation_id e) (:response_sla_minutes e) "min"))
''' % (API_REASON, FW_REASON))

s.turn("The SSO ticket goes to identity. How long has it been breached?", r'''
(def sso (first (filter #(= "TCK-60457" (:id %)) tickets)))
(println "breached for" (minutes-between (:sla_due sso) (:as_of data/policy)) "minutes")
''', "unbound_symbol")

s.turn("No date arithmetic at hand; the breach time is enough for the escalation.", r'''
(def sso-escalation (tool/escalate {:ticket_id "TCK-60457" :to "identity"
                                    :reason "%s"}))
(println sso-escalation)
''' % SSO_REASON)

s.turn("Updating Ana Ferreira's ticket first, with the tracking in the note.", r'''
(def u-ferreira (tool/ticket-update {:id "TCK-60419" :category "shipping-delay" :priority "urgent" :team "logistics"
                                     :kb_article "KB-0977" :note "DHL %s held at customs, eta %s"}))
(println u-ferreira)
''' % (FERREIRA["tracking"], FERREIRA["eta"]), "tool")

s.turn("The category is just shipping. Rather than one at a time, the whole plan: category (duplicates overridden), priority by the policy, team and article.", r'''
(def duplicates {"TCK-60452" "TCK-60415" "TCK-60488" "TCK-60412"})
(defn priority-of [t category]
  (cond
    (some #(= (:id t) (:id %)) breached) "urgent"
    (= "enterprise" (:plan (customer-of t))) "high"
    (= "how-to" category) "low"
    :else "normal"))
(def plan
  (vec (for [[t c] (map vector tickets categories)
             :let [category (if (duplicates (:id t)) "duplicate" c)]]
         {:id (:id t) :category category :priority (priority-of t category)
          :team (get-in data/policy [:teams (keyword category)])
          :kb_article (:article_id (first (kb (:id t))))})))
(doseq [p plan]
  (println (format "%-6s %-10s %-7s %-15s %s" (subs (:id p) 4) (:category p) (:priority p)
                   (or (:team p) "-") (or (:kb_article p) "-"))))
''')

NOTES = [
    ("TCK-60412", "2 x HS-40 cracked on %s, refund %s EUR awaiting approval (%s)" % (DAMAGED, NL_REFUND, NL_ESC)),
    ("TCK-60415", "duplicate capture refunded: %s, %s EUR" % (DV_REFUND_ID, DV_AMOUNT)),
    ("TCK-60419", "DHL %s held at customs, eta %s" % (FERREIRA["tracking"], FERREIRA["eta"])),
    ("TCK-60427", "escalated %s" % API_ESC),
    ("TCK-60436", "TR-W38 refunded: %s, %s EUR" % (MARIN_REFUND_ID, MARIN_AMOUNT)),
    ("TCK-60444", "escalated %s" % FW_ESC),
    ("TCK-60452", "duplicate of TCK-60415 (refund %s)" % DV_REFUND_ID),
    ("TCK-60457", "escalated %s" % SSO_ESC),
    ("TCK-60463", "InPost %s delivered to %s, not the account address; carrier claim" % (
        NOWAK["tracking"], NOWAK["delivered_to"])),
    ("TCK-60488", "duplicate of TCK-60412, names the order %s" % DAMAGED),
]

s.turn("Applying it, each update with a note where I have one.", r'''
(def notes
  {%s})
(def updates (mapv #(tool/ticket-update (assoc %% :note (get notes (:id %%) ""))) plan))
(println (count (filter :ok updates)) "updated" (frequencies (map :status updates)))
(println (frequencies (map :priority updates)))
''' % "\n   ".join('"%s" "%s"' % p for p in NOTES))

s.turn("All fourteen done, two closed as duplicates. How much did tier 1 refund in all?", r'''
(def refunds [dv-refund marin-refund])
(println (count (filter :ok refunds)) "refunds issued:" (reduce + (map :amount_eur refunds)) "EUR")
''')

BY_CAT = {}
for tk, cat in [("TCK-60412", "refund"), ("TCK-60415", "refund"), ("TCK-60419", "shipping"), ("TCK-60423", "access"),
                ("TCK-60427", "bug"), ("TCK-60430", "how-to"), ("TCK-60436", "refund"), ("TCK-60441", "billing"),
                ("TCK-60444", "bug"), ("TCK-60452", "duplicate"), ("TCK-60457", "access"),
                ("TCK-60463", "shipping"), ("TCK-60470", "how-to"), ("TCK-60488", "duplicate")]:
    BY_CAT.setdefault(cat, []).append(tk)


def q(xs):
    return " ".join('"%s"' % x for x in xs)


s.cut("Everything is filed. The triage, with the reasoning for each escalation:", r'''
(def triage
  {:by-category {:refund [%s] :shipping [%s] :access [%s] :bug [%s]
                 :billing [%s] :how-to [%s]}
   :refunds-issued [{:ticket "TCK-60415" :order "%s" :refund "%s" :eur %s}
                    {:ticket "TCK-60436" :order "%s" :refund "%s" :eur %s}]
   :refunds-pending [{:ticket "TCK-60412" :order "%s" :eur %s :approver "%s" :escalation "%s"
                      :why (str "above the tier-1 limit of " (:refunds data/policy''' % (
    q(BY_CAT["refund"]), q(BY_CAT["shipping"]), q(BY_CAT["access"]), q(BY_CAT["bug"]), q(BY_CAT["billing"]),
    q(BY_CAT["how-to"]), DV_ORDER, DV_REFUND_ID, DV_AMOUNT, MARIN_ORDER, MARIN_REFUND_ID, MARIN_AMOUNT, DAMAGED,
    NL_REFUND, LINDQVIST["account_manager"], NL_ESC))

s.turn("The answer was cut off. The same triage with plain values:", r'''
(def triage
  {:by-category {:refund [%s] :shipping [%s] :access [%s] :bug [%s]
                 :billing [%s] :how-to [%s]}
   :refunds-issued [{:ticket "TCK-60415" :refund "%s" :eur %s}
                    {:ticket "TCK-60436" :refund "%s" :eur %s}]
   :refunds-pending [{:ticket "TCK-60412" :order "%s" :eur %s :approver "%s"}]
   :escalations {"TCK-60412" "%s" "TCK-60427" "%s" "TCK-60444" "%s" "TCK-60457" "%s"}
   :duplicates {"TCK-60452" "TCK-60415" "TCK-60488" "TCK-60412"}})
(println (:refunds-pending triage))
(println (:escalations triage))
''' % (q(BY_CAT["refund"]), q(BY_CAT["shipping"]), q(BY_CAT["access"]), q(BY_CAT["bug"]), q(BY_CAT["billing"]),
       q(BY_CAT["how-to"]), DV_REFUND_ID, DV_AMOUNT, MARIN_REFUND_ID, MARIN_AMOUNT, DAMAGED, NL_REFUND,
       LINDQVIST["account_manager"], NL_ESC, API_ESC, FW_ESC, SSO_ESC))

s.turn("Does the triage cover every ticket exactly once, and match what the tool recorded?", r'''
(def covered (concat (mapcat val (:by-category triage)) (keys (:duplicates triage))))
(println (count covered) "covered," (count (distinct covered)) "distinct of" (count tickets))
(println "categories agree with the updates:"
         (= (set covered) (set (map :id updates))))
''')

s.turn("Every ticket is triaged once.", r'''
(return triage)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
