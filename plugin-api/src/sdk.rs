//! The author-facing SDK: a plain [`Strategy`] trait, parameter parsing, and
//! the [`export_strategy!`](crate::export_strategy) macro.

use crate::output::{ErrorKind, Rendered, StrategyError};
use crate::prompt::Prompt;
use crate::request::RenderRequest;
use serde_json::{Map, Value as Json};

/// A compression strategy, in plain Rust.
///
/// Rendering must be a pure function of the request: same request,
/// byte-identical messages.
///
/// Implement [`render`](Strategy::render); to split messages into content
/// blocks and mark cache breakpoints, also implement
/// [`render_prompt`](Strategy::render_prompt) and let `render` return its
/// messages (`self.render_prompt(req).map(Prompt::into_rendered)`).
pub trait Strategy: Sized + Send + Sync + 'static {
    /// Plugin name, referred to as `plugin = "..."` in `strategies.toml`.
    const NAME: &'static str;
    /// One-line description shown by `ptc strategies`.
    const DESCRIPTION: &'static str;

    /// Builds an instance from its parameters. Reject unknown keys with
    /// [`Params::finish`].
    fn new(params: Params) -> Result<Self, StrategyError>;

    /// Renders the next prompt.
    fn render(&self, request: &RenderRequest) -> Result<Rendered, StrategyError>;

    /// Renders the next prompt with content blocks and cache breakpoints.
    /// The default is [`render`](Strategy::render): one block per message,
    /// no breakpoints.
    fn render_prompt(&self, request: &RenderRequest) -> Result<Prompt, StrategyError> {
        self.render(request).map(Prompt::from_rendered)
    }
}

/// Strategy parameters (the instance's TOML table, as JSON), read key by key.
///
/// Every getter removes its key; [`Params::finish`] then names whatever is
/// left as unknown.
#[derive(Debug, Clone, Default)]
pub struct Params {
    strategy: String,
    map: Map<String, Json>,
    known: Vec<&'static str>,
}

impl Params {
    /// Parses `json` (an object) as parameters of `strategy`.
    pub fn from_json(strategy: &str, json: &str) -> Result<Params, StrategyError> {
        let json = if json.trim().is_empty() { "{}" } else { json };
        match serde_json::from_str::<Json>(json) {
            Ok(Json::Object(map)) => Ok(Params { strategy: strategy.to_string(), map, known: Vec::new() }),
            Ok(other) => {
                Err(StrategyError::invalid_params(format!("{strategy}: parameters must be a table, got {other}")))
            }
            Err(e) => Err(StrategyError::invalid_params(format!("{strategy}: parameters are not valid JSON: {e}"))),
        }
    }

    fn error(&self, key: &str, message: impl std::fmt::Display) -> StrategyError {
        StrategyError::invalid_params(format!("{}: parameter `{key}` {message}", self.strategy))
    }

    /// A positive integer (`>= 1`), `default` when absent.
    pub fn positive(&mut self, key: &'static str, default: usize) -> Result<usize, StrategyError> {
        Ok(self.optional_positive(key)?.unwrap_or(default))
    }

    /// A positive integer (`>= 1`), `None` when absent.
    pub fn optional_positive(&mut self, key: &'static str) -> Result<Option<usize>, StrategyError> {
        self.known.push(key);
        match self.map.remove(key) {
            None => Ok(None),
            Some(Json::Number(n)) => match n.as_i64() {
                Some(i) if i >= 1 => Ok(Some(i as usize)),
                Some(i) => Err(self.error(key, format_args!("must be at least 1, got {i}"))),
                None => Err(self.error(key, format_args!("must be a whole number, got {n}"))),
            },
            Some(other) => Err(self.error(key, format_args!("must be a whole number, got {other}"))),
        }
    }

    /// A boolean, `default` when absent.
    pub fn bool(&mut self, key: &'static str, default: bool) -> Result<bool, StrategyError> {
        self.known.push(key);
        match self.map.remove(key) {
            None => Ok(default),
            Some(Json::Bool(b)) => Ok(b),
            Some(other) => Err(self.error(key, format_args!("must be true or false, got {other}"))),
        }
    }

