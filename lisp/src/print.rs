//! Printing values: Clojure `pr-str` syntax (`Display`), `str`/`println`
//! text, and the short type labels used in turn summaries.
//!
//! Maps print without commas (`{:a 1 :b 2}`), the project's prompt format.
//! Nesting deeper than [`MAX_PRINT_DEPTH`] prints as `...` so a pathological
//! value can never overflow the stack.

use crate::value::Value;
use std::fmt::{self, Write};

/// Nesting depth past which printing writes `...` instead of recursing.
pub const MAX_PRINT_DEPTH: usize = 1000;

/// Clojure `pr-str` syntax, complete. For values from untrusted programs,
/// whose shared structure can unfold to gigabytes of text, prefer
/// [`to_string_truncated`].
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, self, true, 0)
    }
}

/// `str` semantics: a string is its own text, `nil` is empty, anything else
/// prints as `pr-str` would (nested strings stay quoted).
pub fn to_display_string(v: &Value) -> String {
    match v {
        Value::Nil => String::new(),
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// `print`/`println` semantics: like `pr-str` but strings, also nested ones,
/// print without quotes; `nil` prints as `nil`.
pub fn to_print_string(v: &Value) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_value(&mut out, v, false, 0);
    out
}

/// How to print a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `pr-str`: strings quoted.
    Readable,
    /// `print`/`println`: strings unquoted, also nested ones.
    Print,
    /// `str`: a top-level string raw and nil empty, anything else readable.
    Display,
}

/// Writes into a string but refuses to grow it past `max` bytes, so even a
/// value whose shared structure unfolds to gigabytes prints in bounded time.
struct Capped<'s> {
    out: &'s mut String,
    max: usize,
}

impl Write for Capped<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.out.len() + s.len() <= self.max {
            self.out.push_str(s);
            return Ok(());
        }
        let mut room = self.max.saturating_sub(self.out.len());
        while !s.is_char_boundary(room) {
            room -= 1;
        }
        self.out.push_str(&s[..room]);
        Err(fmt::Error)
    }
}

/// Appends `v` printed in `mode` to `out`, stopping at `max_bytes` bytes in
/// total; returns `false` if the text was cut.
pub(crate) fn append_capped(out: &mut String, v: &Value, mode: Mode, max_bytes: usize) -> bool {
    let mut w = Capped { out, max: max_bytes };
    match (mode, v) {
        (Mode::Display, Value::Nil) => true,
        (Mode::Display, Value::Str(s)) => w.write_str(s).is_ok(),
        (Mode::Print, v) => write_value(&mut w, v, false, 0).is_ok(),
        (_, v) => write_value(&mut w, v, true, 0).is_ok(),
    }
}

/// The length of `v`'s `pr-str` text (as a session records it) when it is
/// at most `max_bytes` bytes; counts without building the text, and stops
/// counting there, so a value whose shared structure unfolds to gigabytes
/// is measured in bounded time.
pub(crate) fn printed_len_within(v: &Value, max_bytes: usize) -> Option<usize> {
    struct Counted {
        left: usize,
    }
    impl Write for Counted {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.left = self.left.checked_sub(s.len()).ok_or(fmt::Error)?;
            Ok(())
        }
    }
    let mut counted = Counted { left: max_bytes };
    write_value(&mut counted, v, true, 0).ok().map(|()| max_bytes - counted.left)
}

/// `pr-str` text of `v`, cut after `max_chars` characters with `...`: for
/// showing values whose full text could be huge.
pub fn to_string_truncated(v: &Value, max_chars: usize) -> String {
    let mut out = String::new();
    let max_bytes = max_chars.saturating_mul(4).saturating_add(4);
    let complete = append_capped(&mut out, v, Mode::Readable, max_bytes);
    match out.char_indices().nth(max_chars) {
        Some((cut, _)) => {
            out.truncate(cut);
            out.push_str("...");
        }
        None if !complete => out.push_str("..."),
        None => {}
    }
    out
}

