//! Comparing strategies over recorded sessions: what each would have sent,
//! what that costs on a provider that caches prompt prefixes, and whether
//! the model could still see what it had learned.
//!
//! Every turn `1..=N` of a session is rendered as it would be sent, through
//! [`ptc_agent::policy`] (so triggers apply), and measured:
//!
//! - **tokens**: prompt tokens (tiktoken), the **history** part (what each
//!   prompt adds beyond its run's turn-1 prompt) and the **largest** prompt;
//! - **cost** under each [`PriceModel`]: the prompts of a session priced in
//!   order by [`ptc_cost::Accounting`], the cached part being what the
//!   provider would read from its cache (by its rule: block breakpoints for
//!   Anthropic, the longest shared prefix for OpenAI);
//! - **recall**: of the facts a turn's program uses that the agent learned
//!   from earlier output, the share its prompt still showed
//!   ([`ptc_cost::LearnedFacts`]);
//! - **stale facts**: (turn, correction) pairs whose prompt showed a value
//!   the agent had since corrected, without the correction
//!   ([`ptc_cost::Corrections`]);
//! - the render stats of every turn, summed.

use indexmap::IndexMap;
use ptc_agent::policy::{Phase, Policy, PolicyError};
use ptc_agent::resolve::LookupError;
pub use ptc_cost::MissedFact;
use ptc_cost::{
    Accounting, Corrections, LearnedFacts, ModelCosts, PriceModel, Recall, TokenMemo, TurnCost, TurnOutput,
    ValueDefinition,
};
use ptc_plugin_api::render::cache_epoch;
use ptc_plugin_api::{RenderRequest, Stats};
use ptc_session::{DefinitionKind, Session, SessionError};
use ptc_tokens::TokenCounter;
use serde::Serialize;
use std::fmt;

pub mod progress;
pub mod text;

/// One row of a comparison: an instance, its figures summed over
/// sessions, and per session.
#[derive(Debug, Clone)]
pub struct Row {
    /// Instance name.
    pub name: String,
    /// Summed over sessions; `Err` when a turn could not be rendered.
    pub figures: Result<Figures, MeasureError>,
    /// Per session file, in order.
    pub per_session: Vec<Figures>,
}

/// A recorded session, ready to be rendered by every strategy: its render
/// requests (EDN read once) and the facts its programs reuse.
pub struct Subject {
    /// The session's name (its file name).
    pub name: String,
    /// The requests of turns `1..=N`.
    pub requests: Vec<RenderRequest>,
    facts: LearnedFacts,
    corrections: Corrections,
    /// Per turn, what `turn-output` gives back: its prints, result, error.
    returned: Vec<Vec<String>>,
}

impl Subject {
    /// Prepares `session` under `name`.
    pub fn new(name: impl Into<String>, session: &Session) -> Result<Subject, SessionError> {
        let requests = session.requests()?;
        let mut given: Vec<&str> = vec![&session.mission];
        given.extend(session.data.values().map(String::as_str));
        let tools: Vec<String> = session
            .tools
            .iter()
            .map(|t| {
                format!(
                    "{} {} {}",
                    t.name,
                    t.signature.as_deref().unwrap_or(""),
                    t.description.as_deref().unwrap_or("")
                )
            })
            .collect();
        given.extend(tools.iter().map(String::as_str));
        let turns: Vec<TurnOutput> = session
            .turns
            .iter()
            .map(|t| {
                let mut output: Vec<&str> = t.prints.iter().map(String::as_str).collect();
                output.extend(t.tool_calls.iter().filter_map(|c| c.result.as_deref()));
                output.extend(t.result.as_deref());
                TurnOutput { program: t.program.as_deref().unwrap_or(""), output }
            })
            .collect();
        let facts = LearnedFacts::new(&given, &turns);
        let definitions: Vec<Vec<ValueDefinition>> = session
            .turns
            .iter()
            .map(|t| {
                t.definitions
                    .iter()
                    .filter(|d| d.kind == DefinitionKind::Value)
                    .filter_map(|d| d.value.as_deref().map(|value| ValueDefinition { name: &d.name, value }))
                    .collect()
            })
            .collect();
        let corrections = Corrections::new(&given, &definitions);
        let returned = session.turns.iter().map(|t| {
            let error = t.error.as_ref().map(|e| e.message.clone());
            t.prints.iter().cloned().chain(t.result.clone()).chain(error).collect()
        });
        Ok(Subject { name: name.into(), requests, facts, corrections, returned: returned.collect() })
    }

