use super::*;
use ptc_plugin_api::render::{cache_epoch, check_cache_stable, first_user_message};
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

#[test]
fn checkpointed_prompts_only_append_between_checkpoints_and_keep_the_invariants() {
    let s = strategy(r#"{"layout": "checkpointed", "fold_tokens": 300, "fold_min_turns": 3, "cache_min_tokens": 1}"#);
    let mut previous: Option<Prompt> = None;
    let mut epochs = Vec::new();
    for done in 0..30 {
        let req = request(done, 40);
        let out = s.render_prompt(&req).unwrap();
        out.check().unwrap();
        if let Err(e) = ptc_conformance::checks::every_invariant(&req, out.messages()) {
            panic!("turn {}: {e}", req.turn());
        }
        if let Some(prev) = &previous {
            check_cache_stable(prev, &out).unwrap_or_else(|e| panic!("turn {}: {e}", req.turn()));
            // Between checkpoints the USER text grows at the end, before the turn info.
            if cache_epoch(prev) == cache_epoch(&out) {
                let before = prev.messages()[1].content();
                let kept = &before[..before.rfind(";; ").map_or(0, |i| i)];
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
    let s = strategy(r#"{"layout": "checkpointed", "fold_tokens": 200, "fold_min_turns": 2, "cache_min_tokens": 1}"#);
    let req = request(10, 20);
    let out = s.render_prompt(&req).unwrap();
    let user = out.messages()[1].content();
    // Turns 1-8 are folded in two segments; 9 waits (one turn since), and
    // turn 10 failed.
    assert!(user.contains(";; === turns 1-3 (summary; later turns below add to it) ==="), "{user}");
    assert!(user.contains(";; === turns 4-8 (summary; later turns below add to it) ==="), "{user}");
    assert!(user.contains(";; --- turn 9 ---\nr9 "), "{user}");
    for n in (1..10).filter(|n| n % 5 != 0) {
        assert!(user.contains(&format!("r{n} ")), "r{n} visible");
    }
    assert!(user.contains(
        ";; --- turn 10: failed ---\n```clojure\n(def r10 (tool/search {:q \"item 10\"}))\n```\nError: oops10"
    ));
    let counter = |name: &str| out.stats().counters().iter().find(|c| c.name() == name).map(|c| c.value());
    assert_eq!((cache_epoch(&out), counter("turns_folded"), counter("frozen_segments")), (2, Some(8), Some(2)));
    // Only the last segment ends with a breakpoint (with the head and the last turn: three).
    assert_eq!(out.breakpoint_count(), 3);
    // An unfolded turn that printed nothing shows its result.
    let req = request(1, 20);
    let user = s.render(&req).unwrap().messages()[1].content().to_string();
    assert!(user.contains(";; --- turn 1 ---\nr1"), "{user}");
    assert!(user.contains(";; => #'r1"), "{user}");
}

#[test]
fn under_the_cache_minimum_the_compact_spec_message_is_sent_then_checkpointed_for_good() {
    let s = strategy(r#"{"layout": "checkpointed", "fold_tokens": 200, "fold_min_turns": 2, "cache_min_tokens": 400}"#);
    let spec = strategy("{}");
    let mut switched_at = None;
    for done in 0..20 {
        let req = request(done, 30);
        let out = s.render(&req).unwrap();
        let user = out.messages()[1].content();
        let checkpointed = user.contains(";; --- turn ") || user.contains(";; === turns 1-");
        match switched_at {
            None if checkpointed => switched_at = Some(done),
            None => assert_eq!(out, spec.render(&req).unwrap(), "turn {}: the spec message", req.turn()),
            Some(_) => assert!(checkpointed || done == 0, "turn {}: latched", req.turn()),
        }
    }
    let at = switched_at.expect("the prompt reaches 400 tokens");
    assert!(at >= 2, "a few small turns are sent in the spec layout first: {at}");
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
    assert!(
        err.message().contains("unknown parameter `fold_tokens`"),
        "fold_* only with checkpointed: {}",
        err.message()
    );
}
