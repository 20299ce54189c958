//! The messages between ptc and an isolated plugin's process: one JSON
//! object per line, each way.
//!
//! ptc to the child:
//! - `{"request": REQUEST}`: render this request (and keep it);
//! - `{"append": {"after": K, "turns": [TURN, ...]}}`: render the request
//!   kept last, cut to its first `K` turns, plus these turns. A run's
//!   request only grows, so a turn costs what the new turn holds.
//!
//! The child to ptc:
//! - `{"ready": {"name": ..., "version": ...}}` once, when the strategy is built;
//! - `{"prompt": PROMPT}` for a render: messages as blocks with their
//!   breakpoints, and the stats;
//! - `{"error": {"kind": ..., "message": ...}}` for the strategy's error
//!   (`invalid_params` before `ready` means it could not be built).
//!
//! Values are a flat array of tokens in prefix order (`["V", 2]` is a
//! vector of the two values that follow), so a deep value is a long array,
//! never deep JSON, and is read back with an explicit stack.

use ptc_plugin_api::{
    Block, DataEntry, Definition, ErrorKind, FnDesc, Prompt, RenderRequest, Role, Stats, StrategyError, ToolCall,
    ToolSpec, Turn, TurnError, Value, ValueRef,
};
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The longest line ptc reads from the child: 64 MiB. A rendered prompt is
/// far smaller (a million-token prompt is about 5 MB of JSON); a longer
/// line is out of protocol, and reading it whole would let the child fill
/// ptc's memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// A message from ptc to the child, read.
#[derive(Debug, Clone, PartialEq)]
pub enum ToChild {
    /// Render this request.
    Request(RenderRequest),
    /// Render the kept request cut to `after` turns, plus `turns`.
    Append {
        /// Turns of the kept request that stay.
        after: usize,
        /// Turns to add after them.
        turns: Vec<Turn>,
    },
}

/// A message from the child to ptc, read.
#[derive(Debug, Clone, PartialEq)]
pub enum FromChild {
    /// The strategy is built and waits for requests.
    Ready {
        /// The plugin's strategy name.
        name: String,
        /// Its version.
        version: String,
    },
    /// A rendered prompt.
    Prompt(Prompt),
    /// The strategy's error.
    Error(StrategyError),
}

/// `{"request": ...}` as one line (with its newline).
pub fn request_line(request: &RenderRequest) -> Vec<u8> {
    line(&ToChildOut::Request(RequestOut::of(request)))
}

/// `{"append": ...}` as one line (with its newline).
pub fn append_line(after: usize, turns: &[Turn]) -> Vec<u8> {
    line(&ToChildOut::Append { after, turns: turns.iter().map(TurnOut::of).collect() })
}

/// `{"ready": ...}` as one line (with its newline).
pub fn ready_line(name: &str, version: &str) -> Vec<u8> {
    line(&FromChildOut::Ready { name, version })
}

/// `{"prompt": ...}` as one line (with its newline).
pub fn prompt_line(prompt: &Prompt) -> Vec<u8> {
    line(&FromChildOut::Prompt(PromptOut::of(prompt)))
}

/// `{"error": ...}` as one line (with its newline).
pub fn error_line(error: &StrategyError) -> Vec<u8> {
    line(&FromChildOut::Error(ErrorOut { kind: kind_name(error.kind()), message: error.message() }))
}

/// Reads a message from ptc.
pub fn read_to_child(line: &str) -> Result<ToChild, String> {
    let message: ToChildIn = serde_json::from_str(line).map_err(|e| format!("unreadable message from ptc: {e}"))?;
    Ok(match message {
        ToChildIn::Request(r) => ToChild::Request(r.into_abi()),
        ToChildIn::Append { after, turns } => {
            ToChild::Append { after, turns: turns.into_iter().map(TurnIn::into_abi).collect() }
        }
    })
}

