//! Functions made at run time by combinators (`partial`, `comp`, `juxt`,
//! `complement`, `constantly`, `fnil`) and by `where`.

use super::{ptc, vector};
use crate::eval::{Interp, R};
use crate::value::Value;

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
}

/// A native function: its kind and captured values.
pub(crate) struct Native {
    pub kind: NativeKind,
    pub vals: Vec<Value>,
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
        NativeKind::Where => ptc::where_test(interp, &n.vals, args),
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
    }
}
