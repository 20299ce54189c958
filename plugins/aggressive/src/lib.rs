//! `aggressive`: the terse `[SYSTEM, USER]` prompt for tight budgets.
//!
//! One USER message like single-user-coalesced's, cut down: the mission;
//! `tool/` names with params and return type (no descriptions, no example
//! line); `data/` with samples; `user/` names with their type only (no
//! samples, no docstrings); the tool calls (the most recent 20, as in
//! single-user-coalesced); the last `println_limit` (default 3) println
//! outputs, each cut to `output_char_limit` (default 200) characters; the
//! latest error only, with its program cut to the first
//! `error_program_lines` (default 12) lines; the turn info.
//!
//! With `max_tokens` set the prompt must fit. The plugin has no tokenizer,
//! so it measures with [`estimate_tokens`] (`ceil((bytes + digits) / 3) + 3`
//! per message, plus 3: above the real `o200k_base` count for the prompts
//! it renders, typically by 10-30%; the host checks real tokens where a
//! budget is enforced). It drops, in this order, until the estimate fits:
//! output lines (oldest first), tool-call lines (oldest first), `data/`
//! samples (last data entry first), `user/` entries beyond the most recently
//! defined (least recently defined first). If that is not enough it then
//! drops the `data/` section, the `tool/` section, the last `user/` entry
//! and the failed program's lines after its first (the error message itself
//! stays). Every drop is counted in the stats (`budget_*` counters) and
//! summed up in a warning. If even the minimum (system prompt, mission,
//! latest error message with its program's first line, turn info) does not
//! fit, the render fails with a does-not-fit error that says so.
//!
//! `layout = "checkpointed"` makes the prompt cache-stable: the SDK's
//! checkpointed layout (as single-user-coalesced's layout of that name)
//! filled with terse pieces. Until the prompt reaches `cache_min_tokens`
//! (default 1,024) it is the full transcript; then each turn is appended
//! once, as the smaller of the turn verbatim and a short block (what it
//! defined, the calls it made, its last output or its result), then a
//! failed latest turn's cut program and error (shown on the next turn
//! only), then the turn info. The blocks since the last
//! checkpoint fold into a frozen terse summary (`user/`, tool calls,
//! output) when they pass `fold_tokens` (estimated, default 600) over at
//! least `fold_min_turns` (default 4) and the fold pays for itself over
//! the turns left; segments merge past `fold_merge_tokens` (default
//! 1,200). With `max_tokens`, a checkpointed prompt that would not fit is
//! replaced by the default layout's fitted one.
//!
//! ```
//! use ptc_plugin_api::{ErrorKind, Params, RenderRequest, Strategy};
//! use ptc_strategy_aggressive::Aggressive;
//!
//! let req = RenderRequest::new("Count the orders", "system", 5);
//! let s = Aggressive::new(Params::from_json("aggressive", "{}").unwrap()).unwrap();
//! assert_eq!(s.render(&req).unwrap().messages()[1].content(), "Count the orders\n\n;; No tools available\n\nTurns left: 5");
//!
//! let tiny = Aggressive::new(Params::from_json("aggressive", r#"{"max_tokens": 5}"#).unwrap()).unwrap();
//! assert_eq!(tiny.render(&req).unwrap_err().kind(), ErrorKind::DoesNotFit);
//! ```

mod compact;

use compact::{
    compact_data_section, compact_definition_line, compact_output_section, compact_tools_section, compact_user_section,
    cut_chars, cut_error_section, cut_lines,
};
use ptc_plugin_api::render::{
    checkpointed_prompt_memoized, compact_tool_call_lines, error_line, estimate_tokens, fact_memory_prompt_memoized,
    finish_without_checkpoints, format_value, memory_of, program_or_unknown, recent_prints, tool_calls_section,
    turn_info, BulkFacts, Checkpointing, FactEntryOptions, FactMemory, FoldPolicy, RenderMemo, ValueLimits,
};
use ptc_plugin_api::{
    Block, Definition, Message, Params, Prompt, RenderRequest, Rendered, Role, Stats, Strategy, StrategyError, Turn,
};
use std::collections::HashMap;
use std::ops::Range;

