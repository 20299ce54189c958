//! One model call over HTTP: timeouts, retries with backoff and
//! `Retry-After`, and a deadline over all of it. Shared by every HTTP
//! backend; the backend only builds the body and reads the answer.
//!
//! What is retried: 429 and 5xx answers, connection failures (including a
//! connection dropped before the answer was complete) and connect timeouts.
//! A read timeout is not, by default: the server may still be generating
//! the abandoned answer, and re-sending it would pile a second generation
//! on top (`retry_on_timeout = true` re-sends on a new connection).

use super::config::HttpSettings;
use super::error::{LlmError, TimeoutKind};
use super::reply::Timing;
use std::time::{Duration, Instant};

/// A request to send: where, extra headers, the JSON body.
pub(crate) struct Request<'a> {
    /// The endpoint.
    pub url: &'a str,
    /// Headers besides `Content-Type` (may hold the API key).
    pub headers: Vec<(&'static str, String)>,
    /// The JSON body.
    pub body: String,
}

/// How reading a 200 answer can fail.
pub(crate) enum ReadError {
    /// The transport failed (timeout, dropped connection).
    Transport(ureq::Error),
    /// The answer is not what the protocol says; not retried.
    Malformed(String),
    /// The server reported an error inside the answer (a streamed error
    /// event) that is worth another attempt.
    Retryable(String),
}

/// The most of an answer ptc reads, streamed or not: 10 MiB (ureq's own
/// default for a body). `max_tokens` asks for far less (2,048 tokens by
/// default: about 10 KB of text, plus the JSON around it); an answer past
/// it is no model's, and a server streaming without end would otherwise
/// fill memory until `deadline_ms`.
pub const MAX_ANSWER_BYTES: u64 = 10 << 20;

/// An answer past [`MAX_ANSWER_BYTES`]: malformed, not asked again.
pub(crate) fn answer_too_long() -> ReadError {
    ReadError::Malformed(format!(
        "the answer passed {} MiB (MAX_ANSWER_BYTES) without ending, far past what max_tokens asks for",
        MAX_ANSWER_BYTES >> 20
    ))
}

/// A whole (not streamed) answer's text, up to [`MAX_ANSWER_BYTES`].
pub(crate) fn read_answer(body: &mut ureq::Body) -> Result<String, ReadError> {
    match body.with_config().limit(MAX_ANSWER_BYTES).lossy_utf8(true).read_to_string() {
        Err(ureq::Error::BodyExceedsLimit(_)) => Err(answer_too_long()),
        other => Ok(other?),
    }
}

impl From<ureq::Error> for ReadError {
    fn from(e: ureq::Error) -> ReadError {
        ReadError::Transport(e)
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Transport(ureq::Error::from(e))
    }
}

/// What to do after a failed attempt.
enum Next {
    /// Give up with this error.
    Stop,
    /// Try again, after the server's wait when it gave one.
    Retry(Option<Duration>),
}

/// Sends requests with the settings' timeouts and retries.
pub(crate) struct Transport {
    /// Timeouts and retries.
    pub settings: HttpSettings,
    agent: ureq::Agent,
    /// Redacted from any text that reaches an error or a log line.
    secret: Option<String>,
    /// A moment no call may run past (the run's `run_timeout_ms`), on top
    /// of `settings.deadline`.
    pub until: Option<Instant>,
}

impl Transport {
    /// A transport; `secret` (the API key) is scrubbed from error texts.
    pub fn new(settings: HttpSettings, secret: Option<String>) -> Transport {
        Transport { agent: new_agent(&settings), settings, secret, until: None }
    }

    /// Sends `request` until an answer is read by `read` (which gets the
    /// body and the moment the request was sent, and returns the answer and
    /// its time to first byte), the retries run out or the deadline passes.
    pub fn send<T>(
        &mut self,
        request: &Request<'_>,
        mut read: impl FnMut(ureq::Body, Instant) -> Result<(T, Option<Duration>), ReadError>,
    ) -> Result<(T, Timing), LlmError> {
        let started = Instant::now();
        let deadline = match self.until {
            Some(until) => self.settings.deadline.min(until.saturating_duration_since(started)),
            None => self.settings.deadline,
        };
        let mut backoff = self.settings.backoff;
        let mut attempts = 0;
        loop {
            let Some(left) = deadline.checked_sub(started.elapsed()).filter(|d| !d.is_zero()) else {
                return Err(gave_up(attempts, self.timeout(TimeoutKind::Deadline, request.url)));
            };
            attempts += 1;
            let sent = Instant::now();
            let (error, next) = match self.attempt(request, left) {
                Ok(body) => match read(body, sent) {
                    Ok((answer, first_byte)) => {
                        let timing = Timing { wall: started.elapsed(), first_byte, attempts };
                        tracing::debug!(
                            url = request.url,
                            attempts,
                            wall_ms = timing.wall.as_millis() as u64,
                            "model answered"
                        );
                        return Ok((answer, timing));
                    }
                    Err(ReadError::Transport(e)) => self.transport_failure(e, request.url),
                    Err(ReadError::Malformed(what)) => {
                        (LlmError::Malformed { url: request.url.into(), what: self.redact(&what) }, Next::Stop)
                    }
                    Err(ReadError::Retryable(detail)) => (
                        LlmError::Connection { url: request.url.into(), detail: self.redact(&detail) },
                        Next::Retry(None),
                    ),
                },
                Err(failure) => failure,
            };
            let wait = match next {
                Next::Retry(after) if attempts <= self.settings.max_retries => after.unwrap_or(backoff),
                _ => return Err(gave_up(attempts, error)),
            };
            if started.elapsed() + wait >= deadline {
                tracing::warn!(
                    url = request.url,
                    wait_ms = wait.as_millis() as u64,
                    "no time left before the deadline to retry"
                );
                return Err(gave_up(attempts, error));
            }
            if matches!(error, LlmError::Timeout { kind: TimeoutKind::Read, .. }) {
                // Drop every pooled connection, so the server sees the
                // abandoned request's connection closed before the new one.
                self.agent = new_agent(&self.settings);
            }
            tracing::warn!(url = request.url, attempt = attempts, wait_ms = wait.as_millis() as u64, reason = %error, "model call failed; retrying");
            std::thread::sleep(wait);
            backoff = backoff.saturating_mul(2);
        }
    }

