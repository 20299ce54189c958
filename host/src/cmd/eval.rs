//! `ptc eval`: run one PTC-Lisp program outside an agent, with input data
//! from JSON files and no tools.

use super::{CmdError, CmdResult, Output};
use indexmap::IndexMap;
use ptc_agent::inputs::MAX_INPUT_FILE_BYTES;
use ptc_lisp::{
    json_to_value, run_program_with, value_to_json, Exit, Limits, LispError, Memory, RunOptions, ToolError,
    ToolErrorKind, ToolHost, Value,
};
use ptc_os::MAX_SOURCE_FILE_BYTES;
use std::path::Path;
use std::path::PathBuf;

/// How `ptc eval` prints the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ResultFormat {
    /// Clojure syntax (`{:a 1}`).
    Edn,
    /// JSON (keywords become strings).
    Json,
}

/// Where `ptc eval` takes its program from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    /// Standard input (no argument, or `-`).
    Stdin,
    /// A program file.
    File(&'a Path),
    /// The text given with `-e`.
    Expr(&'a str),
}

/// The tool host of `ptc eval` and the REPL: none, and a call says where
/// tools are.
#[derive(Clone, Copy, Debug)]
pub struct NoToolsHere;

impl ToolHost for NoToolsHere {
    fn call(&self, name: &str, _args: serde_json::Value) -> Result<serde_json::Value, ToolError> {
        let message = format!(
            "no tool named `{name}`: `ptc eval` and the REPL offer no tools; an agent calls its tools under `ptc run` \
             ([tool.NAME] tables, `ptc docs agents`)"
        );
        Err(ToolError::new(ToolErrorKind::UnknownTool, message))
    }
}

/// Reads the program and `name=path.json` data bindings, runs it, and
/// prints its println output then its result (`#'name` when the program
/// ends with a `def`, LISP-014). A failed program prints the error and
/// exits 1. `namespace_fallback` lets bare names reach `data/` (there are
/// no tools here).
pub fn eval(source: Source<'_>, data: &[String], format: ResultFormat, namespace_fallback: bool) -> CmdResult {
    let source = match source {
        Source::Expr(text) => text.to_string(),
        Source::Stdin => read_stdin()?,
        Source::File(p) if p == Path::new("-") => read_stdin()?,
        Source::File(p) => ptc_os::read_text(p, MAX_SOURCE_FILE_BYTES).map_err(|error| {
            let text = p.to_string_lossy();
            if error.kind() == std::io::ErrorKind::NotFound && text.trim_start().starts_with('(') {
                CmdError::Usage(format!(
                    "no file named `{text}`; to evaluate an expression, pass it with -e: ptc eval -e '{text}'"
                ))
            } else {
                CmdError::Io { path: p.to_path_buf(), action: "cannot read program", error }
            }
        })?,
    };
    let inputs = load_data(data)?;
    let options = RunOptions { namespace_fallback, ..RunOptions::default() };
    let outcome = run_program_with(&source, &Memory::new(), &inputs, &mut NoToolsHere, &Limits::default(), &options);
    let mut stdout: String = outcome.prints.iter().map(|p| format!("{p}\n")).collect();
    let (value, code) = match outcome.result {
        Ok(Exit::Value(v)) | Ok(Exit::Return(v)) => (v, 0),
        Ok(Exit::Fail(v)) => {
            stdout.push_str("fail: ");
            (v, 1)
        }
        Err(e) => return Ok(Output { stdout, warnings: vec![error_line(&e)], code: 1 }),
    };
    match (format, &outcome.ended_with_definition) {
        (ResultFormat::Edn, Some(name)) => stdout.push_str(&format!("#'{name}\n")),
        (ResultFormat::Edn, None) => stdout.push_str(&format!("{value}\n")),
        (ResultFormat::Json, _) => {
            let json =
                value_to_json(&value).map_err(|e| CmdError::Other(format!("the result has no JSON form: {e}")))?;
            stdout.push_str(&format!("{json}\n"));
        }
    }
    Ok(Output { stdout, warnings: Vec::new(), code })
}

/// A program's error as one line starting with `error`: `error: type
/// error at ...`, and an error without a kind as it reads, `error at ...`.
pub(crate) fn error_line(e: &LispError) -> String {
    let line = e.to_string();
    if line.starts_with("error at ") {
        line
    } else {
        format!("error: {line}")
    }
}

/// Reads `--data name=path.json` bindings into input data (`data/name`).
pub fn load_data(data: &[String]) -> Result<IndexMap<String, Value>, CmdError> {
    let mut inputs: IndexMap<String, Value> = IndexMap::new();
    for binding in data {
        let (name, path) = binding
            .split_once('=')
            .ok_or_else(|| CmdError::Usage(format!("--data {binding}: expected name=path.json")))?;
        let text = ptc_os::read_text(Path::new(path), MAX_INPUT_FILE_BYTES).map_err(|error| CmdError::Io {
            path: PathBuf::from(path),
            action: "cannot read --data file",
            error,
        })?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| CmdError::Usage(format!("--data {name}: {path} is not JSON: {e}")))?;
        inputs.insert(name.to_string(), json_to_value(&json));
    }
    Ok(inputs)
}

