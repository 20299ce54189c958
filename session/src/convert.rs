//! PTC-Lisp values to plugin ABI values.
//!
//! Conversion happens once per value, when a turn is recorded or a session
//! is read, never per render.

use ptc_lisp::Value as Lisp;
use ptc_plugin_api::{FnDesc, Value};

/// Collections nested deeper than this are cut (shown as `"..."`), so no
/// value can exhaust the stack of the host or a plugin.
pub const MAX_DEPTH: usize = 200;

/// Converts a Lisp value (function values keep their description).
pub fn to_abi(value: &Lisp) -> Value {
    convert(value, 0)
}

fn convert(value: &Lisp, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return Value::string("...");
    }
    let all = |items: &mut dyn Iterator<Item = &Lisp>| items.map(|v| convert(v, depth + 1)).collect::<Vec<_>>();
    match value {
        Lisp::Nil => Value::nil(),
        Lisp::Bool(b) => Value::bool(*b),
        Lisp::Int(i) => Value::int(*i),
        Lisp::Float(f) => Value::float(*f),
        Lisp::Str(s) => Value::string(s.as_ref()),
        Lisp::Keyword(k) => Value::keyword(k.as_ref()),
        Lisp::Vector(v) => Value::vector(all(&mut v.iter())),
        Lisp::List(v) => Value::list(all(&mut v.iter())),
        Lisp::Set(s) => Value::set(all(&mut s.iter())),
        Lisp::Map(m) => Value::map(m.iter().map(|(k, v)| (convert(k, depth + 1), convert(v, depth + 1))).collect()),
        Lisp::Fn(f) => Value::function(fn_desc(&f.desc, None)),
    }
}

/// The ABI description of a Lisp function, with the return type if known.
pub fn fn_desc(desc: &ptc_lisp::FnDesc, return_type: Option<String>) -> FnDesc {
    FnDesc::new(desc.name.as_deref().unwrap_or(""), desc.params.iter().map(|p| p.to_string()).collect())
        .with_variadic(desc.variadic.as_ref().map(|v| v.to_string()))
        .with_return_type(return_type)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::ValueRef;

    #[test]
    fn converts_every_kind_in_order() {
        let v = ptc_lisp::read_edn(r#"{:b [1 2.5 "s"] :a #{nil true} "k" (:kw)}"#).unwrap();
        let abi = to_abi(&v);
        let ValueRef::Map(entries) = abi.view() else { panic!("not a map: {abi:?}") };
        let keys: Vec<_> = entries.iter().map(|e| e.key().view()).collect();
        assert_eq!(keys, vec![ValueRef::Keyword("b"), ValueRef::Keyword("a"), ValueRef::Str("k")]);
        let ValueRef::Vector(items) = entries[0].value().view() else { panic!() };
        assert_eq!(items[1].view(), ValueRef::Float(2.5));
        assert!(matches!(entries[2].value().view(), ValueRef::List(l) if l[0].view() == ValueRef::Keyword("kw")));
    }

    #[test]
    fn deep_values_are_cut_not_overflowing() {
        let mut v = Lisp::Int(1);
        for _ in 0..(MAX_DEPTH + 50) {
            v = Lisp::vector(vec![v]);
        }
        let mut abi = &to_abi(&v);
        let mut depth = 0;
        while let ValueRef::Vector(items) = abi.view() {
            abi = &items[0];
            depth += 1;
        }
        assert_eq!(depth, MAX_DEPTH + 1);
        assert_eq!(abi.view(), ValueRef::Str("..."));
    }
}
