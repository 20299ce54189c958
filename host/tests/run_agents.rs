//! End-to-end `ptc run` with replay transcripts: the example agents of the
//! root `strategies.toml`, and a run interrupted then resumed.

use ptc_host::config::Config;
use ptc_host::config::ConfigFile;
use ptc_host::resolve::Resolved;
use ptc_host::run::{run, RunOptions};
use ptc_integration_tests::{root, scratch_dir};
use ptc_session::Session;
use std::path::Path;
use std::sync::Once;

/// The example agents use the single-user-coalesced plugin: build it (into
/// the test build folder) and put that folder on the plugin path.
fn build_plugin() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let dir = ptc_integration_tests::plugin_dir();
        std::env::set_var(ptc_host::config::PLUGIN_PATH_ENV, dir);
    });
}

fn run_example(agent: &str) -> (Session, Vec<String>) {
    build_plugin();
    let config = Config::load(&root().join("strategies.toml")).unwrap().resolve();
    let out = scratch_dir(agent).join("session.jsonl");
    let mut lines = Vec::new();
    let options = RunOptions { session_out: Some(&out), resume: None, ..Default::default() };
    let done = run(&config, agent, options, &mut |l: &str| lines.push(l.to_string())).unwrap();
    // What was written is exactly what the run ended with, and it reads back.
    assert_eq!(Session::read(&out).unwrap(), done.session);
    (done.session, lines)
}

#[test]
fn explore_orders_returns_from_data() {
    let (s, lines) = run_example("explore-orders");
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
    assert_eq!(s.result.as_deref(), Some("{:shipped-orders 4 :revenue 2135 :largest 101}"));
    assert_eq!(s.turns.len(), 3);
    assert!(lines[0].starts_with("turn 1/5  strategy=full-history  prompt_tokens="), "{lines:?}");
    assert!(lines[1].starts_with("turn 2/5  strategy=coalesced"), "{lines:?}");
    let t2 = &s.turns[1];
    assert_eq!(t2.definitions.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["order-total", "shipped"]);
    assert_eq!(t2.definitions[0].return_type.as_deref(), Some("integer"));
    // Messages sent are recorded per turn: system first, the user message last.
    assert_eq!(t2.messages.first().unwrap().role, ptc_session::Role::System);
    assert_eq!(t2.messages.last().unwrap().role, ptc_session::Role::User);
    assert_eq!(t2.messages[0].content, s.system_prompt);
    assert_eq!(t2.render_stats.as_ref().unwrap().instance.as_deref(), Some("coalesced"));
    assert!(t2.prompt_tokens.unwrap() > 100);
}

#[test]
fn customer_report_uses_builtin_and_command_tools() {
    let (s, _) = run_example("customer-report");
    assert_eq!(
        s.status.map(ptc_session::RunStatus::as_str),
        Some("returned"),
        "{:#?}",
        s.turns.iter().map(|t| &t.error).collect::<Vec<_>>()
    );
    let calls: Vec<&str> = s.turns.iter().flat_map(|t| &t.tool_calls).map(|c| c.name.as_str()).collect();
    for tool in ["customer", "fx-rate", "inventory", "shipping-quote"] {
        assert!(calls.contains(&tool), "{tool} not called: {calls:?}");
    }
    assert!(s.result.as_deref().unwrap().contains(":out-of-stock [\"MOU-2\"]"), "{:?}", s.result);
    assert_eq!(s.tools.len(), 4);
}

#[test]
fn recover_errors_goes_on_after_failed_turns() {
    let (s, _) = run_example("recover-errors");
    let kinds: Vec<Option<&str>> = s.turns.iter().map(|t| t.error.as_ref().map(|e| e.kind.as_str())).collect();
    assert_eq!(kinds, [Some("unbound_symbol"), Some("tool"), Some("no_code"), None, None]);
    assert_eq!(s.turns[2].program, None);
    // The failed turns' errors are shown to the model on the next turn.
    assert!(s.turns[1].messages.last().unwrap().content.contains("count-by"));
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
}

/// Writes `files` (path, text), the replay file `answers` and the config
/// `text` (as `ptc.toml`) into `dir`, and loads the config.
fn replay_config(dir: &Path, files: &[(&str, &str)], answers: &[&str], text: &str) -> Resolved {
    for (path, contents) in files {
        std::fs::write(dir.join(path), contents).unwrap();
    }
    std::fs::write(dir.join("replay.json"), serde_json::to_string(answers).unwrap()).unwrap();
    std::fs::write(dir.join("ptc.toml"), text).unwrap();
    Config::load(&dir.join("ptc.toml")).unwrap().resolve()
}

