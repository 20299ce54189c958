//! The `llm = { ... }` table of an agent: which backend, and the
//! generation, timeout and retry settings of the HTTP backends, with their
//! defaults. `strategies.toml` parses it with serde (unknown keys are errors
//! with file:line:col); [`LlmConfig::check`] adds the per-backend rules.

use serde::Deserialize;
use serde_json::{Map, Value as Json};
use std::path::PathBuf;
use std::time::Duration;

/// `max_tokens` when the config does not say: room for a long program and a
/// few lines of reasoning, and a bound on a server that would otherwise
/// generate until its context is full.
pub const DEFAULT_MAX_TOKENS: u32 = 2048;

/// The default stop sequence: the end of a code block followed by a blank
/// line, where models start explaining what the block does.
///
/// A closing fence on its own line (`"\n```\n"`) is not safe: a bare
/// opening fence on its own line is the same text, and a model that opens
/// its block with ```` ``` ```` instead of ```` ```clojure ```` would be cut
/// before its program (SmolLM2-135M does, see docs/agents.md). An opening
/// fence is followed by code, not by a blank line, so this one ends the
/// answer only after a block. A model that closes its block and stops
/// needs no stop sequence; one that goes on without a blank line is bounded
/// by `max_tokens`, and the first block is the one that runs anyway.
pub const CODE_FENCE_STOP: &str = "\n```\n\n";

/// Default connect timeout (DNS, TCP and TLS): 10 s.
pub const DEFAULT_CONNECT_TIMEOUT_MS: u64 = 10_000;
/// Default read timeout (longest silence of the server): 120 s.
pub const DEFAULT_READ_TIMEOUT_MS: u64 = 120_000;
/// Default deadline of one model call, retries and waits included: 300 s.
pub const DEFAULT_DEADLINE_MS: u64 = 300_000;
/// Default retries after the first attempt.
pub const DEFAULT_MAX_RETRIES: u32 = 3;
/// Default first wait before a retry (doubles after each one).
pub const DEFAULT_BACKOFF_MS: u64 = 500;
/// The Anthropic server when `base_url` is not set.
pub const ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
/// The environment variable the Anthropic backend reads when `api_key_env` is not set.
pub const ANTHROPIC_KEY_ENV: &str = "ANTHROPIC_API_KEY";

/// `llm = { backend = "replay" | "openai" | "anthropic", ... }`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "backend", rename_all = "lowercase", deny_unknown_fields)]
pub enum LlmConfig {
    /// Answers from a JSON file (an array of strings, one per turn).
    Replay {
        /// The transcript file (relative to the config file).
        file: PathBuf,
    },
    /// An OpenAI-compatible `/chat/completions` server (OpenAI, vLLM,
    /// llama.cpp, Ollama, ...).
    Openai(HttpLlmConfig),
    /// The Anthropic Messages API.
    Anthropic(HttpLlmConfig),
}

/// The settings of an HTTP backend. Every field but `model` is optional;
/// `None` means the documented default.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpLlmConfig {
    /// Server root, with or without `/v1` (see [`endpoint`]). Required by
    /// `openai`; `anthropic` defaults to [`ANTHROPIC_BASE_URL`].
    #[serde(default)]
    pub base_url: Option<String>,
    /// Model name.
    pub model: String,
    /// Environment variable holding the API key (never printed or stored).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// Completion token limit (default [`DEFAULT_MAX_TOKENS`]).
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// Sampling temperature (default: the server's).
    #[serde(default)]
    pub temperature: Option<f64>,
    /// Nucleus sampling (default: the server's).
    #[serde(default)]
    pub top_p: Option<f64>,
    /// Stop sequences; replaces the default `[CODE_FENCE_STOP]`; `[]` sends none.
    #[serde(default)]
    pub stop: Option<Vec<String>>,
    /// Sampling seed (`openai` only).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Provider-specific fields merged into the request body.
    #[serde(default)]
    pub extra: Option<Map<String, Json>>,
    /// Stream the answer (time to first byte; the read timeout applies
    /// between chunks). Default false.
    #[serde(default)]
    pub stream: Option<bool>,
    /// Connect timeout (default [`DEFAULT_CONNECT_TIMEOUT_MS`]).
    #[serde(default)]
    pub connect_timeout_ms: Option<u64>,
    /// Longest silence while waiting for the answer (default
    /// [`DEFAULT_READ_TIMEOUT_MS`]); `timeout_ms` is accepted as its old name.
    #[serde(default, alias = "timeout_ms")]
    pub read_timeout_ms: Option<u64>,
    /// Deadline of one model call, retries included (default [`DEFAULT_DEADLINE_MS`]).
    #[serde(default)]
    pub deadline_ms: Option<u64>,
    /// Retries after the first attempt (default [`DEFAULT_MAX_RETRIES`]).
    #[serde(default)]
    pub max_retries: Option<u32>,
    /// Re-send the request after a read timeout (default false: the server
    /// may still be generating the abandoned answer).
    #[serde(default)]
    pub retry_on_timeout: Option<bool>,
    /// First wait before a retry, doubling (default [`DEFAULT_BACKOFF_MS`]).
    #[serde(default)]
    pub backoff_ms: Option<u64>,
}

