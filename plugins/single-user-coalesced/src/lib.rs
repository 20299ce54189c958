//! `single-user-coalesced`, the default compression strategy.
//!
//! Renders the whole history as `[SYSTEM, USER]`: the mission, the tools,
//! the input data, then what the model learned from its successful turns
//! (definitions with types and samples, tool calls, printed output) and the
//! latest error, instead of its old programs. Two layouts:
//!
//! - `layout = "spec"` (default): exactly `docs/spec/single-user-coalesced.md`;
//!   the USER message is rebuilt every turn, so only the run's stable head
//!   (mission, `tool/`, `data/`) stays cached.
//! - `layout = "checkpointed"`: cache-stable, the SDK's checkpointed layout
//!   ([`checkpointed_prompt_memoized`]) filled with this strategy's pieces. Until the
//!   prompt reaches `cache_min_tokens` (default 1,024: nothing shorter is
//!   cached) it is the full transcript; then each turn is appended once,
//!   as the smaller of the turn verbatim and its coalesced block
//!   (definitions with types and samples, tool calls, output); a failed
//!   latest turn's program and error follow, shown on the next turn only;
//!   nothing before them changes until
//!   the blocks since the last checkpoint pass `fold_tokens` (estimated,
//!   default 1,500) over at least `fold_min_turns` turns (default 4) and
//!   folding them into a frozen summary segment in the spec's form pays
//!   for itself over the turns left (a new cache epoch); segments merge
//!   into one past `fold_merge_tokens` (default 3,000) when that pays.
//!
//! ```
//! use ptc_plugin_api::{Params, RenderRequest, Role, Strategy};
//! use ptc_strategy_single_user_coalesced::SingleUserCoalesced;
//!
//! let s = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", "{}").unwrap()).unwrap();
//! let out = s.render(&RenderRequest::new("Count the orders", "system", 5)).unwrap();
//! assert_eq!(out.messages()[1].role(), Role::User);
//! assert!(out.messages()[1].content().starts_with("Count the orders"));
//! ```

use ptc_plugin_api::render::{
    checkpointed_prompt_memoized, compact_tool_calls_section, definition_line, error_line, fact_memory_prompt_memoized,
    finish_without_checkpoints, format_value, head_sections, memory_of, output_lines, program_or_unknown,
    recent_prints, single_user_message, summary_sections, Checkpointing, FactEntryOptions, FactMemory, FoldPolicy,
    RenderMemo, SummaryOptions, ValueLimits,
};
use ptc_plugin_api::{Block, Params, Prompt, RenderRequest, Rendered, Role, Stats, Strategy, StrategyError, Turn};
use std::ops::Range;

/// Fold policy of the checkpointed layout when the parameters name none.
pub const DEFAULT_FOLD: FoldPolicy = FoldPolicy { threshold_tokens: 1500, min_turns: 4, merge_tokens: 3000 };

/// How the USER message is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The spec's layout, rebuilt every turn.
    Spec,
    /// Appended turn blocks, folded into frozen segments at checkpoints
    /// (the SDK's [`checkpointed_prompt_memoized`]).
    /// With `memory = "facts"` (the default) the latest turn is shown in
    /// full and older turns as compact entries that keep their facts
    /// ([`fact_memory_prompt_memoized`]); with `memory = "blocks"` (`None`) every
    /// turn is its whole coalesced block, the full transcript until cached.
    Checkpointed(Checkpointing, Option<FactMemory>),
}

/// The strategy, with its limits and layout.
#[derive(Debug, Clone)]
pub struct SingleUserCoalesced {
    opts: SummaryOptions,
    layout: Layout,
    /// What the checkpointed layout keeps between renders.
    memo: RenderMemo,
}

impl SingleUserCoalesced {
    /// Reads the four single-user-coalesced limits from `params` (other
    /// strategies that fold history in this form share them).
    pub fn read_options(params: &mut Params) -> Result<SummaryOptions, StrategyError> {
        SummaryOptions::from_params(params)
    }
}

