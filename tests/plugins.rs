//! Real dynamic loading: two plugins in one process, a panicking plugin,
//! files that are not plugins, an incompatible interface, duplicate names.

use ptc_integration_tests::{library, plugin_dir, system_libm};
use ptc_plugin_api::{ErrorKind, Message, RenderRequest, Role, Turn, Value};
use ptc_registry::{LoadFailure, Registry};
use std::path::Path;

fn request() -> RenderRequest {
    let mut req = RenderRequest::new("Find the cheapest laptop", "You are an agent.", 5);
    for n in 1..=3 {
        req.push_turn(
            Turn::new(n, format!("```clojure\n(def x{n} {n})\n```"), Some(format!("(def x{n} {n})")))
                .with_result(Value::var(format!("x{n}"))),
        );
    }
    req
}

fn contents(messages: &[Message]) -> Vec<(Role, String)> {
    messages.iter().map(|m| (m.role(), m.content().to_string())).collect()
}

#[test]
fn two_plugins_in_one_process_are_two_strategies() {
    let registry =
        Registry::discover(&[library("ptc_strategy_single_user_coalesced"), library("ptc_strategy_keep_last_turns")]);
    assert!(registry.errors().is_empty(), "{:?}", registry.errors());
    let names: Vec<&str> = registry.plugins().map(|p| p.description.name.as_str()).collect();
    assert_eq!(names, ["single-user-coalesced", "keep-last-turns"]);
    let suc = registry.build("a", "single-user-coalesced", "{}").unwrap();
    let keep = registry.build("b", "keep-last-turns", r#"{"turns": 1}"#).unwrap();
    let a = suc.render(&request()).unwrap();
    let b = keep.render(&request()).unwrap();
    assert_eq!(a.stats().strategy(), "single-user-coalesced");
    assert_eq!(b.stats().strategy(), "keep-last-turns");
    // One coalesced USER message versus a summary plus one verbatim turn.
    assert_eq!(a.messages().len(), 2);
    assert_eq!(b.messages().len(), 4);
    assert_ne!(contents(a.messages()), contents(b.messages()));
    let description = &registry.plugin("keep-last-turns").unwrap().description;
    assert_eq!(description.interface_version, ptc_plugin_api::INTERFACE_VERSION);
    assert!(description.file.ends_with(library("ptc_strategy_keep_last_turns").file_name().unwrap()));
}

#[test]
fn folder_discovery_finds_strategy_plugins_only() {
    let registry = Registry::discover(&[plugin_dir().to_path_buf()]);
    let names: Vec<&str> = registry.plugins().map(|p| p.description.name.as_str()).collect();
    assert!(names.contains(&"single-user-coalesced") && names.contains(&"keep-last-turns"), "{names:?}");
    // Test plugins are not named *ptc_strategy_*, so a folder scan skips them.
    assert!(!names.contains(&"test-panicking"), "{names:?}");
}

#[test]
fn panicking_strategy_is_an_error_and_the_host_goes_on() {
    let registry = Registry::discover(&[library("ptc_test_panicking"), library("ptc_strategy_single_user_coalesced")]);
    let bad = registry.build("bad", "test-panicking", "{}").unwrap();
    for _ in 0..2 {
        let err = bad.render(&request()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Panicked);
        assert!(err.message().contains("render exploded on turn 4"), "{}", err.message());
    }
    let good = registry.build("good", "single-user-coalesced", "{}").unwrap();
    assert!(good.render(&request()).is_ok());
}

#[test]
fn panicking_constructor_is_an_error_naming_the_instance() {
    let registry = Registry::discover(&[library("ptc_test_panicking")]);
    let err = registry.build("boom", "test-panicking", r#"{"panic_in_new": true}"#).err().unwrap().to_string();
    assert!(err.starts_with("strategy `boom` ("), "{err}");
    assert!(
        err.contains("strategy panicked: strategy `test-panicking` constructor panicked: constructor exploded"),
        "{err}"
    );
}

#[test]
fn unknown_params_are_rejected_by_the_plugin() {
    let registry = Registry::discover(&[library("ptc_strategy_single_user_coalesced")]);
    let err = registry.build("c", "single-user-coalesced", r#"{"println_limt": 3}"#).err().unwrap().to_string();
    assert!(err.contains("unknown parameter `println_limt`"), "{err}");
    assert!(err.contains("known: println_limit, tool_call_limit, sample_limit, sample_printable_limit"), "{err}");
}

#[test]
fn non_plugin_library_and_missing_folder_each_give_one_line() {
    let libm = system_libm().expect("a system libm to load");
    let missing = Path::new("/nonexistent/ptc-plugins");
    let registry =
        Registry::discover(&[libm.clone(), missing.to_path_buf(), library("ptc_strategy_single_user_coalesced")]);
    let lines: Vec<String> = registry.errors().iter().map(|e| e.to_string()).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with(&libm.canonicalize().unwrap().display().to_string()), "{}", lines[0]);
    assert!(lines[0].ends_with("not a ptc strategy plugin (it exports no abi_stable root module)"), "{}", lines[0]);
    assert_eq!(lines[1], "/nonexistent/ptc-plugins: plugin path does not exist");
    let failures: Vec<_> = registry.errors().iter().map(|e| &e.failure).collect();
    assert_eq!(failures, [&LoadFailure::NotAPlugin, &LoadFailure::PathMissing], "a caller can match on why");
    assert!(lines.iter().all(|l| !l.contains('\n')));
    assert_eq!(registry.plugins().count(), 1, "the good plugin still loads");
}

#[test]
fn incompatible_interface_names_the_version() {
    let registry = Registry::discover(&[library("ptc_test_wrong_interface")]);
    assert_eq!(registry.plugins().count(), 0);
    let line = registry.errors()[0].to_string();
    assert!(line.contains("incompatible plugin interface 0.9.0"), "{line}");
    assert!(line.contains(&format!("this ptc speaks {}", ptc_plugin_api::INTERFACE_VERSION)), "{line}");
}

#[test]
fn two_files_claiming_one_name_are_named_both() {
    let dir = ptc_integration_tests::scratch_dir("dup");
    let copy = dir.join(format!("{}ptc_strategy_copy{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    std::fs::copy(library("ptc_strategy_single_user_coalesced"), &copy).unwrap();
    let original = library("ptc_strategy_single_user_coalesced");
    let registry = Registry::discover(&[original.clone(), dir.clone()]);
    let line = registry.errors()[0].to_string();
    assert!(line.starts_with(&copy.canonicalize().unwrap().display().to_string()), "{line}");
    assert!(line.contains(&format!("already provided by {}", original.canonicalize().unwrap().display())), "{line}");
    assert_eq!(registry.plugins().count(), 1);
    std::fs::remove_dir_all(&dir).ok();
}
