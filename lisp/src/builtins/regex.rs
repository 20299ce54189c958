//! Regular expressions on the `regex` crate: linear time in the input, with
//! the compiled program size capped, so no pattern can hang the sandbox.

use super::{b, list, str_arg, type_err, vector, Builtin};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::value::{FnBody, FnDesc, Function, Value};
use regex::{Captures, Regex, RegexBuilder};
use std::borrow::Cow;
use std::sync::Arc;

/// Longest pattern accepted, in bytes.
const MAX_PATTERN_BYTES: usize = 10_000;
/// Cap on the compiled program size.
const MAX_COMPILED_BYTES: usize = 1 << 20;

pub(crate) const BUILTINS: &[Builtin] = &[
    b("re-pattern", 1, 1, re_pattern),
    b("re-find", 2, 2, re_find),
    b("re-matches", 2, 2, re_matches),
    b("re-seq", 2, 2, re_seq),
    b("regex?", 1, 1, |_, a| Ok(Value::Bool(matches!(&a[0], Value::Fn(f) if f.regex_source().is_some())))),
    b("extract", 2, 3, extract),
    b("extract-int", 2, 4, extract_int),
];

fn build(src: &str) -> Result<Regex, String> {
    if src.len() > MAX_PATTERN_BYTES {
        return Err(format!("regex longer than {MAX_PATTERN_BYTES} bytes"));
    }
    RegexBuilder::new(src)
        .size_limit(MAX_COMPILED_BYTES)
        .build()
        .map_err(|e| format!("invalid regex: {}", e.to_string().lines().last().unwrap_or("syntax error")))
}

/// Compiles a pattern into a regex value.
pub(crate) fn compile(src: &str) -> Result<Value, String> {
    let re = build(src)?;
    let desc = FnDesc { name: Some("regex".into()), ..FnDesc::default() };
    Ok(Value::Fn(Arc::new(Function { desc, body: Some(FnBody::Regex(Arc::new(re))) })))
}

/// The regex in `v`; a string is compiled (as a literal if `literal_strings`).
pub(crate) fn as_regex<'v>(who: &str, v: &'v Value, literal_strings: bool) -> Result<Cow<'v, Regex>, Ctl> {
    match v {
        Value::Fn(f) => match &f.body {
            Some(FnBody::Regex(re)) => Ok(Cow::Borrowed(&**re)),
            _ => Err(type_err(who, "a regex", v)),
        },
        Value::Str(s) => {
            let src = if literal_strings { regex::escape(s) } else { s.to_string() };
            build(&src).map(Cow::Owned).map_err(|m| fail(ErrorKind::Other, format!("{who}: {m}")))
        }
        other => Err(type_err(who, "a regex", other)),
    }
}

/// A match as Clojure returns it: the string, or `[whole group1 ...]` when the regex has groups.
pub(crate) fn match_value(caps: &Captures) -> Value {
    if caps.len() == 1 {
        return Value::str(caps.get(0).map_or("", |m| m.as_str()));
    }
    vector(caps.iter().map(|g| g.map_or(Value::Nil, |m| Value::str(m.as_str()))).collect())
}

fn re_pattern(_: &mut Interp, args: &mut [Value]) -> R {
    match &args[0] {
        v @ Value::Fn(_) => as_regex("re-pattern", v, false).map(|_| v.clone()),
        other => compile(str_arg("re-pattern", other)?).map_err(|m| fail(ErrorKind::Other, m)),
    }
}

fn re_find(_: &mut Interp, args: &mut [Value]) -> R {
    let re = as_regex("re-find", &args[0], false)?;
    let s = str_arg("re-find", &args[1])?;
    Ok(re.captures(s).map_or(Value::Nil, |c| match_value(&c)))
}

fn re_matches(_: &mut Interp, args: &mut [Value]) -> R {
    let re = as_regex("re-matches", &args[0], false)?;
    let s = str_arg("re-matches", &args[1])?;
    let anchored = build(&format!("^(?:{})$", re.as_str())).map_err(|m| fail(ErrorKind::Other, m))?;
    Ok(anchored.captures(s).map_or(Value::Nil, |c| {
        // The wrapper group is not one of the user's groups.
        match_value(&c)
    }))
}

fn re_seq(interp: &mut Interp, args: &mut [Value]) -> R {
    let re = as_regex("re-seq", &args[0], false)?;
    let s = str_arg("re-seq", &args[1])?;
    let mut out = Vec::new();
    for c in re.captures_iter(s) {
        out.push(match_value(&c));
        interp.check_len(out.len())?;
    }
    Ok(if out.is_empty() { Value::Nil } else { list(out) })
}

/// Group `n` (default 1, or 0 for a regex without groups) of the first match.
fn group(who: &str, args: &[Value]) -> Result<Option<String>, Ctl> {
    let re = as_regex(who, &args[0], false)?;
    let s = str_arg(who, &args[1])?;
    let n = match args.get(2) {
        Some(n) => usize::try_from(super::int_arg(who, n)?).map_err(|_| type_err(who, "a group number >= 0", n))?,
        None if re.captures_len() > 1 => 1,
        None => 0,
    };
    Ok(re.captures(s).and_then(|c| c.get(n)).map(|m| m.as_str().to_string()))
}

fn extract(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(group("extract", args)?.map_or(Value::Nil, Value::str))
}

fn extract_int(_: &mut Interp, args: &mut [Value]) -> R {
    let parsed = group("extract-int", &args[..args.len().min(3)])?.and_then(|g| g.trim().parse::<i64>().ok());
    Ok(parsed.map_or_else(|| args.get(3).cloned().unwrap_or(Value::Nil), Value::Int))
}
