//! `Hamt<K, V>`: a persistent hash map (hash array mapped trie), the key
//! index of large persistent maps and sets. Nodes are reference counted and
//! changed in place when not shared, copied along one path when they are,
//! so every operation is O(log32 n) whatever the sharing.

use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

const BITS: u32 = 5;
const MASK: u64 = (1 << BITS) - 1;

/// Hashes with fixed keys, so the same program behaves the same every run.
fn hash_of<K: Hash>(k: &K) -> u64 {
    std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(k)
}

#[derive(Clone)]
enum Child<K, V> {
    Entry(u64, K, V),
    Node(Arc<Node<K, V>>),
}

#[derive(Clone)]
enum Node<K, V> {
    /// Children for the hash slices whose bit is set in `bitmap`.
    Branch { bitmap: u32, children: Vec<Child<K, V>> },
    /// Keys whose full hashes are equal.
    Collision(u64, Vec<(K, V)>),
}

/// See the module documentation.
#[derive(Clone)]
pub(crate) struct Hamt<K, V> {
    root: Arc<Node<K, V>>,
    len: usize,
}

impl<K, V> Default for Hamt<K, V> {
    fn default() -> Self {
        Hamt { root: Arc::new(Node::Branch { bitmap: 0, children: Vec::new() }), len: 0 }
    }
}

fn slot(hash: u64, shift: u32) -> (u32, u32) {
    let idx = ((hash >> shift) & MASK) as u32;
    (idx, 1 << idx)
}

fn position(bitmap: u32, bit: u32) -> usize {
    (bitmap & (bit - 1)).count_ones() as usize
}

impl<K: Hash + Eq + Clone, V: Clone> Hamt<K, V> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        let hash = hash_of(k);
        let mut node = &*self.root;
        let mut shift = 0;
        loop {
            match node {
                Node::Branch { bitmap, children } => {
                    let (_, bit) = slot(hash, shift);
                    if bitmap & bit == 0 {
                        return None;
                    }
                    match &children[position(*bitmap, bit)] {
                        Child::Entry(h, key, v) => return (*h == hash && key == k).then_some(v),
                        Child::Node(n) => node = n,
                    }
                    shift += BITS;
                }
                Node::Collision(h, entries) => {
                    return if *h == hash { entries.iter().find(|(key, _)| key == k).map(|(_, v)| v) } else { None };
                }
            }
        }
    }

    /// Inserts or replaces; returns the previous value.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        let hash = hash_of(&k);
        let old = insert(&mut self.root, 0, hash, k, v);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Removes `k`; returns its value.
    pub fn remove(&mut self, k: &K) -> Option<V> {
        let hash = hash_of(k);
        let old = remove(&mut self.root, 0, hash, k);
        if old.is_some() {
            self.len -= 1;
        }
        old
    }
}

fn insert<K: Eq + Clone, V: Clone>(node: &mut Arc<Node<K, V>>, shift: u32, hash: u64, k: K, v: V) -> Option<V> {
    if let Node::Collision(h, _) = &**node {
        if *h != hash {
            // Another hash with the same prefix: split below a new branch.
            let h = *h;
            let collision = Child::Node(node.clone());
            *node = Arc::new(pair(shift, collision, h, Child::Entry(hash, k, v), hash));
            return None;
        }
    }
    match Arc::make_mut(node) {
        Node::Branch { bitmap, children } => {
            let (_, bit) = slot(hash, shift);
            let pos = position(*bitmap, bit);
            if *bitmap & bit == 0 {
                *bitmap |= bit;
                children.insert(pos, Child::Entry(hash, k, v));
                return None;
            }
            match &mut children[pos] {
                Child::Node(n) => insert(n, shift + BITS, hash, k, v),
                Child::Entry(h, key, old) if *h == hash && *key == k => Some(std::mem::replace(old, v)),
                entry => {
                    // Another key in this slot: both move one level down.
                    let empty = Child::Node(Arc::new(Node::Branch { bitmap: 0, children: Vec::new() }));
                    let existing = std::mem::replace(entry, empty);
                    let Child::Entry(h, ..) = existing else { unreachable!("nodes are matched above") };
                    *entry = Child::Node(Arc::new(pair(shift + BITS, existing, h, Child::Entry(hash, k, v), hash)));
                    None
                }
            }
        }
        Node::Collision(_, entries) => match entries.iter_mut().find(|(key, _)| *key == k) {
            Some((_, old)) => Some(std::mem::replace(old, v)),
            None => {
                entries.push((k, v));
                None
            }
        },
    }
}

