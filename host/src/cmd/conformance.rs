//! `ptc conformance PLUGIN`: the strategy conformance suite from the command
//! line. `ptc` is also the suite's per-case runner (hidden `--run-case`),
//! so no second binary has to be installed next to it.

use super::{CmdError, CmdResult, Output};
use crate::config::Config;
use crate::config::ConfigFile;
use ptc_conformance::{check, Limits, Runner, Target};
use std::path::Path;
use std::time::Duration;

/// Output format of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// One line per case and a summary.
    Text,
    /// The report as JSON.
    Json,
    /// JUnit XML, for CI.
    Junit,
}

/// Options of `ptc conformance`.
#[derive(Debug, Clone)]
pub struct ConformanceArgs<'a> {
    /// Library file, plugin name, or strategy instance of the config.
    pub plugin: &'a str,
    /// Parameters (JSON object); default: the instance's, else `{}`.
    pub params: Option<&'a str>,
    /// Config file (plugin paths and instances).
    pub config: &'a Path,
    /// Report format.
    pub format: ReportFormat,
    /// Per-case time limit in seconds.
    pub timeout: Option<u64>,
    /// Cases to run (all when empty).
    pub cases: &'a [String],
    /// Cases run at once.
    pub jobs: Option<usize>,
    /// Memory cap of each case's process (`1GiB`, `512M`, bytes).
    pub memory_limit: Option<&'a str>,
    /// Runner mode: run this one case in this process.
    pub run_case: Option<&'a str>,
    /// Runner mode: the limits (JSON).
    pub limits: Option<&'a str>,
}

/// Runs the suite (or, in runner mode, one case) and returns what to print.
pub fn conformance(args: &ConformanceArgs<'_>) -> CmdResult {
    if let Some(case) = args.run_case {
        let code = ptc_conformance::runner::run_case(
            Path::new(args.plugin),
            args.params.unwrap_or("{}"),
            case,
            args.limits.unwrap_or("{}"),
        );
        return Ok(Output { stdout: String::new(), warnings: Vec::new(), code });
    }
    let (target, params) = target(args)?;
    let mut limits = Limits::default();
    if let Some(secs) = args.timeout {
        limits.case_timeout = Duration::from_secs(secs.max(1));
    }
    if let Some(jobs) = args.jobs {
        limits.parallel = jobs.max(1);
    }
    if let Some(size) = args.memory_limit {
        limits.caps.memory =
            ptc_registry::caps::parse_size(size).map_err(|e| CmdError::Other(format!("--memory-limit: {e}")))?;
    }
    let exe = std::env::current_exe()
        .map_err(|e| CmdError::Other(format!("cannot find the ptc executable (the suite's case runner): {e}")))?;
    let runner = Runner { program: exe, leading_args: vec!["conformance".into()] };
    let report = check(&target, &params, args.cases, &limits, &runner).map_err(|e| CmdError::Other(e.to_string()))?;
    let stdout = match args.format {
        ReportFormat::Text => report.text(),
        ReportFormat::Json => {
            serde_json::to_string_pretty(&report.json()).expect("JSON values always serialize") + "\n"
        }
        ReportFormat::Junit => report.junit(),
    };
    let warnings = match args.format {
        ReportFormat::Text => Vec::new(),
        _ => vec![report.summary()],
    };
    Ok(Output { stdout, warnings, code: report.exit_code() })
}

/// A library path as given; else an instance of the config (its plugin and
/// parameters); else a plugin name looked up where `ptc run` looks: the
/// config's plugin paths, `PTC_PLUGIN_PATH` and `ptc`'s own folder.
fn target(args: &ConformanceArgs<'_>) -> Result<(Target, String), CmdError> {
    let path = Path::new(args.plugin);
    if path.is_file() {
        return Ok((Target::File(path.to_path_buf()), args.params.unwrap_or("{}").to_string()));
    }
    let looks_like_path =
        args.plugin.contains(std::path::MAIN_SEPARATOR) || args.plugin.ends_with(std::env::consts::DLL_SUFFIX);
    if looks_like_path {
        return Err(CmdError::Usage(format!(
            "plugin file {} does not exist; give a plugin library file, a plugin name or a strategy instance (`ptc strategies` lists them)",
            path.display()
        )));
    }
    // Without a config file: the plugins on PTC_PLUGIN_PATH and beside
    // `ptc`, as `ptc strategies` and `ptc render` find them.
    let config = Config::load_or_empty(args.config)
        .map_err(|e| CmdError::Other(format!("{e} (needed to find plugin `{}` by name)", args.plugin)))?;
    let (name, params) = match config.strategies.get(args.plugin) {
        Some(instance) => {
            (instance.plugin.clone(), args.params.map(String::from).unwrap_or_else(|| instance.params.to_string()))
        }
        None => (args.plugin.to_string(), args.params.unwrap_or("{}").to_string()),
    };
    // Found as `ptc run` finds it.
    let registry = config.discover_plugins();
    match registry.plugin(&name) {
        Some(plugin) => Ok((Target::File(plugin.description.file.clone()), params)),
        None => Err(CmdError::Other(
            ptc_conformance::Error::UnknownPlugin(crate::resolve::plugin_not_found(&registry, &name)).to_string(),
        )),
    }
}