/// Reads a message from the child.
pub fn read_from_child(line: &str) -> Result<FromChild, String> {
    let message: FromChildIn = serde_json::from_str(line).map_err(|e| format!("unreadable answer: {e}"))?;
    Ok(match message {
        FromChildIn::Ready { name, version } => FromChild::Ready { name, version },
        FromChildIn::Prompt(p) => FromChild::Prompt(p.into_abi()),
        FromChildIn::Error(e) => FromChild::Error(StrategyError::new(kind_of(&e.kind), e.message)),
    })
}

fn line(message: &impl Serialize) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(message).expect("wire messages have string keys only");
    bytes.push(b'\n');
    bytes
}

fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::InvalidParams => "invalid_params",
        ErrorKind::Render => "render",
        ErrorKind::Panicked => "panicked",
        ErrorKind::DoesNotFit => "does_not_fit",
        ErrorKind::Other => "other",
    }
}

fn kind_of(name: &str) -> ErrorKind {
    match name {
        "invalid_params" => ErrorKind::InvalidParams,
        "render" => ErrorKind::Render,
        "panicked" => ErrorKind::Panicked,
        "does_not_fit" => ErrorKind::DoesNotFit,
        _ => ErrorKind::Other,
    }
}

// ---- writing: borrowed views of the ABI types ----

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum ToChildOut<'a> {
    Request(RequestOut<'a>),
    Append { after: usize, turns: Vec<TurnOut<'a>> },
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum FromChildOut<'a> {
    Ready { name: &'a str, version: &'a str },
    Prompt(PromptOut<'a>),
    Error(ErrorOut<'a>),
}

#[derive(Serialize)]
struct ErrorOut<'a> {
    kind: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct RequestOut<'a> {
    mission: &'a str,
    system_prompt: &'a str,
    tools: Vec<ToolOut<'a>>,
    data: Vec<(&'a str, ValueOut<'a>)>,
    turns: Vec<TurnOut<'a>>,
    max_turns: u32,
    extensions: &'a str,
}

impl<'a> RequestOut<'a> {
    fn of(r: &'a RenderRequest) -> Self {
        RequestOut {
            mission: r.mission(),
            system_prompt: r.system_prompt(),
            tools: r
                .tools()
                .iter()
                .map(|t| ToolOut { name: t.name(), signature: t.signature(), description: t.description() })
                .collect(),
            data: r.data().iter().map(|d| (d.name(), ValueOut(d.value()))).collect(),
            turns: r.turns().iter().map(TurnOut::of).collect(),
            max_turns: r.max_turns(),
            extensions: r.extensions(),
        }
    }
}

#[derive(Serialize)]
struct ToolOut<'a> {
    name: &'a str,
    signature: Option<&'a str>,
    description: Option<&'a str>,
}

#[derive(Serialize)]
struct TurnOut<'a> {
    number: u32,
    raw_response: &'a str,
    program: Option<&'a str>,
    result: Option<ValueOut<'a>>,
    error: Option<(&'a str, &'a str)>,
    prints: Vec<&'a str>,
    tool_calls: Vec<CallOut<'a>>,
    definitions: Vec<DefinitionOut<'a>>,
}

impl<'a> TurnOut<'a> {
    fn of(t: &'a Turn) -> Self {
        TurnOut {
            number: t.number(),
            raw_response: t.raw_response(),
            program: t.program(),
            result: t.result().map(ValueOut),
            error: t.error().map(|e| (e.kind(), e.message())),
            prints: t.prints().collect(),
            tool_calls: t
                .tool_calls()
                .iter()
                .map(|c| CallOut {
                    name: c.name(),
                    args: ValueOut(c.args()),
                    result: c.result().map(ValueOut),
                    error: c.error(),
                    duration_ms: c.duration_ms(),
                })
                .collect(),
            definitions: t
                .definitions()
                .iter()
                .map(|d| DefinitionOut { name: d.name(), value: ValueOut(d.value()), docstring: d.docstring() })
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct CallOut<'a> {
    name: &'a str,
    args: ValueOut<'a>,
    result: Option<ValueOut<'a>>,
    error: Option<&'a str>,
    duration_ms: u64,
}

#[derive(Serialize)]
struct DefinitionOut<'a> {
    name: &'a str,
    value: ValueOut<'a>,
    docstring: Option<&'a str>,
}

#[derive(Serialize)]
struct PromptOut<'a> {
    /// Per message: role and blocks as `[text, breakpoint]`.
    messages: Vec<(&'static str, Vec<(&'a str, bool)>)>,
    stats: StatsOut<'a>,
}

