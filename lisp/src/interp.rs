//! Interpreter state for one program run: limits and counters, the
//! namespace being built, what the turn records, and the error plumbing
//! ([`Ctl`]) shared by the evaluator and the builtins.

use crate::analyze::Span;
use crate::builtins;
use crate::error::{ErrorKind, LispError};
use crate::limits::Limits;
use crate::memory::Memory;
use crate::record::{Definition, RunOptions, ToolCallRecord, ToolHost};
use crate::value::{Function, Value};
use indexmap::IndexMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Native stack the evaluator may use below its entry point before it
/// reports `depth_limit` (test threads have 2 MiB; this leaves headroom).
const STACK_BUDGET: usize = 1024 * 1024;
/// Deepest nesting of values the evaluator builds (dropping and printing recurse).
pub(crate) const MAX_VALUE_DEPTH: usize = 500;
/// The options of a run that sets none.
static NO_OPTIONS: RunOptions = RunOptions { namespace_fallback: false, tool_names: Vec::new() };

/// Steps between clock checks.
const CHECK_EVERY: u64 = 1024;

/// Why evaluation stopped early.
pub(crate) enum Ctl {
    Error(Box<LispError>),
    Return(Value),
    Fail(Value),
    /// `recur`: the new values are already in the target slots.
    Recur,
    /// `(reduced x)`: ends the innermost `reduce`, `reduce-kv`,
    /// `reductions` or `transduce` whose reducing function it leaves, with `x`.
    Reduced(Value),
}

impl Ctl {
    /// Gives an error the position of `span` unless it already has one.
    pub fn at(self, span: Span) -> Ctl {
        match self {
            Ctl::Error(mut e) => {
                if e.line.is_none() {
                    e.line = Some(span.line);
                    e.column = Some(span.col);
                }
                Ctl::Error(e)
            }
            other => other,
        }
    }
}

impl From<LispError> for Ctl {
    fn from(e: LispError) -> Self {
        Ctl::Error(Box::new(e))
    }
}

/// The result of evaluating anything.
pub(crate) type R = Result<Value, Ctl>;

/// An error of `kind` with `message`, as a [`Ctl`].
pub(crate) fn fail(kind: ErrorKind, message: impl Into<String>) -> Ctl {
    Ctl::Error(Box::new(LispError::new(kind, message)))
}

/// What all the interpreters of one run share (the program's and those
/// `pmap`/`pcalls` start): the steps spent so far and the deadline.
pub(crate) struct Budget {
    spent: AtomicU64,
    deadline: Instant,
}

impl Budget {
    pub fn new(limits: &Limits) -> Budget {
        Budget { spent: AtomicU64::new(0), deadline: Instant::now() + limits.timeout }
    }
}

/// One program run's state: limits, counters, namespace and what the turn records.
pub(crate) struct Interp<'a> {
    pub limits: &'a Limits,
    /// Steps counted by this interpreter; `flushed` of them are in `budget`.
    pub(crate) steps: u64,
    flushed: u64,
    pub(crate) next_check: u64,
    pub(crate) budget: &'a Budget,
    pub(crate) depth: usize,
    stack_base: usize,
    /// Running one call of a `pmap`/`pcalls` (which then runs nested ones in turn).
    pub(crate) in_parallel: bool,
    pub ns: Memory,
    pub data: &'a IndexMap<String, Value>,
    pub tools: &'a dyn ToolHost,
    pub prints: Vec<String>,
    /// Bytes of `prints`, up to just past [`crate::limits::MAX_PRINT_BYTES`].
    print_bytes: usize,
    pub tool_calls: Vec<ToolCallRecord>,
    pub definitions: Vec<Definition>,
    /// Functions made by `defn` in this run: (function address, definition index).
    pub defn_fns: Vec<(usize, usize)>,
    /// Last value each tracked function returned: (function address, value).
    pub last_returns: Vec<(usize, Value)>,
    /// Spare argument vectors, so calls rarely allocate.
    pool: Vec<Vec<Value>>,
    /// How names resolve past the namespace (`namespace_fallback`).
    pub(crate) options: &'a RunOptions,
}

