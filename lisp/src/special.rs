//! Special forms and the macros PTC-Lisp builds in (`when`, `cond`, `->`, ...).

use crate::analyze::{err_at, syntax, AResult, Analyzer, Bind, Case, Clause, Def, For, Loop, Node, Span};
use crate::builtins;
use crate::error::ErrorKind;
use crate::form::{form_text, form_to_value, Form, FormKind};
use crate::value::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Special forms and macros, for did-you-mean hints.
pub(crate) const NAMES: &[&str] = &[
    "def",
    "defn",
    "fn",
    "let",
    "letfn",
    "if",
    "if-not",
    "when",
    "when-not",
    "if-let",
    "when-let",
    "cond",
    "case",
    "do",
    "->",
    "->>",
    "as->",
    "cond->",
    "and",
    "or",
    "loop",
    "recur",
    "doseq",
    "dotimes",
    "for",
    "return",
    "fail",
    "assert",
    "condp",
    "defonce",
    "when-first",
    "program",
];

/// Whether `name` is a special form or built-in macro.
pub(crate) fn is_special(name: &str) -> bool {
    matches!(
        name,
        "def"
            | "defn"
            | "defn-"
            | "fn"
            | "let"
            | "letfn"
            | "if"
            | "if-not"
            | "when"
            | "when-not"
            | "if-let"
            | "when-let"
            | "if-some"
            | "when-some"
            | "cond"
            | "case"
            | "do"
            | "->"
            | "->>"
            | "as->"
            | "cond->"
            | "cond->>"
            | "some->"
            | "some->>"
            | "and"
            | "or"
            | "loop"
            | "recur"
            | "doseq"
            | "dotimes"
            | "for"
            | "return"
            | "fail"
            | "assert"
            | "quote"
            | "comment"
            | "condp"
            | "defonce"
            | "when-first"
            | "program"
    )
}

/// Why a Java method, constructor or class is an error, and what to use.
pub(crate) const JAVA_INTEROP: &str =
    "Java interop is not available; use core functions (str, subs, upper-case, split, parse-long, Math/...)";

/// Why there is no random function, and what to use.
const NO_RANDOMNESS: &str =
    "a program is deterministic (a run replays exactly); choose with sort-by, first, nth or take";

/// Why there are no date functions, and what to do with dates instead.
pub(crate) const NO_DATES: &str = "PTC-Lisp has no date type: keep ISO dates as strings (they sort and compare in date order) and take them apart with subs or str/split";

/// What to use instead of a Java static a model reaches for
/// (`Long/parseLong`), by class and method; `None`: the general
/// [`JAVA_INTEROP`] hint.
pub(crate) fn java_static_hint(class: &str, method: &str) -> Option<&'static str> {
    let class = class.rsplit('.').next().unwrap_or(class);
    Some(match (class, method) {
        ("Integer" | "Long" | "Short", "parseInt" | "parseLong" | "valueOf") => "use (parse-long s)",
        ("Double" | "Float", "parseDouble" | "parseFloat" | "valueOf") => "use (parse-double s)",
        ("Boolean", "parseBoolean" | "valueOf") => "use (parse-boolean s)",
        ("String", "valueOf") => "use (str x)",
        ("String", "join") => "use (str/join sep xs)",
        ("String", "format") => "use (format fmt args...)",
        ("System", "currentTimeMillis" | "nanoTime") | ("Instant" | "LocalDate" | "LocalDateTime", "now") => {
            "there is no clock (a run replays exactly); take today's date from the mission, the data or a tool"
        }
        ("Thread", "sleep") => "there is no clock to wait on; drop it",
        (
            "LocalDate" | "LocalDateTime" | "LocalTime" | "Instant" | "ZonedDateTime" | "OffsetDateTime" | "Duration"
            | "Period" | "ChronoUnit" | "DateTimeFormatter" | "Date" | "SimpleDateFormat",
            _,
        ) => NO_DATES,
        ("UUID", "randomUUID") | ("Math", "random") => NO_RANDOMNESS,
        ("Integer" | "Long" | "Double" | "Float" | "Short", "MAX_VALUE" | "MIN_VALUE")
        | ("Double" | "Float", "POSITIVE_INFINITY" | "NEGATIVE_INFINITY") => {
            "there are no Java constants; as a starting bound for min or max use ##Inf or ##-Inf"
        }
        ("Character", "toUpperCase" | "toLowerCase") => "a character is a one-character string: use str/upper-case or str/lower-case",
        ("Character", "getNumericValue" | "digit") => "a character is a one-character string: use (parse-long c)",
        ("Character", m) if m.starts_with("is") => {
            "a character is a one-character string: test it with re-matches, e.g. (re-matches #\"\\d\" c) or #\"[A-Za-z]\""
        }
        _ => return None,
    })
}

/// Why a Java class's `member` (a static, or `new` for its constructor)
/// is an error, with what to use instead where that is known.
pub(crate) fn java_hint(class: &str, member: &str) -> String {
    match java_static_hint(class, member) {
        Some(instead) => format!("Java interop is not available; {instead}"),
        None => JAVA_INTEROP.to_string(),
    }
}

