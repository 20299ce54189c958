//! Collections: building, slicing and reshaping (no user callbacks here;
//! those live in `seq.rs`).

use super::xform::{self, Step as Xf};
use super::{b, entry, int_arg, items, list, proper_list, take, type_err, vector, Builtin, VARIADIC};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::value::{Map, Set, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("count", 1, 1, count),
    b("empty?", 1, 1, is_empty),
    b("not-empty", 1, 1, not_empty),
    b("empty", 1, 1, empty),
    b("seq", 1, 1, seq),
    b("first", 1, 1, first),
    b("second", 1, 1, second),
    b("last", 1, 1, last),
    b("peek", 1, 1, peek),
    b("pop", 1, 1, pop),
    b("nth", 2, 3, nth),
    b("rest", 1, 1, rest),
    b("next", 1, 1, next),
    b("take", 1, 2, take_n),
    b("drop", 1, 2, drop),
    b("take-last", 2, 2, take_last),
    b("drop-last", 1, 2, drop_last),
    b("butlast", 1, 1, butlast),
    b("cons", 2, 2, cons),
    b("conj", 0, VARIADIC, conj),
    b("concat", 0, VARIADIC, concat),
    b("into", 0, 3, into),
    b("vec", 1, 1, vec),
    b("vector", 0, VARIADIC, vector_fn),
    b("list", 0, VARIADIC, list_fn),
    b("set", 1, 1, set),
    b("hash-map", 0, VARIADIC, hash_map),
    b("hash-set", 0, VARIADIC, hash_set),
    b("reverse", 1, 1, reverse),
    b("distinct", 0, 1, distinct),
    b("dedupe", 0, 1, dedupe),
    b("flatten", 1, 1, flatten),
    b("partition", 2, 4, partition),
    b("partition-all", 1, 3, partition_all),
    b("interleave", 0, VARIADIC, interleave),
    b("interpose", 1, 2, interpose),
    b("range", 0, 3, range),
    b("repeat", 1, 2, repeat),
    b("frequencies", 1, 1, frequencies),
    b("zipmap", 2, 2, zipmap),
    b("find", 2, 2, find),
    b("contains?", 2, 2, contains),
    b("split-at", 2, 2, split_at),
    b("subvec", 2, 3, subvec),
    b("ffirst", 1, 1, |i, a| nested_first(i, a, |f| f.first())),
    b("fnext", 1, 1, second),
    b("nfirst", 1, 1, |i, a| nested_first(i, a, |f| f.next())),
    b("nnext", 1, 1, nnext),
    b("nthnext", 2, 2, nthnext),
    b("nthrest", 2, 2, nthrest),
    b("combinations", 2, 2, combinations),
    b("entries", 1, 1, entries),
    b("zip", 2, 2, zip),
    b("array-map", 0, VARIADIC, hash_map),
];

/// `(first x)` then `pick` on it: `ffirst` and `nfirst`.
fn nested_first(interp: &mut Interp, args: &mut [Value], pick: fn(Step) -> R) -> R {
    let mut one = [take(args, 0)];
    let f = first(interp, &mut one)?;
    pick(Step(f))
}

/// The value a nested accessor works on.
struct Step(Value);

impl Step {
    fn first(self) -> R {
        Ok(items(&self.0, "ffirst")?.first().cloned().unwrap_or(Value::Nil))
    }

    fn next(self) -> R {
        let v = items(&self.0, "nfirst")?;
        Ok(if v.len() <= 1 { Value::Nil } else { list(v[1..].to_vec()) })
    }
}

fn nnext(_: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[0], "nnext")?;
    Ok(if v.len() <= 2 { Value::Nil } else { list(v[2..].to_vec()) })
}

fn nthnext(_: &mut Interp, args: &mut [Value]) -> R {
    let n = count_arg("nthnext", &args[1])?;
    let v = items(&args[0], "nthnext")?;
    Ok(if n >= v.len() { Value::Nil } else { list(v[n..].to_vec()) })
}

