#!/usr/bin/env python3
"""The model answers of the api-client-integration session.
A backend engineer of Larkspur & Vine moves the shop's Parcelon client from
API v1 to v2 (FUL-2291): reads the reference and the changelog, tries the
calls in the sandbox, edits fulfillment/carriers/parcelon.py until the v2
contract tests pass, books the pending orders (quote, shipment, label),
writes the carrier data back to the orders and opens the pull request.
Order ids, addresses, the sandbox account, header names, error codes, quote,
shipment, label and tracking ids, request ids, amounts, weights in grams and
the source lines copied into edits are taken from world.py (and tool.py's
numbering), as the model takes them from the prints of earlier turns.

Three corrections, each after the old value was printed and used:
- `parcel-of` first sends the orders' pounds and inches as v2's weight and
  dimensions (3.2 for ORD-58213), the quotes of `rate-table` are far too
  cheap; the contract tests and the Units section show grams and cm, and
  `parcel-of` and `rate-table` are redefined (1451 g, 36x25x15 cm);
- the payload keeps v1's `service_code` (printed in the probe booking and in
  the module's edit) until the probe shipment comes back GROUND_ECONOMY and
  the v2.0 changelog shows the rename to `service_level`;
- the quotes of `rate-table` expire (10 minutes) before the booking, which
  is refused with E4223; `rate-table` is redefined with new quote ids.
Later programs write only the new values."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # gen/long/
sys.path.append(HERE)
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()


def clj(text):
    """`text` as a Clojure string literal."""
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


# --- what the agent sees, mirrored to write the literals it copies -------------------------

ACTIVE = w.ACTIVE
O = w.ORDER
DC1 = w.WAREHOUSE


def lb_parcel(oid):
    o = O[oid]
    return {"weight": o["weight_lb"], "dimensions": dict(zip(("length", "width", "height"), o["dims_in"]))}


PROBE1_BODY = {"reference": "ORD-58213", "service_code": "EXPRESS_SAVER", "ship_date": w.SHIP_DATE,
               "ship_from": DC1, "ship_to": w.corrected("ORD-58213"), "parcel": lb_parcel("ORD-58213")}
PROBE1 = t.shipment_id("lv-sbx-probe-1")
PROBE1_REQ = t.request_id("POST", "/v2/shipments", PROBE1_BODY, "lv-sbx-probe-1", 1)
PROBE1_AMT = w.rate("GROUND_ECONOMY", "97211", 3.2, lb_parcel("ORD-58213")["dimensions"])
PROBE2 = t.shipment_id("lv-sbx-probe-2")
PROBE2_TRK = t.tracking_number(PROBE2)
G = {oid: w.parcel_v2(oid) for oid in ACTIVE}
POSTAL = {oid: w.corrected(oid)["postal_code"] for oid in ACTIVE}
SVC = {oid: O[oid]["service"] for oid in ACTIVE}
AMT = {oid: w.rate(SVC[oid], POSTAL[oid], G[oid]["weight"], G[oid]["dimensions"]) for oid in ACTIVE}
Q1 = {oid: t.quote_id(POSTAL[oid], SVC[oid], G[oid], 1) for oid in ACTIVE}
Q2 = {oid: t.quote_id(POSTAL[oid], SVC[oid], G[oid], 2) for oid in ACTIVE}
SHP = {oid: t.shipment_id("lv-%s-v2" % oid) for oid in ACTIVE}
TRK = {oid: t.tracking_number(SHP[oid]) for oid in ACTIVE}
LBL = {oid: t.label_id(SHP[oid], "PDF_4x6") for oid in ACTIVE}
ETA = {oid: w.delivery(SVC[oid], POSTAL[oid]) for oid in ACTIVE}
SHORT = [oid for oid in ACTIVE if float(AMT[oid]) > O[oid]["shipping_paid"]]
PR_URL = "https://github.com/%s/pull/%d" % (w.REPO, w.PR_NUMBER)
AV = {oid: "av_%08x" % t.crc("av", t.canon(w.corrected(oid))) for oid in ACTIVE}
LB_AMT = {oid: w.rate(SVC[oid], O[oid]["address"]["postal_code"], O[oid]["weight_lb"], lb_parcel(oid)["dimensions"])
          for oid in ACTIVE}
F = dict(ACCT=w.ACCOUNT, PROBE1=PROBE1, PROBE1_REQ=PROBE1_REQ, PROBE1_AMT=PROBE1_AMT, PROBE2=PROBE2,
         PROBE2_TRK=PROBE2_TRK, SHIP=w.SHIP_DATE, REV=w.DOC_REVISION, CASE=w.HOLD_CASE, PR=w.PR_NUMBER,
         PR_URL=PR_URL, SUNSET=w.V1_SUNSET, PROBE1_TRK=t.tracking_number(PROBE1), HOLD_SINCE=O["ORD-58241"]["hold"]["since"],
         HOLD_OWNER=O["ORD-58241"]["hold"]["owner"], HOOK=w.WEBHOOK_URL)
for _oid in ACTIVE:
    _k = _oid[-5:]
    F.update({"SHP%s" % _k: SHP[_oid], "TRK%s" % _k: TRK[_oid], "LBL%s" % _k: LBL[_oid], "Q1%s" % _k: Q1[_oid],
              "Q2%s" % _k: Q2[_oid], "AV%s" % _k: AV[_oid], "LB%s" % _k: LB_AMT[_oid], "AMT%s" % _k: AMT[_oid], "ETA%s" % _k: ETA[_oid], "G%s" % _k: G[_oid]["weight"]})

# --- the edits of the client module (python source, copied from the reads) ---------------------

L_DOC_V1 = "Used by fulfillment.shipping to quote and book parcels (Parcelon API v1)."
L_DOC_V2 = "Used by fulfillment.shipping to quote and book parcels (Parcelon API v2, FUL-2291)."
L_BASE = 'BASE_URL = "https://api.parcelon.com/v1"'
L_SANDBOX = 'SANDBOX_URL = "https://sandbox.parcelon.dev/v1"'
L_TIMEOUT = "TIMEOUT_S = 10"
NEW_CONSTANTS = '''BASE_URL = "https://api.parcelon.com/v2"
SANDBOX_URL = "https://sandbox.parcelon.dev/v2"
TIMEOUT_S = 10
LB_TO_G = 453.59237
IN_TO_CM = 2.54'''
L_HEADERS_DEF = "    def _headers(self):"
L_HEADERS_RET = '        return {"Content-Type": "application/json", "X-Parcelon-Account": self.account}'
L_HEADERS_WRONG = '        return {"Content-Type": "application/json", "X-Parcelon-Account": self.account_id}'
NEW_HEADERS = '''    def _headers(self, idempotency_key=None):
        headers = {"Content-Type": "application/json", "X-Carrier-Account": self.account}
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        return headers'''
L_POST_DEF = "    def _post(self, path, body):"
L_POST_CALL = '        resp = self.transport("POST", self.base_url + path, self._headers(), json.dumps(body))'
NEW_POST = '''    def _post(self, path, body, idempotency_key=None):
        resp = self.transport("POST", self.base_url + path, self._headers(idempotency_key), json.dumps(body))'''
L_RAISE = '            raise ParcelonError(resp["status"], data["code"], data["message"])'
NEW_RAISE = '''            err = data["error"]
            raise ParcelonError(resp["status"], err["code"], err["message"], resp["headers"].get("X-Request-Id"))'''
OLD_PAYLOAD = '''    def shipment_payload(self, order):
        return {
            "reference": order["order_id"],
            "service_code": order["service"],
            "to": order["address"],
            "parcel": {"weight_lb": order["weight_lb"], "dims_in": order["dims_in"]},
        }'''
NEW_PAYLOAD = '''    def idempotency_key(self, order):
        return "lv-%s-v2" % order["order_id"]

    def shipment_payload(self, order, quote_id=None):
        payload = {
            "reference": order["order_id"],
            "service_code": order["service"],
            "ship_from": self.ship_from,
            "ship_to": order["address"],
            "ship_date": order["ship_date"],
            "parcel": parcel_v2(order["weight_lb"], order["dims_in"]),
        }
        if quote_id:
            payload["quote_id"] = quote_id
        return payload'''
OLD_METHODS = '''    def quote(self, order):
        return self._post("/rates", self.shipment_payload(order))["rates"]

    def create_shipment(self, order):
        return self._post("/shipments", self.shipment_payload(order))'''
L_DIMS_INT = "    length, width, height = (max(1, int(d * IN_TO_CM)) for d in dims_in)"
L_DIMS_ROUND = "    length, width, height = (max(1, round(d * IN_TO_CM)) for d in dims_in)"
NEW_METHODS = '''    def quote(self, order):
        return self._post("/rates", self.shipment_payload(order))["quotes"]

    def create_shipment(self, order, quote_id=None):
        return self._post("/shipments", self.shipment_payload(order, quote_id), self.idempotency_key(order))


def parcel_v2(weight_lb, dims_in):
    """v2 takes grams and centimetres as integers; the orders store pounds and inches."""
%s
    return {"weight": max(1, round(weight_lb * LB_TO_G)),
            "dimensions": {"length": length, "width": width, "height": height}}''' % L_DIMS_INT
L_SERVICE_CODE = '            "service_code": order["service"],'
L_SERVICE_LEVEL = '            "service_level": order["service"],'
L_LAST_TEST = '    assert [q["quote_id"] for q in quotes] == ["qt_1"]'
NEW_TEST = L_LAST_TEST + '''


def test_payload_service_level():
    # v2.0 renamed service_code; the sandbox ignores the old name and books GROUND_ECONOMY
    payload = client(FakeTransport()).shipment_payload(ORDER)
    assert payload["service_level"] == "EXPRESS_SAVER"
    assert "service_code" not in payload'''
CHANGELOG_ENTRY = '''## Unreleased
- Parcelon client on API v2 (FUL-2291): X-Carrier-Account, Idempotency-Key `lv-<order_id>-v2`,
  service_level, ship_from/ship_to, parcels in grams and cm, nested error bodies with the request id.
  v1 is switched off on 2025-09-30.'''

# the module after every edit, to check the script's edits against the contract tests
_files = dict(w.FILES)
for _old, _new in ((L_DOC_V1, L_DOC_V2), ("\n".join([L_BASE, L_SANDBOX, L_TIMEOUT]), NEW_CONSTANTS),
                   (L_HEADERS_DEF + "\n" + L_HEADERS_RET, NEW_HEADERS), (L_POST_DEF + "\n" + L_POST_CALL, NEW_POST),
                   (L_RAISE, NEW_RAISE), (OLD_PAYLOAD, NEW_PAYLOAD), (OLD_METHODS, NEW_METHODS),
                   (L_DIMS_INT, L_DIMS_ROUND), (L_SERVICE_CODE, L_SERVICE_LEVEL)):
    assert _files[w.MODULE].count(_old) == 1, _old
    _files[w.MODULE] = _files[w.MODULE].replace(_old, _new)
_files[w.TESTS] = _files[w.TESTS].replace(L_LAST_TEST, NEW_TEST)
assert all(r["outcome"] == "passed" for r in t.run_suite(_files)), t.run_suite(_files)
FINAL_MODULE_LINES = _files[w.MODULE].split("\n")

# --- the session -------------------------------------------------------------------------

s.turn("Starting with the ticket, then the carrier settings in the repo config.", r'''
(def brief data/brief)
(println (:ticket brief) "-" (:title brief))
(println "requested by" (:requested_by brief) "| reviewer" (:reviewer brief) "|" (:repo brief) "->" (:base_branch brief))
(println (:context brief))
(doseq [a (:asks brief)] (println " *" a))
(doseq [n (:notes brief)] (println " note:" n))
(println "files:" (:files brief))
(def config (tool/aci-read {:path (get-in brief [:files :config])}))
(doseq [l (:lines config)] (println (format "%3d  %s" (:n l) (:text l))))
''')

s.turn("The sandbox account is PCN-SBX-208817 and the config still says api_version v1. The reference: its index, and what every request must carry.", r'''
(def doc-index (tool/aci-api-doc {}))
(println (:api doc-index) "current" (:current_version doc-index) "| sandbox" (get-in doc-index [:base_urls :sandbox]))
(doseq [sec (:sections doc-index)] (println (format "  %-28s %s" (:id sec) (:title sec))))
(def auth (tool/aci-api-doc {:section "authentication"}))
(doseq [line (:text auth)] (println "-" line))
(doseq [h (:headers auth)] (println (format "  %-18s %-36s %s" (:name h) (:required h) (:example h))))
''')

s.turn("v2 reads X-Carrier-Account instead of v1's X-Parcelon-Account, and the two POSTs need an Idempotency-Key. The versions and their dates:", r'''
(def versions (:versions (tool/aci-changelog {})))
(doseq [v versions]
  (println (format "v%-4s %s %-10s %s" (:version v) (:released v) (:status v) (:summary v))))
''')

s.turn("v1 goes away on 2025-09-30. The endpoint pages give the v2 shapes; starting with quotes:", r'''
(def rates-doc (tool/aci-api-doc {:section "/v2/rates"}))
(println (:method rates-doc) (:path rates-doc) "-" (:summary rates-doc) "| headers" (:headers rates-doc))
(doseq [f (:body rates-doc)]
  (println (format "  %-18s %-8s %-5s %s" (:name f) (:type f) (:required f) (:description f))))
(println "quote:" (first (get-in rates-doc [:response :quotes])))
(println "errors:" (:errors rates-doc))
''')

s.turn("Now the orders waiting for a label:", r'''
(def pending (tool/aci-orders {}))
(println "as of" (:as_of pending) "|" (:warehouse pending) "| pickup" (:pickup pending))
(doseq [o (:orders pending)]
  (println (format "%-9s %-13s %-16s %-13s %-2s %-5s %-14s %6.2f %5.1f lb %-12s %s" (:order_id o) (:status o)
                   (:customer o) (get-in o [:address :city]) (get-in o [:address :state])
                   (get-in o [:address :postal_code]) (:service o) (:shipping_paid o) (:weight_lb o)
                   (pr-str (:dims_in o)) (:placed_at o))))
(println "on hold:" (vec (for [o (:orders pending) :when (:hold o)] [(:order_id o) (get-in o [:hold :reason])])))
''')

s.turn("Five orders ready to ship, ORD-58241 on hold for payment review. The client module as it is:", r'''
(def module (get-in brief [:files :client]))
(def src (tool/aci-read {:path module}))
(println module (:total_lines src) "lines")
(doseq [l (:lines src)] (println (format "%3d  %s" (:n l) (:text l))))
''')

s.turn("A first v2 call in the sandbox: quotes for ORD-58213, with the account header and DC1 from the config as ship_from.", r'''
(def account "PCN-SBX-208817")
(def dc1 {:name "Larkspur & Vine DC1" :street1 "2150 NW Front Ave" :city "Portland" :state "OR"
          :postal_code "97209" :country "US"})
(def orders-by-id (into {} (map (juxt :order_id identity) (:orders pending))))
(defn parcel-of [o] {:weight (:weight_lb o) :dimensions (zipmap [:length :width :height] (:dims_in o))})
(def probe-rates (tool/aci-http {:method "POST" :path "/v2/rates" :headers {"X-Carrier-Account" account}
                                 :body {:ship_from dc1 :ship_to (:address (orders-by-id "ORD-58213"))
                                        :parcel (parcel-of (orders-by-id "ORD-58213"))}}))
(println (:status probe-rates) (:headers probe-rates))
(doseq [q (get-in probe-rates [:body :quotes])] (println q))
''')

s.turn("It works. Quotes for the five ready orders, each for the service the customer paid for, against what they paid:", r'''
(def active (filterv #(= "ready_to_ship" (:status %)) (:orders pending)))
(defn quote-for [o]
  (-> (tool/aci-http {:method "POST" :path "/v2/rates" :headers {"X-Carrier-Account" account}
                      :body {:ship_from dc1 :ship_to (:address o) :parcel (parcel-of o) :service_levels [(:service o)]}})
      (get-in [:body :quotes])
      first))
(def rate-table
  (mapv (fn [o] (let [q (quote-for o)]
                  (assoc q :order_id (:order_id o) :margin (- (:shipping_paid o) (:amount q)))))
        active))
(println (count rate-table) "quotes")
''', "type")

s.turn("Amounts are decimal strings (\"9.40\"). Parsing them; the failed turn kept nothing, so active and quote-for again:", r'''
(def active (filterv #(= "ready_to_ship" (:status %)) (:orders pending)))
(defn quote-for [o]
  (-> (tool/aci-http {:method "POST" :path "/v2/rates" :headers {"X-Carrier-Account" account}
                      :body {:ship_from dc1 :ship_to (:address o) :parcel (parcel-of o) :service_levels [(:service o)]}})
      (get-in [:body :quotes])
      first))
(defn money [a] (parse-double a))
(defn quote-row [o]
  (let [q (quote-for o)]
    (assoc q :order_id (:order_id o) :paid (:shipping_paid o) :margin (- (:shipping_paid o) (money (:amount q))))))
(def rate-table (mapv quote-row active))
(println (format "%-9s %-14s %-11s %6s %6s %7s %8s  %s" "order" "service" "quote" "amount" "paid" "margin" "billable" "expires"))
(doseq [r rate-table]
  (println (format "%-9s %-14s %-11s %6s %6.2f %7.2f %6d g  %s" (:order_id r) (:service_level r) (:quote_id r)
                   (:amount r) (:paid r) (:margin r) (:billable_weight_g r) (:expires_at r))))
(println "quoted" (format "%.2f" (sum (map (comp money :amount) rate-table))) "| paid" (format "%.2f" (sum (map :paid rate-table))))
''')

s.turn("Every quote is under what the customer paid. Before booking: the shipments endpoint and the error codes.", r'''
(def ship-doc (tool/aci-api-doc {:section "/v2/shipments"}))
(println (:method ship-doc) (:path ship-doc) "| headers" (:headers ship-doc))
(println "required:" (str/join ", " (map :name (filter :required (:body ship-doc)))))
(def errors-doc (tool/aci-api-doc {:section "errors"}))
(println (first (:text errors-doc)))
(doseq [e (:codes errors-doc)]
  (println (format "  %d %s %-24s retry=%-5s %s" (:status e) (:code e) (:name e) (:retry e) (:meaning e))))
''')

s.turn("ship_to must pass verification (E4221 otherwise). Checking the five addresses first:", r'''
(def verified (tool/aci-address-verify {:addresses (mapv :address active)}))
(doseq [r (:results verified)]
  (println (format "%-16s %-9s %s" (get-in r [:input :name]) (:status r) (:verification_id r))
           (if (seq (:changes r)) (pr-str (:changes r)) "") (or (:note r) "")))
(def ship-to (zipmap (map :order_id active) (map :address (:results verified))))
(println "ORD-58230 ->" (ship-to "ORD-58230"))
(println "ORD-58236 ->" (ship-to "ORD-58236"))
''')

s.turn(fill("Two corrections: ORD-58230's postal code 98013 -> 98103, ORD-58236's unit moved to street2; ship-to keeps the corrected ones. A probe booking for ORD-58213 with a throwaway key, the payload in the module's shape with the v2 address names and the pickup date <<SHIP>>:", **F), fill(r'''
(def probe-body {:reference "ORD-58213" :service_code "EXPRESS_SAVER" :ship_date "<<SHIP>>" :ship_from dc1
                 :ship_to (ship-to "ORD-58213") :parcel (parcel-of (orders-by-id "ORD-58213"))})
(def probe (tool/aci-http {:method "POST" :path "/v2/shipments"
                           :headers {"X-Carrier-Account" account "Idempotency-Key" "lv-sbx-probe-1"}
                           :body probe-body}))
(println (:status probe) "request" (get-in probe [:headers :X-Request-Id]) "| rate limit remaining"
         (get-in probe [:headers :X-RateLimit-Remaining]))
(println (:body probe))
''', **F))

s.turn(fill("Booked: <<PROBE1>>. Before writing code, the contract tests Tomasz added:", **F), r'''
(def tests-src (tool/aci-read {:path (get-in brief [:files :contract_tests])}))
(doseq [l (:lines tests-src)] (println (format "%3d  %s" (:n l) (:text l))))
''')

s.turn("test_parcel_in_grams_and_cm wants 1451 and 36x25x15 for ORD-58213's 3.2 lb and 14x10x6 in: v2 takes grams and centimetres, and I sent pounds. The Units section, then the quotes again with converted parcels:", r'''
(def units (tool/aci-api-doc {:section "units"}))
(doseq [line (:text units)] (println "-" line))
(def rate-table-lb rate-table)
(defn to-g [lb] (max 1 (round (* lb 453.59237))))
(defn to-cm [in] (max 1 (round (* in 2.54))))
(defn parcel-of [o] {:weight (to-g (:weight_lb o)) :dimensions (zipmap [:length :width :height] (map to-cm (:dims_in o)))})
(println "ORD-58213:" (parcel-of (orders-by-id "ORD-58213")))
(defn quote-for [o]
  (-> (tool/aci-http {:method "POST" :path "/v2/rates" :headers {"X-Carrier-Account" account}
                      :body {:ship_from dc1 :ship_to (ship-to (:order_id o)) :parcel (parcel-of o)
                             :service_levels [(:service o)]}})
      (get-in [:body :quotes])
      first))
(def rate-table (mapv quote-row active))
(println (format "%-9s %-14s %7s -> %-7s %6s -> %-6s %6s %7s  %-11s %s" "order" "service" "lb-amt" "amount" "bill" "bill" "paid" "margin" "quote" "expires"))
(doseq [[old r] (map vector rate-table-lb rate-table)]
  (println (format "%-9s %-14s %7s -> %-7s %6d -> %-6d %6.2f %7.2f  %-11s %s" (:order_id r) (:service_level r) (:amount old)
                   (:amount r) (:billable_weight_g old) (:billable_weight_g r) (:paid r) (:margin r) (:quote_id r) (:expires_at r))))
(println "quoted" (format "%.2f" (sum (map (comp money :amount) rate-table))) "| paid" (format "%.2f" (sum (map :paid rate-table))))
''')

s.turn(fill("With real weights <<N>> orders cost more than the customer paid (<<SHORT>>); that goes into the PR for Mei. The module now: the docstring, then the v2 URLs and the unit constants.", N=len(SHORT), SHORT=", ".join(SHORT)), fill(r'''
(defn edit! [old new]
  (let [r (tool/aci-edit {:path module :old old :new new})]
    (println "edited" (:path r) "line" (:line r) (str "-" (:removed r) " +" (:added r)))
    (println (:diff r))
    r))
(edit! <<DOC1>> <<DOC2>>)
(edit! (str/join "\n" [<<BASE>>
                       <<SANDBOX>>
                       <<TIMEOUT>>])
       <<CONSTANTS>>)
''', DOC1=clj(L_DOC_V1), DOC2=clj(L_DOC_V2), BASE=clj(L_BASE), SANDBOX=clj(L_SANDBOX), TIMEOUT=clj(L_TIMEOUT),
       CONSTANTS=clj(NEW_CONSTANTS)))

s.turn("The headers: X-Carrier-Account, and Idempotency-Key when given.", fill(r'''
(edit! <<WRONG>>
       <<NEWRET>>)
''', WRONG=clj(L_HEADERS_WRONG), NEWRET=clj('''        headers = {"Content-Type": "application/json", "X-Carrier-Account": self.account}
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        return headers''')), "tool")

s.turn("The line reads self.account, not self.account_id. Copying lines 27-28 and 30-31 exactly as printed, and the nested v2 error body with the request id from the header:", fill(r'''
(edit! (str <<HDEF>> "\n" <<HRET>>)
       <<NEWHEADERS>>)
(edit! (str <<PDEF>> "\n" <<PCALL>>)
       <<NEWPOST>>)
(edit! <<RAISE>>
       <<NEWRAISE>>)
''', HDEF=clj(L_HEADERS_DEF), HRET=clj(L_HEADERS_RET), NEWHEADERS=clj(NEW_HEADERS), PDEF=clj(L_POST_DEF),
         PCALL=clj(L_POST_CALL), NEWPOST=clj(NEW_POST), RAISE=clj(L_RAISE), NEWRAISE=clj(NEW_RAISE)))

s.turn("The payload in the v2 shape (ship_from, ship_to, ship_date, parcel in grams and cm), the idempotency key lv-<order_id>-v2 the test expects, and quote/create_shipment:", fill(r'''
(edit! <<OLDPAYLOAD>>
       <<NEWPAYLOAD>>)
(edit! <<OLDMETHODS>>
       <<NEWMETHODS>>)
''', OLDPAYLOAD=clj(OLD_PAYLOAD), NEWPAYLOAD=clj(NEW_PAYLOAD), OLDMETHODS=clj(OLD_METHODS), NEWMETHODS=clj(NEW_METHODS)))

s.turn("Running the contract tests:", r'''
(defn run-tests! [ids]
  (let [r (tool/aci-run-tests (if (seq ids) {:tests ids} {}))]
    (println (:command r) "->" (:summary r))
    (doseq [x (:results r) :when (not= "passed" (:outcome x))]
      (println "FAILED" (:test x))
      (println (:message x)))
    r))
(def test-run (run-tests! []))
''')

s.turn("35 instead of 36: int() truncates 35.56. The tests want rounding, like to-g and to-cm here. Fixing the line:", fill(r'''
(edit! module
       <<INT>>
       <<ROUND>>)
(def test-run (run-tests! []))
''', INT=clj(L_DIMS_INT), ROUND=clj(L_DIMS_ROUND)), "arity")

s.turn("edit! already knows the module path.", fill(r'''
(edit! <<INT>>
       <<ROUND>>)
(def test-run (run-tests! []))
(println (:passed test-run) "of" (:ran test-run) "passed")
''', INT=clj(L_DIMS_INT), ROUND=clj(L_DIMS_ROUND)))

s.turn(fill("All 7 pass. Before voiding the probe from earlier, what <<PROBE1>> booked:", **F), fill(r'''
(def probe-now (tool/aci-http {:method "GET" :path "/v2/shipments/<<PROBE1>>" :headers {"X-Carrier-Account" account}}))
(println (:status probe-now) (select-keys (:body probe-now) [:shipment_id :status :service_level :rate :parcel :tracking_number :estimated_delivery]))
(println "sent:" (select-keys probe-body [:reference :service_code :parcel]))
''', **F))

s.turn("I asked for EXPRESS_SAVER and got GROUND_ECONOMY: the sandbox did not read service_code. What v2.0 renamed:", r'''
(def v20 (tool/aci-changelog {:version "2.0"}))
(doseq [r (:renamed v20)] (println (format "  %-34s -> %s" (:v1 r) (:v2 r))))
(doseq [a (:added v20)] (println "  added:" a))
(println "  errors:" (:errors v20))
(doseq [n (:notes v20)] (println "  note:" n))
(println "probe booking headers:" (select-keys (:headers probe) [:X-Request-Id :X-Api-Warn]))
''')

s.turn("service_code became service_level, and the probe's response said so in X-Api-Warn. Fixing the payload line of the module, and a test so it cannot come back:", fill(r'''
(edit! <<SCODE>>
       <<SLEVEL>>)
(def t-edit (tool/aci-edit {:path "tests/carriers/test_parcelon_v2.py"
                            :old <<LAST>>
                            :new <<NEWTEST>>}))
(println "tests: line" (:line t-edit) "+" (:added t-edit))
(def test-run (run-tests! []))
''', SCODE=clj(L_SERVICE_CODE), SLEVEL=clj(L_SERVICE_LEVEL), LAST=clj(L_LAST_TEST), NEWTEST=clj(NEW_TEST)))

s.turn(fill("8 passed. Voiding the probe <<PROBE1>> (GROUND_ECONOMY, 3.2 g), and a second probe with service_level and grams to see what v2 books now:", **F), fill(r'''
(def void-1 (tool/aci-http {:method "DELETE" :path "/v2/shipments/<<PROBE1>>" :headers {"X-Carrier-Account" account}}))
(println (:status void-1) (select-keys (:body void-1) [:shipment_id :status :voided_at :refund]))
(def probe-2 (tool/aci-http {:method "POST" :path "/v2/shipments"
                             :headers {"X-Carrier-Account" account "Idempotency-Key" "lv-sbx-probe-2"}
                             :body {:reference "ORD-58213" :service_level "EXPRESS_SAVER" :ship_date "<<SHIP>>" :ship_from dc1
                                    :ship_to (ship-to "ORD-58213") :parcel (parcel-of (orders-by-id "ORD-58213"))}}))
(println (:status probe-2) (select-keys (:headers probe-2) [:X-Request-Id :X-Api-Warn :X-RateLimit-Remaining]))
(println (select-keys (:body probe-2) [:shipment_id :service_level :rate :tracking_number :parcel :estimated_delivery]))
''', **F))

s.turn(fill("EXPRESS_SAVER, 1451 g, <<AMT58213>> as quoted, no warning. Voiding <<PROBE2>> too, and the webhook events of today:", **F), fill(r'''
(def void-2 (tool/aci-http {:method "DELETE" :path "/v2/shipments/<<PROBE2>>" :headers {"X-Carrier-Account" account}}))
(println (:status void-2) (select-keys (:body void-2) [:shipment_id :status :voided_at :refund]))
(def events (tool/aci-webhook-events {:since "2025-06-24T00:00:00Z"}))
(println (:endpoint events) (:count events) "events")
(doseq [e (:events events)]
  (println (:event_id e) (format "%-17s" (:type e)) (:created_at e) (:data e) (get-in e [:delivery :status_code])))
''', **F))

s.prose(fill("""Where FUL-2291 stands:

