//! Reading `strategies.toml` (`ptc_host::config`): paths, instances,
//! agents, tools and their errors, each pointing at the line.

use ptc_host::config::*;
use std::path::{Path, PathBuf};

fn parse(text: &str) -> Result<Config, String> {
    Config::parse(Path::new("/cfg/strategies.toml"), text).map_err(|e| e.to_string())
}

#[test]
fn reads_paths_instances_and_agents() {
    let c = parse(
        r#"
[plugins]
paths = ["target/debug", "/abs/plugins"]

[strategy.compact]
plugin = "single-user-coalesced"
println_limit = 5
trigger = { turns = 3 }

[agent.demo]
strategy = "compact"

[agent.plain]
"#,
    )
    .unwrap();
    assert_eq!(c.plugin_paths, vec![PathBuf::from("/cfg/target/debug"), PathBuf::from("/abs/plugins")]);
    let s = &c.strategies["compact"];
    assert_eq!(s.plugin, "single-user-coalesced");
    assert_eq!(s.params, serde_json::json!({"println_limit": 5}));
    assert_eq!(s.trigger, Some(Trigger { turns: Some(3), tokens: None }));
    assert_eq!((s.location.line, s.location.column), (5, 1));
    assert_eq!(c.agents["demo"].strategy.as_deref(), Some("compact"));
    assert_eq!(c.agents["plain"].strategy, None);
}

#[test]
fn syntax_errors_have_line_and_column() {
    let err = parse("[plugins]\npaths = [\"a\",\n").unwrap_err();
    assert_eq!(err, "/cfg/strategies.toml:2:14: unclosed array, expected `]`");
}

#[test]
fn wrong_values_name_their_key_and_what_toml_writes() {
    let cases = [
        (
            "[agent.a]\nmax_turns = \"5\"\n",
            "2:13: max_turns: invalid type: string \"5\", expected a whole number, 0 to 4294967295 (write it without quotes)",
        ),
        (
            "[agent.a]\nmax_turns = -1\n",
            "2:13: max_turns: invalid value: integer `-1`, expected a whole number, 0 to 4294967295",
        ),
        (
            "[agent.a]\nmax_turns = 99999999999\n",
            "2:13: max_turns: invalid value: integer `99999999999`, expected a whole number, 0 to 4294967295",
        ),
        ("[agent.a]\nmax_turns = 5\nmax_turns = 6\n", "3:1: max_turns: duplicate key"),
        ("[agent.a]\ndata = { orders = 5 }\n", "2:19: orders: invalid type: integer `5`, expected a string"),
        (
            "[agent.a]\ndata = \"o.json\"\n",
            "2:8: data: invalid type: string \"o.json\", expected a table: `{ name = value, ... }`",
        ),
        ("[agent.a]\ntools = \"x\"\n", "2:9: tools: invalid type: string \"x\", expected an array: `[\"a\", \"b\"]`"),
        (
            "[agent.a]\nnamespace_fallback = \"yes\"\n",
            "2:22: namespace_fallback: invalid type: string \"yes\", expected true or false (write it without quotes)",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(parse(text).unwrap_err(), format!("/cfg/strategies.toml:{expected}"), "{text}");
    }
}

#[test]
fn unknown_keys_are_errors() {
    let err = parse("[plugins]\npath = []\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:1: unknown field `path`"), "{err}");
    let err = parse("[agent.a]\nstrategie = \"x\"\n").unwrap_err();
    assert!(err.contains("2:1: unknown field `strategie`"), "{err}");
    assert!(err.ends_with("; did you mean `strategy`?"), "{err}");
    let err = parse("[strategy.s]\nplugin = \"p\"\ntrigger = { turn = 2 }\n").unwrap_err();
    assert!(err.contains("strategy `s`: trigger: unknown field `turn`"), "{err}");
    assert!(err.ends_with("; did you mean `turns`?"), "{err}");
    // A key named in other words: the one sharing a word, when only one does.
    for (field, meant) in [("price_model", "pricing"), ("timeout", "run_timeout_ms"), ("max_cost", "max_run_cost")] {
        let err = parse(&format!("[agent.a]\n{field} = 1\n")).unwrap_err();
        assert!(err.ends_with(&format!("; did you mean `{meant}`?")), "{err}");
    }
    let err = parse("[agent.a]\nmodel = \"gpt\"\n").unwrap_err();
    assert!(err.ends_with("`max_agent_depth`, `namespace_fallback`"), "no key shares a word: {err}");
}

