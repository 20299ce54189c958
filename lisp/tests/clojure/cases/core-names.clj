;;; promoting-arithmetic
[(+' 1 2) (-' 5 3) (*' 4 5) (inc' 1) (dec' 1)]
;;; nan-infinite
[(NaN? ##NaN) (NaN? 1.0) (infinite? ##-Inf) (infinite? 1)]
;;; bit-and-or-xor
[(bit-and 12 10) (bit-or 12 10) (bit-xor 12 10) (bit-and-not 12 10) (bit-not 5)]
;;; bit-set-clear-flip-test
[(bit-set 0 3) (bit-clear 15 0) (bit-flip 5 1) (bit-test 5 2) (bit-test 5 1)]
;;; bit-shifts
[(bit-shift-left 1 10) (bit-shift-right -16 2) (bit-shift-left 1 64) (bit-and 7 3 1) (bit-or 1 2 4)]
;;; bit-on-float
(bit-and 1.5 1)
;;; associative-counted
[(associative? {}) (associative? []) (associative? '(1)) (counted? [1]) (counted? "ab") (counted? #{1})]
;;; indexed-reversible-seqable
[(indexed? []) (indexed? '()) (reversible? [1]) (seqable? nil) (seqable? "s") (seqable? 1) (seqable? {})]
;;; type-predicates
[(sorted? [1]) (symbol? :a) (decimal? 1.0) (ratio? 1) (rational? 1) (rational? 1.5)]
;;; ifn
[(ifn? :k) (ifn? {}) (ifn? inc) (ifn? 1) (ifn? [1]) (ifn? "s")]
;;; map-entry
(map-entry? (first {:a 1}))
;;; int-predicates
[(nat-int? 0) (pos-int? 0) (neg-int? -1) (pos-int? 1.0) (nat-int? -1)]
;;; distinct-pred
[(distinct? 1 2 3) (distinct? 1 2 1) (distinct? 1) (distinct? "a" "a")]
;;; every-pred-some-fn
[((every-pred odd? pos?) 1 3) ((every-pred odd? pos?) 1 -1) ((some-fn even? neg?) 1 -3) ((some-fn even?) 1) ((some-fn :a :b) {:b 2})]
;;; keep-indexed
(keep-indexed (fn [i x] (when (odd? i) x)) [:a :b :c :d])
;;; keep-indexed-values
(keep-indexed (fn [i x] (if (even? i) (* i x) nil)) [5 6 7 8])
;;; split-at
[(split-at 2 [1 2 3]) (split-at 0 [1]) (split-at 5 [1 2])]
;;; split-with
[(split-with odd? [1 3 4 5]) (split-with pos? []) (split-with even? [1 2])]
;;; subvec
[(subvec [1 2 3 4] 1 3) (subvec [1 2 3] 1) (subvec [1 2 3] 3)]
;;; subvec-out-of-range
(subvec [1 2] 1 5)
;;; nested-first-next
[(ffirst [[1 2] [3]]) (fnext [1 2 3]) (nfirst [[1 2 3]]) (nnext [1 2 3]) (nnext [1 2]) (ffirst [])]
;;; nthnext-nthrest
[(nthnext [1 2 3] 1) (nthnext [1 2] 5) (nthrest [1 2 3] 2) (nthrest [1 2] 5) (nthrest [1 2] 0)]
;;; tree-seq
(tree-seq vector? seq [1 [2 [3]] 4])
;;; tree-seq-maps
(map :id (tree-seq :kids :kids {:id 1 :kids [{:id 2} {:id 3 :kids [{:id 4}]}]}))
;;; array-map
(array-map :a 1 :b 2)
;;; disj
[(disj #{1 2 3} 2 4) (disj #{1} 1) (disj nil 1) (disj #{:a})]
;;; trim-newline
[(clojure.string/trim-newline "a\r\n\n") (clojure.string/trim-newline "a b") (clojure.string/trim-newline "\n")]
;;; parse-boolean
[(parse-boolean "true") (parse-boolean "false") (parse-boolean "yes") (parse-boolean "TRUE")]
;;; postwalk
(postwalk #(if (number? %) (inc %) %) {:a [1 {:b 2}] :c #{3}})
;;; prewalk
(prewalk #(if (and (map? %) (:skip %)) :gone %) [{:skip true :x 1} {:x 2}])
;;; walk
[(walk inc #(apply + %) [1 2 3]) (walk (fn [[k v]] [v k]) identity {:a 1})]
;;; postwalk-collect
(let [seen (postwalk (fn [x] (if (keyword? x) (name x) x)) [:a {:b :c}])] seen)
;;; condp
[(condp = 2 1 :one 2 :two :other) (condp = 9 1 :one :other) (condp < 5 10 :big 1 :small)]
;;; condp-arrow
(condp some [1 2 3] #{4} :four #{3 2} :>> inc :none)
;;; condp-no-match
(condp = 9 1 :one)
;;; defonce
(defonce x 1) (defonce x 2) x
;;; when-first
[(when-first [x [5 6]] (* x 2)) (when-first [x []] :never) (when-first [[a b] [[1 2]]] (+ a b))]
;;; persistent-versions
(let [v [1 2 3] w (conj v 4) u (assoc v 0 :x) m {:a 1} n (assoc m :b 2) o (dissoc n :a) s #{1 2} t (disj s 1)] [v w u m n o s t])
;;; loop-build
(loop [i 0 acc [] m {}] (if (< i 40) (recur (inc i) (conj acc (* i i)) (assoc m i (count acc))) [(count acc) (nth acc 39) (get m 39) (count m)]))
;;; loop-keep-versions
(loop [i 0 v [] all []] (if (< i 5) (recur (inc i) (conj v i) (conj all v)) all))
;;; reduce-fn-assoc
(reduce (fn [m [k v]] (update m k (fnil + 0) v)) {} [[:a 1] [:b 2] [:a 3]])
;;; big-vector-versions
(let [v (vec (range 100)) w (assoc v 50 :x) u (conj v :y)] [(nth v 50) (nth w 50) (count u) (peek u) (count v)])
;;; big-map-dissoc-order
(let [m (zipmap (range 50) (range 50)) n (dissoc m 0 10 20)] [(count n) (take 3 (sort (keys n))) (get n 10) (get m 10)])
;;; doall-dorun-run
(println (doall (map inc [1 2])) (doall 1 (map inc [1 2])))
(println (dorun (map println [:a :b])) (run! println ["x" "y"]))
(run! #(println (* 2 %)) #{})
;;; keywordize-stringify-keys
[(clojure.walk/keywordize-keys {"a" {"b" 1} :c [{"d" 2}] 3 "s"})
 (clojure.walk/stringify-keys {:a {:b 1} "c" [{:d 2}] 4 :k})
 (keywordize-keys nil) (stringify-keys [{:x 1}])]
;;; pprint-one-line
(clojure.pprint/pprint [1 "x" :k nil])

;;; clojure-math
[(clojure.math/round 2.5) (clojure.math/floor 2.7) (clojure.math/ceil 2.1) (clojure.math/sqrt 16.0)
 (clojure.math/pow 2 10) (/ (clojure.math/round (* 3.14159 100)) 100.0)]

;;; clojure-math-more
[(clojure.math/log10 1000.0) (clojure.math/cbrt 27.0) (clojure.math/signum -2.5) (clojure.math/signum 0.0)
 (clojure.math/hypot 3 4) (clojure.math/floor-div -7 2) (clojure.math/floor-mod -7 2) (clojure.math/floor-mod 7 -2)
 (clojure.math/rint 2.5) (clojure.math/rint 3.5) (clojure.math/to-degrees clojure.math/PI) (Math/log10 100)
 (/ (clojure.math/round (* 1000000 (clojure.math/sin 1))) 1000000.0) (clojure.math/atan2 1 1) (Math/toRadians 180)
 clojure.math/E (Math/floorDiv 9 4) (clojure.math/log1p 0.0) (clojure.math/expm1 0.0) (clojure.math/tanh 0.0)]

;;; clojure-math-floor-div-zero
(clojure.math/floor-div 1 0)

;;; print-table
(clojure.pprint/print-table [{:sku "A-1" :qty 3 :note nil} {:sku "B-22" :qty 120 :note "rush"}])
(clojure.pprint/print-table [:qty :sku] [{:sku "A-1" :qty 3} {:sku "B-22" :qty 120}])
(clojure.pprint/print-table [])
