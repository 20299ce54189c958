//! The turn record: what a session file holds of one turn, and how a
//! finished program becomes one.
//!
//! Values are stored as EDN text (any language can read and write them).
//! [`record_turn`] is the only place that turns a run of `ptc-lisp` into a
//! record; [`TurnRecord::to_abi`](crate::TurnRecord) the only place that
//! turns a record into what a strategy renders.

use crate::{kinds::role_word, RenderStats, TurnErrorKind, Usage};
use ptc_lisp::{Exit, Outcome, ToolError, ToolErrorKind, Value};
use ptc_plugin_api::Role;
use serde::{Deserialize, Serialize};

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
    /// Kind (`parse`, `unbound_symbol`, `no_code`, ...).
    pub kind: TurnErrorKind,
    /// Message.
    pub message: String,
}

impl ErrorRecord {
    /// An error of `kind`.
    pub fn new(kind: impl Into<TurnErrorKind>, message: impl Into<String>) -> ErrorRecord {
        ErrorRecord { kind: kind.into(), message: message.into() }
    }
}

/// A tool call as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "ToolCallFields", into = "ToolCallFields")]
pub struct ToolCallRecord {
    /// Tool name.
    pub name: String,
    /// EDN of the argument map.
    pub args: String,
    /// EDN of the result, when it succeeded.
    pub result: Option<String>,
    /// Why it failed, when it failed: on disk `error` (the message) and
    /// `error_kind`, which is left out for `failed` (the tool's own error,
    /// and what files written before kinds were recorded read as).
    pub error: Option<ToolError>,
    /// Wall time.
    pub duration_ms: u64,
    /// Answered from the run's result cache (`cache = true`) without calling the tool.
    pub cached: bool,
    /// The session file of the nested run this call started (an agent used
    /// as a tool), relative to this session's folder.
    pub session: Option<String>,
    /// Model usage spent inside the call (a nested run's total, an
    /// `llm-query`), summed into the session's `usage`.
    pub usage: Option<Usage>,
}

