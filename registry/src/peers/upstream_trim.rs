//! `upstream-trim`: the original runtime's context compaction (ptc_runner
//! v0.13, `SubAgent.run(..., compaction: true)`, the `:trim` strategy;
//! docs/guides/subagent-compaction.md there).
//!
//! Its message list is the first USER message, then an ASSISTANT answer
//! and a USER feedback per turn. When the turn number is over
//! `trigger: [turns: 8]` (or, when set, the estimated tokens of the list
//! reach `trigger: [tokens: N]`, estimated as characters / 4 per message),
//! and the list is longer than `keep_recent_turns × 2 + 1` messages, it
//! keeps the first USER message and the last `keep_recent_turns × 2`
//! messages; a kept slice that would begin with an ASSISTANT message loses
//! it, so the slice begins with a USER message. With the defaults
//! (`keep_recent_turns` 3, `keep_initial_user` true) turn N's prompt is the
//! first USER message, turn N-3's feedback, and turns N-2 and N-1 whole.
//! Here `trigger_turns` and `trigger_tokens` (`trigger` is the host's key).

use super::UPSTREAM_TRIM;
use ptc_plugin_api::render::{feedback_message, first_user_blocks, full_history_prompt};
use ptc_plugin_api::{Block, Params, Prompt, RenderRequest, Role, Stats, StrategyError};

/// Upstream's default: trim once the turn number is over 8.
pub const DEFAULT_TRIGGER_TURNS: usize = 8;
/// Upstream's default: the last 3 turns' messages (`3 × 2`) stay.
pub const DEFAULT_KEEP_RECENT_TURNS: usize = 3;

/// The parameters of an `upstream-trim` instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpstreamTrim {
    /// Trim when the turn number is over this.
    pub trigger_turns: Option<usize>,
    /// Trim when the estimated tokens of the messages reach this.
    pub trigger_tokens: Option<usize>,
    /// The last `keep_recent_turns × 2` messages stay.
    pub keep_recent_turns: usize,
    /// Keep the first USER message at the head.
    pub keep_initial_user: bool,
}

impl Default for UpstreamTrim {
    fn default() -> Self {
        UpstreamTrim {
            trigger_turns: Some(DEFAULT_TRIGGER_TURNS),
            trigger_tokens: None,
            keep_recent_turns: DEFAULT_KEEP_RECENT_TURNS,
            keep_initial_user: true,
        }
    }
}

/// Upstream's token estimate of one message: characters / 4, at least 1
/// when not empty.
fn upstream_tokens(text: &str) -> usize {
    match text.chars().count() {
        0 => 0,
        n => (n / 4).max(1),
    }
}

impl UpstreamTrim {
    /// Reads `trigger_turns`, `trigger_tokens`, `keep_recent_turns` and
    /// `keep_initial_user` (the trigger defaults to 8 turns only when
    /// neither trigger is set, as upstream's).
    pub fn from_params(p: &mut Params) -> Result<UpstreamTrim, StrategyError> {
        let turns = p.optional_positive("trigger_turns")?;
        let tokens = p.optional_positive("trigger_tokens")?;
        let d = UpstreamTrim::default();
        Ok(UpstreamTrim {
            trigger_turns: if turns.is_none() && tokens.is_none() { d.trigger_turns } else { turns },
            trigger_tokens: tokens,
            keep_recent_turns: p.positive("keep_recent_turns", d.keep_recent_turns)?,
            keep_initial_user: p.bool("keep_initial_user", d.keep_initial_user)?,
        })
    }

    /// The prompt of `request`.
    pub fn render(&self, request: &RenderRequest) -> Prompt {
        let full = full_history_prompt(request);
        // Upstream's list: no system message (sent apart).
        let list = &full.messages()[1..];
        let tokens: usize = list.iter().map(|m| upstream_tokens(m.content())).sum();
        let pressure = self.trigger_turns.is_some_and(|n| request.turn() as usize > n)
            || self.trigger_tokens.is_some_and(|n| tokens >= n);
        let keep = self.keep_recent_turns * 2;
        if !pressure || list.len() <= keep + usize::from(self.keep_initial_user) {
            return full;
        }
        // Messages after the first: answer, feedback per turn.
        let skip = usize::from(self.keep_initial_user);
        let mut from = list.len() - keep.min(list.len() - skip);
        if list[from].role() == Role::Assistant {
            from += 1;
        }
        let mut prompt = Prompt::builder().system(request.system_prompt());
        if self.keep_initial_user {
            prompt.push(Role::User, first_user_blocks(request));
        }
        // list[0] is the first USER message; list[i] for i >= 1 is turn
        // (i + 1) / 2's answer (odd i) or its feedback (even i).
        let turns = request.turns();
        for i in from..list.len() {
            match i {
                0 => prompt.push(Role::User, first_user_blocks(request)),
                _ if i % 2 == 1 => prompt.push(Role::Assistant, [Block::new(turns[i / 2].raw_response())]),
                _ => prompt.push(Role::User, [Block::new(feedback_message(&turns[i / 2 - 1], request.max_turns()))]),
            }
        }
        let mut stats = Stats::new(UPSTREAM_TRIM);
        // Turns whose answer is gone.
        stats.turns_compressed = (from / 2) as u32;
        prompt.breakpoint_here().build(stats)
    }
}
