use super::*;
use ptc_compare::text::{ratio, share};

fn cells(rows: &[[&str; 3]]) -> Vec<Vec<String>> {
    rows.iter().map(|r| r.iter().map(|c| c.to_string()).collect()).collect()
}

#[test]
fn tables_align_text_and_write_markdown() {
    let headers: Vec<String> = ["strategy", "tokens", "vs full"].map(String::from).to_vec();
    let body =
        cells(&[["full-history", "120", "100.0%"], ["lean", "60", "50.0%"], ["broken", "ERROR turn 2: boom", ""]]);
    let md = table(&headers, &body, true);
    assert_eq!(
        md.lines().collect::<Vec<_>>(),
        [
            "| strategy | tokens | vs full |",
            "| --- | ---: | ---: |",
            "| full-history | 120 | 100.0% |",
            "| lean | 60 | 50.0% |",
            "| broken | ERROR turn 2: boom |  |"
        ]
    );
    let text = table(&headers, &body, false);
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "strategy      tokens  vs full",
            "full-history     120   100.0%",
            "lean              60    50.0%",
            "broken        ERROR turn 2: boom"
        ]
    );
}

#[test]
fn summary_headers_name_each_price_model() {
    let anthropic = PriceModel::builtin("anthropic").unwrap();
    let none = PriceModel::builtin("none").unwrap();
    let h = headers(&[&anthropic, &none], Columns::Wide);
    assert_eq!(
        h[4..10],
        [
            "anthropic cost vs full",
            "anthropic history cost vs full",
            "anthropic cached",
            "anthropic cached w/o fold",
            "none cost vs full",
            "recall"
        ]
        .map(String::from)
    );
    assert_eq!(ratio(1.0, 4.0), "25.0%");
    assert_eq!(ratio(1.0, 0.0), "-");
    assert_eq!(share(None), "-");
}

#[test]
fn sessions_sharing_a_file_name_are_named_by_their_paths() {
    let paths = |list: &[&str]| list.iter().map(PathBuf::from).collect::<Vec<_>>();
    assert_eq!(session_names(&paths(&["tests/sessions/a.json", "b.json"])), ["a.json", "b.json"]);
    let bench = paths(&[
        "out.sessions/lookup-fx/coalesced/run-1.session.jsonl",
        "out.sessions/lookup-fx/full-history/run-1.session.jsonl",
        "out.sessions/lookup-gold/coalesced/run-1.session.jsonl",
    ]);
    assert_eq!(
        session_names(&bench),
        [
            "lookup-fx/coalesced/run-1.session.jsonl",
            "lookup-fx/full-history/run-1.session.jsonl",
            "lookup-gold/coalesced/run-1.session.jsonl"
        ]
    );
    // One folder apart: the folders that differ stay.
    assert_eq!(session_names(&paths(&["x/a/s.json", "x/b/s.json"])), ["a/s.json", "b/s.json"]);
    // The same file twice is named alike; a file name is never taken away.
    assert_eq!(session_names(&paths(&["a/s.json", "a/s.json"])), ["s.json", "s.json"]);
}
