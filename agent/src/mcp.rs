//! The MCP servers of one run: started when the run is prepared (every
//! server an agent's `tools` names, once), their tools picked by the
//! agent's `SERVER.*` / `SERVER.TOOL` entries, stopped when the run ends.
//!
//! The program calls a server's tool as `tool/SERVER.TOOL`: the server
//! prefix keeps two servers' tools apart and shows in every trace line.

use crate::config::{Agent, Config, McpConfig, ToolRef};
use crate::tools::{McpTool, Tool};
use indexmap::IndexMap;
use ptc_mcp::{McpServer, Runtime, StartError, Transport};
use std::fmt;
use std::sync::Arc;

/// Why an agent's MCP tools are not available.
#[derive(Debug)]
pub enum McpError {
    /// The runtime thread could not start.
    Runtime(String),
    /// A server did not start (spawn, handshake, tool list, start-up timeout).
    Start(StartError),
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
            McpError::Start(e) => e.fmt(f),
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
        if wanted.is_empty() {
            return Ok(McpServers::default());
        }
        let runtime = Arc::new(Runtime::new().map_err(|e| McpError::Runtime(e.to_string()))?);
        let mut servers = IndexMap::new();
        for name in wanted {
            let server = start_one(&config.mcp[name], runtime.clone())?;
            servers.insert(name.to_string(), Arc::new(server));
        }
        Ok(McpServers { servers })
    }

    /// The tools of `entry` (`SERVER.*`: all, in the server's order;
    /// `SERVER.TOOL`: that one).
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

fn start_one(config: &McpConfig, runtime: Arc<Runtime>) -> Result<McpServer, McpError> {
    let mut server = config.server.clone();
    if let (Transport::Http { bearer_token, .. }, Some(var)) = (&mut server.transport, &config.bearer_token_env) {
        let token =
            std::env::var(var).map_err(|_| McpError::Token { server: server.name.clone(), var: var.clone() })?;
        *bearer_token = Some(token);
    }
    McpServer::start(&server, runtime).map_err(McpError::Start)
}
