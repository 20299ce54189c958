#!/usr/bin/env python3
"""The model answers of the cloud-cost-audit session.
Account ids, resource ids, ticket keys, people, amounts, percentages and
rates the agent reuses are taken from world.py (and tool.py's numbering and
rounding), as the model takes them from the prints of earlier turns. Two
corrections, each after the old value was printed: the first allocation is
made from the cost report's default amortized list prices, and redone at
net_amortized prices once the budgets' actuals turn out to be 91% of the tag
costs and the price list shows the 9% EDP discount (`team-tags`, `direct`,
`shared-pool` and `allocation` redefined); the three feature-store nodes and
their volumes, tagged team=search, are found in the directory to belong to
analytics since 2024-09-16, so their cost moves from search to analytics
(`direct` and `allocation` redefined again) and their ticket goes to Daniela
Berger, not to the owner tag's Yuki Tanaka. Later programs write only the
corrected values."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()



def f2(x):
    return "%.2f" % x


# --- what the agent sees, mirrored to write the literals it copies -------------------------

BY_ACCOUNT = t.cost_report({"month": "2024-10", "group_by": "account"})
TEAM_NET_REPORT = t.cost_report({"month": "2024-10", "group_by": "team", "cost_type": "net_amortized"})
TEAM_NET = {r["key"]: r["amount"] for r in TEAM_NET_REPORT["rows"]}
NET_TOTAL = TEAM_NET_REPORT["total"]
DISC = 0.09

INVENTORY = [dict(r, account_id=a) for a, _ in w.ACCOUNTS for r in t.resources({"account_id": a})["resources"]]
UNTAGGED = [r for r in INVENTORY if "team" not in r["tags"]]
UNTAGGED_TEAM = {"i-0f5d8e3c1b2a49d70": "growth", "vol-07b3e9f2c6d1a4805": "growth",
                 "kestrel-order-exports": "analytics", "vol-0b7e2f1a9c3d58e42": "platform",
                 "vol-03c9d4e8f1a2b7c65": "platform"}
assert {r["resource_id"] for r in UNTAGGED} == set(UNTAGGED_TEAM), [r["resource_id"] for r in UNTAGGED]


def allocate(tags, untagged_cost):
    direct = {k: v for k, v in tags.items() if k != "(untagged)"}
    for rid, c in untagged_cost.items():
        direct[UNTAGGED_TEAM[rid]] = direct.get(UNTAGGED_TEAM[rid], 0) + c
    pool = tags["(untagged)"] - sum(untagged_cost.values())
    d = sum(direct.values())
    return direct, pool, {k: v + pool * v / d for k, v in direct.items()}


DIRECT_NET, POOL_NET, _ = allocate(TEAM_NET, {r["resource_id"]: r["monthly_cost"] * (1 - DISC) for r in UNTAGGED})
MISTAGGED = [r for r in INVENTORY if r["tags"].get("service") == "feature-store"]
MOVED = sum(r["monthly_cost"] for r in MISTAGGED) * (1 - DISC)
DIRECT_FIX = dict(DIRECT_NET, search=DIRECT_NET["search"] - MOVED, analytics=DIRECT_NET["analytics"] + MOVED)
ALLOC_FIX = {k: v + POOL_NET * v / sum(DIRECT_FIX.values()) for k, v in DIRECT_FIX.items()}

SANDBOX = w.SANDBOX
G5 = t.price_list({"instance_type": "g5.12xlarge", "region": "us-east-1"})
GPU_SAVING = G5["on_demand_hourly"] * 744 * (1 - DISC)

# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the audit brief and October's cost by account.", r'''
(println data/audit)
(def by-account (tool/cost-report {:month "2024-10" :group_by "account"}))
(println (:currency by-account) (:total by-account) (:cost_type by-account))
(doseq [r (:rows by-account)]
  (println (:key r) (format "%-18s %10.2f %6.2f%%" (:account_name r) (:amount r) (:share_pct r))))
''')

s.turn("Prod is more than half of the bill. The cost by service, first page:", r'''
(def svc-page1 (tool/cost-report {:month "2024-10" :group_by "service"}))
(println (:pages svc-page1) "pages," (count (:rows svc-page1)) "rows on page 1, total" (:total svc-page1))
''')

s.turn("Two pages. Both together, as a table:", r'''
(def by-service
  (into (:rows svc-page1) (:rows (tool/cost-report {:month "2024-10" :group_by "service" :page 2}))))
(doseq [r by-service]
  (println (format "%-42s %-18s %9.2f %6.2f%%" (:key r) (:account_name r) (:amount r) (:share_pct r))))
''')

s.turn("EC2, S3 and Redshift lead. Now the same month by team tag:", r'''
(def by-team (tool/cost-report {:month "2024-10" :group_by "team"}))
(def team-tags (into {} (map (juxt :key :amount) (:rows by-team))))
(doseq [r (:rows by-team)]
  (println (format "%-12s %10.2f %6.2f%%" (:key r) (:amount r) (:share_pct r))))
''')

s.turn("Almost a quarter of the bill has no team tag. The tagging policy says how to allocate it:", r'''
(def policy (tool/tagging-policy))
(println "policy" (:version policy))
(doseq [t (:required_tags policy)]
  (println " " (:key t) "-" (:rule t) (if (:allowed t) (str "| " (clojure.string/join " " (:allowed t))) "")))
(doseq [a (:allocation policy)]
  (println "*" a))
(doseq [a (:account_owners policy)]
  (println " " (:account_id a) (:account_name a) "->" (:owner_team a)))
''')

s.turn("And the budget alerts of the month:", r'''
(def alerts (tool/budget-alerts {:month "2024-10"}))
(doseq [a alerts]
  (println (:alert_id a) (format "%-24s" (:budget a)) (:limit a) "|" (:actual a) (str (:used_pct a) "%")
           (:state a) (or (:first_breach a) "") "|" (:basis a)))
''')

s.turn("Three budgets in alarm: search, platform and the sandbox account. How far over or under each one is:", r'''
(doseq [a alerts]
  (println (:budget a) (- (:actual a) (:limit a))))
''', "type")

s.turn('The amounts are strings like "USD 13,500.00". A parser, then the gaps:', r'''
(defn usd [s] (parse-double (clojure.string/replace (subs s 4) "," "")))
(def budgets
  (into {} (for [a alerts]
             [(clojure.string/replace (:budget a) #"^team-|-monthly$" "")
              {:limit (usd (:limit a)) :actual (usd (:actual a)) :state (:state a)}])))
(doseq [[b {:keys [limit actual state]}] budgets]
  (println (format "%-16s %9.2f of %9.2f  %+9.2f  %s" b actual limit (- actual limit) state)))
''')

s.turn("Now the inventory of every account, for the untagged spend and the utilisation sweep.", r'''
(def inventory
  (vec (mapcat (fn [acc] (map #(assoc % :account_id acc) (:resources (tool/resources {:account_id acc}))))
               (map :key (:rows by-account)))))
''')

s.turn("Which resources have no team tag:", r'''
(def untagged (filterv #(nil? (get-in % [:tags :team])) inventory))
(println (count inventory) "resources," (count untagged) "without a team tag:"
         (format "%.2f" (sum (map :monthly_cost untagged))))
(doseq [r untagged]
  (println (:resource_id r) (:account_id r) (:kind r) (:type r) (:region r) (:state r)
           (format "%.2f" (:monthly_cost r)) (:tags r) "|" (:created_by r)))
''')

s.turn("Three were created by two IAM users, two by the CI deployer role. The two users in the directory:", r'''
(def creators
  (into {} (for [email ["rahul.mehta@kestrel.io" "daniela.berger@kestrel.io"]]
             [email (tool/directory {:email email})])))
(doseq [[email d] creators]
  (println email "->" (map (juxt :name :team :role) (:people d)) "| owns" (map :service (:services d))))
''')

s.turn("Rahul Mehta's GPU instance and its volume go to growth, Daniela Berger's export bucket to analytics, and the CI role's two staging volumes to platform, which owns the staging account.", r'''
(def untagged-team
  {"i-0f5d8e3c1b2a49d70" "growth"
   "vol-07b3e9f2c6d1a4805" "growth"
   "kestrel-order-exports" "analytics"
   "vol-0b7e2f1a9c3d58e42" "platform"
   "vol-03c9d4e8f1a2b7c65" "platform"})
''')

s.turn("The allocation: each team's tagged cost plus its untagged resources, and the shared costs (the untagged rest: Support, Marketplace, CloudWatch, data transfer, ...) split in proportion.", r'''
(def direct
  (merge-with + (dissoc team-tags "(untagged)")
              (reduce (fn [m r] (update m (untagged-team (:resource_id r)) (fnil + 0) (:monthly_cost r))) {} untagged)))
(def shared-pool (- (team-tags "(untagged)") (sum (map :monthly_cost untagged))))
(def allocation
  (let [d (sum (vals direct))]
    (into {} (for [[t c] direct] [t (+ c (* shared-pool (/ c d)))]))))
(println "shared pool" (format "%.2f" shared-pool) "split over" (format "%.2f" (sum (vals direct))) "of direct cost")
(doseq [[t c] (sort-by val > allocation)]
  (println (format "%-10s direct %9.2f  allocated %9.2f" t (direct t) c)))
(println "total" (format "%.2f" (sum (vals allocation))))
''')

s.turn("Against the budgets, which track the team tag alone, so the tag cost is what compares:", r'''
(doseq [t ["payments" "search" "catalog" "analytics" "platform" "growth"]]
  (let [b (budgets t)]
    (println (format "%-10s tag %9.2f  budget actual %9.2f  ratio %.4f" t (team-tags t) (:actual b)
                     (/ (:actual b) (team-tags t))))))
''')

s.turn("Every budget actual is exactly 0.91 of the tag cost: the budgets are kept on net amortized cost, and the report gave me list prices. The contract should show on the price list:", r'''
(def m5-price (tool/price-list {:instance_type "m5.2xlarge" :region "eu-central-1"}))
(println (dissoc m5-price :contract))
(println (:contract m5-price))
''')

s.turn("A 9% EDP discount on everything but Support, Marketplace and taxes, and the brief asks for what Kestrel pays. The team costs again, net:", r'''
(def by-team-net (tool/cost-report {:month "2024-10" :group_by "team" :cost_type "net"}))
(println (:total by-team-net))
''', "tool")

s.turn("net_amortized, as the budgets use. Keeping the list figures to compare:", r'''
(def by-team-net (tool/cost-report {:month "2024-10" :group_by "team" :cost_type "net_amortized"}))
(def team-tags-list team-tags)
(def team-tags (into {} (map (juxt :key :amount) (:rows by-team-net))))
(println "total" (:total by-account) "list ->" (:total by-team-net) "net")
(doseq [[t c] (sort-by val > team-tags)]
  (println (format "%-12s %10.2f -> %10.2f" t (team-tags-list t) c)))
''')

s.turn("The untagged row falls less than 9% because Support and Marketplace keep their price. The allocation again at net: the untagged resources' inventory costs are list, so they get the discount too.", r'''
(def discount 0.09)
(def untagged-net (into {} (map (fn [r] [(:resource_id r) (* (:monthly_cost r) (- 1 discount))]) untagged)))
(def direct
  (merge-with + (dissoc team-tags "(untagged)")
              (reduce (fn [m [id c]] (update m (untagged-team id) (fnil + 0) c)) {} untagged-net)))
(def shared-pool (- (team-tags "(untagged)") (sum (vals untagged-net))))
(def allocation-list allocation)
(def allocation
  (let [d (sum (vals direct))]
    (into {} (for [[t c] direct] [t (+ c (* shared-pool (/ c d)))]))))
(println "shared pool (net)" (format "%.2f" shared-pool))
(doseq [[t c] (sort-by val > allocation)]
  (println (format "%-10s %9.2f -> %9.2f" t (allocation-list t) c)))
(println "total" (format "%.2f" (sum (vals allocation))))
''')

SANDBOX_DAYS = t.cost_report({"month": "2024-10", "group_by": "day", "account_id": SANDBOX, "cost_type": "net_amortized",
                              "service": w.SVC_EC2})["rows"]
s.turn("The sandbox account is at 160.7% of its budget. Its EC2 cost by day, net:", fill(r"""
(def sandbox-days
  (mapcat #(:rows (tool/cost-report {:month "2024-10" :group_by "day" :account_id "<<SBX>>"
                                     :service "Amazon Elastic Compute Cloud - Compute" :cost_type "net_amortized"
                                     :page %}))
          [1 2]))
