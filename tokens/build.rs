//! Prepares, per encoding, what counting needs so that loading it costs
//! nothing at run time: the vocabulary (taken from tiktoken-rs, the
//! reference) as tables read in place, and the pre-tokenizer as a sparse DFA
//! deserialized without compiling a regex.

#[allow(dead_code)]
#[path = "src/encodings.rs"]
mod encodings;
#[path = "src/layout.rs"]
mod layout;

use regex_automata::dfa::{dense, StartKind};
use regex_automata::MatchKind;
use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    for spec in encodings::ALL {
        let bpe = match spec.name {
            "o200k_base" => tiktoken_rs::o200k_base(),
            "cl100k_base" => tiktoken_rs::cl100k_base(),
            other => panic!("build.rs has no vocabulary for {other}"),
        }
        .expect("tiktoken-rs builds its own vocabularies");
        write_vocabulary(&out, spec.name, &tokens(&bpe));
        write_pretokenizer(&out, spec, big_endian);
    }
    for file in ["build.rs", "src/encodings.rs", "src/layout.rs"] {
        println!("cargo::rerun-if-changed={file}");
    }
}

/// The ordinary tokens by rank: ranks 0.. up to the first gap, where the
/// special tokens' ranks begin.
fn tokens(bpe: &tiktoken_rs::CoreBPE) -> Vec<Vec<u8>> {
    (0u32..).map_while(|rank| bpe.decode_bytes(&[rank]).ok()).collect()
}

fn write_vocabulary(out: &Path, name: &str, tokens: &[Vec<u8>]) {
    let mut bytes = Vec::new();
    let mut offsets = Vec::with_capacity(4 * (tokens.len() + 1));
    for token in tokens {
        offsets.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        bytes.extend_from_slice(token);
    }
    offsets.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    let bits = layout::slot_bits(tokens.len());
    let mut slots = vec![0u32; 1 << bits];
    let mask = slots.len() - 1;
    for (rank, token) in tokens.iter().enumerate() {
        let mut i = layout::slot(token, bits);
        while slots[i] != 0 {
            i = (i + 1) & mask;
        }
        // 0 marks an empty slot: ranks are stored plus one.
        slots[i] = rank as u32 + 1;
    }
    let slots: Vec<u8> = slots.iter().flat_map(|s| s.to_le_bytes()).collect();
    for (table, data) in [("bytes", &bytes), ("offsets", &offsets), ("slots", &slots)] {
        std::fs::write(out.join(layout::file(name, table)), data).expect("OUT_DIR is writable");
    }
}

fn write_pretokenizer(out: &Path, spec: &encodings::Spec, big_endian: bool) {
    let patterns: Vec<&str> = spec.patterns.iter().map(|(p, _)| *p).collect();
    let config = dense::Config::new().match_kind(MatchKind::LeftmostFirst).start_kind(StartKind::Anchored);
    let dfa = dense::Builder::new()
        .configure(config)
        .build_many(&patterns)
        .unwrap_or_else(|e| panic!("{}: the pre-tokenizer patterns compile: {e}", spec.name));
    let sparse = dfa.to_sparse().expect("a dense DFA converts to a sparse one");
    let bytes = if big_endian { sparse.to_bytes_big_endian() } else { sparse.to_bytes_little_endian() };
    std::fs::write(out.join(layout::file(spec.name, "dfa")), bytes).expect("OUT_DIR is writable");
}
