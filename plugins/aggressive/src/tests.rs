use super::*;
use ptc_plugin_api::render::{estimate_tokens, FINAL_TURN_WARNING};
use ptc_plugin_api::{DataEntry, ErrorKind, FnDesc, Role, ToolCall, ToolSpec, TurnError, Value};

fn strategy(json: &str) -> Aggressive {
    Aggressive::new(Params::from_json("aggressive", json).unwrap()).unwrap()
}

fn counter(out: &Rendered, name: &str) -> i64 {
    out.stats().counters().iter().find(|c| c.name() == name).unwrap_or_else(|| panic!("no counter {name}")).value()
}

fn def(name: &str, value: Value, doc: Option<&str>) -> Definition {
    Definition::new(name, value, doc.map(str::to_string))
}

/// A run with tools, data, definitions, tool calls, prints and a failure.
fn request() -> RenderRequest {
    let tools = vec![
        ToolSpec::new(
            "search",
            Some("(query :string, limit :int) -> [:string]".into()),
            Some("Full-text search".into()),
        ),
        ToolSpec::new("now", Some("-> :string".into()), None),
    ];
    let data = vec![
        DataEntry::new("orders", Value::vector((1..=40).map(Value::int).collect())),
        DataEntry::new("config", Value::map(vec![(Value::keyword("region"), Value::string("eu"))])),
    ];
    let mut req =
        RenderRequest::new("Find the busiest region", "You write PTC-Lisp.", 6).with_tools(tools).with_data(data);
    let call = |q: &str| {
        ToolCall::new("search", Value::map(vec![(Value::keyword("query"), Value::string(q))]), Ok(Value::nil()), 1)
    };
    req.push_turn(
        Turn::new(1, "t1", Some("(def hits ...)".into()))
            .with_tool_calls(vec![call("alpha"), call("beta"), call("gamma")])
            .with_definitions(vec![
                def("hits", Value::vector((0..9).map(Value::int).collect()), Some("All; hits")),
                def("score", Value::function(FnDesc::new("score", vec!["h".into()])), Some("Scores")),
            ])
            .with_prints(vec!["first".into(), "x".repeat(500)]),
    );
    req.push_turn(
        Turn::new(2, "t2", Some("(oops)".into())).with_error(TurnError::new("unbound_symbol", "Unbound: oops")),
    );
    req.push_turn(
        Turn::new(3, "t3", Some("(def best ...)".into()))
            .with_definitions(vec![def("best", Value::string("eu"), None)])
            .with_prints(vec!["third".into(), "fourth".into()]),
    );
    let program: Vec<String> = (1..=20).map(|i| format!("(step {i})")).collect();
    req.push_turn(
        Turn::new(4, "t4", Some(program.join("\n")))
            .with_error(TurnError::new("type_error", "Error: expected number, got string")),
    );
    req
}

fn check_invariants(req: &RenderRequest, out: &Rendered) {
    let m = out.messages();
    assert_eq!(m.len(), 2, "[SYSTEM, USER]");
    assert_eq!((m[0].role(), m[0].content()), (Role::System, req.system_prompt()), "MSG-006");
    assert_eq!(m[1].role(), Role::User);
    assert!(m[1].content().starts_with(req.mission()), "MSG-003/007");
    assert!(m[1].content().ends_with(&turn_info(req.turn(), req.max_turns())), "MSG-005");
    // The latest error verbatim, its program whole or cut with a notice
    // (the suite's own check); live names may go under a binding budget.
    if let Err(e) = ptc_conformance::checks::latest_error(req, m) {
        panic!("MUST-LATEST-ERROR: {e}\n{}", m[1].content());
    }
}

