//! The MCP servers of one run: started when the run is prepared (every
//! server an agent's `tools` names, once), their tools picked by the
//! agent's `SERVER.*` / `SERVER.TOOL` entries, stopped when the run ends.
//!
//! The program calls a server's tool as `tool/SERVER.TOOL`: the server
//! prefix keeps two servers' tools apart and shows in every trace line.

use crate::config::{Agent, Config, ToolRef};
use crate::tools::Tool;
use std::fmt;
#[cfg(feature = "mcp")]
use {
    crate::config::McpConfig,
    crate::tools::McpTool,
    indexmap::IndexMap,
    ptc_mcp::{McpServer, Runtime, StartError, Transport},
    std::sync::Arc,
};

/// What a build without the `mcp` cargo feature says of an MCP server it
/// is asked for (after the server's name or `[mcp.NAME]` table).
pub const NOT_BUILT: &str =
    "needs MCP, but this ptc was built without the \"mcp\" feature; rebuild with default features (cargo install ptc-host)";

/// Why an agent's MCP tools are not available.
#[derive(Debug)]
pub enum McpError {
    /// The runtime thread could not start.
    Runtime(String),
    /// A server did not start (spawn, handshake, tool list, start-up timeout).
    #[cfg(feature = "mcp")]
    Start(StartError),
    /// The agent names an MCP server, but this build has no MCP client
    /// (built without the `mcp` feature).
    NotBuilt {
        /// The server.
        server: String,
    },
    /// `bearer_token_env` names a variable that is not set.
    Token {
        /// The server.
        server: String,
        /// The variable.
        var: String,
    },
    /// The agent names a tool the server does not list.
    NoSuchTool {
        /// The agent.
        agent: String,
        /// The server.
        server: String,
        /// The tool asked for.
        tool: String,
        /// What the server offers.
        listed: Vec<String>,
    },
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpError::Runtime(e) => write!(f, "cannot start the MCP runtime thread: {e}"),
            #[cfg(feature = "mcp")]
            McpError::Start(e) => e.fmt(f),
            McpError::NotBuilt { server } => write!(f, "mcp server `{server}` {NOT_BUILT}"),
            McpError::Token { server, var } => {
                write!(f, "mcp server `{server}`: the environment variable `{var}` (bearer_token_env) is not set")
            }
            McpError::NoSuchTool { agent, server, tool, listed } => write!(
                f,
                "agent `{agent}` uses tool `{server}.{tool}`, but mcp server `{server}` has no tool `{tool}` (it lists: {})",
                listed.join(", ")
            ),
        }
    }
}

impl std::error::Error for McpError {}

/// The started servers of a run, by config name.
#[derive(Default)]
pub struct McpServers {
    #[cfg(feature = "mcp")]
    servers: IndexMap<String, Arc<McpServer>>,
}

impl McpServers {
    /// Starts every server `agent`'s tools name, one after another, each
    /// within its `startup_timeout_ms`.
    pub fn start(config: &Config, agent: &Agent) -> Result<McpServers, McpError> {
        let mut wanted: Vec<&str> = Vec::new();
        for entry in &agent.tools {
            if let Some(ToolRef::McpServer(s) | ToolRef::McpTool(s, _)) = tool_ref(config, entry) {
                if let Some((name, _)) = config.mcp.get_key_value(s.as_str()) {
                    if !wanted.contains(&name.as_str()) {
                        wanted.push(name);
                    }
                }
            }
        }
        match wanted.first() {
            None => Ok(McpServers::default()),
            #[cfg(not(feature = "mcp"))]
            Some(server) => Err(McpError::NotBuilt { server: server.to_string() }),
            #[cfg(feature = "mcp")]
            Some(_) => McpServers::start_all(config, &wanted),
        }
    }

