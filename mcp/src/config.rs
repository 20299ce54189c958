//! What the host knows of one MCP server before it starts it.

use std::path::PathBuf;
use std::time::Duration;

/// A call that gets no answer within this long fails (`timeout_ms`).
pub const DEFAULT_CALL_TIMEOUT_MS: u64 = 30_000;

/// Start, handshake and tool listing must be done within this long (`startup_timeout_ms`).
pub const DEFAULT_STARTUP_TIMEOUT_MS: u64 = 10_000;

/// How ptc reaches a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A child process speaking MCP on stdin/stdout; its stderr is kept for error messages.
    Stdio {
        /// Program and arguments.
        command: Vec<String>,
        /// Variables added to ptc's environment.
        env: Vec<(String, String)>,
        /// The folder it runs in.
        dir: PathBuf,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The endpoint, e.g. `http://127.0.0.1:8000/mcp`.
        url: String,
        /// Headers sent with every request.
        headers: Vec<(String, String)>,
        /// A bearer token (`Authorization: Bearer ...`), read from the
        /// environment by the host; never printed.
        bearer_token: Option<String>,
    },
}

/// One `[mcp.NAME]` server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// The server's name in the config: the prefix of its tools (`NAME.tool`).
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
    /// Longest wait for one tool call.
    pub call_timeout: Duration,
    /// Longest wait for start, handshake and the tool list.
    pub startup_timeout: Duration,
}

impl ServerConfig {
    /// A server with the default timeouts.
    pub fn new(name: impl Into<String>, transport: Transport) -> ServerConfig {
        ServerConfig {
            name: name.into(),
            transport,
            call_timeout: Duration::from_millis(DEFAULT_CALL_TIMEOUT_MS),
            startup_timeout: Duration::from_millis(DEFAULT_STARTUP_TIMEOUT_MS),
        }
    }

    /// `stdio: prog args` or `http: URL`, for messages.
    pub fn describe(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, .. } => format!("stdio: {}", command.join(" ")),
            Transport::Http { url, .. } => format!("http: {url}"),
        }
    }
}
