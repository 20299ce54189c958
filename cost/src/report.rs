//! One self-contained HTML page comparing strategies: at the top, the
//! summary over all sessions ([`Overview`]) and the cost-vs-recall chart
//! per price model ([`frontier_chart`]); then per session, a chart of prompt
//! tokens per turn, and per price model one of cost per turn and one of
//! cumulative cost (inline SVG), the summary table, and each strategy's
//! prompt at a chosen turn. No script, font or image is fetched: the page
//! works offline and from a mail attachment. Each strategy keeps one colour
//! and dash pattern on the whole page ([`Palette`]).

mod chart;
mod frontier;
mod style;
mod table;

pub use frontier::{
    frontier, frontier_chart, frontier_lines, frontier_names, frontier_of, frontier_section, frontier_svg,
    FrontierPoint, OFF_SCALE_COST,
};
pub use style::{look, Look, Palette};
pub use table::{fitted_table, table, wrap};

use std::fmt::Write;

use crate::pricing::CostUnit;
use crate::recall::Recall;
use crate::usage::{share, TurnCost};
use chart::{line_chart, Series};

/// What the page shows.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The page's title.
    pub title: String,
    /// The summary over all sessions, shown first.
    pub overview: Option<Overview>,
    /// The cost-vs-recall points, per strategy and price model (one chart
    /// per model, in the order of the sessions' models).
    pub frontier: Vec<FrontierPoint>,
    /// One section per session.
    pub sessions: Vec<SessionReport>,
}

/// A table given cell by cell (the caller's summary over all sessions, so
/// the page shows the figures the text report prints), with notes below.
#[derive(Clone, Debug, Default)]
pub struct Overview {
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells, the first cell naming the strategy.
    pub rows: Vec<Vec<String>>,
    /// Notes below the table (what an `n/a` means, ...).
    pub notes: Vec<String>,
}

/// One session compared across strategies.
#[derive(Clone, Debug, Default)]
pub struct SessionReport {
    /// The session's name (its file stem).
    pub name: String,
    /// The strategy the ratios compare against (usually `full-history`);
    /// `None`: no ratio columns.
    pub baseline: Option<String>,
    /// The strategies, in display order (and chart colour order).
    pub strategies: Vec<StrategyReport>,
}

/// One strategy's figures on one session.
#[derive(Clone, Debug, Default)]
pub struct StrategyReport {
    /// The instance name.
    pub name: String,
    /// Prompt tokens per turn (ptc's count, as `ptc compare` prints).
    pub prompt_tokens: Vec<u64>,
    /// Per price model, the accounted turns; every strategy of a session
    /// lists the same models in the same order.
    pub costs: Vec<ModelCosts>,
    /// Fact recall, when computed.
    pub recall: Option<Recall>,
    /// Stale facts shown ((turn, correction) pairs), when computed.
    pub stale: Option<usize>,
    /// The prompt of one turn, shown collapsed.
    pub shown_prompt: Option<ShownPrompt>,
}

/// A strategy's turns under one price model.
#[derive(Clone, Debug)]
pub struct ModelCosts {
    /// The model's name.
    pub model: String,
    /// What its costs are counted in.
    pub unit: CostUnit,
    /// Per turn, from [`crate::Accounting::turn`].
    pub turns: Vec<TurnCost>,
}

impl ModelCosts {
    fn total(&self) -> TurnCost {
        let mut total = TurnCost::default();
        self.turns.iter().for_each(|t| total.add(t));
        total
    }
}

