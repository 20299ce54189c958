//! Strings: building, slicing, searching, parsing, `format` and printing.
//! Indices count characters, not bytes.

use super::{b, int_arg, items, regex::as_regex, str_arg, type_err, vector, Builtin, VARIADIC};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::print::{append_capped, Mode};
use crate::value::Value;

pub(crate) const BUILTINS: &[Builtin] = &[
    b("str", 0, VARIADIC, str_fn),
    b("char", 1, 1, char_fn),
    b("subs", 2, 3, subs),
    b("join", 1, 2, join),
    b("split", 2, 3, split),
    b("split-lines", 1, 1, split_lines),
    b("re-split", 2, 2, re_split),
    b("trim", 1, 1, trim),
    b("triml", 1, 1, triml),
    b("trimr", 1, 1, trimr),
    b("upper-case", 1, 1, upper_case),
    b("lower-case", 1, 1, lower_case),
    b("capitalize", 1, 1, capitalize),
    b("starts-with?", 2, 2, starts_with),
    b("ends-with?", 2, 2, ends_with),
    b("includes?", 2, 2, includes),
    b("index-of", 2, 3, index_of),
    b("last-index-of", 2, 2, last_index_of),
    b("replace", 3, 3, replace),
    b("replace-first", 3, 3, replace_first),
    b("blank?", 1, 1, blank),
    b("parse-long", 1, 1, parse_long),
    b("parse-double", 1, 1, parse_double),
    b("format", 1, VARIADIC, format),
    b("pr-str", 0, VARIADIC, pr_str),
    b("println", 0, VARIADIC, println),
    b("print", 0, VARIADIC, println),
    b("prn", 0, VARIADIC, prn),
    // One line, as `prn` prints it: what `pprint` prints of a value that
    // fits its width.
    b("pprint", 1, 1, prn),
    b("print-table", 1, 2, print_table),
    b("string-reverse", 1, 1, string_reverse),
    b("upcase", 1, 1, upper_case),
    b("downcase", 1, 1, lower_case),
    b("parse-int", 1, 1, parse_long),
    b("parse-boolean", 1, 1, parse_boolean),
    b("trim-newline", 1, 1, trim_newline),
];

/// Appends `v` printed in `mode`, failing with `size_limit` past the string limit.
pub(crate) fn append_text(interp: &Interp, out: &mut String, v: &Value, mode: Mode) -> Result<(), Ctl> {
    let max = interp.limits.max_string_bytes;
    if !append_capped(out, v, mode, max) {
        return Err(fail(ErrorKind::SizeLimit, format!("string would exceed the limit of {max} bytes")));
    }
    Ok(())
}

fn text(interp: &Interp, s: String) -> R {
    interp.check_str(s.len())?;
    Ok(Value::Str(s.into()))
}

fn str_fn(interp: &mut Interp, args: &mut [Value]) -> R {
    if let [Value::Str(s)] = args {
        return Ok(Value::Str(s.clone()));
    }
    let mut out = String::new();
    for a in args.iter() {
        append_text(interp, &mut out, a, Mode::Display)?;
    }
    text(interp, out)
}

fn char_range(who: &str, s: &str, start: i64, end: Option<i64>) -> Result<(usize, usize), Ctl> {
    let n = s.chars().count() as i64;
    let end = end.unwrap_or(n);
    if start < 0 || end > n || start > end {
        return Err(fail(ErrorKind::Other, format!("{who}: range {start}..{end} is outside the string (length {n})")));
    }
    let byte = |i: i64| s.char_indices().nth(i as usize).map_or(s.len(), |(b, _)| b);
    Ok((byte(start), byte(end)))
}

/// `(char 97)` is `"a"` (characters are one-character strings here).
fn char_fn(_: &mut Interp, args: &mut [Value]) -> R {
    match &args[0] {
        Value::Str(s) if s.chars().count() == 1 => Ok(args[0].clone()),
        Value::Int(i) => u32::try_from(*i)
            .ok()
            .filter(|c| *c <= 0xFFFF)
            .and_then(char::from_u32)
            .map(|c| Value::str(c.to_string()))
            .ok_or_else(|| {
                fail(ErrorKind::Other, format!("char: {i} is not a character code (0 to 65535, not a surrogate)"))
            }),
        other => Err(type_err("char", "an integer character code", other)),
    }
}

