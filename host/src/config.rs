//! `strategies.toml`: where plugins live, which strategy instances exist
//! (plugin + parameters), and which agent uses which instance.
//!
//! Every error names the file, line and column.

use indexmap::IndexMap;
use ptc_registry::{Registry, Renderer};
use serde::Deserialize;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::{Spanned, Table, Value as Toml};

pub use ptc_registry::PLUGIN_PATH_ENV;

/// A position in a config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

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
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// When a strategy instance takes over from full-history (host side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    /// Completed turns in the history before the strategy applies.
    pub turns: Option<u32>,
    /// Prompt tokens of the full history before the strategy applies.
    pub tokens: Option<u64>,
}

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
}

/// A loaded `strategies.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The file it came from.
    pub path: PathBuf,
    /// Plugin folders or files: config paths (relative to the file) then `PTC_PLUGIN_PATH`.
    pub plugin_paths: Vec<PathBuf>,
    /// Strategy instances, in file order.
    pub strategies: IndexMap<String, StrategyInstance>,
    /// Agents, in file order.
    pub agents: IndexMap<String, Agent>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    plugins: Option<RawPlugins>,
    #[serde(default)]
    strategy: IndexMap<String, Spanned<Table>>,
    #[serde(default)]
    agent: IndexMap<String, Spanned<RawAgent>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlugins {
    #[serde(default)]
    paths: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    strategy: Option<Spanned<String>>,
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

impl Config {
    /// Reads and checks `path`; plugin paths also come from `PTC_PLUGIN_PATH`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            location: Location { file: path.to_path_buf(), line: 0, column: 0 },
            message: format!("cannot read config: {e}"),
        })?;
        let mut config = Config::parse(path, &text)?;
        if let Some(extra) = std::env::var_os(PLUGIN_PATH_ENV) {
            config.plugin_paths.extend(std::env::split_paths(&extra).filter(|p| !p.as_os_str().is_empty()));
        }
        Ok(config)
    }

    /// Parses config `text` as if read from `path` (relative plugin paths
    /// resolve against its folder). Ignores the environment.
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let src = Source { file: path, text };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let message = e.message().trim().to_string();
            match e.span() {
                Some(span) => src.error(span, message),
                None => src.error(0..0, message),
            }
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let plugin_paths = raw.plugins.map(|p| p.paths).unwrap_or_default().iter().map(|p| base.join(p)).collect();

        let mut strategies = IndexMap::new();
        for (name, table) in raw.strategy {
            let span = table.span();
            let instance = strategy_instance(&src, name.clone(), table.into_inner(), span)?;
            strategies.insert(name, instance);
        }

        let mut agents = IndexMap::new();
        for (name, agent) in raw.agent {
            let location = src.at(agent.span().start);
            let agent = agent.into_inner();
            if let Some(strategy) = &agent.strategy {
                let known = strategy.get_ref() == ptc_plugin_api::render::FULL_HISTORY
                    || strategies.contains_key(strategy.get_ref());
                if !known {
                    return Err(src.error(
                        strategy.span(),
                        format!(
                            "agent `{name}` uses strategy `{}`, which is not defined (defined: {})",
                            strategy.get_ref(),
                            defined_list(&strategies)
                        ),
                    ));
                }
            }
            let strategy = agent.strategy.map(|s| s.into_inner());
            agents.insert(name.clone(), Agent { name, strategy, location });
        }
        Ok(Config { path: path.to_path_buf(), plugin_paths, strategies, agents })
    }
}

impl Config {
    /// Builds strategy instance `name` (or the built-in `full-history`)
    /// from the plugins in `registry`.
    pub fn instantiate(&self, registry: &Registry, name: &str) -> Result<Renderer, String> {
        if name == ptc_plugin_api::render::FULL_HISTORY {
            return Ok(Renderer::FullHistory);
        }
        let instance = self
            .strategies
            .get(name)
            .ok_or_else(|| format!("no strategy named `{name}` (defined: {})", defined_list(&self.strategies)))?;
        self.build(registry, instance)
    }

