//! The limits of a whole run (`ptc_agent::run_limits`): tool calls per run
//! and per turn, a turn's tool traffic, the deadline and the budget rule.

use ptc_agent::budget::{Budget, Budgets, Spent};
use ptc_agent::config::RunLimits;
use ptc_agent::run_limits::*;
use ptc_cost::{Price, PriceModel, PricingTable};
use ptc_lisp::{run_program, Limits, Memory};
use ptc_lisp::{ToolError, ToolErrorKind, ToolHost};
use serde_json::json;
use serde_json::Value as Json;
use std::time::Duration;

fn echo(_name: &str, args: Json) -> Result<Json, String> {
    Ok(args)
}

fn limits(run: Option<u64>, turn: Option<u64>) -> RunLimits {
    RunLimits { max_tool_calls: run, max_tool_calls_per_turn: turn, ..RunLimits::default() }
}

#[test]
fn calls_past_a_limit_are_refused_and_named() {
    let host = echo;
    let counted = Counted::new(&host, 0, limits(None, Some(2)));
    assert_eq!(counted.call("t", json!(1)), Ok(json!(1)));
    assert_eq!(counted.call("t", json!(2)), Ok(json!(2)));
    let e = counted.call("t", json!(3)).unwrap_err();
    assert_eq!(
        e,
        ToolError::new(ToolErrorKind::Limit, "max_tool_calls_per_turn = 2 reached: tool/t would be call 3 of this turn; the tool was not called and the run ends after this turn")
    );
    assert_eq!(counted.made(), 2);
    assert_eq!(counted.stop().map(|s| s.limit), Some(RunLimit::MaxToolCallsPerTurn));

    // The run's limit counts earlier turns' calls.
    let counted = Counted::new(&host, 4, limits(Some(5), None));
    assert!(counted.call("t", json!(1)).is_ok());
    let e = counted.call("t", json!(2)).unwrap_err();
    assert!(e.message.starts_with("max_tool_calls = 5 reached: tool/t would be call 6 of the run"), "{e}");
    assert_eq!(e.kind, ToolErrorKind::Limit);
    assert_eq!((counted.made(), counted.stop().unwrap().limit), (1, RunLimit::MaxToolCalls));
}

#[test]
fn arguments_and_results_past_the_turns_bound_are_refused_and_the_run_goes_on() {
    let mib = "x".repeat(1 << 20);
    let host = move |_: &str, _: Json| -> Result<Json, String> { Ok(json!([mib.clone()])) };
    let counted = Counted::new(&host, 0, RunLimits::default());
    // Each result is 1 MiB and 4 bytes of JSON: 63 fit, the 64th passes 64 MiB.
    for _ in 0..63 {
        assert!(counted.call("page", json!({})).is_ok());
    }
    let e = counted.call("page", json!({})).unwrap_err();
    assert_eq!(e.kind, ToolErrorKind::Limit);
    assert_eq!(
        e.message,
        "this program's tool arguments and results passed 64 MiB (MAX_TOOL_BYTES_PER_TURN) with tool/page's result \
         of 1048580 bytes, which the program does not get; send and ask for less per call (a page, a filter, an id), \
         or spread the calls over turns"
    );
    assert_eq!((counted.made(), counted.stop()), (64, None), "the tool was called; the run goes on");
    // Past the bound, arguments are counted before the call: it is not made.
    let e = counted.call("page", json!({})).unwrap_err();
    assert!(e.message.contains("with tool/page's arguments of 2 bytes, so it was not called;"), "{e}");
    assert_eq!(counted.made(), 64, "not made, so not counted against max_tool_calls");
    // The next turn counts afresh; arguments count as results do.
    let fresh = Counted::new(&host, 65, RunLimits::default());
    let big = "y".repeat(63 << 20);
    let e = fresh.call("page", json!([big])).unwrap_err();
    assert!(e.message.contains("with tool/page's result of 1048580 bytes"), "{e}");
}

#[test]
fn pmap_cannot_pass_the_limit_with_concurrent_calls() {
    let host = echo;
    let mut counted = Counted::new(&host, 0, limits(Some(3), None));
    let out = run_program(
        "(pmap #(tool/t {:i %}) (range 8))",
        &Memory::new(),
        &Default::default(),
        &mut counted,
        &Limits::default(),
    );
    assert!(out.result.is_err());
    assert_eq!(counted.made(), 3, "exactly the limit reached a tool");
    assert_eq!(counted.stop().map(|s| s.limit), Some(RunLimit::MaxToolCalls));
    assert!(out
        .tool_calls
        .iter()
        .any(|c| c.result.as_ref().is_err_and(|e| e.message.starts_with("max_tool_calls = 3 reached"))));
}

#[test]
fn the_deadline_caps_and_stops() {
    let none = Deadline::start(&RunLimits::default());
    assert_eq!((none.passed(), none.cap(Duration::from_secs(9))), (None, Duration::from_secs(9)));
    let far = Deadline::start(&RunLimits { run_timeout_ms: Some(3_600_000), ..RunLimits::default() });
    assert_eq!(far.cap(Duration::from_secs(1)), Duration::from_secs(1));
    assert!(far.passed().is_none());
    let gone = Deadline::start(&RunLimits { run_timeout_ms: Some(0), ..RunLimits::default() });
    assert_eq!(gone.passed().map(|s| s.limit), Some(RunLimit::RunTimeout));
    assert_eq!(gone.cap(Duration::from_secs(1)), Duration::ZERO);
}

#[test]
fn the_budget_is_checked_with_the_prompt_about_to_be_sent() {
    let limits = RunLimits { max_run_prompt_tokens: Some(1000), max_run_cost: Some(0.05), ..RunLimits::default() };
    let money = PricingTable { input: Some(Price::PerMillion(3.0)), ..PricingTable::default() };
    let sonnet = PriceModel::from_table("sonnet", &money).unwrap();
    let spent = Spent { tokens: 900, cost: 0.04 };
    let budgets = || Budgets::default().with(Budget::new("a", limits, sonnet.clone(), spent));
    let check = |tokens: u64, cost: f64| budgets().reserve("a", "turn 4's prompt", tokens, |_| cost).err();
    // Exactly at a limit is within it.
    assert_eq!(check(100, 0.01), None);
    let stop = check(101, 0.0).unwrap();
    assert_eq!((stop.limit, stop.limit.as_str()), (RunLimit::MaxRunPromptTokens, "max_run_prompt_tokens"));
    assert_eq!(
        stop.detail,
        "max_run_prompt_tokens = 1000 reached: turn 4's prompt of 101 tokens would bring the run to 1001; it was not sent"
    );
    // Money (per-million prices) keeps four decimals below 1.
    let stop = check(10, 0.0125).unwrap();
    assert_eq!(stop.limit, RunLimit::MaxRunCost);
    assert_eq!(
        stop.detail,
        "max_run_cost = 0.05 reached: turn 4's prompt, at 0.0125 under `sonnet` prices, would bring the run to \
         0.0525; it was not sent"
    );
    // Without the limits there is no budget, and nothing is checked.
    assert!(Budget::new("a", RunLimits::default(), sonnet, spent).is_none());
}
