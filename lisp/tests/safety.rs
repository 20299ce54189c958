//! No input may panic or overflow the stack: hostile programs, random bytes
//! and random well-formed programs (a small seeded generator, no proptest).

mod common;
use common::Rng;
use ptc_lisp::*;
use std::time::Duration;

/// Generous time so a loaded CI machine still reports the limit under test;
/// fewer steps than the default so step-limit cases stay quick in debug builds.
fn limits() -> Limits {
    Limits { timeout: Duration::from_secs(10), max_steps: 2_000_000, ..Limits::default() }
}

/// For the random tests: each program gets little time.
fn quick() -> Limits {
    Limits { timeout: Duration::from_millis(100), ..Limits::default() }
}

fn run(src: &str) -> Outcome {
    run_program(src, &Memory::new(), &Default::default(), &mut NoTools, &limits())
}

fn kind(src: &str) -> ErrorKind {
    match run(src).result {
        Err(e) => e.kind,
        other => panic!("{src}: expected an error, got {other:?}"),
    }
}

/// Runs `f` on a thread with Rust's default 2 MiB stack (the documented minimum).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(2 << 20).spawn(f).unwrap().join().unwrap();
}

#[test]
fn hostile_programs_fail_with_named_errors() {
    assert_eq!(kind(&"(".repeat(100_000)), ErrorKind::Parse);
    assert_eq!(kind(&"[".repeat(100_000)), ErrorKind::Parse);
    assert_eq!(kind("(range 1000000000000)"), ErrorKind::SizeLimit);
    assert_eq!(kind("(loop [] (recur))"), ErrorKind::LoopLimit);
    assert_eq!(kind("(defn f [x] (f x)) (f 1)"), ErrorKind::DepthLimit);
    assert_eq!(kind("(defn f [x] (inc (f x))) (f 1)"), ErrorKind::DepthLimit);
    assert_eq!(kind("((fn f [x] (map f [x])) 1)"), ErrorKind::DepthLimit);
    assert_eq!(kind("(loop [s \"x\" i 0] (if (< i 64) (recur (str s s) (inc i)) s))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(reduce (fn [a _] [a]) [] (range 100000))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(loop [x nil i 0] (if (< i 5000) (recur (conj [] x) (inc i)) x))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(reduce (fn [a _] {:k a}) {} (range 5000))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(count (repeat 100000000 1))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(apply str (repeat 1000000 (apply str (repeat 100 \"x\"))))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(-> 1 (re-find #\"(a*)*b\"))"), ErrorKind::Type);
    assert_eq!(kind("(format \"%999999999d\" 1)"), ErrorKind::SizeLimit);
    assert_eq!(kind("(str/split (apply str (repeat 2000000 \"a\")) #\"\")"), ErrorKind::SizeLimit);
    assert_eq!(kind("(count (seq (apply str (repeat 2000000 \"a\"))))"), ErrorKind::SizeLimit);
    assert_eq!(kind("(doseq [x (range 100000) y (range 100000)] nil)"), ErrorKind::StepLimit);
    assert!(run("(re-find #\"(a*)*b\" (apply str (repeat 100000 \"a\")))").result.is_ok());
}

/// A vector of 61 distinct vectors that unfolds to 2^60 ones (and as many
/// `1`s): `(conj a a)` or `[x x]` share, they do not copy.
const BIG: &str = "(loop [x [1] i 0] (if (< i 60) (recur [x x] (inc i)) x))";

/// `body` with `big` bound to [`BIG`] (and `twin`, `other` to separately
/// built copies, one holding `2`s).
fn with_big(body: &str) -> String {
    format!("(let [big {BIG} twin {BIG} other {}] {body})", BIG.replace("[1]", "[2]"))
}

