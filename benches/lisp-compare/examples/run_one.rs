//! Runs one engine on one program N times, for instruction counting under
//! callgrind (load-independent): `run_one ptc|rhai|steel arith|pipeline|new N`.

use ptc_lisp::{run_program, Limits, Memory, NoTools};

const ARITH_LISP: &str = "(+ 1 (* 2 3) (- 10 4) (* (+ 1 1) 5))";
const ARITH_RHAI: &str = "1 + (2 * 3) + (10 - 4) + ((1 + 1) * 5)";
const PIPELINE_LISP: &str = "(reduce + 0 (map (fn [x] (* x x)) (filter odd? (range 0 40))))";
const PIPELINE_RHAI: &str = "let a = []; for x in 0..40 { a.push(x); } \
                             a.filter(|x| x % 2 == 1).map(|x| x * x).reduce(|sum, x| sum + x, 0)";
const PIPELINE_STEEL: &str = "(foldl + 0 (map (lambda (x) (* x x)) (filter odd? (range 0 40))))";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[3].parse().unwrap();
    match (args[1].as_str(), args[2].as_str()) {
        ("ptc", "new") => {
            for _ in 0..n {
                run_program("", &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
            }
        }
        ("ptc", which) => {
            let src = if which == "arith" { ARITH_LISP } else { PIPELINE_LISP };
            for _ in 0..n {
                let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
                assert!(out.result.is_ok());
            }
        }
        ("rhai", "new") => {
            for _ in 0..n {
                std::hint::black_box(rhai::Engine::new());
            }
        }
        ("rhai", which) => {
            let engine = rhai::Engine::new();
            let src = if which == "arith" { ARITH_RHAI } else { PIPELINE_RHAI };
            for _ in 0..n {
                engine.eval::<i64>(src).unwrap();
            }
        }
        ("steel", "new") => {
            for _ in 0..n {
                std::hint::black_box(steel::steel_vm::engine::Engine::new());
            }
        }
        ("steel", which) => {
            let mut engine = steel::steel_vm::engine::Engine::new();
            let src = if which == "arith" { ARITH_LISP } else { PIPELINE_STEEL };
            for _ in 0..n {
                engine.run(src.to_string()).unwrap();
            }
        }
        other => panic!("unknown {other:?}"),
    }
}
