//! For unit tests: a program run to its printed value or its error.

use crate::{run_program, ErrorKind, Exit, Memory, NoTools};

/// Runs `src` with no data and no tools: its value as Clojure prints it,
/// or its error's kind and message. Panics on any other exit.
pub(crate) fn run(src: &str) -> Result<String, (ErrorKind, String)> {
    match run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Default::default()).result {
        Ok(Exit::Value(v)) => Ok(v.to_string()),
        Ok(other) => panic!("{src}: {other:?}"),
        Err(e) => Err((e.kind, e.message)),
    }
}
