//! `ptc`: run PTC-Lisp agents and inspect how strategies render their history.

use clap::{CommandFactory, Parser, Subcommand};
use ptc_host::cmd::{self, conformance, eval, Format, Output};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "ptc", version, about = "Run PTC-Lisp agents with pluggable history compression strategies")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List strategy plugins, strategy instances, agents and plugin load errors.
    Strategies {
        /// Config file (without one: the plugins beside ptc and on PTC_PLUGIN_PATH).
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run one PTC-Lisp program: prints its println output, then its result (exit 1 on error).
    Eval {
        /// Program file (`-` or none: stdin).
        #[arg(conflicts_with = "expr")]
        file: Option<PathBuf>,
        /// The program itself, instead of a file: `ptc eval -e '(+ 1 2)'`.
        #[arg(short = 'e', long = "expr", value_name = "PROGRAM")]
        expr: Option<String>,
        /// Input data `name=path.json`, read by the program as `data/name` (repeatable).
        #[arg(long = "data", value_name = "NAME=PATH")]
        data: Vec<String>,
        /// How to print the result.
        #[arg(long, value_enum, default_value_t = eval::ResultFormat::Edn)]
        format: eval::ResultFormat,
        /// Let a bare name with no definition read `data/NAME` (spec NS-004..NS-009).
        #[arg(long)]
        namespace_fallback: bool,
    },
    /// Interactive PTC-Lisp REPL: definitions kept between inputs, *1 *2 *3 the latest results, history in ~/.ptc_history (or PTC_HISTORY), :quit, (exit) or Ctrl-D to leave.
    Repl {
        /// Input data `name=path.json`, read as `data/name` (repeatable).
        #[arg(long = "data", value_name = "NAME=PATH")]
        data: Vec<String>,
        /// Let a bare name with no definition read `data/NAME` (spec NS-004..NS-009).
        #[arg(long)]
        namespace_fallback: bool,
    },
    /// Run an agent: one progress line per turn on stderr (and a live status on a terminal), the result on stdout.
    #[command(
        after_help = "Exit code 0 when the agent returned (a value matching its signature, when it has one). Diagnostic logs: RUST_LOG=ptc_agent=debug,ptc_llm=debug (env_logger syntax; targets ptc_agent::run, ::policy, ::tools, ptc_llm, ptc_registry). Agents, backends and tools: docs/agents.md."
    )]
    Run {
        /// Agent name (`[agent.NAME]` in the config). Without one: with `--resume`, the session's agent; else the config's only agent, or the agents are listed.
        agent: Option<String>,
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Session journal to write, JSON lines (default: AGENT.session.jsonl, or the resumed file).
        #[arg(long)]
        session: Option<PathBuf>,
        /// Continue an interrupted run from its session file (of the agent it names, unless AGENT is given).
        #[arg(long)]
        resume: Option<PathBuf>,
        /// A named input of the agent's signature: an EDN value, or @file.json (repeatable).
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        /// How to print the result (JSON: a typed map's fields under their declared names).
        #[arg(long, value_enum, default_value_t = eval::ResultFormat::Edn)]
        format: eval::ResultFormat,
        /// Strategy instance or plugin name for this run instead of the agent's `strategy` (with that instance's trigger; the agent's fallbacks stay).
        #[arg(long)]
        strategy: Option<String>,
    },
    /// Show a session file: turns, the messages sent, raw answers, token usage.
    Trace {
        /// Session file.
        file: PathBuf,
        /// What to show.
        #[arg(long, value_enum, default_value_t = cmd::trace::View::Turns)]
        view: cmd::trace::View,
        /// Add a per-turn token usage table.
        #[arg(long)]
        usage: bool,
    },
    /// Print the messages a strategy renders for one turn of a session file.
    Render {
        /// Session file (a ptc-session/1 document or a ptc-session/2 journal), as `ptc trace` takes it.
        #[arg(value_name = "SESSION", required_unless_present = "session", conflicts_with = "session")]
        file: Option<PathBuf>,
        /// The same, as an option.
        #[arg(long)]
        session: Option<PathBuf>,
        /// Turn to render, 1-based (default: the turn after the last one).
        #[arg(long)]
        turn: Option<u32>,
        /// Strategy instance or plugin name (default: the instance the session records for that turn, or for the
        /// turn after the last, the last turn's unless it was the full history before a trigger; else the session
        /// agent's strategy, else full-history).
        #[arg(long)]
        strategy: Option<String>,
        /// Config file (without one: plugins beside ptc and on PTC_PLUGIN_PATH, plugin names with default parameters).
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Output format (json: the messages with their content blocks and cache breakpoints, the stats, the token count).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare strategy instances over session files: prompt tokens, cost under prompt caching, fact recall.
    #[command(
        after_help = "Costs: every turn's prompt priced in order, the cached part being what the provider reads from its cache (anthropic: block breakpoints an earlier request wrote; openai: the longest shared prefix, 1,024 tokens then steps of 128; none: raw tokens). Ratios are to full-history. no-history (the turn-1 prompt on every turn) is the floor once that prompt is cached: a strategy's history cost is what it pays above it, as a share of what full-history pays above it. [pricing.NAME] tables in the config add or adjust price models; see docs/benchmarks.md."
    )]
    Compare {
        /// Session files (`ptc compare a.json b.jsonl`), or folders: every session file below one (a bench's
        /// `OUT.sessions`); one that records no turn is left out, with a warning.
        #[arg(value_name = "SESSION", required_unless_present = "sessions")]
        files: Vec<PathBuf>,
        /// The same, as an option (repeatable: `--session a.json --session b.json`, or several after one flag); after
        /// the files given without it.
        #[arg(long = "session", num_args = 1..)]
        sessions: Vec<PathBuf>,
        /// Instances or plugin names, comma-separated (default: full-history, no-history, the peers clear-tool-uses, observation-masking and upstream-trim, and every configured instance).
        #[arg(long, value_delimiter = ',')]
        strategies: Option<Vec<String>>,
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = cmd::compare::CompareFormat::Text)]
        format: cmd::compare::CompareFormat,
        /// Price models, comma-separated: built-in (anthropic, openai, none) or [pricing.NAME] of the config.
        #[arg(long, value_delimiter = ',', default_value = "anthropic,openai,none")]
        pricing: Vec<String>,
        /// Add a per-turn breakdown (tokens, cache read/write/uncached and cost per model).
        #[arg(long)]
        per_turn: bool,
        /// Every column in the text view and the HTML report's summary (cache-hit shares, token ratios, recall with what turn-output restores, render stats); the default fits 120 columns.
        #[arg(long)]
        wide: bool,
        /// Also write the cost-vs-recall chart (one panel per caching price model) as a standalone SVG file.
        #[arg(long, value_name = "FILE")]
        chart: Option<PathBuf>,
        /// Also write a self-contained HTML report (charts per session, the summary, prompts).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// The turn whose prompt the HTML report shows per strategy (default: the last); with --html.
        #[arg(long, value_name = "N", requires = "html")]
        show_turn: Option<usize>,
        /// Price the sessions with this system prompt: `recorded` (each session's own), `card` (the language card `ptc run` sends today) or a file.
        #[arg(long, value_name = "recorded|card|FILE", default_value = "recorded")]
        system_prompt: String,
        /// List, per instance, session and turn, the learned facts a program used that its prompt did not show (JSON always has them).
        #[arg(long)]
        missed: bool,
    },
    /// Run a task suite with each strategy, K runs each, answers checked; `ptc bench report FILES` merges and reports.
    #[command(
        args_conflicts_with_subcommands = true,
        after_help = "One JSON line per run in --out (runs already there are skipped: rerun to resume); sessions in OUT.sessions/. Task format, statistics and batch runs: docs/bench.md."
    )]
    Bench {
        #[command(subcommand)]
        report: Option<BenchCommand>,
        /// Suite folder (suite.toml and tasks/*.toml).
        suite: Option<PathBuf>,
        /// Only the tasks whose names start with one of these, comma-separated (`lookup-,recover-`).
        #[arg(long, value_delimiter = ',')]
        tasks: Option<Vec<String>>,
        /// Strategies, comma-separated: instances of suite.toml and full-history (default: the suite's list).
        #[arg(long, value_delimiter = ',')]
        strategies: Option<Vec<String>>,
        /// Runs per task and strategy.
        #[arg(long, default_value_t = 1)]
        runs: u32,
        /// Runs at once (a bounded pool of threads).
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Run only shard i of n, 0-based (`--shard $SLURM_ARRAY_TASK_ID/4`).
        #[arg(long, value_name = "i/n")]
        shard: Option<String>,
        /// Result file, JSON lines, appended to.
        #[arg(long, default_value = "bench-results.jsonl")]
        out: PathBuf,
        /// Folder of the runs' session files (default: OUT.sessions beside --out).
        #[arg(long)]
        sessions: Option<PathBuf>,
        /// Model backend of every task, a TOML inline table: '{ backend = "openai", base_url = "...", model = "..." }'.
        #[arg(long, value_name = "TABLE")]
        llm: Option<String>,
        /// Print the run count and an estimated token budget; run nothing.
        #[arg(long)]
        dry_run: bool,
        /// Prompt tokens this command may send (as ptc counts them): no run starts once the finished ones sent that
        /// many; runs in flight finish. Rerunning goes on from the finished runs.
        #[arg(long, value_name = "N")]
        max_prompt_tokens: Option<u64>,
    },
    /// Check a strategy plugin against the conformance suite (exit 1 when a MUST case fails).
    Conformance {
        /// Plugin library file, plugin name, or strategy instance of the config.
        plugin: String,
        /// Strategy parameters as a JSON object (default: the instance's, else `{}`).
        #[arg(long)]
        params: Option<String>,
        /// Config file (plugin paths and instances; only read to find PLUGIN by name).
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Report format.
        #[arg(long, value_enum, default_value_t = conformance::ReportFormat::Text)]
        format: conformance::ReportFormat,
        /// Time limit of one case, in seconds (default 60).
        #[arg(long, value_name = "SECS")]
        timeout: Option<u64>,
        /// Run only this case (repeatable).
        #[arg(long = "case", value_name = "ID")]
        cases: Vec<String>,
        /// Cases run at once (default: the number of CPUs).
        #[arg(long)]
        jobs: Option<usize>,
        /// Memory cap of each case's process, e.g. 512MiB or 2G (default 1GiB).
        #[arg(long = "memory-limit", value_name = "SIZE")]
        memory: Option<String>,
        /// Runner mode: run one case in this process (used by the suite itself).
        #[arg(long, hide = true)]
        run_case: Option<String>,
        /// Runner mode: limits as JSON.
        #[arg(long, hide = true)]
        limits: Option<String>,
    },
    /// Scaffold a project that runs offline at once: strategies.toml, an agent, its data and a replay file.
    Init {
        /// Folder to write into (created when missing).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Replace files that already exist.
        #[arg(long)]
        force: bool,
    },
    /// Check a config without running anything; every problem is listed (exit 1 when there is one).
    Validate {
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
    },
    /// Check the environment: plugins found, API keys set and accepted, model endpoints answering, and each MCP server started and its tools listed.
    Doctor {
        /// Config file (optional: without one, only the plugins are checked).
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
    },
    /// Print the language card or a spec, embedded in this binary (no topic: the list).
    Docs {
        /// Topic (`ptc docs` lists them).
        topic: Option<String>,
    },
    /// Print a shell completion script: `ptc completions bash > ~/.local/share/bash-completion/completions/ptc`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Serve renders of an isolated strategy instance (started by ptc itself; stdin/stdout protocol).
    #[command(name = "render-child", hide = true)]
    RenderChild {
        /// Plugin library file.
        plugin: PathBuf,
        /// Strategy parameters as a JSON object.
        #[arg(long)]
        params: String,
        /// Stack and CPU limits as JSON.
        #[arg(long)]
        limits: String,
    },
}

