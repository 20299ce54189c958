//! On a request of 100 turns or more, allocates 1 MiB after 1 MiB, each
//! written to and kept, without end: the suite's memory cap must stop it
//! ("exceeded the 1 GiB memory limit") before the machine runs out.
//! Shorter requests render as full history.

use ptc_plugin_api::render::full_history;
use ptc_plugin_api::{Params, RenderRequest, Rendered, Strategy, StrategyError};

/// Full history, until the history gets long.
pub struct UnboundedAlloc;

impl Strategy for UnboundedAlloc {
    const NAME: &'static str = "broken-unbounded-alloc";
    const DESCRIPTION: &'static str = "Test plugin: allocates without bound on long histories";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(UnboundedAlloc)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        if req.turns().len() >= 100 {
            let mut held: Vec<Vec<u8>> = Vec::new();
            loop {
                held.push(vec![1; 1 << 20]);
                std::hint::black_box(&held);
            }
        }
        Ok(full_history(req))
    }
}

ptc_plugin_api::export_strategy!(UnboundedAlloc);