fn nthrest(_: &mut Interp, args: &mut [Value]) -> R {
    if int_arg("nthrest", &args[1])? <= 0 {
        return Ok(take(args, 0));
    }
    let n = count_arg("nthrest", &args[1])?;
    let v = items(&args[0], "nthrest")?;
    Ok(list(v.get(n..).map(<[Value]>::to_vec).unwrap_or_default()))
}

fn split_at(_: &mut Interp, args: &mut [Value]) -> R {
    let n = count_arg("split-at", &args[0])?;
    let v = items(&args[1], "split-at")?;
    let n = n.min(v.len());
    Ok(vector(vec![list(v[..n].to_vec()), list(v[n..].to_vec())]))
}

fn subvec(_: &mut Interp, args: &mut [Value]) -> R {
    let Value::Vector(v) = &args[0] else { return Err(type_err("subvec", "a vector", &args[0])) };
    let start = int_arg("subvec", &args[1])?;
    let end = match args.get(2) {
        Some(e) => int_arg("subvec", e)?,
        None => v.len() as i64,
    };
    if start < 0 || end > v.len() as i64 || start > end {
        return Err(fail(
            ErrorKind::Other,
            format!("subvec: {start}..{end} is outside the vector (count {})", v.len()),
        ));
    }
    Ok(vector((start as usize..end as usize).filter_map(|i| v.get(i).cloned()).collect()))
}

fn combinations(interp: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[0], "combinations")?;
    let k = count_arg("combinations", &args[1])?;
    let mut out = Vec::new();
    if k <= v.len() {
        // Index vectors in lexicographic order.
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            out.push(vector(idx.iter().map(|&i| v[i].clone()).collect()));
            interp.check_len(out.len())?;
            interp.charge(k as u64 + 1)?;
            let Some(i) = (0..k).rev().find(|&i| idx[i] != i + v.len() - k) else { break };
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }
    Ok(vector(out))
}

fn entries(_: &mut Interp, args: &mut [Value]) -> R {
    match &args[0] {
        Value::Map(m) => Ok(vector(m.iter().map(|(k, v)| entry(k.clone(), v.clone())).collect())),
        Value::Nil => Ok(vector(vec![])),
        other => Err(type_err("entries", "a map", other)),
    }
}

fn zip(_: &mut Interp, args: &mut [Value]) -> R {
    let a = items(&args[0], "zip")?;
    let b = items(&args[1], "zip")?;
    Ok(vector(a.iter().zip(b.iter()).map(|(x, y)| vector(vec![x.clone(), y.clone()])).collect()))
}

fn count(_: &mut Interp, args: &mut [Value]) -> R {
    let n = match &args[0] {
        Value::Nil => 0,
        Value::Vector(v) | Value::List(v) => v.len(),
        Value::Set(s) => s.len(),
        Value::Map(m) => m.len(),
        Value::Str(s) => s.chars().count(),
        other => return Err(type_err("count", "a collection or string", other)),
    };
    Ok(Value::Int(n as i64))
}

fn len_of(who: &str, v: &Value) -> Result<usize, Ctl> {
    Ok(match v {
        Value::Nil => 0,
        Value::Vector(v) | Value::List(v) => v.len(),
        Value::Set(s) => s.len(),
        Value::Map(m) => m.len(),
        Value::Str(s) => s.len(),
        other => return Err(type_err(who, "a collection or string", other)),
    })
}

fn is_empty(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Bool(len_of("empty?", &args[0])? == 0))
}

fn not_empty(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(if len_of("not-empty", &args[0])? == 0 { Value::Nil } else { take(args, 0) })
}

fn empty(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match &args[0] {
        Value::Vector(_) => vector(vec![]),
        Value::List(_) => list(vec![]),
        Value::Set(_) => Value::Set(crate::value::Set::new()),
        Value::Map(_) => Value::Map(crate::value::Map::new()),
        _ => Value::Nil,
    })
}

fn seq(_: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[0], "seq")?;
    Ok(if v.is_empty() { Value::Nil } else { list(v.into_owned()) })
}

