//! The `ptc` binary end to end, as a user runs it: every runnable agent of
//! the root `strategies.toml` (replay transcripts, real plugins, real command
//! tools), the `ptc trace` views of a session it wrote, a run killed in the
//! middle of a turn then resumed, runs killed at random points and resumed
//! until they finish, and a malformed config.

use ptc_integration_tests::{command_in_root, plugin_dir, root, scratch_dir};
use ptc_session::Session;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What every `demo*` agent returns (the ticket-triage transcript), checked by
/// hand against examples/agents/data/tickets.json and the built-in tools.
const DEMO_RESULT: &str = r#"{:open-tickets 17 :top-sku "MOU-2" :refunds-eur-by-tier {"gold" 1986 "silver" 1477 "bronze" 1100} :ship-now {"T-1001" 10 "T-1003" 10 "T-1007" 17 "T-1010" 17 "T-1014" 8 "T-1016" 17 "T-1023" 9} :blocked-out-of-stock ["T-1005" "T-1008" "T-1013" "T-1017"]}"#;

fn ptc() -> Command {
    command_in_root(env!("CARGO_BIN_EXE_ptc"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One finished `ptc run` of a root agent.
struct Ran {
    session: Session,
    path: PathBuf,
    stdout: String,
    stderr: String,
}

/// `ptc run AGENT --config <root>/strategies.toml --session <tmp>/x.json`,
/// with the test-built plugins on `PTC_PLUGIN_PATH`.
fn run_root_agent(agent: &str) -> Ran {
    let path = scratch_dir(agent).join("x.json");
    let out = ptc()
        .env(ptc_host::config::PLUGIN_PATH_ENV, plugin_dir())
        .args(["run", agent, "--config"])
        .arg(root().join("strategies.toml"))
        .arg("--session")
        .arg(&path)
        .output()
        .expect("ptc runs");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{agent}: stdout:\n{stdout}\nstderr:\n{stderr}");
    let session = Session::read(&path).unwrap_or_else(|e| panic!("{agent}: session does not read back: {e}"));
    Ran { session, path, stdout, stderr }
}

fn instance(session: &Session, turn: usize) -> &str {
    let stats = session.turns[turn].render_stats.as_ref().expect("every run turn records render stats");
    stats.instance.as_deref().expect("render_stats.instance is recorded")
}

/// Runs `agent` and checks what every agent run must show: exit 0, the
/// result on stdout and in the session, status, turn numbering, which
/// instance served each turn (the first `full_history_turns` are
/// full-history, later ones one of `later`), and one plain progress line
/// per turn on stderr.
fn check_agent(agent: &str, expected: &str, full_history_turns: usize, later: &[&str]) -> Ran {
    let ran = run_root_agent(agent);
    let s = &ran.session;
    assert_eq!(ran.stdout, format!("{expected}\n"), "{agent}");
    assert_eq!(s.agent.as_deref(), Some(agent));
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"), "{agent}");
    assert_eq!(s.result.as_deref(), Some(expected), "{agent}");
    let n = s.turns.len();
    assert!(n >= 1 && n < s.max_turns as usize, "{agent}: {n} turns of {}", s.max_turns);
    assert_eq!(s.turns.iter().map(|t| t.number as usize).collect::<Vec<_>>(), (1..=n).collect::<Vec<_>>());
    for i in 0..n {
        let served = instance(s, i);
        if i < full_history_turns.max(1) {
            assert_eq!(served, "full-history", "{agent}: turn {}", i + 1);
        } else {
            assert!(later.contains(&served), "{agent}: turn {} served by `{served}`, expected one of {later:?}", i + 1);
        }
    }

    assert!(
        !ran.stderr.contains('\x1b') && !ran.stderr.contains('\r'),
        "{agent}: stderr is not plain:\n{}",
        ran.stderr
    );
    let progress: Vec<&str> =
        ran.stderr.lines().filter(|l| l.starts_with("turn ") && l.contains("strategy=")).collect();
    assert_eq!(progress.len(), n, "{agent}: one progress line per turn:\n{}", ran.stderr);
    for (i, line) in progress.iter().enumerate() {
        assert!(line.starts_with(&format!("turn {}/{} ", i + 1, s.max_turns)), "{agent}: {line}");
        assert!(line.contains(&format!("strategy={}", instance(s, i))), "{agent}: {line}");
    }
    assert!(!ran.stderr.contains("panicked"), "{}", ran.stderr);
    ran
}

#[test]
fn explore_orders() {
    check_agent("explore-orders", "{:shipped-orders 4 :revenue 2135 :largest 101}", 1, &["coalesced"]);
}

#[test]
fn customer_report() {
    let ran = check_agent(
        "customer-report",
        r#"{:gold-customers [{:name "Ada Lovelace" :spent-eur 1150 :shipping-eur 12} {:name "Alan Turing" :spent-eur 1610 :shipping-eur 12} {:name "Hedy Lamarr" :spent-eur 239 :shipping-eur 19}] :out-of-stock ["MOU-2"]}"#,
        1,
        &["coalesced"],
    );
    let calls: BTreeSet<&str> = ran.session.turns.iter().flat_map(|t| &t.tool_calls).map(|c| c.name.as_str()).collect();
    assert_eq!(calls, BTreeSet::from(["customer", "fx-rate", "inventory", "shipping-quote"]));
}

#[test]
fn recover_errors() {
    // No strategy: full-history serves every turn.
    let ran = check_agent(
        "recover-errors",
        r#"{:by-status {"shipped" 4 "pending" 2 "cancelled" 1} :first-order-owner "Ada Lovelace"}"#,
        1,
        &["full-history"],
    );
    let kinds: Vec<Option<&str>> =
        ran.session.turns.iter().map(|t| t.error.as_ref().map(|e| e.kind.as_str())).collect();
    assert_eq!(kinds, [Some("unbound_symbol"), Some("tool"), Some("no_code"), None, None]);
}

/// The shape every demo run shares: 9 turns, a failed turn 3 fixed on turn 4,
/// `defects` redefined on turn 7, all four tools called.
fn check_demo(agent: &str, full_history_turns: usize, later: &[&str]) -> Ran {
    let ran = check_agent(agent, DEMO_RESULT, full_history_turns, later);
    let s = &ran.session;
    assert_eq!((s.turns.len(), s.max_turns), (9, 10), "{agent}");
    let failed: Vec<u32> = s.turns.iter().filter(|t| !t.success).map(|t| t.number).collect();
    assert_eq!(failed, [3], "{agent}");
    assert_eq!(s.turns[2].error.as_ref().unwrap().kind.as_str(), "type");
    let defines = |i: usize| s.turns[i].definitions.iter().any(|d| d.name == "defects");
    assert!(defines(5) && defines(6), "{agent}: `defects` defined on turn 6, redefined on turn 7");
    let calls: BTreeSet<&str> = s.turns.iter().flat_map(|t| &t.tool_calls).map(|c| c.name.as_str()).collect();
    assert_eq!(calls, BTreeSet::from(["customer", "fx-rate", "inventory", "shipping-quote"]));
    ran
}

/// The coalesced demo run, shared by its own test and the trace test.
fn demo_run() -> &'static Ran {
    static RUN: OnceLock<Ran> = OnceLock::new();
    RUN.get_or_init(|| check_demo("demo", 1, &["coalesced"]))
}

#[test]
fn demo() {
    let ran = demo_run();
    // The closing cost line: the run's own cost records, and the full
    // history's cost over the same turns as `ptc compare` prices it.
    let out = ptc()
        .args(["compare", "--strategies", "full-history", "--format", "json", "--session"])
        .arg(&ran.path)
        .output()
        .expect("ptc runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("compare's JSON");
    let costs = report["strategies"][0]["per_session"][0]["figures"]["costs"].as_array().unwrap();
    let openai = costs.iter().find(|c| c["model"] == "openai").unwrap();
    let full = openai["total"]["cost"]["input"].as_f64().unwrap();
    let totals = ptc_session::CostTotals::of(&ran.session.turns).unwrap();
    let line = ran.stderr.lines().find(|l| l.starts_with("ptc: prompts of 9 turns: ")).expect("a cost line");
    let run = totals.input_cost;
    assert!(line.contains(&format!("cost {run:.1} under `openai` prices")), "{line}");
    let share = 100.0 * run / full;
    assert!(
        line.contains(&format!("% of the same prompts uncached, {share:.0}% of the full history's {full:.1});")),
        "{line}"
    );
    assert!(share < 100.0, "{line}");
    // And the facts later programs reused, as compare counts them for the
    // full history (the run's own prompts show them all here too).
    let recall = &report["strategies"][0]["per_session"][0]["figures"]["recall"];
    let (used, visible) = (recall["used"].as_u64().unwrap(), recall["visible"].as_u64().unwrap());
    assert!(used > 0 && visible == used, "{recall}");
    assert!(
        line.contains(&format!("; reused facts still shown: {used} of {used} (100%; full history 100%);")),
        "{line}"
    );
}

#[test]
fn demo_rolling() {
    check_demo("demo-rolling", 1, &["rolling"]);
}

#[test]
fn demo_per_turn() {
    check_demo("demo-per-turn", 1, &["per-turn"]);
}

#[test]
fn demo_aggressive() {
    check_demo("demo-aggressive", 1, &["aggressive"]);
}

#[test]
fn demo_keep_last() {
    check_demo("demo-keep-last", 1, &["keep-last"]);
}

#[test]
fn demo_budget() {
    // `coalesced-late` has trigger turns = 3: full history for turns 1-3; then
    // the primary or, over max_prompt_tokens, a fallback.
    let ran = check_demo("demo-budget", 3, &["coalesced-late", "rolling", "aggressive-2000"]);
    for t in &ran.session.turns {
        assert!(t.prompt_tokens.unwrap() <= 2100, "turn {} is over the budget", t.number);
        let stats = t.render_stats.as_ref().unwrap();
        if !matches!(stats.instance.as_deref(), Some("coalesced-late" | "full-history")) {
            assert!(!stats.attempts.is_empty(), "a fallback turn records what was tried: {stats:?}");
        }
    }
}

fn trace(path: &Path, args: &[&str]) -> String {
    let out = ptc().arg("trace").arg(path).args(args).output().expect("ptc runs");
    assert_eq!(out.status.code(), Some(0), "trace {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The output of one turn, `=== turn N (...) ===` up to the next turn.
fn turn_section(out: &str, number: u32) -> &str {
    let start = out.find(&format!("\n=== turn {number} (")).unwrap_or_else(|| panic!("no turn {number}:\n{out}"));
    let rest = &out[start + 1..];
    let end = rest.find("\n=== turn ").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

#[test]
fn trace_views_show_what_the_run_did() {
    let ran = demo_run();
    let s = &ran.session;
    let header = format!("agent: demo  turns: 9/10  status: returned\nmission: {}\n", s.mission);

    // turns (also the default): full program, tool calls, prints, result.
    let turns = trace(&ran.path, &["--view", "turns"]);
    assert_eq!(turns, trace(&ran.path, &[]));
    assert!(turns.starts_with(&header), "{turns}");
    for t in &s.turns {
        let section = turn_section(&turns, t.number);
        assert!(section.starts_with(&format!("=== turn {} ({}) ===\n", t.number, instance(s, t.number as usize - 1))));
        assert!(section.contains(t.program.as_deref().unwrap()), "turn {}:\n{section}", t.number);
        for c in &t.tool_calls {
            let line = format!("  tool/{} {} -> {}", c.name, c.args, c.result.as_deref().unwrap());
            assert!(section.contains(&line), "{line}\n{section}");
        }
        for p in &t.prints {
            assert!(section.contains(&format!("  | {p}\n")), "{p}\n{section}");
        }
        match (&t.error, &t.result) {
            (Some(e), _) => assert!(section.contains(&format!("  error {}: {}\n", e.kind, e.message)), "{section}"),
            (None, r) => assert!(section.contains(&format!("  => {}\n", r.as_deref().unwrap())), "{section}"),
        }
    }
    assert!(turn_section(&turns, 4).contains("  tool/fx-rate {:from \"GBP\" :to \"EUR\"} -> 1.1646"));
    assert!(turn_section(&turns, 7).contains("  defined defects\n"));
    assert!(turns.ends_with(&format!("\nresult: {DEMO_RESULT}\n")), "{turns}");

    // compressed: exactly the messages sent each turn.
    let compressed = trace(&ran.path, &["--view", "compressed"]);
    assert!(compressed.starts_with(&header));
    for t in &s.turns {
        let section = turn_section(&compressed, t.number);
        for m in &t.messages {
            assert!(section.contains(&format!("--- {} ---\n{}\n", m.role, m.content)), "turn {}", t.number);
        }
    }
    assert!(turn_section(&compressed, 1).contains(&format!("--- system ---\n{}", s.system_prompt)));
    let t8 = turn_section(&compressed, 8);
    assert_eq!(t8.matches("--- user ---").count(), 1, "coalesced sends one USER message:\n{t8}");
    let user = &t8[t8.find("--- user ---").expect("the USER message")..];
    for name in ["open-tickets", "to-eur", "defects", "stock"] {
        assert!(user.contains(name), "{name} not in the USER message:\n{user}");
    }

    // raw: the model's answers verbatim, prose included.
    let raw = trace(&ran.path, &["--view", "raw"]);
    for t in &s.turns {
        assert!(turn_section(&raw, t.number).contains(&t.raw_response), "turn {}", t.number);
    }
    assert!(turn_section(&raw, 4).contains("The refund key must be `:refund`"));

    // --usage: one row per turn with the recorded prompt tokens and cost.
    let usage = trace(&ran.path, &["--usage"]);
    let table = &usage[usage.find("\nusage per turn").expect("usage table")..];
    assert!(
        table.lines().nth(2).unwrap().split_whitespace().eq([
            "turn",
            "strategy",
            "prompt",
            "reported",
            "completion",
            "read",
            "written",
            "uncached",
            "cost",
            "src",
            "finish",
            "model_ms"
        ]),
        "{table}"
    );
    let rows: Vec<Vec<&str>> = table.lines().skip(3).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), s.turns.len() + 1, "{table}");
    for (t, row) in s.turns.iter().zip(&rows) {
        assert_eq!(row[0], t.number.to_string(), "{table}");
        assert_eq!(row[1], instance(s, t.number as usize - 1), "{table}");
        assert_eq!(row[2], t.prompt_tokens.unwrap().to_string(), "{table}");
        let cost = t.cost.as_ref().expect("every turn records its cost");
        assert_eq!(
            row[5..8],
            [cost.cache_read_tokens, cost.cache_write_tokens, cost.uncached_tokens].map(|n| n.to_string()),
            "{table}"
        );
        assert_eq!(row[9], "est", "a replay reports no usage: {table}");
    }
    let total: u64 = s.turns.iter().map(|t| t.prompt_tokens.unwrap()).sum();
    assert_eq!(rows.last().unwrap()[..2], ["total", total.to_string().as_str()], "{table}");
    // The priced columns' totals: the turns' cost records summed.
    let costs: Vec<&ptc_session::CostRecord> = s.turns.iter().filter_map(|t| t.cost.as_ref()).collect();
    let sum = |f: fn(&ptc_session::CostRecord) -> u64| costs.iter().map(|c| f(c)).sum::<u64>().to_string();
    let cost: f64 = costs.iter().map(|c| c.input_cost).sum();
    assert_eq!(
        rows.last().unwrap()[4..],
        [sum(|c| c.cache_read_tokens), sum(|c| c.cache_write_tokens), sum(|c| c.uncached_tokens), format!("{cost:.1}")],
        "{table}"
    );
}

/// A replayed agent `slow` answering `answers` in order, with one command
/// tool `slow` that logs each call's `n` to `calls.log` in `dir`, sleeps
/// `sleep_secs`, and returns `{v: n * 10}`; returns the config file.
fn slow_agent(dir: &Path, answers: &[&str], sleep_secs: f64) -> PathBuf {
    std::fs::write(
        dir.join("slow.py"),
        format!(
            "import json, sys, time\n\
             args = json.load(sys.stdin)\n\
             with open('calls.log', 'a') as f:\n    f.write(str(args['n']) + '\\n')\n\
             time.sleep({sleep_secs})\n\
             json.dump({{'v': args['n'] * 10}}, sys.stdout)\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("replay.json"), serde_json::to_string(answers).unwrap()).unwrap();
    let config = dir.join("ptc.toml");
    std::fs::write(
        &config,
        r#"[tool.slow]
command = ["python3", "slow.py"]
timeout_ms = 10000

[agent.slow]
mission = "Add up the readings."
max_turns = 8
tools = ["slow"]
llm = { backend = "replay", file = "replay.json" }
limits = { timeout_ms = 10000 }
"#,
    )
    .unwrap();
    config
}

/// A run of four turns whose command tool sleeps a second per call, killed
/// (SIGKILL) during turn 3, then resumed.
#[test]
fn killed_run_resumes_from_its_session_file() {
    let dir = scratch_dir("kill");
    let answers = [
        "Start with the first reading.\n```clojure\n(def a (:v (tool/slow {:n 1})))\n(println \"a:\" a)\n```",
        "Add the second.\n```clojure\n(def b (+ a (:v (tool/slow {:n 2}))))\n(println \"b:\" b)\n```",
        "And the third.\n```clojure\n(def c (+ b (:v (tool/slow {:n 3}))))\n(println \"c:\" c)\n```",
        "Done.\n```clojure\n(return [a b c (:v (tool/slow {:n 4}))])\n```",
    ];
    let config = slow_agent(&dir, &answers, 1.0);
    let session = dir.join("s.json");
    let calls = || std::fs::read_to_string(dir.join("calls.log")).unwrap_or_default().lines().count();

    let mut child = ptc()
        .args(["run", "slow", "--config"])
        .arg(&config)
        .arg("--session")
        .arg(&session)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ptc starts");
    // Two turns written and turn 3's tool call under way (it sleeps 1 s).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let done = Session::read(&session).map_or(0, |s| s.turns.len());
        if done == 2 && calls() == 3 {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("ptc exited ({status}) before it could be killed; {done} turns written");
        }
        assert!(Instant::now() < deadline, "no progress: {done} turns, {} tool calls", calls());
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    // What is on disk is a valid session with exactly the completed turns.
    let partial = Session::read(&session).expect("the session survives SIGKILL");
    assert_eq!(partial.turns.iter().map(|t| t.number).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(partial.status, None);
    assert!(partial.turns.iter().all(|t| t.success));
    // A temporary file a killed writer might leave next to the session is not read.
    std::fs::write(dir.join(".s.json.1.tmp"), "{ half a sess").unwrap();

    let out = ptc().args(["run", "slow", "--config"]).arg(&config).arg("--resume").arg(&session).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&out.stdout), "[10 30 60 40]\n");
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with("turn ")).collect();
    assert!(progress.len() == 2 && progress[0].starts_with("turn 3/8 "), "{stderr}");
    let s = Session::read(&session).unwrap();
    assert_eq!(s.turns.iter().map(|t| t.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(s.turns[..2], partial.turns[..], "earlier turns unchanged");
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
    // Memory was rebuilt from recorded results: only turns 3 and 4 called the
    // tool again (3 calls before the kill, the third one lost with it).
    assert_eq!(calls(), 5);

    // Resuming the finished session runs nothing and says the file is as it was.
    let before = std::fs::read(&session).unwrap();
    let out = ptc().args(["run", "slow", "--config"]).arg(&config).arg("--resume").arg(&session).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&out.stdout), "[10 30 60 40]\n");
    assert!(stderr.contains("session already finished (returned); nothing was run"), "{stderr}");
    let closing = format!("ptc: returned after 4 turns; session left as it was in {}", session.display());
    assert!(stderr.lines().any(|l| l == closing), "{stderr}");
    assert_eq!(std::fs::read(&session).unwrap(), before);
    assert_eq!(calls(), 5);
}

/// How many times `random_kills_never_cost_a_turn_or_the_session` kills
/// `ptc run` (docs/benchmarks.md reports it).
const RANDOM_KILLS: usize = 24;

/// A turn as the reference run and a killed-and-resumed run must agree on:
/// everything but wall times (the model call's, each tool call's).
fn comparable(turn: &ptc_session::TurnRecord) -> ptc_session::TurnRecord {
    let mut t = turn.clone();
    t.usage = None;
    for call in &mut t.tool_calls {
        call.duration_ms = 0;
    }
    t
}

/// SIGKILL at random points of a replayed run (seeded, so every run of the
/// test kills at the same offsets), each killed run resumed and maybe
/// killed again, until it finishes. After every kill the session file is
/// absent (killed before it was created) or reads back holding a prefix of
/// the uninterrupted run's turns; every resumed run ends with that run's
/// turns, result and status.
#[test]
fn random_kills_never_cost_a_turn_or_the_session() {
    let dir = scratch_dir("kill-random");
    let answers = [
        "```clojure\n(def a (:v (tool/slow {:n 1})))\n(println \"a:\" a)\n```",
        "```clojure\n(def b (+ a (:v (tool/slow {:n 2}))))\n(println \"b:\" b)\n```",
        "A slip.\n```clojure\n(def oops (+ b (:v (tool/slow {:n 3})) (nth [] 5)))\n```",
        "```clojure\n(def c (+ b (:v (tool/slow {:n 4}))))\n(println \"c:\" c)\n```",
        "```clojure\n(def d (mapv (fn [n] (:v (tool/slow {:n n}))) [5 6]))\n(println \"d:\" d)\n```",
        "```clojure\n(return [a b c d])\n```",
    ];
    let config = slow_agent(&dir, &answers, 0.05);
    let run = |session: &Path, resume: bool| {
        let mut cmd = ptc();
        cmd.args(["run", "slow", "--config"]).arg(&config);
        cmd.arg(if resume { "--resume" } else { "--session" }).arg(session);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("ptc starts")
    };

    let reference_path = dir.join("reference.jsonl");
    let started = Instant::now();
    let out = run(&reference_path, false).wait_with_output().unwrap();
    let whole_run = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[10 30 70 [50 60]]\n");
    let reference = Session::read(&reference_path).unwrap();
    assert_eq!(reference.turns.len(), 6);
    assert!(!reference.turns[2].success, "turn 3 fails, and its memory is rolled back");
    let expected: Vec<_> = reference.turns.iter().map(comparable).collect();

    // xorshift64*: a fixed seed, offsets spread over 0..1.2 x a whole run.
    let mut state: u64 = 0x5eed_0fc0_ffee;
    let mut next_delay = || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_f491_4f6c_dd1d);
        whole_run.mul_f64((r >> 11) as f64 / (1u64 << 53) as f64 * 1.2)
    };
    let (mut kills, mut trials, mut before_the_file) = (0, 0, 0);
    while kills < RANDOM_KILLS {
        trials += 1;
        let session = dir.join(format!("trial-{trials}.jsonl"));
        // Up to three kills per trial (and RANDOM_KILLS in all), then it runs to the end.
        for attempt in 0.. {
            let resume = session.exists();
            let mut child = run(&session, resume);
            let kill = attempt < 3 && kills < RANDOM_KILLS;
            let deadline = Instant::now() + if kill { next_delay() } else { Duration::from_secs(120) };
            let finished = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break Some(status);
                }
                if Instant::now() >= deadline {
                    break None;
                }
                std::thread::sleep(Duration::from_millis(2));
            };
            match finished {
                Some(status) => {
                    let mut stderr = String::new();
                    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
                    assert_eq!(status.code(), Some(0), "trial {trials}, run {attempt}: {stderr}");
                    break;
                }
                None => {
                    child.kill().unwrap();
                    child.wait().unwrap();
                    kills += 1;
                }
            }
            if !session.exists() {
                before_the_file += 1;
                continue;
            }
            let partial = Session::read(&session)
                .unwrap_or_else(|e| panic!("trial {trials}: after kill {kills} the session does not read: {e}"));
            let got: Vec<_> = partial.turns.iter().map(comparable).collect();
            assert_eq!(got[..], expected[..got.len()], "trial {trials}: after kill {kills}");
        }
        let done = Session::read(&session).unwrap();
        assert_eq!(done.status.map(ptc_session::RunStatus::as_str), Some("returned"), "trial {trials}");
        assert_eq!(done.result, reference.result, "trial {trials}");
        assert_eq!(done.turns.iter().map(comparable).collect::<Vec<_>>(), expected, "trial {trials}");
    }
    assert_eq!(kills, RANDOM_KILLS);
    // The kills landed all over the run, not only before it started.
    assert!(before_the_file < kills / 2, "{before_the_file} of {kills} kills came before the session file");
    eprintln!("{kills} kills over {trials} runs ({before_the_file} before the session file existed)");
}

#[test]
fn malformed_config_is_one_line_with_position() {
    let dir = scratch_dir("bad-config");
    let cases = [
        ("syntax.toml", "[agent.a\nmission = \"x\"\n", "1:9"),
        ("type.toml", "[agent.a]\nmission = \"x\"\nmax_turns = \"five\"\n", "3:13"),
        ("tool.toml", "[agent.a]\nmission = \"x\"\ntools = [\"nope\"]\n", "3:10"),
    ];
    for (name, toml, position) in cases {
        let path = dir.join(name);
        std::fs::write(&path, toml).unwrap();
        let out: Output = ptc().args(["run", "a", "--config"]).arg(&path).output().unwrap();
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{name}");
        assert!(out.status.code().is_some(), "{name}: killed by a signal");
        assert_eq!(stderr.lines().count(), 1, "{name}:\n{stderr}");
        assert!(stderr.contains(&format!("{}:{position}: ", path.display())), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty(), "{name}");
    }
}
