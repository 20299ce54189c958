//! The cost-vs-recall chart: one point per strategy under one price
//! model, cost as a share of the baseline's (usually full history) across,
//! fact recall up; the strategies no other beats on both (cheaper and
//! recalling at least as much) joined by the frontier line.

use std::fmt::Write;

use super::escape;
use super::style::Look;

/// One strategy under one price model.
#[derive(Clone, Debug, PartialEq)]
pub struct FrontierPoint {
    /// The instance name.
    pub strategy: String,
    /// The price model.
    pub model: String,
    /// Input cost as a share of the baseline's (1.0 = the same).
    pub cost: f64,
    /// Fact recall, a share (`None`: no learned fact was used; not drawn).
    pub recall: Option<f64>,
}

/// Costs above this share of the baseline's are off the scale: drawn at
/// the right edge, their label giving the cost. One far outlier (a layout
/// that breaks the cache every turn costs several times the full history)
/// would otherwise squeeze every other point into the chart's left
/// quarter, where the frontier is.
pub const OFF_SCALE_COST: f64 = 2.0;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 340.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 40.0;

/// The points no other point beats: none is cheaper with at least the
/// same recall. In cost order.
pub fn frontier(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    frontier_indices(points).into_iter().map(|i| points[i]).collect()
}

/// [`frontier`] as indices into `points` (of two equal points, the first).
fn frontier_indices(points: &[(f64, f64)]) -> Vec<usize> {
    let mut sorted: Vec<usize> =
        (0..points.len()).filter(|&i| points[i].0.is_finite() && points[i].1.is_finite()).collect();
    sorted.sort_by(|&a, &b| points[a].0.total_cmp(&points[b].0).then(points[b].1.total_cmp(&points[a].1)));
    let mut out: Vec<usize> = Vec::new();
    for i in sorted {
        if out.last().is_none_or(|&last| points[i].1 > points[last].1) {
            out.push(i);
        }
    }
    out
}

/// The points of `model` that a chart draws: a recall, a finite cost.
fn drawn<'a>(model: &str, points: &'a [FrontierPoint]) -> Vec<&'a FrontierPoint> {
    points.iter().filter(|p| p.model == model && p.recall.is_some() && p.cost.is_finite()).collect()
}

/// The price models of `points`, each once, in the order they first come.
pub(super) fn models_of(points: &[FrontierPoint]) -> Vec<&str> {
    let mut models: Vec<&str> = Vec::new();
    for p in points {
        if !models.contains(&p.model.as_str()) {
            models.push(&p.model);
        }
    }
    models
}

/// The strategies on `model`'s frontier (no other is cheaper and recalls
/// at least as much), cheapest first: what the chart's dashed line joins.
pub fn frontier_of<'a>(model: &str, points: &'a [FrontierPoint]) -> Vec<&'a FrontierPoint> {
    unbeaten(&drawn(model, points))
}

/// [`frontier_of`] among the points one chart draws.
fn unbeaten<'a>(drawn: &[&'a FrontierPoint]) -> Vec<&'a FrontierPoint> {
    let at: Vec<(f64, f64)> = drawn.iter().map(|p| (p.cost, p.recall.unwrap_or(0.0))).collect();
    frontier_indices(&at).into_iter().map(|i| drawn[i]).collect()
}

/// The names of [`frontier_of`]'s strategies.
pub fn frontier_names(model: &str, points: &[FrontierPoint]) -> Vec<String> {
    frontier_of(model, points).into_iter().map(|p| p.strategy.clone()).collect()
}

/// The frontier section of a text or markdown report: a heading, then
/// [`frontier_lines`], as a list in markdown and wrapped to `width` in
/// text; empty without points.
pub fn frontier_section(points: &[FrontierPoint], markdown: bool, width: Option<usize>) -> String {
    let lines = frontier_lines(points);
    if lines.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nFrontier (the instances no other beats on both cost and recall; cost vs full-history, then recall):\n",
    );
    for line in lines {
        let item = if markdown { format!("- {line}") } else { line };
        out.push_str(&width.map_or_else(|| item.clone(), |w| super::wrap(&item, w)));
        out.push('\n');
    }
    out
}

/// Why a model has no frontier (and its chart no point): nothing to rank
/// recall by.
const NO_RECALL: &str = "no program reused a learned fact in these sessions";

