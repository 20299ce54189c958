//! Compact turn entries that keep the facts: what a cache-stable layout
//! appends for a turn once the turn is no longer shown in full.
//!
//! An entry lists what the turn defined (a scalar with its value: the
//! model's own notes), the tool calls it made, its print lines up to
//! [`FactEntryOptions::line_chars`] characters whole (their words say what
//! a figure is), and one `;; facts:` line with every other fact of its
//! output and program that no earlier entry, and not the run's head,
//! already shows ([`output_facts`], [`program_facts`], one [`FactLedger`]
//! for the run). Long tables, logs and pages shrink to the IDs, figures,
//! dates and names a later program may copy; nothing a program could copy
//! is dropped, and nothing is shown twice.
//!
//! ```
//! use ptc_plugin_api::render::{FactEntries, FactEntryOptions};
//! use ptc_plugin_api::{RenderRequest, Turn};
//!
//! let mut req = RenderRequest::new("Find the slow checkouts", "system", 10);
//! let log = "2024-03-14T09:42:19Z co-2 tr-6a546894 upstream payments-api: 503 after 2001ms, retries exhausted";
//! req.push_turn(Turn::new(1, "", Some("(println (first logs))".into())).with_prints(vec![log.into(), "errors 466".into()]));
//! // Print lines of up to 12 characters kept whole (the default keeps none).
//! let entries = FactEntries::new(&req, FactEntryOptions { line_chars: 12, ..FactEntryOptions::default() });
//! assert_eq!(
//!     entries.entry(0),
//!     ";; --- turn 1 ---\n;; Output:\nerrors 466\n;; facts: 2024-03-14T09:42:19Z co-2 tr-6a546894 payments-api 503 2001ms"
//! );
//! ```

use super::facts::{output_facts, printed_texts, program_facts, value_facts, value_texts, FactLedger};
use super::sections::{
    compact_tool_calls_section, contains_symbol, counted_calls_header, definition_line, first_user_parts, memory_of,
    output_lines, tool_calls_section, CALLS_HEADER, NO_TOOL_CALLS, USER_HEADER,
};
use super::value_text::{format_value, ValueLimits};
use crate::output::Stats;
use crate::request::{Definition, RenderRequest, Turn};
use crate::value::ValueRef;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// What a compact entry keeps of a successful turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactEntryOptions {
    /// Most recent tool calls of a turn that the strategy's full form
    /// shows: the calls the model saw.
    pub tool_call_limit: usize,
    /// Most recent tool calls an entry lists (at most `tool_call_limit`);
    /// the arguments of the other calls the model saw stay as facts, and
    /// the calls' header counts them: `;; Tool calls made (the last 1 of
    /// 20):`.
    pub listed_tool_calls: usize,
    /// Print lines up to this many characters are kept whole; longer ones
    /// give only their facts. 0: facts only.
    pub line_chars: usize,
    /// Limits of the value shown for a scalar definition.
    pub sample: ValueLimits,
    /// What becomes of the facts picked out of long print lines.
    pub bulk: BulkFacts,
}

impl Default for FactEntryOptions {
    fn default() -> Self {
        FactEntryOptions {
            tool_call_limit: 20,
            listed_tool_calls: 20,
            line_chars: 1,
            sample: ValueLimits::SAMPLE,
            bulk: BulkFacts::Keep,
        }
    }
}

/// What becomes of the facts picked out of long print lines (logs,
/// tables, pages): about one in five is copied by a later program, in the
/// corpus as often as a fact from anywhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkFacts {
    /// Listed in the entry and kept by every summary.
    Keep,
    /// Listed in the entry; a summary keeps those a program has used.
    Fold,
    /// Not listed (the turn's own facts, calls and definitions are).
    Drop,
}

/// What one entry shows, counted for the stats.
#[derive(Clone, Debug, Default)]
struct Shown {
    text: String,
    /// Facts the entry showed in a line of their own kind: a definition,
    /// a tool call, a short print line, the result, the program.
    facts: Vec<String>,
    /// Facts it picked out of long print lines (logs, tables, pages).
    bulk: Vec<String>,
    /// The redefined values it showed with their samples.
    sampled: Vec<String>,
    calls: (u32, u32),
    prints: (u32, u32),
}

