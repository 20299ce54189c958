//! The plugin tutorial (`examples/custom-strategy/README.md`) is code that
//! builds and conforms: its fenced blocks that name a file in their first
//! line (`// src/lib.rs`, `# Cargo.toml`) are written out as the crate the
//! tutorial describes, outside the workspace, with ptc's lock file and the
//! SDK by path; the crate is built (library, cdylib and tests), and the
//! conformance suite runs on the cdylib with the parameters of the
//! tutorial's own test: every MUST and every SHOULD case must pass. The
//! Rust of `conformance/README.md` (the suite from a plugin's own `cargo
//! test`) is compiled with that crate.

use ptc_conformance::harness::{build_dir, conformance_report};
use ptc_conformance::{Limits, Status};
use ptc_integration_tests::{fenced_blocks, progress, root, scratch_dir};
use std::collections::BTreeMap;
use std::path::Path;

const TUTORIAL: &str = "examples/custom-strategy/README.md";
const CONFORMANCE_README: &str = "conformance/README.md";

/// The files of the tutorial's crate, by path, each the concatenation of
/// its blocks in order. Every Rust block must name its file, so no Rust
/// code of the tutorial goes unbuilt.
fn tutorial_files(markdown: &str) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for block in fenced_blocks(markdown) {
        let first = block.text.lines().next().unwrap_or("");
        let file = match block.lang.as_str() {
            "rust" => first.strip_prefix("// ").unwrap_or_else(|| {
                panic!(
                    "{TUTORIAL}: a Rust block does not start with `// FILE` (src/lib.rs, tests/...):\n{}",
                    block.text
                )
            }),
            "toml" if first == "# Cargo.toml" => "Cargo.toml",
            _ => continue,
        };
        files.entry(file.to_string()).or_default().push_str(&block.text);
    }
    files
}

/// The parameters the tutorial's conformance test passes (`r#"..."#`).
fn tested_params(test: &str) -> &str {
    let start = test.find("r#\"").expect("the tutorial's test passes parameters as r#\"...\"#") + 3;
    let len = test[start..].find("\"#").expect("a closed raw string");
    &test[start..start + len]
}

fn cargo(dir: &Path, args: &[&str]) {
    let target = build_dir().parent().expect("ptc-test-build/<profile> has a parent").to_path_buf();
    let out = std::process::Command::new(env!("CARGO"))
        .args(args)
        .args(["--offline", "--quiet", "--target-dir"])
        .arg(&target)
        .current_dir(dir)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {} of the tutorial's crate failed ({TUTORIAL} no longer builds):\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_tutorial_builds_and_passes_every_conformance_case() {
    let markdown = std::fs::read_to_string(root().join(TUTORIAL)).unwrap();
    let files = tutorial_files(&markdown);
    for required in ["Cargo.toml", "src/lib.rs", "tests/conformance.rs"] {
        assert!(files.contains_key(required), "{TUTORIAL} has no `{required}` block: {:?}", files.keys());
    }
    let dir = scratch_dir("tutorial").join("my-strategy");
    for (path, text) in &files {
        let text = match path.as_str() {
            // Outside the workspace, on the SDK of this checkout and its lock file.
            "Cargo.toml" => text.replace("/path/to/ptc", root().to_str().unwrap()) + "\n[workspace]\n",
            _ => text.clone(),
        };
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    // The conformance README's snippet for a plugin's own `cargo test` is
    // compiled with the crate (built, not run: it names a plugin of its own).
    let readme = std::fs::read_to_string(root().join(CONFORMANCE_README)).unwrap();
    let snippets: Vec<String> =
        fenced_blocks(&readme).into_iter().filter(|b| b.lang == "rust").map(|b| b.text).collect();
    assert!(!snippets.is_empty(), "{CONFORMANCE_README} shows how to run the suite from `cargo test`");
    for (i, snippet) in snippets.iter().enumerate() {
        std::fs::write(dir.join(format!("tests/conformance_readme_{i}.rs")), snippet).unwrap();
    }
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    progress(&format!("tutorial: building the crate of {TUTORIAL} in {} ...", dir.display()));
    let started = std::time::Instant::now();
    cargo(&dir, &["build", "--all-targets"]);
    progress(&format!("tutorial: built in {:.1} s", started.elapsed().as_secs_f64()));

    let lib = build_dir().join(format!(
        "{}ptc_strategy_my_strategy{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(lib.is_file(), "the tutorial's cdylib is at {}", lib.display());
    let params = tested_params(&files["tests/conformance.rs"]);
    let report = conformance_report(&lib, params, &Limits::default());
    let failed: Vec<String> = report
        .cases
        .iter()
        .filter(|c| c.status == Status::Fail)
        .map(|c| format!("{}: {}", c.case.id, c.reason))
        .collect();
    assert!(failed.is_empty(), "the tutorial's strategy fails:\n{}\n\n{}", failed.join("\n"), report.text());
}

#[test]
fn blocks_name_their_files_and_concatenate_in_order() {
    let md = "text\n```toml\n# Cargo.toml\n[package]\n```\n```toml\n[strategy.x]\n```\n```rust\n// src/lib.rs\nfn a() {}\n```\n```sh\ncargo build\n```\n```rust\n// src/lib.rs\nfn b() {}\n```\n";
    let files = tutorial_files(md);
    assert_eq!(files.keys().collect::<Vec<_>>(), ["Cargo.toml", "src/lib.rs"]);
    assert_eq!(files["src/lib.rs"], "// src/lib.rs\nfn a() {}\n// src/lib.rs\nfn b() {}\n");
    assert_eq!(tested_params("assert_conforms(&lib, r#\"{\"a\": 1}\"#);"), "{\"a\": 1}");
}
