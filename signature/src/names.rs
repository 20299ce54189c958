//! Field and parameter names across the JSON boundary: a signature writes
//! `order_count`, a PTC-Lisp program `:order-count`; both name one field.

/// `snake_case` and `camelCase` become `kebab-case` (how the prompt shows
/// names and how names are compared).
pub fn kebab_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' {
            out.push('-');
            prev_lower = false;
        } else if c.is_uppercase() {
            if prev_lower {
                out.push('-');
            }
            out.extend(c.to_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// Whether `key` (as a program or a tool wrote it) names the declared field
/// `declared`: the same text, or the same in kebab-case (`order-count`,
/// `order_count` and `orderCount` are one name).
pub fn same_name(declared: &str, key: &str) -> bool {
    declared == key || kebab_case(declared) == kebab_case(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_name_match() {
        assert_eq!(kebab_case("max_results"), "max-results");
        assert_eq!(kebab_case("sortBy"), "sort-by");
        assert_eq!(kebab_case("HTTPStatus"), "httpstatus");
        assert!(same_name("order_count", "order-count"));
        assert!(same_name("order_count", "orderCount"));
        assert!(!same_name("order_count", "order"));
    }
}
