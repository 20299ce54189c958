//! The session format stays readable: every file of the corpus
//! (`tests/sessions/*.json`, written by earlier versions) reads, and
//! writing it again gives an equivalent JSON document (the same values;
//! an optional field the file left out may be written with its empty
//! value), which reads back to the same session.

use ptc_session::Session;
use serde_json::Value as Json;
use std::path::Path;

/// Whether a field absent from the old file may appear with `value`.
fn empty(value: &Json) -> bool {
    match value {
        Json::Null => true,
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// The first place `after` differs from `before`, beyond empty fields it adds.
fn difference(before: &Json, after: &Json, path: &str) -> Option<String> {
    match (before, after) {
        (Json::Object(b), Json::Object(a)) => {
            for (key, value) in b {
                match a.get(key) {
                    None if empty(value) => {}
                    None => return Some(format!("{path}.{key}: dropped")),
                    Some(written) => {
                        if let Some(change) = difference(value, written, &format!("{path}.{key}")) {
                            return Some(change);
                        }
                    }
                }
            }
            a.iter().find(|(k, v)| !b.contains_key(*k) && !empty(v)).map(|(k, v)| format!("{path}.{k}: added {v}"))
        }
        (Json::Array(b), Json::Array(a)) if b.len() == a.len() => {
            b.iter().zip(a).enumerate().find_map(|(i, (b, a))| difference(b, a, &format!("{path}[{i}]")))
        }
        _ if before == after => None,
        _ => Some(format!("{path}: {before} became {after}")),
    }
}

/// The files of `dir` (from this crate's folder) whose names end with `suffix`, sorted.
fn files(dir: &str, suffix: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_session_reads_and_is_rewritten_equivalently() {
    let files = files("../tests/sessions", ".json");
    assert!(files.len() >= 8, "the corpus has at least 8 sessions, found {}", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable corpus file");
        let session = Session::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let written = session.to_document();
        let again = Session::parse(&written).unwrap_or_else(|e| panic!("{}: rewritten: {e}", file.display()));
        assert_eq!(again, session, "{}: the rewritten document reads back differently", file.display());
        let before: Json = serde_json::from_str(&text).expect("corpus JSON");
        let after: Json = serde_json::from_str(&written).expect("written JSON");
        if let Some(change) = difference(&before, &after, "$") {
            panic!("{}: rewriting changed the document at {change}", file.display());
        }
    }
}

/// Journals `ptc run` wrote before run records were typed
/// (`tests/journals/*.session.jsonl`: statuses, error kinds, render stats,
/// usage, tool errors, nested runs, `llm-query` calls, a limit, a resumed
/// error) read into the typed records, and writing them again gives the
/// same bytes: the format on disk did not change. (An `error` end that a
/// resumed turn cleared is not written again.)
#[test]
fn journals_written_before_typed_records_are_rewritten_byte_for_byte() {
    let files = files("tests/journals", ".session.jsonl");
    assert!(files.len() >= 6, "at least 6 journals, found {}", files.len());
    let out = std::env::temp_dir().join(format!("ptc-session-journals-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut statuses = std::collections::BTreeSet::new();
    for file in files {
        let session = Session::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        statuses.insert(session.status.map_or("unfinished", ptc_session::RunStatus::as_str));
        assert!(session.turns.iter().all(|t| t.render_stats.is_some() && t.usage.is_some()), "{}", file.display());
        let copy = out.join(file.file_name().unwrap());
        ptc_session::Journal::create(&copy, &session).unwrap();
        let original = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = original.lines().collect();
        let kept: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, l)| !(l.starts_with("{\"end\":") && *i + 1 < lines.len()))
            .map(|(_, l)| *l)
            .collect();
        let written = std::fs::read_to_string(&copy).unwrap();
        for (i, (a, b)) in kept.iter().zip(written.lines()).enumerate() {
            assert_eq!(a, &b, "{}: line {} differs once rewritten", file.display(), i + 1);
        }
        assert_eq!(kept.len(), written.lines().count(), "{}", file.display());
        assert_eq!(Session::read(&copy).unwrap(), session, "{}", file.display());
    }
    assert_eq!(statuses.into_iter().collect::<Vec<_>>(), ["error", "limit", "out_of_turns", "returned"]);
}
