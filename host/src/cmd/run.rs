//! `ptc run AGENT`: runs an agent, printing progress on stderr as it goes
//! and the result on stdout (EDN, or JSON with `--format json`: a typed
//! map's fields under the names the signature declares). Exit code 0 when
//! the agent returned, 1 otherwise.

use super::eval::ResultFormat;
use super::{CmdError, CmdResult, Output};
use crate::compare::{measure, measure_recorded, Figures, Measure, RecallFigures, Subject};
use crate::config::Config;
use crate::contract::public_json;
use crate::nested::SpentInside;
use crate::policy::Policy;
use crate::progress::{Event, Observer, Terminal};
use crate::resolve::{agent_token_counter, Resolved};
use crate::run::{price_model, run, RunError, RunOptions};
use ptc_cost::{CostUnit, TokenMemo};
use ptc_lisp::{read_edn, value_to_json};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_session::{CostSource, CostTotals, RunStatus, Session};
use ptc_signature::Signature;
use std::path::Path;

/// What `ptc run` is asked to do.
#[derive(Debug, Clone, Copy)]
pub struct RunArgs<'a> {
    /// The config file.
    pub config: &'a Path,
    /// The agent (`None`: the config's only agent, else the command lists
    /// the agents to choose from).
    pub agent: Option<&'a str>,
    /// Where to write the session.
    pub session: Option<&'a Path>,
    /// A session to continue.
    pub resume: Option<&'a Path>,
    /// Named inputs, `NAME=VALUE` each.
    pub args: &'a [String],
    /// How to print the result.
    pub format: ResultFormat,
    /// The strategy instance (or plugin) to run with instead of the agent's.
    pub strategy: Option<&'a str>,
}

/// Runs `agent` of `config`, writing the session to `session` (or
/// continuing `resume`).
pub fn run_agent(a: &RunArgs<'_>) -> CmdResult {
    let mut resolved = super::resolve(a.config)?;
    // `--resume FILE` alone goes on with the agent the session names (one
    // the config lacks is then named by the error).
    let recorded = match (a.agent, a.resume) {
        (None, Some(resume)) if resume.exists() => {
            Session::read(resume).map_err(|error| CmdError::Session { path: resume.to_path_buf(), error })?.agent
        }
        _ => None,
    };
    let agent = chosen_agent(&resolved.config, a.agent.or(recorded.as_deref()))?.to_string();
    let agent = agent.as_str();
    if let Some(name) = a.strategy {
        // An unknown name fails here, with the defined ones.
        resolved.strategy(name).map_err(|e| CmdError::Usage(format!("--strategy {name}: {e}")))?;
        if let Some(defined) = resolved.config.agents.get_mut(agent) {
            defined.strategy = Some(name.to_string());
        }
    }
    if let Some(resume) = a.resume.filter(|p| !p.exists()) {
        return Err(CmdError::Usage(format!(
            "--resume {}: no such session file; a run of `{agent}` writes {agent}.session.jsonl unless `--session FILE` says otherwise",
            resume.display()
        )));
    }
    let mut watch = Watch { terminal: Terminal::stderr(tracing::dispatcher::has_been_set()), ran_nothing: false };
    let options = RunOptions { session_out: a.session, resume: a.resume, args: a.args };
    let session_path = options.session_path(agent);
    super::interrupt::on_interrupt(move || super::interrupt::run_note(&session_path));
    let done = run(&resolved, agent, options, &mut watch);
    watch.terminal.finish();
    let done = done?;
    let status = done.session.status.map_or("unfinished", RunStatus::as_str);
    let stdout = match (&done.session.result, done.session.turns.last()) {
        (Some(r), _) => format!("{}\n", result_text(&done.session, r, a.format)?),
        (None, Some(t)) if done.session.status == Some(RunStatus::Failed) => {
            format!("failed: {}\n", t.error.as_ref().map_or("", |e| e.message.as_str()))
        }
        _ => match &done.session.reason {
            Some(reason) => format!("no result ({status}: {reason})\n"),
            None => format!("no result ({status})\n"),
        },
    };
    let mut note = format!("{status} after {}", turns(done.session.turns.len()));
    if let Some(detail) = &done.session.detail {
        note.push_str(&format!(" ({})", first_line(detail)));
    }
    // A resumed session that had already ended is left as it was.
    let written = if watch.ran_nothing { "left as it was in" } else { "written to" };
    note.push_str(&format!("; session {written} {}", done.path.display()));
    // A limit is no verdict on the task: the run goes on once it is raised.
    if let (Some(RunStatus::Limit), Some(reason), false) =
        (done.session.status, &done.session.reason, watch.ran_nothing)
    {
        note.push_str(&format!(
            "; raise `{reason}` of [agent.{agent}] and `ptc run --resume {}` goes on from it",
            done.path.display()
        ));
    }
    // A broken plugin path is worth a line even when this agent needed none
    // of its plugins: the next agent, or the next strategy tried, will.
    let mut warnings = super::load_warnings(&resolved);
    warnings.extend(unused_broken_instances(&resolved, agent));
    warnings.extend(unstartable_tools(&resolved, agent));
    if let Some(cost) = RunCost::of(&resolved, agent, &done.session, &done.path) {
        warnings.push(cost.line(&done.path));
    }
    warnings.push(note);
    Ok(Output { stdout, warnings, code: i32::from(done.session.status != Some(RunStatus::Returned)) })
}

