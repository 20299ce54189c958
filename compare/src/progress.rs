//! A progress bar on stderr while `ptc compare` measures, shown only when
//! stderr is a terminal (never in pipes, files or tests), and erased when
//! done so the report starts on a clean line.

use std::io::{IsTerminal, Write};

/// Width of the bar, in characters.
const BAR: usize = 30;

/// Steps done out of a known total.
pub struct Progress {
    total: usize,
    done: usize,
    shown: bool,
}

impl Progress {
    /// A bar over `total` steps, drawn when stderr is a terminal.
    pub fn new(total: usize) -> Progress {
        Progress { total, done: 0, shown: std::io::stderr().is_terminal() }
    }

    /// One more step done; `what` names the next.
    pub fn step(&mut self, what: &str) {
        self.done = (self.done + 1).min(self.total);
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[2K{}", line(self.done, self.total, what));
        }
    }

    /// Erases the bar.
    pub fn finish(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `[#####.....] 12/40 what`, `what` cut to keep the line short.
fn line(done: usize, total: usize, what: &str) -> String {
    let filled = (done * BAR).checked_div(total).unwrap_or(BAR);
    let what: String = what.chars().take(60).collect();
    format!("[{}{}] {done}/{total} {what}", "#".repeat(filled), ".".repeat(BAR - filled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_steps() {
        assert_eq!(line(0, 4, "a"), format!("[{}] 0/4 a", ".".repeat(BAR)));
        assert_eq!(line(2, 4, "b"), format!("[{}{}] 2/4 b", "#".repeat(15), ".".repeat(15)));
        assert_eq!(line(0, 0, ""), format!("[{}] 0/0 ", "#".repeat(BAR)));
    }
}
