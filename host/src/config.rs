//! `strategies.toml`: where plugins live, which strategy instances exist
//! (plugin + parameters), and which agent uses which instance.
//!
//! Every error names the file, line and column.

use indexmap::IndexMap;
use ptc_cost::{PriceModel, PricingTable};
use serde::Deserialize;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::{Spanned, Table, Value as Toml};

mod contract;
mod tool_names;

pub use ptc_agent::config::*;

/// An error in a config file, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// Where (file only when the file could not be read).
    pub location: Location,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: the file itself is the problem, there is no position to show.
        match self.location.line {
            0 => write!(f, "{}: {}", self.location.file.display(), self.message),
            _ => write!(f, "{}: {}", self.location, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    plugins: Option<RawPlugins>,
    #[serde(default)]
    strategy: IndexMap<String, Spanned<Table>>,
    #[serde(default)]
    agent: IndexMap<String, Spanned<RawAgent>>,
    #[serde(default)]
    tool: IndexMap<String, Spanned<RawTool>>,
    #[serde(default)]
    pricing: IndexMap<String, Spanned<Table>>,
    #[serde(default)]
    mcp: IndexMap<String, Spanned<tool_names::RawMcp>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTool {
    command: Vec<String>,
    #[serde(default)]
    signature: Option<Spanned<String>>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    cache: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlugins {
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default = "yes")]
    executable_dir: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    strategy: Option<Spanned<String>>,
    #[serde(default)]
    mission: Option<String>,
    #[serde(default)]
    max_turns: Option<Spanned<u32>>,
    #[serde(default)]
    system_prompt: Option<String>,
    #[serde(default)]
    data: IndexMap<String, String>,
    #[serde(default)]
    tools: Vec<Spanned<String>>,
    #[serde(default)]
    llm: Option<Spanned<LlmConfig>>,
    #[serde(default)]
    llm_query: Option<Spanned<LlmConfig>>,
    #[serde(default)]
    limits: LimitsConfig,
    #[serde(default)]
    max_prompt_tokens: Option<Spanned<u64>>,
    #[serde(default)]
    fallback: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    token_encoding: Option<String>,
    #[serde(default)]
    pricing: Option<Spanned<String>>,
    #[serde(default)]
    signature: Option<Spanned<String>>,
    #[serde(default)]
    retry_turns: Option<Spanned<u32>>,
    #[serde(default)]
    max_tool_calls: Option<Spanned<u64>>,
    #[serde(default)]
    max_tool_calls_per_turn: Option<Spanned<u64>>,
    #[serde(default)]
    run_timeout_ms: Option<Spanned<u64>>,
    #[serde(default)]
    max_run_prompt_tokens: Option<Spanned<u64>>,
    #[serde(default)]
    max_run_cost: Option<Spanned<f64>>,
    #[serde(default)]
    max_agent_depth: Option<u32>,
    #[serde(default)]
    namespace_fallback: bool,
}

/// Turns byte offsets of one file into line/column locations.
struct Source<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Source<'_> {
    fn at(&self, offset: usize) -> Location {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
        Location { file: self.file.to_path_buf(), line, column }
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> ConfigError {
        ConfigError { location: self.at(span.start), message: message.into() }
    }
}

/// Reading a [`Config`] from `strategies.toml` (the model lives in
/// `ptc-agent`, which knows no file format). Import it beside `Config`:
/// `use ptc_host::config::{Config, ConfigFile};`.
pub trait ConfigFile: Sized {
    /// Reads and checks `path`; plugin paths also come from `PTC_PLUGIN_PATH`.
    fn load(path: &Path) -> Result<Self, ConfigError>;

    /// [`ConfigFile::load`], or an empty config (no instances or agents;
    /// plugins from `PTC_PLUGIN_PATH` and the executable's folder) when
    /// `path` does not exist.
    fn load_or_empty(path: &Path) -> Result<Self, ConfigError>;

    /// Parses config `text` as if read from `path` (relative plugin paths
    /// resolve against its folder). Ignores the environment.
    fn parse(path: &Path, text: &str) -> Result<Self, ConfigError>;
}

impl ConfigFile for Config {
    fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = ptc_os::read_text(path, ptc_os::MAX_SOURCE_FILE_BYTES).map_err(|e| ConfigError {
            location: Location { file: path.to_path_buf(), line: 0, column: 0 },
            message: unreadable_config(path, &e),
        })?;
        let mut config = Config::parse(path, &text)?;
        config.plugin_paths.extend(plugin_path_env());
        Ok(config)
    }

    fn load_or_empty(path: &Path) -> Result<Config, ConfigError> {
        if path.exists() {
            return Config::load(path);
        }
        let mut config = Config::parse(path, "")?;
        config.plugin_paths.extend(plugin_path_env());
        Ok(config)
    }

    fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let src = Source { file: path, text };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let message = toml_message(&e);
            match e.span() {
                Some(span) => match key_at(text, span.start) {
                    // A wrong value or a repeated key: name the key too.
                    Some(key) if !message.starts_with("unknown field") => src.error(span, format!("{key}: {message}")),
                    _ => src.error(span, message),
                },
                None => src.error(0..0, message),
            }
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let (paths, executable_dir) = raw.plugins.map_or((Vec::new(), true), |p| (p.paths, p.executable_dir));
        let plugin_paths = paths.iter().map(|p| base.join(p)).collect();

        let mut strategies = IndexMap::new();
        for (name, table) in raw.strategy {
            let span = table.span();
            let instance = strategy_instance(&src, name.clone(), table.into_inner(), span)?;
            strategies.insert(name, instance);
        }
        let mut tools = IndexMap::new();
        for (name, tool) in raw.tool {
            let config = tool_table(&src, base, &name, tool)?;
            tools.insert(name, config);
        }
        let mut pricing = IndexMap::new();
        for (name, table) in raw.pricing {
            let parsed = pricing_table(&src, &name, table)?;
            pricing.insert(name, parsed);
        }
        let mut mcp = IndexMap::new();
        for (name, server) in raw.mcp {
            let server = tool_names::mcp_server(&src, base, &name, server)?;
            mcp.insert(name, server);
        }
        let agent_names: Vec<String> = raw.agent.keys().cloned().collect();
        let agent_names: Vec<&str> = agent_names.iter().map(String::as_str).collect();
        let known =
            Known { base, strategies: &strategies, tools: &tools, pricing: &pricing, mcp: &mcp, agents: &agent_names };
        let mut agents = IndexMap::new();
        for (name, agent) in raw.agent {
            let agent = agent_table(&src, &known, name.clone(), agent)?;
            agents.insert(name, agent);
        }
        Ok(Config { path: path.to_path_buf(), plugin_paths, executable_dir, strategies, agents, tools, pricing, mcp })
    }
}