/// Whether `name` is a Java method call (`.toUpperCase`) or constructor
/// (`String.`, `java.util.Date.`), not a symbol of its own.
pub(crate) fn java_interop(name: &str) -> bool {
    let method = name.strip_prefix('.').is_some_and(|m| m.starts_with(|c: char| c.is_alphabetic()));
    method || constructed_class(name).is_some()
}

/// The class a constructor call names: `Date` of `java.util.Date.`.
fn constructed_class(name: &str) -> Option<&str> {
    let class = name.strip_suffix('.')?.rsplit('.').next()?;
    class.starts_with(|c: char| c.is_ascii_uppercase()).then_some(class)
}

/// A helpful message for Clojure forms PTC-Lisp deliberately leaves out.
pub(crate) fn unsupported(name: &str) -> Option<String> {
    let why = match name {
        "try" | "catch" | "throw" | "finally" | "ex-info" | "ex-message" | "ex-data" => {
            "errors cannot be caught; check values with if/cond or assert (a failed one fails the turn), or end with (fail reason)"
        }
        "atom" | "swap!" | "reset!" | "swap-vals!" | "reset-vals!" | "deref" | "volatile!" | "vswap!" | "vreset!" => {
            "there is no mutable state; use loop/recur or reduce, and def to keep results"
        }
        "ns" | "require" | "import" | "use" | "in-ns" => {
            "namespaces are built in: use str/x, set/x, data/x and tool/x directly"
        }
        "defmacro" | "eval" | "load-string" | "read-string" | "resolve" => "there is no eval or macros",
        "iterate" => {
            "sequences are eager; (take n (iterate f x)) is (reductions (fn [acc _] (f acc)) x (range (dec n))), or use loop"
        }
        "lazy-seq" | "cycle" | "repeatedly" => {
            "sequences are eager; build a bounded one with range, repeat or loop"
        }
        "binding" | "set!" | "def-" => "use let, fn and def",
        "declare" => {
            "it is not needed: a function may call one defined after it (a name is looked up when the call runs), \
             and letfn defines local functions that call each other"
        }
        "while" => "there is no mutable state to test; use loop/recur, doseq or dotimes",
        "transient" | "persistent!" | "conj!" | "assoc!" | "dissoc!" | "disj!" | "pop!" => {
            "collections are persistent only; use conj, assoc, into or reduce"
        }
        "delay" | "force" | "promise" | "deliver" | "realized?" => "values are computed at once; use let or def",
        "time" => "there is no clock (a run replays exactly); drop it",
        "with-out-str" | "newline" | "flush" => {
            "println writes one line of the turn's output; build strings with str, format, join or pr-str"
        }
        "sorted-map-by" | "sorted-set-by" => "use sorted-map or sorted-set (keys in compare order), or sort-by",
        "printf" | "slurp" | "spit" => "use println and format; other I/O only through tools",
        "defrecord" | "deftype" | "defprotocol" | "extend-type" | "extend-protocol" | "reify" | "proxy"
        | "defmulti" | "defmethod" => "there are no types; use maps with keyword keys, and defn with case or cond",
        "rand" | "rand-int" | "rand-nth" | "random-sample" | "shuffle" | "random-uuid" => NO_RANDOMNESS,
        "bigdec" | "bigint" | "biginteger" => "numbers are 64-bit integers and doubles; use long, double or round",
        "doto" | "with-open" | "memfn" => JAVA_INTEROP,
        "future" | "pvalues" | "locking" => {
            "there are no threads; (pmap f coll) or (pcalls f g) run calls in parallel, tool calls included"
        }
        _ => match constructed_class(name) {
            // A constructor: what its class is used for, where that is known.
            Some(class) => return Some(format!("`{name}` is not supported in PTC-Lisp: {}", java_hint(class, "new"))),
            None if java_interop(name) => JAVA_INTEROP,
            None => return None,
        },
    };
    Some(format!("`{name}` is not supported in PTC-Lisp: {why}"))
}

/// A call of the builtin `name` (core or internal) made by a special form.
fn internal(name: &str, args: Vec<Node>, at: &Form) -> Node {
    let b = builtins::lookup_internal(name).expect("special forms only call builtins that exist");
    Node::CallBuiltin(b, args, Span::of(at))
}

fn sym<'a>(name: &'static str, at: &Form<'a>) -> Form<'a> {
    Form::new(FormKind::Symbol(name), at.line, at.col)
}

fn list<'a>(items: Vec<Form<'a>>, at: &Form<'a>) -> Form<'a> {
    Form::new(FormKind::List(items), at.line, at.col)
}

/// Name of the function `letfn` expands into, which makes its functions.
const LETFN_MAKER: &str = "letfn*";

