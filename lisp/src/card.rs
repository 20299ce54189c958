//! The language card: the part of the system prompt that teaches the model
//! PTC-Lisp (rules, syntax, every special form and core function by name).
//! A test keeps it and the builtin table naming the same functions.

/// The system prompt's language section, as the model reads it.
pub const LANGUAGE_CARD: &str = include_str!("language_card.md");

/// The line the language card gains when an agent runs with
/// `namespace_fallback` on (off, the card says nothing of it).
pub const NAMESPACE_FALLBACK_NOTE: &str =
    "Bare names: a name you did not define reads `data/name` or calls `tool/name`; define it to override.";

/// The language card for a run with or without the namespace fallback.
pub fn language_card(namespace_fallback: bool) -> String {
    if !namespace_fallback {
        return LANGUAGE_CARD.to_string();
    }
    let (head, tail) = LANGUAGE_CARD.split_at(LANGUAGE_CARD.find("\n\n## Language").unwrap_or(LANGUAGE_CARD.len()));
    format!("{head}\n- {NAMESPACE_FALLBACK_NOTE}{tail}")
}

#[cfg(test)]
mod tests {
    use super::LANGUAGE_CARD;
    use std::collections::BTreeSet;

    /// The names in the paragraph that starts with `start`, minus the
    /// `Category:` labels.
    fn names_after(start: &str) -> BTreeSet<&'static str> {
        let at = LANGUAGE_CARD.find(start).unwrap_or_else(|| panic!("the card has no {start:?}"));
        let text = &LANGUAGE_CARD[at + start.len()..];
        let paragraph = &text[..text.find("\n\n").unwrap_or(text.len())];
        paragraph.split_whitespace().filter(|w| !w.ends_with(':')).collect()
    }

    #[test]
    fn the_fallback_note_is_a_rule_only_when_on() {
        assert_eq!(super::language_card(false), LANGUAGE_CARD);
        let on = super::language_card(true);
        assert!(on.contains("- No I/O except tools; no Java interop, no eval, no atoms.\n- Bare names: "), "{on}");
        assert_eq!(on.len(), LANGUAGE_CARD.len() + super::NAMESPACE_FALLBACK_NOTE.len() + 3);
    }

    #[test]
    fn the_card_names_every_builtin_and_nothing_else() {
        let card = names_after("## Core library\n");
        let builtins: BTreeSet<&str> = crate::builtins::names().collect();
        let missing: Vec<_> = builtins.difference(&card).collect();
        let unknown: Vec<_> = card.difference(&builtins).collect();
        assert!(missing.is_empty(), "builtins the card omits: {missing:?}");
        assert!(unknown.is_empty(), "names on the card that are not builtins: {unknown:?}");
    }

    #[test]
    fn the_card_names_every_special_form_and_nothing_else() {
        let card = names_after("Special forms: ");
        let unknown: Vec<_> = card.iter().filter(|n| !crate::special::is_special(n)).collect();
        assert!(unknown.is_empty(), "names listed as special forms that are not: {unknown:?}");
        let missing: Vec<_> = crate::special::NAMES.iter().filter(|n| !card.contains(*n)).collect();
        assert!(missing.is_empty(), "special forms the card omits: {missing:?}");
    }
}
