//! Byte-pair merging of one pre-tokenized piece, counting the tokens it
//! ends as. A port of tiktoken's two merge loops (a scan for short pieces,
//! a heap for long ones), so the merges, and the counts, are tiktoken's:
//! always the pair of lowest rank, the leftmost of equal ones.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// Tokens of `piece`, with `rank` the vocabulary.
pub(crate) fn count(piece: &[u8], rank: impl Fn(&[u8]) -> Option<u32>) -> usize {
    if piece.len() <= 1 || rank(piece).is_some() {
        return piece.len().min(1);
    }
    let rank = |bytes: &[u8]| rank(bytes).unwrap_or(NONE);
    if piece.len() < 100 {
        merge_by_scan(piece, rank)
    } else {
        merge_by_heap(piece, rank)
    }
}

/// tiktoken's `_byte_pair_merge`: `parts` holds each part's start and the
/// rank of the pair starting there; each step merges the lowest.
fn merge_by_scan(piece: &[u8], rank: impl Fn(&[u8]) -> u32) -> usize {
    let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
    let mut min = (NONE, usize::MAX);
    for i in 0..piece.len() - 1 {
        let r = rank(&piece[i..i + 2]);
        if r < min.0 {
            min = (r, i);
        }
        parts.push((i, r));
    }
    parts.push((piece.len() - 1, NONE));
    parts.push((piece.len(), NONE));
    // The rank of the pair starting at part `i` once part `i + 1` is gone.
    let pair_after_merge = |parts: &[(usize, u32)], i: usize| {
        if i + 3 < parts.len() {
            rank(&piece[parts[i].0..parts[i + 3].0])
        } else {
            NONE
        }
    };
    while min.0 != NONE {
        let i = min.1;
        if i > 0 {
            parts[i - 1].1 = pair_after_merge(&parts, i - 1);
        }
        parts[i].1 = pair_after_merge(&parts, i);
        parts.remove(i + 1);
        min = (NONE, usize::MAX);
        for (i, &(_, r)) in parts[..parts.len() - 1].iter().enumerate() {
            if r < min.0 {
                min = (r, i);
            }
        }
    }
    parts.len() - 1
}

/// One part of a long piece: where it ends, and the pair it would form with
/// the next part (`next_end`, `next_rank`).
struct Part {
    prev: usize,
    end: usize,
    next_end: usize,
    next_rank: u32,
}

/// tiktoken's `_byte_pair_merge_large`: candidate merges in a heap ordered
/// by (rank, start); a merge whose rank no longer matches its part is stale.
fn merge_by_heap(piece: &[u8], rank: impl Fn(&[u8]) -> u32) -> usize {
    let mut parts = Vec::with_capacity(piece.len());
    parts.push(Part { prev: usize::MAX, end: 1, next_end: 2, next_rank: NONE });
    let mut heap = BinaryHeap::with_capacity(piece.len());
    for i in 0..piece.len() - 1 {
        let r = rank(&piece[i..i + 2]);
        if r != NONE {
            heap.push(Reverse((r, i)));
            parts[i].next_rank = r;
        }
        parts.push(Part { prev: i, end: i + 2, next_end: i + 3, next_rank: NONE });
    }
    // The pair of part `start` becomes the one ending at `next_end`.
    let repair =
        |parts: &mut Vec<Part>, heap: &mut BinaryHeap<Reverse<(u32, usize)>>, start: usize, next_end: usize| {
            parts[start].next_end = next_end;
            parts[start].next_rank = NONE;
            if next_end <= piece.len() {
                let r = rank(&piece[start..next_end]);
                if r != NONE {
                    heap.push(Reverse((r, start)));
                    parts[start].next_rank = r;
                }
            }
        };
    while let Some(Reverse((r, left))) = heap.pop() {
        if r != parts[left].next_rank {
            continue;
        }
        let right = parts[left].end;
        let right_end = parts[left].next_end;
        let right_next_end = parts[right].next_end;
        parts[left].end = right_end;
        repair(&mut parts, &mut heap, left, right_next_end);
        if right_end < parts.len() {
            parts[right_end].prev = left;
        }
        if left > 0 {
            let prev = parts[left].prev;
            repair(&mut parts, &mut heap, prev, right_end);
        }
        parts[right].next_rank = NONE;
    }
    let (mut tokens, mut i) = (0, 0);
    while i < parts.len() {
        tokens += 1;
        i = parts[i].end;
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy vocabulary: every byte, and merges in a fixed order.
    fn rank(bytes: &[u8]) -> u32 {
        const MERGES: &[&[u8]] = &[b"ab", b"ba", b"aba", b"bab", b"abab", b"aa", b"abba", b"baba"];
        match bytes {
            [_] => 0,
            _ => MERGES.iter().position(|m| *m == bytes).map_or(NONE, |i| i as u32 + 1),
        }
    }

    #[test]
    fn both_merge_loops_agree_on_every_short_piece() {
        // Every string over {a, b} up to 12 bytes: ties, overlaps, chains.
        for len in 2..=12 {
            for bits in 0..(1u32 << len) {
                let piece: Vec<u8> = (0..len).map(|i| if bits >> i & 1 == 1 { b'a' } else { b'b' }).collect();
                assert_eq!(
                    merge_by_scan(&piece, rank),
                    merge_by_heap(&piece, rank),
                    "{:?}",
                    String::from_utf8_lossy(&piece)
                );
            }
        }
    }

    #[test]
    fn merges_follow_rank_then_position() {
        let count = |s: &str| count(s.as_bytes(), |b| Some(rank(b)).filter(|&r| r != NONE));
        assert_eq!(count("abab"), 1);
        assert_eq!(count("abc"), 2);
        assert_eq!(count(""), 0);
        // "ab" (rank 1) beats "ba" (rank 2): a|b|a -> ab|a -> aba.
        assert_eq!(count("aba"), 1);
        assert_eq!(count(&"ab".repeat(60)), 30, "a long piece merges through the heap");
    }
}
