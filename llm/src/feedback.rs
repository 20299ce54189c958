//! What the run loop tells the model, and the user, about an answer that
//! cannot run: no program in it, or cut off at the token limit; and when
//! the server read far fewer prompt tokens than ptc sent.
//!
//! The feedback texts become the turn's error message, which every strategy
//! shows verbatim with the latest error: the model sees the start of what it
//! actually wrote, never a made-up program.

/// Error kind of a turn whose answer held no program.
#[deprecated(since = "0.2.0", note = "use `ptc_session::TurnErrorKind::NoCode`")]
pub const NO_CODE: &str = "no_code";
/// Error kind of a turn whose answer hit `max_tokens` (its program was not run).
#[deprecated(since = "0.2.0", note = "use `ptc_session::TurnErrorKind::CutOff`")]
pub const CUT_OFF: &str = "cut_off";
/// Characters of the answer quoted back to the model.
pub const EXCERPT_CHARS: usize = 300;

/// The instruction that closes both feedback texts.
const ANSWER_WITH_A_BLOCK: &str = "Answer with exactly one ```clojure code block containing your program.";

/// The error message of a turn whose answer held no program: the start of
/// the answer (bounded) and the instruction.
pub fn no_code_feedback(answer: &str) -> String {
    match excerpt(answer) {
        None => format!("Your answer was empty, so nothing ran. {ANSWER_WITH_A_BLOCK}"),
        Some(start) => {
            format!("Your answer had no code block, so nothing ran. It began: {start} {ANSWER_WITH_A_BLOCK}")
        }
    }
}

/// The error message of a turn cut off at the token limit. Its program is
/// not run: a half-written program could call tools before it breaks.
pub fn cut_off_feedback(answer: &str, max_tokens: Option<u32>) -> String {
    let limit = max_tokens.map_or_else(|| "the token limit".to_string(), |n| format!("the token limit ({n} tokens)"));
    let start = excerpt(answer).map(|s| format!(" It began: {s}")).unwrap_or_default();
    format!(
        "Your answer was cut off at {limit} before it was complete, so nothing ran.{start} \
         Send a shorter program: fewer steps per turn, print summaries rather than data. {ANSWER_WITH_A_BLOCK}"
    )
}

/// The start of `answer`, quoted on one line, at most [`EXCERPT_CHARS`]
/// characters; code fences are spelled `'''` so the quote cannot open a
/// block in the prompt that shows it. `None` when the answer is blank.
fn excerpt(answer: &str) -> Option<String> {
    let flat = answer.split_whitespace().collect::<Vec<_>>().join(" ").replace("```", "'''");
    if flat.is_empty() {
        return None;
    }
    let total = flat.chars().count();
    let shown: String = flat.chars().take(EXCERPT_CHARS).collect();
    Some(if total > EXCERPT_CHARS {
        format!("\"{shown}\" ({} more characters).", total - EXCERPT_CHARS)
    } else {
        format!("\"{shown}\".")
    })
}

/// A warning when the server read less than half the prompt tokens ptc
/// counted: its chat template may have dropped the system prompt or
/// history (some templates drop system messages). `None` when the figures
/// agree, or when ptc counted nothing.
pub fn dropped_prompt_warning(reported: u64, counted: u64) -> Option<String> {
    (counted > 0 && reported.saturating_mul(2) < counted).then(|| {
        format!(
            "the server counted {reported} prompt tokens where ptc sent {counted}: its chat template may have \
             dropped the system prompt or the history (check the model's template, or merge the system prompt \
             into the first user message)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_code_feedback_quotes_the_start_of_the_answer() {
        let f = no_code_feedback("I think the\nanswer is ```4```.");
        assert_eq!(
            f,
            "Your answer had no code block, so nothing ran. It began: \"I think the answer is '''4'''.\". \
             Answer with exactly one ```clojure code block containing your program."
        );
        assert!(no_code_feedback("  \n").starts_with("Your answer was empty"));
        let long = no_code_feedback(&"word ".repeat(200));
        assert!(long.contains("(699 more characters)"), "{long}");
        assert!(long.len() < EXCERPT_CHARS + 250);
    }

    #[test]
    fn cut_off_feedback_names_the_limit() {
        let f = cut_off_feedback("```clojure\n(def x", Some(64));
        assert!(f.starts_with("Your answer was cut off at the token limit (64 tokens) before it was complete"), "{f}");
        assert!(f.contains("It began: \"'''clojure (def x\"."), "{f}");
    }

    #[test]
    fn warns_only_below_half() {
        assert!(dropped_prompt_warning(36, 544)
            .unwrap()
            .starts_with("the server counted 36 prompt tokens where ptc sent 544"));
        assert_eq!(dropped_prompt_warning(300, 544), None);
        assert_eq!(dropped_prompt_warning(272, 544), None);
        assert_eq!(dropped_prompt_warning(0, 0), None);
    }
}
