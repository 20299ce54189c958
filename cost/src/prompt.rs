//! Prompts as the accounting sees them: messages made of text blocks, some
//! blocks marked as cache breakpoints.
//!
//! An owned form of what a strategy renders (`ptc_plugin_api::Prompt`
//! converts into it), so prompts can also be built by hand, and the
//! accounting does not change when the plugin interface grows.

/// Who speaks a message: the SDK's [`Role`](ptc_plugin_api::Role), the
/// one vocabulary of roles a strategy, a session file and a backend share.
pub use ptc_plugin_api::Role;

/// One text block of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The text sent.
    pub text: String,
    /// "The prompt up to and including this block should stay stable": a
    /// provider with explicit caching may cache the prefix ending here.
    pub breakpoint: bool,
}

impl Block {
    /// A block without a breakpoint.
    pub fn new(text: impl Into<String>) -> Block {
        Block { text: text.into(), breakpoint: false }
    }

    /// A block that ends a prefix the strategy keeps stable.
    pub fn breakpoint(text: impl Into<String>) -> Block {
        Block { text: text.into(), breakpoint: true }
    }
}

/// One message: a role and its blocks, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// The content. An OpenAI-compatible backend sends the blocks
    /// concatenated as they are (no separator); an Anthropic backend sends
    /// one content block each.
    pub blocks: Vec<Block>,
}

impl Message {
    /// A message of one block without a breakpoint (what every strategy
    /// emits today).
    pub fn new(role: Role, text: impl Into<String>) -> Message {
        Message { role, blocks: vec![Block::new(text)] }
    }

    /// A message of several blocks.
    pub fn with_blocks(role: Role, blocks: Vec<Block>) -> Message {
        Message { role, blocks }
    }

    /// A one-block `system` message.
    pub fn system(text: impl Into<String>) -> Message {
        Message::new(Role::System, text)
    }

    /// A one-block `user` message.
    pub fn user(text: impl Into<String>) -> Message {
        Message::new(Role::User, text)
    }

    /// A one-block `assistant` message.
    pub fn assistant(text: impl Into<String>) -> Message {
        Message::new(Role::Assistant, text)
    }

    /// The blocks concatenated, as an OpenAI-compatible backend sends them.
    pub fn text(&self) -> String {
        self.blocks.iter().map(|b| b.text.as_str()).collect()
    }
}

/// The messages of one request, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prompt {
    /// The messages.
    pub messages: Vec<Message>,
}

impl Prompt {
    /// A prompt of these messages.
    pub fn new(messages: Vec<Message>) -> Prompt {
        Prompt { messages }
    }

    /// The whole text the model reads, messages separated by a blank line
    /// (what fact recall searches).
    pub fn text(&self) -> String {
        self.messages.iter().map(Message::text).collect::<Vec<_>>().join("\n\n")
    }

    /// Whether any block is marked as a cache breakpoint.
    pub fn has_breakpoints(&self) -> bool {
        self.messages.iter().flat_map(|m| &m.blocks).any(|b| b.breakpoint)
    }
}

/// What a strategy rendered, block by block, as the accounting reads it.
impl From<&ptc_plugin_api::Prompt> for Prompt {
    fn from(prompt: &ptc_plugin_api::Prompt) -> Prompt {
        let messages = prompt
            .messages()
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let blocks = prompt.blocks(i).map(|b| Block { text: b.text.to_string(), breakpoint: b.breakpoint });
                Message::with_blocks(m.role(), blocks.collect())
            })
            .collect();
        Prompt::new(messages)
    }
}
