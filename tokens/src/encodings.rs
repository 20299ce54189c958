//! The encodings, as data: each one's pre-tokenizer patterns and special
//! tokens. Shared by `build.rs`, which prepares the tables from them, and
//! the counter, which reads them.

/// One encoding.
pub struct Spec {
    /// Its name (`o200k_base`).
    pub name: &'static str,
    /// The pre-tokenizer, as patterns tried in order at each position
    /// (leftmost-first). tiktoken's `\s+(?!\S)` has no look-ahead here: the
    /// pattern marked `true` matches one character more (`\s+\s`), which the
    /// splitter gives back, as `bpe-openai` does.
    pub patterns: &'static [(&'static str, bool)],
    /// The special tokens tiktoken recognises in text: one token each.
    pub special_tokens: &'static [&'static str],
}

/// GPT-4o and later models: tiktoken's `O200K_BASE_PAT_STR`, with `\s+$`
/// moved before the look-ahead pattern.
pub const O200K_BASE: Spec = Spec {
    name: "o200k_base",
    patterns: &[
        (
            concat!(
                r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                r"|\p{N}{1,3}",
                r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
                r"|\s*[\r\n]+",
                r"|\s+$",
            ),
            false,
        ),
        (r"\s+\s", true),
        (r"\s+", false),
    ],
    special_tokens: &["<|endoftext|>", "<|endofprompt|>"],
};

/// GPT-4 and GPT-3.5 models: tiktoken's cl100k pattern, the same way.
pub const CL100K_BASE: Spec = Spec {
    name: "cl100k_base",
    patterns: &[
        (
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+$",
            false,
        ),
        (r"\s+\s", true),
        (r"\s+", false),
    ],
    special_tokens: &["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"],
};

/// Every encoding, the default first (what `build.rs` prepares).
#[allow(dead_code)] // read by build.rs only
pub const ALL: &[&Spec] = &[&O200K_BASE, &CL100K_BASE];
