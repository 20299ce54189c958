//! Ctrl-C during a long command (`ptc run`, `ptc bench`), or SIGTERM or
//! SIGHUP (a supervisor, `timeout`, a closed terminal): one line on stderr
//! saying where the finished work is and how to go on from it, then exit
//! status 128 + the signal (130 for Ctrl-C), as a shell expects of an
//! interrupted program. Nothing needs saving at that moment: a run's
//! journal and the bench's result file are written and synced as each turn
//! or run ends, so the line only points at them. Command tools still
//! running and stdio MCP servers are killed first, with what they started:
//! they are ptc's children, and a tool's timeout ends with ptc. Without a
//! note the process ends as it would without the handler, with no word.

use std::io::{IsTerminal, Write};
use std::sync::{Mutex, Once};

/// What the line says, asked at the moment of the interrupt.
type Note = Box<dyn Fn() -> String + Send>;

static NOTE: Mutex<Option<Note>> = Mutex::new(None);
static INSTALL: Once = Once::new();

/// Exit status of a program stopped by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// From now on, Ctrl-C, SIGTERM and SIGHUP print `ptc: NOTE` and exit
/// with 128 + the signal ([`INTERRUPTED`] for Ctrl-C). `note` is asked
/// when it happens (a file may not exist yet).
pub fn on_interrupt(note: impl Fn() -> String + Send + 'static) {
    *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(note));
    INSTALL.call_once(install);
}

/// Listens for the signals on a thread of its own; registering fails only
/// when the process may not handle them, and they then keep their default.
#[cfg(unix)]
fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            finish(128 + signal);
        }
    });
}

#[cfg(not(unix))]
fn install() {
    // Setting fails only when a handler is set already (by a library):
    // Ctrl-C then keeps that one's behaviour.
    let _ = ctrlc::set_handler(|| finish(INTERRUPTED));
}

/// Stops the running command tools and MCP servers, prints the note, if
/// any, and exits with `status`.
fn finish(status: i32) -> ! {
    crate::tools::stop_children_for_exit();
    let line = NOTE.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(|note| note());
    if let Some(line) = line {
        let mut err = std::io::stderr().lock();
        // A live status line is drawn in place: start a clean row.
        let clear = if err.is_terminal() { "\r\x1b[2K" } else { "" };
        let _ = writeln!(err, "{clear}ptc: {line}");
    }
    std::process::exit(status);
}

/// The note of an interrupted run writing `session`.
pub fn run_note(session: &std::path::Path) -> String {
    let shown = session.display();
    match session.exists() {
        true => format!("interrupted; the finished turns are in {shown}: `ptc run --resume {shown}` goes on from them"),
        false => format!("interrupted before {shown} was written: there is nothing to resume"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_note_points_at_the_session_when_there_is_one() {
        let dir = std::env::temp_dir().join(format!("ptc-interrupt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let session = dir.join("a.session.jsonl");
        assert!(run_note(&session).ends_with("was written: there is nothing to resume"), "{}", run_note(&session));
        std::fs::write(&session, "{}\n").unwrap();
        let note = run_note(&session);
        assert!(note.ends_with(&format!("`ptc run --resume {}` goes on from them", session.display())), "{note}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
