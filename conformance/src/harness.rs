//! For plugin authors: run the suite from your own `cargo test`.
//!
//! ```no_run
//! // tests/conformance.rs of a plugin crate with lib name `ptc_strategy_mine`:
//! #[test]
//! fn conforms() {
//!     let lib = ptc_conformance::harness::build_plugin(env!("CARGO_PKG_NAME"), "ptc_strategy_mine");
//!     ptc_conformance::assert_conforms(&lib, r#"{"window": 2}"#);
//! }
//! ```
//!
//! Under `cargo test`, [`runner`] builds the `ptc-conformance-case` runner
//! with cargo from this crate's own manifest (same profile as the test, into
//! [`build_dir`]) unless `PTC_CONFORMANCE_RUNNER` names one, so it works
//! whether `ptc-conformance` is a member of your workspace or a dependency.

use crate::runner::{runner_file_name, Runner, RUNNER_ENV};
use crate::{check, Limits, Report, Target};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `target/<profile>` of the running test executable (it lives in `deps/`).
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("a test knows its own executable path");
    let dir = exe.parent().expect("an executable sits in a folder");
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir.parent().expect("deps/ sits in target/<profile>").to_path_buf()
    } else {
        dir.to_path_buf()
    }
}

/// Folder of the builds a test starts itself: `target/ptc-test-build/<profile>`.
/// A separate target folder, so a test's `cargo build -p ...` (which unifies
/// features over fewer packages) never rewrites artifacts of the running
/// `cargo test` that its doctests still link against.
pub fn build_dir() -> PathBuf {
    let dir = profile_dir();
    let profile = dir.file_name().expect("target/<profile> has a name").to_os_string();
    dir.parent().expect("target/<profile> has a parent").join("ptc-test-build").join(profile)
}

/// Runs `cargo build` with `args` for the profile of the running test (or
/// benchmark) into [`build_dir`]; panics with cargo's output when it fails.
/// The one way tests and benchmarks build what they load or start.
pub fn cargo_build(args: &[&str]) {
    let build = build_dir();
    let target = build.parent().expect("ptc-test-build/<profile> has a parent");
    try_cargo_build_into(target, args).unwrap_or_else(|e| panic!("{e}"));
}

/// A `cargo build` that failed: its arguments and cargo's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CargoBuildError {
    /// The arguments after `cargo build`.
    pub args: Vec<String>,
    /// What cargo printed on stderr (the compiler's errors).
    pub stderr: String,
}

impl std::fmt::Display for CargoBuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cargo build {:?} failed:\n{}", self.args, self.stderr)
    }
}

impl std::error::Error for CargoBuildError {}

/// [`cargo_build`] into the target folder `target` instead, with cargo's
/// failure as a value; returns the folder of the built files,
/// `target/<profile>`. For a test that builds code written against an
/// older SDK (which may fail), and keeps those libraries out of
/// [`build_dir`], the plugin folder the suite's own tests scan.
pub fn try_cargo_build_into(target: &Path, args: &[&str]) -> Result<PathBuf, CargoBuildError> {
    let dir = profile_dir();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.arg("build").arg("--quiet").arg("--target-dir").arg(target).args(args);
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => {}
        Some("release") => {
            cmd.arg("--release");
        }
        Some(profile) => {
            cmd.arg("--profile").arg(profile);
        }
        None => {}
    }
    // Straight to stderr, not through `eprintln!`: the test harness would
    // hold it back until the test ends, and a first build takes minutes.
    let packages = args.iter().filter(|a| **a == "-p").count();
    let what = if packages > 3 { format!("{packages} packages") } else { args.join(" ") };
    let _ = writeln!(std::io::stderr(), "ptc test harness: cargo build {what} (into {}) ...", target.display());
    let started = std::time::Instant::now();
    let out = cmd.output().expect("cargo starts");
    if !out.status.success() {
        let args = args.iter().map(|a| a.to_string()).collect();
        return Err(CargoBuildError { args, stderr: String::from_utf8_lossy(&out.stderr).into_owned() });
    }
    let _ = writeln!(std::io::stderr(), "ptc test harness: built {what} in {:.1} s", started.elapsed().as_secs_f64());
    Ok(target.join(dir.file_name().expect("target/<profile> has a name")))
}

/// Builds the cdylib of `package` and returns its path (`lib_name` is the
/// `[lib] name`, e.g. `ptc_strategy_mine`).
pub fn build_plugin(package: &str, lib_name: &str) -> PathBuf {
    cargo_build(&["-p", package, "--lib"]);
    let file = format!("{}{lib_name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    build_dir().join(file)
}

/// The runner for tests: `PTC_CONFORMANCE_RUNNER`, else built once per
/// process with cargo into the test's target folder.
pub fn runner() -> Runner {
    static RUNNER: OnceLock<Runner> = OnceLock::new();
    RUNNER
        .get_or_init(|| {
            if std::env::var_os(RUNNER_ENV).is_some() {
                return Runner::locate().unwrap_or_else(|e| panic!("{e}"));
            }
            // By this crate's own manifest, not `-p`: as a dev-dependency of a
            // plugin outside this workspace it is not a package cargo will
            // build binaries of by name.
            cargo_build(&[
                "--manifest-path",
                concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
                "--bin",
                "ptc-conformance-case",
            ]);
            Runner::new(build_dir().join(runner_file_name()))
        })
        .clone()
}

/// Runs the whole suite on the plugin file with `params` and returns the report.
pub fn conformance_report(plugin: &Path, params: &str, limits: &Limits) -> Report {
    check(&Target::File(plugin.to_path_buf()), params, &[], limits, &runner()).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs the suite; panics with the report when any MUST case fails, and
/// prints it (visible with `cargo test -- --nocapture`) when all pass.
pub fn assert_conforms(plugin: impl AsRef<Path>, params: &str) {
    let report = conformance_report(plugin.as_ref(), params, &Limits::default());
    if !report.conforms() {
        panic!("{} does not conform: {:?}\n{}", plugin.as_ref().display(), report.must_failures(), report.text());
    }
    print!("{}", report.text());
}
