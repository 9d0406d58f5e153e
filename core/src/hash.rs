//! The 64-bit FNV-1a hash, written once for every layer: [`Game::state_hash`], the
//! observation layout's fingerprint, the ids of matches' and self-play runs' games.
//!
//! FNV-1a is kept for its one property that matters here: the value of the same bytes is
//! the same on every platform, build and release (unlike [`std::hash::DefaultHasher`]).
//! It is not a cryptographic hash.
//!
//! [`Game::state_hash`]: crate::Game::state_hash

use std::hash::Hasher;

/// The FNV-1a 64-bit offset basis: the hash of no bytes.
pub const FNV1A_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The FNV-1a 64-bit prime (2^40 + 2^8 + 0xb3).
pub const FNV1A_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The 64-bit FNV-1a hash of `bytes`.
///
/// ```
/// assert_eq!(carcassonne::hash::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.write(bytes);
    h.finish()
}

/// 64-bit FNV-1a as a [`Hasher`], for hashing with `#[derive(Hash)]`. Integers are
/// written little-endian in their own width, and `usize`/`isize` (lengths among them)
/// as 8 bytes, so a value hashes alike on every platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(FNV1A_OFFSET)
    }
}

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(FNV1A_PRIME);
        }
    }

    fn write_u16(&mut self, i: u16) {
        self.write(&i.to_le_bytes());
    }

    fn write_u32(&mut self, i: u32) {
        self.write(&i.to_le_bytes());
    }

    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_le_bytes());
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn write_i16(&mut self, i: i16) {
        self.write(&i.to_le_bytes());
    }

    fn write_i32(&mut self, i: i32) {
        self.write(&i.to_le_bytes());
    }

    fn write_i64(&mut self, i: i64) {
        self.write(&i.to_le_bytes());
    }

    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as i64 as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    /// The 64-bit FNV-1a test vectors published with the algorithm (IETF
    /// draft-eastlake-fnv, section "Test Vectors"; Landon Curt Noll's test_fnv.c).
    #[test]
    fn published_test_vectors() {
        let vectors: [(&[u8], u64); 3] = [
            (b"", 0xcbf2_9ce4_8422_2325),
            (b"a", 0xaf63_dc4c_8601_ec8c),
            (b"foobar", 0x8594_4171_f739_67e8),
        ];
        for (input, want) in vectors {
            assert_eq!(fnv1a(input), want, "FNV-1a 64 of {input:?}");
        }
    }

    /// Bytes written in pieces hash as the same bytes written at once.
    #[test]
    fn pieces_hash_as_the_whole() {
        let mut h = Fnv1a::default();
        h.write(b"foo");
        h.write(b"bar");
        assert_eq!(h.finish(), 0x8594_4171_f739_67e8);
    }

    /// Integers hash as their little-endian bytes in their own width; `usize` as 8 bytes
    /// whatever the platform's width.
    #[test]
    fn integers_hash_as_little_endian_bytes() {
        let mut a = Fnv1a::default();
        a.write_i32(-2);
        assert_eq!(a.finish(), fnv1a(&[0xfe, 0xff, 0xff, 0xff]));
        let mut b = Fnv1a::default();
        7usize.hash(&mut b);
        assert_eq!(b.finish(), fnv1a(&[7, 0, 0, 0, 0, 0, 0, 0]));
        let mut c = Fnv1a::default();
        0x0102u16.hash(&mut c);
        assert_eq!(c.finish(), fnv1a(&[2, 1]));
    }
}