    /// Turns rendered (the session's turns, at least 1).
    pub fn turns(&self) -> usize {
        self.requests.len()
    }

    /// The same session as if no turn had happened yet on any turn: every
    /// request is turn 1's, so full-history renders the turn-1 prompt (the
    /// mission, tools and data) again and again ([`NO_HISTORY`]).
    pub fn without_history(&self) -> Subject {
        Subject {
            name: self.name.clone(),
            requests: vec![self.requests[0].clone(); self.requests.len()],
            facts: self.facts.clone(),
            corrections: self.corrections.clone(),
            returned: self.returned.clone(),
        }
    }
}

/// The reference `ptc compare` measures beside full-history: the turn-1
/// prompt sent on every turn, showing no history at all. When that prompt
/// is over the provider's cache minimum its cost is the floor under every
/// strategy that keeps the mission, tools and data in the prompt (under
/// the minimum it is never cached, and a longer prompt that is can cost
/// less); the *history cost* of a strategy is what it pays above it
/// ([`Figures::history_cost`]).
pub const NO_HISTORY: &str = "no-history";

/// Render stats summed over turns.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StatsSum {
    /// Sum of `turns_compressed`.
    pub turns_compressed: u64,
    /// Sum of `tool_calls_dropped`.
    pub tool_calls_dropped: u64,
    /// Sum of `printlns_dropped`.
    pub printlns_dropped: u64,
    /// Sum of `error_turns_collapsed`.
    pub error_turns_collapsed: u64,
    /// Strategy counters by name, summed.
    pub counters: IndexMap<String, i64>,
}

impl StatsSum {
    fn add_stats(&mut self, s: &Stats) {
        self.turns_compressed += u64::from(s.turns_compressed);
        self.tool_calls_dropped += u64::from(s.tool_calls_dropped);
        self.printlns_dropped += u64::from(s.printlns_dropped);
        self.error_turns_collapsed += u64::from(s.error_turns_collapsed);
        for c in s.counters() {
            *self.counters.entry(c.name().to_string()).or_default() += c.value();
        }
    }

    fn add(&mut self, o: &StatsSum) {
        self.turns_compressed += o.turns_compressed;
        self.tool_calls_dropped += o.tool_calls_dropped;
        self.printlns_dropped += o.printlns_dropped;
        self.error_turns_collapsed += o.error_turns_collapsed;
        for (k, v) in &o.counters {
            *self.counters.entry(k.clone()).or_default() += v;
        }
    }
}

/// One strategy over one session, turn by turn, or (summed) over several.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Figures {
    /// Turns rendered.
    pub turns: u64,
    /// Prompt tokens per turn (one session only; empty in sums).
    pub prompt_tokens: Vec<u64>,
    /// Prompt tokens over all turns.
    pub total_tokens: u64,
    /// Sum over turns of (prompt tokens - the run's turn-1 prompt tokens).
    pub history_tokens: i64,
    /// Largest single prompt, in tokens.
    pub largest_prompt: u64,
    /// Turns served by full-history (before a trigger, or single shot).
    pub turns_full_history: u64,
    /// Per price model (in the order asked for): per turn (one session
    /// only) and the total.
    pub costs: Vec<ModelFigures>,
    /// Fact recall.
    pub recall: RecallFigures,
    /// Stale facts shown.
    pub stale: StaleFigures,
    /// Per turn, the corrections its prompt showed stale (one session only).
    pub stale_turns: Vec<usize>,
    /// The learned facts a program used that its prompt did not show (one
    /// session only; `recall.used - recall.visible` of them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missed: Vec<MissedFact>,
    /// Render stats, summed.
    pub stats: StatsSum,
    /// The text of the prompt of one turn (for the HTML report), when asked.
    #[serde(skip)]
    pub shown_prompt: Option<(usize, String)>,
}

