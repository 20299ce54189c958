//! One test per rule of `docs/spec/single-user-coalesced.md`, named after its
//! requirement IDs (`docs/spec/README.md` maps them). Value formatting rules
//! (TYP-*, TRN-001..005, SAM-003) are tested next to the printer in `ptc-plugin-api`.

use ptc_plugin_api::render::FINAL_TURN_WARNING;
use ptc_plugin_api::{
    DataEntry, Definition, FnDesc, Params, RenderRequest, Role, Strategy, ToolCall, ToolSpec, Turn, TurnError, Value,
};
use ptc_strategy_single_user_coalesced::SingleUserCoalesced;

fn strategy(params: &str) -> SingleUserCoalesced {
    SingleUserCoalesced::new(Params::from_json("single-user-coalesced", params).unwrap()).unwrap()
}

fn user(req: &RenderRequest) -> String {
    let out = strategy("{}").render(req).unwrap();
    assert_eq!(out.messages().len(), 2);
    assert_eq!(out.messages()[1].role(), Role::User);
    out.messages()[1].content().to_string()
}

fn ok(n: u32, program: &str) -> Turn {
    Turn::new(n, format!("```clojure\n{program}\n```"), Some(program.to_string())).with_result(Value::nil())
}

fn failed(n: u32, program: &str, message: &str) -> Turn {
    Turn::new(n, format!("```clojure\n{program}\n```"), Some(program.to_string()))
        .with_error(TurnError::new("unbound_symbol", message))
}

fn def(name: &str, v: Value) -> Definition {
    Definition::new(name, v, None)
}

fn req(turns: Vec<Turn>) -> RenderRequest {
    RenderRequest::new("Find the answer.", "SYSTEM PROMPT", 5)
        .with_tools(vec![ToolSpec::new("search", Some("(q :string) -> [:string]".into()), None)])
        .with_turns(turns)
}

fn ints(n: i64) -> Value {
    Value::vector((1..=n).map(Value::int).collect())
}

#[test]
fn msg_001_002_006_system_then_one_user_message() {
    let r = req(vec![ok(1, "(def a 1)"), ok(2, "(def b 2)")]);
    let out = strategy("{}").render(&r).unwrap();
    let roles: Vec<Role> = out.messages().iter().map(|m| m.role()).collect();
    assert_eq!(roles, [Role::System, Role::User]);
    assert_eq!(out.messages()[0].content(), "SYSTEM PROMPT");
}

#[test]
fn msg_003_004_007_mission_first_then_blank_line() {
    let u = user(&req(vec![ok(1, "(def a 1)")]));
    assert!(u.starts_with("Find the answer.\n\n;; === tool/ ==="), "{u}");
}

#[test]
fn msg_005_turns_left_then_final_turn_warning() {
    let mut r = RenderRequest::new("m", "s", 3);
    assert!(user(&r).ends_with("\n\nTurns left: 3"));
    r.push_turn(ok(1, "1"));
    assert!(user(&r).ends_with("\n\nTurns left: 2"));
    r.push_turn(ok(2, "2"));
    assert!(user(&r).ends_with(&format!("\n\n{FINAL_TURN_WARNING}")));
}

#[test]
fn fmt_012_empty_sections_are_left_out() {
    let u = user(&RenderRequest::new("Mission.", "s", 5));
    assert_eq!(u, "Mission.\n\n;; No tools available\n\nTurns left: 5");
}

#[test]
fn fmt_003_no_tool_calls_after_a_completed_turn() {
    assert!(!user(&req(vec![])).contains("No tool calls made"), "turn 1 has no tool-call section");
    assert!(user(&req(vec![ok(1, "(+ 1 2)")])).contains("\n\n;; No tool calls made\n\n"));
}

