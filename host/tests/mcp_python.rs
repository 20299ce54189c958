//! Interop with a second MCP implementation: ptc's client (rmcp) against a
//! server written with the official Python SDK (`tests/mcp-python/server.py`,
//! `mcp` 2.x), over stdio and over Streamable HTTP on 127.0.0.1: the
//! signatures ptc derives from pydantic's JSON schemas, every tool's result,
//! the SDK's tool errors, a timeout with cancellation, and an agent run
//! through `ptc_host::run` with a replayed model calling Python-served tools.
//!
//! The SDK comes from `python3` or a virtualenv under `target/` (see
//! `ptc_integration_tests::python_mcp`); without it these tests print one
//! line saying why and skip (`PTC_REQUIRE_PYTHON_MCP=1` makes that a failure).

use ptc_host::config::Config;
use ptc_host::config::ConfigFile;
use ptc_host::run::{run, RunOptions};
use ptc_integration_tests::{python_mcp_or_skip, root, scratch_dir, PythonMcp, PythonMcpHttpServer};
use ptc_mcp::{CallError, McpServer, Runtime, ServerConfig, Transport};
use ptc_session::Session;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

fn start(config: ServerConfig) -> McpServer {
    let runtime = Arc::new(Runtime::new().expect("a runtime"));
    McpServer::start(&config, runtime).unwrap_or_else(|e| panic!("{e}"))
}

fn stdio(sdk: &PythonMcp) -> ServerConfig {
    ServerConfig::new("py", Transport::Stdio { command: sdk.stdio_command(), env: vec![], dir: root() })
}

fn http(url: &str) -> ServerConfig {
    ServerConfig::new("py", Transport::Http { url: url.into(), headers: vec![], bearer_token: None })
}

