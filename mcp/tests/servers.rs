//! ptc-mcp against the real MCP test server (rmcp's server side), over
//! stdio and over Streamable HTTP on 127.0.0.1: tools listed with their
//! signatures, results, tool errors, timeouts, a server that dies, servers
//! that cannot start or speak no MCP.

use ptc_integration_tests::{
    http_server, mcp_test_server, pids_written, process_ended, root, scratch_dir, wait_until, McpHttpServer,
};
use ptc_mcp::{CallError, McpServer, Runtime, ServerConfig, Transport};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

fn stdio(command: Vec<String>) -> ServerConfig {
    ServerConfig::new("cities", Transport::Stdio { command, env: vec![], dir: root() })
}

fn test_server() -> ServerConfig {
    stdio(vec![mcp_test_server().display().to_string()])
}

fn http(url: &str) -> ServerConfig {
    ServerConfig::new("cities", Transport::Http { url: url.into(), headers: vec![], bearer_token: None })
}

fn runtime() -> Arc<Runtime> {
    Arc::new(Runtime::new().expect("a runtime"))
}

fn lists_and_calls(server: &McpServer) {
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["lookup", "search", "fail", "sleep", "tick", "exit"]);
    let lookup = &server.tools()[0];
    assert_eq!(lookup.signature, "(city :string) -> {city :string?, country :string?, population :int?}");
    assert_eq!(lookup.description.as_deref(), Some("A city's country and population"));
    assert_eq!(server.tools()[1].signature, "(prefix :string, limit :int?) -> :any");
    for tool in server.tools() {
        assert!(ptc_plugin_api::render::Signature::parse(&tool.signature).is_some(), "{}", tool.signature);
    }
    assert_eq!(
        server.call("lookup", json!({"city": "leeds"})),
        Ok(json!({"city": "Leeds", "country": "GB", "population": 812000}))
    );
    assert_eq!(server.call("search", json!({"prefix": "l", "limit": 2})), Ok(json!(["Leeds", "Lyon"])));
    assert_eq!(server.call("lookup", json!({"city": "Paris"})), Err(CallError::Tool("no city named \"Paris\"".into())));
    assert_eq!(server.call("fail", json!({"message": "boom"})), Err(CallError::Tool("boom".into())));
    let e = server.call("nope", json!({})).unwrap_err();
    assert!(matches!(&e, CallError::Protocol { server, .. } if server == "cities"), "{e:?}");
    assert_eq!(e.to_string(), "mcp server `cities`: error -32602: no tool named nope");
    assert_eq!(server.call("lookup", json!([1])).unwrap_err().to_string(), "arguments must be a map, got [1]");
}

#[test]
fn stdio_server_lists_tools_and_answers() {
    let server = McpServer::start(&test_server(), runtime()).unwrap();
    lists_and_calls(&server);
}

#[test]
fn http_server_lists_tools_and_answers() {
    let process = McpHttpServer::start();
    let server = McpServer::start(&http(&process.url), runtime()).unwrap();
    lists_and_calls(&server);
}

#[test]
fn calls_from_several_threads_share_one_connection() {
    let server = McpServer::start(&test_server(), runtime()).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..6).map(|_| s.spawn(|| server.call("sleep", json!({"ms": 100})))).collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), Ok(json!({"slept_ms": 100})));
        }
    });
    assert_eq!(server.call("tick", json!({"key": "k"})), Ok(json!({"key": "k", "count": 1})));
}

#[test]
fn a_slow_call_times_out_and_the_server_goes_on() {
    for transport in ["stdio", "http"] {
        let process = (transport == "http").then(McpHttpServer::start);
        let mut config = match &process {
            Some(p) => http(&p.url),
            None => test_server(),
        };
        config.call_timeout = Duration::from_millis(300);
        let server = McpServer::start(&config, runtime()).unwrap();
        let e = server.call("sleep", json!({"ms": 5000})).unwrap_err();
        assert_eq!(e, CallError::Timeout { server: "cities".into(), ms: 300 }, "{transport}");
        assert_eq!(
            e.to_string(),
            "mcp server `cities` did not answer within 300 ms (its timeout_ms); the call was cancelled"
        );
        assert_eq!(server.call("sleep", json!({"ms": 1})), Ok(json!({"slept_ms": 1})), "{transport}");
    }
}

