//! The Anthropic Messages API (`POST {base}/v1/messages`).
//!
//! - System messages become the top-level `system` array of text blocks;
//!   the others become `messages`, consecutive messages of one role merged
//!   into one message of several blocks (the API wants alternating roles).
//!   Empty blocks are left out (the API rejects them); a breakpoint on one
//!   moves to the block before it.
//! - A block marked as a cache breakpoint gets `cache_control: {type:
//!   "ephemeral"}`. The API takes at most [`MAX_BREAKPOINTS`]; with more,
//!   the **first** one and the **last three** are kept. The last ones
//!   matter most (a cache entry is written at each breakpoint, and a later
//!   breakpoint reads the longest cached prefix before it, so the newest
//!   breakpoint finds what the previous turn wrote); the first one (the
//!   system prompt or a frozen summary) is the part that survives a
//!   compaction, so keeping it lets the turn after a compaction still read
//!   that prefix from the cache.
//! - Headers: `x-api-key`, `anthropic-version: 2023-06-01`.
//! - Usage: `prompt_tokens` is the sum of `input_tokens`,
//!   `cache_creation_input_tokens` and `cache_read_input_tokens`
//!   (Anthropic's `input_tokens` leaves the cached ones out);
//!   `cache_read_tokens` is `cache_read_input_tokens` and
//!   `cache_write_tokens` is `cache_creation_input_tokens`.

use super::config::{HttpLlmConfig, Protocol, CODE_FENCE_STOP};
use super::http::ReadError;
use super::sse::{self, Flow};
use super::{restore_fence, FinishReason, HttpBackend, Llm, LlmError, LlmReply, Prompt, Role, Usage};
use serde_json::{json, Value as Json};
use std::time::Instant;

/// The `anthropic-version` header sent (defined beside the headers,
/// [`Protocol::auth_headers`]).
pub use super::config::ANTHROPIC_VERSION;

/// Cache breakpoints the API accepts in one request: the price table's
/// (`ptc_plugin_api::render::ANTHROPIC`), the one place the figure lives.
pub const MAX_BREAKPOINTS: usize = match ptc_plugin_api::render::ANTHROPIC.cache {
    ptc_plugin_api::render::CacheMatch::Breakpoints { max, .. } => max,
    ptc_plugin_api::render::CacheMatch::Prefix { .. } => panic!("the ANTHROPIC row caches at breakpoints"),
};

/// An Anthropic Messages client.
pub struct Anthropic {
    http: HttpBackend,
}

/// A text block on its way into the body.
struct Text<'p> {
    text: &'p str,
    breakpoint: bool,
}

impl Anthropic {
    /// A client of `config` sending `api_key` as `x-api-key`.
    pub fn new(config: &HttpLlmConfig, api_key: Option<String>) -> Anthropic {
        Anthropic { http: HttpBackend::new(Protocol::Anthropic, config, api_key) }
    }

