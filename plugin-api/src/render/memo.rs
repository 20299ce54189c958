//! What a fact-memory strategy keeps between renders, so that a turn costs
//! what the turn holds, not what the session holds.
//!
//! [`fact_memory_prompt`](super::fact_memory_prompt) is a pure function of
//! the request, and most of it is a left fold over the turns: the compact
//! entries ([`FactEntries`]), each turn's block and the frozen summaries
//! depend on the turns up to their own only. A [`RenderMemo`] keeps those
//! of the runs it has rendered, with a copy of the turns they were made
//! from; a render takes the run whose turns the request starts with,
//! drops what was made from any turn the request changed, and computes
//! only what is new. The prompt is byte for byte the one rendered without
//! it (a test renders both ways, turn by turn, over changed and resumed
//! histories), so rendering stays a pure function of the request.
//!
//! ```
//! use ptc_plugin_api::render::{fact_memory_prompt, fact_memory_prompt_memoized};
//! use ptc_plugin_api::render::{Checkpointing, FactEntryOptions, FactMemory, FoldPolicy, RenderMemo};
//! use ptc_plugin_api::{RenderRequest, Turn};
//!
//! let how = Checkpointing { fold: FoldPolicy { threshold_tokens: 1500, min_turns: 4, merge_tokens: 3000 }, cache_min_tokens: 1024 };
//! let memory = FactMemory { recent: 1, entries: FactEntryOptions::default() };
//! let full = |req: &RenderRequest, i: usize| format!(";; --- turn {} ---\n{}", i + 1, req.turns()[i].raw_response());
//! let memo = RenderMemo::default();
//! let mut req = RenderRequest::new("Count the orders", "system", 30);
//! for n in 1..=5 {
//!     req.push_turn(Turn::new(n, format!("order ORD-{n:04} is late"), None));
//!     let memoized = fact_memory_prompt_memoized(&req, "demo", how, memory, &memo, |i, _| full(&req, i));
//!     assert_eq!(memoized, fact_memory_prompt(&req, "demo", how, memory, |i, _| full(&req, i)));
//! }
//! ```

use super::budget::estimate_text_tokens;
use super::cache::{Checkpoint, Checkpointing, Folding};
use super::fact_entries::{FactEntries, FactEntryOptions};
use super::sections::first_user_parts;
use crate::output::Stats;
use crate::request::{RenderRequest, Turn};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

/// Most runs one [`RenderMemo`] keeps: an instance shared by more runs at
/// once than this renders the least recently rendered ones from scratch
/// (as without a memo). Each run costs about a copy of its turns.
pub const MEMO_RUNS: usize = 64;

/// What a fact-memory strategy keeps between renders (see the module
/// docs): one per strategy instance, passed to
/// [`fact_memory_prompt_memoized`](super::fact_memory_prompt_memoized).
/// Safe to share between threads; a clone starts empty (it is only a
/// cache).
#[derive(Default)]
pub struct RenderMemo {
    /// Most recently rendered first.
    runs: Mutex<VecDeque<RunMemo>>,
}

impl Clone for RenderMemo {
    fn clone(&self) -> Self {
        RenderMemo::default()
    }
}

impl fmt::Debug for RenderMemo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner).len();
        f.debug_struct("RenderMemo").field("runs", &runs).finish()
    }
}

/// Everything but the turns that the memoized parts of a render read.
#[derive(Clone, Debug, PartialEq)]
struct RunKey {
    system: String,
    head: String,
    max_turns: u32,
    how: Checkpointing,
    entries: FactEntryOptions,
}

/// A part of a render kept with the counts it added to the stats, and
/// its estimated size.
#[derive(Clone, Debug)]
struct Part {
    text: String,
    stats: Stats,
    size: usize,
}

/// What is kept of one run: each part made from its `turns` only.
pub(crate) struct RunMemo {
    key: RunKey,
    /// The turns everything below was made from.
    turns: Vec<Turn>,
    /// Their compact entries.
    pub(crate) entries: FactEntries,
    /// Each turn's block, once made.
    blocks: RefCell<Vec<Option<Part>>>,
    /// The frozen summaries the latest render showed (those of this render
    /// in `shown`).
    frozen: RefCell<HashMap<Range<usize>, Part>>,
    shown: RefCell<HashMap<Range<usize>, Part>>,
    /// The estimated size of every summary weighed so far.
    frozen_sizes: RefCell<HashMap<Range<usize>, usize>>,
    /// The checkpoint's decisions over the turns before those shown in
    /// full, for the number of leading turns that were the transcript.
    folding: RefCell<Option<(usize, Folding)>>,
}

impl RunMemo {
    /// Turn `i`'s block, made by `make` unless kept; its counts are added
    /// to `stats` either way.
    pub(crate) fn block(&self, i: usize, stats: &mut Stats, make: impl FnOnce(&mut Stats) -> String) -> String {
        if let Some(part) = &self.blocks.borrow()[i] {
            stats.add(&part.stats);
            return part.text.clone();
        }
        let part = made(make);
        stats.add(&part.stats);
        self.blocks.borrow_mut()[i] = Some(part.clone());
        part.text
    }

