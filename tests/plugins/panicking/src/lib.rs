//! A strategy that panics on every render, and in its constructor when
//! built with `panic_in_new = true`: the host must survive both.

use ptc_plugin_api::{Params, RenderRequest, Rendered, Strategy, StrategyError};

/// Always panics.
pub struct Panicking;

impl Strategy for Panicking {
    const NAME: &'static str = "test-panicking";
    const DESCRIPTION: &'static str = "Test plugin that panics";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        if params.bool("panic_in_new", false)? {
            panic!("constructor exploded");
        }
        params.finish()?;
        Ok(Panicking)
    }

    fn render(&self, request: &RenderRequest) -> Result<Rendered, StrategyError> {
        panic!("render exploded on turn {}", request.turn());
    }
}

ptc_plugin_api::export_strategy!(Panicking);
