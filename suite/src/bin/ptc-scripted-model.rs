//! `ptc-scripted-model SUITE [--addr 127.0.0.1:8080] [--delay-ms N] [--max-prompt-chars N]`:
//! an OpenAI-compatible model that answers the tasks of a suite from their
//! scripts (see `ptc_suite::scripted`). Prints `listening on http://ADDR/v1`,
//! serves until killed; `GET /v1/stats` gives the request count and the
//! peak of requests in flight.

use ptc_suite::scripted::{ScriptedModel, Server, ServerOptions};
use ptc_suite::Suite;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: ptc-scripted-model SUITE [--addr 127.0.0.1:8080] [--delay-ms N] [--max-prompt-chars N]";

fn main() -> ExitCode {
    match serve(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ptc-scripted-model: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: Vec<String>) -> Result<(), String> {
    let (mut suite, mut addr, mut options) = (None, "127.0.0.1:8080".to_string(), ServerOptions::default());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value; {USAGE}"));
        match arg.as_str() {
            "--addr" => addr = value("--addr")?,
            "--delay-ms" => {
                let ms = value("--delay-ms")?.parse().map_err(|_| format!("--delay-ms takes milliseconds; {USAGE}"))?;
                options.delay = Duration::from_millis(ms);
            }
            "--max-prompt-chars" => {
                let n = value("--max-prompt-chars")?
                    .parse()
                    .map_err(|_| format!("--max-prompt-chars takes a count; {USAGE}"))?;
                options.max_prompt_chars = Some(n);
            }
            other if other.starts_with("--") => return Err(format!("unknown option {other}; {USAGE}")),
            other => suite = Some(PathBuf::from(other)),
        }
    }
    let suite = Suite::load(&suite.ok_or(USAGE)?).map_err(|e| e.to_string())?;
    let server = Server::start(ScriptedModel::from_suite(&suite), options, &addr)
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    println!("listening on {}", server.base_url());
    loop {
        std::thread::park();
    }
}
