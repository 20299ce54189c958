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
//! merged into one (a rarer, larger rewrite). Every fold and merge must
//! also pay for itself: the reads it saves over the turns the run has left
//! must be worth more than writing the new summary ([`Rewrite::pays`],
//! priced at [`CACHE_READ_PRICE`] and [`CACHE_WRITE_PRICE`]).
//!
//! A strategy reports the checkpoint number as the [`CACHE_EPOCH`] counter:
//! the conformance suite checks that between two consecutive turns of the
//! same epoch, the prompt up to every breakpoint stays byte-identical.
//!
//! ```
//! use ptc_plugin_api::render::{checkpoint, Checkpointing, FoldPolicy};
//! use ptc_plugin_api::Turn;
//!
//! let turns: Vec<Turn> = (1..=9).map(|n| Turn::new(n, "answer", None)).collect();
//! let fold = FoldPolicy { threshold_tokens: 250, min_turns: 2, merge_tokens: 1000 };
//! let how = Checkpointing { fold, cache_min_tokens: 1024 };
//! // A 2,000-token system prompt and head; each turn adds 100 tokens: a
//! // fold after every third turn, each fold a segment of its own (a
//! // segment's summary is estimated at 60 tokens).
//! let c = checkpoint(&turns, 30, how, 2000, |_| 100, |_| 60);
//! assert_eq!((c.segments.clone(), c.epoch), (vec![0..3, 3..6, 6..9], 3));
//! assert_eq!(checkpoint(&turns[..8], 30, how, 2000, |_| 100, |_| 60).folded(), 6);
//! // In a run of 13 turns the fold after turn 9 would not pay for itself
//! // (4 turns left to save 24 tokens of reads each, against writing 60
//! // tokens and losing half an OpenAI cache step).
//! assert_eq!(checkpoint(&turns, 13, how, 2000, |_| 100, |_| 60).folded(), 6);
//! // Nor would one from a prompt that may be under the cache minimum (1,200
//! // estimated tokens may be fewer than 1,024 real ones).
//! assert_eq!(checkpoint(&turns, 30, how, 900, |_| 100, |_| 60).folded(), 0);
//! // Segments together over merge_tokens become one.
//! let tight = Checkpointing { fold: FoldPolicy { merge_tokens: 100, ..fold }, ..how };
//! assert_eq!(checkpoint(&turns, 30, tight, 2000, |_| 100, |_| 60).segments, vec![0..9]);
//! ```

use super::budget::estimate_text_tokens;
use super::history::verbatim_entry;
use super::prices;
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

/// What a provider charges, relative to its plain input price, for reading
/// a cached prefix: the cheapest read of the price table ([`PROVIDERS`](super::PROVIDERS);
/// Anthropic and OpenAI: 0.1).
pub const CACHE_READ_PRICE: f64 = prices::cheapest_read();

/// What it charges for writing a prefix to its cache: the dearest write of
/// the price table (Anthropic's 5-minute cache: 1.25; OpenAI does not
/// charge extra, so this errs on the side of folding less).
pub const CACHE_WRITE_PRICE: f64 = prices::dearest_write();

/// Providers cache no prefix shorter than this: the largest minimum of the
/// price table (Anthropic's larger models and OpenAI: 1,024 tokens;
/// Anthropic's Haiku models: 2,048, which a strategy sets with its
/// `cache_min_tokens` parameter).
pub const DEFAULT_CACHE_MIN_TOKENS: usize = prices::largest_cache_min();

/// The coarsest step in which a provider of the price table caches a
/// prefix (OpenAI's 128 tokens): a rewrite loses, on average, half a step
/// of cached tokens before the point it rewrites, which are then read at
/// the full price.
pub const CACHE_PREFIX_STEP: usize = prices::coarsest_step();

/// Estimates ([`estimate_text_tokens`]) run above the real token counts of
/// the text, by up to about a half on prompts of code and prose, and the
/// request a provider counts adds its own framing: a prompt is surely over
/// a provider's cache minimum only when its estimate is this many times it
/// (the other side, surely under it, is [`SURELY_UNCACHED_FACTOR`]).
pub const SURELY_CACHED_FACTOR: f64 = 1.5;

/// A transcript is surely under a provider's cache minimum only when its
/// estimate is this many times under it. The estimate is of the rendered
/// text; the provider counts the request that carries it, whose framing
/// (roles, JSON escapes of quotes and newlines) adds tokens: over every
/// full-history prompt of the corpus's short sessions, the estimate was
/// 0.88 to 1.24 times the request's count as `ptc compare` prices it
/// (`o200k_base`, Anthropic's request; 0.96 to 1.24 for OpenAI's), so
/// the count is at most 1.14 times the estimate. Smaller than
/// [`SURELY_CACHED_FACTOR`], which also covers rewrites: a prompt
/// compressed while it may already be cacheable loses a turn of cache
/// reads (at 1.0 the corpus's `tool-heavy-search` cost 106.6% of the full
/// history), one switched to the transcript too early pays the whole
/// transcript uncached.
pub const SURELY_UNCACHED_FACTOR: f64 = 1.15;