fn subs(interp: &mut Interp, args: &mut [Value]) -> R {
    let s = str_arg("subs", &args[0])?;
    let start = int_arg("subs", &args[1])?;
    let end = args.get(2).map(|e| int_arg("subs", e)).transpose()?;
    let (a, z) = char_range("subs", s, start, end)?;
    text(interp, s[a..z].to_string())
}

fn join(interp: &mut Interp, args: &mut [Value]) -> R {
    let (sep, coll) = match args {
        [coll] => (Value::Nil, &*coll),
        [sep, coll] => (sep.clone(), &*coll),
        _ => unreachable!("arity checked"),
    };
    let mut out = String::new();
    for (i, x) in items(coll, "join")?.iter().enumerate() {
        if i > 0 {
            append_text(interp, &mut out, &sep, Mode::Display)?;
        }
        append_text(interp, &mut out, x, Mode::Display)?;
    }
    text(interp, out)
}

/// `(re-split re s)`: `(clojure.string/split s re)`.
fn re_split(interp: &mut Interp, args: &mut [Value]) -> R {
    args.swap(0, 1);
    split(interp, args)
}

/// Java's `String.split`: trailing empty strings dropped unless a limit is given.
fn split(interp: &mut Interp, args: &mut [Value]) -> R {
    let s = str_arg("split", &args[0])?;
    let re = as_regex("split", &args[1], true)?;
    let limit = args.get(2).map(|l| int_arg("split", l)).transpose()?.unwrap_or(0);
    let mut parts: Vec<&str> = Vec::new();
    let mut last = 0;
    let mut matched = false;
    for m in re.find_iter(s) {
        if limit > 0 && parts.len() as i64 == limit - 1 {
            break;
        }
        if m.end() == 0 {
            continue;
        }
        matched = true;
        interp.check_len(parts.len() + 2)?;
        parts.push(&s[last..m.start()]);
        last = m.end();
    }
    if !matched {
        return Ok(vector(vec![Value::str(s)]));
    }
    parts.push(&s[last..]);
    if limit == 0 {
        while parts.last() == Some(&"") {
            parts.pop();
        }
    }
    Ok(vector(parts.into_iter().map(Value::str).collect()))
}

fn split_lines(interp: &mut Interp, args: &mut [Value]) -> R {
    let s = str_arg("split-lines", &args[0])?;
    interp.check_len(s.bytes().filter(|b| *b == b'\n').count() + 1)?;
    let mut parts: Vec<&str> = s.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    while parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    Ok(vector(parts.into_iter().map(Value::str).collect()))
}

fn map_str(who: &str, args: &[Value], f: fn(&str) -> String) -> R {
    Ok(Value::Str(f(str_arg(who, &args[0])?).into()))
}

fn trim(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("trim", args, |s| s.trim().to_string())
}

fn triml(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("triml", args, |s| s.trim_start().to_string())
}

fn trimr(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("trimr", args, |s| s.trim_end().to_string())
}

fn upper_case(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("upper-case", args, str::to_uppercase)
}

fn lower_case(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("lower-case", args, str::to_lowercase)
}

fn capitalize(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("capitalize", args, |s| {
        let mut c = s.chars();
        match c.next() {
            Some(f) => f.to_uppercase().chain(c.as_str().to_lowercase().chars()).collect(),
            None => String::new(),
        }
    })
}

fn string_reverse(_: &mut Interp, args: &mut [Value]) -> R {
    map_str("reverse", args, |s| s.chars().rev().collect())
}

fn two_strs<'v>(who: &str, args: &'v [Value]) -> Result<(&'v str, &'v str), Ctl> {
    Ok((str_arg(who, &args[0])?, str_arg(who, &args[1])?))
}

fn starts_with(_: &mut Interp, args: &mut [Value]) -> R {
    let (s, p) = two_strs("starts-with?", args)?;
    Ok(Value::Bool(s.starts_with(p)))
}

