//! `ptc bench SUITE`: every task of a suite with each strategy, K runs
//! each, on a bounded pool of threads, one result line per run (resumable,
//! shardable); `ptc bench report FILES`: the merged report. The suite
//! logic is `ptc-suite`'s; this module plugs the agent loop into it
//! (`Runner`, a [`TaskRunner`]).

use super::{CmdError, CmdResult, Output};
use crate::config::{plugin_path_env, Config, ConfigFile};
use crate::costing::turns_cost;
use crate::nested::SpentInside;
use crate::resolve::{token_counter, Resolved};
use crate::run::{run, RunError, RunOptions};
use ptc_agent::usage::reported;
use ptc_cost::PriceModel;
use ptc_session::{RunStatus, Session};
use ptc_suite::compose::{agent_name, parse_llm};
use ptc_suite::report::{Format, Report};
use ptc_suite::{BenchOptions, ErrorKind, RunEnd, RunOutcome, Shard, Suite, Task, TaskRunner};
use ptc_tokens::{TokenCounter, DEFAULT_ENCODING};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `ptc bench SUITE` is asked to do.
#[derive(Debug, Clone)]
pub struct BenchArgs<'a> {
    /// The suite folder.
    pub suite: &'a Path,
    /// Task name prefixes to keep (default: every task).
    pub tasks: Option<&'a [String]>,
    /// Strategies (default: the suite's `[bench] strategies`, else full history and every instance).
    pub strategies: Option<&'a [String]>,
    /// Runs per task and strategy.
    pub runs: u32,
    /// Runs at once.
    pub concurrency: usize,
    /// `i/n`: this process's share.
    pub shard: Option<&'a str>,
    /// The result file.
    pub out: &'a Path,
    /// The session folder (default: `OUT.sessions` beside the result file).
    pub sessions: Option<&'a Path>,
    /// An `llm = {...}` table for every agent.
    pub llm: Option<&'a str>,
    /// Only print what would run.
    pub dry_run: bool,
    /// Prompt tokens the bench may send (`--max-prompt-tokens`).
    pub max_prompt_tokens: Option<u64>,
}

/// Runs a bench (or, with `dry_run`, says what it would run and send).
pub fn bench(a: &BenchArgs<'_>) -> CmdResult {
    let mut suite = Suite::load(a.suite).map_err(other)?;
    if let Some(prefixes) = a.tasks {
        suite.select(prefixes).map_err(other)?;
    }
    let strategies = a.strategies.map_or_else(|| suite.default_strategies(), <[String]>::to_vec);
    let shard = a.shard.map(str::parse::<Shard>).transpose().map_err(CmdError::Usage)?.unwrap_or(Shard::ALL);
    if a.runs == 0 || a.concurrency == 0 || a.max_prompt_tokens == Some(0) {
        return Err(CmdError::Usage("--runs, --concurrency and --max-prompt-tokens must be at least 1".into()));
    }
    let sessions = a.sessions.map_or_else(|| sessions_beside(a.out), Path::to_path_buf);
    let options = BenchOptions {
        strategies,
        runs: a.runs,
        concurrency: a.concurrency,
        shard,
        out: a.out.to_path_buf(),
        sessions,
        max_prompt_tokens: a.max_prompt_tokens,
    };
    options.check(&suite).map_err(other)?;
    let llm = a.llm.map(parse_llm).transpose().map_err(CmdError::Usage)?;
    let text = suite.config_text(&options.strategies, llm.as_ref());
    let mut config = Config::parse(&suite.dir.join(ptc_suite::task::SUITE_FILE), &text)?;
    config.plugin_paths.extend(plugin_path_env());
    let counter = counter()?;
    let (planned, pending) = options.pending(&suite).map_err(other)?;
    if a.dry_run {
        let e = ptc_suite::estimate(&suite, &pending, counter);
        let shard_note = if shard == Shard::ALL { String::new() } else { format!(", shard {shard}") };
        let stdout = format!(
            "{planned} runs planned ({} tasks × {} strategies × {} runs{shard_note}), {} already in {}, {} to run\n\
             estimated: {} model calls, {} prompt tokens at most (full history every turn: the system prompt, the mission and ~{} tokens per call, {} more per earlier turn); nothing was sent\n",
            suite.tasks.len(),
            options.strategies.len(),
            options.runs,
            planned - pending.len(),
            options.out.display(),
            e.runs,
            e.calls,
            e.prompt_tokens,
            ptc_suite::ESTIMATED_FRAME_TOKENS,
            ptc_suite::ESTIMATED_TOKENS_PER_TURN,
        );
        return Ok(Output::ok(stdout));
    }
    let resolved = config.resolve();
    let runner = Runner { resolved: &resolved, models: price_models(&resolved)?, counter };
    let out = options.out.display().to_string();
    super::interrupt::on_interrupt(move || {
        format!(
            "interrupted; the finished runs are in {out}: the same command goes on from them (the runs in flight \
             start again), and `ptc bench report {out}` reports them"
        )
    });
    let progress = |r: &ptc_suite::RunRecord| {
        let verdict = if r.passed { "pass" } else { "FAIL" };
        let why = r.outcome.error.as_deref().map(|e| format!(" ({e})")).unwrap_or_default();
        eprintln!(
            "{verdict} {} {} run {}: {} turns, {}{why}",
            r.key.task, r.key.strategy, r.key.run, r.outcome.turns, r.outcome.status
        );
    };
    let done = ptc_suite::run_bench(&suite, &options, &runner, &progress).map_err(other)?;
    let stdout = format!(
        "{} runs planned, {} already done, {} run now, {} passed; results in {}\n",
        done.planned,
        done.skipped,
        done.ran,
        done.passed,
        options.out.display()
    );
    let mut output = Output::ok(stdout);
    if let (Some(max), true) = (a.max_prompt_tokens, done.not_started > 0) {
        output.warnings.push(format!(
            "{} runs not started: --max-prompt-tokens {max} reached ({} sent); the same command goes on from the \
             finished runs",
            done.not_started, done.prompt_tokens
        ));
    }
    Ok(output)
}

