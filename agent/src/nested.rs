//! The tools a run answers itself: other agents of the config
//! (`tools = ["agent:summarizer"]`, called as `tool/summarizer`),
//! `llm-query` (one direct model call) and `turn-output` (an earlier turn
//! as it ran).
//!
//! **Agents as tools.** The argument map becomes the sub-agent's input
//! data (each key `k` is `data/k`, beside its own `data`), the sub-run
//! writes its own session file beside the parent's
//! (`PARENT.runs/turn-T-AGENT-N.session.jsonl`, named in the call record's
//! `session`), its returned value is the tool's result, and its model usage
//! is recorded on the call (`usage`) and summed into the parent's. A
//! sub-run that fails, runs out of turns or cannot start is a tool error
//! naming the agent. Nesting is bounded: an agent already on the call chain
//! is refused (`a → b → a`), and so is a chain deeper than the top agent's
//! `max_agent_depth`.
//!
//! **llm-query.** `(tool/llm-query {:prompt "..." :schema {...}})`: one
//! model call through the agent's `llm_query` backend (default: its `llm`).
//! Without `:schema` the answer text is the result. With one, the model is
//! asked for JSON of that shape, the answer is parsed (a fenced block is
//! unwrapped) and checked against the shape as a signature type (see
//! [`schema_type`]); a mismatch is a tool error naming the path.
//!
//! **turn-output.** `(tool/turn-output {:turn 3})`: turn 3 of the run as
//! it ran (`output`: its prints, one line each; `result` or `error`),
//! from the session, whatever the strategy shows of it now. A strategy
//! that shows older turns compact drops their output; with this tool the
//! model can get it back in one call, so dropping is not forgetting.

use crate::budget::Budgets;
use crate::config::{Agent, LlmConfig, AGENT_PREFIX, LLM_QUERY, TURN_OUTPUT};
use crate::contract::JsonShape;
use crate::costing::{turns_cost, Costing};
use crate::resolve::{agent_token_counter, Resolved};
use crate::tools::{CallNote, RunTool, Tool, Tools};
use crate::usage::reported;
use ptc_cost::PriceModel;
use ptc_lisp::{ToolError, ToolErrorKind, ToolHost};
use ptc_llm::{self as llm, Llm, Prompt, PromptMessage};
use ptc_session::{RunStatus, TurnRecord};
use ptc_signature::{check, Field, Primitive, Type};
use ptc_tokens::TokenCounter;
use serde_json::{json, Value as Json};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The usage key of the prompt tokens ptc counted inside a call (a nested
/// run's turns, an `llm-query` prompt), whether or not a server reported any.
#[deprecated(since = "0.2.0", note = "use the field `ptc_session::Usage::counted_prompt_tokens`")]
pub const COUNTED: &str = "counted_prompt_tokens";

/// Runs an agent of the config to its end: what an `agent:NAME` tool
/// calls. The run loop implements it (`run::SubRuns`); this module, which
/// the loop uses, so never names the loop back.
pub trait SubAgents: Sync {
    /// Runs agent `name` writing its session to `path`, with `args` as
    /// `ptc run --arg` values (`NAME=EDN`) and `data` joining its own data,
    /// on `llm`; the session as written, or why it could not run.
    fn run_agent(&self, call: SubRun<'_>, llm: &mut dyn Llm) -> Result<ptc_session::Session, String>;
}

/// One run of an agent used as a tool.
pub struct SubRun<'a> {
    /// The config.
    pub resolved: &'a Resolved,
    /// The agent to run.
    pub name: &'a str,
    /// Its inputs, as `ptc run --arg` values (`NAME=EDN`).
    pub args: Vec<String>,
    /// Data beside its own (the call's arguments when it declares no inputs).
    pub data: serde_json::Map<String, Json>,
    /// Where its session is written.
    pub path: &'a Path,
    /// The chain of agents down to it.
    pub nesting: Nesting,
}

/// The chain of agents from the top run down to the one running.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Nesting {
    /// Agent names, outermost first; the running agent last.
    pub chain: Vec<String>,
    /// The top agent's `max_agent_depth`.
    pub max_depth: u32,
    /// The budgets on the chain (`max_run_prompt_tokens`, `max_run_cost`
    /// of the agents that set one), outermost first: every prompt of the
    /// running agent, `llm-query`'s included, is charged to each.
    pub budgets: Budgets,
}

