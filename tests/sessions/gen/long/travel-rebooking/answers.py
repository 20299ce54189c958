#!/usr/bin/env python3
"""The model answers of the travel-rebooking session.
PNRs, ticket numbers (old and new), flight numbers, local times with their
offsets, fare bases, seats, hotel confirmations, the pre-approval id and the
amounts the agent reuses are taken from world.py (and tool.py's numbering),
as the model takes them from the prints of earlier turns. Two corrections,
each after the old value was printed and used: the Boston pair (Li Wei,
Daniel Okafor), whose LH 423 is diverted to Munich, is first planned on
LH 1792 MUC 14:30 -> LIS 16:45 because the flight status's 12:55 (UTC) is
read as local time, a 95-minute connection; the rebooking is refused, the
connection is 35 minutes (13:55+01:00 -> 14:30+01:00, MCT 50), and
`itinerary` is redefined for the two of them to LH 1790 MUC 06:55 -> LIS
09:10 the next morning with a night at an airport hotel. The additional
cost is first converted at the last closing rate the FX tool gives by
default (2025-03-10, EUR 0.9531: CHF 2644.78), printed and checked against
the budget; when the card charges of the new tickets do not match, it is
redone at the booking day's desk rate (2025-03-11, EUR 0.9584) with the
hotel nights (`total-cost` redefined: CHF 2937.52). The pre-approval, the
notifications and the result use only the new values."""
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

PNR = {b[0]: pnr for pnr, b in w.BOOKINGS.items()}
TICKET = {emp: w.BOOKINGS[PNR[emp]][1] for emp in w.TEAM}
NAME = {emp: w.PEOPLE[emp][0] for emp in w.PEOPLE}
MARC, WEI, SABINE, JANA, LUKAS, LI, DANIEL = w.TEAM
BASEL2, VIENNA, BOSTON = [WEI, SABINE], [JANA, LUKAS], [LI, DANIEL]
NOVAK = "E-10664"


def seg(oid, i=0):
    return w.OPTIONS[oid][0][i]


LX, TP_ZRH, TP_VIE, LH_OLD, LH_NEW = seg("ZRH-1"), seg("ZRH-2"), seg("VIE-2"), seg("MUC-1"), seg("MUC-4")
assert (LX[0], TP_ZRH[0], TP_VIE[0], LH_OLD[0], LH_NEW[0]) == ("LX 2086", "TP 927", "TP 1279", "LH 1792", "LH 1790")


def rebook(emp, flight, basis):
    return t.tr_rebook({"pnr": PNR[emp], "ticket": TICKET[emp], "flights": [flight[0]], "date": flight[4][:10],
                        "fare_basis": basis})


R = {WEI: rebook(WEI, LX, "MCLASSCH"), SABINE: rebook(SABINE, LX, "MCLASSCH"), MARC: rebook(MARC, TP_ZRH, "UCLASSCH"),
     JANA: rebook(JANA, TP_VIE, "UCLASSAT"), LUKAS: rebook(LUKAS, TP_VIE, "UCLASSAT"),
     LI: rebook(LI, LH_NEW, "KCLASSDE"), DANIEL: rebook(DANIEL, LH_NEW, "KCLASSDE")}
NT = {e: r["new_ticket"] for e, r in R.items()}
SEAT = {e: r["segments"][0]["seat"] for e, r in R.items()}
assert SEAT[WEI][:-1] == SEAT[SABINE][:-1] and SEAT[JANA][:-1] == SEAT[LUKAS][:-1] and SEAT[LI][:-1] == SEAT[DANIEL][:-1]
assert len(set(NT.values())) == 7

HOTEL_ID, HOTEL = "MUC-H02", w.HOTELS_MUC["MUC-H02"]
H = {e: t.tr_hotel_book({"hotel_id": HOTEL_ID, "employee_id": e, "checkin": w.TODAY, "nights": 1,
                         "rate_code": HOTEL[6]}) for e in BOSTON}
CONF = {e: h["confirmation"] for e, h in H.items()}


def cents(x):
    return int(x * 100.0 + 0.5) / 100.0


FARE = {WEI: 436.0, SABINE: 436.0, MARC: 488.0, JANA: 318.0, LUKAS: 318.0, LI: 356.0, DANIEL: 356.0}
CUR = {WEI: "CHF", SABINE: "CHF", MARC: "CHF", JANA: "EUR", LUKAS: "EUR", LI: "EUR", DANIEL: "EUR"}
for e in w.TEAM:
    assert R[e]["fare"] == {"amount": FARE[e], "currency": CUR[e]}
OLD_RATE, NEW_RATE = w.FX["2025-03-10"], w.FX["2025-03-11"]
OLD_TOTAL = cents(sum(cents(FARE[e] * (1.0 if CUR[e] == "CHF" else OLD_RATE[CUR[e]])) for e in w.TEAM))
NEW_LINES = [cents(FARE[e] * (1.0 if CUR[e] == "CHF" else NEW_RATE[CUR[e]])) for e in w.TEAM] + \
            [cents(HOTEL[5] * NEW_RATE["EUR"]) for _ in BOSTON]
NEW_TOTAL = cents(sum(NEW_LINES))
assert "%.2f" % OLD_TOTAL == "2644.78" and "%.2f" % NEW_TOTAL == "2937.52", (OLD_TOTAL, NEW_TOTAL)
AVAIL_AFTER = cents(w.budget_available() - NEW_TOTAL)
PA = t.tr_expense_preapproval({"cost_center": w.COST_CENTER, "amount_chf": NEW_TOTAL, "reason": "x"})
PA_ID = PA["preapproval_id"]
REFUND = {"CHF": cents(3 * 306.20), "EUR": cents(2 * 274.15), "USD": cents(2 * 214.60)}
LI_ETA_LOCAL = "13:55"


