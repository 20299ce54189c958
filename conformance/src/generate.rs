//! Large fixtures built in code from the small specs of
//! `fixtures/generated.v1.json`, so the repository never stores
//! megabytes of JSON.

use ptc_plugin_api::{DataEntry, Definition, FnDesc, RenderRequest, ToolCall, ToolSpec, Turn, TurnError, Value};
use serde::Deserialize;

/// One large fixture, as its spec file describes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum GeneratedSpec {
    /// Many completed turns; the last one failed.
    ManyTurns {
        /// Fixture name.
        name: String,
        /// One line about it.
        about: String,
        /// Completed turns.
        turns: u32,
        /// The run's turn limit (more than `turns`).
        max_turns: u32,
        /// Distinct names, defined and redefined in rotation.
        names: u32,
        /// Every n-th turn fails.
        fail_every: u32,
        /// Every n-th successful turn prints.
        print_every: u32,
        /// Every n-th successful turn calls a tool.
        tool_every: u32,
    },
    /// A vector of `elements` integers wherever a value can be.
    BigCollection {
        /// Fixture name.
        name: String,
        /// One line about it.
        about: String,
        /// Number of elements.
        elements: usize,
    },
    /// A string of `bytes` bytes (multi-byte characters included) wherever a value can be.
    BigString {
        /// Fixture name.
        name: String,
        /// One line about it.
        about: String,
        /// Size in bytes (at least).
        bytes: usize,
    },
}

impl GeneratedSpec {
    /// The fixture name.
    pub fn name(&self) -> &str {
        match self {
            GeneratedSpec::ManyTurns { name, .. }
            | GeneratedSpec::BigCollection { name, .. }
            | GeneratedSpec::BigString { name, .. } => name,
        }
    }

    /// One line about it.
    pub fn about(&self) -> &str {
        match self {
            GeneratedSpec::ManyTurns { about, .. }
            | GeneratedSpec::BigCollection { about, .. }
            | GeneratedSpec::BigString { about, .. } => about,
        }
    }
}

const SYSTEM: &str = "You are a PTC-Lisp agent. Answer with one ```clojure block per turn.";

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec::new(
            "search",
            Some("(query :string, limit :int) -> [{title :string, score :float}]".into()),
            Some("Full-text search".into()),
        ),
        ToolSpec::new("load-all", Some("-> [:int]".into()), Some("Every reading".into())),
    ]
}

fn response(n: u32, program: &str) -> String {
    format!("Turn {n}: next step.\n```clojure\n{program}\n```")
}

/// A `many-turns` spec whose numbers cannot describe a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidSpec;

impl std::fmt::Display for InvalidSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("needs max_turns > turns, names >= 1, fail_every >= 2, print_every and tool_every >= 1")
    }
}

impl std::error::Error for InvalidSpec {}

/// Builds the request a spec describes (rendering the turn after the last).
pub fn build(spec: &GeneratedSpec) -> Result<RenderRequest, InvalidSpec> {
    match spec {
        GeneratedSpec::ManyTurns { turns, max_turns, names, fail_every, print_every, tool_every, .. } => {
            if *max_turns <= *turns || *names == 0 || *fail_every < 2 || *print_every == 0 || *tool_every == 0 {
                return Err(InvalidSpec);
            }
            Ok(many_turns(*turns, *max_turns, *names, *fail_every, *print_every, *tool_every))
        }
        GeneratedSpec::BigCollection { elements, .. } => {
            let big = Value::vector((0..*elements as i64).map(Value::int).collect());
            Ok(big_value(&format!("Summarise the {elements} readings in data/readings."), big))
        }
        GeneratedSpec::BigString { bytes, .. } => {
            // Multi-byte characters at every position a cut could land on.
            let chunk = "lorem ipsum dolor — ünïcödé 日本語 🫖 sit amet; ";
            let text: String = chunk.repeat(bytes / chunk.len() + 1);
            Ok(big_value(
                &format!("Find the longest word in the {} MB text data/readings.", bytes >> 20),
                Value::string(text),
            ))
        }
    }
}

