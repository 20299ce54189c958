//! A corrected collection in fact memory's entries
//! (`ptc_plugin_api::render::FactEntries`): its sample is shown exactly
//! when the entries would otherwise show the old value's facts without
//! the correction.

use ptc_plugin_api::render::{value_facts, BulkFacts, FactEntries, FactEntryOptions, MAX_VALUE_ATOMS};
use ptc_plugin_api::{Definition, RenderRequest, Turn, Value};

fn rates(gbp: f64) -> Value {
    Value::map(vec![(Value::string("GBP"), Value::float(gbp)), (Value::string("USD"), Value::float(1.0841))])
}

/// Turn 1 defines `rates` and prints `first`; turn 2 redefines it with
/// the GBP rate corrected and prints `second`.
fn entries(first: &str, second: &str) -> FactEntries {
    entries_with(first, second, FactEntryOptions::default())
}

fn entries_with(first: &str, second: &str, opts: FactEntryOptions) -> FactEntries {
    let mut req = RenderRequest::new("Convert the ledgers", "system", 10);
    let program = "(def rates (tool/rates {}))";
    let turn = |n: u32, gbp: f64, print: &str| {
        Turn::new(n, program, Some(program.into()))
            .with_definitions(vec![Definition::new("rates", rates(gbp), None)])
            .with_prints(vec![print.into()])
    };
    req.push_turn(turn(1, 1.1862, first));
    req.push_turn(turn(2, 1.1794, second));
    FactEntries::new(&req, opts)
}

#[test]
fn a_correction_whose_old_value_was_shown_is_shown_with_its_sample() {
    let e = entries("GBP 1.1862 USD 1.0841", "rates reloaded");
    assert!(e.entry(0).contains("1.1862") && !e.entry(0).contains("sample:"), "{}", e.entry(0));
    assert!(e.entry(1).contains("sample: {\"GBP\" 1.1794"), "the new rate beside the old: {}", e.entry(1));
    assert!(e.redefines(1));
}

#[test]
fn no_sample_when_the_old_value_was_never_shown() {
    let e = entries("rates loaded", "rates reloaded");
    assert!(!e.entry(1).contains("sample:") && !e.redefines(1), "{}", e.entry(1));
}

#[test]
fn no_sample_when_the_turn_shows_the_correction_itself() {
    let e = entries("GBP 1.1862 USD 1.0841", "GBP now 1.1794");
    assert!(!e.entry(1).contains("sample:") && e.entry(1).contains("1.1794"), "{}", e.entry(1));
}

#[test]
fn prints_stand_for_the_correction_only_while_their_facts_are_listed() {
    let drop = FactEntryOptions { bulk: BulkFacts::Drop, ..FactEntryOptions::default() };
    let e = entries_with("rates loaded", "GBP now 1.1794", drop);
    assert!(!e.redefines(1), "the old rate was never shown: {}", e.entry(1));
    // Under `drop` a long print line lists no facts: the entry's own lines
    // must show the new rate beside the old.
    let shown = FactEntryOptions { line_chars: 40, ..drop };
    let e = entries_with("GBP 1.1862 USD 1.0841", "the GBP rate was corrected today to 1.1794", shown);
    assert!(e.entry(0).contains("1.1862"), "{}", e.entry(0));
    assert!(e.entry(1).contains("sample: {\"GBP\" 1.1794"), "{}", e.entry(1));
}

#[test]
fn a_values_facts_are_its_atoms_facts_keys_included_and_bounded() {
    let v = Value::map(vec![
        (Value::string("VH-2033"), Value::vector(vec![Value::int(342), Value::string("front brake pads")])),
        (Value::keyword("n"), Value::int(7)),
    ]);
    let mut facts: Vec<String> = value_facts(&v).into_iter().collect();
    facts.sort();
    assert_eq!(facts, ["342", "VH-2033", "front brake pads"]);
    let big = Value::vector((0..2 * MAX_VALUE_ATOMS as i64).map(|i| Value::int(10_000 + i)).collect());
    assert_eq!(value_facts(&big).len(), MAX_VALUE_ATOMS, "only the first atoms are read");
}