def hm(ts):
    return ts[11:16]


def f2(x):
    return "%.2f" % x


def money(x):
    return "{:,.2f}".format(x)


# --- the session -------------------------------------------------------------------------

s.turn("I'll read the brief and pull today's bookings first.", r'''
(def brief data/brief)
(println (:situation brief))
(println "event:" (get-in brief [:event :name]) "|" (get-in brief [:event :setup]) "|" (get-in brief [:event :deadline]))
(doseq [m (:team brief)]
  (println (format "%-8s %-20s %-7s %s" (:employee_id m) (:name m) (:office m) (:role m))))
(def bookings (tool/tr-bookings {}))
(println (:count bookings) "bookings travelling on" (:travel_date bookings) "as of" (:as_of bookings))
(println (first (:bookings bookings)))
''')

s.turn("Ten bookings for seven team members. All of them as a table, and which ones are the team's (by employee id, since GDS names are easy to mix up):", r'''
(doseq [b (:bookings bookings)]
  (println (format "%-6s %-22s %-7s %s %-7s %8.2f %s | %s" (:pnr b) (:traveller b) (:employee_id b) (:ticket b)
                   (:fare_basis b) (get-in b [:ticket_total :amount]) (get-in b [:ticket_total :currency])
                   (str/join " + " (map #(str (:flight %) " " (:from %) "-" (:to %) " " (subs (:dep %) 11 16) " " (:status %))
                                        (:segments b))))))
(def roster (into {} (map (juxt :employee_id identity) (:team brief))))
(def team-bookings (filter #(contains? roster (:employee_id %)) (:bookings bookings)))
(println (count team-bookings) "team bookings:" (str/join ", " (map #(str (:traveller %) "=" (:pnr %)) team-bookings)))
''')

s.turn("Two pairs of look-alike names: WEI/LI MS and LI/WEI MR are both on the team (Basel and Boston), and NOVAK/JANA is not Jana Nováková. Side by side before I touch anything:", r'''
(doseq [b (sort-by :traveller (filter #(re-find #"NOVAK|LI/WEI|WEI/LI" (:traveller %)) (:bookings bookings)))]
  (println (:traveller b) (:pnr b) (:ticket b) (:employee_id b) "|" (or (:name (roster (:employee_id b))) "NOT ON THE TEAM")
           (:office b) "|" (str/join " " (map :flight (:segments b))) "| return" (:return b)))
''')

s.turn("So: Wei Li (Basel) is L4KTZP, Li Wei (Boston) is HX3D9R; QX7P2M is Jana Novak's Hamburg trip, not ours. Now the status of the team's flights:", r'''
(def status (tool/tr-flight-status {:flights ["LH 1207" "LH 1233" "LH 423" "LH 1166"]}))
(println "feed:" (:feed status) "| closure:" (first (:closures status)))
(doseq [f (:flights status)]
  (println (format "%-8s %s-%s %-10s" (:flight f) (:from f) (:to f) (:status f))
           (if (:est_arr f) (str "-> " (:diverted_to f) " est. " (subs (:est_arr f) 11 16)) "") "|" (:remark f)))
''')

s.turn("All FRA flights are cancelled; the Boston pair's LH 423 is diverted to Munich, estimated at 12:55, so they need an onward flight from MUC. The policy before I search:", r'''
(def policy (tool/tr-travel-policy {}))
(doseq [[k v] policy]
  (println (str (name k) ":") v))
''')

s.turn("Economy, changeable fares, CHF 700 cap, MCT, booking-day rates. What the original tickets allow:", r'''
(def original-rules
  (into {} (pmap (fn [fb] [fb (tool/tr-fare-rules {:fare_basis fb})]) ["VLOWCH" "VLOWAT" "KLOWUS"])))
(doseq [[fb r] original-rules]
  (println fb "|" (:family r) "|" (:changes r) "|" (:refund r)))
(println "involuntary:" (:involuntary (original-rules "VLOWCH")))
(println "waiver:" (:waiver (original-rules "VLOWCH")))
''')

s.turn("The waiver lets us reroute on any carrier; the unused outbound coupons are refunded and the returns stay. The Basel three first: from Basel and from Zurich.", r'''
(defn show-options
  "Prints an availability result: each option's flights with local times and offsets, then its fares."
  [res]
  (println "==" (:from res) "->" (:to res) (:date res) "|" (:airport_note res))
  (doseq [o (:options res)]
    (println (:option o) (str/join " / " (map #(str (:flight %) " " (:from %) " " (subs (:dep %) 11) " -> " (:to %) " "
                                                   (subs (:arr %) 11))
                                              (:segments o)))
             (:duration o) (or (:connection o) "") (or (:remark o) ""))
    (doseq [f (:fares o)]
      (println (format "    %-9s %s %-9s %-8s %8s %s seats %d" (:fare_basis f) (:class f) (:family f) (:cabin f)
                       (:price f) (:currency f) (:seats f))))))
(def avail-basel (vec (pmap #(tool/tr-availability {:from % :to "LIS" :date "2025-03-11"}) ["BSL" "ZRH"])))
(run! show-options avail-basel)
''')

s.turn("Air France is sold out in economy and easyJet is not bookable. LX 2086 has 2 seats in M, TP 927 is later. The rules of the candidate fares:", r'''
(def new-rules
  (into {} (pmap (fn [fb] [fb (tool/tr-fare-rules {:fare_basis fb})]) ["MCLASSCH" "YFLEXCH" "UCLASSCH" "ADISCCH" "EZSTD"])))
(doseq [[fb r] new-rules]
  (println (format "%-9s %-3s %-9s %-8s %-48s %s" fb (:carrier r) (:family r) (:cabin r) (:changes r) (:refund r))))
''')

