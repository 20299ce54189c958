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
pub(crate) fn read_program(src: &str) -> Result<Vec<Form<'_>>, ReadError> {
    let mut r = Reader::new(src);
    while let Some(f) = r.read_next(0)? {
        r.stack.push(f);
    }
    // Every list has taken its items off the stack, so what is left is the top level.
    Ok(r.stack)
}

struct Reader<'a> {
    src: &'a str,
    pos: usize,
    line: u32,
    col: u32,
    /// Inside `#(...)`: nested fn literals are not allowed.
    in_fn_literal: bool,
    /// Items of the collections being read, innermost last: a collection's
    /// items are moved into a vector of exactly their number when it closes,
    /// so reading allocates once per collection.
    stack: Vec<Form<'a>>,
}

fn is_terminator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '"' | ';' | '\\')
}

/// [`is_terminator`] for ASCII, as a table (the reader's innermost loop).
const ASCII_TERMINATOR: [bool; 128] = {
    let mut t = [false; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = (i as u8).is_ascii_whitespace()
            || matches!(i as u8, 0x0B | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'"' | b';' | b'\\');
        i += 1;
    }
    t
};

/// Whether `b` starts a symbol, keyword, number or `nil`/`true`/`false`
/// (what [`Reader::read_atom`] reads) rather than a collection, string or reader macro.
///
/// The hot helpers are inlined into the recursive readers only in optimised
/// builds: unoptimised frames would grow and deep nesting could overflow a
/// 2 MiB stack before [`MAX_NESTING`] is reached.
#[cfg_attr(not(debug_assertions), inline(always))]
fn starts_atom(b: u8) -> bool {
    const TABLE: [bool; 128] = {
        let mut t = [true; 128];
        let not_atoms = b"([{#'\"\\^@`~";
        let mut i = 0;
        while i < not_atoms.len() {
            t[not_atoms[i] as usize] = false;
            i += 1;
        }
        t
    };
    b < 0x80 && TABLE[b as usize]
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Self {
        Reader { src, pos: 0, line: 1, col: 1, in_fn_literal: false, stack: Vec::new() }
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        match self.src.as_bytes().get(self.pos) {
            Some(&b) if b < 0x80 => Some(b as char),
            Some(_) => self.src[self.pos..].chars().next(),
            None => None,
        }
    }

    #[inline]
    fn peek_byte(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
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

    /// Steps over an ASCII character other than a newline.
    #[inline]
    fn bump_ascii(&mut self) {
        self.pos += 1;
        self.col += 1;
    }

    fn error_at(&self, line: u32, column: u32, message: impl Into<String>) -> ReadError {
        ReadError { line, column, message: message.into() }
    }

    fn error_here(&self, message: impl Into<String>) -> ReadError {
        self.error_at(self.line, self.col, message)
    }

    /// Skips whitespace (commas included) and `;` comments.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn skip_ws(&mut self) {
        // Single spaces between tokens are the common case.
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if b == b' ' {
                self.bump_ascii();
            } else if b > b' ' && b != b',' && b != b';' && b < 0x80 {
                return;
            } else {
                return self.skip_ws_slow();
            }
        }
    }

    #[inline(never)]
    fn skip_ws_slow(&mut self) {
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b' ' | b',' | b'\t' | b'\r' | 0x0B | 0x0C => self.bump_ascii(),
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.col = 1;
                }
                b';' => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                0x80.. => match self.peek() {
                    Some(c) if c.is_whitespace() => {
                        self.bump();
                    }
                    _ => break,
                },
                _ => break,
            }
        }
    }

    /// Reads the next form, or `None` at end of input. A closing bracket here is an error.
    fn read_next(&mut self, depth: usize) -> Result<Option<Form<'a>>, ReadError> {
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
    /// only, so both keep their frames small; everything else is out of line
    /// (atoms only in unoptimised builds, see [`starts_atom`]).
    fn read_form(&mut self, depth: usize) -> Result<Form<'a>, ReadError> {
        if depth >= MAX_NESTING {
            return Err(self.too_deep());
        }
        let (line, col) = (self.line, self.col);
        let kind = match self.peek_byte() {
            Some(b'(') => FormKind::List(self.read_seq(b')', depth)?),
            Some(b'[') => FormKind::Vector(self.read_seq(b']', depth)?),
            Some(b'{') => self.read_map(depth)?,
            Some(b'#') => return self.read_dispatch(depth),
            Some(b'\'') => self.read_quote(depth)?,
            Some(b) if starts_atom(b) => return self.read_atom_form(),
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
    fn read_map(&mut self, depth: usize) -> Result<FormKind<'a>, ReadError> {
        let (line, col) = (self.line, self.col);
        let items = self.read_seq(b'}', depth)?;
        if items.len() % 2 != 0 {
            return Err(self.error_at(line, col, "a map literal needs an even number of forms (key value pairs)"));
        }
        Ok(FormKind::Map(items))
    }

    #[inline(never)]
    fn read_quote(&mut self, depth: usize) -> Result<FormKind<'a>, ReadError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let inner = self.read_operand(depth, "'")?;
        let quote = Form::new(FormKind::Symbol("quote"), line, col);
        Ok(FormKind::List(vec![quote, inner]))
    }

    /// Strings, characters and atoms: everything that does not nest.
    #[inline(never)]
    fn read_leaf(&mut self) -> Result<FormKind<'a>, ReadError> {
        let (line, col) = (self.line, self.col);
        match self.peek_byte() {
            Some(b'"') => {
                self.bump_ascii();
                Ok(FormKind::Str(self.read_string(line, col)?.into()))
            }
            Some(b'\\') => {
                self.bump_ascii();
                Ok(FormKind::Str(self.read_char(line, col)?.into()))
            }
            Some(c @ (b'^' | b'@' | b'`' | b'~')) => Err(self.error_here(format!(
                "`{}` is not supported: {}",
                c as char,
                match c {
                    b'^' => "there is no metadata; drop the hint (`(def x 1)`, not `(def ^:private x 1)`)",
                    b'@' => "there are no atoms to deref; keep a value with def or let, or carry it through loop/recur",
                    _ => "there are no macros to syntax-quote; build the list with list or vector",
                }
            ))),
            _ => self.read_atom(line, col),
        }
    }

    #[inline(never)]
    fn read_operand(&mut self, depth: usize, after: &str) -> Result<Form<'a>, ReadError> {
        match self.read_next(depth + 1)? {
            Some(f) => Ok(f),
            None => Err(self.error_here(format!("expected a form after {after}, found end of input"))),
        }
    }

    /// Reads the items of a collection up to `close` (an ASCII bracket).
    fn read_seq(&mut self, close: u8, depth: usize) -> Result<Vec<Form<'a>>, ReadError> {
        let (line, col) = (self.line, self.col);
        self.bump_ascii();
        let start = self.stack.len();
        loop {
            self.skip_ws();
            match self.peek_byte() {
                Some(c) if c == close => {
                    self.bump_ascii();
                    return Ok(self.stack.split_off(start));
                }
                None | Some(b')' | b']' | b'}') => return Err(self.unclosed(close as char, line, col)),
                Some(b'#') if self.peek2() == Some('_') => {
                    self.bump();
                    self.bump();
                    self.read_operand(depth, "#_")?;
                }
                Some(b) => {
                    // Atoms are most items; reading them here saves a call per item.
                    let item = if starts_atom(b) && depth + 1 < MAX_NESTING {
                        self.read_atom_form()?
                    } else {
                        self.read_form(depth + 1)?
                    };
                    if self.stack.capacity() == 0 {
                        // Room for most programs' open items, and small enough for malloc's fast path.
                        self.stack.reserve(16);
                    }
                    self.stack.push(item);
                }
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
    fn read_dispatch(&mut self, depth: usize) -> Result<Form<'a>, ReadError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let kind = match self.peek() {
            Some('{') => FormKind::Set(self.read_seq(b'}', depth)?),
            Some('(') => {
                if self.in_fn_literal {
                    return Err(self.error_here("nested #(...) literals are not allowed; use (fn [x] ...)"));
                }
                self.in_fn_literal = true;
                let body = self.read_seq(b')', depth);
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
                FormKind::Tagged(tag, Box::new(inner))
            }
            Some(c) => return Err(self.error_at(line, col, format!("unsupported dispatch `#{c}`"))),
            None => return Err(self.error_here("expected a form after #, found end of input")),
        };
        Ok(Form::new(kind, line, col))
    }

    /// Reads a token up to the next terminator.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_token(&mut self) -> &'a str {
        let src: &'a str = self.src;
        let bytes = src.as_bytes();
        let start = self.pos;
        let mut end = start;
        while let Some(&b) = bytes.get(end) {
            if b >= 0x80 {
                return self.read_token_unicode(start);
            }
            if ASCII_TERMINATOR[b as usize] {
                break;
            }
            end += 1;
        }
        // Tokens never contain newlines (whitespace terminates them).
        self.col += (end - start) as u32;
        self.pos = end;
        &src[start..end]
    }

    /// [`Self::read_token`] once a non-ASCII character turns up.
    #[cold]
    #[inline(never)]
    fn read_token_unicode(&mut self, start: usize) -> &'a str {
        let src: &'a str = self.src;
        let rest = &src[start..];
        let end = start + rest.find(is_terminator).unwrap_or(rest.len());
        self.col += src[start..end].chars().count() as u32;
        self.pos = end;
        &src[start..end]
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

    /// An atom as a form (see [`starts_atom`] on inlining).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_atom_form(&mut self) -> Result<Form<'a>, ReadError> {
        let (line, col) = (self.line, self.col);
        Ok(Form::new(self.read_atom(line, col)?, line, col))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_atom(&mut self, line: u32, col: u32) -> Result<FormKind<'a>, ReadError> {
        let tok = self.read_token();
        let err = |m: String| ReadError { line, column: col, message: m };
        // A non-ASCII first character is neither a digit nor a sign, so bytes suffice here.
        let (first, second) = match tok.as_bytes() {
            [] => (b' ', None),
            [a, rest @ ..] => (*a, rest.first().copied()),
        };
        if first.is_ascii_digit() || (matches!(first, b'+' | b'-') && second.is_some_and(|c| c.is_ascii_digit())) {
            if tok.len() < 19 && tok.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(FormKind::Int(tok.bytes().fold(0, |n, b| n * 10 + (b - b'0') as i64)));
            }
            return parse_number(tok).map_err(err);
        }
        if let Some(k) = tok.strip_prefix(':') {
            let k = k.strip_prefix(':').unwrap_or(k);
            // `:::a` would be a keyword named `:a`, printed `::a`, read back as `:a`.
            if k.is_empty() || k.starts_with(':') || k.ends_with(':') {
                return Err(err(format!("invalid keyword `{tok}`")));
            }
            return Ok(FormKind::Keyword(k.into()));
        }
        Ok(match tok {
            "nil" => FormKind::Nil,
            "true" => FormKind::Bool(true),
            "false" => FormKind::Bool(false),
            "" => return Err(err(format!("unexpected character `{}`", first as char))),
            _ => FormKind::Symbol(tok),
        })
    }
}

#[inline(never)]
fn parse_number(tok: &str) -> Result<FormKind<'static>, String> {
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
    fn byte_tables_agree_with_char_rules() {
        for b in 0u8..128 {
            assert_eq!(ASCII_TERMINATOR[b as usize], is_terminator(b as char), "byte {b}");
            let opens = matches!(b, b'(' | b'[' | b'{' | b'#' | b'\'' | b'"' | b'\\' | b'^' | b'@' | b'`' | b'~');
            assert_eq!(starts_atom(b), !opens, "byte {b}");
        }
    }

    #[test]
    fn unicode_whitespace_comments_and_symbols_keep_positions() {
        assert_eq!(rt("[1\u{a0}2\u{3000}3\u{b}4]"), "[1 2 3 4]");
        assert_eq!(rt("[:é :λx ; comment é\n :kw]"), "[:é :λx :kw]");
        let e = read_edn("[1\u{a0}:é ; c\n  (").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4), "{e}");
        let e = read_edn("; only a comment é").unwrap_err();
        assert_eq!((e.line, e.column), (1, 19), "{e}");
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
