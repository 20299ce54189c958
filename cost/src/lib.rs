//! What a sequence of prompts costs on a provider that caches prompt
//! prefixes.
//!
//! Every provider ptc's users pay bills a repeated prompt prefix at about a
//! tenth of the input price, and writing a new one at full price or more. A
//! strategy that rewrites the middle of its prompt every turn loses that
//! discount, so raw token counts mislead. This crate is the one place that
//! says what a session's prompts cost:
//!
//! - [`Prompt`]: messages of text blocks, some marked as cache breakpoints;
//! - [`PriceModel`]: a cache rule and prices, built-in (`none`, `anthropic`,
//!   `openai`) or from a `[pricing.NAME]` table ([`PricingTable`]);
//! - [`Accounting`]: a session's prompts in order, each split into cache-read,
//!   cache-write and uncached tokens *of the request the backend really
//!   sends*, and priced;
//! - [`LearnedFacts`]: fact recall, so a cheaper strategy cannot hide a
//!   forgetful one; [`Corrections`]: stale facts shown, so it cannot hide
//!   a misleading one either;
//! - [`render_html`]: a self-contained report page.
//!
//! ```
//! use ptc_cost::{Accounting, Message, PriceModel, Prompt, TokenMemo};
//! use ptc_tokens::TokenCounter;
//!
//! let counter = TokenCounter::new("o200k_base").unwrap();
//! let mut memo = TokenMemo::new(&counter); // share it across sessions and models
//! let anthropic = PriceModel::builtin("anthropic").unwrap();
//! let mut session = Accounting::new(&anthropic);
//!
//! let system = Message::system("You solve a mission by writing PTC-Lisp programs. ".repeat(150));
//! let turn1 = Prompt::new(vec![system.clone(), Message::user("Count the orders.")]);
//! let mut turn2 = turn1.clone();
//! turn2.messages.push(Message::assistant("```clojure\n(count data/orders)\n```"));
//! turn2.messages.push(Message::user("user=> 40"));
//!
//! let first = session.turn(&turn1, None, &mut memo);
//! assert_eq!(first.usage.cache_read_tokens, 0); // nothing cached yet: written
//! assert_eq!(first.usage.cache_write_tokens + first.usage.uncached_tokens, first.usage.prompt_tokens);
//! let second = session.turn(&turn2, Some(20), &mut memo);
//! // Turn 1's prompt is a prefix of turn 2's: read at 0.1x.
//! assert_eq!(second.usage.cache_read_tokens, first.usage.cache_write_tokens);
//! assert!(second.cost.input < second.usage.prompt_tokens as f64 * 0.5);
//! assert_eq!(second.cost.output, Some(100.0)); // 20 completion tokens at 5x
//! ```
//!
//! # The requests it prices
//!
//! Cache hits are counted in tokens of the body the backend sends, counted
//! with the caller's `TokenCounter` (Claude's own tokenizer differs, so
//! absolute `anthropic` figures are estimates; ratios between strategies
//! hold), each message or block tokenized on its own:
//!
//! - `openai` (prefix rule): the JSON message array
//!   `[{"role":"system","content":"..."},...]`, a message's blocks
//!   concatenated without separator;
//! - `anthropic` (breakpoints rule): `{"system":[BLOCK,...],"messages":
//!   [{"role":"user","content":[BLOCK,...]},...]}` with
//!   `BLOCK = {"type":"text","text":"..."}`, every `system` message's blocks
//!   in the `system` array; a prefix is identified by its blocks' content,
//!   not by their `cache_control` markers;
//! - `none`: ptc's own count (content plus chat overhead per message), the
//!   figure `ptc render` prints.
//!
//! # How ptc sends breakpoints to Anthropic
//!
//! The accounting prices the request ptc's Anthropic backend sends, so both
//! follow one rule, [`sent_breakpoints`]: a prompt without a marked block
//! gets one breakpoint on the last system block (the language card is the
//! same all run) and one on the last block of the last message; a prompt with
//! more marked blocks than the provider accepts (4) sends the last one and
//! the earliest others.
//!
//! Nothing expires: turns are assumed to come within the cache lifetime of
//! each other (5 minutes, refreshed by every hit), as an agent loop's do.

mod account;
mod cache;
mod literals;
mod pricing;
mod prompt;
mod recall;
mod report;
mod stale;
mod usage;
mod wire;

pub use account::{session_costs, Accounting};
pub use literals::{program_literals, Literal};
pub use pricing::{
    CacheKind, CacheRule, CostUnit, Price, PriceModel, PriceModels, PricingError, PricingTable, BUILTIN_MODELS,
};
pub use prompt::{Block, Message, Prompt, Role};
pub use recall::{
    appears_in, LearnedFacts, MissedFact, Recall, TurnOutput, TurnRecall, MIN_NUMBER_DIGITS, MIN_TEXT_CHARS,
};
pub use report::{
    fitted_table, frontier, frontier_chart, frontier_lines, frontier_names, frontier_of, frontier_section,
    frontier_svg, look, render_html, table, wrap, FrontierPoint, Look, ModelCosts, Overview, Palette, Report,
    SessionReport, ShownPrompt, StrategyReport, OFF_SCALE_COST,
};
pub use stale::{Correction, Corrections, Stale, ValueDefinition};
pub use usage::{Cost, TurnCost, Usage};
pub use wire::{sent_breakpoints, BlockPosition, TokenMemo};
