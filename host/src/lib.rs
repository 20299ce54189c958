//! `ptc-host`: what the `ptc` binary does, as a library, over the
//! `ptc-registry` (plugin loading), `ptc-session` (session files),
//! `ptc-lisp` (the sandbox) and `ptc-tokens` (token counting) crates.
//!
//! - [`config`] reads `strategies.toml`; [`Config::resolve`](config::Config::resolve)
//!   ([`resolve`]) loads its plugins and builds its instances once, and is
//!   the one place that turns a strategy name into a renderer;
//! - [`run`] is the agent loop ([`run::AgentRun`]: `prepare`, then `turn`),
//!   choosing each prompt's renderer through [`policy`], calling the model
//!   through [`llm`] and tools through [`tools`], holding the agent to its
//!   signature ([`contract`], [`inputs`]) and its run limits
//!   ([`run_limits`]), reporting through
//!   [`progress`] and logging `tracing` events ([`logging`]);
//! - [`compare`] measures strategies over recorded sessions (`ptc compare`);
//! - [`cmd`] holds one module per subcommand, each returning what to print.
//!
//! ```no_run
//! use ptc_host::config::{Config, ConfigFile};
//! use ptc_session::Session;
//! use std::path::Path;
//!
//! let resolved = Config::load(Path::new("strategies.toml")).unwrap().resolve();
//! let strategy = resolved.strategy("coalesced").unwrap();
//! let session = Session::read(Path::new("tests/sessions/data-exploration.json")).unwrap();
//! let rendered = strategy.renderer.render(&session.request_for_turn(None).unwrap()).unwrap();
//! println!("{}", rendered.messages()[1].content());
//! ```

pub mod cmd;
pub mod config;
pub mod logging;

/// The agent loop and its parts (the `ptc-agent` crate), where they were
/// before it was split out.
pub use ptc_agent::{
    contract, costing, inputs, location, mcp, nested, policy, progress, resolve, run, run_limits, tools,
};

/// `ptc compare`'s measurement (the `ptc-compare` crate), where it was
/// before it was split out.
pub use ptc_compare as compare;

/// The model backends (the `ptc-llm` crate), where they were before it
/// was split out.
pub use ptc_llm as llm;
