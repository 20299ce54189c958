//! Caches each prompt under (mission, turn): the same request renders the
//! same, but a request that differs elsewhere gets a stale prompt.
//! Fails MUST-INDEPENDENT only.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};
use std::collections::HashMap;
use std::sync::Mutex;

/// Coalesced rendering behind a wrongly keyed cache.
pub struct StaleCache {
    cache: Mutex<HashMap<(String, u32), Rendered>>,
}

impl Strategy for StaleCache {
    const NAME: &'static str = "broken-stale-cache";
    const DESCRIPTION: &'static str = "Test plugin: caches by mission and turn";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(StaleCache { cache: Mutex::new(HashMap::new()) })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let key = (req.mission().to_string(), req.turn());
        let mut cache = self.cache.lock().map_err(|_| StrategyError::render("cache poisoned"))?;
        if let Some(hit) = cache.get(&key) {
            return Ok(hit.clone());
        }
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        let out = Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats);
        cache.insert(key, out.clone());
        Ok(out)
    }
}

ptc_plugin_api::export_strategy!(StaleCache);
