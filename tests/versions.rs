//! The versions the documents name are the crates' own, so that a bump
//! cannot leave a page behind (the SDK once changed without one, and the
//! README named an SDK version two releases old):
//!
//! - each CHANGELOG's newest entry is its crate's version (the workspace's,
//!   `plugin-api`'s);
//! - every `ptc-conformance = "X.Y"` a reader would copy names the
//!   workspace's major and minor, every `ptc-plugin-api = "X.Y"` the SDK's;
//! - README.md and ARCHITECTURE.md name the SDK's version as it is.

use ptc_integration_tests::root;
use std::path::Path;

/// `version` of a Cargo.toml's `[package]` or `[workspace.package]`.
fn version(manifest: &str, table: &[&str]) -> String {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let doc: toml::Table = text.parse().unwrap();
    let mut value = &toml::Value::Table(doc);
    for key in table {
        value = &value[key];
    }
    value["version"].as_str().unwrap_or_else(|| panic!("{manifest}: no version")).to_string()
}

fn workspace() -> String {
    version("Cargo.toml", &["workspace", "package"])
}

fn sdk() -> String {
    version("plugin-api/Cargo.toml", &["package"])
}

/// `0.8` of `0.8.0`: what a dependency line asks for.
fn major_minor(version: &str) -> &str {
    version.rsplit_once('.').map_or(version, |(mm, _)| mm)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The version of a changelog's first `## X.Y.Z` heading.
fn newest_entry(path: &str) -> String {
    let text = read(path);
    let line = text.lines().find(|l| l.starts_with("## ")).unwrap_or_else(|| panic!("{path}: no `## ` entry"));
    line.trim_start_matches("## ").split_whitespace().next().unwrap().to_string()
}

#[test]
fn each_changelog_starts_with_its_crates_version() {
    assert_eq!(newest_entry("CHANGELOG.md"), workspace(), "CHANGELOG.md's newest entry is not the workspace's version");
    assert_eq!(
        newest_entry("plugin-api/CHANGELOG.md"),
        sdk(),
        "plugin-api/CHANGELOG.md's newest entry is not the SDK's version"
    );
}

/// Every `crate = "X.Y"` in the files a plugin author reads and copies:
/// the Markdown, TOML and Rust files of the repository (the changelogs,
/// which keep old versions, the frozen 1.0 SDK copy and this file left
/// out).
#[test]
fn dependency_lines_in_docs_name_the_current_versions() {
    let expected = [("ptc-conformance", workspace()), ("ptc-plugin-api", sdk())];
    let mut files = Vec::new();
    collect(&root(), &mut files);
    let mut checked = 0;
    for path in &files {
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        for (krate, version) in &expected {
            let want = format!("{krate} = \"{}\"", major_minor(version));
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&format!("{krate} = \"")) {
                let line = rest[at..].lines().next().unwrap();
                let quoted = &line[krate.len() + 4..];
                let named = &quoted[..quoted.find('"').unwrap_or(quoted.len())];
                assert!(
                    line.starts_with(&want),
                    "{rel}: `{krate} = \"{named}\"` but the crate is {version} (write `{want}`)"
                );
                checked += 1;
                rest = &rest[at + krate.len()..];
            }
        }
    }
    // The conformance README, the example plugin's manifest and the test
    // that builds it outside the workspace name both.
    assert!(checked >= 6, "only {checked} dependency lines found: the search missed the files");
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            // Build output, git, recorded data and the frozen 1.0 SDK copy.
            if !matches!(name.as_str(), "target" | ".git" | "compat" | "sessions" | "golden" | "node_modules") {
                collect(&path, out);
            }
        } else if !matches!(name.as_str(), "CHANGELOG.md" | "versions.rs")
            && (name.ends_with(".md") || name.ends_with(".toml") || name.ends_with(".rs"))
        {
            out.push(path);
        }
    }
}

#[test]
fn readme_and_architecture_name_the_sdks_version() {
    let sdk = sdk();
    let readme = read("README.md");
    let phrase = format!("The SDK has its own version ({})", major_minor(&sdk));
    assert!(readme.contains(&phrase), "README.md does not say `{phrase}`");
    let architecture = read("ARCHITECTURE.md");
    let phrase = format!("own version ({sdk}, not the workspace's)");
    assert!(architecture.contains(&phrase), "ARCHITECTURE.md does not say `{phrase}`");
}