/// `ptc bench report FILES`: the merged report of result files (shards).
pub fn report(files: &[PathBuf], format: Format) -> CmdResult {
    if let Some(missing) = files.iter().find(|f| !f.exists()) {
        return Err(CmdError::Usage(format!(
            "{}: no such result file; `ptc bench SUITE --out FILE` writes one",
            missing.display()
        )));
    }
    let records = ptc_suite::record::read_records(files).map_err(other)?;
    if records.is_empty() {
        return Err(CmdError::Usage("the result files hold no runs; run `ptc bench SUITE --out FILE` first".into()));
    }
    Ok(Output::ok(Report::new(records).render(format)))
}

/// `results.jsonl` → `results.sessions/`.
fn sessions_beside(out: &Path) -> PathBuf {
    let stem = out.file_stem().map_or_else(|| "bench".into(), |s| s.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}.sessions"))
}

fn other(e: impl ToString) -> CmdError {
    CmdError::Other(e.to_string())
}

fn counter() -> Result<&'static TokenCounter, CmdError> {
    token_counter(DEFAULT_ENCODING).map_err(other)
}

/// Every price model the suite knows: the built-ins and its `[pricing.NAME]` tables.
fn price_models(resolved: &Resolved) -> Result<Vec<PriceModel>, CmdError> {
    Ok(resolved.config.price_models().map_err(other)?.iter().cloned().collect())
}

/// Runs one task with one strategy through the agent loop.
struct Runner<'r> {
    resolved: &'r Resolved,
    models: Vec<PriceModel>,
    counter: &'static TokenCounter,
}

impl TaskRunner for Runner<'_> {
    fn run(&self, task: &Task, strategy: &str, _run: u32, session_out: &Path) -> RunOutcome {
        let name = agent_name(&task.name, strategy);
        let options = RunOptions { session_out: Some(session_out), ..Default::default() };
        let mut quiet = |_: &str| {};
        match run(self.resolved, &name, options, &mut quiet) {
            Ok(done) => self.outcome(&done.session, Some(done.path)),
            Err(error) => {
                let kind = match &error {
                    RunError::Llm { .. } => ErrorKind::Llm,
                    RunError::Render { .. } => ErrorKind::Render,
                    _ => ErrorKind::Setup,
                };
                let mut outcome = match Session::read(session_out) {
                    Ok(session) => self.outcome(&session, Some(session_out.to_path_buf())),
                    Err(_) => RunOutcome::default(),
                };
                outcome.status = RunEnd::Error;
                outcome.error_kind = Some(kind);
                outcome.error = Some(error.to_string().lines().next().unwrap_or_default().to_string());
                outcome
            }
        }
    }
}

impl Runner<'_> {
    /// What a session says of its run: answer, status, turns, tokens, costs.
    fn outcome(&self, session: &Session, path: Option<PathBuf>) -> RunOutcome {
        let (status, error_kind) = match session.status {
            Some(RunStatus::Returned) => (RunEnd::Returned, None),
            Some(RunStatus::Failed) => (RunEnd::Failed, Some(ErrorKind::Failed)),
            Some(RunStatus::OutOfTurns) => (RunEnd::OutOfTurns, Some(ErrorKind::OutOfTurns)),
            Some(RunStatus::Limit) => (RunEnd::Limit, Some(ErrorKind::Limit)),
            Some(RunStatus::InvalidReturn) => (RunEnd::InvalidReturn, Some(ErrorKind::InvalidReturn)),
            Some(RunStatus::Error) => (RunEnd::Error, Some(ErrorKind::Other)),
            None => (RunEnd::Unfinished, Some(ErrorKind::Other)),
        };
        let usages: Vec<Option<ptc_llm::Usage>> =
            session.turns.iter().map(|t| t.usage.as_ref().and_then(reported)).collect();
        let cached: Vec<u64> = usages.iter().flatten().filter_map(|u| u.cache_read_tokens).collect();
        // The whole run's: its turns, and the agents it ran and its
        // llm-query calls (from their records, beside the session).
        let inside = path.as_deref().map(|file| SpentInside::read(&session.turns, file));
        let cost: BTreeMap<String, f64> = self
            .models
            .iter()
            .map(|model| {
                let calls = inside.as_ref().map_or(0.0, |spent| spent.cost(model, self.counter));
                (model.name().to_string(), turns_cost(&session.turns, model, self.counter) + calls)
            })
            .collect();
        RunOutcome {
            answer: session.result.clone(),
            error: error_kind.map(|_| session.reason.clone().unwrap_or_else(|| status.to_string())),
            status,
            turns: session.turns.len() as u32,
            // As `max_run_prompt_tokens` counts them: the calls' too.
            prompt_tokens: session.turns.iter().filter_map(|t| t.prompt_tokens).sum::<u64>()
                + session.usage.counted_prompt_tokens.unwrap_or(0),
            cached_tokens: (!cached.is_empty()).then(|| cached.iter().sum()),
            cost,
            error_kind,
            session: path,
        }
    }
}
