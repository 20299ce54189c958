//! `keep-last-turns`: an example third-party strategy.
//!
//! Older turns are folded into the first USER message (what they defined,
//! called and printed, using the SDK's shared sections); the last `turns`
//! turns stay verbatim as ASSISTANT/USER pairs, exactly as the full
//! transcript shows them.
//!
//! That layout changes the first message whenever a turn leaves the window,
//! so a provider's prompt cache keeps little of it. With
//! `layout = "checkpointed"` the plugin renders through the SDK's
//! cache-stable layout instead ([`checkpointed_prompt`]): it only says what
//! one turn looks like and what a summary of several looks like, and the
//! SDK appends, folds when a fold pays for itself, and marks the cache
//! breakpoints.
//!
//! ```
//! use ptc_plugin_api::{Params, RenderRequest, Strategy};
//! use ptc_strategy_keep_last_turns::KeepLastTurns;
//!
//! let s = KeepLastTurns::new(Params::from_json("keep-last-turns", r#"{"turns": 1}"#).unwrap()).unwrap();
//! let out = s.render(&RenderRequest::new("Find the answer", "system", 5)).unwrap();
//! assert_eq!(out.messages().len(), 2);
//! ```

use ptc_plugin_api::render::{
    checkpointed_prompt, coalesced_message, error_section, push_verbatim_turns, summary_sections, Checkpointing,
    Closing, FoldPolicy, SummaryOptions,
};
use ptc_plugin_api::{Message, Params, Prompt, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Keeps the last `turns` turns verbatim.
pub struct KeepLastTurns {
    turns: usize,
    /// `Some` for `layout = "checkpointed"`.
    checkpointed: Option<Checkpointing>,
}

impl Strategy for KeepLastTurns {
    const NAME: &'static str = "keep-last-turns";
    const DESCRIPTION: &'static str = "Example: summary of older turns, the last N turns verbatim";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let turns = params.positive("turns", 3)?;
        let checkpointed = match params.choice("layout", &["window", "checkpointed"])? {
            "checkpointed" => {
                let fold = FoldPolicy { threshold_tokens: 1500, min_turns: 4, merge_tokens: 3000 };
                Some(Checkpointing::from_params(&mut params, fold)?)
            }
            _ => None,
        };
        params.finish()?;
        Ok(KeepLastTurns { turns, checkpointed })
    }

    fn render_prompt(&self, req: &RenderRequest) -> Result<Prompt, StrategyError> {
        let Some(how) = self.checkpointed else { return self.render(req).map(Prompt::from) };
        let (turns, opts) = (req.turns(), SummaryOptions::default());
        let summary = |range: std::ops::Range<usize>, stats: &mut Stats| {
            let heading = format!(";; --- turns {}-{} ---", range.start + 1, range.end);
            let sections = summary_sections(&turns[..range.end], &turns[range], &opts, stats);
            std::iter::once(heading).chain(sections).collect::<Vec<_>>().join("\n")
        };
        // One turn's block is the summary of that turn alone (the SDK shows
        // the turn verbatim instead when that is shorter), or a failed
        // turn's program and error.
        let block = |i: usize, stats: &mut Stats| match turns[i].error() {
            Some(_) => error_section(&turns[i]),
            None => summary(i..i + 1, stats),
        };
        Ok(checkpointed_prompt(req, Self::NAME, how, block, summary))
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let split = req.turns().len().saturating_sub(self.turns);
        let (older, recent) = req.turns().split_at(split);
        let mut stats = Stats::new(Self::NAME);
        // The turn info goes at the end of the last message: here only when
        // no turn is kept verbatim.
        let info = recent.is_empty().then(|| req.turn());
        let first = coalesced_message(
            req,
            older,
            &SummaryOptions::default(),
            Closing { latest_error: false, turn_info: info },
            &mut stats,
        );
        let mut messages = vec![Message::system(req.system_prompt()), Message::user(first)];
        push_verbatim_turns(&mut messages, recent, req.max_turns());
        stats.push_counter("turns_verbatim", recent.len() as i64);
        Ok(Rendered::new(messages, stats))
    }
}

ptc_plugin_api::export_strategy!(KeepLastTurns);
