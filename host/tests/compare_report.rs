//! `ptc compare`'s report as a reader gets it: the peers measured by
//! default, the default text view within 120 columns, meaningless figures
//! as `n/a` with their reason, stale facts in every format, the frontier
//! chart as an SVG file, and peers rendered by name.

use ptc_integration_tests::{command_in_root, plugin_dir, scratch_dir};
use std::process::Output;

fn ptc(args: &[&str]) -> Output {
    command_in_root(env!("CARGO_BIN_EXE_ptc")).args(args).output().expect("ptc runs")
}

/// A config with the test-built plugins and one instance of a peer with
/// its parameters overridden. Written once: the tests run in parallel, and
/// one rewriting the file while another's `ptc` read it gave that one a
/// config without the instances.
fn config() -> String {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let path = scratch_dir("compare-report").join("compare.toml");
        let text = format!(
            "[plugins]\npaths = [{:?}]\nexecutable_dir = false\n\n[strategy.coalesced]\nplugin = \"single-user-coalesced\"\n\
             layout = \"checkpointed\"\n\n[strategy.clear-early]\nplugin = \"clear-tool-uses\"\ntrigger_tokens = 2000\n\
             clear_at_least = 500\n",
            plugin_dir().display().to_string()
        );
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    })
    .clone()
}

const SESSIONS: [&str; 2] = ["tests/sessions/redefinitions.json", "tests/sessions/price-reconciliation.json"];

fn compare(extra: &[&str]) -> Output {
    let config = config();
    let mut args = vec!["compare", "--config", config.as_str()];
    args.extend(extra);
    args.push("--session");
    args.extend(SESSIONS);
    let out = ptc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn peers_are_measured_by_default_and_the_text_view_fits_120_columns() {
    let out = compare(&[]);
    let text = String::from_utf8(out.stdout).unwrap();
    for name in ["full-history", "no-history", "clear-tool-uses", "observation-masking", "upstream-trim", "coalesced"] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing:\n{text}");
    }
    assert!(text.lines().all(|l| l.chars().count() <= 120), "a line is over 120 columns:\n{text}");
    let header = text.lines().find(|l| l.starts_with("strategy")).unwrap();
    assert!(header.contains("recall") && header.contains("stale") && header.contains("anthropic cost"), "{header}");
    assert!(!text.contains("cached w/o fold"), "the wide columns are for --wide");
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    // At Anthropic's 100,000-token trigger context editing never fires on
    // these sessions; the report says so rather than leave a 100% row to
    // be read as "compressing saved nothing".
    let same = text.lines().skip_while(|l| !l.starts_with("same as full-history:")).collect::<Vec<_>>().join(" ");
    assert!(same.starts_with("same as full-history: clear-tool-uses sent as many tokens"), "{text}");
    assert!(!same.contains("coalesced"), "{same}");
    let wide = String::from_utf8(compare(&["--wide"]).stdout).unwrap();
    assert!(wide.contains("anthropic cached w/o fold") && wide.contains("stale"), "{wide}");
}