impl Nesting {
    /// The chain of a top run of agent `name`, nesting at most `max_depth`.
    pub fn top(name: &str, max_depth: u32) -> Nesting {
        Nesting { chain: vec![name.to_string()], max_depth, budgets: Budgets::default() }
    }
}

/// How `agent:NAME` shows in the prompt.
pub fn agent_tool(resolved: &Resolved, name: &str) -> Tool {
    let agent = resolved.config.agents.get(name);
    let mission = agent.and_then(|a| a.mission.as_deref()).unwrap_or("");
    let mission: String = mission.split_whitespace().collect::<Vec<_>>().join(" ");
    // An agent with a signature takes its inputs and returns its output;
    // any other takes a map (each key becomes its data) and returns anything.
    let (signature, takes) = match agent.and_then(|a| a.contract.as_ref()).filter(|c| !c.signature.params.is_empty()) {
        Some(contract) => (contract.text.clone(), "its inputs"),
        None => ("(args :map) -> :any".to_string(), "the arguments (each key becomes its data/KEY)"),
    };
    Tool::Run(RunTool {
        name: name.to_string(),
        signature,
        description: format!("Runs agent `{name}` on {takes}: {mission}"),
    })
}

/// How `llm-query` shows in the prompt.
pub fn llm_query_tool() -> Tool {
    Tool::Run(RunTool {
        name: LLM_QUERY.into(),
        signature: "(prompt :string, schema :map?) -> :any".into(),
        description: "One direct model call: the answer as text, or with :schema (e.g. {:name :string, :tags [:string]}) parsed as JSON of that shape".into(),
    })
}

/// How `turn-output` shows in the prompt.
pub fn turn_output_tool() -> Tool {
    Tool::Run(RunTool {
        name: TURN_OUTPUT.into(),
        signature: "(turn :int) -> {turn :int, output :string, result :string?, error :string?}".into(),
        description: "An earlier turn of this run as it ran: all it printed (one line per print), its result or its error. Older turns may be shown compact; this gets one back whole".into(),
    })
}

/// `(tool/turn-output {:turn n})`: turn `n` of `earlier` as it ran.
fn turn_output(earlier: &[TurnRecord], args: &Json) -> Result<Json, String> {
    let asked = args.get("turn").and_then(Json::as_i64).ok_or("expects {:turn <number of an earlier turn>}")?;
    let Some(turn) = earlier.iter().find(|t| i64::from(t.number) == asked) else {
        return Err(match (earlier.first(), earlier.last()) {
            (Some(first), Some(last)) => {
                format!("no turn {asked}; the earlier turns are {}-{}", first.number, last.number)
            }
            _ => "no earlier turn yet (this is the first)".to_string(),
        });
    };
    let mut out = json!({"turn": turn.number, "output": turn.prints.join("\n")});
    if let Some(result) = &turn.result {
        out["result"] = json!(result);
    }
    if let Some(error) = &turn.error {
        out["error"] = json!(format!("{}: {}", error.kind.as_str(), error.message));
    }
    Ok(out)
}

