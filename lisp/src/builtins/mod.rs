//! The core library: a static table of builtins plus shared helpers.
//!
//! Each module exports a `BUILTINS` slice; [`lookup`] finds a builtin by
//! name through a table built once per process, so creating an interpreter
//! costs nothing. A builtin gets the interpreter (to call back into user
//! functions and check limits) and its evaluated arguments.

pub(crate) mod coll;
pub(crate) mod format;
pub(crate) mod introspect;
pub(crate) mod map;
pub(crate) mod native;
pub(crate) mod num;
pub(crate) mod parallel;
pub(crate) mod pred;
pub(crate) mod ptc;
pub(crate) mod regex;
pub(crate) mod relation;
pub(crate) mod seq;
pub(crate) mod sort;
pub(crate) mod sorted;
pub(crate) mod string;
pub(crate) mod walk;
pub(crate) mod xform;

pub(crate) use native::{call_native, Native};

use crate::error::ErrorKind;
use crate::eval::{fail, preview, Ctl, Interp, R};
use crate::value::{FnBody, FnDesc, Function, Value};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// A builtin's code.
pub(crate) type BuiltinFn = fn(&mut Interp<'_>, &mut [Value]) -> R;

/// Marks a builtin that takes any number of arguments past `min`.
pub(crate) const VARIADIC: u8 = u8::MAX;

/// A core-library function.
pub(crate) struct Builtin {
    pub name: &'static str,
    pub min: u8,
    pub max: u8,
    pub f: BuiltinFn,
}

impl Builtin {
    /// Whether `n` arguments are acceptable.
    pub fn accepts(&self, n: usize) -> bool {
        n >= self.min as usize && (self.max == VARIADIC || n <= self.max as usize)
    }
}

/// Shorthand for the builtin tables.
pub(crate) const fn b(name: &'static str, min: u8, max: u8, f: BuiltinFn) -> Builtin {
    Builtin { name, min, max, f }
}

const TABLES: &[&[Builtin]] = &[
    coll::BUILTINS,
    seq::BUILTINS,
    sort::BUILTINS,
    map::BUILTINS,
    num::BUILTINS,
    string::BUILTINS,
    regex::BUILTINS,
    pred::BUILTINS,
    ptc::BUILTINS,
    walk::BUILTINS,
    introspect::BUILTINS,
    parallel::BUILTINS,
    xform::BUILTINS,
    sorted::BUILTINS,
    relation::BUILTINS,
    num::MATH,
    INTERNAL,
];

/// Every builtin with its function value, found by name through an
/// open-addressing table (the analyzer looks up every call head, so this
/// is cheaper than a general-purpose hash map).
struct Registry {
    /// In table order; a later builtin of the same name replaces an earlier one.
    entries: Vec<(&'static Builtin, Value)>,
    /// Per entry: whether a special form or an unsupported form has the same name
    /// (the analyzer checks those before builtins in call position).
    shadowed: Vec<bool>,
    /// Index + 1 into `entries`, 0 for an empty slot; a power of two in size, at most a quarter full.
    slots: Vec<u16>,
}

/// FNV-1a: builtin names are short and trusted, so a fast hash is fine here.
#[inline(always)]
fn name_hash(name: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    // Fibonacci hashing spreads the product's middle bits into the low ones the table uses.
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize
}

impl Registry {
    fn build() -> Registry {
        let count: usize = TABLES.iter().map(|t| t.len()).sum();
        let size = (count * 4).next_power_of_two();
        let mut r = Registry { entries: Vec::with_capacity(count), shadowed: Vec::new(), slots: vec![0; size] };
        for table in TABLES {
            for b in table.iter() {
                let desc = FnDesc { name: Some(b.name.into()), ..FnDesc::default() };
                let v = Value::Fn(Arc::new(Function { desc, body: Some(FnBody::Builtin(b)) }));
                let slot = r.slot(b.name);
                match r.slots[slot] {
                    0 => {
                        r.entries.push((b, v));
                        r.slots[slot] = u16::try_from(r.entries.len()).expect("fewer than 65535 builtins");
                    }
                    e => r.entries[e as usize - 1] = (b, v),
                }
            }
        }
        r.shadowed = r
            .entries
            .iter()
            .map(|(b, _)| crate::special::is_special(b.name) || crate::special::unsupported(b.name).is_some())
            .collect();
        r
    }

    /// The slot holding `name`, or the empty slot where it would go.
    #[inline(always)]
    fn slot(&self, name: &str) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = name_hash(name.as_bytes()) & mask;
        loop {
            match self.slots[i] {
                0 => return i,
                e if same_name(self.entries[e as usize - 1].0.name, name) => return i,
                _ => i = (i + 1) & mask,
            }
        }
    }

    #[inline(always)]
    fn get(&self, name: &str) -> Option<&(&'static Builtin, Value)> {
        match self.slots[self.slot(name)] {
            0 => None,
            e => Some(&self.entries[e as usize - 1]),
        }
    }
}

/// `a == b` without a call to `memcmp` (names are a few bytes long).
#[inline(always)]
fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::build)
}

