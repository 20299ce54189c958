//! Fact recall: of the facts a turn's program uses that the agent learned
//! from earlier output, the share the prompt of that turn still showed.
//!
//! A *fact* is a string literal of 4+ characters or a number literal of 3+
//! digits in the program. It was *learned* when it appears in an earlier
//! turn's prints, tool results or result but in none of the texts the agent
//! was given (mission, data, tool list). A cheaper strategy that drops what
//! the agent found out shows up here as a lower share.
//!
//! ```
//! use ptc_cost::{LearnedFacts, TurnOutput};
//!
//! let turns = [
//!     TurnOutput { program: "(tool/search {:q \"mug\"})", output: vec![r#"[{:id "SKU-4417" :price 12.5}]"#] },
//!     TurnOutput { program: "(tool/order {:id \"SKU-4417\"})", output: vec!["{:ok true}"] },
//! ];
//! let facts = LearnedFacts::new(&["Buy a mug.", "tool/search(q string)"], &turns);
//! let shown = ["Buy a mug.", "Buy a mug.\nsearch found SKU-4417"];
//! let hidden = ["Buy a mug.", "Buy a mug."];
//! assert_eq!((facts.recall(&shown).used, facts.recall(&shown).visible), (1, 1));
//! assert_eq!(facts.recall(&hidden).visible, 0);
//! // Turn 1 printed nothing: only its tool result held the ID.
//! let missed = facts.recall(&hidden).missed;
//! assert_eq!(facts.restorable(&missed, &[vec![], vec!["{:ok true}"]]), 0);
//! assert_eq!(facts.restorable(&missed, &[vec!["SKU-4417 12.5"], vec![]]), 1);
//! ```

use crate::literals::{program_literals, Literal};

/// What one turn left for later turns to learn from.
#[derive(Clone, Debug, Default)]
pub struct TurnOutput<'a> {
    /// The turn's program (empty when the answer had none).
    pub program: &'a str,
    /// Its prints, tool-call results and result, as text.
    pub output: Vec<&'a str>,
}

pub use ptc_plugin_api::render::{is_fact, MIN_NUMBER_DIGITS, MIN_TEXT_CHARS};

/// Per turn, the learned facts its program uses (strategy-independent:
/// compute once per session, then [`LearnedFacts::recall`] per strategy).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LearnedFacts {
    turns: Vec<Vec<Literal>>,
}

/// Facts used and shown, for one turn or summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnRecall {
    /// Learned facts the program used.
    pub used: usize,
    /// Of those, the ones visible in the prompt.
    pub visible: usize,
}

/// A learned fact turn `turn`'s program used that its prompt did not show.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MissedFact {
    /// The turn (1-based) whose program used it.
    pub turn: usize,
    /// The literal as the program wrote it: a string in quotes, a number
    /// as is.
    pub fact: String,
}

/// Recall of one strategy over a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recall {
    /// Per turn with a prompt, in order.
    pub turns: Vec<TurnRecall>,
    /// Learned facts used over the session.
    pub used: usize,
    /// Of those, visible in their turn's prompt.
    pub visible: usize,
    /// The others, in turn order (`used - visible` of them).
    pub missed: Vec<MissedFact>,
}

impl Recall {
    /// `visible / used`, `None` when no turn used a learned fact.
    pub fn share(&self) -> Option<f64> {
        (self.used > 0).then(|| self.visible as f64 / self.used as f64)
    }

    /// Adds another session's figures to the totals (turns and missed
    /// facts are appended, the latter with their own session's turn
    /// numbers).
    pub fn add(&mut self, other: &Recall) {
        self.turns.extend_from_slice(&other.turns);
        self.used += other.used;
        self.visible += other.visible;
        self.missed.extend_from_slice(&other.missed);
    }
}

