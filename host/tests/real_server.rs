//! Opt-in (`PTC_REAL_SERVER=1`): `scripts/real-server-check.sh` against a
//! real llama-cpp-python server with SmolLM2-135M-Instruct, using this
//! test's `ptc` binary and the test-built plugins. Installs into
//! `target/real-server/` the first time (the pip build takes 10-20 minutes).
//!
//! Checks that every demo agent finished or ended with a named reason
//! (none hung), and that every model call recorded its timing.

use ptc_integration_tests::{command_in_root, plugin_dir, root};

#[test]
fn demo_agents_run_against_a_real_server() {
    if std::env::var_os("PTC_REAL_SERVER").is_none_or(|v| v != "1") {
        eprintln!("skipped: set PTC_REAL_SERVER=1 to run the demo agents against a real llama-cpp-python server");
        return;
    }
    let work = root().join("target/real-server");
    let out = command_in_root("bash")
        .arg("scripts/real-server-check.sh")
        .env("PTC_BIN", env!("CARGO_BIN_EXE_ptc"))
        .env("PTC_PLUGIN_DIR", plugin_dir())
        .env("PTC_REAL_SERVER_DIR", &work)
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the check failed:\n{summary}\n{stderr}");
    // The script's default list, or the subset it was told to run.
    let agents = std::env::var("PTC_REAL_SERVER_AGENTS").unwrap_or_else(|_| {
        "demo demo-rolling demo-per-turn demo-aggressive demo-budget demo-keep-last demo-full demo-lean".into()
    });
    for agent in agents.split_whitespace() {
        assert!(summary.contains(&format!("| {agent} |")), "{agent} missing from the summary:\n{summary}");
        let session = ptc_session::Session::read(&work.join(format!("sessions/{agent}.jsonl"))).unwrap();
        let status = session.status.map(ptc_session::RunStatus::as_str).unwrap_or("unfinished");
        assert!(["returned", "failed", "out_of_turns", "error"].contains(&status), "{agent}: {status}");
        if status == "error" {
            let err = std::fs::read_to_string(work.join(format!("sessions/{agent}.err"))).unwrap();
            assert!(err.lines().last().is_some_and(|l| l.contains("llm:")), "{agent}: no named reason:\n{err}");
        }
        for turn in &session.turns {
            let call =
                turn.usage.as_ref().unwrap_or_else(|| panic!("{agent} turn {}: no model call recorded", turn.number));
            assert!(call.wall_ms.is_some() && call.finish_reason.is_some(), "{agent}: {call:?}");
        }
    }
}
