//! Agents with MCP tools (the workspace's test server, started for real over
//! stdio and over Streamable HTTP on 127.0.0.1), the per-tool result cache,
//! agents used as tools and `llm-query`, all through `ptc_host::run` with
//! replayed models: results, session records, `ptc trace`, and the failures
//! (server that cannot start, unknown tool, tool error, timeout, dead
//! server, recursion, depth limit) as one-line errors.

use ptc_host::config::Config;
use ptc_host::config::ConfigFile;
use ptc_host::run::{run, RunOptions};
use ptc_integration_tests::{
    http_server, mcp_test_server, own_peak_memory, pids_written, process_ended, root, scratch_dir, signal, wait_until,
    McpHttpServer,
};
use ptc_session::Session;
use std::path::{Path, PathBuf};

/// Writes `config` (with `{server}` replaced by the test server's path and
/// each replay given as `name = [answers]`) into a scratch folder.
fn setup(test: &str, config: &str, replays: &[(&str, &[&str])]) -> PathBuf {
    let dir = scratch_dir(test);
    for (name, answers) in replays {
        std::fs::write(dir.join(format!("{name}.json")), serde_json::to_string(answers).unwrap()).unwrap();
    }
    let text = config.replace("{server}", &mcp_test_server().display().to_string());
    std::fs::write(dir.join("strategies.toml"), text).unwrap();
    dir
}

fn run_agent(dir: &Path, agent: &str) -> Result<Session, String> {
    let config = Config::load(&dir.join("strategies.toml")).map_err(|e| e.to_string())?.resolve();
    let out = dir.join(format!("{agent}.session.jsonl"));
    let options = RunOptions { session_out: Some(&out), resume: None, args: &[] };
    let done = run(&config, agent, options, &mut |_: &str| {}).map_err(|e| e.to_string())?;
    assert_eq!(Session::read(&out).unwrap(), done.session);
    Ok(done.session)
}

const LOOKUPS: &[&str] = &[
    "```clojure\n(def found (pmap #(tool/cities.lookup {:city %}) [\"Berlin\" \"Lyon\" \"Leeds\"]))\n(map :population found)\n```",
    "```clojure\n(let [again (tool/cities.lookup {:city \"Lyon\"})] (return [(:country again) (tool/cities.search {:prefix \"L\"})]))\n```",
];

fn check_lookup_run(s: &Session) {
    assert_eq!(
        s.status.map(ptc_session::RunStatus::as_str),
        Some("returned"),
        "{:?}",
        s.turns.iter().map(|t| &t.error).collect::<Vec<_>>()
    );
    assert_eq!(s.result.as_deref(), Some("[\"FR\" [\"Leeds\" \"Lyon\" \"Lisbon\"]]"));
    // The prompt shows the server's tools as SERVER.TOOL with signatures from their schemas.
    let lookup = s.tools.iter().find(|t| t.name == "cities.lookup").unwrap();
    assert_eq!(
        lookup.signature.as_deref(),
        Some("(city :string) -> {city :string?, country :string?, population :int?}")
    );
    let t1 = &s.turns[0];
    assert_eq!(t1.result.as_deref(), Some("(3850000 522000 812000)"));
    assert!(t1.tool_calls.iter().all(|c| c.name == "cities.lookup" && !c.cached));
    assert!(
        t1.messages[0].content.contains("cities.lookup")
            || t1.messages.iter().any(|m| m.content.contains("tool/cities.lookup"))
    );
    // Turn 2: the repeated lookup is answered by the cache, the search is not cached.
    let t2 = &s.turns[1];
    assert_eq!(
        t2.tool_calls.iter().map(|c| (c.name.as_str(), c.cached)).collect::<Vec<_>>(),
        [("cities.lookup", true), ("cities.search", false)]
    );
    assert_eq!(t2.render_stats.as_ref().unwrap().tool_calls_cached, Some(1));
}

