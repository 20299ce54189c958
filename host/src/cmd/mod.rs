//! The subcommands of `ptc`, one module each, as functions that return what
//! to print. `main` parses arguments and calls these; every failure is one
//! [`CmdError`] line.

pub mod bench;
pub mod compare;
pub mod conformance;
pub mod docs;
pub mod doctor;
pub mod eval;
pub mod init;
pub mod interrupt;
pub mod isolate;
pub mod render;
pub mod repl;
pub mod run;
pub mod strategies;
pub mod trace;
pub mod validate;

use crate::config::ConfigFile;
use crate::config::{Config, ConfigError};
use crate::resolve::{LookupError, Resolved};
use crate::run::RunError;
use ptc_plugin_api::StrategyError;
use ptc_session::{Session, SessionError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Output format of listing and rendering commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// A command's output and exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// What to print on stdout.
    pub stdout: String,
    /// One-line notes for stderr (load errors that did not stop the command).
    pub warnings: Vec<String>,
    /// Process exit code.
    pub code: i32,
}

impl Output {
    /// `stdout`, no notes, exit code 0.
    pub fn ok(stdout: String) -> Output {
        Output { stdout, warnings: Vec::new(), code: 0 }
    }
}

/// Why a command failed: one line, what and where.
#[derive(Debug)]
pub enum CmdError {
    /// The config file is unreadable or wrong.
    Config(ConfigError),
    /// A session file is unreadable or wrong.
    Session {
        /// The file.
        path: PathBuf,
        /// Where in it and what.
        error: SessionError,
    },
    /// A strategy name gives no strategy.
    Lookup(Box<LookupError>),
    /// A strategy failed to render.
    Render {
        /// The strategy name.
        strategy: String,
        /// Its error.
        error: StrategyError,
    },
    /// `ptc run` could not start or go on.
    Run(Box<RunError>),
    /// A command-line argument is wrong (the message says which and how).
    Usage(String),
    /// A file could not be read or written.
    Io {
        /// The file (`-` for stdin).
        path: PathBuf,
        /// What was being done (`cannot read program`).
        action: &'static str,
        /// The system's error.
        error: std::io::Error,
    },
    /// Anything else a library reported as one line.
    Other(String),
}

