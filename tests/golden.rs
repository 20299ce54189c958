//! Golden prompts: every case rendered by every strategy instance of
//! `golden/strategies.toml`, compared byte for byte with `golden/expected/`.
//! Re-bless with `PTC_BLESS=1`.

use ptc_integration_tests::{check_golden, plugin_dir, root};
use ptc_plugin_api::render::messages_text;
use ptc_registry::Registry;
use ptc_session::Session;
use std::path::PathBuf;

fn cases() -> Vec<(String, PathBuf, Option<u32>)> {
    let mut cases = Vec::new();
    for (dir, prefix) in [("tests/golden/cases", ""), ("tests/sessions", "corpus-")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("readable folder entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for file in files {
            let stem = file.file_stem().expect("file name").to_string_lossy().to_string();
            // Corpus sessions render the last turn they hold; cases render the next one.
            let turn = if prefix.is_empty() {
                None
            } else {
                let s = Session::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                Some(s.turns.len().max(1) as u32)
            };
            cases.push((format!("{prefix}{stem}"), file, turn));
        }
    }
    cases
}

#[test]
fn golden_prompts() {
    let manifest = root().join("tests/golden/strategies.toml");
    let text = std::fs::read_to_string(&manifest).expect("golden manifest");
    let table: toml::Table = toml::from_str(&text).expect("golden manifest parses");
    let registry = Registry::discover(&[plugin_dir().to_path_buf()]);
    let cases = cases();
    assert!(cases.len() >= 10, "expected golden cases, found {}", cases.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, params) in &table {
        let mut params = params.as_table().expect("each instance is a table").clone();
        let plugin = params.remove("plugin").and_then(|p| p.as_str().map(str::to_string)).expect("plugin = ...");
        let params = serde_json::to_string(&params).expect("params to JSON");
        let strategy = registry.build(name, &plugin, &params).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (case, file, turn) in &cases {
            let session = Session::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let request = session.request_for_turn(*turn).expect("renderable turn");
            let out = match strategy.render(&request) {
                Ok(r) => messages_text(r.messages()),
                Err(e) => format!("ERROR: {e}\n"),
            };
            let golden = root().join("tests/golden/expected").join(name).join(format!("{case}.txt"));
            if let Err(e) = check_golden(&golden, &out) {
                failures.push(e);
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {checked} golden prompts differ:\n{}", failures.len(), failures.join("\n"));
}
