//! Timeouts and retries of the HTTP backends against a real server on
//! 127.0.0.1 that stalls, drops connections, answers 429 with Retry-After
//! and answers 500, counting the requests it received. Time bounds are
//! generous upper limits that only prove "did not hang".

mod llm_server;

use llm_server::{openai_body, Reply, Server};
use ptc_host::llm::{plain_prompt, HttpLlmConfig, Llm, LlmError, OpenAi, TimeoutKind};
use ptc_plugin_api::Message;
use std::time::{Duration, Instant};

fn config(url: &str) -> HttpLlmConfig {
    HttpLlmConfig {
        base_url: Some(url.to_string()),
        model: "test-model".into(),
        read_timeout_ms: Some(300),
        max_retries: Some(2),
        backoff_ms: Some(10),
        ..Default::default()
    }
}

fn ask(config: &HttpLlmConfig) -> Result<String, LlmError> {
    let prompt = plain_prompt(&[Message::system("sys"), Message::user("hi")]);
    OpenAi::new(config, Some("sk-secret-123".into())).chat(&prompt).map(|r| r.content)
}

#[test]
fn a_read_timeout_is_not_resent_by_default() {
    let server = Server::start(vec![Reply::Stall, Reply::Json(200, openai_body("late"))]);
    let started = Instant::now();
    let err = ask(&config(&server.url)).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5), "hung: {:?}", started.elapsed());
    assert!(matches!(err, LlmError::Timeout { kind: TimeoutKind::Read, not_retried: true, .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("no answer within 300 ms (read_timeout_ms); not re-sent"), "{text}");
    // Give a wrongly re-sent request time to arrive before counting.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.count(), 1, "a request was sent after the timeout");
}

#[test]
fn retry_on_timeout_closes_the_connection_before_resending() {
    let server = Server::start(vec![Reply::Stall, Reply::Json(200, openai_body("second"))]);
    let c = HttpLlmConfig { retry_on_timeout: Some(true), backoff_ms: Some(200), ..config(&server.url) };
    assert_eq!(ask(&c).unwrap(), "second");
    assert_eq!(server.count(), 2);
    assert!(server.wait_for("closed 1"), "{:?}", server.events());
    assert_eq!(server.events(), ["request 1", "closed 1", "request 2"]);
}

#[test]
fn a_dropped_connection_is_retried() {
    let server = Server::start(vec![Reply::Drop, Reply::Json(200, openai_body("ok"))]);
    assert_eq!(ask(&config(&server.url)).unwrap(), "ok");
    assert_eq!(server.count(), 2);

    let server = Server::start(vec![Reply::Drop, Reply::Drop, Reply::Drop, Reply::Drop]);
    let err = ask(&config(&server.url)).unwrap_err().to_string();
    assert!(err.starts_with("giving up after 3 attempts: "), "{err}");
    assert!(err.contains(&format!("{}/v1/chat/completions: connection failed", server.url)), "{err}");
    assert!(err.ends_with("(is a server answering at base_url? `ptc doctor` checks every agent's endpoint)"), "{err}");
    assert_eq!(server.count(), 3);
}

#[test]
fn rate_limits_wait_for_retry_after() {
    // The backoff is 10 ms; the server asks for one second.
    let retry_after = Reply::WithHeaders(429, vec![("Retry-After", "1".into())], "{}".into());
    let server = Server::start(vec![retry_after, Reply::Json(200, openai_body("ok"))]);
    let started = Instant::now();
    assert_eq!(ask(&config(&server.url)).unwrap(), "ok");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(1) && waited < Duration::from_secs(10), "{waited:?}");
    assert_eq!(server.count(), 2);
}