/// Appends `v` in `pr-str` syntax (`readably`) or `print` syntax to `out`.
pub(crate) fn write_value(out: &mut impl Write, v: &Value, readably: bool, depth: usize) -> fmt::Result {
    if depth > MAX_PRINT_DEPTH {
        return out.write_str("...");
    }
    match v {
        Value::Nil => out.write_str("nil"),
        Value::Bool(b) => out.write_str(if *b { "true" } else { "false" }),
        Value::Int(i) => write!(out, "{i}"),
        Value::Float(x) => write_float(out, *x),
        Value::Str(s) if readably => write_escaped(out, s),
        Value::Str(s) => out.write_str(s),
        Value::Keyword(k) => write!(out, ":{k}"),
        Value::Vector(items) => write_seq(out, "[", "]", items.iter(), readably, depth),
        Value::List(items) => write_seq(out, "(", ")", items.iter(), readably, depth),
        Value::Set(items) => write_seq(out, "#{", "}", items.iter(), readably, depth),
        Value::Map(m) => {
            out.write_char('{')?;
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.write_char(' ')?;
                }
                write_value(out, k, readably, depth + 1)?;
                out.write_char(' ')?;
                write_value(out, v, readably, depth + 1)?;
            }
            out.write_char('}')
        }
        Value::Fn(func) => match func.regex_source() {
            Some(src) => write!(out, "#\"{src}\""),
            None => write!(out, "#fn[{}]", func.desc.name.as_deref().unwrap_or("anonymous")),
        },
    }
}

fn write_seq<'a>(
    out: &mut impl Write,
    open: &str,
    close: &str,
    items: impl Iterator<Item = &'a Value>,
    readably: bool,
    depth: usize,
) -> fmt::Result {
    out.write_str(open)?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.write_char(' ')?;
        }
        write_value(out, item, readably, depth + 1)?;
    }
    out.write_str(close)
}

fn write_escaped(out: &mut impl Write, s: &str) -> fmt::Result {
    ptc_print::write_str_readably(out, s, usize::MAX).map(drop)
}

/// Formats a float as Clojure does (see [`ptc_print::write_float`]).
pub(crate) fn write_float(out: &mut impl Write, x: f64) -> fmt::Result {
    ptc_print::write_float(out, x)
}

/// The short type label used for return-type capture and summaries:
/// `integer`, `float`, `string`, `boolean`, `keyword`, `nil`,
/// `list[N]` (vectors and lists), `map[N]`, `set[N]`, `#fn[name]`.
pub fn type_label(v: &Value) -> String {
    match v {
        Value::Vector(items) | Value::List(items) => format!("list[{}]", items.len()),
        Value::Map(m) => format!("map[{}]", m.len()),
        Value::Set(s) => format!("set[{}]", s.len()),
        Value::Fn(_) => v.to_string(),
        other => other.type_name().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_print_without_commas() {
        let m = Value::map([
            (Value::keyword("a"), Value::Int(1)),
            (Value::keyword("b"), Value::vector(vec![Value::str("x\"y\n"), Value::Nil])),
        ]);
        assert_eq!(m.to_string(), r#"{:a 1 :b ["x\"y\n" nil]}"#);
        assert_eq!(to_print_string(&m), "{:a 1 :b [x\"y\n nil]}");
        assert_eq!(to_display_string(&Value::Nil), "");
        assert_eq!(to_display_string(&Value::str("hi")), "hi");
        assert_eq!(Value::List(Default::default()).to_string(), "()");
    }

    #[test]
    fn labels() {
        assert_eq!(type_label(&Value::vector(vec![Value::Nil; 3])), "list[3]");
        assert_eq!(type_label(&Value::Int(3)), "integer");
        assert_eq!(type_label(&Value::map([])), "map[0]");
    }
}
