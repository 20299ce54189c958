//! The Anthropic Messages backend against a real HTTP server on 127.0.0.1
//! that checks the request shape (headers, version, system and message
//! blocks, cache breakpoints) and replays recorded responses, whole and
//! streamed, with usage carrying the cache figures. The key must never reach
//! an error or a log line.

mod llm_server;

use llm_server::{Reply, Server};
use ptc_host::llm::{Anthropic, Block, FinishReason, HttpLlmConfig, Llm, Prompt, PromptMessage, Role, Usage};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const KEY: &str = "sk-ant-test-0123456789";

/// A response as the API sends it: a text block, a stop reason and usage
/// with the cache figures (1,562 tokens read from the cache, 210 written).
fn recorded(text: &str, stop_reason: &str, stop_sequence: Option<&str>) -> String {
    json!({
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "usage": {
            "input_tokens": 38,
            "cache_creation_input_tokens": 210,
            "cache_read_input_tokens": 1562,
            "output_tokens": 41,
            "service_tier": "standard"
        }
    })
    .to_string()
}

fn config(url: &str) -> HttpLlmConfig {
    HttpLlmConfig {
        base_url: Some(url.to_string()),
        model: "claude-sonnet-4-5".into(),
        max_tokens: Some(1024),
        temperature: Some(0.2),
        max_retries: Some(2),
        backoff_ms: Some(10),
        ..Default::default()
    }
}

/// System card (breakpoint), a frozen summary (breakpoint), then four
/// appended turns each ending in a breakpoint: six breakpoints in all.
fn cached_prompt() -> Prompt {
    let mut messages = vec![
        PromptMessage::with_blocks(Role::System, vec![Block::breakpoint("You write PTC-Lisp.")]),
        PromptMessage::with_blocks(
            Role::User,
            vec![Block::new("Mission: count.\n"), Block::breakpoint("Turns 1-3: defined xs.\n")],
        ),
    ];
    for n in 4..=7 {
        messages.push(PromptMessage::with_blocks(
            Role::Assistant,
            vec![Block::new(format!("```clojure\n(turn {n})\n```"))],
        ));
        messages.push(PromptMessage::with_blocks(Role::User, vec![Block::breakpoint(format!("Turn {n}: ok\n"))]));
    }
    Prompt { messages }
}

