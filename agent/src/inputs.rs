//! Named inputs: `ptc run AGENT --arg name=value`, checked against the
//! inputs the agent's signature declares before any model call, read by
//! the program as `data/name` and written into the mission where it says
//! `{{name}}`.
//!
//! A value is EDN (`--arg limit=5`, `--arg tags='["a" "b"]'`), or
//! `@file.json` for a JSON file. For a `:string` input any text that is
//! not a quoted string is taken as it is (`--arg query=red kettle`), and a
//! `:keyword` input may leave out the colon (`--arg status=open`).

use crate::config::placeholders;
use crate::contract::Lisp;
use indexmap::IndexMap;
use ptc_lisp::{json_to_value, read_edn, Value};
use ptc_signature::{check, Primitive, Signature, Type};
use std::fmt;
use std::path::Path;

/// Bytes an input file may hold: a `data = { ... }` file of an agent, or
/// `--arg name=@file.json`. It is read whole into memory (and then into
/// the program's values), so a path to a multi-gigabyte log, or to a
/// device, must not be read to its end: `/dev/zero` as a data file held
/// `ptc run` at 9.4 GB after 30 s.
pub const MAX_INPUT_FILE_BYTES: u64 = 256 << 20;

/// The text of input file `path`, refused past [`MAX_INPUT_FILE_BYTES`]
/// (checked while reading, so a device or a pipe is refused too), the
/// error with its next step: what `ptc run` and `ptc validate` say of a
/// data file.
pub fn read_input_file(path: &Path) -> Result<String, String> {
    ptc_os::read_text(path, MAX_INPUT_FILE_BYTES).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => format!(
            "{e} (MAX_INPUT_FILE_BYTES), and an input is read whole into memory; \
             give the agent an extract, or a tool that reads the file"
        ),
        _ => e.to_string(),
    })
}

/// An input that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// `--arg` without `=`.
    Syntax(String),
    /// A name the signature does not declare.
    Unknown {
        /// The name given.
        name: String,
        /// The declared inputs (empty: none).
        declared: Vec<String>,
    },
    /// The same name twice.
    Twice(String),
    /// A declared input without `?` that was not given.
    Missing {
        /// The input.
        name: String,
        /// Its type.
        ty: String,
    },
    /// A value that does not read.
    Value {
        /// The input.
        name: String,
        /// Why.
        message: String,
    },
    /// A value of the wrong type.
    Type {
        /// The input.
        name: String,
        /// Where inside it and what.
        mismatch: String,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Syntax(arg) => write!(f, "--arg {arg}: expected NAME=VALUE (an EDN value, or @file.json)"),
            InputError::Unknown { name, declared } if declared.is_empty() => {
                write!(f, "--arg {name}: the agent declares no inputs (inputs are the named parameters of its signature, as in \"(query :string) -> :any\")")
            }
            InputError::Unknown { name, declared } => {
                write!(f, "--arg {name}: not an input of the agent (its inputs: {})", declared.join(", "))
            }
            InputError::Twice(name) => write!(f, "--arg {name}: given twice"),
            InputError::Missing { name, ty } => write!(f, "missing input `{name}` ({ty}): pass --arg {name}=VALUE"),
            InputError::Value { name, message } => write!(f, "--arg {name}: {message}"),
            InputError::Type { name, mismatch } => write!(f, "--arg {name}: {mismatch}"),
        }
    }
}

impl std::error::Error for InputError {}