fn first(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match &args[0] {
        Value::Vector(v) | Value::List(v) => v.first().cloned().unwrap_or(Value::Nil),
        Value::Map(m) => m.first().map(|(k, v)| entry(k.clone(), v.clone())).unwrap_or(Value::Nil),
        Value::Set(s) => s.first().cloned().unwrap_or(Value::Nil),
        other => items(other, "first")?.first().cloned().unwrap_or(Value::Nil),
    })
}

fn second(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(items(&args[0], "second")?.get(1).cloned().unwrap_or(Value::Nil))
}

fn last(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(items(&args[0], "last")?.last().cloned().unwrap_or(Value::Nil))
}

fn peek(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match &args[0] {
        Value::Vector(v) => v.last().cloned().unwrap_or(Value::Nil),
        Value::List(v) => v.first().cloned().unwrap_or(Value::Nil),
        Value::Nil => Value::Nil,
        other => return Err(type_err("peek", "a vector or list", other)),
    })
}

fn pop(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match take(args, 0) {
        Value::Vector(mut v) if !v.is_empty() => {
            v.pop();
            Value::Vector(v)
        }
        Value::List(v) if !v.is_empty() => list(v.iter().skip(1).cloned().collect()),
        Value::Nil => Value::Nil,
        other => return Err(fail(ErrorKind::Other, format!("can't pop {}", crate::eval::preview(&other)))),
    })
}

fn nth(_: &mut Interp, args: &mut [Value]) -> R {
    let i = int_arg("nth", &args[1])?;
    let v = items(&args[0], "nth")?;
    match usize::try_from(i).ok().and_then(|i| v.get(i)) {
        Some(x) => Ok(x.clone()),
        None if args.len() == 3 => Ok(take(args, 2)),
        None if matches!(args[0], Value::Nil) => Ok(Value::Nil),
        None => Err(fail(
            ErrorKind::Other,
            format!(
                "index {i} out of bounds (count {}); (nth coll i default) or (get coll i) give a default instead",
                v.len()
            ),
        )),
    }
}

fn rest(_: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[0], "rest")?;
    Ok(list(v.get(1..).map(<[Value]>::to_vec).unwrap_or_default()))
}

fn next(_: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[0], "next")?;
    Ok(if v.len() <= 1 { Value::Nil } else { list(v[1..].to_vec()) })
}

fn count_arg(who: &str, v: &Value) -> Result<usize, Ctl> {
    Ok(int_arg(who, v)?.max(0) as usize)
}

fn take_n(_: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Xf::Take, args);
    }
    let n = count_arg("take", &args[0])?;
    let v = items(&args[1], "take")?;
    Ok(list(v[..n.min(v.len())].to_vec()))
}

fn drop(_: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Xf::Drop, args);
    }
    let n = count_arg("drop", &args[0])?;
    let v = items(&args[1], "drop")?;
    Ok(list(v[n.min(v.len())..].to_vec()))
}

fn take_last(_: &mut Interp, args: &mut [Value]) -> R {
    let n = count_arg("take-last", &args[0])?;
    let v = items(&args[1], "take-last")?;
    let start = v.len().saturating_sub(n);
    Ok(if start == v.len() { Value::Nil } else { list(v[start..].to_vec()) })
}

fn drop_last(_: &mut Interp, args: &mut [Value]) -> R {
    let (n, coll) = match args {
        [coll] => (1, &*coll),
        [n, coll] => (count_arg("drop-last", n)?, &*coll),
        _ => unreachable!("arity checked"),
    };
    let v = items(coll, "drop-last")?;
    Ok(list(v[..v.len().saturating_sub(n)].to_vec()))
}

fn butlast(_: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[0], "butlast")?;
    Ok(if v.len() <= 1 { Value::Nil } else { list(v[..v.len() - 1].to_vec()) })
}

fn cons(interp: &mut Interp, args: &mut [Value]) -> R {
    interp.check_nesting(&args[0])?;
    let v = items(&args[1], "cons")?;
    interp.check_len(v.len() + 1)?;
    let mut out = Vec::with_capacity(v.len() + 1);
    out.push(args[0].clone());
    out.extend(v.iter().cloned());
    Ok(list(out))
}