/// Most recent tool calls listed (single-user-coalesced's default).
pub const TOOL_CALL_LIMIT: usize = 20;

/// What the checkpointed layout's fact memory keeps of long print lines
/// when the parameters name nothing: all their facts (`"fold"`, keeping at
/// a fold only those a program used, is about 5 points cheaper and recalls
/// about 20 points less over the corpus; see docs/benchmarks.md).
pub const DEFAULT_BULK_FACTS: BulkFacts = BulkFacts::Keep;

/// Fold policy of the checkpointed layout when the parameters name none.
pub const DEFAULT_FOLD: FoldPolicy = FoldPolicy { threshold_tokens: 600, min_turns: 4, merge_tokens: 1200 };

/// The strategy, with its limits.
#[derive(Debug, Clone)]
pub struct Aggressive {
    println_limit: usize,
    output_char_limit: usize,
    error_program_lines: usize,
    max_tokens: Option<usize>,
    /// `Some` for `layout = "checkpointed"`: when to fold, and under how
    /// many estimated tokens nothing is cached.
    checkpointed: Option<(Checkpointing, Option<FactMemory>)>,
    /// Most recent tool calls listed (in a frozen block, when checkpointed).
    tool_call_limit: usize,
    /// What the checkpointed layout keeps between renders.
    memo: RenderMemo,
}

/// What one render shows; the budget loop shrinks it knob by knob.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Plan {
    outputs: usize,
    tool_calls: usize,
    data_samples: usize,
    user_entries: usize,
    data: bool,
    tools: bool,
    program_lines: usize,
}

/// The user namespace with, per name, when it was last (re)defined.
struct Memory<'a> {
    defs: Vec<&'a Definition>,
    /// Index into `defs` of each name, most recently defined first.
    recency: Vec<usize>,
}

impl<'a> Memory<'a> {
    fn of(turns: &'a [Turn]) -> Memory<'a> {
        let defs = memory_of(turns);
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (i, def) in turns.iter().filter(|t| t.success()).flat_map(|t| t.definitions()).enumerate() {
            last.insert(def.name(), i);
        }
        let mut recency: Vec<usize> = (0..defs.len()).collect();
        recency.sort_by_key(|&i| std::cmp::Reverse(last.get(defs[i].name()).copied().unwrap_or(0)));
        Memory { defs, recency }
    }

    /// The `keep` most recently defined entries, in display order.
    fn newest(&self, keep: usize) -> Vec<&'a Definition> {
        let mut kept: Vec<usize> = self.recency.iter().take(keep).copied().collect();
        kept.sort_unstable();
        kept.into_iter().map(|i| self.defs[i]).collect()
    }
}

impl Aggressive {
    fn full_plan(&self, req: &RenderRequest, memory: &Memory<'_>) -> Plan {
        Plan {
            outputs: self.println_limit,
            tool_calls: self.tool_call_limit,
            data_samples: req.data().len(),
            user_entries: memory.defs.len(),
            data: true,
            tools: true,
            program_lines: self.error_program_lines,
        }
    }

