//! The PTC-Lisp value type shared by the reader, the evaluator and the host.

pub use crate::coll::{Map, Set, Vector};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A PTC-Lisp value.
///
/// Collections are persistent ([`Vector`], [`Map`], [`Set`]): cloning a
/// value is cheap whatever its size, and a changed copy shares structure
/// with the original. Equality follows Clojure's `=`: vectors and lists with equal
/// elements are equal, an integer never equals a float.
// A full-word tag: moves of values (and of results holding them) are then
// whole-word copies, which the CPU forwards; with a one-byte tag it had to
// stitch byte-sized stores, which made every builtin call slower.
#[derive(Clone)]
#[repr(u64)]
pub enum Value {
    /// `nil`
    Nil,
    /// `true` / `false`
    Bool(bool),
    /// A 64-bit integer; arithmetic overflow is an error, never a wrap.
    Int(i64),
    /// A 64-bit float, including `##Inf`, `##-Inf` and `##NaN`.
    Float(f64),
    /// A string.
    Str(Arc<str>),
    /// A keyword, stored without its leading colon.
    Keyword(Arc<str>),
    /// `[...]`
    Vector(Vector),
    /// `(...)` as data (a list value).
    List(Vector),
    /// `#{...}`, insertion-ordered.
    Set(Set),
    /// `{...}`, insertion-ordered.
    Map(Map),
    /// A function (builtin or user closure).
    Fn(Arc<Function>),
}

/// What is known about a function: enough to describe it in a prompt.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FnDesc {
    /// The name it was defined under, if any.
    pub name: Option<Arc<str>>,
    /// Fixed parameter names.
    pub params: Vec<Arc<str>>,
    /// Name of the `& rest` parameter, if variadic.
    pub variadic: Option<Arc<str>>,
    /// Docstring given to `defn`.
    pub docstring: Option<Arc<str>>,
}

/// A function value: its description plus, when it can be called, its body.
pub struct Function {
    /// Name, params and docstring.
    pub desc: FnDesc,
    /// How to call it (`None` for a function only described, e.g. read back from a session file).
    pub(crate) body: Option<FnBody>,
}

/// Functions can capture functions without limit (`(reduce (fn [f _] (fn []
/// f)) nil (range 1000000))`), so dropping one must not recurse: the values
/// it carries are taken out and dropped from a work list.
impl Drop for Function {
    fn drop(&mut self) {
        let Some(mut pending) = self.carried_mut().map(std::mem::take) else { return };
        pending.append(&mut self.take_memo());
        while let Some(v) = pending.pop() {
            if let Value::Fn(f) = v {
                if let Ok(mut f) = Arc::try_unwrap(f) {
                    if let Some(values) = f.carried_mut() {
                        pending.append(values);
                    }
                    pending.append(&mut f.take_memo());
                    // `f` now carries nothing and drops without recursing.
                }
            }
            // Anything else is a collection, nested at most MAX_VALUE_DEPTH deep.
        }
    }
}

/// The callable part of a function; the evaluator owns its shape.
pub(crate) enum FnBody {
    /// A core-library function.
    Builtin(&'static crate::builtins::Builtin),
    /// A user function: compiled code plus captured values.
    Closure(crate::eval::Closure),
    /// A function made by a builtin (`partial`, `comp`, `juxt`, ...).
    Native(crate::builtins::Native),
    /// A compiled regex (`#"..."`, `re-pattern`); prints as `#"..."`.
    Regex(Arc<regex::Regex>),
}

impl Function {
    /// A function known only by its description (not callable).
    pub fn described(desc: FnDesc) -> Self {
        Function { desc, body: None }
    }

    /// The values this function carries: a closure's captures, a
    /// combinator's arguments (`partial`, `comp`, ...). `None` for functions
    /// that carry nothing by construction (builtins, regexes, descriptions).
    pub(crate) fn carried(&self) -> Option<&[Value]> {
        match &self.body {
            Some(FnBody::Closure(c)) => Some(&c.captures),
            Some(FnBody::Native(n)) => Some(&n.vals),
            _ => None,
        }
    }

    /// A memoized function's cached results (`None` for other functions).
    pub(crate) fn memo_entries(&self) -> Option<crate::value::Map> {
        match &self.body {
            Some(FnBody::Native(n)) => n.memo_entries(),
            _ => None,
        }
    }

