//! What a fact is (`ptc_plugin_api::render::facts`), through the SDK's
//! public functions: the shape rules of output, a program's literals, a
//! tool's strings printed bare, and the ledger that keeps each fact once.

use ptc_plugin_api::render::{
    output_facts, printed_texts, program_facts, value_facts, value_texts, FactLedger, MAX_FACT_CHARS,
    MAX_VALUE_TEXT_BYTES,
};
use ptc_plugin_api::Value;

#[test]
fn a_tools_string_printed_bare_is_a_fact_whatever_its_shape() {
    let record = |pairs: &[(&str, &str)]| {
        Value::map(pairs.iter().map(|(k, v)| (Value::keyword(*k), Value::string(*v))).collect())
    };
    let result = Value::vector(vec![
        record(&[("name", "Thomas Brenner"), ("status", "potential match"), ("list", "EU EDES")]),
        record(&[("status", "clear"), ("note", "on hold"), ("tag", "(untagged)"), ("n", "ok")]),
    ]);
    let texts = value_texts(&result);
    assert_eq!(
        texts,
        ["Thomas Brenner", "potential match", "EU EDES", "clear", "on hold", "(untagged)"],
        "strings of 4 characters or more, in order"
    );
    let line = "Thomas Brenner -> potential match EU EDES; non holder";
    assert_eq!(printed_texts(line, &texts), ["Thomas Brenner", "potential match", "EU EDES"], "whole words only");
    assert_eq!(printed_texts("(untagged)   27773.77 clear, not unclear", &texts), ["(untagged)", "clear"]);
    assert!(output_facts("(untagged)   27773.77 clear").iter().all(|f| *f != "clear" && *f != "(untagged)"));
    assert!(output_facts(line).iter().all(|f| *f != "potential match"), "the shape rules cannot find it");
    let page = record(&[("page", &"a page of text,\n".repeat(10))]);
    assert!(value_texts(&page).is_empty(), "a page is prose, not a value, nor are its lines");
}

#[test]
fn numbers_need_three_digits_and_words_a_digit_or_a_joint() {
    assert_eq!(output_facts("errors 466 of 12 at 0.21 rate 0.2116 v41 pg12"), ["466", "0.21", "0.2116", "pg12"]);
    assert_eq!(output_facts("lost revenue EUR 98130.12; ok"), ["98130.12"]);
    assert_eq!(output_facts("see fraud-check and gmail.com, not -x or a-b"), ["fraud-check", "gmail.com"]);
    assert_eq!(output_facts("{:sku OUT-40437 :list_usd 73.0 :n 12}"), ["OUT-40437", "73.0"]);
}

#[test]
fn handles_are_names_after_an_at_or_a_hash() {
    let line = "tests/e2e/ -> Jonas Weber @jweber (web-checkout), ask in #ci-flakes or #123; not @ab, ## or #{1 2}";
    assert_eq!(
        output_facts(line),
        ["tests/e2e/", "Jonas Weber", "@jweber", "web-checkout", "#ci-flakes", "#123"],
        "a handle of three characters or more, an issue number as before"
    );
}

#[test]
fn names_are_runs_of_capitalized_words() {
    assert_eq!(output_facts("owner: Marek Nowak (DBA)"), ["Marek Nowak"]);
    assert_eq!(output_facts("García, David and LAURA BIANCHI"), ["García, David", "LAURA BIANCHI"]);
    assert_eq!(output_facts("Korvell Group Holdings Ltd"), ["Korvell Group Holdings Ltd"]);
    assert_eq!(output_facts("A Bb Cc Dd Ee Ff"), ["Bb Cc Dd Ee Ff"], "five words at most");
}

#[test]
fn a_table_row_is_keyed_by_its_first_cell() {
    assert_eq!(output_facts("| pglogical | 2.4.1 | analytics CDC |"), ["pglogical", "2.4.1"]);
    assert_eq!(output_facts("  | summer sale | 2024-07-01 |"), ["summer sale", "2024-07-01"]);
    assert!(output_facts("|---|:---:|").is_empty(), "a separator row has no key");
    assert!(output_facts("| a | b |").is_empty(), "a key is a fact's length");
    assert!(output_facts("| one two three four five six | x |").is_empty(), "a key is a name, not a sentence");
    assert!(output_facts("pglogical | 2.4.1 |").iter().all(|f| *f != "pglogical"), "a row starts with `|`");
    // A fixed-width row: three cells or more, two spaces or more apart.
    let row = "Amazon Elastic Compute Cloud - Compute     kestrel-prod        19415.23  16.11%";
    assert_eq!(output_facts(row)[0], "Amazon Elastic Compute Cloud - Compute", "as long as the cell is");
    assert_eq!(output_facts("(untagged)     27773.77  23.04%"), ["(untagged)", "27773.77", "23.04%"]);
    assert_eq!(output_facts("(untagged)     27773.77"), ["27773.77"], "two cells are not a table");
    assert!(output_facts("moved the search nodes to analytics, as agreed").is_empty(), "prose is no row");
    // A key of several words needs no letter (a date and a time), and the
    // tokens in a key are that one fact.
    assert_eq!(output_facts("2024-11-04 10:00     6771   3925   5410"), ["2024-11-04 10:00", "6771", "3925", "5410"]);
    assert_eq!(output_facts("| 2024-11-04 10:00 | 6771 |"), ["2024-11-04 10:00", "6771"]);
    assert_eq!(output_facts("1041     853   835"), ["1041", "853", "835"], "a figure is no key");
}

