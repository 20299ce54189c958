//! The model behind an agent: a replay transcript for offline runs and
//! tests, or an OpenAI-compatible chat completions server over HTTP.

use crate::config::LlmConfig;
use ptc_plugin_api::Message;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Token figures the server reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens as the provider counted them.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
}

/// One answer.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmReply {
    /// The answer text.
    pub content: String,
    /// Usage, when the backend reports it.
    pub usage: Option<Usage>,
}

/// Why a chat call failed (after any retries).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmError(pub String);

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LlmError {}

/// A chat model.
pub trait Llm {
    /// Answers `messages`.
    fn chat(&mut self, messages: &[Message]) -> Result<LlmReply, LlmError>;
}

/// Builds the backend of `config`; `turns_done` answers are skipped (resume).
pub fn from_config(config: &LlmConfig, turns_done: usize) -> Result<Box<dyn Llm>, LlmError> {
    match config {
        LlmConfig::Replay { file } => Ok(Box::new(Replay::from_file(file, turns_done)?)),
        LlmConfig::Openai { base_url, model, api_key_env, temperature, timeout_ms, max_retries } => {
            let api_key = match api_key_env {
                Some(var) => Some(
                    std::env::var(var)
                        .map_err(|_| LlmError(format!("the environment variable `{var}` (api_key_env) is not set")))?,
                ),
                None => None,
            };
            Ok(Box::new(OpenAi {
                base_url: base_url.clone(),
                model: model.clone(),
                api_key,
                temperature: *temperature,
                timeout: Duration::from_millis(timeout_ms.unwrap_or(60_000)),
                max_retries: max_retries.unwrap_or(3),
                backoff: Duration::from_millis(500),
            }))
        }
    }
}

/// Answers from a transcript: one string per turn, in order.
#[derive(Debug, Clone)]
pub struct Replay {
    file: PathBuf,
    responses: Vec<String>,
    next: usize,
}

impl Replay {
    /// A replay of `responses`, starting at index `start`.
    pub fn new(responses: Vec<String>, start: usize) -> Replay {
        Replay { file: PathBuf::from("<memory>"), responses, next: start }
    }

    /// Reads a JSON array of strings.
    pub fn from_file(file: &Path, start: usize) -> Result<Replay, LlmError> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| LlmError(format!("cannot read replay file {}: {e}", file.display())))?;
        let responses: Vec<String> = serde_json::from_str(&text).map_err(|e| {
            LlmError(format!("replay file {}: expected a JSON array of strings (one per turn): {e}", file.display()))
        })?;
        Ok(Replay { file: file.to_path_buf(), responses, next: start })
    }
}

impl Llm for Replay {
    fn chat(&mut self, _messages: &[Message]) -> Result<LlmReply, LlmError> {
        let reply = self.responses.get(self.next).ok_or_else(|| {
            LlmError(format!(
                "replay file {} has {} responses, but turn {} needs another one",
                self.file.display(),
                self.responses.len(),
                self.next + 1
            ))
        })?;
        self.next += 1;
        Ok(LlmReply { content: reply.clone(), usage: None })
    }
}

/// An OpenAI-compatible `/v1/chat/completions` client.
pub struct OpenAi {
    /// Server root.
    pub base_url: String,
    /// Model name.
    pub model: String,
    /// Bearer token (never printed; `Debug` is not derived for this reason).
    pub api_key: Option<String>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt on 429, 5xx and timeouts.
    pub max_retries: u32,
    /// First backoff; doubles after each retry.
    pub backoff: Duration,
}

enum Attempt {
    /// Worth another try; the server may say when (`Retry-After`, seconds).
    Retry(String, Option<Duration>),
    Fatal(String),
}

/// Longest `Retry-After` wait honoured; a longer one falls back to the backoff.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

impl OpenAi {
    fn url(&self) -> String {
        format!("{}/v1/chat/completions", self.base_url.trim_end_matches('/'))
    }