/// The compact entries of every turn of a request, and the facts each one
/// admitted (what a frozen summary of those turns keeps).
#[derive(Clone, Debug)]
pub struct FactEntries {
    turns: Vec<Shown>,
    fold: Fold,
}

/// What the entries carry from one turn to the next: the facts shown so
/// far, the names defined so far with the facts of their values,
/// and a failed turn's notes waiting for the next entry.
#[derive(Clone, Debug, Default)]
struct Fold {
    ledger: FactLedger,
    defined: HashMap<String, HashSet<String>>,
    /// The tools' strings ([`value_texts`] of every tool result so far)
    /// each name's latest value holds.
    texts: HashMap<String, Vec<String>>,
    /// [`value_texts`] of every tool result so far.
    tool_strings: HashSet<String>,
    notes: Vec<String>,
}

/// Whether a definition's value is a scalar (shown with its value).
fn scalar(def: &Definition) -> bool {
    matches!(
        def.value().view(),
        ValueRef::Bool(_) | ValueRef::Int(_) | ValueRef::Float(_) | ValueRef::Str(_) | ValueRef::Keyword(_)
    )
}

/// A fact as the `;; facts:` line writes it: quoted when it holds a space.
fn fact_text(fact: &str) -> String {
    if fact.contains(' ') && !fact.starts_with('"') {
        format!("\"{fact}\"")
    } else {
        fact.to_string()
    }
}

/// The definition lines of `defs`: functions first, a scalar with its
/// value, and any value `with_sample` picks with its sample.
fn definition_lines(
    defs: &[&Definition],
    sample: ValueLimits,
    with_sample: impl Fn(&Definition) -> bool,
) -> Vec<String> {
    let (functions, values): (Vec<_>, Vec<_>) = defs.iter().partition(|d| d.is_function());
    functions.into_iter().chain(values).map(|d| definition_line(d, scalar(d) || with_sample(d), sample)).collect()
}

impl FactEntries {
    /// The entries of `req`'s turns (a failed turn's is empty: a layout
    /// shows it as program and error while it is the latest).
    pub fn new(req: &RenderRequest, opts: FactEntryOptions) -> FactEntries {
        let [head, _] = first_user_parts(req);
        let mut entries = FactEntries::start(head);
        entries.extend(req.turns(), &opts);
        entries
    }

    /// No entries yet, for a run whose prompts all show `head`.
    pub(crate) fn start(head: String) -> FactEntries {
        FactEntries { turns: Vec::new(), fold: Fold { ledger: FactLedger::new(head), ..Fold::default() } }
    }

    /// Adds the entries of `turns`, the turns after those it has: entry `i`
    /// depends on the turns up to `i` only, so entries once made stay.
    pub(crate) fn extend(&mut self, turns: &[Turn], opts: &FactEntryOptions) {
        let Fold { ledger, defined, texts, tool_strings, notes } = &mut self.fold;
        self.turns.extend(turns.iter().map(|t| {
            let own: Vec<&str> = t.tool_calls().iter().filter_map(|c| c.result()).flat_map(value_texts).collect();
            let shown = entry(t, opts, ledger, defined, Texts { own: &own, held: texts }, notes);
            tool_strings.extend(own.into_iter().map(str::to_string));
            for d in t.definitions().iter().filter(|d| !d.is_function()) {
                let held = value_texts(d.value()).into_iter().filter(|s| tool_strings.contains(*s));
                texts.insert(d.name().to_string(), held.map(str::to_string).collect());
            }
            shown
        }));
    }

    /// How many turns have entries.
    pub(crate) fn len(&self) -> usize {
        self.turns.len()
    }

    /// The entry of turn `i` (0-based).
    pub fn entry(&self, i: usize) -> &str {
        &self.turns[i].text
    }