#[test]
fn an_agent_calls_a_stdio_mcp_server_and_caches_lookups() {
    let dir = setup(
        "mcp-stdio",
        r#"
[mcp.cities]
command = "{server}"
cache = ["lookup"]
[agent.a]
mission = "m"
tools = ["cities.*"]
llm = { backend = "replay", file = "a.json" }
"#,
        &[("a", LOOKUPS)],
    );
    let s = run_agent(&dir, "a").unwrap();
    check_lookup_run(&s);
    assert!(s.tools.iter().any(|t| t.name == "cities.exit"));
    let trace = ptc_host::cmd::trace::trace(&dir.join("a.session.jsonl"), Default::default(), false).unwrap().stdout;
    assert!(
        trace.contains(
            "  tool/cities.lookup {:city \"Lyon\"} -> {:city \"Lyon\" :country \"FR\" :population 522000} (cached)"
        ),
        "{trace}"
    );
}

#[test]
fn an_agent_calls_an_http_mcp_server() {
    let server = McpHttpServer::start();
    let config = format!(
        "[mcp.cities]\nurl = \"{}\"\nheaders = {{ X-Test = \"1\" }}\ncache = true\n[agent.a]\nmission = \"m\"\ntools = [\"cities.lookup\", \"cities.search\"]\nllm = {{ backend = \"replay\", file = \"a.json\" }}\n",
        server.url
    );
    let dir = setup("mcp-http", &config, &[("a", LOOKUPS)]);
    let s = run_agent(&dir, "a").unwrap();
    check_lookup_run(&s);
    assert_eq!(s.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["cities.lookup", "cities.search"]);
}

#[test]
fn a_server_writing_stderr_without_end_fills_no_memory_of_ptc() {
    // No newline ever: one endless stderr line, and no handshake.
    let config = r#"
[mcp.noisy]
command = ["sh", "-c", "yes | tr -d '\n' >&2"]
startup_timeout_ms = 2000
[agent.noisy]
mission = "m"
tools = ["noisy.*"]
llm = { backend = "replay", file = "a.json" }
"#;
    let answers: &[&str] = &["(return 1)"];
    let dir = setup("mcp-noisy", config, &[("a", answers)]);
    let before = own_peak_memory();
    let e = run_agent(&dir, "noisy").unwrap_err();
    assert!(e.starts_with("mcp server `noisy` (stdio: sh -c "), "{e}");
    assert!(e.contains("no answer to the handshake and tool list within 2000 ms (startup_timeout_ms)"), "{e}");
    assert!(e.ends_with(&format!("its stderr ends: ...{}", "y".repeat(200))), "{e}");
    let grew = own_peak_memory().saturating_sub(before);
    assert!(grew < 256 << 20, "ptc's peak memory grew by {} MiB", grew >> 20);
}

#[test]
fn mcp_failures_are_one_line_errors_and_the_session_survives() {
    let config = r#"
[mcp.cities]
command = ["{server}"]
timeout_ms = 400
[mcp.broken]
command = ["sh", "-c", "echo 'no config file' >&2; exit 2"]
[agent.broken]
mission = "m"
tools = ["broken.*"]
llm = { backend = "replay", file = "a.json" }
[agent.typo]
mission = "m"
tools = ["cities.lookpu"]
llm = { backend = "replay", file = "a.json" }
[agent.a]
mission = "m"
max_turns = 4
tools = ["cities.*"]
llm = { backend = "replay", file = "a.json" }
"#;
    let answers: &[&str] = &[
        "(tool/cities.lookup {:city \"Paris\"})",
        "(tool/cities.sleep {:ms 5000})",
        "(tool/cities.exit {:code 1})",
        "(tool/cities.lookup {:city \"Lyon\"})",
    ];
    let dir = setup("mcp-failures", config, &[("a", answers)]);
    let e = run_agent(&dir, "broken").unwrap_err();
    assert!(e.starts_with("mcp server `broken` (stdio: sh -c "), "{e}");
    assert!(e.ends_with("its stderr ends: no config file"), "{e}");
    let e = run_agent(&dir, "typo").unwrap_err();
    assert_eq!(
        e,
        "agent `typo` uses tool `cities.lookpu`, but mcp server `cities` has no tool `lookpu` (it lists: lookup, search, fail, sleep, tick, exit)"
    );
    assert!(!dir.join("typo.session.jsonl").exists(), "no session is started for a run that cannot start");

    let s = run_agent(&dir, "a").unwrap();
    let errors: Vec<String> = s.turns.iter().map(|t| t.error.as_ref().unwrap().message.clone()).collect();
    assert_eq!(errors[0], "tool/cities.lookup failed: no city named \"Paris\" (line 1, column 1)");
    assert_eq!(errors[1], "tool/cities.sleep failed: mcp server `cities` did not answer within 400 ms (its timeout_ms); the call was cancelled (line 1, column 1)");
    assert!(errors[2].starts_with("tool/cities.exit failed: mcp server `cities` is gone ("), "{}", errors[2]);
    assert!(errors[3].starts_with("tool/cities.lookup failed: mcp server `cities` is gone ("), "{}", errors[3]);
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("out_of_turns"));
}

