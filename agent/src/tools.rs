//! The tools a program can call: external commands configured in
//! `[tool.NAME]` tables, tools of MCP servers (`[mcp.NAME]`, see
//! [`crate::mcp`]), a few built-in example tools used by the demos, and the
//! tools the run answers itself (agents as tools, `llm-query`: see
//! [`crate::nested`]).
//!
//! A command tool gets the JSON arguments on stdin and answers with JSON on
//! stdout. A non-zero exit, a timeout or output that is not JSON becomes a
//! `tool` error inside the turn; the run goes on. A tool with a signature
//! has its arguments checked before the call and its result after it
//! ([`crate::contract`]); a mismatch is a `tool` error naming the argument.
//!
//! A tool with `cache = true` answers identical arguments (the same map,
//! whatever its key order) from the result recorded earlier in the run;
//! only successful results are kept. [`Tools::take_notes`] tells the run
//! which calls were answered so, to mark them in the turn record.

use crate::location::Location;
use ptc_lisp::{ToolError, ToolErrorKind, ToolHost};
use ptc_registry::pipe::{Capped, Keep};
use ptc_signature::{kebab_case, Signature};
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(feature = "mcp")]
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A `[tool.NAME]` table: an external command speaking JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolConfig {
    /// The tool name.
    pub name: String,
    /// Program and arguments; JSON args on stdin, JSON result on stdout.
    pub command: Vec<String>,
    /// Signature shown to the model, e.g. `(id :int) -> :map`.
    pub signature: Option<String>,
    /// Description shown to the model.
    pub description: Option<String>,
    /// Kill the command after this long (default 10,000 ms).
    pub timeout_ms: u64,
    /// Identical arguments within a run get the recorded result (`cache = true`).
    pub cache: bool,
    /// The folder the command runs in (the config file's folder).
    pub dir: PathBuf,
    /// Where the table is.
    pub location: Location,
}

/// Names of the built-in example tools.
pub const BUILTIN_NAMES: [&str; 3] = ["customer", "fx-rate", "inventory"];

/// A built-in tool: its name, signature, description and implementation.
#[derive(Clone, Copy)]
pub struct Builtin {
    /// Tool name.
    pub name: &'static str,
    /// Signature shown to the model.
    pub signature: &'static str,
    /// Description shown to the model.
    pub description: &'static str,
    call: fn(&Json) -> Result<Json, String>,
}

/// The built-in tool `name`, if there is one.
pub fn builtin(name: &str) -> Option<Builtin> {
    let b = match name {
        "customer" => Builtin {
            name: "customer",
            signature: "(id :int) -> {id :int, name :string, tier :string, country :string}",
            description: "Customer record by id (ids 1-6)",
            call: customer,
        },
        "fx-rate" => Builtin {
            name: "fx-rate",
            signature: "(from :string, to :string) -> :float",
            description: "Exchange rate between two currencies (EUR, USD, GBP, JPY)",
            call: fx_rate,
        },
        "inventory" => Builtin {
            name: "inventory",
            signature: "(sku :string) -> {sku :string, stock :int, warehouse :string}",
            description: "Stock level of a product by SKU",
            call: inventory,
        },
        _ => return None,
    };
    Some(b)
}

const CUSTOMERS: [(i64, &str, &str, &str); 6] = [
    (1, "Ada Lovelace", "gold", "GB"),
    (2, "Grace Hopper", "silver", "US"),
    (3, "Alan Turing", "gold", "GB"),
    (4, "Emmy Noether", "bronze", "DE"),
    (5, "Kurt Goedel", "silver", "AT"),
    (6, "Hedy Lamarr", "gold", "US"),
];

fn customer(args: &Json) -> Result<Json, String> {
    let id = args.get("id").and_then(Json::as_i64).ok_or("expects {:id <integer>}")?;
    let (id, name, tier, country) =
        CUSTOMERS.iter().find(|c| c.0 == id).ok_or_else(|| format!("no customer with id {id}"))?;
    Ok(json!({"id": id, "name": name, "tier": tier, "country": country}))
}