/// `timeout_ms` of a `[tool.NAME]` table that sets none.
pub const DEFAULT_TOOL_TIMEOUT_MS: u64 = 10_000;

/// `max_turns` of an `[agent.NAME]` table that sets none.
pub const DEFAULT_MAX_TURNS: u32 = 5;

/// What an agent table is checked against: the file's other tables.
struct Known<'a> {
    /// The config's folder (relative paths resolve against it).
    base: &'a Path,
    strategies: &'a IndexMap<String, StrategyInstance>,
    tools: &'a IndexMap<String, ToolConfig>,
    pricing: &'a IndexMap<String, PricingTable>,
    mcp: &'a IndexMap<String, McpConfig>,
    /// Every agent of the file (`agent:NAME` tools may name any).
    agents: &'a [&'a str],
}

/// Checks one `[tool.NAME]` table.
fn tool_table(src: &Source<'_>, base: &Path, name: &str, tool: Spanned<RawTool>) -> Result<ToolConfig, ConfigError> {
    let span = tool.span();
    let tool = tool.into_inner();
    if tool.command.is_empty() {
        return Err(src.error(span, format!("tool `{name}`: `command` needs at least the program")));
    }
    if let Some(signature) = &tool.signature {
        contract::signature(src, &format!("tool `{name}`"), signature)?;
    }
    Ok(ToolConfig {
        name: name.to_string(),
        command: tool.command,
        signature: tool.signature.map(Spanned::into_inner),
        description: tool.description,
        timeout_ms: tool.timeout_ms.unwrap_or(DEFAULT_TOOL_TIMEOUT_MS),
        cache: tool.cache,
        dir: if base.as_os_str().is_empty() { PathBuf::from(".") } else { base.to_path_buf() },
        location: src.at(span.start),
    })
}

