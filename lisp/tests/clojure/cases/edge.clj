;;; get-in-vector-index
(get-in {:a [{:b 1} {:b 2}]} [:a 1 :b])
;;; assoc-in-new-path
[(assoc-in {} [:a 0] 1) (update-in {:a [1 2]} [:a 1] inc)]
;;; merge-with-empty
(merge-with + {} {:a 1} {:a 2})
;;; sort-by-strings-and-juxt
[(sort-by :k [{:k "b"} {:k "a"}]) (sort-by (juxt :a :b) [{:a 1 :b 2} {:a 1 :b 1} {:a 0 :b 9}])]
;;; group-by-count
(group-by count ["a" "bb" "c" "dd" "eee"])
;;; frequencies-empty
[(frequencies []) (group-by odd? [])]
;;; into-map-from-seq
(into {} (map (fn [[k v]] [k (inc v)]) {:a 1 :b 2}))
;;; max-key-over-map
(apply max-key val {:a 1 :b 3 :c 2})
;;; some-thread-nil
[(some-> nil :a) (some->> [1 2] (map inc) first)]
;;; join-names
(str/join "," (map name [:a :b]))
;;; mapv-pairs
(mapv #(vector % (* % %)) (range 3))
;;; set-as-filter
[(count (filter #{:a} [:a :b :a])) (every? #{1 2} [1 2 1]) (filter :active [{:active true :n 1} {:active false :n 2}])]
;;; sort-helpers
[(first (sort-by - [3 1 2])) (last (sort [3 1 2])) (sort compare [3 1 2]) (sort #(< %1 %2) [3 1 2]) (sort-by count > ["a" "ccc" "bb"]) (sort-by identity [3 1])]
;;; take-drop-chain
[(take 3 (drop 2 (range 10))) (distinct (map :x [{:x 1} {:x 1} {:x 2}])) (vec (concat [1] [2]))]
;;; zipmap-string
(zipmap (range 3) "abc")
;;; destructure-nil
[(let [{:keys [a] :as all} nil] [a all]) (let [[a b] nil] [a b]) (let [[a [b c]] [1 [2 3]]] [a b c])]
;;; destructure-fn-or
((fn [{:keys [x y] :or {y 10}}] (+ x y)) {:x 1})
;;; destructure-kwargs-rest
((fn [a & {:keys [b c] :or {c 3}}] [a b c]) 1 :b 2)
;;; if-let-false
[(if-let [x false] 1 2) (when-let [x nil] 1)]
;;; cond-thread-vector
[(cond-> [] true (conj 1) false (conj 2)) (cond->> [1 2] true (map inc) true (reduce +))]
;;; as-thread-seq
(as-> [1 2] v (map inc v) (vec v) (conj v 10))
;;; for-let-when
(for [x [1 2 3] :let [y (* x 10)] :when (> y 10)] y)
;;; doseq-map
(doseq [[k v] {:a 1 :b 2}] (println k v))
;;; loop-seq-consume
(loop [xs [1 2 3] acc 0] (if (empty? xs) acc (recur (rest xs) (+ acc (first xs)))))
;;; subs-end
[(subs "abc" 3) (subs "abc" 0 0)]
;;; trim-nil-error
(str/trim nil)
;;; boolean-fn
[(boolean nil) (boolean 0) (boolean false) (boolean "x")]
;;; not-empty-string
[(not-empty "") (not-empty "a") (count {})]
;;; equality-across-types
[(contains? {:a 1} "a") (= [1 2] [1 2]) (= {:a [1]} {:a '(1)}) (= #{[1]} #{'(1)}) (hash-set)]
;;; max-no-args-error
(max)
;;; numeric-edge
[(mod 10 3.0) (quot 10.0 3) (rem 10 -3) (* 1.0 0) (- 0.0) (Math/round -2.5) (Math/abs -2.5) (/ 0 5) (inc 1.5)]
;;; even-float-error
(even? 2.0)
;;; seq-edge
[(range 1 10 2) (nth '(1 2 3) 1) (peek []) (first "") (last "abc") (reverse {:a 1})]
;;; pop-empty-error
(pop [])
;;; map-keyword-missing
[(map :a [{:a 1} {}]) (remove nil? [1 nil 2]) (some #(when (= % 2) :found) [1 2])]
;;; nested-fn-literal-in-map
(map #(hash-map :n % :sq (* % %)) [1 2])
;;; str-of-collections
[(str '(1 2)) (str []) (str nil "x" nil) (str 1.5 :k)]
;;; keyword-namespaced
[(keyword "a/b") (name (keyword "a/b")) :a/b]
;;; keyword-two-arity
[(keyword "user" "total") (keyword nil "x") (namespace (keyword "a" "b")) (name (keyword "a" "b")) (= :a/b (keyword "a" "b"))]
;;; string-compare-sort
(sort ["banana" "Apple" "cherry" "apple"])
;;; deep-get-in-default
(get-in {:a {:b nil}} [:a :b] :dflt)
;;; update-nil-map
(update nil :count (fnil inc 0))
;;; select-keys-missing
(select-keys {:a 1} [:b])
;;; interleave-uneven
(interleave [1 2 3] [:a :b :c :d] ["x" "y"])
;;; partition-uneven
[(partition 3 [1 2 3 4 5 6 7]) (partition-all 3 [1 2 3 4 5 6 7])]
;;; reduce-with-early-map
(reduce (fn [m [k v]] (assoc m v k)) {} {:a 1 :b 2})
;;; mapcat-identity
(mapcat identity [[1 2] [3] []])
;;; frequencies-sorted
(sort-by val > (frequencies "mississippi"))
;;; case-keyword-and-vector
[(case [1 2] [1 2] :vec :other) (case :x :x 1 2)]
;;; let-fn-recursion-via-def
(defn sum-list [xs] (if (empty? xs) 0 (+ (first xs) (sum-list (rest xs)))))
(sum-list (range 50))
