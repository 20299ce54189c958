;;; let-basic
(let [a 1 b (+ a 1)] (* a b))
;;; let-vector-destructure
(let [[a b & more] [1 2 3 4 5]] [a b more])
;;; let-vector-as
(let [[x y :as all] [10 20 30]] [x y all])
;;; let-map-keys-or
(let [{:keys [a b] :or {b 42} :as m} {:a 1}] [a b m])
;;; let-map-explicit
(let [{x :x y "y"} {:x 1 "y" 2}] [x y])
;;; let-nested-destructure
(let [{[p q] :pair {:keys [z]} :inner} {:pair [1 2] :inner {:z 3}}] [p q z])
;;; let-underscore
(let [[_ b] [1 2]] b)
;;; let-strs
(let [{:strs [name age]} {"name" "ann" "age" 30}] (str name ":" age))
;;; let-shadow
(let [x 1 x (+ x 10)] x)
;;; if-basic
[(if true 1 2) (if nil 1 2) (if false 1) (if 0 :zero :nope)]
;;; if-not
(if-not (empty? [1]) :has :none)
;;; when
[(when true 1 2 3) (when false 1)]
;;; when-not
(when-not false :ran)
;;; if-let
[(if-let [x (first [1 2])] (* x 10) :none) (if-let [x (first [])] x :none)]
;;; when-let
(when-let [[a b] (seq [3 4])] (+ a b))
;;; cond
(let [n 15] (cond (zero? (mod n 15)) "FizzBuzz" (zero? (mod n 3)) "Fizz" :else n))
;;; cond-no-match
(cond false 1 nil 2)
;;; case
[(case 2 1 :one 2 :two :many) (case 9 1 :one :default) (case :b (:a :b) :ab :other)]
;;; case-strings
(case "x" "x" 1 "y" 2)
;;; case-no-match-error
(case 5 1 :one)
;;; do
(do (def counter 1) (+ counter 1))
;;; and-or
[(and 1 2 3) (and 1 nil 3) (and) (or nil false 7) (or nil false) (or)]
;;; thread-first
(-> 5 (- 2) (* 10) str)
;;; thread-last
(->> (range 10) (filter even?) (map #(* % %)) (reduce +))
;;; thread-keyword
(-> {:a {:b {:c 42}}} :a :b :c)
;;; as-thread
(as-> 3 x (* x x) (- x 1) [x (inc x)])
;;; cond-thread
(cond-> 1 true inc false (* 100) (odd? 3) (* 10))
;;; some-thread
[(some-> {:a 1} :a inc) (some-> {:a 1} :b inc)]
;;; fn-basic
((fn [x y] (+ x y)) 3 4)
;;; fn-variadic
((fn [a & rest] [a rest]) 1 2 3)
;;; fn-variadic-empty
((fn [a & rest] [a rest]) 1)
;;; fn-multi-arity
(let [f (fn ([] 0) ([x] x) ([x y] (+ x y)) ([x y & more] (apply + x y more)))] [(f) (f 1) (f 1 2) (f 1 2 3 4)])
;;; fn-named-recursion
((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) 10)
;;; fn-destructure-params
((fn [[a b] {:keys [c]}] (+ a b c)) [1 2] {:c 3})
;;; fn-literal
(map #(* 2 %) [1 2 3])
;;; fn-literal-args
(#(str %1 "-" %2 "-" %&) 1 2 3 4)
;;; closure-captures
(let [make-adder (fn [n] (fn [x] (+ x n))) add5 (make-adder 5)] (map add5 [1 2 3]))
;;; closure-nested-capture
(let [a 1] ((fn [b] ((fn [c] (+ a b c)) 3)) 2))
;;; defn
(defn square "Squares x." [x] (* x x))
(square 12)
;;; defn-multi-arity
(defn greet ([] (greet "world")) ([name] (str "hello " name)))
[(greet) (greet "ann")]
;;; defn-recursive
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(fib 15)
;;; def-value
(def rates {:usd 1.0 :eur 0.9})
(:eur rates)
;;; def-then-use-in-fn
(def base 100)
(defn add-base [x] (+ x base))
(add-base 5)
;;; loop-recur
(loop [i 0 acc 1] (if (< i 10) (recur (inc i) (* acc 2)) acc))
;;; loop-destructure
(loop [[x & xs] [1 2 3 4] sum 0] (if x (recur xs (+ sum x)) sum))
;;; recur-in-fn
(defn count-down [n acc] (if (zero? n) acc (recur (dec n) (conj acc n))))
(count-down 5 [])
;;; recur-variadic
((fn [n & xs] (if (pos? n) (recur (dec n) (cons n xs)) xs)) 3)
;;; doseq-println
(doseq [x [1 2 3]] (println "item" x))
;;; doseq-nested
(doseq [x [1 2] y [:a :b]] (println x y))
;;; dotimes
(dotimes [i 3] (println "i =" i))
;;; for-basic
(for [x [1 2 3]] (* x 10))
;;; for-nested-when
(for [x (range 4) y (range x) :when (odd? (+ x y))] [x y])
;;; for-let-while
(for [x (range 10) :let [y (* x x)] :while (< y 30)] y)
;;; for-destructure
(for [[k v] {:a 1 :b 2}] (str (name k) "=" v))
;;; quote
['(1 2 3) (quote [:a 1])]
;;; keyword-callable
[(:a {:a 1}) (:z {:a 1} :default) (:a nil)]
;;; map-callable
[({:a 1} :a) ({:a 1} :b 2)]
;;; set-callable
[(#{1 2} 2) (#{1 2} 3)]
;;; vector-callable
([10 20 30] 1)
;;; namespaces
[(clojure.string/upper-case "a") (str/lower-case "B") (clojure.core/inc 1) (Math/abs -3) (set/union #{1} #{1})]
;;; comments-and-discard
(+ 1 #_ 100 ; a comment
   2)
;;; char-literals
[\a \space (str \h \i)]
;;; println-mixed
(println "s" 1 :k [1 "two" nil] {:a "x"} nil)
;;; println-returns-nil
(println)
;;; unbound-symbol-error
(undefined-thing 1)
;;; assert-holds
[(assert (= 1 1)) (assert true "fine") (let [xs [1 2]] (assert (= 2 (count xs)) "two") (count xs))]
;;; assert-fails-after-printing
(do (println "checked") (assert (= 1 2) "one is not two") (println "never"))
;;; assert-fails-on-nil
(let [m {:a 1}] (assert (:b m)) :unreached)