    fn attempt(&self, agent: &ureq::Agent, body: &str) -> Result<LlmReply, Attempt> {
        let mut req = agent.post(self.url()).header("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            req = req.header("Authorization", format!("Bearer {key}"));
        }
        let mut resp = match req.send(body) {
            Ok(r) => r,
            Err(ureq::Error::Timeout(t)) => return Err(Attempt::Retry(format!("timed out ({t})"), None)),
            Err(ureq::Error::Io(e)) if e.kind() == std::io::ErrorKind::TimedOut => {
                return Err(Attempt::Retry("timed out".into(), None))
            }
            Err(ureq::Error::Io(e)) => return Err(Attempt::Retry(format!("connection failed: {e}"), None)),
            Err(e) => return Err(Attempt::Fatal(format!("request failed: {e}"))),
        };
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs)
            .filter(|d| *d <= MAX_RETRY_AFTER);
        let text = match resp.body_mut().read_to_string() {
            Ok(t) => t,
            Err(ureq::Error::Timeout(_)) => return Err(Attempt::Retry("timed out reading the response".into(), None)),
            Err(e) => return Err(Attempt::Retry(format!("cannot read the response: {e}"), None)),
        };
        if status == 429 || status >= 500 {
            return Err(Attempt::Retry(format!("HTTP {status}: {}", short(&text)), retry_after));
        }
        if status != 200 {
            return Err(Attempt::Fatal(format!("HTTP {status}: {}", short(&text))));
        }
        parse_reply(&text).map_err(Attempt::Fatal)
    }
}

fn short(text: &str) -> String {
    let t: String = text.trim().chars().take(300).collect();
    if t.len() < text.trim().len() {
        format!("{t}...")
    } else {
        t
    }
}

/// Reads a chat completions response body.
pub fn parse_reply(text: &str) -> Result<LlmReply, String> {
    let v: Json = serde_json::from_str(text)
        .map_err(|e| format!("the server answered with invalid JSON ({e}): {}", short(text)))?;
    let content = v
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or("malformed response: missing `choices[0]`")?
        .get("message")
        .ok_or("malformed response: missing `choices[0].message`")?
        .get("content")
        .and_then(Json::as_str)
        .ok_or("malformed response: missing string `choices[0].message.content`")?;
    let usage = v.get("usage").and_then(|u| {
        Some(Usage {
            prompt_tokens: u.get("prompt_tokens")?.as_u64()?,
            completion_tokens: u.get("completion_tokens")?.as_u64()?,
        })
    });
    Ok(LlmReply { content: content.to_string(), usage })
}

impl Llm for OpenAi {
    fn chat(&mut self, messages: &[Message]) -> Result<LlmReply, LlmError> {
        let mut body = json!({
            "model": self.model,
            "messages": messages.iter().map(|m| json!({"role": m.role().as_str(), "content": m.content()})).collect::<Vec<_>>(),
        });
        if let Some(t) = self.temperature {
            body["temperature"] = json!(t);
        }
        let body = body.to_string();
        let agent: ureq::Agent =
            ureq::Agent::config_builder().timeout_global(Some(self.timeout)).http_status_as_error(false).build().into();
        let mut delay = self.backoff;
        let mut last = String::new();
        tracing::debug!(url = %self.url(), model = %self.model, messages = messages.len(), bytes = body.len(), "chat request");
        for attempt in 0..=self.max_retries {
            match self.attempt(&agent, &body) {
                Ok(reply) => return Ok(reply),
                Err(Attempt::Fatal(m)) => return Err(LlmError(format!("{}: {m}", self.url()))),
                Err(Attempt::Retry(m, after)) => {
                    if attempt < self.max_retries {
                        let wait = after.unwrap_or(delay);
                        tracing::warn!(attempt = attempt + 1, wait_ms = wait.as_millis() as u64, reason = %m, "chat request failed; retrying");
                        std::thread::sleep(wait);
                        delay *= 2;
                    }
                    last = m;
                }
            }
        }
        Err(LlmError(format!("{}: giving up after {} attempts: {last}", self.url(), self.max_retries + 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_runs_out_clearly() {
        let mut r = Replay::new(vec!["a".into()], 0);
        assert_eq!(r.chat(&[]).unwrap().content, "a");
        let e = r.chat(&[]).unwrap_err().to_string();
        assert_eq!(e, "replay file <memory> has 1 responses, but turn 2 needs another one");
    }

    #[test]
    fn malformed_replies_name_what_is_missing() {
        assert_eq!(parse_reply(r#"{"choices": []}"#).unwrap_err(), "malformed response: missing `choices[0]`");
        let e = parse_reply(r#"{"choices": [{"message": {"role": "assistant"}}]}"#).unwrap_err();
        assert_eq!(e, "malformed response: missing string `choices[0].message.content`");
        assert!(parse_reply("<html>").unwrap_err().starts_with("the server answered with invalid JSON"));
        let ok = parse_reply(
            r#"{"choices": [{"message": {"content": "hi"}}], "usage": {"prompt_tokens": 5, "completion_tokens": 2}}"#,
        )
        .unwrap();
        assert_eq!(ok.usage, Some(Usage { prompt_tokens: 5, completion_tokens: 2 }));
    }
}
