//! Running a whole program: the entry point the host calls and what a turn records.

use crate::analyze::Analyzer;
use crate::error::{ErrorKind, LispError};
use crate::eval::{fail, Ctl, Interp, R};
use crate::form::{Form, FormKind};
use crate::json::{json_to_value, value_to_json};
use crate::limits::Limits;
use crate::memory::Memory;
use crate::print::{printed_len_within, type_label};
use crate::reader::read_program;
use crate::value::Value;
use indexmap::IndexMap;
use std::time::Instant;

pub use crate::record::{Definition, Exit, NoTools, RunOptions, ToolCallRecord, ToolError, ToolErrorKind, ToolHost};

/// Everything a turn records about one program run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Each `println` call, in order, cut at the limit with `...`.
    pub prints: Vec<String>,
    /// Each tool call, in order.
    pub tool_calls: Vec<ToolCallRecord>,
    /// Each definition made, in order (a redefinition appears twice). When
    /// the program succeeded, their values print within `max_memory_bytes`
    /// together.
    pub definitions: Vec<Definition>,
    /// How the program ended, or why it failed. A value, returned value or
    /// `fail` reason here prints within `max_string_bytes`.
    pub result: Result<Exit, LispError>,
    /// The namespace after the turn; on error, the namespace from before it.
    pub memory: Memory,
    /// The name defined by the last top-level form, when that form is a
    /// `def`/`defn`/`defn-` and the program ended normally: the program's
    /// value is then that var, which Clojure prints as `#'user/name`.
    pub ended_with_definition: Option<String>,
}

/// Reads and runs `source` against `memory`, the input `data` and `tools`,
/// within `limits`. Never panics on any input; every failure is in
/// [`Outcome::result`].
///
/// The evaluator recurses on the native stack and reports `depth_limit`
/// before using 1 MiB of it, so call this on a thread with at least 2 MiB
/// of stack (Rust's default for spawned threads; the main thread has 8 MiB).
/// `tools` is borrowed for the run; `pmap` and `pcalls` share it between
/// the threads they start.
pub fn run_program(
    source: &str,
    memory: &Memory,
    data: &IndexMap<String, Value>,
    tools: &mut dyn ToolHost,
    limits: &Limits,
) -> Outcome {
    run_program_with(source, memory, data, tools, limits, &RunOptions::default())
}

/// [`run_program`] with [`RunOptions`] (the opt-in namespace fallback).
///
/// ```
/// use ptc_lisp::{run_program_with, Exit, Limits, Memory, NoTools, RunOptions, Value};
///
/// let data = indexmap::IndexMap::from([("xs".to_string(), Value::vector(vec![Value::Int(1)]))]);
/// let options = RunOptions { namespace_fallback: true, ..Default::default() };
/// let out = run_program_with("(count xs)", &Memory::new(), &data, &mut NoTools, &Limits::default(), &options);
/// assert_eq!(out.result, Ok(Exit::Value(Value::Int(1))));
/// ```
pub fn run_program_with(
    source: &str,
    memory: &Memory,
    data: &IndexMap<String, Value>,
    tools: &mut dyn ToolHost,
    limits: &Limits,
    options: &RunOptions,
) -> Outcome {
    let forms = match read_program(source) {
        Ok(forms) => forms,
        Err(e) => {
            return Outcome {
                prints: Vec::new(),
                tool_calls: Vec::new(),
                definitions: Vec::new(),
                result: Err(e.into()),
                memory: memory.clone(),
                ended_with_definition: None,
            }
        }
    };
    let budget = crate::interp::Budget::new(limits);
    let mut interp = Interp::new(limits, memory.clone(), data, &*tools, &budget);
    interp.options = options;
    let mut result = Ok(Exit::Value(Value::Nil));
    let defined = defined_names(&forms);
    for form in &forms {
        let r = Analyzer::top_level(form).map_err(Ctl::from).and_then(|top| {
            // A name nothing defines is an error before the form runs (a
            // `defn` may use one a later form defines): no tool is called
            // by a form that cannot finish.
            for (name, span) in &top.globals {
                if !defined.contains(&**name) && interp.ns.get(name).is_none() {
                    // Input data or a tool under the namespace fallback, or the error.
                    interp.global(name).map_err(|c| c.at(*span))?;
                }
            }
            interp.run_top(&top.node, top.slots)
        });
        result = match r {
            Ok(v) => Ok(Exit::Value(v)),
            Err(Ctl::Return(v)) => Ok(Exit::Return(v)),
            Err(Ctl::Fail(v)) => Ok(Exit::Fail(v)),
            Err(Ctl::Error(e)) => Err(*e),
            Err(Ctl::Recur) => Err(LispError::new(ErrorKind::Other, "recur outside of loop or fn")),
            Err(Ctl::Reduced(_)) => Err(LispError::new(
                ErrorKind::Other,
                "reduced outside a reduce: (reduced x) ends the reduce, reduce-kv, reductions or transduce whose reducing function returns it",
            )),
        };
        if !matches!(result, Ok(Exit::Value(_))) {
            break;
        }
    }
    for &(addr, idx) in &interp.defn_fns {
        if let Some((_, v)) = interp.last_returns.iter().find(|(a, _)| *a == addr) {
            interp.definitions[idx].return_type = Some(type_label(v));
        }
    }
    let new_memory = interp.ns;
    let ended_with_definition = match (&result, forms.last()) {
        (Ok(Exit::Value(_)), Some(last)) => defined_name(last).map(str::to_string),
        _ => None,
    };
    if let Err(e) = prints_within_limits(&result, ended_with_definition.is_some(), &interp.definitions, limits) {
        result = Err(e);
    }
    if result.is_ok() && !interp.definitions.is_empty() {
        let used = new_memory.estimated_bytes();
        if used > limits.max_memory_bytes {
            result = Err(LispError::new(
                ErrorKind::MemoryLimit,
                format!(
                    "definitions would keep about {used} bytes, over the limit of {}; keep summaries, not raw data",
                    limits.max_memory_bytes
                ),
            ));
        }
    }
    Outcome {
        memory: if result.is_ok() { new_memory } else { memory.clone() },
        prints: interp.prints,
        tool_calls: interp.tool_calls,
        definitions: interp.definitions,
        ended_with_definition: ended_with_definition.filter(|_| result.is_ok()),
        result,
    }
}

