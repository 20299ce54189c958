//! `ptc run`: the agent loop of DESIGN.md.
//!
//! Turn 1 sends `[system, user(first message)]`; every turn the model
//! answers, the host extracts and runs the program (memory carried over,
//! rolled back on error), records the turn, writes the session file
//! atomically, and renders the next prompt: full-history on turn 1 (and
//! for single-shot agents), the agent's strategy from turn 2.

use crate::cli::stats_json;
use crate::config::{Agent, Config};
use crate::llm::{self, Llm};
use crate::policy::{agent_counter, Policy};
use crate::progress::{Progress, Terminal};
use crate::tools::{builtin, Tool, Tools};
use indexmap::IndexMap;
use ptc_lisp::{json_to_value, read_edn, run_program, value_to_json, Exit, Limits, Memory, ToolHost, Value};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_plugin_api::Message;
use ptc_registry::Registry;
use ptc_session::{
    DefinitionKind, DefinitionRecord, ErrorRecord, MessageRecord, Session, ToolCallRecord, ToolRecord, TurnRecord,
    FORMAT,
};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The built-in system prompt: a PTC-Lisp language card, identical every turn.
pub const SYSTEM_PROMPT: &str = ptc_lisp::LANGUAGE_CARD;

/// What the model is told when its answer holds no program.
pub const NO_CODE_MESSAGE: &str =
    "No program found in your answer. Answer with exactly one ```clojure code block containing your program.";

/// How a run is started.
pub struct RunArgs<'a> {
    /// The loaded config.
    pub config: &'a Config,
    /// Agent name.
    pub agent: &'a str,
    /// Where to write the session (default: the resume file, else `AGENT.session.json`).
    pub session_out: Option<&'a Path>,
    /// A session file of an interrupted run to continue.
    pub resume: Option<&'a Path>,
}

/// The end of a run.
#[derive(Debug)]
pub struct RunResult {
    /// The session as written.
    pub session: Session,
    /// Where it was written.
    pub path: PathBuf,
}

/// Runs an agent with the LLM backend of its config.
pub fn run(args: &RunArgs<'_>, progress: &mut dyn Progress) -> Result<RunResult, String> {
    let agent = find_agent(args.config, args.agent)?;
    let llm_config = agent
        .llm
        .as_ref()
        .ok_or_else(|| format!("{}: agent `{}` has no `llm = {{...}}`", agent.location, agent.name))?;
    let done = match args.resume {
        Some(path) => Session::read(path).map_err(|e| format!("{}: {e}", path.display()))?.turns.len(),
        None => 0,
    };
    let mut llm = llm::from_config(llm_config, done).map_err(|e| e.to_string())?;
    run_with(args, llm.as_mut(), progress)
}

/// `ptc run AGENT`: runs, printing progress on stderr as it goes; the
/// result goes to stdout. Exit code 0 when the agent returned, 1 otherwise.
pub fn cli_run(config: &Path, agent: &str, session: Option<&Path>, resume: Option<&Path>) -> crate::cli::CliResult {
    let config = Config::load(config).map_err(|e| e.to_string())?;
    let args = RunArgs { config: &config, agent, session_out: session, resume };
    let mut terminal = Terminal::stderr(tracing::dispatcher::has_been_set());
    let done = run(&args, &mut terminal);
    terminal.finish();
    let done = done?;
    let status = done.session.status.as_deref().unwrap_or("unfinished");
    let stdout = match (&done.session.result, done.session.turns.last()) {
        (Some(r), _) => format!("{r}\n"),
        (None, Some(t)) if status == "failed" => {
            format!("failed: {}\n", t.error.as_ref().map_or("", |e| e.message.as_str()))
        }
        _ => format!("no result ({status})\n"),
    };
    let note = format!("{status} after {} turns; session written to {}", done.session.turns.len(), done.path.display());
    Ok(crate::cli::Output { stdout, warnings: vec![note], code: i32::from(status != "returned") })
}

fn find_agent<'c>(config: &'c Config, name: &str) -> Result<&'c Agent, String> {
    config.agents.get(name).ok_or_else(|| {
        let names: Vec<&str> = config.agents.keys().map(String::as_str).collect();
        format!("{}: no agent named `{name}` (defined: {})", config.path.display(), names.join(", "))
    })
}

