//! `pmap` and `pcalls` (the engine is in `crate::parallel`).

use super::{b, items, list, type_err, Builtin, VARIADIC};
use crate::eval::{Interp, R};
use crate::value::Value;

pub(crate) const BUILTINS: &[Builtin] = &[b("pmap", 2, VARIADIC, pmap), b("pcalls", 0, VARIADIC, pcalls)];

/// `(pmap f coll ...)`: `map`, with the calls running at the same time.
fn pmap(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = args[0].clone();
    let colls: Vec<_> = args[1..].iter().map(|c| items(c, "pmap")).collect::<Result<_, _>>()?;
    let n = colls.iter().map(|c| c.len()).min().unwrap_or(0);
    let calls = (0..n).map(|i| (f.clone(), colls.iter().map(|c| c[i].clone()).collect())).collect();
    interp.run_parallel("pmap", calls).map(list)
}

/// `(pcalls f ...)`: calls each function of no arguments at the same time.
fn pcalls(interp: &mut Interp, args: &mut [Value]) -> R {
    for f in args.iter() {
        if !super::is_fn(f) {
            return Err(type_err("pcalls", "functions of no arguments", f));
        }
    }
    let calls = args.iter().map(|f| (f.clone(), Vec::new())).collect();
    interp.run_parallel("pcalls", calls).map(list)
}
