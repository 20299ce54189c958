use super::*;
use ptc_plugin_api::render::{cache_epoch, check_cache_stable, feedback_message, first_user_message, full_history};
use ptc_plugin_api::{Definition, ToolCall, ToolSpec, TurnError, Value};

fn strategy(json: &str) -> SingleUserCoalesced {
    SingleUserCoalesced::new(Params::from_json("single-user-coalesced", json).unwrap()).unwrap()
}

/// Turn `n` of a realistic run: a lookup stored under a name, printed
/// every third turn, failing every fifth.
fn turn(n: u32) -> Turn {
    let program = format!("(def r{n} (tool/search {{:q \"item {n}\"}}))");
    let raw = format!("Looking up item {n}.\n```clojure\n{program}\n```");
    if n.is_multiple_of(5) {
        return Turn::new(n, raw, Some(program)).with_error(TurnError::new("unbound_symbol", format!("oops{n}")));
    }
    let found =
        Value::vector((0..4).map(|i| Value::string(format!("result {n}.{i} with some descriptive text"))).collect());
    let mut t = Turn::new(n, raw, Some(program))
        .with_result(Value::var(format!("r{n}")))
        .with_tool_calls(vec![ToolCall::new(
            "search",
            Value::map(vec![(Value::keyword("q"), Value::string(format!("item {n}")))]),
            Ok(found.clone()),
            3,
        )])
        .with_definitions(vec![Definition::new(format!("r{n}"), found, None)]);
    if n.is_multiple_of(3) {
        t = t.with_prints(vec![format!("found 4 results for item {n}")]);
    }
    t
}

fn request(turns: u32, max_turns: u32) -> RenderRequest {
    RenderRequest::new("Find every item.", "You write PTC-Lisp.", max_turns)
        .with_tools(vec![ToolSpec::new("search", Some("(q :string) -> [:string]".into()), Some("Search".into()))])
        .with_turns((1..=turns).map(turn))
}

#[test]
fn spec_layout_is_the_spec_message_with_its_head_cached() {
    let req = request(6, 10);
    let out = strategy("{}").render_prompt(&req).unwrap();
    let mut stats = Stats::default();
    assert_eq!(out.messages()[1].content(), single_user_message(&req, &SummaryOptions::default(), &mut stats));
    let blocks: Vec<_> = out.blocks(1).collect();
    assert_eq!(blocks.len(), 2);
    assert!(blocks[0].breakpoint && blocks[0].text.starts_with("Find every item.\n\n;; === tool/ ==="));
    assert!(!blocks[1].breakpoint);
}

/// Turn `n` of a print-heavy run: the same names redefined, ten lines of
/// output a turn (a summary keeps the latest 15 prints: folding pays).
fn printing_turn(n: u32) -> Turn {
    let program = format!("(def rows (tool/search {{:q \"page {n}\"}}))\n(doseq [r rows] (println r))");
    let raw = format!("Page {n}.\n```clojure\n{program}\n```");
    if n.is_multiple_of(7) {
        return Turn::new(n, raw, Some(program)).with_error(TurnError::new("unbound_symbol", format!("oops{n}")));
    }
    let rows = Value::vector((0..10).map(|i| Value::string(format!("page {n} row {i}"))).collect());
    Turn::new(n, raw, Some(program))
        .with_tool_calls(vec![ToolCall::new(
            "search",
            Value::map(vec![(Value::keyword("q"), Value::string(format!("page {n}")))]),
            Ok(rows.clone()),
            3,
        )])
        .with_definitions(vec![Definition::new("rows", rows, None)])
        .with_prints((0..10).map(|i| format!("page {n} row {i}: a line of output about this row")).collect())
}

#[test]
fn checkpointed_prompts_only_append_between_checkpoints_and_keep_the_invariants() {
    let s = strategy(
        r#"{"layout": "checkpointed", "memory": "blocks", "fold_tokens": 300, "fold_min_turns": 3, "cache_min_tokens": 1}"#,
    );
    let mut previous: Option<Prompt> = None;
    let mut epochs = Vec::new();
    for done in 0..30 {
        let req = RenderRequest::new("Read every page.", "You write PTC-Lisp.", 40)
            .with_tools(vec![ToolSpec::new("search", Some("(q :string) -> [:string]".into()), Some("Search".into()))])
            .with_turns((1..=done).map(printing_turn));
        let out = s.render_prompt(&req).unwrap();
        out.check().unwrap();
        if let Err(e) = ptc_conformance::checks::every_invariant(&req, out.messages()) {
            panic!("turn {}: {e}", req.turn());
        }
        if let Some(prev) = &previous {
            check_cache_stable(prev, &out).unwrap_or_else(|e| panic!("turn {}: {e}", req.turn()));
            // Between checkpoints the USER text grows at the end, before the
            // turn info and before a failed latest turn (shown only while
            // it is the latest).
            if cache_epoch(prev) == cache_epoch(&out) {
                let before = prev.messages()[1].content();
                let end = before.rfind("Turns left").unwrap();
                let end = before.find(&format!(";; --- turn {}: failed ---", done - 1)).unwrap_or(end);
                let kept = &before[..end];
                assert!(out.messages()[1].content().starts_with(kept), "turn {}", req.turn());
            }
        }
        let s = out.stats();
        assert_eq!(s.tool_calls_shown + s.tool_calls_dropped, s.tool_calls_total);
        assert_eq!(s.printlns_shown + s.printlns_dropped, s.printlns_total);
        epochs.push(cache_epoch(&out));
        previous = Some(out);
    }
    // It does fold, and not every turn.
    let folds = epochs.windows(2).filter(|w| w[0] != w[1]).count();
    assert!((3..=10).contains(&folds), "{folds} folds in 30 turns: {epochs:?}");
}

