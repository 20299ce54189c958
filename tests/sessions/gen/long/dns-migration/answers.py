#!/usr/bin/env python3
"""The model answers of the dns-migration session: Corvane Logistics' four DNS
zones (corvane.com, the delegated eu.corvane.com, the private int.corvane.com
and corvane.io) move from DynaZone to Tessera DNS before the nameserver change
of 2025-03-18 06:00 UTC.
Record ids, zone ids, nameservers, addresses, job, ticket, plan and registrar
ids, certificate dates and TTLs the agent reuses are taken from world.py (and
tool.py's id functions), as the model takes them from the prints of earlier
turns. Three corrections, each after the old value was printed and used:
- the export parser (`parse-zone`, `parsed`) only read TTLs written in
  digits, so corvane.io's lines with `2d`/`1d` (SOA, NS, MX, SPF and DMARC
  TXT, CAA) were silently dropped and never created at Tessera; found when the
  mail records resolve at DynaZone but not at Tessera, the parser is redone
  with TTL units and `parsed`/`plan` redefined, the missing sets created;
- the TTL plan (`max-ttl`, `ttl-plan`, `ttl-jobs`): first 86400 s (the CAA
  of corvane.com), TTLs lowered at 2025-03-17T05:00:00Z and filed in the
  change; recomputed to 172800 s (corvane.io's MX/TXT), lowered at
  2025-03-16T05:00:00Z, the DynaZone jobs rescheduled and the change updated;
- api-eu-origin.int.corvane.com was written to Tessera with DynaZone's
  10.20.30.14, which the health check finds down and IPAM shows retired,
  replaced by 10.20.30.41 (`plan` redefined, the record updated by its id).
Later programs write only the corrected values."""
import datetime as dt
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


def shift(ts, seconds):
    d = dt.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ") + dt.timedelta(seconds=seconds)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


MAX_TTL = max(t.true_max_ttl(z) for z in w.ZONES)                       # 172800
LOWER_AT = shift(w.NS_CHANGE_AT, -(MAX_TTL + 3600))                     # 2025-03-16T05:00:00Z
PARENT_TTL = max(ttl for _, ttl in w.PARENT_NS.values())                # 172800
KEEP = shift(w.NS_CHANGE_AT, PARENT_TTL)                                # 2025-03-20T06:00:00Z
TITLE = "Move corvane.com, eu.corvane.com, int.corvane.com and corvane.io from DynaZone to Tessera DNS"
TICKET = t.ticket_id(TITLE)
JOBS = {z: t.job_id(z, LOWER_AT, 300) for z in w.ZONES}
ORIGIN_RID = t.record_id("int.corvane.com", "api-eu-origin.int.corvane.com.", "A")
OLD_ORIGIN = w.RECORDS["int.corvane.com"][4][3]
NEW_ORIGIN = w.IPAM[OLD_ORIGIN][5]
PLAN = t.plan_id(TICKET, w.NS_CHANGE_AT)
REG = {d: t.registrar_job(d, w.NS_CHANGE_AT) for d in ("corvane.com", "corvane.io")}
VERIFIED = sum(len({(o, ty) for o, _, ty, _ in w.RECORDS[z] if ty not in ("SOA", "NS")}) for z in w.ZONES)
TZ = {z: w.TS_ZONES[z]["zone_id"] for z in w.ZONES}
NS = {z: w.TS_ZONES[z]["nameservers"] for z in w.ZONES}
EU_IDS = sorted((rid for rid, r in w.TS_PARTIAL.items() if r["fqdn"].startswith("api-eu")),
                key=lambda rid: w.TS_PARTIAL[rid]["fqdn"])               # api-eu, api-eu1
RID_EU, RID_EU1 = EU_IDS
EU_A = [d for o, _, ty, d in w.RECORDS["eu.corvane.com"] if o == "api-eu" and ty == "A"]
EU1_A = [d for o, _, ty, d in w.RECORDS["eu.corvane.com"] if o == "api-eu1" and ty == "A"]
EU1_CERT = w.CERTS["api-eu1.eu.corvane.com"]
ACME = [(o, z) for z in w.ZONES for o, _, ty, _ in w.RECORDS[z] if o.startswith("_acme-challenge")]
DKIM_LEN = len(w.DKIM)
assert MAX_TTL == 172800 and LOWER_AT == "2025-03-16T05:00:00Z" and KEEP == "2025-03-20T06:00:00Z"
LAT41 = t.origin_health({"ips": [NEW_ORIGIN]})["results"][0]["latency_ms"]
assert OLD_ORIGIN == "10.20.30.14" and NEW_ORIGIN == "10.20.30.41"


def qs(xs):
    return " ".join('"%s"' % x for x in xs)


PARSE_RE = r'#"^(\S+)\s+(?:(\d+)\s+)?IN\s+([A-Z]+)\s+(.+?)\s*$"'

# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the brief and the zones as DynaZone has them.", r'''
(println (:task data/brief))
(doseq [step (:runbook data/brief)] (println step))
(def dz (tool/dz-zones {}))
(println (:provider dz) "account" (:account dz) "- contract ends" (:contract_ends dz))
(doseq [z (:zones dz)]
  (println (format "%-16s %-9s %-8s serial %d  modified %s  parent %-12s %s" (:zone z) (:zone_id z) (:visibility z)
                   (:serial z) (:last_modified z) (:parent z)
                   (if (:vpc z) (str "vpc " (:vpc z) ", resolver " (:resolver z)) (str/join " " (:nameservers z))))))
