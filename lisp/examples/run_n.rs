//! Runs one program many times (for `perf stat`): `run_n N 'program'`.

use ptc_lisp::*;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let src = args.next().unwrap_or_else(|| "(+ 1 2)".to_string());
    let limits = Limits::default();
    for _ in 0..n {
        let out = run_program(&src, &Memory::new(), &Default::default(), &mut NoTools, &limits);
        assert!(out.result.is_ok(), "{:?}", out.result);
    }
}