#[test]
fn undefined_strategy_and_missing_plugin_are_errors() {
    let err = parse("[agent.a]\nstrategy = \"nope\"\n").unwrap_err();
    assert_eq!(
        err,
        "/cfg/strategies.toml:2:12: agent `a` uses strategy `nope`, which is not defined (defined: full-history); define it in a [strategy.nope] table with its `plugin` (`ptc strategies` lists the plugins)"
    );
    // A likely typo of a defined name is named.
    let err = parse("[strategy.coalesced]\nplugin = \"p\"\n[agent.a]\nstrategy = \"coalesed\"\n").unwrap_err();
    assert!(err.ends_with("(defined: full-history, coalesced); did you mean `coalesced`?"), "{err}");
    let err = parse("[strategy.s]\nwindow = 2\n").unwrap_err();
    assert_eq!(err, "/cfg/strategies.toml:1:1: strategy `s`: missing `plugin = \"...\"`");
    assert!(parse("[agent.a]\nstrategy = \"full-history\"\n").is_ok());
}

#[test]
fn reads_agent_run_fields_and_tools() {
    let c = parse(
        r#"
[tool.quote]
command = ["python3", "quote.py"]
signature = "(country :string) -> :map"
timeout_ms = 200

[agent.a]
mission = "Find it"
max_turns = 3
system_prompt = "custom"
data = { orders = "data/orders.json" }
tools = ["quote", "customer"]
llm = { backend = "replay", file = "replay/a.json" }
limits = { timeout_ms = 50, max_steps = 1000 }
namespace_fallback = true

[agent.b]
mission = "m"
llm = { backend = "openai", base_url = "http://localhost:1", model = "gpt", api_key_env = "KEY", max_retries = 1 }
"#,
    )
    .unwrap();
    let a = &c.agents["a"];
    assert_eq!((a.mission.as_deref(), a.max_turns, a.system_prompt.as_deref()), (Some("Find it"), 3, Some("custom")));
    assert_eq!(a.data["orders"], PathBuf::from("/cfg/data/orders.json"));
    assert_eq!(a.tools, ["quote", "customer"]);
    assert!(a.namespace_fallback && !c.agents["b"].namespace_fallback, "opt-in, off by default");
    assert_eq!(a.llm, Some(LlmConfig::Replay { file: PathBuf::from("/cfg/replay/a.json") }));
    let limits = a.limits.to_limits();
    assert_eq!((limits.timeout.as_millis(), limits.max_steps, limits.max_depth), (50, 1000, 256));
    let t = &c.tools["quote"];
    assert_eq!((t.command.len(), t.timeout_ms, t.dir.clone()), (2, 200, PathBuf::from("/cfg")));
    assert_eq!(c.agents["b"].max_turns, 5);
    assert!(matches!(&c.agents["b"].llm, Some(LlmConfig::Openai(c)) if c.max_retries == Some(1)));
}

#[test]
fn agent_run_field_errors_have_locations() {
    let err = parse("[agent.a]\ntools = [\"nope\"]\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:10: agent `a` uses tool `nope`"), "{err}");
    let err = parse("[agent.a]\nllm = { backend = \"replay\", fil = \"x\" }\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:") && err.contains("unknown field `fil`"), "{err}");
    let err = parse("[agent.a]\nllm = { backend = \"claude\" }\n").unwrap_err();
    assert!(err.contains("unknown variant `claude`"), "{err}");
    let err = parse("[agent.a]\nlimits = { timeout = 5 }\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:") && err.contains("unknown field `timeout`"), "{err}");
    let err = parse("[agent.a]\nmax_turns = 0\n").unwrap_err();
    assert_eq!(err, "/cfg/strategies.toml:2:13: agent `a`: max_turns must be at least 1");
    let err = parse("[tool.t]\ncommand = []\n").unwrap_err();
    assert_eq!(err, "/cfg/strategies.toml:1:1: tool `t`: `command` needs at least the program");
}