#[test]
fn the_request_has_the_messages_api_shape() {
    let server = Server::start(vec![Reply::Json(200, recorded("```clojure\n(count xs)\n```", "end_turn", None))]);
    let reply = Anthropic::new(&config(&server.url), Some(KEY.into())).chat(&cached_prompt()).unwrap();
    assert_eq!(reply.content, "```clojure\n(count xs)\n```");
    assert_eq!(reply.finish_reason, FinishReason::Stop);
    let usage = Usage {
        prompt_tokens: 1810,
        completion_tokens: 41,
        cache_read_tokens: Some(1562),
        cache_write_tokens: Some(210),
    };
    assert_eq!(reply.usage, Some(usage));

    let req = &server.received()[0];
    assert_eq!(req.request_line, "POST /v1/messages HTTP/1.1");
    assert_eq!(req.header("x-api-key"), Some(KEY));
    assert_eq!(req.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert!(req.header("authorization").is_none());
    let body = req.json();
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert_eq!((body["max_tokens"].clone(), body["temperature"].clone()), (json!(1024), json!(0.2)));
    assert_eq!(body["stop_sequences"], json!(["\n```\n\n"]));
    assert!(body.get("seed").is_none() && body.get("stop").is_none());
    assert_eq!(
        body["system"],
        json!([{"type": "text", "text": "You write PTC-Lisp.", "cache_control": {"type": "ephemeral"}}])
    );
    let messages = body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant", "user"]);
    assert_eq!(
        messages[0]["content"],
        json!([{"type": "text", "text": "Mission: count.\n"}, {"type": "text", "text": "Turns 1-3: defined xs.\n"}])
    );
    // Six breakpoints, four allowed: the first (system) and the last three.
    let marked: Vec<&str> = messages
        .iter()
        .flat_map(|m| m["content"].as_array().unwrap())
        .filter(|b| b["cache_control"] == json!({"type": "ephemeral"}))
        .map(|b| b["text"].as_str().unwrap())
        .collect();
    assert_eq!(marked, ["Turn 5: ok\n", "Turn 6: ok\n", "Turn 7: ok\n"]);
}

#[test]
fn stop_reasons_map_and_the_fence_comes_back() {
    let server = Server::start(vec![
        Reply::Json(200, recorded("```clojure\n(def xs (range", "max_tokens", None)),
        Reply::Json(200, recorded("Counting.\n```clojure\n(count xs)", "stop_sequence", Some("\n```\n\n"))),
    ]);
    let mut model = Anthropic::new(&config(&server.url), Some(KEY.into()));
    let cut = model.chat(&cached_prompt()).unwrap();
    assert_eq!((cut.finish_reason, cut.content.as_str()), (FinishReason::Length, "```clojure\n(def xs (range"));
    let stopped = model.chat(&cached_prompt()).unwrap();
    assert_eq!(
        (stopped.finish_reason, stopped.content.as_str()),
        (FinishReason::Stop, "Counting.\n```clojure\n(count xs)\n```")
    );
}

#[test]
fn streamed_events_are_assembled_with_usage() {
    let event = |name: &str, data: serde_json::Value| format!("event: {name}\ndata: {data}\n\n");
    let events = vec![
        event(
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": 12, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 1800, "output_tokens": 1}}}),
        ),
        event(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        event("ping", json!({"type": "ping"})),
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "```clojure\n(return"}}),
        ),
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": " 6)\n```"}}),
        ),
        event("content_block_stop", json!({"type": "content_block_stop", "index": 0})),
        event(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 14}}),
        ),
        event("message_stop", json!({"type": "message_stop"})),
    ];
    let server = Server::start(vec![Reply::Stream(events, Duration::from_millis(10))]);
    let c = HttpLlmConfig { stream: Some(true), ..config(&server.url) };
    let reply = Anthropic::new(&c, Some(KEY.into())).chat(&cached_prompt()).unwrap();
    assert_eq!(reply.content, "```clojure\n(return 6)\n```");
    assert_eq!(reply.finish_reason, FinishReason::Stop);
    let usage = Usage {
        prompt_tokens: 1812,
        completion_tokens: 14,
        cache_read_tokens: Some(1800),
        cache_write_tokens: Some(0),
    };
    assert_eq!(reply.usage, Some(usage));
    assert!(reply.timing.first_byte.is_some());
    assert_eq!(server.received()[0].json()["stream"], true);
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn overload_and_rate_limits_are_retried_and_the_key_never_shows() {
    let overloaded = r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#;
    let server = Server::start(vec![
        Reply::Json(529, overloaded.into()),
        Reply::WithHeaders(
            429,
            vec![("retry-after", "0".into())],
            r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}"#.into(),
        ),
        Reply::Json(200, recorded("(return 1)", "end_turn", None)),
        Reply::Json(
            401,
            format!(
                r#"{{"type": "error", "error": {{"type": "authentication_error", "message": "invalid x-api-key {KEY}"}}}}"#
            ),
        ),
    ]);
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let (ok, err) = tracing::subscriber::with_default(subscriber, || {
        let mut model = Anthropic::new(&config(&server.url), Some(KEY.into()));
        (model.chat(&cached_prompt()), model.chat(&cached_prompt()))
    });
    let ok = ok.unwrap();
    assert_eq!((ok.content.as_str(), ok.timing.attempts), ("(return 1)", 3));
    let err = err.unwrap_err().to_string();
    assert!(
        err.contains("/v1/messages: HTTP 401: invalid x-api-key [api key] (the server refused the API key"),
        "{err}"
    );
    assert_eq!(server.count(), 4);
    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(logs.contains("retrying") && logs.contains("HTTP 529: Overloaded"), "{logs}");
    assert!(!logs.contains(KEY) && !err.contains(KEY), "the key leaked: {logs}");
}

#[test]
fn an_agent_runs_on_the_anthropic_backend() {
    let server = Server::start(vec![
        Reply::Json(200, recorded("```clojure\n(def n (count data/xs))\n```", "end_turn", None)),
        Reply::Json(200, recorded("```clojure\n(return (* n 2))\n```", "end_turn", None)),
    ]);
    let dir = ptc_integration_tests::scratch_dir("anthropic");
    std::fs::write(dir.join("xs.json"), "[1, 2, 3]").unwrap();
    std::env::set_var("PTC_TEST_ANTHROPIC_KEY", KEY);
    let text = format!(
        "[agent.h]\nmission = \"Double the count\"\ndata = {{ xs = \"xs.json\" }}\n\n[agent.h.llm]\nbackend = \"anthropic\"\n\
         base_url = \"{}\"\nmodel = \"claude-sonnet-4-5\"\napi_key_env = \"PTC_TEST_ANTHROPIC_KEY\"\nmax_tokens = 512\n",
        server.url
    );
    std::fs::write(dir.join("ptc.toml"), text).unwrap();
    let out = dir.join("s.json");
    // As `ptc run h` runs it, closing lines included.
    let ran = ptc_host::cmd::run::run_agent(&ptc_host::cmd::run::RunArgs {
        config: &dir.join("ptc.toml"),
        agent: Some("h"),
        session: Some(&out),
        resume: None,
        args: &[],
        format: ptc_host::cmd::eval::ResultFormat::Edn,
        strategy: None,
    })
    .unwrap();
    assert_eq!(ran.stdout, "6\n");
    // The server reported its cache figures, so the run's cost is its, and
    // the share against the full history compares ptc's estimates.
    let cost = ran.warnings.iter().find(|w| w.starts_with("prompts of 2 turns: 3124 of 3620 billed tokens")).unwrap();
    assert!(
        cost.contains("under `anthropic` prices")
            && cost.contains("% of the full history's cost by ptc's estimate of both, "),
        "{cost}"
    );
    let session = ptc_session::Session::read(&out).unwrap();
    assert!(session.turns.iter().all(|t| t.cost.as_ref().unwrap().source == ptc_session::CostSource::Reported));
    assert_eq!(session.result.as_deref(), Some("6"));
    let u = &session.usage;
    assert_eq!((u.prompt_tokens, u.cache_read_tokens, u.cache_write_tokens), (Some(3620), Some(3124), Some(420)));
    assert_eq!(session.turns[0].usage.as_ref().unwrap().llm.as_ref().unwrap()["anthropic_version"], "2023-06-01");
    let first = server.received()[0].json();
    assert_eq!(first["system"][0]["type"], "text");
    assert_eq!(first["messages"][0]["role"], "user");
    assert!(!std::fs::read_to_string(&out).unwrap().contains(KEY));
}
