//! What a model call gives back: the text, why it stopped, the server's
//! token figures and how long it took.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One answer.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmReply {
    /// The answer text.
    pub content: String,
    /// Why generation stopped.
    pub finish_reason: FinishReason,
    /// Token figures, when the server reports them.
    pub usage: Option<Usage>,
    /// How long the call took.
    pub timing: Timing,
}

/// Why the model stopped writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FinishReason {
    /// It finished, or hit a stop sequence (OpenAI `stop`; Anthropic
    /// `end_turn`, `stop_sequence`).
    Stop,
    /// It hit `max_tokens`: the answer is cut off (OpenAI `length`;
    /// Anthropic `max_tokens`).
    Length,
    /// Anything else, as the server spelled it (`unreported` when it did not say).
    Other(String),
}

impl FinishReason {
    /// The server did not say why it stopped.
    pub fn unreported() -> FinishReason {
        FinishReason::Other("unreported".into())
    }

    /// The name recorded in the session: `stop`, `length` or the server's word.
    pub fn as_str(&self) -> &str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::Other(s) => s,
        }
    }
}

/// Token figures as the server reported them, normalized across providers,
/// under the names `ptc-cost`'s accounting uses (`cache_read_tokens`,
/// `cache_write_tokens`).
///
/// `prompt_tokens` is always every token the model read, cached or not, so
/// it compares with ptc's own count and across providers: OpenAI-compatible
/// servers report it so (`usage.prompt_tokens`, of which
/// `prompt_tokens_details.cached_tokens` came from the cache); Anthropic's
/// `input_tokens` excludes the cache, so there it is `input_tokens +
/// cache_creation_input_tokens + cache_read_input_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Every prompt token, cached or not.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Prompt tokens read from the cache (OpenAI `cached_tokens`, Anthropic
    /// `cache_read_input_tokens`), when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    /// Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`), when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
}

/// How long a call took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Timing {
    /// The whole call, retries and their waits included.
    pub wall: Duration,
    /// From sending the request that succeeded to its first streamed
    /// chunk; `None` without streaming (the server sends nothing before the
    /// whole answer).
    pub first_byte: Option<Duration>,
    /// Requests sent (1 without retries; 0 for a replay).
    pub attempts: u32,
}
