//! Line charts as inline SVG: one polyline per series, marked with
//! `data-strategy` so a reader (or a test) can tell which is which.

use std::fmt::Write;

use super::escape;

/// One line of a chart.
pub(super) struct Series<'a> {
    pub name: &'a str,
    pub color: &'a str,
    /// A `stroke-dasharray`, empty for a solid line.
    pub dash: &'a str,
    /// The value at turn 1, 2, ...
    pub values: Vec<f64>,
}

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 36.0;

/// A round step near `range / 4` (1, 2 or 5 times a power of ten).
fn nice_step(range: f64) -> f64 {
    let raw = range / 4.0;
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power)
}

/// A tick label: integers with thousands separators, small values with
/// the decimals they need.
pub(super) fn tick_label(v: f64) -> String {
    if v == 0.0 || v.abs() >= 10.0 {
        super::thousands(v.round() as u64)
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// An SVG line chart of `series` over turns. `kind` goes to `data-chart`.
pub(super) fn line_chart(kind: &str, y_label: &str, series: &[Series]) -> String {
    let turns = series.iter().map(|s| s.values.len()).max().unwrap_or(0).max(1);
    let max = series.iter().flat_map(|s| &s.values).copied().filter(|v| v.is_finite()).fold(0.0, f64::max);
    let step = nice_step(max);
    let top = (max / step).ceil().max(1.0) * step;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x =
        |turn: usize| LEFT + if turns == 1 { plot_w / 2.0 } else { (turn - 1) as f64 * plot_w / (turns - 1) as f64 };
    let y = |v: f64| TOP + plot_h - v / top * plot_h;

    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart" data-chart="{}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{}">"#,
        escape(kind),
        escape(y_label)
    );
    // Horizontal grid and y labels.
    let mut v = 0.0;
    while v <= top + step / 2.0 {
        let _ = write!(
            svg,
            r#"<line class="grid" x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}"/><text class="tick" x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y(v) + 4.0,
            tick_label(v),
            y = y(v),
        );
        v += step;
    }
    // X labels: about eight turns.
    let every = turns.div_ceil(8).max(1);
    // The last turn always, the regular ticks unless they would touch it.
    let ticks = (1..=turns).filter(|t| *t == turns || ((t - 1) % every == 0 && turns - t >= every.div_ceil(2)));
    for turn in ticks {
        let _ = write!(
            svg,
            r#"<text class="tick" x="{:.1}" y="{}" text-anchor="middle">{turn}</text>"#,
            x(turn),
            HEIGHT - BOTTOM + 16.0
        );
    }
    let _ = write!(
        svg,
        r#"<text class="axis" x="{:.1}" y="{}" text-anchor="middle">turn</text><line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}"/><line class="axis" x1="{LEFT}" x2="{}" y1="{}" y2="{}"/>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 4.0,
        TOP + plot_h,
        WIDTH - RIGHT,
        TOP + plot_h,
        TOP + plot_h
    );
    for s in series {
        let points: Vec<String> = s
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, v)| format!("{:.1},{:.1}", x(i + 1), y(*v)))
            .collect();
        let dash = if s.dash.is_empty() { String::new() } else { format!(r#" stroke-dasharray="{}""#, s.dash) };
        let _ = write!(
            svg,
            r#"<polyline class="line" data-strategy="{name}" stroke="{color}"{dash} points="{}"><title>{name}</title></polyline>"#,
            points.join(" "),
            name = escape(s.name),
            color = s.color,
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(1000.0), 500.0);
        assert_eq!(nice_step(4000.0), 1000.0);
        assert_eq!(nice_step(0.0), 1.0);
        assert_eq!(nice_step(3.0), 1.0);
        assert_eq!(tick_label(12500.0), "12,500");
        assert_eq!(tick_label(0.025), "0.025");
    }

    #[test]
    fn one_polyline_per_series_with_its_name() {
        let svg = line_chart(
            "tokens",
            "prompt tokens",
            &[
                Series { name: "full-history", color: "#111", dash: "", values: vec![100.0, 200.0, 300.0] },
                Series { name: "a<b", color: "#222", dash: "2 3", values: vec![100.0, 150.0, 160.0] },
            ],
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches(r#"stroke-dasharray="2 3""#).count(), 1);
        assert!(svg.contains(r#"data-strategy="full-history""#));
        assert!(svg.contains(r#"data-strategy="a&lt;b""#));
        // Turn 1 sits on the left edge, the last turn on the right edge.
        assert!(svg.contains(&format!("points=\"{LEFT:.1},")));
        assert!(svg.contains(&format!("{:.1},", WIDTH - RIGHT)));
    }
}