- Client module moved to v2: /v2 URLs, X-Carrier-Account, Idempotency-Key lv-<order_id>-v2, ship_from/ship_to/ship_date, service_level (v1's service_code was silently ignored), parcels in grams and cm (rounded), nested error bodies with X-Request-Id. The 7 contract tests plus the new test_payload_service_level pass.
- Sandbox: probe <<PROBE1>> (service_code, pounds; booked GROUND_ECONOMY at <<PROBE1_AMT>>) and probe <<PROBE2>> (EXPRESS_SAVER, 1451 g) are both voided.
- Addresses: ORD-58230 corrected to 98103, ORD-58236 unit in street2. ORD-58241 is on hold and is not shipped.
- Rates in grams: <<NSHORT>> of the five orders cost more than the customer paid.

Next: book the five shipments with their quotes, make the labels, write them back to the orders, then the config, the changelog and the PR.""", NSHORT=["none", "one", "two", "three", "four", "five"][len(SHORT)], **F))

s.turn("Booking the five orders with their quotes, one idempotency key per order:", fill(r'''
(defn book! [o]
  (let [oid (:order_id o)
        q (first (filter #(= oid (:order_id %)) rate-table))]
    (tool/aci-http {:method "POST" :path "/v2/shipments"
                    :headers {"X-Carrier-Account" account "Idempotency-Key" (str "lv-" oid "-v2")}
                    :body {:reference oid :service_level (:service o) :quote_id (:quote_id q) :ship_date "<<SHIP>>"
                           :ship_from dc1 :ship_to (ship-to oid) :parcel (parcel-of o)}})))
(def booked (mapv book! active))
(doseq [b booked] (println (:status b) (get-in b [:body :shipment_id]) (get-in b [:body :tracking_number])))
''', **F), "tool")

s.turn(fill("<<Q158213>> expired: quotes last 10 minutes since v2.1, and these are from before the edits. Quoting again, just before booking:", **F), r'''
(def rate-table-expired rate-table)
(def rate-table (mapv quote-row active))
(println (format "%-9s %-14s %-11s -> %-11s %6s %6s  %s" "order" "service" "expired" "quote" "amount" "paid" "expires"))
(doseq [[old r] (map vector rate-table-expired rate-table)]
  (println (format "%-9s %-14s %-11s -> %-11s %6s %6.2f  %s" (:order_id r) (:service_level r) (:quote_id old) (:quote_id r)
                   (:amount r) (:paid r) (:expires_at r))))
(println "same amounts:" (= (map :amount rate-table-expired) (map :amount rate-table)))
''')

s.turn("Same amounts, new quote ids. Booking now (book! again, it went with the failed turn):", fill(r'''
(defn book! [o]
  (let [oid (:order_id o)
        q (first (filter #(= oid (:order_id %)) rate-table))]
    (tool/aci-http {:method "POST" :path "/v2/shipments"
                    :headers {"X-Carrier-Account" account "Idempotency-Key" (str "lv-" oid "-v2")}
                    :body {:reference oid :service_level (:service o) :quote_id (:quote_id q) :ship_date "<<SHIP>>"
                           :ship_from dc1 :ship_to (ship-to oid) :parcel (parcel-of o)}})))
(def booked (mapv book! active))
(def shipments (mapv :body booked))
(println (format "%-9s %-12s %-13s %-14s %6s %-11s %-10s %s" "order" "shipment" "tracking" "service" "amount" "quote" "delivery" "request"))
(doseq [b booked :let [x (:body b)]]
  (println (format "%-9s %-12s %-13s %-14s %6s %-11s %-10s %s" (:reference x) (:shipment_id x) (:tracking_number x)
                   (:service_level x) (get-in x [:rate :amount]) (:quote_id x) (:estimated_delivery x)
                   (get-in b [:headers :X-Request-Id]))))
(println "statuses" (frequencies (map :status booked)) "| services match:"
         (every? (fn [x] (= (:service_level x) (:service (orders-by-id (:reference x))))) shipments))
''', **F))

s.turn("Five shipments at the quoted amounts. Labels (PDF_4x6 from the config), with their own idempotency keys:", r'''
(defn label! [x]
  (tool/aci-http {:method "POST" :path "/v2/labels"
                  :headers {"X-Carrier-Account" account "Idempotency-Key" (str "lv-" (:reference x) "-label")}
                  :body {:shipment_id (:shipment_id x) :format "PDF_4x6"}}))
(def labels (mapv (comp :body label!) shipments))
(doseq [l labels]
  (println (format "%-12s %-12s %-13s %-7s %s" (:label_id l) (:shipment_id l) (:tracking_number l) (:status l) (:url l))))
''')

s.turn(fill("The label of the corrected address, and everything the sandbox holds for ORD-58213 (two voided probes and the real one):", **F), fill(r'''
(def label-58230 (tool/aci-http {:method "GET" :path "/v2/labels/<<LBL58230>>" :headers {"X-Carrier-Account" account}}))
(println (:body label-58230))
(def for-58213 (tool/aci-http {:method "GET" :path "/v2/shipments" :query {:reference "ORD-58213"}
                               :headers {"X-Carrier-Account" account}}))
(doseq [x (get-in for-58213 [:body :shipments])]
  (println (:shipment_id x) (:status x) (:service_level x) (get-in x [:rate :amount]) (:parcel x) (or (:voided_at x) "")))
(println "rate limit remaining" (get-in for-58213 [:headers :X-RateLimit-Remaining]))
''', **F))

s.turn(fill("Only <<SHP58213>> is live for ORD-58213. Writing the carrier data back to the five orders:", **F), r'''
(def label-of (into {} (map (juxt :shipment_id :label_id) labels)))
(def updates
  (mapv (fn [x] (tool/aci-order-update {:order_id (:reference x) :shipment_id (:shipment_id x)
                                        :tracking_number (:tracking_number x) :label_id (label-of (:shipment_id x))
                                        :shipping_cost (get-in x [:rate :amount])}))
        shipments))
(doseq [u updates]
  (println (:order_id u) (:status u) (:updated_at u) (get-in u [:carrier :shipment_id]) (get-in u [:carrier :cost])
           "| mail" (get-in u [:customer_notification :status]) (get-in u [:customer_notification :to]) (:warnings u)))
''')

s.turn("Orders updated, customers notified. The config still says v1; then the top of the changelog:", r'''
(def cfg-edit (tool/aci-edit {:path "config/carriers.toml" :old "api_version = \"v1\"" :new "api_version = \"v2\""}))
(println (:path cfg-edit) "line" (:line cfg-edit) (:diff cfg-edit))
(def changelog-top (tool/aci-read {:path "CHANGELOG.md" :from 1 :to 8}))
(doseq [l (:lines changelog-top)] (println (format "%3d  %s" (:n l) (:text l))))
''')

s.turn("An entry under Unreleased:", fill(r'''
(def cl-edit (tool/aci-edit {:path "CHANGELOG.md" :old "## Unreleased"
                             :new <<ENTRY>>}))
(println (:diff cl-edit))
''', ENTRY=clj(CHANGELOG_ENTRY)))

s.turn("The whole suite once more, and the module's new parts as they read now:", r'''
(def test-run (run-tests! []))
(doseq [r (:results test-run)] (println " " (:outcome r) (last (str/split (:test r) #"::"))))
(def final-src (tool/aci-read {:path module :from 26 :to 72}))
(doseq [l (:lines final-src)] (println (format "%3d  %s" (:n l) (:text l))))
''')

s.turn("All green. The PR description, with a table of the bookings (the pipe in cells escaped for markdown):", fill(r'''
(defn cell [x] (str/escape (str x) {\| "\\|"}))
(def booking-rows
  (for [x shipments]
    (str "| " (str/join " | " (map cell [(:reference x) (:service_level x) (get-in x [:rate :amount]) (:quote_id x)
                                        (:shipment_id x) (label-of (:shipment_id x)) (:tracking_number x)])) " |")))
(println (count booking-rows) "rows")
''', **F), "unbound_symbol")

s.turn("No str/escape; the cells hold no pipes anyway. Building the body with plain str:", fill(r'''
(def booking-rows
  (for [x shipments]
    (str "| " (str/join " | " [(:reference x) (:service_level x) (get-in x [:rate :amount]) (:quote_id x)
                               (:shipment_id x) (label-of (:shipment_id x)) (:tracking_number x)]) " |")))
(def pr-body
  (str/join "\n"
    (concat
      ["FUL-2291: the Parcelon client speaks API v2 (v1 is switched off <<SUNSET>>). Reference rev <<REV>>."
       ""
       "## Client (fulfillment/carriers/parcelon.py)"
       "- /v2 base URLs; X-Carrier-Account replaces X-Parcelon-Account"
       "- Idempotency-Key lv-<order_id>-v2 on create_shipment, so queue retries replay instead of booking twice"
       "- v2 payload: ship_from, ship_to, ship_date, service_level (v2.0 renamed service_code; the sandbox ignores the old name and books GROUND_ECONOMY), quote_id"
       "- parcels in grams and cm, rounded to the nearest (LB_TO_G = 453.59237, IN_TO_CM = 2.54)"
       "- errors: nested {error: {code, message}}, request id from X-Request-Id (E4221 ADDRESS_UNVERIFIED, E4223 QUOTE_EXPIRED, ...)"
       "- config: api_version = v2 (the production account PCN-208817 stays on v1 until the cutover change); CHANGELOG entry"
       ""
       "## Tests"
       (str "pytest tests/carriers/test_parcelon_v2.py: " (:summary test-run) " (new: test_payload_service_level)")
       ""
       "## Sandbox bookings (PCN-SBX-208817, pickup <<SHIP>>)"
       "| order | service | amount | quote | shipment | label | tracking |"
       "|---|---|---|---|---|---|---|"]
      booking-rows
      [""
       "Voided probes: <<PROBE1>> (request <<PROBE1_REQ>>, sent service_code and pounds: booked GROUND_ECONOMY at 3.2 g), <<PROBE2>>."
       "Addresses corrected by verification: ORD-58230 postal code 98013 -> 98103; ORD-58236 unit to street2."
       "Not shipped: ORD-58241 (on hold, payment review <<CASE>>)."
       ""
       (str "@Mei: with real weights " (str/join ", " (map :order_id (filter #(neg? (:margin %)) rate-table)))
            " cost more than the customer paid for shipping.")])))
(println (count pr-body) "chars," (count (str/split-lines pr-body)) "lines," (count booking-rows) "bookings")
''', **F))

s.cut("Opening the PR for Tomasz:", r'''
(def pr (tool/aci-open-pr {:branch "ful-2291-parcelon-v2"
                           :title "FUL-2291: Parcelon client on API v2; pending orders booked in the sandbox"
                           :body pr-body
                           :reviewers ["tbrandt"
''')

s.turn("Cut off; again, whole:", r'''
(def pr (tool/aci-open-pr {:branch "ful-2291-parcelon-v2"
                           :title "FUL-2291: Parcelon client on API v2; pending orders booked in the sandbox"
                           :body pr-body
                           :reviewers ["tbrandt"]}))
(println "PR" (:number pr) (:url pr) (:state pr) (:branch pr) "->" (:base pr) (:created_at pr))
(doseq [f (:files pr)] (println "  " (:path f) (str "+" (:additions f) " -" (:deletions f))))
(doseq [c (:checks pr)] (println "  check" (:name c) (:status c) (or (:detail c) "")))
''')

s.turn(fill("PR #<<PR>> is open, unit tests and lint green. A last look at the orders and today's webhook events:", **F), r'''
(def after (tool/aci-orders {}))
(println (frequencies (map :status (:orders after))) "| with carrier data:" (count (filter :carrier (:orders after))))
(def events-after (tool/aci-webhook-events {:since "2025-06-24T00:00:00Z"}))
(println (frequencies (map :type (:events events-after))))
''')

s.turn("Everything is in place. The summary:", fill(r'''
(return
  {:ticket "FUL-2291"
   :pull-request {:number <<PR>> :url "<<PR_URL>>" :branch "ful-2291-parcelon-v2" :reviewer "Tomasz Brandt"
                  :tests "8 passed" :checks {:unit-tests "passed" :lint "passed" :contract-tests "queued"}}
   :shipments [{:order "ORD-58213" :shipment "<<SHP58213>>" :label "<<LBL58213>>" :tracking "<<TRK58213>>"
                :service "EXPRESS_SAVER" :amount "<<AMT58213>>" :quote "<<Q258213>>" :weight-g <<G58213>> :delivery "<<ETA58213>>"}
               {:order "ORD-58219" :shipment "<<SHP58219>>" :label "<<LBL58219>>" :tracking "<<TRK58219>>"
                :service "GROUND_ECONOMY" :amount "<<AMT58219>>" :quote "<<Q258219>>" :weight-g <<G58219>> :delivery "<<ETA58219>>"}
               {:order "ORD-58224" :shipment "<<SHP58224>>" :label "<<LBL58224>>" :tracking "<<TRK58224>>"
                :service "EXPRESS_SAVER" :amount "<<AMT58224>>" :quote "<<Q258224>>" :weight-g <<G58224>> :delivery "<<ETA58224>>"}
               {:order "ORD-58230" :shipment "<<SHP58230>>" :label "<<LBL58230>>" :tracking "<<TRK58230>>"
                :service "GROUND_ECONOMY" :amount "<<AMT58230>>" :quote "<<Q258230>>" :weight-g <<G58230>> :delivery "<<ETA58230>>"
                :address-fix {:postal-code "98013 -> 98103" :verification "<<AV58230>>"}}
               {:order "ORD-58236" :shipment "<<SHP58236>>" :label "<<LBL58236>>" :tracking "<<TRK58236>>"
                :service "EXPRESS_SAVER" :amount "<<AMT58236>>" :quote "<<Q258236>>" :weight-g <<G58236>> :delivery "<<ETA58236>>"
                :address-fix {:street2 "Unit 4" :verification "<<AV58236>>"}}]
   :pickup {:date "<<SHIP>>" :cutoff-local "15:00" :from "Larkspur & Vine DC1"}
   :sandbox-account "<<ACCT>>"
   :voided [{:shipment "<<PROBE1>>" :why "probe with v1 service_code and pounds: booked GROUND_ECONOMY at 3.2 g"
             :request-id "<<PROBE1_REQ>>" :tracking "<<PROBE1_TRK>>" :refund "<<PROBE1_AMT>>"}
            {:shipment "<<PROBE2>>" :why "probe with service_level and grams, booked EXPRESS_SAVER as expected"}]
   :not-shipped [{:order "ORD-58241" :why "on hold: payment_review" :case "<<CASE>>" :since "<<HOLD_SINCE>>"
                  :owner "<<HOLD_OWNER>>"}]
   :webhooks {:endpoint "<<HOOK>>" :events-today {:shipment.created 7 :shipment.voided 2 :label.created 5}}
   :first-quotes-in-pounds {"ORD-58213" ["<<LB58213>>" "<<AMT58213>>"] "ORD-58219" ["<<LB58219>>" "<<AMT58219>>"]
                            "ORD-58224" ["<<LB58224>>" "<<AMT58224>>"] "ORD-58230" ["<<LB58230>>" "<<AMT58230>>"]
                            "ORD-58236" ["<<LB58236>>" "<<AMT58236>>"]}
   :problems ["v2 takes grams and cm; the first quotes were made with pounds and inches (3.2 g for ORD-58213) and were far too cheap"
              "v2.0 renamed service_code to service_level; the sandbox ignored the old field (X-Api-Warn) and booked GROUND_ECONOMY"
              "parcel_v2 truncated the dimensions with int(); the contract test wants rounding (36 cm, not 35)"
              "quotes expire after 10 minutes (v2.1): the first booking was refused with E4223 QUOTE_EXPIRED and re-quoted"
              "address verification corrected ORD-58230 (98013 -> 98103) and ORD-58236 (unit to street2)"
              (str "shipping cost above what the customer paid: " (str/join ", " (map :order_id (filter #(neg? (:margin %)) rate-table))))]
   :v1-sunset "<<SUNSET>>"})
''', **F), "return")

if __name__ == "__main__":
    s.write(__file__)
