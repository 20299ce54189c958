//! The ptc config a bench runs: `suite.toml` plus one `[agent."TASK@STRATEGY"]`
//! table per task and strategy, parsed by ptc as if it were `suite.toml`
//! (so paths in task files are relative to the suite folder).

use crate::task::Suite;

/// The agent name of `task` run with `strategy`.
pub fn agent_name(task: &str, strategy: &str) -> String {
    format!("{task}@{strategy}")
}

impl Suite {
    /// The config text with an agent per task and strategy; `llm` (an
    /// `llm = {...}` table) replaces every agent's backend when given, else
    /// a task without one gets the `[bench] llm` table.
    pub fn config_text(&self, strategies: &[String], llm: Option<&toml::Table>) -> String {
        let mut config = self.config.clone();
        let agents = config.entry("agent").or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let agents = match agents {
            toml::Value::Table(t) => t,
            other => {
                *other = toml::Value::Table(toml::Table::new());
                other.as_table_mut().expect("just replaced by a table")
            }
        };
        for task in &self.tasks {
            for strategy in strategies {
                let mut agent = task.agent.clone();
                agent.insert("strategy".into(), toml::Value::String(strategy.clone()));
                if let Some(table) = llm.or(self.settings.llm.as_ref().filter(|_| !agent.contains_key("llm"))) {
                    agent.insert("llm".into(), toml::Value::Table(table.clone()));
                }
                agents.insert(agent_name(&task.name, strategy), toml::Value::Table(agent));
            }
        }
        toml::to_string(&config).expect("a TOML table always serializes")
    }
}

/// Parses the `--llm` option: an inline table such as
/// `{ backend = "openai", base_url = "http://127.0.0.1:8080/v1", model = "m" }`.
pub fn parse_llm(text: &str) -> Result<toml::Table, String> {
    let doc: toml::Table = toml::from_str(&format!("llm = {text}"))
        .map_err(|e| format!("--llm {text:?} is not a TOML inline table ({}); write it as {{ backend = \"openai\", base_url = \"...\", model = \"...\" }}", e.message().trim()))?;
    match doc.get("llm") {
        Some(toml::Value::Table(t)) => Ok(t.clone()),
        _ => Err(format!("--llm {text:?} is not a TOML inline table; write it as {{ backend = \"openai\", base_url = \"...\", model = \"...\" }}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_becomes_one_agent_per_strategy_with_the_backend_asked_for() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/suites/core");
        let mut suite = Suite::load(&dir).unwrap();
        suite.select(&["lookup-stock".into()]).unwrap();
        let llm = parse_llm("{ backend = \"openai\", base_url = \"http://h/v1\", model = \"m\" }").unwrap();
        let text = suite.config_text(&["full-history".into(), "coalesced".into()], Some(&llm));
        let config: toml::Table = toml::from_str(&text).unwrap();
        let agents = config["agent"].as_table().unwrap();
        assert_eq!(agents.keys().collect::<Vec<_>>(), ["lookup-stock@full-history", "lookup-stock@coalesced"]);
        let agent = agents["lookup-stock@coalesced"].as_table().unwrap();
        assert_eq!(agent["strategy"].as_str(), Some("coalesced"));
        assert_eq!(agent["llm"]["base_url"].as_str(), Some("http://h/v1"));
        assert!(config.get("bench").is_none(), "[bench] is not ptc config");
        let e = parse_llm("openai").unwrap_err();
        assert!(e.starts_with("--llm \"openai\" is not a TOML inline table"), "{e}");
    }
}