/// The tool host of one turn: the agent's tools, plus the tools the run answers.
pub struct RunTools<'a> {
    /// The agent's table tools (built-in, command, MCP).
    pub tools: &'a Tools,
    /// The config, to run other agents.
    pub resolved: &'a Resolved,
    /// What runs them.
    pub sub_agents: &'a dyn SubAgents,
    /// The running agent.
    pub agent: &'a Agent,
    /// Where it sits in the chain.
    pub nesting: &'a Nesting,
    /// The running agent's session file (nested sessions go beside it).
    pub session: &'a Path,
    /// The turn being run.
    pub turn: u32,
    /// Nested runs of this turn so far (numbers their files).
    pub runs: AtomicUsize,
    /// `llm-query` calls of the run so far (a replay backend answers them in order).
    pub queries: &'a AtomicUsize,
    /// The run's turns before this one (`turn-output` answers from them).
    pub earlier: &'a [TurnRecord],
}

impl ToolHost for RunTools<'_> {
    fn call(&self, name: &str, args: Json) -> Result<Json, ToolError> {
        let offered = |entry: &str| self.agent.tools.iter().any(|t| t == entry);
        if name == LLM_QUERY && offered(LLM_QUERY) {
            let note = CallNote { name: name.into(), args: crate::tools::canonical_args(&args), ..CallNote::default() };
            return self.llm_query(args, note);
        }
        if name == TURN_OUTPUT && offered(TURN_OUTPUT) {
            return turn_output(self.earlier, &args).map_err(ToolError::failed);
        }
        if offered(&format!("{AGENT_PREFIX}{name}")) {
            return self.call_agent(name, args).map_err(ToolError::failed);
        }
        self.tools.call(name, args)
    }
}

impl RunTools<'_> {
    fn call_agent(&self, name: &str, args: Json) -> Result<Json, String> {
        let mut note = CallNote { name: name.into(), args: crate::tools::canonical_args(&args), ..CallNote::default() };
        let chain = &self.nesting.chain;
        if chain.iter().any(|a| a == name) {
            return Err(format!("agent recursion: {} → {name} is not allowed", chain.join(" → ")));
        }
        if chain.len() as u32 >= self.nesting.max_depth {
            return Err(format!(
                "agent `{name}` would run at depth {} (chain {} → {name}); agents nest at most {} deep (max_agent_depth of `{}`)",
                chain.len() + 1,
                chain.join(" → "),
                self.nesting.max_depth,
                chain[0]
            ));
        }
        let Json::Object(inputs) = args else {
            return Err(format!("agent `{name}` takes a map of arguments (they become its data), got {args}"));
        };
        let n = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        let (path, relative) = nested_path(self.session, self.turn, name, n);
        let mut nesting = self.nesting.clone();
        nesting.chain.push(name.to_string());
        let outcome = run_nested(self.sub_agents, self.resolved, name, inputs, &path, nesting);
        if path.exists() {
            note.session = Some(relative);
        }
        let result = outcome.and_then(|session| {
            let mut usage = ptc_session::sum_usage(&session.turns);
            // The prompt tokens ptc counted, its own turns' plus what its calls counted.
            let own: u64 = session.turns.iter().filter_map(|t| t.prompt_tokens).sum();
            usage.counted_prompt_tokens = Some(own + usage.counted_prompt_tokens.unwrap_or(0));
            note.usage = Some(usage);
            sub_agent_return(name, &session)
        });
        self.tools.note(note);
        result
    }

    fn llm_query(&self, args: Json, mut note: CallNote) -> Result<Json, ToolError> {
        let prompt = args
            .get("prompt")
            .and_then(Json::as_str)
            .ok_or(ToolError::failed("llm-query expects {:prompt \"...\"}"))?;
        // A bad :schema fails before the model is paid.
        let schema =
            args.get("schema").filter(|s| !s.is_null()).map(schema_type).transpose().map_err(ToolError::failed)?;
        let config: &LlmConfig = self
            .agent
            .llm_query
            .as_ref()
            .or(self.agent.llm.as_ref())
            .ok_or(ToolError::failed("the agent has no `llm` for llm-query"))?;
        let counter = agent_token_counter(self.agent).map_err(|e| ToolError::failed(format!("llm-query: {e}")))?;
        let done = self.queries.fetch_add(1, Ordering::SeqCst);
        let mut backend = llm::from_config(config, done).map_err(|e| ToolError::failed(format!("llm-query: {e}")))?;
        let (sent, tokens) = query_prompt(prompt, schema.as_ref(), counter);
        // One prompt, nothing cached before it: priced alone under each budget's model.
        let alone = |model: &ptc_cost::PriceModel| Costing::new(model.clone(), counter, &[]);
        let reserved = self
            .nesting
            .budgets
            .reserve(&self.agent.name, "an llm-query prompt", tokens, |model| alone(model).prompt_cost(&sent))
            .map_err(|stop| ToolError::new(ToolErrorKind::Limit, format!("llm-query: {}", stop.detail)))?;
        let reply = backend.chat(&sent).map_err(|e| ToolError::failed(format!("llm-query: {e}")))?;
        reserved.settle(|model| query_cost(&sent, reply.usage.as_ref(), model, counter));
        let mut usage = crate::usage::usage_record(&reply);
        usage.counted_prompt_tokens = Some(tokens);
        usage.llm = Some(backend.settings());
        note.usage = Some(usage);
        self.tools.note(note);
        let Some(ty) = schema else { return Ok(Json::String(reply.content)) };
        let answer = json_in(&reply.content).ok_or_else(|| {
            ToolError::failed(format!("llm-query: the answer is not JSON: {}", first_chars(&reply.content, 200)))
        })?;
        check(JsonShape(&answer), &ty)
            .map_err(|m| ToolError::failed(format!("llm-query: the answer does not fit :schema {ty}: {m}")))?;
        Ok(answer)
    }
}