/// Whether `literal` appears in `text`: a string as is or escaped as EDN
/// prints it inside a collection; a number not as part of a longer number.
pub fn appears_in(literal: &Literal, text: &str) -> bool {
    match literal {
        Literal::Text(s) => {
            text.contains(s.as_str()) || {
                let escaped = edn_escaped(s);
                escaped != *s && text.contains(&escaped)
            }
        }
        Literal::Number(n) => text.match_indices(n.as_str()).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let mut after = text[i + n.len()..].chars();
            let digit_after = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
            !(digit_after(before) || before == Some('.'))
                && match after.next() {
                    Some('.') => !digit_after(after.next()),
                    next => !digit_after(next),
                }
        }),
    }
}

/// A fact as a program writes it ([`MissedFact::fact`]): a string in
/// quotes, a number as is.
fn written(fact: &Literal) -> String {
    match fact {
        Literal::Text(s) => ptc_plugin_api::render::quote_str(s, s.chars().count()),
        Literal::Number(n) => n.clone(),
    }
}

/// `s` escaped as the shared value printer shows a string inside a value.
fn edn_escaped(s: &str) -> String {
    let quoted = ptc_plugin_api::render::quote_str(s, s.chars().count());
    quoted[1..quoted.len() - 1].to_string()
}

impl LearnedFacts {
    /// The learned facts of each turn. `given`: the texts the agent had from
    /// the start (mission, data, tool list).
    pub fn new(given: &[&str], turns: &[TurnOutput]) -> LearnedFacts {
        let turns = turns
            .iter()
            .enumerate()
            .map(|(t, turn)| {
                let mut facts: Vec<Literal> = Vec::new();
                for literal in program_literals(turn.program) {
                    let learned = is_fact(&literal)
                        && !facts.contains(&literal)
                        && turns[..t].iter().flat_map(|e| &e.output).any(|o| appears_in(&literal, o))
                        && !given.iter().any(|g| appears_in(&literal, g));
                    if learned {
                        facts.push(literal);
                    }
                }
                facts
            })
            .collect();
        LearnedFacts { turns }
    }

    /// The learned facts turn `index` (0-based) uses.
    pub fn turn(&self, index: usize) -> &[Literal] {
        self.turns.get(index).map_or(&[], Vec::as_slice)
    }

    /// How many of `missed` ([`Recall::missed`], from [`LearnedFacts::recall`])
    /// an earlier turn's `returned[j]` holds: what a tool that gives a
    /// turn's output back (`turn-output`: its prints, result or error)
    /// restores on request.
    pub fn restorable<T: AsRef<str>>(&self, missed: &[MissedFact], returned: &[Vec<T>]) -> usize {
        let restores = |m: &&MissedFact| {
            let earlier = &returned[..(m.turn - 1).min(returned.len())];
            let fact = self.turn(m.turn - 1).iter().find(|f| written(f) == m.fact);
            fact.is_some_and(|f| earlier.iter().flatten().any(|o| appears_in(f, o.as_ref())))
        };
        missed.iter().filter(restores).count()
    }

    /// Recall of one strategy: `prompts[i]` is the text of the prompt turn
    /// `i + 1` was answered from. Turns without a prompt are not counted.
    /// The facts a prompt did not show are listed too ([`Recall::missed`]).
    pub fn recall<S: AsRef<str>>(&self, prompts: &[S]) -> Recall {
        let mut recall = Recall::default();
        for (i, (facts, prompt)) in self.turns.iter().zip(prompts).enumerate() {
            let missed = recall.missed.len();
            let hidden = facts.iter().filter(|f| !appears_in(f, prompt.as_ref()));
            recall.missed.extend(hidden.map(|f| MissedFact { turn: i + 1, fact: written(f) }));
            let visible = facts.len() - (recall.missed.len() - missed);
            recall.turns.push(TurnRecall { used: facts.len(), visible });
            recall.used += facts.len();
            recall.visible += visible;
        }
        recall
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MISSION: &str = "Find the customer with the largest total for March 2024 and refund their last order.";
    const DATA: &str = r#"data/region "west""#;
    const TOOLS: &str = "tool/list-orders(month string) -> [{id int, customer string, total float}]\n\
                         tool/refund(order-id int) -> {ok bool}";

    fn turns() -> Vec<TurnOutput<'static>> {
        vec![
            TurnOutput {
                program: r#"(def orders (tool/list-orders {:month "2024-03"})) (println (take 3 (sort-by :total > orders)))"#,
                output: vec![
                    r#"({:id 70412 :customer "initech" :total 1296.0} {:id 70388 :customer "hooli" :total 0.9173})"#,
                    "#'orders",
                ],
            },
            TurnOutput {
                // 70412 and "initech" learned; "west" is in the data, "2024"
                // in the mission, 12 too short, "max" not in any output.
                program: r#"(def last-order (tool/refund {:order-id 70412 :customer "initech" :region "west" :n 12 :m "max"}))"#,
                output: vec!["{:ok false :reason \"already \\\"refunded\\\"\"}"],
            },
            TurnOutput {
                // 0.9173 from turn 1, the escaped string from turn 2's result;
                // 7041 is not 70412.
                program: r#"(if (> 0.9173 0.5) (return "already \"refunded\"") (return 7041))"#,
                output: vec![],
            },
        ]
    }

