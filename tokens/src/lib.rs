//! Prompt token counting with the real BPE vocabularies of OpenAI's chat
//! models (`o200k_base`, `cl100k_base`), counted exactly as tiktoken counts
//! them.
//!
//! ```
//! use ptc_tokens::{TokenCounter, DEFAULT_ENCODING};
//!
//! let counter = TokenCounter::new(DEFAULT_ENCODING).unwrap();
//! assert_eq!(counter.count("hello"), 1);
//! ```
//!
//! Nothing is built at run time: `build.rs` takes each vocabulary from
//! tiktoken-rs and writes it as tables the counter reads in place (a hash
//! table from bytes to rank), and compiles the pre-tokenizer's patterns to a
//! DFA; the first count of a process only validates that DFA (well under a
//! millisecond). So a command that counts starts as fast as one that does
//! not. Counts equal tiktoken's `encode_with_special_tokens` (the special
//! tokens, such as `<|endoftext|>`, count one each): the merge loop is
//! tiktoken's, and `tests/tiktoken.rs` compares both over the session corpus
//! and over generated text.

mod bpe;
mod encodings;
mod layout;
mod memo;
mod pretokenize;
mod vocab;

use encodings::Spec;
pub use memo::{chunks, content_hash, TokenMemo, MIN_CHUNK_BYTES};
use pretokenize::Pretokenizer;
use ptc_plugin_api::Message;
use std::fmt;
use std::sync::OnceLock;
use vocab::Vocab;

/// Encoding used when an agent names none.
pub const DEFAULT_ENCODING: &str = "o200k_base";

/// Tokens a chat API adds around each message (role and separators), as in
/// OpenAI's published counting recipe for its chat models.
pub const PER_MESSAGE_OVERHEAD: usize = 3;
/// Tokens that prime the reply.
pub const REPLY_PRIMING: usize = 3;

/// The encodings this crate counts with, by name.
pub const ENCODINGS: &[&str] = &["o200k_base", "cl100k_base"];

/// An encoding name this crate does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownEncoding(pub String);

impl fmt::Display for UnknownEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown token encoding `{}` (known: {})", self.0, ENCODINGS.join(", "))
    }
}

impl std::error::Error for UnknownEncoding {}

impl From<UnknownEncoding> for String {
    fn from(e: UnknownEncoding) -> String {
        e.to_string()
    }
}

/// One encoding's prepared tables, as `build.rs` wrote them (file names per
/// `layout::file`).
struct Prepared {
    spec: &'static Spec,
    vocab: Vocab,
    dfa: &'static [u8],
    pretokenizer: OnceLock<Pretokenizer>,
}

macro_rules! prepared {
    ($spec:expr, $name:literal) => {
        Prepared {
            spec: &$spec,
            vocab: Vocab::new(
                include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".bytes")),
                include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".offsets")),
                include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".slots")),
            ),
            dfa: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".dfa")),
            pretokenizer: OnceLock::new(),
        }
    };
}

static O200K_BASE: Prepared = prepared!(encodings::O200K_BASE, "o200k_base");
static CL100K_BASE: Prepared = prepared!(encodings::CL100K_BASE, "cl100k_base");

impl Prepared {
    fn count(&'static self, text: &str) -> usize {
        let pretokenizer = self.pretokenizer.get_or_init(|| Pretokenizer::load(self.dfa, self.spec));
        let mut tokens = 0;
        pretokenizer.split(text, |piece| tokens += bpe::count(piece.as_bytes(), |bytes| self.vocab.rank(bytes)));
        tokens
    }
}

/// Counts tokens with one BPE encoding.
#[derive(Clone, Copy)]
pub struct TokenCounter {
    prepared: &'static Prepared,
}

impl fmt::Debug for TokenCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenCounter").field("encoding", &self.encoding()).finish()
    }
}

