//! `ptc`: run PTC-Lisp agents and inspect how strategies render their history.

mod conformance_cmd;

use clap::{Parser, Subcommand};
use ptc_host::cli::{self, Format, Output, RenderArgs};
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
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run one PTC-Lisp program: prints its println output, then its result (exit 1 on error).
    Eval {
        /// Program file (`-` or none: stdin).
        file: Option<PathBuf>,
        /// Input data `name=path.json`, read by the program as `data/name` (repeatable).
        #[arg(long = "data", value_name = "NAME=PATH")]
        data: Vec<String>,
        /// How to print the result.
        #[arg(long, value_enum, default_value_t = ptc_host::eval::ResultFormat::Edn)]
        format: ptc_host::eval::ResultFormat,
    },
    /// Run an agent: one progress line per turn on stderr (and a live status on a terminal), the result on stdout.
    #[command(
        after_help = "Exit code 0 when the agent returned. Diagnostic logs: RUST_LOG=ptc_host=debug (env_logger syntax; targets ptc_host::run, ::policy, ::llm, ::tools, ptc_registry). Agents, backends and tools: docs/agents.md."
    )]
    Run {
        /// Agent name (`[agent.NAME]` in the config).
        agent: String,
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Session file to write (default: AGENT.session.json, or the resumed file).
        #[arg(long)]
        session: Option<PathBuf>,
        /// Continue an interrupted run from its session file.
        #[arg(long)]
        resume: Option<PathBuf>,
    },
    /// Show a session file: turns, the messages sent, raw answers, token usage.
    Trace {
        /// Session file.
        file: PathBuf,
        /// What to show.
        #[arg(long, value_enum, default_value_t = ptc_host::trace::View::Turns)]
        view: ptc_host::trace::View,
        /// Add a per-turn token usage table.
        #[arg(long)]
        usage: bool,
    },
    /// Print the messages a strategy renders for one turn of a session file.
    Render {
        /// Session file (ptc-session/1 JSON).
        #[arg(long)]
        session: PathBuf,
        /// Turn to render, 1-based (default: the turn after the last one).
        #[arg(long)]
        turn: Option<u32>,
        /// Strategy instance or plugin name (default: the session agent's strategy, else full-history).
        #[arg(long)]
        strategy: Option<String>,
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare prompt tokens of strategy instances over session files, turn by turn.
    Compare {
        /// Session file (repeatable: `--session a.json --session b.json`, or several after one flag).
        #[arg(long = "session", required = true, num_args = 1..)]
        sessions: Vec<PathBuf>,
        /// Instances or plugin names, comma-separated (default: full-history and every configured instance).
        #[arg(long, value_delimiter = ',')]
        strategies: Option<Vec<String>>,
        /// Config file.
        #[arg(long, default_value = "strategies.toml")]
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ptc_host::compare::CompareFormat::Text)]
        format: ptc_host::compare::CompareFormat,
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
        #[arg(long, value_enum, default_value_t = conformance_cmd::ReportFormat::Text)]
        format: conformance_cmd::ReportFormat,
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
}

fn main() -> ExitCode {
    let args = Args::parse();
    ptc_host::logging::init();
    let result = match &args.command {
        Command::Strategies { config, format } => cli::strategies(config, *format),
        Command::Eval { file, data, format } => ptc_host::eval::eval(file.as_deref(), data, *format),
        Command::Run { agent, config, session, resume } => {
            ptc_host::run::cli_run(config, agent, session.as_deref(), resume.as_deref())
        }
        Command::Trace { file, view, usage } => ptc_host::trace::trace(file, *view, *usage),
        Command::Render { session, turn, strategy, config, format } => {
            cli::render(&RenderArgs { config, session, turn: *turn, strategy: strategy.as_deref(), format: *format })
        }
        Command::Compare { sessions, strategies, config, format } => {
            ptc_host::compare::compare(&ptc_host::compare::CompareArgs {
                config,
                sessions,
                strategies: strategies.as_deref(),
                format: *format,
            })
        }
        Command::Conformance { plugin, params, config, format, timeout, cases, jobs, memory, run_case, limits } => {
            conformance_cmd::conformance(&conformance_cmd::ConformanceArgs {
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
    };
    match result {
        Ok(Output { stdout, warnings, code }) => {
            print!("{stdout}");
            for w in warnings {
                eprintln!("ptc: {w}");
            }
            ExitCode::from(code as u8)
        }
        Err(message) => {
            eprintln!("ptc: error: {message}");
            ExitCode::FAILURE
        }
    }
}
