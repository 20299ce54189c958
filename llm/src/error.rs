//! Why a model call failed: one variant per thing a user can act on, each
//! one line naming the URL, file or setting involved. Never the API key.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Which time limit ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutKind {
    /// Setting up the connection (`connect_timeout_ms`); always retried.
    Connect,
    /// The server was silent too long (`read_timeout_ms`); retried only with `retry_on_timeout`.
    Read,
    /// The call's deadline (`deadline_ms`), retries included; never retried.
    Deadline,
}

impl TimeoutKind {
    /// The setting that controls it.
    pub fn setting(self) -> &'static str {
        match self {
            TimeoutKind::Connect => "connect_timeout_ms",
            TimeoutKind::Read => "read_timeout_ms",
            TimeoutKind::Deadline => "deadline_ms",
        }
    }
}

/// A failed model call (after any retries).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LlmError {
    /// `api_key_env` names a variable that is not set (or empty).
    MissingApiKey {
        /// The variable.
        var: String,
    },
    /// A time limit ran out.
    Timeout {
        /// Which one.
        kind: TimeoutKind,
        /// Its value.
        after: Duration,
        /// The URL tried.
        url: String,
        /// Whether a read timeout was left unretried because `retry_on_timeout` is off.
        not_retried: bool,
    },
    /// The server answered with an error status.
    Status {
        /// The HTTP status.
        status: u16,
        /// The URL tried.
        url: String,
        /// The start of the response body (the provider's error message when it has one).
        body: String,
    },
    /// No connection, or it broke before the answer was complete.
    Connection {
        /// The URL tried.
        url: String,
        /// What the transport said.
        detail: String,
    },
    /// The answer arrived but is not what the protocol says.
    Malformed {
        /// The URL tried.
        url: String,
        /// What is wrong.
        what: String,
    },
    /// Retries ran out (or the deadline left no time for one); the last failure.
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// Why the last one failed.
        last: Box<LlmError>,
    },
    /// The replay file cannot be read or is not a JSON array of strings.
    ReplayFile {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The replay file has no answer for this turn.
    ReplayExhausted {
        /// The file.
        file: PathBuf,
        /// Answers it has.
        responses: usize,
        /// The turn that needs one.
        turn: usize,
    },
}

impl LlmError {
    /// The failure behind any `GaveUp`.
    pub fn last(&self) -> &LlmError {
        match self {
            LlmError::GaveUp { last, .. } => last.last(),
            other => other,
        }
    }
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlmError::MissingApiKey { var } => {
                write!(f, "the environment variable `{var}` (api_key_env) is not set; export it with the API key")
            }
            LlmError::Timeout { kind, after, url, not_retried } => {
                let what = match kind {
                    TimeoutKind::Connect => "could not connect",
                    TimeoutKind::Read => "no answer",
                    TimeoutKind::Deadline => "the model call did not finish",
                };
                write!(f, "{url}: {what} within {} ms ({})", after.as_millis(), kind.setting())?;
                if *not_retried {
                    f.write_str("; not re-sent, as the server may still be generating it (retry_on_timeout = true re-sends on a new connection)")?;
                }
                Ok(())
            }
            LlmError::Status { status, url, body } => {
                write!(f, "{url}: HTTP {status}")?;
                if !body.is_empty() {
                    write!(f, ": {body}")?;
                }
                match status {
                    404 => f.write_str(" (check base_url and model: requests go to BASE/chat/completions or BASE/messages, and a base_url without a path gets /v1)")?,
                    401 | 403 => f.write_str(" (the server refused the API key: check the variable api_key_env names, and that base_url is that key's provider)")?,
                    429 => f.write_str(" (rate limited: try again later)")?,
                    500..=599 => f.write_str(" (the server failed, not the request: try again later)")?,
                    _ => {}
                }
                Ok(())
            }
            LlmError::Connection { url, detail } => write!(
                f,
                "{url}: connection failed: {detail} (is a server answering at base_url? `ptc doctor` checks every agent's endpoint)"
            ),
            LlmError::Malformed { url, what } => write!(
                f,
                "{url}: malformed response: {what} (is base_url the model API, not a page or a proxy? `ptc doctor` checks every agent's endpoint)"
            ),
            LlmError::GaveUp { attempts, last } => write!(f, "giving up after {attempts} attempts: {last}"),
            LlmError::ReplayFile { file, detail } => write!(f, "replay file {}: {detail}", file.display()),
            LlmError::ReplayExhausted { file, responses, turn } => {
                write!(f, "replay file {} has {responses} responses, but turn {turn} needs another one", file.display())
            }
        }
    }
}

impl std::error::Error for LlmError {}