/// What a strategy's prompts cost under one price model.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModelFigures {
    /// The model's name.
    pub model: String,
    /// Per turn (one session only).
    pub turns: Vec<TurnCost>,
    /// Summed over turns.
    pub total: TurnCost,
    /// Summed over the turns that could read a cache and reported the same
    /// cache epoch ([`ptc_plugin_api::render::cache_epoch`]) as the turn before (no checkpoint: the prompt only
    /// appended): what a cache-stable layout promises to keep cached. A
    /// turn can read a cache when the turn before sent at least the model's
    /// minimum cacheable prefix.
    pub steady: TurnCost,
}

/// Facts used and shown, summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RecallFigures {
    /// Learned facts the programs used.
    pub used: usize,
    /// Of those, the ones their prompts showed.
    pub visible: usize,
    /// Of the others, the ones `turn-output` restores: an earlier turn's
    /// prints, result or error hold them.
    pub restorable: usize,
}

/// Stale facts shown ([`ptc_cost::Corrections`]), summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StaleFigures {
    /// (turn, correction) pairs whose prompt showed a superseded fact
    /// without the correction.
    pub shown: usize,
    /// (turn, correction) pairs checked: prompts after a correction.
    pub checked: usize,
}

/// Why a history cost means nothing ([`Figures::history_cost`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotMeaningful {
    /// The model was not priced.
    NotPriced,
    /// Full history pays (almost) nothing above the no-history floor: a
    /// short session, whose history is a rounding error.
    NoHistoryToPay,
    /// No-history costs more than what it is compared with: its prompt is
    /// under the cache minimum and never cached, so it is no floor.
    NotAFloor,
}

impl fmt::Display for NotMeaningful {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotMeaningful::NotPriced => "the model was not priced",
            NotMeaningful::NoHistoryToPay => {
                "full-history pays under 2% above no-history (a short session): no history cost to share"
            }
            NotMeaningful::NotAFloor => {
                "no-history is not a floor here: it costs more than the strategy or full-history \
                 (a turn-1 prompt under the cache minimum is never read from the cache; or the strategy \
                 sends less than the turn-1 prompt)"
            }
        })
    }
}

/// Full history must pay at least this share of its cost above the
/// no-history floor for a history cost to mean anything.
pub const MIN_HISTORY_SHARE: f64 = 0.02;

impl RecallFigures {
    /// `visible / used`, `None` when no learned fact was used.
    pub fn share(&self) -> Option<f64> {
        (self.used > 0).then(|| self.visible as f64 / self.used as f64)
    }

    /// `(visible + restorable) / used`: recall when the model may ask for
    /// a turn's output back.
    pub fn restorable_share(&self) -> Option<f64> {
        (self.used > 0).then(|| (self.visible + self.restorable) as f64 / self.used as f64)
    }
}

impl Figures {
    /// Adds the figures of another run (per-turn lists are not kept in sums).
    pub fn add(&mut self, o: &Figures) {
        self.turns += o.turns;
        self.total_tokens += o.total_tokens;
        self.history_tokens += o.history_tokens;
        self.largest_prompt = self.largest_prompt.max(o.largest_prompt);
        self.turns_full_history += o.turns_full_history;
        self.stats.add(&o.stats);
        self.recall.used += o.recall.used;
        self.recall.visible += o.recall.visible;
        self.recall.restorable += o.recall.restorable;
        self.stale.shown += o.stale.shown;
        self.stale.checked += o.stale.checked;
        if self.costs.is_empty() {
            self.costs =
                o.costs.iter().map(|m| ModelFigures { model: m.model.clone(), ..Default::default() }).collect();
        }
        for (mine, theirs) in self.costs.iter_mut().zip(&o.costs) {
            mine.total.add(&theirs.total);
            mine.steady.add(&theirs.steady);
        }
    }

    /// The total under `model`, if it was priced.
    pub fn cost(&self, model: &str) -> Option<&TurnCost> {
        self.model(model).map(|m| &m.total)
    }

    /// The input cost under `model`, if it was priced.
    pub fn input_cost(&self, model: &str) -> Option<f64> {
        self.cost(model).map(|c| c.cost.input)
    }

