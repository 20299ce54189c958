use ptc_lisp::*;

fn run(src: &str) -> String {
    let out = run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &Limits::default());
    match out.result {
        Ok(Exit::Value(v)) => v.to_string(),
        Ok(Exit::Return(v)) => format!("return {v}"),
        Ok(Exit::Fail(v)) => format!("fail {v}"),
        Err(e) => format!("ERR {e}"),
    }
}

#[test]
fn smoke() {
    for (src, want) in [
        ("(+ 1 2)", "3"),
        ("(reduce + 0 (map (fn [x] (* x x)) (filter odd? (range 0 40))))", "10660"),
        ("(let [[a b & r] [1 2 3 4] {:keys [x] :or {x 9}} {}] [a b r x])", "[1 2 (3 4) 9]"),
        ("(defn f [n] (if (= n 0) 1 (* n (f (dec n))))) (f 10)", "3628800"),
        ("(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc i)) acc))", "[0 1 2]"),
        ("(for [x [1 2 3] :when (odd? x) y [:a :b]] [x y])", "([1 :a] [1 :b] [3 :a] [3 :b])"),
        ("(-> {:a 1} (assoc :b 2) (update :a inc))", "{:a 2 :b 2}"),
        ("(->> [1 2 3] (map inc) (reduce +))", "9"),
        ("(#(+ %1 %2) 3 4)", "7"),
        ("(str/join \", \" [1 2 3])", "\"1, 2, 3\""),
        ("(filter (where :a > 1) [{:a 1} {:a 2}])", "({:a 2})"),
        ("(case 2 1 :one 2 :two :other)", ":two"),
        ("(cond (> 1 2) :a :else :b)", ":b"),
        ("(loop [] (recur))", "ERR"),
        ("(defn g [] (g)) (g)", "ERR"),
        ("(foo 1)", "ERR"),
        ("(re-find #\"(\\d+)-(\\d+)\" \"ab 12-34\")", "[\"12-34\" \"12\" \"34\"]"),
        ("(/ 10 4)", "2.5"),
        ("(/ 10 5)", "2"),
        ("(return 5)", "return 5"),
        ("(def x 5) (+ x 1)", "6"),
        ("(sort-by :a > [{:a 1} {:a 3} {:a 2}])", "({:a 3} {:a 2} {:a 1})"),
        ("(if-let [x nil] 1 2)", "2"),
        ("(when-let [[a] [5]] a)", "5"),
        ("((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) 5)", "120"),
        ("(let [f (fn [x] (fn [y] (+ x y)))] ((f 1) 2))", "3"),
    ] {
        let got = run(src);
        assert!(got == want || (want == "ERR" && got.starts_with("ERR")), "{src}\n want {want}\n got {got}");
        println!("{src} => {got}");
    }
}
