//! The agent loop: [`AgentRun::prepare`] sets a run up (agent, tools, data,
//! policy, session journal, memory on resume); [`AgentRun::turn`] does one
//! turn.
//!
//! One turn: render the prompt from the live [`RenderRequest`] through the
//! [`Policy`], ask the model, extract and run the program (memory carried
//! over, rolled back on error), record the turn ([`ptc_session::record_turn`]),
//! append it to the journal and to the live request. Nothing earlier is
//! re-read or rewritten, so a turn costs what the turn holds.

use crate::budget::{Budget, Reservation, Spent};
use crate::config::Agent;
use crate::config::{ToolRef, LLM_QUERY};
use crate::contract::{check_return, expected_output_section, return_feedback};
use crate::costing::Costing;
use crate::inputs::{self, InputError};
use crate::location::Location;
use crate::mcp::{McpError, McpServers};
use crate::nested::{Nesting, RunTools, SpentInside, SubAgents, SubRun};
use crate::policy::{Policy, PolicyError};
use crate::progress::{Event, Observer, TurnLabel};
use crate::resolve::{agent_token_counter, LookupError, Resolved};
use crate::run_limits::{Counted, Deadline, Stop};
use crate::tools::{builtin, canonical_args, CallNote, Tool, Tools};
use indexmap::IndexMap;
use ptc_cost::PriceModel;
use ptc_lisp::{json_to_value, run_program_with, Exit, Limits, Memory, RunOptions as LispOptions, Value};
use ptc_llm::{self as llm, feedback, FinishReason, Llm, LlmConfig, LlmError, LlmReply, Prompt};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_plugin_api::{ErrorKind, RenderRequest};
use ptc_session::{
    edn, message_records, record_turn, End, ErrorRecord, Journal, JournalError, RecordedTurn, RenderStats, ReplayError,
    RunStatus, Session, SessionError, ToolRecord, TurnErrorKind, TurnExit,
};
use ptc_tokens::TokenCounter;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

/// The built-in system prompt: a PTC-Lisp language card, identical every turn.
pub const SYSTEM_PROMPT: &str = ptc_lisp::LANGUAGE_CARD;

/// Where a run writes and what it continues.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions<'a> {
    /// Where to write the session (default: the resume file, else `AGENT.session.jsonl`).
    pub session_out: Option<&'a Path>,
    /// A session file of an interrupted run to continue.
    pub resume: Option<&'a Path>,
    /// Named inputs, `NAME=VALUE` each (`ptc run --arg`); on a resume
    /// without them, the session's recorded inputs.
    pub args: &'a [String],
}

impl RunOptions<'_> {
    /// The session file a run of `agent` writes: `session_out`, else the
    /// resumed file, else `AGENT.session.jsonl` in the current folder.
    pub fn session_path(&self, agent: &str) -> PathBuf {
        self.session_out
            .or(self.resume)
            .map_or_else(|| PathBuf::from(format!("{agent}.session.jsonl")), Path::to_path_buf)
    }
}

/// Why a run could not start or go on. Every variant names what and where.
#[derive(Debug)]
pub enum RunError {
    /// No `[agent.NAME]` with that name.
    NoAgent {
        /// The config file.
        config: PathBuf,
        /// The name asked for.
        name: String,
        /// The agents defined.
        defined: Vec<String>,
    },
    /// The agent lacks a setting `ptc run` needs.
    Missing {
        /// Where the agent is configured.
        location: Location,
        /// The agent.
        agent: String,
        /// What is missing, as it is written in the config.
        what: &'static str,
    },
    /// A file the agent's config names does not exist.
    MissingFile {
        /// Where the agent is configured.
        location: Location,
        /// The agent.
        agent: String,
        /// Which file (`replay file`, `data `orders``).
        what: String,
        /// The path, resolved.
        path: PathBuf,
    },
    /// A named input is missing, unknown or of the wrong type (found
    /// before any model call).
    Input {
        /// The agent.
        agent: String,
        /// What is wrong.
        error: InputError,
    },
    /// An input data file could not be read as JSON.
    Data {
        /// The agent.
        agent: String,
        /// The data name.
        name: String,
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The agent's `token_encoding` is unknown.
    Encoding {
        /// Where the agent is configured.
        location: Location,
        /// The agent.
        agent: String,
        /// The tokenizer's error.
        message: String,
    },
    /// The agent's strategy or a fallback cannot be used.
    Strategy {
        /// The agent.
        agent: String,
        /// Why.
        error: LookupError,
    },
    /// The model backend could not be set up.
    Backend {
        /// Where the agent is configured.
        location: Location,
        /// The agent.
        agent: String,
        /// Why.
        error: LlmError,
    },
    /// The agent's price model cannot be used.
    Pricing {
        /// Where the agent is configured.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// The session to resume cannot be read.
    Session {
        /// The file.
        path: PathBuf,
        /// Where in it and what.
        error: SessionError,
    },
    /// The session to resume was written by another agent or mission.
    NotThisAgent {
        /// The file.
        path: PathBuf,
        /// The agent asked for.
        agent: String,
    },
    /// The resumed session's memory could not be rebuilt.
    Replay {
        /// The file.
        path: PathBuf,
        /// Which turn failed.
        error: ReplayError,
    },
    /// The session file could not be written.
    Journal(JournalError),
    /// No prompt could be rendered for a turn.
    Render {
        /// The turn.
        turn: u32,
        /// Why.
        error: PolicyError,
        /// The session so far.
        path: PathBuf,
    },
    /// An MCP server of the agent did not start, or lacks a tool the agent names.
    Mcp(McpError),
    /// The model call failed (after its retries).
    Llm {
        /// The turn.
        turn: u32,
        /// Why.
        error: LlmError,
        /// The session so far.
        path: PathBuf,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::NoAgent { config, name, defined } => {
                let hint = ptc_lisp::did_you_mean(name, defined.iter().map(String::as_str));
                write!(f, "{}: no agent named `{name}` (defined: {}){hint}", config.display(), defined.join(", "))
            }
            RunError::Missing { location, agent, what } => write!(f, "{location}: agent `{agent}` has no `{what}`"),
            RunError::MissingFile { location, agent, what, path } => {
                let note = crate::config::missing_path_note(&location.file, path);
                write!(f, "{location}: agent `{agent}`: {what} {} does not exist{note}", path.display())
            }
            RunError::Input { agent, error } => write!(f, "agent `{agent}`: {error}"),
            RunError::Data { agent, name, path, message } => {
                write!(f, "agent `{agent}`: data `{name}`: {}: {message}", path.display())
            }
            RunError::Encoding { location, agent, message } => write!(f, "{location}: agent `{agent}`: {message}"),
            RunError::Strategy { agent, error } => write!(f, "agent `{agent}`: {error}"),
            RunError::Backend { location, agent, error } => write!(f, "{location}: agent `{agent}`: {error}"),
            RunError::Pricing { location, message } => write!(f, "{location}: pricing: {message}"),
            RunError::Session { path, error } => write!(f, "{}: {error}", path.display()),
            RunError::NotThisAgent { path, agent } => {
                write!(f, "{}: this session is not a run of agent `{agent}`", path.display())
            }
            RunError::Replay { path, error } => write!(f, "{}: {error}", path.display()),
            RunError::Journal(e) => e.fmt(f),
            RunError::Render { turn, error, path } => write!(f, "turn {turn}: {error}{}", so_far(path)),
            RunError::Mcp(e) => e.fmt(f),
            RunError::Llm { turn, error, path } => write!(f, "turn {turn}: llm: {error}{}", so_far(path)),
        }
    }
}

/// Where the finished turns of a stopped run are, and how to go on from them.
fn so_far(path: &Path) -> String {
    format!(" (session so far in {0}; `ptc run --resume {0}` goes on from it)", path.display())
}

impl std::error::Error for RunError {}

impl From<JournalError> for RunError {
    fn from(e: JournalError) -> RunError {
        RunError::Journal(e)
    }
}

/// The end of a run.
#[derive(Debug)]
pub struct RunResult {
    /// The session as written.
    pub session: Session,
    /// Where it was written.
    pub path: PathBuf,
}

/// Whether the run goes on after a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Another turn is due.
    Continue,
    /// The run is over (returned, failed, out of turns, or already finished).
    Finished,
}