#[test]
fn a_retry_after_past_the_deadline_gives_up_at_once() {
    let retry_after =
        Reply::WithHeaders(429, vec![("Retry-After", "30".into())], r#"{"error": {"message": "slow down"}}"#.into());
    let server = Server::start(vec![retry_after]);
    let started = Instant::now();
    let err = ask(&HttpLlmConfig { deadline_ms: Some(2_000), ..config(&server.url) }).unwrap_err().to_string();
    assert!(started.elapsed() < Duration::from_secs(2), "slept anyway: {:?}", started.elapsed());
    assert!(err.ends_with("/v1/chat/completions: HTTP 429: slow down (rate limited: try again later)"), "{err}");
    assert_eq!(server.count(), 1);
}

#[test]
fn server_errors_are_retried_then_reported() {
    let boom = || Reply::Json(500, r#"{"error": {"message": "boom", "type": "server_error"}}"#.into());
    let server = Server::start(vec![boom(), boom(), boom(), boom()]);
    let err = ask(&config(&server.url)).unwrap_err().to_string();
    assert!(err.starts_with("giving up after 3 attempts: "), "{err}");
    assert!(
        err.ends_with("/v1/chat/completions: HTTP 500: boom (the server failed, not the request: try again later)"),
        "{err}"
    );
    assert!(!err.contains("sk-secret"), "{err}");
    assert_eq!(server.count(), 3);

    let server = Server::start(vec![boom(), Reply::Json(200, openai_body("recovered"))]);
    assert_eq!(ask(&config(&server.url)).unwrap(), "recovered");
    assert_eq!(server.count(), 2);
}

#[test]
fn client_errors_are_not_retried() {
    let server =
        Server::start(vec![Reply::Json(401, r#"{"error": {"message": "invalid api key sk-secret-123"}}"#.into())]);
    let err = ask(&config(&server.url)).unwrap_err().to_string();
    assert!(
        err.contains(
            "HTTP 401: invalid api key [api key] (the server refused the API key: check the variable api_key_env"
        ),
        "{err}"
    );
    assert_eq!(server.count(), 1);
}

#[test]
fn a_refused_connection_is_retried_then_named() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let err = ask(&config(&url)).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(matches!(err.last(), LlmError::Connection { .. }), "{err:?}");
    assert!(err.to_string().starts_with("giving up after 3 attempts: "), "{err}");
}

#[test]
fn the_deadline_bounds_the_whole_call() {
    // Every attempt stalls; read timeouts are retried, so only the deadline ends it.
    let server = Server::start((0..10).map(|_| Reply::Stall).collect());
    let c = HttpLlmConfig {
        read_timeout_ms: Some(10_000),
        deadline_ms: Some(500),
        retry_on_timeout: Some(true),
        ..config(&server.url)
    };
    let started = Instant::now();
    let err = ask(&c).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(matches!(err, LlmError::Timeout { kind: TimeoutKind::Deadline, .. }), "{err:?}");
    assert!(err.to_string().contains("the model call did not finish within 500 ms (deadline_ms)"), "{err}");
    assert_eq!(server.count(), 1);
}

#[test]
fn a_stream_that_goes_silent_times_out_between_chunks() {
    let chunk = r#"data: {"choices": [{"index": 0, "delta": {"content": "(def x"}, "finish_reason": null}]}"#;
    let server = Server::start(vec![Reply::StreamThenStall(vec![format!("{chunk}\n\n")])]);
    let c = HttpLlmConfig { stream: Some(true), ..config(&server.url) };
    let err = ask(&c).unwrap_err();
    assert!(matches!(err, LlmError::Timeout { kind: TimeoutKind::Read, .. }), "{err:?}");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.count(), 1);
}

#[test]
fn a_slow_stream_that_keeps_talking_is_not_a_timeout() {
    // Five chunks 150 ms apart: 750 ms in all, past the 300 ms read timeout,
    // which applies between chunks.
    let mut events: Vec<String> = ["(", "+ 1", " 2", ")"]
        .iter()
        .map(|t| {
            format!(
                "data: {}\n\n",
                serde_json::json!({"choices": [{"index": 0, "delta": {"content": t}, "finish_reason": null}]})
            )
        })
        .collect();
    events.push(
        "data: {\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"stop\"}]}\n\ndata: [DONE]\n\n".into(),
    );
    let server = Server::start(vec![Reply::Stream(events, Duration::from_millis(150))]);
    let c = HttpLlmConfig { stream: Some(true), ..config(&server.url) };
    assert_eq!(ask(&c).unwrap(), "(+ 1 2)");
    assert_eq!(server.count(), 1);
}

#[test]
fn a_run_deadline_cuts_a_call_short() {
    // The server never answers and the read timeout is a minute: only the
    // run's deadline (`run_timeout_ms`) ends the call.
    let server = Server::start(vec![Reply::Stall]);
    let c = HttpLlmConfig { read_timeout_ms: Some(60_000), ..config(&server.url) };
    let mut model = OpenAi::new(&c, None);
    model.end_calls_by(Some(Instant::now() + Duration::from_millis(300)));
    let started = Instant::now();
    let err = model.chat(&plain_prompt(&[Message::user("hi")])).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(30), "hung: {:?}", started.elapsed());
    assert!(matches!(err, LlmError::Timeout { kind: TimeoutKind::Deadline, .. }), "{err:?}");
    assert_eq!(server.count(), 1);
}

#[test]
fn an_answer_past_the_limit_is_malformed_streamed_or_not() {
    let limit = ptc_host::llm::MAX_ANSWER_BYTES;
    let says = format!("the answer passed {} MiB (MAX_ANSWER_BYTES) without ending", limit >> 20);
    // 11 MiB of deltas that never finish: one event of 4,000 characters at a time.
    let event = format!(
        "data: {}\n\n",
        serde_json::json!({"choices": [{"index": 0, "delta": {"content": "x".repeat(4000)}, "finish_reason": null}]})
    );
    let events = vec![event; (11 << 20) / 4000];
    // One whole answer of 11 MiB.
    let whole = openai_body(&"x".repeat(11 << 20));
    let server = Server::start(vec![Reply::Stream(events, Duration::ZERO), Reply::Json(200, whole)]);
    for stream in [true, false] {
        let c = HttpLlmConfig { stream: Some(stream), max_retries: Some(1), ..config(&server.url) };
        let err = ask(&c).unwrap_err();
        assert!(matches!(err.last(), LlmError::Malformed { .. }), "stream {stream}: {err:?}");
        assert!(err.to_string().contains(&says), "stream {stream}: {err}");
    }
    assert_eq!(server.count(), 2, "a malformed answer is not asked again");
}