#[test]
fn a_command_tool_with_cache_runs_once_per_argument_map() {
    let config = r#"
[tool.count]
command = ["sh", "-c", "cat >> calls.log; echo >> calls.log; wc -l < calls.log"]
cache = true
[agent.a]
mission = "m"
tools = ["count"]
llm = { backend = "replay", file = "a.json" }
"#;
    let answers: &[&str] =
        &["(return [(tool/count {:a 1 :b 2}) (tool/count {:b 2 :a 1}) (tool/count {:a 2}) (tool/count {:a 1 :b 2})])"];
    let dir = setup("tool-cache", config, &[("a", answers)]);
    let s = run_agent(&dir, "a").unwrap();
    // Equal maps (whatever the key order) run the command once.
    assert_eq!(s.result.as_deref(), Some("[1 1 2 1]"));
    let cached: Vec<bool> = s.turns[0].tool_calls.iter().map(|c| c.cached).collect();
    assert_eq!(cached, [false, true, false, true]);
    assert_eq!(std::fs::read_to_string(dir.join("calls.log")).unwrap().lines().count(), 2);
}

#[test]
fn a_resumed_run_goes_on_with_the_next_llm_query_answer() {
    let config = |replay: &str| {
        format!(
            "[agent.q]\nmission = \"m\"\ntools = [\"llm-query\"]\n\
             llm = {{ backend = \"replay\", file = \"{replay}\" }}\n\
             llm_query = {{ backend = \"replay\", file = \"query.json\" }}\n"
        )
    };
    let first = "(def a (tool/llm-query {:prompt \"first\"}))";
    let second = "(return [a (tool/llm-query {:prompt \"second\"})])";
    let query: &[&str] = &["one", "two"];
    let dir = setup(
        "llm-query-resume",
        &config("cut.json"),
        &[("cut", &[first]), ("whole", &[first, second]), ("query", query)],
    );
    // The model runs out of answers after turn 1: the run stops there.
    let err = run_agent(&dir, "q").unwrap_err();
    assert!(err.contains("replay"), "{err}");
    std::fs::write(dir.join("strategies.toml"), config("whole.json")).unwrap();
    let resolved = Config::load(&dir.join("strategies.toml")).unwrap().resolve();
    let session = dir.join("q.session.jsonl");
    let options = RunOptions { session_out: None, resume: Some(&session), args: &[] };
    let done = run(&resolved, "q", options, &mut |_: &str| {}).unwrap();
    assert_eq!(done.session.result.as_deref(), Some("[\"one\" \"two\"]"), "{:?}", done.session.turns[1].error);
}