#[test]
fn agent_budget_fields() {
    let c = parse(
        "[strategy.a]\nplugin = \"aggressive\"\n[strategy.b]\nplugin = \"x\"\n\n[agent.t]\nstrategy = \"a\"\n\
         max_prompt_tokens = 4000\nfallback = [\"b\", \"full-history\"]\ntoken_encoding = \"cl100k_base\"\n[agent.u]\n",
    )
    .unwrap();
    let t = &c.agents["t"];
    assert_eq!(t.max_prompt_tokens, Some(4000));
    assert_eq!(t.fallback, ["b", "full-history"]);
    assert_eq!(t.token_encoding.as_deref(), Some("cl100k_base"));
    let u = &c.agents["u"];
    assert_eq!((u.max_prompt_tokens, u.fallback.len(), u.token_encoding.as_deref()), (None, 0, None));
}

#[test]
fn agent_budget_errors_have_line_and_column() {
    let err = parse("[agent.t]\nmax_prompt_tokens = 0\n").unwrap_err();
    assert_eq!(err, "/cfg/strategies.toml:2:21: agent `t`: max_prompt_tokens must be at least 1");
    let err = parse("[agent.t]\nmax_prompt_tokens = 10\nfallback = [\"nope\"]\n").unwrap_err();
    assert_eq!(
        err,
        "/cfg/strategies.toml:3:13: agent `t`: fallback `nope` is not a defined strategy (defined: full-history); define it in a [strategy.nope] table with its `plugin` (`ptc strategies` lists the plugins)"
    );
    let err = parse("[agent.t]\nfallback = [\"full-history\"]\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:12: agent `t`: `fallback` is only used with"), "{err}");
    let err = parse("[agent.t]\nmax_prompt_tokens = -3\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:21: "), "{err}");
    let err = parse("[agent.t]\nfallbacks = []\n").unwrap_err();
    assert!(err.contains("2:1: unknown field `fallbacks`"), "{err}");
}

#[test]
fn isolation_and_its_limits_are_read_and_kept_out_of_the_parameters() {
    let c = parse(
        r#"
[strategy.local]
plugin = "single-user-coalesced"

[strategy.vendor]
plugin = "vendor"
isolation = "process"
window = 3

[strategy.tight]
plugin = "vendor"
isolation = "process"
isolation_limits = { memory = "256MiB", cpu_seconds = 2, stack = 1048576, render_timeout_ms = 1500 }

[agent.a]
strategy = "vendor"
fallback = ["local"]
"#,
    )
    .unwrap();
    assert_eq!(c.strategies["local"].isolation, Isolation::InProcess);
    assert_eq!(c.strategies["vendor"].isolation, Isolation::Process(IsolationLimits::default()));
    assert_eq!(c.strategies["vendor"].params, serde_json::json!({"window": 3}));
    let Isolation::Process(limits) = c.strategies["tight"].isolation else { panic!("tight is isolated") };
    assert_eq!(
        (limits.caps.memory, limits.caps.cpu, limits.caps.stack, limits.render_timeout),
        (256 << 20, std::time::Duration::from_secs(2), 1 << 20, std::time::Duration::from_millis(1500))
    );
    assert_eq!(c.strategies["tight"].params, serde_json::json!({}));
    // Without a budget, a fallback serves when the isolated strategy fails.
    assert_eq!(c.agents["a"].fallback, ["local"]);
}