fn ends_with(_: &mut Interp, args: &mut [Value]) -> R {
    let (s, p) = two_strs("ends-with?", args)?;
    Ok(Value::Bool(s.ends_with(p)))
}

fn includes(_: &mut Interp, args: &mut [Value]) -> R {
    let (s, p) = two_strs("includes?", args)?;
    Ok(Value::Bool(s.contains(p)))
}

fn char_index(s: &str, byte: Option<usize>) -> Value {
    match byte {
        Some(b) => Value::Int(s[..b].chars().count() as i64),
        None => Value::Nil,
    }
}

fn index_of(_: &mut Interp, args: &mut [Value]) -> R {
    let (s, p) = two_strs("index-of", args)?;
    let from = args.get(2).map(|f| int_arg("index-of", f)).transpose()?.unwrap_or(0).max(0);
    let start = s.char_indices().nth(from as usize).map_or(s.len(), |(b, _)| b);
    Ok(char_index(s, s[start..].find(p).map(|b| b + start)))
}

fn last_index_of(_: &mut Interp, args: &mut [Value]) -> R {
    let (s, p) = two_strs("last-index-of", args)?;
    Ok(char_index(s, s.rfind(p)))
}

/// Java replacement syntax (`$1`, `\$`) to the regex crate's (`${1}`, `$$`).
fn java_replacement(r: &str) -> String {
    let mut out = String::new();
    let mut chars = r.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('$') => out.push_str("$$"),
                Some(o) => out.push(o),
                None => {}
            },
            '$' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                out.push_str(&format!("${{{digits}}}"));
            }
            c => out.push(c),
        }
    }
    out
}

fn replace_impl(interp: &mut Interp, args: &[Value], who: &str, first_only: bool) -> R {
    let s = str_arg(who, &args[0])?;
    let out = match (&args[1], &args[2]) {
        (Value::Str(m), Value::Str(r)) => {
            if first_only {
                s.replacen(&**m, r, 1)
            } else {
                s.replace(&**m, r)
            }
        }
        (pat, repl) => {
            let re = as_regex(who, pat, false)?;
            let limit = if first_only { 1 } else { 0 };
            match repl {
                Value::Str(r) => re.replacen(s, limit, java_replacement(r).as_str()).into_owned(),
                // A map is a function of the match too, as in Clojure:
                // `(str/replace s #"[<>]" {"<" "&lt;" ">" "&gt;"})`.
                f if super::is_fn(f) || matches!(f, Value::Map(_)) => {
                    let mut out = String::new();
                    let mut last = 0;
                    for caps in re.captures_iter(s).take(if first_only { 1 } else { usize::MAX }) {
                        let m = caps.get(0).expect("group 0 always matches");
                        out.push_str(&s[last..m.start()]);
                        let arg = super::regex::match_value(&caps);
                        let r = interp.apply(f, vec![arg])?;
                        append_text(interp, &mut out, &r, Mode::Display)?;
                        last = m.end();
                    }
                    out.push_str(&s[last..]);
                    out
                }
                other => return Err(type_err(who, "a replacement string, function or map", other)),
            }
        }
    };
    text(interp, out)
}

fn replace(interp: &mut Interp, args: &mut [Value]) -> R {
    replace_impl(interp, args, "replace", false)
}

fn replace_first(interp: &mut Interp, args: &mut [Value]) -> R {
    replace_impl(interp, args, "replace-first", true)
}

fn blank(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Bool(match &args[0] {
        Value::Nil => true,
        Value::Str(s) => s.trim().is_empty(),
        other => return Err(type_err("blank?", "a string", other)),
    }))
}

fn parse_long(_: &mut Interp, args: &mut [Value]) -> R {
    let s = str_arg("parse-long", &args[0])?;
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Value::Nil);
    }
    Ok(s.parse::<i64>().map(Value::Int).unwrap_or(Value::Nil))
}

