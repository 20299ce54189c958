//! What each prompt of a run costs under the agent's price model, as the
//! session records it: the server's cache figures when it reported them,
//! otherwise ptc's own accounting of the request it sent (`ptc-cost`).

use ptc_cost::{Accounting, Block, Message, PriceModel, Prompt, TokenMemo};
use ptc_llm::Usage;
use ptc_session::{CostRecord, CostSource, MessageRecord, Session, TurnRecord};
use ptc_tokens::TokenCounter;

/// The price model of a run and its accounting so far.
pub struct Costing {
    model: PriceModel,
    accounting: Accounting,
    memo: TokenMemo<'static>,
}

impl Costing {
    /// Starts pricing with `model`, counting with `counter`; `earlier`
    /// turns (a resumed run) are accounted first, so the cache state
    /// carries over.
    pub fn new(model: PriceModel, counter: &'static TokenCounter, earlier: &[TurnRecord]) -> Costing {
        let mut costing = Costing { accounting: Accounting::new(&model), model, memo: TokenMemo::new(counter) };
        for turn in earlier.iter().filter(|t| !t.messages.is_empty()) {
            costing.accounting.turn(&recorded_prompt(&turn.messages), None, &mut costing.memo);
        }
        costing
    }

    /// The cost record of `prompt`, sent in order after the earlier ones:
    /// priced from `reported` when the server gave its cache figures, else
    /// from the accounting's estimate.
    pub fn turn(&mut self, prompt: &Prompt, reported: Option<&Usage>) -> CostRecord {
        let output = reported.map(|u| u.completion_tokens);
        let estimated = self.accounting.turn(prompt, output, &mut self.memo).usage;
        let (usage, source) = match reported {
            Some(u) if u.cache_read_tokens.is_some() || u.cache_write_tokens.is_some() => {
                let read = u.cache_read_tokens.unwrap_or(0);
                let write = u.cache_write_tokens.unwrap_or(0);
                let usage = ptc_cost::Usage {
                    prompt_tokens: u.prompt_tokens,
                    cache_read_tokens: read,
                    cache_write_tokens: write,
                    uncached_tokens: u.prompt_tokens.saturating_sub(read + write),
                    output_tokens: Some(u.completion_tokens),
                };
                (usage, CostSource::Reported)
            }
            _ => (estimated, CostSource::Estimated),
        };
        let cost = self.model.cost(&usage);
        CostRecord {
            model: self.model.name().to_string(),
            source,
            prompt_tokens: usage.prompt_tokens,
            cache_read_tokens: usage.cache_read_tokens,
            cache_write_tokens: usage.cache_write_tokens,
            uncached_tokens: usage.uncached_tokens,
            input_cost: cost.input,
            output_cost: cost.output,
        }
    }
}

/// What a run's prompts cost beside what the full history would have cost
/// over the same turns, both by ptc's accounting under one price model
/// (the run's own figures may be the server's instead).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgainstFullHistory {
    /// The prompts the run sent.
    pub run: f64,
    /// The full history of each of its turns.
    pub full_history: f64,
}

impl AgainstFullHistory {
    /// Prices `session`'s recorded prompts and the full history of each of
    /// its turns under `model`; `None` when a turn's prompt was not
    /// recorded or its request cannot be rebuilt.
    pub fn of(session: &Session, model: &PriceModel, counter: &'static TokenCounter) -> Option<AgainstFullHistory> {
        let mut sent = Vec::with_capacity(session.turns.len());
        let mut full = Vec::with_capacity(session.turns.len());
        for turn in &session.turns {
            if turn.messages.is_empty() {
                return None;
            }
            sent.push(recorded_prompt(&turn.messages));
            let request = session.request_for_turn(Some(turn.number)).ok()?;
            full.push(Prompt::from(&ptc_plugin_api::render::full_history_prompt(&request)));
        }
        let mut memo = TokenMemo::new(counter);
        let mut cost = |prompts: &[Prompt]| -> f64 {
            ptc_cost::session_costs(model, prompts, &mut memo).iter().map(|c| c.cost.input).sum()
        };
        Some(AgainstFullHistory { run: cost(&sent), full_history: cost(&full) })
    }
}

/// A recorded prompt, with its blocks and breakpoints, as the accounting reads it.
pub fn recorded_prompt(messages: &[MessageRecord]) -> Prompt {
    Prompt::new(
        messages
            .iter()
            .map(|m| {
                let blocks = m.blocks().into_iter().map(|(text, b)| Block { text: text.to_string(), breakpoint: b });
                Message::with_blocks(m.role, blocks.collect())
            })
            .collect(),
    )
}
