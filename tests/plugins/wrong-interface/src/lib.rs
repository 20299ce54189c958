//! An "old" plugin: its root module has the right name but declares
//! interface version 0.9.0 and a different layout. Loading it must fail
//! with one line that names the version, never crash.

#![allow(non_local_definitions)]

use abi_stable::{
    declare_root_module_statics, export_root_module, library::RootModule, package_version_strings,
    prefix_type::PrefixTypeTrait, sabi_types::VersionStrings, std_types::RString, StableAbi,
};

/// The old root module.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = OldModuleRef)))]
#[sabi(missing_field(panic))]
pub struct OldModule {
    /// An old-style entry point.
    #[sabi(last_prefix_field)]
    pub name: extern "C" fn() -> RString,
}

impl RootModule for OldModuleRef {
    declare_root_module_statics! {OldModuleRef}
    const BASE_NAME: &'static str = "ptc_strategy";
    const NAME: &'static str = "ptc_strategy";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new("0.9.0");
}

extern "C" fn name() -> RString {
    "old-plugin".into()
}

/// Exported root module.
#[export_root_module]
pub fn root() -> OldModuleRef {
    let _unused = package_version_strings!();
    OldModule { name }.leak_into_prefix()
}