/// `(letfn [(f [x] ...) (g [y] ...)] body...)`: functions that may call
/// each other. Expands to one maker function that returns the `i`th of
/// them, each of whose bodies first binds the others by calling the maker:
///
/// ```text
/// (let [letfn* (fn letfn* [i] (case i 0 (fn f [x] (let [g (letfn* 1)] ...)) 1 (fn g ...)))
///       f (letfn* 0)
///       g (letfn* 1)]
///   body...)
/// ```
fn letfn<'a>(form: &Form<'a>, args: &[Form<'a>]) -> AResult<Form<'a>> {
    const USAGE: &str = "letfn needs a vector of function specs, e.g. (letfn [(f [x] (g x)) (g [y] y)] (f 1))";
    let Some(FormKind::Vector(specs)) = args.first().map(|f| &f.kind) else { return Err(syntax(form, USAGE)) };
    let mut names = Vec::new();
    for spec in specs {
        match &spec.kind {
            FormKind::List(items) if items.len() >= 2 && items[0].as_symbol().is_some() => {
                names.push(items[0].as_symbol().expect("checked above"))
            }
            _ => return Err(syntax(spec, USAGE)),
        }
    }
    let maker = |at: &Form<'a>| sym(LETFN_MAKER, at);
    let index = |i: usize, at: &Form<'a>| Form::new(FormKind::Int(i as i64), at.line, at.col);
    let mut cases = vec![sym("case", form), sym("letfn*i", form)];
    for (i, spec) in specs.iter().enumerate() {
        let FormKind::List(items) = &spec.kind else { unreachable!("checked above") };
        // The other functions, bound on each call of this one.
        let mut others = Vec::new();
        for (j, name) in names.iter().enumerate().filter(|(j, _)| *j != i) {
            others.push(Form::new(FormKind::Symbol(name), spec.line, spec.col));
            others.push(list(vec![maker(spec), index(j, spec)], spec));
        }
        let wrap = |params: &Form<'a>, body: &[Form<'a>]| -> Vec<Form<'a>> {
            let mut let_form = vec![sym("let", spec), Form::new(FormKind::Vector(others.clone()), spec.line, spec.col)];
            let_form.extend(body.iter().cloned());
            vec![params.clone(), list(let_form, spec)]
        };
        let mut fn_form = vec![sym("fn", spec), items[0].clone()];
        match &items[1].kind {
            FormKind::Vector(_) => fn_form.extend(wrap(&items[1], &items[2..])),
            _ => {
                for arity in &items[1..] {
                    match &arity.kind {
                        FormKind::List(a) if matches!(a.first().map(|p| &p.kind), Some(FormKind::Vector(_))) => {
                            fn_form.push(list(wrap(&a[0], &a[1..]), arity))
                        }
                        _ => return Err(syntax(arity, USAGE)),
                    }
                }
            }
        }
        cases.push(index(i, spec));
        cases.push(list(fn_form, spec));
    }
    let maker_fn = list(
        vec![
            sym("fn", form),
            maker(form),
            Form::new(FormKind::Vector(vec![sym("letfn*i", form)]), form.line, form.col),
            list(cases, form),
        ],
        form,
    );
    let mut binds = vec![maker(form), maker_fn];
    for (i, name) in names.iter().enumerate() {
        binds.push(Form::new(FormKind::Symbol(name), form.line, form.col));
        binds.push(list(vec![maker(form), index(i, form)], form));
    }
    let mut out = vec![sym("let", form), Form::new(FormKind::Vector(binds), form.line, form.col)];
    out.extend(args[1..].iter().cloned());
    Ok(list(out, form))
}

fn bindings<'f, 'a>(form: &'f Form<'a>, v: Option<&'f Form<'a>>, what: &str) -> AResult<&'f [Form<'a>]> {
    match v.map(|f| &f.kind) {
        Some(FormKind::Vector(items)) if items.len() % 2 == 0 => Ok(items),
        Some(FormKind::Vector(_)) => {
            Err(syntax(form, format!("{what} needs an even number of forms in its binding vector")))
        }
        _ => Err(syntax(form, format!("{what} needs a binding vector, e.g. ({what} [x 1] ...)"))),
    }
}

fn need(form: &Form, args: &[Form], min: usize, max: usize, usage: &str) -> AResult<()> {
    if args.len() < min || args.len() > max {
        return Err(err_at(form, ErrorKind::Arity, format!("wrong number of forms; usage: {usage}")));
    }
    Ok(())
}

fn if_node(c: Node, t: Node, e: Node) -> Node {
    Node::If(Box::new([c, t, e]))
}

/// Inserts `x` into `step` as first (`thread_last == false`) or last argument.
fn thread<'a>(x: Form<'a>, step: &Form<'a>, thread_last: bool) -> Form<'a> {
    match &step.kind {
        FormKind::List(items) if !items.is_empty() => {
            let mut items = items.clone();
            if thread_last {
                items.push(x);
            } else {
                items.insert(1, x);
            }
            list(items, step)
        }
        _ => list(vec![step.clone(), x], step),
    }
}

