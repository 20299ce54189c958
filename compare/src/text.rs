//! `ptc compare`'s tables as text or markdown: the summary (compact by
//! default, every column with `--wide`), the per-session tables and the
//! per-turn breakdown. A figure that cannot mean anything prints as `n/a`,
//! and its reason once below the table ([`Notes`]).

use super::{Figures, NotMeaningful, Row, Subject};
use ptc_cost::PriceModel;
use ptc_cost::{fitted_table, table};
use ptc_plugin_api::render::FULL_HISTORY;
use std::collections::BTreeSet;
use std::fmt::Write;

/// The width the default text view fits in.
pub const TEXT_WIDTH: usize = 120;

/// What a report says below its table: the reasons behind its `n/a`
/// cells, and the instances that compressed nothing.
#[derive(Debug, Default)]
pub struct Notes {
    not_meaningful: BTreeSet<NotMeaningful>,
    unchanged: Vec<String>,
}

impl Notes {
    /// A history-cost cell: the share, `-` when not priced, else `n/a`
    /// (its reason noted).
    pub fn history_cell(&mut self, cost: Result<f64, NotMeaningful>) -> String {
        match cost {
            Ok(x) => percent(x),
            Err(NotMeaningful::NotPriced) => "-".to_string(),
            Err(reason) => {
                self.not_meaningful.insert(reason);
                "n/a".to_string()
            }
        }
    }

    /// Notes `row` when it sent as many prompt tokens as `full` on every
    /// turn of every session: its 100% row then means it compressed
    /// nothing here (a peer whose trigger is above every prompt), not
    /// that compressing saved nothing.
    fn note_unchanged(&mut self, row: &Row, full: &Row) {
        let same = row.per_session.len() == full.per_session.len()
            && row.per_session.iter().zip(&full.per_session).all(|(a, b)| a.prompt_tokens == b.prompt_tokens);
        if row.name != full.name && row.figures.is_ok() && same && !self.unchanged.contains(&row.name) {
            self.unchanged.push(row.name.clone());
        }
    }

    /// One line per reason, `n/a: ...`, then one for the instances that
    /// compressed nothing.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.not_meaningful.iter().map(|r| format!("n/a: {r}")).collect();
        if !self.unchanged.is_empty() {
            lines.push(format!(
                "same as {FULL_HISTORY}: {} sent as many tokens as {FULL_HISTORY} on every turn, so compressed nothing \
                 on these sessions (for a peer: its trigger is above every prompt here)",
                self.unchanged.join(", ")
            ));
        }
        lines
    }
}

/// `part / whole` as a percentage, `-` when `whole` is 0.
pub fn ratio(part: f64, whole: f64) -> String {
    if whole == 0.0 {
        "-".to_string()
    } else {
        percent(part / whole)
    }
}

/// A share as a percentage.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share as a percentage, `-` when there is none.
pub fn share(x: Option<f64>) -> String {
    x.map_or("-".to_string(), percent)
}

/// Whether `model` reads from a cache (so a history cost and a hit share
/// mean something).
pub fn caches(model: &PriceModel) -> bool {
    !matches!(model.rule(), ptc_cost::CacheRule::None)
}

/// Which summary columns to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// Tokens, cost and history cost per model, recall, stale facts.
    Compact,
    /// Every figure.
    Wide,
}

/// The headers of the summary table for `models`.
pub fn headers(models: &[&PriceModel], columns: Columns) -> Vec<String> {
    let mut h: Vec<String> = vec!["strategy".to_string(), "tokens".to_string()];
    if columns == Columns::Wide {
        h.extend(["vs full", "history vs full"].map(String::from));
    }
    for m in models {
        match columns {
            Columns::Compact => {
                h.push(format!("{} cost", m.name()));
                if caches(m) {
                    h.push(format!("{} hist", m.name()));
                }
            }
            Columns::Wide => {
                h.push(format!("{} cost vs full", m.name()));
                if caches(m) {
                    h.push(format!("{} history cost vs full", m.name()));
                    h.push(format!("{} cached", m.name()));
                    h.push(format!("{} cached w/o fold", m.name()));
                }
            }
        }
    }
    h.extend(["recall", "stale"].map(String::from));
    if columns == Columns::Wide {
        h.extend(
            ["recall w/ turn-output", "largest prompt", "turns compressed", "calls dropped", "prints dropped"]
                .map(String::from),
        );
    }
    h
}

