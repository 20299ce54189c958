//! Process isolation with real plugins and the real `ptc render-child`:
//! isolated renders equal in-process ones (blocks and breakpoints
//! included) over the whole corpus; every way a plugin can take its process
//! down becomes a render error that names it, and the next render starts a
//! new process; and `ptc run` of the demo agent whose primary strategy
//! aborts completes on its fallback, with the failure in the session.

use ptc_integration_tests::{command_in_root, corpus_sessions, library, own_peak_memory, root, scratch_dir};
use ptc_plugin_api::{ErrorKind, Prompt, RenderRequest};
use ptc_registry::isolate::{ChildCommand, Isolated, Limits, MAX_FAILURES};
use ptc_registry::Registry;
use ptc_session::Session;
use std::path::PathBuf;
use std::time::Duration;

fn child() -> ChildCommand {
    ChildCommand::new(env!("CARGO_BIN_EXE_ptc"), [ptc_host::resolve::RENDER_CHILD])
}

fn abort_plugin() -> PathBuf {
    library("ptc_test_broken_abort")
}

/// The broken-abort plugin, isolated, failing with `failure` from turn 3.
fn broken(failure: &str, limits: Limits) -> Isolated {
    let params = format!(r#"{{"failure": "{failure}", "from_turn": 3}}"#);
    Isolated::new("broken-abort", &abort_plugin(), &params, child(), limits)
}

/// The request of turn `turn` of a corpus session.
fn request(turn: u32) -> RenderRequest {
    let session = Session::read(&root().join("tests/sessions/data-exploration.json")).unwrap();
    session.request_for_turn(Some(turn)).unwrap()
}

fn blocks(prompt: &Prompt) -> Vec<Vec<(String, bool)>> {
    (0..prompt.messages().len())
        .map(|i| prompt.blocks(i).map(|b| (b.text.to_string(), b.breakpoint)).collect())
        .collect()
}

#[test]
fn isolated_renders_are_the_in_process_renders_over_the_corpus() {
    let file = library("ptc_strategy_single_user_coalesced");
    let registry = Registry::discover(std::slice::from_ref(&file));
    let params = r#"{"println_limit": 10, "sample_limit": 2}"#;
    let local = registry.build("c", "single-user-coalesced", params).unwrap();
    let isolated = registry.build_isolated("c", "single-user-coalesced", params, &child(), &Limits::default()).unwrap();
    assert!(isolated.is_isolated() && !local.is_isolated());
    let (mut renders, mut breakpoints) = (0, 0);
    for path in corpus_sessions() {
        let session = Session::read(&path).unwrap();
        let last = session.turns.len() as u32 + 1;
        // Forward (each request appends a turn), then back to turn 2 (the
        // child's request is cut), then the next session (sent whole).
        for turn in (1..=last).chain([2]) {
            let request = session.request_for_turn(Some(turn)).unwrap();
            let expected = local.render(&request).unwrap();
            let got = isolated.render(&request).unwrap_or_else(|e| panic!("{}: turn {turn}: {e}", path.display()));
            assert_eq!(got, expected, "{}: turn {turn}", path.display());
            assert_eq!(blocks(&got), blocks(&expected));
            renders += 1;
            breakpoints += got.breakpoint_count();
        }
    }
    assert!(renders > 90, "{renders} renders");
    assert!(breakpoints > 0, "the corpus renders carry cache breakpoints, and they must survive the trip");
}

#[test]
fn every_way_of_dying_is_a_render_error_that_names_it() {
    let short = Limits { render_timeout: Duration::from_millis(500), ..Limits::default() };
    let mut small = Limits::default();
    small.caps.memory = 256 << 20;
    let mut one_cpu_second = Limits { render_timeout: Duration::from_secs(60), ..Limits::default() };
    one_cpu_second.caps.cpu = Duration::from_secs(1);
    let cases = [
        ("abort", Limits::default(), "died of signal 6 (SIGABRT) rendering turn 3"),
        ("segfault", Limits::default(), "died of signal 11 (SIGSEGV) rendering turn 3"),
        ("exit", Limits::default(), "exited with code 3 without an answer rendering turn 3"),
        ("leak", small, "exceeded the 256 MiB memory limit (an allocation of 67108864 bytes failed) rendering turn 3"),
        ("hang", short, "took longer than the 500 ms render time limit (its process was killed) rendering turn 3"),
        ("spin", one_cpu_second, "used more than 1 s of CPU rendering turn 3"),
    ];
    for (failure, limits, expected) in cases {
        let plugin = broken(failure, limits);
        assert!(plugin.render(&request(2)).is_ok(), "{failure}: turn 2 renders");
        let err = plugin.render(&request(3)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Render, "{failure}");
        assert_eq!(err.message(), format!("isolated plugin `broken-abort` {expected}"), "{failure}");
        // A new process serves the next render, from the whole request.
        let again = plugin.render(&request(2)).unwrap_or_else(|e| panic!("{failure}: no restart: {e}"));
        assert_eq!(again.messages().len(), 2, "{failure}");
    }
}

#[test]
fn a_plugin_that_writes_without_end_fills_no_memory_of_ptc() {
    // `flood` prints to stdout (the child's stderr) without a newline until
    // the render time limit kills it; `flood-wire` writes the same where
    // the child keeps its answers, which ends at the wire's line limit.
    let limits = Limits { render_timeout: Duration::from_secs(3), ..Limits::default() };
    let cases = [
        ("flood", "took longer than the 3000 ms render time limit (its process was killed) rendering turn 3"),
        (
            "flood-wire",
            "answered out of protocol (a line past 64 MiB (wire::MAX_LINE_BYTES); its process was killed) rendering turn 3",
        ),
    ];
    for (failure, expected) in cases {
        let before = own_peak_memory();
        let plugin = broken(failure, limits);
        assert!(plugin.render(&request(2)).is_ok(), "{failure}: turn 2 renders");
        let err = plugin.render(&request(3)).unwrap_err();
        assert_eq!(err.message(), format!("isolated plugin `broken-abort` {expected}"), "{failure}");
        // Read whole, seconds of a pipe at full speed are gigabytes; kept
        // within bounds, 64 MiB of a wire line and 16 KiB of stderr.
        let grew = own_peak_memory().saturating_sub(before);
        assert!(grew < 512 << 20, "{failure}: ptc's peak memory grew by {} MiB", grew >> 20);
    }
}

#[test]
fn a_render_thread_that_overflows_its_stack_is_named() {
    // broken-recursion recurses without end on 100 turns or more.
    let file = library("ptc_test_broken_recursion");
    let mut limits = Limits::default();
    limits.caps.stack = 1 << 20;
    let plugin = Isolated::new("broken-recursion", &file, "{}", child(), limits);
    let mut long = RenderRequest::new("m", "s", 200);
    for n in 1..=100 {
        long.push_turn(ptc_plugin_api::Turn::new(n, "a", None));
    }
    let err = plugin.render(&long).unwrap_err();
    assert_eq!(
        err.message(),
        "isolated plugin `broken-recursion` overflowed its stack (1 MiB render thread) rendering turn 101"
    );
}

#[test]
fn the_cpu_cap_bounds_each_render_not_the_process() {
    // Each render burns 0.4 s of CPU; eight of them in one process add up
    // to well over the 1 s cap, which a render renews.
    let mut limits = Limits { render_timeout: Duration::from_secs(60), ..Limits::default() };
    limits.caps.cpu = Duration::from_secs(1);
    let params = r#"{"from_turn": 1000, "burn_ms": 400}"#;
    let plugin = Isolated::new("broken-abort", &abort_plugin(), params, child(), limits);
    for turn in 1..=8 {
        plugin.render(&request(turn.min(5))).unwrap_or_else(|e| panic!("render {turn}: {e}"));
    }
}

#[test]
fn after_three_failures_in_a_row_the_instance_gives_up() {
    let plugin = broken("abort", Limits::default());
    for _ in 0..MAX_FAILURES {
        assert!(plugin.render(&request(3)).unwrap_err().message().contains("SIGABRT"));
    }
    let err = plugin.render(&request(2)).unwrap_err();
    assert_eq!(
        err.message(),
        "isolated plugin `broken-abort` is disabled for this run after 3 process failures in a row (last: died of signal 6 (SIGABRT))"
    );
}

#[test]
fn what_a_plugin_prints_on_stdout_does_not_reach_the_protocol() {
    let file = abort_plugin();
    let printing = Isolated::new("broken-abort", &file, r#"{"failure": "stdout"}"#, child(), Limits::default());
    let quiet = Registry::discover(std::slice::from_ref(&file));
    let quiet = quiet.build("q", "broken-abort", r#"{"failure": "stdout", "from_turn": 1000}"#).unwrap();
    for turn in 1..=4 {
        assert_eq!(printing.render(&request(turn)).unwrap(), quiet.render(&request(turn)).unwrap());
    }
}

#[test]
fn bad_parameters_fail_the_start_and_every_render() {
    let file = abort_plugin();
    let plugin = Isolated::new("broken-abort", &file, r#"{"failure": "nope"}"#, child(), Limits::default());
    let err = plugin.start().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert!(err.message().contains("parameter `failure` must be one of"), "{err}");
    assert_eq!(plugin.render(&request(1)).unwrap_err(), err);
    // A child program that does not exist: a start failure, named.
    let nowhere = ChildCommand::new("/nonexistent/ptc", ["render-child"]);
    let plugin = Isolated::new("broken-abort", &file, "{}", nowhere, Limits::default());
    assert!(plugin.start().is_ok(), "not the plugin's fault: the next render tries again");
    let err = plugin.render(&request(1)).unwrap_err();
    assert!(err.message().starts_with("isolated plugin `broken-abort` could not start /nonexistent/ptc: "), "{err}");
}

/// The demo agent (ticket triage, replayed) with an isolated primary that
/// aborts from turn 3 and coalesced as its fallback.
const ISOLATED_DEMO: &str = r#"
[strategy.coalesced]
plugin = "single-user-coalesced"

[strategy.untrusted]
plugin = "broken-abort"
isolation = "process"
isolation_limits = { memory = "512MiB", render_timeout_ms = 5000 }
failure = "abort"
from_turn = 3

[tool.shipping-quote]
command = ["python3", "ROOT/examples/agents/tools/shipping_quote.py"]
signature = "(country :string, weight_kg :int) -> {country :string, cost_eur :int, days :int}"
timeout_ms = 5000

[agent.demo-isolated]
strategy = "untrusted"
fallback = ["coalesced"]
mission = "Triage the support tickets that are still open (status open or waiting): how many there are, which SKU has the most, the refunds at stake in EUR per customer tier, and for every ticket that needs a replacement (defective or damaged product) whether it is in stock and what 1 kg shipping to the customer costs in EUR."
max_turns = 10
data = { tickets = "ROOT/examples/agents/data/tickets.json" }
tools = ["customer", "fx-rate", "inventory", "shipping-quote"]
llm = { backend = "replay", file = "ROOT/examples/agents/replay/ticket-triage.json" }
limits = { timeout_ms = 10000 }
"#;

#[test]
fn ptc_run_completes_on_the_fallback_when_the_isolated_primary_aborts() {
    let dir = scratch_dir("isolated-demo");
    let config = dir.join("ptc.toml");
    let plugins =
        format!("[plugins]\npaths = [{:?}, {:?}]\n", library("ptc_strategy_single_user_coalesced"), abort_plugin());
    let root = root().display().to_string();
    std::fs::write(&config, plugins + &ISOLATED_DEMO.replace("ROOT", &root)).unwrap();
    let path = dir.join("s.jsonl");
    let out = command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .args(["run", "demo-isolated", "--config"])
        .arg(&config)
        .arg("--session")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The run's answer is the demo's, as with any in-process strategy.
    let s = Session::read(&path).unwrap();
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
    assert!(s.result.as_deref().unwrap().starts_with("{:open-tickets 17 :top-sku \"MOU-2\""), "{:?}", s.result);
    let served: Vec<&str> =
        s.turns.iter().map(|t| t.render_stats.as_ref().unwrap().instance.as_deref().unwrap()).collect();
    assert_eq!(served[..3], ["full-history", "untrusted", "coalesced"], "{served:?}");
    assert!(served[2..].iter().all(|&i| i == "coalesced"), "{served:?}");
    // Each failure is in the session: the attempts of the turn, in order.
    let abort =
        "`untrusted`: render failed: isolated plugin `broken-abort` died of signal 6 (SIGABRT) rendering turn 3";
    let attempts = &s.turns[2].render_stats.as_ref().unwrap().attempts;
    assert_eq!(attempts[0], abort, "{attempts:?}");
    assert!(attempts[1].starts_with("`coalesced` needs "), "{attempts:?}");
    let disabled = &s.turns[5].render_stats.as_ref().unwrap().attempts[0];
    assert!(disabled.contains("is disabled for this run after 3 process failures"), "{disabled}");
    // And on stderr, one line per failed turn besides the progress lines.
    assert!(stderr.contains(&format!("turn 3: strategy {abort}; served by `coalesced`")), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The child processes of `pid` (every thread's), from `/proc`.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map(|d| d.flatten().collect::<Vec<_>>());
    let mut found = Vec::new();
    for task in tasks.unwrap_or_default() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        found.extend(text.split_whitespace().filter_map(|p| p.parse::<u32>().ok()));
    }
    found
}

/// Whether `pid` is gone or a zombie waiting for its new parent to reap it.
#[cfg(target_os = "linux")]
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_hanging_child_does_not_outlive_a_killed_ptc() {
    let dir = scratch_dir("isolated-orphan");
    let config = dir.join("ptc.toml");
    let plugins =
        format!("[plugins]\npaths = [{:?}, {:?}]\n", library("ptc_strategy_single_user_coalesced"), abort_plugin());
    let demo = ISOLATED_DEMO
        .replace("ROOT", &root().display().to_string())
        .replace("failure = \"abort\"", "failure = \"hang\"")
        .replace("from_turn = 3", "from_turn = 2")
        .replace("render_timeout_ms = 5000", "render_timeout_ms = 600000");
    std::fs::write(&config, plugins + &demo).unwrap();
    let mut ptc = command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .args(["run", "demo-isolated", "--config"])
        .arg(&config)
        .arg("--session")
        .arg(dir.join("s.jsonl"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Turn 1 is written, and turn 2 hangs in the child.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let child = loop {
        let written = Session::read(&dir.join("s.jsonl")).map_or(0, |s| s.turns.len());
        if let (1, [child]) = (written, children(ptc.id()).as_slice()) {
            break *child;
        }
        assert!(ptc.try_wait().unwrap().is_none(), "ptc ended early");
        assert!(std::time::Instant::now() < deadline, "no hanging render child");
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(200));
    assert!(!ended(child), "the child hangs in its render");
    ptc.kill().unwrap();
    ptc.wait().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !ended(child) {
        assert!(std::time::Instant::now() < deadline, "the render child {child} outlived ptc");
        std::thread::sleep(Duration::from_millis(20));
    }
}