/// Runs an agent with the given model (tests inject one).
pub fn run_with(args: &RunArgs<'_>, llm: &mut dyn Llm, progress: &mut dyn Progress) -> Result<RunResult, String> {
    let config = args.config;
    let agent = find_agent(config, args.agent)?;
    let mission = agent
        .mission
        .clone()
        .ok_or_else(|| format!("{}: agent `{}` has no `mission = \"...\"`", agent.location, agent.name))?;
    let limits = agent.limits.to_limits();
    let mut tools = Tools::new(
        agent
            .tools
            .iter()
            .map(|name| match config.tools.get(name) {
                Some(t) => Tool::Command(t.clone()),
                None => Tool::Builtin(builtin(name).expect("config checked tool names")),
            })
            .collect(),
    );
    let mut data: IndexMap<String, Value> = IndexMap::new();
    for (name, path) in &agent.data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("agent `{}`: data `{name}`: {}: {e}", agent.name, path.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("agent `{}`: data `{name}`: {} is not JSON: {e}", agent.name, path.display()))?;
        data.insert(name.clone(), json_to_value(&json));
    }

    let (mut session, mut memory, path) = match args.resume {
        Some(resume) => {
            let session = Session::read(resume).map_err(|e| format!("{}: {e}", resume.display()))?;
            if session.agent.as_deref() != Some(agent.name.as_str()) || session.mission != mission {
                return Err(format!("{}: this session is not a run of agent `{}`", resume.display(), agent.name));
            }
            let memory = rebuild_memory(&session, &data, &limits)?;
            (session, memory, args.session_out.unwrap_or(resume).to_path_buf())
        }
        None => {
            let session = Session {
                format: FORMAT.to_string(),
                agent: Some(agent.name.clone()),
                mission,
                system_prompt: agent.system_prompt.clone().unwrap_or_else(|| SYSTEM_PROMPT.to_string()),
                max_turns: agent.max_turns,
                tools: tools
                    .list()
                    .iter()
                    .map(|t| ToolRecord {
                        name: t.name().to_string(),
                        signature: t.signature(),
                        description: t.description(),
                    })
                    .collect(),
                data: data.iter().map(|(k, v)| (k.clone(), v.to_string())).collect(),
                turns: Vec::new(),
                result: None,
                usage: json!({}),
                status: None,
            };
            let path = args
                .session_out
                .map_or_else(|| PathBuf::from(format!("{}.session.json", agent.name)), Path::to_path_buf);
            (session, Memory::new(), path)
        }
    };
    if session.status.as_deref() == Some("error") {
        session.status = None; // an interrupted run: go on
    }
    if session.status.is_some() {
        progress.line(&format!("session already finished ({})", session.status.as_deref().unwrap_or("")));
        return Ok(RunResult { session, path });
    }

    let strategy_name = agent.strategy.clone().unwrap_or_else(|| FULL_HISTORY.to_string());
    let registry =
        if strategy_name == FULL_HISTORY { Registry::default() } else { Registry::discover(&config.plugin_paths) };
    let counter = agent_counter(agent)?;
    // Triggers, budgets and fallbacks (spec/strategies.md): full-history on
    // turn 1, before the trigger and for single-shot agents; then the strategy.
    let mut policy = Policy::for_agent(config, &registry, agent, &counter)?;
    // A resumed run keeps its trigger latch: once the strategy took over it
    // serves every later turn (no flapping back to full-history).
    // (Files written before `switched` was recorded: the strategy served a turn.)
    let served_by_strategy = |s: &serde_json::Value| {
        s["switched"] == json!(true) || (strategy_name != FULL_HISTORY && s["instance"] == json!(strategy_name))
    };
    if session.turns.iter().any(|t| t.render_stats.as_ref().is_some_and(served_by_strategy)) {
        policy.restore_switch();
    }
    let max_turns = session.max_turns;
    let mut tokens_so_far: u64 = session.turns.iter().filter_map(|t| t.prompt_tokens).sum();
    tracing::info!(agent = %agent.name, strategy = %strategy_name, turns_done = session.turns.len(), max_turns, session = %path.display(), "run starts");

    while (session.turns.len() as u32) < max_turns {
        let number = session.turns.len() as u32 + 1;
        progress.status(&format!(
            "turn {number}/{max_turns} · rendering the prompt · {tokens_so_far} prompt tokens so far"
        ));
        let request = session.request_for_turn(None).map_err(|e| format!("session: {e}"))?;
        let served = match policy.render(&request) {
            Ok(s) => s,
            Err(e) => {
                session.status = Some("error".into());
                write_atomic(&path, &session)?;
                return Err(format!("turn {number}: {e} (session so far in {})", path.display()));
            }
        };
        let instance = served.instance.clone();
        let messages = served.rendered.messages().to_vec();
        let prompt_tokens = served.tokens as u64;
        let mut stats = stats_json(served.rendered.stats());
        stats["instance"] = json!(instance);
        stats["switched"] = json!(policy.switched());
        tracing::debug!(turn = number, instance = %instance, phase = ?served.phase, prompt_tokens, messages = messages.len(), "prompt rendered");
        if served.attempts.len() > 1 {
            stats["attempts"] = json!(served.attempts.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        }
        for w in served.rendered.stats().warnings() {
            progress.line(&format!("turn {number}: strategy `{instance}`: {w}"));
        }

        progress.status(&format!(
            "turn {number}/{max_turns} · {instance} · {prompt_tokens} prompt tokens ({} so far) · waiting for the model",
            tokens_so_far + prompt_tokens
        ));
        let asked = std::time::Instant::now();
        let reply = match llm.chat(&messages) {
            Ok(r) => r,
            Err(e) => {
                session.status = Some("error".into());
                write_atomic(&path, &session)?;
                return Err(format!("turn {number}: llm: {e} (session so far in {})", path.display()));
            }
        };
        tracing::debug!(turn = number, elapsed_ms = asked.elapsed().as_millis() as u64, usage = ?reply.usage, chars = reply.content.len(), "model answered");
        progress.status(&format!("turn {number}/{max_turns} · running the program"));
        let mut turn = execute_turn(number, &reply.content, &mut memory, &data, &mut tools, &limits);
        turn.record.messages = messages.iter().map(message_record).collect();
        turn.record.render_stats = Some(stats);
        turn.record.prompt_tokens = Some(prompt_tokens);
        turn.record.usage = reply.usage.map(|u| json!(u));
        if let Some(u) = reply.usage {
            add_usage(&mut session.usage, u.prompt_tokens, u.completion_tokens);
        }
        let ended = match &turn.exit {
            TurnExit::Return(v) => {
                session.result = Some(v.clone());
                session.status = Some("returned".into());
                true
            }
            TurnExit::Fail => {
                session.status = Some("failed".into());
                true
            }
            TurnExit::Continue => false,
        };
        let outcome = match (&turn.record.error, &turn.record.result) {
            (Some(e), _) => format!("error {}: {}", e.kind, first_line(&e.message)),
            (None, Some(r)) => format!("ok {}", first_line(r)),
            (None, None) => "ok".into(),
        };
        session.turns.push(turn.record);
        if !ended && session.turns.len() as u32 >= max_turns {
            session.status = Some("out_of_turns".into());
        }
        write_atomic(&path, &session)?;
        tracing::debug!(turn = number, session = %path.display(), "session written");
        tokens_so_far += prompt_tokens;
        progress.line(&format!(
            "turn {number}/{max_turns}  strategy={instance}  prompt_tokens={prompt_tokens}  total={tokens_so_far}  {outcome}"
        ));
        if ended {
            break;
        }
    }
    Ok(RunResult { session, path })
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > 100 {
        format!("{}...", line.chars().take(100).collect::<String>())
    } else {
        line.to_string()
    }
}

