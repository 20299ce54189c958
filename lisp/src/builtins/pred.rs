//! Predicates, set algebra and keywords.

use super::{b, is_fn, str_arg, type_err, Builtin, VARIADIC};
use crate::eval::{Interp, R};
use crate::value::{Set, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("not", 1, 1, not),
    b("boolean", 1, 1, |_, a| Ok(Value::Bool(a[0].is_truthy()))),
    b("nil?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Nil)))),
    b("some?", 1, 1, |_, a| Ok(Value::Bool(!matches!(a[0], Value::Nil)))),
    b("true?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Bool(true))))),
    b("false?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Bool(false))))),
    b("boolean?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Bool(_))))),
    b("number?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(_) | Value::Float(_))))),
    b("integer?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(_))))),
    b("int?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(_))))),
    b("float?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Float(_))))),
    b("double?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Float(_))))),
    b("string?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Str(_))))),
    b("keyword?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Keyword(_))))),
    b("vector?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Vector(_))))),
    b("list?", 1, 1, |_, a| Ok(Value::Bool(matches!(&a[0], Value::List(l) if l.is_list())))),
    b("seq?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::List(_))))),
    b("map?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Map(_))))),
    b("set?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Set(_))))),
    b("coll?", 1, 1, |_, a| {
        Ok(Value::Bool(matches!(a[0], Value::Vector(_) | Value::List(_) | Value::Map(_) | Value::Set(_))))
    }),
    b("sequential?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Vector(_) | Value::List(_))))),
    b("fn?", 1, 1, |_, a| Ok(Value::Bool(is_fn(&a[0])))),
    b("union", 0, VARIADIC, union),
    b("intersection", 1, VARIADIC, intersection),
    b("difference", 1, VARIADIC, difference),
    b("subset?", 2, 2, subset),
    b("superset?", 2, 2, superset),
    b("associative?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Map(_) | Value::Vector(_))))),
    b("counted?", 1, 1, |_, a| {
        Ok(Value::Bool(matches!(a[0], Value::Vector(_) | Value::List(_) | Value::Map(_) | Value::Set(_))))
    }),
    b("indexed?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Vector(_))))),
    b("reversible?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Vector(_))))),
    b("seqable?", 1, 1, |_, a| {
        Ok(Value::Bool(matches!(
            a[0],
            Value::Nil | Value::Vector(_) | Value::List(_) | Value::Map(_) | Value::Set(_) | Value::Str(_)
        )))
    }),
    // No sorted collections, characters (they are one-character strings),
    // symbols, decimals or ratios exist as values.
    b("sorted?", 1, 1, |_, a| {
        Ok(Value::Bool(
            matches!(&a[0], Value::Map(m) if m.is_sorted()) || matches!(&a[0], Value::Set(s) if s.is_sorted()),
        ))
    }),
    b("char?", 1, 1, |_, _| Ok(Value::Bool(false))),
    b("symbol?", 1, 1, |_, _| Ok(Value::Bool(false))),
    b("decimal?", 1, 1, |_, _| Ok(Value::Bool(false))),
    b("ratio?", 1, 1, |_, _| Ok(Value::Bool(false))),
    b("rational?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(_))))),
    b("ifn?", 1, 1, |_, a| {
        Ok(Value::Bool(
            is_fn(&a[0]) || matches!(a[0], Value::Keyword(_) | Value::Map(_) | Value::Set(_) | Value::Vector(_)),
        ))
    }),
    // A map entry is a two-element vector here.
    b("map-entry?", 1, 1, |_, a| Ok(Value::Bool(matches!(&a[0], Value::Vector(v) if v.len() == 2)))),
    b("nat-int?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(i) if i >= 0)))),
    b("pos-int?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(i) if i > 0)))),
    b("neg-int?", 1, 1, |_, a| Ok(Value::Bool(matches!(a[0], Value::Int(i) if i < 0)))),
    b("distinct?", 1, VARIADIC, distinct),
    b("disj", 1, VARIADIC, disj),
    b("keyword", 1, 2, keyword),
    b("name", 1, 1, name),
    b("namespace", 1, 1, namespace),
];

fn not(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Bool(!args[0].is_truthy()))
}

fn set_arg<'v>(who: &str, v: &'v Value) -> Result<Option<&'v Set>, crate::eval::Ctl> {
    match v {
        Value::Set(s) => Ok(Some(s)),
        Value::Nil => Ok(None),
        other => Err(type_err(who, "sets", other)),
    }
}

fn union(_: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Set::new();
    for a in args.iter() {
        if let Some(s) = set_arg("union", a)? {
            out.extend(s.iter().cloned());
        }
    }
    Ok(Value::Set(out))
}

fn intersection(_: &mut Interp, args: &mut [Value]) -> R {
    let mut out: Set = set_arg("intersection", &args[0])?.cloned().unwrap_or_default();
    for a in &args[1..] {
        let other = set_arg("intersection", a)?;
        out.retain(|x| other.is_some_and(|o| o.contains(x)));
    }
    Ok(Value::Set(out))
}

fn difference(_: &mut Interp, args: &mut [Value]) -> R {
    let mut out: Set = set_arg("difference", &args[0])?.cloned().unwrap_or_default();
    for a in &args[1..] {
        if let Some(o) = set_arg("difference", a)? {
            out.retain(|x| !o.contains(x));
        }
    }
    Ok(Value::Set(out))
}

fn is_subset(who: &str, a: &Value, b: &Value) -> R {
    let a = set_arg(who, a)?;
    let b = set_arg(who, b)?;
    Ok(Value::Bool(match (a, b) {
        (None, _) => true,
        (Some(a), None) => a.is_empty(),
        (Some(a), Some(b)) => a.iter().all(|x| b.contains(x)),
    }))
}

fn subset(_: &mut Interp, args: &mut [Value]) -> R {
    is_subset("subset?", &args[0], &args[1])
}

fn superset(_: &mut Interp, args: &mut [Value]) -> R {
    is_subset("superset?", &args[1], &args[0])
}

/// `(keyword s)`, and `(keyword ns name)` as `:ns/name` (`ns` nil: `:name`).
fn keyword(_: &mut Interp, args: &mut [Value]) -> R {
    if let [ns, name] = args {
        let name = str_arg("keyword", name)?;
        let full = match ns {
            Value::Nil => Value::str(name),
            ns => Value::str(format!("{}/{name}", str_arg("keyword", ns)?)),
        };
        return keyword_of(&full);
    }
    keyword_of(&args[0])
}

fn keyword_of(arg: &Value) -> R {
    Ok(match arg {
        Value::Keyword(k) => Value::Keyword(k.clone()),
        Value::Nil => Value::Nil,
        other => {
            let name = str_arg("keyword", other)?;
            if !crate::value::keyword_readable(name) {
                return Err(type_err(
                    "keyword",
                    "a name a keyword can be written with (no space, comma, bracket, quote or `;`; use the string itself as the key)",
                    other,
                ));
            }
            Value::Keyword(name.into())
        }
    })
}

fn name(_: &mut Interp, args: &mut [Value]) -> R {
    match &args[0] {
        Value::Keyword(k) => Ok(Value::str(k.rsplit('/').next().unwrap_or(k))),
        Value::Str(s) => Ok(Value::Str(s.clone())),
        other => Err(type_err("name", "a keyword or string", other)),
    }
}

/// `(namespace :a/b)` is `"a"`; a keyword without a namespace gives nil.
fn namespace(_: &mut Interp, args: &mut [Value]) -> R {
    match &args[0] {
        Value::Keyword(k) => Ok(match k.rsplit_once('/') {
            Some((ns, _)) if !ns.is_empty() => Value::str(ns),
            _ => Value::Nil,
        }),
        other => Err(type_err("namespace", "a keyword", other)),
    }
}

fn distinct(_: &mut Interp, args: &mut [Value]) -> R {
    let mut seen = Set::new();
    Ok(Value::Bool(args.iter().all(|a| seen.insert(a.clone()))))
}

fn disj(_: &mut Interp, args: &mut [Value]) -> R {
    match super::take(args, 0) {
        Value::Set(mut s) => {
            for x in &args[1..] {
                s.remove(x);
            }
            Ok(Value::Set(s))
        }
        Value::Nil => Ok(Value::Nil),
        other => Err(type_err("disj", "a set", &other)),
    }
}
