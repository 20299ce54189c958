//! Shared helpers for the cross-crate tests: building the plugin cdylibs
//! (`cargo test` does not put them where a test can load them) and finding
//! fixtures.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Every plugin crate the tests load, built together once per test binary.
pub const PLUGIN_CRATES: &[&str] = &[
    "ptc-strategy-single-user-coalesced",
    "ptc-strategy-rolling-window",
    "ptc-strategy-per-turn-summary",
    "ptc-strategy-aggressive",
    "ptc-example-keep-last-turns",
    "ptc-test-plugin-panicking",
    "ptc-test-plugin-wrong-interface",
    "ptc-test-plugin-broken-panic",
    "ptc-test-plugin-broken-drop-mission",
    "ptc-test-plugin-broken-nondeterministic",
    "ptc-test-plugin-broken-hide-error",
    "ptc-test-plugin-broken-two-users",
    "ptc-test-plugin-broken-sleep",
    "ptc-test-plugin-broken-accept-unknown",
    "ptc-test-plugin-broken-stale-cache",
    "ptc-test-plugin-broken-unbounded-alloc",
    "ptc-test-plugin-broken-huge-alloc",
    "ptc-test-plugin-broken-recursion",
    "ptc-test-plugin-broken-busy-loop",
    "ptc-test-plugin-broken-stats",
    "ptc-test-plugin-broken-abort",
];

/// Writes `message` to stderr at once, past the test harness's capture
/// (which holds `eprintln!` back until the test ends): for the steps of a
/// slow test, such as the builds it starts.
pub fn progress(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the workspace root").to_path_buf()
}

pub use ptc_conformance::harness::{build_dir, cargo_build, profile_dir};

mod python_mcp;
pub use python_mcp::{
    python_mcp, python_mcp_or_skip, PythonMcp, PythonMcpHttpServer, PYTHON_MCP_REQUIREMENT, REQUIRE_PYTHON_MCP_VAR,
};

/// One fenced code block of a Markdown file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fenced {
    /// Its language (`toml`, `rust`, ...; empty when the fence names none).
    pub lang: String,
    /// The line of its opening fence (1-based).
    pub line: usize,
    /// Its lines, without the fence's own indentation (a block in a list
    /// item is indented), each ending in a newline.
    pub text: String,
}

/// Every fenced code block of `markdown`, in order, as CommonMark reads
/// backtick fences: three or more backticks and an info string without a
/// backtick open a block (a line that starts with an inline code span of
/// four backticks opens none), and a line of at least as many backticks
/// alone closes it. Panics when a block is not closed, so a test over a
/// file's blocks never silently reads fewer.
pub fn fenced_blocks(markdown: &str) -> Vec<Fenced> {
    /// The backticks a line opens or closes a fence with, and what follows them.
    fn fence(line: &str) -> Option<(usize, &str)> {
        let ticks = line.len() - line.trim_start_matches('`').len();
        (ticks >= 3).then(|| (ticks, &line[ticks..]))
    }
    let mut blocks = Vec::new();
    // The open block: its fence's indentation and backticks, and the block.
    let mut open: Option<(usize, usize, Fenced)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match (&mut open, fence(trimmed)) {
            (None, Some((ticks, info))) if !info.contains('`') => {
                open =
                    Some((indent, ticks, Fenced { lang: info.trim().to_string(), line: i + 1, text: String::new() }));
            }
            (Some((_, opened, _)), Some((ticks, rest))) if ticks >= *opened && rest.trim().is_empty() => {
                blocks.extend(open.take().map(|(_, _, block)| block));
            }
            (Some((fence_indent, _, block)), _) => {
                block.text.push_str(&line[indent.min(*fence_indent)..]);
                block.text.push('\n');
            }
            (None, _) => {}
        }
    }
    if let Some((_, _, block)) = open {
        panic!("the fenced block opened on line {} is not closed", block.line);
    }
    blocks
}

/// The session corpus: every `tests/sessions/*.json`, sorted by name
/// (panics when it is missing, so a test over it never passes empty).
pub fn corpus_sessions() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/sessions"))
        .expect("tests/sessions/ is readable")
        .map(|e| e.expect("readable folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the session corpus is missing: {files:?}");
    files
}

/// An empty folder for one test: `<tmp>/ptc-test-<pid>/<name>`, emptied
/// first, so reruns start clean and test binaries never share one. The
/// folders of test processes that have ended are removed the first time a
/// process asks for one, so runs do not pile up in the temp folder (the
/// last run's stay for a look at what failed).
pub fn scratch_dir(name: &str) -> PathBuf {
    static SWEPT: OnceLock<()> = OnceLock::new();
    SWEPT.get_or_init(remove_ended_scratch_dirs);
    let dir = std::env::temp_dir().join(format!("ptc-test-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp folder is writable");
    dir
}

/// Removes `<tmp>/ptc-test-<pid>` folders whose process has ended (no
/// `/proc/<pid>`; elsewhere nothing is removed).
fn remove_ended_scratch_dirs() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("ptc-test-")).and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Puts `from` at `to` as a hard link (no disk space: a test that
/// "installs" the 200 MB debug `ptc` per run would otherwise leave a copy
/// in the temp folder each time), or a copy where a link cannot be made
/// (another file system).
pub fn link_or_copy(from: &Path, to: &Path) {
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", from.display(), to.display()));
    }
}