#[test]
fn a_dead_server_fails_every_later_call_at_once() {
    let server = McpServer::start(&test_server(), runtime()).unwrap();
    let first = server.call("exit", json!({"code": 3})).unwrap_err();
    assert!(matches!(first, CallError::Closed { .. }), "{first:?}");
    assert!(first.to_string().starts_with("mcp server `cities` is gone ("), "{first}");
    assert!(first.to_string().contains("exiting as asked"), "the last stderr line is quoted: {first}");
    let again = server.call("lookup", json!({"city": "Lyon"})).unwrap_err();
    assert!(matches!(again, CallError::Closed { .. }), "{again:?}");
}

#[test]
fn a_dead_http_server_is_a_call_error() {
    let mut process = McpHttpServer::start();
    let mut config = http(&process.url);
    config.call_timeout = Duration::from_secs(2);
    let server = McpServer::start(&config, runtime()).unwrap();
    let e = server.call("exit", json!({})).unwrap_err();
    assert!(!process.running());
    // The answer never comes: the call fails at its timeout (or at once, should the reset be seen).
    assert!(matches!(e, CallError::Timeout { .. } | CallError::Closed { .. }), "{e:?}");
    let again = server.call("lookup", json!({"city": "Lyon"})).unwrap_err().to_string();
    let gone = format!("mcp server `cities` is gone ({}: ", process.url);
    assert!(again.starts_with(&gone), "{again}");
    assert!(again.contains("Connection refused"), "{again}");
}

#[test]
fn servers_that_cannot_start_or_speak_no_mcp_are_one_line_errors() {
    let e = McpServer::start(&stdio(vec!["/no/such/server".into()]), runtime()).err().unwrap();
    assert_eq!(
        e.to_string(),
        "mcp server `cities` (stdio: /no/such/server): cannot start `/no/such/server`: No such file or directory (os error 2) \
         (install it, or give its path in `command`)"
    );
    let crash = stdio(vec!["sh".into(), "-c".into(), "echo 'config missing' >&2; exit 4".into()]);
    let e = McpServer::start(&crash, runtime()).err().unwrap().to_string();
    assert!(e.starts_with("mcp server `cities` (stdio: sh -c "), "{e}");
    assert!(e.ends_with("its stderr ends: config missing"), "{e}");
    // Prints something that is not MCP and waits: the start-up timeout ends it.
    let mut garbage = stdio(vec!["sh".into(), "-c".into(), "echo hello; sleep 30".into()]);
    garbage.startup_timeout = Duration::from_millis(500);
    let e = McpServer::start(&garbage, runtime()).err().unwrap().to_string();
    assert!(e.contains("within 500 ms (startup_timeout_ms)") || e.contains("handshake failed"), "{e}");
}

/// A stdio server started through `sh`, which first starts a 300 s sleep
/// (as `npx` or `uv run` start the server as a child) and writes both ids
/// to `pids` in `dir`, then becomes `server` (`exec`), or runs `server`'s
/// text as its script when it is no path.
#[cfg(unix)]
fn starting_a_sleep(dir: &std::path::Path, server: &str) -> ServerConfig {
    let script = format!("sleep 300 & echo $$ $! > pids; {server}");
    ServerConfig::new(
        "cities",
        Transport::Stdio { command: vec!["sh".into(), "-c".into(), script], env: vec![], dir: dir.into() },
    )
}

