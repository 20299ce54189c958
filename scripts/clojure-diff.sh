#!/usr/bin/env bash
# Runs every PTC-Lisp differential case through real Clojure 1.11 and writes
# the golden outputs that lisp/tests/clojure_golden.rs compares against.
#
#   scripts/clojure-diff.sh            # regenerate lisp/tests/clojure/expected/*.txt
#
# Case files are lisp/tests/clojure/cases/*.clj: cases separated by lines
# `;;; name`. Each case's golden is its println output followed by
# `=> <value>` (printed like PTC-Lisp: maps without commas, characters as
# strings) or `=> ERROR` when Clojure throws. Files named manual-*.clj hold
# PTC-only features; their goldens are hand-written and left alone here.
# Needs `clojure` on PATH (Debian: apt-get install clojure).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cases="$root/lisp/tests/clojure/cases"
expected="$root/lisp/tests/clojure/expected"
command -v clojure >/dev/null || { echo "error: clojure not found; apt-get install clojure" >&2; exit 1; }
mkdir -p "$expected"
driver="$(mktemp --suffix=.clj)"
trap 'rm -f "$driver"' EXIT
cat > "$driver" <<'CLJ'
(require '[clojure.string :as str] 'clojure.set)

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
CLJ
args=()
for f in "$cases"/*.clj; do
  base="$(basename "$f" .clj)"
  [[ "$base" == manual-* ]] && continue
  args+=("$f" "$expected/$base.txt")
done
clojure "$driver" "${args[@]}"
