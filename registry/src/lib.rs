//! Finds strategy plugins, loads them, and builds strategy instances.
//!
//! ```no_run
//! use ptc_registry::Registry;
//! use std::path::PathBuf;
//!
//! let registry = Registry::discover(&[PathBuf::from("target/debug")]);
//! for error in registry.errors() {
//!     eprintln!("plugin not loaded: {error}");
//! }
//! let strategy = registry.build("coalesced", "single-user-coalesced", r#"{"println_limit": 5}"#).unwrap();
//! # let request = ptc_plugin_api::RenderRequest::new("mission", "system", 5);
//! let rendered = strategy.render(&request).unwrap();
//! ```
//!
//! Each plugin is loaded with `lib_header_from_path` + `init_root_module`
//! (never `RootModule::load_from_*`, which caches one module per interface
//! type so a second plugin would silently return the first) and is never
//! unloaded. A bad file costs one error line; the others still load.
//!
//! [`caps`] holds the resource caps for a child process that runs plugin
//! code out of process (memory, CPU time, render stack); [`isolate`] renders
//! a plugin strategy in such a child ([`Registry::build_isolated`]);
//! [`child_limits`] is the `--limits` argument every such child reads;
//! [`pipe`] reads what such a child writes, never more than a named limit.

pub mod caps;
pub mod child_limits;
pub mod isolate;
pub mod load_error;
pub mod peers;
pub mod pipe;
pub mod search;

pub use load_error::{LoadError, LoadFailure};
pub use search::{executable_dir, is_library_file, is_plugin_file_name, plugin_file_pattern, NotFound};

use abi_stable::library::lib_header_from_path;
use abi_stable::std_types::RStr;
use indexmap::IndexMap;
use ptc_plugin_api::module::{v1_0, PluginModuleRef, StrategyBox};
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_plugin_api::{Prompt, RenderRequest, StrategyError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Environment variable with extra plugin folders or files (`:`-separated on Unix).
pub const PLUGIN_PATH_ENV: &str = "PTC_PLUGIN_PATH";

/// What a loaded plugin says about itself, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PluginDescription {
    /// Strategy name.
    pub name: String,
    /// Plugin crate version.
    pub version: String,
    /// Interface version it was built against.
    pub interface_version: String,
    /// One-line description.
    pub description: String,
    /// Capabilities it claims.
    pub capabilities: Vec<String>,
    /// The library file.
    pub file: PathBuf,
}

/// A loaded plugin.
#[derive(Clone)]
pub struct Plugin {
    /// Its description.
    pub description: PluginDescription,
    module: Module,
}

/// A plugin's root module, through the newest interface view it satisfies.
#[derive(Clone, Copy)]
enum Module {
    /// Built against this interface (or a later 1.x).
    Current(PluginModuleRef),
    /// Built against interface 1.0: no content blocks.
    V1_0(v1_0::PluginModuleRef),
}

/// An error building or using a strategy instance.
#[derive(Debug, Clone, PartialEq)]
pub enum InstanceError {
    /// No loaded plugin has that strategy name.
    UnknownPlugin {
        /// Instance name.
        instance: String,
        /// What was searched and found.
        not_found: Box<NotFound>,
    },
    /// The plugin refused its parameters (or panicked building).
    Construct {
        /// Instance name.
        instance: String,
        /// Plugin file.
        file: PathBuf,
        /// The plugin's error.
        error: StrategyError,
    },
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceError::UnknownPlugin { instance, not_found } => write!(f, "strategy `{instance}`: {not_found}"),
            InstanceError::Construct { instance, file, error } => {
                write!(f, "strategy `{instance}` ({}): {error}", file.display())
            }
        }
    }
}

impl std::error::Error for InstanceError {}

/// The loaded plugins, what failed to load, and where the search looked.
#[derive(Clone, Default)]
pub struct Registry {
    plugins: IndexMap<String, Plugin>,
    errors: Vec<LoadError>,
    searched: Vec<PathBuf>,
    unmatched: Vec<PathBuf>,
}

impl Registry {
    /// Loads every plugin found in `paths`: a folder contributes its files
    /// named like plugins, a file is loaded as given.
    pub fn discover(paths: &[PathBuf]) -> Registry {
        let mut registry = Registry::default();
        for path in paths {
            registry.searched.push(path.clone());
            if path.is_dir() {
                registry.load_folder(path, false);
            } else if path.is_file() {
                registry.load_file(path);
            } else {
                registry.error(path, LoadFailure::PathMissing);
            }
        }
        registry
    }

    /// [`Registry::discover`] on `paths`, then the folder of the running
    /// executable ([`executable_dir`]), unless `paths` named it already: so
    /// a `ptc` built or installed beside its plugins finds them with any
    /// config. That folder is searched quietly: a plugin there whose name
    /// already loaded from `paths` is skipped without an error.
    pub fn discover_with_executable_dir(paths: &[PathBuf]) -> Registry {
        let mut registry = Registry::discover(paths);
        if let Some(dir) = executable_dir() {
            let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            if !paths.iter().any(|p| canonical(p) == dir) {
                registry.searched.push(dir.clone());
                registry.load_folder(&dir, true);
            }
        }
        registry
    }

