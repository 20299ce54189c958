//! The configuration the docs show is configuration ptc reads. Every TOML
//! block of the files in [`CONFIG_DOCS`] and [`BENCH_DOC`] is read the way
//! `ptc` reads it, so a renamed or removed key or a wrong type in the docs
//! fails here (a stale version: `tests/versions.rs`):
//!
//! - a `strategies.toml` block (README.md, docs/agents.md) replaces the
//!   tables it defines in the root `strategies.toml`, whose other tables
//!   give it context (the tools and instances it names), and the result
//!   parses as `ptc run` parses it; every strategy instance the block
//!   defines builds from its plugin with the block's parameters (the one
//!   exception is a plugin the docs name as a stand-in for a vendor's,
//!   [`STAND_IN_PLUGINS`], which must then be reported as not found);
//! - docs/bench.md's `[bench]` table is read as a suite's settings, and its
//!   task file as a task of the core suite, whose config must then parse
//!   with it;
//! - every option of a `ptc` command in a code block of the user docs is
//!   one the subcommand's `--help` lists;
//! - the session-format spec's example is a session the reader reads, and
//!   the bench guide's result line is one `ptc bench` writes, field for
//!   field.
//!
//! The Rust of `conformance/README.md` is compiled by `tutorial.rs`.

use ptc_host::config::{Config, ConfigFile};
use ptc_host::resolve::LookupError;
use ptc_integration_tests::{fenced_blocks, plugin_dir, root, scratch_dir, Fenced};
use ptc_registry::InstanceError;

/// The docs whose TOML blocks are `strategies.toml` as a user writes it.
const CONFIG_DOCS: &[&str] = &["README.md", "docs/agents.md"];

/// The bench's guide: a suite's `[bench]` table and a task file.
const BENCH_DOC: &str = "docs/bench.md";

/// Plugins the docs name for a strategy a vendor ships: not in this
/// repository, so a block using one must fail only for not finding it.
const STAND_IN_PLUGINS: &[&str] = &["vendor-strategy"];

/// The blocks of language `lang` in a file of this repository.
fn blocks_of(file: &str, lang: &str) -> Vec<Fenced> {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    fenced_blocks(&text).into_iter().filter(|b| b.lang == lang).collect()
}

/// The table name of a `[table]` header line (not an `[[array]]` one).
fn header(line: &str) -> Option<&str> {
    let line = line.trim();
    if line.starts_with("[[") {
        return None;
    }
    Some(line.strip_prefix('[')?.split(']').next()?.trim())
}

