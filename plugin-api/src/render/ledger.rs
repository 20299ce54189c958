//! The checkpointed layout: one cache-stable prompt shape that a strategy
//! fills with its own turn blocks and summaries.
//!
//! ```text
//! SYSTEM  the system prompt
//! USER    the head (mission, tool/, data/: the turn-1 message's)   <- breakpoint
//!         frozen segment: summary of turns 1..a                      (<- breakpoint on the last)
//!         frozen segment: summary of turns a+1..b
//!         entry of turn b+1          appended once, never changed
//!         ...
//!         entry of turn n                                           <- breakpoint
//!         turn n+1, only if it failed: program and error (next turn: gone)
//!         Turns left: ...
//! ```
//!
//! With [`Recent`], the latest turns are shown in full after the
//! breakpoint, and (with [`Recent::block_first`]) a latest turn's entry is
//! appended before it at once, followed only by what its full form adds.
//!
//! Three rules keep it cheap under prompt caching (see [`super::cache`]):
//!
//! - **Until the prompt is cacheable it is the full transcript.** No
//!   provider caches a prompt under its minimum (`cache_min_tokens`,
//!   1,024 tokens for Anthropic's and OpenAI's larger models), so there
//!   every token is paid in full whatever the layout; the full transcript
//!   reaches the minimum no later than any shorter form, and from then on
//!   is read at a tenth of the price. The leading turns that kept the
//!   transcript under the minimum stay as its ASSISTANT / USER pairs, and
//!   later entries are appended to the last feedback message.
//! - **An entry is the smaller of the turn verbatim and the strategy's
//!   block** ([`appended_entries`]), so the prompt never grows faster than
//!   the full transcript.
//! - **A fold (a new frozen segment) must pay for itself**
//!   ([`checkpoint`]).
//! - **A failed turn is shown only while it is the latest**, after the
//!   last breakpoint (the latest-error rule needs it; nothing later does,
//!   as in the spec layouts, which collapse earlier failures).
//!
//! ```
//! use ptc_plugin_api::render::{checkpointed_prompt, Checkpointing, FoldPolicy};
//! use ptc_plugin_api::{RenderRequest, Turn};
//!
//! let mut req = RenderRequest::new("Count the orders", "system", 5);
//! req.push_turn(Turn::new(1, "```clojure\n(+ 1 2)\n```", Some("(+ 1 2)".into())));
//! let how = Checkpointing { fold: FoldPolicy { threshold_tokens: 600, min_turns: 4, merge_tokens: 1200 }, cache_min_tokens: 1 };
//! let block = |i: usize, _: &mut _| format!(";; turn {}: {}", i + 1, "a block longer than the turn itself ".repeat(3));
//! let prompt = checkpointed_prompt(&req, "demo", how, block, |r, _| format!(";; turns {r:?}"));
//! // The head, then the turn (its answer is shorter than the block), then the turn info.
//! assert!(prompt.messages()[1].content().starts_with("Count the orders\n\n"));
//! assert!(prompt.messages()[1].content().contains(";; --- turn 1 ---\n```clojure\n(+ 1 2)\n```\nuser=> nil"));
//! assert!(prompt.messages()[1].content().ends_with("Turns left: 4"));
//! ```

use super::budget::{estimate_text_tokens, ESTIMATE_MESSAGE_OVERHEAD};
use super::cache::{
    appended_entry, checkpoint, surely_cached, Checkpoint, Checkpointing, CACHE_EPOCH, CACHE_READ_PRICE,
    CACHE_WRITE_PRICE, SURELY_UNCACHED_FACTOR,
};
use super::history::{count_verbatim_entry, feedback_message, first_user_blocks, transcript_tokens};
use super::sections::{contains_symbol, first_user_parts, turn_info};
use crate::output::{Role, Stats};
use crate::prompt::{Block, Prompt};
use crate::request::{RenderRequest, Turn};
use std::collections::HashMap;
use std::ops::Range;

