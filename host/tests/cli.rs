//! The `ptc` binary as a user runs it: exit codes and one-line errors.

use ptc_integration_tests::{
    check_golden, command_in_root, http_server, library, link_or_copy, pids_written, process_ended, root, scratch_dir,
    signal, system_libm, wait_until,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Mutex, OnceLock};

fn ptc(args: &[&str]) -> Output {
    ptc_with_log(args, None)
}

/// Runs `ptc` with `RUST_LOG` set to `log`, or unset.
fn ptc_with_log(args: &[&str], log: Option<&str>) -> Output {
    let mut cmd = command_in_root(env!("CARGO_BIN_EXE_ptc"));
    cmd.args(args);
    if let Some(log) = log {
        cmd.env("RUST_LOG", log);
    }
    cmd.output().expect("ptc runs")
}

/// Runs `ptc` with the test-built plugins on `PTC_PLUGIN_PATH`.
fn ptc_with_plugins(args: &[&str]) -> Output {
    command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .env(ptc_host::config::PLUGIN_PATH_ENV, ptc_integration_tests::plugin_dir())
        .args(args)
        .output()
        .expect("ptc runs")
}

fn temp(name: &str, text: &str) -> PathBuf {
    let path = scratch_dir(name).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// How an agent of [`replay_project`] is answered.
const REPLAY: &str = "llm = { backend = \"replay\", file = \"replay.json\" }";

/// A scratch project: `replay.json` holding `programs` as the model's
/// answers, and a `strategies.toml` of `tables` that loads no plugin (a
/// fresh clone has not built them when the tests run). Returns the folder
/// and the config's path.
fn replay_project(name: &str, programs: &[&str], tables: &str) -> (PathBuf, String) {
    let dir = scratch_dir(name);
    write_replay(&dir, programs);
    let config = dir.join("strategies.toml");
    std::fs::write(&config, format!("[plugins]\nexecutable_dir = false\n\n{tables}")).unwrap();
    (dir, config.to_str().unwrap().to_string())
}

/// Writes `programs` as the answers of `dir/replay.json`, one code block each.
fn write_replay(dir: &Path, programs: &[&str]) {
    let answers: Vec<String> = programs.iter().map(|p| format!("```clojure\n{p}\n```")).collect();
    std::fs::write(dir.join("replay.json"), serde_json::to_string(&answers).unwrap()).unwrap();
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn strategies_fails_only_when_nothing_usable_is_left() {
    let libm = system_libm().expect("a system libm");
    let libm = libm.to_str().unwrap();
    // `executable_dir = false`: what the test build left beside `ptc` does not count.
    let bad =
        temp("bad.toml", &format!("[plugins]\nexecutable_dir = false\npaths = [{:?}, \"/nonexistent/dir\"]\n", libm));
    let out = ptc(&["strategies", "--config", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("not a ptc strategy plugin"), "{err}");
    assert!(err.contains("/nonexistent/dir: plugin path does not exist"), "{err}");

    let suc = library("ptc_strategy_single_user_coalesced");
    let mixed = temp(
        "mixed.toml",
        &format!("[plugins]\nexecutable_dir = false\npaths = [{:?}, {:?}]\n", libm, suc.display().to_string()),
    );
    let out = ptc(&["strategies", "--config", mixed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("single-user-coalesced"));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn without_a_config_file_ptc_finds_the_plugins_beside_it() {
    // An installed layout: `ptc` and a plugin in one folder, run from
    // another with no strategies.toml.
    let dir = scratch_dir("installed");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ptc = bin.join("ptc");
    link_or_copy(Path::new(env!("CARGO_BIN_EXE_ptc")), &ptc);
    let suc = library("ptc_strategy_single_user_coalesced");
    link_or_copy(&suc, &bin.join(suc.file_name().unwrap()));
    // Run from `dir`, with no plugin path in the environment.
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&ptc)
            .args(args)
            .current_dir(&dir)
            .env_remove(ptc_host::config::PLUGIN_PATH_ENV)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let listed = run(&["strategies"]);
    let line =
        listed.lines().find(|l| l.trim_start().starts_with("single-user-coalesced")).expect("the plugin is listed");
    assert!(line.contains(bin.to_str().unwrap()), "{line}");
    // Rendering by plugin name works there too.
    let session = root().join("tests/sessions/redefinitions.json");
    let rendered = run(&["render", "--strategy", "single-user-coalesced", "--session", session.to_str().unwrap()]);
    assert!(rendered.starts_with("=== system ==="));
    // And so does vetting it with the conformance suite.
    let report = run(&["conformance", "single-user-coalesced", "--case", "MUST-LOAD-INFO"]);
    assert!(report.lines().any(|l| l.starts_with("MUST-LOAD-INFO") && l.contains("PASS")), "{report}");
    assert!(report.contains(bin.to_str().unwrap()), "{report}");
    // A mistyped name: the loaded plugin it likely meant.
    let out = std::process::Command::new(&ptc)
        .args(["conformance", "single-user-coalesed"])
        .current_dir(&dir)
        .env_remove(ptc_host::config::PLUGIN_PATH_ENV)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "ptc: error: no plugin file and no loaded plugin is named `single-user-coalesed`; did you mean \
             `single-user-coalesced`? (loaded: single-user-coalesced); searched "
        ),
        "{err}"
    );
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
fn an_eval_error_is_one_line_that_says_what_to_use_instead() {
    let out = ptc(&["eval", "-e", "(def n (atom 0))"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "ptc: error: unsupported error at line 1, column 8: `atom` is not supported in PTC-Lisp: there is no mutable state; \
         use loop/recur or reduce, and def to keep results\n"
    );
    // An error with a kind names it after the tool's own prefix.
    let out = ptc(&["eval", "-e", "(+ 1 \"a\")"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "ptc: error: type error at line 1, column 1: + expects a number, got string \"a\"\n");
    // A tool call says where tools are.
    let out = ptc(&["eval", "-e", "(tool/search {:q 1})"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "ptc: error: tool error at line 1, column 1: tool/search failed: no tool named `search`: `ptc eval` and the \
         REPL offer no tools; an agent calls its tools under `ptc run` ([tool.NAME] tables, `ptc docs agents`)\n"
    );
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
fn render_and_compare_take_session_files_as_trace_does_without_the_flag() {
    let (a, b) = ("tests/sessions/redefinitions.json", "tests/sessions/unicode.json");
    let same = |with: &[&str], without: &[&str]| {
        let (with, without) = (ptc(with), ptc(without));
        assert_eq!(with.status.code(), Some(0), "{}", stderr(&with));
        assert_eq!(without.status.code(), Some(0), "{}", stderr(&without));
        assert!(!with.stdout.is_empty());
        assert_eq!(String::from_utf8_lossy(&with.stdout), String::from_utf8_lossy(&without.stdout));
    };
    same(&["render", "--session", a, "--strategy", "full-history"], &["render", a, "--strategy", "full-history"]);
    let compare = ["compare", "--strategies", "full-history,no-history", "--format", "json"];
    same(&[&compare[..], &["--session", a, b]].concat(), &[&compare[..], &[a, b]].concat());
    // Mixed: the files without the flag come first.
    same(&[&compare[..], &["--session", a, b]].concat(), &[&compare[..], &[a, "--session", b]].concat());
    let out = ptc(&["render", a, "--session", b]);
    assert_eq!(out.status.code(), Some(2), "one session to render, given once");
}

#[test]
fn compare_reads_the_sessions_below_a_folder_as_a_bench_leaves_them() {
    // OUT.sessions/TASK/STRATEGY/run-1.session.jsonl, beside files that are no sessions.
    let out = scratch_dir("compare-folder").join("bench.sessions");
    let (a, b) = ("tests/sessions/redefinitions.json", "tests/sessions/unicode.json");
    for (task, from) in [("task-a", a), ("task-b", b)] {
        let dir = out.join(task).join("coalesced");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(root().join(from), dir.join("run-1.session.json")).unwrap();
    }
    std::fs::write(out.join("task-a/replay.json"), "[\"an answer\"]").unwrap();
    std::fs::write(out.join("notes.md"), "not json").unwrap();
    let out_s = out.to_str().unwrap();
    let compare = ["compare", "--strategies", "full-history,no-history", "--format", "json"];
    let by_folder = ptc(&[&compare[..], &[out_s]].concat());
    assert_eq!(by_folder.status.code(), Some(0), "{}", stderr(&by_folder));
    assert_eq!(
        stderr(&by_folder).trim_end(),
        format!("ptc: {out_s}: 2 session files compared; 1 other .json or .jsonl file below it passed over")
    );
    let json: Value = serde_json::from_slice(&by_folder.stdout).unwrap();
    let files: Vec<&str> = json["sessions"].as_array().unwrap().iter().map(|s| s["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["task-a/coalesced/run-1.session.json", "task-b/coalesced/run-1.session.json"]);
    // The same figures as naming the two files.
    let by_name = ptc(&[&compare[..], &[a, b]].concat());
    let named: Value = serde_json::from_slice(&by_name.stdout).unwrap();
    for (folder, files) in json["strategies"].as_array().unwrap().iter().zip(named["strategies"].as_array().unwrap()) {
        assert!(folder["total"] == files["total"], "{} differs", folder["name"]);
    }
    // A folder without a session says so.
    let empty = scratch_dir("compare-empty-folder");
    let out = ptc(&["compare", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("no session file below it"), "{}", stderr(&out));
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

#[test]
fn rust_log_turns_on_tracing_and_a_bad_filter_is_one_warning() {
    // recover-errors uses full-history and a built-in tool: no plugin needed.
    let session = temp("log.session.json", "");
    let args = ["run", "recover-errors", "--session", session.to_str().unwrap()];
    let quiet = ptc_with_log(&args, None);
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    let plain = stderr(&quiet);
    assert!(plain.lines().all(|l| l.starts_with("turn ") || l.starts_with("ptc: ")), "{plain}");

    let logged = ptc_with_log(&args, Some("ptc_agent=debug"));
    assert_eq!(logged.status.code(), Some(0));
    let err = stderr(&logged);
    for needle in [
        "INFO ptc_agent::run: run starts agent=recover-errors",
        "DEBUG ptc_agent::run: prompt rendered turn=1 instance=full-history",
        "DEBUG ptc_agent::tools: tool call tool=\"customer\"",
        "DEBUG ptc_agent::run: session written turn=5",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
    }
    // The same progress lines, the same result.
    assert_eq!(logged.stdout, quiet.stdout);
    assert_eq!(
        err.lines().filter(|l| l.starts_with("turn ")).count(),
        plain.lines().filter(|l| l.starts_with("turn ")).count()
    );

    let bad = ptc_with_log(&args, Some("ptc_host=loud"));
    assert_eq!(bad.status.code(), Some(0));
    let err = stderr(&bad);
    assert_eq!(err.lines().filter(|l| l.contains("RUST_LOG")).count(), 1, "{err}");
    assert!(err.starts_with("ptc: warning: RUST_LOG=\"ptc_host=loud\" is not a log filter"), "{err}");
    assert_eq!(bad.stdout, quiet.stdout);
}

#[test]
fn compare_figures_match_an_independent_recount() {
    use ptc_plugin_api::render::full_history;
    use ptc_session::Session;
    use ptc_tokens::{TokenCounter, DEFAULT_ENCODING};

    let dir = ptc_integration_tests::plugin_dir();
    let config = temp(
        "compare.toml",
        &format!(
            "[plugins]\npaths = [{:?}]\n\n[strategy.coalesced]\nplugin = \"single-user-coalesced\"\n",
            dir.display().to_string()
        ),
    );
    let files = ["tests/sessions/mixed-realistic.json", "tests/sessions/redefinitions.json"];
    let mut args = vec![
        "compare",
        "--config",
        config.to_str().unwrap(),
        "--strategies",
        "full-history,no-history,coalesced",
        "--format",
        "json",
        "--session",
    ];
    args.extend(files);
    let out = ptc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> =
        report["strategies"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["full-history", "no-history", "coalesced"]);
    let row = |s: usize| &report["strategies"][[0, 2][s]];

    // Recount in process: turn 1 is always full-history; coalesced (no trigger) serves turns 2..N.
    let counter = TokenCounter::new(DEFAULT_ENCODING).unwrap();
    let registry = ptc_registry::Registry::discover(&[dir.to_path_buf()]);
    let coalesced = registry.build("coalesced", "single-user-coalesced", "{}").unwrap();
    let mut expected = [(0_u64, 0_u64), (0, 0)]; // (total, history) per strategy
    for (i, file) in files.iter().enumerate() {
        let session = Session::read(&root().join(file)).unwrap();
        let turns = session.turns.len() as u32;
        let first = counter.count_messages(full_history(&session.request_for_turn(Some(1)).unwrap()).messages()) as u64;
        for (s, figures) in expected.iter_mut().enumerate() {
            let mut total = 0;
            for t in 1..=turns {
                let request = session.request_for_turn(Some(t)).unwrap();
                let rendered = if s == 0 || t == 1 {
                    full_history(&request)
                } else {
                    coalesced.render(&request).unwrap().into_rendered()
                };
                total += counter.count_messages(rendered.messages()) as u64;
            }
            let per = &row(s)["per_session"][i]["figures"];
            assert_eq!(per["total_tokens"], total, "{file} strategy {s}");
            assert_eq!(per["history_tokens"], total - u64::from(turns) * first, "{file} strategy {s}");
            figures.0 += total;
            figures.1 += total - u64::from(turns) * first;
        }
    }
    // No history: the turn-1 prompt on every turn, the floor the history
    // cost counts from.
    for (i, file) in files.iter().enumerate() {
        let session = Session::read(&root().join(file)).unwrap();
        let first = counter.count_messages(full_history(&session.request_for_turn(Some(1)).unwrap()).messages()) as u64;
        let bare = &report["strategies"][1]["per_session"][i];
        assert_eq!(bare["figures"]["total_tokens"], first * session.turns.len() as u64, "{file}");
        assert_eq!(bare["figures"]["history_tokens"], 0, "{file}");
        let cost = |s: usize, model: &str| -> f64 {
            let costs = report["strategies"][s]["per_session"][i]["figures"]["costs"].as_array().unwrap();
            let c = costs.iter().find(|c| c["model"] == model).unwrap();
            c["total"]["cost"]["input"].as_f64().unwrap()
        };
        for model in ["anthropic", "openai"] {
            let (full, floor, mine) = (cost(0, model), cost(1, model), cost(2, model));
            assert!(floor < full, "{file} {model}: {floor} {full}");
            let ratios = |s: usize| &report["strategies"][s]["per_session"][i]["vs_full_history"];
            let history_cost = |s: usize| ratios(s)["history_cost"][model].as_f64();
            // The share means something only above a floor that is one:
            // otherwise null, with the reason.
            if floor <= mine && full - floor > 0.02 * full {
                assert!((history_cost(2).unwrap() - (mine - floor) / (full - floor)).abs() < 1e-9, "{file} {model}");
            } else {
                assert_eq!(history_cost(2), None, "{file} {model}");
                assert!(ratios(2)["history_cost_na"][model].is_string(), "{file} {model}");
            }
            assert_eq!((history_cost(0), history_cost(1)), (Some(1.0), Some(0.0)), "{file} {model}");
        }
    }
    for (s, (total, history)) in expected.iter().enumerate() {
        let figures = row(s);
        assert_eq!(figures["total"]["total_tokens"], *total);
        assert_eq!(figures["total"]["history_tokens"], *history);
        let ratio = figures["vs_full_history"]["history"].as_f64().unwrap();
        assert!((ratio - *history as f64 / expected[0].1 as f64).abs() < 1e-9, "{ratio}");
    }
    assert!(expected[1].1 < expected[0].1, "coalesced should remember for less: {expected:?}");

    // The markdown table has a row per strategy; an unknown instance is one error line.
    let mut md = args.clone();
    md[6] = "markdown";
    let table = String::from_utf8(ptc(&md).stdout).unwrap();
    assert!(table.lines().any(|l| l.starts_with("| coalesced | ")), "{table}");
    let mut bad = args.clone();
    bad[4] = "full-history,nope";
    let out = ptc(&bad);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
}

#[test]
fn compare_missed_lists_each_fact_a_prompt_did_not_show() {
    let session = "tests/sessions/ci-flake-triage.json";
    let run = |format: &str, missed: bool| {
        let mut args = vec!["compare", "--strategies", "aggressive", "--system-prompt", "card", "--format", format];
        args.extend(missed.then_some("--missed"));
        args.extend(["--session", session]);
        let out = ptc_with_plugins(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let report: serde_json::Value = serde_json::from_str(&run("json", false)).unwrap();
    let figures = &report["strategies"][0]["per_session"][0]["figures"];
    let missed = figures["missed"].as_array().expect("a list of missed facts");
    let (used, visible) = (figures["recall"]["used"].as_u64().unwrap(), figures["recall"]["visible"].as_u64().unwrap());
    assert!(!missed.is_empty());
    assert_eq!(missed.len() as u64, used - visible, "one entry per fact recall counts as not shown");
    // Each one really is absent from the prompt its turn was answered from,
    // as `ptc render` prints it.
    for m in missed {
        let (turn, fact) = (m["turn"].as_u64().unwrap().to_string(), m["fact"].as_str().unwrap());
        let prompt = ptc_with_plugins(&["render", "--session", session, "--turn", &turn, "--strategy", "aggressive"]);
        let text = String::from_utf8_lossy(&prompt.stdout);
        assert!(text.len() > 1000, "{}", stderr(&prompt));
        assert!(!text.contains(fact.trim_matches('"')), "turn {turn} shows {fact}");
    }
    // Restorable: the missed facts an earlier turn's prints, result or
    // error hold (what `turn-output` gives back), recounted from the file.
    let recorded = ptc_session::Session::read(&root().join(session)).unwrap();
    let returned = |t: &ptc_session::TurnRecord| {
        let error = t.error.as_ref().map(|e| e.message.clone());
        t.prints.iter().cloned().chain(t.result.clone()).chain(error).collect::<Vec<String>>()
    };
    let restorable = missed.iter().filter(|m| {
        let (turn, fact) = (m["turn"].as_u64().unwrap() as usize, m["fact"].as_str().unwrap().trim_matches('"'));
        recorded.turns[..turn - 1].iter().flat_map(returned).any(|o| o.contains(fact))
    });
    let restorable = restorable.count() as u64;
    assert!(restorable > 0 && restorable < missed.len() as u64, "{restorable} of {}", missed.len());
    assert_eq!(figures["recall"]["restorable"], restorable);
    let share = report["strategies"][0]["per_session"][0]["recall_restorable"].as_f64().unwrap();
    assert!((share - (visible + restorable) as f64 / used as f64).abs() < 1e-9, "{share}");
    let text = run("text", true);
    assert!(text.starts_with("1 session, 45 turns, o200k_base tokens."), "{text}");
    let section =
        &text[text.find("Learned facts a program used that its prompt did not show:\naggressive\n").unwrap()..];
    let first = &missed[0];
    let line = format!("  ci-flake-triage.json turn {}: {}", first["turn"], first["fact"].as_str().unwrap());
    assert!(section.lines().any(|l| l.starts_with(&line)), "{section}");
    assert!(!run("text", false).contains("did not show:"), "only with --missed");
}

/// The configs the docs tell a reader to run (`docs/*.toml`, for
/// benchmarks.md's tables): each validates, so a renamed parameter or
/// plugin breaks this test, not the reader's command. (The root
/// `strategies.toml` names the MCP test server, which a test-only build
/// does not make; e2e.rs runs its agents.)
#[test]
fn every_config_the_docs_name_validates() {
    let mut configs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    configs.sort();
    assert!(configs.len() >= 2, "{configs:?}");
    for config in &configs {
        let out = ptc_with_plugins(&["validate", "--config", config.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}{}",
            config.display(),
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
    }
}

/// A peer's parameter misspelt: one line that names the instance, the
/// peer, the word and the words it knows.
#[test]
fn a_peer_with_an_unknown_parameter_is_one_problem_line() {
    let config = temp("peer.toml", "[strategy.masked]\nplugin = \"observation-masking\"\nwindw = 3\n");
    let out = ptc(&["validate", "--config", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let problems: Vec<&str> = stdout.lines().filter(|l| l.starts_with("problem: ")).collect();
    assert_eq!(problems.len(), 1, "{stdout}");
    assert!(
        problems[0].ends_with(
            "strategy `masked` (built in): invalid parameters: observation-masking: unknown parameter `windw` (known: window)"
        ),
        "{stdout}"
    );
}

#[test]
fn compare_with_a_misspelt_strategy_is_one_line_before_any_measuring() {
    let out = ptc_with_plugins(&[
        "compare",
        "--strategies",
        "coalesced,agressive",
        "--session",
        "tests/sessions/mixed-realistic.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no table for a typo: {}", String::from_utf8_lossy(&out.stdout));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("ptc: error: no strategy named `agressive` (defined: full-history, coalesced,"), "{err}");
    assert!(err.trim_end().ends_with("did you mean `aggressive`?"), "{err}");
}

#[test]
fn compare_show_turn_without_the_html_report_is_refused() {
    // It picks the prompt the HTML report shows; alone it was ignored without a word.
    let out = ptc(&["compare", "tests/sessions/mixed-realistic.json", "--show-turn", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.contains("--html <FILE>"), "{err}");
}

/// `ptc compare` over the whole corpus with the root config's instances, as
/// JSON (`--system-prompt`: `recorded` or `card`).
fn compare_corpus(system_prompt: &str, strategies: &str) -> serde_json::Value {
    let config = root().join("strategies.toml");
    let sessions: Vec<String> =
        ptc_integration_tests::corpus_sessions().iter().map(|p| p.display().to_string()).collect();
    let mut args = vec![
        "compare",
        "--config",
        config.to_str().unwrap(),
        "--format",
        "json",
        "--pricing",
        "anthropic,openai,none",
        "--system-prompt",
        system_prompt,
        "--strategies",
        strategies,
        "--session",
    ];
    args.extend(sessions.iter().map(String::as_str));
    let out = ptc_with_plugins(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The peers `ptc compare` measures beside the configured instances.
const PEERS: [&str; 3] = ["clear-tool-uses", "observation-masking", "upstream-trim"];

/// The corpus measured once per system prompt (`recorded`, `card`) and
/// shared by the tests that read it: the cache-stable instances, the spec
/// layouts they replace, and with the card the peers and `no-history`,
/// for docs/benchmarks.md's tables.
fn corpus_report(system_prompt: &'static str) -> &'static serde_json::Value {
    static RECORDED: OnceLock<serde_json::Value> = OnceLock::new();
    static CARD: OnceLock<serde_json::Value> = OnceLock::new();
    let names: Vec<&str> = CACHE_STABLE.iter().map(|(name, _)| *name).collect();
    let mut strategies =
        format!("full-history,coalesced-spec,rolling-window,per-turn-summary,aggressive-spec,{}", names.join(","));
    let cell = match system_prompt {
        "recorded" => &RECORDED,
        "card" => {
            strategies = format!("{strategies},no-history,{}", PEERS.join(","));
            &CARD
        }
        other => panic!("no corpus report for --system-prompt {other}"),
    };
    cell.get_or_init(|| compare_corpus(system_prompt, &strategies))
}

/// The shipped instances whose layout is cache-stable, each with what it
/// replaces: the same plugin in the layout of its spec.
const CACHE_STABLE: [(&str, &str); 6] = [
    ("coalesced", "coalesced-spec"),
    ("coalesced-lean", "coalesced-spec"),
    ("rolling", "rolling-window"),
    ("per-turn", "per-turn-summary"),
    ("aggressive", "aggressive-spec"),
    ("coalesced-late", "coalesced-spec"),
];

#[test]
fn every_cache_stable_instance_costs_at_most_the_full_history_on_every_session() {
    for system_prompt in ["recorded", "card"] {
        let report = corpus_report(system_prompt);
        let sessions = report["sessions"].as_array().unwrap();
        let row = |name: &str| -> &serde_json::Value {
            let rows = report["strategies"].as_array().unwrap();
            rows.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no {name} row"))
        };
        for (name, replaces) in CACHE_STABLE {
            let r = row(name);
            for (i, session) in sessions.iter().enumerate().filter(|(_, s)| s["turns"].as_u64().unwrap() >= 10) {
                for model in ["anthropic", "openai", "none"] {
                    let ratio = r["per_session"][i]["vs_full_history"]["cost"][model].as_f64().unwrap();
                    assert!(
                        ratio <= 1.0 + 1e-9,
                        "{system_prompt}: {name} costs {:.1}% of full-history under `{model}` on {}",
                        ratio * 100.0,
                        session["file"]
                    );
                }
            }
            // Between folds the prompt is (nearly) all cached.
            for cost in r["total"]["costs"].as_array().unwrap().iter().filter(|c| c["model"] != "none") {
                let usage = &cost["steady"]["usage"];
                let share = usage["cache_read_tokens"].as_f64().unwrap() / usage["prompt_tokens"].as_f64().unwrap();
                assert!(
                    share >= 0.85,
                    "{system_prompt}: {name} reads {:.1}% from the cache between folds",
                    share * 100.0
                );
            }
            // It remembers at least what the spec layout it replaces does.
            let (mine, theirs) = (r["recall"].as_f64().unwrap(), row(replaces)["recall"].as_f64().unwrap());
            assert!(mine >= theirs, "{name} recalls {mine:.3}, {replaces} {theirs:.3}");
        }
        // With today's language card the prompts are cacheable from turn 1,
        // and the compressing layouts are cheaper than the full history on
        // every session; the spec layout, rebuilt every turn, is not.
        if system_prompt == "card" {
            for name in ["coalesced", "coalesced-lean", "aggressive"] {
                for model in ["anthropic", "openai"] {
                    let cost = row(name)["vs_full_history"]["cost"][model].as_f64().unwrap();
                    assert!(cost < 0.75, "{name} under {model}: {:.1}% of full-history", cost * 100.0);
                }
            }
            let spec = row("coalesced-spec")["per_session"].as_array().unwrap();
            let dearer = spec.iter().filter(|s| s["vs_full_history"]["cost"]["anthropic"].as_f64().unwrap() > 1.0);
            assert!(dearer.count() >= sessions.len() / 2, "the spec layout breaks the cache on most sessions");
        }
    }
}

/// docs/benchmarks.md's headline tables ("Cheaper and remembers": the
/// totals and the per-session table) are what `ptc compare --system-prompt
/// card` measures today. After a change that moves a figure, re-bless with
/// `PTC_BLESS=1` and update the prose around them.
#[test]
fn the_benchmarks_headline_tables_are_what_compare_measures() {
    let report = corpus_report("card");
    let rows = report["strategies"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no {name} row"));
    let percent = |x: &Value| x.as_f64().map_or_else(|| "-".to_string(), |x| format!("{:.1}%", 100.0 * x));
    let cost = |vs_full: &Value, model: &str| 100.0 * vs_full["cost"][model].as_f64().unwrap();
    let costs = |vs_full: &Value| format!("{:.1} / {:.1}", cost(vs_full, "anthropic"), cost(vs_full, "openai"));

    let mut totals = String::from(
        "| strategy | cost vs full history, anthropic / openai (%) | raw tokens vs full | recall | stale facts shown |\n\
         |---|---:|---:|---:|---:|\n",
    );
    for name in ["full-history", "no-history"].into_iter().chain(PEERS).chain(["coalesced", "aggressive"]) {
        let r = row(name);
        let vs_full = &r["vs_full_history"];
        totals.push_str(&format!(
            "| `{name}` | {} | {} | {} | {} |\n",
            costs(vs_full),
            percent(&vs_full["tokens"]),
            percent(&r["recall"]),
            r["stale_facts"]
        ));
    }

    let mut per_session = String::from(
        "| session | turns | full history recall | `coalesced` cost / recall | `aggressive` cost / recall | \
         cheapest peer cost | best peer recall |\n|---|---:|---:|---|---|---:|---:|\n",
    );
    let sessions = report["sessions"].as_array().unwrap();
    let mut order: Vec<usize> = (0..sessions.len()).collect();
    order.sort_by_key(|&i| sessions[i]["file"].as_str().unwrap());
    for i in order {
        let of = |name: &str| &row(name)["per_session"][i];
        let shown = |name: &str| format!("{}, {}", costs(&of(name)["vs_full_history"]), percent(&of(name)["recall"]));
        // The first peer wins a tie, on cost and on recall.
        let cheapest = PEERS.into_iter().reduce(|a, b| {
            if cost(&of(b)["vs_full_history"], "anthropic") < cost(&of(a)["vs_full_history"], "anthropic") {
                b
            } else {
                a
            }
        });
        let recall = |name: &str| of(name)["recall"].as_f64().unwrap_or(-1.0);
        let best = PEERS.into_iter().reduce(|a, b| if recall(b) > recall(a) { b } else { a });
        let (cheapest, best) = (cheapest.unwrap(), best.unwrap());
        per_session.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} ({cheapest}) | {} |\n",
            sessions[i]["file"].as_str().unwrap(),
            sessions[i]["turns"],
            percent(&of("full-history")["recall"]),
            shown("coalesced"),
            shown("aggressive"),
            costs(&of(cheapest)["vs_full_history"]),
            if of(best)["recall"].is_null() {
                "- (no fact reused)".to_string()
            } else {
                format!("{} ({best})", percent(&of(best)["recall"]))
            },
        ));
    }

    if let Err(diff) = check_benchmarks_tables(&[&totals, &per_session]) {
        panic!("a headline table of docs/benchmarks.md is not what compare measures today: {diff}");
    }
}

/// docs/benchmarks.md's "The demo runs" table is what the section's
/// commands print today: the four runnable agents of the root
/// `strategies.toml` run once each, then `ptc compare --format markdown`
/// over their sessions (its summary table). Re-bless with `PTC_BLESS=1`.
#[test]
fn the_benchmarks_demo_runs_table_is_what_its_commands_print() {
    let dir = scratch_dir("demo-runs");
    let mut sessions = Vec::new();
    for agent in ["demo", "explore-orders", "customer-report", "recover-errors"] {
        let session = dir.join(format!("{agent}.jsonl"));
        let out = ptc_with_plugins(&["run", agent, "--session", session.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "ptc run {agent}: {}", stderr(&out));
        sessions.push(session.display().to_string());
    }
    let mut args = vec!["compare", "--format", "markdown", "--session"];
    args.extend(sessions.iter().map(String::as_str));
    let out = ptc_with_plugins(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let markdown = String::from_utf8(out.stdout).unwrap();
    let table: String = markdown
        .lines()
        .skip_while(|l| !l.starts_with("| strategy |"))
        .take_while(|l| l.starts_with('|'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(table.lines().count() > 10, "no summary table in:\n{markdown}");
    if let Err(diff) = check_benchmarks_tables(&[&table]) {
        panic!("the demo runs table of docs/benchmarks.md is not what its commands print today: {diff}");
    }
}

/// Compares docs/benchmarks.md with itself where `tables` replace the
/// tables with their header lines ([`check_golden`]: `PTC_BLESS=1` writes
/// it). One test at a time, so that two blessing tests do not write over
/// each other's tables.
fn check_benchmarks_tables(tables: &[&str]) -> Result<(), String> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let path = root().join("docs/benchmarks.md");
    let doc = tables.iter().fold(std::fs::read_to_string(&path).unwrap(), |doc, table| with_table(&doc, table));
    check_golden(&path, &doc)
}

/// `doc` with the Markdown table that has `table`'s header line replaced
/// by `table`. Panics unless exactly one table has that header.
fn with_table(doc: &str, table: &str) -> String {
    let header = table.lines().next().unwrap();
    let lines: Vec<&str> = doc.lines().collect();
    let starts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == header).collect();
    assert_eq!(starts.len(), 1, "docs/benchmarks.md must have one table headed {header:?}");
    let start = starts[0];
    let end = (start..lines.len()).find(|&i| !lines[i].starts_with('|')).unwrap_or(lines.len());
    let mut out: Vec<&str> = lines[..start].to_vec();
    out.extend(table.lines());
    out.extend(&lines[end..]);
    out.join("\n") + "\n"
}

/// Two corpus sessions joined into one run of 90 turns, past the corpus's
/// longest (48): the second one's turns follow the first's, renumbered, and
/// the tool lists are merged. Written to a scratch file.
fn ninety_turn_run() -> PathBuf {
    let read = |name: &str| -> serde_json::Value {
        let path = root().join("tests/sessions").join(name);
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let (mut run, second) = (read("returns-desk.json"), read("event-pipeline-backfill.json"));
    let offset = run["turns"].as_array().unwrap().len() as u64;
    let known: Vec<serde_json::Value> = run["tools"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
    for tool in second["tools"].as_array().unwrap() {
        if !known.contains(&tool["name"]) {
            run["tools"].as_array_mut().unwrap().push(tool.clone());
        }
    }
    for turn in second["turns"].as_array().unwrap() {
        let mut turn = turn.clone();
        turn["number"] = (turn["number"].as_u64().unwrap() + offset).into();
        run["turns"].as_array_mut().unwrap().push(turn);
    }
    let turns = run["turns"].as_array().unwrap().len();
    run["max_turns"] = (turns as u64 + 2).into();
    for key in ["result", "status"] {
        run[key] = second[key].clone();
    }
    assert_eq!(turns, 90);
    temp("ninety-turns.json", &serde_json::to_string(&run).unwrap())
}

#[test]
fn a_ninety_turn_run_folds_and_stays_cheaper_than_the_full_history() {
    // The corpus's runs are too short for fact memory to fold (its entries
    // are small); a run twice as long does, and the invariants still hold.
    let session = ninety_turn_run();
    let config = root().join("strategies.toml");
    let (session, config) = (session.to_str().unwrap(), config.to_str().unwrap());
    let render = ptc_with_plugins(&[
        "render",
        "--session",
        session,
        "--config",
        config,
        "--strategy",
        "coalesced",
        "--format",
        "json",
    ]);
    assert_eq!(render.status.code(), Some(0), "{}", stderr(&render));
    let stats: serde_json::Value = serde_json::from_slice(&render.stdout).unwrap();
    assert!(stats["stats"]["cache_epoch"].as_u64().unwrap() >= 1, "no fold in 90 turns: {}", stats["stats"]);
    let names: Vec<&str> = CACHE_STABLE.iter().map(|(name, _)| *name).collect();
    let strategies = format!("full-history,{}", names.join(","));
    let out = ptc_with_plugins(&[
        "compare",
        "--config",
        config,
        "--format",
        "json",
        "--pricing",
        "anthropic,openai",
        "--system-prompt",
        "card",
        "--strategies",
        &strategies,
        "--session",
        session,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["strategies"].as_array().unwrap();
    let full_recall = rows[0]["recall"].as_f64().unwrap();
    for row in &rows[1..] {
        let name = row["name"].as_str().unwrap();
        for model in ["anthropic", "openai"] {
            let ratio = row["vs_full_history"]["cost"][model].as_f64().unwrap();
            assert!(ratio <= 1.0 + 1e-9, "{name} costs {:.1}% of full-history under `{model}`", ratio * 100.0);
        }
        if name == "coalesced" || name == "aggressive" {
            let recall = row["recall"].as_f64().unwrap();
            assert!(recall >= full_recall - 0.02, "{name} recalls {recall:.3}, full history {full_recall:.3}");
            assert_eq!(row["stale_facts"], 0, "{name} shows a superseded value");
            let cost = row["vs_full_history"]["cost"]["anthropic"].as_f64().unwrap();
            assert!(cost < 0.65, "{name}: {:.1}% of full-history", cost * 100.0);
        }
    }
}

#[test]
fn a_missing_relative_path_says_it_was_resolved_against_the_config_folder() {
    // The config lives in a folder of its own; ptc runs from the workspace root.
    let dir = scratch_dir("relative-paths");
    let config = dir.join("agents.toml");
    std::fs::write(
        &config,
        "[plugins]\npaths = [\"plugins\"]\n\n\
         [tool.t]\ncommand = [\"./bin/tool.sh\"]\n\n\
         [agent.replay]\nmission = \"m\"\nllm = { backend = \"replay\", file = \"replies.json\" }\n\n\
         [agent.data]\nmission = \"m\"\ndata = { orders = \"data/orders.json\" }\nllm = { backend = \"replay\", file = \"ok.json\" }\n\n\
         [agent.tool]\nmission = \"m\"\ntools = [\"t\"]\nllm = { backend = \"replay\", file = \"ok.json\" }\n",
    )
    .unwrap();
    std::fs::write(dir.join("ok.json"), r#"["(return (tool/t {}))", "(return 1)"]"#).unwrap();
    let config = config.to_str().unwrap();
    let note = format!("(relative paths in {config} are resolved against its folder, {})", dir.display());

    let out = ptc(&["strategies", "--config", config]);
    let err = stderr(&out);
    assert!(err.contains(&format!("{}: plugin path does not exist {note}", dir.join("plugins").display())), "{err}");
    for (agent, what) in [("replay", "replay file replies.json"), ("data", "data `orders` data/orders.json")] {
        let session = dir.join(format!("{agent}.jsonl"));
        let out = ptc(&["run", agent, "--config", config, "--session", session.to_str().unwrap()]);
        let err = stderr(&out);
        let (what, file) = what.rsplit_once(' ').unwrap();
        let expected = format!("agent `{agent}`: {what} {} does not exist {note}", dir.join(file).display());
        assert!(err.contains(&expected), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A relative program path of a command tool runs from the config's folder.
    let session = dir.join("tool.jsonl");
    let out = ptc(&["run", "tool", "--config", config, "--session", session.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "turn 1's tool failed, turn 2 returned");
    // The run went ahead on the plugins beside ptc, and said the configured folder is missing.
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "plugin not loaded: {}: plugin path does not exist {note}",
            dir.join("plugins").display()
        )),
        "{err}"
    );
    let trace = ptc(&["trace", session.to_str().unwrap()]);
    let shown = String::from_utf8_lossy(&trace.stdout);
    let expected = format!("cannot start `./bin/tool.sh`: No such file or directory (os error 2) (relative to {}, the config file's folder)", dir.display());
    assert!(shown.contains(&expected), "{shown}");
}

#[test]
fn a_backend_that_cannot_start_names_the_agent_and_where_it_is_configured() {
    let cfg = temp(
        "backend.toml",
        "[agent.remote]\nmission = \"m\"\nllm = { backend = \"openai\", base_url = \"http://127.0.0.1:9\", model = \"m\", api_key_env = \"PTC_SURELY_UNSET_VARIABLE\" }\n",
    );
    let out = ptc(&["run", "remote", "--config", cfg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("ptc: error: {}:1:1: agent `remote`: the environment variable", cfg.display())),
        "{err}"
    );
    assert!(
        err.ends_with("`PTC_SURELY_UNSET_VARIABLE` (api_key_env) is not set; export it with the API key\n"),
        "{err}"
    );
}

/// A reader that stops early (`ptc trace FILE | head`) closes the pipe
/// while ptc still writes: ptc drops the rest of its output without a
/// word and exits 0, as a pipe's reader expects, and never panics.
#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // 129 KB and 171 KB: more than a pipe and the reader's buffer hold
    // (64 + 8 KiB), so ptc is still writing when the reader goes.
    let session = "tests/sessions/literature-review.json";
    let render = ["render", "--session", session, "--strategy", "full-history", "--format", "json"];
    // The REPL writes as it reads: 10 results of 110 KB each.
    let repl = "(range 20000)\n".repeat(10);
    for (args, input) in [(&["trace", session][..], ""), (&render[..], ""), (&["repl"][..], repl.as_str())] {
        let mut child = command_in_root(env!("CARGO_BIN_EXE_ptc"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            // The REPL may stop reading once its output is gone.
            let _ = stdin.write_all(input.as_bytes());
        }
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.is_empty(), "ptc {args:?} printed nothing");
        // The reader is dropped here, closing the pipe.
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "ptc {args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("error"), "ptc {args:?}: {stderr}");
    }
}

/// A session file that cannot be written stops the run with one line that
/// says why and what to do instead.
#[test]
fn an_unwritable_session_path_says_what_to_do() {
    // recover-errors uses full-history and a built-in tool: no plugin needed.
    let missing = scratch_dir("unwritable-session").join("no-such-folder/run.jsonl");
    let out = ptc(&["run", "recover-errors", "--session", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("ptc: error: cannot write the session {}", missing.display()))
            && last.contains("its folder does not exist: create it, or write the session elsewhere")
            && last.ends_with("e.g. `ptc run AGENT --session FILE`)"),
        "{err}"
    );
}

/// Runs each command and checks that it exits 1 with one error line that
/// holds its text.
fn fails_with_one_line(cases: &[(&[&str], &str)]) {
    for &(args, says) in cases {
        let out = ptc(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("ptc: error: ") && err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_folder_or_a_binary_file_where_a_file_is_read_says_what_to_give() {
    let dir = scratch_dir("wrong-file-kind");
    let binary = dir.join("picture.bin");
    std::fs::write(&binary, [0x89, b'P', b'N', b'G', 0xff, 0x00, 0xfe]).unwrap();
    let (dir_s, bin_s) = (dir.to_str().unwrap(), binary.to_str().unwrap());
    let cases: [(&[&str], &str); 6] = [
        (&["validate", "--config", dir_s], "a folder, not a file: name its strategies.toml"),
        (&["validate", "--config", bin_s], "not text (not UTF-8): a config is a TOML file"),
        (&["trace", dir_s], "a folder, not a file: name a session file in it"),
        (&["compare", "--session", bin_s], "not text (not UTF-8); a session file is what `ptc run` writes"),
        (&["bench", "report", dir_s], "a folder, not a file: name the result files in it"),
        (&["bench", "report", bin_s], "not a result file (not UTF-8 text); `ptc bench SUITE --out FILE` writes one"),
    ];
    fails_with_one_line(&cases);
}

/// A path to a device (or a log, a dataset) where ptc reads a file whole is
/// refused at the file's bound, not read until memory runs out: `/dev/zero`
/// as a config held 723 MB after 3 s, as `ptc eval`'s program 1 GB.
#[cfg(unix)]
#[test]
fn a_device_where_a_file_is_read_is_refused_at_its_bound() {
    let session = "tests/sessions/redefinitions.json";
    let cases: [(&[&str], &str); 4] = [
        (&["validate", "--config", "/dev/zero"], "more than 16 MiB (MAX_SOURCE_FILE_BYTES): a config is a TOML file"),
        (
            &["eval", "/dev/zero"],
            "/dev/zero: cannot read program: more than 16 MiB (ptc reads it whole, within that bound: is it the \
             right file?)",
        ),
        (&["eval", "-e", "data/x", "--data", "x=/dev/zero"], "/dev/zero: cannot read --data file: more than 256 MiB"),
        (
            &["compare", session, "--strategies", "full-history", "--system-prompt", "/dev/zero"],
            "/dev/zero: cannot read the --system-prompt file: more than 16 MiB",
        ),
    ];
    fails_with_one_line(&cases);
    // A data file: `ptc validate` says what `ptc run` says, next step included.
    let tables = format!("[agent.big]\nmission = \"m\"\ndata = {{ x = \"/dev/zero\" }}\n{REPLAY}\n");
    let (_, config) = replay_project("data-at-bound", &["(return 1)"], &tables);
    let said = |command: &[&str]| {
        let out = ptc(command);
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{text}");
        text
    };
    let next =
        "data `x`: /dev/zero: more than 256 MiB (MAX_INPUT_FILE_BYTES), and an input is read whole into memory; \
                give the agent an extract, or a tool that reads the file";
    for command in [&["validate", "--config", &config][..], &["run", "big", "--config", &config]] {
        let text = said(command);
        assert!(text.contains(next), "{command:?}: {text}");
    }
}

#[test]
fn a_run_whose_command_tool_cannot_start_says_what_to_do() {
    let tables = format!(
        "[tool.lookup]\ncommand = [\"no-such-lookup-program-ptc\"]\n\n[agent.try]\nmission = \"Look it up\"\n\
         strategy = \"full-history\"\nmax_turns = 2\ntools = [\"lookup\"]\n{REPLAY}\n"
    );
    let (dir, config) = replay_project("unstartable-tool", &["(println (tool/lookup {:q 1}))", "(return 1)"], &tables);
    let session = dir.join("try.session.jsonl");
    let out = ptc(&["run", "try", "--config", &config, "--session", session.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // The model saw the failure (and went on); the user gets the next step.
    assert!(err.contains("cannot start `no-such-lookup-program-ptc`"), "{err}");
    let line = err.lines().find(|l| l.contains("tool `lookup`: program")).unwrap_or_default();
    assert!(
        line.ends_with(
            "tool `lookup`: program `no-such-lookup-program-ptc` is not on PATH (install it, or give its path in \
             `command`); `try`'s calls to it fail"
        ),
        "{err}"
    );
}

#[test]
fn a_run_stopped_by_its_model_says_how_to_go_on_and_resume_needs_no_agent_name() {
    let tables = format!(
        "[agent.other]\nmission = \"Unused\"\nstrategy = \"full-history\"\n{REPLAY}\n\n\
         [agent.count]\nmission = \"Count one more\"\nstrategy = \"full-history\"\nmax_turns = 3\n{REPLAY}\n"
    );
    let (dir, config) = replay_project("resume-without-agent", &["(def n 41)"], &tables);
    let session = dir.join("count.session.jsonl");
    let session = session.to_str().unwrap();
    let out = ptc(&["run", "count", "--config", &config, "--session", session]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("ptc: error: turn 2: llm: replay file "), "{err}");
    assert!(
        last.ends_with(&format!("(session so far in {session}; `ptc run --resume {session}` goes on from it)")),
        "{err}"
    );

    // The next step as printed (plus the config): the session names its agent, `count`, not the first one.
    write_replay(&dir, &["(def n 41)", "(return (inc n))"]);
    let out = ptc(&["run", "--resume", session, "--config", &config]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "42\n");
    assert!(
        stderr(&out).ends_with(&format!("returned after 2 turns; session written to {session}\n")),
        "{}",
        stderr(&out)
    );
    // With a config that lacks the session's agent, the error names it.
    let other = dir.join("other.toml");
    std::fs::write(&other, "[agent.other]\nmission = \"Unused\"\n").unwrap();
    let out = ptc(&["run", "--resume", session, "--config", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no agent named `count` (defined: other)"), "{}", stderr(&out));
}

#[test]
fn ctrl_c_says_where_the_finished_turns_are_and_the_run_goes_on_from_them() {
    let tables = format!("{SLOW_TOOL}\n[agent.long]\nmission = \"Take long\"\nstrategy = \"full-history\"\nmax_turns = 3\ntools = [\"slow\"]\n{REPLAY}\n");
    let (dir, config) = replay_project("interrupted-run", &["(def a 41)", "(tool/slow {})"], &tables);
    let session = dir.join("long.session.jsonl");
    let session_s = session.to_str().unwrap().to_string();
    // Ctrl-C, and what a supervisor or `timeout` sends (exit status 128 + the signal).
    for (signal_name, status) in [("TERM", 143), ("INT", 130)] {
        let _ = std::fs::remove_file(&session);
        let child = command_in_root(env!("CARGO_BIN_EXE_ptc"))
            .args(["run", "long", "--config", &config, "--session", &session_s])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Turn 1 recorded (the journal's header and one turn line): turn 2 waits on the tool.
        wait_until("turn 1 recorded", || std::fs::read_to_string(&session).map_or(0, |t| t.lines().count()) >= 2);
        wait_until("the tool started", || dir.join("tool.pids").exists());
        signal(&child, signal_name);
        let out = child.wait_with_output().unwrap();
        // The tool (a shell) and the sleep it started were killed with ptc.
        assert!(
            pids_written(&dir.join("tool.pids")).into_iter().all(process_ended),
            "SIG{signal_name}: the tool outlived ptc"
        );
        std::fs::remove_file(dir.join("tool.pids")).unwrap();
        assert_eq!(out.status.code(), Some(status), "SIG{signal_name}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(
            err.lines().last().unwrap_or_default(),
            format!(
                "ptc: interrupted; the finished turns are in {session_s}: `ptc run --resume {session_s}` goes on from them"
            ),
            "SIG{signal_name}: {err}"
        );
    }
    // As the line says (plus the config): turn 1's definition is back, turn 2 runs again.
    write_replay(&dir, &["(def a 41)", "(return (inc a))"]);
    let out = ptc(&["run", "--resume", &session_s, "--config", &config]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "42\n");
}

/// A command tool (a shell) that starts a 300 s sleep, writes both their
/// process ids to `tool.pids` and waits for it.
const SLOW_TOOL: &str = "[tool.slow]\ncommand = [\"sh\", \"-c\", \"sleep 300 & echo $$ $! > tool.pids; wait\"]\n";

#[test]
fn a_command_tool_past_its_timeout_is_killed_with_what_it_started() {
    let tables = format!(
        "{}timeout_ms = 300\n[agent.slow]\nmission = \"Wait\"\nstrategy = \"full-history\"\nmax_turns = 2\ntools = [\"slow\"]\n{REPLAY}\n",
        SLOW_TOOL
    );
    let (dir, config) = replay_project("tool-timeout", &["(tool/slow {})", "(return 1)"], &tables);
    let session = dir.join("slow.session.jsonl");
    let out = ptc(&["run", "slow", "--config", &config, "--session", session.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Not only the shell: the sleep it forked, which held the tool's output open.
    let pids = pids_written(&dir.join("tool.pids"));
    assert_eq!(pids.len(), 2);
    wait_until("the tool's processes ended", || pids.iter().all(|&pid| process_ended(pid)));
}

/// A model server on 127.0.0.1 whose `GET /v1/models` answers 200 to the
/// key `good-key` (either protocol's header), 401 otherwise, and 404 on
/// any other path: its base URL.
fn key_checking_server() -> String {
    http_server(|request| {
        let keyed = request.contains("authorization: bearer good-key") || request.contains("x-api-key: good-key");
        let status = match (request.starts_with("get /v1/models "), keyed) {
            (true, true) => "200 OK",
            (true, false) => "401 Unauthorized",
            (false, _) => "404 Not Found",
        };
        format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n").into_bytes()
    })
}

#[test]
fn doctor_asks_each_model_server_whether_it_takes_the_key() {
    let base = key_checking_server();
    let dir = scratch_dir("doctor-keys");
    let config = dir.join("strategies.toml");
    // `ptc doctor` with the key variable set to `key` (or unset): its line about the endpoint.
    let endpoint_line = |backend: &str, key_env: &str, key: Option<&str>| {
        let key_setting = if key_env.is_empty() { String::new() } else { format!(", api_key_env = \"{key_env}\"") };
        let text = format!(
            "[plugins]\nexecutable_dir = false\n[agent.a]\nmission = \"m\"\nllm = {{ backend = \"{backend}\", base_url = \"{base}\", model = \"x\"{key_setting} }}\n"
        );
        std::fs::write(&config, text).unwrap();
        let mut cmd = command_in_root(env!("CARGO_BIN_EXE_ptc"));
        cmd.args(["doctor", "--config", config.to_str().unwrap()]).env_remove("PTC_DOCTOR_KEY");
        if let Some(key) = key {
            cmd.env("PTC_DOCTOR_KEY", key);
        }
        let out = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        stdout.lines().find(|l| l.contains(" endpoint ")).unwrap_or_else(|| panic!("{stdout}")).to_string()
    };
    let models = format!("GET {base}/v1/models");
    let openai = format!("agent `a`: openai endpoint {base}/v1/chat/completions");
    assert_eq!(
        endpoint_line("openai", "PTC_DOCTOR_KEY", Some("good-key")),
        format!("ok    {openai} answers and accepts the key in PTC_DOCTOR_KEY ({models}: HTTP 200)")
    );
    assert_eq!(
        endpoint_line("openai", "PTC_DOCTOR_KEY", Some("stale-key")),
        format!("FAIL  {openai} refuses the key in PTC_DOCTOR_KEY ({models}: HTTP 401); check its value")
    );
    assert_eq!(
        endpoint_line("openai", "PTC_DOCTOR_KEY", None),
        format!("FAIL  {openai} asks for a key ({models}: HTTP 401); export PTC_DOCTOR_KEY")
    );
    let line = endpoint_line("openai", "", None);
    assert!(line.ends_with("set `api_key_env` in the agent's llm table to the variable that holds it"), "{line}");
    // Anthropic's header.
    assert_eq!(
        endpoint_line("anthropic", "PTC_DOCTOR_KEY", Some("good-key")),
        format!(
            "ok    agent `a`: anthropic endpoint {base}/v1/messages answers and accepts the key in PTC_DOCTOR_KEY \
             ({models}: HTTP 200)"
        )
    );
    // A server without a model list only answers.
    let proxy = format!("{base}/proxy");
    let text = std::fs::read_to_string(&config).unwrap().replace(&base, &proxy).replace("anthropic", "openai");
    std::fs::write(&config, text).unwrap();
    let out = command_in_root(env!("CARGO_BIN_EXE_ptc"))
        .args(["doctor", "--config", config.to_str().unwrap()])
        .env("PTC_DOCTOR_KEY", "good-key")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("answers (GET {proxy}/models: HTTP 404)")), "{stdout}");
}
