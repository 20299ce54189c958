//! `pmap` and `pcalls`: concurrent calls, bounded, results and records in
//! input order, the first failing call named, limits shared across threads.

use ptc_lisp::*;
use serde_json::{json, Value as Json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Tools that sleep and count how many calls are in flight at once.
#[derive(Default)]
struct Counting {
    now: AtomicUsize,
    most: AtomicUsize,
    order: Mutex<Vec<i64>>,
    sequential: bool,
}

impl ToolHost for Counting {
    fn call(&self, name: &str, args: Json) -> Result<Json, ptc_lisp::ToolError> {
        let i = args["i"].as_i64().unwrap_or(0);
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        // Later inputs finish first: completion order is the reverse of input order.
        std::thread::sleep(Duration::from_millis(if name == "slow" { 100 } else { 40 + 10 * (8 - i.min(8)) as u64 }));
        self.order.lock().unwrap().push(i);
        self.now.fetch_sub(1, Ordering::SeqCst);
        match name {
            "fails-on-even" if i % 2 == 0 && i > 0 => Err(format!("no result for {i}").into()),
            _ => Ok(json!({"i": i, "square": i * i})),
        }
    }

    fn concurrent(&self) -> bool {
        !self.sequential
    }
}

fn run(src: &str, tools: &mut Counting, limits: &Limits) -> Outcome {
    run_program(src, &Memory::new(), &Default::default(), tools, limits)
}

fn relaxed() -> Limits {
    Limits { timeout: Duration::from_secs(30), ..Limits::default() }
}

#[test]
fn results_and_records_keep_input_order() {
    let mut tools = Counting::default();
    let out = run("(pmap #(:square (tool/t {:i %})) (range 8))", &mut tools, &relaxed());
    assert_eq!(out.result.unwrap(), Exit::Value(read_edn("(0 1 4 9 16 25 36 49)").unwrap()));
    let recorded: Vec<String> = out.tool_calls.iter().map(|c| c.args.to_string()).collect();
    assert_eq!(recorded, (0..8).map(|i| format!("{{:i {i}}}")).collect::<Vec<_>>());
    let completed = tools.order.lock().unwrap().clone();
    assert_ne!(completed, (0..8).collect::<Vec<_>>(), "the calls overlapped (they finish out of order)");
    let out = run("(pcalls #(tool/t {:i 1}) (fn [] (tool/t {:i 2})))", &mut Counting::default(), &relaxed());
    assert_eq!(out.result.unwrap(), Exit::Value(read_edn("({:i 1 :square 1} {:i 2 :square 4})").unwrap()));
    let out = run("(pmap + [1 2 3] [10 20])", &mut Counting::default(), &relaxed());
    assert_eq!(out.result.unwrap(), Exit::Value(read_edn("(11 22)").unwrap()));
}

#[test]
fn concurrency_is_bounded_by_the_limit() {
    for (limit, want) in [(3, 3), (8, 8), (1, 1)] {
        let mut tools = Counting::default();
        let limits = Limits { max_parallel_tool_calls: limit, ..relaxed() };
        let out = run("(count (pmap #(tool/t {:i %}) (range 20)))", &mut tools, &limits);
        assert_eq!(out.result.unwrap(), Exit::Value(Value::Int(20)));
        assert_eq!(tools.most.load(Ordering::SeqCst), want, "limit {limit}");
    }
    // A host whose calls must not overlap, and a pmap inside a pmap, run one at a time.
    let mut tools = Counting { sequential: true, ..Counting::default() };
    run("(pmap #(tool/t {:i %}) (range 6))", &mut tools, &relaxed()).result.unwrap();
    assert_eq!(tools.most.load(Ordering::SeqCst), 1);
    let mut tools = Counting::default();
    let out = run("(pmap (fn [i] (pmap #(tool/t {:i %}) [i i])) [1])", &mut tools, &relaxed());
    assert_eq!(out.result.unwrap(), Exit::Value(read_edn("(({:i 1 :square 1} {:i 1 :square 1}))").unwrap()));
    assert_eq!(tools.most.load(Ordering::SeqCst), 1);
}

#[test]
fn the_first_failing_call_in_input_order_is_reported() {
    for _ in 0..5 {
        let out = run("(pmap #(tool/fails-on-even {:i %}) (range 8))", &mut Counting::default(), &relaxed());
        let e = out.result.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Tool);
        assert_eq!(e.message, "pmap: call 3 of 8 failed: tool/fails-on-even failed: no result for 2");
        let recorded: Vec<i64> = out.tool_calls.iter().map(|c| c.args.to_string()[4..5].parse().unwrap()).collect();
        assert!(recorded.starts_with(&[0, 1, 2]) && recorded.windows(2).all(|w| w[0] < w[1]), "{recorded:?}");
    }
    let e = run("(pcalls (fn [] 1) (fn [] (/ 1 0)))", &mut Counting::default(), &relaxed()).result.unwrap_err();
    assert_eq!(e.message, "pcalls: call 2 of 2 failed: divide by zero");
    let e = run("(pcalls 1)", &mut Counting::default(), &relaxed()).result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Type);
}

#[test]
fn prints_and_definitions_merge_in_input_order() {
    let src =
        "(defn sq [x] (tool/t {:i x}) (* x x)) (pmap (fn [x] (println \"item\" x) (def last-seen x) (sq x)) [1 2 3 4])";
    let out = run(src, &mut Counting::default(), &relaxed());
    assert_eq!(out.result.unwrap(), Exit::Value(read_edn("(1 4 9 16)").unwrap()));
    assert_eq!(out.prints, ["item 1", "item 2", "item 3", "item 4"]);
    let defs: Vec<String> = out.definitions.iter().map(|d| format!("{}={}", d.name, d.value)).collect();
    assert_eq!(defs[1..], ["last-seen=1", "last-seen=2", "last-seen=3", "last-seen=4"]);
    assert_eq!(out.memory.get("last-seen").unwrap().value, Value::Int(4));
    assert_eq!(out.definitions[0].return_type.as_deref(), Some("integer"));
}

#[test]
fn step_and_time_limits_hold_across_threads() {
    let limits = Limits { max_steps: 300_000, ..relaxed() };
    let busy = "(pmap (fn [_] (loop [i 0] (if (< i 50000) (recur (inc i)) i))) (range 8))";
    let e = run(busy, &mut Counting::default(), &limits).result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::StepLimit, "{e}");
    let limits = Limits { timeout: Duration::from_millis(150), ..Limits::default() };
    let started = Instant::now();
    let e = run("(pmap #(tool/slow {:i %}) (range 16))", &mut Counting::default(), &limits).result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Timeout, "{e}");
    assert!(started.elapsed() < Duration::from_secs(2), "stopped soon after the deadline");
}