#[test]
fn checkpointed_turn_one_is_the_full_history_turn_one() {
    let s = strategy(r#"{"layout": "checkpointed", "sample_printable_limit": 20}"#);
    let req = request(0, 5);
    let out = s.render(&req).unwrap();
    assert_eq!(out.messages()[1].content(), first_user_message(&req));
}

#[test]
fn a_checkpoint_keeps_names_the_latest_error_and_shows_results() {
    let s = strategy(
        r#"{"layout": "checkpointed", "memory": "blocks", "fold_tokens": 200, "fold_min_turns": 2, "cache_min_tokens": 1}"#,
    );
    let req = RenderRequest::new("Read every page.", "You write PTC-Lisp.", 40)
        .with_turns((1..=14).map(printing_turn).chain([turn(15)]));
    let out = s.render_prompt(&req).unwrap();
    let user = out.messages()[1].content();
    assert!(user.contains(";; === turns 1-"), "a frozen segment: {user}");
    // Every live name is shown: `rows` (redefined every turn) and r15's
    // tool call result.
    for name in ["rows ", "r15"] {
        assert!(user.contains(name), "{name} visible: {user}");
    }
    // Turn 15 failed: its program and error verbatim.
    assert!(user.contains(
        ";; --- turn 15: failed ---\n```clojure\n(def r15 (tool/search {:q \"item 15\"}))\n```\nError: oops15"
    ));
    let counter = |name: &str| out.stats().counters().iter().find(|c| c.name() == name).map(|c| c.value());
    assert!(cache_epoch(&out) >= 1 && counter("turns_folded").unwrap() >= 4, "{:?}", out.stats());
    // The head and the last segment (turns 1-13) end breakpoints; turn 14
    // failed and is no longer the latest, so it is not shown, and the
    // failed latest turn after them is shown this turn only.
    assert_eq!(counter("turns_folded"), Some(13));
    assert!(!user.contains("oops14"), "{user}");
    assert_eq!(out.stats().error_turns_collapsed, 2, "turns 7 and 14");
    assert_eq!(out.breakpoint_count(), 2);
    assert!(user.ends_with("Error: oops15\n\nTurns left: 25"), "{user}");
}

#[test]
fn under_the_cache_minimum_the_prompt_is_the_full_transcript() {
    let high = strategy(r#"{"layout": "checkpointed", "memory": "blocks", "cache_min_tokens": 100000}"#);
    let req = request(4, 30);
    let out = high.render_prompt(&req).unwrap();
    assert_eq!(out.messages(), full_history(&req).messages());
    check_cache_stable(&high.render_prompt(&request(3, 30)).unwrap(), &out).unwrap();
    // A failed latest turn too: its answer holds its program, and the
    // transcript's feedback its error (what the latest-error rule asks).
    let req = request(5, 30);
    let out = high.render(&req).unwrap();
    assert_eq!(out.messages(), full_history(&req).messages());
    assert!(out.messages().last().unwrap().content().starts_with("Error: oops5"));
    if let Err(e) = ptc_conformance::checks::every_invariant(&req, out.messages()) {
        panic!("{e}");
    }
    // A failed turn whose answer does not hold its program ends the
    // transcript: from there on, entries (its program and error).
    let hidden = |n: u32| {
        let t = turn(n);
        if n == 5 {
            Turn::new(5, "I will fix it.", t.program().map(String::from)).with_error(TurnError::new("x", "oops5"))
        } else {
            t
        }
    };
    let req = RenderRequest::new("Find every item.", "You write PTC-Lisp.", 30).with_turns((1..=5).map(hidden));
    let last = high.render(&req).unwrap().messages().last().unwrap().content().to_string();
    assert!(last.starts_with(&feedback_message(&req.turns()[3], 30)), "{last}");
    assert!(last
        .contains(";; --- turn 5: failed ---\n```clojure\n(def r5 (tool/search {:q \"item 5\"}))\n```\nError: oops5"));
}

#[test]
fn fact_memory_compresses_while_the_transcript_is_surely_under_the_cache_minimum() {
    use ptc_plugin_api::render::estimate_tokens;
    let req = request(6, 30);
    let transcript = estimate_tokens(full_history(&req).messages()) as f64;
    let with_min = |min: f64| {
        strategy(&format!(r#"{{"layout": "checkpointed", "cache_min_tokens": {}}}"#, min.ceil()))
            .render_prompt(&req)
            .unwrap()
    };
    // Surely under: estimated at 80% of the minimum (a provider counts at
    // most 1.14 times the estimate, `SURELY_UNCACHED_FACTOR`), one
    // compressed USER message, shorter than the transcript.
    let under = with_min(transcript * 1.25);
    assert_eq!(under.messages().len(), 2, "{:?}", under.messages());
    assert!(estimate_tokens(under.messages()) < estimate_tokens(full_history(&req).messages()));
    // Maybe over: the transcript, which reaches the minimum first.
    let maybe = with_min(transcript);
    assert_eq!(maybe.messages()[..4], full_history(&req).messages()[..4]);
}

#[test]
fn past_the_cache_minimum_each_turn_is_the_smaller_form() {
    let verbatim = |user: &str, n: u32| user.contains(&format!(";; --- turn {n} ---\nLooking up item {n}."));
    let coalesced = |user: &str, n: u32| user.contains(&format!(";; --- turn {n} ---\nr{n} "));
    let low = strategy(r#"{"layout": "checkpointed", "memory": "blocks", "cache_min_tokens": 1}"#);
    let last_user = |req: &RenderRequest| low.render(req).unwrap().messages()[1].content().to_string();
    // Here the answer (`user=> #'r1`) is shorter than the block with r1's
    // sample...
    let user = last_user(&request(4, 30));
    assert!((1..=4).all(|n| verbatim(&user, n)), "{user}");
    // ...and with a long-winded answer the block is.
    let wordy = |n: u32| {
        let t = turn(n);
        let raw = format!("{}\n{}", "Let me think about this carefully. ".repeat(20), t.raw_response());
        Turn::new(n, raw, t.program().map(String::from))
            .with_result(t.result().unwrap().clone())
            .with_tool_calls(t.tool_calls().to_vec())
            .with_definitions(t.definitions().to_vec())
    };
    let req = RenderRequest::new("Find every item.", "You write PTC-Lisp.", 30).with_turns((1..=4).map(wordy));
    let user = last_user(&req);
    assert!((1..=4).all(|n| coalesced(&user, n)), "{user}");
}

#[test]
fn an_unknown_layout_is_named() {
    let err = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", r#"{"layout": "fancy"}"#).unwrap())
        .err()
        .unwrap();
    assert!(err.message().contains("`layout` must be one of \"spec\", \"checkpointed\""), "{}", err.message());
    let err = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", r#"{"fold_tokens": 5}"#).unwrap())
        .err()
        .unwrap();
    assert_eq!(
        err.message(),
        "single-user-coalesced: parameter `fold_tokens` is read only with layout = \"checkpointed\""
    );
    let err = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", r#"{"memory": "facts"}"#).unwrap())
        .err()
        .unwrap();
    assert!(err.message().contains("`memory` is read only with layout = \"checkpointed\""), "{}", err.message());
    let err =
        SingleUserCoalesced::new(Params::from_json("single-user-coalesced", r#"{"windw": 2}"#).unwrap()).err().unwrap();
    assert!(err.message().contains("unknown parameter `windw`"), "{}", err.message());
}

/// A turn that printed and then failed: while it is the latest, its block
/// shows what it printed between its program and its error (as the full
/// transcript's feedback does); once a later turn succeeds, that turn's
/// entry lists the facts of those prints, so the model keeps what it saw.
#[test]
fn a_failed_turn_shows_what_it_printed_and_its_facts_stay() {
    let s = strategy(r#"{"layout": "checkpointed", "cache_min_tokens": 1}"#);
    let printed_then_failed = |n: u32| {
        let t = turn(n);
        if n != 5 {
            return t;
        }
        let prints = vec!["raw: {\"@timestamp\":\"2024-11-13T01:04:12Z\",\"user.name\":\"j.rud@example.com\"}".into()];
        Turn::new(5, t.raw_response(), t.program().map(String::from))
            .with_prints(prints)
            .with_error(TurnError::new("unbound_symbol", "oops5"))
    };
    let req =
        RenderRequest::new("Find every item.", "You write PTC-Lisp.", 30).with_turns((1..=5).map(printed_then_failed));
    let user = s.render(&req).unwrap().messages()[1].content().to_string();
    let block = ";; --- turn 5: failed ---\n```clojure\n(def r5 (tool/search {:q \"item 5\"}))\n```\n;; Output:\nraw: ";
    assert!(user.contains(block) && user.contains("user.name\":\"j.rud@example.com\"}\nError: oops5"), "{user}");
    let req =
        RenderRequest::new("Find every item.", "You write PTC-Lisp.", 30).with_turns((1..=7).map(printed_then_failed));
    let user = s.render(&req).unwrap().messages()[1].content().to_string();
    assert!(!user.contains("oops5"), "no longer the latest: {user}");
    let entry = &user[user.find(";; --- turn 6 ---").expect("turn 6's entry")..];
    let facts = entry.lines().find(|l| l.starts_with(";; facts: ")).expect("a facts line");
    for fact in ["2024-11-13T01:04:12Z", "user.name", "j.rud@example.com"] {
        assert!(facts.contains(fact), "{fact}: {facts}");
    }
}