fn write_config(dir: &Path, replay: &[&str]) -> Resolved {
    let text = r#"
[tool.count-call]
command = ["sh", "-c", "cat > /dev/null; echo x >> calls.log; echo 10"]

[agent.a]
mission = "Sum the numbers, scaled"
max_turns = 5
data = { nums = "nums.json" }
tools = ["count-call"]
llm = { backend = "replay", file = "replay.json" }
"#;
    replay_config(dir, &[("nums.json", "[1, 2, 3, 4]")], replay, text)
}

#[test]
fn interrupted_run_resumes_without_losing_or_repeating_turns() {
    let dir = scratch_dir("resume");
    let answers = [
        "```clojure\n(defn scale \"Times the tool's factor.\" [x] (* x (tool/count-call {})))\n(def total (reduce + data/nums))\n```",
        "```clojure\n(undefined-thing)\n```",
        "```clojure\n(def scaled (scale total))\n(println scaled)\n```",
        "```clojure\n(return [total scaled (scale 1)])\n```",
    ];
    let out = dir.join("s.json");
    // The first run dies after two turns (its transcript ends there).
    let config = write_config(&dir, &answers[..2]);
    let options = RunOptions { session_out: Some(&out), resume: None, ..Default::default() };
    let err = run(&config, "a", options, &mut |_: &str| {}).unwrap_err().to_string();
    assert!(err.contains("turn 3: llm: replay file"), "{err}");
    let partial = Session::read(&out).unwrap();
    assert_eq!(partial.turns.len(), 2);
    assert_eq!(std::fs::read_to_string(dir.join("calls.log")).unwrap_or_default().lines().count(), 0);

    // Resume with the whole transcript: memory (a function and a value) is
    // rebuilt without calling any tool again, and numbering continues.
    let config = write_config(&dir, &answers);
    let options = RunOptions { session_out: None, resume: Some(&out), ..Default::default() };
    let mut lines = Vec::new();
    let done = run(&config, "a", options, &mut |l: &str| lines.push(l.to_string())).unwrap();
    assert_eq!(done.path, out);
    let s = Session::read(&out).unwrap();
    assert_eq!(s.turns.iter().map(|t| t.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(s.turns[..2], partial.turns[..]);
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
    assert_eq!(s.result.as_deref(), Some("[10 100 10]"));
    assert!(lines[0].starts_with("turn 3/5"), "{lines:?}");
    assert_eq!(std::fs::read_to_string(dir.join("calls.log")).unwrap().lines().count(), 2);
    // No temporary files are left next to the session.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());

    // Resuming the finished session runs nothing: no model answer, no tool
    // call, the file as it was, and one line that says so.
    let before = std::fs::read(&out).unwrap();
    let config = write_config(&dir, &[]);
    let options = RunOptions { session_out: None, resume: Some(&out), ..Default::default() };
    let mut lines = Vec::new();
    let again = run(&config, "a", options, &mut |l: &str| lines.push(l.to_string())).unwrap();
    assert_eq!(again.session, s);
    assert_eq!(lines, ["session already finished (returned); nothing was run (a new run needs a new session file)"]);
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(std::fs::read_to_string(dir.join("calls.log")).unwrap().lines().count(), 2);
}

#[test]
fn out_of_turns_is_recorded() {
    let dir = scratch_dir("out-of-turns");
    let config = write_config(&dir, &["(def a 1)"; 5]);
    let out = dir.join("s.json");
    let options = RunOptions { session_out: Some(&out), resume: None, ..Default::default() };
    let done = run(&config, "a", options, &mut |_: &str| {}).unwrap();
    assert_eq!(done.session.status.map(ptc_session::RunStatus::as_str), Some("out_of_turns"));
    assert_eq!(done.session.turns.len(), 5);
    assert_eq!(done.session.turns[0].result.as_deref(), Some("#'a"));
}

/// Runs agent `a` of `config` (a `ptc.toml` text) in a scratch folder
/// `name` holding `files` (path, text), answering with `answers` (a replay
/// file); the session it ended with, checked to read back as written.
fn run_replayed(name: &str, files: &[(&str, &str)], answers: &[&str], config: &str) -> Session {
    let dir = scratch_dir(name);
    let config = replay_config(&dir, files, answers, config);
    let out = dir.join("s.json");
    let options = RunOptions { session_out: Some(&out), resume: None, ..Default::default() };
    let done = run(&config, "a", options, &mut |_: &str| {}).unwrap();
    assert_eq!(Session::read(&out).unwrap(), done.session);
    done.session
}

#[test]
fn json_keys_no_keyword_can_hold_stay_strings_and_the_session_reads_back() {
    // A data file and a tool result whose keys hold a space (or are empty):
    // they stay string keys, so the session (values stored as EDN) reads
    // back, and `keyword` of such a name is a turn's type error, not the
    // run's end.
    let answers = [
        "```clojure\n(def t (tool/spaced {}))\n(println (keys data/brief) (get t \"unit price\"))\n```",
        "```clojure\n(def k (keyword \"previous import\"))\n```",
        "```clojure\n(return [(get data/brief \"previous import\") (:ok data/brief) (get t \"\")])\n```",
    ];
    let config = r#"
[tool.spaced]
command = ["sh", "-c", "cat > /dev/null; echo '{\"unit price\": 12.5, \"\": 0}'"]

[agent.a]
mission = "Read the brief"
max_turns = 4
data = { brief = "brief.json" }
tools = ["spaced"]
llm = { backend = "replay", file = "replay.json" }
"#;
    let brief = ("brief.json", r#"{"previous import": "2024-11-02", "ok": 1}"#);
    let s = run_replayed("json-keys", &[brief], &answers, config);
    assert_eq!(s.turns[0].prints, ["(previous import :ok) 12.5"]);
    assert_eq!(s.turns[1].error.as_ref().map(|e| e.kind.as_str()), Some("type"), "{:?}", s.turns[1]);
    assert_eq!(s.result.as_deref(), Some("[\"2024-11-02\" 1 0]"));
}

#[test]
fn turn_output_gives_an_earlier_turn_back_whole() {
    // What a compact entry drops (a clause's wording) comes back in one
    // call, from the session: recorded like any call, so a resume sees it.
    let answers = [
        "```clojure\n(println \"order ORD-7 is late\")\n(println \"14.2: not less than ninety (90) days\")\n(def n 7)\n```",
        "```clojure\n(def t (tool/turn-output {:turn 1}))\n(println (:output t))\n```",
        "```clojure\n(tool/turn-output {:turn 9})\n```",
        "```clojure\n(return [(:result (tool/turn-output {:turn 1})) (:error (tool/turn-output {:turn 3}))])\n```",
    ];
    let config = r#"
[agent.a]
mission = "Look back"
max_turns = 5
tools = ["turn-output"]
llm = { backend = "replay", file = "replay.json" }
"#;
    let s = run_replayed("turn-output", &[], &answers, config);
    let offered = s.turns[0].messages.iter().any(|m| m.content.contains("tool/turn-output(turn int)"));
    assert!(offered, "{:?}", s.turns[0].messages);
    assert_eq!(s.turns[1].prints, ["order ORD-7 is late\n14.2: not less than ninety (90) days"]);
    assert_eq!(s.turns[1].tool_calls[0].name, "turn-output");
    let refused = s.turns[2].error.as_ref().map(|e| e.message.as_str()).unwrap_or_default();
    assert!(refused.contains("no turn 9; the earlier turns are 1-2"), "{refused}");
    assert_eq!(
        s.result.as_deref(),
        Some("[\"#'n\" \"tool: tool/turn-output failed: no turn 9; the earlier turns are 1-2 (line 1, column 1)\"]")
    );
}

#[test]
fn resumed_run_keeps_the_trigger_latch() {
    build_plugin();
    let dir = scratch_dir("latch");
    std::fs::write(
        dir.join("replay.json"),
        serde_json::to_string(&["(def a 1)", "(def b 2)", "(return (+ a b))"]).unwrap(),
    )
    .unwrap();
    let config = |trigger_turns: u32| {
        let text = format!(
            r#"
[strategy.late]
plugin = "single-user-coalesced"
trigger = {{ turns = {trigger_turns} }}

[agent.a]
mission = "Add two numbers"
strategy = "late"
llm = {{ backend = "replay", file = "replay.json" }}
"#
        );
        std::fs::write(dir.join("ptc.toml"), text).unwrap();
        Config::load(&dir.join("ptc.toml")).unwrap().resolve()
    };
    let instance = |s: &Session, turn: usize| s.turns[turn].render_stats.as_ref().unwrap().instance.clone().unwrap();
    // Two turns with the trigger at one completed turn: turn 2 switches.
    let out = dir.join("s.json");
    let first = config(1);
    let mut session =
        run(&first, "a", RunOptions { session_out: Some(&out), resume: None, ..Default::default() }, &mut |_: &str| {})
            .unwrap()
            .session;
    assert_eq!(instance(&session, 1), "late");
    // Cut the run after turn 2, as a kill would, then resume with a trigger
    // that would not have fired yet: the latch holds, turn 3 stays with the strategy.
    session.turns.truncate(2);
    session.status = None;
    session.result = None;
    std::fs::write(&out, session.to_document()).unwrap();
    let later = config(10);
    let done =
        run(&later, "a", RunOptions { session_out: None, resume: Some(&out), ..Default::default() }, &mut |_: &str| {})
            .unwrap()
            .session;
    assert_eq!(done.turns.len(), 3);
    assert_eq!(instance(&done, 2), "late");
    assert_eq!(done.turns[2].render_stats.as_ref().unwrap().switched, Some(true));
    assert_eq!(done.result.as_deref(), Some("3"));

    // A fresh run with that config stays on full-history throughout.
    let fresh = run(
        &later,
        "a",
        RunOptions { session_out: Some(&dir.join("f.json")), resume: None, ..Default::default() },
        &mut |_: &str| {},
    )
    .unwrap()
    .session;
    assert!((0..3).all(|t| instance(&fresh, t) == "full-history"));
}

#[test]
fn budget_only_the_third_fallback_meets_serves_every_turn_and_is_recorded() {
    build_plugin();
    let dir = scratch_dir("budget");
    // Records with long strings: their data/ sample is what the tight
    // instance drops to fit.
    let items: Vec<serde_json::Value> = (0..20)
        .map(|i| {
            serde_json::json!({
                "title": format!("A very long product title number {i} with many descriptive words in it"),
                "notes": format!("Long free-form notes about the item {i} that go on and on for a while"),
                "sku": format!("SKU-{i:04}"),
            })
        })
        .collect();
    std::fs::write(dir.join("items.json"), serde_json::to_string(&items).unwrap()).unwrap();
    let replay = ["```clojure\n(def n (count data/items))\n```", "```clojure\n(return n)\n```"];
    std::fs::write(dir.join("replay.json"), serde_json::to_string(&replay).unwrap()).unwrap();
    let text = r#"
[strategy.coalesced]
plugin = "single-user-coalesced"
[strategy.rolling]
plugin = "rolling-window"
[strategy.per-turn]
plugin = "per-turn-summary"
[strategy.tight]
plugin = "aggressive"
max_tokens = 80

[agent.a]
mission = "Count the items."
system_prompt = "Answer with PTC-Lisp."
strategy = "coalesced"
max_prompt_tokens = 100
fallback = ["rolling", "per-turn", "tight"]
data = { items = "items.json" }
llm = { backend = "replay", file = "replay.json" }
"#;
    std::fs::write(dir.join("ptc.toml"), text).unwrap();
    let config = Config::load(&dir.join("ptc.toml")).unwrap().resolve();
    let out = dir.join("s.json");
    let options = RunOptions { session_out: Some(&out), resume: None, ..Default::default() };
    let done = run(&config, "a", options, &mut |_: &str| {}).unwrap();
    let s = Session::read(&out).unwrap();
    assert_eq!(s, done.session);
    assert_eq!(s.result.as_deref(), Some("20"));
    // Turn 1 tries full-history (before any strategy), turn 2 the primary;
    // both pass over the first two fallbacks to the third.
    for (turn, first) in s.turns.iter().zip(["full-history", "coalesced"]) {
        let stats = turn.render_stats.as_ref().unwrap();
        assert_eq!(stats.instance.as_deref(), Some("tight"), "turn {}", turn.number);
        let tried = &stats.attempts;
        assert_eq!(tried.len(), 4, "{tried:?}");
        for (attempt, name) in tried.iter().zip([first, "rolling", "per-turn", "tight"]) {
            assert!(attempt.starts_with(&format!("`{name}` needs ")), "{tried:?}");
        }
        // Every passed-over instance needed more than the budget; the server fits it.
        let needs: Vec<u64> = tried
            .iter()
            .map(|a| a.split("needs ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert!(needs[..3].iter().all(|&n| n > 100) && needs[3] <= 100, "{tried:?}");
        assert!(turn.prompt_tokens.unwrap() <= 100);
        assert_eq!(turn.prompt_tokens.unwrap(), needs[3]);
    }
}
