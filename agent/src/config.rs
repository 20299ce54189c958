//! The config model: what `strategies.toml` describes (plugin folders,
//! strategy instances, agents, tools, MCP servers, price tables), as plain
//! data. Reading it from a file is the `ptc` host's job (`ptc_host::config`);
//! a service embedding the agent loop may build it in code.

use indexmap::IndexMap;
use ptc_cost::{PriceModels, PricingError, PricingTable};
use ptc_signature::Signature;
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub use crate::location::Location;
pub use crate::tools::ToolConfig;
pub use ptc_llm::LlmConfig;
#[cfg(feature = "mcp")]
pub use ptc_mcp::ServerConfig;
pub use ptc_registry::PLUGIN_PATH_ENV;

/// When a strategy instance takes over from full-history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    /// Completed turns in the history before the strategy applies.
    pub turns: Option<u32>,
    /// Prompt tokens of the full history before the strategy applies.
    pub tokens: Option<u64>,
}

/// Where a strategy instance's plugin runs (`isolation = "..."`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// In ptc's own process (the default): the fastest; a plugin that
    /// aborts, leaks or loops takes the run with it.
    #[default]
    InProcess,
    /// In a child process under these limits (`isolation = "process"`,
    /// optional `isolation_limits = { ... }`): for plugins you do not trust.
    /// A crash, a cap breach or a timeout is a render error the agent's
    /// `fallback` list handles.
    Process(IsolationLimits),
}

/// The limits of an isolated instance (`isolation_limits`).
pub use ptc_registry::isolate::Limits as IsolationLimits;

/// A `[strategy.NAME]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct StrategyInstance {
    /// The instance name (`NAME`).
    pub name: String,
    /// The plugin's strategy name (`plugin = "..."`).
    pub plugin: String,
    /// Every other key, for the plugin to validate.
    pub params: serde_json::Value,
    /// Optional `trigger = { turns = N, tokens = T }`.
    pub trigger: Option<Trigger>,
    /// Where its plugin runs (`isolation`, `isolation_limits`).
    pub isolation: Isolation,
    /// Where the table is.
    pub location: Location,
}

/// An `[agent.NAME]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct Agent {
    /// The agent name.
    pub name: String,
    /// Strategy instance name; `None` means full-history.
    pub strategy: Option<String>,
    /// Where the table is.
    pub location: Location,
    /// The mission (required by `ptc run`).
    pub mission: Option<String>,
    /// Turn limit (default 5).
    pub max_turns: u32,
    /// Replaces the built-in system prompt when set.
    pub system_prompt: Option<String>,
    /// Input data: name to JSON file (resolved against the config folder).
    pub data: IndexMap<String, PathBuf>,
    /// Tools offered: `[tool.NAME]` tables or built-in example tools.
    pub tools: Vec<String>,
    /// The model backend.
    pub llm: Option<LlmConfig>,
    /// The backend `llm-query` calls use (default: `llm`).
    pub llm_query: Option<LlmConfig>,
    /// Sandbox limit overrides.
    pub limits: LimitsConfig,
    /// Prompt token budget of one turn (real tiktoken count); `None`: unlimited.
    pub max_prompt_tokens: Option<u64>,
    /// Instances tried in order when a prompt exceeds `max_prompt_tokens`.
    pub fallback: Vec<String>,
    /// tiktoken encoding of the agent's model (default `o200k_base`); checked when counting.
    pub token_encoding: Option<String>,
    /// The price model a run records each prompt's cost under (a built-in
    /// or a `[pricing.NAME]`); default: the backend's (`anthropic` for the
    /// Anthropic backend, else `openai`).
    pub pricing: Option<String>,
    /// `signature = "..."` (and `retry_turns`): what the agent takes and
    /// must return.
    pub contract: Option<Contract>,
    /// `max_tool_calls`, `max_tool_calls_per_turn`, `run_timeout_ms`,
    /// `max_run_prompt_tokens`, `max_run_cost`.
    pub run_limits: RunLimits,
    /// How deep runs of agents used as tools (`agent:NAME`) may nest below
    /// this one (default [`DEFAULT_MAX_AGENT_DEPTH`]).
    pub max_agent_depth: u32,
    /// `namespace_fallback = true`: bare names with no definition reach
    /// `tool/NAME` or `data/NAME` (ptc-lisp.md NS-004..NS-009; default off).
    pub namespace_fallback: bool,
}

