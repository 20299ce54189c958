//! The checkpointed layout with fact memory: the latest turns in full,
//! every older turn as its compact entry ([`FactEntries`]), folds that
//! keep the facts. What `single-user-coalesced` and `aggressive` render by
//! default.

use super::budget::estimate_text_tokens;
use super::cache::{show_once_pays, Checkpointing, FoldPolicy};
use super::fact_entries::{BulkFacts, FactEntries, FactEntryOptions};
use super::history::verbatim_entry;
use super::ledger::{checkpointed, lines_beyond, Parts, Recent};
use super::memo::{Memoized, RenderMemo};
use crate::output::Stats;
use crate::prompt::Prompt;
use crate::request::RenderRequest;
use crate::sdk::Params;
use crate::StrategyError;
use std::ops::Range;

/// A checkpointed layout whose memory is [`FactEntries`]: what a strategy
/// reads from `memory = "facts"` and the parameters beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactMemory {
    /// The latest this many turns are shown in full ([`Recent::turns`]).
    pub recent: usize,
    /// What the compact entries keep.
    pub entries: FactEntryOptions,
}

/// [`Params::finish`] for a layout without checkpoints (`layout = "spec"`):
/// a parameter only `layout = "checkpointed"` reads ([`Checkpointing`] and
/// [`FactMemory`]'s) is named as such, not as unknown.
pub fn finish_without_checkpoints(params: Params) -> Result<(), StrategyError> {
    let any_fold = FoldPolicy { threshold_tokens: 1, min_turns: 1, merge_tokens: 1 };
    params.finish_unless("layout = \"checkpointed\"", |p| {
        Checkpointing::from_params(p, any_fold)?;
        FactMemory::from_params(p, FactEntryOptions::default()).map(drop)
    })
}

/// Turns shown in full by default under `memory = "facts"`.
pub const DEFAULT_RECENT_TURNS: usize = 1;

impl FactMemory {
    /// Reads `memory` (`"facts"`, the default, or `"blocks"`: `None`),
    /// and under `"facts"` `recent_turns` (default
    /// [`DEFAULT_RECENT_TURNS`]), `fact_line_chars`, `fact_tool_calls`
    /// (the tool calls an entry lists, at most `default.tool_call_limit`)
    /// and `bulk_facts` (`"keep"`, `"fold"` or `"drop"`), with `default`
    /// for what is absent (its `tool_call_limit` and `sample` are the
    /// strategy's own).
    pub fn from_params(params: &mut Params, default: FactEntryOptions) -> Result<Option<FactMemory>, StrategyError> {
        if params.choice("memory", &["facts", "blocks"])? == "blocks" {
            return Ok(None);
        }
        // The default first: `choice` takes the first when absent.
        let order = match default.bulk {
            BulkFacts::Keep => ["keep", "fold", "drop"],
            BulkFacts::Fold => ["fold", "keep", "drop"],
            BulkFacts::Drop => ["drop", "keep", "fold"],
        };
        let bulk = match params.choice("bulk_facts", &order)? {
            "fold" => BulkFacts::Fold,
            "drop" => BulkFacts::Drop,
            _ => BulkFacts::Keep,
        };
        Ok(Some(FactMemory {
            recent: params.positive("recent_turns", DEFAULT_RECENT_TURNS)?,
            entries: FactEntryOptions {
                line_chars: params.positive("fact_line_chars", default.line_chars)?,
                listed_tool_calls: params
                    .positive("fact_tool_calls", default.listed_tool_calls)?
                    .min(default.tool_call_limit),
                bulk,
                ..default
            },
        }))
    }
}

/// Renders `req` in the checkpointed layout with fact memory: the latest
/// turns in full (`full(i, stats)`, then the facts of the turn's compact
/// entry it does not show, [`FactEntries::missing_facts`]), every older
/// turn as its compact entry, or as that full form when appending it costs
/// less ([`show_once_pays`]); folds keep the facts
/// ([`FactEntries::summary`]). Compressed from the first turn: while the
/// prompt is under the cache minimum nothing is cached, so a shorter
/// prompt is cheaper. `full(i, stats)` must depend on turns `..=i` only.
///
/// Every render computes everything again; a strategy that keeps a
/// [`RenderMemo`] renders the same prompt with
/// [`fact_memory_prompt_memoized`], at a cost that does not grow with the
/// turns before.
pub fn fact_memory_prompt(
    req: &RenderRequest,
    name: &str,
    how: Checkpointing,
    memory: FactMemory,
    full: impl Fn(usize, &mut Stats) -> String,
) -> Prompt {
    let entries = FactEntries::new(req, memory.entries);
    checkpointed(req, name, how, recent(memory), &FactParts { req, memory, entries: &entries, full })
}

