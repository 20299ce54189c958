//! Why a server could not start, or a call failed: one line each, naming
//! the server (and the tool), and what to change where that is known.

use std::fmt;

/// A server that could not be started, reached or listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartError {
    /// The server's name.
    pub server: String,
    /// `stdio: prog args` or `http: URL`.
    pub target: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mcp server `{}` ({}): {}", self.server, self.target, self.message)
    }
}

impl std::error::Error for StartError {}

/// A tool call that failed. The `Display` is what the model reads after
/// `tool/NAME failed: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The tool ran and reported an error (`isError`): its own message.
    Tool(String),
    /// No answer within the server's `timeout_ms` (the request is cancelled).
    Timeout {
        /// The server.
        server: String,
        /// The limit.
        ms: u64,
    },
    /// The server is gone (process exited, connection closed).
    Closed {
        /// The server.
        server: String,
        /// What is known: exit status, last stderr line.
        detail: String,
    },
    /// The server answered with a protocol error (JSON-RPC error, malformed answer).
    Protocol {
        /// The server.
        server: String,
        /// Its message.
        message: String,
    },
    /// The arguments are not a map.
    Arguments(String),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Tool(m) => f.write_str(m),
            CallError::Timeout { server, ms } => {
                write!(
                    f,
                    "mcp server `{server}` did not answer within {ms} ms (its timeout_ms); the call was cancelled"
                )
            }
            CallError::Closed { server, detail } => {
                write!(f, "mcp server `{server}` is gone ({detail}); its tools cannot be called in this run")
            }
            CallError::Protocol { server, message } => write!(f, "mcp server `{server}`: {message}"),
            CallError::Arguments(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CallError {}
