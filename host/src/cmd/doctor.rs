//! `ptc doctor [--config FILE]`: checks the environment ptc runs in, where
//! `ptc validate` checks the file: which strategy plugins are found (and
//! their interface version), whether the API key variable of every model
//! backend the agents use is set, and whether each endpoint answers and
//! takes the key (one `GET {base}/models` per server with the key the run
//! sends, under [`ENDPOINT_TIMEOUT`]: any HTTP answer counts as answering,
//! 401 or 403 as a refused key). Also every MCP server: started (stdio) or
//! reached (Streamable HTTP) and asked for its tools, as a run does.
//!
//! One line per check, `ok` or `FAIL` with what to do; exit code 1 when a
//! check fails. Works without a config file (plugins only).

#[cfg(feature = "mcp")]
use super::validate::find_program;
use super::{CmdResult, Output};
use crate::config::{Config, LlmConfig};
use crate::llm::config::{HttpLlmConfig, Protocol};
#[cfg(feature = "mcp")]
use ptc_mcp::Transport;
use ptc_plugin_api::INTERFACE_VERSION;
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

/// How long an endpoint may take to answer before it counts as down.
pub const ENDPOINT_TIMEOUT: Duration = Duration::from_secs(5);

/// The outcome of one check.
struct Check {
    ok: bool,
    what: String,
}

/// `ptc doctor`: one line per check.
pub fn doctor(config_path: &Path) -> CmdResult {
    let found = config_path.exists();
    let resolved = super::resolve_or_empty(config_path)?;
    let config = &resolved.config;
    let mut checks = Vec::new();
    let mut out = format!("ptc {} (plugin interface {INTERFACE_VERSION})\n", env!("CARGO_PKG_VERSION"));
    match std::env::current_exe() {
        Ok(exe) => {
            let _ = writeln!(out, "binary: {}", exe.display());
        }
        Err(e) => checks.push(Check { ok: false, what: format!("cannot locate the running ptc: {e}") }),
    }
    let _ = match found {
        true => writeln!(out, "config: {}", config.path.display()),
        false => {
            writeln!(out, "config: none ({} not found; plugins only; `ptc init` makes one)", config_path.display())
        }
    };

    let plugins: Vec<_> = resolved.registry.plugins().collect();
    for p in &plugins {
        let d = &p.description;
        checks.push(Check {
            ok: true,
            what: format!("plugin {} {} (interface {}) {}", d.name, d.version, d.interface_version, d.file.display()),
        });
    }
    for e in super::load_errors(&resolved) {
        checks.push(Check { ok: false, what: format!("plugin not loaded: {e}") });
    }
    if plugins.is_empty() {
        checks.push(Check {
            ok: false,
            what: format!(
                "no strategy plugins found (searched {}); install them beside ptc (README, \"Install\") or set {}",
                searched(resolved.registry.searched()),
                crate::config::PLUGIN_PATH_ENV
            ),
        });
    }
    checks.extend(backend_checks(config));
    #[cfg(feature = "mcp")]
    checks.extend(mcp_checks(config));

    let failed = checks.iter().filter(|c| !c.ok).count();
    for c in &checks {
        let _ = writeln!(out, "{}  {}", if c.ok { "ok  " } else { "FAIL" }, c.what);
    }
    let _ = match failed {
        0 => writeln!(out, "all {} checks passed", checks.len()),
        n => writeln!(out, "{n} of {} checks failed", checks.len()),
    };
    Ok(Output { stdout: out, warnings: Vec::new(), code: i32::from(failed > 0) })
}

fn searched(paths: &[std::path::PathBuf]) -> String {
    match paths.is_empty() {
        true => "no folder".to_string(),
        false => paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
    }
}

/// The key variable and the endpoint of every distinct HTTP backend.
fn backend_checks(config: &Config) -> Vec<Check> {
    let mut seen: Vec<(Protocol, String, Option<String>)> = Vec::new();
    let mut checks = Vec::new();
    for agent in config.agents.values() {
        for llm in agent.llm.iter().chain(&agent.llm_query) {
            let (protocol, http) = match llm {
                LlmConfig::Replay { .. } => continue,
                LlmConfig::Openai(c) => (Protocol::OpenAi, c),
                LlmConfig::Anthropic(c) => (Protocol::Anthropic, c),
            };
            let key = (protocol, http.endpoint(protocol), http.key_env(protocol).map(str::to_string));
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            checks.extend(key_check(&agent.name, protocol, http));
            checks.push(endpoint_check(&agent.name, protocol, http));
        }
    }
    checks
}

fn key_check(agent: &str, protocol: Protocol, http: &HttpLlmConfig) -> Option<Check> {
    let var = http.key_env(protocol)?;
    let set = std::env::var(var).is_ok_and(|v| !v.trim().is_empty());
    Some(Check {
        ok: set,
        what: match set {
            true => format!("agent `{agent}`: {} key variable {var} is set", protocol.name()),
            false => format!(
                "agent `{agent}`: {} key variable {var} is not set; export it with the API key",
                protocol.name()
            ),
        },
    })
}

