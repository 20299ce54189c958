//! Contracts applied: `ptc-signature`'s validator over PTC-Lisp values and
//! JSON, for the three places a run checks a value against a signature:
//! a tool call's arguments and result ([`check_call`], [`check_result`];
//! command tools and any other tool with a parsed signature), an agent's
//! return ([`check_return`]) and its inputs ([`crate::inputs`]). Also the
//! "Expected output" section the system prompt gets from a signature, and
//! the JSON a validated value prints as.

use ptc_lisp::{to_string_truncated, value_to_json, Value};
use ptc_signature::{check, same_name, Field, Kind, Mismatch, Segment, Shape, Signature, Type};
use serde_json::Value as Json;

/// A PTC-Lisp value as the validator sees it.
#[derive(Clone, Copy, Debug)]
pub struct Lisp<'a>(pub &'a Value);

impl<'a> Shape<'a> for Lisp<'a> {
    fn kind(self) -> Kind<'a> {
        match self.0 {
            Value::Nil => Kind::Nil,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Float(x) => Kind::Float(*x),
            Value::Str(s) => Kind::Str(s),
            Value::Keyword(_) => Kind::Keyword,
            Value::Vector(_) => Kind::List("vector"),
            Value::List(_) => Kind::List("list"),
            Value::Set(_) => Kind::List("set"),
            Value::Map(_) => Kind::Map,
            Value::Fn(_) => Kind::Other("function"),
        }
    }

    fn items(self) -> Vec<Self> {
        match self.0 {
            Value::Vector(items) | Value::List(items) => items.iter().map(Lisp).collect(),
            Value::Set(items) => items.iter().map(Lisp).collect(),
            _ => Vec::new(),
        }
    }

    fn field(self, name: &str) -> Option<Self> {
        let Value::Map(m) = self.0 else { return None };
        let direct = [Value::Keyword(name.into()), Value::Str(name.into())];
        if let Some(v) = direct.iter().find_map(|k| m.get(k)) {
            return Some(Lisp(v));
        }
        m.iter()
            .find(|(k, _)| matches!(k, Value::Keyword(s) | Value::Str(s) if same_name(name, s)))
            .map(|(_, v)| Lisp(v))
    }

    fn sample(self) -> String {
        to_string_truncated(self.0, 60)
    }
}

/// A JSON value as the validator sees it (keywords crossed as strings).
#[derive(Clone, Copy, Debug)]
pub struct JsonShape<'a>(pub &'a Json);

impl<'a> Shape<'a> for JsonShape<'a> {
    const KEYWORDS_AS_STRINGS: bool = true;

    fn kind(self) -> Kind<'a> {
        match self.0 {
            Json::Null => Kind::Nil,
            Json::Bool(_) => Kind::Bool,
            Json::Number(n) if n.is_i64() || n.is_u64() => Kind::Int,
            Json::Number(n) => Kind::Float(n.as_f64().unwrap_or(f64::NAN)),
            Json::String(s) => Kind::Str(s),
            Json::Array(_) => Kind::List("array"),
            Json::Object(_) => Kind::Map,
        }
    }

    fn items(self) -> Vec<Self> {
        match self.0 {
            Json::Array(items) => items.iter().map(JsonShape).collect(),
            _ => Vec::new(),
        }
    }

    fn field(self, name: &str) -> Option<Self> {
        let Json::Object(m) = self.0 else { return None };
        m.get(name).or_else(|| m.iter().find(|(k, _)| same_name(name, k)).map(|(_, v)| v)).map(JsonShape)
    }

    fn sample(self) -> String {
        let text = self.0.to_string();
        if text.chars().count() > 60 {
            format!("{}...", text.chars().take(60).collect::<String>())
        } else {
            text
        }
    }
}

/// The inputs of a signature as one map type (`{query :string, limit :int}`):
/// what a tool's argument map must have.
pub fn params_type(signature: &Signature) -> Type {
    Type::Map(signature.params.clone())
}