/// Estimated tokens turn `turn` adds to the full transcript (its answer and
/// its feedback, each a message).
fn transcript_size(turn: &Turn, max_turns: u32) -> usize {
    transcript_tokens(turn, max_turns) + 2 * ESTIMATE_MESSAGE_OVERHEAD
}

/// How many leading turns stay as the full transcript: those that kept it
/// from being surely cached ([`surely_cached`]), each showing what the layout must
/// show of it (the names it defined; a failed turn's program).
fn transcript_turns(req: &RenderRequest, cache_min_tokens: usize) -> usize {
    let turns = req.turns();
    let [head, info] = first_user_parts(req);
    let mut size: usize =
        [req.system_prompt(), head.as_str(), info.as_str()].iter().map(|t| estimate_text_tokens(t)).sum();
    let mut k = 0;
    while k < turns.len() && !surely_cached(size, cache_min_tokens) {
        let turn = &turns[k];
        let raw = turn.raw_response();
        let shown = match turn.error() {
            Some(_) => turn.program().is_none_or(|p| raw.contains(p)),
            None => turn.definitions().iter().all(|d| contains_symbol(raw, d.name())),
        };
        if !shown {
            break;
        }
        size += transcript_size(turn, req.max_turns());
        k += 1;
    }
    k
}

/// Whether the full transcript of `req` is surely under the cache minimum
/// (its estimate [`SURELY_UNCACHED_FACTOR`] times under it), so no layout
/// of this request is cached and a shorter one is cheaper.
fn surely_uncached(req: &RenderRequest, cache_min_tokens: usize) -> bool {
    let [head, info] = first_user_parts(req);
    let fixed: usize =
        [req.system_prompt(), head.as_str(), info.as_str()].iter().map(|t| estimate_text_tokens(t)).sum();
    let under = |size: usize| (size as f64) * SURELY_UNCACHED_FACTOR < cache_min_tokens as f64;
    // Summed turn by turn, up to the first that passes (the sum only grows).
    let mut size = fixed;
    req.turns().iter().all(|t| {
        size += transcript_size(t, req.max_turns());
        under(size)
    }) && under(size)
}

/// What a checkpointed layout shows of the latest turns, and whether it
/// starts as the full transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recent {
    /// The latest this many turns are shown in full (the strategy's
    /// `latest` form, or the turn verbatim when that is smaller) after the
    /// last breakpoint; a turn's entry is appended once it leaves them. 0:
    /// every successful turn is appended as its entry at once, and only a
    /// failed latest turn is shown after the breakpoint.
    pub turns: usize,
    /// Whether the leading turns stay the full transcript until the prompt
    /// is surely cached (a longer prompt is cached first). `false`: entries
    /// from the first turn on.
    pub transcript_until_cached: bool,
    /// With `transcript_until_cached`: while the whole transcript is surely
    /// under the cache minimum, nothing is cached whatever the layout, so
    /// the prompt is compressed (no transcript); from the turn it may be
    /// cached on, its leading turns are the transcript (a free switch:
    /// nothing was cached before it).
    pub compress_while_uncached: bool,
    /// Whether a turn is appended verbatim when that is smaller than its
    /// block. `false` for blocks that must be shown as they are (a fact
    /// memory's, which no later entry repeats).
    pub verbatim_entries: bool,
    /// Whether a turn shown in full has its block appended before the
    /// last breakpoint at once, and after it only the lines of its full
    /// form the block lacks (the first line, which names the turn, and a
    /// `;;` label over a kept line stay), when that costs less than the
    /// full form alone ([`RUN_END_ODDS`]): the block is written to the
    /// cache a turn early, and the lines both show are not paid again
    /// uncached.
    pub block_first: bool,
}

impl Recent {
    /// [`checkpointed_prompt`]'s choice: no turn in full, the transcript
    /// until cached.
    pub const NONE: Recent = Recent {
        turns: 0,
        transcript_until_cached: true,
        compress_while_uncached: false,
        verbatim_entries: true,
        block_first: false,
    };

