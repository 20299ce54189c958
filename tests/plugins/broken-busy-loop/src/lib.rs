//! On a request of 100 turns or more, spins forever: the suite's CPU cap
//! must end the case ("used more than N s of CPU") well before its wall-time
//! limit.
//! Shorter requests render as full history.

use ptc_plugin_api::render::full_history;
use ptc_plugin_api::{Params, RenderRequest, Rendered, Strategy, StrategyError};

/// Full history, until the history gets long.
pub struct BusyLoop;

impl Strategy for BusyLoop {
    const NAME: &'static str = "broken-busy-loop";
    const DESCRIPTION: &'static str = "Test plugin: spins forever on long histories";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(BusyLoop)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        if req.turns().len() >= 100 {
            loop {
                std::hint::black_box(req.turns().len());
            }
        }
        Ok(full_history(req))
    }
}

ptc_plugin_api::export_strategy!(BusyLoop);