    /// What these figures pay for showing history under `model`, as a share
    /// of what the full history pays for it: `(cost - floor) / (full -
    /// floor)`, with `floor` the [`NO_HISTORY`] figures; why not, when that
    /// share means nothing.
    pub fn history_cost(&self, full: &Figures, floor: &Figures, model: &str) -> Result<f64, NotMeaningful> {
        let priced = |f: &Figures| f.input_cost(model).ok_or(NotMeaningful::NotPriced);
        let (cost, full, floor) = (priced(self)?, priced(full)?, priced(floor)?);
        if floor > cost + f64::EPSILON || floor > full + f64::EPSILON {
            return Err(NotMeaningful::NotAFloor);
        }
        if full - floor <= MIN_HISTORY_SHARE * full {
            return Err(NotMeaningful::NoHistoryToPay);
        }
        Ok((cost - floor) / (full - floor))
    }

    /// The figures under `model`, if it was priced.
    pub fn model(&self, model: &str) -> Option<&ModelFigures> {
        self.costs.iter().find(|m| m.model == model)
    }
}

/// What [`measure`] prices and shows.
pub struct Measure<'a, 'c> {
    /// The price models, in report order.
    pub models: &'a [&'a PriceModel],
    /// Tokenizes the request serializations (shared across runs: each
    /// distinct text is tokenized once).
    pub memo: &'a mut TokenMemo<'c>,
    /// Counts prompt tokens for the policy (budgets, triggers) and the figures.
    pub counter: &'c TokenCounter,
    /// Keep the text of this turn's prompt (1-based; past the last turn:
    /// the last one).
    pub show_turn: Option<usize>,
}

/// Why a strategy instance could not be measured.
#[derive(Debug, Clone)]
pub enum MeasureError {
    /// The instance name gives no strategy.
    Lookup(Box<LookupError>),
    /// A turn of a session could not be rendered.
    Render {
        /// The session's name.
        session: String,
        /// The turn.
        turn: u32,
        /// Why.
        error: PolicyError,
    },
}

impl fmt::Display for MeasureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeasureError::Lookup(e) => e.fmt(f),
            MeasureError::Render { session, turn, error } => write!(f, "{session}: turn {turn}: {error}"),
        }
    }
}

impl std::error::Error for MeasureError {}

/// Renders every turn of `subject` through `policy` and measures it.
pub fn measure(policy: &mut Policy<'_>, subject: &Subject, how: &mut Measure<'_, '_>) -> Result<Figures, MeasureError> {
    let mut m = Measuring::start(how.models);
    let show = how.show_turn.map(|t| t.clamp(1, subject.requests.len()));
    let mut previous_epoch = None;
    for request in &subject.requests {
        let served = policy.render(request).map_err(|error| MeasureError::Render {
            session: subject.name.clone(),
            turn: request.turn(),
            error,
        })?;
        if served.phase == Phase::FullHistory {
            m.f.turns_full_history += 1;
        }
        m.f.stats.add_stats(served.rendered.stats());
        let epoch = cache_epoch(&served.rendered);
        let same_epoch = previous_epoch == Some(epoch);
        previous_epoch = Some(epoch);
        m.turn(&ptc_cost::Prompt::from(&served.rendered), served.tokens as u64, same_epoch, how);
        if show == Some(request.turn() as usize) {
            m.f.shown_prompt = m.texts.last().map(|text| (request.turn() as usize, text.clone()));
        }
    }
    Ok(m.finish(subject))
}

/// Measures the prompts `session` recorded as sent (its turns' messages,
/// blocks and breakpoints), as [`measure`] measures a strategy's: what a
/// run itself cost and showed, whichever instances served it. `subject`
/// is the same session; `None` when a turn's prompt was not recorded.
pub fn measure_recorded(session: &Session, subject: &Subject, how: &mut Measure<'_, '_>) -> Option<Figures> {
    let mut m = Measuring::start(how.models);
    for turn in &session.turns {
        if turn.messages.is_empty() {
            return None;
        }
        let prompt = ptc_agent::costing::recorded_prompt(&turn.messages);
        // The recorded blocks carry no cache epoch: every turn counts as
        // steady when the prefix was cacheable.
        m.turn(&prompt, turn.prompt_tokens.unwrap_or_default(), true, how);
    }
    Some(m.finish(subject))
}