/// Internal helpers are reachable only through a namespace
/// (`clojure.string/reverse`, `set/rename-keys`, `clojure.math/log10`) or
/// from special forms (`%...`).
fn is_internal(name: &str) -> bool {
    name.starts_with("string-") || name.starts_with("set-") || name.starts_with("math-") || name.starts_with('%')
}

/// Any builtin, internal ones included (for special forms).
pub(crate) fn lookup_internal(name: &str) -> Option<&'static Builtin> {
    registry().get(name).map(|(b, _)| *b)
}

/// Helpers special forms expand into.
const INTERNAL: &[Builtin] = &[
    b("%defined?", 1, 1, |interp, a| Ok(Value::Bool(matches!(&a[0], Value::Str(n) if interp.ns.get(n).is_some())))),
    b("%assert-failed", 1, 2, |_, a| {
        // The message as `str` shows it (a value cut short), then the
        // test's source text.
        let test = crate::print::to_display_string(&a[0]);
        let message = match a.get(1) {
            None => test,
            Some(Value::Str(why)) => format!("{why}; the test was {test}"),
            Some(why) => format!("{}; the test was {test}", crate::print::to_string_truncated(why, 200)),
        };
        Err(fail(ErrorKind::Other, format!("Assert failed: {message}")))
    }),
    b("%no-matching-clause", 1, 1, |_, a| {
        Err(fail(
            ErrorKind::Other,
            format!("condp: no clause matches {}; add a default as the last form", preview(&a[0])),
        ))
    }),
];

/// The builtin called `name`, if any.
pub(crate) fn lookup(name: &str) -> Option<&'static Builtin> {
    if is_internal(name) {
        return None;
    }
    registry().get(name).map(|(b, _)| *b)
}

/// The builtin a call `(name ...)` means when `name` is not a local: as
/// [`lookup`], but `None` when a special form or an unsupported form has the
/// name too (the analyzer's slower path handles those).
pub(crate) fn lookup_call(name: &str) -> Option<&'static Builtin> {
    if is_internal(name) {
        return None;
    }
    let r = registry();
    match r.slots[r.slot(name)] {
        0 => None,
        e if r.shadowed[e as usize - 1] => None,
        e => Some(r.entries[e as usize - 1].0),
    }
}

/// `ns/name` for the namespaces that map onto builtins (`str/join`, `Math/abs`).
pub(crate) fn lookup_in(ns: &str, name: &str) -> Option<&'static Builtin> {
    let string_ns = matches!(ns, "clojure.string" | "str" | "string" | "s");
    let set_ns = matches!(ns, "clojure.set" | "set");
    let math = math_namespace(ns).then(|| math(name)).flatten();
    match name {
        _ if math.is_some() => math,
        "reverse" if string_ns => registry().get("string-reverse").map(|(b, _)| *b),
        _ if set_ns && relation::NAMES.contains(&name) => registry().get(&format!("set-{name}")).map(|(b, _)| *b),
        _ => lookup(name),
    }
}

/// The function value of a builtin (the same `Arc` every time, so `=` holds).
pub(crate) fn value_of(b: &'static Builtin) -> Value {
    registry().get(b.name).map(|(_, v)| v.clone()).expect("every builtin is in the registry")
}

/// Every public builtin name.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    TABLES.iter().flat_map(|t| t.iter().map(|b| b.name)).filter(|n| !is_internal(n))
}

/// How many arguments a builtin takes: `2`, `1 to 3`, `0 or more`.
pub(crate) fn arity_text(b: &Builtin) -> String {
    match (b.min, b.max) {
        (lo, VARIADIC) => format!("{lo} or more arguments"),
        (lo, hi) if lo == hi => format!("{lo} argument{}", if lo == 1 { "" } else { "s" }),
        (lo, hi) => format!("{lo} to {hi} arguments"),
    }
}

