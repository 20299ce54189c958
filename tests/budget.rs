//! Aggressive under a binding `max_tokens`, counted with the real tokenizer:
//! every turn of every corpus session and golden case either fits or says
//! it cannot (`docs/spec/strategies.md`, aggressive: "With `max_tokens` the
//! prompt must fit").

use ptc_integration_tests::{corpus_sessions, plugin_dir};
use ptc_plugin_api::ErrorKind;
use ptc_registry::Registry;
use ptc_session::Session;
use ptc_tokens::{TokenCounter, DEFAULT_ENCODING};

#[test]
fn aggressive_stays_within_max_tokens_by_real_count_on_every_corpus_turn() {
    let registry = Registry::discover(&[plugin_dir().to_path_buf()]);
    let counter = TokenCounter::new(DEFAULT_ENCODING).unwrap();
    let unbounded = registry.build("aggressive", "aggressive", "{}").unwrap();
    for budget in [350_u64, 450, 600, 1500] {
        let bounded = registry.build("tight", "aggressive", &format!(r#"{{"max_tokens": {budget}}}"#)).unwrap();
        let (mut renders, mut squeezed, mut refused) = (0, 0, 0);
        for file in corpus_sessions() {
            let session = Session::read(&file).unwrap();
            for turn in 1..=session.turns.len() as u32 + 1 {
                let request = session.request_for_turn(Some(turn)).unwrap();
                let free = counter.count_messages(unbounded.render(&request).unwrap().messages());
                match bounded.render(&request) {
                    Ok(r) => {
                        let tokens = counter.count_messages(r.messages());
                        assert!(
                            tokens as u64 <= budget,
                            "{} turn {turn}: {tokens} tokens over max_tokens = {budget}",
                            file.display()
                        );
                        renders += 1;
                        if free as u64 > budget {
                            squeezed += 1;
                            assert!(r.stats().warnings().any(|w| w.contains("dropped")), "{}", file.display());
                        }
                    }
                    Err(e) => {
                        // Refusing is only allowed when even the minimum cannot fit.
                        assert_eq!(e.kind(), ErrorKind::DoesNotFit, "{}: {e}", file.display());
                        assert!(free as u64 > budget, "{} turn {turn}: refused although it fits", file.display());
                        refused += 1;
                    }
                }
            }
        }
        assert!(renders > 90, "budget {budget}: only {renders} renders");
        eprintln!("max_tokens = {budget}: {renders} renders fit ({squeezed} needed dropping), {refused} refused");
        // The tight budgets must actually bind somewhere, or this test proves nothing.
        if budget <= 450 {
            assert!(squeezed > 0, "budget {budget} never bound");
        }
    }
}

#[test]
fn aggressive_refuses_a_budget_below_its_minimum() {
    let registry = Registry::discover(&[plugin_dir().to_path_buf()]);
    let tiny = registry.build("tiny", "aggressive", r#"{"max_tokens": 20}"#).unwrap();
    let session = Session::read(&corpus_sessions()[0]).unwrap();
    let err = tiny.render(&session.request_for_turn(None).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DoesNotFit);
    assert!(err.to_string().contains("20"), "{err}");
}
