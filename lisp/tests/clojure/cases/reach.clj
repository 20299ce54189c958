;;; into-transducer
(into [] (comp (map inc) (filter even?)) (range 10))
;;; into-transducer-map-target
(into {} (map (fn [[k v]] [k (* 10 v)])) {:a 1 :b 2})
;;; into-transducer-list-target
(into '() (map inc) [1 2 3])
;;; transduce-plus
[(transduce (map inc) + [1 2 3]) (transduce (filter odd?) + 100 (range 10)) (transduce (map inc) + [])]
;;; transduce-conj
(transduce (comp (remove nil?) (map name)) conj [:a nil :b])
;;; transduce-completing
(transduce (map :n) (completing (fn [acc x] (+ acc x)) (fn [acc] {:total acc})) 0 [{:n 1} {:n 2}])
;;; transduce-without-completion-arity
(transduce (map inc) (fn [acc x] (+ acc x)) 0 [1 2])
;;; sequence-transducer
[(sequence (map inc) [1 2 3]) (sequence (filter even?) []) (sequence [1 2]) (sequence nil)]
;;; transducer-take-stops
(into [] (comp (map inc) (take 3)) (range 1000000))
;;; transducer-take-drop-while
[(into [] (take-while pos?) [3 2 0 1]) (into [] (drop-while pos?) [3 2 0 1]) (into [] (drop 2) [1 2 3 4])]
;;; transducer-mapcat-cat
[(into [] (mapcat (fn [x] [x x])) [1 2]) (into [] cat [[1 2] [] [3]]) (sequence (comp (map range) cat) [1 2 3])]
;;; transducer-keep-indexed
[(into [] (keep (fn [x] (when (odd? x) (* x x)))) (range 6)) (into [] (map-indexed vector) [:a :b]) (into [] (keep-indexed (fn [i x] (when (even? i) x))) [:a :b :c])]
;;; transducer-distinct-dedupe
[(into [] (distinct) [1 2 1 3 2]) (into [] (dedupe) [1 1 2 2 1])]
;;; transducer-partition
[(into [] (partition-all 2) [1 2 3 4 5]) (into [] (partition-by odd?) [1 3 2 4 5]) (into [] (comp (take 3) (partition-all 2)) (range 10))]
;;; transducer-interpose-take-nth
[(into [] (interpose :x) [1 2 3]) (into [] (take-nth 2) (range 7)) (take-nth 3 (range 10))]
;;; transducer-comp-order
(into [] (comp (filter even?) (map #(* % %)) (take 2)) (range 100))
;;; eduction
(eduction (map inc) (filter odd?) [1 2 3 4])
;;; letfn-mutual
(letfn [(ev? [n] (if (zero? n) true (od? (dec n))))
        (od? [n] (if (zero? n) false (ev? (dec n))))]
  [(ev? 10) (od? 7) (ev? 3)])
;;; letfn-multi-arity-and-closure
(let [base 100]
  (letfn [(f ([x] (f x 1)) ([x y] (+ base x y (g))))
          (g [] 5)]
    [(f 1) (f 1 2)]))
;;; letfn-self-recursion
(letfn [(fact [n] (if (<= n 1) 1 (* n (fact (dec n)))))] (map fact [0 5 10]))
;;; reductions
[(reductions + [1 2 3 4]) (reductions + 10 [1 2]) (reductions + []) (reductions conj [] [1 2])]
;;; memoize
(let [calls (fn [x] (* x x))
      f (memoize calls)]
  [(f 3) (f 3) (f 4) (map f [1 2 1])])
;;; memoize-recursive-def
(def fib (memoize (fn [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))))
(fib 60)
;;; sorted-map
(let [m (sorted-map :c 3 :a 1 :b 2)]
  [m (assoc m :aa 0) (keys (dissoc m :b)) (first m) (into (sorted-map) {"z" 1 "b" 2 "m" 3})])
;;; sorted-map-reduce-assoc
(reduce (fn [m x] (assoc m (mod x 7) x)) (sorted-map) [20 3 15 8 1])
;;; sorted-set
(let [s (sorted-set 5 1 3)]
  [s (conj s 2 9 0) (disj s 3) (first s) (last s) (sorted? s) (sorted? #{1}) (sorted? (sorted-map))])
;;; sorted-map-mixed-keys
(sorted-map 1 :a "b" :b)
;;; rseq
[(rseq [1 2 3]) (rseq []) (rseq (sorted-map :a 1 :b 2)) (rseq (sorted-set 3 1 2))]
;;; subseq
(let [s (sorted-set 1 3 5 7 9)
      m (sorted-map 1 :a 2 :b 3 :c)]
  [(subseq s > 3) (subseq s >= 3 < 9) (rsubseq s < 7) (subseq s > 10) (subseq m <= 2) (rsubseq m > 1)])
;;; rseq-of-list
(rseq '(1 2))
;;; trampoline
(letfn [(down [n] (if (pos? n) #(down (dec n)) :done))]
  [(trampoline down 50000) (trampoline + 1 2)])
;;; namespace-name
[(namespace :a/b) (namespace :b) (name :a/b) (namespace :x.y/z)]
;;; char
[(char 97) (char 65) (str (char 104) (char 105)) (map char [120 121]) (char 233)]
;;; rename-keys
[(clojure.set/rename-keys {:a 1 :b 2} {:a :x}) (set/rename-keys {:a 1 :b 2} {:a :b :b :a}) (set/rename-keys {:a 1} {:z :y})]
;;; clojure-set-relations
(let [rel #{{:name "ann" :dept 1} {:name "bob" :dept 2}}
      depts #{{:dept 1 :dname "eng"} {:dept 2 :dname "ops"}}]
  [(= (set/select #(= 1 (:dept %)) rel) #{{:name "ann" :dept 1}})
   (= (set/project rel [:name]) #{{:name "ann"} {:name "bob"}})
   (= (set/rename rel {:name :who}) #{{:who "ann" :dept 1} {:who "bob" :dept 2}})
   (get (set/index rel [:dept]) {:dept 2})
   (set/map-invert {:a 1 :b 2})
   (= (set/join rel depts) #{{:name "ann" :dept 1 :dname "eng"} {:name "bob" :dept 2 :dname "ops"}})
   (= (set/join rel #{{:d 1 :x 0}} {:dept :d}) #{{:name "ann" :dept 1 :d 1 :x 0}})
   (set/union #{1} #{2} #{1})])
;;; list-predicate
[(list? (map inc [1])) (list? '(1 2)) (list? (list 1)) (list? ()) (list? (conj '(1) 0)) (list? (conj (map inc [1]) 0))
 (list? (reverse [1 2])) (list? (filter odd? [1])) (list? (range 3)) (list? []) (seq? (map inc [1]))]
