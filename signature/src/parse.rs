//! The parser. Every error carries the column it found, so the message can
//! point into the text with a caret.
//!
//! ```text
//! signature = type | "(" [param {[","] param}] ")" "->" type | "->" type
//! param     = [":"] name type
//! type      = (":" primitive | "[" type "]" | "{" [field {[","] field}] "}") ["?"]
//! field     = [":"] name type
//! name      = (letter | digit | "_" | "-")+
//! ```
//!
//! Commas between inputs and fields may be left out, and a map field may
//! be written as a keyword (`{:id :int}`), as PTC-Lisp programs do.

use crate::types::{Field, Primitive, Signature, Type};
use std::fmt;

/// How deep lists and maps may nest in one signature.
pub const MAX_NESTING: usize = 32;

/// A signature that does not parse: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The signature text.
    pub text: String,
    /// Byte offset of the problem in `text`.
    pub offset: usize,
    /// 1-based line of the problem (1 unless the text spans lines).
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub column: usize,
    /// What is wrong, and what would be right.
    pub message: String,
}

impl ParseError {
    fn new(text: &str, offset: usize, message: impl Into<String>) -> ParseError {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        ParseError { text: text.to_string(), offset, line, column, message: message.into() }
    }

    /// Two lines: the signature's line (a window of it when long) and a
    /// caret under the problem.
    pub fn snippet(&self) -> String {
        const WIDTH: usize = 90;
        let line_text = self.text.split('\n').nth(self.line - 1).unwrap_or("");
        let chars: Vec<char> = line_text.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
        let at = self.column - 1;
        let (start, prefix) = if chars.len() > WIDTH && at > WIDTH / 2 { (at - WIDTH / 2, "...") } else { (0, "") };
        let end = (start + WIDTH).min(chars.len());
        let suffix = if end < chars.len() { "..." } else { "" };
        let shown: String = chars[start..end].iter().collect();
        let pad = " ".repeat(prefix.len() + at - start);
        format!("    {prefix}{shown}{suffix}\n    {pad}^")
    }
}

/// `message (column C)`, then the text and a caret under the problem.
impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 1 || self.text.contains('\n') {
            write!(f, "{} (line {}, column {})\n{}", self.message, self.line, self.column, self.snippet())
        } else {
            write!(f, "{} (column {})\n{}", self.message, self.column, self.snippet())
        }
    }
}

impl std::error::Error for ParseError {}

impl Signature {
    /// Parses a signature: `(name :type, ...) -> type`, `-> type`, or an
    /// output type alone.
    pub fn parse(text: &str) -> Result<Signature, ParseError> {
        let mut p = Parser { text, pos: 0 };
        p.ws();
        if p.at_end() {
            return Err(p.error(
                "empty signature: write an output type such as {count :int}, or inputs and an output such as (id :int) -> :map",
            ));
        }
        let params = if p.eat('(') {
            let params = p.fields(')', "input", 0)?;
            p.ws();
            if !p.eat_str("->") {
                return Err(p.error(format!("expected `->` and the output type after the inputs, found {}", p.found())));
            }
            params
        } else {
            p.eat_str("->");
            Vec::new()
        };
        p.ws();
        let output = p.ty(0)?;
        p.ws();
        if !p.at_end() {
            return Err(p.error(format!("unexpected {} after the output type", p.found())));
        }
        Ok(Signature { params, output })
    }
}

