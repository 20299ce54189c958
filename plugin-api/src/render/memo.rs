//! What a strategy keeps between renders of the checkpointed layout, so
//! that a turn costs what the turn holds, not what the session holds.
//!
//! [`checkpointed_prompt`](super::checkpointed_prompt) and
//! [`fact_memory_prompt`](super::fact_memory_prompt) are pure functions of
//! the request, and most of each is a left fold over the turns: the
//! compact entries ([`FactEntries`]), each turn's block and appended entry,
//! the frozen summaries and the checkpoint's decisions depend on the turns
//! up to their own only. A [`RenderMemo`] keeps those of the runs it has
//! rendered, with a copy of the turns they were made from; a render takes
//! the run whose turns the request starts with, drops what was made from
//! any turn the request changed, and computes only what is new. The prompt
//! and stats are byte for byte those rendered without it (the tests below
//! render both ways, turn by turn, over changed and shortened histories),
//! so rendering stays a pure function of the request.
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
use super::ledger::{checkpointed, fixed_size, Closures, Parts, Recent};
use super::sections::first_user_parts;
use crate::output::Stats;
use crate::prompt::Prompt;
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

/// What a strategy keeps between renders of the checkpointed layout (see
/// the module docs): one per strategy instance, passed to
/// [`fact_memory_prompt_memoized`](super::fact_memory_prompt_memoized) or
/// [`checkpointed_prompt_memoized`].
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
    /// Fact memory's entry options; `None` for block memory.
    entries: Option<FactEntryOptions>,
}

impl RunKey {
    fn of(req: &RenderRequest, how: Checkpointing, entries: Option<FactEntryOptions>) -> RunKey {
        let [head, _] = first_user_parts(req);
        RunKey { system: req.system_prompt().to_string(), head, max_turns: req.max_turns(), how, entries }
    }
}

/// A part of a render kept with the counts it added to the stats, and
/// its estimated size.
#[derive(Clone, Debug)]
struct Part {
    text: String,
    stats: Stats,
    size: usize,
}

/// An appended entry ([`Parts::appended`]) and its estimated size.
#[derive(Clone, Debug)]
struct Appended {
    text: String,
    verbatim: bool,
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
    /// Each turn's appended entry (block or verbatim), once made.
    appended: RefCell<Vec<Option<Appended>>>,
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
    /// Nothing made yet.
    fn new(key: RunKey) -> RunMemo {
        RunMemo {
            entries: FactEntries::start(key.head.clone()),
            key,
            turns: Vec::new(),
            blocks: RefCell::default(),
            appended: RefCell::default(),
            frozen: RefCell::default(),
            shown: RefCell::default(),
            frozen_sizes: RefCell::default(),
            folding: RefCell::default(),
        }
    }

    /// Extends the run to `turns`, which start with its own: their
    /// entries, and room for their parts.
    fn extend(&mut self, turns: &[Turn]) {
        if let Some(entries) = self.key.entries {
            self.entries.extend(&turns[self.entries.len()..], &entries);
        }
        self.turns.extend_from_slice(&turns[self.turns.len()..]);
        self.blocks.get_mut().resize(turns.len(), None);
        self.appended.get_mut().resize(turns.len(), None);
    }

    /// `read` of entry `i` of `slots`, made by `make` and kept unless kept
    /// already.
    fn slot<T, R>(
        &self,
        slots: &RefCell<Vec<Option<T>>>,
        i: usize,
        make: impl FnOnce() -> T,
        read: impl FnOnce(&T) -> R,
    ) -> R {
        if let Some(kept) = &slots.borrow()[i] {
            return read(kept);
        }
        let made = make();
        let out = read(&made);
        slots.borrow_mut()[i] = Some(made);
        out
    }

