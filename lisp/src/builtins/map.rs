//! Maps: lookup, association, merging and key/value views.

use super::{b, int_arg, items, list, take, type_err, Builtin, VARIADIC};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::value::{Map, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("get", 2, 3, get),
    b("get-in", 2, 3, get_in),
    b("assoc", 3, VARIADIC, assoc),
    b("assoc-in", 3, 3, assoc_in),
    b("update", 3, VARIADIC, update),
    b("update-in", 3, VARIADIC, update_in),
    b("dissoc", 1, VARIADIC, dissoc),
    b("merge", 0, VARIADIC, merge),
    b("merge-with", 1, VARIADIC, merge_with),
    b("select-keys", 2, 2, select_keys),
    b("keys", 1, 1, keys),
    b("vals", 1, 1, vals),
    b("key", 1, 1, key),
    b("val", 1, 1, val),
    b("update-vals", 2, 2, update_vals),
    b("update-keys", 2, 2, update_keys),
];

/// `(get coll k)`: maps by key, sets by member, vectors and strings by index.
pub(crate) fn lookup(coll: &Value, k: &Value) -> Option<Value> {
    match coll {
        Value::Map(m) => m.get(k).cloned(),
        Value::Set(s) => s.get(k).cloned(),
        Value::Vector(v) => match k {
            Value::Int(i) => usize::try_from(*i).ok().and_then(|i| v.get(i).cloned()),
            _ => None,
        },
        Value::Str(s) => match k {
            Value::Int(i) => usize::try_from(*i).ok().and_then(|i| s.chars().nth(i)).map(|c| Value::str(c.to_string())),
            _ => None,
        },
        _ => None,
    }
}

fn get(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(lookup(&args[0], &args[1]).unwrap_or_else(|| args.get(2).cloned().unwrap_or(Value::Nil)))
}

fn get_in(_: &mut Interp, args: &mut [Value]) -> R {
    let mut cur = args[0].clone();
    for k in items(&args[1], "get-in (path)")?.iter() {
        match lookup(&cur, k) {
            Some(v) => cur = v,
            None => return Ok(args.get(2).cloned().unwrap_or(Value::Nil)),
        }
    }
    Ok(cur)
}

/// Associates `k` with `v` in a map, vector (index up to its length) or nil.
pub(crate) fn assoc1(interp: &Interp, coll: Value, k: Value, v: Value) -> R {
    interp.check_nesting(&v)?;
    match coll {
        Value::Map(mut m) => {
            m.insert(k, v);
            interp.check_len(m.len())?;
            Ok(Value::Map(m))
        }
        Value::Nil => Ok(Value::map([(k, v)])),
        Value::Vector(mut items) => {
            let i = int_arg("assoc on a vector (index)", &k)?;
            let len = items.len();
            match usize::try_from(i) {
                Ok(i) if i < len => {
                    items.set(i, v);
                }
                Ok(i) if i == len => {
                    interp.check_len(len + 1)?;
                    items.push(v)
                }
                _ => return Err(fail(ErrorKind::Other, format!("assoc index {i} out of bounds for vector of {len}"))),
            }
            Ok(Value::Vector(items))
        }
        other => Err(type_err("assoc", "a map or vector", &other)),
    }
}

fn assoc(interp: &mut Interp, args: &mut [Value]) -> R {
    if args.len() % 2 != 1 {
        return Err(fail(ErrorKind::Arity, "assoc needs a map then key/value pairs"));
    }
    let mut acc = take(args, 0);
    for pair in args[1..].chunks_mut(2) {
        acc = assoc1(interp, acc, std::mem::take(&mut pair[0]), std::mem::take(&mut pair[1]))?;
    }
    Ok(acc)
}

fn path(v: &Value, who: &str) -> Result<Vec<Value>, Ctl> {
    let p = items(v, who)?.into_owned();
    if p.is_empty() {
        return Err(fail(ErrorKind::Other, format!("{who} needs a non-empty key path")));
    }
    // Each key is one level of nesting in the result.
    if p.len() >= crate::interp::MAX_VALUE_DEPTH {
        return Err(fail(
            ErrorKind::SizeLimit,
            format!(
                "{who}: a path of {} keys would nest values more than {} levels deep",
                p.len(),
                crate::interp::MAX_VALUE_DEPTH
            ),
        ));
    }
    Ok(p)
}

/// Replaces the value at `path` with `f(old)`, creating maps along the way.
fn update_path(interp: &mut Interp, coll: Value, path: &[Value], f: &mut dyn FnMut(&mut Interp, Value) -> R) -> R {
    let (k, rest) = path.split_first().expect("paths are checked non-empty");
    let old = lookup(&coll, k).unwrap_or(Value::Nil);
    let new = if rest.is_empty() { f(interp, old)? } else { update_path(interp, old, rest, f)? };
    assoc1(interp, coll, k.clone(), new)
}

fn assoc_in(interp: &mut Interp, args: &mut [Value]) -> R {
    let p = path(&args[1], "assoc-in")?;
    let v = take(args, 2);
    let coll = take(args, 0);
    update_path(interp, coll, &p, &mut |_, _| Ok(v.clone()))
}

