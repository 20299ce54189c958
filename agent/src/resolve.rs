//! A config with its plugins loaded and its instances built: the one place
//! that turns a strategy name into something that renders.
//!
//! [`Config::resolve`] discovers the plugins once and builds every
//! `[strategy.NAME]` instance once; commands then ask [`Resolved::strategy`]
//! for a name, which is, in this order: a plugin's own name (when no
//! instance has that name; default parameters), an instance of the config,
//! or a built-in: `full-history` or a peer (`ptc_registry::peers`, default
//! parameters).

use crate::config::{Agent, Config, Isolation, Trigger};
use crate::location::Location;
use indexmap::IndexMap;
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_plugin_api::{Prompt, RenderRequest, StrategyError};
use ptc_registry::isolate::ChildCommand;
use ptc_registry::{InstanceError, NotFound, Registry, Renderer};
use ptc_tokens::{TokenCounter, UnknownEncoding, ENCODINGS};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Anything that renders prompts (a loaded plugin instance, full-history,
/// or a test double).
pub trait Render {
    /// Renders `request`.
    fn render(&self, request: &RenderRequest) -> Result<Prompt, StrategyError>;

    /// Whether it renders untrusted code in a child process
    /// (`isolation = "process"`): then any error of it, its process failing
    /// or its strategy refusing, passes the turn to the next fallback.
    fn isolated(&self) -> bool {
        false
    }

    /// Gets ready to render (an isolated instance starts its process and
    /// builds its strategy there); `Err` when the strategy cannot be built.
    fn start(&self) -> Result<(), StrategyError> {
        Ok(())
    }
}

impl Render for Renderer {
    fn render(&self, request: &RenderRequest) -> Result<Prompt, StrategyError> {
        Renderer::render(self, request)
    }

    fn isolated(&self) -> bool {
        self.is_isolated()
    }

    fn start(&self) -> Result<(), StrategyError> {
        Renderer::start(self)
    }
}

/// A strategy as a command uses it: its name, what renders it and its trigger.
#[derive(Clone)]
pub struct Strategy {
    /// The name asked for (instance, plugin or `full-history`).
    pub name: String,
    /// What renders it.
    pub renderer: Arc<dyn Render>,
    /// When it takes over from full-history (instances only).
    pub trigger: Option<Trigger>,
}

impl Strategy {
    /// `name` rendered by `renderer`, with an optional trigger.
    pub fn new(name: impl Into<String>, renderer: Arc<dyn Render>, trigger: Option<Trigger>) -> Strategy {
        Strategy { name: name.into(), renderer, trigger }
    }

    /// Whether this is the built-in full-history.
    pub fn is_full_history(&self) -> bool {
        self.name == FULL_HISTORY
    }
}

/// Why a strategy name gives no strategy.
#[derive(Debug, Clone, PartialEq)]
pub enum LookupError {
    /// Neither an instance, a loaded plugin, nor `full-history`.
    Unknown {
        /// The name asked for.
        name: String,
        /// `full-history` and every instance of the config.
        defined: Vec<String>,
        /// The built-in peers and the loaded plugins, which a name also
        /// gives (with their default parameters).
        plugins: Vec<String>,
    },
    /// The instance's plugin refused its parameters or is not loaded.
    Instance {
        /// Where the instance is configured.
        location: Location,
        /// Why it could not be built.
        error: Box<InstanceError>,
    },
    /// A plugin used by its own name refused its default parameters.
    Plugin {
        /// The plugin name.
        name: String,
        /// Its error.
        error: StrategyError,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::Unknown { name, defined, plugins } => {
                let hint = ptc_lisp::did_you_mean(name, defined.iter().chain(plugins).map(String::as_str));
                write!(f, "no strategy named `{name}` (defined: {}", defined.join(", "))?;
                if !plugins.is_empty() {
                    write!(f, "; or a plugin by its name: {}", plugins.join(", "))?;
                }
                write!(f, "){hint}")
            }
            LookupError::Instance { location, error } => write!(f, "{location}: {error}"),
            LookupError::Plugin { name, error } => write!(f, "strategy `{name}`: {error}"),
        }
    }
}

impl std::error::Error for LookupError {}

/// A loaded config: plugins discovered and instances built, once.
pub struct Resolved {
    /// The config.
    pub config: Config,
    /// The plugins found in its plugin paths.
    pub registry: Registry,
    instances: IndexMap<String, Result<Arc<Renderer>, LookupError>>,
}

/// The hidden subcommand of `ptc` that serves an isolated instance's renders.
pub const RENDER_CHILD: &str = "render-child";

/// The child program of isolated instances: this `ptc` executable, with
/// its hidden [`RENDER_CHILD`] subcommand.
pub fn ptc_child_command() -> ChildCommand {
    let program = std::env::current_exe().unwrap_or_else(|_| "ptc".into());
    ChildCommand::new(program, [RENDER_CHILD])
}

impl Config {
    /// The plugins this config finds: in its `[plugins] paths` (with
    /// `PTC_PLUGIN_PATH` once loaded), then in the running executable's
    /// folder unless `executable_dir = false`.
    pub fn discover_plugins(&self) -> Registry {
        if self.executable_dir {
            Registry::discover_with_executable_dir(&self.plugin_paths)
        } else {
            Registry::discover(&self.plugin_paths)
        }
    }

    /// Discovers the plugins of this config and builds every instance once;
    /// isolated instances run their child with this executable
    /// ([`ptc_child_command`]: call it from the `ptc` binary).
    pub fn resolve(self) -> Resolved {
        self.resolve_with(&ptc_child_command())
    }

