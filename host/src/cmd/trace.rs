//! `ptc trace`: read a session file back as people read it.
//!
//! - `turns` (default): per turn the program, its output, tool calls,
//!   definitions and result or error;
//! - `compressed`: the messages actually sent to the model each turn;
//! - `raw`: the model's answers verbatim;
//! - `--usage`: a table per turn of prompt tokens (counted and reported),
//!   completion and cached tokens, finish reason and model call time.
//!
//! Every view starts with the error kinds counted over the turns.

use super::{CmdResult, Output};
use std::fmt::Write;
use std::path::Path;

/// What `ptc trace` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum View {
    /// Programs, output, tool calls, results.
    #[default]
    Turns,
    /// The messages sent per turn.
    Compressed,
    /// The model's answers verbatim.
    Raw,
}

/// `ptc trace FILE`.
pub fn trace(path: &Path, view: View, usage: bool) -> CmdResult {
    let session = super::read_session(path)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "agent: {}  turns: {}/{}  status: {}",
        session.agent.as_deref().unwrap_or("-"),
        session.turns.len(),
        session.max_turns,
        session.status.as_deref().unwrap_or("-")
    );
    let _ = writeln!(out, "mission: {}", session.mission);
    if let Some(kinds) = error_kinds(&session) {
        let _ = writeln!(out, "errors: {kinds}");
    }
    for turn in &session.turns {
        let strategy = turn.render_stats.as_ref().and_then(|s| s.get("instance").or(s.get("strategy")));
        let strategy = strategy.and_then(|s| s.as_str()).unwrap_or("-");
        let _ = writeln!(out, "\n=== turn {} ({strategy}) ===", turn.number);
        match view {
            View::Raw => {
                let _ = writeln!(out, "{}", turn.raw_response);
            }
            View::Compressed => {
                if turn.messages.is_empty() {
                    let _ = writeln!(out, "(no messages recorded)");
                }
                for m in &turn.messages {
                    let _ = writeln!(out, "--- {} ---\n{}", m.role, m.content);
                }
            }
            View::Turns => {
                match &turn.program {
                    Some(p) => {
                        let _ = writeln!(out, "{p}");
                    }
                    None => {
                        let _ = writeln!(out, "(no program)");
                    }
                }
                for call in &turn.tool_calls {
                    let outcome = match (&call.result, &call.error) {
                        (_, Some(e)) => format!("error: {e}"),
                        (Some(r), None) => r.clone(),
                        (None, None) => "nil".into(),
                    };
                    let _ = writeln!(out, "  tool/{} {} -> {outcome} ({} ms)", call.name, call.args, call.duration_ms);
                }
                for line in turn.prints.iter().flat_map(|p| p.split('\n')) {
                    let _ = writeln!(out, "  | {line}");
                }
                for d in &turn.definitions {
                    let _ = writeln!(out, "  defined {}", d.name);
                }
                match (&turn.error, &turn.result) {
                    (Some(e), _) => {
                        let _ = writeln!(out, "  error {}: {}", e.kind, e.message);
                    }
                    (None, Some(r)) => {
                        let _ = writeln!(out, "  => {r}");
                    }
                    (None, None) => {}
                }
            }
        }
    }
    if let Some(r) = &session.result {
        let _ = writeln!(out, "\nresult: {r}");
    }
    if usage {
        let _ = writeln!(
            out,
            "\nturn  strategy              prompt_tokens  reported_prompt  completion  cached  finish  model_ms"
        );
        let (mut counted, mut reported, mut completion) = (0u64, 0u64, 0u64);
        for turn in &session.turns {
            let strategy = turn
                .render_stats
                .as_ref()
                .and_then(|s| s.get("instance").or(s.get("strategy")))
                .and_then(|s| s.as_str())
                .unwrap_or("-");
            let get = |k: &str| turn.usage.as_ref().and_then(|u| u.get(k)).and_then(|v| v.as_u64());
            let (p, c) = (get("prompt_tokens"), get("completion_tokens"));
            let finish = turn.usage.as_ref().and_then(|u| u["finish_reason"].as_str()).unwrap_or("-");
            counted += turn.prompt_tokens.unwrap_or(0);
            reported += p.unwrap_or(0);
            completion += c.unwrap_or(0);
            let show = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
            let _ = writeln!(
                out,
                "{:>4}  {strategy:<20}  {:>13}  {:>15}  {:>10}  {:>6}  {finish:>6}  {:>8}",
                turn.number,
                show(turn.prompt_tokens),
                show(p),
                show(c),
                show(get("cache_read_tokens")),
                show(get("wall_ms"))
            );
        }
        let _ = writeln!(out, "total {:<20}  {counted:>13}  {reported:>15}  {completion:>10}", "");
    }
    Ok(Output { stdout: out, warnings: Vec::new(), code: 0 })
}

/// `no_code 2, parse 1`: how many turns failed with each error kind, in order of first appearance.
fn error_kinds(session: &ptc_session::Session) -> Option<String> {
    let mut kinds: indexmap::IndexMap<&str, usize> = indexmap::IndexMap::new();
    for e in session.turns.iter().filter_map(|t| t.error.as_ref()) {
        *kinds.entry(e.kind.as_str()).or_default() += 1;
    }
    (!kinds.is_empty()).then(|| kinds.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_a_multi_line_print_is_marked() {
        let session = serde_json::json!({
            "format": "ptc-session/1", "mission": "m", "system_prompt": "s", "max_turns": 2,
            "tools": [], "data": {}, "result": null, "usage": {},
            "turns": [{
                "number": 1, "raw_response": "```clojure\n(println \"a\\nb\")\n```", "program": "(println \"a\\nb\")",
                "success": true, "result": "nil", "error": null, "prints": ["a\nb"], "tool_calls": [], "definitions": []
            }]
        });
        let path = std::env::temp_dir().join(format!("ptc-trace-{}.json", std::process::id()));
        std::fs::write(&path, session.to_string()).unwrap();
        let out = trace(&path, View::Turns, false).unwrap().stdout;
        let _ = std::fs::remove_file(&path);
        assert!(out.contains("  | a\n  | b\n"), "{out}");
    }
}
