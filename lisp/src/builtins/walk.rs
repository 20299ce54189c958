//! `clojure.walk`: `walk`, `prewalk`, `postwalk`. Values nest at most
//! `MAX_VALUE_DEPTH` levels and every level is a counted call, so the
//! recursion is bounded by the depth limit like any user recursion.

use super::{b, entry, list, take, vector, Builtin};
use crate::eval::{Interp, R};
use crate::value::{Map, Set, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("walk", 3, 3, walk_fn),
    b("prewalk", 2, 2, prewalk_fn),
    b("postwalk", 2, 2, postwalk_fn),
    b("keywordize-keys", 1, 1, |interp, a| {
        rekey(interp, take(a, 0), &|k| match k {
            // A key no keyword can be written with stays a string, as in JSON.
            Value::Str(s) if crate::value::keyword_readable(s) => Value::Keyword(s.clone()),
            other => other.clone(),
        })
    }),
    b("stringify-keys", 1, 1, |interp, a| {
        rekey(interp, take(a, 0), &|k| match k {
            Value::Keyword(name) => Value::Str(name.clone()),
            other => other.clone(),
        })
    }),
];

/// `form` with `key` applied to the keys of every map in it, at any depth.
fn rekey(interp: &mut Interp, form: Value, key: &dyn Fn(&Value) -> Value) -> R {
    walk(interp, form, &mut |interp, child| rekey(interp, child, key), &mut |_, done| {
        Ok(match done {
            Value::Map(m) => {
                let mut out = Map::new();
                for (k, v) in m.iter() {
                    out.insert(key(k), v.clone());
                }
                Value::Map(out)
            }
            other => other,
        })
    })
}

/// One level: `inner` on each child (map entries as `[k v]`), the same kind
/// of collection rebuilt, then `outer` on it.
fn walk(
    interp: &mut Interp,
    form: Value,
    inner: &mut dyn FnMut(&mut Interp, Value) -> R,
    outer: &mut dyn FnMut(&mut Interp, Value) -> R,
) -> R {
    // A step per collection or element: shared structure (`[x x]`) can
    // unfold to billions of them, each rebuilt, with no function called.
    interp.charge(1)?;
    interp.enter()?;
    let rebuilt = (|| -> R {
        Ok(match &form {
            Value::List(items) => list(each(interp, items.iter(), inner)?),
            Value::Vector(items) => vector(each(interp, items.iter(), inner)?),
            Value::Set(items) => Value::Set(each(interp, items.iter(), inner)?.into_iter().collect::<Set>()),
            Value::Map(m) => {
                let mut out = Map::new();
                for (k, v) in m.iter() {
                    match inner(interp, entry(k.clone(), v.clone()))? {
                        Value::Vector(kv) if kv.len() == 2 => {
                            out.insert(kv[0].clone(), kv[1].clone());
                        }
                        Value::Nil => {}
                        other => {
                            return Err(super::type_err("walk (a map entry's result)", "a [key value] vector", &other))
                        }
                    }
                }
                Value::Map(out)
            }
            _ => form.clone(),
        })
    })();
    interp.depth -= 1;
    outer(interp, rebuilt?)
}

fn each<'v>(
    interp: &mut Interp,
    items: impl Iterator<Item = &'v Value>,
    f: &mut dyn FnMut(&mut Interp, Value) -> R,
) -> Result<Vec<Value>, crate::eval::Ctl> {
    let mut out = Vec::new();
    for x in items {
        let r = f(interp, x.clone())?;
        out.push(interp.nested(r)?);
    }
    Ok(out)
}

fn walk_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    let (inner, outer) = (args[0].clone(), args[1].clone());
    let form = super::take(args, 2);
    walk(interp, form, &mut |i, x| i.apply(&inner, vec![x]), &mut |i, x| i.apply(&outer, vec![x]))
}

fn prewalk(interp: &mut Interp, f: &Value, form: Value) -> R {
    let form = interp.apply(f, vec![form])?;
    walk(interp, form, &mut |i, x| prewalk(i, f, x), &mut |_, x| Ok(x))
}

fn postwalk(interp: &mut Interp, f: &Value, form: Value) -> R {
    walk(interp, form, &mut |i, x| postwalk(i, f, x), &mut |i, x| i.apply(f, vec![x]))
}

fn prewalk_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = args[0].clone();
    prewalk(interp, &f, super::take(args, 1))
}

fn postwalk_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = args[0].clone();
    postwalk(interp, &f, super::take(args, 1))
}
