//! The programs both the criterion benchmark and `examples/run_one.rs`
//! (callgrind) run, so the two measurements always time the same code.
//! steel runs `ARITH_LISP` as it is (its syntax is the same).

/// `(+ 1 (* 2 3) (- 10 4) (* (+ 1 1) 5))` in PTC-Lisp and steel.
pub const ARITH_LISP: &str = "(+ 1 (* 2 3) (- 10 4) (* (+ 1 1) 5))";
/// The same arithmetic in rhai.
pub const ARITH_RHAI: &str = "1 + (2 * 3) + (10 - 4) + ((1 + 1) * 5)";
/// Sum of the squares of the odd numbers below 40, in PTC-Lisp.
pub const PIPELINE_LISP: &str = "(reduce + 0 (map (fn [x] (* x x)) (filter odd? (range 0 40))))";
/// The same pipeline in rhai.
pub const PIPELINE_RHAI: &str = "let a = []; for x in 0..40 { a.push(x); } \
                                 a.filter(|x| x % 2 == 1).map(|x| x * x).reduce(|sum, x| sum + x, 0)";
/// The same pipeline in steel (`lambda`, `foldl`).
pub const PIPELINE_STEEL: &str = "(foldl + 0 (map (lambda (x) (* x x)) (filter odd? (range 0 40))))";
