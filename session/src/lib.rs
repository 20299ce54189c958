//! Session files (`ptc-session/1`, see `spec/session-format.md`): reading
//! them with the JSON path of any problem, and turning them into render
//! requests. Lisp values inside are EDN text.
//!
//! ```
//! let json = r#"{"format": "ptc-session/1", "mission": "Count orders", "turns": []}"#;
//! let session = ptc_session::Session::parse(json).unwrap();
//! let request = session.request_for_turn(None).unwrap();
//! assert_eq!(request.turn(), 1);
//! ```

pub mod convert;

use crate::convert::{fn_desc, to_abi};
use indexmap::IndexMap;
use ptc_plugin_api::{DataEntry, Definition, RenderRequest, ToolCall, ToolSpec, Turn, TurnError, Value};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The format tag this version reads and writes.
pub const FORMAT: &str = "ptc-session/1";

/// `max_turns` when a session does not say (SS-002).
pub const DEFAULT_MAX_TURNS: u32 = 5;

fn default_max_turns() -> u32 {
    DEFAULT_MAX_TURNS
}

/// A session: the agent's setup and every turn, in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Always [`FORMAT`].
    pub format: String,
    /// Agent name, if it came from a config.
    #[serde(default)]
    pub agent: Option<String>,
    /// The mission.
    pub mission: String,
    /// The static system prompt.
    #[serde(default)]
    pub system_prompt: String,
    /// Turn limit.
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    /// Tools offered.
    #[serde(default)]
    pub tools: Vec<ToolRecord>,
    /// Input data: name to EDN text.
    #[serde(default)]
    pub data: IndexMap<String, String>,
    /// Turns, oldest first.
    #[serde(default)]
    pub turns: Vec<TurnRecord>,
    /// EDN of the returned value, once the run returned.
    #[serde(default)]
    pub result: Option<String>,
    /// LLM usage figures, as reported.
    #[serde(default)]
    pub usage: serde_json::Value,
    /// How the run ended: `returned`, `failed` (`(fail v)`), `out_of_turns`
    /// or `error`; absent while running or when not written by `ptc run`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// A tool as the session records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolRecord {
    /// Name.
    pub name: String,
    /// Signature text, unparsed.
    #[serde(default)]
    pub signature: Option<String>,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
}

/// A turn's error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorRecord {
    /// Kind (`parse`, `unbound_symbol`, ...).
    pub kind: String,
    /// Message.
    pub message: String,
}

/// A tool call as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// Tool name.
    pub name: String,
    /// EDN of the argument map.
    pub args: String,
    /// EDN of the result, when it succeeded.
    #[serde(default)]
    pub result: Option<String>,
    /// Error message, when it failed.
    #[serde(default)]
    pub error: Option<String>,
    /// Wall time.
    #[serde(default)]
    pub duration_ms: u64,
}

/// A definition as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DefinitionRecord {
    /// Name.
    pub name: String,
    /// `value` or `function`.
    pub kind: DefinitionKind,
    /// EDN of the value (values only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Parameter names (functions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Vec<String>>,
    /// `& rest` parameter name (functions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variadic: Option<String>,
    /// Docstring.
    #[serde(default)]
    pub docstring: Option<String>,
    /// Type label of the last value the function returned (functions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_type: Option<String>,
}

/// What a definition defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DefinitionKind {
    /// `def`
    Value,
    /// `defn`
    Function,
}

/// One turn, in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// 1-based number.
    pub number: u32,
    /// The model's answer, verbatim.
    pub raw_response: String,
    /// The extracted program, `null` when none was found.
    #[serde(default)]
    pub program: Option<String>,
    /// Whether the program completed.
    pub success: bool,
    /// EDN of the result (`#'name` for a def).
    #[serde(default)]
    pub result: Option<String>,
    /// The error of a failed turn.
    #[serde(default)]
    pub error: Option<ErrorRecord>,
    /// println calls.
    #[serde(default)]
    pub prints: Vec<String>,
    /// Tool calls.
    #[serde(default)]
    pub tool_calls: Vec<ToolCallRecord>,
    /// Definitions, in order.
    #[serde(default)]
    pub definitions: Vec<DefinitionRecord>,
    /// The messages actually sent to the model for this turn (written by `ptc run`, ignored on input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<MessageRecord>,
    /// What the render of those messages did (`strategy`, counters; written by `ptc run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_stats: Option<serde_json::Value>,
    /// Prompt tokens of `messages`, counted by the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Usage as the LLM reported it (`prompt_tokens`, `completion_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<serde_json::Value>,
}

