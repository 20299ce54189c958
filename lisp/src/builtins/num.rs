//! Numbers: arithmetic (overflow is an error), comparison, rounding.
//!
//! `/` of two integers that divide evenly is an integer, otherwise a float:
//! PTC-Lisp has no ratios (a deliberate difference from Clojure).

use super::{b, sort::compare_values, sort::java_compare, type_err, Builtin, VARIADIC};
use crate::error::ErrorKind;
use crate::eval::{fail, Ctl, Interp, R};
use crate::interp::preview;
use crate::value::Value;
use std::cmp::Ordering;

pub(crate) const BUILTINS: &[Builtin] = &[
    b("+", 0, VARIADIC, add),
    b("-", 1, VARIADIC, sub),
    b("*", 0, VARIADIC, mul),
    b("/", 1, VARIADIC, div),
    b("quot", 2, 2, quot),
    b("rem", 2, 2, rem),
    b("mod", 2, 2, modulo),
    b("inc", 1, 1, inc),
    b("dec", 1, 1, dec),
    b("abs", 1, 1, abs),
    b("min", 1, VARIADIC, min),
    b("max", 1, VARIADIC, max),
    b("=", 1, VARIADIC, eq),
    b("not=", 1, VARIADIC, not_eq),
    b("==", 1, VARIADIC, num_eq),
    b("<", 1, VARIADIC, lt),
    b(">", 1, VARIADIC, gt),
    b("<=", 1, VARIADIC, le),
    b(">=", 1, VARIADIC, ge),
    b("compare", 2, 2, compare),
    b("zero?", 1, 1, is_zero),
    b("pos?", 1, 1, is_pos),
    b("neg?", 1, 1, is_neg),
    b("even?", 1, 1, is_even),
    b("odd?", 1, 1, is_odd),
    b("int", 1, 1, |_, a| int("int", &a[0])),
    b("long", 1, 1, |_, a| int("long", &a[0])),
    b("double", 1, 1, double),
    b("float", 1, 1, double),
    b("round", 1, 1, round),
    b("floor", 1, 1, floor),
    b("ceil", 1, 1, ceil),
    b("sqrt", 1, 1, sqrt),
    b("pow", 2, 2, pow),
    b("log", 1, 1, log),
    b("exp", 1, 1, exp),
    // No big integers: the promoting forms overflow into an error like the others.
    b("+'", 0, VARIADIC, add),
    b("-'", 1, VARIADIC, sub),
    b("*'", 0, VARIADIC, mul),
    b("inc'", 1, 1, inc),
    b("dec'", 1, 1, dec),
    b("NaN?", 1, 1, is_nan),
    b("infinite?", 1, 1, is_infinite),
    b("bit-and", 2, VARIADIC, bit_and),
    b("bit-or", 2, VARIADIC, bit_or),
    b("bit-xor", 2, VARIADIC, bit_xor),
    b("bit-and-not", 2, VARIADIC, bit_and_not),
    b("bit-not", 1, 1, bit_not),
    b("bit-set", 2, 2, bit_set),
    b("bit-clear", 2, 2, bit_clear),
    b("bit-flip", 2, 2, bit_flip),
    b("bit-test", 2, 2, bit_test),
    b("bit-shift-left", 2, 2, bit_shift_left),
    b("bit-shift-right", 2, 2, bit_shift_right),
];

