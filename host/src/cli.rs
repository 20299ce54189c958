//! The subcommands of `ptc`, as functions that return what to print.
//!
//! `main` parses arguments and calls these; every failure is one line.

use crate::config::Config;
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_plugin_api::Stats;
use ptc_registry::{Registry, Renderer};
use ptc_session::Session;
use ptc_tokens::{TokenCounter, DEFAULT_ENCODING};
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// Output format of listing and rendering commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// A command's output and exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// What to print on stdout.
    pub stdout: String,
    /// One-line notes for stderr (load errors that did not stop the command).
    pub warnings: Vec<String>,
    /// Process exit code.
    pub code: i32,
}

/// A command failure: one line, what and where.
pub type CliResult = Result<Output, String>;

/// `ptc strategies`: plugins, instances, agents and load errors.
pub fn strategies(config_path: &Path, format: Format) -> CliResult {
    let config = Config::load(config_path).map_err(|e| e.to_string())?;
    let registry = Registry::discover(&config.plugin_paths);
    let instances: Vec<(String, String, Result<(), String>)> = config
        .strategies
        .values()
        .map(|s| (s.name.clone(), s.plugin.clone(), config.build(&registry, s).map(|_| ())))
        .collect();
    let nothing_usable = registry.plugins().next().is_none() && !registry.errors().is_empty();
    let code = i32::from(nothing_usable);
    let stdout = match format {
        Format::Json => {
            let plugins: Vec<_> = registry.plugins().map(|p| &p.description).collect();
            let value = json!({
                "config": config.path,
                "plugin_paths": config.plugin_paths,
                "plugins": plugins,
                "instances": instances.iter().map(|(name, plugin, status)| json!({
                    "name": name, "plugin": plugin,
                    "params": config.strategies[name].params,
                    "trigger": config.strategies[name].trigger.map(|t| json!({"turns": t.turns, "tokens": t.tokens})),
                    "error": status.as_ref().err(),
                })).collect::<Vec<_>>(),
                "agents": config.agents.values().map(|a| json!({
                    "name": a.name, "strategy": a.strategy.as_deref().unwrap_or(FULL_HISTORY),
                })).collect::<Vec<_>>(),
                "errors": registry.errors(),
            });
            serde_json::to_string_pretty(&value).expect("JSON values always serialize") + "\n"
        }
        Format::Text => {
            let mut out = String::new();
            let _ = writeln!(out, "config: {}", config.path.display());
            let _ = writeln!(out, "\nplugins:");
            let _ = writeln!(out, "  {:<26}{:<10}{:<11}file", "name", "version", "interface");
            let _ = writeln!(out, "  {:<26}{:<10}{:<11}(built in)", FULL_HISTORY, env!("CARGO_PKG_VERSION"), "-");
            for p in registry.plugins() {
                let d = &p.description;
                let _ =
                    writeln!(out, "  {:<26}{:<10}{:<11}{}", d.name, d.version, d.interface_version, d.file.display());
            }
            let _ = writeln!(out, "\ninstances:");
            if instances.is_empty() {
                let _ = writeln!(out, "  (none)");
            }
            for (name, plugin, status) in &instances {
                let s = &config.strategies[name];
                let trigger = s
                    .trigger
                    .map(|t| {
                        let mut parts = Vec::new();
                        parts.extend(t.turns.map(|n| format!("turns={n}")));
                        parts.extend(t.tokens.map(|n| format!("tokens={n}")));
                        format!("  trigger {}", parts.join(","))
                    })
                    .unwrap_or_default();
                let status = match status {
                    Ok(()) => "ok".to_string(),
                    Err(e) => format!("ERROR {e}"),
                };
                let _ = writeln!(out, "  {name:<26}{plugin:<26}{}{trigger}  {status}", s.params);
            }
            let _ = writeln!(out, "\nagents:");
            if config.agents.is_empty() {
                let _ = writeln!(out, "  (none)");
            }
            for a in config.agents.values() {
                let _ = writeln!(out, "  {:<26}{}", a.name, a.strategy.as_deref().unwrap_or(FULL_HISTORY));
            }
            if !registry.errors().is_empty() {
                let _ = writeln!(out, "\nload errors:");
                for e in registry.errors() {
                    let _ = writeln!(out, "  {e}");
                }
            }
            out
        }
    };
    let warnings = if format == Format::Json {
        Vec::new()
    } else {
        registry.errors().iter().map(|e| format!("plugin not loaded: {e}")).collect()
    };
    Ok(Output { stdout, warnings, code })
}