    /// The latest `turns` turns in full, blocks appended as they are,
    /// compressed while nothing is cached: what a fact memory needs.
    pub fn new(turns: usize) -> Recent {
        Recent {
            turns,
            transcript_until_cached: true,
            compress_while_uncached: true,
            verbatim_entries: false,
            block_first: false,
        }
    }
}

/// Renders `req` in the checkpointed layout of strategy `name`, its USER
/// message starting with the turn-1 message's head (so turn 1's cache entry
/// is kept). `block(i, stats)` is the strategy's own block for turn `i`
/// (0-based; it must depend on turns `..=i` only), `frozen(range, stats)`
/// its summary of a range of turns. Both count what they show in `stats`.
/// The stats report [`CACHE_EPOCH`], `turns_folded`, `frozen_segments` and
/// `turns_verbatim`; `turns_compressed` counts the successful turns shown
/// as a block or inside a summary, not verbatim. The same as
/// [`checkpointed_prompt_with`] with [`Recent::NONE`].
pub fn checkpointed_prompt(
    req: &RenderRequest,
    name: &str,
    how: Checkpointing,
    block: impl Fn(usize, &mut Stats) -> String,
    frozen: impl Fn(Range<usize>, &mut Stats) -> String,
) -> Prompt {
    checkpointed_prompt_with(req, name, how, Recent::NONE, &block, frozen, &block)
}

/// [`checkpointed_prompt`] with the latest turns shown in full: the latest
/// `recent.turns` turns as `latest(i, stats)` (or verbatim, when smaller)
/// after the last breakpoint, where they are paid once each, uncached,
/// while what stays in the cached prefix is the strategy's `block`, which
/// can then be far terser (what a later turn needs of it, not all it
/// showed). A failed turn among them is shown only while it is the latest.
/// A successful turn whose `block` equals its `latest` form (a strategy's
/// choice when the full form is about as small: [`show_once_pays`](crate::render::show_once_pays)) is
/// appended at once, with the turns before it.
pub fn checkpointed_prompt_with(
    req: &RenderRequest,
    name: &str,
    how: Checkpointing,
    recent: Recent,
    block: impl Fn(usize, &mut Stats) -> String,
    frozen: impl Fn(Range<usize>, &mut Stats) -> String,
    latest: impl Fn(usize, &mut Stats) -> String,
) -> Prompt {
    checkpointed(req, name, how, recent, &Closures { block, frozen, latest })
}

/// What a strategy fills the checkpointed layout with (the arguments of
/// [`checkpointed_prompt_with`]), and the sizes and checkpoint made of
/// them, which a strategy may keep between renders instead of computing
/// them again (the memo's `Memoized` wraps a layout's parts so).
pub(crate) trait Parts {
    /// Turn `i`'s block (from turns `..=i` only), counted in `stats`.
    fn block(&self, i: usize, stats: &mut Stats) -> String;
    /// The frozen summary of `range`, counted in `stats`.
    fn frozen(&self, range: Range<usize>, stats: &mut Stats) -> String;
    /// Turn `i` shown in full while it is among the latest.
    fn latest(&self, i: usize, stats: &mut Stats) -> String;

    /// What turn `i` shown in full adds to its `block`, when the block is
    /// appended first ([`Recent::block_first`]): the lines of
    /// [`Parts::latest`] the block lacks.
    fn beyond_block(&self, i: usize, block: &str) -> String {
        lines_beyond(&self.latest(i, &mut Stats::default()), block)
    }

    /// The estimated size of [`Parts::block`].
    fn block_size(&self, i: usize) -> usize {
        estimate_text_tokens(&self.block(i, &mut Stats::default()))
    }

    /// The estimated size of [`Parts::frozen`].
    fn frozen_size(&self, range: Range<usize>) -> usize {
        estimate_text_tokens(&self.frozen(range, &mut Stats::default()))
    }