s.turn(fill("MCLASSCH is changeable for CHF 70: in policy. The two M seats on LX 2086 go now, before someone else takes them: Wei Li (<<P1>>) and Sabine Gerber (<<P2>>).",
            P1=PNR[WEI], P2=PNR[SABINE]), fill(r'''
(def rebooked-basel
  [(tool/tr-rebook {:pnr "<<P1>>" :ticket "<<T1>>" :flights ["LX 2086"] :date "2025-03-11" :fare_basis "MCLASSCH"})
   (tool/tr-rebook {:pnr "<<P2>>" :ticket "<<T2>>" :flights ["LX 2086"] :date "2025-03-11" :fare_basis "MCLASSCH"})])
(doseq [r rebooked-basel]
  (println (:status r) (:pnr r) (:traveller r) "new ticket" (:new_ticket r) (map (juxt :flight :dep :arr :seat) (:segments r))
           (:fare r) "| refund" (:refund_pending r)))
''', P1=PNR[WEI], T1=TICKET[WEI], P2=PNR[SABINE], T2=TICKET[SABINE]))

s.turn(fill("Both ticketed, seats <<S1>>/<<S2>>. Marc is the team lead and signs for the booth at setup; TP 927 only lands at 21:05. LX 2086 still has Y Flex, and the policy has a flex exception, so Marc on the same flight:",
            S1=SEAT[WEI], S2=SEAT[SABINE]), fill(r'''
(def rebooked-marc
  (tool/tr-rebook {:pnr "<<P>>" :ticket "<<T>>" :flights ["LX 2086"] :date "2025-03-11" :fare_basis "YFLEXCH"}))
(println rebooked-marc)
''', P=PNR[MARC], T=TICKET[MARC]), "tool")

s.turn("Refused: 2 h 45 min is not more than 3 h, so the exception does not apply. Marc takes TP 927 in UCLASSCH (CHF 488, change fee CHF 60):", fill(r'''
(def rebooked-marc
  (tool/tr-rebook {:pnr "<<P>>" :ticket "<<T>>" :flights ["TP 927"] :date "2025-03-11" :fare_basis "UCLASSCH"}))
(println (:status rebooked-marc) (:pnr rebooked-marc) (:traveller rebooked-marc) "new ticket" (:new_ticket rebooked-marc)
         (map (juxt :flight :dep :arr :seat) (:segments rebooked-marc)) (:fare rebooked-marc) "| refund" (:refund_pending rebooked-marc))
''', P=PNR[MARC], T=TICKET[MARC]))

s.turn("Basel is done. Vienna (Jana Nováková, Lukas Brandstätter) and Munich for the Boston pair:", r'''
(def avail-vie (tool/tr-availability {:from "VIE" :to "LIS" :date "2025-03-11"}))
(def avail-muc (tool/tr-availability {:from "MUC" :to "LIS" :date "2025-03-11"}))
(show-options avail-vie)
(show-options avail-muc)
''')

s.turn("Rules of the Vienna and Munich fares I could use:", r'''
(def rules-vie-muc
  (into {} (pmap (fn [fb] [fb (tool/tr-fare-rules {:fare_basis fb})])
                 ["LLIGHTAT" "KCLASSAT" "ADISCAT" "UCLASSAT" "KCLASSDE" "YFLEXDE" "JEXECDE"])))
(doseq [[fb r] rules-vie-muc]
  (println (format "%-9s %-3s %-9s %-8s %-48s %s" fb (:carrier r) (:family r) (:cabin r) (:changes r) (:baggage r))))
''')

s.turn("For Vienna the cheapest changeable fare is TP 1279 direct in UCLASSAT, EUR 318 (EUR 60 to change), landing 17:55: in time for setup. For the Boston pair, the connection from LH 423 at MUC to each Munich departure:", r'''
(def li-eta (:est_arr (first (filter #(= "LH 423" (:flight %)) (:flights status)))))
(defn hhmm->min [s] (+ (* 60 (parse-long (subs s 0 2))) (parse-long (subs s 3 5))))
(def muc-options
  (for [o (:options avail-muc)
        :let [sg (first (:segments o))]]
    {:option (:option o) :flight (:flight sg) :dep (:dep sg) :arr (:arr sg)
     :connection (- (hhmm->min (subs (:dep sg) 11 16)) (hhmm->min (subs li-eta 11 16)))
     :economy (filter #(and (= "economy" (:cabin %)) (pos? (:seats %))) (:fares o))}))
(doseq [m muc-options]
  (println (:flight m) (subs (:dep m) 11 16) "->" (subs (:arr m) 11 16) "connection" (:connection m) "min"
           (if (>= (:connection m) 50) "ok" "too short") "| economy:" (map (juxt :fare_basis :price :seats) (:economy m))))
''')