impl Analyzer {
    pub fn special(&mut self, form: &Form, name: &str, args: &[Form], tail: bool) -> AResult<Node> {
        let nil = || Node::Const(Value::Nil);
        match name {
            "do" => self.body(args, tail),
            "quote" => {
                need(form, args, 1, 1, "(quote form)")?;
                Ok(Node::Const(form_to_value(&args[0])?))
            }
            "comment" => Ok(nil()),
            "if" | "if-not" => {
                need(form, args, 2, 3, "(if test then else?)")?;
                let c = self.analyze(&args[0], false)?;
                let t = self.analyze(&args[1], tail)?;
                let e = match args.get(2) {
                    Some(f) => self.analyze(f, tail)?,
                    None => nil(),
                };
                Ok(if name == "if" { if_node(c, t, e) } else { if_node(c, e, t) })
            }
            "when" | "when-not" => {
                need(form, args, 1, usize::MAX, "(when test body...)")?;
                let c = self.analyze(&args[0], false)?;
                let body = self.body(&args[1..], tail)?;
                Ok(if name == "when" { if_node(c, body, nil()) } else { if_node(c, nil(), body) })
            }
            "if-let" | "when-let" | "if-some" | "when-some" => self.if_let(form, name, args, tail),
            "cond" => self.cond(form, args, tail),
            "condp" => self.condp(form, args, tail),
            "when-first" => self.when_first(form, args, tail),
            "program" => {
                Ok(Node::Const(Value::str(args.iter().map(crate::form::form_text).collect::<Vec<_>>().join("\n"))))
            }
            "defonce" => {
                need(form, args, 2, 2, "(defonce name value)")?;
                let name = self.def_name(form, &args[0])?;
                let value = self.analyze(&args[1], false)?;
                let defined = internal("%defined?", vec![Node::Const(Value::Str(name.as_ref().into()))], form);
                let def = Node::Def(Box::new(Def { name, doc: None, value, defn: false }));
                Ok(if_node(defined, Node::Const(Value::Nil), def))
            }
            "case" => self.case(form, args, tail),
            "and" | "or" => {
                let mut nodes = Vec::with_capacity(args.len());
                for (i, a) in args.iter().enumerate() {
                    nodes.push(self.analyze(a, tail && i + 1 == args.len())?);
                }
                Ok(match (name, nodes.len()) {
                    ("and", 0) => Node::Const(Value::Bool(true)),
                    (_, 0) => nil(),
                    (_, 1) => nodes.pop().expect("one node"),
                    ("and", _) => Node::And(nodes),
                    _ => Node::Or(nodes),
                })
            }
            "->" | "->>" | "some->" | "some->>" => {
                need(form, args, 1, usize::MAX, "(-> x (f a) g)")?;
                let last = name.ends_with(">>");
                if name.starts_with("some") {
                    return self.some_thread(form, args, last, tail);
                }
                let mut x = args[0].clone();
                for step in &args[1..] {
                    x = thread(x, step, last);
                }
                self.analyze(&x, tail)
            }
            "cond->" | "cond->>" => self.cond_thread(form, name == "cond->>", args, tail),
            "as->" => {
                need(form, args, 2, usize::MAX, "(as-> x name forms...)")?;
                let mut binds = vec![args[1].clone(), args[0].clone()];
                for step in &args[2..] {
                    binds.push(args[1].clone());
                    binds.push(step.clone());
                }
                let v = Form::new(FormKind::Vector(binds), form.line, form.col);
                self.let_form(form, &[v, args[1].clone()], tail)
            }
            "let" => self.let_form(form, args, tail),
            "letfn" => {
                let expanded = letfn(form, args)?;
                self.analyze(&expanded, tail)
            }
            "loop" => self.loop_form(form, args),
            "recur" => {
                let Some(slots) = self.scope().recur.clone() else {
                    return Err(syntax(form, "recur is only allowed inside loop or fn"));
                };
                if !tail {
                    return Err(syntax(form, "recur must be in tail position (the last thing its loop or fn does)"));
                }
                if args.len() != slots.len() {
                    return Err(err_at(
                        form,
                        ErrorKind::Arity,
                        format!("recur got {} arguments, its loop or fn expects {}", args.len(), slots.len()),
                    ));
                }
                Ok(Node::Recur(self.all(args)?, slots))
            }
            "fn" => {
                let (fname, rest) = match args.first().and_then(Form::as_symbol) {
                    Some(n) => (Some(Arc::<str>::from(n)), &args[1..]),
                    None => (None, args),
                };
                self.lambda(form, fname, None, rest, false)
            }
            "def" => {
                need(form, args, 1, 3, "(def name \"doc\"? value)")?;
                let name = self.def_name(form, &args[0])?;
                let (doc, value) = match args {
                    [_, doc_form, v] if matches!(doc_form.kind, FormKind::Str(_)) => (doc_of(doc_form), Some(v)),
                    [_, v] => (None, Some(v)),
                    [_] => (None, None),
                    _ => return Err(syntax(form, "usage: (def name \"doc\"? value)")),
                };
                let value = match value {
                    Some(v) => self.analyze(v, false)?,
                    None => nil(),
                };
                Ok(Node::Def(Box::new(Def { name, doc, value, defn: false })))
            }
            "defn" | "defn-" => {
                need(form, args, 2, usize::MAX, "(defn name \"doc\"? [params] body...)")?;
                let name = self.def_name(form, &args[0])?;
                let mut rest = &args[1..];
                let mut doc = None;
                if let [d, _, ..] = rest {
                    if matches!(d.kind, FormKind::Str(_)) {
                        doc = doc_of(d);
                        rest = &rest[1..];
                    }
                }
                if let [attr_map, _, ..] = rest {
                    if matches!(attr_map.kind, FormKind::Map(_)) {
                        rest = &rest[1..];
                    }
                }
                let value = self.lambda(form, Some(name.clone()), doc.clone(), rest, true)?;
                Ok(Node::Def(Box::new(Def { name, doc, value, defn: true })))
            }
            "doseq" | "for" | "dotimes" => self.comprehension(form, name, args),
            "assert" => {
                // As Clojure's: nil when the test holds; otherwise an error
                // (here: the turn fails) that quotes the test.
                need(form, args, 1, 2, "(assert test) or (assert test message)")?;
                let test = self.analyze(&args[0], false)?;
                let mut report = vec![Node::Const(Value::Str(form_text(&args[0]).into()))];
                if let Some(message) = args.get(1) {
                    report.push(self.analyze(message, false)?);
                }
                Ok(if_node(test, nil(), internal("%assert-failed", report, form)))
            }
            "return" | "fail" => {
                need(form, args, 0, 1, "(return value)")?;
                let v = match args.first() {
                    Some(f) => self.analyze(f, false)?,
                    None => nil(),
                };
                Ok(if name == "return" { Node::Return(Box::new(v)) } else { Node::Fail(Box::new(v)) })
            }
            _ => Err(syntax(form, format!("unknown special form {name}"))),
        }
    }