#[test]
fn json_has_stale_facts_per_turn_and_na_reasons_instead_of_wild_ratios() {
    let out = compare(&["--format", "json", "--strategies", "full-history,no-history,coalesced,clear-early"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["strategies"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["full-history", "no-history", "coalesced", "clear-early"]);
    for row in rows {
        assert!(row["stale_facts"].is_u64(), "{row}");
        for (s, session) in row["per_session"].as_array().unwrap().iter().enumerate() {
            let figures = &session["figures"];
            assert_eq!(figures["stale_turns"].as_array().unwrap().len() as u64, figures["turns"].as_u64().unwrap());
            let shown: u64 = figures["stale_turns"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).sum();
            assert_eq!(shown, session["stale_facts"].as_u64().unwrap(), "session {s}");
            // A history cost is a share in [0, a few] or null with its reason.
            let ratios = &session["vs_full_history"];
            for (model, cost) in ratios["history_cost"].as_object().unwrap() {
                match cost.as_f64() {
                    Some(x) => assert!(x >= 0.0, "{model}: {x}"),
                    None => assert!(ratios["history_cost_na"][model].is_string(), "{ratios}"),
                }
            }
        }
    }
    // A peer's parameters come from its [strategy.NAME] table: clearing from
    // 2,000 tokens on shows fewer tokens than the full history.
    assert!(rows[3]["total"]["total_tokens"].as_u64() < rows[0]["total"]["total_tokens"].as_u64());
}

#[test]
fn the_frontier_chart_is_written_as_an_svg_file() {
    let chart = scratch_dir("compare-chart").join("frontier.svg");
    let html = scratch_dir("compare-chart").join("report.html");
    let out = compare(&[
        "--strategies",
        "full-history,no-history,coalesced,upstream-trim",
        "--chart",
        chart.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("chart written to"));
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
    // anthropic and openai cache (none does not): a point per strategy each.
    assert_eq!(svg.matches("<circle class=\"point\"").count(), 2 * 4, "{svg}");
    assert!(!svg.contains("NaN"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("All sessions") && page.contains("data-chart=\"frontier:anthropic\""));
    assert!(!page.contains("NaN"));
}

/// The frontier JSON names, per model that caches, is recomputed here
/// from each row's cost ratio and recall: every instance on it is beaten
/// by none, and every one off it is beaten by one on it. The text view
/// names the same instances, cheapest first.
#[test]
fn the_frontier_lists_the_instances_nothing_beats() {
    let all = ["full-history", "no-history", "coalesced", "clear-early", "upstream-trim"];
    let list = all.join(",");
    let strategies = ["--strategies", list.as_str()];
    let out = compare(&[&strategies[..], &["--format", "json"]].concat());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let frontier = report["frontier"].as_object().expect("a frontier object");
    assert_eq!(frontier.keys().collect::<Vec<_>>(), ["anthropic", "openai"], "models that cache only");
    let text = String::from_utf8(compare(&strategies).stdout).unwrap();
    for (model, names) in frontier {
        let at = |name: &str| {
            let row = report["strategies"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap();
            (row["vs_full_history"]["cost"][model].as_f64().unwrap(), row["recall"].as_f64().unwrap())
        };
        let beats = |(c, r): (f64, f64), (c2, r2): (f64, f64)| c < c2 && r >= r2;
        let on: Vec<&str> = names.as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        assert!(on.len() >= 2, "{model}: {on:?}");
        for name in all {
            let beaten_by = |others: &[&str]| others.iter().any(|o| *o != name && beats(at(o), at(name)));
            match on.contains(&name) {
                true => assert!(!beaten_by(&all), "{model}: {name} on {on:?}"),
                false => assert!(beaten_by(&on) || on.iter().any(|o| at(o) == at(name)), "{model}: {name} off {on:?}"),
            }
        }
        assert!(on.windows(2).all(|w| at(w[0]).0 <= at(w[1]).0), "cheapest first: {on:?}");
        let line = text.lines().find(|l| l.starts_with(&format!("{model}: "))).expect("a frontier line");
        let listed: Vec<&str> = line.split(", ").map(|item| item.trim_start_matches(&format!("{model}: "))).collect();
        assert_eq!(listed.iter().map(|i| i.split(' ').next().unwrap()).collect::<Vec<_>>(), on, "{text}");
    }
}

#[test]
fn the_html_summary_takes_the_wide_columns_with_wide() {
    let dir = scratch_dir("compare-html-wide");
    let (compact, wide) = (dir.join("compact.html"), dir.join("wide.html"));
    let strategies = ["--strategies", "full-history,no-history,coalesced"];
    compare(&[&strategies[..], &["--html", compact.to_str().unwrap()]].concat());
    compare(&[&strategies[..], &["--wide", "--html", wide.to_str().unwrap()]].concat());
    let overview = |path: &std::path::Path| {
        let page = std::fs::read_to_string(path).unwrap();
        let start = page.find("<table class=\"overview\">").expect("an overview table");
        page[start..start + page[start..].find("</table>").unwrap()].to_string()
    };
    let (compact, wide) = (overview(&compact), overview(&wide));
    assert!(!compact.contains("recall w/ turn-output"), "{compact}");
    assert!(wide.contains("<th>recall w/ turn-output</th>"), "{wide}");
    // Each row has a cell per header.
    let headers = wide.matches("<th>").count();
    for row in wide.split("<tr>").skip(2) {
        assert_eq!(row.matches("<td>").count(), headers, "{row}");
    }
}

#[test]
fn peers_render_by_name() {
    let config = config();
    for peer in ["clear-tool-uses", "observation-masking", "upstream-trim"] {
        let out = ptc(&[
            "render",
            "--config",
            &config,
            "--strategy",
            peer,
            "--session",
            "tests/sessions/price-reconciliation.json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{peer}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty());
    }
}

/// A run stopped before its first answer leaves a session with no turn:
/// compare leaves it out with a warning and measures the rest, and with
/// nothing else to measure it stops with one line saying why.
#[test]
fn a_session_without_turns_is_left_out_with_a_warning() {
    let mut session: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ptc_integration_tests::root().join(SESSIONS[0])).unwrap())
            .unwrap();
    session["turns"] = serde_json::json!([]);
    let empty = scratch_dir("compare-empty").join("stopped.json");
    std::fs::write(&empty, session.to_string()).unwrap();
    let empty = empty.display().to_string();
    let config = config();
    let base = ["compare", "--config", config.as_str(), "--strategies", "coalesced", "--session"];

    let out = ptc(&[&base[..], &[empty.as_str(), SESSIONS[1]]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    let turns = serde_json::from_str::<serde_json::Value>(
        &std::fs::read_to_string(ptc_integration_tests::root().join(SESSIONS[1])).unwrap(),
    )
    .unwrap()["turns"]
        .as_array()
        .unwrap()
        .len();
    assert!(stdout.starts_with(&format!("1 session, {turns} turns,")), "{stdout}");
    assert!(stderr.contains(&format!("{empty}: records no turn, so it is left out")), "{stderr}");

    let out = ptc(&[&base[..], &[empty.as_str()]].concat());
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no session to compare") && stderr.contains("--resume"), "{stderr}");
}