    fn take_memo(&mut self) -> Vec<Value> {
        match &mut self.body {
            Some(FnBody::Native(n)) => n.take_memo(),
            _ => Vec::new(),
        }
    }

    fn carried_mut(&mut self) -> Option<&mut Vec<Value>> {
        match &mut self.body {
            Some(FnBody::Closure(c)) => Some(&mut c.captures),
            Some(FnBody::Native(n)) => Some(&mut n.vals),
            _ => None,
        }
    }

    /// Whether this function can be called.
    pub fn is_callable(&self) -> bool {
        matches!(self.body, Some(FnBody::Builtin(_) | FnBody::Closure(_) | FnBody::Native(_)))
    }

    /// The regex this value wraps, if it is one (regexes print as `#"..."`).
    pub fn regex_source(&self) -> Option<&str> {
        match &self.body {
            Some(FnBody::Regex(re)) => Some(re.as_str()),
            _ => None,
        }
    }
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#fn[{}]", self.desc.name.as_deref().unwrap_or("anonymous"))
    }
}

/// Whether a keyword named `name` reads back as itself when printed
/// (`:name`): not empty, no space, comma, bracket, quote or `;`, and not
/// starting with `:`. Values are stored as EDN (a session's definitions
/// and tool results), so every keyword must be one the reader reads.
pub fn keyword_readable(name: &str) -> bool {
    let plain = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    plain || crate::read_edn(&format!(":{name}")).is_ok_and(|v| matches!(&v, Value::Keyword(k) if &**k == name))
}

impl Value {
    /// A string value.
    pub fn str(s: impl Into<Arc<str>>) -> Value {
        Value::Str(s.into())
    }

    /// A keyword value (`name` without the colon).
    pub fn keyword(name: impl Into<Arc<str>>) -> Value {
        Value::Keyword(name.into())
    }

    /// A vector value.
    pub fn vector(items: Vec<Value>) -> Value {
        Value::Vector(items.into())
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(items.into())
    }

    /// A map value from key/value pairs, in order (a later duplicate key replaces the value).
    pub fn map(entries: impl IntoIterator<Item = (Value, Value)>) -> Value {
        Value::Map(entries.into_iter().collect())
    }

    /// Only `nil` and `false` are falsy.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    /// The Clojure type name used in error messages (`string`, `vector`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Keyword(_) => "keyword",
            Value::Vector(_) => "vector",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Map(_) => "map",
            Value::Fn(_) => "function",
        }
    }

    /// Elements of a vector or list.
    pub fn as_seq(&self) -> Option<&Vector> {
        match self {
            Value::Vector(v) | Value::List(v) => Some(v),
            _ => None,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        equal(self, other, &mut Compared::default())
    }
}

/// Collection pairs compared before equality starts remembering which
/// pairs it found equal.
const REMEMBER_AFTER: usize = 4096;

/// The state of one equality test (or `compare`). Values share structure (`[x x]` holds
/// `x` twice), so two separately built values can unfold to billions of
/// elements while holding only a few dozen distinct collections. Once a test
/// has compared many collections, it remembers the pairs (by address) it
/// found equal and does not compare them again: the cost then follows the
/// number of distinct collections, not the unfolded size.
#[derive(Default)]
pub(crate) struct Compared {
    pairs: usize,
    equal: std::collections::HashSet<(usize, usize)>,
}

impl Compared {
    /// Whether the collections at `key` are already known equal; counts the pair.
    pub(crate) fn known(&mut self, key: (usize, usize)) -> bool {
        self.pairs += 1;
        self.pairs > REMEMBER_AFTER && self.equal.contains(&key)
    }

    /// Records the outcome of comparing the pair at `key`; returns `same`.
    pub(crate) fn remember(&mut self, key: (usize, usize), same: bool) -> bool {
        if same && self.pairs > REMEMBER_AFTER {
            self.equal.insert(key);
        }
        same
    }
}

/// Two collections: the same storage (`addrs`), or the same length and
/// `items_equal`, asked at most once per pair once `seen` remembers.
fn same_collection(
    addrs: (usize, usize),
    lengths: (usize, usize),
    seen: &mut Compared,
    items_equal: impl FnOnce(&mut Compared) -> bool,
) -> bool {
    if addrs.0 == addrs.1 {
        return true;
    }
    if lengths.0 != lengths.1 {
        return false;
    }
    let key = addrs;
    if seen.known(key) {
        return true;
    }
    let same = items_equal(seen);
    seen.remember(key, same)
}

