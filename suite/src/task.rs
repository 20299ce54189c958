//! Task suites: a folder with `suite.toml` (a ptc config: plugins, strategy
//! instances, tools, MCP servers, price tables, plus an optional `[bench]`
//! table) and `tasks/*.toml`, one task each: an `[agent]` table in the
//! `[agent.NAME]` vocabulary of `strategies.toml`, the expected answer and
//! how to check it, a tier, tags, and the script the scripted model follows.

use crate::check::Check;
use crate::SuiteError;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The shared config file of a suite folder.
pub const SUITE_FILE: &str = "suite.toml";

/// The error on a folder without [`SUITE_FILE`].
const NOT_A_SUITE: &str =
    "not a suite folder (no suite.toml); a suite holds suite.toml and tasks/*.toml, as bench/suites/core does (docs/bench.md)";
/// The folder of a suite's task files.
pub const TASKS_DIR: &str = "tasks";
/// The strategy name of the built-in full history (as `ptc compare` names it).
pub const FULL_HISTORY: &str = "full-history";

/// What a task exercises; the report breaks pass rates down by tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// One turn: read the data or call one tool, return.
    Lookup,
    /// Many turns (8-30) that need facts learned early.
    Explore,
    /// A turn fails (a tool error, a wrong key) and the run recovers.
    Recovery,
    /// Many tool calls: command tools and MCP tools.
    ToolHeavy,
    /// Long runs where compression engages.
    Long,
}

impl Tier {
    /// Every tier, in report order.
    pub const ALL: [Tier; 5] = [Tier::Lookup, Tier::Explore, Tier::Recovery, Tier::ToolHeavy, Tier::Long];

    /// The name used in task files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Lookup => "lookup",
            Tier::Explore => "explore",
            Tier::Recovery => "recovery",
            Tier::ToolHeavy => "tool-heavy",
            Tier::Long => "long",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One step of a task's script: what the scripted model answers when the
/// run has reached it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Fact literals the right program needs; each must be visible in the prompt.
    #[serde(default)]
    pub needs: Vec<String>,
    /// The program answered when every needed fact is visible.
    pub program: String,
    /// The plausible wrong program answered otherwise (default: a `return` of `:unknown`).
    #[serde(default)]
    pub wrong: Option<String>,
    /// Text whose presence in a prompt shows the step was done (default `[step K]`).
    #[serde(default)]
    pub done: Option<String>,
}

/// The program a step answers when a needed fact is not in view and the
/// task names no `wrong` program.
pub const DEFAULT_WRONG: &str = "(return :unknown)";

impl Step {
    /// The marker of step `number` (1-based).
    pub fn done_marker(&self, number: usize) -> String {
        self.done.clone().unwrap_or_else(|| format!("[step {number}]"))
    }

    /// The wrong program.
    pub fn wrong_program(&self) -> &str {
        self.wrong.as_deref().unwrap_or(DEFAULT_WRONG)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTask {
    tier: Tier,
    #[serde(default)]
    tags: Vec<String>,
    expect: Check,
    agent: toml::Table,
    #[serde(default)]
    script: Vec<Step>,
}

/// One task of a suite.
#[derive(Debug, Clone)]
pub struct Task {
    /// The file stem: the task's name in results and reports.
    pub name: String,
    /// The task file.
    pub file: PathBuf,
    /// What it exercises.
    pub tier: Tier,
    /// Free labels.
    pub tags: Vec<String>,
    /// The expected answer and how it is checked.
    pub expect: Check,
    /// The agent table (mission, data, tools, signature, max_turns, ...),
    /// without `strategy`, which the bench sets per run.
    pub agent: toml::Table,
    /// The scripted model's script (may be empty: a task for real models only).
    pub script: Vec<Step>,
}

impl Task {
    /// The agent's mission.
    pub fn mission(&self) -> &str {
        self.agent.get("mission").and_then(toml::Value::as_str).unwrap_or("")
    }

    /// The agent's `max_turns` (ptc's default 5 when unset).
    pub fn max_turns(&self) -> u32 {
        self.agent.get("max_turns").and_then(toml::Value::as_integer).map_or(5, |n| n.max(1) as u32)
    }

    /// Turns a run is expected to take: the script's length, else `max_turns`.
    pub fn expected_turns(&self) -> u32 {
        if self.script.is_empty() {
            self.max_turns()
        } else {
            (self.script.len() as u32).min(self.max_turns())
        }
    }
}

/// A suite folder, loaded.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The folder.
    pub dir: PathBuf,
    /// `suite.toml` without its `[bench]` table: a ptc config.
    pub config: toml::Table,
    /// The `[bench]` table's settings.
    pub settings: Settings,
    /// The tasks, sorted by name.
    pub tasks: Vec<Task>,
}

/// The `[bench]` table of `suite.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Strategies run when `--strategies` is not given (default: full-history and every instance).
    #[serde(default)]
    pub strategies: Option<Vec<String>>,
    /// The model backend of every task that sets none (an `llm = {...}` table).
    #[serde(default)]
    pub llm: Option<toml::Table>,
    /// Another ptc config (relative to the suite folder) whose `[strategy.NAME]`
    /// and `[pricing.NAME]` tables the suite takes, unless it defines the name itself.
    #[serde(default)]
    pub strategies_from: Option<PathBuf>,
}

