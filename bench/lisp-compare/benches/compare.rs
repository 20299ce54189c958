//! PTC-Lisp vs rhai vs steel: parse + evaluate from source on every
//! iteration, plus the cost of a fresh interpreter. Results: RESULTS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use lisp_compare::{ARITH_LISP, ARITH_RHAI, PIPELINE_LISP, PIPELINE_RHAI, PIPELINE_STEEL};
use ptc_lisp::{run_program, Exit, Limits, Memory, NoTools, Value};
use std::hint::black_box;

fn ptc(src: &str) -> i64 {
    let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
    match out.result {
        Ok(Exit::Value(Value::Int(i))) => i,
        other => panic!("{other:?}"),
    }
}

fn steel_int(engine: &mut steel::steel_vm::engine::Engine, src: &str) -> i64 {
    let vals = engine.run(src.to_string()).expect("steel program runs");
    match vals.last() {
        Some(steel::SteelVal::IntV(i)) => *i as i64,
        other => panic!("{other:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let rhai = rhai::Engine::new();
    let mut steel = steel::steel_vm::engine::Engine::new();
    assert_eq!(ptc(ARITH_LISP), 23);
    assert_eq!(rhai.eval::<i64>(ARITH_RHAI).unwrap(), 23);
    assert_eq!(steel_int(&mut steel, ARITH_LISP), 23);
    assert_eq!(ptc(PIPELINE_LISP), 10660);
    assert_eq!(rhai.eval::<i64>(PIPELINE_RHAI).unwrap(), 10660);
    assert_eq!(steel_int(&mut steel, PIPELINE_STEEL), 10660);

    let mut g = c.benchmark_group("arith");
    g.bench_function("ptc-lisp", |b| b.iter(|| ptc(black_box(ARITH_LISP))));
    g.bench_function("rhai", |b| b.iter(|| rhai.eval::<i64>(black_box(ARITH_RHAI)).unwrap()));
    g.bench_function("steel", |b| b.iter(|| steel_int(&mut steel, black_box(ARITH_LISP))));
    g.finish();

    let mut g = c.benchmark_group("pipeline");
    g.bench_function("ptc-lisp", |b| b.iter(|| ptc(black_box(PIPELINE_LISP))));
    g.bench_function("rhai", |b| b.iter(|| rhai.eval::<i64>(black_box(PIPELINE_RHAI)).unwrap()));
    g.bench_function("steel", |b| b.iter(|| steel_int(&mut steel, black_box(PIPELINE_STEEL))));
    g.finish();

    let mut g = c.benchmark_group("new-interpreter");
    g.bench_function("ptc-lisp", |b| {
        b.iter(|| run_program(black_box(""), &Memory::new(), &Default::default(), &mut NoTools, &Limits::default()))
    });
    g.bench_function("rhai", |b| b.iter(rhai::Engine::new));
    g.sample_size(10);
    g.bench_function("steel", |b| b.iter(steel::steel_vm::engine::Engine::new));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
