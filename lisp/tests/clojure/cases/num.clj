;;; add-sub-mul
[(+) (+ 1) (+ 1 2 3) (- 5) (- 10 1 2) (*) (* 2 3 4) (+ 1 2.5) (- 1.5 0.5)]
;;; div-exact
[(/ 10 2) (/ 10.0 4) (/ 1 2.0) (/ 9 3 3) (/ 2.0)]
;;; div-by-zero
(/ 1 0)
;;; float-div-by-zero
[(/ 1.0 0) (/ -1 0.0)]
;;; quot-rem-mod
[(quot 7 2) (quot -7 2) (rem 7 2) (rem -7 2) (mod 7 2) (mod -7 2) (mod 7 -2) (mod -7 -2) (mod 7.5 2)]
;;; inc-dec-abs
[(inc 1) (dec 1) (inc 1.5) (abs -4) (abs 4.5) (abs 0)]
;;; min-max
[(min 3 1 2) (max 3 1 2) (max 1 2.0) (min 1.5) (max -1 -5)]
;;; comparisons
[(< 1 2 3) (< 1 3 2) (> 3 2 1) (<= 1 1 2) (>= 2 2 3) (< 1 1.5) (= 1 1) (not= 1 2) (== 1 1.0)]
;;; compare
[(compare 1 2) (compare 2 1) (compare 1 1) (compare "a" "c") (compare "abc" "ab") (compare :a :b) (compare nil 1) (compare [1 2] [1 3])]
;;; number-predicates
[(zero? 0) (zero? 0.0) (pos? 1) (neg? -1) (pos? 0) (even? 4) (odd? 3) (odd? -3) (even? 0)]
;;; int-double
[(int 3.9) (int -3.9) (double 3) (int 5) (long 7.0)]
;;; math-interop
[(Math/round 2.5) (Math/round 2.4) (Math/floor 2.7) (Math/ceil 2.1) (Math/sqrt 16) (Math/pow 2 10) (Math/abs -3)]
;;; overflow-add
(+ 9223372036854775807 1)
;;; overflow-mul
(* 4611686018427387904 2)
;;; overflow-inc
(inc 9223372036854775807)
;;; float-printing
[1.0 0.1 -2.5 1.0E20 1.5E-5 1234567.0 12345678.0 0.001 (* 1.0 100)]
;;; float-special
[(/ 0.0 0.0) (* 1.0E308 10)]
;;; arithmetic-type-error
(+ 1 "2")
;;; inc-nil-error
(inc nil)
;;; compare-type-error
(< 1 :a)
;;; sum-of-squares
(reduce + 0 (map (fn [x] (* x x)) (filter odd? (range 0 40))))
;;; average
(let [xs [1 2 3 4]] (/ (reduce + xs) (double (count xs))))
;;; float-and-logs
[(float 3) (float 0.5) (Math/log 1) (Math/exp 0) (Math/log 100)]
;;; more-type-predicates
[(int? 1) (int? 1.0) (double? 1.0) (double? 1) (seq? '(1)) (seq? [1])]
