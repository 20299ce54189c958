//! On a request of 100 turns or more, allocates 6 GB at once and writes
//! it: the suite's memory cap must refuse the allocation ("exceeded the
//! 1 GiB memory limit") instead of letting it in.
//! Shorter requests render as full history.

use ptc_plugin_api::render::full_history;
use ptc_plugin_api::{Params, RenderRequest, Rendered, Strategy, StrategyError};

/// Full history, until the history gets long.
pub struct HugeAlloc;

impl Strategy for HugeAlloc {
    const NAME: &'static str = "broken-huge-alloc";
    const DESCRIPTION: &'static str = "Test plugin: allocates 6 GB at once on long histories";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(HugeAlloc)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        if req.turns().len() >= 100 {
            let block = vec![1u8; 6_000_000_000];
            std::hint::black_box(&block);
        }
        Ok(full_history(req))
    }
}

ptc_plugin_api::export_strategy!(HugeAlloc);
