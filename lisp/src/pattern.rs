//! Destructuring: binding patterns compiled into slot assignments.
//!
//! `[a b & rest :as all]`, `{:keys [a b] :strs [c] :or {a 1} :as m}`,
//! `{x :x}` and `_`, nested freely. A symbol bound directly to a slot costs
//! nothing: the name simply refers to that slot.

use crate::analyze::{syntax, AResult, Analyzer, Bind, Node};
use crate::form::{form_to_value, Form, FormKind};
use crate::value::Value;

/// A readable name for a parameter pattern (`x`, `[a b]`, `{:keys [a]}`).
pub(crate) fn describe(p: &Form) -> String {
    match &p.kind {
        FormKind::Symbol(s) => s.to_string(),
        FormKind::Vector(_) => "vec".into(),
        FormKind::Map(_) => "map".into(),
        _ => "arg".into(),
    }
}

impl Analyzer {
    /// Binds `pat` to the value held in `src`, adding assignments to `out`.
    pub fn bind_pattern(&mut self, pat: &Form, src: u32, out: &mut Vec<Bind>) -> AResult<()> {
        match &pat.kind {
            FormKind::Symbol(name) if name.contains('/') => {
                Err(syntax(pat, format!("cannot bind a qualified name `{name}`")))
            }
            FormKind::Symbol(name) => {
                self.declare(name, src);
                Ok(())
            }
            FormKind::Vector(items) => self.vector_pattern(pat, items, src, out),
            FormKind::Map(items) => self.map_pattern(pat, items, src, out),
            _ => Err(syntax(pat, "a binding must be a symbol, a [vector] or a {map} pattern")),
        }
    }

    /// Evaluates `value` into a fresh slot and binds `pat` to it.
    pub fn bind_value(&mut self, pat: &Form, value: Node, out: &mut Vec<Bind>) -> AResult<()> {
        let slot = self.new_slot();
        out.push(Bind { slot, value });
        self.bind_pattern(pat, slot, out)
    }

    fn vector_pattern(&mut self, pat: &Form, items: &[Form], src: u32, out: &mut Vec<Bind>) -> AResult<()> {
        let mut i = 0;
        let mut idx = 0;
        while i < items.len() {
            let item = &items[i];
            match &item.kind {
                FormKind::Symbol(s) if &**s == "&" => {
                    let Some(rest) = items.get(i + 1) else {
                        return Err(syntax(pat, "`&` in a pattern must be followed by a name"));
                    };
                    self.bind_value(rest, Node::RestFrom(src, idx), out)?;
                    i += 2;
                }
                FormKind::Keyword(k) if &**k == "as" => {
                    let Some(name) = items.get(i + 1) else {
                        return Err(syntax(pat, "`:as` in a pattern must be followed by a name"));
                    };
                    self.bind_pattern(name, src, out)?;
                    i += 2;
                }
                _ => {
                    self.bind_value(item, Node::Nth(src, idx), out)?;
                    idx += 1;
                    i += 1;
                }
            }
        }
        Ok(())
    }

    fn map_pattern(&mut self, _pat: &Form, items: &[Form], src: u32, out: &mut Vec<Bind>) -> AResult<()> {
        // Defaults first: `:or` may appear anywhere in the map.
        let mut defaults: Vec<(&str, &Form)> = Vec::new();
        for pair in items.chunks(2) {
            if let [k, v] = pair {
                if matches!(&k.kind, FormKind::Keyword(s) if &**s == "or") {
                    let FormKind::Map(entries) = &v.kind else {
                        return Err(syntax(v, ":or needs a map of defaults, e.g. :or {a 1}"));
                    };
                    for e in entries.chunks(2) {
                        let name = e[0].as_symbol().ok_or_else(|| syntax(&e[0], ":or keys must be symbols"))?;
                        defaults.push((name, &e[1]));
                    }
                }
            }
        }
        let default_for = |this: &mut Analyzer, name: &str| -> AResult<Option<Box<Node>>> {
            match defaults.iter().find(|(n, _)| *n == name) {
                Some((_, f)) => Ok(Some(Box::new(this.analyze(f, false)?))),
                None => Ok(None),
            }
        };
        for pair in items.chunks(2) {
            let [k, v] = pair else { unreachable!("the reader guarantees maps have pairs") };
            match &k.kind {
                FormKind::Keyword(kw) if matches!(&**kw, "keys" | "strs") => {
                    let FormKind::Vector(names) = &v.kind else {
                        return Err(syntax(v, format!(":{kw} needs a vector of names")));
                    };
                    for n in names {
                        let name: &str = match &n.kind {
                            FormKind::Symbol(s) => s,
                            FormKind::Keyword(s) => s,
                            _ => return Err(syntax(n, format!(":{kw} names must be symbols"))),
                        };
                        let local = name.rsplit('/').next().unwrap_or(name);
                        let key = if &**kw == "keys" { Value::keyword(name) } else { Value::str(name) };
                        let default = default_for(self, local)?;
                        let slot = self.new_slot();
                        out.push(Bind { slot, value: Node::GetKey(src, key, default) });
                        self.declare(local, slot);
                    }
                }
                FormKind::Keyword(kw) if &**kw == "as" => self.bind_pattern(v, src, out)?,
                FormKind::Keyword(kw) if &**kw == "or" => {}
                _ => {
                    let key = form_to_value(v)?;
                    let default = match k.as_symbol() {
                        Some(name) => default_for(self, name)?,
                        None => None,
                    };
                    self.bind_value(k, Node::GetKey(src, key, default), out)?;
                }
            }
        }
        Ok(())
    }
}
