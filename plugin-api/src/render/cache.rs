//! Keeping a prompt cache-stable.
//!
//! Providers bill a repeated prompt prefix at about a tenth of the price.
//! A strategy keeps that discount when its prompt changes only by appending,
//! except at rare **checkpoints** where it folds the turns since the last
//! one into a frozen summary. [`checkpoint`] decides where those are, from
//! the turn history alone and turn by turn from the start, so that
//! appending a turn never moves an earlier checkpoint (rendering stays a
//! pure function of the request, and prompts between two checkpoints only
//! grow at the end).
//!
//! Frozen summaries are kept as **segments**, like the levels of an
//! LSM tree: a fold adds one segment for the turns since the previous
//! fold, so the segments before it, and the prompt up to them, stay
//! cached; only when the segments together pass `merge_tokens` are they
//! merged into one (a rarer, larger rewrite).
//!
//! A strategy reports the checkpoint number as the [`CACHE_EPOCH`] counter:
//! the conformance suite checks that between two consecutive turns of the
//! same epoch, the prompt up to every breakpoint stays byte-identical.
//!
//! ```
//! use ptc_plugin_api::render::{checkpoint, FoldPolicy};
//! use ptc_plugin_api::Turn;
//!
//! let turns: Vec<Turn> = (1..=9).map(|n| Turn::new(n, "answer", None)).collect();
//! let policy = FoldPolicy { threshold_tokens: 250, min_turns: 2, merge_tokens: 1000 };
//! // Each turn adds 100 tokens: a fold after every third turn, each fold a
//! // segment of its own (a segment's summary is estimated at 60 tokens).
//! let c = checkpoint(&turns, 0, policy, |_| 100, |_| 60);
//! assert_eq!((c.segments.clone(), c.epoch), (vec![0..3, 3..6, 6..9], 3));
//! assert_eq!(checkpoint(&turns[..8], 0, policy, |_| 100, |_| 60).folded(), 6);
//! // Segments of 400 tokens each pass merge_tokens at the third fold.
//! assert_eq!(checkpoint(&turns, 0, policy, |_| 100, |_| 400).segments, vec![0..9]);
//! ```

use crate::prompt::Prompt;
use crate::request::Turn;
use crate::sdk::Params;
use crate::{Role, StrategyError};
use std::fmt;
use std::ops::Range;

/// Counter a cache-aware strategy reports: how many times its stable
/// prefix has been rewritten (checkpoints so far). Equal on two consecutive
/// turns means the later prompt only appended to the earlier one.
pub const CACHE_EPOCH: &str = "cache_epoch";

/// When the turns since the last checkpoint are folded into a new frozen
/// segment, and when the segments are merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoldPolicy {
    /// Fold once the turns since the last checkpoint are estimated above
    /// this many tokens...
    pub threshold_tokens: usize,
    /// ...and at least this many turns were added since (hysteresis: a run
    /// of large turns does not rewrite the prefix every turn).
    pub min_turns: usize,
    /// Merge the frozen segments into one when together they are estimated
    /// above this many tokens.
    pub merge_tokens: usize,
}

impl FoldPolicy {
    /// Reads `fold_tokens`, `fold_min_turns` and `fold_merge_tokens`
    /// (positive integers), with `default` for what is absent.
    pub fn from_params(params: &mut Params, default: FoldPolicy) -> Result<FoldPolicy, StrategyError> {
        Ok(FoldPolicy {
            threshold_tokens: params.positive("fold_tokens", default.threshold_tokens)?,
            min_turns: params.positive("fold_min_turns", default.min_turns)?,
            merge_tokens: params.positive("fold_merge_tokens", default.merge_tokens)?,
        })
    }
}

/// Where the history is checkpointed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Checkpoint {
    /// The frozen segments, in order: contiguous ranges of turn indices
    /// from 0 (none yet: empty).
    pub segments: Vec<Range<usize>>,
    /// How many folds and merges led there ([`CACHE_EPOCH`]).
    pub epoch: u32,
}

impl Checkpoint {
    /// How many leading turns are folded.
    pub fn folded(&self) -> usize {
        self.segments.last().map_or(0, |r| r.end)
    }
}

/// The checkpoint of `turns` under `policy`. The first `start` turns are
/// folded at once (a first checkpoint the strategy chose; 0 for none).
/// `size(i)` estimates the tokens turn `i` (0-based) adds while it is not
/// folded, `frozen_size(range)` the tokens of the frozen summary of those
/// turns; both must depend on the turns up to their last index only.
///
/// A fold happens after turn `i` when the turns since the last checkpoint
/// exceed the threshold, at least `min_turns` were added, and turn `i`
/// succeeded (a failed turn stays out of a checkpoint until a later turn
/// succeeds, so its error stays shown). It adds a segment; when the
/// segments then pass `merge_tokens`, they become one.
pub fn checkpoint(
    turns: &[Turn],
    start: usize,
    policy: FoldPolicy,
    size: impl Fn(usize) -> usize,
    frozen_size: impl Fn(Range<usize>) -> usize,
) -> Checkpoint {
    let start = start.min(turns.len());
    let mut at = Checkpoint::default();
    let mut sizes: Vec<usize> = Vec::new();
    if start > 0 {
        at = Checkpoint { segments: std::iter::once(0..start).collect(), epoch: 1 };
        sizes.push(frozen_size(0..start));
    }
    let (mut pending, mut added) = (0usize, 0usize);
    for (i, turn) in turns.iter().enumerate().skip(start) {
        pending += size(i);
        added += 1;
        if pending > policy.threshold_tokens && added >= policy.min_turns && turn.success() {
            let segment = at.folded()..i + 1;
            sizes.push(frozen_size(segment.clone()));
            at.segments.push(segment);
            at.epoch += 1;
            if at.segments.len() > 1 && sizes.iter().sum::<usize>() > policy.merge_tokens {
                at.segments = std::iter::once(0..i + 1).collect();
                sizes = vec![frozen_size(0..i + 1)];
            }
            (pending, added) = (0, 0);
        }
    }
    at
}

