//! What process isolation costs a run, side by side in one run: every turn
//! of a 20-turn run rendered by single-user-coalesced loaded in-process (the
//! dylib) and by the same plugin isolated in a `ptc render-child` process
//! (each request crossing as an append of its new turn, the prompt coming
//! back with its blocks); plus what starting an isolated instance costs
//! (spawn, load, build, first answer, shutdown), once per run.

use criterion::{criterion_group, criterion_main, Criterion};
use ptc_bench::session;
use ptc_integration_tests::{build_dir, cargo_build, library};
use ptc_registry::isolate::{ChildCommand, Limits};
use ptc_registry::Registry;
use std::hint::black_box;

fn per_turn(c: &mut Criterion) {
    cargo_build(&["-p", "ptc-host", "--bin", "ptc"]);
    let ptc = build_dir().join(format!("ptc{}", std::env::consts::EXE_SUFFIX));
    let child = ChildCommand::new(&ptc, [ptc_host::resolve::RENDER_CHILD]);
    let file = library("ptc_strategy_single_user_coalesced");
    let registry = Registry::discover(std::slice::from_ref(&file));
    let in_process = registry.build("bench", "single-user-coalesced", "{}").unwrap();
    let isolated = registry.build_isolated("bench", "single-user-coalesced", "{}", &child, &Limits::default()).unwrap();
    // The requests of turns 1 to 20 of one run.
    let full = session(19, false);
    let run: Vec<_> = (0..=19)
        .map(|k| {
            let mut r = full.clone();
            r.truncate_turns(k);
            r
        })
        .collect();
    for request in &run {
        assert_eq!(isolated.render(request).unwrap(), in_process.render(request).unwrap(), "same plugin, same prompt");
    }
    let mut group = c.benchmark_group("run_of_20_turns");
    group.bench_function("in_process", |b| {
        b.iter(|| run.iter().map(|r| in_process.render(black_box(r)).unwrap().messages().len()).sum::<usize>())
    });
    group.bench_function("isolated", |b| {
        b.iter(|| run.iter().map(|r| isolated.render(black_box(r)).unwrap().messages().len()).sum::<usize>())
    });
    group.finish();

    let mut group = c.benchmark_group("isolated_instance");
    group.sample_size(20);
    group.bench_function("start_and_stop", |b| {
        b.iter(|| {
            let fresh = registry.build_isolated("bench", "single-user-coalesced", "{}", &child, &Limits::default());
            fresh.unwrap().start().unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, per_turn);
criterion_main!(benches);
