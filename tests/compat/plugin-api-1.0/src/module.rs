//! The root module every plugin exports and the strategy trait object.
//!
//! The host loads a plugin with
//! `lib_header_from_path(path)?.init_root_module::<PluginModuleRef>()`;
//! authors never write this by hand: [`crate::export_strategy!`] does.

// `sabi_trait` generates impls inside a const block.
#![allow(non_local_definitions)]

use crate::{output::*, request::RenderRequest};
use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, RResult, RStr},
    StableAbi,
};

/// The strategy object behind the boundary.
#[sabi_trait]
pub trait StrategyObject: Send + Sync {
    /// Renders `request` into messages.
    #[sabi(last_prefix_field)]
    fn render(&self, request: &RenderRequest) -> RResult<Rendered, StrategyError>;
}

/// An owned, type-erased strategy.
pub type StrategyBox = StrategyObject_TO<'static, RBox<()>>;

/// The root module: a prefix type, so later interface versions may append
/// fields and an older host still reads the prefix it knows.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
#[sabi(missing_field(panic))]
pub struct PluginModule {
    /// What the plugin is.
    pub info: extern "C" fn() -> PluginInfo,
    /// Builds a strategy instance from its parameters (a JSON object).
    #[sabi(last_prefix_field)]
    pub new_strategy: extern "C" fn(params_json: RStr<'_>) -> RResult<StrategyBox, StrategyError>,
}

impl RootModule for PluginModuleRef {
    declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "ptc_strategy";
    const NAME: &'static str = "ptc_strategy";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new(crate::INTERFACE_VERSION);
}
