//! The EDN contract the host relies on: `read_edn(v.to_string()) == v` for
//! every value that is not a function, checked on random values.

mod common;
use common::Rng;
use ptc_lisp::{read_edn, Value};

const STRINGS: &[&str] =
    &["", "a", "hé", "q\"uote", "back\\slash", "new\nline", "tab\t", "日本", "nil", ":kw", "\u{1}"];
const FLOATS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    0.1,
    -2.5,
    1e20,
    1.5e-5,
    12345678.9,
    1e-300,
    f64::MAX,
    f64::MIN_POSITIVE,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    let pick = if depth == 0 { rng.below(6) } else { rng.below(10) };
    match pick {
        0 => Value::Nil,
        1 => Value::Bool(rng.below(2) == 0),
        2 => Value::Int(match rng.below(4) {
            0 => i64::MIN,
            1 => i64::MAX,
            _ => rng.next() as i64 >> rng.below(63),
        }),
        3 => Value::Float(if rng.below(2) == 0 {
            FLOATS[rng.below(FLOATS.len())]
        } else {
            f64::from_bits(rng.next()).clamp(-1e300, 1e300)
        }),
        4 => Value::str(STRINGS[rng.below(STRINGS.len())]),
        5 => Value::keyword(["a", "b-c", "ns/name", "x?", "y!"][rng.below(5)]),
        6 => Value::vector((0..rng.below(5)).map(|_| random_value(rng, depth - 1)).collect()),
        7 => Value::List((0..rng.below(5)).map(|_| random_value(rng, depth - 1)).collect::<Vec<_>>().into()),
        8 => Value::Set((0..rng.below(5)).map(|_| random_value(rng, depth - 1)).collect()),
        _ => Value::map((0..rng.below(5)).map(|_| (random_value(rng, depth - 1), random_value(rng, depth - 1)))),
    }
}

#[test]
fn printed_values_read_back_equal() {
    let mut rng = Rng(0x0edc_0ffe_e000_0001);
    for _ in 0..20_000 {
        let v = random_value(&mut rng, 4);
        let text = v.to_string();
        let back = read_edn(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, v, "{text}");
        assert_eq!(back.to_string(), text);
    }
}

#[test]
fn nan_round_trips_as_nan() {
    let v = read_edn(&Value::Float(f64::NAN).to_string()).unwrap();
    assert!(matches!(v, Value::Float(x) if x.is_nan()));
}

#[test]
fn functions_print_and_read_back_as_descriptions() {
    let v = read_edn("[#fn[total [xs & more]] #fn[anonymous]]").unwrap();
    assert_eq!(v.to_string(), "[#fn[total] #fn[anonymous]]");
    let Value::Vector(items) = &v else { panic!() };
    let Value::Fn(f) = &items[0] else { panic!() };
    assert_eq!(f.desc.params.len(), 1);
    assert_eq!(f.desc.variadic.as_deref(), Some("more"));
    assert!(!f.is_callable());
}

/// Found by the EDN fuzz target (`ptc-fuzz`): `:::a` read as a keyword
/// named `:a`, which printed as `::a` and read back as `:a`.
#[test]
fn three_leading_colons_are_not_a_keyword() {
    let err = read_edn("(:::aaa0aa)").unwrap_err();
    assert!(err.message.contains("invalid keyword `:::aaa0aa`"), "{err}");
    let auto = read_edn("::a").unwrap();
    assert_eq!(read_edn(&auto.to_string()).unwrap(), auto);
}
