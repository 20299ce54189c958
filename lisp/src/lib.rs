//! PTC-Lisp: a safe, eager subset of Clojure that agents write.
//!
//! This crate holds the [`Value`] type, the EDN reader and printer the host
//! uses for session files, and (growing) the evaluator and core library.

pub mod error;
pub mod print;
pub mod reader;
pub mod value;

pub use error::{ErrorKind, LispError, ReadError};
pub use print::{to_display_string, to_print_string, type_label};
pub use reader::read_edn;
pub use value::{FnDesc, Function, Map, Set, Value};