s.turn("LH 1792 at 14:30 leaves 95 minutes after LH 423 lands, above the 50-minute MCT, with 3 seats in KCLASSDE (EUR 356). TP 559 only has business, LH 1794 is full. The plan for all seven:", fill(r'''
(defn booked
  "An itinerary entry from a rebooking result."
  [r]
  {:pnr (:pnr r) :ticket (:old_ticket r) :new_ticket (:new_ticket r) :flights (mapv :flight (:segments r))
   :date (subs (:dep (first (:segments r))) 0 10) :fare_basis (get-in r [:segments 0 :fare_basis])
   :dep (:dep (first (:segments r))) :arr (:arr (last (:segments r)))
   :amount (format "%.2f" (get-in r [:fare :amount])) :currency (get-in r [:fare :currency]) :status "ticketed"})
(def itinerary
  {"E-11382" (booked (first rebooked-basel))
   "E-10981" (booked (second rebooked-basel))
   "E-10457" (booked rebooked-marc)
   "E-30215" {:pnr "<<PJ>>" :ticket "<<TJ>>" :flights ["TP 1279"] :date "2025-03-11" :fare_basis "UCLASSAT"
              :dep "<<VD>>" :arr "<<VA>>" :amount "318.00" :currency "EUR" :status "planned"}
   "E-30248" {:pnr "<<PL>>" :ticket "<<TL>>" :flights ["TP 1279"] :date "2025-03-11" :fare_basis "UCLASSAT"
              :dep "<<VD>>" :arr "<<VA>>" :amount "318.00" :currency "EUR" :status "planned"}
   "E-20417" {:pnr "<<PW>>" :ticket "<<TW>>" :flights ["LH 1792"] :date "2025-03-11" :fare_basis "KCLASSDE"
              :dep "<<MD>>" :arr "<<MA>>" :amount "356.00" :currency "EUR" :status "planned"}
   "E-20533" {:pnr "<<PO>>" :ticket "<<TO>>" :flights ["LH 1792"] :date "2025-03-11" :fare_basis "KCLASSDE"
              :dep "<<MD>>" :arr "<<MA>>" :amount "356.00" :currency "EUR" :status "planned"}})
(doseq [[id it] itinerary]
  (println (format "%-8s %-19s %-6s %-8s %-9s %s -> %s %7s %s %s" id (:name (roster id)) (:pnr it)
                   (str/join "+" (:flights it)) (:fare_basis it) (:dep it) (:arr it) (:amount it) (:currency it) (:status it))))
''', PJ=PNR[JANA], TJ=TICKET[JANA], PL=PNR[LUKAS], TL=TICKET[LUKAS], VD=TP_VIE[4], VA=TP_VIE[5],
    PW=PNR[LI], TW=TICKET[LI], PO=PNR[DANIEL], TO=TICKET[DANIEL], MD=LH_OLD[4], MA=LH_OLD[5]))

s.turn("Four of the fares are in EUR; the budget is in CHF. Exchange rates:", r'''
(def fx-res (tool/tr-fx-rates {}))
(def fx (into {"CHF" 1.0} (map (juxt :currency :chf) (:rates fx-res))))
(println (:source fx-res) "|" (:quote fx-res))
(println (select-keys fx ["EUR" "USD" "GBP"]))
''')

s.turn("The additional cost of the plan in CHF:", r'''
(def total-cost
  (let [lines (for [[id it] itinerary]
                {:id id :amount (:amount it) :currency (:currency it) :chf (* (:amount it) (fx (:currency it)))})]
    {:lines lines :chf (sum (map :chf lines))}))
(println (:chf total-cost))
''', "type")

s.turn("The amounts are strings in the itinerary. Parsing them, and rounding each line to the cent:", r'''
(defn cents [x] (/ (round (* 100.0 x)) 100.0))
(def total-cost
  (let [lines (vec (for [[id it] itinerary]
                     (let [amt (parse-double (:amount it))]
                       {:id id :name (:name (roster id)) :what (str/join "+" (:flights it)) :amount amt
                        :currency (:currency it) :chf (cents (* amt (fx (:currency it))))})))]
    {:lines lines :chf (cents (sum (map :chf lines)))}))
(doseq [l (:lines total-cost)]
  (println (format "%-8s %-19s %-8s %8.2f %s = CHF %8.2f" (:id l) (:name l) (:what l) (:amount l) (:currency l) (:chf l))))
(println "additional cost:" (format "CHF %.2f" (:chf total-cost)))
''')

s.turn(fill("CHF <<T>> in all. Does it fit the event's cost center?", T=f2(OLD_TOTAL)), r'''
(def budget (tool/tr-budget {:cost_center "CC-4410" :check_amount_chf (:chf total-cost)}))
(doseq [l (:lines budget)]
  (println (format "  %-48s %10.2f" (:item l) (:amount l))))
(println "budget" (:budget budget) "committed" (:committed budget) "available" (:available budget) "| check" (:check budget))
''')

s.turn("It fits, and being above CHF 1,000 it needs a pre-approval, which the policy lets me get after ticketing. The Vienna pair on TP 1279:", r'''
(def rebooked-vie
  (vec (for [id ["E-30215" "E-30248"]]
         (let [it (itinerary id)]
           (tool/tr-rebook {:pnr (:pnr it) :ticket (:ticket it) :flights (:flights it) :date (:date it)
                            :fare_basis (:fare_basis it)})))))
(doseq [r rebooked-vie]
  (println (:status r) (:pnr r) (:traveller r) "new ticket" (:new_ticket r) (map (juxt :flight :dep :arr :seat) (:segments r))
           (:fare r) "| refund" (:refund_pending r)))
''')

s.turn("Ticketed. Now Li Wei and Daniel Okafor from Munich:", r'''
(def rebooked-bos
  (vec (for [id ["E-20417" "E-20533"]]
         (let [it (itinerary id)]
           (tool/tr-rebook {:pnr (:pnr it) :ticket (:ticket it) :flights (:flights it) :date (:date it)
                            :fare_basis (:fare_basis it)})))))
(doseq [r rebooked-bos]
  (println (:status r) (:pnr r) (:traveller r) "new ticket" (:new_ticket r) (map (juxt :flight :dep :arr :seat) (:segments r))))
''', "tool")

s.turn(fill("The feed's times are UTC: LH 423 lands at 12:55Z, which is <<L>> in Munich, only 35 minutes before LH 1792. I compared a UTC time with a local one. Redoing every connection on UTC:", L=LI_ETA_LOCAL), r'''
(defn utc-min [ts] (quot (inst-ms (clojure.instant/read-instant-date ts)) 60000))
(doseq [m muc-options]
  (println (:flight m) (:dep m) "connection" (- (utc-min (:dep m)) (utc-min li-eta)) "min"))
''', "unbound_symbol")

