//! The report of result lines: per strategy and per tier, the pass rate
//! with its 95% Wilson interval, mean turns and prompt tokens, cost per
//! price model and per solved task, and the exact McNemar test against
//! full history on the same (task, run) pairs. Text, Markdown, JSON or HTML.

use crate::record::{merge, ErrorKind, RunKey, RunRecord};
use crate::stats::{wilson, McNemar};
use crate::task::{Tier, FULL_HISTORY};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One line of the report: a strategy, over all tiers or one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The strategy.
    pub strategy: String,
    /// The tier, or `None` for all of them.
    pub tier: Option<Tier>,
    /// Runs.
    pub runs: u64,
    /// Runs whose answer passed.
    pub passed: u64,
    /// `passed / runs`.
    pub pass_rate: f64,
    /// The 95% Wilson interval of the pass rate.
    pub interval: (f64, f64),
    /// Mean turns per run.
    pub mean_turns: f64,
    /// Mean prompt tokens per run.
    pub mean_prompt_tokens: f64,
    /// Total cost per price model.
    pub cost: BTreeMap<String, f64>,
    /// Total cost per price model divided by the passed runs (`None` with none passed).
    pub cost_per_solved: BTreeMap<String, Option<f64>>,
    /// Runs that ended without an answer, by why.
    pub errors: BTreeMap<ErrorKind, u64>,
    /// The paired test against full history (`None` for full history itself, or without it).
    pub versus_full_history: Option<McNemar>,
}

/// A report over merged result lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Distinct runs after merging.
    pub runs: usize,
    /// Per strategy over every tier.
    pub strategies: Vec<Row>,
    /// Per strategy and tier.
    pub tiers: Vec<Row>,
}

/// Output formats of `ptc bench report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns for a terminal.
    Text,
    /// GitHub Markdown tables.
    Markdown,
    /// The [`Report`] as JSON.
    Json,
    /// A self-contained HTML page.
    Html,
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "text" => Ok(Format::Text),
            "markdown" | "md" => Ok(Format::Markdown),
            "json" => Ok(Format::Json),
            "html" => Ok(Format::Html),
            other => Err(format!("unknown report format `{other}` (text, markdown, json, html)")),
        }
    }
}

impl Report {
    /// The report of `records` (merged: one per run, the first wins).
    pub fn new(records: Vec<RunRecord>) -> Report {
        let records = merge(records);
        let mut strategies: Vec<String> = Vec::new();
        for r in &records {
            if !strategies.contains(&r.key.strategy) {
                strategies.push(r.key.strategy.clone());
            }
        }
        // Full history first, then the others by name.
        strategies.sort_by_key(|s| (s != FULL_HISTORY, s.clone()));
        let passed: BTreeMap<&RunKey, bool> = records.iter().map(|r| (&r.key, r.passed)).collect();
        let row = |strategy: &str, tier: Option<Tier>| {
            let subset: Vec<&RunRecord> =
                records.iter().filter(|r| r.key.strategy == strategy && tier.is_none_or(|t| r.tier == t)).collect();
            (!subset.is_empty()).then(|| summarize(strategy, tier, &subset, &passed))
        };
        let overall = strategies.iter().filter_map(|s| row(s, None)).collect();
        let tiers = strategies.iter().flat_map(|s| Tier::ALL.iter().filter_map(|&t| row(s, Some(t)))).collect();
        Report { runs: records.len(), strategies: overall, tiers }
    }

