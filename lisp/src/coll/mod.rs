//! Persistent collections: [`Vector`] (vectors and lists), [`Map`] and
//! [`Set`] (insertion-ordered).
//!
//! Each is a handle to reference-counted storage: cloning is O(1), and a
//! change through `&mut self` happens in place when the storage is not
//! shared, otherwise on a copy that shares structure with the original.
//! `conj`, `assoc`, `dissoc` and `disj` are O(1) amortized or O(log n)
//! whoever else holds the collection, so building one in a loop is linear.
//! Bulk-built collections keep a flat layout (a slice, an [`IndexMap`]) and
//! move to the trie layout the first time a shared one of more than a leaf
//! is changed.

mod hamt;
mod ordered;
mod trie;

use ordered::Ordered;
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use trie::Trie;

use crate::value::Value;

/// A collection's storage plus, for a large flat one that has been changed
/// while shared, its twin in the trie layout: made once and shared by every
/// changed copy, so changing copies of one big flat collection again and
/// again costs O(log n) each, not a relayout each.
#[derive(Default)]
struct Stored<T> {
    data: T,
    twin: OnceLock<T>,
    /// A kind mark that changed copies keep: a list made by `list`, a
    /// quoted literal or `conj` onto one (`list?`), for a vector's storage;
    /// a sorted map or set (`sorted-map`, `sorted-set`), for a map's or a set's.
    mark: bool,
}

impl<T> Stored<T> {
    fn new(data: T) -> Self {
        Stored { data, twin: OnceLock::new(), mark: false }
    }
}

impl<T: Clone> Clone for Stored<T> {
    fn clone(&self) -> Self {
        Stored { data: self.data.clone(), twin: OnceLock::new(), mark: self.mark }
    }
}

/// The storage behind `arc`, to change: in place when not shared, else a
/// copy; `relayout` (when it applies to the storage) gives the trie-layout
/// twin to copy from instead of the storage itself.
fn make_mut<T: Clone>(arc: &mut Arc<Stored<T>>, relayout: impl FnOnce(&T) -> Option<T>) -> &mut T {
    if Arc::get_mut(arc).is_none() {
        let copy = match arc.twin.get() {
            Some(twin) => twin.clone(),
            None => match relayout(&arc.data) {
                Some(twin) => arc.twin.get_or_init(|| twin).clone(),
                None => arc.data.clone(),
            },
        };
        *arc = Arc::new(Stored { data: copy, twin: OnceLock::new(), mark: arc.mark });
    }
    let stored = Arc::get_mut(arc).expect("unique after the copy above");
    // The twin would no longer match the changed storage.
    stored.twin.take();
    &mut stored.data
}

/// A persistent vector of values (also the storage of lists).
#[derive(Clone, Default)]
pub struct Vector(Arc<Stored<Trie<Value>>>);

