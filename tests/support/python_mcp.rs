//! The official Python MCP SDK (`mcp` 2.x on PyPI) for the interop tests:
//! a Python that imports it, found or installed once, and the server
//! `tests/mcp-python/server.py` started over Streamable HTTP.
//!
//! Where the SDK comes from, in order:
//! 1. `python3` on `PATH`, when it already imports `mcp` 2.x;
//! 2. the virtualenv `target/mcp-python-venv`, when an earlier run made it;
//! 3. a new virtualenv there, `pip install "mcp>=2,<3"` (built beside it
//!    and renamed into place, so an interrupted install never leaves a
//!    half-made one behind).
//!
//! When none works, [`python_mcp`] says why in one line; the tests print
//! it once and skip, or fail when `PTC_REQUIRE_PYTHON_MCP=1`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The SDK versions the interop server is written for (`MCPServer` came with 2.0).
pub const PYTHON_MCP_REQUIREMENT: &str = "mcp>=2,<3";

/// Set to `1` to make a missing SDK fail the interop tests instead of skipping them.
pub const REQUIRE_PYTHON_MCP_VAR: &str = "PTC_REQUIRE_PYTHON_MCP";

/// A Python that imports the official MCP SDK.
#[derive(Debug, Clone)]
pub struct PythonMcp {
    /// The interpreter.
    pub python: PathBuf,
    /// The installed `mcp` version, e.g. `2.3.0`.
    pub version: String,
    /// `tests/mcp-python/server.py`.
    pub server: PathBuf,
}

impl PythonMcp {
    /// The command that runs the server over stdio: `[python, -I, server.py]`
    /// (`-I`: the workspace's `mcp/` folder is never imported as the SDK).
    pub fn stdio_command(&self) -> Vec<String> {
        vec![self.python.display().to_string(), "-I".into(), self.server.display().to_string()]
    }
}

/// The Python with the SDK, found or installed on first use (once per test
/// binary), or why there is none.
pub fn python_mcp() -> Result<&'static PythonMcp, &'static str> {
    static FOUND: OnceLock<Result<PythonMcp, String>> = OnceLock::new();
    FOUND.get_or_init(find_or_install).as_ref().map_err(String::as_str)
}

/// [`python_mcp`], or `None` after printing, once per test binary, why the
/// interop tests are skipped. Panics instead when `PTC_REQUIRE_PYTHON_MCP=1`.
pub fn python_mcp_or_skip() -> Option<&'static PythonMcp> {
    static TOLD: OnceLock<()> = OnceLock::new();
    match python_mcp() {
        Ok(sdk) => Some(sdk),
        Err(why) if std::env::var_os(REQUIRE_PYTHON_MCP_VAR).is_some_and(|v| v == "1") => {
            panic!("{why} ({REQUIRE_PYTHON_MCP_VAR}=1 makes this an error)")
        }
        Err(why) => {
            TOLD.get_or_init(|| {
                // Straight to stderr: the test harness does not capture it, so a skip is never silent.
                let _ = writeln!(std::io::stderr(), "SKIPPED: Python MCP SDK interop tests: {why}");
            });
            None
        }
    }
}

fn find_or_install() -> Result<PythonMcp, String> {
    let server = crate::root().join("tests/mcp-python/server.py");
    let found = |python: PathBuf, version: String| PythonMcp { python, version, server: server.clone() };
    let system = Path::new("python3");
    let without = match probe(system) {
        Ok(version) => return Ok(found(system.into(), version)),
        Err(Probe::NoPython(e)) => return Err(format!("no python3 to run the Python MCP SDK with ({e})")),
        Err(Probe::NoSdk(why)) => why,
    };
    let venv = crate::profile_dir().parent().expect("target/<profile> has a parent").join("mcp-python-venv");
    if let Ok(version) = probe(&venv_python(&venv)) {
        return Ok(found(venv_python(&venv), version));
    }
    install(system, &venv).map_err(|e| format!("python3 has no {PYTHON_MCP_REQUIREMENT} ({without}), and {e}"))?;
    match probe(&venv_python(&venv)) {
        Ok(version) => Ok(found(venv_python(&venv), version)),
        Err(Probe::NoPython(why) | Probe::NoSdk(why)) => Err(format!("the new virtualenv {}: {why}", venv.display())),
    }
}

