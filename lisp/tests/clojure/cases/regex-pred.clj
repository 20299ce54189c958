;;; re-find
[(re-find #"\d+" "abc123def45") (re-find #"(\w+)@(\w+)" "me@host x") (re-find #"z" "abc")]
;;; re-matches
[(re-matches #"\d+" "123") (re-matches #"\d+" "123a") (re-matches #"(\d)(\d)" "12")]
;;; re-seq
[(re-seq #"\d+" "a1b22c333") (re-seq #"x" "abc") (re-seq #"(\w)=(\d)" "a=1 b=2")]
;;; re-pattern
(re-find (re-pattern "[aeiou]+") "rhythm and blues")
;;; regex-case-insensitive
(re-seq #"(?i)ab" "AB ab aB")
;;; type-predicates
(map (fn [v] [(nil? v) (some? v) (boolean? v) (number? v) (integer? v) (float? v) (string? v) (keyword? v)]) [nil true 1 1.5 "s" :k])
;;; coll-predicates
(map (fn [v] [(vector? v) (list? v) (map? v) (set? v) (coll? v) (sequential? v) (fn? v)]) [[1] '(1) {:a 1} #{1} "s" inc])
;;; true-false
[(true? true) (true? 1) (false? false) (false? nil) (not nil) (not 0)]
;;; set-ops
[(sort (set/union #{1 2} #{2 3})) (sort (set/intersection #{1 2 3} #{2 3 4})) (sort (set/difference #{1 2 3} #{2})) (set/subset? #{1} #{1 2}) (set/superset? #{1} #{1 2})]
;;; set-ops-empty
[(set/union) (set/intersection #{1} #{2}) (set/difference #{1} #{1})]
;;; fn-pred-builtin
[(fn? +) (fn? :k) (fn? #(+ 1 %))]
