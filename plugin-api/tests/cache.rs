//! When a cache-stable layout rewrites its prompt
//! (`ptc_plugin_api::render::cache`), through the SDK's public functions:
//! checkpoints that never move, folds and merges that pay for themselves,
//! and the cache-stability check.

use ptc_plugin_api::render::{
    check_cache_stable, checkpoint, CacheBreak, Checkpoint, Checkpointing, FoldPolicy, Rewrite, CACHE_EPOCH,
};
use ptc_plugin_api::{Block, Prompt, Role, Stats, Turn, TurnError};
fn turns(failed: &[u32]) -> Vec<Turn> {
    (1..=10)
        .map(|n| {
            let t = Turn::new(n, "a", None);
            if failed.contains(&n) {
                t.with_error(TurnError::new("x", "boom"))
            } else {
                t
            }
        })
        .collect()
}

const NEVER_MERGE: usize = usize::MAX;

/// A run long enough that every fold pays.
const LONG_RUN: u32 = 1000;

/// `fold`, with every prompt cacheable.
fn how(fold: FoldPolicy) -> Checkpointing {
    Checkpointing { fold, cache_min_tokens: 1 }
}

#[test]
fn checkpoints_never_move_as_turns_are_appended() {
    let all = turns(&[]);
    let policy = FoldPolicy { threshold_tokens: 250, min_turns: 1, merge_tokens: NEVER_MERGE };
    let sizes = [100, 400, 50, 50, 50, 300, 10, 10, 10, 10];
    let mut last = Checkpoint::default();
    for n in 0..=all.len() {
        let c = checkpoint(&all[..n], LONG_RUN, how(policy), 0, |i| sizes[i], |r| r.len());
        assert!(c.segments.starts_with(&last.segments), "turn {n}: {c:?} after {last:?}");
        assert!(c.epoch == last.epoch || c.folded() == n, "a new checkpoint folds up to the latest turn");
        last = c;
    }
    // 100+400 > 250 at turn 2; 50+50+50+300 at turn 6; then only 40 pending.
    assert_eq!(last, Checkpoint { segments: vec![0..2, 2..6], epoch: 2 });
}

#[test]
fn hysteresis_and_failed_turns_delay_a_fold() {
    let big = |_| 1000;
    let every_third = FoldPolicy { threshold_tokens: 10, min_turns: 3, merge_tokens: NEVER_MERGE };
    let c = checkpoint(&turns(&[]), LONG_RUN, how(every_third), 0, big, |r| r.len());
    assert_eq!((c.folded(), c.epoch), (9, 3));
    // Turn 3 failed: the fold waits for turn 4.
    assert_eq!(checkpoint(&turns(&[3])[..4], LONG_RUN, how(every_third), 0, big, |r| r.len()).segments, vec![0..4]);
    assert_eq!(checkpoint(&turns(&[3])[..3], LONG_RUN, how(every_third), 0, big, |r| r.len()), Checkpoint::default());
}

#[test]
fn segments_merge_past_the_limit_when_merging_pays() {
    let policy = FoldPolicy { threshold_tokens: 250, min_turns: 1, merge_tokens: 25 };
    // Every summary is estimated at 20 tokens, however many turns it
    // holds: 0..3, then 3..6 passes 25 and both merge, then 6..9 too.
    let c = checkpoint(&turns(&[]), LONG_RUN, how(policy), 0, |_| 100, |_| 20);
    assert_eq!(c.segments, vec![0..9]);
    assert_eq!(c.epoch, 3, "three folds, the last two merging");
    let loose = FoldPolicy { merge_tokens: NEVER_MERGE, ..policy };
    assert_eq!(checkpoint(&turns(&[]), LONG_RUN, how(loose), 0, |_| 100, |_| 20).segments, vec![0..3, 3..6, 6..9]);
    // A merged summary as large as the segments together saves nothing.
    let c = checkpoint(&turns(&[]), LONG_RUN, how(policy), 0, |_| 100, |r| 10 * r.len());
    assert_eq!(c.segments, vec![0..3, 3..6, 6..9]);
}

#[test]
fn a_fold_that_cannot_pay_for_itself_is_left_out() {
    let policy = FoldPolicy { threshold_tokens: 250, min_turns: 1, merge_tokens: NEVER_MERGE };
    // 300 tokens folded into 60 saves 24 tokens of reads (at 0.1) per
    // later turn; writing 60 costs 75, and the half step of cached
    // prefix a rewrite loses 80 more: it pays from 7 turns left on.
    let at = |max_turns: u32, n: usize| checkpoint(&turns(&[])[..n], max_turns, how(policy), 0, |_| 100, |_| 60);
    assert_eq!(at(10, 3).segments, vec![0..3], "7 turns left after turn 3");
    assert_eq!(at(9, 3), Checkpoint::default(), "6 turns left");
    // A summary no smaller than what it folds never pays.
    assert_eq!(checkpoint(&turns(&[]), LONG_RUN, how(policy), 0, |_| 100, |r| 100 * r.len()), Checkpoint::default());
    let fold = |kept, before, after| Rewrite { kept, before, after };
    assert!(fold(0, 300, 60).pays(7, 1) && !fold(0, 300, 60).pays(6, 1) && !fold(0, 60, 300).pays(100, 1));
    // Never from a prompt that may be under the cache minimum (1,200
    // estimated tokens may be fewer than 1,024 real ones), however long
    // the run: the longer prompt is cached first.
    assert!(!fold(900, 300, 60).pays(100, 1024));
    assert!(!fold(1300, 300, 60).pays(100, 1024), "nor to one that may be under it");
    // Above it both ways, the usual trade.
    assert!(fold(2000, 300, 60).pays(7, 1024) && !fold(2000, 300, 60).pays(6, 1024));
}

#[test]
fn a_changed_block_before_a_breakpoint_is_named_unless_the_epoch_moved() {
    use crate::{Block, Stats};
    let prompt = |head: &str, tail: &[&str], epoch: i64| {
        let mut stats = Stats::new("t");
        stats.push_counter(CACHE_EPOCH, epoch);
        let mut blocks = vec![Block::new(head).breakpoint()];
        blocks.extend(tail.iter().map(|t| Block::new(*t)));
        Prompt::builder().system("s").message(Role::User, blocks).build(stats)
    };
    let a = prompt("head", &["t1"], 0);
    assert_eq!(check_cache_stable(&a, &prompt("head", &["t1", "t2"], 0)), Ok(()));
    let err = check_cache_stable(&a, &prompt("HEAD", &["t1"], 0)).unwrap_err();
    assert_eq!(err, CacheBreak { block: 1, message: 1, epoch: 0 });
    assert!(err.to_string().starts_with("block 1 (message 1) changed"), "{err}");
    assert_eq!(check_cache_stable(&a, &prompt("HEAD", &["t1"], 1)), Ok(()), "a checkpoint may rewrite");
    // Blocks after the last breakpoint may change freely.
    assert_eq!(check_cache_stable(&a, &prompt("head", &["other"], 0)), Ok(()));
}