    /// The USER message for `plan`, filling `stats`.
    fn compose(&self, req: &RenderRequest, memory: &Memory<'_>, plan: Plan, stats: &mut Stats) -> String {
        let turns = req.turns();
        let mut sections = vec![req.mission().to_string()];
        if plan.tools {
            sections.push(compact_tools_section(req.tools()));
        }
        if plan.data {
            sections.extend(compact_data_section(req.data(), plan.data_samples, ValueLimits::SAMPLE));
        }
        if plan.user_entries > 0 {
            let shown = memory.newest(plan.user_entries);
            sections.extend(compact_user_section(&shown, memory.defs.len() - shown.len()));
        }
        if plan.tool_calls > 0 {
            sections.extend(tool_calls_section(turns, plan.tool_calls, stats));
        } else {
            let total: u32 = turns.iter().filter(|t| t.success()).map(|t| t.tool_calls().len() as u32).sum();
            stats.tool_calls_total += total;
            stats.tool_calls_dropped += total;
        }
        sections.extend(compact_output_section(turns, plan.outputs, self.output_char_limit, stats));
        let failures = turns.iter().filter(|t| !t.success()).count() as u32;
        stats.turns_compressed += turns.len() as u32 - failures;
        stats.error_turns_collapsed += failures;
        if let Some(last) = turns.last().filter(|t| !t.success()) {
            sections.push(cut_error_section(last, plan.program_lines));
            stats.error_turns_collapsed -= 1;
        }
        sections.push(turn_info(req.turn(), req.max_turns()));
        sections.join("\n\n")
    }

    fn rendered(&self, req: &RenderRequest, memory: &Memory<'_>, plan: Plan) -> (Vec<Message>, Stats) {
        let mut stats = Stats::new(Self::NAME);
        let user = self.compose(req, memory, plan, &mut stats);
        (vec![Message::system(req.system_prompt()), Message::user(user)], stats)
    }

    /// Shrinks `plan` until its estimate is at most `max`, in the documented
    /// order. Each knob is binary-searched, so a render costs
    /// O(log n) compositions per knob, not one per dropped line.
    fn fit(&self, req: &RenderRequest, memory: &Memory<'_>, max: usize) -> Result<Plan, StrategyError> {
        let fits = |plan: Plan| estimate_tokens(&self.rendered(req, memory, plan).0) <= max;
        let minimum = [
            Message::system(req.system_prompt()),
            Message::user(format!("{}\n\n{}", req.mission(), turn_info(req.turn(), req.max_turns()))),
        ];
        let needed = estimate_tokens(&minimum);
        if needed > max {
            return Err(StrategyError::does_not_fit(format!(
                "aggressive: max_tokens = {max} is too small: even the minimum prompt (system prompt, mission, \
                 turn info) needs about {needed} tokens (estimated as ceil((bytes + digits)/3) + 3 per message)"
            )));
        }
        let mut plan = self.full_plan(req, memory);
        type Knob = fn(&mut Plan) -> &mut usize;
        let knobs: [(Knob, usize); 4] = [
            (|p| &mut p.outputs, 0),
            (|p| &mut p.tool_calls, 0),
            (|p| &mut p.data_samples, 0),
            (|p| &mut p.user_entries, 1.min(memory.defs.len())),
        ];
        for (knob, min) in knobs {
            if fits(plan) {
                return Ok(plan);
            }
            let hi = *knob(&mut plan);
            *knob(&mut plan) = largest_fitting(min, hi, |v| {
                let mut p = plan;
                *knob(&mut p) = v;
                fits(p)
            });
        }
        // Beyond the spec's four steps: whole sections, then the program.
        for step in 0..4 {
            if fits(plan) {
                return Ok(plan);
            }
            match step {
                0 => plan.data = false,
                1 => plan.tools = false,
                2 => plan.user_entries = 0,
                _ => {
                    let hi = plan.program_lines;
                    // The first line stays: a cut program still shows where it starts.
                    plan.program_lines = largest_fitting(1.min(hi), hi, |v| fits(Plan { program_lines: v, ..plan }));
                }
            }
        }
        if fits(plan) {
            return Ok(plan);
        }
        let needed = estimate_tokens(&self.rendered(req, memory, plan).0);
        Err(StrategyError::does_not_fit(format!(
            "aggressive: max_tokens = {max} is too small: the minimum prompt with the latest error \
             (system prompt, mission, error message and the program's first line, turn info) needs about {needed} tokens"
        )))
    }
}

