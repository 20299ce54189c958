//! Sequence functions that call back into user functions: map, filter,
//! reduce and friends, plus the function combinators.

use super::xform::{self, Step};
use super::{b, is_fn, items, list, native::NativeKind, take, type_err, vector, Builtin, Native, VARIADIC};
use crate::eval::{Ctl, Interp, R};
use crate::value::{FnBody, FnDesc, Function, Map, Value};
use std::sync::Arc;

pub(crate) const BUILTINS: &[Builtin] = &[
    b("map", 1, VARIADIC, map),
    b("mapv", 2, VARIADIC, mapv),
    b("map-indexed", 1, 2, map_indexed),
    b("mapcat", 1, 2, mapcat),
    b("filter", 1, 2, filter),
    b("filterv", 2, 2, filterv),
    b("remove", 1, 2, remove),
    b("keep", 1, 2, keep),
    b("take-while", 1, 2, take_while),
    b("drop-while", 1, 2, drop_while),
    b("partition-by", 1, 2, partition_by),
    b("group-by", 2, 2, group_by),
    b("reduce", 2, 3, reduce),
    b("reduce-kv", 3, 3, reduce_kv),
    b("reduced", 1, 1, reduced),
    b("some", 2, 2, some),
    b("every?", 2, 2, every),
    b("not-any?", 2, 2, not_any),
    b("not-every?", 2, 2, not_every),
    b("apply", 2, VARIADIC, apply),
    b("juxt", 1, VARIADIC, juxt),
    b("comp", 0, VARIADIC, comp),
    b("partial", 1, VARIADIC, partial),
    b("identity", 1, 1, identity),
    b("constantly", 1, 1, constantly),
    b("complement", 1, 1, complement),
    b("fnil", 2, 4, fnil),
    b("min-key", 2, VARIADIC, min_key),
    b("max-key", 2, VARIADIC, max_key),
    b("keep-indexed", 1, 2, keep_indexed),
    b("split-with", 2, 2, split_with),
    b("tree-seq", 3, 3, tree_seq),
    b("every-pred", 1, VARIADIC, every_pred),
    b("some-fn", 1, VARIADIC, some_fn),
    b("reductions", 2, 3, reductions),
    b("memoize", 1, 1, memoize),
    b("trampoline", 1, VARIADIC, trampoline),
    b("doall", 1, 2, doall),
    b("dorun", 1, 2, dorun),
    b("run!", 2, 2, run),
];

/// `(doall coll)`, `(doall n coll)`: `coll`. Sequences are eager, so
/// there is nothing left to realize; kept for the Clojure idiom.
fn doall(_: &mut Interp, args: &mut [Value]) -> R {
    let last = args.len() - 1;
    Ok(take(args, last))
}

/// `(dorun coll)`, `(dorun n coll)`: `nil` (see `doall`).
fn dorun(_: &mut Interp, _: &mut [Value]) -> R {
    Ok(Value::Nil)
}

/// `(run! f coll)`: `f` on each item for its effects (prints, tool
/// calls), then `nil`.
fn run(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    for x in items(&args[1], "run!")?.iter() {
        interp.call_n(&f, [x.clone()])?;
    }
    Ok(Value::Nil)
}

/// `(reductions f coll)`, `(reductions f init coll)`: every intermediate
/// value of the `reduce`, starting with the initial one.
fn reductions(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    let (mut acc, rest) = match args.len() {
        2 => {
            let v = items(&args[1], "reductions")?;
            match v.first() {
                None => return Ok(list(vec![interp.apply(&f, vec![])?])),
                Some(first) => (first.clone(), v[1..].to_vec()),
            }
        }
        _ => (take(args, 1), items(&args[2], "reductions")?.into_owned()),
    };
    let mut out = Vec::with_capacity(rest.len() + 1);
    out.push(interp.nested(acc.clone())?);
    for x in rest {
        let ended;
        (acc, ended) = reduce_step(interp.call_n(&f, [acc, x]))?;
        out.push(interp.nested(acc.clone())?);
        interp.check_len(out.len())?;
        if ended {
            break;
        }
    }
    Ok(list(out))
}

