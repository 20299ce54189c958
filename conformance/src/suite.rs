//! The parent side: runs every case in a child process under a time limit
//! and the resource caps, a few at a time, and gathers the report.

use crate::cases::{Case, CASES};
use crate::report::{CaseReport, Report, Status};
use crate::runner::{Runner, RESULT_PREFIX};
use crate::{Error, Limits};
use ptc_registry::caps::{self, Usage, Waited};
use ptc_registry::pipe::{Capped, Keep};
use std::collections::VecDeque;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

/// Runs `cases` (all when empty) against the plugin file.
pub fn run(plugin: &Path, params: &str, cases: &[String], limits: &Limits, runner: &Runner) -> Result<Report, Error> {
    let selected: Vec<&'static Case> = if cases.is_empty() {
        CASES.iter().collect()
    } else {
        cases
            .iter()
            .map(|id| crate::cases::case(id).ok_or_else(|| Error::UnknownCase(id.clone())))
            .collect::<Result<_, _>>()?
    };
    let start = Instant::now();
    let queue = Mutex::new(selected.iter().copied().enumerate().collect::<VecDeque<_>>());
    let results: Mutex<Vec<Option<CaseReport>>> = Mutex::new(vec![None; selected.len()]);
    let workers = limits.parallel.max(1).min(selected.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let Some((index, case)) = queue.lock().expect("no worker panics holding the queue").pop_front() else {
                    break;
                };
                let report = run_one(case, plugin, params, limits, runner);
                results.lock().expect("no worker panics holding the results")[index] = Some(report);
            });
        }
    });
    let cases = results.into_inner().expect("workers are done").into_iter().flatten().collect();
    Ok(Report::new(plugin, params, cases, start.elapsed()))
}

/// The most of a case child's stdout and of its stderr the suite keeps: the
/// last 16 MiB (where its result line and its last fixture are). A plugin
/// that prints without end is read and dropped past it, so the suite's own
/// memory stays bounded whatever the child writes.
pub const CASE_OUTPUT_BYTES: usize = 16 << 20;

fn drain(pipe: impl Read + Send + 'static) -> Capped {
    Capped::spawn(pipe, CASE_OUTPUT_BYTES, Keep::Tail)
}

fn text(pipe: Capped) -> String {
    String::from_utf8_lossy(&pipe.join().0).into_owned()
}

fn run_one(case: &'static Case, plugin: &Path, params: &str, limits: &Limits, runner: &Runner) -> CaseReport {
    let start = Instant::now();
    let finish = |status: Status, reason: String, figures: serde_json::Value, usage: Option<Usage>| CaseReport {
        case: *case,
        status,
        reason,
        figures,
        duration: start.elapsed(),
        usage,
    };
    let mut command = Command::new(&runner.program);
    command
        .args(runner.args(plugin, params, case.id, limits))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    limits.caps.apply(&mut command);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let reason = format!("cannot start the runner {}: {e}", runner.program.display());
            return finish(Status::Fail, reason, serde_json::Value::Null, None);
        }
    };
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
    let waited = caps::wait(child, limits.case_timeout);
    let (stdout, stderr) = (text(stdout), text(stderr));
    let last_fixture =
        stderr.lines().rev().find_map(|l| l.strip_prefix("fixture: ")).map(|f| format!(" while rendering {f}"));
    let result = stdout.lines().rev().find_map(|l| l.strip_prefix(RESULT_PREFIX));
    let waited = match waited {
        Ok(waited) => waited,
        Err(e) => return finish(Status::Fail, format!("lost the runner: {e}"), serde_json::Value::Null, None),
    };
    let usage = waited.usage();
    match (waited, result) {
        (Waited::TimedOut { .. }, _) => finish(
            Status::Fail,
            format!("timed out after {:?} (case time limit){}", limits.case_timeout, last_fixture.unwrap_or_default()),
            serde_json::Value::Null,
            usage,
        ),
        (Waited::Exited { .. }, Some(line)) => match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => {
                let status = if v["passed"].as_bool() == Some(true) { Status::Pass } else { Status::Fail };
                finish(status, v["reason"].as_str().unwrap_or("").to_string(), v["figures"].clone(), usage)
            }
            Err(e) => finish(Status::Fail, format!("unreadable runner result: {e}"), serde_json::Value::Null, usage),
        },
        (Waited::Exited { status, .. }, None) => {
            let fixture = last_fixture.unwrap_or_default();
            let reason = match limits.caps.breach(status, usage, &stderr) {
                Some(breach) => format!("{breach}{fixture}"),
                None => {
                    let last_words = stderr
                        .lines()
                        .rev()
                        .find(|l| !l.starts_with("fixture: ") && !l.trim().is_empty())
                        .map(|l| format!(": {}", l.trim()))
                        .unwrap_or_default();
                    let how = match caps::describe_exit(status) {
                        died if died.starts_with("died") => died,
                        exited => format!("{exited} without a result"),
                    };
                    format!("the runner {how}{fixture}{last_words}")
                }
            };
            finish(Status::Fail, reason, serde_json::Value::Null, usage)
        }
    }
}
