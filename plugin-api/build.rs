//! Pins the package version `abi_stable` stamps on the ABI types.
//!
//! `#[derive(StableAbi)]` records `CARGO_PKG_NAME;CARGO_PKG_VERSION` in the
//! layout of every type it derives, and the layout check at load time
//! rejects a plugin whose stamp is not semver-compatible with the host's
//! (`0.1.x` against `0.2.x`). The SDK's crate version moves with its source
//! API (`Cargo.toml`, `CHANGELOG.md`); which built plugins a host loads is
//! the plugin interface's business (`INTERFACE_VERSION`, checked on the root
//! module, and the layouts themselves, still compared field by field). So
//! the stamp stays the version interface-1 plugins have been built with
//! since the first release: a plugin built against any 0.x SDK keeps loading.
//! It changes only with the interface's major version.

/// The package version stamped on the ABI types of interface 1.
const ABI_PACKAGE_VERSION: &str = "0.1.0";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-env=CARGO_PKG_VERSION={ABI_PACKAGE_VERSION}");
}
