//! `ptc compare`: what each strategy instance would have sent, turn by turn,
//! over recorded sessions, in prompt tokens.
//!
//! Every turn `1..=N` of a session is rendered as it would be sent, through
//! [`crate::policy`] (so triggers apply), and counted with tiktoken. The
//! figures per instance, summed over the sessions:
//!
//! - **total**: prompt tokens over all turns;
//! - **history**: what each prompt adds beyond that run's turn-1 prompt,
//!   summed (the cost of remembering; turn 1 is the same for everyone);
//! - both as a ratio to full-history;
//! - **cacheable**: of the prompts of turns 2..N, the share of bytes that is
//!   a byte-identical prefix of the previous turn's prompt (message texts
//!   with their role headers, concatenated), i.e. what a prompt cache can reuse;
//! - **largest**: the largest single prompt;
//! - the render stats of every turn, summed.

use super::{CmdError, CmdResult, Output};
use crate::policy::{Phase, Policy};
use crate::resolve::{token_counter, Resolved};
use indexmap::IndexMap;
use ptc_plugin_api::render::{messages_text, FULL_HISTORY};
use ptc_plugin_api::{RenderRequest, Stats};
use ptc_tokens::{TokenCounter, DEFAULT_ENCODING};
use serde::Serialize;
use serde_json::json;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Output format of `ptc compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// An aligned table.
    Text,
    /// A GitHub-flavoured markdown table (for docs/benchmarks.md).
    Markdown,
    /// Every figure, per session too.
    Json,
}

/// Options of `ptc compare`.
#[derive(Debug, Clone)]
pub struct CompareArgs<'a> {
    /// Config file.
    pub config: &'a Path,
    /// Session files.
    pub sessions: &'a [PathBuf],
    /// Instance (or plugin) names; `None`: full-history and every configured instance.
    pub strategies: Option<&'a [String]>,
    /// Output format.
    pub format: CompareFormat,
}

/// Render stats summed over turns.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StatsSum {
    /// Sum of `turns_compressed`.
    pub turns_compressed: u64,
    /// Sum of `tool_calls_dropped`.
    pub tool_calls_dropped: u64,
    /// Sum of `printlns_dropped`.
    pub printlns_dropped: u64,
    /// Sum of `error_turns_collapsed`.
    pub error_turns_collapsed: u64,
    /// Strategy counters by name, summed.
    pub counters: IndexMap<String, i64>,
}

impl StatsSum {
    fn add_stats(&mut self, s: &Stats) {
        self.turns_compressed += u64::from(s.turns_compressed);
        self.tool_calls_dropped += u64::from(s.tool_calls_dropped);
        self.printlns_dropped += u64::from(s.printlns_dropped);
        self.error_turns_collapsed += u64::from(s.error_turns_collapsed);
        for c in s.counters() {
            *self.counters.entry(c.name().to_string()).or_default() += c.value();
        }
    }

    fn add(&mut self, o: &StatsSum) {
        self.turns_compressed += o.turns_compressed;
        self.tool_calls_dropped += o.tool_calls_dropped;
        self.printlns_dropped += o.printlns_dropped;
        self.error_turns_collapsed += o.error_turns_collapsed;
        for (k, v) in &o.counters {
            *self.counters.entry(k.clone()).or_default() += v;
        }
    }
}

/// The figures of one instance over one or more runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Turns rendered.
    pub turns: u64,
    /// Prompt tokens over all turns.
    pub total_tokens: u64,
    /// Sum over turns of (prompt tokens - the run's turn-1 prompt tokens).
    pub history_tokens: i64,
    /// Largest single prompt, in tokens.
    pub largest_prompt: u64,
    /// Bytes of turn 2..N prompts that repeat the previous prompt's prefix.
    pub prefix_bytes: u64,
    /// Bytes of turn 2..N prompts.
    pub prompt_bytes: u64,
    /// Turns served by full-history (before a trigger, or single shot).
    pub turns_full_history: u64,
    /// Render stats, summed.
    pub stats: StatsSum,
}

impl Figures {
    /// Adds the figures of another run.
    pub fn add(&mut self, o: &Figures) {
        self.turns += o.turns;
        self.total_tokens += o.total_tokens;
        self.history_tokens += o.history_tokens;
        self.largest_prompt = self.largest_prompt.max(o.largest_prompt);
        self.prefix_bytes += o.prefix_bytes;
        self.prompt_bytes += o.prompt_bytes;
        self.turns_full_history += o.turns_full_history;
        self.stats.add(&o.stats);
    }

    /// Share of turn 2..N prompt bytes that a prefix cache can reuse (1.0
    /// when there is no second turn).
    pub fn cacheable(&self) -> f64 {
        if self.prompt_bytes == 0 {
            1.0
        } else {
            self.prefix_bytes as f64 / self.prompt_bytes as f64
        }
    }
}

/// Length in bytes of the common prefix of `a` and `b`.
pub fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// Renders `requests` (turns 1..=N of one run, in order) through `policy`
/// and measures them.
pub fn measure(policy: &mut Policy<'_>, requests: impl IntoIterator<Item = RenderRequest>) -> Result<Figures, String> {
    let mut f = Figures::default();
    let mut first: Option<u64> = None;
    let mut previous: Option<String> = None;
    for request in requests {
        let served = policy.render(&request).map_err(|e| format!("turn {}: {e}", request.turn()))?;
        let tokens = served.tokens as u64;
        let text = messages_text(served.rendered.messages());
        let base = *first.get_or_insert(tokens);
        f.turns += 1;
        f.total_tokens += tokens;
        f.history_tokens += tokens as i64 - base as i64;
        f.largest_prompt = f.largest_prompt.max(tokens);
        if let Some(prev) = &previous {
            f.prefix_bytes += common_prefix(prev, &text) as u64;
            f.prompt_bytes += text.len() as u64;
        }
        if served.phase == Phase::FullHistory {
            f.turns_full_history += 1;
        }
        f.stats.add_stats(served.rendered.stats());
        previous = Some(text);
    }
    Ok(f)
}

/// One row of the comparison: an instance and its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Instance name.
    pub name: String,
    /// Summed over sessions; `Err` when a turn could not be rendered.
    pub figures: Result<Figures, String>,
    /// Per session file.
    pub per_session: Vec<(String, Figures)>,
}

fn ratio(part: f64, whole: f64) -> String {
    if whole == 0.0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * part / whole)
    }
}

const HEADERS: [&str; 10] = [
    "strategy",
    "total tokens",
    "vs full",
    "history tokens",
    "vs full",
    "cacheable",
    "largest prompt",
    "turns compressed",
    "calls dropped",
    "prints dropped",
];

/// The table cells of `rows`, ratios against `full`.
fn cells(rows: &[Row], full: &Figures) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| match &r.figures {
            Ok(f) => vec![
                r.name.clone(),
                f.total_tokens.to_string(),
                ratio(f.total_tokens as f64, full.total_tokens as f64),
                f.history_tokens.to_string(),
                ratio(f.history_tokens as f64, full.history_tokens as f64),
                format!("{:.1}%", 100.0 * f.cacheable()),
                f.largest_prompt.to_string(),
                f.stats.turns_compressed.to_string(),
                f.stats.tool_calls_dropped.to_string(),
                f.stats.printlns_dropped.to_string(),
            ],
            Err(e) => {
                let mut row = vec![r.name.clone(), format!("ERROR {e}")];
                row.resize(HEADERS.len(), String::new());
                row
            }
        })
        .collect()
}

/// The comparison as an aligned text table (`markdown = false`) or a
/// markdown table.
pub fn table(rows: &[Row], full: &Figures, markdown: bool) -> String {
    let body = cells(rows, full);
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", HEADERS.join(" | "));
        let align: Vec<&str> = HEADERS.iter().enumerate().map(|(i, _)| if i == 0 { "---" } else { "---:" }).collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for row in body {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        return out;
    }
    // Error rows print their message unaligned, so they do not widen the columns.
    let is_error = |r: &Vec<String>| r[1].starts_with("ERROR ");
    let widths: Vec<usize> = (0..HEADERS.len())
        .map(|i| {
            let cells = body.iter().filter(|r| !is_error(r) || i == 0).map(|r| r[i].chars().count());
            cells.chain([HEADERS[i].len()]).max().unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(HEADERS.map(String::from).to_vec()).chain(body) {
        if is_error(&row) {
            let _ = writeln!(out, "{:<w$}  {}", row[0], row[1], w = widths[0]);
            continue;
        }
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[0]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[i]);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// Every instance to compare: the requested names, or full-history and
/// every configured instance.
fn instance_names(resolved: &Resolved, requested: Option<&[String]>) -> Vec<String> {
    match requested {
        Some(names) => names.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect(),
        None => resolved.defined(),
    }
}

/// Measures instance `name` over every session.
fn measure_instance(
    resolved: &Resolved,
    counter: &TokenCounter,
    name: &str,
    sessions: &[(String, Vec<RenderRequest>)],
) -> Row {
    let mut total = Figures::default();
    let mut per_session = Vec::new();
    for (file, requests) in sessions {
        let figures = resolved.strategy(name).map_err(|e| e.to_string()).and_then(|c| {
            let mut policy = Policy::new(c, Vec::new(), None, counter);
            measure(&mut policy, requests.iter().cloned()).map_err(|e| format!("{file}: {e}"))
        });
        match figures {
            Ok(f) => {
                total.add(&f);
                per_session.push((file.clone(), f));
            }
            Err(e) => return Row { name: name.to_string(), figures: Err(e), per_session },
        }
    }
    Row { name: name.to_string(), figures: Ok(total), per_session }
}

/// `ptc compare`.
pub fn compare(args: &CompareArgs<'_>) -> CmdResult {
    if args.sessions.is_empty() {
        return Err(CmdError::Usage("compare needs at least one --session FILE".to_string()));
    }
    let resolved = super::resolve(args.config)?;
    let counter = token_counter(DEFAULT_ENCODING).map_err(CmdError::Other)?;
    let mut sessions = Vec::new();
    for path in args.sessions {
        let session = super::read_session(path)?;
        let requests = session.requests().map_err(|error| CmdError::Session { path: path.to_path_buf(), error })?;
        sessions.push((path.display().to_string(), requests));
    }
    let full = measure_instance(&resolved, counter, FULL_HISTORY, &sessions);
    let full_figures = full.figures.clone().map_err(|e| CmdError::Other(format!("full-history: {e}")))?;
    let rows: Vec<Row> =
        instance_names(&resolved, args.strategies)
            .iter()
            .map(|name| {
                if name == FULL_HISTORY {
                    full.clone()
                } else {
                    measure_instance(&resolved, counter, name, &sessions)
                }
            })
            .collect();
    let mut warnings = super::load_warnings(&resolved);
    warnings
        .extend(rows.iter().filter_map(|r| r.figures.as_ref().err().map(|e| format!("strategy `{}`: {e}", r.name))));
    let code = i32::from(rows.iter().any(|r| r.figures.is_err()));
    let stdout = match args.format {
        CompareFormat::Json => {
            let value = json!({
                "encoding": counter.encoding(),
                "sessions": sessions.iter().map(|(f, r)| json!({"file": f, "turns": r.len()})).collect::<Vec<_>>(),
                "strategies": rows.iter().map(|r| row_json(r, &full_figures)).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&value).expect("JSON values always serialize") + "\n"
        }
        CompareFormat::Text | CompareFormat::Markdown => {
            let turns: usize = sessions.iter().map(|(_, r)| r.len()).sum();
            let mut out = String::new();
            if args.format == CompareFormat::Text {
                let _ = writeln!(
                    out,
                    "{} sessions, {turns} turns, {} tokens; history = what each prompt adds beyond turn 1\n",
                    sessions.len(),
                    counter.encoding()
                );
            }
            out + &table(&rows, &full_figures, args.format == CompareFormat::Markdown)
        }
    };
    Ok(Output { stdout, warnings, code })
}

fn row_json(row: &Row, full: &Figures) -> serde_json::Value {
    match &row.figures {
        Err(e) => json!({"name": row.name, "error": e}),
        Ok(f) => json!({
            "name": row.name,
            "total": f,
            "total_ratio": f.total_tokens as f64 / full.total_tokens.max(1) as f64,
            "history_ratio": if full.history_tokens == 0 { None } else { Some(f.history_tokens as f64 / full.history_tokens as f64) },
            "cacheable": f.cacheable(),
            "per_session": row.per_session.iter().map(|(file, f)| json!({"file": file, "figures": f})).collect::<Vec<_>>(),
        }),
    }
}

#[cfg(test)]
mod tests;
