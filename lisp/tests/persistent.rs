//! Persistent collections: building in a loop is linear, every older
//! version stays as it was, and the sandbox still counts sizes, nesting and
//! memory of shared structure correctly.

use ptc_lisp::*;
use std::time::Duration;

fn run_in(src: &str, memory: &Memory, limits: &Limits) -> Outcome {
    run_program(src, memory, &Default::default(), &mut NoTools, limits)
}

fn generous() -> Limits {
    // Debug builds on a loaded machine: correctness here, speed in the benchmarks.
    Limits { timeout: Duration::from_secs(60), ..Limits::default() }
}

fn value(src: &str) -> String {
    match run_in(src, &Memory::new(), &generous()).result {
        Ok(Exit::Value(v)) => v.to_string(),
        other => panic!("{src}: {other:?}"),
    }
}

fn error_kind(src: &str, limits: &Limits) -> ErrorKind {
    match run_in(src, &Memory::new(), limits).result {
        Err(e) => e.kind,
        other => panic!("{src}: expected an error, got {other:?}"),
    }
}

#[test]
fn loops_build_large_collections() {
    // Quadratic before: n = 20,000 hit the 1 s timeout.
    let n = 100_000;
    let src = format!(
        "(loop [i 0 acc []] (if (< i {n}) (recur (inc i) (conj acc i)) [(count acc) (nth acc 77777) (peek acc)]))"
    );
    assert_eq!(value(&src), "[100000 77777 99999]");
    let src = format!("(loop [i 0 m {{}}] (if (< i {n}) (recur (inc i) (assoc m i (* 2 i))) [(count m) (get m 4242) (first (keys m))]))");
    assert_eq!(value(&src), "[100000 8484 0]");
    let src = "(loop [i 0 s #{}] (if (< i 50000) (recur (inc i) (conj s (mod i 1000))) (count s)))";
    assert_eq!(value(src), "1000");
    let src = "(count (reduce (fn [m i] (dissoc (assoc m i i) (- i 10))) {} (range 50000)))";
    assert_eq!(value(src), "10");
}

#[test]
fn older_versions_never_change() {
    // Every version of a vector and a map built in a loop is kept and checked.
    let src = r#"
      (let [versions (loop [i 0 v [] out []]
                       (if (< i 300) (recur (inc i) (conj v i) (conj out v)) out))]
        [(count versions) (count (nth versions 0)) (count (nth versions 299)) (last (nth versions 299))
         (every? (fn [i] (= (count (nth versions i)) i)) (range 300))])"#;
    assert_eq!(value(src), "[300 0 299 298 true]");
    let src = r#"
      (let [big (zipmap (range 100) (range 100))
            changed (map (fn [i] (assoc (dissoc big i) :new i)) (range 100))]
        [(count big) (get big 5) (map count (take 3 changed)) (get (nth changed 5) 5) (:new (nth changed 7))
         (= (keys big) (range 100)) (take 3 (keys (nth changed 0)))])"#;
    assert_eq!(value(src), "[100 5 (100 100 100) nil 7 true (1 2 3)]");
    let src = r#"
      (let [v (vec (range 100)) w (assoc v 3 :x) u (pop w) x (conj u :y)]
        [(nth v 3) (nth w 3) (count u) (peek x) (count v) (peek v)])"#;
    assert_eq!(value(src), "[3 :x 99 :y 100 99]");
}