/// `max_agent_depth` when an agent does not set it: an agent may call an
/// agent that calls an agent, and no deeper.
pub const DEFAULT_MAX_AGENT_DEPTH: u32 = 3;

/// `limits = { ... }`: overrides of the sandbox defaults (ptc-lisp.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    /// Wall clock per program, tool calls included.
    pub timeout_ms: Option<u64>,
    /// Evaluation steps.
    pub max_steps: Option<u64>,
    /// Call depth.
    pub max_depth: Option<usize>,
    /// Iterations per loop.
    pub max_loop_iterations: Option<u64>,
    /// Elements in any collection built.
    pub max_collection_size: Option<usize>,
    /// Bytes in any string built.
    pub max_string_bytes: Option<usize>,
    /// Estimated bytes of memory kept between turns.
    pub max_memory_bytes: Option<usize>,
    /// Characters kept per println.
    pub println_char_limit: Option<usize>,
    /// Calls `pmap`/`pcalls` run at the same time.
    pub max_parallel_tool_calls: Option<usize>,
}

impl LimitsConfig {
    /// The defaults with these overrides applied.
    pub fn to_limits(&self) -> ptc_lisp::Limits {
        let mut l = ptc_lisp::Limits::default();
        if let Some(ms) = self.timeout_ms {
            l.timeout = std::time::Duration::from_millis(ms);
        }
        l.max_steps = self.max_steps.unwrap_or(l.max_steps);
        l.max_depth = self.max_depth.unwrap_or(l.max_depth);
        l.max_loop_iterations = self.max_loop_iterations.unwrap_or(l.max_loop_iterations);
        l.max_collection_size = self.max_collection_size.unwrap_or(l.max_collection_size);
        l.max_string_bytes = self.max_string_bytes.unwrap_or(l.max_string_bytes);
        l.max_memory_bytes = self.max_memory_bytes.unwrap_or(l.max_memory_bytes);
        l.println_char_limit = self.println_char_limit.unwrap_or(l.println_char_limit);
        l.max_parallel_tool_calls = self.max_parallel_tool_calls.unwrap_or(l.max_parallel_tool_calls);
        l
    }
}

/// A loaded `strategies.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The file it came from.
    pub path: PathBuf,
    /// Plugin folders or files: config paths (relative to the file) then `PTC_PLUGIN_PATH`.
    pub plugin_paths: Vec<PathBuf>,
    /// Whether the folder of the running `ptc` is searched for plugins too,
    /// after `plugin_paths` (`[plugins] executable_dir`, default true): a
    /// debug, release or installed `ptc` finds the plugins built beside it.
    pub executable_dir: bool,
    /// Strategy instances, in file order.
    pub strategies: IndexMap<String, StrategyInstance>,
    /// Agents, in file order.
    pub agents: IndexMap<String, Agent>,
    /// Command tools, in file order.
    pub tools: IndexMap<String, ToolConfig>,
    /// `[pricing.NAME]` tables (price models beside the built-ins), in file order.
    pub pricing: IndexMap<String, PricingTable>,
    /// `[mcp.NAME]` servers, in file order.
    pub mcp: IndexMap<String, McpConfig>,
}

impl Config {
    /// The built-in price models plus this config's `[pricing.NAME]` tables.
    pub fn price_models(&self) -> Result<PriceModels, PricingError> {
        PriceModels::with_tables(self.pricing.iter().map(|(name, table)| (name.as_str(), table)))
    }
}

/// The note for an error about `path`, a path named in the config file
/// `config` that does not exist: relative paths there are resolved against
/// the config file's folder, which a user running ptc from elsewhere may
/// not expect. Empty when the path exists or lies outside that folder.
pub fn missing_path_note(config: &Path, path: &Path) -> String {
    let folder = config.parent().unwrap_or(Path::new(""));
    if path.exists() || !path.starts_with(folder) {
        return String::new();
    }
    let shown = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    format!(" (relative paths in {} are resolved against its folder, {})", config.display(), shown.display())
}

/// An agent's contract: its signature and how many extra turns it gets to
/// fix a return that does not match it.
#[derive(Debug, Clone, PartialEq)]
pub struct Contract {
    /// The signature as written in the config (recorded in the session).
    pub text: String,
    /// The signature, parsed.
    pub signature: Signature,
    /// Turns allowed past `max_turns`, only after a return that did not
    /// match the signature (default 0).
    pub retry_turns: u32,
}

