//! The closed vocabularies of a session file: how a run ended
//! ([`RunStatus`]), why a turn failed ([`TurnErrorKind`]) and who a
//! recorded message is from (the SDK's [`Role`], through [`role_word`]). On
//! disk they are the snake_case words docs/spec/session-format.md lists; in
//! memory, enums a caller can match on.

use ptc_lisp::ErrorKind;
use ptc_plugin_api::Role;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// How a run ended (a session's `status`, a journal's end line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// `(return v)`, or a single-shot agent's program value: `result` holds v.
    Returned,
    /// `(fail v)`.
    Failed,
    /// `max_turns` used up.
    OutOfTurns,
    /// The last turn allowed returned a value that does not match the
    /// signature (`reason`: `signature`).
    InvalidReturn,
    /// A run limit ended it (`reason`: the limit's config key).
    Limit,
    /// The model or the render failed; the run can be resumed.
    Error,
}

impl RunStatus {
    /// Every status, in declaration order.
    pub const ALL: [RunStatus; 6] = [
        RunStatus::Returned,
        RunStatus::Failed,
        RunStatus::OutOfTurns,
        RunStatus::InvalidReturn,
        RunStatus::Limit,
        RunStatus::Error,
    ];

    /// The word session files hold (`returned`, `out_of_turns`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Returned => "returned",
            RunStatus::Failed => "failed",
            RunStatus::OutOfTurns => "out_of_turns",
            RunStatus::InvalidReturn => "invalid_return",
            RunStatus::Limit => "limit",
            RunStatus::Error => "error",
        }
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a turn failed (a turn's `error.kind`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TurnErrorKind {
    /// The program failed in the interpreter (`parse`, `unbound_symbol`, ...).
    Program(ErrorKind),
    /// The program called `(fail v)` (`fail`); the run ends as failed.
    Fail,
    /// The answer held no program (`no_code`).
    NoCode,
    /// The answer hit the model's `max_tokens` and was not run (`cut_off`).
    CutOff,
    /// A returned value did not match the agent's signature (`invalid_return`).
    InvalidReturn,
    /// A word this version does not know (a hand-written file, a newer
    /// ptc), kept as read so the file is written back unchanged.
    Unrecognized(String),
}

impl TurnErrorKind {
    /// The run loop's own kinds, beside the interpreter's.
    const RUN_LOOP: [TurnErrorKind; 4] =
        [TurnErrorKind::Fail, TurnErrorKind::NoCode, TurnErrorKind::CutOff, TurnErrorKind::InvalidReturn];

    /// The word session files hold.
    pub fn as_str(&self) -> &str {
        match self {
            TurnErrorKind::Program(kind) => kind.as_str(),
            TurnErrorKind::Fail => "fail",
            TurnErrorKind::NoCode => "no_code",
            TurnErrorKind::CutOff => "cut_off",
            TurnErrorKind::InvalidReturn => "invalid_return",
            TurnErrorKind::Unrecognized(word) => word,
        }
    }

    /// The kind a session file names `name` ([`TurnErrorKind::Unrecognized`]
    /// for a word this version does not know).
    pub fn from_name(name: &str) -> TurnErrorKind {
        ErrorKind::from_name(name)
            .map(TurnErrorKind::Program)
            .or_else(|| TurnErrorKind::RUN_LOOP.into_iter().find(|k| k.as_str() == name))
            .unwrap_or_else(|| TurnErrorKind::Unrecognized(name.to_string()))
    }

    /// Every kind this version knows, the interpreter's first.
    pub fn known() -> impl Iterator<Item = TurnErrorKind> {
        ErrorKind::ALL.into_iter().map(TurnErrorKind::Program).chain(TurnErrorKind::RUN_LOOP)
    }
}

impl From<ErrorKind> for TurnErrorKind {
    fn from(kind: ErrorKind) -> TurnErrorKind {
        TurnErrorKind::Program(kind)
    }
}

impl fmt::Display for TurnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TurnErrorKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TurnErrorKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TurnErrorKind, D::Error> {
        Ok(TurnErrorKind::from_name(&String::deserialize(d)?))
    }
}

/// A recorded message's `role` as its word (`system`, `user`, `assistant`),
/// for `#[serde(with = ...)]`: the SDK's [`Role`] is the ABI's type and has no
/// serde of its own. Any other word is an error that names the three.
pub(crate) mod role_word {
    use super::*;
    use serde::de::Error;

    pub(crate) fn serialize<S: Serializer>(role: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(role.as_str())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let word = String::deserialize(d)?;
        Role::from_name(&word).ok_or_else(|| {
            let known: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
            D::Error::custom(format!("unknown role `{word}` (known: {})", known.join(", ")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_as_its_kind() {
        for kind in TurnErrorKind::known() {
            assert_eq!(TurnErrorKind::from_name(kind.as_str()), kind);
            assert_eq!(serde_json::to_value(&kind).unwrap(), serde_json::json!(kind.as_str()));
        }
        let words: std::collections::BTreeSet<String> = TurnErrorKind::known().map(|k| k.to_string()).collect();
        assert_eq!(words.len(), ErrorKind::ALL.len() + 4, "every word is distinct");
        for status in RunStatus::ALL {
            assert_eq!(serde_json::to_value(status).unwrap(), serde_json::json!(status.as_str()));
        }
    }

    #[test]
    fn an_error_kind_this_version_does_not_know_is_kept_as_read_and_a_status_is_rejected() {
        let kind: TurnErrorKind = serde_json::from_str("\"eval\"").unwrap();
        assert_eq!(kind, TurnErrorKind::Unrecognized("eval".into()));
        assert_eq!(serde_json::to_string(&kind).unwrap(), "\"eval\"");
        assert!(serde_json::from_str::<RunStatus>("\"done\"").is_err());
    }
}
