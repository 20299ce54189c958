//! Shared rendering pieces: every strategy (and the host's built-in
//! full-history) builds its prompt from these, so no strategy carries its
//! own copy of the formatting rules.
//!
//! - values as text: [`type_label`], [`format_value`] with [`ValueLimits`];
//! - tool signatures: [`Signature`];
//! - the sections of `docs/spec/single-user-coalesced.md`: [`head_sections`]
//!   (mission, `tool/`, `data/`), [`summary_sections`] (`user/`, tool
//!   calls, output), [`error_section`], [`turn_info`], composed by
//!   [`coalesced_message`] and [`single_user_message`];
//! - the uncompressed transcript: [`full_history`], [`push_verbatim_turns`];
//! - cache-stable layouts: [`checkpointed_prompt`] (the checkpointed layout,
//!   filled with a strategy's blocks), built on [`appended_entries`],
//!   [`checkpoint`] and [`FoldPolicy`];
//! - what providers charge for cached and uncached tokens: the price table
//!   [`PROVIDERS`] ([`ANTHROPIC`], [`OPENAI`]), which `ptc-cost` prices by;
//! - budgets: [`estimate_tokens`].

mod budget;
mod cache;
mod fact_entries;
mod fact_memory;
mod facts;
mod history;
mod ledger;
mod literals;
mod memo;
mod options;
mod prices;
mod sections;
mod signature;
mod value_text;

pub use budget::{
    estimate_text_tokens, estimate_tokens, ESTIMATE_BYTES_PER_TOKEN, ESTIMATE_MESSAGE_OVERHEAD, ESTIMATE_REPLY_PRIMING,
};
pub use cache::{
    appended_entries, cache_epoch, check_cache_stable, checkpoint, show_once_pays, surely_cached, CacheBreak,
    Checkpoint, Checkpointing, FoldPolicy, Rewrite, CACHE_EPOCH, CACHE_PREFIX_STEP, CACHE_READ_PRICE,
    CACHE_WRITE_PRICE, DEFAULT_CACHE_MIN_TOKENS, SURELY_CACHED_FACTOR, SURELY_UNCACHED_FACTOR,
};
pub use fact_entries::{BulkFacts, FactEntries, FactEntryOptions};
pub use fact_memory::{
    fact_memory_prompt, fact_memory_prompt_memoized, finish_without_checkpoints, FactMemory, DEFAULT_RECENT_TURNS,
};
pub use facts::{
    is_fact, output_facts, printed_texts, program_facts, value_facts, value_texts, FactLedger, MAX_FACT_CHARS,
    MAX_VALUE_ATOMS, MAX_VALUE_TEXT_BYTES, MIN_NUMBER_DIGITS, MIN_TEXT_CHARS,
};
pub use history::{
    count_verbatim_entry, feedback_message, first_user_blocks, full_history, full_history_prompt, messages_text,
    push_verbatim_turns, transcript_tokens, turn_outcome, verbatim_entry, FULL_HISTORY,
};
pub use ledger::{checkpointed_prompt, checkpointed_prompt_with, Recent, RUN_END_ODDS};
pub use literals::{program_literals, Literal};
pub use memo::{checkpointed_prompt_memoized, RenderMemo, MEMO_RUNS};
pub use prices::{CacheMatch, ProviderPrices, ANTHROPIC, OPENAI, PROVIDERS};
pub use sections::{
    any_println, attempt_section, clean_docstring, coalesced_message, compact_tool_call_lines,
    compact_tool_calls_section, contains_symbol, data_section, definition_line, error_line, error_section,
    first_user_message, first_user_parts, function_signature, head_sections, memory_of, output_lines, output_section,
    pad, program_or_unknown, recent_prints, single_user_message, summary_sections, tool_call_lines, tool_call_text,
    tool_calls_section, tool_line, tools_section, turn_info, type_and_sample, user_section, Closing, SummaryOptions,
    DATA_HEADER, FINAL_TURN_WARNING, NAME_COLUMN, NO_TOOL_CALLS, TOOLS_HEADER, USER_HEADER,
};
pub use signature::{kebab_case, Signature};
pub use value_text::{format_float, format_value, is_blank, quote_str, type_label, ValueLimits};