    fn def_name(&mut self, form: &Form, f: &Form) -> AResult<Arc<str>> {
        let Some(name) = f.as_symbol() else {
            return Err(syntax(form, "def needs a symbol name, e.g. (def total 10)"));
        };
        if builtins::lookup(name).is_some() || is_special(name) {
            return Err(syntax(f, format!("cannot redefine the builtin `{name}`; choose another name")));
        }
        // A call of such a name reports the form as left out, so a definition
        // under it could never be called: say so where it is made.
        if unsupported(name).is_some() {
            return Err(err_at(f, ErrorKind::Unsupported, format!("cannot define `{name}`: it names a Clojure form PTC-Lisp leaves out, so calls of it are errors; choose another name")));
        }
        if name.contains('/') {
            return Err(syntax(f, format!("cannot define a qualified name `{name}`")));
        }
        Ok(name.into())
    }

    pub fn let_form(&mut self, form: &Form, args: &[Form], tail: bool) -> AResult<Node> {
        let pairs = bindings(form, args.first(), "let")?;
        let mark = self.scope().names.len();
        let r = (|| -> AResult<Node> {
            let mut binds = Vec::new();
            for pair in pairs.chunks(2) {
                let value = self.analyze(&pair[1], false)?;
                self.bind_value(&pair[0], value, &mut binds)?;
            }
            let body = self.body(&args[1..], tail)?;
            Ok(Node::Let(binds, Box::new(body)))
        })();
        self.scope().names.truncate(mark);
        r
    }

    fn loop_form(&mut self, form: &Form, args: &[Form]) -> AResult<Node> {
        let pairs = bindings(form, args.first(), "loop")?;
        let mark = self.scope().names.len();
        let r = (|| -> AResult<Node> {
            let mut inits = Vec::new();
            let mut slots = Vec::new();
            // Initial values see the earlier loop bindings, as in let.
            let mut binds = Vec::new();
            for pair in pairs.chunks(2) {
                let value = self.analyze(&pair[1], false)?;
                let slot = self.new_slot();
                inits.push(Bind { slot, value });
                slots.push(slot);
                self.bind_pattern(&pair[0], slot, &mut binds)?;
            }
            let saved = self.scope().recur.replace(slots.into());
            let body = self.body(&args[1..], true);
            self.scope().recur = saved;
            Ok(Node::Loop(Box::new(Loop { inits, binds, body: body?, span: Span::of(form) })))
        })();
        self.scope().names.truncate(mark);
        r
    }

    /// `(condp pred expr test result ... default?)`, with `test :>> f` clauses.
    fn condp(&mut self, form: &Form, args: &[Form], tail: bool) -> AResult<Node> {
        need(form, args, 2, usize::MAX, "(condp pred expr test result ... default?)")?;
        let span = Span::of(form);
        let pred = self.analyze(&args[0], false)?;
        let subject = self.analyze(&args[1], false)?;
        let (pred_slot, subject_slot) = (self.new_slot(), self.new_slot());
        let mut clauses = Vec::new();
        let mut default = None;
        let mut rest = &args[2..];
        loop {
            match rest {
                [] => break,
                [d] => {
                    default = Some(d);
                    break;
                }
                [test, arrow, f, more @ ..] if matches!(&arrow.kind, FormKind::Keyword(k) if &**k == ":>>" || &**k == ">>") =>
                {
                    clauses.push((test, f, true));
                    rest = more;
                }
                [test, result, more @ ..] => {
                    clauses.push((test, result, false));
                    rest = more;
                }
            }
        }
        let mut node = match default {
            Some(d) => self.analyze(d, tail)?,
            None => internal("%no-matching-clause", vec![Node::Local(subject_slot)], form),
        };
        for (test, result, threaded) in clauses.into_iter().rev() {
            let test = self.analyze(test, false)?;
            let call = Node::Call(Box::new(Node::Local(pred_slot)), vec![test, Node::Local(subject_slot)], span);
            let result = self.analyze(result, tail && !threaded)?;
            node = if threaded {
                let hit = self.new_slot();
                let then = Node::Call(Box::new(result), vec![Node::Local(hit)], span);
                Node::Let(vec![Bind { slot: hit, value: call }], Box::new(if_node(Node::Local(hit), then, node)))
            } else {
                if_node(call, result, node)
            };
        }
        let binds = vec![Bind { slot: pred_slot, value: pred }, Bind { slot: subject_slot, value: subject }];
        Ok(Node::Let(binds, Box::new(node)))
    }