impl Type {
    /// Parses one type (`{id :int}`, `[:string]`, `:int?`).
    pub fn parse(text: &str) -> Result<Type, ParseError> {
        let mut p = Parser { text, pos: 0 };
        p.ws();
        let ty = p.ty(0)?;
        p.ws();
        if !p.at_end() {
            return Err(p.error(format!("unexpected {} after the type", p.found())));
        }
        Ok(ty)
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

const TYPE_HINT: &str = ":string, :int, :float, :bool, :keyword, :datetime, :map, :any, [type] or {field type, ...}";

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += self.peek().map_or(1, char::len_utf8);
        }
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.text, self.pos, message)
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(self.text, offset, message)
    }

    /// What is at the current position, for a message.
    fn found(&self) -> String {
        match self.peek() {
            None => "the end".into(),
            Some(_) => {
                let rest = &self.text[self.pos..];
                let word: String = rest.chars().take_while(|c| !c.is_whitespace()).take(12).collect();
                format!("`{word}`")
            }
        }
    }

    fn name(&mut self) -> &str {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            self.pos += self.peek().map_or(1, char::len_utf8);
        }
        &self.text[start..self.pos]
    }

    /// Named fields up to `close` (the `(` or `{` is eaten). `what` is
    /// `input` or `field`; `depth` is how deep the fields' types are.
    fn fields(&mut self, close: char, what: &str, depth: usize) -> Result<Vec<Field>, ParseError> {
        let mut fields: Vec<Field> = Vec::new();
        loop {
            self.ws();
            if self.eat(close) {
                return Ok(fields);
            }
            if !fields.is_empty() && self.eat(',') {
                self.ws();
                if self.eat(close) {
                    return Ok(fields);
                }
            }
            if self.at_end() {
                return Err(self.error(format!("expected `{close}` to close the {what}s, found the end")));
            }
            let start = self.pos;
            self.eat(':');
            let name = self.name().to_string();
            if name.is_empty() {
                return Err(self.error_at(
                    start,
                    format!("expected a{} {what} name, found {}", if what == "input" { "n" } else { "" }, self.found()),
                ));
            }
            if let Some(first) = fields.iter().find(|f| crate::same_name(&f.name, &name)) {
                let same = if first.name == name { String::new() } else { format!(" (as `{}`)", first.name) };
                return Err(self.error_at(start, format!("{what} `{name}` is declared twice{same}")));
            }
            self.ws();
            if self.at_end() || matches!(self.peek(), Some(',' | ')' | '}')) {
                return Err(self.error(format!("expected a type for `{name}` ({TYPE_HINT}), found {}", self.found())));
            }
            let ty = self.ty(depth)?;
            fields.push(Field { name, ty });
        }
    }

    fn ty(&mut self, depth: usize) -> Result<Type, ParseError> {
        if depth >= MAX_NESTING {
            return Err(self.error(format!("types nested more than {MAX_NESTING} levels deep")));
        }
        let start = self.pos;
        let base = if self.eat(':') {
            let name = self.name().to_string();
            match Primitive::from_name(&name) {
                Some(p) => Type::Primitive(p),
                None if name.is_empty() => {
                    return Err(self.error(format!("expected a type name after `:` ({TYPE_HINT})")));
                }
                None => return Err(self.error_at(start, unknown_type(&name))),
            }
        } else if self.eat('[') {
            self.ws();
            if self.eat(']') {
                return Err(
                    self.error_at(start, "a list type needs its element type: [:int], or [:any] for mixed items")
                );
            }
            let item = self.ty(depth + 1)?;
            self.ws();
            if !self.eat(']') {
                return Err(if matches!(self.peek(), Some(':' | '[' | '{')) {
                    self.error("a list type holds one element type, as in [:int]; use [:any] for mixed items")
                } else {
                    self.error(format!("expected `]` to close the list type, found {}", self.found()))
                });
            }
            Type::List(Box::new(item))
        } else if self.eat('{') {
            Type::Map(self.fields('}', "field", depth + 1)?)
        } else {
            return Err(self.error(match self.peek() {
                Some(c) if c.is_alphabetic() => {
                    let word: String = self.text[self.pos..].chars().take_while(|c| c.is_alphanumeric()).collect();
                    if Primitive::from_name(&word).is_some() {
                        format!("expected a type, found `{word}`: write it as `:{word}`")
                    } else {
                        format!("expected a type ({TYPE_HINT}), found {}", self.found())
                    }
                }
                _ => format!("expected a type ({TYPE_HINT}), found {}", self.found()),
            }));
        };
        if self.eat('?') {
            if self.peek() == Some('?') {
                return Err(self.error("one `?` is enough"));
            }
            return Ok(Type::Optional(Box::new(base)));
        }
        Ok(base)
    }
}

/// The message for `:name`, which is no primitive, with the likely meaning.
fn unknown_type(name: &str) -> String {
    let hint = match name {
        "integer" | "long" => " (did you mean :int?)",
        "number" | "double" | "decimal" => " (did you mean :float?)",
        "str" | "text" => " (did you mean :string?)",
        "boolean" => " (did you mean :bool?)",
        "list" | "vector" | "array" | "seq" | "coll" => " (a list is written [type], as in [:int] or [:any])",
        "object" | "hash-map" | "dict" => " (did you mean :map, or {field type, ...}?)",
        "nil" | "null" => " (nil is allowed by a trailing `?`, as in :int?)",
        "date" | "time" | "timestamp" | "instant" => " (did you mean :datetime?)",
        "kw" => " (did you mean :keyword?)",
        _ => "",
    };
    let names: Vec<String> = Primitive::ALL.iter().map(|p| format!(":{}", p.name())).collect();
    format!("unknown type `:{name}`{hint}; the types are {}", names.join(" "))
}

#[cfg(test)]
mod tests;
