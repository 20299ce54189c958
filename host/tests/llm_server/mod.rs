//! A real HTTP server on 127.0.0.1 for the model backend tests: it serves
//! scripted replies in order (one per request, each on its own connection),
//! records every request it receives and when each connection closed, and
//! can stall, drop the connection, stream events or stall mid-stream.
//!
//! Each server is a detached accept thread; a stalled connection is held at
//! most [`HOLD`], so nothing outlives the test process by much.

#![allow(dead_code)] // each test binary uses its own part

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest a stalled connection is held open.
pub const HOLD: Duration = Duration::from_secs(10);

/// What the server does with one request.
pub enum Reply {
    /// A JSON answer with this status.
    Json(u16, String),
    /// A JSON answer with this status and extra headers.
    WithHeaders(u16, Vec<(&'static str, String)>, String),
    /// Server-sent events, one write each, `pause` apart; then the connection closes.
    Stream(Vec<String>, Duration),
    /// Some events, then silence until the client gives up.
    StreamThenStall(Vec<String>),
    /// Read the request and never answer; hold the connection until the client closes it.
    Stall,
    /// Read the request and close the connection without a word.
    Drop,
}

/// A request as received.
#[derive(Debug, Clone)]
pub struct Received {
    /// `POST /v1/chat/completions HTTP/1.1`.
    pub request_line: String,
    /// Header lines as sent (`name: value`), names lower-cased.
    pub headers: Vec<String>,
    /// The body text.
    pub body: String,
}

impl Received {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find_map(|h| h.strip_prefix(&format!("{name}: ")))
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("request body is JSON")
    }
}

#[derive(Default)]
struct State {
    replies: VecDeque<Reply>,
    received: Vec<Received>,
    /// `request N` and `closed N` in the order they happened.
    events: Vec<String>,
}

/// A running server.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    state: Arc<Mutex<State>>,
}

impl Server {
    /// Starts a server that answers `replies` in order; a request past the
    /// last one gets HTTP 500 ("no reply scripted").
    pub fn start(replies: Vec<Reply>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State { replies: replies.into(), ..State::default() }));
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let state = shared.clone();
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Server { url, state }
    }

    /// Requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.lock().unwrap().received.clone()
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.state.lock().unwrap().received.len()
    }

    /// `request N` / `closed N` events in order.
    pub fn events(&self) -> Vec<String> {
        self.state.lock().unwrap().events.clone()
    }

    /// Waits (bounded) until `event` happened.
    pub fn wait_for(&self, event: &str) -> bool {
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if self.events().iter().any(|e| e == event) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

fn serve(mut stream: TcpStream, state: &Mutex<State>) {
    let Some(received) = read_request(&stream) else { return };
    let (reply, n) = {
        let mut s = state.lock().unwrap();
        s.received.push(received);
        let n = s.received.len();
        s.events.push(format!("request {n}"));
        (s.replies.pop_front(), n)
    };
    let head = |status: u16, kind: &str, length: Option<usize>| {
        let length = length.map(|l| format!("Content-Length: {l}\r\n")).unwrap_or_default();
        format!("HTTP/1.1 {status} Scripted\r\nContent-Type: {kind}\r\n{length}Connection: close\r\n")
    };
    let _ = match reply {
        None => write!(stream, "{}\r\nno reply scripted", head(500, "text/plain", Some(17))),
        Some(Reply::Json(status, body)) => {
            write!(stream, "{}\r\n{body}", head(status, "application/json", Some(body.len())))
        }
        Some(Reply::WithHeaders(status, headers, body)) => {
            let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
            write!(stream, "{}{extra}\r\n{body}", head(status, "application/json", Some(body.len())))
        }
        Some(Reply::Stream(events, pause)) => {
            let _ = write!(stream, "{}\r\n", head(200, "text/event-stream", None));
            for e in events {
                let _ = stream.write_all(e.as_bytes()).and_then(|_| stream.flush());
                std::thread::sleep(pause);
            }
            Ok(())
        }
        Some(Reply::StreamThenStall(events)) => {
            let _ = write!(stream, "{}\r\n", head(200, "text/event-stream", None));
            for e in events {
                let _ = stream.write_all(e.as_bytes()).and_then(|_| stream.flush());
            }
            hold_until_closed(stream, n, state);
            Ok(())
        }
        Some(Reply::Stall) => {
            hold_until_closed(stream, n, state);
            Ok(())
        }
        Some(Reply::Drop) => Ok(()),
    };
}

/// Keeps the connection open, answering nothing, until the client closes it.
fn hold_until_closed(mut stream: TcpStream, n: usize, state: &Mutex<State>) {
    stream.set_read_timeout(Some(HOLD)).unwrap();
    let mut buf = [0u8; 256];
    // Returns 0 at EOF (the client closed), an error after HOLD.
    while let Ok(read) = stream.read(&mut buf) {
        if read == 0 {
            state.lock().unwrap().events.push(format!("closed {n}"));
            return;
        }
    }
}

fn read_request(stream: &TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 || line == "\r\n" {
            break;
        }
        let (name, value) = line.trim_end().split_once(':')?;
        let (name, value) = (name.to_ascii_lowercase(), value.trim().to_string());
        if name == "content-length" {
            length = value.parse().ok()?;
        }
        headers.push(format!("{name}: {value}"));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Received { request_line: request_line.trim_end().to_string(), headers, body: String::from_utf8(body).ok()? })
}

/// An OpenAI chat completions answer with `content` and 11/7 tokens.
pub fn openai_body(content: &str) -> String {
    openai_answer(content, "stop")
}

/// An OpenAI chat completions answer with a finish reason.
pub fn openai_answer(content: &str, finish_reason: &str) -> String {
    serde_json::json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    })
    .to_string()
}
