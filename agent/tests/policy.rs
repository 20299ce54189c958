//! Which renderer serves a turn (`ptc_agent::policy`): the trigger latch,
//! the token budget and the fallback list.

use ptc_agent::config::Trigger;
use ptc_agent::policy::*;
use ptc_agent::resolve::Strategy;
use ptc_agent::resolve::{token_counter, Render};
use ptc_plugin_api::render::full_history;
use ptc_plugin_api::render::{full_history_prompt, FULL_HISTORY};
use ptc_plugin_api::{ErrorKind, RenderRequest, StrategyError};
use ptc_plugin_api::{Message, Prompt, Rendered, Stats, Turn};
use ptc_registry::Renderer;
use ptc_tokens::TokenCounter;
use ptc_tokens::DEFAULT_ENCODING;
use std::sync::Arc;

fn counter() -> &'static TokenCounter {
    token_counter(DEFAULT_ENCODING).expect("o200k_base is built in")
}

/// Renders `words` copies of " word" as the USER message, or fails.
struct Words {
    name: &'static str,
    words: usize,
    does_not_fit: bool,
}

impl Render for Words {
    fn render(&self, _: &RenderRequest) -> Result<Prompt, StrategyError> {
        if self.does_not_fit {
            return Err(StrategyError::does_not_fit(format!("{}: too small a budget", self.name)));
        }
        let messages = vec![Message::system("s"), Message::user(" word".repeat(self.words))];
        Ok(Rendered::new(messages, Stats::new(self.name)).into())
    }
}

fn words(name: &'static str, words: usize) -> Strategy {
    Strategy::new(name, Arc::new(Words { name, words, does_not_fit: false }), None)
}

fn request(completed: u32, max_turns: u32) -> RenderRequest {
    let mut req = RenderRequest::new("Find it", "system", max_turns);
    for n in 1..=completed {
        req.push_turn(Turn::new(n, format!("answer {n} ").repeat(50), None));
    }
    req
}

fn phases(policy: &mut Policy<'_>, turns: u32, max_turns: u32) -> Vec<Phase> {
    (0..turns).map(|done| policy.render(&request(done, max_turns)).unwrap().phase).collect()
}

#[test]
fn no_trigger_means_strategy_from_turn_two() {
    let mut p = Policy::new(words("s", 3), Vec::new(), None, counter());
    assert_eq!(phases(&mut p, 3, 5), [Phase::FullHistory, Phase::Strategy, Phase::Strategy]);
    let served = p.render(&request(1, 5)).unwrap();
    assert_eq!(served.instance, "s");
    assert_eq!(served.rendered.messages()[1].content(), " word word word");
}

#[test]
fn turns_trigger_switches_after_n_completed_turns() {
    let trigger = Some(Trigger { turns: Some(2), tokens: None });
    let mut p = Policy::new(Strategy::new("s", words("s", 3).renderer, trigger), Vec::new(), None, counter());
    let got = phases(&mut p, 5, 8);
    assert_eq!(got, [Phase::FullHistory, Phase::FullHistory, Phase::Strategy, Phase::Strategy, Phase::Strategy]);
    let served = p.render(&request(1, 8)).unwrap();
    assert_eq!(served.phase, Phase::Strategy, "latched: never back to full-history");
}

#[test]
fn tokens_trigger_counts_the_full_history() {
    let at_turn_3 = counter().count_messages(full_history(&request(2, 8)).messages());
    let trigger = Some(Trigger { turns: None, tokens: Some(at_turn_3 as u64) });
    let mut p = Policy::new(Strategy::new("s", words("s", 3).renderer, trigger), Vec::new(), None, counter());
    let got = phases(&mut p, 4, 8);
    assert_eq!(got, [Phase::FullHistory, Phase::FullHistory, Phase::Strategy, Phase::Strategy]);
    assert!(p.switched());
}

#[test]
fn single_shot_never_compresses_ss_001() {
    let mut p = Policy::new(words("s", 3), Vec::new(), None, counter());
    let served = p.render(&request(0, 1)).unwrap();
    assert_eq!((served.phase, served.instance.as_str()), (Phase::FullHistory, FULL_HISTORY));
    assert!(!p.switched());
}

#[test]
fn full_history_turn_serves_with_its_real_token_count() {
    let mut p =
        Policy::new(Strategy::new(FULL_HISTORY, Arc::new(Renderer::FullHistory), None), vec![], None, counter());
    let req = request(3, 5);
    let served = p.render(&req).unwrap();
    assert_eq!(served.phase, Phase::FullHistory);
    assert_eq!(served.rendered, full_history_prompt(&req));
    assert_eq!(served.tokens, counter().count_messages(full_history(&req).messages()));
}

#[test]
fn only_the_third_fallback_fits_and_it_is_recorded() {
    let fallbacks = vec![
        words("big", 400),
        Strategy::new("tight", Arc::new(Words { name: "tight", words: 0, does_not_fit: true }), None),
        words("small", 20),
    ];
    let mut p = Policy::new(words("primary", 1000), fallbacks, Some(100), counter());
    let served = p.render(&request(2, 5)).unwrap();
    assert_eq!(served.instance, "small");
    assert_eq!(served.phase, Phase::Fallback(2));
    assert!(served.tokens <= 100);
    let tried: Vec<&str> = served.attempts.iter().map(|a| a.instance.as_str()).collect();
    assert_eq!(tried, ["primary", "big", "tight", "small"]);
    assert_eq!(served.attempts[0].outcome, Ok(counter().count_messages(words_messages(1000).as_slice())));
    assert_eq!(served.attempts[2].outcome.as_ref().unwrap_err().kind(), ErrorKind::DoesNotFit);
}