/// `clojure.math`'s functions that have no core twin (Clojure 1.11; `Math/`
/// gives Java's names for them too: `Math/toRadians`). Reached through
/// those namespaces only, as in Clojure, so the table names them
/// `math-NAME` ([`JAVA_MATH_NAMES`] for Java's). `sqrt`, `pow`, `log`, `exp`, `floor`,
/// `ceil` and `round` are core names already.
pub(crate) const MATH: &[Builtin] = &[
    b("math-sin", 1, 1, |_, a| float_fn("clojure.math/sin", a, f64::sin)),
    b("math-cos", 1, 1, |_, a| float_fn("clojure.math/cos", a, f64::cos)),
    b("math-tan", 1, 1, |_, a| float_fn("clojure.math/tan", a, f64::tan)),
    b("math-asin", 1, 1, |_, a| float_fn("clojure.math/asin", a, f64::asin)),
    b("math-acos", 1, 1, |_, a| float_fn("clojure.math/acos", a, f64::acos)),
    b("math-atan", 1, 1, |_, a| float_fn("clojure.math/atan", a, f64::atan)),
    b("math-sinh", 1, 1, |_, a| float_fn("clojure.math/sinh", a, f64::sinh)),
    b("math-cosh", 1, 1, |_, a| float_fn("clojure.math/cosh", a, f64::cosh)),
    b("math-tanh", 1, 1, |_, a| float_fn("clojure.math/tanh", a, f64::tanh)),
    b("math-log10", 1, 1, |_, a| float_fn("clojure.math/log10", a, f64::log10)),
    b("math-log1p", 1, 1, |_, a| float_fn("clojure.math/log1p", a, f64::ln_1p)),
    b("math-expm1", 1, 1, |_, a| float_fn("clojure.math/expm1", a, f64::exp_m1)),
    b("math-cbrt", 1, 1, |_, a| float_fn("clojure.math/cbrt", a, f64::cbrt)),
    b("math-rint", 1, 1, |_, a| float_fn("clojure.math/rint", a, f64::round_ties_even)),
    b("math-signum", 1, 1, |_, a| float_fn("clojure.math/signum", a, signum)),
    b("math-to-radians", 1, 1, |_, a| float_fn("clojure.math/to-radians", a, f64::to_radians)),
    b("math-to-degrees", 1, 1, |_, a| float_fn("clojure.math/to-degrees", a, f64::to_degrees)),
    b("math-atan2", 2, 2, |_, a| float_fn2("clojure.math/atan2", a, f64::atan2)),
    b("math-hypot", 2, 2, |_, a| float_fn2("clojure.math/hypot", a, f64::hypot)),
    b("math-floor-div", 2, 2, floor_div),
    b("math-floor-mod", 2, 2, floor_mod),
];

/// Java's names for [`MATH`]'s functions, as `Math/` calls them
/// (`Math/toRadians` is `clojure.math/to-radians`).
pub(crate) const JAVA_MATH_NAMES: &[(&str, &str)] =
    &[("toRadians", "to-radians"), ("toDegrees", "to-degrees"), ("floorDiv", "floor-div"), ("floorMod", "floor-mod")];

/// A number argument.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Num {
    I(i64),
    F(f64),
}

impl Num {
    pub fn of(who: &str, v: &Value) -> Result<Num, Ctl> {
        match v {
            Value::Int(i) => Ok(Num::I(*i)),
            Value::Float(x) => Ok(Num::F(*x)),
            other => Err(type_err(who, "a number", other)),
        }
    }

    /// A number to order (`<`, `max`, ...); a string gets the way to order
    /// strings, since models compare ISO timestamps with `<`.
    fn ordered(who: &str, v: &Value) -> Result<Num, Ctl> {
        match v {
            Value::Str(_) => Err(fail(
                ErrorKind::Type,
                format!(
                    "{who} expects a number, got {}; strings order with compare: (neg? (compare a b)) is a before b, \
                     ISO dates and times included (or read a number with parse-long or parse-double)",
                    preview(v)
                ),
            )),
            _ => Num::of(who, v),
        }
    }

    pub fn f(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(x) => x,
        }
    }

    pub fn value(self) -> Value {
        match self {
            Num::I(i) => Value::Int(i),
            Num::F(x) => Value::Float(x),
        }
    }
}

fn overflow(who: &str) -> Ctl {
    fail(ErrorKind::Other, format!("integer overflow in {who}; use a float (e.g. 1.0) for very large numbers"))
}

fn arith(who: &str, a: Num, b: Num, i: fn(i64, i64) -> Option<i64>, f: fn(f64, f64) -> f64) -> Result<Num, Ctl> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => i(x, y).map(Num::I).ok_or_else(|| overflow(who)),
        (x, y) => Ok(Num::F(f(x.f(), y.f()))),
    }
}