/// Why a Python cannot serve the interop tests.
enum Probe {
    /// It does not run.
    NoPython(String),
    /// It runs without `mcp` 2.x: the last line of its complaint.
    NoSdk(String),
}

fn venv_python(venv: &Path) -> PathBuf {
    venv.join(if cfg!(windows) { "Scripts/python.exe" } else { "bin/python" })
}

/// The `mcp` version `python` imports, when it is 2.x with `MCPServer`.
fn probe(python: &Path) -> Result<String, Probe> {
    // -I: isolated, so the current folder (the workspace root holds `mcp/`) is not on sys.path.
    let script = "import importlib.metadata as m, mcp.server.mcpserver; print(m.version('mcp'))";
    let out = Command::new(python)
        .args(["-I", "-c", script])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Probe::NoPython(format!("cannot run {}: {e}", python.display())))?;
    if !out.status.success() {
        return Err(Probe::NoSdk(last_line(&out.stderr).unwrap_or_else(|| out.status.to_string())));
    }
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if version.starts_with("2.") {
        Ok(version)
    } else {
        Err(Probe::NoSdk(format!("it has mcp {version}")))
    }
}

/// Makes `venv` with the SDK: a virtualenv beside it, pip install, rename.
fn install(python: &Path, venv: &Path) -> Result<(), String> {
    let partial = venv.with_file_name(format!("mcp-python-venv.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    let pip = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--retries", "1", "--timeout", "30"];
    let made = run_step("python3 -m venv", Command::new(python).args(["-m", "venv"]).arg(&partial)).and_then(|()| {
        run_step("pip install", Command::new(venv_python(&partial)).args(pip).arg(PYTHON_MCP_REQUIREMENT))
    });
    if let Err(why) = made {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(format!("installing {PYTHON_MCP_REQUIREMENT} into {} failed at {why}", venv.display()));
    }
    let _ = std::fs::remove_dir_all(venv);
    if let Err(e) = std::fs::rename(&partial, venv) {
        let _ = std::fs::remove_dir_all(&partial);
        // Another test process may have moved its own into place first.
        if probe(&venv_python(venv)).is_err() {
            return Err(format!("cannot move the new virtualenv into {}: {e}", venv.display()));
        }
    }
    Ok(())
}

/// Runs one install step; on failure `what: the last line it printed`.
fn run_step(what: &str, cmd: &mut Command) -> Result<(), String> {
    match cmd.stdin(Stdio::null()).output() {
        Err(e) => Err(format!("{what}: cannot run {:?}: {e}", cmd.get_program())),
        Ok(out) if !out.status.success() => {
            Err(format!("{what}: {}", last_line(&out.stderr).unwrap_or_else(|| out.status.to_string())))
        }
        Ok(_) => Ok(()),
    }
}

fn last_line(bytes: &[u8]) -> Option<String> {
    String::from_utf8_lossy(bytes).lines().rev().map(str::trim).find(|l| !l.is_empty()).map(str::to_string)
}

/// `tests/mcp-python/server.py` serving Streamable HTTP on 127.0.0.1 (a
/// free port), killed on drop.
pub struct PythonMcpHttpServer {
    child: std::process::Child,
    /// Its endpoint, `http://127.0.0.1:PORT/mcp`.
    pub url: String,
}

impl PythonMcpHttpServer {
    /// Starts the server with `--http 0` and reads the address it listens on.
    pub fn start(sdk: &PythonMcp) -> PythonMcpHttpServer {
        use std::io::BufRead;
        let mut child = Command::new(&sdk.python)
            .arg("-I")
            .arg(&sdk.server)
            .args(["--http", "0"])
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the Python MCP server starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::io::BufReader::new(stdout).read_line(&mut line).expect("the server prints its address");
        let Some(url) = line.trim().strip_prefix("listening on ") else {
            let _ = child.kill();
            panic!("the Python MCP server printed {line:?}, not `listening on URL`");
        };
        PythonMcpHttpServer { url: url.to_string(), child }
    }
}

impl Drop for PythonMcpHttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
