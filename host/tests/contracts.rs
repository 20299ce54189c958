//! Agents that keep their contract, through the `ptc` binary: a signature's
//! return checked and fed back (the `order-summary` demo of the root
//! config), named inputs (`--arg`), single-shot agents, the retry budget
//! across a resume, and the run limits.

mod llm_server;

use llm_server::{Reply, Server};
use ptc_integration_tests::{command_in_root, plugin_dir, root, scratch_dir};
use ptc_session::Session;
use std::path::{Path, PathBuf};

/// What the demo returns (checked by hand against
/// examples/agents/data/orders.json and the built-in `customer` tool).
const SUMMARY: &str = r#"{:status "shipped" :orders 4 :revenue 2135 :customers ({:id 1 :name "Ada Lovelace" :orders 1 :revenue 1250} {:id 3 :name "Alan Turing" :orders 1 :revenue 600} {:id 6 :name "Hedy Lamarr" :orders 1 :revenue 260} {:id 4 :name "Emmy Noether" :orders 1 :revenue 25})}"#;

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    session: Option<Session>,
}

/// `ptc run AGENT --config CONFIG --session <dir>/s.jsonl EXTRA...`.
fn run(dir: &Path, config: &Path, agent: &str, extra: &[&str]) -> Ran {
    let session = dir.join("s.jsonl");
    let out = command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .env(ptc_host::config::PLUGIN_PATH_ENV, plugin_dir())
        .args(["run", agent, "--config"])
        .arg(config)
        .arg("--session")
        .arg(&session)
        .args(extra)
        .output()
        .expect("ptc runs");
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        session: session.exists().then(|| Session::read(&session).expect("the session reads back")),
    }
}

/// A config in a scratch folder: `agents` (TOML) plus one replay file per
/// `(name, answers)`.
fn config(name: &str, agents: &str, replays: &[(&str, &[&str])]) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    for (file, answers) in replays {
        std::fs::write(dir.join(file), serde_json::to_string(answers).unwrap()).unwrap();
    }
    let orders = root().join("examples/agents/data/orders.json");
    let text = agents.replace("ORDERS", &orders.display().to_string().replace('\\', "/"));
    let path = dir.join("strategies.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn block(program: &str) -> String {
    format!("```clojure\n{program}\n```")
}

