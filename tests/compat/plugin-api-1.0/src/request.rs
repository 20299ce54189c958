//! What a strategy is asked to render: the mission, the tools, the input data
//! and the append-only turn history.

use crate::value::Value;
use abi_stable::{
    std_types::{ROption, RString, RVec},
    StableAbi,
};

fn opt_str(o: &ROption<RString>) -> Option<&str> {
    o.as_ref().map(|s| s.as_str()).into_option()
}

fn ropt(o: Option<String>) -> ROption<RString> {
    o.map(RString::from).into()
}

/// A tool the agent may call, as configured.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct ToolSpec {
    name: RString,
    signature: ROption<RString>,
    description: ROption<RString>,
}

impl ToolSpec {
    /// A tool with an optional signature (`(q :string) -> [:string]`) and description.
    pub fn new(name: impl Into<String>, signature: Option<String>, description: Option<String>) -> Self {
        ToolSpec { name: name.into().into(), signature: ropt(signature), description: ropt(description) }
    }
    /// Tool name, called as `tool/{name}`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Signature text as configured, unparsed.
    pub fn signature(&self) -> Option<&str> {
        opt_str(&self.signature)
    }
    /// One-line description.
    pub fn description(&self) -> Option<&str> {
        opt_str(&self.description)
    }
}

/// One input data entry, read by programs as `data/{name}`.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct DataEntry {
    name: RString,
    value: Value,
}

impl DataEntry {
    /// Data entry `name` holding `value`.
    pub fn new(name: impl Into<String>, value: Value) -> Self {
        DataEntry { name: name.into().into(), value }
    }
    /// Name under `data/`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The value.
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// One tool call a program made.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct ToolCall {
    name: RString,
    args: Value,
    result: ROption<Value>,
    error: ROption<RString>,
    duration_ms: u64,
}

impl ToolCall {
    /// A call of `name` with `args` (a map), its result or error, and how long it took.
    pub fn new(name: impl Into<String>, args: Value, outcome: Result<Value, String>, duration_ms: u64) -> Self {
        let (result, error) = match outcome {
            Ok(v) => (ROption::RSome(v), ROption::RNone),
            Err(e) => (ROption::RNone, ROption::RSome(e.into())),
        };
        ToolCall { name: name.into().into(), args, result, error, duration_ms }
    }
    /// Tool name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Arguments (a map value; an empty map for a call without arguments).
    pub fn args(&self) -> &Value {
        &self.args
    }
    /// The result, when the call succeeded.
    pub fn result(&self) -> Option<&Value> {
        self.result.as_ref().into_option()
    }
    /// The tool's error message, when the call failed.
    pub fn error(&self) -> Option<&str> {
        opt_str(&self.error)
    }
    /// Wall time of the call in milliseconds.
    pub fn duration_ms(&self) -> u64 {
        self.duration_ms
    }
}

/// One `def`/`defn` a turn made.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Definition {
    name: RString,
    value: Value,
    docstring: ROption<RString>,
}

impl Definition {
    /// A definition of `name`; a function is a [`Value::function`].
    pub fn new(name: impl Into<String>, value: Value, docstring: Option<String>) -> Self {
        Definition { name: name.into().into(), value, docstring: ropt(docstring) }
    }
    /// The defined name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The value (for `defn`, a function description).
    pub fn value(&self) -> &Value {
        &self.value
    }
    /// Docstring given to `def`/`defn`, verbatim.
    pub fn docstring(&self) -> Option<&str> {
        opt_str(&self.docstring)
    }
    /// Whether this defines a function.
    pub fn is_function(&self) -> bool {
        self.value.as_function().is_some()
    }
}

/// Why a turn failed.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct TurnError {
    kind: RString,
    message: RString,
}

impl TurnError {
    /// An error of `kind` (`parse`, `unbound_symbol`, `timeout`, ...) with its message.
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> Self {
        TurnError { kind: kind.into().into(), message: message.into().into() }
    }
    /// Machine-readable kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }
    /// The message shown to the model.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// One completed turn: what the model wrote and what running it did.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Turn {
    number: u32,
    raw_response: RString,
    program: ROption<RString>,
    result: ROption<Value>,
    error: ROption<TurnError>,
    prints: RVec<RString>,
    tool_calls: RVec<ToolCall>,
    definitions: RVec<Definition>,
}