#[test]
fn agents_as_tools_nest_record_and_sum_usage() {
    let config = r#"
[mcp.cities]
command = ["{server}"]
[agent.facts]
mission = "Population of data/city"
tools = ["cities.lookup"]
llm = { backend = "replay", file = "facts.json" }
[agent.boss]
mission = "m"
tools = ["agent:facts", "llm-query"]
llm = { backend = "replay", file = "boss.json" }
llm_query = { backend = "replay", file = "query.json" }
"#;
    let facts: &[&str] = &["(return (:population (tool/cities.lookup {:city data/city})))"];
    let boss: &[&str] = &["```clojure\n(def n (tool/facts {:city \"Leeds\"}))\n(return [n (tool/llm-query {:prompt (str \"Say \" n) :schema {:n :int}}) (tool/llm-query {:prompt \"hi\"})])\n```"];
    let query: &[&str] = &["```json\n{\"n\": 812000}\n```", "hello"];
    let dir = setup("agents-as-tools", config, &[("facts", facts), ("boss", boss), ("query", query)]);
    let s = run_agent(&dir, "boss").unwrap();
    assert_eq!(s.result.as_deref(), Some("[812000 {:n 812000} \"hello\"]"), "{:?}", s.turns[0].error);
    let calls = &s.turns[0].tool_calls;
    assert_eq!(calls[0].session.as_deref(), Some("boss.session.jsonl.runs/turn-1-facts-1.session.jsonl"));
    let nested = Session::read(&dir.join(calls[0].session.as_ref().unwrap())).unwrap();
    assert_eq!(
        (nested.agent.as_deref(), nested.status.map(ptc_session::RunStatus::as_str)),
        (Some("facts"), Some("returned"))
    );
    assert_eq!(nested.data["city"], "\"Leeds\"");
    let nested_tokens = nested.turns[0].prompt_tokens.unwrap();
    let counted = |i: usize| calls[i].usage.as_ref().unwrap().counted_prompt_tokens.unwrap();
    assert_eq!(counted(0), nested_tokens);
    assert!(counted(1) > 0);
    let inside: u64 = (0..calls.len()).map(counted).sum();
    assert_eq!(s.usage.counted_prompt_tokens, Some(inside), "the session's usage sums what the calls spent");

    let trace = ptc_host::cmd::trace::trace(&dir.join("boss.session.jsonl"), Default::default(), true).unwrap().stdout;
    assert!(trace.contains("    nested run: boss.session.jsonl.runs/turn-1-facts-1.session.jsonl\n    │ agent: facts  turns: 1/5  status: returned\n"), "{trace}");
    assert!(trace.contains("    │   tool/cities.lookup {:city \"Leeds\"} -> {:city \"Leeds\""), "{trace}");
    let own = s.turns[0].prompt_tokens.unwrap();
    assert!(
        trace.contains(&format!(
            "prompt tokens counted: {own} in its own turns + {inside} inside tool calls = {}",
            own + inside
        )),
        "{trace}"
    );
}

#[test]
fn recursion_depth_and_bad_llm_query_answers_are_tool_errors() {
    let config = r#"
[agent.a]
mission = "m"
tools = ["agent:b", "llm-query"]
llm = { backend = "replay", file = "a.json" }
llm_query = { backend = "replay", file = "q.json" }
[agent.b]
mission = "m"
max_turns = 1
tools = ["agent:a", "agent:c"]
llm = { backend = "replay", file = "b.json" }
[agent.c]
mission = "m"
tools = ["agent:d"]
max_turns = 1
max_agent_depth = 1
llm = { backend = "replay", file = "c.json" }
[agent.d]
mission = "m"
llm = { backend = "replay", file = "d.json" }
"#;
    let a: &[&str] = &["(tool/b {})", "(tool/llm-query {:prompt \"x\" :schema {:n :int}})", "(return 1)"];
    let b: &[&str] = &["(return [(tool/a {}) 1])"];
    let c: &[&str] = &["(return (tool/d {}))"];
    let q: &[&str] = &["{\"n\": \"seven\"}"];
    let dir = setup("agent-recursion", config, &[("a", a), ("b", b), ("c", c), ("d", &["(return 4)"]), ("q", q)]);
    let s = run_agent(&dir, "a").unwrap();
    let e1 = &s.turns[0].error.as_ref().unwrap().message;
    assert!(e1.starts_with("tool/b failed: agent `b` did not return (out_of_turns after 1 turn); its last error: tool/a failed: agent recursion: a → b → a is not allowed"), "{e1}");
    let e2 = &s.turns[1].error.as_ref().unwrap().message;
    assert_eq!(e2, "tool/llm-query failed: llm-query: the answer does not fit :schema {n :int}: at $.n: expected :int, got string \"seven\" (line 1, column 1)");
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
    // c allows no agent below it.
    let s = run_agent(&dir, "c").unwrap();
    let e = &s.turns[0].error.as_ref().unwrap().message;
    assert!(e.contains("agents nest at most 1 deep (max_agent_depth of `c`)"), "{e}");
}

