//! The shared run budget of a tree of runs (`ptc_agent::budget`): charged
//! to every budget above a prompt or to none, priced per budget, never
//! passed together by concurrent runs, shown as progress shows it.

use ptc_agent::budget::{Budget, Budgets, Spent};
use ptc_agent::config::RunLimits;
use ptc_agent::run_limits::RunLimit;
use ptc_cost::PriceModel;
use std::sync::Arc;

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
    assert!(stop.detail.starts_with("max_run_prompt_tokens = 600 reached: turn 2's prompt of 200"), "{}", stop.detail);
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
    // Progress shows the budget closest to its limit: the top's, 55% spent.
    assert_eq!(chain.tightest("cheap").unwrap().to_string(), "cost(top)=5.5/10");
}

#[test]
fn concurrent_prompts_never_pass_the_limit_together() {
    let top = budget("top", Some(1000), None, "openai").unwrap();
    let chain = Budgets::default().with(Some(Arc::clone(&top)));
    assert_eq!(chain.tightest("top").map(|u| u.to_string()).as_deref(), Some("budget=0/1000"), "as progress shows it");
    let granted: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..16)
            .map(|_| s.spawn(|| chain.reserve("top", "a prompt", 100, |_| 0.0).map(|r| r.settle(|_| 0.0)).is_ok()))
            .collect();
        handles.into_iter().map(|h| usize::from(h.join().unwrap())).sum()
    });
    assert_eq!((granted, top.spent().tokens), (10, 1000));
}
