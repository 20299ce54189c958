//! `ptc-llm`: the model behind an agent: a replay transcript for offline runs and
//! tests, an OpenAI-compatible chat completions server, or the Anthropic
//! Messages API.
//!
//! The run loop builds a [`Prompt`] (messages of text blocks, some marked
//! as cache breakpoints), calls [`Llm::chat`] and gets an [`LlmReply`]: the
//! text, why generation stopped, the server's usage (cache figures
//! included) and the call's timing. Every failure is an [`LlmError`] a user
//! can act on. [`feedback`] holds what the run loop tells the model when an
//! answer has no program or was cut off.
//!
//! ```
//! use ptc_llm::{plain_prompt, Llm, Replay};
//! use ptc_plugin_api::Message;
//!
//! let mut model = Replay::new(vec!["(return 42)".into()], 0);
//! let reply = model.chat(&plain_prompt(&[Message::user("Answer")])).unwrap();
//! assert_eq!(reply.content, "(return 42)");
//! ```

pub mod anthropic;
pub mod config;
pub mod error;
pub mod feedback;
mod http;
pub mod openai;
pub mod prompt;
pub mod replay;
pub mod reply;
mod sse;

pub use anthropic::Anthropic;
pub use config::{Generation, HttpLlmConfig, HttpSettings, LlmConfig, Protocol};
pub use error::{LlmError, TimeoutKind};
pub use http::MAX_ANSWER_BYTES;
pub use openai::OpenAi;
pub use prompt::{plain_prompt, Block, Prompt, PromptMessage, Role};
pub use replay::Replay;
pub use reply::{FinishReason, LlmReply, Timing, Usage};

use serde_json::{json, Value as Json};
use std::time::{Duration, Instant};

/// A chat model.
pub trait Llm {
    /// Answers `prompt`.
    fn chat(&mut self, prompt: &Prompt) -> Result<LlmReply, LlmError>;

    /// The backend and its generation, timeout and retry settings, for the
    /// session file; never the API key (only the name of its variable).
    fn settings(&self) -> Json;

    /// Ends every later call by `until` at the latest (the run's
    /// `run_timeout_ms`), on top of the backend's own deadline; `None`
    /// lifts it. Backends that make no network call ignore it.
    fn end_calls_by(&mut self, until: Option<Instant>) {
        let _ = until;
    }
}

/// Builds the backend of `config`; `turns_done` answers are skipped (resume).
/// Reads the API key from the environment.
pub fn from_config(config: &LlmConfig, turns_done: usize) -> Result<Box<dyn Llm>, LlmError> {
    Ok(match config {
        LlmConfig::Replay { file } => Box::new(Replay::from_file(file, turns_done)?),
        LlmConfig::Openai(c) => Box::new(OpenAi::new(c, api_key(c.key_env(Protocol::OpenAi))?)),
        LlmConfig::Anthropic(c) => Box::new(Anthropic::new(c, api_key(c.key_env(Protocol::Anthropic))?)),
    })
}

fn api_key(var: Option<&str>) -> Result<Option<String>, LlmError> {
    let Some(var) = var else { return Ok(None) };
    match std::env::var(var) {
        Ok(key) if !key.trim().is_empty() => Ok(Some(key.trim().to_string())),
        _ => Err(LlmError::MissingApiKey { var: var.to_string() }),
    }
}

/// What every HTTP backend has: where, which model, the key, the
/// generation settings and the transport.
struct HttpBackend {
    protocol: Protocol,
    url: String,
    model: String,
    key_env: Option<String>,
    key: Option<String>,
    generation: Generation,
    transport: http::Transport,
}

impl HttpBackend {
    fn new(protocol: Protocol, config: &HttpLlmConfig, key: Option<String>) -> HttpBackend {
        HttpBackend {
            protocol,
            url: config.endpoint(protocol),
            model: config.model.clone(),
            key_env: config.key_env(protocol).map(str::to_string),
            transport: http::Transport::new(config.http(), key.clone()),
            key,
            generation: config.generation(),
        }
    }

    /// Whether the default code-fence stop sequence is in use.
    fn fence_stop(&self) -> bool {
        self.generation.stop.iter().any(|s| s == config::CODE_FENCE_STOP)
    }

