//! PTC-Lisp: a safe, eager subset of Clojure that agents write.
//!
//! This crate holds the [`Value`] type, the EDN reader and printer the host
//! uses for session files, the evaluator with its sandbox [`Limits`], and the
//! core library. The host calls [`run_program`] once per turn and gets back
//! an [`Outcome`]: prints, tool calls, definitions, the result or error, and
//! the namespace ([`Memory`]) to carry into the next turn.
//!
//! ```
//! use ptc_lisp::{run_program, Exit, Limits, Memory, Value};
//!
//! let mut tools = |name: &str, args: serde_json::Value| -> Result<serde_json::Value, String> {
//!     assert_eq!(name, "lookup");
//!     Ok(serde_json::json!({"price": args["qty"].as_i64().unwrap() * 3}))
//! };
//! let data = indexmap::IndexMap::from([("qty".to_string(), Value::Int(4))]);
//! let src = r#"
//!     (defn total "Price of an order." [q] (:price (tool/lookup {:qty q})))
//!     (println "total:" (total data/qty))
//!     (total 2)"#;
//! let out = run_program(src, &Memory::new(), &data, &mut tools, &Limits::default());
//! assert_eq!(out.result, Ok(Exit::Value(Value::Int(6))));
//! assert_eq!(out.prints, ["total: 12"]);
//! assert_eq!(out.definitions[0].return_type.as_deref(), Some("integer"));
//! assert!(out.memory.get("total").is_some());
//! ```
//!
//! Module map: `reader` and `form` (text to forms), `analyze`, `special`
//! and `pattern` (forms to nodes), `eval` (nodes to values) over `interp`
//! (run state, limits, error plumbing), `builtins` (core library), `print`
//! (values to text), `program` (the turn entry point) over `record` (what
//! a run records and the `ToolHost` it calls, shared by `interp`, `memory`
//! and `program`), `limits`, `memory`, `json` (tool arguments and results),
//! `error`.

#![warn(missing_docs)]

mod analyze;
mod builtins;
mod card;
mod coll;
pub mod error;
mod eval;
mod form;
mod interp;
pub mod json;
mod last_use;
pub mod limits;
pub mod memory;
mod parallel;
mod pattern;
pub mod print;
pub mod program;
pub mod reader;
mod record;
mod special;
#[cfg(test)]
mod test_run;
pub mod value;
mod walk;

pub use builtins::{closest_among, did_you_mean};
pub use card::{language_card, LANGUAGE_CARD, NAMESPACE_FALLBACK_NOTE};
pub use error::{ErrorKind, LispError, ReadError};
pub use json::{json_to_value, value_to_json, JsonError};
pub use limits::{Limits, MAX_PRINT_BYTES, PRINTS_DROPPED};
pub use memory::{Memory, MemoryEntry};
pub use print::{to_display_string, to_print_string, to_string_truncated, type_label};
pub use program::{
    run_program, run_program_with, Definition, Exit, NoTools, Outcome, RunOptions, ToolCallRecord, ToolError,
    ToolErrorKind, ToolHost,
};
pub use reader::read_edn;
pub use value::{FnDesc, Function, Map, Set, Value, Vector};
