//! The session corpus as the cases render it: each session's fixtures in
//! turn order ([`corpus_runs`]), with the `fixture: NAME` progress line
//! a parent reads to say where a killed child hung ([`progress`]).

use crate::fixtures::{Fixture, Group};
use ptc_plugin_api::Prompt;
use ptc_registry::Renderer;

/// Says on stderr that `fixture` is about to render (`fixture: NAME`).
pub(crate) fn progress(fixture: &Fixture) {
    eprintln!("fixture: {}", fixture.name);
}

/// Each corpus session's fixtures, rendered in turn order (a fixture that
/// did not render ends its session's run: MUST-NO-PANIC reports it).
pub(crate) fn corpus_runs(renderer: &Renderer, fixtures: &[Fixture]) -> Vec<(&'static str, Vec<(String, Prompt)>)> {
    let mut runs: Vec<(&'static str, Vec<(String, Prompt)>)> = Vec::new();
    let mut broken: Option<&str> = None;
    for f in fixtures.iter().filter(|f| f.group == Group::Corpus) {
        let session = f.session.unwrap_or("");
        if broken == Some(session) {
            continue;
        }
        progress(f);
        let Ok(prompt) = renderer.render(&f.request) else {
            broken = Some(session);
            continue;
        };
        match runs.last_mut().filter(|(s, _)| *s == session) {
            Some((_, prompts)) => prompts.push((f.name.clone(), prompt)),
            None => runs.push((session, vec![(f.name.clone(), prompt)])),
        }
    }
    runs
}
