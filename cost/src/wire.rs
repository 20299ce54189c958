//! The requests backends send, cut into the pieces the cache rules compare,
//! each with its token count.
//!
//! - **OpenAI-compatible** (`openai`): the JSON message array
//!   `[{"role":"system","content":"..."},...]`, a message's blocks
//!   concatenated as they are. One piece per message: `[` or `,` then the
//!   message object; the closing `]` is a trailing piece.
//! - **Anthropic Messages** (`anthropic`): `{"system":[BLOCK,...],
//!   "messages":[{"role":"user","content":[BLOCK,...]},...]}` with
//!   `BLOCK = {"type":"text","text":"..."}`; every `system` message's blocks
//!   go to the `system` array, in order. One piece per block, carrying the
//!   punctuation and message header before it, so the tokens at every block
//!   boundary are known; the closing brackets are a trailing piece. A block's
//!   `cache_control` marker is not part of the piece: the cache identifies
//!   prefixes by content.
//! - **ptc's count** (`chat_tokens`): content tokens plus the chat overhead
//!   per message, as `ptc_tokens::TokenCounter::count_messages` counts.
//!
//! Strings are escaped as `serde_json` writes them, the way the backends build
//! their bodies. Each piece is tokenized on its own: at a piece boundary the
//! count can differ from tokenizing the whole body in one go by a token,
//! the same way for every strategy.

use std::sync::Arc;

use ptc_tokens::{content_hash, PER_MESSAGE_OVERHEAD, REPLY_PRIMING};

/// Token counts by content, shared by every accounting of a run (it lives
/// in `ptc-tokens`, with the counter; this path stays).
pub use ptc_tokens::TokenMemo;

use crate::prompt::{Prompt, Role};

/// One piece of a serialized request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// Content identity (hash of the piece's text).
    pub id: u64,
    /// Tokens of the piece.
    pub tokens: u64,
    /// Whether the request carries a cache breakpoint on this block (after
    /// [`sent_breakpoints`]'s choice).
    pub breakpoint: bool,
    /// The piece's text, kept where a rule compares inside a piece (prefix).
    pub text: Option<Arc<str>>,
}

/// A serialized request: its pieces and the tokens after the last one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Request {
    pub segments: Vec<Segment>,
    pub trailing_tokens: u64,
}

impl Request {
    /// Every token of the request.
    pub fn prompt_tokens(&self) -> u64 {
        self.segments.iter().map(|s| s.tokens).sum::<u64>() + self.trailing_tokens
    }
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("serializing a str to JSON cannot fail")
}

fn piece(memo: &mut TokenMemo, text: String, breakpoint: bool, keep_text: bool) -> Segment {
    Segment {
        id: content_hash(&text),
        tokens: memo.count(&text),
        breakpoint,
        text: keep_text.then(|| Arc::from(text.as_str())),
    }
}

/// The OpenAI-compatible request: one piece per message, texts kept.
pub(crate) fn openai(prompt: &Prompt, memo: &mut TokenMemo) -> Request {
    let segments = prompt
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let open = if i == 0 { "[" } else { "," };
            let text = format!(r#"{open}{{"role":"{}","content":{}}}"#, m.role.as_str(), json_string(&m.text()));
            piece(memo, text, false, true)
        })
        .collect();
    Request { segments, trailing_tokens: memo.count(if prompt.messages.is_empty() { "[]" } else { "]" }) }
}

/// A block of a prompt, by message and block index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockPosition {
    /// Index into `Prompt::messages`.
    pub message: usize,
    /// Index into that message's `blocks`.
    pub block: usize,
}

/// The blocks of `prompt` in the order an Anthropic request carries them:
/// every `system` message's blocks first, then the others'. A message
/// without blocks counts as one empty block.
fn anthropic_order(prompt: &Prompt) -> Vec<(BlockPosition, &str, bool)> {
    let mut order = Vec::new();
    for system in [true, false] {
        for (i, m) in prompt.messages.iter().enumerate().filter(|(_, m)| (m.role == Role::System) == system) {
            if m.blocks.is_empty() {
                order.push((BlockPosition { message: i, block: 0 }, "", false));
            }
            for (b, block) in m.blocks.iter().enumerate() {
                order.push((BlockPosition { message: i, block: b }, block.text.as_str(), block.breakpoint));
            }
        }
    }
    order
}

/// The blocks that carry `cache_control` when ptc's Anthropic backend sends
/// `prompt`, in request order. The backend and the accounting both follow
/// this rule:
///
/// - no block marked: automatic breakpoints on the last system block (the
///   system prompt is the same all run: its cache survives a strategy that
///   rewrites every message after it) and on the last block of the last
///   message (the whole prompt is offered for caching);
/// - more marked blocks than `max_breakpoints` (Anthropic accepts 4): the
///   last marked block (where the cache grows) and the earliest
///   `max_breakpoints - 1` others (the most stable prefixes, which survive
///   when the strategy rewrites its tail).
pub fn sent_breakpoints(prompt: &Prompt, max_breakpoints: usize) -> Vec<BlockPosition> {
    let order = anthropic_order(prompt);
    let marked: Vec<usize> = order.iter().enumerate().filter(|(_, b)| b.2).map(|(i, _)| i).collect();
    let system = system_blocks(prompt, &order);
    choose_breakpoints(&marked, system, order.len(), max_breakpoints).into_iter().map(|i| order[i].0).collect()
}

