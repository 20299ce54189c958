//! Session files: what `ptc run` records of a run, and how the host and
//! strategies read it back. This crate owns the turn record in both
//! directions: a finished program becomes a [`TurnRecord`]
//! ([`record_turn`]), a record becomes the ABI turn a strategy renders
//! ([`TurnRecord::to_abi`]), and a session becomes render requests
//! ([`Session::request_for_turn`], [`Session::requests`]) or, on resume, a
//! memory again ([`Session::rebuild_memory`]).
//!
//! Two layouts, one model ([`Session`]):
//! - `ptc-session/1`, one JSON document ([`DOCUMENT_FORMAT`]): the public
//!   interchange format (the corpus, hand-written requests);
//! - `ptc-session/2`, a journal of JSON lines ([`JOURNAL_FORMAT`],
//!   [`Journal`]): what `ptc run` writes, one appended line per turn.
//!
//! [`Session::read`] reads either. Lisp values inside are EDN text.
//!
//! ```
//! let json = r#"{"format": "ptc-session/1", "mission": "Count orders", "turns": []}"#;
//! let session = ptc_session::Session::parse(json).unwrap();
//! let request = session.request_for_turn(None).unwrap();
//! assert_eq!(request.turn(), 1);
//! ```

pub mod convert;
mod journal;
mod kinds;
mod record;
mod replay;
mod request;
mod stats;
mod usage;

pub use journal::{Journal, JournalError};
pub use kinds::{RunStatus, TurnErrorKind};
pub use ptc_lisp::{ToolError, ToolErrorKind};
pub use ptc_plugin_api::Role;
pub use record::{
    edn, message_records, record_turn, CostRecord, CostSource, CostTotals, DefinitionKind, DefinitionRecord,
    ErrorRecord, MessageRecord, RecordedTurn, ToolCallRecord, ToolRecord, TurnExit, TurnRecord,
};
pub use replay::ReplayError;
pub use request::edn_value;
pub use stats::RenderStats;
pub use usage::{add_turn_usage, sum_usage, Usage};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The tag of a session written as one JSON document.
pub const DOCUMENT_FORMAT: &str = "ptc-session/1";

/// The tag of a session journal (JSON lines), what `ptc run` writes.
pub const JOURNAL_FORMAT: &str = "ptc-session/2";

/// Bytes a session file may hold. It is read whole, and a run's turns are
/// bounded (a program's prints, value, definitions and tool traffic), so
/// a file past it is no session ptc wrote: a path to a device or to a
/// dataset, which is refused instead of read to its end (`ptc trace
/// /dev/zero` grew by about 400 MB a second).
pub const MAX_SESSION_FILE_BYTES: u64 = 1 << 30;

/// The text of `path`, an error of kind `FileTooLarge` past
/// [`MAX_SESSION_FILE_BYTES`] (checked while reading: a device or a pipe
/// has no size to check first).
fn read_text(path: &Path) -> std::io::Result<String> {
    ptc_os::read_text(path, MAX_SESSION_FILE_BYTES)
}

/// `max_turns` when a session does not say (SS-002).
pub const DEFAULT_MAX_TURNS: u32 = 5;

fn default_max_turns() -> u32 {
    DEFAULT_MAX_TURNS
}

