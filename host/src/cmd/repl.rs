//! `ptc repl`: an interactive PTC-Lisp REPL. Definitions are kept from one
//! input to the next, input data comes from `--data name=path.json` (as
//! for `ptc eval`), a form left open continues on the next line, and errors
//! print as one line without leaving. On a terminal the line editor keeps a
//! history (in `PTC_HISTORY`, else `~/.ptc_history`); from a pipe, lines are
//! read one by one without prompts.

use super::{eval::load_data, CmdError, CmdResult, Output};
use indexmap::IndexMap;
use ptc_lisp::{run_program_with, Exit, Limits, Memory, RunOptions, Value};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// Prompt for a new form.
const PROMPT: &str = "user=> ";
/// Prompt for a form continued from the line before.
const CONTINUED: &str = "  #_=> ";
/// History lines loaded at start.
const HISTORY_KEPT: usize = 1000;

/// What the REPL does with one line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// The form is not finished: read another line.
    More,
    /// The user asked to leave (`:quit`, `:exit`, `:q`, or `(exit)`,
    /// `(quit)`, `exit`, `quit` while the program defines no such name).
    Quit,
    /// What to print: the form's println output, then its result or its error.
    Print(String),
}

/// The REPL's state: the namespace so far and the form being typed.
pub struct Repl {
    memory: Memory,
    data: IndexMap<String, Value>,
    options: RunOptions,
    pending: String,
}

impl Repl {
    /// A REPL over `data`, with or without the namespace fallback.
    pub fn new(data: IndexMap<String, Value>, namespace_fallback: bool) -> Repl {
        let options = RunOptions { namespace_fallback, ..RunOptions::default() };
        Repl { memory: Memory::new(), data, options, pending: String::new() }
    }