impl TokenCounter {
    /// A counter for `encoding` (`o200k_base`, `cl100k_base`).
    pub fn new(encoding: &str) -> Result<TokenCounter, UnknownEncoding> {
        let prepared = match encoding {
            "o200k_base" => &O200K_BASE,
            "cl100k_base" => &CL100K_BASE,
            other => return Err(UnknownEncoding(other.to_string())),
        };
        Ok(TokenCounter { prepared })
    }

    /// The encoding name.
    pub fn encoding(&self) -> &str {
        self.prepared.spec.name
    }

    /// Tokens of `text`, special tokens included (one each).
    pub fn count(&self, text: &str) -> usize {
        let specials = self.prepared.spec.special_tokens;
        let mut rest = text;
        let mut tokens = 0;
        while let Some((at, len)) = first_special(rest, specials) {
            tokens += self.prepared.count(&rest[..at]) + 1;
            rest = &rest[at + len..];
        }
        tokens + self.prepared.count(rest)
    }

    /// Prompt tokens of a chat request: contents plus per-message overhead.
    pub fn count_messages(&self, messages: &[Message]) -> usize {
        messages_tokens(messages, |text| self.count(text))
    }
}

/// Prompt tokens of a chat request, each content counted by `count`.
fn messages_tokens(messages: &[Message], mut count: impl FnMut(&str) -> usize) -> usize {
    messages.iter().map(|m| count(m.content()) + PER_MESSAGE_OVERHEAD).sum::<usize>() + REPLY_PRIMING
}

/// The leftmost special token in `text` (its byte offset and length), as
/// tiktoken finds them. Every special token starts with `<|`.
fn first_special(text: &str, specials: &[&str]) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(i) = text[from..].find("<|") {
        let at = from + i;
        if let Some(special) = specials.iter().find(|s| text[at..].starts_with(**s)) {
            return Some((at, special.len()));
        }
        from = at + 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_real_bpe_tokens() {
        let t = TokenCounter::new(DEFAULT_ENCODING).unwrap();
        assert_eq!(t.count(""), 0);
        assert_eq!(t.count("hello"), 1);
        // A BPE merges common words: far fewer tokens than characters.
        let text = "The quick brown fox jumps over the lazy dog. ".repeat(20);
        let n = t.count(&text);
        assert!(n > 100 && n < text.len() / 3, "{n} tokens for {} chars", text.len());
        let msgs = [Message::system("hello"), Message::user("hello")];
        assert_eq!(t.count_messages(&msgs), 2 * (1 + PER_MESSAGE_OVERHEAD) + REPLY_PRIMING);
    }

    #[test]
    fn the_prepared_vocabularies_are_whole() {
        assert_eq!(O200K_BASE.vocab.len(), 199_998);
        assert_eq!(CL100K_BASE.vocab.len(), 100_256);
        for byte in 0..=255u8 {
            assert!(O200K_BASE.vocab.rank(&[byte]).is_some(), "byte {byte} is a token");
        }
        assert_eq!(O200K_BASE.vocab.rank(b"hello"), Some(24912));
        assert_eq!(O200K_BASE.vocab.rank(b"no such token, surely"), None);
    }

    #[test]
    fn special_tokens_count_one_each() {
        let t = TokenCounter::new(DEFAULT_ENCODING).unwrap();
        assert_eq!(t.count("<|endoftext|>"), 1);
        assert_eq!(t.count("hello<|endoftext|><|endofprompt|>hello"), 4);
        // Not special in o200k: counted as text.
        assert!(t.count("<|fim_prefix|>") > 1);
        assert_eq!(TokenCounter::new("cl100k_base").unwrap().count("<|fim_prefix|>"), 1);
        assert_eq!(first_special("a<|b <|endoftext|>", &["<|endoftext|>"]), Some((5, 13)));
    }

    #[test]
    fn unknown_encoding_is_an_error() {
        let err = TokenCounter::new("gpt5_base").unwrap_err().to_string();
        assert_eq!(err, "unknown token encoding `gpt5_base` (known: o200k_base, cl100k_base)");
    }
}
