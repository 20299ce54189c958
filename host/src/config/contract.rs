//! The parts of `[agent.NAME]` and `[tool.NAME]` that make a contract:
//! signatures (`signature = "..."`, parsed here, a parse error pointing at
//! the character in the file), named inputs and the mission's `{{name}}`
//! placeholders, `retry_turns`, and the run limits every agent can set.

use super::{placeholders, ConfigError, Contract, RunLimits, Source};
use ptc_signature::{ParseError, Signature};
use std::ops::Range;
use toml::Spanned;

/// Parses a `signature = "..."`; the error points at the character of the
/// file when the string is written without escapes, else at the string.
pub(super) fn signature(src: &Source<'_>, owner: &str, text: &Spanned<String>) -> Result<Signature, ConfigError> {
    Signature::parse(text.get_ref()).map_err(|e| signature_error(src, owner, text.span(), &e))
}

fn signature_error(src: &Source<'_>, owner: &str, span: Range<usize>, e: &ParseError) -> ConfigError {
    let raw = src.text.get(span.clone()).unwrap_or("");
    let at = inner_start(raw, &e.text).map_or(span.start, |start| span.start + start + e.offset);
    src.error(at..at, format!("{owner}: signature: {e}"))
}

/// Where the value starts inside its TOML string literal `raw`, when the
/// literal holds `value` verbatim (no escapes).
fn inner_start(raw: &str, value: &str) -> Option<usize> {
    for quote in ["\"\"\"", "'''", "\"", "'"] {
        if raw.len() >= 2 * quote.len() && raw.starts_with(quote) && raw.ends_with(quote) {
            let inner = &raw[quote.len()..raw.len() - quote.len()];
            // A newline right after the opening of a multi-line string is not part of it.
            let skip = if quote.len() == 3 && inner.starts_with('\n') { 1 } else { 0 };
            return (&inner[skip..] == value).then_some(quote.len() + skip);
        }
    }
    None
}

/// Checks an agent's contract keys against each other and its mission:
/// `retry_turns` needs a signature; every `{{name}}` of the mission is a
/// declared input; no input shares a name with a `data` file.
pub(super) fn agent_contract(
    src: &Source<'_>,
    name: &str,
    signature: Option<&Spanned<String>>,
    retry_turns: Option<&Spanned<u32>>,
    mission: Option<&str>,
    data: &[&str],
    span: Range<usize>,
) -> Result<Option<Contract>, ConfigError> {
    let owner = format!("agent `{name}`");
    let parsed = match signature {
        Some(text) => Some((text, self::signature(src, &owner, text)?)),
        None => None,
    };
    let inputs: Vec<&str> = parsed.iter().flat_map(|(_, s)| s.params.iter().map(|p| p.name.as_str())).collect();
    if let Some(mission) = mission {
        for placeholder in placeholders(mission) {
            if !inputs.contains(&placeholder) {
                let declared = if inputs.is_empty() {
                    "it declares no inputs: add them to its signature, as in signature = \"(query :string) -> :any\""
                        .to_string()
                } else {
                    format!("its inputs: {}", inputs.join(", "))
                };
                return Err(src.error(
                    span,
                    format!("{owner}: the mission uses {{{{{placeholder}}}}}, which is not a named input ({declared})"),
                ));
            }
        }
    }
    if let Some(clash) = inputs.iter().find(|i| data.contains(i)) {
        return Err(src.error(
            span,
            format!("{owner}: input `{clash}` has the name of a `data` entry; both would be data/{clash}: rename one"),
        ));
    }
    match (parsed, retry_turns) {
        (None, Some(r)) if *r.get_ref() > 0 => Err(src.error(
            r.span(),
            format!("{owner}: `retry_turns` only gives turns to fix a return that does not match the signature; add a `signature` or remove it"),
        )),
        (None, _) => Ok(None),
        (Some((text, signature)), retry) => Ok(Some(Contract {
            text: text.get_ref().clone(),
            signature,
            retry_turns: retry.map_or(0, |r| *r.get_ref()),
        })),
    }
}

/// Checks the run limits (each count at least 1, `max_run_cost` above 0,
/// when set).
pub(super) fn run_limits(
    src: &Source<'_>,
    name: &str,
    limits: [(&'static str, Option<&Spanned<u64>>); 4],
    max_run_cost: Option<&Spanned<f64>>,
) -> Result<RunLimits, ConfigError> {
    for (key, value) in limits {
        if let Some(v) = value.filter(|v| *v.get_ref() == 0) {
            return Err(
                src.error(v.span(), format!("agent `{name}`: {key} must be at least 1 (leave it out for no limit)"))
            );
        }
    }
    if let Some(v) = max_run_cost.filter(|v| !(v.get_ref().is_finite() && *v.get_ref() > 0.0)) {
        return Err(src.error(
            v.span(),
            format!(
                "agent `{name}`: max_run_cost must be a number above 0, in the unit of the agent's price model \
                 (leave it out for no limit)"
            ),
        ));
    }
    let [calls, per_turn, timeout, prompt_tokens] = limits.map(|(_, v)| v.map(|v| *v.get_ref()));
    Ok(RunLimits {
        max_tool_calls: calls,
        max_tool_calls_per_turn: per_turn,
        run_timeout_ms: timeout,
        max_run_prompt_tokens: prompt_tokens,
        max_run_cost: max_run_cost.map(|v| *v.get_ref()),
    })
}
