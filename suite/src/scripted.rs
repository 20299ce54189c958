//! A scripted model behind an OpenAI-compatible `/v1/chat/completions`
//! (HTTP/1.1 on a std `TcpListener`, non-streaming and streaming): it
//! finds the task by its mission in the prompt, the step by the latest
//! step marker the prompt shows, and answers the step's program when every
//! fact literal the step needs is visible in the prompt, else the step's
//! plausible wrong program. A strategy that drops a needed fact therefore
//! fails the task, as a real model would.
//!
//! It counts requests and the peak of requests in flight (`GET /stats`),
//! can hold each answer (`delay`) so runs overlap, and can refuse prompts
//! over a length (`max_prompt_chars`) as a model with a small context does.

use crate::task::{Step, Suite};
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The answer to a prompt whose mission no task has.
pub const NO_SCRIPT: &str = "(fail \"the scripted model has no script for this mission\")";

/// The scripts of a suite, by mission.
#[derive(Debug, Clone)]
pub struct ScriptedModel {
    scripts: Vec<(String, Vec<Step>)>,
}

impl ScriptedModel {
    /// The scripts of every task of `suite` that has one.
    pub fn from_suite(suite: &Suite) -> ScriptedModel {
        let mut scripts: Vec<(String, Vec<Step>)> = suite
            .tasks
            .iter()
            .filter(|t| !t.script.is_empty())
            .map(|t| (t.mission().to_string(), t.script.clone()))
            .collect();
        // The longest mission first: one mission may contain another.
        scripts.sort_by_key(|(m, _)| std::cmp::Reverse(m.len()));
        ScriptedModel { scripts }
    }

    /// The program answered to a prompt whose messages' text is `prompt`.
    pub fn program(&self, prompt: &str) -> &str {
        let Some((_, steps)) = self.scripts.iter().find(|(m, _)| prompt.contains(m.as_str())) else { return NO_SCRIPT };
        let reached =
            (0..steps.len()).rev().find(|&i| prompt.contains(&steps[i].done_marker(i + 1))).map_or(0, |i| i + 1);
        let step = &steps[reached.min(steps.len() - 1)];
        if step.needs.iter().all(|fact| prompt.contains(fact.as_str())) {
            &step.program
        } else {
            step.wrong_program()
        }
    }
}

/// How the server behaves.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServerOptions {
    /// Held before each answer.
    pub delay: Duration,
    /// Prompts longer than this many characters are refused (HTTP 400,
    /// `context_length_exceeded`).
    pub max_prompt_chars: Option<usize>,
}

#[derive(Default)]
struct Counters {
    requests: AtomicUsize,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
}

/// A running scripted model server (it serves until the process ends).
pub struct Server {
    addr: SocketAddr,
    counters: Arc<Counters>,
}

impl Server {
    /// Listens on `addr` (`127.0.0.1:0` for any free port) and serves on threads.
    pub fn start(model: ScriptedModel, options: ServerOptions, addr: &str) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let counters = Arc::new(Counters::default());
        let (model, shared) = (Arc::new(model), counters.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (model, counters) = (model.clone(), shared.clone());
                std::thread::spawn(move || serve(stream, &model, options, &counters));
            }
        });
        Ok(Server { addr, counters })
    }

    /// The base URL an `openai` backend takes: `http://ADDR/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Chat requests answered or refused so far.
    pub fn requests(&self) -> usize {
        self.counters.requests.load(Ordering::SeqCst)
    }

    /// The most chat requests that were in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.counters.peak.load(Ordering::SeqCst)
    }
}

/// One connection: requests until the client closes it (keep-alive).
fn serve(stream: TcpStream, model: &ScriptedModel, options: ServerOptions, counters: &Counters) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut writer = stream;
    while let Some((path, body, close)) = read_request(&mut reader) {
        let keep_open = if path.ends_with("/chat/completions") {
            counters.requests.fetch_add(1, Ordering::SeqCst);
            let now = counters.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            counters.peak.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(options.delay);
            let kept = answer(&mut writer, model, options, &body);
            counters.in_flight.fetch_sub(1, Ordering::SeqCst);
            kept
        } else if path.ends_with("/stats") {
            let stats = json!({"requests": counters.requests.load(Ordering::SeqCst), "peak_in_flight": counters.peak.load(Ordering::SeqCst)});
            respond(&mut writer, 200, "application/json", &stats.to_string())
        } else {
            respond(
                &mut writer,
                404,
                "application/json",
                &json!({"error": {"message": format!("no route {path}")}}).to_string(),
            )
        };
        if !keep_open || close {
            return;
        }
    }
}

/// Reads one request: its path, its body and whether the client asked to
/// close the connection after it (`None` at the end of the connection).
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<(String, String, bool)> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let path = line.split_whitespace().nth(1)?.to_string();
    let (mut length, mut close) = (0, false);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            } else if name.eq_ignore_ascii_case("connection") {
                close = value.trim().eq_ignore_ascii_case("close");
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((path, String::from_utf8_lossy(&body).into_owned(), close))
}

