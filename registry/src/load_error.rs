//! Why a file or folder gave no plugin: [`LoadError`], a path and a
//! [`LoadFailure`] a caller can match on. Each failure prints as one line
//! that says what is wrong with the file and what to do about it.

use abi_stable::library::{LibraryError, RootModuleError};
use ptc_plugin_api::INTERFACE_VERSION;
use std::fmt;
use std::path::PathBuf;

/// A file or folder that gave no plugin, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    pub failure: LoadFailure,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.failure)
    }
}

impl std::error::Error for LoadError {}

/// `{"path": ..., "kind": ..., "reason": ...}`: the kind as a caller
/// matches it, the reason as the line prints it.
impl serde::Serialize for LoadError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("LoadError", 3)?;
        s.serialize_field("path", &self.path)?;
        s.serialize_field("kind", self.failure.kind())?;
        s.serialize_field("reason", &self.failure.to_string())?;
        s.end()
    }
}

/// Why a file or folder gave no plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadFailure {
    /// A configured plugin path names nothing.
    PathMissing,
    /// A plugin folder could not be listed (the OS error).
    FolderUnreadable(String),
    /// The dynamic loader refused the file (its error): not a shared
    /// library for this platform, or one whose dependencies are missing.
    OpenFailed(String),
    /// A shared library without abi_stable's root module: not a plugin.
    NotAPlugin,
    /// Built with an abi_stable whose library header this ptc cannot read.
    AbiStableMismatch,
    /// The interface version in the header does not parse (the parser's error).
    BadInterfaceVersion(String),
    /// An interface version this ptc does not speak.
    IncompatibleInterface {
        /// The version the plugin declares.
        actual: String,
    },
    /// The declared interface matches, but the plugin's types do not.
    TypesMismatch {
        /// The version the plugin declares.
        claimed: String,
    },
    /// The plugin panicked while its module initialised.
    InitPanicked {
        /// The version the plugin declares.
        claimed: String,
    },
    /// The plugin's module returned an error while initialising.
    InitFailed {
        /// The version the plugin declares.
        claimed: String,
        /// Its error.
        error: String,
    },
    /// Built for another C ABI.
    WrongCAbi {
        /// The version the plugin declares.
        claimed: String,
    },
    /// Another loaded file already provides this strategy name.
    DuplicateName {
        /// The strategy name.
        name: String,
        /// The file loaded first, which is kept.
        first: PathBuf,
    },
    /// Several of the above at once (abi_stable reports them together).
    Many(Vec<LoadFailure>),
}

impl LoadFailure {
    /// The failure's name in `ptc strategies --format json` (`"kind"`).
    pub fn kind(&self) -> &'static str {
        match self {
            LoadFailure::PathMissing => "path_missing",
            LoadFailure::FolderUnreadable(_) => "folder_unreadable",
            LoadFailure::OpenFailed(_) => "open_failed",
            LoadFailure::NotAPlugin => "not_a_plugin",
            LoadFailure::AbiStableMismatch => "abi_stable_mismatch",
            LoadFailure::BadInterfaceVersion(_) => "bad_interface_version",
            LoadFailure::IncompatibleInterface { .. } => "incompatible_interface",
            LoadFailure::TypesMismatch { .. } => "types_mismatch",
            LoadFailure::InitPanicked { .. } => "init_panicked",
            LoadFailure::InitFailed { .. } => "init_failed",
            LoadFailure::WrongCAbi { .. } => "wrong_c_abi",
            LoadFailure::DuplicateName { .. } => "duplicate_name",
            LoadFailure::Many(_) => "many",
        }
    }

    /// What abi_stable's `error` means for a plugin; `claimed` is the
    /// interface version the plugin's header declares, once it could be read.
    pub(crate) fn from_library(error: &LibraryError, claimed: Option<&str>) -> LoadFailure {
        let version = || claimed.unwrap_or("unknown").to_string();
        match error {
            LibraryError::OpenError { err, .. } => LoadFailure::OpenFailed(err.to_string()),
            LibraryError::GetSymbolError { .. } => LoadFailure::NotAPlugin,
            LibraryError::InvalidAbiHeader(_) => LoadFailure::AbiStableMismatch,
            LibraryError::ParseVersionError(e) => LoadFailure::BadInterfaceVersion(e.to_string()),
            LibraryError::IncompatibleVersionNumber { actual_version, .. } => {
                LoadFailure::IncompatibleInterface { actual: actual_version.to_string() }
            }
            LibraryError::AbiInstability(_) => LoadFailure::TypesMismatch { claimed: version() },
            LibraryError::RootModule { err: RootModuleError::Unwound, .. } => {
                LoadFailure::InitPanicked { claimed: version() }
            }
            LibraryError::RootModule { err: RootModuleError::Returned(e), .. } => {
                LoadFailure::InitFailed { claimed: version(), error: e.to_string() }
            }
            LibraryError::InvalidCAbi { .. } => LoadFailure::WrongCAbi { claimed: version() },
            LibraryError::Many(errors) => {
                LoadFailure::Many(errors.iter().map(|e| LoadFailure::from_library(e, claimed)).collect())
            }
        }
    }
}