pub(crate) fn arity_message(b: &Builtin, n: usize) -> String {
    let expected = match (b.min, b.max) {
        (lo, VARIADIC) => format!("{lo} or more"),
        (lo, hi) if lo == hi => lo.to_string(),
        (lo, hi) => format!("{lo} to {hi}"),
    };
    let hint = match (b.name, n) {
        // Python's `round(x, 2)`, or a precision as other languages take it.
        ("round", 2) => "; to round to 2 decimals, (/ (round (* x 100)) 100.0), or (format \"%.2f\" x) for text",
        // (apply max coll) of an empty collection.
        ("max", 0) => "; a collection that may be empty needs a start: (reduce max 0 coll)",
        ("min", 0) => "; a collection that may be empty needs a start: (reduce min ##Inf coll)",
        _ => "",
    };
    format!("wrong number of arguments ({n}) passed to {}; expected {expected}{hint}", b.name)
}

/// Edit distance where swapping two neighbours counts as one edit (`jion` → `join`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// The closest of `candidates` to `name`, if close enough to be a likely
/// typo (an edit distance of a third of its length, 1 to 3, a swap of two
/// neighbours counting as one): the did-you-mean of every "no such name"
/// error, in programs and in configs alike.
pub fn closest_among<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<String> {
    // One- and two-letter names are usually locals; a guess would be noise.
    if name.chars().count() < 3 || name.len() > 64 {
        return None;
    }
    let limit = (name.chars().count() / 3).clamp(1, 3);
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

/// `; did you mean `X`?` with the closest of `candidates` to `name`
/// ([`closest_among`]), or empty when none is close: the end of an error
/// about a name that does not exist.
pub fn did_you_mean<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> String {
    closest_among(name, candidates).map_or_else(String::new, |best| suggestion(&best))
}

fn suggestion(best: &str) -> String {
    format!("; did you mean `{best}`?")
}

/// Whether `ns` names `clojure.math` (`Math/`, Java's, and `math/` too).
pub(crate) fn math_namespace(ns: &str) -> bool {
    matches!(ns, "clojure.math" | "Math" | "math")
}

/// The `clojure.math` function `name` (or Java's name for it) that is no
/// core name ([`num::MATH`]).
fn math(name: &str) -> Option<&'static Builtin> {
    let name = num::JAVA_MATH_NAMES.iter().find(|(java, _)| *java == name).map_or(name, |(_, kebab)| kebab);
    registry().get(&format!("math-{name}")).map(|(b, _)| *b)
}

/// What an unbound-symbol error about `name` ends with: the namespace of a
/// `clojure.math` or `clojure.set` name (`log10` is `clojure.math/log10`,
/// `rename-keys` is `clojure.set/rename-keys`, as in Clojure),
/// else the closest of the names `defined` (definitions, tools, data) or
/// of the builtins, as a did-you-mean; empty when none is close.
pub(crate) fn unbound_hint<'c>(name: &str, defined: impl Iterator<Item = &'c str>) -> String {
    if !name.contains('/') && math(name).is_some() {
        return format!("; it is `clojure.math/{name}`");
    }
    if !name.contains('/') && relation::NAMES.contains(&name) {
        return format!("; it is `clojure.set/{name}` (or `set/{name}`)");
    }
    let (namespace, short) = name.rsplit_once('/').map_or((None, name), |(ns, short)| (Some(ns), short));
    if let Some(instead) = missing_hint(short) {
        return format!("; {instead}");
    }
    // A builtin is suggested in the namespace it was asked in:
    // `str/uppercase` gets `str/upper-case`.
    let builtin = || closest(short).map(|b| namespace.map_or_else(|| b.clone(), |ns| format!("{ns}/{b}")));
    closest_among(short, defined).or_else(builtin).map_or_else(String::new, |best| suggestion(&best))
}

