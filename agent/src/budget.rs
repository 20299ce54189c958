//! One run budget for a tree of runs: `max_run_prompt_tokens` and
//! `max_run_cost` of an agent cover what its run spends and what the runs
//! it starts spend: agents it runs as tools (and theirs, to any depth) and
//! every `llm-query` call among them. A prompt is charged, before it is
//! sent, to the budget of its own run and of every run above it
//! ([`Budgets::reserve`]); the first that it would take past its limit
//! refuses it, and then none is charged. Its cost is each budget's own:
//! priced under that budget's price model (so `max_run_cost` of an agent
//! priced in money counts a nested agent's prompts in money too). Once the
//! answer is in, the reservation is settled to what the turn cost
//! ([`Reservation::settle`]), the answer's output included.
//!
//! Reserving happens under each budget's lock, so concurrent runs (`pmap`
//! over an agent tool) never pass a limit together: each prompt is checked
//! against what the others have reserved.

use crate::config::RunLimits;
use crate::run_limits::{breach, Stop};
use ptc_cost::PriceModel;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// What a budget has been charged: prompt tokens and cost.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    /// Prompt tokens, as ptc counts them.
    pub tokens: u64,
    /// Cost under the budget's price model.
    pub cost: f64,
}

/// The budget of one run that sets `max_run_prompt_tokens` or
/// `max_run_cost`, shared by the runs below it.
#[derive(Debug)]
pub struct Budget {
    agent: String,
    limits: RunLimits,
    model: PriceModel,
    spent: Mutex<Spent>,
}

impl Budget {
    /// The budget of agent `agent`'s run, if its `limits` set one; `spent`
    /// is what it spent before (a resumed run's recorded turns).
    pub fn new(agent: &str, limits: RunLimits, model: PriceModel, spent: Spent) -> Option<Arc<Budget>> {
        (limits.max_run_prompt_tokens.is_some() || limits.max_run_cost.is_some())
            .then(|| Arc::new(Budget { agent: agent.to_string(), limits, model, spent: Mutex::new(spent) }))
    }

    /// The agent whose budget it is.
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The price model its cost is counted under.
    pub fn model(&self) -> &PriceModel {
        &self.model
    }

    /// What it has been charged so far, reservations included.
    pub fn spent(&self) -> Spent {
        *self.spent.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Charges `tokens` and `cost` (`None` without `max_run_cost`), or
    /// the stop when that would pass a limit (then nothing is charged).
    /// `what` names the prompt, `run` the agent whose prompt it is: a stop
    /// by the budget of a run above names that run.
    fn reserve(&self, run: &str, what: &str, tokens: u64, cost: Option<f64>) -> Result<(), Stop> {
        let mut spent = self.spent.lock().unwrap_or_else(PoisonError::into_inner);
        let above = self.agent != run;
        let whose = if above { format!("`{}`'s run", self.agent) } else { "the run".to_string() };
        let model = self.model.name();
        if let Some(mut stop) = breach(&self.limits, what, &whose, spent.tokens, tokens, spent.cost, cost, model) {
            if above {
                stop.detail =
                    format!("{} (the budget of `{}`, which covers the agents it runs)", stop.detail, self.agent);
            }
            return Err(stop);
        }
        spent.tokens += tokens;
        spent.cost += cost.unwrap_or(0.0);
        Ok(())
    }

    fn add(&self, tokens: i128, cost: f64) {
        let mut spent = self.spent.lock().unwrap_or_else(PoisonError::into_inner);
        spent.tokens = (i128::from(spent.tokens) + tokens).max(0) as u64;
        spent.cost += cost;
    }
}

/// The budgets a run's prompts are charged to: those of the runs above it
/// and its own, outermost first. Empty when no run on the chain set one.
#[derive(Clone, Default)]
pub struct Budgets(Vec<Arc<Budget>>);

impl Budgets {
    /// These budgets and, below them, `own` (a run's own, if it set one).
    pub fn with(&self, own: Option<Arc<Budget>>) -> Budgets {
        Budgets(self.0.iter().cloned().chain(own).collect())
    }

    /// The budgets, outermost first.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Budget>> {
        self.0.iter()
    }

