//! Last uses: a read of a local that no later step of its frame can follow
//! with another read of the same slot becomes [`Node::Move`], which takes
//! the value out of the slot instead of cloning it.
//!
//! This is what makes `(loop [acc []] ... (recur (conj acc x)))` and
//! `(reduce (fn [m x] (assoc m ...)) {} xs)` change their collection in
//! place: without it the slot still holds the old value while `conj` runs,
//! so the collection is shared and must be copied (persistently, but
//! still copied). A backward pass over each frame in evaluation order keeps
//! the set of slots that may still be read ("live"); a read of a slot that
//! is not live is its last use. Branches are exclusive; a `recur` makes its
//! loop's slots dead (it overwrites them) and everything else the loop
//! reads live (the next iteration reads it); `for`/`doseq` bodies, which
//! run many times, are left alone. When in doubt a slot counts as live: a
//! missed move costs a copy, a wrong one would lose a value.

use crate::analyze::{Arity, Bind, CaptureSrc, Clause, Node};

/// A set of frame slots.
#[derive(Clone, Default)]
struct Live(Vec<u64>);

impl Live {
    fn has(&self, s: u32) -> bool {
        self.0.get(s as usize / 64).is_some_and(|w| w & (1 << (s % 64)) != 0)
    }

    fn add(&mut self, s: u32) {
        let i = s as usize / 64;
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] |= 1 << (s % 64);
    }

    fn remove(&mut self, s: u32) {
        if let Some(w) = self.0.get_mut(s as usize / 64) {
            *w &= !(1 << (s % 64));
        }
    }

    fn union(&mut self, other: &Live) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// Marks last uses in a top-level form (its frame ends with it).
pub(crate) fn mark_top_level(node: &mut Node) {
    walk(node, &mut Live::default(), &mut Vec::new());
}

/// Marks last uses in one arity of a function: its parameters are the
/// slots `recur` rewrites, and the frame ends with the body.
pub(crate) fn mark_arity(arity: &mut Arity, params: &[u32]) {
    let mut at_recur = Live::default();
    mentions(&arity.body, &mut at_recur);
    arity.binds.iter().for_each(|b| mentions_bind(b, &mut at_recur));
    params.iter().for_each(|&s| at_recur.remove(s));
    let mut cx = vec![at_recur];
    let mut live = Live::default();
    walk(&mut arity.body, &mut live, &mut cx);
    binds_backward(&mut arity.binds, &mut live, &mut cx);
}

fn binds_backward(binds: &mut [Bind], live: &mut Live, cx: &mut Vec<Live>) {
    for b in binds.iter_mut().rev() {
        live.remove(b.slot);
        walk(&mut b.value, live, cx);
    }
}

fn all_backward(nodes: &mut [Node], live: &mut Live, cx: &mut Vec<Live>) {
    for n in nodes.iter_mut().rev() {
        walk(n, live, cx);
    }
}

