//! Shared rendering pieces: every strategy (and the host's built-in
//! full-history) builds its prompt from these, so no strategy carries its
//! own copy of the formatting rules.

mod compact;
mod history;
mod options;
mod sections;
mod signature;
mod turn_summary;
mod value_text;

pub use compact::{
    compact_data_section, compact_definition_line, compact_output_section, compact_tools_section, compact_user_section,
    cut_chars, cut_error_section, cut_lines, estimate_tokens, ESTIMATE_BYTES_PER_TOKEN, ESTIMATE_MESSAGE_OVERHEAD,
    ESTIMATE_REPLY_PRIMING,
};
pub use history::{feedback_message, full_history, messages_text, push_verbatim_turns, turn_outcome, FULL_HISTORY};
pub use sections::{
    any_println, clean_docstring, coalesced_message, data_section, definition_line, error_line, error_section,
    first_user_message, function_signature, memory_of, output_section, pad, program_or_unknown, recent_prints,
    tool_call_text, tool_calls_section, tools_section, turn_info, user_section, SummaryOptions, FINAL_TURN_WARNING,
    NAME_COLUMN,
};
pub use sections::{
    attempt_section, tool_call_lines, tool_line, type_and_sample, DATA_HEADER, TOOLS_HEADER, USER_HEADER,
};
pub use signature::{kebab_case, Signature};
pub use turn_summary::{defined_summary_line, function_summary_line, turn_summary, NO_TOOL_CALLS};
pub use value_text::{format_float, format_value, is_blank, quote_str, type_label, ValueLimits};
