//! The validator: does a value have a type? The first mismatch comes back
//! with where it is (`$.items[2].id`), what was expected and what was
//! found.
//!
//! Strict, with the admissions of the original runtime: an integer
//! satisfies `:float`; a map field may be spelled in any case of its name
//! (`:order-count` for `order_count`); nil or absence satisfies a `?` type;
//! a typed map allows fields it does not declare. Where values cross as
//! JSON ([`Shape::KEYWORDS_AS_STRINGS`]), a string may stand for a keyword.
//! `:datetime` is an RFC 3339 timestamp string with its offset
//! (`2024-05-01T09:30:00Z`), PTC-Lisp having no date type.

use crate::types::{Primitive, Type};
use std::fmt;

/// What a value is, as far as checking goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind<'a> {
    /// nil / null
    Nil,
    /// true / false
    Bool,
    /// An integer.
    Int,
    /// A float (possibly not finite).
    Float(f64),
    /// A string.
    Str(&'a str),
    /// A keyword.
    Keyword,
    /// A sequential collection, with its label (`vector`, `list`, `set`, `array`).
    List(&'static str),
    /// A map.
    Map,
    /// Anything else, with its label (`function`).
    Other(&'static str),
}

/// A view of a value the validator can read. Implemented by the host for
/// PTC-Lisp values and for JSON, so this crate depends on neither.
pub trait Shape<'a>: Copy + 'a {
    /// Whether a string may stand for a keyword (values that crossed JSON,
    /// where keywords became strings).
    const KEYWORDS_AS_STRINGS: bool = false;

    /// What the value is.
    fn kind(self) -> Kind<'a>;

    /// The items of a [`Kind::List`], in order (empty for anything else).
    fn items(self) -> Vec<Self>;

    /// The value of the map field declared as `name`, under any key that
    /// names it ([`crate::same_name`]); `None` when absent or not a map.
    fn field(self, name: &str) -> Option<Self>;

    /// A short printed form for messages (a few dozen characters at most).
    fn sample(self) -> String;
}

/// One step of a location: a map field (its declared name) or a list index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// `.name`
    Field(String),
    /// `[i]`
    Index(usize),
}

/// The first place a value does not have its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where, from the checked value down.
    pub path: Vec<Segment>,
    /// The type expected there, in signature syntax (cut when long).
    pub expected: String,
    /// What was found (`string "7"`), or `None` when a required field is missing.
    pub actual: Option<String>,
}

impl Mismatch {
    /// The location as a JSON path: `$`, `$.items[2].id`.
    pub fn location(&self) -> String {
        self.location_under("$")
    }

