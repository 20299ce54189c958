//! PTC helpers with no Clojure equivalent: `pluck`, `sum-by`, `avg-by`,
//! `min-by`, `max-by` and `where`.
//!
//! A "key" may be a keyword, a string key, a vector path or a function.

use super::{
    b, items, list, native::key_of, native::op_name, native::NativeKind, num::Num, seq::native, sort::compare_values,
    Builtin,
};
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
