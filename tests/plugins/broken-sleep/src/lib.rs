//! On a request of 100 turns or more, sleeps for an hour (`mode = "sleep"`,
//! the default) or aborts the process (`mode = "abort"`): the suite must
//! fail those cases with a time limit or the signal, and carry on.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};
use std::time::Duration;

/// Coalesced rendering, until the history gets long.
pub struct Sleep {
    abort: bool,
}

impl Strategy for Sleep {
    const NAME: &'static str = "broken-sleep";
    const DESCRIPTION: &'static str = "Test plugin: hangs or aborts on long histories";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let mode = params.string("mode", "sleep")?;
        params.finish()?;
        match mode.as_str() {
            "sleep" => Ok(Sleep { abort: false }),
            "abort" => Ok(Sleep { abort: true }),
            other => {
                Err(StrategyError::invalid_params(format!("broken-sleep: mode must be sleep or abort, got {other:?}")))
            }
        }
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        if req.turns().len() >= 100 {
            if self.abort {
                std::process::abort();
            }
            std::thread::sleep(Duration::from_secs(3600));
        }
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(Sleep);
