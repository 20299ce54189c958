//! ptc without MCP: `cargo build -p ptc-host --no-default-features` (the
//! `mcp` feature off) compiles, and leaves rmcp, tokio and reqwest out of
//! the build. CI builds both variants through this test.

use std::collections::BTreeSet;

/// What only the MCP client pulls in.
const MCP_ONLY: &[&str] = &["rmcp", "tokio", "reqwest"];

/// The packages in ptc-host's normal dependency tree, with `args`.
fn tree(args: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["tree", "-p", "ptc-host", "-e", "normal", "--prefix", "none"])
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect()
}

#[test]
fn ptc_builds_without_mcp_and_then_has_no_tokio() {
    ptc_conformance::harness::cargo_build(&["-p", "ptc-host", "--no-default-features"]);
    let (with, without) = (tree(&[]), tree(&["--no-default-features"]));
    for heavy in MCP_ONLY {
        assert!(with.contains(*heavy), "the default build should have {heavy} (through ptc-mcp)");
        assert!(!without.contains(*heavy), "without the mcp feature ptc-host still depends on {heavy}");
    }
    eprintln!("ptc-host packages: {} with mcp, {} without", with.len(), without.len());
}
