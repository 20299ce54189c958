//! Full history, with stats that claim one dropped println more than there
//! were: fails SHOULD-STATS-SUMS only (every MUST case passes).

use ptc_plugin_api::render::full_history;
use ptc_plugin_api::{Params, RenderRequest, Rendered, Strategy, StrategyError};

/// Full history, miscounted.
pub struct BrokenStats;

impl Strategy for BrokenStats {
    const NAME: &'static str = "broken-stats";
    const DESCRIPTION: &'static str = "Test plugin: stats that do not add up";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(BrokenStats)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let full = full_history(req);
        let mut stats = full.stats().clone();
        stats.printlns_dropped += 1;
        Ok(Rendered::new(full.messages().to_vec(), stats))
    }
}

ptc_plugin_api::export_strategy!(BrokenStats);