#[test]
fn the_demo_returns_a_wrong_type_then_fixes_it_after_the_feedback() {
    let dir = scratch_dir("order-summary");
    let ran = run(&dir, &root().join("strategies.toml"), "order-summary", &["--arg", "status=shipped"]);
    assert_eq!(ran.code, Some(0), "stdout:\n{}\nstderr:\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.stdout, format!("{SUMMARY}\n"));
    let s = ran.session.unwrap();
    assert_eq!((s.status.map(ptc_session::RunStatus::as_str), s.result.as_deref()), (Some("returned"), Some(SUMMARY)));
    assert_eq!(s.signature.as_deref(), Some("(status :string) -> {status :string, orders :int, revenue :int, customers [{id :int, name :string, orders :int, revenue :int}]}"));
    assert_eq!((s.max_turns, s.retry_turns, s.turns.len()), (2, 1, 3));
    // The input: recorded, in the data, in the mission.
    assert_eq!(s.inputs.get("status").map(String::as_str), Some("\"shipped\""));
    assert_eq!(s.data.get("status").map(String::as_str), Some("\"shipped\""));
    assert!(s.mission.starts_with("Summarize the orders with status shipped:"), "{}", s.mission);
    // The model was shown what to return.
    assert!(s.system_prompt.contains("## Expected output\nFinish with `(return value)`, where value matches:\n{status :string, orders :int, revenue :int, customers [{id :int, name :string, orders :int, revenue :int}]}\n"));
    assert!(s.system_prompt.ends_with("## Inputs\ndata/status :string"));

    // The first return: recorded with its value, failed, and why.
    let first = &s.turns[1];
    assert!(!first.success);
    assert!(first.result.as_deref().unwrap().contains(":revenue \"2135 EUR\""));
    let error = first.error.as_ref().unwrap();
    assert_eq!(error.kind, ptc_session::TurnErrorKind::InvalidReturn);
    assert!(
        error.message.starts_with(
            "The returned value does not match the signature: at $.revenue: expected :int, got string \"2135 EUR\". Expected {status :string, "
        ),
        "{}",
        error.message
    );
    assert!(error.message.ends_with("Retry 1 of 1: the next turn is only for returning a value that matches."));
    assert!(first.definitions.is_empty(), "a failed turn defines nothing");
    // The feedback reached the model: the retry turn's prompt holds it.
    let shown: String = s.turns[2].messages.iter().map(|m| m.content.as_str()).collect();
    assert!(shown.contains("at $.revenue: expected :int, got string \"2135 EUR\""));
    // The second return validates.
    let second = &s.turns[2];
    assert!(second.success && second.error.is_none());
    assert_eq!(second.result.as_deref(), Some(SUMMARY));
    // Progress: the retry turn is labelled, the stop line says how it ended.
    assert!(ran.stderr.contains("turn 2/2  strategy=coalesced"), "{}", ran.stderr);
    assert!(ran.stderr.contains("error invalid_return: The returned value does not match the signature: at $.revenue"));
    assert!(ran.stderr.contains("turn 3/2 (retry 1/1)  strategy=coalesced"), "{}", ran.stderr);
    assert!(ran.stderr.contains("ptc: returned after 3 turns; session written to"));
    let trace = command_in_root(env!("CARGO_BIN_EXE_ptc")).arg("trace").arg(dir.join("s.jsonl")).output().unwrap();
    let trace = String::from_utf8_lossy(&trace.stdout);
    assert!(trace.contains("\nsignature: (status :string) -> {status :string, orders :int"), "{trace}");
    assert!(trace.contains("errors: invalid_return 1"), "{trace}");

    // --format json prints the validated value with the declared field names.
    let json_dir = scratch_dir("order-summary-json");
    let ran = run(
        &json_dir,
        &root().join("strategies.toml"),
        "order-summary",
        &["--arg", "status=shipped", "--format", "json"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let printed: serde_json::Value = serde_json::from_str(&ran.stdout).expect("one JSON value");
    assert_eq!(printed["revenue"], 2135);
    assert_eq!(
        printed["customers"][0],
        serde_json::json!({"id": 1, "name": "Ada Lovelace", "orders": 1, "revenue": 1250})
    );
}

#[test]
fn inputs_that_are_missing_or_ill_typed_stop_the_run_before_any_model_call() {
    // A model nobody listens to: were it called, the error would be a refused connection.
    let (dir, cfg) = config(
        "inputs",
        r#"
[agent.top]
mission = "The {{limit}} largest orders with status {{status}}"
signature = "(status :keyword, limit :int, since :datetime?) -> [:map]"
llm = { backend = "openai", base_url = "http://127.0.0.1:1", model = "m", max_retries = 0 }
"#,
        &[],
    );
    let cases: [(&[&str], &str); 5] = [
        (&[], "ptc: error: agent `top`: missing input `status` (:keyword): pass --arg status=VALUE\n"),
        (
            &["--arg", "status=shipped"],
            "ptc: error: agent `top`: missing input `limit` (:int): pass --arg limit=VALUE\n",
        ),
        (
            &["--arg", "status=shipped", "--arg", "limit=\"3\""],
            "ptc: error: agent `top`: --arg limit: expected :int, got string \"3\"\n",
        ),
        (
            &["--arg", "status=shipped", "--arg", "limit=3", "--arg", "since=\"yesterday\""],
            "ptc: error: agent `top`: --arg since: expected :datetime, got string \"yesterday\"\n",
        ),
        (
            &["--arg", "status=shipped", "--arg", "limt=3"],
            "ptc: error: agent `top`: --arg limt: not an input of the agent (its inputs: status, limit, since)\n",
        ),
    ];
    for (args, expected) in cases {
        let ran = run(&dir, &cfg, "top", args);
        assert_eq!((ran.code, ran.stderr.as_str(), ran.stdout.as_str()), (Some(1), expected, ""), "{args:?}");
        assert!(ran.session.is_none(), "{args:?}: no session is started");
    }
    // Well-typed inputs get as far as the model (which is not there).
    let ran = run(
        &dir,
        &cfg,
        "top",
        &["--arg", "status=:shipped", "--arg", "limit=3", "--arg", "since=\"2024-05-01T00:00:00Z\""],
    );
    assert!(ran.stderr.contains("connection failed"), "{}", ran.stderr);
    let s = ran.session.unwrap();
    assert_eq!(s.mission, "The 3 largest orders with status :shipped");
    assert_eq!(s.inputs.get("status").map(String::as_str), Some(":shipped"));
}

#[test]
fn a_single_shot_agent_returns_its_program_value() {
    let (dir, cfg) = config(
        "single-shot",
        r#"
[strategy.coalesced]
plugin = "single-user-coalesced"

[agent.add]
mission = "Add 1 and 2"
max_turns = 1
llm = { backend = "replay", file = "add.json" }

[agent.sum]
strategy = "coalesced"
mission = "Sum the shipped orders' item quantities"
max_turns = 1
signature = "{shipped :int, quantity :int}"
data = { orders = "ORDERS" }
llm = { backend = "replay", file = "sum.json" }

[agent.sum-strict]
mission = "Sum the shipped orders' item quantities"
max_turns = 1
signature = "{shipped :int, quantity :int}"
data = { orders = "ORDERS" }
llm = { backend = "replay", file = "sum.json" }

[agent.sum-retry]
strategy = "coalesced"
mission = "Sum the shipped orders' item quantities"
max_turns = 1
retry_turns = 1
signature = "{shipped :int, quantity :int}"
data = { orders = "ORDERS" }
llm = { backend = "replay", file = "sum.json" }
"#,
        &[
            ("add.json", &["```clojure\n(+ 1 2)\n```"]),
            (
                "sum.json",
                &[
                    "```clojure\n(let [s (filter #(= \"shipped\" (:status %)) data/orders)]\n  {:shipped (count s) :quantity (str (reduce + (mapcat #(map :qty (:items %)) s)))})\n```",
                    "```clojure\n(let [s (filter #(= \"shipped\" (:status %)) data/orders)]\n  {:shipped (count s) :quantity (reduce + (mapcat #(map :qty (:items %)) s))})\n```",
                ],
            ),
        ],
    );
    let ran = run(&dir, &cfg, "add", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), "3\n"), "{}", ran.stderr);
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.result.as_deref(), s.turns.len()),
        (Some("returned"), Some("3"), 1)
    );
    assert!(ran.stderr.contains("ptc: returned after 1 turn; session written to"));

    // With a signature, the value is checked: a mismatch without retries ends the run.
    let ran = run(&dir, &cfg, "sum-strict", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(1), "no result (invalid_return: signature)\n"));
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.reason.as_deref()),
        (Some("invalid_return"), Some("signature"))
    );
    assert!(s.detail.as_deref().unwrap().starts_with(
        "The returned value does not match the signature: at $.quantity: expected :int, got string \"13\""
    ));
    assert!(
        ran.stderr.contains(
            "ptc: invalid_return after 1 turn (The returned value does not match the signature: at $.quantity"
        ),
        "{}",
        ran.stderr
    );
    assert!(s
        .system_prompt
        .contains("## Expected output\nAnswer with one program: the value of its last expression is the result"));

    // With a retry, the fixed value is returned; the history is never compressed.
    let ran = run(&dir, &cfg, "sum-retry", &["--format", "json"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), "{\"shipped\":4,\"quantity\":13}\n"), "{}", ran.stderr);
    let s = ran.session.unwrap();
    assert_eq!(s.turns.len(), 2);
    for t in &s.turns {
        assert_eq!(
            t.render_stats.as_ref().unwrap().instance.as_deref(),
            Some("full-history"),
            "a single-shot run is never compressed"
        );
    }
}

