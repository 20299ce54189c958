//! `pmap` over a command tool that sleeps 100 ms: eight calls through
//! `pmap` against the same eight through `map` (one after another) and a
//! single call. With the default `max_parallel_tool_calls` (8) the `pmap`
//! row should take about one call's time.

use criterion::{criterion_group, criterion_main, Criterion};
use ptc_host::config::{Location, ToolConfig};
use ptc_host::tools::{Tool, Tools};
use ptc_lisp::{run_program, Limits, Memory};
use std::path::PathBuf;
use std::time::Duration;

fn slow_tool() -> Tools {
    let slow = ToolConfig {
        name: "slow".into(),
        command: ["sh", "-c", "sleep 0.1; cat"].iter().map(|s| s.to_string()).collect(),
        signature: None,
        description: None,
        timeout_ms: 10_000,
        cache: false,
        dir: PathBuf::from("."),
        location: Location { file: PathBuf::from("bench"), line: 1, column: 1 },
    };
    Tools::new(vec![Tool::Command(slow)])
}

fn parallel_calls(c: &mut Criterion) {
    let limits = Limits { timeout: Duration::from_secs(60), ..Limits::default() };
    let mut tools = slow_tool();
    let mut group = c.benchmark_group("slow_tool_100ms");
    group.sample_size(10);
    for (name, src) in [
        ("one_call", "(tool/slow {:i 0})"),
        ("pmap_8_calls", "(pmap #(tool/slow {:i %}) (range 8))"),
        ("map_8_calls", "(map #(tool/slow {:i %}) (range 8))"),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let out = run_program(src, &Memory::new(), &Default::default(), &mut tools, &limits);
                assert!(out.result.is_ok(), "{name}: {:?}", out.result);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parallel_calls);
criterion_main!(benches);
