//! The sections of a coalesced USER message (`docs/spec/single-user-coalesced.md`):
//! mission, `tool/`, `data/`, `user/`, tool calls, output, error, turn info.
//!
//! Every strategy builds its prompt from these pieces, so the same facts
//! read the same way whichever strategy renders them.

use super::signature::Signature;
use super::value_text::{format_value, is_blank, type_label, ValueLimits};
use crate::output::Stats;
use crate::request::{DataEntry, Definition, RenderRequest, ToolCall, ToolSpec, Turn};
use crate::value::{MapEntry, ValueRef};
use std::collections::HashMap;

/// Column that names are padded to before their `;` comment.
pub const NAME_COLUMN: usize = 30;

/// Header of the `tool/` section.
pub const TOOLS_HEADER: &str = ";; === tool/ ===";
/// Header of the `data/` section.
pub const DATA_HEADER: &str = ";; === data/ ===";
/// The tool calls section of turns that made no call.
pub const NO_TOOL_CALLS: &str = ";; No tool calls made";
/// Header of the `user/` section.
pub const USER_HEADER: &str = ";; === user/ (your prelude) ===";

/// The final-turn warning (MSG-005).
pub const FINAL_TURN_WARNING: &str = "⚠️ FINAL TURN - you must call (return result) or (fail response) next.";

/// Limits of a coalesced summary (single-user-coalesced parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SummaryOptions {
    /// Most recent println calls shown (API-004: 15).
    pub println_limit: usize,
    /// Most recent tool calls shown (API-005: 20).
    pub tool_call_limit: usize,
    /// Limits of samples in `data/` and `user/` (TRN-002: 3 items, 80 characters).
    pub sample: ValueLimits,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions { println_limit: 15, tool_call_limit: 20, sample: ValueLimits::SAMPLE }
    }
}

/// `Turns left: N`, or the final-turn warning when `turn == max_turns`.
pub fn turn_info(turn: u32, max_turns: u32) -> String {
    let left = (max_turns + 1).saturating_sub(turn);
    if left > 1 {
        format!("Turns left: {left}")
    } else {
        FINAL_TURN_WARNING.to_string()
    }
}

/// `text` padded with spaces to [`NAME_COLUMN`], never cut, and always
/// followed by at least one space.
pub fn pad(text: &str) -> String {
    let width = text.chars().count();
    let spaces = if width < NAME_COLUMN { NAME_COLUMN - width } else { 1 };
    format!("{text}{}", " ".repeat(spaces))
}

/// A docstring as shown: every `;` removed (DEF-007), line breaks as spaces.
pub fn clean_docstring(doc: &str) -> String {
    doc.chars().filter(|&c| c != ';').map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect()
}

/// `Error: {message}`, without doubling a prefix the message already has.
pub fn error_line(message: &str) -> String {
    if message.starts_with("Error:") {
        message.to_string()
    } else {
        format!("Error: {message}")
    }
}

/// The `tool/` section: one line per tool in name order, then an example.
pub fn tools_section(tools: &[ToolSpec]) -> String {
    if tools.is_empty() {
        return ";; No tools available".to_string();
    }
    let mut sorted: Vec<(&ToolSpec, Signature)> = tools.iter().map(|t| (t, Signature::of(t))).collect();
    sorted.sort_by(|a, b| a.0.name().cmp(b.0.name()));
    let mut out = String::from(TOOLS_HEADER);
    for (tool, sig) in &sorted {
        out.push('\n');
        out.push_str(&tool_line(tool, sig));
        if let Some(desc) = tool.description().filter(|d| !d.trim().is_empty()) {
            out.push_str("  ; ");
            out.push_str(&desc.replace('\n', " "));
        }
    }
    match sorted.iter().find(|(_, sig)| !sig.params.is_empty()) {
        Some((tool, sig)) => {
            let args: Vec<String> = sig.params.iter().map(|(n, _)| format!(":{n} ...")).collect();
            out.push_str(&format!("\n;; Example: (tool/{} {{{}}})", tool.name(), args.join(" ")));
        }
        None => out.push_str("\n;; Call with named args: (tool/name {:key value})"),
    }
    out
}