#[test]
fn a_retry_turn_survives_a_resume() {
    let agents = |replay: &str| {
        format!(
            r#"
[agent.r]
mission = "Return the number of orders"
max_turns = 1
retry_turns = 1
signature = ":int"
data = {{ orders = "ORDERS" }}
llm = {{ backend = "replay", file = "{replay}" }}
"#
        )
    };
    let wrong = block("(return (str (count data/orders)))");
    let right = block("(return (count data/orders))");
    let (dir, cut) =
        config("resume-retry", &agents("one.json"), &[("one.json", &[&wrong]), ("two.json", &[&wrong, &right])]);
    let ran = run(&dir, &cut, "r", &[]);
    assert_eq!(ran.code, Some(1));
    assert!(ran.stderr.contains("replay file"), "the model ran out before the retry: {}", ran.stderr);
    assert_eq!(ran.session.unwrap().status.map(ptc_session::RunStatus::as_str), Some("error"));

    let whole = dir.join("whole.toml");
    std::fs::write(&whole, std::fs::read_to_string(&cut).unwrap().replace("one.json", "two.json")).unwrap();
    let session = dir.join("s.jsonl");
    let resumed = run(&dir, &whole, "r", &["--resume", session.to_str().unwrap()]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (Some(0), "7\n"), "{}", resumed.stderr);
    assert_eq!(resumed.session.unwrap().turns.len(), 2);
}