fn add_usage(total: &mut serde_json::Value, prompt: u64, completion: u64) {
    if !total.is_object() {
        *total = json!({});
    }
    for (key, n) in [("prompt_tokens", prompt), ("completion_tokens", completion)] {
        let old = total.get(key).and_then(serde_json::Value::as_u64).unwrap_or(0);
        total[key] = json!(old + n);
    }
}

fn message_record(m: &Message) -> MessageRecord {
    MessageRecord { role: m.role().as_str().to_string(), content: m.content().to_string() }
}

enum TurnExit {
    Continue,
    Return(String),
    Fail,
}

struct TurnDone {
    record: TurnRecord,
    exit: TurnExit,
}

/// Finds the program in a model answer: the first ```clojure / ```lisp /
/// ```clj / bare ``` block, else the whole answer when it is an s-expression.
pub fn extract_code(response: &str) -> Option<String> {
    let mut rest = response;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let (lang, body) = after.split_once('\n').unwrap_or((after, ""));
        let end = body.find("```");
        let code = &body[..end.unwrap_or(body.len())];
        let lang = lang.trim().to_ascii_lowercase();
        if matches!(lang.as_str(), "clojure" | "lisp" | "clj" | "edn" | "") && !code.trim().is_empty() {
            return Some(code.trim().to_string());
        }
        match end {
            Some(e) => rest = &body[e + 3..],
            None => break,
        }
    }
    let t = response.trim();
    (t.starts_with('(') && t.ends_with(')')).then(|| t.to_string())
}