/// How many of `order`'s blocks (system ones come first) are system blocks.
fn system_blocks(prompt: &Prompt, order: &[(BlockPosition, &str, bool)]) -> usize {
    order.iter().take_while(|(r, _, _)| prompt.messages[r.message].role == Role::System).count()
}

/// [`sent_breakpoints`] on positions: `marked` ascending among `blocks`, of
/// which the first `system` are system blocks.
pub(crate) fn choose_breakpoints(marked: &[usize], system: usize, blocks: usize, max_breakpoints: usize) -> Vec<usize> {
    match marked {
        [] if blocks == 0 => Vec::new(),
        [] if system > 0 && system < blocks => vec![system - 1, blocks - 1],
        [] => vec![blocks - 1],
        _ if marked.len() <= max_breakpoints => marked.to_vec(),
        _ => {
            let last = marked[marked.len() - 1];
            let mut chosen: Vec<usize> = marked[..max_breakpoints.saturating_sub(1)].to_vec();
            chosen.push(last);
            chosen
        }
    }
}

/// The Anthropic request: one piece per block, breakpoints as sent.
pub(crate) fn anthropic(prompt: &Prompt, max_breakpoints: usize, memo: &mut TokenMemo) -> Request {
    let order = anthropic_order(prompt);
    let mut segments = Vec::with_capacity(order.len());
    let mut previous: Option<(usize, Role)> = None;
    for (r, text, _) in &order {
        let role = prompt.messages[r.message].role;
        let head = match (previous, role) {
            (None, Role::System) => r#"{"system":["#.to_string(),
            (Some(_), Role::System) => ",".to_string(),
            (prev, _) if prev.is_some_and(|(m, _)| m == r.message) => ",".to_string(),
            (prev, _) => {
                let open = match prev {
                    None => r#"{"messages":["#,
                    Some((_, Role::System)) => r#"],"messages":["#,
                    Some(_) => "]},",
                };
                format!(r#"{open}{{"role":"{}","content":["#, role.as_str())
            }
        };
        let text = format!(r#"{head}{{"type":"text","text":{}}}"#, json_string(text));
        segments.push(piece(memo, text, false, false));
        previous = Some((r.message, role));
    }
    let marked: Vec<usize> = order.iter().enumerate().filter(|(_, b)| b.2).map(|(i, _)| i).collect();
    for i in choose_breakpoints(&marked, system_blocks(prompt, &order), segments.len(), max_breakpoints) {
        segments[i].breakpoint = true;
    }
    let close = match previous {
        None => "{}",
        Some((_, Role::System)) => "]}",
        Some(_) => "]}]}",
    };
    Request { segments, trailing_tokens: memo.count(close) }
}

/// Bytes `a` and `b` share at their start.
pub(crate) fn common_len(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// Tokens two different pieces share at their start, exact to the word: the
/// shared text is cut before its last space that follows a non-space (where
/// the o200k/cl100k pre-tokenizer always starts a new token, so the tokens
/// before the cut are the same in both pieces) and counted.
pub(crate) fn shared_tokens(a: &str, b: &str, memo: &mut TokenMemo) -> u64 {
    let bytes = a.as_bytes();
    let common = common_len(a, b);
    match (1..common).rev().find(|&i| bytes[i] == b' ' && !bytes[i - 1].is_ascii_whitespace()) {
        Some(cut) => memo.count(&a[..cut]),
        None => 0,
    }
}

/// ptc's own prompt token count (what `ptc render` prints): content tokens
/// plus [`PER_MESSAGE_OVERHEAD`] per message plus [`REPLY_PRIMING`].
pub(crate) fn chat_tokens(prompt: &Prompt, memo: &mut TokenMemo) -> u64 {
    let content: u64 = prompt.messages.iter().map(|m| memo.count(&m.text()) + PER_MESSAGE_OVERHEAD as u64).sum();
    content + REPLY_PRIMING as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::{Block, Message};

    fn counter() -> ptc_tokens::TokenCounter {
        ptc_tokens::TokenCounter::new(ptc_tokens::DEFAULT_ENCODING).unwrap()
    }

    fn prompt() -> Prompt {
        Prompt::new(vec![
            Message::system("You are a PTC-Lisp agent."),
            Message::with_blocks(
                Role::User,
                vec![Block::new("Mission: \"count\" orders.\n"), Block::breakpoint("Turns left: 5")],
            ),
            Message::assistant("```clojure\n(count data/orders)\n```"),
            Message::user("user=> 40"),
        ])
    }

    #[test]
    fn openai_pieces_concatenate_to_the_request_body() {
        let c = counter();
        let mut memo = TokenMemo::new(&c);
        let req = openai(&prompt(), &mut memo);
        let body: String = req.segments.iter().map(|s| s.text.as_deref().unwrap()).collect::<String>() + "]";
        let want = serde_json::json!([
            {"role": "system", "content": "You are a PTC-Lisp agent."},
            {"role": "user", "content": "Mission: \"count\" orders.\nTurns left: 5"},
            {"role": "assistant", "content": "```clojure\n(count data/orders)\n```"},
            {"role": "user", "content": "user=> 40"},
        ]);
        assert_eq!(body, want.to_string());
        let pieces: u64 = req.segments.iter().map(|s| c.count(s.text.as_deref().unwrap()) as u64).sum();
        assert_eq!(req.prompt_tokens(), pieces + c.count("]") as u64);
    }

    #[test]
    fn anthropic_pieces_concatenate_to_the_request_body() {
        let c = counter();
        let mut memo = TokenMemo::new(&c);
        // A system message after the others still goes to `system`.
        let mut p = prompt();
        p.messages.push(Message::system("Final turn."));
        let req = anthropic(&p, 4, &mut memo);
        assert_eq!(req.segments.len(), 6);
        let text = |t: &str| serde_json::json!({"type": "text", "text": t});
        let want = serde_json::json!({
            "system": [text("You are a PTC-Lisp agent."), text("Final turn.")],
            "messages": [
                {"role": "user", "content": [text("Mission: \"count\" orders.\n"), text("Turns left: 5")]},
                {"role": "assistant", "content": [text("```clojure\n(count data/orders)\n```")]},
                {"role": "user", "content": [text("user=> 40")]},
            ]
        })
        .to_string();
        // Rebuild the body from the pieces' token counts: each piece is the
        // body between two block boundaries.
        let mut rest = want.as_str();
        for s in &req.segments {
            let cut = (1..=rest.len()).find(|&n| rest.is_char_boundary(n) && content_hash(&rest[..n]) == s.id).unwrap();
            assert_eq!(s.tokens, c.count(&rest[..cut]) as u64);
            rest = &rest[cut..];
        }
        assert_eq!(rest, "]}]}");
        let flags: Vec<bool> = req.segments.iter().map(|s| s.breakpoint).collect();
        assert_eq!(flags, [false, false, false, true, false, false]);
    }

    #[test]
    fn breakpoints_default_to_the_system_prompt_and_the_last_block_and_keep_the_earliest_and_the_last() {
        let mut p = prompt();
        assert_eq!(sent_breakpoints(&p, 4), [BlockPosition { message: 1, block: 1 }]);
        p.messages[1].blocks[1].breakpoint = false;
        let automatic = [BlockPosition { message: 0, block: 0 }, BlockPosition { message: 3, block: 0 }];
        assert_eq!(sent_breakpoints(&p, 4), automatic);
        assert_eq!(choose_breakpoints(&[1, 3, 5, 7, 9, 11], 1, 12, 4), [1, 3, 5, 11]);
        assert_eq!(choose_breakpoints(&[], 1, 12, 4), [0, 11]);
        assert_eq!(choose_breakpoints(&[], 0, 12, 4), [11]);
        assert_eq!(choose_breakpoints(&[1, 3, 5], 0, 12, 1), [5]);
        assert_eq!(choose_breakpoints(&[], 0, 0, 4), Vec::<usize>::new());
    }

    #[test]
    fn chat_tokens_match_ptc_tokens() {
        let c = counter();
        let mut memo = TokenMemo::new(&c);
        let p = prompt();
        let abi: Vec<ptc_plugin_api::Message> = p
            .messages
            .iter()
            .map(|m| match m.role {
                Role::System => ptc_plugin_api::Message::system(m.text()),
                Role::User => ptc_plugin_api::Message::user(m.text()),
                Role::Assistant => ptc_plugin_api::Message::assistant(m.text()),
            })
            .collect();
        assert_eq!(chat_tokens(&p, &mut memo), c.count_messages(&abi) as u64);
        assert_eq!(memo.distinct_texts(), 4);
    }

    #[test]
    fn shared_tokens_stop_at_the_last_whole_word() {
        let c = counter();
        let mut memo = TokenMemo::new(&c);
        let a = r#",{"role":"user","content":"Mission: count the orders.\nTurns left: 5"}"#;
        let b = r#",{"role":"user","content":"Mission: count the orders.\nTurns left: 4"}"#;
        let cut = r#",{"role":"user","content":"Mission: count the orders.\nTurns left:"#;
        assert_eq!(shared_tokens(a, b, &mut memo), c.count(cut) as u64);
        // The tokens before the cut are a prefix of both pieces' tokens.
        assert!(c.count(cut) < c.count(a) && c.count(cut) < c.count(b));
        assert_eq!(shared_tokens("abc", "xyz", &mut memo), 0);
    }
}