/// Checks one `[pricing.NAME]` table (it must make a price model).
fn pricing_table(src: &Source<'_>, name: &str, table: Spanned<Table>) -> Result<PricingTable, ConfigError> {
    let span = table.span();
    let parsed: PricingTable = Toml::Table(table.into_inner())
        .try_into()
        .map_err(|e: toml::de::Error| src.error(span.clone(), format!("pricing `{name}`: {}", toml_message(&e))))?;
    PriceModel::from_table(name, &parsed).map_err(|e| src.error(span.clone(), e.to_string()))?;
    Ok(parsed)
}

/// An agent's `pricing`: a built-in price model or a `[pricing.NAME]` table.
fn agent_pricing(
    src: &Source<'_>,
    name: &str,
    tables: &IndexMap<String, PricingTable>,
    pricing: Option<Spanned<String>>,
) -> Result<Option<String>, ConfigError> {
    let Some(p) = pricing else { return Ok(None) };
    if ptc_cost::BUILTIN_MODELS.contains(&p.get_ref().as_str()) || tables.contains_key(p.get_ref()) {
        return Ok(Some(p.into_inner()));
    }
    let mut names: Vec<&str> = ptc_cost::BUILTIN_MODELS.to_vec();
    names.extend(tables.keys().map(String::as_str));
    Err(src.error(
        p.span(),
        format!(
            "agent `{name}`: pricing `{}` is neither built in nor a [pricing.NAME] table (known: {})",
            p.get_ref(),
            names.join(", ")
        ),
    ))
}

/// Checks one `[agent.NAME]` table against the rest of the file.
fn agent_table(
    src: &Source<'_>,
    known: &Known<'_>,
    name: String,
    agent: Spanned<RawAgent>,
) -> Result<Agent, ConfigError> {
    let (base, strategies, tools, pricing, mcp) = (known.base, known.strategies, known.tools, known.pricing, known.mcp);
    let agent_names = known.agents;
    let span = agent.span();
    let location = src.at(span.start);
    let agent = agent.into_inner();
    let data_names: Vec<&str> = agent.data.keys().map(String::as_str).collect();
    let agent_contract = contract::agent_contract(
        src,
        &name,
        agent.signature.as_ref(),
        agent.retry_turns.as_ref(),
        agent.mission.as_deref(),
        &data_names,
        span,
    )?;
    let run_limits = contract::run_limits(
        src,
        &name,
        [
            ("max_tool_calls", agent.max_tool_calls.as_ref()),
            ("max_tool_calls_per_turn", agent.max_tool_calls_per_turn.as_ref()),
            ("run_timeout_ms", agent.run_timeout_ms.as_ref()),
            ("max_run_prompt_tokens", agent.max_run_prompt_tokens.as_ref()),
        ],
        agent.max_run_cost.as_ref(),
    )?;
    if let Some(strategy) = &agent.strategy {
        let known =
            strategy.get_ref() == ptc_plugin_api::render::FULL_HISTORY || strategies.contains_key(strategy.get_ref());
        if !known {
            return Err(src.error(
                strategy.span(),
                format!(
                    "agent `{name}` uses strategy `{}`, which is not defined {}",
                    strategy.get_ref(),
                    not_defined(strategy.get_ref(), strategies)
                ),
            ));
        }
    }
    for tool in &agent.tools {
        if ToolRef::parse(tool.get_ref(), tools, mcp, agent_names).is_none() {
            return Err(tool_names::unknown_tool(src, tool.span(), &name, tool.get_ref(), tools, mcp));
        }
    }
    let (max_prompt_tokens, fallback) = agent_budget(src, &name, strategies, &agent)?;
    let max_turns = match agent.max_turns {
        Some(m) if *m.get_ref() == 0 => {
            return Err(src.error(m.span(), format!("agent `{name}`: max_turns must be at least 1")))
        }
        Some(m) => m.into_inner(),
        None => DEFAULT_MAX_TURNS,
    };
    let llm = match agent.llm {
        Some(llm) => Some(agent_llm(src, &name, base, llm)?),
        None => None,
    };
    let llm_query = match agent.llm_query {
        Some(llm) => Some(agent_llm(src, &name, base, llm)?),
        None => None,
    };
    Ok(Agent {
        name: name.clone(),
        llm_query,
        strategy: agent.strategy.map(|s| s.into_inner()),
        location,
        mission: agent.mission,
        max_turns,
        system_prompt: agent.system_prompt,
        data: agent.data.into_iter().map(|(k, v)| (k, base.join(v))).collect(),
        tools: agent.tools.into_iter().map(|t| t.into_inner()).collect(),
        llm,
        limits: agent.limits,
        max_prompt_tokens,
        fallback,
        token_encoding: agent.token_encoding,
        pricing: agent_pricing(src, &name, pricing, agent.pricing)?,
        contract: agent_contract,
        run_limits,
        max_agent_depth: agent.max_agent_depth.unwrap_or(DEFAULT_MAX_AGENT_DEPTH),
        namespace_fallback: agent.namespace_fallback,
    })
}

