//! `ptc compare`: strategy instances side by side over recorded sessions,
//! in tokens, in money under prompt caching, and in fact recall (see
//! [`crate::compare`] for what each figure means). Ratios are to
//! full-history, which is always measured, as is the no-history floor
//! ([`NO_HISTORY`]) the history cost is counted from.

use super::{CmdError, CmdResult, Output};
use crate::compare::{measure, strategy_report, Figures, Measure, MeasureError, Subject, NO_HISTORY};
use crate::policy::Policy;
use crate::resolve::{token_counter, Resolved};
use ptc_cost::{PriceModel, TokenMemo};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_tokens::DEFAULT_ENCODING;
use serde_json::json;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Output format of `ptc compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// Aligned tables.
    Text,
    /// GitHub-flavoured markdown tables (for docs/benchmarks.md).
    Markdown,
    /// Every figure, per session and per turn too.
    Json,
}

/// The price models compared when none are named.
pub const DEFAULT_PRICING: [&str; 3] = ["anthropic", "openai", "none"];

/// Options of `ptc compare`.
#[derive(Debug, Clone)]
pub struct CompareArgs<'a> {
    /// Config file.
    pub config: &'a Path,
    /// Session files.
    pub sessions: &'a [PathBuf],
    /// Instance (or plugin) names; `None`: full-history, no-history and every configured instance.
    pub strategies: Option<&'a [String]>,
    /// Price models (built-in or `[pricing.NAME]`); `None`: [`DEFAULT_PRICING`].
    pub pricing: Option<&'a [String]>,
    /// Output format.
    pub format: CompareFormat,
    /// Add a per-turn breakdown.
    pub per_turn: bool,
    /// Also write a self-contained HTML report here.
    pub html: Option<&'a Path>,
    /// The turn whose prompt the HTML report shows (default: the last).
    pub show_turn: Option<usize>,
    /// Price every session as if sent with this system prompt instead of
    /// the recorded one.
    pub system_prompt: SystemPrompt,
}

/// Which system prompt `ptc compare` prices the sessions with: the system
/// prompt a provider caches is the start of every request, so its size
/// decides how much of a short run reaches the cache minimum.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SystemPrompt {
    /// Each session's own, as recorded.
    #[default]
    Recorded,
    /// The language card `ptc run` sends today ([`crate::run::SYSTEM_PROMPT`]).
    Card,
    /// The text of a file.
    File(PathBuf),
}

impl SystemPrompt {
    /// `recorded`, `card`, or a file path.
    pub fn parse(text: &str) -> SystemPrompt {
        match text {
            "recorded" => SystemPrompt::Recorded,
            "card" => SystemPrompt::Card,
            path => SystemPrompt::File(PathBuf::from(path)),
        }
    }

    /// The replacement text, `None` to keep the recorded one.
    fn text(&self) -> Result<Option<String>, CmdError> {
        match self {
            SystemPrompt::Recorded => Ok(None),
            SystemPrompt::Card => Ok(Some(crate::run::SYSTEM_PROMPT.to_string())),
            SystemPrompt::File(path) => std::fs::read_to_string(path).map(Some).map_err(|error| CmdError::Io {
                path: path.clone(),
                action: "cannot read the --system-prompt file",
                error,
            }),
        }
    }
}

/// One row: an instance, its figures summed over sessions, and per session.
#[derive(Debug, Clone)]
pub struct Row {
    /// Instance name.
    pub name: String,
    /// Summed over sessions; `Err` when a turn could not be rendered.
    pub figures: Result<Figures, MeasureError>,
    /// Per session file, in order.
    pub per_session: Vec<Figures>,
}

fn ratio(part: f64, whole: f64) -> String {
    if whole == 0.0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * part / whole)
    }
}

fn share(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x))
}

/// The headers of the summary table for `models`.
fn headers(models: &[&PriceModel]) -> Vec<String> {
    let mut h: Vec<String> = ["strategy", "tokens", "vs full", "history vs full"].map(String::from).to_vec();
    for m in models {
        h.push(format!("{} cost vs full", m.name()));
        if caches(m) {
            h.push(format!("{} history cost vs full", m.name()));
            h.push(format!("{} cached", m.name()));
            h.push(format!("{} cached w/o fold", m.name()));
        }
    }
    h.extend(["recall", "largest prompt", "turns compressed", "calls dropped", "prints dropped"].map(String::from));
    h
}

fn caches(model: &PriceModel) -> bool {
    !matches!(model.rule(), ptc_cost::CacheRule::None)
}

/// The summary cells of `rows`, ratios against `full`, history costs
/// above `floor` ([`NO_HISTORY`]).
fn summary_cells(rows: &[Row], full: &Figures, floor: &Figures, models: &[&PriceModel]) -> Vec<Vec<String>> {
    let width = headers(models).len();
    rows.iter()
        .map(|r| match &r.figures {
            Ok(f) => {
                let mut row = vec![
                    r.name.clone(),
                    f.total_tokens.to_string(),
                    ratio(f.total_tokens as f64, full.total_tokens as f64),
                    ratio(f.history_tokens as f64, full.history_tokens as f64),
                ];
                for m in models {
                    row.push(match (f.input_cost(m.name()), full.input_cost(m.name())) {
                        (Some(a), Some(b)) => ratio(a, b),
                        _ => "-".into(),
                    });
                    if caches(m) {
                        row.push(share(f.history_cost(full, floor, m.name())));
                        row.push(share(f.cost(m.name()).map(|c| c.usage.hit_share())));
                        let steady = f.model(m.name()).map(|c| &c.steady).filter(|s| s.usage.prompt_tokens > 0);
                        row.push(share(steady.map(|c| c.usage.hit_share())));
                    }
                }
                row.extend([
                    share(f.recall.share()),
                    f.largest_prompt.to_string(),
                    f.stats.turns_compressed.to_string(),
                    f.stats.tool_calls_dropped.to_string(),
                    f.stats.printlns_dropped.to_string(),
                ]);
                row
            }
            Err(e) => {
                let mut row = vec![r.name.clone(), format!("ERROR {e}")];
                row.resize(width, String::new());
                row
            }
        })
        .collect()
}

/// Rows of cells as an aligned text table (`markdown = false`) or a
/// markdown table; error rows (`ERROR ...` in column 1) print unaligned.
pub fn table(headers: &[String], body: &[Vec<String>], markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", headers.join(" | "));
        let align: Vec<&str> = (0..headers.len()).map(|i| if i == 0 { "---" } else { "---:" }).collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for row in body {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        return out;
    }
    let is_error = |r: &Vec<String>| r.get(1).is_some_and(|c| c.starts_with("ERROR "));
    let widths: Vec<usize> = (0..headers.len())
        .map(|i| {
            let cells = body.iter().filter(|r| !is_error(r) || i == 0).map(|r| r[i].chars().count());
            cells.chain([headers[i].chars().count()]).max().unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(headers.to_vec()).chain(body.iter().cloned()) {
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

/// Per model, one table of the cost ratio to full-history, and for a
/// model that caches one of the history cost above the no-history floor
/// ([`Figures::history_cost`]): a row per session, a column per strategy.
fn session_tables(
    subjects: &[Subject],
    rows: &[Row],
    [full, floor]: [&Row; 2],
    models: &[&PriceModel],
    markdown: bool,
) -> String {
    let mut out = String::new();
    let ok: Vec<&Row> = rows.iter().filter(|r| r.figures.is_ok()).collect();
    for m in models {
        let kinds: &[(&str, bool)] =
            if caches(m) { &[("cost", false), ("history cost", true)] } else { &[("cost", false)] };
        for &(kind, history) in kinds {
            let _ = writeln!(
                out,
                "\n{} per session, {} {kind} vs full-history:\n",
                if markdown { "####" } else { "==" },
                m.name()
            );
            let mut headers = vec!["session".to_string(), "turns".to_string()];
            headers.extend(ok.iter().map(|r| r.name.clone()));
            let body: Vec<Vec<String>> = subjects
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut row = vec![s.name.clone(), s.turns().to_string()];
                    let (base, bare) = (&full.per_session[i], &floor.per_session[i]);
                    row.extend(ok.iter().map(|r| {
                        let mine = &r.per_session[i];
                        if history {
                            share(mine.history_cost(base, bare, m.name()))
                        } else {
                            let cost = |f: &Figures| f.input_cost(m.name()).unwrap_or(0.0);
                            ratio(cost(mine), cost(base))
                        }
                    }));
                    row
                })
                .collect();
            out.push_str(&table(&headers, &body, markdown));
        }
    }
    out
}

/// Per session and strategy, a line per turn: tokens, then per model the
/// cache read / write / uncached tokens and the cost.
fn per_turn_text(subjects: &[Subject], rows: &[Row], models: &[&PriceModel]) -> String {
    let mut out = String::new();
    for (i, s) in subjects.iter().enumerate() {
        for r in rows.iter().filter(|r| r.figures.is_ok()) {
            let f = &r.per_session[i];
            let _ = writeln!(out, "\n{} / {}", s.name, r.name);
            let mut headers = vec!["turn".to_string(), "tokens".to_string()];
            for m in models {
                headers.extend(["read", "write", "uncached", "cost"].map(|h| format!("{} {h}", m.name())));
            }
            let body: Vec<Vec<String>> = (0..f.prompt_tokens.len())
                .map(|t| {
                    let mut row = vec![(t + 1).to_string(), f.prompt_tokens[t].to_string()];
                    for c in &f.costs {
                        let u = &c.turns[t].usage;
                        row.push(u.cache_read_tokens.to_string());
                        row.push(u.cache_write_tokens.to_string());
                        row.push(u.uncached_tokens.to_string());
                        row.push(format!("{:.1}", c.turns[t].cost.input));
                    }
                    row
                })
                .collect();
            out.push_str(&table(&headers, &body, false));
        }
    }
    out
}

/// Every instance to compare: the requested names, or full-history and
/// every configured instance.
fn instance_names(resolved: &Resolved, requested: Option<&[String]>) -> Vec<String> {
    match requested {
        Some(names) => names.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect(),
        None => {
            let mut names = resolved.defined();
            names.insert(1.min(names.len()), NO_HISTORY.to_string());
            names
        }
    }
}

/// Measures instance `name` over every session.
fn measure_instance(resolved: &Resolved, name: &str, subjects: &[Subject], how: &mut Measure<'_, '_>) -> Row {
    let counter = how.counter;
    let mut total = Figures::default();
    let mut per_session = Vec::new();
    for subject in subjects {
        let figures = resolved.strategy(name).map_err(|e| MeasureError::Lookup(Box::new(e))).and_then(|s| {
            let mut policy = Policy::new(s, Vec::new(), None, counter);
            measure(&mut policy, subject, how)
        });
        match figures {
            Ok(f) => {
                total.add(&f);
                per_session.push(f);
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
    let resolved = super::resolve_or_empty(args.config)?;
    let all_models = resolved
        .config
        .price_models()
        .map_err(|e| CmdError::Other(format!("{}: {e}", resolved.config.path.display())))?;
    let names: Vec<String> = match args.pricing {
        Some(names) => names.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect(),
        None => DEFAULT_PRICING.map(String::from).to_vec(),
    };
    let models: Vec<&PriceModel> = names
        .iter()
        .map(|n| all_models.get(n).map_err(|e| CmdError::Usage(format!("--pricing: {e}"))))
        .collect::<Result<_, _>>()?;
    let counter = token_counter(DEFAULT_ENCODING).map_err(|e| CmdError::Other(e.to_string()))?;
    let system_prompt = args.system_prompt.text()?;
    let mut subjects = Vec::new();
    for path in args.sessions {
        let mut session = super::read_session(path)?;
        if let Some(text) = &system_prompt {
            session.system_prompt = text.clone();
        }
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let subject =
            Subject::new(name, &session).map_err(|error| CmdError::Session { path: path.to_path_buf(), error })?;
        subjects.push(subject);
    }
    let mut memo = TokenMemo::new(counter);
    let show_turn = args.html.map(|_| args.show_turn.unwrap_or(usize::MAX));
    let mut how = Measure { models: &models, memo: &mut memo, counter, show_turn };
    let full = measure_instance(&resolved, FULL_HISTORY, &subjects, &mut how);
    let full_figures = full.figures.clone().map_err(|e| CmdError::Other(format!("full-history: {e}")))?;
    let bare: Vec<Subject> = subjects.iter().map(Subject::without_history).collect();
    let floor = Row { name: NO_HISTORY.to_string(), ..measure_instance(&resolved, FULL_HISTORY, &bare, &mut how) };
    let floor_figures = floor.figures.clone().map_err(|e| CmdError::Other(format!("{NO_HISTORY}: {e}")))?;
    let rows: Vec<Row> = instance_names(&resolved, args.strategies)
        .iter()
        .map(|name| match name.as_str() {
            FULL_HISTORY => full.clone(),
            NO_HISTORY => floor.clone(),
            _ => measure_instance(&resolved, name, &subjects, &mut how),
        })
        .collect();

    let mut warnings = super::load_warnings(&resolved);
    warnings
        .extend(rows.iter().filter_map(|r| r.figures.as_ref().err().map(|e| format!("strategy `{}`: {e}", r.name))));
    if let Some(path) = args.html {
        let report = ptc_cost::Report {
            title: format!("ptc compare: {} sessions", subjects.len()),
            sessions: subjects
                .iter()
                .enumerate()
                .map(|(i, s)| ptc_cost::SessionReport {
                    name: s.name.clone(),
                    baseline: Some(FULL_HISTORY.to_string()),
                    strategies: std::iter::once(&full)
                        .chain(rows.iter().filter(|r| r.name != FULL_HISTORY))
                        .filter(|r| r.figures.is_ok())
                        .map(|r| strategy_report(&r.name, &r.per_session[i], &models))
                        .collect(),
                })
                .collect(),
        };
        std::fs::write(path, ptc_cost::render_html(&report)).map_err(|error| CmdError::Io {
            path: path.to_path_buf(),
            action: "cannot write the HTML report",
            error,
        })?;
        warnings.push(format!("HTML report written to {}", path.display()));
    }
    let code = i32::from(rows.iter().any(|r| r.figures.is_err()));
    let stdout = match args.format {
        CompareFormat::Json => {
            let value = json!({
                "encoding": counter.encoding(),
                "models": names,
                "sessions": subjects.iter().map(|s| json!({"file": s.name, "turns": s.turns()})).collect::<Vec<_>>(),
                "strategies": rows.iter().map(|r| row_json(r, &full, &floor, &subjects, &models)).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&value).expect("JSON values always serialize") + "\n"
        }
        CompareFormat::Text | CompareFormat::Markdown => {
            let markdown = args.format == CompareFormat::Markdown;
            let turns: usize = subjects.iter().map(Subject::turns).sum();
            let mut out = String::new();
            if !markdown {
                let _ = writeln!(
                    out,
                    "{} sessions, {turns} turns, {} tokens; history = what each prompt adds beyond turn 1; \
                     cost = prompt cost under each price model with prompt caching\n",
                    subjects.len(),
                    counter.encoding()
                );
            }
            let cells = summary_cells(&rows, &full_figures, &floor_figures, &models);
            out.push_str(&table(&headers(&models), &cells, markdown));
            if subjects.len() > 1 || args.per_turn {
                out.push_str(&session_tables(&subjects, &rows, [&full, &floor], &models, markdown));
            }
            if args.per_turn {
                out.push_str(&per_turn_text(&subjects, &rows, &models));
            }
            out
        }
    };
    Ok(Output { stdout, warnings, code })
}

fn row_json(row: &Row, full: &Row, floor: &Row, subjects: &[Subject], models: &[&PriceModel]) -> serde_json::Value {
    let Ok(f) = &row.figures else {
        return json!({"name": row.name, "error": row.figures.as_ref().err().map(ToString::to_string)});
    };
    // `history_cost`: above the no-history floor, as a share of the full
    // history's cost above it.
    let ratios = |mine: &Figures, base: &Figures, bare: &Figures| {
        let (mut cost, mut history_cost) = (serde_json::Map::new(), serde_json::Map::new());
        for m in models {
            if let (Some(a), Some(b)) = (mine.input_cost(m.name()), base.input_cost(m.name())) {
                cost.insert(m.name().to_string(), json!(a / b.max(f64::MIN_POSITIVE)));
                history_cost.insert(m.name().to_string(), json!(mine.history_cost(base, bare, m.name())));
            }
        }
        json!({
            "tokens": mine.total_tokens as f64 / base.total_tokens.max(1) as f64,
            "history": (base.history_tokens != 0).then(|| mine.history_tokens as f64 / base.history_tokens as f64),
            "cost": cost,
            "history_cost": history_cost,
        })
    };
    let (Ok(full_total), Ok(floor_total)) = (&full.figures, &floor.figures) else {
        unreachable!("full-history and no-history were measured before any row")
    };
    let baselines = full.per_session.iter().zip(&floor.per_session);
    json!({
        "name": row.name,
        "total": f,
        "vs_full_history": ratios(f, full_total, floor_total),
        "recall": f.recall.share(),
        "per_session": subjects.iter().zip(&row.per_session).zip(baselines).map(|((s, mine), (base, bare))| json!({
            "file": s.name,
            "figures": mine,
            "vs_full_history": ratios(mine, base, bare),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests;
