use super::*;
use crate::{same_name, Signature};

/// A small value model standing in for PTC-Lisp values and JSON.
#[derive(Debug, Clone)]
enum V {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Kw(String),
    Vec(Vec<V>),
    Map(Vec<(String, V)>),
}

impl<'a> Shape<'a> for &'a V {
    fn kind(self) -> Kind<'a> {
        match self {
            V::Nil => Kind::Nil,
            V::Bool(_) => Kind::Bool,
            V::Int(_) => Kind::Int,
            V::Float(x) => Kind::Float(*x),
            V::Str(s) => Kind::Str(s),
            V::Kw(_) => Kind::Keyword,
            V::Vec(_) => Kind::List("vector"),
            V::Map(_) => Kind::Map,
        }
    }
    fn items(self) -> Vec<Self> {
        match self {
            V::Vec(items) => items.iter().collect(),
            _ => Vec::new(),
        }
    }
    fn field(self, name: &str) -> Option<Self> {
        match self {
            V::Map(entries) => entries.iter().find(|(k, _)| same_name(name, k)).map(|(_, v)| v),
            _ => None,
        }
    }
    fn sample(self) -> String {
        match self {
            V::Str(s) => format!("{s:?}"),
            V::Int(i) => i.to_string(),
            V::Float(x) => x.to_string(),
            V::Bool(b) => b.to_string(),
            V::Kw(k) => format!(":{k}"),
            other => format!("{other:?}").chars().take(20).collect(),
        }
    }
}

/// JSON-like: strings may stand for keywords.
#[derive(Clone, Copy)]
struct Json<'a>(&'a V);

impl<'a> Shape<'a> for Json<'a> {
    const KEYWORDS_AS_STRINGS: bool = true;
    fn kind(self) -> Kind<'a> {
        self.0.kind()
    }
    fn items(self) -> Vec<Self> {
        self.0.items().into_iter().map(Json).collect()
    }
    fn field(self, name: &str) -> Option<Self> {
        self.0.field(name).map(Json)
    }
    fn sample(self) -> String {
        self.0.sample()
    }
}

