//! Panics on render for any mission with a non-ASCII character: it cuts a
//! "title" at a byte index, which lands inside a multi-byte character.
//! Fails MUST-NO-PANIC only (the other cases check what did render).

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Coalesced rendering plus a byte-sliced title.
pub struct BrokenPanic;

impl Strategy for BrokenPanic {
    const NAME: &'static str = "broken-panic";
    const DESCRIPTION: &'static str = "Test plugin: panics on non-ASCII missions";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(BrokenPanic)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        // The bug: a byte index used as a character index.
        if let Some(at) = req.mission().bytes().position(|b| !b.is_ascii()) {
            let _title = &req.mission()[..at + 1];
        }
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(BrokenPanic);
