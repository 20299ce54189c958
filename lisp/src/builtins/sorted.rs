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

/// Which orderings of an element's key to a bound pass a `subseq` test.
type Test = fn(Ordering) -> bool;

/// A `subseq` test (`<`, `<=`, `>`, `>=`).
fn test_of(v: &Value) -> Result<Test, Ctl> {
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
    let tests: Vec<(Test, &Value)> = match args {
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

#[cfg(test)]
mod tests {
    use crate::test_run::run;
    use crate::ErrorKind;

    #[test]
    fn every_way_of_adding_keeps_the_order() {
        let src = "(let [m (sorted-map 5 :e 1 :a)]
                     [(assoc m 3 :c) (conj m [0 :z]) (merge m {4 :d 2 :b}) (into m [[9 :i] [-1 :y]])
                      (update m 2 (fnil identity :n)) (assoc-in m [7] :g) (keys (reduce #(assoc %1 %2 %2) m [8 6 4]))])";
        assert_eq!(
            run(src).unwrap(),
            "[{1 :a 3 :c 5 :e} {0 :z 1 :a 5 :e} {1 :a 2 :b 4 :d 5 :e} {-1 :y 1 :a 5 :e 9 :i} {1 :a 2 :n 5 :e} {1 :a 5 :e 7 :g} (1 4 5 6 8)]"
        );
        assert_eq!(run("(into (sorted-set) [\"b\" \"a\" \"c\" \"a\"])").unwrap(), "#{\"a\" \"b\" \"c\"}");
        assert_eq!(run("(sorted? (dissoc (sorted-map 1 2 3 4) 1))").unwrap(), "true");
        assert_eq!(run("(sorted? (filter odd? (sorted-set 1 2)))").unwrap(), "false");
    }

    #[test]
    fn a_large_sorted_map_built_in_reverse_stays_sorted() {
        let out = run("(let [m (reduce #(assoc %1 %2 %2) (sorted-map) (range 2000 0 -1))] [(count m) (first (keys m)) (last (keys m))])");
        assert_eq!(out.unwrap(), "[2000 1 2000]");
    }

    #[test]
    fn keys_that_cannot_be_ordered_and_bad_tests_are_errors() {
        let (kind, msg) = run("(sorted-set 1 \"a\")").unwrap_err();
        assert_eq!(kind, ErrorKind::Type);
        assert!(msg.contains("cannot order integer 1 and string \"a\""), "{msg}");
        let (_, msg) = run("(subseq (sorted-set 1) = 1)").unwrap_err();
        assert!(msg.contains("one of the tests < <= > >="), "{msg}");
        let (_, msg) = run("(rseq {:a 1})").unwrap_err();
        assert!(msg.contains("a sorted map or sorted set"), "{msg}");
        let (_, msg) = run("(sorted-map-by > 1 2)").unwrap_err();
        assert!(msg.contains("not supported in PTC-Lisp"), "{msg}");
    }
}