fn many_turns(
    turns: u32,
    max_turns: u32,
    names: u32,
    fail_every: u32,
    print_every: u32,
    tool_every: u32,
) -> RenderRequest {
    let mission = format!("Generated: {turns} turns of redefinitions, printlns and tool calls; report the last total.");
    let data = vec![DataEntry::new("limit", Value::int(1000))];
    let mut req = RenderRequest::new(mission, SYSTEM, max_turns).with_tools(tools()).with_data(data);
    for n in 1..=turns {
        if n % fail_every == 0 || n == turns {
            let program = format!("(def total-{n} (undefined-fn-{n} v-1))");
            let error = TurnError::new("unbound_symbol", format!("Undefined symbol: undefined-fn-{n} (turn {n})"));
            req.push_turn(Turn::new(n, response(n, &program), Some(program)).with_error(error));
            continue;
        }
        let i = n % names;
        let mut program = String::new();
        let mut defs = Vec::new();
        if i % 5 == 0 {
            let name = format!("f-{i}");
            program.push_str(&format!("(defn {name} \"Scales by {n}\" [x] (* x {n}))"));
            let desc = FnDesc::new(name.clone(), vec!["x".into()]).with_return_type(Some("integer".into()));
            defs.push(Definition::new(name, Value::function(desc), Some(format!("Scales by {n}"))));
        } else {
            let name = format!("v-{i}");
            program.push_str(&format!("(def {name} [{n} {} {}])", n + 1, n + 2));
            let value =
                Value::vector(vec![Value::int(n.into()), Value::int((n + 1).into()), Value::int((n + 2).into())]);
            defs.push(Definition::new(name, value, None));
        }
        let mut calls = Vec::new();
        if n % tool_every == 0 {
            program.push_str(&format!("\n(tool/search {{:query \"q{n}\" :limit 5}})"));
            let args = Value::map(vec![
                (Value::keyword("query"), Value::string(format!("q{n}"))),
                (Value::keyword("limit"), Value::int(5)),
            ]);
            let hit = Value::map(vec![
                (Value::keyword("title"), Value::string(format!("hit {n}"))),
                (Value::keyword("score"), Value::float(f64::from(n % 50) / 10.0)),
            ]);
            calls.push(ToolCall::new("search", args, Ok(Value::vector(vec![hit])), 3));
        }
        let mut prints = Vec::new();
        if n % print_every == 0 {
            program.push_str(&format!("\n(println \"turn {n}: processed\" {} \"rows\")", n * 3));
            prints.push(format!("turn {n}: processed {} rows", n * 3));
        }
        let turn = Turn::new(n, response(n, &program), Some(program))
            .with_result(Value::var(defs[0].name()))
            .with_definitions(defs)
            .with_tool_calls(calls)
            .with_prints(prints);
        req.push_turn(turn);
    }
    req
}

/// One turn that puts `big` in data/, a definition, a tool result and the
/// turn's result, with a short print so samples stay the only view of it.
fn big_value(mission: &str, big: Value) -> RenderRequest {
    let data = vec![DataEntry::new("readings", big.clone())];
    let mut req = RenderRequest::new(mission, SYSTEM, 5).with_tools(tools()).with_data(data);
    let program = "(def everything (tool/load-all {}))\neverything";
    let call = ToolCall::new("load-all", Value::map(vec![]), Ok(big.clone()), 40);
    let def = Definition::new("everything", big.clone(), Some("All readings, as loaded".into()));
    let turn = Turn::new(1, response(1, program), Some(program.into()))
        .with_result(big)
        .with_tool_calls(vec![call])
        .with_definitions(vec![def]);
    req.push_turn(turn);
    req
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_turns_ends_with_a_failure_and_keeps_names_live() {
        let req = many_turns(50, 60, 10, 7, 3, 2);
        assert_eq!(req.turn(), 51);
        assert!(!req.last_turn().unwrap().success());
        assert_eq!(req.memory().len(), 10);
        for t in req.turns() {
            assert!(t.raw_response().contains(t.program().unwrap()));
        }
    }

    #[test]
    fn bad_specs_are_refused() {
        let spec = GeneratedSpec::ManyTurns {
            name: "x".into(),
            about: String::new(),
            turns: 5,
            max_turns: 5,
            names: 1,
            fail_every: 2,
            print_every: 1,
            tool_every: 1,
        };
        assert_eq!(build(&spec).unwrap_err(), InvalidSpec);
        assert!(InvalidSpec.to_string().contains("max_turns > turns"));
    }
}
