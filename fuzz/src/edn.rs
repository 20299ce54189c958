//! EDN text: well-formed values from a grammar (every literal form the
//! reader knows, nested), then cut or spliced to reach the error paths.

use proptest::prelude::*;

/// One atom: numbers, strings, characters, keywords, symbols, literals,
/// tagged and reader forms, valid and not.
pub fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| format!("{x:?}")),
        prop::sample::select(vec![
            "nil",
            "true",
            "false",
            "0",
            "-0",
            "+7",
            "007",
            "1N",
            "1.5M",
            "1/2",
            "-3/4",
            "1e308",
            "1e309",
            "-1e-400",
            "1.",
            ".5",
            "0x1F",
            "9223372036854775808",
            "-9223372036854775809",
            "##Inf",
            "##-Inf",
            "##NaN",
            "\\a",
            "\\newline",
            "\\space",
            "\\u0041",
            "\\u00",
            "\\o777",
            "\\",
            ":a",
            ":a/b",
            "::a",
            ":",
            ":1",
            "a/b",
            "a/",
            "/",
            "foo?",
            "-",
            "+",
            "#inst \"2024-01-01\"",
            "#uuid \"0\"",
            "#_ 1",
            "#_",
            "#{}",
            "#{1 1}",
            "#\"re\"",
            "#foo 1",
            "^:m x",
            "'x",
            "`x",
            "~x",
            "@x",
            "#(inc %)",
            "\"\\b\\f\\t\\n\\r\\\"\\\\\"",
            "\"\\u00e9\"",
            "\"\\u12\"",
            "\"\\x\"",
            "\"open",
            "; comment\n1",
            "{:a}",
            "{:a 1 :a 2}",
            ",",
            "\u{feff}1",
        ])
        .prop_map(str::to_string),
        "\"[^\"\\\\]{0,12}\"",
        "[a-z*+!?<>=-][a-z0-9*+!?<>=./-]{0,8}",
        ":[a-z][a-z0-9./-]{0,8}",
    ]
}

/// A value: atoms inside lists, vectors, maps and sets, up to 8 levels.
pub fn value() -> impl Strategy<Value = String> {
    atom().prop_recursive(8, 64, 6, |inner| {
        (
            prop::sample::select(vec![("(", ")"), ("[", "]"), ("{", "}"), ("#{", "}")]),
            prop::collection::vec(inner, 0..6),
        )
            .prop_map(|((open, close), items)| format!("{open}{}{close}", items.join(" ")))
    })
}

/// EDN text: a value, deep nesting, a value with a cut or a splice, or
/// anything at all.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => value(),
        1 => (1usize..2000, prop::sample::select(vec!["[", "(", "{:a ", "#{"])).prop_map(|(n, open)| open.repeat(n)),
        2 => (value(), any::<prop::sample::Index>()).prop_map(|(v, at)| cut(&v, at)),
        2 => (value(), value(), any::<prop::sample::Index>()).prop_map(|(v, w, at)| {
            let at = char_boundary(&v, at);
            format!("{}{w}{}", &v[..at], &v[at..])
        }),
        1 => crate::any_text(80),
    ]
}

fn char_boundary(s: &str, at: prop::sample::Index) -> usize {
    let mut i = at.index(s.len() + 1);
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `s` cut at a character boundary.
pub fn cut(s: &str, at: prop::sample::Index) -> String {
    s[..char_boundary(s, at)].to_string()
}
