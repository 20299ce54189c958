//! A strategy written against interface 1.0: mission, the number of
//! completed turns, the latest error, turn info. It knows nothing of
//! content blocks or cache breakpoints.

use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// The 1.0 strategy.
pub struct Compat;

impl Strategy for Compat {
    const NAME: &'static str = "compat-1-0";
    const DESCRIPTION: &'static str = "A plugin built against interface 1.0";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(Compat)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut user = format!("{}\n\n;; {} turns done", req.mission(), req.turns().len());
        if let Some(e) = req.last_turn().and_then(|t| t.error()) {
            user.push_str(&format!("\n\nError: {}", e.message()));
        }
        user.push_str(&format!("\n\nTurns left: {}", req.max_turns() + 1 - req.turn()));
        let mut stats = Stats::new(Self::NAME);
        stats.turns_compressed = req.turns().len() as u32;
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(Compat);
