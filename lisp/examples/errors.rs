//! Prints the error each common mistake produces (to eyeball message quality).

use ptc_lisp::*;

fn main() {
    for src in [
        "(map :name data/users",
        "(get-in {:a 1} [:a :b)",
        "(count 5)",
        "(nth [1] 5)",
        "(:a)",
        "(def count 1)",
        "(loop [i 0] (recur))",
        "(1 2)",
        "(let [x] x)",
        "(fn x)",
        "(filter odd? (range 3) 4 5)",
        "(reduce + (map inc [1 \"a\"]))",
        "(defn f [x] (* x y)) (f 1)",
        "(str/jion [1 2])",
        "(swap! a inc)",
        "(foo/bar 1)",
        "(tool/search)",
        "(/ 1 0)",
        "(Integer/parseInt \"1\")",
        "(if)",
        "(case 3 1 :a)",
        "(+ 9223372036854775807 1)",
        "(recur 1)",
        "(do (recur 1) 2)",
        "{:a 1 :b}",
        "(println \"unterminated)",
    ] {
        let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
        match out.result {
            Err(e) => println!("{src:<40} => {e}"),
            Ok(v) => println!("{src:<40} => ok {v:?}"),
        }
    }
}
