//! What a request's prompt tokens are billed as ([`Usage`]), what they
//! cost ([`Cost`]), and both together for a turn or a session
//! ([`TurnCost`]): the figures accounting produces and price models price.

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
