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
    if let Some(signature) = &session.signature {
        let _ = writeln!(out, "signature: {signature}");
    }
    if let (Some(reason), Some(detail)) = (&session.reason, &session.detail) {
        let _ = writeln!(out, "stopped: {reason}: {}", detail.lines().next().unwrap_or(""));
    }
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
        out.push_str(&usage_table(&session));
    }
    Ok(Output { stdout: out, warnings: Vec::new(), code: 0 })
}

/// Per turn: prompt tokens counted and reported, completion tokens, what
/// the prompt cost under the run's price model (cache read / written /
/// uncached, `est` when ptc estimated it, `rep` when the server reported
/// its cache figures), why the model stopped and how long it took; then
/// the totals.
fn usage_table(session: &ptc_session::Session) -> String {
    let headers = [
        "turn",
        "strategy",
        "prompt",
        "reported",
        "completion",
        "read",
        "written",
        "uncached",
        "cost",
        "src",
        "finish",
        "model_ms",
    ];
    let show = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    let mut rows = Vec::new();
    let mut total = [0u64; 6];
    let mut cost_total = 0.0;
    let mut model = None;
    for turn in &session.turns {
        let strategy = turn
            .render_stats
            .as_ref()
            .and_then(|s| s.get("instance").or(s.get("strategy")))
            .and_then(|s| s.as_str())
            .unwrap_or("-");
        let get = |k: &str| turn.usage.as_ref().and_then(|u| u.get(k)).and_then(|v| v.as_u64());
        let c = turn.cost.as_ref();
        let figures = [
            turn.prompt_tokens,
            get("prompt_tokens"),
            get("completion_tokens"),
            c.map(|c| c.cache_read_tokens),
            c.map(|c| c.cache_write_tokens),
            c.map(|c| c.uncached_tokens),
        ];
        for (t, v) in total.iter_mut().zip(figures) {
            *t += v.unwrap_or(0);
        }
        cost_total += c.map_or(0.0, |c| c.input_cost);
        model = model.or(c.map(|c| c.model.clone()));
        let mut row = vec![turn.number.to_string(), strategy.to_string()];
        row.extend(figures.iter().map(|v| show(*v)));
        row.push(c.map_or("-".into(), |c| format!("{:.1}", c.input_cost)));
        row.push(c.map_or("-", |c| if c.source == "reported" { "rep" } else { "est" }).to_string());
        row.push(turn.usage.as_ref().and_then(|u| u["finish_reason"].as_str()).unwrap_or("-").to_string());
        row.push(show(get("wall_ms")));
        rows.push(row);
    }
    let mut last = vec!["total".to_string(), String::new()];
    last.extend(total.iter().map(|v| v.to_string()));
    last.push(format!("{cost_total:.1}"));
    last.extend([String::new(), String::new(), String::new()]);
    rows.push(last);
    let headers: Vec<String> = headers.map(String::from).to_vec();
    let price = model.map_or(String::new(), |m| format!(" (cost: prompt under the `{m}` price model)"));
    format!("\nusage per turn{price}:\n{}", super::compare::table(&headers, &rows, false))
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
