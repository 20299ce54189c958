//! Content blocks and cache breakpoints (interface 1.1).
//!
//! Providers cache a repeated prompt prefix and bill it at about a tenth of
//! the price, so *where* a prompt changes matters as much as how long it
//! is. A strategy that keeps most of its prompt byte-identical from one
//! turn to the next, and says where the stable part ends, costs far less
//! under caching than one that rewrites it.
//!
//! A [`Prompt`] is a [`Rendered`] plus, per message, where its text splits
//! into content blocks and which blocks end a **cache breakpoint** ("the
//! prompt up to the end of this block should stay stable"). Backends that
//! cache by blocks (Anthropic) send each block separately and mark the
//! breakpoints; others send the text as is. A strategy built against
//! interface 1.0 returns plain [`Rendered`] messages: each is one block,
//! with no breakpoint.
//!
//! ```
//! use ptc_plugin_api::{Block, Prompt, Role, Stats};
//!
//! let prompt = Prompt::builder()
//!     .system("You write PTC-Lisp.")
//!     .message(Role::User, [Block::new("Mission ...\n\n").breakpoint(), Block::new("Turns left: 4")])
//!     .build(Stats::new("demo"));
//! assert_eq!(prompt.messages()[1].content(), "Mission ...\n\nTurns left: 4");
//! let blocks: Vec<_> = prompt.blocks(1).collect();
//! assert_eq!((blocks[0].text, blocks[0].breakpoint), ("Mission ...\n\n", true));
//! assert_eq!((blocks[1].text, blocks[1].breakpoint), ("Turns left: 4", false));
//! ```

use crate::output::{Message, Rendered, Role, Stats};
use abi_stable::{std_types::RVec, StableAbi};
use std::fmt;

/// Where one message's text splits into blocks, and which blocks end a
/// cache breakpoint. Empty: the message is one block without a breakpoint.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq, Default)]
pub struct MessageLayout {
    /// Byte offsets in the message text where each block but the last ends,
    /// strictly increasing, on character boundaries.
    block_ends: RVec<u32>,
    /// Indices of the blocks that end a breakpoint, increasing.
    breakpoints: RVec<u32>,
}

impl MessageLayout {
    /// Number of blocks.
    pub fn block_count(&self) -> usize {
        self.block_ends.len() + 1
    }
    /// Whether block `index` ends a breakpoint.
    pub fn is_breakpoint(&self, index: usize) -> bool {
        self.breakpoints.iter().any(|&b| b as usize == index)
    }
}

/// Messages plus their block layout: what a strategy of interface 1.1 returns.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Prompt {
    rendered: Rendered,
    /// One per message, or none at all (every message one block).
    layouts: RVec<MessageLayout>,
}

/// One content block of a message, as the host reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockRef<'a> {
    /// The block's text.
    pub text: &'a str,
    /// Whether the prompt up to the end of this block should stay stable.
    pub breakpoint: bool,
}

/// A block a strategy adds to a message (see [`PromptBuilder::message`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    text: String,
    breakpoint: bool,
}

impl Block {
    /// A block of `text`, no breakpoint.
    pub fn new(text: impl Into<String>) -> Block {
        Block { text: text.into(), breakpoint: false }
    }
    /// Marks the end of this block as a cache breakpoint.
    pub fn breakpoint(mut self) -> Block {
        self.breakpoint = true;
        self
    }
    /// Sets whether this block ends a cache breakpoint.
    pub fn with_breakpoint(mut self, breakpoint: bool) -> Block {
        self.breakpoint = breakpoint;
        self
    }
}

/// Why a plugin's layout cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError(String);

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid block layout: {}", self.0)
    }
}

impl std::error::Error for LayoutError {}

impl Prompt {
    /// A prompt whose messages are one block each, without breakpoints
    /// (what an interface 1.0 strategy renders).
    pub fn from_rendered(rendered: Rendered) -> Prompt {
        Prompt { rendered, layouts: RVec::new() }
    }

    /// Starts a prompt, message by message.
    pub fn builder() -> PromptBuilder {
        PromptBuilder::default()
    }

    /// The messages and stats.
    pub fn rendered(&self) -> &Rendered {
        &self.rendered
    }
    /// The messages and stats, without the layout.
    pub fn into_rendered(self) -> Rendered {
        self.rendered
    }
    /// The messages to send, in order.
    pub fn messages(&self) -> &[Message] {
        self.rendered.messages()
    }
    /// What the render did.
    pub fn stats(&self) -> &Stats {
        self.rendered.stats()
    }

    /// The layout of message `index` (the default one-block layout when the
    /// strategy gave none).
    pub fn layout(&self, index: usize) -> MessageLayout {
        self.layouts.get(index).cloned().unwrap_or_default()
    }