/// Picks the renderer for `ptc render`: an instance of the config, or a
/// plugin by its own name with default parameters, or full-history.
pub fn pick_renderer(config: &Config, registry: &Registry, name: &str) -> Result<Renderer, String> {
    match registry.plugin(name) {
        Some(plugin) if !config.strategies.contains_key(name) => {
            plugin.instantiate("{}").map_err(|e| format!("strategy `{name}`: {e}"))
        }
        _ => config.instantiate(registry, name),
    }
}

/// Options of `ptc render`.
#[derive(Debug, Clone)]
pub struct RenderArgs<'a> {
    /// Config file.
    pub config: &'a Path,
    /// Session file.
    pub session: &'a Path,
    /// Turn to render (default: the next one).
    pub turn: Option<u32>,
    /// Instance or plugin name (default: the session agent's, else full-history).
    pub strategy: Option<&'a str>,
    /// Output format.
    pub format: Format,
}

/// `ptc render`: the messages a strategy produces for one turn of a session.
pub fn render(args: &RenderArgs<'_>) -> CliResult {
    let session = Session::read(args.session).map_err(|e| format!("{}: {e}", args.session.display()))?;
    let request = session.request_for_turn(args.turn).map_err(|e| format!("{}: {e}", args.session.display()))?;
    let config = Config::load(args.config).map_err(|e| e.to_string())?;
    let name = match args.strategy {
        Some(name) => name.to_string(),
        None => session
            .agent
            .as_deref()
            .and_then(|a| config.agents.get(a))
            .and_then(|a| a.strategy.clone())
            .unwrap_or_else(|| FULL_HISTORY.to_string()),
    };
    let registry = if name == FULL_HISTORY { Registry::default() } else { Registry::discover(&config.plugin_paths) };
    let renderer = pick_renderer(&config, &registry, &name)?;
    let rendered = renderer.render(&request).map_err(|e| format!("strategy `{name}`: {e}"))?;
    let tokens = TokenCounter::new(DEFAULT_ENCODING)?.count_messages(rendered.messages());
    let stdout = match args.format {
        Format::Json => {
            let value = json!({
                "messages": rendered.messages().iter().map(|m| json!({"role": m.role().as_str(), "content": m.content()})).collect::<Vec<_>>(),
                "stats": stats_json(rendered.stats()),
                "prompt_tokens": tokens,
            });
            serde_json::to_string_pretty(&value).expect("JSON values always serialize") + "\n"
        }
        Format::Text => ptc_plugin_api::render::messages_text(rendered.messages()),
    };
    let mut warnings: Vec<String> = registry.errors().iter().map(|e| format!("plugin not loaded: {e}")).collect();
    warnings.extend(rendered.stats().warnings().map(|w| format!("strategy `{name}`: {w}")));
    warnings.push(format!(
        "rendered turn {} of {} with {}: {} messages, {tokens} prompt tokens ({DEFAULT_ENCODING})",
        request.turn(),
        request.max_turns(),
        rendered.stats().strategy(),
        rendered.messages().len()
    ));
    Ok(Output { stdout, warnings, code: 0 })
}

/// Stats as a JSON object.
pub fn stats_json(stats: &Stats) -> serde_json::Value {
    let mut v = json!({
        "strategy": stats.strategy(),
        "turns_compressed": stats.turns_compressed,
        "tool_calls_total": stats.tool_calls_total,
        "tool_calls_shown": stats.tool_calls_shown,
        "tool_calls_dropped": stats.tool_calls_dropped,
        "printlns_total": stats.printlns_total,
        "printlns_shown": stats.printlns_shown,
        "printlns_dropped": stats.printlns_dropped,
        "error_turns_collapsed": stats.error_turns_collapsed,
    });
    for c in stats.counters() {
        v[c.name()] = json!(c.value());
    }
    let warnings: Vec<&str> = stats.warnings().collect();
    if !warnings.is_empty() {
        v["warnings"] = json!(warnings);
    }
    v
}