impl<'a> PromptOut<'a> {
    fn of(p: &'a Prompt) -> Self {
        let messages = (0..p.messages().len())
            .map(|i| (p.messages()[i].role().as_str(), p.blocks(i).map(|b| (b.text, b.breakpoint)).collect()))
            .collect();
        PromptOut { messages, stats: StatsOut::of(p.stats()) }
    }
}

#[derive(Serialize, Deserialize)]
struct StatsFigures {
    turns_compressed: u32,
    tool_calls_total: u32,
    tool_calls_shown: u32,
    tool_calls_dropped: u32,
    printlns_total: u32,
    printlns_shown: u32,
    printlns_dropped: u32,
    error_turns_collapsed: u32,
}

#[derive(Serialize)]
struct StatsOut<'a> {
    strategy: &'a str,
    #[serde(flatten)]
    figures: StatsFigures,
    counters: Vec<(&'a str, i64)>,
    warnings: Vec<&'a str>,
}

impl<'a> StatsOut<'a> {
    fn of(s: &'a Stats) -> Self {
        StatsOut {
            strategy: s.strategy(),
            figures: StatsFigures {
                turns_compressed: s.turns_compressed,
                tool_calls_total: s.tool_calls_total,
                tool_calls_shown: s.tool_calls_shown,
                tool_calls_dropped: s.tool_calls_dropped,
                printlns_total: s.printlns_total,
                printlns_shown: s.printlns_shown,
                printlns_dropped: s.printlns_dropped,
                error_turns_collapsed: s.error_turns_collapsed,
            },
            counters: s.counters().iter().map(|c| (c.name(), c.value())).collect(),
            warnings: s.warnings().collect(),
        }
    }
}

/// A value as its flat token array.
struct ValueOut<'a>(&'a Value);

impl Serialize for ValueOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        // Prefix order with an explicit stack: no recursion however deep.
        let mut stack: Vec<&Value> = vec![self.0];
        while let Some(value) = stack.pop() {
            match value.view() {
                ValueRef::Nil => seq.serialize_element(&())?,
                ValueRef::Bool(b) => seq.serialize_element(&b)?,
                ValueRef::Int(i) => seq.serialize_element(&i)?,
                // Bits: exact, and NaN and infinities have no JSON number.
                ValueRef::Float(f) => seq.serialize_element(&("f", f.to_bits()))?,
                ValueRef::Str(s) => seq.serialize_element(s)?,
                ValueRef::Keyword(k) => seq.serialize_element(&("k", k))?,
                ValueRef::Var(n) => seq.serialize_element(&("var", n))?,
                ValueRef::Fn(f) => seq.serialize_element(&(
                    "fn",
                    FnOut {
                        name: f.name(),
                        params: f.params().collect(),
                        variadic: f.variadic(),
                        return_type: f.return_type(),
                    },
                ))?,
                ValueRef::Vector(items) | ValueRef::List(items) | ValueRef::Set(items) => {
                    let tag = match value.view() {
                        ValueRef::Vector(_) => "V",
                        ValueRef::List(_) => "L",
                        _ => "S",
                    };
                    seq.serialize_element(&(tag, items.len()))?;
                    stack.extend(items.iter().rev());
                }
                ValueRef::Map(entries) => {
                    seq.serialize_element(&("M", entries.len()))?;
                    for e in entries.iter().rev() {
                        stack.push(e.value());
                        stack.push(e.key());
                    }
                }
            }
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct FnOut<'a> {
    name: &'a str,
    params: Vec<&'a str>,
    variadic: Option<&'a str>,
    return_type: Option<&'a str>,
}