/// The prompt `llm-query` sends for `prompt` (asking for JSON of `schema`'s
/// shape, if given) and its tokens as ptc counts them.
fn query_prompt(prompt: &str, schema: Option<&Type>, counter: &TokenCounter) -> (Prompt, u64) {
    let system = match schema {
        Some(ty) => {
            format!("Answer with JSON only, no prose, of this shape (keys and types; `?` marks optional): {ty}")
        }
        None => "Answer briefly and precisely.".to_string(),
    };
    let tokens = (counter.count(&system) + counter.count(prompt)) as u64;
    (Prompt::new(vec![PromptMessage::system(system), PromptMessage::user(prompt)]), tokens)
}

/// How many agents deep [`SpentInside::read`] reads nested sessions
/// back: a chain of distinct agents is never this long; a deeper record
/// is priced from the usage its call recorded.
pub const MAX_NESTED_READ: usize = 32;

/// What the tool calls of a run spent on models, read back from their
/// records once and priced under any price model ([`SpentInside::cost`])
/// as a budget above them priced it while they ran (input and output):
/// the agents they ran, from those runs' session files (to any depth,
/// each file once), and their `llm-query` prompts, rebuilt from the
/// calls' arguments. A nested session that cannot be read, or lies
/// deeper than [`MAX_NESTED_READ`], is priced from the usage its call
/// recorded, every prompt token as uncached input: more than it cost,
/// never less. What a resumed run's `max_run_cost` starts from, what
/// `ptc run`'s closing line and `ptc trace --usage` add for the calls,
/// and part of a `ptc bench` run's cost.
#[derive(Debug, Default)]
pub struct SpentInside {
    parts: Vec<Part>,
}

/// One model spend inside a call.
#[derive(Debug)]
enum Part {
    /// A nested run's turns.
    Run(Vec<TurnRecord>),
    /// An `llm-query` prompt and its schema, with the call's usage.
    Query { prompt: String, schema: Option<Type>, usage: ptc_session::Usage },
    /// A spend whose record could not be read: its call's usage.
    Unread(ptc_session::Usage),
}

impl SpentInside {
    /// Reads what the calls of `turns`, turns of session file `file`,
    /// spent (their nested sessions are named relative to its folder).
    pub fn read(turns: &[TurnRecord], file: &Path) -> SpentInside {
        let mut spent = SpentInside::default();
        spent.calls(turns, file, 0, &mut HashSet::new());
        spent
    }