/// `tool/{name}({params}) -> {return}`, without the description.
pub fn tool_line(tool: &ToolSpec, sig: &Signature) -> String {
    format!("tool/{}({}) -> {}", tool.name(), sig.params_text(), sig.returns)
}

/// `{type}, sample: {sample}`; blank values (nil, empty) get no sample.
pub fn type_and_sample(value: &crate::Value, show_sample: bool, limits: ValueLimits) -> String {
    let label = type_label(value);
    if show_sample && !is_blank(value) {
        format!("{label}, sample: {}", format_value(value, limits))
    } else {
        label
    }
}

/// The `data/` section, keys in name order; `None` without data.
pub fn data_section(data: &[DataEntry], sample: ValueLimits) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let mut sorted: Vec<&DataEntry> = data.iter().collect();
    sorted.sort_by(|a, b| a.name().cmp(b.name()));
    let mut out = String::from(DATA_HEADER);
    for entry in sorted {
        let name = format!("data/{}", entry.name());
        out.push_str(&format!("\n{}; {}", pad(&name), type_and_sample(entry.value(), true, sample)));
    }
    Some(out)
}

/// The user namespace after `turns`: successful turns' definitions folded,
/// latest value winning, in order of first definition (DEF-001/002/009).
pub fn memory_of(turns: &[Turn]) -> Vec<&Definition> {
    let mut order: Vec<&Definition> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for def in turns.iter().filter(|t| t.success()).flat_map(|t| t.definitions()) {
        match index.get(def.name()) {
            Some(&i) => order[i] = def,
            None => {
                index.insert(def.name(), order.len());
                order.push(def);
            }
        }
    }
    order
}

/// `(name [a b & rest])`
pub fn function_signature(name: &str, def: &Definition) -> String {
    let Some(f) = def.value().as_function() else { return format!("({name} [])") };
    let mut params: Vec<&str> = f.params().collect();
    if let Some(rest) = f.variadic() {
        params.push("&");
        params.push(rest);
    }
    format!("({name} [{}])", params.join(" "))
}

/// One `user/` line for a definition.
pub fn definition_line(def: &Definition, show_sample: bool, sample: ValueLimits) -> String {
    let doc = def.docstring().map(clean_docstring);
    if let Some(f) = def.value().as_function() {
        let head = function_signature(def.name(), def);
        let ret = f.return_type().map(|t| format!(" -> {t}")).unwrap_or_default();
        match doc {
            Some(doc) => format!("{}; \"{doc}\"{ret}", pad(&head)),
            None => format!("{head}{ret}"),
        }
    } else {
        let doc = doc.map(|d| format!("\"{d}\" ")).unwrap_or_default();
        format!("{}; {doc}= {}", pad(def.name()), type_and_sample(def.value(), show_sample, sample))
    }
}

/// The `user/` section: functions first, then values, each in order of
/// first definition (DEF-008, DEF-009); `None` when nothing is defined.
pub fn user_section(memory: &[&Definition], show_samples: bool, sample: ValueLimits) -> Option<String> {
    if memory.is_empty() {
        return None;
    }
    let mut out = String::from(USER_HEADER);
    let (functions, values): (Vec<&&Definition>, Vec<&&Definition>) = memory.iter().partition(|d| d.is_function());
    for def in functions.into_iter().chain(values) {
        out.push('\n');
        out.push_str(&definition_line(def, show_samples, sample));
    }
    Some(out)
}

/// Whether any successful turn printed (SAM-001/002: the check is global).
pub fn any_println(turns: &[Turn]) -> bool {
    turns.iter().any(|t| t.success() && t.prints().len() > 0)
}

/// `name(args)` of a tool call, args cut to 3 items / 60 characters (TRN-003).
pub fn tool_call_text(name: &str, args: &crate::Value) -> String {
    let args = match args.view() {
        ValueRef::Nil => "{}".to_string(),
        _ => format_value(args, ValueLimits::TOOL_ARGS),
    };
    format!("{name}({args})")
}