fn fold(who: &str, args: &[Value], init: Num, i: fn(i64, i64) -> Option<i64>, f: fn(f64, f64) -> f64) -> R {
    let mut acc = init;
    for a in args {
        acc = arith(who, acc, Num::of(who, a)?, i, f)?;
    }
    Ok(acc.value())
}

pub(crate) fn add(_: &mut Interp, args: &mut [Value]) -> R {
    if let [Value::Int(a), Value::Int(b)] = args {
        return a.checked_add(*b).map(Value::Int).ok_or_else(|| overflow("+"));
    }
    fold("+", args, Num::I(0), i64::checked_add, |a, b| a + b)
}

fn mul(_: &mut Interp, args: &mut [Value]) -> R {
    if let [Value::Int(a), Value::Int(b)] = args {
        return a.checked_mul(*b).map(Value::Int).ok_or_else(|| overflow("*"));
    }
    fold("*", args, Num::I(1), i64::checked_mul, |a, b| a * b)
}

fn sub(_: &mut Interp, args: &mut [Value]) -> R {
    if let [Value::Int(a), Value::Int(b)] = args {
        return a.checked_sub(*b).map(Value::Int).ok_or_else(|| overflow("-"));
    }
    if let [x] = args {
        return match Num::of("-", x)? {
            Num::I(i) => i.checked_neg().map(Value::Int).ok_or_else(|| overflow("-")),
            Num::F(f) => Ok(Value::Float(-f)),
        };
    }
    let first = Num::of("-", &args[0])?;
    fold("-", &args[1..], first, i64::checked_sub, |a, b| a - b)
}

fn divide(a: Num, b: Num) -> Result<Num, Ctl> {
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(fail(ErrorKind::Other, "divide by zero")),
        (Num::I(x), Num::I(y)) if x % y == 0 => x.checked_div(y).map(Num::I).ok_or_else(|| overflow("/")),
        (x, y) => Ok(Num::F(x.f() / y.f())),
    }
}

fn div(_: &mut Interp, args: &mut [Value]) -> R {
    if let [x] = args {
        return divide(Num::I(1), Num::of("/", x)?).map(Num::value);
    }
    let mut acc = Num::of("/", &args[0])?;
    for a in &args[1..] {
        acc = divide(acc, Num::of("/", a)?)?;
    }
    Ok(acc.value())
}

fn int_pair(who: &str, args: &[Value]) -> Result<(Num, Num), Ctl> {
    let (a, b) = (Num::of(who, &args[0])?, Num::of(who, &args[1])?);
    if let Num::I(0) = b {
        if let Num::I(_) = a {
            return Err(fail(ErrorKind::Other, format!("divide by zero in {who}")));
        }
    }
    Ok((a, b))
}

fn quot(_: &mut Interp, args: &mut [Value]) -> R {
    let (a, b) = int_pair("quot", args)?;
    Ok(match (a, b) {
        (Num::I(x), Num::I(y)) => Value::Int(x.checked_div(y).ok_or_else(|| overflow("quot"))?),
        (x, y) => Value::Float((x.f() / y.f()).trunc()),
    })
}

fn rem(_: &mut Interp, args: &mut [Value]) -> R {
    let (a, b) = int_pair("rem", args)?;
    Ok(match (a, b) {
        (Num::I(x), Num::I(y)) => Value::Int(x.checked_rem(y).unwrap_or(0)),
        (x, y) => Value::Float(x.f() % y.f()),
    })
}

fn modulo(_: &mut Interp, args: &mut [Value]) -> R {
    let (a, b) = int_pair("mod", args)?;
    Ok(match (a, b) {
        (Num::I(x), Num::I(y)) => {
            let m = x.checked_rem(y).unwrap_or(0);
            Value::Int(if m != 0 && ((m < 0) != (y < 0)) { m + y } else { m })
        }
        (x, y) => {
            let (x, y) = (x.f(), y.f());
            let m = x % y;
            Value::Float(if m != 0.0 && ((m < 0.0) != (y < 0.0)) { m + y } else { m })
        }
    })
}