/// The remedy for a plugin built against another interface.
const REBUILD: &str = "rebuild the plugin against this ptc's ptc-plugin-api";

impl fmt::Display for LoadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadFailure::PathMissing => write!(f, "plugin path does not exist"),
            LoadFailure::FolderUnreadable(e) => {
                write!(f, "cannot read plugin folder: {e}; fix its permissions or drop it from [plugins] paths")
            }
            LoadFailure::OpenFailed(e) => write!(
                f,
                "cannot open library: {e}; a plugin is a cdylib built for this platform \
                 (`cargo build` of a crate with crate-type = [\"cdylib\"]): rebuild it, or remove the file"
            ),
            LoadFailure::NotAPlugin => write!(f, "not a ptc strategy plugin (it exports no abi_stable root module)"),
            LoadFailure::AbiStableMismatch => write!(f, "built with an incompatible abi_stable version ({REBUILD})"),
            LoadFailure::BadInterfaceVersion(e) => write!(f, "unreadable interface version: {e} ({REBUILD})"),
            LoadFailure::IncompatibleInterface { actual } => write!(
                f,
                "incompatible plugin interface {actual} (this ptc speaks {INTERFACE_VERSION}; rebuild the plugin \
                 against a matching ptc-plugin-api)"
            ),
            LoadFailure::TypesMismatch { claimed } => write!(
                f,
                "interface {claimed}: its types do not match this ptc's plugin interface {INTERFACE_VERSION} ({REBUILD})"
            ),
            LoadFailure::InitPanicked { claimed } => write!(
                f,
                "interface {claimed}: the plugin panicked while initialising (a bug in the plugin: \
                 report it to its author)"
            ),
            LoadFailure::InitFailed { claimed, error } => {
                write!(f, "interface {claimed}: the plugin failed to initialise: {error}")
            }
            LoadFailure::WrongCAbi { claimed } => {
                write!(f, "interface {claimed}: built for a different C ABI (rebuild it for this platform)")
            }
            LoadFailure::DuplicateName { name, first } => write!(
                f,
                "plugin name `{name}` is already provided by {}; this copy is ignored (remove one of the two)",
                first.display()
            ),
            LoadFailure::Many(failures) => {
                for (i, failure) in failures.iter().enumerate() {
                    if i > 0 {
                        write!(f, "; ")?;
                    }
                    write!(f, "{failure}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_failure_is_one_line_and_json_names_its_kind() {
        let failures = [
            LoadFailure::PathMissing,
            LoadFailure::FolderUnreadable("Permission denied (os error 13)".into()),
            LoadFailure::OpenFailed("file too short".into()),
            LoadFailure::NotAPlugin,
            LoadFailure::AbiStableMismatch,
            LoadFailure::BadInterfaceVersion("x".into()),
            LoadFailure::IncompatibleInterface { actual: "0.9.0".into() },
            LoadFailure::TypesMismatch { claimed: "1.1.0".into() },
            LoadFailure::InitPanicked { claimed: "1.1.0".into() },
            LoadFailure::InitFailed { claimed: "1.1.0".into(), error: "no config".into() },
            LoadFailure::WrongCAbi { claimed: "1.1.0".into() },
            LoadFailure::DuplicateName { name: "mine".into(), first: PathBuf::from("/a/libptc_strategy_mine.so") },
            LoadFailure::Many(vec![LoadFailure::NotAPlugin, LoadFailure::AbiStableMismatch]),
        ];
        let mut kinds = std::collections::HashSet::new();
        for failure in failures {
            let error = LoadError { path: PathBuf::from("/p/lib.so"), failure: failure.clone() };
            let line = error.to_string();
            assert!(line.starts_with("/p/lib.so: ") && !line.contains('\n'), "{line}");
            let json = serde_json::to_value(&error).unwrap();
            assert_eq!(json["kind"], failure.kind(), "{json}");
            assert_eq!(json["reason"], failure.to_string(), "{json}");
            assert!(kinds.insert(failure.kind()), "two failures named {}", failure.kind());
        }
    }

    #[test]
    fn a_file_the_loader_refuses_says_what_a_plugin_is() {
        let line = LoadFailure::OpenFailed("file too short".into()).to_string();
        assert!(line.starts_with("cannot open library: file too short; "), "{line}");
        assert!(line.contains("rebuild it, or remove the file"), "{line}");
    }
}