/// Adds one element the way `conj` does for the collection's type.
pub(crate) fn conj_one(interp: &Interp, coll: Value, x: Value) -> R {
    interp.check_nesting(&x)?;
    Ok(match coll {
        Value::Vector(mut v) => {
            interp.check_len(v.len() + 1)?;
            v.push(x);
            Value::Vector(v)
        }
        Value::List(v) => {
            interp.check_len(v.len() + 1)?;
            // Lists grow at the front: a copy, as before (lists are built in bulk).
            let mut items = Vec::with_capacity(v.len() + 1);
            items.push(x);
            items.extend(v.iter().cloned());
            // `conj` onto a list gives a list; onto a sequence, a sequence.
            if v.is_list() {
                proper_list(items)
            } else {
                list(items)
            }
        }
        Value::Nil => proper_list(vec![x]),
        Value::Set(mut s) => {
            interp.check_len(s.len() + 1)?;
            s.insert(x);
            Value::Set(s)
        }
        Value::Map(mut m) => {
            match x {
                Value::Vector(kv) if kv.len() == 2 => {
                    m.insert(kv[0].clone(), kv[1].clone());
                }
                Value::Map(other) => {
                    for (k, v) in other.iter() {
                        m.insert(k.clone(), v.clone());
                    }
                }
                Value::Nil => {}
                other => return Err(type_err("conj onto a map", "a [key value] vector or a map", &other)),
            }
            interp.check_len(m.len())?;
            Value::Map(m)
        }
        other => return Err(type_err("conj", "a collection", &other)),
    })
}

fn conj(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.is_empty() {
        return Ok(vector(vec![]));
    }
    let mut acc = take(args, 0);
    for x in args[1..].iter_mut() {
        acc = conj_one(interp, acc, std::mem::take(x))?;
    }
    Ok(acc)
}

fn concat(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Vec::new();
    for a in args.iter() {
        let v = items(a, "concat")?;
        interp.check_len(out.len() + v.len())?;
        interp.charge(v.len() as u64)?;
        out.extend(v.iter().cloned());
    }
    Ok(list(out))
}

fn into(interp: &mut Interp, args: &mut [Value]) -> R {
    match args.len() {
        0 => return Ok(vector(vec![])),
        1 => return Ok(take(args, 0)),
        3 => return xform::into_with(interp, take(args, 0), &args[1], &args[2]),
        _ => {}
    }
    let from = take(args, 1);
    let mut acc = take(args, 0);
    let src = items(&from, "into")?;
    interp.charge(src.len() as u64)?;
    match &mut acc {
        Value::Vector(v) => {
            interp.check_len(v.len() + src.len())?;
            v.extend(src.iter().cloned());
        }
        _ => {
            for x in src.iter() {
                acc = conj_one(interp, acc, x.clone())?;
            }
        }
    }
    Ok(acc)
}

fn vec(_: &mut Interp, args: &mut [Value]) -> R {
    match take(args, 0) {
        v @ Value::Vector(_) => Ok(v),
        Value::List(items) => Ok(Value::Vector(items)),
        other => Ok(vector(items(&other, "vec")?.into_owned())),
    }
}

fn check_all(interp: &Interp, args: &[Value]) -> Result<(), Ctl> {
    args.iter().try_for_each(|a| interp.check_nesting(a))
}

fn vector_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    check_all(interp, args)?;
    Ok(vector(args.iter_mut().map(std::mem::take).collect()))
}

fn list_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    check_all(interp, args)?;
    Ok(proper_list(args.iter_mut().map(std::mem::take).collect()))
}

fn set(_: &mut Interp, args: &mut [Value]) -> R {
    match take(args, 0) {
        s @ Value::Set(_) => Ok(s),
        other => Ok(Value::Set(items(&other, "set")?.iter().cloned().collect())),
    }
}

fn hash_map(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() % 2 != 0 {
        return Err(fail(ErrorKind::Arity, "hash-map needs key/value pairs (an even number of arguments)"));
    }
    check_all(interp, args)?;
    Ok(Value::Map(args.chunks(2).map(|p| (p[0].clone(), p[1].clone())).collect()))
}

fn hash_set(interp: &mut Interp, args: &mut [Value]) -> R {
    check_all(interp, args)?;
    Ok(Value::Set(args.iter().cloned().collect()))
}

