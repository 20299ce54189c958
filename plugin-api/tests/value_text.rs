//! The SDK's bounded value printer (`ptc_plugin_api::render::format_value`
//! and its neighbours), through its public functions: type labels, samples
//! cut with what they left out, and Clojure's printed forms.

use ptc_plugin_api::render::{format_float, format_value, quote_str, type_label, ValueLimits};
use ptc_plugin_api::Value;

fn ints(n: i64) -> Value {
    Value::vector((1..=n).map(Value::int).collect())
}

#[test]
fn typ_labels() {
    // TYP-001..012
    assert_eq!(type_label(&Value::vector(vec![])), "list[0]");
    assert_eq!(type_label(&ints(3)), "list[3]");
    assert_eq!(type_label(&Value::list(vec![Value::nil()])), "list[1]");
    assert_eq!(type_label(&Value::map(vec![])), "map[0]");
    assert_eq!(type_label(&Value::map(vec![(Value::keyword("a"), Value::int(1))])), "map[1]");
    assert_eq!(type_label(&Value::string("x")), "string");
    assert_eq!(type_label(&Value::int(1)), "integer");
    assert_eq!(type_label(&Value::float(1.5)), "float");
    assert_eq!(type_label(&Value::bool(true)), "boolean");
    assert_eq!(type_label(&Value::keyword("k")), "keyword");
    assert_eq!(type_label(&Value::nil()), "nil");
    let f = ptc_plugin_api::FnDesc::new("f", vec!["x".into()]).with_variadic(Some("more".into()));
    assert_eq!(type_label(&Value::function(f)), "#fn[x & more]");
    assert_eq!(type_label(&Value::set(vec![Value::int(1), Value::int(2), Value::int(3)])), "set[3]");
}

#[test]
fn trn_004_truncated_collections_say_how_many() {
    assert_eq!(format_value(&ints(10), ValueLimits::SAMPLE), "[1 2 3 ...] (10 items, showing first 3)");
    assert_eq!(format_value(&ints(3), ValueLimits::SAMPLE), "[1 2 3]");
    let list = Value::list((1..=5).map(Value::int).collect());
    assert_eq!(format_value(&list, ValueLimits::SAMPLE), "(1 2 3 ...) (5 items, showing first 3)");
    let set = Value::set((1..=4).map(Value::int).collect());
    assert_eq!(format_value(&set, ValueLimits::SAMPLE), "#{1 2 3 ...} (4 items, showing first 3)");
    let map = Value::map((1..=4).map(|i| (Value::keyword(format!("k{i}")), Value::int(i))).collect());
    assert_eq!(format_value(&map, ValueLimits::SAMPLE), "{:k1 1 :k2 2 :k3 3 ...}");
}

#[test]
fn trn_004_rule_applies_at_every_depth() {
    let nested = Value::vector(vec![ints(5), ints(2)]);
    assert_eq!(format_value(&nested, ValueLimits::SAMPLE), "[[1 2 3 ...] (5 items, showing first 3) [1 2]]");
}

#[test]
fn sam_003_clojure_syntax() {
    let m = Value::map(vec![(Value::keyword("name"), Value::string("Alice")), (Value::keyword("age"), Value::int(30))]);
    assert_eq!(format_value(&m, ValueLimits::SAMPLE), r#"{:name "Alice" :age 30}"#);
    assert_eq!(format_value(&Value::set(vec![Value::int(1), Value::int(2)]), ValueLimits::SAMPLE), "#{1 2}");
    assert_eq!(format_value(&Value::keyword("kw"), ValueLimits::SAMPLE), ":kw");
    assert_eq!(format_value(&Value::nil(), ValueLimits::SAMPLE), "nil");
    assert_eq!(format_value(&Value::string("a\"b\nc"), ValueLimits::SAMPLE), r#""a\"b\nc""#);
    assert_eq!(format_value(&Value::var("x"), ValueLimits::SAMPLE), "#'x");
}

#[test]
fn trn_005_long_strings_end_with_dots_inside_quotes() {
    let s = "very long text ".repeat(10);
    let out = format_value(&Value::string(s), ValueLimits { items: 3, chars: 10 });
    assert_eq!(out, "\"very long ...\"");
}

#[test]
fn nested_map_entries_share_the_string_budget() {
    let m = Value::map(vec![
        (Value::keyword("a"), Value::string("x".repeat(100))),
        (Value::keyword("b"), Value::string("y".repeat(100))),
    ]);
    let top = format!("{{:a \"{}...\" :b \"{}...\"}}", "x".repeat(80), "y".repeat(80));
    assert_eq!(format_value(&m, ValueLimits::SAMPLE), top, "top-level entries keep the whole budget");
    let nested = format!("[{{:a \"{}...\" :b \"{}...\"}}]", "x".repeat(40), "y".repeat(40));
    assert_eq!(format_value(&Value::vector(vec![m]), ValueLimits::SAMPLE), nested);
    // Never below 20 characters per string, and short strings are untouched.
    let wide = Value::map((0..3).map(|i| (Value::keyword(format!("k{i}")), Value::string("z".repeat(30)))).collect());
    let out = format_value(&Value::vector(vec![wide]), ValueLimits { items: 3, chars: 30 });
    assert_eq!(out.matches(&format!("\"{}...\"", "z".repeat(20))).count(), 3, "{out}");
    let short = Value::vector(vec![Value::map(vec![(Value::keyword("name"), Value::string("Alice"))])]);
    assert_eq!(format_value(&short, ValueLimits::SAMPLE), "[{:name \"Alice\"}]");
}

#[test]
fn truncation_never_splits_a_character() {
    let s = "日本語のテキスト🎉🎉🎉e\u{301}";
    assert_eq!(quote_str(s, 9), "\"日本語のテキスト🎉...\"");
    assert_eq!(quote_str(s, 12), "\"日本語のテキスト🎉🎉🎉e...\"");
}

#[test]
fn strings_escape_like_the_lisp_printer() {
    // One set of escapes: backspace and form feed too, as Clojure's pr-str.
    assert_eq!(quote_str("a\u{8}b\u{c}\u{1}", 10), "\"a\\bb\\f\u{1}\"");
    assert_eq!(format_float(1e20), "1.0E20");
}

#[test]
fn sample_stays_bounded_for_wide_and_deep_values() {
    let long = Value::string("x".repeat(10_000));
    let row = Value::map((0..10).map(|i| (Value::keyword(format!("field{i}")), long.clone())).collect());
    let wide = Value::vector(vec![row.clone(), row.clone(), row]);
    let out = format_value(&wide, ValueLimits::SAMPLE);
    assert!(out.chars().count() <= 320, "{} chars: {out}", out.len());
    assert!(out.contains("..."));

    let mut deep = Value::vector(vec![long]);
    for _ in 0..200 {
        deep = Value::vector(vec![deep, Value::string("y".repeat(100)), ints(5)]);
    }
    let out = format_value(&deep, ValueLimits::SAMPLE);
    assert!(out.chars().count() <= 400, "{} chars: {out}", out.len());
}

#[test]
fn huge_collection_is_cheap_to_sample() {
    let big = Value::vector((0..1_000_000).map(Value::int).collect());
    assert_eq!(format_value(&big, ValueLimits::SAMPLE), "[0 1 2 ...] (1000000 items, showing first 3)");
}