/// On entry `live` holds what may be read after `node`; on return, what
/// may be read from its start on. `cx` holds, per enclosing loop (innermost
/// last), what is live right after a `recur` to it.
fn walk(node: &mut Node, live: &mut Live, cx: &mut Vec<Live>) {
    match node {
        Node::Local(s) => {
            let s = *s;
            if !live.has(s) {
                *node = Node::Move(s);
            }
            live.add(s);
        }
        Node::Move(s) | Node::Nth(s, _) | Node::RestFrom(s, _) => live.add(*s),
        Node::GetKey(s, _, default) => {
            if let Some(d) = default {
                walk(d, live, cx);
            }
            live.add(*s);
        }
        Node::Const(_) | Node::Capture(_) | Node::SelfFn | Node::Global(..) | Node::Data(..) => {}
        Node::Vector(items, _) | Node::Set(items, _) | Node::Do(items) | Node::And(items) | Node::Or(items) => {
            all_backward(items, live, cx)
        }
        Node::Map(pairs, _) => {
            for (k, v) in pairs.iter_mut().rev() {
                walk(v, live, cx);
                walk(k, live, cx);
            }
        }
        Node::If(b) => {
            let [c, t, e] = &mut **b;
            let mut then_live = live.clone();
            walk(t, &mut then_live, cx);
            walk(e, live, cx);
            live.union(&then_live);
            walk(c, live, cx);
        }
        Node::Let(binds, body) => {
            walk(body, live, cx);
            binds_backward(binds, live, cx);
        }
        Node::Loop(l) => {
            let mut at_recur = live.clone();
            mentions(&l.body, &mut at_recur);
            l.binds.iter().for_each(|b| mentions_bind(b, &mut at_recur));
            l.inits.iter().for_each(|b| at_recur.remove(b.slot));
            cx.push(at_recur);
            walk(&mut l.body, live, cx);
            binds_backward(&mut l.binds, live, cx);
            cx.pop();
            binds_backward(&mut l.inits, live, cx);
        }
        Node::Recur(args, _) => {
            // The analyzer only accepts `recur` inside a loop or fn.
            *live = cx.last().cloned().unwrap_or_default();
            all_backward(args, live, cx);
        }
        Node::Fn(lambda) => {
            for c in &lambda.captures {
                if let CaptureSrc::Local(s) = c {
                    live.add(*s);
                }
            }
        }
        Node::Call(f, args, _) => {
            all_backward(args, live, cx);
            walk(f, live, cx);
        }
        Node::CallBuiltin(_, args, _) | Node::Tool(_, args, _) => all_backward(args, live, cx),
        Node::Case(c) => {
            let after = live.clone();
            // No clause matching is an error: nothing runs after it.
            let mut out = Live::default();
            for branch in c.branches.iter_mut().chain(c.default.as_mut()) {
                let mut l = after.clone();
                walk(branch, &mut l, cx);
                out.union(&l);
            }
            *live = out;
            walk(&mut c.subject, live, cx);
        }
        Node::Def(d) => walk(&mut d.value, live, cx),
        Node::Return(v) | Node::Fail(v) => walk(v, live, cx),
        // Bodies that run many times: everything they mention stays live
        // and nothing inside moves.
        Node::For(_) | Node::Doseq(_) => mentions(node, live),
    }
}

fn mentions_bind(b: &Bind, out: &mut Live) {
    out.add(b.slot);
    mentions(&b.value, out);
}

/// Adds every slot `node` reads or writes (a superset of what it reads).
fn mentions(node: &Node, out: &mut Live) {
    match node {
        Node::Local(s) | Node::Move(s) | Node::Nth(s, _) | Node::RestFrom(s, _) => out.add(*s),
        Node::GetKey(s, _, default) => {
            out.add(*s);
            if let Some(d) = default {
                mentions(d, out);
            }
        }
        Node::Const(_) | Node::Capture(_) | Node::SelfFn | Node::Global(..) | Node::Data(..) => {}
        Node::Vector(items, _) | Node::Set(items, _) | Node::Do(items) | Node::And(items) | Node::Or(items) => {
            items.iter().for_each(|n| mentions(n, out))
        }
        Node::Recur(items, slots) => {
            items.iter().for_each(|n| mentions(n, out));
            slots.iter().for_each(|&s| out.add(s));
        }
        Node::CallBuiltin(_, args, _) | Node::Tool(_, args, _) => args.iter().for_each(|n| mentions(n, out)),
        Node::Map(pairs, _) => pairs.iter().for_each(|(k, v)| {
            mentions(k, out);
            mentions(v, out)
        }),
        Node::If(b) => b.iter().for_each(|n| mentions(n, out)),
        Node::Let(binds, body) => {
            binds.iter().for_each(|b| mentions_bind(b, out));
            mentions(body, out);
        }
        Node::Loop(l) => {
            l.inits.iter().chain(&l.binds).for_each(|b| mentions_bind(b, out));
            mentions(&l.body, out);
        }
        Node::Fn(lambda) => {
            for c in &lambda.captures {
                if let CaptureSrc::Local(s) = c {
                    out.add(*s);
                }
            }
        }
        Node::Call(f, args, _) => {
            mentions(f, out);
            args.iter().for_each(|n| mentions(n, out));
        }
        Node::Case(c) => {
            mentions(&c.subject, out);
            c.branches.iter().chain(&c.default).for_each(|n| mentions(n, out));
        }
        Node::Def(d) => mentions(&d.value, out),
        Node::Return(v) | Node::Fail(v) => mentions(v, out),
        Node::For(f) | Node::Doseq(f) => {
            for clause in &f.clauses {
                match clause {
                    Clause::Each { slot, coll, binds } => {
                        out.add(*slot);
                        mentions(coll, out);
                        binds.iter().for_each(|b| mentions_bind(b, out));
                    }
                    Clause::Let(binds) => binds.iter().for_each(|b| mentions_bind(b, out)),
                    Clause::When(n) | Clause::While(n) => mentions(n, out),
                }
            }
            mentions(&f.body, out);
        }
    }
}
