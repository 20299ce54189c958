//! The evaluator: runs analyzed [`Node`]s against a frame of local slots.
//!
//! Non-local exits (`return`, `fail`, `recur`, `reduced`, errors) travel
//! as [`Ctl`] in the `Err` side of the result, so `?` unwinds them, a
//! `loop` turns a `recur` back into an iteration without growing the
//! stack, and a reduce ends where its reducing function says `reduced`. Every node
//! evaluated is a step; every 1024 steps the clock is checked.

use crate::analyze::{Bind, CaptureSrc, Clause, For, Lambda, Loop, Node, Span};
use crate::builtins::{self, Builtin};
use crate::error::ErrorKind;
use crate::interp::loop_limit;
pub(crate) use crate::interp::{fail, preview, Ctl, Interp, R};
use crate::value::{FnBody, Function, Value};
use std::sync::Arc;

/// A user function: its code plus the values it captured when created.
pub(crate) struct Closure {
    pub lambda: Arc<Lambda>,
    pub captures: Vec<Value>,
}

/// What a node sees: the slots of the running function, its captures and itself.
pub(crate) struct Env<'e> {
    pub locals: &'e mut [Value],
    pub captures: &'e [Value],
    pub self_fn: Option<&'e Arc<Function>>,
}

impl Interp<'_> {
    /// Evaluates a node. Kept small (rare forms live in [`Self::eval_other`])
    /// because its frame is paid once per nesting level of every call.
    pub fn eval(&mut self, node: &Node, env: &mut Env) -> R {
        self.steps += 1;
        if self.steps >= self.next_check {
            self.check_budget()?;
        }
        match node {
            Node::Const(v) => Ok(v.clone()),
            Node::Local(s) => Ok(env.locals[*s as usize].clone()),
            Node::Move(s) => Ok(std::mem::take(&mut env.locals[*s as usize])),
            Node::Capture(i) => Ok(env.captures[*i as usize].clone()),
            Node::If(b) => {
                let branch = if self.eval(&b[0], env)?.is_truthy() { 1 } else { 2 };
                self.eval(&b[branch], env)
            }
            Node::Let(binds, body) => {
                self.run_binds(binds, env)?;
                self.eval(body, env)
            }
            Node::CallBuiltin(b, args, span) => self.call_builtin(b, args, *span, env),
            Node::Call(f, args, span) => self.call_node(f, args, *span, env),
            _ => self.eval_other(node, env),
        }
    }

    /// [`Self::eval`] with constants and locals handled in line (most
    /// arguments are one or the other); the step is counted all the same.
    /// Inlined only when optimised: unoptimised, ten copies would bloat the
    /// frame that nested calls stack up.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_arg(&mut self, node: &Node, env: &mut Env) -> R {
        match node {
            Node::Const(v) => {
                self.charge(1)?;
                Ok(v.clone())
            }
            Node::Local(s) => {
                self.charge(1)?;
                Ok(env.locals[*s as usize].clone())
            }
            Node::Move(s) => {
                self.charge(1)?;
                Ok(std::mem::take(&mut env.locals[*s as usize]))
            }
            _ => self.eval(node, env),
        }
    }

    #[inline(never)]
    fn call_builtin(&mut self, b: &'static Builtin, args: &[Node], span: Span, env: &mut Env) -> R {
        // Few arguments live on the stack: most builtin calls allocate nothing.
        let r = match args {
            [a] => {
                let mut buf = [self.eval_arg(a, env)?];
                (b.f)(self, &mut buf)
            }
            [a, c] => {
                let x = self.eval_arg(a, env)?;
                let mut buf = [x, self.eval_arg(c, env)?];
                (b.f)(self, &mut buf)
            }
            [a, c, d] => {
                let x = self.eval_arg(a, env)?;
                let y = self.eval_arg(c, env)?;
                let mut buf = [x, y, self.eval_arg(d, env)?];
                (b.f)(self, &mut buf)
            }
            [a, c, d, e] => {
                let x = self.eval_arg(a, env)?;
                let y = self.eval_arg(c, env)?;
                let z = self.eval_arg(d, env)?;
                let mut buf = [x, y, z, self.eval_arg(e, env)?];
                (b.f)(self, &mut buf)
            }
            _ => {
                let mut argv = self.eval_args(args, env)?;
                let r = (b.f)(self, &mut argv);
                self.recycle(argv);
                r
            }
        };
        match r {
            Ok(v) => Ok(v),
            Err(c) => Err(c.at(span)),
        }
    }

    /// Calls `f` with a fixed number of arguments, without allocating when `f` is a builtin.
    #[inline]
    pub fn call_n<const N: usize>(&mut self, f: &Value, mut args: [Value; N]) -> R {
        if let Value::Fn(func) = f {
            if let Some(FnBody::Builtin(b)) = &func.body {
                if b.accepts(N) {
                    return (b.f)(self, &mut args);
                }
            }
        }
        let mut v = self.frame();
        v.extend(args);
        self.apply(f, v)
    }

    #[inline(never)]
    fn call_node(&mut self, f: &Node, args: &[Node], span: Span, env: &mut Env) -> R {
        let fv = self.eval(f, env)?;
        let argv = self.eval_args(args, env)?;
        match self.apply(&fv, argv) {
            Ok(v) => Ok(v),
            Err(c) => Err(c.at(span)),
        }
    }

    #[inline(never)]
    fn eval_other(&mut self, node: &Node, env: &mut Env) -> R {
        match node {
            Node::SelfFn => Ok(Value::Fn(env.self_fn.expect("SelfFn only appears inside a named fn").clone())),
            Node::Global(name, span) => self.global(name).map_err(|c| c.at(*span)),
            Node::Data(name, span) => self.data_value(name).map_err(|c| c.at(*span)),
            Node::Do(nodes) => {
                let (last, init) = nodes.split_last().expect("Do nodes are never empty");
                for n in init {
                    self.eval(n, env)?;
                }
                self.eval(last, env)
            }
            Node::Fn(lam) => Ok(make_closure(lam, env)),
            Node::Loop(l) => self.eval_loop(l, env),
            Node::Recur(args, slots) => {
                if let [arg] = &args[..] {
                    let v = self.eval(arg, env)?;
                    env.locals[slots[0] as usize] = v;
                } else {
                    let mut vals = self.eval_args(args, env)?;
                    for (v, &s) in vals.drain(..).zip(slots.iter()) {
                        env.locals[s as usize] = v;
                    }
                    self.recycle(vals);
                }
                Err(Ctl::Recur)
            }
            Node::And(nodes) => {
                let mut v = Value::Bool(true);
                for n in nodes {
                    v = self.eval(n, env)?;
                    if !v.is_truthy() {
                        break;
                    }
                }
                Ok(v)
            }
            Node::Or(nodes) => {
                let mut v = Value::Nil;
                for n in nodes {
                    v = self.eval(n, env)?;
                    if v.is_truthy() {
                        break;
                    }
                }
                Ok(v)
            }
            Node::Vector(items, span) => {
                let v = self.eval_elements(items, env).map_err(|c| c.at(*span))?;
                Ok(Value::Vector(crate::value::Vector::from(v)))
            }
            Node::Set(items, span) => {
                let v = self.eval_elements(items, env).map_err(|c| c.at(*span))?;
                Ok(Value::Set(v.into_iter().collect()))
            }
            Node::Map(pairs, span) => {
                let mut m = crate::value::Map::with_capacity(pairs.len());
                for (k, v) in pairs {
                    let k = self.eval(k, env)?;
                    let v = self.eval(v, env)?;
                    self.check_nesting(&k).and_then(|_| self.check_nesting(&v)).map_err(|c| c.at(*span))?;
                    m.insert(k, v);
                }
                Ok(Value::Map(m))
            }
            Node::Case(c) => {
                let v = self.eval(&c.subject, env)?;
                match c.table.get(&v) {
                    Some(&i) => self.eval(&c.branches[i], env),
                    None => match &c.default {
                        Some(d) => self.eval(d, env),
                        None => {
                            let message = format!(
                                "no case clause matches {}; a last expression without a test is the default: (case x 1 :one :other)",
                                preview(&v)
                            );
                            Err(fail(ErrorKind::Other, message).at(c.span))
                        }
                    },
                }
            }
            Node::Def(d) => {
                let v = self.eval(&d.value, env)?;
                self.define(&d.name, v.clone(), d.doc.clone(), d.defn);
                Ok(v)
            }
            Node::Tool(name, args, span) => {
                let argv = self.eval_args(args, env)?;
                self.call_tool(name, argv).map_err(|c| c.at(*span))
            }
            Node::Return(v) => Err(Ctl::Return(self.eval(v, env)?)),
            Node::Fail(v) => Err(Ctl::Fail(self.eval(v, env)?)),
            Node::For(f) => {
                let mut out = Some(Vec::new());
                self.run_for(f, 0, env, &mut out)?;
                Ok(Value::List(crate::value::Vector::from(out.unwrap_or_default())))
            }
            Node::Doseq(f) => {
                self.run_for(f, 0, env, &mut None)?;
                Ok(Value::Nil)
            }
            Node::Nth(slot, idx) => destructure_nth(&env.locals[*slot as usize], *idx),
            Node::RestFrom(slot, idx) => {
                let v = &env.locals[*slot as usize];
                let items = builtins::items(v, "destructuring")?;
                Ok(match items.get(*idx..) {
                    Some(rest) if !rest.is_empty() => Value::List(crate::value::Vector::from(rest.to_vec())),
                    _ => Value::Nil,
                })
            }
            Node::Const(_)
            | Node::Local(_)
            | Node::Move(_)
            | Node::Capture(_)
            | Node::If(_)
            | Node::Let(..)
            | Node::CallBuiltin(..)
            | Node::Call(..) => self.eval(node, env),
            Node::GetKey(slot, key, default) => {
                let found = match &env.locals[*slot as usize] {
                    Value::Map(m) => m.get(key).cloned(),
                    Value::Nil => None,
                    // `& {:keys [a]}` destructures keyword arguments, as in Clojure.
                    Value::List(kvs) => {
                        kvs.items().chunks(2).find(|kv| kv[0] == *key).and_then(|kv| kv.get(1).cloned())
                    }
                    other => {
                        return Err(fail(
                            ErrorKind::Type,
                            format!("map destructuring expects a map, got {}", preview(other)),
                        ))
                    }
                };
                match (found, default) {
                    (Some(v), _) => Ok(v),
                    (None, Some(d)) => self.eval(d, env),
                    (None, None) => Ok(Value::Nil),
                }
            }
        }
    }

    #[inline]
    fn eval_args(&mut self, args: &[Node], env: &mut Env) -> Result<Vec<Value>, Ctl> {
        let mut out = self.frame();
        for a in args {
            out.push(self.eval(a, env)?);
        }
        Ok(out)
    }

    fn eval_elements(&mut self, items: &[Node], env: &mut Env) -> Result<Vec<Value>, Ctl> {
        let mut out = Vec::with_capacity(items.len());
        for a in items {
            let v = self.eval(a, env)?;
            self.check_nesting(&v)?;
            out.push(v);
        }
        Ok(out)
    }

    #[inline]
    fn run_binds(&mut self, binds: &[Bind], env: &mut Env) -> Result<(), Ctl> {
        for b in binds {
            let v = self.eval(&b.value, env)?;
            env.locals[b.slot as usize] = v;
        }
        Ok(())
    }

    fn eval_loop(&mut self, l: &Loop, env: &mut Env) -> R {
        self.run_binds(&l.inits, env)?;
        let mut iterations = 0u64;
        loop {
            self.run_binds(&l.binds, env)?;
            match self.eval(&l.body, env) {
                Err(Ctl::Recur) => {
                    iterations += 1;
                    if iterations > self.limits.max_loop_iterations {
                        return Err(loop_limit(self.limits).at(l.span));
                    }
                }
                r => return r,
            }
        }
    }

    fn run_for(&mut self, f: &For, i: usize, env: &mut Env, out: &mut Option<Vec<Value>>) -> Result<bool, Ctl> {
        let Some(clause) = f.clauses.get(i) else {
            let v = self.eval(&f.body, env)?;
            if let Some(out) = out {
                self.check_len(out.len() + 1)?;
                self.check_nesting(&v)?;
                out.push(v);
            }
            return Ok(true);
        };
        match clause {
            Clause::Each { slot, coll, binds } => {
                let c = self.eval(coll, env)?;
                let items = builtins::items(&c, "for/doseq")?;
                for item in items.iter() {
                    env.locals[*slot as usize] = item.clone();
                    self.run_binds(binds, env)?;
                    if !self.run_for(f, i + 1, env, out)? {
                        break;
                    }
                }
                Ok(true)
            }
            Clause::Let(binds) => {
                self.run_binds(binds, env)?;
                self.run_for(f, i + 1, env, out)
            }
            Clause::When(test) => match self.eval(test, env)?.is_truthy() {
                true => self.run_for(f, i + 1, env, out),
                false => Ok(true),
            },
            Clause::While(test) => match self.eval(test, env)?.is_truthy() {
                true => self.run_for(f, i + 1, env, out),
                false => Ok(false),
            },
        }
    }

    /// Calls any callable value: functions, keywords, maps, sets, vectors.
    pub fn apply(&mut self, f: &Value, mut args: Vec<Value>) -> R {
        if let Value::Fn(func) = f {
            match &func.body {
                Some(FnBody::Closure(c)) => return self.call_closure(func, c, args),
                Some(FnBody::Builtin(b)) if b.accepts(args.len()) => {
                    let r = (b.f)(self, &mut args);
                    self.recycle(args);
                    return r;
                }
                _ => {}
            }
        }
        self.apply_other(f, args)
    }

    #[inline(never)]
    fn apply_other(&mut self, f: &Value, mut args: Vec<Value>) -> R {
        match f {
            Value::Fn(func) => match &func.body {
                Some(FnBody::Builtin(b)) => {
                    if !b.accepts(args.len()) {
                        return Err(fail(ErrorKind::Arity, builtins::arity_message(b, args.len())));
                    }
                    (b.f)(self, &mut args)
                }
                Some(FnBody::Closure(c)) => self.call_closure(func, c, args),
                Some(FnBody::Native(n)) => {
                    self.enter()?;
                    let r = builtins::call_native(self, n, args);
                    self.depth -= 1;
                    r
                }
                Some(FnBody::Regex(_)) => {
                    Err(fail(ErrorKind::Type, "a regex is not a function; use re-find or re-matches"))
                }
                None => Err(fail(
                    ErrorKind::Type,
                    format!("{} was restored from a saved session without its code and cannot be called", preview(f)),
                )),
            },
            Value::Keyword(_) | Value::Map(_) | Value::Set(_) | Value::Vector(_) => builtins::call_collection(f, &args),
            other => Err(fail(ErrorKind::Type, format!("{} is not a function", preview(other)))),
        }
    }

    fn call_closure(&mut self, func: &Arc<Function>, c: &Closure, mut args: Vec<Value>) -> R {
        let lam = &c.lambda;
        let n = args.len();
        let Some(arity) = lam.arities.iter().find(|a| n == a.fixed || (a.variadic && n >= a.fixed)) else {
            return Err(arity_error(lam, n));
        };
        self.enter()?;
        if arity.variadic {
            pack_rest(&mut args, arity.fixed);
        }
        args.resize(arity.nslots as usize, Value::Nil);
        let mut env = Env { locals: &mut args, captures: &c.captures, self_fn: Some(func) };
        let mut iterations = 0u64;
        let r = loop {
            if let Err(e) = self.run_binds(&arity.binds, &mut env) {
                break Err(e);
            }
            match self.eval(&arity.body, &mut env) {
                Err(Ctl::Recur) => {
                    iterations += 1;
                    if iterations > self.limits.max_loop_iterations {
                        break Err(loop_limit(self.limits));
                    }
                }
                r => break r,
            }
        };
        self.depth -= 1;
        self.recycle(args);
        if lam.defn {
            if let Ok(v) = &r {
                self.track_return(func, v);
            }
        }
        r
    }

    /// Runs one top-level node in a fresh frame.
    pub fn run_top(&mut self, node: &Node, nslots: u32) -> R {
        let mut frame = vec![Value::Nil; nslots as usize];
        let mut env = Env { locals: &mut frame, captures: &[], self_fn: None };
        self.eval(node, &mut env)
    }
}

