;; Evaluates the turns of one session source in real Clojure 1.11 with a thin
;; PTC-Lisp compatibility layer, and writes what each turn did as JSON.
;; Usage: clojure harness.clj INPUT.edn OUTPUT.json
;; Only a generator aid for tests/sessions/*.json; nothing reads it at test time.
(ns ptc.harness
  (:require [clojure.string :as cs]
            [clojure.edn :as edn]))

(def warnings (atom []))
(defn warn! [& xs] (swap! warnings conj (apply clojure.core/str xs)))

;; ---------------------------------------------------------------- printing
(declare edn-str)
(defn fmt-double [^double d]
  (cond (Double/isNaN d) "##NaN"
        (Double/isInfinite d) (if (pos? d) "##Inf" "##-Inf")
        :else (let [s (Double/toString d)]
                (if (or (cs/includes? s "E"))
                  (let [p (.toPlainString (java.math.BigDecimal. s))]
                    (if (cs/includes? p ".") p (clojure.core/str p ".0")))
                  s))))
(defn esc [^String s]
  (-> s (cs/replace "\\" "\\\\") (cs/replace "\"" "\\\"") (cs/replace "\n" "\\n")
      (cs/replace "\t" "\\t") (cs/replace "\r" "\\r")))
(defn edn-str [x]
  (cond (nil? x) "nil"
        (true? x) "true" (false? x) "false"
        (instance? clojure.lang.Ratio x) (do (warn! "RATIO " x) (clojure.core/str x))
        (instance? Double x) (fmt-double x)
        (instance? Float x) (fmt-double (double x))
        (integer? x) (clojure.core/str x)
        (string? x) (clojure.core/str "\"" (esc x) "\"")
        (keyword? x) (clojure.core/str x)
        (symbol? x) (clojure.core/str x)
        (var? x) (clojure.core/str "#'" (.sym ^clojure.lang.Var x))
        (map? x) (do (when (and (instance? clojure.lang.PersistentHashMap x) (> (count x) 1))
                       (warn! "HASHMAP-ORDER " (count x) " keys " (take 3 (keys x))))
                     (clojure.core/str "{" (cs/join " " (map (fn [[k v]] (clojure.core/str (edn-str k) " " (edn-str v))) x)) "}"))
        (vector? x) (clojure.core/str "[" (cs/join " " (map edn-str x)) "]")
        (set? x) (do (when (> (count x) 1) (warn! "SET-ORDER " (count x)))
                     (clojure.core/str "#{" (cs/join " " (map edn-str x)) "}"))
        (seq? x) (clojure.core/str "(" (cs/join " " (map edn-str x)) ")")
        (and (coll? x) (empty? x)) "()"
        (fn? x) "#fn[anonymous]"
        :else (do (warn! "UNKNOWN-TYPE " (type x)) (pr-str x))))

(defn type-label [x]
  (cond (nil? x) "nil"
        (or (true? x) (false? x)) "boolean"
        (integer? x) "integer"
        (float? x) "float"
        (string? x) "string"
        (keyword? x) "keyword"
        (map? x) (clojure.core/str "map[" (count x) "]")
        (set? x) (clojure.core/str "set[" (count x) "]")
        (sequential? x) (clojure.core/str "list[" (count x) "]")
        (fn? x) "#fn[anonymous]"
        :else (do (warn! "TYPE-LABEL? " (type x)) "any")))

;; ---------------------------------------------------------------- JSON out
(defn json [x]
  (cond (nil? x) "null"
        (true? x) "true" (false? x) "false"
        (integer? x) (clojure.core/str x)
        (string? x) (let [sb (StringBuilder. "\"")]
                      (doseq [c x]
                        (case c
                          \" (.append sb "\\\"") \\ (.append sb "\\\\")
                          \newline (.append sb "\\n") \return (.append sb "\\r") \tab (.append sb "\\t")
                          (if (< (int c) 32) (.append sb (format "\\u%04x" (int c))) (.append sb c))))
                      (.append sb "\"") (.toString sb))
        (keyword? x) (json (name x))
        (map? x) (clojure.core/str "{" (cs/join ", " (map (fn [[k v]] (clojure.core/str (json (name k)) ": " (json v))) x)) "}")
        (sequential? x) (clojure.core/str "[" (cs/join ", " (map json x)) "]")
        :else (throw (ex-info (clojure.core/str "json? " (type x)) {}))))

;; ---------------------------------------------------------------- turn state
(def prints (atom []))
(def tool-calls (atom []))
(def fn-returns (atom {}))      ; entry-id -> last returned value
(def rng (java.util.Random. 42))

(defn terr [msg] (throw (ex-info msg {:tool-error true})))

(ns ptc.helpers
  (:refer-clojure :exclude [/ str println pr-str format])
  (:require [clojure.string :as cs]))
(alias 'h 'ptc.harness)
(defn / ([a] (/ 1 a))
  ([a b] (if (and (integer? a) (integer? b) (not (zero? b)) (zero? (rem a b))) (quot a b)
             (if (and (integer? a) (integer? b) (zero? b)) (throw (ArithmeticException. "Divide by zero"))
                 (clojure.core// (double a) (double b)))))
  ([a b & more] (reduce / (/ a b) more)))
(defn str [& xs] (apply clojure.core/str (map (fn [x] (if (coll? x) (h/edn-str x) x)) xs)))
(defn pr-str [& xs] (cs/join " " (map h/edn-str xs)))
(defn println [& xs]
  (swap! h/prints conj (cs/join " " (map (fn [x] (if (string? x) x (h/edn-str x))) xs))) nil)
(defn format [fmt & args]
  (let [out (apply clojure.core/format fmt args)
        specs (re-seq #"%[-+ 0,#(]*\d*(?:\.(\d+))?([a-zA-Z%])" fmt)
        specs (remove #(= "%" (nth % 2)) specs)]
    (doseq [[[_ prec conv] a] (map vector specs args)]
      (when (and (= "f" conv) (float? a))
        (let [n (if prec (Long/parseLong prec) 6)
              exact (.toPlainString (.setScale (java.math.BigDecimal. (double a)) (int n) java.math.RoundingMode/HALF_EVEN))
              java (clojure.core/format (clojure.core/str "%." n "f") a)]
          (when (not= exact java)
            (h/warn! "FORMAT-ROUNDING " a " java=" java " exact=" exact)))))
    out))
(defn pluck [k coll] (mapv #(get % k) coll))
(defn return [v] (throw (ex-info "return" {::return v})))
(defn fail [v] (throw (ex-info "fail" {::fail v})))
(defn round [x] (Math/round (double x)))
(defn sqrt [x] (Math/sqrt (double x)))
(defn floor [x] (Math/floor (double x)))
(defn ceil [x] (Math/ceil (double x)))
(defn pow [a b] (Math/pow (double a) (double b)))

(in-ns 'ptc.harness)

(defn make-sandbox! []
  (when (find-ns 'sandbox) (remove-ns 'sandbox))
  (binding [*ns* *ns*]
    (in-ns 'sandbox)
    (clojure.core/refer 'clojure.core :exclude '[/ str println pr-str format])
    (clojure.core/refer 'ptc.helpers)
    (doseq [[a t] '[[str clojure.string] [string clojure.string] [set clojure.set]]]
      (require t)
      (alias a t))))

(defn tool-fn [tname impl [lo hi]]
  (fn [& args]
    (let [m (cond (empty? args) {}
                  (and (= 1 (count args)) (map? (first args))) (first args)
                  :else (into {} (map vec (partition 2 args))))
          dur (+ lo (.nextInt rng (inc (- hi lo))))
          call {:name tname :args (edn-str m) :duration_ms dur}]
      (try
        (let [r (impl m)]
          (swap! tool-calls conj (assoc call :result (edn-str r) :error nil))
          r)
        (catch clojure.lang.ExceptionInfo e
          (if (:tool-error (ex-data e))
            (do (swap! tool-calls conj (assoc call :result nil :error (ex-message e)))
                (throw (ex-info (ex-message e) {:ptc-kind "tool" :tool tname})))
            (throw e)))))))

(defn setup-tools! [tool-impl tool-latency]
  (when (find-ns 'tool) (remove-ns 'tool))
  (create-ns 'tool)
  (let [impls (binding [*ns* (the-ns 'ptc.harness)] (eval (read-string (clojure.core/str "(do " tool-impl ")"))))]
    (doseq [[tname impl] impls]
      (intern 'tool (symbol tname) (tool-fn tname impl (get tool-latency tname [5 60]))))))

(defn setup-data! [data]
  (when (find-ns 'data) (remove-ns 'data))
  (create-ns 'data)
  (doseq [[k v] data] (intern 'data (symbol k) (edn/read-string v))))

(defn user-vars [] (into {} (map (fn [[s v]] [s (var-get v)]) (ns-interns 'sandbox))))
(defn restore! [snap]
  (doseq [[s _] (ns-interns 'sandbox)] (when-not (contains? snap s) (ns-unmap 'sandbox s)))
  (doseq [[s v] snap] (alter-var-root (ns-resolve 'sandbox s) (constantly v))))

(defn read-forms [^String src]
  (binding [*ns* (the-ns 'sandbox)]
    (let [rdr (clojure.lang.LineNumberingPushbackReader. (java.io.StringReader. src))]
      (loop [acc []]
        (let [f (read {:eof ::eof} rdr)]
          (if (= f ::eof) acc (recur (conj acc f))))))))

(defn defn-info [form]
  (let [[_ nm & more] form
        [doc more] (if (string? (first more)) [(first more) (rest more)] [nil more])
        params (first more)
        [fixed rest-p] (split-with #(not= '& %) params)]
    {:name (clojure.core/str nm) :doc doc
     :params (mapv clojure.core/str fixed)
     :variadic (when (seq rest-p) (clojure.core/str (second rest-p)))}))

(def entry-counter (atom 0))
(defn instrument [f id]
  (fn [& args] (let [r (apply f args)] (swap! fn-returns assoc id r) r)))

(defn run-turn [program]
  (reset! prints []) (reset! tool-calls []) (reset! fn-returns {})
  (let [snap (user-vars)
        defs (atom [])
        outcome
        (try
          (let [forms (read-forms program)
                last-val (atom nil)]
            (doseq [form forms]
              (let [v (binding [*ns* (the-ns 'sandbox)] (eval form))]
                (reset! last-val v)
                (when (and (seq? form) (#{'def 'defn} (first form)))
                  (let [nm (second form)
                        var (ns-resolve 'sandbox nm)]
                    (if (= 'defn (first form))
                      (let [id (swap! entry-counter inc)
                            info (defn-info form)]
                        (alter-var-root var (fn [f] (instrument f id)))
                        (swap! defs conj (assoc info :kind "function" :id id)))
                      (swap! defs conj {:kind "value" :name (clojure.core/str nm)
                                        :doc (when (= 4 (count form)) (nth form 2))
                                        :value (edn-str (var-get var))}))))))
            {:success true :result (edn-str @last-val)})
          (catch Throwable e
            (let [chain (take-while some? (iterate #(.getCause ^Throwable %) e))
                  root (or (first (filter #(let [d (ex-data %)] (or (:ptc-kind d) (contains? d :ptc.helpers/return) (contains? d :ptc.helpers/fail))) chain))
                           (last chain))
                  d (ex-data root)]
              (cond (contains? d :ptc.helpers/return) {:success true :result (edn-str (:ptc.helpers/return d)) :return (edn-str (:ptc.helpers/return d))}
                    (contains? d :ptc.helpers/fail) {:success true :result (edn-str (:ptc.helpers/fail d)) :fail (edn-str (:ptc.helpers/fail d))}
                    :else {:success false
                           :exception (clojure.core/str (.getName (class root)) ": " (.getMessage root)
                                                        (when (not= root e) (clojure.core/str " / " (.getMessage e))))
                           :ptc_kind (:ptc-kind d)}))))]
    (when-not (:success outcome) (restore! snap))
    (merge outcome
           {:prints @prints
            :tool_calls @tool-calls
            :definitions (if (:success outcome)
                           (mapv (fn [d]
                                   (if (= "function" (:kind d))
                                     {:name (:name d) :kind "function" :params (:params d) :variadic (:variadic d)
                                      :docstring (:doc d)
                                      :return_type (when (contains? @fn-returns (:id d)) (type-label (get @fn-returns (:id d))))}
                                     {:name (:name d) :kind "value" :value (:value d) :docstring (:doc d)}))
                                 @defs)
                           [])})))

(defn -main [in out]
  (let [spec (edn/read-string (slurp in :encoding "UTF-8"))]
    (make-sandbox!)
    (setup-data! (:data spec))
    (setup-tools! (:tool-impl spec "") (:tool-latency spec {}))
    (.setSeed rng (:seed spec 42))
    (let [turns (vec (for [[i p] (map-indexed vector (:programs spec))]
                       (do (reset! warnings [])
                           (let [r (if (nil? p) {:success false :skipped true :prints [] :tool_calls [] :definitions []}
                                       (run-turn p))]
                             (assoc r :warnings @warnings :number (inc i))))))]
      (spit out (json turns) :encoding "UTF-8"))))

(apply -main *command-line-args*)