fn execute_turn(
    number: u32,
    raw: &str,
    memory: &mut Memory,
    data: &IndexMap<String, Value>,
    tools: &mut dyn ToolHost,
    limits: &Limits,
) -> TurnDone {
    let mut record = TurnRecord {
        number,
        raw_response: raw.to_string(),
        program: None,
        success: false,
        result: None,
        error: None,
        prints: Vec::new(),
        tool_calls: Vec::new(),
        definitions: Vec::new(),
        messages: Vec::new(),
        render_stats: None,
        prompt_tokens: None,
        usage: None,
    };
    let done = |record, exit| TurnDone { record, exit };
    let Some(program) = extract_code(raw) else {
        record.error = Some(ErrorRecord { kind: "parse".into(), message: NO_CODE_MESSAGE.into() });
        return done(record, TurnExit::Continue);
    };
    let out = run_program(&program, memory, data, tools, limits);
    record.program = Some(program);
    record.prints = out.prints;
    record.tool_calls = out
        .tool_calls
        .iter()
        .map(|c| ToolCallRecord {
            name: c.name.clone(),
            args: edn(&c.args),
            result: c.result.as_ref().ok().map(edn),
            error: c.result.as_ref().err().cloned(),
            duration_ms: c.duration.as_millis() as u64,
        })
        .collect();
    let exit = match out.result {
        Ok(Exit::Value(v)) => {
            record.success = true;
            record.result = Some(result_edn(&v, out.ended_with_definition.as_deref()));
            TurnExit::Continue
        }
        Ok(Exit::Return(v)) => {
            record.success = true;
            record.result = Some(edn(&v));
            TurnExit::Return(edn(&v))
        }
        Ok(Exit::Fail(v)) => {
            let message = match &v {
                Value::Str(s) => s.to_string(),
                other => other.to_string(),
            };
            record.error = Some(ErrorRecord { kind: "fail".into(), message });
            TurnExit::Fail
        }
        Err(e) => {
            let mut message = e.message.clone();
            if let (Some(l), Some(c)) = (e.line, e.column) {
                message = format!("{message} (line {l}, column {c})");
            }
            record.error = Some(ErrorRecord { kind: e.kind.as_str().to_string(), message });
            TurnExit::Continue
        }
    };
    if record.success {
        record.definitions = out.definitions.iter().map(definition_record).collect();
        *memory = out.memory;
    }
    done(record, exit)
}

/// EDN text of a value; a function prints as its var (`#'name`) so the file stays readable.
fn edn(v: &Value) -> String {
    match v {
        Value::Fn(f) => format!("#'{}", f.desc.name.as_deref().unwrap_or("fn")),
        other => other.to_string(),
    }
}

/// What a turn's result is recorded as: `#'name` when the program's last
/// form was a definition (its value is the var, as in Clojure).
fn result_edn(v: &Value, ended_with_definition: Option<&str>) -> String {
    match ended_with_definition {
        Some(name) => format!("#'{name}"),
        None => edn(v),
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

/// Tool results as recorded, handed back in order (for rebuilding memory on
/// resume); calls run one at a time, in the order they were recorded.
struct Recorded<'t> {
    calls: std::sync::Mutex<std::slice::Iter<'t, ToolCallRecord>>,
}

impl ToolHost for Recorded<'_> {
    fn concurrent(&self) -> bool {
        false
    }

    fn call(&self, name: &str, _args: serde_json::Value) -> Result<serde_json::Value, String> {
        let next = self.calls.lock().unwrap_or_else(|e| e.into_inner()).next();
        let call = next.ok_or_else(|| format!("no recorded result for tool/{name}"))?;
        if call.name != name {
            return Err(format!("recorded call was tool/{}, not tool/{name}", call.name));
        }
        if let Some(e) = &call.error {
            return Err(e.clone());
        }
        let v = call.result.as_deref().map(read_edn).transpose().map_err(|e| e.to_string())?.unwrap_or(Value::Nil);
        value_to_json(&v)
    }
}