/// `(memoize f)`: `f` with its results cached by argument list (for the
/// run, and between turns when the function is kept with `def`).
fn memoize(_: &mut Interp, args: &mut [Value]) -> R {
    check_fns("memoize", args)?;
    let desc = FnDesc { name: Some("memoize".into()), ..FnDesc::default() };
    let native = Native { kind: NativeKind::Memoize, vals: vec![take(args, 0)], memo: Some(Default::default()) };
    Ok(Value::Fn(Arc::new(Function { desc, body: Some(FnBody::Native(native)) })))
}

/// `(trampoline f args...)`: calls `f`, then calls what it returns with no
/// arguments for as long as that is a function (at most
/// `max_loop_iterations` bounces).
fn trampoline(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    let mut r = interp.apply(&f, args[1..].iter_mut().map(std::mem::take).collect())?;
    let mut bounces = 0u64;
    while is_fn(&r) {
        bounces += 1;
        if bounces > interp.limits.max_loop_iterations {
            return Err(crate::interp::loop_limit(interp.limits));
        }
        r = interp.apply(&r, Vec::new())?;
    }
    Ok(r)
}

fn keep_indexed(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::KeepIndexed, args);
    }
    let v = items(&args[1], "keep-indexed")?;
    let mut out = Vec::new();
    for (i, x) in v.iter().enumerate() {
        let r = interp.apply(&args[0], vec![Value::Int(i as i64), x.clone()])?;
        if !matches!(r, Value::Nil) {
            out.push(interp.nested(r)?);
        }
    }
    Ok(list(out))
}

fn split_with(interp: &mut Interp, args: &mut [Value]) -> R {
    let n = prefix_len(interp, args, "split-with")?;
    let v = items(&args[1], "split-with")?;
    Ok(vector(vec![list(v[..n].to_vec()), list(v[n..].to_vec())]))
}

/// Depth first, each node before its children, without recursion.
fn tree_seq(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Vec::new();
    let mut stack = vec![args[2].clone()];
    while let Some(node) = stack.pop() {
        if call1(interp, &args[0], node.clone())?.is_truthy() {
            let children = call1(interp, &args[1], node.clone())?;
            let children = items(&children, "tree-seq (children)")?;
            interp.check_len(out.len() + stack.len() + children.len())?;
            stack.extend(children.iter().rev().cloned());
        }
        out.push(node);
        interp.check_len(out.len())?;
    }
    Ok(list(out))
}

fn every_pred(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(native("every-pred", NativeKind::EveryPred, fns("every-pred", args)?))
}

fn some_fn(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(native("some-fn", NativeKind::SomeFn, fns("some-fn", args)?))
}

fn call1(interp: &mut Interp, f: &Value, x: Value) -> R {
    interp.call_n(f, [x])
}

fn map_values(interp: &mut Interp, args: &[Value], who: &str) -> Result<Vec<Value>, crate::eval::Ctl> {
    let f = &args[0];
    if let [_, coll] = args {
        let v = items(coll, who)?;
        let mut out = Vec::with_capacity(v.len());
        for x in v.iter() {
            let r = call1(interp, f, x.clone())?;
            out.push(interp.nested(r)?);
        }
        return Ok(out);
    }
    let colls: Vec<_> = args[1..].iter().map(|c| items(c, who)).collect::<Result<_, _>>()?;
    let n = colls.iter().map(|c| c.len()).min().unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let r = interp.apply(f, colls.iter().map(|c| c[i].clone()).collect())?;
        out.push(interp.nested(r)?);
    }
    Ok(out)
}

fn map(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::Map, args);
    }
    map_values(interp, args, "map").map(list)
}

fn mapv(interp: &mut Interp, args: &mut [Value]) -> R {
    map_values(interp, args, "mapv").map(vector)
}

fn map_indexed(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::MapIndexed, args);
    }
    let v = items(&args[1], "map-indexed")?;
    let mut out = Vec::with_capacity(v.len());
    for (i, x) in v.iter().enumerate() {
        let r = interp.apply(&args[0], vec![Value::Int(i as i64), x.clone()])?;
        out.push(interp.nested(r)?);
    }
    Ok(list(out))
}

fn mapcat(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::Mapcat, args);
    }
    let mut out = Vec::new();
    for r in map_values(interp, args, "mapcat")? {
        let v = items(&r, "mapcat (each result)")?;
        interp.check_len(out.len() + v.len())?;
        out.extend(v.iter().cloned());
    }
    Ok(list(out))
}

