//! Signatures: what an agent or a tool takes and gives, written as in the
//! original PTC runtime.
//!
//! ```text
//! (query :string, limit :int) -> {count :int, items [{id :int, title :string?}]}
//! {count :int}                          output only
//! ```
//!
//! Primitives are `:string :int :float :bool :keyword :datetime :map :any`;
//! `[t]` is a list of `t`; `{name t, ...}` a map with those fields (extra
//! fields allowed); a trailing `?` allows nil and, on a map field, its
//! absence. Named inputs come before `->`.
//!
//! This crate is the one place that reads signatures ([`Signature::parse`],
//! errors with the column and a caret: [`ParseError`]) and checks values
//! against them ([`check`], the first [`Mismatch`] with its JSON-path-like
//! location). Values are seen through the [`Shape`] trait, so the host checks
//! PTC-Lisp values and JSON alike without this crate depending on either.
//!
//! ```
//! use ptc_signature::Signature;
//!
//! let sig = Signature::parse("(query :string) -> {count :int}").unwrap();
//! assert_eq!(sig.params[0].name, "query");
//! assert_eq!(sig.output.to_string(), "{count :int}");
//!
//! let err = Signature::parse("(query :strin) -> :int").unwrap_err();
//! assert_eq!(err.column, 8);
//! assert!(err.to_string().starts_with("unknown type `:strin`"));
//! ```

mod check;
mod names;
mod parse;
mod types;

pub use check::{check, Kind, Mismatch, Segment, Shape};
pub use names::{kebab_case, same_name};
pub use parse::ParseError;
pub use types::{Field, Primitive, Signature, Type};
