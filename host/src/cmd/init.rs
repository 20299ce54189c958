//! `ptc init [DIR]`: scaffolds a project that runs offline at once: a
//! `strategies.toml` with the shipped strategy instances and one agent, the
//! agent's data file and a replay file (recorded model answers), plus
//! commented blocks for a real model and an MCP server.
//!
//! Existing files are never replaced unless `--force` is given; the files
//! are checked before any is written, so a refusal writes nothing.

use super::{CmdError, CmdResult, Output};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One file `ptc init` writes: its path inside the project and its text.
pub struct Template {
    /// Path relative to the project folder.
    pub path: &'static str,
    /// The file's contents.
    pub text: &'static str,
    /// An existing file is left as it is, even with `--force` (a project's
    /// own `.gitignore`), instead of being a reason to refuse.
    pub keep_existing: bool,
}

/// The agent of the scaffold (the one `ptc run` is told to run).
pub const AGENT: &str = "explore-orders";

/// Every file of the scaffold, in the order they are written.
pub const TEMPLATES: &[Template] = &[
    Template { path: "strategies.toml", text: include_str!("init/strategies.toml"), keep_existing: false },
    Template {
        path: "data/orders.json",
        text: include_str!("../../../examples/agents/data/orders.json"),
        keep_existing: false,
    },
    Template {
        path: "replay/explore-orders.json",
        text: include_str!("../../../examples/agents/replay/explore-orders.json"),
        keep_existing: false,
    },
    Template {
        path: ".gitignore",
        text: "# Session journals written by `ptc run`.\n*.session.jsonl\n",
        keep_existing: true,
    },
];

/// Writes the scaffold into `dir` (created when missing). Without `force`,
/// refuses when any of its files exists, naming them.
pub fn init(dir: &Path, force: bool) -> CmdResult {
    // `ptc init` in the current folder names the files as `strategies.toml`, not `./strategies.toml`.
    let here = dir.as_os_str().is_empty() || dir == Path::new(".");
    let targets: Vec<(PathBuf, &Template)> =
        TEMPLATES.iter().map(|t| (if here { PathBuf::from(t.path) } else { dir.join(t.path) }, t)).collect();
    let existing: Vec<String> =
        targets.iter().filter(|(p, t)| p.exists() && !t.keep_existing).map(|(p, _)| p.display().to_string()).collect();
    if !existing.is_empty() && !force {
        return Err(CmdError::Usage(format!(
            "ptc init: {} already exist{}; nothing was written (`ptc init --force` replaces them, or name another folder: `ptc init DIR`)",
            existing.join(", "),
            if existing.len() == 1 { "s" } else { "" }
        )));
    }
    for (path, template) in &targets {
        if template.keep_existing && path.exists() {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|error| CmdError::Io {
                path: parent.to_path_buf(),
                action: "cannot create folder",
                error,
            })?;
        }
        std::fs::write(path, template.text).map_err(|error| CmdError::Io {
            path: path.clone(),
            action: "cannot write",
            error,
        })?;
    }
    Ok(Output::ok(summary(dir, &targets, &existing)))
}

/// What was written, and the commands to try next (from inside `dir`).
fn summary(dir: &Path, written: &[(PathBuf, &Template)], replaced: &[String]) -> String {
    let mut out = String::new();
    for (path, template) in written {
        let shown = path.display().to_string();
        if template.keep_existing && !written_now(path, template) {
            let _ = writeln!(out, "kept {shown} (yours; ptc run writes *.session.jsonl files you may want to ignore)");
            continue;
        }
        let note = if replaced.contains(&shown) { "  (replaced)" } else { "" };
        let _ = writeln!(out, "wrote {shown}{note}");
    }
    let cd = match dir.as_os_str().is_empty() || dir == Path::new(".") {
        true => String::new(),
        false => format!("cd {} && ", dir.display()),
    };
    // The later commands run where the first one left off.
    let _ = writeln!(out, "\nnext:");
    let _ = writeln!(out, "  {cd}ptc run {AGENT}      # offline: the model's answers are replayed");
    let _ = writeln!(out, "  ptc trace {AGENT}.session.jsonl   # what happened, what was sent");
    let _ = writeln!(out, "  ptc validate                 # check strategies.toml after editing it");
    let _ = writeln!(out, "  ptc docs                     # the language card and the specs");
    out
}