fn inc(_: &mut Interp, args: &mut [Value]) -> R {
    arith("inc", Num::of("inc", &args[0])?, Num::I(1), i64::checked_add, |a, b| a + b).map(Num::value)
}

fn dec(_: &mut Interp, args: &mut [Value]) -> R {
    arith("dec", Num::of("dec", &args[0])?, Num::I(1), i64::checked_sub, |a, b| a - b).map(Num::value)
}

fn abs(_: &mut Interp, args: &mut [Value]) -> R {
    match Num::of("abs", &args[0])? {
        Num::I(i) => i.checked_abs().map(Value::Int).ok_or_else(|| overflow("abs")),
        Num::F(x) => Ok(Value::Float(x.abs())),
    }
}

fn num_cmp(who: &str, a: &Value, b: &Value) -> Result<Ordering, Ctl> {
    match (Num::ordered(who, a)?, Num::ordered(who, b)?) {
        (Num::I(x), Num::I(y)) => Ok(x.cmp(&y)),
        (x, y) => Ok(x.f().partial_cmp(&y.f()).unwrap_or(Ordering::Equal)),
    }
}

fn extreme(who: &str, args: &[Value], want: Ordering) -> R {
    let mut best = &args[0];
    Num::ordered(who, best)?;
    for a in &args[1..] {
        if let Value::Float(x) = a {
            if x.is_nan() {
                return Ok(a.clone());
            }
        }
        if num_cmp(who, a, best)? == want {
            best = a;
        }
    }
    Ok(best.clone())
}

fn min(_: &mut Interp, args: &mut [Value]) -> R {
    extreme("min", args, Ordering::Less)
}

fn max(_: &mut Interp, args: &mut [Value]) -> R {
    extreme("max", args, Ordering::Greater)
}

/// Clojure `=`: structural, an integer never equals a float, ##NaN equals nothing.
pub(crate) fn values_equal(a: &Value, b: &Value) -> bool {
    if let (Value::Float(x), _) | (_, Value::Float(x)) = (a, b) {
        if x.is_nan() {
            return false;
        }
    }
    a == b
}

fn eq(_: &mut Interp, args: &mut [Value]) -> R {
    if let [a @ (Value::Int(_) | Value::Keyword(_) | Value::Str(_)), b] = args {
        return Ok(Value::Bool(a == b));
    }
    Ok(Value::Bool(args.windows(2).all(|w| values_equal(&w[0], &w[1]))))
}

fn not_eq(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Bool(!args.windows(2).all(|w| values_equal(&w[0], &w[1]))))
}

