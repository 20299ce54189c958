//! Transducers: `(map f)`, `(filter p)`, `(take n)`, ... and `comp` of
//! them, run by `into`, `transduce`, `sequence` and `eduction`.
//!
//! A transducer here is a description (a native function holding its
//! arguments), not a function of a reducing function: the runner flattens
//! a `comp` of them into stages and pushes each element through the stages
//! one at a time, so `take` stops the source early and nothing lazy is left
//! behind. Every stage step costs an evaluation step; what is collected is
//! checked against the size limits as it grows.

use super::{b, coll::conj_one, is_fn, items, list, native::NativeKind, take, type_err, vector, Builtin, VARIADIC};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::value::{FnBody, Set, Value};

pub(crate) const BUILTINS: &[Builtin] = &[
    b("transduce", 3, 4, transduce),
    b("sequence", 1, 2, sequence),
    b("eduction", 1, VARIADIC, eduction),
    b("completing", 1, 2, completing),
    b("cat", 1, 1, |_, _| Err(not_callable("cat"))),
    b("take-nth", 1, 2, take_nth),
];

/// What one stage of a transducer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Map,
    Filter,
    Remove,
    Keep,
    MapIndexed,
    KeepIndexed,
    Mapcat,
    Cat,
    Take,
    Drop,
    TakeWhile,
    DropWhile,
    TakeNth,
    Distinct,
    Dedupe,
    PartitionAll,
    PartitionBy,
    Interpose,
}

impl Step {
    /// The core function that makes this transducer.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Step::Map => "map",
            Step::Filter => "filter",
            Step::Remove => "remove",
            Step::Keep => "keep",
            Step::MapIndexed => "map-indexed",
            Step::KeepIndexed => "keep-indexed",
            Step::Mapcat => "mapcat",
            Step::Cat => "cat",
            Step::Take => "take",
            Step::Drop => "drop",
            Step::TakeWhile => "take-while",
            Step::DropWhile => "drop-while",
            Step::TakeNth => "take-nth",
            Step::Distinct => "distinct",
            Step::Dedupe => "dedupe",
            Step::PartitionAll => "partition-all",
            Step::PartitionBy => "partition-by",
            Step::Interpose => "interpose",
        }
    }

    /// Whether the argument is a function (else a count or a separator).
    fn takes_fn(self) -> bool {
        matches!(
            self,
            Step::Map
                | Step::Filter
                | Step::Remove
                | Step::Keep
                | Step::MapIndexed
                | Step::KeepIndexed
                | Step::Mapcat
                | Step::TakeWhile
                | Step::DropWhile
                | Step::PartitionBy
        )
    }
}

fn not_callable(name: &str) -> Ctl {
    fail(ErrorKind::Other, format!("`{name}` is a transducer: use it with into, transduce, sequence or eduction"))
}

/// The transducer `(name args...)` for a sequence function called without
/// its collection: `(map inc)`, `(take 3)`, `(distinct)`.
pub(crate) fn make(step: Step, args: &mut [Value]) -> R {
    if let Some(arg) = args.first() {
        if step.takes_fn() && !is_fn(arg) && !matches!(arg, Value::Keyword(_) | Value::Map(_) | Value::Set(_)) {
            return Err(type_err(step.name(), "a function", arg));
        }
        if matches!(step, Step::Take | Step::Drop | Step::TakeNth | Step::PartitionAll) {
            super::int_arg(step.name(), arg)?;
        }
    }
    let vals = args.iter_mut().map(std::mem::take).collect();
    Ok(super::seq::native(step.name(), NativeKind::Xform(step), vals))
}

/// One stage of a running pipeline and its state.
struct Stage {
    step: Step,
    arg: Value,
    /// Elements seen (`take`, `drop`, `take-nth`, the `-indexed` ones).
    count: i64,
    /// `drop-while` still dropping; `take-while` done.
    flag: bool,
    seen: Set,
    /// `dedupe`: the previous element; `partition-by`: the previous key.
    prev: Option<Value>,
    buf: Vec<Value>,
}

/// A transducer taken apart into its stages, in the order elements pass them.
fn stages(xf: &Value, out: &mut Vec<Stage>) -> Result<(), Ctl> {
    let bad = || {
        fail(
            ErrorKind::Type,
            format!(
                "expected a transducer such as (map f), (filter p), (take n) or a comp of them, got {}; functions of a reducing function are not supported",
                crate::eval::preview(xf)
            ),
        )
    };
    let Value::Fn(f) = xf else { return Err(bad()) };
    match &f.body {
        Some(FnBody::Native(n)) => match n.kind {
            NativeKind::Xform(step) => out.push(Stage {
                step,
                arg: n.vals.first().cloned().unwrap_or(Value::Nil),
                count: 0,
                flag: step == Step::DropWhile,
                seen: Set::new(),
                prev: None,
                buf: Vec::new(),
            }),
            NativeKind::Comp => {
                for g in &n.vals {
                    stages(g, out)?;
                }
            }
            _ => return Err(bad()),
        },
        Some(FnBody::Builtin(b)) if b.name == "identity" => {}
        Some(FnBody::Builtin(b)) if b.name == "cat" => out.push(Stage {
            step: Step::Cat,
            arg: Value::Nil,
            count: 0,
            flag: false,
            seen: Set::new(),
            prev: None,
            buf: Vec::new(),
        }),
        _ => return Err(bad()),
    }
    Ok(())
}

