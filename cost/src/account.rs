//! Per-session accounting: the prompts of turns 1..N in order, each split
//! by what the earlier ones left in the provider's cache, and priced.

use crate::cache::{BreakpointCache, Hit, PrefixCache};
use crate::pricing::{CacheRule, PriceModel};
use crate::prompt::Prompt;
use crate::usage::{TurnCost, Usage};
use crate::wire::{self, TokenMemo};

/// The accounting state of one session (one strategy's prompts) under one
/// price model.
#[derive(Debug, Clone)]
pub struct Accounting {
    model: PriceModel,
    cache: Cache,
    total: TurnCost,
    turns: usize,
}

#[derive(Debug, Clone)]
enum Cache {
    None,
    Prefix(PrefixCache),
    Breakpoints(BreakpointCache, usize),
}

impl Accounting {
    /// A session that has sent nothing yet.
    pub fn new(model: &PriceModel) -> Accounting {
        let cache = match model.rule() {
            CacheRule::None => Cache::None,
            CacheRule::Prefix { min_cached_tokens, granularity } => {
                Cache::Prefix(PrefixCache::new(min_cached_tokens, granularity, model.prices_writes()))
            }
            CacheRule::Breakpoints { min_cached_tokens, max_breakpoints, lookback_blocks } => {
                Cache::Breakpoints(BreakpointCache::new(min_cached_tokens, lookback_blocks), max_breakpoints)
            }
        };
        Accounting { model: model.clone(), cache, total: TurnCost::default(), turns: 0 }
    }

    /// The price model.
    pub fn model(&self) -> &PriceModel {
        &self.model
    }

    /// Accounts the next turn's prompt; `output_tokens` is the completion's
    /// token count when known (its cost is then included).
    pub fn turn(&mut self, prompt: &Prompt, output_tokens: Option<u64>, memo: &mut TokenMemo) -> TurnCost {
        let (prompt_tokens, hit) = match &mut self.cache {
            Cache::None => (wire::chat_tokens(prompt, memo), Hit::default()),
            Cache::Prefix(cache) => {
                let req = wire::openai(prompt, memo);
                (req.prompt_tokens(), cache.request(&req, |a, b| wire::shared_tokens(a, b, memo)))
            }
            Cache::Breakpoints(cache, max_breakpoints) => {
                let req = wire::anthropic(prompt, *max_breakpoints, memo);
                (req.prompt_tokens(), cache.request(&req))
            }
        };
        let usage = Usage {
            prompt_tokens,
            cache_read_tokens: hit.read,
            cache_write_tokens: hit.write,
            uncached_tokens: prompt_tokens - hit.read - hit.write,
            output_tokens,
        };
        let turn = TurnCost { usage, cost: self.model.cost(&usage) };
        self.total.add(&turn);
        self.turns += 1;
        turn
    }

    /// Sum over the turns accounted so far.
    pub fn total(&self) -> TurnCost {
        self.total
    }

    /// Turns accounted so far.
    pub fn turns(&self) -> usize {
        self.turns
    }
}

/// Accounts a whole session's prompts in order (no completion counts).
pub fn session_costs(model: &PriceModel, prompts: &[Prompt], memo: &mut TokenMemo) -> Vec<TurnCost> {
    let mut accounting = Accounting::new(model);
    prompts.iter().map(|p| accounting.turn(p, None, memo)).collect()
}

// Callers may account strategies on several threads.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Accounting>();
};
