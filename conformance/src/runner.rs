//! The child-process side: the protocol between the suite and the program
//! that runs one case, and where that program is.
//!
//! A runner is invoked as
//! `{program} {leading args...} PLUGIN --params JSON --run-case ID --limits JSON`
//! and prints one line `PTC-CONFORMANCE-RESULT {json}` on stdout, plus
//! `fixture: NAME` progress lines on stderr. `ptc` is its own runner
//! (`ptc conformance PLUGIN --run-case ID ...`); elsewhere the
//! `ptc-conformance-case` binary of this crate is.

use crate::cases;
use crate::outcome::Outcome;
use crate::Limits;
use ptc_registry::child_limits::{ChildLimits, LimitsError};
use serde_json::json;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// Prefix of the result line a runner prints.
pub const RESULT_PREFIX: &str = "PTC-CONFORMANCE-RESULT ";

/// Environment variable naming the runner binary to use.
pub const RUNNER_ENV: &str = "PTC_CONFORMANCE_RUNNER";

/// File name of the standalone runner on this platform.
pub fn runner_file_name() -> String {
    format!("ptc-conformance-case{}", std::env::consts::EXE_SUFFIX)
}

/// Why [`Runner::locate`] found no runner; each says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunnerError {
    /// `PTC_CONFORMANCE_RUNNER` names something that is not a file.
    NotAFile(PathBuf),
    /// The running executable's path is unknown (the system's error).
    NoExecutable(String),
    /// No runner next to the running executable `exe`, nor one folder up.
    NotFound {
        /// The running executable.
        exe: PathBuf,
    },
}

impl fmt::Display for RunnerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunnerError::NotAFile(path) => write!(f, "{RUNNER_ENV}={} is not a file", path.display()),
            RunnerError::NoExecutable(e) => write!(f, "cannot find the current executable: {e}"),
            RunnerError::NotFound { exe } => write!(
                f,
                "conformance runner `{}` not found next to {}; build it with `cargo build -p ptc-conformance` or set {RUNNER_ENV}",
                runner_file_name(),
                exe.display()
            ),
        }
    }
}

impl std::error::Error for RunnerError {}

/// A program that runs one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runner {
    /// The executable.
    pub program: PathBuf,
    /// Arguments before the protocol's own (`["conformance"]` for `ptc`).
    pub leading_args: Vec<OsString>,
}

impl Runner {
    /// The standalone runner at `program`.
    pub fn new(program: impl Into<PathBuf>) -> Runner {
        Runner { program: program.into(), leading_args: Vec::new() }
    }

    /// The runner named by `PTC_CONFORMANCE_RUNNER`, else `ptc-conformance-case`
    /// next to the current executable or one folder up (test executables
    /// live in `target/<profile>/deps`).
    pub fn locate() -> Result<Runner, RunnerError> {
        if let Some(path) = std::env::var_os(RUNNER_ENV) {
            let path = PathBuf::from(path);
            return if path.is_file() { Ok(Runner::new(path)) } else { Err(RunnerError::NotAFile(path)) };
        }
        let exe = std::env::current_exe().map_err(|e| RunnerError::NoExecutable(e.to_string()))?;
        let dir = exe.parent().unwrap_or(Path::new("."));
        let candidates = [Some(dir.join(runner_file_name())), dir.parent().map(|d| d.join(runner_file_name()))];
        candidates.into_iter().flatten().find(|p| p.is_file()).map(Runner::new).ok_or(RunnerError::NotFound { exe })
    }

    /// The full argument list for one case.
    pub fn args(&self, plugin: &Path, params: &str, case: &str, limits: &Limits) -> Vec<OsString> {
        let mut args = self.leading_args.clone();
        args.push(plugin.as_os_str().to_owned());
        for (flag, value) in
            [("--params", params.to_string()), ("--run-case", case.to_string()), ("--limits", limits_json(limits))]
        {
            args.push(flag.into());
            args.push(value.into());
        }
        args
    }
}

/// The limits a child needs, as its `--limits` argument (its memory and
/// CPU caps are set by the parent before it starts, not passed).
pub fn limits_json(limits: &Limits) -> String {
    ChildLimits {
        stack_bytes: Some(limits.caps.stack),
        render_time: Some(limits.render_time),
        output_bytes: Some(limits.output_bytes),
        ..ChildLimits::default()
    }
    .to_json()
}

/// The [`Limits`] of a child from its `--limits` argument, the defaults for
/// what it leaves out.
fn parse_limits(text: &str) -> Result<Limits, LimitsError> {
    let given = ChildLimits::parse(text)?;
    let defaults = Limits::default();
    Ok(Limits {
        render_time: given.render_time.unwrap_or(defaults.render_time),
        output_bytes: given.output_bytes.unwrap_or(defaults.output_bytes),
        caps: given.apply_to(defaults.caps),
        ..defaults
    })
}

/// Runs case `case` on a thread with the stack size of the limits and
/// prints its result line; returns the exit code (0 whenever a result was
/// printed, pass or fail).
pub fn run_case(plugin: &Path, params: &str, case: &str, limits: &str) -> i32 {
    let fail = |reason| Outcome { passed: false, reason, figures: serde_json::Value::Null };
    let outcome = match parse_limits(limits) {
        Ok(limits) => limits
            .caps
            .on_stack(|| cases::run(case, plugin, params, &limits))
            .unwrap_or_else(|e| fail(format!("the case {e}"))),
        Err(e) => fail(e.to_string()),
    };
    let line = json!({"passed": outcome.passed, "reason": outcome.reason, "figures": outcome.figures});
    println!("{RESULT_PREFIX}{line}");
    0
}

/// `main` of the standalone runner: parses the protocol arguments.
pub fn main_with_args(args: impl IntoIterator<Item = String>) -> i32 {
    let usage = "usage: ptc-conformance-case PLUGIN --params JSON --run-case ID --limits JSON";
    let mut args = args.into_iter();
    let Some(plugin) = args.next() else {
        eprintln!("{usage}");
        return 2;
    };
    let (mut params, mut case, mut limits) = ("{}".to_string(), None, "{}".to_string());
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            eprintln!("{flag} needs a value; {usage}");
            return 2;
        };
        match flag.as_str() {
            "--params" => params = value,
            "--run-case" => case = Some(value),
            "--limits" => limits = value,
            other => {
                eprintln!("unknown argument `{other}`; {usage}");
                return 2;
            }
        }
    }
    match case {
        Some(case) => run_case(Path::new(&plugin), &params, &case, &limits),
        None => {
            eprintln!("--run-case is required; {usage}");
            2
        }
    }
}
