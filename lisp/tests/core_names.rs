//! One test per core name added for the original runtime's library (the
//! Clojure ones are also compared with real Clojure in `clojure_golden.rs`;
//! the PTC extensions' expected values are written here).

use ptc_lisp::*;
use std::time::Duration;

fn run(src: &str) -> Outcome {
    let limits = Limits { timeout: Duration::from_secs(20), ..Limits::default() };
    run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &limits)
}

fn check(cases: &[(&str, &str)]) {
    for (src, want) in cases {
        let got = match run(src).result {
            Ok(Exit::Value(v)) => v.to_string(),
            Err(e) => format!("ERROR {}: {}", e.kind, e.message),
            other => format!("{other:?}"),
        };
        assert_eq!(&got, want, "{src}");
    }
}

#[test]
fn promoting_arithmetic_and_float_tests() {
    check(&[
        ("[(+' 1 2) (-' 5 3) (*' 4 5) (inc' 1) (dec' 1)]", "[3 2 20 2 0]"),
        (
            "(+' 9223372036854775807 1)",
            "ERROR other: integer overflow in +; use a float (e.g. 1.0) for very large numbers",
        ),
        ("[(NaN? ##NaN) (NaN? 1.0) (infinite? ##-Inf) (infinite? 1)]", "[true false true false]"),
    ]);
}

#[test]
fn bit_operations() {
    check(&[
        ("[(bit-and 12 10) (bit-or 12 10) (bit-xor 12 10) (bit-and-not 12 10) (bit-not 5)]", "[8 14 6 4 -6]"),
        ("[(bit-set 0 3) (bit-clear 15 0) (bit-flip 5 1) (bit-test 5 2) (bit-test 5 1)]", "[8 14 7 true false]"),
        ("[(bit-shift-left 1 10) (bit-shift-right -16 2) (bit-shift-left 1 64) (bit-and 7 3 1)]", "[1024 -4 1 1]"),
        ("(bit-and 1.5 1)", "ERROR type: bit-and expects an integer, got float 1.5"),
    ]);
}

#[test]
fn predicates() {
    check(&[
        (
            "[(associative? {}) (associative? []) (associative? '(1)) (counted? [1]) (counted? \"ab\")]",
            "[true true false true false]",
        ),
        (
            "[(indexed? []) (indexed? '()) (reversible? [1]) (seqable? nil) (seqable? \"s\") (seqable? 1)]",
            "[true false true true true false]",
        ),
        (
            "[(sorted? [1]) (char? \\a) (symbol? :a) (decimal? 1.0) (ratio? 1) (rational? 1) (rational? 1.5)]",
            "[false false false false false true false]",
        ),
        (
            "[(ifn? :k) (ifn? {}) (ifn? inc) (ifn? 1) (map-entry? (first {:a 1})) (map-entry? [1])]",
            "[true true true false true false]",
        ),
        (
            "[(nat-int? 0) (pos-int? 0) (neg-int? -1) (pos-int? 1.0) (distinct? 1 2 3) (distinct? 1 2 1)]",
            "[true false true false true false]",
        ),
    ]);
}

#[test]
fn sequence_functions() {
    check(&[
        ("[(split-at 2 [1 2 3]) (split-with odd? [1 3 4 5]) (subvec [1 2 3 4] 1 3) (subvec [1 2 3] 1)]", "[[(1 2) (3)] [(1 3) (4 5)] [2 3] [2 3]]"),
        ("(subvec [1 2] 1 5)", "ERROR other: subvec: 1..5 is outside the vector (count 2)"),
        ("[(ffirst [[1 2] [3]]) (fnext [1 2 3]) (nfirst [[1 2 3]]) (nnext [1 2 3]) (nnext [1 2])]", "[1 2 (2 3) (3) nil]"),
        ("[(nthnext [1 2 3] 1) (nthnext [1 2] 5) (nthrest [1 2 3] 2) (nthrest [1 2] 5) (nthrest [1 2] 0)]", "[(2 3) nil (3) () [1 2]]"),
        ("(keep-indexed (fn [i x] (when (odd? i) x)) [:a :b :c :d])", "(:b :d)"),
        ("(tree-seq vector? seq [1 [2 [3]] 4])", "([1 [2 [3]] 4] 1 [2 [3]] 2 [3] 3 4)"),
        ("[((every-pred odd? pos?) 1 3) ((every-pred odd? pos?) 1 -1) ((some-fn even? neg?) 1 -3) ((some-fn even?) 1)]", "[true false true false]"),
        ("(array-map :a 1 :b 2)", "{:a 1 :b 2}"),
        ("(disj #{1 2 3} 2 4)", "#{1 3}"),
    ]);
}

