//! Building collections in PTC-Lisp: loop/recur + `conj` and `assoc`
//! against the bulk builder `(reduce conj [] (range n))`, and changes to
//! collections that stay shared (every version kept).

use criterion::{criterion_group, criterion_main, Criterion};
use ptc_lisp::{run_program, Limits, Memory, NoTools};
use std::time::Duration;

const PROGRAMS: [(&str, &str); 6] = [
    ("reduce_conj_100k", "(count (reduce conj [] (range 100000)))"),
    ("loop_conj_100k", "(loop [i 0 acc []] (if (< i 100000) (recur (inc i) (conj acc i)) (count acc)))"),
    ("loop_assoc_100k", "(loop [i 0 m {}] (if (< i 100000) (recur (inc i) (assoc m i i)) (count m)))"),
    ("loop_sum_100k", "(loop [i 0 s 0] (if (< i 100000) (recur (inc i) (+ s i)) s))"),
    (
        "shared_conj_10k",
        "(loop [i 0 v [] all []] (if (< i 10000) (recur (inc i) (conj v i) (conj all v)) (count all)))",
    ),
    (
        "shared_assoc_10k",
        "(loop [i 0 m {} all []] (if (< i 10000) (recur (inc i) (assoc m i i) (conj all m)) (count all)))",
    ),
];

fn build(c: &mut Criterion) {
    let limits = Limits { timeout: Duration::from_secs(60), max_loop_iterations: 1_000_000, ..Limits::default() };
    let mut group = c.benchmark_group("collections");
    group.sample_size(20);
    for (name, src) in PROGRAMS {
        group.bench_function(name, |b| {
            b.iter(|| {
                let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &limits);
                assert!(out.result.is_ok(), "{name}: {:?}", out.result);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