    /// `(when-first [x coll] body...)`: the body with `x` bound to the first
    /// element, when `coll` has one.
    fn when_first(&mut self, form: &Form, args: &[Form], tail: bool) -> AResult<Node> {
        let pairs = bindings(form, args.first(), "when-first")?;
        if pairs.len() != 2 {
            return Err(syntax(form, "when-first takes exactly one binding, e.g. (when-first [x xs] ...)"));
        }
        let coll = self.analyze(&pairs[1], false)?;
        let seq_slot = self.new_slot();
        let seq = internal("seq", vec![coll], form);
        let mark = self.scope().names.len();
        let then = (|| -> AResult<Node> {
            let mut binds = Vec::new();
            self.bind_value(&pairs[0], internal("first", vec![Node::Local(seq_slot)], form), &mut binds)?;
            Ok(Node::Let(binds, Box::new(self.body(&args[1..], tail)?)))
        })();
        self.scope().names.truncate(mark);
        Ok(Node::Let(
            vec![Bind { slot: seq_slot, value: seq }],
            Box::new(if_node(Node::Local(seq_slot), then?, Node::Const(Value::Nil))),
        ))
    }

    fn if_let(&mut self, form: &Form, name: &str, args: &[Form], tail: bool) -> AResult<Node> {
        let pairs = bindings(form, args.first(), name)?;
        if pairs.len() != 2 {
            return Err(syntax(form, format!("{name} takes exactly one binding, e.g. ({name} [x (f)] ...)")));
        }
        let is_when = name.starts_with("when");
        if (is_when && args.is_empty()) || (!is_when && !(2..=3).contains(&args.len())) {
            return Err(err_at(form, ErrorKind::Arity, format!("usage: ({name} [x expr] then else?)")));
        }
        let value = self.analyze(&pairs[1], false)?;
        let slot = self.new_slot();
        let test = if name.ends_with("some") {
            Node::CallBuiltin(
                builtins::lookup("some?").expect("some? is a builtin"),
                vec![Node::Local(slot)],
                Span::of(form),
            )
        } else {
            Node::Local(slot)
        };
        let mark = self.scope().names.len();
        let then = (|| -> AResult<Node> {
            let mut binds = Vec::new();
            self.bind_pattern(&pairs[0], slot, &mut binds)?;
            let body = if is_when { self.body(&args[1..], tail)? } else { self.analyze(&args[1], tail)? };
            Ok(Node::Let(binds, Box::new(body)))
        })();
        self.scope().names.truncate(mark);
        let otherwise = match (is_when, args.get(2)) {
            (false, Some(f)) => self.analyze(f, tail)?,
            _ => Node::Const(Value::Nil),
        };
        Ok(Node::Let(vec![Bind { slot, value }], Box::new(if_node(test, then?, otherwise))))
    }

    fn cond(&mut self, form: &Form, args: &[Form], tail: bool) -> AResult<Node> {
        if args.len() % 2 != 0 {
            return Err(syntax(form, "cond needs test/expression pairs; use :else for the default"));
        }
        let mut node = Node::Const(Value::Nil);
        for pair in args.chunks(2).rev() {
            let test = self.analyze(&pair[0], false)?;
            let then = self.analyze(&pair[1], tail)?;
            node = match test {
                Node::Const(v) if v.is_truthy() => then,
                Node::Const(_) => node,
                test => if_node(test, then, node),
            };
        }
        Ok(node)
    }

    // `Value`'s hash never depends on what a function holds (functions hash by address).
    #[allow(clippy::mutable_key_type)]
    fn case(&mut self, form: &Form, args: &[Form], tail: bool) -> AResult<Node> {
        need(form, args, 1, usize::MAX, "(case x value result ... default?)")?;
        let subject = self.analyze(&args[0], false)?;
        let clauses = &args[1..];
        let mut table = HashMap::new();
        let mut branches = Vec::new();
        for pair in clauses.chunks(2) {
            let [test, result] = pair else { break };
            let idx = branches.len();
            let tests: Vec<&Form> = match &test.kind {
                FormKind::List(alts) => alts.iter().collect(),
                _ => vec![test],
            };
            for t in tests {
                let v = form_to_value(t).map_err(|_| syntax(t, "case tests must be literal values"))?;
                if table.insert(v, idx).is_some() {
                    return Err(syntax(t, "duplicate case test"));
                }
            }
            branches.push(self.analyze(result, tail)?);
        }
        let default = match clauses.len() % 2 {
            1 => Some(self.analyze(&clauses[clauses.len() - 1], tail)?),
            _ => None,
        };
        Ok(Node::Case(Box::new(Case { subject, table, branches, default, span: Span::of(form) })))
    }