    /// Its cost under `model` (`counter` counts the prompts ptc prices again).
    pub fn cost(&self, model: &PriceModel, counter: &'static TokenCounter) -> f64 {
        let part = |part: &Part| match part {
            Part::Run(turns) => turns_cost(turns, model, counter),
            Part::Query { prompt, schema, usage } => {
                query_cost(&query_prompt(prompt, schema.as_ref(), counter).0, reported(usage).as_ref(), model, counter)
            }
            Part::Unread(usage) => uncached_cost(usage, model),
        };
        self.parts.iter().map(part).sum()
    }

    fn calls(&mut self, turns: &[TurnRecord], file: &Path, depth: usize, read: &mut HashSet<PathBuf>) {
        for call in turns.iter().flat_map(|t| &t.tool_calls) {
            match (&call.session, call.usage.as_ref()) {
                (Some(relative), usage) => {
                    self.nested(&ptc_session::nested_session_path(file, relative), usage, depth + 1, read)
                }
                (None, Some(usage)) if call.name == LLM_QUERY => self.parts.push(query_part(&call.args, usage)),
                _ => {}
            }
        }
    }

    /// A nested run's turns and what its own calls spent; a file already
    /// read (a record naming it twice) adds nothing.
    fn nested(&mut self, path: &Path, usage: Option<&ptc_session::Usage>, depth: usize, read: &mut HashSet<PathBuf>) {
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if read.contains(&file) {
            return;
        }
        match (depth <= MAX_NESTED_READ).then(|| ptc_session::Session::read(path).ok()).flatten() {
            Some(nested) => {
                read.insert(file);
                // The run first, then what its calls spent, in record order.
                let at = self.parts.len();
                self.calls(&nested.turns, path, depth, read);
                self.parts.insert(at, Part::Run(nested.turns));
            }
            None => self.parts.extend(usage.cloned().map(Part::Unread)),
        }
    }
}

/// An `llm-query` call's spend: its prompt rebuilt from `args` (EDN), or
/// its usage alone when they do not read back.
fn query_part(args: &str, usage: &ptc_session::Usage) -> Part {
    let asked = ptc_lisp::read_edn(args).ok().and_then(|v| ptc_lisp::value_to_json(&v).ok());
    let prompt = asked.as_ref().and_then(|a| Some((a.get("prompt")?.as_str()?, a.get("schema"))));
    let schema = prompt.and_then(|(_, s)| s.filter(|s| !s.is_null()).map(schema_type));
    match (prompt, schema.transpose()) {
        (Some((prompt, _)), Ok(schema)) => Part::Query { prompt: prompt.to_string(), schema, usage: usage.clone() },
        _ => Part::Unread(usage.clone()),
    }
}

/// An `llm-query` prompt and its answer (`reported`, when the server
/// reported tokens) under `model`: one prompt, nothing cached before it.
fn query_cost(sent: &Prompt, reported: Option<&llm::Usage>, model: &PriceModel, counter: &'static TokenCounter) -> f64 {
    let cost = Costing::new(model.clone(), counter, &[]).turn(sent, reported);
    cost.input_cost + cost.output_cost.unwrap_or(0.0)
}

/// `usage` priced with every prompt token uncached.
fn uncached_cost(usage: &ptc_session::Usage, model: &PriceModel) -> f64 {
    let tokens = usage.prompt_tokens.or(usage.counted_prompt_tokens).unwrap_or(0);
    let priced = ptc_cost::Usage {
        prompt_tokens: tokens,
        uncached_tokens: tokens,
        output_tokens: usage.completion_tokens,
        ..ptc_cost::Usage::default()
    };
    let cost = model.cost(&priced);
    cost.input + cost.output.unwrap_or(0.0)
}