/// A session: the agent's setup and every turn, in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// [`DOCUMENT_FORMAT`] or [`JOURNAL_FORMAT`], as read.
    pub format: String,
    /// Agent name, if it came from a config.
    #[serde(default)]
    pub agent: Option<String>,
    /// The mission.
    pub mission: String,
    /// The static system prompt.
    #[serde(default)]
    pub system_prompt: String,
    /// Turn limit.
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    /// Tools offered.
    #[serde(default)]
    pub tools: Vec<ToolRecord>,
    /// Input data: name to EDN text.
    #[serde(default)]
    pub data: IndexMap<String, String>,
    /// The agent's signature (`(query :string) -> {count :int}`), when it
    /// declared one: `result` was checked against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The named inputs the run was given (`ptc run --arg`): name to EDN
    /// text. They are also in `data`, where the program reads them.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub inputs: IndexMap<String, String>,
    /// Turns allowed past `max_turns`, only to fix a return that did not
    /// match the signature.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retry_turns: u32,
    /// Turns, oldest first.
    #[serde(default)]
    pub turns: Vec<TurnRecord>,
    /// EDN of the returned value, once the run returned.
    #[serde(default)]
    pub result: Option<String>,
    /// LLM usage figures, as reported, summed over turns ([`sum_usage`]).
    #[serde(default)]
    pub usage: Usage,
    /// How the run ended; absent while running or when not written by `ptc run`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<RunStatus>,
    /// Why the run stopped, for `limit` and `invalid_return`: the limit's
    /// config key (`max_tool_calls`, `max_tool_calls_per_turn`,
    /// `run_timeout_ms`) or `signature`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The stop explained in a sentence (with `reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a run stopped: a journal's end line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// How.
    pub status: RunStatus,
    /// EDN of the returned value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Why, for `limit` and `invalid_return` ([`Session::reason`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The stop explained in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl End {
    /// An end with `status` and nothing else.
    pub fn new(status: RunStatus) -> End {
        End { status, result: None, reason: None, detail: None }
    }

    /// A run that returned `result` (EDN).
    pub fn returned(result: impl Into<String>) -> End {
        End { result: Some(result.into()), ..End::new(RunStatus::Returned) }
    }

    /// An end with a reason and its sentence (`limit`, `invalid_return`).
    pub fn because(status: RunStatus, reason: impl Into<String>, detail: impl Into<String>) -> End {
        End { reason: Some(reason.into()), detail: Some(detail.into()), ..End::new(status) }
    }
}

/// A session that could not be read, with where the problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionError {
    /// JSON path of the problem (`$.turns[2].definitions[0].value`; in a
    /// journal `line 3 $.turn.success`), or `$`: the file as a whole,
    /// which `Display` does not name.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.as_str() {
            // The file as a whole (a folder, not text, empty): no place in it to name.
            "$" => f.write_str(&self.message),
            path => write!(f, "at {path}: {}", self.message),
        }
    }
}

impl std::error::Error for SessionError {}

fn err(path: String, message: impl Into<String>) -> SessionError {
    SessionError { path, message: message.into() }
}

impl Session {
    /// A new session with no turns, in the journal format.
    pub fn new(mission: impl Into<String>, system_prompt: impl Into<String>, max_turns: u32) -> Session {
        Session {
            format: JOURNAL_FORMAT.to_string(),
            agent: None,
            mission: mission.into(),
            system_prompt: system_prompt.into(),
            max_turns,
            tools: Vec::new(),
            data: IndexMap::new(),
            signature: None,
            inputs: IndexMap::new(),
            retry_turns: 0,
            turns: Vec::new(),
            result: None,
            usage: Usage::default(),
            status: None,
            reason: None,
            detail: None,
        }
    }

    /// Reads a session file in either layout.
    pub fn read(path: &Path) -> Result<Session, SessionError> {
        let text = read_text(path).map_err(|e| {
            let message = match e.kind() {
                std::io::ErrorKind::FileTooLarge => {
                    format!("{e} (MAX_SESSION_FILE_BYTES); {NOT_A_SESSION}")
                }
                std::io::ErrorKind::InvalidData => format!("not text (not UTF-8); {NOT_A_SESSION}"),
                std::io::ErrorKind::IsADirectory => "a folder, not a file: name a session file in it".to_string(),
                std::io::ErrorKind::PermissionDenied => format!("cannot read: {e}; no permission there"),
                _ => format!("cannot read: {e}"),
            };
            err("$".into(), message)
        })?;
        Session::parse(&text)
    }

    /// Whether `text` is meant as a session: a `ptc-session/2` journal's
    /// header line, or a JSON document whose `format` is a `ptc-session/`
    /// tag. Other JSON (a replay file, a bench result, a tool's data) is
    /// not; a session that is whole but broken still is, so that reading it
    /// says what is wrong.
    pub fn is_session_text(text: &str) -> bool {
        // A document cut off while written does not parse: its tag, near the
        // top where ptc writes it, still says what it was.
        let head = text.get(..text.len().min(4096)).unwrap_or(text);
        journal::is_journal(text)
            || journal::format_tag(text).is_some_and(|f| f.starts_with("ptc-session/"))
            || (text.trim_start().starts_with('{') && head.contains("\"ptc-session/"))
    }