(doseq [r sandbox-days]
  (println (:key r) (format "%8.2f" (:amount r))))
""", SBX=SANDBOX))

s.turn(fill("From 2024-10-14 the sandbox's EC2 goes from <<A>> to <<B>> a day: the untagged g5.12xlarge that Rahul Mehta created. Its utilisation over the last 14 days:",
            A=f2(SANDBOX_DAYS[0]["amount"]), B=f2(SANDBOX_DAYS[20]["amount"])), r"""
(def gpu-util (tool/utilisation {:resource_id "i-0f5d8e3c1b2a49d70"}))
(println gpu-util)
(println (select-keys (first (filter #(= "i-0f5d8e3c1b2a49d70" (:resource_id %)) inventory))
                      [:type :region :az :launched :state :monthly_cost]))
""")

s.turn("GPU at 0.0% for two weeks and still running: idle. What it costs for a full month at our price:", r"""
(def g5-price (tool/price-list {:instance_type "g5.12xlarge" :region "us-east-1a"}))
(println (:on_demand_hourly g5-price) (:contract g5-price))
""", "tool")

s.turn("The region, not the zone.", r"""
(def g5-price (tool/price-list {:instance_type "g5.12xlarge" :region "us-east-1"}))
(def gpu-saving (* (:on_demand_hourly g5-price) 744 (- 1 discount)))
(println "g5.12xlarge" (:on_demand_hourly g5-price) "USD/h list," (format "%.4f" (* (:on_demand_hourly g5-price) (- 1 discount)))
         "net; stopped for a full month saves" (format "%.2f" gpu-saving))
""")

s.turn("Platform's alarm next. Its tagged cost is mostly Kafka, monitoring, CI runners and the NAT gateways, and only NAT moves with traffic. NAT sits in prod under EC2 - Other; that line by day, net:", fill(r"""
(def other-days
  (mapcat #(:rows (tool/cost-report {:month "2024-10" :group_by "day" :account_id "<<PROD>>"
                                     :service "EC2 - Other" :cost_type "net_amortized" :page %}))
          [1 2]))
