//! Fresh-process wall times, side by side in one run: `ptc strategies`
//! (read the config, load every plugin in the folder, build each instance)
//! and `ptc render` of a corpus session's next turn (the same, plus reading
//! the session, rendering it and counting the prompt's tokens). The ratio
//! render / strategies is what the tokenizer's start-up costs a script that
//! calls `ptc render` once per turn.

use criterion::{criterion_group, criterion_main, Criterion};
use ptc_integration_tests::{cargo_build, plugin_dir, root};
use std::process::Command;

fn fresh_processes(c: &mut Criterion) {
    let dir = plugin_dir();
    let ptc = dir.join(format!("ptc{}", std::env::consts::EXE_SUFFIX));
    cargo_build(&["-p", "ptc-host"]);
    let config = std::env::temp_dir().join("ptc-bench-strategies.toml");
    std::fs::write(&config, format!("[plugins]\npaths = [{:?}]\n", dir.display().to_string())).unwrap();
    let plugins = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| ptc_registry::is_plugin_file_name(&e.as_ref().unwrap().path()))
        .count();
    let session = root().join("tests/sessions/mixed-realistic.json");
    let run = |args: &[&str]| {
        let out = Command::new(&ptc).args(args).arg("--config").arg(&config).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    let mut group = c.benchmark_group("ptc_fresh_process");
    group.sample_size(30);
    group.bench_function(format!("strategies_{plugins}_plugins"), |b| b.iter(|| run(&["strategies"])));
    let render = ["render", "--strategy", "single-user-coalesced", "--session", session.to_str().unwrap()];
    group.bench_function("render_next_turn", |b| b.iter(|| run(&render)));
    group.finish();
}

criterion_group!(benches, fresh_processes);
criterion_main!(benches);
