use super::*;
use ptc_agent::config::Trigger;
use ptc_agent::resolve::Render;
use ptc_agent::resolve::{token_counter, Strategy};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_plugin_api::{Message, Prompt, Rendered, StrategyError};
use ptc_tokens::DEFAULT_ENCODING;
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

/// A session of `turns` turns whose programs reuse what earlier turns printed.
fn subject(turns: u32) -> Subject {
    let mut turn_records = Vec::new();
    for n in 1..=turns {
        turn_records.push(serde_json::json!({
            "number": n, "raw_response": "r", "program": format!("(tool/get {{:id \"ORD-{}\"}})", 1000 + n - 1),
            "success": true, "result": "nil", "prints": [format!("next: ORD-{}", 1000 + n)],
        }));
    }
    let text = serde_json::json!({"format": "ptc-session/1", "mission": "m", "turns": turn_records}).to_string();
    Subject::new("s.json", &Session::parse(&text).unwrap()).unwrap()
}

fn figures(words: fn(u32) -> usize, models: &[&PriceModel]) -> Figures {
    // `turns = 0`: the strategy serves from turn 1, so every prompt is ours.
    let trigger = Some(Trigger { turns: Some(0), tokens: None });
    let mut policy = Policy::new(Strategy::new("w", Arc::new(Words(words)), trigger), Vec::new(), None, counter());
    let mut memo = TokenMemo::new(counter());
    let mut how = Measure { models, memo: &mut memo, counter: counter(), show_turn: Some(2) };
    measure(&mut policy, &subject(3), &mut how).unwrap()
}

#[test]
fn token_figures_by_hand() {
    assert_eq!(counter().count_messages(&[Message::system("s"), Message::user(" word".repeat(7))]), 17);
    // Turn t sends 2t words: 12, 14, 16 tokens.
    let grow = figures(|t| 2 * t as usize, &[]);
    assert_eq!((grow.turns, grow.total_tokens, grow.largest_prompt), (3, 42, 16));
    assert_eq!(grow.prompt_tokens, [12, 14, 16]);
    assert_eq!(grow.history_tokens, 2 + 4, "turn 2 adds 2, turn 3 adds 4 over turn 1");
    assert_eq!(grow.turns_full_history, 0);
    assert_eq!(grow.shown_prompt, Some((2, format!("s\n\n{}", " word".repeat(4)))));
    let flat = figures(|_| 2, &[]);
    assert_eq!((flat.total_tokens, flat.history_tokens, flat.largest_prompt), (36, 0, 12));
}

#[test]
fn costs_follow_each_price_model() {
    let none = PriceModel::builtin("none").unwrap();
    let openai = PriceModel::builtin("openai").unwrap();
    let f = figures(|t| 600 * t as usize, &[&none, &openai]);
    // Without caching the cost is the prompt tokens.
    assert_eq!(f.cost("none").unwrap().cost.input, f.total_tokens as f64);
    assert_eq!(f.costs[0].turns.len(), 3);
    // The prompts only grow at the end: once the shared prefix passes 1,024
    // tokens it is read, in steps of 128.
    let o = &f.costs[1];
    assert_eq!(o.turns[0].usage.cache_read_tokens, 0, "turn 1: nothing cached yet");
    assert_eq!(o.turns[1].usage.cache_read_tokens, 0, "turn 2 repeats 600 words: under the 1,024 minimum");
    let read = o.turns[2].usage.cache_read_tokens;
    assert!(read >= 1024 && (read - 1024).is_multiple_of(128), "turn 3 repeats turn 2's 1,200 words: {read}");
    assert!(read + 128 > 1200 && read <= 1200 + 10, "{read}");
    assert!(o.total.cost.input < f.total_tokens as f64);
}

#[test]
fn recall_counts_the_facts_the_prompt_still_shows() {
    // Turns 2 and 3 use "ORD-1001" and "ORD-1002", printed by the turn
    // before: the "words" prompts never show them.
    let f = figures(|_| 2, &[]);
    assert_eq!((f.recall.used, f.recall.visible), (2, 0));
    assert_eq!(f.recall.share(), Some(0.0));
    // An earlier turn printed both: turn-output would give them back.
    assert_eq!((f.recall.restorable, f.recall.restorable_share()), (2, Some(1.0)));
    // Full history shows turn 1's print on turn 2.
    let mut policy = Policy::new(
        Strategy::new(FULL_HISTORY, Arc::new(ptc_registry::Renderer::FullHistory), None),
        Vec::new(),
        None,
        counter(),
    );
    let mut memo = TokenMemo::new(counter());
    let mut how = Measure { models: &[], memo: &mut memo, counter: counter(), show_turn: None };
    let full = measure(&mut policy, &subject(3), &mut how).unwrap();
    assert_eq!((full.recall.used, full.recall.visible), (2, 2));
    assert_eq!(full.turns_full_history, 3);
    assert!(full.shown_prompt.is_none());
}

#[test]
fn sums_add_up() {
    let none = PriceModel::builtin("none").unwrap();
    let f = figures(|_| 2, &[&none]);
    let mut sum = Figures::default();
    sum.add(&f);
    sum.add(&f);
    assert_eq!((sum.turns, sum.total_tokens, sum.largest_prompt), (6, 2 * f.total_tokens, f.largest_prompt));
    assert_eq!(sum.cost("none").unwrap().cost.input, 2.0 * f.total_tokens as f64);
    assert_eq!(sum.recall, RecallFigures { used: 4, visible: 0, restorable: 4 });
    assert!(sum.prompt_tokens.is_empty(), "per-turn lists are per session only");
}

/// A run that sent the full history, measured from its records, is the
/// full history measured by rendering: the same costs, recall and stale
/// facts. Without recorded prompts there is nothing to measure.
#[test]
fn recorded_prompts_measure_as_the_rendered_ones() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/sessions/redefinitions.json"));
    let mut session = Session::parse(&text.unwrap()).unwrap();
    let subject = Subject::new("redefinitions.json", &session).unwrap();
    let models: Vec<PriceModel> = ["anthropic", "openai"].iter().filter_map(|m| PriceModel::builtin(m)).collect();
    let models: Vec<&PriceModel> = models.iter().collect();
    let mut memo = TokenMemo::new(counter());
    let mut how = Measure { models: &models, memo: &mut memo, counter: counter(), show_turn: None };
    for turn in &mut session.turns {
        turn.messages.clear();
    }
    assert!(measure_recorded(&session, &subject, &mut how).is_none());
    for (turn, request) in session.turns.iter_mut().zip(&subject.requests) {
        let prompt = ptc_plugin_api::render::full_history_prompt(request);
        turn.messages = ptc_session::message_records(&prompt);
        turn.prompt_tokens = Some(counter().count_messages(prompt.messages()) as u64);
    }
    let recorded = measure_recorded(&session, &subject, &mut how).unwrap();
    let full = Strategy::new(FULL_HISTORY, Arc::new(ptc_registry::Renderer::FullHistory), None);
    let rendered = measure(&mut Policy::new(full, Vec::new(), None, counter()), &subject, &mut how).unwrap();
    for model in ["anthropic", "openai"] {
        assert_eq!(recorded.cost(model).map(|c| c.usage), rendered.cost(model).map(|c| c.usage), "{model}");
        assert_eq!(recorded.input_cost(model), rendered.input_cost(model), "{model}");
    }
    assert!(recorded.recall.used > 0);
    assert_eq!((recorded.recall, recorded.stale), (rendered.recall, rendered.stale));
    assert_eq!((recorded.turns, recorded.total_tokens), (rendered.turns, rendered.total_tokens));
}