    fn cond_thread(&mut self, form: &Form, last: bool, args: &[Form], tail: bool) -> AResult<Node> {
        if args.is_empty() || args.len() % 2 != 1 {
            return Err(syntax(form, "usage: (cond-> x test form ...)"));
        }
        // (let [g x g (if test (-> g form) g) ...] g)
        let g = sym("cond->value__", form);
        let mut binds = vec![g.clone(), args[0].clone()];
        for pair in args[1..].chunks(2) {
            let step = thread(g.clone(), &pair[1], last);
            binds.push(g.clone());
            binds.push(list(vec![sym("if", form), pair[0].clone(), step, g.clone()], form));
        }
        let v = Form::new(FormKind::Vector(binds), form.line, form.col);
        self.let_form(form, &[v, g], tail)
    }

    fn some_thread(&mut self, form: &Form, args: &[Form], last: bool, tail: bool) -> AResult<Node> {
        // (let [g x g (if (nil? g) nil (-> g step)) ...] g)
        let g = sym("some->value__", form);
        let mut binds = vec![g.clone(), args[0].clone()];
        for step in &args[1..] {
            let test = list(vec![sym("nil?", form), g.clone()], form);
            let nil = Form::new(FormKind::Nil, form.line, form.col);
            binds.push(g.clone());
            binds.push(list(vec![sym("if", form), test, nil, thread(g.clone(), step, last)], form));
        }
        let v = Form::new(FormKind::Vector(binds), form.line, form.col);
        self.let_form(form, &[v, g], tail)
    }

    fn comprehension(&mut self, form: &Form, name: &str, args: &[Form]) -> AResult<Node> {
        let pairs = bindings(form, args.first(), name)?;
        if name == "dotimes" {
            let [var, n] = pairs else {
                return Err(syntax(form, "usage: (dotimes [i n] body...)"));
            };
            let range = list(vec![sym("range", form), n.clone()], form);
            let v = Form::new(FormKind::Vector(vec![var.clone(), range]), form.line, form.col);
            let mut items = vec![v];
            items.extend_from_slice(&args[1..]);
            return self.comprehension(form, "doseq", &items);
        }
        let mark = self.scope().names.len();
        let r = (|| -> AResult<Node> {
            let mut clauses = Vec::new();
            for pair in pairs.chunks(2) {
                let (k, v) = (&pair[0], &pair[1]);
                match &k.kind {
                    FormKind::Keyword(kw) if &**kw == "let" => {
                        let inner = bindings(k, Some(v), ":let")?;
                        let mut binds = Vec::new();
                        for p in inner.chunks(2) {
                            let value = self.analyze(&p[1], false)?;
                            self.bind_value(&p[0], value, &mut binds)?;
                        }
                        clauses.push(Clause::Let(binds));
                    }
                    FormKind::Keyword(kw) if &**kw == "when" => clauses.push(Clause::When(self.analyze(v, false)?)),
                    FormKind::Keyword(kw) if &**kw == "while" => clauses.push(Clause::While(self.analyze(v, false)?)),
                    FormKind::Keyword(kw) => {
                        return Err(syntax(k, format!("unknown {name} modifier :{kw}; use :let, :when or :while")))
                    }
                    _ => {
                        let coll = self.analyze(v, false)?;
                        let slot = self.new_slot();
                        let mut binds = Vec::new();
                        self.bind_pattern(k, slot, &mut binds)?;
                        clauses.push(Clause::Each { slot, coll, binds });
                    }
                }
            }
            if !matches!(clauses.first(), Some(Clause::Each { .. })) {
                return Err(syntax(form, format!("{name} must start with a binding, e.g. ({name} [x xs] ...)")));
            }
            let body = self.body(&args[1..], false)?;
            let f = Box::new(For { clauses, body });
            Ok(if name == "for" { Node::For(f) } else { Node::Doseq(f) })
        })();
        self.scope().names.truncate(mark);
        r
    }
}