/// A message as sent to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRecord {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
}

/// A session that could not be read, with where the problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionError {
    /// JSON path of the problem (`$.turns[2].definitions[0].value`), or `$`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.message)
    }
}

impl std::error::Error for SessionError {}

fn err(path: String, message: impl Into<String>) -> SessionError {
    SessionError { path, message: message.into() }
}

impl Session {
    /// Reads a session file.
    pub fn read(path: &Path) -> Result<Session, SessionError> {
        let text = std::fs::read_to_string(path).map_err(|e| err("$".into(), format!("cannot read: {e}")))?;
        Session::parse(&text)
    }

    /// Parses session JSON and checks it can be rendered (every EDN value
    /// reads, turns are numbered 1..N, success agrees with error).
    pub fn parse(text: &str) -> Result<Session, SessionError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let session: Session = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { "$".to_string() } else { format!("$.{path}") };
            err(path, e.into_inner().to_string())
        })?;
        if session.format != FORMAT {
            return Err(err("$.format".into(), format!("expected \"{FORMAT}\", got {:?}", session.format)));
        }
        session.to_request()?;
        Ok(session)
    }

    /// The request that renders turn `turn` (1-based) from turns `1..turn-1`;
    /// `None` renders the turn after the last one.
    pub fn request_for_turn(&self, turn: Option<u32>) -> Result<RenderRequest, SessionError> {
        let next = self.turns.len() as u32 + 1;
        let turn = turn.unwrap_or(next);
        if turn == 0 || turn > next {
            return Err(err(
                "$.turns".into(),
                format!("cannot render turn {turn}: the session has {} turns (valid: 1..={next})", self.turns.len()),
            ));
        }
        let mut req = self.to_request()?;
        req.truncate_turns(turn as usize - 1);
        Ok(req)
    }

    /// The full request (all turns).
    pub fn to_request(&self) -> Result<RenderRequest, SessionError> {
        let tools =
            self.tools.iter().map(|t| ToolSpec::new(&t.name, t.signature.clone(), t.description.clone())).collect();
        let mut data = Vec::with_capacity(self.data.len());
        for (name, edn) in &self.data {
            data.push(DataEntry::new(name, edn_value(edn, || format!("$.data.{name}"))?));
        }
        let mut req =
            RenderRequest::new(&self.mission, &self.system_prompt, self.max_turns).with_tools(tools).with_data(data);
        for (i, turn) in self.turns.iter().enumerate() {
            req.push_turn(turn.to_abi(i)?);
        }
        Ok(req)
    }
}

/// Reads EDN text as an ABI value; `#'name` (what `def` returns) is a var.
pub fn edn_value(edn: &str, path: impl Fn() -> String) -> Result<Value, SessionError> {
    if let Some(name) = edn.trim().strip_prefix("#'") {
        return Ok(Value::var(name));
    }
    ptc_lisp::read_edn(edn).map(|v| to_abi(&v)).map_err(|e| err(path(), format!("not readable EDN: {e}")))
}