/// `ptc bench report`.
#[derive(Subcommand)]
enum BenchCommand {
    /// Report result files (shards are merged; a run recorded twice counts once).
    Report {
        /// Result files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// text, markdown, json or html.
        #[arg(long, default_value = "text")]
        format: ptc_suite::report::Format,
    },
}

/// The completion script of `shell` for every subcommand and flag.
fn completions(shell: clap_complete::Shell) -> Output {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Args::command(), "ptc", &mut script);
    Output::ok(String::from_utf8_lossy(&script).into_owned())
}

fn main() -> ExitCode {
    let args = Args::parse();
    ptc_host::logging::init();
    let result = match &args.command {
        Command::Strategies { config, format } => cmd::strategies::strategies(config, *format),
        Command::Eval { file, expr, data, format, namespace_fallback } => {
            let source = match (expr, file) {
                (Some(text), _) => eval::Source::Expr(text),
                (None, Some(path)) => eval::Source::File(path),
                (None, None) => eval::Source::Stdin,
            };
            eval::eval(source, data, *format, *namespace_fallback)
        }
        Command::Repl { data, namespace_fallback } => cmd::repl::repl(data, *namespace_fallback),
        Command::Run { agent, config, session, resume, args, format, strategy } => {
            cmd::run::run_agent(&cmd::run::RunArgs {
                config,
                agent: agent.as_deref(),
                session: session.as_deref(),
                resume: resume.as_deref(),
                args,
                format: *format,
                strategy: strategy.as_deref(),
            })
        }
        Command::Trace { file, view, usage } => cmd::trace::trace(file, *view, *usage),
        Command::Render { file, session, turn, strategy, config, format } => {
            cmd::render::render(&cmd::render::RenderArgs {
                config,
                // clap requires one of the two.
                session: session.as_ref().or(file.as_ref()).expect("a session file is required"),
                turn: *turn,
                strategy: strategy.as_deref(),
                format: *format,
            })
        }
        Command::Compare {
            files,
            sessions,
            strategies,
            config,
            format,
            pricing,
            per_turn,
            wide,
            chart,
            html,
            show_turn,
            system_prompt,
            missed,
        } => cmd::compare::compare(&cmd::compare::CompareArgs {
            config,
            sessions: &[files.as_slice(), sessions.as_slice()].concat(),
            strategies: strategies.as_deref(),
            pricing: Some(pricing),
            format: *format,
            per_turn: *per_turn,
            wide: *wide,
            chart: chart.as_deref(),
            html: html.as_deref(),
            show_turn: *show_turn,
            system_prompt: cmd::compare::SystemPrompt::parse(system_prompt),
            missed: *missed,
        }),
        Command::Conformance { plugin, params, config, format, timeout, cases, jobs, memory, run_case, limits } => {
            conformance::conformance(&conformance::ConformanceArgs {
                plugin,
                params: params.as_deref(),
                config,
                format: *format,
                timeout: *timeout,
                cases,
                jobs: *jobs,
                memory_limit: memory.as_deref(),
                run_case: run_case.as_deref(),
                limits: limits.as_deref(),
            })
        }
        Command::Bench { report: Some(BenchCommand::Report { files, format }), .. } => {
            cmd::bench::report(files, *format)
        }
        Command::Bench { report: None, suite: None, .. } => Err(cmd::CmdError::Usage(
            "ptc bench: which suite? `ptc bench SUITE_FOLDER` (e.g. bench/suites/core)".into(),
        )),
        Command::Bench {
            report: None,
            suite: Some(suite),
            tasks,
            strategies,
            runs,
            concurrency,
            shard,
            out,
            sessions,
            llm,
            dry_run,
            max_prompt_tokens,
        } => cmd::bench::bench(&cmd::bench::BenchArgs {
            suite,
            tasks: tasks.as_deref(),
            strategies: strategies.as_deref(),
            runs: *runs,
            concurrency: *concurrency,
            shard: shard.as_deref(),
            out,
            sessions: sessions.as_deref(),
            llm: llm.as_deref(),
            dry_run: *dry_run,
            max_prompt_tokens: *max_prompt_tokens,
        }),
        Command::Init { dir, force } => cmd::init::init(dir, *force),
        Command::Validate { config } => cmd::validate::validate(config),
        Command::Doctor { config } => cmd::doctor::doctor(config),
        Command::Docs { topic } => cmd::docs::docs(topic.as_deref()),
        Command::Completions { shell } => Ok(completions(*shell)),
        Command::RenderChild { plugin, params, limits } => cmd::isolate::render_child(plugin, params, limits),
    };
    let mut stderr = std::io::stderr().lock();
    match result {
        Ok(Output { stdout, warnings, mut code }) => {
            if let Err(e) = cmd::write_stdout(&stdout) {
                if !e.reader_left() {
                    let _ = writeln!(stderr, "ptc: error: {e}");
                    code = 1;
                }
            }
            for w in warnings {
                let _ = writeln!(stderr, "ptc: {w}");
            }
            ExitCode::from(code as u8)
        }
        // The REPL writes as it goes, and stops the same way.
        Err(e) if e.reader_left() => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(stderr, "ptc: error: {message}");
            ExitCode::FAILURE
        }
    }
}