/// A tool call as the file spells it.
#[derive(Clone, Serialize, Deserialize)]
struct ToolCallFields {
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
    /// Why it failed; absent: `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "tool_error_kind")]
    pub error_kind: Option<ToolErrorKind>,
    /// Wall time.
    #[serde(default)]
    pub duration_ms: u64,
    /// Answered from the run's result cache.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// The nested run's session file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Model usage spent inside the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

impl From<ToolCallFields> for ToolCallRecord {
    fn from(f: ToolCallFields) -> ToolCallRecord {
        let kind = f.error_kind.unwrap_or(ToolErrorKind::Failed);
        ToolCallRecord {
            name: f.name,
            args: f.args,
            result: f.result,
            error: f.error.map(|message| ToolError::new(kind, message)),
            duration_ms: f.duration_ms,
            cached: f.cached,
            session: f.session,
            usage: f.usage,
        }
    }
}

impl From<ToolCallRecord> for ToolCallFields {
    fn from(r: ToolCallRecord) -> ToolCallFields {
        let (error, error_kind) = r.error.map(|e| (e.message, e.kind)).unzip();
        ToolCallFields {
            name: r.name,
            args: r.args,
            result: r.result,
            error,
            error_kind: error_kind.filter(|&k| k != ToolErrorKind::Failed),
            duration_ms: r.duration_ms,
            cached: r.cached,
            session: r.session,
            usage: r.usage,
        }
    }
}

/// `error_kind` as its word (`unknown_tool`, `failed`, ...).
mod tool_error_kind {
    use ptc_lisp::ToolErrorKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &Option<ToolErrorKind>, s: S) -> Result<S::Ok, S::Error> {
        match kind {
            Some(k) => s.serialize_str(k.as_str()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ToolErrorKind>, D::Error> {
        let Some(name) = Option::<String>::deserialize(d)? else { return Ok(None) };
        let known = || ToolErrorKind::ALL.map(ToolErrorKind::as_str).join(", ");
        ToolErrorKind::from_name(&name)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown tool error kind `{name}` (known: {})", known())))
    }
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
    /// In a journal line only (`ptc-session/2`): how many leading messages
    /// were the same as the previous turn's, so `messages` holds only the
    /// rest. Readers expand it; in memory it is always `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages_reused: Option<usize>,
    /// What the render of those messages did (`strategy`, counters; written by `ptc run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_stats: Option<RenderStats>,
    /// Prompt tokens of `messages`, counted by the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Usage as the LLM reported it (`prompt_tokens`, `completion_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// What the prompt cost under the run's price model: the server's
    /// cache figures when it reported them, else ptc's estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostRecord>,
}

/// What one prompt cost (written by `ptc run`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostRecord {
    /// The price model (`anthropic`, `openai`, `none` or a `[pricing.NAME]`).
    pub model: String,
    /// Whose figures they are.
    pub source: CostSource,
    /// Every prompt token.
    pub prompt_tokens: u64,
    /// Read from the provider's cache.
    pub cache_read_tokens: u64,
    /// Written to it.
    pub cache_write_tokens: u64,
    /// Billed as plain input.
    pub uncached_tokens: u64,
    /// The prompt's cost in the model's unit (input tokens, or money for a
    /// per-million price table).
    pub input_cost: f64,
    /// The completion's cost, when its tokens were reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_cost: Option<f64>,
}

/// The cost records of a run's turns, summed: what its prompts cost.
#[derive(Debug, Clone, PartialEq)]
pub struct CostTotals {
    /// The price model of the first turn that records a cost.
    pub model: String,
    /// Turns that record a cost.
    pub turns: usize,
    /// Every prompt token.
    pub prompt_tokens: u64,
    /// Read from the provider's cache.
    pub cache_read_tokens: u64,
    /// Written to it.
    pub cache_write_tokens: u64,
    /// Billed as plain input.
    pub uncached_tokens: u64,
    /// The prompts' cost in the model's unit.
    pub input_cost: f64,
    /// The completions' cost, over the turns whose tokens were reported.
    pub output_cost: Option<f64>,
}

impl CostTotals {
    /// The sum over `turns`; `None` when no turn records a cost.
    pub fn of(turns: &[TurnRecord]) -> Option<CostTotals> {
        let mut costs = turns.iter().filter_map(|t| t.cost.as_ref()).peekable();
        let model = costs.peek()?.model.clone();
        let mut totals = CostTotals {
            model,
            turns: 0,
            prompt_tokens: 0,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            uncached_tokens: 0,
            input_cost: 0.0,
            output_cost: None,
        };
        for c in costs {
            totals.turns += 1;
            totals.prompt_tokens += c.prompt_tokens;
            totals.cache_read_tokens += c.cache_read_tokens;
            totals.cache_write_tokens += c.cache_write_tokens;
            totals.uncached_tokens += c.uncached_tokens;
            totals.input_cost += c.input_cost;
            if let Some(out) = c.output_cost {
                *totals.output_cost.get_or_insert(0.0) += out;
            }
        }
        Some(totals)
    }
}

/// Whose cache figures a [`CostRecord`] prices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CostSource {
    /// The server's (`reported`).
    Reported,
    /// ptc's accounting of the request it sent (`estimated`).
    Estimated,
}

impl CostSource {
    /// The word the file holds.
    pub fn as_str(self) -> &'static str {
        match self {
            CostSource::Reported => "reported",
            CostSource::Estimated => "estimated",
        }
    }
}

/// A message as sent to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRecord {
    /// Who it is from; on disk `system`, `user` or `assistant`.
    #[serde(with = "role_word")]
    pub role: Role,
    /// The text.
    pub content: String,
    /// Byte offsets where its content blocks end, all but the last (absent:
    /// one block).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub block_ends: Vec<u32>,
    /// The blocks that end a cache breakpoint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breakpoints: Vec<u32>,
}

impl MessageRecord {
    /// A message of one block.
    pub fn new(role: Role, content: impl Into<String>) -> MessageRecord {
        MessageRecord { role, content: content.into(), block_ends: Vec::new(), breakpoints: Vec::new() }
    }

    /// Its blocks, in order, with whether each ends a cache breakpoint. A
    /// layout that does not fit the text (a hand-edited file) gives one block.
    pub fn blocks(&self) -> Vec<(&str, bool)> {
        let mut ends: Vec<usize> = self.block_ends.iter().map(|&e| e as usize).collect();
        let fits = ends.windows(2).all(|w| w[0] < w[1])
            && ends.iter().all(|&e| e > 0 && e < self.content.len() && self.content.is_char_boundary(e));
        if !fits {
            ends.clear();
        }
        ends.push(self.content.len());
        let mut start = 0;
        ends.iter()
            .enumerate()
            .map(|(i, &end)| {
                let block = (&self.content[start..end], self.breakpoints.contains(&(i as u32)));
                start = end;
                block
            })
            .collect()
    }
}

