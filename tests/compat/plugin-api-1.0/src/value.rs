//! The value type that crosses the plugin boundary.
//!
//! It mirrors a PTC-Lisp value. Authors read it through [`Value::view`],
//! which borrows plain Rust slices and strings, so nothing here costs more
//! than what a strategy actually looks at.

use abi_stable::{
    std_types::{RBox, ROption, RString, RVec},
    StableAbi,
};

/// A PTC-Lisp value in ABI-stable form.
#[repr(transparent)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Value(Repr);

mod repr {
    //! The representation is public only to satisfy the derive; it is not
    //! reachable from outside the crate.
    use super::{FnDesc, MapEntry, Value};
    use abi_stable::{
        std_types::{RBox, RString, RVec},
        StableAbi,
    };

    #[repr(u8)]
    #[derive(StableAbi, Clone, Debug, PartialEq)]
    pub enum Repr {
        Nil,
        Bool(bool),
        Int(i64),
        Float(f64),
        Str(RString),
        Keyword(RString),
        Vector(RVec<Value>),
        List(RVec<Value>),
        Set(RVec<Value>),
        Map(RVec<MapEntry>),
        Fn(RBox<FnDesc>),
        Var(RString),
    }
}
use repr::Repr;

/// One key/value pair of a map value, in the map's own order.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct MapEntry {
    key: Value,
    value: Value,
}

impl MapEntry {
    /// The entry's key.
    pub fn key(&self) -> &Value {
        &self.key
    }

    /// The entry's value.
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// A borrowed, plain-Rust view of a [`Value`], for matching.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRef<'a> {
    /// `nil`
    Nil,
    /// `true` / `false`
    Bool(bool),
    /// 64-bit integer
    Int(i64),
    /// 64-bit float
    Float(f64),
    /// string (without quotes)
    Str(&'a str),
    /// keyword name (without the colon)
    Keyword(&'a str),
    /// `[...]`
    Vector(&'a [Value]),
    /// `(...)`
    List(&'a [Value]),
    /// `#{...}`
    Set(&'a [Value]),
    /// `{...}` in insertion order
    Map(&'a [MapEntry]),
    /// a function, known by its description
    Fn(&'a FnDesc),
    /// a var reference such as the `#'x` a `def` returns (the name)
    Var(&'a str),
}

impl Value {
    /// `nil`
    pub fn nil() -> Value {
        Value(Repr::Nil)
    }
    /// A boolean.
    pub fn bool(b: bool) -> Value {
        Value(Repr::Bool(b))
    }
    /// An integer.
    pub fn int(i: i64) -> Value {
        Value(Repr::Int(i))
    }
    /// A float.
    pub fn float(f: f64) -> Value {
        Value(Repr::Float(f))
    }
    /// A string.
    pub fn string(s: impl Into<String>) -> Value {
        Value(Repr::Str(s.into().into()))
    }
    /// A keyword; `name` is given without the colon.
    pub fn keyword(name: impl Into<String>) -> Value {
        Value(Repr::Keyword(name.into().into()))
    }
    /// A vector.
    pub fn vector(items: Vec<Value>) -> Value {
        Value(Repr::Vector(items.into()))
    }
    /// A list.
    pub fn list(items: Vec<Value>) -> Value {
        Value(Repr::List(items.into()))
    }
    /// A set, in the given order (the caller keeps items distinct).
    pub fn set(items: Vec<Value>) -> Value {
        Value(Repr::Set(items.into()))
    }
    /// A map from pairs, in the given order (the caller keeps keys distinct).
    pub fn map(entries: Vec<(Value, Value)>) -> Value {
        let entries: Vec<MapEntry> = entries.into_iter().map(|(key, value)| MapEntry { key, value }).collect();
        Value(Repr::Map(entries.into()))
    }
    /// A function description.
    pub fn function(desc: FnDesc) -> Value {
        Value(Repr::Fn(RBox::new(desc)))
    }
    /// A var reference (`#'name`), what `def` evaluates to.
    pub fn var(name: impl Into<String>) -> Value {
        Value(Repr::Var(name.into().into()))
    }

    /// Borrow the value as plain Rust data.
    pub fn view(&self) -> ValueRef<'_> {
        match &self.0 {
            Repr::Nil => ValueRef::Nil,
            Repr::Bool(b) => ValueRef::Bool(*b),
            Repr::Int(i) => ValueRef::Int(*i),
            Repr::Float(f) => ValueRef::Float(*f),
            Repr::Str(s) => ValueRef::Str(s),
            Repr::Keyword(k) => ValueRef::Keyword(k),
            Repr::Vector(v) => ValueRef::Vector(v),
            Repr::List(v) => ValueRef::List(v),
            Repr::Set(v) => ValueRef::Set(v),
            Repr::Map(m) => ValueRef::Map(m),
            Repr::Fn(f) => ValueRef::Fn(f),
            Repr::Var(n) => ValueRef::Var(n),
        }
    }

    /// The function description, when the value is a function.
    pub fn as_function(&self) -> Option<&FnDesc> {
        match &self.0 {
            Repr::Fn(f) => Some(f),
            _ => None,
        }
    }
}

/// What a prompt needs to know about a function.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Default)]
pub struct FnDesc {
    name: RString,
    params: RVec<RString>,
    variadic: ROption<RString>,
    return_type: ROption<RString>,
}

impl FnDesc {
    /// A function named `name` (empty for an anonymous one) taking `params`.
    pub fn new(name: impl Into<String>, params: Vec<String>) -> FnDesc {
        FnDesc {
            name: name.into().into(),
            params: params.into_iter().map(RString::from).collect(),
            variadic: ROption::RNone,
            return_type: ROption::RNone,
        }
    }

    /// Sets the name of the `& rest` parameter.
    pub fn with_variadic(mut self, rest: Option<String>) -> FnDesc {
        self.variadic = rest.map(RString::from).into();
        self
    }

    /// Sets the type label of the value the function last returned.
    pub fn with_return_type(mut self, label: Option<String>) -> FnDesc {
        self.return_type = label.map(RString::from).into();
        self
    }

    /// Name it was defined under (empty when anonymous).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Fixed parameter names, in order.
    pub fn params(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.params.iter().map(|p| p.as_str())
    }

    /// Name of the `& rest` parameter, if variadic.
    pub fn variadic(&self) -> Option<&str> {
        self.variadic.as_ref().map(|s| s.as_str()).into_option()
    }

    /// Type label of the value the last call returned, if it was called.
    pub fn return_type(&self) -> Option<&str> {
        self.return_type.as_ref().map(|s| s.as_str()).into_option()
    }
}
