//! Compatibility with what plugins were built or written against.
//!
//! - Interface: a plugin built against the frozen interface 1.0
//!   (`tests/compat/plugin-api-1.0`, a copy of the ABI as it was) loads into
//!   this host and renders. It knows nothing of content blocks, so each of
//!   its messages is one block with no cache breakpoint.
//! - SDK source: the example plugin of SDK 0.1.0
//!   (`tests/compat/sdk-0.1-example`, frozen) against this SDK fails with
//!   exactly the break `plugin-api/CHANGELOG.md` documents, and builds,
//!   loads and conforms once the CHANGELOG's migration is applied to it.
//!
//! Both build crates outside the workspace (copied out, with the
//! workspace's lock file, offline) through the conformance harness, into
//! `target/ptc-compat`: not the plugin folder the other tests scan for
//! strategies that must conform.

use ptc_conformance::harness::{profile_dir, try_cargo_build_into, CargoBuildError};
use ptc_integration_tests::{root, scratch_dir};
use ptc_plugin_api::{RenderRequest, Role, Turn, TurnError};
use ptc_registry::Registry;
use std::path::{Path, PathBuf};

/// Copies the crates `tests/compat/<krate>` into the scratch folder `name`
/// and returns it.
fn copy_out(name: &str, crates: &[&str]) -> PathBuf {
    let dir = scratch_dir(name);
    for krate in crates {
        let from = root().join("tests/compat").join(krate);
        for file in walk(&from) {
            let to = dir.join(krate).join(file.strip_prefix(&from).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&file, &to).unwrap();
        }
    }
    dir
}

/// Builds the crate in `dir` (outside the workspace) with this workspace's
/// lock file, offline, and returns its library `lib_name`.
fn build_outside(dir: &Path, lib_name: &str) -> Result<PathBuf, CargoBuildError> {
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let manifest = dir.join("Cargo.toml");
    let target = profile_dir().parent().expect("target/<profile> has a parent").join("ptc-compat");
    let built = try_cargo_build_into(
        &target,
        &["--offline", "--lib", "--manifest-path", manifest.to_str().expect("a UTF-8 temp path")],
    )?;
    let name = format!("{}{lib_name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    Ok(built.join(name))
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn a_plugin_built_against_interface_1_0_loads_and_renders() {
    let dir = copy_out("compat-1.0", &["plugin-api-1.0", "strategy-1.0"]).join("strategy-1.0");
    let library = build_outside(&dir, "ptc_strategy_compat_1_0").unwrap_or_else(|e| panic!("{e}"));
    let mut registry = Registry::default();
    registry.load_file(&library);
    assert!(registry.errors().is_empty(), "{:?}", registry.errors());
    let plugin = registry.plugin("compat-1-0").expect("the 1.0 plugin loaded");
    assert_eq!(plugin.description.interface_version, "1.0.0");
    assert_ne!(ptc_plugin_api::INTERFACE_VERSION, "1.0.0", "this host speaks a later interface");

    let renderer = registry.build("old", "compat-1-0", "{}").unwrap();
    let mut request = RenderRequest::new("Count the orders", "You write PTC-Lisp.", 5);
    request
        .push_turn(Turn::new(1, "(boom)", Some("(boom)".into())).with_error(TurnError::new("unbound_symbol", "boom")));
    let prompt = renderer.render(&request).unwrap();
    let roles: Vec<Role> = prompt.messages().iter().map(|m| m.role()).collect();
    assert_eq!(roles, [Role::System, Role::User]);
    assert_eq!(prompt.messages()[1].content(), "Count the orders\n\n;; 1 turns done\n\nError: boom\n\nTurns left: 4");
    assert_eq!(prompt.stats().turns_compressed, 1);
    // No layout from a 1.0 plugin: each message is one block, no breakpoint.
    for i in 0..2 {
        let blocks: Vec<_> = prompt.blocks(i).collect();
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].text, prompt.messages()[i].content());
        assert!(!blocks[0].breakpoint);
    }
    assert_eq!(prompt.breakpoint_count(), 0);
}