/// Checks a tool call's argument map against the tool's signature before
/// the call. The error names the tool, the argument, and the expected and
/// actual types; the tool was not called.
pub fn check_call(tool: &str, signature: &Signature, args: &Json) -> Result<(), String> {
    if signature.params.is_empty() {
        return Ok(());
    }
    let takes = format!("tool/{tool} takes {{{}}}", signature.params_text());
    if !args.is_object() {
        return Err(format!("{takes}: a map of arguments, got {}; the tool was not called", JsonShape(args).sample()));
    }
    check(JsonShape(args), &params_type(signature)).map_err(|m| {
        let argument = match m.path.first() {
            Some(Segment::Field(name)) => name.clone(),
            _ => String::new(),
        };
        let nested = if m.path.len() > 1 {
            format!(" at {}", m.location_under("").trim_start_matches('.'))
        } else {
            String::new()
        };
        let given = match (&m.actual, args.as_object()) {
            (None, Some(obj)) => {
                let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
                format!("; it was given {}", if keys.is_empty() { "no arguments".into() } else { keys.join(", ") })
            }
            _ => String::new(),
        };
        format!("argument `{argument}`{nested}: {}{given} ({takes}); the tool was not called", m.what())
    })
}

/// Checks what a tool returned against its signature's output type.
pub fn check_result(signature: &Signature, result: &Json) -> Result<(), String> {
    check(JsonShape(result), &signature.output)
        .map_err(|m| format!("its result does not match its signature (-> {}): {m}", short(&signature.output)))
}

/// Checks a returned value against the agent's output type.
pub fn check_return(signature: &Signature, value: &Value) -> Result<(), Mismatch> {
    check(Lisp(value), &signature.output)
}

/// The message the model gets for a return that does not match: where,
/// what was expected and found, and the whole expected type.
pub fn return_feedback(signature: &Signature, mismatch: &Mismatch, value: &Value) -> String {
    format!(
        "The returned value does not match the signature: {mismatch}. Expected {}. You returned {}. Fix the value and return it again.",
        signature.output,
        to_string_truncated(value, 200)
    )
}

/// A type's text for a one-line message, cut at 120 characters.
pub(crate) fn short(ty: &Type) -> String {
    let text = ty.to_string();
    if text.chars().count() > 120 {
        format!("{}...", text.chars().take(117).collect::<String>())
    } else {
        text
    }
}

/// The JSON of a validated value: a typed map's fields under their
/// declared names (`:order-count` prints as `"order_count"`), everything
/// else as [`value_to_json`].
pub fn public_json(value: &Value, ty: &Type) -> Result<Json, String> {
    match (ty, value) {
        (Type::Optional(inner), _) => public_json(value, inner),
        (Type::List(item), Value::Vector(items) | Value::List(items)) => {
            items.iter().map(|v| public_json(v, item)).collect::<Result<Vec<_>, _>>().map(Json::Array)
        }
        (Type::List(item), Value::Set(items)) => {
            items.iter().map(|v| public_json(v, item)).collect::<Result<Vec<_>, _>>().map(Json::Array)
        }
        (Type::Map(fields), Value::Map(m)) => {
            let mut obj = serde_json::Map::with_capacity(m.len());
            for (k, v) in m.iter() {
                let declared = match k {
                    Value::Keyword(s) | Value::Str(s) => declared_field(fields, s),
                    _ => None,
                };
                let (key, json) = match (declared, k) {
                    (Some(f), _) => (f.name.clone(), public_json(v, &f.ty)?),
                    (None, Value::Keyword(s) | Value::Str(s)) => {
                        (s.to_string(), value_to_json(v).map_err(|e| e.to_string())?)
                    }
                    (None, other) => (to_string_truncated(other, 1000), value_to_json(v).map_err(|e| e.to_string())?),
                };
                obj.insert(key, json);
            }
            Ok(Json::Object(obj))
        }
        _ => value_to_json(value).map_err(|e| e.to_string()),
    }
}

fn declared_field<'f>(fields: &'f [Field], key: &str) -> Option<&'f Field> {
    fields.iter().find(|f| f.name == key).or_else(|| fields.iter().find(|f| same_name(&f.name, key)))
}

/// The system prompt's "Expected output" section (and, with inputs, the
/// inputs the program reads): what the run will check.
pub fn expected_output_section(signature: &Signature, single_shot: bool) -> String {
    let how = if single_shot {
        "Answer with one program: the value of its last expression is the result (`(return value)` works too). It must match:"
    } else {
        "Finish with `(return value)`, where value matches:"
    };
    let mut text = format!(
        "## Expected output\n{how}\n{}\n`{{key type}}` is a map with at least those keys (`:order-count` names `order_count`), \
         `[type]` a vector of that type, `?` allows nil or a missing key; an integer is a valid :float. \
         A value that does not match comes back to you with where it differs.",
        signature.output
    );
    if !signature.params.is_empty() {
        let inputs: Vec<String> = signature.params.iter().map(|p| format!("data/{} {}", p.name, p.ty)).collect();
        text.push_str(&format!("\n\n## Inputs\n{}", inputs.join(", ")));
    }
    text
}