#[test]
fn the_city_demo_agents_run_offline() {
    // Copy the root config's MCP demo into a scratch folder with the built test server.
    let text = std::fs::read_to_string(root().join("strategies.toml")).unwrap();
    let start = text.find("[mcp.cities]").unwrap();
    let demo = text[start..]
        .replace("target/debug/ptc-mcp-test-server", "{server}")
        .replace("examples/", &format!("{}/examples/", root().display()));
    let dir = setup("city-demo", &demo, &[]);
    let s = run_agent(&dir, "city-brief").unwrap();
    assert_eq!(
        s.result.as_deref(),
        Some("{:facts {:city \"Berlin\" :country \"DE\" :population 3850000} :brief \"Berlin (DE) is the largest of the three, with about 3.85 million people.\"}")
    );
    let nested = Session::read(&dir.join(s.turns[0].tool_calls[0].session.as_ref().unwrap())).unwrap();
    assert!(nested.turns[1].tool_calls[0].cached, "city-facts's second Berlin lookup is cached");
}

#[test]
fn doctor_starts_every_mcp_server_and_lists_its_tools() {
    let http = McpHttpServer::start();
    // A web server that is no MCP endpoint: the handshake's answer is HTTP 501.
    let web_url = format!(
        "{}/",
        http_server(|_| b"HTTP/1.1 501 Not Implemented\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_vec())
    );
    let config = format!(
        r#"
[plugins]
executable_dir = false
[mcp.cities]
command = ["{{server}}"]
[mcp.remote]
url = "{}"
[mcp.web]
url = "{web_url}"
[mcp.broken]
command = ["sh", "-c", "echo 'config missing' >&2; exit 4"]
[mcp.absent]
command = ["no-such-mcp-server"]
"#,
        http.url
    );
    let dir = setup("mcp-doctor", &config, &[]);
    let out = ptc_host::cmd::doctor::doctor(&dir.join("strategies.toml")).unwrap();
    assert_eq!(out.code, 1, "{}", out.stdout);
    let lines: Vec<&str> = out.stdout.lines().filter(|l| l.contains("mcp server")).collect();
    let cities = format!("ok    mcp server `cities` (stdio: {}) answers: ", mcp_test_server().display());
    assert_eq!(lines[0], format!("{cities}6 tools (lookup, search, fail, sleep, tick, exit)"));
    let remote = format!("ok    mcp server `remote` (http: {}) answers: 6 tools (lookup, ", http.url);
    assert!(lines[1].starts_with(&remote), "{}", lines[1]);
    assert_eq!(
        lines[2],
        format!(
            "FAIL  mcp server `web` (http: {web_url}): handshake failed: HTTP 501; \
             is `url` the server's MCP endpoint (Streamable HTTP, often ending in /mcp)?"
        )
    );
    assert!(lines[3].starts_with("FAIL  mcp server `broken` (stdio: sh -c "), "{}", lines[3]);
    assert!(lines[3].ends_with("its stderr ends: config missing"), "{}", lines[3]);
    assert!(
        lines[4].starts_with(
            "FAIL  mcp server `absent` (stdio: no-such-mcp-server): program `no-such-mcp-server` is not on PATH"
        ),
        "{}",
        lines[4]
    );
    assert_eq!(lines.len(), 5, "{}", out.stdout);
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_ends_its_mcp_servers_with_what_they_started() {
    // The server starts through `sh`, which first starts a 300 s sleep (as
    // `npx` or `uv run` start a server as their child); turn 1 waits on
    // the server's `sleep` tool when SIGTERM comes.
    let config = r#"
[plugins]
executable_dir = false
[mcp.cities]
command = ["sh", "-c", "sleep 300 & echo $$ $! > mcp.pids; exec {server}"]
[agent.waits]
mission = "Wait"
strategy = "full-history"
tools = ["cities.*"]
llm = { backend = "replay", file = "waits.json" }
"#;
    let dir = setup("mcp-interrupted", config, &[("waits", &["```clojure\n(tool/cities.sleep {:ms 300000})\n```"])]);
    let child = ptc_integration_tests::command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .args(["run", "waits", "--config", dir.join("strategies.toml").to_str().unwrap()])
        .args(["--session", dir.join("waits.session.jsonl").to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the server started", || std::fs::read_to_string(dir.join("mcp.pids")).is_ok_and(|t| t.ends_with('\n')));
    let pids = pids_written(&dir.join("mcp.pids"));
    assert_eq!(pids.len(), 2);
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{}", String::from_utf8_lossy(&out.stderr));
    // Killed with ptc, not left to end at their input's end: the sleep never would.
    wait_until("the server and its sleep ended", || pids.iter().all(|&pid| process_ended(pid)));
}
