//! `observation-masking`: the masking of Lindenbauer et al., "The
//! Complexity Trap: Simple Observation Masking Is as Efficient as LLM
//! Summarization for Agent Context Management" (JetBrains Research, 2025),
//! as SWE-agent's `LastNObservations` history processor does it (OpenHands'
//! `ObservationMaskingCondenser` is the same idea).
//!
//! Every turn, the observations (environment outputs) of all but the last
//! `window` turns are replaced by `Old environment output: (N lines
//! omitted)`; the agent's reasoning and actions (here: its answers, with
//! their programs) stay. The paper's window is M = 10 turns. There is no
//! trigger: the window slides every turn, so the masked prefix changes on
//! every turn past the window (and under prompt caching is written anew).

use super::{masked_transcript, Shown, OBSERVATION_MASKING};
use ptc_plugin_api::render::turn_outcome;
use ptc_plugin_api::{Params, Prompt, RenderRequest, StrategyError};

/// The paper's window: the last 10 turns' observations are shown.
pub const DEFAULT_WINDOW: usize = 10;

/// The parameters of an `observation-masking` instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservationMasking {
    /// The turns whose observations stay (the most recent ones).
    pub window: usize,
}

impl Default for ObservationMasking {
    fn default() -> Self {
        ObservationMasking { window: DEFAULT_WINDOW }
    }
}

impl ObservationMasking {
    /// Reads `window`.
    pub fn from_params(p: &mut Params) -> Result<ObservationMasking, StrategyError> {
        Ok(ObservationMasking { window: p.positive("window", DEFAULT_WINDOW)? })
    }

    /// The prompt of `request`.
    pub fn render(&self, request: &RenderRequest) -> Prompt {
        let completed = request.turns().len();
        let first_shown = completed.saturating_sub(self.window);
        masked_transcript(request, OBSERVATION_MASKING, |t| {
            if (t.number() as usize) > first_shown {
                Shown::Verbatim
            } else {
                let lines = turn_outcome(t).lines().count();
                Shown::Masked { outcome: format!("Old environment output: ({lines} lines omitted)"), answer: None }
            }
        })
    }
}