/// Where a pipeline's output goes; `Ok(false)` stops the run.
type Sink<'s> = dyn FnMut(&mut Interp, Value) -> Result<bool, Ctl> + 's;

/// Stages a `comp` may chain (each element passes them on the native stack).
const MAX_STAGES: usize = 64;

/// Runs `coll` through the transducer `xf` into `sink`, then flushes the
/// stages that hold elements back (`partition-all`, `partition-by`).
fn run(interp: &mut Interp, xf: &Value, coll: &Value, who: &str, sink: &mut Sink) -> Result<(), Ctl> {
    let mut st = Vec::new();
    stages(xf, &mut st)?;
    if st.len() > MAX_STAGES {
        return Err(fail(ErrorKind::SizeLimit, format!("{who}: more than {MAX_STAGES} transducers in one comp")));
    }
    let src = items(coll, who)?;
    for x in src.iter() {
        if !feed(interp, &mut st, 0, x.clone(), sink)? {
            break;
        }
    }
    for i in 0..st.len() {
        let pending = std::mem::take(&mut st[i].buf);
        if !pending.is_empty() && matches!(st[i].step, Step::PartitionAll | Step::PartitionBy) {
            feed(interp, &mut st, i + 1, vector(pending), sink)?;
        }
    }
    Ok(())
}

