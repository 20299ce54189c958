import random

rnd = random.Random(7)
REGIONS = ["north", "south", "east", "west"]
CATS = [("electronics", [49.99, 129.0, 299.99, 19.5]), ("books", [12.99, 8.5, 24.0]),
        ("home", [35.0, 59.9, 15.75]), ("toys", [9.99, 22.49, 45.0])]
CUSTOMERS = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell", "cyberdyne", "soylent"]
STATUS = ["shipped"] * 6 + ["pending"] * 2 + ["cancelled", "returned"]


def edn(s):
    return '"' + s + '"'


orders = []
for i in range(40):
    cat, prices = rnd.choice(CATS)
    o = [(":id", str(1001 + i)), (":customer", edn(rnd.choice(CUSTOMERS))), (":region", edn(rnd.choice(REGIONS))),
         (":category", edn(cat)), (":qty", str(rnd.randint(1, 6))), (":price", repr(rnd.choice(prices))),
         (":status", edn(rnd.choice(STATUS))), (":date", edn("2024-03-%02d" % rnd.randint(1, 31)))]
    orders.append("{" + " ".join(k + " " + v for k, v in o) + "}")

SESSION = {
    "agent": "orders-explorer",
    "mission": "Explore the March 2024 orders in data/orders. Report shipped revenue per region, the best-selling category, "
               "and the share of cancelled or returned orders per region. Return a map with those three results.",
    "max_turns": 15,
    "tools": [],
    "data": {"orders": "[" + " ".join(orders) + "]", "report_month": "\"2024-03\""},
    "turns": [
        T("Let me first see how many orders there are and what one record looks like.",
          "(def n-orders (count data/orders))\n(first data/orders)"),
        T("Each order has a status and region. Let me count both.",
          "(def status-counts (frequencies (map :status data/orders)))\n(def region-counts (frequencies (map :region data/orders)))"),
        T("Only shipped orders count as revenue. I'll build a smaller record with the revenue per order.",
          "(def shipped\n  (->> data/orders\n       (filter #(= \"shipped\" (:status %)))\n       (map (fn [o] {:id (:id o) :region (:region o) :category (:category o)\n                     :revenue (* (:qty o) (:price o))}))))"),
        T("Now total revenue per region.",
          "(def revenue-by-region\n  (update-vals (group-by :region shipped) #(reduce + (map :revenue %))))"),
        T("Let me look at the biggest shipped orders to make sure the numbers are sane.",
          "(def top-orders (take 5 (sort-by :revenue > shipped)))", after="This shows whether a few large orders dominate the totals."),
        T("And the average revenue per shipped order.",
          "(def avg-revenue (/ (reduce + (map :revenue shipped)) (count shipped)))\n(count shipped)"),
        T("The revenue values have long decimals; I'll print a rounded summary per region.",
          "(doseq [[region total] (sort-by val > revenue-by-region)]\n  (println region (format \"%.2f\" total)))"),
        T("Next, category breakdown with order count and revenue.",
          "(def by-category\n  (update-vals (group-by :category shipped)\n               (fn [os] {:orders (count os) :revenue (reduce + (map :revenue os))})))\n(doseq [[c {:keys [orders revenue]}] by-category]\n  (println c \"orders:\" orders \"revenue:\" (format \"%.2f\" revenue)))"),
        T("Best-selling category by revenue:",
          "(def best-category (key (apply max-key #(:revenue (val %)) by-category)))\n(println \"best category:\" best-category)"),
        T("Now the cancelled/returned share per region, over all orders in that region.",
          "(def problem-rate\n  (update-vals (group-by :region data/orders)\n               (fn [os] (/ (count (filter #(#{\"cancelled\" \"returned\"} (:status %)) os))\n                           (double (count os))))))\n(println \"problem rate:\" problem-rate)"),
        T("Rates are easier to read as percentages; let me round them and redo the top orders with region info.",
          "(def problem-pct (update-vals problem-rate #(/ (Math/round (* 1000 %)) 10.0)))\n(def top-orders (map (juxt :id :region :revenue) (take 5 (sort-by :revenue > shipped))))\n(println \"problem %:\" problem-pct)\n(println \"top orders:\" top-orders)"),
        T("I have everything I need.",
          "(return {:revenue-by-region (update-vals revenue-by-region #(/ (Math/round (* 100 %)) 100.0))\n         :best-category best-category\n         :problem-pct problem-pct})"),
    ],
}
