//! `clojure.set`'s functions on maps and relations (sets of maps):
//! `rename-keys`, `rename`, `select`, `project`, `index`, `map-invert`,
//! `join`. They are reached as `set/NAME` or `clojure.set/NAME` only (as in
//! Clojure, where they are not in `clojure.core`), so the table names them
//! `set-NAME`. Each follows Clojure's definition step by step, so entries
//! come out in the same order.

use super::{b, items, type_err, Builtin};
use crate::eval::{Ctl, Interp, R};
use crate::value::{Map, Set, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("set-rename-keys", 2, 2, rename_keys_fn),
    b("set-rename", 2, 2, rename),
    b("set-select", 2, 2, select),
    b("set-project", 2, 2, project),
    b("set-index", 2, 2, index_fn),
    b("set-map-invert", 1, 1, map_invert),
    b("set-join", 2, 3, join),
];

/// The clojure.set names this module serves (without the `set-` prefix).
pub(crate) const NAMES: &[&str] = &["rename-keys", "rename", "select", "project", "index", "map-invert", "join"];

fn map_arg(who: &str, v: &Value) -> Result<Map, Ctl> {
    match v {
        Value::Map(m) => Ok(m.clone()),
        Value::Nil => Ok(Map::new()),
        other => Err(type_err(who, "a map", other)),
    }
}

/// The maps of a relation (a set, or any collection of maps).
fn relation(who: &str, v: &Value) -> Result<Vec<Map>, Ctl> {
    items(v, who)?.iter().map(|x| map_arg(who, x)).collect()
}

fn rename_keys(map: &Map, kmap: &Map) -> Map {
    let mut out = map.clone();
    for k in kmap.keys() {
        out.remove(k);
    }
    for (old, new) in kmap.iter() {
        if let Some(v) = map.get(old) {
            out.insert(new.clone(), v.clone());
        }
    }
    out
}

fn select_keys(map: &Map, ks: &[Value]) -> Map {
    let mut out = Map::new();
    for k in ks {
        if let Some((k, v)) = map.get_key_value(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

fn rename_keys_fn(_: &mut Interp, args: &mut [Value]) -> R {
    let map = map_arg("set/rename-keys", &args[0])?;
    Ok(Value::Map(rename_keys(&map, &map_arg("set/rename-keys", &args[1])?)))
}

fn rename(_: &mut Interp, args: &mut [Value]) -> R {
    let kmap = map_arg("set/rename", &args[1])?;
    Ok(Value::Set(relation("set/rename", &args[0])?.iter().map(|m| Value::Map(rename_keys(m, &kmap))).collect()))
}

fn select(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = match &args[1] {
        Value::Set(s) => s.clone(),
        Value::Nil => Set::new(),
        other => return Err(type_err("set/select", "a set", other)),
    };
    for x in out.clone().iter() {
        if !interp.call_n(&args[0], [x.clone()])?.is_truthy() {
            out.remove(x);
        }
    }
    Ok(Value::Set(out))
}

fn project(_: &mut Interp, args: &mut [Value]) -> R {
    let ks = items(&args[1], "set/project")?;
    Ok(Value::Set(relation("set/project", &args[0])?.iter().map(|m| Value::Map(select_keys(m, &ks))).collect()))
}

fn index(rel: &[Map], ks: &[Value]) -> Map {
    let mut out = Map::new();
    for x in rel {
        let ik = Value::Map(select_keys(x, ks));
        let mut group = match out.get(&ik) {
            Some(Value::Set(s)) => s.clone(),
            _ => Set::new(),
        };
        group.insert(Value::Map(x.clone()));
        out.insert(ik, Value::Set(group));
    }
    out
}

fn index_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    let rel = relation("set/index", &args[0])?;
    interp.charge(rel.len() as u64)?;
    Ok(Value::Map(index(&rel, &items(&args[1], "set/index")?)))
}

fn map_invert(_: &mut Interp, args: &mut [Value]) -> R {
    let m = map_arg("set/map-invert", &args[0])?;
    Ok(Value::Map(m.iter().map(|(k, v)| (v.clone(), k.clone())).collect()))
}

/// What a join looks up in the index for each map of the larger relation.
type Probe = Box<dyn Fn(&Map) -> Map>;

/// Natural join on the keys both relations' first maps share, or a join
/// on `km` (keys of the first relation to keys of the second).
fn join(interp: &mut Interp, args: &mut [Value]) -> R {
    let xrel = relation("set/join", &args[0])?;
    let yrel = relation("set/join", &args[1])?;
    let km = args.get(2).map(|k| map_arg("set/join", k)).transpose()?;
    let mut out = Set::new();
    if km.is_none() && (xrel.is_empty() || yrel.is_empty()) {
        return Ok(Value::Set(out));
    }
    let small_first = xrel.len() <= yrel.len();
    let (r, s) = if small_first { (&xrel, &yrel) } else { (&yrel, &xrel) };
    let (idx, probe): (Map, Probe) = match &km {
        None => {
            let ks: Vec<Value> = xrel[0].keys().filter(|k| yrel[0].contains_key(k)).cloned().collect();
            let ks2 = ks.clone();
            (index(r, &ks), Box::new(move |x: &Map| select_keys(x, &ks2)))
        }
        Some(km) => {
            let k = if small_first { km.iter().map(|(a, b)| (b.clone(), a.clone())).collect() } else { km.clone() };
            let from: Vec<Value> = k.keys().cloned().collect();
            let to: Vec<Value> = k.values().cloned().collect();
            (index(r, &to), Box::new(move |x: &Map| rename_keys(&select_keys(x, &from), &k)))
        }
    };
    for x in s {
        if let Some(Value::Set(found)) = idx.get(&Value::Map(probe(x))) {
            for y in found.iter() {
                let Value::Map(y) = y else { continue };
                let mut merged = y.clone();
                for (k, v) in x.iter() {
                    merged.insert(k.clone(), v.clone());
                }
                interp.charge(1)?;
                out.insert(Value::Map(merged));
                interp.check_len(out.len())?;
            }
        }
    }
    Ok(Value::Set(out))
}

#[cfg(test)]
mod tests {
    use crate::{run_program, Exit, Memory, NoTools};

    fn run(src: &str) -> String {
        match run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Default::default()).result {
            Ok(Exit::Value(v)) => v.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn only_through_the_set_namespace() {
        assert_eq!(run("(set/rename-keys {:a 1} {:a :b})"), "{:b 1}");
        assert_eq!(run("(clojure.set/map-invert {:a 1})"), "{1 :a}");
        assert!(run("(rename-keys {:a 1} {:a :b})").contains(
            "unable to resolve symbol `rename-keys`; it is `clojure.set/rename-keys` (or `set/rename-keys`)"
        ));
        // `str/join` is still the string one.
        assert_eq!(run("(str/join \",\" [1 2])"), "\"1,2\"");
    }

    #[test]
    fn joins_follow_clojure_either_way_round() {
        let big = "#{{:id 1 :a 1} {:id 2 :a 2} {:id 3 :a 3}}";
        let small = "#{{:id 2 :b 20}}";
        assert_eq!(run(&format!("(set/join {big} {small})")), "#{{:id 2 :b 20 :a 2}}");
        // Checked against Clojure 1.11: the smaller relation's map comes first.
        assert_eq!(run(&format!("(set/join {small} {big})")), "#{{:id 2 :b 20 :a 2}}");
        assert_eq!(run(&format!("(set/join {small} {big} {{:id :a}})")), "#{{:id 2 :b 20 :a 2}}");
        assert_eq!(run("(set/join #{} #{{:a 1}})"), "#{}");
    }
}
