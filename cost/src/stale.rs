//! Stale facts shown: a value the agent corrected, shown without its
//! correction.
//!
//! A session records each turn's definitions with their values (EDN). A
//! *correction* happens in turn `j` when a definition gives a name that
//! had a value a different one (the name's previous value is its latest
//! earlier definition, in this or an earlier turn). Its *superseded*
//! literals are the facts of the old value the new one lacks, its
//! *corrected* literals the facts of the new value the old one lacks; a
//! fact is a literal as [fact recall](crate::LearnedFacts) counts one (a
//! string of 4+ characters, a number of 3+ digits), read from the value's
//! EDN like a program's literals.
//!
//! The prompt of a turn `k > j` *shows a stale fact* for that correction
//! when its text contains a superseded literal and none of the corrected
//! ones. Counted once per (turn, correction) pair.
//!
//! Seven refinements keep the count to real corrections (a value replaced
//! by another), since the session records every redefinition, most of
//! which correct nothing:
//!
//! - a redefinition that only drops facts (a value narrowed, `(def overdue
//!   (map :id overdue))`) or only adds some corrects nothing: a correction
//!   has both superseded and corrected literals;
//! - a superseded literal the agent was given (mission, data, tool list)
//!   is no stale fact: every prompt shows it, rightly;
//! - numbers are compared by value, so a value rounded from `1080.0` to
//!   `1080` corrects nothing, and a prompt that prints `1080.00` shows
//!   the value `1080.0`;
//! - a number printed with two decimals or more shows a value it rounds:
//!   a program prints `(format "%.2f" x)`, so `30908.18` shows the value
//!   `30908.182440258566` (with fewer, only itself: `6.2` is not `6.24`;
//!   and a format's `%6.2f` shows no number), if it has three
//!   significant digits, as many as a number fact has digits (`0.02` is
//!   no rounding of `0.0232` a reader could tell from any other small
//!   figure);
//! - a superseded literal that another name's latest value still holds is
//!   no stale fact: the old value of `direct` is still `direct-by-tag`'s,
//!   or a total still right under another name;
//! - a string longer than a fact (`MAX_FACT_CHARS`, a paragraph) is read
//!   for the facts in it, as fact memory reads a line: a paragraph whose
//!   one citation was corrected supersedes that citation, and a prompt
//!   that shows the old paragraph and the new citation shows the
//!   correction;
//! - a corrected string is shown by its parts too: when the prompt shows
//!   every fact of it that no superseded literal has, as a program that
//!   built it with `str` does (`(str "substr(" local-date ", 1, 7)")`).
//!
//! ```
//! use ptc_cost::{Corrections, ValueDefinition};
//!
//! let turns = vec![
//!     vec![ValueDefinition { name: "total", value: "{\"INV-2\" 1200.0}" }],
//!     vec![ValueDefinition { name: "total", value: "{\"INV-2\" 1080.0}" }],
//!     vec![],
//! ];
//! let corrections = Corrections::new(&["Check the invoices."], &turns);
//! // Turn 3's prompt shows the old total only: stale; or both: not stale.
//! assert_eq!(corrections.stale(&["", "", "INV-2 costs 1200.0"]).shown, 1);
//! assert_eq!(corrections.stale(&["", "", "1200.0, corrected to 1080.0"]).shown, 0);
//! ```

use crate::literals::{program_literals, Literal};
use crate::recall::{appears_in, is_fact};
use ptc_plugin_api::render::{output_facts, MAX_FACT_CHARS, MIN_NUMBER_DIGITS};

/// A value definition of a turn: the name and its value's EDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueDefinition<'a> {
    /// The name defined.
    pub name: &'a str,
    /// Its value, as EDN.
    pub value: &'a str,
}

/// One correction: a name's value changed at a redefinition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    /// The name redefined.
    pub name: String,
    /// The turn (1-based) that redefined it.
    pub turn: usize,
    /// Facts of the old value the new one lacks.
    pub superseded: Vec<Literal>,
    /// Facts of the new value the old one lacks.
    pub corrected: Vec<Literal>,
}

