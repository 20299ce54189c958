//! Prompt token counting with a real BPE tokenizer (tiktoken-rs).

use ptc_plugin_api::Message;
use tiktoken_rs::CoreBPE;

/// Encoding used when an agent names none.
pub const DEFAULT_ENCODING: &str = "o200k_base";

/// Tokens a chat API adds around each message (role and separators), as in
/// OpenAI's published counting recipe for its chat models.
pub const PER_MESSAGE_OVERHEAD: usize = 3;
/// Tokens that prime the reply.
pub const REPLY_PRIMING: usize = 3;

/// Counts tokens with one BPE encoding.
pub struct TokenCounter {
    bpe: CoreBPE,
    encoding: String,
}

impl TokenCounter {
    /// Loads `encoding` (`o200k_base`, `cl100k_base`, `p50k_base`, `r50k_base`).
    pub fn new(encoding: &str) -> Result<TokenCounter, String> {
        let bpe = match encoding {
            "o200k_base" => tiktoken_rs::o200k_base(),
            "cl100k_base" => tiktoken_rs::cl100k_base(),
            "p50k_base" => tiktoken_rs::p50k_base(),
            "r50k_base" => tiktoken_rs::r50k_base(),
            other => {
                return Err(format!(
                    "unknown token encoding `{other}` (known: o200k_base, cl100k_base, p50k_base, r50k_base)"
                ))
            }
        }
        .map_err(|e| format!("cannot load token encoding `{encoding}`: {e}"))?;
        Ok(TokenCounter { bpe, encoding: encoding.to_string() })
    }

    /// The encoding name.
    pub fn encoding(&self) -> &str {
        &self.encoding
    }

    /// Tokens of `text`.
    pub fn count(&self, text: &str) -> usize {
        self.bpe.encode_with_special_tokens(text).len()
    }

    /// Prompt tokens of a chat request: contents plus per-message overhead.
    pub fn count_messages(&self, messages: &[Message]) -> usize {
        messages.iter().map(|m| self.count(m.content()) + PER_MESSAGE_OVERHEAD).sum::<usize>() + REPLY_PRIMING
    }
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
    fn unknown_encoding_is_an_error() {
        let err = TokenCounter::new("gpt5_base").err().unwrap();
        assert!(err.contains("unknown token encoding `gpt5_base`"), "{err}");
    }
}
