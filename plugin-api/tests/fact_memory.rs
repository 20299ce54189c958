//! The checkpointed layout with fact memory
//! (`ptc_plugin_api::render::fact_memory_prompt`), through the SDK's public
//! functions: every fact shown once, and the latest turn shown in full
//! after its entry.

use ptc_plugin_api::render::{
    check_cache_stable, compact_tool_calls_section, fact_memory_prompt, Checkpointing, FactEntryOptions, FactMemory,
    FoldPolicy, DEFAULT_CACHE_MIN_TOKENS, DEFAULT_RECENT_TURNS,
};
use ptc_plugin_api::{Prompt, RenderRequest, ToolCall, Turn, Value};

/// Turns that each look up six accounts and print one line per account:
/// the calls are what the entry and the full form share.
fn request(turns: u32) -> RenderRequest {
    let mut req = RenderRequest::new("Reconcile the accounts", "system ".repeat(1200), 40);
    for n in 1..=turns {
        let calls = (1..=6)
            .map(|k| {
                let args = Value::map(vec![(Value::keyword("id"), Value::string(format!("ACC-{n:02}{k}")))]);
                ToolCall::new("account", args, Ok(Value::int(i64::from(n * 100 + k))), 3)
            })
            .collect();
        let prints = (1..=6).map(|k| format!("account ACC-{n:02}{k} balance {} EUR", n * 100 + k)).collect();
        let program =
            "(doseq [id (take 6 (drop offset data/accounts))]\n  (let [account (tool/account {:id id})]\n    \
                       (println \"account\" id \"balance\" (:balance account) \"EUR\")))\n\
                       (def checked (into checked (take 6 (drop offset data/accounts))))\n\
                       (def offset (+ offset 6))";
        let raw = format!("```clojure\n{program}\n```");
        req.push_turn(Turn::new(n, raw, Some(program.into())).with_tool_calls(calls).with_prints(prints));
    }
    req
}

/// The strategy's full form of turn `i`: its calls as the entry lists
/// them, then its output.
fn full(req: &RenderRequest, i: usize) -> String {
    let turn = &req.turns()[i];
    let calls: Vec<&ToolCall> = turn.tool_calls().iter().collect();
    let calls = compact_tool_calls_section(&calls).expect("every turn calls");
    format!(";; --- turn {} ---\n{calls}\n;; Output:\n{}", turn.number(), turn.prints().collect::<Vec<_>>().join("\n"))
}

/// `req` in fact memory, with `full(i)` the strategy's full form of turn
/// `i`.
fn prompt(req: &RenderRequest, full: impl Fn(usize) -> String) -> Prompt {
    let how = Checkpointing {
        fold: FoldPolicy { threshold_tokens: 1500, min_turns: 4, merge_tokens: 3000 },
        cache_min_tokens: DEFAULT_CACHE_MIN_TOKENS,
    };
    let memory = FactMemory { recent: DEFAULT_RECENT_TURNS, entries: FactEntryOptions::default() };
    fact_memory_prompt(req, "t", how, memory, |i, _| full(i))
}

/// Turns that each print one long line about a failed order.
fn orders(turns: u32) -> RenderRequest {
    let mut req = RenderRequest::new("Find the failed orders", "system ".repeat(1200), 40);
    for n in 1..=turns {
        let print = format!(
            "order ORD-{n:04}-X failed at 2024-05-{:02}T10:00:00Z after {} ms, {}",
            n % 28 + 1,
            1000 + n,
            "x".repeat(60)
        );
        req.push_turn(
            Turn::new(n, "```clojure\n(println o)\n```", Some("(println o)".into())).with_prints(vec![print]),
        );
    }
    req
}

#[test]
fn every_fact_stays_visible_once_and_the_prompt_only_appends() {
    let mut last: Option<Prompt> = None;
    for n in 1..=20 {
        let req = orders(n);
        let p = prompt(&req, |i| {
            format!(";; --- turn {} in full ---\n{}", i + 1, req.turns()[i].prints().next().unwrap_or(""))
        });
        let text: String = p.messages().iter().map(|m| m.content().to_string()).collect();
        for k in 1..=n {
            let id = format!("ORD-{k:04}-X");
            assert_eq!(text.matches(&id).count(), 1, "turn {n}: {id} shown once");
        }
        assert!(text.contains(&format!(";; --- turn {n} in full ---")), "the latest turn in full");
        if let Some(prev) = &last {
            check_cache_stable(prev, &p).unwrap();
        }
        last = Some(p);
    }
}

#[test]
fn the_latest_turns_entry_is_cached_at_once_and_only_what_it_lacks_follows() {
    let mut last: Option<Prompt> = None;
    for n in 2..=12 {
        let req = request(n);
        let p = prompt(&req, |i| full(&req, i));
        let blocks: Vec<_> = p.blocks(1).collect();
        let end = blocks.iter().rposition(|b| b.breakpoint).expect("a breakpoint");
        let cached: String = blocks[..=end].iter().map(|b| b.text).collect();
        let after: String = blocks[end + 1..].iter().map(|b| b.text).collect();
        let latest = format!("ACC-{n:02}1");
        // The call's argument is a fact of the entry, cached; the print
        // line that shows the balance is shown after the breakpoint.
        assert!(cached.contains(&format!(";; --- turn {n} ---")), "turn {n}: the latest entry is cached:\n{cached}");
        assert!(cached.contains(&format!("account({{:id \"{latest}\"}})")), "turn {n}: its calls, once");
        assert!(!after.contains(&format!("account({{:id \"{latest}\"}})")), "turn {n}: not twice:\n{after}");
        assert!(after.contains(&format!("account {latest} balance {} EUR", n * 100 + 1)), "turn {n}: {after}");
        assert!(after.contains(";; Output:"), "turn {n}: the output keeps its label");
        // Every line of the full form is in the prompt.
        let text = p.messages()[1].content();
        for line in full(&req, req.turns().len() - 1).lines() {
            assert!(text.contains(line), "turn {n}: {line:?} shown");
        }
        if let Some(prev) = &last {
            check_cache_stable(prev, &p).unwrap();
        }
        last = Some(p);
    }
}
