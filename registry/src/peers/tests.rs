use super::*;
use ptc_plugin_api::Value;

/// A request at turn `completed + 1`: each turn printed `out-N` lines.
fn request(completed: u32) -> RenderRequest {
    let turns = (1..=completed).map(|n| {
        Turn::new(
            n,
            format!("answer {n}\n```clojure\n(println \"out-{n}\")\n```"),
            Some(format!("(println \"out-{n}\")")),
        )
        .with_prints(vec![format!("out-{n}\nsecond line of {n}")])
        .with_result(Value::nil())
    });
    RenderRequest::new("Find the thing.", "You write PTC-Lisp.", 20).with_turns(turns)
}

fn text(prompt: &Prompt) -> String {
    prompt.messages().iter().map(|m| format!("[{}] {}\n", m.role(), m.content())).collect()
}

fn peer(name: &str, params: &str) -> Peer {
    Peer::build(name, params).expect("a peer").expect("valid parameters")
}

#[test]
fn names_and_parameters() {
    assert!(Peer::build("full-history", "{}").is_none());
    for name in PEERS {
        assert_eq!(peer(name, "{}").name(), name);
        let err = Peer::build(name, r#"{"windw": 2}"#).unwrap().unwrap_err();
        assert!(err.message().contains("windw"), "{}", err.message());
    }
    assert_eq!(peer(CLEAR_TOOL_USES, "{}"), Peer::ClearToolUses(ClearToolUses::default()));
    assert_eq!(ClearToolUses::default().trigger_tokens, 100_000);
    assert_eq!(
        peer(UPSTREAM_TRIM, r#"{"trigger_tokens": 500}"#),
        Peer::UpstreamTrim(UpstreamTrim { trigger_turns: None, trigger_tokens: Some(500), ..UpstreamTrim::default() })
    );
}

#[test]
fn clear_tool_uses_clears_old_results_over_the_trigger_only() {
    let req = request(6);
    let full = ptc_plugin_api::render::full_history_prompt(&req);
    // The default trigger (100,000 tokens) is never reached: the full history.
    assert_eq!(peer(CLEAR_TOOL_USES, "{}").render(&req), full);
    let cleared = peer(CLEAR_TOOL_USES, r#"{"trigger_tokens": 10, "keep": 2}"#).render(&req);
    let t = text(&cleared);
    assert_eq!(t.matches(DEFAULT_PLACEHOLDER_TEXT).count(), 4, "{t}");
    assert!(!t.contains("out-4\n") && t.contains("out-5\n") && t.contains("out-6\n"), "{t}");
    assert!(t.contains("(println \"out-1\")"), "programs stay: {t}");
    assert!(t.contains("Turns left: 17"), "the turn info stays: {t}");
    assert_eq!(cleared.stats().turns_compressed, 4);
    assert_eq!(cleared.messages().len(), full.messages().len());
    // Clearing less than clear_at_least clears nothing.
    let none = peer(CLEAR_TOOL_USES, r#"{"trigger_tokens": 10, "keep": 2, "clear_at_least": 5000}"#).render(&req);
    assert_eq!(none, full);
    // A clear holds: with the trigger crossed at turn 4's prompt (keep 2:
    // turn 1 cleared), later prompts under the trigger keep it cleared.
    let small = full.messages()[..2].iter().map(|m| m.content().len() / 4 + 4).sum::<usize>();
    let held = peer(CLEAR_TOOL_USES, &format!(r#"{{"trigger_tokens": {}, "keep": 2}}"#, small + 40)).render(&req);
    assert!(held.stats().turns_compressed >= 1, "{}", text(&held));
    let inputs = peer(CLEAR_TOOL_USES, r#"{"trigger_tokens": 10, "keep": 2, "clear_tool_inputs": true}"#).render(&req);
    assert!(!text(&inputs).contains("(println \"out-1\")"));
}

const DEFAULT_PLACEHOLDER_TEXT: &str = clear_tool_uses::DEFAULT_PLACEHOLDER;

#[test]
fn observation_masking_masks_outputs_outside_the_window_and_keeps_programs() {
    let req = request(5);
    let masked = peer(OBSERVATION_MASKING, r#"{"window": 2}"#).render(&req);
    let t = text(&masked);
    assert_eq!(t.matches("Old environment output: (2 lines omitted)").count(), 3, "{t}");
    assert!(!t.contains("second line of 3") && t.contains("second line of 4"), "{t}");
    assert!(t.contains("(println \"out-1\")"));
    // The default window of 10 masks nothing in 5 turns.
    let unmasked = peer(OBSERVATION_MASKING, "{}").render(&req);
    assert_eq!(unmasked.messages(), ptc_plugin_api::render::full_history_prompt(&req).messages());
}

#[test]
fn upstream_trim_keeps_the_first_message_and_the_last_messages_after_turn_8() {
    let eight = request(7);
    assert_eq!(peer(UPSTREAM_TRIM, "{}").render(&eight), ptc_plugin_api::render::full_history_prompt(&eight));
    let nine = request(8);
    let trimmed = peer(UPSTREAM_TRIM, "{}").render(&nine);
    let roles: Vec<String> = trimmed.messages().iter().map(|m| m.role().to_string()).collect();
    assert_eq!(roles, ["system", "user", "user", "assistant", "user", "assistant", "user"]);
    let t = text(&trimmed);
    assert!(t.contains("Find the thing."));
    // Turn 6's feedback without its answer, then turns 7 and 8 whole.
    assert!(t.contains("out-6\nsecond line of 6") && !t.contains("answer 6") && t.contains("answer 7"), "{t}");
    assert!(!t.contains("out-5"), "{t}");
    assert_eq!(trimmed.stats().turns_compressed, 6);
    // Without the first message, the slice still begins with USER.
    let bare = peer(UPSTREAM_TRIM, r#"{"keep_initial_user": false}"#).render(&nine);
    assert_eq!(bare.messages()[1].role(), Role::User);
    assert!(!text(&bare).contains("Find the thing."));
}