/// Whether `path` holds what `template` writes (it was written, or was already the same).
fn written_now(path: &Path, template: &Template) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| text == template.text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ConfigFile};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ptc-init-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_scaffold_config_parses_and_names_its_files() {
        let dir = scratch("parse");
        init(&dir, false).unwrap();
        let config = Config::load(&dir.join("strategies.toml")).unwrap();
        let agent = &config.agents[AGENT];
        assert!(agent.data["orders"].is_file(), "{:?}", agent.data);
        assert!(matches!(&agent.llm, Some(crate::config::LlmConfig::Replay { file }) if file.is_file()));
        assert_eq!(agent.strategy.as_deref(), Some("coalesced"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn init_refuses_to_overwrite_without_force() {
        let dir = scratch("force");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("strategies.toml"), "# mine\n").unwrap();
        let err = init(&dir, false).unwrap_err().to_string();
        assert!(err.contains("strategies.toml already exists") && err.contains("--force"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("strategies.toml")).unwrap(), "# mine\n");
        assert!(!dir.join("data").exists(), "a refusal writes nothing");
        std::fs::write(dir.join(".gitignore"), "target/\n").unwrap();
        let out = init(&dir, true).unwrap().stdout;
        assert!(out.contains("strategies.toml  (replaced)"), "{out}");
        assert_ne!(std::fs::read_to_string(dir.join("strategies.toml")).unwrap(), "# mine\n");
        assert!(out.contains("kept") && out.contains(".gitignore (yours"), "{out}");
        assert_eq!(std::fs::read_to_string(dir.join(".gitignore")).unwrap(), "target/\n", "--force keeps a .gitignore");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The scaffold's commented blocks (a `# [table]` line to the next bare
    /// `#`), uncommented.
    fn commented_blocks(text: &str) -> Vec<String> {
        let mut blocks: Vec<String> = Vec::new();
        let mut open = false;
        for line in text.lines() {
            if line.starts_with("# [") {
                blocks.push(String::new());
                open = true;
            } else if !line.starts_with("# ") {
                open = false;
            }
            if let Some(block) = blocks.last_mut().filter(|_| open) {
                block.push_str(&line[2..]);
                block.push('\n');
            }
        }
        blocks
    }

    /// Each commented block parses once uncommented, as its comment says
    /// to use it: a model's `llm` table replacing the inline line, a price
    /// model named by the agent.
    #[test]
    fn the_scaffolds_commented_blocks_parse_when_uncommented() {
        let text = TEMPLATES[0].text;
        let blocks = commented_blocks(text);
        assert_eq!(blocks.len(), 4, "two models, a price model and an MCP server: {blocks:#?}");
        let replay = "llm = { backend = \"replay\", file = \"replay/explore-orders.json\" }\n";
        assert!(text.contains(replay));
        for block in blocks {
            let mut config = text.to_string();
            if block.starts_with(&format!("[agent.{AGENT}.llm]")) {
                config = config.replace(replay, "");
            }
            if let Some(name) = block.strip_prefix("[pricing.").and_then(|r| r.split_once(']')).map(|(n, _)| n) {
                config = config.replace(replay, &format!("{replay}pricing = \"{name}\"\n"));
            }
            config.push_str(&block);
            let parsed = Config::parse(Path::new("/p/strategies.toml"), &config);
            let parsed = parsed.unwrap_or_else(|e| panic!("{e}\n{block}"));
            if block.starts_with("[pricing.") {
                assert_eq!(parsed.agents[AGENT].pricing.as_deref(), Some("sonnet"));
                assert!(parsed.price_models().unwrap().get("sonnet").is_ok());
            }
        }
    }

    /// The scaffold's instances are the shipped ones, table for table, so
    /// the two configs cannot drift apart.
    #[test]
    fn the_scaffold_instances_are_the_repository_ones() {
        let parse = |text: &str| text.parse::<toml::Table>().unwrap();
        let ours = parse(TEMPLATES[0].text);
        let repo = parse(include_str!("../../../strategies.toml"));
        let ours = ours["strategy"].as_table().unwrap();
        let repo = repo["strategy"].as_table().unwrap();
        assert!(ours.len() >= 5, "{ours:?}");
        for (name, table) in ours {
            assert_eq!(Some(table), repo.get(name), "instance `{name}` differs from strategies.toml");
        }
        // Every repository instance of a shipped plugin is offered.
        let shipped = ["single-user-coalesced", "rolling-window", "per-turn-summary", "aggressive"];
        for (name, table) in repo {
            if shipped.contains(&table["plugin"].as_str().unwrap()) {
                assert!(ours.contains_key(name), "shipped instance `{name}` missing from the scaffold");
            }
        }
    }
}