/// Whether a prompt of `estimate` estimated tokens is surely cached by a
/// provider whose minimum is `cache_min_tokens` real tokens.
pub fn surely_cached(estimate: usize, cache_min_tokens: usize) -> bool {
    estimate as f64 >= cache_min_tokens as f64 * SURELY_CACHED_FACTOR
}

/// A rewrite a cache-stable layout considers: the prompt keeps its first
/// `kept` tokens and replaces the `before` tokens after them by `after`
/// new ones (a fold, a merge, a slide, a summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// Tokens before the rewritten part, which stay (and stay cached).
    pub kept: usize,
    /// Tokens of the rewritten part now.
    pub before: usize,
    /// Tokens that replace them.
    pub after: usize,
}

impl Rewrite {
    /// Whether the rewrite pays for itself over the `turns_left` turns that
    /// would read the new prompt, on a provider that caches no prompt under
    /// `cache_min_tokens` (sizes are estimates: see [`surely_cached`]): the
    /// reads it saves (at [`CACHE_READ_PRICE`]) are worth more than writing
    /// the new part (at [`CACHE_WRITE_PRICE`]) plus the cached tokens the
    /// rewrite loses before it ([`CACHE_PREFIX_STEP`]).
    ///
    /// Never while the prompt may still be under the minimum: a longer
    /// prompt reaches it no later than a shorter one, and the turns a
    /// rewrite delays that by pay the whole prompt instead of a tenth of
    /// it. Nor when the new prompt may be under the minimum: every later
    /// turn would pay it in full.
    pub fn pays(self, turns_left: usize, cache_min_tokens: usize) -> bool {
        let (old, new) = (self.kept + self.before, self.kept + self.after);
        if !surely_cached(old, cache_min_tokens) || !surely_cached(new, cache_min_tokens) {
            return false;
        }
        let saved = (old as f64 - new as f64) * CACHE_READ_PRICE * turns_left as f64;
        let write = (self.after + CACHE_PREFIX_STEP / 2) as f64 * CACHE_WRITE_PRICE;
        saved > write
    }
}

/// Whether showing a turn in full once, after the cached prefix, then
/// appending its `entry` for the `turns_left` turns after, costs less than
/// appending its `full` form at once (which every later turn reads): the
/// full form is paid once uncached instead of written to the cache, and
/// the reads saved on `full - entry` tokens must pay for writing the entry
/// (prices [`CACHE_READ_PRICE`] and [`CACHE_WRITE_PRICE`]).
///
/// ```
/// use ptc_plugin_api::render::show_once_pays;
///
/// assert!(show_once_pays(400, 60, 10));
/// assert!(!show_once_pays(80, 60, 10), "a small turn is appended as it is");
/// assert!(!show_once_pays(400, 60, 0), "the last turn is never read again");
/// ```
pub fn show_once_pays(full: usize, entry: usize, turns_left: usize) -> bool {
    let (full, entry, left) = (full as f64, entry as f64, turns_left as f64);
    let once = full + entry * (CACHE_WRITE_PRICE + CACHE_READ_PRICE * left);
    let appended = full * (CACHE_WRITE_PRICE + CACHE_READ_PRICE * left);
    turns_left > 0 && once < appended
}

/// How a checkpointed layout folds, and under what size nothing is cached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpointing {
    /// When the turns since the last checkpoint fold.
    pub fold: FoldPolicy,
    /// Under this many estimated tokens no provider caches the prompt.
    pub cache_min_tokens: usize,
}

impl Checkpointing {
    /// Reads `fold_tokens`, `fold_min_turns`, `fold_merge_tokens` and
    /// `cache_min_tokens`, with `fold` and [`DEFAULT_CACHE_MIN_TOKENS`] for
    /// what is absent.
    pub fn from_params(params: &mut Params, fold: FoldPolicy) -> Result<Checkpointing, StrategyError> {
        Ok(Checkpointing {
            fold: FoldPolicy::from_params(params, fold)?,
            cache_min_tokens: params.positive("cache_min_tokens", DEFAULT_CACHE_MIN_TOKENS)?,
        })
    }
}

