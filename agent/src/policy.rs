//! Which renderer serves a turn: triggers and token budgets (host side,
//! `docs/spec/strategies.md`).
//!
//! - **Trigger.** A strategy instance may carry `trigger = { turns = N,
//!   tokens = T }`: the host sends the full history until it holds N
//!   completed turns or counts T prompt tokens, then the strategy for the
//!   rest of the run. The switch is latched (never back), so the cached
//!   prefix stays stable. No trigger: the strategy from turn 2 (turn 1 is
//!   full-history, which every strategy renders the same way). A single-shot
//!   run (`max_turns == 1`) never compresses (SS-001).
//! - **Budget.** With `max_prompt_tokens`, a prompt over budget (real
//!   tiktoken count) or a strategy's does-not-fit error passes the turn to
//!   the next `fallback` instance, in order; [`Served`] records which
//!   instance served and what was tried. Fallbacks render their strategy
//!   directly: they are only reached when a prompt is too large, and the
//!   full history is larger still. Only when none fits is it an error.
//! - **Isolation.** Any error of an isolated instance (`isolation =
//!   "process"`: its process crashed, breached a cap or timed out, or its
//!   strategy returned an error) passes the turn to the next fallback as
//!   well, budget or not, and is recorded among the attempts. An error of
//!   an in-process instance other than does-not-fit ends the turn.
//!
//! ```no_run
//! use ptc_agent::policy::Policy;
//! use ptc_agent::resolve::{token_counter, Strategy};
//! use ptc_registry::Renderer;
//! use std::sync::Arc;
//!
//! let counter = token_counter("o200k_base").unwrap();
//! let primary = Strategy::new("full-history", Arc::new(Renderer::FullHistory), None);
//! let mut policy = Policy::new(primary, Vec::new(), Some(8_000), counter);
//! let request = ptc_plugin_api::RenderRequest::new("mission", "system", 5);
//! let served = policy.render(&request).unwrap();
//! println!("{} tokens from {}", served.tokens, served.instance);
//! ```

use crate::config::Agent;
use crate::resolve::{LookupError, Resolved, Strategy};
use ptc_plugin_api::render::{full_history_prompt, FULL_HISTORY};
use ptc_plugin_api::{ErrorKind, Prompt, RenderRequest, StrategyError};
use ptc_tokens::{TokenCounter, TokenMemo};
use std::fmt;

/// How a turn's prompt was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Full history: before the primary's trigger, on a single-shot run, or
    /// the primary is full-history itself.
    FullHistory,
    /// The primary strategy.
    Strategy,
    /// Fallback number `n` (0-based index into the fallback list).
    Fallback(usize),
}

/// One renderer tried for a turn and why it was passed over (or not).
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// Instance name.
    pub instance: String,
    /// Prompt tokens, or the strategy's error.
    pub outcome: Result<usize, StrategyError>,
}

impl fmt::Display for Attempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Ok(tokens) => write!(f, "`{}` needs {tokens} tokens", self.instance),
            Err(e) => write!(f, "`{}`: {e}", self.instance),
        }
    }
}

/// The prompt of one turn and who served it.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    /// The messages and stats.
    pub rendered: Prompt,
    /// Instance that served the turn (`full-history` before a trigger).
    pub instance: String,
    /// How it was chosen.
    pub phase: Phase,
    /// Real prompt tokens of `rendered`.
    pub tokens: usize,
    /// Every renderer tried for this turn, in order, the server last.
    pub attempts: Vec<Attempt>,
}

