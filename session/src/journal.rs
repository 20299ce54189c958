//! The session journal (`ptc-session/2`): how `ptc run` writes a session
//! so that a turn costs what the turn holds, not what the session holds.
//!
//! JSON Lines, one self-contained object per line:
//!
//! ```text
//! {"format":"ptc-session/2","agent":"demo","mission":"...","system_prompt":"...","max_turns":10,"tools":[...],"data":{...}}
//! {"turn":{"number":1,"raw_response":"...","program":"...","success":true,...,"messages_reused":0,"messages":[...]}}
//! {"turn":{"number":2,...,"messages_reused":3,"messages":[{"role":"assistant",...},{"role":"user",...}]}}
//! {"end":{"status":"returned","result":"42"}}
//! ```
//!
//! - The header holds what a `ptc-session/1` document holds besides its
//!   turns, result, usage and status.
//! - A turn line holds a [`TurnRecord`]; its `messages` are only those after
//!   the first `messages_reused` ones, which are the previous turn's.
//! - An end line records how the run stopped; a later turn line (a resumed
//!   run) clears it. `usage` is the sum of the turns' usage, computed on read.
//!
//! Each line is appended with one write and synced to disk, so a killed
//! writer leaves at most a partial last line. Readers ignore a last line
//! that has no newline; [`Journal::append`] cuts it off before writing.

use crate::{err, End, MessageRecord, Session, SessionError, TurnRecord, JOURNAL_FORMAT};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first line of a journal.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format: String,
    #[serde(default)]
    agent: Option<String>,
    mission: String,
    #[serde(default)]
    system_prompt: String,
    #[serde(default = "crate::default_max_turns")]
    max_turns: u32,
    #[serde(default)]
    tools: Vec<crate::ToolRecord>,
    #[serde(default)]
    data: IndexMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    signature: Option<String>,
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    inputs: IndexMap<String, String>,
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    retry_turns: u32,
}

/// Every line after the header.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
enum Line {
    Turn(Box<TurnRecord>),
    End(End),
}

/// Whether `text` is a journal: its first line is an object whose
/// `format` is [`JOURNAL_FORMAT`].
pub(crate) fn is_journal(text: &str) -> bool {
    format_tag(text.lines().next().unwrap_or("")).as_deref() == Some(JOURNAL_FORMAT)
}

/// The `format` member of `json`, when it is an object that has one.
pub(crate) fn format_tag(json: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Probe {
        #[serde(default)]
        format: Option<String>,
    }
    serde_json::from_str::<Probe>(json).ok()?.format
}

/// Reads a journal; a partial last line (no newline) is left out.
pub(crate) fn parse(text: &str) -> Result<Session, SessionError> {
    let complete = complete_part(text);
    let mut lines = complete.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or_else(|| err("line 1".into(), "empty journal"))?;
    let header: Header = line_value(1, first)?;
    let mut session = Session {
        format: header.format,
        agent: header.agent,
        mission: header.mission,
        system_prompt: header.system_prompt,
        max_turns: header.max_turns,
        tools: header.tools,
        data: header.data,
        signature: header.signature,
        inputs: header.inputs,
        retry_turns: header.retry_turns,
        turns: Vec::new(),
        result: None,
        usage: crate::Usage::default(),
        status: None,
        reason: None,
        detail: None,
    };
    let mut previous: Vec<MessageRecord> = Vec::new();
    for (i, text) in lines {
        match line_value::<Line>(i + 1, text)? {
            Line::Turn(turn) => {
                let mut turn = *turn;
                let reused = turn.messages_reused.take().unwrap_or(0);
                if reused > previous.len() {
                    return Err(err(
                        format!("line {} $.turn.messages_reused", i + 1),
                        format!("{reused} reused messages, but the previous turn sent {}", previous.len()),
                    ));
                }
                let mut messages = previous[..reused].to_vec();
                messages.append(&mut turn.messages);
                turn.messages = messages;
                previous.clone_from(&turn.messages);
                session.turns.push(turn);
                session.status = None;
                session.result = None;
                session.reason = None;
                session.detail = None;
            }
            Line::End(end) => {
                session.status = Some(end.status);
                session.result = end.result;
                session.reason = end.reason;
                session.detail = end.detail;
            }
        }
    }
    session.usage = crate::sum_usage(&session.turns);
    Ok(session)
}

/// `text` up to and including its last newline.
fn complete_part(text: &str) -> &str {
    &text[..text.rfind('\n').map_or(0, |i| i + 1)]
}

fn line_value<T: serde::de::DeserializeOwned>(line: usize, text: &str) -> Result<T, SessionError> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { format!("line {line} $") } else { format!("line {line} $.{path}") };
        // serde's own position counts within the one line: say the column.
        let inner = e.into_inner();
        let message = inner.to_string();
        let suffix = format!(" at line {} column {}", inner.line(), inner.column());
        let message = match message.strip_suffix(&suffix) {
            Some(m) if inner.line() == 1 => format!("{m} (column {})", inner.column()),
            _ => message,
        };
        err(path, message)
    })
}