fn stack_marker() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl<'a> Interp<'a> {
    pub fn new(
        limits: &'a Limits,
        ns: Memory,
        data: &'a IndexMap<String, Value>,
        tools: &'a dyn ToolHost,
        budget: &'a Budget,
    ) -> Self {
        Interp {
            limits,
            steps: 0,
            flushed: 0,
            next_check: CHECK_EVERY.min(limits.max_steps.saturating_add(1)),
            budget,
            depth: 0,
            stack_base: stack_marker(),
            in_parallel: false,
            ns,
            data,
            tools,
            prints: Vec::new(),
            print_bytes: 0,
            tool_calls: Vec::new(),
            definitions: Vec::new(),
            defn_fns: Vec::new(),
            last_returns: Vec::new(),
            pool: Vec::new(),
            options: &NO_OPTIONS,
        }
    }

    /// Counts `n` steps of work (builtins charge for elements they build).
    #[inline]
    pub fn charge(&mut self, n: u64) -> Result<(), Ctl> {
        self.steps += n;
        if self.steps >= self.next_check {
            self.check_budget()?;
        }
        Ok(())
    }

    /// Adds this interpreter's new steps to the shared budget and checks
    /// the step and time limits; the next check comes after at most
    /// `CHECK_EVERY` steps, or exactly where the step limit would be passed
    /// if nothing else spends steps meanwhile.
    #[cold]
    pub fn check_budget(&mut self) -> Result<(), Ctl> {
        let spent = self.flush();
        if spent > self.limits.max_steps {
            return Err(fail(
                ErrorKind::StepLimit,
                format!("evaluation step limit ({}) reached; do less work per program", self.limits.max_steps),
            ));
        }
        self.check_clock()?;
        let left = self.limits.max_steps - spent;
        self.next_check = self.steps + CHECK_EVERY.min(left.saturating_add(1));
        Ok(())
    }

    /// Moves the steps not yet counted into the shared budget; returns the run's total.
    pub(crate) fn flush(&mut self) -> u64 {
        let delta = self.steps - self.flushed;
        self.flushed = self.steps;
        self.budget.spent.fetch_add(delta, Ordering::Relaxed) + delta
    }

    pub fn check_clock(&self) -> Result<(), Ctl> {
        if Instant::now() >= self.budget.deadline {
            return Err(fail(
                ErrorKind::Timeout,
                format!("program ran longer than {} ms", self.limits.timeout.as_millis()),
            ));
        }
        Ok(())
    }

    /// Keeps one print line, until the program's prints pass
    /// [`MAX_PRINT_BYTES`](crate::limits::MAX_PRINT_BYTES): then one line
    /// says the rest was dropped.
    pub(crate) fn keep_print(&mut self, line: String) {
        use crate::limits::{MAX_PRINT_BYTES, PRINTS_DROPPED};
        if self.print_bytes > MAX_PRINT_BYTES {
            return;
        }
        self.print_bytes += line.len();
        self.prints.push(if self.print_bytes > MAX_PRINT_BYTES { PRINTS_DROPPED.to_string() } else { line });
    }

    /// Fails with `size_limit` if a collection of `len` elements is too big.
    pub fn check_len(&self, len: usize) -> Result<(), Ctl> {
        if len > self.limits.max_collection_size {
            return Err(fail(
                ErrorKind::SizeLimit,
                format!("collection of {len} elements exceeds the limit of {}", self.limits.max_collection_size),
            ));
        }
        Ok(())
    }

    /// Fails with `size_limit` if a string of `bytes` bytes is too big.
    pub fn check_str(&self, bytes: usize) -> Result<(), Ctl> {
        if bytes > self.limits.max_string_bytes {
            return Err(fail(
                ErrorKind::SizeLimit,
                format!("string of {bytes} bytes exceeds the limit of {}", self.limits.max_string_bytes),
            ));
        }
        Ok(())
    }

    /// Fails if putting `v` inside a new collection would nest values too deeply.
    pub fn check_nesting(&self, v: &Value) -> Result<(), Ctl> {
        if crate::walk::depth_exceeds(v, MAX_VALUE_DEPTH - 1) {
            return Err(fail(ErrorKind::SizeLimit, format!("values nested more than {MAX_VALUE_DEPTH} levels deep")));
        }
        Ok(())
    }

    /// `v`, checked by [`Interp::check_nesting`]: for values a function
    /// returned that go into a new collection.
    pub fn nested(&self, v: Value) -> Result<Value, Ctl> {
        self.check_nesting(&v)?;
        Ok(v)
    }

    /// An empty argument vector, reusing one from an earlier call when possible.
    #[inline]
    pub fn frame(&mut self) -> Vec<Value> {
        self.pool.pop().unwrap_or_default()
    }

    /// Returns an argument vector to the pool (its values are dropped now).
    #[inline]
    pub fn recycle(&mut self, mut v: Vec<Value>) {
        v.clear();
        if self.pool.len() < 32 && v.capacity() <= 64 {
            self.pool.push(v);
        }
    }

    pub(crate) fn global(&self, name: &str) -> R {
        match self.ns.get(name) {
            Some(entry) => Ok(entry.value.clone()),
            None if self.options.namespace_fallback => self.fallback(name),
            None => {
                let hint = builtins::unbound_hint(name, self.ns.iter().map(|(n, _)| n));
                Err(fail(ErrorKind::UnboundSymbol, format!("unable to resolve symbol `{name}`{hint}")))
            }
        }
    }

    /// NS-004/005/007: a bare name no definition has is `tool/NAME` (a
    /// function calling the tool) or `data/NAME`; both is an error.
    #[cold]
    fn fallback(&self, name: &str) -> R {
        let tool = self.options.tool_names.iter().any(|t| t == name);
        match (tool, self.data.get(name)) {
            (true, Some(_)) => Err(fail(
                ErrorKind::UnboundSymbol,
                format!("Symbol '{name}' exists in both tool/ and data/ namespaces. Use explicit namespace."),
            )),
            (true, None) => Ok(builtins::seq::native(name, builtins::native::NativeKind::Tool, vec![Value::str(name)])),
            (false, Some(v)) => Ok(v.clone()),
            (false, None) => {
                let defined = self.ns.iter().map(|(n, _)| n);
                let offered =
                    self.options.tool_names.iter().map(String::as_str).chain(self.data.keys().map(String::as_str));
                let hint = builtins::unbound_hint(name, defined.chain(offered));
                Err(fail(
                    ErrorKind::UnboundSymbol,
                    format!("unable to resolve symbol `{name}` (not a definition, a tool or input data){hint}"),
                ))
            }
        }
    }

    pub(crate) fn data_value(&self, name: &str) -> R {
        match self.data.get(name) {
            Some(v) => Ok(v.clone()),
            None => {
                let names: Vec<&str> = self.data.keys().map(String::as_str).collect();
                let available = if names.is_empty() { "none".to_string() } else { names.join(", ") };
                Err(fail(
                    ErrorKind::UnboundSymbol,
                    format!("no input data named `data/{name}`; available: {available}"),
                ))
            }
        }
    }

    pub(crate) fn define(&mut self, name: &Arc<str>, value: Value, doc: Option<Arc<str>>, defn: bool) {
        if defn {
            if let Value::Fn(f) = &value {
                self.defn_fns.push((Arc::as_ptr(f) as usize, self.definitions.len()));
            }
        }
        self.definitions.push(Definition {
            name: name.to_string(),
            value: value.clone(),
            docstring: doc.as_deref().map(str::to_string),
            return_type: None,
        });
        self.ns.insert(name.clone(), value, doc.as_deref().map(str::to_string));
    }

    /// Where this interpreter's stack starts and how deep it is.
    pub(crate) fn stack_position(&self) -> (usize, usize) {
        (self.stack_base, self.depth)
    }

    /// Counts depth and stack from a caller running on the same thread.
    pub(crate) fn continue_stack(&mut self, base: usize, depth: usize) {
        self.stack_base = base;
        self.depth = depth;
    }

    pub(crate) fn enter(&mut self) -> Result<(), Ctl> {
        self.depth += 1;
        if self.depth > self.limits.max_depth || self.stack_base.saturating_sub(stack_marker()) > STACK_BUDGET {
            self.depth -= 1;
            return Err(depth_error(self.limits));
        }
        Ok(())
    }

    pub(crate) fn track_return(&mut self, func: &Arc<Function>, v: &Value) {
        let addr = Arc::as_ptr(func) as usize;
        if !self.defn_fns.iter().any(|(a, _)| *a == addr) {
            return;
        }
        match self.last_returns.iter_mut().find(|(a, _)| *a == addr) {
            Some(slot) => slot.1 = v.clone(),
            None => self.last_returns.push((addr, v.clone())),
        }
    }
}

