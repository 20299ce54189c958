//! Tool signatures as the prompt shows them (`ptc_plugin_api::render::Signature`):
//! the original runtime's syntax, colons dropped, names in kebab case.

use ptc_plugin_api::render::Signature;
use ptc_plugin_api::ToolSpec;

fn sig(text: &str) -> Option<(String, String)> {
    Signature::parse(text).map(|s| (s.params_text(), s.returns))
}

#[test]
fn parses_and_drops_colons() {
    assert_eq!(sig("(q :string, n :int) -> [:string]"), Some(("q string, n int".into(), "[string]".into())));
    assert_eq!(sig("(q :string n :int) -> :map"), Some(("q string, n int".into(), "map".into())));
    assert_eq!(sig("-> :string"), Some(("".into(), "string".into())));
    assert_eq!(sig("() -> :any"), Some(("".into(), "any".into())));
    assert_eq!(sig("{count :int}"), Some(("".into(), "{count int}".into())));
    assert_eq!(
        sig("(id :int) -> {score :float, tags [:string]}"),
        Some(("id int".into(), "{score float, tags [string]}".into()))
    );
    assert_eq!(sig("(name :string?) -> [{id :int}]?"), Some(("name string?".into(), "[{id int}]?".into())));
}

#[test]
fn record_fields_may_be_written_as_keywords() {
    assert_eq!(
        sig("(id :int) -> {:id :int, :name :string?}"),
        Some(("id int".into(), "{id int, name string?}".into()))
    );
}

#[test]
fn param_names_become_kebab_case() {
    let s = Signature::parse("(max_results :int, sortBy :string) -> :any").unwrap();
    assert_eq!(s.params_text(), "max-results int, sort-by string");
    assert_eq!(s.declared, ["max_results", "sortBy"]);
}

#[test]
fn rejects_what_does_not_parse() {
    for bad in
        ["", "string", "(q string) -> :x", "(q :string -> :x", "(q :string) -> :int extra", "(q :string)", "() -> :nil"]
    {
        assert_eq!(Signature::parse(bad), None, "{bad}");
    }
    let tool = ToolSpec::new("t", Some("nonsense".into()), None);
    assert_eq!(Signature::of(&tool), Signature { params: vec![], declared: vec![], returns: "any".into() });
}
