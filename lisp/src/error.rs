//! Error types: [`ReadError`] for the EDN reader, [`LispError`] for programs.

use std::fmt;

/// A syntax error found while reading EDN or program text.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadError {
    /// 1-based line of the offending character.
    pub line: u32,
    /// 1-based column (in characters) of the offending character.
    pub column: u32,
    /// What was found and what was expected.
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ReadError {}

/// The category of a program failure, stable enough for the host to record.
///
/// Non-exhaustive: a later version may add a kind (a match needs a `_` arm,
/// which [`ErrorKind::Other`]'s handling usually fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The program text is not well formed.
    Parse,
    /// A symbol names nothing in scope.
    UnboundSymbol,
    /// A function got the wrong number of arguments.
    Arity,
    /// A value of the wrong type was given.
    Type,
    /// A tool call failed.
    Tool,
    /// The wall-clock limit was reached.
    Timeout,
    /// The evaluation-step limit was reached.
    StepLimit,
    /// The call-depth limit was reached.
    DepthLimit,
    /// A `loop` ran more iterations than allowed.
    LoopLimit,
    /// A collection or string grew past its limit.
    SizeLimit,
    /// Memory kept between turns grew past its limit.
    MemoryLimit,
    /// A Clojure form, Java call or tagged literal PTC-Lisp leaves out and
    /// reserves (`defmacro`, `atom`, `Thread/sleep`, `#inst`): a program
    /// cannot define such a name either. The message says what to write
    /// instead. A core name that is only absent (`comparator`) is
    /// [`ErrorKind::UnboundSymbol`], with a hint, and a program may define it.
    Unsupported,
    /// Anything else (bad form, division by zero, `throw`-like failures).
    Other,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 13] = [
        ErrorKind::Parse,
        ErrorKind::UnboundSymbol,
        ErrorKind::Arity,
        ErrorKind::Type,
        ErrorKind::Tool,
        ErrorKind::Timeout,
        ErrorKind::StepLimit,
        ErrorKind::DepthLimit,
        ErrorKind::LoopLimit,
        ErrorKind::SizeLimit,
        ErrorKind::MemoryLimit,
        ErrorKind::Unsupported,
        ErrorKind::Other,
    ];

    /// The kind whose [`as_str`](ErrorKind::as_str) is `name`, if any.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The snake_case name the host records (`"parse"`, `"unbound_symbol"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse",
            ErrorKind::UnboundSymbol => "unbound_symbol",
            ErrorKind::Arity => "arity",
            ErrorKind::Type => "type",
            ErrorKind::Tool => "tool",
            ErrorKind::Timeout => "timeout",
            ErrorKind::StepLimit => "step_limit",
            ErrorKind::DepthLimit => "depth_limit",
            ErrorKind::LoopLimit => "loop_limit",
            ErrorKind::SizeLimit => "size_limit",
            ErrorKind::MemoryLimit => "memory_limit",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Other => "other",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A program failure: what went wrong and, where it applies, where.
#[derive(Clone, Debug, PartialEq)]
pub struct LispError {
    /// The category.
    pub kind: ErrorKind,
    /// One or two lines a model can act on.
    pub message: String,
    /// 1-based line of the form that failed, when known.
    pub line: Option<u32>,
    /// 1-based column of the form that failed, when known.
    pub column: Option<u32>,
}

impl LispError {
    /// An error without a position.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        LispError { kind, message: message.into(), line: None, column: None }
    }

    /// Sets the position unless one is already known (the innermost form wins).
    pub fn at(mut self, line: u32, column: u32) -> Self {
        if self.line.is_none() {
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }
}

impl From<ReadError> for LispError {
    fn from(e: ReadError) -> Self {
        LispError { kind: ErrorKind::Parse, message: e.message, line: Some(e.line), column: Some(e.column) }
    }
}

impl fmt::Display for LispError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Other => f.write_str("error")?,
            kind => write!(f, "{} error", kind.as_str())?,
        }
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, " at line {l}, column {c}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LispError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_actionable_line() {
        let e =
            LispError::new(ErrorKind::UnboundSymbol, "unable to resolve symbol `cont`; did you mean `count`?").at(2, 4);
        assert_eq!(
            e.to_string(),
            "unbound_symbol error at line 2, column 4: unable to resolve symbol `cont`; did you mean `count`?"
        );
        assert_eq!(LispError::new(ErrorKind::Other, "divide by zero").to_string(), "error: divide by zero");
        let r = ReadError { line: 1, column: 5, message: "expected `)`".into() };
        assert_eq!(r.to_string(), "line 1, column 5: expected `)`");
        assert_eq!(LispError::from(r).kind, ErrorKind::Parse);
    }
}
