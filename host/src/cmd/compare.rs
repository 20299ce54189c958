//! `ptc compare`: strategy instances side by side over recorded sessions,
//! in tokens, in money under prompt caching, and in fact recall (see
//! [`crate::compare`] for what each figure means). Ratios are to
//! full-history, which is always measured, as is the no-history floor
//! ([`NO_HISTORY`]) the history cost is counted from. The peers
//! (`ptc_registry::peers`: re-creations of other systems' compression) are
//! measured by default beside the configured instances.

use super::{CmdError, CmdResult, Output};
use crate::policy::Policy;
use crate::resolve::{token_counter, LookupError, Resolved};
use ptc_compare::progress::Progress;
use ptc_compare::text;
use ptc_compare::text::{headers, per_turn_text, session_tables, summary_cells, Columns, Notes, TEXT_WIDTH};
use ptc_compare::{
    frontier_points, measure, strategy_report, Figures, Measure, MeasureError, Row, Subject, NO_HISTORY,
};
use ptc_cost::{fitted_table, frontier_names, table, wrap, PriceModel, TokenMemo};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_registry::peers::PEERS;
use ptc_tokens::DEFAULT_ENCODING;
use serde_json::json;
use std::collections::BTreeMap;
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
    /// Instance (or plugin) names; `None`: full-history, no-history, the
    /// peers and every configured instance.
    pub strategies: Option<&'a [String]>,
    /// Price models (built-in or `[pricing.NAME]`); `None`: [`DEFAULT_PRICING`].
    pub pricing: Option<&'a [String]>,
    /// Output format.
    pub format: CompareFormat,
    /// Add a per-turn breakdown.
    pub per_turn: bool,
    /// Every column in the text view and the HTML report's summary
    /// (default: the ones that fit 120 columns).
    pub wide: bool,
    /// Also write the cost-vs-recall chart alone, as an SVG file, here.
    pub chart: Option<&'a Path>,
    /// Also write a self-contained HTML report here.
    pub html: Option<&'a Path>,
    /// The turn whose prompt the HTML report shows (default: the last).
    pub show_turn: Option<usize>,
    /// Price every session as if sent with this system prompt instead of
    /// the recorded one.
    pub system_prompt: SystemPrompt,
    /// List, per instance and session, the learned facts a program used
    /// that its prompt did not show (text and markdown; JSON always has
    /// them, as `missed` in each session's figures).
    pub missed: bool,
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
            SystemPrompt::File(path) => {
                ptc_os::read_text(path, ptc_os::MAX_SOURCE_FILE_BYTES).map(Some).map_err(|error| CmdError::Io {
                    path: path.clone(),
                    action: "cannot read the --system-prompt file",
                    error,
                })
            }
        }
    }
}

/// Every instance to compare: the requested names, or full-history,
/// no-history, the peers and every configured instance.
fn instance_names(resolved: &Resolved, requested: Option<&[String]>) -> Vec<String> {
    match requested {
        Some(names) => names.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect(),
        None => {
            let mut names = resolved.defined();
            let peers = PEERS.iter().map(|p| p.to_string()).filter(|p| !names.contains(p));
            let builtins: Vec<String> = std::iter::once(NO_HISTORY.to_string()).chain(peers).collect();
            let at = 1.min(names.len());
            names.splice(at..at, builtins);
            names
        }
    }
}