    /// The frozen summary of `range`, made by `make` unless kept.
    pub(crate) fn frozen(
        &self,
        range: Range<usize>,
        stats: &mut Stats,
        make: impl FnOnce(&mut Stats) -> String,
    ) -> String {
        let kept = self.frozen.borrow_mut().remove(&range);
        let part = kept.unwrap_or_else(|| made(make));
        stats.add(&part.stats);
        self.shown.borrow_mut().insert(range, part.clone());
        part.text
    }

    /// The estimated size of turn `i`'s block, made by `make` unless kept.
    pub(crate) fn block_size(&self, i: usize, make: impl FnOnce(&mut Stats) -> String) -> usize {
        if let Some(part) = &self.blocks.borrow()[i] {
            return part.size;
        }
        let part = made(make);
        let size = part.size;
        self.blocks.borrow_mut()[i] = Some(part);
        size
    }

    /// The [`checkpoint`](super::checkpoint) of `turns`, continuing from
    /// the turns already seen (all arguments but the turns are the same
    /// for a run, but for `transcript`: a change starts over).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn checkpoint(
        &self,
        turns: &[Turn],
        max_turns: u32,
        how: Checkpointing,
        fixed: usize,
        transcript: usize,
        size: &dyn Fn(usize) -> usize,
        frozen_size: impl Fn(Range<usize>) -> usize,
    ) -> Checkpoint {
        let kept = self.folding.borrow_mut().take();
        let mut folding = match kept {
            Some((t, folding)) if t == transcript && folding.seen() <= turns.len() => folding,
            _ => Folding::default(),
        };
        for (i, turn) in turns.iter().enumerate().skip(folding.seen()) {
            folding.push(turn, max_turns, how, fixed, size(i), &frozen_size);
        }
        let at = folding.checkpoint().clone();
        *self.folding.borrow_mut() = Some((transcript, folding));
        at
    }

    /// The estimated size of the summary of `range`: `estimate(make())`
    /// unless kept.
    pub(crate) fn frozen_size(&self, range: Range<usize>, size: impl FnOnce() -> usize) -> usize {
        if let Some(&kept) = self.frozen_sizes.borrow().get(&range) {
            return kept;
        }
        let size = size();
        self.frozen_sizes.borrow_mut().insert(range, size);
        size
    }

    /// Drops everything made from turns from `common` on, which a request
    /// changed: the entries, a fold from the first turn, all of them.
    fn truncate(&mut self, common: usize) {
        if common < self.turns.len() {
            self.turns.truncate(common);
            self.entries = FactEntries::start(self.key.head.clone());
            self.blocks.get_mut().truncate(common);
            let within = |r: &Range<usize>| r.end <= common;
            self.frozen.get_mut().retain(|r, _| within(r));
            self.frozen_sizes.get_mut().retain(|r, _| within(r));
            let folding = self.folding.get_mut();
            if folding.as_ref().is_some_and(|(_, f)| f.seen() > common) {
                *folding = None;
            }
        }
    }
}

/// A part made by `make`, with the counts it added.
fn made(make: impl FnOnce(&mut Stats) -> String) -> Part {
    let mut stats = Stats::default();
    let text = make(&mut stats);
    Part { size: estimate_text_tokens(&text), text, stats }
}

impl RenderMemo {
    /// What is kept of the run `req` continues, extended to its turns: the
    /// kept run whose turns `req` starts with (else the one it shares most
    /// turns with, cut to them; else a new one).
    pub(crate) fn take(&self, req: &RenderRequest, how: Checkpointing, entries: FactEntryOptions) -> RunMemo {
        let [head, _] = first_user_parts(req);
        let key = RunKey { system: req.system_prompt().to_string(), head, max_turns: req.max_turns(), how, entries };
        let turns = req.turns();
        let kept = {
            let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
            let mut best: Option<(usize, usize)> = None;
            for (k, run) in runs.iter().enumerate().filter(|(_, run)| run.key == key) {
                let common = run.turns.iter().zip(turns).take_while(|(a, b)| a == b).count();
                if common == run.turns.len() {
                    best = Some((k, common));
                    break;
                }
                if best.is_none_or(|(_, most)| common > most) {
                    best = Some((k, common));
                }
            }
            best.and_then(|(k, common)| runs.remove(k).map(|run| (run, common)))
        };
        let mut run = match kept {
            Some((mut run, common)) => {
                run.truncate(common);
                run
            }
            None => RunMemo {
                entries: FactEntries::start(key.head.clone()),
                key,
                turns: Vec::new(),
                blocks: RefCell::default(),
                frozen: RefCell::default(),
                shown: RefCell::default(),
                frozen_sizes: RefCell::default(),
                folding: RefCell::default(),
            },
        };
        run.entries.extend(&turns[run.entries.len()..], &entries);
        run.turns.extend_from_slice(&turns[run.turns.len()..]);
        run.blocks.get_mut().resize(turns.len(), None);
        run
    }

    /// Keeps `run` after a render: the summaries it showed, as the most
    /// recently rendered run.
    pub(crate) fn put(&self, mut run: RunMemo) {
        let shown = std::mem::take(run.shown.get_mut());
        *run.frozen.get_mut() = shown;
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        runs.push_front(run);
        runs.truncate(MEMO_RUNS);
    }
}
