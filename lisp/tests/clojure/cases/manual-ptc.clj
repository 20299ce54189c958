;;; divide-inexact-is-float
[(/ 10 4) (/ 1 3) (/ 10 5) (/ -9 3)]
;;; pluck
(pluck :name [{:name "a"} {:name "b"} {:x 1}])
;;; pluck-path
(pluck [:a :b] [{:a {:b 1}} {:a {:b 2}}])
;;; sum-by
[(sum-by :n [{:n 1} {:n 2} {:n nil} {:n 3}]) (sum-by :n []) (sum-by :p [{:p 1.5} {:p 2}])]
;;; avg-by
[(avg-by :n [{:n 1} {:n 2}]) (avg-by :n [])]
;;; min-by-max-by
[(min-by :age [{:age 30 :n "a"} {:age 20 :n "b"} {:age 20 :n "c"}]) (max-by :age [{:age 30 :n "a"} {:age 40 :n "b"}]) (max-by :age [])]
;;; where-ops
(let [xs [{:age 30 :tags ["x" "y"] :name "ann"} {:age 20 :tags [] :name "bob"}]]
  [(count (filter (where :age > 25) xs))
   (count (filter (where :age <= 20) xs))
   (count (filter (where :name = "bob") xs))
   (count (filter (where :name not= "bob") xs))
   (count (filter (where :tags includes "y") xs))
   (count (filter (where :name in ["ann" "zed"]) xs))
   (count (filter (where :name "ann") xs))])
;;; where-nil-field
(filter (where :age > 1) [{:age nil} {:age 2}])
;;; math-unqualified
[(floor 2.7) (ceil 2.1) (sqrt 16) (pow 2 3) (round 2.5) (round -2.5)]
;;; return
(def before 1)
(return {:answer 42})
(def after 2)
;;; fail
(fail "could not find it")
;;; println-readable-nesting
(println {:a "x"} ["y" :z] "top")
;;; infinite-range-is-an-error
(range)
;;; str-split-string-is-literal
(str/split "a.b.c" ".")
;;; tool-call-without-tools
(tool/search {:q "x"})
;;; memoryless-def-shadow-builtin
(def count 5)
;;; keyword-tool-args-shape
(defn f [] 1)
(f)
;;; print-and-prn-are-entries
(print "a" "b")
(prn "a" :k)
