//! Forms: what the reader produces (values plus symbols, with positions),
//! their conversion to values for EDN, and the `#(...)` expansion.

use crate::error::ReadError;
use crate::value::{FnDesc, Function, Value};
use std::sync::Arc;

/// A form read from text, with the position of its first character.
/// Symbols borrow their names from the source text, so reading a program
/// allocates only for lists, strings and keywords.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Form<'a> {
    pub kind: FormKind<'a>,
    pub line: u32,
    pub col: u32,
}

/// The shape of a [`Form`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FormKind<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Arc<str>),
    Keyword(Arc<str>),
    Symbol(&'a str),
    /// `#"..."`: the pattern text, backslashes kept.
    Regex(Arc<str>),
    List(Vec<Form<'a>>),
    Vector(Vec<Form<'a>>),
    /// Keys and values alternating.
    Map(Vec<Form<'a>>),
    Set(Vec<Form<'a>>),
    /// `#tag form` (only `#fn[...]` means anything, in EDN).
    Tagged(&'a str, Box<Form<'a>>),
}

impl<'a> Form<'a> {
    pub fn new(kind: FormKind<'a>, line: u32, col: u32) -> Form<'a> {
        Form { kind, line, col }
    }

    /// The symbol name, if this form is a symbol.
    pub fn as_symbol(&self) -> Option<&'a str> {
        match self.kind {
            FormKind::Symbol(s) => Some(s),
            _ => None,
        }
    }
}

/// Converts a data form into a value; symbols other than the EDN constants are errors.
pub(crate) fn form_to_value(form: &Form) -> Result<Value, ReadError> {
    let err = |message: String| ReadError { line: form.line, column: form.col, message };
    let all = |items: &[Form]| items.iter().map(form_to_value).collect::<Result<Vec<_>, _>>();
    Ok(match &form.kind {
        FormKind::Nil => Value::Nil,
        FormKind::Bool(b) => Value::Bool(*b),
        FormKind::Int(i) => Value::Int(*i),
        FormKind::Float(x) => Value::Float(*x),
        FormKind::Str(s) => Value::Str(s.clone()),
        FormKind::Keyword(k) => Value::Keyword(k.clone()),
        FormKind::Symbol(s) => return Err(err(format!("symbol `{s}` is not a value"))),
        FormKind::Regex(_) => return Err(err("a regex is not an EDN value".into())),
        FormKind::List(items) => Value::List(crate::value::Vector::from(all(items)?).into_list()),
        FormKind::Vector(items) => Value::Vector(crate::value::Vector::from(all(items)?)),
        FormKind::Set(items) => Value::Set(all(items)?.into_iter().collect()),
        FormKind::Map(items) => {
            let vals = all(items)?;
            let mut it = vals.into_iter();
            let mut m = crate::value::Map::with_capacity(items.len() / 2);
            while let (Some(k), Some(v)) = (it.next(), it.next()) {
                m.insert(k, v);
            }
            Value::Map(m)
        }
        FormKind::Tagged("fn", inner) => described_fn(inner)
            .ok_or_else(|| err("#fn expects [name] or [name [params]], e.g. #fn[total [xs]]".into()))?,
        FormKind::Tagged(tag, _) => return Err(err(format!("unknown tag #{tag}"))),
    })
}

/// `#fn[name]` or `#fn[name [a b & rest]]`: a described, non-callable function.
fn described_fn(inner: &Form) -> Option<Value> {
    let FormKind::Vector(parts) = &inner.kind else { return None };
    let mut desc = FnDesc::default();
    match parts.first().map(|f| &f.kind) {
        Some(FormKind::Symbol(name)) if *name != "anonymous" => desc.name = Some((*name).into()),
        Some(FormKind::Symbol(_)) => {}
        _ => return None,
    }
    if let Some(FormKind::Vector(params)) = parts.get(1).map(|f| &f.kind) {
        let mut rest = false;
        for p in params {
            let name = p.as_symbol()?;
            if name == "&" {
                rest = true;
            } else if rest {
                desc.variadic = Some(name.into());
            } else {
                desc.params.push(name.into());
            }
        }
    }
    Some(Value::Fn(Arc::new(Function::described(desc))))
}

/// Parameter names of `#(...)` literals: `%1` to `%20` (index 0 unused).
const PERCENT: [&str; 21] = [
    "%0", "%1", "%2", "%3", "%4", "%5", "%6", "%7", "%8", "%9", "%10", "%11", "%12", "%13", "%14", "%15", "%16", "%17",
    "%18", "%19", "%20",
];

/// `#(...)` becomes `(fn [%1 %2 & %&] (...))`; a bare `%` is `%1`.
pub(crate) fn fn_literal(body: Vec<Form<'_>>, line: u32, col: u32) -> Form<'_> {
    let mut max = 0usize;
    let mut rest = false;
    let mut body = Form::new(FormKind::List(body), line, col);
    rename_percent(&mut body, &mut max, &mut rest);
    let sym = |s: &'static str| Form::new(FormKind::Symbol(s), line, col);
    let mut params: Vec<Form> = PERCENT[1..=max].iter().map(|s| sym(s)).collect();
    if rest {
        params.push(sym("&"));
        params.push(sym("%&"));
    }
    let params = Form::new(FormKind::Vector(params), line, col);
    Form::new(FormKind::List(vec![sym("fn"), params, body]), line, col)
}

fn rename_percent(form: &mut Form<'_>, max: &mut usize, rest: &mut bool) {
    match &mut form.kind {
        FormKind::Symbol(s) if s.starts_with('%') => {
            if *s == "%" {
                *s = "%1";
                *max = (*max).max(1);
            } else if *s == "%&" {
                *rest = true;
            } else if let Ok(n) = s[1..].parse::<usize>() {
                *max = (*max).max(n.min(20));
            }
        }
        FormKind::List(items) | FormKind::Vector(items) | FormKind::Map(items) | FormKind::Set(items) => {
            for item in items {
                rename_percent(item, max, rest);
            }
        }
        _ => {}
    }
}

/// A form as source text (`program` keeps forms as text): whitespace and
/// comments normalised, everything else as read.
pub(crate) fn form_text(form: &Form) -> String {
    let seq = |open: &str, items: &[Form], close: &str| {
        format!("{open}{}{close}", items.iter().map(form_text).collect::<Vec<_>>().join(" "))
    };
    match &form.kind {
        FormKind::Symbol(s) => s.to_string(),
        FormKind::Regex(src) => format!("#\"{src}\""),
        FormKind::List(items) => seq("(", items, ")"),
        FormKind::Vector(items) => seq("[", items, "]"),
        FormKind::Map(items) => seq("{", items, "}"),
        FormKind::Set(items) => seq("#{", items, "}"),
        FormKind::Tagged(tag, inner) => format!("#{tag}{}", form_text(inner)),
        _ => form_to_value(form).map(|v| v.to_string()).unwrap_or_default(),
    }
}