fn reverse(_: &mut Interp, args: &mut [Value]) -> R {
    let mut v = items(&args[0], "reverse")?.into_owned();
    v.reverse();
    Ok(proper_list(v))
}

fn distinct(_: &mut Interp, args: &mut [Value]) -> R {
    if args.is_empty() {
        return xform::make(Xf::Distinct, args);
    }
    let v = items(&args[0], "distinct")?;
    let set: Set = v.iter().cloned().collect();
    Ok(list(set.iter().cloned().collect()))
}

fn dedupe(_: &mut Interp, args: &mut [Value]) -> R {
    if args.is_empty() {
        return xform::make(Xf::Dedupe, args);
    }
    let mut v = items(&args[0], "dedupe")?.into_owned();
    v.dedup();
    Ok(list(v))
}

fn flatten(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Vec::new();
    let mut stack: Vec<(&crate::value::Vector, usize)> = Vec::new();
    if let Value::Vector(v) | Value::List(v) = &args[0] {
        stack.push((v, 0));
    }
    while let Some((seq, i)) = stack.pop() {
        let Some(x) = seq.get(i) else { continue };
        // A step per element visited: shared structure (`[x x]`) can hold
        // billions of nested collections and not one element to keep.
        interp.charge(1)?;
        stack.push((seq, i + 1));
        match x {
            Value::Vector(v) | Value::List(v) => stack.push((v, 0)),
            other => {
                out.push(other.clone());
                interp.check_len(out.len())?;
            }
        }
    }
    Ok(list(out))
}

/// `(partition n step? pad? coll)` / `partition-all`: chunks of `n`, every `step`.
fn chunks(interp: &mut Interp, who: &str, args: &[Value], keep_partial: bool) -> R {
    let n = count_arg(who, &args[0])?;
    let (step, pad, coll) = match args.len() {
        2 => (n, None, &args[1]),
        3 => (count_arg(who, &args[1])?, None, &args[2]),
        _ => (count_arg(who, &args[1])?, Some(&args[2]), &args[3]),
    };
    if n == 0 || step == 0 {
        return Err(fail(ErrorKind::Other, format!("{who} needs a positive size and step")));
    }
    interp.check_nesting(coll)?;
    let v = items(coll, who)?;
    let mut out = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let end = (i + n).min(v.len());
        let mut chunk = v[i..end].to_vec();
        if chunk.len() < n {
            match pad {
                Some(p) => {
                    chunk.extend(items(p, who)?.iter().take(n - chunk.len()).cloned());
                    out.push(list(chunk));
                    break;
                }
                None if keep_partial => out.push(list(chunk)),
                None => break,
            }
            i += step;
            continue;
        }
        out.push(list(chunk));
        i += step;
    }
    Ok(list(out))
}

fn partition(interp: &mut Interp, args: &mut [Value]) -> R {
    chunks(interp, "partition", args, false)
}

fn partition_all(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Xf::PartitionAll, args);
    }
    chunks(interp, "partition-all", args, true)
}

fn interleave(_: &mut Interp, args: &mut [Value]) -> R {
    let colls: Vec<_> = args.iter().map(|a| items(a, "interleave")).collect::<Result<_, _>>()?;
    let n = colls.iter().map(|c| c.len()).min().unwrap_or(0);
    let mut out = Vec::with_capacity(n * colls.len());
    for i in 0..n {
        out.extend(colls.iter().map(|c| c[i].clone()));
    }
    Ok(list(out))
}

fn interpose(_: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Xf::Interpose, args);
    }
    let v = items(&args[1], "interpose")?;
    let mut out = Vec::with_capacity(v.len() * 2);
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push(args[0].clone());
        }
        out.push(x.clone());
    }
    Ok(list(out))
}