fn select(interp: &mut Interp, args: &[Value], who: &str, keep: bool) -> Result<Vec<Value>, crate::eval::Ctl> {
    let v = items(&args[1], who)?;
    let mut out = Vec::new();
    for x in v.iter() {
        if call1(interp, &args[0], x.clone())?.is_truthy() == keep {
            out.push(x.clone());
        }
    }
    Ok(out)
}

pub(crate) fn filter(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::Filter, args);
    }
    select(interp, args, "filter", true).map(list)
}

fn filterv(interp: &mut Interp, args: &mut [Value]) -> R {
    select(interp, args, "filterv", true).map(vector)
}

fn remove(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::Remove, args);
    }
    select(interp, args, "remove", false).map(list)
}

fn keep(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::Keep, args);
    }
    let v = items(&args[1], "keep")?;
    let mut out = Vec::new();
    for x in v.iter() {
        let r = call1(interp, &args[0], x.clone())?;
        if !matches!(r, Value::Nil) {
            out.push(interp.nested(r)?);
        }
    }
    Ok(list(out))
}

fn prefix_len(interp: &mut Interp, args: &[Value], who: &str) -> Result<usize, crate::eval::Ctl> {
    let v = items(&args[1], who)?;
    for (i, x) in v.iter().enumerate() {
        if !call1(interp, &args[0], x.clone())?.is_truthy() {
            return Ok(i);
        }
    }
    Ok(v.len())
}

fn take_while(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::TakeWhile, args);
    }
    let n = prefix_len(interp, args, "take-while")?;
    Ok(list(items(&args[1], "take-while")?[..n].to_vec()))
}

fn drop_while(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::DropWhile, args);
    }
    let n = prefix_len(interp, args, "drop-while")?;
    Ok(list(items(&args[1], "drop-while")?[n..].to_vec()))
}

fn partition_by(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() == 1 {
        return xform::make(Step::PartitionBy, args);
    }
    let v = items(&args[1], "partition-by")?;
    let mut out = Vec::new();
    let mut cur: Vec<Value> = Vec::new();
    let mut last_key = None;
    for x in v.iter() {
        let k = call1(interp, &args[0], x.clone())?;
        if last_key.as_ref().is_some_and(|l| *l != k) {
            out.push(list(std::mem::take(&mut cur)));
        }
        cur.push(x.clone());
        last_key = Some(k);
    }
    if !cur.is_empty() {
        out.push(list(cur));
    }
    Ok(list(out))
}

fn group_by(interp: &mut Interp, args: &mut [Value]) -> R {
    let v = items(&args[1], "group-by")?;
    let mut m = Map::new();
    for x in v.iter() {
        let k = call1(interp, &args[0], x.clone())?;
        interp.check_nesting(x)?;
        match m.get_mut(&k) {
            Some(Value::Vector(g)) => g.push(x.clone()),
            Some(_) => unreachable!("group-by only inserts vectors"),
            None => {
                m.insert(k, vector(vec![x.clone()]));
            }
        }
    }
    Ok(Value::Map(m))
}

/// `(reduced x)`: the reducing function's way to end its reduce at once,
/// with `x`. It leaves the function as a non-local exit (like `return`) and
/// the innermost reduce it leaves ends there: no `Reduced` value is ever
/// seen, so there is no `reduced?` (docs/spec/ptc-lisp.md, LISP-041).
fn reduced(_: &mut Interp, args: &mut [Value]) -> R {
    Err(Ctl::Reduced(take(args, 0)))
}

/// One call of a reducing function: the new accumulator, and whether the
/// function ended the reduce with it (`(reduced x)`).
pub(crate) fn reduce_step(r: R) -> Result<(Value, bool), Ctl> {
    match r {
        Ok(acc) => Ok((acc, false)),
        Err(Ctl::Reduced(x)) => Ok((x, true)),
        Err(other) => Err(other),
    }
}