/// What every transport must show: the tools with their signatures, each
/// tool's answer, and the SDK's errors as tool errors.
fn lists_and_calls(server: &McpServer) {
    let tools: Vec<(&str, &str)> = server.tools().iter().map(|t| (t.name.as_str(), t.signature.as_str())).collect();
    assert_eq!(
        tools,
        [
            ("lookup", "(city :string) -> {city :string, country :string, population :int}"),
            // A list return is wrapped by the SDK as {"result": [...]}, and its outputSchema says so.
            ("search", "(prefix :string, max_results :int?) -> {result [:string]}"),
            // Pydantic models arrive as $defs/$ref; defaults make a field optional, `X | None` too.
            (
                "plan",
                "(traveller {name :string, home_city :string?}, stops [{city :string, nights :int, tags [:string]?}], \
                 mode :string?, note :string?) -> {traveller :string, nights :int, cities [:string], by :string, tags [:string]}"
            ),
            ("describe", "(city :string, shout :bool?, ratio :float?) -> {result :string}"),
            ("fail", "(message :string) -> {result :string}"),
            ("sleep", "(ms :int) -> :map"),
            ("cancelled", "() -> {result [:int]}"),
        ]
    );
    for tool in server.tools() {
        assert!(ptc_plugin_api::render::Signature::parse(&tool.signature).is_some(), "{}", tool.signature);
    }
    let plan = &server.tools()[2];
    assert_eq!(
        plan.description.as_deref(),
        Some("Plans a trip: nights in total, the cities in order (from the traveller's home city, when given).")
    );

    assert_eq!(
        server.call("lookup", json!({"city": "leeds"})),
        Ok(json!({"city": "Leeds", "country": "GB", "population": 812000}))
    );
    assert_eq!(
        server.call("search", json!({"prefix": "l", "max_results": 2})),
        Ok(json!({"result": ["Leeds", "Lisbon"]}))
    );
    let trip = json!({
        "traveller": {"name": "Ann", "home_city": "leeds"},
        "stops": [{"city": "lyon", "nights": 2, "tags": ["food"]}, {"city": "Berlin", "nights": 1, "tags": ["museums", "food"]}],
        "mode": "road",
        "note": "night bus",
    });
    assert_eq!(
        server.call("plan", trip),
        Ok(
            json!({"traveller": "Ann", "nights": 3, "cities": ["Leeds", "Lyon", "Berlin"], "by": "road (night bus)", "tags": ["food", "museums"]})
        )
    );
    assert_eq!(
        server.call("describe", json!({"city": "lyon", "shout": true, "ratio": 0.5})),
        Ok(json!({"result": "LYON (FR) HAS ABOUT 261000 PEOPLE"}))
    );
    assert_eq!(server.call("sleep", json!({"ms": 1})), Ok(json!({"slept_ms": 1})));
    // ptc's spellings reach the server as declared: `home-city` as `home_city` (pydantic would
    // silently ignore the unknown key), and a nil for a field whose schema admits no null
    // (`tags`, `max_results`) is left out instead of being rejected.
    let loose = json!({"traveller": {"name": "Bo", "home-city": "lisbon"}, "stops": [{"city": "lyon", "nights": 1, "tags": null}], "note": null});
    assert_eq!(
        server.call("plan", loose),
        Ok(json!({"traveller": "Bo", "nights": 1, "cities": ["Lisbon", "Lyon"], "by": "rail", "tags": []}))
    );
    assert_eq!(
        server.call("search", json!({"prefix": "l", "max-results": null})),
        Ok(json!({"result": ["Leeds", "Lisbon", "Lyon"]}))
    );

    // The SDK's errors are `isError` results: the tool's error, in the SDK's words.
    assert_eq!(
        server.call("lookup", json!({"city": "Paris"})),
        Err(CallError::Tool("Error executing tool lookup: no city named 'Paris'".into()))
    );
    // An unexpected exception's message is withheld by the SDK.
    assert_eq!(
        server.call("fail", json!({"message": "boom"})),
        Err(CallError::Tool("Error executing tool fail".into()))
    );
    assert_eq!(server.call("nope", json!({})), Err(CallError::Tool("Unknown tool: nope".into())));
    let Err(CallError::Tool(invalid)) =
        server.call("plan", json!({"traveller": {"name": "Ann"}, "stops": [{"city": "lyon", "nights": 0}]}))
    else {
        panic!("a rejected argument is a tool error");
    };
    assert!(invalid.starts_with("Error executing tool plan: 1 validation error for planArguments"), "{invalid}");
    assert!(invalid.contains(" stops.0.nights Input should be greater than or equal to 1 "), "one line: {invalid}");
}