s.turn("No instant reader here. Parsing the offset myself, then tomorrow's Munich flights:", r'''
(defn utc-min
  "Minutes since 2025-03-01T00:00Z of an ISO timestamp ending in Z or in a +hh:mm / -hh:mm offset."
  [ts]
  (let [day (parse-long (subs ts 8 10))
        hh (parse-long (subs ts 11 13))
        mm (parse-long (subs ts 14 16))
        off (subs ts 19)
        off-min (if (= off "Z") 0
                    (* (if (str/starts-with? off "-") -1 1)
                       (+ (* 60 (parse-long (subs off 1 3))) (parse-long (subs off 4 6)))))]
    (- (+ (* 1440 (dec day)) (* 60 hh) mm) off-min)))
(println "LH 423 at MUC" li-eta "(UTC)")
(doseq [m muc-options]
  (println (:flight m) (:dep m) "connection" (- (utc-min (:dep m)) (utc-min li-eta)) "min | economy seats"
           (sum (map :seats (:economy m)))))
(def avail-muc-12 (tool/tr-availability {:from "MUC" :to "LIS" :date "2025-03-12"}))
(show-options avail-muc-12)
''')

s.turn(fill("LH 1792 is 35 minutes: out. Tonight TP 559 has only Executive (business, not allowed under 6 h) and LH 1794 is full. Tomorrow LH 1790 at 06:55 lands 09:10, before the 11:00 deadline (TP 561 at 12:20 is too late); KCLASSDE EUR 356 with 5 seats. The Boston pair's plan becomes LH 1790 plus a night at a Munich airport hotel:"), fill(r'''
(def itinerary
  (merge itinerary
         {"E-20417" {:pnr "<<PW>>" :ticket "<<TW>>" :flights ["LH 1790"] :date "2025-03-12" :fare_basis "KCLASSDE"
                     :dep "<<ND>>" :arr "<<NA>>" :amount "356.00" :currency "EUR" :status "planned"
                     :hotel "MUC airport, night of 2025-03-11"}
          "E-20533" {:pnr "<<PO>>" :ticket "<<TO>>" :flights ["LH 1790"] :date "2025-03-12" :fare_basis "KCLASSDE"
                     :dep "<<ND>>" :arr "<<NA>>" :amount "356.00" :currency "EUR" :status "planned"
                     :hotel "MUC airport, night of 2025-03-11"}}))
(doseq [id ["E-20417" "E-20533"]]
  (let [it (itinerary id)]
    (println id (:name (roster id)) (:pnr it) (:flights it) (:dep it) "->" (:arr it) (:fare_basis it) (:hotel it))))
(println "arrivals in Lisbon:")
(doseq [[id it] (sort-by #(utc-min (:arr (val %))) itinerary)]
  (println "  " (:arr it) (:name (roster id)) (str/join "+" (:flights it))))
''', PW=PNR[LI], TW=TICKET[LI], PO=PNR[DANIEL], TO=TICKET[DANIEL], ND=LH_NEW[4], NA=LH_NEW[5]))

s.turn("A hotel near MUC for tonight; with a 06:55 departure they must be at the terminal by 05:55:", r'''
(def hotels (tool/tr-hotel-search {:near "MUC" :checkin "2025-03-11" :nights 1}))
(doseq [h (:hotels hotels)]
  (println (format "%-7s %-30s %4.1f km %-30s shuttle %-5s %6s %s %-8s rooms %d | %s" (:hotel_id h) (:name h)
                   (:km_to_terminal h) (:access h) (or (:first_shuttle h) "-") (:rate h) (:currency h) (:rate_code h)
                   (:rooms_left h) (:cancellation h))))
(println (:note hotels))
''')

s.turn(fill("The Skyline is over the EUR 190 cap; the Gasthof has no shuttle; the Erding shuttle at 06:00 arrives about 06:20, too late. Freisinger Hof (<<ID>>, first shuttle <<SH>>, EUR 149) is the cheapest that works. Two rooms:",
            ID=HOTEL_ID, SH=HOTEL[4]), fill(r'''
(def hotel-rooms
  (vec (for [id ["E-20417" "E-20533"]]
         (tool/tr-hotel-book {:hotel_id "<<ID>>" :employee_id id :checkin "2025-03-11" :nights 1 :rate_code "<<RC>>"}))))
(doseq [h hotel-rooms]
  (println (:confirmation h) (:guest h) "|" (:hotel h) (:checkin h) "->" (:checkout h) (:rate h) (:currency h) "| shuttle"
           (:first_shuttle h) "| breakfast" (:breakfast h) "|" (:cancellation h)))
''', ID=HOTEL_ID, RC=HOTEL[6]))

s.turn("Rooms confirmed. The Boston pair on LH 1790 tomorrow:", r'''
(def rebooked-bos
  (vec (for [id ["E-20417" "E-20533"]]
         (let [it (itinerary id)]
           (tool/tr-rebook {:pnr (:pnr it) :ticket (:ticket it) :flights (:flights it) :date (:date it)
                            :fare_basis (:fare_basis it)})))))
(doseq [r rebooked-bos]
  (println (:status r) (:pnr r) (:traveller r) "new ticket" (:new_ticket r) (map (juxt :flight :dep :arr :seat) (:segments r))
           (:fare r) "| refund" (:refund_pending r)))
''')

