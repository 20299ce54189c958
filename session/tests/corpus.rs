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

#[test]
fn every_corpus_session_reads_and_is_rewritten_equivalently() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/sessions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
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
