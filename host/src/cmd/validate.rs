//! `ptc validate [--config FILE]`: checks a config without running
//! anything: the file parses (tables, keys, signatures, tool names), every
//! strategy instance builds from its plugin, and every agent has what
//! `ptc run` needs: a mission, a model backend (a replay file that reads),
//! its strategy and fallbacks, readable JSON data, a known token encoding.
//! Every command tool's and stdio MCP server's program must be found.
//!
//! Every problem is reported, not only the first; exit code 1 when there is
//! any. Model keys and endpoints are not checked here (they belong to the
//! environment, not the file): that is `ptc doctor`.

use super::{CmdResult, Output};
use crate::config::{Agent, LlmConfig};
use crate::llm::replay::Replay;
use crate::resolve::Resolved;
#[cfg(feature = "mcp")]
use ptc_mcp::Transport;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// `ptc validate`: one line per problem, or a summary of what was checked.
pub fn validate(config_path: &Path) -> CmdResult {
    let resolved = super::resolve(config_path)?;
    let problems = problems(&resolved);
    let config = &resolved.config;
    let mut out = String::new();
    for p in &problems {
        let _ = writeln!(out, "problem: {p}");
    }
    let checked = [
        count(config.strategies.len(), "strategy instance"),
        count(config.agents.len(), "agent"),
        count(config.tools.len(), "tool"),
        count(config.mcp.len(), "MCP server"),
    ]
    .join(", ");
    match problems.len() {
        0 => {
            let _ = writeln!(out, "{}: ok ({checked})", config.path.display());
        }
        n => {
            let _ = writeln!(
                out,
                "{}: {n} problem{} ({checked}); fix them, then run `ptc validate` again",
                config.path.display(),
                if n == 1 { "" } else { "s" }
            );
        }
    }
    Ok(Output { stdout: out, warnings: super::load_warnings(&resolved), code: i32::from(!problems.is_empty()) })
}

/// `1 agent`, `2 agents`.
fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// Every problem of a resolved config, one line each.
pub fn problems(resolved: &Resolved) -> Vec<String> {
    let config = &resolved.config;
    let mut problems: Vec<String> =
        resolved.instances().filter_map(|(_, built)| built.err().map(|e| e.to_string())).collect();
    if let Err(e) = config.price_models() {
        problems.push(format!("{}: pricing: {e}", config.path.display()));
    }
    for agent in config.agents.values() {
        problems.extend(agent_problems(resolved, agent));
    }
    for tool in config.tools.values() {
        if let Err(why) = find_program(&tool.command, &tool.dir) {
            problems.push(format!("{}: tool `{}`: {why}", tool.location, tool.name));
        }
    }
    #[cfg(feature = "mcp")]
    for (name, mcp) in &config.mcp {
        if let Transport::Stdio { command, dir, .. } = &mcp.server.transport {
            if let Err(why) = find_program(command, dir) {
                problems.push(format!("{}: MCP server `{name}`: {why}", mcp.location));
            }
        }
    }
    problems
}

/// What `ptc run AGENT` would stop on before its first turn.
fn agent_problems(resolved: &Resolved, agent: &Agent) -> Vec<String> {
    let at = format!("{}: agent `{}`", agent.location, agent.name);
    let mut problems = Vec::new();
    if agent.mission.is_none() {
        problems.push(format!("{at}: no `mission = \"...\"` (what the agent is asked to do)"));
    }
    for (what, llm) in [("llm", &agent.llm), ("llm_query", &agent.llm_query)] {
        match llm {
            None if what == "llm" => problems.push(format!(
                "{at}: no `llm = {{ backend = ... }}` (a replay file, an OpenAI-compatible server or Anthropic; `ptc docs agents`)"
            )),
            Some(LlmConfig::Replay { file }) => {
                if let Err(e) = Replay::from_file(file, 0) {
                    let note = crate::config::missing_path_note(&agent.location.file, file);
                    problems.push(format!("{at}: {what}: {e}{note}"));
                }
            }
            _ => {}
        }
    }
    for name in agent.strategy.iter().chain(&agent.fallback) {
        if let Err(e) = resolved.strategy(name) {
            problems.push(format!("{at}: {e}"));
        }
    }
    for (name, path) in &agent.data {
        if let Err(why) = read_json(path) {
            let note = crate::config::missing_path_note(&agent.location.file, path);
            problems.push(format!("{at}: data `{name}`: {}: {why}{note}", path.display()));
        }
    }
    if let Err(e) = crate::run::agent_counter(agent) {
        problems.push(e.to_string());
    }
    problems
}

fn read_json(path: &Path) -> Result<(), String> {
    let text = ptc_agent::inputs::read_input_file(path)?;
    serde_json::from_str::<serde_json::Value>(&text).map(|_| ()).map_err(|e| format!("not JSON: {e}"))
}

/// The program of `command` as it would be started in `dir`: a name is
/// looked up on `PATH`, a path with a `/` is taken relative to `dir`.
pub fn find_program(command: &[String], dir: &Path) -> Result<PathBuf, String> {
    let Some(program) = command.first() else { return Err("`command` is empty".to_string()) };
    if program.contains(std::path::MAIN_SEPARATOR) || program.contains('/') {
        let path = dir.join(program);
        return match path.is_file() {
            true => Ok(path),
            false => Err(format!("program {} does not exist (relative to {})", program, dir_shown(dir))),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("program `{program}` is not on PATH (install it, or give its path in `command`)"))
}

fn dir_shown(dir: &Path) -> String {
    match dir.as_os_str().is_empty() {
        true => ".".to_string(),
        false => dir.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ConfigFile};

    fn problems_of(toml: &str) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!("ptc-validate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = Config::parse(&dir.join("strategies.toml"), toml).unwrap();
        config.executable_dir = false;
        problems(&config.resolve())
    }

    #[cfg(feature = "mcp")]
    #[test]
    fn every_problem_is_reported() {
        let found = problems_of(
            r#"
[strategy.mine]
plugin = "no-such-plugin"

[tool.quote]
command = ["no-such-program-ptc"]

[mcp.files]
command = ["./no-such-server"]

[agent.a]
strategy = "mine"
data = { orders = "missing.json" }
llm = { backend = "replay", file = "missing-replay.json" }

[agent.b]
mission = "m"
"#,
        );
        let has = |needle: &str| found.iter().any(|p| p.contains(needle));
        assert!(has("strategy `mine`"), "{found:#?}");
        assert!(has("agent `a`: no `mission"), "{found:#?}");
        assert!(has("agent `a`: llm: ") && has("missing-replay.json"), "{found:#?}");
        assert!(has("agent `a`: data `orders`"), "{found:#?}");
        assert!(has("agent `b`: no `llm"), "{found:#?}");
        assert!(has("tool `quote`: program `no-such-program-ptc` is not on PATH"), "{found:#?}");
        assert!(has("MCP server `files`: program ./no-such-server does not exist"), "{found:#?}");
    }

    #[test]
    fn a_complete_agent_has_no_problem() {
        let found = problems_of(
            "[tool.t]\ncommand = [\"sh\", \"-c\", \"cat\"]\n[agent.a]\nmission = \"m\"\nllm = { backend = \"openai\", base_url = \"http://127.0.0.1:1\", model = \"x\" }\n",
        );
        assert!(found.is_empty(), "{found:#?}");
    }
}