fn chain(who: &str, args: &[Value], ok: fn(Ordering) -> bool) -> R {
    if let [a] = args {
        Num::ordered(who, a)?;
    }
    for w in args.windows(2) {
        let nan = matches!((&w[0], &w[1]), (Value::Float(x), _) | (_, Value::Float(x)) if x.is_nan());
        if nan || !ok(num_cmp(who, &w[0], &w[1])?) {
            // Keep type-checking the rest, as Clojure would fail on them too.
            for v in args {
                Num::ordered(who, v)?;
            }
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn num_eq(_: &mut Interp, args: &mut [Value]) -> R {
    chain("==", args, |o| o == Ordering::Equal)
}

pub(crate) fn lt(_: &mut Interp, args: &mut [Value]) -> R {
    if let [Value::Int(a), Value::Int(b)] = args {
        return Ok(Value::Bool(a < b));
    }
    chain("<", args, |o| o == Ordering::Less)
}

fn gt(_: &mut Interp, args: &mut [Value]) -> R {
    if let [Value::Int(a), Value::Int(b)] = args {
        return Ok(Value::Bool(a > b));
    }
    chain(">", args, |o| o == Ordering::Greater)
}

fn le(_: &mut Interp, args: &mut [Value]) -> R {
    chain("<=", args, |o| o != Ordering::Greater)
}

fn ge(_: &mut Interp, args: &mut [Value]) -> R {
    chain(">=", args, |o| o != Ordering::Less)
}

fn compare(_: &mut Interp, args: &mut [Value]) -> R {
    let o = compare_values(&args[0], &args[1])?;
    // Strings and keywords compare like Java's compareTo: the difference, not just the sign.
    if let (Value::Str(a), Value::Str(b)) | (Value::Keyword(a), Value::Keyword(b)) = (&args[0], &args[1]) {
        return Ok(Value::Int(java_compare(a, b)));
    }
    Ok(Value::Int(o as i64))
}

fn sign_test(who: &str, v: &Value, f: fn(f64) -> bool) -> R {
    Ok(Value::Bool(f(Num::of(who, v)?.f())))
}

fn is_zero(_: &mut Interp, args: &mut [Value]) -> R {
    sign_test("zero?", &args[0], |x| x == 0.0)
}

fn is_pos(_: &mut Interp, args: &mut [Value]) -> R {
    sign_test("pos?", &args[0], |x| x > 0.0)
}

fn is_neg(_: &mut Interp, args: &mut [Value]) -> R {
    sign_test("neg?", &args[0], |x| x < 0.0)
}

fn parity(who: &str, v: &Value) -> Result<i64, Ctl> {
    match v {
        Value::Int(i) => Ok(i.rem_euclid(2)),
        other => Err(type_err(who, "an integer", other)),
    }
}

pub(crate) fn is_odd(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Bool(parity("odd?", &args[0])? == 1))
}

fn is_even(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Bool(parity("even?", &args[0])? == 0))
}

fn float_to_int(who: &str, x: f64) -> R {
    if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&x) {
        return Err(fail(ErrorKind::Other, format!("{who}: {x} does not fit in an integer")));
    }
    Ok(Value::Int(x as i64))
}

/// `(int x)`, `(long x)`: a number truncated to an integer. Text is a
/// type error that names the parsers (`(long "5")` is Java's cast, which
/// models often mean as parsing).
fn int(who: &str, x: &Value) -> R {
    if let Value::Str(_) = x {
        return Err(type_err(who, "a number (text is read with parse-long or parse-double)", x));
    }
    match Num::of(who, x)? {
        Num::I(i) => Ok(Value::Int(i)),
        Num::F(x) => float_to_int(who, x.trunc()),
    }
}

fn double(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Float(Num::of("double", &args[0])?.f()))
}

fn round(_: &mut Interp, args: &mut [Value]) -> R {
    match Num::of("round", &args[0])? {
        Num::I(i) => Ok(Value::Int(i)),
        Num::F(x) => float_to_int("round", (x + 0.5).floor()),
    }
}

fn float_fn(who: &str, args: &[Value], f: fn(f64) -> f64) -> R {
    Ok(Value::Float(f(Num::of(who, &args[0])?.f())))
}

fn float_fn2(who: &str, args: &[Value], f: fn(f64, f64) -> f64) -> R {
    Ok(Value::Float(f(Num::of(who, &args[0])?.f(), Num::of(who, &args[1])?.f())))
}

/// Java's `Math.signum`: the sign as a double, a zero or NaN as it is.
fn signum(x: f64) -> f64 {
    if x == 0.0 || x.is_nan() {
        x
    } else {
        x.signum()
    }
}

/// Java's `Math.floorDiv` of two integers: the quotient rounded down.
fn floor_div_of(who: &str, args: &[Value]) -> Result<(i64, i64, i64), Ctl> {
    let (x, y) = (long_arg(who, &args[0])?, long_arg(who, &args[1])?);
    if y == 0 {
        return Err(fail(ErrorKind::Other, format!("divide by zero in {who}")));
    }
    let q = x.checked_div(y).ok_or_else(|| overflow(who))?;
    Ok((x, y, if x % y != 0 && (x < 0) != (y < 0) { q - 1 } else { q }))
}

