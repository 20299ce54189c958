//! What model calls spent: a turn's `usage` (its model call), a tool
//! call's `usage` (a nested run's total, an `llm-query` call) and a
//! session's `usage` (the sum of both over its turns).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::TurnRecord;

/// Usage figures, as recorded. A figure the server did not report is
/// `None`. A sum ([`Usage::add`]) adds every number, figures this version
/// does not name included, and keeps no `finish_reason` or `llm`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Every prompt token, cached or not, as the server reported it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Completion tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    /// Prompt tokens read from the provider's cache, when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    /// Prompt tokens written to it, when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// Why the model stopped: `stop`, `length` or the server's word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The call, retries included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_ms: Option<u64>,
    /// Until the first streamed chunk (streaming only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_byte_ms: Option<u64>,
    /// Requests sent (0 for a replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u64>,
    /// Prompt tokens ptc counted inside a tool call (nested runs, `llm-query`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted_prompt_tokens: Option<u64>,
    /// The backend and its settings as used, on a run's first turn and
    /// whenever they changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<Json>,
    /// Figures this version does not name, kept as read.
    #[serde(flatten)]
    pub other: Map<String, Json>,
}

impl Usage {
    /// Adds `more`'s numbers to these.
    pub fn add(&mut self, more: &Usage) {
        let sum = |a: &mut Option<u64>, b: Option<u64>| {
            if let Some(b) = b {
                *a = Some(a.unwrap_or(0) + b);
            }
        };
        sum(&mut self.prompt_tokens, more.prompt_tokens);
        sum(&mut self.completion_tokens, more.completion_tokens);
        sum(&mut self.cache_read_tokens, more.cache_read_tokens);
        sum(&mut self.cache_write_tokens, more.cache_write_tokens);
        sum(&mut self.wall_ms, more.wall_ms);
        sum(&mut self.first_byte_ms, more.first_byte_ms);
        sum(&mut self.attempts, more.attempts);
        sum(&mut self.counted_prompt_tokens, more.counted_prompt_tokens);
        for (key, n) in more.other.iter().filter_map(|(k, v)| Some((k, v.as_u64()?))) {
            let old = self.other.get(key).and_then(Json::as_u64).unwrap_or(0);
            self.other.insert(key.clone(), (old + n).into());
        }
    }
}

/// The sum of what `turns` spent ([`add_turn_usage`] over each): a
/// session's `usage`, which a journal does not store.
pub fn sum_usage(turns: &[TurnRecord]) -> Usage {
    let mut total = Usage::default();
    for turn in turns {
        add_turn_usage(&mut total, turn);
    }
    total
}

/// Adds what one turn spent to `total` (a session's `usage`): its model
/// call and what its tool calls spent inside (nested runs, `llm-query`).
pub fn add_turn_usage(total: &mut Usage, turn: &TurnRecord) {
    let calls = turn.tool_calls.iter().filter_map(|c| c.usage.as_ref());
    for usage in turn.usage.iter().chain(calls) {
        total.add(usage);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_sum_adds_every_number_and_keeps_no_words() {
        let call: Usage = serde_json::from_value(json!({"prompt_tokens": 9, "completion_tokens": 2,
            "finish_reason": "stop", "attempts": 1, "llm": {"backend": "replay"}, "reasoning_tokens": 3}))
        .unwrap();
        let nested: Usage = serde_json::from_value(json!({"prompt_tokens": 5, "cache_read_tokens": 4,
            "counted_prompt_tokens": 6, "reasoning_tokens": 1}))
        .unwrap();
        let mut total = Usage::default();
        total.add(&call);
        total.add(&nested);
        assert_eq!(
            serde_json::to_value(&total).unwrap(),
            json!({"prompt_tokens": 14, "completion_tokens": 2, "cache_read_tokens": 4, "attempts": 1,
                   "counted_prompt_tokens": 6, "reasoning_tokens": 4})
        );
        assert_ne!(total, Usage::default());
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let text = json!({"prompt_tokens": 9, "completion_tokens": 2, "cache_read_tokens": 4, "finish_reason": "length",
            "wall_ms": 1500, "first_byte_ms": 40, "attempts": 2, "llm": {"backend": "replay", "file": "a.json"}});
        let usage: Usage = serde_json::from_value(text.clone()).unwrap();
        assert_eq!((usage.finish_reason.as_deref(), usage.other.len()), (Some("length"), 0));
        assert_eq!(serde_json::to_value(&usage).unwrap(), text);
    }
}
