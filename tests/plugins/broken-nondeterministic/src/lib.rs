//! Writes a render counter after the mission (standing in for a clock or a
//! random seed). Fails MUST-DETERMINISTIC and MUST-INDEPENDENT.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};
use std::sync::atomic::{AtomicU64, Ordering};

static RENDERS: AtomicU64 = AtomicU64::new(0);

/// Coalesced rendering plus a changing line.
pub struct Nondeterministic;

impl Strategy for Nondeterministic {
    const NAME: &'static str = "broken-nondeterministic";
    const DESCRIPTION: &'static str = "Test plugin: a different prompt on every render";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(Nondeterministic)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        let n = RENDERS.fetch_add(1, Ordering::Relaxed);
        let user = format!("{}\n;; render {n}{}", req.mission(), &user[req.mission().len()..]);
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(Nondeterministic);
