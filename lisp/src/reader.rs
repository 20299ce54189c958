//! The reader: program text and EDN into forms with line/column spans.
//!
//! One reader serves both uses. [`read_edn`] turns a single form into a
//! [`Value`]; `read_program` keeps every top-level form, with symbols and
//! spans, for the analyzer. Reader macros (`'x`, `#(...)`, `#_`, `#"re"`,
//! `\c`) are expanded here. Nesting is bounded by [`MAX_NESTING`] so no
//! input can overflow the stack.

use crate::error::ReadError;
use crate::form::{fn_literal, form_to_value, Form, FormKind};
use crate::value::Value;

/// Deepest nesting of brackets the reader accepts.
pub const MAX_NESTING: usize = 512;

/// Reads exactly one EDN value (surrounding whitespace and comments allowed).
///
/// ```
/// let v = ptc_lisp::read_edn("{:a [1 2.5 \"x\"]}").unwrap();
/// assert_eq!(v.to_string(), "{:a [1 2.5 \"x\"]}");
/// ```
pub fn read_edn(src: &str) -> Result<Value, ReadError> {
    let mut r = Reader::new(src);
    let form = match r.read_next(0)? {
        Some(f) => f,
        None => return Err(r.error_here("expected a value, found end of input")),
    };
    if r.read_next(0)?.is_some() {
        return Err(r.error_here("expected end of input after the value"));
    }
    form_to_value(&form)
}

/// Reads every top-level form of a program.
pub(crate) fn read_program(src: &str) -> Result<Vec<Form>, ReadError> {
    let mut r = Reader::new(src);
    let mut forms = Vec::new();
    while let Some(f) = r.read_next(0)? {
        forms.push(f);
    }
    Ok(forms)
}

struct Reader<'a> {
    src: &'a str,
    pos: usize,
    line: u32,
    col: u32,
    /// Inside `#(...)`: nested fn literals are not allowed.
    in_fn_literal: bool,
}

