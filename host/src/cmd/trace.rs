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
use crate::nested::SpentInside;
use crate::resolve::token_counter;
use ptc_cost::PriceModel;
use ptc_session::{CostSource, CostTotals, RenderStats, RunStatus, Usage};
use ptc_tokens::DEFAULT_ENCODING;
use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

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
    let mut shown = HashSet::from([file_key(path)]);
    write_session(&mut out, &session, path, view, 0, &mut shown);
    if usage {
        out.push_str(&usage_table(&session));
        out.push_str(&nested_usage(&session, path));
    }
    Ok(Output { stdout: out, warnings: Vec::new(), code: 0 })
}

/// How deep `trace` follows nested runs (agents used as tools).
const MAX_NESTED: usize = 8;

/// A session file as `trace` tells files apart: its resolved path.
fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// One session's view; nested runs (a call's `session`) are read from
/// beside `path` and written inside, indented with `  │ `. `shown` holds
/// the files written so far: each is written once (a record that names a
/// file again, which no run writes, would otherwise multiply the trace at
/// every level).
fn write_session(
    out: &mut String,
    session: &ptc_session::Session,
    path: &Path,
    view: View,
    depth: usize,
    shown: &mut HashSet<PathBuf>,
) {
    let _ = writeln!(
        out,
        "agent: {}  turns: {}/{}  status: {}",
        session.agent.as_deref().unwrap_or("-"),
        session.turns.len(),
        session.max_turns,
        session.status.map_or("-", RunStatus::as_str)
    );
    let _ = writeln!(out, "mission: {}", session.mission);
    if let Some(signature) = &session.signature {
        let _ = writeln!(out, "signature: {signature}");
    }
    if let (Some(reason), Some(detail)) = (&session.reason, &session.detail) {
        let _ = writeln!(out, "stopped: {reason}: {}", detail.lines().next().unwrap_or(""));
    }
    if let Some(kinds) = error_kinds(session) {
        let _ = writeln!(out, "errors: {kinds}");
    }
    for turn in &session.turns {
        let strategy = turn.render_stats.as_ref().map_or("-", served_by);
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
                    let how = if call.cached { "cached".to_string() } else { format!("{} ms", call.duration_ms) };
                    let _ = writeln!(out, "  tool/{} {} -> {outcome} ({how})", call.name, call.args);
                    if let Some(u) = call.usage.as_ref().filter(|_| call.session.is_none()) {
                        let _ = writeln!(out, "    usage: {}", usage_line(u));
                    }
                    if let Some(nested) = &call.session {
                        out.push_str(&nested_run(path, nested, call.usage.as_ref(), view, depth, shown));
                    }
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
}

/// The nested run of a call, indented; a file that cannot be read is one line saying so.
fn nested_run(
    parent: &Path,
    relative: &str,
    usage: Option<&Usage>,
    view: View,
    depth: usize,
    shown: &mut HashSet<PathBuf>,
) -> String {
    let path = ptc_session::nested_session_path(parent, relative);
    let mut inner = String::new();
    if depth + 1 > MAX_NESTED {
        let _ = writeln!(inner, "(nested run {relative} not shown: deeper than {MAX_NESTED})");
    } else if !shown.insert(file_key(&path)) {
        let _ = writeln!(inner, "(nested run {relative} not shown again: this trace shows it above)");
    } else {
        match ptc_session::Session::read(&path) {
            Ok(session) => write_session(&mut inner, &session, &path, view, depth + 1, shown),
            Err(e) => {
                let _ = writeln!(inner, "(nested run {}: {e})", path.display());
            }
        }
    }
    let mut out = format!("    nested run: {relative}\n");
    for line in inner.lines() {
        let _ = writeln!(out, "    │ {line}");
    }
    if let Some(u) = usage {
        let _ = writeln!(out, "    nested usage: {}", usage_line(u));
    }
    out
}

/// The instance that served a turn, or (files written before it was
/// recorded) the strategy that rendered it.
fn served_by(stats: &RenderStats) -> &str {
    stats.instance.as_deref().unwrap_or(&stats.strategy)
}

/// `prompt_tokens 812, completion_tokens 95, ...`: the token and time figures of a usage record.
fn usage_line(usage: &Usage) -> String {
    let figures = [
        ("counted_prompt_tokens", usage.counted_prompt_tokens),
        ("prompt_tokens", usage.prompt_tokens),
        ("completion_tokens", usage.completion_tokens),
        ("cache_read_tokens", usage.cache_read_tokens),
        ("cache_write_tokens", usage.cache_write_tokens),
        ("wall_ms", usage.wall_ms),
    ];
    let figures: Vec<String> = figures.iter().filter_map(|(k, v)| Some(format!("{k} {}", (*v)?))).collect();
    figures.join(", ")
}

/// Below the usage table: what nested runs and `llm-query` calls spent, and
/// the session's total with them (its `usage`); under a built-in price
/// model, their cost too ([`SpentInside`], as the run's budget counts it).
fn nested_usage(session: &ptc_session::Session, path: &Path) -> String {
    let calls: Vec<&Usage> =
        session.turns.iter().flat_map(|t| &t.tool_calls).filter_map(|c| c.usage.as_ref()).collect();
    if calls.is_empty() {
        return String::new();
    }
    let mut inside = Usage::default();
    for u in &calls {
        inside.add(u);
    }
    let own: u64 = session.turns.iter().filter_map(|t| t.prompt_tokens).sum();
    let nested = inside.counted_prompt_tokens.unwrap_or(0);
    let mut out = format!(
        "inside tool calls ({} call{}: agents it ran, llm-query): {}\nprompt tokens counted: {own} in its own turns + {nested} inside tool calls = {}\nsession usage (its own turns and the calls, as reported): {}\n",
        calls.len(),
        if calls.len() == 1 { "" } else { "s" },
        usage_line(&inside),
        own + nested,
        usage_line(&session.usage)
    );
    let totals = CostTotals::of(&session.turns);
    let priced =
        totals.as_ref().and_then(|t| Some((t, PriceModel::builtin(&t.model)?, token_counter(DEFAULT_ENCODING).ok()?)));
    if let Some((totals, model, counter)) = priced {
        let calls = SpentInside::read(&session.turns, path).cost(&model, counter);
        let own = totals.input_cost + totals.output_cost.unwrap_or(0.0);
        let _ = writeln!(
            out,
            "cost under `{}` prices: {own:.1} in its own turns + {calls:.1} inside tool calls = {:.1}",
            totals.model,
            own + calls
        );
    }
    out
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
    // The token columns ptc does not price; the priced ones are summed by
    // `CostTotals`, with the cost.
    let mut unpriced = [0u64; 3];
    for turn in &session.turns {
        let strategy = turn.render_stats.as_ref().map_or("-", served_by);
        let usage = turn.usage.as_ref();
        let c = turn.cost.as_ref();
        let figures = [
            turn.prompt_tokens,
            usage.and_then(|u| u.prompt_tokens),
            usage.and_then(|u| u.completion_tokens),
            c.map(|c| c.cache_read_tokens),
            c.map(|c| c.cache_write_tokens),
            c.map(|c| c.uncached_tokens),
        ];
        for (t, v) in unpriced.iter_mut().zip(figures) {
            *t += v.unwrap_or(0);
        }
        let mut row = vec![turn.number.to_string(), strategy.to_string()];
        row.extend(figures.iter().map(|v| show(*v)));
        row.push(c.map_or("-".into(), |c| format!("{:.1}", c.input_cost)));
        row.push(
            c.map_or("-", |c| match c.source {
                CostSource::Reported => "rep",
                CostSource::Estimated => "est",
            })
            .to_string(),
        );
        row.push(usage.and_then(|u| u.finish_reason.as_deref()).unwrap_or("-").to_string());
        row.push(show(usage.and_then(|u| u.wall_ms)));
        rows.push(row);
    }
    let costs = ptc_session::CostTotals::of(&session.turns);
    let priced = costs.as_ref().map_or([0; 3], |c| [c.cache_read_tokens, c.cache_write_tokens, c.uncached_tokens]);
    let mut last = vec!["total".to_string(), String::new()];
    last.extend(unpriced.iter().chain(&priced).map(|v| v.to_string()));
    last.push(format!("{:.1}", costs.as_ref().map_or(0.0, |c| c.input_cost)));
    last.extend([String::new(), String::new(), String::new()]);
    rows.push(last);
    let headers: Vec<String> = headers.map(String::from).to_vec();
    let price = costs.map_or(String::new(), |c| format!(" (cost: prompt under the `{}` price model)", c.model));
    format!("\nusage per turn{price}:\n{}", ptc_cost::table(&headers, &rows, false))
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
