//! Per-session accounting: the prompts of turns 1..N in order, each split
//! by what the earlier ones left in the provider's cache, and priced.

use crate::cache::{BreakpointCache, Hit, PrefixCache};
use crate::pricing::{CacheRule, PriceModel};
use crate::prompt::Prompt;
use crate::wire::{self, TokenMemo};

/// Tokens of one request by how the provider bills them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Usage {
    /// Every prompt token: `cache_read + cache_write + uncached`.
    pub prompt_tokens: u64,
    /// Prompt tokens read from the cache.
    pub cache_read_tokens: u64,
    /// Prompt tokens written to the cache (billed at the write price).
    pub cache_write_tokens: u64,
    /// Prompt tokens billed as plain input.
    pub uncached_tokens: u64,
    /// Completion tokens, when known.
    pub output_tokens: Option<u64>,
}

impl Usage {
    /// Cached share of the prompt (`cache_read / prompt`; 0 for an empty prompt).
    pub fn hit_share(&self) -> f64 {
        share(self.cache_read_tokens, self.prompt_tokens)
    }

    /// Adds `other` (totals over turns; unknown output counts add nothing).
    pub fn add(&mut self, other: &Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.cache_read_tokens += other.cache_read_tokens;
        self.cache_write_tokens += other.cache_write_tokens;
        self.uncached_tokens += other.uncached_tokens;
        self.output_tokens = add_known(self.output_tokens, other.output_tokens);
    }
}

/// The sum of the known values; `None` when neither is known.
fn add_known<T: std::ops::Add<Output = T> + Default>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or_default() + b.unwrap_or_default()),
    }
}

/// `part / whole`, 0 when `whole` is 0.
pub(crate) fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// What a [`Usage`] costs under a model, in its [`CostUnit`](crate::CostUnit).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Cost {
    /// The prompt.
    pub input: f64,
    /// The completion, when its token count is known.
    pub output: Option<f64>,
}

impl Cost {
    /// Prompt plus completion.
    pub fn total(&self) -> f64 {
        self.input + self.output.unwrap_or(0.0)
    }

    /// Adds `other` (totals over turns).
    pub fn add(&mut self, other: &Cost) {
        self.input += other.input;
        self.output = add_known(self.output, other.output);
    }
}

/// One turn's (or a session's) tokens by billing kind and what they cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct TurnCost {
    /// Tokens of the request as the model's backend serializes it.
    pub usage: Usage,
    /// What they cost, in the model's unit.
    pub cost: Cost,
}

impl TurnCost {
    /// Adds `other` (totals over turns).
    pub fn add(&mut self, other: &TurnCost) {
        self.usage.add(&other.usage);
        self.cost.add(&other.cost);
    }
}

/// The accounting state of one session (one strategy's prompts) under one
/// price model.
#[derive(Debug)]
pub struct Accounting {
    model: PriceModel,
    cache: Cache,
    total: TurnCost,
    turns: usize,
}

#[derive(Debug)]
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