/// `base` without the tables `block` defines (each with its sub-tables:
/// `[agent.demo]` takes `[agent.demo.llm]` along), then `block`.
fn with_context(base: &str, block: &str) -> String {
    let defined: Vec<&str> = block.lines().filter_map(header).collect();
    let replaced = |table: &str| defined.iter().any(|d| table == *d || table.starts_with(&format!("{d}.")));
    let mut out = String::new();
    let mut keep = true;
    for line in base.lines() {
        if let Some(table) = header(line) {
            keep = !replaced(table);
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out + block
}

/// `[strategy.NAME]` tables of a block: (instance name, plugin).
fn instances(table: &toml::Table) -> Vec<(String, String)> {
    let Some(toml::Value::Table(strategies)) = table.get("strategy") else { return Vec::new() };
    strategies
        .iter()
        .map(|(name, t)| (name.clone(), t.get("plugin").and_then(toml::Value::as_str).unwrap_or_default().to_string()))
        .collect()
}

#[test]
fn every_strategies_toml_block_of_the_docs_parses_and_builds() {
    let config_path = root().join("strategies.toml");
    let base = std::fs::read_to_string(&config_path).unwrap();
    let mut checked = 0;
    for file in CONFIG_DOCS {
        for block in blocks_of(file, "toml") {
            let at = format!("{file}:{}", block.line);
            let table: toml::Table = toml::from_str(&block.text).unwrap_or_else(|e| panic!("{at}: not TOML: {e}"));
            let text = with_context(&base, &block.text);
            let mut config = Config::parse(&config_path, &text).unwrap_or_else(|e| {
                panic!(
                    "{at}: ptc does not read this block (with the root strategies.toml around it): {e}\n{}",
                    block.text
                )
            });
            config.plugin_paths = vec![plugin_dir().to_path_buf()];
            config.executable_dir = false;
            let resolved = config.resolve();
            for (name, plugin) in instances(&table) {
                match resolved.strategy(&name) {
                    Ok(_) => assert!(!STAND_IN_PLUGINS.contains(&plugin.as_str()), "{at}: `{plugin}` loaded"),
                    Err(LookupError::Instance { error, .. })
                        if STAND_IN_PLUGINS.contains(&plugin.as_str())
                            && matches!(*error, InstanceError::UnknownPlugin { .. }) => {}
                    Err(e) => panic!("{at}: strategy `{name}` does not build: {e}"),
                }
            }
            checked += 1;
        }
    }
    // README's example config and the five of docs/agents.md, at least.
    assert!(checked >= 6, "only {checked} blocks were found in {CONFIG_DOCS:?}");
}

#[test]
fn the_bench_guide_shows_a_suite_table_and_a_task_the_bench_reads() {
    let blocks = blocks_of(BENCH_DOC, "toml");
    let core = root().join("bench/suites/core");
    let [settings, task] = &blocks[..] else { panic!("{BENCH_DOC}: expected a [bench] block and a task block") };

    // The [bench] table, as the core suite's own would be read.
    let table: toml::Table = toml::from_str(&settings.text).unwrap();
    let bench = table.get("bench").cloned().unwrap_or_else(|| panic!("{BENCH_DOC}:{}: no [bench]", settings.line));
    let settings_at = format!("{BENCH_DOC}:{}", settings.line);
    let parsed: ptc_suite::task::Settings =
        bench.try_into().unwrap_or_else(|e| panic!("{settings_at}: not a suite's [bench] table: {e}"));
    let from = core.join(parsed.strategies_from.as_deref().expect("the guide shows strategies_from"));
    let instances = Config::load(&from).unwrap_or_else(|e| panic!("{settings_at}: strategies_from: {e}")).strategies;
    for name in parsed.strategies.as_deref().expect("the guide shows strategies") {
        assert!(
            name == ptc_suite::FULL_HISTORY || instances.contains_key(name),
            "{settings_at}: `{name}` is no instance of {}",
            from.display()
        );
    }

    // The task file, under the name its first line gives, in the core suite.
    let task_at = format!("{BENCH_DOC}:{}", task.line);
    let name = task
        .text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# tasks/"))
        .unwrap_or_else(|| panic!("{task_at}: a task block starts with `# tasks/NAME.toml`"));
    let file = scratch_dir("bench-guide").join(name);
    std::fs::write(&file, &task.text).unwrap();
    let task = ptc_suite::Task::load(&file).unwrap_or_else(|e| panic!("{task_at}: {e}"));
    let mut suite = ptc_suite::Suite::load(&core).unwrap();
    suite.tasks.push(task);
    let text = suite.config_text(&["coalesced".to_string()], None);
    Config::parse(&core.join(ptc_suite::task::SUITE_FILE), &text)
        .unwrap_or_else(|e| panic!("{task_at}: the core suite does not run this task: {e}"));
}

#[test]
fn a_block_replaces_the_tables_it_defines_and_keeps_the_rest() {
    let base = "[plugins]\npaths = []\n[agent.a]\nmission = \"x\"\n[agent.a.llm]\nbackend = \"replay\"\n[agent.b]\nmission = \"y\"\n";
    let block = "[agent.a]\nmission = \"z\"\n";
    assert_eq!(
        with_context(base, block),
        "[plugins]\npaths = []\n[agent.b]\nmission = \"y\"\n[agent.a]\nmission = \"z\"\n"
    );
    assert_eq!(header("[[script]]"), None);
    assert_eq!(header("  [agent.x.llm]  # note"), Some("agent.x.llm"));
}

/// The Markdown files a user reads (the specs and guides, READMEs of the
/// crates and examples), searched for `ptc` command lines.
fn user_docs() -> Vec<String> {
    let mut files = vec![
        "README.md".to_string(),
        "ARCHITECTURE.md".to_string(),
        "conformance/README.md".to_string(),
        "examples/custom-strategy/README.md".to_string(),
    ];
    for dir in ["docs", "docs/spec"] {
        let mut md: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".md"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        md.sort();
        files.extend(md);
    }
    files
}

/// The `ptc` commands of a code block, continuation lines (`\`) joined:
/// each as its words after `ptc` (a prompt `$ ` and a path to the binary
/// are allowed before it).
fn ptc_commands(block: &str) -> Vec<Vec<String>> {
    let joined = block.replace("\\\n", " ");
    joined
        .lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches("$ ");
            let rest = line.strip_prefix("ptc ").or_else(|| line.strip_prefix("target/debug/ptc "))?;
            // The command ends at a pipe, a redirection or a comment.
            let end = rest.find(['|', '>', '#']).unwrap_or(rest.len());
            Some(rest[..end].split_whitespace().map(str::to_string).collect())
        })
        .collect()
}

