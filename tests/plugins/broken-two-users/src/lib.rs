//! Splits the prompt into a static USER message (mission, tools, data) and a
//! second USER message with the history and turn info.
//! Fails MUST-ROLES-ALTERNATE only.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};

/// Coalesced rendering split in two USER messages.
pub struct TwoUsers;

impl Strategy for TwoUsers {
    const NAME: &'static str = "broken-two-users";
    const DESCRIPTION: &'static str = "Test plugin: two USER messages in a row";

    fn new(params: Params) -> Result<Self, StrategyError> {
        params.finish()?;
        Ok(TwoUsers)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        let (head, rest) = user.split_at(req.mission().len());
        let messages = vec![
            Message::system(req.system_prompt()),
            Message::user(head.to_string()),
            Message::user(rest.trim_start().to_string()),
        ];
        Ok(Rendered::new(messages, stats))
    }
}

ptc_plugin_api::export_strategy!(TwoUsers);
