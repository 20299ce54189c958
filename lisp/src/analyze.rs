//! Analysis: forms into a tree of [`Node`]s the evaluator runs directly.
//!
//! Locals are resolved here to frame slots, so evaluation never looks a
//! local up by name; a closure copies the values it captures when it is
//! created. Global (user namespace) names resolve at run time, because a
//! `defn` may refer to one defined later in the same program. Special forms
//! live in `special.rs`, destructuring in `pattern.rs`.

use crate::builtins::{self, Builtin};
use crate::error::{ErrorKind, LispError};
use crate::form::{form_to_value, Form, FormKind};
use crate::value::{FnDesc, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// How deep analysis may recurse (threading macros can nest past the reader's bound).
const MAX_ANALYSIS_DEPTH: usize = 300;

/// A source position.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span {
    pub line: u32,
    pub col: u32,
}

impl Span {
    pub fn of(form: &Form) -> Span {
        Span { line: form.line, col: form.col }
    }
}

/// An analyzed expression.
pub(crate) enum Node {
    Const(Value),
    Local(u32),
    /// The last read of a local: takes the value out of its slot (see `last_use`).
    Move(u32),
    Capture(u32),
    /// The function currently running, referred to by its own `fn` name.
    SelfFn,
    Global(Arc<str>, Span),
    Data(Arc<str>, Span),
    Vector(Vec<Node>, Span),
    Set(Vec<Node>, Span),
    Map(Vec<(Node, Node)>, Span),
    If(Box<[Node; 3]>),
    Do(Vec<Node>),
    Let(Vec<Bind>, Box<Node>),
    Loop(Box<Loop>),
    Recur(Vec<Node>, Arc<[u32]>),
    Fn(Arc<Lambda>),
    Call(Box<Node>, Vec<Node>, Span),
    CallBuiltin(&'static Builtin, Vec<Node>, Span),
    And(Vec<Node>),
    Or(Vec<Node>),
    Case(Box<Case>),
    Def(Box<Def>),
    Tool(Arc<str>, Vec<Node>, Span),
    Return(Box<Node>),
    Fail(Box<Node>),
    For(Box<For>),
    Doseq(Box<For>),
    /// Destructuring: element `idx` of the value in a slot (nil past the end).
    Nth(u32, usize),
    /// Destructuring: the elements from `idx` on, as a list, or nil if none.
    RestFrom(u32, usize),
    /// Destructuring: a key of the map in a slot, with an optional default.
    GetKey(u32, Value, Option<Box<Node>>),
}

/// Evaluate `value` and store it in `slot`.
pub(crate) struct Bind {
    pub slot: u32,
    pub value: Node,
}

pub(crate) struct Loop {
    /// Initial values of the loop's slots (the recur targets).
    pub inits: Vec<Bind>,
    /// Destructuring of those slots, run at the start of each iteration.
    pub binds: Vec<Bind>,
    pub body: Node,
    pub span: Span,
}

/// A compiled `fn`: one or more arities plus where its captures come from.
pub(crate) struct Lambda {
    pub desc: FnDesc,
    pub arities: Vec<Arity>,
    pub captures: Vec<CaptureSrc>,
    /// Made by `defn`: its return values are tracked for return-type capture.
    pub defn: bool,
}

pub(crate) struct Arity {
    pub fixed: usize,
    pub variadic: bool,
    pub nslots: u32,
    pub binds: Vec<Bind>,
    pub body: Node,
}

/// Where a closure finds a captured value when it is created.
#[derive(Clone, Copy)]
pub(crate) enum CaptureSrc {
    Local(u32),
    Capture(u32),
    SelfFn,
}

pub(crate) struct Case {
    pub subject: Node,
    pub table: HashMap<Value, usize>,
    pub branches: Vec<Node>,
    pub default: Option<Node>,
    pub span: Span,
}

pub(crate) struct Def {
    pub name: Arc<str>,
    pub doc: Option<Arc<str>>,
    pub value: Node,
    pub defn: bool,
}

/// A `for` / `doseq` comprehension.
pub(crate) struct For {
    pub clauses: Vec<Clause>,
    pub body: Node,
}

pub(crate) enum Clause {
    Each { slot: u32, coll: Node, binds: Vec<Bind> },
    Let(Vec<Bind>),
    When(Node),
    While(Node),
}

/// A local a name refers to, seen from the current function.
#[derive(Clone, Copy)]
enum LocalRef {
    Slot(u32),
    Capture(u32),
    SelfFn,
}

/// One function being analyzed (the top level counts as one).
#[derive(Default)]
pub(crate) struct Scope {
    pub names: Vec<(Arc<str>, u32)>,
    pub nslots: u32,
    pub captures: Vec<(Arc<str>, CaptureSrc)>,
    pub self_name: Option<Arc<str>>,
    pub recur: Option<Arc<[u32]>>,
}

/// Turns forms into nodes; one per top-level form.
pub(crate) struct Analyzer {
    /// The top level's scope (kept apart so analyzing a form with no `fn` allocates no scope stack).
    top: Scope,
    /// Scopes of the `fn`s being analyzed, innermost last.
    fns: Vec<Scope>,
    depth: usize,
    /// The user names the form refers to (resolved at run time), in order.
    globals: Vec<(Arc<str>, Span)>,
}

pub(crate) type AResult<T> = Result<T, LispError>;

/// An analyzed top-level form ([`Analyzer::top_level`]).
pub(crate) struct TopLevel {
    pub node: Node,
    pub slots: u32,
    /// The user names it refers to, resolved when it runs.
    pub globals: Vec<(Arc<str>, Span)>,
}

/// An error at a form's position.
pub(crate) fn err_at(form: &Form, kind: ErrorKind, message: impl Into<String>) -> LispError {
    LispError::new(kind, message).at(form.line, form.col)
}

/// A malformed special form: what was expected.
pub(crate) fn syntax(form: &Form, message: impl Into<String>) -> LispError {
    err_at(form, ErrorKind::Other, message)
}

/// Why `ns/x` resolves to nothing, and what to write instead: the
/// libraries a model reaches for (JSON, dates) get their own next step.
fn unknown_namespace(ns: &str, name: &str) -> String {
    let next = match ns {
        "json" | "clojure.data.json" | "cheshire.core" | "cheshire" | "jsonista.core" | "charred.api" => {
            "PTC-Lisp has no JSON functions: tool results and data/x arrive as values already (maps with keyword keys); take text apart with re-find, re-seq or str/split"
        }
        "clojure.instant" | "java-time" | "tick.core" | "clj-time.core" | "clj-time.format" => crate::special::NO_DATES,
        "clojure.data" if name.ends_with("/diff") => {
            "PTC-Lisp has no diff: compare with =, and find what differs with set/difference of two sets (of keys, entries or rows) or (filter (fn [[k v]] (not= v (get b k))) a)"
        }
        "edn" | "clojure.edn" => {
            "PTC-Lisp has no reader: tool results and data/x arrive as values already; take text apart with re-find, re-seq or str/split"
        }
        _ => "the namespaces are str/ (clojure.string), set/ (clojure.set), math/ (Math/, clojure.math), data/ for input data and tool/ to call tools; other functions are core, with no prefix",
    };
    format!("unknown namespace `{ns}` in `{name}`: {next}")
}

/// Why `#tag value` is left out of programs, and what to write instead.
fn tagged_literal(tag: &str, value: &Form) -> String {
    let text = crate::form::form_text(value);
    let next = match tag {
        "inst" => format!("write the string {text} instead ({})", crate::special::NO_DATES),
        "uuid" => format!("there is no UUID type: write the string {text}"),
        _ => "there are no tagged values: write the value itself (a string, number or map)".to_string(),
    };
    format!("tagged literal #{tag} is not supported in programs; {next}")
}

/// Names from namespaces that resolve to builtins: `str/join` is `join`
/// (the usual aliases too: `walk/postwalk` is `postwalk`).
fn builtin_namespace(ns: &str) -> bool {
    matches!(
        ns,
        "clojure.string"
            | "str"
            | "string"
            | "s"
            | "clojure.set"
            | "set"
            | "clojure.core"
            | "core"
            | "clojure.walk"
            | "walk"
            | "clojure.pprint"
            | "pprint"
            | "pp"
            | "clojure.math"
            | "Math"
            | "math"
    )
}

impl Analyzer {
    /// Analyzes one top-level form: its node, the frame size it needs, and
    /// the user names it refers to, each with where ([`crate::program`] checks them before
    /// the form runs, as Clojure compiles a form before running it).
    pub fn top_level(form: &Form) -> AResult<TopLevel> {
        let mut a = Analyzer { top: Scope::default(), fns: Vec::new(), depth: 0, globals: Vec::new() };
        let mut node = a.analyze(form, false)?;
        crate::last_use::mark_top_level(&mut node);
        Ok(TopLevel { node, slots: a.top.nslots, globals: a.globals })
    }