/// Checks that what a turn records as text fits its limits: the program's
/// value (unless it is a var: the program ended with a definition),
/// returned value or `fail` reason in `max_string_bytes`, the values
/// it defined (kept between turns, so written to the session) in
/// `max_memory_bytes` together. A value is built sharing structure (`[x x]`
/// holds `x` once), but its text holds every share in full: 40 rounds of
/// `(conj a a)` build 41 vectors whose text has a trillion of them,
/// which the namespace's in-memory estimate cannot see.
fn prints_within_limits(
    result: &Result<Exit, LispError>,
    ended_with_definition: bool,
    definitions: &[Definition],
    limits: &Limits,
) -> Result<(), LispError> {
    let value = match result {
        Ok(Exit::Value(_)) if ended_with_definition => None,
        Ok(Exit::Value(v) | Exit::Return(v) | Exit::Fail(v)) => Some(v),
        Err(_) => return Ok(()),
    };
    if value.is_some_and(|v| printed_len_within(v, limits.max_string_bytes).is_none()) {
        let what = match result {
            Ok(Exit::Fail(_)) => "the fail reason",
            _ => "the program's value",
        };
        return Err(LispError::new(
            ErrorKind::SizeLimit,
            format!(
                "{what} prints to more than {} bytes (each value it holds more than once prints in full each time); end with a summary of it: a count, (take 5 ...), the keys",
                limits.max_string_bytes
            ),
        ));
    }
    let mut left = limits.max_memory_bytes;
    for d in definitions.iter().filter(|d| !matches!(d.value, Value::Fn(_))) {
        let Some(len) = printed_len_within(&d.value, left) else {
            return Err(LispError::new(
                ErrorKind::MemoryLimit,
                format!(
                    "the values this program defines print to more than {} bytes, `{}` among them (each value it holds more than once prints in full each time), and every definition is kept as text between turns; keep summaries, not raw data",
                    limits.max_memory_bytes, d.name
                ),
            ));
        };
        left -= len;
    }
    Ok(())
}

/// Every name a `def`, `defn`, `defn-` or `defonce` of the program
/// defines, at any depth.
fn defined_names<'a>(forms: &[Form<'a>]) -> std::collections::HashSet<&'a str> {
    let mut out = std::collections::HashSet::new();
    let mut stack: Vec<&Form<'a>> = forms.iter().collect();
    while let Some(form) = stack.pop() {
        match &form.kind {
            FormKind::List(items) => {
                out.extend(defined_name(form));
                stack.extend(items);
            }
            FormKind::Vector(items) | FormKind::Map(items) | FormKind::Set(items) => stack.extend(items),
            FormKind::Tagged(_, inner) => stack.push(inner),
            _ => {}
        }
    }
    out
}

/// The name a top-level `(def name ...)`, `(defn name ...)` or `(defn- name ...)` defines.
fn defined_name<'a>(form: &Form<'a>) -> Option<&'a str> {
    let FormKind::List(items) = &form.kind else { return None };
    match items.first().and_then(Form::as_symbol) {
        Some("def" | "defn" | "defn-" | "defonce") => items.get(1).and_then(Form::as_symbol),
        _ => None,
    }
}

impl Interp<'_> {
    /// `(tool/name {...})` or `(tool/name :k v ...)`.
    pub(crate) fn call_tool(&mut self, name: &str, args: Vec<Value>) -> R {
        let map = match &args[..] {
            [] | [Value::Nil] => Value::Map(crate::value::Map::new()),
            [m @ Value::Map(_)] => m.clone(),
            [other] => {
                return Err(fail(
                    ErrorKind::Type,
                    format!("tool/{name} expects a map of arguments, got {}", crate::eval::preview(other)),
                ))
            }
            pairs if pairs.len() % 2 == 0 => Value::map(pairs.chunks(2).map(|p| (p[0].clone(), p[1].clone()))),
            _ => {
                return Err(fail(
                    ErrorKind::Arity,
                    format!("tool/{name} expects a map or key/value pairs, got {} arguments", args.len()),
                ))
            }
        };
        let json = value_to_json(&map).map_err(|m| fail(ErrorKind::Type, format!("tool/{name}: {m}")))?;
        let start = Instant::now();
        let r = self.tools.call(name, json);
        let duration = start.elapsed();
        let result = r.as_ref().map(json_to_value).map_err(Clone::clone);
        self.tool_calls.push(ToolCallRecord { name: name.to_string(), args: map, result: result.clone(), duration });
        self.check_clock()?;
        result.map_err(|m| fail(ErrorKind::Tool, format!("tool/{name} failed: {m}")))
    }
}
