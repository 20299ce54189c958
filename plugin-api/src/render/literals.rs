//! The string and number literals of a PTC-Lisp (Clojure) program: where a
//! fact the agent learned shows up in the code it writes.
//!
//! A small scanner, not a reader: it knows strings and their escapes, regex
//! literals (`#"..."`, skipped), character literals (`\a`, `\newline`,
//! `\"`), comments (`;` to the end of the line) and the tokens between
//! delimiters, of which it keeps the decimal numbers.

/// A literal that can carry a learned fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// A string literal's content, escapes resolved.
    Text(String),
    /// A decimal number as written, without a leading `+` or an `N`/`M`
    /// suffix (`-12.5`, `0.9173`, `1001`).
    Number(String),
}

impl Literal {
    /// The text searched for in outputs and prompts.
    pub fn text(&self) -> &str {
        match self {
            Literal::Text(s) | Literal::Number(s) => s,
        }
    }
}

/// Characters that end a token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '"' | ';' | '\'' | '`' | '~' | '^' | '@')
}

/// The string and number literals of `source`, in order. Unterminated
/// strings are dropped; the scan never fails.
pub fn program_literals(source: &str) -> Vec<Literal> {
    let mut out = Vec::new();
    let mut chars = source.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        match c {
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                if let Some(s) = string_body(&mut chars) {
                    out.push(Literal::Text(s));
                }
            }
            '#' if chars.peek().is_some_and(|&(_, c)| c == '"') => {
                chars.next();
                string_body(&mut chars);
            }
            '\\' => {
                // A character literal: one character (possibly a delimiter
                // or a quote), then the letters of a name like `newline`.
                chars.next();
                while chars.peek().is_some_and(|&(_, c)| c.is_alphanumeric()) {
                    chars.next();
                }
            }
            c if is_delimiter(c) || c == '#' => {}
            _ => {
                let mut end = start + c.len_utf8();
                while let Some(&(i, c)) = chars.peek() {
                    if is_delimiter(c) {
                        break;
                    }
                    end = i + c.len_utf8();
                    chars.next();
                }
                if let Some(n) = decimal_number(&source[start..end]) {
                    out.push(Literal::Number(n));
                }
            }
        }
    }
    out
}

/// Reads a string body after its opening quote, resolving escapes; `None`
/// when the source ends first.
fn string_body(chars: &mut std::iter::Peekable<std::str::CharIndices>) -> Option<String> {
    let mut s = String::new();
    while let Some((_, c)) = chars.next() {
        match c {
            '"' => return Some(s),
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    'r' => s.push('\r'),
                    'b' => s.push('\u{8}'),
                    'f' => s.push('\u{c}'),
                    'u' => {
                        let hex: String = (0..4).filter_map(|_| chars.next().map(|(_, c)| c)).collect();
                        s.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                    }
                    other => s.push(other),
                }
            }
            c => s.push(c),
        }
    }
    None
}

/// `token` as a decimal number (`[+-]digits[.digits][e[+-]digits][N|M]`),
/// normalized; `None` for anything else (symbols, ratios, hex).
fn decimal_number(token: &str) -> Option<String> {
    let body = token.strip_suffix(['N', 'M']).unwrap_or(token);
    let unsigned = body.strip_prefix(['+', '-']).unwrap_or(body);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (unsigned, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let valid = !int.is_empty() && digits(int) && digits(frac) && exponent.is_none_or(|e| !e.is_empty() && digits(e));
    valid.then(|| body.strip_prefix('+').unwrap_or(body).to_string())
}
