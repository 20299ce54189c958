//! Walking values without recursion and without paying twice for shared
//! structure: `(loop [x [1] i 0] (recur [x x] (inc i)))` builds a value of
//! a few dozen nodes that unfolds to billions, so anything that visits a
//! whole value either memoizes by `Arc` address or has a budget.

use crate::value::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Whether `v` holds other values: a collection, or a function carrying
/// captured values (a closure, or a combinator such as `partial`).
fn is_coll(v: &Value) -> bool {
    match v {
        Value::Vector(_) | Value::List(_) | Value::Set(_) | Value::Map(_) => true,
        Value::Fn(f) => f.carried().is_some(),
        _ => false,
    }
}

/// The address identifying a collection's shared storage (0 for scalars).
fn addr(v: &Value) -> usize {
    match v {
        Value::Vector(a) | Value::List(a) => a.addr(),
        Value::Set(a) => a.addr(),
        Value::Map(a) => a.addr(),
        Value::Str(s) | Value::Keyword(s) => Arc::as_ptr(s) as *const u8 as usize,
        Value::Fn(f) => Arc::as_ptr(f) as *const u8 as usize,
        _ => 0,
    }
}

/// Calls `f` on each direct element of a collection (map keys and values)
/// or each value a function carries.
fn for_children<'v>(v: &'v Value, mut f: impl FnMut(&'v Value)) {
    match v {
        Value::Fn(func) => func.carried().unwrap_or_default().iter().for_each(f),
        Value::Vector(items) | Value::List(items) => items.iter().for_each(f),
        Value::Set(items) => items.iter().for_each(f),
        Value::Map(m) => m.iter().for_each(|(k, x)| {
            f(k);
            f(x)
        }),
        _ => {}
    }
}

/// Node visits a plain walk may make before switching to the memoized one.
const PLAIN_BUDGET: usize = 4096;

/// Whether `v` nests collections more than `max` levels below itself.
pub(crate) fn depth_exceeds(v: &Value, max: usize) -> bool {
    if !is_coll(v) {
        return false;
    }
    // Small values: a plain depth-first walk, no hashing.
    let mut stack: Vec<(&Value, usize)> = vec![(v, 0)];
    let mut visits = 0;
    while let Some((n, d)) = stack.pop() {
        if d > max {
            return true;
        }
        visits += 1;
        if visits > PLAIN_BUDGET {
            return memoized_height(v, max) > max;
        }
        for_children(n, |c| {
            if is_coll(c) {
                stack.push((c, d + 1))
            }
        });
    }
    false
}

/// Height of `v` (0 for a collection of scalars), visiting each shared
/// collection once; stops early once the height exceeds `max`.
fn memoized_height(v: &Value, max: usize) -> usize {
    let mut height: HashMap<usize, usize> = HashMap::new();
    let mut stack: Vec<(&Value, bool)> = vec![(v, false)];
    while let Some((n, expanded)) = stack.pop() {
        let key = addr(n);
        if height.contains_key(&key) {
            continue;
        }
        if !expanded {
            stack.push((n, true));
            for_children(n, |c| {
                if is_coll(c) && !height.contains_key(&addr(c)) {
                    stack.push((c, false));
                }
            });
            if stack.len() > max.saturating_mul(PLAIN_BUDGET) {
                return max + 1;
            }
        } else {
            let mut h = 0;
            for_children(n, |c| {
                if is_coll(c) {
                    h = h.max(1 + height.get(&addr(c)).copied().unwrap_or(0));
                }
            });
            if h > max {
                return h;
            }
            height.insert(key, h);
        }
    }
    height.get(&addr(v)).copied().unwrap_or(0)
}

/// Estimated bytes kept alive by `values`, counting shared storage once
/// (the caches of memoized functions included).
pub fn estimate_bytes<'v>(values: impl IntoIterator<Item = &'v Value>) -> usize {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut caches = Vec::new();
    let mut total = add_bytes(values.into_iter().collect(), &mut seen, &mut caches);
    // Caches are walked from a work list, not recursively, and kept until
    // the end so that no address in `seen` is reused meanwhile.
    let mut walked = Vec::new();
    while let Some(cache) = caches.pop() {
        total += add_bytes(vec![&cache], &mut seen, &mut caches);
        walked.push(cache);
    }
    total
}

/// Bytes of the values on `stack` not yet in `seen`; the caches of the
/// memoized functions met go to `caches`.
fn add_bytes(mut stack: Vec<&Value>, seen: &mut HashSet<usize>, caches: &mut Vec<Value>) -> usize {
    let mut total = 0usize;
    while let Some(v) = stack.pop() {
        total += 16;
        let key = addr(v);
        if key != 0 && !seen.insert(key) {
            continue;
        }
        match v {
            Value::Str(s) | Value::Keyword(s) => total += s.len(),
            // Trie leaves shared between versions of a collection count once.
            Value::Vector(items) | Value::List(items) => {
                total += 16;
                items.for_each_part(|leaf, part| {
                    if leaf == 0 || seen.insert(leaf) {
                        stack.extend(part.iter());
                    }
                });
            }
            Value::Set(items) => {
                total += 32;
                items.for_each_part(|leaf, part| {
                    if leaf == 0 || seen.insert(leaf) {
                        for x in part {
                            total += 8;
                            stack.push(x);
                        }
                    }
                });
            }
            Value::Map(m) => {
                total += 32;
                m.for_each_part(|leaf, part| {
                    if leaf == 0 || seen.insert(leaf) {
                        for (k, x) in part {
                            total += 8;
                            stack.push(k);
                            stack.push(x);
                        }
                    }
                });
            }
            Value::Fn(f) => {
                total += 256;
                stack.extend(f.carried().into_iter().flatten());
                caches.extend(f.memo_entries().map(Value::Map));
            }
            _ => {}
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[x x]` nested `n` times around 1: n levels deep, 2^n leaves, n+1 nodes.
    fn doubling(n: usize) -> Value {
        let mut x = Value::Int(1);
        for _ in 0..n {
            x = Value::vector(vec![x.clone(), x]);
        }
        x
    }

    #[test]
    fn shared_structure_is_walked_once() {
        let v = doubling(60);
        assert!(!depth_exceeds(&v, 60));
        assert!(depth_exceeds(&v, 58));
        assert!(estimate_bytes([&v]) < 10_000);
    }

    #[test]
    fn plain_values() {
        let v = Value::vector(vec![Value::vector(vec![Value::Int(1)]), Value::Int(2)]);
        assert!(!depth_exceeds(&v, 1));
        assert!(depth_exceeds(&v, 0));
        assert!(!depth_exceeds(&Value::Int(1), 0));
    }
}
