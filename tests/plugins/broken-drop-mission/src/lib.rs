//! Drops the mission from turn 2 on "to save tokens".
//! Fails MUST-MISSION-VERBATIM only.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Coalesced rendering without the mission after turn 1.
pub struct DropMission;

impl Strategy for DropMission {
    const NAME: &'static str = "broken-drop-mission";
    const DESCRIPTION: &'static str = "Test plugin: drops the mission after turn 1";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(DropMission)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        let user = match user.strip_prefix(req.mission()) {
            Some(rest) if req.turn() > 1 => rest.trim_start().to_string(),
            _ => user,
        };
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(DropMission);
