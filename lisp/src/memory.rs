//! The user namespace that persists between turns.

use crate::record::Definition;
use crate::value::Value;
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

type Entries = IndexMap<Arc<str>, MemoryEntry>;

/// The user namespace: names defined by `def`/`defn`, in the order they were
/// first defined. Cloning is cheap (the map is shared until changed).
#[derive(Clone, Default)]
pub struct Memory {
    /// `None` until something is defined, so an empty namespace allocates nothing.
    entries: Option<Arc<Entries>>,
}

/// Same names with equal entries, in any order (as `IndexMap`'s `==`).
impl PartialEq for Memory {
    fn eq(&self, other: &Memory) -> bool {
        match (&self.entries, &other.entries) {
            (Some(a), Some(b)) => a == b,
            _ => self.is_empty() && other.is_empty(),
        }
    }
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("Memory");
        match &self.entries {
            Some(m) => s.field("entries", m),
            None => s.field("entries", &Entries::default()),
        };
        s.finish()
    }
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
        Arc::make_mut(self.entries.get_or_insert_with(Arc::default)).insert(name, MemoryEntry { value, docstring });
    }

    /// The entry for `name`, if defined.
    pub fn get(&self, name: &str) -> Option<&MemoryEntry> {
        self.entries.as_ref()?.get(name)
    }

    /// Entries in definition order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &MemoryEntry)> {
        self.entries.iter().flat_map(|m| m.iter()).map(|(k, v)| (&**k, v))
    }

    /// Number of names defined.
    pub fn len(&self) -> usize {
        self.entries.as_ref().map_or(0, |m| m.len())
    }

    /// Whether nothing is defined.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A rough estimate of the bytes this namespace keeps alive (values are
    /// walked without recursion; storage shared within or between values
    /// counts once).
    pub fn estimated_bytes(&self) -> usize {
        let names: usize = self.iter().map(|(k, e)| k.len() + e.docstring.as_ref().map_or(0, String::len)).sum();
        names + crate::walk::estimate_bytes(self.iter().map(|(_, e)| &e.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_first_definition_order_and_shares_until_changed() {
        let mut m = Memory::new();
        m.insert("b".into(), Value::Int(1), None);
        m.insert("a".into(), Value::Int(2), Some("doc".into()));
        let snapshot = m.clone();
        m.insert("b".into(), Value::Int(3), None);
        let names: Vec<_> = m.iter().map(|(n, e)| (n, e.value.clone())).collect();
        assert_eq!(names, [("b", Value::Int(3)), ("a", Value::Int(2))]);
        assert_eq!(snapshot.get("b").unwrap().value, Value::Int(1));
        assert_eq!(m.get("a").unwrap().docstring.as_deref(), Some("doc"));
        assert_eq!(m.len(), 2);
        assert!(m.estimated_bytes() > 0 && m.estimated_bytes() < 1000);
    }

    #[test]
    fn empty_namespaces_are_equal_however_made() {
        let mut m = Memory::from_definitions(&[]);
        assert_eq!(m, Memory::new());
        m.insert("x".into(), Value::Int(1), None);
        assert_ne!(m, Memory::new());
        assert_eq!(format!("{:?}", Memory::new()), "Memory { entries: {} }");
    }

    #[test]
    fn rebuilds_from_definitions() {
        let d = |name: &str, v: i64| Definition {
            name: name.into(),
            value: Value::Int(v),
            docstring: None,
            return_type: None,
        };
        let defs = [d("x", 1), d("y", 2), d("x", 3)];
        let m = Memory::from_definitions(&defs);
        assert_eq!(m.iter().map(|(n, _)| n).collect::<Vec<_>>(), ["x", "y"]);
        assert_eq!(m.get("x").unwrap().value, Value::Int(3));
    }
}
