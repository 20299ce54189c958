//! A render through a [`RenderMemo`] is the render without one, byte for
//! byte (`ptc_plugin_api::render::memo`), through the SDK's public
//! functions: fact memory and block memory, over runs that grow, shrink,
//! change an earlier turn and start again.

use ptc_plugin_api::render::{
    cache_epoch, checkpointed_prompt, checkpointed_prompt_memoized, fact_memory_prompt, fact_memory_prompt_memoized,
    Checkpointing, FactEntryOptions, FactMemory, FoldPolicy, RenderMemo, DEFAULT_CACHE_MIN_TOKENS,
};
use ptc_plugin_api::{RenderRequest, Stats, Turn, TurnError};
use std::ops::Range;

/// Turn `n` of a run: most print an order line with its facts, every
/// fifth answers tersely (shown verbatim), every seventh fails.
fn turn(n: u32, variant: &str) -> Turn {
    if n.is_multiple_of(7) {
        return Turn::new(n, "(boom)", Some("(boom)".into())).with_error(TurnError::new("eval", "boom failed"));
    }
    let (raw, print) = match n % 5 {
        0 => ("(p)".to_string(), format!("value {}", 1000 + n)),
        _ => (
            format!("Checking order {n}.\n```clojure\n(println o)\n```"),
            format!("order ORD-{n:04}-{variant} failed at 2024-05-{:02}T10:00:00Z after {} ms", n % 28 + 1, 900 + n),
        ),
    };
    Turn::new(n, raw.clone(), Some(raw)).with_prints(vec![print])
}

fn request(system: usize, turns: u32, variant: impl Fn(u32) -> &'static str) -> RenderRequest {
    let mut req = RenderRequest::new("Find the failed orders", "system ".repeat(system), 60);
    (1..=turns).for_each(|n| req.push_turn(turn(n, variant(n))));
    req
}

/// Every turn of a run in order, then a shorter history, a history
/// whose turn 9 changed, and the first run again; with a system prompt
/// cached from the first turn, and with one so short that the prompt
/// reaches the cache minimum only after some turns.
fn requests() -> Vec<RenderRequest> {
    let mut all = Vec::new();
    for system in [1200, 1] {
        all.extend((0..=40).map(|n| request(system, n, |_| "X")));
        all.push(request(system, 20, |_| "X"));
        all.push(request(system, 40, |n| if n == 9 { "Y" } else { "X" }));
        all.push(request(system, 40, |_| "X"));
    }
    all
}

fn how() -> Checkpointing {
    Checkpointing {
        fold: FoldPolicy { threshold_tokens: 200, min_turns: 2, merge_tokens: 600 },
        cache_min_tokens: DEFAULT_CACHE_MIN_TOKENS,
    }
}

#[test]
fn a_memoized_fact_memory_render_is_the_render_without_a_memo() {
    let memory = FactMemory { recent: 2, entries: FactEntryOptions::default() };
    let memo = RenderMemo::default();
    let mut epochs = 0;
    for req in requests() {
        let full = |i: usize, stats: &mut Stats| {
            stats.printlns_shown += 1;
            let prints: Vec<&str> = req.turns()[i].prints().collect();
            format!(";; --- turn {} in full ---\n{}", i + 1, prints.join("\n"))
        };
        let memoized = fact_memory_prompt_memoized(&req, "t", how(), memory, &memo, full);
        let reference = fact_memory_prompt(&req, "t", how(), memory, full);
        assert_eq!(memoized, reference, "turn {}", req.turn());
        epochs = epochs.max(cache_epoch(&reference));
    }
    assert!(epochs > 1, "the run folds ({epochs} checkpoints)");
}

#[test]
fn a_memoized_block_render_is_the_render_without_a_memo() {
    let memo = RenderMemo::default();
    let mut verbatim = 0;
    for req in requests() {
        let block = |i: usize, stats: &mut Stats| {
            stats.printlns_total += 1;
            let prints: Vec<&str> = req.turns()[i].prints().collect();
            format!(";; turn {}: {} {}", i + 1, prints.join(" "), "pad ".repeat(i % 4))
        };
        let frozen = |r: Range<usize>, stats: &mut Stats| {
            stats.turns_compressed += r.len() as u32;
            format!(";; turns {}-{}", r.start + 1, r.end)
        };
        let memoized = checkpointed_prompt_memoized(&req, "t", how(), &memo, block, frozen);
        let reference = checkpointed_prompt(&req, "t", how(), block, frozen);
        assert_eq!(memoized, reference, "turn {}", req.turn());
        let counter = reference.rendered().stats().counters().iter().find(|c| c.name() == "turns_verbatim");
        verbatim = verbatim.max(counter.map_or(0, |c| c.value()));
    }
    assert!(verbatim > 0, "some turns are appended verbatim");
}