/// The checkpoint of `turns` under `how`, in a run of `max_turns`, for a
/// prompt that starts with `fixed` tokens which never change (system
/// prompt, head). `size(i)` estimates the tokens turn `i` (0-based) adds
/// while it is not folded, `frozen_size(range)` the tokens of the frozen
/// summary of those turns; both must depend on the turns up to their last
/// index only.
///
/// A fold happens after turn `i` when the turns since the last checkpoint
/// exceed the threshold, at least `min_turns` were added, turn `i`
/// succeeded (a failed turn stays out of a checkpoint until a later turn
/// succeeds, so its error stays shown), and the fold pays for itself
/// ([`Rewrite::pays`]) over the turns the run has left after it (a fold
/// near the end of a run, or one that takes the prompt under the cache
/// minimum, costs more than it saves). It adds a segment; when the
/// segments then pass `merge_tokens` and merging them pays too, they
/// become one. Whether a fold happens depends only on the turns up to it
/// and on `max_turns`, so appending turns never moves a checkpoint.
pub fn checkpoint(
    turns: &[Turn],
    max_turns: u32,
    how: Checkpointing,
    fixed: usize,
    size: impl Fn(usize) -> usize,
    frozen_size: impl Fn(Range<usize>) -> usize,
) -> Checkpoint {
    let mut folding = Folding::default();
    folding.extend(turns, max_turns, how, fixed, size, frozen_size);
    folding.at
}

/// [`checkpoint`]'s decisions over the turns it has seen, which later
/// turns continue (a fold depends only on the turns up to it).
#[derive(Clone, Debug, Default)]
pub(crate) struct Folding {
    at: Checkpoint,
    /// The estimated size of each frozen segment.
    sizes: Vec<usize>,
    /// Tokens and turns added since the last checkpoint.
    pending: usize,
    added: usize,
    /// Turns seen.
    seen: usize,
}

impl Folding {
    /// How many turns it has seen.
    pub(crate) fn seen(&self) -> usize {
        self.seen
    }

    /// The checkpoint of the turns seen.
    pub(crate) fn checkpoint(&self) -> &Checkpoint {
        &self.at
    }

    /// Sees the turns of `turns` after those it has seen (`turns` starts
    /// with them), turn `i` adding `size(i)` tokens while not folded.
    pub(crate) fn extend(
        &mut self,
        turns: &[Turn],
        max_turns: u32,
        how: Checkpointing,
        fixed: usize,
        size: impl Fn(usize) -> usize,
        frozen_size: impl Fn(Range<usize>) -> usize,
    ) {
        for (i, turn) in turns.iter().enumerate().skip(self.seen) {
            self.push(turn, max_turns, how, fixed, size(i), &frozen_size);
        }
    }

    /// Sees the next turn, which adds `size` tokens while not folded.
    fn push(
        &mut self,
        turn: &Turn,
        max_turns: u32,
        how: Checkpointing,
        fixed: usize,
        size: usize,
        frozen_size: impl Fn(Range<usize>) -> usize,
    ) {
        let (policy, i) = (how.fold, self.seen);
        self.seen += 1;
        self.pending += size;
        self.added += 1;
        if self.pending <= policy.threshold_tokens || self.added < policy.min_turns || !turn.success() {
            return;
        }
        let at = &mut self.at;
        // Turns i + 2 ..= max_turns read the folded prompt.
        let turns_left = (max_turns as usize).saturating_sub(i + 1);
        let segment = at.folded()..i + 1;
        let folded = frozen_size(segment.clone());
        let kept = fixed + self.sizes.iter().sum::<usize>();
        if !(Rewrite { kept, before: self.pending, after: folded }).pays(turns_left, how.cache_min_tokens) {
            return;
        }
        self.sizes.push(folded);
        at.segments.push(segment);
        at.epoch += 1;
        let total: usize = self.sizes.iter().sum();
        if at.segments.len() > 1 && total > policy.merge_tokens {
            let merged = frozen_size(0..i + 1);
            if (Rewrite { kept: fixed, before: total, after: merged }).pays(turns_left, how.cache_min_tokens) {
                at.segments = std::iter::once(0..i + 1).collect();
                self.sizes = vec![merged];
            }
        }
        (self.pending, self.added) = (0, 0);
    }
}

/// The entries a cache-stable layout appends, one per turn, each written
/// once and never changed: the smaller (by estimate) of the turn's own
/// `block(i)` and the turn verbatim ([`verbatim_entry`]), so the prompt
/// never grows faster than the full transcript. The second value of each
/// pair says whether the entry is the verbatim turn.
pub fn appended_entries(turns: &[Turn], mut block: impl FnMut(usize) -> String) -> Vec<(String, bool)> {
    turns.iter().enumerate().map(|(i, turn)| appended_entry(turn, block(i))).collect()
}

/// The entry [`appended_entries`] appends for `turn`, whose own block is
/// `own`.
pub(crate) fn appended_entry(turn: &Turn, own: String) -> (String, bool) {
    match verbatim_entry(turn) {
        Some(v) if estimate_text_tokens(&v) < estimate_text_tokens(&own) => (v, true),
        _ => (own, false),
    }
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
