//! How the SDK lists a turn's tool calls (`ptc_plugin_api::render`): the
//! spec's lines, and the compact lines of the fact memory's entries.

use ptc_plugin_api::render::{compact_tool_call_lines, compact_tool_calls_section, tool_call_lines};
use ptc_plugin_api::{ToolCall, Value};

fn call(name: &str, args: &[(&str, Value)]) -> ToolCall {
    let args = Value::map(args.iter().map(|(k, v)| (Value::keyword(*k), v.clone())).collect());
    ToolCall::new(name, args, Ok(Value::nil()), 1)
}

fn s(text: &str) -> Value {
    Value::string(text)
}

#[test]
fn a_run_of_calls_to_one_tool_is_written_once_with_what_each_call_changed() {
    let calls = [
        call("service-history", &[("vehicle_id", s("VH-2034"))]),
        call("service-history", &[("vehicle_id", s("VH-2033"))]),
        call("service-history", &[("vehicle_id", s("VH-2036"))]),
        call("fault-info", &[("code", s("P0136")), ("library", s("powertrain"))]),
        call("fault-info", &[("code", s("C1513")), ("library", s("chassis"))]),
        call("shop-products", &[("category", s("outdoor")), ("offset", Value::int(0))]),
        call("shop-products", &[("category", s("outdoor")), ("offset", Value::int(50))]),
        call("fx-rate", &[("from", s("USD"))]),
        call("fx-rate", &[("from", s("USD"))]),
        call("fx-rate", &[("from", s("GBP"))]),
        call("list-services", &[]),
        call("list-services", &[]),
    ];
    let refs: Vec<&ToolCall> = calls.iter().collect();
    assert_eq!(
        compact_tool_call_lines(&refs),
        [
            r#"service-history({:vehicle_id "VH-2034"}) and 2 more: "VH-2033" "VH-2036""#,
            r#"fault-info({:code "P0136" :library "powertrain"}) and 1 more: {:code "C1513" :library "chassis"}"#,
            r#"shop-products({:category "outdoor" :offset 0}) and 1 more: 50"#,
            r#"fx-rate({:from "USD"}) x2"#,
            r#"fx-rate({:from "GBP"})"#,
            "list-services({}) x2",
        ]
    );
    // The spec's lines (TC-008) are unchanged: one per call, identical
    // neighbours collapsed.
    assert_eq!(tool_call_lines(&refs).len(), 10);
}

#[test]
fn calls_with_other_keys_or_another_tool_are_not_joined() {
    let calls = [
        call("search", &[("q", s("lisbon"))]),
        call("search", &[("q", s("porto")), ("page", Value::int(2))]),
        call("lookup", &[("q", s("faro"))]),
        call("search", &[("q", s("braga"))]),
    ];
    let refs: Vec<&ToolCall> = calls.iter().collect();
    assert_eq!(compact_tool_call_lines(&refs), tool_call_lines(&refs), "nothing to join");
}

#[test]
fn the_compact_section_is_the_label_then_one_line_per_run() {
    let calls = [call("case", &[("id", s("T-1"))]), call("case", &[("id", s("T-2"))]), call("list-services", &[])];
    let refs: Vec<&ToolCall> = calls.iter().collect();
    assert_eq!(
        compact_tool_calls_section(&refs).as_deref(),
        Some(";; Tool calls made:\n;   case({:id \"T-1\"}) and 1 more: \"T-2\"\n;   list-services({})")
    );
    assert_eq!(compact_tool_calls_section(&[]), None, "no calls, no section");
}