/// Measures instance `name` over every session.
fn measure_instance(
    resolved: &Resolved,
    name: &str,
    subjects: &[Subject],
    how: &mut Measure<'_, '_>,
    progress: &mut Progress,
) -> Row {
    let counter = how.counter;
    let mut total = Figures::default();
    let mut per_session = Vec::new();
    for subject in subjects {
        progress.step(&format!("{name} / {}", subject.name));
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

/// How the report names each session: its file name, or, when two files
/// share one (a bench's `TASK/STRATEGY/run-1.session.jsonl`), the paths
/// without the folders they all start with.
fn session_names(paths: &[PathBuf]) -> Vec<String> {
    let file_name =
        |p: &PathBuf| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    let names: Vec<String> = paths.iter().map(file_name).collect();
    let unique = names.iter().collect::<std::collections::HashSet<_>>().len() == names.len();
    if unique {
        return names;
    }
    let parts: Vec<Vec<_>> = paths.iter().map(|p| p.components().collect()).collect();
    let shortest = parts.iter().map(Vec::len).min().unwrap_or(0);
    // Leading folders every path shares (never a file name itself).
    let shared = (0..shortest.saturating_sub(1)).take_while(|&i| parts.iter().all(|p| p[i] == parts[0][i])).count();
    parts.iter().map(|p| p[shared..].iter().collect::<PathBuf>().display().to_string()).collect()
}

/// The session files of `paths`: a file as given; a folder, the session
/// files below it ([`ptc_session::Session::files_below`]: what `ptc run`
/// and `ptc bench` write). Also a note per folder that held other JSON.
fn session_files(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<String>), CmdError> {
    let (mut files, mut notes) = (Vec::new(), Vec::new());
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let (found, other) = ptc_session::Session::files_below(path).map_err(|error| CmdError::Io {
            path: path.clone(),
            action: "cannot list the session folder",
            error,
        })?;
        let (kept, shown) = (found.len(), path.display());
        if kept == 0 {
            return Err(CmdError::Usage(format!(
                "{shown}: no session file below it (the .json and .jsonl files `ptc run` and `ptc bench` write); \
                 name the files, or another folder"
            )));
        }
        if other > 0 {
            let s = |n: usize| if n == 1 { "" } else { "s" };
            notes.push(format!(
                "{shown}: {kept} session file{} compared; {other} other .json or .jsonl file{} below it passed over",
                s(kept),
                s(other)
            ));
        }
        files.extend(found);
    }
    Ok((files, notes))
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
    // A session that records no turn (a run stopped before its first answer)
    // sent no prompt worth measuring: it is left out, with a warning.
    let mut skipped = Vec::new();
    let (sessions, passed_over) = session_files(args.sessions)?;
    let names = session_names(&sessions);
    for (path, name) in sessions.iter().zip(names) {
        let mut session = super::read_session(path)?;
        if session.turns.is_empty() {
            let agent = session.agent.as_deref().unwrap_or("AGENT");
            skipped.push((path, format!("ptc run {agent} --resume {}", path.display())));
            continue;
        }
        if let Some(text) = &system_prompt {
            session.system_prompt = text.clone();
        }
        let subject =
            Subject::new(name, &session).map_err(|error| CmdError::Session { path: path.to_path_buf(), error })?;
        subjects.push(subject);
    }
    if subjects.is_empty() {
        let paths: Vec<String> = skipped.iter().map(|(p, _)| p.display().to_string()).collect();
        return Err(CmdError::Usage(format!(
            "no session to compare: {} record{} no turn (resume one with `{}`)",
            paths.join(", "),
            if paths.len() == 1 { "s" } else { "" },
            skipped[0].1
        )));
    }
    let mut memo = TokenMemo::new(counter);
    let show_turn = args.html.map(|_| args.show_turn.unwrap_or(usize::MAX));
    let mut how = Measure { models: &models, memo: &mut memo, counter, show_turn };
    let names = instance_names(&resolved, args.strategies);
    // A name that is nowhere (a typo in --strategies) stops here, before a
    // minute of measuring; an instance that is defined but does not build
    // is a row of its own, as without --strategies.
    if args.strategies.is_some() {
        for name in names.iter().filter(|n| *n != NO_HISTORY) {
            if let Err(e @ LookupError::Unknown { .. }) = resolved.strategy(name) {
                return Err(e.into());
            }
        }
    }
    let others = names.iter().filter(|n| *n != FULL_HISTORY && *n != NO_HISTORY).count();
    let mut progress = Progress::new((2 + others) * subjects.len());
    let full = measure_instance(&resolved, FULL_HISTORY, &subjects, &mut how, &mut progress);
    let full_figures = full.figures.clone().map_err(|e| CmdError::Other(format!("full-history: {e}")))?;
    let bare: Vec<Subject> = subjects.iter().map(Subject::without_history).collect();
    let floor = Row {
        name: NO_HISTORY.to_string(),
        ..measure_instance(&resolved, FULL_HISTORY, &bare, &mut how, &mut progress)
    };
    let floor_figures = floor.figures.clone().map_err(|e| CmdError::Other(format!("{NO_HISTORY}: {e}")))?;
    let rows: Vec<Row> = names
        .iter()
        .map(|name| match name.as_str() {
            FULL_HISTORY => full.clone(),
            NO_HISTORY => floor.clone(),
            _ => measure_instance(&resolved, name, &subjects, &mut how, &mut progress),
        })
        .collect();
    progress.finish();
    let figures = [&full_figures, &floor_figures];

    let mut warnings = super::load_warnings(&resolved);
    warnings.extend(passed_over);
    warnings.extend(
        skipped.iter().map(|(p, resume)| {
            format!("{}: records no turn, so it is left out (resume it with `{resume}`)", p.display())
        }),
    );
    warnings
        .extend(rows.iter().filter_map(|r| r.figures.as_ref().err().map(|e| format!("strategy `{}`: {e}", r.name))));
    // Cost against recall under each model that caches: the chart, and the
    // frontier the text and JSON name.
    let caching: Vec<&PriceModel> = models.iter().copied().filter(|m| text::caches(m)).collect();
    let points = frontier_points(&rows, &full_figures, &caching);
    if let Some(path) = args.chart {
        let model_names: Vec<&str> = caching.iter().map(|m| m.name()).collect();
        let palette = ptc_cost::Palette::new(rows.iter().map(|r| r.name.as_str()));
        let svg = ptc_cost::frontier_svg(&model_names, &points, &|name| palette.look(name));
        std::fs::write(path, svg).map_err(|error| CmdError::Io {
            path: path.to_path_buf(),
            action: "cannot write the --chart SVG file",
            error,
        })?;
        warnings.push(format!("cost-vs-recall chart written to {}", path.display()));
    }
    if let Some(path) = args.html {
        let mut notes = Notes::default();
        // The page's summary has the text view's columns: --wide adds the
        // rest (recall with turn-output among them).
        let columns = if args.wide { Columns::Wide } else { Columns::Compact };
        let cells = summary_cells(&rows, figures, &models, columns, &mut notes);
        let overview = ptc_cost::Overview { headers: headers(&models, columns), rows: cells, notes: notes.lines() };
        let report = ptc_cost::Report {
            title: format!("ptc compare: {} sessions", subjects.len()),
            overview: Some(overview),
            frontier: points.clone(),
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
                "strategies": rows.iter().map(|r| row_json(r, [&full, &floor], &subjects, &models)).collect::<Vec<_>>(),
                "frontier": caching.iter().map(|m| (m.name(), frontier_names(m.name(), &points))).collect::<BTreeMap<_, _>>(),
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
                    "{} session{}, {turns} turn{}, {} tokens. Shares of full-history's: tokens, input cost per price \
                     model under prompt\ncaching, and history (hist: the cost above no-history). recall: learned \
                     facts still shown. stale: prompts showing\na corrected value without its correction. \
                     --wide: every column.\n",
                    subjects.len(),
                    if subjects.len() == 1 { "" } else { "s" },
                    if turns == 1 { "" } else { "s" },
                    counter.encoding()
                );
            }
            let columns = if args.wide || markdown { Columns::Wide } else { Columns::Compact };
            let width = (columns == Columns::Compact).then_some(TEXT_WIDTH);
            let mut notes = Notes::default();
            let cells = summary_cells(&rows, figures, &models, columns, &mut notes);
            out.push_str(&match width {
                Some(w) => fitted_table(&headers(&models, columns), &cells, 1, w),
                None => table(&headers(&models, columns), &cells, markdown),
            });
            out.push_str(&ptc_cost::frontier_section(&points, markdown, width));
            if subjects.len() > 1 || args.per_turn {
                out.push_str(&session_tables(&subjects, &rows, [&full, &floor], &models, markdown, &mut notes, width));
            }
            if args.per_turn {
                out.push_str(&per_turn_text(&subjects, &rows, &models));
            }
            if args.missed {
                out.push_str(&missed_text(&subjects, &rows));
            }
            let notes = notes.lines();
            if !notes.is_empty() {
                out.push('\n');
                for note in notes {
                    let _ = writeln!(out, "{}", width.map_or_else(|| note.clone(), |w| wrap(&note, w)));
                }
            }
            out
        }
    };
    Ok(Output { stdout, warnings, code })
}

