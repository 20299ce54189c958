//! `per-turn-summary`: the transcript, with each older successful turn's
//! program replaced by a summary of what that turn did.
//!
//! The messages keep the full transcript's USER/ASSISTANT alternation. Each
//! older successful ASSISTANT message becomes the one-turn summary format
//! for that turn alone (`; Tool calls:`, `; Function:`,
//! `; Defined:`, `; Output:`; FMT-001..011); its USER feedback is cut to the
//! turn info when the summary carries the turn's output, and kept when the
//! turn printed nothing (the `user=> result` line is not in the summary).
//! Failed turns and the latest turn stay verbatim (CMP-002, CMP-003,
//! ERR-001..003). The contract is `docs/spec/strategies.md`.
//!
//! Parameters are single-user-coalesced's: `println_limit` and
//! `tool_call_limit` bound the println calls and tool calls shown across
//! all summaries (the most recent ones; older ones are dropped, TRN-010,
//! TC-007), `sample_limit` and `sample_printable_limit` bound samples.
//!
//! With `layout = "append"` the limits apply to each summary on its own (a
//! turn's most recent prints and calls), so a summary, once written, never
//! changes: each turn only replaces the previous latest turn (verbatim) by
//! its summary and appends its own pair, and a provider's prompt cache keeps
//! everything before (a breakpoint ends the summaries, another the prompt).
//! A turn is summarized only when that pays for itself: the reads the
//! shorter summary saves over the turns the run has left must be worth more
//! than writing it (a turn whose summary is longer than the turn itself,
//! or a turn near the end of the run, stays verbatim). A third breakpoint
//! ends the prompt, so a turn kept verbatim stays cached. Summarizing the
//! turn the previous prompt ended with rewrites it: the summary count is
//! the [`CACHE_EPOCH`].
//!
//! ```
//! use ptc_plugin_api::{Params, RenderRequest, Strategy, Turn};
//! use ptc_strategy_per_turn_summary::PerTurnSummary;
//!
//! let s = PerTurnSummary::new(Params::from_json("per-turn-summary", "{}").unwrap()).unwrap();
//! let mut req = RenderRequest::new("Count the orders", "system", 5);
//! req.push_turn(Turn::new(1, "```clojure\n(println 1)\n```", None).with_prints(vec!["1".into()]));
//! req.push_turn(Turn::new(2, "latest answer", None));
//! let out = s.render(&req).unwrap();
//! assert_eq!(out.messages()[2].content(), "; Output:\n1");
//! assert_eq!(out.messages()[3].content(), "Turns left: 4");
//! assert_eq!(out.messages()[4].content(), "latest answer");
//! ```

mod summary;

use ptc_plugin_api::render::{
    estimate_text_tokens, estimate_tokens, feedback_message, first_user_blocks, first_user_message,
    push_verbatim_turns, transcript_tokens, turn_info, Rewrite, SummaryOptions, CACHE_EPOCH, DEFAULT_CACHE_MIN_TOKENS,
};
use ptc_plugin_api::{
    Block, Message, Params, Prompt, RenderRequest, Rendered, Stats, Strategy, StrategyError, ToolCall, Turn,
};
pub use summary::{defined_summary_line, function_summary_line, turn_summary, NO_TOOL_CALLS};

/// The strategy, with its limits.
#[derive(Debug, Clone)]
pub struct PerTurnSummary {
    opts: SummaryOptions,
    /// Limits per summary (`layout = "append"`) instead of across them.
    append: bool,
    /// Under this many estimated tokens no provider caches the prompt.
    cache_min_tokens: usize,
}

/// Whether turn `index` of `turns` is shown as a summary: successful, and
/// not the latest.
fn summarized(turns: &[Turn], index: usize) -> bool {
    index + 1 < turns.len() && turns[index].success()
}