/// Answers one chat request; whether the connection stays open.
fn answer(writer: &mut TcpStream, model: &ScriptedModel, options: ServerOptions, body: &str) -> bool {
    let request: Json = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => {
            return respond(
                writer,
                400,
                "application/json",
                &error_body(&format!("invalid JSON: {e}"), "invalid_request"),
            )
        }
    };
    let prompt: String = request["messages"]
        .as_array()
        .map(|ms| ms.iter().filter_map(|m| m["content"].as_str()).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default();
    if let Some(limit) = options.max_prompt_chars.filter(|&l| prompt.chars().count() > l) {
        let message = format!(
            "This model's maximum context length is {limit} characters; the prompt has {}.",
            prompt.chars().count()
        );
        return respond(writer, 400, "application/json", &error_body(&message, "context_length_exceeded"));
    }
    let content = format!("```clojure\n{}\n```", model.program(&prompt));
    let usage = json!({"prompt_tokens": prompt.len() / 4 + 1, "completion_tokens": content.len() / 4 + 1});
    if request["stream"].as_bool() == Some(true) {
        let chunk = json!({"choices": [{"index": 0, "delta": {"content": content}, "finish_reason": null}]});
        let last = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage});
        let events = format!("data: {chunk}\n\ndata: {last}\n\ndata: [DONE]\n\n");
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
        let _ = writer.write_all(head.as_bytes()).and_then(|_| writer.write_all(events.as_bytes()));
        return false;
    }
    let reply = json!({
        "id": "scripted",
        "object": "chat.completion",
        "model": request["model"],
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": usage,
    });
    respond(writer, 200, "application/json", &reply.to_string())
}

fn error_body(message: &str, code: &str) -> String {
    json!({"error": {"message": message, "type": "invalid_request_error", "code": code}}).to_string()
}

/// Writes a whole response; whether the connection is still usable.
fn respond(writer: &mut TcpStream, status: u16, content_type: &str, body: &str) -> bool {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        _ => "Not Found",
    };
    let head =
        format!("HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n", body.len());
    writer.write_all(head.as_bytes()).and_then(|_| writer.write_all(body.as_bytes())).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(needs: &[&str], program: &str, wrong: Option<&str>) -> Step {
        Step {
            needs: needs.iter().map(|s| s.to_string()).collect(),
            program: program.into(),
            wrong: wrong.map(Into::into),
            done: None,
        }
    }

    fn model() -> ScriptedModel {
        let steps = vec![
            step(&[], "(println \"[step 1]\" (tool/code {}))", None),
            step(&[], "(println \"[step 2] padding\")", None),
            step(&["WH-7731"], "(return \"WH-7731\")", Some("(return \"WH-0000\")")),
        ];
        ScriptedModel { scripts: vec![("Find the code.".into(), steps)] }
    }

    #[test]
    fn the_step_follows_the_latest_marker_and_the_answer_what_is_visible() {
        let m = model();
        assert_eq!(m.program("system\nFind the code."), "(println \"[step 1]\" (tool/code {}))");
        assert_eq!(m.program("Find the code. [step 1] WH-7731"), "(println \"[step 2] padding\")");
        assert_eq!(m.program("Find the code. [step 1] WH-7731 [step 2]"), "(return \"WH-7731\")");
        // The fact dropped from the prompt: the plausible wrong answer.
        assert_eq!(m.program("Find the code. [step 2] padding"), "(return \"WH-0000\")");
        assert_eq!(m.program("another mission"), NO_SCRIPT);
    }

    #[test]
    fn the_server_answers_over_http_and_refuses_long_prompts() {
        let server =
            Server::start(model(), ServerOptions { max_prompt_chars: Some(200), ..Default::default() }, "127.0.0.1:0")
                .unwrap();
        let post_body = |body: String| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            write!(s, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()).unwrap();
            let mut text = String::new();
            let mut reader = BufReader::new(s);
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            while reader.read_line(&mut text).unwrap() > 0 && text != "\r\n" {
                text.clear();
            }
            let mut body = String::new();
            reader.read_to_string(&mut body).unwrap();
            (line, body)
        };
        let post = |content: &str| {
            let (line, body) =
                post_body(json!({"model": "m", "messages": [{"role": "user", "content": content}]}).to_string());
            (line, serde_json::from_str::<Json>(&body).unwrap())
        };
        let (status, reply) = post("Find the code.");
        assert!(status.contains("200"), "{status}");
        assert_eq!(reply["choices"][0]["message"]["content"], "```clojure\n(println \"[step 1]\" (tool/code {}))\n```");
        let (status, reply) = post(&"x".repeat(300));
        assert!(status.contains("400"), "{status}");
        assert_eq!(reply["error"]["code"], "context_length_exceeded");
        let streamed =
            json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "Find the code. [step 1]"}]});
        let (status, events) = post_body(streamed.to_string());
        assert!(status.contains("200"), "{status}");
        assert!(
            events.contains(r#""delta":{"content":"```clojure\n(println \"[step 2] padding\")\n```"}"#),
            "{events}"
        );
        assert!(events.ends_with("data: [DONE]\n\n"), "{events}");
        assert_eq!((server.requests(), server.peak_in_flight()), (3, 1));
    }
}