#[test]
fn run_limits_end_the_run_with_a_named_reason() {
    let (dir, cfg) = config(
        "limits",
        r#"
[tool.nap]
command = ["sh", "-c", "sleep 1; echo '{\"ok\": true}'"]
signature = "-> {ok :bool}"

[agent.calls]
mission = "Look up customers"
max_turns = 3
tools = ["customer"]
max_tool_calls = 3
llm = { backend = "replay", file = "calls.json" }

[agent.per-turn]
mission = "Look up customers"
max_turns = 3
tools = ["customer"]
max_tool_calls_per_turn = 2
llm = { backend = "replay", file = "calls.json" }

[agent.slow]
mission = "Wait"
max_turns = 3
tools = ["nap"]
run_timeout_ms = 200
limits = { timeout_ms = 5000 }
llm = { backend = "replay", file = "slow.json" }

[agent.typed]
mission = "Look up a customer"
max_turns = 2
tools = ["customer"]
llm = { backend = "replay", file = "typed.json" }
"#,
        &[
            (
                "calls.json",
                &[
                    &block("(def a (mapv #(:name (tool/customer {:id %})) [1 2]))"),
                    &block("(def b (mapv #(:name (tool/customer {:id %})) [3 4 5]))"),
                ],
            ),
            ("slow.json", &[&block("(tool/nap {})"), &block("(return 1)")]),
            (
                "typed.json",
                &[&block("(tool/customer {:id \"3\"})"), &block("(return (:name (tool/customer {:id 3})))")],
            ),
        ],
    );
    let ran = run(&dir, &cfg, "calls", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(1), "no result (limit: max_tool_calls)\n"));
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.reason.as_deref(), s.turns.len()),
        (Some("limit"), Some("max_tool_calls"), 2)
    );
    assert_eq!(s.detail.as_deref(), Some("max_tool_calls = 3 reached: tool/customer would be call 4 of the run"));
    assert_eq!(
        s.turns[1].tool_calls.iter().filter(|c| c.error.is_none()).count(),
        1,
        "only the call within the limit ran"
    );
    assert!(ran.stderr.contains("ptc: limit after 2 turns (max_tool_calls = 3 reached: tool/customer would be call 4 of the run); session written to"), "{}", ran.stderr);

    let ran = run(&dir, &cfg, "per-turn", &[]);
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.reason.as_deref()),
        (Some("limit"), Some("max_tool_calls_per_turn"))
    );
    assert_eq!(
        s.detail.as_deref(),
        Some("max_tool_calls_per_turn = 2 reached: tool/customer would be call 3 of this turn")
    );
    assert!(s.turns[0].success, "two calls in a turn are within the limit");

    let ran = run(&dir, &cfg, "slow", &[]);
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.reason.as_deref()),
        (Some("limit"), Some("run_timeout_ms"))
    );
    assert_eq!(s.detail.as_deref(), Some("run_timeout_ms = 200 reached: the run took longer than its time limit"));
    assert!(s.turns.len() <= 1, "no turn starts after the deadline");
    assert_eq!(ran.code, Some(1));
    let trace = command_in_root(env!("CARGO_BIN_EXE_ptc")).arg("trace").arg(dir.join("s.jsonl")).output().unwrap();
    assert!(String::from_utf8_lossy(&trace.stdout).contains("\nstopped: run_timeout_ms: run_timeout_ms = 200 reached"));

    // A tool argument of the wrong type: the model is told, the run goes on.
    let ran = run(&dir, &cfg, "typed", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), "\"Alan Turing\"\n"), "{}", ran.stderr);
    let error = ran.session.unwrap().turns[0].error.clone().unwrap();
    assert!(
        error.message.starts_with("tool/customer failed: argument `id`: expected :int, got string \"3\" (tool/customer takes {id :int}); the tool was not called"),
        "{}",
        error.message
    );
}

