//! `rolling-window`: the most recent `window` turns verbatim, older ones
//! folded into the first USER message.
//!
//! The last `window` (default 2) completed turns stay as ASSISTANT /
//! USER-feedback pairs exactly as full-history shows them; every older turn
//! is folded into the first USER message in single-user-coalesced form
//! (definitions, tool calls, output). A failed turn inside the window stays
//! as it was; an older one is collapsed. Accepts the single-user-coalesced
//! parameters plus `window`, `step` and `cache_min_tokens` (default
//! 1,024). The contract is
//! `docs/spec/strategies.md`.
//!
//! With `step = 1` (the default) the window slides by one turn every turn,
//! so the folded first message (and everything after it) changes every
//! turn. With `step = s` it slides `s` turns at once when it overflows:
//! between `window` and `window + s - 1` turns are verbatim, and between two
//! slides the prompt only grows at the end, so a provider's prompt cache
//! keeps it (the slide count is the [`CACHE_EPOCH`]).
//!
//! ```
//! use ptc_plugin_api::{Params, RenderRequest, Role, Strategy, Turn};
//! use ptc_strategy_rolling_window::RollingWindow;
//!
//! let s = RollingWindow::new(Params::from_json("rolling-window", r#"{"window": 1}"#).unwrap()).unwrap();
//! let mut req = RenderRequest::new("Count the orders", "system", 5);
//! req.push_turn(Turn::new(1, "first answer", None));
//! req.push_turn(Turn::new(2, "second answer", None));
//! let out = s.render(&req).unwrap();
//! let roles: Vec<Role> = out.messages().iter().map(|m| m.role()).collect();
//! assert_eq!(roles, [Role::System, Role::User, Role::Assistant, Role::User]);
//! assert_eq!(out.messages()[2].content(), "second answer");
//! ```

use ptc_plugin_api::render::{
    coalesced_message, count_verbatim_entry, estimate_text_tokens, first_user_blocks, head_sections,
    push_verbatim_turns, transcript_tokens, Closing, Rewrite, SummaryOptions, CACHE_EPOCH, DEFAULT_CACHE_MIN_TOKENS,
};
use ptc_plugin_api::{Block, Params, Prompt, RenderRequest, Rendered, Role, Stats, Strategy, StrategyError, Turn};

/// Default number of turns kept verbatim.
pub const DEFAULT_WINDOW: usize = 2;

/// The strategy, with its limits.
#[derive(Debug, Clone)]
pub struct RollingWindow {
    window: usize,
    step: usize,
    /// Under this many estimated tokens no provider caches the prompt (a
    /// stepped slide must not take it there).
    cache_min_tokens: usize,
    opts: SummaryOptions,
}

impl Strategy for RollingWindow {
    const NAME: &'static str = "rolling-window";
    const DESCRIPTION: &'static str =
        "The last `window` turns verbatim; older turns folded into the first USER message (coalesced form)";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let opts = SummaryOptions::from_params(&mut params)?;
        let window = params.positive("window", DEFAULT_WINDOW)?;
        let step = params.positive("step", 1)?;
        let cache_min_tokens = params.positive("cache_min_tokens", DEFAULT_CACHE_MIN_TOKENS)?;
        params.finish()?;
        Ok(RollingWindow { window, step, cache_min_tokens, opts })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        self.render_prompt(req).map(Prompt::into_rendered)
    }

    fn render_prompt(&self, req: &RenderRequest) -> Result<Prompt, StrategyError> {
        let (split, slides) = self.split(req);
        let (older, recent) = req.turns().split_at(split);
        let mut stats = Stats::new(Self::NAME);
        // Until a turn is folded the prompt is the full history, whose first
        // message (the turn-1 message) every later prompt then shares.
        // Older failed turns never show their error: the latest turn is
        // always inside the window.
        let blocks = if older.is_empty() {
            first_user_blocks(req).to_vec()
        } else {
            let first = coalesced_message(req, older, &self.opts, Closing::NONE, &mut stats);
            // The head (mission, tool/, data/) never changes; the folded
            // part changes only when the window slides.
            let head =
                head_sections(req, &self.opts).into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("\n\n");
            match first.strip_prefix(head.as_str()) {
                Some(rest) if !rest.is_empty() => {
                    vec![Block::new(head.clone()).breakpoint(), Block::new(rest).breakpoint()]
                }
                _ => vec![Block::new(first.clone()).breakpoint()],
            }
        };
        let mut prompt = Prompt::builder().system(req.system_prompt()).message(Role::User, blocks);
        let mut pairs = Vec::new();
        push_verbatim_turns(&mut pairs, recent, req.max_turns());
        for m in pairs {
            prompt.push(m.role(), [Block::new(m.content())]);
        }
        for turn in recent.iter().filter(|t| t.success()) {
            count_verbatim_entry(turn, &mut stats);
        }
        stats.push_counter("turns_verbatim", recent.len() as i64);
        stats.push_counter(CACHE_EPOCH, slides as i64);
        // The end is worth caching once turns follow it (on turn 1 it is the
        // turn info, which the next turn replaces).
        if !recent.is_empty() {
            prompt = prompt.breakpoint_here();
        }
        Ok(prompt.build(stats))
    }
}

