;;; program-orders-summary
(def orders [{:id 1 :customer "ann" :total 120.5 :status :paid}
             {:id 2 :customer "bob" :total 80.0 :status :pending}
             {:id 3 :customer "ann" :total 42.25 :status :paid}])
(defn paid-total [orders] (->> orders (filter #(= :paid (:status %))) (map :total) (reduce +)))
(println "paid:" (paid-total orders))
(->> orders (group-by :customer) (map (fn [[c os]] [c (count os)])) (into {}))
;;; program-word-count
(let [text "the quick brown fox jumps over the lazy dog the end"
      words (str/split text #" ")]
  (->> words frequencies (sort-by (fn [[w n]] [(- n) w])) (take 3)))
;;; program-fizzbuzz
(for [i (range 1 16)]
  (cond (zero? (mod i 15)) "FizzBuzz" (zero? (mod i 3)) "Fizz" (zero? (mod i 5)) "Buzz" :else i))
;;; program-primes
(defn prime? [n] (and (> n 1) (not-any? #(zero? (mod n %)) (range 2 (inc (int (Math/sqrt n)))))))
(filter prime? (range 50))
;;; program-running-max
(reduce (fn [acc x] (conj acc (max x (or (peek acc) x)))) [] [3 1 4 1 5 9 2 6])
;;; program-index-by
(let [people [{:id "a" :n 1} {:id "b" :n 2}]]
  (zipmap (map :id people) people))
;;; program-nested-update
(-> {:stats {:count 0 :seen []}}
    (update-in [:stats :count] inc)
    (update-in [:stats :seen] conj :x)
    (assoc-in [:stats :last] :x))
;;; program-string-building
(let [rows [["name" "qty"] ["apple" 3] ["kiwi" 12]]]
  (str/join "\n" (map (fn [[a b]] (format "%-6s|%4s" a b)) rows)))
;;; program-loop-collect
(loop [n 27 steps 0]
  (if (= n 1) steps (recur (if (even? n) (quot n 2) (inc (* 3 n))) (inc steps))))
;;; program-letfn-like-closures
(let [counter (fn [xs] (reduce (fn [m x] (update m x (fnil inc 0))) {} xs))]
  (counter [:a :b :a]))
;;; program-tree-walk
(defn depth [t] (if (vector? t) (inc (reduce max 0 (map depth t))) 0))
[(depth 1) (depth [1 [2 [3]]]) (depth [])]
;;; program-interleaved-prints
(defn noisy [x] (println "computing" x) (* x x))
(let [a (noisy 2) b (noisy 3)] (println "sum" (+ a b)) (+ a b))
;;; program-destructure-heavy
(let [{{:keys [city zip]} :address [first-tag] :tags :keys [name]} {:name "z" :address {:city "Oslo" :zip "0150"} :tags ["t1" "t2"]}]
  [name city zip first-tag])
;;; program-matrix
(let [m [[1 2] [3 4]]] (apply mapv vector m))
;;; program-sum-map-values
(reduce-kv (fn [acc _ v] (+ acc v)) 0 {:a 1 :b 2 :c 3})
;;; program-chained-threading
(->> [{:n "x" :v 3} {:n "y" :v 1} {:n "z" :v 2}] (sort-by :v) (map :n) (str/join ","))
;;; program-redefine
(def x 1)
(def x (+ x 1))
x
;;; program-every-some
(let [xs [2 4 6]] [(every? even? xs) (some #(when (> % 3) %) xs)])
;;; program-distinct-by-key
(vals (reduce (fn [m p] (if (contains? m (:k p)) m (assoc m (:k p) p))) {} [{:k 1 :v :a} {:k 2 :v :b} {:k 1 :v :c}]))
