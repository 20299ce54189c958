//! Token counts by content: a text that comes back (the system prompt of
//! every turn, a block every strategy repeats) is tokenized once, and so is
//! each stretch a longer text shares with an earlier one.
//!
//! A prompt that grows turn after turn (a strategy's memory of earlier
//! turns, the full history) is mostly lines the memo has counted before.
//! Counting it as a whole would tokenize all of it again each turn, so the
//! cost of a turn would follow the session's length. A long text is
//! therefore counted in [`chunks`], each one memoized: only the chunks that
//! are new are tokenized.
//!
//! **Why the sum is exact.** A chunk ends at a place no piece of the
//! pre-tokenizer spans, in either encoding, of one of two kinds:
//! - **after a line feed followed by a character that is neither white
//!   space nor `/`.** Letters, digits and contractions never include a line
//!   feed (their optional leading character is `[^\r\n\p{L}\p{N}]`);
//!   punctuation runs end with `[\r\n/]*` (`[\r\n]*` in cl100k), which
//!   stops before anything but a line break or `/`; white-space runs stop
//!   before a character that is not white space, and one ending in a line
//!   feed is taken by `\s*[\r\n]+` before `\s+$` is tried, so the end of a
//!   chunk matches as the middle of the text does.
//! - **after an ASCII letter followed by ASCII punctuation or a space**,
//!   except `'` (a contraction goes on), `_` and `|` (inside a special
//!   token such as `<|fim_prefix|>`). A letter is only ever in a run of
//!   letters (the leading character of a piece is never one), and that run
//!   ends before such a character. A JSON-escaped text, which has no line
//!   feeds, has these places at every word's end (`\n;;` included).
//!
//! Special tokens never span either kind. So the text's pieces are the
//! chunks' pieces, and its count is the sum of theirs. `tests/tiktoken.rs`
//! checks the memo against tiktoken over the session corpus (JSON-escaped
//! too) and generated text.

use crate::{messages_tokens, TokenCounter};
use ptc_plugin_api::Message;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A text at least this long (bytes) is counted in chunks; a chunk is at
/// least this long too, except the text's last. Long enough that looking a
/// chunk up costs far less than tokenizing it, short enough that the one
/// chunk a changed line falls in is cheap to tokenize again.
pub const MIN_CHUNK_BYTES: usize = 256;

/// Token counts by content, keyed by a 64-bit content hash. It grows by
/// one entry (16 bytes) per distinct short text or chunk: a run's memo
/// holds about one per message it sent and one per 256 bytes of new text.
pub struct TokenMemo<'c> {
    counter: &'c TokenCounter,
    counts: HashMap<u64, u64>,
}

impl<'c> TokenMemo<'c> {
    /// An empty memo counting with `counter`.
    pub fn new(counter: &'c TokenCounter) -> TokenMemo<'c> {
        TokenMemo { counter, counts: HashMap::new() }
    }

    /// Tokens of `text`, as [`TokenCounter::count`] gives them; a short
    /// text, or a chunk of a long one, is tokenized at most once.
    pub fn count(&mut self, text: &str) -> u64 {
        if text.len() < 2 * MIN_CHUNK_BYTES {
            return self.count_one(text);
        }
        chunks(text).map(|chunk| self.count_one(chunk)).sum()
    }

    fn count_one(&mut self, text: &str) -> u64 {
        let counter = self.counter;
        *self.counts.entry(content_hash(text)).or_insert_with(|| counter.count(text) as u64)
    }

    /// [`TokenCounter::count_messages`], each message's content counted
    /// through the memo.
    pub fn count_messages(&mut self, messages: &[Message]) -> usize {
        messages_tokens(messages, |text| self.count(text) as usize)
    }

    /// Distinct texts and chunks tokenized so far.
    pub fn distinct_texts(&self) -> usize {
        self.counts.len()
    }
}

/// `text` cut into chunks whose token counts add up to the text's (see the
/// module docs): each at least [`MIN_CHUNK_BYTES`] long, except the last,
/// and ending at the first place after that where no piece spans. Where a
/// chunk ends depends only on the text before that place, so two texts
/// that share a start share its chunks.
pub fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = chunk_end(rest);
        let (chunk, tail) = rest.split_at(end);
        rest = tail;
        Some(chunk)
    })
}

/// Where the first chunk of `text` ends: its whole length when no place
/// fits.
fn chunk_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    // Both kinds of place follow an ASCII byte, which is never inside a
    // multi-byte character, so every cut is on a character boundary.
    for end in MIN_CHUNK_BYTES..text.len() {
        let (before, next) = (bytes[end - 1], bytes[end]);
        let after_line_feed = before == b'\n' && !text[end..].starts_with(|c: char| c.is_whitespace() || c == '/');
        let word_end = before.is_ascii_alphabetic()
            && (next == b' ' || next.is_ascii_punctuation())
            && !matches!(next, b'\'' | b'_' | b'|');
        if after_line_feed || word_end {
            return end;
        }
    }
    text.len()
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

    #[test]
    fn a_growing_text_tokenizes_only_its_new_chunks() {
        let counter = TokenCounter::new("o200k_base").unwrap();
        let mut memo = TokenMemo::new(&counter);
        let line = |n: usize| format!(";; --- turn {n} ---\ntotal ; = integer, sample: {n}\n;; facts: step {n}\n");
        let mut text = String::new();
        for n in 1..=60 {
            text.push_str(&line(n));
            assert_eq!(memo.count(&text), counter.count(&text) as u64, "after turn {n}");
        }
        let whole: Vec<&str> = chunks(&text).collect();
        assert_eq!(whole.concat(), text, "the chunks are the text");
        assert!(whole.len() > 10 && whole[..whole.len() - 1].iter().all(|c| c.len() >= MIN_CHUNK_BYTES));
        // A finished chunk is stored once, plus one last chunk per text: not
        // one entry per chunk per text, as when chunks moved with the text.
        assert!(memo.distinct_texts() <= 60 + whole.len(), "{} entries", memo.distinct_texts());
    }

    #[test]
    fn a_chunk_ends_only_where_no_piece_goes_on() {
        // Not after a line feed before white space or `/`, nor after a
        // letter before `'`, `_`, `|`, a non-ASCII letter or a digit.
        let text = format!("{}\n  12\n/path\n\n  it'll_fim|x\u{e9}y2\u{e9} next line", "9".repeat(300));
        let ends: Vec<usize> = chunks(&text)
            .scan(0, |at, c| {
                *at += c.len();
                Some(*at)
            })
            .collect();
        assert_eq!(ends, [text.find("next").unwrap() + "next".len(), text.len()]);
    }
}