/// Every correction of a session (strategy-independent: compute once, then
/// [`Corrections::stale`] per strategy).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corrections {
    list: Vec<Correction>,
}

/// Stale facts one strategy showed over a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stale {
    /// Per turn with a prompt, in order: the corrections it showed stale.
    pub turns: Vec<usize>,
    /// (turn, correction) pairs shown stale.
    pub shown: usize,
    /// (turn, correction) pairs that could be: a prompt after a correction
    /// that superseded something.
    pub checked: usize,
}

/// The facts of a value's EDN, numbers as written. A string longer than
/// [`MAX_FACT_CHARS`] is prose (a paragraph, a page), not one fact: its
/// facts are the ones fact memory reads in it ([`prose_facts`]), so a
/// paragraph corrected in one citation supersedes
/// that citation, not the whole paragraph, which a prompt that printed it
/// once would go on showing.
fn facts(edn: &str) -> Vec<Literal> {
    let mut out: Vec<Literal> = Vec::new();
    let mut add = |literal: Literal| {
        if is_fact(&literal) && !out.contains(&literal) {
            out.push(literal);
        }
    };
    for literal in program_literals(edn) {
        match literal {
            Literal::Text(s) if s.chars().count() > MAX_FACT_CHARS => {
                for fact in prose_facts(&s) {
                    let number = fact.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit() || b == b'.');
                    add(if number { Literal::Number(fact.to_string()) } else { Literal::Text(fact.to_string()) });
                }
            }
            literal => add(literal),
        }
    }
    out
}

/// The facts fact memory reads in a text ([`output_facts`]), a handle
/// without its `@` or `#` (`[@lindqvist2023]` cites the key
/// `lindqvist2023`).
fn prose_facts(text: &str) -> impl Iterator<Item = &str> {
    output_facts(text).into_iter().map(|f| f.trim_start_matches(['@', '#']))
}

/// Whether `facts` hold `literal`, numbers compared by value.
fn holds(facts: &[Literal], literal: &Literal) -> bool {
    let number = |l: &Literal| match l {
        Literal::Number(n) => n.parse::<f64>().ok(),
        Literal::Text(_) => None,
    };
    match number(literal) {
        Some(x) => facts.iter().any(|f| number(f) == Some(x)),
        None => facts.contains(literal),
    }
}

/// The numbers written in `text` (digits with at most one `.`, not inside
/// a longer number): each value with its count of decimals and whether it
/// has [`MIN_NUMBER_DIGITS`] significant digits, sorted by value.
fn numbers_in(text: &str) -> Vec<(f64, usize, bool)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Not inside a longer number, nor a format's width (`%6.2f`).
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_digit() || matches!(bytes[i - 1], b'.' | b'%')));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
            end += 1;
        }
        // A trailing `.` ends a sentence, not a number.
        let token = text[i..end].trim_end_matches('.');
        if let Ok(x) = token.parse::<f64>() {
            let decimals = token.split_once('.').map_or(0, |(_, decimals)| decimals.len());
            let significant = token.trim_start_matches(['0', '.']).bytes().filter(u8::is_ascii_digit).count();
            out.push((x, decimals, significant >= MIN_NUMBER_DIGITS));
        }
        i = end;
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// Whether `x` rounded to `decimals` decimals is `printed`.
fn rounds_to(x: f64, decimals: usize, printed: f64) -> bool {
    let scale = 10f64.powi(decimals.min(15) as i32);
    (x * scale).round() == (printed * scale).round()
}

/// Whether a prompt (`text`, with its [`numbers_in`]) shows `literal`: a
/// number by value, so `463.40 EUR` shows the value `463.4`, or rounded
/// to the two or more decimals printed, so `30908.18` shows
/// `30908.182440258566`, when the printed number has [`MIN_NUMBER_DIGITS`]
/// significant digits (`0.02` is no rounding of `0.0232` a reader could
/// tell from any other small figure).
fn shows(literal: &Literal, text: &str, numbers: &[(f64, usize, bool)]) -> bool {
    appears_in(literal, text)
        || match literal {
            Literal::Number(n) => n.parse::<f64>().is_ok_and(|x| {
                let near = &numbers[numbers.partition_point(|&(y, _, _)| y < x - 0.5)..];
                near.iter().take_while(|&&(y, _, _)| y <= x + 0.5).any(|&(y, decimals, significant)| {
                    y == x || (decimals >= 2 && significant && rounds_to(x, decimals, y))
                })
            }),
            Literal::Text(_) => false,
        }
}

