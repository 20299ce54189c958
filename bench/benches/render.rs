//! Render cost: through the dylib versus linked in-process (the ABI's
//! overhead), and on huge memory values versus small ones (cost must follow
//! what is shown, not what is held).

use criterion::{criterion_group, criterion_main, Criterion};
use ptc_bench::session;
use ptc_integration_tests::library;
use ptc_plugin_api::{Params, Strategy};
use ptc_registry::Registry;
use ptc_strategy_single_user_coalesced::SingleUserCoalesced;
use std::hint::black_box;

fn dylib_vs_in_process(c: &mut Criterion) {
    let req = session(20, false);
    let in_process = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", "{}").unwrap()).unwrap();
    let registry = Registry::discover(&[library("ptc_strategy_single_user_coalesced")]);
    let dylib = registry.build("bench", "single-user-coalesced", "{}").unwrap();
    assert_eq!(
        in_process.render(&req).unwrap(),
        dylib.render(&req).unwrap().into_rendered(),
        "same strategy, same output"
    );
    let mut group = c.benchmark_group("suc_20_turns");
    group.bench_function("in_process", |b| b.iter(|| in_process.render(black_box(&req)).unwrap()));
    group.bench_function("dylib", |b| b.iter(|| dylib.render(black_box(&req)).unwrap()));
    group.finish();
}

fn huge_values(c: &mut Criterion) {
    let small = session(49, false);
    let big = session(49, true);
    let suc = SingleUserCoalesced::new(Params::from_json("single-user-coalesced", "{}").unwrap()).unwrap();
    let mut group = c.benchmark_group("suc_turn_50");
    group.bench_function("small_values", |b| b.iter(|| suc.render(black_box(&small)).unwrap()));
    group.bench_function("1M_vector_5MB_string", |b| b.iter(|| suc.render(black_box(&big)).unwrap()));
    group.finish();
}

criterion_group!(benches, dylib_vs_in_process, huge_values);
criterion_main!(benches);
