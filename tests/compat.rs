//! Interface compatibility: a plugin built against the frozen interface 1.0
//! (`tests/compat/plugin-api-1.0`, a copy of the ABI as it was) loads into
//! this host and renders. It knows nothing of content blocks, so each of its
//! messages is one block with no cache breakpoint.

use ptc_integration_tests::{profile_dir, root, scratch_dir};
use ptc_plugin_api::{RenderRequest, Role, Turn, TurnError};
use ptc_registry::Registry;
use std::path::PathBuf;

/// Builds `tests/compat/strategy-1.0` (copied with its frozen API next to
/// this workspace's lock file, offline) and returns the library.
fn build_compat_plugin() -> PathBuf {
    let dir = scratch_dir("compat-1.0");
    for krate in ["plugin-api-1.0", "strategy-1.0"] {
        let from = root().join("tests/compat").join(krate);
        for file in walk(&from) {
            let to = dir.join(krate).join(file.strip_prefix(&from).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&file, &to).unwrap();
        }
    }
    std::fs::copy(root().join("Cargo.lock"), dir.join("strategy-1.0/Cargo.lock")).unwrap();
    let target = profile_dir().parent().expect("target/<profile> has a parent").join("ptc-compat-1.0");
    ptc_integration_tests::progress(&format!(
        "compat: building the interface 1.0 test plugin into {} (about a minute the first time) ...",
        target.display()
    ));
    let out = std::process::Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--target-dir"])
        .arg(&target)
        .current_dir(dir.join("strategy-1.0"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let name = format!("{}ptc_strategy_compat_1_0{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    target.join("debug").join(name)
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
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
    let library = build_compat_plugin();
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