    /// One request: the body of a 200 answer, or why not and whether to retry.
    fn attempt(&self, request: &Request<'_>, left: Duration) -> Result<ureq::Body, (LlmError, Next)> {
        // The agent holds the connect and read timeouts; the deadline left is per request.
        let mut req = self
            .agent
            .post(request.url)
            .config()
            .timeout_global(Some(left))
            .build()
            .header("Content-Type", "application/json");
        for (name, value) in &request.headers {
            req = req.header(*name, value);
        }
        tracing::debug!(url = request.url, bytes = request.body.len(), "model request");
        let response = req.send(&request.body).map_err(|e| self.transport_failure(e, request.url))?;
        let status = response.status().as_u16();
        if status == 200 {
            return Ok(response.into_body());
        }
        let retry_after = retry_after(response.headers());
        let text = response.into_body().read_to_string().unwrap_or_default();
        let error = LlmError::Status { status, url: request.url.into(), body: self.redact(&error_text(&text)) };
        let retryable = status == 429 || status >= 500;
        Err((error, if retryable { Next::Retry(retry_after) } else { Next::Stop }))
    }

    /// Classifies a transport error.
    fn transport_failure(&self, e: ureq::Error, url: &str) -> (LlmError, Next) {
        let retry_timeouts = if self.settings.retry_on_timeout { Next::Retry(None) } else { Next::Stop };
        match e {
            ureq::Error::Timeout(t) => match t {
                ureq::Timeout::Global => (self.timeout(TimeoutKind::Deadline, url), Next::Stop),
                ureq::Timeout::Connect | ureq::Timeout::Resolve => {
                    (self.timeout(TimeoutKind::Connect, url), Next::Retry(None))
                }
                _ => (self.timeout(TimeoutKind::Read, url), retry_timeouts),
            },
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                (self.timeout(TimeoutKind::Read, url), retry_timeouts)
            }
            e @ (ureq::Error::Io(_)
            | ureq::Error::ConnectionFailed
            | ureq::Error::HostNotFound
            | ureq::Error::Protocol(_)) => {
                (LlmError::Connection { url: url.into(), detail: self.redact(&e.to_string()) }, Next::Retry(None))
            }
            e => (LlmError::Connection { url: url.into(), detail: self.redact(&e.to_string()) }, Next::Stop),
        }
    }

    fn timeout(&self, kind: TimeoutKind, url: &str) -> LlmError {
        let s = &self.settings;
        let after = match kind {
            TimeoutKind::Connect => s.connect_timeout,
            TimeoutKind::Read => s.read_timeout,
            TimeoutKind::Deadline => s.deadline,
        };
        let not_retried = kind == TimeoutKind::Read && !s.retry_on_timeout;
        LlmError::Timeout { kind, after, url: url.into(), not_retried }
    }

    /// `text` with the API key replaced, should a server or proxy echo it.
    fn redact(&self, text: &str) -> String {
        match &self.secret {
            Some(key) if !key.is_empty() => text.replace(key.as_str(), "[api key]"),
            _ => text.to_string(),
        }
    }
}

fn new_agent(settings: &HttpSettings) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(settings.connect_timeout))
        .timeout_per_read(Some(settings.read_timeout))
        .build()
        .into()
}

fn gave_up(attempts: u32, last: LlmError) -> LlmError {
    if attempts > 1 {
        LlmError::GaveUp { attempts, last: Box::new(last) }
    } else {
        last
    }
}

/// The server's wait before a retry: `retry-after-ms` (OpenAI) or
/// `Retry-After` in seconds; an HTTP-date is ignored (the backoff applies).
fn retry_after(headers: &ureq::http::HeaderMap) -> Option<Duration> {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return Some(Duration::from_secs_f64(ms.max(0.0) / 1000.0));
    }
    get("retry-after").and_then(|v| v.parse::<f64>().ok()).map(|s| Duration::from_secs_f64(s.max(0.0)))
}

/// The provider's error message out of an error body (`{"error": {"message"}}`
/// or `{"error": "..."}`), else the start of the body; one line.
fn error_text(body: &str) -> String {
    let json: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = json.as_ref().and_then(|v| {
        let e = v.get("error")?;
        e.get("message").and_then(|m| m.as_str()).or(e.as_str()).map(str::to_string)
    });
    one_line(&message.unwrap_or_else(|| body.to_string()), 300)
}

/// `text` on one line, cut at `max` characters.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max {
        format!("{}...", flat.chars().take(max).collect::<String>())
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_give_the_providers_message() {
        assert_eq!(error_text(r#"{"error": {"message": "model not found", "type": "x"}}"#), "model not found");
        assert_eq!(error_text(r#"{"error": "bad key"}"#), "bad key");
        assert_eq!(error_text("<html>\n  Not Found\n</html>"), "<html> Not Found </html>");
        assert_eq!(one_line(&"x".repeat(10), 4), "xxxx...");
    }

    #[test]
    fn the_key_never_survives_redaction() {
        let t = Transport::new(HttpSettings::default(), Some("sk-abc".into()));
        assert_eq!(t.redact("invalid key sk-abc given"), "invalid key [api key] given");
    }
}
