//! JSON Schema (an MCP tool's `inputSchema` / `outputSchema`) to the
//! signature text ptc shows the model: `(city :string, limit :int?) -> {city :string}`.
//!
//! | JSON Schema | signature type |
//! |---|---|
//! | `string` (with or without `enum`) | `:string` |
//! | `integer` / `number` / `boolean` / `null` | `:int` / `:float` / `:bool` / `:nil` |
//! | `array` of `items` | `[T]` (`[:any]` without `items`) |
//! | `object` with `properties` | `{field T, other T?}` (not `required`: `?`) |
//! | `object` without `properties` | `:map` |
//! | `["T", "null"]`, `anyOf`/`oneOf` of T and `null` | `T?` |
//! | other `anyOf`/`oneOf`, no `type`, `$ref` beyond the document | `:any` |
//!
//! `$ref`s into the schema's own `$defs` / `definitions` are followed.
//! Records nest at most [`MAX_DEPTH`] levels, a reference counting as one
//! (deeper ones are `:map`), so a recursive schema ends and a signature
//! stays one short line. A parameter whose name the signature grammar
//! cannot spell (only letters, digits, `-`, `_`, `*`, `!`, `?`) is left out
//! of the signature and named in [`Converted::unspellable`], which the
//! description then mentions.

use serde_json::Value as Json;

/// How deep records nest before they are shown as `:map`.
pub const MAX_DEPTH: usize = 3;

/// A tool's signature and what it could not show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The signature text, e.g. `(city :string) -> :any`.
    pub signature: String,
    /// Parameters left out because the grammar cannot spell their names.
    pub unspellable: Vec<String>,
}

/// The signature of a tool with these schemas.
pub fn signature(input: &Json, output: Option<&Json>) -> Converted {
    let root = input;
    let required = required(input);
    let mut params = Vec::new();
    let mut unspellable = Vec::new();
    if let Some(props) = input.get("properties").and_then(Json::as_object) {
        for (name, schema) in props {
            if !spellable(name) {
                unspellable.push(name.clone());
                continue;
            }
            let t = ty(root, schema, 0);
            params.push(format!("{name} {}", if required.contains(&name.as_str()) { t } else { optional(t) }));
        }
    }
    let returns = output.map_or_else(|| ":any".to_string(), |o| ty(o, o, 0));
    Converted { signature: format!("({}) -> {returns}", params.join(", ")), unspellable }
}

fn required(schema: &Json) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Json::as_array)
        .map(|r| r.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default()
}

/// Whether the signature grammar reads `name` as one identifier.
fn spellable(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('?')
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || b"-_*!?".contains(&c))
}