/// A run in progress: everything one turn needs, built once.
pub struct AgentRun<'r> {
    agent: &'r Agent,
    policy: Policy<'r>,
    tools: Tools,
    data: IndexMap<String, Value>,
    limits: Limits,
    memory: Memory,
    session: Session,
    /// The request of the next turn: the session's turns as ABI values,
    /// appended to as turns finish, never rebuilt.
    request: RenderRequest,
    journal: Journal,
    tokens_so_far: u64,
    /// Each prompt's cost under the agent's price model.
    costing: Costing,
    /// Each prompt's cost under the price models of budgets above this
    /// run that differ from its own (made when first asked).
    costing_above: Vec<Costing>,
    /// The budgets' charge for the prompt being sent, settled when its
    /// turn is recorded.
    reserved: Option<Reservation>,
    /// Tool calls the run has made (the recorded ones on a resume).
    tool_calls: u64,
    /// When `run_timeout_ms` ends the run.
    deadline: Deadline,
    /// The config, for agents used as tools.
    resolved: &'r Resolved,
    /// Where this run sits in a chain of agents used as tools.
    nesting: Nesting,
    /// `llm-query` calls so far.
    queries: AtomicUsize,
    /// The model settings last recorded in the session (`usage.llm`).
    llm_settings: Option<serde_json::Value>,
}

/// The `[agent.NAME]` of `name`.
pub fn find_agent<'c>(resolved: &'c Resolved, name: &str) -> Result<&'c Agent, RunError> {
    let config = &resolved.config;
    config.agents.get(name).ok_or_else(|| RunError::NoAgent {
        config: config.path.clone(),
        name: name.to_string(),
        defined: config.agents.keys().cloned().collect(),
    })
}

/// Runs agent `name` with the model backend of its config.
pub fn run(
    resolved: &Resolved,
    name: &str,
    options: RunOptions<'_>,
    observer: &mut dyn Observer,
) -> Result<RunResult, RunError> {
    let agent = find_agent(resolved, name)?;
    let llm_config = agent.llm.as_ref().ok_or_else(|| missing(agent, "llm = {...}"))?;
    if let LlmConfig::Replay { file } = llm_config {
        missing_file(agent, "replay file", file)?;
    }
    let done = match options.resume {
        Some(path) => read_session(path)?.turns.len(),
        None => 0,
    };
    let mut llm = llm::from_config(llm_config, done).map_err(|error| RunError::Backend {
        location: agent.location.clone(),
        agent: agent.name.clone(),
        error,
    })?;
    run_with(resolved, name, options, llm.as_mut(), observer)
}

/// Runs agent `name` with the given model (tests inject one).
pub fn run_with(
    resolved: &Resolved,
    name: &str,
    options: RunOptions<'_>,
    llm: &mut dyn Llm,
    observer: &mut dyn Observer,
) -> Result<RunResult, RunError> {
    let mut run = AgentRun::prepare(resolved, name, options)?;
    if let Some(status) = run.session.status {
        observer.event(&Event::AlreadyFinished { status });
        return Ok(run.finish());
    }
    while run.turn(llm, observer)? == Step::Continue {}
    Ok(run.finish())
}

fn missing(agent: &Agent, what: &'static str) -> RunError {
    RunError::Missing { location: agent.location.clone(), agent: agent.name.clone(), what }
}

/// `Err` naming `path` when it does not exist.
fn missing_file(agent: &Agent, what: &str, path: &Path) -> Result<(), RunError> {
    if path.exists() {
        return Ok(());
    }
    Err(RunError::MissingFile {
        location: agent.location.clone(),
        agent: agent.name.clone(),
        what: what.to_string(),
        path: path.to_path_buf(),
    })
}

