//! The SDK's parameter reader and panic guard, through the public API a
//! plugin uses (`Params`, `sdk::catch_panic`).

use ptc_plugin_api::{sdk, ErrorKind, Params};

#[test]
fn loader_symbol_matches_abi_stable() {
    assert_eq!(sdk::__private::ROOT_MODULE_LOADER_NAME, ptc_plugin_api::abi_stable::library::ROOT_MODULE_LOADER_NAME);
}

#[test]
fn unknown_key_is_named_with_known_ones() {
    let mut p = Params::from_json("demo", r#"{"window": 2, "windw": 3}"#).unwrap();
    assert_eq!(p.positive("window", 1).unwrap(), 2);
    let err = p.finish().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert_eq!(err.message(), "demo: unknown parameter `windw` (known: window)");
}

#[test]
fn a_key_of_another_setting_is_named_as_such() {
    let other = |p: &mut Params| p.positive("fold_tokens", 1).map(drop);
    let p = Params::from_json("demo", r#"{"fold_tokens": 0}"#).unwrap();
    let err = p.finish_unless("layout = \"checkpointed\"", other).unwrap_err();
    assert_eq!(err.message(), "demo: parameter `fold_tokens` is read only with layout = \"checkpointed\"");
    let p = Params::from_json("demo", r#"{"fold_tokns": 5}"#).unwrap();
    let err = p.finish_unless("layout = \"checkpointed\"", other).unwrap_err();
    assert_eq!(err.message(), "demo: unknown parameter `fold_tokns` (it takes no parameters)");
    assert!(Params::from_json("demo", "{}").unwrap().finish_unless("x", other).is_ok());
}

#[test]
fn zero_negative_and_wrong_type_are_rejected() {
    for (json, want) in [
        (r#"{"n": 0}"#, "demo: parameter `n` must be at least 1, got 0"),
        (r#"{"n": -4}"#, "demo: parameter `n` must be at least 1, got -4"),
        (r#"{"n": "5"}"#, "demo: parameter `n` must be a whole number, got \"5\""),
        (r#"{"n": 2.5}"#, "demo: parameter `n` must be a whole number, got 2.5"),
    ] {
        let mut p = Params::from_json("demo", json).unwrap();
        assert_eq!(p.positive("n", 1).unwrap_err().message(), want);
    }
}

#[test]
fn a_choice_names_the_allowed_values() {
    let mut p = Params::from_json("demo", r#"{"layout": "fancy"}"#).unwrap();
    let err = p.choice("layout", &["spec", "checkpointed"]).unwrap_err();
    assert_eq!(err.message(), "demo: parameter `layout` must be one of \"spec\", \"checkpointed\", got \"fancy\"");
    let mut p = Params::from_json("demo", "{}").unwrap();
    assert_eq!(p.choice("layout", &["spec", "checkpointed"]).unwrap(), "spec");
}

#[test]
fn non_object_params_are_rejected() {
    let err = Params::from_json("demo", "[1]").unwrap_err();
    assert_eq!(err.message(), "demo: parameters must be a table, got [1]");
}

#[test]
fn panic_becomes_error_with_message() {
    let r: Result<(), _> = sdk::catch_panic("test", || panic!("boom {}", 7));
    let err = r.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Panicked);
    assert!(err.message().starts_with("test panicked: boom 7 at "), "{}", err.message());
}
