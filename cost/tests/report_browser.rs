//! The HTML report opened in a real headless Chromium: it loads without a
//! console error or a failed request, every chart shows exactly one line
//! per strategy, the frontier charts a point per strategy, and no figure
//! reads `NaN`.
//!
//! Needs Chromium (`apt-get install -y chromium`); without it the test says
//! so in one line and returns.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ptc_cost::{frontier_svg, render_html, FrontierPoint, Palette, Report, TokenMemo};
use ptc_tokens::TokenCounter;
use serde_json::json;
use support::session;

const STRATEGIES: [&str; 3] = ["full-history", "coalesced", "rolling-2"];

/// Two sessions, three strategies, the three built-in price models.
fn report() -> Report {
    let counter = TokenCounter::new(ptc_tokens::DEFAULT_ENCODING).unwrap();
    let mut memo = TokenMemo::new(&counter);
    let sessions = [session("orders-refunds", 5, 12), session("long-exploration", 6, 30)];
    support::report("ptc compare: <strategies> & prompt caching", &sessions, &STRATEGIES, 6, &mut memo)
}

/// Where Chromium is, if anywhere.
fn chromium() -> Option<PathBuf> {
    let candidates = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::iter::once(PathBuf::from("/usr/bin/chromium"))
        .chain(std::env::split_paths(&path).flat_map(|dir| candidates.iter().map(move |c| dir.join(c))))
        .find(|p| p.is_file())
}

/// Records errors from the first moment (failed resources included, by
/// capturing), then once the page has loaded (every resource fetched or
/// failed) writes what it measured into the DOM for `--dump-dom`: per chart,
/// the strategies of its lines and how many of them the browser really drew.
const PROBE_HEAD: &str = r#"<script>
window.__errors = [];
window.addEventListener("error", function (e) {
  window.__errors.push(e.message || ("failed to load " + (e.target && (e.target.src || e.target.href))));
}, true);
var __consoleError = console.error;
console.error = function () { window.__errors.push(Array.prototype.join.call(arguments, " ")); __consoleError.apply(console, arguments); };
</script>"#;
const PROBE_END: &str = r#"<script>
window.addEventListener("load", function () {
  var charts = Array.prototype.map.call(document.querySelectorAll("svg.chart"), function (svg) {
    var lines = Array.prototype.slice.call(svg.querySelectorAll("polyline[data-strategy]"));
    return {
      session: svg.closest("section").getAttribute("data-session"),
      chart: svg.getAttribute("data-chart"),
      strategies: lines.map(function (l) { return l.getAttribute("data-strategy"); }),
      drawn: lines.filter(function (l) { var b = l.getBBox(); return b.width > 0 && getComputedStyle(l).stroke !== "none"; }).length,
      points: Array.prototype.filter.call(svg.querySelectorAll("circle.point"), function (c) { var b = c.getBBox(); return b.width > 0; }).length,
      labels: Array.prototype.map.call(svg.querySelectorAll("text.label"), function (t) { var b = t.getBBox(); return [b.x, b.y, b.width, b.height]; }),
      dots: Array.prototype.map.call(svg.querySelectorAll("circle.point"), function (c) { var b = c.getBBox(); return [b.x, b.y, b.width, b.height]; }),
      view: [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height]
    };
  });
  var out = document.createElement("pre");
  out.id = "ptc-probe";
  out.textContent = JSON.stringify({ charts: charts, errors: window.__errors, details: document.querySelectorAll("details pre").length,
    overview: document.querySelectorAll("table.overview tbody tr").length,
    nan: document.body.innerText.indexOf("NaN") >= 0, na: document.body.innerText.indexOf("n/a") >= 0,
    negative: /-\d+(\.\d+)?%/.test(document.body.innerText) });
  document.body.appendChild(out);
});
</script>"#;

/// What the page showed in the browser.
struct Loaded {
    probe: serde_json::Value,
    console: Vec<String>,
}