fn read_session(path: &Path) -> Result<Session, RunError> {
    Session::read(path).map_err(|error| RunError::Session { path: path.to_path_buf(), error })
}

impl<'r> AgentRun<'r> {
    /// Sets up a run of agent `name`: a new session, or the one in
    /// `options.resume` with its memory rebuilt and its trigger latch restored.
    pub fn prepare(resolved: &'r Resolved, name: &str, options: RunOptions<'_>) -> Result<AgentRun<'r>, RunError> {
        let agent = find_agent(resolved, name)?;
        let nesting = Nesting::top(&agent.name, agent.max_agent_depth);
        AgentRun::prepare_nested(resolved, name, options, serde_json::Map::new(), nesting)
    }

    /// [`AgentRun::prepare`] for a run inside another (an agent used as a
    /// tool): the call's arguments join its data, `nesting` is the chain
    /// down to it.
    pub fn prepare_nested(
        resolved: &'r Resolved,
        name: &str,
        options: RunOptions<'_>,
        arguments: serde_json::Map<String, serde_json::Value>,
        mut nesting: Nesting,
    ) -> Result<AgentRun<'r>, RunError> {
        let agent = find_agent(resolved, name)?;
        let deadline = Deadline::start(&agent.run_limits);
        let mission = agent.mission.clone().ok_or_else(|| missing(agent, "mission = \"...\""))?;
        let limits = agent.limits.to_limits();
        let resumed = options.resume.map(read_session).transpose()?;
        let input_error = |error| RunError::Input { agent: agent.name.clone(), error };
        let signature = agent.contract.as_ref().map(|c| &c.signature);
        let inputs = match &resumed {
            Some(session) if options.args.is_empty() => inputs::from_session(&session.inputs).map_err(input_error)?,
            _ => inputs::read_args(options.args, signature).map_err(input_error)?,
        };
        let mission = inputs::template(&mission, &inputs);
        let tools = Tools::new(agent_tools(resolved, agent)?);
        let mut data = read_data(agent)?;
        data.extend(inputs.iter().map(|(k, v)| (k.clone(), v.clone())));
        data.extend(arguments.iter().map(|(k, v)| (k.clone(), json_to_value(v))));
        let counter = agent_counter(agent)?;
        let mut policy = Policy::for_agent(resolved, agent, counter)
            .map_err(|error| RunError::Strategy { agent: agent.name.clone(), error })?;

        let (session, memory, journal) = match options.resume.zip(resumed) {
            Some((resume, mut session)) => {
                if session.agent.as_deref() != Some(agent.name.as_str()) || session.mission != mission {
                    return Err(RunError::NotThisAgent { path: resume.to_path_buf(), agent: agent.name.clone() });
                }
                let memory = session
                    .rebuild_memory(&data, &limits)
                    .map_err(|error| RunError::Replay { path: resume.to_path_buf(), error })?;
                // An interrupted run, or one a limit stopped (raised since,
                // or a new wall clock): go on. Limits are checked again.
                if matches!(session.status, Some(RunStatus::Error | RunStatus::Limit)) {
                    (session.status, session.reason, session.detail) = (None, None, None);
                }
                let out = options.session_path(&agent.name);
                // A journal resumed in place is appended to; anything else
                // (another file, a `ptc-session/1` document) is rewritten once.
                let in_place = out == resume && session.format == ptc_session::JOURNAL_FORMAT;
                // Written elsewhere, its calls still name their nested runs.
                session.moved(resume, &out);
                let journal =
                    if in_place { Journal::append(&out, &session)? } else { Journal::create(&out, &session)? };
                (session, memory, journal)
            }
            None => {
                let mut system_prompt =
                    agent.system_prompt.clone().unwrap_or_else(|| ptc_lisp::language_card(agent.namespace_fallback));
                if let Some(contract) = &agent.contract {
                    system_prompt.truncate(system_prompt.trim_end().len());
                    system_prompt.push_str("\n\n");
                    system_prompt.push_str(&expected_output_section(&contract.signature, agent.max_turns == 1));
                }
                let mut session = Session::new(mission, system_prompt, agent.max_turns);
                session.agent = Some(agent.name.clone());
                if let Some(contract) = &agent.contract {
                    session.signature = Some(contract.text.clone());
                    session.retry_turns = contract.retry_turns;
                }
                session.inputs = inputs.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
                session.tools = tools
                    .list()
                    .iter()
                    .map(|t| ToolRecord {
                        name: t.name().to_string(),
                        signature: t.signature(),
                        description: t.description(),
                    })
                    .collect();
                session.data = data.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
                let journal = Journal::create(&options.session_path(&agent.name), &session)?;
                (session, Memory::new(), journal)
            }
        };
        // A resumed run keeps its trigger latch: once the strategy took over
        // it serves every later turn (no flapping back to full-history).
        // (Files written before `switched` was recorded: the strategy served a turn.)
        let strategy_name = agent.strategy.as_deref().unwrap_or(FULL_HISTORY);
        let served_by_strategy = |s: &RenderStats| {
            s.switched == Some(true) || (strategy_name != FULL_HISTORY && s.instance.as_deref() == Some(strategy_name))
        };
        if session.turns.iter().any(|t| t.render_stats.as_ref().is_some_and(served_by_strategy)) {
            policy.restore_switch();
        }
        let request = session
            .request_for_turn(None)
            .map_err(|error| RunError::Session { path: journal.path().to_path_buf(), error })?;
        let tokens_so_far = session.turns.iter().filter_map(|t| t.prompt_tokens).sum();
        tracing::info!(agent = %agent.name, strategy = %strategy_name, turns_done = session.turns.len(), max_turns = session.max_turns, session = %journal.path().display(), "run starts");
        let model = price_model(resolved, agent)?;
        let costing = Costing::new(model.clone(), counter, &session.turns);
        // Its budget, covering the runs it starts: what its recorded turns
        // spent, and what was spent inside their calls (prompt tokens as
        // counted; the cost of the agents they ran and of their llm-query
        // prompts, read back from the records under this budget's model).
        let own_cost =
            ptc_session::CostTotals::of(&session.turns).map_or(0.0, |t| t.input_cost + t.output_cost.unwrap_or(0.0));
        let spent = Spent {
            tokens: tokens_so_far
                + (session.turns.iter().flat_map(|t| &t.tool_calls))
                    .filter_map(|c| c.usage.as_ref()?.counted_prompt_tokens)
                    .sum::<u64>(),
            cost: match agent.run_limits.max_run_cost {
                Some(_) => own_cost + SpentInside::read(&session.turns, journal.path()).cost(&model, counter),
                None => own_cost,
            },
        };
        nesting.budgets = nesting.budgets.with(Budget::new(&agent.name, agent.run_limits, model, spent));
        let tool_calls = session.turns.iter().map(|t| t.tool_calls.len() as u64).sum();
        // A replay backend answers `llm-query` calls in order: a resumed run
        // goes on after the ones its turns recorded.
        let queries = session.turns.iter().flat_map(|t| &t.tool_calls).filter(|c| c.name == LLM_QUERY).count();
        let llm_settings = session.turns.iter().rev().find_map(|t| t.usage.as_ref()?.llm.clone());
        Ok(AgentRun {
            agent,
            policy,
            tools,
            data,
            limits,
            memory,
            session,
            request,
            journal,
            tokens_so_far,
            costing,
            costing_above: Vec::new(),
            reserved: None,
            tool_calls,
            deadline,
            resolved,
            nesting,
            queries: AtomicUsize::new(queries),
            llm_settings,
        })
    }

    /// The session so far.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Where the session is written.
    pub fn path(&self) -> &Path {
        self.journal.path()
    }

    /// Ends the run.
    pub fn finish(self) -> RunResult {
        RunResult { path: self.journal.path().to_path_buf(), session: self.session }
    }

    /// Does one turn: renders, asks `llm`, runs the program, records it.
    /// A render or model failure ends the run with status `error` (it can
    /// be resumed) and is returned.
    pub fn turn(&mut self, llm: &mut dyn Llm, observer: &mut dyn Observer) -> Result<Step, RunError> {
        if self.session.status.is_some() {
            return Ok(Step::Finished);
        }
        let number = self.request.turn();
        if let Some(end) = self.end_before(number) {
            self.end_run(end)?;
            return Ok(Step::Finished);
        }
        let label = TurnLabel {
            number,
            max_turns: self.session.max_turns,
            retry_turns: self.agent.contract.as_ref().map_or(0, |c| c.retry_turns),
        };
        let mut rendered = self.render(label, observer)?;
        self.reserved = match self.reserve(number, &rendered) {
            Ok(reserved) => Some(reserved),
            Err(stop) => {
                self.end_run(limit_end(stop))?;
                return Ok(Step::Finished);
            }
        };
        let Some(reply) = self.ask(llm, label, &rendered, observer)? else { return Ok(Step::Finished) };
        observer.event(&Event::Running { turn: label });
        let executed = self.execute(number, &reply, &*llm, &mut rendered.stats);
        self.record(label, rendered, reply, executed, &*llm, observer)
    }

    /// Why the run ends before turn `number` starts: no turn left (a
    /// resumed run whose turns were all done when it stopped) or the run's
    /// deadline passed.
    fn end_before(&self, number: u32) -> Option<End> {
        if !self.allowed(number) {
            let last = self
                .session
                .turns
                .last()
                .and_then(|t| t.error.as_ref())
                .filter(|e| e.kind == TurnErrorKind::InvalidReturn);
            return Some(match last {
                Some(e) => invalid_return_end(&e.message),
                None => End::new(RunStatus::OutOfTurns),
            });
        }
        self.deadline.passed().map(limit_end)
    }

    /// Charges `rendered`, turn `number`'s prompt, to the budgets of this
    /// run and of the runs above it (`max_run_prompt_tokens`,
    /// `max_run_cost`; see [`crate::budget`]), or the limit sending it
    /// would pass.
    fn reserve(&mut self, number: u32, rendered: &RenderedTurn) -> Result<Reservation, Stop> {
        let budgets = self.nesting.budgets.clone();
        let what = format!("turn {number}'s prompt");
        budgets.reserve(&self.agent.name, &what, rendered.prompt_tokens, |model| {
            self.costing_under(model).prompt_cost(&rendered.sent)
        })
    }

    /// The costing under `model`: the run's own, or one for a budget above.
    fn costing_under(&mut self, model: &PriceModel) -> &mut Costing {
        if model.name() == self.costing.pricing() {
            return &mut self.costing;
        }
        let at = match self.costing_above.iter().position(|c| c.pricing() == model.name()) {
            Some(at) => at,
            None => {
                let costing = self.costing.under(model.clone(), &self.session.turns);
                self.costing_above.push(costing);
                self.costing_above.len() - 1
            }
        };
        &mut self.costing_above[at]
    }

    /// Renders the turn's prompt through the policy; a failure stops the run.
    fn render(&mut self, turn: TurnLabel, observer: &mut dyn Observer) -> Result<RenderedTurn, RunError> {
        let number = turn.number;
        observer.event(&Event::Rendering { turn, tokens_so_far: self.tokens_so_far });
        let served = match self.policy.render(&self.request) {
            Ok(s) => s,
            Err(error) => {
                self.stop_with_error()?;
                return Err(RunError::Render { turn: number, error, path: self.path().to_path_buf() });
            }
        };
        let instance = served.instance.clone();
        let prompt_tokens = served.tokens as u64;
        let mut stats = RenderStats::from(served.rendered.stats());
        stats.instance = Some(instance.clone());
        stats.switched = Some(self.policy.switched());
        tracing::debug!(turn = number, instance = %instance, phase = ?served.phase, prompt_tokens, messages = served.rendered.messages().len(), "prompt rendered");
        if served.attempts.len() > 1 {
            stats.attempts = served.attempts.iter().map(|a| a.to_string()).collect();
        }
        // A failed isolated instance is no budget decision: say so.
        for failed in
            served.attempts.iter().filter(|a| a.outcome.as_ref().is_err_and(|e| e.kind() != ErrorKind::DoesNotFit))
        {
            observer.event(&Event::FellBack { turn, failed: failed.to_string(), instance: instance.clone() });
        }
        for w in served.rendered.stats().warnings() {
            observer.event(&Event::StrategyWarning { turn, instance: instance.clone(), warning: w.to_string() });
        }
        let sent = Prompt::from(&served.rendered);
        Ok(RenderedTurn { messages: message_records(&served.rendered), instance, prompt_tokens, stats, sent })
    }

    /// Sends the prompt; `None` when the run's deadline cut the call short
    /// (the run is then ended), an error (the run stopped) when it failed.
    fn ask(
        &mut self,
        llm: &mut dyn Llm,
        turn: TurnLabel,
        rendered: &RenderedTurn,
        observer: &mut dyn Observer,
    ) -> Result<Option<LlmReply>, RunError> {
        let prompt_tokens = rendered.prompt_tokens;
        observer.event(&Event::Asking {
            turn,
            instance: rendered.instance.clone(),
            prompt_tokens,
            tokens_so_far: self.tokens_so_far + prompt_tokens,
            budget: self.nesting.budgets.tightest(&self.agent.name),
        });
        let asked = std::time::Instant::now();
        llm.end_calls_by(self.deadline.at());
        let reply = match llm.chat(&rendered.sent) {
            Ok(r) => r,
            // A call the run's deadline cut short (it may end a moment early).
            Err(_) if self.deadline.passed_within(Duration::from_millis(100)).is_some() => {
                let stop = self.deadline.passed_within(Duration::from_millis(100)).expect("checked");
                self.end_run(limit_end(stop))?;
                return Ok(None);
            }
            Err(error) => {
                self.stop_with_error()?;
                return Err(RunError::Llm { turn: turn.number, error, path: self.path().to_path_buf() });
            }
        };
        tracing::debug!(turn = turn.number, elapsed_ms = asked.elapsed().as_millis() as u64, usage = ?reply.usage, finish = reply.finish_reason.as_str(), chars = reply.content.len(), "model answered");
        if let Some(warning) = dropped_prompt_warning(&reply, prompt_tokens) {
            observer.event(&Event::ModelWarning { turn, warning });
        }
        Ok(Some(reply))
    }

    /// Runs the answer's program against the memory, the data and the
    /// tools, and turns it into the turn's record; memory moves on only
    /// when the turn succeeds.
    fn execute(&mut self, number: u32, reply: &LlmReply, llm: &dyn Llm, stats: &mut RenderStats) -> Executed {
        let cut_off = cut_off_error(reply, llm);
        let program = if cut_off.is_some() { None } else { extract_code(&reply.content) };
        // The program's wall clock never runs past the run's.
        let limits = Limits { timeout: self.deadline.cap(self.limits.timeout), ..self.limits.clone() };
        let tools = RunTools {
            tools: &self.tools,
            resolved: self.resolved,
            sub_agents: &SubRuns,
            agent: self.agent,
            nesting: &self.nesting,
            session: self.journal.path(),
            turn: number,
            runs: AtomicUsize::new(0),
            queries: &self.queries,
            earlier: &self.session.turns,
        };
        let mut counted = Counted::new(&tools, self.tool_calls, self.agent.run_limits);
        let options = LispOptions {
            namespace_fallback: self.agent.namespace_fallback,
            tool_names: if self.agent.namespace_fallback { self.agent.tools.clone() } else { Vec::new() },
        };
        let outcome =
            program.as_deref().map(|p| run_program_with(p, &self.memory, &self.data, &mut counted, &limits, &options));
        self.tool_calls += counted.made();
        let limit_stop = counted.stop().or_else(|| self.deadline.passed());
        let ran = match (&program, &outcome) {
            (Some(p), Some(out)) => Ok((p.as_str(), out)),
            _ => Err(cut_off.unwrap_or_else(|| no_code_error(&reply.content))),
        };
        let mut turn = record_turn(number, &reply.content, ran);
        if let Some(out) = &outcome {
            let cached = annotate_calls(&mut turn.record.tool_calls, &out.tool_calls, self.tools.take_notes());
            stats.tool_calls_cached = Some(cached);
        }
        let exit = outcome.as_ref().and_then(|o| o.result.as_ref().ok());
        let rejected = self.settle(&mut turn, exit, number);
        if let Some(out) = outcome.filter(|_| turn.record.success) {
            self.memory = out.memory;
        }
        Executed { turn, rejected, limit_stop }
    }

    /// Completes the turn's record (messages, cost, stats, usage), appends
    /// it to the session, the live request and the journal with the end
    /// it made, if any, and reports it.
    fn record(
        &mut self,
        label: TurnLabel,
        rendered: RenderedTurn,
        reply: LlmReply,
        executed: Executed,
        llm: &dyn Llm,
        observer: &mut dyn Observer,
    ) -> Result<Step, RunError> {
        let Executed { mut turn, rejected, limit_stop } = executed;
        let number = label.number;
        let cost = self.costing.turn(&rendered.sent, reply.usage.as_ref());
        if let Some(reserved) = self.reserved.take() {
            // The own model's cost is the record's; a budget above under
            // another model prices the turn with its own costing.
            reserved.settle(|model| {
                let priced = match model.name() == cost.model {
                    true => &cost,
                    false => &self.costing_under(model).turn(&rendered.sent, reply.usage.as_ref()),
                };
                priced.input_cost + priced.output_cost.unwrap_or(0.0)
            });
        }
        let record = &mut turn.record;
        record.messages = rendered.messages;
        record.cost = Some(cost);
        record.render_stats = Some(rendered.stats);
        record.prompt_tokens = Some(rendered.prompt_tokens);
        record.usage = Some(crate::usage::call_record(&reply, llm, &mut self.llm_settings));

        let outcome = match (&record.error, &record.result) {
            (Some(e), _) => format!("error {}: {}", e.kind, first_line(&e.message)),
            (None, Some(r)) => format!("ok {}", first_line(r)),
            (None, None) => "ok".into(),
        };
        let abi = record
            .to_abi(self.session.turns.len())
            .map_err(|error| RunError::Session { path: self.journal.path().to_path_buf(), error })?;
        self.request.push_turn(abi);
        ptc_session::add_turn_usage(&mut self.session.usage, &turn.record);
        self.session.turns.push(turn.record);

        let end = match turn.exit {
            TurnExit::Return(v) => Some(End::returned(v)),
            TurnExit::Fail => Some(End::new(RunStatus::Failed)),
            TurnExit::Continue if limit_stop.is_some() => limit_stop.map(limit_end),
            TurnExit::Continue if self.allowed(number + 1) => None,
            TurnExit::Continue => Some(match &rejected {
                Some(message) => invalid_return_end(message),
                None => End::new(RunStatus::OutOfTurns),
            }),
        };
        // The turn and the end it made, in one write.
        let recorded = self.session.turns.last().expect("the turn was just pushed");
        self.journal.turn_and_stop(recorded, end.as_ref())?;
        tracing::debug!(turn = number, session = %self.path().display(), "session written");
        let finished = end.is_some();
        if let Some(end) = end {
            self.record_end(end);
        }
        self.tokens_so_far += rendered.prompt_tokens;
        observer.event(&Event::TurnDone {
            turn: label,
            instance: rendered.instance,
            prompt_tokens: rendered.prompt_tokens,
            tokens_so_far: self.tokens_so_far,
            budget: self.nesting.budgets.tightest(&self.agent.name),
            model_time: reply.timing.wall,
            outcome,
        });
        Ok(if finished { Step::Finished } else { Step::Continue })
    }

    /// Whether turn `number` may run: within `max_turns`, or one of the
    /// `retry_turns` after a turn whose return did not match the signature.
    fn allowed(&self, number: u32) -> bool {
        let max_turns = self.session.max_turns;
        let retries = self.agent.contract.as_ref().map_or(0, |c| c.retry_turns);
        let after_invalid = |n: u32| {
            let previous = self.session.turns.get(n as usize - 2);
            previous.and_then(|t| t.error.as_ref()).is_some_and(|e| e.kind == TurnErrorKind::InvalidReturn)
        };
        number <= max_turns || (number <= max_turns.saturating_add(retries) && after_invalid(number))
    }

    /// What the agent's contract makes of a finished turn: a single-shot
    /// agent's program value is its result; a returned value that does not
    /// match the signature turns the turn into a failed one (error kind
    /// `invalid_return`, what differs and where), which is returned.
    fn settle(&self, turn: &mut RecordedTurn, exit: Option<&Exit>, number: u32) -> Option<String> {
        let value = match (&turn.exit, exit) {
            (TurnExit::Return(_), Some(Exit::Return(v))) => v,
            (TurnExit::Continue, Some(Exit::Value(v))) if self.session.max_turns == 1 && turn.record.success => {
                turn.exit = TurnExit::Return(edn(v));
                v
            }
            _ => return None,
        };
        let contract = self.agent.contract.as_ref()?;
        let mismatch = check_return(&contract.signature, value).err()?;
        let mut message = return_feedback(&contract.signature, &mismatch, value);
        let (max_turns, retries) = (self.session.max_turns, contract.retry_turns);
        if number >= max_turns && number < max_turns + retries {
            let k = number - max_turns + 1;
            message.push_str(&format!(
                " Retry {k} of {retries}: the next turn is only for returning a value that matches."
            ));
        }
        let record = &mut turn.record;
        record.success = false;
        record.error = Some(ErrorRecord::new(TurnErrorKind::InvalidReturn, message.clone()));
        record.result = Some(edn(value));
        record.definitions.clear();
        turn.exit = TurnExit::Continue;
        Some(message)
    }

    /// Records how the run ended (journal and session).
    fn end_run(&mut self, end: End) -> Result<(), RunError> {
        self.journal.stop(&end)?;
        self.record_end(end);
        Ok(())
    }

    /// Records how the run ended in the session (the journal has it).
    fn record_end(&mut self, end: End) {
        self.session.status = Some(end.status);
        self.session.result = end.result;
        self.session.reason = end.reason;
        self.session.detail = end.detail;
    }

    /// Records that the run stopped on an error it can be resumed from.
    fn stop_with_error(&mut self) -> Result<(), RunError> {
        self.session.status = Some(RunStatus::Error);
        self.journal.stop(&End::new(RunStatus::Error))?;
        Ok(())
    }

    /// The agent being run.
    pub fn agent(&self) -> &Agent {
        self.agent
    }
}

