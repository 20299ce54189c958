//! Looking at values and names from inside a program: `type`, `describe`,
//! and the REPL helpers `dir`, `apropos`, `doc`, `source`, `export-meta`
//! over the user namespace and the core library.
//!
//! `doc`, `source`, `dir` and `export-meta` take a name, not a value: the
//! analyzer turns a symbol argument (`(doc count)`, `(doc 'count)`) into
//! its name as a string, and a string works as well.

use super::{b, str_arg, type_err, vector, Builtin};
use crate::eval::{Interp, R};
use crate::value::{Map, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("type", 1, 1, type_of),
    b("describe", 1, 2, describe),
    b("dir", 0, 1, dir),
    b("apropos", 1, 1, apropos),
    b("doc", 1, 1, doc),
    b("source", 1, 1, source),
    b("export-meta", 1, 1, export_meta),
];

/// Names whose symbol argument the analyzer passes as a string.
pub(crate) const TAKES_A_NAME: [&str; 4] = ["doc", "source", "dir", "export-meta"];

fn kw(s: &str) -> Value {
    Value::keyword(s)
}

/// The type as a keyword (`:integer`, `:vector`, ...): PTC-Lisp has no classes.
fn type_of(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match &args[0] {
        Value::Nil => Value::Nil,
        Value::Fn(f) if f.regex_source().is_some() => kw("regex"),
        v => kw(v.type_name()),
    })
}

fn label(v: &Value) -> &'static str {
    v.type_name()
}

/// Counts of each type label, in first-seen order.
fn histogram<'v>(values: impl Iterator<Item = &'v Value>) -> Value {
    let mut m = Map::new();
    for v in values {
        let k = Value::str(label(v));
        let n = match m.get(&k) {
            Some(Value::Int(n)) => n + 1,
            _ => 1,
        };
        m.insert(k, Value::Int(n));
    }
    Value::Map(m)
}

/// Examples shown per key.
const EXAMPLES: usize = 3;
/// Elements of a collection looked at.
const SCAN: usize = 1000;

/// `(describe x)`: a bounded summary of a value's shape. A collection of
/// maps gets a key coverage table: per key how many maps have it, the share
/// in percent, the types seen and up to three distinct examples.
fn describe(_: &mut Interp, args: &mut [Value]) -> R {
    if let Some(opts) = args.get(1) {
        if !matches!(opts, Value::Map(_) | Value::Nil) {
            return Err(type_err("describe", "an options map", opts));
        }
    }
    let v = &args[0];
    let mut out = Map::new();
    out.insert(kw("type"), Value::str(label(v)));
    match v {
        Value::Vector(_) | Value::List(_) | Value::Set(_) => {
            let items = super::items(v, "describe")?;
            let scanned = &items[..items.len().min(SCAN)];
            out.insert(kw("count"), Value::Int(items.len() as i64));
            out.insert(kw("scanned"), Value::Int(scanned.len() as i64));
            out.insert(kw("item_types"), histogram(scanned.iter()));
            let maps: Vec<&Map> =
                scanned.iter().filter_map(|x| if let Value::Map(m) = x { Some(m) } else { None }).collect();
            if !maps.is_empty() {
                out.insert(kw("keys"), key_coverage(&maps));
            }
        }
        Value::Map(m) => {
            out.insert(kw("count"), Value::Int(m.len() as i64));
            out.insert(kw("keys"), key_coverage(&[m]));
        }
        Value::Str(s) => {
            out.insert(kw("length"), Value::Int(s.chars().count() as i64));
        }
        other => {
            out.insert(kw("value"), other.clone());
        }
    }
    Ok(Value::Map(out))
}

fn key_coverage(maps: &[&Map]) -> Value {
    let mut keys = Map::new();
    let mut order: Vec<Value> = Vec::new();
    let mut stats: Vec<(i64, Vec<&Value>)> = Vec::new();
    for m in maps {
        for (k, v) in m.iter() {
            let i = match order.iter().position(|o| o == k) {
                Some(i) => i,
                None => {
                    order.push(k.clone());
                    stats.push((0, Vec::new()));
                    order.len() - 1
                }
            };
            stats[i].0 += 1;
            stats[i].1.push(v);
        }
    }
    for (k, (present, values)) in order.into_iter().zip(stats) {
        let mut examples: Vec<Value> = Vec::new();
        for v in &values {
            if examples.len() < EXAMPLES
                && !examples.contains(v)
                && !matches!(v, Value::Map(_) | Value::Vector(_) | Value::List(_) | Value::Set(_) | Value::Fn(_))
            {
                examples.push((*v).clone());
            }
        }
        let mut s = Map::new();
        s.insert(kw("present"), Value::Int(present));
        s.insert(kw("pct"), Value::Float((present as f64 * 1000.0 / maps.len() as f64).round() / 10.0));
        s.insert(kw("types"), histogram(values.iter().copied()));
        s.insert(kw("examples"), vector(examples));
        keys.insert(k, Value::Map(s));
    }
    Value::Map(keys)
}

/// A name argument: `user/x` or `x`, split into namespace and name.
fn name_arg<'v>(who: &str, v: &'v Value) -> Result<(Option<&'v str>, &'v str), crate::eval::Ctl> {
    let s = match v {
        Value::Keyword(k) => k,
        other => str_arg(who, other)?,
    };
    Ok(match s.split_once('/') {
        Some((ns, name)) if !ns.is_empty() && !name.is_empty() => (Some(ns), name),
        _ => (None, s),
    })
}

