//! `ptc eval`: run one PTC-Lisp program outside an agent, with input data
//! from JSON files and no tools.

use crate::cli::{CliResult, Output};
use indexmap::IndexMap;
use ptc_lisp::{json_to_value, run_program, value_to_json, Exit, Limits, Memory, NoTools, Value};
use std::io::Read;
use std::path::Path;

/// How `ptc eval` prints the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ResultFormat {
    /// Clojure syntax (`{:a 1}`).
    Edn,
    /// JSON (keywords become strings).
    Json,
}

/// Reads the program (`-` or no path: stdin) and `name=path.json` data
/// bindings, runs it, and prints its println output then its result.
/// A failed program prints the error and exits 1.
pub fn eval(program: Option<&Path>, data: &[String], format: ResultFormat) -> CliResult {
    let source = match program {
        None => read_stdin()?,
        Some(p) if p == Path::new("-") => read_stdin()?,
        Some(p) => std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read program: {e}", p.display()))?,
    };
    let mut inputs: IndexMap<String, Value> = IndexMap::new();
    for binding in data {
        let (name, path) =
            binding.split_once('=').ok_or_else(|| format!("--data {binding}: expected name=path.json"))?;
        let text = std::fs::read_to_string(path).map_err(|e| format!("--data {name}: cannot read {path}: {e}"))?;
        let json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("--data {name}: {path} is not JSON: {e}"))?;
        inputs.insert(name.to_string(), json_to_value(&json));
    }
    let outcome = run_program(&source, &Memory::new(), &inputs, &mut NoTools, &Limits::default());
    let mut stdout: String = outcome.prints.iter().map(|p| format!("{p}\n")).collect();
    let (value, code) = match outcome.result {
        Ok(Exit::Value(v)) | Ok(Exit::Return(v)) => (v, 0),
        Ok(Exit::Fail(v)) => {
            stdout.push_str("fail: ");
            (v, 1)
        }
        Err(e) => return Ok(Output { stdout, warnings: vec![format!("error: {e}")], code: 1 }),
    };
    match format {
        ResultFormat::Edn => stdout.push_str(&format!("{value}\n")),
        ResultFormat::Json => {
            let json = value_to_json(&value).map_err(|e| format!("result has no JSON form: {e}"))?;
            stdout.push_str(&format!("{json}\n"));
        }
    }
    Ok(Output { stdout, warnings: Vec::new(), code })
}

fn read_stdin() -> Result<String, String> {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).map_err(|e| format!("cannot read program from stdin: {e}"))?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str, data: &[(&str, &str)], format: ResultFormat) -> Output {
        let dir = std::env::temp_dir().join(format!("ptc-eval-{}-{}", std::process::id(), src.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("p.clj");
        std::fs::write(&program, src).unwrap();
        let mut bindings = Vec::new();
        for (name, json) in data {
            let path = dir.join(format!("{name}.json"));
            std::fs::write(&path, json).unwrap();
            bindings.push(format!("{name}={}", path.display()));
        }
        eval(Some(&program), &bindings, format).unwrap()
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
    fn bad_data_binding_is_an_error() {
        let err = eval(Some(Path::new("/nonexistent.clj")), &[], ResultFormat::Edn).unwrap_err();
        assert!(err.starts_with("/nonexistent.clj: cannot read program"), "{err}");
    }
}
