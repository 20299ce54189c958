;;; str
[(str) (str nil) (str "a" 1 :k nil 2.5) (str [1 "a"]) (str {:a "b"}) (str \x)]
;;; subs
[(subs "hello" 1) (subs "hello" 1 3) (subs "héllo" 1 2)]
;;; subs-error
(subs "abc" 2 10)
;;; join
[(str/join [1 2 3]) (str/join ", " ["a" "b"]) (str/join "-" []) (str/join "," [1 nil 2])]
;;; split
[(str/split "a,b,,c,," #",") (str/split "a b  c" #"\s+") (str/split "abc" #"") (str/split "a,b,c" #"," 2) (str/split "" #",")]
;;; split-lines
(str/split-lines "one\ntwo\r\nthree\n")
;;; trim
[(str/trim "  hi  ") (str/triml "  hi  ") (str/trimr "  hi  ") (str/trim "\n\t x \n")]
;;; case-changes
[(str/upper-case "abc") (str/lower-case "ABC") (str/capitalize "hELLO wORLD") (str/capitalize "")]
;;; predicates
[(str/starts-with? "hello" "he") (str/ends-with? "hello" "lo") (str/includes? "hello" "ell") (str/includes? "hello" "xyz") (str/blank? "  ") (str/blank? nil) (str/blank? "a")]
;;; index-of
[(str/index-of "hello" "l") (str/index-of "hello" "z") (str/index-of "hello" "l" 3) (str/last-index-of "hello" "l")]
;;; replace-literal
[(str/replace "a.b.c" "." "-") (str/replace "aaa" "a" "bb")]
;;; replace-regex
[(str/replace "2024-01-15" #"(\d+)-(\d+)-(\d+)" "$3/$2/$1") (str/replace "a1b22" #"\d+" "#") (str/replace-first "a1b2" #"\d" "_")]
;;; replace-fn
(str/replace "hello world" #"o(.)" (fn [[whole c]] (str "<" c ">")))
;;; string-reverse
(clojure.string/reverse "abc")
;;; parse
[(parse-long "42") (parse-long "-7") (parse-long "4.2") (parse-long "x") (parse-double "2.5") (parse-double "1e3") (parse-double "abc")]
;;; format
[(format "%d items" 3) (format "%.2f" 3.14159) (format "%5d|%-5s|" 42 "ab") (format "%s and %s" :a [1 2]) (format "%05d" 42) (format "%x" 255) (format "100%%") (format "%,d" 1234567) (format "%.1f%%" 12.345)]
;;; format-sci
[(format "%e" 12345.678) (format "%.2e" 0.000123)]
;;; pr-str
[(pr-str "a" 1 nil) (pr-str [1 "b"]) (pr-str) (pr-str {:a "x\ny"})]
;;; escapes
["tab\there" "quote\"inside" "back\\slash" "nl\nx"]
;;; string-seq
[(first "abc") (map str/upper-case ["a" "b"]) (apply str (reverse "abc")) (frequencies "abca")]
;;; keyword-name
[(keyword "abc") (name :abc) (name "s") (keyword :k) (name :ns/local)]
;;; unicode
[(count "日本語") (str/upper-case "straße") (subs "日本語" 1)]
;;; format-rounding
[(format "%.2f" 2.675) (format "%.0f" 2.5) (format "%.1f" 0.05) (format "%.2f" 1.005) (format "%.3f" 1e-5) (format "%.2f" 123456.789) (format "%.2f" 99.999) (format "%.1f" -0.25) (format "%.0f" 0.4) (format "%.2f" 0.0)]
;;; replace-with-a-map
[(clojure.string/replace "a<b>&c" #"[<>&]" {"<" "&lt;" ">" "&gt;" "&" "&amp;"}) (clojure.string/replace-first "a<b<" #"<" {"<" "&lt;"})]