/// The frontier of each model of `points`, in their order, as one line
/// of text: `anthropic: no-history 16.8% 1.1%, aggressive 52.7% 95.3%,
/// ...` (cost as a share of the baseline's, then recall), for a report
/// without the chart.
pub fn frontier_lines(points: &[FrontierPoint]) -> Vec<String> {
    models_of(points)
        .into_iter()
        .map(|model| {
            let best: Vec<String> = frontier_of(model, points)
                .iter()
                .map(|p| format!("{} {:.1}% {:.1}%", p.strategy, p.cost * 100.0, p.recall.unwrap_or(0.0) * 100.0))
                .collect();
            match best.is_empty() {
                true => format!("{model}: n/a ({NO_RECALL}, so recall ranks nothing)"),
                false => format!("{model}: {}", best.join(", ")),
            }
        })
        .collect()
}

/// The chart of `model`'s points (the others are skipped), as an `<svg>`
/// element; `looks` gives each strategy's colour by name.
pub fn frontier_chart(model: &str, points: &[FrontierPoint], looks: &dyn Fn(&str) -> Look) -> String {
    let mine = drawn(model, points);
    let max_cost = mine.iter().map(|p| p.cost).filter(|&c| c <= OFF_SCALE_COST).fold(1.1, f64::max);
    let right_edge = (max_cost * 10.0).ceil() / 10.0;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |cost: f64| LEFT + cost.min(right_edge) / right_edge * plot_w;
    let off_scale = |p: &FrontierPoint| p.cost > right_edge;
    let name = |p: &FrontierPoint| match off_scale(p) {
        true => format!("{} ({:.0}%) \u{2192}", p.strategy, p.cost * 100.0),
        false => p.strategy.clone(),
    };
    let y = |recall: f64| TOP + plot_h - recall * plot_h;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart frontier" data-chart="frontier:{m}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="cost vs recall, {m}">"#,
        m = escape(model)
    );
    for tenth in 0..=10 {
        let r = f64::from(tenth) / 10.0;
        if tenth % 2 == 0 {
            let _ = write!(
                svg,
                r#"<line class="grid" x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}"/><text class="tick" x="{}" y="{:.1}" text-anchor="end">{}%</text>"#,
                WIDTH - RIGHT,
                LEFT - 6.0,
                y(r) + 4.0,
                tenth * 10,
                y = y(r),
            );
        }
    }
    let step = if right_edge > 2.0 { 0.5 } else { 0.25 };
    let mut c = 0.0;
    while c <= right_edge + 1e-9 {
        let _ = write!(
            svg,
            r#"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{TOP}" y2="{}"/><text class="tick" x="{x:.1}" y="{}" text-anchor="middle">{:.0}%</text>"#,
            TOP + plot_h,
            HEIGHT - BOTTOM + 16.0,
            c * 100.0,
            x = x(c),
        );
        c += step;
    }
    let _ = write!(
        svg,
        r#"<line class="axis baseline" x1="{x1:.1}" x2="{x1:.1}" y1="{TOP}" y2="{}"/><text class="axis" x="{:.1}" y="{}" text-anchor="middle">input cost vs full-history ({})</text><text class="axis" x="12" y="{:.1}" text-anchor="middle" transform="rotate(-90 12 {:.1})">fact recall</text>"#,
        TOP + plot_h,
        LEFT + plot_w / 2.0,
        HEIGHT - 6.0,
        escape(model),
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        x1 = x(1.0),
    );
    if mine.is_empty() {
        let _ = write!(
            svg,
            r#"<text class="label no-points" x="{:.1}" y="{:.1}" text-anchor="middle">n/a: {}</text>"#,
            LEFT + plot_w / 2.0,
            TOP + plot_h / 2.0,
            escape(NO_RECALL)
        );
    }
    let best = unbeaten(&mine);
    if best.len() > 1 {
        let line: Vec<String> =
            best.iter().map(|p| format!("{:.1},{:.1}", x(p.cost), y(p.recall.unwrap_or(0.0)))).collect();
        let _ = write!(svg, r#"<polyline class="frontier-line" points="{}"/>"#, line.join(" "));
    }
    let at: Vec<(f64, f64)> = mine.iter().map(|p| (x(p.cost), y(p.recall.unwrap_or(0.0)))).collect();
    let widths: Vec<f64> = mine.iter().map(|p| label_width(&name(p))).collect();
    let labels = place_labels(&at, &widths);
    for ((p, &(px, py)), label) in mine.iter().zip(&at).zip(&labels) {
        let look = looks(&p.strategy);
        let _ = write!(
            svg,
            r#"<circle class="point{off}" data-strategy="{name}" data-model="{m}" cx="{px:.1}" cy="{py:.1}" r="{POINT_RADIUS}" fill="{color}"><title>{name}: cost {:.1}%, recall {:.1}%</title></circle>"#,
            p.cost * 100.0,
            p.recall.unwrap_or(0.0) * 100.0,
            off = if off_scale(p) { " off-scale" } else { "" },
            name = escape(&p.strategy),
            m = escape(model),
            color = look.color,
        );
        if let Some((lx, ly)) = label.leader {
            let _ = write!(svg, r#"<line class="leader" x1="{px:.1}" y1="{py:.1}" x2="{lx:.1}" y2="{ly:.1}"/>"#);
        }
        let _ = write!(
            svg,
            r#"<text class="label" x="{:.1}" y="{:.1}" text-anchor="{}">{}</text>"#,
            label.x,
            label.y,
            label.anchor,
            escape(&name(p))
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Radius of a point.
const POINT_RADIUS: f64 = 5.0;
/// A label's advance per character, an upper bound for the 10 px labels
/// (`text.label`) in common sans-serif fonts.
const LABEL_CHAR_WIDTH: f64 = 6.0;
/// A label's height above its baseline and below it.
const LABEL_ASCENT: f64 = 10.0;
const LABEL_DESCENT: f64 = 3.0;
/// Rows tried above and below a point before a label overlaps.
const LABEL_ROWS: usize = 14;

/// Where a point's label goes: its baseline, its `text-anchor`, and the
/// end of a leader line when it sits away from its point.
#[derive(Clone, Debug, PartialEq)]
struct Label {
    x: f64,
    y: f64,
    anchor: &'static str,
    leader: Option<(f64, f64)>,
}

impl Label {
    /// Its box: left, top, right, bottom.
    fn bounds(&self, width: f64) -> [f64; 4] {
        let left = if self.anchor == "end" { self.x - width } else { self.x };
        [left, self.y - LABEL_ASCENT, left + width, self.y + LABEL_DESCENT]
    }
}

fn label_width(text: &str) -> f64 {
    text.chars().count() as f64 * LABEL_CHAR_WIDTH
}

/// A point's box: left, top, right, bottom.
fn dot(px: f64, py: f64) -> [f64; 4] {
    [px - POINT_RADIUS, py - POINT_RADIUS, px + POINT_RADIUS, py + POINT_RADIUS]
}

fn overlaps(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Places each point's label (`widths` wide) where it overlaps no other
/// label and no point and stays inside the chart: beside its point first
/// (right, then left; above, level, below), else on a free row further up
/// or down with a leader line. Points are labelled top to bottom, left to
/// right, so the result depends on the points only, not their order.
fn place_labels(points: &[(f64, f64)], widths: &[f64]) -> Vec<Label> {
    let dots: Vec<[f64; 4]> = points.iter().map(|&(px, py)| dot(px, py)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].1.total_cmp(&points[b].1).then(points[a].0.total_cmp(&points[b].0)));
    let mut placed: Vec<Option<(Label, [f64; 4])>> = vec![None; points.len()];
    for i in order {
        let (px, py) = points[i];
        let near = [
            ("start", px + 7.0, py - 6.0),
            ("start", px + 8.0, py + 3.0),
            ("start", px + 7.0, py + 13.0),
            ("end", px - 7.0, py - 6.0),
            ("end", px - 8.0, py + 3.0),
            ("end", px - 7.0, py + 13.0),
        ]
        .map(|(anchor, x, y)| Label { x, y, anchor, leader: None });
        let far = (1..=LABEL_ROWS).flat_map(|row| {
            let dy = row as f64 * (LABEL_ASCENT + LABEL_DESCENT);
            [py - 6.0 - dy, py + 13.0 + dy].into_iter().flat_map(move |y| {
                // The leader ends at the label's near corner.
                let end_y = if y < py { y + LABEL_DESCENT } else { y - LABEL_ASCENT };
                [("start", px + 12.0, px + 10.0), ("end", px - 12.0, px - 10.0)].map(|(anchor, x, end_x)| Label {
                    x,
                    y,
                    anchor,
                    leader: Some((end_x, end_y)),
                })
            })
        });
        let free = |label: &Label| {
            let b = label.bounds(widths[i]);
            b[0] >= 0.0
                && b[1] >= 0.0
                && b[2] <= WIDTH
                && b[3] <= HEIGHT
                && !dots.iter().any(|&d| overlaps(b, d))
                && !placed.iter().flatten().any(|(_, other)| overlaps(b, *other))
        };
        let first = near[0].clone();
        let label = near.into_iter().chain(far).find(free).unwrap_or(first);
        let bounds = label.bounds(widths[i]);
        placed[i] = Some((label, bounds));
    }
    placed.into_iter().map(|p| p.expect("every point is labelled").0).collect()
}

/// The CSS the charts need, for an SVG file read on its own.
const SVG_STYLE: &str = ".grid{stroke:#eee}.axis{stroke:#888}.baseline{stroke-dasharray:4 3}\
text{font-family:system-ui,sans-serif}text.tick,text.axis{font-size:11px;fill:#555;stroke:none}\
text.label{font-size:10px;fill:#333}.frontier-line{fill:none;stroke:#999;stroke-width:1.5;stroke-dasharray:6 4}\
.leader{stroke:#bbb;stroke-width:.8}text.title{font-size:13px;font-weight:600;fill:#222}";

/// A standalone SVG file: one frontier chart per model, side by side,
/// each titled with its model (for docs: `ptc compare --chart FILE`).
pub fn frontier_svg(models: &[&str], points: &[FrontierPoint], looks: &dyn Fn(&str) -> Look) -> String {
    let count = models.len().max(1) as f64;
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}"><style>{SVG_STYLE}</style><rect width="100%" height="100%" fill="#fff"/>"##,
        w = WIDTH * count,
        h = HEIGHT + 24.0
    );
    for (i, model) in models.iter().enumerate() {
        let x = WIDTH * i as f64;
        let _ = write!(
            svg,
            r#"<text class="title" x="{:.1}" y="16" text-anchor="middle">{}</text><svg x="{x}" y="24" width="{WIDTH}" height="{HEIGHT}">{}</svg>"#,
            x + WIDTH / 2.0,
            escape(model),
            frontier_chart(model, points, looks)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(strategy: &str, model: &str, cost: f64, recall: f64) -> FrontierPoint {
        FrontierPoint { strategy: strategy.into(), model: model.into(), cost, recall: Some(recall) }
    }

    #[test]
    fn the_frontier_keeps_what_nothing_beats() {
        let points = [(1.0, 1.0), (0.6, 0.8), (0.7, 0.7), (0.5, 0.2), (0.9, 1.0), (f64::NAN, 1.0)];
        assert_eq!(frontier(&points), [(0.5, 0.2), (0.6, 0.8), (0.9, 1.0)]);
        assert!(frontier(&[]).is_empty());
    }

    /// Nine points within a few pixels of each other, one at the right
    /// edge: every label overlaps no other label and no point, stays in the
    /// chart, and is where it is whatever the order of the points.
    #[test]
    fn crowded_labels_take_free_places_inside_the_chart() {
        let mut points: Vec<(f64, f64)> =
            (0..8).map(|i| (300.0 + f64::from(i % 3) * 4.0, 30.0 + f64::from(i) * 2.0)).collect();
        points.push((WIDTH - 8.0, 120.0));
        let widths: Vec<f64> = (0..points.len()).map(|i| label_width(&"x".repeat(8 + i))).collect();
        let labels = place_labels(&points, &widths);
        let boxes: Vec<[f64; 4]> = labels.iter().zip(&widths).map(|(l, &w)| l.bounds(w)).collect();
        for (i, b) in boxes.iter().enumerate() {
            assert!(b[0] >= 0.0 && b[1] >= 0.0 && b[2] <= WIDTH && b[3] <= HEIGHT, "label {i} {b:?}");
            for (j, other) in boxes.iter().enumerate().skip(i + 1) {
                assert!(!overlaps(*b, *other), "labels {i} and {j}: {b:?} {other:?}");
            }
            for (j, &(px, py)) in points.iter().enumerate() {
                assert!(!overlaps(*b, dot(px, py)), "label {i} covers point {j}");
            }
        }
        assert_eq!(labels[8].anchor, "end", "the right-edge label turns left");
        assert!(labels.iter().any(|l| l.leader.is_some()), "the crowd needs leader lines");
        let reversed: Vec<(f64, f64)> = points.iter().rev().copied().collect();
        let widths_reversed: Vec<f64> = widths.iter().rev().copied().collect();
        let again: Vec<Label> = place_labels(&reversed, &widths_reversed).into_iter().rev().collect();
        assert_eq!(again, labels);
    }

    /// A point at 4.5 times the baseline's cost does not set the scale:
    /// the axis ends at 110%, the point sits on its right edge, and its
    /// label gives its cost.
    #[test]
    fn a_point_off_the_scale_sits_on_the_right_edge_with_its_cost() {
        let point = |s: &str, cost| point(s, "m", cost, 0.9);
        let look = |_: &str| Look { color: "#123456".into(), dash: "" };
        let svg = frontier_chart("m", &[point("full", 1.0), point("cheap", 0.5), point("masking", 4.56)], &look);
        assert!(svg.contains(">100%</text>") && !svg.contains(">150%</text>"), "{svg}");
        let edge = format!(r#"cx="{:.1}""#, WIDTH - RIGHT);
        let off = svg.find(r#"<circle class="point off-scale" data-strategy="masking""#).expect("off-scale point");
        assert!(svg[off..].split("</circle>").next().unwrap().contains(&edge), "{svg}");
        assert!(svg.contains("masking (456%) \u{2192}</text>"), "{svg}");
        assert_eq!(svg.matches("off-scale").count(), 1, "{svg}");
        // Within the scale, a point stays where its cost is.
        let svg = frontier_chart("m", &[point("full", 1.0), point("dear", 1.9)], &look);
        assert!(svg.contains(">175%</text>") && !svg.contains("off-scale"), "{svg}");
    }

    #[test]
    fn the_frontier_as_text_names_each_model_s_unbeaten_strategies() {
        let points = [
            point("full", "a", 1.0, 0.97),
            point("same-as-full", "a", 1.0, 0.97),
            point("cheap", "a", 0.5, 0.95),
            point("beaten", "a", 0.6, 0.9),
            point("floor", "a", 0.17, 0.01),
            point("full", "b", 1.0, 0.97),
            point("dear", "b", 4.5, 0.99),
            FrontierPoint { recall: None, ..point("unused", "b", 0.1, 0.0) },
        ];
        assert_eq!(
            frontier_lines(&points),
            ["a: floor 17.0% 1.0%, cheap 50.0% 95.0%, full 100.0% 97.0%", "b: full 100.0% 97.0%, dear 450.0% 99.0%"]
        );
        // Sessions in which no program reused a fact: no recall, no frontier.
        let unused = [FrontierPoint { recall: None, ..point("full", "a", 1.0, 0.0) }];
        assert_eq!(
            frontier_lines(&unused),
            ["a: n/a (no program reused a learned fact in these sessions, so recall ranks nothing)"]
        );
        // The chart says so too, instead of an empty plot.
        let look = |_: &str| Look { color: "#123456".into(), dash: "" };
        let svg = frontier_chart("a", &unused, &look);
        assert!(svg.contains(">n/a: no program reused a learned fact in these sessions</text>"), "{svg}");
        assert!(!svg.contains("<circle"), "{svg}");
    }

    #[test]
    fn one_point_per_strategy_of_the_model() {
        let points = [
            point("full-history", "anthropic", 1.0, 1.0),
            point("a<b", "anthropic", 0.6, 0.9),
            point("a<b", "openai", 0.5, 0.9),
            FrontierPoint { recall: None, ..point("none-used", "anthropic", 0.5, 0.0) },
        ];
        let look = |_: &str| Look { color: "#123456".into(), dash: "" };
        let svg = frontier_chart("anthropic", &points, &look);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains(r#"data-strategy="a&lt;b""#));
        assert!(svg.contains("frontier-line"));
        let file = frontier_svg(&["anthropic", "openai"], &points, &look);
        assert!(file.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(file.matches("<circle").count(), 3);
        assert!(!file.contains("NaN"));
    }
}