    /// Loads the files of `folder` named like plugins and notes the shared
    /// libraries that are not; `quiet`: skip a name already loaded.
    fn load_folder(&mut self, folder: &Path, quiet: bool) {
        let mut files: Vec<PathBuf> = match std::fs::read_dir(folder) {
            Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|f| f.is_file()).collect(),
            Err(e) => return self.error(folder, LoadFailure::FolderUnreadable(e.to_string())),
        };
        files.sort();
        for file in files {
            if is_plugin_file_name(&file) {
                if quiet && self.is_loaded_elsewhere(&file) {
                    tracing::debug!(file = %file.display(), "plugin skipped: its name is loaded already");
                    continue;
                }
                self.load_file(&file);
            } else if search::is_unmatched_library(&file) {
                tracing::debug!(file = %file.display(), pattern = %plugin_file_pattern(), "library skipped: not named like a plugin");
                self.unmatched.push(file);
            }
        }
    }

    /// Whether `file` is a plugin whose name is already loaded (from
    /// another file); it is read to know its name, and not kept.
    fn is_loaded_elsewhere(&self, file: &Path) -> bool {
        load_plugin(file).is_ok_and(|p| self.plugins.contains_key(&p.description.name))
    }

    fn error(&mut self, path: &Path, failure: LoadFailure) {
        tracing::warn!(file = %path.display(), reason = %failure, "plugin not loaded");
        self.errors.push(LoadError { path: path.to_path_buf(), failure });
    }

    /// Loads one library file; a failure is recorded, not returned.
    pub fn load_file(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if self.plugins.values().any(|p| p.description.file == path) {
            return;
        }
        match load_plugin(&path) {
            Ok(plugin) => {
                let name = plugin.description.name.clone();
                tracing::debug!(plugin = %name, file = %path.display(), "plugin loaded");
                if let Some(first) = self.plugins.get(&name) {
                    let first = first.description.file.clone();
                    self.error(&path, LoadFailure::DuplicateName { name, first });
                } else {
                    self.plugins.insert(name, plugin);
                }
            }
            Err(failure) => self.error(&path, failure),
        }
    }

    /// Loaded plugins, in load order.
    pub fn plugins(&self) -> impl Iterator<Item = &Plugin> {
        self.plugins.values()
    }

    /// Plugin by strategy name.
    pub fn plugin(&self, name: &str) -> Option<&Plugin> {
        self.plugins.get(name)
    }

    /// What failed to load, one entry per file or folder.
    pub fn errors(&self) -> &[LoadError] {
        &self.errors
    }

    /// The folders and files searched, in order.
    pub fn searched(&self) -> &[PathBuf] {
        &self.searched
    }

    /// Shared libraries in the searched folders not named like plugins
    /// ([`plugin_file_pattern`]), so not loaded.
    pub fn unmatched(&self) -> &[PathBuf] {
        &self.unmatched
    }

    /// Why `plugin` is not among the loaded plugins: what loaded, what was
    /// searched, what was passed over.
    pub fn not_found(&self, plugin: &str) -> NotFound {
        NotFound {
            plugin: plugin.to_string(),
            loaded: self.plugins.keys().cloned().collect(),
            searched: self.searched.clone(),
            unmatched: self.unmatched.clone(),
            suggestion: None,
        }
    }

    /// Builds strategy `plugin` (a loaded plugin's name, `full-history` or
    /// a peer's name, [`peers::PEERS`]) as instance `instance` with JSON
    /// `params`.
    pub fn build(&self, instance: &str, plugin: &str, params: &str) -> Result<Renderer, InstanceError> {
        if let Some(built) = Renderer::builtin(instance, plugin, params) {
            return built;
        }
        let found = self.plugin_for(instance, plugin)?;
        found.instantiate(params).map_err(|error| InstanceError::Construct {
            instance: instance.to_string(),
            file: found.description.file.clone(),
            error,
        })
    }
}

impl Registry {
    /// The loaded plugin `plugin` that instance `instance` names, or the
    /// error that says where it was looked for.
    fn plugin_for(&self, instance: &str, plugin: &str) -> Result<&Plugin, InstanceError> {
        self.plugin(plugin).ok_or_else(|| InstanceError::UnknownPlugin {
            instance: instance.to_string(),
            not_found: Box::new(self.not_found(plugin)),
        })
    }

    /// Builds strategy `plugin` (a loaded plugin's name) as instance
    /// `instance` rendering in a child process ([`isolate::Isolated`]):
    /// nothing of the plugin runs here beyond what loading it to read its
    /// name did; its parameters are checked when the child starts
    /// ([`Renderer::start`]). `full-history` and the peers are built in
    /// and never isolated.
    pub fn build_isolated(
        &self,
        instance: &str,
        plugin: &str,
        params: &str,
        command: &isolate::ChildCommand,
        limits: &isolate::Limits,
    ) -> Result<Renderer, InstanceError> {
        if let Some(built) = Renderer::builtin(instance, plugin, params) {
            return built;
        }
        let file = &self.plugin_for(instance, plugin)?.description.file;
        Ok(Renderer::Isolated(Box::new(isolate::Isolated::new(plugin, file, params, command.clone(), *limits))))
    }
}

