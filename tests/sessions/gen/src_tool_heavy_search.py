CATALOG = r'''
(def catalog
  [{:id 101 :title "Anker 7-in-1 USB-C Hub" :price_usd 35.99 :in_stock true :rating 4.6 :review_count 5}
   {:id 102 :title "UGREEN USB-C Hub 5-in-1" :price_usd 25.99 :in_stock true :rating 4.4 :review_count 4}
   {:id 103 :title "Satechi Aluminum USB-C Multiport Hub" :price_usd 79.99 :in_stock true :rating 4.7 :review_count 6}
   {:id 104 :title "Generic USB-C Hub 4 Port" :price_usd 9.99 :in_stock true :rating 3.1 :review_count 3}
   {:id 105 :title "Belkin USB-C 6-in-1 Multiport Hub" :price_usd 59.99 :in_stock false :rating 4.5 :review_count 4}
   {:id 106 :title "Plugable USB-C Dock Hub" :price_usd 119.0 :in_stock true :rating 4.3 :review_count 2}
   {:id 107 :title "HyperDrive USB-C Hub 8-in-1" :price_usd 64.5 :in_stock true :rating 4.8 :review_count 4}
   {:id 108 :title "Dell USB-C Dock WD19" :price_usd 189.0 :in_stock true :rating 4.2 :review_count 3}
   {:id 109 :title "Amazon Basics USB-C Hub 3-Port" :price_usd 18.49 :in_stock false :rating 4.0 :review_count 5}
   {:id 110 :title "Lenovo USB-C Travel Hub" :price_usd 42.0 :in_stock true :rating 4.1 :review_count 4}
   {:id 111 :title "CalDigit TS4 Thunderbolt Dock" :price_usd 399.0 :in_stock true :rating 4.9 :review_count 6}
   {:id 112 :title "Kensington USB-C Mobile Dock" :price_usd 54.0 :in_stock true :rating 4.0 :review_count 2}
   {:id 113 :title "Baseus USB-C Hub Dock 9-in-1" :price_usd 44.99 :in_stock true :rating 4.5 :review_count 4}
   {:id 114 :title "USB-C to HDMI Adapter" :price_usd 14.99 :in_stock true :rating 4.2 :review_count 5}])

(def review-texts ["Works with my MacBook, runs warm." "HDMI flickers at 4K 60Hz." "Solid build, all ports work."
                   "Stopped charging after two weeks." "Compact and fast, great for travel." "Ethernet port is slow."
                   "Does what it says." "Cable too short for my desk setup."])

(defn words [s] (set (re-seq #"[a-z0-9-]+" (clojure.string/lower-case s))))
'''

TOOL_IMPL = CATALOG + r'''
{"search" (fn [{:keys [query limit]}]
            (let [q (words query)]
              (->> catalog
                   (map (fn [p] {:id (:id p) :title (:title p)
                                 :score (/ (Math/round (* 100.0 (/ (count (filter (words (:title p)) q)) (double (count q))))) 100.0)}))
                   (filter #(pos? (:score %)))
                   (sort-by (juxt (comp - :score) :id))
                   (take (or limit 10))
                   vec)))
 "get-product" (fn [{:keys [id]}]
                 (or (first (filter #(= id (:id %)) catalog))
                     (terr (str "no product with id " id))))
 "fx-rate" (fn [{:keys [from to]}]
             (if (and (= from "USD") (= to "EUR")) {:from "USD" :to "EUR" :rate 0.92} (terr "unsupported pair")))
 "get-reviews" (fn [{:keys [id]}]
                 (let [p (first (filter #(= id (:id %)) catalog))]
                   {:id id
                    :reviews (vec (for [i (range (:review_count p))]
                                    {:stars (max 1 (min 5 (- (Math/round (:rating p)) (if (= 2 (mod (+ id i) 4)) 2 0))))
                                     :text (nth review-texts (mod (+ id (* 3 i)) 8))}))}))}
'''