fn read_stdin() -> Result<String, CmdError> {
    ptc_os::read_text_from(std::io::stdin(), MAX_SOURCE_FILE_BYTES).map_err(|error| CmdError::Io {
        path: PathBuf::from("-"),
        action: "cannot read program from stdin",
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str, data: &[(&str, &str)], format: ResultFormat) -> Output {
        // One folder per call: tests run in parallel threads of one process.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ptc-eval-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("p.clj");
        std::fs::write(&program, src).unwrap();
        let mut bindings = Vec::new();
        for (name, json) in data {
            let path = dir.join(format!("{name}.json"));
            std::fs::write(&path, json).unwrap();
            bindings.push(format!("{name}={}", path.display()));
        }
        eval(Source::File(&program), &bindings, format, false).unwrap()
    }

    #[test]
    fn prints_then_result() {
        let out =
            run("(println \"n\" (count data/xs))\n{:sum (reduce + data/xs)}", &[("xs", "[1,2,3]")], ResultFormat::Edn);
        assert_eq!((out.stdout.as_str(), out.code), ("n 3\n{:sum 6}\n", 0));
        let out = run("{:a [1 2]}", &[], ResultFormat::Json);
        assert_eq!(out.stdout, "{\"a\":[1,2]}\n");
    }

    #[test]
    fn errors_exit_1_with_one_line() {
        let out = run("(println \"before\")\n(frist [1])", &[], ResultFormat::Edn);
        assert_eq!(out.code, 1);
        assert_eq!(out.stdout, "before\n");
        assert_eq!(out.warnings.len(), 1);
        assert!(out.warnings[0].starts_with("error: unbound_symbol error"), "{:?}", out.warnings);
        assert!(!out.warnings[0].contains('\n'));
    }

    #[test]
    fn a_missing_file_is_an_error_with_a_hint_for_expressions() {
        let err =
            eval(Source::File(Path::new("/nonexistent.clj")), &[], ResultFormat::Edn, false).unwrap_err().to_string();
        assert!(err.starts_with("/nonexistent.clj: cannot read program: "), "{err}");
        let err = eval(Source::File(Path::new("(+ 1 2)")), &[], ResultFormat::Edn, false).unwrap_err().to_string();
        assert_eq!(err, "no file named `(+ 1 2)`; to evaluate an expression, pass it with -e: ptc eval -e '(+ 1 2)'");
        let err = eval(Source::Expr("1"), &["xs".into()], ResultFormat::Edn, false).unwrap_err().to_string();
        assert_eq!(err, "--data xs: expected name=path.json");
    }

    #[test]
    fn an_expression_runs_like_a_file() {
        let out = eval(Source::Expr("(+ 1 2)"), &[], ResultFormat::Edn, false).unwrap();
        assert_eq!((out.stdout.as_str(), out.code), ("3\n", 0));
    }

    #[test]
    fn a_final_def_prints_the_var_as_clojure_and_the_session_do() {
        let out = eval(Source::Expr("(def x 5)"), &[], ResultFormat::Edn, false).unwrap();
        assert_eq!(out.stdout, "#'x\n");
        let out = eval(Source::Expr("(defn f [a] a) (def y 2) (f y)"), &[], ResultFormat::Edn, false).unwrap();
        assert_eq!(out.stdout, "2\n");
        let out = eval(Source::Expr("(def x 5)"), &[], ResultFormat::Json, false).unwrap();
        assert_eq!(out.stdout, "5\n");
    }

    #[test]
    fn namespace_fallback_reaches_data_by_its_bare_name() {
        let out = run("(count xs)", &[("xs", "[1,2]")], ResultFormat::Edn);
        assert_eq!(out.code, 1, "off by default: {out:?}");
        let dir = std::env::temp_dir().join(format!("ptc-eval-fallback-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("xs.json"), "[1,2]").unwrap();
        let binding = format!("xs={}", dir.join("xs.json").display());
        let out = eval(Source::Expr("(count xs)"), &[binding], ResultFormat::Edn, true).unwrap();
        assert_eq!((out.stdout.as_str(), out.code), ("2\n", 0));
    }
}