/// Where a nested run writes: `PARENT.runs/turn-T-AGENT-N.session.jsonl`,
/// and that path relative to the parent's folder (what the record keeps).
fn nested_path(parent: &Path, turn: u32, agent: &str, n: usize) -> (PathBuf, String) {
    let file_name = parent.file_name().map_or_else(|| "session".into(), |f| f.to_string_lossy().into_owned());
    let relative = format!("{file_name}.runs/turn-{turn}-{agent}-{n}.session.jsonl");
    let path = parent.parent().unwrap_or(Path::new(".")).join(&relative);
    (path, relative)
}

/// Runs agent `name` to its end with `inputs` as data; the session as written.
fn run_nested(
    sub_agents: &dyn SubAgents,
    resolved: &Resolved,
    name: &str,
    inputs: serde_json::Map<String, Json>,
    path: &Path,
    nesting: Nesting,
) -> Result<ptc_session::Session, String> {
    let fail = |e: String| format!("agent `{name}`: {e}");
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    }
    // The config checks `agent:NAME` entries, so this only fails on a config built in code.
    let agent = resolved.config.agents.get(name).ok_or_else(|| fail("is not an agent of the config".into()))?;
    let llm_config = agent.llm.as_ref().ok_or_else(|| fail("has no `llm`".into()))?;
    let mut llm = llm::from_config(llm_config, 0).map_err(|e| fail(e.to_string()))?;
    // A sub-agent whose signature declares inputs takes the call's
    // arguments as them (checked as `ptc run --arg` values are); any other
    // takes them as data.
    let declares = agent.contract.as_ref().is_some_and(|c| !c.signature.params.is_empty());
    let (args, data): (Vec<String>, _) = if declares {
        let args =
            inputs.iter().map(|(k, v)| format!("{k}={}", ptc_session::edn(&ptc_lisp::json_to_value(v)))).collect();
        (args, serde_json::Map::new())
    } else {
        (Vec::new(), inputs)
    };
    let call = SubRun { resolved, name, args, data, path, nesting };
    sub_agents.run_agent(call, llm.as_mut()).map_err(fail)
}

/// The sub-agent's return as the tool's result. A sub-agent with a
/// signature only ends `returned` with a value that matches it (its run
/// ends `invalid_return` otherwise, reported here as not returning).
fn sub_agent_return(name: &str, session: &ptc_session::Session) -> Result<Json, String> {
    match (session.status, &session.result) {
        (Some(RunStatus::Returned), Some(edn)) => {
            let value =
                ptc_lisp::read_edn(edn).map_err(|e| format!("agent `{name}`: its result does not read: {e}"))?;
            ptc_lisp::value_to_json(&value).map_err(|e| format!("agent `{name}`: its result is not JSON: {e}"))
        }
        (Some(RunStatus::Failed), _) => {
            let why = session.turns.last().and_then(|t| t.error.as_ref()).map_or("", |e| e.message.as_str());
            Err(format!("agent `{name}` failed: {why}"))
        }
        (Some(RunStatus::Limit), _) => Err(format!(
            "agent `{name}` did not return (limit after {}: {})",
            crate::progress::turns(session.turns.len()),
            session.detail.as_deref().or(session.reason.as_deref()).unwrap_or("a run limit")
        )),
        (status, _) => {
            let last = session.turns.last().and_then(|t| t.error.as_ref());
            let last = last.map_or(String::new(), |e| format!("; its last error: {}", e.message));
            Err(format!(
                "agent `{name}` did not return ({} after {}){last}",
                status.map_or("unfinished", RunStatus::as_str),
                crate::progress::turns(session.turns.len())
            ))
        }
    }
}

/// The JSON in a model answer: the whole text, or the first fenced block.
fn json_in(text: &str) -> Option<Json> {
    let t = text.trim();
    if let Ok(v) = serde_json::from_str(t) {
        return Some(v);
    }
    let (_, body) = *crate::fence::blocks(t).first()?;
    serde_json::from_str(body.trim()).ok()
}