/// [`fact_memory_prompt`], keeping in `memo` what later renders of the same
/// run reuse (the compact entries, each turn's block, the frozen summaries,
/// their sizes and the checkpoint's decisions). The prompt is the same,
/// byte for byte.
pub fn fact_memory_prompt_memoized(
    req: &RenderRequest,
    name: &str,
    how: Checkpointing,
    memory: FactMemory,
    memo: &RenderMemo,
    full: impl Fn(usize, &mut Stats) -> String,
) -> Prompt {
    let run = memo.take(req, how, Some(memory.entries));
    let parts = FactParts { req, memory, entries: &run.entries, full };
    let prompt = checkpointed(req, name, how, recent(memory), &Memoized { run: &run, parts });
    memo.put(run);
    prompt
}

/// The turns in full of a fact memory: each after its entry, which holds
/// its facts ([`Recent::block_first`]).
fn recent(memory: FactMemory) -> Recent {
    Recent { block_first: true, ..Recent::new(memory.recent) }
}

/// What [`fact_memory_prompt`] fills the checkpointed layout with.
struct FactParts<'a, F> {
    req: &'a RenderRequest,
    memory: FactMemory,
    entries: &'a FactEntries,
    /// The strategy's full form of a turn.
    full: F,
}

impl<F: Fn(usize, &mut Stats) -> String> FactParts<'_, F> {
    /// A form of turn `i` with the facts of its entry it lacks added.
    fn with_facts(&self, i: usize, text: String) -> String {
        match self.entries.missing_facts(i, &text) {
            Some(facts) => format!("{text}\n{facts}"),
            None => text,
        }
    }

    /// The smaller of `a` and the turn verbatim (with its missing facts).
    fn or_verbatim(&self, i: usize, a: String) -> String {
        match verbatim_entry(&self.req.turns()[i]).map(|v| self.with_facts(i, v)) {
            Some(v) if estimate_text_tokens(&v) < estimate_text_tokens(&a) => v,
            _ => a,
        }
    }

    fn full_form(&self, i: usize, stats: &mut Stats) -> String {
        match self.req.turns()[i].success() {
            true => self.with_facts(i, (self.full)(i, stats)),
            false => (self.full)(i, stats),
        }
    }

    /// Whether turn `i` is appended in full at once, instead of shown in
    /// full once and then as its entry; and in which form.
    fn direct(&self, i: usize) -> Option<String> {
        let turn = &self.req.turns()[i];
        if !turn.success() || self.entries.redefines(i) {
            return None;
        }
        let whole = self.or_verbatim(i, self.full_form(i, &mut Stats::default()));
        let entry = self.or_verbatim(i, self.entries.entry(i).to_string());
        let left = self.req.max_turns().saturating_sub(turn.number()) as usize;
        (!show_once_pays(estimate_text_tokens(&whole), estimate_text_tokens(&entry), left)).then_some(whole)
    }
}

impl<F: Fn(usize, &mut Stats) -> String> Parts for FactParts<'_, F> {
    fn block(&self, i: usize, stats: &mut Stats) -> String {
        match self.direct(i) {
            Some(whole) => {
                self.full_form(i, stats);
                whole
            }
            None => {
                let entries = self.entries;
                entries.count(i, stats);
                match entries.redefines(i) {
                    true => entries.entry(i).to_string(),
                    false => self.or_verbatim(i, entries.entry(i).to_string()),
                }
            }
        }
    }

    fn frozen(&self, range: Range<usize>, stats: &mut Stats) -> String {
        self.entries.summary(self.req.turns(), range, &self.memory.entries, stats)
    }

    fn latest(&self, i: usize, stats: &mut Stats) -> String {
        let shown = self.full_form(i, stats);
        self.direct(i).unwrap_or(shown)
    }

    fn beyond_block(&self, i: usize, block: &str) -> String {
        // The entry holds every fact, so the full form is taken without
        // the facts it lacks.
        lines_beyond(&(self.full)(i, &mut Stats::default()), block)
    }
}
