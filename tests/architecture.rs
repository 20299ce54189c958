//! ARCHITECTURE.md's rules, checked on every test run so that the document
//! cannot drift from the code:
//!
//! - every crate depends only on the crates its "Must not depend on" entry
//!   allows ([`ALLOWED`], [`FORBIDDEN_OUTSIDE`]); nothing shipped depends on
//!   a `publish = false` crate; nothing but tools depends on `ptc-host`;
//! - no module of a crate imports another that imports it back (a parent
//!   and its own submodules excepted: `mod` nests them), except lisp's
//!   documented interpreter core ([`LISP_CORE`]);
//! - no crate's `src` is over [`MAX_LINES`] lines, lisp excepted.
//!
//! The dependency rules are read from `cargo metadata`, the imports from
//! every `crate::`, `super::` and `self::` path in each file's code (its
//! `#[cfg(test)]` module and comments left out).

use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Per crate: the workspace crates it may depend on (normal dependencies).
/// A workspace crate missing here may depend on anything but
/// [`TOOLS_ONLY`].
const ALLOWED: &[(&str, &[&str])] = &[
    ("ptc-print", &[]),
    ("ptc-os", &[]),
    ("ptc-signature", &[]),
    ("ptc-plugin-api", &["ptc-print", "ptc-signature"]),
    ("ptc-lisp", &["ptc-print"]),
    ("ptc-tokens", &["ptc-plugin-api"]),
    ("ptc-registry", &["ptc-plugin-api"]),
    ("ptc-session", &["ptc-plugin-api", "ptc-lisp", "ptc-os"]),
    ("ptc-cost", &["ptc-plugin-api", "ptc-tokens"]),
    ("ptc-conformance", &["ptc-plugin-api", "ptc-registry", "ptc-session", "ptc-tokens", "ptc-cost"]),
    ("ptc-mcp", &["ptc-signature", "ptc-os"]),
    ("ptc-llm", &["ptc-plugin-api", "ptc-cost", "ptc-os"]),
    ("ptc-suite", &["ptc-lisp", "ptc-tokens", "ptc-cost", "ptc-os"]),
    (
        "ptc-agent",
        &[
            "ptc-plugin-api",
            "ptc-lisp",
            "ptc-signature",
            "ptc-mcp",
            "ptc-registry",
            "ptc-session",
            "ptc-tokens",
            "ptc-cost",
            "ptc-llm",
            "ptc-os",
        ],
    ),
    ("ptc-compare", &["ptc-plugin-api", "ptc-session", "ptc-tokens", "ptc-cost", "ptc-agent"]),
    ("ptc-strategy-single-user-coalesced", &["ptc-plugin-api"]),
    ("ptc-strategy-rolling-window", &["ptc-plugin-api"]),
    ("ptc-strategy-per-turn-summary", &["ptc-plugin-api"]),
    ("ptc-strategy-aggressive", &["ptc-plugin-api"]),
    ("ptc-example-keep-last-turns", &["ptc-plugin-api"]),
];

/// Per crate: outside crates it must not depend on, and why.
const FORBIDDEN_OUTSIDE: &[(&str, &str, &str)] = &[
    ("ptc-print", "*", "ptc-print has no dependencies at all"),
    ("ptc-signature", "*", "ptc-signature has no dependencies at all"),
    ("ptc-tokens", "regex", "ptc-tokens compiles its pre-tokenizer at build time"),
    ("ptc-agent", "toml", "config files are the host's"),
    ("ptc-agent", "clap", "subcommands are the host's"),
    ("ptc-agent", "tokio", "tokio stays inside ptc-mcp"),
    ("ptc-llm", "tokio", "tokio stays inside ptc-mcp"),
    ("ptc-host", "tokio", "tokio stays inside ptc-mcp"),
    ("ptc-compare", "toml", "config files are the host's"),
    ("ptc-compare", "clap", "subcommands are the host's"),
    ("ptc-compare", "tokio", "tokio stays inside ptc-mcp"),
    ("ptc-suite", "tokio", "the bench's pool is std threads"),
];

/// Crates only tools (benchmarks, fuzzing, tests) may depend on.
const TOOLS_ONLY: &[&str] = &["ptc-host"];

