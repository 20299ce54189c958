//! Runs one engine on one program N times, for instruction counting under
//! callgrind (load-independent): `run_one ptc|rhai|steel arith|pipeline|new N`.

use lisp_compare::{ARITH_LISP, ARITH_RHAI, PIPELINE_LISP, PIPELINE_RHAI, PIPELINE_STEEL};
use ptc_lisp::{run_program, Limits, Memory, NoTools};

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