/// A journal could not be written.
#[derive(Debug)]
pub struct JournalError {
    /// The journal file.
    pub path: PathBuf,
    /// What failed.
    pub source: std::io::Error,
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the session {}: {}", self.path.display(), self.source)?;
        let next = match self.source.kind() {
            std::io::ErrorKind::NotFound => "its folder does not exist: create it, or write the session elsewhere",
            std::io::ErrorKind::PermissionDenied => "no permission to write there: write the session elsewhere",
            _ => "check the disk, or write the session elsewhere",
        };
        write!(f, " ({next}, e.g. `ptc run AGENT --session FILE`)")
    }
}

impl std::error::Error for JournalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// An open journal that turns are appended to.
pub struct Journal {
    file: File,
    path: PathBuf,
    previous: Vec<MessageRecord>,
}

impl Journal {
    /// Writes `session` (header, its turns, its end) as a new journal at
    /// `path`, atomically: to a temporary file next to it, synced, then
    /// renamed over `path`. The journal stays open for appending.
    pub fn create(path: &Path, session: &Session) -> Result<Journal, JournalError> {
        let fail = |source| JournalError { path: path.to_path_buf(), source };
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "session".into());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let mut text = line(&Header {
            format: JOURNAL_FORMAT.to_string(),
            agent: session.agent.clone(),
            mission: session.mission.clone(),
            system_prompt: session.system_prompt.clone(),
            max_turns: session.max_turns,
            tools: session.tools.clone(),
            data: session.data.clone(),
            signature: session.signature.clone(),
            inputs: session.inputs.clone(),
            retry_turns: session.retry_turns,
        });
        let mut previous: &[MessageRecord] = &[];
        for turn in &session.turns {
            text.push_str(&turn_line(turn, previous));
            previous = &turn.messages;
        }
        if let Some(status) = session.status {
            text.push_str(&line(&Line::End(End {
                status,
                result: session.result.clone(),
                reason: session.reason.clone(),
                detail: session.detail.clone(),
            })));
        }
        let written = File::create(&tmp).and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        });
        if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path)) {
            // A full disk, say: no half-written temporary file is left beside it.
            let _ = std::fs::remove_file(&tmp);
            return Err(fail(e));
        }
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        let file = OpenOptions::new().append(true).open(path).map_err(fail)?;
        Ok(Journal { file, path: path.to_path_buf(), previous: previous.to_vec() })
    }

    /// Opens the journal at `path`, which holds `session` (as read from it),
    /// to append to it; a partial last line left by a killed writer is cut off.
    pub fn append(path: &Path, session: &Session) -> Result<Journal, JournalError> {
        let fail = |source| JournalError { path: path.to_path_buf(), source };
        let text = ptc_os::read_bytes(path, crate::MAX_SESSION_FILE_BYTES).map_err(fail)?;
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let file = OpenOptions::new().append(true).open(path).map_err(fail)?;
        if keep < text.len() {
            file.set_len(keep as u64).map_err(fail)?;
            file.sync_all().map_err(fail)?;
        }
        let previous = session.turns.last().map(|t| t.messages.clone()).unwrap_or_default();
        Ok(Journal { file, path: path.to_path_buf(), previous })
    }

    /// Appends a finished turn (one write, synced).
    pub fn turn(&mut self, turn: &TurnRecord) -> Result<(), JournalError> {
        self.turn_and_stop(turn, None)
    }

    /// Appends a finished turn and, when it ended the run, how it ended, in
    /// one write (synced): a killed writer never leaves a run whose last
    /// turn returned but which reads as unfinished (and would be resumed
    /// with one more model call).
    pub fn turn_and_stop(&mut self, turn: &TurnRecord, end: Option<&End>) -> Result<(), JournalError> {
        let mut text = turn_line(turn, &self.previous);
        if let Some(end) = end {
            text.push_str(&line(&Line::End(end.clone())));
        }
        self.write(&text)?;
        self.previous.clone_from(&turn.messages);
        Ok(())
    }

    /// Appends how the run stopped, with its reason when it has one.
    pub fn stop(&mut self, end: &End) -> Result<(), JournalError> {
        self.write(&line(&Line::End(end.clone())))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write(&mut self, text: &str) -> Result<(), JournalError> {
        let fail = |source| JournalError { path: self.path.clone(), source };
        self.file.write_all(text.as_bytes()).map_err(fail)?;
        self.file.sync_data().map_err(fail)
    }
}

/// A turn's line: its messages after those it shares with `previous`.
fn turn_line(turn: &TurnRecord, previous: &[MessageRecord]) -> String {
    let reused = previous.iter().zip(&turn.messages).take_while(|(a, b)| a == b).count();
    let mut stored = turn.clone();
    stored.messages.drain(..reused);
    stored.messages_reused = (!turn.messages.is_empty()).then_some(reused);
    line(&Line::Turn(Box::new(stored)))
}

fn line(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("session records always serialize") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_that_cannot_be_written_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("ptc-journal-{}", std::process::id()));
        // The name is taken by a folder: the rename over it fails, after the write.
        let taken = dir.join("s.jsonl");
        std::fs::create_dir_all(taken.join("inside")).unwrap();
        let e = Journal::create(&taken, &Session::new("m", "s", 3)).err().expect("a folder is in the way");
        assert_eq!(e.path, taken);
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, [std::ffi::OsString::from("s.jsonl")], "only the folder that was there");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