/// The tool calls section over the successful `turns`: the most recent
/// `limit` calls, oldest first, consecutive identical calls collapsed to
/// ` xN` (TC-001..008). `None` when no turn has completed.
pub fn tool_calls_section(turns: &[Turn], limit: usize, stats: &mut Stats) -> Option<String> {
    if turns.is_empty() {
        return None;
    }
    let calls: Vec<_> = turns.iter().filter(|t| t.success()).flat_map(|t| t.tool_calls()).collect();
    let shown = &calls[calls.len().saturating_sub(limit)..];
    stats.tool_calls_total += calls.len() as u32;
    stats.tool_calls_shown += shown.len() as u32;
    stats.tool_calls_dropped += (calls.len() - shown.len()) as u32;
    if shown.is_empty() {
        return Some(NO_TOOL_CALLS.to_string());
    }
    Some(calls_section(tool_call_lines(shown)))
}

/// The header of a calls section.
pub(crate) const CALLS_HEADER: &str = ";; Tool calls made:";

/// The header of a calls section that lists the last `listed` of a turn's
/// `total` calls: [`CALLS_HEADER`], with the count when it lists fewer.
pub(crate) fn counted_calls_header(listed: usize, total: usize) -> String {
    match listed < total {
        true => format!(";; Tool calls made (the last {listed} of {total}):"),
        false => CALLS_HEADER.to_string(),
    }
}

/// [`CALLS_HEADER`] over `lines`, each as `;   {line}`.
fn calls_section(lines: Vec<String>) -> String {
    let mut out = String::from(CALLS_HEADER);
    for line in lines {
        out.push_str("\n;   ");
        out.push_str(&line);
    }
    out
}

/// The calls section of a compact form of a turn (fact memory's entries,
/// a strategy's full form of its latest turn): `;; Tool calls made:` and
/// the [`compact_tool_call_lines`] of `calls`; `None` without calls.
pub fn compact_tool_calls_section(calls: &[&ToolCall]) -> Option<String> {
    (!calls.is_empty()).then(|| calls_section(compact_tool_call_lines(calls)))
}

/// The runs of consecutive identical calls (same name and args), each
/// call with how many times in a row it was made (TC-008).
fn identical_runs<'a>(calls: &[&'a ToolCall]) -> Vec<(&'a ToolCall, usize)> {
    let mut runs: Vec<(&ToolCall, usize)> = Vec::new();
    for &call in calls {
        match runs.last_mut() {
            Some((last, n)) if last.name() == call.name() && last.args() == call.args() => *n += 1,
            _ => runs.push((call, 1)),
        }
    }
    runs
}

/// `name(args)` with ` xN` appended for a run of `n` identical calls.
fn run_text(call: &ToolCall, n: usize) -> String {
    let line = tool_call_text(call.name(), call.args());
    match n {
        1 => line,
        _ => format!("{line} x{n}"),
    }
}

/// `name(args)` per call, consecutive identical calls (same name and args)
/// collapsed to one entry with ` xN` appended (TC-008).
pub fn tool_call_lines(calls: &[&ToolCall]) -> Vec<String> {
    identical_runs(calls).into_iter().map(|(call, n)| run_text(call, n)).collect()
}

