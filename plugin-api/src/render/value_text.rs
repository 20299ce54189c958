//! Values as prompt text: type labels (TYP-001..012) and the bounded,
//! truncating printer (TRN-001..005, SAM-003).

use crate::value::{Value, ValueRef};
use std::fmt::Write;

/// How much of a value to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueLimits {
    /// Items shown per collection, at every depth.
    pub items: usize,
    /// Characters shown of a string.
    pub chars: usize,
}

impl ValueLimits {
    /// Samples in `data/` and `user/` (TRN-002): 3 items, 80 characters.
    pub const SAMPLE: ValueLimits = ValueLimits { items: 3, chars: 80 };
    /// Tool call arguments (TRN-003): 3 items, 60 characters.
    pub const TOOL_ARGS: ValueLimits = ValueLimits { items: 3, chars: 60 };
}

/// Collections nested deeper than this print as `...`.
const MAX_DEPTH: usize = 8;
/// A sample line may always use this many characters, whatever the string limit.
const MIN_LINE_CAP: usize = 200;
/// A string inside a map never gets less than this share of the budget.
const MIN_SHARE_CHARS: usize = 20;
/// A string is never cut below this many characters while the budget shrinks.
const MIN_CHARS: usize = 8;

/// The type label of a value: `list[3]`, `map[2]`, `set[1]`, `string`,
/// `integer`, `float`, `boolean`, `keyword`, `nil`, `#fn[x y]`, `var`.
pub fn type_label(value: &Value) -> String {
    match value.view() {
        ValueRef::Nil => "nil".into(),
        ValueRef::Bool(_) => "boolean".into(),
        ValueRef::Int(_) => "integer".into(),
        ValueRef::Float(_) => "float".into(),
        ValueRef::Str(_) => "string".into(),
        ValueRef::Keyword(_) => "keyword".into(),
        ValueRef::Vector(v) | ValueRef::List(v) => format!("list[{}]", v.len()),
        ValueRef::Set(v) => format!("set[{}]", v.len()),
        ValueRef::Map(m) => format!("map[{}]", m.len()),
        ValueRef::Fn(f) => {
            let mut params: Vec<&str> = f.params().collect();
            if let Some(rest) = f.variadic() {
                params.push("&");
                params.push(rest);
            }
            format!("#fn[{}]", params.join(" "))
        }
        ValueRef::Var(_) => "var".into(),
    }
}

/// Whether a value has nothing worth sampling (`nil` or an empty collection).
pub fn is_blank(value: &Value) -> bool {
    match value.view() {
        ValueRef::Nil => true,
        ValueRef::Vector(v) | ValueRef::List(v) | ValueRef::Set(v) => v.is_empty(),
        ValueRef::Map(m) => m.is_empty(),
        _ => false,
    }
}

/// Prints `value` in Clojure syntax within `limits`.
///
/// Collections show their first `limits.items` items, strings their first
/// `limits.chars` characters; the entries a nested map shows split that
/// string budget between them (at least 20 characters each). Whatever the value, the line stays within
/// about `4 * limits.chars` characters: when the plain rules would exceed
/// that (or 200, if larger), string budgets halve (down to 8 characters), then collections show
/// one item each. Only the items shown are ever visited.
pub fn format_value(value: &Value, limits: ValueLimits) -> String {
    let cap = (limits.chars * 4).max(MIN_LINE_CAP);
    let mut attempt = limits;
    loop {
        let last = attempt.chars <= MIN_CHARS && attempt.items <= 1;
        let mut p = Printer { limits: attempt, cap: if last { usize::MAX } else { cap }, out: String::new(), len: 0 };
        if p.value(value, 0, attempt.chars).is_ok() {
            return p.out;
        }
        if attempt.chars > MIN_CHARS {
            attempt.chars = (attempt.chars / 2).max(MIN_CHARS);
        } else {
            attempt.items = 1;
        }
    }
}

/// A string in double quotes with Clojure escapes, cut to `max_chars`
/// characters (never inside a UTF-8 character) with `...` before the closing quote.
pub fn quote_str(s: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max_chars * 4) + 2);
    // Writing to a String cannot fail.
    let _ = ptc_print::write_str_readably(&mut out, s, max_chars);
    out
}

/// A float as Clojure prints it: `1.0`, `0.25`, `1.0E20`, `1.5E-7`, `##Inf`, `##-Inf`, `##NaN`.
pub fn format_float(f: f64) -> String {
    ptc_print::float_text(f)
}

struct Overflow;

struct Printer {
    limits: ValueLimits,
    cap: usize,
    out: String,
    len: usize,
}

impl Printer {
    fn push(&mut self, s: &str) -> Result<(), Overflow> {
        self.len += s.chars().count();
        self.out.push_str(s);
        if self.len > self.cap {
            Err(Overflow)
        } else {
            Ok(())
        }
    }

    fn value(&mut self, value: &Value, depth: usize, chars: usize) -> Result<(), Overflow> {
        match value.view() {
            ValueRef::Nil => self.push("nil"),
            ValueRef::Bool(b) => self.push(if b { "true" } else { "false" }),
            ValueRef::Int(i) => {
                let mut buf = String::new();
                let _ = write!(buf, "{i}");
                self.push(&buf)
            }
            ValueRef::Float(f) => self.push(&format_float(f)),
            ValueRef::Str(s) => self.push(&quote_str(s, chars)),
            ValueRef::Keyword(k) => {
                self.push(":")?;
                self.push(k)
            }
            ValueRef::Var(n) => {
                self.push("#'")?;
                self.push(n)
            }
            ValueRef::Fn(f) => {
                let name = if f.name().is_empty() { "anonymous" } else { f.name() };
                self.push("#fn[")?;
                self.push(name)?;
                self.push("]")
            }
            ValueRef::Vector(items) => self.seq("[", "]", items, depth, chars),
            ValueRef::List(items) => self.seq("(", ")", items, depth, chars),
            ValueRef::Set(items) => self.seq("#{", "}", items, depth, chars),
            ValueRef::Map(entries) => {
                if depth >= MAX_DEPTH && !entries.is_empty() {
                    return self.push("{...}");
                }
                self.push("{")?;
                // The entries of a nested map (records in a collection) share
                // the string budget; a top-level map (tool arguments, one
                // record) gives each entry the whole budget (TRN-003).
                let shown = entries.len().min(self.limits.items).max(1);
                let share = if depth == 0 { chars } else { (chars / shown).max(MIN_SHARE_CHARS).min(chars) };
                for (i, e) in entries.iter().take(self.limits.items).enumerate() {
                    if i > 0 {
                        self.push(" ")?;
                    }
                    self.value(e.key(), depth + 1, share)?;
                    self.push(" ")?;
                    self.value(e.value(), depth + 1, share)?;
                }
                if entries.len() > self.limits.items {
                    self.push(" ...")?;
                }
                self.push("}")
            }
        }
    }

    fn seq(&mut self, open: &str, close: &str, items: &[Value], depth: usize, chars: usize) -> Result<(), Overflow> {
        if depth >= MAX_DEPTH && !items.is_empty() {
            self.push(open)?;
            self.push("...")?;
            return self.push(close);
        }
        self.push(open)?;
        let shown = items.len().min(self.limits.items);
        for (i, item) in items[..shown].iter().enumerate() {
            if i > 0 {
                self.push(" ")?;
            }
            self.value(item, depth + 1, chars)?;
        }
        if items.len() > shown {
            self.push(" ...")?;
        }
        self.push(close)?;
        if items.len() > shown {
            self.push(&format!(" ({} items, showing first {shown})", items.len()))?;
        }
        Ok(())
    }
}
