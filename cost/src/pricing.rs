//! Price models as data: the `[pricing.NAME]` tables of `strategies.toml`,
//! the built-in models `none`, `anthropic` and `openai`, and what a token
//! split costs under a model.
//!
//! ```toml
//! [pricing.sonnet]                   # Anthropic's rules at real prices
//! base = "anthropic"                 # start from a built-in (default: the
//!                                    # built-in of the same name, else `none`)
//! input = { per_million = 3.0 }      # a price per million tokens ...
//! output = { per_million = 15.0 }
//! cache_read = 0.1                   # ... or a multiple of the input price
//!
//! [pricing.openai]                   # a built-in's name changes the built-in
//! cache_read = 0.5
//!
//! [pricing.vllm]
//! cache = "prefix"                   # "none" | "prefix" | "breakpoints"
//! cache_read = 0.0
//! min_cached_tokens = 16
//! granularity = 16                   # prefix rule: cached tokens in steps
//! # breakpoints rule: max_breakpoints = 4, lookback_blocks = 20
//! ```
//!
//! Costs are in the model's [`CostUnit`]: input-token equivalents when the
//! input price is `1` (every built-in), money (in whatever currency the
//! prices are written) when it is a per-million price.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use ptc_plugin_api::render::{CacheMatch, ProviderPrices, PROVIDERS};

use crate::usage::{Cost, Usage};

/// The built-in model names, in the order they are listed: `none`, then
/// the providers of the SDK's price table.
pub const BUILTIN_MODELS: [&str; PROVIDERS.len() + 1] = builtin_names();

const fn builtin_names() -> [&'static str; PROVIDERS.len() + 1] {
    let mut names = ["none"; PROVIDERS.len() + 1];
    let mut i = 0;
    while i < PROVIDERS.len() {
        names[i + 1] = PROVIDERS[i].name;
        i += 1;
    }
    names
}

/// A price as written in a table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Price {
    /// A multiple of the input price (`cache_read = 0.1`).
    Multiplier(f64),
    /// A price per million tokens (`input = { per_million = 3.0 }`).
    PerMillion(f64),
}

impl<'de> Deserialize<'de> for Price {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Price, D::Error> {
        d.deserialize_any(PriceVisitor)
    }
}

struct PriceVisitor;

impl<'de> Visitor<'de> for PriceVisitor {
    type Value = Price;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a multiple of the input price (a number) or { per_million = PRICE }")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Price, E> {
        Ok(Price::Multiplier(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Price, E> {
        Ok(Price::Multiplier(v as f64))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Price, E> {
        Ok(Price::Multiplier(v as f64))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Price, A::Error> {
        let mut per_million = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "per_million" if per_million.is_none() => per_million = Some(map.next_value::<f64>()?),
                "per_million" => return Err(de::Error::duplicate_field("per_million")),
                other => return Err(de::Error::unknown_field(other, &["per_million"])),
            }
        }
        per_million.map(Price::PerMillion).ok_or_else(|| de::Error::missing_field("per_million"))
    }
}

/// The cache rule of a table (`cache = "..."`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CacheKind {
    /// Nothing is cached: every prompt token is input.
    None,
    /// Automatic caching of the longest prefix shared with an earlier request
    /// (OpenAI, DeepSeek, vLLM/SGLang prefix caching).
    Prefix,
    /// Explicit caching of whole content blocks up to breakpoints (Anthropic).
    Breakpoints,
}

/// One `[pricing.NAME]` table as written. Every key is optional; a missing
/// one comes from `base`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PricingTable {
    /// The built-in model the table starts from. Default: the built-in of the
    /// table's own name if there is one (so `[pricing.openai]` adjusts the
    /// built-in), else `none`.
    pub base: Option<String>,
    /// `1` (costs in input-token equivalents) or `{ per_million = PRICE }`.
    pub input: Option<Price>,
    /// Price of a token read from the cache.
    pub cache_read: Option<Price>,
    /// Price of a token written to the cache. Under the prefix rule, leaving
    /// it out means writes are free and not reported (OpenAI); setting it
    /// reports and prices the newly cached part.
    pub cache_write: Option<Price>,
    /// Price of a completion token.
    pub output: Option<Price>,
    /// A prefix shorter than this many tokens is never cached.
    pub min_cached_tokens: Option<u64>,
    /// Prefix rule: cached tokens count in steps of this many tokens above
    /// `min_cached_tokens`.
    pub granularity: Option<u64>,
    /// The cache rule.
    pub cache: Option<CacheKind>,
    /// Breakpoints rule: breakpoints one request may carry.
    pub max_breakpoints: Option<usize>,
    /// Breakpoints rule: block boundaries before a breakpoint searched for an
    /// earlier write.
    pub lookback_blocks: Option<usize>,
}

