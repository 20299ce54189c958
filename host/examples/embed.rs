//! A service that runs agents through the library, not the command line:
//! one config loaded and its plugins resolved once, then N runs of one
//! agent at once on their own threads, each with its own session file.
//!
//! ```sh
//! cargo run -p ptc-host --example embed -- [CONFIG] [AGENT] [N]
//! # defaults: strategies.toml explore-orders 200
//! ```
//!
//! It prints how many runs returned the same value as the first, the wall
//! time, and the process's peak resident memory (Linux), whole and per run:
//! the figures of docs/benchmarks.md, "Embedding".

use ptc_host::config::{Config, ConfigFile};
use ptc_host::run::{run, RunOptions};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let config = PathBuf::from(args.next().unwrap_or_else(|| "strategies.toml".into()));
    let agent = args.next().unwrap_or_else(|| "explore-orders".into());
    let n: usize = args.next().map_or(200, |s| s.parse().expect("N is a number of runs"));
    let resolved = match Config::load(&config) {
        Ok(c) => c.resolve(),
        Err(e) => {
            eprintln!("embed: {e}");
            std::process::exit(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("ptc-embed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temp folder is writable");
    let before = peak_rss_kb();
    let started = Instant::now();
    // Every run borrows the one resolved config: plugins load once.
    let results: Vec<Result<Option<String>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (resolved, agent, out) = (&resolved, &agent, dir.join(format!("run-{i}.session.jsonl")));
                s.spawn(move || {
                    let options = RunOptions { session_out: Some(&out), ..Default::default() };
                    run(resolved, agent, options, &mut |_: &str| {})
                        .map(|done| done.session.result)
                        .map_err(|e| e.to_string())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("the run panicked".into()))).collect()
    });
    let wall = started.elapsed();
    let first = results.first().cloned().unwrap_or(Err("no run".into()));
    let same = results.iter().filter(|r| r.is_ok() && **r == first).count();
    println!("{n} runs of {agent}: {same} returned {first:?}");
    println!("wall time {:.2} s ({:.1} ms per run)", wall.as_secs_f64(), wall.as_secs_f64() * 1000.0 / n as f64);
    if let (Some(before), Some(after)) = (before, peak_rss_kb()) {
        println!(
            "peak RSS {:.1} MB (before the runs {:.1} MB; {:.0} KB per run)",
            after as f64 / 1024.0,
            before as f64 / 1024.0,
            (after.saturating_sub(before)) as f64 / n as f64
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    if same != n {
        std::process::exit(1);
    }
}

/// The process's peak resident set (`VmHWM`), in KB, where `/proc` has it.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