fn map(entries: &[(&str, V)]) -> V {
    V::Map(entries.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}

fn s(text: &str) -> V {
    V::Str(text.into())
}

fn ty(text: &str) -> Type {
    Signature::parse(text).unwrap().output
}

fn mismatch(value: &V, text: &str) -> String {
    check(value, &ty(text)).expect_err(text).to_string()
}

#[test]
fn primitives_are_strict_with_the_documented_admissions() {
    let ok = [
        (s("a"), ":string"),
        (V::Int(3), ":int"),
        (V::Int(3), ":float"),
        (V::Float(2.5), ":float"),
        (V::Bool(false), ":bool"),
        (V::Kw("open".into()), ":keyword"),
        (s("2024-05-01T09:30:00Z"), ":datetime"),
        (s("2024-05-01T09:30:00.125+02:00"), ":datetime"),
        (map(&[]), ":map"),
        (V::Nil, ":any"),
        (V::Vec(vec![]), ":any"),
    ];
    for (value, t) in &ok {
        assert_eq!(check(value, &ty(t)), Ok(()), "{value:?} {t}");
    }
    assert_eq!(mismatch(&s("7"), ":int"), "at $: expected :int, got string \"7\"");
    assert_eq!(mismatch(&V::Float(7.0), ":int"), "at $: expected :int, got float 7");
    assert_eq!(mismatch(&V::Float(f64::NAN), ":float"), "at $: expected :float, got non-finite float NaN");
    assert_eq!(mismatch(&V::Int(1), ":bool"), "at $: expected :bool, got int 1");
    assert_eq!(mismatch(&V::Nil, ":string"), "at $: expected :string, got nil");
    assert_eq!(mismatch(&s("open"), ":keyword"), "at $: expected :keyword, got string \"open\"");
    assert_eq!(mismatch(&V::Vec(vec![]), ":map"), "at $: expected :map, got vector Vec([])");
    for bad in ["2024-05-01", "2024-05-01T09:30:00", "2024-13-01T09:30:00Z", "2024-05-01T09:30:00+2:00", "yesterday"] {
        assert!(check(&s(bad), &ty(":datetime")).is_err(), "{bad}");
    }
}

#[test]
fn strings_stand_for_keywords_only_across_json() {
    assert_eq!(check(Json(&s("open")), &ty(":keyword")), Ok(()));
    assert!(check(Json(&s("not a keyword")), &ty(":keyword")).is_err());
    assert!(check(Json(&s("")), &ty(":keyword")).is_err());
}

#[test]
fn nested_maps_and_lists_report_the_first_mismatch_with_its_path() {
    let t = "{count :int, items [{id :int, title :string, tags [:string]}]}";
    let item = |id: V, tags: Vec<V>| map(&[("id", id), ("title", s("t")), ("tags", V::Vec(tags))]);
    let good =
        map(&[("count", V::Int(2)), ("items", V::Vec(vec![item(V::Int(1), vec![]), item(V::Int(2), vec![s("x")])]))]);
    assert_eq!(check(&good, &ty(t)), Ok(()));

    let bad_id = map(&[("count", V::Int(2)), ("items", V::Vec(vec![item(V::Int(1), vec![]), item(s("2"), vec![])]))]);
    assert_eq!(mismatch(&bad_id, t), "at $.items[1].id: expected :int, got string \"2\"");

    let bad_tag = map(&[("count", V::Int(1)), ("items", V::Vec(vec![item(V::Int(1), vec![s("a"), V::Int(9)])]))]);
    let m = check(&bad_tag, &ty(t)).unwrap_err();
    assert_eq!(
        m.path,
        [Segment::Field("items".into()), Segment::Index(0), Segment::Field("tags".into()), Segment::Index(1)]
    );
    assert_eq!(m.location(), "$.items[0].tags[1]");
    assert_eq!(m.location_under("args"), "args.items[0].tags[1]");

    // The first field in declaration order is reported first.
    let both = map(&[("items", V::Int(0)), ("count", s("x"))]);
    assert_eq!(mismatch(&both, t), "at $.count: expected :int, got string \"x\"");
    // A list where a map is expected names the whole expected type.
    assert_eq!(
        mismatch(&map(&[("count", V::Int(0)), ("items", map(&[]))]), t),
        "at $.items: expected [{id :int, title :string, tags [:string]}], got map Map([])"
    );
}

#[test]
fn missing_fields_are_named_and_extra_fields_allowed() {
    let t = "{id :int, name :string}";
    let m = check(&map(&[("id", V::Int(1))]), &ty(t)).unwrap_err();
    assert_eq!((m.location(), m.actual.clone()), ("$.name".to_string(), None));
    assert_eq!(m.to_string(), "at $.name: missing (expected :string)");
    assert_eq!(check(&map(&[("id", V::Int(1)), ("name", s("a")), ("extra", V::Nil)]), &ty(t)), Ok(()));
}

#[test]
fn optional_means_nil_or_absent_and_nullable_inner_types() {
    let t = "{id :int, email :string?, tags [:string?]?}";
    for value in [
        map(&[("id", V::Int(1))]),
        map(&[("id", V::Int(1)), ("email", V::Nil), ("tags", V::Nil)]),
        map(&[("id", V::Int(1)), ("email", s("a@b")), ("tags", V::Vec(vec![s("x"), V::Nil]))]),
    ] {
        assert_eq!(check(&value, &ty(t)), Ok(()), "{value:?}");
    }
    assert_eq!(
        mismatch(&map(&[("id", V::Int(1)), ("email", V::Int(3))]), t),
        "at $.email: expected :string, got int 3"
    );
    // nil is not absence for a required field; :any takes nil but must be present.
    assert_eq!(mismatch(&map(&[("id", V::Nil)]), t), "at $.id: expected :int, got nil");
    assert_eq!(mismatch(&map(&[]), "{x :any}"), "at $.x: missing (expected :any)");
    assert_eq!(check(&map(&[("x", V::Nil)]), &ty("{x :any}")), Ok(()));
    // An optional top-level type.
    assert_eq!(check(&V::Nil, &ty("[:int]?")), Ok(()));
    assert_eq!(mismatch(&V::Nil, "[:int]"), "at $: expected [:int], got nil");
}

#[test]
fn fields_match_in_any_spelling() {
    let t = "{order_count :int, isActive :bool}";
    let value = map(&[("order-count", V::Int(5)), ("is-active", V::Bool(true))]);
    assert_eq!(check(&value, &ty(t)), Ok(()));
    let wrong = map(&[("order-count", s("5")), ("is-active", V::Bool(true))]);
    assert_eq!(
        mismatch(&wrong, t),
        "at $.order_count: expected :int, got string \"5\"",
        "the path uses the declared name"
    );
}

#[test]
fn long_expected_types_are_cut() {
    let fields: Vec<String> = (0..20).map(|i| format!("f{i} :int")).collect();
    let t = format!("{{{}}}", fields.join(", "));
    let m = check(&V::Int(1), &ty(&t)).unwrap_err();
    assert!(m.expected.ends_with("...") && m.expected.chars().count() == 80, "{}", m.expected);
}