/// How a model decides which prompt tokens come from the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheRule {
    /// No cache. Prompt tokens are ptc's own count (content plus the chat
    /// overhead per message, as `ptc render` prints), so the `none` cost of a
    /// strategy is its raw token count.
    None,
    /// The longest prefix shared with any earlier request of the session, in
    /// tokens of the OpenAI-compatible request (`[{"role":..,"content":..}]`);
    /// none below `min_cached_tokens`, above it rounded down to
    /// `min_cached_tokens + k × granularity`.
    Prefix {
        /// Shortest cached prefix.
        min_cached_tokens: u64,
        /// Step of the cached length.
        granularity: u64,
    },
    /// Whole content blocks of the Anthropic request up to a breakpoint an
    /// earlier request wrote (see the `cache` module).
    Breakpoints {
        /// A breakpoint whose prefix is shorter is not written.
        min_cached_tokens: u64,
        /// Breakpoints one request may carry.
        max_breakpoints: usize,
        /// Block boundaries before a breakpoint searched for a hit.
        lookback_blocks: usize,
    },
}

/// What a model's costs are counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostUnit {
    /// Input-token equivalents: one uncached input token costs 1.
    InputTokens,
    /// Money, in the currency the table's per-million prices are written in.
    Money,
}

/// A price model: a cache rule and the prices of each kind of token.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceModel {
    name: String,
    input: Price,
    cache_read: Price,
    cache_write: Option<Price>,
    output: Price,
    rule: CacheRule,
}

/// A `[pricing]` table that cannot be used, or an unknown model name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PricingError {
    /// A key of a table is wrong; `key` is its full path
    /// (`pricing.sonnet.cache_read`).
    Invalid {
        /// The key.
        key: String,
        /// What is wrong and what to write instead.
        reason: String,
    },
    /// A model name that no built-in or table defines.
    Unknown {
        /// The name asked for.
        name: String,
        /// The names that exist.
        known: Vec<String>,
    },
}

impl fmt::Display for PricingError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PricingError::Invalid { key, reason } => write!(f, "{key}: {reason}"),
            PricingError::Unknown { name, known } => {
                write!(f, "unknown price model `{name}` (known: {})", known.join(", "))
            }
        }
    }
}

impl std::error::Error for PricingError {}

impl PriceModel {
    /// A built-in model by name.
    ///
    /// - `none`: no cache; cost = prompt tokens (+ output tokens when known).
    /// - `anthropic`, `openai`: the rows of the SDK's price table
    ///   ([`ptc_plugin_api::render::PROVIDERS`]; Claude's breakpoints cache
    ///   and OpenAI's automatic prefix cache), the same figures the
    ///   strategies' cache-stable layouts decide by.
    pub fn builtin(name: &str) -> Option<PriceModel> {
        if name == "none" {
            let one = Price::Multiplier(1.0);
            return Some(PriceModel {
                name: name.to_string(),
                input: one,
                cache_read: one,
                cache_write: None,
                output: one,
                rule: CacheRule::None,
            });
        }
        PROVIDERS.iter().find(|p| p.name == name).map(PriceModel::provider)
    }