/// lisp's interpreter core: one module cycle by nature (ARCHITECTURE.md,
/// `lisp/`): a function value holds analyzed code whose constants are
/// values, and a builtin's function pointer takes the interpreter.
/// The modules the core's values and forms reach back into (collections,
/// printing, patterns, recording) belong to the same knot.
const LISP_CORE: &[&str] = &[
    "value", "eval", "interp", "builtins", "analyze", "coll", "walk", "memory", "form", "last_use", "pattern", "print",
    "record", "special",
];

/// Cycles tolerated for now, in crates owned elsewhere: each a debt to
/// break, listed so that no new one slips in. None today (the four found
/// when this test was written are broken). Remove an entry when its cycle
/// is gone (the test says so).
const KNOWN_CYCLES: &[(&str, &[&str])] = &[];

/// About 5k lines: past that a crate usually holds two jobs.
const MAX_LINES: usize = 5_500;

/// One workspace package, as `cargo metadata` describes it.
struct Package {
    name: String,
    publish: bool,
    /// Normal (not dev, not build) dependencies.
    deps: Vec<String>,
    /// `src/` of its library, if it has one.
    src: Option<PathBuf>,
}

fn packages() -> Vec<Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the workspace root");
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: Json = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let list = meta["packages"].as_array().expect("packages");
    list.iter()
        .map(|p| {
            let deps = p["dependencies"].as_array().expect("dependencies");
            let lib = p["targets"].as_array().expect("targets").iter().find(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| matches!(k.as_str(), Some("lib" | "cdylib" | "rlib"))))
            });
            Package {
                name: p["name"].as_str().expect("name").to_string(),
                // `publish = false` is an empty list of registries.
                publish: !p["publish"].as_array().is_some_and(Vec::is_empty),
                deps: deps
                    .iter()
                    .filter(|d| d["kind"].is_null())
                    .map(|d| d["name"].as_str().expect("dependency name").to_string())
                    .collect(),
                src: lib.map(|t| {
                    let path = PathBuf::from(t["src_path"].as_str().expect("src_path"));
                    path.parent().expect("a library file sits in a folder").to_path_buf()
                }),
            }
        })
        .collect()
}

#[test]
fn crates_depend_only_on_what_architecture_md_allows() {
    let packages = packages();
    let workspace: BTreeSet<&str> = packages.iter().map(|p| p.name.as_str()).collect();
    let private: BTreeSet<&str> = packages.iter().filter(|p| !p.publish).map(|p| p.name.as_str()).collect();
    let mut broken = Vec::new();
    for (name, _) in ALLOWED {
        assert!(workspace.contains(name), "ALLOWED names `{name}`, which is not a workspace crate");
    }
    for p in &packages {
        let allowed = ALLOWED.iter().find(|(n, _)| *n == p.name).map(|(_, a)| *a);
        for dep in &p.deps {
            let own = workspace.contains(dep.as_str());
            if let Some(allowed) = allowed.filter(|_| own) {
                if !allowed.contains(&dep.as_str()) {
                    broken.push(format!("{} depends on {dep}; ARCHITECTURE.md allows only {allowed:?}", p.name));
                }
            }
            if TOOLS_ONLY.contains(&dep.as_str()) && p.publish {
                broken.push(format!("{} depends on {dep}, which only tools (publish = false) may use", p.name));
            }
            if private.contains(dep.as_str()) && p.publish {
                broken.push(format!("{} is shipped but depends on {dep} (publish = false)", p.name));
            }
            for (krate, outside, why) in FORBIDDEN_OUTSIDE {
                if *krate == p.name && (*outside == dep || (*outside == "*" && !own)) {
                    broken.push(format!("{} depends on {dep}: {why}", p.name));
                }
            }
        }
    }
    assert!(broken.is_empty(), "dependency rules broken:\n{}", broken.join("\n"));
}