fn floor_div(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Int(floor_div_of("clojure.math/floor-div", args)?.2))
}

fn floor_mod(_: &mut Interp, args: &mut [Value]) -> R {
    let (x, y, q) = floor_div_of("clojure.math/floor-mod", args)?;
    Ok(Value::Int(x - q * y))
}

fn floor(_: &mut Interp, args: &mut [Value]) -> R {
    float_fn("floor", args, f64::floor)
}

fn ceil(_: &mut Interp, args: &mut [Value]) -> R {
    float_fn("ceil", args, f64::ceil)
}

fn sqrt(_: &mut Interp, args: &mut [Value]) -> R {
    float_fn("sqrt", args, f64::sqrt)
}

fn log(_: &mut Interp, args: &mut [Value]) -> R {
    float_fn("log", args, f64::ln)
}

fn exp(_: &mut Interp, args: &mut [Value]) -> R {
    float_fn("exp", args, f64::exp)
}

fn pow(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Float(Num::of("pow", &args[0])?.f().powf(Num::of("pow", &args[1])?.f())))
}

fn is_nan(_: &mut Interp, args: &mut [Value]) -> R {
    sign_test("NaN?", &args[0], f64::is_nan)
}

fn is_infinite(_: &mut Interp, args: &mut [Value]) -> R {
    sign_test("infinite?", &args[0], f64::is_infinite)
}

fn long_arg(who: &str, v: &Value) -> Result<i64, Ctl> {
    match v {
        Value::Int(i) => Ok(*i),
        other => Err(type_err(who, "an integer", other)),
    }
}

fn bit_fold(who: &str, args: &[Value], f: fn(i64, i64) -> i64) -> R {
    let mut acc = long_arg(who, &args[0])?;
    for a in &args[1..] {
        acc = f(acc, long_arg(who, a)?);
    }
    Ok(Value::Int(acc))
}

fn bit_and(_: &mut Interp, args: &mut [Value]) -> R {
    bit_fold("bit-and", args, |a, b| a & b)
}

fn bit_or(_: &mut Interp, args: &mut [Value]) -> R {
    bit_fold("bit-or", args, |a, b| a | b)
}

fn bit_xor(_: &mut Interp, args: &mut [Value]) -> R {
    bit_fold("bit-xor", args, |a, b| a ^ b)
}

fn bit_and_not(_: &mut Interp, args: &mut [Value]) -> R {
    bit_fold("bit-and-not", args, |a, b| a & !b)
}

fn bit_not(_: &mut Interp, args: &mut [Value]) -> R {
    Ok(Value::Int(!long_arg("bit-not", &args[0])?))
}

/// `(op x n)` with the bit index taken modulo 64, as the JVM does.
fn bit_at(who: &str, args: &[Value], f: fn(i64, u32) -> Value) -> R {
    let x = long_arg(who, &args[0])?;
    let n = long_arg(who, &args[1])?;
    Ok(f(x, (n & 63) as u32))
}

fn bit_set(_: &mut Interp, args: &mut [Value]) -> R {
    bit_at("bit-set", args, |x, n| Value::Int(x | (1 << n)))
}

fn bit_clear(_: &mut Interp, args: &mut [Value]) -> R {
    bit_at("bit-clear", args, |x, n| Value::Int(x & !(1 << n)))
}

fn bit_flip(_: &mut Interp, args: &mut [Value]) -> R {
    bit_at("bit-flip", args, |x, n| Value::Int(x ^ (1 << n)))
}

fn bit_test(_: &mut Interp, args: &mut [Value]) -> R {
    bit_at("bit-test", args, |x, n| Value::Bool(x & (1 << n) != 0))
}

fn bit_shift_left(_: &mut Interp, args: &mut [Value]) -> R {
    bit_at("bit-shift-left", args, |x, n| Value::Int(x.wrapping_shl(n)))
}

fn bit_shift_right(_: &mut Interp, args: &mut [Value]) -> R {
    bit_at("bit-shift-right", args, |x, n| Value::Int(x >> n))
}
