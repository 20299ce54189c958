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

    /// Charges `tokens` and `cost`, or the stop when that would pass a
    /// limit (then nothing is charged). `what` names the prompt.
    fn reserve(&self, what: &str, tokens: u64, cost: Option<f64>) -> Result<(), Stop> {
        let mut spent = self.spent.lock().unwrap_or_else(PoisonError::into_inner);
        let cost = cost.filter(|_| self.limits.max_run_cost.is_some());
        if let Some(stop) = breach(&self.limits, what, spent.tokens, tokens, spent.cost, cost, self.model.name()) {
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
            if let Err(mut stop) = budget.reserve(what, tokens, cost) {
                for (earlier, cost) in &charged {
                    earlier.add(-i128::from(tokens), -cost);
                }
                if budget.agent != run {
                    stop.detail = format!(
                        "{} (the budget of `{}`, which covers the agents it runs)",
                        stop.detail
                            .replace("would bring the run to", &format!("would bring `{}`'s run to", budget.agent)),
                        budget.agent
                    );
                }
                return Err(stop);
            }
            charged.push((Arc::clone(budget), cost.unwrap_or(0.0)));
        }
        Ok(Reservation { charged, tokens })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_limits::RunLimit;

    fn model(name: &str) -> PriceModel {
        PriceModel::builtin(name).expect("a built-in price model")
    }

    fn budget(agent: &str, tokens: Option<u64>, cost: Option<f64>, price: &str) -> Option<Arc<Budget>> {
        let limits = RunLimits { max_run_prompt_tokens: tokens, max_run_cost: cost, ..RunLimits::default() };
        Budget::new(agent, limits, model(price), Spent::default())
    }

    #[test]
    fn a_prompt_is_charged_to_every_budget_above_it_or_to_none() {
        assert!(budget("free", None, None, "openai").is_none(), "no limit, no budget");
        let top = budget("top", Some(1000), None, "openai");
        let chain = Budgets::default().with(top.clone()).with(budget("helper", Some(600), None, "openai"));
        let first = chain.reserve("helper", "turn 1's prompt", 500, |_| 0.0).unwrap();
        assert_eq!(first.tokens(), 500);
        first.settle(|_| 0.0);
        let top = top.unwrap();
        assert_eq!(top.spent().tokens, 500);
        // The helper's own limit refuses the next one; the top's is not charged.
        let stop = chain.reserve("helper", "turn 2's prompt", 200, |_| 0.0).unwrap_err();
        assert_eq!(stop.limit, RunLimit::MaxRunPromptTokens);
        assert!(
            stop.detail.starts_with("max_run_prompt_tokens = 600 reached: turn 2's prompt of 200"),
            "{}",
            stop.detail
        );
        assert_eq!(top.spent().tokens, 500);
        // The top's spend counts what a sibling spent: 500 + 450 + 100 > 1000.
        let sibling = Budgets::default().with(Some(Arc::clone(&top)));
        sibling.reserve("other", "turn 1's prompt", 450, |_| 0.0).unwrap().settle(|_| 0.0);
        let stop = chain.reserve("helper", "turn 2's prompt", 60, |_| 0.0).unwrap_err();
        assert_eq!(
            stop.detail,
            "max_run_prompt_tokens = 1000 reached: turn 2's prompt of 60 tokens would bring `top`'s run to 1010; it was \
             not sent (the budget of `top`, which covers the agents it runs)"
        );
    }

    #[test]
    fn each_budget_prices_the_prompt_under_its_own_model_and_settles_to_the_cost() {
        let top = budget("top", None, Some(10.0), "anthropic").unwrap();
        let chain = Budgets::default().with(Some(Arc::clone(&top))).with(budget("cheap", None, Some(100.0), "openai"));
        let mut asked = Vec::new();
        let held = chain
            .reserve("cheap", "turn 1's prompt", 8, |m| {
                asked.push(m.name().to_string());
                4.0
            })
            .unwrap();
        assert_eq!(asked, ["anthropic", "openai"]);
        assert_eq!(top.spent(), Spent { tokens: 8, cost: 4.0 });
        held.settle(|m| if m.name() == "anthropic" { 5.5 } else { 3.0 });
        assert_eq!(top.spent(), Spent { tokens: 8, cost: 5.5 });
        let stop = chain.reserve("cheap", "an llm-query prompt", 8, |_| 5.0).unwrap_err();
        assert_eq!(stop.limit, RunLimit::MaxRunCost);
        assert!(stop.detail.contains("an llm-query prompt, at 5.0 under `anthropic` prices"), "{}", stop.detail);
    }

    #[test]
    fn concurrent_prompts_never_pass_the_limit_together() {
        let top = budget("top", Some(1000), None, "openai").unwrap();
        let chain = Budgets::default().with(Some(Arc::clone(&top)));
        let granted: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|_| s.spawn(|| chain.reserve("top", "a prompt", 100, |_| 0.0).map(|r| r.settle(|_| 0.0)).is_ok()))
                .collect();
            handles.into_iter().map(|h| usize::from(h.join().unwrap())).sum()
        });
        assert_eq!((granted, top.spent().tokens), (10, 1000));
    }
}