/// The module path of a file under `src` (`run`, `config::contract`; empty for the root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("the file is under src");
    let mut parts: Vec<String> = relative.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "lib" | "main" | "mod") {
        parts.push(stem.to_string());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable src folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its unit tests
/// (`#[cfg(test)]` modules, `tests.rs` files).
fn code_of(file: &Path) -> String {
    if file.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(file).expect("a readable source file");
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The paths after `crate::`, `super::` and `self::` in `code`, as module
/// paths resolved against `module` (whatever follows the last module is
/// an item and cut later).
fn paths_in(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (start, prefix) in ["crate::", "super::", "self::"].iter().flat_map(|p| code.match_indices(p)) {
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut base: Vec<String> = match prefix {
            "crate::" => Vec::new(),
            "super::" => module[..module.len().saturating_sub(1)].to_vec(),
            _ => module.to_vec(),
        };
        let rest = &code[start + prefix.len()..];
        let path: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        base.extend(path.split("::").filter(|s| !s.is_empty()).map(str::to_string));
        // `use crate::{a, b::c}`: each branch of a brace group.
        if (path.is_empty() || path.ends_with("::")) && rest[path.len()..].starts_with('{') {
            let group: String = rest[path.len() + 1..].chars().take_while(|&c| c != '}').collect();
            for branch in group.split(',') {
                let mut one = base.clone();
                one.extend(branch.trim().split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()));
                found.push(one);
            }
        } else {
            found.push(base);
        }
    }
    found
}

/// Module-level import edges of the crate in `src`: from a module to the
/// deepest module a path names, parents and their own submodules left out.
fn import_edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        for path in paths_in(&code_of(file), &from) {
            let to =
                (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p)).unwrap_or_default();
            let nested = to.starts_with(&from) || from.starts_with(&to);
            if !nested {
                edges.entry(from.join("::")).or_default().insert(to.join("::"));
            }
        }
    }
    edges
}

/// The cycles of `edges`: each strongly connected set of two or more modules.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|m| (m, reach(m))).collect();
    let mut found: Vec<BTreeSet<String>> = Vec::new();
    for (m, from_m) in &reaches {
        let set: BTreeSet<String> = from_m
            .iter()
            .filter(|n| reaches.get(n).is_some_and(|r| r.contains(*m)))
            .cloned()
            .chain(std::iter::once((*m).clone()))
            .collect();
        if set.len() > 1 && !found.contains(&set) {
            found.push(set);
        }
    }
    found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut broken = Vec::new();
    let mut known_seen = Vec::new();
    for p in packages() {
        let Some(src) = &p.src else { continue };
        for cycle in cycles(&import_edges(src)) {
            let core = |m: &String| LISP_CORE.contains(&m.split("::").next().unwrap_or(""));
            if p.name == "ptc-lisp" && cycle.iter().all(core) {
                continue;
            }
            let members: Vec<&str> = cycle.iter().map(String::as_str).collect();
            if let Some(known) = KNOWN_CYCLES.iter().find(|(k, m)| *k == p.name && *m == members.as_slice()) {
                known_seen.push(known);
                continue;
            }
            broken.push(format!("{}: {}", p.name, members.join(" ⇄ ")));
        }
    }
    assert!(broken.is_empty(), "module import cycles:\n{}", broken.join("\n"));
    for known in KNOWN_CYCLES {
        assert!(known_seen.contains(&known), "{known:?} is no cycle any more: remove it from KNOWN_CYCLES");
    }
}

#[test]
fn no_crate_is_over_about_5k_lines() {
    let mut broken = Vec::new();
    for p in packages().into_iter().filter(|p| p.name != "ptc-lisp") {
        let Some(src) = &p.src else { continue };
        let mut files = Vec::new();
        rust_files(src, &mut files);
        let lines: usize = files.iter().map(|f| std::fs::read_to_string(f).map_or(0, |t| t.lines().count())).sum();
        if lines > MAX_LINES {
            broken.push(format!("{}: {lines} lines in {}", p.name, src.display()));
        }
    }
    assert!(broken.is_empty(), "crates over {MAX_LINES} lines (split them):\n{}", broken.join("\n"));
}

#[test]
fn the_cycle_finder_finds_cycles_and_only_them() {
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")].iter().fold(BTreeMap::new(), |mut m, (f, t)| {
            m.entry(f.to_string()).or_insert_with(BTreeSet::new).insert(t.to_string());
            m
        });
    let found = cycles(&edges);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0], ["a", "b", "c"].iter().map(|s| s.to_string()).collect());
    let module = vec!["run".to_string()];
    let paths = paths_in("use crate::{nested::X, tools};\nlet x = super::y::z;", &module);
    assert_eq!(paths, [vec!["nested", "X"], vec!["tools"], vec!["y", "z"]]);
}
