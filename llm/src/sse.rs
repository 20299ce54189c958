//! Server-sent events, as both providers stream answers: `event:` and
//! `data:` lines, an empty line ending each event.

use super::http::{answer_too_long, ReadError, MAX_ANSWER_BYTES};
use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

/// What the event handler wants next.
pub(crate) enum Flow {
    /// Read on.
    More,
    /// The answer is complete.
    Done,
}

/// Reads events from `body` and hands each (`event` name, `data`) to `on`
/// until it says [`Flow::Done`]; returns the time from `sent` to the first
/// line. A stream that ends before that is a broken connection; one that
/// passes [`MAX_ANSWER_BYTES`] is malformed.
pub(crate) fn read_events(
    body: ureq::Body,
    sent: Instant,
    mut on: impl FnMut(&str, &str) -> Result<Flow, ReadError>,
) -> Result<Duration, ReadError> {
    let mut reader = std::io::BufReader::new(body.into_reader().take(MAX_ANSWER_BYTES + 1));
    let mut first_byte = None;
    let (mut event, mut data) = (String::new(), String::new());
    let mut line = String::new();
    let mut read = 0u64;
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        read += n as u64;
        if read > MAX_ANSWER_BYTES {
            return Err(answer_too_long());
        }
        let first = *first_byte.get_or_insert_with(|| sent.elapsed());
        if n == 0 {
            // A last event without its empty line still counts.
            if !data.is_empty() {
                if let Flow::Done = on(&event, &data)? {
                    return Ok(first);
                }
            }
            return Err(ReadError::Retryable("the stream ended before the answer was complete".into()));
        }
        let text = line.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !data.is_empty() {
                if let Flow::Done = on(&event, &data)? {
                    return Ok(first);
                }
            }
            event.clear();
            data.clear();
        } else if let Some(v) = text.strip_prefix("event:") {
            event = v.trim().to_string();
        } else if let Some(v) = text.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
        // Comments (`: ping`), `id:` and `retry:` lines carry nothing ptc needs.
    }
}

/// Parses one event's JSON data.
pub(crate) fn json(data: &str) -> Result<serde_json::Value, ReadError> {
    serde_json::from_str(data).map_err(|e| ReadError::Malformed(format!("a streamed event is not JSON ({e}): {data}")))
}