    /// The session files below `dir`: every `.json` and `.jsonl` file in it
    /// or its subfolders (links to folders not followed) that is meant as a
    /// session ([`Session::is_session_text`]), in path order, and how many
    /// other such files were passed over (a replay file, a bench result).
    pub fn files_below(dir: &Path) -> std::io::Result<(Vec<PathBuf>, usize)> {
        fn json_files(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
            for entry in std::fs::read_dir(dir)? {
                let entry = entry?;
                let path = entry.path();
                if entry.file_type()?.is_dir() {
                    json_files(&path, found)?;
                } else if path.extension().is_some_and(|e| e == "json" || e == "jsonl") {
                    found.push(path);
                }
            }
            Ok(())
        }
        let mut found = Vec::new();
        json_files(dir, &mut found)?;
        found.sort();
        let total = found.len();
        found.retain(|f| read_text(f).is_ok_and(|text| Session::is_session_text(&text)));
        let other = total - found.len();
        Ok((found, other))
    }

    /// Parses a session in either layout and checks it can be rendered
    /// (every EDN value reads, turns are numbered 1..N, success agrees with
    /// error).
    pub fn parse(text: &str) -> Result<Session, SessionError> {
        let session = if journal::is_journal(text) { journal::parse(text)? } else { parse_document(text)? };
        session.check()?;
        Ok(session)
    }

    /// The session as it is to be written to `to` after it was read from
    /// `from` (two session files): a call's nested run (`session`, a path
    /// relative to the session's folder) made relative to `to`'s folder,
    /// so that `ptc trace` and the cost read-back still find it. Nothing
    /// changes when both are in one folder, or when a folder cannot be
    /// resolved; a nested file with no root in common with `to` is named
    /// by its absolute path.
    pub fn moved(&mut self, from: &Path, to: &Path) {
        let folder = |file: &Path| std::fs::canonicalize(session_folder(file)).ok();
        let (Some(from), Some(to)) = (folder(from), folder(to)) else { return };
        if from == to {
            return;
        }
        for call in self.turns.iter_mut().flat_map(|t| &mut t.tool_calls) {
            if let Some(nested) = &mut call.session {
                *nested = relative_path(&from.join(&*nested), &to);
            }
        }
    }

    /// The session as a `ptc-session/1` document (pretty JSON).
    pub fn to_document(&self) -> String {
        let doc = Session { format: DOCUMENT_FORMAT.to_string(), ..self.clone() };
        serde_json::to_string_pretty(&doc).expect("session records always serialize") + "\n"
    }
}

