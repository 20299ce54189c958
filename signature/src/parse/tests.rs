use crate::{Field, ParseError, Primitive, Signature, Type};

fn int() -> Type {
    Type::Primitive(Primitive::Int)
}

fn string() -> Type {
    Type::Primitive(Primitive::String)
}

fn field(name: &str, ty: Type) -> Field {
    Field { name: name.into(), ty }
}

fn err(text: &str) -> ParseError {
    Signature::parse(text).expect_err(text)
}

#[test]
fn the_documented_forms_parse() {
    let sig = Signature::parse("(query :string, limit :int) -> {count :int, items [{id :int}]}").unwrap();
    assert_eq!(sig.params, [field("query", string()), field("limit", int())]);
    assert_eq!(
        sig.output,
        Type::Map(vec![
            field("count", int()),
            field("items", Type::List(Box::new(Type::Map(vec![field("id", int())]))))
        ])
    );
    // Output only, with and without the arrow and the empty inputs.
    let only = Signature::parse("{name :string, price :float}").unwrap();
    assert!(only.params.is_empty());
    assert_eq!(Signature::parse("() -> {name :string, price :float}").unwrap(), only);
    assert_eq!(Signature::parse("-> {name :string, price :float}").unwrap(), only);
    // Every primitive.
    for p in Primitive::ALL {
        assert_eq!(Signature::parse(&format!(":{}", p.name())).unwrap().output, Type::Primitive(p));
    }
    // Optional types and fields, nested lists, empty typed maps.
    let sig =
        Signature::parse("(cursor :string?) -> {items [:any], next_cursor :string?, m {}, xs [[:int]]?}").unwrap();
    assert_eq!(sig.params[0].ty, Type::Optional(Box::new(string())));
    assert_eq!(
        sig.output.to_string(),
        "{items [:any], next_cursor :string?, m {}, xs [[:int]]?}",
        "prints back as written"
    );
}

#[test]
fn lenient_spellings_read_the_same() {
    let canonical = Signature::parse("(id :int, name :string) -> {id :int, tags [:string]}").unwrap();
    for text in [
        "(id :int name :string) -> {id :int tags [:string]}",
        "( id  :int ,\n  name :string )\n  ->  {:id :int, :tags [ :string ]}",
        "(:id :int, :name :string) -> {id :int, tags [:string],}",
    ] {
        assert_eq!(Signature::parse(text).unwrap(), canonical, "{text}");
    }
}

#[test]
fn names_may_be_any_letters() {
    let sig = Signature::parse("(クエリ :string, max-days :int, weight_kg :int) -> [:string]").unwrap();
    let names: Vec<&str> = sig.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["クエリ", "max-days", "weight_kg"]);
    assert_eq!(sig.param("weight-kg").map(|p| p.name.as_str()), Some("weight_kg"));
}

#[test]
fn errors_point_at_the_column() {
    let cases: [(&str, usize, &str); 16] = [
        ("", 1, "empty signature"),
        ("(query :strin) -> :int", 8, "unknown type `:strin`"),
        ("(n :integer) -> :int", 4, "unknown type `:integer` (did you mean :int?)"),
        ("(query :string, limit) -> :int", 22, "expected a type for `limit`"),
        ("(query :string) :int", 17, "expected `->` and the output type after the inputs, found `:int`"),
        ("(query :string) ->", 19, "expected a type"),
        ("{id :int", 9, "expected `}` to close the fields, found the end"),
        ("[:int :string]", 7, "a list type holds one element type"),
        ("[]", 1, "a list type needs its element type"),
        ("[:int", 6, "expected `]` to close the list type, found the end"),
        ("{id int}", 5, "expected a type, found `int`: write it as `:int`"),
        ("(a :int, a :string) -> :int", 10, "input `a` is declared twice"),
        ("{order_count :int, order-count :int}", 20, "field `order-count` is declared twice (as `order_count`)"),
        (":int??", 6, "one `?` is enough"),
        (":int extra", 6, "unexpected `extra` after the output type"),
        ("(, :int) -> :int", 2, "expected an input name, found `,`"),
    ];
    for (text, column, start) in cases {
        let e = err(text);
        assert_eq!(e.column, column, "{text}: {e}");
        assert!(e.message.starts_with(start), "{text}: {}", e.message);
    }
}

