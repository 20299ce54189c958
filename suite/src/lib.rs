//! `ptc bench`'s library: task suites with checked answers, run per
//! strategy at scale, and the statistics that say whether a strategy's pass
//! rate differs from full history's.
//!
//! - [`task`]: suite folders and task files; [`compose`]: the ptc config a
//!   bench runs (an agent per task and strategy);
//! - [`check`]: exact, numeric, set and predicate answer checks;
//! - [`plan`]: the runs, shards and what a resume skips; [`pool`]: the
//!   bounded worker pool; [`record`]: result lines (atomic appends, merge);
//! - [`stats`]: Wilson intervals and the exact McNemar test; [`report`]:
//!   per strategy and tier, as text, Markdown, JSON or HTML;
//! - [`scripted`]: an OpenAI-compatible model that answers from the tasks'
//!   scripts according to what the prompt shows (tests, benchmarks).
//!
//! The agent loop itself is not here: a [`TaskRunner`] (ptc's `cmd::bench`)
//! runs one task with one strategy and reports a [`RunOutcome`].

pub mod check;
pub mod compose;
pub mod plan;
pub mod pool;
pub mod record;
pub mod report;
pub mod scripted;
pub mod stats;
pub mod task;

pub use check::{Check, Verdict};
pub use plan::Shard;
pub use record::{ErrorKind, ResultSink, RunEnd, RunKey, RunOutcome, RunRecord};
pub use task::{Suite, Task, Tier, FULL_HISTORY};

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Why a bench cannot go on. Each names the file and what to do.
#[derive(Debug)]
pub enum SuiteError {
    /// A file or folder could not be read or written.
    Io {
        /// The path.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A TOML file does not parse.
    Toml {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A task file parses but is not a valid task.
    Task {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The suite folder holds no task files.
    NoTasks {
        /// The tasks folder.
        dir: PathBuf,
    },
    /// A strategy asked for is not defined by the suite.
    UnknownStrategy {
        /// The name.
        name: String,
        /// What is defined.
        defined: Vec<String>,
    },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            SuiteError::Toml { path, message } => write!(f, "{}: {message}; fix the TOML", path.display()),
            SuiteError::Task { path, message } => {
                write!(f, "{}: {message} (task format: docs/bench.md)", path.display())
            }
            SuiteError::NoTasks { dir } => {
                write!(f, "{}: no task files (*.toml); a suite folder holds suite.toml and tasks/*.toml", dir.display())
            }
            SuiteError::UnknownStrategy { name, defined } => write!(
                f,
                "no strategy named `{name}` in the suite (defined: {}); add a [strategy.{name}] table to suite.toml",
                defined.join(", ")
            ),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Runs one task with one strategy: what `ptc bench` plugs the agent loop
/// in through. Failures are outcomes ([`RunOutcome::error_kind`]), not errors.
pub trait TaskRunner: Sync {
    /// Runs `task` with `strategy` (run index `run`), writing its session to `session_out`.
    fn run(&self, task: &Task, strategy: &str, run: u32, session_out: &Path) -> RunOutcome;
}

/// What a bench does.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Strategy instances of the suite, or `full-history`.
    pub strategies: Vec<String>,
    /// Runs per task and strategy.
    pub runs: u32,
    /// Runs at once.
    pub concurrency: usize,
    /// This process's share of the plan.
    pub shard: Shard,
    /// The result file (appended to; its runs are skipped).
    pub out: PathBuf,
    /// The folder of the runs' session files.
    pub sessions: PathBuf,
    /// Prompt tokens this bench may send: no run starts once its finished
    /// runs have sent that many (runs in flight finish).
    pub max_prompt_tokens: Option<u64>,
}

impl BenchOptions {
    /// Checks the strategies against the suite.
    pub fn check(&self, suite: &Suite) -> Result<(), SuiteError> {
        let defined: Vec<String> = std::iter::once(FULL_HISTORY.to_string()).chain(suite.instances()).collect();
        match self.strategies.iter().find(|s| !defined.contains(s)) {
            Some(name) => Err(SuiteError::UnknownStrategy { name: name.clone(), defined }),
            None => Ok(()),
        }
    }

    /// The session file of a run.
    pub fn session_path(&self, key: &RunKey) -> PathBuf {
        self.sessions.join(&key.task).join(&key.strategy).join(format!("run-{}.session.jsonl", key.run))
    }

    /// This shard's runs that `out` does not hold yet.
    pub fn pending(&self, suite: &Suite) -> Result<(usize, Vec<RunKey>), SuiteError> {
        let planned = plan::plan(suite, &self.strategies, self.runs, self.shard);
        let done: BTreeSet<RunKey> =
            record::read_records(std::slice::from_ref(&self.out))?.into_iter().map(|r| r.key).collect();
        let total = planned.len();
        Ok((total, plan::pending(planned, &done)))
    }
}

/// What a bench did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchSummary {
    /// Runs of this shard.
    pub planned: usize,
    /// Already in the result file.
    pub skipped: usize,
    /// Run now.
    pub ran: usize,
    /// Of those, passed.
    pub passed: usize,
    /// Not started: `max_prompt_tokens` was reached.
    pub not_started: usize,
    /// Prompt tokens the runs of this bench sent.
    pub prompt_tokens: u64,
}

/// Runs the pending runs of `options` with `runner`, at most
/// `options.concurrency` at once, appending one line per finished run;
/// `progress` sees each record.
pub fn run_bench(
    suite: &Suite,
    options: &BenchOptions,
    runner: &dyn TaskRunner,
    progress: &(dyn Fn(&RunRecord) + Sync),
) -> Result<BenchSummary, SuiteError> {
    options.check(suite)?;
    let (planned, pending) = options.pending(suite)?;
    let sink = ResultSink::open(&options.out)?;
    let (passed, failure) = (AtomicU64::new(0), std::sync::Mutex::new(None));
    let (sent, not_started) = (AtomicU64::new(0), AtomicU64::new(0));
    pool::for_each_bounded(&pending, options.concurrency, |key| {
        if options.max_prompt_tokens.is_some_and(|max| sent.load(Ordering::SeqCst) >= max) {
            not_started.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let task = suite.task(&key.task).expect("planned from the suite's tasks");
        let session = options.session_path(key);
        if let Some(dir) = session.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // A run cut short by a kill starts again: its old session must not
        // be read as this run's should it fail before writing one.
        let _ = std::fs::remove_file(&session);
        let started = Instant::now();
        let outcome = runner.run(task, &key.strategy, key.run, &session);
        sent.fetch_add(outcome.prompt_tokens, Ordering::SeqCst);
        let passed_now = task.expect.verdict(outcome.answer.as_deref()) == Verdict::Pass;
        let record = RunRecord {
            key: key.clone(),
            tier: task.tier,
            passed: passed_now,
            outcome,
            wall_ms: started.elapsed().as_millis() as u64,
        };
        if let Err(e) = sink.append(&record) {
            failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
            return;
        }
        if passed_now {
            passed.fetch_add(1, Ordering::Relaxed);
        }
        progress(&record);
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let not_started = not_started.load(Ordering::Relaxed) as usize;
    Ok(BenchSummary {
        planned,
        skipped: planned - pending.len(),
        ran: pending.len() - not_started,
        passed: passed.load(Ordering::Relaxed) as usize,
        not_started,
        prompt_tokens: sent.load(Ordering::Relaxed),
    })
}

/// Prompt tokens a turn adds to the full history in the dry-run estimate:
/// a program and its output as the transcript shows them.
pub const ESTIMATED_TOKENS_PER_TURN: u64 = 400;
/// Tokens of the tool list, data samples and framing beside the mission
/// in the dry-run estimate.
pub const ESTIMATED_FRAME_TOKENS: u64 = 300;

/// The dry-run estimate of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// Runs.
    pub runs: usize,
    /// Model calls (each task's expected turns).
    pub calls: u64,
    /// Prompt tokens if every run sends its full history every turn (an upper-end figure).
    pub prompt_tokens: u64,
}

/// Estimates what `keys` send: each run's expected turns, each turn the
/// system prompt, mission and frame plus [`ESTIMATED_TOKENS_PER_TURN`] per
/// earlier turn, counted with `counter`.
pub fn estimate(suite: &Suite, keys: &[RunKey], counter: &ptc_tokens::TokenCounter) -> Estimate {
    let card = counter.count(ptc_lisp::LANGUAGE_CARD) as u64;
    let (mut calls, mut prompt_tokens) = (0, 0);
    for key in keys {
        let task = suite.task(&key.task).expect("planned from the suite's tasks");
        let base = card + counter.count(task.mission()) as u64 + ESTIMATED_FRAME_TOKENS;
        let turns = task.expected_turns() as u64;
        calls += turns;
        prompt_tokens += turns * base + ESTIMATED_TOKENS_PER_TURN * turns * turns.saturating_sub(1) / 2;
    }
    Estimate { runs: keys.len(), calls, prompt_tokens }
}