impl Plugin {
    /// Builds a strategy from JSON parameters.
    pub fn instantiate(&self, params_json: &str) -> Result<Renderer, StrategyError> {
        let params = RStr::from_str(params_json);
        let strategy = match self.module {
            Module::Current(m) => Strategy::Current((m.new_strategy())(params).into_result()?),
            Module::V1_0(m) => Strategy::V1_0((m.new_strategy())(params).into_result()?),
        };
        Ok(Renderer::Plugin { name: self.description.name.clone(), strategy })
    }
}

fn load_plugin(path: &Path) -> Result<Plugin, LoadFailure> {
    let header = lib_header_from_path(path).map_err(|e| LoadFailure::from_library(&e, None))?;
    let claimed = header.version_strings().version.as_str().to_string();
    let (module, info) = if claimed.starts_with("1.0.") {
        let m = header
            .init_root_module::<v1_0::PluginModuleRef>()
            .map_err(|e| LoadFailure::from_library(&e, Some(&claimed)))?;
        (Module::V1_0(m), (m.info())())
    } else {
        let m =
            header.init_root_module::<PluginModuleRef>().map_err(|e| LoadFailure::from_library(&e, Some(&claimed)))?;
        (Module::Current(m), (m.info())())
    };
    Ok(Plugin {
        description: PluginDescription {
            name: info.name().to_string(),
            version: info.version().to_string(),
            interface_version: info.interface_version().to_string(),
            description: info.description().to_string(),
            capabilities: info.capabilities().map(str::to_string).collect(),
            file: path.to_path_buf(),
        },
        module,
    })
}

/// Something that renders prompts: the built-in full history or a plugin's strategy.
pub enum Renderer {
    /// The uncompressed transcript (API-003).
    FullHistory,
    /// A strategy object from a plugin.
    Plugin {
        /// Plugin strategy name.
        name: String,
        /// The instance.
        strategy: Strategy,
    },
    /// A plugin strategy rendering in a child process.
    Isolated(Box<isolate::Isolated>),
    /// A built-in re-creation of another system's compression ([`peers`]).
    Peer(peers::Peer),
}

/// A plugin's strategy object, through the interface view it was loaded with.
pub enum Strategy {
    /// Interface 1.1 or later: renders blocks and breakpoints.
    Current(StrategyBox),
    /// Interface 1.0: plain messages.
    V1_0(v1_0::StrategyBox),
}

impl Renderer {
    /// The built-in strategy `plugin` (`full-history` or a peer) as
    /// instance `instance` with JSON `params`; `None` when `plugin` is no
    /// built-in.
    pub fn builtin(instance: &str, plugin: &str, params: &str) -> Option<Result<Renderer, InstanceError>> {
        if plugin == FULL_HISTORY {
            return Some(Ok(Renderer::FullHistory));
        }
        peers::Peer::build(plugin, params).map(|built| {
            built.map(Renderer::Peer).map_err(|error| InstanceError::Construct {
                instance: instance.to_string(),
                file: PathBuf::from("built in"),
                error,
            })
        })
    }

    /// Strategy name, for stats and messages.
    pub fn name(&self) -> &str {
        match self {
            Renderer::FullHistory => FULL_HISTORY,
            Renderer::Plugin { name, .. } => name,
            Renderer::Isolated(isolated) => isolated.plugin(),
            Renderer::Peer(peer) => peer.name(),
        }
    }

    /// Whether it renders in a child process.
    pub fn is_isolated(&self) -> bool {
        matches!(self, Renderer::Isolated(_))
    }

    /// Gets ready to render: an isolated strategy starts its process and is
    /// built there, so bad parameters show before the first render. `Err`
    /// only when the strategy cannot be built.
    pub fn start(&self) -> Result<(), StrategyError> {
        match self {
            Renderer::Isolated(isolated) => isolated.start(),
            _ => Ok(()),
        }
    }

    /// Renders `request` with its content blocks and cache breakpoints (a
    /// plugin built against interface 1.0 answers through its `render`:
    /// one block per message). A panicking plugin or an invalid layout
    /// yields an error, and the instance stays usable for the next render.
    pub fn render(&self, request: &RenderRequest) -> Result<Prompt, StrategyError> {
        match self {
            Renderer::FullHistory => Ok(ptc_plugin_api::render::full_history_prompt(request)),
            Renderer::Plugin { strategy: Strategy::V1_0(s), .. } => {
                s.render(request).into_result().map(Prompt::from_rendered)
            }
            Renderer::Plugin { strategy: Strategy::Current(s), .. } => {
                let prompt = s.render_prompt(request).into_result()?;
                prompt.check().map_err(|e| StrategyError::render(e.to_string()))?;
                Ok(prompt)
            }
            Renderer::Isolated(isolated) => isolated.render(request),
            Renderer::Peer(peer) => Ok(peer.render(request)),
        }
    }
}