    /// The built-in model of one row of the SDK's price table.
    fn provider(prices: &ProviderPrices) -> PriceModel {
        let min_cached_tokens = prices.cache_min_tokens as u64;
        let rule = match prices.cache {
            CacheMatch::Prefix { step } => CacheRule::Prefix { min_cached_tokens, granularity: step as u64 },
            CacheMatch::Breakpoints { max, lookback_blocks } => {
                CacheRule::Breakpoints { min_cached_tokens, max_breakpoints: max, lookback_blocks }
            }
        };
        PriceModel {
            name: prices.name.to_string(),
            input: Price::Multiplier(1.0),
            cache_read: Price::Multiplier(prices.cache_read),
            cache_write: prices.cache_write.map(Price::Multiplier),
            output: Price::Multiplier(prices.output),
            rule,
        }
    }

    /// The model a `[pricing.NAME]` table defines. Errors name the key.
    pub fn from_table(name: &str, table: &PricingTable) -> Result<PriceModel, PricingError> {
        let key = |field: &str| format!("pricing.{name}.{field}");
        let invalid = |field: &str, reason: String| PricingError::Invalid { key: key(field), reason };
        let base_name = table.base.as_deref().unwrap_or(if BUILTIN_MODELS.contains(&name) { name } else { "none" });
        let base = PriceModel::builtin(base_name).ok_or_else(|| {
            invalid(
                "base",
                format!("unknown built-in price model `{base_name}` (built-ins: {})", BUILTIN_MODELS.join(", ")),
            )
        })?;
        let rule = resolve_rule(table, base.rule).map_err(|(field, reason)| invalid(field, reason))?;

        let input = table.input.unwrap_or(base.input);
        match input {
            Price::Multiplier(1.0) | Price::PerMillion(_) => {}
            Price::Multiplier(m) => {
                return Err(invalid(
                    "input",
                    format!("`{m}`: the input price is `1` (costs in input tokens) or `{{ per_million = PRICE }}`"),
                ))
            }
        }
        let cached = rule != CacheRule::None;
        for (field, price) in [("cache_read", table.cache_read), ("cache_write", table.cache_write)] {
            if price.is_some() && !cached {
                return Err(invalid(field, "does not apply without a cache (`cache = \"none\"`)".to_string()));
            }
        }
        let cache_read = match table.cache_read {
            Some(p) => p,
            None if base.rule != CacheRule::None || !cached => base.cache_read,
            None => {
                return Err(invalid("cache_read", "missing: a cache rule needs the price of a cache read".to_string()))
            }
        };
        let cache_write = match (table.cache_write, rule) {
            (Some(p), _) => Some(p),
            (None, CacheRule::Breakpoints { .. }) => Some(base.cache_write.ok_or_else(|| {
                invalid("cache_write", "missing: the breakpoints rule needs the price of a cache write".to_string())
            })?),
            (None, _) if base.rule == rule => base.cache_write,
            (None, _) => None,
        };
        let model = PriceModel {
            name: name.to_string(),
            input,
            cache_read,
            cache_write,
            output: table.output.unwrap_or(base.output),
            rule,
        };
        for (field, price) in [
            ("input", Some(input)),
            ("cache_read", Some(cache_read)),
            ("cache_write", cache_write),
            ("output", Some(model.output)),
        ] {
            let Some(price) = price else { continue };
            let value = match price {
                Price::Multiplier(v) | Price::PerMillion(v) => v,
            };
            if !value.is_finite() || value < 0.0 {
                return Err(invalid(field, format!("`{value}`: a price is a finite number of 0 or more")));
            }
            if matches!(price, Price::PerMillion(_)) && matches!(input, Price::Multiplier(_)) {
                return Err(invalid(
                    field,
                    "a per-million price needs a per-million `input` price (or write it as a multiple of the input price)"
                        .to_string(),
                ));
            }
        }
        Ok(model)
    }

    /// The model's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The shortest prefix the model caches (0: it caches nothing).
    pub fn min_cached_tokens(&self) -> u64 {
        match self.rule {
            CacheRule::None => 0,
            CacheRule::Prefix { min_cached_tokens, .. } | CacheRule::Breakpoints { min_cached_tokens, .. } => {
                min_cached_tokens
            }
        }
    }

