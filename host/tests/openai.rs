//! The OpenAI-compatible backend against a real HTTP server on 127.0.0.1:
//! what it sends (messages, generation settings, key), base URLs with or
//! without `/v1`, a 404 naming the URL, cut-off and streamed answers, and
//! whole agent runs over HTTP (usage, timing and settings in the session,
//! `no_code` and `cut_off` turns, the dropped-prompt warning).

mod llm_server;

use llm_server::{openai_answer, openai_body, Reply, Server};
use ptc_host::config::Config;
use ptc_host::config::ConfigFile;
use ptc_host::llm::{plain_prompt, FinishReason, HttpLlmConfig, Llm, OpenAi, Prompt, Usage};
use ptc_host::run::{run, RunOptions};
use ptc_plugin_api::Message;
use serde_json::json;
use std::time::Duration;

fn client(base_url: &str) -> OpenAi {
    let config = HttpLlmConfig {
        base_url: Some(base_url.to_string()),
        model: "test-model".into(),
        temperature: Some(0.0),
        seed: Some(42),
        max_retries: Some(0),
        ..Default::default()
    };
    OpenAi::new(&config, Some("sk-secret-123".into()))
}

fn hello() -> Prompt {
    plain_prompt(&[Message::system("sys"), Message::user("hi")])
}