/// Follows a `#/$defs/X` or `#/definitions/X` reference inside `root`.
pub(crate) fn resolve<'a>(root: &'a Json, schema: &'a Json) -> Option<&'a Json> {
    let reference = schema.get("$ref")?.as_str()?;
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

fn ty(root: &Json, schema: &Json, depth: usize) -> String {
    if let Some(target) = resolve(root, schema) {
        // Each reference followed counts as a level: a recursive schema ends.
        return if depth >= MAX_DEPTH { ":map".into() } else { ty(root, target, depth + 1) };
    }
    if schema.get("$ref").is_some() {
        return ":any".into();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = schema.get(key).and_then(Json::as_array) {
            let real: Vec<&Json> = alternatives.iter().filter(|a| a.get("type") != Some(&Json::from("null"))).collect();
            return match real.as_slice() {
                [one] if real.len() < alternatives.len() => nullable(ty(root, one, depth)),
                [one] => ty(root, one, depth),
                _ => ":any".into(),
            };
        }
    }
    match schema.get("type") {
        Some(Json::String(t)) => named(root, schema, t, depth),
        Some(Json::Array(types)) => {
            let real: Vec<&str> = types.iter().filter_map(Json::as_str).filter(|t| *t != "null").collect();
            match real.as_slice() {
                [one] if real.len() < types.len() => nullable(named(root, schema, one, depth)),
                [one] => named(root, schema, one, depth),
                _ => ":any".into(),
            }
        }
        _ if schema.get("properties").is_some() => named(root, schema, "object", depth),
        _ if schema.get("enum").and_then(Json::as_array).is_some_and(|e| e.iter().all(Json::is_string)) => {
            ":string".into()
        }
        _ => ":any".into(),
    }
}

/// A field that may be left out: `T?`, once (a nullable `T?` stays `T?`).
fn optional(t: String) -> String {
    if t.ends_with('?') {
        t
    } else {
        format!("{t}?")
    }
}

fn nullable(t: String) -> String {
    if t.ends_with('?') || t == ":any" {
        t
    } else {
        format!("{t}?")
    }
}

fn named(root: &Json, schema: &Json, t: &str, depth: usize) -> String {
    match t {
        "string" => ":string".into(),
        "integer" => ":int".into(),
        "number" => ":float".into(),
        "boolean" => ":bool".into(),
        "null" => ":nil".into(),
        "array" => match schema.get("items") {
            Some(items) if items.is_object() => format!("[{}]", ty(root, items, depth)),
            _ => "[:any]".into(),
        },
        "object" => {
            let props = schema.get("properties").and_then(Json::as_object);
            match props {
                Some(props) if !props.is_empty() && depth < MAX_DEPTH => {
                    let required = required(schema);
                    let fields: Vec<String> = props
                        .iter()
                        .filter(|(name, _)| spellable(name))
                        .map(|(name, s)| {
                            let t = ty(root, s, depth + 1);
                            format!("{name} {}", if required.contains(&name.as_str()) { t } else { optional(t) })
                        })
                        .collect();
                    if fields.is_empty() {
                        ":map".into()
                    } else {
                        format!("{{{}}}", fields.join(", "))
                    }
                }
                _ => ":map".into(),
            }
        }
        _ => ":any".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sig(input: Json) -> String {
        signature(&input, None).signature
    }

    #[test]
    fn scalar_parameters_required_and_optional() {
        let input = json!({"type": "object", "properties": {
            "path": {"type": "string"}, "limit": {"type": "integer"}, "ratio": {"type": "number"},
            "recursive": {"type": "boolean"}, "mode": {"enum": ["a", "b"]}
        }, "required": ["path"]});
        assert_eq!(sig(input), "(path :string, limit :int?, ratio :float?, recursive :bool?, mode :string?) -> :any");
        assert_eq!(sig(json!({"type": "object"})), "() -> :any");
        assert_eq!(sig(json!({})), "() -> :any");
    }

    #[test]
    fn arrays_records_and_nullable_types() {
        let input = json!({"type": "object", "required": ["paths", "edit", "note", "when"], "properties": {
            "paths": {"type": "array", "items": {"type": "string"}},
            "edit": {"type": "object", "properties": {"old_text": {"type": "string"}, "dry-run": {"type": "boolean"}}, "required": ["old_text"]},
            "note": {"type": ["string", "null"]},
            "when": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "any": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "loose": {"type": "array"},
            "bag": {"type": "object", "additionalProperties": true}
        }});
        assert_eq!(
            sig(input),
            "(paths [:string], edit {old_text :string, dry-run :bool?}, note :string?, when :int?, any :any?, loose [:any]?, bag :map?) -> :any"
        );
    }

    #[test]
    fn an_optional_nullable_field_is_marked_optional_once() {
        // What pydantic (the Python SDK) writes for `note: str | None = None`, here and in a model.
        let nullable = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null});
        let input = json!({"type": "object", "properties": {
            "note": nullable,
            "when": {"type": ["integer", "null"]},
            "who": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "home": nullable}}
        }});
        assert_eq!(sig(input), "(note :string?, when :int?, who {name :string, home :string?}?) -> :any");
    }

    #[test]
    fn references_are_followed_and_recursion_ends() {
        let input = json!({"type": "object", "required": ["node"], "properties": {"node": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer"}, "child": {"$ref": "#/$defs/Node"}}}}});
        assert_eq!(sig(input), "(node {id :int, child :map?}) -> :any");
        let elsewhere = json!({"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}});
        assert_eq!(sig(elsewhere), "(x :any?) -> :any");
    }

    #[test]
    fn unspellable_names_are_reported_and_the_result_parses() {
        let input = json!({"type": "object", "properties": {"a.b": {"type": "string"}, "ok": {"type": "string"}}});
        let converted = signature(&input, Some(&json!({"type": "object", "properties": {"n": {"type": "integer"}}})));
        assert_eq!(converted.signature, "(ok :string?) -> {n :int?}");
        assert_eq!(converted.unspellable, ["a.b"]);
    }
}
