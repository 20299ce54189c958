//! Program literals (`ptc_plugin_api::render::program_literals`): strings
//! and numbers as a program writes them.

use ptc_plugin_api::render::{program_literals, Literal};

fn text(s: &str) -> Literal {
    Literal::Text(s.to_string())
}

fn number(s: &str) -> Literal {
    Literal::Number(s.to_string())
}

#[test]
fn strings_resolve_escapes_and_skip_comments_regexes_and_chars() {
    let program = r#"
(def orders (tool/search {:query "blue \"wide\" mug" :limit 20})) ; "not this"
;; (println "nor this")
(str/split s #"[\";]+")
(= c \") (= d \newline) (str "tab\there" "\u00e9t\u00e9")
"#;
    assert_eq!(program_literals(program), [text("blue \"wide\" mug"), number("20"), text("tab\there"), text("été")]);
}

#[test]
fn numbers_include_decimals_negatives_and_suffixes_not_symbols() {
    let program = "(filter #(> (:score %) 0.9173) xs) (+ -250 +17 1001N 2.50M 1e3) (get m :k1001) x123 1/2 0x1F ->> -";
    assert_eq!(
        program_literals(program),
        [number("0.9173"), number("-250"), number("17"), number("1001"), number("2.50"), number("1e3")]
    );
}

#[test]
fn unterminated_strings_are_dropped() {
    assert_eq!(program_literals(r#"(println "ok" "never closed"#), [text("ok")]);
    assert_eq!(program_literals(r#"(str "a\"#), []);
}
