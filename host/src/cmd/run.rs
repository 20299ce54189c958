//! `ptc run AGENT`: runs an agent, printing progress on stderr as it goes
//! and the result on stdout. Exit code 0 when the agent returned, 1
//! otherwise.

use super::{CmdResult, Output};
use crate::progress::Terminal;
use crate::run::{run, RunOptions};
use std::path::Path;

/// Runs `agent` of `config`, writing the session to `session` (or
/// continuing `resume`).
pub fn run_agent(config: &Path, agent: &str, session: Option<&Path>, resume: Option<&Path>) -> CmdResult {
    let resolved = super::resolve(config)?;
    let mut terminal = Terminal::stderr(tracing::dispatcher::has_been_set());
    let done = run(&resolved, agent, RunOptions { session_out: session, resume }, &mut terminal);
    terminal.finish();
    let done = done?;
    let status = done.session.status.as_deref().unwrap_or("unfinished");
    let stdout = match (&done.session.result, done.session.turns.last()) {
        (Some(r), _) => format!("{r}\n"),
        (None, Some(t)) if status == "failed" => {
            format!("failed: {}\n", t.error.as_ref().map_or("", |e| e.message.as_str()))
        }
        _ => format!("no result ({status})\n"),
    };
    let note = format!("{status} after {} turns; session written to {}", done.session.turns.len(), done.path.display());
    Ok(Output { stdout, warnings: vec![note], code: i32::from(status != "returned") })
}
