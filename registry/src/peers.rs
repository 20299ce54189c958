//! Peers: faithful re-creations of other systems' history compression, built
//! in beside `full-history` so `ptc compare` can measure ptc's strategies
//! against them (and `ptc render --strategy NAME` shows what they send).
//!
//! Each is a pure function of the request, like every strategy, and lays
//! its prompt out as the full transcript does (the run's head ends a
//! breakpoint, the prompt ends with one): what a peer pays under prompt
//! caching is what its prompts' prefixes share, priced by `ptc-cost` like
//! any strategy's. None keeps state between turns: the originals apply
//! their edit to the full history on every request.
//!
//! In ptc terms an *observation* (a tool result) is what a turn's feedback
//! message shows (its prints, result or error), and an *action* (a tool
//! use) is the model's answer (its program).
//!
//! - [`CLEAR_TOOL_USES`]: Anthropic's context editing
//!   (`clear_tool_uses_20250919`), [`clear_tool_uses`];
//! - [`OBSERVATION_MASKING`]: the observation masking of Lindenbauer et al.,
//!   "The Complexity Trap" (2025), SWE-agent's `LastNObservations`,
//!   [`observation_masking`];
//! - [`UPSTREAM_TRIM`]: the original runtime's (ptc_runner v0.13)
//!   `compaction: [strategy: :trim]`, [`upstream_trim`].
//!
//! Parameters come from the instance's `[strategy.NAME]` table (`plugin =
//! "clear-tool-uses"`, ...); the name alone gives the originals' defaults.
//! `trigger` is the host's key in that table, so a peer's own trigger is
//! `trigger_tokens` / `trigger_turns`.

pub mod clear_tool_uses;
pub mod observation_masking;
pub mod upstream_trim;

use ptc_plugin_api::render::{feedback_message, first_user_blocks, turn_info};
use ptc_plugin_api::sdk::Params;
use ptc_plugin_api::{Block, Prompt, RenderRequest, Role, Stats, StrategyError, Turn};

pub use clear_tool_uses::ClearToolUses;
pub use observation_masking::ObservationMasking;
pub use upstream_trim::UpstreamTrim;

/// Name of the Anthropic context-editing peer.
pub const CLEAR_TOOL_USES: &str = "clear-tool-uses";
/// Name of the observation-masking peer.
pub const OBSERVATION_MASKING: &str = "observation-masking";
/// Name of the original runtime's `:trim` peer.
pub const UPSTREAM_TRIM: &str = "upstream-trim";
/// Every peer, in report order.
pub const PEERS: [&str; 3] = [CLEAR_TOOL_USES, OBSERVATION_MASKING, UPSTREAM_TRIM];

/// A built peer with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Peer {
    /// [`CLEAR_TOOL_USES`].
    ClearToolUses(ClearToolUses),
    /// [`OBSERVATION_MASKING`].
    ObservationMasking(ObservationMasking),
    /// [`UPSTREAM_TRIM`].
    UpstreamTrim(UpstreamTrim),
}

impl Peer {
    /// Whether `name` is a peer's name.
    pub fn is_peer(name: &str) -> bool {
        PEERS.contains(&name)
    }

    /// Peer `name` with JSON `params` (an object; unknown keys are named in
    /// the error); `None` when `name` is no peer.
    pub fn build(name: &str, params: &str) -> Option<Result<Peer, StrategyError>> {
        let built = |p: &str| -> Result<Peer, StrategyError> {
            let mut params = Params::from_json(name, p)?;
            let peer = match name {
                CLEAR_TOOL_USES => Peer::ClearToolUses(ClearToolUses::from_params(&mut params)?),
                OBSERVATION_MASKING => Peer::ObservationMasking(ObservationMasking::from_params(&mut params)?),
                _ => Peer::UpstreamTrim(UpstreamTrim::from_params(&mut params)?),
            };
            params.finish()?;
            Ok(peer)
        };
        Self::is_peer(name).then(|| built(params))
    }

    /// The peer's name.
    pub fn name(&self) -> &'static str {
        match self {
            Peer::ClearToolUses(_) => CLEAR_TOOL_USES,
            Peer::ObservationMasking(_) => OBSERVATION_MASKING,
            Peer::UpstreamTrim(_) => UPSTREAM_TRIM,
        }
    }

    /// The prompt of `request`.
    pub fn render(&self, request: &RenderRequest) -> Prompt {
        match self {
            Peer::ClearToolUses(p) => p.render(request),
            Peer::ObservationMasking(p) => p.render(request),
            Peer::UpstreamTrim(p) => p.render(request),
        }
    }
}

/// How a peer shows one completed turn of the transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shown {
    /// As the full transcript shows it.
    Verbatim,
    /// Its feedback's outcome replaced by this text (the turn info for the
    /// next turn stays: it is no observation); its answer replaced too when
    /// `answer` is `Some`.
    Masked { outcome: String, answer: Option<String> },
}

/// The full transcript's layout with each turn shown as `shown` says;
/// `turns_compressed` counts the masked turns.
fn masked_transcript(request: &RenderRequest, name: &str, shown: impl Fn(&Turn) -> Shown) -> Prompt {
    let mut prompt = Prompt::builder().system(request.system_prompt()).message(Role::User, first_user_blocks(request));
    let mut stats = Stats::new(name);
    for turn in request.turns() {
        let (answer, feedback) = match shown(turn) {
            Shown::Verbatim => (turn.raw_response().to_string(), feedback_message(turn, request.max_turns())),
            Shown::Masked { outcome, answer } => {
                stats.turns_compressed += 1;
                let feedback = format!("{outcome}\n\n{}", turn_info(turn.number() + 1, request.max_turns()));
                (answer.unwrap_or_else(|| turn.raw_response().to_string()), feedback)
            }
        };
        prompt.push(Role::Assistant, [Block::new(answer)]);
        prompt.push(Role::User, [Block::new(feedback)]);
    }
    prompt.breakpoint_here().build(stats)
}

#[cfg(test)]
mod tests;