#[test]
fn insertion_order_survives_changes_to_shared_maps_and_sets() {
    let src = r#"
      (let [m (zipmap (map #(keyword (str "k" %)) (range 40)) (range 40))
            n (-> m (dissoc :k0 :k5) (assoc :k1 :one :z 99))]
        [(take 3 (keys n)) (last (keys n)) (count n) (:k1 n) (first (keys m)) (count m)])"#;
    assert_eq!(value(src), "[(:k1 :k2 :k3) :z 39 :one :k0 40]");
    let src = "(let [s (set (range 40)) t (conj s 100)] [(first t) (last (seq t)) (count s) (contains? s 100)])";
    assert_eq!(value(src), "[0 100 40 false]");
}

#[test]
fn last_uses_move_only_what_is_never_read_again() {
    // Each read below happens after a use that could wrongly have moved the value.
    let cases = [
        ("(loop [acc [] i 0] (if (< i 3) (recur (conj acc (count acc)) (inc i)) acc))", "[0 1 2]"),
        ("(loop [acc [] i 0] (if (< (count acc) 3) (recur (conj acc i) (inc i)) [acc (count acc)]))", "[[0 1 2] 3]"),
        ("(let [v [1 2]] [(conj v 3) v])", "[[1 2 3] [1 2]]"),
        ("(let [v [1 2] f (fn [] v)] [(conj v 3) (f)])", "[[1 2 3] [1 2]]"),
        ("(let [v [1]] (if (empty? v) v (conj v 2)))", "[1 2]"),
        (
            "(loop [acc [] fs []] (if (< (count fs) 2) (recur (conj acc 1) (conj fs (fn [] acc))) (map #(%) fs)))",
            "([] [1])",
        ),
        ("(defn f [m k] (let [n (assoc m k 1)] [m n])) (f {:a 0} :b)", "[{:a 0} {:a 0 :b 1}]"),
        ("(let [m {:a 1}] (case (count m) 1 (assoc m :b 2) m))", "{:a 1 :b 2}"),
        ("(let [v [1 2 3] [a & r] v] [a r v])", "[1 (2 3) [1 2 3]]"),
        ("(loop [[x & r] [1 2 3] acc []] (if x (recur r (conj acc x)) acc))", "[1 2 3]"),
        ("(let [xs [1 2]] (for [x xs] (conj xs x)))", "([1 2 1] [1 2 2])"),
        ("(let [m {:k 1}] (and (map? m) (assoc m :j 2)))", "{:k 1 :j 2}"),
        ("(let [v [1]] (loop [i 0 acc v] (if (< i 2) (recur (inc i) (conj acc i)) [acc v])))", "[[1 0 1] [1]]"),
        ("(defn g [v] (if (> (count v) 2) v (g (conj v (count v))))) (g [])", "[0 1 2]"),
        ("(defn h [v] (if (> (count v) 2) v (recur (conj v (count v))))) (h [])", "[0 1 2]"),
    ];
    for (src, want) in cases {
        assert_eq!(value(src), want, "{src}");
    }
}

#[test]
fn size_and_nesting_caps_hold_on_the_shared_path() {
    let small = Limits { max_collection_size: 1000, ..generous() };
    let grow = "(loop [i 0 acc [] keep []] (if (< i 2000) (recur (inc i) (conj acc i) (conj keep acc)) (count acc)))";
    assert_eq!(error_kind(grow, &small), ErrorKind::SizeLimit);
    let grow_map = "(loop [i 0 m {} old []] (if (< i 2000) (recur (inc i) (assoc m i i) (conj old m)) (count m)))";
    assert_eq!(error_kind(grow_map, &small), ErrorKind::SizeLimit);
    let deep = "(loop [i 0 v []] (if (< i 600) (recur (inc i) (conj [] v)) v))";
    assert_eq!(error_kind(deep, &generous()), ErrorKind::SizeLimit);
}

#[test]
fn memory_counts_shared_structure_once() {
    let limits = generous();
    let bytes = |src: &str| {
        let out = run_in(src, &Memory::new(), &limits);
        assert!(out.result.is_ok(), "{src}: {:?}", out.result);
        out.memory.estimated_bytes()
    };
    let versions = "(def b (conj a :x)) (def c (assoc a 5 :y)) (def d a)";
    // A vector already in the trie layout: its versions share leaves.
    let build = "(def a (let [v (vec (range 20000)) w (conj v 0)] (count v) w))";
    let one = bytes(build);
    let four = bytes(&format!("{build} {versions}"));
    assert!(one > 20_000 * 16, "a 20,000-element vector is counted: {one}");
    assert!(four < one + one / 4, "versions share leaves: one {one}, four versions {four}");
    // A flat one (built in place) is copied into the trie layout once, then shared.
    let flat = "(def a (loop [i 0 v []] (if (< i 20000) (recur (inc i) (conj v i)) v)))";
    let one = bytes(flat);
    let four = bytes(&format!("{flat} {versions}"));
    assert!(four < one * 2 + one / 4, "one relayout, then shared: one {one}, four versions {four}");
    let big_map = "(def m (loop [i 0 m {}] (if (< i 5000) (recur (inc i) (assoc m i i)) m)))";
    let m1 = bytes(big_map);
    let m2 = bytes(&format!("{big_map} (def n (assoc m :k 1)) (def o (dissoc m 3))"));
    assert!(m1 > 5000 * 16 && m2 < m1 * 2 + m1 / 4, "one relayout, then shared: {m1} vs {m2}");
    // The limit still fires on what is really kept.
    let tight = Limits { max_memory_bytes: 100_000, ..generous() };
    let out = run_in(build, &Memory::new(), &tight);
    assert_eq!(out.result.unwrap_err().kind, ErrorKind::MemoryLimit);
}

#[test]
fn values_stay_one_word_tag_plus_payload() {
    assert_eq!(std::mem::size_of::<Value>(), 24);
}
