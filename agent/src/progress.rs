//! What `ptc run` reports while it works.
//!
//! The loop reports two things: a *line* per finished turn (kept) and a
//! *status* while a turn is under way (what it is waiting for, tokens so
//! far). On a terminal the status is one line redrawn in place below the
//! kept lines, and erased at the end; anywhere else (a pipe, a file, CI)
//! only the kept lines are written, one plain line each.

use std::io::Write;

/// Receives the loop's reports. Any `FnMut(&str)` is a `Progress` that keeps
/// the lines and ignores the status.
pub trait Progress {
    /// A finished step, kept in the output.
    fn line(&mut self, line: &str);
    /// What is happening now; replaced by the next status or line.
    fn status(&mut self, _status: &str) {}
}

impl<F: FnMut(&str)> Progress for F {
    fn line(&mut self, line: &str) {
        self(line)
    }
}

/// Longest status drawn, so that it stays on one row of a narrow terminal.
const STATUS_WIDTH: usize = 100;
/// Carriage return, then erase the whole row.
const CLEAR_ROW: &str = "\r\x1b[2K";

/// Progress written to a stream: lines always; the status too when the
/// stream is a terminal. Call [`Terminal::finish`] at the end to erase the
/// status line.
pub struct Terminal<W: Write> {
    out: W,
    live: bool,
    status_shown: bool,
}

impl<W: Write> Terminal<W> {
    /// Reports to `out`; `live` draws the status line (use it for a terminal).
    pub fn new(out: W, live: bool) -> Terminal<W> {
        Terminal { out, live, status_shown: false }
    }

    /// Erases the status line, if one is drawn.
    pub fn finish(&mut self) {
        if self.status_shown {
            let _ = write!(self.out, "{CLEAR_ROW}");
            let _ = self.out.flush();
            self.status_shown = false;
        }
    }

    /// Erases the status line and gives the stream back.
    pub fn into_inner(mut self) -> W {
        self.finish();
        self.out
    }
}

impl Terminal<std::io::Stderr> {
    /// Progress on stderr, live when stderr is a terminal and no log output
    /// (`RUST_LOG`) would interleave with the status line.
    pub fn stderr(logging: bool) -> Terminal<std::io::Stderr> {
        use std::io::IsTerminal;
        let err = std::io::stderr();
        let live = !logging && err.is_terminal();
        Terminal::new(err, live)
    }
}

impl<W: Write> Progress for Terminal<W> {
    fn line(&mut self, line: &str) {
        let clear = if self.status_shown { CLEAR_ROW } else { "" };
        self.status_shown = false;
        let _ = writeln!(self.out, "{clear}{line}");
        let _ = self.out.flush();
    }

    fn status(&mut self, status: &str) {
        if !self.live {
            return;
        }
        let shown: String = status.chars().take(STATUS_WIDTH).collect();
        let _ = write!(self.out, "{CLEAR_ROW}{shown}");
        let _ = self.out.flush();
        self.status_shown = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(live: bool) -> String {
        let mut t = Terminal::new(Vec::new(), live);
        t.status("turn 1/3 · waiting for the model");
        t.line("turn 1/3  ok");
        t.status("turn 2/3 · waiting for the model");
        t.status("turn 2/3 · running the program");
        t.line("turn 2/3  ok");
        t.status("turn 3/3 · waiting for the model");
        String::from_utf8(t.into_inner()).unwrap()
    }

    #[test]
    fn plain_output_has_only_the_lines() {
        assert_eq!(report(false), "turn 1/3  ok\nturn 2/3  ok\n");
    }

    #[test]
    fn live_output_redraws_one_status_row_and_erases_it_at_the_end() {
        let out = report(true);
        assert_eq!(
            out,
            "\r\x1b[2Kturn 1/3 · waiting for the model\r\x1b[2Kturn 1/3  ok\n\
             \r\x1b[2Kturn 2/3 · waiting for the model\r\x1b[2Kturn 2/3 · running the program\r\x1b[2Kturn 2/3  ok\n\
             \r\x1b[2Kturn 3/3 · waiting for the model\r\x1b[2K"
        );
        // What stays on screen: every kept line, no status.
        let screen: Vec<&str> = out.split('\n').map(|row| row.rsplit(CLEAR_ROW).next().unwrap_or("")).collect();
        assert_eq!(screen, ["turn 1/3  ok", "turn 2/3  ok", ""]);
    }

    #[test]
    fn long_status_is_cut_to_one_row() {
        let mut t = Terminal::new(Vec::new(), true);
        t.status(&"x".repeat(500));
        let out = String::from_utf8(t.into_inner()).unwrap();
        assert_eq!(out.matches('x').count(), STATUS_WIDTH);
    }

    #[test]
    fn closures_keep_lines_and_ignore_status() {
        let mut lines = Vec::new();
        {
            let mut p = |l: &str| lines.push(l.to_string());
            let p: &mut dyn Progress = &mut p;
            p.status("ignored");
            p.line("kept");
        }
        assert_eq!(lines, ["kept"]);
    }
}