/// [`tool_call_lines`], with each run of calls to one tool whose arguments
/// are maps with the same keys written once: the first call in full, then
/// `and N more:` with what each later call changed (the value of the one
/// key that varies, else a map of the keys that vary), as in
/// `case({:id "T-1"}) and 2 more: "T-2" "T-3"`. Every value stays; the
/// tool's name and the keys are not repeated.
pub fn compact_tool_call_lines(calls: &[&ToolCall]) -> Vec<String> {
    let runs = identical_runs(calls);
    fn entries(call: &ToolCall) -> &[MapEntry] {
        match call.args().view() {
            ValueRef::Map(e) => e,
            _ => &[],
        }
    }
    let same_keys = |a: &[MapEntry], b: &[MapEntry]| a.iter().map(MapEntry::key).eq(b.iter().map(MapEntry::key));
    let mut lines = Vec::new();
    let mut i = 0;
    while i < runs.len() {
        let (first, n) = runs[i];
        let head = entries(first);
        // The single calls after a single call, to the same tool with the
        // same keys.
        let more: Vec<&[MapEntry]> = match (n, head.is_empty()) {
            (1, false) => runs[i + 1..]
                .iter()
                .take_while(|(c, m)| *m == 1 && c.name() == first.name() && same_keys(entries(c), head))
                .map(|(c, _)| entries(c))
                .collect(),
            _ => Vec::new(),
        };
        let mut line = run_text(first, n);
        if !more.is_empty() {
            let varying: Vec<usize> =
                (0..head.len()).filter(|&k| more.iter().any(|e| e[k].value() != head[k].value())).collect();
            let changed: Vec<String> = more
                .iter()
                .map(|e| match varying[..] {
                    [k] => format_value(e[k].value(), ValueLimits::TOOL_ARGS),
                    _ => {
                        let pairs = varying.iter().map(|&k| (e[k].key().clone(), e[k].value().clone())).collect();
                        format_value(&crate::Value::map(pairs), ValueLimits::TOOL_ARGS)
                    }
                })
                .collect();
            line.push_str(&format!(" and {} more: {}", more.len(), changed.join(" ")));
        }
        lines.push(line);
        i += 1 + more.len();
    }
    lines
}

/// The most recent `limit` println calls of successful `turns`, oldest
/// first (TRN-010: the oldest are dropped), counted into the println stats.
pub fn recent_prints<'a>(turns: &'a [Turn], limit: usize, stats: &mut Stats) -> Vec<&'a str> {
    let mut prints: Vec<&str> = turns.iter().filter(|t| t.success()).flat_map(|t| t.prints()).collect();
    let dropped = prints.len().saturating_sub(limit);
    stats.printlns_total += prints.len() as u32;
    stats.printlns_shown += (prints.len() - dropped) as u32;
    stats.printlns_dropped += dropped as u32;
    prints.drain(..dropped);
    prints
}

/// The output section: the most recent `limit` println calls of successful
/// turns, verbatim (FMT-010, TRN-006..010). `None` when nothing printed.
pub fn output_section(turns: &[Turn], limit: usize, stats: &mut Stats) -> Option<String> {
    output_lines(&recent_prints(turns, limit, stats))
}

/// The output section of prints already chosen: `;; Output:`, then each
/// print verbatim (FMT-010). `None` when there are none.
pub fn output_lines(shown: &[&str]) -> Option<String> {
    (!shown.is_empty()).then(|| format!(";; Output:\n{}", shown.join("\n")))
}

/// The program of a turn, or `(unknown program)` when none was extracted.
pub fn program_or_unknown(turn: &Turn) -> &str {
    turn.program().unwrap_or("(unknown program)")
}

/// The error section for a failed turn: its program and its error.
pub fn error_section(turn: &Turn) -> String {
    let message = turn.error().map(|e| e.message()).unwrap_or("unknown error");
    attempt_section(program_or_unknown(turn), message)
}

/// The error section from a program text (possibly cut by the caller) and
/// the error message.
pub fn attempt_section(program: &str, message: &str) -> String {
    format!("---\nYour previous attempt:\n```clojure\n{program}\n```\n\n{}\n---", error_line(message))
}

/// What closes a coalesced message (after its summary sections).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Closing {
    /// Show the error section when the last of the folded turns failed.
    pub latest_error: bool,
    /// Append the turn info for this turn number.
    pub turn_info: Option<u32>,
}

impl Closing {
    /// Nothing after the summary (the folded part of a windowed prompt).
    pub const NONE: Closing = Closing { latest_error: false, turn_info: None };

    /// The latest error and the turn info of `turn`: the end of a prompt
    /// that coalesces every turn.
    pub fn for_turn(turn: u32) -> Closing {
        Closing { latest_error: true, turn_info: Some(turn) }
    }
}

