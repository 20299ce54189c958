//! The user namespace that persists between turns.

use crate::program::Definition;
use crate::value::{FnBody, Value};
use indexmap::IndexMap;
use std::sync::Arc;

/// One name in the user namespace.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryEntry {
    /// The value (a [`Value::Fn`] for `defn`).
    pub value: Value,
    /// The docstring given to `def`/`defn`, if any.
    pub docstring: Option<String>,
}

/// The user namespace: names defined by `def`/`defn`, in the order they were
/// first defined. Cloning is cheap (the map is shared until changed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Memory {
    entries: Arc<IndexMap<Arc<str>, MemoryEntry>>,
}

impl Memory {
    /// An empty namespace.
    pub fn new() -> Self {
        Memory::default()
    }

    /// Rebuilds a namespace from definitions in order (a later one of the
    /// same name replaces the value but keeps the first position).
    pub fn from_definitions<'d>(defs: impl IntoIterator<Item = &'d Definition>) -> Self {
        let mut m = Memory::new();
        for d in defs {
            m.insert(d.name.as_str().into(), d.value.clone(), d.docstring.clone());
        }
        m
    }

    /// Defines or redefines `name`.
    pub fn insert(&mut self, name: Arc<str>, value: Value, docstring: Option<String>) {
        Arc::make_mut(&mut self.entries).insert(name, MemoryEntry { value, docstring });
    }

    /// The entry for `name`, if defined.
    pub fn get(&self, name: &str) -> Option<&MemoryEntry> {
        self.entries.get(name)
    }

    /// Entries in definition order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &MemoryEntry)> {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }

    /// Number of names defined.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is defined.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A rough estimate of the bytes this namespace keeps alive (values are
    /// walked without recursion; shared structure is counted each time it is seen).
    pub fn estimated_bytes(&self) -> usize {
        self.entries
            .iter()
            .map(|(k, e)| k.len() + e.docstring.as_ref().map_or(0, String::len) + estimate_value(&e.value))
            .sum()
    }
}

/// Estimated bytes of one value and everything it holds.
pub fn estimate_value(v: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total += 16;
        match v {
            Value::Str(s) | Value::Keyword(s) => total += s.len(),
            Value::Vector(items) | Value::List(items) => {
                total += 16;
                stack.extend(items.iter());
            }
            Value::Set(items) => {
                total += 32 + 8 * items.len();
                stack.extend(items.iter());
            }
            Value::Map(m) => {
                total += 32 + 8 * m.len();
                for (k, v) in m.iter() {
                    stack.push(k);
                    stack.push(v);
                }
            }
            Value::Fn(f) => {
                total += 256;
                if let Some(FnBody::Closure(c)) = &f.body {
                    stack.extend(c.captures.iter());
                }
            }
            _ => {}
        }
    }
    total
}