#[test]
fn sends_messages_settings_and_key() {
    let server = Server::start(vec![Reply::Json(200, openai_body("(+ 1 2)"))]);
    let reply = client(&server.url).chat(&hello()).unwrap();
    assert_eq!(reply.content, "(+ 1 2)");
    assert_eq!(reply.finish_reason, FinishReason::Stop);
    let usage = Usage { prompt_tokens: 11, completion_tokens: 7, cache_read_tokens: None, cache_write_tokens: None };
    assert_eq!(reply.usage, Some(usage));
    assert_eq!((reply.timing.attempts, reply.timing.first_byte), (1, None));
    let req = &server.received()[0];
    assert_eq!(req.request_line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(req.header("authorization"), Some("Bearer sk-secret-123"));
    assert_eq!(
        req.json(),
        json!({"model": "test-model", "max_tokens": 2048, "temperature": 0.0, "seed": 42, "stop": ["\n```\n\n"],
               "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}]})
    );
}

#[test]
fn base_url_with_or_without_v1_reaches_the_endpoint() {
    for suffix in ["", "/", "/v1", "/v1/"] {
        let server = Server::start(vec![Reply::Json(200, openai_body("ok"))]);
        client(&format!("{}{suffix}", server.url)).chat(&hello()).unwrap();
        assert_eq!(
            server.received()[0].request_line,
            "POST /v1/chat/completions HTTP/1.1",
            "base_url suffix {suffix:?}"
        );
    }
}

#[test]
fn a_404_names_the_url_tried() {
    let server = Server::start(vec![Reply::Json(404, r#"{"detail": "Not Found"}"#.into())]);
    let err = client(&format!("{}/v2", server.url)).chat(&hello()).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}/v2/chat/completions: HTTP 404", server.url)), "{err}");
    assert!(err.contains("check base_url"), "{err}");
    assert_eq!(server.count(), 1);
}

#[test]
fn a_cut_off_answer_says_so() {
    let server = Server::start(vec![Reply::Json(200, openai_answer("```clojure\n(def x (map", "length"))]);
    let reply = client(&server.url).chat(&hello()).unwrap();
    assert_eq!(reply.finish_reason, FinishReason::Length);
    assert_eq!(reply.content, "```clojure\n(def x (map", "a cut-off answer gets no closing fence");
}

#[test]
fn the_stop_sequence_s_fence_is_put_back() {
    // The server stopped at "\n```\n\n" and left it out of the answer.
    let server = Server::start(vec![Reply::Json(200, openai_body("Counting.\n```clojure\n(count data/xs)"))]);
    let reply = client(&server.url).chat(&hello()).unwrap();
    assert_eq!(reply.content, "Counting.\n```clojure\n(count data/xs)\n```");
}

#[test]
fn streamed_answers_carry_usage_cache_figures_and_first_byte() {
    let chunk = |delta: serde_json::Value, finish: serde_json::Value| {
        format!(
            "data: {}\n\n",
            json!({"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let events = vec![
        chunk(json!({"role": "assistant", "content": ""}), json!(null)),
        chunk(json!({"content": "```clojure\n(+ 1"}), json!(null)),
        chunk(json!({"content": " 2)"}), json!(null)),
        chunk(json!({}), json!("stop")),
        format!(
            "data: {}\n\n",
            json!({"id": "c1", "object": "chat.completion.chunk", "choices": [],
                   "usage": {"prompt_tokens": 1200, "completion_tokens": 9, "prompt_tokens_details": {"cached_tokens": 1024}}})
        ),
        "data: [DONE]\n\n".into(),
    ];
    let server = Server::start(vec![Reply::Stream(events, Duration::from_millis(20))]);
    let config = HttpLlmConfig {
        base_url: Some(server.url.clone()),
        model: "m".into(),
        stream: Some(true),
        ..Default::default()
    };
    let reply = OpenAi::new(&config, None).chat(&hello()).unwrap();
    assert_eq!(reply.content, "```clojure\n(+ 1 2)\n```");
    assert_eq!(reply.finish_reason, FinishReason::Stop);
    let usage =
        Usage { prompt_tokens: 1200, completion_tokens: 9, cache_read_tokens: Some(1024), cache_write_tokens: None };
    assert_eq!(reply.usage, Some(usage));
    let first = reply.timing.first_byte.expect("streamed");
    assert!(first <= reply.timing.wall, "{:?}", reply.timing);
    let body = server.received()[0].json();
    assert_eq!((body["stream"].clone(), body["stream_options"].clone()), (json!(true), json!({"include_usage": true})));
    assert!(server.received()[0].header("authorization").is_none());
}

#[test]
fn malformed_answers_name_what_is_missing() {
    let server = Server::start(vec![Reply::Json(200, r#"{"choices": [{"message": {}}]}"#.into())]);
    let err = client(&server.url).chat(&hello()).unwrap_err().to_string();
    assert!(
        err.contains("/v1/chat/completions: malformed response: missing string `choices[0].message.content` (is base_url the model API, not a page or a proxy? `ptc doctor` checks"),
        "{err}"
    );
    let server = Server::start(vec![Reply::Json(200, "not json".into())]);
    let err = client(&server.url).chat(&hello()).unwrap_err().to_string();
    assert!(err.contains("malformed response: invalid JSON"), "{err}");
}

/// Runs agent `h` of a config whose model is the server at `url`; returns
/// the session and the progress lines.
fn run_agent(name: &str, url: &str, llm_extra: &str) -> (ptc_session::Session, Vec<String>, String) {
    let dir = ptc_integration_tests::scratch_dir(name);
    std::fs::write(dir.join("xs.json"), "[1, 2, 3]").unwrap();
    std::env::set_var("PTC_TEST_OPENAI_KEY", "sk-from-env");
    let text = format!(
        "[agent.h]\nmission = \"Double the count\"\nmax_turns = 4\ndata = {{ xs = \"xs.json\" }}\n\
         llm = {{ backend = \"openai\", base_url = \"{url}/v1\", model = \"m\", api_key_env = \"PTC_TEST_OPENAI_KEY\", max_retries = 0{llm_extra} }}\n"
    );
    std::fs::write(dir.join("ptc.toml"), text).unwrap();
    let config = Config::load(&dir.join("ptc.toml")).unwrap().resolve();
    let out = dir.join("s.json");
    let mut lines = Vec::new();
    let done = run(
        &config,
        "h",
        RunOptions { session_out: Some(&out), resume: None, ..Default::default() },
        &mut |l: &str| lines.push(l.to_string()),
    )
    .unwrap();
    (done.session, lines, std::fs::read_to_string(&out).unwrap())
}

#[test]
fn an_agent_runs_over_http() {
    let server = Server::start(vec![
        Reply::Json(200, openai_body("```clojure\n(def n (count data/xs))\n```")),
        Reply::Json(200, openai_body("```clojure\n(return (* n 2))\n```")),
    ]);
    let (session, lines, written) = run_agent("openai", &server.url, ", max_tokens = 300, extra = { top_k = 40 }");
    assert_eq!(session.result.as_deref(), Some("6"));
    assert_eq!((session.usage.prompt_tokens, session.usage.completion_tokens), (Some(22), Some(14)));
    let turn = session.turns[0].usage.as_ref().unwrap();
    assert_eq!((turn.prompt_tokens, turn.finish_reason.as_deref(), turn.attempts), (Some(11), Some("stop"), Some(1)));
    assert!(turn.wall_ms.unwrap() < 10_000, "{turn:?}");
    let settings = turn.llm.as_ref().unwrap();
    assert_eq!((settings["max_tokens"].clone(), settings["extra"].clone()), (json!(300), json!({"top_k": 40})));
    assert_eq!(settings["api_key_env"], "PTC_TEST_OPENAI_KEY");
    assert_eq!(server.received()[1].header("authorization"), Some("Bearer sk-from-env"));
    assert_eq!(server.received()[1].json()["top_k"], 40);
    assert!(!written.contains("sk-from-env"), "the API key must never be written");
    assert!(session.turns[1].usage.as_ref().unwrap().llm.is_none(), "settings are recorded once");
    let line = lines.iter().find(|l| l.starts_with("turn 1/4  ")).expect("a progress line");
    assert!(line.contains("  model=") && line.ends_with("s  ok #'n"), "{lines:?}");
}

#[test]
fn code_less_and_cut_off_answers_are_named_and_shown_back() {
    let server = Server::start(vec![
        Reply::Json(200, openai_body("I would count the items and double them.")),
        Reply::Json(200, openai_answer("```clojure\n(return (tool/nonexistent", "length")),
        Reply::Json(200, openai_body("```clojure\n(return (* 2 (count data/xs)))\n```")),
    ]);
    let (session, _, _) = run_agent("openai-feedback", &server.url, "");
    let kinds: Vec<_> = session.turns.iter().map(|t| t.error.as_ref().map(|e| e.kind.as_str())).collect();
    assert_eq!(kinds, [Some("no_code"), Some("cut_off"), None]);
    let no_code = &session.turns[0].error.as_ref().unwrap().message;
    assert!(no_code.contains("It began: \"I would count the items and double them.\""), "{no_code}");
    let cut = &session.turns[1];
    assert!(cut.error.as_ref().unwrap().message.contains("cut off at the token limit (2048 tokens)"), "{cut:?}");
    assert!(cut.program.is_none() && cut.tool_calls.is_empty(), "a cut-off program must not run");
    // What the model was shown next: its own words, never a made-up program.
    let second_prompt = server.received()[1].body.clone();
    assert!(second_prompt.contains("I would count the items"), "{second_prompt}");
    assert_eq!(session.result.as_deref(), Some("6"));
}

#[test]
fn a_server_that_reads_far_fewer_prompt_tokens_is_flagged() {
    // openai_body reports 11 prompt tokens; ptc sends the whole language card (hundreds).
    let server = Server::start(vec![Reply::Json(200, openai_body("```clojure\n(return 1)\n```"))]);
    let (_, lines, _) = run_agent("openai-dropped", &server.url, "");
    let warning =
        lines.iter().find(|l| l.starts_with("turn 1: warning: the server counted 11 prompt tokens where ptc sent "));
    assert!(warning.is_some_and(|w| w.contains("chat template may have dropped the system prompt")), "{lines:?}");
}

/// The server's cache figures reach the session file and `ptc trace --usage`.
#[test]
fn reported_cache_figures_are_recorded_and_traced() {
    let body = |content: &str, prompt: u64, cached: u64| {
        json!({
            "choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": 12, "prompt_tokens_details": {"cached_tokens": cached}}
        })
        .to_string()
    };
    let server = Server::start(vec![
        Reply::Json(200, body("```clojure\n(def n (count data/xs))\n```", 1310, 0)),
        Reply::Json(200, body("```clojure\n(return (* n 2))\n```", 1380, 1280)),
    ]);
    let (session, _, written) = run_agent("openai-cached", &server.url, "");
    assert_eq!(session.result.as_deref(), Some("6"));
    let cost = session.turns[1].cost.as_ref().expect("every turn records its cost");
    assert_eq!(
        (cost.model.as_str(), cost.source.as_str(), cost.prompt_tokens, cost.cache_read_tokens, cost.uncached_tokens),
        ("openai", "reported", 1380, 1280, 100)
    );
    // The openai price model: reads at 0.1 of an input token.
    assert!((cost.input_cost - (100.0 + 1280.0 * 0.1)).abs() < 1e-9, "{cost:?}");
    assert_eq!(session.turns[0].cost.as_ref().unwrap().cache_read_tokens, 0);

    let file = ptc_integration_tests::scratch_dir("openai-cached-trace").join("s.jsonl");
    std::fs::write(&file, written).unwrap();
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_ptc")).arg("trace").arg(&file).arg("--usage").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("usage per turn (cost: prompt under the `openai` price model):"), "{text}");
    let turn2 = text.lines().find(|l| l.trim_start().starts_with("2 ")).unwrap_or_else(|| panic!("{text}"));
    let cells: Vec<&str> = turn2.split_whitespace().collect();
    // turn strategy prompt reported completion read written uncached cost src
    assert_eq!(&cells[3..10], ["1380", "12", "1280", "0", "100", "228.0", "rep"], "{turn2}");
}