/// What a run's prompts cost, and what they showed, for its closing line.
struct RunCost {
    /// The turns' cost records, summed.
    totals: CostTotals,
    /// What the costs are counted in.
    unit: CostUnit,
    /// The prompts the run sent, then the full history over the same turns,
    /// as `ptc compare` measures them (cost under the run's price model,
    /// fact recall), when every turn recorded its prompt.
    measured: Option<(Figures, Figures)>,
    /// Whether every turn's cost is ptc's estimate (none the server's).
    estimated_only: bool,
    /// What its tool calls spent on models (the agents it ran, `llm-query`),
    /// input and output, under the same price model.
    inside: f64,
}

impl RunCost {
    /// The cost of `session`'s prompts under `agent`'s price model; `path`
    /// is where the session is (its calls' nested sessions are beside it).
    fn of(resolved: &Resolved, agent: &str, session: &Session, path: &Path) -> Option<RunCost> {
        let defined = resolved.config.agents.get(agent)?;
        let model = price_model(resolved, defined).ok()?;
        let totals = CostTotals::of(&session.turns)?;
        let measured = agent_token_counter(defined).ok().and_then(|counter| {
            let subject = Subject::new(agent, session).ok()?;
            let models = [&model];
            let mut memo = TokenMemo::new(counter);
            let mut how = Measure { models: &models, memo: &mut memo, counter, show_turn: None };
            let run = measure_recorded(session, &subject, &mut how)?;
            let mut full = Policy::new(resolved.strategy(FULL_HISTORY).ok()?, Vec::new(), None, counter);
            Some((run, measure(&mut full, &subject, &mut how).ok()?))
        });
        let estimated_only =
            session.turns.iter().filter_map(|t| t.cost.as_ref()).all(|c| c.source == CostSource::Estimated);
        let inside =
            agent_token_counter(defined).map_or(0.0, |c| SpentInside::read(&session.turns, path).cost(&model, c));
        Some(RunCost { totals, unit: model.unit(), measured, estimated_only, inside })
    }

    /// One line: billed tokens read from the cache, the cost in the model's
    /// unit and against the full history's, the facts later programs reused
    /// that their prompts still showed, and where to see it per turn.
    fn line(&self, session: &Path) -> String {
        let t = &self.totals;
        let figure = |cost: f64| match self.unit {
            CostUnit::InputTokens => format!("{cost:.1}"),
            CostUnit::Money => format!("{cost:.4}"),
        };
        let mut line = format!(
            "prompts of {}: {} of {} billed tokens read from cache; cost {} under `{}` prices",
            turns(t.turns),
            t.cache_read_tokens,
            t.prompt_tokens,
            figure(t.input_cost),
            t.model
        );
        let mut notes = Vec::new();
        if self.unit == CostUnit::InputTokens && t.prompt_tokens > 0 {
            let share = 100.0 * t.input_cost / t.prompt_tokens as f64;
            notes.push(format!("input-token equivalents: {share:.0}% of the same prompts uncached"));
        }
        let costs =
            self.measured.as_ref().and_then(|(run, full)| run.input_cost(&t.model).zip(full.input_cost(&t.model)));
        if let Some((run, full)) = costs.filter(|(_, full)| *full > 0.0) {
            let share = 100.0 * run / full;
            notes.push(if self.estimated_only {
                format!("{share:.0}% of the full history's {}", figure(full))
            } else {
                // The run's cost is the server's: the share compares estimates.
                format!(
                    "{share:.0}% of the full history's cost by ptc's estimate of both, {} against {}",
                    figure(run),
                    figure(full)
                )
            });
        }
        if !notes.is_empty() {
            line.push_str(&format!(" ({})", notes.join(", ")));
        }
        if let Some(output) = t.output_cost {
            line.push_str(&format!(", completions {}", figure(output)));
        }
        if self.inside > 0.0 {
            let whole = t.input_cost + t.output_cost.unwrap_or(0.0) + self.inside;
            line.push_str(&format!(
                "; {} more inside its tool calls (the agents it ran, llm-query), {} in all",
                figure(self.inside),
                figure(whole)
            ));
        }
        if let Some((run, full)) = self.measured.as_ref().filter(|(run, _)| run.recall.used > 0) {
            let pct = |r: &RecallFigures| r.share().map_or(String::new(), |s| format!("{:.0}%", 100.0 * s));
            line.push_str(&format!(
                "; reused facts still shown: {} of {} ({}; full history {})",
                run.recall.visible,
                run.recall.used,
                pct(&run.recall),
                pct(&full.recall)
            ));
        }
        line.push_str(&format!("; per turn: `ptc trace {} --usage`", session.display()));
        line
    }
}

