//! What is sent to a model: messages of text blocks, some marked as cache
//! breakpoints ("the prompt up to here should stay stable").
//!
//! The type is `ptc-cost`'s owned prompt, so a backend sends exactly what
//! the cost accounting prices; a strategy's `ptc_plugin_api::Prompt`
//! converts into it with `Prompt::from`, blocks and breakpoints included.

pub use ptc_cost::{Block, Message as PromptMessage, Prompt, Role};

/// A prompt of plain messages: one block each, no breakpoints.
pub fn plain_prompt(messages: &[ptc_plugin_api::Message]) -> Prompt {
    Prompt::new(messages.iter().map(|m| PromptMessage::new(m.role(), m.content())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::Stats;

    #[test]
    fn a_strategy_s_blocks_and_breakpoints_carry_over() {
        let from_strategy = ptc_plugin_api::Prompt::builder()
            .system("card")
            .message(
                ptc_plugin_api::Role::User,
                [ptc_plugin_api::Block::new("frozen\n").breakpoint(), ptc_plugin_api::Block::new("tail")],
            )
            .build(Stats::new("demo"));
        let prompt = Prompt::from(&from_strategy);
        assert_eq!(prompt.messages[0], PromptMessage::system("card"));
        assert_eq!(
            prompt.messages[1],
            PromptMessage::with_blocks(Role::User, vec![Block::breakpoint("frozen\n"), Block::new("tail")])
        );
        assert_eq!(prompt, Prompt::from(&from_strategy));
        let plain = plain_prompt(&[ptc_plugin_api::Message::user("hi")]);
        assert_eq!(plain.messages, [PromptMessage::user("hi")]);
    }
}
