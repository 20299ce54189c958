//! Where the registry looks and what it reports when a plugin is not
//! found, on real folders and files: the folders searched, the file
//! pattern, and the shared libraries there that the pattern passes over.

use ptc_registry::{executable_dir, plugin_file_pattern, InstanceError, LoadFailure, Registry};
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptc-registry-test-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn library(dir: &Path, stem: &str) -> PathBuf {
    let file = dir.join(format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    std::fs::write(&file, b"not loaded: the name alone decides").unwrap();
    file
}

#[test]
fn an_unknown_plugin_names_the_folders_the_pattern_and_the_misnamed_libraries() {
    let (a, b) = (folder("a"), folder("b"));
    let misnamed = library(&a, "keep_last_turns");
    std::fs::write(a.join("README.txt"), "not a library").unwrap();
    let registry = Registry::discover(&[a.clone(), b.clone()]);
    assert_eq!(registry.searched(), [a.clone(), b.clone()]);
    assert_eq!(registry.unmatched(), std::slice::from_ref(&misnamed));
    assert!(registry.errors().is_empty(), "a misnamed file is not opened: {:?}", registry.errors());
    let Err(err) = registry.build("mine", "keep-last-turns", "{}") else { panic!("no such plugin loaded") };
    assert!(
        matches!(&err, InstanceError::UnknownPlugin { not_found, .. } if not_found.unmatched == [misnamed.clone()])
    );
    let text = err.to_string();
    assert!(
        text.starts_with("strategy `mine`: no loaded plugin is named `keep-last-turns` (loaded: none); "),
        "{text}"
    );
    let searched = format!("searched {}, {} for files named {}", a.display(), b.display(), plugin_file_pattern());
    assert!(text.contains(&searched), "{text}");
    assert!(text.contains(&format!("lack `ptc_strategy_`: {}", misnamed.display())), "{text}");
    assert!(text.ends_with("add its folder to [plugins] paths or PTC_PLUGIN_PATH"), "{text}");
}

#[test]
fn a_file_named_like_a_plugin_is_opened_and_its_failure_reported() {
    let dir = folder("bad-plugin");
    let fake = library(&dir, "ptc_strategy_fake");
    let registry = Registry::discover(std::slice::from_ref(&dir));
    assert!(registry.unmatched().is_empty());
    assert_eq!(registry.errors().len(), 1);
    assert_eq!(registry.errors()[0].path, fake.canonicalize().unwrap());
    assert!(matches!(registry.errors()[0].failure, LoadFailure::OpenFailed(_)), "{}", registry.errors()[0]);
}

#[test]
fn the_executable_dir_is_searched_last_and_once() {
    let exe_dir = executable_dir().expect("a test knows its executable");
    assert!(exe_dir.join(std::env::current_exe().unwrap().file_name().unwrap()).is_file());
    let dir = folder("configured");
    let registry = Registry::discover_with_executable_dir(std::slice::from_ref(&dir));
    assert_eq!(registry.searched(), [dir, exe_dir.clone()]);
    // Already configured (by another spelling): not searched twice.
    let spelled = exe_dir.join(".");
    let registry = Registry::discover_with_executable_dir(std::slice::from_ref(&spelled));
    assert_eq!(registry.searched(), [spelled]);
}
