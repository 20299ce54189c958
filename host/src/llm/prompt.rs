//! What is sent to a model: messages made of text blocks, some marked as
//! cache breakpoints.

use ptc_plugin_api::Message;
pub use ptc_plugin_api::Role;

/// A prompt: messages in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prompt {
    /// The messages, system first when there is one.
    pub messages: Vec<PromptMessage>,
}

/// One message: a role and one or more text blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// The text, in blocks; a backend without blocks concatenates them as
    /// they are (blocks carry their own separators).
    pub blocks: Vec<Block>,
}

/// A piece of a message's text.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The text.
    pub text: String,
    /// "The prompt up to and including this block should stay stable":
    /// a backend with explicit caching (Anthropic) caches the prefix here.
    pub cache_breakpoint: bool,
}

impl Block {
    /// A block that is not a breakpoint.
    pub fn text(text: impl Into<String>) -> Block {
        Block { text: text.into(), cache_breakpoint: false }
    }

    /// A block marked as a cache breakpoint.
    pub fn breakpoint(text: impl Into<String>) -> Block {
        Block { text: text.into(), cache_breakpoint: true }
    }
}

impl PromptMessage {
    /// A message of `blocks`.
    pub fn new(role: Role, blocks: Vec<Block>) -> PromptMessage {
        PromptMessage { role, blocks }
    }

    /// The blocks concatenated.
    pub fn text(&self) -> String {
        self.blocks.iter().map(|b| b.text.as_str()).collect()
    }
}

impl From<&ptc_plugin_api::Prompt> for Prompt {
    /// A strategy's prompt with its blocks and breakpoints (a strategy of
    /// interface 1.0: one block per message, no breakpoint). The layout must
    /// have passed `ptc_plugin_api::Prompt::check`, as the registry does.
    fn from(prompt: &ptc_plugin_api::Prompt) -> Prompt {
        let messages = prompt.messages().iter().enumerate().map(|(i, m)| {
            let blocks = prompt.blocks(i).map(|b| Block { text: b.text.to_string(), cache_breakpoint: b.breakpoint });
            PromptMessage::new(m.role(), blocks.collect())
        });
        Prompt { messages: messages.collect() }
    }
}

impl Prompt {
    /// Plain messages: one block each, no breakpoints.
    pub fn from_messages(messages: &[Message]) -> Prompt {
        Prompt {
            messages: messages.iter().map(|m| PromptMessage::new(m.role(), vec![Block::text(m.content())])).collect(),
        }
    }
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
                Role::User,
                [ptc_plugin_api::Block::new("frozen\n").breakpoint(), ptc_plugin_api::Block::new("tail")],
            )
            .build(Stats::new("demo"));
        let prompt = Prompt::from(&from_strategy);
        assert_eq!(prompt.messages[0], PromptMessage::new(Role::System, vec![Block::text("card")]));
        assert_eq!(
            prompt.messages[1],
            PromptMessage::new(Role::User, vec![Block::breakpoint("frozen\n"), Block::text("tail")])
        );
        assert_eq!(prompt.messages[1].text(), from_strategy.messages()[1].content());
    }
}
