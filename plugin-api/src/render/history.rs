//! The uncompressed transcript (`full-history`): what the model would see
//! if nothing were compressed. Windowed strategies reuse its pieces, and
//! cache-stable layouts its turns as one text each ([`verbatim_entry`]).

use super::budget::estimate_text_tokens;
use super::sections::{contains_symbol, error_line, first_user_parts, turn_info};
use super::value_text::{format_value, ValueLimits};
use crate::output::{Message, Rendered, Role, Stats};
use crate::prompt::{Block, Prompt};
use crate::request::{RenderRequest, Turn};

/// Name of the built-in uncompressed strategy.
pub const FULL_HISTORY: &str = "full-history";

/// What a turn showed the model: its println output, or `user=> {result}`
/// when it printed nothing; a failed turn's println output (what it
/// printed before the error), then `Error: {message}`.
pub fn turn_outcome(turn: &Turn) -> String {
    if let Some(error) = turn.error() {
        let printed = turn.prints().map(|p| format!("{p}\n"));
        return printed.chain([error_line(error.message())]).collect();
    }
    if turn.prints().len() > 0 {
        return turn.prints().collect::<Vec<_>>().join("\n");
    }
    let result = turn.result().map(|v| format_value(v, ValueLimits::SAMPLE)).unwrap_or_else(|| "nil".into());
    format!("user=> {result}")
}

/// The USER feedback after turn `turn`: its outcome, then the turn info for
/// the next turn.
pub fn feedback_message(turn: &Turn, max_turns: u32) -> String {
    format!("{}\n\n{}", turn_outcome(turn), turn_info(turn.number() + 1, max_turns))
}

/// Estimated tokens of turn `turn` as the full transcript shows it: its
/// answer and its feedback ([`estimate_text_tokens`], message overhead not
/// counted). What cache-stable layouts weigh a fold or a summary against.
pub fn transcript_tokens(turn: &Turn, max_turns: u32) -> usize {
    estimate_text_tokens(turn.raw_response()) + estimate_text_tokens(&feedback_message(turn, max_turns))
}

/// A successful turn as the full transcript shows it, as one text: its
/// whole answer, then what it printed or returned. `None` for a failed
/// turn (a layout shows those as program and error, which the latest-error
/// rule needs) and for a turn whose answer does not name every value it
/// defined (the names must stay visible).
pub fn verbatim_entry(turn: &Turn) -> Option<String> {
    if !turn.success() {
        return None;
    }
    let text = format!(";; --- turn {} ---\n{}\n{}", turn.number(), turn.raw_response().trim_end(), turn_outcome(turn));
    turn.definitions().iter().all(|d| contains_symbol(&text, d.name())).then_some(text)
}

/// Counts, in `stats`, a turn shown as its [`verbatim_entry`]: every tool
/// call (its program shows them) and every println.
pub fn count_verbatim_entry(turn: &Turn, stats: &mut Stats) {
    let (calls, prints) = (turn.tool_calls().len() as u32, turn.prints().len() as u32);
    stats.tool_calls_total += calls;
    stats.tool_calls_shown += calls;
    stats.printlns_total += prints;
    stats.printlns_shown += prints;
}

/// Appends `turns` as ASSISTANT/USER-feedback pairs, exactly as the full
/// transcript shows them.
pub fn push_verbatim_turns(messages: &mut Vec<Message>, turns: &[Turn], max_turns: u32) {
    for turn in turns {
        messages.push(Message::assistant(turn.raw_response()));
        messages.push(Message::user(feedback_message(turn, max_turns)));
    }
}

/// Renders the full transcript of `req`.
pub fn full_history(req: &RenderRequest) -> Rendered {
    full_history_prompt(req).into_rendered()
}

/// The full transcript with its cache layout: the first USER message splits
/// into the run's stable head (mission, `tool/`, `data/`; a breakpoint) and
/// the turn-1 info, and the prompt ends with a breakpoint, since it only
/// ever grows at the end.
pub fn full_history_prompt(req: &RenderRequest) -> Prompt {
    let mut prompt = Prompt::builder().system(req.system_prompt()).message(Role::User, first_user_blocks(req));
    let mut pairs = Vec::new();
    push_verbatim_turns(&mut pairs, req.turns(), req.max_turns());
    for m in pairs {
        prompt.push(m.role(), [Block::new(m.content())]);
    }
    let mut stats = Stats::new(FULL_HISTORY);
    for turn in req.turns().iter().filter(|t| t.success()) {
        count_verbatim_entry(turn, &mut stats);
    }
    prompt.breakpoint_here().build(stats)
}

/// The turn-1 USER message as the full transcript sends it: the run's
/// stable head (mission, `tool/`, `data/`) as a block ending a breakpoint,
/// then the turn-1 info. A layout whose prompt starts the same way shares
/// the turn-1 prompt's cache entry (turn 1 is always the full history).
pub fn first_user_blocks(req: &RenderRequest) -> [Block; 2] {
    let [head, info] = first_user_parts(req);
    [Block::new(head).breakpoint(), Block::new(info)]
}

/// Messages as plain text: a `=== role ===` header line, the content, a
/// blank line. Used by `ptc render` and the golden files.
pub fn messages_text(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages {
        out.push_str(&format!("=== {} ===\n{}\n\n", m.role(), m.content()));
    }
    out
}