fn open_in_browser(browser: &Path, html: &str, dir: &Path) -> Loaded {
    let page = dir.join("report.html");
    let probed = html.replacen("<head>", &format!("<head>{PROBE_HEAD}"), 1).replacen(
        "</body>",
        &format!("{PROBE_END}</body>"),
        1,
    );
    std::fs::write(&page, probed).unwrap();
    let profile = dir.join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        // Files, not pipes: a page's DOM can outgrow a pipe's buffer, and
        // nothing reads a pipe while the browser runs.
        .stdout(Stdio::from(std::fs::File::create(dir.join("dom.html")).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(dir.join("stderr.txt")).unwrap()))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{} did not finish within 120 s", browser.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = std::fs::read_to_string(dir.join("dom.html")).unwrap();
    let stderr = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
    let start = dom.find("<pre id=\"ptc-probe\">").unwrap_or_else(|| panic!("no probe output; stderr:\n{stderr}"));
    let json = &dom[start + "<pre id=\"ptc-probe\">".len()..];
    let json = &json[..json.find("</pre>").unwrap()];
    let json = json.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    Loaded {
        probe: serde_json::from_str(&json).unwrap_or_else(|e| panic!("probe output {json}: {e}")),
        console: stderr.lines().filter(|l| l.contains("CONSOLE")).map(str::to_string).collect(),
    }
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ptc-cost-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_report_loads_cleanly_with_one_line_per_strategy_per_chart() {
    let Some(browser) = chromium() else {
        println!("skipped: no Chromium found (install it with `apt-get install -y chromium`)");
        return;
    };
    let html = render_html(&report());
    let dir = TempDir::new("report");
    let loaded = open_in_browser(&browser, &html, &dir.0);

    assert_eq!(loaded.probe["errors"], serde_json::json!([]), "errors in the page");
    assert!(loaded.console.is_empty(), "console messages: {:#?}", loaded.console);
    let all = loaded.probe["charts"].as_array().unwrap();
    // At the top, one cost-vs-recall chart per price model, a point per strategy.
    let (frontier, charts) = all.split_at(3);
    for chart in frontier {
        assert!(chart["chart"].as_str().unwrap().starts_with("frontier:"), "{chart}");
        assert_eq!(chart["points"], 3, "{chart}");
        assert_labels_readable(chart);
    }
    assert_eq!(loaded.probe["overview"], 3, "the summary over all sessions has a row per strategy");
    // No NaN, no negative share: a figure that means nothing reads n/a.
    assert_eq!(
        (&loaded.probe["nan"], &loaded.probe["negative"], &loaded.probe["na"]),
        (&json!(false), &json!(false), &json!(true))
    );
    // Per session: the token chart, and per price model the cost per turn
    // and the cumulative cost.
    assert_eq!(charts.len(), 2 * (1 + 2 * 3), "{charts:#?}");
    for chart in charts {
        let strategies: Vec<&str> =
            chart["strategies"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        assert_eq!(strategies, STRATEGIES, "{chart}");
        assert_eq!(chart["drawn"], 3, "{chart}");
    }
    let kinds: Vec<&str> = charts[..7].iter().map(|c| c["chart"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "tokens",
            "cost:none",
            "cumulative:none",
            "cost:anthropic",
            "cumulative:anthropic",
            "cost:openai",
            "cumulative:openai"
        ]
    );
    assert_eq!(loaded.probe["details"], 6, "one collapsible prompt per strategy and session");
}

/// A chart's labels as the browser laid them out: each inside the chart,
/// over no other label and no point (boxes in the chart's own units; a
/// pixel of tolerance for anti-aliased edges).
fn assert_labels_readable(chart: &serde_json::Value) {
    let boxes = |key: &str| -> Vec<[f64; 4]> {
        chart[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let v: Vec<f64> = b.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                [v[0], v[1], v[0] + v[2], v[1] + v[3]]
            })
            .collect()
    };
    let (labels, dots) = (boxes("labels"), boxes("dots"));
    let (width, height) = (chart["view"][0].as_f64().unwrap(), chart["view"][1].as_f64().unwrap());
    let apart = |a: &[f64; 4], b: &[f64; 4]| {
        a[2] <= b[0] + 1.0 || b[2] <= a[0] + 1.0 || a[3] <= b[1] + 1.0 || b[3] <= a[1] + 1.0
    };
    assert_eq!(labels.len(), dots.len(), "{chart}");
    for (i, l) in labels.iter().enumerate() {
        assert!(
            l[0] >= -1.0 && l[1] >= -1.0 && l[2] <= width + 1.0 && l[3] <= height + 1.0,
            "label {i} {l:?} outside: {chart}"
        );
        for (j, other) in labels.iter().enumerate().skip(i + 1) {
            assert!(apart(l, other), "labels {i} and {j} overlap: {l:?} {other:?} in {}", chart["chart"]);
        }
        for (j, dot) in dots.iter().enumerate() {
            assert!(apart(l, dot), "label {i} covers point {j}: {l:?} {dot:?} in {}", chart["chart"]);
        }
    }
}

/// `ptc compare --chart` over the corpus with every shipped instance and the
/// peers at several settings (docs/benchmarks.md's figures): 24 points,
/// clusters of four to five within a few pixels. The browser lays the
/// labels out; none overlaps another or a point, none leaves the chart.
#[test]
fn the_frontier_chart_labels_a_crowd_legibly() {
    let Some(browser) = chromium() else {
        println!("skipped: no Chromium found (install it with `apt-get install -y chromium`)");
        return;
    };
    let corpus: [(&str, f64, f64, f64); 24] = [
        ("full-history", 1.000, 1.000, 0.972),
        ("no-history", 0.169, 0.212, 0.012),
        ("clear-tool-uses", 1.000, 1.000, 0.972),
        ("observation-masking", 4.558, 2.305, 0.858),
        ("upstream-trim", 0.849, 0.771, 0.535),
        ("coalesced", 0.607, 0.621, 0.952),
        ("coalesced-lean", 0.594, 0.608, 0.951),
        ("coalesced-spec", 0.925, 0.747, 0.597),
        ("keep-last", 0.534, 0.539, 0.736),
        ("rolling", 0.785, 0.719, 0.765),
        ("per-turn", 0.944, 0.924, 0.963),
        ("aggressive", 0.532, 0.550, 0.950),
        ("aggressive-spec", 0.960, 0.518, 0.411),
        ("aggressive-2000", 0.226, 0.198, 0.113),
        ("coalesced-late", 0.535, 0.538, 0.749),
        ("clear-30k", 1.029, 1.021, 0.966),
        ("clear-20k", 1.028, 0.980, 0.910),
        ("clear-10k", 1.090, 0.923, 0.857),
        ("clear-5k", 1.095, 0.918, 0.853),
        ("clear-10k-every", 2.813, 1.040, 0.825),
        ("clear-10k-keep-6", 1.138, 0.988, 0.872),
        ("clear-10k-inputs", 0.789, 0.725, 0.752),
        ("masking-3", 4.125, 1.187, 0.785),
        ("trim-20k", 0.996, 0.996, 0.952),
    ];
    let points: Vec<FrontierPoint> = corpus
        .iter()
        .flat_map(|&(strategy, anthropic, openai, recall)| {
            [("anthropic", anthropic), ("openai", openai)].map(|(model, cost)| FrontierPoint {
                strategy: strategy.into(),
                model: model.into(),
                cost,
                recall: Some(recall),
            })
        })
        .collect();
    let palette = Palette::new(corpus.iter().map(|c| c.0));
    let svg = frontier_svg(&["anthropic", "openai"], &points, &|name| palette.look(name));
    let page = format!("<!DOCTYPE html><html><head><title>frontier</title></head><body><section data-session=\"corpus\">{svg}</section></body></html>");
    let dir = TempDir::new("frontier");
    let loaded = open_in_browser(&browser, &page, &dir.0);
    assert_eq!(loaded.probe["errors"], json!([]), "errors in the page");
    let charts = loaded.probe["charts"].as_array().unwrap();
    assert_eq!(charts.len(), 2, "{charts:?}");
    for chart in charts {
        assert_eq!(chart["points"], 24, "{chart}");
        assert_labels_readable(chart);
    }
}

/// The probe is not blind: a page with a script error and a missing image
/// is reported.
#[test]
fn the_probe_sees_errors() {
    let Some(browser) = chromium() else {
        println!("skipped: no Chromium found (install it with `apt-get install -y chromium`)");
        return;
    };
    let broken = "<!DOCTYPE html><html><head><title>x</title></head><body><img src=\"missing.png\">\
                  <script>undefinedFunction();</script></body></html>";
    let dir = TempDir::new("broken");
    let loaded = open_in_browser(&browser, broken, &dir.0);
    let errors = loaded.probe["errors"].as_array().unwrap();
    assert!(errors.iter().any(|e| e.as_str().unwrap().contains("undefinedFunction")), "{errors:?}");
    assert!(errors.iter().any(|e| e.as_str().unwrap().contains("missing.png")), "{errors:?}");
    assert!(!loaded.console.is_empty(), "the uncaught error reaches the console log");
}
