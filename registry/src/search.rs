//! Where plugins are looked for, which files there are plugins, and what a
//! search found that is not one: the facts an error needs when an instance
//! names a plugin that did not load.

use std::fmt;
use std::path::{Path, PathBuf};

/// The part of a plugin's file name that marks it (`libptc_strategy_x.so`).
pub const PLUGIN_MARK: &str = "ptc_strategy_";

/// The file-name pattern of plugins on this platform, e.g.
/// `lib*ptc_strategy_*.so`.
pub fn plugin_file_pattern() -> String {
    format!("{}*{PLUGIN_MARK}*{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX)
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// File name of a plugin library on this platform, e.g. `libptc_strategy_x.so`.
pub fn is_library_file(path: &Path) -> bool {
    let name = file_name(path);
    name.starts_with(std::env::consts::DLL_PREFIX) && name.ends_with(std::env::consts::DLL_SUFFIX)
}

/// Folder entries that look like strategy plugins: platform library naming
/// and `ptc_strategy_` in the name (e.g. `libptc_strategy_rolling_window.so`).
pub fn is_plugin_file_name(path: &Path) -> bool {
    is_library_file(path) && file_name(path).contains(PLUGIN_MARK)
}

/// A shared library (by its suffix) that the plugin pattern does not take:
/// a plugin named wrongly, or some other library.
pub fn is_unmatched_library(path: &Path) -> bool {
    file_name(path).ends_with(std::env::consts::DLL_SUFFIX) && !is_plugin_file_name(path)
}

/// The folder of the running executable, where an installed `ptc` (or a
/// `target/<profile>` build) finds the plugins that sit beside it.
pub fn executable_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let exe = exe.canonicalize().unwrap_or(exe);
    exe.parent().map(Path::to_path_buf)
}

/// Why a plugin name found no plugin: what was loaded, where the search
/// looked, and the shared libraries there that the pattern did not take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// The plugin name asked for.
    pub plugin: String,
    /// The names that did load.
    pub loaded: Vec<String>,
    /// The folders and files searched, in order.
    pub searched: Vec<PathBuf>,
    /// Shared libraries in the searched folders whose names do not match
    /// [`plugin_file_pattern`], so they were not loaded.
    pub unmatched: Vec<PathBuf>,
    /// The loaded name a typo likely meant. The registry leaves it empty;
    /// the config's resolver fills it with the did-you-mean that every
    /// other unknown name in a config gets.
    pub suggestion: Option<String>,
}

/// At most this many unmatched libraries are named in the message.
const NAMED: usize = 5;

fn list(paths: &[PathBuf]) -> String {
    let mut named: Vec<String> = paths.iter().take(NAMED).map(|p| p.display().to_string()).collect();
    if paths.len() > NAMED {
        named.push(format!("and {} more", paths.len() - NAMED));
    }
    named.join(", ")
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loaded = if self.loaded.is_empty() { "none".to_string() } else { self.loaded.join(", ") };
        write!(f, "no loaded plugin is named `{}`", self.plugin)?;
        if let Some(best) = &self.suggestion {
            write!(f, "; did you mean `{best}`?")?;
        }
        write!(f, " (loaded: {loaded}); ")?;
        if self.searched.is_empty() {
            write!(f, "no plugin folder was searched")?;
        } else {
            write!(f, "searched {} for files named {}", list(&self.searched), plugin_file_pattern())?;
        }
        if !self.unmatched.is_empty() {
            write!(
                f,
                "; not loaded because their names lack `{PLUGIN_MARK}`: {} (a plugin's [lib] name must contain it)",
                list(&self.unmatched)
            )?;
        }
        write!(f, "; add its folder to [plugins] paths or {}", crate::PLUGIN_PATH_ENV)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_by_the_platform_pattern() {
        let so = |n: &str| PathBuf::from(format!("/x/{n}"));
        if cfg!(target_os = "linux") {
            assert_eq!(plugin_file_pattern(), "lib*ptc_strategy_*.so");
            assert!(is_plugin_file_name(&so("libptc_strategy_x.so")));
            assert!(!is_plugin_file_name(&so("libkeep_last.so")));
            assert!(is_unmatched_library(&so("libkeep_last.so")));
            assert!(is_unmatched_library(&so("keep_last.so")));
            assert!(!is_unmatched_library(&so("libptc_strategy_x.so")));
            assert!(!is_unmatched_library(&so("notes.txt")));
        }
    }

    #[test]
    fn the_message_names_folders_pattern_and_misnamed_files() {
        let e = NotFound {
            plugin: "mine".into(),
            loaded: vec![],
            searched: vec!["/a".into(), "/b".into()],
            unmatched: (0..7).map(|i| PathBuf::from(format!("/a/lib{i}.so"))).collect(),
            suggestion: None,
        };
        let text = e.to_string();
        assert!(text.starts_with("no loaded plugin is named `mine` (loaded: none); searched /a, /b for files named "));
        assert!(text.contains("/a/lib0.so, /a/lib1.so, /a/lib2.so, /a/lib3.so, /a/lib4.so, and 2 more"), "{text}");
        assert!(!text.contains('\n'));
        let typo = NotFound { suggestion: Some("mine".into()), ..e }.to_string();
        assert!(typo.starts_with("no loaded plugin is named `mine`; did you mean `mine`? (loaded: none); searched /a"));
    }
}