fn fx_rate(args: &Json) -> Result<Json, String> {
    let per_usd = |c: &str| match c {
        "USD" => Some(1.0_f64),
        "EUR" => Some(0.92),
        "GBP" => Some(0.79),
        "JPY" => Some(150.0),
        _ => None,
    };
    let from = args.get("from").and_then(Json::as_str).ok_or("expects {:from \"EUR\" :to \"USD\"}")?;
    let to = args.get("to").and_then(Json::as_str).ok_or("expects {:from \"EUR\" :to \"USD\"}")?;
    let (f, t) = (per_usd(from), per_usd(to));
    match (f, t) {
        (Some(f), Some(t)) => Ok(json!(((t / f) * 10_000.0).round() / 10_000.0)),
        _ => Err(format!("unknown currency in {from}->{to} (known: EUR, USD, GBP, JPY)")),
    }
}

fn inventory(args: &Json) -> Result<Json, String> {
    let sku = args.get("sku").and_then(Json::as_str).ok_or("expects {:sku \"...\"}")?;
    let (stock, warehouse) = match sku {
        "LAP-1" => (4, "Berlin"),
        "MOU-2" => (0, "Berlin"),
        "KEY-3" => (37, "Leeds"),
        "MON-4" => (2, "Leeds"),
        "CAB-5" => (120, "Austin"),
        _ => return Err(format!("unknown sku {sku}")),
    };
    Ok(json!({"sku": sku, "stock": stock, "warehouse": warehouse}))
}

/// A tool of an MCP server, as an agent sees it.
#[cfg(feature = "mcp")]
#[derive(Clone)]
pub struct McpTool {
    /// `SERVER.TOOL`: what the program calls (`tool/SERVER.TOOL`).
    pub name: String,
    /// The tool as the server listed it (its own name, signature, description).
    pub tool: ptc_mcp::McpTool,
    /// The running server.
    pub server: Arc<ptc_mcp::McpServer>,
    /// Whether identical arguments get the recorded result.
    pub cache: bool,
}

/// A tool the run answers itself ([`crate::nested`]): how it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTool {
    /// The name the program calls.
    pub name: String,
    /// Signature shown to the model.
    pub signature: String,
    /// Description shown to the model.
    pub description: String,
}

/// One tool the host offers.
#[derive(Clone)]
pub enum Tool {
    /// A built-in example tool.
    Builtin(Builtin),
    /// An external command.
    Command(ToolConfig),
    /// A tool of an MCP server.
    #[cfg(feature = "mcp")]
    Mcp(McpTool),
    /// An agent as a tool, or `llm-query`: answered by the run, not here.
    Run(RunTool),
}

impl Tool {
    /// The tool name.
    pub fn name(&self) -> &str {
        match self {
            Tool::Builtin(b) => b.name,
            Tool::Command(c) => &c.name,
            #[cfg(feature = "mcp")]
            Tool::Mcp(m) => &m.name,
            Tool::Run(r) => &r.name,
        }
    }
    /// Signature shown to the model.
    pub fn signature(&self) -> Option<String> {
        match self {
            Tool::Builtin(b) => Some(b.signature.to_string()),
            Tool::Command(c) => c.signature.clone(),
            #[cfg(feature = "mcp")]
            Tool::Mcp(m) => Some(m.tool.signature.clone()),
            Tool::Run(r) => Some(r.signature.clone()),
        }
    }
    /// Description shown to the model.
    pub fn description(&self) -> Option<String> {
        match self {
            Tool::Builtin(b) => Some(b.description.to_string()),
            Tool::Command(c) => c.description.clone(),
            #[cfg(feature = "mcp")]
            Tool::Mcp(m) => m.tool.description.clone(),
            Tool::Run(r) => Some(r.description.clone()),
        }
    }
    /// Whether identical arguments within a run get the recorded result.
    pub fn caches(&self) -> bool {
        match self {
            Tool::Command(c) => c.cache,
            #[cfg(feature = "mcp")]
            Tool::Mcp(m) => m.cache,
            Tool::Builtin(_) | Tool::Run(_) => false,
        }
    }
}