    /// `;; facts:` and the facts entry `i` admitted that `shown` (the turn
    /// in another form) does not hold, so that a strategy showing the turn
    /// that way drops none of them; `None` when there are none.
    pub fn missing_facts(&self, i: usize, shown: &str) -> Option<String> {
        let t = &self.turns[i];
        let missing: Vec<String> = t
            .facts
            .iter()
            .chain(&t.bulk)
            .filter(|f| !shown.contains(f.trim_matches('"')))
            .map(|f| fact_text(f))
            .collect();
        (!missing.is_empty()).then(|| format!(";; facts: {}", missing.join(" ")))
    }

    /// Whether turn `i` redefined a value that its entry shows with the
    /// new value's sample, which a strategy's other forms of the turn may
    /// not (a correction shown beside the value it replaces).
    pub fn redefines(&self, i: usize) -> bool {
        !self.turns[i].sampled.is_empty()
    }

    /// Counts what entry `i` shows in `stats`: its tool calls, and its
    /// print lines (a line given as facts counts as dropped).
    pub fn count(&self, i: usize, stats: &mut Stats) {
        let t = &self.turns[i];
        stats.tool_calls_total += t.calls.0;
        stats.tool_calls_shown += t.calls.1;
        stats.tool_calls_dropped += t.calls.0 - t.calls.1;
        stats.printlns_total += t.prints.0;
        stats.printlns_shown += t.prints.1;
        stats.printlns_dropped += t.prints.0 - t.prints.1;
    }

    /// The frozen summary of `turns[range]` (0-based): the `user/` lines of
    /// what they defined (latest value winning), their most recent tool
    /// calls, and the facts their entries showed, in order, but for those
    /// picked out of long print lines that no program has used.
    pub fn summary(&self, turns: &[Turn], range: Range<usize>, opts: &FactEntryOptions, stats: &mut Stats) -> String {
        let mut text =
            format!(";; === turns {}-{} (summary; later turns below add to it) ===", range.start + 1, range.end);
        let memory = memory_of(&turns[range.clone()]);
        if !memory.is_empty() {
            text.push('\n');
            text.push_str(USER_HEADER);
            // A value an entry up to the range's end showed with its sample
            // keeps it.
            let sampled: HashSet<&str> =
                self.turns[..range.end].iter().flat_map(|t| &t.sampled).map(String::as_str).collect();
            for line in definition_lines(&memory, opts.sample, |d| sampled.contains(d.name())) {
                text.push('\n');
                text.push_str(&line);
            }
        }
        // The spec's section, left out when the turns made no call.
        let calls = tool_calls_section(&turns[range.clone()], opts.tool_call_limit, stats);
        if let Some(section) = calls.filter(|s| s.as_str() != NO_TOOL_CALLS) {
            text.push('\n');
            text.push_str(&section);
        }
        let prints: u32 = self.turns[range.clone()].iter().map(|t| t.prints.0).sum();
        stats.printlns_total += prints;
        stats.printlns_dropped += prints;
        // A fact from a long print line is kept only once a program has
        // used it: the rest of a log or table is what a fold forgets.
        let programs: Vec<&str> = turns[..range.end].iter().filter_map(|t| t.program()).collect();
        let used = |f: &&String| programs.iter().any(|p| p.contains(f.trim_matches('"')));
        let facts: Vec<String> = self.turns[range]
            .iter()
            .flat_map(|t| t.facts.iter().chain(t.bulk.iter().filter(|f| opts.bulk == BulkFacts::Keep || used(f))))
            .map(|f| fact_text(f))
            .collect();
        if !facts.is_empty() {
            text.push_str("\n;; facts: ");
            text.push_str(&facts.join(" "));
        }
        text + "\n\n"
    }
}

/// Admits the facts of `line`, which the entry shows whole, to `ledger`
/// (so no later entry repeats them), recording the new ones in `facts`.
fn admit_visible(line: &str, ledger: &mut FactLedger, facts: &mut Vec<String>) {
    for fact in output_facts(line) {
        if ledger.admit(fact) {
            facts.push(fact.to_string());
        }
    }
}