s.prose(fill("""Where things stand: all seven are ticketed.

- Wei Li (<<PW>>) and Sabine Gerber (<<PS>>): LX 2086 ZRH 16:25 -> LIS 18:20, seats <<SW>> and <<SS>>.
- Marc Tschudi (<<PM>>): TP 927 ZRH 19:10 -> LIS 21:05, seat <<SM>> (the flex fare on LX 2086 was refused).
- Jana Nováková (<<PJ>>) and Lukas Brandstätter (<<PL>>): TP 1279 VIE 15:20 -> LIS 17:55, seats <<SJ>> and <<SL>>.
- Li Wei (<<PLW>>) and Daniel Okafor (<<PD>>): LH 1790 MUC 06:55 -> LIS 09:10 tomorrow, seats <<SLW>> and <<SD>>, with a night at the Hotel Freisinger Hof Airport (<<CL>>, <<CD>>).

Left: reconcile what the card was charged with my cost estimate, the pre-approval, and the notifications.""",
             PW=PNR[WEI], PS=PNR[SABINE], SW=SEAT[WEI], SS=SEAT[SABINE], PM=PNR[MARC], SM=SEAT[MARC], PJ=PNR[JANA],
             PL=PNR[LUKAS], SJ=SEAT[JANA], SL=SEAT[LUKAS], PLW=PNR[LI], PD=PNR[DANIEL], SLW=SEAT[LI], SD=SEAT[DANIEL],
             CL=CONF[LI], CD=CONF[DANIEL]))

s.turn("Reconciling the card charges of the seven new tickets with my estimate, line by line:", r'''
(def rebooked (vec (concat rebooked-basel [rebooked-marc] rebooked-vie rebooked-bos)))
(doseq [r rebooked]
  (let [planned (first (filter #(= (:employee_id r) (:id %)) (:lines total-cost)))]
    (println (:traveller r) (get-in r [:fare :amount]) (get-in r [:fare :currency]) "charged CHF"
             (get-in r [:charged :amount_chf]) "planned CHF" (:chf planned)
             "diff" (round (- (get-in r [:charged :amount_chf]) (:chf planned)) 2))))
''', "arity")

s.turn("round takes one argument here; format does the rounding:", r'''
(def rebooked (vec (concat rebooked-basel [rebooked-marc] rebooked-vie rebooked-bos)))
(doseq [r rebooked]
  (let [planned (first (filter #(= (:employee_id r) (:id %)) (:lines total-cost)))
        charged (get-in r [:charged :amount_chf])]
    (println (format "%-22s %7.2f %s charged CHF %7.2f at %.4f (%s) | planned CHF %7.2f | diff %5.2f"
                     (:traveller r) (get-in r [:fare :amount]) (get-in r [:fare :currency]) charged (get-in r [:charged :rate])
                     (get-in r [:charged :rate_date]) (:chf planned) (- charged (:chf planned))))))
(println "rate I used: EUR" (fx "EUR") "as of" (:as_of fx-res) "| card rate: EUR" (get-in (first rebooked-vie) [:charged :rate]))
''')

s.turn("Every EUR line is off: the card used the desk rate of 2025-03-11, and I converted at the tool's default, the closing rate of 2025-03-10. Policy 6 says the booking day's rate. Today's rates:", r'''
(def fx-res (tool/tr-fx-rates {:date "2025-03-11"}))
(def fx (into {"CHF" 1.0} (map (juxt :currency :chf) (:rates fx-res))))
(println (:as_of fx-res) "published" (:published fx-res) "| EUR" (fx "EUR") "USD" (fx "USD"))
(println (:currency policy))
''')

s.turn(fill("EUR <<R>> today. The additional cost again, from the corrected itinerary, with the two hotel nights and today's rate:", R=NEW_RATE["EUR"]), r'''
(def hotel-cost
  (vec (for [h hotel-rooms]
         {:id (:employee_id h) :name (:guest h) :what (str "hotel " (:hotel_id h) " 1 night") :amount (:total h)
          :currency (:currency h)})))
(def total-cost
  (let [flights (for [[id it] itinerary]
                  {:id id :name (:name (roster id)) :what (str/join "+" (:flights it)) :amount (parse-double (:amount it))
                   :currency (:currency it)})
        lines (mapv #(assoc % :chf (cents (* (:amount %) (fx (:currency %))))) (concat flights hotel-cost))]
    {:lines lines :chf (cents (sum (map :chf lines))) :rate_date (:as_of fx-res)}))
(doseq [l (:lines total-cost)]
  (println (format "%-8s %-19s %-20s %8.2f %s = CHF %8.2f" (:id l) (:name l) (:what l) (:amount l) (:currency l) (:chf l))))
(println "additional cost:" (format "CHF %.2f" (:chf total-cost)) "at the desk rate of" (:rate_date total-cost))
(println "tickets charged on the card:" (cents (sum (map #(get-in % [:charged :amount_chf]) rebooked)))
         "| tickets in the total:" (cents (sum (map :chf (remove #(str/starts-with? (:what %) "hotel") (:lines total-cost))))))
''')

s.turn(fill("CHF <<T>>, and the ticket lines now match the card to the cent. The budget check with the corrected total:", T=f2(NEW_TOTAL)), r'''
(def budget-check (tool/tr-budget {:cost_center "CC-4410" :check_amount_chf (:chf total-cost)}))
(println "available" (:available budget-check) "| check" (:check budget-check))
''')

s.turn(fill("Fits, with CHF <<A>> left. The pre-approval from Claudia Baumann's cost center, with the nine lines:", A=f2(AVAIL_AFTER)), r'''
(def preapproval
  (tool/tr-expense-preapproval
   {:cost_center "CC-4410" :amount_chf (:chf total-cost)
    :reason "Storm Ylva closed FRA on 2025-03-11: the ELAF 2025 team of 7 rerouted to Lisbon on new tickets (waiver LH-WX-0311); the Boston pair's diverted LH 423 misses tonight's flights, so they fly LH 1790 on 2025-03-12 after a night at a MUC airport hotel"
    :items (mapv (fn [l] {:traveller (:name l) :item (:what l) :amount (:amount l) :currency (:currency l) :chf (:chf l)})
                 (:lines total-cost))}))
(println preapproval)
''')