#[test]
fn the_run_budget_stops_before_a_prompt_that_would_pass_it_and_resumes_once_raised() {
    let agent = |limit: &str| {
        format!(
            "[agent.b]\nmission = \"Add\"\nmax_turns = 3\n{limit}\nllm = {{ backend = \"replay\", file = \"b.json\" }}\n"
        )
    };
    let answers: &[&str] = &[&block("(def a 1)"), &block("(def b 2)"), &block("(return (+ a b))")];
    let (dir, free) = config("run-budget", &agent(""), &[("b.json", answers)]);
    let ran = run(&dir, &free, "b", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), "3\n"), "{}", ran.stderr);
    let whole = ran.session.unwrap();
    let tokens: Vec<u64> = whole.turns.iter().map(|t| t.prompt_tokens.unwrap()).collect();
    let costs: Vec<f64> = whole.turns.iter().map(|t| t.cost.as_ref().unwrap().input_cost).collect();

    // One token short of the three prompts: turn 3's is not sent.
    let max = tokens.iter().sum::<u64>() - 1;
    let tight = dir.join("tight.toml");
    std::fs::write(&tight, agent(&format!("max_run_prompt_tokens = {max}"))).unwrap();
    let ran = run(&dir, &tight, "b", &[]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (Some(1), "no result (limit: max_run_prompt_tokens)\n"),
        "{}",
        ran.stderr
    );
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.reason.as_deref(), s.turns.len()),
        (Some("limit"), Some("max_run_prompt_tokens"), 2)
    );
    let detail = format!(
        "max_run_prompt_tokens = {max} reached: turn 3's prompt of {} tokens would bring the run to {}; it was not sent",
        tokens[2],
        max + 1
    );
    assert_eq!(s.detail.as_deref(), Some(detail.as_str()));
    // Raised, the same session goes on from turn 3, as the closing line says.
    let session = dir.join("s.jsonl");
    let shown = session.display();
    let line = format!(
        "ptc: limit after 2 turns ({detail}); session written to {shown}; raise `max_run_prompt_tokens` of [agent.b] \
         and `ptc run --resume {shown}` goes on from it"
    );
    assert!(ran.stderr.contains(&line), "{}", ran.stderr);
    let resumed = run(&dir, &free, "b", &["--resume", session.to_str().unwrap()]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (Some(0), "3\n"), "{}", resumed.stderr);
    let s = resumed.session.unwrap();
    assert_eq!((s.turns.len(), s.reason.as_deref(), s.detail.as_deref()), (3, None, None));

    // The cost: under the agent's price model (openai for a replay), as the session records it.
    let max = costs[0] + costs[1] + 1.0;
    let tight = dir.join("cost.toml");
    std::fs::write(&tight, agent(&format!("max_run_cost = {max}"))).unwrap();
    let ran = run(&dir, &tight, "b", &[]);
    let s = ran.session.unwrap();
    assert_eq!((s.reason.as_deref(), s.turns.len()), (Some("max_run_cost"), 2), "{}", ran.stderr);
    let detail = format!(
        "max_run_cost = {max} reached: turn 3's prompt, at {:.1} under `openai` prices, would bring the run to {:.1}; it \
         was not sent",
        costs[2],
        costs.iter().sum::<f64>()
    );
    assert_eq!(s.detail.as_deref(), Some(detail.as_str()));
}

/// The budget of a run covers what it starts: an agent it runs as a tool
/// (whose prompt past the budget above it is not sent, and says whose
/// budget it passed) and its `llm-query` calls. Before, the top run here
/// returned whatever its budget: the helper and the query were not counted.
/// A tree of runs: agent `top` (three turns, answers from top.json;
/// `limits`, its extra lines) runs agent `helper` as a tool and asks
/// `llm-query` (answers from q.json); `helper` answers from helper.json.
fn tree_agents(limits: &str) -> String {
    format!(
        "[agent.top]\nmission = \"Ask\"\nmax_turns = 3\ntools = [\"agent:helper\", \"llm-query\"]\n{limits}\n\
         llm = {{ backend = \"replay\", file = \"top.json\" }}\n\
         llm_query = {{ backend = \"replay\", file = \"q.json\" }}\n\n\
         [agent.helper]\nmission = \"Help\"\nmax_turns = 3\nllm = {{ backend = \"replay\", file = \"helper.json\" }}\n"
    )
}

