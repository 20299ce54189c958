//! ptc-plugin-api as it was at interface 1.0.0, frozen: the ABI types, the
//! root module and the SDK glue, without the shared rendering pieces (they
//! are not part of the ABI). `tests/compat.rs` builds a plugin against this
//! crate and loads it into the current host, so a change to the current
//! interface that breaks plugins built against 1.0 fails a test.
//!
//! Never edit these files: they are what a 1.0 plugin was compiled with.

pub mod module;
pub mod output;
pub mod request;
pub mod sdk;
pub mod value;

pub use output::{Counter, ErrorKind, Message, PluginInfo, Rendered, Role, Stats, StrategyError};
pub use request::{DataEntry, Definition, RenderRequest, ToolCall, ToolSpec, Turn, TurnError};
pub use sdk::{Params, Strategy};
pub use value::{FnDesc, MapEntry, Value, ValueRef};

#[doc(hidden)]
pub use abi_stable;

/// Version of the plugin interface (the ABI types and root module).
pub const INTERFACE_VERSION: &str = "1.0.0";

/// Optional features of this interface version a plugin can claim.
pub const CAPABILITIES: &[&str] = &["render", "extensions-json"];
