//! PTC helpers with no Clojure equivalent: `pluck`, `sum-by`, `avg-by`,
//! `min-by`, `max-by` and `where`.
//!
//! A "key" may be a keyword, a string key, a vector path or a function.

use super::{b, items, list, map::lookup, native::NativeKind, num::Num, seq::native, sort::compare_values, Builtin};
use crate::error::ErrorKind;
use crate::eval::{fail, Interp, R};
use crate::value::Value;
use std::cmp::Ordering;

pub(crate) const BUILTINS: &[Builtin] = &[
    b("pluck", 2, 2, pluck),
    b("sum-by", 2, 2, sum_by),
    b("avg-by", 2, 2, avg_by),
    b("min-by", 2, 2, min_by),
    b("max-by", 2, 2, max_by),
    b("where", 2, 3, where_fn),
    b("sum", 1, 1, sum),
    b("avg", 1, 1, avg),
    b("distinct-by", 2, 2, distinct_by),
];

/// The numbers of a collection, skipping nils.
fn plain_numbers(args: &[Value], who: &str) -> Result<Vec<Num>, crate::eval::Ctl> {
    items(&args[0], who)?.iter().filter(|x| !matches!(x, Value::Nil)).map(|x| Num::of(who, x)).collect()
}

fn sum(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut acc = Value::Int(0);
    for n in plain_numbers(args, "sum")? {
        let mut pair = [acc, n.value()];
        acc = super::num::add(interp, &mut pair)?;
    }
    Ok(acc)
}

fn avg(_: &mut Interp, args: &mut [Value]) -> R {
    let ns = plain_numbers(args, "avg")?;
    if ns.is_empty() {
        return Ok(Value::Nil);
    }
    Ok(Value::Float(ns.iter().map(|n| n.f()).sum::<f64>() / ns.len() as f64))
}

fn distinct_by(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut seen = crate::value::Set::new();
    let mut out = Vec::new();
    for x in items(&args[1], "distinct-by")?.iter() {
        if seen.insert(key_of(interp, &args[0], x)?) {
            out.push(x.clone());
        }
    }
    Ok(list(out))
}

/// The value of `key` in `x`: a keyword/string key, a vector path or a function.
fn key_of(interp: &mut Interp, key: &Value, x: &Value) -> R {
    match key {
        Value::Vector(path) => {
            let mut cur = x.clone();
            for k in path.iter() {
                cur = lookup(&cur, k).unwrap_or(Value::Nil);
            }
            Ok(cur)
        }
        Value::Fn(_) => interp.apply(key, vec![x.clone()]),
        k => Ok(lookup(x, k).unwrap_or(Value::Nil)),
    }
}

fn pluck(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Vec::new();
    for x in items(&args[1], "pluck")?.iter() {
        out.push(key_of(interp, &args[0], x)?);
    }
    Ok(list(out))
}

/// The numeric keys of the elements, skipping nils.
fn numbers(interp: &mut Interp, args: &[Value], who: &str) -> Result<Vec<Num>, crate::eval::Ctl> {
    let mut out = Vec::new();
    for x in items(&args[1], who)?.iter() {
        match key_of(interp, &args[0], x)? {
            Value::Nil => {}
            v => out.push(Num::of(who, &v)?),
        }
    }
    Ok(out)
}

fn sum_by(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut acc = Value::Int(0);
    for n in numbers(interp, args, "sum-by")? {
        let mut pair = [acc, n.value()];
        acc = super::num::add(interp, &mut pair)?;
    }
    Ok(acc)
}

fn avg_by(interp: &mut Interp, args: &mut [Value]) -> R {
    let ns = numbers(interp, args, "avg-by")?;
    if ns.is_empty() {
        return Ok(Value::Nil);
    }
    Ok(Value::Float(ns.iter().map(|n| n.f()).sum::<f64>() / ns.len() as f64))
}

fn extreme_by(interp: &mut Interp, args: &[Value], who: &str, want: Ordering) -> R {
    let mut best: Option<(Value, Value)> = None;
    for x in items(&args[1], who)?.iter() {
        let k = key_of(interp, &args[0], x)?;
        if matches!(k, Value::Nil) {
            continue;
        }
        let better = match &best {
            None => true,
            Some((bk, _)) => compare_values(&k, bk)? == want,
        };
        if better {
            best = Some((k, x.clone()));
        }
    }
    Ok(best.map(|(_, x)| x).unwrap_or(Value::Nil))
}

fn min_by(interp: &mut Interp, args: &mut [Value]) -> R {
    extreme_by(interp, args, "min-by", Ordering::Less)
}

fn max_by(interp: &mut Interp, args: &mut [Value]) -> R {
    extreme_by(interp, args, "max-by", Ordering::Greater)
}

const OPS: &str = "= not= > < >= <= includes in";

fn op_name(op: &Value) -> Option<String> {
    match op {
        Value::Keyword(k) | Value::Str(k) => Some(k.to_string()),
        Value::Fn(f) => f.desc.name.as_deref().map(str::to_string),
        _ => None,
    }
}

/// `(where :field op value)` or `(where :field value)` (equality): a predicate.
fn where_fn(_: &mut Interp, args: &mut [Value]) -> R {
    let (field, op, value) = match args {
        [field, value] => (field.clone(), Value::keyword("="), value.clone()),
        [field, op, value] => (field.clone(), op.clone(), value.clone()),
        _ => unreachable!("arity checked"),
    };
    match op_name(&op).as_deref() {
        Some("=" | "not=" | ">" | "<" | ">=" | "<=" | "includes" | "in") => {}
        _ => {
            return Err(fail(
                ErrorKind::Type,
                format!("where: unknown operator {}; use one of {OPS}", crate::eval::preview(&op)),
            ))
        }
    }
    Ok(native("where", NativeKind::Where, vec![field, op, value]))
}

/// Runs a `where` predicate on its one argument.
pub(crate) fn where_test(interp: &mut Interp, vals: &[Value], args: Vec<Value>) -> R {
    let [x] = &args[..] else {
        return Err(fail(ErrorKind::Arity, "a where predicate takes exactly one argument"));
    };
    let v = key_of(interp, &vals[0], x)?;
    let want = &vals[2];
    let op = op_name(&vals[1]).unwrap_or_default();
    let ord = |interp: &mut Interp| -> Result<Option<Ordering>, crate::eval::Ctl> {
        let _ = interp;
        if matches!(v, Value::Nil) || matches!(want, Value::Nil) {
            return Ok(None);
        }
        compare_values(&v, want).map(Some)
    };
    Ok(Value::Bool(match op.as_str() {
        "=" => super::num::values_equal(&v, want),
        "not=" => !super::num::values_equal(&v, want),
        ">" => ord(interp)? == Some(Ordering::Greater),
        "<" => ord(interp)? == Some(Ordering::Less),
        ">=" => matches!(ord(interp)?, Some(Ordering::Greater | Ordering::Equal)),
        "<=" => matches!(ord(interp)?, Some(Ordering::Less | Ordering::Equal)),
        "includes" => match (&v, want) {
            (Value::Str(s), Value::Str(p)) => s.contains(&**p),
            (Value::Set(s), w) => s.contains(w),
            (Value::Vector(xs) | Value::List(xs), w) => xs.contains(w),
            _ => false,
        },
        "in" => match want {
            Value::Set(s) => s.contains(&v),
            Value::Vector(xs) | Value::List(xs) => xs.contains(&v),
            _ => false,
        },
        _ => false,
    }))
}