/// The helper of [`tree_agents`]: three turns, returning 3.
fn tree_helper() -> [String; 3] {
    [block("(def a 1)"), block("(def b 2)"), block("(return (+ a b))")]
}

#[test]
fn the_run_budget_covers_the_agents_it_runs_and_its_llm_queries() {
    let agents = tree_agents;
    let top: &[&str] = &[
        &block("(def q (tool/llm-query {:prompt \"Name a colour\"}))"),
        &block("(def h (tool/helper {:x 1}))"),
        &block("(return [q h])"),
    ];
    let helper = tree_helper();
    let helper: Vec<&str> = helper.iter().map(String::as_str).collect();
    let replays = [("top.json", top), ("helper.json", &helper[..]), ("q.json", &["red"][..])];
    let (dir, free) = config("tree-budget", &agents(""), &replays);
    let ran = run(&dir, &free, "top", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), "[\"red\" 3]\n"), "{}", ran.stderr);
    let whole = ran.session.unwrap();
    let tokens = |s: &Session| -> Vec<u64> { s.turns.iter().map(|t| t.prompt_tokens.unwrap()).collect() };
    let own = tokens(&whole);
    let query = whole.turns[0].tool_calls[0].usage.as_ref().and_then(|u| u.counted_prompt_tokens).unwrap();
    let nested = |s: &Session| dir.join(s.turns[1].tool_calls[0].session.as_deref().expect("the helper's session"));
    let helped = tokens(&Session::read(&nested(&whole)).unwrap());

    // Room for everything up to the helper's third prompt: the helper stops
    // there, naming the top's budget, and the top stops before its next one.
    let max = own[0] + query + own[1] + helped[0] + helped[1];
    let tight = dir.join("tight.toml");
    std::fs::write(&tight, agents(&format!("max_run_prompt_tokens = {max}"))).unwrap();
    let ran = run(&dir, &tight, "top", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(1), "no result (limit: max_run_prompt_tokens)\n"));
    let s = ran.session.unwrap();
    assert_eq!((s.reason.as_deref(), s.turns.len()), (Some("max_run_prompt_tokens"), 2), "{}", ran.stderr);
    assert!(s.detail.as_deref().unwrap().starts_with(&format!("max_run_prompt_tokens = {max} reached: turn 3's")));
    let h = Session::read(&nested(&s)).unwrap();
    assert_eq!((h.reason.as_deref(), h.turns.len()), (Some("max_run_prompt_tokens"), 2));
    let detail = format!(
        "max_run_prompt_tokens = {max} reached: turn 3's prompt of {} tokens would bring `top`'s run to {}; it was not \
         sent (the budget of `top`, which covers the agents it runs)",
        helped[2],
        max + helped[2]
    );
    assert_eq!(h.detail.as_deref(), Some(detail.as_str()));
    // Each turn's line shows what the budget holds: after turn 1 its prompt
    // and the query; after turn 2 all of it, the helper's two prompts too.
    let lines = [(own[0], own[0] + query), (own[0] + own[1], max)];
    for (total, spent) in lines {
        let shown = format!("total={total}  budget={spent}/{max}  model=");
        assert!(ran.stderr.contains(&shown), "{shown}: {}", ran.stderr);
    }
    // The top's program is told why.
    let error = &s.turns[1].error.as_ref().expect("the helper did not return").message;
    assert!(error.contains(&format!("agent `helper` did not return (limit after 2 turns: {detail})")), "{error}");

    // One token short of the query: the program gets a limit error, and
    // the query is not sent.
    let max = own[0] + query - 1;
    std::fs::write(&tight, agents(&format!("max_run_prompt_tokens = {max}"))).unwrap();
    let s = run(&dir, &tight, "top", &[]).session.unwrap();
    assert_eq!((s.reason.as_deref(), s.turns.len()), (Some("max_run_prompt_tokens"), 1));
    let error = &s.turns[0].error.as_ref().expect("the query was refused").message;
    let refused = format!(
        "llm-query: max_run_prompt_tokens = {max} reached: an llm-query prompt of {query} tokens would bring the run \
         to {}; it was not sent",
        max + 1
    );
    assert!(error.contains(&refused), "{error}");
    assert!(s.turns[0].tool_calls.iter().all(|c| c.usage.is_none()), "nothing was spent on it");
}

