//! What each prompt of a run costs under the agent's price model, as the
//! session records it: the server's cache figures when it reported them,
//! otherwise ptc's own accounting of the request it sent (`ptc-cost`).

use crate::usage::reported;
use ptc_cost::{Accounting, Block, Message, PriceModel, Prompt, TokenMemo};
use ptc_llm::Usage;
use ptc_session::{CostRecord, CostSource, MessageRecord, TurnRecord};
use ptc_tokens::TokenCounter;

/// The price model of a run and its accounting so far.
pub struct Costing {
    model: PriceModel,
    accounting: Accounting,
    memo: TokenMemo<'static>,
    counter: &'static TokenCounter,
}

impl Costing {
    /// Starts pricing with `model`, counting with `counter`; `earlier`
    /// turns (a resumed run) are accounted first, so the cache state
    /// carries over.
    pub fn new(model: PriceModel, counter: &'static TokenCounter, earlier: &[TurnRecord]) -> Costing {
        let mut costing =
            Costing { accounting: Accounting::new(&model), model, memo: TokenMemo::new(counter), counter };
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

    /// What `prompt` would cost as the next turn's, its answer not
    /// counted: priced as [`Costing::turn`] estimates it, without
    /// accounting it (the run's `max_run_cost` check before the model call).
    pub fn prompt_cost(&mut self, prompt: &Prompt) -> f64 {
        let usage = self.accounting.clone().turn(prompt, None, &mut self.memo).usage;
        self.model.cost(&usage).input
    }

    /// The same run's prompts priced under `model`: what a budget above
    /// the run counts them at (`earlier`: the run's turns so far).
    pub fn under(&self, model: PriceModel, earlier: &[TurnRecord]) -> Costing {
        Costing::new(model, self.counter, earlier)
    }

    /// The price model's name.
    pub fn pricing(&self) -> &str {
        self.model.name()
    }
}

/// What a run's `turns` cost under `model`, prompts and the answers whose
/// tokens were reported: as recorded when recorded under it, else priced
/// again from their prompts, in order, as a run under `model` would have
/// priced them (the server's cache figures when it reported them).
pub fn turns_cost(turns: &[TurnRecord], model: &PriceModel, counter: &'static TokenCounter) -> f64 {
    let mut costing = Costing::new(model.clone(), counter, &[]);
    turns
        .iter()
        .filter(|t| !t.messages.is_empty())
        .map(|t| match t.cost.as_ref().filter(|c| c.model == model.name()) {
            Some(c) => c.input_cost + c.output_cost.unwrap_or(0.0),
            None => {
                let c = costing.turn(&recorded_prompt(&t.messages), t.usage.as_ref().and_then(reported).as_ref());
                c.input_cost + c.output_cost.unwrap_or(0.0)
            }
        })
        .sum()
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