impl Vector {
    /// An empty vector.
    pub fn new() -> Self {
        Vector::default()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.0.data.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`, in O(log32 n).
    pub fn get(&self, i: usize) -> Option<&Value> {
        self.0.data.get(i)
    }

    /// The first element.
    pub fn first(&self) -> Option<&Value> {
        self.get(0)
    }

    /// The last element.
    pub fn last(&self) -> Option<&Value> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The elements as one slice, when they are stored as one (bulk-built
    /// vectors and lists always are).
    pub fn as_slice(&self) -> Option<&[Value]> {
        self.0.data.as_slice()
    }

    /// The elements as a slice, borrowed when possible.
    pub fn items(&self) -> Cow<'_, [Value]> {
        match self.as_slice() {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(self.to_vec()),
        }
    }

    /// The elements, cloned into a `Vec`.
    pub fn to_vec(&self) -> Vec<Value> {
        let mut out = Vec::with_capacity(self.len());
        for chunk in self.0.data.chunks() {
            out.extend_from_slice(chunk);
        }
        out
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = &Value> + '_ {
        VecIter { chunks: self.0.data.chunks(), front: [].iter() }
    }

    /// Whether some element equals `x`.
    pub fn contains(&self, x: &Value) -> bool {
        self.iter().any(|y| y == x)
    }

    /// Appends `x`.
    pub fn push(&mut self, x: Value) {
        self.mutate().push(x)
    }

    /// Replaces element `i`; `false` (and no change) if there is none.
    pub fn set(&mut self, i: usize, x: Value) -> bool {
        if i >= self.len() {
            return false;
        }
        self.mutate().set(i, x);
        true
    }

    /// Removes and returns the last element.
    pub fn pop(&mut self) -> Option<Value> {
        if self.is_empty() {
            return None;
        }
        self.mutate().pop()
    }

    fn mutate(&mut self) -> &mut Trie<Value> {
        make_mut(&mut self.0, |t| t.is_long_flat().then(|| t.to_trie_shape()))
    }

    /// Whether this is a list in Clojure's sense (`list?`): made by `list`,
    /// a quoted literal, or `conj` onto one; sequence functions' results are not.
    pub fn is_list(&self) -> bool {
        self.0.mark
    }

    /// The same elements, marked as a list (see [`Vector::is_list`]).
    pub(crate) fn into_list(mut self) -> Self {
        match Arc::get_mut(&mut self.0) {
            Some(stored) => stored.mark = true,
            None => {
                let mut stored = (*self.0).clone();
                stored.mark = true;
                self.0 = Arc::new(stored);
            }
        }
        self
    }

    /// Whether both share the same storage.
    pub fn ptr_eq(a: &Vector, b: &Vector) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The address of the storage (identity for memoized walks).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// Calls `f` with the address and elements of each trie leaf this
    /// vector may share with others, then with address 0 and the rest.
    pub(crate) fn for_each_part<'a>(&'a self, mut f: impl FnMut(usize, &'a [Value])) {
        self.0.data.for_each_leaf(&mut f);
        f(0, self.0.data.tail());
    }
}

/// Iterator over a vector's elements.
struct VecIter<'a> {
    chunks: trie::Chunks<'a, Value>,
    front: std::slice::Iter<'a, Value>,
}

impl<'a> Iterator for VecIter<'a> {
    type Item = &'a Value;

    #[inline]
    fn next(&mut self) -> Option<&'a Value> {
        loop {
            if let Some(x) = self.front.next() {
                return Some(x);
            }
            self.front = self.chunks.next()?.iter();
        }
    }
}

impl From<Vec<Value>> for Vector {
    fn from(items: Vec<Value>) -> Self {
        Vector(Arc::new(Stored::new(Trie::from_vec(items))))
    }
}

impl FromIterator<Value> for Vector {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Vector::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl Extend<Value> for Vector {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        let trie = self.mutate();
        for x in iter {
            trie.push(x);
        }
    }
}

impl std::ops::Index<usize> for Vector {
    type Output = Value;

    fn index(&self, i: usize) -> &Value {
        self.get(i).unwrap_or_else(|| panic!("index {i} out of bounds for a vector of {}", self.len()))
    }
}

/// The order of keys in sorted maps and sets: `compare`'s, and for keys
/// `compare` cannot order (a number and a string) the order of their type names.
fn key_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    crate::builtins::sort::compare_values(a, b).unwrap_or_else(|_| a.type_name().cmp(b.type_name()))
}

/// Shared code of [`Map`] and [`Set`].
macro_rules! ordered_handle {
    ($name:ident, $v:ty) => {
        impl $name {
            /// Number of entries.
            pub fn len(&self) -> usize {
                self.0.data.len()
            }

            /// Whether there are no entries.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// Whether `k` is present.
            pub fn contains_key(&self, k: &Value) -> bool {
                self.0.data.contains_key(k)
            }

            fn mutate(&mut self) -> &mut Ordered<$v> {
                make_mut(&mut self.0, |o| o.should_index().then(|| o.indexed()))
            }

            /// Whether this is a sorted map or set (`sorted-map`, `sorted-set`):
            /// new keys then go in order, not last.
            pub fn is_sorted(&self) -> bool {
                self.0.mark
            }

            /// The same entries, sorted by key (`compare`), marked sorted.
            pub(crate) fn into_sorted(self) -> Self {
                let mut entries: Vec<_> = self.0.data.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                entries.sort_by(|a, b| key_order(&a.0, &b.0));
                let mut stored = Stored::new(entries.into_iter().collect::<Ordered<$v>>());
                stored.mark = true;
                $name(Arc::new(stored))
            }

            /// Inserts a new key or replaces a value, in key order when sorted.
            fn put(&mut self, k: Value, v: $v) -> Option<$v> {
                if self.is_sorted() && !self.contains_key(&k) {
                    self.mutate().insert_sorted(k, v, key_order);
                    return None;
                }
                self.mutate().insert(k, v)
            }

            /// Whether both share the same storage.
            pub fn ptr_eq(a: &$name, b: &$name) -> bool {
                Arc::ptr_eq(&a.0, &b.0)
            }

            /// The address of the storage (identity for memoized walks).
            pub fn addr(&self) -> usize {
                Arc::as_ptr(&self.0) as usize
            }
        }
    };
}

/// An insertion-ordered persistent map.
#[derive(Clone, Default)]
pub struct Map(Arc<Stored<Ordered<Value>>>);

ordered_handle!(Map, Value);

impl Map {
    /// An empty map.
    pub fn new() -> Self {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Map(Arc::new(Stored::new(Ordered::Flat(indexmap::IndexMap::with_capacity(n)))))
    }

    /// The value of `k`.
    pub fn get(&self, k: &Value) -> Option<&Value> {
        self.0.data.get_key_value(k).map(|(_, v)| v)
    }

    /// The stored key equal to `k`, and its value.
    pub fn get_key_value(&self, k: &Value) -> Option<(&Value, &Value)> {
        self.0.data.get_key_value(k)
    }

    /// The first entry in insertion order.
    pub fn first(&self) -> Option<(&Value, &Value)> {
        self.0.data.first()
    }

    /// The value of `k`, to change in place.
    pub fn get_mut(&mut self, k: &Value) -> Option<&mut Value> {
        if !self.contains_key(k) {
            return None;
        }
        self.mutate().get_mut(k)
    }

    /// Sets `k` to `v` (a new key goes last); returns the previous value.
    pub fn insert(&mut self, k: Value, v: Value) -> Option<Value> {
        self.put(k, v)
    }

    /// Removes `k`, keeping the order of the rest; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        if !self.contains_key(k) {
            return None;
        }
        self.mutate().remove(k)
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> + '_ {
        self.0.data.iter()
    }

    /// Keys in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Value> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// Values in insertion order.
    pub fn values(&self) -> impl Iterator<Item = &Value> + '_ {
        self.iter().map(|(_, v)| v)
    }

    /// Calls `f` with the address and entries of each part this map may
    /// share with others (address 0: parts it does not share).
    pub(crate) fn for_each_part<'a>(&'a self, f: impl FnMut(usize, &mut dyn Iterator<Item = (&'a Value, &'a Value)>)) {
        self.0.data.for_each_part(f)
    }
}

impl FromIterator<(Value, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(iter: I) -> Self {
        Map(Arc::new(Stored::new(iter.into_iter().collect())))
    }
}

/// An insertion-ordered persistent set.
#[derive(Clone, Default)]
pub struct Set(Arc<Stored<Ordered<()>>>);

ordered_handle!(Set, ());

impl Set {
    /// An empty set.
    pub fn new() -> Self {
        Set::default()
    }

    /// Whether `x` is a member.
    pub fn contains(&self, x: &Value) -> bool {
        self.contains_key(x)
    }

    /// The stored member equal to `x`.
    pub fn get(&self, x: &Value) -> Option<&Value> {
        self.0.data.get_key_value(x).map(|(k, _)| k)
    }

    /// The first member in insertion order.
    pub fn first(&self) -> Option<&Value> {
        self.0.data.first().map(|(k, _)| k)
    }

    /// Adds `x` (last); `false` if it was already a member.
    pub fn insert(&mut self, x: Value) -> bool {
        if self.contains(&x) {
            return false;
        }
        self.put(x, ()).is_none()
    }

    /// Removes `x`; `false` if it was not a member.
    pub fn remove(&mut self, x: &Value) -> bool {
        self.contains(x) && self.mutate().remove(x).is_some()
    }

    /// Members in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Value> + '_ {
        self.0.data.iter().map(|(k, _)| k)
    }

    /// Keeps the members for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Value) -> bool) {
        if !self.iter().all(&mut keep) {
            let sorted = self.is_sorted();
            *self = self.iter().filter(|x| keep(x)).cloned().collect();
            Arc::get_mut(&mut self.0).expect("just built").mark = sorted;
        }
    }

    /// Calls `f` with the address and members of each part this set may
    /// share with others (address 0: parts it does not share).
    pub(crate) fn for_each_part<'a>(&'a self, mut f: impl FnMut(usize, &mut dyn Iterator<Item = &'a Value>)) {
        self.0.data.for_each_part(|addr, entries| f(addr, &mut entries.map(|(k, _)| k)))
    }
}

impl FromIterator<Value> for Set {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Set(Arc::new(Stored::new(iter.into_iter().map(|x| (x, ())).collect())))
    }
}

impl Extend<Value> for Set {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        for x in iter {
            self.insert(x);
        }
    }
}