/// The largest `v` in `lo..=hi` with `fits(v)` (assumed monotone), or `lo`
/// when none fits.
fn largest_fitting(lo: usize, hi: usize, fits: impl Fn(usize) -> bool) -> usize {
    if fits(hi) {
        return hi;
    }
    let (mut lo, mut hi) = (lo, hi);
    if !fits(lo) {
        return lo;
    }
    // Invariant: fits(lo) and !fits(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

impl Strategy for Aggressive {
    const NAME: &'static str = "aggressive";
    const DESCRIPTION: &'static str =
        "Terse single USER message for tight budgets; with max_tokens, drops output, tool calls, samples, old definitions to fit";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let s = Aggressive {
            println_limit: params.positive("println_limit", 3)?,
            output_char_limit: params.positive("output_char_limit", 200)?,
            error_program_lines: params.positive("error_program_lines", 12)?,
            max_tokens: params.optional_positive("max_tokens")?,
            tool_call_limit: params.positive("tool_call_limit", TOOL_CALL_LIMIT)?,
            checkpointed: match params.choice("layout", &["spec", "checkpointed"])? {
                "checkpointed" => {
                    let how = Checkpointing::from_params(&mut params, DEFAULT_FOLD)?;
                    // The latest turn's block shows every call it made.
                    let entries = FactEntryOptions {
                        tool_call_limit: usize::MAX,
                        bulk: DEFAULT_BULK_FACTS,
                        ..FactEntryOptions::default()
                    };
                    Some((how, FactMemory::from_params(&mut params, entries)?))
                }
                _ => None,
            },
            memo: RenderMemo::default(),
        };
        if s.checkpointed.is_some() {
            params.finish()?;
        } else {
            finish_without_checkpoints(params)?;
        }
        Ok(s)
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        self.render_prompt(req).map(Prompt::into_rendered)
    }

    fn render_prompt(&self, req: &RenderRequest) -> Result<Prompt, StrategyError> {
        if let Some((how, memory)) = self.checkpointed {
            let turns = req.turns();
            let prompt = match memory {
                None => checkpointed_prompt_memoized(
                    req,
                    Self::NAME,
                    how,
                    &self.memo,
                    |i, stats| self.turn_block(&turns[i], stats),
                    |range, stats| self.frozen_block(turns, range, stats),
                ),
                Some(memory) => fact_memory_prompt_memoized(req, Self::NAME, how, memory, &self.memo, |i, stats| {
                    self.turn_block(&turns[i], stats)
                }),
            };
            if self.max_tokens.is_none_or(|max| estimate_tokens(prompt.messages()) <= max) {
                return Ok(prompt);
            }
        }
        self.render_spec(req).map(|r| {
            let [system, user] = [&r.messages()[0], &r.messages()[1]];
            let blocks = match user.content().split_once(TOOLS_MARK) {
                Some((head, _)) if !head.is_empty() => {
                    vec![Block::new(head).breakpoint(), Block::new(&user.content()[head.len()..])]
                }
                _ => vec![Block::new(user.content())],
            };
            Prompt::builder().system(system.content()).message(Role::User, blocks).build(r.stats().clone())
        })
    }
}

/// Where the terse message's `tool/` section starts (the mission before it
/// is the part every turn repeats).
const TOOLS_MARK: &str = ";; ===";