/// Reads `NAME=VALUE` arguments against the inputs `signature` declares:
/// every declared input, in declaration order (an optional one not given is
/// nil), each checked against its type.
pub fn read_args(args: &[String], signature: Option<&Signature>) -> Result<IndexMap<String, Value>, InputError> {
    let params = signature.map_or(&[][..], |s| &s.params[..]);
    let declared: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let mut given: IndexMap<String, Value> = IndexMap::new();
    for arg in args {
        let (name, text) = arg.split_once('=').ok_or_else(|| InputError::Syntax(arg.clone()))?;
        let name = name.trim();
        let param = signature
            .and_then(|s| s.param(name))
            .ok_or_else(|| InputError::Unknown { name: name.to_string(), declared: declared.clone() })?;
        if given.contains_key(&param.name) {
            return Err(InputError::Twice(param.name.clone()));
        }
        let value =
            read_value(text, &param.ty).map_err(|message| InputError::Value { name: param.name.clone(), message })?;
        given.insert(param.name.clone(), value);
    }
    let mut inputs = IndexMap::new();
    for p in params {
        let value = match given.shift_remove(&p.name) {
            Some(v) => v,
            None if p.ty.is_optional() => Value::Nil,
            None => return Err(InputError::Missing { name: p.name.clone(), ty: p.ty.to_string() }),
        };
        check(Lisp(&value), &p.ty).map_err(|m| InputError::Type {
            name: p.name.clone(),
            mismatch: if m.path.is_empty() {
                m.what()
            } else {
                format!("at {}: {}", m.location_under(&p.name), m.what())
            },
        })?;
        inputs.insert(p.name.clone(), value);
    }
    Ok(inputs)
}

/// Inputs recorded in a session (EDN texts) as values again.
pub fn from_session(recorded: &IndexMap<String, String>) -> Result<IndexMap<String, Value>, InputError> {
    recorded
        .iter()
        .map(|(name, text)| {
            read_edn(text).map(|v| (name.clone(), v)).map_err(|e| InputError::Value {
                name: name.clone(),
                message: format!("recorded value does not read: {e}"),
            })
        })
        .collect()
}

fn read_value(text: &str, ty: &Type) -> Result<Value, String> {
    if let Some(path) = text.strip_prefix('@') {
        let json = read_input_file(Path::new(path)).map_err(|e| format!("cannot read {path}: {e}"))?;
        let json: serde_json::Value = serde_json::from_str(&json).map_err(|e| format!("{path} is not JSON: {e}"))?;
        return Ok(json_to_value(&json));
    }
    match ty.required() {
        Type::Primitive(Primitive::String) if !text.trim_start().starts_with('"') => {
            return Ok(Value::Str(text.into()))
        }
        Type::Primitive(Primitive::Keyword) if !text.starts_with(':') && !text.is_empty() => {
            return Ok(Value::Keyword(text.into()))
        }
        _ => {}
    }
    read_edn(text).map_err(|e| format!("`{text}` is not a value of type {ty} ({e}); {}", value_hint(ty)))
}

/// How to write a value of `ty` on the command line: strings need quotes
/// only where a string is not what the type expects.
fn value_hint(ty: &Type) -> String {
    let example = match ty.required() {
        Type::Primitive(Primitive::Int) => "42",
        Type::Primitive(Primitive::Float) => "2.5",
        Type::Primitive(Primitive::Bool) => "true",
        Type::Primitive(Primitive::Map) | Type::Map(_) => "'{:key 1}'",
        Type::List(_) => "'[1 2 3]'",
        _ => "'\"text\"' (strings need quotes here)",
    };
    format!("write it as EDN, e.g. --arg NAME={example}, or read it from a JSON file: --arg NAME=@file.json")
}