    /// The cache rule.
    pub fn rule(&self) -> CacheRule {
        self.rule
    }

    /// What costs are counted in.
    pub fn unit(&self) -> CostUnit {
        match self.input {
            Price::PerMillion(_) => CostUnit::Money,
            Price::Multiplier(_) => CostUnit::InputTokens,
        }
    }

    /// Cost of one token at `price`, in the model's unit.
    fn per_token(&self, price: Price) -> f64 {
        let input = match self.input {
            Price::PerMillion(p) => p / 1e6,
            Price::Multiplier(_) => 1.0,
        };
        match price {
            Price::Multiplier(m) => m * input,
            Price::PerMillion(p) => p / 1e6,
        }
    }

    /// What `usage` costs under this model.
    pub fn cost(&self, usage: &Usage) -> Cost {
        let write = self.cache_write.unwrap_or(self.input);
        Cost {
            input: usage.uncached_tokens as f64 * self.per_token(self.input)
                + usage.cache_read_tokens as f64 * self.per_token(self.cache_read)
                + usage.cache_write_tokens as f64 * self.per_token(write),
            output: usage.output_tokens.map(|n| n as f64 * self.per_token(self.output)),
        }
    }

    /// Whether cache writes are accounted separately (breakpoints rule, or a
    /// prefix rule with a `cache_write` price).
    pub fn prices_writes(&self) -> bool {
        self.rule != CacheRule::None && self.cache_write.is_some()
    }
}

/// The rule a table asks for, its parameters from the table or else from the
/// base when the base has the same kind of rule. Errors carry the field.
fn resolve_rule(table: &PricingTable, base: CacheRule) -> Result<CacheRule, (&'static str, String)> {
    let base_kind = match base {
        CacheRule::None => CacheKind::None,
        CacheRule::Prefix { .. } => CacheKind::Prefix,
        CacheRule::Breakpoints { .. } => CacheKind::Breakpoints,
    };
    let kind = table.cache.unwrap_or(base_kind);
    let base_min = match base {
        CacheRule::None => 0,
        CacheRule::Prefix { min_cached_tokens, .. } | CacheRule::Breakpoints { min_cached_tokens, .. } => {
            min_cached_tokens
        }
    };
    let only = |field: &'static str, given: bool, rule: &str| {
        if given {
            Err((field, format!("applies only to {rule}")))
        } else {
            Ok(())
        }
    };
    let breakpoints_keys = || {
        only("max_breakpoints", table.max_breakpoints.is_some(), "`cache = \"breakpoints\"`")?;
        only("lookback_blocks", table.lookback_blocks.is_some(), "`cache = \"breakpoints\"`")
    };
    match kind {
        CacheKind::None => {
            only(
                "min_cached_tokens",
                table.min_cached_tokens.is_some(),
                "a cache (`cache = \"prefix\"` or \"breakpoints\")",
            )?;
            only("granularity", table.granularity.is_some(), "`cache = \"prefix\"`")?;
            breakpoints_keys()?;
            Ok(CacheRule::None)
        }
        CacheKind::Prefix => {
            breakpoints_keys()?;
            let base_granularity = match base {
                CacheRule::Prefix { granularity, .. } => granularity,
                _ => 1,
            };
            let granularity = table.granularity.unwrap_or(base_granularity);
            if granularity == 0 {
                return Err(("granularity", "`0`: the step is at least 1 token".to_string()));
            }
            Ok(CacheRule::Prefix { min_cached_tokens: table.min_cached_tokens.unwrap_or(base_min), granularity })
        }
        CacheKind::Breakpoints => {
            if table.granularity.is_some_and(|g| g != 1) {
                return Err((
                    "granularity",
                    "applies only to `cache = \"prefix\"` (the breakpoints rule caches whole blocks)".to_string(),
                ));
            }
            let (base_max, base_lookback) = match base {
                CacheRule::Breakpoints { max_breakpoints, lookback_blocks, .. } => (max_breakpoints, lookback_blocks),
                _ => table_breakpoints(),
            };
            let max_breakpoints = table.max_breakpoints.unwrap_or(base_max);
            if max_breakpoints == 0 {
                return Err(("max_breakpoints", "`0`: a request carries at least one breakpoint".to_string()));
            }
            Ok(CacheRule::Breakpoints {
                min_cached_tokens: table.min_cached_tokens.unwrap_or(base_min),
                max_breakpoints,
                lookback_blocks: table.lookback_blocks.unwrap_or(base_lookback),
            })
        }
    }
}

