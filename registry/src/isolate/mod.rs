//! Process isolation: a plugin strategy that renders in a child process,
//! so a plugin that aborts, leaks, recurses or loops costs a render error
//! instead of the program that uses it.
//!
//! [`Isolated`] is ptc's side: it starts the child at the first render,
//! with the memory cap set before the child runs ([`Caps::apply_renewable`]),
//! sends each request as one line ([`wire`]; after the first, only the turns
//! the child does not hold yet), waits at most [`Limits::render_timeout`]
//! for the answer, and names the cap a dead child breached. [`serve`] is
//! the child's side: it loads the plugin, builds the strategy, renews its
//! CPU cap and renders on a thread with the capped stack, one request at a
//! time. `ptc` is its own child program (a hidden subcommand), so nothing
//! else has to be installed.
//!
//! ```no_run
//! use ptc_registry::isolate::{ChildCommand, Isolated, Limits};
//! use std::path::Path;
//!
//! let command = ChildCommand::new("/usr/local/bin/ptc", ["render-child"]);
//! let file = Path::new("plugins/libptc_strategy_vendor.so");
//! let isolated = Isolated::new("vendor", file, "{}", command, Limits::default());
//! let request = ptc_plugin_api::RenderRequest::new("mission", "system", 5);
//! match isolated.render(&request) {
//!     Ok(prompt) => println!("{} messages", prompt.messages().len()),
//!     Err(e) => println!("{e}"), // e.g. "isolated plugin `vendor` exceeded the 1 GiB memory limit rendering turn 1"
//! }
//! ```
//!
//! [`Caps::apply_renewable`]: crate::caps::Caps::apply_renewable

mod child;
mod client;
pub mod wire;

pub use child::serve;
pub use client::{Isolated, MAX_FAILURES};

use crate::caps::Caps;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Default time one render may take in the child: 10 s.
pub const DEFAULT_RENDER_TIMEOUT: Duration = Duration::from_secs(10);

/// The limits of an isolated strategy, each a named setting with a default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Memory (default 1 GiB), CPU time per render (default 20 s) and the
    /// render thread's stack (default 8 MiB) of the child.
    pub caps: Caps,
    /// Wall time of one render, from sending the request to the answer
    /// (default [`DEFAULT_RENDER_TIMEOUT`]); also bounds the child's start.
    pub render_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { caps: Caps::default(), render_timeout: DEFAULT_RENDER_TIMEOUT }
    }
}

/// The program an isolated strategy's child runs, and the arguments before
/// the protocol's own (`PLUGIN --params JSON --limits JSON`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildCommand {
    /// The executable.
    pub program: PathBuf,
    /// Arguments before the protocol's (`["render-child"]` for `ptc`).
    pub leading_args: Vec<OsString>,
}

impl ChildCommand {
    /// `program` with `leading_args`.
    pub fn new(program: impl Into<PathBuf>, leading_args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        ChildCommand { program: program.into(), leading_args: leading_args.into_iter().map(Into::into).collect() }
    }
}