impl Turn {
    /// Turn `number` (1-based) whose response was `raw_response`; `program` is
    /// the code extracted from it, if any. The turn starts successful with a
    /// `nil` result; see [`Turn::with_result`] and [`Turn::with_error`].
    pub fn new(number: u32, raw_response: impl Into<String>, program: Option<String>) -> Self {
        Turn {
            number,
            raw_response: raw_response.into().into(),
            program: ropt(program),
            result: ROption::RSome(Value::nil()),
            error: ROption::RNone,
            prints: RVec::new(),
            tool_calls: RVec::new(),
            definitions: RVec::new(),
        }
    }
    /// Marks the turn successful with `result`.
    pub fn with_result(mut self, result: Value) -> Self {
        self.result = ROption::RSome(result);
        self.error = ROption::RNone;
        self
    }
    /// Marks the turn failed with `error`.
    pub fn with_error(mut self, error: TurnError) -> Self {
        self.result = ROption::RNone;
        self.error = ROption::RSome(error);
        self
    }
    /// Sets the println calls, one entry per call.
    pub fn with_prints(mut self, prints: Vec<String>) -> Self {
        self.prints = prints.into_iter().map(RString::from).collect();
        self
    }
    /// Sets the tool calls, in order.
    pub fn with_tool_calls(mut self, calls: Vec<ToolCall>) -> Self {
        self.tool_calls = calls.into();
        self
    }
    /// Sets the definitions, in order of execution.
    pub fn with_definitions(mut self, defs: Vec<Definition>) -> Self {
        self.definitions = defs.into();
        self
    }

    /// 1-based turn number.
    pub fn number(&self) -> u32 {
        self.number
    }
    /// The model's answer, verbatim.
    pub fn raw_response(&self) -> &str {
        &self.raw_response
    }
    /// The program extracted from the answer (`None` when there was no code).
    pub fn program(&self) -> Option<&str> {
        opt_str(&self.program)
    }
    /// Whether the program ran to completion.
    pub fn success(&self) -> bool {
        self.error.is_none()
    }
    /// Result of a successful turn.
    pub fn result(&self) -> Option<&Value> {
        self.result.as_ref().into_option()
    }
    /// Error of a failed turn.
    pub fn error(&self) -> Option<&TurnError> {
        self.error.as_ref().into_option()
    }
    /// Each println call, in order.
    pub fn prints(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator + Clone + '_ {
        self.prints.iter().map(|s| s.as_str())
    }
    /// Each tool call, in order.
    pub fn tool_calls(&self) -> &[ToolCall] {
        &self.tool_calls
    }
    /// Each definition, in order of execution (a name may repeat).
    pub fn definitions(&self) -> &[Definition] {
        &self.definitions
    }
}

/// Everything a strategy needs to render the next prompt.
///
/// The turn being rendered is `turns().len() + 1`.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct RenderRequest {
    mission: RString,
    system_prompt: RString,
    tools: RVec<ToolSpec>,
    data: RVec<DataEntry>,
    turns: RVec<Turn>,
    max_turns: u32,
    extensions: RString,
}

impl RenderRequest {
    /// A request with no tools, data or turns yet.
    pub fn new(mission: impl Into<String>, system_prompt: impl Into<String>, max_turns: u32) -> Self {
        RenderRequest {
            mission: mission.into().into(),
            system_prompt: system_prompt.into().into(),
            tools: RVec::new(),
            data: RVec::new(),
            turns: RVec::new(),
            max_turns,
            extensions: RString::from("{}"),
        }
    }
    /// Sets the tools.
    pub fn with_tools(mut self, tools: Vec<ToolSpec>) -> Self {
        self.tools = tools.into();
        self
    }
    /// Sets the input data.
    pub fn with_data(mut self, data: Vec<DataEntry>) -> Self {
        self.data = data.into();
        self
    }
    /// Sets the host extensions (a JSON object) for fields newer than this interface.
    pub fn with_extensions(mut self, json: impl Into<String>) -> Self {
        self.extensions = json.into().into();
        self
    }
    /// Appends a completed turn (history is append-only).
    pub fn push_turn(&mut self, turn: Turn) {
        self.turns.push(turn);
    }
    /// Appends completed turns, oldest first.
    pub fn with_turns(mut self, turns: impl IntoIterator<Item = Turn>) -> Self {
        self.turns.extend(turns);
        self
    }
    /// Drops every turn from index `n` on, so the request renders turn `n + 1`.
    pub fn truncate_turns(&mut self, n: usize) {
        self.turns.truncate(n);
    }

    /// The mission, verbatim.
    pub fn mission(&self) -> &str {
        &self.mission
    }
    /// The static system prompt.
    pub fn system_prompt(&self) -> &str {
        &self.system_prompt
    }
    /// Tools, in configured order.
    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }
    /// Input data, in configured order.
    pub fn data(&self) -> &[DataEntry] {
        &self.data
    }
    /// Completed turns, oldest first.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }
    /// The 1-based number of the turn being rendered.
    pub fn turn(&self) -> u32 {
        self.turns.len() as u32 + 1
    }
    /// The turn limit of the run.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }
    /// Host extensions, a JSON object (`{}` when none).
    pub fn extensions(&self) -> &str {
        &self.extensions
    }
    /// The latest completed turn.
    pub fn last_turn(&self) -> Option<&Turn> {
        self.turns.last()
    }
}
