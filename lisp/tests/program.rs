//! The turn entry point: tool calls, definitions, memory, prints, errors.

use ptc_lisp::*;
use serde_json::json;
use std::time::Duration;

fn run_with(src: &str, memory: &Memory, limits: &Limits) -> Outcome {
    let mut tools = |name: &str, args: serde_json::Value| -> Result<serde_json::Value, String> {
        match name {
            "echo" => Ok(args),
            "search" => Ok(json!({"hits": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}], "total": 2})),
            "slow" => {
                std::thread::sleep(Duration::from_millis(30));
                Ok(json!(null))
            }
            _ => Err(format!("unknown tool {name}")),
        }
    };
    let data = indexmap::IndexMap::from([
        ("numbers".to_string(), read_edn("[1 2 3]").unwrap()),
        ("user".to_string(), read_edn(r#"{:name "ann"}"#).unwrap()),
    ]);
    run_program(src, memory, &data, &mut tools, limits)
}

fn run(src: &str) -> Outcome {
    run_with(src, &Memory::new(), &Limits { timeout: Duration::from_secs(10), ..Limits::default() })
}

fn value(src: &str) -> String {
    match run(src).result {
        Ok(Exit::Value(v)) => v.to_string(),
        other => panic!("{src}: {other:?}"),
    }
}

fn error(src: &str) -> LispError {
    match run(src).result {
        Err(e) => e,
        other => panic!("{src}: expected an error, got {other:?}"),
    }
}

#[test]
fn tool_calls_cross_as_json_and_are_recorded() {
    let out = run(r#"(def r (tool/search {:q "x" :limit 2})) (tool/echo :a 1 :b [:k "s"]) (pluck :title (:hits r))"#);
    assert_eq!(out.result, Ok(Exit::Value(read_edn(r#"("a" "b")"#).unwrap())));
    assert_eq!(out.tool_calls.len(), 2);
    assert_eq!(out.tool_calls[0].name, "search");
    assert_eq!(out.tool_calls[0].args.to_string(), r#"{:q "x" :limit 2}"#);
    assert_eq!(out.tool_calls[1].result.as_ref().unwrap().to_string(), r#"{:a 1 :b ["k" "s"]}"#);
    assert_eq!(value("(tool/echo)"), "{}");
}

#[test]
fn tool_errors_become_tool_errors_and_are_recorded() {
    let out = run("(tool/nope {:x 1})");
    let e = out.result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Tool);
    assert!(e.message.contains("tool/nope failed: unknown tool nope"), "{e}");
    assert_eq!(out.tool_calls[0].result, Err(ptc_lisp::ToolError::failed("unknown tool nope")));
}

#[test]
fn a_name_nothing_defines_fails_before_its_form_runs() {
    // As Clojure compiles a form before running it: the tool calls of a
    // form that cannot finish are not made, and the error says where.
    let out = run(r#"(def hits (pmap (fn [q] (find-first odd? (:x (tool/echo {:x [q]})))) [1 2 3]))"#);
    let e = out.result.unwrap_err();
    assert_eq!((e.kind, e.line, e.column), (ErrorKind::UnboundSymbol, Some(1), Some(26)), "{e}");
    assert!(e.message.contains("unable to resolve symbol `find-first`"), "{e}");
    assert!(out.tool_calls.is_empty(), "{:?}", out.tool_calls);
    // Earlier forms ran, as in Clojure; a dead branch is no exception.
    let out = run("(tool/echo {:a 1}) (if false (nope) 1)");
    assert_eq!((out.tool_calls.len(), out.result.unwrap_err().kind), (1, ErrorKind::UnboundSymbol));
    // A name a later form, or a def inside a body, defines is fine.
    assert_eq!(value("(defn f [] (g)) (defn g [] 7) (f)"), "7");
    assert_eq!(value("(defn setup [] (def limit 3)) (setup) (inc limit)"), "4");
}

#[test]
fn data_is_readable() {
    assert_eq!(value("(reduce + data/numbers)"), "6");
    assert_eq!(value("(:name data/user)"), "\"ann\"");
    let e = error("data/missing");
    assert_eq!(e.kind, ErrorKind::UnboundSymbol);
    assert!(e.message.contains("available: numbers, user"), "{e}");
}

#[test]
fn definitions_record_docstrings_and_return_types() {
    let out = run(r#"(def x "the x" 5) (defn f "doubles" [n] (* 2 n)) (defn g [] [1 2 3]) (f 1) (g) (def x 6)"#);
    let d: Vec<_> =
        out.definitions.iter().map(|d| (d.name.as_str(), d.docstring.as_deref(), d.return_type.as_deref())).collect();
    assert_eq!(
        d,
        [
            ("x", Some("the x"), None),
            ("f", Some("doubles"), Some("integer")),
            ("g", None, Some("list[3]")),
            ("x", None, None)
        ]
    );
    let f = &out.definitions[1].value;
    let Value::Fn(func) = f else { panic!() };
    assert_eq!(func.desc.params, vec!["n".into()] as Vec<std::sync::Arc<str>>);
    assert_eq!(f.to_string(), "#fn[f]");
    let names: Vec<_> = out.memory.iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["x", "f", "g"]);
    assert_eq!(out.memory.get("x").unwrap().value, Value::Int(6));
}

#[test]
fn memory_persists_and_rolls_back_on_error() {
    let first = run("(def total 10) (defn add [x] (+ x total))");
    assert!(first.result.is_ok());
    let second = run_with("(add 5)", &first.memory, &Limits::default());
    assert_eq!(second.result, Ok(Exit::Value(Value::Int(15))));
    let failed = run_with("(def total 99) (def other 1) (car 1)", &first.memory, &Limits::default());
    assert!(failed.result.is_err());
    assert_eq!(failed.definitions.len(), 2);
    assert_eq!(failed.memory.get("total").unwrap().value, Value::Int(10));
    assert!(failed.memory.get("other").is_none());
    let rebuilt = Memory::from_definitions(&first.definitions);
    assert_eq!(rebuilt.len(), 2);
}

#[test]
fn memory_limit_rolls_back() {
    let limits = Limits { max_memory_bytes: 10_000, ..Limits::default() };
    let out = run_with("(def big (vec (range 5000)))", &Memory::new(), &limits);
    assert_eq!(out.result.unwrap_err().kind, ErrorKind::MemoryLimit);
    assert!(out.memory.is_empty());
    // Values held by a function count too: closures, partial, constantly, comp.
    for program in [
        "(def f (let [v (vec (range 5000))] (fn [] v)))",
        "(def f (partial conj (vec (range 5000))))",
        "(def f (constantly (vec (range 5000))))",
        "(def f (comp count (constantly (vec (range 5000)))))",
    ] {
        let out = run_with(program, &Memory::new(), &limits);
        assert_eq!(out.result.map_err(|e| e.kind), Err(ErrorKind::MemoryLimit), "{program}");
        assert!(out.memory.is_empty(), "{program}");
    }
    let small = run_with("(def f (constantly [1 2 3]))", &Memory::new(), &limits);
    assert!(small.result.is_ok(), "{:?}", small.result);
}

#[test]
fn prints_are_one_entry_per_call_and_cut() {
    let out = run(r#"(println "a\nb") (println "x" 1 nil) (println (apply str (repeat 3000 "z")))"#);
    assert!(out.result.is_ok(), "{:?}", out.result);
    assert_eq!(out.prints[0], "a\nb");
    assert_eq!(out.prints[1], "x 1 nil");
    assert_eq!(out.prints[2].chars().count(), 2003);
    assert!(out.prints[2].ends_with("zz..."));
}

#[test]
fn return_and_fail_stop_at_once() {
    let out = run("(println 1) (return [1 2]) (println 2)");
    assert_eq!(out.result, Ok(Exit::Return(read_edn("[1 2]").unwrap())));
    assert_eq!(out.prints, ["1"]);
    let out = run("(defn check [x] (when (neg? x) (fail {:bad x})) x) (map check [1 -2 3])");
    assert_eq!(out.result, Ok(Exit::Fail(read_edn("{:bad -2}").unwrap())));
}

#[test]
fn errors_carry_kind_position_and_hints() {
    let e = error("(let [x 1]\n  (cont [1 2]))");
    assert_eq!((e.kind, e.line, e.column), (ErrorKind::UnboundSymbol, Some(2), Some(4)));
    assert!(e.message.contains("did you mean `count`"), "{e}");
    // In the namespace it was asked in.
    let e = error("(str/uppercase \"a\")");
    assert!(e.message.ends_with("did you mean `str/upper-case`?"), "{e}");
    let e = error("(clojure.string/jion \",\" [1 2])");
    assert!(e.message.ends_with("did you mean `clojure.string/join`?"), "{e}");
    // The usual aliases of the built-in namespaces resolve without a require.
    let out = run("[(walk/keywordize-keys {\"a\" 1}) (pp/pprint 1) (s/join \",\" [1 2])]");
    assert_eq!(out.result, Ok(Exit::Value(read_edn("[{:a 1} nil \"1,2\"]").unwrap())));
    assert_eq!(out.prints, ["1"]);
    // A name models reach for, where the closest one would mislead.
    let e = error("(reduced? (reduce (fn [a x] (if (> x 2) (reduced a) (+ a x))) 0 [1 2 3]))");
    assert!(
        e.message.ends_with(
            "`reduced?`; (reduced x) ends its reduce at once here, so there is never a reduced value to test or unwrap"
        ),
        "{e}"
    );
    // `reduced` itself ends its reduce; outside one it is an error that says so.
    assert_eq!(
        run("(reduce (fn [a x] (if (> x 2) (reduced a) (+ a x))) 0 [1 2 3])").result,
        Ok(Exit::Value(Value::Int(3)))
    );
    let e = error("(let [r (fn [x] (reduced x))] (r 1))");
    assert!(e.message.starts_with("reduced outside a reduce: (reduced x) ends the reduce"), "{e}");
    let e = error("(str/escape \"<a>\" {\\< \"&lt;\"})");
    assert!(e.message.contains("use str/replace with a map"), "{e}");
    let e = error("(instance? String \"a\")");
    assert!(e.message.ends_with("`instance?`; there are no classes; test a value with type, or string? number? map? vector? coll? fn? keyword?"), "{e}");
    // Such a name stays free for a program's own value.
    assert_eq!(run("(def class \"benign\") class").result, Ok(Exit::Value(read_edn("\"benign\"").unwrap())));
    let e = error("(sort (comparator >) [1 3 2])");
    assert!(e.message.contains("pass the predicate itself: (sort > xs)"), "{e}");
    let e = error("(symbol \"a\")");
    assert!(
        e.message.ends_with("`symbol`; there are no symbol values; use a keyword, (keyword s), or the string itself"),
        "{e}"
    );
    let e = error("(inst-ms \"2024-03-14T09:40:00Z\")");
    assert!(e.message.contains("keep ISO dates as strings"), "{e}");
    let e = error("(long \"5\")");
    assert_eq!(e.kind, ErrorKind::Type);
    assert!(e.message.starts_with("long expects a number (text is read with parse-long or parse-double), got"), "{e}");
    let e = error("(index-by :id [{:id 1}])");
    assert!(e.message.contains("(zipmap (map :id xs) xs)"), "{e}");
    // A program's own definition of it is its own.
    assert_eq!(
        run("(defn index-by [k xs] (zipmap (map k xs) xs)) (index-by :id [{:id 1}])").result,
        Ok(Exit::Value(read_edn("{1 {:id 1}}").unwrap()))
    );
    // Clojure names whose closest builtin would mislead (`print-str` is not
    // `pr-str`, `num` is not `sum`, `replicate` is not `replace`) say what
    // to write, and what they say runs.
    for (src, hint) in [
        ("(print-str \"total\" 3)", "(print-str a b) is (str/join \" \" [a b])"),
        ("(println-str \"total\" 3)", "println-str adds \"\\n\""),
        ("(prn-str {:a 1})", "pr-str gives a value's readable text"),
        ("(num 3)", "read text with parse-long or parse-double"),
        ("(meta [1])", "there is no metadata"),
        ("(aget (int-array 3) 0)", "there are no arrays; use a vector"),
        ("(replicate 2 :a)", "`replicate`; (replicate n x) is (repeat n x)"),
        ("(quit)", "`quit`; a program ends with (return value) or (fail reason); in `ptc repl`, :quit leaves"),
        ("(find-doc \"join\")", "`find-doc`; (apropos \"text\") lists the names that hold it"),
        ("(identical? 1 1)", "`identical?`; values have no identity here; compare them with ="),
        ("(hash \"a\")", "`hash`; there is no hash; a value itself is a map key or a set member"),
        ("(re-groups #\"a\")", "`re-groups`; re-find and re-matches return [match group1 group2 ...]"),
        ("(unchecked-add 1 2)", "`unchecked-add`; use + - * inc dec: integers are 64-bit and an overflow is an error"),
        ("(partitionv 2 [1 2 3])", "`partitionv`; (partitionv n xs) is (mapv vec (partition n xs))"),
        (
            "(str/re-quote-replacement \"$1\")",
            "`str/re-quote-replacement`; a string pattern's replacement is taken as written",
        ),
        ("(rationalize 1.5)", "`rationalize`; there are no ratios: (/ 1 3) is a double"),
        ("(iteration f)", "`iteration`; fetch page after page with loop and recur"),
        ("(seque [1])", "`seque`; sequences are eager"),
        ("(parse-uuid \"x\")", "`parse-uuid`; keep a UUID as its string"),
        ("(macroexpand 1)", "`macroexpand`; there is no eval or macros"),
        ("(re-matcher #\"a\" \"a\")", "`re-matcher`; there are no matchers: re-seq gives every match"),
        ("(line-seq \"a\")", "`line-seq`; (str/split-lines s) gives the lines of a string"),
    ] {
        let e = error(src);
        assert_eq!(e.kind, ErrorKind::UnboundSymbol, "{src}");
        assert!(e.message.contains(hint), "{src}: {e}");
    }
    assert_eq!(run("(str/join \" \" [\"total\" 3])").result, Ok(Exit::Value(read_edn("\"total 3\"").unwrap())));
    // Ordering strings with `<` (models compare ISO timestamps so) names
    // compare, and what it names runs.
    for src in ["(< \"2024-03-08T14:36:10Z\" \"2024-03-09\")", "(>= 1 \"b\")", "(max \"a\" \"b\")"] {
        let e = error(src);
        assert_eq!(e.kind, ErrorKind::Type, "{src}");
        assert!(e.message.contains("; strings order with compare: (neg? (compare a b)) is a before b"), "{src}: {e}");
    }
    assert_eq!(error("(< 1 :a)").message, "< expects a number, got keyword :a");
    assert_eq!(
        run("(neg? (compare \"2024-03-08T14:36:10Z\" \"2024-03-09\"))").result,
        Ok(Exit::Value(Value::Bool(true)))
    );
    assert_eq!(run("(mapv vec (partition 2 [1 2 3 4]))").result, Ok(Exit::Value(read_edn("[[1 2] [3 4]]").unwrap())));
    assert_eq!(run("(str/replace \"a$1\" \"$1\" \"x\")").result, Ok(Exit::Value(read_edn("\"ax\"").unwrap())));
    // The reader macros left out say why, each its own way.
    for (src, at, hint) in [
        ("(def ^:private x 1)", 6, "`^` is not supported: there is no metadata; drop the hint"),
        ("(inc @total)", 6, "`@` is not supported: there are no atoms to deref"),
        ("`(a ~b)", 1, "``` is not supported: there are no macros to syntax-quote"),
    ] {
        let e = error(src);
        assert_eq!((e.kind, e.line, e.column), (ErrorKind::Parse, Some(1), Some(at)), "{src}");
        assert!(e.message.starts_with(hint), "{src}: {e}");
    }
    assert_eq!(run("(list :a 2)").result, Ok(Exit::Value(read_edn("(:a 2)").unwrap())));
    let e = error("(count 1 2)");
    assert_eq!(e.kind, ErrorKind::Arity);
    let e = error("(+ 1 :a)");
    assert_eq!(e.kind, ErrorKind::Type);
    assert!(e.message.contains("+ expects a number, got keyword :a"), "{e}");
    let e = error("(+ 1 (:missing {}))");
    assert_eq!(e.message, "+ expects a number, got nil");
    let e = error("(let [x 1] (+ x 1)");
    assert_eq!(e.kind, ErrorKind::Parse);
    assert_eq!(e.to_string().lines().count(), 1);
    let e = error("(try 1 (catch Exception e 2))");
    assert!(e.message.contains("not supported"), "{e}");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.to_string().starts_with("unsupported error at line 1, column 1: `try` is not supported"), "{e}");
    // A name left out of the language cannot be defined either: its calls
    // would report the form as unsupported, not run the definition.
    let e = error("(defn cycle [xs] (concat xs xs)) (cycle [1])");
    assert_eq!((e.line, e.column), (Some(1), Some(7)));
    assert!(e.message.starts_with("cannot define `cycle`"), "{e}");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(error("(def shuffle 1)").message.split(':').next(), Some("cannot define `shuffle`"));
    assert_eq!(run("(let [cycle (fn [x] [x x])] (cycle 1))").result, Ok(Exit::Value(read_edn("[1 1]").unwrap())));
    // Idioms left out say what to use, called or passed as a value.
    for (src, hint) in [
        ("(while (pos? 1) 1)", "use loop/recur"),
        ("(time (count [1]))", "no clock"),
        ("(with-out-str (println 1))", "build strings with str"),
        ("(persistent! (conj! (transient []) 1))", "persistent only"),
        ("(map shuffle [[1 2]])", "deterministic"),
        ("(force (delay 1))", "computed at once"),
    ] {
        let e = error(src);
        assert!(e.message.contains("not supported in PTC-Lisp") && e.message.contains(hint), "{src}: {e}");
        assert_eq!(e.kind, ErrorKind::Unsupported, "{src}");
    }
    let e = error("(defn f [x] x) (f 1 2)");
    assert_eq!(e.kind, ErrorKind::Arity);
    assert!(e.message.contains("passed to f"), "{e}");
    // A precision, as Python's round takes it: the arity error says how.
    let e = error("(round 3.14159 2)");
    assert_eq!(e.kind, ErrorKind::Arity);
    assert!(e.message.contains("(/ (round (* x 100)) 100.0)"), "{e}");
    assert_eq!(run("(/ (round (* 3.14159 100)) 100.0)").result, Ok(Exit::Value(read_edn("3.14").unwrap())));
    // Each error a model meets first with a default it did not give says
    // where the default goes, and what it says runs.
    for (src, hint, fixed, value) in [
        ("(nth [1] 5)", "(nth coll i default) or (get coll i) give a default", "(nth [1] 5 0)", "0"),
        ("(apply max [])", "(reduce max 0 coll)", "(reduce max 0 [])", "0"),
        ("(apply min [])", "(reduce min ##Inf coll)", "(reduce min ##Inf [3 1])", "1"),
        ("(case 5 1 :one)", "the default: (case x 1 :one :other)", "(case 5 1 :one :other)", ":other"),
        ("(1 2 3)", "integer 1 is not a function; data is written as a vector", "'(1 2 3)", "(1 2 3)"),
        ("(nil)", "nil is not a function;", "[nil]", "[nil]"),
    ] {
        let e = error(src);
        assert!(e.message.contains(hint), "{src}: {e}");
        assert_eq!(run(fixed).result, Ok(Exit::Value(read_edn(value).unwrap())), "{fixed}");
    }
    // clojure.math's names are not core names, as in Clojure; the error names the namespace.
    let e = error("(log10 1000)");
    assert_eq!(e.kind, ErrorKind::UnboundSymbol);
    assert!(e.message.contains("it is `clojure.math/log10`"), "{e}");
    assert_eq!(run("(clojure.math/log10 1000)").result, Ok(Exit::Value(read_edn("3.0").unwrap())));
    assert!(error("(clojure.math/floor-div 1.5 1)").message.contains("an integer"));
    assert_eq!(ErrorKind::MemoryLimit.as_str(), "memory_limit");
}

#[test]
fn every_keyword_reads_back_from_its_printed_form() {
    // A session stores values as EDN: a keyword with a space would print as
    // two forms, so `keyword` refuses the name and says what to do instead.
    let e = error("(def k (keyword \"previous import\"))");
    assert_eq!(e.kind, ErrorKind::Type);
    assert!(e.message.contains("use the string itself as the key"), "{e}");
    assert_eq!(run("(keyword \"a/b\")").result, Ok(Exit::Value(read_edn(":a/b").unwrap())));
    assert_eq!(run("(keyword \"2024\")").result, Ok(Exit::Value(read_edn(":2024").unwrap())));
    let keyed = run("(keywordize-keys {\"ok\" 1 \"a b\" {\"c\" 2}})").result;
    assert_eq!(keyed, Ok(Exit::Value(read_edn("{:ok 1 \"a b\" {:c 2}}").unwrap())));
}

#[test]
fn limits_are_enforced_with_named_errors() {
    let kind = |src: &str, limits: Limits| run_with(src, &Memory::new(), &limits).result.unwrap_err().kind;
    let d = || Limits { timeout: Duration::from_secs(10), max_steps: 2_000_000, ..Limits::default() };
    assert_eq!(kind("(loop [] (recur))", d()), ErrorKind::LoopLimit);
    assert_eq!(kind("(defn f [n] (+ 1 (f n))) (f 1)", d()), ErrorKind::DepthLimit);
    assert_eq!(kind("(range 2000000)", d()), ErrorKind::SizeLimit);
    assert_eq!(kind("(loop [s \"ab\" i 0] (if (< i 64) (recur (str s s) (inc i)) s))", d()), ErrorKind::SizeLimit);
    let steps = Limits { max_steps: 10_000, ..d() };
    assert_eq!(Limits::default().max_steps, 10_000_000);
    assert_eq!(kind("(reduce + (map inc (range 100000)))", steps), ErrorKind::StepLimit);
    // Only the clock can stop this loop: no step or iteration limit (a
    // fast machine runs millions of steps within the 50 ms).
    let quick =
        Limits { timeout: Duration::from_millis(50), max_loop_iterations: u64::MAX, max_steps: u64::MAX, ..d() };
    assert_eq!(kind("(loop [i 0] (recur (inc i)))", quick.clone()), ErrorKind::Timeout);
    assert_eq!(kind("(tool/slow) (tool/slow)", quick), ErrorKind::Timeout);
}

#[test]
fn results_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Value>();
    send_sync::<Memory>();
    send_sync::<Outcome>();
    send_sync::<LispError>();
    let first = run("(defn inc2 [x] (+ x 2))");
    let memory = first.memory.clone();
    let out = std::thread::spawn(move || run_with("(inc2 1)", &memory, &Limits::default()).result).join().unwrap();
    assert_eq!(out, Ok(Exit::Value(Value::Int(3))));
}

#[test]
fn a_program_ending_with_a_definition_says_which() {
    let ended = |src: &str| run(src).ended_with_definition;
    assert_eq!(ended("(def x 5)"), Some("x".to_string()));
    assert_eq!(ended("(def y 1) (defn f [a] a)"), Some("f".to_string()));
    assert_eq!(ended("(defn- g [] 1)"), Some("g".to_string()));
    // The last form is a value (even one equal to a definition), or a def nested in another form.
    assert_eq!(ended("(def x 5) x"), None);
    assert_eq!(ended("(def x 5) 5"), None);
    assert_eq!(ended("(do (def x 5))"), None);
    // Nothing when the program did not end normally.
    assert_eq!(ended("(def x (undefined-thing))"), None);
    assert_eq!(ended("(return 1) (def x 5)"), None);
}
