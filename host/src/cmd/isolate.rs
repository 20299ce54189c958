//! `ptc render-child PLUGIN --params JSON --limits JSON` (hidden): the
//! child process of an isolated strategy instance (`isolation = "process"`),
//! serving renders over stdin and stdout (`ptc_registry::isolate`). `ptc`
//! starts it itself; nobody types it.

use super::{CmdResult, Output};
use std::path::Path;

/// Serves renders until ptc closes stdin; the exit code is the protocol's.
pub fn render_child(plugin: &Path, params: &str, limits: &str) -> CmdResult {
    let code = ptc_registry::isolate::serve(plugin, params, limits);
    Ok(Output { stdout: String::new(), warnings: Vec::new(), code })
}
