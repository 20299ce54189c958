//! The openai backend against a real HTTP server on 127.0.0.1 that answers
//! canned responses: success, 429 then success, 500 every time, malformed
//! JSON, and no answer at all (timeout). Also a whole agent run over HTTP.

use ptc_host::config::Config;
use ptc_host::llm::{Llm, OpenAi, Usage};
use ptc_host::run::{run, RunOptions};
use ptc_plugin_api::Message;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

enum Canned {
    Answer(u16, String),
    /// 429 with `Retry-After: N` (seconds).
    RetryAfter(u64),
    Silent,
}

fn ok_body(content: &str) -> String {
    serde_json::json!({
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7}
    })
    .to_string()
}

/// Serves `canned` in order, one per connection; returns the base URL and
/// the requests received (headers + body, as text).
fn serve(canned: Vec<Canned>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for reply in canned {
            let Ok((mut stream, _)) = listener.accept() else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            log.lock().unwrap().push(format!("{head}\r\n{}", String::from_utf8_lossy(&body)));
            match reply {
                Canned::Answer(status, body) => {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                }
                Canned::RetryAfter(secs) => {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 429 X\r\nRetry-After: {secs}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
                    );
                }
                Canned::Silent => {
                    // Hold the connection open without answering, and serve the next one meanwhile.
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(1500));
                        drop(stream);
                    });
                }
            }
        }
    });
    (url, seen)
}

fn client(url: &str, max_retries: u32, timeout_ms: u64) -> OpenAi {
    OpenAi {
        base_url: url.to_string(),
        model: "test-model".into(),
        api_key: Some("sk-secret-123".into()),
        temperature: Some(0.0),
        timeout: Duration::from_millis(timeout_ms),
        max_retries,
        backoff: Duration::from_millis(10),
    }
}

fn hello() -> Vec<Message> {
    vec![Message::system("sys"), Message::user("hi")]
}

#[test]
fn success_sends_model_messages_and_key() {
    let (url, seen) = serve(vec![Canned::Answer(200, ok_body("(+ 1 2)"))]);
    let reply = client(&url, 0, 2000).chat(&hello()).unwrap();
    assert_eq!(reply.content, "(+ 1 2)");
    assert_eq!(reply.usage, Some(Usage { prompt_tokens: 11, completion_tokens: 7 }));
    let req = &seen.lock().unwrap()[0];
    assert!(req.starts_with("POST /v1/chat/completions HTTP/1.1"), "{req}");
    assert!(req.to_ascii_lowercase().contains("authorization: bearer sk-secret-123"), "{req}");
    let body: serde_json::Value = serde_json::from_str(req.split("\r\n\r\n").last().unwrap()).unwrap();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][1], serde_json::json!({"role": "user", "content": "hi"}));
}

#[test]
fn rate_limit_is_retried() {
    let (url, seen) = serve(vec![Canned::Answer(429, "{}".into()), Canned::Answer(200, ok_body("ok"))]);
    assert_eq!(client(&url, 3, 2000).chat(&hello()).unwrap().content, "ok");
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn retry_after_is_honoured_over_the_backoff() {
    // The client's backoff is 10 ms; the server asks for one second.
    let (url, seen) = serve(vec![Canned::RetryAfter(1), Canned::Answer(200, ok_body("ok"))]);
    let started = std::time::Instant::now();
    assert_eq!(client(&url, 3, 2000).chat(&hello()).unwrap().content, "ok");
    assert!(started.elapsed() >= Duration::from_secs(1), "retried before Retry-After: {:?}", started.elapsed());
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn server_errors_give_up_after_the_retries() {
    let canned = (0..3).map(|_| Canned::Answer(500, "{\"error\": \"boom\"}".into())).collect();
    let (url, seen) = serve(canned);
    let err = client(&url, 2, 2000).chat(&hello()).unwrap_err().to_string();
    assert!(err.contains("giving up after 3 attempts: HTTP 500"), "{err}");
    assert!(!err.contains("sk-secret"), "{err}");
    assert_eq!(seen.lock().unwrap().len(), 3);
}

#[test]
fn malformed_json_names_what_is_missing() {
    let (url, _) = serve(vec![Canned::Answer(200, r#"{"choices": [{"message": {}}]}"#.into())]);
    let err = client(&url, 2, 2000).chat(&hello()).unwrap_err().to_string();
    assert!(err.ends_with("malformed response: missing string `choices[0].message.content`"), "{err}");
    let (url, _) = serve(vec![Canned::Answer(200, "not json".into())]);
    let err = client(&url, 0, 2000).chat(&hello()).unwrap_err().to_string();
    assert!(err.contains("invalid JSON"), "{err}");
    let (url, _) = serve(vec![Canned::Answer(401, r#"{"error": "bad key"}"#.into())]);
    let err = client(&url, 3, 2000).chat(&hello()).unwrap_err().to_string();
    assert!(err.contains("HTTP 401"), "{err}");
}

#[test]
fn timeouts_are_retried_then_reported() {
    let (url, seen) = serve(vec![Canned::Silent, Canned::Answer(200, ok_body("late"))]);
    assert_eq!(client(&url, 1, 300).chat(&hello()).unwrap().content, "late");
    assert_eq!(seen.lock().unwrap().len(), 2);
    let (url, _) = serve(vec![Canned::Silent]);
    let err = client(&url, 0, 300).chat(&hello()).unwrap_err().to_string();
    assert!(err.contains("timed out"), "{err}");
}

#[test]
fn an_agent_runs_over_http() {
    let (url, seen) = serve(vec![
        Canned::Answer(200, ok_body("```clojure\n(def n (count data/xs))\n```")),
        Canned::Answer(200, ok_body("```clojure\n(return (* n 2))\n```")),
    ]);
    let dir = ptc_integration_tests::scratch_dir("openai");
    std::fs::write(dir.join("xs.json"), "[1, 2, 3]").unwrap();
    std::env::set_var("PTC_TEST_OPENAI_KEY", "sk-from-env");
    let text = format!(
        "[agent.h]\nmission = \"Double the count\"\ndata = {{ xs = \"xs.json\" }}\n\
         llm = {{ backend = \"openai\", base_url = \"{url}\", model = \"m\", api_key_env = \"PTC_TEST_OPENAI_KEY\", max_retries = 0 }}\n"
    );
    std::fs::write(dir.join("ptc.toml"), text).unwrap();
    let config = Config::load(&dir.join("ptc.toml")).unwrap().resolve();
    let out = dir.join("s.json");
    let done = run(&config, "h", RunOptions { session_out: Some(&out), resume: None }, &mut |_: &str| {}).unwrap();
    assert_eq!(done.session.result.as_deref(), Some("6"));
    assert_eq!(done.session.usage, serde_json::json!({"prompt_tokens": 22, "completion_tokens": 14}));
    assert_eq!(done.session.turns[0].usage, Some(serde_json::json!({"prompt_tokens": 11, "completion_tokens": 7})));
    assert!(seen.lock().unwrap()[1].contains("sk-from-env"));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(!written.contains("sk-from-env"), "the API key must never be written");
}