// ---- reading: owned forms, converted to the ABI types ----

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum ToChildIn {
    Request(RequestIn),
    Append { after: usize, turns: Vec<TurnIn> },
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum FromChildIn {
    Ready { name: String, version: String },
    Prompt(PromptIn),
    Error(ErrorIn),
}

#[derive(Deserialize)]
struct ErrorIn {
    kind: String,
    message: String,
}

#[derive(Deserialize)]
struct RequestIn {
    mission: String,
    system_prompt: String,
    tools: Vec<ToolIn>,
    data: Vec<(String, ValueIn)>,
    turns: Vec<TurnIn>,
    max_turns: u32,
    extensions: String,
}

impl RequestIn {
    fn into_abi(self) -> RenderRequest {
        RenderRequest::new(self.mission, self.system_prompt, self.max_turns)
            .with_tools(self.tools.into_iter().map(|t| ToolSpec::new(t.name, t.signature, t.description)).collect())
            .with_data(self.data.into_iter().map(|(name, v)| DataEntry::new(name, v.0)).collect())
            .with_extensions(self.extensions)
            .with_turns(self.turns.into_iter().map(TurnIn::into_abi))
    }
}

#[derive(Deserialize)]
struct ToolIn {
    name: String,
    signature: Option<String>,
    description: Option<String>,
}

#[derive(Deserialize)]
struct TurnIn {
    number: u32,
    raw_response: String,
    program: Option<String>,
    result: Option<ValueIn>,
    error: Option<(String, String)>,
    prints: Vec<String>,
    tool_calls: Vec<CallIn>,
    definitions: Vec<DefinitionIn>,
}

impl TurnIn {
    fn into_abi(self) -> Turn {
        let mut turn = Turn::new(self.number, self.raw_response, self.program);
        turn = match (self.error, self.result) {
            (Some((kind, message)), _) => turn.with_error(TurnError::new(kind, message)),
            (None, Some(result)) => turn.with_result(result.0),
            (None, None) => turn,
        };
        turn.with_prints(self.prints)
            .with_tool_calls(
                self.tool_calls
                    .into_iter()
                    .map(|c| {
                        let outcome = match (c.error, c.result) {
                            (Some(e), _) => Err(e),
                            (None, r) => Ok(r.map_or_else(Value::nil, |v| v.0)),
                        };
                        ToolCall::new(c.name, c.args.0, outcome, c.duration_ms)
                    })
                    .collect(),
            )
            .with_definitions(
                self.definitions.into_iter().map(|d| Definition::new(d.name, d.value.0, d.docstring)).collect(),
            )
    }
}

#[derive(Deserialize)]
struct CallIn {
    name: String,
    args: ValueIn,
    result: Option<ValueIn>,
    error: Option<String>,
    duration_ms: u64,
}

#[derive(Deserialize)]
struct DefinitionIn {
    name: String,
    value: ValueIn,
    docstring: Option<String>,
}

#[derive(Deserialize)]
struct PromptIn {
    messages: Vec<(String, Vec<(String, bool)>)>,
    stats: StatsIn,
}

impl PromptIn {
    fn into_abi(self) -> Prompt {
        let mut builder = Prompt::builder();
        for (role, blocks) in self.messages {
            let role = Role::from_name(&role).unwrap_or(Role::User);
            // The builder drops empty blocks; the only empty block a valid
            // layout has is the whole of an empty message.
            let empty_breakpoint = matches!(blocks.as_slice(), [(text, true)] if text.is_empty());
            builder.push(role, blocks.into_iter().map(|(text, bp)| Block::new(text).with_breakpoint(bp)));
            if empty_breakpoint {
                builder = builder.breakpoint_here();
            }
        }
        builder.build(self.stats.into_abi())
    }
}

#[derive(Deserialize)]
struct StatsIn {
    strategy: String,
    #[serde(flatten)]
    figures: StatsFigures,
    counters: Vec<(String, i64)>,
    warnings: Vec<String>,
}

impl StatsIn {
    fn into_abi(self) -> Stats {
        let f = self.figures;
        let mut stats = Stats::new(self.strategy);
        stats.turns_compressed = f.turns_compressed;
        stats.tool_calls_total = f.tool_calls_total;
        stats.tool_calls_shown = f.tool_calls_shown;
        stats.tool_calls_dropped = f.tool_calls_dropped;
        stats.printlns_total = f.printlns_total;
        stats.printlns_shown = f.printlns_shown;
        stats.printlns_dropped = f.printlns_dropped;
        stats.error_turns_collapsed = f.error_turns_collapsed;
        for (name, value) in self.counters {
            stats.push_counter(name, value);
        }
        for w in self.warnings {
            stats.warn(w);
        }
        stats
    }
}

#[derive(Deserialize)]
struct FnIn {
    name: String,
    params: Vec<String>,
    variadic: Option<String>,
    return_type: Option<String>,
}

/// One token of a value's array.
enum Token {
    Leaf(Value),
    /// A collection of `n` values (a map: `n` entries, `2n` values) follows.
    Open(Coll, usize),
}

#[derive(Clone, Copy)]
enum Coll {
    Vector,
    List,
    Set,
    Map,
}

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TokenVisitor)
    }
}

