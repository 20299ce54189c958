//! `ptc bench` end to end: the real binary, real plugins, and the scripted
//! model (`ptc_suite::scripted`) over real HTTP on 127.0.0.1. The bench
//! must tell a strategy that drops a needed fact from one that keeps it
//! (both ways), resume after a kill with every run recorded once, merge
//! shards into what one unsharded run gives, and hold its concurrency bound;
//! and fact memory must keep a fact from the middle of a long page.

use ptc_integration_tests::{command_in_root, interrupt, plugin_dir, scratch_dir, wait_until};
use ptc_suite::record::read_records;
use ptc_suite::scripted::{ScriptedModel, Server, ServerOptions};
use ptc_suite::{RunKey, Suite};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

/// Step K prints this much filler, so full history outgrows a small context.
const FILLER: &str = "(apply str (repeat 100 \"filler \"))";

/// A task file: `steps` programs, the last one needing `fact`.
fn task(tier: &str, mission: &str, steps: &[String], fact: &str, answer: &str) -> String {
    let mut text = format!(
        "tier = \"{tier}\"\nexpect = {{ exact = '{answer}' }}\n\n[agent]\nmission = \"{mission}\"\nmax_turns = {}\ntools = [\"customer\", \"inventory\"]\n",
        steps.len() + 1
    );
    for (i, program) in steps.iter().enumerate() {
        text.push_str(&format!("\n[[script]]\nprogram = '{program}'\n"));
        if i + 1 == steps.len() {
            text.push_str(&format!("needs = [\"{fact}\"]\nwrong = '(return \"nobody\")'\n"));
        }
    }
    text
}

/// A suite in a scratch folder: `early-fact` (explore: the fact of turn 1
/// needed at turn 5), `recent-fact` (long: the fact of the latest turn,
/// with long output every turn) and `lookup` (one turn).
fn write_suite(name: &str) -> PathBuf {
    let dir = scratch_dir(name);
    std::fs::create_dir_all(dir.join("tasks")).unwrap();
    let suite = format!(
        "[plugins]\npaths = [{:?}]\n\n[strategy.terse]\nplugin = \"aggressive\"\nprintln_limit = 1\n",
        plugin_dir().display().to_string()
    );
    std::fs::write(dir.join("suite.toml"), suite).unwrap();
    let mut early = vec!["(println \"[step 1] customer 5 is\" (:name (tool/customer {:id 5})))".to_string()];
    for (k, sku) in [(2, "LAP-1"), (3, "KEY-3"), (4, "MON-4")] {
        early.push(format!("(println \"[step {k}] {sku} is in\" (:warehouse (tool/inventory {{:sku \"{sku}\"}})))"));
    }
    early.push("(return \"Kurt Goedel\")".into());
    let early =
        task("explore", "Name customer 5 after looking at three SKUs.", &early, "Kurt Goedel", "\"Kurt Goedel\"");
    std::fs::write(dir.join("tasks/early-fact.toml"), early).unwrap();
    let mut recent: Vec<String> = (1..5).map(|k| format!("(println \"[step {k}]\" {FILLER})")).collect();
    recent.push("(println \"[step 5] customer 3 is\" (:name (tool/customer {:id 3})))".into());
    recent.push("(return \"Alan Turing\")".into());
    let recent = task("long", "Read four long pages, then name customer 3.", &recent, "Alan Turing", "\"Alan Turing\"");
    std::fs::write(dir.join("tasks/recent-fact.toml"), recent).unwrap();
    let lookup = task(
        "lookup",
        "Name customer 1.",
        &["(return (:name (tool/customer {:id 1})))".into()],
        "",
        "\"Ada Lovelace\"",
    );
    std::fs::write(dir.join("tasks/lookup.toml"), lookup.replace("needs = [\"\"]\n", "")).unwrap();
    dir
}

/// The scripted model of the suite in `dir`.
fn serve(dir: &Path, options: ServerOptions) -> Server {
    let suite = Suite::load(dir).unwrap();
    Server::start(ScriptedModel::from_suite(&suite), options, "127.0.0.1:0").unwrap()
}

