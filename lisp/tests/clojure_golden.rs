//! Differential tests: every case in `tests/clojure/cases/*.clj` must print
//! and return exactly what real Clojure 1.11 did (goldens in
//! `tests/clojure/expected/`, produced by `scripts/clojure-diff.sh`).
//! Files named `manual-*` cover PTC-only behavior; their goldens are
//! hand-checked and can be re-blessed with `PTC_LISP_BLESS=1`.

use ptc_lisp::{run_program, Exit, Limits, Memory, NoTools};
use std::fs;
use std::path::Path;

/// `(name, text)` for each `;;; name` section.
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix(";;; ") {
            out.push((name.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
        }
    }
    out
}

/// What the Clojure driver prints: println output, then `=> value`.
fn run_case(src: &str) -> String {
    let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
    let mut s = String::new();
    for p in &out.prints {
        s.push_str(p);
        s.push('\n');
    }
    let result = match out.result {
        Ok(Exit::Value(v)) => v.to_string(),
        Ok(Exit::Return(v)) => format!("(return) {v}"),
        Ok(Exit::Fail(v)) => format!("(fail) {v}"),
        Err(_) => "ERROR".to_string(),
    };
    s.push_str(&format!("=> {result}\n"));
    s
}

#[test]
fn clojure_differential() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clojure");
    let bless = std::env::var_os("PTC_LISP_BLESS").is_some();
    let mut files: Vec<_> = fs::read_dir(dir.join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut failures = Vec::new();
    let mut total = 0;
    for case_file in files {
        let stem = case_file.file_stem().unwrap().to_str().unwrap().to_string();
        let cases = sections(&fs::read_to_string(&case_file).unwrap());
        let expected_path = dir.join("expected").join(format!("{stem}.txt"));
        if bless && stem.starts_with("manual-") {
            let text: String = cases.iter().map(|(name, src)| format!(";;; {name}\n{}", run_case(src))).collect();
            fs::write(&expected_path, text).unwrap();
        }
        let expected = fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("missing {}; run scripts/clojure-diff.sh", expected_path.display()));
        let expected = sections(&expected);
        assert_eq!(
            cases.iter().map(|c| &c.0).collect::<Vec<_>>(),
            expected.iter().map(|c| &c.0).collect::<Vec<_>>(),
            "{stem}: case names differ from the golden file; regenerate it"
        );
        for ((name, src), (_, want)) in cases.iter().zip(&expected) {
            total += 1;
            let got = run_case(src);
            if &got != want {
                failures.push(format!("--- {stem}/{name}\nprogram:\n{}\nexpected:\n{want}got:\n{got}", src.trim_end()));
            }
        }
    }
    assert!(total >= 150, "only {total} differential cases");
    assert!(failures.is_empty(), "{} of {total} cases differ:\n{}", failures.len(), failures.join("\n"));
}
