//! The root module every plugin exports and the strategy trait object.
//!
//! The host loads a plugin with
//! `lib_header_from_path(path)?.init_root_module::<PluginModuleRef>()`;
//! authors never write this by hand: [`crate::export_strategy!`] does.
//!
//! `abi_stable` accepts a plugin whose prefix types (the root module, the
//! strategy's vtable) have *at least* the fields the host expects, never
//! fewer. So each time the interface grows, the host keeps a view of the
//! older layout ([`v1_0`]) and loads a plugin with the newest view it
//! satisfies.

// `sabi_trait` generates impls inside a const block.
#![allow(non_local_definitions)]

use crate::{output::*, prompt::Prompt, request::RenderRequest};
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
    /// Renders `request` into messages (interface 1.0).
    #[sabi(last_prefix_field)]
    fn render(&self, request: &RenderRequest) -> RResult<Rendered, StrategyError>;

    /// Renders `request` into messages with content blocks and cache
    /// breakpoints (interface 1.1).
    fn render_prompt(&self, request: &RenderRequest) -> RResult<Prompt, StrategyError>;
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

/// The interface 1.0 layout, as the host sees a plugin built against it:
/// a strategy vtable with `render` only. Never changes.
pub mod v1_0 {
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

    /// The strategy object of a 1.0 plugin.
    #[sabi_trait]
    pub trait StrategyObject: Send + Sync {
        /// Renders `request` into messages.
        #[sabi(last_prefix_field)]
        fn render(&self, request: &RenderRequest) -> RResult<Rendered, StrategyError>;
    }

    /// An owned 1.0 strategy.
    pub type StrategyBox = StrategyObject_TO<'static, RBox<()>>;

    /// The root module of a 1.0 plugin.
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
        const VERSION_STRINGS: VersionStrings = VersionStrings::new("1.0.0");
    }
}

#[cfg(test)]
mod tests {
    use abi_stable::StableAbi;

    /// The package version on the ABI types is the one `build.rs` pins,
    /// not the crate's: plugins built against 0.1.0 still pass the layout
    /// check of a host built with a later 0.x SDK.
    #[test]
    fn abi_types_carry_the_pinned_package_version() {
        let layouts = [<crate::RenderRequest as StableAbi>::LAYOUT, <crate::StrategyError as StableAbi>::LAYOUT];
        for layout in layouts {
            let (package, version) = layout.package_and_version();
            assert_eq!((package.as_str(), version.version.as_str()), ("ptc-plugin-api", "0.1.0"));
        }
        assert_ne!(env!("CARGO_PKG_VERSION_MINOR"), "1", "the crate's own version moved on (0.2)");
    }
}