/// The summary cells of `rows`, ratios against `full`, history costs
/// above `floor` ([`super::NO_HISTORY`]).
pub fn summary_cells(
    rows: &[Row],
    [full, floor]: [&Figures; 2],
    models: &[&PriceModel],
    columns: Columns,
    notes: &mut Notes,
) -> Vec<Vec<String>> {
    let width = headers(models, columns).len();
    if let Some(full_row) = rows.iter().find(|r| r.name == FULL_HISTORY) {
        rows.iter().for_each(|r| notes.note_unchanged(r, full_row));
    }
    rows.iter()
        .map(|r| match &r.figures {
            Ok(f) => {
                let mut row = vec![r.name.clone()];
                match columns {
                    Columns::Compact => row.push(ratio(f.total_tokens as f64, full.total_tokens as f64)),
                    Columns::Wide => row.extend([
                        f.total_tokens.to_string(),
                        ratio(f.total_tokens as f64, full.total_tokens as f64),
                        ratio(f.history_tokens as f64, full.history_tokens as f64),
                    ]),
                }
                for m in models {
                    row.push(match (f.input_cost(m.name()), full.input_cost(m.name())) {
                        (Some(a), Some(b)) => ratio(a, b),
                        _ => "-".into(),
                    });
                    if caches(m) {
                        row.push(notes.history_cell(f.history_cost(full, floor, m.name())));
                        if columns == Columns::Wide {
                            row.push(share(f.cost(m.name()).map(|c| c.usage.hit_share())));
                            let steady = f.model(m.name()).map(|c| &c.steady).filter(|s| s.usage.prompt_tokens > 0);
                            row.push(share(steady.map(|c| c.usage.hit_share())));
                        }
                    }
                }
                row.extend([share(f.recall.share()), f.stale.shown.to_string()]);
                if columns == Columns::Wide {
                    row.extend([
                        share(f.recall.restorable_share()),
                        f.largest_prompt.to_string(),
                        f.stats.turns_compressed.to_string(),
                        f.stats.tool_calls_dropped.to_string(),
                        f.stats.printlns_dropped.to_string(),
                    ]);
                }
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

/// Per model, one table of the cost ratio to full-history, and for a
/// model that caches one of the history cost above the no-history floor
/// ([`Figures::history_cost`]): a row per session, a column per strategy.
pub fn session_tables(
    subjects: &[Subject],
    rows: &[Row],
    [full, floor]: [&Row; 2],
    models: &[&PriceModel],
    markdown: bool,
    notes: &mut Notes,
    width: Option<usize>,
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
                            notes.history_cell(mine.history_cost(base, bare, m.name()))
                        } else {
                            let cost = |f: &Figures| f.input_cost(m.name()).unwrap_or(0.0);
                            ratio(cost(mine), cost(base))
                        }
                    }));
                    row
                })
                .collect();
            out.push_str(&match width {
                Some(w) if !markdown => fitted_table(&headers, &body, 2, w),
                _ => table(&headers, &body, markdown),
            });
        }
    }
    out
}

/// Per session and strategy, a line per turn: tokens, then per model the
/// cache read / write / uncached tokens and the cost, then the stale facts
/// the prompt showed.
pub fn per_turn_text(subjects: &[Subject], rows: &[Row], models: &[&PriceModel]) -> String {
    let mut out = String::new();
    for (i, s) in subjects.iter().enumerate() {
        for r in rows.iter().filter(|r| r.figures.is_ok()) {
            let f = &r.per_session[i];
            let _ = writeln!(out, "\n{} / {}", s.name, r.name);
            let mut headers = vec!["turn".to_string(), "tokens".to_string()];
            for m in models {
                headers.extend(["read", "write", "uncached", "cost"].map(|h| format!("{} {h}", m.name())));
            }
            headers.push("stale".to_string());
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
                    row.push(f.stale_turns.get(t).map_or("-".to_string(), ToString::to_string));
                    row
                })
                .collect();
            out.push_str(&table(&headers, &body, false));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meaningless_history_costs_are_na_with_their_reason() {
        let mut notes = Notes::default();
        assert_eq!(notes.history_cell(Ok(0.25)), "25.0%");
        assert_eq!(notes.history_cell(Err(NotMeaningful::NotPriced)), "-");
        assert_eq!(notes.history_cell(Err(NotMeaningful::NotAFloor)), "n/a");
        assert_eq!(notes.history_cell(Err(NotMeaningful::NotAFloor)), "n/a");
        let lines = notes.lines();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("n/a: no-history is not a floor"), "{lines:?}");
    }
}