/// Why `path` could not be read as a config, and what to do: a missing
/// file says where it was looked for (relative paths are taken from the
/// current folder) and how to name or create one.
fn unreadable_config(path: &Path, error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => {}
        std::io::ErrorKind::InvalidData => {
            return "not text (not UTF-8): a config is a TOML file, as `ptc init` writes".to_string()
        }
        std::io::ErrorKind::IsADirectory => {
            return "a folder, not a file: name its strategies.toml (`--config DIR/strategies.toml`)".to_string()
        }
        std::io::ErrorKind::FileTooLarge => {
            return format!("{error} (MAX_SOURCE_FILE_BYTES): a config is a TOML file, as `ptc init` writes")
        }
        _ => return format!("cannot read config: {error}"),
    }
    let looked = match std::env::current_dir() {
        Ok(cwd) if path.is_relative() => cwd.join(path),
        _ => path.to_path_buf(),
    };
    format!(
        "no config file (looked for {}); name one with `--config FILE`, or create a project here with `ptc init`",
        looked.display()
    )
}

/// The folders and files of `PTC_PLUGIN_PATH`.
pub fn plugin_path_env() -> Vec<PathBuf> {
    let extra = std::env::var_os(PLUGIN_PATH_ENV).unwrap_or_default();
    std::env::split_paths(&extra).filter(|p| !p.as_os_str().is_empty()).collect()
}

/// Checks an agent's `llm` table and resolves a replay file against the config folder.
fn agent_llm(src: &Source<'_>, name: &str, base: &Path, llm: Spanned<LlmConfig>) -> Result<LlmConfig, ConfigError> {
    let span = llm.span();
    let llm = llm.into_inner();
    llm.check().map_err(|m| src.error(span, format!("agent `{name}`: llm: {m}")))?;
    Ok(match llm {
        LlmConfig::Replay { file } => LlmConfig::Replay { file: base.join(file) },
        other => other,
    })
}

/// Checks `max_prompt_tokens` (at least 1) and `fallback` (defined
/// instances, only with a budget).
fn agent_budget(
    src: &Source<'_>,
    name: &str,
    strategies: &IndexMap<String, StrategyInstance>,
    agent: &RawAgent,
) -> Result<(Option<u64>, Vec<String>), ConfigError> {
    let budget = match &agent.max_prompt_tokens {
        Some(m) if *m.get_ref() == 0 => {
            return Err(src.error(m.span(), format!("agent `{name}`: max_prompt_tokens must be at least 1")))
        }
        Some(m) => Some(*m.get_ref()),
        None => None,
    };
    let mut fallback = Vec::new();
    if let Some(list) = &agent.fallback {
        // Without a budget a fallback serves only when an isolated instance fails.
        let isolated = |n: &str| strategies.get(n).is_some_and(|s| s.isolation != Isolation::InProcess);
        let any_isolated = agent.strategy.as_ref().is_some_and(|s| isolated(s.get_ref()))
            || list.get_ref().iter().any(|f| isolated(f.get_ref()));
        if budget.is_none() && !any_isolated && !list.get_ref().is_empty() {
            return Err(src.error(
                list.span(),
                format!(
                    "agent `{name}`: `fallback` is only used with `max_prompt_tokens` or an isolated strategy (isolation = \"process\"); set a budget or remove it"
                ),
            ));
        }
        for instance in list.get_ref() {
            let known = instance.get_ref() == ptc_plugin_api::render::FULL_HISTORY
                || strategies.contains_key(instance.get_ref());
            if !known {
                return Err(src.error(
                    instance.span(),
                    format!(
                        "agent `{name}`: fallback `{}` is not a defined strategy {}",
                        instance.get_ref(),
                        not_defined(instance.get_ref(), strategies)
                    ),
                ));
            }
            fallback.push(instance.get_ref().clone());
        }
    }
    Ok((budget, fallback))
}