    /// The innermost scope.
    pub fn scope(&mut self) -> &mut Scope {
        self.fns.last_mut().unwrap_or(&mut self.top)
    }

    /// The scope at `depth` (0 is the top level).
    fn scope_at(&mut self, depth: usize) -> &mut Scope {
        match depth {
            0 => &mut self.top,
            d => &mut self.fns[d - 1],
        }
    }

    pub fn new_slot(&mut self) -> u32 {
        let s = self.scope();
        s.nslots += 1;
        s.nslots - 1
    }

    pub fn declare(&mut self, name: &str, slot: u32) {
        self.scope().names.push((name.into(), slot));
    }

    pub fn analyze(&mut self, form: &Form, tail: bool) -> AResult<Node> {
        self.depth += 1;
        if self.depth > MAX_ANALYSIS_DEPTH {
            self.depth -= 1;
            return Err(err_at(form, ErrorKind::DepthLimit, "expression nests too deeply; split it with let"));
        }
        let r = self.analyze_inner(form, tail);
        self.depth -= 1;
        r
    }

    fn analyze_inner(&mut self, form: &Form, tail: bool) -> AResult<Node> {
        let span = Span::of(form);
        Ok(match &form.kind {
            FormKind::Int(i) => Node::Const(Value::Int(*i)),
            FormKind::Symbol(name) => self.symbol(form, name)?,
            FormKind::List(items) if items.is_empty() => {
                Node::Const(Value::List(crate::value::Vector::new().into_list()))
            }
            FormKind::List(items) => self.list(form, items, tail)?,
            FormKind::Vector(items) => {
                let nodes = self.all(items)?;
                constant_or(nodes, span, |v| Value::Vector(crate::value::Vector::from(v)), Node::Vector)
            }
            FormKind::Set(items) => {
                let nodes = self.all(items)?;
                constant_or(nodes, span, |v| Value::Set(v.into_iter().collect()), Node::Set)
            }
            FormKind::Map(items) => {
                let nodes = self.all(items)?;
                if nodes.iter().all(|n| matches!(n, Node::Const(_))) {
                    let vals: Vec<Value> = nodes.into_iter().map(const_value).collect();
                    let mut it = vals.into_iter();
                    let mut m = crate::value::Map::new();
                    while let (Some(k), Some(v)) = (it.next(), it.next()) {
                        m.insert(k, v);
                    }
                    Node::Const(Value::Map(m))
                } else {
                    let mut it = nodes.into_iter();
                    let mut pairs = Vec::new();
                    while let (Some(k), Some(v)) = (it.next(), it.next()) {
                        pairs.push((k, v));
                    }
                    Node::Map(pairs, span)
                }
            }
            FormKind::Regex(src) => Node::Const(builtins::regex::compile(src).map_err(|m| syntax(form, m))?),
            FormKind::Tagged(tag, inner) => {
                return Err(err_at(form, ErrorKind::Unsupported, tagged_literal(tag, inner)))
            }
            _ => Node::Const(form_to_value(form)?),
        })
    }

