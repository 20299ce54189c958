//! The one-turn summary format: what one successful turn did, as
//! `;`-comment lines that replace its ASSISTANT message (FMT-001..011,
//! `docs/spec/strategies.md`, per-turn-summary).
//!
//! ```text
//! ; Tool calls:
//! ;   search({:q "rust"}) x2
//! ; Function: score - "Scores a hit"
//! ; Defined: hits = list[12]
//! ; Output:
//! found 12 hits
//! ```

use ptc_plugin_api::render::{clean_docstring, memory_of, tool_call_lines, type_and_sample, ValueLimits};
use ptc_plugin_api::{Definition, ToolCall, Turn};

/// FMT-003: the line of a summary whose turn made no tool call and showed
/// nothing else.
pub const NO_TOOL_CALLS: &str = "; No tool calls made";

/// `; Function: {name}` (FMT-005), or with ` - "{doc}"` (FMT-004).
pub fn function_summary_line(def: &Definition) -> String {
    match def.docstring() {
        Some(doc) => format!("; Function: {} - \"{}\"", def.name(), clean_docstring(doc)),
        None => format!("; Function: {}", def.name()),
    }
}

/// `; Defined: {name} [- "{doc}"] = {type}[, sample: {sample}]` (FMT-006..008,
/// DEF-003/004: nil and empty values never get a sample).
pub fn defined_summary_line(def: &Definition, show_sample: bool, sample: ValueLimits) -> String {
    let doc = def.docstring().map(|d| format!(" - \"{}\"", clean_docstring(d))).unwrap_or_default();
    format!("; Defined: {}{doc} = {}", def.name(), type_and_sample(def.value(), show_sample, sample))
}

/// The summary of one successful turn, in the order tool calls, functions,
/// defined values, output (FMT-011); empty parts are left out (FMT-012).
///
/// `calls` and `prints` are what to show of the turn's tool calls and
/// println calls (a strategy with limits passes the most recent ones).
/// Definitions are the turn's own, folded so a name redefined within the
/// turn shows its final value once (DEF-001). Samples are shown only when
/// the turn printed nothing (SAM-001/002: samples or println, not both). A
/// turn with nothing to show reads [`NO_TOOL_CALLS`], so the message is
/// never empty.
pub fn turn_summary(turn: &Turn, calls: &[&ToolCall], prints: &[&str], sample: ValueLimits) -> String {
    let mut lines: Vec<String> = Vec::new();
    if !calls.is_empty() {
        lines.push("; Tool calls:".to_string());
        lines.extend(tool_call_lines(calls).into_iter().map(|l| format!(";   {l}")));
    }
    let defs = memory_of(std::slice::from_ref(turn));
    let show_samples = turn.prints().len() == 0;
    lines.extend(defs.iter().filter(|d| d.is_function()).map(|d| function_summary_line(d)));
    lines.extend(defs.iter().filter(|d| !d.is_function()).map(|d| defined_summary_line(d, show_samples, sample)));
    if !prints.is_empty() {
        lines.push("; Output:".to_string());
        lines.extend(prints.iter().map(|p| p.to_string()));
    }
    if lines.is_empty() {
        lines.push(NO_TOOL_CALLS.to_string());
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::{FnDesc, Value};

    fn call(name: &str, q: &str) -> ToolCall {
        ToolCall::new(name, Value::map(vec![(Value::keyword("q"), Value::string(q))]), Ok(Value::nil()), 0)
    }

    #[test]
    fn sections_in_seed_order_fmt_001_to_011() {
        let turn = Turn::new(1, "r", Some("p".into()))
            .with_tool_calls(vec![call("search", "a"), call("search", "a"), call("fetch", "b")])
            .with_definitions(vec![
                Definition::new("hits", Value::vector(vec![Value::int(1), Value::int(2)]), Some("All; hits".into())),
                Definition::new("score", Value::function(FnDesc::new("score", vec!["h".into()])), None),
                Definition::new("hits", Value::vector(vec![Value::int(3)]), None),
            ])
            .with_prints(vec!["found 2\nok".into()]);
        let calls: Vec<&ToolCall> = turn.tool_calls().iter().collect();
        let prints: Vec<&str> = turn.prints().collect();
        assert_eq!(
            turn_summary(&turn, &calls, &prints, ValueLimits::SAMPLE),
            "; Tool calls:\n;   search({:q \"a\"}) x2\n;   fetch({:q \"b\"})\n; Function: score\n\
             ; Defined: hits = list[1]\n; Output:\nfound 2\nok"
        );
    }

    #[test]
    fn samples_only_without_println_and_docstrings_cleaned() {
        let turn = Turn::new(1, "r", None).with_definitions(vec![
            Definition::new("n", Value::nil(), None),
            Definition::new("xs", Value::vector((0..5).map(Value::int).collect()), Some("Some; ints".into())),
            Definition::new("f", Value::function(FnDesc::new("f", vec![])), Some("Does; it".into())),
        ]);
        assert_eq!(
            turn_summary(&turn, &[], &[], ValueLimits::SAMPLE),
            "; Function: f - \"Does it\"\n; Defined: n = nil\n\
             ; Defined: xs - \"Some ints\" = list[5], sample: [0 1 2 ...] (5 items, showing first 3)"
        );
    }

    #[test]
    fn empty_turn_says_no_tool_calls() {
        assert_eq!(turn_summary(&Turn::new(1, "r", None), &[], &[], ValueLimits::SAMPLE), NO_TOOL_CALLS);
    }
}