fn is_terminator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '"' | ';' | '\\')
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Self {
        Reader { src, pos: 0, line: 1, col: 1, in_fn_literal: false }
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        match self.src.as_bytes().get(self.pos) {
            Some(&b) if b < 0x80 => Some(b as char),
            Some(_) => self.src[self.pos..].chars().next(),
            None => None,
        }
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    #[inline]
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error_at(&self, line: u32, column: u32, message: impl Into<String>) -> ReadError {
        ReadError { line, column, message: message.into() }
    }

    fn error_here(&self, message: impl Into<String>) -> ReadError {
        self.error_at(self.line, self.col, message)
    }

    fn skip_ws(&mut self) {
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b' ' | b',' | b'\t' | b'\r' => {
                    self.pos += 1;
                    self.col += 1;
                }
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.col = 1;
                }
                _ => break,
            }
        }
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == ',' {
                self.bump();
            } else if c == ';' {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// Reads the next form, or `None` at end of input. A closing bracket here is an error.
    fn read_next(&mut self, depth: usize) -> Result<Option<Form>, ReadError> {
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else { return Ok(None) };
            if matches!(c, ')' | ']' | '}') {
                return Err(self.error_here(format!("unexpected `{c}` with no matching opener")));
            }
            if c == '#' && self.peek2() == Some('_') {
                self.bump();
                self.bump();
                if self.read_next(depth)?.is_none() {
                    return Err(self.error_here("expected a form after #_, found end of input"));
                }
                continue;
            }
            return self.read_form(depth).map(Some);
        }
    }

    /// Reads one form. Recursion goes through this and [`Self::read_seq`]
    /// only, so both keep their frames small; everything else is out of line.
    fn read_form(&mut self, depth: usize) -> Result<Form, ReadError> {
        if depth >= MAX_NESTING {
            return Err(self.too_deep());
        }
        let (line, col) = (self.line, self.col);
        let kind = match self.peek() {
            Some('(') => FormKind::List(self.read_seq(')', depth)?),
            Some('[') => FormKind::Vector(self.read_seq(']', depth)?),
            Some('{') => self.read_map(depth)?,
            Some('#') => return self.read_dispatch(depth),
            Some('\'') => self.read_quote(depth)?,
            _ => self.read_leaf()?,
        };
        Ok(Form::new(kind, line, col))
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> ReadError {
        self.error_here(format!("nesting deeper than {MAX_NESTING} levels"))
    }

    #[inline(never)]
    fn read_map(&mut self, depth: usize) -> Result<FormKind, ReadError> {
        let (line, col) = (self.line, self.col);
        let items = self.read_seq('}', depth)?;
        if items.len() % 2 != 0 {
            return Err(self.error_at(line, col, "a map literal needs an even number of forms (key value pairs)"));
        }
        Ok(FormKind::Map(items))
    }

    #[inline(never)]
    fn read_quote(&mut self, depth: usize) -> Result<FormKind, ReadError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let inner = self.read_operand(depth, "'")?;
        let quote = Form::new(FormKind::Symbol("quote".into()), line, col);
        Ok(FormKind::List(vec![quote, inner]))
    }

    /// Strings, characters and atoms: everything that does not nest.
    #[inline(never)]
    fn read_leaf(&mut self) -> Result<FormKind, ReadError> {
        let (line, col) = (self.line, self.col);
        let c = self.peek().expect("read_form is only called before a character");
        match c {
            '"' => {
                self.bump();
                Ok(FormKind::Str(self.read_string(line, col)?.into()))
            }
            '\\' => {
                self.bump();
                Ok(FormKind::Str(self.read_char(line, col)?.into()))
            }
            '^' | '@' | '`' | '~' => {
                Err(self.error_here(format!("`{c}` (metadata, deref, syntax quote) is not supported")))
            }
            _ => self.read_atom(line, col),
        }
    }

    #[inline(never)]
    fn read_operand(&mut self, depth: usize, after: &str) -> Result<Form, ReadError> {
        match self.read_next(depth + 1)? {
            Some(f) => Ok(f),
            None => Err(self.error_here(format!("expected a form after {after}, found end of input"))),
        }
    }

    fn read_seq(&mut self, close: char, depth: usize) -> Result<Vec<Form>, ReadError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let mut items = Vec::with_capacity(4);
        loop {
            self.skip_ws();
            match self.peek() {
                Some(c) if c == close => {
                    self.bump();
                    return Ok(items);
                }
                None | Some(')' | ']' | '}') => return Err(self.unclosed(close, line, col)),
                Some('#') if self.peek2() == Some('_') => {
                    self.bump();
                    self.bump();
                    self.read_operand(depth, "#_")?;
                }
                Some(_) => items.push(self.read_form(depth + 1)?),
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn unclosed(&self, close: char, line: u32, col: u32) -> ReadError {
        let found = match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "end of input".to_string(),
        };
        self.error_here(format!(
            "expected `{close}` to close the form opened at line {line}, column {col}, found {found}"
        ))
    }

    #[inline(never)]
    fn read_dispatch(&mut self, depth: usize) -> Result<Form, ReadError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let kind = match self.peek() {
            Some('{') => FormKind::Set(self.read_seq('}', depth)?),
            Some('(') => {
                if self.in_fn_literal {
                    return Err(self.error_here("nested #(...) literals are not allowed; use (fn [x] ...)"));
                }
                self.in_fn_literal = true;
                let body = self.read_seq(')', depth);
                self.in_fn_literal = false;
                return Ok(fn_literal(body?, line, col));
            }
            Some('"') => {
                self.bump();
                FormKind::Regex(self.read_regex(line, col)?.into())
            }
            Some('#') => {
                self.bump();
                let tok = self.read_token();
                match tok {
                    "Inf" => FormKind::Float(f64::INFINITY),
                    "-Inf" => FormKind::Float(f64::NEG_INFINITY),
                    "NaN" => FormKind::Float(f64::NAN),
                    _ => {
                        return Err(self.error_at(
                            line,
                            col,
                            format!("unknown symbolic value ##{tok}; expected ##Inf, ##-Inf or ##NaN"),
                        ))
                    }
                }
            }
            Some(c) if c.is_alphabetic() => {
                let tag = self.read_token();
                let inner = self.read_operand(depth, &format!("#{tag}"))?;
                FormKind::Tagged(tag.into(), Box::new(inner))
            }
            Some(c) => return Err(self.error_at(line, col, format!("unsupported dispatch `#{c}`"))),
            None => return Err(self.error_here("expected a form after #, found end of input")),
        };
        Ok(Form::new(kind, line, col))
    }

    fn read_token(&mut self) -> &'a str {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut end = start;
        let mut ascii = true;
        while let Some(&b) = bytes.get(end) {
            if b >= 0x80 {
                ascii = false;
                break;
            }
            if is_terminator(b as char) {
                break;
            }
            end += 1;
        }
        if !ascii {
            let rest = &self.src[start..];
            end = start + rest.find(is_terminator).unwrap_or(rest.len());
        }
        // Tokens never contain newlines (whitespace terminates them).
        self.col += if ascii { (end - start) as u32 } else { self.src[start..end].chars().count() as u32 };
        self.pos = end;
        &self.src[start..end]
    }

    fn read_string(&mut self, line: u32, col: u32) -> Result<String, ReadError> {
        let mut s = String::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(self.error_here(format!("unterminated string starting at line {line}, column {col}")));
            };
            match c {
                '"' => return Ok(s),
                '\\' => {
                    let (el, ec) = (self.line, self.col);
                    match self.bump() {
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some('r') => s.push('\r'),
                        Some('b') => s.push('\u{8}'),
                        Some('f') => s.push('\u{c}'),
                        Some('"') => s.push('"'),
                        Some('\\') => s.push('\\'),
                        Some('u') => s.push(self.read_unicode(el, ec)?),
                        Some(o) => return Err(self.error_at(el, ec, format!("unsupported escape `\\{o}` in string"))),
                        None => return Err(self.error_here("unterminated string")),
                    }
                }
                c => s.push(c),
            }
        }
    }

    fn read_unicode(&mut self, line: u32, col: u32) -> Result<char, ReadError> {
        let mut code = 0u32;
        for _ in 0..4 {
            let d = self.bump().and_then(|c| c.to_digit(16));
            let Some(d) = d else {
                return Err(self.error_at(line, col, "expected 4 hex digits after \\u"));
            };
            code = code * 16 + d;
        }
        char::from_u32(code).ok_or_else(|| self.error_at(line, col, "\\u escape is not a valid character"))
    }

    fn read_regex(&mut self, line: u32, col: u32) -> Result<String, ReadError> {
        let mut s = String::new();
        loop {
            match self.bump() {
                None => {
                    return Err(self.error_here(format!("unterminated regex starting at line {line}, column {col}")))
                }
                Some('"') => return Ok(s),
                Some('\\') => {
                    s.push('\\');
                    match self.bump() {
                        Some(c) => s.push(c),
                        None => return Err(self.error_here("unterminated regex")),
                    }
                }
                Some(c) => s.push(c),
            }
        }
    }

    fn read_char(&mut self, line: u32, col: u32) -> Result<String, ReadError> {
        let Some(first) = self.bump() else {
            return Err(self.error_here("expected a character after \\"));
        };
        let mut name = String::from(first);
        while let Some(c) = self.peek() {
            if is_terminator(c) {
                break;
            }
            name.push(c);
            self.bump();
        }
        if name.chars().count() == 1 {
            return Ok(name);
        }
        let c =
            match name.as_str() {
                "newline" => '\n',
                "space" => ' ',
                "tab" => '\t',
                "return" => '\r',
                "backspace" => '\u{8}',
                "formfeed" => '\u{c}',
                n if n.starts_with('u') && n.len() == 5 => u32::from_str_radix(&n[1..], 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| self.error_at(line, col, format!("invalid character literal \\{n}")))?,
                n => return Err(self.error_at(line, col, format!("unknown character literal \\{n}"))),
            };
        Ok(c.to_string())
    }

    fn read_atom(&mut self, line: u32, col: u32) -> Result<FormKind, ReadError> {
        let tok = self.read_token();
        let err = |m: String| ReadError { line, column: col, message: m };
        let mut chars = tok.chars();
        let first = chars.next().unwrap_or(' ');
        let second = chars.next();
        if first.is_ascii_digit() || (matches!(first, '+' | '-') && second.is_some_and(|c| c.is_ascii_digit())) {
            return parse_number(tok).map_err(err);
        }
        if let Some(k) = tok.strip_prefix(':') {
            let k = k.strip_prefix(':').unwrap_or(k);
            if k.is_empty() || k.ends_with(':') {
                return Err(err(format!("invalid keyword `{tok}`")));
            }
            return Ok(FormKind::Keyword(k.into()));
        }
        Ok(match tok {
            "nil" => FormKind::Nil,
            "true" => FormKind::Bool(true),
            "false" => FormKind::Bool(false),
            "" => return Err(err(format!("unexpected character `{first}`"))),
            _ => FormKind::Symbol(crate::builtins::interned(tok).unwrap_or_else(|| tok.into())),
        })
    }
}