fn with_extra(f: &Value, extra: &[Value]) -> impl FnMut(&mut Interp, Value) -> R {
    let f = f.clone();
    let extra = extra.to_vec();
    move |interp, old| {
        let mut argv = Vec::with_capacity(extra.len() + 1);
        argv.push(old);
        argv.extend(extra.iter().cloned());
        interp.apply(&f, argv)
    }
}

fn update(interp: &mut Interp, args: &mut [Value]) -> R {
    let k = args[1].clone();
    let mut f = with_extra(&args[2], &args[3..]);
    let coll = take(args, 0);
    update_path(interp, coll, &[k], &mut f)
}

fn update_in(interp: &mut Interp, args: &mut [Value]) -> R {
    let p = path(&args[1], "update-in")?;
    let mut f = with_extra(&args[2], &args[3..]);
    let coll = take(args, 0);
    update_path(interp, coll, &p, &mut f)
}

fn dissoc(_: &mut Interp, args: &mut [Value]) -> R {
    match take(args, 0) {
        Value::Map(mut m) => {
            for k in &args[1..] {
                m.remove(k);
            }
            Ok(Value::Map(m))
        }
        Value::Nil => Ok(Value::Nil),
        other => Err(type_err("dissoc", "a map", &other)),
    }
}

/// How `merge-with` combines two values for the same key.
type Combine<'f> = &'f mut dyn FnMut(&mut Interp, Value, Value) -> R;

fn merge_into(interp: &mut Interp, args: &mut [Value], who: &str, mut combine: Option<Combine>) -> R {
    let mut acc: Option<Map> = None;
    for a in args.iter_mut() {
        match std::mem::take(a) {
            Value::Nil => {}
            Value::Map(m) => match &mut acc {
                None => acc = Some(m),
                Some(into) => {
                    for (k, v) in m.iter() {
                        let v = match (into.get(k), combine.as_mut()) {
                            (Some(old), Some(f)) => f(interp, old.clone(), v.clone())?,
                            _ => v.clone(),
                        };
                        into.insert(k.clone(), v);
                    }
                    interp.check_len(into.len())?;
                }
            },
            other => return Err(type_err(who, "maps", &other)),
        }
    }
    Ok(acc.map(Value::Map).unwrap_or(Value::Nil))
}

fn merge(interp: &mut Interp, args: &mut [Value]) -> R {
    merge_into(interp, args, "merge", None)
}

fn merge_with(interp: &mut Interp, args: &mut [Value]) -> R {
    let f = take(args, 0);
    let mut combine = |interp: &mut Interp, a: Value, b: Value| {
        let r = interp.apply(&f, vec![a, b])?;
        interp.nested(r)
    };
    merge_into(interp, &mut args[1..], "merge-with", Some(&mut combine))
}

fn select_keys(_: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Map::new();
    for k in items(&args[1], "select-keys")?.iter() {
        if let Value::Map(m) = &args[0] {
            if let Some(v) = m.get(k) {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(Value::Map(out))
}

fn map_part(args: &[Value], who: &str, key: bool) -> R {
    match &args[0] {
        Value::Map(m) if m.is_empty() => Ok(Value::Nil),
        Value::Map(m) => Ok(list(m.iter().map(|(k, v)| if key { k.clone() } else { v.clone() }).collect())),
        Value::Nil => Ok(Value::Nil),
        other => Err(type_err(who, "a map", other)),
    }
}

fn keys(_: &mut Interp, args: &mut [Value]) -> R {
    map_part(args, "keys", true)
}

fn vals(_: &mut Interp, args: &mut [Value]) -> R {
    map_part(args, "vals", false)
}

fn entry_part(args: &[Value], who: &str, i: usize) -> R {
    match &args[0] {
        Value::Vector(kv) if kv.len() == 2 => Ok(kv[i].clone()),
        other => Err(type_err(who, "a map entry", other)),
    }
}

fn key(_: &mut Interp, args: &mut [Value]) -> R {
    entry_part(args, "key", 0)
}

fn val(_: &mut Interp, args: &mut [Value]) -> R {
    entry_part(args, "val", 1)
}

fn update_vals(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Map::new();
    for (k, v) in entries_of(&args[0], "update-vals")? {
        let r = interp.apply(&args[1], vec![v])?;
        out.insert(k, interp.nested(r)?);
    }
    Ok(Value::Map(out))
}

fn update_keys(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = Map::new();
    for (k, v) in entries_of(&args[0], "update-keys")? {
        let r = interp.apply(&args[1], vec![k])?;
        out.insert(interp.nested(r)?, v);
    }
    Ok(Value::Map(out))
}

/// `(f k v)` for each entry: used by update-vals and friends.
pub(crate) fn entries_of(v: &Value, who: &str) -> Result<Vec<(Value, Value)>, crate::eval::Ctl> {
    match v {
        Value::Map(m) => Ok(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        Value::Nil => Ok(Vec::new()),
        other => Err(fail(ErrorKind::Type, format!("{who} expects a map, got {}", crate::eval::preview(other)))),
    }
}
