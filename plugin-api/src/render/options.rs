//! Reading the single-user-coalesced limits from strategy parameters, so
//! every strategy that folds history in that form reads them the same way.

use super::sections::SummaryOptions;
use super::value_text::ValueLimits;
use crate::sdk::Params;
use crate::StrategyError;

impl SummaryOptions {
    /// Reads `println_limit`, `tool_call_limit`, `sample_limit` and
    /// `sample_printable_limit` (each a positive integer, defaults from
    /// [`SummaryOptions::default`]), removing them from `params`.
    ///
    /// ```
    /// use ptc_plugin_api::{render::SummaryOptions, Params};
    ///
    /// let mut p = Params::from_json("demo", r#"{"println_limit": 4}"#).unwrap();
    /// let opts = SummaryOptions::from_params(&mut p).unwrap();
    /// assert_eq!((opts.println_limit, opts.tool_call_limit), (4, 20));
    /// ```
    pub fn from_params(params: &mut Params) -> Result<SummaryOptions, StrategyError> {
        let d = SummaryOptions::default();
        Ok(SummaryOptions {
            println_limit: params.positive("println_limit", d.println_limit)?,
            tool_call_limit: params.positive("tool_call_limit", d.tool_call_limit)?,
            sample: ValueLimits {
                items: params.positive("sample_limit", d.sample.items)?,
                chars: params.positive("sample_printable_limit", d.sample.chars)?,
            },
        })
    }
}
