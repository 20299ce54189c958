//! Result lines: one JSON object per finished run, appended to a JSONL file
//! with a single write each (whole lines, whatever the concurrency), read
//! back for resuming and reports (a line torn by a kill is dropped).

use crate::SuiteError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which run a record is: a task, a strategy and a run index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RunKey {
    /// The task name.
    pub task: String,
    /// The strategy instance (or `full-history`).
    pub strategy: String,
    /// The run index, 0-based.
    pub run: u32,
}

/// Why a run did not return a right answer, beside a wrong answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The run could not start (config, tools, MCP server, strategy).
    Setup,
    /// The model call failed (after its retries), e.g. the prompt exceeded its context.
    Llm,
    /// No prompt could be rendered.
    Render,
    /// The agent called `fail`.
    Failed,
    /// The turns ran out before a `return`.
    OutOfTurns,
    /// The returned value did not match the agent's signature.
    InvalidReturn,
    /// A run limit (tool calls, run time) ended the run.
    Limit,
    /// Anything else the runner reports.
    Other,
}

/// How a run ended: a result line's `status`, the words of a session's
/// end status (`returned`, `out_of_turns`, ...), `unfinished` when the
/// session recorded none, `error` when the run broke off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunEnd {
    /// The agent returned a value.
    Returned,
    /// The agent called `fail`.
    Failed,
    /// The turns ran out before a `return`.
    OutOfTurns,
    /// The last turn returned a value that does not match the signature.
    InvalidReturn,
    /// A run limit ended it.
    Limit,
    /// The model or the render failed, or the run could not start.
    Error,
    /// The session recorded no end.
    #[default]
    Unfinished,
}

impl RunEnd {
    /// The word a result line holds.
    pub fn as_str(self) -> &'static str {
        match self {
            RunEnd::Returned => "returned",
            RunEnd::Failed => "failed",
            RunEnd::OutOfTurns => "out_of_turns",
            RunEnd::InvalidReturn => "invalid_return",
            RunEnd::Limit => "limit",
            RunEnd::Error => "error",
            RunEnd::Unfinished => "unfinished",
        }
    }
}

impl std::fmt::Display for RunEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The outcome of one run, as a [`crate::TaskRunner`] reports it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// The returned value in EDN, when the run returned.
    pub answer: Option<String>,
    /// How it ended.
    pub status: RunEnd,
    /// Turns taken.
    pub turns: u32,
    /// Prompt tokens over all turns (ptc's count), those counted inside its
    /// tool calls (agents it ran, `llm-query`) included.
    pub prompt_tokens: u64,
    /// Prompt tokens the provider reported reading from its cache, when it reported any.
    pub cached_tokens: Option<u64>,
    /// Total cost per price model (the provider's cache figures when reported, else the model's accounting),
    /// its tool calls' model calls included.
    pub cost: BTreeMap<String, f64>,
    /// Why it ended without an answer, when it did.
    pub error_kind: Option<ErrorKind>,
    /// The error, one line.
    pub error: Option<String>,
    /// The session file.
    pub session: Option<PathBuf>,
}

/// One result line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Which run.
    #[serde(flatten)]
    pub key: RunKey,
    /// The task's tier.
    pub tier: crate::Tier,
    /// Whether the answer passed the task's check.
    pub passed: bool,
    /// What happened.
    #[serde(flatten)]
    pub outcome: RunOutcome,
    /// Wall time of the run in milliseconds (not in reports: it depends on the machine).
    pub wall_ms: u64,
}

/// Bytes a result file may hold: it is read whole (to resume a run, and by
/// `ptc bench report`), and a record is a line of a few hundred bytes, so
/// a file past it is not one `ptc bench` wrote (a device, a dataset).
pub const MAX_RESULT_FILE_BYTES: u64 = 1 << 30;

/// A result file open for appending.
pub struct ResultSink {
    path: PathBuf,
    file: Mutex<File>,
}

impl ResultSink {
    /// Opens `path` for appending (created when missing); a last line torn
    /// by a kill is cut off first, so the next line starts clean.
    pub fn open(path: &Path) -> Result<ResultSink, SuiteError> {
        let io = |e: std::io::Error| SuiteError::Io { path: path.to_path_buf(), message: read_message(e) };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file = OpenOptions::new().append(true).create(true).open(path).map_err(io)?;
        let text = ptc_os::read_bytes(path, MAX_RESULT_FILE_BYTES).map_err(io)?;
        if !text.is_empty() && text.last() != Some(&b'\n') {
            let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(keep as u64).map_err(io)?;
            file.seek(SeekFrom::End(0)).map_err(io)?;
        }
        Ok(ResultSink { path: path.to_path_buf(), file: Mutex::new(file) })
    }