    /// The request body of `prompt`.
    pub fn body(&self, prompt: &Prompt) -> Json {
        let (mut system, mut turns) = (Vec::new(), Vec::<(Role, Vec<Text<'_>>)>::new());
        for m in &prompt.messages {
            let blocks = if m.role == Role::System {
                &mut system
            } else {
                if turns.last().is_none_or(|(role, _)| *role != m.role) {
                    turns.push((m.role, Vec::new()));
                }
                &mut turns.last_mut().expect("pushed above").1
            };
            for b in &m.blocks {
                if !b.text.is_empty() {
                    blocks.push(Text { text: &b.text, breakpoint: b.breakpoint });
                } else if let Some(previous) = blocks.last_mut() {
                    previous.breakpoint |= b.breakpoint;
                }
            }
        }
        turns.retain(|(_, blocks)| !blocks.is_empty());
        let all = system.iter_mut().chain(turns.iter_mut().flat_map(|(_, b)| b.iter_mut()));
        limit_breakpoints(all.collect());

        let mut body = json!({
            "model": self.http.model,
            "messages": turns.iter().map(|(role, blocks)| json!({"role": role.as_str(), "content": content(blocks)})).collect::<Vec<_>>(),
        });
        if !system.is_empty() {
            body["system"] = content(&system);
        }
        self.http.sampling_into(&mut body, "stop_sequences");
        self.http.merge_extra(&mut body);
        body
    }
}

/// Keeps at most [`MAX_BREAKPOINTS`]: the first and the last three.
fn limit_breakpoints(mut blocks: Vec<&mut Text<'_>>) {
    blocks.retain(|b| b.breakpoint);
    let n = blocks.len();
    if n > MAX_BREAKPOINTS {
        for b in &mut blocks[1..n - (MAX_BREAKPOINTS - 1)] {
            b.breakpoint = false;
        }
    }
}

fn content(blocks: &[Text<'_>]) -> Json {
    Json::Array(
        blocks
            .iter()
            .map(|b| {
                let mut block = json!({"type": "text", "text": b.text});
                if b.breakpoint {
                    block["cache_control"] = json!({"type": "ephemeral"});
                }
                block
            })
            .collect(),
    )
}

impl Llm for Anthropic {
    fn chat(&mut self, prompt: &Prompt) -> Result<LlmReply, LlmError> {
        let body = self.body(prompt).to_string();
        let headers = Protocol::Anthropic.auth_headers(self.http.key.as_deref());
        let stream = self.http.transport.settings.stream;
        self.http.send(headers, body, |mut response, sent| {
            let mut message = Message::default();
            let first_byte = if stream {
                Some(sse::read_events(response, sent, |event, data| message.take(event, data))?)
            } else {
                message.take_whole(&sse_free_json(&super::http::read_answer(&mut response)?)?)?;
                None
            };
            Ok((message.finish()?, first_byte))
        })
    }

    fn end_calls_by(&mut self, until: Option<Instant>) {
        self.http.transport.until = until;
    }

    fn settings(&self) -> Json {
        let mut s = self.http.settings();
        s["anthropic_version"] = json!(ANTHROPIC_VERSION);
        s
    }
}

fn sse_free_json(text: &str) -> Result<Json, ReadError> {
    serde_json::from_str(text)
        .map_err(|e| ReadError::Malformed(format!("invalid JSON ({e}): {}", super::http::one_line(text, 200))))
}

/// An answer as it arrives: whole, or event by event.
#[derive(Default)]
struct Message {
    content: String,
    stop_reason: Option<String>,
    stop_sequence: Option<String>,
    usage: Option<Json>,
    complete: bool,
}

impl Message {
    /// A whole (non-streamed) message.
    fn take_whole(&mut self, v: &Json) -> Result<(), ReadError> {
        let blocks =
            v.get("content").and_then(Json::as_array).ok_or(ReadError::Malformed("missing array `content`".into()))?;
        for b in blocks.iter().filter(|b| b["type"] == "text") {
            self.content
                .push_str(b["text"].as_str().ok_or(ReadError::Malformed("a text block without `text`".into()))?);
        }
        self.delta(v);
        self.usage = v.get("usage").cloned();
        self.complete = true;
        Ok(())
    }

    /// One streamed event.
    fn take(&mut self, event: &str, data: &str) -> Result<Flow, ReadError> {
        let v = sse::json(data)?;
        let kind = v["type"].as_str().unwrap_or(event);
        match kind {
            "message_start" => self.usage = v.pointer("/message/usage").cloned(),
            "content_block_delta" => {
                if let Some(text) = v.pointer("/delta/text").and_then(Json::as_str) {
                    self.content.push_str(text);
                }
            }
            "message_delta" => {
                self.delta(&v["delta"]);
                // The final counts; earlier fields (input, cache) stay when absent here.
                if let (Some(Json::Object(old)), Some(Json::Object(new))) = (self.usage.as_mut(), v.get("usage")) {
                    old.extend(new.iter().filter(|(_, n)| !n.is_null()).map(|(k, n)| (k.clone(), n.clone())));
                }
            }
            "message_stop" => {
                self.complete = true;
                return Ok(Flow::Done);
            }
            "error" => {
                let e = &v["error"];
                let message =
                    format!("{}: {}", e["type"].as_str().unwrap_or("error"), e["message"].as_str().unwrap_or(""));
                return Err(ReadError::Retryable(format!("the server reported an error mid-stream: {message}")));
            }
            _ => {} // ping, content_block_start/stop
        }
        Ok(Flow::More)
    }

    /// `stop_reason` and `stop_sequence` of a message or a `message_delta`.
    fn delta(&mut self, v: &Json) {
        if let Some(r) = v.get("stop_reason").and_then(Json::as_str) {
            self.stop_reason = Some(r.to_string());
        }
        if let Some(s) = v.get("stop_sequence").and_then(Json::as_str) {
            self.stop_sequence = Some(s.to_string());
        }
    }

    fn finish(self) -> Result<LlmReply, ReadError> {
        if !self.complete {
            return Err(ReadError::Malformed("the message never completed".into()));
        }
        let finish_reason = match self.stop_reason.as_deref() {
            Some("end_turn" | "stop_sequence") => FinishReason::Stop,
            Some("max_tokens") => FinishReason::Length,
            Some(other) => FinishReason::Other(other.to_string()),
            None => FinishReason::unreported(),
        };
        let mut content = self.content;
        if self.stop_sequence.as_deref() == Some(CODE_FENCE_STOP) {
            restore_fence(&mut content);
        }
        Ok(LlmReply { content, finish_reason, usage: self.usage.as_ref().and_then(usage), timing: Default::default() })
    }
}

/// Normalizes Anthropic usage (see the module doc).
pub fn usage(u: &Json) -> Option<Usage> {
    let field = |k: &str| u.get(k).and_then(Json::as_u64);
    let (input, creation, read) =
        (field("input_tokens")?, field("cache_creation_input_tokens"), field("cache_read_input_tokens"));
    Some(Usage {
        prompt_tokens: input + creation.unwrap_or(0) + read.unwrap_or(0),
        completion_tokens: field("output_tokens")?,
        cache_read_tokens: read,
        cache_write_tokens: creation,
    })
}

#[cfg(test)]
mod tests {
    use super::super::prompt::{Block, PromptMessage};
    use super::*;

    fn client() -> Anthropic {
        Anthropic::new(&HttpLlmConfig { model: "claude-x".into(), ..Default::default() }, None)
    }

    fn marks(body: &Json) -> Vec<String> {
        let mut out = Vec::new();
        let system = body["system"].as_array().into_iter().flatten();
        let messages = body["messages"].as_array().into_iter().flatten().flat_map(|m| m["content"].as_array().unwrap());
        for b in system.chain(messages) {
            if b.get("cache_control").is_some() {
                out.push(b["text"].as_str().unwrap().to_string());
            }
        }
        out
    }

    #[test]
    fn system_goes_on_top_and_roles_alternate() {
        let prompt = Prompt {
            messages: vec![
                PromptMessage::with_blocks(Role::System, vec![Block::breakpoint("card")]),
                PromptMessage::with_blocks(Role::User, vec![Block::new("a"), Block::new("")]),
                PromptMessage::with_blocks(Role::User, vec![Block::new("b")]),
                PromptMessage::with_blocks(Role::Assistant, vec![Block::new("c")]),
            ],
        };
        let body = client().body(&prompt);
        assert_eq!(body["system"], json!([{"type": "text", "text": "card", "cache_control": {"type": "ephemeral"}}]));
        assert_eq!(
            body["messages"],
            json!([{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
                   {"role": "assistant", "content": [{"type": "text", "text": "c"}]}])
        );
        assert_eq!((body["max_tokens"].as_u64(), body["stop_sequences"].clone()), (Some(2048), json!(["\n```\n\n"])));
    }

    #[test]
    fn more_than_four_breakpoints_keep_the_first_and_the_last_three() {
        let blocks = (1..=6).map(|i| Block::breakpoint(format!("b{i}"))).collect();
        let prompt = Prompt {
            messages: vec![
                PromptMessage::with_blocks(Role::System, vec![Block::breakpoint("sys")]),
                PromptMessage::with_blocks(Role::User, blocks),
            ],
        };
        assert_eq!(marks(&client().body(&prompt)), ["sys", "b4", "b5", "b6"]);
        // A breakpoint on an empty block moves to the block before it.
        let prompt = Prompt {
            messages: vec![PromptMessage::with_blocks(Role::User, vec![Block::new("x"), Block::breakpoint("")])],
        };
        assert_eq!(marks(&client().body(&prompt)), ["x"]);
    }

    #[test]
    fn usage_counts_cached_tokens_into_the_prompt() {
        let u = usage(
            &json!({"input_tokens": 20, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000, "output_tokens": 5}),
        );
        assert_eq!(
            u,
            Some(Usage {
                prompt_tokens: 1120,
                completion_tokens: 5,
                cache_read_tokens: Some(1000),
                cache_write_tokens: Some(100)
            })
        );
    }
}