/// `program` (a binary under test) started in the workspace root with
/// `RUST_LOG` unset, so its stderr is what a user sees by default.
pub fn command_in_root(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(root()).env_remove("RUST_LOG");
    cmd
}

/// Builds every plugin crate (same profile as the test) into
/// `target/ptc-test-build/<profile>` and returns that folder. Panics with cargo's output when it fails.
pub fn plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let args: Vec<&str> = PLUGIN_CRATES.iter().flat_map(|&krate| ["-p", krate]).collect();
        cargo_build(&args);
        build_dir()
    })
}

/// Path of a built library by crate lib name, e.g. `ptc_test_panicking`.
pub fn library(lib_name: &str) -> PathBuf {
    plugin_dir().join(format!("{}{lib_name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX))
}

/// Compares `actual` with the golden file at `path`; with `PTC_BLESS=1`
/// writes it instead. Returns a readable diff description on mismatch.
pub fn check_golden(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("PTC_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("golden files sit in a folder")).expect("create golden folder");
        std::fs::write(path, actual).expect("write golden file");
        return Ok(());
    }
    let expected = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {e} (run with PTC_BLESS=1 to create it)", path.display()))?;
    if expected == actual {
        return Ok(());
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Err(format!(
        "{} differs at line {}:\n  expected: {:?}\n  actual:   {:?}\n(re-bless with PTC_BLESS=1 if the change is intended)",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end of file>"),
        actual.lines().nth(line).unwrap_or("<end of file>"),
    ))
}

/// A system shared library that is certainly not a ptc plugin (libm), for
/// "not a plugin" tests; `None` where none of the usual paths exists.
pub fn system_libm() -> Option<PathBuf> {
    [
        "/lib/x86_64-linux-gnu/libm.so.6",
        "/usr/lib/x86_64-linux-gnu/libm.so.6",
        "/lib64/libm.so.6",
        "/usr/lib/libm.dylib",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// The MCP test server binary (`mcp/test-server`), built once per test binary.
pub fn mcp_test_server() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            cargo_build(&["-p", "ptc-mcp-test-server"]);
            build_dir().join(format!("ptc-mcp-test-server{}", std::env::consts::EXE_SUFFIX))
        })
        .clone()
}

/// A Streamable HTTP MCP test server on 127.0.0.1 (a free port), killed on drop.
pub struct McpHttpServer {
    child: std::process::Child,
    /// Its endpoint, `http://127.0.0.1:PORT/mcp`.
    pub url: String,
}

impl McpHttpServer {
    /// Starts the test server with `--http 127.0.0.1:0` and reads its address.
    pub fn start() -> McpHttpServer {
        use std::io::BufRead;
        let mut child = Command::new(mcp_test_server())
            .args(["--http", "127.0.0.1:0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the MCP test server starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::io::BufReader::new(stdout).read_line(&mut line).expect("the server prints its address");
        let url = line.trim().strip_prefix("listening on ").expect("`listening on URL`").to_string();
        McpHttpServer { child, url }
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for McpHttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Peak memory (`VmHWM`) of this test process, in bytes.
#[cfg(target_os = "linux")]
pub fn own_peak_memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).unwrap().trim().trim_end_matches("kB").trim();
    kib.parse::<u64>().unwrap() * 1024
}

/// Polls `done` every 20 ms until it holds; fails the test after a minute
/// with `what` (what was waited for).
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let started = std::time::Instant::now();
    while !done() {
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "{what}: not within a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A plain HTTP server on 127.0.0.1 (no MCP, no model API): every
/// connection's request is read once and answered with the whole HTTP
/// response `answer` makes of it (lowercased), then closed. Its address,
/// `http://127.0.0.1:PORT`.
pub fn http_server(answer: impl Fn(&str) -> Vec<u8> + Send + 'static) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = vec![0u8; 64 << 10];
            let n = stream.read(&mut request).unwrap_or(0);
            let _ = stream.write_all(&answer(&String::from_utf8_lossy(&request[..n]).to_lowercase()));
        }
    });
    url
}

/// The process ids a test's shell wrote to `path`, separated by
/// whitespace (`echo $$ $! > FILE`: the shell's and its background
/// child's), for [`process_ended`].
pub fn pids_written(path: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.split_whitespace().map(|pid| pid.parse().unwrap_or_else(|e| panic!("{pid}: {e}"))).collect()
}

/// Whether process `pid` has ended: gone from `/proc`, or a zombie left
/// for its parent to reap (Linux; elsewhere always true).
pub fn process_ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // `pid (name) S ...`: the state follows the name's closing parenthesis.
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with(['Z', 'X'])),
    }
}

/// Sends `child` SIGINT, as Ctrl-C does (to it alone, not its process group).
pub fn interrupt(child: &std::process::Child) {
    signal(child, "INT");
}

/// Sends `child` the signal `name` (`INT`, `TERM`, `HUP`), with `kill`.
pub fn signal(child: &std::process::Child, name: &str) {
    let sent = Command::new("kill").args([&format!("-{name}"), &child.id().to_string()]).status().unwrap();
    assert!(sent.success(), "kill -{name} {}", child.id());
}