fn make_closure(lam: &Arc<Lambda>, env: &Env) -> Value {
    let captures = lam
        .captures
        .iter()
        .map(|c| match *c {
            CaptureSrc::Local(s) => env.locals[s as usize].clone(),
            CaptureSrc::Capture(i) => env.captures[i as usize].clone(),
            CaptureSrc::SelfFn => Value::Fn(env.self_fn.expect("SelfFn capture only inside a named fn").clone()),
        })
        .collect();
    let body = FnBody::Closure(Closure { lambda: lam.clone(), captures });
    Value::Fn(Arc::new(Function { desc: lam.desc.clone(), body: Some(body) }))
}

fn destructure_nth(v: &Value, idx: usize) -> R {
    match v {
        Value::Nil => Ok(Value::Nil),
        Value::Map(_) | Value::Set(_) => {
            Err(fail(ErrorKind::Type, format!("vector destructuring expects a sequence, got {}", preview(v))))
        }
        _ => Ok(builtins::items(v, "destructuring")?.get(idx).cloned().unwrap_or(Value::Nil)),
    }
}

#[inline(never)]
fn arity_error(lam: &Lambda, n: usize) -> Ctl {
    fail(ErrorKind::Arity, closure_arity_message(lam, n))
}

#[inline(never)]
fn pack_rest(args: &mut Vec<Value>, fixed: usize) {
    let rest = args.split_off(fixed);
    args.push(if rest.is_empty() { Value::Nil } else { Value::List(crate::value::Vector::from(rest)) });
}

fn closure_arity_message(lam: &Lambda, n: usize) -> String {
    let name = lam.desc.name.as_deref().unwrap_or("anonymous fn");
    let expected: Vec<String> = lam
        .arities
        .iter()
        .map(|a| if a.variadic { format!("{} or more", a.fixed) } else { a.fixed.to_string() })
        .collect();
    format!("wrong number of arguments ({n}) passed to {name}; expected {}", expected.join(" or "))
}