/// The [`CACHE_EPOCH`] a prompt's stats report (0 when they report none).
pub fn cache_epoch(prompt: &Prompt) -> i64 {
    prompt.stats().counters().iter().find(|c| c.name() == CACHE_EPOCH).map_or(0, |c| c.value())
}

/// A prompt changed a block it had asked to keep, without reporting a
/// checkpoint ([`check_cache_stable`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheBreak {
    /// The first block that changed, counted over the whole prompt.
    pub block: usize,
    /// The message it sits in.
    pub message: usize,
    /// The [`CACHE_EPOCH`] both prompts reported.
    pub epoch: i64,
}

impl fmt::Display for CacheBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "block {} (message {}) changed although it lies before a breakpoint and no checkpoint was reported ({CACHE_EPOCH} {})",
            self.block, self.message, self.epoch
        )
    }
}

impl std::error::Error for CacheBreak {}

/// Checks that `next`, the prompt of the turn after `prev`'s, keeps what
/// `prev` asked to keep: unless the [`CACHE_EPOCH`] changed (a checkpoint),
/// the blocks up to each of `prev`'s breakpoints come back unchanged, in
/// the same messages with the same roles. The error names the first block
/// that changed.
pub fn check_cache_stable(prev: &Prompt, next: &Prompt) -> Result<(), CacheBreak> {
    if cache_epoch(prev) != cache_epoch(next) {
        return Ok(());
    }
    let blocks = |p: &Prompt| -> Vec<(usize, Role, String, bool)> {
        (0..p.messages().len())
            .flat_map(|i| {
                let role = p.messages()[i].role();
                p.blocks(i).map(move |b| (i, role, b.text.to_string(), b.breakpoint)).collect::<Vec<_>>()
            })
            .collect()
    };
    let (before, after) = (blocks(prev), blocks(next));
    let Some(last) = before.iter().rposition(|b| b.3) else { return Ok(()) };
    for (k, block) in before[..=last].iter().enumerate() {
        let same = after.get(k).is_some_and(|b| (b.0, b.1, &b.2) == (block.0, block.1, &block.2));
        if !same {
            return Err(CacheBreak { block: k, message: block.0, epoch: cache_epoch(prev) });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TurnError;

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

    #[test]
    fn checkpoints_never_move_as_turns_are_appended() {
        let all = turns(&[]);
        let policy = FoldPolicy { threshold_tokens: 250, min_turns: 1, merge_tokens: NEVER_MERGE };
        let sizes = [100, 400, 50, 50, 50, 300, 10, 10, 10, 10];
        let mut last = Checkpoint::default();
        for n in 0..=all.len() {
            let c = checkpoint(&all[..n], 0, policy, |i| sizes[i], |r| r.len());
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
        let c = checkpoint(&turns(&[]), 0, every_third, big, |r| r.len());
        assert_eq!((c.folded(), c.epoch), (9, 3));
        // Turn 3 failed: the fold waits for turn 4.
        assert_eq!(checkpoint(&turns(&[3])[..4], 0, every_third, big, |r| r.len()).segments, vec![0..4]);
        assert_eq!(checkpoint(&turns(&[3])[..3], 0, every_third, big, |r| r.len()), Checkpoint::default());
    }

    #[test]
    fn a_start_is_the_first_segment_and_segments_merge_past_the_limit() {
        let policy = FoldPolicy { threshold_tokens: 250, min_turns: 1, merge_tokens: 25 };
        // Segments estimated at 10 tokens per turn: 0..4 (40) then 4..7 merge.
        let c = checkpoint(&turns(&[]), 4, policy, |_| 100, |r| 10 * r.len());
        assert_eq!(c.segments, vec![0..10]);
        assert_eq!(c.epoch, 1 + 2, "the start, then two folds (each merging)");
        let loose = FoldPolicy { merge_tokens: NEVER_MERGE, ..policy };
        assert_eq!(checkpoint(&turns(&[]), 4, loose, |_| 100, |r| r.len()).segments, vec![0..4, 4..7, 7..10]);
        assert_eq!(checkpoint(&turns(&[])[..2], 4, loose, |_| 100, |r| r.len()).segments, vec![0..2]);
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
}