    /// The entry appended for `turn` (index `i`): the smaller of its block
    /// and the turn verbatim ([`appended_entry`]), and whether it is the
    /// turn verbatim.
    fn appended(&self, turn: &Turn, i: usize) -> (String, bool) {
        appended_entry(turn, self.block(i, &mut Stats::default()))
    }

    /// The estimated size of [`Parts::appended`].
    fn appended_size(&self, turn: &Turn, i: usize) -> usize {
        estimate_text_tokens(&self.appended(turn, i).0)
    }

    /// The [`checkpoint`] of `turns` (those before the turns shown in
    /// full) in a layout whose first `transcript` turns are the transcript,
    /// turn `i` adding `size(i)` tokens.
    fn checkpoint(
        &self,
        req: &RenderRequest,
        turns: &[Turn],
        how: Checkpointing,
        _transcript: usize,
        size: &dyn Fn(usize) -> usize,
    ) -> Checkpoint {
        checkpoint(turns, req.max_turns(), how, fixed_size(req), size, |r| self.frozen_size(r))
    }
}

/// The three functions of [`checkpointed_prompt_with`] as [`Parts`].
pub(crate) struct Closures<B, F, L> {
    pub(crate) block: B,
    pub(crate) frozen: F,
    pub(crate) latest: L,
}

impl<B, F, L> Parts for Closures<B, F, L>
where
    B: Fn(usize, &mut Stats) -> String,
    F: Fn(Range<usize>, &mut Stats) -> String,
    L: Fn(usize, &mut Stats) -> String,
{
    fn block(&self, i: usize, stats: &mut Stats) -> String {
        (self.block)(i, stats)
    }
    fn frozen(&self, range: Range<usize>, stats: &mut Stats) -> String {
        (self.frozen)(range, stats)
    }
    fn latest(&self, i: usize, stats: &mut Stats) -> String {
        (self.latest)(i, stats)
    }
}

/// The estimated tokens of what a checkpointed prompt starts with and
/// never changes: the system prompt and the head.
pub(crate) fn fixed_size(req: &RenderRequest) -> usize {
    estimate_text_tokens(req.system_prompt()) + estimate_text_tokens(&first_user_parts(req)[0])
}