#[test]
fn isolation_errors_name_the_instance_and_the_setting() {
    let cases = [
        ("isolation = \"docker\"", "unknown isolation `docker` (use \"process\" or \"in-process\")"),
        ("isolation = true", "`isolation` must be a string, got a boolean"),
        ("isolation = 3", "`isolation` must be a string, got an integer"),
        ("isolation = \"process\"\nisolation_limits = { memory = [1] }", "got an array"),
        ("isolation_limits = { memory = \"1G\" }", "`isolation_limits` needs `isolation = \"process\"`"),
        ("isolation = \"process\"\nisolation_limits = { memory = \"lots\" }", "isolation_limits: memory: size `lots`"),
        ("isolation = \"process\"\nisolation_limits = { memory = 0 }", "isolation_limits: memory: must be more than 0"),
        ("isolation = \"process\"\nisolation_limits = { cpu = 3 }", "isolation_limits: unknown field `cpu`"),
        ("isolation = \"process\"\nisolation_limits = { cpu_seconds = 0 }", "cpu_seconds must be at least 1"),
        (
            "isolation = \"process\"\nisolation_limits = { render_timeout_ms = 0 }",
            "render_timeout_ms must be at least 1",
        ),
    ];
    for (lines, expected) in cases {
        let err = parse(&format!("[strategy.v]\nplugin = \"vendor\"\n{lines}\n")).unwrap_err();
        assert!(err.starts_with("/cfg/strategies.toml:1:1: strategy `v`: "), "{err}");
        assert!(err.contains(expected), "{lines}: {err}");
    }
    let err = parse("[strategy.v]\nplugin = \"full-history\"\nisolation = \"process\"\n").unwrap_err();
    assert!(err.contains("full-history is built in and runs in-process"), "{err}");
    // A fallback without a budget and without an isolated instance is still pointless.
    let err = parse("[strategy.v]\nplugin = \"vendor\"\n[agent.a]\nstrategy = \"v\"\nfallback = [\"full-history\"]\n")
        .unwrap_err();
    assert!(err.contains("is only used with `max_prompt_tokens` or an isolated strategy"), "{err}");
}

#[test]
fn signatures_parse_at_load_and_errors_point_into_the_string() {
    let c = parse(
        r#"
[agent.a]
mission = "Find {{query}} (at most {{ limit }})"
signature = "(query :string, limit :int?) -> {count :int}"
retry_turns = 2
max_tool_calls = 20
max_tool_calls_per_turn = 5
run_timeout_ms = 60000
max_run_prompt_tokens = 50000
max_run_cost = 2.5
"#,
    )
    .unwrap();
    let a = &c.agents["a"];
    let contract = a.contract.as_ref().unwrap();
    assert_eq!(contract.text, "(query :string, limit :int?) -> {count :int}");
    assert_eq!(contract.signature.params.len(), 2);
    assert_eq!(contract.retry_turns, 2);
    assert_eq!(
        a.run_limits,
        RunLimits {
            max_tool_calls: Some(20),
            max_tool_calls_per_turn: Some(5),
            run_timeout_ms: Some(60000),
            max_run_prompt_tokens: Some(50000),
            max_run_cost: Some(2.5),
        }
    );
    assert_eq!(
        (c.agents["a"].contract.is_some(), parse("[agent.b]\n").unwrap().agents["b"].contract.is_none()),
        (true, true)
    );

    // The location is the character in the file; the message shows the string with a caret.
    let err = parse("[agent.a]\nsignature = \"(query :strin) -> :int\"\n").unwrap_err();
    assert_eq!(
        err,
        "/cfg/strategies.toml:2:21: agent `a`: signature: unknown type `:strin`; the types are :string :int :float \
         :bool :keyword :datetime :map :any (column 8)\n    (query :strin) -> :int\n           ^"
    );
    // Tool signatures too; a string with escapes points at the string.
    let err = parse("[tool.t]\ncommand = [\"x\"]\nsignature = '(id :int) -> {id :int'\n").unwrap_err();
    assert!(
        err.starts_with("/cfg/strategies.toml:3:35: tool `t`: signature: expected `}` to close the fields"),
        "{err}"
    );
    let err = parse("[tool.t]\ncommand = [\"x\"]\nsignature = \"(\\u0069d :int) -> :nope\"\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:3:13: tool `t`: signature: unknown type `:nope`"), "{err}");
    // A multi-line string.
    let err = parse("[agent.a]\nsignature = \"\"\"\n(q :string) -> {\n  n :integer\n}\"\"\"\n").unwrap_err();
    assert!(
        err.starts_with("/cfg/strategies.toml:4:5: agent `a`: signature: unknown type `:integer` (did you mean :int?)"),
        "{err}"
    );
}