impl Strategy for SingleUserCoalesced {
    const NAME: &'static str = "single-user-coalesced";
    const DESCRIPTION: &'static str =
        "One USER message: mission, tools, data, definitions with samples, tool calls, output, latest error";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let opts = Self::read_options(&mut params)?;
        let layout = match params.choice("layout", &["spec", "checkpointed"])? {
            "checkpointed" => {
                let how = Checkpointing::from_params(&mut params, DEFAULT_FOLD)?;
                let entries = FactEntryOptions {
                    tool_call_limit: opts.tool_call_limit,
                    listed_tool_calls: opts.tool_call_limit,
                    sample: opts.sample,
                    ..FactEntryOptions::default()
                };
                let memory = FactMemory::from_params(&mut params, entries)?;
                params.finish()?;
                Layout::Checkpointed(how, memory)
            }
            _ => {
                finish_without_checkpoints(params)?;
                Layout::Spec
            }
        };
        Ok(SingleUserCoalesced { opts, layout, memo: RenderMemo::default() })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        self.render_prompt(req).map(Prompt::into_rendered)
    }

    fn render_prompt(&self, req: &RenderRequest) -> Result<Prompt, StrategyError> {
        Ok(match self.layout {
            Layout::Spec => self.spec(req),
            Layout::Checkpointed(how, None) => checkpointed_prompt_memoized(
                req,
                Self::NAME,
                how,
                &self.memo,
                |i, stats| turn_block(req.turns(), i, &self.opts, stats),
                |range, stats| frozen_block(req.turns(), range, &self.opts, stats),
            ),
            Layout::Checkpointed(how, Some(memory)) => {
                fact_memory_prompt_memoized(req, Self::NAME, how, memory, &self.memo, |i, stats| {
                    turn_block(req.turns(), i, &self.opts, stats)
                })
            }
        })
    }
}

impl SingleUserCoalesced {
    /// The spec's message, its stable head (mission, `tool/`, `data/`) a
    /// block of its own with a breakpoint.
    fn spec(&self, req: &RenderRequest) -> Prompt {
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &self.opts, &mut stats);
        let head = head_sections(req, &self.opts).iter().filter(|s| !s.is_empty()).fold(String::new(), |mut h, s| {
            h.push_str(s);
            h.push_str("\n\n");
            h
        });
        let blocks = match user.strip_prefix(head.as_str()) {
            Some(rest) => vec![Block::new(head.clone()).breakpoint(), Block::new(rest)],
            None => vec![Block::new(user.clone())],
        };
        Prompt::builder().system(req.system_prompt()).message(Role::User, blocks).build(stats)
    }
}

/// The frozen summary of `turns[range]` in the spec's form (`user/`, tool
/// calls, output), samples shown unless a turn up to its end printed.
fn frozen_block(turns: &[Turn], range: Range<usize>, opts: &SummaryOptions, stats: &mut Stats) -> String {
    let (first, last) = (range.start + 1, range.end);
    let mut text = format!(";; === turns {first}-{last} (summary; later turns below add to it) ===");
    for section in summary_sections(&turns[..range.end], &turns[range], opts, stats) {
        text.push('\n');
        text.push_str(&section);
    }
    text + "\n\n"
}

/// What turn `i` (0-based) added, as its own block: its definitions, tool
/// calls and output (or its result when it printed nothing), or, when it
/// failed, its program and error. Depends on turns `0..=i` only, so the
/// block never changes once written.
fn turn_block(turns: &[Turn], i: usize, opts: &SummaryOptions, stats: &mut Stats) -> String {
    let turn = &turns[i];
    let n = turn.number();
    let Some(error) = turn.error() else {
        let mut out = format!(";; --- turn {n} ---");
        let show_samples = !turns[..=i].iter().any(|t| t.success() && t.prints().len() > 0);
        let defs = memory_of(std::slice::from_ref(turn));
        let (functions, values): (Vec<_>, Vec<_>) = defs.iter().partition(|d| d.is_function());
        for def in functions.into_iter().chain(values) {
            out.push('\n');
            out.push_str(&definition_line(def, show_samples, opts.sample));
        }
        let calls: Vec<_> = turn.tool_calls().iter().collect();
        let shown = &calls[calls.len().saturating_sub(opts.tool_call_limit)..];
        stats.tool_calls_total += calls.len() as u32;
        stats.tool_calls_shown += shown.len() as u32;
        stats.tool_calls_dropped += (calls.len() - shown.len()) as u32;
        if let Some(section) = compact_tool_calls_section(shown) {
            out.push('\n');
            out.push_str(&section);
        }
        match output_lines(&recent_prints(std::slice::from_ref(turn), opts.println_limit, stats)) {
            Some(section) => {
                out.push('\n');
                out.push_str(&section);
            }
            None => {
                let result =
                    turn.result().map(|v| format_value(v, ValueLimits::SAMPLE)).unwrap_or_else(|| "nil".into());
                out.push_str(&format!("\n;; => {result}"));
            }
        }
        return out;
    };
    // What it printed before the error: its most recent `println_limit`
    // calls (the println stats count successful turns only).
    let prints: Vec<&str> = turn.prints().collect();
    let output = output_lines(&prints[prints.len().saturating_sub(opts.println_limit)..]).map(|s| s + "\n");
    format!(
        ";; --- turn {n}: failed ---\n```clojure\n{}\n```\n{}{}",
        program_or_unknown(turn),
        output.unwrap_or_default(),
        error_line(error.message())
    )
}

ptc_plugin_api::export_strategy!(SingleUserCoalesced);

#[cfg(test)]
mod tests;