/// A turn's prompt, rendered: what is sent and what the record keeps of it.
struct RenderedTurn {
    /// The instance that served it.
    instance: String,
    /// Its token count (ptc's).
    prompt_tokens: u64,
    /// The render stats the record keeps (`render_stats`).
    stats: RenderStats,
    /// The prompt as the model gets it.
    sent: Prompt,
    /// The messages as the record keeps them.
    messages: Vec<ptc_session::MessageRecord>,
}

/// A turn's program, run: its record so far and how it bears on the run.
struct Executed {
    /// The turn as recorded.
    turn: RecordedTurn,
    /// Why its returned value was rejected (it did not match the signature).
    rejected: Option<String>,
    /// The run limit it ran into, if any.
    limit_stop: Option<Stop>,
}

/// The error kind of a turn whose returned value did not match the signature.
#[deprecated(since = "0.2.0", note = "use `ptc_session::TurnErrorKind::InvalidReturn` (or `RunStatus::InvalidReturn`)")]
pub const INVALID_RETURN: &str = "invalid_return";

/// Render stats as a JSON object, as the session records them.
#[deprecated(since = "0.2.0", note = "use `ptc_session::RenderStats::from(stats)`, which serializes the same")]
pub fn stats_json(stats: &ptc_plugin_api::Stats) -> serde_json::Value {
    serde_json::to_value(RenderStats::from(stats)).expect("render stats always serialize")
}