/// Passes `x` through stages `i..`; `Ok(false)` when a stage is done for good.
fn feed(interp: &mut Interp, st: &mut [Stage], i: usize, x: Value, sink: &mut Sink) -> Result<bool, Ctl> {
    let Some(stage) = st.get_mut(i) else { return sink(interp, x) };
    interp.charge(1)?;
    let f = stage.arg.clone();
    match stage.step {
        Step::Map => {
            let y = interp.call_n(&f, [x])?;
            feed(interp, st, i + 1, y, sink)
        }
        Step::Filter | Step::Remove => {
            let keep = interp.call_n(&f, [x.clone()])?.is_truthy() == (stage.step == Step::Filter);
            if keep {
                feed(interp, st, i + 1, x, sink)
            } else {
                Ok(true)
            }
        }
        Step::Keep => match interp.call_n(&f, [x])? {
            Value::Nil => Ok(true),
            y => feed(interp, st, i + 1, y, sink),
        },
        Step::MapIndexed | Step::KeepIndexed => {
            let n = stage.count;
            stage.count += 1;
            match interp.call_n(&f, [Value::Int(n), x])? {
                Value::Nil if stage.step == Step::KeepIndexed => Ok(true),
                y => feed(interp, st, i + 1, y, sink),
            }
        }
        Step::Mapcat | Step::Cat => {
            let ys = if stage.step == Step::Mapcat { interp.call_n(&f, [x])? } else { x };
            for y in items(&ys, stage_name(st, i))?.iter() {
                if !feed(interp, st, i + 1, y.clone(), sink)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Step::Take => {
            let n = super::int_arg("take", &f)?;
            if stage.count >= n {
                return Ok(false);
            }
            stage.count += 1;
            let more = stage.count < n;
            Ok(feed(interp, st, i + 1, x, sink)? && more)
        }
        Step::Drop => {
            if stage.count < super::int_arg("drop", &f)? {
                stage.count += 1;
                return Ok(true);
            }
            feed(interp, st, i + 1, x, sink)
        }
        Step::TakeNth => {
            let n = super::int_arg("take-nth", &f)?.max(1);
            let at = stage.count;
            stage.count += 1;
            if at % n == 0 {
                feed(interp, st, i + 1, x, sink)
            } else {
                Ok(true)
            }
        }
        Step::TakeWhile => {
            if stage.flag || !interp.call_n(&f, [x.clone()])?.is_truthy() {
                st[i].flag = true;
                return Ok(false);
            }
            feed(interp, st, i + 1, x, sink)
        }
        Step::DropWhile => {
            if stage.flag && interp.call_n(&f, [x.clone()])?.is_truthy() {
                return Ok(true);
            }
            st[i].flag = false;
            feed(interp, st, i + 1, x, sink)
        }
        Step::Distinct => {
            if !stage.seen.insert(x.clone()) {
                return Ok(true);
            }
            interp.check_len(stage.seen.len())?;
            feed(interp, st, i + 1, x, sink)
        }
        Step::Dedupe => {
            if stage.prev.as_ref() == Some(&x) {
                return Ok(true);
            }
            stage.prev = Some(x.clone());
            feed(interp, st, i + 1, x, sink)
        }
        Step::PartitionAll => {
            let n = super::int_arg("partition-all", &f)?.max(1) as usize;
            stage.buf.push(interp.nested(x)?);
            interp.check_len(stage.buf.len())?;
            if stage.buf.len() < n {
                return Ok(true);
            }
            let chunk = std::mem::take(&mut stage.buf);
            feed(interp, st, i + 1, vector(chunk), sink)
        }
        Step::PartitionBy => {
            let key = interp.call_n(&f, [x.clone()])?;
            let stage = &mut st[i];
            let same = stage.prev.as_ref().is_none_or(|p| *p == key);
            stage.prev = Some(key);
            if same {
                stage.buf.push(interp.nested(x)?);
                interp.check_len(stage.buf.len())?;
                return Ok(true);
            }
            let chunk = std::mem::replace(&mut stage.buf, vec![interp.nested(x)?]);
            feed(interp, st, i + 1, vector(chunk), sink)
        }
        Step::Interpose => {
            let started = stage.count > 0;
            stage.count = 1;
            if started && !feed(interp, st, i + 1, f, sink)? {
                return Ok(false);
            }
            feed(interp, st, i + 1, x, sink)
        }
    }
}

fn stage_name(st: &[Stage], i: usize) -> &'static str {
    st[i].step.name()
}

/// The elements `xf` makes of `coll`, collected.
fn collect(interp: &mut Interp, xf: &Value, coll: &Value, who: &str) -> Result<Vec<Value>, Ctl> {
    let mut out = Vec::new();
    run(interp, xf, coll, who, &mut |interp: &mut Interp, y: Value| {
        out.push(interp.nested(y)?);
        interp.check_len(out.len())?;
        Ok(true)
    })?;
    Ok(out)
}

/// `(into to xf from)`.
pub(crate) fn into_with(interp: &mut Interp, to: Value, xf: &Value, from: &Value) -> R {
    let mut acc = Some(to);
    run(interp, xf, from, "into", &mut |interp: &mut Interp, y: Value| {
        let a = acc.take().expect("put back after each element");
        acc = Some(conj_one(interp, a, y)?);
        Ok(true)
    })?;
    Ok(acc.expect("put back after each element"))
}

/// `(transduce xf f coll)`, `(transduce xf f init coll)`: reduces with `f`,
/// starting from `init` or `(f)`, and ends with `(f result)` as Clojure does.
fn transduce(interp: &mut Interp, args: &mut [Value]) -> R {
    let xf = take(args, 0);
    let f = take(args, 1);
    let (init, coll) = match args.len() {
        3 => (interp.apply(&f, Vec::new())?, take(args, 2)),
        _ => (take(args, 2), take(args, 3)),
    };
    let mut acc = Some(init);
    // `(reduced x)` ends the reduction with `x` (nothing a stage still
    // holds back is fed after it), then `(f x)` completes it.
    let mut ended = false;
    run(interp, &xf, &coll, "transduce", &mut |interp: &mut Interp, y: Value| {
        if ended {
            return Ok(false);
        }
        let a = acc.take().expect("put back after each element");
        let next;
        (next, ended) = super::seq::reduce_step(interp.call_n(&f, [a, y]))?;
        acc = Some(next);
        Ok(!ended)
    })?;
    let acc = acc.expect("put back after each element");
    interp.call_n(&f, [acc])
}

/// `(sequence coll)` or `(sequence xf coll)`.
fn sequence(interp: &mut Interp, args: &mut [Value]) -> R {
    match args {
        [coll] => Ok(list(items(coll, "sequence")?.into_owned())),
        [xf, coll] => Ok(list(collect(interp, xf, coll, "sequence")?)),
        _ => unreachable!("arity checked by the table"),
    }
}

/// `(eduction xf* coll)`: the transducers composed, run at once.
fn eduction(interp: &mut Interp, args: &mut [Value]) -> R {
    let (coll, xfs) = args.split_last_mut().expect("at least one argument");
    let xf = super::seq::native("comp", NativeKind::Comp, xfs.iter_mut().map(std::mem::take).collect());
    Ok(list(collect(interp, &xf, coll, "eduction")?))
}

/// `(take-nth n coll)`: every nth element from the first; `(take-nth n)`: its transducer.
fn take_nth(interp: &mut Interp, args: &mut [Value]) -> R {
    let xf = make(Step::TakeNth, &mut args[..1])?;
    match args {
        [_, coll] => Ok(list(collect(interp, &xf, coll, "take-nth")?)),
        _ => Ok(xf),
    }
}

/// `(completing f)`, `(completing f cf)`: `f` for steps, `cf` (default
/// identity) for the final call `transduce` makes.
fn completing(_: &mut Interp, args: &mut [Value]) -> R {
    for a in args.iter() {
        if !is_fn(a) {
            return Err(type_err("completing", "functions", a));
        }
    }
    Ok(super::seq::native("completing", NativeKind::Completing, args.iter_mut().map(std::mem::take).collect()))
}

#[cfg(test)]
mod tests {
    use crate::{run_program, ErrorKind, Exit, Limits, Memory, NoTools};

    fn run(src: &str, limits: &Limits) -> Result<String, (ErrorKind, String)> {
        match run_program(src, &Memory::new(), &Default::default(), &mut NoTools, limits).result {
            Ok(Exit::Value(v)) => Ok(v.to_string()),
            Ok(other) => panic!("{src}: {other:?}"),
            Err(e) => Err((e.kind, e.message)),
        }
    }

    fn ok(src: &str) -> String {
        run(src, &Limits::default()).unwrap_or_else(|e| panic!("{src}: {e:?}"))
    }

    #[test]
    fn take_stops_the_source_so_only_what_is_needed_is_computed() {
        // 3 calls of the mapping function, not 1000: the step limit would stop the full run.
        let limits = Limits { max_steps: 2_000, ..Limits::default() };
        let src = "(into [] (comp (map inc) (take 3)) (range 100000))";
        assert_eq!(run(src, &Limits::default()), Ok("[1 2 3]".to_string()));
        assert_eq!(run("(into [] (comp (map inc) (take 3)) [1 2 3 4 5 6 7 8 9])", &limits), Ok("[2 3 4]".into()));
        let all = run("(into [] (map inc) (vec (range 1500)))", &limits);
        assert_eq!(all.unwrap_err().0, ErrorKind::StepLimit);
    }

    #[test]
    fn what_is_collected_respects_the_size_limit() {
        let limits = Limits { max_collection_size: 10, ..Limits::default() };
        for src in [
            "(into [] (map inc) (range 5 20))",
            "(sequence (mapcat (fn [x] [x x x])) [1 2 3 4])",
            "(into [] (partition-all 20) (range 11))",
        ] {
            assert_eq!(run(src, &limits).unwrap_err().0, ErrorKind::SizeLimit, "{src}");
        }
    }

    #[test]
    fn a_transducer_is_not_called_directly_and_unknown_ones_are_named() {
        let (kind, msg) = run("((map inc) +)", &Limits::default()).unwrap_err();
        assert_eq!(kind, ErrorKind::Other);
        assert!(msg.contains("(map ...) with no collection is a transducer"), "{msg}");
        let (kind, msg) = run("(into [] (fn [rf] rf) [1])", &Limits::default()).unwrap_err();
        assert_eq!(kind, ErrorKind::Type);
        assert!(msg.contains("functions of a reducing function are not supported"), "{msg}");
        let (_, msg) = run("(map 5)", &Limits::default()).unwrap_err();
        assert!(msg.contains("map expects a function"), "{msg}");
        let (_, msg) = run("(take :x)", &Limits::default()).unwrap_err();
        assert!(msg.contains("take expects an integer"), "{msg}");
    }

    #[test]
    fn stages_flush_and_stop_in_clojure_order() {
        assert_eq!(ok("(into [] (comp (partition-all 2) (take 1)) [1 2 3])"), "[[1 2]]");
        assert_eq!(ok("(into [] (comp (take 3) (partition-by odd?)) [1 3 2 4 5])"), "[[1 3] [2]]");
        assert_eq!(ok("(transduce (comp (map inc) (take 2)) conj [5 6 7])"), "[6 7]");
        assert_eq!(ok("(into #{} (map abs) [-1 1 2])"), "#{1 2}");
        assert_eq!(ok("(into [] identity [1 2])"), "[1 2]");
        assert_eq!(ok("(eduction (take 2) (range 5))"), "(0 1)");
    }

    #[test]
    fn too_many_stages_is_an_error_not_a_deep_stack() {
        let (kind, msg) = run("(into [] (apply comp (repeat 100 (map inc))) [1])", &Limits::default()).unwrap_err();
        assert_eq!(kind, ErrorKind::SizeLimit);
        assert!(msg.contains("more than 64 transducers"), "{msg}");
        assert_eq!(ok("(into [] (apply comp (repeat 64 (map inc))) [1])"), "[65]");
    }
}
