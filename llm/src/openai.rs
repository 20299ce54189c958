//! OpenAI-compatible `/chat/completions` (OpenAI, vLLM, llama.cpp,
//! llama-cpp-python, Ollama, ...): each message's blocks are sent
//! concatenated (these servers cache the longest shared prefix by
//! themselves), and `usage.prompt_tokens_details.cached_tokens` is recorded
//! when the server reports it.

use super::config::{HttpLlmConfig, Protocol};
use super::http::ReadError;
use super::sse::{self, Flow};
use super::{restore_fence, FinishReason, HttpBackend, Llm, LlmError, LlmReply, Prompt, Usage};
use serde_json::{json, Value as Json};
use std::time::Instant;

/// An OpenAI-compatible chat completions client.
pub struct OpenAi {
    http: HttpBackend,
}

impl OpenAi {
    /// A client of `config` sending `api_key` (if any) as a bearer token.
    pub fn new(config: &HttpLlmConfig, api_key: Option<String>) -> OpenAi {
        OpenAi { http: HttpBackend::new(Protocol::OpenAi, config, api_key) }
    }

    /// The request body of `prompt`.
    pub fn body(&self, prompt: &Prompt) -> Json {
        let messages: Vec<Json> =
            prompt.messages.iter().map(|m| json!({"role": m.role.as_str(), "content": m.text()})).collect();
        let mut body = json!({"model": self.http.model, "messages": messages});
        self.http.sampling_into(&mut body, "stop");
        if let Some(s) = self.http.generation.seed {
            body["seed"] = json!(s);
        }
        if self.http.transport.settings.stream {
            // Usage arrives in a last chunk only when asked for.
            body["stream_options"] = json!({"include_usage": true});
        }
        self.http.merge_extra(&mut body);
        body
    }
}

impl Llm for OpenAi {
    fn chat(&mut self, prompt: &Prompt) -> Result<LlmReply, LlmError> {
        let body = self.body(prompt).to_string();
        let headers = Protocol::OpenAi.auth_headers(self.http.key.as_deref());
        let fence_stop = self.http.fence_stop();
        let stream = self.http.transport.settings.stream;
        self.http.send(headers, body, |mut response, sent| {
            let (mut reply, first_byte) = if stream {
                let mut reply = Partial::default();
                let first = sse::read_events(response, sent, |_, data| reply.take(data))?;
                (reply.finish()?, Some(first))
            } else {
                (parse_reply(&super::http::read_answer(&mut response)?).map_err(ReadError::Malformed)?, None)
            };
            if fence_stop && reply.finish_reason == FinishReason::Stop {
                restore_fence(&mut reply.content);
            }
            Ok((reply, first_byte))
        })
    }

    fn end_calls_by(&mut self, until: Option<Instant>) {
        self.http.transport.until = until;
    }

    fn settings(&self) -> Json {
        self.http.settings()
    }
}

/// Reads a (non-streamed) chat completions response body.
pub fn parse_reply(text: &str) -> Result<LlmReply, String> {
    let v: Json =
        serde_json::from_str(text).map_err(|e| format!("invalid JSON ({e}): {}", super::http::one_line(text, 200)))?;
    let choice = v.get("choices").and_then(|c| c.get(0)).ok_or("missing `choices[0]`")?;
    let message = choice.get("message").ok_or("missing `choices[0].message`")?;
    let finish_reason = finish_reason(choice.get("finish_reason"));
    let content = match message.get("content") {
        Some(Json::String(s)) => s.clone(),
        // An answer that is all reasoning, or cut before any text.
        Some(Json::Null) if finish_reason != FinishReason::unreported() => String::new(),
        _ => return Err("missing string `choices[0].message.content`".into()),
    };
    Ok(LlmReply { content, finish_reason, usage: v.get("usage").and_then(usage), timing: Default::default() })
}