/// Limits of a whole run (the sandbox limits of one program are `limits`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RunLimits {
    /// Tool calls in the whole run.
    pub max_tool_calls: Option<u64>,
    /// Tool calls in one turn's program.
    pub max_tool_calls_per_turn: Option<u64>,
    /// Wall clock of the whole run (model calls, programs, tools), in ms.
    pub run_timeout_ms: Option<u64>,
    /// Prompt tokens sent over the whole run, as ptc counts them (one
    /// prompt's are `max_prompt_tokens`, a render budget).
    pub max_run_prompt_tokens: Option<u64>,
    /// The run's cost under the agent's price model (its unit: input-token
    /// equivalents, or money for per-million prices).
    pub max_run_cost: Option<f64>,
}

/// The names of the `{{name}}` placeholders of `text`, in order (spaces
/// inside the braces allowed).
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        let name = after[..end].trim();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
        rest = &after[end + 2..];
    }
    names
}

/// The tool name that enables `(tool/llm-query {:prompt ... :schema ...})`.
pub const LLM_QUERY: &str = "llm-query";

/// The tool name that enables `(tool/turn-output {:turn N})`: an earlier
/// turn of the run as it ran, however the strategy shows it now.
pub const TURN_OUTPUT: &str = "turn-output";

/// The prefix of an agent used as a tool: `agent:NAME`.
pub const AGENT_PREFIX: &str = "agent:";

/// A `[mcp.NAME]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct McpConfig {
    /// How to start or reach it, and its timeouts (only in a build with
    /// the `mcp` feature: without it a config has no MCP server).
    #[cfg(feature = "mcp")]
    pub server: ServerConfig,
    /// Environment variable holding a bearer token (HTTP only; read at start, never printed).
    pub bearer_token_env: Option<String>,
    /// Which of its tools cache their results within a run.
    pub cache: CacheRule,
    /// Where the table is.
    pub location: Location,
}

/// `cache = true` (every tool) or `cache = ["lookup", ...]` (those tools).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum CacheRule {
    /// All or none.
    All(bool),
    /// The tools named (server-side names).
    Tools(Vec<String>),
}

impl Default for CacheRule {
    fn default() -> CacheRule {
        CacheRule::All(false)
    }
}

impl CacheRule {
    /// Whether tool `name` of the server caches.
    pub fn covers(&self, name: &str) -> bool {
        match self {
            CacheRule::All(all) => *all,
            CacheRule::Tools(names) => names.iter().any(|n| n == name),
        }
    }
}

/// What an agent's `tools` entry names, once checked against the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolRef {
    /// A `[tool.NAME]` table or a built-in example tool.
    Plain(String),
    /// Every tool of an MCP server (`SERVER.*`).
    McpServer(String),
    /// One tool of an MCP server (`SERVER.TOOL`).
    McpTool(String, String),
    /// Another agent (`agent:NAME`).
    Agent(String),
    /// `llm-query`.
    LlmQuery,
    /// `turn-output`.
    TurnOutput,
}

impl ToolRef {
    /// Reads a `tools` entry; `None` when it names nothing the config has.
    pub fn parse(
        entry: &str,
        tools: &IndexMap<String, ToolConfig>,
        mcp: &IndexMap<String, McpConfig>,
        agents: &[&str],
    ) -> Option<ToolRef> {
        if tools.contains_key(entry) || crate::tools::builtin(entry).is_some() {
            return Some(ToolRef::Plain(entry.to_string()));
        }
        if entry == LLM_QUERY {
            return Some(ToolRef::LlmQuery);
        }
        if entry == TURN_OUTPUT {
            return Some(ToolRef::TurnOutput);
        }
        if let Some(agent) = entry.strip_prefix(AGENT_PREFIX) {
            return agents.contains(&agent).then(|| ToolRef::Agent(agent.to_string()));
        }
        let (server, tool) = entry.split_once('.')?;
        if !mcp.contains_key(server) || tool.is_empty() {
            return None;
        }
        Some(if tool == "*" { ToolRef::McpServer(server.into()) } else { ToolRef::McpTool(server.into(), tool.into()) })
    }
}
