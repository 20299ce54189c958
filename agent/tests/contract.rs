//! An agent held to its signature (`ptc_agent::contract`): a returned
//! value checked and shaped as JSON, its feedback to the model.

use ptc_agent::contract::*;
use ptc_lisp::read_edn;
use ptc_lisp::Value;
use ptc_signature::Signature;
use serde_json::json;

fn sig(text: &str) -> Signature {
    Signature::parse(text).unwrap()
}

fn edn(text: &str) -> Value {
    read_edn(text).unwrap()
}

#[test]
fn returns_are_checked_as_lisp_values() {
    let s = sig("{count :int, items [{id :int, title :string}], order_count :int?, tags [:keyword]}");
    let good =
        edn(r#"{:count 2 :items [{:id 1 :title "a"} {:id 2 :title "b" :extra true}] :order-count 3 :tags #{:x}}"#);
    assert_eq!(check_return(&s, &good), Ok(()));
    let bad = edn(r#"{:count 2 :items [{:id 1 :title "a"} {:id "2" :title "b"}] :tags []}"#);
    let m = check_return(&s, &bad).unwrap_err();
    assert_eq!(m.to_string(), "at $.items[1].id: expected :int, got string \"2\"");
    // String keys (JSON-shaped maps) name fields too; a keyword is not a string.
    assert_eq!(check_return(&sig("{id :int}"), &edn(r#"{"id" 1}"#)), Ok(()));
    assert_eq!(
        check_return(&sig("[:string]"), &edn("(\"a\" :b)")).unwrap_err().to_string(),
        "at $[1]: expected :string, got keyword :b"
    );
    assert_eq!(
        check_return(&sig(":map"), &edn("[1 2]")).unwrap_err().to_string(),
        "at $: expected :map, got vector [1 2]"
    );
}

#[test]
fn the_feedback_says_where_what_and_the_whole_type() {
    let s = sig("{total :float, by_tier {gold :int}}");
    let value = edn(r#"{:total "12.5" :by-tier {:gold 1}}"#);
    let m = check_return(&s, &value).unwrap_err();
    assert_eq!(
        return_feedback(&s, &m, &value),
        "The returned value does not match the signature: at $.total: expected :float, got string \"12.5\". \
         Expected {total :float, by_tier {gold :int}}. You returned {:total \"12.5\" :by-tier {:gold 1}}. \
         Fix the value and return it again."
    );
}

#[test]
fn tool_calls_are_checked_before_the_call() {
    let s = sig("(country :string, weight_kg :int, opts {express :bool}?) -> {cost_eur :int}");
    assert_eq!(check_call("ship", &s, &json!({"country": "GB", "weight_kg": 2})), Ok(()));
    assert_eq!(check_call("ship", &s, &json!({"country": "GB", "weight-kg": 2, "opts": {"express": true}})), Ok(()));
    let takes = "(tool/ship takes {country :string, weight_kg :int, opts {express :bool}?}); the tool was not called";
    assert_eq!(
        check_call("ship", &s, &json!({"country": "GB", "weight_kg": "2"})).unwrap_err(),
        format!("argument `weight_kg`: expected :int, got string \"2\" {takes}")
    );
    assert_eq!(
        check_call("ship", &s, &json!({"country": "GB", "weight": 2})).unwrap_err(),
        format!("argument `weight_kg`: missing (expected :int); it was given country, weight {takes}")
    );
    assert_eq!(
        check_call("ship", &s, &json!({"country": "GB", "weight_kg": 1, "opts": {"express": "yes"}})).unwrap_err(),
        format!("argument `opts` at opts.express: expected :bool, got string \"yes\" {takes}")
    );
    assert_eq!(
        check_call("ship", &s, &json!([1, 2])).unwrap_err(),
        "tool/ship takes {country :string, weight_kg :int, opts {express :bool}?}: a map of arguments, got [1,2]; the tool was not called"
    );
    // No declared inputs: nothing to check.
    assert_eq!(check_call("list", &sig("-> [:map]"), &json!({"anything": 1})), Ok(()));
}

#[test]
fn tool_results_are_checked_against_the_output() {
    let s = sig("(id :int) -> {id :int, tier :keyword, rate :float}");
    assert_eq!(check_result(&s, &json!({"id": 1, "tier": "gold", "rate": 1})), Ok(()));
    assert_eq!(
        check_result(&s, &json!({"id": 1, "tier": "gold", "rate": "x"})).unwrap_err(),
        "its result does not match its signature (-> {id :int, tier :keyword, rate :float}): at $.rate: expected :float, got string \"x\""
    );
}

#[test]
fn json_output_uses_the_declared_names() {
    let s = sig("{order_count :int, items [{unit_price :float}], meta :map?}");
    let value = edn(r#"{:order-count 2 :items [{:unit-price 1.5 :sku-id "a"}] :meta {:a-b 1} :other-key 3}"#);
    assert_eq!(
        public_json(&value, &s.output).unwrap(),
        json!({"order_count": 2, "items": [{"unit_price": 1.5, "sku-id": "a"}], "meta": {"a-b": 1}, "other-key": 3})
    );
    assert!(public_json(&edn("##NaN"), &sig(":any").output).is_err());
}

#[test]
fn the_expected_output_section_states_the_contract() {
    let s = sig("(query :string, limit :int?) -> {count :int, items [{id :int}]}");
    assert_eq!(
        expected_output_section(&s, false),
        "## Expected output\nFinish with `(return value)`, where value matches:\n{count :int, items [{id :int}]}\n\
         `{key type}` is a map with at least those keys (`:order-count` names `order_count`), `[type]` a vector of that \
         type, `?` allows nil or a missing key; an integer is a valid :float. A value that does not match comes back to \
         you with where it differs.\n\n## Inputs\ndata/query :string, data/limit :int?"
    );
    let single = expected_output_section(&sig(":int"), true);
    assert!(single
        .starts_with("## Expected output\nAnswer with one program: the value of its last expression is the result"));
    assert!(!single.contains("## Inputs"));
}