#[cfg(unix)]
#[test]
fn a_stdio_server_ends_with_every_process_it_started() {
    let dir = scratch_dir("mcp-process-group");
    // Dropped after it answered: the server ends at its input's end, the sleep it started is killed.
    let exec = format!("exec {}", mcp_test_server().display());
    let server = McpServer::start(&starting_a_sleep(&dir, &exec), runtime()).unwrap();
    assert_eq!(server.call("lookup", json!({"city": "Lyon"})).unwrap()["country"], "FR");
    let started = pids_written(&dir.join("pids"));
    assert!(!started.iter().any(|&pid| process_ended(pid)), "{started:?}");
    drop(server);
    wait_until("the server and its sleep ended", || started.iter().all(|&pid| process_ended(pid)));
    // One that is no MCP server: the same, whether its handshake fails or
    // its start-up time runs out first (the sleep holds its output open).
    std::fs::remove_file(dir.join("pids")).unwrap();
    let mut failing = starting_a_sleep(&dir, "echo hello; exit 3");
    failing.startup_timeout = Duration::from_secs(2);
    let e = McpServer::start(&failing, runtime()).err().unwrap().to_string();
    assert!(e.contains("handshake failed") || e.contains("within 2000 ms (startup_timeout_ms)"), "{e}");
    let started = pids_written(&dir.join("pids"));
    wait_until("the failed server's sleep ended", || started.iter().all(|&pid| process_ended(pid)));
}

/// A plain HTTP server that answers every request with `answer` (a whole
/// HTTP response); its URL.
fn answering(answer: Vec<u8>) -> String {
    format!("{}/mcp", http_server(move |_| answer.clone()))
}

fn status(line: &str, content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {line}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[test]
fn an_http_server_that_does_not_answer_mcp_is_one_line_with_what_to_check() {
    let start = |url: &str| McpServer::start(&http(url), runtime()).err().unwrap().to_string();
    let not_mcp = "is `url` the server's MCP endpoint (Streamable HTTP, often ending in /mcp)?";
    // Nothing listens on the discard port of loopback.
    let e = start("http://127.0.0.1:9/mcp");
    assert_eq!(
        e,
        "mcp server `cities` (http: http://127.0.0.1:9/mcp): handshake failed: Connection refused (os error 111); \
         is the server running, and listening at that address?"
    );
    // A plain web server: the type names of the SDK's error wrappers are not shown.
    let url = answering(status("501 Not Implemented", "text/html", "<p>Unsupported method</p>"));
    assert_eq!(start(&url), format!("mcp server `cities` (http: {url}): handshake failed: HTTP 501; {not_mcp}"));
    // A 404 brings its page: quoted on one line, cut at 200 characters.
    let page = format!("<html>\n<h1>Not Found</h1>\n{}</html>", "lorem ipsum ".repeat(100));
    let e = start(&answering(status("404 Not Found", "text/html", &page)));
    assert!(
        e.contains("handshake failed: unexpected server response: HTTP 404 Not Found: <html> <h1>Not Found</h1> lorem"),
        "{e}"
    );
    assert!(e.ends_with(&format!("...; {not_mcp}")) && e.len() < 400, "{e}");
    let e = start(&answering(status("200 OK", "text/html", "<p>hello</p>")));
    assert!(e.ends_with(&format!("Unexpected content type: Some(\"text/html\"); {not_mcp}")), "{e}");
    let e = start(&answering(status("401 Unauthorized", "application/json", "{\"error\":\"no token\"}")));
    assert!(e.ends_with("give it a token with `bearer_token_env`, or `headers`, in its [mcp.NAME] table"), "{e}");
    let e = start(&answering(status("503 Service Unavailable", "text/plain", "down")));
    assert!(e.ends_with("handshake failed: HTTP 503; the server failed; try again later, or see its log"), "{e}");
    // An answer without end stops at the SDK's bound (16 MiB), not at ptc's memory.
    let endless = [status("200 OK", "application/json", "").as_slice(), &vec![b'x'; 17 << 20]].concat();
    let endless = String::from_utf8(endless).unwrap().replace("content-length: 0\r\n", "").into_bytes();
    let e = start(&answering(endless));
    assert!(e.contains("handshake failed: HTTP response body exceeded the maximum size of 16777216 bytes"), "{e}");
    assert!(e.ends_with(not_mcp), "{e}");
}