struct TokenVisitor;

impl<'de> Visitor<'de> for TokenVisitor {
    type Value = Token;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value token")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Token, E> {
        Ok(Token::Leaf(Value::nil()))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Token, E> {
        Ok(Token::Leaf(Value::bool(b)))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Token, E> {
        Ok(Token::Leaf(Value::int(i)))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Token, E> {
        i64::try_from(u).map(|i| Token::Leaf(Value::int(i))).map_err(|_| E::custom("integer out of range"))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Token, E> {
        Ok(Token::Leaf(Value::string(s)))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Token, E> {
        Ok(Token::Leaf(Value::string(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Token, A::Error> {
        let missing = || de::Error::custom("a tagged token needs a tag and a payload");
        let tag: String = seq.next_element()?.ok_or_else(missing)?;
        let token = match tag.as_str() {
            "f" => Token::Leaf(Value::float(f64::from_bits(seq.next_element()?.ok_or_else(missing)?))),
            "k" => Token::Leaf(Value::keyword(seq.next_element::<String>()?.ok_or_else(missing)?)),
            "var" => Token::Leaf(Value::var(seq.next_element::<String>()?.ok_or_else(missing)?)),
            "fn" => {
                let f: FnIn = seq.next_element()?.ok_or_else(missing)?;
                Token::Leaf(Value::function(
                    FnDesc::new(f.name, f.params).with_variadic(f.variadic).with_return_type(f.return_type),
                ))
            }
            "V" | "L" | "S" | "M" => {
                let coll = match tag.as_str() {
                    "V" => Coll::Vector,
                    "L" => Coll::List,
                    "S" => Coll::Set,
                    _ => Coll::Map,
                };
                Token::Open(coll, seq.next_element()?.ok_or_else(missing)?)
            }
            other => return Err(de::Error::custom(format!("unknown value token `{other}`"))),
        };
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format!("token `{tag}` has more than one payload")));
        }
        Ok(token)
    }
}

/// A value read from its flat token array.
struct ValueIn(Value);

impl<'de> Deserialize<'de> for ValueIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(ValueVisitor)
    }
}

struct ValueVisitor;

/// A collection being read: its kind, how many values it still needs, and
/// those it has.
struct Frame {
    coll: Coll,
    needed: usize,
    items: Vec<Value>,
}

impl Frame {
    fn close(self) -> Value {
        match self.coll {
            Coll::Vector => Value::vector(self.items),
            Coll::List => Value::list(self.items),
            Coll::Set => Value::set(self.items),
            Coll::Map => {
                let mut items = self.items.into_iter();
                let mut pairs = Vec::with_capacity(items.len() / 2);
                while let (Some(k), Some(v)) = (items.next(), items.next()) {
                    pairs.push((k, v));
                }
                Value::map(pairs)
            }
        }
    }
}

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = ValueIn;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value's token array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ValueIn, A::Error> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut done: Option<Value> = None;
        while let Some(token) = seq.next_element::<Token>()? {
            if done.is_some() {
                return Err(de::Error::custom("tokens after the end of the value"));
            }
            let mut value = match token {
                Token::Leaf(v) => v,
                Token::Open(coll, n) => {
                    let needed = match coll {
                        Coll::Map => n.checked_mul(2).ok_or_else(|| de::Error::custom("map size out of range"))?,
                        _ => n,
                    };
                    if needed > 0 {
                        // Capacity from what arrives, not from the claimed size.
                        stack.push(Frame { coll, needed, items: Vec::with_capacity(needed.min(1024)) });
                        continue;
                    }
                    Frame { coll, needed, items: Vec::new() }.close()
                }
            };
            // Hand the finished value up, closing every collection it completes.
            loop {
                match stack.last_mut() {
                    None => {
                        done = Some(value);
                        break;
                    }
                    Some(frame) => {
                        frame.items.push(value);
                        if frame.items.len() < frame.needed {
                            break;
                        }
                        value = stack.pop().expect("the frame just looked at").close();
                    }
                }
            }
        }
        done.map(ValueIn).ok_or_else(|| de::Error::custom("the value's tokens end before the value does"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::render::full_history_prompt;

    fn every_kind() -> Value {
        let f = FnDesc::new("add", vec!["a".into(), "b".into()])
            .with_variadic(Some("more".into()))
            .with_return_type(Some("integer".into()));
        Value::map(vec![
            (Value::keyword("xs"), Value::vector(vec![Value::int(-3), Value::float(f64::NAN), Value::float(0.1)])),
            (Value::string("s"), Value::list(vec![Value::nil(), Value::bool(true), Value::string("é\n\"")])),
            (Value::set(vec![Value::int(1)]), Value::function(f)),
            (Value::var("x"), Value::vector(vec![Value::map(vec![]), Value::vector(vec![]), Value::float(-0.0)])),
            (Value::int(i64::MIN), Value::float(f64::INFINITY)),
        ])
    }

    fn request() -> RenderRequest {
        let turn = |n: u32| {
            Turn::new(n, format!("answer {n}"), Some(format!("(def x{n} 1)")))
                .with_result(every_kind())
                .with_prints(vec!["a".into(), "b\nc".into()])
                .with_tool_calls(vec![
                    ToolCall::new("t", Value::map(vec![]), Ok(Value::int(1)), 12),
                    ToolCall::new("u", every_kind(), Err("boom".into()), 0),
                ])
                .with_definitions(vec![Definition::new("x", every_kind(), Some("doc".into()))])
        };
        RenderRequest::new("mission", "system", 9)
            .with_tools(vec![ToolSpec::new("t", Some("(q :string) -> :int".into()), None)])
            .with_data(vec![DataEntry::new("d", every_kind())])
            .with_extensions(r#"{"x": 1}"#)
            .with_turns([turn(1), turn(2).with_error(TurnError::new("parse", "bad")), turn(3)])
    }

    fn text(bytes: Vec<u8>) -> String {
        String::from_utf8(bytes).unwrap()
    }

    /// Equality by printed form: NaN is not equal to itself.
    fn same(a: &impl fmt::Debug, b: &impl fmt::Debug) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    #[test]
    fn a_request_survives_the_trip() {
        let req = request();
        let ToChild::Request(back) = read_to_child(&text(request_line(&req))).unwrap() else { panic!() };
        assert!(same(&back, &req), "{back:?}");
        let ToChild::Append { after, turns } = read_to_child(&text(append_line(1, &req.turns()[1..]))).unwrap() else {
            panic!()
        };
        assert_eq!(after, 1);
        assert!(same(&turns, &req.turns()[1..].to_vec()));
    }

    #[test]
    fn a_prompt_keeps_its_blocks_breakpoints_and_stats() {
        let mut stats = Stats::new("s");
        stats.tool_calls_total = 3;
        stats.printlns_dropped = 2;
        stats.push_counter("kept", -4);
        stats.warn("careful");
        let prompt = Prompt::builder()
            .system("sys")
            .message(Role::User, [Block::new("a").breakpoint(), Block::new("bé"), Block::new("c").breakpoint()])
            .assistant("")
            .breakpoint_here()
            .user("end")
            .build(stats);
        let FromChild::Prompt(back) = read_from_child(&text(prompt_line(&prompt))).unwrap() else { panic!() };
        assert_eq!(back, prompt);
        let plain = full_history_prompt(&request());
        let FromChild::Prompt(back) = read_from_child(&text(prompt_line(&plain))).unwrap() else { panic!() };
        assert_eq!(back, plain);
    }

    #[test]
    fn errors_and_ready_keep_their_kind() {
        for e in [StrategyError::invalid_params("unknown key `x`"), StrategyError::does_not_fit("too big")] {
            assert_eq!(read_from_child(&text(error_line(&e))).unwrap(), FromChild::Error(e));
        }
        assert_eq!(
            read_from_child(&text(ready_line("n", "1.0"))).unwrap(),
            FromChild::Ready { name: "n".into(), version: "1.0".into() }
        );
    }

    #[test]
    fn a_deep_value_is_a_long_array_not_deep_json() {
        let mut v = Value::int(0);
        for _ in 0..10_000 {
            v = Value::vector(vec![v]);
        }
        let req = RenderRequest::new("m", "s", 2).with_data(vec![DataEntry::new("deep", v)]);
        let ToChild::Request(back) = read_to_child(&text(request_line(&req))).unwrap() else { panic!() };
        let mut depth = 0;
        let mut at = back.data()[0].value();
        while let ValueRef::Vector(items) = at.view() {
            depth += 1;
            at = &items[0];
        }
        assert_eq!(depth, 10_000);
        // Dropping a 10,000-deep value recurses in its destructor; keep it
        // out of the test thread's way.
        std::mem::forget(back);
        std::mem::forget(req);
    }

    #[test]
    fn broken_messages_are_errors_not_panics() {
        for bad in [
            "",
            "{}",
            r#"{"request": 1}"#,
            r#"{"append": {"after": 0, "turns": [{"number": 1}]}}"#,
            r#"{"request": {"mission": "m", "system_prompt": "s", "tools": [], "data": [["d", [["V", 3], 1]]], "turns": [], "max_turns": 1, "extensions": "{}"}}"#,
            r#"{"request": {"mission": "m", "system_prompt": "s", "tools": [], "data": [["d", [1, 2]]], "turns": [], "max_turns": 1, "extensions": "{}"}}"#,
            r#"{"request": {"mission": "m", "system_prompt": "s", "tools": [], "data": [["d", [["M", 18446744073709551615]]]], "turns": [], "max_turns": 1, "extensions": "{}"}}"#,
            r#"{"request": {"mission": "m", "system_prompt": "s", "tools": [], "data": [["d", [["Q", 1]]]], "turns": [], "max_turns": 1, "extensions": "{}"}}"#,
        ] {
            assert!(read_to_child(bad).is_err(), "{bad}");
        }
        assert!(read_from_child(r#"{"prompt": {"messages": 3}}"#).is_err());
    }
}
