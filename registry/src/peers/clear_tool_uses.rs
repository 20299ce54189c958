//! `clear-tool-uses`: Anthropic's context editing, strategy
//! `clear_tool_uses_20250919` (Claude API docs, "Context editing", 2025).
//!
//! When the context exceeds `trigger` input tokens, the API clears the
//! oldest tool results, in order, keeping the `keep` most recent tool uses,
//! and replaces each with a placeholder; when that would clear fewer than
//! `clear_at_least` tokens, it clears nothing. `clear_tool_inputs` clears
//! the tool calls too. Its defaults, kept here: `trigger` 100,000 input
//! tokens (`trigger_tokens`, as `trigger` is the host's key), `keep` 3
//! tool uses, no `clear_at_least`, `clear_tool_inputs` false.
//!
//! A clear holds until the next one: the docs' account of caching ("you'll
//! incur cache write costs each time content is cleared, but subsequent
//! requests can reuse the newly cached prefix", which is what
//! `clear_at_least` is for). So the render replays the run: a clear
//! activates at a turn whose prompt, as last cleared, is over the trigger,
//! and the cleared results stay cleared (a pure function of the request
//! all the same). Were every request cleared afresh instead (all but the
//! last `keep` results on every turn over the trigger), the cleared prefix
//! would change on every turn and every prompt would be written to the
//! cache anew.
//!
//! In ptc a turn is one tool use: its answer (the program) the call, its
//! feedback's outcome the result. Tokens are ptc's conservative estimate
//! ([`estimate_tokens`]) of the full transcript, not Claude's count.
//! Not modelled: `exclude_tools` (a ptc turn's outcome mixes every call it
//! made; the default excludes none) and the `tool_uses` trigger type.

use super::{masked_transcript, Shown};
use ptc_plugin_api::render::{
    estimate_text_tokens, estimate_tokens, feedback_message, full_history_prompt, turn_outcome,
    ESTIMATE_MESSAGE_OVERHEAD,
};
use ptc_plugin_api::{Params, Prompt, RenderRequest, StrategyError, Turn};

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
        let turns = request.turns();
        let cleared = self.cleared(request);
        if cleared == 0 {
            return full_history_prompt(request);
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

    /// Estimated tokens clearing `turn` saves.
    fn saving(&self, turn: &Turn) -> usize {
        let input = if self.clear_tool_inputs { estimate_text_tokens(turn.raw_response()) } else { 0 };
        (estimate_text_tokens(&turn_outcome(turn)) + input).saturating_sub(estimate_text_tokens(&self.placeholder))
    }

    /// How many of the oldest turns' results are cleared in `request`'s
    /// prompt: the run replayed turn by turn, each prompt's size estimated
    /// as last cleared.
    fn cleared(&self, request: &RenderRequest) -> usize {
        let turns = request.turns();
        let mut head = request.clone();
        head.truncate_turns(0);
        let mut size = estimate_tokens(full_history_prompt(&head).messages());
        let (mut cleared, mut saved) = (0, 0);
        for (shown, turn) in turns.iter().enumerate().map(|(i, t)| (i + 1, t)) {
            size += estimate_text_tokens(turn.raw_response())
                + estimate_text_tokens(&feedback_message(turn, request.max_turns()))
                + 2 * ESTIMATE_MESSAGE_OVERHEAD;
            // The prompt of turn `shown + 1` shows `shown` turns.
            let clearable = shown.saturating_sub(self.keep);
            if size - saved <= self.trigger_tokens || clearable <= cleared {
                continue;
            }
            let more: usize = turns[cleared..clearable].iter().map(|t| self.saving(t)).sum();
            if more >= self.clear_at_least.unwrap_or(0) {
                cleared = clearable;
                saved += more;
            }
        }
        cleared
    }
}
