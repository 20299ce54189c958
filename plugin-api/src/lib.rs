//! The stable ABI between `ptc` and its strategy plugins, and the SDK that
//! strategy authors write against.
//!
//! A strategy turns a [`RenderRequest`] (mission, tools, data, the
//! append-only turn history) into the [`Message`]s of the next prompt. It is
//! plain Rust:
//!
//! ```
//! use ptc_plugin_api::{render, Message, Params, Rendered, RenderRequest, Stats, Strategy, StrategyError};
//!
//! /// Shows only the mission and the turn info.
//! pub struct Minimal;
//!
//! impl Strategy for Minimal {
//!     const NAME: &'static str = "minimal";
//!     const DESCRIPTION: &'static str = "Mission and turn info only";
//!
//!     fn new(params: Params) -> Result<Self, StrategyError> {
//!         params.finish()?; // rejects unknown keys
//!         Ok(Minimal)
//!     }
//!
//!     fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
//!         let user = format!("{}\n\n{}", req.mission(), render::turn_info(req.turn(), req.max_turns()));
//!         let messages = vec![Message::system(req.system_prompt()), Message::user(user)];
//!         Ok(Rendered::new(messages, Stats::new(Self::NAME)))
//!     }
//! }
//!
//! // In a cdylib crate: ptc_plugin_api::export_strategy!(Minimal);
//! ```
//!
//! `export_strategy!` generates the root module the host loads, converts
//! parameters, and catches panics so a buggy strategy returns
//! [`ErrorKind::Panicked`] instead of taking the host down.
//!
//! The ABI types keep their `abi_stable` fields private: authors read them
//! through accessors that return `&str`, slices and [`ValueRef`] views.

pub mod module;
pub mod output;
pub mod prompt;
pub mod render;
pub mod request;
pub mod sdk;
pub mod value;

pub use output::{Counter, ErrorKind, Message, PluginInfo, Rendered, Role, Stats, StrategyError};
pub use prompt::{Block, BlockRef, LayoutError, MessageLayout, Prompt, PromptBuilder};
pub use request::{DataEntry, Definition, RenderRequest, ToolCall, ToolSpec, Turn, TurnError};
pub use sdk::{Params, Strategy};
pub use value::{FnDesc, MapEntry, Value, ValueRef};

#[doc(hidden)]
pub use abi_stable;

/// Version of the plugin interface (the ABI types and root module).
///
/// Any `1.x` plugin loads into any `1.y` host. Minor versions only add:
/// prefix fields and trait-object methods with a default (1.1 added
/// [`module::StrategyObject::render_prompt`], which a 1.0 plugin answers
/// through its `render`), [`RenderRequest::extensions`] and
/// [`CAPABILITIES`]; anything else bumps the major.
pub const INTERFACE_VERSION: &str = "1.1.0";

/// Optional features of this interface version a plugin can claim.
pub const CAPABILITIES: &[&str] = &["render", "extensions-json", "blocks"];