    /// [`Config::resolve`], isolated instances running `child` (a `ptc`
    /// binary with its [`RENDER_CHILD`] subcommand, for library users and
    /// tests whose own executable is not `ptc`).
    pub fn resolve_with(self, child: &ChildCommand) -> Resolved {
        let registry = self.discover_plugins();
        let instances = self
            .strategies
            .values()
            .map(|s| {
                let params = s.params.to_string();
                let built = match &s.isolation {
                    Isolation::InProcess => registry.build(&s.name, &s.plugin, &params),
                    Isolation::Process(limits) => registry.build_isolated(&s.name, &s.plugin, &params, child, limits),
                };
                let built = built.map(Arc::new).map_err(|error| LookupError::Instance {
                    location: s.location.clone(),
                    error: Box::new(with_suggestion(error)),
                });
                (s.name.clone(), built)
            })
            .collect();
        Resolved { config: self, registry, instances }
    }
}

impl Resolved {
    /// The strategy called `name`: a plugin by its own name (default
    /// parameters) unless an instance has that name, an instance, or
    /// `full-history`.
    pub fn strategy(&self, name: &str) -> Result<Strategy, LookupError> {
        if name == FULL_HISTORY {
            return Ok(Strategy::new(name, Arc::new(Renderer::FullHistory), None));
        }
        if let Some(built) = self.instances.get(name) {
            let instance = &self.config.strategies[name];
            let renderer = built.clone()?;
            // An isolated instance is built in its child: bad parameters
            // show here, not at its first render.
            renderer.start().map_err(|error| LookupError::Instance {
                location: instance.location.clone(),
                error: Box::new(InstanceError::Construct {
                    instance: name.to_string(),
                    file: self
                        .registry
                        .plugin(&instance.plugin)
                        .map(|p| p.description.file.clone())
                        .unwrap_or_default(),
                    error,
                }),
            })?;
            return Ok(Strategy::new(name, renderer, instance.trigger));
        }
        if let Some(built) = Renderer::builtin(name, name, "{}") {
            let renderer =
                built.map_err(|error| LookupError::Plugin { name: name.to_string(), error: error_of(error) })?;
            return Ok(Strategy::new(name, Arc::new(renderer), None));
        }
        match self.registry.plugin(name) {
            Some(plugin) => plugin
                .instantiate("{}")
                .map(|r| Strategy::new(name, Arc::new(r), None))
                .map_err(|error| LookupError::Plugin { name: name.to_string(), error }),
            None => {
                Err(LookupError::Unknown { name: name.to_string(), defined: self.defined(), plugins: self.plugins() })
            }
        }
    }

    /// Every configured instance and whether it built.
    pub fn instances(&self) -> impl Iterator<Item = (&str, Result<(), &LookupError>)> + '_ {
        self.instances.iter().map(|(name, built)| (name.as_str(), built.as_ref().map(|_| ())))
    }

    /// The names that give a plugin with its default parameters: the
    /// built-in peers and the loaded plugins.
    pub fn plugins(&self) -> Vec<String> {
        let peers = ptc_registry::peers::PEERS.iter().map(|p| p.to_string());
        peers.chain(self.registry.plugins().map(|p| p.description.name.clone())).collect()
    }

    /// `full-history` and every instance name.
    pub fn defined(&self) -> Vec<String> {
        std::iter::once(FULL_HISTORY.to_string()).chain(self.config.strategies.keys().cloned()).collect()
    }
}

/// An unknown plugin name with the loaded one a typo likely meant.
fn with_suggestion(mut error: InstanceError) -> InstanceError {
    if let InstanceError::UnknownPlugin { not_found, .. } = &mut error {
        suggest(not_found);
    }
    error
}

/// Why `registry` has no plugin `plugin`, with the loaded name a typo
/// likely meant (`ptc conformance NAME`).
pub fn plugin_not_found(registry: &Registry, plugin: &str) -> NotFound {
    let mut not_found = registry.not_found(plugin);
    suggest(&mut not_found);
    not_found
}

fn suggest(not_found: &mut NotFound) {
    let loaded = not_found.loaded.iter().map(String::as_str);
    not_found.suggestion = ptc_lisp::closest_among(&not_found.plugin, loaded);
}

/// The strategy error inside a built-in's construction error.
fn error_of(error: InstanceError) -> StrategyError {
    match error {
        InstanceError::Construct { error, .. } => error,
        other => StrategyError::invalid_params(other.to_string()),
    }
}

/// The process-wide token counter of `encoding`, built on first use
/// (building a BPE table is the slowest thing a command does, so it is done
/// once, and only by commands that count).
pub fn token_counter(encoding: &str) -> Result<&'static TokenCounter, UnknownEncoding> {
    static COUNTERS: [OnceLock<TokenCounter>; ENCODINGS.len()] = [const { OnceLock::new() }; ENCODINGS.len()];
    let index = ENCODINGS.iter().position(|&name| name == encoding);
    let cell = &COUNTERS[index.ok_or_else(|| UnknownEncoding(encoding.to_string()))?];
    if let Some(counter) = cell.get() {
        return Ok(counter);
    }
    let counter = TokenCounter::new(encoding)?;
    Ok(cell.get_or_init(|| counter))
}

/// The token counter of `agent`'s `token_encoding` (default `o200k_base`).
pub fn agent_token_counter(agent: &Agent) -> Result<&'static TokenCounter, UnknownEncoding> {
    token_counter(agent.token_encoding.as_deref().unwrap_or(ptc_tokens::DEFAULT_ENCODING))
}