#[test]
fn shared_structure_that_unfolds_to_billions_stays_cheap() {
    // Every run has a 10 s timeout (`limits()`): unfolding the structure
    // would end in `timeout`, not in the kinds asserted here.
    assert_eq!(kind(&with_big("(count (str big))")), ErrorKind::SizeLimit);
    assert_eq!(kind(&with_big("(pr-str big)")), ErrorKind::SizeLimit);
    assert_eq!(kind(&with_big("(format \"%s\" big)")), ErrorKind::SizeLimit);
    // Nothing to keep, each visit counted: the step limit.
    let flat = kind(&with_big("(count (flatten big))"));
    assert!(matches!(flat, ErrorKind::SizeLimit | ErrorKind::StepLimit), "{flat:?}");
    let empty = "(loop [x [] i 0] (if (< i 60) (recur [x x] (inc i)) x))";
    assert_eq!(kind(&format!("(count (flatten {empty}))")), ErrorKind::StepLimit);
    for walk in ["(walk/postwalk identity big)", "(walk/keywordize-keys big)", "(walk/prewalk identity big)"] {
        assert_eq!(kind(&with_big(&format!("(count {walk})"))), ErrorKind::StepLimit, "{walk}");
    }
    let mut echo = |_: &str, args: serde_json::Value| -> Result<serde_json::Value, String> { Ok(args) };
    let out = run_program(&with_big("(tool/echo {:v big})"), &Memory::new(), &Default::default(), &mut echo, &limits());
    assert_eq!(out.result.unwrap_err().kind, ErrorKind::Type);
    // 300 values, one 10 MB string: 3 GB of JSON, refused before any is built.
    let shared = "(let [s (apply str (repeat 1000000 \"xxxxxxxxxx\"))] (tool/echo {:v (repeat 300 s)}))";
    let out = run_program(shared, &Memory::new(), &Default::default(), &mut echo, &limits());
    let e = out.result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Type);
    assert!(e.message.ends_with("more than 1000000 elements or 16 MiB of text to send as JSON"), "{e}");
    assert!(out.tool_calls.is_empty());
    let out = run(&with_big("[(count (set [big big])) (count (frequencies [big 1])) (get {big 1} big)]"));
    assert_eq!(out.result, Ok(Exit::Value(read_edn("[1 2 1]").unwrap())));
    let out = run(&with_big("(println big) (= big big) (count big)"));
    assert_eq!(out.prints[0].chars().count(), 2003);
    assert_eq!(out.result, Ok(Exit::Value(Value::Int(2))));
    // Two separately built copies share nothing with each other: equality,
    // `compare` and sorting still cost what their distinct vectors cost.
    let out = run(&with_big(
        "[(= big twin) (= big other) (compare big twin) (compare big other) (count (sort [twin big twin])) (= {:k big} {:k twin}) (count (distinct [big twin other]))]",
    ));
    assert_eq!(out.result, Ok(Exit::Value(read_edn("[true false 0 -1 3 true 2]").unwrap())));
}

#[test]
fn what_a_turn_records_as_text_fits_its_limits() {
    // The session records a turn's value, a returned value, a fail reason
    // and every definition as text, where each share prints in full: 2^60
    // `1`s would hang the recorder and fill the disk.
    for end in ["big", "(return big)", "(fail big)", "(return {:all [big]})"] {
        let e = run(&with_big(end)).result.unwrap_err();
        assert_eq!(e.kind, ErrorKind::SizeLimit, "{end}");
        assert!(e.message.contains("prints to more than 10485760 bytes"), "{end}: {e}");
        assert!(e.message.ends_with("end with a summary of it: a count, (take 5 ...), the keys"), "{end}: {e}");
    }
    let defined = format!("(def small 1) (def big {BIG}) (count big)");
    let out = run(&defined);
    let e = out.result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::MemoryLimit);
    assert!(e.message.contains("print to more than 10485760 bytes, `big` among them"), "{e}");
    // Rolled back, as any turn over the memory limit: `small` is not kept either.
    assert!(out.memory.get("small").is_none());
    // A program ending with the definition: the definition's limit, not the value's.
    assert_eq!(kind(&format!("(def big {BIG})")), ErrorKind::MemoryLimit);
    // Under the limits, as large as they let a value be: recorded whole.
    let limits = Limits { max_string_bytes: 1000, ..limits() };
    let sized = |n: usize| format!("(return (vec (repeat {n} 1)))");
    let fits = run_program(&sized(499), &Memory::new(), &Default::default(), &mut NoTools, &limits);
    assert!(matches!(&fits.result, Ok(Exit::Return(v)) if v.to_string().len() == 999), "{:?}", fits.result);
    let over = run_program(&sized(501), &Memory::new(), &Default::default(), &mut NoTools, &limits);
    assert_eq!(over.result.unwrap_err().kind, ErrorKind::SizeLimit);
}

