//! Sandbox limits: named, documented settings with defaults, in the manner
//! of rhai's `Engine::set_max_operations` and friends. Breaching any of them
//! ends the program with its own [`ErrorKind`](crate::ErrorKind).

use std::time::Duration;

/// Bytes of print output one program keeps: every print call together,
/// each already cut at [`Limits::println_char_limit`]. The prints past it
/// are dropped and one last line, [`PRINTS_DROPPED`], says so: in a second
/// a loop of prints made 370 MB for the session to record.
pub const MAX_PRINT_BYTES: usize = 1 << 20;

/// The print line that stands for the prints past [`MAX_PRINT_BYTES`].
pub const PRINTS_DROPPED: &str = "... (the prints past 1 MiB were dropped; print less: a count, a sample, a summary)";

/// Resource limits for one program run. Every field has a default; override
/// the ones an agent needs:
///
/// ```
/// use std::time::Duration;
/// let limits = ptc_lisp::Limits { timeout: Duration::from_millis(200), ..Default::default() };
/// assert_eq!(limits.max_depth, 256);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock time for the whole program, tool calls included.
    /// Default 1000 ms; breach: `timeout`.
    pub timeout: Duration,
    /// Evaluation steps (roughly: expressions evaluated plus elements built).
    /// Default 10,000,000; breach: `step_limit`.
    pub max_steps: u64,
    /// Nested function calls. Default 256; breach: `depth_limit`
    /// (the evaluator also guards the native stack, so this never overflows it).
    pub max_depth: usize,
    /// Iterations of any single `loop` (or `recur` into a `fn`).
    /// Default 100,000; breach: `loop_limit`.
    pub max_loop_iterations: u64,
    /// Elements in any collection built. Default 1,000,000; breach: `size_limit`.
    pub max_collection_size: usize,
    /// Bytes in any string built, and in the text of the program's value,
    /// returned value or `fail` reason (as a session records it; a value
    /// held twice prints twice). Default 10 MB; breach: `size_limit`.
    pub max_string_bytes: usize,
    /// Estimated bytes of the user namespace kept between turns, and the
    /// text of the values a program defines, together (kept as text
    /// between turns: a value held twice prints twice).
    /// Default 10 MB; breach: `memory_limit`, and the turn is rolled back.
    pub max_memory_bytes: usize,
    /// Characters kept of each `println` call; longer output is cut and ends
    /// with `...`. Default 2000.
    pub println_char_limit: usize,
    /// Calls `pmap` and `pcalls` run at the same time (each on its own
    /// thread, sharing the step and time limits). Default 8; 1 runs them one
    /// after another. Never breached: more calls wait for a free slot.
    pub max_parallel_tool_calls: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_millis(1000),
            max_steps: 10_000_000,
            max_depth: 256,
            max_loop_iterations: 100_000,
            max_collection_size: 1_000_000,
            max_string_bytes: 10 * 1024 * 1024,
            max_memory_bytes: 10 * 1024 * 1024,
            println_char_limit: 2000,
            max_parallel_tool_calls: 8,
        }
    }
}