/// Something the turn record notes about one call beyond its result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallNote {
    /// Tool name.
    pub name: String,
    /// The arguments, canonical ([`canonical_args`]): how a note finds its call record.
    pub args: String,
    /// Answered from the result cache.
    pub cached: bool,
    /// The session file of a nested run, relative to the parent's folder.
    pub session: Option<String>,
    /// Model usage spent inside the call (a nested run's total, an `llm-query` call).
    pub usage: Option<ptc_session::Usage>,
}

/// The tools of one agent.
#[derive(Default)]
pub struct Tools {
    tools: Vec<Tool>,
    /// Per tool, the parameter names its signature declares (parsed once).
    declared: Vec<Vec<String>>,
    /// Per tool, its parsed signature (the config checked it parses).
    signatures: Vec<Option<Signature>>,
    /// Successful results of caching tools, by name and canonical arguments.
    cache: Mutex<HashMap<(String, String), Json>>,
    /// Notes of the calls since the last [`Tools::take_notes`].
    notes: Mutex<Vec<CallNote>>,
}

impl Tools {
    /// Tools in the order offered.
    pub fn new(tools: Vec<Tool>) -> Tools {
        let signatures: Vec<Option<Signature>> =
            tools.iter().map(|t| t.signature().and_then(|s| Signature::parse(&s).ok())).collect();
        let declared = signatures
            .iter()
            .map(|s| s.iter().flat_map(|s| s.params.iter().map(|p| p.name.clone())).collect())
            .collect();
        Tools { tools, declared, signatures, ..Tools::default() }
    }
    /// Tools in order.
    pub fn list(&self) -> &[Tool] {
        &self.tools
    }
    /// The notes of the calls since the last take (cache hits, nested runs).
    pub fn take_notes(&self) -> Vec<CallNote> {
        std::mem::take(&mut *self.notes.lock().unwrap_or_else(|e| e.into_inner()))
    }
    /// Adds a note for a call (the run notes its nested runs here).
    pub fn note(&self, note: CallNote) {
        self.notes.lock().unwrap_or_else(|e| e.into_inner()).push(note);
    }
}

