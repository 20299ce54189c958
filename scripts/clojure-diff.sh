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
driver="$root/lisp/tests/clojure/driver.clj"
args=()
for f in "$cases"/*.clj; do
  base="$(basename "$f" .clj)"
  [[ "$base" == manual-* ]] && continue
  args+=("$f" "$expected/$base.txt")
done
clojure "$driver" "${args[@]}"