impl Suite {
    /// Reads `dir/suite.toml` and every `dir/tasks/*.toml`.
    pub fn load(dir: &Path) -> Result<Suite, SuiteError> {
        let suite_file = dir.join(SUITE_FILE);
        if !suite_file.is_file() {
            // `Io`, as a missing file is: a new variant would break callers' matches.
            return Err(SuiteError::Io { path: dir.to_path_buf(), message: NOT_A_SUITE.to_string() });
        }
        let mut config = read_toml(&suite_file)?;
        let settings = match config.remove("bench") {
            Some(value) => value
                .try_into()
                .map_err(|e: toml::de::Error| SuiteError::Toml { path: suite_file.clone(), message: one_line(&e) })?,
            None => Settings::default(),
        };
        if let Some(other) = &settings.strategies_from {
            let other = read_toml(&dir.join(other))?;
            for section in ["strategy", "pricing"] {
                let Some(toml::Value::Table(theirs)) = other.get(section) else { continue };
                let ours = config.entry(section).or_insert_with(|| toml::Value::Table(toml::Table::new()));
                if let toml::Value::Table(ours) = ours {
                    for (name, table) in theirs {
                        ours.entry(name.clone()).or_insert_with(|| table.clone());
                    }
                }
            }
        }
        let tasks_dir = dir.join(TASKS_DIR);
        let entries = std::fs::read_dir(&tasks_dir)
            .map_err(|e| SuiteError::Io { path: tasks_dir.clone(), message: e.to_string() })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(SuiteError::NoTasks { dir: tasks_dir });
        }
        let tasks = files.iter().map(|f| Task::load(f)).collect::<Result<Vec<_>, _>>()?;
        Ok(Suite { dir: dir.to_path_buf(), config, settings, tasks })
    }

    /// The strategy instances `suite.toml` defines, in file order.
    pub fn instances(&self) -> Vec<String> {
        self.config
            .get("strategy")
            .and_then(toml::Value::as_table)
            .map_or_else(Vec::new, |t| t.keys().cloned().collect())
    }

    /// The strategies a bench runs when none are asked for: the `[bench]`
    /// list, else full history and every instance.
    pub fn default_strategies(&self) -> Vec<String> {
        self.settings
            .strategies
            .clone()
            .unwrap_or_else(|| std::iter::once(FULL_HISTORY.to_string()).chain(self.instances()).collect())
    }

    /// Keeps the tasks whose names start with one of `prefixes` (`lookup-`,
    /// `explore-vault-8`); `Err` naming the tasks when none does.
    pub fn select(&mut self, prefixes: &[String]) -> Result<(), SuiteError> {
        let kept: Vec<Task> =
            self.tasks.iter().filter(|t| prefixes.iter().any(|p| t.name.starts_with(p.as_str()))).cloned().collect();
        if kept.is_empty() {
            let names: Vec<&str> = self.tasks.iter().map(|t| t.name.as_str()).collect();
            return Err(SuiteError::Task {
                path: self.dir.join(TASKS_DIR),
                message: format!("no task name starts with {} (tasks: {})", prefixes.join(" or "), names.join(", ")),
            });
        }
        self.tasks = kept;
        Ok(())
    }

    /// The task called `name`.
    pub fn task(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.name == name)
    }
}

