//! A prepared vocabulary, read in place from the tables `build.rs` wrote
//! (layout in `layout`): the rank of a byte string, without building a map.

use crate::layout;

/// One encoding's ordinary tokens.
pub(crate) struct Vocab {
    bytes: &'static [u8],
    offsets: &'static [u8],
    slots: &'static [u8],
    bits: u32,
}

impl Vocab {
    /// The tables as `build.rs` wrote them.
    pub(crate) const fn new(bytes: &'static [u8], offsets: &'static [u8], slots: &'static [u8]) -> Vocab {
        Vocab { bytes, offsets, slots, bits: (slots.len() / 4).trailing_zeros() }
    }

    fn word(table: &[u8], i: usize) -> u32 {
        u32::from_le_bytes(table[4 * i..4 * i + 4].try_into().expect("a 4-byte slice"))
    }

    fn token(&self, rank: u32) -> &'static [u8] {
        let at = |i: u32| Self::word(self.offsets, i as usize) as usize;
        &self.bytes[at(rank)..at(rank + 1)]
    }

    /// The rank of `piece`, when it is a token.
    pub(crate) fn rank(&self, piece: &[u8]) -> Option<u32> {
        let mask = (1usize << self.bits) - 1;
        let mut i = layout::slot(piece, self.bits);
        loop {
            match Self::word(self.slots, i) {
                0 => return None,
                stored if self.token(stored - 1) == piece => return Some(stored - 1),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// How many tokens there are.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.offsets.len() / 4 - 1
    }
}
