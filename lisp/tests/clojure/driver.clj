;; Runs PTC-Lisp differential cases through real Clojure 1.11 in one JVM.
;; Arguments: pairs of `cases.clj output.txt`. Each case's output is its
;; println output then `=> <value>`, printed the PTC-Lisp way (maps without
;; commas, characters as strings), or `=> ERROR` when Clojure throws.
;; Used by scripts/clojure-diff.sh and lisp/tests/clojure_golden.rs.
(require '[clojure.string :as str] 'clojure.set 'clojure.walk 'clojure.pprint 'clojure.math)

(defn ptc-str [v]
  (letfn [(seq-str [open close xs] (str open (str/join " " (map ptc-str xs)) close))]
    (cond
      (map? v) (str "{" (str/join " " (map (fn [[k x]] (str (ptc-str k) " " (ptc-str x))) v)) "}")
      (vector? v) (seq-str "[" "]" v)
      (set? v) (seq-str "#{" "}" v)
      (seq? v) (seq-str "(" ")" v)
      (char? v) (pr-str (str v))
      (instance? java.util.regex.Pattern v) (str "#\"" v "\"")
      (fn? v) "#fn"
      :else (pr-str v))))

(defn run-case [src]
  (let [out (java.io.StringWriter.)
        case-ns (create-ns (gensym "case"))
        result (binding [*ns* case-ns *out* out]
                 (refer-clojure)
                 (refer 'clojure.walk)
                 (alias 'str 'clojure.string)
                 (alias 'string 'clojure.string)
                 (alias 'set 'clojure.set)
                 (try (ptc-str (load-string src))
                      (catch Throwable _ "ERROR")))]
    (str (.toString out) "=> " result "\n")))

(defn split-cases [text]
  (->> (str/split text #"(?m)^;;; ")
       (remove str/blank?)
       (map (fn [chunk]
              (let [[name & body] (str/split-lines chunk)]
                [(str/trim name) (str/join "\n" body)])))))

(doseq [[in out] (partition 2 *command-line-args*)]
  (let [cases (split-cases (slurp in))]
    (spit out (apply str (for [[name src] cases]
                           (str ";;; " name "\n" (run-case src)))))
    (println (count cases) "cases:" out)))
