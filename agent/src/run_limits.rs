//! The limits of a whole run, beside the sandbox limits of one program:
//! `max_tool_calls` (the run), `max_tool_calls_per_turn` (one program) and
//! `run_timeout_ms` (the wall clock of the run). Breaching one ends the run
//! with status `limit` and a [`Stop`] naming the limit.

use crate::config::RunLimits;
use ptc_lisp::{ToolError, ToolErrorKind, ToolHost};
use serde_json::Value as Json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A limit of a whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunLimit {
    /// `max_tool_calls`: tool calls over the run.
    MaxToolCalls,
    /// `max_tool_calls_per_turn`: tool calls of one program.
    MaxToolCallsPerTurn,
    /// `run_timeout_ms`: the run's wall clock.
    RunTimeout,
}

impl RunLimit {
    /// The limit's config key, which a session records as its stop `reason`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunLimit::MaxToolCalls => "max_tool_calls",
            RunLimit::MaxToolCallsPerTurn => "max_tool_calls_per_turn",
            RunLimit::RunTimeout => "run_timeout_ms",
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

/// The tools of one turn, counted against the run's tool-call limits. A
/// call past a limit is refused (the tool is not called, the program gets a
/// tool error) and remembered as the turn's [`Stop`].
pub struct Counted<'a, H: ToolHost + ?Sized> {
    inner: &'a H,
    /// Calls the run made before this turn.
    before: u64,
    limits: RunLimits,
    /// Calls this turn, refused ones included.
    attempts: AtomicU64,
    /// Calls this turn that reached the tool.
    made: AtomicU64,
    stop: Mutex<Option<Stop>>,
}

impl<'a, H: ToolHost + ?Sized> Counted<'a, H> {
    /// Counts `inner`'s calls; the run made `before` calls in earlier turns.
    pub fn new(inner: &'a H, before: u64, limits: RunLimits) -> Self {
        Counted { inner, before, limits, attempts: AtomicU64::new(0), made: AtomicU64::new(0), stop: Mutex::new(None) }
    }

    /// Calls that reached a tool this turn.
    pub fn made(&self) -> u64 {
        self.made.load(Ordering::SeqCst)
    }

    /// The limit this turn breached, if any.
    pub fn stop(&self) -> Option<Stop> {
        self.stop.lock().map(|s| s.clone()).unwrap_or(None)
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
        let max = self.limits.max_tool_calls.unwrap_or(u64::MAX);
        let reserved =
            self.made.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |m| (self.before + m < max).then_some(m + 1));
        if reserved.is_err() {
            return Err(self.refuse(Stop {
                limit: RunLimit::MaxToolCalls,
                detail: format!("max_tool_calls = {max} reached: tool/{name} would be call {} of the run", max + 1),
            }));
        }
        self.inner.call(name, args)
    }

    fn concurrent(&self) -> bool {
        self.inner.concurrent()
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
    use super::*;
    use ptc_lisp::{run_program, Limits, Memory};
    use serde_json::json;

    fn echo(_name: &str, args: Json) -> Result<Json, String> {
        Ok(args)
    }

    fn limits(run: Option<u64>, turn: Option<u64>) -> RunLimits {
        RunLimits { max_tool_calls: run, max_tool_calls_per_turn: turn, run_timeout_ms: None }
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
        let gone = Deadline { at: Some(Instant::now()), ms: 5 };
        assert_eq!(gone.passed().map(|s| s.limit), Some(RunLimit::RunTimeout));
        assert_eq!(gone.cap(Duration::from_secs(1)), Duration::ZERO);
    }
}
