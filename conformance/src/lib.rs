//! The conformance suite for `ptc` strategy plugins.
//!
//! It checks a plugin against every invariant of `docs/spec/strategies.md` on a
//! set of request fixtures (the realistic session corpus at every turn, small
//! edge cases, and large generated requests), plus advisory figures (tokens
//! versus full-history, cache-friendly prefixes). Each case runs in its own
//! child process under a wall-time limit and resource caps (memory, CPU
//! time, render stack: [`Caps`]), so a plugin that aborts, hangs, allocates
//! without bound or recurses forever fails that case, with the limit named,
//! instead of taking the suite (or the machine) down.
//!
//! ```no_run
//! use ptc_conformance::{check, Limits, Runner, Target};
//! use std::path::PathBuf;
//!
//! let target = Target::File(PathBuf::from("target/debug/libptc_strategy_single_user_coalesced.so"));
//! let report = check(&target, "{}", &[], &Limits::default(), &Runner::locate().unwrap()).unwrap();
//! print!("{}", report.text());
//! std::process::exit(report.exit_code());
//! ```
//!
//! Plugin authors call [`assert_conforms`] from their own `cargo test`
//! (see [`harness`]); `ptc conformance PLUGIN` runs the same suite from the
//! command line. The case catalogue is [`CASES`].

#![warn(missing_docs)]

pub mod cases;
pub mod checks;
mod corpus;
pub mod fixtures;
pub mod generate;
pub mod harness;
mod outcome;
mod recall;
pub mod report;
pub mod runner;
pub mod suite;

pub use cases::{Case, Level, CASES};
pub use harness::assert_conforms;
pub use ptc_registry::caps::{Caps, Usage};
pub use report::{CaseReport, Report, Status};
pub use runner::{Runner, RunnerError};

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The suite's limits, each a named setting with a default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall time one case's child process may take before it is killed (default 60 s).
    pub case_timeout: Duration,
    /// Time one render of a large fixture may take (MUST-BOUNDED-TIME, default 2 s).
    pub render_time: Duration,
    /// Message bytes one render of a large fixture may produce (MUST-BOUNDED-SIZE, default 200 KB).
    pub output_bytes: usize,
    /// Cases run at once (default: the number of CPUs).
    pub parallel: usize,
    /// Caps on each case's child process: memory (default 1 GiB), CPU time
    /// (default 20 s) and the render thread's stack (default 8 MiB).
    pub caps: Caps,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            case_timeout: Duration::from_secs(60),
            render_time: Duration::from_secs(2),
            output_bytes: 200 * 1000,
            parallel: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            caps: Caps::default(),
        }
    }
}

/// Which plugin to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A plugin library file.
    File(PathBuf),
    /// A plugin's strategy name, looked up in plugin folders or files.
    Name {
        /// Strategy name (`single-user-coalesced`).
        name: String,
        /// Where to look (as `[plugins] paths`).
        paths: Vec<PathBuf>,
    },
}

impl Target {
    /// The library file: `File` as given, `Name` by loading the plugins found
    /// in its paths.
    pub fn resolve(&self) -> Result<PathBuf, Error> {
        match self {
            Target::File(path) if path.is_file() => Ok(path.clone()),
            Target::File(path) => Err(Error::NoSuchFile(path.clone())),
            Target::Name { name, paths } => {
                let registry = ptc_registry::Registry::discover(paths);
                match registry.plugin(name) {
                    Some(p) => Ok(p.description.file.clone()),
                    None => Err(Error::UnknownPlugin(registry.not_found(name))),
                }
            }
        }
    }
}

/// Why the suite could not run at all (a failing case is not an error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The plugin file does not exist.
    NoSuchFile(PathBuf),
    /// No plugin of that name in the search paths: what loaded, where the
    /// search looked, and the libraries there not named like plugins.
    UnknownPlugin(ptc_registry::NotFound),
    /// The parameters are not a JSON object.
    BadParams(String),
    /// A case ID that is not in the catalogue.
    UnknownCase(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchFile(p) => write!(f, "plugin file {} does not exist", p.display()),
            Error::UnknownPlugin(not_found) => write!(f, "no plugin file and {not_found}"),
            Error::BadParams(why) => write!(f, "parameters {why}"),
            Error::UnknownCase(id) => {
                write!(f, "unknown case `{id}` (known: {})", CASES.iter().map(|c| c.id).collect::<Vec<_>>().join(", "))
            }
        }
    }
}

impl std::error::Error for Error {}

/// Runs the suite: `cases` (every case when empty) on `target` built with
/// `params` (a JSON object; empty means `{}`), each case in a child process
/// started through `runner`.
pub fn check(
    target: &Target,
    params: &str,
    cases: &[String],
    limits: &Limits,
    runner: &Runner,
) -> Result<Report, Error> {
    let params = if params.trim().is_empty() { "{}" } else { params };
    match serde_json::from_str::<serde_json::Value>(params) {
        Ok(serde_json::Value::Object(_)) => {}
        Ok(other) => return Err(Error::BadParams(format!("must be a JSON object, got {other}"))),
        Err(e) => return Err(Error::BadParams(format!("are not valid JSON: {e}"))),
    }
    let file = target.resolve()?;
    let file = file.canonicalize().unwrap_or(file);
    suite::run(&file, params, cases, limits, runner)
}
