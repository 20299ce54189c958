//! A user's first hour, with the real binary installed as `scripts/install`
//! lays it out (ptc and the shipped plugins in one folder) and run from a
//! folder outside the repository: errors without a project, `ptc init`,
//! `ptc run`, `ptc validate`, `ptc doctor`, `ptc docs`, `ptc completions`.

use ptc_integration_tests::{library, link_or_copy, scratch_dir};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The shipped plugins (the crates under plugins/), by `[lib] name`.
const SHIPPED: &[&str] = &[
    "ptc_strategy_single_user_coalesced",
    "ptc_strategy_rolling_window",
    "ptc_strategy_per_turn_summary",
    "ptc_strategy_aggressive",
];

/// `ptc` and the shipped plugins copied into `<scratch>/bin`.
fn installed(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ptc = bin.join("ptc");
    link_or_copy(Path::new(env!("CARGO_BIN_EXE_ptc")), &ptc);
    for lib in SHIPPED {
        let file = library(lib);
        link_or_copy(&file, &bin.join(file.file_name().unwrap()));
    }
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    (ptc, work)
}

fn ptc(bin: &Path, dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .env_remove(ptc_host::config::PLUGIN_PATH_ENV)
        .output()
        .expect("ptc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn outside_a_project_errors_say_where_they_looked_and_what_to_do() {
    let (bin, work) = installed("no-project");
    let out = ptc(&bin, &work, &["run", "foo"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains(":0:0"), "{err}");
    let looked = work.canonicalize().unwrap().join("strategies.toml");
    assert!(err.contains(&format!("looked for {}", looked.display())), "{err}");
    assert!(err.contains("--config FILE") && err.contains("ptc init"), "{err}");

    let out = ptc(&bin, &work, &["strategies"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert!(listed.starts_with("config: none (strategies.toml not found"), "{listed}");
    for name in ["single-user-coalesced", "rolling-window", "per-turn-summary", "aggressive"] {
        assert!(listed.contains(name), "{listed}");
    }
}

#[test]
fn init_then_run_validate_doctor_docs_and_completions_work_from_any_folder() {
    let (bin, work) = installed("first-hour");
    let out = ptc(&bin, &work, &["init", "shop"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    for file in ["strategies.toml", "data/orders.json", "replay/explore-orders.json"] {
        assert!(said.contains(&format!("wrote shop/{file}")), "{said}");
        assert!(work.join("shop").join(file).is_file(), "{file}");
    }
    assert!(said.contains("cd shop && ptc run explore-orders"), "{said}");
    // A second init writes nothing and says why.
    let before = std::fs::read_to_string(work.join("shop/strategies.toml")).unwrap();
    std::fs::write(work.join("shop/strategies.toml"), "# edited\n").unwrap();
    let out = ptc(&bin, &work, &["init", "shop"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("already exist") && text(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(work.join("shop/strategies.toml")).unwrap(), "# edited\n");
    let out = ptc(&bin, &work, &["init", "shop", "--force"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(work.join("shop/strategies.toml")).unwrap(), before);

    let shop = work.join("shop");
    // Without an agent: the agents to choose from.
    let out = ptc(&bin, &shop, &["run"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("which agent?") && err.contains("ptc run explore-orders"), "{err}");

    let out = ptc(&bin, &shop, &["run", "explore-orders"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(text(&out.stdout), "{:shipped-orders 4 :revenue 2135 :largest 101}\n");
    assert!(err.contains("strategy=coalesced"), "the shipped plugin beside ptc rendered turn 2: {err}");
    assert!(err.contains("returned after 3 turns; session written to explore-orders.session.jsonl"), "{err}");
    assert!(shop.join("explore-orders.session.jsonl").is_file());
    let out = ptc(&bin, &shop, &["run", "explore-orders", "--resume", "nope.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "--resume nope.jsonl: no such session file; a run of `explore-orders` writes explore-orders.session.jsonl"
        ),
        "{err}"
    );
    let out = ptc(&bin, &shop, &["trace", "nope.jsonl"]);
    assert!(
        text(&out.stderr).contains("nope.jsonl: no such session file; `ptc run AGENT` writes"),
        "{}",
        text(&out.stderr)
    );

    let out = ptc(&bin, &shop, &["validate"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("strategies.toml: ok (9 strategy instances, 1 agent,"),
        "{}",
        text(&out.stdout)
    );

    let out = ptc(&bin, &shop, &["doctor"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    for lib in SHIPPED {
        assert!(report.contains(lib), "{report}");
    }

    let out = ptc(&bin, &shop, &["docs"]);
    assert!(text(&out.stdout).contains("language") && text(&out.stdout).contains("session-format"));
    let out = ptc(&bin, &shop, &["docs", "language"]);
    assert_eq!(text(&out.stdout).trim_end(), ptc_lisp::LANGUAGE_CARD.trim_end());

    let out = ptc(&bin, &shop, &["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let script = text(&out.stdout);
    for word in ["init", "validate", "doctor", "docs", "completions", "--config"] {
        assert!(script.contains(word), "{word} missing from the bash completions");
    }
}

#[test]
fn validate_reports_every_problem_and_fails() {
    let (bin, work) = installed("validate");
    std::fs::write(
        work.join("strategies.toml"),
        "[strategy.mine]\nplugin = \"no-such-plugin\"\n\n[agent.a]\nstrategy = \"mine\"\ndata = { orders = \"orders.json\" }\nllm = { backend = \"replay\", file = \"replay.json\" }\n",
    )
    .unwrap();
    let out = ptc(&bin, &work, &["validate"]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    let problems = report.lines().filter(|l| l.starts_with("problem: ")).count();
    // The instance, the agent's strategy, its mission, its replay file and its data file.
    assert_eq!(problems, 5, "{report}");
    assert!(report.contains("strategies.toml: 5 problems"), "{report}");
}