/// Rebuilds the memory of a session by re-running its successful programs
/// with the recorded tool results (no tool is called again), so functions
/// come back with their bodies.
pub fn rebuild_memory(session: &Session, data: &IndexMap<String, Value>, limits: &Limits) -> Result<Memory, String> {
    let mut memory = Memory::new();
    for turn in session.turns.iter().filter(|t| t.success) {
        let Some(program) = &turn.program else { continue };
        let mut tools = Recorded { calls: turn.tool_calls.iter().into() };
        let out = run_program(program, &memory, data, &mut tools, limits);
        if let Err(e) = out.result {
            return Err(format!("cannot rebuild memory: replaying turn {} failed: {e}", turn.number));
        }
        memory = out.memory;
    }
    Ok(memory)
}

/// Writes the session atomically: a temporary file in the same folder,
/// fsync, then rename over the target.
pub fn write_atomic(path: &Path, session: &Session) -> Result<(), String> {
    let text = serde_json::to_string_pretty(session).map_err(|e| format!("cannot serialize the session: {e}"))? + "\n";
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "session".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    {
        let mut f = std::fs::File::create(&tmp).map_err(fail)?;
        f.write_all(text.as_bytes()).map_err(fail)?;
        f.sync_all().map_err(fail)?;
    }
    std::fs::rename(&tmp, path).map_err(fail)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_code_blocks_and_bare_expressions() {
        assert_eq!(extract_code("Let me see.\n```clojure\n(+ 1 2)\n```\nDone."), Some("(+ 1 2)".into()));
        assert_eq!(extract_code("```python\nx\n```\n```lisp\n(inc 1)\n```"), Some("(inc 1)".into()));
        assert_eq!(extract_code("  (count data/xs)\n"), Some("(count data/xs)".into()));
        assert_eq!(extract_code("I think the answer is 4."), None);
    }

    #[test]
    fn turns_record_results_definitions_and_roll_back() {
        let data = IndexMap::new();
        let mut mem = Memory::new();
        let limits = Limits::default();
        let mut tools = ptc_lisp::NoTools;
        let t = execute_turn(
            1,
            "```clojure\n(defn dbl \"Doubles\" [x] (* 2 x)) (def y (dbl 2))\n```",
            &mut mem,
            &data,
            &mut tools,
            &limits,
        );
        assert!(t.record.success);
        assert_eq!(t.record.result.as_deref(), Some("#'y"));
        assert_eq!(t.record.definitions[0].kind, DefinitionKind::Function);
        assert_eq!(t.record.definitions[0].return_type.as_deref(), Some("integer"));
        assert_eq!(t.record.definitions[1].value.as_deref(), Some("4"));
        let t = execute_turn(2, "(do (def z 1) (nope))", &mut mem, &data, &mut tools, &limits);
        assert!(!t.record.success);
        assert_eq!(t.record.error.as_ref().unwrap().kind, "unbound_symbol");
        assert!(mem.get("z").is_none() && mem.get("y").is_some());
        // A last form that only equals a definition is a value, not the var.
        let t = execute_turn(2, "```clojure\n(def w 4) w\n```", &mut mem, &data, &mut tools, &limits);
        assert_eq!(t.record.result.as_deref(), Some("4"));
        let t = execute_turn(3, "no code here", &mut mem, &data, &mut tools, &limits);
        assert_eq!(t.record.error.as_ref().unwrap().message, NO_CODE_MESSAGE);
        let t = execute_turn(4, "(return (dbl y))", &mut mem, &data, &mut tools, &limits);
        assert!(matches!(t.exit, TurnExit::Return(ref v) if v == "8"));
    }
}