/// The figures of one measurement, turn by turn.
struct Measuring {
    f: Figures,
    accounts: Vec<Accounting>,
    texts: Vec<String>,
}

impl Measuring {
    fn start(models: &[&PriceModel]) -> Measuring {
        let costs = models.iter().map(|m| ModelFigures { model: m.name().to_string(), ..Default::default() });
        Measuring {
            f: Figures { costs: costs.collect(), ..Default::default() },
            accounts: models.iter().map(|m| Accounting::new(m)).collect(),
            texts: Vec::new(),
        }
    }

    /// Adds one turn's prompt of `tokens` prompt tokens (its text last in
    /// `texts`).
    fn turn(&mut self, priced: &ptc_cost::Prompt, tokens: u64, same_epoch: bool, how: &mut Measure<'_, '_>) {
        let f = &mut self.f;
        let base = *f.prompt_tokens.first().unwrap_or(&tokens);
        f.prompt_tokens.push(tokens);
        f.turns += 1;
        f.total_tokens += tokens;
        f.history_tokens += tokens as i64 - base as i64;
        f.largest_prompt = f.largest_prompt.max(tokens);
        for ((account, figures), model) in self.accounts.iter_mut().zip(&mut f.costs).zip(how.models) {
            let turn = account.turn(priced, None, how.memo);
            figures.total.add(&turn);
            let cacheable = figures.turns.last().is_some_and(|t| t.usage.prompt_tokens >= model.min_cached_tokens());
            if same_epoch && cacheable {
                figures.steady.add(&turn);
            }
            figures.turns.push(turn);
        }
        self.texts.push(priced.text());
    }

    /// The figures, with the recall and stale facts of every prompt.
    fn finish(mut self, subject: &Subject) -> Figures {
        let f = &mut self.f;
        let recall: Recall = subject.facts.recall(&self.texts);
        let restorable = subject.facts.restorable(&recall.missed, &subject.returned);
        f.recall = RecallFigures { used: recall.used, visible: recall.visible, restorable };
        f.missed = recall.missed;
        let stale = subject.corrections.stale(&self.texts);
        f.stale = StaleFigures { shown: stale.shown, checked: stale.checked };
        f.stale_turns = stale.turns;
        self.f
    }
}

/// The report data of one strategy on one session, for [`ptc_cost::render_html`].
pub fn strategy_report(name: &str, f: &Figures, models: &[&PriceModel]) -> ptc_cost::StrategyReport {
    ptc_cost::StrategyReport {
        name: name.to_string(),
        prompt_tokens: f.prompt_tokens.clone(),
        costs: models
            .iter()
            .zip(&f.costs)
            .map(|(m, c)| ModelCosts { model: c.model.clone(), unit: m.unit(), turns: c.turns.clone() })
            .collect(),
        recall: Some(Recall { used: f.recall.used, visible: f.recall.visible, ..Recall::default() }),
        stale: Some(f.stale.shown),
        shown_prompt: f.shown_prompt.clone().map(|(turn, text)| ptc_cost::ShownPrompt { turn, text }),
    }
}

/// The cost-vs-recall points of `rows` under every model of `models`:
/// input cost as a share of `full`'s, recall over all sessions.
pub fn frontier_points(rows: &[Row], full: &Figures, models: &[&PriceModel]) -> Vec<ptc_cost::FrontierPoint> {
    let mut points = Vec::new();
    for m in models {
        for r in rows {
            let Ok(f) = &r.figures else { continue };
            if let (Some(cost), Some(base)) = (f.input_cost(m.name()), full.input_cost(m.name())) {
                if base > 0.0 {
                    points.push(ptc_cost::FrontierPoint {
                        strategy: r.name.clone(),
                        model: m.name().to_string(),
                        cost: cost / base,
                        recall: f.recall.share(),
                    });
                }
            }
        }
    }
    points
}

#[cfg(test)]
mod tests;
