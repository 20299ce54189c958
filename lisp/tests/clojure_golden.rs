//! Differential tests: every case in `tests/clojure/cases/*.clj` must print
//! and return exactly what real Clojure 1.11 does. When `clojure` is on
//! PATH the cases run through it here, all in one JVM
//! (`tests/clojure/driver.clj`), and the committed goldens in
//! `tests/clojure/expected/` must match what it printed; without it the
//! test says so once and compares with the goldens
//! (`scripts/clojure-diff.sh` regenerates them). Files named `manual-*`
//! cover PTC-only behavior; their goldens are hand-checked and can be
//! re-blessed with `PTC_LISP_BLESS=1`.

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

/// Runs the Clojure cases through real Clojure in one JVM; `None` when
/// `clojure` is not on PATH. Returns the output per file stem.
fn live_clojure(dir: &Path, files: &[std::path::PathBuf]) -> Option<std::collections::HashMap<String, String>> {
    let found =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("clojure").is_file()));
    if !found {
        return None;
    }
    let out_dir = std::env::temp_dir().join(format!("ptc-clojure-diff-{}", std::process::id()));
    fs::create_dir_all(&out_dir).unwrap();
    let mut cmd = std::process::Command::new("clojure");
    cmd.arg(dir.join("driver.clj"));
    let stems: Vec<String> = files
        .iter()
        .map(|f| f.file_stem().unwrap().to_str().unwrap().to_string())
        .filter(|stem| !stem.starts_with("manual-"))
        .collect();
    for stem in &stems {
        cmd.arg(dir.join("cases").join(format!("{stem}.clj"))).arg(out_dir.join(format!("{stem}.txt")));
    }
    let out = cmd.output().expect("clojure is on PATH and runs");
    assert!(out.status.success(), "clojure failed: {}", String::from_utf8_lossy(&out.stderr));
    let live = stems.into_iter().map(|stem| {
        let text = fs::read_to_string(out_dir.join(format!("{stem}.txt"))).unwrap();
        (stem, text)
    });
    let live = live.collect();
    let _ = fs::remove_dir_all(&out_dir);
    Some(live)
}

#[test]
fn clojure_differential() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clojure");
    let bless = std::env::var_os("PTC_LISP_BLESS").is_some();
    let mut files: Vec<_> = fs::read_dir(dir.join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|f| f.extension().is_some_and(|e| e == "clj"));
    files.sort();
    let live = live_clojure(&dir, &files);
    if live.is_none() {
        eprintln!("clojure is not on PATH: comparing with the committed goldens only (apt-get install clojure to run real Clojure 1.11)");
    }
    let mut failures = Vec::new();
    let mut total = 0;
    let mut clojure_total = 0;
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
        if let Some(text) = live.as_ref().and_then(|l| l.get(&stem)) {
            clojure_total += cases.len();
            assert_eq!(
                &expected, text,
                "{stem}: the golden differs from what Clojure prints now; run scripts/clojure-diff.sh"
            );
        }
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
    if live.is_some() {
        assert!(clojure_total >= 150, "only {clojure_total} cases ran through Clojure");
    }
    assert!(failures.is_empty(), "{} of {total} cases differ:\n{}", failures.len(), failures.join("\n"));
}