#[test]
fn a_resumed_run_budget_counts_what_its_calls_spent_before() {
    // The top asks an llm-query, runs a helper agent, then returns; a cost
    // budget that stops it before its third prompt, raised, and resumed:
    // the budget goes on from what the whole tree spent (its own turns,
    // the helper's, the query), as in the run that was never stopped.
    // Under `anthropic` the helper (priced `openai`) and the query are
    // priced again from their records; under `openai` they are read.
    let agents = |pricing: &str, limit: f64| tree_agents(&format!("pricing = \"{pricing}\"\nmax_run_cost = {limit}"));
    let top: &[&str] = &[
        &block("(def q (tool/llm-query {:prompt \"Name a colour\" :schema {:colour :string}}))"),
        &block("(def h (tool/helper {:x 1}))"),
        &block("(return [(:colour q) h])"),
    ];
    let helper = tree_helper();
    let helper: Vec<&str> = helper.iter().map(String::as_str).collect();
    let replays = [("top.json", top), ("helper.json", &helper[..]), ("q.json", &["{\"colour\": \"red\"}"][..])];
    // `cost=SPENT/LIMIT` on turn N's progress line.
    let spent = |stderr: &str, turn: u32| -> f64 {
        let line = stderr.lines().find(|l| l.contains(&format!("turn {turn}/3 "))).expect("the turn's line");
        let at = line.find("cost=").expect("the budget is shown") + 5;
        line[at..].split('/').next().unwrap().parse().unwrap()
    };
    for pricing in ["openai", "anthropic"] {
        let (dir, whole) = config(&format!("resumed-budget-{pricing}"), &agents(pricing, 1e9), &replays);
        let ran = run(&dir, &whole, "top", &[]);
        assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), "[\"red\" 3]\n"), "{}", ran.stderr);
        let (second, third) = (spent(&ran.stderr, 2), spent(&ran.stderr, 3));
        // The closing line adds the calls' cost to the run's own: the budget's figure.
        let s = ran.session.unwrap();
        let own = ptc_session::CostTotals::of(&s.turns).unwrap().input_cost;
        assert!(third > own + 1.0, "{pricing}: {third} {own}");
        let all = format!("more inside its tool calls (the agents it ran, llm-query), {third:.1} in all;");
        assert!(ran.stderr.contains(&all), "{pricing}: {all}\n{}", ran.stderr);
        // `ptc trace --usage` splits the same figure.
        let mut trace = command_in_root(env!("CARGO_BIN_EXE_ptc"));
        let traced = trace.arg("trace").arg(dir.join("s.jsonl")).arg("--usage").output().unwrap();
        let traced = String::from_utf8(traced.stdout).unwrap();
        let split = format!(
            "cost under `{pricing}` prices: {own:.1} in its own turns + {:.1} inside tool calls = {third:.1}\n",
            third - own
        );
        assert!(traced.contains(&split), "{split}\n{traced}");
        // A record that names its own file as the nested run's (a loop no
        // run writes) is read once: the trace ends, with a figure.
        let text = std::fs::read_to_string(dir.join("s.jsonl")).unwrap();
        let looped = text.replace("s.jsonl.runs/turn-2-helper-1.session.jsonl", "loop.jsonl");
        assert_ne!(looped, text);
        std::fs::write(dir.join("loop.jsonl"), looped).unwrap();
        let mut trace = command_in_root(env!("CARGO_BIN_EXE_ptc"));
        let traced = trace.arg("trace").arg(dir.join("loop.jsonl")).arg("--usage").output().unwrap();
        let stdout = String::from_utf8_lossy(&traced.stdout);
        assert_eq!(traced.status.code(), Some(0), "{}", String::from_utf8_lossy(&traced.stderr));
        assert!(stdout.contains(&format!("cost under `{pricing}` prices: {own:.1} in its own turns + ")), "{stdout}");
        // Twenty such calls: each names a file already shown, once each
        // (the trace multiplied by 20 at every level before, past 20 s).
        let fan: Vec<String> = (std::fs::read_to_string(dir.join("loop.jsonl")).unwrap().lines())
            .map(|line| {
                let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
                if let Some(calls) = value.pointer_mut("/turn/tool_calls").and_then(|c| c.as_array_mut()) {
                    if calls.iter().any(|c| c.get("session").is_some()) {
                        *calls = vec![calls[0].clone(); 20];
                    }
                }
                value.to_string()
            })
            .collect();
        std::fs::write(dir.join("loop.jsonl"), fan.join("\n") + "\n").unwrap();
        let traced = command_in_root(env!("CARGO_BIN_EXE_ptc")).arg("trace").arg(dir.join("loop.jsonl")).output();
        let stdout = String::from_utf8(traced.unwrap().stdout).unwrap();
        assert_eq!(stdout.matches("(nested run loop.jsonl not shown again: this trace shows it above)").count(), 20);

        let tight = dir.join("tight.toml");
        std::fs::write(&tight, agents(pricing, (second + third) / 2.0)).unwrap();
        let stopped = run(&dir, &tight, "top", &[]);
        let s = stopped.session.unwrap();
        assert_eq!((s.reason.as_deref(), s.turns.len()), (Some("max_run_cost"), 2), "{}", stopped.stderr);
        let session = dir.join("s.jsonl");
        let resumed = run(&dir, &whole, "top", &["--resume", session.to_str().unwrap()]);
        assert_eq!((resumed.code, resumed.stdout.as_str()), (Some(0), "[\"red\" 3]\n"), "{}", resumed.stderr);
        assert_eq!(spent(&resumed.stderr, 3), third, "{pricing}: {}", resumed.stderr);

        // Resumed into another folder, its calls still name the helper's run:
        // the closing line and the trace find it there.
        run(&dir, &tight, "top", &[]);
        std::fs::create_dir_all(dir.join("later")).unwrap();
        let moved = dir.join("later/new.jsonl");
        let resumed = command_in_root(env!("CARGO_BIN_EXE_ptc"))
            .env(ptc_host::config::PLUGIN_PATH_ENV, plugin_dir())
            .args(["run", "top", "--config"])
            .arg(&whole)
            .arg("--resume")
            .arg(&session)
            .arg("--session")
            .arg(&moved)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&resumed.stderr);
        assert_eq!(spent(&stderr, 3), third, "{pricing}: {stderr}");
        assert!(stderr.contains(&format!(", {third:.1} in all;")), "{pricing}: {stderr}");
        let nested = &Session::read(&moved).unwrap().turns[1].tool_calls[0];
        assert_eq!(nested.session.as_deref(), Some("../s.jsonl.runs/turn-2-helper-1.session.jsonl"));

        // Without the helper's session file, its call is priced from the
        // usage it recorded, every prompt token uncached: more, never less.
        run(&dir, &tight, "top", &[]);
        std::fs::remove_dir_all(dir.join("s.jsonl.runs")).unwrap();
        let resumed = run(&dir, &whole, "top", &["--resume", session.to_str().unwrap()]);
        assert!(spent(&resumed.stderr, 3) > third, "{pricing}: {}", resumed.stderr);
    }
}

