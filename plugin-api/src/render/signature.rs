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
