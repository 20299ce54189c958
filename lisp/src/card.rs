//! The language card: the part of the system prompt that teaches the model
//! PTC-Lisp (rules, syntax, every special form and core function by name).
//! A test keeps it and the builtin table naming the same functions.

/// The system prompt's language section, as the model reads it.
pub const LANGUAGE_CARD: &str = include_str!("language_card.md");

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