fn range(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.is_empty() {
        return Err(fail(ErrorKind::SizeLimit, "(range) without an end is infinite; use (range n)"));
    }
    if args.iter().all(|a| matches!(a, Value::Int(_))) {
        let n = |i: usize| if let Value::Int(x) = args[i] { x } else { 0 };
        let (start, end, step) = match args.len() {
            1 => (0, n(0), 1),
            2 => (n(0), n(1), 1),
            _ => (n(0), n(1), n(2)),
        };
        if step == 0 {
            return Err(fail(ErrorKind::SizeLimit, "(range start end 0) is infinite"));
        }
        let len = if (step > 0 && end > start) || (step < 0 && end < start) {
            ((end as i128 - start as i128).unsigned_abs().div_ceil(step.unsigned_abs() as u128)) as usize
        } else {
            0
        };
        interp.check_len(len)?;
        interp.charge(len as u64)?;
        return Ok(list((0..len as i64).map(|i| Value::Int(start + i * step)).collect()));
    }
    // Like Clojure: the first element keeps the start's type, the rest come
    // from repeated addition (so float rounding matches too).
    let f = |v: &Value| super::num::Num::of("range", v);
    let (start, end, step) = match args.len() {
        1 => (super::num::Num::I(0), f(&args[0])?.f(), 1.0),
        2 => (f(&args[0])?, f(&args[1])?.f(), 1.0),
        _ => (f(&args[0])?, f(&args[1])?.f(), f(&args[2])?.f()),
    };
    if step == 0.0 || step.is_nan() {
        return Err(fail(ErrorKind::SizeLimit, "(range start end 0) is infinite"));
    }
    let mut out = Vec::new();
    let mut x = start.f();
    let mut first = true;
    while (step > 0.0 && x < end) || (step < 0.0 && x > end) {
        out.push(if first { start.value() } else { Value::Float(x) });
        first = false;
        interp.check_len(out.len())?;
        interp.charge(1)?;
        x += step;
    }
    Ok(list(out))
}

fn repeat(interp: &mut Interp, args: &mut [Value]) -> R {
    let [n, x] = args else {
        return Err(fail(ErrorKind::SizeLimit, "(repeat x) is infinite; use (repeat n x)"));
    };
    let n = count_arg("repeat", n)?;
    interp.check_len(n)?;
    interp.check_nesting(x)?;
    interp.charge(n as u64)?;
    Ok(list(vec![x.clone(); n]))
}

fn frequencies(_: &mut Interp, args: &mut [Value]) -> R {
    let mut m = Map::new();
    for x in items(&args[0], "frequencies")?.iter() {
        match m.get_mut(x) {
            Some(Value::Int(n)) => *n += 1,
            _ => {
                m.insert(x.clone(), Value::Int(1));
            }
        }
    }
    Ok(Value::Map(m))
}

fn zipmap(_: &mut Interp, args: &mut [Value]) -> R {
    let ks = items(&args[0], "zipmap")?;
    let vs = items(&args[1], "zipmap")?;
    Ok(Value::Map(ks.iter().cloned().zip(vs.iter().cloned()).collect()))
}

fn find(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match &args[0] {
        Value::Map(m) => m.get_key_value(&args[1]).map(|(k, v)| entry(k.clone(), v.clone())).unwrap_or(Value::Nil),
        Value::Vector(v) => match &args[1] {
            Value::Int(i) => usize::try_from(*i)
                .ok()
                .and_then(|i| v.get(i).map(|x| entry(Value::Int(i as i64), x.clone())))
                .unwrap_or(Value::Nil),
            _ => Value::Nil,
        },
        Value::Nil => Value::Nil,
        other => return Err(type_err("find", "a map", other)),
    })
}

fn contains(_: &mut Interp, args: &mut [Value]) -> R {
    let k = &args[1];
    Ok(Value::Bool(match &args[0] {
        Value::Map(m) => m.contains_key(k),
        Value::Set(s) => s.contains(k),
        Value::Vector(v) => matches!(k, Value::Int(i) if *i >= 0 && (*i as usize) < v.len()),
        Value::Str(s) => matches!(k, Value::Int(i) if *i >= 0 && (*i as usize) < s.chars().count()),
        Value::Nil => false,
        other => {
            return Err(type_err(
                "contains? (which checks keys/indices; use some or includes? for values)",
                "a map, set or vector",
                other,
            ))
        }
    }))
}