/// The `anthropic-version` header Anthropic's protocol sends.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// Which HTTP protocol a backend speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// `POST {base}/chat/completions`.
    OpenAi,
    /// `POST {base}/messages`.
    Anthropic,
}

impl Protocol {
    /// The `backend = "..."` name.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::OpenAi => "openai",
            Protocol::Anthropic => "anthropic",
        }
    }

    /// The path under the versioned base URL.
    fn path(self) -> &'static str {
        match self {
            Protocol::OpenAi => "/chat/completions",
            Protocol::Anthropic => "/messages",
        }
    }

    /// The headers that carry `key`: `Authorization: Bearer KEY` for
    /// OpenAI's protocol; `x-api-key: KEY` and `anthropic-version` for
    /// Anthropic's (sent with or without a key).
    pub fn auth_headers(self, key: Option<&str>) -> Vec<(&'static str, String)> {
        match self {
            Protocol::OpenAi => key.iter().map(|k| ("Authorization", format!("Bearer {k}"))).collect(),
            Protocol::Anthropic => {
                let mut headers = vec![("anthropic-version", ANTHROPIC_VERSION.to_string())];
                headers.extend(key.map(|k| ("x-api-key", k.to_string())));
                headers
            }
        }
    }

    /// Body keys ptc sets itself, which `extra` may not name.
    fn own_keys(self) -> &'static [&'static str] {
        match self {
            Protocol::OpenAi => {
                &["model", "messages", "max_tokens", "temperature", "top_p", "stop", "seed", "stream", "stream_options"]
            }
            Protocol::Anthropic => {
                &["model", "system", "messages", "max_tokens", "temperature", "top_p", "stop_sequences", "stream"]
            }
        }
    }
}

/// Generation settings, defaults applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// Completion token limit.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    pub top_p: Option<f64>,
    /// Stop sequences.
    pub stop: Vec<String>,
    /// Sampling seed.
    pub seed: Option<u64>,
    /// Extra body fields.
    pub extra: Map<String, Json>,
}

/// Timeouts and retries, defaults applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpSettings {
    /// DNS, TCP and TLS setup.
    pub connect_timeout: Duration,
    /// Longest silence of the server while an answer is awaited or streamed.
    pub read_timeout: Duration,
    /// One model call, retries and their waits included.
    pub deadline: Duration,
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Whether a read timeout is retried (on a new connection).
    pub retry_on_timeout: bool,
    /// First wait before a retry; doubles after each one.
    pub backoff: Duration,
    /// Whether answers are streamed.
    pub stream: bool,
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpLlmConfig::default().http()
    }
}

impl LlmConfig {
    /// The per-backend rules serde cannot express; the message names the key.
    pub fn check(&self) -> Result<(), String> {
        let (protocol, c) = match self {
            LlmConfig::Replay { .. } => return Ok(()),
            LlmConfig::Openai(c) => (Protocol::OpenAi, c),
            LlmConfig::Anthropic(c) => (Protocol::Anthropic, c),
        };
        c.check(protocol)
    }
}

