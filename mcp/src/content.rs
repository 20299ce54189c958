//! A `tools/call` result (as JSON, the wire form of rmcp's `CallToolResult`)
//! to the value a program gets, or the tool's error.
//!
//! - `isError: true`: the text of its content is the error message, on one
//!   line (runs of whitespace, newlines included, as one space);
//! - `structuredContent`: that value;
//! - otherwise the content blocks: a text block that holds a JSON object or
//!   array is that JSON (servers commonly answer JSON as text), any other
//!   text is a string; an image or audio block is a string naming its type
//!   and size; an embedded resource is its text (or its URI); a resource
//!   link is its URI. One block is its value, several a list, none `nil`.

use serde_json::Value as Json;

/// The program's value of `result`, or the tool's error message.
pub fn to_value(result: &Json) -> Result<Json, String> {
    let blocks: Vec<Json> =
        result.get("content").and_then(Json::as_array).map(|c| c.iter().map(block).collect()).unwrap_or_default();
    if result.get("isError").and_then(Json::as_bool) == Some(true) {
        let text: Vec<String> =
            blocks.iter().map(|b| b.as_str().map_or_else(|| b.to_string(), str::to_string)).collect();
        // One line, like every error ptc shows (pydantic's messages span several).
        let text = text.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
        return Err(if text.is_empty() { "the tool reported an error without a message".into() } else { text });
    }
    if let Some(structured) = result.get("structuredContent").filter(|s| !s.is_null()) {
        return Ok(structured.clone());
    }
    Ok(match blocks.len() {
        0 => Json::Null,
        1 => blocks.into_iter().next().unwrap_or(Json::Null),
        _ => Json::Array(blocks),
    })
}

fn block(b: &Json) -> Json {
    let field = |k: &str| b.get(k).and_then(Json::as_str).unwrap_or_default();
    match field("type") {
        "text" => text_value(field("text")),
        "image" | "audio" => {
            let bytes = field("data").len() / 4 * 3;
            Json::String(format!("[{} {}, about {bytes} bytes]", field("type"), field("mimeType")))
        }
        "resource" => {
            let r = b.get("resource").cloned().unwrap_or_default();
            match r.get("text").and_then(Json::as_str) {
                Some(t) => text_value(t),
                None => Json::String(format!("[resource {}]", r.get("uri").and_then(Json::as_str).unwrap_or("?"))),
            }
        }
        "resource_link" => Json::String(field("uri").to_string()),
        other => Json::String(format!("[{other} content]")),
    }
}

fn text_value(t: &str) -> Json {
    let trimmed = t.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        if let Ok(v @ (Json::Object(_) | Json::Array(_))) = serde_json::from_str::<Json>(t) {
            return v;
        }
    }
    Json::String(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn structured_text_json_and_errors() {
        let r = json!({"content": [{"type": "text", "text": "{\"a\":1}"}], "structuredContent": {"a": 1}});
        assert_eq!(to_value(&r), Ok(json!({"a": 1})));
        assert_eq!(to_value(&json!({"content": [{"type": "text", "text": "[1, 2]"}]})), Ok(json!([1, 2])));
        assert_eq!(to_value(&json!({"content": [{"type": "text", "text": "42"}]})), Ok(json!("42")));
        assert_eq!(to_value(&json!({"content": [{"type": "text", "text": "{not json"}]})), Ok(json!("{not json")));
        let two = json!({"content": [{"type": "text", "text": "a"}, {"type": "resource_link", "uri": "file:///x", "name": "x"}]});
        assert_eq!(to_value(&two), Ok(json!(["a", "file:///x"])));
        assert_eq!(to_value(&json!({"content": []})), Ok(Json::Null));
        let image = json!({"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]});
        assert_eq!(to_value(&image), Ok(json!("[image image/png, about 3 bytes]")));
        let err = json!({"isError": true, "content": [{"type": "text", "text": "no such file"}]});
        assert_eq!(to_value(&err), Err("no such file".into()));
        // The Python SDK's argument errors (pydantic's) span lines.
        let lines = json!({"isError": true, "content": [
            {"type": "text", "text": "Error executing tool plan: 1 validation error for planArguments\nstops.0.nights\n  Input should be greater than or equal to 1"},
            {"type": "text", "text": "see\tabove\n"}]});
        assert_eq!(
            to_value(&lines),
            Err("Error executing tool plan: 1 validation error for planArguments stops.0.nights Input should be greater than or equal to 1 see above".into())
        );
        assert_eq!(
            to_value(&json!({"isError": true, "content": []})),
            Err("the tool reported an error without a message".into())
        );
    }
}