    /// Starts the servers named `wanted`, on one runtime thread.
    #[cfg(feature = "mcp")]
    fn start_all(config: &Config, wanted: &[&str]) -> Result<McpServers, McpError> {
        let runtime = Arc::new(Runtime::new().map_err(|e| McpError::Runtime(e.to_string()))?);
        let mut servers = IndexMap::new();
        for &name in wanted {
            let server = start_one(&config.mcp[name], runtime.clone())?;
            servers.insert(name.to_string(), Arc::new(server));
        }
        Ok(McpServers { servers })
    }

    /// Starts every `[mcp.NAME]` server of `config` in turn, as a run
    /// would (handshake and tool list within its `startup_timeout_ms`),
    /// and closes it again: the names of the tools each lists, or why it
    /// did not start (`ptc doctor`).
    #[cfg(feature = "mcp")]
    pub fn probe(config: &Config) -> Vec<(String, Result<Vec<String>, McpError>)> {
        let runtime = match Runtime::new() {
            Ok(runtime) => Arc::new(runtime),
            Err(e) => {
                let names = config.mcp.keys();
                return names.map(|name| (name.clone(), Err(McpError::Runtime(e.to_string())))).collect();
            }
        };
        let started = |mcp| start_one(mcp, runtime.clone()).map(|s| s.tools().iter().map(|t| t.name.clone()).collect());
        config.mcp.iter().map(|(name, mcp)| (name.clone(), started(mcp))).collect()
    }

    /// The tools of `entry` (`SERVER.*`: all, in the server's order;
    /// `SERVER.TOOL`: that one).
    #[cfg(not(feature = "mcp"))]
    pub fn tools(&self, _config: &Config, _agent: &Agent, _entry: &ToolRef) -> Result<Vec<Tool>, McpError> {
        // `start` refused every agent that names an MCP server.
        Ok(Vec::new())
    }

    /// The tools of `entry` (`SERVER.*`: all, in the server's order;
    /// `SERVER.TOOL`: that one).
    #[cfg(feature = "mcp")]
    pub fn tools(&self, config: &Config, agent: &Agent, entry: &ToolRef) -> Result<Vec<Tool>, McpError> {
        let (server_name, only) = match entry {
            ToolRef::McpServer(s) => (s, None),
            ToolRef::McpTool(s, t) => (s, Some(t)),
            _ => return Ok(Vec::new()),
        };
        let server = &self.servers[server_name.as_str()];
        let cache = &config.mcp[server_name.as_str()].cache;
        let listed = server.tools().iter().filter(|t| only.is_none_or(|o| *o == t.name));
        let tools: Vec<Tool> = listed
            .map(|t| {
                Tool::Mcp(McpTool {
                    name: format!("{server_name}.{}", t.name),
                    tool: t.clone(),
                    server: server.clone(),
                    cache: cache.covers(&t.name),
                })
            })
            .collect();
        if let (Some(tool), true) = (only, tools.is_empty()) {
            return Err(McpError::NoSuchTool {
                agent: agent.name.clone(),
                server: server_name.clone(),
                tool: tool.clone(),
                listed: server.tools().iter().map(|t| t.name.clone()).collect(),
            });
        }
        Ok(tools)
    }
}

fn tool_ref(config: &Config, entry: &str) -> Option<ToolRef> {
    let agents: Vec<&str> = config.agents.keys().map(String::as_str).collect();
    ToolRef::parse(entry, &config.tools, &config.mcp, &agents)
}

#[cfg(feature = "mcp")]
fn start_one(config: &McpConfig, runtime: Arc<Runtime>) -> Result<McpServer, McpError> {
    let mut server = config.server.clone();
    if let (Transport::Http { bearer_token, .. }, Some(var)) = (&mut server.transport, &config.bearer_token_env) {
        let token =
            std::env::var(var).map_err(|_| McpError::Token { server: server.name.clone(), var: var.clone() })?;
        *bearer_token = Some(token);
    }
    McpServer::start(&server, runtime).map_err(McpError::Start)
}