impl HttpLlmConfig {
    fn check(&self, protocol: Protocol) -> Result<(), String> {
        let backend = protocol.name();
        if protocol == Protocol::OpenAi && self.base_url.is_none() {
            return Err(format!(
                "backend `{backend}` needs `base_url` (e.g. \"http://127.0.0.1:8080\" or \"https://api.openai.com/v1\")"
            ));
        }
        if let Some(url) = &self.base_url {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!("`base_url` must start with http:// or https://, got `{url}`"));
            }
        }
        if protocol == Protocol::Anthropic && self.seed.is_some() {
            return Err("backend `anthropic` has no `seed`; remove it".into());
        }
        if self.max_tokens == Some(0) {
            return Err("`max_tokens` must be at least 1".into());
        }
        if self.temperature.is_some_and(|t| t.is_nan() || t < 0.0) {
            return Err("`temperature` must be 0 or more".into());
        }
        if self.top_p.is_some_and(|p| !(p > 0.0 && p <= 1.0)) {
            return Err("`top_p` must be in (0, 1]".into());
        }
        if self.stop.as_ref().is_some_and(|s| s.iter().any(String::is_empty)) {
            return Err("`stop` sequences must not be empty strings".into());
        }
        for (key, ms) in [
            ("connect_timeout_ms", self.connect_timeout_ms),
            ("read_timeout_ms", self.read_timeout_ms),
            ("deadline_ms", self.deadline_ms),
        ] {
            if ms == Some(0) {
                return Err(format!("`{key}` must be at least 1"));
            }
        }
        if let Some(key) = self.extra.iter().flat_map(|e| e.keys()).find(|k| protocol.own_keys().contains(&k.as_str()))
        {
            return Err(format!("`extra` may not set `{key}`, which ptc sets itself (use its own key, if it has one)"));
        }
        Ok(())
    }

    /// The generation settings with defaults applied.
    pub fn generation(&self) -> Generation {
        Generation {
            max_tokens: self.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            temperature: self.temperature,
            top_p: self.top_p,
            stop: self.stop.clone().unwrap_or_else(|| vec![CODE_FENCE_STOP.to_string()]),
            seed: self.seed,
            extra: self.extra.clone().unwrap_or_default(),
        }
    }

    /// Timeouts and retries with defaults applied.
    pub fn http(&self) -> HttpSettings {
        let ms = |v: Option<u64>, default| Duration::from_millis(v.unwrap_or(default));
        HttpSettings {
            connect_timeout: ms(self.connect_timeout_ms, DEFAULT_CONNECT_TIMEOUT_MS),
            read_timeout: ms(self.read_timeout_ms, DEFAULT_READ_TIMEOUT_MS),
            deadline: ms(self.deadline_ms, DEFAULT_DEADLINE_MS),
            max_retries: self.max_retries.unwrap_or(DEFAULT_MAX_RETRIES),
            retry_on_timeout: self.retry_on_timeout.unwrap_or(false),
            backoff: ms(self.backoff_ms, DEFAULT_BACKOFF_MS),
            stream: self.stream.unwrap_or(false),
        }
    }

    /// The environment variable of the key: `api_key_env`, else
    /// [`ANTHROPIC_KEY_ENV`] for `anthropic`, else none.
    pub fn key_env(&self, protocol: Protocol) -> Option<&str> {
        match (&self.api_key_env, protocol) {
            (Some(var), _) => Some(var),
            (None, Protocol::Anthropic) => Some(ANTHROPIC_KEY_ENV),
            (None, Protocol::OpenAi) => None,
        }
    }

    /// The URL requests go to (see [`endpoint`]).
    pub fn endpoint(&self, protocol: Protocol) -> String {
        let base = match (&self.base_url, protocol) {
            (Some(b), _) => b.as_str(),
            (None, _) => ANTHROPIC_BASE_URL,
        };
        endpoint(base, protocol)
    }

    /// The server's model list (`GET {base}/models`, in both protocols),
    /// beside [`HttpLlmConfig::endpoint`]: what `ptc doctor` asks to
    /// learn whether the key is accepted.
    pub fn models_endpoint(&self, protocol: Protocol) -> String {
        let chat = self.endpoint(protocol);
        format!("{}/models", chat.strip_suffix(protocol.path()).unwrap_or(&chat))
    }
}