/// The tools' strings a turn's prints may show bare ([`value_texts`]).
#[derive(Clone, Copy)]
struct Texts<'a> {
    /// Those of the turn's own tool results.
    own: &'a [&'a str],
    /// Per name, the tools' strings its latest value holds.
    held: &'a HashMap<String, Vec<String>>,
}

impl<'a> Texts<'a> {
    /// The strings a print line of `turn` may show bare, each once: its
    /// tool results', and the tools' strings the values its program names
    /// hold, which a print shows as the tool gave them (`(doseq [b
    /// (:bookings bookings)] (println (:fare_basis b)))` a turn after the
    /// call; not the lines a program split a page into).
    fn of(self, turn: &Turn) -> Vec<&'a str> {
        let program = turn.program().unwrap_or_default();
        let named = self.held.iter().filter(|(name, _)| contains_symbol(program, name));
        let mut texts: Vec<&str> = self.own.to_vec();
        texts.extend(named.flat_map(|(_, t)| t.iter().map(String::as_str)));
        let mut unique = HashSet::new();
        texts.retain(|t| unique.insert(*t));
        texts
    }
}

/// The prose of a turn's answer: the model's own words around its
/// program (its plan, what it noted), without the program.
fn prose(turn: &Turn) -> String {
    let raw = turn.raw_response();
    match turn.program() {
        Some(program) if !program.is_empty() => raw.replace(program, ""),
        _ => raw.to_string(),
    }
}

/// Admits to `ledger` the facts of a print `line` not shown whole (its
/// output facts, then the tool strings `texts` it shows whole), adding the
/// new ones to `into`.
fn admit_printed(ledger: &mut FactLedger, line: &str, texts: &[&str], into: &mut Vec<String>) {
    into.extend(ledger.admit_all(output_facts(line)).into_iter().map(str::to_string));
    into.extend(ledger.admit_all(printed_texts(line, texts)).into_iter().map(str::to_string));
}