(doseq [r other-days]
  (println (:key r) (format "%8.2f" (:amount r))))
(println "mean" (format "%.2f" (/ (sum (map :amount other-days)) 31)))
""", PROD=w.PROD))

s.turn("About 68 a day, and 470-550 from 2024-10-21 to 10-24. Which NAT gateway:", r"""
(def nats (filterv #(= "nat-gateway" (:kind %)) inventory))
(doseq [n nats]
  (let [u (tool/utilisation {:resource_id (:resource_id n) :days 30})]
    (println (:resource_id n) (get-in n [:tags :Name]) (get-in n [:tags :team]) (format "%8.2f" (:monthly_cost n))
             (:network_gb u) "GB in" (:days u) "days")))
""")

s.turn("nat-prod-a processed about 38 TB more than the others. Is it known?", r"""
(def nat-tickets (tool/tickets {:query "nat"}))
(doseq [t nat-tickets]
  (println (:key t) (:status t) (:assignee t) (:created t) (:resources t) "|" (:summary t))
  (println "   " (:snippet t)))
""")

s.turn("FINOPS-409 has it: catalog's image backfill pulled through the NAT, and the policy keeps NAT costs with platform, so that alarm is a one-off. Now the utilisation sweep: every running instance over the last 14 days, listing those with CPU p95 under 30%.", r"""
(def instances (filterv #(and (= "instance" (:kind %)) (= "running" (:state %))) inventory))
(def utils (into {} (map (juxt :resource_id identity) (pmap #(tool/utilisation {:resource_id (:resource_id %)}) instances))))
(def low
  (sort-by #(:cpu_p95_pct (utils (:resource_id %)))
           (filter #(< (:cpu_p95_pct (utils (:resource_id %))) 30) instances)))
(println (count instances) "running instances," (count low) "with CPU p95 under 30%")
(doseq [i low]
  (let [u (utils (:resource_id i))]
    (println (format "%-20s %-12s %-14s %-8s %-8s avg %4.1f p95 %4.1f mem %5s %8.2f" (:resource_id i) (:type i)
                     (get-in i [:tags :service] "-") (get-in i [:tags :env] "-") (get-in i [:tags :team] "-")
                     (:cpu_avg_pct u) (:cpu_p95_pct u) (if (:mem_p95_pct u) (format "%.1f" (:mem_p95_pct u)) "-")
                     (:monthly_cost i)))))
""")

s.turn("By the brief's rules: under 5% p95 is idle; under 30% with memory p95 under 50% is oversized. Memory decides for the rest: the staging, dev, VPN and ab-testing instances all use more than half of theirs.", r"""
(def idle (filterv #(< (:cpu_p95_pct (utils (:resource_id %))) 5) low))
(def oversized
  (filterv #(let [u (utils (:resource_id %))]
              (and (>= (:cpu_p95_pct u) 5) (:mem_p95_pct u) (< (:mem_p95_pct u) 50)))
           low))
""")

s.turn("That makes three idle instances (the GPU one, the catalog load test in staging, the legacy indexer in prod); stopping them saves their compute. The two that ran all month cost their inventory amount (list, no reservation); the GPU one a full month at the price above.", r"""
(def idle-savings
  (into {} (for [i idle]
             [(:resource_id i) (if (= "i-0f5d8e3c1b2a49d70" (:resource_id i))
                                 gpu-saving
                                 (* (:monthly_cost i) (- 1 discount)))])))
(doseq [[id v] idle-savings]
  (println id (format "%.2f" v)))
(println "idle total" (format "%.2f" (sum (vals idle-savings))))
""")

s.turn("The oversized ones are the three feature-store nodes, r5.4xlarge with CPU p95 under 16% and memory p95 under 42%: one size down is r5.2xlarge.", r"""
(def r5-4x (tool/price-list {:instance_type "r5.4xlarge" :region "eu-central-1"}))
(def r5-2x (tool/price-list {:instance_type "r5.2xlarge" :region "eu-central-1"}))
(def rightsizing
  (into {} (for [i oversized]
             [(:resource_id i) (* (- (:on_demand_hourly r5-4x) (:on_demand_hourly r5-2x)) 744 (- 1 discount))])))
(println "r5.4xlarge" (:on_demand_hourly r5-4x) "-> r5.2xlarge" (:on_demand_hourly r5-2x) "USD an hour at list price")
(doseq [[id v] rightsizing]
  (println id (format "%.2f" v) "a month net"))
(println "rightsizing total" (format "%.2f" (sum (vals rightsizing))))
""")

s.turn("Now the volumes that are not attached to anything:", r"""
(def unattached (filterv #(and (= "volume" (:kind %)) (= "available" (:state %))) inventory))
(def volume-savings (into {} (map (fn [v] [(:resource_id v) (* (:monthly_cost v) (- 1 discount))]) unattached)))
(doseq [v unattached]
  (println (:resource_id v) (:az v) (:type v) (str (:size_gb v) " GiB") "available since" (:available_since v)
           (format "%8.2f list %8.2f net" (:monthly_cost v) (volume-savings (:resource_id v)))
           (get-in v [:tags :team] "untagged") (get-in v [:tags :Name] "")))
(println "unattached total" (format "%.2f" (sum (vals volume-savings))) "net per month")
""")

s.turn("All four have been detached for more than 14 days. Next, the reservations and the coverage:", r"""
(def cov (tool/coverage {:month "2024-10"}))
(println "EC2 coverage" (str (:ec2_coverage_pct cov) "%") "target" (str (:target_pct cov) "%"))
(doseq [sp (:savings_plans cov)]
  (println (:type sp) "SP" (:arn sp) (:commitment_hourly sp) "USD/h," (str (:utilisation_pct sp) "% used,") "ends" (:end sp)))
(doseq [ri (:reserved_instances cov)]
  (println (:ri_id ri) (:service ri) (:count ri) "x" (:instance_type ri) (:term ri) (:state ri) "ends" (:end ri)))
(doseq [f (:by_family cov)]
  (println (format "%-3s %-13s %8.1f h on demand %8.1f h covered %5.1f%% %9.2f on demand" (:family f) (:region f)
                   (:on_demand_hours f) (:covered_hours f) (:coverage_pct f) (:on_demand_cost f))))
""")

s.turn("The r5 reservation (4 x r5.2xlarge) ended on 2024-10-09, so r5 is at 14.7%. Those four are the recommendations instances; what renewing it saves:", r"""
(def reco (filterv #(= "recommendations" (get-in % [:tags :service])) instances))
(def ri-saving (* (count reco) (- (:on_demand_hourly r5-2x) (:ri_1y_no_upfront_hourly r5-2x)) 744 (- 1 discount)))
(println (count reco) "recommendations instances:" (map (juxt :resource_id :type :monthly_cost) reco))
(println "RI 1y no upfront" (:ri_1y_no_upfront_hourly r5-2x) "vs on demand" (:on_demand_hourly r5-2x)
         "USD/h: renewing saves" (format "%.2f" ri-saving) "per month, net")
""")

s.turn("Before the tickets, the owners of the findings' services in the directory:", r"""
(def owners
  (into {} (for [sv ["indexer" "catalog-api" "feature-store" "checkout" "recommendations"]]
             [sv (first (:services (tool/directory {:service sv})))])))
(doseq [[sv o] owners]
  (println (format "%-16s" sv) "->" (:team o) (:owner o) "since" (:since o) (or (:note o) "")))
""")

s.turn("feature-store belongs to analytics (Daniela Berger) since 2024-09-16, yet its nodes are tagged team=search with Yuki Tanaka as owner: the allocation charged them to search. The policy says the directory wins. Every resource whose team tag differs from its service's team:", r"""
(def service-team
  (into {} (for [sv (distinct (keep #(get-in % [:tags :service]) inventory))]
             [sv (:team (first (:services (tool/directory {:service sv}))))])))
(def mistagged
  (filterv #(let [tt (get-in % [:tags :team]) sv (get-in % [:tags :service])]
              (and tt sv (not= tt (service-team sv))))
           inventory))
(doseq [r mistagged]
  (println (:resource_id r) (:kind r) (:type r) (get-in r [:tags :team]) "->" (service-team (get-in r [:tags :service]))
           (format "%8.2f" (:monthly_cost r))))
(println (count mistagged) "mistagged:" (format "%.2f" (sum (map :monthly_cost mistagged))) "at list price ="
         (format "%.2f" (* (sum (map :monthly_cost mistagged)) (- 1 discount))) "net")
""")

s.turn("Only the feature-store: three instances and their six volumes. Moving their net cost from search to analytics:", r"""
(def moved (round (* (sum (map :monthly_cost mistagged)) (- 1 discount)) 2))
(def direct (-> direct (update "search" - moved) (update "analytics" + moved)))
""", "arity")

s.turn("round takes one argument here; keeping the full value.", r"""
(def moved (* (sum (map :monthly_cost mistagged)) (- 1 discount)))
(def direct-by-tag direct)
(def direct (-> direct (update "search" - moved) (update "analytics" + moved)))
(def allocation-by-tag allocation)
(def allocation
  (let [d (sum (vals direct))]
    (into {} (for [[t c] direct] [t (+ c (* shared-pool (/ c d)))]))))
(println "search -> analytics:" (format "%.2f" moved))
(doseq [[t c] (sort-by val > allocation)]
  (println (format "%-10s %9.2f -> %9.2f" t (allocation-by-tag t) c)))
(println "total" (format "%.2f" (sum (vals allocation))))
""")

s.turn("The budgets track the tag, so against them the corrected direct costs (what each team's resources cost, net):", r"""
(doseq [t (sort (keys direct))]
  (let [b (budgets t)]
    (println (format "%-10s %9.2f of %9.2f  %5.1f%%  (alert: %s)" t (direct t) (:limit b)
                     (* 100 (/ (direct t) (:limit b))) (:state b)))))
""")

s.prose(fill("""Where the audit stands (October 2024, net of the 9% EDP discount: USD <<TOT>>):

- Allocation: team tags, untagged resources by their creator, shared costs pro rata; the feature-store (USD <<MOVED>> net) moved from search to analytics, as the directory says.
- Alerts: search's is the feature-store's cost under a stale tag (85.8% without it); platform's is the NAT spike of 2024-10-21..24 (FINOPS-409); the sandbox's is the idle GPU instance. After the move analytics is over its budget and growth would be too, with the GPU counted.
- Savings: three idle instances, the feature-store rightsizing, four unattached volumes and the expired r5 reservation.

Next: existing tickets, then the savings table and new tickets.""", TOT=f2(NET_TOTAL), MOVED=f2(MOVED)))

s.turn("Open tickets that already cover any of the findings:", r"""
(def existing
  (into {} (for [q ["unattached" "idle" "reserved" "rightsize" "feature-store" "sandbox"]]
             [q (tool/tickets {:query q :status "open"})])))
(doseq [[q ts] existing]
  (println q "->" (if (seq ts) (map (juxt :key :assignee :resources) ts) "none")))
""")

# the findings, as printed in turns 22-29
SAV = {
    "gpu": f2(GPU_SAVING),
    "loadtest": f2(w.RES_BY_ID["i-04e6b1d8c2a7f3950"]["monthly"] * (1 - DISC)),
    "legacy": f2(round(w.RES_BY_ID["i-0a3f9c21d7e84b615"]["monthly"], 2) * (1 - DISC)),
    "rightsizing": f2(3 * (1.216 - 0.608) * 744 * (1 - DISC)),
    "io1": f2(1376.0 * (1 - DISC)),
    "sbx-vol": f2(71.4 * (1 - DISC)),
    "stg-a": f2(119.0 * (1 - DISC)),
    "stg-b": f2(59.5 * (1 - DISC)),
    "ri": f2(4 * (0.608 - 0.383) * 744 * (1 - DISC)),
}
SAV_TOTAL = sum(float(v) for v in SAV.values())
FS_UTIL = [t.utilisation({"resource_id": x}) for x in w.FEATURE_IDS]
FS_CPU = max(u["cpu_p95_pct"] for u in FS_UTIL)
FS_MEM = max(u["mem_p95_pct"] for u in FS_UTIL)
NEW_TICKETS = [
    ("gpu", "Stop idle g5.12xlarge i-0f5d8e3c1b2a49d70 (llm-finetune-test) in kestrel-sandbox", "rahul.mehta@kestrel.io",
     '["idle" "sandbox"]',
     "Untagged g5.12xlarge launched 2024-10-14 in us-east-1, GPU at 0.0% over the last 14 days, USD 2,397.11 in October. "
     "Save the fine-tuning artefacts, stop it, and tag it team=growth."),
    ("sbx-vol", "Delete unattached volume vol-0e4a1b9c8d7f62a35 (reco-experiments) in kestrel-sandbox",
     "rahul.mehta@kestrel.io", '["unattached-volume" "sandbox"]',
     "gp3 750 GiB, available since 2024-08-30. Snapshot if needed, then delete."),
    ("loadtest", "Stop idle m5.4xlarge i-04e6b1d8c2a7f3950 (catalog-loadtest-2) in kestrel-staging",
     "kwame.mensah@kestrel.io", '["idle" "staging"]',
     "Load-test instance launched 2024-08-12, CPU p95 0.8% over the last 14 days. Stop or terminate it."),
    ("legacy", "Stop idle m5.2xlarge i-0a3f9c21d7e84b615 (indexer-legacy-1) in kestrel-prod", "yuki.tanaka@kestrel.io",
     '["idle"]', "CPU p95 2.1% over the last 14 days; the indexer runs on the six newer instances. Stop it."),
    ("rightsizing", "Rightsize feature-store to r5.2xlarge and fix its team tags", "daniela.berger@kestrel.io",
     '["rightsizing" "tagging"]',
     "i-07c1e5b92f3d4a086, i-0e2b8d4f6a1c93d57, i-0596a3c8e1f7b2d40 (r5.4xlarge): CPU p95 under 16%, memory p95 under "
     "42%. One size down to r5.2xlarge. The nodes and their volumes are still tagged team=search and "
     "owner=yuki.tanaka@kestrel.io; the directory has feature-store with analytics since 2024-09-16."),
    ("io1", "Delete unattached io1 volume vol-0d2c7a9e4b1f83c56 (checkout-pg-data-old) in kestrel-prod",
     "daniel.berg@kestrel.io", '["unattached-volume"]',
     "io1 4000 GiB with 10000 provisioned IOPS, available since 2024-09-02: USD 1,376.00 a month at list. "
     "Snapshot, then delete."),
    (None, "Move the feature-store budget from search to analytics", "hannah.vogel@kestrel.io", '["budget" "tagging"]',
     "feature-store moved to analytics on 2024-09-16 but its cost (USD 3,015.61 a month net) still counts against "
     "team-search-monthly through its team tag: search is at 108.1% with it and 85.8% without it; analytics would "
     "be at 110.3% with it."),
]
KEYS = {k: t.new_ticket_key(summary) for k, summary, *_ in NEW_TICKETS}
assert len(set(KEYS.values())) == len(KEYS), KEYS
BUDGET_KEY = KEYS[None]

s.turn("FINOPS-388 already covers both staging volumes and FINOPS-395 the r5 reservation. The savings, per finding, at net prices for a full month (owners go on the tickets):", fill(r"""
(def savings
  [{:kind "idle" :resource "i-0f5d8e3c1b2a49d70" :monthly <<gpu>> :cpu-p95 0.6
    :action "stop the g5.12xlarge llm-finetune-test (kestrel-sandbox)"}
   {:kind "idle" :resource "i-04e6b1d8c2a7f3950" :monthly <<loadtest>> :cpu-p95 0.8
    :action "stop the m5.4xlarge catalog-loadtest-2 (kestrel-staging)"}
   {:kind "idle" :resource "i-0a3f9c21d7e84b615" :monthly <<legacy>> :cpu-p95 2.1
    :action "stop the m5.2xlarge indexer-legacy-1 (kestrel-prod)"}
   {:kind "oversized" :resource "feature-store" :monthly <<rightsizing>> :cpu-p95 <<FSCPU>> :mem-p95 <<FSMEM>>
    :action "3 x r5.4xlarge -> r5.2xlarge"}
   {:kind "unattached-volume" :resource "vol-0d2c7a9e4b1f83c56"
    :monthly <<io1>> :action "snapshot and delete io1 4000 GiB"}
   {:kind "unattached-volume" :resource "vol-0e4a1b9c8d7f62a35"
    :monthly <<sbx-vol>> :action "snapshot and delete gp3 750 GiB"}
   {:kind "unattached-volume" :resource ["vol-0b7e2f1a9c3d58e42" "vol-03c9d4e8f1a2b7c65"]
    :monthly (+ <<stg-a>> <<stg-b>>) :action "snapshot and delete gp2 1000 + 500 GiB" :ticket "FINOPS-388"}
   {:kind "reservation" :resource "ri-2023-10-09-r5-4f1a8c2e"
    :monthly <<ri>> :action "renew 4 x r5.2xlarge RI 1y no upfront" :ticket "FINOPS-395"}])
(doseq [x (sort-by :monthly > savings)]
  (println (format "%-17s %-43s %8.2f  %s" (:kind x) (:resource x) (:monthly x) (:action x))))
(println "total" (format "%.2f" (sum (map :monthly savings))) "per month")
""", FSCPU=FS_CPU, FSMEM=FS_MEM, **SAV))

s.turn("And a year of it, per kind of finding:", r"""
(println "a year:" (clojure.math/round (* 12 (sum (map :monthly savings)))))
(doseq [[k xs] (group-by :kind savings)]
  (println k (clojure.math/round (sum (map :monthly xs)))))
""", "unbound_symbol")

s.turn("No clojure.math; Math/round does it.", r"""
(println "a year:" (Math/round (* 12 (sum (map :monthly savings)))))
(doseq [[k xs] (sort-by #(- (sum (map :monthly (val %)))) (group-by :kind savings))]
  (println (format "%-17s %8.2f per month" k (sum (map :monthly xs)))))
""")

s.turn("Before the GPU instance's ticket: stopping it keeps its root volume, which Rahul may want for the fine-tuning artefacts. That volume:", r"""
(def gpu-vol (tool/utilisation {:resource_id "vol-07b3e9f2c6d1a4805"}))
(println gpu-vol)
(println (select-keys (first (filter #(= "vol-07b3e9f2c6d1a4805" (:resource_id %)) inventory)) [:type :size_gb :monthly_cost :tags]))
""")

TICKET_ROWS = "\n         ".join(
    '[%s\n          "%s" %s %s\n          "%s"]' % ('"%s"' % summary, assignee, labels, SAV[k] if k else "nil", desc)
    for k, summary, assignee, labels, desc in NEW_TICKETS)
s.turn("Opening the new tickets, one per owner and kind, assigned by the directory: the feature-store's to Daniela Berger (not the owner tag's Yuki Tanaka), plus one for finance to move the feature-store's budget.", fill(r"""
(def new-tickets
  (mapv (fn [[summary assignee labels monthly description]]
          (tool/ticket-create (cond-> {:summary summary :assignee assignee :labels labels :description description}
                                monthly (assoc :monthly_savings_usd monthly))))
        [<<ROWS>>]))
(doseq [tk new-tickets]
  (println (:key tk) (format "%-26s" (:assignee tk)) (or (:monthly_savings_usd tk) "-") "|" (:summary tk)))
""", ROWS=TICKET_ROWS))

s.turn("Daniel Berg and Daniela Berger are easy to mix up; checking both against the directory and the tickets they got:", r"""
(def bergs (tool/directory {:name "Berg"}))
(doseq [p (:people bergs)]
  (println (:name p) (:email p) (:team p) (:role p)))
(doseq [tk (filter #(clojure.string/includes? (:assignee %) "berg") new-tickets)]
  (println (:key tk) (:assignee tk) "|" (:summary tk)))
""")

s.turn("Right people. A last consistency check: does the allocation add up to the net total, and what share of the bill do the savings make?", fill(r"""
(println "allocation" (format "%.2f" (sum (vals allocation))) "vs net total <<TOT>>:"
         (< (abs (- (sum (vals allocation)) <<TOT>>)) 0.01))
(println "savings" (format "%.2f" (sum (map :monthly savings))) "a month ="
         (format "%.1f%%" (* 100 (/ (sum (map :monthly savings)) <<TOT>>))) "of the bill")
(println "tickets:" (count new-tickets) "new," (count (distinct (keep :ticket savings))) "reused for savings")
""", TOT=NET_TOTAL))

ALLOC = {k: f2(v) for k, v in ALLOC_FIX.items()}
NAT_A = w.NAT_IDS[0]
AUDIT_HEAD = fill(r"""
(def audit
  {:month "2024-10"
   :basis "net amortized" :contract "EDP-2023-0417" :discount-pct 9.0
   :total-usd <<TOT>>
""", TOT=NET_TOTAL)

s.cut("Everything is filed. The audit:", AUDIT_HEAD.lstrip("\n") + r"""   :total-list-usd (:total by-account)
   :allocation (into (sorted-map) (for [[t c] allocation] [t (/ (Math/round (* c 100""")

s.turn("Cut off; the whole audit again:", AUDIT_HEAD + fill(r"""   :total-list-usd <<LIST>>
   :allocation {"analytics" <<analytics>> "catalog" <<catalog>> "payments" <<payments>> "search" <<search>>
                "platform" <<platform>> "growth" <<growth>>}
   :misattributed [{:service "feature-store" :resources (mapv :resource_id mistagged)
                    :tagged "search" :owner "analytics" :since "2024-09-16" :monthly-usd <<MOVED>>}
                   {:resources ["i-0f5d8e3c1b2a49d70" "vol-07b3e9f2c6d1a4805"] :tagged nil :owner "growth"}
                   {:resources ["kestrel-order-exports"] :tagged nil :owner "analytics"}
                   {:resources ["vol-0b7e2f1a9c3d58e42" "vol-03c9d4e8f1a2b7c65"] :tagged nil :owner "platform"}]
   :savings savings
   :savings-monthly-usd <<SUM>>
   :coverage {:ec2-pct 53.3 :target-pct 80.0 :r5-pct 14.7 :expired-ri "ri-2023-10-09-r5-4f1a8c2e" :ticket "FINOPS-395"}
   :alerts [{:budget "team-search-monthly" :used-pct 108.1 :ticket "<<BK>>"
             :cause "the feature-store's cost still tagged team=search after its move to analytics; 85.8% without it"}
            {:budget "team-platform-monthly" :used-pct 110.0 :ticket "FINOPS-409"
             :account "<<PROD>>" :resource "<<NAT>>"
             :cause "nat-prod-a processed ~38 TB on 2024-10-21..24 (catalog's image-resizer backfill through the NAT); a one-off"}
            {:budget "account-sandbox-monthly" :used-pct 160.7 :ticket "<<GK>>"
             :account "<<SBX>>" :resource "i-0f5d8e3c1b2a49d70" :cause "idle g5.12xlarge running since 2024-10-14"}]
   :tickets {:new (mapv :key new-tickets) :reused (conj (vec (distinct (keep :ticket savings))) "FINOPS-409")}})
(println (:total-usd audit) (:allocation audit))
(println (:savings-monthly-usd audit) (get-in audit [:tickets :new]))
""", MOVED=f2(MOVED), SUM=f2(SAV_TOTAL), BK=BUDGET_KEY, GK=KEYS["gpu"], NAT=NAT_A, PROD=w.PROD, SBX=SANDBOX,
    LIST=BY_ACCOUNT["total"], **ALLOC))

s.turn("The audit uses the net prices and the corrected allocation throughout.", r"""
(return audit)
""", "return")

if __name__ == "__main__":
    s.write(__file__)