/// The `--missed` section: per instance, each session's turns whose
/// program used a learned fact its prompt did not show, with the facts.
fn missed_text(subjects: &[Subject], rows: &[Row]) -> String {
    let mut out = String::from("\nLearned facts a program used that its prompt did not show:\n");
    for row in rows.iter().filter(|r| r.figures.is_ok()) {
        let _ = writeln!(out, "{}", row.name);
        let mut none = true;
        for (subject, figures) in subjects.iter().zip(&row.per_session) {
            for turn in figures.missed.chunk_by(|a, b| a.turn == b.turn) {
                let facts: Vec<&str> = turn.iter().map(|m| m.fact.as_str()).collect();
                let _ = writeln!(out, "  {} turn {}: {}", subject.name, turn[0].turn, facts.join(" "));
                none = false;
            }
        }
        if none {
            out.push_str("  none\n");
        }
    }
    out
}

fn row_json(row: &Row, [full, floor]: [&Row; 2], subjects: &[Subject], models: &[&PriceModel]) -> serde_json::Value {
    let Ok(f) = &row.figures else {
        return json!({"name": row.name, "error": row.figures.as_ref().err().map(ToString::to_string)});
    };
    // `history_cost`: above the no-history floor, as a share of the full
    // history's cost above it; null with the reason in `history_cost_na`
    // when that share means nothing.
    let ratios = |mine: &Figures, base: &Figures, bare: &Figures| {
        let (mut cost, mut history_cost, mut na) =
            (serde_json::Map::new(), serde_json::Map::new(), serde_json::Map::new());
        for m in models {
            if let (Some(a), Some(b)) = (mine.input_cost(m.name()), base.input_cost(m.name())) {
                cost.insert(m.name().to_string(), json!(a / b.max(f64::MIN_POSITIVE)));
                match mine.history_cost(base, bare, m.name()) {
                    Ok(x) => history_cost.insert(m.name().to_string(), json!(x)),
                    Err(reason) => {
                        na.insert(m.name().to_string(), json!(reason.to_string()));
                        history_cost.insert(m.name().to_string(), serde_json::Value::Null)
                    }
                };
            }
        }
        json!({
            "tokens": mine.total_tokens as f64 / base.total_tokens.max(1) as f64,
            "history": (base.history_tokens != 0).then(|| mine.history_tokens as f64 / base.history_tokens as f64),
            "cost": cost,
            "history_cost": history_cost,
            "history_cost_na": na,
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
        "recall_restorable": f.recall.restorable_share(),
        "stale_facts": f.stale.shown,
        "per_session": subjects.iter().zip(&row.per_session).zip(baselines).map(|((s, mine), (base, bare))| json!({
            "file": s.name,
            "figures": mine,
            "vs_full_history": ratios(mine, base, bare),
            "recall": mine.recall.share(),
            "recall_restorable": mine.recall.restorable_share(),
            "stale_facts": mine.stale.shown,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests;