    /// The location under another root: `args.user.id` for root `args`.
    pub fn location_under(&self, root: &str) -> String {
        let mut out = root.to_string();
        for s in &self.path {
            match s {
                Segment::Field(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                Segment::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    /// `expected :int, got string "7"` or `missing (expected :int)`.
    pub fn what(&self) -> String {
        match &self.actual {
            Some(actual) => format!("expected {}, got {actual}", self.expected),
            None => format!("missing (expected {})", self.expected),
        }
    }
}

/// `at $.items[2].id: expected :int, got string "7"`
impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.location(), self.what())
    }
}

/// Checks `value` against `ty`; the first mismatch, depth first in field
/// and item order.
pub fn check<'a, V: Shape<'a>>(value: V, ty: &Type) -> Result<(), Mismatch> {
    let mut path = Vec::new();
    check_at(value, ty, &mut path).map_err(|(expected, actual)| Mismatch { path, expected, actual })
}

/// The failure at `path`: the expected type's text and what was found.
type Failure = (String, Option<String>);

fn check_at<'a, V: Shape<'a>>(value: V, ty: &Type, path: &mut Vec<Segment>) -> Result<(), Failure> {
    let kind = value.kind();
    let fits = match ty {
        Type::Optional(inner) => {
            return if kind == Kind::Nil { Ok(()) } else { check_at(value, inner, path) };
        }
        Type::Primitive(p) => fits_primitive::<V>(*p, kind),
        Type::List(item) => {
            if !matches!(kind, Kind::List(_)) {
                return Err(failure(ty, value));
            }
            for (i, v) in value.items().into_iter().enumerate() {
                path.push(Segment::Index(i));
                check_at(v, item, path)?;
                path.pop();
            }
            true
        }
        Type::Map(fields) => {
            if kind != Kind::Map {
                return Err(failure(ty, value));
            }
            for f in fields {
                path.push(Segment::Field(f.name.clone()));
                match value.field(&f.name) {
                    Some(v) => check_at(v, &f.ty, path)?,
                    None if f.ty.is_optional() => {}
                    None => return Err((expected_text(&f.ty), None)),
                }
                path.pop();
            }
            true
        }
    };
    if fits {
        Ok(())
    } else {
        Err(failure(ty, value))
    }
}

fn fits_primitive<'a, V: Shape<'a>>(p: Primitive, kind: Kind<'a>) -> bool {
    match (p, kind) {
        (Primitive::Any, _) => true,
        (Primitive::String, Kind::Str(_)) => true,
        (Primitive::Int, Kind::Int) => true,
        (Primitive::Float, Kind::Int) => true,
        (Primitive::Float, Kind::Float(x)) => x.is_finite(),
        (Primitive::Bool, Kind::Bool) => true,
        (Primitive::Keyword, Kind::Keyword) => true,
        (Primitive::Keyword, Kind::Str(s)) => V::KEYWORDS_AS_STRINGS && is_keyword_name(s),
        (Primitive::Datetime, Kind::Str(s)) => is_rfc3339(s),
        (Primitive::Map, Kind::Map) => true,
        _ => false,
    }
}

fn failure<'a, V: Shape<'a>>(ty: &Type, value: V) -> Failure {
    (expected_text(ty), Some(actual_text(value)))
}

/// A type's text for a message, cut at 80 characters.
fn expected_text(ty: &Type) -> String {
    let text = ty.to_string();
    if text.chars().count() > 80 {
        format!("{}...", text.chars().take(77).collect::<String>())
    } else {
        text
    }
}

/// `string "7"`, `float ##NaN`, `map {:a 1}`, `nil`.
fn actual_text<'a, V: Shape<'a>>(value: V) -> String {
    let label = match value.kind() {
        Kind::Nil => return "nil".into(),
        Kind::Bool => "bool",
        Kind::Int => "int",
        Kind::Float(x) if !x.is_finite() => "non-finite float",
        Kind::Float(_) => "float",
        Kind::Str(s) if is_rfc3339(s) => "datetime string",
        Kind::Str(_) => "string",
        Kind::Keyword => "keyword",
        Kind::List(label) | Kind::Other(label) => label,
        Kind::Map => "map",
    };
    format!("{label} {}", value.sample())
}

/// Whether `s` could be a keyword's name (what a keyword became in JSON).
fn is_keyword_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(':')
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && !s.chars().any(|c| c.is_whitespace() || "()[]{}\"',;@^`~\\".contains(c))
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` (RFC 3339; `t`, `z`
/// and a space for `T` accepted, as the RFC allows).
pub(crate) fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |from: usize, n: usize| -> Option<u32> {
        let part = b.get(from..from + n)?;
        part.iter().all(u8::is_ascii_digit).then(|| part.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0')))
    };
    let date_time = (|| {
        let (_year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
        let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
        let separators =
            b[4] == b'-' && b[7] == b'-' && matches!(b[10], b'T' | b't' | b' ') && b[13] == b':' && b[16] == b':';
        (separators && (1..=12).contains(&month) && (1..=31).contains(&day) && hour < 24 && minute < 60 && second <= 60)
            .then_some(())
    })();
    if date_time.is_none() {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let offset = digits(i + 1, 2).zip(digits(i + 4, 2));
            b.get(i + 3) == Some(&b':') && offset.is_some_and(|(h, m)| h < 24 && m < 60) && i + 6 == b.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