    /// The report in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Json => serde_json::to_string_pretty(self).expect("a report always serializes") + "\n",
            Format::Html => self.html(),
        }
    }

    fn models(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.strategies.iter().flat_map(|r| r.cost.keys()).collect();
        set.into_iter().cloned().collect()
    }

    fn headers(&self) -> Vec<String> {
        let mut h: Vec<String> =
            ["strategy", "tier", "runs", "pass rate [95% CI]", "turns", "prompt tokens"].map(String::from).to_vec();
        for m in self.models() {
            h.push(format!("cost/run {m}"));
            h.push(format!("cost/solved {m}"));
        }
        h.push("errors".into());
        h
    }

    fn cells(&self, row: &Row) -> Vec<String> {
        let mut c = vec![
            row.strategy.clone(),
            row.tier.map_or_else(|| "all".to_string(), |t| t.to_string()),
            row.runs.to_string(),
            format!("{:.0}% [{:.0}–{:.0}%]", row.pass_rate * 100.0, row.interval.0 * 100.0, row.interval.1 * 100.0),
            format!("{:.1}", row.mean_turns),
            format!("{:.0}", row.mean_prompt_tokens),
        ];
        for m in self.models() {
            c.push(row.cost.get(&m).map_or("-".into(), |v| figure(v / row.runs as f64)));
            c.push(row.cost_per_solved.get(&m).copied().flatten().map_or("-".into(), figure));
        }
        let errors: Vec<String> = row.errors.iter().map(|(k, n)| format!("{} {n}", kind_name(*k))).collect();
        c.push(if errors.is_empty() { "-".into() } else { errors.join(", ") });
        c
    }

    /// The McNemar sentences, one per strategy compared with full history.
    pub fn comparisons(&self) -> Vec<String> {
        self.strategies
            .iter()
            .filter_map(|r| {
                let t = r.versus_full_history?;
                Some(format!(
                    "{} vs {FULL_HISTORY}: {} paired runs, only {FULL_HISTORY} passed {}, only {} passed {}, exact McNemar p = {:.4}: {}",
                    r.strategy,
                    t.pairs,
                    t.baseline_only,
                    r.strategy,
                    t.strategy_only,
                    t.p_value,
                    t.verdict()
                ))
            })
            .collect()
    }

    fn text(&self) -> String {
        let headers = self.headers();
        let mut out = format!("{} runs\n\nper strategy\n", self.runs);
        out.push_str(&self.table(&headers, &self.strategies, false));
        out.push_str("\nper strategy and tier\n");
        out.push_str(&self.table(&headers, &self.tiers, false));
        out.push('\n');
        for line in self.comparisons() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The rows as a text or markdown table, by the printer `ptc compare` uses.
    fn table(&self, headers: &[String], rows: &[Row], markdown: bool) -> String {
        let body: Vec<Vec<String>> = rows.iter().map(|r| self.cells(r)).collect();
        ptc_cost::table(headers, &body, markdown)
    }

    fn markdown(&self) -> String {
        let headers = self.headers();
        let mut out = format!(
            "{} runs.\n\nPer strategy:\n\n{}\nPer strategy and tier:\n\n{}\n",
            self.runs,
            self.table(&headers, &self.strategies, true),
            self.table(&headers, &self.tiers, true)
        );
        for line in self.comparisons() {
            out.push_str(&format!("- {line}\n"));
        }
        out
    }

    fn html(&self) -> String {
        let headers = self.headers();
        let table = |rows: &[Row]| {
            let head: String = headers.iter().map(|h| format!("<th>{}</th>", escape(h))).collect();
            let body: String = rows
                .iter()
                .map(|r| {
                    format!(
                        "<tr>{}</tr>\n",
                        self.cells(r).iter().map(|c| format!("<td>{}</td>", escape(c))).collect::<String>()
                    )
                })
                .collect();
            format!("<table>\n<tr>{head}</tr>\n{body}</table>\n")
        };
        let comparisons: String = self.comparisons().iter().map(|l| format!("<li>{}</li>\n", escape(l))).collect();
        format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>ptc bench</title>\n<style>body{{font-family:sans-serif}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child,td:nth-child(2){{text-align:left}}</style></head><body>\n<h1>ptc bench: {} runs</h1>\n<h2>Per strategy</h2>\n{}<h2>Per strategy and tier</h2>\n{}<h2>Against full history</h2>\n<ul>\n{comparisons}</ul>\n</body></html>\n",
            self.runs,
            table(&self.strategies),
            table(&self.tiers)
        )
    }
}

