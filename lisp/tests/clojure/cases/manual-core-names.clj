;;; regex-pred
[(regex? #"x") (regex? "x") (regex? (re-pattern "a+"))]
;;; sum-avg
[(sum [1 2 3.5]) (sum []) (avg [1 2 3 4]) (avg [])]
;;; distinct-by
(distinct-by :k [{:k 1 :v :a} {:k 2} {:k 1 :v :b}])
;;; combinations-entries-zip
[(combinations [1 2 3] 2) (entries {:a 1}) (zip [1 2 3] [:a :b])]
;;; extract
[(extract #"age=(\d+)" "age=25") (extract-int #"n=(\d+)" "n=7") (extract-int #"x(\d)" "y" 1 0)]
;;; strings
[(upcase "ab") (downcase "AB") (parse-int "42") (re-split #"," "a,b")]
;;; insertion-order-kept
(let [m (zipmap (range 50) (range 50)) n (dissoc m 0 10 20)] (take 3 (keys n)))