fn words_messages(n: usize) -> Vec<Message> {
    vec![Message::system("s"), Message::user(" word".repeat(n))]
}

#[test]
fn full_history_over_budget_before_the_trigger_falls_back_too() {
    let trigger = Some(Trigger { turns: Some(10), tokens: None });
    let primary = Strategy::new("s", words("s", 3).renderer, trigger);
    let mut p = Policy::new(primary, vec![words("small", 5)], Some(40), counter());
    let served = p.render(&request(4, 12)).unwrap();
    assert_eq!(served.attempts[0].instance, FULL_HISTORY);
    assert_eq!((served.instance.as_str(), served.phase), ("small", Phase::Fallback(0)));
}

#[test]
fn none_fits_is_one_clear_error() {
    let mut p = Policy::new(words("primary", 500), vec![words("big", 300)], Some(50), counter());
    let err = p.render(&request(1, 5)).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("no strategy fits max_prompt_tokens = 50: `primary` needs "), "{text}");
    assert!(text.contains("`big` needs ") && text.ends_with("add a tighter fallback"), "{text}");
}

#[test]
fn other_render_errors_are_not_budget_fallbacks() {
    struct Broken;
    impl Render for Broken {
        fn render(&self, _: &RenderRequest) -> Result<Prompt, StrategyError> {
            Err(StrategyError::render("cannot"))
        }
    }
    let mut p = Policy::new(Strategy::new("broken", Arc::new(Broken), None), vec![words("ok", 1)], Some(50), counter());
    let err = p.render(&request(1, 5)).unwrap_err();
    assert_eq!(err.to_string(), "strategy `broken`: render failed: cannot");
}

/// An isolated renderer whose process fails (or whose strategy refuses).
struct Failing {
    isolated: bool,
    error: StrategyError,
}

impl Render for Failing {
    fn render(&self, _: &RenderRequest) -> Result<Prompt, StrategyError> {
        Err(self.error.clone())
    }
    fn isolated(&self) -> bool {
        self.isolated
    }
}

fn failing(name: &'static str, isolated: bool, error: StrategyError) -> Strategy {
    Strategy::new(name, Arc::new(Failing { isolated, error }), None)
}

#[test]
fn a_failed_isolated_instance_passes_the_turn_on_without_a_budget() {
    let crashed = StrategyError::render("isolated plugin `v` died of signal 6 (SIGABRT) rendering turn 2");
    let mut p = Policy::new(failing("vendor", true, crashed.clone()), vec![words("local", 3)], None, counter());
    let served = p.render(&request(1, 5)).unwrap();
    assert_eq!((served.instance.as_str(), served.phase), ("local", Phase::Fallback(0)));
    assert_eq!(served.attempts[0], Attempt { instance: "vendor".into(), outcome: Err(crashed) });
    assert_eq!(
        served.attempts[0].to_string(),
        "`vendor`: render failed: isolated plugin `v` died of signal 6 (SIGABRT) rendering turn 2"
    );
    // Its strategy's own errors too (a panic, a refusal): it is untrusted.
    let panicked = StrategyError::new(ErrorKind::Panicked, "boom");
    let mut p = Policy::new(failing("vendor", true, panicked), vec![words("local", 3)], None, counter());
    assert_eq!(p.render(&request(1, 5)).unwrap().instance, "local");
}

#[test]
fn when_nothing_serves_after_an_isolated_failure_every_attempt_is_named() {
    let crashed = StrategyError::render("isolated plugin `v` exceeded the 1 GiB memory limit rendering turn 2");
    // No fallback: the instance's own error, as for any renderer.
    let mut p = Policy::new(failing("vendor", true, crashed.clone()), vec![], None, counter());
    let err = p.render(&request(1, 5)).unwrap_err();
    assert_eq!(err, PolicyError::Render { instance: "vendor".into(), error: crashed.clone() });
    // A fallback that fails too (in-process, not a size error): it ends the turn.
    let broken = StrategyError::render("cannot");
    let mut p =
        Policy::new(failing("vendor", true, crashed.clone()), vec![failing("b", false, broken)], None, counter());
    assert_eq!(p.render(&request(1, 5)).unwrap_err().to_string(), "strategy `b`: render failed: cannot");
    // Two isolated ones that fail: one line with both.
    let timeout = StrategyError::render("isolated plugin `w` took longer than the 10000 ms render time limit");
    let mut p =
        Policy::new(failing("vendor", true, crashed), vec![failing("other", true, timeout)], Some(100), counter());
    let err = p.render(&request(1, 5)).unwrap_err().to_string();
    assert!(err.starts_with("no strategy could serve the turn: `vendor`: render failed: isolated plugin `v` exceeded"));
    assert!(err.contains("; `other`: render failed: isolated plugin `w` took longer"), "{err}");
}