/// The SDK's CHANGELOG entry for 0.2.0.
fn changelog_0_2() -> String {
    let text = std::fs::read_to_string(root().join("plugin-api/CHANGELOG.md")).unwrap();
    let start = text.find("\n## 0.2.0").expect("plugin-api/CHANGELOG.md has a 0.2.0 entry");
    let end = text[start + 1..].find("\n## ").map_or(text.len(), |i| start + 1 + i);
    text[start..end].to_string()
}

/// The fenced blocks of language `lang` in `markdown`, each line trimmed
/// (the entry's blocks sit in a list item).
fn fenced(markdown: &str, lang: &str) -> Vec<Vec<String>> {
    ptc_integration_tests::fenced_blocks(markdown)
        .into_iter()
        .filter(|b| b.lang == lang)
        .map(|b| b.text.lines().map(|l| l.trim().to_string()).collect())
        .collect()
}

/// The frozen 0.1.0 example, copied out with the SDK dependency pointing
/// at this checkout, each line of `before` replaced by the line of `after`
/// at the same index.
fn sdk_0_1_example(name: &str, migration: &[(String, String)]) -> PathBuf {
    let dir = copy_out(name, &["sdk-0.1-example"]).join("sdk-0.1-example");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let sdk = format!("path = {:?}", root().join("plugin-api").to_str().unwrap());
    assert!(manifest.contains("path = \"../../../plugin-api\""), "{manifest}");
    std::fs::write(dir.join("Cargo.toml"), manifest.replace("path = \"../../../plugin-api\"", &sdk)).unwrap();
    let mut source = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    for (before, after) in migration {
        let found = source.lines().filter(|l| l.trim() == before).count();
        assert_eq!(found, 1, "the CHANGELOG's line {before:?} is in the 0.1.0 example once");
        let lines: Vec<String> =
            source.lines().map(|l| if l.trim() == before { l.replace(before, after) } else { l.to_string() }).collect();
        source = lines.join("\n") + "\n";
    }
    std::fs::write(dir.join("src/lib.rs"), source).unwrap();
    dir
}

#[test]
fn the_sdk_0_1_example_breaks_as_documented_and_conforms_once_migrated() {
    let entry = changelog_0_2();
    let (errors, snippets) = (fenced(&entry, "text"), fenced(&entry, "rust"));
    let [error] = &errors[..] else { panic!("the 0.2.0 entry shows the one error message:\n{entry}") };
    let [before, after] = &snippets[..] else { panic!("the 0.2.0 entry shows before and after:\n{entry}") };
    assert_eq!(before.len(), after.len(), "before and after change the same lines");

    // As written against 0.1.0: exactly the documented error, nothing else.
    let failed = build_outside(&sdk_0_1_example("sdk-0.1-as-written", &[]), "ptc_strategy_keep_last_turns_0_1")
        .expect_err("the 0.1.0 example no longer compiles (else the CHANGELOG's break is wrong)");
    assert!(failed.stderr.contains(&error.join("\n")), "{failed}");
    assert!(failed.stderr.contains("coalesced_message"), "{failed}");
    assert!(failed.stderr.contains("due to 1 previous error"), "the documented break is the only one:\n{failed}");

    // Migrated as the CHANGELOG says: builds, loads, renders, conforms.
    let migration: Vec<(String, String)> = before.iter().cloned().zip(after.iter().cloned()).collect();
    let dir = sdk_0_1_example("sdk-0.1-migrated", &migration);
    let library = build_outside(&dir, "ptc_strategy_keep_last_turns_0_1").unwrap_or_else(|e| panic!("{e}"));
    let mut registry = Registry::default();
    registry.load_file(&library);
    assert!(registry.errors().is_empty(), "{:?}", registry.errors());
    let renderer = registry.build("old-example", "keep-last-turns", r#"{"turns": 1}"#).unwrap();
    let mut request = RenderRequest::new("Count the orders", "You write PTC-Lisp.", 5);
    request.push_turn(Turn::new(1, "(def n 3)", Some("(def n 3)".into())));
    request.push_turn(Turn::new(2, "(println n)", Some("(println n)".into())));
    let prompt = renderer.render(&request).unwrap();
    let roles: Vec<Role> = prompt.messages().iter().map(|m| m.role()).collect();
    assert_eq!(roles, [Role::System, Role::User, Role::Assistant, Role::User]);
    ptc_conformance::assert_conforms(&library, r#"{"turns": 2}"#);
}