/// The facts of a corrected string that none of the superseded literals
/// has, when it has any: a program that builds the new value with `str`
/// shows its parts, never the whole (`(str "substr(" cohort-date ", 1,
/// 7)")`), and a prompt that shows every new part shows the correction.
fn new_parts(corrected: &Literal, superseded: &[Literal]) -> Option<Vec<Literal>> {
    let Literal::Text(s) = corrected else { return None };
    let old: Vec<&str> = superseded
        .iter()
        .filter_map(|l| match l {
            Literal::Text(t) => Some(t.as_str()),
            Literal::Number(_) => None,
        })
        .collect();
    let parts: Vec<Literal> = prose_facts(s)
        .filter(|f| f.len() < s.len() && !old.iter().any(|o| o.contains(f)))
        .map(|f| Literal::Text(f.to_string()))
        .collect();
    (!parts.is_empty()).then_some(parts)
}

impl Corrections {
    /// The corrections of a session: `given` are the texts the agent had
    /// from the start (mission, data, tool list), `turns[i]` holds the
    /// value definitions of turn `i + 1`, in order.
    pub fn new(given: &[&str], turns: &[Vec<ValueDefinition<'_>>]) -> Corrections {
        let mut latest: Vec<(&str, Vec<Literal>, &str)> = Vec::new();
        let mut list = Vec::new();
        for (index, definitions) in turns.iter().enumerate() {
            for d in definitions {
                let new = facts(d.value);
                let Some(at) = latest.iter().position(|(name, _, _)| *name == d.name) else {
                    latest.push((d.name, new, d.value));
                    continue;
                };
                if latest[at].2 != d.value {
                    let old = &latest[at].1;
                    let held_elsewhere =
                        |l: &Literal| latest.iter().enumerate().any(|(k, (_, facts, _))| k != at && holds(facts, l));
                    let superseded: Vec<Literal> = old
                        .iter()
                        .filter(|l| !holds(&new, l) && !given.iter().any(|g| appears_in(l, g)) && !held_elsewhere(l))
                        .cloned()
                        .collect();
                    let corrected: Vec<Literal> = new.iter().filter(|l| !holds(old, l)).cloned().collect();
                    if !superseded.is_empty() && !corrected.is_empty() {
                        list.push(Correction { name: d.name.to_string(), turn: index + 1, superseded, corrected });
                    }
                }
                latest[at] = (d.name, new, d.value);
            }
        }
        Corrections { list }
    }

    /// The corrections, in order.
    pub fn list(&self) -> &[Correction] {
        &self.list
    }

    /// Stale facts of one strategy: `prompts[i]` is the text of the prompt
    /// turn `i + 1` was answered from.
    pub fn stale<S: AsRef<str>>(&self, prompts: &[S]) -> Stale {
        let mut stale = Stale::default();
        // Per correction, per corrected literal: its new parts, read once.
        let parts: Vec<Vec<Option<Vec<Literal>>>> =
            self.list.iter().map(|c| c.corrected.iter().map(|l| new_parts(l, &c.superseded)).collect()).collect();
        for (index, prompt) in prompts.iter().enumerate() {
            let turn = index + 1;
            let mut shown = 0;
            let text = prompt.as_ref();
            let numbers = numbers_in(text);
            let shows = |l: &Literal| shows(l, text, &numbers);
            for (c, parts) in self.list.iter().zip(&parts).filter(|(c, _)| c.turn < turn) {
                stale.checked += 1;
                let corrected = c
                    .corrected
                    .iter()
                    .zip(parts)
                    .any(|(l, parts)| shows(l) || parts.as_ref().is_some_and(|p| p.iter().all(shows)));
                if c.superseded.iter().any(shows) && !corrected {
                    shown += 1;
                }
            }
            stale.turns.push(shown);
            stale.shown += shown;
        }
        stale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def<'a>(name: &'a str, value: &'a str) -> ValueDefinition<'a> {
        ValueDefinition { name, value }
    }

    /// Turn 1 defines a total and a customer, turn 2 corrects the total and
    /// adds to the customer's map, turn 3 rounds the total, turn 4 defines
    /// nothing.
    fn corrections() -> Corrections {
        Corrections::new(
            &["Find the totals of INV-9 (was 5555.0)."],
            &[
                vec![def("total", r#"{"INV-2" 1200.0 "INV-5" 301.0}"#), def("who", r#"{:name "Brandt"}"#)],
                vec![def("total", r#"{"INV-2" 1080.0 "INV-5" 301.0}"#), def("who", r#"{:name "Brandt" :city "Bonn"}"#)],
                vec![def("total", r#"{"INV-2" 1080 "INV-5" 301}"#)],
                vec![],
            ],
        )
    }

    #[test]
    fn a_correction_supersedes_what_the_new_value_lacks() {
        let c = corrections();
        // `who` only gained a fact, and rounding changes no number.
        assert_eq!(
            c.list(),
            [Correction {
                name: "total".into(),
                turn: 2,
                superseded: vec![Literal::Number("1200.0".into())],
                corrected: vec![Literal::Number("1080.0".into())],
            }]
        );
        let none: &[&str] = &[];
        assert!(Corrections::new(none, &[vec![def("x", "1234"), def("x", "1234")]]).list().is_empty());
        // Redefined within one turn counts too.
        assert_eq!(Corrections::new(none, &[vec![def("x", "1234"), def("x", "5678")]]).list().len(), 1);
        // Narrowing a value drops facts but corrects none.
        let narrowed = [vec![def("x", r#"[{:id "INV-1" :who "Brandt"}]"#)], vec![def("x", r#"["INV-1"]"#)]];
        assert!(Corrections::new(none, &narrowed).list().is_empty());
        // A fact the agent was given is not superseded: 5555.0 is in the mission.
        let given = ["Find the totals of INV-9 (was 5555.0)."];
        let from_given = [vec![def("t", "5555.0")], vec![def("t", "4444.0")]];
        assert!(Corrections::new(&given, &from_given).list().is_empty());
        assert_eq!(Corrections::new(none, &from_given).list().len(), 1);
        // A fact another name still holds is not superseded: `before` keeps
        // the old total, as a program keeps `(def direct-by-tag direct)`.
        let kept = [vec![def("t", "5555.0"), def("before", "5555.0")], vec![def("t", "4444.0")]];
        assert!(Corrections::new(none, &kept).list().is_empty());
        let dropped =
            [vec![def("t", "5555.0"), def("before", "5555.0")], vec![def("before", "1.5"), def("t", "4444.0")]];
        assert_eq!(Corrections::new(none, &dropped).list().len(), 1);
    }

    #[test]
    fn a_prompt_after_the_correction_shows_it_stale_without_the_correction() {
        let c = corrections();
        let prompts = [
            "nothing yet",
            "INV-2 1200.0 (the prompt of turn 2 comes before the correction)",
            "INV-2 was 1200.0",
            "INV-2 was 1200.0, now 1080.0",
        ];
        let s = c.stale(&prompts);
        assert_eq!(s.turns, [0, 0, 1, 0]);
        assert_eq!((s.shown, s.checked), (1, 2));
        // A prompt that shows neither is not stale; nor one with only the
        // corrected value (12000.0 is not 1200.0).
        assert_eq!(c.stale(&["", "", "", "12000.0"]).shown, 0);
        assert_eq!(c.stale(&["", "", "1080.0", "1080"]).shown, 0);
        // Numbers are shown by value: a printed `1080.00` is the correction.
        assert_eq!(c.stale(&["", "", "", "was 1200.0, now 1080.00 EUR."]).shown, 0);
        assert_eq!(c.stale(&["", "", "", "was 1200.00, now 10800.0"]).shown, 1);
        // Rounded as printed: `1079.96` is not the correction, `1080.0` of
        // a value 1079.9999999999998 is; an integer shows only itself.
        assert_eq!(c.stale(&["", "", "", "was 1200.0, now 1079.96"]).shown, 1);
        let noisy = Corrections::new(&[""], &[vec![def("t", "1200.0")], vec![def("t", "1079.9999999999998")], vec![]]);
        assert_eq!(noisy.stale(&["", "", "was 1200.0, now 1080.00"]).shown, 0);
        assert_eq!(noisy.stale(&["", "", "was 1200.0, now 1080"]).shown, 1);
        assert_eq!(noisy.stale(&["", "", "was 1200.0, now 1080.0"]).shown, 1, "one decimal: the value itself");
        // A format's width is no number: `%6.2f` does not show 6.24.
        let seconds = Corrections::new(&[""], &[vec![def("s", "6.24")], vec![def("s", "7.31")], vec![]]);
        assert_eq!(seconds.stale(&["", "", "(format \"%6.2f s\" x)"]).shown, 0);
        assert_eq!(seconds.stale(&["", "", "6.24 s"]).shown, 1);
        // A rounding shows a value only with three significant digits:
        // `0.02` is any small figure, `0.0232` is the value `0.02318`.
        let af = Corrections::new(&[""], &[vec![def("af", "0.02318")], vec![def("af", "5.61E-6")], vec![]]);
        assert_eq!(af.stale(&["", "", "p 0.02, AF 5.61E-6 now"]).shown, 0);
        assert_eq!(af.stale(&["", "", "p 0.02"]).shown, 0);
        assert_eq!(af.stale(&["", "", "AF was 0.0232"]).shown, 1);
        assert_eq!(Corrections::default().stale(&prompts), Stale { turns: vec![0; 4], shown: 0, checked: 0 });
    }

    #[test]
    fn a_paragraph_supersedes_its_facts_not_itself() {
        let text = |key: &str| {
            format!("\"Retrieval was applied to coding in two ways, with gains on frequent codes only [@{key}], and a micro-F1 of 58.9.\"")
        };
        let (old, new) = (text("lindqvist2023"), text("lindquist2023"));
        let c = Corrections::new(&[""], &[vec![def("para", &old)], vec![def("para", &new)], vec![]]);
        assert_eq!(c.list()[0].superseded, [Literal::Text("lindqvist2023".into())]);
        assert_eq!(c.list()[0].corrected, [Literal::Text("lindquist2023".into())]);
        // The old paragraph printed once, and the key corrected: not stale.
        let shown = format!("{old}\nlindqvist2023 -> lindquist2023");
        assert_eq!(c.stale(&["", "", shown.as_str()]).shown, 0);
        assert_eq!(c.stale(&["", "", old.as_str()]).shown, 1);
    }

    #[test]
    fn a_string_built_from_parts_shows_its_correction_by_them() {
        let c = Corrections::new(
            &[""],
            &[
                vec![def("month", r#""substr(u.signup_ts, 1, 7)""#)],
                vec![def("month", r#""substr(date(convert_tz('America/Los_Angeles', u.signup_ts)), 1, 7)""#)],
                vec![],
            ],
        );
        let old = r#"(def month "substr(u.signup_ts, 1, 7)")"#;
        let built = r#"(def local "date(convert_tz('America/Los_Angeles', u.signup_ts))") (def month (str "substr(" local ", 1, 7)"))"#;
        assert_eq!(c.stale(&["", "", &format!("{old}\n{built}")]).shown, 0, "every new part shown");
        assert_eq!(c.stale(&["", "", &format!("{old}\nconvert_tz")]).shown, 1, "not every new part");
        // A correction with no new part shows only as itself.
        let zero = Corrections::new(
            &[""],
            &[vec![def("w", r#""u.is_test = 1""#)], vec![def("w", r#""u.is_test = 0""#)], vec![]],
        );
        assert_eq!(zero.stale(&["", "", "(def w \"u.is_test = 1\")"]).shown, 1);
    }
}
