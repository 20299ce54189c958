//! SHOULD-RECALL: a strategy's prompts still show what the agent learned,
//! within [`RECALL_MARGIN_POINTS`] of what the full history shows, over the
//! corpus (fact recall as `ptc compare` counts it: [`LearnedFacts`]).

use crate::corpus::corpus_runs;
use crate::fixtures::Fixture;
use crate::outcome::Outcome;
use ptc_cost::{LearnedFacts, TurnOutput};
use ptc_plugin_api::render::{format_value, full_history_prompt, ValueLimits};
use ptc_plugin_api::{Prompt, RenderRequest};
use ptc_registry::Renderer;
use serde_json::json;

/// How far under full history's fact recall a strategy may fall
/// (SHOULD-RECALL), in points.
pub const RECALL_MARGIN_POINTS: f64 = 10.0;

/// Value printing limits for the outputs facts are learned from: whole
/// values, as the session records them.
const WHOLE: ValueLimits = ValueLimits { items: 10_000, chars: 100_000 };

/// The facts each turn of `request`'s run learned from earlier output
/// ([`LearnedFacts`]): prints, tool results and results, printed whole.
fn learned_facts(request: &RenderRequest) -> LearnedFacts {
    let mut given = vec![request.mission().to_string()];
    given.extend(request.data().iter().map(|d| format!("{} {}", d.name(), format_value(d.value(), WHOLE))));
    given.extend(
        request
            .tools()
            .iter()
            .map(|t| format!("{} {} {}", t.name(), t.signature().unwrap_or(""), t.description().unwrap_or(""))),
    );
    let outputs: Vec<Vec<String>> = request
        .turns()
        .iter()
        .map(|t| {
            let mut out: Vec<String> = t.prints().map(str::to_string).collect();
            out.extend(t.tool_calls().iter().filter_map(|c| c.result()).map(|v| format_value(v, WHOLE)));
            out.extend(t.result().map(|v| format_value(v, WHOLE)));
            out
        })
        .collect();
    let turns: Vec<TurnOutput> = request
        .turns()
        .iter()
        .zip(&outputs)
        .map(|(t, out)| TurnOutput {
            program: t.program().unwrap_or(""),
            output: out.iter().map(String::as_str).collect(),
        })
        .collect();
    let given: Vec<&str> = given.iter().map(String::as_str).collect();
    LearnedFacts::new(&given, &turns)
}

/// SHOULD-RECALL: over the corpus, the share of learned facts the prompts
/// still show is at least full history's minus [`RECALL_MARGIN_POINTS`].
pub(crate) fn recall(renderer: &Renderer, fixtures: &[Fixture]) -> Outcome {
    let (mut ours, mut full) = ((0usize, 0usize), (0usize, 0usize));
    for (session, prompts) in corpus_runs(renderer, fixtures) {
        let requests: Vec<&RenderRequest> = prompts
            .iter()
            .map(|(name, _)| &fixtures.iter().find(|f| &f.name == name).expect("rendered from a fixture").request)
            .collect();
        let Some(last) = fixtures.iter().rev().find(|f| f.session == Some(session)).map(|f| &f.request) else {
            continue;
        };
        let facts = learned_facts(last);
        let text = |p: &Prompt| ptc_cost::Prompt::from(p).text();
        let mine = facts.recall(&prompts.iter().map(|(_, p)| text(p)).collect::<Vec<_>>());
        let base = facts.recall(&requests.iter().map(|r| text(&full_history_prompt(r))).collect::<Vec<_>>());
        ours = (ours.0 + mine.used, ours.1 + mine.visible);
        full = (full.0 + base.used, full.1 + base.visible);
    }
    let share = |(used, visible): (usize, usize)| if used == 0 { 1.0 } else { visible as f64 / used as f64 };
    let (mine, base) = (share(ours), share(full));
    let line = format!(
        "recall {:.1}% ({}/{} learned facts shown), full-history {:.1}%",
        100.0 * mine,
        ours.1,
        ours.0,
        100.0 * base
    );
    let passed = 100.0 * mine >= 100.0 * base - RECALL_MARGIN_POINTS;
    let outcome = if passed { Outcome::pass(line) } else { Outcome::fail(line) };
    outcome.with(json!({"recall": mine, "full_history_recall": base}))
}