    /// Sets `max_tokens`, `temperature`, `top_p`, the stop sequences (under
    /// `stop_key`) and `stream` in a request body.
    fn sampling_into(&self, body: &mut Json, stop_key: &str) {
        let g = &self.generation;
        body["max_tokens"] = json!(g.max_tokens);
        if let Some(t) = g.temperature {
            body["temperature"] = json!(t);
        }
        if let Some(p) = g.top_p {
            body["top_p"] = json!(p);
        }
        if !g.stop.is_empty() {
            body[stop_key] = json!(g.stop);
        }
        if self.transport.settings.stream {
            body["stream"] = json!(true);
        }
    }

    /// Adds `extra` to a request body (the config forbids keys ptc sets).
    fn merge_extra(&self, body: &mut Json) {
        for (k, v) in &self.generation.extra {
            body[k] = v.clone();
        }
    }

    /// Sends one call; `read` turns a 200 body into the reply.
    fn send(
        &mut self,
        headers: Vec<(&'static str, String)>,
        body: String,
        read: impl FnMut(ureq::Body, Instant) -> Result<(LlmReply, Option<Duration>), http::ReadError>,
    ) -> Result<LlmReply, LlmError> {
        let request = http::Request { url: &self.url, headers, body };
        let (mut reply, timing) = self.transport.send(&request, read)?;
        reply.timing = timing;
        Ok(reply)
    }

    fn settings(&self) -> Json {
        let (g, h) = (&self.generation, &self.transport.settings);
        json!({
            "backend": self.protocol.name(),
            "url": self.url,
            "model": self.model,
            "api_key_env": self.key_env,
            "max_tokens": g.max_tokens,
            "temperature": g.temperature,
            "top_p": g.top_p,
            "stop": g.stop,
            "seed": g.seed,
            "extra": g.extra,
            "stream": h.stream,
            "connect_timeout_ms": h.connect_timeout.as_millis() as u64,
            "read_timeout_ms": h.read_timeout.as_millis() as u64,
            "deadline_ms": h.deadline.as_millis() as u64,
            "max_retries": h.max_retries,
            "retry_on_timeout": h.retry_on_timeout,
            "backoff_ms": h.backoff.as_millis() as u64,
        })
    }
}

/// Puts back the closing fence that the [`config::CODE_FENCE_STOP`] stop
/// sequence removed (servers leave the stop sequence out of the answer), so
/// the recorded answer and the history the model sees keep whole code
/// blocks. Only when a block is open at the end of `content`.
fn restore_fence(content: &mut String) {
    if content.matches("```").count() % 2 == 1 {
        content.push_str("\n```");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_open_block_gets_its_fence_back() {
        let mut open = "Here:\n```clojure\n(+ 1 2)".to_string();
        restore_fence(&mut open);
        assert_eq!(open, "Here:\n```clojure\n(+ 1 2)\n```");
        let mut closed = open.clone();
        restore_fence(&mut closed);
        assert_eq!(closed, open);
        let mut prose = "No code.".to_string();
        restore_fence(&mut prose);
        assert_eq!(prose, "No code.");
    }

    #[test]
    fn settings_name_the_key_variable_never_the_key() {
        let config = HttpLlmConfig {
            base_url: Some("http://127.0.0.1:9/v1".into()),
            model: "m".into(),
            api_key_env: Some("MY_KEY".into()),
            ..Default::default()
        };
        let s = OpenAi::new(&config, Some("sk-secret".into())).settings();
        assert_eq!(s["url"], "http://127.0.0.1:9/v1/chat/completions");
        assert_eq!((s["api_key_env"].as_str(), s["max_tokens"].as_u64()), (Some("MY_KEY"), Some(2048)));
        assert!(!s.to_string().contains("sk-secret"));
    }

    #[test]
    fn a_missing_key_names_the_variable() {
        let e = api_key(Some("PTC_SURELY_UNSET_VARIABLE")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the environment variable `PTC_SURELY_UNSET_VARIABLE` (api_key_env) is not set; export it with the API key"
        );
    }
}