/// The `:schema` of an `llm-query` as a signature type, so answers are
/// checked by the one type checker ([`ptc_signature::check`]): a map of
/// field to schema (every field required unless its type ends in `?`), a
/// one-item list (every item has that schema), or a type keyword
/// (`:string`, `:int`, `:float`, `:bool`, `:keyword`, `:datetime`, `:map`,
/// `:any`; `:integer`, `:number`, `:boolean`, `:list` and `:vector` as
/// aliases). Keywords arrive as strings.
pub fn schema_type(schema: &Json) -> Result<Type, String> {
    match schema {
        Json::Object(fields) => fields
            .iter()
            .map(|(name, ty)| Ok(Field { name: name.trim_start_matches(':').to_string(), ty: schema_type(ty)? }))
            .collect::<Result<Vec<_>, String>>()
            .map(Type::Map),
        Json::Array(items) => {
            let item = items.first().map_or(Ok(Type::Primitive(Primitive::Any)), schema_type)?;
            Ok(Type::List(Box::new(item)))
        }
        Json::String(name) => {
            let name = name.trim_start_matches(':');
            let (name, optional) = match name.strip_suffix('?') {
                Some(n) => (n, true),
                None => (name, false),
            };
            let ty = match name {
                "integer" => Type::Primitive(Primitive::Int),
                "number" => Type::Primitive(Primitive::Float),
                "boolean" => Type::Primitive(Primitive::Bool),
                "list" | "vector" => Type::List(Box::new(Type::Primitive(Primitive::Any))),
                other => Type::Primitive(
                    Primitive::from_name(other)
                        .ok_or_else(|| format!("llm-query: unknown type `:{other}` in :schema"))?,
                ),
            };
            Ok(if optional { Type::Optional(Box::new(ty)) } else { ty })
        }
        other => Err(format!("llm-query: a :schema entry must be a type keyword, a map or a list, got {other}")),
    }
}

fn first_chars(s: &str, n: usize) -> String {
    let cut: String = s.chars().take(n).collect();
    if cut.len() < s.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schemas_are_signature_types_checked_by_the_one_checker() {
        let ty = schema_type(&json!({":name": ":string", ":tags": [":string"], ":score": ":float?"})).unwrap();
        assert_eq!(ty.to_string(), "{name :string, tags [:string], score :float?}");
        let fits = |v: Json| check(JsonShape(&v), &ty).map_err(|m| m.to_string());
        assert_eq!(fits(json!({"name": "a", "tags": ["x"]})), Ok(()));
        assert!(fits(json!({"name": "a", "tags": ["x", 2]}))
            .unwrap_err()
            .starts_with("at $.tags[1]: expected :string"));
        assert!(fits(json!({"tags": []})).unwrap_err().starts_with("at $.name: missing"));
        assert!(fits(json!([1])).unwrap_err().starts_with("at $: expected {name"));
        assert_eq!(schema_type(&json!(":integer")).unwrap(), Type::Primitive(Primitive::Int));
        assert_eq!(schema_type(&json!(":vector")).unwrap().to_string(), "[:any]");
        assert!(schema_type(&json!(":date")).unwrap_err().contains("unknown type `:date`"));
        assert!(schema_type(&json!(3)).unwrap_err().contains("a type keyword, a map or a list"));
    }

    #[test]
    fn json_answers_bare_or_fenced() {
        assert_eq!(json_in(" {\"a\": 1} "), Some(json!({"a": 1})));
        assert_eq!(json_in("Here:\n```json\n[1, 2]\n```\n"), Some(json!([1, 2])));
        assert_eq!(json_in("no json"), None);
    }

    #[test]
    fn nested_sessions_sit_beside_the_parent() {
        let (path, relative) = nested_path(Path::new("/tmp/x/a.session.jsonl"), 2, "sum", 1);
        assert_eq!(relative, "a.session.jsonl.runs/turn-2-sum-1.session.jsonl");
        assert_eq!(path, Path::new("/tmp/x/a.session.jsonl.runs/turn-2-sum-1.session.jsonl"));
    }
}
