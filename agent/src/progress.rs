//! What the loop reports while it works.
//!
//! The loop sends typed [`Event`]s to an [`Observer`]: a service counts or
//! forwards them as it likes. Text is one observer among others: every
//! [`Progress`] (any `FnMut(&str)`, or [`Terminal`], `ptc run`'s output) is
//! an observer that shows each event as a *line* (a finished step, kept) or
//! a *status* (what a turn is waiting for, tokens so far). On a terminal the
//! status is one line redrawn in place below the kept lines, and erased at
//! the end; anywhere else (a pipe, a file, CI) only the kept lines are
//! written, one plain line each.

use crate::budget::BudgetUse;
use std::fmt;
use std::io::Write;
use std::time::Duration;

/// Which turn, as progress shows it: `3/5`, or `6/5 (retry 1/2)` for a
/// turn given to fix a return that did not match the signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnLabel {
    /// The turn number (1-based).
    pub number: u32,
    /// The agent's `max_turns`.
    pub max_turns: u32,
    /// The agent's `retry_turns` (0 without a signature).
    pub retry_turns: u32,
}

impl fmt::Display for TurnLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (number, max_turns) = (self.number, self.max_turns);
        match number.checked_sub(max_turns).filter(|&k| k > 0) {
            Some(k) => write!(f, "{number}/{max_turns} (retry {k}/{})", self.retry_turns),
            None => write!(f, "{number}/{max_turns}"),
        }
    }
}

/// What happened in a run, in the order it happens within a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A resumed session had already ended: no turn is run.
    AlreadyFinished {
        /// How it ended.
        status: ptc_session::RunStatus,
    },
    /// The prompt of a turn is being rendered.
    Rendering {
        /// The turn.
        turn: TurnLabel,
        /// Prompt tokens of the run's earlier turns.
        tokens_so_far: u64,
    },
    /// A strategy failed (an isolated one: its process, or its strategy)
    /// and a fallback served the turn instead.
    FellBack {
        /// The turn.
        turn: TurnLabel,
        /// The failed attempt, as `policy::Attempt` shows it.
        failed: String,
        /// The instance that served the turn.
        instance: String,
    },
    /// A strategy's render came with a warning.
    StrategyWarning {
        /// The turn.
        turn: TurnLabel,
        /// The instance that rendered.
        instance: String,
        /// The warning.
        warning: String,
    },
    /// The prompt is sent; the model is being waited for.
    Asking {
        /// The turn.
        turn: TurnLabel,
        /// The instance that rendered the prompt.
        instance: String,
        /// The prompt's tokens (ptc's count).
        prompt_tokens: u64,
        /// Prompt tokens of the run so far, this one included.
        tokens_so_far: u64,
        /// The run's budget closest to its limit, this prompt charged.
        budget: Option<BudgetUse>,
    },
    /// Something about the model's answer a user should know (a prompt the
    /// server seems to have cut).
    ModelWarning {
        /// The turn.
        turn: TurnLabel,
        /// The warning.
        warning: String,
    },
    /// The turn's program is running.
    Running {
        /// The turn.
        turn: TurnLabel,
    },
    /// A turn is recorded.
    TurnDone {
        /// The turn.
        turn: TurnLabel,
        /// The instance that rendered its prompt.
        instance: String,
        /// Its prompt's tokens.
        prompt_tokens: u64,
        /// Prompt tokens of the run so far, this turn's included.
        tokens_so_far: u64,
        /// The run's budget closest to its limit, this turn's cost settled.
        budget: Option<BudgetUse>,
        /// How long the model call took.
        model_time: Duration,
        /// `ok`, `ok RESULT` or `error KIND: MESSAGE` (first lines).
        outcome: String,
    },
}

impl Event {
    /// The event as a kept line, when it is one.
    pub fn line(&self) -> Option<String> {
        Some(match self {
            Event::AlreadyFinished { status } => {
                format!("session already finished ({status}); nothing was run (a new run needs a new session file)")
            }
            Event::FellBack { turn, failed, instance } => {
                format!("turn {}: strategy {failed}; served by `{instance}`", turn.number)
            }
            Event::StrategyWarning { turn, instance, warning } => {
                format!("turn {}: strategy `{instance}`: {warning}", turn.number)
            }
            Event::ModelWarning { turn, warning } => format!("turn {}: warning: {warning}", turn.number),
            Event::TurnDone { turn, instance, prompt_tokens, tokens_so_far, budget, model_time, outcome } => format!(
                "turn {turn}  strategy={instance}  prompt_tokens={prompt_tokens}  total={tokens_so_far}  {}model={:.1}s  \
                 {outcome}",
                budget.as_ref().map_or(String::new(), |b| format!("{b}  ")),
                model_time.as_secs_f64()
            ),
            Event::Rendering { .. } | Event::Asking { .. } | Event::Running { .. } => return None,
        })
    }

    /// The event as a status (what a turn is doing now), when it is one.
    pub fn status(&self) -> Option<String> {
        Some(match self {
            Event::Rendering { turn, tokens_so_far } => {
                format!("turn {turn} · rendering the prompt · {tokens_so_far} prompt tokens so far")
            }
            Event::Asking { turn, instance, prompt_tokens, tokens_so_far, budget } => format!(
                "turn {turn} · {instance} · {prompt_tokens} prompt tokens ({tokens_so_far} so far{}) · waiting for the model",
                budget.as_ref().map_or(String::new(), |b| format!("; {b}"))
            ),
            Event::Running { turn } => format!("turn {turn} · running the program"),
            _ => return None,
        })
    }
}

/// Receives the loop's [`Event`]s. Every [`Progress`] is one, showing them
/// as text.
pub trait Observer {
    /// One event.
    fn event(&mut self, event: &Event);
}

impl<P: Progress> Observer for P {
    fn event(&mut self, event: &Event) {
        if let Some(line) = event.line() {
            self.line(&line);
        } else if let Some(status) = event.status() {
            self.status(&status);
        }
    }
}

/// Receives the loop's events as text. Any `FnMut(&str)` is a `Progress`
/// that keeps the lines and ignores the status.
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

/// `1 turn`, `3 turns`: a count of turns as every message writes it.
pub fn turns(n: usize) -> String {
    match n {
        1 => "1 turn".to_string(),
        n => format!("{n} turns"),
    }
}