fn summarize(strategy: &str, tier: Option<Tier>, rows: &[&RunRecord], passed: &BTreeMap<&RunKey, bool>) -> Row {
    let n = rows.len() as u64;
    let ok = rows.iter().filter(|r| r.passed).count() as u64;
    let mut cost: BTreeMap<String, f64> = BTreeMap::new();
    let mut errors = BTreeMap::new();
    for r in rows {
        for (model, c) in &r.outcome.cost {
            *cost.entry(model.clone()).or_default() += c;
        }
        if let Some(kind) = r.outcome.error_kind {
            *errors.entry(kind).or_default() += 1;
        }
    }
    let cost_per_solved = cost.iter().map(|(m, c)| (m.clone(), (ok > 0).then(|| c / ok as f64))).collect();
    let versus_full_history = (strategy != FULL_HISTORY)
        .then(|| {
            let pairs: Vec<(bool, bool)> = rows
                .iter()
                .filter_map(|r| {
                    let baseline = RunKey { strategy: FULL_HISTORY.into(), ..r.key.clone() };
                    passed.get(&baseline).map(|&b| (b, r.passed))
                })
                .collect();
            (!pairs.is_empty()).then(|| McNemar::of(pairs))
        })
        .flatten();
    Row {
        strategy: strategy.to_string(),
        tier,
        runs: n,
        passed: ok,
        pass_rate: ok as f64 / n as f64,
        interval: wilson(ok, n),
        mean_turns: rows.iter().map(|r| r.outcome.turns as f64).sum::<f64>() / n as f64,
        mean_prompt_tokens: rows.iter().map(|r| r.outcome.prompt_tokens as f64).sum::<f64>() / n as f64,
        cost,
        cost_per_solved,
        errors,
        versus_full_history,
    }
}

fn kind_name(kind: ErrorKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// A cost with three significant figures or so.
fn figure(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RunEnd, RunOutcome};

    fn record(task: &str, strategy: &str, run: u32, passed: bool) -> RunRecord {
        RunRecord {
            key: RunKey { task: task.into(), strategy: strategy.into(), run },
            tier: if task.starts_with('l') { Tier::Lookup } else { Tier::Long },
            passed,
            outcome: RunOutcome {
                status: RunEnd::Returned,
                turns: 2,
                prompt_tokens: 100,
                cost: BTreeMap::from([("none".into(), 100.0)]),
                ..Default::default()
            },
            wall_ms: 0,
        }
    }

    #[test]
    fn the_report_pairs_runs_with_full_history_and_says_whether_it_differs() {
        let mut records = Vec::new();
        for i in 0..8 {
            let task = if i < 4 { format!("l{i}") } else { format!("x{i}") };
            records.push(record(&task, FULL_HISTORY, 0, true));
            records.push(record(&task, "window", 0, i < 1));
            records.push(record(&task, "other", 0, true));
        }
        let report = Report::new(records);
        assert_eq!(report.runs, 24);
        let names: Vec<&str> = report.strategies.iter().map(|r| r.strategy.as_str()).collect();
        assert_eq!(names, [FULL_HISTORY, "other", "window"]);
        let window = &report.strategies[2];
        assert_eq!((window.runs, window.passed), (8, 1));
        assert_eq!(window.cost_per_solved["none"], Some(800.0));
        let t = window.versus_full_history.unwrap();
        assert_eq!((t.baseline_only, t.strategy_only), (7, 0));
        assert!(t.significant());
        assert!(report.strategies[1].versus_full_history.is_some_and(|t| !t.significant()));
        assert_eq!(report.tiers.len(), 6);
        let text = report.render(Format::Text);
        assert!(text.contains("window vs full-history: 8 paired runs, only full-history passed 7, only window passed 0, exact McNemar p = 0.0156: significant at 5%"), "{text}");
        assert!(text.contains("other vs full-history: 8 paired runs, only full-history passed 0, only other passed 0, exact McNemar p = 1.0000: not significant"), "{text}");
        assert!(report.render(Format::Markdown).contains("| window | all | 8 | 12% [2–47%] |"));
        assert!(report.render(Format::Html).contains("<td>window</td>"));
        let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
        assert_eq!(json["strategies"][2]["passed"], 1);
    }

    #[test]
    fn the_tables_align_figures_right_as_compare_does() {
        let mut records = Vec::new();
        for i in 0..12 {
            records.push(record(&format!("l{i}"), FULL_HISTORY, 0, true));
            records.push(record(&format!("l{i}"), "a-much-longer-strategy-name", 0, i % 3 == 0));
        }
        let report = Report::new(records);
        let text = report.render(Format::Text);
        let table: Vec<&str> = text.lines().skip_while(|l| *l != "per strategy").skip(1).take(3).collect();
        assert!(table[0].starts_with("strategy "), "{text}");
        // Right-aligned: every row's runs figure ends where its header does.
        let end = table[0].find("runs").unwrap() + "runs".len();
        for row in &table[1..] {
            assert_eq!(&row[end - 2..end], "12", "{text}");
            assert_eq!(row.as_bytes()[end], b' ', "{text}");
        }
        let markdown = report.render(Format::Markdown);
        assert!(markdown.contains("| --- | ---: | ---: |"), "{markdown}");
    }
}