/// Why no prompt could be produced for a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum PolicyError {
    /// A renderer failed for a reason other than size (and no fallback was
    /// left to try).
    Render {
        /// Instance name.
        instance: String,
        /// Its error.
        error: StrategyError,
    },
    /// An isolated instance failed and no fallback served the turn either.
    NoneServes {
        /// Every renderer tried, in order.
        attempts: Vec<Attempt>,
    },
    /// Every candidate exceeded `max_prompt_tokens`.
    NoneFits {
        /// The budget.
        budget: usize,
        /// What each candidate needed.
        attempts: Vec<Attempt>,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::Render { instance, error } => write!(f, "strategy `{instance}`: {error}"),
            PolicyError::NoneServes { attempts } => {
                let tried: Vec<String> = attempts.iter().map(|a| a.to_string()).collect();
                write!(f, "no strategy could serve the turn: {}", tried.join("; "))
            }
            PolicyError::NoneFits { budget, attempts } => {
                let tried: Vec<String> = attempts.iter().map(|a| a.to_string()).collect();
                write!(
                    f,
                    "no strategy fits max_prompt_tokens = {budget}: {}; raise the budget or add a tighter fallback",
                    tried.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for PolicyError {}

/// The per-run selection state: the primary instance, its fallbacks, the
/// budget, and whether the trigger has fired.
pub struct Policy<'a> {
    primary: Strategy,
    fallbacks: Vec<Strategy>,
    budget: Option<usize>,
    /// Counts prompt tokens; the system prompt and every message that
    /// comes back turn after turn are tokenized once.
    tokens: TokenMemo<'a>,
    switched: bool,
}

impl<'a> Policy<'a> {
    /// A policy for one run; `budget` is `max_prompt_tokens`.
    pub fn new(
        primary: Strategy,
        fallbacks: Vec<Strategy>,
        budget: Option<usize>,
        counter: &'a TokenCounter,
    ) -> Policy<'a> {
        Policy { primary, fallbacks, budget, tokens: TokenMemo::new(counter), switched: false }
    }

    /// The policy of `agent`: its strategy instance (with its trigger), its
    /// `fallback` instances and its `max_prompt_tokens`. `counter` should
    /// use the agent's encoding.
    pub fn for_agent(resolved: &Resolved, agent: &Agent, counter: &'a TokenCounter) -> Result<Policy<'a>, LookupError> {
        let primary = resolved.strategy(agent.strategy.as_deref().unwrap_or(FULL_HISTORY))?;
        let fallbacks = agent.fallback.iter().map(|n| resolved.strategy(n)).collect::<Result<Vec<_>, _>>()?;
        let budget = agent.max_prompt_tokens.map(|b| usize::try_from(b).unwrap_or(usize::MAX));
        Ok(Policy::new(primary, fallbacks, budget, counter))
    }

    /// Whether the primary strategy has taken over (latched).
    pub fn switched(&self) -> bool {
        self.switched
    }

    /// Marks the trigger as fired: a resumed run whose earlier turns were
    /// already served by the strategy stays with it.
    pub fn restore_switch(&mut self) {
        self.switched = true;
    }

    /// Decides whether turn `request.turn()` uses the primary strategy,
    /// latching the switch. `full_tokens` lazily counts the full history.
    fn use_strategy(&mut self, request: &RenderRequest, full_tokens: impl FnOnce(&mut TokenMemo<'a>) -> usize) -> bool {
        if request.max_turns() <= 1 || self.primary.is_full_history() {
            return false;
        }
        if !self.switched {
            let completed = request.turns().len() as u64;
            self.switched = match self.primary.trigger {
                None => completed >= 1,
                Some(t) => {
                    t.turns.is_some_and(|n| completed >= u64::from(n))
                        || t.tokens.is_some_and(|limit| full_tokens(&mut self.tokens) as u64 >= limit)
                }
            };
            if self.switched {
                tracing::info!(instance = %self.primary.name, turn = request.turn(), "strategy takes over from full-history");
            }
        }
        self.switched
    }

    /// Renders the prompt of `request.turn()`.
    pub fn render(&mut self, request: &RenderRequest) -> Result<Served, PolicyError> {
        // Rendered at most once: for the trigger's token count, then served.
        let full = std::cell::OnceCell::new();
        let strategy = self.use_strategy(request, |tokens| {
            tokens.count_messages(full.get_or_init(|| full_history_prompt(request)).messages())
        });
        let mut attempts = Vec::new();

        let (first, phase, isolated) = if strategy {
            (self.primary.renderer.render(request), Phase::Strategy, self.primary.renderer.isolated())
        } else {
            (Ok(full.into_inner().unwrap_or_else(|| full_history_prompt(request))), Phase::FullHistory, false)
        };
        let name = if strategy { self.primary.name.clone() } else { FULL_HISTORY.to_string() };
        if let Some(served) = Self::try_one(self.budget, &mut self.tokens, name, first, phase, isolated, &mut attempts)?
        {
            return Ok(served);
        }
        for (i, fallback) in self.fallbacks.iter().enumerate() {
            let outcome = fallback.renderer.render(request);
            let isolated = fallback.renderer.isolated();
            let name = fallback.name.clone();
            let phase = Phase::Fallback(i);
            if let Some(served) =
                Self::try_one(self.budget, &mut self.tokens, name, outcome, phase, isolated, &mut attempts)?
            {
                return Ok(served);
            }
        }
        let size_only =
            attempts.iter().all(|a| a.outcome.as_ref().map_or_else(|e| e.kind() == ErrorKind::DoesNotFit, |_| true));
        match (size_only, self.budget) {
            (true, Some(budget)) => Err(PolicyError::NoneFits { budget, attempts }),
            _ if attempts.len() == 1 && attempts[0].outcome.is_err() => {
                let Attempt { instance, outcome } = attempts.remove(0);
                Err(PolicyError::Render { instance, error: outcome.expect_err("checked just above") })
            }
            _ => Err(PolicyError::NoneServes { attempts }),
        }
    }

    /// Checks one render against the `budget`, counting its tokens with
    /// `tokens`: `Some` when it serves the turn, `None` to try the next
    /// candidate. An error passes the turn on when the renderer is
    /// `isolated` (untrusted: its failures are expected), or when it does
    /// not fit a budget. (Takes the two fields it needs, not `self`, so the
    /// caller can go on iterating its fallbacks.)
    fn try_one(
        budget: Option<usize>,
        tokens: &mut TokenMemo<'a>,
        instance: String,
        outcome: Result<Prompt, StrategyError>,
        phase: Phase,
        isolated: bool,
        attempts: &mut Vec<Attempt>,
    ) -> Result<Option<Served>, PolicyError> {
        let rendered = match outcome {
            Ok(r) => r,
            Err(error) if isolated || (error.kind() == ErrorKind::DoesNotFit && budget.is_some()) => {
                if isolated {
                    tracing::warn!(instance = %instance, error = %error, "isolated strategy failed; trying the next fallback");
                }
                attempts.push(Attempt { instance, outcome: Err(error) });
                return Ok(None);
            }
            Err(error) => return Err(PolicyError::Render { instance, error }),
        };
        let tokens = tokens.count_messages(rendered.messages());
        attempts.push(Attempt { instance: instance.clone(), outcome: Ok(tokens) });
        if let Some(budget) = budget.filter(|&b| tokens > b) {
            tracing::info!(instance = %instance, tokens, budget, "prompt over max_prompt_tokens; trying the next fallback");
            return Ok(None);
        }
        Ok(Some(Served { rendered, instance, phase, tokens, attempts: std::mem::take(attempts) }))
    }
}