#[test]
fn fmt_010_tr_006_to_009_output_verbatim_one_entry_per_call() {
    let t = ok(1, "(println ...)").with_prints(vec!["line one\nline two".into(), "  indented ; kept".into()]);
    let u = user(&req(vec![t]));
    assert!(u.contains(";; Output:\nline one\nline two\n  indented ; kept\n\n"), "{u}");
}

#[test]
fn trn_010_println_limit_drops_oldest() {
    let t = ok(1, "(doseq ...)").with_prints((1..=5).map(|i| format!("p{i}")).collect());
    let out = strategy(r#"{"println_limit": 3}"#).render(&req(vec![t])).unwrap();
    assert!(out.messages()[1].content().contains(";; Output:\np3\np4\np5\n"));
    assert_eq!((out.stats().printlns_total, out.stats().printlns_shown, out.stats().printlns_dropped), (5, 3, 2));
}

#[test]
fn sam_001_002_samples_only_until_some_turn_prints() {
    let t1 = ok(1, "(def xs [1 2 3 4])").with_definitions(vec![def("xs", ints(4))]);
    let u = user(&req(vec![t1.clone()]));
    assert!(
        u.contains("xs                            ; = list[4], sample: [1 2 3 ...] (4 items, showing first 3)"),
        "{u}"
    );
    let t2 = ok(2, "(println 1)").with_prints(vec!["1".into()]);
    let u = user(&req(vec![t1, t2]));
    assert!(u.contains("xs                            ; = list[4]\n"), "the println check is global: {u}");
}

#[test]
fn def_001_002_redefinition_latest_wins_in_first_position() {
    let t1 = ok(1, "(def a 1) (def b 2) (def a 3)").with_definitions(vec![
        def("a", Value::int(1)),
        def("b", Value::int(2)),
        def("a", Value::int(3)),
    ]);
    let t2 = ok(2, "(def b \"x\")").with_definitions(vec![def("b", Value::string("x"))]);
    let u = user(&req(vec![t1, t2]));
    let a = u.find("a                             ; = integer, sample: 3").expect("a = 3");
    let b = u.find("b                             ; = string, sample: \"x\"").expect("b = \"x\"");
    assert!(a < b, "order of first definition");
    assert!(!u.contains("sample: 1") && !u.contains("sample: 2"));
}

#[test]
fn def_003_004_nil_and_empty_are_shown_without_sample() {
    let t =
        ok(1, "(def x nil) (def v [])").with_definitions(vec![def("x", Value::nil()), def("v", Value::vector(vec![]))]);
    let u = user(&req(vec![t]));
    assert!(u.contains("\nx                             ; = nil\nv                             ; = list[0]\n"), "{u}");
}

#[test]
fn def_005_006_007_docstrings_for_def_and_defn_without_semicolons() {
    let f = Value::function(FnDesc::new("double", vec!["x".into()]).with_return_type(Some("integer".into())));
    let t = ok(1, "...").with_definitions(vec![
        Definition::new("double", f, Some("Doubles; x".into())),
        Definition::new("rate", Value::float(0.5), Some("A rate;; per day".into())),
    ]);
    let u = user(&req(vec![t]));
    assert!(u.contains("(double [x])                  ; \"Doubles x\" -> integer"), "{u}");
    assert!(u.contains("rate                          ; \"A rate per day\" = float, sample: 0.5"), "{u}");
}

#[test]
fn def_008_009_functions_first_then_values_across_turns() {
    let f = |n: &str| Value::function(FnDesc::new(n, vec![]));
    let t1 = ok(1, "...").with_definitions(vec![def("v1", Value::int(1)), def("f1", f("f1"))]);
    let t2 = ok(2, "...").with_definitions(vec![def("v2", Value::int(2)), def("f2", f("f2"))]);
    let u = user(&req(vec![t1, t2]));
    let pos: Vec<usize> = ["(f1 [])", "(f2 [])", "v1 ", "v2 "].iter().map(|s| u.find(s).expect(s)).collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{u}");
}

#[test]
fn function_without_docstring_has_no_padding() {
    let f = FnDesc::new("join-all", vec!["a".into()]).with_variadic(Some("more".into()));
    let t = ok(1, "...").with_definitions(vec![def("join-all", Value::function(f))]);
    assert!(user(&req(vec![t])).contains("\n(join-all [a & more])\n"));
}

fn search(q: &str) -> ToolCall {
    ToolCall::new("search", Value::map(vec![(Value::keyword("q"), Value::string(q))]), Ok(Value::nil()), 1)
}

#[test]
fn tc_001_002_003_004_007_008_tool_calls() {
    let t1 = ok(1, "...").with_tool_calls(vec![search("a"), search("b"), search("b"), search("b")]);
    let t2 = ok(2, "...").with_tool_calls(vec![search("a"), search("c"), search("c")]);
    let out = strategy(r#"{"tool_call_limit": 5}"#).render(&req(vec![t1, t2])).unwrap();
    let u = out.messages()[1].content();
    // Limit applies before collapsing; oldest dropped; results never shown.
    assert!(
        u.contains(
            ";; Tool calls made:\n;   search({:q \"b\"}) x2\n;   search({:q \"a\"})\n;   search({:q \"c\"}) x2\n\n"
        ),
        "{u}"
    );
    assert_eq!((out.stats().tool_calls_total, out.stats().tool_calls_shown, out.stats().tool_calls_dropped), (7, 5, 2));
}

#[test]
fn fmt_002_call_without_args_shows_empty_map() {
    let call = ToolCall::new("list", Value::map(vec![]), Ok(Value::nil()), 1);
    assert!(user(&req(vec![ok(1, "(tool/list)").with_tool_calls(vec![call])])).contains(";   list({})\n"));
}

#[test]
fn trn_003_tool_args_cut_at_60_chars_and_3_items() {
    let args =
        Value::map(vec![(Value::keyword("q"), Value::string("x".repeat(100))), (Value::keyword("ids"), ints(5))]);
    let call = ToolCall::new("search", args, Ok(Value::nil()), 1);
    let u = user(&req(vec![ok(1, "...").with_tool_calls(vec![call])]));
    let expected = format!(";   search({{:q \"{}...\" :ids [1 2 3 ...] (5 items, showing first 3)}})", "x".repeat(60));
    assert!(u.contains(&expected), "{u}");
}

#[test]
fn tc_005_tool_results_appear_only_through_def() {
    let call = ToolCall::new("search", Value::map(vec![]), Ok(Value::string("SECRET-RESULT")), 1);
    let t = ok(1, "...").with_tool_calls(vec![call.clone()]);
    assert!(!user(&req(vec![t])).contains("SECRET-RESULT"));
    let t = ok(1, "...").with_tool_calls(vec![call]).with_definitions(vec![def("r", Value::string("SECRET-RESULT"))]);
    assert!(user(&req(vec![t])).contains("r                             ; = string, sample: \"SECRET-RESULT\""));
}

#[test]
fn err_001_002_003_latest_error_shown_with_program() {
    let r = req(vec![ok(1, "(def a 1)"), failed(2, "(frist a)", "Undefined symbol: frist")]);
    let u = user(&r);
    assert!(
        u.contains("---\nYour previous attempt:\n```clojure\n(frist a)\n```\n\nError: Undefined symbol: frist\n---\n\nTurns left: 3"),
        "{u}"
    );
}

#[test]
fn cmp_002_earlier_failures_collapse_once_a_turn_succeeds() {
    let r = req(vec![
        failed(1, "(bad-1)", "first failure"),
        failed(2, "(bad-2)", "second failure").with_prints(vec!["printed before failing".into()]),
        ok(3, "(def a 1)").with_definitions(vec![def("a", Value::int(1))]),
    ]);
    let out = strategy("{}").render(&r).unwrap();
    let u = out.messages()[1].content();
    assert!(!u.contains("failure") && !u.contains("Your previous attempt"), "{u}");
    assert!(!u.contains("printed before failing"), "failed turns add no output: {u}");
    assert_eq!(out.stats().error_turns_collapsed, 2);
    assert_eq!(out.stats().turns_compressed, 1);
}

#[test]
fn only_the_latest_of_consecutive_failures_is_shown() {
    let u = user(&req(vec![failed(1, "(bad-1)", "first failure"), failed(2, "(bad-2)", "second failure")]));
    assert!(u.contains("(bad-2)") && u.contains("Error: second failure"));
    assert!(!u.contains("(bad-1)") && !u.contains("first failure"));
}

#[test]
fn error_message_prefix_is_never_doubled() {
    let u = user(&req(vec![failed(1, "(/ 1 0)", "Error: division by zero")]));
    assert!(u.contains("\nError: division by zero\n") && !u.contains("Error: Error:"));
}

#[test]
fn ns_008_input_data_only_in_data_section() {
    let r = req(vec![]).with_data(vec![DataEntry::new("orders", ints(10)), DataEntry::new("a_name", Value::nil())]);
    let u = user(&r);
    assert!(
        u.contains(";; === data/ ===\ndata/a_name                   ; nil\ndata/orders                   ; list[10], sample: [1 2 3 ...] (10 items, showing first 3)"),
        "{u}"
    );
    assert!(!u.contains("user/"));
}

#[test]
fn api_004_005_defaults_and_api_006_params_validated() {
    let err = |p: &str| SingleUserCoalesced::new(Params::from_json("single-user-coalesced", p).unwrap()).err().unwrap();
    assert!(err(r#"{"println_limit": 0}"#).message().contains("`println_limit` must be at least 1"));
    assert!(err(r#"{"tool_call_limit": -1}"#).message().contains("`tool_call_limit` must be at least 1"));
    assert!(err(r#"{"sample_limit": "3"}"#).message().contains("`sample_limit` must be a whole number"));
    assert!(err(r#"{"windows": 2}"#).message().contains("unknown parameter `windows`"));
    // Defaults: 15 printlns, 20 tool calls.
    let t = ok(1, "...")
        .with_prints((1..=16).map(|i| i.to_string()).collect())
        .with_tool_calls((0..21).map(|i| search(&i.to_string())).collect());
    let out = strategy("{}").render(&req(vec![t])).unwrap();
    assert_eq!((out.stats().printlns_shown, out.stats().tool_calls_shown), (15, 20));
}

#[test]
fn sample_limits_are_parameters() {
    let t = ok(1, "...").with_definitions(vec![def("s", Value::string("abcdefghij")), def("v", ints(9))]);
    let out = strategy(r#"{"sample_limit": 2, "sample_printable_limit": 4}"#).render(&req(vec![t])).unwrap();
    let u = out.messages()[1].content();
    assert!(u.contains("sample: \"abcd...\"") && u.contains("sample: [1 2 ...] (9 items, showing first 2)"), "{u}");
}

#[test]
fn prefix_is_stable_from_turn_1_to_turn_2() {
    let r1 = req(vec![]).with_data(vec![DataEntry::new("d", ints(4))]);
    let mut r2 = r1.clone();
    r2.push_turn(ok(1, "(def a 1)").with_definitions(vec![def("a", Value::int(1))]));
    let (u1, u2) = (user(&r1), user(&r2));
    let prefix = &u1[..u1.rfind("\n\nTurns left").unwrap()];
    assert!(u2.starts_with(prefix), "turn-2 prompt must extend turn-1's mission + tool/ + data/ prefix");
    assert_eq!(u1, ptc_plugin_api::render::first_user_message(&r1), "one function renders turn 1 for every strategy");
}

#[test]
fn rendering_is_pure() {
    let r = req(vec![ok(1, "(def a 1)").with_definitions(vec![def("a", ints(3))])]);
    let s = strategy("{}");
    assert_eq!(s.render(&r).unwrap(), s.render(&r).unwrap());
}