/// What follows "`name` is not defined": the names that are, then the one
/// `name` is a likely typo of, else how to define it.
fn not_defined(name: &str, strategies: &IndexMap<String, StrategyInstance>) -> String {
    let mut defined: Vec<&str> = vec![ptc_plugin_api::render::FULL_HISTORY];
    defined.extend(strategies.keys().map(String::as_str));
    let hint = ptc_lisp::did_you_mean(name, defined.iter().copied());
    let hint = if hint.is_empty() {
        format!("; define it in a [strategy.{name}] table with its `plugin` (`ptc strategies` lists the plugins)")
    } else {
        hint
    };
    format!("(defined: {}){hint}", defined.join(", "))
}

fn strategy_instance(
    src: &Source<'_>,
    name: String,
    mut table: Table,
    span: Range<usize>,
) -> Result<StrategyInstance, ConfigError> {
    let location = src.at(span.start);
    let plugin = match table.remove("plugin") {
        Some(Toml::String(s)) => s,
        Some(other) => {
            return Err(src.error(span, format!("strategy `{name}`: `plugin` must be a string, got {}", a_type(&other))))
        }
        None => return Err(src.error(span, format!("strategy `{name}`: missing `plugin = \"...\"`"))),
    };
    let trigger = match table.remove("trigger") {
        None => None,
        Some(value) => {
            let trigger: Trigger = value.try_into().map_err(|e: toml::de::Error| {
                src.error(span.clone(), format!("strategy `{name}`: trigger: {}", toml_message(&e)))
            })?;
            if trigger.turns.is_none() && trigger.tokens.is_none() {
                return Err(src.error(span, format!("strategy `{name}`: trigger needs `turns` or `tokens`")));
            }
            Some(trigger)
        }
    };
    let isolation = isolation(&mut table, &plugin)
        .map_err(|message| src.error(span.clone(), format!("strategy `{name}`: {message}")))?;
    let params = serde_json::to_value(&table)
        .map_err(|e| src.error(span.clone(), format!("strategy `{name}`: parameters: {e}")))?;
    Ok(StrategyInstance { name, plugin, params, trigger, isolation, location })
}

/// `isolation_limits = { ... }`: every key optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIsolationLimits {
    memory: Option<Toml>,
    cpu_seconds: Option<u64>,
    stack: Option<Toml>,
    render_timeout_ms: Option<u64>,
}

/// Takes `isolation` and `isolation_limits` out of a strategy table.
fn isolation(table: &mut Table, plugin: &str) -> Result<Isolation, String> {
    let mode = match table.remove("isolation") {
        None => None,
        Some(Toml::String(mode)) => Some(mode),
        Some(other) => return Err(format!("`isolation` must be a string, got {}", a_type(&other))),
    };
    let limits = table.remove("isolation_limits");
    match mode.as_deref() {
        None | Some("in-process") => {
            if limits.is_some() {
                return Err("`isolation_limits` needs `isolation = \"process\"`".to_string());
            }
            return Ok(Isolation::InProcess);
        }
        Some("process") => {}
        Some(other) => return Err(format!("unknown isolation `{other}` (use \"process\" or \"in-process\")")),
    }
    if plugin == ptc_plugin_api::render::FULL_HISTORY {
        return Err("full-history is built in and runs in-process; remove `isolation`".to_string());
    }
    let mut out = IsolationLimits::default();
    if let Some(value) = limits {
        let raw: RawIsolationLimits =
            value.try_into().map_err(|e: toml::de::Error| format!("isolation_limits: {}", toml_message(&e)))?;
        let size = |key: &str, value: Toml| {
            match value {
                Toml::Integer(n) if n > 0 => Ok(n as u64),
                Toml::Integer(_) => Err("must be more than 0 bytes".to_string()),
                Toml::String(text) => ptc_registry::caps::parse_size(&text).map_err(|e| e.to_string()),
                other => Err(format!("a size in bytes or a string such as \"512MiB\", got {}", a_type(&other))),
            }
            .map_err(|e| format!("isolation_limits: {key}: {e}"))
        };
        if let Some(memory) = raw.memory {
            out.caps.memory = size("memory", memory)?;
        }
        if let Some(stack) = raw.stack {
            out.caps.stack = usize::try_from(size("stack", stack)?).unwrap_or(usize::MAX);
        }
        match raw.cpu_seconds {
            Some(0) => return Err("isolation_limits: cpu_seconds must be at least 1".to_string()),
            Some(secs) => out.caps.cpu = std::time::Duration::from_secs(secs),
            None => {}
        }
        match raw.render_timeout_ms {
            Some(0) => return Err("isolation_limits: render_timeout_ms must be at least 1".to_string()),
            Some(ms) => out.render_timeout = std::time::Duration::from_millis(ms),
            None => {}
        }
    }
    Ok(Isolation::Process(out))
}

