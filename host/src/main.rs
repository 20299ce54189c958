//! `ptc`: run PTC-Lisp agents and inspect how strategies render their history.

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
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match &args.command {
        Command::Strategies { config, format } => cli::strategies(config, *format),
        Command::Render { session, turn, strategy, config, format } => {
            cli::render(&RenderArgs { config, session, turn: *turn, strategy: strategy.as_deref(), format: *format })
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
