//! Facts: the exact strings and numbers a later program may copy from what
//! an earlier turn showed (an order ID, a timestamp, a total, a name).
//!
//! A model reuses what it saw by writing it as a literal, so a strategy
//! that drops old output must keep those literals to keep the model's
//! memory: [`output_facts`] picks them out of a turn's output,
//! [`program_facts`] out of its program, and a [`FactLedger`] keeps each
//! one once, in the order first seen. The rules are the ones `ptc
//! compare`'s fact recall counts by ([`is_fact`]): a string of
//! [`MIN_TEXT_CHARS`] characters or more, a number with
//! [`MIN_NUMBER_DIGITS`] digits or more.
//!
//! ```
//! use ptc_plugin_api::render::{output_facts, FactLedger};
//!
//! let line = "2024-03-14T09:42:19Z tr-6a546894 payments-api: 503 after 2001ms, total 87.46 EUR (Marek Nowak)";
//! let facts = output_facts(line);
//! assert_eq!(facts, ["2024-03-14T09:42:19Z", "tr-6a546894", "payments-api", "503", "2001ms", "87.46", "Marek Nowak"]);
//! let mut ledger = FactLedger::new("Find why payments-api failed");
//! assert_eq!(ledger.admit_all(facts), ["2024-03-14T09:42:19Z", "tr-6a546894", "503", "2001ms", "87.46", "Marek Nowak"]);
//! assert!(ledger.admit_all(output_facts("again tr-6a546894")).is_empty());
//! ```

use super::literals::{program_literals, Literal};
use super::sections::whole_matches;
use super::value_text::{format_value, ValueLimits};
use crate::value::{Value, ValueRef};
use std::collections::{HashMap, HashSet};

/// A string needs this many characters to count as a fact.
pub const MIN_TEXT_CHARS: usize = 4;
/// A number needs this many digits to count as a fact.
pub const MIN_NUMBER_DIGITS: usize = 3;
/// Most capitalized words a name runs to (`Korvell Group Holdings Ltd`).
pub const MAX_NAME_WORDS: usize = 5;
/// Longest token or quoted string kept as one fact; longer ones are prose
/// or data, not something a program copies.
pub const MAX_FACT_CHARS: usize = 80;

/// Whether `literal` is long enough to count as a fact.
pub fn is_fact(literal: &Literal) -> bool {
    match literal {
        Literal::Text(s) => s.chars().count() >= MIN_TEXT_CHARS,
        Literal::Number(n) => {
            let mantissa = n.split(['e', 'E']).next().unwrap_or(n);
            mantissa.bytes().filter(u8::is_ascii_digit).count() >= MIN_NUMBER_DIGITS
        }
    }
}

/// The facts among a program's literals: every literal [`is_fact`] counts,
/// strings of at most [`MAX_FACT_CHARS`] characters, quoted as the program
/// writes them. A program is the model's own writing, and what a model
/// wrote once it writes again: the IDs and names it copied, the values it
/// filters on, the queries it sends and the labels it prints (a later
/// program that prints the same figure under the same label). Output
/// keeps only what is shaped like a fact (every word of it would be the
/// transcript again); a program's strings are kept whatever their shape.
pub fn program_facts(program: &str) -> Vec<String> {
    program_literals(program)
        .into_iter()
        .filter(is_fact)
        .filter_map(|l| match l {
            Literal::Text(s) => {
                (s.chars().count() <= MAX_FACT_CHARS).then(|| super::value_text::quote_str(&s, MAX_FACT_CHARS))
            }
            Literal::Number(n) => Some(n),
        })
        .collect()
}

/// Whether `text` holds `token` with a separator or an end on each side
/// ([`is_separator`]): a whole token of it, not part of a longer one.
pub(crate) fn holds_token(text: &str, token: &str) -> bool {
    !token.is_empty() && whole_matches(text, token, |c| !is_separator(c)).next().is_some()
}

/// Characters that separate the tokens of an output line.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '"' | '\'' | ';' | '`' | '|' | '=')
}

/// Whether `token` is a fact by shape: a number of [`MIN_NUMBER_DIGITS`]
/// digits, a word of [`MIN_TEXT_CHARS`]+ characters with a digit in it
/// (IDs, dates, times, versions, `2001ms`), a compound name joined by
/// `-`, `_`, `.`, `/` or `@` (`payments-api`, `gmail.com`), or a handle:
/// a name after `@` or `#` (`@jweber`, `#payments-oncall`).
fn token_is_fact(token: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
    let handle = token.strip_prefix(['@', '#']).filter(|name| name.starts_with(char::is_alphabetic));
    if handle.is_some_and(|name| name.chars().count() >= MIN_TEXT_CHARS - 1 && name.chars().all(word)) {
        return true;
    }
    let digits = token.bytes().filter(u8::is_ascii_digit).count();
    if digits > 0 {
        let number = token.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit() || b == b'.');
        return if number { digits >= MIN_NUMBER_DIGITS } else { token.chars().count() >= MIN_TEXT_CHARS };
    }
    let joined = token.trim_matches(|c: char| !c.is_alphanumeric()).contains(['-', '_', '.', '/', '@']);
    if joined {
        return token.chars().count() > MIN_TEXT_CHARS && token.chars().next().is_some_and(char::is_alphabetic);
    }
    camel_case(token) && token.chars().count() > MIN_TEXT_CHARS
}

