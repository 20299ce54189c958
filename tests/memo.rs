//! The checkpointed strategies keep the parts of a render that later
//! renders of the same run reuse (`RenderMemo`). That must not show: one
//! long-lived instance, fed requests in any order, renders exactly the
//! prompt (blocks, breakpoints and stats) that a fresh instance renders
//! from the same request.

use ptc_integration_tests::{corpus_sessions, plugin_dir, root};
use ptc_plugin_api::{Prompt, RenderRequest, Turn};
use ptc_registry::{Registry, Renderer};
use ptc_session::Session;

/// The checkpointed instances of the repository's `strategies.toml` (fact
/// and block memory), and per plugin and memory one that folds and merges
/// often (a small threshold), so that every kept part is exercised on the
/// corpus.
fn instances() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(root().join("strategies.toml")).expect("strategies.toml");
    let table: toml::Table = toml::from_str(&text).expect("strategies.toml parses");
    let mut found = Vec::new();
    for (name, params) in table["strategy"].as_table().expect("[strategy.*] tables") {
        let mut params = params.as_table().expect("each instance is a table").clone();
        let plugin = params.remove("plugin").and_then(|p| p.as_str().map(str::to_string)).expect("plugin = ...");
        params.remove("trigger");
        let checkpointed = params.get("layout").and_then(|l| l.as_str()) == Some("checkpointed");
        if checkpointed && ["single-user-coalesced", "aggressive"].contains(&plugin.as_str()) {
            found.push((name.clone(), plugin, serde_json::to_string(&params).expect("params to JSON")));
        }
    }
    let names: Vec<&str> = found.iter().map(|(n, _, _)| n.as_str()).collect();
    for shipped in ["coalesced", "aggressive", "coalesced-late"] {
        assert!(names.contains(&shipped), "checkpointed instances: {names:?}");
    }
    let tight = r#""layout": "checkpointed", "fold_tokens": 150, "fold_min_turns": 2, "fold_merge_tokens": 500, "cache_min_tokens": 64"#;
    let facts = format!(r#"{{{tight}, "recent_turns": 2, "bulk_facts": "fold"}}"#);
    let blocks = format!(r#"{{{tight}, "memory": "blocks"}}"#);
    for plugin in ["single-user-coalesced", "aggressive"] {
        found.push((format!("{plugin}-tight-facts"), plugin.into(), facts.clone()));
        found.push((format!("{plugin}-tight-blocks"), plugin.into(), blocks.clone()));
    }
    found
}

/// A request and what it is, for a failure message.
struct Case {
    what: String,
    request: RenderRequest,
}

/// Every turn of every corpus session in order, and of a run of terse
/// turns; then, interleaved, the sessions' last turns; a shorter history of a run already rendered; and
/// a run whose middle turn was replaced by another session's turn.
fn cases() -> Vec<Case> {
    let sessions: Vec<(String, Session)> = corpus_sessions()
        .iter()
        .map(|f| {
            let name = f.file_stem().expect("file name").to_string_lossy().to_string();
            (name, Session::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        })
        .collect();
    let request = |s: &Session, turn: usize| s.request_for_turn(Some(turn as u32)).expect("renderable turn");
    let mut cases = Vec::new();
    for (name, s) in &sessions {
        for (i, request) in s.requests().expect("renderable session").into_iter().enumerate() {
            cases.push(Case { what: format!("{name} turn {}", i + 1), request });
        }
    }
    for (name, s) in &sessions {
        let last = s.turns.len().max(1);
        cases.push(Case { what: format!("{name} turn {last} again"), request: request(s, last) });
        if last > 4 {
            cases.push(Case { what: format!("{name} back at turn {}", last / 2), request: request(s, last / 2) });
        }
    }
    // Terse turns, each appended verbatim (its answer is shorter than its
    // block), after a system prompt long enough to be cached at once.
    let mut terse = RenderRequest::new("Sum the values", "system ".repeat(1000), 40);
    for n in 1..=30 {
        cases.push(Case { what: format!("terse turn {n}"), request: terse.clone() });
        terse.push_turn(Turn::new(n, "(p)", Some("(p)".into())).with_prints(vec![format!("value {}", 1000 + n)]));
    }
    let long: Vec<&(String, Session)> = sessions.iter().filter(|(_, s)| s.turns.len() >= 12).collect();
    for pair in long.windows(2) {
        let [(a, sa), (b, sb)] = [pair[0], pair[1]];
        let mut req = request(sa, 11);
        let mut branch = req.turns()[..10].to_vec();
        branch[5] = request(sb, 7).turns()[5].clone();
        req.truncate_turns(0);
        branch.into_iter().for_each(|t| req.push_turn(t));
        cases.push(Case { what: format!("{a} turn 11 with turn 6 of {b}"), request: req });
        cases.push(Case { what: format!("{a} turn 11 as it was"), request: request(sa, 11) });
    }
    cases
}

fn render(strategy: &Renderer, req: &RenderRequest) -> Prompt {
    strategy.render(req).unwrap_or_else(|e| panic!("{e}"))
}

/// The instances are checked in this many tests, each taking every
/// `PARTS`-th instance, so that the test harness runs them side by side:
/// a fresh render builds a run's entries from its first turn, and the
/// whole check is minutes of a debug build.
const PARTS: usize = 4;

/// Every `PARTS`-th instance from `part` on: its long-lived instance,
/// fed every case in order, renders what a fresh instance renders.
fn a_long_lived_instance_renders_what_a_fresh_one_renders(part: usize) {
    let registry = Registry::discover(&[plugin_dir().to_path_buf()]);
    let cases = cases();
    let instances: Vec<_> = instances().into_iter().skip(part).step_by(PARTS).collect();
    assert!(!instances.is_empty(), "part {part} of {PARTS} has no instance");
    for (name, plugin, params) in instances {
        let build = || registry.build(&name, &plugin, &params).unwrap_or_else(|e| panic!("{name}: {e}"));
        let kept = build();
        let mut folded = 0;
        for case in &cases {
            let memoized = render(&kept, &case.request);
            let fresh = render(&build(), &case.request);
            assert_eq!(memoized, fresh, "{name}, {}: the memoized render differs", case.what);
            let counter =
                |n: &str| fresh.rendered().stats().counters().iter().find(|c| c.name() == n).map(|c| c.value());
            folded += counter("frozen_segments").unwrap_or(0);
        }
        assert!(folded > 0, "{name}: no render folded, so kept summaries went untested");
    }
    assert!(cases.len() > 1000, "{} cases", cases.len());
}

#[test]
fn a_long_lived_instance_renders_what_a_fresh_one_renders_part_1() {
    a_long_lived_instance_renders_what_a_fresh_one_renders(0);
}

#[test]
fn a_long_lived_instance_renders_what_a_fresh_one_renders_part_2() {
    a_long_lived_instance_renders_what_a_fresh_one_renders(1);
}

#[test]
fn a_long_lived_instance_renders_what_a_fresh_one_renders_part_3() {
    a_long_lived_instance_renders_what_a_fresh_one_renders(2);
}

#[test]
fn a_long_lived_instance_renders_what_a_fresh_one_renders_part_4() {
    a_long_lived_instance_renders_what_a_fresh_one_renders(3);
}