/// A call past its timeout fails, the server hears of the cancellation
/// (its `sleep` is interrupted) and goes on answering.
fn times_out_and_cancels(server: &McpServer, ms: u64) {
    let e = server.call("sleep", json!({"ms": 60_000})).unwrap_err();
    assert_eq!(e, CallError::Timeout { server: "py".into(), ms });
    assert_eq!(server.call("sleep", json!({"ms": 2})), Ok(json!({"slept_ms": 2})));
    // The cancellation notice travels on its own: ask until it has arrived (at most 5 s).
    let mut cancelled = json!(null);
    for _ in 0..50 {
        cancelled = server.call("cancelled", json!({})).unwrap();
        if cancelled != json!({"result": []}) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(cancelled, json!({"result": [60_000]}));
}

/// Long enough for any Python call on a loaded machine, short for the timeout check.
const CALL_TIMEOUT_MS: u64 = 3000;

#[test]
fn python_sdk_server_over_stdio_lists_signatures_and_answers() {
    let Some(sdk) = python_mcp_or_skip() else { return };
    let mut config = stdio(sdk);
    config.call_timeout = Duration::from_millis(CALL_TIMEOUT_MS);
    let server = start(config);
    lists_and_calls(&server);
    times_out_and_cancels(&server, CALL_TIMEOUT_MS);
}

#[test]
fn python_sdk_server_over_http_lists_signatures_and_answers() {
    let Some(sdk) = python_mcp_or_skip() else { return };
    let process = PythonMcpHttpServer::start(sdk);
    let mut config = http(&process.url);
    config.call_timeout = Duration::from_millis(CALL_TIMEOUT_MS);
    let server = start(config);
    lists_and_calls(&server);
    times_out_and_cancels(&server, CALL_TIMEOUT_MS);
}

#[test]
fn an_agent_plans_a_trip_with_python_served_tools() {
    let Some(sdk) = python_mcp_or_skip() else { return };
    let dir = scratch_dir("mcp-python-agent");
    let command = serde_json::to_string(&sdk.stdio_command()).unwrap();
    let config = format!(
        "[mcp.py]\ncommand = {command}\n[agent.trip]\nmission = \"Plan a trip\"\nmax_turns = 3\ntools = [\"py.*\"]\nllm = {{ backend = \"replay\", file = \"trip.json\" }}\n"
    );
    std::fs::write(dir.join("strategies.toml"), config).unwrap();
    let answers = [
        "(tool/py.lookup {:city \"Paris\"})",
        // Nested kebab-case keys and nils for optional fields, as a model writes them; pmap over one connection.
        "```clojure\n(def trip (tool/py.plan {:traveller {:name \"Ann\" :home-city \"leeds\"}\n                         :stops [{:city \"lyon\" :nights 2} {:city \"berlin\" :nights 1 :tags nil}]\n                         :note nil}))\n(return [(:cities trip) (:nights trip) (:by trip)\n         (:result (tool/py.search {:prefix \"L\" :max-results nil}))\n         (pmap #(:population (tool/py.lookup {:city %})) (:cities trip))])\n```",
    ];
    std::fs::write(dir.join("trip.json"), serde_json::to_string(&answers).unwrap()).unwrap();

    let config = Config::load(&dir.join("strategies.toml")).unwrap().resolve();
    let out = dir.join("trip.session.jsonl");
    let done = run(&config, "trip", RunOptions { session_out: Some(&out), resume: None, args: &[] }, &mut |_: &str| {})
        .unwrap_or_else(|e| panic!("{e}"));
    let s = Session::read(&out).unwrap();
    assert_eq!(s, done.session);
    let errors: Vec<_> = s.turns.iter().map(|t| t.error.as_ref().map(|e| e.message.as_str())).collect();
    assert_eq!(
        errors,
        [Some("tool/py.lookup failed: Error executing tool lookup: no city named 'Paris' (line 1, column 1)"), None]
    );
    assert_eq!(s.status.map(ptc_session::RunStatus::as_str), Some("returned"));
    assert_eq!(
        s.result.as_deref(),
        Some("[[\"Leeds\" \"Lyon\" \"Berlin\"] 3 \"rail\" [\"Leeds\" \"Lisbon\" \"Lyon\"] (812000 522000 3850000)]")
    );
    // The model is shown the Python tool with the signature ptc derived from pydantic's schema.
    let prompt = &s.turns[0].messages[1].content;
    assert!(
        prompt.contains("\ntool/py.plan(traveller {name string, home_city string?}, stops [{city string, nights int, tags [string]?}], mode string?, note string?) -> {traveller string, nights int, cities [string], by string, tags [string]}  ; Plans a trip: "),
        "{prompt}"
    );
    assert!(prompt.contains("\ntool/py.search(prefix string, max-results int?) -> {result [string]}  ; "), "{prompt}");
    let calls: Vec<&str> = s.turns[1].tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(calls, ["py.plan", "py.search", "py.lookup", "py.lookup", "py.lookup"]);

    let trace = ptc_host::cmd::trace::trace(&out, Default::default(), false).unwrap().stdout;
    assert!(
        trace
            .contains("  tool/py.search {:prefix \"L\" :max-results nil} -> {:result [\"Leeds\" \"Lisbon\" \"Lyon\"]}"),
        "{trace}"
    );
}