fn reduce(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    let (mut acc, coll) = match args.len() {
        2 => {
            let coll = take(args, 1);
            let v = items(&coll, "reduce")?;
            match v.first() {
                None => return Ok(reduce_step(interp.apply(&f, vec![]))?.0),
                Some(first) => (first.clone(), list(v[1..].to_vec())),
            }
        }
        _ => (take(args, 1), take(args, 2)),
    };
    for x in items(&coll, "reduce")?.iter() {
        let ended;
        (acc, ended) = reduce_step(interp.call_n(&f, [acc, x.clone()]))?;
        if ended {
            break;
        }
    }
    Ok(acc)
}

fn reduce_kv(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    let mut acc = take(args, 1);
    let entries: Box<dyn Iterator<Item = (Value, Value)>> = match &args[2] {
        Value::Map(m) => Box::new(m.iter().map(|(k, v)| (k.clone(), v.clone()))),
        Value::Vector(v) => Box::new(v.iter().enumerate().map(|(i, x)| (Value::Int(i as i64), x.clone()))),
        Value::Nil => Box::new(std::iter::empty()),
        other => return Err(type_err("reduce-kv", "a map or vector", other)),
    };
    for (k, v) in entries {
        let ended;
        (acc, ended) = reduce_step(interp.apply(&f, vec![acc, k, v]))?;
        if ended {
            break;
        }
    }
    Ok(acc)
}

fn some(interp: &mut Interp, args: &mut [Value]) -> R {
    for x in items(&args[1], "some")?.iter() {
        let r = call1(interp, &args[0], x.clone())?;
        if r.is_truthy() {
            return Ok(r);
        }
    }
    Ok(Value::Nil)
}

fn all(interp: &mut Interp, args: &[Value], who: &str) -> Result<bool, crate::eval::Ctl> {
    for x in items(&args[1], who)?.iter() {
        if !call1(interp, &args[0], x.clone())?.is_truthy() {
            return Ok(false);
        }
    }
    Ok(true)
}

fn every(interp: &mut Interp, args: &mut [Value]) -> R {
    all(interp, args, "every?").map(Value::Bool)
}

fn not_every(interp: &mut Interp, args: &mut [Value]) -> R {
    all(interp, args, "not-every?").map(|b| Value::Bool(!b))
}

fn not_any(interp: &mut Interp, args: &mut [Value]) -> R {
    some(interp, args).map(|r| Value::Bool(!r.is_truthy()))
}

fn apply(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    let (last, middle) = args[1..].split_last_mut().expect("apply has at least 2 arguments");
    let mut argv: Vec<Value> = middle.iter_mut().map(std::mem::take).collect();
    argv.extend(items(last, "apply (last argument)")?.iter().cloned());
    interp.check_len(argv.len())?;
    interp.apply(&f, argv)
}

/// A function value made by a combinator.
pub(crate) fn native(name: &str, kind: NativeKind, vals: Vec<Value>) -> Value {
    let desc = FnDesc { name: Some(name.into()), ..FnDesc::default() };
    Value::Fn(Arc::new(Function { desc, body: Some(FnBody::Native(Native { kind, vals, memo: None })) }))
}

fn check_fns(who: &str, args: &[Value]) -> Result<(), crate::eval::Ctl> {
    for a in args {
        if !is_fn(a) && !matches!(a, Value::Keyword(_) | Value::Map(_) | Value::Set(_) | Value::Vector(_)) {
            return Err(type_err(who, "functions", a));
        }
    }
    Ok(())
}

fn fns(who: &str, args: &mut [Value]) -> Result<Vec<Value>, crate::eval::Ctl> {
    check_fns(who, args)?;
    Ok(args.iter_mut().map(std::mem::take).collect())
}

fn juxt(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(native("juxt", NativeKind::Juxt, fns("juxt", args)?))
}

fn comp(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(native("comp", NativeKind::Comp, fns("comp", args)?))
}

fn partial(_: &mut Interp, args: &mut [Value]) -> R {
    check_fns("partial", &args[..1])?;
    Ok(native("partial", NativeKind::Partial, args.iter_mut().map(std::mem::take).collect()))
}

fn identity(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(take(args, 0))
}

fn constantly(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(native("constantly", NativeKind::Constantly, vec![take(args, 0)]))
}

fn complement(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(native("complement", NativeKind::Complement, fns("complement", args)?))
}

