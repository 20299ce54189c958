//! PTC-Lisp programs: forms built from the special forms and the core
//! library's names over literals, so the evaluator (not only the reader)
//! runs, plus raw text for the reader.

use proptest::prelude::*;

const SPECIAL: &[&str] = &[
    "def", "defn", "fn", "let", "loop", "recur", "if", "when", "cond", "do", "and", "or", "->", "->>", "doseq", "for",
    "case", "if-let", "when-let", "return", "fail",
];

const CORE: &[&str] = &[
    "count",
    "first",
    "rest",
    "nth",
    "take",
    "drop",
    "conj",
    "concat",
    "into",
    "vec",
    "list",
    "set",
    "hash-map",
    "reverse",
    "distinct",
    "flatten",
    "partition",
    "interleave",
    "range",
    "repeat",
    "frequencies",
    "zipmap",
    "get",
    "get-in",
    "assoc",
    "assoc-in",
    "update",
    "dissoc",
    "merge",
    "keys",
    "vals",
    "+",
    "-",
    "*",
    "/",
    "quot",
    "rem",
    "mod",
    "inc",
    "dec",
    "min",
    "max",
    "=",
    "<",
    ">",
    "compare",
    "pow",
    "sqrt",
    "round",
    "str",
    "subs",
    "join",
    "split",
    "replace",
    "format",
    "pr-str",
    "println",
    "map",
    "mapv",
    "filter",
    "reduce",
    "some",
    "every?",
    "apply",
    "comp",
    "partial",
    "sort",
    "sort-by",
    "group-by",
    "re-find",
    "re-seq",
    "re-pattern",
    "parse-long",
    "parse-double",
    "upper-case",
    "mapcat",
    "take-while",
    "identity",
    "constantly",
    "juxt",
];

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        (-1000i64..1000).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "nil",
            "true",
            "x",
            "y",
            "f",
            "%",
            "[1 2 3]",
            "{:a 1 :b [2]}",
            "\"s\"",
            "\"a,b\"",
            ":k",
            "1.5",
            "9223372036854775807",
            "-0.0",
            "##NaN",
            "(range 100000)",
            "(repeat 1000 \"ab\")",
            "#\"a+\"",
            "#{1 2}",
            "data/xs",
            "tool/search",
        ])
        .prop_map(str::to_string),
    ]
}

/// Well-formed shapes of the special forms and common calls, `{a}` and
/// `{b}` standing for sub-forms: these get past the analyzer, so the
/// evaluator runs.
const SHAPES: &[&str] = &[
    "(let [x {a}] {b})",
    "(if {a} {b} x)",
    "(when {a} {b})",
    "(do {a} {b})",
    "(fn [x] {a})",
    "(def x {a})",
    "(defn f [x] {a})",
    "(loop [x 0] (if (< x 5) (recur (inc x)) {a}))",
    "(reduce + 0 {a})",
    "(map inc {a})",
    "(mapv (fn [x] {a}) {b})",
    "(filter (fn [x] {a}) {b})",
    "(str {a} {b})",
    "(get {a} {b})",
    "(assoc {a} :k {b})",
    "(count {a})",
    "(first {a})",
    "(conj {a} {b})",
    "(into {a} {b})",
    "(sort {a})",
    "(+ {a} {b})",
    "(= {a} {b})",
    "(println {a})",
    "(return {a})",
    "(-> {a} (get :a) {b})",
    "(for [x {a}] {b})",
    "(doseq [x {a}] (println x))",
    "(cond {a} {b} :else x)",
    "(if-let [x {a}] {b} nil)",
    "(apply str {a})",
    "(update {a} :a {b})",
    "(group-by {a} {b})",
    "(sort-by {a} {b})",
    "(subs {a} 0 {b})",
    "(range {a})",
];

/// A form, up to 6 levels: a well-formed shape, or a call of a special
/// form or core function with any arguments.
pub fn form() -> impl Strategy<Value = String> {
    literal().prop_recursive(6, 48, 4, |inner| {
        let head = prop_oneof![prop::sample::select(SPECIAL), prop::sample::select(CORE)];
        let binding = (prop::sample::select(vec!["x", "y", "f", "acc"]), inner.clone())
            .prop_map(|(name, value)| format!("[{name} {value}]"));
        let args = prop::collection::vec(prop_oneof![3 => inner.clone(), 1 => binding], 0..4);
        let call = (head, args).prop_map(|(head, args)| format!("({head} {})", args.join(" ")));
        let shape = (prop::sample::select(SHAPES), inner.clone(), inner)
            .prop_map(|(shape, a, b)| shape.replace("{a}", &a).replace("{b}", &b));
        prop_oneof![2 => shape, 1 => call]
    })
}

/// A program: a few top-level forms, or raw text now and then.
pub fn program() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::collection::vec(form(), 1..4).prop_map(|forms| forms.join("\n")),
        1 => crate::any_text(60),
        1 => crate::edn::text(),
    ]
}