#[inline(never)]
pub(crate) fn depth_error(limits: &Limits) -> Ctl {
    fail(
        ErrorKind::DepthLimit,
        format!("call depth limit ({}) reached; is a recursion missing its base case?", limits.max_depth),
    )
}

#[inline(never)]
pub(crate) fn loop_limit(limits: &Limits) -> Ctl {
    fail(
        ErrorKind::LoopLimit,
        format!("loop ran more than {} iterations; is the exit condition reachable?", limits.max_loop_iterations),
    )
}

/// A value shortened for an error message: type and a bounded rendering.
pub(crate) fn preview(v: &Value) -> String {
    let mut s = String::new();
    let _ = crate::print::write_value(&mut LimitedWriter { out: &mut s, left: 60 }, v, true, 0);
    if s.len() >= 60 {
        s.push_str("...");
    }
    // `nil` names its type already: "got nil", not "got nil nil".
    if s == v.type_name() {
        s
    } else {
        format!("{} {}", v.type_name(), s)
    }
}

struct LimitedWriter<'s> {
    out: &'s mut String,
    left: usize,
}

impl std::fmt::Write for LimitedWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for c in s.chars() {
            if self.left == 0 {
                return Err(std::fmt::Error);
            }
            self.out.push(c);
            self.left -= 1;
        }
        Ok(())
    }
}
