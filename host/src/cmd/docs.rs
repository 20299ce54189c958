//! `ptc docs [TOPIC]`: the language card and the specs, embedded in the
//! binary when it is built, so they describe the `ptc` that prints them and
//! need no checkout. Without a topic: the list of topics.

use super::{CmdError, CmdResult, Output};
use std::fmt::Write;

/// One page `ptc docs` can print.
pub struct Topic {
    /// The name given to `ptc docs`.
    pub name: &'static str,
    /// One line saying what it is.
    pub summary: &'static str,
    /// The page, verbatim.
    pub text: &'static str,
}

/// Every topic, in the order `ptc docs` lists them.
pub const TOPICS: &[Topic] = &[
    Topic {
        name: "language",
        summary: "the PTC-Lisp language card, as the model reads it in its system prompt",
        text: ptc_lisp::LANGUAGE_CARD,
    },
    Topic {
        name: "agents",
        summary: "running agents: strategies.toml agents, model backends, tools, MCP servers, signatures",
        text: include_str!("../../../docs/agents.md"),
    },
    Topic {
        name: "ptc-lisp",
        summary: "spec: PTC-Lisp, what the runtime promises (forms, builtins, limits, errors)",
        text: include_str!("../../../docs/spec/ptc-lisp.md"),
    },
    Topic {
        name: "strategies",
        summary: "spec: what every strategy plugin promises (the conformance suite checks it)",
        text: include_str!("../../../docs/spec/strategies.md"),
    },
    Topic {
        name: "single-user-coalesced",
        summary: "spec: the default strategy's prompt",
        text: include_str!("../../../docs/spec/single-user-coalesced.md"),
    },
    Topic {
        name: "session-format",
        summary: "spec: session files (what `ptc run` writes and `trace`, `render`, `compare` read)",
        text: include_str!("../../../docs/spec/session-format.md"),
    },
    Topic { name: "specs", summary: "the index of the specs", text: include_str!("../../../docs/spec/README.md") },
];

/// `ptc docs`: the topic list; `ptc docs TOPIC`: that page.
pub fn docs(topic: Option<&str>) -> CmdResult {
    let Some(name) = topic else { return Ok(Output::ok(list())) };
    match TOPICS.iter().find(|t| t.name == name) {
        Some(t) => Ok(Output::ok(with_newline(t.text))),
        None => Err(CmdError::Usage(format!(
            "ptc docs: no topic `{name}`; the topics are {} (`ptc docs` lists them)",
            TOPICS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn list() -> String {
    let mut out = String::from("Topics (`ptc docs TOPIC` prints one):\n\n");
    for t in TOPICS {
        let _ = writeln!(out, "  {:<24}{}", t.name, t.summary);
    }
    out
}

fn with_newline(text: &str) -> String {
    match text.ends_with('\n') {
        true => text.to_string(),
        false => format!("{text}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_every_topic_and_each_prints_its_page() {
        let listed = docs(None).unwrap().stdout;
        for t in TOPICS {
            assert!(listed.contains(t.name), "{listed}");
            let page = docs(Some(t.name)).unwrap().stdout;
            assert!(page.len() > 500 && page.ends_with('\n'), "{}: {} bytes", t.name, page.len());
        }
        assert_eq!(docs(Some("language")).unwrap().stdout.trim_end(), ptc_lisp::LANGUAGE_CARD.trim_end());
    }

    /// Every page of docs/spec/ is a topic, so a new spec cannot be left out.
    #[test]
    fn every_spec_page_is_a_topic() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/spec");
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            assert!(TOPICS.iter().any(|t| t.text == text), "a page of docs/spec/ is not a `ptc docs` topic");
        }
    }

    #[test]
    fn an_unknown_topic_lists_the_topics() {
        let err = docs(Some("lisp")).unwrap_err().to_string();
        assert!(err.contains("no topic `lisp`") && err.contains("ptc-lisp") && err.contains("language"), "{err}");
    }
}
