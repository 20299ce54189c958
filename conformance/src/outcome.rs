//! What a case found ([`Outcome`]): the one value every case returns and
//! the runner reports.

use serde_json::Value as Json;

/// What a case found: pass or fail, why, and its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Whether it passed.
    pub passed: bool,
    /// One line: why it failed, or what it measured.
    pub reason: String,
    /// Measurements (plugin info, token counts, timings).
    pub figures: Json,
}

impl Outcome {
    /// A pass, with `reason` and no figures.
    pub(crate) fn pass(reason: impl Into<String>) -> Outcome {
        Outcome { passed: true, reason: reason.into(), figures: Json::Null }
    }
    /// A failure, with `reason` and no figures.
    pub(crate) fn fail(reason: impl Into<String>) -> Outcome {
        Outcome { passed: false, reason: reason.into(), figures: Json::Null }
    }
    /// The same outcome with `figures`.
    pub(crate) fn with(mut self, figures: Json) -> Outcome {
        self.figures = figures;
        self
    }
}
