//! Functions made at run time by combinators (`partial`, `comp`, `juxt`,
//! `complement`, `constantly`, `fnil`, `memoize`, `completing`), by
//! `where`, and the core transducers (`(map f)`, ...).

use super::{map::lookup, sort::compare_values, vector, xform::Step};
use crate::error::ErrorKind;
use crate::eval::{fail, Interp, R};
use crate::value::{Map, Value};
use std::cmp::Ordering;
use std::sync::Mutex;

/// What a native function does with its captured values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NativeKind {
    /// vals = [f, args...]
    Partial,
    /// vals = fns, applied right to left
    Comp,
    /// vals = fns; returns a vector of each result
    Juxt,
    /// vals = [f]
    Complement,
    /// vals = [x]
    Constantly,
    /// vals = [f, defaults...]
    Fnil,
    /// vals = [field, op, value]
    Where,
    /// vals = predicates; true when all hold for all arguments
    EveryPred,
    /// vals = predicates; the first truthy result over all arguments
    SomeFn,
    /// vals = [f]; results cached in `memo` by argument vector
    Memoize,
    /// vals = [f, cf]: `f` with two arguments, `cf` (or identity) with one
    Completing,
    /// A core transducer, `(map f)`, `(take n)`, ...: vals = its arguments.
    /// Only `into`, `transduce`, `sequence` and `eduction` run it.
    Xform(Step),
    /// vals = [name]: calls `tool/name` (a bare tool name under `namespace_fallback`)
    Tool,
}

/// A native function: its kind and captured values.
pub(crate) struct Native {
    pub kind: NativeKind,
    pub vals: Vec<Value>,
    /// `memoize`'s cache: argument vector to result (at most
    /// `max_collection_size` entries; counted by the namespace's memory
    /// estimate when the function is kept).
    pub memo: Option<Mutex<Map>>,
}

impl Native {
    /// The cached results of a memoized function (empty for others).
    pub(crate) fn memo_entries(&self) -> Option<Map> {
        self.memo.as_ref().map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }

    /// Takes the cache out (for dropping without recursion): keys and values.
    pub(crate) fn take_memo(&mut self) -> Vec<Value> {
        let Some(m) = self.memo.as_mut() else { return Vec::new() };
        let m = std::mem::take(m.get_mut().unwrap_or_else(|e| e.into_inner()));
        m.iter().flat_map(|(k, v)| [k.clone(), v.clone()]).collect()
    }
}

pub(crate) fn call_native(interp: &mut Interp, n: &Native, mut args: Vec<Value>) -> R {
    match n.kind {
        NativeKind::Partial => {
            let mut argv = n.vals[1..].to_vec();
            argv.append(&mut args);
            interp.apply(&n.vals[0], argv)
        }
        NativeKind::Comp => {
            let Some((last, init)) = n.vals.split_last() else {
                return Ok(args.into_iter().next().unwrap_or(Value::Nil));
            };
            let mut v = interp.apply(last, args)?;
            for f in init.iter().rev() {
                v = interp.apply(f, vec![v])?;
            }
            Ok(v)
        }
        NativeKind::Juxt => {
            let mut out = Vec::with_capacity(n.vals.len());
            for f in &n.vals {
                let r = interp.apply(f, args.clone())?;
                out.push(interp.nested(r)?);
            }
            Ok(vector(out))
        }
        NativeKind::Complement => Ok(Value::Bool(!interp.apply(&n.vals[0], args)?.is_truthy())),
        NativeKind::Constantly => Ok(n.vals[0].clone()),
        NativeKind::Fnil => {
            for (a, d) in args.iter_mut().zip(&n.vals[1..]) {
                if matches!(a, Value::Nil) {
                    *a = d.clone();
                }
            }
            interp.apply(&n.vals[0], args)
        }
        NativeKind::Where => where_test(interp, &n.vals, args),
        NativeKind::EveryPred => {
            for p in &n.vals {
                for a in &args {
                    if !interp.apply(p, vec![a.clone()])?.is_truthy() {
                        return Ok(Value::Bool(false));
                    }
                }
            }
            Ok(Value::Bool(true))
        }
        NativeKind::SomeFn => {
            // Like `or` over every (p x): the first truthy result, else the last one.
            let mut last = Value::Nil;
            for p in &n.vals {
                for a in &args {
                    last = interp.apply(p, vec![a.clone()])?;
                    if last.is_truthy() {
                        return Ok(last);
                    }
                }
            }
            Ok(last)
        }
        NativeKind::Memoize => memoized(interp, n, args),
        NativeKind::Tool => match &n.vals[0] {
            Value::Str(name) => interp.call_tool(name, args),
            _ => unreachable!("a tool function holds its name"),
        },
        NativeKind::Completing => match args.len() {
            1 => match n.vals.get(1) {
                Some(cf) => interp.apply(cf, args),
                None => Ok(args.into_iter().next().unwrap_or(Value::Nil)),
            },
            _ => interp.apply(&n.vals[0], args),
        },
        NativeKind::Xform(step) => Err(fail(
            ErrorKind::Other,
            format!(
                "({} ...) with no collection is a transducer: use it with into, transduce, sequence or eduction (calling it on a reducing function is not supported)",
                step.name()
            ),
        )),
    }
}

/// A call of a memoized function: the cached result for these arguments,
/// or the function's result, cached.
fn memoized(interp: &mut Interp, n: &Native, args: Vec<Value>) -> R {
    let memo = n.memo.as_ref().expect("memoized functions have a cache");
    let key = vector(args);
    if let Some(v) = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(v.clone());
    }
    let Value::Vector(argv) = &key else { unreachable!("built as a vector above") };
    let v = interp.apply(&n.vals[0], argv.to_vec())?;
    let mut cache = memo.lock().unwrap_or_else(|e| e.into_inner());
    interp.check_len(cache.len() + 1).map_err(|_| {
        fail(
            ErrorKind::SizeLimit,
            format!(
                "memoize: the cache would hold more than {} results; memoize a function of fewer distinct arguments",
                interp.limits.max_collection_size
            ),
        )
    })?;
    interp.charge(1)?;
    cache.insert(key, v.clone());
    Ok(v)
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

/// The value of `key` in `x`: a keyword/string key, a vector path or a function.
pub(crate) fn key_of(interp: &mut Interp, key: &Value, x: &Value) -> R {
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

/// The name of a `where` operator given as a keyword, a string or a core function.
pub(crate) fn op_name(op: &Value) -> Option<String> {
    match op {
        Value::Keyword(k) | Value::Str(k) => Some(k.to_string()),
        Value::Fn(f) => f.desc.name.as_deref().map(str::to_string),
        _ => None,
    }
}
