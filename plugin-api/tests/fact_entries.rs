//! Fact entries (`ptc_plugin_api::render::FactEntries`) through the SDK's
//! public API: a failed turn's notes, a tool's strings printed a turn
//! after the call, and facts that a longer fact shows.

use ptc_plugin_api::render::{BulkFacts, FactEntries, FactEntryOptions, FactMemory};
use ptc_plugin_api::{Definition, Params, RenderRequest, ToolCall, Turn, TurnError, Value};

#[test]
fn a_failed_turns_notes_join_the_next_entry() {
    let mut req = RenderRequest::new("Plan the upgrade", "system", 40);
    req.push_turn(
        Turn::new(1, "Known so far: BILL-1450 rolls out 2024-07-17 (Hannah Berg).", None)
            .with_error(TurnError::new("no_code", "No program found")),
    );
    req.push_turn(
        Turn::new(2, "Next the windows.\n```clojure\n(println 1234)\n```", Some("(println 1234)".into()))
            .with_prints(vec!["1234".into()]),
    );
    let entries = FactEntries::new(&req, FactEntryOptions::default());
    assert_eq!(entries.entry(0), "", "a failed turn has no entry");
    assert_eq!(
        entries.entry(1),
        ";; --- turn 2 ---\n;; facts: 1234 BILL-1450 2024-07-17 \"Hannah Berg\"",
        "the notes' facts, once, in the next entry; the program's own text is not prose"
    );
}

#[test]
fn a_tools_string_printed_bare_a_turn_later_through_a_definition_is_a_fact() {
    let booking = |pnr: &str, fare: &str| {
        Value::map(vec![
            (Value::keyword("pnr"), Value::string(pnr)),
            (Value::keyword("fare_basis"), Value::string(fare)),
        ])
    };
    let bookings = Value::vector(vec![booking("QX7R2M", "VLOWCH"), booking("VZ8H6C", "VLOWAT")]);
    let mut req = RenderRequest::new("Rebook the team", "system", 40);
    let call = ToolCall::new("bookings", Value::map(vec![]), Ok(bookings.clone()), 5);
    req.push_turn(
        Turn::new(1, "", Some("(def bookings (tool/bookings {}))".into()))
            .with_tool_calls(vec![call])
            .with_definitions(vec![Definition::new("bookings", bookings.clone(), None)]),
    );
    let print = |program: &str| {
        Turn::new(2, "", Some(program.into())).with_prints(vec!["QX7R2M VLOWCH 612.40 | VZ8H6C VLOWAT 548.30".into()])
    };
    req.push_turn(print("(doseq [b bookings] (println (:pnr b) (:fare_basis b)))"));
    let entries = FactEntries::new(&req, FactEntryOptions::default());
    assert_eq!(entries.entry(1), ";; --- turn 2 ---\n;; facts: QX7R2M 612.40 VZ8H6C 548.30 VLOWCH VLOWAT");
    // A program that does not name the definition shows no string of it.
    let mut other = RenderRequest::new("Rebook the team", "system", 40);
    other.push_turn(req.turns()[0].clone());
    other.push_turn(print("(println (tool/summary {}))"));
    let entries = FactEntries::new(&other, FactEntryOptions::default());
    assert_eq!(entries.entry(1), ";; --- turn 2 ---\n;; facts: QX7R2M 612.40 VZ8H6C 548.30");
    // Strings no tool gave (a value the program built, a page split into
    // lines) are not the tool's.
    let mut built = RenderRequest::new("Rebook the team", "system", 40);
    built.push_turn(
        Turn::new(1, "", Some("(def bookings [...])".into()))
            .with_definitions(vec![Definition::new("bookings", bookings, None)]),
    );
    built.push_turn(req.turns()[1].clone());
    let entries = FactEntries::new(&built, FactEntryOptions::default());
    assert_eq!(entries.entry(1), ";; --- turn 2 ---\n;; facts: QX7R2M 612.40 VZ8H6C 548.30");
}

