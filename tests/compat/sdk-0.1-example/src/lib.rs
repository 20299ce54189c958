//! `keep-last-turns`: an example third-party strategy.
//!
//! Older turns are folded into the first USER message (what they defined,
//! called and printed, using the SDK's shared sections); the last `turns`
//! turns stay verbatim as ASSISTANT/USER pairs, exactly as the full
//! transcript shows them.
//!
//! ```
//! use ptc_plugin_api::{Params, RenderRequest, Strategy};
//! use ptc_strategy_keep_last_turns::KeepLastTurns;
//!
//! let s = KeepLastTurns::new(Params::from_json("keep-last-turns", r#"{"turns": 1}"#).unwrap()).unwrap();
//! let out = s.render(&RenderRequest::new("Find the answer", "system", 5)).unwrap();
//! assert_eq!(out.messages().len(), 2);
//! ```

use ptc_plugin_api::render::{coalesced_message, push_verbatim_turns, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Keeps the last `turns` turns verbatim.
pub struct KeepLastTurns {
    turns: usize,
}

impl Strategy for KeepLastTurns {
    const NAME: &'static str = "keep-last-turns";
    const DESCRIPTION: &'static str = "Example: summary of older turns, the last N turns verbatim";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let turns = params.positive("turns", 3)?;
        params.finish()?;
        Ok(KeepLastTurns { turns })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let split = req.turns().len().saturating_sub(self.turns);
        let (older, recent) = req.turns().split_at(split);
        let mut stats = Stats::new(Self::NAME);
        // The turn info goes at the end of the last message: here only when
        // no turn is kept verbatim.
        let info = recent.is_empty().then(|| req.turn());
        let first = coalesced_message(req, older, &SummaryOptions::default(), false, info, &mut stats);
        let mut messages = vec![Message::system(req.system_prompt()), Message::user(first)];
        push_verbatim_turns(&mut messages, recent, req.max_turns());
        stats.push_counter("turns_verbatim", recent.len() as i64);
        Ok(Rendered::new(messages, stats))
    }
}

ptc_plugin_api::export_strategy!(KeepLastTurns);
