//! What the providers charge for prompt tokens, and what their prompt
//! caches keep: ptc's one price table.
//!
//! Prices are multiples of the provider's plain input price. The SDK's
//! cache-stable layouts decide with them whether a rewrite pays for itself
//! ([`Rewrite::pays`](super::Rewrite::pays), through [`CACHE_READ_PRICE`](super::CACHE_READ_PRICE)
//! and its neighbours); `ptc-cost` builds its built-in price models
//! `anthropic` and `openai` from the same rows, so the cost a strategy is
//! measured by and the cost it optimizes for cannot drift apart.
//!
//! ```
//! use ptc_plugin_api::render::{CacheMatch, ANTHROPIC, OPENAI};
//!
//! assert_eq!(ANTHROPIC.cache_write, Some(1.25));
//! assert_eq!(OPENAI.cache, CacheMatch::Prefix { step: 128 });
//! ```

/// How a provider's cache decides which tokens of a request it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheMatch {
    /// The longest prefix shared with an earlier request, counted in steps
    /// of `step` tokens above the provider's minimum (OpenAI).
    Prefix {
        /// The step of the cached length, in tokens.
        step: usize,
    },
    /// Whole content blocks up to a breakpoint an earlier request wrote
    /// (Anthropic).
    Breakpoints {
        /// Breakpoints one request may carry.
        max: usize,
        /// Block boundaries before a breakpoint searched for an earlier
        /// write.
        lookback_blocks: usize,
    },
}

impl CacheMatch {
    /// The granularity of what is cached, in tokens: the prefix step, or 1
    /// for whole blocks (whose sizes the provider does not round).
    pub const fn step(self) -> usize {
        match self {
            CacheMatch::Prefix { step } => step,
            CacheMatch::Breakpoints { .. } => 1,
        }
    }
}

/// One provider's prices, relative to its input price, and its cache.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProviderPrices {
    /// The provider, as the built-in price model of `ptc-cost` is named.
    pub name: &'static str,
    /// Price of a token read from the cache.
    pub cache_read: f64,
    /// Price of a token written to the cache; `None` when writing costs
    /// nothing beyond the input price (and the provider does not report it).
    pub cache_write: Option<f64>,
    /// Price of a completion token.
    pub output: f64,
    /// The shortest prefix the provider caches, in tokens.
    pub cache_min_tokens: usize,
    /// How the cache matches a request.
    pub cache: CacheMatch,
}

/// Claude's prompt caching (platform.claude.com/docs/en/build-with-claude/
/// prompt-caching): read 0.1×, 5-minute write 1.25×, at most 4 breakpoints,
/// hits looked up at a breakpoint and about 20 block boundaries before it,
/// 1,024-token minimum (Sonnet/Opus 4; the Haiku models: 2,048); output 5×
/// (Claude Sonnet: $3 in, $15 out per million).
pub const ANTHROPIC: ProviderPrices = ProviderPrices {
    name: "anthropic",
    cache_read: 0.1,
    cache_write: Some(1.25),
    output: 5.0,
    cache_min_tokens: 1024,
    cache: CacheMatch::Breakpoints { max: 4, lookback_blocks: 20 },
};

/// OpenAI's automatic caching (developers.openai.com/api/docs/guides/
/// prompt-caching): exact prefix matches, prompts of 1,024 tokens or more,
/// hits in increments of 128 tokens, no write fee; read 0.1× (GPT-5: $1.25
/// in, $0.125 cached); output 8× (GPT-5: $10 out).
pub const OPENAI: ProviderPrices = ProviderPrices {
    name: "openai",
    cache_read: 0.1,
    cache_write: None,
    output: 8.0,
    cache_min_tokens: 1024,
    cache: CacheMatch::Prefix { step: 128 },
};

/// Every provider of the table, in the order `ptc-cost` lists its models.
pub const PROVIDERS: [ProviderPrices; 2] = [ANTHROPIC, OPENAI];

// What the SDK's layouts assume of "a provider": the least favourable
// provider of the table for a rewrite, so a rewrite that pays under these
// figures pays under each provider.

/// The cheapest cache read of the table: a rewrite is never credited with
/// more saved reads than a provider gives.
pub(super) const fn cheapest_read() -> f64 {
    let (mut i, mut price) = (0, f64::INFINITY);
    while i < PROVIDERS.len() {
        if PROVIDERS[i].cache_read < price {
            price = PROVIDERS[i].cache_read;
        }
        i += 1;
    }
    price
}

/// The dearest cache write of the table (a provider without a write fee
/// writes at the input price, 1).
pub(super) const fn dearest_write() -> f64 {
    let (mut i, mut price) = (0, 1.0);
    while i < PROVIDERS.len() {
        if let Some(write) = PROVIDERS[i].cache_write {
            if write > price {
                price = write;
            }
        }
        i += 1;
    }
    price
}

/// The largest cache minimum of the table.
pub(super) const fn largest_cache_min() -> usize {
    let (mut i, mut tokens) = (0, 0);
    while i < PROVIDERS.len() {
        if PROVIDERS[i].cache_min_tokens > tokens {
            tokens = PROVIDERS[i].cache_min_tokens;
        }
        i += 1;
    }
    tokens
}

/// The coarsest step of what the table's providers cache.
pub(super) const fn coarsest_step() -> usize {
    let (mut i, mut step) = (0, 1);
    while i < PROVIDERS.len() {
        if PROVIDERS[i].cache.step() > step {
            step = PROVIDERS[i].cache.step();
        }
        i += 1;
    }
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layouts_assume_the_least_favourable_provider() {
        assert_eq!(cheapest_read(), 0.1);
        assert_eq!(dearest_write(), 1.25, "Anthropic's 5-minute write");
        assert_eq!(largest_cache_min(), 1024);
        assert_eq!(coarsest_step(), 128, "OpenAI's prefix step");
        let names: Vec<&str> = PROVIDERS.iter().map(|p| p.name).collect();
        assert_eq!(names, ["anthropic", "openai"]);
    }
}
