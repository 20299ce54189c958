//! Embedding: 200 agents run at once in one process through the library
//! (replay backend, the real coalesced plugin, the real sandbox), each with
//! its own session file, every one returning the right value. The figures
//! (wall time, memory per agent) come from `cargo run -p ptc-host --example
//! embed` (docs/benchmarks.md, "Embedding"), not from this test.

use ptc_host::config::{Config, ConfigFile, PLUGIN_PATH_ENV};
use ptc_host::run::{run, RunOptions};
use ptc_integration_tests::{root, scratch_dir};
use ptc_session::Session;

const AGENTS: usize = 200;

#[test]
fn two_hundred_agents_at_once_each_return_the_right_value() {
    std::env::set_var(PLUGIN_PATH_ENV, ptc_integration_tests::plugin_dir());
    let resolved = Config::load(&root().join("strategies.toml")).unwrap().resolve();
    let dir = scratch_dir("embed");
    let outcomes: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..AGENTS)
            .map(|i| {
                let (resolved, out) = (&resolved, dir.join(format!("run-{i}.session.jsonl")));
                s.spawn(move || {
                    let options = RunOptions { session_out: Some(&out), ..Default::default() };
                    let done = run(resolved, "explore-orders", options, &mut |_: &str| {});
                    (out, done.map(|d| d.session).map_err(|e| e.to_string()))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a run does not panic")).collect()
    });
    assert_eq!(outcomes.len(), AGENTS);
    for (out, outcome) in outcomes {
        let session = outcome.unwrap_or_else(|e| panic!("{}: {e}", out.display()));
        assert_eq!(session.status.map(ptc_session::RunStatus::as_str), Some("returned"), "{}", out.display());
        assert_eq!(session.result.as_deref(), Some("{:shipped-orders 4 :revenue 2135 :largest 101}"));
        // Each run wrote its own file, and it holds exactly that run.
        assert_eq!(Session::read(&out).unwrap(), session, "{}", out.display());
    }
}