/// The end of a run stopped by one of its limits.
fn limit_end(stop: Stop) -> End {
    End::because(RunStatus::Limit, stop.limit.as_str(), stop.detail)
}

/// The end of a run whose last allowed turn returned a value that does not
/// match the signature (`message`: what the model was told).
fn invalid_return_end(message: &str) -> End {
    End::because(RunStatus::InvalidReturn, "signature", message)
}

/// The tools of `agent`, in the order its `tools` lists them: table and
/// built-in tools, the tools of its MCP servers (started here), other
/// agents and `llm-query`.
fn agent_tools(resolved: &Resolved, agent: &Agent) -> Result<Vec<Tool>, RunError> {
    let config = &resolved.config;
    let servers = McpServers::start(config, agent).map_err(RunError::Mcp)?;
    let agents: Vec<&str> = config.agents.keys().map(String::as_str).collect();
    let mut tools = Vec::new();
    for entry in &agent.tools {
        match ToolRef::parse(entry, &config.tools, &config.mcp, &agents) {
            Some(ToolRef::Plain(name)) => tools.push(match config.tools.get(&name) {
                Some(t) => Tool::Command(t.clone()),
                None => Tool::Builtin(builtin(&name).expect("config checked tool names")),
            }),
            Some(r @ (ToolRef::McpServer(_) | ToolRef::McpTool(..))) => {
                tools.extend(servers.tools(config, agent, &r).map_err(RunError::Mcp)?)
            }
            Some(ToolRef::Agent(name)) => tools.push(crate::nested::agent_tool(resolved, &name)),
            Some(ToolRef::LlmQuery) => tools.push(crate::nested::llm_query_tool()),
            Some(ToolRef::TurnOutput) => tools.push(crate::nested::turn_output_tool()),
            None => unreachable!("config checked tool names"),
        }
    }
    Ok(tools)
}

