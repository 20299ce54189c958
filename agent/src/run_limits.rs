//! The limits of a whole run, beside the sandbox limits of one program:
//! `max_tool_calls` (the run), `max_tool_calls_per_turn` (one program),
//! `run_timeout_ms` (the wall clock of the run), and the rule of the
//! budget, `max_run_prompt_tokens` and `max_run_cost` ([`over_budget`]): a
//! prompt that would pass it is not sent. The run applies it to its own
//! budget and those above it through [`crate::budget`]. Breaching one ends
//! the run with status `limit` and a [`Stop`] naming the limit.

use crate::config::RunLimits;
use ptc_lisp::{ToolError, ToolErrorKind, ToolHost};
use serde_json::Value as Json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A limit of a whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunLimit {
    /// `max_tool_calls`: tool calls over the run.
    MaxToolCalls,
    /// `max_tool_calls_per_turn`: tool calls of one program.
    MaxToolCallsPerTurn,
    /// `run_timeout_ms`: the run's wall clock.
    RunTimeout,
    /// `max_run_prompt_tokens`: prompt tokens sent over the run.
    MaxRunPromptTokens,
    /// `max_run_cost`: the run's cost under the agent's price model.
    MaxRunCost,
}

impl RunLimit {
    /// The limit's config key, which a session records as its stop `reason`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunLimit::MaxToolCalls => "max_tool_calls",
            RunLimit::MaxToolCallsPerTurn => "max_tool_calls_per_turn",
            RunLimit::RunTimeout => "run_timeout_ms",
            RunLimit::MaxRunPromptTokens => "max_run_prompt_tokens",
            RunLimit::MaxRunCost => "max_run_cost",
        }
    }
}

/// Why a run was stopped by one of its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// The limit breached.
    pub limit: RunLimit,
    /// What happened, in a sentence.
    pub detail: String,
}

/// Bytes of tool arguments and results (as JSON) one program may send and
/// receive, every call together: the session records them all. Each one
/// is bounded (arguments at 16 MiB of text, a command tool's result at 16
/// MiB, an MCP server's by the SDK), not their number: in its second a
/// program calling `turn-output` on a turn of 1 MB had the session record
/// 1.1 GB, and one passing a 10 MB string to each call held `ptc run` at
/// 6.5 GB. A call whose arguments would pass it is not made, a result that
/// passes it is withheld: either is a `limit` tool error for the program;
/// the run goes on.
pub const MAX_TOOL_BYTES_PER_TURN: usize = 64 << 20;

/// The tools of one turn, counted against the run's tool-call limits. A
/// call past a limit is refused (the tool is not called, the program gets a
/// tool error) and remembered as the turn's [`Stop`]. The calls' arguments
/// and results are counted against [`MAX_TOOL_BYTES_PER_TURN`].
pub struct Counted<'a, H: ToolHost + ?Sized> {
    inner: &'a H,
    /// Calls the run made before this turn.
    before: u64,
    limits: RunLimits,
    /// Calls this turn, refused ones included.
    attempts: AtomicU64,
    /// Calls this turn that reached the tool.
    made: AtomicU64,
    /// Bytes of the arguments sent and results given this turn.
    bytes: AtomicU64,
    stop: Mutex<Option<Stop>>,
}

impl<'a, H: ToolHost + ?Sized> Counted<'a, H> {
    /// Counts `inner`'s calls; the run made `before` calls in earlier turns.
    pub fn new(inner: &'a H, before: u64, limits: RunLimits) -> Self {
        Counted {
            inner,
            before,
            limits,
            attempts: AtomicU64::new(0),
            made: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            stop: Mutex::new(None),
        }
    }

    /// Calls that reached a tool this turn.
    pub fn made(&self) -> u64 {
        self.made.load(Ordering::SeqCst)
    }

    /// The limit this turn breached, if any.
    pub fn stop(&self) -> Option<Stop> {
        self.stop.lock().map(|s| s.clone()).unwrap_or(None)
    }