impl RollingWindow {
    /// How many leading turns are folded, and how many slides led there.
    /// With `step = 1` the window slides every turn (the spec). With a
    /// larger step it slides once `window + step` turns are verbatim, and
    /// only when the slide pays for itself over the turns the run has left
    /// ([`Rewrite::pays`]): a slide rewrites everything after the head (the
    /// folded part and the window), and saves the reads of the verbatim
    /// turns it folds. Decided turn by turn from the start, so appending a
    /// turn never moves an earlier slide.
    fn split(&self, req: &RenderRequest) -> (usize, usize) {
        let turns = req.turns();
        if self.step == 1 {
            let split = turns.len().saturating_sub(self.window);
            return (split, split);
        }
        let verbatim = |range: &[Turn]| -> usize { range.iter().map(|t| transcript_tokens(t, req.max_turns())).sum() };
        let head = estimate_text_tokens(&coalesced_message(req, &[], &self.opts, Closing::NONE, &mut Stats::default()));
        let folded = |older: &[Turn]| -> usize {
            let text = coalesced_message(req, older, &self.opts, Closing::NONE, &mut Stats::default());
            estimate_text_tokens(&text).saturating_sub(head)
        };
        let kept = estimate_text_tokens(req.system_prompt()) + head;
        let (mut split, mut slides, mut folded_now) = (0, 0, 0);
        for n in 1..=turns.len() {
            let turns_left = (req.max_turns() as usize).saturating_sub(n);
            if n - split < self.window + self.step || turns_left == 0 {
                continue;
            }
            let candidate = n - self.window;
            let window = verbatim(&turns[candidate..n]);
            let before = folded_now + verbatim(&turns[split..candidate]) + window;
            let folded_then = folded(&turns[..candidate]);
            if (Rewrite { kept, before, after: folded_then + window }).pays(turns_left, self.cache_min_tokens) {
                (split, slides, folded_now) = (candidate, slides + 1, folded_then);
            }
        }
        (split, slides)
    }
}