    pub fn all(&mut self, forms: &[Form]) -> AResult<Vec<Node>> {
        let mut nodes = Vec::with_capacity(forms.len());
        for f in forms {
            nodes.push(match f.kind {
                // Numbers are common arguments; this skips a call (the depth check still holds).
                FormKind::Int(i) if self.depth < MAX_ANALYSIS_DEPTH => Node::Const(Value::Int(i)),
                _ => self.analyze(f, false)?,
            });
        }
        Ok(nodes)
    }

    /// A body of several forms: the last is in tail position.
    pub fn body(&mut self, forms: &[Form], tail: bool) -> AResult<Node> {
        match forms {
            [] => Ok(Node::Const(Value::Nil)),
            [one] => self.analyze(one, tail),
            [init @ .., last] => {
                let mut nodes = Vec::with_capacity(forms.len());
                for f in init {
                    nodes.push(self.analyze(f, false)?);
                }
                nodes.push(self.analyze(last, tail)?);
                Ok(Node::Do(nodes))
            }
        }
    }

    fn resolve_local(&mut self, depth: usize, name: &str) -> Option<LocalRef> {
        let scope = self.scope_at(depth);
        if let Some(&(_, slot)) = scope.names.iter().rev().find(|(n, _)| &**n == name) {
            return Some(LocalRef::Slot(slot));
        }
        if scope.self_name.as_deref() == Some(name) {
            return Some(LocalRef::SelfFn);
        }
        if let Some(i) = scope.captures.iter().position(|(n, _)| &**n == name) {
            return Some(LocalRef::Capture(i as u32));
        }
        if depth == 0 {
            return None;
        }
        let src = match self.resolve_local(depth - 1, name)? {
            LocalRef::Slot(s) => CaptureSrc::Local(s),
            LocalRef::Capture(i) => CaptureSrc::Capture(i),
            LocalRef::SelfFn => CaptureSrc::SelfFn,
        };
        let captures = &mut self.scope_at(depth).captures;
        captures.push((name.into(), src));
        Some(LocalRef::Capture(captures.len() as u32 - 1))
    }

