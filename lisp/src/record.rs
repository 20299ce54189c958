//! What a program run records and the tool host it calls: the types the
//! interpreter (`interp`), the namespace (`memory`) and the entry point
//! (`program`) share, so none of them depends on another for them.

use crate::value::Value;
use std::fmt;
use std::time::Duration;

/// Why a tool call failed, as a caller can match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolErrorKind {
    /// No tool has that name (`unknown_tool`).
    UnknownTool,
    /// The arguments do not fit the tool's signature; it was not called (`bad_arguments`).
    BadArguments,
    /// The tool answered, but its result does not fit its signature (`bad_result`).
    BadResult,
    /// A run limit refused the call, and the tool was not called, or
    /// refused its result (`limit`).
    Limit,
    /// The tool did not answer in time (`timeout`).
    Timeout,
    /// The tool itself reported an error: a command's exit status, an MCP
    /// error, a nested agent that failed (`failed`). Also the kind of a
    /// recorded error whose kind was not written.
    Failed,
}

impl ToolErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ToolErrorKind; 6] = [
        ToolErrorKind::UnknownTool,
        ToolErrorKind::BadArguments,
        ToolErrorKind::BadResult,
        ToolErrorKind::Limit,
        ToolErrorKind::Timeout,
        ToolErrorKind::Failed,
    ];

    /// The kind's name in session files (`unknown_tool`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ToolErrorKind::UnknownTool => "unknown_tool",
            ToolErrorKind::BadArguments => "bad_arguments",
            ToolErrorKind::BadResult => "bad_result",
            ToolErrorKind::Limit => "limit",
            ToolErrorKind::Timeout => "timeout",
            ToolErrorKind::Failed => "failed",
        }
    }

    /// The kind named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<ToolErrorKind> {
        ToolErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ToolErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed tool call: its kind and the message the program sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    /// Why it failed.
    pub kind: ToolErrorKind,
    /// One line a model can act on.
    pub message: String,
}

impl ToolError {
    /// An error of `kind`.
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> ToolError {
        ToolError { kind, message: message.into() }
    }

    /// The tool reported an error ([`ToolErrorKind::Failed`]).
    pub fn failed(message: impl Into<String>) -> ToolError {
        ToolError::new(ToolErrorKind::Failed, message)
    }
}

/// A bare message is the tool's own error ([`ToolErrorKind::Failed`]).
impl From<String> for ToolError {
    fn from(message: String) -> ToolError {
        ToolError::failed(message)
    }
}

/// A bare message is the tool's own error ([`ToolErrorKind::Failed`]).
impl From<&str> for ToolError {
    fn from(message: &str) -> ToolError {
        ToolError::failed(message)
    }
}

/// The message alone, as the program's `tool` error quotes it.
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

/// The host side of `(tool/name {...})` calls.
///
/// `pmap` and `pcalls` call tools from several threads at once (at most
/// [`Limits::max_parallel_tool_calls`](crate::Limits::max_parallel_tool_calls)), hence `&self` and `Sync`; a host
/// whose calls must not overlap says so with [`ToolHost::concurrent`].
pub trait ToolHost: Sync {
    /// Calls tool `name` with JSON arguments (an object with string keys);
    /// `Err` says why it failed, and its message becomes a `tool` error.
    fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, ToolError>;

    /// Whether calls may run at the same time. When `false`, `pmap` and
    /// `pcalls` run their calls one after another in input order (the
    /// results are the same; a replay of recorded calls needs this order).
    fn concurrent(&self) -> bool {
        true
    }
}

/// Any `Fn(name, args)` that can be shared between threads is a tool host;
/// its error is a [`ToolError`] or anything that becomes one (a `String`
/// is the tool's own message, [`ToolErrorKind::Failed`]).
impl<F, E> ToolHost for F
where
    F: Fn(&str, serde_json::Value) -> Result<serde_json::Value, E> + Sync,
    E: Into<ToolError>,
{
    fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, ToolError> {
        self(name, args).map_err(Into::into)
    }
}

/// A tool host with no tools: every call fails.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTools;

impl ToolHost for NoTools {
    fn call(&self, name: &str, _args: serde_json::Value) -> Result<serde_json::Value, ToolError> {
        Err(ToolError::new(ToolErrorKind::UnknownTool, format!("no tool named `{name}` is available")))
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
    /// What the tool returned (converted from JSON) or why it failed.
    pub result: Result<Value, ToolError>,
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