fn equal(a: &Value, b: &Value, seen: &mut Compared) -> bool {
    use Value::*;
    match (a, b) {
        (Nil, Nil) => true,
        (Bool(a), Bool(b)) => a == b,
        (Int(a), Int(b)) => a == b,
        // Every NaN equals every NaN here, so Eq/Hash stay lawful for map
        // keys; `=` on ##NaN (always false) is the evaluator's concern.
        (Float(a), Float(b)) => a == b || (a.is_nan() && b.is_nan()),
        (Str(a), Str(b)) => a == b,
        (Keyword(a), Keyword(b)) => a == b,
        (Vector(a) | List(a), Vector(b) | List(b)) => {
            same_collection((a.addr(), b.addr()), (a.len(), b.len()), seen, |seen| {
                a.iter().zip(b.iter()).all(|(x, y)| equal(x, y, seen))
            })
        }
        (Set(a), Set(b)) => crate::coll::Set::ptr_eq(a, b) || (a.len() == b.len() && a.iter().all(|x| b.contains(x))),
        (Map(a), Map(b)) => same_collection((a.addr(), b.addr()), (a.len(), b.len()), seen, |seen| {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| equal(v, w, seen)))
        }),
        (Fn(a), Fn(b)) => Arc::ptr_eq(a, b),
        _ => false,
    }
}

impl Eq for Value {}

/// Hashes look at most `HASH_DEPTH` levels and `HASH_WIDTH` elements per
/// collection: equal values still hash alike, and a value whose shared
/// structure unfolds to billions of elements hashes in bounded time.
impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_bounded(self, state, HASH_DEPTH)
    }
}

/// Collection levels a hash looks into.
const HASH_DEPTH: usize = 3;
/// Elements per collection a hash looks at (sets and maps: all or none).
const HASH_WIDTH: usize = 16;

fn hash_bounded<H: Hasher>(v: &Value, state: &mut H, depth: usize) {
    use Value::*;
    match v {
        Nil => 0u8.hash(state),
        Bool(b) => b.hash(state),
        Int(i) => i.hash(state),
        // -0.0 == 0.0 and every NaN equals every NaN, so they must hash alike.
        Float(f) => (if *f == 0.0 {
            0.0f64
        } else if f.is_nan() {
            f64::NAN
        } else {
            *f
        })
        .to_bits()
        .hash(state),
        Str(s) => s.hash(state),
        Keyword(k) => {
            1u8.hash(state);
            k.hash(state)
        }
        Vector(items) | List(items) => {
            2u8.hash(state);
            items.len().hash(state);
            if depth > 0 {
                for x in items.iter().take(HASH_WIDTH) {
                    hash_bounded(x, state, depth - 1)
                }
            }
        }
        // Order-independent: sum of element hashes.
        Set(items) => {
            3u8.hash(state);
            items.len().hash(state);
            if depth > 0 && items.len() <= HASH_WIDTH {
                let acc = items.iter().fold(0u64, |acc, x| acc.wrapping_add(hash_one(x, depth - 1)));
                acc.hash(state)
            }
        }
        Map(m) => {
            4u8.hash(state);
            m.len().hash(state);
            if depth > 0 && m.len() <= HASH_WIDTH {
                let acc = m.iter().fold(0u64, |acc, (k, x)| {
                    acc.wrapping_add(hash_one(k, depth - 1).wrapping_mul(31).wrapping_add(hash_one(x, depth - 1)))
                });
                acc.hash(state)
            }
        }
        Fn(f) => (Arc::as_ptr(f) as usize).hash(state),
    }
}

fn hash_one(v: &Value, depth: usize) -> u64 {
    use std::collections::hash_map::DefaultHasher;
    let mut h = DefaultHasher::new();
    hash_bounded(v, &mut h, depth);
    h.finish()
}

/// Like `Display`, but cut after 100,000 characters (a shared structure can
/// unfold to gigabytes of text; see [`crate::to_string_truncated`]).
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::print::to_string_truncated(self, 100_000))
    }
}

impl Default for Value {
    /// `nil`.
    fn default() -> Self {
        Value::Nil
    }
}