SESSION = {
    "agent": "hub-shopper",
    "mission": "Find the best-rated USB-C hub or dock that is in stock, costs at most data/budget_eur euros, "
               "and has at least data/min_reviews reviews. Return its id, title, EUR price and rating.",
    "max_turns": 14,
    "tools": [
        {"name": "search", "signature": "(query :string, limit :int) -> [{id :int, title :string, score :float}]",
         "description": "Full-text product search, best matches first"},
        {"name": "get-product",
         "signature": "(id :int) -> {id :int, title :string, price_usd :float, in_stock :bool, rating :float, review_count :int}",
         "description": "Product details by id"},
        {"name": "fx-rate", "signature": "(from :string, to :string) -> {from :string, to :string, rate :float}",
         "description": "Current exchange rate"},
        {"name": "get-reviews", "signature": None,
         "description": "Recent reviews of a product. Call with {:id product-id}; returns {:id .. :reviews [{:stars n :text s}]}"},
    ],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"search": [80, 240], "get-product": [12, 45], "fx-rate": [30, 60], "get-reviews": [40, 130]},
    "seed": 11,
    "data": {"budget_eur": "60", "min_reviews": "4"},
    "turns": [
        T("I'll start with a product search for USB-C hubs.",
          "(def hubs (tool/search {:query \"usb-c hub\" :limit 10}))"),
        T("The search only returns ids and titles. Let me fetch the details of every hit.",
          "(def details (mapv #(tool/get-product {:id (:id %)}) hubs))"),
        T("Prices are in USD, so I need the exchange rate.",
          "(def rate (tool/fx-rate {:from \"USD\" :to \"EUR\"}))"),
        T("Filter to in-stock products within budget and with enough reviews.",
          "(def candidates\n  (filterv #(and (:in_stock %)\n                 (<= (* (:price_usd %) (:rate rate)) data/budget_eur)\n                 (>= (:review_count %) data/min_reviews))\n           details))\n(mapv :title candidates)"),
        T("Docks might also qualify. Let me search for those too.",
          "(def docks (tool/search {:query \"usb-c dock\" :limit 5}))"),
        T("Let me check the scores of that search to see how relevant the results are.",
          "(map (juxt :id :title :score) (tool/search {:query \"usb-c dock\" :limit 5}))"),
        T("I'll fetch details for the dock results as well.",
          "(def dock-details (mapv #(tool/get-product {:id (:id %)}) docks))"),
        T("Merge both lists, keep unique products, and apply the same filter.",
          "(def candidates\n  (->> (concat details dock-details)\n       (distinct)\n       (filterv #(and (:in_stock %)\n                      (<= (* (:price_usd %) (:rate rate)) data/budget_eur)\n                      (>= (:review_count %) data/min_reviews)))))\n(mapv (juxt :id :rating) candidates)"),
        T("Ratings can hide problems; let me pull the reviews for each candidate.",
          "(def reviews\n  (into {} (map (fn [p] [(:id p) (:reviews (tool/get-reviews {:id (:id p)}))]) candidates)))"),
        T("Compute EUR prices for the candidates.",
          "(def eur-prices\n  (into {} (map (fn [p] [(:id p) (* (:price_usd p) (:rate (tool/fx-rate {:from \"USD\" :to \"EUR\"})))])\n                candidates)))"),
        T("Let me summarize each candidate with its average review stars.",
          "(doseq [p candidates]\n  (let [rs (get reviews (:id p))\n        stars (/ (reduce + (map :stars rs)) (double (count rs)))]\n    (println (:id p) (:title p) (format \"EUR %.2f\" (get eur-prices (:id p))) \"rating\" (:rating p) \"stars\" stars)))"),
        T("HyperDrive has the best rating but it is close to the budget; let me re-check its stock and price.",
          "[(:in_stock (tool/get-product {:id 107})) (:price_usd (tool/get-product {:id 107}))]"),
        T("It is in stock at 64.50 USD, which is 59.34 EUR and within the 60 EUR budget. I'll return it.",
          "(let [p (first (sort-by (comp - :rating) candidates))]\n  (return {:id (:id p) :title (:title p)\n           :price-eur (/ (Math/round (* 100 (get eur-prices (:id p)))) 100.0)\n           :rating (:rating p)}))"),
    ],
}