    fn facts() -> LearnedFacts {
        LearnedFacts::new(&[MISSION, DATA, TOOLS], &turns())
    }

    #[test]
    fn learned_facts_come_from_earlier_output_and_not_from_what_was_given() {
        let f = facts();
        assert_eq!(f.turn(0), []);
        assert_eq!(f.turn(1), [Literal::Number("70412".into()), Literal::Text("initech".into())]);
        assert_eq!(f.turn(2), [Literal::Number("0.9173".into()), Literal::Text("already \"refunded\"".into())]);
        assert_eq!(f.turn(3), []);
    }

    #[test]
    fn recall_counts_the_facts_each_prompt_shows() {
        let f = facts();
        let full = [
            "mission",
            r#"({:id 70412 :customer "initech" :total 1296.0} {:id 70388 :customer "hooli" :total 0.9173})"#,
            r#"... :total 0.9173}) ... {:ok false :reason "already \"refunded\""}"#,
        ];
        let r = f.recall(&full);
        assert_eq!(
            r.turns,
            [
                TurnRecall { used: 0, visible: 0 },
                TurnRecall { used: 2, visible: 2 },
                TurnRecall { used: 2, visible: 2 }
            ]
        );
        assert_eq!((r.used, r.visible, r.share()), (4, 4, Some(1.0)));
        // A compressed prompt that kept the customer but not the id, and
        // printed 0.91735 (another number).
        let compressed = ["mission", "customer initech", "score 0.91735; refund failed"];
        let r = f.recall(&compressed);
        assert_eq!((r.used, r.visible), (4, 1));
        assert_eq!(r.share(), Some(0.25));
        // The three it did not show, by turn.
        let missed: Vec<(usize, String)> = r.missed.into_iter().map(|m| (m.turn, m.fact)).collect();
        let want = [(2, "70412"), (3, "0.9173"), (3, r#""already \"refunded\"""#)];
        assert_eq!(missed, want.map(|(t, f)| (t, f.to_string())));
        assert!(f.recall(&full).missed.is_empty());
        // Fewer prompts than turns: only those turns count.
        assert_eq!(f.recall(&compressed[..2]).used, 2);
        assert_eq!(LearnedFacts::default().recall(&full).share(), None);
    }

    #[test]
    fn numbers_match_whole() {
        let n = |s: &str| Literal::Number(s.to_string());
        assert!(appears_in(&n("1001"), "id 1001, next"));
        assert!(appears_in(&n("1001"), "(1001)"));
        assert!(appears_in(&n("1001"), "total 1001."));
        assert!(!appears_in(&n("1001"), "id 10012"));
        assert!(!appears_in(&n("1001"), "id 21001"));
        assert!(!appears_in(&n("1001"), "1001.5"));
        assert!(!appears_in(&n("1001"), "0.1001"));
        assert!(appears_in(&n("-250"), "balance -250 EUR"));
    }
}