    pub fn local(&mut self, name: &str) -> Option<Node> {
        if self.fns.is_empty() && self.top.names.is_empty() {
            // Nothing is bound (the top level has no self name or captures).
            return None;
        }
        let depth = self.fns.len();
        self.resolve_local(depth, name).map(|r| match r {
            LocalRef::Slot(s) => Node::Local(s),
            LocalRef::Capture(i) => Node::Capture(i),
            LocalRef::SelfFn => Node::SelfFn,
        })
    }

    fn symbol(&mut self, form: &Form, name: &str) -> AResult<Node> {
        if let Some(node) = self.local(name) {
            return Ok(node);
        }
        if let Some((ns, short)) = name.split_once('/').filter(|(ns, short)| !ns.is_empty() && !short.is_empty()) {
            return match ns {
                "data" => Ok(Node::Data(short.into(), Span::of(form))),
                "tool" => Err(syntax(form, format!("call tools directly: ({name} {{:arg value}})"))),
                _ if builtins::math_namespace(ns) && short == "PI" => {
                    Ok(Node::Const(Value::Float(std::f64::consts::PI)))
                }
                _ if builtins::math_namespace(ns) && short == "E" => Ok(Node::Const(Value::Float(std::f64::consts::E))),
                _ if builtin_namespace(ns) => match builtins::lookup_in(ns, short) {
                    Some(b) => Ok(Node::Const(builtins::value_of(b))),
                    None => Err(unbound(form, name)),
                },
                // `Integer/parseInt`, `java.time.LocalDate/parse`: a class.
                _ if ns.rsplit('.').next().is_some_and(|c| c.starts_with(|c: char| c.is_ascii_uppercase())) => {
                    let hint = crate::special::java_hint(ns, short);
                    Err(err_at(form, ErrorKind::Unsupported, format!("`{name}`: {hint}")))
                }
                _ => Err(err_at(form, ErrorKind::UnboundSymbol, unknown_namespace(ns, name))),
            };
        }
        if let Some(b) = builtins::lookup(name) {
            return Ok(Node::Const(builtins::value_of(b)));
        }
        if crate::special::is_special(name) {
            return Err(syntax(form, format!("`{name}` is a special form; use it as ({name} ...)")));
        }
        // Not a value either: `(map .toUpperCase xs)`, `(map shuffle xss)`
        // (such a name cannot be defined: `def_name`).
        if let Some(msg) = crate::special::unsupported(name) {
            return Err(err_at(form, ErrorKind::Unsupported, msg));
        }
        let name: Arc<str> = name.into();
        self.globals.push((name.clone(), Span::of(form)));
        Ok(Node::Global(name, Span::of(form)))
    }

