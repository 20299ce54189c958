//! On a request of 100 turns or more, recurses without end: the render
//! thread's known stack must overflow ("overflowed its stack") and end the
//! case, not the suite.
//! Shorter requests render as full history.

use ptc_plugin_api::render::full_history;
use ptc_plugin_api::{Params, RenderRequest, Rendered, Strategy, StrategyError};

/// Full history, until the history gets long.
pub struct Recursion;

impl Strategy for Recursion {
    const NAME: &'static str = "broken-recursion";
    const DESCRIPTION: &'static str = "Test plugin: recurses without bound on long histories";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(Recursion)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        if req.turns().len() >= 100 {
            std::hint::black_box(descend(0));
        }
        Ok(full_history(req))
    }
}

/// One frame of 4 KiB of stack per level, forever.
#[allow(unconditional_recursion)] // the point of this plugin
fn descend(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth as u8; 4096]);
    descend(depth + 1) + u64::from(frame[0])
}

ptc_plugin_api::export_strategy!(Recursion);
