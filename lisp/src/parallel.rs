//! `pmap` and `pcalls`: calls run at the same time, each in its own
//! interpreter on its own thread, at most [`Limits::max_parallel_tool_calls`]
//! at once, so independent tool calls overlap.
//!
//! What the turn records stays deterministic: each call collects its own
//! prints, tool calls and definitions, and they are merged in input order,
//! not completion order. Calls are started in input order, so every call
//! before a failing one has run to its end: the error reported is always
//! the first failing call in input order. All interpreters share the step
//! budget and the deadline. A nested `pmap` inside a call, or a tool host
//! whose calls must not overlap, runs the calls one after another, with the
//! same results.
//!
//! [`Limits::max_parallel_tool_calls`]: crate::Limits::max_parallel_tool_calls

use crate::eval::{Ctl, Interp};
use crate::memory::Memory;
use crate::record::{Definition, ToolCallRecord};
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Stack of a worker thread: the evaluator stops at 1 MiB below its entry.
const WORKER_STACK: usize = 4 * 1024 * 1024;

/// One call to run: a function and its arguments.
pub(crate) type Call = (Value, Vec<Value>);

/// What one call did.
struct Forked {
    result: Result<Value, Ctl>,
    prints: Vec<String>,
    tool_calls: Vec<ToolCallRecord>,
    definitions: Vec<Definition>,
    /// `defn` functions made by the call: (address, index into `definitions`).
    defn_fns: Vec<(usize, usize)>,
    last_returns: Vec<(usize, Value)>,
}

/// What a call's interpreter starts from.
struct Seed<'a> {
    parent: &'a Interp<'a>,
    ns: Memory,
}

impl Seed<'_> {
    /// Runs one call; `stack` is the caller's stack base and depth when the
    /// call runs on the caller's own thread.
    fn run(&self, (f, args): &Call, stack: Option<(usize, usize)>) -> Forked {
        let p = self.parent;
        let mut child = Interp::new(p.limits, self.ns.clone(), p.data, p.tools, p.budget);
        child.in_parallel = true;
        child.options = p.options;
        child.defn_fns = p.defn_fns.clone();
        let inherited = child.defn_fns.len();
        if let Some((base, depth)) = stack {
            child.continue_stack(base, depth);
        }
        let result = child.apply(f, args.clone()).and_then(|v| child.nested(v));
        child.flush();
        Forked {
            result,
            prints: child.prints,
            tool_calls: child.tool_calls,
            definitions: child.definitions,
            defn_fns: child.defn_fns.split_off(inherited),
            last_returns: child.last_returns,
        }
    }
}

impl Interp<'_> {
    /// Runs `calls` (see the module documentation); `who` names the
    /// builtin in errors. The results are in input order.
    pub(crate) fn run_parallel(&mut self, who: &str, calls: Vec<Call>) -> Result<Vec<Value>, Ctl> {
        let n = calls.len();
        self.check_len(n)?;
        self.flush();
        let workers = if self.in_parallel || !self.tools.concurrent() {
            1
        } else {
            self.limits.max_parallel_tool_calls.clamp(1, n.max(1))
        };
        let outcomes = {
            let seed = Seed { parent: self, ns: self.ns.clone() };
            if workers == 1 {
                let stack = Some(self.stack_position());
                let mut out = Vec::with_capacity(n);
                for call in &calls {
                    let forked = seed.run(call, stack);
                    let failed = forked.result.is_err();
                    out.push(Some(forked));
                    if failed {
                        break;
                    }
                }
                out
            } else {
                on_threads(&seed, &calls, workers)
            }
        };
        let mut results = Vec::with_capacity(n);
        let mut first_error = None;
        for (i, forked) in outcomes.into_iter().enumerate() {
            let Some(forked) = forked else { continue };
            self.merge(forked.prints, forked.tool_calls, forked.definitions, forked.defn_fns, forked.last_returns);
            match forked.result {
                Ok(v) => results.push(v),
                Err(e) if first_error.is_none() => first_error = Some(name_the_call(e, who, i, n)),
                Err(_) => {}
            }
        }
        self.check_budget()?;
        match first_error {
            Some(e) => Err(e),
            None => Ok(results),
        }
    }

    /// Takes in what one call recorded, after everything recorded so far.
    fn merge(
        &mut self,
        prints: Vec<String>,
        tool_calls: Vec<ToolCallRecord>,
        definitions: Vec<Definition>,
        defn_fns: Vec<(usize, usize)>,
        last_returns: Vec<(usize, Value)>,
    ) {
        prints.into_iter().for_each(|line| self.keep_print(line));
        self.tool_calls.extend(tool_calls);
        let base = self.definitions.len();
        for d in definitions {
            self.ns.insert(d.name.as_str().into(), d.value.clone(), d.docstring.clone());
            self.definitions.push(d);
        }
        self.defn_fns.extend(defn_fns.into_iter().map(|(addr, i)| (addr, base + i)));
        for (addr, v) in last_returns {
            match self.last_returns.iter_mut().find(|(a, _)| *a == addr) {
                Some(slot) => slot.1 = v,
                None => self.last_returns.push((addr, v)),
            }
        }
    }
}

/// Runs the calls on `workers` threads taking them in input order; after a
/// failure no new call starts. `None` for calls that never started.
fn on_threads(seed: &Seed, calls: &[Call], workers: usize) -> Vec<Option<Forked>> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let slots: Vec<Mutex<Option<Forked>>> = calls.iter().map(|_| Mutex::new(None)).collect();
    let work = || loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(call) = calls.get(i) else { break };
        let forked = seed.run(call, None);
        if forked.result.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(forked);
    };
    std::thread::scope(|scope| {
        let started = (0..workers)
            .filter(|_| std::thread::Builder::new().stack_size(WORKER_STACK).spawn_scoped(scope, work).is_ok())
            .count();
        if started == 0 {
            // No thread could be started: run them here, one after another.
            work();
        }
    });
    slots.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

/// An error of call `i` of `n`, saying which call it was.
fn name_the_call(ctl: Ctl, who: &str, i: usize, n: usize) -> Ctl {
    match ctl {
        Ctl::Error(mut e) => {
            e.message = format!("{who}: call {} of {n} failed: {}", i + 1, e.message);
            Ctl::Error(e)
        }
        other => other,
    }
}