fn parse_number(tok: &str) -> Result<FormKind, String> {
    if tok.len() < 19 && tok.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(FormKind::Int(tok.bytes().fold(0, |n, b| n * 10 + (b - b'0') as i64)));
    }
    let (neg, body) = match tok.as_bytes()[0] {
        b'-' => (true, &tok[1..]),
        b'+' => (false, &tok[1..]),
        _ => (false, tok),
    };
    let bad = || format!("invalid number `{tok}`");
    if body.contains('/') {
        return Err(format!("ratio `{tok}` is not supported; write a decimal such as 0.5"));
    }
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let v = i64::from_str_radix(hex, 16).map_err(|_| bad())?;
        return Ok(FormKind::Int(if neg { -v } else { v }));
    }
    let is_float = body.contains(['.', 'e', 'E']) || body.ends_with('M');
    if is_float {
        let digits = body.strip_suffix('M').unwrap_or(body);
        if !digits.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+')) {
            return Err(bad());
        }
        let v: f64 = digits.parse().map_err(|_| bad())?;
        return Ok(FormKind::Float(if neg { -v } else { v }));
    }
    let digits = body.strip_suffix('N').unwrap_or(body);
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
        return Err(bad());
    }
    let signed = if neg { format!("-{digits}") } else { digits.to_string() };
    signed.parse::<i64>().map(FormKind::Int).map_err(|_| format!("integer `{tok}` does not fit in 64 bits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(src: &str) -> String {
        read_edn(src).unwrap().to_string()
    }

    #[test]
    fn reads_scalars_and_collections() {
        assert_eq!(rt("nil"), "nil");
        assert_eq!(rt("  -42 "), "-42");
        assert_eq!(rt("1.5"), "1.5");
        assert_eq!(rt("1e3"), "1000.0");
        assert_eq!(rt(r#""a\"b\n""#), r#""a\"b\n""#);
        assert_eq!(rt(":kw"), ":kw");
        assert_eq!(rt("[1, 2 ,3]"), "[1 2 3]");
        assert_eq!(rt("(1 (2))"), "(1 (2))");
        assert_eq!(rt("#{1 2}"), "#{1 2}");
        assert_eq!(rt("{:a 1, :b 2} ; comment"), "{:a 1 :b 2}");
        assert_eq!(rt("[##Inf ##-Inf ##NaN]"), "[##Inf ##-Inf ##NaN]");
        assert_eq!(rt("[1 #_ 2 3]"), "[1 3]");
        assert_eq!(rt("\\a"), "\"a\"");
        assert_eq!(rt("#fn[total [xs]]"), "#fn[total]");
    }

    #[test]
    fn reports_positions() {
        let e = read_edn("[1 2\n  (3 4]").unwrap_err();
        assert_eq!((e.line, e.column), (2, 7));
        assert!(e.to_string().starts_with("line 2, column 7: expected `)`"), "{e}");
        let e = read_edn("{:a}").unwrap_err();
        assert!(e.message.contains("even number"), "{e}");
        assert!(read_edn("1 2").is_err());
        assert!(read_edn("").is_err());
        assert!(read_edn("foo").is_err());
        assert!(read_edn("99999999999999999999").is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = "(".repeat(100_000);
        assert!(read_edn(&src).unwrap_err().message.contains("nesting"));
        let src = "#{".repeat(100_000);
        assert!(read_edn(&src).is_err());
    }

    #[test]
    fn fn_literal_expands() {
        let forms = read_program("#(+ % %2 %&)").unwrap();
        let FormKind::List(items) = &forms[0].kind else { panic!() };
        let FormKind::Vector(params) = &items[1].kind else { panic!() };
        let names: Vec<_> = params.iter().map(|p| p.as_symbol().unwrap()).collect();
        assert_eq!(names, ["%1", "%2", "&", "%&"]);
    }
}