/// [`checkpointed_prompt_with`] filled with `parts`.
pub(crate) fn checkpointed(
    req: &RenderRequest,
    name: &str,
    how: Checkpointing,
    recent: Recent,
    parts: &impl Parts,
) -> Prompt {
    let turns = req.turns();
    let transcript = match recent.transcript_until_cached {
        true if recent.compress_while_uncached && surely_uncached(req, how.cache_min_tokens) => 0,
        true => transcript_turns(req, how.cache_min_tokens),
        false => 0,
    };
    // Turns from `in_full` on are shown in full after the breakpoint; the
    // ones before are the transcript, frozen segments or entries. A latest
    // turn whose entry is its full form is an entry at once.
    let mut in_full = turns.len().saturating_sub(recent.turns).max(transcript.min(turns.len()));
    while in_full < turns.len()
        && turns[in_full].success()
        && parts.block(in_full, &mut Stats::default()) == parts.latest(in_full, &mut Stats::default())
    {
        in_full += 1;
    }
    // The entry appended for turn `i`, and whether it is the turn verbatim.
    let entry = |i: usize| match recent.verbatim_entries {
        true => parts.appended(&turns[i], i),
        false => (parts.block(i, &mut Stats::default()), false),
    };
    // A failed turn is shown only while it is the latest, after the last
    // breakpoint: it adds nothing to what later turns keep.
    let size = |i: usize| {
        if i < transcript {
            transcript_size(&turns[i], req.max_turns())
        } else if !turns[i].success() {
            0
        } else if recent.verbatim_entries {
            parts.appended_size(&turns[i], i)
        } else {
            parts.block_size(i)
        }
    };
    let at = parts.checkpoint(req, &turns[..in_full], how, transcript, &size);
    let mut stats = Stats::new(name);
    let mut prompt = Prompt::builder().system(req.system_prompt());
    // The open USER message, which later entries extend, and the first
    // turn shown as an entry.
    let (mut open, first_entry, mut verbatim) = if at.segments.is_empty() && transcript > 0 {
        // The full transcript of the leading turns; its last feedback opens
        // the message the entries extend.
        prompt.push(Role::User, first_user_blocks(req));
        let mut open = Vec::new();
        for (i, turn) in turns[..transcript].iter().enumerate() {
            prompt.push(Role::Assistant, [Block::new(turn.raw_response())]);
            let feedback = Block::new(feedback_message(turn, req.max_turns()));
            if i + 1 < transcript {
                prompt.push(Role::User, [feedback]);
            } else {
                open = vec![feedback];
            }
            if turn.success() {
                count_verbatim_entry(turn, &mut stats);
            }
        }
        (open, transcript, transcript)
    } else {
        let [head, _] = first_user_parts(req);
        let mut open = vec![Block::new(head).breakpoint()];
        for (k, segment) in at.segments.iter().enumerate() {
            let text = parts.frozen(segment.clone(), &mut stats);
            open.push(Block::new(text).with_breakpoint(k + 1 == at.segments.len()));
        }
        stats.error_turns_collapsed += turns[..at.folded()].iter().filter(|t| !t.success()).count() as u32;
        (open, at.folded(), 0)
    };
    let folded = turns[..first_entry.min(at.folded())].iter().filter(|t| t.success()).count();
    stats.turns_compressed += folded as u32;
    let mut latest_error = None;
    for i in first_entry..in_full {
        if !turns[i].success() {
            if i + 1 == turns.len() {
                latest_error = Some(entry(i).0);
            } else {
                stats.error_turns_collapsed += 1;
            }
            continue;
        }
        let (entry, is_verbatim) = entry(i);
        if is_verbatim {
            count_verbatim_entry(&turns[i], &mut stats);
            verbatim += 1;
        } else {
            // The same text as the entry, rendered again to count what it shows.
            parts.block(i, &mut stats);
            stats.turns_compressed += 1;
        }
        open.push(Block::new(format!("{entry}\n\n")));
    }
    if first_entry == turns.len() && transcript > 0 && at.segments.is_empty() {
        // Only the transcript: its last feedback ends with this turn's info.
        prompt.push(Role::User, open);
        prompt = prompt.breakpoint_here();
    } else {
        // A turn shown in full whose block goes first: the block joins
        // what the next turn keeps, only what it lacks comes after.
        let from = in_full.max(first_entry);
        let beyond: Vec<Option<String>> = (from..turns.len())
            .map(|i| {
                let (block, rest) = block_first(req, recent, parts, i, &entry)?;
                open.push(Block::new(format!("{block}\n\n")));
                Some(rest)
            })
            .collect();
        // The end of what the next turn keeps (the head alone on turn 1),
        // then the turns shown in full, then this turn's info.
        if let Some(last) = open.last_mut() {
            *last = last.clone().breakpoint();
        }
        if let Some(error) = latest_error {
            // The latest turn failed: its program and error, shown this
            // turn only (the next one shows its own outcome instead).
            parts.block(turns.len() - 1, &mut stats);
            open.push(Block::new(format!("{error}\n\n")));
        }
        for (i, turn) in turns.iter().enumerate().skip(from) {
            if !turn.success() && i + 1 < turns.len() {
                stats.error_turns_collapsed += 1;
                continue;
            }
            if let Some(rest) = &beyond[i - from] {
                parts.latest(i, &mut stats);
                stats.turns_compressed += 1;
                if !rest.is_empty() {
                    open.push(Block::new(format!("{rest}\n\n")));
                }
                continue;
            }
            let (text, is_verbatim) = appended_entry(turn, parts.latest(i, &mut Stats::default()));
            if is_verbatim {
                count_verbatim_entry(turn, &mut stats);
                verbatim += 1;
            } else {
                parts.latest(i, &mut stats);
                stats.turns_compressed += u32::from(turn.success());
            }
            open.push(Block::new(format!("{text}\n\n")));
        }
        open.push(Block::new(turn_info(req.turn(), req.max_turns())));
        prompt.push(Role::User, open);
    }
    // Leaving the compressed start for the transcript rewrites the prompt
    // once (free: nothing was cached), a checkpoint like a fold.
    let switched = recent.compress_while_uncached && transcript > 0;
    stats.push_counter(CACHE_EPOCH, i64::from(at.epoch) + i64::from(switched));
    stats.push_counter("turns_folded", at.folded() as i64);
    stats.push_counter("frozen_segments", at.segments.len() as i64);
    stats.push_counter("turns_verbatim", verbatim as i64);
    prompt.build(stats)
}