#[test]
fn a_requirement_is_one_fact() {
    assert_eq!(output_facts("legacy-http==1.9.4"), ["legacy-http==1.9.4"]);
    assert_eq!(output_facts("  \"netclient>=2.2,<2.5\","), ["netclient>=2.2", "<2.5"]);
    assert_eq!(output_facts("requires django~=4.2 (pinned)"), ["django~=4.2"]);
    // Not a requirement: a comparison in code, a setting.
    assert_eq!(output_facts("if resp.status == 404:"), ["resp.status", "404"]);
    assert_eq!(output_facts("timeout=3.05 retries=5"), ["3.05"]);
}

#[test]
fn a_token_longer_than_a_fact_is_read_for_its_parts() {
    let digest = format!("sha256:{}", "ea204338".repeat(8));
    let line = format!("   stable 4.17.3 mirror-euw1.registry.fernhill.io/checkout/checkout-api@{digest}");
    assert!(line.split(' ').next_back().unwrap().chars().count() > MAX_FACT_CHARS);
    assert_eq!(output_facts(&line), ["4.17.3", "mirror-euw1.registry.fernhill.io", "checkout-api", digest.as_str()]);
    let url = "https://doi.org/10.1145/3580305.3599403/suppl/appendix-b-full-results-table-extended.pdf";
    assert_eq!(
        output_facts(url),
        ["doi.org", "10.1145", "3580305.3599403", "appendix-b-full-results-table-extended.pdf"]
    );
}

#[test]
fn a_values_facts_are_read_from_a_strings_first_bytes() {
    let filler = "lorem ipsum dolor — ünïcödé 日本語 🫖 sit amet; ".repeat(MAX_VALUE_TEXT_BYTES / 40);
    let doc = Value::string(format!("ref DOC-4650 {filler} ref DOC-9911"));
    let facts = value_facts(&doc);
    assert!(facts.contains("DOC-4650"), "{facts:?}");
    assert!(!facts.contains("DOC-9911"), "past the first {MAX_VALUE_TEXT_BYTES} bytes");
}

#[test]
fn an_identifier_in_camel_case_is_a_fact() {
    assert_eq!(
        output_facts("HorizontalPodAutoscaler (autoscaling/v2) unchanged; getClient returns a Client"),
        ["HorizontalPodAutoscaler", "autoscaling/v2", "getClient"]
    );
    assert!(output_facts("the checkout service is up. Nothing else, iOS or not").is_empty(), "prose has none");
}

#[test]
fn quoted_strings_with_spaces_are_facts() {
    assert_eq!(output_facts(r#"{:title "Dry bag 20 L" :ok true}"#), ["Dry bag 20 L"]);
}

#[test]
fn the_ledger_keeps_each_fact_once_and_skips_the_given_text() {
    let mut ledger = FactLedger::new("Reconcile OUT-40437");
    assert_eq!(ledger.admit_all(["OUT-40437", "OUT-40554", "\"OUT-40554\"", "87.46"]), ["OUT-40554", "87.46"]);
    assert!(ledger.holds("OUT-40437") && ledger.holds("\"87.46\"") && !ledger.holds("1127"));
}

#[test]
fn a_fact_a_shown_fact_holds_whole_is_not_admitted_again() {
    let mut ledger = FactLedger::new("Check the incidents");
    ledger.show("\"#48188 PQ7M2KX\"");
    ledger.show("memory limit raised 512Mi -> 768Mi (PLAT-4459)");
    assert_eq!(
        ledger.admit_all(["PQ7M2KX", "#48188", "768Mi", "PLAT-4459", "PQ7M2", "PLAT-445", "512M"]),
        ["PQ7M2", "PLAT-445", "512M"],
        "whole tokens only: a part of a token is another fact"
    );
    assert!(!ledger.admitted("PQ7M2KX"), "held by a shown fact, not admitted itself");
    assert!(ledger.shows_within("\"PQ7M2KX\"") && ledger.shows_within("raised 512Mi"));
    ledger.show("TCK-60412");
    assert!(!ledger.shows_within("TCK-60412"), "a fact is not within itself");
    // Joined tokens are one: a date inside a timestamp is not shown by it.
    ledger.show("2025-03-14T19:02:11Z eu-west-1-prod");
    assert_eq!(ledger.admit_all(["2025-03-14", "eu-west-1"]), ["2025-03-14", "eu-west-1"]);
}

#[test]
fn program_facts_are_quoted_as_written() {
    assert_eq!(program_facts(r#"(tool/order {:id "SKU-4417" :n 2 :total 1127})"#), ["\"SKU-4417\"", "1127"]);
    assert_eq!(program_facts(r#"(println "minutes above:" n "ERROR" "ok")"#), ["\"minutes above:\"", "\"ERROR\""]);
    let long = format!("(println \"{}\")", "x".repeat(MAX_FACT_CHARS + 1));
    assert!(program_facts(&long).is_empty(), "a long string is a message, not a fact");
}