/// Marks the recorded calls the notes tell about (answered from the cache,
/// a nested run's session, usage spent inside); a note finds its call by
/// name and arguments, first unmarked match in order. Returns how many
/// calls the cache answered.
fn annotate_calls(
    records: &mut [ptc_session::ToolCallRecord],
    calls: &[ptc_lisp::ToolCallRecord],
    mut notes: Vec<CallNote>,
) -> u64 {
    // Among identical calls, the one that ran comes first, the cache hits after it.
    notes.sort_by_key(|n| n.cached);
    let mut cached = 0;
    for (record, call) in records.iter_mut().zip(calls) {
        let Ok(args) = ptc_lisp::value_to_json(&call.args) else { continue };
        let args = canonical_args(&args);
        let Some(i) = notes.iter().position(|n| n.name == call.name && n.args == args) else { continue };
        let note = notes.remove(i);
        record.cached = note.cached;
        record.session = note.session;
        record.usage = note.usage;
        cached += u64::from(note.cached);
    }
    cached
}

/// The token counter of `agent`'s `token_encoding` (default `o200k_base`).
pub fn agent_counter(agent: &Agent) -> Result<&'static TokenCounter, RunError> {
    agent_token_counter(agent).map_err(|e| RunError::Encoding {
        location: agent.location.clone(),
        agent: agent.name.clone(),
        message: e.to_string(),
    })
}