impl fmt::Display for CmdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CmdError::Config(e) => e.fmt(f),
            CmdError::Session { path, error } => write!(f, "{}: {error}", path.display()),
            CmdError::Lookup(e) => e.fmt(f),
            CmdError::Render { strategy, error } => write!(f, "strategy `{strategy}`: {error}"),
            CmdError::Run(e) => e.fmt(f),
            CmdError::Usage(m) | CmdError::Other(m) => f.write_str(m),
            CmdError::Io { path, action, error } => {
                write!(f, "{}: {action}: {error}", path.display())?;
                match io_next_step(action, error) {
                    Some(next) => write!(f, " ({next})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl CmdError {
    /// Whether writing the output failed because its reader stopped reading
    /// (`ptc trace FILE | head`): no error of ptc's, so the rest of the
    /// output is dropped without a word, as a pipe's reader expects. Rust
    /// ignores SIGPIPE, so the write reports it.
    pub fn reader_left(&self) -> bool {
        matches!(self, CmdError::Io { error, .. } if error.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// Writes `text` to stdout and flushes it: a command's output at its end
/// (`main`), the REPL's as it goes.
pub fn write_stdout(text: &str) -> Result<(), CmdError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|error| CmdError::Io {
        path: PathBuf::from("-"),
        action: "cannot write to stdout",
        error,
    })
}

/// What to do after a file error, where the error kind says it.
fn io_next_step(action: &str, error: &std::io::Error) -> Option<&'static str> {
    let writing = action.starts_with("cannot write") || action.starts_with("cannot create");
    match error.kind() {
        std::io::ErrorKind::NotFound if writing => Some("its folder does not exist: create it, or choose another path"),
        std::io::ErrorKind::NotFound => Some("check the path"),
        std::io::ErrorKind::PermissionDenied => Some("no permission there: choose another path"),
        std::io::ErrorKind::IsADirectory => Some("that is a folder: name a file in it"),
        std::io::ErrorKind::InvalidData if !writing => Some("it is not UTF-8 text: is it the right file?"),
        std::io::ErrorKind::FileTooLarge => Some("ptc reads it whole, within that bound: is it the right file?"),
        _ => None,
    }
}

impl std::error::Error for CmdError {}

impl From<ConfigError> for CmdError {
    fn from(e: ConfigError) -> CmdError {
        CmdError::Config(e)
    }
}

impl From<LookupError> for CmdError {
    fn from(e: LookupError) -> CmdError {
        CmdError::Lookup(Box::new(e))
    }
}

impl From<RunError> for CmdError {
    fn from(e: RunError) -> CmdError {
        CmdError::Run(Box::new(e))
    }
}

/// What a command returns.
pub type CmdResult = Result<Output, CmdError>;

/// Loads `config` and resolves its plugins and instances.
pub fn resolve(config: &Path) -> Result<Resolved, CmdError> {
    Ok(Config::load(config)?.resolve())
}

/// [`resolve`] for the commands that need no agent (`strategies`,
/// `render`, `compare`): without a config file there, an empty config
/// (plugins from `PTC_PLUGIN_PATH` and the executable's folder, built-in
/// full-history, plugin names with their default parameters).
pub fn resolve_or_empty(config: &Path) -> Result<Resolved, CmdError> {
    Ok(Config::load_or_empty(config)?.resolve())
}

/// Reads a session file (either layout). A missing file says where
/// sessions come from instead of the reader's JSON-path error.
pub fn read_session(path: &Path) -> Result<Session, CmdError> {
    if !path.exists() {
        return Err(CmdError::Usage(format!(
            "{}: no such session file; `ptc run AGENT` writes AGENT.session.jsonl in the current folder (or where `--session FILE` says)",
            path.display()
        )));
    }
    Session::read(path).map_err(|error| CmdError::Session { path: path.to_path_buf(), error })
}

/// One note per plugin file that did not load.
pub fn load_warnings(resolved: &Resolved) -> Vec<String> {
    load_errors(resolved).into_iter().map(|e| format!("plugin not loaded: {e}")).collect()
}

/// What did not load, one line per file or folder (a missing folder of the
/// config with how its relative path was resolved).
pub fn load_errors(resolved: &Resolved) -> Vec<String> {
    let config = &resolved.config.path;
    let note = |path: &Path| crate::config::missing_path_note(config, path);
    resolved.registry.errors().iter().map(|e| format!("{e}{}", note(&e.path))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_error_says_what_to_do_where_its_kind_tells() {
        let io = |action, kind| {
            CmdError::Io { path: PathBuf::from("out/r.html"), action, error: std::io::Error::from(kind) }.to_string()
        };
        let missing = io("cannot write the HTML report", std::io::ErrorKind::NotFound);
        assert!(missing.starts_with("out/r.html: cannot write the HTML report: "), "{missing}");
        assert!(missing.ends_with(" (its folder does not exist: create it, or choose another path)"), "{missing}");
        let read = io("cannot read program", std::io::ErrorKind::NotFound);
        assert!(read.ends_with(" (check the path)"), "{read}");
        let denied = io("cannot create folder", std::io::ErrorKind::PermissionDenied);
        assert!(denied.ends_with(" (no permission there: choose another path)"), "{denied}");
        let folder = io("cannot write the HTML report", std::io::ErrorKind::IsADirectory);
        assert!(folder.ends_with(" (that is a folder: name a file in it)"), "{folder}");
        let binary = io("cannot read program", std::io::ErrorKind::InvalidData);
        assert!(binary.ends_with(" (it is not UTF-8 text: is it the right file?)"), "{binary}");
        let other = io("cannot write", std::io::ErrorKind::Other);
        assert!(!other.ends_with(')'), "{other}");
    }

    #[test]
    fn a_missing_session_file_says_where_sessions_come_from() {
        let err = read_session(Path::new("no-such.session.jsonl")).unwrap_err().to_string();
        assert!(err.starts_with("no-such.session.jsonl: no such session file;"), "{err}");
        assert!(err.contains("`ptc run AGENT` writes AGENT.session.jsonl"), "{err}");
    }
}