/// What to write instead of a name models reach for that PTC-Lisp does
/// not have, where the closest name would mislead (`reduced?` is not
/// `reduced`). Only for a name nothing defines: a program may define its
/// own `index-by`.
fn missing_hint(name: &str) -> Option<&'static str> {
    Some(match name {
        "reduced?" | "unreduced" | "ensure-reduced" => {
            "(reduced x) ends its reduce at once here, so there is never a reduced value to test or unwrap"
        }
        "class" | "instance?" | "satisfies?" | "cast" => {
            "there are no classes; test a value with type, or string? number? map? vector? coll? fn? keyword?"
        }
        "comparator" => "pass the predicate itself: (sort > xs), (sort-by :points > xs), or (sort (fn [a b] (> (:points a) (:points b))) xs)",
        "index-by" => "build the map with (zipmap (map :id xs) xs), or group-by for several per key",
        "list*" => "use (apply list a b xs) or (concat [a b] xs)",
        "symbol" | "gensym" => "there are no symbol values; use a keyword, (keyword s), or the string itself",
        "inst-ms" | "inst?" => crate::special::NO_DATES,
        "find-first" => "use (first (filter pred xs)) or (some #(when (pred %) %) xs)",
        "print-str" | "println-str" => {
            "(print-str a b) is (str/join \" \" [a b]), and println-str adds \"\\n\"; pr-str writes values readably"
        }
        "prn-str" | "pr" => "pr-str gives a value's readable text, and prn prints it as a line",
        "num" => "a number is one already; read text with parse-long or parse-double",
        "meta" | "with-meta" | "vary-meta" => "there is no metadata; keep such data in a map beside the value",
        "to-array" | "into-array" | "object-array" | "int-array" | "long-array" | "double-array" | "char-array"
        | "make-array" | "aget" | "aset" | "alength" | "aclone" => {
            "there are no arrays; use a vector (nth, assoc, count), built with vec, into or reduce"
        }
        "escape" => "use str/replace with a map, which replaces each match: (str/replace s #\"[<>]\" {\"<\" \"&lt;\" \">\" \"&gt;\"})",
        "replicate" => "(replicate n x) is (repeat n x)",
        "exit" | "quit" => "a program ends with (return value) or (fail reason); in `ptc repl`, :quit leaves",
        "find-doc" => "(apropos \"text\") lists the names that hold it, and (doc name) describes one",
        "identical?" => "values have no identity here; compare them with =",
        "hash" => "there is no hash; a value itself is a map key or a set member",
        "re-groups" => "re-find and re-matches return [match group1 group2 ...] when the pattern has groups",
        "unchecked-add" | "unchecked-subtract" | "unchecked-multiply" | "unchecked-inc" | "unchecked-dec"
        | "unchecked-negate" => "use + - * inc dec: integers are 64-bit and an overflow is an error, never a wrap",
        "partitionv" | "partitionv-all" | "splitv-at" => {
            "(partitionv n xs) is (mapv vec (partition n xs)); partition-all and split-at the same way"
        }
        "re-quote-replacement" => "a string pattern's replacement is taken as written: (str/replace s \"$1\" \"x\")",
        "rationalize" => "there are no ratios: (/ 1 3) is a double; fix the decimals with round or format",
        "iteration" => "fetch page after page with loop and recur, passing the next token along",
        "seque" => "sequences are eager; use the collection itself",
        "parse-uuid" => "keep a UUID as its string, and compare it with =",
        "macroexpand" | "macroexpand-1" => "there is no eval or macros",
        "re-matcher" => "there are no matchers: re-seq gives every match, re-find the first, re-matches the whole",
        "line-seq" => "(str/split-lines s) gives the lines of a string",
        _ => return None,
    })
}

/// The builtin closest to `name`, plus a few Clojure aliases models reach for.
pub(crate) fn closest(name: &str) -> Option<String> {
    let alias = match name {
        "length" | "len" | "size" => Some("count"),
        "lowercase" | "lower" => Some("lower-case"),
        "uppercase" | "upper" => Some("upper-case"),
        "contains" | "has?" => Some("contains?"),
        "print" | "puts" => Some("println"),
        "mean" | "average" => Some("avg"),
        _ => None,
    };
    alias.map(str::to_string).or_else(|| closest_among(name, names().chain(crate::special::NAMES.iter().copied())))
}

/// `"{who} expects {expected}, got {type value}"`.
pub(crate) fn type_err(who: &str, expected: &str, got: &Value) -> Ctl {
    fail(ErrorKind::Type, format!("{who} expects {expected}, got {}", preview(got)))
}

/// Longest string (in bytes) that may be turned into a sequence of characters.
const MAX_STRING_SEQ: usize = 1_000_000;

