//! One fuzz target per reader of untrusted text; each holds that the reader
//! returns (a value or an error), never panics, and stays within its limits.
//! About two seconds each; `PTC_FUZZ_SECONDS` gives the long run.

use proptest::prelude::*;
use ptc_fuzz::{config, edn, explore, program, session};
use ptc_host::config::ConfigFile;
use ptc_integration_tests::{corpus_sessions, root};
use std::time::{Duration, Instant};

fn corpus() -> Vec<String> {
    corpus_sessions().iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

#[test]
fn session_json_reader() {
    let corpus = corpus();
    let inputs = prop_oneof![
        6 => session::mutation().prop_map(move |(file, m)| session::apply(&corpus[file.index(corpus.len())], &m)),
        1 => session::json().prop_map(|v| v.to_string()),
        1 => ptc_fuzz::any_text(100),
    ];
    explore("session JSON (Session::parse)", inputs, |text| {
        if let Ok(session) = ptc_session::Session::parse(&text) {
            // A session that reads also renders, at every turn.
            let turns = session.turns.len() as u32 + 1;
            for turn in [1, turns] {
                prop_assert!(session.request_for_turn(Some(turn)).is_ok(), "turn {turn} of a session that read");
            }
        }
        Ok(())
    });
}

#[test]
fn edn_reader() {
    explore("EDN (read_edn)", edn::text(), |text| {
        if let Ok(value) = ptc_lisp::read_edn(&text) {
            // What reads prints (`pr-str`) as EDN that reads back the same
            // (NaN aside: it equals nothing).
            let printed = value.to_string();
            match ptc_lisp::read_edn(&printed) {
                Ok(again) => {
                    prop_assert!(again == value || printed.contains("NaN"), "{printed:?} reads back as {again}")
                }
                Err(e) => prop_assert!(false, "{printed:?} does not read back: {e}"),
            }
        }
        Ok(())
    });
}

fn small_limits() -> ptc_lisp::Limits {
    ptc_lisp::Limits {
        timeout: Duration::from_millis(100),
        max_steps: 100_000,
        max_depth: 64,
        max_loop_iterations: 1_000,
        max_collection_size: 10_000,
        max_string_bytes: 100_000,
        max_memory_bytes: 1_000_000,
        println_char_limit: 200,
        ..ptc_lisp::Limits::default()
    }
}

#[test]
fn lisp_reader_and_evaluator_under_limits() {
    let limits = small_limits();
    let mut data = indexmap::IndexMap::new();
    data.insert("xs".to_string(), ptc_lisp::read_edn("[1 2 3 {:a \"b\"}]").unwrap());
    // How programs ended, by error kind: shows how far into the evaluator
    // the generated programs get.
    let endings = std::sync::Mutex::new(std::collections::BTreeMap::<&'static str, u64>::new());
    explore("PTC-Lisp (run_program, small limits)", program::program(), |source| {
        let start = Instant::now();
        let memory = ptc_lisp::Memory::new();
        let out = ptc_lisp::run_program(&source, &memory, &data, &mut ptc_lisp::NoTools, &limits);
        let ending = out.result.as_ref().map_or_else(|e| e.kind.as_str(), |_| "ok");
        *endings.lock().unwrap().entry(ending).or_default() += 1;
        // The limits hold: a timeout of 100 ms ends a program well within 2 s.
        prop_assert!(start.elapsed() < Duration::from_secs(2), "ran {:?}", start.elapsed());
        Ok(())
    });
    eprintln!("  endings: {:?}", endings.into_inner().unwrap());
}

#[test]
fn config_parser() {
    let shipped = std::fs::read_to_string(root().join("strategies.toml")).unwrap();
    let dir = std::env::temp_dir().join(format!("ptc-fuzz-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("strategies.toml");
    let inputs = prop_oneof![
        6 => config::edits().prop_map(move |edits| config::apply(&shipped, &edits)),
        1 => ptc_fuzz::any_text(200),
    ];
    explore("strategies.toml (Config::load)", inputs, |text| {
        std::fs::write(&file, &text).unwrap();
        if let Err(e) = ptc_host::config::Config::load(&file) {
            // One line that names the file.
            let line = e.to_string();
            prop_assert!(line.contains("strategies.toml"), "{line}");
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}
