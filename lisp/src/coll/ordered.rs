//! `Ordered<V>`: the insertion-ordered persistent map under [`Map`] and
//! [`Set`] (`V = ()`).
//!
//! Small maps, and maps only ever changed while not shared, are a flat
//! [`IndexMap`] (in place, as fast as a hash map). The first time a shared
//! map of more than [`FLAT_MAX`] entries is changed, or a large one loses a
//! key, it becomes *indexed*: entries in insertion order in a persistent
//! vector (a removed entry leaves a hole, compacted once holes outnumber
//! entries) plus a persistent hash index from key to position. Every
//! change then costs O(log n), whoever else holds the map.
//!
//! [`Map`]: super::Map
//! [`Set`]: super::Set

use super::hamt::Hamt;
use super::trie::Trie;
use crate::value::Value;
use indexmap::IndexMap;

/// Entries up to which a shared map is copied on change rather than indexed.
pub(crate) const FLAT_MAX: usize = 32;

#[derive(Clone)]
pub(crate) enum Ordered<V> {
    Flat(IndexMap<Value, V>),
    Indexed(Indexed<V>),
}

#[derive(Clone)]
pub(crate) struct Indexed<V> {
    /// In insertion order; `None` where an entry was removed.
    entries: Trie<Option<(Value, V)>>,
    /// Key to position in `entries`.
    index: Hamt<Value, usize>,
    /// Position of the first entry (holes before it are skipped at once).
    head: usize,
}

impl<V> Default for Ordered<V> {
    fn default() -> Self {
        Ordered::Flat(IndexMap::new())
    }
}

impl<V: Clone> Ordered<V> {
    pub fn len(&self) -> usize {
        match self {
            Ordered::Flat(m) => m.len(),
            Ordered::Indexed(x) => x.index.len(),
        }
    }

    pub fn get_key_value(&self, k: &Value) -> Option<(&Value, &V)> {
        match self {
            Ordered::Flat(m) => m.get_key_value(k),
            Ordered::Indexed(x) => {
                let pos = *x.index.get(k)?;
                x.entries.get(pos).and_then(|e| e.as_ref()).map(|(k, v)| (k, v))
            }
        }
    }

    pub fn get_mut(&mut self, k: &Value) -> Option<&mut V> {
        match self {
            Ordered::Flat(m) => m.get_mut(k),
            Ordered::Indexed(x) => {
                let pos = *x.index.get(k)?;
                x.entries.get_mut(pos).as_mut().map(|(_, v)| v)
            }
        }
    }

    pub fn first(&self) -> Option<(&Value, &V)> {
        match self {
            Ordered::Flat(m) => m.first(),
            Ordered::Indexed(x) => x.entries.get(x.head).and_then(|e| e.as_ref()).map(|(k, v)| (k, v)),
        }
    }

    /// Whether a change to a shared copy should index the map first.
    pub fn should_index(&self) -> bool {
        matches!(self, Ordered::Flat(m) if m.len() > FLAT_MAX)
    }

    /// The same entries, indexed (each entry cloned once).
    pub fn indexed(&self) -> Self {
        let mut x = Indexed { entries: Trie::default(), index: Hamt::default(), head: 0 };
        let mut entries = Vec::with_capacity(self.len());
        for (k, v) in self.iter() {
            x.index.insert(k.clone(), entries.len());
            entries.push(Some((k.clone(), v.clone())));
        }
        x.entries = Trie::from_vec(entries).to_trie_shape();
        Ordered::Indexed(x)
    }

    /// Inserts or replaces (an existing key keeps its place and its key
    /// value); returns the previous value.
    pub fn insert(&mut self, k: Value, v: V) -> Option<V> {
        match self {
            Ordered::Flat(m) => m.insert(k, v),
            Ordered::Indexed(x) => match x.index.get(&k) {
                Some(&pos) => {
                    let (_, old) = x.entries.get_mut(pos).as_mut().expect("indexed positions hold entries");
                    Some(std::mem::replace(old, v))
                }
                None => {
                    x.index.insert(k.clone(), x.entries.len());
                    x.entries.push(Some((k, v)));
                    None
                }
            },
        }
    }

    /// Inserts the new key `k` where `order` puts it among the keys (which
    /// are in that order already): a binary search, then a shift, O(n).
    pub fn insert_sorted(&mut self, k: Value, v: V, order: fn(&Value, &Value) -> std::cmp::Ordering) {
        if let Ordered::Indexed(_) = self {
            *self = Ordered::Flat(self.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        }
        let Ordered::Flat(m) = self else { unreachable!("made flat above") };
        let pos = m.partition_point(|key, _| order(key, &k) == std::cmp::Ordering::Less);
        m.shift_insert(pos, k, v);
    }

    /// Removes `k`, keeping the order of the rest; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<V> {
        if self.should_index() {
            // A flat map shifts every later entry on removal: O(n).
            if !self.contains_key(k) {
                return None;
            }
            *self = self.indexed();
        }
        match self {
            Ordered::Flat(m) => m.shift_remove(k),
            Ordered::Indexed(x) => {
                let pos = x.index.remove(k)?;
                let old = x.entries.get_mut(pos).take().map(|(_, v)| v);
                while x.head < x.entries.len() && x.entries.get(x.head).is_some_and(Option::is_none) {
                    x.head += 1;
                }
                let live = x.index.len();
                if x.entries.len() > 2 * live + FLAT_MAX {
                    // Holes outnumber entries: rebuild (amortized O(1) per removal).
                    *self = if live <= FLAT_MAX {
                        Ordered::Flat(self.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                    } else {
                        self.indexed()
                    };
                }
                old
            }
        }
    }

    pub fn contains_key(&self, k: &Value) -> bool {
        self.get_key_value(k).is_some()
    }

    pub fn iter(&self) -> Iter<'_, V> {
        match self {
            Ordered::Flat(m) => Iter::Flat(m.iter()),
            Ordered::Indexed(x) => Iter::Indexed(x.entries.chunks().flatten()),
        }
    }

    /// Calls `f` with the address and entries of each shared leaf of an
    /// indexed map, and once with address 0 for the rest.
    pub fn for_each_part<'a>(&'a self, mut f: impl FnMut(usize, &mut dyn Iterator<Item = (&'a Value, &'a V)>)) {
        match self {
            Ordered::Flat(m) => f(0, &mut m.iter()),
            Ordered::Indexed(x) => {
                x.entries.for_each_leaf(|addr, items| f(addr, &mut items.iter().flatten().map(|(k, v)| (k, v))));
                f(0, &mut x.entries.tail().iter().flatten().map(|(k, v)| (k, v)));
            }
        }
    }
}

impl<V> FromIterator<(Value, V)> for Ordered<V> {
    fn from_iter<I: IntoIterator<Item = (Value, V)>>(iter: I) -> Self {
        Ordered::Flat(iter.into_iter().collect())
    }
}

/// Entries in insertion order.
pub(crate) enum Iter<'a, V> {
    Flat(indexmap::map::Iter<'a, Value, V>),
    Indexed(std::iter::Flatten<super::trie::Chunks<'a, Option<(Value, V)>>>),
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a Value, &'a V);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Flat(it) => it.next(),
            Iter::Indexed(it) => it.find_map(|e| e.as_ref()).map(|(k, v)| (k, v)),
        }
    }
}
