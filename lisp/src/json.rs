//! Conversions between values and JSON, for tool calls.
//!
//! Values cross as JSON with string keys (a keyword key becomes its name);
//! JSON comes back with keyword keys, except a key no keyword can be
//! written as (`"previous import"`, `""`), which stays a string. Both
//! directions refuse nesting deeper than [`MAX_JSON_DEPTH`] instead of
//! recursing without bound.

use crate::value::{Map, Value};
use serde_json::Value as Json;
use std::fmt;

/// Deepest nesting converted in either direction.
pub const MAX_JSON_DEPTH: usize = 512;

/// Why a value has no JSON form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonError {
    /// Nested deeper than [`MAX_JSON_DEPTH`].
    TooDeep,
    /// More than [`MAX_JSON_NODES`] values, or more than
    /// [`MAX_JSON_STRING_BYTES`] bytes of strings and keys (counting shared
    /// ones each time).
    TooLarge,
    /// `##NaN`, `##Inf` or `##-Inf`, as printed.
    NotANumber(String),
    /// A function, as printed.
    Function(String),
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::TooDeep => f.write_str("value nested too deeply to send as JSON"),
            JsonError::TooLarge => write!(
                f,
                "value has more than {MAX_JSON_NODES} elements or {} MiB of text to send as JSON",
                MAX_JSON_STRING_BYTES >> 20
            ),
            JsonError::NotANumber(v) => write!(f, "{v} cannot be sent as JSON"),
            JsonError::Function(v) => write!(f, "function {v} cannot be sent as JSON"),
        }
    }
}

impl std::error::Error for JsonError {}

/// Converts a value to JSON: keywords become strings, sets and lists arrays,
/// map keys strings; functions, `##NaN` and `##Inf` are refused.
pub fn value_to_json(v: &Value) -> Result<Json, JsonError> {
    to_json(v, 0, &mut Budget { nodes: MAX_JSON_NODES, bytes: MAX_JSON_STRING_BYTES })
}

/// Most values converted for one call (a shared structure can unfold to billions).
pub const MAX_JSON_NODES: usize = 1_000_000;

/// Most bytes of strings and keys converted for one call: a 10 MB string
/// held 300 times is 300 values, and 3 GB of JSON.
pub const MAX_JSON_STRING_BYTES: usize = 16 << 20;

/// What a conversion may still produce.
struct Budget {
    nodes: usize,
    bytes: usize,
}

impl Budget {
    /// `s` as JSON text, its bytes taken from the budget.
    fn text(&mut self, s: &str) -> Result<String, JsonError> {
        self.bytes = self.bytes.checked_sub(s.len()).ok_or(JsonError::TooLarge)?;
        Ok(s.to_string())
    }
}

fn to_json(v: &Value, depth: usize, budget: &mut Budget) -> Result<Json, JsonError> {
    if depth > MAX_JSON_DEPTH {
        return Err(JsonError::TooDeep);
    }
    if budget.nodes == 0 {
        return Err(JsonError::TooLarge);
    }
    budget.nodes -= 1;
    Ok(match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(x) => match serde_json::Number::from_f64(*x) {
            Some(n) => Json::Number(n),
            None => return Err(JsonError::NotANumber(v.to_string())),
        },
        Value::Str(s) | Value::Keyword(s) => Json::String(budget.text(s)?),
        Value::Vector(items) | Value::List(items) => {
            Json::Array(items.iter().map(|x| to_json(x, depth + 1, budget)).collect::<Result<_, _>>()?)
        }
        Value::Set(items) => {
            Json::Array(items.iter().map(|x| to_json(x, depth + 1, budget)).collect::<Result<_, _>>()?)
        }
        Value::Map(m) => {
            let mut obj = serde_json::Map::with_capacity(m.len());
            for (k, v) in m.iter() {
                let key = match k {
                    Value::Str(s) | Value::Keyword(s) => budget.text(s)?,
                    other => budget.text(&crate::print::to_string_truncated(other, 1000))?,
                };
                obj.insert(key, to_json(v, depth + 1, budget)?);
            }
            Json::Object(obj)
        }
        Value::Fn(_) => return Err(JsonError::Function(v.to_string())),
    })
}

/// Converts JSON to a value: objects become maps with keyword keys (a key
/// that does not read back as the same keyword, such as one holding a
/// space, stays a string: `(get m "previous import")`), arrays vectors,
/// integral numbers integers (others floats). Nesting past the limit
/// becomes nil.
pub fn json_to_value(j: &Json) -> Value {
    from_json(j, 0)
}

fn from_json(j: &Json, depth: usize) -> Value {
    if depth > MAX_JSON_DEPTH {
        return Value::Nil;
    }
    match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::Str(s.as_str().into()),
        Json::Array(items) => Value::Vector(items.iter().map(|x| from_json(x, depth + 1)).collect()),
        Json::Object(obj) => {
            let m: Map = obj.iter().map(|(k, v)| (key(k), from_json(v, depth + 1))).collect();
            Value::Map(m)
        }
    }
}

/// A JSON object's key as a map key: the keyword when one can be written
/// with that name ([`crate::value::keyword_readable`]), else the string.
fn key(k: &str) -> Value {
    if crate::value::keyword_readable(k) {
        Value::keyword(k)
    } else {
        Value::Str(k.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json() {
        let v = crate::read_edn(r#"{:a [1 2.5 "x" nil true] :b {:c :d}}"#).unwrap();
        let j = value_to_json(&v).unwrap();
        assert_eq!(j.to_string(), r#"{"a":[1,2.5,"x",null,true],"b":{"c":"d"}}"#);
        assert_eq!(json_to_value(&j).to_string(), r#"{:a [1 2.5 "x" nil true] :b {:c "d"}}"#);
    }

    #[test]
    fn keys_no_keyword_can_write_stay_strings() {
        let j: Json =
            serde_json::from_str(r#"{"ok": 1, "2024": 2, "a/b": 3, "previous import": 4, "": 5, ":x": 6, "a,b": 7}"#)
                .unwrap();
        let v = json_to_value(&j);
        let printed = v.to_string();
        assert_eq!(printed, r#"{:ok 1 :2024 2 :a/b 3 "previous import" 4 "" 5 ":x" 6 "a,b" 7}"#);
        assert_eq!(crate::read_edn(&printed).unwrap(), v);
    }

    #[test]
    fn values_without_a_json_form_say_why() {
        let nan = value_to_json(&crate::read_edn("[1 ##NaN]").unwrap()).unwrap_err();
        assert_eq!(nan, JsonError::NotANumber("##NaN".into()));
        assert_eq!(nan.to_string(), "##NaN cannot be sent as JSON");
        assert_eq!(JsonError::TooDeep.to_string(), "value nested too deeply to send as JSON");
    }
}