#[test]
fn a_program_keeps_at_most_a_mebibyte_of_prints() {
    // 2,000 lines of 1,000 bytes: the lines up to 1 MiB, then one line that says the rest was dropped.
    let src = "(let [s (apply str (repeat 1000 \"x\"))] (dotimes [i 2000] (println s)) :done)";
    let out = run(src);
    assert_eq!(out.result, Ok(Exit::Value(Value::keyword("done"))));
    assert_eq!(out.prints.len(), MAX_PRINT_BYTES / 1000 + 1);
    assert_eq!(out.prints.last().map(String::as_str), Some(PRINTS_DROPPED));
    let kept: usize = out.prints.iter().map(String::len).sum();
    assert!(kept <= MAX_PRINT_BYTES + PRINTS_DROPPED.len(), "{kept}");
    // The same for the prints of parallel calls, merged in order.
    let src = "(let [s (apply str (repeat 1000 \"x\"))] (pmap (fn [i] (dotimes [j 400] (println i s)) i) (range 8)))";
    let out = run(src);
    assert_eq!(out.result, Ok(Exit::Value(read_edn("(0 1 2 3 4 5 6 7)").unwrap())));
    assert_eq!(out.prints.last().map(String::as_str), Some(PRINTS_DROPPED));
    assert!(out.prints[0].starts_with("0 xxx") && out.prints[400].starts_with("1 xxx"), "in call order");
    let kept: usize = out.prints.iter().map(String::len).sum();
    assert!(kept <= MAX_PRINT_BYTES + PRINTS_DROPPED.len(), "{kept}");
    // Under the bound nothing changes.
    assert_eq!(run("(dotimes [i 3] (println i))").prints, ["0", "1", "2"]);
}

#[test]
fn moderate_nesting_works_on_a_small_stack() {
    on_small_stack(|| {
        let src = format!("{}1{}", "(inc ".repeat(150), ")".repeat(150));
        assert_eq!(run(&src).result, Ok(Exit::Value(Value::Int(151))));
        let out = run("(defn f [n] (if (zero? n) 0 (inc (f (dec n))))) (f 200)");
        assert!(matches!(out.result, Ok(_) | Err(LispError { kind: ErrorKind::DepthLimit, .. })), "{:?}", out.result);
        let out = run("(defn f [n] (if (zero? n) 0 (inc (f (dec n))))) (f 100000)");
        assert_eq!(out.result.unwrap_err().kind, ErrorKind::DepthLimit);
        assert_eq!(run(&"(".repeat(100_000)).result.unwrap_err().kind, ErrorKind::Parse);
        // The deepest value a program may build still prints, compares and drops.
        let out = run("(let [x (loop [x 1 i 0] (if (< i 495) (recur [x] (inc i)) x))] (println x) (= x x) x)");
        let v = match out.result {
            Ok(Exit::Value(v)) => v,
            other => panic!("{other:?}"),
        };
        assert_eq!(read_edn(&v.to_string()).unwrap(), v);
        drop(v);
        // ... also at the deepest call depth the stack guard allows.
        let src = "(def v (loop [x 1 i 0] (if (< i 495) (recur [x] (inc i)) x)))
                   (defn f [n] (if (zero? n) (do (println v) (str v) (= v (read-back v)) 0) (inc (f (dec n)))))
                   (f 100000)";
        let src = src.replace("(read-back v)", "(first [v])");
        assert_eq!(run(&src).result.unwrap_err().kind, ErrorKind::DepthLimit);
        for n in [100, 150, 200, 250] {
            let _ = run(&src.replace("100000", &n.to_string()));
        }
        let out = run("(loop [x 1 i 0] (if (< i 600) (recur [x] (inc i)) x))");
        assert_eq!(out.result.unwrap_err().kind, ErrorKind::SizeLimit);
    });
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "#(",
    "#{",
    "#_",
    "'",
    "\\a",
    "\"s\"",
    "\"",
    "%",
    "%2",
    "&",
    ":k",
    "1",
    "-1",
    "1.5",
    "##NaN",
    "nil",
    "true",
    "recur",
    "loop",
    "fn",
    "let",
    "def",
    "defn",
    "x",
    "y",
    "if",
    "map",
    "+",
    "/",
    "str",
    "conj",
    "range",
    "99999999999",
    "#\"a+\"",
    ";c\n",
    " ",
    "\n",
    "tool/t",
    "data/d",
    "return",
    "for",
];

