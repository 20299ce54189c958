//! A program's arguments in the form the tool's `inputSchema` declares,
//! before they are sent.
//!
//! ptc's signatures and checks are looser than JSON Schema in two ways a
//! strict server (pydantic, in the Python SDK) rejects or, worse, ignores:
//!
//! - a field may be spelled in another case (`:home-city` for the declared
//!   `home_city`), at any depth: sent as written, a server that drops
//!   undeclared fields would silently lose it. Such a key is renamed to the
//!   declared name (unless that name is present too).
//! - `nil` satisfies an optional (`T?`) field, while JSON Schema's
//!   optional means "may be absent": `"tags": null` for a field that is a
//!   list with a default is rejected. A `nil` for a field that is not
//!   `required` and whose schema does not admit `null` is left out; where
//!   the schema admits `null`, it is sent.
//!
//! Everything else passes unchanged: keys the schema does not declare,
//! values of the wrong type (the server names those).

use crate::schema::resolve;
use serde_json::{Map, Value as Json};

/// How many `$ref`s in a row are followed before giving up (a reference cycle).
const MAX_REFS: usize = 8;

/// `args` conformed to `schema` (the tool's `inputSchema`).
pub fn conform(schema: &Json, args: Map<String, Json>) -> Map<String, Json> {
    match alternative(schema, schema, "properties") {
        Some(object) => object_fields(schema, object, args),
        None => args,
    }
}

fn value(root: &Json, schema: &Json, v: Json) -> Json {
    match v {
        Json::Object(map) => match alternative(root, schema, "properties") {
            Some(object) => Json::Object(object_fields(root, object, map)),
            None => Json::Object(map),
        },
        Json::Array(items) => match alternative(root, schema, "items").and_then(|a| a.get("items")) {
            Some(item) if item.is_object() => Json::Array(items.into_iter().map(|i| value(root, item, i)).collect()),
            _ => Json::Array(items),
        },
        other => other,
    }
}

fn object_fields(root: &Json, schema: &Json, map: Map<String, Json>) -> Map<String, Json> {
    let Some(props) = schema.get("properties").and_then(Json::as_object) else { return map };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Json::as_array)
        .map(|r| r.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    for (key, v) in &map {
        let declared = if props.contains_key(key) {
            Some(key.as_str())
        } else {
            props.keys().find(|p| ptc_signature::same_name(p, key) && !map.contains_key(p.as_str())).map(String::as_str)
        };
        let Some(name) = declared else {
            out.insert(key.clone(), v.clone());
            continue;
        };
        let field = &props[name];
        if v.is_null() && !required.contains(&name) && !accepts_null(root, field) {
            continue;
        }
        out.insert(name.to_string(), value(root, field, v.clone()));
    }
    out
}

/// `schema` with its `$ref`s followed, or of its `anyOf`/`oneOf`
/// alternatives the first that has `key` (`properties`, `items`).
fn alternative<'a>(root: &'a Json, schema: &'a Json, key: &str) -> Option<&'a Json> {
    let schema = follow(root, schema)?;
    if schema.get(key).is_some() {
        return Some(schema);
    }
    ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Json::as_array))
        .flatten()
        .filter_map(|a| follow(root, a))
        .find(|a| a.get(key).is_some())
}

/// `schema` with its `$ref`s followed (`None` for a dangling or cyclic one).
fn follow<'a>(root: &'a Json, mut schema: &'a Json) -> Option<&'a Json> {
    for _ in 0..MAX_REFS {
        if schema.get("$ref").is_none() {
            return Some(schema);
        }
        schema = resolve(root, schema)?;
    }
    None
}

/// Whether `schema` admits `null` (as far as `type`, `enum`, `const`,
/// `anyOf`/`oneOf`/`allOf` and local `$ref`s tell; a reference that
/// cannot be followed admits anything).
fn accepts_null(root: &Json, schema: &Json) -> bool {
    let Some(schema) = follow(root, schema) else { return true };
    let admits =
        |key: &str| schema.get(key).and_then(Json::as_array).map(|alts| alts.iter().any(|a| accepts_null(root, a)));
    let checks = [
        schema.get("type").map(|t| match t {
            Json::String(t) => t == "null",
            Json::Array(ts) => ts.iter().any(|t| t == "null"),
            _ => true,
        }),
        schema.get("enum").and_then(Json::as_array).map(|e| e.contains(&Json::Null)),
        schema.get("const").map(Json::is_null),
        admits("anyOf"),
        admits("oneOf"),
        schema.get("allOf").and_then(Json::as_array).map(|all| all.iter().all(|a| accepts_null(root, a))),
    ];
    checks.into_iter().flatten().all(|ok| ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn conformed(schema: &Json, args: Json) -> Json {
        let Json::Object(map) = args else { panic!("arguments are a map") };
        Json::Object(conform(schema, map))
    }

    /// The shape of what the Python SDK lists for
    /// `plan(traveller: Traveller, stops: list[Stop], note: str | None = None)`.
    fn plan_schema() -> Json {
        json!({"type": "object", "required": ["traveller", "stops"], "properties": {
            "traveller": {"$ref": "#/$defs/Traveller"},
            "stops": {"type": "array", "items": {"$ref": "#/$defs/Stop"}},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null},
            "max_results": {"type": "integer", "default": 10}
        }, "$defs": {
            "Traveller": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"}, "home_city": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
            "Stop": {"type": "object", "required": ["city"], "properties": {
                "city": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}, "default": []}}}
        }})
    }

    #[test]
    fn keys_in_another_case_get_their_declared_names_at_any_depth() {
        let args =
            json!({"traveller": {"name": "Ann", "home-city": "leeds"}, "stops": [{"city": "lyon"}], "maxResults": 2});
        assert_eq!(
            conformed(&plan_schema(), args),
            json!({"traveller": {"name": "Ann", "home_city": "leeds"}, "stops": [{"city": "lyon"}], "max_results": 2})
        );
        // Undeclared keys stay; a declared name that is present is not overwritten.
        let both = json!({"traveller": {"name": "Ann", "home_city": "a", "home-city": "b", "x-y": 1}, "stops": []});
        assert_eq!(conformed(&plan_schema(), both.clone()), both);
    }

    #[test]
    fn nil_for_an_optional_field_that_admits_no_null_is_left_out() {
        let args = json!({"traveller": {"name": "Ann", "home_city": null}, "stops": [{"city": "lyon", "tags": null}],
            "note": null, "max_results": null});
        assert_eq!(
            conformed(&plan_schema(), args),
            json!({"traveller": {"name": "Ann", "home_city": null}, "stops": [{"city": "lyon"}], "note": null})
        );
        // A required field keeps its nil: the server names the mistake.
        assert_eq!(conformed(&plan_schema(), json!({"traveller": null})), json!({"traveller": null}));
    }

    #[test]
    fn what_admits_null() {
        let root = json!({"$defs": {"N": {"type": "null"}, "Loop": {"$ref": "#/$defs/Loop"}}});
        for (schema, admits) in [
            (json!({}), true),
            (json!({"type": "string"}), false),
            (json!({"type": ["string", "null"]}), true),
            (json!({"oneOf": [{"type": "integer"}, {"$ref": "#/$defs/N"}]}), true),
            (json!({"enum": ["a", null]}), true),
            (json!({"enum": ["a"]}), false),
            (json!({"const": null}), true),
            (json!({"allOf": [{"type": "string"}, {}]}), false),
            (json!({"$ref": "#/$defs/Loop"}), true),
        ] {
            assert_eq!(accepts_null(&root, &schema), admits, "{schema}");
        }
    }
}
