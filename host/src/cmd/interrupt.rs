//! Ctrl-C during a long command (`ptc run`, `ptc bench`): one line on
//! stderr saying where the finished work is and how to go on from it, then
//! exit status 130 (128 + SIGINT), as a shell expects of an interrupted
//! program. Nothing needs saving at that moment: a run's journal and the
//! bench's result file are written and synced as each turn or run ends, so
//! the line only points at them. Without a note the process ends as it
//! would without the handler, with no word.

use std::io::{IsTerminal, Write};
use std::sync::{Mutex, Once};

/// What the line says, asked at the moment of the interrupt.
type Note = Box<dyn Fn() -> String + Send>;

static NOTE: Mutex<Option<Note>> = Mutex::new(None);
static INSTALL: Once = Once::new();

/// Exit status of a program stopped by Ctrl-C.
pub const INTERRUPTED: i32 = 130;

/// From now on, Ctrl-C prints `ptc: NOTE` and exits with [`INTERRUPTED`].
/// `note` is asked when it happens (a file may not exist yet).
pub fn on_interrupt(note: impl Fn() -> String + Send + 'static) {
    *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(note));
    INSTALL.call_once(|| {
        // Setting fails only when a handler is set already (by a
        // library): Ctrl-C then keeps that one's behaviour.
        let _ = ctrlc::set_handler(|| {
            let line = NOTE.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(|note| note());
            if let Some(line) = line {
                let mut err = std::io::stderr().lock();
                // A live status line is drawn in place: start a clean row.
                let clear = if err.is_terminal() { "\r\x1b[2K" } else { "" };
                let _ = writeln!(err, "{clear}ptc: {line}");
            }
            std::process::exit(INTERRUPTED);
        });
    });
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
