//! Never calls `Params::finish`, so a misspelt key passes silently.
//! Fails MUST-REJECT-UNKNOWN-PARAMS only.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Coalesced rendering; parameters ignored.
pub struct AcceptUnknown;

impl Strategy for AcceptUnknown {
    const NAME: &'static str = "broken-accept-unknown";
    const DESCRIPTION: &'static str = "Test plugin: accepts unknown parameters";

    fn new(_params: Params) -> Result<Self, StrategyError> {
        Ok(AcceptUnknown)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(AcceptUnknown);
