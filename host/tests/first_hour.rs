//! A user's first hour, with the real binary installed as `scripts/install`
//! lays it out (ptc and the shipped plugins in one folder) and run from a
//! folder outside the repository: errors without a project, `ptc init`,
//! `ptc run`, `ptc validate`, `ptc doctor`, `ptc docs`, `ptc completions`.
//! docs/first-hour.md, the transcript of that hour, is checked here
//! command by command (re-bless it with `PTC_BLESS=1`).

use ptc_integration_tests::{check_golden, fenced_blocks, library, link_or_copy, root, scratch_dir};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The shipped plugins (the crates under plugins/), by `[lib] name`.
const SHIPPED: &[&str] = &[
    "ptc_strategy_single_user_coalesced",
    "ptc_strategy_rolling_window",
    "ptc_strategy_per_turn_summary",
    "ptc_strategy_aggressive",
];

/// `ptc` and the shipped plugins copied into `<scratch>/root/bin` (as
/// `scripts/install --root <scratch>/root` lays them out), and an empty
/// `<scratch>/work` to run them from.
fn installed(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let bin = dir.join("root/bin");
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
    // Without an agent name: the project's only agent.
    let out = ptc(&bin, &shop, &["run", "--session", "only.session.jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{:shipped-orders 4 :revenue 2135 :largest 101}\n");

    let out = ptc(&bin, &shop, &["run", "explore-orders"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(text(&out.stdout), "{:shipped-orders 4 :revenue 2135 :largest 101}\n");
    assert!(err.contains("strategy=coalesced"), "the shipped plugin beside ptc rendered turn 2: {err}");
    assert!(err.contains("returned after 3 turns; session written to explore-orders.session.jsonl"), "{err}");
    // What the prompts cost, from the session's own records.
    let session = ptc_session::Session::read(&shop.join("explore-orders.session.jsonl")).unwrap();
    let totals = ptc_session::CostTotals::of(&session.turns).unwrap();
    let share = (100.0 * totals.input_cost / totals.prompt_tokens as f64).round();
    let start = format!(
        "ptc: prompts of 3 turns: {} of {} billed tokens read from cache; cost {:.1} under `openai` prices \
         (input-token equivalents: {share}% of the same prompts uncached, ",
        totals.cache_read_tokens, totals.prompt_tokens, totals.input_cost
    );
    let line = err.lines().find(|l| l.starts_with(&start)).unwrap_or_else(|| panic!("{start}\n{err}"));
    // The full history's share is checked against `ptc compare` in e2e.rs.
    assert!(
        line.contains("% of the full history's ")
            && line.ends_with("); per turn: `ptc trace explore-orders.session.jsonl --usage`"),
        "{line}"
    );
    assert!(totals.cache_read_tokens > 0 && totals.input_cost < totals.prompt_tokens as f64, "{totals:?}");
    assert!(shop.join("explore-orders.session.jsonl").is_file());
    // Another strategy for one run, the config untouched.
    let out = ptc(&bin, &shop, &["run", "explore-orders", "--strategy", "aggressive", "--session", "aggr.jsonl"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(text(&out.stdout), "{:shipped-orders 4 :revenue 2135 :largest 101}\n");
    assert!(err.contains("turn 2/5  strategy=aggressive") && !err.contains("strategy=coalesced"), "{err}");
    // `ptc render` renders a turn with the instance the run recorded for it,
    // and the next turn with the last one's: the run's `--strategy`, not the
    // configured `coalesced`; turn 1 was the full history, before the trigger.
    for (turn, with) in [("4", "aggressive"), ("2", "aggressive"), ("1", "full-history")] {
        let out = ptc(&bin, &shop, &["render", "--session", "aggr.jsonl", "--turn", turn]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(err.contains(&format!("ptc: rendered turn {turn} of 5 with {with}: ")), "{turn}: {err}");
    }
    let out = ptc(&bin, &shop, &["run", "explore-orders", "--strategy", "agressive"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("ptc: error: --strategy agressive: no strategy named `agressive` (defined: "), "{err}");
    assert!(err.ends_with("; did you mean `aggressive`?\n"), "{err}");
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

    // A mistyped plugin in an instance the agent does not use: the run goes
    // on, and says what the next agent to use it will meet.
    let config = shop.join("strategies.toml");
    let mut edited = std::fs::read_to_string(&config).unwrap();
    edited.push_str("\n[strategy.spare]\nplugin = \"rolling-windw\"\n");
    std::fs::write(&config, edited).unwrap();
    let out = ptc(&bin, &shop, &["run", "explore-orders"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let warning = err.lines().find(|l| l.contains("`spare`")).unwrap_or_default();
    assert!(warning.starts_with("ptc: strategies.toml:"), "{err}");
    assert!(
        warning.contains(
            "strategy `spare`: no loaded plugin is named `rolling-windw`; did you mean `rolling-window`? (loaded: "
        ),
        "{err}"
    );
    assert!(warning.ends_with("(`explore-orders` does not use it; `ptc validate` lists every problem)"), "{err}");
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

/// The blocks of docs/first-hour.md that the test does not run (the doc
/// shows them as they were run once): their first command starts with one
/// of these. The clone is of the checkout the doc was made from; a release
/// install takes minutes, and `installed` lays out the same files from
/// this build.
const NOT_RUN: &[&str] = &["git clone", "scripts/install"];

/// One `$ ` command of a transcript and what it printed (stdout and stderr
/// as a terminal interleaves them, then `[exit N]` when N is not 0).
#[derive(Debug)]
struct Step {
    command: String,
    printed: String,
}

/// The steps of a `console` block: each `$ ` line starts one.
fn steps(block: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for line in block.lines() {
        match (line.strip_prefix("$ "), steps.last_mut()) {
            (Some(command), _) => steps.push(Step { command: command.to_string(), printed: String::new() }),
            (None, Some(step)) => {
                step.printed.push_str(line);
                step.printed.push('\n');
            }
            (None, None) => panic!("a console block starts with output, not a `$ ` command:\n{block}"),
        }
    }
    steps
}

/// `line` with the seconds of a `model=0.0s` timing blanked out: the one
/// part of a transcript that may differ from run to run.
fn without_timing(line: &str) -> String {
    let Some(at) = line.find("model=") else { return line.to_string() };
    let start = at + "model=".len();
    let len = line[start..].find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(line.len() - start);
    format!("{}?{}", &line[..start], &line[start + len..])
}

/// `actual`, with each line that differs from the doc's line only in a
/// timing taken from the doc, so that a timing alone never fails the test.
fn keeping_timings(doc: &str, actual: &str) -> String {
    let mut doc_lines = doc.lines();
    let mut out = String::new();
    for line in actual.lines() {
        match doc_lines.next() {
            Some(shown) if shown != line && without_timing(shown) == without_timing(line) => out.push_str(shown),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Runs `command` as a user's shell would, from `dir`, with the installed
/// `bin` first on `PATH`; returns what it printed as the transcript shows it.
fn run_in_shell(bin: &Path, dir: &Path, command: &str) -> String {
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .env_remove(ptc_host::config::PLUGIN_PATH_ENV)
        .env_remove("MY_LLM_KEY")
        .output()
        .expect("bash runs");
    let mut printed = text(&out.stdout);
    if !printed.is_empty() && !printed.ends_with('\n') {
        printed.push('\n');
    }
    match out.status.code() {
        Some(0) => {}
        Some(code) => printed.push_str(&format!("[exit {code}]\n")),
        None => printed.push_str("[killed by a signal]\n"),
    }
    printed
}

#[test]
fn the_first_hour_transcript_is_what_the_installed_ptc_prints() {
    let path = root().join("docs/first-hour.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (ptc, work) = installed("transcript");
    let bin = ptc.parent().unwrap();
    let scratch = work.parent().unwrap().to_path_buf();
    let scratch_names = [scratch.canonicalize().unwrap().display().to_string(), scratch.display().to_string()];
    let mut dir = work.clone();
    let mut lines: Vec<String> = doc.lines().map(str::to_string).collect();
    let mut ran = 0;
    let blocks: Vec<_> = fenced_blocks(&doc).into_iter().filter(|b| b.lang == "console").collect();
    let not_run =
        |b: &ptc_integration_tests::Fenced| NOT_RUN.iter().any(|start| b.text.starts_with(&format!("$ {start}")));
    let mut transcripts = Vec::new();
    for block in blocks.iter().filter(|b| !not_run(b)) {
        let mut shown = String::new();
        for step in steps(&block.text) {
            let printed = match step.command.strip_prefix("cd ") {
                Some(folder) => {
                    dir = dir.join(folder);
                    assert!(dir.is_dir(), "docs/first-hour.md:{}: `cd {folder}`: no such folder", block.line);
                    String::new()
                }
                None => {
                    ran += 1;
                    let mut printed = run_in_shell(bin, &dir, &step.command);
                    for name in &scratch_names {
                        printed = printed.replace(name.as_str(), "$SCRATCH");
                    }
                    keeping_timings(&step.printed, &printed)
                }
            };
            shown.push_str(&format!("$ {}\n{printed}", step.command));
        }
        transcripts.push((block.line, block.text.lines().count(), shown));
    }
    // Replaced from the last block up, so that earlier blocks keep their lines.
    for (line, old_len, shown) in transcripts.into_iter().rev() {
        // `line` is the opening fence (1-based), so the block's lines start at index `line`.
        lines.splice(line..line + old_len, shown.lines().map(str::to_string));
    }
    assert!(ran >= 15, "only {ran} commands of docs/first-hour.md ran");
    let mut regenerated = lines.join("\n");
    regenerated.push('\n');
    if let Err(diff) = check_golden(&path, &regenerated) {
        panic!("docs/first-hour.md is not what ptc prints today: {diff}");
    }
    // The agent guide quotes the run's cost line from this transcript.
    let guide = std::fs::read_to_string(root().join("docs/agents.md")).unwrap();
    let quoted = guide.lines().find(|l| l.starts_with("ptc: prompts of ")).expect("docs/agents.md quotes a cost line");
    assert!(
        regenerated.lines().any(|l| l == quoted),
        "docs/agents.md quotes a cost line ptc no longer prints: {quoted}"
    );
}