/// The loop as agents used as tools run: to the end, their progress
/// logged (`tracing`), not shown.
pub struct SubRuns;

impl SubAgents for SubRuns {
    fn run_agent(&self, call: SubRun<'_>, llm: &mut dyn Llm) -> Result<Session, String> {
        let options = RunOptions { session_out: Some(call.path), args: &call.args, ..RunOptions::default() };
        let mut run = AgentRun::prepare_nested(call.resolved, call.name, options, call.data, call.nesting)
            .map_err(|e| e.to_string())?;
        let name = call.name;
        let mut quiet = |line: &str| tracing::info!(agent = name, "{line}");
        while run.turn(llm, &mut quiet).map_err(|e| e.to_string())? == Step::Continue {}
        Ok(run.finish().session)
    }
}

/// The price model `agent`'s runs record costs under: its `pricing`, else
/// its backend's (`anthropic` for the Anthropic backend, else `openai`).
pub fn price_model(resolved: &Resolved, agent: &Agent) -> Result<PriceModel, RunError> {
    let name = agent.pricing.as_deref().unwrap_or(match agent.llm {
        Some(LlmConfig::Anthropic(_)) => "anthropic",
        _ => "openai",
    });
    let pricing = |message: String| RunError::Pricing { location: agent.location.clone(), message };
    let models = resolved.config.price_models().map_err(|e| pricing(e.to_string()))?;
    models.get(name).cloned().map_err(|e| pricing(e.to_string()))
}

/// The agent's input data: each `data = { name = "file.json" }` read as JSON.
fn read_data(agent: &Agent) -> Result<IndexMap<String, Value>, RunError> {
    let mut data = IndexMap::new();
    for (name, path) in &agent.data {
        missing_file(agent, &format!("data `{name}`"), path)?;
        let fail = |message: String| RunError::Data {
            agent: agent.name.clone(),
            name: name.clone(),
            path: path.clone(),
            message,
        };
        let text = inputs::read_input_file(path).map_err(fail)?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| fail(format!("not JSON: {e}")))?;
        data.insert(name.clone(), json_to_value(&json));
    }
    Ok(data)
}

