//! Code blocks in a model's answer: the one reader of ```` ``` ```` fences,
//! for the turn's program (`run::extract_code`) and `llm-query`'s JSON.

/// The fenced blocks of `text`, in order: each block's language tag
/// (trimmed, as written; empty when there is none) and its body. A block
/// left open runs to the end of the text.
pub fn blocks(text: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let (lang, body) = match after.split_once('\n') {
            Some(split) => split,
            // ```{"a": 1}``` on one line: a block without a tag.
            None if after.contains("```") => ("", after),
            None => (after, ""),
        };
        let end = body.find("```");
        found.push((lang.trim(), &body[..end.unwrap_or(body.len())]));
        match end {
            Some(e) => rest = &body[e + 3..],
            None => break,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_their_tag_and_body_and_an_open_one_runs_to_the_end() {
        let text = "a\n```clojure\n(+ 1 2)\n```\nb\n```\n{}\n```\n```json\n[1";
        assert_eq!(blocks(text), [("clojure", "(+ 1 2)\n"), ("", "{}\n"), ("json", "[1")]);
        assert!(blocks("no fences").is_empty());
        assert_eq!(blocks("```{\"a\": 1}```"), [("", "{\"a\": 1}")]);
        assert_eq!(blocks("```clojure"), [("clojure", "")]);
    }
}
