//! The conformance suite, run from this plugin's own `cargo test`: every
//! MUST case of `ptc-conformance` must pass. Copy this file into your plugin.

#[test]
fn keep_last_turns_conforms() {
    // Builds this crate's cdylib (cargo test alone does not put it where it can be loaded).
    let lib = ptc_conformance::harness::build_plugin(env!("CARGO_PKG_NAME"), "ptc_strategy_keep_last_turns");
    ptc_conformance::assert_conforms(&lib, r#"{"turns": 2}"#);
}