impl TurnRecord {
    fn to_abi(&self, index: usize) -> Result<Turn, SessionError> {
        let at = |field: &str| format!("$.turns[{index}].{field}");
        if self.number as usize != index + 1 {
            return Err(err(at("number"), format!("expected {}, got {}", index + 1, self.number)));
        }
        let mut turn =
            Turn::new(self.number, &self.raw_response, self.program.clone()).with_prints(self.prints.clone());
        turn = match (self.success, &self.error) {
            (true, None) => {
                let result = match &self.result {
                    Some(edn) => edn_value(edn, || at("result"))?,
                    None => Value::nil(),
                };
                turn.with_result(result)
            }
            (false, Some(e)) => turn.with_error(TurnError::new(&e.kind, &e.message)),
            (true, Some(_)) => return Err(err(at("error"), "a successful turn has no error (set success to false)")),
            (false, None) => return Err(err(at("error"), "a failed turn needs {\"kind\", \"message\"}")),
        };
        let mut calls = Vec::with_capacity(self.tool_calls.len());
        for (j, call) in self.tool_calls.iter().enumerate() {
            let at = |field: &str| format!("$.turns[{index}].tool_calls[{j}].{field}");
            let args = edn_value(&call.args, || at("args"))?;
            let outcome = match (&call.result, &call.error) {
                (_, Some(e)) => Err(e.clone()),
                (Some(r), None) => Ok(edn_value(r, || at("result"))?),
                (None, None) => Ok(Value::nil()),
            };
            calls.push(ToolCall::new(&call.name, args, outcome, call.duration_ms));
        }
        let mut defs = Vec::with_capacity(self.definitions.len());
        for (j, def) in self.definitions.iter().enumerate() {
            defs.push(def.to_abi(|field| format!("$.turns[{index}].definitions[{j}].{field}"))?);
        }
        Ok(turn.with_tool_calls(calls).with_definitions(defs))
    }
}

impl DefinitionRecord {
    fn to_abi(&self, at: impl Fn(&str) -> String) -> Result<Definition, SessionError> {
        let value = match self.kind {
            DefinitionKind::Value => {
                let edn = self.value.as_deref().ok_or_else(|| err(at("value"), "a value definition needs `value`"))?;
                edn_value(edn, || at("value"))?
            }
            DefinitionKind::Function => {
                let desc = ptc_lisp::FnDesc {
                    name: Some(self.name.as_str().into()),
                    params: self.params.iter().flatten().map(|p| p.as_str().into()).collect(),
                    variadic: self.variadic.as_deref().map(Into::into),
                    docstring: None,
                };
                Value::function(fn_desc(&desc, self.return_type.clone()))
            }
        };
        Ok(Definition::new(&self.name, value, self.docstring.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r##"{"format": "ptc-session/1", "mission": "m", "turns": [
        {"number": 1, "raw_response": "r", "program": "(def x 1)", "success": true, "result": "#'x",
         "definitions": [{"name": "x", "kind": "value", "value": "1", "docstring": null}]}]}"##;

    #[test]
    fn reads_minimal_session_with_defaults() {
        let s = Session::parse(MINIMAL).unwrap();
        assert_eq!(s.max_turns, DEFAULT_MAX_TURNS);
        let req = s.request_for_turn(None).unwrap();
        assert_eq!(req.turn(), 2);
        assert_eq!(req.memory()[0].name(), "x");
        assert_eq!(s.request_for_turn(Some(1)).unwrap().turns().len(), 0);
        let e = s.request_for_turn(Some(3)).unwrap_err();
        assert_eq!(e.to_string(), "at $.turns: cannot render turn 3: the session has 1 turns (valid: 1..=2)");
    }

    #[test]
    fn structural_errors_name_the_json_path() {
        let bad = MINIMAL.replace("\"success\": true", "\"success\": \"yes\"");
        let e = Session::parse(&bad).unwrap_err();
        assert_eq!(e.path, "$.turns[0].success");
        let bad = MINIMAL.replace("\"mission\": \"m\",", "");
        assert!(Session::parse(&bad).unwrap_err().to_string().contains("missing field `mission`"));
        let bad = MINIMAL.replace("ptc-session/1", "ptc-session/9");
        assert_eq!(Session::parse(&bad).unwrap_err().path, "$.format");
    }

    #[test]
    fn bad_edn_names_the_value_and_position() {
        let bad = MINIMAL.replace("\"value\": \"1\"", "\"value\": \"[1 2\"");
        let e = Session::parse(&bad).unwrap_err();
        assert_eq!(e.path, "$.turns[0].definitions[0].value");
        assert!(e.message.starts_with("not readable EDN: line 1, column"), "{e}");
    }

    #[test]
    fn inconsistent_turns_are_rejected() {
        let bad = MINIMAL.replace("\"number\": 1", "\"number\": 2");
        assert_eq!(Session::parse(&bad).unwrap_err().to_string(), "at $.turns[0].number: expected 1, got 2");
        let bad = MINIMAL.replace("\"success\": true", "\"success\": false");
        assert_eq!(Session::parse(&bad).unwrap_err().path, "$.turns[0].error");
    }
}