/// Breakpoints and lookback of the price table's breakpoints provider, for
/// a table that switches another rule to breakpoints.
fn table_breakpoints() -> (usize, usize) {
    PROVIDERS
        .iter()
        .find_map(|p| match p.cache {
            CacheMatch::Breakpoints { max, lookback_blocks } => Some((max, lookback_blocks)),
            CacheMatch::Prefix { .. } => None,
        })
        .expect("the SDK's price table has a breakpoints provider (Anthropic)")
}

/// The price models a run knows: the built-ins and the `[pricing]` tables.
#[derive(Clone, Debug)]
pub struct PriceModels {
    models: Vec<PriceModel>,
}

impl Default for PriceModels {
    fn default() -> PriceModels {
        PriceModels::builtin()
    }
}

impl PriceModels {
    /// The built-ins: `none`, `anthropic`, `openai`.
    pub fn builtin() -> PriceModels {
        PriceModels { models: BUILTIN_MODELS.iter().filter_map(|n| PriceModel::builtin(n)).collect() }
    }

    /// The built-ins plus `tables` (`[pricing.NAME]`, in file order); a table
    /// named after a built-in replaces it.
    pub fn with_tables<'a>(
        tables: impl IntoIterator<Item = (&'a str, &'a PricingTable)>,
    ) -> Result<PriceModels, PricingError> {
        let mut models = PriceModels::builtin();
        for (name, table) in tables {
            let model = PriceModel::from_table(name, table)?;
            match models.models.iter_mut().find(|m| m.name == name) {
                Some(slot) => *slot = model,
                None => models.models.push(model),
            }
        }
        Ok(models)
    }

    /// A model by name; the error lists the known names.
    pub fn get(&self, name: &str) -> Result<&PriceModel, PricingError> {
        self.models.iter().find(|m| m.name == name).ok_or_else(|| PricingError::Unknown {
            name: name.to_string(),
            known: self.models.iter().map(|m| m.name.clone()).collect(),
        })
    }

    /// Every model: built-ins first, then tables.
    pub fn iter(&self) -> impl Iterator<Item = &PriceModel> {
        self.models.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `[pricing.NAME]` tables as the host will (toml, in file order).
    fn parse(text: &str) -> Result<PriceModels, String> {
        #[derive(Deserialize)]
        struct File {
            pricing: toml::Table,
        }
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut tables = Vec::new();
        for (name, value) in file.pricing {
            let table: PricingTable = value.try_into().map_err(|e: toml::de::Error| format!("pricing.{name}: {e}"))?;
            tables.push((name, table));
        }
        PriceModels::with_tables(tables.iter().map(|(n, t)| (n.as_str(), t))).map_err(|e| e.to_string())
    }

    fn usage(read: u64, write: u64, uncached: u64, output: Option<u64>) -> Usage {
        Usage {
            prompt_tokens: read + write + uncached,
            cache_read_tokens: read,
            cache_write_tokens: write,
            uncached_tokens: uncached,
            output_tokens: output,
        }
    }

    #[test]
    fn builtins_price_by_their_multipliers() {
        let models = PriceModels::builtin();
        let u = usage(1000, 200, 100, Some(50));
        let none = models.get("none").unwrap();
        assert_eq!(none.cost(&usage(0, 0, 1300, Some(50))), Cost { input: 1300.0, output: Some(50.0) });
        let anthropic = models.get("anthropic").unwrap();
        let c = anthropic.cost(&u);
        assert!((c.input - (100.0 + 1000.0 * 0.1 + 200.0 * 1.25)).abs() < 1e-9, "{c:?}");
        assert_eq!(c.output, Some(250.0));
        let openai = models.get("openai").unwrap();
        assert!((openai.cost(&usage(1024, 0, 276, None)).input - (276.0 + 102.4)).abs() < 1e-9);
        assert_eq!(openai.unit(), CostUnit::InputTokens);
        assert!(anthropic.prices_writes() && !openai.prices_writes() && !none.prices_writes());
    }

    #[test]
    fn tables_override_and_extend_builtins() {
        let models = parse(
            r#"
            [pricing.openai]
            cache_read = 0.5

            [pricing.sonnet]
            base = "anthropic"
            input = { per_million = 3.0 }
            output = { per_million = 15.0 }

            [pricing.vllm]
            cache = "prefix"
            cache_read = 0
            min_cached_tokens = 16
            granularity = 16
            "#,
        )
        .unwrap();
        let names: Vec<_> = models.iter().map(PriceModel::name).collect();
        assert_eq!(names, ["none", "anthropic", "openai", "sonnet", "vllm"]);
        let openai = models.get("openai").unwrap();
        assert_eq!(openai.rule(), CacheRule::Prefix { min_cached_tokens: 1024, granularity: 128 });
        assert_eq!(openai.cost(&usage(1000, 0, 0, None)).input, 500.0);
        let sonnet = models.get("sonnet").unwrap();
        assert_eq!(sonnet.unit(), CostUnit::Money);
        let c = sonnet.cost(&usage(1_000_000, 1_000_000, 1_000_000, Some(1_000_000)));
        assert!((c.input - (3.0 + 0.3 + 3.75)).abs() < 1e-9, "{c:?}");
        assert!((c.output.unwrap() - 15.0).abs() < 1e-9);
        assert_eq!(models.get("vllm").unwrap().rule(), CacheRule::Prefix { min_cached_tokens: 16, granularity: 16 });
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("[pricing.x]\ncache_red = 0.1", "unknown field `cache_red`"),
            ("[pricing.x]\ncache_read = 0.1", "pricing.x.cache_read: does not apply without a cache"),
            ("[pricing.x]\nbase = \"gemini\"", "pricing.x.base: unknown built-in price model `gemini`"),
            ("[pricing.x]\nbase = \"openai\"\nmax_breakpoints = 2", "pricing.x.max_breakpoints: applies only to"),
            ("[pricing.x]\nbase = \"anthropic\"\ngranularity = 128", "pricing.x.granularity: applies only to"),
            ("[pricing.x]\nbase = \"openai\"\ngranularity = 0", "pricing.x.granularity: `0`"),
            ("[pricing.x]\nbase = \"openai\"\ncache_read = -1", "pricing.x.cache_read: `-1`"),
            ("[pricing.x]\ninput = 2", "pricing.x.input: `2`: the input price is `1`"),
            (
                "[pricing.x]\nbase = \"openai\"\noutput = { per_million = 8 }",
                "pricing.x.output: a per-million price needs",
            ),
            ("[pricing.x]\ncache = \"breakpoints\"\ncache_read = 0.1", "pricing.x.cache_write: missing"),
            ("[pricing.x]\ncache = \"prefix\"", "pricing.x.cache_read: missing"),
            ("[pricing.x]\ninput = { per_milion = 2 }", "unknown field `per_milion`"),
            ("[pricing.x]\ncache = \"lru\"", "unknown variant `lru`"),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        let unknown = PriceModels::builtin().get("gemini").unwrap_err().to_string();
        assert_eq!(unknown, "unknown price model `gemini` (known: none, anthropic, openai)");
    }

    #[test]
    fn a_prefix_table_with_a_write_price_reports_writes() {
        let models = parse("[pricing.gpt-next]\nbase = \"openai\"\ncache_write = 1.25").unwrap();
        let m = models.get("gpt-next").unwrap();
        assert!(m.prices_writes());
        assert_eq!(m.cost(&usage(0, 1000, 0, None)).input, 1250.0);
    }
}