impl Strategy for PerTurnSummary {
    const NAME: &'static str = "per-turn-summary";
    const DESCRIPTION: &'static str =
        "The transcript with each older successful turn replaced by a summary of that turn; failures and the latest turn verbatim";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let opts = SummaryOptions::from_params(&mut params)?;
        let append = params.choice("layout", &["spec", "append"])? == "append";
        let cache_min_tokens = if append {
            params.positive("cache_min_tokens", DEFAULT_CACHE_MIN_TOKENS)?
        } else {
            DEFAULT_CACHE_MIN_TOKENS
        };
        params.finish()?;
        Ok(PerTurnSummary { opts, append, cache_min_tokens })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        self.render_prompt(req).map(Prompt::into_rendered)
    }

    fn render_prompt(&self, req: &RenderRequest) -> Result<Prompt, StrategyError> {
        let turns = req.turns();
        let mut stats = Stats::new(Self::NAME);
        // How many of each summarized turn's calls and prints to skip: the
        // limits keep the most recent ones across all summaries, or each
        // summary's own most recent ones.
        let mut skip = vec![(0usize, 0usize); turns.len()];
        let (mut calls_left, mut prints_left) = (self.opts.tool_call_limit, self.opts.println_limit);
        for i in (0..turns.len()).rev().filter(|&i| summarized(turns, i)) {
            if self.append {
                (calls_left, prints_left) = (self.opts.tool_call_limit, self.opts.println_limit);
            }
            let (calls, prints) = (turns[i].tool_calls().len(), turns[i].prints().len());
            let (c, p) = (calls.min(calls_left), prints.min(prints_left));
            (calls_left, prints_left) = (calls_left - c, prints_left - p);
            skip[i] = (calls - c, prints - p);
        }

        let mut messages = vec![Message::system(req.system_prompt()), Message::user(first_user_message(req))];
        // Messages before this index never change again (in the append layout).
        let mut stable = messages.len();
        for (i, turn) in turns.iter().enumerate() {
            if turn.success() {
                stats.tool_calls_total += turn.tool_calls().len() as u32;
                stats.printlns_total += turn.prints().len() as u32;
                stats.tool_calls_dropped += skip[i].0 as u32;
                stats.printlns_dropped += skip[i].1 as u32;
            }
            if !summarized(turns, i) {
                push_verbatim_turns(&mut messages, std::slice::from_ref(turn), req.max_turns());
                continue;
            }
            let calls: Vec<&ToolCall> = turn.tool_calls()[skip[i].0..].iter().collect();
            let prints: Vec<&str> = turn.prints().skip(skip[i].1).collect();
            let summary = turn_summary(turn, &calls, &prints, self.opts.sample);
            let feedback = if turn.prints().len() > 0 {
                turn_info(turn.number() + 1, req.max_turns())
            } else {
                feedback_message(turn, req.max_turns())
            };
            // An appended summary replaces a turn the previous prompt already
            // sent (and the provider cached): only worth it when the reads it
            // saves over the turns left repay writing it. Otherwise the turn
            // stays as it was (and its drops are undone).
            if self.append
                && !self.summary_pays(&summary, &feedback, turn, i, estimate_tokens(&messages), req.max_turns())
            {
                stats.tool_calls_dropped -= skip[i].0 as u32;
                stats.printlns_dropped -= skip[i].1 as u32;
                push_verbatim_turns(&mut messages, std::slice::from_ref(turn), req.max_turns());
                stable = messages.len();
                continue;
            }
            messages.push(Message::assistant(summary));
            messages.push(Message::user(feedback));
            stats.turns_compressed += 1;
            stable = messages.len();
        }
        stats.tool_calls_shown = stats.tool_calls_total - stats.tool_calls_dropped;
        stats.printlns_shown = stats.printlns_total - stats.printlns_dropped;
        stats.push_counter("turns_verbatim", (turns.len() as u32 - stats.turns_compressed) as i64);
        if self.append {
            // Each summary rewrote a turn the previous prompt ended with.
            stats.push_counter(CACHE_EPOCH, i64::from(stats.turns_compressed));
        }
        // The stable part ends with the last summary: the latest turn is
        // verbatim now and summarized (its feedback cut) next turn.
        let mut prompt = Prompt::builder();
        for (i, m) in messages.iter().enumerate() {
            if i == 1 {
                // The turn-1 message, split as the full transcript splits it
                // (turn 1 is always served by the full history).
                let mut blocks = first_user_blocks(req);
                blocks[1] = blocks[1].clone().with_breakpoint(self.append && stable == 2);
                prompt.push(m.role(), blocks);
                continue;
            }
            prompt.push(m.role(), [Block::new(m.content()).with_breakpoint(self.append && i + 1 == stable)]);
        }
        // The latest turn is the end of the prompt: cached too, since it
        // stays as it is when summarizing it would not pay.
        if self.append && messages.len() > stable {
            prompt = prompt.breakpoint_here();
        }
        Ok(prompt.build(stats))
    }
}