/// The elements of anything seqable: vectors, lists, sets, maps (as `[k v]`
/// entries), strings (as one-character strings) and nil (empty).
pub(crate) fn items<'v>(v: &'v Value, who: &str) -> Result<Cow<'v, [Value]>, Ctl> {
    Ok(match v {
        Value::Vector(items) | Value::List(items) => items.items(),
        Value::Nil => Cow::Borrowed(&[]),
        Value::Set(s) => Cow::Owned(s.iter().cloned().collect()),
        Value::Map(m) => Cow::Owned(m.iter().map(|(k, v)| entry(k.clone(), v.clone())).collect()),
        Value::Str(s) if s.len() > MAX_STRING_SEQ => {
            return Err(fail(
                ErrorKind::SizeLimit,
                format!("{who}: a string of {} bytes is too long to treat as a sequence of characters", s.len()),
            ))
        }
        Value::Str(s) => Cow::Owned(s.chars().map(|c| Value::Str(c.to_string().into())).collect()),
        other => return Err(type_err(who, "a collection", other)),
    })
}

/// A map entry as the `[k v]` vector Clojure prints.
pub(crate) fn entry(k: Value, v: Value) -> Value {
    Value::Vector(crate::value::Vector::from(vec![k, v]))
}

pub(crate) fn list(items: Vec<Value>) -> Value {
    Value::List(crate::value::Vector::from(items))
}

/// A list in Clojure's sense (`list?` is true), as `list` and `reverse` make.
pub(crate) fn proper_list(items: Vec<Value>) -> Value {
    Value::List(crate::value::Vector::from(items).into_list())
}

pub(crate) fn vector(items: Vec<Value>) -> Value {
    Value::Vector(crate::value::Vector::from(items))
}

/// Takes the argument out of the slice (builtins own their arguments).
pub(crate) fn take(args: &mut [Value], i: usize) -> Value {
    std::mem::take(&mut args[i])
}

pub(crate) fn int_arg(who: &str, v: &Value) -> Result<i64, Ctl> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Float(x) if x.fract() == 0.0 && x.is_finite() => Ok(*x as i64),
        other => Err(type_err(who, "an integer", other)),
    }
}

pub(crate) fn str_arg<'v>(who: &str, v: &'v Value) -> Result<&'v str, Ctl> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(type_err(who, "a string", other)),
    }
}

/// Calling a keyword, map, set or vector as a function.
pub(crate) fn call_collection(f: &Value, args: &[Value]) -> R {
    let arity = |lo: usize, hi: usize| -> Result<(), Ctl> {
        if args.len() < lo || args.len() > hi {
            return Err(fail(
                ErrorKind::Arity,
                format!("wrong number of arguments ({}) passed to {}", args.len(), preview(f)),
            ));
        }
        Ok(())
    };
    match f {
        Value::Keyword(_) => {
            arity(1, 2)?;
            Ok(match &args[0] {
                Value::Map(m) => m.get(f).cloned(),
                Value::Set(s) => s.get(f).cloned(),
                _ => None,
            }
            .unwrap_or_else(|| args.get(1).cloned().unwrap_or(Value::Nil)))
        }
        Value::Map(m) => {
            arity(1, 2)?;
            Ok(m.get(&args[0]).cloned().unwrap_or_else(|| args.get(1).cloned().unwrap_or(Value::Nil)))
        }
        Value::Set(s) => {
            arity(1, 1)?;
            Ok(s.get(&args[0]).cloned().unwrap_or(Value::Nil))
        }
        Value::Vector(items) => {
            arity(1, 1)?;
            let i = int_arg("vector lookup", &args[0])?;
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i).cloned())
                .ok_or_else(|| fail(ErrorKind::Other, format!("index {i} out of bounds for vector of {}", items.len())))
        }
        other => Err(fail(ErrorKind::Type, format!("{} is not a function", preview(other)))),
    }
}

/// Whether a value can be called.
pub(crate) fn is_fn(v: &Value) -> bool {
    matches!(v, Value::Fn(f) if f.regex_source().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_agree_with_the_tables() {
        for table in TABLES {
            for b in table.iter() {
                let found = lookup(b.name);
                assert_eq!(found.is_some(), !is_internal(b.name), "{}", b.name);
                if let Some(f) = found {
                    assert_eq!(f.name, b.name);
                }
                let shadowed = crate::special::is_special(b.name) || crate::special::unsupported(b.name).is_some();
                let call = lookup_call(b.name).map(|f| f as *const Builtin);
                assert_eq!(call, if shadowed { None } else { found.map(|f| f as *const Builtin) }, "{}", b.name);
            }
        }
        assert!(lookup("no-such-builtin").is_none() && lookup_call("").is_none());
        assert!(lookup_in("str", "reverse").is_some_and(|b| b.name == "string-reverse"));
    }
}