/// The entry of one turn, admitting what it shows to `ledger`, its
/// prose's new facts last. A failed turn has no entry: the facts of what
/// it printed before its error (unless `bulk_facts = "drop"`) and of its
/// prose (a model that wrote down what it knows but no program) wait in
/// `notes` for the next successful turn's entry. The model saw the one,
/// and the other is what it chose to keep. Its program's literals do not:
/// the fix usually comes on the next turn, which still shows the failed
/// program, and over the corpus keeping them cost 0.1 points for one
/// more fact recalled in 3,127.
fn entry(
    turn: &Turn,
    opts: &FactEntryOptions,
    ledger: &mut FactLedger,
    defined: &mut HashMap<String, HashSet<String>>,
    tool_texts: Texts,
    notes: &mut Vec<String>,
) -> Shown {
    let prose = prose(turn);
    if !turn.success() {
        if opts.bulk != BulkFacts::Drop {
            let texts = tool_texts.of(turn);
            for line in turn.prints().flat_map(str::lines) {
                admit_printed(ledger, line, &texts, notes);
            }
        }
        notes.extend(ledger.admit_all(output_facts(&prose)).into_iter().map(str::to_string));
        return Shown::default();
    }
    let mut shown = Shown { text: format!(";; --- turn {} ---", turn.number()), ..Shown::default() };
    let defs: Vec<&Definition> = turn.definitions().iter().collect();
    // A corrected value must be seen beside the one it replaces, never the
    // old one alone: a redefined scalar shows its value, a redefined
    // collection its sample when an earlier entry showed a fact of the old
    // value the new one lacks and neither the prompt nor the turn (its
    // program, its prints while their facts are kept) shows one of the new
    // value's own.
    let shows = |f: &String| {
        ledger.holds(f)
            || turn.program().is_some_and(|p| p.contains(f.as_str()))
            || (opts.bulk == BulkFacts::Keep && turn.prints().any(|p| p.contains(f.as_str())))
    };
    let sampled: Vec<bool> = defs
        .iter()
        .map(|d| {
            let facts = if d.is_function() { HashSet::new() } else { value_facts(d.value()) };
            let sample = !d.is_function()
                && defined.get(d.name()).is_some_and(|old| {
                    scalar(d)
                        || (old.iter().any(|f| !facts.contains(f) && ledger.admitted(f))
                            && !facts.iter().any(|f| !old.contains(f) && shows(f)))
                });
            defined.insert(d.name().to_string(), facts);
            sample
        })
        .collect();
    shown.sampled = defs.iter().zip(&sampled).filter(|(_, s)| **s).map(|(d, _)| d.name().to_string()).collect();
    let lines = definition_lines(&defs, opts.sample, |d| {
        defs.iter().position(|x| std::ptr::eq(*x, d)).is_some_and(|k| sampled[k])
    });
    for line in lines {
        admit_visible(&line, ledger, &mut shown.facts);
        shown.text.push('\n');
        shown.text.push_str(&line);
    }
    let calls: Vec<_> = turn.tool_calls().iter().collect();
    // The calls the model saw, the most recent of them listed; the others
    // it saw keep the facts of their arguments.
    let seen = &calls[calls.len().saturating_sub(opts.tool_call_limit)..];
    let (unlisted, listed) = seen.split_at(seen.len().saturating_sub(opts.listed_tool_calls));
    shown.calls = (calls.len() as u32, listed.len() as u32);
    if let Some(mut section) = compact_tool_calls_section(listed) {
        admit_visible(&section, ledger, &mut shown.facts);
        // Facts were read without the count, which is none.
        section.replace_range(..CALLS_HEADER.len(), &counted_calls_header(listed.len(), calls.len()));
        shown.text.push('\n');
        shown.text.push_str(&section);
    }
    let mut call_facts = Vec::new();
    if let Some(section) = compact_tool_calls_section(unlisted) {
        admit_visible(&section, ledger, &mut call_facts);
    }
    let mut rest: Vec<String> = Vec::new();
    let mut whole: Vec<&str> = Vec::new();
    let prints: Vec<&str> = turn.prints().collect();
    let texts = if opts.bulk == BulkFacts::Drop || prints.is_empty() { Vec::new() } else { tool_texts.of(turn) };
    for line in prints.iter().flat_map(|p| p.lines()) {
        if line.chars().count() <= opts.line_chars && !line.trim().is_empty() {
            whole.push(line);
            admit_visible(line, ledger, &mut shown.facts);
        } else if opts.bulk != BulkFacts::Drop {
            admit_printed(ledger, line, &texts, &mut rest);
        }
    }
    shown.prints = (
        prints.len() as u32,
        prints.iter().filter(|p| p.lines().all(|l| l.chars().count() <= opts.line_chars)).count() as u32,
    );
    if prints.is_empty() {
        let result = turn.result().map(|v| format_value(v, ValueLimits::SAMPLE)).unwrap_or_else(|| "nil".into());
        admit_visible(&result, ledger, &mut shown.facts);
        shown.text.push_str(&format!("\n;; => {result}"));
    } else if let Some(section) = output_lines(&whole) {
        shown.text.push('\n');
        shown.text.push_str(&section);
    }
    let mut program = std::mem::take(notes);
    program.extend(call_facts);
    program.extend(ledger.admit_all(program_facts(turn.program().unwrap_or_default())));
    // Last, so a note repeats nothing the entry shows in its own lines.
    program.extend(ledger.admit_all(output_facts(&prose)).into_iter().map(str::to_string));
    // A fact another one shows whole is shown: the entry lists the other
    // only, and no later entry lists it. Bulk facts hold others only while
    // every summary keeps them (`bulk_facts = "keep"`).
    let bulk_holds = opts.bulk == BulkFacts::Keep;
    for fact in shown.facts.iter().chain(&program).chain(rest.iter().filter(|_| bulk_holds)) {
        ledger.show(fact);
    }
    rest.retain(|f| !ledger.shows_within(f));
    program.retain(|f| !ledger.shows_within(f));
    let all: Vec<String> = rest.iter().chain(&program).map(|f| fact_text(f)).collect();
    if !all.is_empty() {
        shown.text.push_str("\n;; facts: ");
        shown.text.push_str(&all.join(" "));
    }
    shown.facts.extend(program);
    shown.bulk = rest;
    shown
}
