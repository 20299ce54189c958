//! Property tests and fuzzing of what reads untrusted text: the session
//! JSON reader, the EDN reader, the PTC-Lisp reader and evaluator under
//! small limits, and the `strategies.toml` parser (`tests/targets.rs`, one
//! test per target). This crate holds the input generators and the runner.
//!
//! Inside `cargo test` each target runs for about two seconds. The long run
//! gives each target a time budget instead (docs/fuzzing.md):
//!
//! ```sh
//! PTC_FUZZ_SECONDS=300 cargo test --release -p ptc-fuzz -- --nocapture --test-threads 1
//! ```
//!
//! Each target prints its executions; a failure (a panic, or a property
//! that does not hold) stops the test with the smallest input proptest's
//! shrinking found, to become a regression test in the crate it belongs to.

pub mod config;
pub mod edn;
pub mod program;
pub mod session;

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use std::cell::Cell;
use std::fmt::Debug;
use std::time::{Duration, Instant};

/// Environment variable: seconds each target runs (default: about two).
pub const SECONDS_ENV: &str = "PTC_FUZZ_SECONDS";

/// What one target's run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Inputs tried.
    pub executions: u64,
    /// Wall time.
    pub elapsed: Duration,
}

fn budget() -> Duration {
    let seconds = std::env::var(SECONDS_ENV).ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(2.0);
    Duration::from_secs_f64(seconds.max(0.1))
}

/// Runs `property` on inputs of `strategy` for the time budget, in rounds
/// of 256 cases with fixed seeds (round `n` always tries the same inputs).
/// Panics with the shrunk input when the property fails or panics.
pub fn explore<S>(target: &str, strategy: S, property: impl Fn(S::Value) -> Result<(), TestCaseError>) -> Run
where
    S: Strategy,
    S::Value: Debug,
{
    let (start, budget) = (Instant::now(), budget());
    let executions = Cell::new(0u64);
    let mut round: u64 = 0;
    while round == 0 || start.elapsed() < budget {
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&round.to_le_bytes());
        seed[8..16].copy_from_slice(&(target.len() as u64).to_le_bytes());
        let config = Config { cases: 256, failure_persistence: None, ..Config::default() };
        let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        let outcome = runner.run(&strategy, |input| {
            executions.set(executions.get() + 1);
            property(input)
        });
        match outcome {
            Ok(()) => {}
            Err(TestError::Fail(why, input)) => {
                panic!("{target}: {why} (round {round}); smallest failing input: {input:?}")
            }
            Err(TestError::Abort(why)) => panic!("{target}: aborted: {why}"),
        }
        round += 1;
    }
    let run = Run { executions: executions.get(), elapsed: start.elapsed() };
    eprintln!("{target}: {} executions in {:.1} s, 0 failures", run.executions, run.elapsed.as_secs_f64());
    run
}

/// Text that is anything at all: any characters, biased to the ones
/// readers treat specially.
pub fn any_text(max_chars: usize) -> impl Strategy<Value = String> {
    use proptest::prelude::*;
    let special = prop::sample::select(vec![
        '(', ')', '[', ']', '{', '}', '"', '\\', ':', ';', '#', '^', '\'', '`', '~', '@', '\n', '\r', '\t', ' ', '0',
        '9', '-', '+', '.', '/', 'e', 'N', 'M', '\u{0}', '\u{7f}', 'é', '😀', '\u{200b}', '=', ',',
    ]);
    prop::collection::vec(prop_oneof![3 => special, 1 => any::<char>()], 0..max_chars)
        .prop_map(|chars| chars.into_iter().collect())
}