/// One line per strategy instance of the config that did not build and
/// that `agent` does not use: the run went on without it, but the next
/// agent that names it fails.
fn unused_broken_instances(resolved: &Resolved, agent: &str) -> Vec<String> {
    let Some(defined) = resolved.config.agents.get(agent) else { return Vec::new() };
    let used = |name: &str| defined.strategy.as_deref() == Some(name) || defined.fallback.iter().any(|f| f == name);
    resolved
        .instances()
        .filter(|(name, _)| !used(name))
        .filter_map(|(_, built)| built.err())
        .map(|e| format!("{e} (`{agent}` does not use it; `ptc validate` lists every problem)"))
        .collect()
}

/// The agent's command tools whose program cannot be found: each call
/// the model made to one failed with `cannot start`, which the model saw
/// but the user only in a cut-off progress line; this says what to do.
fn unstartable_tools(resolved: &Resolved, agent: &str) -> Vec<String> {
    let Some(defined) = resolved.config.agents.get(agent) else { return Vec::new() };
    defined
        .tools
        .iter()
        .filter_map(|name| resolved.config.tools.get(name))
        .filter_map(|tool| {
            let why = super::validate::find_program(&tool.command, &tool.dir).err()?;
            Some(format!("{}: tool `{}`: {why}; `{agent}`'s calls to it fail", tool.location, tool.name))
        })
        .collect()
}

/// The returned value (EDN in the session) as `format` prints it.
fn result_text(session: &Session, edn: &str, format: ResultFormat) -> Result<String, CmdError> {
    match format {
        ResultFormat::Edn => Ok(edn.to_string()),
        ResultFormat::Json => {
            let value = read_edn(edn)
                .map_err(|e| CmdError::Other(format!("the result has no JSON form: {e} (it is {edn})")))?;
            let signature = session.signature.as_deref().and_then(|s| Signature::parse(s).ok());
            let json = match signature {
                Some(s) => public_json(&value, &s.output),
                None => value_to_json(&value).map_err(|e| e.to_string()),
            };
            json.map(|j| j.to_string()).map_err(|e| CmdError::Other(format!("the result has no JSON form: {e}")))
        }
    }
}

/// The agent `ptc run` was asked for, which must be one of the config's.
/// Without one, a config's only agent is run (as `cargo run` runs a
/// package's only binary); with several, or with an unknown name, the
/// error lists them (an unknown one in the agent crate's words,
/// `RunError::NoAgent`).
fn chosen_agent<'c>(config: &'c Config, asked: Option<&'c str>) -> Result<&'c str, CmdError> {
    if let Some(name) = asked.filter(|n| config.agents.contains_key(*n)) {
        return Ok(name);
    }
    if let (None, 1, Some(only)) = (asked, config.agents.len(), config.agents.keys().next()) {
        return Ok(only);
    }
    let file = config.path.display();
    let defined: Vec<String> = config.agents.keys().cloned().collect();
    let Some(first) = defined.first() else {
        return Err(CmdError::Usage(format!(
            "{file} defines no agent; add an `[agent.NAME]` table (`ptc docs agents`), or make a project with one: `ptc init`"
        )));
    };
    let Some(name) = asked else {
        return Err(CmdError::Usage(format!(
            "ptc run: which agent? the agents of {file} are {} (run one: `ptc run {first}`)",
            defined.join(", ")
        )));
    };
    // The agent a likely typo meant is named by the error; else run the first.
    let typo = ptc_lisp::closest_among(name, defined.iter().map(String::as_str)).is_some();
    let next = if typo { String::new() } else { format!("; run one: `ptc run {first}`") };
    let error = RunError::NoAgent { config: config.path.clone(), name: name.to_string(), defined };
    Err(CmdError::Usage(format!("{error}{next}")))
}