    /// Whether a form is open (the next line continues it).
    pub fn is_continuing(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Takes one line: runs the input once its forms are complete.
    pub fn line(&mut self, line: &str) -> Reply {
        if self.pending.is_empty() && self.leaves(line.trim()) {
            return Reply::Quit;
        }
        self.pending.push_str(line);
        self.pending.push('\n');
        if is_open(&self.pending) {
            return Reply::More;
        }
        let source = std::mem::take(&mut self.pending);
        if source.trim().is_empty() {
            return Reply::Print(String::new());
        }
        Reply::Print(self.run(&source))
    }

    /// Whether `line` asks to leave: the REPL's own `:quit`, or the words
    /// other Clojure REPLs take, unless a definition took the name.
    fn leaves(&self, line: &str) -> bool {
        let word = match line {
            ":quit" | ":exit" | ":q" => return true,
            "(exit)" | "exit" => "exit",
            "(quit)" | "quit" => "quit",
            _ => return false,
        };
        self.memory.get(word).is_none()
    }

    /// `*1`, `*2` and `*3` (the latest results, as in Clojure's REPL) move
    /// down one, `*1` becoming `value`.
    fn remember(&mut self, value: &Value) {
        for (to, from) in [("*3", "*2"), ("*2", "*1")] {
            if let Some(previous) = self.memory.get(from).map(|e| e.value.clone()) {
                self.memory.insert(to.into(), previous, None);
            }
        }
        self.memory.insert("*1".into(), value.clone(), None);
    }

    fn run(&mut self, source: &str) -> String {
        let out = run_program_with(
            source,
            &self.memory,
            &self.data,
            &mut super::eval::NoToolsHere,
            &Limits::default(),
            &self.options,
        );
        let mut text: String = out.prints.iter().map(|p| format!("{p}\n")).collect();
        self.memory = out.memory;
        match out.result {
            Ok(Exit::Value(v)) => {
                match &out.ended_with_definition {
                    Some(name) => text.push_str(&format!("#'{name}\n")),
                    None => text.push_str(&format!("{v}\n")),
                }
                self.remember(&v);
            }
            Ok(Exit::Return(v)) => {
                text.push_str(&format!("{v}\n"));
                self.remember(&v);
            }
            Ok(Exit::Fail(v)) => text.push_str(&format!("fail: {v}\n")),
            Err(e) => text.push_str(&format!("{}\n", one_line(&super::eval::error_line(&e)))),
        }
        text
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `text` ends inside a string or with more brackets opened than
/// closed (comments and character literals such as `\(` skipped). Extra
/// closing brackets count as complete: the reader then says what is wrong.
pub fn is_open(text: &str) -> bool {
    let mut depth = 0i64;
    let mut chars = text.chars();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '\\' => {
                chars.next();
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    in_string || depth > 0
}

/// The history file: `PTC_HISTORY`, else `~/.ptc_history`; `None` without a home.
fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTC_HISTORY") {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".ptc_history"))
}

/// Runs the REPL on the terminal, or line by line on piped input.
pub fn repl(data: &[String], namespace_fallback: bool) -> CmdResult {
    let mut repl = Repl::new(load_data(data)?, namespace_fallback);
    if std::io::stdin().is_terminal() {
        interactive(&mut repl)?;
    } else {
        piped(&mut repl)?;
    }
    Ok(Output::ok(String::new()))
}

fn piped(repl: &mut Repl) -> Result<(), CmdError> {
    for line in std::io::stdin().lock().lines() {
        let line =
            line.map_err(|error| CmdError::Io { path: PathBuf::from("-"), action: "cannot read stdin", error })?;
        match repl.line(&line) {
            Reply::More => {}
            Reply::Quit => return Ok(()),
            Reply::Print(text) => super::write_stdout(&text)?,
        }
    }
    if repl.is_continuing() {
        super::write_stdout("error: the input ended inside an unfinished form\n")?;
    }
    Ok(())
}

fn interactive(repl: &mut Repl) -> Result<(), CmdError> {
    use rustyline::error::ReadlineError;
    let mut editor =
        rustyline::DefaultEditor::new().map_err(|e| CmdError::Other(format!("cannot start the line editor: {e}")))?;
    let history = history_path();
    if let Some(text) = history.as_ref().and_then(|p| ptc_os::read_text(p, ptc_os::MAX_SOURCE_FILE_BYTES).ok()) {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        for l in &lines[lines.len().saturating_sub(HISTORY_KEPT)..] {
            let _ = editor.add_history_entry(*l);
        }
    }
    let mut file = history.and_then(|p| std::fs::OpenOptions::new().create(true).append(true).open(p).ok());
    super::write_stdout(
        "PTC-Lisp REPL: definitions are kept, *1 *2 *3 are the latest results; :quit or Ctrl-D to leave.\n",
    )?;
    loop {
        let prompt = if repl.is_continuing() { CONTINUED } else { PROMPT };
        match editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                    if let Some(f) = file.as_mut() {
                        let _ = writeln!(f, "{line}");
                    }
                }
                match repl.line(&line) {
                    Reply::More => {}
                    Reply::Quit => return Ok(()),
                    Reply::Print(text) => super::write_stdout(&text)?,
                }
            }
            // Ctrl-C drops the form being typed, as in a shell.
            Err(ReadlineError::Interrupted) => repl.pending.clear(),
            Err(ReadlineError::Eof) => return Ok(()),
            Err(e) => return Err(CmdError::Other(format!("cannot read a line: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(r: &mut Repl, line: &str) -> String {
        match r.line(line) {
            Reply::Print(t) => t,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn definitions_are_kept_and_errors_do_not_end_the_session() {
        let mut r = Repl::new(IndexMap::new(), false);
        assert_eq!(printed(&mut r, "(def x 5)"), "#'x\n");
        assert_eq!(printed(&mut r, "(defn sq [n] (* n n))"), "#'sq\n");
        assert_eq!(printed(&mut r, "(println \"x is\" x) (sq x)"), "x is 5\n25\n");
        let err = printed(&mut r, "(frist [1])");
        assert!(err.starts_with("error: unbound_symbol error") && err.ends_with("did you mean `first`?\n"), "{err}");
        assert_eq!(err.matches('\n').count(), 1);
        assert_eq!(printed(&mut r, "(+ x 1)"), "6\n");
        assert_eq!(printed(&mut r, "(fail :no)"), "fail: :no\n");
        assert_eq!(printed(&mut r, ""), "");
        assert_eq!(r.line(":quit"), Reply::Quit);
    }

    #[test]
    fn the_latest_results_and_the_words_that_leave() {
        let mut r = Repl::new(IndexMap::new(), false);
        assert_eq!(printed(&mut r, "(+ 1 2)"), "3\n");
        assert_eq!(printed(&mut r, "[:a]"), "[:a]\n");
        assert_eq!(printed(&mut r, "(frist 1)").lines().count(), 1);
        assert_eq!(printed(&mut r, "(* *2 10)"), "30\n", "an error is not a result");
        assert_eq!(printed(&mut r, "[*1 *2 *3]"), "[30 [:a] 3]\n");
        for word in ["(exit)", "(quit)", "exit", " quit ", ":q"] {
            assert_eq!(r.line(word), Reply::Quit, "{word}");
        }
        // A program's own `exit` is called, not taken as leaving.
        assert_eq!(printed(&mut r, "(defn exit [] :stay)"), "#'exit\n");
        assert_eq!(printed(&mut r, "(exit)"), ":stay\n");
        assert_eq!(r.line("quit"), Reply::Quit);
    }

    #[test]
    fn an_open_form_continues_on_the_next_line() {
        let mut r = Repl::new(IndexMap::new(), false);
        assert_eq!(r.line("(let [s \"a ( [ {\" ; comment ("), Reply::More);
        assert!(r.is_continuing());
        assert_eq!(r.line("      c \\(]"), Reply::More);
        assert_eq!(printed(&mut r, "  [s c])"), "[\"a ( [ {\" \"(\"]\n");
        assert!(!r.is_continuing());
        // `:quit` inside a form is part of it.
        assert_eq!(r.line("[1"), Reply::More);
        assert_eq!(printed(&mut r, ":quit]"), "[1 :quit]\n");
        // Too many closing brackets run at once and the reader says what is wrong.
        assert!(printed(&mut r, "(+ 1 2))").starts_with("error: parse error"));
        // An error without a kind is not `error: error at`.
        assert!(printed(&mut r, "(assert (= 1 2))").starts_with("error at line 1, column 1: Assert failed"));
        assert!(printed(&mut r, "(atom 0)")
            .starts_with("error: unsupported error at line 1, column 1: `atom` is not supported"));
    }

    #[test]
    fn data_and_the_fallback() {
        let data = IndexMap::from([("xs".to_string(), Value::vector(vec![Value::Int(1), Value::Int(2)]))]);
        let mut r = Repl::new(data.clone(), false);
        assert_eq!(printed(&mut r, "(count data/xs)"), "2\n");
        assert!(printed(&mut r, "(count xs)").starts_with("error: unbound_symbol"));
        let mut r = Repl::new(data, true);
        assert_eq!(printed(&mut r, "(count xs)"), "2\n");
    }
}
