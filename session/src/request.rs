//! Records to what a strategy renders: the ABI [`RenderRequest`] and its
//! [`Turn`]s. EDN values are read once here, never per render.

use crate::convert::{fn_desc, to_abi};
use crate::{err, DefinitionKind, DefinitionRecord, Session, SessionError, TurnRecord};
use ptc_plugin_api::{DataEntry, Definition, RenderRequest, ToolCall, ToolSpec, Turn, TurnError, Value};

impl Session {
    /// The request that renders turn `turn` (1-based) from turns `1..turn-1`;
    /// `None` renders the turn after the last one.
    pub fn request_for_turn(&self, turn: Option<u32>) -> Result<RenderRequest, SessionError> {
        let next = self.turns.len() as u32 + 1;
        let turn = turn.unwrap_or(next);
        if turn == 0 || turn > next {
            return Err(err(
                "$.turns".into(),
                format!(
                    "cannot render turn {turn}: the session has {} turn{}, so turns 1 to {next} can be rendered \
                     ({next}: the prompt of the turn after the last)",
                    self.turns.len(),
                    if self.turns.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let mut req = self.request_without_turns()?;
        for (i, record) in self.turns[..turn as usize - 1].iter().enumerate() {
            req.push_turn(record.to_abi(i)?);
        }
        Ok(req)
    }

    /// The requests of turns `1..=N` (`N` = the turn count, at least 1),
    /// each EDN value read once.
    pub fn requests(&self) -> Result<Vec<RenderRequest>, SessionError> {
        let mut req = self.request_without_turns()?;
        let mut out = vec![req.clone()];
        for (i, record) in self.turns.iter().enumerate() {
            req.push_turn(record.to_abi(i)?);
            if i + 1 < self.turns.len() {
                out.push(req.clone());
            }
        }
        Ok(out)
    }

    /// The request of turn 1: mission, system prompt, tools and data, no turns.
    pub fn request_without_turns(&self) -> Result<RenderRequest, SessionError> {
        let tools =
            self.tools.iter().map(|t| ToolSpec::new(&t.name, t.signature.clone(), t.description.clone())).collect();
        let mut data = Vec::with_capacity(self.data.len());
        for (name, edn) in &self.data {
            data.push(DataEntry::new(name, edn_value(edn, || format!("$.data.{name}"))?));
        }
        Ok(RenderRequest::new(&self.mission, &self.system_prompt, self.max_turns).with_tools(tools).with_data(data))
    }

    /// Checks that every turn can be rendered (EDN reads, numbering, success
    /// agrees with error).
    pub(crate) fn check(&self) -> Result<(), SessionError> {
        self.request_without_turns()?;
        for (i, record) in self.turns.iter().enumerate() {
            record.to_abi(i)?;
        }
        Ok(())
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
    /// This record as the ABI turn a strategy renders; `index` is its
    /// 0-based place in the session (for error paths and the numbering check).
    pub fn to_abi(&self, index: usize) -> Result<Turn, SessionError> {
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
            (false, Some(e)) => turn.with_error(TurnError::new(e.kind.as_str(), &e.message)),
            (true, Some(_)) => return Err(err(at("error"), "a successful turn has no error (set success to false)")),
            (false, None) => return Err(err(at("error"), "a failed turn needs {\"kind\", \"message\"}")),
        };
        let mut calls = Vec::with_capacity(self.tool_calls.len());
        for (j, call) in self.tool_calls.iter().enumerate() {
            let at = |field: &str| format!("$.turns[{index}].tool_calls[{j}].{field}");
            let args = edn_value(&call.args, || at("args"))?;
            let outcome = match (&call.result, &call.error) {
                (_, Some(e)) => Err(e.message.clone()),
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