/// `mission` with each `{{name}}` replaced by its input: a string as its
/// text, nil as nothing, any other value as EDN.
pub fn template(mission: &str, inputs: &IndexMap<String, Value>) -> String {
    let mut out = mission.to_string();
    for name in placeholders(mission) {
        let Some(value) = inputs.get(name) else { continue };
        let text = match value {
            Value::Str(s) => s.to_string(),
            Value::Nil => String::new(),
            other => other.to_string(),
        };
        // Every spelling of the placeholder (`{{name}}`, `{{ name }}`).
        let mut rest = out.as_str();
        let mut replaced = String::with_capacity(out.len());
        while let Some(start) = rest.find("{{") {
            let after = &rest[start + 2..];
            match after.find("}}") {
                Some(end) if after[..end].trim() == name => {
                    replaced.push_str(&rest[..start]);
                    replaced.push_str(&text);
                    rest = &after[end + 2..];
                }
                _ => {
                    replaced.push_str(&rest[..start + 2]);
                    rest = after;
                }
            }
        }
        replaced.push_str(rest);
        out = replaced;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device is read only as far as the bound (checked while reading,
    /// where a size from the file's metadata would say 0).
    #[cfg(unix)]
    #[test]
    fn an_input_file_past_the_bound_is_refused_as_it_is_read() {
        let e = read_input_file(Path::new("/dev/zero")).unwrap_err();
        assert!(e.starts_with("more than 256 MiB (MAX_INPUT_FILE_BYTES)"), "{e}");
        let e = read_args(&["rows=@/dev/zero".to_string()], Some(&sig("(rows :any) -> :any"))).unwrap_err().to_string();
        assert!(e.contains("cannot read /dev/zero: more than 256 MiB"), "{e}");
    }

    #[test]
    fn a_word_for_an_int_input_is_not_told_to_quote_strings() {
        let err = read_args(&["min_amount=lots".to_string()], Some(&sig("(min_amount :int) -> :int"))).unwrap_err();
        let err = err.to_string();
        assert!(err.contains("--arg min_amount: `lots` is not a value of type :int"), "{err}");
        assert!(err.contains("--arg NAME=42") && !err.contains("quotes"), "{err}");
    }

    fn sig(text: &str) -> Signature {
        Signature::parse(text).unwrap()
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn inputs_read_as_edn_json_or_plain_text() {
        let s = sig("(query :string, limit :int, tags [:string]?, status :keyword?, since :datetime?) -> :any");
        let dir = std::env::temp_dir().join(format!("ptc-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("tags.json");
        std::fs::write(&file, r#"["a", "b"]"#).unwrap();
        let got = read_args(
            &args(&["query=red kettle", "limit=5", &format!("tags=@{}", file.display()), "status=open"]),
            Some(&s),
        )
        .unwrap();
        let printed: Vec<String> = got.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(printed, ["query=\"red kettle\"", "limit=5", "tags=[\"a\" \"b\"]", "status=:open", "since=nil"]);
        // A quoted string reads as EDN.
        let got = read_args(&args(&["query=\"a \\\"b\\\"\"", "limit=1"]), Some(&s)).unwrap();
        assert_eq!(got["query"], Value::Str("a \"b\"".into()));
        // Spellings of a declared name.
        let s2 = sig("(max_days :int) -> :any");
        assert_eq!(read_args(&args(&["max-days=3"]), Some(&s2)).unwrap()["max_days"], Value::Int(3));
    }

    #[test]
    fn bad_inputs_are_named() {
        let s = sig("(query :string, limit :int) -> :any");
        let err = |list: &[&str]| read_args(&args(list), Some(&s)).unwrap_err().to_string();
        assert_eq!(err(&["query=x"]), "missing input `limit` (:int): pass --arg limit=VALUE");
        assert_eq!(err(&["query=x", "limit=\"5\""]), "--arg limit: expected :int, got string \"5\"");
        assert_eq!(
            err(&["query=x", "limit=[1"]).split(" (").next().unwrap(),
            "--arg limit: `[1` is not a value of type :int"
        );
        assert_eq!(
            err(&["query=x", "limit=1", "lmit=2"]),
            "--arg lmit: not an input of the agent (its inputs: query, limit)"
        );
        assert_eq!(err(&["query=x", "limit=1", "limit=2"]), "--arg limit: given twice");
        assert_eq!(err(&["query"]), "--arg query: expected NAME=VALUE (an EDN value, or @file.json)");
        assert!(err(&["query=x", "limit=@/no/such.json"]).starts_with("--arg limit: cannot read /no/such.json"));
        let none = read_args(&args(&["x=1"]), None).unwrap_err().to_string();
        assert!(none.starts_with("--arg x: the agent declares no inputs"), "{none}");
        let nested = sig("(user {id :int, tags [:string]}) -> :any");
        assert_eq!(
            read_args(&args(&["user={:id 1 :tags [\"a\" 2]}"]), Some(&nested)).unwrap_err().to_string(),
            "--arg user: at user.tags[1]: expected :string, got int 2"
        );
    }

    #[test]
    fn the_mission_gets_the_values() {
        let mut inputs = IndexMap::new();
        inputs.insert("query".to_string(), Value::Str("red kettle".into()));
        inputs.insert("limit".to_string(), Value::Int(5));
        inputs.insert("since".to_string(), Value::Nil);
        assert_eq!(
            template("Find {{query}} (top {{ limit }}, {{limit}}){{since}}; keep {{other}} and {{", &inputs),
            "Find red kettle (top 5, 5); keep {{other}} and {{"
        );
    }
}