#[test]
fn random_bytes_and_token_soup_never_panic() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..3000 {
        let len = rng.below(60);
        let src: String = if rng.below(2) == 0 {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..len).map(|_| rng.pick(TOKENS)).collect::<Vec<_>>().join(" ")
        };
        let out =
            std::panic::catch_unwind(|| run_program(&src, &Memory::new(), &Default::default(), &mut NoTools, &quick()));
        assert!(out.is_ok(), "panicked on {src:?}");
    }
}

const FUNCS: &[&str] = &[
    "+",
    "-",
    "*",
    "/",
    "quot",
    "mod",
    "inc",
    "dec",
    "max",
    "min",
    "=",
    "<",
    "str",
    "count",
    "first",
    "rest",
    "conj",
    "cons",
    "concat",
    "into",
    "vec",
    "set",
    "reverse",
    "sort",
    "distinct",
    "flatten",
    "frequencies",
    "keys",
    "vals",
    "get",
    "assoc",
    "dissoc",
    "merge",
    "nth",
    "take",
    "drop",
    "range",
    "repeat",
    "subs",
    "str/join",
    "str/split",
    "str/upper-case",
    "pr-str",
    "println",
    "list",
    "vector",
    "hash-map",
    "zipmap",
    "interleave",
    "partition",
    "empty?",
    "nil?",
    "some?",
    "abs",
    "sqrt",
    "sum-by",
    "pluck",
    "union",
    "re-find",
    "format",
    "update",
];

fn gen_expr(rng: &mut Rng, depth: usize, out: &mut String) {
    if depth == 0 || rng.below(4) == 0 {
        let atom = match rng.below(12) {
            0 => rng.below(10).to_string(),
            1 => format!("{}.5", rng.below(5)),
            2 => "\"ab\"".into(),
            3 => ":k".into(),
            4 => "nil".into(),
            5 => "[1 2 3]".into(),
            6 => "{:k 1 :j 2}".into(),
            7 => "#{1 2}".into(),
            8 => "x".into(),
            9 => "(range 5)".into(),
            10 => "true".into(),
            _ => "-3".into(),
        };
        out.push_str(&atom);
        return;
    }
    out.push('(');
    match rng.below(10) {
        0 => {
            out.push_str("let [x ");
            gen_expr(rng, depth - 1, out);
            out.push_str("] ");
            gen_expr(rng, depth - 1, out);
        }
        1 => {
            out.push_str("if ");
            for _ in 0..3 {
                gen_expr(rng, depth - 1, out);
                out.push(' ');
            }
        }
        2 => {
            out.push_str(rng.pick(&["map", "filter", "remove", "keep", "sort-by", "group-by", "mapv", "some"]));
            out.push_str(" (fn [x] ");
            gen_expr(rng, depth - 1, out);
            out.push_str(") ");
            gen_expr(rng, depth - 1, out);
        }
        3 => {
            out.push_str("reduce (fn [x y] ");
            gen_expr(rng, depth - 1, out);
            out.push_str(") ");
            gen_expr(rng, depth - 1, out);
        }
        4 => {
            out.push_str("for [x ");
            gen_expr(rng, depth - 1, out);
            out.push_str("] ");
            gen_expr(rng, depth - 1, out);
        }
        5 => {
            out.push_str("loop [x 0] (if (< x 3) (recur (inc x)) ");
            gen_expr(rng, depth - 1, out);
            out.push(')');
        }
        _ => {
            out.push_str(rng.pick(FUNCS));
            for _ in 0..rng.below(4) {
                out.push(' ');
                gen_expr(rng, depth - 1, out);
            }
        }
    }
    out.push(')');
}

