//! `strategies.toml` text: the shipped file with lines dropped, doubled or
//! rewritten, TOML values of every type put in place of real ones, and
//! text of any kind.

use proptest::prelude::*;

/// A TOML value, valid or not.
pub fn value() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "1",
        "-1",
        "0",
        "9223372036854775807",
        "9223372036854775808",
        "1.5",
        "nan",
        "inf",
        "true",
        "\"\"",
        "\"x\"",
        "\"../../nowhere\"",
        "[]",
        "[\"a\", 1]",
        "{}",
        "{ turns = 3 }",
        "{ turns = -1, tokens = 0 }",
        "{ x = 1 }",
        "1979-05-27",
        "'''\nx'''",
        "\"\\u0000\"",
        "[[1]]",
        "\"full-history\"",
        "[\"b\", \"full-history\"]",
        "{ turns = 3",
        "\"unterminated",
        "= 2",
        "",
    ])
    .prop_map(str::to_string)
}

/// How one line is changed.
#[derive(Debug, Clone)]
pub enum Edit {
    /// The line is dropped.
    Drop,
    /// The line appears twice.
    Double,
    /// The value after `=` is replaced.
    Value(String),
    /// A new `key = value` line follows.
    Insert(String, String),
    /// A section header follows.
    Section(String),
}

/// Up to 6 edits, each at some line.
pub fn edits() -> impl Strategy<Value = Vec<(prop::sample::Index, Edit)>> {
    let key = prop::sample::select(vec![
        "plugin",
        "paths",
        "strategy",
        "trigger",
        "fallback",
        "max_prompt_tokens",
        "token_encoding",
        "window",
        "turns",
        "command",
        "timeout_ms",
        "llm",
        "mission",
        "max_turns",
        "data",
        "tools",
        "unknown_key",
        "println_limit",
    ])
    .prop_map(str::to_string);
    let section = prop::sample::select(vec![
        "[plugins]",
        "[strategy.x]",
        "[strategy.coalesced]",
        "[agent.x]",
        "[agent.demo]",
        "[tool.t]",
        "[[x]]",
        "[strategy]",
        "[agent.a.b]",
        "[",
    ])
    .prop_map(str::to_string);
    let edit = prop_oneof![
        2 => Just(Edit::Drop),
        1 => Just(Edit::Double),
        3 => value().prop_map(Edit::Value),
        2 => (key, value()).prop_map(|(k, v)| Edit::Insert(k, v)),
        1 => section.prop_map(Edit::Section),
    ];
    prop::collection::vec((any::<prop::sample::Index>(), edit), 1..7)
}

/// `text` with `edits` applied.
pub fn apply(text: &str, edits: &[(prop::sample::Index, Edit)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (at, edit) in edits {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let i = at.index(lines.len());
        match edit {
            Edit::Drop => {
                lines.remove(i);
            }
            Edit::Double => lines.insert(i, lines[i].clone()),
            Edit::Value(v) => {
                if let Some((key, _)) = lines[i].split_once('=') {
                    lines[i] = format!("{key}= {v}");
                }
            }
            Edit::Insert(k, v) => lines.insert(i + 1, format!("{k} = {v}")),
            Edit::Section(s) => lines.insert(i + 1, s.clone()),
        }
    }
    lines.join("\n")
}