fn doc_of(f: &Form) -> Option<Arc<str>> {
    match &f.kind {
        FormKind::Str(s) => Some(s.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::test_run::run;
    use crate::ErrorKind;

    #[test]
    fn letfn_functions_see_each_other_recur_and_shadow_outer_names() {
        let src = "(defn g [] :outer)
                   (letfn [(f [n acc] (if (zero? n) (g acc) (recur (dec n) (conj acc n))))
                           (g [acc] {:done acc})]
                     [(f 3 []) (map #(f % []) [0 1])])";
        assert_eq!(run(src).unwrap(), "[{:done [3 2 1]} ({:done []} {:done [1]})]");
        assert_eq!(run("(letfn [(f [] 1)] (defn h [] (f)) (h))").unwrap(), "1");
        assert_eq!(run("(letfn [] 5)").unwrap(), "5");
    }

    #[test]
    fn malformed_letfn_says_how_to_write_it() {
        for src in ["(letfn (f [x] x) 1)", "(letfn [f [x] x] 1)", "(letfn [(f x)] 1)", "(letfn [(f (x) 1)] 1)"] {
            let (kind, msg) = run(src).unwrap_err();
            assert_eq!(kind, ErrorKind::Other, "{src}");
            assert!(msg.contains("letfn needs a vector of function specs"), "{src}: {msg}");
        }
    }

    #[test]
    fn assert_is_nil_when_its_test_holds_and_an_error_quoting_the_test_when_not() {
        assert_eq!(run("(assert (= 1 1))").unwrap(), "nil");
        // The message is evaluated only when the test fails.
        assert_eq!(run("(assert true (/ 1 0)) :after").unwrap(), ":after");
        for (src, message) in [
            ("(assert (= (count [1 2]) 3))", "Assert failed: (= (count [1 2]) 3)"),
            (
                "(let [rows [1]] (assert (= (count rows) 2) (str \"got \" (count rows) \" rows\")))",
                "Assert failed: got 1 rows; the test was (= (count rows) 2)",
            ),
            ("(assert nil :why)", "Assert failed: :why; the test was nil"),
        ] {
            let (kind, msg) = run(src).unwrap_err();
            assert_eq!(kind, ErrorKind::Other, "{src}");
            assert_eq!(msg, message, "{src}");
        }
        let (kind, msg) = run("(assert)").unwrap_err();
        assert_eq!(kind, ErrorKind::Arity);
        assert!(msg.contains("(assert test) or (assert test message)"), "{msg}");
    }

    #[test]
    fn clojure_forms_left_out_say_what_to_use_instead() {
        for (src, hint) in [
            ("(defrecord Point [x y])", "use maps with keyword keys"),
            ("(defmulti area :shape)", "use maps with keyword keys"),
            ("(future (tool/search {:q 1}))", "(pmap f coll)"),
            ("(throw (ex-info \"boom\" {}))", "errors cannot be caught; check values with if/cond or assert"),
            ("(rand-nth [1 2])", "a program is deterministic"),
            ("(take 3 (iterate inc 0))", "(reductions (fn [acc _] (f acc)) x (range (dec n)))"),
            ("(java.time.LocalDate/parse \"2024-01-01\")", "Java interop is not available"),
            (r#"(.toUpperCase "abc")"#, "Java interop is not available; use core functions (str, subs, upper-case"),
            (r#"(String. "abc")"#, "Java interop is not available"),
            (r#"(map .trim ["a "])"#, "Java interop is not available"),
            (r#"(json/read-str "{}")"#, "unknown namespace `json` in `json/read-str`: PTC-Lisp has no JSON functions"),
            (r#"(cheshire.core/parse-string "{}")"#, "tool results and data/x arrive as values already"),
            (r#"(clojure.instant/read-instant-date "2024")"#, "keep ISO dates as strings"),
            ("(foo/bar 1)", "unknown namespace `foo` in `foo/bar`: the namespaces are str/ (clojure.string)"),
            (r#"(edn/read-string "{:a 1}")"#, "unknown namespace `edn` in `edn/read-string`: PTC-Lisp has no reader"),
            ("(clojure.data/diff {:a 1} {:a 2})", "PTC-Lisp has no diff: compare with =, and find what differs with set/difference"),
            (
                r#"(compare #inst "2024-01-01" "2024-02-01")"#,
                r#"tagged literal #inst is not supported in programs; write the string "2024-01-01" instead (PTC-Lisp has no date type"#,
            ),
            (r#"#uuid "a-b""#, r#"there is no UUID type: write the string "a-b""#),
            ("#point [1 2]", "there are no tagged values: write the value itself"),
            (r#"(Long/parseLong "12")"#, "`Long/parseLong`: Java interop is not available; use (parse-long s)"),
            (r#"(java.lang.Double/parseDouble "1.5")"#, "Java interop is not available; use (parse-double s)"),
            ("(System/currentTimeMillis)", "there is no clock (a run replays exactly)"),
            (r#"(java.time.LocalDate/parse "2024-01-01")"#, "Java interop is not available; PTC-Lisp has no date type"),
            ("(Math/random)", "`Math/random` is not supported in PTC-Lisp: a program is deterministic"),
            ("(java.util.Date.)", "`java.util.Date.` is not supported in PTC-Lisp: Java interop is not available; PTC-Lisp has no date type"),
            ("(StringBuilder.)", "`StringBuilder.` is not supported in PTC-Lisp: Java interop is not available; use core functions"),
            ("(reduce min Long/MAX_VALUE [3 1])", "`Long/MAX_VALUE`: Java interop is not available; there are no Java constants; as a starting bound for min or max use ##Inf or ##-Inf"),
            (r#"(Character/isDigit "1")"#, "a character is a one-character string: test it with re-matches, e.g. (re-matches #\"\\d\" c)"),
            (r#"(Character/toUpperCase "a")"#, "use str/upper-case or str/lower-case"),
            ("(swap-vals! a inc)", "there is no mutable state"),
            ("(declare g)", "not needed: a function may call one defined after it"),
        ] {
            let (kind, msg) = run(src).unwrap_err();
            assert!(msg.contains(hint), "{src}: {msg}");
            // Left out of the language, or a name nothing defines (an
            // unknown namespace may be a typo).
            let expected = if msg.contains("Java interop is not available") || msg.contains("is not supported") {
                ErrorKind::Unsupported
            } else {
                ErrorKind::UnboundSymbol
            };
            assert_eq!(kind, expected, "{src}: {msg}");
        }
        // Names that only look alike stay names.
        assert_eq!(run("(let [future 2 agent 3] (+ future agent))").unwrap(), "5");
        assert_eq!(run("(defn send [x] (inc x)) (send 1)").unwrap(), "2");
        assert_eq!(run("(def x. 1) (+ x. 1)").unwrap(), "2");
    }
}
