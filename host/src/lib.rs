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
//! - [`cmd`] holds one module per subcommand, each returning what to print.
//!
//! ```no_run
//! use ptc_host::config::Config;
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
pub mod compare;
pub mod config;
pub mod contract;
pub mod costing;
pub mod inputs;
pub mod llm;
pub mod location;
pub mod logging;
pub mod mcp;
pub mod nested;
pub mod policy;
pub mod progress;
pub mod resolve;
pub mod run;
pub mod run_limits;
pub mod tools;
