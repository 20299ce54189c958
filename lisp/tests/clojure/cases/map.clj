;;; get
[(get {:a 1} :a) (get {:a 1} :b) (get {:a 1} :b :dflt) (get [1 2] 1) (get nil :a) (get #{:x} :x) (get "abc" 1)]
;;; get-in
[(get-in {:a {:b {:c 1}}} [:a :b :c]) (get-in {:a 1} [:x :y] :none) (get-in {:a [10 20]} [:a 1]) (get-in {:a 1} [])]
;;; assoc
[(assoc {:a 1} :b 2) (assoc {:a 1} :a 9 :c 3) (assoc [1 2] 0 :x) (assoc [1 2] 2 3) (assoc nil :a 1)]
;;; assoc-out-of-bounds
(assoc [1 2] 5 :x)
;;; assoc-in
[(assoc-in {} [:a :b] 1) (assoc-in {:a {:x 0}} [:a :y] 2) (assoc-in [[1 2]] [0 1] :z)]
;;; update
[(update {:a 1} :a inc) (update {:a 1} :b (fnil inc 0)) (update {:a [1]} :a conj 2 3) (update [1 2] 0 + 10)]
;;; update-in
[(update-in {:a {:b 1}} [:a :b] inc) (update-in {} [:x :y] (fnil + 0) 5)]
;;; dissoc
[(dissoc {:a 1 :b 2 :c 3} :b) (dissoc {:a 1} :z) (dissoc {:a 1 :b 2} :a :b) (dissoc nil :a)]
;;; merge
[(merge {:a 1} {:b 2} {:a 3}) (merge) (merge nil {:a 1}) (merge {:a 1} nil)]
;;; merge-with
[(merge-with + {:a 1 :b 2} {:a 10 :c 3}) (merge-with into {:a [1]} {:a [2]})]
;;; select-keys
(select-keys {:a 1 :b 2 :c 3} [:c :a :z])
;;; keys-vals
[(keys {:a 1 :b 2}) (vals {:a 1 :b 2}) (keys {}) (vals nil)]
;;; key-val
(let [e (first {:k :v})] [(key e) (val e)])
;;; update-vals-keys
[(update-vals {:a 1 :b 2} inc) (update-keys {:a 1 :b 2} name)]
;;; map-as-seq
(map (fn [[k v]] [v k]) {:a 1 :b 2})
;;; nested-data
(let [users [{:name "ann" :age 31 :tags #{:admin}} {:name "bob" :age 25 :tags #{}}]]
  (->> users (filter #(contains? (:tags %) :admin)) (map :name) vec))
;;; map-equality
[(= {:a 1 :b 2} {:b 2 :a 1}) (= [1 2] '(1 2)) (= #{1 2} #{2 1}) (= 1 1.0) (= "a" "a") (= nil nil)]
;;; map-literal-eval
(let [k :dyn v 5] {k v :static (+ v 1)})
;;; big-map-lookup
(let [m (zipmap (range 20) (map #(* % %) (range 20)))] [(get m 7) (count m)])