#[test]
fn contract_keys_are_checked_against_each_other() {
    let err = parse("[agent.a]\nmission = \"Find {{query}}\"\n").unwrap_err();
    assert!(
        err.contains("agent `a`: the mission uses {{query}}, which is not a named input (it declares no inputs"),
        "{err}"
    );
    let err = parse("[agent.a]\nmission = \"Find {{qeury}}\"\nsignature = \"(query :string) -> :any\"\n").unwrap_err();
    assert!(err.ends_with("the mission uses {{qeury}}, which is not a named input (its inputs: query)"), "{err}");
    let err = parse("[agent.a]\nretry_turns = 1\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:2:15: agent `a`: `retry_turns` only gives turns"), "{err}");
    let err = parse("[agent.a]\nmax_tool_calls = 0\n").unwrap_err();
    assert_eq!(
        err,
        "/cfg/strategies.toml:2:18: agent `a`: max_tool_calls must be at least 1 (leave it out for no limit)"
    );
    let err = parse("[agent.a]\nmax_run_prompt_tokens = 0\n").unwrap_err();
    assert!(err.ends_with("agent `a`: max_run_prompt_tokens must be at least 1 (leave it out for no limit)"), "{err}");
    for cost in ["0", "-1.5", "nan"] {
        let err = parse(&format!("[agent.a]\nmax_run_cost = {cost}\n")).unwrap_err();
        assert!(
            err.starts_with("/cfg/strategies.toml:2:16: agent `a`: max_run_cost must be a number above 0"),
            "{err}"
        );
    }
    let err = parse("[agent.a]\nsignature = \"(orders :int) -> :any\"\ndata = { orders = \"o.json\" }\n").unwrap_err();
    assert!(err.contains("input `orders` has the name of a `data` entry"), "{err}");
}

#[cfg(feature = "mcp")]
#[test]
fn mcp_tables_and_tool_names_are_checked() {
    let c = parse(
        "[mcp.fs]\ncommand = \"npx\"\nargs = [\"srv\", \".\"]\ncache = [\"read\"]\n[mcp.web]\nurl = \"http://127.0.0.1:1/mcp\"\ntimeout_ms = 50\n[agent.a]\ntools = [\"fs.*\", \"web.fetch\", \"agent:a\", \"llm-query\"]\n",
    )
    .unwrap();
    let fs = &c.mcp["fs"];
    assert!(
        matches!(&fs.server.transport, ptc_mcp::Transport::Stdio { command, .. } if command == &["npx", "srv", "."])
    );
    assert!(fs.cache.covers("read") && !fs.cache.covers("write"));
    assert_eq!(c.mcp["web"].server.call_timeout, std::time::Duration::from_millis(50));
    assert_eq!(c.agents["a"].max_agent_depth, DEFAULT_MAX_AGENT_DEPTH);
    let err = parse("[mcp.x]\nurl = \"ftp://h\"\n").unwrap_err();
    assert_eq!(err, "/cfg/strategies.toml:1:1: mcp `x`: `url` must start with http:// or https://, got \"ftp://h\"");
    let err = parse("[mcp.x]\ncommand = [\"a\"]\nurl = \"http://h\"\n").unwrap_err();
    assert!(err.ends_with("set `command` (stdio) or `url` (Streamable HTTP), not both"), "{err}");
    let err = parse("[mcp.x]\ncommand = [\"a\"]\n[agent.a]\ntools = [\"y.*\"]\n").unwrap_err();
    assert!(err.starts_with("/cfg/strategies.toml:4:10: agent `a` uses tool `y.*`, which is neither"), "{err}");
    assert!(err.contains("x.*, llm-query, turn-output, agent:AGENT"), "{err}");
    let err = parse("[agent.a]\ntools = [\"agent:nobody\"]\n").unwrap_err();
    assert!(err.contains("uses tool `agent:nobody`"), "{err}");
}

/// A build without MCP names the table and how to get MCP, in one line.
#[cfg(not(feature = "mcp"))]
#[test]
fn an_mcp_table_needs_the_mcp_feature() {
    let err = parse("[agent.a]\nmission = \"m\"\n\n[mcp.foo]\ncommand = [\"srv\"]\n").unwrap_err();
    assert_eq!(
        err,
        "/cfg/strategies.toml:4:1: [mcp.foo] needs MCP, but this ptc was built without the \"mcp\" feature; \
         rebuild with default features (cargo install ptc-host)"
    );
    assert!(!err.contains('\n'));
}

#[test]
fn a_missing_config_says_where_it_looked_and_what_to_do() {
    let err = Config::load(Path::new("no-such-dir/strategies.toml")).unwrap_err().to_string();
    let looked = std::env::current_dir().unwrap().join("no-such-dir/strategies.toml");
    assert_eq!(
        err,
        format!(
            "no-such-dir/strategies.toml: no config file (looked for {}); name one with `--config FILE`, or create a project here with `ptc init`",
            looked.display()
        )
    );
}

