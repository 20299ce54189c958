//! `clear-tool-uses`: Anthropic's context editing, strategy
//! `clear_tool_uses_20250919` (Claude API docs, "Context editing", 2025).
//!
//! The API edits every request on its own (the client keeps the full
//! history): when the request's input tokens exceed `trigger`, it clears
//! the oldest tool results, in order, keeping the `keep` most recent tool
//! uses, and replaces each with a placeholder; when that would clear fewer
//! than `clear_at_least` tokens, it clears nothing. `clear_tool_inputs`
//! clears the tool calls too. Its defaults, kept here: `trigger` 100,000
//! input tokens (`trigger_tokens`, as `trigger` is the host's key),
//! `keep` 3 tool uses, no `clear_at_least`, `clear_tool_inputs` false.
//!
//! In ptc a turn is one tool use: its answer (the program) the call, its
//! feedback's outcome the result. Tokens are ptc's conservative estimate
//! ([`estimate_tokens`]) of the full transcript, not Claude's count.
//! Not modelled: `exclude_tools` (a ptc turn's outcome mixes every call it
//! made; the default excludes none) and the `tool_uses` trigger type.

use super::{masked_transcript, Shown};
use ptc_plugin_api::render::{estimate_text_tokens, estimate_tokens, full_history_prompt, turn_outcome};
use ptc_plugin_api::{Params, Prompt, RenderRequest, StrategyError};

use super::CLEAR_TOOL_USES;

/// Anthropic's default trigger: input tokens.
pub const DEFAULT_TRIGGER_TOKENS: usize = 100_000;
/// Anthropic's default number of recent tool uses kept.
pub const DEFAULT_KEEP: usize = 3;
/// What a cleared tool result shows.
pub const DEFAULT_PLACEHOLDER: &str = "[Tool result cleared to save context]";
/// What a cleared tool call shows (`clear_tool_inputs`).
pub const CLEARED_INPUT: &str = "[Tool call cleared to save context]";

/// The parameters of a `clear-tool-uses` instance.
#[derive(Clone, Debug, PartialEq)]
pub struct ClearToolUses {
    /// Clear when the full transcript is over this many input tokens.
    pub trigger_tokens: usize,
    /// Recent tool uses never cleared.
    pub keep: usize,
    /// Clear nothing unless this many tokens would be cleared.
    pub clear_at_least: Option<usize>,
    /// Clear the tool calls (programs) too.
    pub clear_tool_inputs: bool,
    /// The text a cleared result shows.
    pub placeholder: String,
}

impl Default for ClearToolUses {
    fn default() -> Self {
        ClearToolUses {
            trigger_tokens: DEFAULT_TRIGGER_TOKENS,
            keep: DEFAULT_KEEP,
            clear_at_least: None,
            clear_tool_inputs: false,
            placeholder: DEFAULT_PLACEHOLDER.to_string(),
        }
    }
}

impl ClearToolUses {
    /// Reads `trigger_tokens`, `keep`, `clear_at_least`, `clear_tool_inputs`
    /// and `placeholder`.
    pub fn from_params(p: &mut Params) -> Result<ClearToolUses, StrategyError> {
        let d = ClearToolUses::default();
        Ok(ClearToolUses {
            trigger_tokens: p.positive("trigger_tokens", d.trigger_tokens)?,
            keep: p.positive("keep", d.keep)?,
            clear_at_least: p.optional_positive("clear_at_least")?,
            clear_tool_inputs: p.bool("clear_tool_inputs", d.clear_tool_inputs)?,
            placeholder: p.string("placeholder", &d.placeholder)?,
        })
    }

    /// The prompt the API would send on for `request`.
    pub fn render(&self, request: &RenderRequest) -> Prompt {
        let full = full_history_prompt(request);
        let turns = request.turns();
        let cleared = turns.len().saturating_sub(self.keep);
        if estimate_tokens(full.messages()) <= self.trigger_tokens || cleared == 0 {
            return full;
        }
        let saved: usize = turns[..cleared]
            .iter()
            .map(|t| {
                let input = if self.clear_tool_inputs { estimate_text_tokens(t.raw_response()) } else { 0 };
                (estimate_text_tokens(&turn_outcome(t)) + input).saturating_sub(estimate_text_tokens(&self.placeholder))
            })
            .sum();
        if saved < self.clear_at_least.unwrap_or(0) {
            return full;
        }
        let last_cleared = turns[cleared - 1].number();
        masked_transcript(request, CLEAR_TOOL_USES, |t| {
            if t.number() > last_cleared {
                Shown::Verbatim
            } else {
                Shown::Masked {
                    outcome: self.placeholder.clone(),
                    answer: self.clear_tool_inputs.then(|| CLEARED_INPUT.to_string()),
                }
            }
        })
    }
}
