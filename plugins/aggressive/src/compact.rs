//! Terse variants of the coalesced sections: what aggressive shows under a
//! tight token budget.

use ptc_plugin_api::render::{
    attempt_section, function_signature, pad, program_or_unknown, tool_line, type_label, Signature, ValueLimits,
    DATA_HEADER, TOOLS_HEADER, USER_HEADER,
};
use ptc_plugin_api::{DataEntry, Definition, Stats, ToolSpec, Turn};

/// `text` cut to `limit` characters (never inside a UTF-8 character), with
/// ` ... (cut, N chars)` appended when it was cut.
pub fn cut_chars(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        None => text.to_string(),
        Some((at, _)) => format!("{} ... (cut, {} chars)", &text[..at], text.chars().count()),
    }
}

/// The first `lines` lines of `program`, then a `;; ... (N more lines cut)`
/// line saying where it was cut.
pub fn cut_lines(program: &str, lines: usize) -> String {
    let total = program.lines().count();
    if total <= lines {
        return program.to_string();
    }
    let mut kept: Vec<&str> = program.lines().take(lines).collect();
    let note = format!(";; ... ({} more lines cut)", total - lines);
    kept.push(&note);
    kept.join("\n")
}

/// The error section of a failed turn with its program cut to `lines`
/// lines; the error message stays verbatim.
pub fn cut_error_section(turn: &Turn, lines: usize) -> String {
    let message = turn.error().map(|e| e.message()).unwrap_or("unknown error");
    attempt_section(&cut_lines(program_or_unknown(turn), lines), message)
}

/// The `tool/` section without descriptions or example line: one
/// `tool/{name}({params}) -> {return}` per tool, in name order.
pub fn compact_tools_section(tools: &[ToolSpec]) -> String {
    if tools.is_empty() {
        return ";; No tools available".to_string();
    }
    let mut sorted: Vec<&ToolSpec> = tools.iter().collect();
    sorted.sort_by(|a, b| a.name().cmp(b.name()));
    let mut out = String::from(TOOLS_HEADER);
    for tool in sorted {
        out.push('\n');
        out.push_str(&tool_line(tool, &Signature::of(tool)));
    }
    out
}

/// The `data/` section in name order; the first `with_samples` entries
/// carry a sample (`; {type}, sample: ...`), the rest their type only.
/// `None` without data.
pub fn compact_data_section(data: &[DataEntry], with_samples: usize, sample: ValueLimits) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let mut sorted: Vec<&DataEntry> = data.iter().collect();
    sorted.sort_by(|a, b| a.name().cmp(b.name()));
    let mut out = String::from(DATA_HEADER);
    for (i, entry) in sorted.into_iter().enumerate() {
        let name = format!("data/{}", entry.name());
        let text = ptc_plugin_api::render::type_and_sample(entry.value(), i < with_samples, sample);
        out.push_str(&format!("\n{}; {text}", pad(&name)));
    }
    Some(out)
}

/// One terse `user/` line: `(name [params]) -> type` for a function,
/// `name ; = type` for a value; no docstring, no sample.
pub fn compact_definition_line(def: &Definition) -> String {
    match def.value().as_function() {
        Some(f) => {
            let ret = f.return_type().map(|t| format!(" -> {t}")).unwrap_or_default();
            format!("{}{ret}", function_signature(def.name(), def))
        }
        None => format!("{}; = {}", pad(def.name()), type_label(def.value())),
    }
}

/// The terse `user/` section: functions first, then values, in the order
/// given; `hidden` older entries left out are announced in a last line.
/// `None` when there is nothing to say.
pub fn compact_user_section(memory: &[&Definition], hidden: usize) -> Option<String> {
    if memory.is_empty() && hidden == 0 {
        return None;
    }
    let mut out = String::from(USER_HEADER);
    let (functions, values): (Vec<&&Definition>, Vec<&&Definition>) = memory.iter().partition(|d| d.is_function());
    for def in functions.into_iter().chain(values) {
        out.push('\n');
        out.push_str(&compact_definition_line(def));
    }
    if hidden > 0 {
        out.push_str(&format!("\n;; ({hidden} older definitions not shown)"));
    }
    Some(out)
}

/// The output section: the most recent `limit` println calls of successful
/// `turns`, each cut to `char_limit` characters; fills the println stats.
/// `None` when nothing is shown.
pub fn compact_output_section(turns: &[Turn], limit: usize, char_limit: usize, stats: &mut Stats) -> Option<String> {
    let shown = ptc_plugin_api::render::recent_prints(turns, limit, stats);
    if shown.is_empty() {
        return None;
    }
    let cut: Vec<String> = shown.iter().map(|p| cut_chars(p, char_limit)).collect();
    Some(format!(";; Output:\n{}", cut.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::{FnDesc, TurnError, Value};

    #[test]
    fn cuts_say_where() {
        assert_eq!(cut_chars("héllo", 10), "héllo");
        assert_eq!(cut_chars("héllo world", 2), "hé ... (cut, 11 chars)");
        assert_eq!(cut_lines("a\nb\nc", 3), "a\nb\nc");
        assert_eq!(cut_lines("a\nb\nc\nd", 2), "a\nb\n;; ... (2 more lines cut)");
        let t = Turn::new(1, "r", Some("(a)\n(b)".into())).with_error(TurnError::new("x", "boom"));
        assert_eq!(
            cut_error_section(&t, 1),
            "---\nYour previous attempt:\n```clojure\n(a)\n;; ... (1 more lines cut)\n```\n\nError: boom\n---"
        );
    }

    #[test]
    fn terse_sections() {
        let tools = [
            ToolSpec::new("search", Some("(q :string) -> [:string]".into()), Some("Searches".into())),
            ToolSpec::new("now", None, None),
        ];
        assert_eq!(
            compact_tools_section(&tools),
            ";; === tool/ ===\ntool/now() -> any\ntool/search(q string) -> [string]"
        );
        let data = [DataEntry::new("b", Value::int(2)), DataEntry::new("a", Value::string("x"))];
        assert_eq!(
            compact_data_section(&data, 1, ValueLimits::SAMPLE).unwrap(),
            ";; === data/ ===\ndata/a                        ; string, sample: \"x\"\ndata/b                        ; integer"
        );
        let f = Definition::new("f", Value::function(FnDesc::new("f", vec!["x".into()])), Some("doc".into()));
        let v = Definition::new("v", Value::vector(vec![]), Some("doc".into()));
        assert_eq!(
            compact_user_section(&[&v, &f], 2).unwrap(),
            ";; === user/ (your prelude) ===\n(f [x])\nv                             ; = list[0]\n;; (2 older definitions not shown)"
        );
    }
}