''')

s.turn("Four zones, one private. The export of corvane.com first, raw:", r'''
(def exports {"corvane.com" (tool/dz-export {:zone "corvane.com"})})
(def com-text (:text (exports "corvane.com")))
(println "serial" (:serial (exports "corvane.com")) "-" (:lines (exports "corvane.com")) "lines")
(doseq [l (str/split-lines com-text)]
  (println l))
''')

s.turn("BIND format, one record per line with the owner always written, the TTL sometimes left to $TTL. A parser:", fill(r'''
(defn parse-zone
  "Records of a BIND zone export: {:name :ttl :type :data} per record line, owner names as written."
  [text]
  (let [lines (str/split-lines text)
        default-ttl (some #(second (re-matches #"^\$TTL\s+(\S+)\s*$" %)) lines)]
    (vec (keep (fn [l]
                 (when-let [[_ owner ttl type data] (re-matches <<RE>> l)]
                   {:name owner :ttl (or ttl default-ttl) :type type :data data}))
               lines))))
(def parsed {"corvane.com" (parse-zone com-text)})
(doseq [r (parsed "corvane.com")]
  (println (format "%-24s %6s %-6s %s" (:name r) (:ttl r) (:type r) (subs (:data r) 0 (min 70 (count (:data r)))))))
(println (count (parsed "corvane.com")) "records" (frequencies (map :type (parsed "corvane.com"))))
''', RE=PARSE_RE))

s.turn("35 records, the delegation of eu included. The other three zones:", r'''
(def exports (merge exports (into {} (pmap (fn [z] [z (tool/dz-export {:zone z})])
                                           ["eu.corvane.com" "int.corvane.com" "corvane.io"]))))
(def parsed (into {} (map (fn [[z e]] [z (parse-zone (:text e))]) exports)))
(doseq [[z rs] parsed]
  (println (format "%-16s %3d records  %s" z (count rs) (frequencies (map :type rs)))))
(println "--- eu.corvane.com")
(doseq [r (parsed "eu.corvane.com")]
  (println (format "%-24s %6s %-6s %s" (:name r) (:ttl r) (:type r) (:data r))))
''')

s.turn("eu.corvane.com has api-eu (two addresses) and a legacy api-eu1. The private zone and corvane.io:", r'''
(doseq [z ["int.corvane.com" "corvane.io"]]
  (println "---" z "$TTL" (second (re-find #"\$TTL\s+(\S+)" (:text (exports z)))))
  (doseq [r (parsed z)]
    (println (format "%-30s %6s %-6s %s" (:name r) (:ttl r) (:type r) (:data r)))))
''')

s.turn("corvane.io is the developer portal; its apex is a DynaZone ALIAS. The largest TTL per zone, for the TTL plan:", r'''
(defn content [rs] (remove #(#{"SOA" "NS"} (:type %)) rs))
(def max-ttl (into {} (map (fn [[z rs]] [z (apply max (map :ttl (content rs)))]) parsed)))
(println max-ttl)
''', "type")

s.turn("The TTLs are still strings from the regex, and the failed turn took `content` with it. Parsing the TTLs as numbers, with $TTL for the lines that have none:", fill(r'''
(defn parse-zone
  "Records of a BIND zone export: {:name :ttl :type :data}, TTL in seconds ($TTL when the line has none)."
  [text]
  (let [lines (str/split-lines text)
        default-ttl (parse-long (some #(second (re-matches #"^\$TTL\s+(\S+)\s*$" %)) lines))]
    (vec (keep (fn [l]
                 (when-let [[_ owner ttl type data] (re-matches <<RE>> l)]
                   {:name owner :ttl (if ttl (parse-long ttl) default-ttl) :type type :data data}))
               lines))))
(defn content [rs] (remove #(#{"SOA" "NS"} (:type %)) rs))
(def parsed (into {} (map (fn [[z e]] [z (parse-zone (:text e))]) exports)))
(doseq [[z rs] parsed]
  (println (format "%-16s max TTL %6d (without SOA/NS)  TTLs by type %s" z (apply max (map :ttl (content rs)))
                   (into (sorted-map) (map (fn [[ty xs]] [ty (vec (distinct (map :ttl xs)))]) (group-by :type rs))))))
''', RE=PARSE_RE))

s.turn("Now the Tessera side: the four zones the platform team created, and what the February import left in them.", r'''
(def tessera (into {} (pmap (fn [z] [z (tool/ts-records {:zone z})]) (keys parsed))))
(doseq [[z ts] tessera]
  (println (format "%-16s %s %-8s %2d record sets  ns %s" z (:zone_id ts) (:visibility ts) (:record_sets ts)
                   (if (seq (:nameservers ts)) (str/join " " (:nameservers ts)) (str "vpc " (:vpc_associations ts))))))
(println "supported types:" (:supported_types (tessera "corvane.com")))
(doseq [[z ts] tessera r (:records ts)]
  (println (format "  %s %-26s %-5s %4d %-30s %s %s" (:record_id r) (:fqdn r) (:type r) (:ttl r) (str/join "," (:values r))
                   (:source r) (:updated_at r))))
''')

s.turn("No ALIAS at Tessera, but ANAME. Five records from the import; comparing them with the DynaZone export:", r'''
(defn fq [zone name] (if (= name "@") (str zone ".") (str name "." zone ".")))
(defn rrsets
  "Record sets of a parsed zone: {[fqdn type] {:ttl :values}}, sorted."
  [zone rs]
  (reduce (fn [m r] (update m [(fq zone (:name r)) (:type r)]
                            (fn [x] {:ttl (:ttl r) :values (conj (or (:values x) []) (:data r))})))
          (sorted-map) rs))
(doseq [[z ts] tessera r (:records ts)]
  (let [old (get (rrsets z (parsed z)) [(:fqdn r) (:type r)])]
    (println (:record_id r) (:fqdn r) (:type r) "| tessera" (:values r) (:ttl r) "| dynazone" (:values old) (:ttl old) "|"
             (if (and (= (set (:values old)) (set (:values r))) (= (:ttl old) (:ttl r))) "same" "DIFFERENT"))))
''')

s.turn(fill("Two of the imported records are wrong: <<E>> (api-eu) lacks 185.40.12.71, and <<E1>> (api-eu1) holds 185.40.12.71 where DynaZone has 185.40.12.17. What DynaZone answers, and what IPAM says about those addresses:", E=RID_EU, E1=RID_EU1), r'''
(def eu-check (tool/dns-resolve {:server "old" :queries [{:name "api-eu.eu.corvane.com" :type "A"}
                                                        {:name "api-eu1.eu.corvane.com" :type "A"}]}))
(doseq [r (:results eu-check)]
  (println (:name r) (:rcode r) (:server r) (mapv (juxt :ttl :data) (:answers r))))
(def ipam-eu (tool/ipam-lookup {:query "185.40.12.0/23"}))
(println (:prefixes ipam-eu))
(doseq [a (:allocations ipam-eu)]
  (println (format "%-14s %-15s %-15s %-14s %s" (:ip a) (:status a) (:hostname a) (:owner a) (:note a))))
''')

s.turn(fill("DynaZone and IPAM agree: api-eu is the load balancer pair .70/.71, api-eu1 the legacy node 185.40.12.17 (kept until June). Fixing both records by their ids, <<E>> and <<E1>>:", E=RID_EU, E1=RID_EU1),
       fill(r'''
(def eu-fixes
  [(tool/ts-upsert {:zone "eu.corvane.com" :name "api-eu" :type "A" :ttl 300 :values [<<A>>] :record_id "<<E>>"})
   (tool/ts-upsert {:zone "eu.corvane.com" :name "api-eu1" :type "A" :ttl 300 :values [<<A1>>] :record_id "<<E1>>"})])
(doseq [f eu-fixes]
  (println (:record_id f) (:fqdn f) (:status f) (:previous f) "->" (:values f)))
''', A=qs(EU_A), E=RID_EU, A1=qs(EU1_A), E1=RID_EU1))

s.turn("Runbook step 3: the public addresses of the zones against IPAM.", r'''
(def ipam (into {} (pmap (fn [q] [q (tool/ipam-lookup {:query q})])
                         ["203.0.113.0/24" "198.51.100.0/24" "2001:db8:4c0::/48" "2a0b:7280:12::/48"])))
(def in-dns (set (map :data (filter #(#{"A" "AAAA"} (:type %)) (mapcat val parsed)))))
(doseq [[q r] ipam a (:allocations r)]
  (println (format "%-18s %-15s %-16s %-14s %-6s %s" (:ip a) (:status a) (:hostname a) (:owner a)
                   (if (in-dns (:ip a)) "in DNS" "") (:note a))))
(println "public addresses in DNS not active in IPAM:"
         (vec (for [[q r] ipam a (:allocations r) :when (and (in-dns (:ip a)) (not= "active" (:status a)))] (:ip a))))
''')

s.turn("Every public address in the zones is active (203.0.113.40, retired, is no longer in DNS). Now the write plan: every record set in Tessera's form, without SOA and apex NS, ALIAS as ANAME, and the eu delegation pointing at Tessera's eu nameservers.", r'''
(def tessera-ns (into {} (map (fn [[z ts]] [z (:nameservers ts)]) tessera)))
(defn to-upsert
  "The Tessera upsert of one record set of `zone`, or nil for what Tessera sets itself (SOA, apex NS)."
  [zone [[fqdn type] {:keys [ttl values]}]]
  (cond
    (= type "SOA") nil
    (and (= type "NS") (= fqdn (str zone "."))) nil
    (= type "NS") {:zone zone :name fqdn :type "NS" :ttl ttl :values (tessera-ns (subs fqdn 0 (dec (count fqdn))))}
    (= type "ALIAS") {:zone zone :name fqdn :type "ANAME" :ttl ttl :values values}
    :else {:zone zone :name fqdn :type type :ttl ttl :values values}))
(def plan (into {} (map (fn [z] [z (vec (keep to-upsert (rrsets z (parsed z))))]) (keys parsed))))
(doseq [[z ups] plan]
  (println z (count ups) "record sets"))
''', "arity")

s.turn("keep calls to-upsert with the entry alone; the zone has to be bound first (and the failed turn defined nothing, so the function again).", r'''
(def tessera-ns (into {} (map (fn [[z ts]] [z (:nameservers ts)]) tessera)))
(defn to-upsert
  "The Tessera upsert of one record set of `zone`, or nil for what Tessera sets itself (SOA, apex NS)."
  [zone [[fqdn type] {:keys [ttl values]}]]
  (cond
    (= type "SOA") nil
    (and (= type "NS") (= fqdn (str zone "."))) nil
    (= type "NS") {:zone zone :name fqdn :type "NS" :ttl ttl :values (tessera-ns (subs fqdn 0 (dec (count fqdn))))}
    (= type "ALIAS") {:zone zone :name fqdn :type "ANAME" :ttl ttl :values values}
    :else {:zone zone :name fqdn :type type :ttl ttl :values values}))
(def plan (into {} (map (fn [z] [z (vec (keep #(to-upsert z %) (rrsets z (parsed z))))]) (keys parsed))))
(doseq [[z ups] plan]
  (println z (count ups) "record sets" (frequencies (map :type ups))))
(doseq [u (plan "corvane.com")]
  (let [v (str/join " | " (:values u))]
    (println (format "%-36s %-5s %5d %s" (:name u) (:type u) (:ttl u) (subs v 0 (min 80 (count v)))))))
''')

s.turn("The delegation of eu now names ns-1433, ns-611, ns-1906 and ns-245 of Tessera. Writing corvane.com, one record set at a time:", r'''
(def com-results (mapv #(tool/ts-upsert %) (plan "corvane.com")))
(println (frequencies (map :status com-results)))
''', "tool")

s.turn(fill("The DKIM key is one string of <<N>> characters in the export, and Tessera takes at most 255 per string. Splitting TXT values into quoted strings of 255:", N=DKIM_LEN), r'''
(defn txt-value
  "A TXT rdata as Tessera wants it: quoted strings of at most 255 characters."
  [data]
  (let [s (subs data 1 (dec (count data)))]
    (str/join " " (map #(str "\"" (str/escape (apply str %) {\" "\\\"" \\ "\\\\"}) "\"") (partition-all 255 s)))))
(def plan (update plan "corvane.com"
                  (fn [ups] (mapv #(if (= "TXT" (:type %)) (update % :values (partial mapv txt-value)) %) ups))))
(def com-results (mapv #(tool/ts-upsert %) (plan "corvane.com")))
(println (frequencies (map :status com-results)))
''', "unbound_symbol")

s.turn("No str/escape here; str/replace does it (the key has no quotes anyway).", r'''
(defn txt-value
  "A TXT rdata as Tessera wants it: quoted strings of at most 255 characters."
  [data]
  (let [s (subs data 1 (dec (count data)))]
    (str/join " " (map #(str "\"" (str/replace (apply str %) "\"" "\\\"") "\"") (partition-all 255 s)))))
(def plan (update plan "corvane.com"
                  (fn [ups] (mapv #(if (= "TXT" (:type %)) (update % :values (partial mapv txt-value)) %) ups))))
(def com-results (mapv #(tool/ts-upsert %) (plan "corvane.com")))
(doseq [r com-results]
  (println (format "%-13s %-9s %-36s %-5s %5d" (:record_id r) (:status r) (:fqdn r) (:type r) (:ttl r))))
(println (frequencies (map :status com-results)))
(println "DKIM as written:" (first (:values (first (filter #(= "selector1._domainkey.corvane.com." (:fqdn %)) com-results)))))
''')

s.turn("corvane.com is in (the records written before the refusal came back unchanged). The other three zones:", r'''
(def results
  (assoc (into {} (map (fn [z] [z (mapv #(tool/ts-upsert %) (plan z))]) ["eu.corvane.com" "int.corvane.com" "corvane.io"]))
         "corvane.com" com-results))
(doseq [z ["eu.corvane.com" "int.corvane.com" "corvane.io"]
        r (results z)]
  (println (format "%-15s %-13s %-9s %-36s %-5s %5d %s" z (:record_id r) (:status r) (:fqdn r) (:type r) (:ttl r)
                   (str/join "," (:values r)))))
''')

s.turn("Runbook step 4: every record set resolved at DynaZone and at Tessera, answers and TTLs compared (ANAME as A, delegations left out).", r'''
(defn query-type [ty] (if (= ty "ANAME") "A" ty))
(defn verify
  "Resolves every planned record set of `zone` at DynaZone and at Tessera: [{:name :type :old :new :ok}]."
  [zone]
  (let [ups (remove #(= "NS" (:type %)) (plan zone))
        qs (mapv (fn [u] {:name (:name u) :type (query-type (:type u))}) ups)
        [old new] (pcalls #(tool/dns-resolve {:server "old" :queries qs}) #(tool/dns-resolve {:server "new" :queries qs}))
        view (fn [r] {:rcode (:rcode r) :ttl (set (map :ttl (:answers r))) :data (set (map :data (:answers r)))})]
    (mapv (fn [q o n] {:name (:name q) :type (:type q) :old (view o) :new (view n) :ok (= (view o) (view n))})
          qs (:results old) (:results new))))
(def checks (into {} (map (fn [z] [z (verify z)]) (keys plan))))
(doseq [[z cs] checks]
  (println (format "%-16s %3d record sets, %3d identical" z (count cs) (count (filter :ok cs)))))
(doseq [[z cs] checks c cs :when (not (:ok c))]
  (println "DIFF" (:name c) (:type c) "old" (:old c) "new" (:new c)))
(println "e.g." (first (checks "corvane.io")))
''')

s.turn("All identical. Runbook step 5, the TTL plan: lower to 300 s at DynaZone the largest TTL plus one hour before the NS change.", r'''
(defn shift-hours
  "The UTC timestamp `h` hours after `ts` (negative: before); yyyy-mm-ddThh:mm:ssZ within one month."
  [ts h]
  (let [[y mo d hh] (map parse-long (re-seq #"\d+" (subs ts 0 13)))
        t (+ (* 24 d) hh h)]
    (format "%04d-%02d-%02dT%02d%s" y mo (quot t 24) (rem t 24) (subs ts 13))))
(def ns-change-at (get-in data/brief [:cutover :ns_change_at]))
(def max-ttl (apply max (mapcat (fn [[z rs]] (map :ttl (content rs))) parsed)))
(def ttl-plan {:max-ttl max-ttl :lower-to 300 :lower-at (shift-hours ns-change-at (- (inc (quot max-ttl 3600))))})
(println "largest TTL" max-ttl "s:" (vec (distinct (for [[z rs] parsed r (content rs) :when (= max-ttl (:ttl r))] (str (fq z (:name r)) " " (:type r))))))
(println "TTL plan:" ttl-plan)
''')

s.turn("Scheduling the lowering at DynaZone for the four zones, every type of record set they have:", r'''
(def ttl-jobs
  (mapv (fn [z] (tool/dz-ttl {:zone z :ttl 300 :at (:lower-at ttl-plan) :types (vec (distinct (map :type (parsed z))))}))
        (keys parsed)))
(doseq [j ttl-jobs]
  (println (:job_id j) (:zone j) (:status j) "at" (:at j)))
''', "tool")

s.turn("NS and SOA stay with DynaZone. Without them:", r'''
(def ttl-jobs
  (mapv (fn [z] (tool/dz-ttl {:zone z :ttl 300 :at (:lower-at ttl-plan)
                              :types (vec (remove #{"SOA" "NS"} (distinct (map :type (parsed z)))))}))
        (keys parsed)))
(doseq [j ttl-jobs]
  (println (:job_id j) (format "%-16s" (:zone j)) (:status j) "at" (:at j) "ttl" (:ttl j) (:types j)))
''')

s.turn("Runbook step 7: the standard change for the window, citing the TTL jobs.", fill(r'''
(def ticket
  (tool/dns-change-ticket
   {:action "create"
    :title "<<TITLE>>"
    :zones (vec (keys parsed))
    :window_start ns-change-at
    :window_end (get-in data/brief [:cutover :window_end])
    :ttl_lower_at (:lower-at ttl-plan)
    :rollback "Set the registrar NS of corvane.com and corvane.io back to ns1.dynazone.net, ns2.dynazone.net and ns3.dynazone.org; DynaZone keeps serving the unchanged zones until the contract ends on 2025-03-31"
    :links (mapv :job_id ttl-jobs)}))
(println (:ticket_id ticket) (:status ticket) "revision" (:revision ticket) (:template ticket) (:url ticket))
(doseq [a (:approvals ticket)] (println "  " a))
(println "window" (:window_start ticket) "-" (:window_end ticket) "| TTLs lowered at" (:ttl_lower_at ticket))
''', TITLE=TITLE))

s.turn("Runbook step 6: the certificates of the HTTPS names and how they renew.", r'''
(def https-names ["corvane.com" "www.corvane.com" "api.corvane.com" "api-eu.corvane.com" "api-eu.eu.corvane.com"
                  "api-eu1.eu.corvane.com" "corvane.io" "www.corvane.io" "docs.corvane.io" "developer.corvane.io"
                  "sandbox.corvane.io"])
(def certs (into {} (pmap (fn [h] [h (tool/tls-cert {:host h})]) https-names)))
(doseq [[h c] certs]
  (println (format "%-23s %-43s until %s (%3d d) covers %-5s %-7s %s" h (:issuer c) (subs (:not_after c) 0 10)
                   (:days_left c) (:covers_host c) (get-in c [:renewal :status]) (get-in c [:renewal :method]))))
''')

s.turn("One renewal is failing: api-eu1.eu.corvane.com, five days left. Its details, and every ACME delegation into DynaZone in the zones:", r'''
(doseq [[h c] certs :when (not= "ok" (get-in c [:renewal :status]))]
  (println h "serial" (:serial c) "SANs" (:sans c) "not after" (:not_after c))
  (doseq [[k v] (:renewal c)] (println "   " (name k) ":" v)))
(def acme-cnames (vec (for [[z rs] parsed r rs :when (str/starts-with? (:name r) "_acme-challenge")]
                        [(fq z (:name r)) (:data r)])))
(doseq [[n target] acme-cnames] (println n "CNAME" target))
''')

s.turn("Before moving on: do the CAA records allow the CAs that issue these certificates? At Tessera:", r'''
(def caa (tool/dns-resolve {:server "new" :queries [{:name "corvane.com" :type "CAA"} {:name "eu.corvane.com" :type "CAA"}
                                                    {:name "corvane.io" :type "CAA"}]}))
(doseq [r (:results caa)]
  (println (format "%-16s %-8s" (:name r) (:rcode r)) (mapv :data (:answers r))))
(defn caa-zone [h] (cond (str/ends-with? h ".eu.corvane.com") "eu.corvane.com"
                          (str/ends-with? h "corvane.io") "corvane.io"
                          :else "corvane.com"))
(doseq [[z hs] (group-by #(caa-zone (key %)) certs)]
  (println z "certificates issued by" (vec (distinct (map #(:issuer (val %)) hs)))))
''')

s.prose(fill("""Where the migration stands:

- Tessera has every record set of the four zones as I parsed them (corvane.com with the DKIM key split at 255, eu.corvane.com with the two imported records fixed: <<E>> api-eu = 185.40.12.70/.71, <<E1>> api-eu1 = 185.40.12.17), and all of them resolve identically at both providers.
- TTLs are scheduled to drop to 300 s at DynaZone, filed under <<T>>.
- CAA: corvane.com allows letsencrypt.org and digicert.com (both issue there), eu.corvane.com only Let's Encrypt (its only issuer), corvane.io has no CAA at Tessera.
- api-eu1.eu.corvane.com's certificate (Let's Encrypt E5) ends <<NA>> and cannot renew: its dns-01 challenge goes through a CNAME into acme.dynazone.net and DynaZone froze ACME for the account. The other ACME CNAMEs (www, api, api-eu) point there too and will break the same way when their certificates come up for renewal.

Left: mail (what breaks worst), the origins' health, the delegation TTL at the parent, and the cutover plan.""",
                E=RID_EU, E1=RID_EU1, T=TICKET, NA=EU1_CERT["not_after"]))

s.turn("The mail records first, at both providers: MX, SPF, DMARC and CAA of the two mail domains.", r'''
(def mail-qs [{:name "corvane.com" :type "MX"} {:name "corvane.com" :type "TXT"} {:name "_dmarc.corvane.com" :type "TXT"}
              {:name "corvane.com" :type "CAA"} {:name "corvane.io" :type "MX"} {:name "corvane.io" :type "TXT"}
              {:name "_dmarc.corvane.io" :type "TXT"} {:name "corvane.io" :type "CAA"}])
(def mail-old (tool/dns-resolve {:server "old" :queries mail-qs}))
(def mail-new (tool/dns-resolve {:server "new" :queries mail-qs}))
(defn brief-answer [r] (str (:rcode r) " " (count (:answers r)) " answers, ttl " (str/join "," (distinct (map :ttl (:answers r))))))
(doseq [[o n] (map vector (:results mail-old) (:results mail-new))]
  (println (format "%-20s %-4s old %-32s | new %s" (:name o) (:type o) (brief-answer o) (brief-answer n))))
(doseq [r (:results mail-old) :when (= "corvane.io." (:name r))]
  (println (:type r) (mapv (juxt :ttl :data) (:answers r))))
''')

s.turn("corvane.io's MX, SPF, DMARC and CAA exist at DynaZone (TTL 172800 and 86400) but not at Tessera: my parser never saw them. Which export lines it dropped:", fill(r'''
(doseq [[z e] exports]
  (let [lines (remove #(or (str/blank? %) (str/starts-with? % ";") (str/starts-with? % "$")) (str/split-lines (:text e)))]
    (println (format "%-16s %3d record lines, %3d parsed" z (count lines) (count (parsed z))))))
(doseq [l (str/split-lines (:text (exports "corvane.io")))
        :when (and (not (str/starts-with? l ";")) (not (str/starts-with? l "$")) (not (re-matches <<RE>> l)))]
  (println "dropped:" l))
''', RE=PARSE_RE))

s.turn("Nine lines of corvane.io dropped, all with a TTL written with a unit (2d, 1d), which my regex only took in digits. The parser again, with TTL units:", r'''
(defn ttl-seconds
  "A BIND TTL in seconds: 3600, 300s, 30m, 1h, 1d, 2d, 1w."
  [s]
  (let [[_ n unit] (re-matches #"(\d+)([smhdw]?)" (str/lower-case s))]
    (* (parse-long n) ({"" 1 "s" 1 "m" 60 "h" 3600 "d" 86400 "w" 604800} unit))))
(defn parse-zone
  "Records of a BIND zone export: {:name :ttl :type :data}, TTL in seconds (units s m h d w; $TTL when the line has none)."
  [text]
  (let [lines (str/split-lines text)
        default-ttl (some #(second (re-matches #"^\$TTL\s+(\S+)\s*$" %)) lines)]
    (vec (keep (fn [l]
                 (when-let [[_ owner ttl type data] (re-matches #"^(\S+)\s+(?:(\d+[smhdwSMHDW]?)\s+)?IN\s+([A-Z]+)\s+(.+?)\s*$" l)]
                   {:name owner :ttl (ttl-seconds (or ttl default-ttl)) :type type :data data}))
               lines))))
(def parsed (into {} (map (fn [[z e]] [z (parse-zone (:text e))]) exports)))
(doseq [[z rs] parsed]
  (println (format "%-16s %3d records, max TTL without SOA/NS %6d" z (count rs) (apply max (map :ttl (content rs))))))
(doseq [r (parsed "corvane.io")]
  (println (format "%-30s %6d %-6s %s" (:name r) (:ttl r) (:type r) (:data r))))
''')

s.turn("Every line parsed now, and corvane.com, eu and int are unchanged. The corvane.io plan again, and the missing record sets written:", r'''
(def plan (assoc plan "corvane.io" (vec (keep #(to-upsert "corvane.io" %) (rrsets "corvane.io" (parsed "corvane.io"))))))
(def io-results (mapv #(tool/ts-upsert %) (plan "corvane.io")))
(def results (assoc results "corvane.io" io-results))
(doseq [r io-results]
  (println (format "%-13s %-9s %-32s %-5s %6d %s" (:record_id r) (:status r) (:fqdn r) (:type r) (:ttl r) (str/join "," (:values r)))))
(println (frequencies (map :status io-results)))
''')

s.turn("The TTL plan was computed from the same incomplete parse: the largest TTL is not 86400. Recomputing it:", r'''
(def max-ttl (apply max (mapcat (fn [[z rs]] (map :ttl (content rs))) parsed)))
(def ttl-plan {:max-ttl max-ttl :lower-to 300 :lower-at (shift-hours ns-change-at (- (inc (quot max-ttl 3600))))})
(println "largest TTL" max-ttl "s:" (vec (distinct (for [[z rs] parsed r (content rs) :when (= max-ttl (:ttl r))] (str (fq z (:name r)) " " (:type r))))))
(println "TTL plan:" ttl-plan)
''')

s.turn("Lowering 49 hours ahead instead of 25. Rescheduling the four jobs, every record set except NS and SOA this time (corvane.io's MX and CAA were not in the types I gave):", r'''
(def ttl-jobs (mapv (fn [z] (tool/dz-ttl {:zone z :ttl 300 :at (:lower-at ttl-plan)})) (keys parsed)))
(doseq [j ttl-jobs]
  (println (:job_id j) (format "%-16s" (:zone j)) (:status j) "at" (:at j) (format "%2d" (:record_sets j)) "record sets,"
           "supersedes" (:supersedes j) (:types j)))
''')

s.turn(fill("The change <<T>> still says the earlier time. Updating it:", T=TICKET), fill(r'''
(def ticket-rev
  (tool/dns-change-ticket
   {:action "update" :ticket_id "<<T>>" :ttl_lower_at "<<LA>>"
    :links [<<J>>]
    :note "TTL lowering moved to <<LA>>: corvane.io's MX, SPF and DMARC records have a TTL of 172800 s (2d) that the first parse of the export missed; the earlier DynaZone jobs are superseded."}))
(println (select-keys ticket-rev [:revision :changed :status :ttl_lower_at]))
''', T=TICKET, LA=LOWER_AT, J=qs(JOBS[z] for z in w.ZONES)))

s.turn("Runbook step 3 for every address, private ones included: the origins' health.", r'''
(def addrs (vec (distinct (map :data (filter #(#{"A" "AAAA"} (:type %)) (mapcat val parsed))))))
(def health (tool/origin-health {:ips addrs}))
(println (:checked health) "checked," (:down health) "down")
(doseq [r (:results health)]
  (println (format "%-18s %-5s %-15s %4s ms  %s" (:ip r) (:status r) (:probe r) (or (:latency_ms r) "-") (:detail r))))
''')

s.turn(fill("<<O>> (api-eu-origin.int.corvane.com) does not answer. The prod-app subnet in IPAM:", O=OLD_ORIGIN), r'''
(def ipam-app (tool/ipam-lookup {:query "10.20.30.0/24"}))
(doseq [a (:allocations ipam-app)]
  (println (format "%-13s %-15s %-19s %-14s %s%s" (:ip a) (:status a) (:hostname a) (:owner a) (:note a)
                   (if (:replaced_by a) (str " -> replaced by " (:replaced_by a)) ""))))
''')

s.turn(fill("Retired on 2025-03-10 and replaced by <<N>> (api-eu-origin-v2): DynaZone's int zone was never updated. Checking the new address before I write it:", N=NEW_ORIGIN),
       fill(r'''
(println (:results (tool/origin-health {:ips ["<<N>>"]})))
(println (:results (tool/dns-resolve {:server "new" :queries [{:name "api-eu-origin.int.corvane.com" :type "A"}]})))
''', N=NEW_ORIGIN))

s.turn(fill("Up, <<L>> ms. Tessera holds the dead address under <<R>>: updating it, and the plan with it.", R=ORIGIN_RID, L=LAT41),
       fill(r'''
(def origin-fix (tool/ts-upsert {:zone "int.corvane.com" :name "api-eu-origin" :type "A" :ttl 300
                                 :values ["<<N>>"] :record_id "<<R>>"}))
(println (:fqdn origin-fix) (:status origin-fix) "->" (:values origin-fix))
(def plan (update plan "int.corvane.com"
                  (fn [ups] (mapv #(if (= "api-eu-origin.int.corvane.com." (:name %)) (assoc % :values ["<<N>>"]) %) ups))))
(println (filter #(str/starts-with? (:name %) "api-eu-origin") (plan "int.corvane.com")))
''', N=NEW_ORIGIN, R=ORIGIN_RID))

s.turn("Runbook step 4 again over everything, now that corvane.io is complete and the origin moved:", r'''
(def checks (into {} (map (fn [z] [z (verify z)]) (keys plan))))
(doseq [[z cs] checks]
  (println (format "%-16s %3d record sets, %3d identical" z (count cs) (count (filter :ok cs)))))
(doseq [[z cs] checks c cs :when (not (:ok c))]
  (println "DIFF" (:name c) (:type c) "old" (:old c) "new" (:new c)))
(def verified-rrsets (sum (map count (vals checks))))
(println "verified:" verified-rrsets)
''')

s.turn(fill("<<V>> record sets; the only difference is the origin, on purpose. How long DynaZone must keep serving: the NS TTLs at the parents.", V=VERIFIED), r'''
(def parent (tool/dns-resolve {:server "parent" :queries [{:name "corvane.com" :type "NS"} {:name "corvane.io" :type "NS"}
                                                          {:name "eu.corvane.com" :type "NS"}]}))
(doseq [r (:results parent)]
  (println (:name r) "at" (:server r) (mapv (juxt :ttl :data) (:answers r))))
(def keep-old-until (shift-hours ns-change-at (quot (apply max (mapcat #(map :ttl (:answers %)) (:results parent))) 3600)))
(println "keep DynaZone serving until" keep-old-until)
''')

s.turn("The .com delegation is cached for up to two days, so DynaZone keeps serving until two days after the change, well before the contract ends. A last look at Tessera's zones before the plan:", r'''
(def final-ts (into {} (pmap (fn [z] [z (tool/ts-records {:zone z})]) (keys plan))))
(doseq [[z ts] final-ts]
  (println (format "%-16s %3d record sets at Tessera, %3d in the plan" z (:record_sets ts) (count (plan z)))))
(doseq [r (:records (final-ts "corvane.com")) :when (= "NS" (:type r))]
  (println (:fqdn r) (:type r) (:ttl r) (count (:values r)) "nameservers, all Tessera's:"
           (= (set (:values r)) (set (tessera-ns "eu.corvane.com")))))
''')

CUT_HEAD = fill(r'''
(def cutover
  (tool/dns-cutover-submit
   {:ticket_id "<<T>>"
    :ns_change_at "<<AT>>"
    :ttl_lowered_at "<<LA>>"
    :keep_old_until "<<K>>"
    :zones [{:zone "corvane.com" :tessera_zone_id "<<Z1>>" :nameservers [<<N1>>]}
            {:zone "eu.corvane.com" :tessera_zone_id "<<Z2>>" :nameservers [<<N2>>]}''',
                T=TICKET, AT=w.NS_CHANGE_AT, LA=LOWER_AT, K=KEEP, Z1=TZ["corvane.com"], N1=qs(NS["corvane.com"]),
                Z2=TZ["eu.corvane.com"], N2=qs(NS["eu.corvane.com"]))

s.cut("Runbook step 8, the cutover plan:", CUT_HEAD + r'''
            {:zone "int.corvane.com" :tessera_zone_id "''')

FOLLOWUPS = fill(r'''["renew api-eu1.eu.corvane.com (expires <<NA>>) before the change, by http-01: its dns-01 CNAME into acme.dynazone.net is frozen"
                 "move the ACME CNAMEs of www, api, api-eu and api-eu1 off acme.dynazone.net before 2025-03-31"
                 "remove the stale api-eu-origin record from DynaZone's int view (still answers with a retired address until the switch)"]''',
                 NA=EU1_CERT["not_after"])

s.turn("Cut off. The whole plan:", CUT_HEAD + fill(r'''
            {:zone "int.corvane.com" :tessera_zone_id "<<Z3>>"}
            {:zone "corvane.io" :tessera_zone_id "<<Z4>>" :nameservers [<<N4>>]}]
    :verified_rrsets <<V>>
    :rollback "registrar NS back to ns1.dynazone.net, ns2.dynazone.net, ns3.dynazone.org; re-associate the DynaZone private view with vpc-0a7e3c19"
    :followups <<F>>}))
(println (:plan_id cutover) (:status cutover) "ns change" (:ns_change_at cutover) "keep old until" (:keep_old_until cutover))
(doseq [j (:registrar_jobs cutover)] (println "  registrar" j))
(doseq [d (:delegations cutover)] (println "  delegation" d))
(println "  private" (:private_resolver cutover))
(doseq [c (:checks cutover)] (println "  check" c))
''', Z3=TZ["int.corvane.com"], Z4=TZ["corvane.io"], N4=qs(NS["corvane.io"]), V=VERIFIED, F=FOLLOWUPS))

s.turn(fill("Scheduled as <<P>>. Linking the plan and the registrar jobs from the change:", P=PLAN), fill(r'''
(def ticket-final
  (tool/dns-change-ticket {:action "update" :ticket_id "<<T>>" :links ["<<P>>" "<<G1>>" "<<G2>>"]
                           :note "Cutover plan <<P>> scheduled: Gandi NS change for corvane.com (<<G1>>) and corvane.io (<<G2>>) at 2025-03-18T06:00:00Z; DynaZone serves until <<K>>."}))
(println (select-keys ticket-final [:revision :changed :status]) (count (:links ticket-final)) "links")
''', T=TICKET, P=PLAN, G1=REG["corvane.com"], G2=REG["corvane.io"], K=KEEP))

s.turn("Everything is filed. The summary:", fill(r'''
(def summary
  {:ticket "<<T>>"
   :cutover-plan "<<P>>"
   :ns-change-at "2025-03-18T06:00:00Z"
   :registrar-jobs {"corvane.com" "<<G1>>" "corvane.io" "<<G2>>"}
   :tessera {"corvane.com" "<<Z1>>" "eu.corvane.com" "<<Z2>>" "int.corvane.com" "<<Z3>>" "corvane.io" "<<Z4>>"}
   :record-sets-verified <<V>>
   :ttl {:largest 172800 :largest-at ["corvane.io. MX" "corvane.io. TXT" "_dmarc.corvane.io. TXT"] :lowered-to 300
         :lowered-at "<<LA>>" :jobs [<<J>>]}
   :keep-dynazone-until "<<K>>"
   :dynazone-zones {"corvane.com" "<<D1>>" "eu.corvane.com" "<<D2>>" "int.corvane.com" "<<D3>>" "corvane.io" "<<D4>>"}
   :fixed [{:record "<<E>>" :fqdn "api-eu.eu.corvane.com." :type "A" :values [<<A>>] :why "the February import had one of the two addresses"}
           {:record "<<E1>>" :fqdn "api-eu1.eu.corvane.com." :type "A" :values [<<A1>>] :why "the February import had the load balancer's address"}
           {:record "<<R>>" :fqdn "api-eu-origin.int.corvane.com." :type "A" :values ["<<N>>"] :why "DynaZone's address is retired; api-eu-origin-v2"}]
   :converted [{:fqdn "corvane.io." :from "ALIAS" :to "ANAME"}
               {:fqdn "selector1._domainkey.corvane.com." :type "TXT" :change "split into strings of 255"}
               {:fqdn "eu.corvane.com." :type "NS" :change "delegation to Tessera's eu nameservers"}]
   :certificates {:at-risk "api-eu1.eu.corvane.com" :expires "<<NA>>" :serial "<<S>>"}
   :followups <<F>>})
(println (:ticket summary) (:cutover-plan summary) (get-in summary [:ttl :lowered-at]) (:keep-dynazone-until summary))
''', T=TICKET, P=PLAN, G1=REG["corvane.com"], G2=REG["corvane.io"], Z1=TZ["corvane.com"], Z2=TZ["eu.corvane.com"],
    Z3=TZ["int.corvane.com"], Z4=TZ["corvane.io"], V=VERIFIED, LA=LOWER_AT, J=qs(JOBS[z] for z in w.ZONES), K=KEEP,
    E=RID_EU, E1=RID_EU1, R=ORIGIN_RID, N=NEW_ORIGIN, NA=EU1_CERT["not_after"], S=EU1_CERT["serial"], F=FOLLOWUPS,
    A=qs(EU_A), A1=qs(EU1_A), D1=w.DZ_ZONES["corvane.com"]["dz_id"], D2=w.DZ_ZONES["eu.corvane.com"]["dz_id"],
    D3=w.DZ_ZONES["int.corvane.com"]["dz_id"], D4=w.DZ_ZONES["corvane.io"]["dz_id"]))

s.turn("The zones are at Tessera, verified, and the switch is scheduled.", r'''
(return summary)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