/// `(dir)`: the namespaces with definitions (`["user"]` or `[]`);
/// `(dir user)`: the names defined there, in order.
fn dir(interp: &mut Interp, args: &mut [Value]) -> R {
    let Some(ns) = args.first() else {
        return Ok(vector(if interp.ns.is_empty() { vec![] } else { vec![Value::str("user")] }));
    };
    let (_, ns) = name_arg("dir", ns)?;
    Ok(vector(if ns == "user" { interp.ns.iter().map(|(n, _)| Value::str(n)).collect() } else { vec![] }))
}

/// Names of the core library and the user namespace containing `query`, sorted.
fn apropos(interp: &mut Interp, args: &mut [Value]) -> R {
    let q = str_arg("apropos", &args[0])?;
    let mut names: Vec<String> = super::names().filter(|n| n.contains(q)).map(str::to_string).collect();
    names.extend(interp.ns.iter().map(|(n, _)| n).filter(|n| n.contains(q)).map(|n| format!("user/{n}")));
    names.sort();
    names.dedup();
    Ok(vector(names.into_iter().map(Value::str).collect()))
}

/// What `doc` and `export-meta` know about a name.
enum Found<'i> {
    User(&'i str, &'i crate::memory::MemoryEntry),
    Core(&'static str),
}

fn find<'i>(interp: &'i Interp, who: &str, v: &Value) -> Result<Option<Found<'i>>, crate::eval::Ctl> {
    let (ns, name) = name_arg(who, v)?;
    if matches!(ns, None | Some("user")) {
        if let Some((n, e)) = interp.ns.iter().find(|(n, _)| *n == name) {
            return Ok(Some(Found::User(n, e)));
        }
    }
    if matches!(ns, None | Some("clojure.core" | "core" | "clojure.string" | "str" | "clojure.set" | "set")) {
        if let Some(b) = super::lookup(name) {
            return Ok(Some(Found::Core(b.name)));
        }
    }
    Ok(None)
}

fn signature(f: &crate::value::FnDesc) -> String {
    let mut params: Vec<&str> = f.params.iter().map(|p| &**p).collect();
    if let Some(rest) = &f.variadic {
        params.push("&");
        params.push(rest);
    }
    format!("[{}]", params.join(" "))
}

fn print(interp: &mut Interp, text: String) -> R {
    super::string::record(interp, text)
}

/// Prints what is known of a name and returns nil.
fn doc(interp: &mut Interp, args: &mut [Value]) -> R {
    let text = match find(interp, "doc", &args[0])? {
        Some(Found::User(name, e)) => {
            let head = match &e.value {
                Value::Fn(f) => format!("user/{name} {}", signature(&f.desc)),
                v => format!("user/{name} ({})", crate::print::type_label(v)),
            };
            format!("{head}\n  {}", e.docstring.as_deref().unwrap_or("no docstring"))
        }
        Some(Found::Core(name)) => match super::lookup(name) {
            Some(b) => format!("{name}: core function, {}", super::arity_text(b)),
            None => format!("{name}: core function"),
        },
        None => format!("no documentation found for {}", crate::print::to_display_string(&args[0])),
    };
    print(interp, text)
}

/// Prints how a user definition was made (its signature and docstring: the
/// body is compiled, its text is not kept) and returns nil.
fn source(interp: &mut Interp, args: &mut [Value]) -> R {
    let text = match find(interp, "source", &args[0])? {
        Some(Found::User(name, e)) => match &e.value {
            Value::Fn(f) => {
                let doc = e.docstring.as_deref().map(|d| format!(" {}", Value::str(d))).unwrap_or_default();
                format!("(defn {name}{doc} {} ...)", signature(&f.desc))
            }
            v => format!("(def {name} {})", crate::print::to_string_truncated(v, 200)),
        },
        Some(Found::Core(name)) => format!("{name} is built in: no source available"),
        None => format!("no source available for {}", crate::print::to_display_string(&args[0])),
    };
    print(interp, text)
}

/// A map describing a name, or nil when nothing has it.
fn export_meta(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut m = Map::new();
    match find(interp, "export-meta", &args[0])? {
        None => return Ok(Value::Nil),
        Some(Found::User(name, e)) => {
            m.insert(kw("ref"), Value::str(format!("user/{name}")));
            m.insert(kw("namespace"), Value::str("user"));
            m.insert(kw("symbol"), Value::str(name));
            match &e.value {
                Value::Fn(f) => {
                    m.insert(kw("kind"), kw("function"));
                    m.insert(kw("params"), vector(f.desc.params.iter().map(|p| Value::str(&**p)).collect()));
                    m.insert(kw("variadic"), f.desc.variadic.as_deref().map_or(Value::Nil, Value::str));
                }
                v => {
                    m.insert(kw("kind"), kw("value"));
                    m.insert(kw("type"), Value::str(crate::print::type_label(v)));
                }
            }
            m.insert(kw("doc"), e.docstring.as_deref().map_or(Value::Nil, Value::str));
        }
        Some(Found::Core(name)) => {
            m.insert(kw("ref"), Value::str(format!("clojure.core/{name}")));
            m.insert(kw("namespace"), Value::str("clojure.core"));
            m.insert(kw("symbol"), Value::str(name));
            m.insert(kw("kind"), kw("builtin"));
            if let Some(b) = super::lookup(name) {
                m.insert(kw("arity"), Value::str(super::arity_text(b)));
            }
        }
    }
    Ok(Value::Map(m))
}