/// A prompt as the model received it.
#[derive(Clone, Debug)]
pub struct ShownPrompt {
    /// The turn (1-based) it was sent for.
    pub turn: usize,
    /// Its text.
    pub text: String,
}

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#222}
h1{font-size:1.6rem}h2{font-size:1.3rem;border-bottom:1px solid #ddd;padding-bottom:.3rem;margin-top:2.5rem}
table{border-collapse:collapse;font-size:.9rem;margin:1rem 0}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:right}
th{background:#f5f5f5}td:first-child,th:first-child{text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:1rem}
figure{margin:0;flex:1 1 520px;max-width:600px}figcaption{font-weight:600;margin-bottom:.3rem}
svg.chart{width:100%;height:auto;background:#fff}
.line{fill:none;stroke-width:2}.grid{stroke:#eee}.axis{stroke:#888}
text.tick,text.axis{font-size:11px;fill:#555;stroke:none}
.legend{display:flex;flex-wrap:wrap;gap:1rem;margin:.5rem 0;font-size:.9rem}
.swatch{display:inline-block;width:2em;height:0;border-top:3px solid;vertical-align:middle;margin-right:.3em}
.swatch.d1{border-top-style:dashed}.swatch.d2{border-top-style:dotted}
.frontier-line{fill:none;stroke:#999;stroke-width:1.5;stroke-dasharray:6 4}.baseline{stroke-dasharray:4 3}
text.label{font-size:10px;fill:#333}circle.point{stroke:#fff;stroke-width:1}.leader{stroke:#bbb;stroke-width:.8}
details{margin:.4rem 0}summary{cursor:pointer}
pre{white-space:pre-wrap;background:#f8f8f8;border:1px solid #eee;padding:.6rem;font-size:.8rem;max-height:40rem;overflow:auto}
.note{color:#555;font-size:.9rem}
";

/// `text` safe inside HTML text and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `12345` as `12,345`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let lead = match digits.len() % 3 {
        0 => 3.min(digits.len()),
        r => r,
    };
    let mut out = digits[..lead].to_string();
    for group in digits.as_bytes()[lead..].chunks(3) {
        out.push(',');
        out.push_str(std::str::from_utf8(group).expect("ASCII digits"));
    }
    out
}

fn format_cost(cost: f64, unit: CostUnit) -> String {
    match unit {
        CostUnit::InputTokens => thousands(cost.round() as u64),
        CostUnit::Money if cost >= 100.0 => format!("{cost:.2}"),
        CostUnit::Money => format!("{cost:.4}"),
    }
}

fn percent(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1}%", 100.0 * part / whole)
    } else {
        "–".to_string()
    }
}

/// The page for `report`.
pub fn render_html(report: &Report) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <p class=\"note\">Costs are in each price model's unit: input-token equivalents for the built-in models \
         (one uncached input token = 1), money for models priced per million tokens. Cache-hit share: prompt tokens \
         read from the cache / prompt tokens. Recall: learned facts a turn's program used that its prompt still \
         showed.</p>\n",
        title = escape(&report.title)
    );
    let palette = Palette::new(report.sessions.iter().flat_map(|s| s.strategies.iter().map(|r| r.name.as_str())));
    render_overview(&mut html, report, &palette);
    for session in &report.sessions {
        render_session(&mut html, session, &palette);
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// The summary over all sessions and the frontier charts.
fn render_overview(html: &mut String, report: &Report, palette: &Palette) {
    if report.overview.is_none() && report.frontier.is_empty() {
        return;
    }
    html.push_str("<section class=\"overview\" data-session=\"all\">\n<h2>All sessions</h2>\n");
    if let Some(o) = &report.overview {
        html.push_str("<table class=\"overview\">\n<thead><tr>");
        for h in &o.headers {
            let _ = write!(html, "<th>{}</th>", escape(h));
        }
        html.push_str("</tr></thead>\n<tbody>\n");
        for row in &o.rows {
            html.push_str("<tr>");
            for cell in row {
                let _ = write!(html, "<td>{}</td>", escape(cell));
            }
            html.push_str("</tr>\n");
        }
        html.push_str("</tbody>\n</table>\n");
        for note in &o.notes {
            let _ = writeln!(html, "<p class=\"note\">{}</p>", escape(note));
        }
    }
    let models = frontier::models_of(&report.frontier);
    if !models.is_empty() {
        html.push_str("<div class=\"charts\">\n");
        let looks = |name: &str| palette.look(name);
        for model in models {
            let caption = format!("Input cost vs fact recall, {model} (frontier dashed)");
            figure(html, &caption, &frontier_chart(model, &report.frontier, &looks));
        }
        html.push_str("</div>\n");
    }
    html.push_str("</section>\n");
}

fn render_session(html: &mut String, session: &SessionReport, palette: &Palette) {
    let _ = write!(
        html,
        "<section class=\"session\" data-session=\"{name}\">\n<h2>{name}</h2>\n",
        name = escape(&session.name)
    );
    render_summary(html, session);

    html.push_str("<div class=\"legend\">");
    let looks: Vec<Look> = session.strategies.iter().map(|s| palette.look(&s.name)).collect();
    for (s, look) in session.strategies.iter().zip(&looks) {
        let dash = ["", "7 4", "2 3"].iter().position(|d| *d == look.dash).unwrap_or(0);
        let _ = write!(
            html,
            "<span><span class=\"swatch d{dash}\" style=\"border-top-color:{}\"></span>{}</span>",
            look.color,
            escape(&s.name)
        );
    }
    html.push_str("</div>\n<div class=\"charts\">\n");
    let series = |value: &dyn Fn(&StrategyReport) -> Vec<f64>| -> Vec<Series> {
        session
            .strategies
            .iter()
            .zip(&looks)
            .map(|(s, look)| Series { name: &s.name, color: &look.color, dash: look.dash, values: value(s) })
            .collect()
    };
    let tokens = series(&|s| s.prompt_tokens.iter().map(|&t| t as f64).collect());
    figure(html, "Prompt tokens per turn", &line_chart("tokens", "prompt tokens", &tokens));
    for (m, model) in models(session).iter().enumerate() {
        let costs =
            series(&|s| s.costs.get(m).map_or(Vec::new(), |c| c.turns.iter().map(|t| t.cost.total()).collect()));
        let caption = format!("Cost per turn, {model}");
        figure(html, &caption, &line_chart(&format!("cost:{model}"), &caption, &costs));
        let cumulative = series(&|s| {
            s.costs.get(m).map_or(Vec::new(), |c| {
                c.turns
                    .iter()
                    .scan(0.0, |sum, t| {
                        *sum += t.cost.total();
                        Some(*sum)
                    })
                    .collect()
            })
        });
        let caption = format!("Cumulative cost, {model}");
        figure(html, &caption, &line_chart(&format!("cumulative:{model}"), &caption, &cumulative));
    }
    html.push_str("</div>\n");

    for s in &session.strategies {
        if let Some(p) = &s.shown_prompt {
            let _ = writeln!(
                html,
                "<details data-strategy=\"{name}\"><summary>{name}: prompt of turn {turn} ({chars} characters)</summary>\
                 <pre>{text}</pre></details>",
                name = escape(&s.name),
                turn = p.turn,
                chars = thousands(p.text.chars().count() as u64),
                text = escape(&p.text)
            );
        }
    }
    html.push_str("</section>\n");
}

fn figure(html: &mut String, caption: &str, svg: &str) {
    let _ = writeln!(html, "<figure><figcaption>{}</figcaption>{svg}</figure>", escape(caption));
}

/// The price models of a session, in the order its strategies list them.
fn models(session: &SessionReport) -> Vec<&str> {
    session.strategies.first().map_or(Vec::new(), |s| s.costs.iter().map(|c| c.model.as_str()).collect())
}

fn render_summary(html: &mut String, session: &SessionReport) {
    let baseline = session.baseline.as_ref().and_then(|b| session.strategies.iter().find(|s| &s.name == b));
    let ratio = baseline.is_some();
    let models = models(session);
    html.push_str(
        "<table class=\"summary\">\n<thead><tr><th rowspan=\"2\">strategy</th><th rowspan=\"2\">prompt tokens</th>",
    );
    if let Some(b) = baseline {
        let _ = write!(html, "<th rowspan=\"2\">vs {}</th>", escape(&b.name));
    }
    for model in &models {
        let _ = write!(html, "<th colspan=\"{}\">{}</th>", if ratio { 3 } else { 2 }, escape(model));
    }
    html.push_str("<th rowspan=\"2\">recall</th><th rowspan=\"2\">stale facts shown</th></tr>\n<tr>");
    for _ in &models {
        html.push_str("<th>cache hits</th><th>cost</th>");
        if ratio {
            html.push_str("<th>vs baseline</th>");
        }
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    let total_tokens = |s: &StrategyReport| s.prompt_tokens.iter().sum::<u64>();
    for s in &session.strategies {
        let _ = write!(html, "<tr><td>{}</td><td>{}</td>", escape(&s.name), thousands(total_tokens(s)));
        if let Some(b) = baseline {
            let _ = write!(html, "<td>{}</td>", percent(total_tokens(s) as f64, total_tokens(b) as f64));
        }
        for (m, _) in models.iter().enumerate() {
            match s.costs.get(m) {
                Some(c) => {
                    let total = c.total();
                    let _ = write!(
                        html,
                        "<td>{:.1}%</td><td>{}</td>",
                        100.0 * share(total.usage.cache_read_tokens, total.usage.prompt_tokens),
                        format_cost(total.cost.total(), c.unit)
                    );
                    if let Some(b) = baseline {
                        let base = b.costs.get(m).map_or(0.0, |c| c.total().cost.total());
                        let _ = write!(html, "<td>{}</td>", percent(total.cost.total(), base));
                    }
                }
                None => html.push_str(if ratio { "<td></td><td></td><td></td>" } else { "<td></td><td></td>" }),
            }
        }
        let recall = match s.recall.as_ref() {
            Some(r) if r.used > 0 => format!("{} ({}/{})", percent(r.visible as f64, r.used as f64), r.visible, r.used),
            Some(_) => "no learned facts used".to_string(),
            None => "–".to_string(),
        };
        let stale = s.stale.map_or("–".to_string(), |n| n.to_string());
        let _ = writeln!(html, "<td>{recall}</td><td>{stale}</td></tr>");
    }
    html.push_str("</tbody>\n</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::{Cost, Usage};

    fn turn(read: u64, prompt: u64, cost: f64) -> TurnCost {
        TurnCost {
            usage: Usage {
                prompt_tokens: prompt,
                cache_read_tokens: read,
                cache_write_tokens: 0,
                uncached_tokens: prompt - read,
                output_tokens: None,
            },
            cost: Cost { input: cost, output: None },
        }
    }

    fn strategy(name: &str, tokens: &[u64], cost: f64, recall: Option<(usize, usize)>) -> StrategyReport {
        StrategyReport {
            name: name.to_string(),
            prompt_tokens: tokens.to_vec(),
            costs: vec![ModelCosts {
                model: "anthropic".into(),
                unit: CostUnit::InputTokens,
                turns: tokens.iter().map(|&t| turn(t / 2, t, cost)).collect(),
            }],
            recall: recall.map(|(used, visible)| Recall { used, visible, ..Recall::default() }),
            stale: Some(1),
            shown_prompt: Some(ShownPrompt { turn: 2, text: format!("<system> {name} & \"quotes\"") }),
        }
    }

    #[test]
    fn summary_has_ratios_to_the_baseline_and_escaped_prompts() {
        let report = Report {
            title: "ptc <compare>".into(),
            overview: None,
            frontier: Vec::new(),
            sessions: vec![SessionReport {
                name: "s1".into(),
                baseline: Some("full-history".into()),
                strategies: vec![
                    strategy("full-history", &[1000, 2000, 3000], 1000.0, Some((4, 4))),
                    strategy("coalesced", &[1000, 1000, 1000], 1500.0, Some((4, 3))),
                ],
            }],
        };
        let html = render_html(&report);
        assert!(html.contains("<title>ptc &lt;compare&gt;</title>"));
        // Tokens 3,000 of 6,000; cost 4,500 of 3,000; cache hits half.
        assert!(html.contains("<tr><td>coalesced</td><td>3,000</td><td>50.0%</td><td>50.0%</td><td>4,500</td><td>150.0%</td><td>75.0% (3/4)</td><td>1</td></tr>"), "{html}");
        assert!(html.contains("&lt;system&gt; coalesced &amp; &quot;quotes&quot;"));
        assert!(!html.contains("<system>"));
        // Tokens, cost per turn and cumulative cost: 3 charts of 2 lines.
        assert_eq!(html.matches("<polyline").count(), 6);
        assert!(!html.contains("All sessions"), "no overview given");
        assert!(!html.contains("http"), "the page fetches nothing");
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(format_cost(0.012345, CostUnit::Money), "0.0123");
        assert_eq!(format_cost(1234.4, CostUnit::InputTokens), "1,234");
        assert_eq!(percent(1.0, 0.0), "–");
    }
}