/// A node holding two children whose hashes agree below `shift`.
fn pair<K, V>(shift: u32, a: Child<K, V>, ha: u64, b: Child<K, V>, hb: u64) -> Node<K, V> {
    if ha == hb {
        let mut entries = Vec::with_capacity(2);
        for c in [a, b] {
            match c {
                Child::Entry(_, k, v) => entries.push((k, v)),
                Child::Node(_) => unreachable!("a collision node is only paired with another hash"),
            }
        }
        return Node::Collision(ha, entries);
    }
    let ((ia, bit_a), (ib, bit_b)) = (slot(ha, shift), slot(hb, shift));
    if ia == ib {
        let inner = pair(shift + BITS, a, ha, b, hb);
        return Node::Branch { bitmap: bit_a, children: vec![Child::Node(Arc::new(inner))] };
    }
    let children = if ia < ib { vec![a, b] } else { vec![b, a] };
    Node::Branch { bitmap: bit_a | bit_b, children }
}

fn remove<K: Eq + Clone, V: Clone>(node: &mut Arc<Node<K, V>>, shift: u32, hash: u64, k: &K) -> Option<V> {
    // Look before changing anything: a miss must not copy a shared path.
    let present = match &**node {
        Node::Branch { bitmap, .. } => bitmap & slot(hash, shift).1 != 0,
        Node::Collision(h, entries) => *h == hash && entries.iter().any(|(key, _)| key == k),
    };
    if !present {
        return None;
    }
    match Arc::make_mut(node) {
        Node::Branch { bitmap, children } => {
            let (_, bit) = slot(hash, shift);
            let pos = position(*bitmap, bit);
            let (old, now_empty) = match &mut children[pos] {
                Child::Entry(h, key, _) if *h == hash && *key == *k => (None, true),
                Child::Entry(..) => return None,
                Child::Node(n) => {
                    let old = remove(n, shift + BITS, hash, k)?;
                    (Some(old), is_empty(n))
                }
            };
            if !now_empty {
                return old;
            }
            *bitmap &= !bit;
            match children.remove(pos) {
                Child::Entry(_, _, v) => Some(v),
                Child::Node(_) => old,
            }
        }
        Node::Collision(_, entries) => {
            let i = entries.iter().position(|(key, _)| key == k)?;
            Some(entries.remove(i).1)
        }
    }
}

fn is_empty<K, V>(n: &Node<K, V>) -> bool {
    match n {
        Node::Branch { children, .. } => children.is_empty(),
        Node::Collision(_, entries) => entries.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A key whose hash the test chooses, to force collisions.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct K(u64, u32);
    impl Hash for K {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.0.hash(state)
        }
    }

    #[test]
    fn agrees_with_a_hash_map_under_inserts_and_removes() {
        let mut h: Hamt<K, u32> = Hamt::default();
        let mut model = HashMap::new();
        let mut x = 12345u64;
        for i in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct hashes: plenty of collisions.
            let k = K(x % 3000, (x % 7) as u32);
            if x % 3 == 0 {
                assert_eq!(h.remove(&k), model.remove(&(k.0, k.1)), "step {i}");
            } else {
                assert_eq!(h.insert(k.clone(), i), model.insert((k.0, k.1), i), "step {i}");
            }
            assert_eq!(h.len(), model.len());
        }
        for ((a, b), v) in &model {
            assert_eq!(h.get(&K(*a, *b)), Some(v));
        }
        assert_eq!(h.get(&K(99_999, 0)), None);
    }

    #[test]
    fn a_shared_copy_is_never_changed() {
        let mut a: Hamt<u64, u64> = Hamt::default();
        for i in 0..1000 {
            a.insert(i, i);
        }
        let snapshot = a.clone();
        for i in 0..500 {
            a.remove(&i);
            a.insert(i + 1000, 0);
        }
        a.insert(999, 7);
        assert_eq!(snapshot.len(), 1000);
        assert!((0..1000).all(|i| snapshot.get(&i) == Some(&i)));
        assert_eq!(a.get(&999), Some(&7));
        assert_eq!(a.get(&3), None);
    }
}