#[test]
fn the_error_shows_a_caret_under_the_column() {
    let e = err("(query :string, limit) -> :int");
    assert_eq!(
        e.to_string(),
        "expected a type for `limit` (:string, :int, :float, :bool, :keyword, :datetime, :map, :any, [type] \
         or {field type, ...}), found `)` (column 22)\n    (query :string, limit) -> :int\n                         ^"
    );
    // Columns count characters, not bytes.
    let e = err("(クエリ :strin) -> :int");
    assert_eq!(e.column, 6);
    assert!(e.snippet().ends_with("\n         ^"), "{:?}", e.snippet());
}

#[test]
fn multi_line_signatures_name_the_line() {
    let e = err("(path :string) -> {\n  items [:string],\n  next :strng?\n}");
    assert_eq!((e.line, e.column), (3, 8));
    assert!(e.to_string().contains("(line 3, column 8)\n      next :strng?\n           ^"), "{e}");
}

#[test]
fn long_signatures_show_a_window_around_the_problem() {
    let fields: Vec<String> = (0..30).map(|i| format!("field_{i} :int")).collect();
    let text = format!("{{{}, bad :nope}}", fields.join(", "));
    let e = err(&text);
    let snippet = e.snippet();
    let (line, caret) = snippet.split_once('\n').unwrap();
    assert!(line.starts_with("    ...") && line.len() < 110, "{line}");
    let at = caret.find('^').unwrap();
    assert_eq!(&line[at..at + 5], ":nope", "the caret is under the problem");
}

#[test]
fn nesting_is_bounded() {
    let deep = format!("{}:int{}", "[".repeat(40), "]".repeat(40));
    assert!(err(&deep).message.starts_with("types nested more than 32 levels deep"));
    let ok = format!("{}:int{}", "[".repeat(31), "]".repeat(31));
    assert!(Signature::parse(&ok).is_ok());
}

#[test]
fn types_parse_alone_and_print_plain() {
    let ty = Type::parse("[{id :int, name :string?}]?").unwrap();
    assert_eq!(ty.plain(), "[{id int, name string?}]?");
    assert!(Type::parse("(a :int) -> :int").is_err());
    let sig = Signature::parse("(a :int, b [:string]?) -> :map").unwrap();
    assert_eq!(sig.to_string(), "(a :int, b [:string]?) -> :map");
    assert_eq!(Signature::parse("-> :int").unwrap().to_string(), ":int");
}

/// Every string of up to 4 characters over the grammar's alphabet, and
/// every one-character deletion, insertion and replacement of real
/// signatures: parsing never panics, and an error's column is inside the
/// text (or just past it).
#[test]
fn no_input_panics_and_errors_stay_inside_the_text() {
    const ALPHABET: [char; 14] = ['(', ')', '[', ']', '{', '}', ':', '?', ',', '-', '>', ' ', 'a', 'é'];
    let check = |text: &str| {
        if let Err(e) = Signature::parse(text) {
            let line = text.split('\n').nth(e.line - 1).expect("the line exists");
            assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{text:?}: {e:?}");
            assert!(text.is_char_boundary(e.offset));
            let _ = e.to_string();
        }
    };
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts.iter().flat_map(|t| ALPHABET.iter().map(move |c| format!("{t}{c}"))).collect();
        longer.iter().for_each(|t| check(t));
        texts = longer;
    }
    let real = [
        "(query :string, limit :int?) -> {count :int, items [{id :int, title :string}]}",
        "{status :string, customers [{id :int, name :string}]?}",
        "-> [:map]",
    ];
    for text in real {
        let chars: Vec<char> = text.chars().collect();
        for i in 0..=chars.len() {
            for c in ALPHABET.iter().chain(['\n', '\t', '"'].iter()) {
                let mut inserted = chars.clone();
                inserted.insert(i, *c);
                check(&inserted.iter().collect::<String>());
                if i < chars.len() {
                    let mut replaced = chars.clone();
                    replaced[i] = *c;
                    check(&replaced.iter().collect::<String>());
                }
            }
            if i < chars.len() {
                let mut deleted = chars.clone();
                deleted.remove(i);
                check(&deleted.iter().collect::<String>());
            }
        }
    }
}