    /// Builds one configured instance.
    pub fn build(&self, registry: &Registry, instance: &StrategyInstance) -> Result<Renderer, String> {
        registry
            .build(&instance.name, &instance.plugin, &instance.params.to_string())
            .map_err(|e| format!("{}: {e}", instance.location))
    }
}

fn defined_list(strategies: &IndexMap<String, StrategyInstance>) -> String {
    let mut names: Vec<&str> = vec![ptc_plugin_api::render::FULL_HISTORY];
    names.extend(strategies.keys().map(String::as_str));
    names.join(", ")
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
            return Err(
                src.error(span, format!("strategy `{name}`: `plugin` must be a string, got a {}", other.type_str()))
            )
        }
        None => return Err(src.error(span, format!("strategy `{name}`: missing `plugin = \"...\"`"))),
    };
    let trigger = match table.remove("trigger") {
        None => None,
        Some(value) => {
            let trigger: Trigger = value.try_into().map_err(|e: toml::de::Error| {
                src.error(span.clone(), format!("strategy `{name}`: trigger: {}", e.message().trim()))
            })?;
            if trigger.turns.is_none() && trigger.tokens.is_none() {
                return Err(src.error(span, format!("strategy `{name}`: trigger needs `turns` or `tokens`")));
            }
            Some(trigger)
        }
    };
    let params = serde_json::to_value(&table)
        .map_err(|e| src.error(span.clone(), format!("strategy `{name}`: parameters: {e}")))?;
    Ok(StrategyInstance { name, plugin, params, trigger, location })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(Path::new("/cfg/strategies.toml"), text).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_paths_instances_and_agents() {
        let c = parse(
            r#"
[plugins]
paths = ["target/debug", "/abs/plugins"]

[strategy.compact]
plugin = "single-user-coalesced"
println_limit = 5
trigger = { turns = 3 }

[agent.demo]
strategy = "compact"

[agent.plain]
"#,
        )
        .unwrap();
        assert_eq!(c.plugin_paths, vec![PathBuf::from("/cfg/target/debug"), PathBuf::from("/abs/plugins")]);
        let s = &c.strategies["compact"];
        assert_eq!(s.plugin, "single-user-coalesced");
        assert_eq!(s.params, serde_json::json!({"println_limit": 5}));
        assert_eq!(s.trigger, Some(Trigger { turns: Some(3), tokens: None }));
        assert_eq!((s.location.line, s.location.column), (5, 1));
        assert_eq!(c.agents["demo"].strategy.as_deref(), Some("compact"));
        assert_eq!(c.agents["plain"].strategy, None);
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let err = parse("[plugins]\npaths = [\"a\",\n").unwrap_err();
        assert_eq!(err, "/cfg/strategies.toml:2:14: unclosed array, expected `]`");
    }

    #[test]
    fn unknown_keys_are_errors() {
        let err = parse("[plugins]\npath = []\n").unwrap_err();
        assert!(err.starts_with("/cfg/strategies.toml:2:1: unknown field `path`"), "{err}");
        let err = parse("[agent.a]\nstrategie = \"x\"\n").unwrap_err();
        assert!(err.contains("2:1: unknown field `strategie`"), "{err}");
        let err = parse("[strategy.s]\nplugin = \"p\"\ntrigger = { turn = 2 }\n").unwrap_err();
        assert!(err.contains("strategy `s`: trigger: unknown field `turn`"), "{err}");
    }

    #[test]
    fn undefined_strategy_and_missing_plugin_are_errors() {
        let err = parse("[agent.a]\nstrategy = \"nope\"\n").unwrap_err();
        assert_eq!(
            err,
            "/cfg/strategies.toml:2:12: agent `a` uses strategy `nope`, which is not defined (defined: full-history)"
        );
        let err = parse("[strategy.s]\nwindow = 2\n").unwrap_err();
        assert_eq!(err, "/cfg/strategies.toml:1:1: strategy `s`: missing `plugin = \"...\"`");
        assert!(parse("[agent.a]\nstrategy = \"full-history\"\n").is_ok());
    }
}