fn llm(server: &Server) -> String {
    format!("{{ backend = \"openai\", base_url = \"{}\", model = \"scripted\", max_retries = 0 }}", server.base_url())
}

fn bench_command(dir: &Path, server: &Server, out: &Path, extra: &[&str]) -> std::process::Command {
    let mut cmd = command_in_root(env!("CARGO_BIN_EXE_ptc"));
    cmd.arg("bench").arg(dir).arg("--llm").arg(llm(server)).arg("--out").arg(out).args(extra);
    cmd
}

fn ptc_bench(dir: &Path, server: &Server, out: &Path, extra: &[&str]) -> Output {
    let output = bench_command(dir, server, out, extra).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn report(files: &[&Path], format: &str) -> String {
    let output = command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .args(["bench", "report", "--format", format])
        .args(files)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn keys(out: &Path) -> Vec<RunKey> {
    read_records(&[out.to_path_buf()]).unwrap().into_iter().map(|r| r.key).collect()
}

#[test]
fn the_bench_tells_a_strategy_that_drops_a_needed_fact_both_ways() {
    let dir = write_suite("tells");
    // The context holds the system prompt and mission plus about 2,000
    // characters: terse fits, full history outgrows it on
    // the long task.
    let limit = ptc_lisp::LANGUAGE_CARD.len() + 2_500;
    let server = serve(&dir, ServerOptions { max_prompt_chars: Some(limit), ..Default::default() });
    let out = dir.join("results.jsonl");
    let args = ["--strategies", "full-history,terse", "--runs", "6", "--concurrency", "4"];
    ptc_bench(&dir, &server, &out, &args);
    let records = read_records(std::slice::from_ref(&out)).unwrap();
    assert_eq!(records.len(), 3 * 2 * 6);
    let passed = |task: &str, strategy: &str| {
        records.iter().filter(|r| r.key.task == task && r.key.strategy == strategy && r.passed).count()
    };
    // Full history keeps the fact of turn 1; terse has dropped it.
    assert_eq!((passed("early-fact", "full-history"), passed("early-fact", "terse")), (6, 0));
    // The long task outgrows the model's context under full history only.
    assert_eq!((passed("recent-fact", "full-history"), passed("recent-fact", "terse")), (0, 6));
    assert_eq!((passed("lookup", "full-history"), passed("lookup", "terse")), (6, 6));
    let failed = records.iter().find(|r| r.key.task == "recent-fact" && r.key.strategy == "full-history").unwrap();
    assert_eq!(failed.outcome.error_kind, Some(ptc_suite::ErrorKind::Llm));
    assert!(failed.outcome.error.as_deref().unwrap_or("").contains("maximum context length"), "{failed:?}");
    let wrong = records.iter().find(|r| r.key.task == "early-fact" && r.key.strategy == "terse").unwrap();
    assert_eq!(wrong.outcome.answer.as_deref(), Some("\"nobody\""));
    assert!(wrong.outcome.cost.contains_key("anthropic") && wrong.outcome.prompt_tokens > 0, "{wrong:?}");

    // Per tier the paired test sees 6 discordant pairs in one direction
    // (significant); over all tiers they cancel out (not significant).
    let json: serde_json::Value = serde_json::from_str(&report(&[&out], "json")).unwrap();
    let tier_row = |tier: &str| {
        json["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["strategy"] == "terse" && r["tier"] == tier)
            .unwrap()
            .clone()
    };
    assert_eq!(tier_row("explore")["versus_full_history"]["baseline_only"], 6);
    assert_eq!(tier_row("long")["versus_full_history"]["strategy_only"], 6);
    assert!(tier_row("explore")["versus_full_history"]["p_value"].as_f64().unwrap() < 0.05);
    let text = report(&[&out], "text");
    assert!(
        text.contains("terse vs full-history: 18 paired runs, only full-history passed 6, only terse passed 6, exact McNemar p = 1.0000: not significant"),
        "{text}"
    );
    let markdown = report(&[&out], "markdown");
    assert!(markdown.contains("| terse | explore | 6 | 0% [0–39%] |"), "{markdown}");
}

#[test]
fn a_run_that_starts_an_agent_counts_what_that_agent_spent() {
    // A task whose agent asks a helper agent (replayed): the run's record
    // counts the helper's prompt tokens and cost with its own.
    let dir = scratch_dir("bench-nested");
    std::fs::create_dir_all(dir.join("tasks")).unwrap();
    let helper = ["```clojure\n(def a 1)\n```", "```clojure\n(return (+ a 2))\n```"];
    std::fs::write(dir.join("helper.json"), serde_json::to_string(&helper).unwrap()).unwrap();
    let suite = format!(
        "[plugins]\npaths = [{:?}]\n\n[agent.helper]\nmission = \"Help\"\nmax_turns = 3\n\
         llm = {{ backend = \"replay\", file = \"helper.json\" }}\n",
        plugin_dir().display().to_string()
    );
    std::fs::write(dir.join("suite.toml"), suite).unwrap();
    let task = "tier = \"lookup\"\nexpect = { exact = '3' }\n\n[agent]\nmission = \"Ask the helper.\"\nmax_turns = 2\n\
                tools = [\"agent:helper\"]\n\n[[script]]\nprogram = '(return (tool/helper {}))'\n";
    std::fs::write(dir.join("tasks/ask.toml"), task).unwrap();
    let server = serve(&dir, ServerOptions::default());
    let out = dir.join("results.jsonl");
    ptc_bench(&dir, &server, &out, &["--strategies", "full-history"]);
    let record = read_records(std::slice::from_ref(&out)).unwrap().remove(0);
    assert!(record.passed, "{record:?}");
    let session = dir.join(record.outcome.session.as_deref().expect("the run's session"));
    let own = ptc_session::Session::read(&session).unwrap();
    let relative = own.turns[0].tool_calls[0].session.clone().expect("the helper's session");
    let nested = ptc_session::Session::read(&session.parent().unwrap().join(relative)).unwrap();
    let tokens = |s: &ptc_session::Session| s.turns.iter().filter_map(|t| t.prompt_tokens).sum::<u64>();
    assert!(tokens(&nested) > 0);
    assert_eq!(record.outcome.prompt_tokens, tokens(&own) + tokens(&nested));
    let cost = |s: &ptc_session::Session| {
        let totals = ptc_session::CostTotals::of(&s.turns).unwrap();
        totals.input_cost + totals.output_cost.unwrap_or(0.0)
    };
    let recorded = record.outcome.cost["openai"];
    assert!((recorded - (cost(&own) + cost(&nested))).abs() < 1e-6, "{recorded} {} {}", cost(&own), cost(&nested));
}

#[test]
fn a_killed_bench_resumes_and_records_every_run_once() {
    let dir = write_suite("resume");
    let server = serve(&dir, ServerOptions { delay: Duration::from_millis(40), ..Default::default() });
    let out = dir.join("results.jsonl");
    let args = ["--strategies", "full-history,terse", "--runs", "3", "--concurrency", "2"];
    let mut child = bench_command(&dir, &server, &out, &args).stderr(std::process::Stdio::null()).spawn().unwrap();
    wait_until("three runs recorded", || keys(&out).len() >= 3);
    child.kill().unwrap();
    child.wait().unwrap();
    let before = keys(&out).len();
    assert!(before < 18, "the bench finished before it was killed");
    let second = ptc_bench(&dir, &server, &out, &args);
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert!(
        stdout.starts_with(&format!("18 runs planned, {before} already done, {} run now", 18 - before)),
        "{stdout}"
    );
    let recorded = keys(&out);
    let distinct: BTreeSet<&RunKey> = recorded.iter().collect();
    assert_eq!((recorded.len(), distinct.len()), (18, 18));
    // A third run has nothing left to do.
    let third = ptc_bench(&dir, &server, &out, &args);
    assert!(String::from_utf8_lossy(&third.stdout).starts_with("18 runs planned, 18 already done, 0 run now"));
}

#[test]
fn the_prompt_token_cap_stops_starting_runs_and_the_same_command_goes_on() {
    let dir = write_suite("token-cap");
    let server = serve(&dir, ServerOptions::default());
    let out = dir.join("results.jsonl");
    let args = ["--strategies", "full-history", "--runs", "2"];
    // One run at a time: the first run's prompts pass the cap, so no other starts.
    let first = ptc_bench(&dir, &server, &out, &[&args[..], &["--max-prompt-tokens", "1"]].concat());
    let records = read_records(std::slice::from_ref(&out)).unwrap();
    assert_eq!(records.len(), 1);
    let sent = records[0].outcome.prompt_tokens;
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.starts_with("6 runs planned, 0 already done, 1 run now,"), "{stdout}");
    let stderr = String::from_utf8_lossy(&first.stderr);
    let note = format!(
        "ptc: 5 runs not started: --max-prompt-tokens 1 reached ({sent} sent); the same command goes on from the \
         finished runs"
    );
    assert!(stderr.lines().any(|l| l == note), "{stderr}");
    // Without the cap the same command runs the other five.
    let rest = ptc_bench(&dir, &server, &out, &args);
    assert!(String::from_utf8_lossy(&rest.stdout).starts_with("6 runs planned, 1 already done, 5 run now"));
    assert_eq!(keys(&out).len(), 6);
}

#[test]
fn ctrl_c_says_where_the_finished_runs_are_and_the_same_command_goes_on() {
    let dir = write_suite("interrupt");
    let server = serve(&dir, ServerOptions { delay: Duration::from_millis(40), ..Default::default() });
    let out = dir.join("results.jsonl");
    let args = ["--strategies", "full-history", "--runs", "3", "--concurrency", "1"];
    let child = bench_command(&dir, &server, &out, &args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("a run recorded", || !keys(&out).is_empty());
    interrupt(&child);
    let ended = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&ended.stderr);
    assert_eq!(ended.status.code(), Some(130), "{err}");
    let shown = out.display();
    assert!(
        err.lines().last().unwrap_or_default().starts_with(&format!(
            "ptc: interrupted; the finished runs are in {shown}: the same command goes on from them"
        )),
        "{err}"
    );
    let before = keys(&out).len();
    assert!(before < 9, "the bench finished before it was interrupted");
    let again = ptc_bench(&dir, &server, &out, &args);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(stdout.starts_with(&format!("9 runs planned, {before} already done, {} run now", 9 - before)), "{stdout}");
}

#[test]
fn four_shards_merge_into_the_unsharded_report() {
    let dir = write_suite("shards");
    let server = serve(&dir, ServerOptions::default());
    let args = ["--strategies", "full-history,terse", "--runs", "2", "--concurrency", "2"];
    let whole = dir.join("whole.jsonl");
    ptc_bench(&dir, &server, &whole, &args);
    let shards: Vec<PathBuf> = (0..4).map(|i| dir.join(format!("shard-{i}.jsonl"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let spec = format!("{i}/4");
        ptc_bench(&dir, &server, shard, &[&args[..], &["--shard", &spec]].concat());
    }
    let sizes: Vec<usize> = shards.iter().map(|s| keys(s).len()).collect();
    assert_eq!(sizes, [3, 3, 3, 3]);
    let shard_refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    assert_eq!(report(&shard_refs, "json"), report(&[&whole], "json"));
    assert_eq!(report(&shard_refs, "markdown"), report(&[&whole], "markdown"));
}

#[test]
fn the_bench_never_has_more_runs_in_flight_than_its_concurrency() {
    let dir = write_suite("bound");
    let out = dir.join("results.jsonl");
    let server = serve(&dir, ServerOptions { delay: Duration::from_millis(150), ..Default::default() });
    // The dry run says what it would do and sends nothing.
    let dry = ptc_bench(&dir, &server, &out, &["--strategies", "full-history", "--runs", "8", "--dry-run"]);
    let stdout = String::from_utf8_lossy(&dry.stdout);
    assert!(stdout.starts_with("24 runs planned (3 tasks × 1 strategies × 8 runs), 0 already in"), "{stdout}");
    assert!(stdout.contains("prompt tokens at most"), "{stdout}");
    assert_eq!(server.requests(), 0);
    // Eight one-turn runs, three at a time.
    std::fs::remove_file(dir.join("tasks/early-fact.toml")).unwrap();
    std::fs::remove_file(dir.join("tasks/recent-fact.toml")).unwrap();
    ptc_bench(&dir, &server, &out, &["--strategies", "full-history", "--runs", "8", "--concurrency", "3"]);
    assert_eq!(server.requests(), 8);
    let peak = server.peak_in_flight();
    assert!((2..=3).contains(&peak), "peak in flight {peak}, bound 3");
}

#[test]
fn every_task_of_the_core_suite_is_solved_with_full_history() {
    let dir = ptc_integration_tests::root().join("bench/suites/core");
    let suite = Suite::load(&dir).unwrap();
    // The MCP tasks need the test server beside ptc (a workspace build puts it there).
    let ptc = Path::new(env!("CARGO_BIN_EXE_ptc"));
    let mcp = ptc.with_file_name(format!("ptc-mcp-test-server{}", std::env::consts::EXE_SUFFIX)).exists();
    let uses_mcp = |t: &ptc_suite::Task| t.agent.get("tools").is_some_and(|v| v.to_string().contains("cities."));
    let names: Vec<&str> = suite.tasks.iter().filter(|t| mcp || !uses_mcp(t)).map(|t| t.name.as_str()).collect();
    if !mcp {
        ptc_integration_tests::progress("core suite: ptc-mcp-test-server not built, its MCP tasks left out");
    }
    let server = serve(&dir, ServerOptions::default());
    let out = scratch_dir("core").join("results.jsonl");
    let tasks = names.join(",");
    ptc_bench(&dir, &server, &out, &["--strategies", "full-history", "--concurrency", "4", "--tasks", &tasks]);
    let records = read_records(std::slice::from_ref(&out)).unwrap();
    assert_eq!(records.len(), names.len());
    let failed: Vec<String> = records
        .iter()
        .filter(|r| !r.passed)
        .map(|r| format!("{}: {} {:?} {:?}", r.key.task, r.outcome.status, r.outcome.answer, r.outcome.error))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

/// `ptc bench` of the core suite with `args` (strategies, tasks) against
/// the scripted model, the plugins of the test build; its records.
fn core_suite_records(name: &str, args: &[&str]) -> Vec<ptc_suite::record::RunRecord> {
    let dir = ptc_integration_tests::root().join("bench/suites/core");
    let server = serve(&dir, ServerOptions::default());
    let out = scratch_dir(name).join("results.jsonl");
    let output = bench_command(&dir, &server, &out, args).env("PTC_PLUGIN_PATH", plugin_dir()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let records = read_records(std::slice::from_ref(&out)).unwrap();
    // A run that could not start (a plugin not found) would pass an
    // "it fails" check vacuously.
    let errors: Vec<String> = records
        .iter()
        .filter_map(|r| Some(format!("{} {}: {}", r.key.task, r.key.strategy, r.outcome.error.as_ref()?)))
        .collect();
    assert!(errors.is_empty(), "runs that ended in an error: {errors:?}");
    records
}

/// The core suite's `long-logbook-buried`: a delivery reference in the
/// middle of a 1,300-character logbook page, needed ten turns later. Fact
/// memory (`aggressive`, checkpointed) keeps it among the facts of a long
/// print line; the spec layout (`aggressive-spec`), which shows only the
/// latest prints cut to 200 characters, does not.
#[test]
fn fact_memory_keeps_a_fact_from_the_middle_of_a_long_page() {
    let strategies = ["--strategies", "aggressive,aggressive-spec", "--tasks", "long-logbook-buried"];
    let passed: Vec<(String, bool)> = core_suite_records("buried", &strategies)
        .into_iter()
        .map(|r| (r.key.strategy, r.passed))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .collect();
    assert_eq!(passed, [("aggressive".to_string(), true), ("aggressive-spec".to_string(), false)]);
}

/// The core suite's `long-contract-quoted` and `long-contract-restored`: a
/// clause's wording (prose, no fact by shape) from the middle of page 5,
/// needed ten turns later. Fact memory (`coalesced`) does not keep it; with
/// `turn-output` offered it gets page 5's turn back in one call and
/// answers a turn later. Full history answers both without the tool.
#[test]
fn turn_output_gets_back_what_fact_memory_drops() {
    let args = ["--strategies", "full-history,coalesced", "--tasks", "long-contract-quoted,long-contract-restored"];
    let outcomes: std::collections::BTreeMap<(String, String), (bool, u32)> = core_suite_records("restored", &args)
        .into_iter()
        .map(|r| ((r.key.task, r.key.strategy), (r.passed, r.outcome.turns)))
        .collect();
    let at = |task: &str, strategy: &str| outcomes[&(task.to_string(), strategy.to_string())];
    assert_eq!(at("long-contract-quoted", "full-history"), (true, 16));
    assert!(!at("long-contract-quoted", "coalesced").0);
    assert_eq!(at("long-contract-restored", "full-history"), (true, 16));
    assert_eq!(at("long-contract-restored", "coalesced"), (true, 17));
}

/// The core suite's code-writing tasks: a line of source that an edit copies
/// as its old text ten turns after the page that held it. Fact memory keeps
/// it when the tool gave the file one string per line (a tool's short
/// string that a print shows whole is a fact), not when it gave the page as
/// one string (a line of code is no fact by shape); with `turn-output`
/// offered it gets the page back and answers a turn later. Full history
/// passes all three without the tool.
#[test]
fn a_copied_code_line_depends_on_the_reads_shape_and_turn_output_restores_it() {
    let tasks = "long-edit-anchor,long-edit-anchor-lines,long-edit-restored";
    let args = ["--strategies", "full-history,coalesced", "--tasks", tasks];
    let outcomes: std::collections::BTreeMap<(String, String), (bool, u32)> = core_suite_records("edit", &args)
        .into_iter()
        .map(|r| ((r.key.task, r.key.strategy), (r.passed, r.outcome.turns)))
        .collect();
    let at = |task: &str, strategy: &str| outcomes[&(task.to_string(), strategy.to_string())];
    for task in tasks.split(',') {
        assert_eq!(at(task, "full-history"), (true, 16), "{task}");
    }
    assert!(!at("long-edit-anchor", "coalesced").0);
    assert_eq!(at("long-edit-anchor-lines", "coalesced"), (true, 16));
    assert_eq!(at("long-edit-restored", "coalesced"), (true, 17));
}

/// The core suite against the peers: context editing with a trigger these
/// tasks reach (`clear-5k`) clears the page that held the fact, and the
/// original runtime's `:trim` keeps only the last three turns, so both
/// fail a buried fact and a fact read twelve turns earlier, which fact
/// memory (`coalesced`) keeps.
#[test]
fn the_peers_lose_what_fact_memory_keeps() {
    let args = ["--strategies", "coalesced,clear-5k,upstream-trim", "--tasks", "long-archive-12,long-logbook-buried"];
    let passed: std::collections::BTreeMap<(String, String), bool> =
        core_suite_records("peers", &args).into_iter().map(|r| ((r.key.strategy, r.key.task), r.passed)).collect();
    let expected: std::collections::BTreeMap<(String, String), bool> =
        [("coalesced", true), ("clear-5k", false), ("upstream-trim", false)]
            .into_iter()
            .flat_map(|(strategy, pass)| {
                ["long-archive-12", "long-logbook-buried"].map(|task| ((strategy.to_string(), task.to_string()), pass))
            })
            .collect();
    assert_eq!(passed, expected);
}