fn finish_reason(v: Option<&Json>) -> FinishReason {
    match v.and_then(Json::as_str) {
        Some("stop") => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        Some(other) => FinishReason::Other(other.to_string()),
        None => FinishReason::unreported(),
    }
}

fn usage(u: &Json) -> Option<Usage> {
    Some(Usage {
        prompt_tokens: u.get("prompt_tokens")?.as_u64()?,
        completion_tokens: u.get("completion_tokens")?.as_u64()?,
        cache_read_tokens: u.pointer("/prompt_tokens_details/cached_tokens").and_then(Json::as_u64),
        cache_write_tokens: None,
    })
}

/// A streamed answer so far.
#[derive(Default)]
struct Partial {
    content: String,
    finish: Option<FinishReason>,
    usage: Option<Usage>,
}

impl Partial {
    /// Takes one `data:` payload.
    fn take(&mut self, data: &str) -> Result<Flow, ReadError> {
        if data.trim() == "[DONE]" {
            return Ok(Flow::Done);
        }
        let v = sse::json(data)?;
        if let Some(e) = v.get("error") {
            let message = e.get("message").and_then(Json::as_str).map_or_else(|| e.to_string(), str::to_string);
            return Err(ReadError::Retryable(format!("the server reported an error mid-stream: {message}")));
        }
        if let Some(choice) = v.get("choices").and_then(|c| c.get(0)) {
            if let Some(text) = choice.pointer("/delta/content").and_then(Json::as_str) {
                self.content.push_str(text);
            }
            if choice.get("finish_reason").is_some_and(|f| !f.is_null()) {
                self.finish = Some(finish_reason(choice.get("finish_reason")));
            }
        }
        if let Some(u) = v.get("usage").filter(|u| !u.is_null()) {
            self.usage = usage(u);
        }
        Ok(Flow::More)
    }

    fn finish(self) -> Result<LlmReply, ReadError> {
        Ok(LlmReply {
            content: self.content,
            finish_reason: self.finish.unwrap_or_else(FinishReason::unreported),
            usage: self.usage,
            timing: Default::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_replies_name_what_is_missing() {
        assert_eq!(parse_reply(r#"{"choices": []}"#).unwrap_err(), "missing `choices[0]`");
        let e = parse_reply(r#"{"choices": [{"message": {"role": "assistant"}}]}"#).unwrap_err();
        assert_eq!(e, "missing string `choices[0].message.content`");
        assert!(parse_reply("<html>").unwrap_err().starts_with("invalid JSON"));
        let ok = parse_reply(
            r#"{"choices": [{"message": {"content": "hi"}, "finish_reason": "length"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 2, "prompt_tokens_details": {"cached_tokens": 3}}}"#,
        )
        .unwrap();
        assert_eq!(ok.finish_reason, FinishReason::Length);
        let usage =
            Usage { prompt_tokens: 5, completion_tokens: 2, cache_read_tokens: Some(3), cache_write_tokens: None };
        assert_eq!(ok.usage, Some(usage));
    }

    #[test]
    fn blocks_are_concatenated_and_settings_reach_the_body() {
        use super::super::prompt::{Block, PromptMessage, Role};
        let config = HttpLlmConfig {
            base_url: Some("http://h".into()),
            model: "m".into(),
            temperature: Some(0.0),
            seed: Some(7),
            extra: Some(serde_json::Map::from_iter([("top_k".into(), json!(40))])),
            ..Default::default()
        };
        let prompt = Prompt {
            messages: vec![PromptMessage::with_blocks(Role::User, vec![Block::breakpoint("a\n"), Block::new("b")])],
        };
        let body = OpenAi::new(&config, None).body(&prompt);
        assert_eq!(
            body,
            json!({"model": "m", "messages": [{"role": "user", "content": "a\nb"}], "max_tokens": 2048,
                   "temperature": 0.0, "stop": ["\n```\n\n"], "seed": 7, "top_k": 40})
        );
    }
}
