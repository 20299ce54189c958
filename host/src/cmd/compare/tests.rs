use super::*;
use crate::config::Trigger;
use crate::policy::Render;
use crate::resolve::Strategy;
use ptc_plugin_api::{Message, Prompt, Rendered, StrategyError, Turn};
use std::sync::Arc;

fn counter() -> &'static TokenCounter {
    token_counter(DEFAULT_ENCODING).expect("o200k_base is built in")
}

/// Renders `[system "s", user " word" x words(turn)]`: with o200k_base
/// that is `words + 10` prompt tokens (1 + 3, words + 3, 3 priming).
struct Words(fn(u32) -> usize);

impl Render for Words {
    fn render(&self, req: &RenderRequest) -> Result<Prompt, StrategyError> {
        let messages = vec![Message::system("s"), Message::user(" word".repeat((self.0)(req.turn())))];
        Ok(Rendered::new(messages, Stats::new("words")).into())
    }
}

fn requests(turns: u32) -> Vec<RenderRequest> {
    (0..turns)
        .map(|done| {
            let mut req = RenderRequest::new("m", "s", 5);
            for n in 1..=done {
                req.push_turn(Turn::new(n, "r", None));
            }
            req
        })
        .collect()
}

fn figures(words: fn(u32) -> usize) -> Figures {
    // `turns = 0`: the strategy serves from turn 1, so every prompt is ours.
    let trigger = Some(Trigger { turns: Some(0), tokens: None });
    let mut policy = Policy::new(Strategy::new("w", Arc::new(Words(words)), trigger), Vec::new(), None, counter());
    measure(&mut policy, requests(3)).unwrap()
}

#[test]
fn figures_by_hand() {
    assert_eq!(counter().count_messages(&[Message::system("s"), Message::user(" word".repeat(7))]), 17);
    // Turn t sends 2t words: 12, 14, 16 tokens.
    let grow = figures(|t| 2 * t as usize);
    assert_eq!((grow.turns, grow.total_tokens, grow.largest_prompt), (3, 42, 16));
    assert_eq!(grow.history_tokens, 2 + 4, "turn 2 adds 2, turn 3 adds 4 over turn 1");
    // Text of turn t: "=== system ===\ns\n\n=== user ===\n" (31 bytes), 10t bytes of words, "\n\n".
    // Turn 2 repeats 31 + 10 bytes of turn 1; turn 3 repeats 31 + 20 of turn 2.
    assert_eq!((grow.prefix_bytes, grow.prompt_bytes), (41 + 51, 53 + 63));
    assert_eq!(grow.turns_full_history, 0);

    let flat = figures(|_| 2);
    assert_eq!((flat.total_tokens, flat.history_tokens, flat.largest_prompt), (36, 0, 12));
    assert_eq!(flat.cacheable(), 1.0, "identical prompts are fully cacheable");

    let rows = [
        Row { name: "grow".into(), figures: Ok(grow.clone()), per_session: vec![] },
        Row { name: "flat".into(), figures: Ok(flat), per_session: vec![] },
        Row { name: "broken".into(), figures: Err("turn 2: boom".into()), per_session: vec![] },
    ];
    let md = table(&rows, &grow, true);
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(lines[0], format!("| {} |", HEADERS.join(" | ")));
    assert_eq!(lines[2], "| grow | 42 | 100.0% | 6 | 100.0% | 79.3% | 16 | 0 | 0 | 0 |");
    assert_eq!(lines[3], "| flat | 36 | 85.7% | 0 | 0.0% | 100.0% | 12 | 0 | 0 | 0 |");
    assert_eq!(lines[4], "| broken | ERROR turn 2: boom |  |  |  |  |  |  |  |  |");
    let text = table(&rows, &grow, false);
    assert!(text.lines().nth(2).unwrap().starts_with("flat  "), "{text}");
    assert_eq!(text.lines().nth(3).unwrap(), "broken    ERROR turn 2: boom");
    assert!(text.lines().next().unwrap().starts_with("strategy  total tokens  vs full"), "{text}");
}

#[test]
fn without_trigger_turn_one_is_full_history_and_sums_add_up() {
    let mut policy = Policy::new(Strategy::new("w", Arc::new(Words(|_| 2)), None), Vec::new(), None, counter());
    let f = measure(&mut policy, requests(3)).unwrap();
    assert_eq!(f.turns_full_history, 1);
    let turn1 = counter().count_messages(ptc_plugin_api::render::full_history(&requests(1)[0]).messages()) as u64;
    assert_eq!(f.total_tokens, turn1 + 12 + 12);
    assert_eq!(f.history_tokens, 2 * (12 - turn1 as i64));
    let mut sum = f.clone();
    sum.add(&f);
    assert_eq!((sum.turns, sum.total_tokens, sum.largest_prompt), (6, 2 * f.total_tokens, f.largest_prompt));
}

#[test]
fn common_prefix_is_in_bytes() {
    assert_eq!(common_prefix("abcdef", "abcxyz"), 3);
    assert_eq!(common_prefix("", "abc"), 0);
    assert_eq!(common_prefix("日本", "日本語"), 6);
}