s.turn("Approved. Before the itineraries go out, are the new flights still on schedule? The feed is in UTC, so this time I print the whole timestamps:", r'''
(def new-status (tool/tr-flight-status {:flights ["LX 2086" "TP 927" "TP 1279" "LH 1790" "LH 423"]}))
(doseq [f (:flights new-status)]
  (println (format "%-8s %s-%s %s -> %s %-9s" (:flight f) (:from f) (:to f) (:sched_dep f) (:sched_arr f) (:status f))
           (or (:est_arr f) "") "|" (:remark f)))
''')

ITIN_TEXT = r"""
(defn local [ts] (str (subs ts 11 16) " (" (subs ts 19) ")"))
(defn itin-text
  "The written itinerary of a rebooked traveller. t: :first :pnr :old-ticket :new-ticket :flight :from :to :dep :arr
  :seat, optionally :hotel {:name :confirmation :shuttle} and :note."
  [t]
  (str "Dear " (:first t) ",\n\nyour flights via Frankfurt were cancelled (FRA is closed by storm Ylva). You are rebooked, PNR "
       (:pnr t) ":\n" (:flight t) " " (:from t) " " (local (:dep t)) " -> " (:to t) " " (local (:arr t)) " on "
       (subs (:dep t) 0 10) ", seat " (:seat t) ", economy.\nNew ticket " (:new-ticket t) "; the unused part of ticket "
       (:old-ticket t) " is refunded by the airline. Your return flights are unchanged."
       (if-let [h (:hotel t)]
         (str "\nTonight: " (:name h) ", confirmation " (:confirmation h) ", breakfast included; hotel shuttle from "
              (:shuttle h) ".")
         "")
       (if (:note t) (str "\n" (:note t)) "")
       "\n\nBrennwald Travel Desk"))
"""


def notify(emp, first, flight, subject, note=None, sms=False):
    fields = ('{:first "%s" :pnr "%s" :old-ticket "%s" :new-ticket "%s"\n'
              '                                     :flight "%s" :from "%s" :dep "%s" :to "%s" :arr "%s" :seat "%s"'
              % (first, PNR[emp], TICKET[emp], NT[emp], flight[0], flight[2], flight[4], flight[3], flight[5],
                 SEAT[emp]))
    if emp in CONF:
        fields += ('\n                                     :hotel {:name "%s" :confirmation "%s" :shuttle "%s"}'
                   % (HOTEL[0], CONF[emp], HOTEL[4]))
    if note:
        fields += '\n                                     :note "%s"' % note
    return ('(tool/tr-notify {:employee_id "%s" :subject "%s"%s\n                   :text (itin-text %s})})'
            % (emp, subject, " :sms true" if sms else "", fields))


SUBJ = "ELAF 2025: your new flight to Lisbon"
TRAIN_LX = "Take the 14:33 train from Basel SBB to Zurich Flughafen at the latest (check-in closes 15:45)."
BASEL_MSGS = [
    notify(WEI, "Wei", LX, SUBJ, TRAIN_LX),
    notify(SABINE, "Sabine", LX, SUBJ, TRAIN_LX),
    notify(MARC, "Marc", TP_ZRH, SUBJ, "Take the 17:03 train from Basel SBB to Zurich Flughafen at the latest "
                                       "(check-in closes 18:30). Wei Li and Sabine Gerber land at 18:20 on LX 2086 and "
                                       "start the booth setup.")]
full_basel = (ITIN_TEXT.strip() + "\n(def msgs-basel\n  [" + "\n   ".join(BASEL_MSGS) + "])\n"
              "(doseq [m msgs-basel] (println (:message_id m) (:name m) (:to m) (:chars m) \"chars\"))")
cut_at = full_basel.index(":dep", full_basel.index('"' + MARC + '"'))
s.cut("The written itineraries now, from a template filled with each traveller's data from the rebookings. Basel first "
      "(Wei Li, Sabine Gerber, Marc Tschudi):", full_basel[:cut_at])

s.turn("The answer was cut off in Marc's message. The template and the three Basel messages again, complete:", full_basel)

VIE_NOTE = "Check-in at Vienna closes at 14:40; you land in time for the booth setup (Hall 1, stand B14, until 22:00)."
VIE_MSGS = [notify(JANA, "Jana", TP_VIE, SUBJ, VIE_NOTE), notify(LUKAS, "Lukas", TP_VIE, SUBJ, VIE_NOTE)]
s.turn("Vienna: Jana Nováková and Lukas Brandstätter.", "(def msgs-vie\n  [" + "\n   ".join(VIE_MSGS) + "])\n"
       "(doseq [m msgs-vie] (println (:message_id m) (:name m) (:to m) (:chars m) \"chars\"))")

BOS_SUBJ = "ELAF 2025: Munich tonight, Lisbon tomorrow morning"
BOS_NOTE = ("LH 423 lands in Munich at about %s local time, too late for this afternoon's flight, and tonight's later "
            "flights are full." % LI_ETA_LOCAL)
BOS_MSGS = [notify(LI, "Li", LH_NEW, BOS_SUBJ, BOS_NOTE + " You land at 09:10, in good time for your talk at 14:00 in "
                                                          "Hall 2.", True),
            notify(DANIEL, "Daniel", LH_NEW, BOS_SUBJ, BOS_NOTE, True)]
s.turn("Boston: Li Wei and Daniel Okafor, by email and SMS since they are in the air.",
       "(def msgs-bos\n  [" + "\n   ".join(BOS_MSGS) + "])\n"
       "(doseq [m msgs-bos] (println (:message_id m) (:name m) (:to m) (:sms_to m) (:chars m) \"chars\"))")

s.turn("For the cost center owner: the refunds the airline owes us, per currency, from the rebooking results.", r'''
(def refunds
  (into (sorted-map)
        (update-vals (reduce (fn [m r] (update m (get-in r [:refund_pending :currency]) (fnil + 0) (get-in r [:refund_pending :amount])))
                             {} rebooked)
                     cents)))
(println refunds)
(println (frequencies (map #(get-in % [:refund_pending :currency]) rebooked)) "tickets per currency;"
         (first (distinct (map :old_ticket_status rebooked))))
''')