#[test]
fn ptc_collection_extensions() {
    check(&[
        ("[(sum [1 2 3.5]) (sum []) (sum [1 nil 2]) (avg [1 2 3 4]) (avg [])]", "[6.5 0 3 2.5 nil]"),
        ("(sum [1 :a])", "ERROR type: sum expects a number, got keyword :a"),
        ("(distinct-by :k [{:k 1 :v :a} {:k 2} {:k 1 :v :b}])", "({:k 1 :v :a} {:k 2})"),
        ("(distinct-by first [[\"a\" 1] [\"a\" 2] [\"b\" 3]])", "([\"a\" 1] [\"b\" 3])"),
        ("[(combinations [1 2 3] 2) (combinations [1 2] 0) (combinations [1 2] 3)]", "[[[1 2] [1 3] [2 3]] [[]] []]"),
        ("[(entries {:a 1 :b 2}) (entries nil) (zip [1 2 3] [:a :b])]", "[[[:a 1] [:b 2]] [] [[1 :a] [2 :b]]]"),
    ]);
}

#[test]
fn string_and_regex_extensions() {
    check(&[
        ("[(upcase \"ab\") (downcase \"AB\") (parse-int \"42\") (parse-int \"x\") (trim-newline \"a\\r\\n\\n\")]", "[\"AB\" \"ab\" 42 nil \"a\"]"),
        ("[(parse-boolean \"true\") (parse-boolean \"false\") (parse-boolean \"yes\")]", "[true false nil]"),
        ("(parse-boolean 1)", "ERROR type: parse-boolean expects a string, got integer 1"),
        ("[(re-split #\"\\s+\" \"a  b c\") (re-split #\",\" \"a,b,,\") (regex? #\"x\") (regex? \"x\")]", "[[\"a\" \"b\" \"c\"] [\"a\" \"b\"] true false]"),
        ("[(extract #\"age=(\\d+)\" \"age=25\") (extract #\"(\\w)(\\d)\" \"x1\" 2) (extract #\"\\d+\" \"ab12\") (extract #\"z\" \"a\")]", "[\"25\" \"1\" \"12\" nil]"),
        ("[(extract-int \"age=(\\\\d+)\" \"age=25\") (extract-int #\"(\\w+)\" \"abc\" 1 -1) (extract-int #\"x(\\d)\" \"y\")]", "[25 -1 nil]"),
    ]);
}

#[test]
fn walking() {
    check(&[
        ("(postwalk #(if (number? %) (inc %) %) {:a [1 {:b 2}] :c #{3}})", "{:a [2 {:b 3}] :c #{4}}"),
        ("(prewalk #(if (and (map? %) (:skip %)) :gone %) [{:skip true :x 1} {:x 2}])", "[:gone {:x 2}]"),
        ("(walk inc #(apply + %) [1 2 3])", "9"),
        ("(walk (fn [[k v]] [v k]) identity {:a 1})", "{1 :a}"),
    ]);
}

#[test]
fn special_forms() {
    check(&[
        ("(condp = 2 1 :one 2 :two :other)", ":two"),
        ("(condp = 9 1 :one :other)", ":other"),
        ("(condp some [1 2 3] #{4} :four #{3 2} :>> inc :none)", "3"),
        ("(condp = 9 1 :one)", "ERROR other: condp: no clause matches integer 9; add a default as the last form"),
        ("(defonce x 1) (defonce x 2) x", "1"),
        ("[(when-first [x [5 6]] (* x 2)) (when-first [x []] :never)]", "[10 nil]"),
        ("(program (+ 1 2) (tool/x {:a \"s\"}))", "\"(+ 1 2)\\n(tool/x {:a \\\"s\\\"})\""),
    ]);
}

#[test]
fn introspection() {
    check(&[
        ("[(type 1) (type \"s\") (type nil) (type [1]) (type #\"r\")]", "[:integer :string nil :vector :regex]"),
        ("(describe [{:a 1 :b \"x\"} {:a 2}])", "{:type \"vector\" :count 2 :scanned 2 :item_types {\"map\" 2} :keys {:a {:present 2 :pct 100.0 :types {\"integer\" 2} :examples [1 2]} :b {:present 1 :pct 50.0 :types {\"string\" 1} :examples [\"x\"]}}}"),
        ("[(describe 3) (describe \"abc\")]", "[{:type \"integer\" :value 3} {:type \"string\" :length 3}]"),
        ("[(dir) (do (def a 1) (defn f \"Doubles.\" [x] (* 2 x)) (dir user)) (dir other) (dir)]", "[[] [\"a\" \"f\"] [] [\"user\"]]"),
        ("(defn my-fun [x] x) (apropos \"my-f\")", "[\"user/my-fun\"]"),
        ("(take 2 (apropos \"bit-\"))", "(\"bit-and\" \"bit-and-not\")"),
        ("(defn f \"Doubles.\" [x & more] x) [(export-meta f) (export-meta 'nope) (:kind (export-meta count))]", "[{:ref \"user/f\" :namespace \"user\" :symbol \"f\" :kind :function :params [\"x\"] :variadic \"more\" :doc \"Doubles.\"} nil :builtin]"),
    ]);
    let out = run(
        "(defn f \"Doubles.\" [x] x) (def n 3) (doc f) (doc count) (doc \"nope\") (source f) (source n) (source inc)",
    );
    assert_eq!(
        out.prints,
        [
            "user/f [x]\n  Doubles.",
            "count: core function, 1 argument",
            "no documentation found for nope",
            "(defn f \"Doubles.\" [x] ...)",
            "(def n 3)",
            "inc is built in: no source available",
        ]
    );
}