/// The warning when the server read far fewer prompt tokens than ptc counted.
fn dropped_prompt_warning(reply: &LlmReply, counted: u64) -> Option<String> {
    let reported = reply.usage?.prompt_tokens;
    let warning = feedback::dropped_prompt_warning(reported, counted)?;
    tracing::warn!(counted, reported, "{warning}");
    Some(warning)
}

/// The error of an answer cut off at `max_tokens` (its program is not run:
/// a half-written program could call tools before it breaks); `None` for a
/// complete answer.
fn cut_off_error(reply: &LlmReply, llm: &dyn Llm) -> Option<ErrorRecord> {
    (reply.finish_reason == FinishReason::Length).then(|| {
        let max_tokens = llm.settings()["max_tokens"].as_u64().map(|n| n as u32);
        ErrorRecord::new(TurnErrorKind::CutOff, feedback::cut_off_feedback(&reply.content, max_tokens))
    })
}

/// The error of an answer with no program: the start of what the model wrote.
fn no_code_error(answer: &str) -> ErrorRecord {
    ErrorRecord::new(TurnErrorKind::NoCode, feedback::no_code_feedback(answer))
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > 100 {
        format!("{}...", line.chars().take(100).collect::<String>())
    } else {
        line.to_string()
    }
}

/// Finds the program in a model answer: the first ```clojure / ```lisp /
/// ```clj / bare ``` block, else the whole answer when it is an s-expression.
pub fn extract_code(response: &str) -> Option<String> {
    let lisp = |lang: &str| matches!(lang.to_ascii_lowercase().as_str(), "clojure" | "lisp" | "clj" | "edn" | "");
    let fenced = crate::fence::blocks(response).into_iter().find(|(lang, code)| lisp(lang) && !code.trim().is_empty());
    if let Some((_, code)) = fenced {
        return Some(code.trim().to_string());
    }
    let t = response.trim();
    (t.starts_with('(') && t.ends_with(')')).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_lisp::NoTools;
    use ptc_session::{DefinitionKind, RecordedTurn};

    fn turn(number: u32, raw: &str, mem: &mut Memory) -> RecordedTurn {
        let data = IndexMap::new();
        let program = extract_code(raw);
        let out = program.as_deref().map(|p| ptc_lisp::run_program(p, mem, &data, &mut NoTools, &Limits::default()));
        let ran = match (&program, &out) {
            (Some(p), Some(o)) => Ok((p.as_str(), o)),
            _ => Err(no_code_error(raw)),
        };
        let t = record_turn(number, raw, ran);
        if let Some(o) = out.filter(|_| t.record.success) {
            *mem = o.memory;
        }
        t
    }

    #[test]
    fn extracts_code_blocks_and_bare_expressions() {
        assert_eq!(extract_code("Let me see.\n```clojure\n(+ 1 2)\n```\nDone."), Some("(+ 1 2)".into()));
        assert_eq!(extract_code("```python\nx\n```\n```lisp\n(inc 1)\n```"), Some("(inc 1)".into()));
        assert_eq!(extract_code("  (count data/xs)\n"), Some("(count data/xs)".into()));
        assert_eq!(extract_code("I think the answer is 4."), None);
    }

    #[test]
    fn turns_record_results_definitions_and_roll_back() {
        let mut mem = Memory::new();
        let t = turn(1, "```clojure\n(defn dbl \"Doubles\" [x] (* 2 x)) (def y (dbl 2))\n```", &mut mem);
        assert!(t.record.success);
        assert_eq!(t.record.result.as_deref(), Some("#'y"));
        assert_eq!(t.record.definitions[0].kind, DefinitionKind::Function);
        assert_eq!(t.record.definitions[0].return_type.as_deref(), Some("integer"));
        assert_eq!(t.record.definitions[1].value.as_deref(), Some("4"));
        let t = turn(2, "(do (def z 1) (nope))", &mut mem);
        assert!(!t.record.success);
        assert_eq!(t.record.error.as_ref().unwrap().kind.as_str(), "unbound_symbol");
        assert!(mem.get("z").is_none() && mem.get("y").is_some());
        // A last form that only equals a definition is a value, not the var.
        let t = turn(2, "```clojure\n(def w 4) w\n```", &mut mem);
        assert_eq!(t.record.result.as_deref(), Some("4"));
        let t = turn(3, "no code here", &mut mem);
        let error = t.record.error.as_ref().unwrap();
        assert_eq!(
            (&error.kind, error.message.as_str()),
            (&TurnErrorKind::NoCode, feedback::no_code_feedback("no code here").as_str())
        );
        let t = turn(4, "(return (dbl y))", &mut mem);
        assert_eq!(t.exit, TurnExit::Return("8".into()));
    }

    #[test]
    fn an_unknown_name_suggests_the_likely_one() {
        let defined = vec!["explore-orders".to_string(), "order-summary".to_string()];
        let e = RunError::NoAgent { config: "s.toml".into(), name: "explore-order".into(), defined: defined.clone() };
        assert!(
            e.to_string().ends_with("(defined: explore-orders, order-summary); did you mean `explore-orders`?"),
            "{e}"
        );
        let e = RunError::NoAgent { config: "s.toml".into(), name: "zzz".into(), defined };
        assert!(e.to_string().ends_with("(defined: explore-orders, order-summary)"), "{e}");
        let e = crate::resolve::LookupError::Unknown {
            name: "agressive".into(),
            defined: vec!["aggressive".into()],
            plugins: Vec::new(),
        };
        assert_eq!(e.to_string(), "no strategy named `agressive` (defined: aggressive); did you mean `aggressive`?");
        // A plugin's own name gives it too: listed, and suggested.
        let e = crate::resolve::LookupError::Unknown {
            name: "rolling-windw".into(),
            defined: vec!["full-history".into(), "coalesced".into()],
            plugins: vec!["upstream-trim".into(), "rolling-window".into()],
        };
        assert_eq!(
            e.to_string(),
            "no strategy named `rolling-windw` (defined: full-history, coalesced; or a plugin by its name: \
             upstream-trim, rolling-window); did you mean `rolling-window`?"
        );
    }
}
