//! Keeping a prompt cache-stable.
//!
//! Providers bill a repeated prompt prefix at about a tenth of the price.
//! A strategy keeps that discount when its prompt changes only by appending,
//! except at rare **checkpoints** where it folds the turns since the last
//! one into a new summary. [`checkpoint`] decides where those are, from the
//! turn history alone and turn by turn from the start, so that appending a
//! turn never moves an earlier checkpoint (rendering stays a pure function
//! of the request, and prompts between two checkpoints only grow at the
//! end).
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
//! let policy = FoldPolicy { threshold_tokens: 250, min_turns: 2 };
//! // Each turn adds 100 tokens: a fold after every third turn.
//! let c = checkpoint(&turns, policy, |_| 100);
//! assert_eq!((c.folded, c.epoch), (9, 3));
//! assert_eq!(checkpoint(&turns[..8], policy, |_| 100).folded, 6);
//! ```

use crate::prompt::Prompt;
use crate::request::Turn;
use crate::sdk::Params;
use crate::{Role, StrategyError};

/// Counter a cache-aware strategy reports: how many times its stable
/// prefix has been rewritten (checkpoints so far). Equal on two consecutive
/// turns means the later prompt only appended to the earlier one.
pub const CACHE_EPOCH: &str = "cache_epoch";

/// When the turns since the last checkpoint are folded into a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoldPolicy {
    /// Fold once the turns since the last checkpoint are estimated above
    /// this many tokens...
    pub threshold_tokens: usize,
    /// ...and at least this many turns were added since (hysteresis: a run
    /// of large turns does not rewrite the prefix every turn).
    pub min_turns: usize,
}

impl FoldPolicy {
    /// Reads `fold_tokens` and `fold_min_turns` (positive integers), with
    /// `default` for what is absent.
    pub fn from_params(params: &mut Params, default: FoldPolicy) -> Result<FoldPolicy, StrategyError> {
        Ok(FoldPolicy {
            threshold_tokens: params.positive("fold_tokens", default.threshold_tokens)?,
            min_turns: params.positive("fold_min_turns", default.min_turns)?,
        })
    }
}

/// Where the history is checkpointed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Checkpoint {
    /// How many leading turns are folded (0: none yet).
    pub folded: usize,
    /// How many folds led there ([`CACHE_EPOCH`]).
    pub epoch: u32,
}

/// The latest checkpoint of `turns` under `policy`. `size(i)` estimates the
/// tokens turn `i` (0-based) adds to the prompt while it is not folded; it
/// must depend on turns `0..=i` only. A fold happens after turn `i` when the
/// turns since the last checkpoint exceed the threshold, at least
/// `min_turns` were added, and turn `i` succeeded (a failed turn stays out
/// of a checkpoint until a later turn succeeds, so its error stays shown).
pub fn checkpoint(turns: &[Turn], policy: FoldPolicy, size: impl Fn(usize) -> usize) -> Checkpoint {
    checkpoints(turns, policy, size).last().map_or(Checkpoint::default(), |(c, _)| c)
}

/// The checkpoint after each turn of `turns`, in order, with the estimated
/// tokens of the turns since it ([`checkpoint`] of every prefix, in one pass).
pub fn checkpoints<'t>(
    turns: &'t [Turn],
    policy: FoldPolicy,
    size: impl Fn(usize) -> usize + 't,
) -> impl Iterator<Item = (Checkpoint, usize)> + 't {
    let mut at = Checkpoint::default();
    let (mut pending, mut added) = (0usize, 0usize);
    turns.iter().enumerate().map(move |(i, turn)| {
        pending += size(i);
        added += 1;
        if pending > policy.threshold_tokens && added >= policy.min_turns && turn.success() {
            at = Checkpoint { folded: i + 1, epoch: at.epoch + 1 };
            (pending, added) = (0, 0);
        }
        (at, pending)
    })
}

/// The [`CACHE_EPOCH`] a prompt's stats report (0 when they report none).
pub fn cache_epoch(prompt: &Prompt) -> i64 {
    prompt.stats().counters().iter().find(|c| c.name() == CACHE_EPOCH).map_or(0, |c| c.value())
}

/// Checks that `next`, the prompt of the turn after `prev`'s, keeps what
/// `prev` asked to keep: unless the [`CACHE_EPOCH`] changed (a checkpoint),
/// the blocks up to each of `prev`'s breakpoints come back unchanged, in
/// the same messages with the same roles. The error names the first block
/// that changed.
pub fn check_cache_stable(prev: &Prompt, next: &Prompt) -> Result<(), String> {
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
            return Err(format!(
                "block {k} (message {}) changed although it lies before a breakpoint and no checkpoint was reported ({CACHE_EPOCH} {})",
                block.0,
                cache_epoch(prev)
            ));
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

    #[test]
    fn checkpoints_never_move_as_turns_are_appended() {
        let all = turns(&[]);
        let policy = FoldPolicy { threshold_tokens: 250, min_turns: 1 };
        let sizes = [100, 400, 50, 50, 50, 300, 10, 10, 10, 10];
        let mut last = Checkpoint::default();
        for n in 0..=all.len() {
            let c = checkpoint(&all[..n], policy, |i| sizes[i]);
            assert!(c.folded >= last.folded && c.epoch >= last.epoch, "turn {n}: {c:?} after {last:?}");
            assert!(c.epoch == last.epoch || c.folded == n, "a new checkpoint folds up to the latest turn");
            last = c;
        }
        // 100+400 > 250 at turn 2; 50+50+50+300 at turn 6; then only 40 pending.
        assert_eq!(last, Checkpoint { folded: 6, epoch: 2 });
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
        assert!(err.starts_with("block 1 (message 1) changed"), "{err}");
        assert_eq!(check_cache_stable(&a, &prompt("HEAD", &["t1"], 1)), Ok(()), "a checkpoint may rewrite");
        // Blocks after the last breakpoint may change freely.
        assert_eq!(check_cache_stable(&a, &prompt("head", &["other"], 0)), Ok(()));
    }

    #[test]
    fn hysteresis_and_failed_turns_delay_a_fold() {
        let big = |_| 1000;
        let every_third = FoldPolicy { threshold_tokens: 10, min_turns: 3 };
        assert_eq!(checkpoint(&turns(&[]), every_third, big), Checkpoint { folded: 9, epoch: 3 });
        // Turn 3 failed: the fold waits for turn 4.
        assert_eq!(checkpoint(&turns(&[3])[..4], every_third, big), Checkpoint { folded: 4, epoch: 1 });
        assert_eq!(checkpoint(&turns(&[3])[..3], every_third, big), Checkpoint::default());
    }
}