/// Whether `word` is an identifier in camel case: letters only, an
/// upper-case letter right after a lower-case one (`HorizontalPodAutoscaler`,
/// `getClient`), which prose does not write.
fn camel_case(word: &str) -> bool {
    // Most words have no capital after their first letter: one byte scan.
    if !word.bytes().skip(1).any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
        return false;
    }
    word.chars().all(char::is_alphabetic)
        && word.chars().zip(word.chars().skip(1)).any(|(a, b)| a.is_lowercase() && b.is_uppercase())
}

/// The facts of a token longer than a fact: a reference of several
/// parts (an image `registry.example.io/team/app@sha256:...`, a URL, a
/// path) is read for its parts, split at `/`, `@`, `?` and `&`, each a
/// fact by its own shape (`registry.example.io`, `sha256:...`).
fn token_parts(token: &str) -> impl Iterator<Item = &str> {
    token
        .split(['/', '@', '?', '&'])
        .map(|part| part.trim_end_matches([':', '.', '!', '?']))
        .filter(|part| part.chars().count() <= MAX_FACT_CHARS && token_is_fact(part))
}

/// Whether `word` starts a capitalized name (`Marek`, `LAURA`, `García`).
fn capitalized(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase) && word.chars().count() >= 2 && chars.all(char::is_alphabetic)
}

/// The facts of one output text, in order: a table row's key (the first
/// cell of a markdown or fixed-width table row, `row_key`; the tokens in
/// it are that one fact), `token_is_fact` tokens, requirements where they
/// stand (`legacy-http==1.9.4`, `requirements`, not its tokens apart),
/// runs of two to `MAX_NAME_WORDS` capitalized words (`Marek Nowak`,
/// `Korvell Data Systems Ltd`, with a comma as
/// in `García, David`), and quoted strings of [`MIN_TEXT_CHARS`] to
/// [`MAX_FACT_CHARS`] characters (a printed value's strings). Duplicates
/// are kept; a [`FactLedger`] drops them.
pub fn output_facts(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let at = |w: &str| (w.as_ptr() as usize) - (line.as_ptr() as usize);
        // Facts of several tokens, each one fact with the tokens in it: a
        // row's key first, then requirements where they stand.
        let key = row_key(line);
        out.extend(key);
        let mut spans: Vec<(usize, &str, bool)> = key.map(|k| (at(k), k, false)).into_iter().collect();
        spans.extend(requirements(line).map(|r| (at(r), r, true)));
        let words: Vec<(usize, &str)> =
            line.split(is_separator).filter(|w| !w.is_empty()).map(|w| (at(w), w)).collect();
        let mut k = 0;
        while k < words.len() {
            let (at, word) = words[k];
            if let Some(&(span_at, fact, here)) = spans.iter().find(|(p, f, _)| (*p..p + f.len()).contains(&at)) {
                if here && span_at == at {
                    out.push(fact);
                }
                k += 1;
                continue;
            }
            // A name: capitalized words separated by one space (or ", ").
            let mut end = k;
            while end + 1 < words.len() && end - k + 1 < MAX_NAME_WORDS {
                let (next_at, next) = words[end + 1];
                let (prev_at, prev) = words[end];
                let gap = &line[prev_at + prev.len()..next_at];
                if capitalized(next) && (gap == " " || gap == ", ") {
                    end += 1;
                } else {
                    break;
                }
            }
            if capitalized(word) && end > k {
                let (last_at, last) = words[end];
                out.push(&line[at..last_at + last.len()]);
                k = end + 1;
                continue;
            }
            let token = word.trim_end_matches([':', '.', '!', '?']);
            if token.chars().count() <= MAX_FACT_CHARS {
                out.extend(Some(token).filter(|t| token_is_fact(t)));
            } else {
                out.extend(token_parts(token));
            }
            k += 1;
        }
        out.extend(quoted_strings(line));
    }
    out
}

/// Version comparisons a requirement pins a package with.
const VERSION_OPERATORS: [&str; 5] = ["==", ">=", "<=", "~=", "!="];

