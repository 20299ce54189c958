//! The literal scanner lives in the SDK (`ptc_plugin_api::render`), so the
//! recall measure and the strategies that keep facts read a program the
//! same way.

pub use ptc_plugin_api::render::{program_literals, Literal};
