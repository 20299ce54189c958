//! The opt-in namespace fallback (spec NS-004..NS-007, NS-009), rule by rule.

use ptc_lisp::*;
use serde_json::json;

fn run_opts(src: &str, fallback: bool) -> Outcome {
    let tools = |name: &str, args: serde_json::Value| -> Result<serde_json::Value, String> {
        match name {
            "search" => Ok(json!({"q": args["q"], "hits": 2})),
            "status" => Ok(json!("tool-status")),
            _ => Err(format!("unknown tool {name}")),
        }
    };
    let data = indexmap::IndexMap::from([
        ("products".to_string(), read_edn("[{:price 5} {:price 7}]").unwrap()),
        ("status".to_string(), read_edn(":data-status").unwrap()),
    ]);
    let options =
        RunOptions { namespace_fallback: fallback, tool_names: vec!["search".to_string(), "status".to_string()] };
    run_program_with(src, &Memory::new(), &data, &mut { tools }, &Limits::default(), &options)
}

fn value(src: &str) -> String {
    match run_opts(src, true).result {
        Ok(Exit::Value(v)) => v.to_string(),
        other => panic!("{src}: {other:?}"),
    }
}

fn error(src: &str, fallback: bool) -> LispError {
    run_opts(src, fallback).result.expect_err(src)
}

#[test]
fn ns_004_a_bare_tool_name_calls_the_tool() {
    assert_eq!(value("(search {:q \"x\"})"), "{:q \"x\" :hits 2}");
    let out = run_opts("(:hits (search :q \"y\"))", true);
    assert_eq!(out.tool_calls.len(), 1);
    assert_eq!(out.tool_calls[0].name, "search");
    // As a value too: passed to a higher-order function.
    assert_eq!(value("(map :hits (map (fn [q] (search {:q q})) [\"a\" \"b\"]))"), "(2 2)");
    assert_eq!(value("(count (pmap #(search {:q %}) [1 2 3]))"), "3");
}

#[test]
fn ns_005_a_bare_data_name_reads_the_data() {
    assert_eq!(value("(reduce + (map :price products))"), "12");
}

#[test]
fn ns_006_definitions_and_locals_win() {
    assert_eq!(value("(def products [1]) (count products)"), "1");
    assert_eq!(value("(let [search inc] (search 1))"), "2");
    assert_eq!(value("(defn search [x] [:mine x]) (search 1)"), "[:mine 1]");
    assert_eq!(value("(def status :mine) status"), ":mine");
}

#[test]
fn ns_007_a_name_in_both_namespaces_is_an_error() {
    let e = error("(status)", true);
    assert_eq!(e.kind, ErrorKind::UnboundSymbol);
    assert!(
        e.message.contains("Symbol 'status' exists in both tool/ and data/ namespaces. Use explicit namespace."),
        "{e}"
    );
    assert_eq!(value("[data/status (tool/status)]"), "[:data-status \"tool-status\"]");
}

#[test]
fn ns_009_data_slash_reaches_the_data_even_when_shadowed() {
    assert_eq!(value("(def products []) [(count products) (count data/products)]"), "[0 2]");
    assert_eq!(value("(let [products nil] (count data/products))"), "2");
}

#[test]
fn off_by_default_and_unknown_names_still_fail() {
    let e = error("(count products)", false);
    assert_eq!(e.kind, ErrorKind::UnboundSymbol);
    assert!(e.message.contains("unable to resolve symbol `products`"), "{e}");
    let e = error("(search {:q 1})", false);
    assert_eq!(e.kind, ErrorKind::UnboundSymbol);
    let e = error("(count prodcts)", true);
    assert!(e.message.contains("did you mean `products`?"), "{e}");
    // The plain entry point is the same as the default options.
    let out = run_program("(count products)", &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
    assert!(out.result.is_err());
}