#[test]
fn random_well_formed_programs_never_panic() {
    let mut rng = Rng(0xdead_beef_0000_0042);
    let mut ok = 0;
    for _ in 0..3000 {
        let mut src = String::from("(def x 2) ");
        gen_expr(&mut rng, 5, &mut src);
        let out =
            std::panic::catch_unwind(|| run_program(&src, &Memory::new(), &Default::default(), &mut NoTools, &quick()));
        let out = out.unwrap_or_else(|_| panic!("panicked on {src}"));
        if let Ok(Exit::Value(v)) = &out.result {
            ok += 1;
            // Round-trip property: whatever a program returns, the reader reads back.
            if !matches!(v, Value::Fn(_)) && !v.to_string().contains("#fn") && !v.to_string().contains("#\"") {
                let back = read_edn(&v.to_string()).unwrap_or_else(|e| panic!("{src}: {v} does not read back: {e}"));
                assert!(back == *v || v.to_string().contains("NaN"), "{src}: {v} read back as {back}");
            }
        }
    }
    assert!(ok > 300, "only {ok} random programs ran to a value");
}

#[test]
fn deep_values_from_any_builder_or_closure_end_in_named_errors() {
    on_small_stack(|| {
        // Each wraps the accumulator once per step, 100,000 times.
        let wraps = [
            "(mapv (fn [_] a) [1])",
            "(for [_ [1]] a)",
            "(map-indexed (fn [_ _] a) [1])",
            "(keep (fn [_] a) [1])",
            "((juxt (fn [_] a)) 1)",
            "(update-vals {:k 1} (fn [_] a))",
            "(update-keys {:k 1} (fn [_] a))",
            "(merge-with (fn [_ _] a) {:k 1} {:k 2})",
            "(map (fn [_ _] a) [1] [2])",
            "[(fn [] a)]",
            "{:f (partial identity a)}",
        ];
        for wrap in wraps {
            let src = format!("(def z (reduce (fn [a _] {wrap}) nil (range 100000))) (count (str z))");
            assert_eq!(kind(&src), ErrorKind::SizeLimit, "{wrap}");
        }
        // Functions capturing functions nest without a collection: they are
        // dropped without recursion, and calling through them hits the depth limit.
        for wrap in
            ["(fn [] a)", "(partial identity a)", "(constantly a)", "(comp (constantly a))", "(fnil identity a)"]
        {
            let out = run(&format!("(let [z (reduce (fn [a _] {wrap}) nil (range 100000))] (str z))"));
            assert!(out.result.is_ok(), "{wrap}: {:?}", out.result);
        }
        for wrap in ["(comp f inc)", "(partial f)", "(fn [x] (f x))", "(complement f)"] {
            let src = format!("(let [g (reduce (fn [f _] {wrap}) inc (range 100000))] (g 1))");
            assert_eq!(kind(&src), ErrorKind::DepthLimit, "{wrap}");
        }
        assert_eq!(kind("(assoc-in {} (vec (range 100000)) 1)"), ErrorKind::SizeLimit);
        assert_eq!(kind("(update-in {} (vec (range 100000)) (constantly 1))"), ErrorKind::SizeLimit);
        assert_eq!(run("(count (str (assoc-in {} (vec (range 400)) 1)))").result, Ok(Exit::Value(Value::Int(2291))));
    });
}