/// The folder of session file `file`, which the nested runs its calls
/// name (`session`) are relative to: `.` for a bare file name.
pub fn session_folder(file: &Path) -> &Path {
    file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The file of the nested run a call of session file `file` names
/// (`relative`, its `session`).
pub fn nested_session_path(file: &Path, relative: &str) -> PathBuf {
    session_folder(file).join(relative)
}

/// `target` as a path relative to `base` (both absolute), `/`-separated,
/// as a session names a nested run's file; `target` itself when they
/// share no root (another drive).
fn relative_path(target: &Path, base: &Path) -> String {
    use std::path::Component;
    let (target, base): (Vec<Component>, Vec<Component>) = (target.components().collect(), base.components().collect());
    let shared = target.iter().zip(&base).take_while(|(a, b)| a == b).count();
    if shared == 0 || !matches!(target[0], Component::RootDir | Component::Prefix(_)) {
        return target.iter().collect::<PathBuf>().display().to_string();
    }
    let up = base[shared..].iter().map(|_| "..".to_string());
    let down = target[shared..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned());
    up.chain(down).collect::<Vec<_>>().join("/")
}

/// What a session file is, after an error on the file as a whole.
const NOT_A_SESSION: &str = "a session file is what `ptc run` writes: a ptc-session/1 JSON document or a \
     ptc-session/2 journal (docs/spec/session-format.md)";

fn parse_document(text: &str) -> Result<Session, SessionError> {
    if text.trim().is_empty() {
        return Err(err("$".into(), format!("the file is empty; {NOT_A_SESSION}")));
    }
    if !text.trim_start().starts_with('{') {
        return Err(err("$".into(), format!("not a JSON object; {NOT_A_SESSION}")));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let session: Session = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        if e.inner().is_eof() {
            // A document cut off while it was written: say so, not where the parser stopped.
            let (line, column) = (e.inner().line(), e.inner().column());
            return err(
                "$".into(),
                format!(
                    "the JSON ends early (line {line}, column {column}): the file was cut off; a ptc-session/1 \
                     document must be whole (`ptc run` writes a ptc-session/2 journal, which keeps every finished \
                     turn of a killed run: `ptc run AGENT --resume FILE` goes on from it)"
                ),
            );
        }
        if path == "." {
            // Nothing of a session was read: say what one is.
            return err("$".into(), format!("{}; {NOT_A_SESSION}", e.into_inner()));
        }
        err(format!("$.{path}"), e.into_inner().to_string())
    })?;
    if session.format != DOCUMENT_FORMAT {
        return Err(err(
            "$.format".into(),
            format!("expected \"{DOCUMENT_FORMAT}\" (or a {JOURNAL_FORMAT} journal), got {:?}", session.format),
        ));
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nested_run_is_named_relative_to_the_folder_a_session_moves_to() {
        let cases = [
            ("/a/b/x.runs/t.jsonl", "/a/c", "../b/x.runs/t.jsonl"),
            ("/a/b/x.runs/t.jsonl", "/a/b/sub", "../x.runs/t.jsonl"),
            ("/a/b/sub/x.runs/t.jsonl", "/a/b", "sub/x.runs/t.jsonl"),
            ("/x.runs/t.jsonl", "/a/b", "../../x.runs/t.jsonl"),
        ];
        for (target, base, relative) in cases {
            assert_eq!(relative_path(Path::new(target), Path::new(base)), relative, "{target} from {base}");
        }
        // A session read from one folder and written to another.
        let root = std::env::temp_dir().join(format!("ptc-session-moved-{}", std::process::id()));
        std::fs::create_dir_all(root.join("later")).unwrap();
        let mut session = Session::new("m", "s", 3);
        let mut turn = TurnRecord::new(1, "r");
        turn.tool_calls.push(ToolCallRecord {
            name: "h".into(),
            args: "{}".into(),
            result: Some("1".into()),
            error: None,
            duration_ms: 0,
            cached: false,
            session: Some("a.jsonl.runs/t.jsonl".into()),
            usage: None,
        });
        session.turns.push(turn);
        let mut same = session.clone();
        same.moved(&root.join("a.jsonl"), &root.join("b.jsonl"));
        assert_eq!(same.turns[0].tool_calls[0].session.as_deref(), Some("a.jsonl.runs/t.jsonl"));
        session.moved(&root.join("a.jsonl"), &root.join("later/b.jsonl"));
        assert_eq!(session.turns[0].tool_calls[0].session.as_deref(), Some("../a.jsonl.runs/t.jsonl"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    const MINIMAL: &str = r##"{"format": "ptc-session/1", "mission": "m", "turns": [
        {"number": 1, "raw_response": "r", "program": "(def x 1)", "success": true, "result": "#'x",
         "definitions": [{"name": "x", "kind": "value", "value": "1", "docstring": null}]}]}"##;

    #[test]
    fn session_text_is_told_from_other_json() {
        let journal = Session::new("m", "s", 3);
        let dir = std::env::temp_dir().join(format!("ptc-session-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.jsonl");
        Journal::create(&path, &journal).unwrap();
        let journal_text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(Session::is_session_text(&journal_text));
        assert!(Session::is_session_text(MINIMAL));
        // Cut off, or whole but wrong: still meant as a session (reading it says why not).
        assert!(Session::is_session_text(&MINIMAL[..60]));
        assert!(Session::is_session_text(r#"{"format": "ptc-session/9", "turns": 3}"#));
        for other in ["[\"a replay answer\"]", r#"{"task": "lookup-fx", "passed": true}"#, "", "not json"] {
            assert!(!Session::is_session_text(other), "{other}");
        }
    }

    #[test]
    fn reads_minimal_session_with_defaults() {
        let s = Session::parse(MINIMAL).unwrap();
        assert_eq!(s.max_turns, DEFAULT_MAX_TURNS);
        let req = s.request_for_turn(None).unwrap();
        assert_eq!(req.turn(), 2);
        assert_eq!(req.memory()[0].name(), "x");
        assert_eq!(s.request_for_turn(Some(1)).unwrap().turns().len(), 0);
        let e = s.request_for_turn(Some(3)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "at $.turns: cannot render turn 3: the session has 1 turn, so turns 1 to 2 can be rendered \
             (2: the prompt of the turn after the last)"
        );
    }

    /// MINIMAL with a cost record on its turn, `input_cost` written as given.
    fn with_cost(input_cost: &str) -> Session {
        let cost = format!(
            r#""cost": {{"model": "openai", "source": "estimated", "prompt_tokens": 1622,
            "cache_read_tokens": 1536, "cache_write_tokens": 0, "uncached_tokens": 86, "input_cost": {input_cost}}},"#
        );
        Session::parse(&MINIMAL.replace("\"result\": \"#'x\",", &format!("\"result\": \"#'x\", {cost}"))).unwrap()
    }

    #[test]
    fn a_cost_reads_back_to_the_same_float() {
        // 239.60000000000002 is written as such; a parser that is not
        // correctly rounded reads it back one ulp off, as 239.6.
        let s = with_cost("239.60000000000002");
        let input_cost = s.turns[0].cost.as_ref().map(|c| c.input_cost);
        assert_ne!(239.600_000_000_000_02_f64, 239.6);
        assert_eq!(input_cost, Some(239.600_000_000_000_02), "the written figure, to the bit");
        assert_eq!(Session::parse(&s.to_document()).unwrap(), s, "and again after a write");
    }

    #[test]
    fn cost_totals_sum_the_turns_that_record_a_cost() {
        let s = with_cost("239.5");
        assert_eq!(CostTotals::of(&[]), None);
        let mut turns = vec![s.turns[0].clone(), s.turns[0].clone(), s.turns[0].clone()];
        turns[1].cost = None;
        if let Some(c) = turns[2].cost.as_mut() {
            c.output_cost = Some(10.0);
        }
        let t = CostTotals::of(&turns).unwrap();
        assert_eq!(t.model, "openai");
        assert_eq!((t.turns, t.prompt_tokens, t.cache_read_tokens, t.uncached_tokens), (2, 3244, 3072, 172));
        assert_eq!((t.input_cost, t.output_cost), (479.0, Some(10.0)));
    }

    #[test]
    fn structural_errors_name_the_json_path() {
        let bad = MINIMAL.replace("\"success\": true", "\"success\": \"yes\"");
        let e = Session::parse(&bad).unwrap_err();
        assert_eq!(e.path, "$.turns[0].success");
        let bad = MINIMAL.replace("\"mission\": \"m\",", "");
        assert!(Session::parse(&bad).unwrap_err().to_string().contains("missing field `mission`"));
        let bad = MINIMAL.replace("ptc-session/1", "ptc-session/9");
        assert_eq!(Session::parse(&bad).unwrap_err().path, "$.format");
    }

    #[test]
    fn a_message_role_is_one_of_three_words() {
        let with_role = |role: &str| {
            MINIMAL.replace(
                "\"result\": \"#'x\",",
                &format!("\"result\": \"#'x\", \"messages\": [{{\"role\": \"{role}\", \"content\": \"c\"}}],"),
            )
        };
        let session = Session::parse(&with_role("assistant")).unwrap();
        assert_eq!(session.turns[0].messages[0].role, Role::Assistant);
        assert!(session.to_document().contains(r#""role": "assistant""#), "{}", session.to_document());
        let e = Session::parse(&with_role("tool")).unwrap_err();
        assert_eq!(e.path, "$.turns[0].messages[0].role", "{e}");
        assert!(e.message.starts_with("unknown role `tool` (known: system, user, assistant)"), "{e}");
    }

    #[test]
    fn bad_edn_names_the_value_and_position() {
        let bad = MINIMAL.replace("\"value\": \"1\"", "\"value\": \"[1 2\"");
        let e = Session::parse(&bad).unwrap_err();
        assert_eq!(e.path, "$.turns[0].definitions[0].value");
        assert!(e.message.starts_with("not readable EDN: line 1, column"), "{e}");
    }

    #[test]
    fn a_file_that_is_no_session_says_what_a_session_is() {
        for text in ["not json", "{}", "[1, 2]"] {
            let e = Session::parse(text).unwrap_err();
            assert_eq!(e.path, "$", "{e}");
            assert!(e.message.ends_with(&format!("; {NOT_A_SESSION}")), "{e}");
        }
        for text in ["", " \n"] {
            let e = Session::parse(text).unwrap_err();
            assert_eq!(e.to_string(), format!("the file is empty; {NOT_A_SESSION}"));
        }
    }

    #[test]
    fn a_binary_file_or_a_folder_says_what_to_give() {
        let dir = std::env::temp_dir().join(format!("ptc-session-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let binary = dir.join("image.json");
        std::fs::write(&binary, [0x89, b'P', b'N', b'G', 0xff, 0x00]).unwrap();
        let e = Session::read(&binary).unwrap_err();
        assert_eq!(e.to_string(), format!("not text (not UTF-8); {NOT_A_SESSION}"));
        let e = Session::read(&dir).unwrap_err();
        assert_eq!(e.to_string(), "a folder, not a file: name a session file in it");
        std::fs::remove_dir_all(&dir).unwrap();
        // A device is read only as far as the bound, not until memory runs out.
        #[cfg(unix)]
        {
            let e = Session::read(Path::new("/dev/zero")).unwrap_err();
            assert_eq!(e.to_string(), format!("more than 1 GiB (MAX_SESSION_FILE_BYTES); {NOT_A_SESSION}"));
        }
    }

    #[test]
    fn a_cut_off_document_says_so() {
        let cut = &MINIMAL[..MINIMAL.len() / 2];
        let e = Session::parse(cut).unwrap_err();
        assert_eq!(e.path, "$", "{e}");
        assert!(e.message.starts_with("the JSON ends early (line 2, column "), "{e}");
        assert!(e.message.contains("the file was cut off"), "{e}");
    }

    #[test]
    fn inconsistent_turns_are_rejected() {
        let bad = MINIMAL.replace("\"number\": 1", "\"number\": 2");
        assert_eq!(Session::parse(&bad).unwrap_err().to_string(), "at $.turns[0].number: expected 1, got 2");
        let bad = MINIMAL.replace("\"success\": true", "\"success\": false");
        assert_eq!(Session::parse(&bad).unwrap_err().path, "$.turns[0].error");
    }

    fn turn(n: u32, messages: &[(Role, &str)]) -> TurnRecord {
        let mut t = TurnRecord::new(n, format!("```clojure\n(def x{n} {n})\n```"));
        t.program = Some(format!("(def x{n} {n})"));
        t.success = true;
        t.result = Some(format!("#'x{n}"));
        t.definitions.push(DefinitionRecord {
            name: format!("x{n}"),
            kind: DefinitionKind::Value,
            value: Some(n.to_string()),
            params: None,
            variadic: None,
            docstring: None,
            return_type: None,
        });
        t.messages = messages.iter().map(|(r, c)| MessageRecord::new(*r, *c)).collect();
        t.usage =
            Some(Usage { prompt_tokens: Some(10 * n as u64), completion_tokens: Some(n as u64), ..Usage::default() });
        t
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ptc-session-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("s.jsonl")
    }

    #[test]
    fn a_journal_reads_back_as_the_session_it_recorded() {
        let path = scratch("roundtrip");
        let mut session = Session::new("m", "sys", 4);
        session.agent = Some("a".into());
        let mut journal = Journal::create(&path, &session).unwrap();
        let t1 = turn(1, &[(Role::System, "sys"), (Role::User, "m")]);
        let t2 = turn(2, &[(Role::System, "sys"), (Role::User, "m"), (Role::Assistant, "a1"), (Role::User, "f1")]);
        let t3 = turn(3, &[(Role::System, "sys"), (Role::User, "other")]);
        for t in [&t1, &t2, &t3] {
            journal.turn(t).unwrap();
            session.turns.push(t.clone());
        }
        journal.stop(&End::returned("3")).unwrap();
        session.status = Some(RunStatus::Returned);
        session.result = Some("3".into());
        session.usage = Usage { prompt_tokens: Some(60), completion_tokens: Some(6), ..Usage::default() };
        assert_eq!(Session::read(&path).unwrap(), session);
        // Turn 2 stored only the two messages turn 1 had not sent.
        let text = std::fs::read_to_string(&path).unwrap();
        let line: serde_json::Value = serde_json::from_str(text.lines().nth(2).unwrap()).unwrap();
        assert_eq!(line["turn"]["messages_reused"], 2);
        assert_eq!(line["turn"]["messages"].as_array().unwrap().len(), 2);
        // Rewritten as a document, it is the same session.
        let doc = Session::parse(&session.to_document()).unwrap();
        assert_eq!(Session { format: JOURNAL_FORMAT.into(), ..doc }, session);
    }

    #[test]
    fn a_turn_and_the_end_it_made_are_appended_together() {
        let path = scratch("turn-and-stop");
        let mut journal = Journal::create(&path, &Session::new("m", "sys", 3)).unwrap();
        journal.turn(&turn(1, &[])).unwrap();
        let end = End::returned("42");
        let before = std::fs::metadata(&path).unwrap().len();
        journal.turn_and_stop(&turn(2, &[]), Some(&end)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let added: Vec<&str> = text[before as usize..].lines().collect();
        assert_eq!(added.len(), 2, "{added:?}");
        assert!(added[0].starts_with("{\"turn\":") && added[1].starts_with("{\"end\":"), "{added:?}");
        let read = Session::read(&path).unwrap();
        assert_eq!((read.turns.len(), read.status, read.result.as_deref()), (2, Some(RunStatus::Returned), Some("42")));
    }

    #[test]
    fn contract_fields_and_stop_reasons_round_trip_and_are_optional() {
        let path = scratch("contract");
        let mut session = Session::new("Count {{query}}", "sys", 1);
        session.signature = Some("(query :string) -> {count :int}".into());
        session.inputs.insert("query".into(), "\"kettle\"".into());
        session.data.insert("query".into(), "\"kettle\"".into());
        session.retry_turns = 2;
        let mut journal = Journal::create(&path, &session).unwrap();
        journal.turn(&turn(1, &[])).unwrap();
        let end = End::because(RunStatus::Limit, "max_tool_calls", "the run reached max_tool_calls = 3");
        journal.stop(&end).unwrap();
        let read = Session::read(&path).unwrap();
        assert_eq!(read.signature, session.signature);
        assert_eq!((read.inputs.clone(), read.retry_turns), (session.inputs.clone(), 2));
        assert_eq!((read.status, read.reason.as_deref()), (Some(RunStatus::Limit), Some("max_tool_calls")));
        assert_eq!(read.detail, end.detail);
        // As a document too; and a session without them writes none of the keys.
        let doc = Session::parse(&read.to_document()).unwrap();
        assert_eq!((doc.signature, doc.reason, doc.retry_turns), (session.signature, end.reason, 2));
        let plain = Session::new("m", "sys", 4).to_document();
        for key in ["signature", "inputs", "retry_turns", "reason", "detail"] {
            assert!(!plain.contains(&format!("\"{key}\"")), "{key} in {plain}");
        }
    }

    #[test]
    fn a_running_usage_total_equals_the_sum_over_turns() {
        let turns = [turn(1, &[]), turn(2, &[]), TurnRecord::new(3, "no usage"), turn(4, &[])];
        let mut running = Usage::default();
        for t in &turns {
            add_turn_usage(&mut running, t);
        }
        running.add(&Usage { finish_reason: Some("stop".into()), wall_ms: Some(5), ..Usage::default() });
        let mut expected = sum_usage(&turns);
        expected.wall_ms = Some(5);
        assert_eq!(running, expected);
        assert_eq!(
            serde_json::to_value(&running).unwrap(),
            serde_json::json!({"prompt_tokens": 70, "completion_tokens": 7, "wall_ms": 5})
        );
    }

    #[test]
    fn a_partial_last_line_is_ignored_and_cut_before_appending() {
        let path = scratch("torn");
        let mut session = Session::new("m", "sys", 4);
        let mut journal = Journal::create(&path, &session).unwrap();
        let t1 = turn(1, &[(Role::System, "sys"), (Role::User, "m")]);
        journal.turn(&t1).unwrap();
        session.turns.push(t1);
        session.usage = Usage { prompt_tokens: Some(10), completion_tokens: Some(1), ..Usage::default() };
        // A writer killed in the middle of turn 2's line.
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        std::io::Write::write_all(&mut f, b"{\"turn\":{\"number\":2,\"raw_resp").unwrap();
        let read = Session::read(&path).unwrap();
        assert_eq!(read, session);
        let mut journal = Journal::append(&path, &read).unwrap();
        let t2 = turn(2, &[(Role::System, "sys"), (Role::User, "m2")]);
        journal.turn(&t2).unwrap();
        assert_eq!(Session::read(&path).unwrap().turns.iter().map(|t| t.number).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn an_error_end_is_cleared_by_a_resumed_turn() {
        let path = scratch("resumed");
        let session = Session::new("m", "sys", 4);
        let mut journal = Journal::create(&path, &session).unwrap();
        journal.turn(&turn(1, &[])).unwrap();
        journal.stop(&End::new(RunStatus::Error)).unwrap();
        assert_eq!(Session::read(&path).unwrap().status, Some(RunStatus::Error));
        journal.turn(&turn(2, &[])).unwrap();
        let read = Session::read(&path).unwrap();
        assert_eq!((read.status, read.turns.len()), (None, 2));
    }

    #[test]
    fn tool_errors_keep_their_kind_and_failed_is_the_unwritten_default() {
        let doc = |calls: &str| {
            format!(
                r#"{{"format": "ptc-session/1", "mission": "m", "turns": [{{"number": 1, "raw_response": "r",
                "program": "(tool/t)", "success": false, "error": {{"kind": "tool", "message": "tool/t failed"}},
                "tool_calls": [{calls}]}}]}}"#
            )
        };
        let text = doc(r#"{"name": "t", "args": "{}", "error": "no tool named `t`", "error_kind": "unknown_tool"},
                          {"name": "t", "args": "{}", "error": "exited with status 3"}"#);
        let session = Session::parse(&text).unwrap();
        let calls = &session.turns[0].tool_calls;
        assert_eq!(calls[0].error, Some(ToolError::new(ToolErrorKind::UnknownTool, "no tool named `t`")));
        assert_eq!(calls[1].error, Some(ToolError::failed("exited with status 3")));
        assert_eq!(session.turns[0].error.as_ref().unwrap().kind, TurnErrorKind::Program(ptc_lisp::ErrorKind::Tool));
        let written = session.to_document();
        assert_eq!((written.matches("\"error_kind\"").count(), written.contains("\"unknown_tool\"")), (1, true));
        assert_eq!(Session::parse(&written).unwrap(), session);
        let e = Session::parse(&doc(r#"{"name": "t", "args": "{}", "error": "x", "error_kind": "gone"}"#)).unwrap_err();
        assert_eq!(e.path, "$.turns[0].tool_calls[0].error_kind", "{e}");
        assert!(e.message.starts_with("unknown tool error kind `gone` (known: unknown_tool, bad_arguments,"), "{e}");
    }

    #[test]
    fn journal_errors_name_the_line() {
        let header = r#"{"format":"ptc-session/2","mission":"m"}"#;
        let bad = format!("{header}\n{{\"turn\":{{\"number\":1,\"raw_response\":\"r\",\"success\":\"yes\"}}}}\n");
        let e = Session::parse(&bad).unwrap_err();
        assert_eq!(e.path, "line 2 $.turn.success", "{e}");
        let bad = format!(
            "{header}\n{{\"turn\":{{\"number\":1,\"raw_response\":\"r\",\"success\":true,\"messages_reused\":2}}}}\n"
        );
        assert!(Session::parse(&bad).unwrap_err().to_string().contains("2 reused messages"));
        let bad = format!("{header}\n{{\"end\":{{\"status\":\"done\"}}}}\n");
        let e = Session::parse(&bad).unwrap_err();
        assert_eq!(e.path, "line 2 $.end.status", "{e}");
        assert!(e.message.starts_with("unknown variant `done`, expected one of `returned`"), "{e}");
        assert!(e.message.ends_with("(column 23)"), "{e}");
    }
}
