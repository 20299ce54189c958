//! Ordering: natural comparison of values and a stable merge sort that
//! accepts fallible (user) comparators without ever panicking.

use super::{b, items, list, Builtin};
use crate::error::ErrorKind;
use crate::eval::{fail, preview, Ctl, Interp, R};
use crate::value::{Compared, Value};
use std::cmp::Ordering;

pub(crate) const BUILTINS: &[Builtin] = &[b("sort", 1, 2, sort), b("sort-by", 2, 3, sort_by)];

/// Clojure's `compare`: numbers with numbers, strings, keywords, booleans,
/// vectors (shorter first, then element-wise); nil sorts first.
pub(crate) fn compare_values(a: &Value, b: &Value) -> Result<Ordering, Ctl> {
    compare_in(a, b, &mut Compared::default())
}

/// `compare` remembering equal vector pairs, so shared structure costs what
/// its distinct vectors cost (see [`Compared`]).
fn compare_in(a: &Value, b: &Value, seen: &mut Compared) -> Result<Ordering, Ctl> {
    use Value::*;
    Ok(match (a, b) {
        (Nil, Nil) => Ordering::Equal,
        (Nil, _) => Ordering::Less,
        (_, Nil) => Ordering::Greater,
        (Int(x), Int(y)) => x.cmp(y),
        (Int(_) | Float(_), Int(_) | Float(_)) => {
            let f = |v: &Value| match v {
                Int(i) => *i as f64,
                Float(x) => *x,
                _ => 0.0,
            };
            f(a).partial_cmp(&f(b)).unwrap_or(Ordering::Equal)
        }
        (Str(x), Str(y)) | (Keyword(x), Keyword(y)) => java_compare(x, y).cmp(&0),
        (Bool(x), Bool(y)) => x.cmp(y),
        (Vector(x), Vector(y)) if crate::value::Vector::ptr_eq(x, y) => Ordering::Equal,
        (Vector(x), Vector(y)) => match x.len().cmp(&y.len()) {
            Ordering::Equal => {
                let key = (x.addr(), y.addr());
                if seen.known(key) {
                    return Ok(Ordering::Equal);
                }
                for (p, q) in x.iter().zip(y.iter()) {
                    let o = compare_in(p, q, seen)?;
                    if o != Ordering::Equal {
                        return Ok(o);
                    }
                }
                seen.remember(key, true);
                Ordering::Equal
            }
            o => o,
        },
        _ => return Err(fail(ErrorKind::Type, format!("cannot compare {} with {}", preview(a), preview(b)))),
    })
}

/// Stable bottom-up merge sort with a comparator that may fail.
pub(crate) fn merge_sort(
    v: Vec<Value>,
    cmp: &mut dyn FnMut(&Value, &Value) -> Result<Ordering, Ctl>,
) -> Result<Vec<Value>, Ctl> {
    let n = v.len();
    let mut src = v;
    let mut width = 1;
    while width < n {
        let mut dst = Vec::with_capacity(n);
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            while i < mid && j < end {
                if cmp(&src[j], &src[i])? == Ordering::Less {
                    dst.push(std::mem::take(&mut src[j]));
                    j += 1;
                } else {
                    dst.push(std::mem::take(&mut src[i]));
                    i += 1;
                }
            }
            dst.extend(src[i..mid].iter_mut().map(std::mem::take));
            dst.extend(src[j..end].iter_mut().map(std::mem::take));
            start = end;
        }
        src = dst;
        width *= 2;
    }
    Ok(src)
}

/// Turns a user comparator (returning a number or a boolean) into an ordering.
pub(crate) fn user_order(interp: &mut Interp, f: &Value, a: &Value, b: &Value) -> Result<Ordering, Ctl> {
    match interp.apply(f, vec![a.clone(), b.clone()])? {
        Value::Int(i) => Ok(i.cmp(&0)),
        Value::Float(x) => Ok(x.partial_cmp(&0.0).unwrap_or(Ordering::Equal)),
        Value::Bool(true) => Ok(Ordering::Less),
        Value::Bool(false) | Value::Nil => {
            if interp.apply(f, vec![b.clone(), a.clone()])?.is_truthy() {
                Ok(Ordering::Greater)
            } else {
                Ok(Ordering::Equal)
            }
        }
        other => {
            Err(fail(ErrorKind::Type, format!("comparator returned {}, expected a number or boolean", preview(&other))))
        }
    }
}

fn sort(interp: &mut Interp, args: &mut [Value]) -> R {
    let (cmp, coll) = match args {
        [coll] => (None, coll),
        [cmp, coll] => (Some(cmp.clone()), coll),
        _ => unreachable!("arity checked"),
    };
    let v = items(coll, "sort")?.into_owned();
    interp.charge(v.len() as u64)?;
    let sorted = match cmp {
        None => merge_sort(v, &mut |a, b| compare_values(a, b))?,
        Some(f) => merge_sort(v, &mut |a, b| user_order(interp, &f, a, b))?,
    };
    Ok(list(sorted))
}

fn sort_by(interp: &mut Interp, args: &mut [Value]) -> R {
    let (keyf, cmp, coll) = match args {
        [k, coll] => (k.clone(), None, coll),
        [k, cmp, coll] => (k.clone(), Some(cmp.clone()), coll),
        _ => unreachable!("arity checked"),
    };
    let v = items(coll, "sort-by")?.into_owned();
    interp.charge(v.len() as u64)?;
    let mut keyed = Vec::with_capacity(v.len());
    for x in v {
        let k = interp.apply(&keyf, vec![x.clone()])?;
        keyed.push(super::vector(vec![k, x]));
    }
    let key = |p: &Value| match p {
        Value::Vector(kv) => kv[0].clone(),
        _ => Value::Nil,
    };
    let sorted = match cmp {
        None => merge_sort(keyed, &mut |a, b| compare_values(&key(a), &key(b)))?,
        Some(f) => merge_sort(keyed, &mut |a, b| user_order(interp, &f, &key(a), &key(b)))?,
    };
    Ok(list(
        sorted
            .into_iter()
            .map(|p| match p {
                Value::Vector(kv) => kv[1].clone(),
                other => other,
            })
            .collect(),
    ))
}

/// `String.compareTo`: difference of the first differing UTF-16 units, else of the lengths.
pub(crate) fn java_compare(a: &str, b: &str) -> i64 {
    let mut x = a.encode_utf16();
    let mut y = b.encode_utf16();
    loop {
        match (x.next(), y.next()) {
            (Some(p), Some(q)) if p != q => return p as i64 - q as i64,
            (Some(_), Some(_)) => {}
            (None, None) => return 0,
            _ => return a.encode_utf16().count() as i64 - b.encode_utf16().count() as i64,
        }
    }
}