fn parse_double(_: &mut Interp, args: &mut [Value]) -> R {
    let s = str_arg("parse-double", &args[0])?.trim();
    let ok = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    let special = match s {
        "NaN" => Some(f64::NAN),
        "Infinity" | "+Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    };
    if let Some(x) = special {
        return Ok(Value::Float(x));
    }
    Ok(if ok { s.parse::<f64>().map(Value::Float).unwrap_or(Value::Nil) } else { Value::Nil })
}

fn format(interp: &mut Interp, args: &mut [Value]) -> R {
    let fmt = str_arg("format", &args[0])?;
    let out = super::format::java_format(fmt, &args[1..], interp.limits.max_string_bytes)?;
    text(interp, out)
}

fn pr_str(interp: &mut Interp, args: &mut [Value]) -> R {
    let mut out = String::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        append_text(interp, &mut out, a, Mode::Readable)?;
    }
    text(interp, out)
}

/// The text of one print call, built only as far as the print limit needs.
fn print_line(interp: &Interp, args: &[Value], mode: Mode) -> String {
    let max = interp.limits.println_char_limit.saturating_mul(4).saturating_add(8);
    let mut out = String::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if !append_capped(&mut out, a, mode, max) {
            break;
        }
    }
    out
}

pub(crate) fn record(interp: &mut Interp, line: String) -> R {
    let limit = interp.limits.println_char_limit;
    let line = match line.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line,
    };
    interp.keep_print(line);
    Ok(Value::Nil)
}

fn println(interp: &mut Interp, args: &mut [Value]) -> R {
    let line = print_line(interp, args, Mode::Print);
    record(interp, line)
}

fn prn(interp: &mut Interp, args: &mut [Value]) -> R {
    let line = print_line(interp, args, Mode::Readable);
    record(interp, line)
}

/// `(print-table rows)` or `(print-table ks rows)`, as `clojure.pprint`
/// prints it: an empty line, the header of the keys, a divider, then one
/// line per row, each cell `str` of its value right-aligned to its
/// column's widest; every line is one print, as Clojure's `println`s are.
/// The keys are the first row's, in its order, unless given.
fn print_table(interp: &mut Interp, args: &mut [Value]) -> R {
    let (ks, rows) = match args {
        [rows] => (None, items(rows, "print-table")?),
        [ks, rows] => (Some(items(ks, "print-table (keys)")?), items(rows, "print-table")?),
        _ => unreachable!("arity checked"),
    };
    if rows.is_empty() {
        return Ok(Value::Nil);
    }
    let ks: Vec<Value> = match ks {
        Some(ks) => ks.into_owned(),
        None => match &rows[0] {
            Value::Map(m) => m.iter().map(|(k, _)| k.clone()).collect(),
            other => return Err(type_err("print-table", "a sequence of maps", other)),
        },
    };
    let cell = |v: &Value| -> Result<String, Ctl> {
        let mut out = String::new();
        append_text(interp, &mut out, v, Mode::Display)?;
        Ok(out)
    };
    let header = ks.iter().map(&cell).collect::<Result<Vec<_>, _>>()?;
    let mut body = Vec::with_capacity(rows.len());
    for row in rows.iter() {
        let cells = ks.iter().map(|k| cell(&super::map::lookup(row, k).unwrap_or(Value::Nil)));
        body.push(cells.collect::<Result<Vec<_>, _>>()?);
    }
    let widths: Vec<usize> = (0..ks.len())
        .map(|i| body.iter().map(|r| r[i].chars().count()).chain([header[i].chars().count()]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[String], (lead, sep, trail): (&str, &str, &str)| {
        let padded: Vec<String> =
            cells.iter().zip(&widths).map(|(c, w)| format!("{}{c}", " ".repeat(w - c.chars().count()))).collect();
        format!("{lead}{}{trail}", padded.join(sep))
    };
    const CELLS: (&str, &str, &str) = ("| ", " | ", " |");
    let divider: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    let mut lines = vec![String::new(), line(&header, CELLS), line(&divider, ("|-", "-+-", "-|"))];
    lines.extend(body.iter().map(|r| line(r, CELLS)));
    for l in lines {
        record(interp, l)?;
    }
    Ok(Value::Nil)
}

fn parse_boolean(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(match str_arg("parse-boolean", &args[0])? {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::Nil,
    })
}

fn trim_newline(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::str(str_arg("trim-newline", &args[0])?.trim_end_matches(['\n', '\r'])))
}
