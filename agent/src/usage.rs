//! A model call as the session records it (a turn's `usage`, an
//! `llm-query` call's): `ptc-llm` knows nothing of sessions, so the run
//! loop turns its reply into the record here.

use ptc_llm::{Llm, LlmReply};
use ptc_session::Usage;

/// What the server reported, why the model stopped and how long the call took.
pub fn usage_record(reply: &LlmReply) -> Usage {
    let reported = reply.usage.as_ref();
    Usage {
        prompt_tokens: reported.map(|u| u.prompt_tokens),
        completion_tokens: reported.map(|u| u.completion_tokens),
        cache_read_tokens: reported.and_then(|u| u.cache_read_tokens),
        cache_write_tokens: reported.and_then(|u| u.cache_write_tokens),
        finish_reason: Some(reply.finish_reason.as_str().to_string()),
        wall_ms: Some(reply.timing.wall.as_millis() as u64),
        first_byte_ms: reply.timing.first_byte.map(|t| t.as_millis() as u64),
        attempts: Some(u64::from(reply.timing.attempts)),
        ..Usage::default()
    }
}

/// What the server reported of a recorded call, as a fresh reply gives it
/// ([`Costing::turn`](crate::costing::Costing::turn) prices it); `None`
/// when it reported no token figures.
pub fn reported(record: &Usage) -> Option<ptc_llm::Usage> {
    Some(ptc_llm::Usage {
        prompt_tokens: record.prompt_tokens?,
        completion_tokens: record.completion_tokens?,
        cache_read_tokens: record.cache_read_tokens,
        cache_write_tokens: record.cache_write_tokens,
    })
}

/// A turn's model call: [`usage_record`], with the backend's settings
/// (`llm`) on the first turn and whenever they changed since `last`.
pub fn call_record(reply: &LlmReply, llm: &dyn Llm, last: &mut Option<serde_json::Value>) -> Usage {
    let mut record = usage_record(reply);
    let settings = llm.settings();
    if last.as_ref() != Some(&settings) {
        record.llm = Some(settings.clone());
        *last = Some(settings);
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_llm::{FinishReason, Timing};
    use std::time::Duration;

    #[test]
    fn the_record_carries_usage_reason_and_timing() {
        let reply = LlmReply {
            content: String::new(),
            finish_reason: FinishReason::Length,
            usage: Some(ptc_llm::Usage {
                prompt_tokens: 9,
                completion_tokens: 2,
                cache_read_tokens: Some(4),
                cache_write_tokens: None,
            }),
            timing: Timing {
                wall: Duration::from_millis(1500),
                first_byte: Some(Duration::from_millis(40)),
                attempts: 2,
            },
        };
        assert_eq!(
            serde_json::to_value(usage_record(&reply)).unwrap(),
            serde_json::json!({"prompt_tokens": 9, "completion_tokens": 2, "cache_read_tokens": 4, "finish_reason": "length",
                   "wall_ms": 1500, "first_byte_ms": 40, "attempts": 2})
        );
        assert_eq!(reported(&usage_record(&reply)), reply.usage);
        let unreported = LlmReply { usage: None, ..reply };
        assert_eq!(reported(&usage_record(&unreported)), None);
    }
}