    /// Charges a prompt of `tokens` to every budget, each at
    /// `cost_under(its price model)` (asked only of a budget with
    /// `max_run_cost`), or the stop of the first it would pass (then none
    /// is charged). `what` names the prompt (`turn 3's prompt`), `run` the
    /// agent whose prompt it is: a stop by a budget above names that one.
    pub fn reserve(
        &self,
        run: &str,
        what: &str,
        tokens: u64,
        mut cost_under: impl FnMut(&PriceModel) -> f64,
    ) -> Result<Reservation, Stop> {
        let mut charged: Vec<(Arc<Budget>, f64)> = Vec::new();
        for budget in &self.0 {
            let cost = budget.limits.max_run_cost.map(|_| cost_under(&budget.model));
            if let Err(stop) = budget.reserve(run, what, tokens, cost) {
                for (earlier, cost) in &charged {
                    earlier.add(-i128::from(tokens), -cost);
                }
                return Err(stop);
            }
            charged.push((Arc::clone(budget), cost.unwrap_or(0.0)));
        }
        Ok(Reservation { charged, tokens })
    }
}

impl Budgets {
    /// The budget closest to its limit (the highest share of a limit
    /// spent), as progress shows it; `run` is the running agent.
    pub fn tightest(&self, run: &str) -> Option<BudgetUse> {
        let uses = self.0.iter().map(|budget| {
            let spent = budget.spent();
            BudgetUse {
                above: (budget.agent != run).then(|| budget.agent.clone()),
                tokens: budget.limits.max_run_prompt_tokens.map(|max| (spent.tokens, max)),
                cost: budget.limits.max_run_cost.map(|max| (spent.cost, max)),
            }
        });
        uses.max_by(|a, b| a.share().total_cmp(&b.share()))
    }
}

/// A budget's state as progress shows it: `budget=3822/4800` (tokens),
/// `cost=1589.0/2000` (under its price model), `budget(top)=...` for the
/// budget of a run above.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetUse {
    /// The agent whose budget it is, when it is a run above the running one.
    pub above: Option<String>,
    /// Prompt tokens spent and `max_run_prompt_tokens`.
    pub tokens: Option<(u64, u64)>,
    /// Cost spent and `max_run_cost`.
    pub cost: Option<(f64, f64)>,
}

impl BudgetUse {
    /// The highest share of a limit spent.
    fn share(&self) -> f64 {
        let tokens = self.tokens.map_or(0.0, |(spent, max)| spent as f64 / max.max(1) as f64);
        let cost = self.cost.map_or(0.0, |(spent, max)| if max > 0.0 { spent / max } else { f64::INFINITY });
        tokens.max(cost)
    }
}

impl fmt::Display for BudgetUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whose = self.above.as_ref().map_or(String::new(), |agent| format!("({agent})"));
        let mut parts = Vec::new();
        if let Some((spent, max)) = self.tokens {
            parts.push(format!("budget{whose}={spent}/{max}"));
        }
        if let Some((spent, max)) = self.cost {
            parts.push(format!("cost{whose}={}/{max}", crate::run_limits::round(spent)));
        }
        f.write_str(&parts.join("  "))
    }
}

impl fmt::Debug for Budgets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter().map(|b| &b.agent)).finish()
    }
}

/// The same budgets (the same runs'), not budgets alike.
impl PartialEq for Budgets {
    fn eq(&self, other: &Budgets) -> bool {
        self.0.len() == other.0.len() && self.0.iter().zip(&other.0).all(|(a, b)| Arc::ptr_eq(a, b))
    }
}

impl Eq for Budgets {}

/// A prompt charged to its budgets, to settle once its cost is known.
#[derive(Debug)]
#[must_use = "settle it with what the prompt cost"]
pub struct Reservation {
    charged: Vec<(Arc<Budget>, f64)>,
    tokens: u64,
}

impl Reservation {
    /// Puts what the prompt and its answer cost, `cost_under(model)`, in
    /// place of the estimate reserved (asked only of a budget with
    /// `max_run_cost`). Not settled (dropped), the estimate stays.
    pub fn settle(self, mut cost_under: impl FnMut(&PriceModel) -> f64) {
        for (budget, reserved) in &self.charged {
            if budget.limits.max_run_cost.is_some() {
                budget.add(0, cost_under(&budget.model) - reserved);
            }
        }
    }

    /// The prompt tokens charged.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }
}