impl Task {
    /// Reads one task file.
    pub fn load(path: &Path) -> Result<Task, SuiteError> {
        let text = ptc_os::read_text(path, ptc_os::MAX_SOURCE_FILE_BYTES)
            .map_err(|e| SuiteError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        let raw: RawTask =
            toml::from_str(&text).map_err(|e| SuiteError::Toml { path: path.to_path_buf(), message: one_line(&e) })?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let invalid = |message: String| SuiteError::Task { path: path.to_path_buf(), message };
        for key in ["strategy"] {
            if raw.agent.contains_key(key) {
                return Err(invalid(format!(
                    "[agent] must not set `{key}`: the bench runs every task with each strategy"
                )));
            }
        }
        if raw.agent.get("mission").and_then(toml::Value::as_str).is_none_or(str::is_empty) {
            return Err(invalid("[agent] needs a `mission`".into()));
        }
        raw.expect.validate().map_err(invalid)?;
        Ok(Task {
            name,
            file: path.to_path_buf(),
            tier: raw.tier,
            tags: raw.tags,
            expect: raw.expect,
            agent: raw.agent,
            script: raw.script,
        })
    }
}

fn read_toml(path: &Path) -> Result<toml::Table, SuiteError> {
    let text = ptc_os::read_text(path, ptc_os::MAX_SOURCE_FILE_BYTES)
        .map_err(|e| SuiteError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    toml::from_str(&text).map_err(|e| SuiteError::Toml { path: path.to_path_buf(), message: one_line(&e) })
}

/// A TOML error on one line (toml's messages span several).
fn one_line(e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => format!("{message} (at byte {})", span.start),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core() -> Suite {
        Suite::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/suites/core")).unwrap()
    }

    #[test]
    fn the_core_suite_has_thirty_scripted_tasks_in_every_tier() {
        let suite = core();
        assert!(suite.tasks.len() >= 30, "{} tasks", suite.tasks.len());
        for tier in Tier::ALL {
            assert!(suite.tasks.iter().any(|t| t.tier == tier), "no {tier} task");
        }
        assert!(suite.tasks.iter().all(|t| !t.script.is_empty() && t.expected_turns() <= t.max_turns()));
        let explore = suite.tasks.iter().filter(|t| t.tier == Tier::Explore).map(Task::expected_turns);
        assert!(explore.clone().min() >= Some(8) && explore.max() <= Some(30));
        // The strategy instances come from the root strategies.toml.
        assert!(suite.instances().contains(&"coalesced".to_string()));
        assert_eq!(suite.default_strategies()[0], FULL_HISTORY);
    }

    #[test]
    fn a_folder_without_suite_toml_is_not_a_suite() {
        let dir = std::env::temp_dir().join(format!("ptc-suite-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = Suite::load(&dir).unwrap_err();
        assert!(matches!(&e, SuiteError::Io { path, .. } if *path == dir), "{e}");
        assert_eq!(e.to_string(), format!("{}: {NOT_A_SUITE}", dir.display()));
    }

    #[test]
    fn a_task_names_what_is_wrong_with_it() {
        let dir = std::env::temp_dir().join(format!("ptc-suite-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = |name: &str, text: &str| {
            let path = dir.join(format!("{name}.toml"));
            std::fs::write(&path, text).unwrap();
            Task::load(&path).unwrap_err().to_string()
        };
        let e = bad(
            "strategy",
            "tier = \"lookup\"\nexpect = { exact = '1' }\n[agent]\nmission = \"m\"\nstrategy = \"x\"\n",
        );
        assert!(e.ends_with("strategy.toml: [agent] must not set `strategy`: the bench runs every task with each strategy (task format: docs/bench.md)"), "{e}");
        let e = bad("tier", "tier = \"easy\"\nexpect = { exact = '1' }\n[agent]\nmission = \"m\"\n");
        assert!(e.contains("tier.toml: unknown variant `easy`") && e.ends_with("fix the TOML"), "{e}");
        let e = bad("expect", "tier = \"lookup\"\nexpect = {}\n[agent]\nmission = \"m\"\n");
        assert!(e.contains("`expect` needs one of"), "{e}");
        let mut suite = core();
        assert!(suite
            .select(&["nothing-".into()])
            .unwrap_err()
            .to_string()
            .contains("no task name starts with nothing-"));
        suite.select(&["lookup-".into()]).unwrap();
        assert_eq!(suite.tasks.len(), 9);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
