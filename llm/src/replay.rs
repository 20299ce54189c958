//! Answers from a transcript, for offline runs and tests.

use super::{FinishReason, Llm, LlmError, LlmReply, Prompt};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

/// Answers from a transcript: one string per turn, in order.
#[derive(Debug, Clone)]
pub struct Replay {
    file: PathBuf,
    responses: Vec<String>,
    next: usize,
}

/// Bytes a replay file may hold (its answers are read whole into memory):
/// `/dev/zero` given as one had `ptc run` read until the kernel killed it
/// at 24 GB.
pub const MAX_REPLAY_FILE_BYTES: u64 = 256 << 20;

impl Replay {
    /// A replay of `responses`, starting at index `start`.
    pub fn new(responses: Vec<String>, start: usize) -> Replay {
        Replay { file: PathBuf::from("<memory>"), responses, next: start }
    }

    /// Reads a JSON array of strings.
    pub fn from_file(file: &Path, start: usize) -> Result<Replay, LlmError> {
        let fail = |detail: String| LlmError::ReplayFile { file: file.to_path_buf(), detail };
        let text = ptc_os::read_text(file, MAX_REPLAY_FILE_BYTES).map_err(|e| match e.kind() {
            std::io::ErrorKind::FileTooLarge => fail(format!("{e} (MAX_REPLAY_FILE_BYTES); is it a replay file?")),
            _ => fail(format!("cannot read it: {e}")),
        })?;
        let responses: Vec<String> = serde_json::from_str(&text)
            .map_err(|e| fail(format!("expected a JSON array of strings (one per turn): {e}")))?;
        Ok(Replay { file: file.to_path_buf(), responses, next: start })
    }
}

impl Llm for Replay {
    fn chat(&mut self, _prompt: &Prompt) -> Result<LlmReply, LlmError> {
        let content = self.responses.get(self.next).cloned().ok_or_else(|| LlmError::ReplayExhausted {
            file: self.file.clone(),
            responses: self.responses.len(),
            turn: self.next + 1,
        })?;
        self.next += 1;
        Ok(LlmReply { content, finish_reason: FinishReason::Stop, usage: None, timing: Default::default() })
    }

    fn settings(&self) -> Json {
        json!({"backend": "replay", "file": self.file})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_runs_out_clearly() {
        let mut r = Replay::new(vec!["a".into()], 0);
        assert_eq!(r.chat(&Prompt::default()).unwrap().content, "a");
        let e = r.chat(&Prompt::default()).unwrap_err().to_string();
        assert_eq!(e, "replay file <memory> has 1 responses, but turn 2 needs another one");
    }

    /// A device is read only as far as the bound: it is refused, not read
    /// until memory runs out.
    #[cfg(unix)]
    #[test]
    fn a_file_past_the_bound_is_refused_as_it_is_read() {
        let e = Replay::from_file(Path::new("/dev/zero"), 0).unwrap_err().to_string();
        assert_eq!(e, "replay file /dev/zero: more than 256 MiB (MAX_REPLAY_FILE_BYTES); is it a replay file?");
    }
}