/// The sections that never change during a run: mission, `tool/`, `data/`.
pub fn head_sections(req: &RenderRequest, opts: &SummaryOptions) -> Vec<String> {
    let mut sections = vec![req.mission().to_string(), tools_section(req.tools())];
    sections.extend(data_section(req.data(), opts.sample));
    sections
}

/// What `turns` taught the model, in coalesced form: `user/` (samples
/// shown unless a successful turn of `seen` printed: SAM-001/002), the tool
/// calls and the output, filling `stats`. `seen` is the history the
/// println check looks at (the whole request, or the turns up to a
/// checkpoint, so that a checkpoint never changes once written).
pub fn summary_sections(seen: &[Turn], turns: &[Turn], opts: &SummaryOptions, stats: &mut Stats) -> Vec<String> {
    let mut sections = Vec::new();
    sections.extend(user_section(&memory_of(turns), !any_println(seen), opts.sample));
    sections.extend(tool_calls_section(turns, opts.tool_call_limit, stats));
    sections.extend(output_section(turns, opts.println_limit, stats));
    sections
}

/// Builds the single coalesced USER message of `turns` (all of them, or the
/// older part a windowed strategy folds), filling `stats`. With no turns
/// and the turn info of turn 1 this is exactly the turn-1 message, so the
/// prefix stays stable across a run.
pub fn coalesced_message(
    req: &RenderRequest,
    turns: &[Turn],
    opts: &SummaryOptions,
    closing: Closing,
    stats: &mut Stats,
) -> String {
    let mut sections = head_sections(req, opts);
    sections.extend(summary_sections(req.turns(), turns, opts, stats));
    let successes = turns.iter().filter(|t| t.success()).count() as u32;
    let failures = turns.len() as u32 - successes;
    stats.turns_compressed += successes;
    match turns.last() {
        Some(last) if closing.latest_error && !last.success() => {
            sections.push(error_section(last));
            stats.error_turns_collapsed += failures - 1;
        }
        _ => stats.error_turns_collapsed += failures,
    }
    if let Some(turn) = closing.turn_info {
        sections.push(turn_info(turn, req.max_turns()));
    }
    sections.retain(|s| !s.is_empty());
    sections.join("\n\n")
}

/// The single-user-coalesced USER message of the whole request, as
/// `docs/spec/single-user-coalesced.md` lays it out.
pub fn single_user_message(req: &RenderRequest, opts: &SummaryOptions, stats: &mut Stats) -> String {
    coalesced_message(req, req.turns(), opts, Closing::for_turn(req.turn()), stats)
}

/// The first USER message of a run (turn 1), shared by full-history and
/// every coalescing strategy so the cached prefix never changes.
pub fn first_user_message(req: &RenderRequest) -> String {
    let [head, info] = first_user_parts(req);
    head + &info
}

/// The turn-1 message in its two parts: the run's stable head (mission,
/// `tool/`, `data/`, each followed by a blank line) and the turn info.
pub fn first_user_parts(req: &RenderRequest) -> [String; 2] {
    let mut head = String::new();
    for section in head_sections(req, &SummaryOptions::default()).iter().filter(|s| !s.is_empty()) {
        head.push_str(section);
        head.push_str("\n\n");
    }
    [head, turn_info(1, req.max_turns())]
}

/// Whether `name` occurs in `text` as a whole symbol, not as part of a
/// longer one (`r1` is not in `r10`). How a layout that shows a turn as
/// its program checks that the names it defined stay visible.
pub fn contains_symbol(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return true;
    }
    let symbol_char = |c: char| c.is_alphanumeric() || "-_?!*+<>=/.'$%&".contains(c);
    whole_matches(text, name, symbol_char).next().is_some()
}

/// Where `needle` occurs in `text` with no character that `joins` just
/// before or just after it: a whole symbol, word or token, by what joins
/// one to its neighbours.
pub(crate) fn whole_matches<'a>(
    text: &'a str,
    needle: &'a str,
    joins: impl Fn(char) -> bool + 'a,
) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(needle).map(|(at, _)| at).filter(move |&at| {
        !text[..at].chars().next_back().is_some_and(&joins)
            && !text[at + needle.len()..].chars().next().is_some_and(&joins)
    })
}
