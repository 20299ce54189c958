//! The pre-tokenizer: splits text into the pieces BPE merges within, with
//! the DFA `build.rs` compiled from the encoding's patterns.

use crate::encodings::Spec;
use regex_automata::dfa::{sparse, Automaton};
use regex_automata::{Anchored, Input};

/// A loaded pre-tokenizer.
pub(crate) struct Pretokenizer {
    dfa: sparse::DFA<&'static [u8]>,
    spec: &'static Spec,
}

impl Pretokenizer {
    /// Reads the DFA in place (a validation pass, no compilation).
    pub(crate) fn load(dfa: &'static [u8], spec: &'static Spec) -> Pretokenizer {
        let (dfa, _) = sparse::DFA::from_bytes(dfa).expect("build.rs wrote this DFA for this target");
        Pretokenizer { dfa, spec }
    }

    /// Calls `piece` with each piece of `text`, in order.
    pub(crate) fn split(&self, text: &str, mut piece: impl FnMut(&str)) {
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            let found = self.dfa.try_search_fwd(&Input::new(rest).anchored(Anchored::Yes)).ok().flatten();
            let end = found.map_or(0, |m| {
                let end = m.offset();
                if self.spec.patterns[m.pattern().as_usize()].1 {
                    // The look-ahead pattern matched one character more.
                    end - rest[..end].chars().next_back().map_or(0, char::len_utf8)
                } else {
                    end
                }
            });
            if end == 0 {
                // Never for these patterns (some alternative takes any one
                // character); tiktoken skips a character nothing matches.
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            }
            piece(&rest[..end]);
            at += end;
        }
    }
}
