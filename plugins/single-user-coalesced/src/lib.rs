//! `single-user-coalesced`, the default compression strategy.
//!
//! Renders the whole history as `[SYSTEM, USER]`: the mission, the tools,
//! the input data, then what the model learned from its successful turns
//! (definitions with types and samples, tool calls, printed output) and the
//! latest error, instead of its old programs. The contract is
//! `spec/single-user-coalesced.md`.
//!
//! ```
//! use ptc_plugin_api::{Params, RenderRequest, Role, Strategy};
//! use ptc_strategy_single_user_coalesced::SingleUserCoalesced;
//!
//! let s = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", "{}").unwrap()).unwrap();
//! let out = s.render(&RenderRequest::new("Count the orders", "system", 5)).unwrap();
//! assert_eq!(out.messages()[1].role(), Role::User);
//! assert!(out.messages()[1].content().starts_with("Count the orders"));
//! ```

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// The strategy, with its limits.
#[derive(Debug, Clone)]
pub struct SingleUserCoalesced {
    opts: SummaryOptions,
}

impl SingleUserCoalesced {
    /// Reads the four single-user-coalesced limits from `params` (other
    /// strategies that fold history in this form share them).
    pub fn read_options(params: &mut Params) -> Result<SummaryOptions, StrategyError> {
        SummaryOptions::from_params(params)
    }
}

impl Strategy for SingleUserCoalesced {
    const NAME: &'static str = "single-user-coalesced";
    const DESCRIPTION: &'static str =
        "One USER message: mission, tools, data, definitions with samples, tool calls, output, latest error";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let opts = Self::read_options(&mut params)?;
        params.finish()?;
        Ok(SingleUserCoalesced { opts })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &self.opts, &mut stats);
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

ptc_plugin_api::export_strategy!(SingleUserCoalesced);
