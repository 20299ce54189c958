//! `ptc repl` driven as a user would from a pipe: lines in, results out.

use std::io::Write;
use std::process::{Command, Stdio};

fn repl(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptc"))
        .arg("repl")
        .args(args)
        .env("PTC_HISTORY", std::env::temp_dir().join(format!("ptc-repl-history-{}", std::process::id())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap(), out.status.success())
}

#[test]
fn piped_lines_keep_definitions_continue_open_forms_and_survive_errors() {
    let input = "(def x 5)\n(defn f [n]\n  (* n x))\n(f 2)\n(nope)\n(letfn [(g [] (f 3))] (g))\n:quit\n(f 100)\n";
    let (out, err, ok) = repl(&[], input);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..3], ["#'x", "#'f", "10"]);
    assert!(lines[3].starts_with("error: unbound_symbol error"), "{out}");
    assert_eq!(lines[4..], ["15"], "{out}");
}

#[test]
fn data_files_and_the_fallback_flag() {
    let path = std::env::temp_dir().join(format!("ptc-repl-data-{}.json", std::process::id()));
    std::fs::write(&path, "[3, 4]").unwrap();
    let binding = format!("xs={}", path.display());
    let (out, _, ok) = repl(&["--data", &binding], "(reduce + data/xs)\n(count xs)\n");
    assert!(ok);
    assert!(out.starts_with("7\nerror: unbound_symbol"), "{out}");
    let (out, _, _) = repl(&["--data", &binding, "--namespace-fallback"], "(count xs)\n[1\n");
    assert_eq!(out, "2\nerror: the input ended inside an unfinished form\n");
}