/// The messages of a rendered prompt as the session records them, with
/// their block layout.
pub fn message_records(prompt: &ptc_plugin_api::Prompt) -> Vec<MessageRecord> {
    prompt
        .messages()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut record = MessageRecord::new(m.role(), m.content());
            let mut at = 0u32;
            for (k, block) in prompt.blocks(i).enumerate() {
                if k > 0 {
                    record.block_ends.push(at);
                }
                at += block.text.len() as u32;
                if block.breakpoint {
                    record.breakpoints.push(k as u32);
                }
            }
            record
        })
        .collect()
}

/// How a recorded turn leaves the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnExit {
    /// The run goes on.
    Continue,
    /// `(return v)`: the run ends with the value (EDN).
    Return(String),
    /// `(fail v)`: the run ends as failed.
    Fail,
}

/// A turn made from an answer and the run of its program.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedTurn {
    /// The record (messages, stats and usage are left for the run loop).
    pub record: TurnRecord,
    /// Whether the turn ends the run.
    pub exit: TurnExit,
}

impl TurnRecord {
    /// An empty record of turn `number` for the answer `raw_response`.
    pub fn new(number: u32, raw_response: impl Into<String>) -> TurnRecord {
        TurnRecord {
            number,
            raw_response: raw_response.into(),
            program: None,
            success: false,
            result: None,
            error: None,
            prints: Vec::new(),
            tool_calls: Vec::new(),
            definitions: Vec::new(),
            messages: Vec::new(),
            messages_reused: None,
            render_stats: None,
            prompt_tokens: None,
            usage: None,
            cost: None,
        }
    }
}

/// The record of turn `number`: `program` (extracted from `raw_response`)
/// and what running it gave. A turn without a program is a failed turn
/// with `error` (the run loop says why: no code block, a cut-off answer).
pub fn record_turn(number: u32, raw_response: &str, run: Result<(&str, &Outcome), ErrorRecord>) -> RecordedTurn {
    let mut record = TurnRecord::new(number, raw_response);
    let (program, out) = match run {
        Ok(ran) => ran,
        Err(error) => {
            record.error = Some(error);
            return RecordedTurn { record, exit: TurnExit::Continue };
        }
    };
    record.program = Some(program.to_string());
    record.prints = out.prints.clone();
    record.tool_calls = out
        .tool_calls
        .iter()
        .map(|c| ToolCallRecord {
            name: c.name.clone(),
            args: edn(&c.args),
            result: c.result.as_ref().ok().map(edn),
            error: c.result.as_ref().err().cloned(),
            duration_ms: c.duration.as_millis() as u64,
            cached: false,
            session: None,
            usage: None,
        })
        .collect();
    let exit = match &out.result {
        Ok(Exit::Value(v)) => {
            record.success = true;
            record.result = Some(match &out.ended_with_definition {
                // The program's last form was a definition: its value is the var, as in Clojure.
                Some(name) => format!("#'{name}"),
                None => edn(v),
            });
            TurnExit::Continue
        }
        Ok(Exit::Return(v)) => {
            record.success = true;
            record.result = Some(edn(v));
            TurnExit::Return(edn(v))
        }
        Ok(Exit::Fail(v)) => {
            let message = match v {
                Value::Str(s) => s.to_string(),
                other => other.to_string(),
            };
            record.error = Some(ErrorRecord::new(TurnErrorKind::Fail, message));
            TurnExit::Fail
        }
        Err(e) => {
            let mut message = e.message.clone();
            if let (Some(l), Some(c)) = (e.line, e.column) {
                message = format!("{message} (line {l}, column {c})");
            }
            record.error = Some(ErrorRecord::new(e.kind, message));
            TurnExit::Continue
        }
    };
    if record.success {
        record.definitions = out.definitions.iter().map(definition_record).collect();
    }
    RecordedTurn { record, exit }
}

/// EDN text of a value; a function prints as its var (`#'name`) so the file stays readable.
pub fn edn(v: &Value) -> String {
    match v {
        Value::Fn(f) => format!("#'{}", f.desc.name.as_deref().unwrap_or("fn")),
        other => other.to_string(),
    }
}

fn definition_record(d: &ptc_lisp::Definition) -> DefinitionRecord {
    match &d.value {
        Value::Fn(f) => DefinitionRecord {
            name: d.name.clone(),
            kind: DefinitionKind::Function,
            value: None,
            params: Some(f.desc.params.iter().map(|p| p.to_string()).collect()),
            variadic: f.desc.variadic.as_ref().map(|v| v.to_string()),
            docstring: d.docstring.clone(),
            return_type: d.return_type.clone(),
        },
        v => DefinitionRecord {
            name: d.name.clone(),
            kind: DefinitionKind::Value,
            value: Some(edn(v)),
            params: None,
            variadic: None,
            docstring: d.docstring.clone(),
            return_type: None,
        },
    }
}
