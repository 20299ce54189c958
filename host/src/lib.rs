//! `ptc-host`: everything the `ptc` binary does, as a library.
//!
//! - [`config`] reads `strategies.toml`;
//! - [`registry`] finds and loads strategy plugins and builds instances;
//! - [`session`] reads session files into render requests;
//! - [`convert`] turns PTC-Lisp values into plugin ABI values;
//! - [`tokens`] counts prompt tokens with a real BPE tokenizer;
//! - [`cli`] implements the subcommands on top of those.
//!
//! ```no_run
//! use ptc_host::{config::Config, registry::Registry, session::Session};
//! use std::path::Path;
//!
//! let config = Config::load(Path::new("strategies.toml")).unwrap();
//! let registry = Registry::from_config(&config);
//! let strategy = registry.instantiate(&config, "coalesced").unwrap();
//! let session = Session::read(Path::new("tests/sessions/data-exploration.json")).unwrap();
//! let rendered = strategy.render(&session.request_for_turn(None).unwrap()).unwrap();
//! println!("{}", rendered.messages()[1].content());
//! ```

pub mod cli;
pub mod config;
pub mod convert;
pub mod registry;
pub mod session;
pub mod tokens;
