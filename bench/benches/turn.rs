//! The run loop's per-turn overhead: what `AgentRun::turn` costs besides
//! the model call and the program. That is rendering the prompt through
//! the policy (the strategy plugin, the token count), pricing it, recording
//! the turn, appending it to the session journal and to the live render
//! request. Measured at turn 5 and at turn 200 of one synthetic replay run:
//! a turn must cost what the turn holds, not what the session holds.
//!
//! The run: the `single-user-coalesced` plugin (a real cdylib, loaded
//! through `strategies.toml`), the default price model, no tools and no
//! data, and a replayed model whose answer on turn n is
//! `(def total (+ n 1)) (println "step" n)`. Two instances of the plugin:
//! - `spec`, its defaults (the spec layout): the prompt keeps its size (one
//!   name, at most 15 prints shown) while the session grows;
//! - `shipped`, the `coalesced` instance of the repository's
//!   `strategies.toml`, what `ptc run` uses by default (the checkpointed
//!   layout with fact memory): every turn adds an entry with its facts, so
//!   the prompt grows (1,306 tokens at turn 5, 2,052 at turn 200);
//! - `blocks`, the same with `memory = "blocks"`, the checkpointed layout
//!   before fact memory (every older turn as its whole block).
//!
//! Each iteration starts a fresh run, does the turns before untimed, and
//! times turn N's `turn()`. The program is then run alone on the same
//! memory and its time subtracted, so a row is turn minus program. (The
//! replayed model call is a string clone.) Rows for a session file on disk
//! (the journal's `fsync` included) and on tmpfs (where `fsync` is free, so
//! the CPU side shows).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use ptc_host::config::{Config, ConfigFile, StrategyInstance};
use ptc_host::llm::Replay;
use ptc_host::resolve::Resolved;
use ptc_host::run::{AgentRun, RunOptions, Step};
use ptc_host::tools::Tools;
use ptc_integration_tests::{build_dir, cargo_build};
use ptc_lisp::run_program;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The turns measured.
const TURNS: [u32; 2] = [5, 200];

/// The program of turn `n`.
fn program(n: u32) -> String {
    format!("(def total (+ {n} 1))\n(println \"step\" {n})")
}

/// The replayed answers, one per turn.
fn answers() -> Vec<String> {
    (1..=TURNS[1]).map(|n| format!("Step {n}.\n```clojure\n{}\n```", program(n))).collect()
}

fn quiet(_: &str) {}

/// The instances measured, each the strategy of the agent of its name.
const INSTANCES: [&str; 3] = ["spec", "shipped", "blocks"];

/// The `coalesced` instance of the repository's `strategies.toml`, read
/// by the config's own reader.
fn shipped_coalesced() -> StrategyInstance {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../strategies.toml");
    let mut shipped = Config::load(&path).unwrap_or_else(|e| panic!("{e}")).strategies;
    shipped.shift_remove("coalesced").expect("strategies.toml ships `coalesced`")
}

/// Loads the config of the agents `spec`, `shipped` and `blocks` in `dir`.
fn resolved(dir: &Path) -> Resolved {
    cargo_build(&["-p", "ptc-strategy-single-user-coalesced", "--lib"]);
    let config = dir.join("strategies.toml");
    let agent = |name: &str| {
        format!(
            "[strategy.{name}]\nplugin = \"single-user-coalesced\"\n\n\
             [agent.{name}]\nstrategy = \"{name}\"\nmission = \"Add up the step numbers.\"\nmax_turns = 1000\n\n"
        )
    };
    let toml =
        format!("[plugins]\npaths = [{:?}]\n\n{}", build_dir().display().to_string(), INSTANCES.map(agent).concat());
    std::fs::write(&config, toml).unwrap();
    let mut config = Config::load(&config).unwrap();
    // `spec` keeps the plugin's defaults; the other two become the shipped
    // instance, `blocks` with block memory.
    let shipped = shipped_coalesced();
    let mut blocks = StrategyInstance { name: "blocks".into(), ..shipped.clone() };
    blocks.params["memory"] = "blocks".into();
    config.strategies.insert("shipped".into(), StrategyInstance { name: "shipped".into(), ..shipped });
    config.strategies.insert("blocks".into(), blocks);
    let resolved = config.resolve();
    for instance in INSTANCES {
        resolved.strategy(instance).expect("the plugin loads");
    }
    resolved
}

/// Turn `turn`'s time minus its program's, in a fresh run (written to
/// `out`) whose earlier turns ran just before, untimed.
fn overhead(resolved: &Resolved, agent: &str, out: &Path, turn: u32) -> Duration {
    let options = RunOptions { session_out: Some(out), ..RunOptions::default() };
    let mut run = AgentRun::prepare(resolved, agent, options).unwrap();
    let mut llm = Replay::new(answers(), 0);
    for _ in 1..turn {
        assert_eq!(run.turn(&mut llm, &mut quiet).unwrap(), Step::Continue);
    }
    let limits = run.agent().limits.to_limits();
    let memory = run.session().rebuild_memory(&Default::default(), &limits).unwrap();
    let start = Instant::now();
    assert_eq!(run.turn(&mut llm, &mut quiet).unwrap(), Step::Continue);
    let whole = start.elapsed();
    let start = Instant::now();
    let ran = run_program(&program(turn), &memory, &Default::default(), &mut Tools::new(Vec::new()), &limits);
    let alone = start.elapsed();
    assert!(ran.result.is_ok(), "{:?}", ran.result);
    assert_eq!(run.session().turns.len(), turn as usize, "turn {turn} was recorded");
    whole.saturating_sub(alone)
}

fn per_turn_overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("turn_overhead");
    // Each iteration first runs the turns before (untimed; 200 turns take
    // about 0.1 s on tmpfs, 1 s on disk), so keep the iteration count
    // small: flat sampling, short windows.
    group.sampling_mode(SamplingMode::Flat).sample_size(30);
    group.warm_up_time(Duration::from_millis(50)).measurement_time(Duration::from_millis(300));
    let mut stores = vec![("disk", std::env::temp_dir())];
    if Path::new("/dev/shm").is_dir() {
        stores.push(("tmpfs", PathBuf::from("/dev/shm")));
    }
    for (store, root) in stores {
        let dir = root.join(format!("ptc-bench-turn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let resolved = resolved(&dir);
        let out = dir.join("bench.session.jsonl");
        for (instance, turn) in INSTANCES.iter().flat_map(|i| TURNS.map(|t| (*i, t))) {
            group.bench_with_input(BenchmarkId::new(format!("{store}/{instance}"), turn), &turn, |b, &turn| {
                b.iter_custom(|iters| (0..iters).map(|_| overhead(&resolved, instance, &out, turn)).sum())
            });
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    group.finish();
}

criterion_group!(benches, per_turn_overhead);
criterion_main!(benches);