    /// Drops everything made from turns from `common` on, which a request
    /// changed: the entries, a fold from the first turn, all of them.
    fn truncate(&mut self, common: usize) {
        if common < self.turns.len() {
            self.turns.truncate(common);
            self.entries = FactEntries::start(self.key.head.clone());
            self.blocks.get_mut().truncate(common);
            self.appended.get_mut().truncate(common);
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

/// A layout's parts (`parts`, made as without a memo) with what `run`
/// keeps of them: each asked for once per run.
pub(crate) struct Memoized<'a, P> {
    pub(crate) run: &'a RunMemo,
    pub(crate) parts: P,
}

impl<P: Parts> Parts for Memoized<'_, P> {
    fn block(&self, i: usize, stats: &mut Stats) -> String {
        let run = self.run;
        run.slot(
            &run.blocks,
            i,
            || made(|s| self.parts.block(i, s)),
            |part| {
                stats.add(&part.stats);
                part.text.clone()
            },
        )
    }

    fn block_size(&self, i: usize) -> usize {
        let run = self.run;
        run.slot(&run.blocks, i, || made(|s| self.parts.block(i, s)), |part| part.size)
    }

    fn frozen(&self, range: Range<usize>, stats: &mut Stats) -> String {
        let kept = self.run.frozen.borrow_mut().remove(&range);
        let part = kept.unwrap_or_else(|| made(|s| self.parts.frozen(range.clone(), s)));
        stats.add(&part.stats);
        self.run.shown.borrow_mut().insert(range, part.clone());
        part.text
    }

    fn frozen_size(&self, range: Range<usize>) -> usize {
        if let Some(&kept) = self.run.frozen_sizes.borrow().get(&range) {
            return kept;
        }
        let size = self.parts.frozen_size(range.clone());
        self.run.frozen_sizes.borrow_mut().insert(range, size);
        size
    }

    fn latest(&self, i: usize, stats: &mut Stats) -> String {
        self.parts.latest(i, stats)
    }

    fn beyond_block(&self, i: usize, block: &str) -> String {
        self.parts.beyond_block(i, block)
    }

    fn appended(&self, turn: &Turn, i: usize) -> (String, bool) {
        let run = self.run;
        run.slot(&run.appended, i, || appended(|| self.parts.appended(turn, i)), |a| (a.text.clone(), a.verbatim))
    }

    fn appended_size(&self, turn: &Turn, i: usize) -> usize {
        let run = self.run;
        run.slot(&run.appended, i, || appended(|| self.parts.appended(turn, i)), |a| a.size)
    }

    /// The checkpoint, continuing from the turns already seen (everything
    /// else it reads is the same for a run, but for `transcript`: a change
    /// starts over).
    fn checkpoint(
        &self,
        req: &RenderRequest,
        turns: &[Turn],
        how: Checkpointing,
        transcript: usize,
        size: &dyn Fn(usize) -> usize,
    ) -> Checkpoint {
        let kept = self.run.folding.borrow_mut().take();
        let mut folding = match kept {
            Some((t, folding)) if t == transcript && folding.seen() <= turns.len() => folding,
            _ => Folding::default(),
        };
        folding.extend(turns, req.max_turns(), how, fixed_size(req), size, |r| self.frozen_size(r));
        let at = folding.checkpoint().clone();
        *self.run.folding.borrow_mut() = Some((transcript, folding));
        at
    }
}

/// An appended entry made by `make`.
fn appended(make: impl FnOnce() -> (String, bool)) -> Appended {
    let (text, verbatim) = make();
    Appended { size: estimate_text_tokens(&text), text, verbatim }
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
    pub(crate) fn take(&self, req: &RenderRequest, how: Checkpointing, entries: Option<FactEntryOptions>) -> RunMemo {
        let key = RunKey::of(req, how, entries);
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
            None => RunMemo::new(key),
        };
        run.extend(turns);
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

/// [`checkpointed_prompt`](super::checkpointed_prompt), keeping in `memo`
/// what later renders of the same run reuse (each turn's block and entry,
/// the frozen summaries, their sizes, the checkpoint's decisions). The
/// prompt is the same, byte for byte; `block(i, stats)` must depend on
/// turns `..=i` only, as `checkpointed_prompt` requires.
pub fn checkpointed_prompt_memoized(
    req: &RenderRequest,
    name: &str,
    how: Checkpointing,
    memo: &RenderMemo,
    block: impl Fn(usize, &mut Stats) -> String,
    frozen: impl Fn(Range<usize>, &mut Stats) -> String,
) -> Prompt {
    let run = memo.take(req, how, None);
    let parts = Closures { block: &block, frozen, latest: &block };
    let prompt = checkpointed(req, name, how, Recent::NONE, &Memoized { run: &run, parts });
    memo.put(run);
    prompt
}