fn fnil(_: &mut Interp, args: &mut [Value]) -> R {
    check_fns("fnil", &args[..1])?;
    Ok(native("fnil", NativeKind::Fnil, args.iter_mut().map(std::mem::take).collect()))
}

fn extreme_key(interp: &mut Interp, args: &mut [Value], who: &str, want: std::cmp::Ordering) -> R {
    let f = take(args, 0);
    let mut best: Option<(Value, Value)> = None;
    for x in args[1..].iter() {
        let k = interp.apply(&f, vec![x.clone()])?;
        super::num::Num::of(who, &k)?;
        let replace = match &best {
            None => true,
            Some((bk, _)) => super::sort::compare_values(&k, bk)? != want.reverse(),
        };
        if replace {
            best = Some((k, x.clone()));
        }
    }
    Ok(best.map(|(_, x)| x).unwrap_or(Value::Nil))
}

fn min_key(interp: &mut Interp, args: &mut [Value]) -> R {
    extreme_key(interp, args, "min-key", std::cmp::Ordering::Less)
}

fn max_key(interp: &mut Interp, args: &mut [Value]) -> R {
    extreme_key(interp, args, "max-key", std::cmp::Ordering::Greater)
}

#[cfg(test)]
mod tests {
    use crate::{run_program, ErrorKind, Exit, Limits, Memory, NoTools, Value};

    fn run(src: &str, memory: &Memory, limits: &Limits) -> crate::Outcome {
        run_program(src, memory, &Default::default(), &mut NoTools, limits)
    }

    #[test]
    fn memoize_calls_once_per_argument_list_and_keeps_its_cache_between_turns() {
        let src = "(def f (memoize (fn [x] (println \"computing\" x) (* x x)))) [(f 3) (f 3) (f 4)]";
        let out = run(src, &Memory::new(), &Limits::default());
        assert_eq!(out.prints, ["computing 3", "computing 4"]);
        let out = run("(f 3)", &out.memory, &Limits::default());
        assert!(out.prints.is_empty(), "{:?}", out.prints);
        assert_eq!(out.result, Ok(Exit::Value(Value::Int(9))));
    }

    #[test]
    fn memoize_caches_count_against_the_limits() {
        let limits = Limits { max_collection_size: 100, ..Limits::default() };
        let out = run("(let [f (memoize inc)] (doseq [i (range 50)] (f i)) (f 200))", &Memory::new(), &limits);
        assert_eq!(out.result, Ok(Exit::Value(Value::Int(201))));
        let out = run(
            "(let [f (memoize inc)] (doseq [i (range 60)] (f i)) (doseq [i (range 60 101)] (f i)))",
            &Memory::new(),
            &limits,
        );
        let e = out.result.unwrap_err();
        assert_eq!(e.kind, ErrorKind::SizeLimit);
        assert!(e.message.contains("memoize: the cache would hold more than 100 results"), "{e}");
        // A kept cache is part of the memory a namespace holds between turns.
        let limits = Limits { max_memory_bytes: 200_000, ..Limits::default() };
        let src = "(def f (memoize (fn [i] (str \"value number \" i)))) (doseq [i (range 5000)] (f i))";
        let e = run(src, &Memory::new(), &limits).result.unwrap_err();
        assert_eq!(e.kind, ErrorKind::MemoryLimit);
    }

    #[test]
    fn trampoline_bounces_within_the_loop_limit() {
        let limits = Limits { max_loop_iterations: 100, ..Limits::default() };
        let src = "(defn down [n] (if (pos? n) #(down (dec n)) n)) (trampoline down 100)";
        assert_eq!(run(src, &Memory::new(), &limits).result, Ok(Exit::Value(Value::Int(0))));
        let src = "(defn down [n] (if (pos? n) #(down (dec n)) n)) (trampoline down 101)";
        assert_eq!(run(src, &Memory::new(), &limits).result.unwrap_err().kind, ErrorKind::LoopLimit);
    }

    #[test]
    fn reductions_respect_the_size_limit() {
        let limits = Limits { max_collection_size: 10, ..Limits::default() };
        let e = run("(reductions + 0 (range 10))", &Memory::new(), &limits).result.unwrap_err();
        assert_eq!(e.kind, ErrorKind::SizeLimit);
    }
}
