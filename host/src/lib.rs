//! `ptc-host`: what the `ptc` binary does, as a library, on top of the
//! `ptc-registry` (plugin loading), `ptc-session` (session files) and
//! `ptc-tokens` (token counting) crates.
//!
//! - [`config`] reads `strategies.toml` and builds the instances it names;
//! - [`cli`] implements the subcommands;
//! - [`run`] is the agent loop, reporting through [`progress`] and logging
//!   `tracing` events ([`logging`]).
//!
//! ```no_run
//! use ptc_host::config::Config;
//! use ptc_registry::Registry;
//! use ptc_session::Session;
//! use std::path::Path;
//!
//! let config = Config::load(Path::new("strategies.toml")).unwrap();
//! let registry = Registry::discover(&config.plugin_paths);
//! let strategy = config.instantiate(&registry, "coalesced").unwrap();
//! let session = Session::read(Path::new("tests/sessions/data-exploration.json")).unwrap();
//! let rendered = strategy.render(&session.request_for_turn(None).unwrap()).unwrap();
//! println!("{}", rendered.messages()[1].content());
//! ```

pub mod cli;
pub mod compare;
pub mod config;
pub mod eval;
pub mod llm;
pub mod logging;
pub mod policy;
pub mod progress;
pub mod run;
pub mod tools;
pub mod trace;