s.turn("Claudia Baumann gets the total and the pre-approval:", fill(r'''
(def msg-owner
  (tool/tr-notify {:employee_id "E-10033" :subject "ELAF 2025: team rebooked after the FRA closure - CHF <<T>>"
                   :text "Dear Claudia,\n\nstorm Ylva closed Frankfurt today and all seven ELAF flights via FRA were cancelled. Everyone is rebooked:\n- Wei Li and Sabine Gerber: LX 2086 Zurich-Lisbon, lands 18:20\n- Marc Tschudi: TP 927 Zurich-Lisbon, lands 21:05\n- Jana Novakova and Lukas Brandstaetter: TP 1279 Vienna-Lisbon, lands 17:55\n- Li Wei and Daniel Okafor: their LH 423 from Boston is diverted to Munich; they stay at the Hotel Freisinger Hof Airport tonight and fly LH 1790, landing 09:10 tomorrow (Li Wei's talk at 14:00 is safe)\n\nAdditional cost on CC-4410: CHF <<TM>> (7 new tickets and 2 hotel nights, at the Treasury desk rate of 2025-03-11), pre-approved as <<PA>>; CHF <<A>> of the budget remains. The airline refunds the unused coupons: CHF <<RC>>, EUR <<RE>>, USD <<RU>> (within 20 days).\n\nBrennwald Travel Desk"}))
(println (:message_id msg-owner) (:to msg-owner) (:chars msg-owner))
''', T=money(NEW_TOTAL), TM=money(NEW_TOTAL), PA=PA_ID, A=money(AVAIL_AFTER), RC=money(REFUND["CHF"]),
    RE=money(REFUND["EUR"]), RU=money(REFUND["USD"])))

s.turn("A last check of every new itinerary against the setup (until 22:00 tonight) and the deadline (11:00 tomorrow), on UTC:", r'''
(def setup-close (utc-min "2025-03-11T22:00:00+00:00"))
(def deadline (utc-min "2025-03-12T11:00:00+00:00"))
(doseq [[id it] itinerary]
  (let [r (first (filter #(= id (:employee_id %)) rebooked))
        sg (last (:segments r))]
    (println (format "%-19s %-8s" (:name (roster id)) (str/join "+" (map :flight (:segments r))))
             (cond (<= (utc-min (:arr sg)) setup-close) (str "setup tonight, " (- setup-close (utc-min (:arr sg))) " min before it closes")
                   (<= (utc-min (:arr sg)) deadline) (str "before the deadline, " (- deadline (utc-min (:arr sg))) " min to spare")
                   :else "LATE")
             "| seat" (:seat sg) "| hotel" (if (:hotel it) "yes" "no"))))
''')


def trav(emp, flight, fare):
    out = ('{:name "%s" :employee_id "%s" :pnr "%s" :old_ticket "%s" :new_ticket "%s"\n'
           '     :flights [{:flight "%s" :from "%s" :dep "%s" :to "%s" :arr "%s" :seat "%s"}] :fare "%s"'
           % (NAME[emp], emp, PNR[emp], TICKET[emp], NT[emp], flight[0], flight[2], flight[4], flight[3], flight[5],
              SEAT[emp], fare))
    if emp in CONF:
        out += ('\n     :hotel {:name "%s" :night "2025-03-11" :confirmation "%s" :first_shuttle "%s"}'
                % (HOTEL[0], CONF[emp], HOTEL[4]))
    return out + "}"


TRAVS = [trav(WEI, LX, "MCLASSCH CHF 436.00"), trav(SABINE, LX, "MCLASSCH CHF 436.00"),
         trav(MARC, TP_ZRH, "UCLASSCH CHF 488.00"), trav(JANA, TP_VIE, "UCLASSAT EUR 318.00"),
         trav(LUKAS, TP_VIE, "UCLASSAT EUR 318.00"), trav(LI, LH_NEW, "KCLASSDE EUR 356.00"),
         trav(DANIEL, LH_NEW, "KCLASSDE EUR 356.00")]
s.turn("Everything is booked, paid, approved and sent. The result:", fill(r'''
(def result
  {:event "ELAF 2025 Lisbon" :disruption "FRA closed by storm Ylva on 2025-03-11 (waiver LH-WX-0311)"
   :travellers
   [<<TRAVS>>]
   :additional_cost_chf <<T>>
   :fx "Treasury desk rate of 2025-03-11: EUR <<R>>"
   :preapproval "<<PA>>"
   :budget_available_after_chf <<A>>
   :refunds_pending {"CHF" <<RC>> "EUR" <<RE>> "USD" <<RU>>}
   :notes ["Wei Li (Basel, L4KTZP) and Li Wei (Boston, HX3D9R) are different travellers"
           "QX7P2M (Jana Novak, Basel to Hamburg) is not a team booking and was left alone"
           "LH 423 lands at MUC 12:55Z = <<ETA>> local: tonight's connections were too short or full, so the Boston pair flies LH 1790 on 2025-03-12"
           "Marc Tschudi's flex fare on LX 2086 was refused by policy 3.4 (TP 927 lands 2 h 45 min later)"]})
(println (count (:travellers result)) "travellers," (:additional_cost_chf result) "CHF," (:preapproval result))
''', TRAVS="\n    ".join(TRAVS), T=f2(NEW_TOTAL), R=NEW_RATE["EUR"], PA=PA_ID, A=f2(AVAIL_AFTER), RC=REFUND["CHF"],
    RE=REFUND["EUR"], RU=REFUND["USD"], ETA=LI_ETA_LOCAL))

s.turn("The new itineraries of the seven travellers:", r'''
(return result)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