#[test]
fn default_render_is_terse() {
    let req = request();
    let out = strategy("{}").render(&req).unwrap();
    check_invariants(&req, &out);
    let text = out.messages()[1].content();
    let x200 = "x".repeat(200);
    let expected = format!(
        "Find the busiest region

;; === tool/ ===
tool/now() -> string
tool/search(query string, limit int) -> [string]

;; === data/ ===
data/config                   ; map[1], sample: {{:region \"eu\"}}
data/orders                   ; list[40], sample: [1 2 3 ...] (40 items, showing first 3)

;; === user/ (your prelude) ===
(score [h])
hits                          ; = list[9]
best                          ; = string

;; Tool calls made:
;   search({{:query \"alpha\"}})
;   search({{:query \"beta\"}})
;   search({{:query \"gamma\"}})

;; Output:
{x200} ... (cut, 500 chars)
third
fourth

---
Your previous attempt:
```clojure
(step 1)
(step 2)
(step 3)
(step 4)
(step 5)
(step 6)
(step 7)
(step 8)
(step 9)
(step 10)
(step 11)
(step 12)
;; ... (8 more lines cut)
```

Error: expected number, got string
---

Turns left: 2"
    );
    assert_eq!(text, expected);
    let s = out.stats();
    assert_eq!((s.printlns_total, s.printlns_shown, s.printlns_dropped), (4, 3, 1));
    assert_eq!((s.turns_compressed, s.error_turns_collapsed), (2, 1), "only the latest error is shown");
    assert!(s.counters().is_empty(), "no budget counters without max_tokens");
}

#[test]
fn turn_one_and_final_turn() {
    let mut req = RenderRequest::new("Mission", "sys", 1);
    let out = strategy("{}").render(&req).unwrap();
    assert_eq!(out.messages()[1].content(), format!("Mission\n\n;; No tools available\n\n{FINAL_TURN_WARNING}"));
    req = RenderRequest::new("Mission", "sys", 2);
    req.push_turn(Turn::new(1, "r", None));
    let out = strategy("{}").render(&req).unwrap();
    assert!(out.messages()[1].content().ends_with(FINAL_TURN_WARNING));
    assert!(out.messages()[1].content().contains(";; No tool calls made"), "FMT-003");
}

/// The size of the default render, for budgets placed between two drop steps.
fn estimate_with(json: &str) -> usize {
    estimate_tokens(strategy(json).render(&request()).unwrap().messages())
}

#[test]
fn budget_that_fits_drops_nothing() {
    let full = estimate_with("{}");
    let out = strategy(&format!(r#"{{"max_tokens": {full}}}"#)).render(&request()).unwrap();
    assert_eq!(out.messages(), strategy("{}").render(&request()).unwrap().messages());
    assert_eq!(counter(&out, "estimated_tokens"), full as i64);
    assert_eq!(counter(&out, "budget_outputs_dropped"), 0);
    assert_eq!(out.stats().warnings().len(), 0);
}

#[test]
fn budget_drops_outputs_first() {
    let full = estimate_with("{}");
    let max = full - 10;
    let out = strategy(&format!(r#"{{"max_tokens": {max}}}"#)).render(&request()).unwrap();
    check_invariants(&request(), &out);
    assert!(estimate_tokens(out.messages()) <= max);
    let text = out.messages()[1].content();
    assert!(!text.contains("(cut, 500 chars)"), "oldest output dropped");
    assert!(text.contains("third\nfourth"));
    assert_eq!(counter(&out, "budget_outputs_dropped"), 1);
    assert_eq!(counter(&out, "budget_tool_calls_dropped"), 0);
    assert!(out.stats().warnings().next().unwrap().contains("1 outputs"));
}

#[test]
fn budget_drop_order_outputs_calls_samples_then_old_definitions() {
    // Sweep budgets from "everything fits" down to "nothing fits".
    let mut seen = Vec::new();
    for max in (40..=estimate_with("{}")).rev().step_by(7) {
        let out = match strategy(&format!(r#"{{"max_tokens": {max}}}"#)).render(&request()) {
            Ok(out) => out,
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::DoesNotFit);
                break;
            }
        };
        check_invariants(&request(), &out);
        assert!(estimate_tokens(out.messages()) <= max, "fits {max}");
        let step = [
            "budget_outputs_dropped",
            "budget_tool_calls_dropped",
            "budget_data_samples_dropped",
            "budget_user_entries_dropped",
        ]
        .map(|c| counter(&out, c));
        // A later kind is dropped only once every earlier kind is gone.
        if step[1] > 0 {
            assert_eq!(step[0], 3, "outputs before tool calls at {max}");
        }
        if step[2] > 0 {
            assert_eq!(step[1], 3, "tool calls before samples at {max}");
        }
        if step[3] > 0 {
            assert_eq!(step[2], 2, "samples before definitions at {max}");
        }
        if step[3] > 0 && step[3] < 3 {
            let text = out.messages()[1].content();
            assert!(text.contains("best                          ; = string"), "the most recent definition stays");
            assert!(text.contains("older definitions not shown"));
        }
        seen.push(step);
    }
    assert!(seen.iter().any(|s| s[3] > 0), "the sweep reached the user/ step: {seen:?}");
}

#[test]
fn minimum_that_does_not_fit_is_an_error() {
    let err = strategy(r#"{"max_tokens": 10}"#).render(&request()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DoesNotFit);
    assert!(err.message().contains("even the minimum prompt (system prompt, mission, turn info)"), "{}", err.message());
}

/// The estimate of the spec's minimum prompt: system prompt, mission, turn info.
fn minimum_estimate(req: &RenderRequest) -> usize {
    estimate_tokens(&[
        Message::system(req.system_prompt()),
        Message::user(format!("{}\n\n{}", req.mission(), turn_info(req.turn(), req.max_turns()))),
    ])
}

#[test]
fn past_the_four_steps_sections_go_but_the_error_stays() {
    let req = request();
    let max = minimum_estimate(&req) + 45;
    let out = strategy(&format!(r#"{{"max_tokens": {max}}}"#)).render(&req).unwrap();
    check_invariants(&req, &out);
    let text = out.messages()[1].content();
    assert!(!text.contains(";; === tool/"), "{text}");
    assert!(text.contains("more lines cut"), "the cut is announced");
    assert_eq!(counter(&out, "budget_tool_section_dropped"), 1);
    assert!(counter(&out, "budget_program_lines_dropped") > 0);
}

#[test]
fn every_fitting_budget_keeps_the_failed_programs_first_line() {
    let req = request();
    let (mut fitted, mut refused) = (0, 0);
    for max in minimum_estimate(&req)..minimum_estimate(&req) + 120 {
        match strategy(&format!(r#"{{"max_tokens": {max}}}"#)).render(&req) {
            Ok(out) => {
                check_invariants(&req, &out);
                assert!(out.messages()[1].content().contains("```clojure\n(step 1)\n"), "at {max}");
                fitted += 1;
            }
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::DoesNotFit);
                assert!(e.message().contains("the program's first line"), "{}", e.message());
                assert_eq!(fitted, 0, "a larger budget than one that fitted was refused at {max}");
                refused += 1;
            }
        }
    }
    assert!(refused > 0 && fitted > 0, "the sweep crosses the minimum: {refused} refused, {fitted} fitted");
}

#[test]
fn parameters_are_validated() {
    let s = strategy(r#"{"println_limit": 1, "output_char_limit": 10, "error_program_lines": 2, "max_tokens": 500}"#);
    assert_eq!((s.println_limit, s.output_char_limit, s.error_program_lines, s.max_tokens), (1, 10, 2, Some(500)));
    let err = Aggressive::new(Params::from_json("aggressive", r#"{"max_tokens": 0}"#).unwrap()).unwrap_err();
    assert_eq!(err.message(), "aggressive: parameter `max_tokens` must be at least 1, got 0");
    let err = Aggressive::new(Params::from_json("aggressive", r#"{"budget": 1}"#).unwrap()).unwrap_err();
    assert!(err.message().contains("unknown parameter `budget`"));
    let err = Aggressive::new(Params::from_json("aggressive", r#"{"bulk_facts": "drop"}"#).unwrap()).unwrap_err();
    assert_eq!(err.message(), "aggressive: parameter `bulk_facts` is read only with layout = \"checkpointed\"");
    let json = r#"{"layout": "checkpointed", "bulk_facts": "drop"}"#;
    assert!(Aggressive::new(Params::from_json("aggressive", json).unwrap()).is_ok());
}

#[test]
fn huge_values_and_outputs_stay_bounded() {
    let big = Value::vector((0..300_000).map(Value::int).collect());
    let mut req = RenderRequest::new("m", "s", 5).with_data(vec![DataEntry::new("big", big.clone())]);
    req.push_turn(Turn::new(1, "r", None).with_definitions(vec![def("big2", big, None)]).with_prints(vec![
        "y".repeat(
            1_000_000
        );
        10
    ]));
    let out = strategy(r#"{"max_tokens": 300}"#).render(&req).unwrap();
    check_invariants(&req, &out);
    assert!(out.messages()[1].content().len() < 900);
    assert!(strategy("{}").render(&req).unwrap().messages()[1].content().len() < 2_000);
}

/// Checkpointed: a failed latest turn shows its last print before its
/// error, cut to `output_char_limit` as any output is.
#[test]
fn a_failed_latest_turn_shows_its_last_print_cut() {
    let s = strategy(r#"{"layout": "checkpointed", "cache_min_tokens": 1, "output_char_limit": 20}"#);
    let mut req = RenderRequest::new("Count the rows", "You write PTC-Lisp.", 6);
    req.push_turn(Turn::new(1, "```clojure\n(def a 1)\n```", Some("(def a 1)".into())).with_result(Value::int(1)));
    req.push_turn(
        Turn::new(2, "```clojure\n(println \"rows\" 12)\n(boom)\n```", Some("(println \"rows\" 12)\n(boom)".into()))
            .with_prints(vec!["first".into(), "rows 12 and a long tail of text".into()])
            .with_error(TurnError::new("unbound_symbol", "boom is not defined")),
    );
    let out = s.render(&req).unwrap();
    let user = out.messages()[1].content();
    assert!(
        user.contains("```clojure\n(println \"rows\" 12)\n(boom)\n```\nrows 12 and a long t ... (cut, 31 chars)\nError: boom is not defined"),
        "{user}"
    );
    assert!(!user.contains("first"), "{user}");
}

/// Checkpointed: the latest turn's short block lists every call it made,
/// compact (a run of calls to one tool written once, then each later
/// call's varying value).
#[test]
fn the_latest_turns_block_lists_every_call_compact() {
    let s = strategy(r#"{"layout": "checkpointed", "cache_min_tokens": 1}"#);
    let case = |id: &str| {
        ToolCall::new("case", Value::map(vec![(Value::keyword("id"), Value::string(id))]), Ok(Value::nil()), 1)
    };
    let mut req = RenderRequest::new("Close the cases", "You write PTC-Lisp.", 6);
    let calls = (1..=25).map(|n| case(&format!("T-{n}"))).collect();
    // A long answer, so the block is shorter than the turn verbatim.
    let answer = format!("{}\n```clojure\n(mapv #(tool/case {{:id %}}) ids)\n```", "Looking up each case. ".repeat(40));
    req.push_turn(Turn::new(1, answer, Some("(mapv #(tool/case {:id %}) ids)".into())).with_tool_calls(calls));
    let out = s.render(&req).unwrap();
    let user = out.messages()[1].content();
    let ids: Vec<String> = (2..=25).map(|n| format!("\"T-{n}\"")).collect();
    let line = format!(";; calls: case({{:id \"T-1\"}}) and 24 more: {}", ids.join(" "));
    assert!(user.contains(&line), "{user}");
}