/// One GET to the server's model list (`{base}/models`), with the key the
/// run would send: any HTTP status means the endpoint answers; 401 or 403
/// means the key (or its absence) is refused; a 2xx with a key, that the
/// key is accepted.
fn endpoint_check(agent: &str, protocol: Protocol, http: &HttpLlmConfig) -> Check {
    let url = http.endpoint(protocol);
    let what = format!("agent `{agent}`: {} endpoint {url}", protocol.name());
    let models = http.models_endpoint(protocol);
    let var = http.key_env(protocol);
    let key = var.and_then(|v| std::env::var(v).ok()).filter(|k| !k.trim().is_empty());
    let asked = format!("GET {models}");
    match answers(&models, &protocol.auth_headers(key.as_deref())) {
        Ok(status @ 200..=299) if key.is_some() => Check {
            ok: true,
            what: format!("{what} answers and accepts the key in {} ({asked}: HTTP {status})", var.unwrap_or("")),
        },
        Ok(status @ (401 | 403)) => Check {
            ok: false,
            what: match (var, &key) {
                (Some(var), Some(_)) => {
                    format!("{what} refuses the key in {var} ({asked}: HTTP {status}); check its value")
                }
                (Some(var), None) => format!("{what} asks for a key ({asked}: HTTP {status}); export {var}"),
                (None, _) => format!(
                    "{what} asks for a key ({asked}: HTTP {status}); set `api_key_env` in the agent's llm table to \
                     the variable that holds it"
                ),
            },
        },
        Ok(status) => Check { ok: true, what: format!("{what} answers ({asked}: HTTP {status})") },
        Err(e) => Check {
            ok: false,
            what: format!(
                "{what} does not answer within {}s: {e}; is the server up, and `base_url` right?",
                ENDPOINT_TIMEOUT.as_secs()
            ),
        },
    }
}

/// The HTTP status `url` answers a GET with `headers`, under [`ENDPOINT_TIMEOUT`].
fn answers(url: &str, headers: &[(&str, String)]) -> Result<u16, ureq::Error> {
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(ENDPOINT_TIMEOUT)).http_status_as_error(false).build().into();
    let mut request = agent.get(url);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    request.call().map(|r| r.status().as_u16())
}

/// Each MCP server started as a run starts it (a stdio server's program
/// found first, for `ptc validate`'s words): the tools it lists, or why it
/// did not start.
#[cfg(feature = "mcp")]
fn mcp_checks(config: &Config) -> Vec<Check> {
    let probed = crate::mcp::McpServers::probe(config);
    let checks = probed.into_iter().map(|(name, started)| {
        let mcp = &config.mcp[name.as_str()];
        let what = format!("mcp server `{name}` ({})", mcp.server.describe());
        if let Transport::Stdio { command, dir, .. } = &mcp.server.transport {
            if let Err(why) = find_program(command, dir) {
                return Check { ok: false, what: format!("{what}: {why}") };
            }
        }
        match started {
            Ok(tools) => Check { ok: true, what: format!("{what} answers: {}", listed(&tools)) },
            Err(e) => Check { ok: false, what: e.to_string() },
        }
    });
    checks.collect()
}

/// `3 tools (lookup, search, fail)`; a long list ends in `...`.
#[cfg(feature = "mcp")]
fn listed(tools: &[String]) -> String {
    const SHOWN: usize = 8;
    let names = tools.iter().take(SHOWN).map(String::as_str).collect::<Vec<_>>().join(", ");
    let more = if tools.len() > SHOWN { ", ..." } else { "" };
    match tools.len() {
        0 => "no tools".to_string(),
        1 => format!("1 tool ({names})"),
        n => format!("{n} tools ({names}{more})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigFile;

    #[test]
    fn a_missing_key_and_a_dead_endpoint_fail_with_what_to_do() {
        let dir = std::env::temp_dir().join(format!("ptc-doctor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        let config = Config::parse(
            &dir.join("strategies.toml"),
            "[agent.a]\nmission = \"m\"\nllm = { backend = \"openai\", base_url = \"http://127.0.0.1:1\", model = \"x\", api_key_env = \"PTC_DOCTOR_TEST_UNSET_KEY\" }\n",
        )
        .unwrap();
        let checks = backend_checks(&config);
        assert_eq!(checks.len(), 2);
        assert!(!checks[0].ok && checks[0].what.contains("PTC_DOCTOR_TEST_UNSET_KEY is not set"), "{}", checks[0].what);
        assert!(
            !checks[1].ok && checks[1].what.contains("http://127.0.0.1:1/v1/chat/completions does not answer"),
            "{}",
            checks[1].what
        );
    }
}