    /// The blocks of message `index`, in order.
    ///
    /// # Panics
    /// When `index` is out of range, or the layout is invalid (call
    /// [`Prompt::check`] first on a prompt from a plugin).
    pub fn blocks(&self, index: usize) -> impl Iterator<Item = BlockRef<'_>> + '_ {
        let text = self.messages()[index].content();
        let layout = self.layouts.get(index);
        let ends: Vec<usize> = layout
            .map(|l| l.block_ends.iter().map(|&e| e as usize).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .chain([text.len()])
            .collect();
        let mut start = 0;
        ends.into_iter().enumerate().map(move |(i, end)| {
            let block = BlockRef { text: &text[start..end], breakpoint: layout.is_some_and(|l| l.is_breakpoint(i)) };
            start = end;
            block
        })
    }

    /// Total number of breakpoints.
    pub fn breakpoint_count(&self) -> usize {
        self.layouts.iter().map(|l| l.breakpoints.len()).sum()
    }

    /// Checks the layout against the messages: one layout per message (or
    /// none), block ends increasing, inside the text and on character
    /// boundaries, breakpoints naming existing blocks.
    pub fn check(&self) -> Result<(), LayoutError> {
        let messages = self.messages();
        if !self.layouts.is_empty() && self.layouts.len() != messages.len() {
            return Err(LayoutError(format!(
                "{} layouts for {} messages (give one per message, or none)",
                self.layouts.len(),
                messages.len()
            )));
        }
        for (i, (layout, message)) in self.layouts.iter().zip(messages).enumerate() {
            let text = message.content();
            let mut previous = 0usize;
            for &end in layout.block_ends.iter() {
                let end = end as usize;
                if end <= previous || end >= text.len() || !text.is_char_boundary(end) {
                    return Err(LayoutError(format!(
                        "message {i}: block end {end} is not increasing, inside its {} bytes and on a character boundary",
                        text.len()
                    )));
                }
                previous = end;
            }
            let mut last = None;
            for &b in layout.breakpoints.iter() {
                if b as usize >= layout.block_count() || last.is_some_and(|l| b <= l) {
                    return Err(LayoutError(format!(
                        "message {i}: breakpoint {b} does not name one of its {} blocks in order",
                        layout.block_count()
                    )));
                }
                last = Some(b);
            }
        }
        Ok(())
    }
}

impl From<Rendered> for Prompt {
    fn from(rendered: Rendered) -> Prompt {
        Prompt::from_rendered(rendered)
    }
}

/// Builds a [`Prompt`]: each message is the concatenation of its blocks.
/// Empty blocks are dropped (a breakpoint on one moves to the block before).
#[derive(Debug, Default)]
pub struct PromptBuilder {
    messages: Vec<Message>,
    layouts: Vec<MessageLayout>,
}

impl PromptBuilder {
    /// Adds a message of `role` made of `blocks`.
    pub fn message(mut self, role: Role, blocks: impl IntoIterator<Item = Block>) -> PromptBuilder {
        self.push(role, blocks);
        self
    }

    /// Adds a message of `role` made of `blocks` (in place).
    pub fn push(&mut self, role: Role, blocks: impl IntoIterator<Item = Block>) {
        let mut text = String::new();
        let mut layout = MessageLayout::default();
        let mut count = 0u32;
        for block in blocks {
            if !block.text.is_empty() {
                if count > 0 {
                    layout.block_ends.push(text.len() as u32);
                }
                text.push_str(&block.text);
                count += 1;
            }
            if block.breakpoint && count > 0 && !layout.is_breakpoint(count as usize - 1) {
                layout.breakpoints.push(count - 1);
            }
        }
        self.messages.push(Message::new(role, text));
        self.layouts.push(layout);
    }

    /// Adds a system message of one block.
    pub fn system(self, text: impl Into<String>) -> PromptBuilder {
        self.message(Role::System, [Block::new(text)])
    }

    /// Adds a user message of one block.
    pub fn user(self, text: impl Into<String>) -> PromptBuilder {
        self.message(Role::User, [Block::new(text)])
    }

    /// Adds an assistant message of one block.
    pub fn assistant(self, text: impl Into<String>) -> PromptBuilder {
        self.message(Role::Assistant, [Block::new(text)])
    }

    /// Marks the end of the last message as a breakpoint (no-op when there
    /// is no message yet).
    pub fn breakpoint_here(mut self) -> PromptBuilder {
        if let Some(layout) = self.layouts.last_mut() {
            let last = layout.block_count() as u32 - 1;
            if !layout.is_breakpoint(last as usize) {
                layout.breakpoints.push(last);
            }
        }
        self
    }

    /// The messages so far.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The prompt, with `stats`.
    pub fn build(self, stats: Stats) -> Prompt {
        let layouts =
            if self.layouts.iter().all(|l| *l == MessageLayout::default()) { RVec::new() } else { self.layouts.into() };
        Prompt { rendered: Rendered::new(self.messages, stats), layouts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breakpoint_on_an_empty_block_moves_back_and_a_plain_prompt_has_no_layouts() {
        let p = Prompt::builder()
            .message(Role::User, [Block::new("x"), Block::new("").breakpoint()])
            .build(Stats::default());
        assert_eq!(p.blocks(0).collect::<Vec<_>>(), [BlockRef { text: "x", breakpoint: true }]);
        let plain = Prompt::builder().system("s").user("u").build(Stats::default());
        assert!(plain.layouts.is_empty());
        assert_eq!(plain, Prompt::from_rendered(plain.rendered().clone()));
    }

    #[test]
    fn bad_layouts_are_named() {
        let rendered = Rendered::new(vec![Message::user("héllo")], Stats::default());
        let bad = |block_ends: Vec<u32>, breakpoints: Vec<u32>| Prompt {
            rendered: rendered.clone(),
            layouts: vec![MessageLayout { block_ends: block_ends.into(), breakpoints: breakpoints.into() }].into(),
        };
        assert!(bad(vec![1, 3], vec![0, 2]).check().is_ok());
        assert!(bad(vec![2], vec![]).check().unwrap_err().to_string().contains("character boundary"));
        assert!(bad(vec![3, 1], vec![]).check().is_err());
        assert!(bad(vec![6], vec![]).check().is_err());
        assert!(bad(vec![1], vec![2]).check().unwrap_err().to_string().contains("breakpoint 2"));
        let two = Prompt { rendered, layouts: vec![MessageLayout::default(), MessageLayout::default()].into() };
        assert!(two.check().unwrap_err().to_string().contains("2 layouts for 1 messages"));
    }
}
