//! `[mcp.NAME]` tables and what an agent's `tools` list may name beside
//! `[tool.NAME]` tables and built-ins:
//!
//! - `SERVER.*`: every tool of `[mcp.SERVER]`; `SERVER.TOOL`: one of them
//!   (the program calls it as `tool/SERVER.TOOL`; whether the server has
//!   it is checked when the run starts it);
//! - `agent:NAME`: agent `NAME` of this config, called as `tool/NAME`;
//! - `llm-query`: one direct model call through the agent's backend;
//! - `turn-output`: an earlier turn of the run as it ran.

use super::{CacheRule, ConfigError, McpConfig, Source, ToolConfig, AGENT_PREFIX, LLM_QUERY, TURN_OUTPUT};
use indexmap::IndexMap;
#[cfg(feature = "mcp")]
use ptc_mcp::{ServerConfig, Transport, DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS};
use serde::Deserialize;
use std::ops::Range;
use std::path::Path;
use toml::Spanned;
#[cfg(feature = "mcp")]
use {std::path::PathBuf, std::time::Duration};

/// `command = "prog"` or `command = ["prog", "arg"]`.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
#[derive(Deserialize)]
#[serde(untagged)]
enum Command {
    One(String),
    Many(Vec<String>),
}

// Read whole in every build, so that a build without MCP still reports
// the table's own mistakes first.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMcp {
    #[serde(default)]
    command: Option<Command>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: IndexMap<String, String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    headers: IndexMap<String, String>,
    #[serde(default)]
    bearer_token_env: Option<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    startup_timeout_ms: Option<u64>,
    #[serde(default)]
    cache: CacheRule,
}

/// A `[mcp.NAME]` table in a build without the `mcp` feature: one clear
/// error, at the table.
#[cfg(not(feature = "mcp"))]
pub(super) fn mcp_server(
    src: &Source<'_>,
    _base: &Path,
    name: &str,
    raw: Spanned<RawMcp>,
) -> Result<McpConfig, ConfigError> {
    Err(src.error(raw.span(), format!("[mcp.{name}] {}", ptc_agent::mcp::NOT_BUILT)))
}

/// Checks one `[mcp.NAME]` table.
#[cfg(feature = "mcp")]
pub(super) fn mcp_server(
    src: &Source<'_>,
    base: &Path,
    name: &str,
    raw: Spanned<RawMcp>,
) -> Result<McpConfig, ConfigError> {
    let span = raw.span();
    let raw = raw.into_inner();
    let fail = |message: String| src.error(span.clone(), format!("mcp `{name}`: {message}"));
    if !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_') {
        return Err(fail(
            "a server name may hold letters, digits, `-` and `_` (it prefixes its tools: NAME.tool)".into(),
        ));
    }
    let transport = match (raw.command, raw.url) {
        (Some(command), None) => {
            if !raw.headers.is_empty() || raw.bearer_token_env.is_some() {
                return Err(fail("`headers` and `bearer_token_env` are for `url` servers".into()));
            }
            let mut command = match command {
                Command::One(program) => vec![program],
                Command::Many(list) => list,
            };
            command.extend(raw.args);
            if command.is_empty() || command[0].is_empty() {
                return Err(fail("`command` needs at least the program".into()));
            }
            let dir = if base.as_os_str().is_empty() { PathBuf::from(".") } else { base.to_path_buf() };
            Transport::Stdio { command, env: raw.env.into_iter().collect(), dir }
        }
        (None, Some(url)) => {
            if !raw.args.is_empty() || !raw.env.is_empty() {
                return Err(fail("`args` and `env` are for `command` servers".into()));
            }
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(fail(format!("`url` must start with http:// or https://, got {url:?}")));
            }
            Transport::Http { url, headers: raw.headers.into_iter().collect(), bearer_token: None }
        }
        (Some(_), Some(_)) => return Err(fail("set `command` (stdio) or `url` (Streamable HTTP), not both".into())),
        (None, None) => {
            return Err(fail("needs `command = [...]` (stdio) or `url = \"...\"` (Streamable HTTP)".into()))
        }
    };
    let mut server = ServerConfig::new(name, transport);
    server.call_timeout = Duration::from_millis(raw.timeout_ms.unwrap_or(DEFAULT_CALL_TIMEOUT_MS));
    server.startup_timeout = Duration::from_millis(raw.startup_timeout_ms.unwrap_or(DEFAULT_STARTUP_TIMEOUT_MS));
    Ok(McpConfig { server, bearer_token_env: raw.bearer_token_env, cache: raw.cache, location: src.at(span.start) })
}

/// The error for a `tools` entry that names nothing.
pub(super) fn unknown_tool(
    src: &Source<'_>,
    span: Range<usize>,
    agent: &str,
    entry: &str,
    tools: &IndexMap<String, ToolConfig>,
    mcp: &IndexMap<String, McpConfig>,
) -> ConfigError {
    let mut names: Vec<String> = tools.keys().cloned().collect();
    names.extend(crate::tools::BUILTIN_NAMES.iter().map(|s| s.to_string()));
    names.extend(mcp.keys().map(|s| format!("{s}.*")));
    names.push(LLM_QUERY.into());
    names.push(TURN_OUTPUT.into());
    names.push(format!("{AGENT_PREFIX}AGENT"));
    src.error(
        span,
        format!(
            "agent `{agent}` uses tool `{entry}`, which is neither a [tool.NAME] table, built in, a tool of an [mcp.NAME] server (SERVER.TOOL or SERVER.*), `agent:NAME` of a defined agent, `llm-query` nor `turn-output` (known: {})",
            names.join(", ")
        ),
    )
}