    /// Counts `bytes` more of this turn's arguments and results; the
    /// error when they pass [`MAX_TOOL_BYTES_PER_TURN`].
    fn count_bytes(&self, bytes: u64, what: impl FnOnce() -> String) -> Result<(), ToolError> {
        let total = self.bytes.fetch_add(bytes, Ordering::SeqCst) + bytes;
        if total <= MAX_TOOL_BYTES_PER_TURN as u64 {
            return Ok(());
        }
        let message = format!(
            "this program's tool arguments and results passed {} MiB (MAX_TOOL_BYTES_PER_TURN) with {}; \
             send and ask for less per call (a page, a filter, an id), or spread the calls over turns",
            MAX_TOOL_BYTES_PER_TURN >> 20,
            what()
        );
        Err(ToolError::new(ToolErrorKind::Limit, message))
    }

    fn refuse(&self, stop: Stop) -> ToolError {
        let message = format!("{}; the tool was not called and the run ends after this turn", stop.detail);
        if let Ok(mut slot) = self.stop.lock() {
            slot.get_or_insert(stop);
        }
        ToolError::new(ToolErrorKind::Limit, message)
    }
}

impl<H: ToolHost + ?Sized> ToolHost for Counted<'_, H> {
    fn call(&self, name: &str, args: Json) -> Result<Json, ToolError> {
        // Each call takes its number, and its place under the run's limit,
        // before it runs: concurrent calls (pmap) never pass a limit together.
        let n = self.attempts.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(max) = self.limits.max_tool_calls_per_turn.filter(|&m| n > m) {
            return Err(self.refuse(Stop {
                limit: RunLimit::MaxToolCallsPerTurn,
                detail: format!("max_tool_calls_per_turn = {max} reached: tool/{name} would be call {n} of this turn"),
            }));
        }
        let sent = json_len(&args);
        self.count_bytes(sent, || format!("tool/{name}'s arguments of {sent} bytes, so it was not called"))?;
        let max = self.limits.max_tool_calls.unwrap_or(u64::MAX);
        let reserved =
            self.made.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |m| (self.before + m < max).then_some(m + 1));
        if reserved.is_err() {
            return Err(self.refuse(Stop {
                limit: RunLimit::MaxToolCalls,
                detail: format!("max_tool_calls = {max} reached: tool/{name} would be call {} of the run", max + 1),
            }));
        }
        let result = self.inner.call(name, args)?;
        let got = json_len(&result);
        self.count_bytes(got, || format!("tool/{name}'s result of {got} bytes, which the program does not get"))?;
        Ok(result)
    }

    fn concurrent(&self) -> bool {
        self.inner.concurrent()
    }
}

/// The length of `json`'s text, counted without building it.
fn json_len(json: &Json) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail; JSON values always serialize.
    let _ = serde_json::to_writer(&mut count, json);
    count.0
}

/// What a run has spent before a turn, and what that turn's prompt adds
/// ([`over_budget`]).
#[deprecated(
    since = "0.10.1",
    note = "a run's budget is `ptc_agent::budget::Budget`, charged through `Budgets::reserve`"
)]
#[derive(Debug, Clone, PartialEq)]
pub struct Spend {
    /// The turn about to ask the model.
    pub turn: u32,
    /// Prompt tokens of the turns before it (a resumed run's included).
    pub tokens_so_far: u64,
    /// Its prompt's tokens.
    pub prompt_tokens: u64,
    /// The turns before it: prompts and the answers whose tokens were
    /// reported, under the agent's price model.
    pub cost_so_far: f64,
    /// Its prompt's cost as ptc's accounting prices it (asked only when
    /// `max_run_cost` is set).
    pub prompt_cost: Option<f64>,
    /// The price model's name, for the message.
    pub pricing: String,
}

