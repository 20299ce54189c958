//! Sorted maps and sets (`sorted-map`, `sorted-set`) and the functions that
//! read them in order or in reverse (`rseq`, `subseq`, `rsubseq`).
//!
//! A sorted map is an ordinary map whose storage is marked sorted: new keys
//! go where `compare` puts them (`Map::insert`), so `assoc`, `conj`, `into`
//! and `merge` keep the order.

use super::{b, entry, items, list, sort::compare_values, type_err, Builtin, VARIADIC};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::value::{FnBody, Map, Set, Value};
use std::cmp::Ordering;

pub(crate) const BUILTINS: &[Builtin] = &[
    b("sorted-map", 0, VARIADIC, sorted_map),
    b("sorted-set", 0, VARIADIC, sorted_set),
    b("rseq", 1, 1, rseq),
    b("subseq", 3, 5, subseq),
    b("rsubseq", 3, 5, rsubseq),
];

/// Fails unless every pair of `keys` can be compared (numbers with
/// numbers, strings with strings, ...), as Clojure's comparator does.
fn check_comparable<'v>(who: &str, keys: impl Iterator<Item = &'v Value>) -> Result<(), Ctl> {
    let mut first: Option<&Value> = None;
    for k in keys {
        match first {
            None => first = Some(k),
            Some(f) => {
                compare_values(f, k).map_err(|_| {
                    fail(
                        ErrorKind::Type,
                        format!(
                            "{who}: cannot order {} and {}; keys of a sorted collection must be of one kind",
                            crate::eval::preview(f),
                            crate::eval::preview(k)
                        ),
                    )
                })?;
            }
        }
    }
    Ok(())
}

fn sorted_map(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() % 2 != 0 {
        return Err(fail(ErrorKind::Arity, "sorted-map needs key/value pairs (an even number of arguments)"));
    }
    check_comparable("sorted-map", args.iter().step_by(2))?;
    for a in args.iter() {
        interp.check_nesting(a)?;
    }
    let map: Map = args.chunks(2).map(|p| (p[0].clone(), p[1].clone())).collect();
    Ok(Value::Map(map.into_sorted()))
}

fn sorted_set(interp: &mut Interp, args: &mut [Value]) -> R {
    check_comparable("sorted-set", args.iter())?;
    for a in args.iter() {
        interp.check_nesting(a)?;
    }
    let set: Set = args.iter().cloned().collect();
    Ok(Value::Set(set.into_sorted()))
}

/// The elements of a sorted map (entries) or set, in order.
fn sorted_items(who: &str, v: &Value) -> Result<Vec<Value>, Ctl> {
    match v {
        Value::Map(m) if m.is_sorted() => Ok(m.iter().map(|(k, x)| entry(k.clone(), x.clone())).collect()),
        Value::Set(s) if s.is_sorted() => Ok(s.iter().cloned().collect()),
        other => Err(type_err(who, "a sorted map or sorted set", other)),
    }
}

/// `nil` for no elements, as Clojure's `rseq` and `subseq` give.
fn seq_or_nil(v: Vec<Value>) -> Value {
    if v.is_empty() {
        Value::Nil
    } else {
        list(v)
    }
}

fn rseq(_: &mut Interp, args: &mut [Value]) -> R {
    let mut v = match &args[0] {
        Value::Vector(_) => items(&args[0], "rseq")?.into_owned(),
        other => sorted_items("rseq", other)?,
    };
    v.reverse();
    Ok(seq_or_nil(v))
}

/// A `subseq` test (`<`, `<=`, `>`, `>=`): which orderings of element to bound pass.
fn test_of(v: &Value) -> Result<fn(Ordering) -> bool, Ctl> {
    let name = match v {
        Value::Fn(f) => match &f.body {
            Some(FnBody::Builtin(b)) => b.name,
            _ => "",
        },
        _ => "",
    };
    Ok(match name {
        "<" => Ordering::is_lt,
        "<=" => Ordering::is_le,
        ">" => Ordering::is_gt,
        ">=" => Ordering::is_ge,
        _ => return Err(type_err("subseq", "one of the tests < <= > >=", v)),
    })
}

/// The elements whose key passes the one or two tests, in order.
fn bounded(who: &str, args: &[Value]) -> Result<Vec<Value>, Ctl> {
    let all = sorted_items(who, &args[0])?;
    let tests: Vec<(fn(Ordering) -> bool, &Value)> = match args {
        [_, t, k] => vec![(test_of(t)?, k)],
        [_, t1, k1, t2, k2] => vec![(test_of(t1)?, k1), (test_of(t2)?, k2)],
        _ => {
            return Err(fail(
                ErrorKind::Arity,
                format!("{who} takes (sc test key) or (sc start-test start end-test end)"),
            ))
        }
    };
    let is_map = matches!(args[0], Value::Map(_));
    let mut out = Vec::new();
    for x in all {
        let key = match (&x, is_map) {
            (Value::Vector(kv), true) => kv[0].clone(),
            _ => x.clone(),
        };
        let mut pass = true;
        for (test, bound) in &tests {
            pass &= test(compare_values(&key, bound)?);
        }
        if pass {
            out.push(x);
        }
    }
    Ok(out)
}

fn subseq(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(seq_or_nil(bounded("subseq", args)?))
}

fn rsubseq(_: &mut Interp, args: &mut [Value]) -> R {
    let mut v = bounded("rsubseq", args)?;
    v.reverse();
    Ok(seq_or_nil(v))
}
