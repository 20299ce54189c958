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

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(n: i64) -> Value {
        Value::vector((1..=n).map(Value::int).collect())
    }

    #[test]
    fn typ_labels() {
        // TYP-001..012
        assert_eq!(type_label(&Value::vector(vec![])), "list[0]");
        assert_eq!(type_label(&ints(3)), "list[3]");
        assert_eq!(type_label(&Value::list(vec![Value::nil()])), "list[1]");
        assert_eq!(type_label(&Value::map(vec![])), "map[0]");
        assert_eq!(type_label(&Value::map(vec![(Value::keyword("a"), Value::int(1))])), "map[1]");
        assert_eq!(type_label(&Value::string("x")), "string");
        assert_eq!(type_label(&Value::int(1)), "integer");
        assert_eq!(type_label(&Value::float(1.5)), "float");
        assert_eq!(type_label(&Value::bool(true)), "boolean");
        assert_eq!(type_label(&Value::keyword("k")), "keyword");
        assert_eq!(type_label(&Value::nil()), "nil");
        let f = crate::FnDesc::new("f", vec!["x".into()]).with_variadic(Some("more".into()));
        assert_eq!(type_label(&Value::function(f)), "#fn[x & more]");
        assert_eq!(type_label(&Value::set(vec![Value::int(1), Value::int(2), Value::int(3)])), "set[3]");
    }

    #[test]
    fn trn_004_truncated_collections_say_how_many() {
        assert_eq!(format_value(&ints(10), ValueLimits::SAMPLE), "[1 2 3 ...] (10 items, showing first 3)");
        assert_eq!(format_value(&ints(3), ValueLimits::SAMPLE), "[1 2 3]");
        let list = Value::list((1..=5).map(Value::int).collect());
        assert_eq!(format_value(&list, ValueLimits::SAMPLE), "(1 2 3 ...) (5 items, showing first 3)");
        let set = Value::set((1..=4).map(Value::int).collect());
        assert_eq!(format_value(&set, ValueLimits::SAMPLE), "#{1 2 3 ...} (4 items, showing first 3)");
        let map = Value::map((1..=4).map(|i| (Value::keyword(format!("k{i}")), Value::int(i))).collect());
        assert_eq!(format_value(&map, ValueLimits::SAMPLE), "{:k1 1 :k2 2 :k3 3 ...}");
    }

    #[test]
    fn trn_004_rule_applies_at_every_depth() {
        let nested = Value::vector(vec![ints(5), ints(2)]);
        assert_eq!(format_value(&nested, ValueLimits::SAMPLE), "[[1 2 3 ...] (5 items, showing first 3) [1 2]]");
    }

    #[test]
    fn sam_003_clojure_syntax() {
        let m =
            Value::map(vec![(Value::keyword("name"), Value::string("Alice")), (Value::keyword("age"), Value::int(30))]);
        assert_eq!(format_value(&m, ValueLimits::SAMPLE), r#"{:name "Alice" :age 30}"#);
        assert_eq!(format_value(&Value::set(vec![Value::int(1), Value::int(2)]), ValueLimits::SAMPLE), "#{1 2}");
        assert_eq!(format_value(&Value::keyword("kw"), ValueLimits::SAMPLE), ":kw");
        assert_eq!(format_value(&Value::nil(), ValueLimits::SAMPLE), "nil");
        assert_eq!(format_value(&Value::string("a\"b\nc"), ValueLimits::SAMPLE), r#""a\"b\nc""#);
        assert_eq!(format_value(&Value::var("x"), ValueLimits::SAMPLE), "#'x");
    }

    #[test]
    fn trn_005_long_strings_end_with_dots_inside_quotes() {
        let s = "very long text ".repeat(10);
        let out = format_value(&Value::string(s), ValueLimits { items: 3, chars: 10 });
        assert_eq!(out, "\"very long ...\"");
    }

    #[test]
    fn nested_map_entries_share_the_string_budget() {
        let m = Value::map(vec![
            (Value::keyword("a"), Value::string("x".repeat(100))),
            (Value::keyword("b"), Value::string("y".repeat(100))),
        ]);
        let top = format!("{{:a \"{}...\" :b \"{}...\"}}", "x".repeat(80), "y".repeat(80));
        assert_eq!(format_value(&m, ValueLimits::SAMPLE), top, "top-level entries keep the whole budget");
        let nested = format!("[{{:a \"{}...\" :b \"{}...\"}}]", "x".repeat(40), "y".repeat(40));
        assert_eq!(format_value(&Value::vector(vec![m]), ValueLimits::SAMPLE), nested);
        // Never below 20 characters per string, and short strings are untouched.
        let wide =
            Value::map((0..3).map(|i| (Value::keyword(format!("k{i}")), Value::string("z".repeat(30)))).collect());
        let out = format_value(&Value::vector(vec![wide]), ValueLimits { items: 3, chars: 30 });
        assert_eq!(out.matches(&format!("\"{}...\"", "z".repeat(20))).count(), 3, "{out}");
        let short = Value::vector(vec![Value::map(vec![(Value::keyword("name"), Value::string("Alice"))])]);
        assert_eq!(format_value(&short, ValueLimits::SAMPLE), "[{:name \"Alice\"}]");
    }

    #[test]
    fn truncation_never_splits_a_character() {
        let s = "日本語のテキスト🎉🎉🎉e\u{301}";
        assert_eq!(quote_str(s, 9), "\"日本語のテキスト🎉...\"");
        assert_eq!(quote_str(s, 12), "\"日本語のテキスト🎉🎉🎉e...\"");
    }

    #[test]
    fn strings_escape_like_the_lisp_printer() {
        // One set of escapes: backspace and form feed too, as Clojure's pr-str.
        assert_eq!(quote_str("a\u{8}b\u{c}\u{1}", 10), "\"a\\bb\\f\u{1}\"");
        assert_eq!(format_float(1e20), "1.0E20");
    }

    #[test]
    fn sample_stays_bounded_for_wide_and_deep_values() {
        let long = Value::string("x".repeat(10_000));
        let row = Value::map((0..10).map(|i| (Value::keyword(format!("field{i}")), long.clone())).collect());
        let wide = Value::vector(vec![row.clone(), row.clone(), row]);
        let out = format_value(&wide, ValueLimits::SAMPLE);
        assert!(out.chars().count() <= 320, "{} chars: {out}", out.len());
        assert!(out.contains("..."));

        let mut deep = Value::vector(vec![long]);
        for _ in 0..200 {
            deep = Value::vector(vec![deep, Value::string("y".repeat(100)), ints(5)]);
        }
        let out = format_value(&deep, ValueLimits::SAMPLE);
        assert!(out.chars().count() <= 400, "{} chars: {out}", out.len());
    }

    #[test]
    fn huge_collection_is_cheap_to_sample() {
        let big = Value::vector((0..1_000_000).map(Value::int).collect());
        assert_eq!(format_value(&big, ValueLimits::SAMPLE), "[0 1 2 ...] (1000000 items, showing first 3)");
    }
}
