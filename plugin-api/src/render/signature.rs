//! Tool signatures: `(name :type, other :type) -> :type`, rendered without
//! colons as `tool/name(name type, other type) -> type`. The grammar and
//! the parser are `ptc-signature`'s (the one parser of the project); this
//! is the view of a parsed signature the prompt sections print.

use crate::request::ToolSpec;
pub use ptc_signature::kebab_case;

/// A parsed tool signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `(name, type)` pairs; names in kebab-case, types without colons.
    pub params: Vec<(String, String)>,
    /// The parameter names as the signature writes them (what the tool
    /// itself reads), in the order of `params`.
    pub declared: Vec<String>,
    /// Return type without colons.
    pub returns: String,
}

impl Signature {
    /// Parses a signature (`ptc_signature`'s grammar); `None` when it does
    /// not parse.
    pub fn parse(text: &str) -> Option<Signature> {
        let parsed = ptc_signature::Signature::parse(text).ok()?;
        Some(Signature {
            params: parsed.params.iter().map(|p| (kebab_case(&p.name), p.ty.plain())).collect(),
            declared: parsed.params.into_iter().map(|p| p.name).collect(),
            returns: parsed.output.plain(),
        })
    }

    /// The signature of `tool`; a missing or unparsable one is `() -> any`.
    pub fn of(tool: &ToolSpec) -> Signature {
        tool.signature().and_then(Signature::parse).unwrap_or_else(|| Signature {
            params: Vec::new(),
            declared: Vec::new(),
            returns: "any".into(),
        })
    }

    /// `name type, name type`
    pub fn params_text(&self) -> String {
        self.params.iter().map(|(n, t)| format!("{n} {t}")).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for bad in [
            "",
            "string",
            "(q string) -> :x",
            "(q :string -> :x",
            "(q :string) -> :int extra",
            "(q :string)",
            "() -> :nil",
        ] {
            assert_eq!(Signature::parse(bad), None, "{bad}");
        }
        let tool = ToolSpec::new("t", Some("nonsense".into()), None);
        assert_eq!(Signature::of(&tool), Signature { params: vec![], declared: vec![], returns: "any".into() });
    }
}