/// The odds that a run ends after the turn a prompt shows, which
/// [`Recent::block_first`] weighs: a run returns when its model is done,
/// not at its turn limit, and a block written first on its last prompt is
/// written for nothing. One in three: on the corpus, block-first then
/// costs no session more than a tenth of a point, where assuming runs go
/// on (the read price alone) made a 12-turn session 2.5 points dearer.
pub const RUN_END_ODDS: f64 = 1.0 / 3.0;

/// Turn `i`'s block and what its full form adds to it, when the layout
/// appends the block first ([`Recent::block_first`]) and that costs less
/// than showing the full form alone: the full form's lines the block holds
/// are then not paid uncached, for one more cache read of the block if the
/// run goes on, or a cache write for nothing if it ends ([`RUN_END_ODDS`];
/// certain on the run's last turn). `entry(i)` is the entry appended for
/// turn `i` on later turns, and whether it is the turn verbatim.
fn block_first(
    req: &RenderRequest,
    recent: Recent,
    parts: &impl Parts,
    i: usize,
    entry: &impl Fn(usize) -> (String, bool),
) -> Option<(String, String)> {
    let turn = &req.turns()[i];
    if !recent.block_first || !turn.success() {
        return None;
    }
    let (full, verbatim) = appended_entry(turn, parts.latest(i, &mut Stats::default()));
    let (block, block_verbatim) = entry(i);
    if verbatim || block_verbatim {
        return None;
    }
    let rest = parts.beyond_block(i, &block);
    // The block is read once more if the run goes on, and written for
    // nothing if it ends: weighed by the odds that it ends.
    let ends = match req.max_turns() <= turn.number() {
        true => 1.0,
        false => RUN_END_ODDS,
    };
    let again = (1.0 - ends) * CACHE_READ_PRICE + ends * CACHE_WRITE_PRICE;
    let cost = estimate_text_tokens(&rest) as f64 + again * estimate_text_tokens(&block) as f64;
    (cost < estimate_text_tokens(&full) as f64).then_some((block, rest))
}

/// The lines of `full` that `block` does not hold, each line of `block`
/// matching one of `full`'s: `full`'s first line (which names the turn),
/// then every other line `block` lacks, and a `;;` comment line (a
/// section's label, like `;; Output:`) when one of the lines under it is
/// kept or `block` lacks it. Empty when `block` holds every line.
pub(crate) fn lines_beyond(full: &str, block: &str) -> String {
    let mut held: HashMap<&str, usize> = HashMap::new();
    for line in block.lines() {
        *held.entry(line).or_default() += 1;
    }
    let mut take = |line: &str| match held.get_mut(line) {
        Some(n) if *n > 0 => {
            *n -= 1;
            false
        }
        _ => true,
    };
    let mut lines = full.lines();
    let Some(first) = lines.next() else { return String::new() };
    take(first);
    let mut kept: Vec<&str> = Vec::new();
    let mut label: Option<&str> = None;
    for line in lines {
        if line.starts_with(";;") {
            label = Some(line);
            if take(line) {
                kept.push(line);
                label = None;
            }
        } else if take(line) {
            kept.extend(label.take());
            kept.push(line);
        }
    }
    match kept.is_empty() {
        true => String::new(),
        false => format!("{first}\n{}", kept.join("\n")),
    }
}
