//! A cheap token estimate to budget with.
//!
//! A plugin has no tokenizer (loading a BPE table per plugin costs more than
//! most renders), so [`estimate_tokens`] is a conservative byte count: the
//! host measures real tokens where a budget is enforced.

use crate::output::Message;

/// Bytes counted as one token by [`estimate_tokens`]. BPE encodings such as
/// `o200k_base` average about 4 bytes per token on English text and code,
/// and about 3 on CJK text (one token per 3-byte character), so dividing by
/// 3 overestimates for the prompts strategies render. Numbers are denser
/// (digits split into groups of at most three, `185.220.101.4` is 7
/// tokens), so every ASCII digit counts twice.
pub const ESTIMATE_BYTES_PER_TOKEN: usize = 3;

/// Per-message overhead added by [`estimate_tokens`] (as chat APIs count it).
pub const ESTIMATE_MESSAGE_OVERHEAD: usize = 3;

/// Tokens that prime the reply, added once by [`estimate_tokens`].
pub const ESTIMATE_REPLY_PRIMING: usize = 3;

/// A conservative estimate of the prompt tokens of `messages`:
/// `ceil((bytes + ascii digits) / 3) + 3` per message, plus 3. Not a
/// tokenizer: rare inputs (long runs of unusual symbols or emoji) can exceed
/// it, so the host checks budgets with a real count.
///
/// ```
/// use ptc_plugin_api::{render::estimate_tokens, Message};
/// assert_eq!(estimate_tokens(&[Message::user("abcdefg")]), 3 + 3 + 3);
/// assert_eq!(estimate_tokens(&[Message::user("1.2.3")]), 3 + 3 + 3);
/// ```
pub fn estimate_tokens(messages: &[Message]) -> usize {
    messages.iter().map(|m| estimate_text_tokens(m.content()) + ESTIMATE_MESSAGE_OVERHEAD).sum::<usize>()
        + ESTIMATE_REPLY_PRIMING
}

/// A conservative estimate of the tokens of one text (no message overhead).
pub fn estimate_text_tokens(text: &str) -> usize {
    let digits = text.bytes().filter(u8::is_ascii_digit).count();
    (text.len() + digits).div_ceil(ESTIMATE_BYTES_PER_TOKEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_rounds_up_per_message() {
        let m = [Message::system("ab"), Message::user("abcd")];
        assert_eq!(estimate_tokens(&m), (1 + 3) + (2 + 3) + 3);
        // CJK: 3 bytes per character, at least one token each.
        assert_eq!(estimate_tokens(&[Message::user("日本語")]), 3 + 3 + 3);
    }
}
