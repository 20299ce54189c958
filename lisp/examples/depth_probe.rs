//! Prints how deep a simple recursion can go within the evaluator's native
//! stack budget, and how long the benchmark programs take (a quick local
//! check; the real comparison lives in bench/lisp-compare).

use ptc_lisp::*;
use std::time::Instant;

fn main() {
    let limits = Limits { max_depth: 1_000_000, ..Limits::default() };
    let (mut lo, mut hi) = (1usize, 100_000usize);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let src = format!("(defn f [n] (if (zero? n) 0 (inc (f (dec n))))) (f {mid})");
        let out = run_program(&src, &Memory::new(), &Default::default(), &mut NoTools, &limits);
        if out.result.is_ok() {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    println!("max recursion depth within the stack budget: {lo}");
    for src in
        ["(+ 1 (* 2 3) (- 10 4) (* (+ 1 1) 5))", "(reduce + 0 (map (fn [x] (* x x)) (filter odd? (range 0 40))))"]
    {
        let n = 20_000;
        let start = Instant::now();
        for _ in 0..n {
            let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
            assert!(out.result.is_ok());
        }
        println!("{:>8.2} µs  {src}", start.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
}
