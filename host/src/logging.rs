//! Diagnostic logging: `tracing` events on stderr, chosen with `RUST_LOG`.
//!
//! Nothing is installed when `RUST_LOG` is unset or empty, so a normal run
//! prints only its progress and result. The filter uses env_logger syntax
//! (`debug`, `ptc_agent=debug,ptc_registry=info`, `ptc_llm=trace`),
//! parsed as a `tracing_subscriber` `Targets` filter. Targets are module
//! paths: `ptc_agent::run` (turns, prompts, session writes),
//! `ptc_agent::policy` (trigger switch, fallbacks), `ptc_llm` (requests,
//! retries), `ptc_agent::tools` (tool calls) and `ptc_registry` (plugin
//! loading).

use std::fmt;
use std::str::FromStr;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The environment variable that selects log output.
pub const LOG_ENV: &str = "RUST_LOG";

/// A `RUST_LOG` value that is not a log filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    /// The value, trimmed.
    pub value: String,
    /// Why the filter syntax refuses it.
    pub reason: String,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{LOG_ENV}={:?} is not a log filter ({}); logging is off", self.value, self.reason)
    }
}

impl std::error::Error for FilterError {}

/// Parses a `RUST_LOG` value; `None` when it is unset or blank.
pub fn filter(value: Option<&str>) -> Result<Option<Targets>, FilterError> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else { return Ok(None) };
    Targets::from_str(value).map(Some).map_err(|e| FilterError { value: value.to_string(), reason: e.to_string() })
}

/// Installs the stderr logger when `RUST_LOG` asks for one. Returns whether
/// logging is on; a malformed value is reported in one line and ignored.
pub fn init() -> bool {
    let value = std::env::var(LOG_ENV).ok();
    match filter(value.as_deref()) {
        Ok(Some(targets)) => {
            let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false);
            tracing_subscriber::registry().with(layer).with(targets).try_init().is_ok()
        }
        Ok(None) => false,
        Err(message) => {
            eprintln!("ptc: warning: {message}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::level_filters::LevelFilter;

    #[test]
    fn unset_or_blank_means_no_logging() {
        assert!(filter(None).unwrap().is_none());
        assert!(filter(Some("  ")).unwrap().is_none());
    }

    #[test]
    fn env_logger_syntax_selects_levels_per_target() {
        let t = filter(Some("warn,ptc_host::llm=trace")).unwrap().unwrap();
        assert!(t.would_enable("ptc_host::llm", &tracing::Level::TRACE));
        assert!(!t.would_enable("ptc_host::run", &tracing::Level::INFO));
        assert!(t.would_enable("ptc_registry", &tracing::Level::WARN));
        assert_eq!(filter(Some("debug")).unwrap().unwrap().default_level(), Some(LevelFilter::DEBUG));
    }

    #[test]
    fn malformed_filter_is_one_line_naming_the_variable() {
        let e = filter(Some("ptc_host=loud")).unwrap_err().to_string();
        assert!(e.starts_with("RUST_LOG=\"ptc_host=loud\" is not a log filter"), "{e}");
        assert!(!e.contains('\n'));
    }
}
