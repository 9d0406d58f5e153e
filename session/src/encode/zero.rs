//! Clearing an output buffer before a writer fills it, at the cost of reading what is
//! already zero rather than writing it again.
//!
//! An observation is mostly zeros, and mostly the same zeros from one step to the next:
//! of the full preset's 125 planes a base game ever sets about twenty, and a mask offers
//! a few dozen of its thousands of ids. Clearing such a buffer with `fill(0)` writes
//! every byte, and a batch of games (a `VectorEnv` of 256 writes 36 MB of observations a
//! step) pays for each written cache line twice: once to fetch it, once to write it back.
//! [`zero_bytes`] and friends read the buffer in chunks of [`CHUNK_BYTES`] and write only
//! the chunks that hold something: a chunk that is already zero is read, not dirtied.
//! Whatever the buffer held (the previous step's observation, or bytes a caller wrote
//! into it), it is all zero afterwards.
//!
//! ```
//! use carcassonne_session::encode::zero_bytes;
//! let mut planes = vec![0u8; 4096];
//! planes[17] = 1;
//! planes[3000] = 255;
//! zero_bytes(&mut planes);
//! assert!(planes.iter().all(|b| *b == 0));
//! ```

/// The bytes read before deciding whether to write them back: a plane of the default
/// 32-square window.
pub const CHUNK_BYTES: usize = 1024;

/// Sets every byte of `buf` to 0, writing only the chunks that are not zero already.
pub fn zero_bytes(buf: &mut [u8]) {
    for chunk in buf.chunks_mut(CHUNK_BYTES) {
        // An OR over the whole chunk (no early exit) vectorises into a few wide loads.
        if chunk.iter().fold(0u8, |acc, b| acc | b) != 0 {
            chunk.fill(0);
        }
    }
}

/// [`zero_bytes`] for a mask (`i8`).
pub fn zero_mask(buf: &mut [i8]) {
    for chunk in buf.chunks_mut(CHUNK_BYTES) {
        if chunk.iter().fold(0i8, |acc, b| acc | b) != 0 {
            chunk.fill(0);
        }
    }
}

/// [`zero_bytes`] for floats: afterwards every value is `+0.0` (a `-0.0` or a NaN is
/// written over like any other value).
pub fn zero_floats(buf: &mut [f32]) {
    for chunk in buf.chunks_mut(CHUNK_BYTES / 4) {
        if chunk.iter().fold(0u32, |acc, x| acc | x.to_bits()) != 0 {
            chunk.fill(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chunk_ends_zero_whatever_it_held() {
        // Lengths around the chunk size, values in the first, a middle and the last chunk.
        for len in [
            0,
            1,
            CHUNK_BYTES - 1,
            CHUNK_BYTES,
            CHUNK_BYTES + 1,
            5 * CHUNK_BYTES + 7,
        ] {
            let mut bytes = vec![0u8; len];
            let mut mask = vec![0i8; len];
            let mut floats = vec![0f32; len];
            for i in [0, len / 2, len.saturating_sub(1)]
                .into_iter()
                .filter(|i| *i < len)
            {
                bytes[i] = 0x80;
                mask[i] = -1;
                floats[i] = -0.0;
            }
            zero_bytes(&mut bytes);
            zero_mask(&mut mask);
            zero_floats(&mut floats);
            assert!(bytes.iter().all(|b| *b == 0), "bytes, length {len}");
            assert!(mask.iter().all(|b| *b == 0), "mask, length {len}");
            assert!(
                floats.iter().all(|x| x.to_bits() == 0),
                "floats, length {len}"
            );
        }
    }

    #[test]
    fn nan_and_negative_zero_are_cleared() {
        let mut floats = vec![f32::NAN, -0.0, 0.0, f32::MIN_POSITIVE];
        zero_floats(&mut floats);
        assert!(floats.iter().all(|x| x.to_bits() == 0));
    }
}