/// The budget limit that sending the turn's prompt would pass, if any:
/// `max_run_prompt_tokens` by the prompt's tokens, `max_run_cost` by its
/// cost (its answer's cost is known only after it, so a run can end past
/// `max_run_cost` by its last answer's output). The rule
/// [`crate::budget::Budgets::reserve`] applies to each budget of a tree.
#[deprecated(
    since = "0.10.1",
    note = "a run's budget is `ptc_agent::budget::Budget`, charged through `Budgets::reserve`"
)]
#[allow(deprecated)]
pub fn over_budget(limits: &RunLimits, spend: &Spend) -> Option<Stop> {
    let what = format!("turn {}'s prompt", spend.turn);
    let (tokens, cost) = (spend.tokens_so_far, spend.cost_so_far);
    breach(limits, &what, "the run", tokens, spend.prompt_tokens, cost, spend.prompt_cost, &spend.pricing)
}

/// The budget limit a prompt (`what`) of `prompt_tokens` and
/// `prompt_cost` (under `pricing`) would pass after `tokens_so_far` and
/// `cost_so_far` of `whose` run (`the run`, or a run above), if any.
#[allow(clippy::too_many_arguments)]
pub(crate) fn breach(
    limits: &RunLimits,
    what: &str,
    whose: &str,
    tokens_so_far: u64,
    prompt_tokens: u64,
    cost_so_far: f64,
    prompt_cost: Option<f64>,
    pricing: &str,
) -> Option<Stop> {
    let tokens = tokens_so_far + prompt_tokens;
    if let Some(max) = limits.max_run_prompt_tokens.filter(|&max| tokens > max) {
        return Some(Stop {
            limit: RunLimit::MaxRunPromptTokens,
            detail: format!(
                "max_run_prompt_tokens = {max} reached: {what} of {prompt_tokens} tokens would bring {whose} to \
                 {tokens}; it was not sent"
            ),
        });
    }
    let (max, prompt) = limits.max_run_cost.zip(prompt_cost)?;
    let cost = cost_so_far + prompt;
    (cost > max).then(|| Stop {
        limit: RunLimit::MaxRunCost,
        detail: format!(
            "max_run_cost = {max} reached: {what}, at {} under `{pricing}` prices, would bring {whose} to {}; it was \
             not sent",
            round(prompt),
            round(cost)
        ),
    })
}

/// A cost as the cost line shows it: one decimal, more below 1 (money).
pub(crate) fn round(cost: f64) -> String {
    if cost.abs() >= 1.0 {
        format!("{cost:.1}")
    } else {
        format!("{cost:.4}")
    }
}

/// The end of the run's wall clock (`run_timeout_ms`), from when it started.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    at: Option<Instant>,
    ms: u64,
}

impl Deadline {
    /// The deadline of a run starting now.
    pub fn start(limits: &RunLimits) -> Deadline {
        let ms = limits.run_timeout_ms.unwrap_or(0);
        Deadline { at: limits.run_timeout_ms.map(|ms| Instant::now() + Duration::from_millis(ms)), ms }
    }

    /// When the run must end, if it has a timeout.
    pub fn at(&self) -> Option<Instant> {
        self.at
    }

    /// Time left (`None`: no timeout).
    pub fn left(&self) -> Option<Duration> {
        self.at.map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// The stop once the time is up.
    pub fn passed(&self) -> Option<Stop> {
        self.passed_within(Duration::ZERO)
    }

    /// The stop when at most `margin` is left (a call cut short at the
    /// deadline may return a moment before it).
    pub fn passed_within(&self, margin: Duration) -> Option<Stop> {
        self.left().filter(|left| *left <= margin).map(|_| Stop {
            limit: RunLimit::RunTimeout,
            detail: format!("run_timeout_ms = {} reached: the run took longer than its time limit", self.ms),
        })
    }

    /// `limit` shortened to the time left.
    pub fn cap(&self, limit: Duration) -> Duration {
        self.left().map_or(limit, |left| limit.min(left))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_is_counted_as_its_text() {
        let json = serde_json::json!({"a": [1, "é"]});
        assert_eq!(super::json_len(&json), r#"{"a":[1,"é"]}"#.len() as u64);
    }
}
