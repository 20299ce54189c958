//! Counts equal tiktoken's (`tiktoken-rs`, `encode_with_special_tokens`),
//! the counter ptc used before: over the session corpus (every file's whole
//! text, every string in it, every turn's strings joined as a prompt would
//! join them) and over generated text that mixes the character classes the
//! pre-tokenizer splits on.

use ptc_tokens::TokenCounter;
use std::path::PathBuf;

/// tiktoken-rs's encoder, built once per test binary.
fn reference(encoding: &str) -> &'static tiktoken_rs::CoreBPE {
    match encoding {
        "o200k_base" => tiktoken_rs::o200k_base_singleton(),
        "cl100k_base" => tiktoken_rs::cl100k_base_singleton(),
        other => panic!("no reference for {other}"),
    }
}

/// Every `*.json` of the workspace's session corpus.
fn corpus() -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/sessions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the session corpus is readable")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the corpus is missing: {files:?}");
    files.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

/// Every string in a JSON value, depth first.
fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings(v, out)
        }),
        _ => {}
    }
}

/// The texts of one session file: the whole file, each string, and each
/// turn's strings joined by newlines.
fn texts(file: &str) -> Vec<String> {
    let json: serde_json::Value = serde_json::from_str(file).expect("a corpus file is JSON");
    let mut out = vec![file.to_string()];
    strings(&json, &mut out);
    for turn in json["turns"].as_array().into_iter().flatten() {
        let mut parts = Vec::new();
        strings(turn, &mut parts);
        out.push(parts.join("\n"));
    }
    out
}

fn assert_same_counts(encoding: &str, texts: impl IntoIterator<Item = String>, what: &str) -> usize {
    let (ours, theirs) = (TokenCounter::new(encoding).unwrap(), reference(encoding));
    let mut checked = 0;
    for text in texts {
        let expected = theirs.encode_with_special_tokens(&text).len();
        assert_eq!(ours.count(&text), expected, "{encoding}, {what}: {:?}", text.chars().take(200).collect::<String>());
        checked += 1;
    }
    checked
}

#[test]
fn the_corpus_counts_as_tiktoken_counts_it() {
    for encoding in ptc_tokens::ENCODINGS {
        let mut checked = 0;
        for (path, file) in corpus() {
            checked += assert_same_counts(encoding, texts(&file), &path.display().to_string());
        }
        assert!(checked > 1000, "{checked} texts");
    }
}

/// A small deterministic generator (xorshift): the same texts every run.
struct Texts(u64);

impl Texts {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Up to 60 pieces, each from a class the pre-tokenizers treat apart.
    fn text(&mut self) -> String {
        const PIECES: &[&str] = &[
            " ",
            "  ",
            "\n",
            "\r\n",
            "\t",
            " \n ",
            "a",
            "The",
            "HELLO",
            "camelCase",
            "'s",
            "'LL",
            "'re",
            "don't",
            "1",
            "123",
            "45678",
            "3.14",
            "-",
            "(def x [1 2 3])",
            "{:a 1}",
            "\"",
            "/",
            "//",
            "...",
            "é",
            "e\u{301}",
            "Straße",
            "日本語",
            "한국어",
            "مرحبا",
            "😀",
            "👩‍💻",
            "🇫🇷",
            "\u{200b}",
            "<|",
            "|>",
            "<|endoftext|>",
            "<|endofprompt|>",
            "<|fim_prefix|>",
            "<|endoftext",
            "ǅ",
            "ﬁ",
            "\u{0}",
            "\u{7f}",
            "  \n\n  ",
            "x\n",
            "\n/",
            "\n\r",
            "\u{85}",
            "\u{2028}",
            "\u{3000}",
            ".\n",
            ")\n/usr",
        ];
        let n = self.next() % 60;
        (0..n).map(|_| PIECES[(self.next() % PIECES.len() as u64) as usize]).collect()
    }
}

#[test]
fn generated_text_counts_as_tiktoken_counts_it() {
    for encoding in ptc_tokens::ENCODINGS {
        let mut gen = Texts(0x9e37_79b9_7f4a_7c15);
        let texts: Vec<String> = (0..3000).map(|_| gen.text()).collect();
        assert_eq!(assert_same_counts(encoding, texts, "generated"), 3000);
    }
}

/// Pieces of 100 bytes or more take tiktoken's other merge loop.
#[test]
fn long_pieces_count_as_tiktoken_counts_them() {
    let mut gen = Texts(7);
    let letters: String = (0..400).map(|_| (b'a' + (gen.next() % 26) as u8) as char).collect();
    let base64: String = (0..3000)
        .map(|_| {
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(gen.next() % 64) as usize] as char
        })
        .collect();
    let texts = [
        "a".repeat(500),
        letters,
        base64,
        "🙂".repeat(80),
        "日本語".repeat(60),
        " ".repeat(300) + "x",
        "\n".repeat(200),
        "-=".repeat(150),
        format!("Über{}", "straße".repeat(40)),
    ];
    for encoding in ptc_tokens::ENCODINGS {
        assert_same_counts(encoding, texts.iter().cloned(), "long piece");
    }
}

/// The memo counts a long text chunk by chunk (`TokenMemo`): its sums equal
/// tiktoken's count of the whole, over the corpus and over long generated
/// texts, with chunks shared between texts as they are within a run.
#[test]
fn the_memo_counts_long_texts_as_tiktoken_counts_them() {
    for encoding in ptc_tokens::ENCODINGS {
        let (counter, theirs) = (TokenCounter::new(encoding).unwrap(), reference(encoding));
        let mut memo = ptc_tokens::TokenMemo::new(&counter);
        let mut gen = Texts(0x51_7cc1_b727_220a);
        let generated = (0..300).map(|_| (0..12).map(|_| gen.text()).collect::<Vec<_>>().join("\n"));
        // As the cost accounting counts them: JSON-escaped, no line feeds.
        let escaped = |text: String| [serde_json::to_string(&text).expect("a string serializes"), text];
        let corpus = corpus().into_iter().flat_map(|(_, file)| texts(&file)).flat_map(escaped);
        // A shorter text is counted whole, as the test above checks.
        let mut long = 0;
        for text in corpus.chain(generated).filter(|t| t.len() >= 2 * ptc_tokens::MIN_CHUNK_BYTES) {
            long += 1;
            let expected = theirs.encode_with_special_tokens(&text).len() as u64;
            assert_eq!(memo.count(&text), expected, "{encoding}: {:?}", text.chars().take(200).collect::<String>());
        }
        assert!(long > 600, "{long} texts long enough to be chunked");
    }
}