    fn list(&mut self, form: &Form, items: &[Form], tail: bool) -> AResult<Node> {
        let head = &items[0];
        let args = &items[1..];
        let span = Span::of(form);
        // Most calls name a builtin directly: one lookup decides, with the same
        // outcome as the checks below (no builtin name has a namespace or `tool/`).
        if let Some(b) = head.as_symbol().and_then(builtins::lookup_call) {
            if self.local(b.name).is_none() {
                return self.builtin_call(form, b, args, span);
            }
        }
        if let Some(name) = head.as_symbol().filter(|n| self.local(n).is_none()) {
            if crate::special::is_special(name) {
                return self.special(form, name, args, tail);
            }
            if let Some(msg) = crate::special::unsupported(name) {
                return Err(err_at(form, ErrorKind::Unsupported, msg));
            }
            if let Some(tool) = name.strip_prefix("tool/") {
                return Ok(Node::Tool(tool.into(), self.all(args)?, span));
            }
            {
                let builtin = match name.split_once('/') {
                    Some((ns, short)) if builtin_namespace(ns) && !short.is_empty() => {
                        Some(builtins::lookup_in(ns, short).ok_or_else(|| unbound(head, name))?)
                    }
                    _ => builtins::lookup(name),
                };
                if let Some(b) = builtin {
                    return self.builtin_call(form, b, args, span);
                }
            }
        }
        if matches!(
            head.kind,
            FormKind::Int(_) | FormKind::Float(_) | FormKind::Str(_) | FormKind::Nil | FormKind::Bool(_)
        ) {
            let v = form_to_value(head)?;
            let message = format!(
                "{} is not a function; data is written as a vector, [1 2 3], or a quoted list, '(1 2 3)",
                crate::interp::preview(&v)
            );
            return Err(err_at(form, ErrorKind::Type, message));
        }
        let f = self.analyze(head, false)?;
        Ok(Node::Call(Box::new(f), self.all(args)?, span))
    }

    fn builtin_call(&mut self, form: &Form, b: &'static Builtin, args: &[Form], span: Span) -> AResult<Node> {
        if !b.accepts(args.len()) {
            return Err(err_at(form, ErrorKind::Arity, builtins::arity_message(b, args.len())));
        }
        if b.name == "where" && args.len() == 3 {
            return self.where_call(b, args, span);
        }
        if builtins::introspect::TAKES_A_NAME.contains(&b.name) {
            if let Some(name) = args.first().and_then(referenced_name) {
                return Ok(Node::CallBuiltin(b, vec![Node::Const(Value::str(name))], span));
            }
        }
        Ok(Node::CallBuiltin(b, self.all(args)?, span))
    }

    /// `(where :field includes x)`: the operators without a builtin of their name read as keywords.
    fn where_call(&mut self, b: &'static Builtin, args: &[Form], span: Span) -> AResult<Node> {
        let mut nodes = Vec::with_capacity(3);
        for (i, a) in args.iter().enumerate() {
            nodes.push(match a.as_symbol() {
                Some(op @ ("includes" | "in")) if i == 1 && self.local(op).is_none() => Node::Const(Value::keyword(op)),
                _ => self.analyze(a, false)?,
            });
        }
        Ok(Node::CallBuiltin(b, nodes, span))
    }

    /// Analyzes a `fn`: `[params] body...` or `([params] body...)+`.
    pub fn lambda(
        &mut self,
        form: &Form,
        name: Option<Arc<str>>,
        doc: Option<Arc<str>>,
        arity_forms: &[Form],
        defn: bool,
    ) -> AResult<Node> {
        let mut shapes: Vec<(&[Form], &[Form])> = Vec::new();
        match arity_forms.first().map(|f| &f.kind) {
            Some(FormKind::Vector(params)) => shapes.push((params, &arity_forms[1..])),
            Some(FormKind::List(_)) => {
                for f in arity_forms {
                    match &f.kind {
                        FormKind::List(parts) => match parts.first().map(|p| &p.kind) {
                            Some(FormKind::Vector(params)) => shapes.push((params, &parts[1..])),
                            _ => return Err(syntax(f, "each arity must look like ([params] body...)")),
                        },
                        _ => return Err(syntax(f, "each arity must look like ([params] body...)")),
                    }
                }
            }
            _ => return Err(syntax(form, "fn needs a parameter vector, e.g. (fn [x] (* x 2))")),
        }
        self.fns.push(Scope { self_name: name.clone(), ..Scope::default() });
        let mut arities = Vec::new();
        let mut desc = FnDesc { name, docstring: doc, ..FnDesc::default() };
        for (i, (params, body)) in shapes.into_iter().enumerate() {
            let r = self.arity(form, params, body, if i == 0 { Some(&mut desc) } else { None });
            match r {
                Ok(a) => arities.push(a),
                Err(e) => {
                    self.fns.pop();
                    return Err(e);
                }
            }
        }
        let scope = self.fns.pop().expect("pushed above");
        let captures = scope.captures.into_iter().map(|(_, src)| src).collect();
        Ok(Node::Fn(Arc::new(Lambda { desc, arities, captures, defn })))
    }

