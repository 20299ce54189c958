//! `ptc strategies`: what a config offers: plugins found, strategy
//! instances (and whether each builds), agents, and plugin load errors.

use super::{CmdResult, Format, Output};
use crate::config::Isolation;
use ptc_plugin_api::render::FULL_HISTORY;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// `ptc strategies`: plugins, instances, agents and load errors.
pub fn strategies(config_path: &Path, format: Format) -> CmdResult {
    let found = config_path.exists();
    let resolved = super::resolve_or_empty(config_path)?;
    let (config, registry) = (&resolved.config, &resolved.registry);
    let instances: Vec<(&str, &str, Result<(), String>)> = resolved
        .instances()
        .map(|(name, built)| (name, config.strategies[name].plugin.as_str(), built.map_err(|e| e.to_string())))
        .collect();
    let nothing_usable = registry.plugins().next().is_none() && !registry.errors().is_empty();
    let code = i32::from(nothing_usable);
    let stdout = match format {
        Format::Json => {
            let plugins: Vec<_> = registry.plugins().map(|p| &p.description).collect();
            let value = json!({
                "config": found.then_some(&config.path),
                "plugin_paths": config.plugin_paths,
                "plugins": plugins,
                "instances": instances.iter().map(|(name, plugin, status)| json!({
                    "name": name, "plugin": plugin,
                    "params": config.strategies[*name].params,
                    "trigger": config.strategies[*name].trigger.map(|t| json!({"turns": t.turns, "tokens": t.tokens})),
                    "isolation": isolation(&config.strategies[*name].isolation),
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
            let _ = match found {
                true => writeln!(out, "config: {}", config.path.display()),
                false => writeln!(
                    out,
                    "config: none ({} not found: plugins beside ptc and on {}; `--config FILE` names one, `ptc init` makes one)",
                    config.path.display(),
                    crate::config::PLUGIN_PATH_ENV
                ),
            };
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
                let s = &config.strategies[*name];
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
                let isolated = match s.isolation {
                    Isolation::InProcess => "",
                    Isolation::Process(_) => "  isolated",
                };
                let _ = writeln!(out, "  {name:<26}{plugin:<26}{}{trigger}{isolated}  {status}", s.params);
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
                for e in super::load_errors(&resolved) {
                    let _ = writeln!(out, "  {e}");
                }
            }
            out
        }
    };
    let warnings = if format == Format::Json { Vec::new() } else { super::load_warnings(&resolved) };
    Ok(Output { stdout, warnings, code })
}

/// An instance's isolation as JSON: `"in-process"`, or `"process"` with its limits.
fn isolation(isolation: &Isolation) -> serde_json::Value {
    match isolation {
        Isolation::InProcess => json!("in-process"),
        Isolation::Process(limits) => json!({
            "mode": "process",
            "memory_bytes": limits.caps.memory,
            "cpu_seconds": limits.caps.cpu.as_secs(),
            "stack_bytes": limits.caps.stack,
            "render_timeout_ms": limits.render_timeout.as_millis() as u64,
        }),
    }
}
