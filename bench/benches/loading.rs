//! `ptc strategies` wall time: a fresh process that reads the config,
//! loads every plugin in the folder and builds each instance.

use criterion::{criterion_group, criterion_main, Criterion};
use ptc_integration_tests::{cargo_build, plugin_dir};
use std::process::Command;

fn strategies_command(c: &mut Criterion) {
    let dir = plugin_dir();
    let ptc = dir.join(format!("ptc{}", std::env::consts::EXE_SUFFIX));
    cargo_build(&["-p", "ptc-host"]);
    let config = std::env::temp_dir().join("ptc-bench-strategies.toml");
    std::fs::write(&config, format!("[plugins]\npaths = [{:?}]\n", dir.display().to_string())).unwrap();
    let plugins = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| ptc_registry::is_plugin_file_name(&e.as_ref().unwrap().path()))
        .count();
    let mut group = c.benchmark_group("ptc_strategies");
    group.sample_size(20);
    group.bench_function(format!("{plugins}_plugins"), |b| {
        b.iter(|| {
            let out = Command::new(&ptc).args(["strategies", "--config"]).arg(&config).output().unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        })
    });
    group.finish();
}

criterion_group!(benches, strategies_command);
criterion_main!(benches);