impl Aggressive {
    /// The default (terse, rebuilt every turn) layout, fitted to `max_tokens`.
    fn render_spec(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        let memory = Memory::of(req.turns());
        let full = self.full_plan(req, &memory);
        let Some(max) = self.max_tokens else {
            let (messages, stats) = self.rendered(req, &memory, full);
            return Ok(Rendered::new(messages, stats));
        };
        let plan = self.fit(req, &memory, max)?;
        let (messages, mut stats) = self.rendered(req, &memory, plan);
        let (_, full_stats) = self.rendered(req, &memory, full);
        let program_lines =
            req.last_turn().filter(|t| !t.success()).map_or(0, |t| program_or_unknown(t).lines().count());
        let data_samples = |p: Plan| if p.data { p.data_samples.min(req.data().len()) } else { 0 };
        let dropped = [
            ("budget_outputs_dropped", (full_stats.printlns_shown - stats.printlns_shown) as usize),
            ("budget_tool_calls_dropped", (full_stats.tool_calls_shown - stats.tool_calls_shown) as usize),
            ("budget_data_samples_dropped", data_samples(full) - data_samples(plan)),
            ("budget_user_entries_dropped", full.user_entries - plan.user_entries),
            ("budget_data_section_dropped", usize::from(full.data && !plan.data && !req.data().is_empty())),
            ("budget_tool_section_dropped", usize::from(!plan.tools)),
            (
                "budget_program_lines_dropped",
                program_lines.min(full.program_lines) - program_lines.min(plan.program_lines),
            ),
        ];
        let estimate = estimate_tokens(&messages);
        stats.push_counter("estimated_tokens", estimate as i64);
        let mut what = Vec::new();
        for (name, n) in dropped {
            stats.push_counter(name, n as i64);
            if n > 0 {
                what.push(format!("{n} {}", name.trim_start_matches("budget_").trim_end_matches("_dropped")));
            }
        }
        if !what.is_empty() {
            stats.warn(format!("dropped to fit max_tokens = {max} (estimated {estimate}): {}", what.join(", ")));
        }
        Ok(Rendered::new(messages, stats))
    }

    /// The terse summary of `turns`, for a frozen block.
    fn summary(&self, turns: &[Turn], stats: &mut Stats) -> String {
        let memory = memory_of(turns);
        let mut sections: Vec<String> = Vec::new();
        sections.extend(compact_user_section(&memory, 0));
        sections.extend(tool_calls_section(turns, self.tool_call_limit, stats));
        sections.extend(compact_output_section(turns, self.println_limit, self.output_char_limit, stats));
        sections.join("\n")
    }

    /// The terse summary of `turns[range]`, as a frozen block.
    fn frozen_block(&self, turns: &[Turn], range: Range<usize>, stats: &mut Stats) -> String {
        let summary = self.summary(&turns[range.clone()], stats);
        format!(";; === turns {}-{} (summary) ===\n{summary}\n\n", range.start + 1, range.end)
    }

    /// One turn, tersely: its definitions' names and types, its calls, its
    /// last output cut (or its result), or its cut program, its last
    /// output before the error, cut, and the error.
    fn turn_block(&self, turn: &Turn, stats: &mut Stats) -> String {
        let n = turn.number();
        if let Some(error) = turn.error() {
            let program = cut_lines(program_or_unknown(turn), self.error_program_lines);
            // Its last print before the error, cut.
            let printed = turn.prints().last().map(|p| format!("{}\n", cut_chars(p, self.output_char_limit)));
            let error = error_line(error.message());
            return format!(
                ";; --- turn {n}: failed ---\n```clojure\n{program}\n```\n{}{error}",
                printed.unwrap_or_default()
            );
        }
        let mut out = format!(";; --- turn {n} ---");
        for def in memory_of(std::slice::from_ref(turn)) {
            out.push('\n');
            out.push_str(&compact_definition_line(def));
        }
        let calls: Vec<_> = turn.tool_calls().iter().collect();
        stats.tool_calls_total += calls.len() as u32;
        stats.tool_calls_shown += calls.len() as u32;
        if !calls.is_empty() {
            out.push_str(&format!("\n;; calls: {}", compact_tool_call_lines(&calls).join(", ")));
        }
        let prints = recent_prints(std::slice::from_ref(turn), 1, stats);
        match prints.last() {
            Some(p) => out.push_str(&format!("\n{}", cut_chars(p, self.output_char_limit))),
            None => {
                let result =
                    turn.result().map(|v| format_value(v, ValueLimits::SAMPLE)).unwrap_or_else(|| "nil".into());
                out.push_str(&format!("\n;; => {}", cut_chars(&result, self.output_char_limit)));
            }
        }
        out
    }
}

ptc_plugin_api::export_strategy!(Aggressive);

#[cfg(test)]
mod tests;
