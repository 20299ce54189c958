//! Tool signatures: `(name :type, other :type) -> :type`, rendered without
//! colons as `tool/name(name type, other type) -> type`.

use crate::request::ToolSpec;

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
    /// Parses a signature; `None` when it does not follow the grammar.
    pub fn parse(text: &str) -> Option<Signature> {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let mut params = Vec::new();
        let mut declared = Vec::new();
        p.ws();
        if p.eat(b'(') {
            loop {
                p.ws();
                if p.eat(b')') {
                    break;
                }
                if !params.is_empty() {
                    p.eat(b',');
                    p.ws();
                }
                let name = p.ident()?;
                p.ws();
                let ty = p.ty()?;
                params.push((kebab_case(&name), ty));
                declared.push(name);
            }
            p.ws();
        }
        if !(p.eat(b'-') && p.eat(b'>')) {
            return None;
        }
        p.ws();
        let returns = p.ty()?;
        p.ws();
        (p.i == p.s.len()).then_some(Signature { params, declared, returns })
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

/// `snake_case` and `camelCase` become `kebab-case`.
pub fn kebab_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' {
            out.push('-');
            prev_lower = false;
        } else if c.is_uppercase() {
            if prev_lower {
                out.push('-');
            }
            out.extend(c.to_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<String> {
        let start = self.i;
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c.is_ascii_alphanumeric() || b"-_*!".contains(&c) || (c == b'?' && self.i > start) {
                self.i += 1;
            } else {
                break;
            }
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// `:name`, `[type]`, `{field type, ...}` (or `{:field type}`), each optionally followed by `?`.
    fn ty(&mut self) -> Option<String> {
        let base = if self.eat(b':') {
            let name = self.ident()?;
            // `:string?` reads as one identifier; keep the `?` as the optional marker.
            return Some(name);
        } else if self.eat(b'[') {
            self.ws();
            let inner = self.ty()?;
            self.ws();
            if !self.eat(b']') {
                return None;
            }
            format!("[{inner}]")
        } else if self.eat(b'{') {
            let mut fields = Vec::new();
            loop {
                self.ws();
                if self.eat(b'}') {
                    break;
                }
                if !fields.is_empty() {
                    self.eat(b',');
                    self.ws();
                }
                // Clojure-style keyword keys (`{:id :int}`) read like `{id :int}`.
                self.eat(b':');
                let name = self.ident()?;
                self.ws();
                let ty = self.ty()?;
                fields.push(format!("{name} {ty}"));
            }
            format!("{{{}}}", fields.join(", "))
        } else {
            return None;
        };
        Some(if self.eat(b'?') { format!("{base}?") } else { base })
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
        assert_eq!(sig("() -> :nil"), Some(("".into(), "nil".into())));
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
        for bad in ["", "string", "(q string) -> :x", "(q :string -> :x", "(q :string) -> :x extra", "(q :string)"] {
            assert_eq!(Signature::parse(bad), None, "{bad}");
        }
        let tool = ToolSpec::new("t", Some("nonsense".into()), None);
        assert_eq!(Signature::of(&tool), Signature { params: vec![], declared: vec![], returns: "any".into() });
    }
}