    /// Appends `record` as one line, in one write, synced.
    pub fn append(&self, record: &RunRecord) -> Result<(), SuiteError> {
        let mut line = serde_json::to_string(record).expect("a record always serializes");
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let io = |e: std::io::Error| SuiteError::Io { path: self.path.clone(), message: e.to_string() };
        file.write_all(line.as_bytes()).map_err(io)?;
        file.sync_data().map_err(io)
    }
}

/// The records of result files, in file order (a line that does not parse,
/// such as one torn by a kill, is skipped; a missing file has none).
pub fn read_records(paths: &[PathBuf]) -> Result<Vec<RunRecord>, SuiteError> {
    let mut records = Vec::new();
    for path in paths {
        let text = match ptc_os::read_text(path, MAX_RESULT_FILE_BYTES) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                let message = match e.kind() {
                    std::io::ErrorKind::InvalidData => {
                        "not a result file (not UTF-8 text); `ptc bench SUITE --out FILE` writes one".to_string()
                    }
                    std::io::ErrorKind::IsADirectory => "a folder, not a file: name the result files in it".to_string(),
                    _ => read_message(e),
                };
                return Err(SuiteError::Io { path: path.clone(), message });
            }
        };
        records.extend(text.lines().filter_map(|line| serde_json::from_str::<RunRecord>(line).ok()));
    }
    Ok(records)
}

/// A result file's read error as its message: past
/// [`MAX_RESULT_FILE_BYTES`], what the file is not.
fn read_message(e: std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::FileTooLarge => {
            format!("{e} (MAX_RESULT_FILE_BYTES): not a result file; `ptc bench SUITE --out FILE` writes one")
        }
        _ => e.to_string(),
    }
}

/// One record per run: the first of each key, sorted by key.
pub fn merge(records: Vec<RunRecord>) -> Vec<RunRecord> {
    let mut seen = BTreeMap::new();
    for r in records {
        seen.entry(r.key.clone()).or_insert(r);
    }
    seen.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(task: &str, run: u32) -> RunRecord {
        RunRecord {
            key: RunKey { task: task.into(), strategy: "full-history".into(), run },
            tier: crate::Tier::Lookup,
            passed: true,
            outcome: RunOutcome { answer: Some("1".into()), status: RunEnd::Returned, turns: 1, ..Default::default() },
            wall_ms: 3,
        }
    }

    #[test]
    fn a_status_is_one_of_the_words_a_result_line_holds() {
        let line = r#"{"task":"t","strategy":"s","run":0,"tier":"lookup","passed":false,"answer":null,"status":"out_of_turns","turns":5,"prompt_tokens":1,"cached_tokens":null,"cost":{},"error_kind":"out_of_turns","error":null,"session":null,"wall_ms":1}"#;
        let r: RunRecord = serde_json::from_str(line).unwrap();
        assert_eq!(r.outcome.status, RunEnd::OutOfTurns);
        assert_eq!(serde_json::to_string(&r).unwrap(), line, "written back word for word");
        let ends = [
            RunEnd::Returned,
            RunEnd::Failed,
            RunEnd::OutOfTurns,
            RunEnd::InvalidReturn,
            RunEnd::Limit,
            RunEnd::Error,
            RunEnd::Unfinished,
        ];
        for end in ends {
            assert_eq!(serde_json::to_value(end).unwrap(), end.as_str());
            assert_eq!(end.to_string(), end.as_str());
        }
        let unknown = line.replace(r#""status":"out_of_turns""#, r#""status":"done""#);
        assert!(serde_json::from_str::<RunRecord>(&unknown).is_err(), "an unknown status is not a record");
    }

    #[test]
    fn a_torn_last_line_is_cut_and_appending_goes_on() {
        let dir = std::env::temp_dir().join(format!("ptc-suite-record-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("results.jsonl");
        let sink = ResultSink::open(&path).unwrap();
        sink.append(&record("a", 0)).unwrap();
        drop(sink);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"task\":\"b\",\"strat").unwrap();
        drop(f);
        assert_eq!(read_records(std::slice::from_ref(&path)).unwrap().len(), 1);
        let sink = ResultSink::open(&path).unwrap();
        sink.append(&record("c", 0)).unwrap();
        let read = read_records(std::slice::from_ref(&path)).unwrap();
        assert_eq!(read, vec![record("a", 0), record("c", 0)]);
        assert!(std::fs::read_to_string(&path).unwrap().lines().all(|l| l.starts_with('{') && l.ends_with('}')));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn merging_keeps_one_record_per_run_sorted() {
        let mut late = record("a", 0);
        late.passed = false;
        let merged = merge(vec![record("b", 1), record("a", 0), late, record("a", 1)]);
        let keys: Vec<(&str, u32, bool)> = merged.iter().map(|r| (r.key.task.as_str(), r.key.run, r.passed)).collect();
        assert_eq!(keys, [("a", 0, true), ("a", 1, true), ("b", 1, true)]);
    }
}
