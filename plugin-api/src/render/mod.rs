//! Shared rendering pieces: every strategy (and the host's built-in
//! full-history) builds its prompt from these, so no strategy carries its
//! own copy of the formatting rules.

mod history;
mod sections;
mod signature;
mod value_text;

pub use history::{feedback_message, full_history, messages_text, push_verbatim_turns, turn_outcome, FULL_HISTORY};
pub use sections::{
    any_println, clean_docstring, coalesced_message, data_section, definition_line, error_line, error_section,
    first_user_message, function_signature, memory_of, output_section, pad, program_or_unknown, tool_call_text,
    tool_calls_section, tools_section, turn_info, user_section, SummaryOptions, FINAL_TURN_WARNING, NAME_COLUMN,
};
pub use signature::{kebab_case, Signature};
pub use value_text::{format_float, format_value, is_blank, quote_str, type_label, ValueLimits};