/// The long options `text` names (`--format`, from `[--format text|json]` too).
fn long_options(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | ',' | '(' | ')' | '='))
        .filter(|w| w.starts_with("--") && w.len() > 2 && w[2..].starts_with(|c: char| c.is_ascii_lowercase()))
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()).to_string())
        .collect()
}

#[test]
fn every_ptc_command_the_docs_show_uses_options_ptc_has() {
    let ptc = env!("CARGO_BIN_EXE_ptc");
    // Each subcommand's options, from its `--help`, asked once.
    let mut options_of = std::collections::BTreeMap::<String, Vec<String>>::new();
    let mut checked = 0;
    for file in user_docs() {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        for block in fenced_blocks(&text) {
            for words in ptc_commands(&block.text) {
                // `ptc bench report`: a subcommand of a subcommand.
                let Some(first) = words.first() else { continue };
                let mut sub = vec![first.clone()];
                if first == "bench" && words.get(1).is_some_and(|w| w == "report") {
                    sub.push("report".into());
                }
                let key = sub.join(" ");
                let known = options_of.entry(key.clone()).or_insert_with(|| {
                    let out = std::process::Command::new(ptc).args(&sub).arg("--help").output().unwrap();
                    let mut known = long_options(&String::from_utf8_lossy(&out.stdout));
                    known.sort();
                    known.dedup();
                    known
                });
                if known.is_empty() {
                    // Not a subcommand (`ptc 0.1.0 (plugin interface ...)` is output).
                    continue;
                }
                for option in long_options(&words.join(" ")) {
                    assert!(
                        known.contains(&option),
                        "{file}:{}: `ptc {key}` has no option {option} (it has {known:?})",
                        block.line
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 40, "only {checked} options were found in the docs' ptc commands");
}

#[test]
fn fences_are_read_as_commonmark_reads_them() {
    let md =
        "```` ```lisp ```` inline, no block\n\n- item\n  ```toml\n  a = 1\n    b = 2\n  ```\n````text\n```\n````\n";
    let blocks = fenced_blocks(md);
    let found: Vec<(&str, usize, &str)> = blocks.iter().map(|b| (b.lang.as_str(), b.line, b.text.as_str())).collect();
    assert_eq!(found, [("toml", 4, "a = 1\n  b = 2\n"), ("text", 8, "```\n")]);
}

/// The keys of a JSON object, sorted (`{}` for anything else).
fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
    keys.sort();
    keys
}

#[test]
fn the_session_format_spec_shows_a_session_the_reader_reads() {
    const SPEC: &str = "docs/spec/session-format.md";
    let [example] = &blocks_of(SPEC, "json")[..] else { panic!("{SPEC}: expected one JSON example") };
    let at = format!("{SPEC}:{}", example.line);
    let session = ptc_session::Session::parse(&example.text).unwrap_or_else(|e| panic!("{at}: {e}"));
    let [first, second] = &session.turns[..] else { panic!("{at}: the example has two turns") };
    assert!(first.success && first.error.is_none(), "{at}: turn 1 succeeds");
    let error = second.error.as_ref().unwrap_or_else(|| panic!("{at}: turn 2 fails"));
    assert_eq!(error.kind.as_str(), "unbound_symbol", "{at}");
    // Every field the example writes is one the format has: read back and
    // written again, a turn keeps the same fields.
    let written: serde_json::Value = serde_json::from_str(&example.text).unwrap();
    let turn = serde_json::to_value(first).unwrap();
    let missing: Vec<String> = keys(&written["turns"][0]).into_iter().filter(|k| turn.get(k).is_none()).collect();
    assert!(missing.is_empty(), "{at}: turn fields the format does not have: {missing:?}");
}

#[test]
fn the_bench_guide_shows_a_result_line_the_bench_writes() {
    let [line] = &blocks_of(BENCH_DOC, "json")[..] else { panic!("{BENCH_DOC}: expected one JSON result line") };
    let at = format!("{BENCH_DOC}:{}", line.line);
    let shown: serde_json::Value = serde_json::from_str(&line.text).unwrap_or_else(|e| panic!("{at}: {e}"));
    let record: ptc_suite::RunRecord =
        serde_json::from_value(shown.clone()).unwrap_or_else(|e| panic!("{at}: not a result line: {e}"));
    // The same fields as a line `ptc bench` writes: none renamed, none missing.
    assert_eq!(keys(&shown), keys(&serde_json::to_value(&record).unwrap()), "{at}");
}

#[test]
fn the_built_in_price_models_the_agent_guide_lists_are_the_price_tables() {
    let text = std::fs::read_to_string(root().join("docs/agents.md")).unwrap();
    for p in ptc_plugin_api::render::PROVIDERS {
        let row = format!("| `{}` |", p.name);
        let line = text.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("no row for {}", p.name));
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let cache = match p.cache {
            ptc_plugin_api::render::CacheMatch::Breakpoints { max, lookback_blocks } => {
                format!(
                    "at most {max} breakpoints an earlier request wrote, looked up to {lookback_blocks} blocks back"
                )
            }
            ptc_plugin_api::render::CacheMatch::Prefix { step } => format!("in steps of {step} tokens"),
        };
        assert!(cells[1].contains(&cache), "docs/agents.md's row of `{}` should say {cache:?}: {line}", p.name);
        let write = p.cache_write.map_or("free".to_string(), |w| w.to_string());
        let min = format!("{},{:03} tokens", p.cache_min_tokens / 1000, p.cache_min_tokens % 1000);
        assert_eq!(
            cells[2..],
            [p.cache_read.to_string(), write, p.output.to_string(), min],
            "docs/agents.md's row of `{}`: {line}",
            p.name
        );
    }
}

#[test]
fn the_counts_the_docs_give_are_the_repositorys() {
    // As the bench reads its suite, and as the corpus tests read theirs.
    let tasks = ptc_suite::Suite::load(&root().join("bench/suites/core")).unwrap().tasks.len();
    let sessions = ptc_integration_tests::corpus_sessions().len();
    let says = [
        ("README.md", format!("`bench/suites/core/`: {tasks} offline tasks")),
        ("docs/bench.md", format!("`bench/suites/core/` holds {tasks} offline tasks")),
        ("README.md", format!("over the corpus ({sessions} sessions,")),
        ("docs/benchmarks.md", format!("One command, the whole corpus ({sessions} sessions:")),
    ];
    for (file, phrase) in says {
        let text = std::fs::read_to_string(root().join(file)).unwrap().replace('\n', " ");
        assert!(text.contains(&phrase), "{file} does not say `{phrase}` (the repository holds it)");
    }
}
