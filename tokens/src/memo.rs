//! Token counts by content: a text that comes back (the system prompt of
//! every turn, a block every strategy repeats) is tokenized once.

use crate::{messages_tokens, TokenCounter};
use ptc_plugin_api::Message;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Token counts by content, keyed by a 64-bit content hash. It grows by
/// one entry (16 bytes) per distinct text: a run's memo holds about one
/// per message it ever sent.
pub struct TokenMemo<'c> {
    counter: &'c TokenCounter,
    counts: HashMap<u64, u64>,
}

impl<'c> TokenMemo<'c> {
    /// An empty memo counting with `counter`.
    pub fn new(counter: &'c TokenCounter) -> TokenMemo<'c> {
        TokenMemo { counter, counts: HashMap::new() }
    }

    /// Tokens of `text`, tokenized at most once per distinct text.
    pub fn count(&mut self, text: &str) -> u64 {
        let counter = self.counter;
        *self.counts.entry(content_hash(text)).or_insert_with(|| counter.count(text) as u64)
    }

    /// [`TokenCounter::count_messages`], each message's content counted
    /// through the memo.
    pub fn count_messages(&mut self, messages: &[Message]) -> usize {
        messages_tokens(messages, |text| self.count(text) as usize)
    }

    /// Distinct texts tokenized so far.
    pub fn distinct_texts(&self) -> usize {
        self.counts.len()
    }
}

/// A 64-bit hash of `text` (SipHash with fixed keys: stable within a run).
pub fn content_hash(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_counts_as_the_counter_does_and_tokenizes_a_text_once() {
        let counter = TokenCounter::new("o200k_base").unwrap();
        let mut memo = TokenMemo::new(&counter);
        let messages = [Message::system("You write PTC-Lisp."), Message::user("Count the orders.")];
        assert_eq!(memo.count_messages(&messages), counter.count_messages(&messages));
        assert_eq!(memo.count_messages(&messages), counter.count_messages(&messages));
        assert_eq!(memo.distinct_texts(), 2);
        memo.count_messages(&[Message::system("You write PTC-Lisp."), Message::user("Now sum them.")]);
        assert_eq!(memo.distinct_texts(), 3, "the system prompt is counted once");
    }
}
