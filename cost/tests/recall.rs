//! Fact recall on generated sessions: full history shows every learned fact,
//! strategies that drop turns show fewer.

mod support;

use ptc_cost::LearnedFacts;
use support::session;

#[test]
fn full_history_shows_every_learned_fact_and_windows_forget() {
    let s = session("recall", 4, 30);
    let facts = LearnedFacts::new(&s.given(), &s.outputs());
    let texts = |prompt: &dyn Fn(usize) -> ptc_cost::Prompt| (1..=30).map(|n| prompt(n).text()).collect::<Vec<_>>();

    let full = facts.recall(&texts(&|n| s.full_history(n)));
    assert!(full.used >= 30, "the session reuses what it found: {full:?}");
    assert_eq!(full.visible, full.used);

    // A window of one turn still shows the turn before (most facts come from
    // it) but not the search five turns back.
    let window = facts.recall(&texts(&|n| s.rolling(n, 1)));
    assert_eq!(window.used, full.used);
    assert!(window.visible < window.used, "{window:?}");
    // The coalesced layout keeps only the first line of each program and the
    // latest output.
    let coalesced = facts.recall(&texts(&|n| s.coalesced(n)));
    assert!(coalesced.visible < full.visible, "{coalesced:?}");
    assert!(window.share().unwrap() > 0.0 && coalesced.share().unwrap() > 0.0);
}
