//! `Trie<T>`: the storage of a persistent vector, a 32-way trie of full
//! leaves plus a tail, after Clojure's `PersistentVector`.
//!
//! Two shapes share one type. *Flat*: no trie, everything in the tail, of
//! any length; what bulk builders (`mapv`, `vec`, JSON arrays) produce, so
//! reading it is a plain slice. *Trie*: full 32-element leaves in the trie
//! and at most 32 elements in the tail; what a vector becomes the first time
//! a shared one of 32 elements or more is changed, so every later change of
//! a shared copy costs O(32 + log32 n) instead of a full copy. Nodes are
//! reference counted and changed in place when not shared
//! ([`Arc::make_mut`]), copied along one path when they are.

use std::sync::Arc;

const BITS: u32 = 5;
/// Elements per leaf and children per branch.
pub(crate) const WIDTH: usize = 1 << BITS;
const MASK: usize = WIDTH - 1;

#[derive(Clone)]
enum Node<T> {
    Branch(Vec<Arc<Node<T>>>),
    Leaf(Vec<T>),
}

/// See the module documentation. Cloning copies the tail and shares the trie.
#[derive(Clone)]
pub(crate) struct Trie<T> {
    /// Full leaves only; `None` in the flat shape.
    root: Option<Arc<Node<T>>>,
    /// Elements held by `root` (a multiple of [`WIDTH`]).
    root_len: usize,
    /// `BITS` times the number of branch levels above the leaves.
    shift: u32,
    tail: Vec<T>,
}

impl<T> Default for Trie<T> {
    fn default() -> Self {
        Trie { root: None, root_len: 0, shift: 0, tail: Vec::new() }
    }
}

impl<T: Clone> Trie<T> {
    /// A flat trie holding `items`.
    pub fn from_vec(items: Vec<T>) -> Self {
        Trie { root: None, root_len: 0, shift: 0, tail: items }
    }

    pub fn len(&self) -> usize {
        self.root_len + self.tail.len()
    }

    /// Whether everything sits in one slice (the flat shape).
    pub fn as_slice(&self) -> Option<&[T]> {
        self.root.is_none().then_some(&self.tail[..])
    }

    /// Whether a change to a shared copy should first move the tail into
    /// the trie (a flat vector of a full leaf or more).
    pub fn is_long_flat(&self) -> bool {
        self.root.is_none() && self.tail.len() >= WIDTH
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.root_len {
            return self.tail.get(i - self.root_len);
        }
        let mut node = self.root.as_deref()?;
        let mut level = self.shift;
        loop {
            match node {
                Node::Branch(children) => {
                    node = &children[(i >> level) & MASK];
                    level -= BITS;
                }
                Node::Leaf(items) => return Some(&items[i & MASK]),
            }
        }
    }

    /// The same elements in the trie shape (each element cloned once).
    pub fn to_trie_shape(&self) -> Self {
        let mut out = Trie { root: self.root.clone(), root_len: self.root_len, shift: self.shift, tail: Vec::new() };
        let mut chunks = self.tail.chunks_exact(WIDTH);
        for chunk in &mut chunks {
            out.push_leaf(chunk.to_vec());
        }
        out.tail = chunks.remainder().to_vec();
        out
    }

    /// Appends `x`. In the trie shape a full tail moves into the trie first.
    pub fn push(&mut self, x: T) {
        if self.root.is_some() && self.tail.len() >= WIDTH {
            let leaf = std::mem::replace(&mut self.tail, Vec::with_capacity(WIDTH));
            self.push_leaf(leaf);
        }
        self.tail.push(x);
    }

    fn push_leaf(&mut self, leaf: Vec<T>) {
        debug_assert_eq!(leaf.len(), WIDTH);
        let leaf = Node::Leaf(leaf);
        match &mut self.root {
            None => {
                self.root = Some(Arc::new(leaf));
                self.shift = 0;
            }
            Some(root) if self.root_len == 1 << (self.shift + BITS) => {
                // The trie is full: grow a level.
                let old = root.clone();
                let path = new_path(self.shift, leaf);
                *root = Arc::new(Node::Branch(vec![old, Arc::new(path)]));
                self.shift += BITS;
            }
            Some(root) => push_into(root, self.shift, self.root_len, leaf),
        }
        self.root_len += WIDTH;
    }

    /// Replaces element `i` (which must exist).
    pub fn set(&mut self, i: usize, x: T) {
        *self.get_mut(i) = x;
    }

    /// Element `i` (which must exist), copying the path to it if shared.
    pub fn get_mut(&mut self, i: usize) -> &mut T {
        if i >= self.root_len {
            return &mut self.tail[i - self.root_len];
        }
        let mut node = self.root.as_mut().expect("i < root_len means there is a root");
        let mut level = self.shift;
        loop {
            match Arc::make_mut(node) {
                Node::Branch(children) => {
                    node = &mut children[(i >> level) & MASK];
                    level -= BITS;
                }
                Node::Leaf(items) => return &mut items[i & MASK],
            }
        }
    }

    /// Removes and returns the last element.
    pub fn pop(&mut self) -> Option<T> {
        if self.tail.is_empty() {
            let root = self.root.as_mut()?;
            let (leaf, emptied) = pop_leaf(root);
            self.root_len -= WIDTH;
            if emptied {
                self.root = None;
                self.shift = 0;
            } else {
                while self.shift > 0 {
                    let only_child = match self.root.as_deref() {
                        Some(Node::Branch(children)) if children.len() == 1 => children[0].clone(),
                        _ => break,
                    };
                    self.root = Some(only_child);
                    self.shift -= BITS;
                }
            }
            self.tail = leaf;
        }
        self.tail.pop()
    }

