//! What a child process writes, read with a bound. A child ptc does not
//! trust (an isolated plugin, a conformance case, a command tool) cannot
//! make ptc hold more of its output than a limit the caller names, however
//! much it writes: the rest is read and dropped, so the child never blocks
//! on a full pipe either.
//!
//! ```
//! use ptc_registry::pipe::{Capped, Keep};
//!
//! let mut child = std::process::Command::new("yes").stdout(std::process::Stdio::piped()).spawn().unwrap();
//! let out = Capped::spawn(child.stdout.take().unwrap(), 1 << 20, Keep::Head);
//! while !out.over() {
//!     std::thread::sleep(std::time::Duration::from_millis(5));
//! }
//! child.kill().unwrap();
//! child.wait().unwrap();
//! let (kept, over) = out.join();
//! assert_eq!((kept.len(), over), (1 << 20, true));
//! ```

use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Which part of an output past the limit is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The first `limit` bytes (a result, which is worthless cut).
    Head,
    /// The last `limit` bytes (a log, whose end says how it ended).
    Tail,
}

/// A pipe read to its end on a thread of its own, keeping at most `limit`
/// bytes.
#[derive(Debug)]
pub struct Capped {
    handle: JoinHandle<Vec<u8>>,
    over: Arc<AtomicBool>,
}

impl Capped {
    /// Starts reading `pipe`.
    pub fn spawn(mut pipe: impl Read + Send + 'static, limit: usize, keep: Keep) -> Capped {
        let over = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&over);
        let handle = std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                let n = match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                if kept.len() + n > limit {
                    seen.store(true, Ordering::Relaxed);
                }
                match keep {
                    Keep::Head => {
                        let room = limit.saturating_sub(kept.len());
                        kept.extend_from_slice(&chunk[..n.min(room)]);
                    }
                    Keep::Tail => {
                        kept.extend_from_slice(&chunk[..n]);
                        // Trimmed in batches, so each byte moves at most once more.
                        if kept.len() > limit.saturating_mul(2).max(64 << 10) {
                            kept.drain(..kept.len() - limit);
                        }
                    }
                }
            }
            if keep == Keep::Tail && kept.len() > limit {
                kept.drain(..kept.len() - limit);
            }
            kept
        });
        Capped { handle, over }
    }

    /// Whether more than the limit has arrived so far.
    pub fn over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// What was kept once the pipe closed, and whether more than the
    /// limit came.
    pub fn join(self) -> (Vec<u8>, bool) {
        let kept = self.handle.join().unwrap_or_default();
        (kept, self.over.load(Ordering::Relaxed))
    }
}

/// One line of a child's output, without its newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Its first bytes, at most the `max` asked for.
    pub bytes: Vec<u8>,
    /// Whether it was longer (the rest was read and dropped).
    pub cut: bool,
}

/// Reads the next line of `reader`, at most `max` bytes of it (`None` at
/// the end): a longer line comes in pieces of `max` bytes, each marked
/// `cut` but the last, so a line without end is never held whole and a
/// caller may stop at the first piece.
pub fn read_line(reader: &mut impl BufRead, max: usize) -> std::io::Result<Option<Line>> {
    let max = max.max(1);
    let mut line = Line { bytes: Vec::new(), cut: false };
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok((!line.bytes.is_empty()).then_some(line));
        }
        let end = buf.iter().position(|&b| b == b'\n');
        let part = &buf[..end.unwrap_or(buf.len())];
        let room = max - line.bytes.len();
        if part.len() > room {
            line.bytes.extend_from_slice(&part[..room]);
            reader.consume(room);
            line.cut = true;
            return Ok(Some(line));
        }
        line.bytes.extend_from_slice(part);
        let used = end.map_or(buf.len(), |i| i + 1);
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_limit_comes_in_pieces_and_the_next_one_whole() {
        let text = format!("{}\nshort\n\nlast without newline", "x".repeat(10_050));
        let mut reader = std::io::BufReader::with_capacity(64, text.as_bytes());
        for _ in 0..100 {
            let piece = read_line(&mut reader, 100).unwrap().unwrap();
            assert_eq!((piece.bytes, piece.cut), (vec![b'x'; 100], true));
        }
        assert_eq!(read_line(&mut reader, 100).unwrap(), Some(Line { bytes: vec![b'x'; 50], cut: false }));
        assert_eq!(read_line(&mut reader, 100).unwrap(), Some(Line { bytes: b"short".to_vec(), cut: false }));
        assert_eq!(read_line(&mut reader, 100).unwrap(), Some(Line { bytes: Vec::new(), cut: false }));
        let last = read_line(&mut reader, 100).unwrap().unwrap();
        assert_eq!(last.bytes, b"last without newline");
        assert_eq!(read_line(&mut reader, 100).unwrap(), None);
    }

    #[test]
    fn head_keeps_the_start_and_tail_the_end() {
        let text: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let head = Capped::spawn(std::io::Cursor::new(text.clone()), 1000, Keep::Head);
        let tail = Capped::spawn(std::io::Cursor::new(text.clone()), 1000, Keep::Tail);
        let whole = Capped::spawn(std::io::Cursor::new(text.clone()), text.len(), Keep::Tail);
        assert_eq!(head.join(), (text[..1000].to_vec(), true));
        assert_eq!(tail.join(), (text[text.len() - 1000..].to_vec(), true));
        assert_eq!(whole.join(), (text, false));
    }
}