/// The arguments as one string that equal maps share whatever their key
/// order (keys sorted at every level).
pub fn canonical_args(args: &Json) -> String {
    fn sorted(v: &Json) -> Json {
        match v {
            Json::Object(map) => {
                let mut entries: Vec<(&String, &Json)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                Json::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect())
            }
            Json::Array(items) => Json::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(args).to_string()
}

/// The parameter names a signature declares; none when it does not parse.
pub fn declared_names(signature: Option<&str>) -> Vec<String> {
    let parsed = signature.and_then(|s| Signature::parse(s).ok());
    parsed.map(|s| s.params.into_iter().map(|p| p.name).collect()).unwrap_or_default()
}

/// The prompt shows parameter names in kebab-case (`weight_kg` as
/// `weight-kg`), so the model may send either spelling: a key that is not a
/// declared name but spells one in another case becomes the declared name.
pub fn declared_arg_names(declared: &[String], args: Json) -> Json {
    let Json::Object(map) = args else { return args };
    if declared.is_empty() {
        return Json::Object(map);
    }
    map.into_iter()
        .map(|(key, value)| {
            let spelled = declared.iter().find(|d| **d != key && kebab_case(d) == kebab_case(&key));
            match spelled {
                Some(d) if !declared.contains(&key) => (d.clone(), value),
                _ => (key, value),
            }
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

impl ToolHost for Tools {
    fn call(&self, name: &str, args: Json) -> Result<Json, ToolError> {
        let started = std::time::Instant::now();
        let index = self.tools.iter().position(|t| t.name() == name);
        let key = index.filter(|&i| self.tools[i].caches()).map(|_| (name.to_string(), canonical_args(&args)));
        if let Some(key) = &key {
            let hit = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned();
            if let Some(hit) = hit {
                tracing::debug!(tool = name, %args, "tool call answered from the cache");
                self.note(CallNote { name: key.0.clone(), args: key.1.clone(), cached: true, ..CallNote::default() });
                return Ok(hit);
            }
            // Noted too, so that among identical calls the one that ran is told from the hits.
            self.note(CallNote { name: key.0.clone(), args: key.1.clone(), ..CallNote::default() });
        }
        let args = match index {
            Some(i) => declared_arg_names(&self.declared[i], args),
            None => args,
        };
        let signature = index.and_then(|i| self.signatures[i].as_ref());
        let checked = signature.map_or(Ok(()), |s| crate::contract::check_call(name, s, &args));
        let checked = checked.map_err(|m| ToolError::new(ToolErrorKind::BadArguments, m));
        let result = checked.and_then(|()| match index.map(|i| &self.tools[i]) {
            Some(Tool::Builtin(b)) => (b.call)(&args).map_err(ToolError::failed),
            Some(Tool::Command(c)) => run_command(c, &args),
            #[cfg(feature = "mcp")]
            Some(Tool::Mcp(m)) => {
                m.server.call(&m.tool.name, args.clone()).map_err(|e| ToolError::failed(e.to_string()))
            }
            Some(Tool::Run(r)) => {
                Err(ToolError::failed(format!("`{}` is answered by the run, not by the tool table", r.name)))
            }
            None => {
                let names: Vec<&str> = self.tools.iter().map(Tool::name).collect();
                let message = format!("no tool named `{name}` (available: {})", names.join(", "));
                Err(ToolError::new(ToolErrorKind::UnknownTool, message))
            }
        });
        let result = match (result, signature) {
            (Ok(value), Some(s)) => crate::contract::check_result(s, &value)
                .map(|()| value)
                .map_err(|m| ToolError::new(ToolErrorKind::BadResult, m)),
            (result, _) => result,
        };
        if let (Some(key), Ok(value)) = (key, &result) {
            self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(key, value.clone());
        }
        let elapsed_ms = started.elapsed().as_millis() as u64;
        match &result {
            Ok(_) => tracing::debug!(tool = name, %args, elapsed_ms, "tool call"),
            Err(e) => tracing::debug!(tool = name, %args, elapsed_ms, error = %e, "tool call failed"),
        }
        result
    }
}

/// The command tools running now, by call: each call polls its child
/// here, so [`stop_children_for_exit`] can kill every one not yet reaped.
static RUNNING: Mutex<Vec<(u64, Child)>> = Mutex::new(Vec::new());

/// Numbers the calls in [`RUNNING`].
static CALLS: AtomicU64 = AtomicU64::new(0);

/// Kills every command tool still running, for a process about to exit
/// (ptc interrupted by Ctrl-C or SIGTERM): a tool's timeout is enforced by
/// the call waiting on it, so a tool left behind would run on unbounded.
/// From then on no command tool call ends or starts (their list stays
/// locked), so none of the killed calls is recorded as a failed turn: the
/// turn in flight runs again on resume. Every stdio MCP server is killed
/// too ([`ptc_mcp::stop_servers_for_exit`]).
pub fn stop_children_for_exit() {
    #[cfg(feature = "mcp")]
    ptc_mcp::stop_servers_for_exit();
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    for (_, child) in running.iter_mut() {
        if let Ok(None) = child.try_wait() {
            kill_command(child);
        }
    }
    std::mem::forget(running);
}

/// The name [`stop_children_for_exit`] had when it stopped command tools
/// only; it stops the stdio MCP servers too.
#[deprecated(since = "0.10.0", note = "use `stop_children_for_exit`, which also stops the stdio MCP servers")]
pub fn stop_commands_for_exit() {
    stop_children_for_exit()
}

/// Runs `f` on call `id`'s child, which is in [`RUNNING`].
fn with_child<T>(id: u64, f: impl FnOnce(&mut Child) -> T) -> T {
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let (_, child) = running.iter_mut().find(|(call, _)| *call == id).expect("a running call's child is listed");
    f(child)
}

/// Takes call `id`'s child off [`RUNNING`], killing it (and what it
/// started) when `kill`.
fn end_child(id: u64, kill: bool) {
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(at) = running.iter().position(|(call, _)| *call == id) {
        let (_, mut child) = running.swap_remove(at);
        if kill {
            kill_command(&mut child);
        }
    }
}

/// Kills a command tool that has not been reaped, with every process it
/// started (`sh -c "..."` forks its commands): on Unix the tool runs as
/// the leader of its own process group, and the group is killed.
fn kill_command(child: &mut Child) {
    // The group's leader is unreaped here, so its id names no other group.
    ptc_os::kill_process_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
}

/// Runs a command tool once.
pub fn run_command(tool: &ToolConfig, args: &Json) -> Result<Json, ToolError> {
    let mut command = Command::new(&tool.command[0]);
    command.args(&tool.command[1..]).current_dir(&tool.dir).stdin(Stdio::piped()).stdout(Stdio::piped());
    // Its own process group, so that a timeout kills what it started too.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.stderr(Stdio::piped()).spawn().map_err(|e| {
        // A relative program path runs from the tool's folder, not the user's.
        let program = Path::new(&tool.command[0]);
        let note = if program.is_relative() && program.components().count() > 1 {
            format!(" (relative to {}, the config file's folder)", tool.dir.display())
        } else {
            String::new()
        };
        format!("cannot start `{}`: {e}{note}", tool.command[0])
    })?;
    let input = args.to_string();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let out_reader = Capped::spawn(stdout, MAX_TOOL_OUTPUT_BYTES, Keep::Head);
    let err_reader = Capped::spawn(stderr, MAX_TOOL_STDERR_BYTES, Keep::Head);
    let deadline = Instant::now() + Duration::from_millis(tool.timeout_ms);
    let id = CALLS.fetch_add(1, Ordering::Relaxed);
    RUNNING.lock().unwrap_or_else(|e| e.into_inner()).push((id, child));
    let status = loop {
        match with_child(id, Child::try_wait) {
            Ok(Some(status)) => break status,
            Ok(None) if out_reader.over() => {
                end_child(id, true);
                let _ = writer.join();
                return Err(too_much_output());
            }
            Ok(None) if Instant::now() >= deadline => {
                end_child(id, true);
                return Err(ToolError::new(ToolErrorKind::Timeout, format!("timed out after {} ms", tool.timeout_ms)));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => {
                end_child(id, true);
                return Err(format!("cannot wait for the command: {e}").into());
            }
        }
    };
    end_child(id, false);
    let _ = writer.join();
    let ((out, flooded), (err, _)) = (out_reader.join(), err_reader.join());
    if flooded {
        return Err(too_much_output());
    }
    if !status.success() {
        let stderr = String::from_utf8_lossy(&err);
        let stderr = stderr.trim();
        let code = status.code().map_or("a signal".to_string(), |c| format!("status {c}"));
        return Err(ToolError::failed(if stderr.is_empty() {
            format!("exited with {code}")
        } else {
            format!("exited with {code}: {}", cut(stderr, 500))
        }));
    }
    serde_json::from_slice(&out).map_err(|e| {
        let text = String::from_utf8_lossy(&out);
        ToolError::failed(format!("printed invalid JSON ({e}): {}", cut(text.trim(), 200)))
    })
}

/// A command tool printed more than [`MAX_TOOL_OUTPUT_BYTES`].
fn too_much_output() -> ToolError {
    let message = format!(
        "printed more than {} MiB on stdout (the tool output limit, MAX_TOOL_OUTPUT_BYTES), so it was stopped: \
         have it return less, e.g. a page or a summary",
        MAX_TOOL_OUTPUT_BYTES >> 20
    );
    ToolError::new(ToolErrorKind::Failed, message)
}

/// The most a command tool may print on stdout (its JSON result): 16 MiB.
/// A tool that prints more is stopped and the call fails, instead of the
/// run holding all of it in memory until the tool's time limit.
pub const MAX_TOOL_OUTPUT_BYTES: usize = 16 << 20;

/// The most of a command tool's stderr kept (for a failed call's message):
/// 64 KiB; the rest is read and dropped.
pub const MAX_TOOL_STDERR_BYTES: usize = 64 << 10;

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(command: &[&str], timeout_ms: u64) -> ToolConfig {
        ToolConfig {
            name: "t".into(),
            command: command.iter().map(|s| s.to_string()).collect(),
            signature: None,
            description: None,
            timeout_ms,
            cache: false,
            dir: PathBuf::from("."),
            location: Location { file: PathBuf::from("x"), line: 1, column: 1 },
        }
    }

    #[test]
    fn a_tool_that_prints_without_end_is_stopped_at_the_output_limit() {
        // `yes` prints forever: the call fails at 16 MiB, long before its time limit.
        let e = run_command(&tool(&["yes"], 60_000), &json!({})).unwrap_err();
        assert_eq!(e.kind, ToolErrorKind::Failed);
        assert!(e.message.starts_with("printed more than 16 MiB on stdout (the tool output limit"), "{e:?}");
        // So is one that prints too much at once and exits.
        let e = run_command(&tool(&["sh", "-c", "head -c 17000000 /dev/zero"], 60_000), &json!({})).unwrap_err();
        assert!(e.message.starts_with("printed more than 16 MiB"), "{e:?}");
        // A flood of stderr is drained and cut, and the result still counts.
        let noisy = tool(&["sh", "-c", "head -c 5000000 /dev/zero >&2; echo '{\"ok\": 1}'"], 60_000);
        assert_eq!(run_command(&noisy, &json!({})), Ok(json!({"ok": 1})));
    }

    #[test]
    fn command_tools_speak_json_and_fail_cleanly() {
        let args = json!({"a": 1});
        assert_eq!(run_command(&tool(&["cat"], 5000), &args), Ok(args.clone()));
        let e = run_command(&tool(&["sh", "-c", "echo bad >&2; exit 3"], 5000), &args).unwrap_err();
        assert_eq!(e, ToolError::failed("exited with status 3: bad"));
        let e = run_command(&tool(&["sh", "-c", "echo nope"], 5000), &args).unwrap_err();
        assert!(e.message.starts_with("printed invalid JSON"), "{e}");
        let e = run_command(&tool(&["sleep", "5"], 100), &args).unwrap_err();
        assert_eq!(e, ToolError::new(ToolErrorKind::Timeout, "timed out after 100 ms"));
        let e = run_command(&tool(&["/no/such/program"], 100), &args).unwrap_err();
        assert!(e.message.starts_with("cannot start"), "{e}");
    }

    #[test]
    fn builtins_answer_and_reject_bad_args() {
        let tools = Tools::new(BUILTIN_NAMES.iter().map(|n| Tool::Builtin(builtin(n).unwrap())).collect());
        assert_eq!(tools.call("customer", json!({"id": 3})).unwrap()["name"], "Alan Turing");
        assert_eq!(tools.call("customer", json!({"id": 9})).unwrap_err(), ToolError::failed("no customer with id 9"));
        assert_eq!(tools.call("fx-rate", json!({"from": "USD", "to": "EUR"})).unwrap(), json!(0.92));
        assert_eq!(tools.call("inventory", json!({"sku": "KEY-3"})).unwrap()["stock"], 37);
        let e = tools.call("nope", json!({})).unwrap_err();
        assert!(e.message.starts_with("no tool named `nope`") && e.kind == ToolErrorKind::UnknownTool, "{e:?}");
    }

    #[test]
    fn kebab_case_arg_names_reach_the_tool_as_declared() {
        let signature = "(weight_kg :int, country :string, maxDays :int?) -> :map";
        let sig = &declared_names(Some(signature));
        let sent = json!({"weight-kg": 2, "country": "GB", "max-days": 3, "extra": true});
        assert_eq!(
            declared_arg_names(sig, sent),
            json!({"weight_kg": 2, "country": "GB", "maxDays": 3, "extra": true})
        );
        // Declared spellings, unparsable signatures and non-maps pass unchanged.
        assert_eq!(declared_arg_names(sig, json!({"weight_kg": 1})), json!({"weight_kg": 1}));
        assert_eq!(
            declared_arg_names(&declared_names(Some("nonsense")), json!({"weight-kg": 1})),
            json!({"weight-kg": 1})
        );
        assert_eq!(declared_arg_names(sig, json!([1, 2])), json!([1, 2]));

        // Through a command tool: it reads the declared name.
        let mut t = tool(
            &["python3", "-c", "import json,sys; print(json.dumps({'w': json.load(sys.stdin)['weight_kg']}))"],
            5000,
        );
        t.signature = Some(signature.to_string());
        let tools = Tools::new(vec![Tool::Command(t)]);
        assert_eq!(tools.call("t", json!({"weight-kg": 7, "country": "GB"})), Ok(json!({"w": 7})));
    }

    #[test]
    fn pmap_calls_command_tools_concurrently_each_within_its_timeout() {
        let mut echo = tool(&["sh", "-c", "sleep 0.2; cat"], 5000);
        echo.name = "echo".into();
        let mut hang = tool(&["sleep", "5"], 200);
        hang.name = "hang".into();
        let mut tools = Tools::new(vec![Tool::Command(echo), Tool::Command(hang)]);
        let limits = ptc_lisp::Limits { timeout: Duration::from_secs(30), ..Default::default() };
        let run = |src: &str, tools: &mut Tools| {
            ptc_lisp::run_program(src, &ptc_lisp::Memory::new(), &Default::default(), tools, &limits)
        };
        let out = run("(pmap #(:i (tool/echo {:i %})) (range 4))", &mut tools);
        assert_eq!(out.result, Ok(ptc_lisp::Exit::Value(ptc_lisp::read_edn("(0 1 2 3)").unwrap())));
        let order: Vec<String> = out.tool_calls.iter().map(|c| c.args.to_string()).collect();
        assert_eq!(order, ["{:i 0}", "{:i 1}", "{:i 2}", "{:i 3}"]);
        // Each call is killed at its own timeout: three hanging calls end together, not one after another.
        let started = Instant::now();
        let e = run("(pmap #(tool/hang {:i %}) (range 3))", &mut tools).result.unwrap_err();
        assert_eq!(e.message, "pmap: call 1 of 3 failed: tool/hang failed: timed out after 200 ms");
        assert!(started.elapsed() < Duration::from_secs(4), "no call waited for the 5 s sleep");
    }

    #[test]
    fn arguments_are_checked_before_the_call_and_results_after() {
        let dir = std::env::temp_dir().join(format!("ptc-tools-contract-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let called = dir.join("called");
        let script = format!("touch {}; echo '{{\"cost_eur\": 12.5}}'", called.display());
        let mut t = tool(&["sh", "-c", &script], 5000);
        t.signature = Some("(country :string, weight_kg :int) -> {cost_eur :int}".into());
        let tools = Tools::new(vec![Tool::Command(t)]);
        let e = tools.call("t", json!({"country": "GB", "weight-kg": "2"})).unwrap_err();
        assert!(e.message.starts_with("argument `weight_kg`: expected :int, got string \"2\""), "{e}");
        assert_eq!(e.kind, ToolErrorKind::BadArguments);
        assert!(!called.exists(), "a call with a wrong argument never reaches the command");
        let e = tools.call("t", json!({"country": "GB", "weight-kg": 2})).unwrap_err();
        assert!(called.exists());
        assert_eq!(
            e,
            ToolError::new(
                ToolErrorKind::BadResult,
                "its result does not match its signature (-> {cost_eur :int}): at $.cost_eur: expected :int, got float 12.5"
            )
        );
        // Through a program: the error the model sees names the tool.
        let out = ptc_lisp::run_program(
            "(tool/t {:country \"GB\" :weight-kg :two})",
            &ptc_lisp::Memory::new(),
            &Default::default(),
            &mut { tools },
            &ptc_lisp::Limits::default(),
        );
        let message = out.result.unwrap_err().message;
        assert!(
            message.starts_with("tool/t failed: argument `weight_kg`: expected :int, got string \"two\""),
            "{message}"
        );
    }

    #[test]
    fn every_builtin_signature_parses() {
        for name in BUILTIN_NAMES {
            let b = builtin(name).unwrap();
            assert!(Signature::parse(b.signature).is_ok(), "{name}: {}", b.signature);
        }
    }
}
