//! Memory from records: re-running a session's successful programs with
//! their recorded tool results (no tool is called again), so a resumed run
//! gets its functions back whole, not only their descriptions.

use crate::{Session, ToolCallRecord};
use indexmap::IndexMap;
use ptc_lisp::{read_edn, run_program, value_to_json, Limits, Memory, ToolError, ToolHost, Value};
use std::fmt;

/// A session's memory could not be rebuilt.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayError {
    /// The turn whose program failed when re-run.
    pub turn: u32,
    /// The interpreter's error.
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot rebuild memory: replaying turn {} failed: {}", self.turn, self.message)
    }
}

impl std::error::Error for ReplayError {}

/// Tool results as recorded, handed back in order (so `pmap` replays its
/// calls one after another, in the order they were recorded).
struct Recorded<'t> {
    calls: std::sync::Mutex<std::slice::Iter<'t, ToolCallRecord>>,
}

impl ToolHost for Recorded<'_> {
    fn concurrent(&self) -> bool {
        false
    }

    fn call(&self, name: &str, _args: serde_json::Value) -> Result<serde_json::Value, ToolError> {
        let next = self.calls.lock().unwrap_or_else(|e| e.into_inner()).next();
        let call = next.ok_or_else(|| format!("no recorded result for tool/{name}"))?;
        if call.name != name {
            return Err(format!("recorded call was tool/{}, not tool/{name}", call.name).into());
        }
        if let Some(e) = &call.error {
            return Err(e.clone());
        }
        let v = call.result.as_deref().map(read_edn).transpose().map_err(|e| e.to_string())?.unwrap_or(Value::Nil);
        Ok(value_to_json(&v).map_err(|e| e.to_string())?)
    }
}

impl Session {
    /// The memory after the last turn, rebuilt by re-running every
    /// successful program with the recorded tool results.
    pub fn rebuild_memory(&self, data: &IndexMap<String, Value>, limits: &Limits) -> Result<Memory, ReplayError> {
        let mut memory = Memory::new();
        for turn in self.turns.iter().filter(|t| t.success) {
            let Some(program) = &turn.program else { continue };
            let mut tools = Recorded { calls: turn.tool_calls.iter().into() };
            let out = run_program(program, &memory, data, &mut tools, limits);
            if let Err(e) = out.result {
                return Err(ReplayError { turn: turn.number, message: e.to_string() });
            }
            memory = out.memory;
        }
        Ok(memory)
    }
}
