//! The `ptc` binary as a user runs it: exit codes and one-line errors.

use ptc_integration_tests::{library, root, system_libm};
use std::path::PathBuf;
use std::process::{Command, Output};

fn ptc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptc")).args(args).current_dir(root()).output().expect("ptc runs")
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn strategies_fails_only_when_nothing_usable_is_left() {
    let libm = system_libm().expect("a system libm");
    let libm = libm.to_str().unwrap();
    let bad = temp("bad.toml", &format!("[plugins]\npaths = [{:?}, \"/nonexistent/dir\"]\n", libm));
    let out = ptc(&["strategies", "--config", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("not a ptc strategy plugin"), "{err}");
    assert!(err.contains("/nonexistent/dir: plugin path does not exist"), "{err}");

    let suc = library("ptc_strategy_single_user_coalesced");
    let mixed = temp("mixed.toml", &format!("[plugins]\npaths = [{:?}, {:?}]\n", libm, suc.display().to_string()));
    let out = ptc(&["strategies", "--config", mixed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("single-user-coalesced"));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn strategies_json_lists_plugins_instances_and_errors() {
    let suc = library("ptc_strategy_single_user_coalesced");
    let cfg = temp(
        "json.toml",
        &format!(
            "[plugins]\npaths = [{:?}]\n[strategy.ok]\nplugin = \"single-user-coalesced\"\n[strategy.bad]\nplugin = \"single-user-coalesced\"\nwindow = 3\n",
            suc.display().to_string()
        ),
    );
    let out = ptc(&["strategies", "--config", cfg.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    assert_eq!(v["plugins"][0]["name"], "single-user-coalesced");
    assert_eq!(v["plugins"][0]["interface_version"], ptc_plugin_api::INTERFACE_VERSION);
    assert_eq!(v["instances"][0]["error"], serde_json::Value::Null);
    let bad = v["instances"][1]["error"].as_str().unwrap();
    assert!(bad.contains("json.toml:5:1") && bad.contains("unknown parameter `window`"), "{bad}");
}

#[test]
fn malformed_config_is_one_line_with_position() {
    let cfg = temp("broken.toml", "[plugins]\npaths = \"not a list\"\n");
    let out = ptc(&["strategies", "--config", cfg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("ptc: error: {}:2:9: ", cfg.display())), "{err}");
}

#[test]
fn bad_session_names_the_json_path() {
    let session = temp(
        "s.json",
        r#"{"format": "ptc-session/1", "mission": "m", "turns": [{"number": 1, "raw_response": "", "success": 3}]}"#,
    );
    let out = ptc(&["render", "--session", session.to_str().unwrap(), "--strategy", "full-history"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("at $.turns[0].success: invalid type: integer `3`, expected a boolean"), "{err}");
}

#[test]
fn render_json_has_messages_stats_and_real_token_count() {
    let suc = library("ptc_strategy_single_user_coalesced");
    let cfg = temp("render.toml", &format!("[plugins]\npaths = [{:?}]\n", suc.display().to_string()));
    let out = ptc(&[
        "render",
        "--session",
        "tests/sessions/data-exploration.json",
        "--turn",
        "4",
        "--strategy",
        "single-user-coalesced",
        "--config",
        cfg.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let messages = v["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(v["stats"]["strategy"], "single-user-coalesced");
    assert_eq!(v["stats"]["turns_compressed"], 3);
    let tokens = v["prompt_tokens"].as_u64().unwrap();
    let chars: usize = messages.iter().map(|m| m["content"].as_str().unwrap().len()).sum();
    assert!(tokens > 50 && (tokens as usize) < chars / 2, "{tokens} tokens for {chars} bytes");
}