    /// A string, `default` when absent.
    pub fn string(&mut self, key: &'static str, default: &str) -> Result<String, StrategyError> {
        self.known.push(key);
        match self.map.remove(key) {
            None => Ok(default.to_string()),
            Some(Json::String(s)) => Ok(s),
            Some(other) => Err(self.error(key, format_args!("must be a string, got {other}"))),
        }
    }

    /// One of `choices` (a string), `choices[0]` when absent; anything else
    /// is an error that lists the choices.
    pub fn choice(&mut self, key: &'static str, choices: &[&'static str]) -> Result<&'static str, StrategyError> {
        let given = self.string(key, choices[0])?;
        choices.iter().find(|c| **c == given).copied().ok_or_else(|| {
            let quoted: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
            self.error(key, format_args!("must be one of {}, got \"{given}\"", quoted.join(", ")))
        })
    }

    /// [`Params::finish`] for a setting that leaves other parameters unread
    /// (a layout without checkpoints): a left key that `other` reads (the
    /// other setting's getters) is named as read only with `setting`
    /// (`layout = "checkpointed"`), not as unknown.
    pub fn finish_unless(
        self,
        setting: &str,
        other: impl FnOnce(&mut Params) -> Result<(), StrategyError>,
    ) -> Result<(), StrategyError> {
        let Some(key) = self.map.keys().next().cloned() else { return Ok(()) };
        let mut probe = self.clone();
        // A getter removes its key before it checks the value.
        let _ = other(&mut probe);
        if !probe.map.contains_key(&key) {
            return Err(self.error(&key, format_args!("is read only with {setting}")));
        }
        self.finish()
    }

    /// Fails if any key was not read, naming it and the keys that are known.
    pub fn finish(self) -> Result<(), StrategyError> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(key) => {
                let known = if self.known.is_empty() {
                    "it takes no parameters".to_string()
                } else {
                    format!("known: {}", self.known.join(", "))
                };
                Err(StrategyError::invalid_params(format!("{}: unknown parameter `{key}` ({known})", self.strategy)))
            }
        }
    }
}

/// Runs `f`, turning a panic into [`ErrorKind::Panicked`] with its message
/// and location. Used by the generated plugin glue; also handy in tests.
pub fn catch_panic<T>(what: &str, f: impl FnOnce() -> Result<T, StrategyError>) -> Result<T, StrategyError> {
    panic_capture::run(f)
        .unwrap_or_else(|message| Err(StrategyError::new(ErrorKind::Panicked, format!("{what} panicked: {message}"))))
}

mod panic_capture {
    //! Panics inside a guarded call are recorded instead of printed: the
    //! host prints one clean line from the returned error. Panics anywhere
    //! else still reach the previous hook.
    use std::cell::{Cell, RefCell};
    use std::panic::{self, AssertUnwindSafe};
    use std::sync::Once;

    thread_local! {
        static GUARDED: Cell<u32> = const { Cell::new(0) };
        static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
    }

    fn install_hook() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            let previous = panic::take_hook();
            panic::set_hook(Box::new(move |info| {
                if GUARDED.with(|g| g.get()) > 0 {
                    let payload = info.payload();
                    let text = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "non-string panic payload".to_string());
                    let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
                    LAST.with(|l| *l.borrow_mut() = Some(format!("{text}{at}")));
                } else {
                    previous(info)
                }
            }));
        });
    }

    pub fn run<T>(f: impl FnOnce() -> T) -> Result<T, String> {
        install_hook();
        GUARDED.with(|g| g.set(g.get() + 1));
        let result = panic::catch_unwind(AssertUnwindSafe(f));
        GUARDED.with(|g| g.set(g.get() - 1));
        result.map_err(|_| LAST.with(|l| l.borrow_mut().take()).unwrap_or_else(|| "unknown panic".to_string()))
    }
}

#[doc(hidden)]
pub mod __private {
    //! Glue called by the code `export_strategy!` generates.
    use super::*;
    use crate::module::{PluginModule, PluginModuleRef, StrategyBox, StrategyObject, StrategyObject_TO};
    use crate::output::PluginInfo;
    use abi_stable::{
        prefix_type::PrefixTypeTrait,
        sabi_trait::TD_Opaque,
        std_types::{RBox, RResult, RStr},
    };

