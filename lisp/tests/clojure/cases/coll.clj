;;; count
[(count [1 2 3]) (count nil) (count "héllo") (count {:a 1}) (count #{1 2}) (count '(1))]
;;; empty
[(empty? []) (empty? nil) (empty? "") (empty? [1]) (not-empty []) (not-empty [1])]
;;; seq
[(seq []) (seq [1 2]) (seq "ab") (seq {:a 1}) (seq nil)]
;;; first-second-last
[(first [1 2 3]) (second [1 2 3]) (last [1 2 3]) (first nil) (last []) (first {:a 1})]
;;; nth
[(nth [1 2 3] 0) (nth [1 2 3] 5 :none) (nth "abc" 1)]
;;; nth-out-of-bounds
(nth [1 2 3] 5)
;;; rest-next
[(rest [1 2 3]) (rest [1]) (rest nil) (next [1 2]) (next [1]) (next nil)]
;;; take-drop
[(take 2 [1 2 3]) (take 5 [1 2]) (drop 2 [1 2 3]) (drop 9 [1 2]) (take 0 [1])]
;;; take-while-drop-while
[(take-while pos? [3 2 0 1]) (drop-while pos? [3 2 0 1])]
;;; take-last-drop-last
[(take-last 2 [1 2 3]) (take-last 2 []) (drop-last [1 2 3]) (drop-last 2 [1 2 3]) (butlast [1 2 3]) (butlast [1])]
;;; cons
[(cons 0 [1 2]) (cons 1 nil) (cons [0] '(1))]
;;; conj
[(conj [1 2] 3 4) (conj '(1 2) 0) (conj nil 1) (conj {:a 1} [:b 2]) (conj {:a 1} {:c 3}) (conj [] [1])]
;;; conj-set
(sort (conj #{1 2} 3 2))
;;; concat
[(concat [1 2] '(3) nil [4]) (concat)]
;;; into
[(into [] '(1 2 3)) (into '() [1 2 3]) (into {} [[:a 1] [:b 2]]) (into [1] [2 3]) (into {:a 1} {:b 2})]
;;; into-set
(sort (into #{1} [3 2 1]))
;;; vec-vector-list
[(vec '(1 2)) (vec nil) (vec {:a 1}) (vector) (vector 1 2) (list 1 2) (list)]
;;; set-hash-set
[(count (set [1 2 2 3])) (sort (set "hello")) (hash-set 1) (set nil)]
;;; hash-map
[(hash-map :a 1) (get (hash-map :a 1 :b 2) :b) (hash-map)]
;;; reverse
[(reverse [1 2 3]) (reverse nil) (reverse "abc")]
;;; sort
[(sort [3 1 2]) (sort ["b" "a" "c"]) (sort > [3 1 2]) (sort [:b :a]) (sort []) (sort [2.5 1 3])]
;;; sort-by
[(sort-by count ["ccc" "a" "bb"]) (sort-by :age [{:age 3} {:age 1}]) (sort-by :n > [{:n 1} {:n 5} {:n 3}])]
;;; sort-stable
(sort-by first [[1 :a] [0 :b] [1 :c] [0 :d]])
;;; sort-vectors
(sort [[2 1] [1 2] [1 1 1] [1]])
;;; sort-comparator-fn
(sort (fn [a b] (compare b a)) [1 3 2])
;;; distinct-dedupe
[(distinct [1 2 1 3 2]) (dedupe [1 1 2 2 1]) (distinct [])]
;;; flatten
[(flatten [1 [2 [3 [4]]] '(5)]) (flatten nil) (flatten [[]])]
;;; partition
[(partition 2 [1 2 3 4 5]) (partition 2 1 [1 2 3]) (partition 3 3 [:pad] [1 2 3 4])]
;;; partition-all
[(partition-all 2 [1 2 3 4 5]) (partition-all 3 1 [1 2 3 4])]
;;; partition-by
(partition-by odd? [1 3 2 4 5])
;;; interleave-interpose
[(interleave [1 2 3] [:a :b]) (interpose ", " ["a" "b" "c"])]
;;; range
[(range 5) (range 2 5) (range 0 10 3) (range 5 0 -2) (range 0) (range 3 1)]
;;; range-float
(range 0 1 0.25)
;;; repeat
[(repeat 3 :x) (repeat 0 1)]
;;; frequencies
(frequencies [:a :b :a :c :a])
;;; group-by
(group-by odd? [1 2 3 4 5])
;;; group-by-key
(group-by :type [{:type :a :v 1} {:type :b :v 2} {:type :a :v 3}])
;;; zipmap
(zipmap [:a :b :c] [1 2])
;;; mapcat
(mapcat (fn [x] [x x]) [1 2 3])
;;; keep
(keep #(when (odd? %) (* % 10)) [1 2 3 4 5])
;;; remove-filter
[(filter even? [1 2 3 4]) (remove even? [1 2 3 4]) (filterv odd? [1 2 3]) (filter some? [1 nil 2])]
;;; map-multi
[(map + [1 2 3] [10 20]) (mapv inc [1 2]) (map-indexed vector [:a :b])]
;;; reduce
[(reduce + [1 2 3]) (reduce + 10 [1 2 3]) (reduce + []) (reduce conj [] [1 2]) (reduce max [3 9 2])]
;;; reduce-kv
(reduce-kv (fn [acc k v] (assoc acc v k)) {} {:a 1 :b 2})
;;; some-every
[(some even? [1 3 4]) (some even? [1 3]) (some #{3} [1 2 3]) (every? pos? [1 2]) (every? pos? []) (not-any? neg? [1 2]) (not-every? odd? [1 2])]
;;; find-contains
[(find {:a 1} :a) (find {:a 1} :b) (contains? {:a nil} :a) (contains? #{1} 1) (contains? [5 6] 1) (contains? [5 6] 5)]
;;; apply
[(apply + [1 2 3]) (apply + 1 2 [3 4]) (apply str ["a" "b"]) (apply max [4 8 1])]
;;; juxt-comp-partial
[((juxt :a :b) {:a 1 :b 2}) ((comp inc inc) 1) ((comp str +) 1 2) ((partial + 10) 1 2) ((comp) 5)]
;;; identity-constantly-complement
[(identity 4) ((constantly 7) 1 2 3) ((complement odd?) 2) (filter identity [1 nil false 2])]
;;; fnil
[((fnil inc 0) nil) ((fnil + 1 2) nil nil) (update {:a nil} :a (fnil inc 10))]
;;; min-key-max-key
[(max-key count "a" "bbb" "cc") (min-key count "aa" "b" "c") (max-key :n {:n 1} {:n 3} {:n 3 :last true})]
;;; peek-pop
[(peek [1 2 3]) (pop [1 2 3]) (peek '(1 2)) (pop '(1 2))]
;;; empty-fn
[(empty [1 2]) (empty {:a 1}) (empty '(1))]
;;; reduced-ends-reduce
[(reduce (fn [acc x] (if (> x 3) (reduced acc) (+ acc x))) 0 (range 10))
 (reduce (fn [acc x] (if (= x :stop) (reduced acc) (conj acc x))) [] [:a :b :stop :c])
 (reduce (fn [_ x] (reduced x)) [7 8 9])
 (reduce (fn [acc x] (if (> acc 2) (reduced (* 10 acc)) (+ acc x))) [1 1 1 1 1])
 (reduce + (reduce (fn [acc x] (if (= x 3) (reduced acc) (conj acc (reduce (fn [a y] (if (> y 1) (reduced a) (+ a y))) 0 [1 2 3])))) [] (range 10)))]
;;; reduced-ends-reduce-kv-reductions-transduce
[(reduce-kv (fn [acc k v] (if (> v 1) (reduced k) acc)) nil {:a 1 :b 2 :c 3})
 (reduce-kv (fn [acc i v] (if (= v :x) (reduced i) acc)) :none [:a :x :b])
 (reductions (fn [acc x] (if (> acc 5) (reduced acc) (+ acc x))) 0 [1 2 3 4 5])
 (transduce (map inc) (fn ([acc] (str "done:" acc)) ([acc x] (if (> x 3) (reduced acc) (+ acc x)))) 0 [1 2 3 4 5])
 (transduce (comp (filter odd?) (partition-all 2)) (fn ([acc] acc) ([acc x] (if (> (count acc) 0) (reduced (conj acc x)) (conj acc x)))) [] (range 20))]