ptc_plugin_api::export_strategy!(RollingWindow);

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::render::{feedback_message, full_history, FINAL_TURN_WARNING};
    use ptc_plugin_api::{Definition, ErrorKind, ToolCall, TurnError, Value};

    fn strategy(json: &str) -> RollingWindow {
        RollingWindow::new(Params::from_json("rolling-window", json).unwrap()).unwrap()
    }

    fn ok_turn(n: u32, name: &str) -> Turn {
        Turn::new(n, format!("```clojure\n(def {name} {n})\n```"), Some(format!("(def {name} {n})")))
            .with_result(Value::var(name))
            .with_definitions(vec![Definition::new(name, Value::int(n as i64), None)])
            .with_tool_calls(vec![ToolCall::new("lookup", Value::map(vec![]), Ok(Value::nil()), 1)])
    }

    fn failed_turn(n: u32) -> Turn {
        Turn::new(n, "```clojure\n(boom)\n```", Some("(boom)".into()))
            .with_error(TurnError::new("unbound_symbol", format!("Unbound symbol: boom{n}")))
    }

    fn request(turns: Vec<Turn>, max_turns: u32) -> RenderRequest {
        RenderRequest::new("Find the answer", "You write PTC-Lisp.", max_turns).with_turns(turns)
    }

    fn check_invariants(req: &RenderRequest, out: &Rendered) {
        if let Err(e) = ptc_conformance::checks::exact_layout(req, out.messages()) {
            panic!("{e}");
        }
    }

    #[test]
    fn window_turns_are_verbatim_as_full_history_shows_them() {
        let req = request((1..=5).map(|n| ok_turn(n, &format!("v{n}"))).collect(), 8);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        let m = out.messages();
        assert_eq!(m.len(), 2 + 2 * DEFAULT_WINDOW);
        let full = full_history(&req);
        // The window's pairs are byte-identical to the full history's last pairs.
        assert_eq!(&m[2..], &full.messages()[full.messages().len() - 4..]);
        // Older turns are folded: their definitions, not their programs.
        assert!(m[1].content().contains("v1                            ; = integer"));
        assert!(!m[1].content().contains("(def v1 1)"));
        assert!(!m[1].content().contains("Turns left"), "the turn info ends the last message only");
        let s = out.stats();
        assert_eq!((s.turns_compressed, s.tool_calls_total, s.tool_calls_shown), (3, 5, 5));
        assert_eq!(s.counters()[0].name(), "turns_verbatim");
        assert_eq!(s.counters()[0].value(), 2);
    }

    #[test]
    fn turn_one_is_the_coalesced_first_message() {
        let req = request(vec![], 5);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        assert_eq!(out.messages(), full_history(&req).messages());
    }

    #[test]
    fn window_one_final_turn_warning() {
        let req = request(vec![ok_turn(1, "a"), ok_turn(2, "b")], 3);
        let out = strategy(r#"{"window": 1}"#).render(&req).unwrap();
        check_invariants(&req, &out);
        assert_eq!(out.messages().len(), 4);
        assert!(out.messages()[3].content().ends_with(FINAL_TURN_WARNING), "MSG-005");
    }

    #[test]
    fn failed_turn_in_window_stays_verbatim_err_001_003() {
        let req = request(vec![ok_turn(1, "a"), failed_turn(2), failed_turn(3)], 6);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        let m = out.messages();
        // ERR-002: both failed turns keep their full pairs.
        assert_eq!(m[2].content(), req.turns()[1].raw_response());
        assert_eq!(m[3].content(), feedback_message(&req.turns()[1], 6));
        assert!(m[5].content().starts_with("Error: Unbound symbol: boom3"), "ERR-003");
    }

    #[test]
    fn older_failed_turn_is_collapsed() {
        let req = request(vec![failed_turn(1), ok_turn(2, "a"), ok_turn(3, "b"), ok_turn(4, "c")], 8);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        let first = out.messages()[1].content();
        assert!(!first.contains("boom1") && !first.contains("Your previous attempt"));
        assert_eq!(out.stats().error_turns_collapsed, 1);
    }

    /// A successful turn with a long answer: folding it saves many tokens.
    fn wordy_turn(n: u32) -> Turn {
        let t = ok_turn(n, &format!("v{n}"));
        let raw =
            format!("{}{}", "Thinking about the data, step by step, at some length. ".repeat(12), t.raw_response());
        Turn::new(n, raw, t.program().map(String::from))
            .with_result(t.result().unwrap().clone())
            .with_definitions(t.definitions().to_vec())
            .with_tool_calls(t.tool_calls().to_vec())
    }

    /// The slide count ([`CACHE_EPOCH`]) of each turn of a run of
    /// `max_turns`, checking the invariants and cache stability on the way.
    fn slides(s: &RollingWindow, turn: fn(u32) -> Turn, done: u32, max_turns: u32) -> Vec<i64> {
        use ptc_plugin_api::render::{cache_epoch, check_cache_stable};
        let mut previous: Option<Prompt> = None;
        let mut slides = Vec::new();
        for done in 0..done {
            let turns: Vec<Turn> = (1..=done).map(|n| if n % 7 == 0 { failed_turn(n) } else { turn(n) }).collect();
            let req = request(turns, max_turns);
            let out = s.render_prompt(&req).unwrap();
            check_invariants(&req, &out.clone().into_rendered());
            let verbatim = out.stats().counters().iter().find(|c| c.name() == "turns_verbatim").unwrap().value();
            // The window always stays verbatim; right after a slide, only it.
            assert!(verbatim as u32 >= done.min(2), "turn {}: {verbatim}", req.turn());
            if slides.last().is_some_and(|&last| last != cache_epoch(&out)) {
                assert_eq!(verbatim, 2, "turn {}", req.turn());
            }
            if let Some(prev) = &previous {
                check_cache_stable(prev, &out).unwrap_or_else(|e| panic!("turn {}: {e}", req.turn()));
            }
            slides.push(cache_epoch(&out));
            previous = Some(out);
        }
        slides
    }

    fn rewrites(slides: &[i64]) -> usize {
        slides.windows(2).filter(|w| w[0] != w[1]).count()
    }

    #[test]
    fn stepped_windows_slide_rarely_and_only_append_in_between() {
        // Prompts here are far under a provider's cache minimum; with the
        // default minimum a slide would make every later turn pay in full.
        assert_eq!(rewrites(&slides(&strategy(r#"{"window": 2, "step": 4}"#), wordy_turn, 20, 60)), 0);
        let s = strategy(r#"{"window": 2, "step": 4, "cache_min_tokens": 1}"#);
        // Slides at 6, 10, 14, 18 completed turns: four rewrites in 20 turns.
        let long_run = slides(&s, wordy_turn, 20, 60);
        assert_eq!(rewrites(&long_run), 4, "{long_run:?}");
        // Near the end of a run a slide would not pay: in a 20-turn run
        // fewer slides happen, none with 4 turns or fewer left.
        let short_run = slides(&s, wordy_turn, 20, 20);
        assert!(rewrites(&short_run) < 4 && rewrites(&short_run) > 0, "{short_run:?}");
        assert_eq!(short_run[15..].iter().min(), short_run[15..].iter().max(), "{short_run:?}");
        // Folding short turns saves nothing: the prompt stays the full history.
        let tiny = slides(&s, |n| ok_turn(n, &format!("v{n}")), 20, 60);
        assert_eq!(rewrites(&tiny), 0, "{tiny:?}");
    }

    #[test]
    fn parameters_are_validated() {
        let err = RollingWindow::new(Params::from_json("rolling-window", r#"{"window": 0}"#).unwrap()).unwrap_err();
        assert_eq!(err.message(), "rolling-window: parameter `window` must be at least 1, got 0");
        let err = RollingWindow::new(Params::from_json("rolling-window", r#"{"windows": 2}"#).unwrap()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidParams);
        assert!(err.message().contains("unknown parameter `windows`"), "{}", err.message());
        let s = strategy(r#"{"println_limit": 1, "window": 3}"#);
        assert_eq!((s.window, s.opts.println_limit), (3, 1));
    }

    #[test]
    fn huge_values_stay_bounded() {
        let big = Value::vector((0..200_000).map(Value::int).collect());
        let turn = Turn::new(1, "r", Some("p".into()))
            .with_definitions(vec![Definition::new("big", big.clone(), None)])
            .with_result(big);
        let req = request(vec![turn, ok_turn(2, "a"), ok_turn(3, "b")], 8);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        assert!(out.messages()[1].content().len() < 2_000);
    }
}