/// Requirements in `line`: a package name and a version joined by a
/// comparison (`legacy-http==1.9.4`, `netclient>=2.2`), whole. Tokens split
/// at `=`, which would find the name and the version apart (`legacy-http>`);
/// a program copies the pin (`"legacy-http==1.9.4"` in an edit,
/// `"netclient=="` in a search).
fn requirements(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| is_separator(c) && c != '=').filter(|w| {
        let Some((name, version)) = VERSION_OPERATORS.iter().find_map(|op| w.split_once(op)) else { return false };
        let name_char = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
        let n = w.chars().count();
        name.starts_with(char::is_alphabetic)
            && name.chars().all(name_char)
            && version.starts_with(|c: char| c.is_ascii_digit())
            && (MIN_TEXT_CHARS..=MAX_FACT_CHARS).contains(&n)
    })
}

/// Atoms of a value [`value_facts`] reads at most: a larger value's
/// remaining atoms are not read.
pub const MAX_VALUE_ATOMS: usize = 4096;

/// Bytes of a string [`value_facts`] reads at most (cut at a character):
/// the rest of a larger text (a 10 MB document) is not read.
pub const MAX_VALUE_TEXT_BYTES: usize = 65_536;

/// The facts of a value's atoms as a sample prints them (strings quoted,
/// numbers as written; map keys too), from its first [`MAX_VALUE_ATOMS`]
/// atoms and a string's first [`MAX_VALUE_TEXT_BYTES`].
pub fn value_facts(value: &Value) -> HashSet<String> {
    let mut out = HashSet::new();
    for atom in atoms(value, true).take(MAX_VALUE_ATOMS) {
        let text = match atom.view() {
            ValueRef::Str(s) => {
                let mut end = s.len().min(MAX_VALUE_TEXT_BYTES);
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                format!("\"{}\"", &s[..end])
            }
            _ => format_value(atom, ValueLimits::SAMPLE),
        };
        out.extend(output_facts(&text).into_iter().map(|f| f.trim_matches('"').to_string()));
    }
    out
}

/// A value's atoms (everything but a collection) in the order a print
/// shows them, at any depth; a map's keys too when `keys`.
fn atoms(value: &Value, keys: bool) -> impl Iterator<Item = &Value> {
    let mut stack = vec![value];
    std::iter::from_fn(move || {
        while let Some(v) = stack.pop() {
            match v.view() {
                ValueRef::Vector(items) | ValueRef::List(items) | ValueRef::Set(items) => {
                    stack.extend(items.iter().rev())
                }
                ValueRef::Map(entries) if keys => stack.extend(entries.iter().rev().flat_map(|e| [e.value(), e.key()])),
                ValueRef::Map(entries) => stack.extend(entries.iter().rev().map(|e| e.value())),
                _ => return Some(v),
            }
        }
        None
    })
}

/// The texts of a tool's result that a printed line can show without
/// their quotes: its strings of [`MIN_TEXT_CHARS`] to [`MAX_FACT_CHARS`]
/// characters, in order, at any depth. A string from the data is what a
/// program filters on or looks for again (`potential match`, `scheduled
/// service + front brake pads`, a tag `(untagged)`, a state `running`);
/// `println` shows it bare, so only the result tells where it starts and
/// ends ([`printed_texts`]), and a lower-case word is no fact by its shape.
/// The lines of a longer string (a page, a diff) are not texts: they are
/// the page's prose again.
pub fn value_texts(value: &Value) -> Vec<&str> {
    atoms(value, false)
        .filter_map(|atom| match atom.view() {
            // A character is at most 4 bytes: a longer string is not counted.
            ValueRef::Str(s) if s.len() <= 4 * MAX_FACT_CHARS && fact_length(s) && !s.trim().is_empty() => Some(s),
            _ => None,
        })
        .collect()
}

/// Whether `text` is [`MIN_TEXT_CHARS`] to [`MAX_FACT_CHARS`] characters long.
fn fact_length(text: &str) -> bool {
    (MIN_TEXT_CHARS..=MAX_FACT_CHARS).contains(&text.chars().count())
}

/// The `texts` ([`value_texts`]) that `line` shows, in the order it shows
/// them: a tool's string printed bare is a fact whatever its shape.
pub fn printed_texts<'a>(line: &str, texts: &[&'a str]) -> Vec<&'a str> {
    // Whole words only: `on hold` is not in `non holder`.
    let first = |t: &str| whole_matches(line, t, char::is_alphanumeric).next();
    let mut found: Vec<(usize, &str)> = texts.iter().filter_map(|t| first(t).map(|at| (at, *t))).collect();
    found.sort_by_key(|&(at, t)| (at, std::cmp::Reverse(t.len())));
    found.into_iter().map(|(_, t)| t).collect()
}

