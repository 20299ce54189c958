//! Leaves out the error section of a failed latest turn.
//! Fails MUST-LATEST-ERROR only.

use ptc_plugin_api::render::{coalesced_message, Closing, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Coalesced rendering without the error section.
pub struct HideError;

impl Strategy for HideError {
    const NAME: &'static str = "broken-hide-error";
    const DESCRIPTION: &'static str = "Test plugin: hides the latest error";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(HideError)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut stats = Stats::new(Self::NAME);
        let user = coalesced_message(
            req,
            req.turns(),
            &SummaryOptions::default(),
            Closing { latest_error: false, turn_info: Some(req.turn()) },
            &mut stats,
        );
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(HideError);
