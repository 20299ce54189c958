//! What a program run records and the tool host it calls: the types the
//! interpreter (`interp`), the namespace (`memory`) and the entry point
//! (`program`) share, so none of them depends on another for them.

use crate::value::Value;
use std::time::Duration;

/// The host side of `(tool/name {...})` calls.
///
/// `pmap` and `pcalls` call tools from several threads at once (at most
/// [`Limits::max_parallel_tool_calls`](crate::Limits::max_parallel_tool_calls)), hence `&self` and `Sync`; a host
/// whose calls must not overlap says so with [`ToolHost::concurrent`].
pub trait ToolHost: Sync {
    /// Calls tool `name` with JSON arguments (an object with string keys);
    /// `Err` carries the tool's message, which becomes a `tool` error.
    fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, String>;

    /// Whether calls may run at the same time. When `false`, `pmap` and
    /// `pcalls` run their calls one after another in input order (the
    /// results are the same; a replay of recorded calls needs this order).
    fn concurrent(&self) -> bool {
        true
    }
}

/// Any `Fn(name, args)` that can be shared between threads is a tool host.
impl<F> ToolHost for F
where
    F: Fn(&str, serde_json::Value) -> Result<serde_json::Value, String> + Sync,
{
    fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, String> {
        self(name, args)
    }
}

/// A tool host with no tools: every call fails.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTools;

impl ToolHost for NoTools {
    fn call(&self, name: &str, _args: serde_json::Value) -> Result<serde_json::Value, String> {
        Err(format!("no tool named `{name}` is available"))
    }
}

/// How a program ended when it did not fail.
#[derive(Clone, Debug, PartialEq)]
pub enum Exit {
    /// It ran to the end; the value of its last form.
    Value(Value),
    /// `(return v)`: the mission is done with `v`.
    Return(Value),
    /// `(fail v)`: the mission failed with `v`.
    Fail(Value),
}

/// One tool call as it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCallRecord {
    /// Tool name (without `tool/`).
    pub name: String,
    /// The arguments map as the program built it.
    pub args: Value,
    /// What the tool returned (converted from JSON) or its error message.
    pub result: Result<Value, String>,
    /// Wall-clock time the tool took.
    pub duration: Duration,
}

/// A `def` or `defn` made by the program, in execution order.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// The name defined.
    pub name: String,
    /// The value (a [`Value::Fn`] for `defn`).
    pub value: Value,
    /// The docstring, if one was given.
    pub docstring: Option<String>,
    /// For `defn`: the [`type_label`](crate::type_label) of the value returned by the last call
    /// of this function in the same program (`"integer"`, `"list[3]"`, ...).
    pub return_type: Option<String>,
}

/// How a run resolves names beyond the core library; the default changes nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// NS-004..NS-009 (opt-in): a bare name with no definition resolves to
    /// `tool/NAME` when a tool has that name, or to `data/NAME`; a name
    /// that is both is an error. Definitions, locals and core functions win.
    pub namespace_fallback: bool,
    /// The names of the tools the host offers (what the fallback may call).
    pub tool_names: Vec<String>,
}