#[test]
fn a_fact_that_a_longer_fact_shows_whole_is_listed_once() {
    let incident = |number: &str, id: &str, title: &str| {
        Value::map(vec![
            (Value::keyword("number"), Value::string(number)),
            (Value::keyword("id"), Value::string(id)),
            (Value::keyword("title"), Value::string(title)),
        ])
    };
    let found = Value::vector(vec![incident("#48188 PQ7M2KX", "PQ7M2KX", "checkout-api OOMKilled in eu-west-1")]);
    let mut req = RenderRequest::new("Check the incidents", "system", 40);
    let call = ToolCall::new("incidents", Value::map(vec![]), Ok(found), 5);
    req.push_turn(
        Turn::new(1, "", Some("(doseq [i (tool/incidents {})] (println (:number i) (:title i)))".into()))
            .with_tool_calls(vec![call])
            .with_prints(vec!["#48188 PQ7M2KX checkout-api OOMKilled in eu-west-1 since 06:20".into()]),
    );
    req.push_turn(
        Turn::new(2, "", Some("(println \"PQ7M2KX\" \"eu-west-1\")".into()))
            .with_prints(vec!["PQ7M2KX eu-west-1".into()]),
    );
    let entries = FactEntries::new(&req, FactEntryOptions::default());
    assert_eq!(
        entries.entry(0),
        ";; --- turn 1 ---\n;; Tool calls made:\n;   incidents({})\n;; facts: 06:20 \"#48188 PQ7M2KX\" \
         \"checkout-api OOMKilled in eu-west-1\"",
        "the ID, the handle and the region are in the strings that hold them"
    );
    assert_eq!(entries.entry(1), ";; --- turn 2 ---", "a later entry repeats none of them");
    // A summary of `bulk_facts = "fold"` drops the printed facts no program
    // used, so none of them may stand for another.
    let fold = FactEntries::new(&req, FactEntryOptions { bulk: BulkFacts::Fold, ..FactEntryOptions::default() });
    assert_eq!(
        fold.entry(0),
        ";; --- turn 1 ---\n;; Tool calls made:\n;   incidents({})\n;; facts: #48188 PQ7M2KX checkout-api eu-west-1 \
         06:20 \"#48188 PQ7M2KX\" \"checkout-api OOMKilled in eu-west-1\""
    );
}

#[test]
fn an_entry_lists_its_last_calls_and_keeps_the_facts_of_the_others_the_model_saw() {
    let case = |id: &str| {
        ToolCall::new("case", Value::map(vec![(Value::keyword("id"), Value::string(id))]), Ok(Value::string("open")), 1)
    };
    let mut req = RenderRequest::new("Close the cases", "system", 40);
    let calls = ["RMA-1001", "RMA-1002", "RMA-1003", "RMA-1004"].map(case).to_vec();
    req.push_turn(Turn::new(1, "", Some("(mapv #(tool/case {:id %}) ids)".into())).with_tool_calls(calls));
    let options = |seen: usize, listed: usize| FactEntryOptions {
        tool_call_limit: seen,
        listed_tool_calls: listed,
        ..FactEntryOptions::default()
    };
    // Every call listed: the compact line holds every value.
    let all = FactEntries::new(&req, options(20, 20));
    assert_eq!(
        all.entry(0),
        ";; --- turn 1 ---\n;; Tool calls made:\n;   case({:id \"RMA-1001\"}) and 3 more: \"RMA-1002\" \"RMA-1003\" \"RMA-1004\"\n;; => nil"
    );
    // The last call listed, the header counting them; the arguments of
    // the others become facts.
    let last = FactEntries::new(&req, options(20, 1));
    assert_eq!(
        last.entry(0),
        ";; --- turn 1 ---\n;; Tool calls made (the last 1 of 4):\n;   case({:id \"RMA-1004\"})\n;; => nil\n\
         ;; facts: RMA-1001 RMA-1002 RMA-1003"
    );
    // A call the full form never showed (beyond `tool_call_limit`) was not
    // seen: no fact of it.
    let seen = FactEntries::new(&req, options(3, 1));
    assert_eq!(
        seen.entry(0),
        ";; --- turn 1 ---\n;; Tool calls made (the last 1 of 4):\n;   case({:id \"RMA-1004\"})\n;; => nil\n\
         ;; facts: RMA-1002 RMA-1003"
    );
    // A fact an earlier entry showed is not listed again.
    let mut later = RenderRequest::new("Close the cases", "system", 40);
    later.push_turn(Turn::new(1, "", Some("(println ids)".into())).with_prints(vec!["RMA-1001 RMA-1002".into()]));
    let mut second = req.turns()[0].clone();
    second = Turn::new(2, "", second.program().map(str::to_string)).with_tool_calls(second.tool_calls().to_vec());
    later.push_turn(second);
    let entries = FactEntries::new(&later, options(20, 1));
    assert!(entries.entry(1).ends_with(";; facts: RMA-1003"), "{}", entries.entry(1));
}

#[test]
fn an_entry_lists_fact_tool_calls_at_most_the_calls_the_model_saw() {
    let read = |json: &str, seen: usize| {
        let mut p = Params::from_json("demo", json).unwrap();
        let default = FactEntryOptions { tool_call_limit: seen, listed_tool_calls: seen, ..Default::default() };
        let memory = FactMemory::from_params(&mut p, default).unwrap().unwrap();
        (memory.entries.tool_call_limit, memory.entries.listed_tool_calls)
    };
    assert_eq!(read("{}", 20), (20, 20), "every call the full form shows, by default");
    assert_eq!(read(r#"{"fact_tool_calls": 1}"#, 20), (20, 1));
    assert_eq!(read(r#"{"fact_tool_calls": 50}"#, 20), (20, 20), "never more than were seen");
    let mut p = Params::from_json("demo", r#"{"fact_tool_calls": 0}"#).unwrap();
    let e = FactMemory::from_params(&mut p, FactEntryOptions::default()).unwrap_err();
    assert!(e.to_string().contains("fact_tool_calls"), "{e}");
}