pub use ptc_agent::progress::turns;

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// The run's events on the terminal, noting whether the run had nothing to
/// do (a resumed session that had already ended).
struct Watch {
    terminal: Terminal<std::io::Stderr>,
    ran_nothing: bool,
}

impl Observer for Watch {
    fn event(&mut self, event: &Event) {
        self.ran_nothing |= matches!(event, Event::AlreadyFinished { .. });
        self.terminal.event(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigFile;

    /// Figures of one price model: a prompt cost and a fact recall.
    fn figures(model: &str, input: f64, used: usize, visible: usize) -> Figures {
        let total = ptc_cost::TurnCost { cost: ptc_cost::Cost { input, output: None }, ..Default::default() };
        Figures {
            costs: vec![crate::compare::ModelFigures { model: model.into(), total, ..Default::default() }],
            recall: RecallFigures { used, visible, restorable: 0 },
            ..Default::default()
        }
    }

    #[test]
    fn the_cost_line_says_what_the_prompts_cost_in_the_models_unit() {
        let totals = CostTotals {
            model: "openai".into(),
            turns: 3,
            prompt_tokens: 4000,
            cache_read_tokens: 2816,
            cache_write_tokens: 0,
            uncached_tokens: 1184,
            input_cost: 1465.6,
            output_cost: None,
        };
        let measured = Some((figures("openai", 1465.6, 8, 7), figures("openai", 1832.0, 8, 8)));
        let mut cost = RunCost { totals, unit: CostUnit::InputTokens, measured, estimated_only: true, inside: 0.0 };
        let at = Path::new("a.session.jsonl");
        assert_eq!(
            cost.line(at),
            "prompts of 3 turns: 2816 of 4000 billed tokens read from cache; cost 1465.6 under `openai` prices \
             (input-token equivalents: 37% of the same prompts uncached, 80% of the full history's 1832.0); reused \
             facts still shown: 7 of 8 (88%; full history 100%); per turn: `ptc trace a.session.jsonl --usage`"
        );
        cost.totals.model = "sonnet".into();
        cost.totals.input_cost = 0.004_396_8;
        cost.totals.output_cost = Some(0.0123);
        cost.unit = CostUnit::Money;
        cost.measured = Some((figures("sonnet", 0.0045, 0, 0), figures("sonnet", 0.009, 0, 0)));
        cost.estimated_only = false;
        assert_eq!(
            cost.line(at),
            "prompts of 3 turns: 2816 of 4000 billed tokens read from cache; cost 0.0044 under `sonnet` prices \
             (50% of the full history's cost by ptc's estimate of both, 0.0045 against 0.0090), completions 0.0123; \
             per turn: `ptc trace a.session.jsonl --usage`"
        );
        cost.measured = None;
        assert!(cost.line(at).contains("`sonnet` prices, completions 0.0123;"), "{}", cost.line(at));
    }

    #[test]
    fn an_unknown_agent_suggests_the_one_a_typo_meant() {
        let text = "[agent.summary]\nmission = \"m\"\n[agent.explore-orders]\nmission = \"m\"\n";
        let config = Config::parse(Path::new("/p/strategies.toml"), text).unwrap();
        let e = chosen_agent(&config, Some("explore-order")).unwrap_err().to_string();
        let listed = "/p/strategies.toml: no agent named `explore-order` (defined: summary, explore-orders)";
        assert_eq!(e, format!("{listed}; did you mean `explore-orders`?"));
        let e = chosen_agent(&config, Some("zzz")).unwrap_err().to_string();
        assert!(e.ends_with("(defined: summary, explore-orders); run one: `ptc run summary`"), "{e}");
        let e = chosen_agent(&config, None).unwrap_err().to_string();
        assert!(
            e.starts_with("ptc run: which agent? the agents of /p/strategies.toml are summary, explore-orders"),
            "{e}"
        );
        assert_eq!(chosen_agent(&config, Some("summary")).unwrap(), "summary");
        // A config's only agent needs no name.
        let one = Config::parse(Path::new("/p/strategies.toml"), "[agent.summary]\nmission = \"m\"\n").unwrap();
        assert_eq!(chosen_agent(&one, None).unwrap(), "summary");
    }
}