impl PerTurnSummary {
    /// Whether replacing turn `index` (0-based), after `kept` estimated
    /// tokens of prompt, by its summary and cut feedback pays for itself
    /// over the turns a run of `max_turns` has left after the next one
    /// ([`Rewrite::pays`], by estimate).
    fn summary_pays(
        &self,
        summary: &str,
        feedback: &str,
        turn: &Turn,
        index: usize,
        kept: usize,
        max_turns: u32,
    ) -> bool {
        let before = transcript_tokens(turn, max_turns);
        let after = estimate_text_tokens(summary) + estimate_text_tokens(feedback);
        let turns_left = (max_turns as usize).saturating_sub(index + 2);
        Rewrite { kept, before, after }.pays(turns_left, self.cache_min_tokens)
    }
}

ptc_plugin_api::export_strategy!(PerTurnSummary);

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::render::{full_history, FINAL_TURN_WARNING};
    use ptc_plugin_api::{Definition, TurnError, Value};

    #[test]
    fn the_append_layout_never_rewrites_a_summary() {
        use ptc_plugin_api::render::check_cache_stable;
        // A cache minimum of 1 token: the tiny prompts here count as cached.
        let s = strategy(r#"{"layout": "append", "println_limit": 2, "tool_call_limit": 2, "cache_min_tokens": 1}"#);
        let mut previous: Option<Prompt> = None;
        for done in 0..16u32 {
            let turns: Vec<Turn> = (1..=done)
                .map(|n| {
                    if n % 5 == 0 {
                        Turn::new(n, "(boom)", Some("(boom)".into())).with_error(TurnError::new("x", "boom"))
                    } else if n % 2 == 0 {
                        // Long enough for its summary to pay for itself.
                        printing(n, 40)
                    } else {
                        explore(n)
                    }
                })
                .collect();
            let req = RenderRequest::new("m", "s", 20).with_turns(turns);
            let out = s.render_prompt(&req).unwrap();
            if let Err(e) = ptc_conformance::checks::every_invariant(&req, out.messages()) {
                panic!("turn {}: {e}", req.turn());
            }
            if let Some(prev) = &previous {
                check_cache_stable(prev, &out).unwrap_or_else(|e| panic!("turn {}: {e}", req.turn()));
                // Only the turn the previous prompt ended with may change (to
                // its summary): everything before it stays, byte for byte.
                let n = prev.messages().len() - 2;
                assert_eq!(&out.messages()[..n], &prev.messages()[..n], "turn {}", req.turn());
            }
            // The turn-1 head (shared with the full history's turn 1), the
            // end of the summaries and, once a turn is done, the end.
            assert_eq!(out.breakpoint_count(), if done == 0 { 2 } else { 3 });
            previous = Some(out);
        }
        // Each summary keeps its own two most recent prints.
        let last = previous.unwrap();
        assert!(last.messages().iter().any(|m| m.content() == "; Output:\nout 2.38\nout 2.39"));
        assert!(last.stats().turns_compressed > 0);
    }

    fn strategy(json: &str) -> PerTurnSummary {
        PerTurnSummary::new(Params::from_json("per-turn-summary", json).unwrap()).unwrap()
    }

    fn call(q: i64) -> ToolCall {
        ToolCall::new("search", Value::map(vec![(Value::keyword("q"), Value::int(q))]), Ok(Value::nil()), 1)
    }

    fn explore(n: u32) -> Turn {
        let name = format!("v{n}");
        Turn::new(n, format!("```clojure\n(def {name} (tool/search {{:q {n}}}))\n```"), Some("p".into()))
            .with_result(Value::var(&name))
            .with_tool_calls(vec![call(n as i64)])
            .with_definitions(vec![Definition::new(&name, Value::vector(vec![Value::int(n as i64)]), None)])
    }

    fn printing(n: u32, lines: usize) -> Turn {
        Turn::new(n, format!("```clojure\n(println {n})\n```"), Some("p".into()))
            .with_prints((0..lines).map(|i| format!("out {n}.{i}")).collect())
    }

    fn failed(n: u32) -> Turn {
        Turn::new(n, "```clojure\n(bad)\n```", Some("(bad)".into()))
            .with_error(TurnError::new("unbound_symbol", format!("Unbound symbol: bad{n}")))
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
    fn older_turns_summarized_latest_verbatim_cmp_001() {
        let req = request(vec![explore(1), printing(2, 2), explore(3)], 6);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        let m = out.messages();
        assert_eq!(m.len(), 2 + 2 * 3, "same shape as the transcript");
        assert_eq!(m[2].content(), "; Tool calls:\n;   search({:q 1})\n; Defined: v1 = list[1], sample: [1]");
        // Printed nothing: the feedback keeps `user=> ...`, which the summary lacks.
        assert_eq!(m[3].content(), "user=> #'v1\n\nTurns left: 5");
        assert_eq!(m[4].content(), "; Output:\nout 2.0\nout 2.1");
        assert_eq!(m[5].content(), "Turns left: 4", "output already in the summary");
        // The latest turn is exactly as full-history shows it.
        let full = full_history(&req);
        assert_eq!(&m[6..], &full.messages()[6..]);
        assert_eq!(m[1], full.messages()[1], "first USER message unchanged");
        assert_eq!(out.stats().turns_compressed, 2);
    }

    #[test]
    fn failed_turns_keep_full_pairs_cmp_002_003_err_001_002() {
        let req = request(vec![failed(1), explore(2), failed(3), explore(4)], 8);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        let m = out.messages();
        assert_eq!(m[2].content(), req.turns()[0].raw_response(), "CMP-002");
        assert_eq!(m[3].content(), "Error: Unbound symbol: bad1\n\nTurns left: 7", "ERR-003");
        assert_eq!(m[6].content(), req.turns()[2].raw_response(), "ERR-002");
        assert!(m[7].content().starts_with("Error: Unbound symbol: bad3"));
        assert_eq!(out.stats().error_turns_collapsed, 0);
    }

    #[test]
    fn latest_failed_turn_verbatim_err_003() {
        let req = request(vec![explore(1), failed(2)], 3);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        let last = out.messages().last().unwrap().content();
        assert_eq!(last, format!("Error: Unbound symbol: bad2\n\n{FINAL_TURN_WARNING}"));
    }

    #[test]
    fn limits_keep_the_most_recent_calls_and_prints() {
        let req = request(vec![printing(1, 3), printing(2, 3), explore(3), explore(4), explore(5)], 9);
        let out = strategy(r#"{"println_limit": 4, "tool_call_limit": 1}"#).render(&req).unwrap();
        check_invariants(&req, &out);
        let m = out.messages();
        assert_eq!(m[2].content(), "; Output:\nout 1.2", "oldest prints dropped first (TRN-010)");
        assert_eq!(m[4].content(), "; Output:\nout 2.0\nout 2.1\nout 2.2");
        assert_eq!(m[6].content(), "; Defined: v3 = list[1], sample: [3]", "older call dropped (TC-007)");
        assert!(m[8].content().starts_with("; Tool calls:\n;   search({:q 4})"));
        let s = out.stats();
        assert_eq!((s.printlns_total, s.printlns_shown, s.printlns_dropped), (6, 4, 2));
        assert_eq!((s.tool_calls_total, s.tool_calls_shown, s.tool_calls_dropped), (3, 2, 1));
    }

    #[test]
    fn turn_one_equals_full_history() {
        let req = request(vec![], 5);
        assert_eq!(strategy("{}").render(&req).unwrap().messages(), full_history(&req).messages());
    }

    #[test]
    fn unknown_parameter_is_named() {
        let err = PerTurnSummary::new(Params::from_json("per-turn-summary", r#"{"window": 2}"#).unwrap()).unwrap_err();
        assert!(err.message().contains("unknown parameter `window`"), "{}", err.message());
    }

    #[test]
    fn huge_values_stay_bounded() {
        let big = Value::vector((0..200_000).map(|i| Value::string(format!("item {i}"))).collect());
        let turn = Turn::new(1, "r", None).with_definitions(vec![Definition::new("big", big, None)]);
        let req = request(vec![turn, explore(2)], 5);
        let out = strategy("{}").render(&req).unwrap();
        check_invariants(&req, &out);
        assert!(out.messages()[2].content().len() < 1_000);
    }
}