#[test]
fn a_bad_signature_in_the_config_points_at_the_character() {
    let (dir, cfg) =
        config("bad-signature", "[agent.a]\nmission = \"m\"\nsignature = \"{count :int, items [:strng]}\"\n", &[]);
    let ran = run(&dir, &cfg, "a", &[]);
    assert_eq!(ran.code, Some(1));
    let expected = format!(
        "ptc: error: {}:3:34: agent `a`: signature: unknown type `:strng`; the types are :string :int :float :bool :keyword :datetime :map :any (column 21)\n    {{count :int, items [:strng]}}\n                        ^\n",
        cfg.display()
    );
    assert_eq!(ran.stderr, expected);
}

#[test]
fn the_run_timeout_cuts_a_model_call_short() {
    // The server never answers; the read timeout is a minute: only
    // run_timeout_ms ends the run.
    let server = Server::start(vec![Reply::Stall]);
    let agents = format!(
        "[agent.wait]\nmission = \"m\"\nrun_timeout_ms = 500\nllm = {{ backend = \"openai\", base_url = \"{}\", model = \"m\", read_timeout_ms = 60000, max_retries = 0 }}\n",
        server.url
    );
    let (dir, cfg) = config("run-timeout-model", &agents, &[]);
    let ran = run(&dir, &cfg, "wait", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(1), "no result (limit: run_timeout_ms)\n"), "{}", ran.stderr);
    let s = ran.session.unwrap();
    assert_eq!(
        (s.status.map(ptc_session::RunStatus::as_str), s.reason.as_deref(), s.turns.len()),
        (Some("limit"), Some("run_timeout_ms"), 0)
    );
}
