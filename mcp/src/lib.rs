//! `ptc-mcp`: MCP servers as ptc tools, through the official Rust SDK
//! (`rmcp`, client side).
//!
//! The host is synchronous; rmcp is async. This crate keeps tokio inside:
//! a [`Runtime`] is one current-thread tokio runtime on a thread of its own
//! ("ptc-mcp"), and every blocking method here hands a future to it and
//! waits on a plain channel, so `pmap` threads may call tools of one server
//! at the same time (rmcp multiplexes the requests on one connection).
//!
//! - [`ServerConfig`]: one `[mcp.NAME]` table (stdio command or Streamable
//!   HTTP URL, per-call and start-up timeouts);
//! - [`McpServer::start`]: spawn or connect, initialize, list the tools
//!   ([`McpTool`], with the signature text the model sees, [`schema`]);
//! - [`McpServer::call`]: one `tools/call` within the server's timeout, its
//!   arguments in the tool's declared form ([`arguments`]), the result as
//!   JSON ([`content`]) or a [`CallError`] naming server and tool.
//!
//! Nothing here knows of Lisp, sessions or the config file format.

pub mod arguments;
mod client;
mod config;
pub mod content;
mod error;
mod runtime;
pub mod schema;

pub use client::{stop_servers_for_exit, McpServer, McpTool};
pub use config::{ServerConfig, Transport, DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS};
pub use error::{CallError, StartError};
pub use runtime::Runtime;