    fn arity(&mut self, form: &Form, params: &[Form], body: &[Form], desc: Option<&mut FnDesc>) -> AResult<Arity> {
        {
            let s = self.scope();
            s.names.clear();
            s.nslots = 0;
        }
        let (fixed, rest) = match params.iter().position(|p| p.as_symbol() == Some("&")) {
            Some(i) if i + 2 == params.len() => (&params[..i], Some(&params[i + 1])),
            Some(_) => return Err(syntax(form, "`&` must be followed by exactly one parameter")),
            None => (params, None),
        };
        let mut slots: Vec<u32> = Vec::new();
        for _ in 0..fixed.len() + rest.iter().count() {
            slots.push(self.new_slot());
        }
        let mut binds = Vec::new();
        let mut names = Vec::new();
        for (p, &slot) in fixed.iter().chain(rest).zip(&slots) {
            names.push(crate::pattern::describe(p));
            self.bind_pattern(p, slot, &mut binds)?;
        }
        if let Some(desc) = desc {
            if rest.is_some() {
                desc.variadic = names.pop().map(Into::into);
            }
            desc.params = names.into_iter().map(Into::into).collect();
        }
        let saved = self.scope().recur.replace(slots.as_slice().into());
        let body = self.body(body, true);
        self.scope().recur = saved;
        let mut arity =
            Arity { fixed: fixed.len(), variadic: rest.is_some(), nslots: self.scope().nslots, binds, body: body? };
        crate::last_use::mark_arity(&mut arity, &slots);
        Ok(arity)
    }
}

/// `x` or `'x` given to `doc`, `source`, `dir` or `export-meta`: the name itself.
fn referenced_name<'a>(form: &Form<'a>) -> Option<&'a str> {
    match &form.kind {
        FormKind::Symbol(s) => Some(s),
        FormKind::List(items) => match &items[..] {
            [q, sym] if q.as_symbol() == Some("quote") => sym.as_symbol(),
            _ => None,
        },
        _ => None,
    }
}

/// An unbound-symbol error with a hint drawn from the builtins ([`builtins::unbound_hint`]).
pub(crate) fn unbound(form: &Form, name: &str) -> LispError {
    // `Math/random`: Java's, which `Math/` does not name.
    let java = name.split_once('/').and_then(|(ns, short)| crate::special::java_static_hint(ns, short));
    if let Some(instead) = java {
        return err_at(form, ErrorKind::Unsupported, format!("`{name}` is not supported in PTC-Lisp: {instead}"));
    }
    let hint = builtins::unbound_hint(name, std::iter::empty());
    err_at(form, ErrorKind::UnboundSymbol, format!("unable to resolve symbol `{name}`{hint}"))
}

fn const_value(n: Node) -> Value {
    match n {
        Node::Const(v) => v,
        _ => unreachable!("const_value is only called after checking every node is constant"),
    }
}

fn constant_or(
    nodes: Vec<Node>,
    span: Span,
    make: impl FnOnce(Vec<Value>) -> Value,
    node: impl FnOnce(Vec<Node>, Span) -> Node,
) -> Node {
    if nodes.iter().all(|n| matches!(n, Node::Const(_))) {
        Node::Const(make(nodes.into_iter().map(const_value).collect()))
    } else {
        node(nodes, span)
    }
}