/// The `llm` table as the config file spells it (the settings' own rules
/// are tested in `ptc-llm`).
mod llm_table {
    use super::parse;
    use ptc_host::llm::LlmConfig;
    use std::time::Duration;

    #[test]
    fn generation_settings_are_read_from_an_agent_table() {
        let c = parse(
            "[agent.a.llm]\nbackend = \"openai\"\nbase_url = \"http://127.0.0.1:8088/v1\"\nmodel = \"smol\"\n\
             max_tokens = 256\ntemperature = 0.2\ntop_p = 0.9\nstop = [\"\\n```\\n\", \"END\"]\nseed = 7\n\
             stream = true\nread_timeout_ms = 5000\nretry_on_timeout = true\n\n[agent.a.llm.extra]\ntop_k = 40\n",
        )
        .unwrap();
        let Some(LlmConfig::Openai(llm)) = &c.agents["a"].llm else { panic!("{:?}", c.agents["a"].llm) };
        let g = llm.generation();
        assert_eq!((g.max_tokens, g.temperature, g.top_p, g.seed), (256, Some(0.2), Some(0.9), Some(7)));
        assert_eq!(g.stop, ["\n```\n", "END"]);
        assert_eq!(g.extra["top_k"], 40);
        let h = llm.http();
        assert_eq!((h.read_timeout, h.retry_on_timeout, h.stream), (Duration::from_secs(5), true, true));
        // The old name of the read timeout still works.
        let c = parse(
            "[agent.a]\nllm = { backend = \"openai\", base_url = \"http://h\", model = \"m\", timeout_ms = 10 }\n",
        );
        let Some(LlmConfig::Openai(llm)) = &c.unwrap().agents["a"].llm else { panic!() };
        assert_eq!(llm.read_timeout_ms, Some(10));
    }

    #[test]
    fn unknown_and_invalid_settings_name_the_place() {
        let err =
            parse("[agent.a]\nllm = { backend = \"openai\", base_url = \"http://h\", model = \"m\", max_token = 5 }\n")
                .unwrap_err();
        assert!(err.starts_with("/cfg/strategies.toml:2:7: ") && err.contains("unknown field `max_token`"), "{err}");
        let err = parse("[agent.a]\nllm = { backend = \"anthropic\", model = \"m\", seed = 1 }\n").unwrap_err();
        assert_eq!(err, "/cfg/strategies.toml:2:7: agent `a`: llm: backend `anthropic` has no `seed`; remove it");
        let err = parse("[agent.a]\nllm = { backend = \"openai\", model = \"m\" }\n").unwrap_err();
        assert!(
            err.starts_with("/cfg/strategies.toml:2:7: agent `a`: llm: backend `openai` needs `base_url`"),
            "{err}"
        );
    }
}

#[test]
fn agent_policy_from_config() {
    use ptc_host::policy::Policy;
    use ptc_host::run::agent_counter;
    use ptc_plugin_api::{RenderRequest, Turn};
    let mut request = RenderRequest::new("Find it", "system", 5);
    for n in 1..=2 {
        request.push_turn(Turn::new(n, format!("answer {n} ").repeat(50), None));
    }
    let text = "[agent.a]\nmax_prompt_tokens = 20\nfallback = [\"full-history\"]\ntoken_encoding = \"cl100k_base\"\n\
                [agent.bad]\ntoken_encoding = \"gpt9\"\n";
    let resolved = Config::parse(std::path::Path::new("/cfg/strategies.toml"), text).unwrap().resolve();
    let a = &resolved.config.agents["a"];
    let counter = agent_counter(a).unwrap();
    assert_eq!(counter.encoding(), "cl100k_base");
    let mut p = Policy::for_agent(&resolved, a, counter).unwrap();
    let err = p.render(&request).unwrap_err();
    assert!(err.to_string().starts_with("no strategy fits max_prompt_tokens = 20: `full-history` needs "), "{err}");
    let err = agent_counter(&resolved.config.agents["bad"]).err().unwrap().to_string();
    assert!(err.starts_with("/cfg/strategies.toml:5:1: agent `bad`: unknown token encoding `gpt9`"), "{err}");
}
