//! How the prepared vocabulary tables are laid out, shared by `build.rs`
//! (which writes them) and `vocab` (which reads them in place): the token
//! bytes in rank order, their offsets, and an open-addressing hash table
//! from bytes to rank. All integers are little-endian `u32`.

/// File names in `OUT_DIR`, per encoding (the `prepared!` macro of the
/// crate root spells the same names as literals, for `include_bytes!`).
#[allow(dead_code)] // called by build.rs only
pub fn file(encoding: &str, table: &str) -> String {
    format!("{encoding}.{table}")
}

/// The hash table has `2^bits` slots, at least twice the token count (a
/// short probe on a miss).
#[allow(dead_code)] // called by build.rs only
pub fn slot_bits(tokens: usize) -> u32 {
    (2 * tokens).next_power_of_two().trailing_zeros()
}

/// The first slot to probe for `bytes` (FNV-1a, then a multiplicative mix
/// so the top bits spread).
pub fn slot(bytes: &[u8], bits: u32) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}