    struct Guarded<S>(S);

    impl<S: Strategy> StrategyObject for Guarded<S> {
        fn render(&self, request: &RenderRequest) -> RResult<Rendered, StrategyError> {
            catch_panic(&format!("strategy `{}` render", S::NAME), || self.0.render(request)).into()
        }

        fn render_prompt(&self, request: &RenderRequest) -> RResult<Prompt, StrategyError> {
            catch_panic(&format!("strategy `{}` render", S::NAME), || self.0.render_prompt(request)).into()
        }
    }

    /// Builds a boxed strategy from JSON parameters, never unwinding.
    pub fn new_strategy<S: Strategy>(params: RStr<'_>) -> RResult<StrategyBox, StrategyError> {
        catch_panic(&format!("strategy `{}` constructor", S::NAME), || {
            let params = Params::from_json(S::NAME, params.as_str())?;
            let strategy = S::new(params)?;
            Ok(StrategyObject_TO::from_value(Guarded(strategy), TD_Opaque))
        })
        .into()
    }

    /// Builds the strategy in-process, without the dylib (tests, benchmarks).
    pub fn info<S: Strategy>(version: &str) -> PluginInfo {
        PluginInfo::new(S::NAME, version, S::DESCRIPTION)
    }

    /// The root module, leaked once per process.
    pub fn root_module(
        info: extern "C" fn() -> PluginInfo,
        new_strategy: extern "C" fn(RStr<'_>) -> RResult<StrategyBox, StrategyError>,
    ) -> PluginModuleRef {
        PluginModule { info, new_strategy }.leak_into_prefix()
    }

    /// The exported symbol name `abi_stable` looks up (checked by a test).
    pub const ROOT_MODULE_LOADER_NAME: &str = "_1as_0lib_1header_0root_bmodule_bloader";

    #[doc(hidden)]
    pub fn _keep(_: RBox<()>) {}
}

/// Exports a [`Strategy`] type as a plugin: put it once in a `cdylib` crate.
///
/// ```
/// # use ptc_plugin_api::{render, Message, Params, Rendered, RenderRequest, Stats, Strategy, StrategyError};
/// # pub struct MyStrategy;
/// # impl Strategy for MyStrategy {
/// #     const NAME: &'static str = "my-strategy";
/// #     const DESCRIPTION: &'static str = "Mission and turn info only";
/// #     fn new(params: Params) -> Result<Self, StrategyError> {
/// #         params.finish()?;
/// #         Ok(MyStrategy)
/// #     }
/// #     fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
/// #         let user = format!("{}\n\n{}", req.mission(), render::turn_info(req.turn(), req.max_turns()));
/// #         Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], Stats::new(Self::NAME)))
/// #     }
/// # }
/// ptc_plugin_api::export_strategy!(MyStrategy);
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! export_strategy {
    ($strategy:ty) => {
        #[doc(hidden)]
        pub mod __ptc_plugin_export {
            use super::*;
            use $crate::abi_stable::std_types::{RResult, RStr};

            extern "C" fn info() -> $crate::PluginInfo {
                $crate::sdk::__private::info::<$strategy>(env!("CARGO_PKG_VERSION"))
            }

            extern "C" fn new_strategy(
                params: RStr<'_>,
            ) -> RResult<$crate::module::StrategyBox, $crate::StrategyError> {
                $crate::sdk::__private::new_strategy::<$strategy>(params)
            }

            fn root_module() -> $crate::module::PluginModuleRef {
                $crate::sdk::__private::root_module(info, new_strategy)
            }

            extern "C" fn erased_root_module() -> $crate::abi_stable::library::RootModuleResult {
                $crate::abi_stable::library::__call_root_module_loader(root_module)
            }

            /// The header `abi_stable` reads to check and load this plugin.
            #[export_name = "_1as_0lib_1header_0root_bmodule_bloader"]
            pub static PTC_PLUGIN_HEADER: $crate::abi_stable::library::LibHeader = unsafe {
                $crate::abi_stable::library::LibHeader::from_constructor::<$crate::module::PluginModuleRef>(
                    erased_root_module,
                    $crate::abi_stable::library::CheckTypeLayout::Yes,
                )
            };
        }
    };
}