/// A TOML error's message in the file's words: serde's Rust types become
/// TOML's (`expected u32` is "expected a whole number"), and "unknown
/// field `X`, expected one of `a`, `b`" ends with a did-you-mean.
fn toml_message(e: &toml::de::Error) -> String {
    let mut message = e.message().trim().to_string();
    for (rust, toml) in TOML_WORDS {
        if let Some(start) = message.strip_suffix(rust) {
            message = format!("{start}{toml}");
        }
    }
    let bare = ["0 or more", "0 to 4294967295", "a number", "true or false"];
    if message.starts_with("invalid type: string") && bare.iter().any(|b| message.ends_with(b)) {
        message.push_str(" (write it without quotes)");
    }
    let hint = message.strip_prefix("unknown field `").and_then(|r| r.split_once('`'));
    let hint = hint.map(|(field, expected)| {
        let expected = || expected.split('`').skip(1).step_by(2);
        match ptc_lisp::closest_among(field, expected()).or_else(|| sharing_a_word(field, expected())) {
            Some(best) => format!("; did you mean `{best}`?"),
            None => String::new(),
        }
    });
    format!("{message}{}", hint.unwrap_or_default())
}

/// The one of `keys` that shares the longest run of letters with `field`,
/// at least 4 and more than any other key shares: the key a field named
/// in other words likely meant (`price_model` → `pricing`, `timeout` →
/// `run_timeout_ms`), where no typo is close enough.
fn sharing_a_word<'k>(field: &str, keys: impl Iterator<Item = &'k str>) -> Option<String> {
    let shared = |key: &str| {
        let (a, b): (Vec<char>, Vec<char>) = (field.chars().collect(), key.chars().collect());
        let mut best = 0;
        for i in 0..a.len() {
            for j in 0..b.len() {
                let run = a[i..].iter().zip(&b[j..]).take_while(|(x, y)| x == y && x.is_alphabetic()).count();
                best = best.max(run);
            }
        }
        best
    };
    let mut ranked: Vec<(usize, &str)> = keys.map(|k| (shared(k), k)).filter(|(n, _)| *n >= 4).collect();
    ranked.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
    match ranked.as_slice() {
        [(n, best), rest @ ..] if rest.first().is_none_or(|(m, _)| m < n) => Some(best.to_string()),
        _ => None,
    }
}

/// How serde names what it expected (the end of its message), and what a
/// TOML file writes instead.
const TOML_WORDS: &[(&str, &str)] = &[
    ("expected u32", "expected a whole number, 0 to 4294967295"),
    ("expected u64", "expected a whole number, 0 or more"),
    ("expected usize", "expected a whole number, 0 or more"),
    ("expected f64", "expected a number"),
    ("expected a boolean", "expected true or false"),
    ("expected a map", "expected a table: `{ name = value, ... }`"),
    ("expected a sequence", "expected an array: `[\"a\", \"b\"]`"),
];

/// The key of the `key = value` whose value (or key) starts at byte
/// `start` of `text`, when the line reads that way.
fn key_at(text: &str, start: usize) -> Option<&str> {
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let is_key = |k: &&str| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
    // The value's start: the key is the word before the `=` before it.
    let before = text[line_start..start].trim_end().strip_suffix('=');
    let key =
        before.map(|b| b.trim_end()).map(|b| b.rsplit(|c: char| c.is_whitespace() || c == '{' || c == ',').next());
    match key.flatten().filter(is_key) {
        Some(key) => Some(key),
        // The key's own start (a repeated key).
        None => text[start..line_end].split_once('=').map(|(k, _)| k.trim()).filter(is_key),
    }
}

/// A TOML value's type with its article: `an integer`, `a boolean`.
fn a_type(value: &Toml) -> String {
    let name = value.type_str();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {name}")
}
