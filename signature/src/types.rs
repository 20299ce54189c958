//! The type model: what a parsed signature is, and how it prints.

use std::fmt;

/// A primitive type (`:string`, `:int`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// `:string`: a string.
    String,
    /// `:int`: an integer.
    Int,
    /// `:float`: a finite number (an integer is accepted as well).
    Float,
    /// `:bool`: `true` or `false`.
    Bool,
    /// `:keyword`: a keyword (across JSON, a string that could be one).
    Keyword,
    /// `:datetime`: an RFC 3339 timestamp with its offset, as a string.
    Datetime,
    /// `:map`: any map.
    Map,
    /// `:any`: any value, nil included.
    Any,
}

impl Primitive {
    /// Every primitive, in the order the documentation lists them.
    pub const ALL: [Primitive; 8] = [
        Primitive::String,
        Primitive::Int,
        Primitive::Float,
        Primitive::Bool,
        Primitive::Keyword,
        Primitive::Datetime,
        Primitive::Map,
        Primitive::Any,
    ];

    /// Its name without the colon (`int`).
    pub fn name(self) -> &'static str {
        match self {
            Primitive::String => "string",
            Primitive::Int => "int",
            Primitive::Float => "float",
            Primitive::Bool => "bool",
            Primitive::Keyword => "keyword",
            Primitive::Datetime => "datetime",
            Primitive::Map => "map",
            Primitive::Any => "any",
        }
    }

    /// The primitive named `name` (without the colon).
    pub fn from_name(name: &str) -> Option<Primitive> {
        Primitive::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `:int`, `:string`, ...
    Primitive(Primitive),
    /// `[t]`: a list (vector, list or set; a JSON array) of `t`.
    List(Box<Type>),
    /// `{name t, ...}`: a map with at least these fields.
    Map(Vec<Field>),
    /// `t?`: `t` or nil; as a map field, also absent.
    Optional(Box<Type>),
}

/// A field of a typed map, or a named input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// The name as written (`order_count`).
    pub name: String,
    /// Its type.
    pub ty: Type,
}

/// A parsed signature: named inputs and the output type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The named inputs, in order (empty for the output-only form).
    pub params: Vec<Field>,
    /// The output type.
    pub output: Type,
}

impl Type {
    /// Whether it ends in `?`: nil is allowed and, for a map field or an
    /// input, absence. (`:any` allows nil, but not absence.)
    pub fn is_optional(&self) -> bool {
        matches!(self, Type::Optional(_))
    }

    /// The type without its `?`.
    pub fn required(&self) -> &Type {
        match self {
            Type::Optional(inner) => inner,
            other => other,
        }
    }

    /// The type as prompts write it, without colons: `{id int, tags [string]}`.
    pub fn plain(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, false);
        out
    }

    fn write(&self, out: &mut String, colons: bool) {
        match self {
            Type::Primitive(p) => {
                if colons {
                    out.push(':');
                }
                out.push_str(p.name());
            }
            Type::List(item) => {
                out.push('[');
                item.write(out, colons);
                out.push(']');
            }
            Type::Map(fields) => {
                out.push('{');
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&f.name);
                    out.push(' ');
                    f.ty.write(out, colons);
                }
                out.push('}');
            }
            Type::Optional(inner) => {
                inner.write(out, colons);
                out.push('?');
            }
        }
    }
}

/// The signature syntax: `{id :int, tags [:string]?}`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out, true);
        f.write_str(&out)
    }
}

impl Signature {
    /// The named input `name`, if declared (any spelling: [`crate::same_name`]).
    pub fn param(&self, name: &str) -> Option<&Field> {
        self.params
            .iter()
            .find(|p| p.name == name)
            .or_else(|| self.params.iter().find(|p| crate::same_name(&p.name, name)))
    }

    /// `name :type, name :type` (the inputs as the signature writes them).
    pub fn params_text(&self) -> String {
        self.params.iter().map(|p| format!("{} {}", p.name, p.ty)).collect::<Vec<_>>().join(", ")
    }
}

/// The canonical text: `(a :int, b :string?) -> {n :int}`, or the output
/// type alone when there are no inputs.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.params.is_empty() {
            write!(f, "{}", self.output)
        } else {
            write!(f, "({}) -> {}", self.params_text(), self.output)
        }
    }
}