/// The URL of `protocol` under `base_url`, following the OpenAI clients'
/// convention that `base_url` is everything before `/chat/completions`:
///
/// - a bare server (`http://127.0.0.1:8080`, trailing `/` or not) gets `/v1`;
/// - a base with a path is used as is: `http://host/v1`, `https://host/openai/v1`,
///   `https://host/v1beta/openai`;
/// - a full endpoint (ending in `/chat/completions` or `/messages`) is kept.
pub fn endpoint(base_url: &str, protocol: Protocol) -> String {
    let base = base_url.trim_end_matches('/');
    if base.ends_with(protocol.path()) {
        return base.to_string();
    }
    let after_scheme = base.split_once("://").map_or(base, |(_, rest)| rest);
    let has_path = after_scheme.contains('/');
    if has_path {
        format!("{base}{}", protocol.path())
    } else {
        format!("{base}/v1{}", protocol.path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_with_or_without_v1_reach_the_same_endpoint() {
        let chat = "http://127.0.0.1:8088/v1/chat/completions";
        for base in [
            "http://127.0.0.1:8088",
            "http://127.0.0.1:8088/",
            "http://127.0.0.1:8088/v1",
            "http://127.0.0.1:8088/v1/",
            chat,
        ] {
            assert_eq!(endpoint(base, Protocol::OpenAi), chat, "{base}");
        }
        assert_eq!(
            endpoint("https://host/v1beta/openai/", Protocol::OpenAi),
            "https://host/v1beta/openai/chat/completions"
        );
        assert_eq!(endpoint("https://api.anthropic.com", Protocol::Anthropic), "https://api.anthropic.com/v1/messages");
        assert_eq!(endpoint("http://h:1/v1", Protocol::Anthropic), "http://h:1/v1/messages");
    }

    #[test]
    fn defaults_and_per_backend_rules() {
        let c = HttpLlmConfig { base_url: Some("http://h".into()), model: "m".into(), ..Default::default() };
        let g = c.generation();
        assert_eq!((g.max_tokens, g.stop.as_slice()), (DEFAULT_MAX_TOKENS, [CODE_FENCE_STOP.to_string()].as_slice()));
        let h = c.http();
        assert_eq!((h.max_retries, h.retry_on_timeout, h.stream), (3, false, false));
        assert_eq!(h.read_timeout, Duration::from_secs(120));
        assert!(LlmConfig::Openai(c.clone()).check().is_ok());
        let no_url = HttpLlmConfig { base_url: None, ..c.clone() };
        assert!(LlmConfig::Openai(no_url.clone()).check().unwrap_err().contains("needs `base_url`"));
        assert!(LlmConfig::Anthropic(no_url.clone()).check().is_ok());
        assert_eq!(no_url.endpoint(Protocol::Anthropic), "https://api.anthropic.com/v1/messages");
        assert_eq!(no_url.key_env(Protocol::Anthropic), Some(ANTHROPIC_KEY_ENV));
        let seeded = HttpLlmConfig { seed: Some(1), ..c.clone() };
        assert!(LlmConfig::Openai(seeded.clone()).check().is_ok());
        assert_eq!(LlmConfig::Anthropic(seeded).check().unwrap_err(), "backend `anthropic` has no `seed`; remove it");
        let extra = HttpLlmConfig { extra: Some(Map::from_iter([("stream".into(), Json::Bool(true))])), ..c.clone() };
        assert!(LlmConfig::Openai(extra).check().unwrap_err().contains("may not set `stream`"));
        let empty_stop = HttpLlmConfig { stop: Some(vec![String::new()]), ..c.clone() };
        assert!(LlmConfig::Openai(empty_stop).check().is_err());
        let zero = HttpLlmConfig { read_timeout_ms: Some(0), ..c };
        assert_eq!(LlmConfig::Openai(zero).check().unwrap_err(), "`read_timeout_ms` must be at least 1");
    }
}