/// The first cell of a table row, which names the row: a table keys its
/// values by it, whatever its shape (a lower-case name, `summer sale`).
/// A markdown row (`| pglogical | 2.4.1 |`: at most [`MAX_NAME_WORDS`]
/// words) or a fixed-width one (`(untagged)     27773.77  23.04%`). Of
/// [`MIN_TEXT_CHARS`] to [`MAX_FACT_CHARS`] characters, with a letter or of
/// several words (not a separator row, not a figure, which a token rule
/// finds).
fn row_key(line: &str) -> Option<&str> {
    let (cell, most_words) = match line.trim_start().strip_prefix('|') {
        Some(row) => (row.split_once('|')?.0.trim(), MAX_NAME_WORDS),
        // A fixed-width row (`format "%-40s %9.2f"`): three cells or more,
        // two spaces or more apart; its first cell is as long as it is.
        None => {
            let mut cells = line.trim().split("  ").map(str::trim).filter(|c| !c.is_empty());
            (cells.next().filter(|_| cells.count() >= 2)?, usize::MAX)
        }
    };
    let n = cell.chars().count();
    let words = cell.split_whitespace().count();
    let keyed = (MIN_TEXT_CHARS..=MAX_FACT_CHARS).contains(&n) && words <= most_words;
    // A name, or a key of several words (a date and a time: `2024-11-04
    // 10:00`), which the token rules find only apart.
    let named = cell.chars().any(char::is_alphabetic) || words > 1;
    (keyed && named && !cell.contains('"')).then_some(cell)
}

/// The contents of `"..."` strings in `line` of a fact's length that hold
/// a space (single words are found as tokens).
fn quoted_strings(line: &str) -> impl Iterator<Item = &str> {
    line.split('"').skip(1).step_by(2).filter(|s| {
        let n = s.chars().count();
        (MIN_TEXT_CHARS..=MAX_FACT_CHARS).contains(&n) && s.contains(' ') && !s.ends_with('\\')
    })
}

/// The facts shown so far: each admitted once, never when the given text
/// (the run's mission, tools and data, which every prompt shows) holds it,
/// nor a fact shown before holds it as a whole token.
#[derive(Clone, Debug, Default)]
pub struct FactLedger {
    given: String,
    seen: HashSet<String>,
    /// The facts [`FactLedger::show`] was given.
    shown: Vec<String>,
    /// Per token of a shown fact, the shown facts that hold it whole: the
    /// only ones that can hold a fact starting with that token.
    tokens: HashMap<String, Vec<usize>>,
}

impl FactLedger {
    /// A ledger for a run whose prompts all show `given`.
    pub fn new(given: impl Into<String>) -> FactLedger {
        FactLedger { given: given.into(), ..FactLedger::default() }
    }

    /// Whether `fact` is new: not admitted before, not in the given text,
    /// not a whole token of a fact shown (bounded by separators or an end:
    /// `PQ7M2KX` once `"#48188 PQ7M2KX"` is shown). Admits it.
    pub fn admit(&mut self, fact: &str) -> bool {
        let bare = fact.trim_matches('"');
        !self.given.contains(bare) && !self.shows_within(bare) && self.seen.insert(bare.to_string())
    }

    /// Records that every prompt from now on shows `fact`, so that no
    /// later fact it holds whole is admitted.
    pub fn show(&mut self, fact: &str) {
        let k = self.shown.len();
        let bare = fact.trim_matches('"');
        for token in bare.split(is_separator).filter(|t| !t.is_empty()) {
            let facts = self.tokens.entry(token.to_string()).or_default();
            if facts.last() != Some(&k) {
                facts.push(k);
            }
        }
        self.shown.push(bare.to_string());
    }

    /// Whether a fact given to [`FactLedger::show`] that is longer than
    /// `fact` holds it as a whole token. Only the shown facts that hold
    /// `fact`'s first token whole are read (any that holds `fact` does).
    pub fn shows_within(&self, fact: &str) -> bool {
        let bare = fact.trim_matches('"');
        let Some(first) = bare.split(is_separator).find(|t| !t.is_empty()) else {
            return false;
        };
        self.tokens.get(first).is_some_and(|facts| {
            facts
                .iter()
                .map(|&k| self.shown[k].as_str())
                .any(|f| f.len() > bare.len() && (first == bare || holds_token(f, bare)))
        })
    }

    /// The new facts of `facts`, in order, each admitted.
    pub fn admit_all<S: AsRef<str>>(&mut self, facts: impl IntoIterator<Item = S>) -> Vec<S> {
        facts.into_iter().filter(|f| self.admit(f.as_ref())).collect()
    }

    /// Whether `fact` was admitted: shown, and not by the given text.
    pub fn admitted(&self, fact: &str) -> bool {
        self.seen.contains(fact.trim_matches('"'))
    }

    /// Whether `fact` was admitted or is in the given text.
    pub fn holds(&self, fact: &str) -> bool {
        let bare = fact.trim_matches('"');
        self.seen.contains(bare) || self.given.contains(bare)
    }
}