    /// The elements in order, a slice at a time (leaves, then the tail).
    pub fn chunks(&self) -> Chunks<'_, T> {
        Chunks { stack: self.root.iter().map(|r| (&**r, 0)).collect(), tail: Some(&self.tail) }
    }

    /// Calls `f` with the address and elements of each leaf (the tail has
    /// no address of its own: it is counted with the vector that holds it).
    pub fn for_each_leaf<'a>(&'a self, mut f: impl FnMut(usize, &'a [T])) {
        let Some(root) = &self.root else { return };
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            match &**node {
                Node::Branch(children) => stack.extend(children.iter().rev()),
                Node::Leaf(items) => f(Arc::as_ptr(node) as usize, items),
            }
        }
    }

    /// The tail (all elements in the flat shape).
    pub fn tail(&self) -> &[T] {
        &self.tail
    }
}

/// A branch path from level `shift` down to `leaf`.
fn new_path<T>(shift: u32, leaf: Node<T>) -> Node<T> {
    if shift == 0 {
        leaf
    } else {
        Node::Branch(vec![Arc::new(new_path(shift - BITS, leaf))])
    }
}

/// Adds `leaf` as the leaf holding element `index` under `node` (a branch
/// at level `shift`, with room).
fn push_into<T: Clone>(node: &mut Arc<Node<T>>, shift: u32, index: usize, leaf: Node<T>) {
    let Node::Branch(children) = Arc::make_mut(node) else { unreachable!("only branches have room for a leaf") };
    let sub = (index >> shift) & MASK;
    if shift == BITS {
        children.push(Arc::new(leaf));
    } else if sub < children.len() {
        push_into(&mut children[sub], shift - BITS, index, leaf);
    } else {
        children.push(Arc::new(new_path(shift - BITS, leaf)));
    }
}

/// Takes the last leaf out of `node`; `true` when `node` is left empty.
fn pop_leaf<T: Clone>(node: &mut Arc<Node<T>>) -> (Vec<T>, bool) {
    match Arc::make_mut(node) {
        Node::Leaf(items) => (std::mem::take(items), true),
        Node::Branch(children) => {
            let last = children.last_mut().expect("branches are never empty");
            let (leaf, emptied) = pop_leaf(last);
            if emptied {
                children.pop();
            }
            (leaf, children.is_empty())
        }
    }
}

/// Iterator over a trie's elements one slice at a time.
pub(crate) struct Chunks<'a, T> {
    /// Nodes still to visit, with the next child index of each.
    stack: Vec<(&'a Node<T>, usize)>,
    tail: Option<&'a [T]>,
}

impl<'a, T> Iterator for Chunks<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        while let Some((node, i)) = self.stack.pop() {
            match node {
                Node::Leaf(items) => return Some(items),
                Node::Branch(children) => {
                    if let Some(child) = children.get(i) {
                        self.stack.push((node, i + 1));
                        self.stack.push((child, 0));
                    }
                }
            }
        }
        self.tail.take().filter(|t| !t.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(t: &Trie<usize>) -> Vec<usize> {
        t.chunks().flatten().copied().collect()
    }

    #[test]
    fn push_get_set_pop_agree_with_a_vec_in_both_shapes() {
        for start_flat in [0usize, 5, 40, 1100] {
            let mut model: Vec<usize> = (0..start_flat).collect();
            let mut t = Trie::from_vec(model.clone()).to_trie_shape();
            for i in 0..3000 {
                t.push(i);
                model.push(i);
            }
            assert_eq!(t.len(), model.len());
            assert_eq!(collect(&t), model);
            for i in (0..model.len()).step_by(7) {
                assert_eq!(t.get(i), Some(&model[i]));
                t.set(i, i * 10);
                model[i] = i * 10;
            }
            assert_eq!(t.get(model.len()), None);
            assert_eq!(collect(&t), model);
            while let Some(x) = t.pop() {
                assert_eq!(Some(x), model.pop());
                if model.len() % 97 == 0 {
                    assert_eq!(collect(&t), model);
                }
            }
            assert!(model.is_empty() && t.len() == 0 && t.root.is_none());
        }
    }

    #[test]
    fn a_shared_copy_is_never_changed() {
        let mut a = Trie::from_vec((0..100).collect::<Vec<usize>>()).to_trie_shape();
        let snapshot = a.clone();
        a.push(100);
        a.set(3, 0);
        a.pop();
        a.pop();
        assert_eq!(collect(&snapshot), (0..100).collect::<Vec<_>>());
        assert_eq!(a.get(3), Some(&0));
        assert_eq!(a.len(), 99);
    }

    #[test]
    fn flat_tries_are_slices_and_leaves_have_addresses() {
        let t = Trie::from_vec(vec![1, 2, 3]);
        assert_eq!(t.as_slice(), Some(&[1, 2, 3][..]));
        let big = Trie::from_vec((0..70).collect::<Vec<usize>>()).to_trie_shape();
        assert!(big.as_slice().is_none());
        assert_eq!(big.tail().len(), 6);
        let mut leaves = Vec::new();
        big.for_each_leaf(|addr, items| leaves.push((addr, items[0])));
        assert_eq!(leaves.iter().map(|l| l.1).collect::<Vec<_>>(), [0, 32]);
        assert_ne!(leaves[0].0, leaves[1].0);
    }
}
