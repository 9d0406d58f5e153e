//! A small, fast, seeded random number generator (xoshiro256**, seeded by SplitMix64).
//!
//! The engine owns its generator so that a game is reproducible from its seed on every
//! platform. Its whole state is four 64-bit words ([`Rng::state`], [`Rng::to_hex`]):
//! saved with a game, it lets the game continue with the same draws. Not for cryptography.
//!
//! ```
//! use carcassonne::Rng;
//! let mut a = Rng::new(7);
//! a.next_u64();
//! let mut b = Rng::from_hex(&a.to_hex()).unwrap();
//! assert_eq!(a.next_u64(), b.next_u64());
//! ```

/// Seeded pseudo-random generator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator from a 64-bit seed.
    pub fn new(seed: u64) -> Rng {
        let mut st = seed;
        Rng {
            s: [
                splitmix64(&mut st),
                splitmix64(&mut st),
                splitmix64(&mut st),
                splitmix64(&mut st),
            ],
        }
    }

    /// The generator's whole state: four 64-bit words, never all zero.
    pub const fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The generator at a saved [`Rng::state`]; `None` for the all-zero state, which
    /// xoshiro256** never reaches (it would only ever give zeros).
    pub fn from_state(s: [u64; 4]) -> Option<Rng> {
        (s != [0; 4]).then_some(Rng { s })
    }

    /// The state as 64 lowercase hexadecimal digits (the four words in order, each
    /// written most significant digit first), as records save it.
    pub fn to_hex(&self) -> String {
        self.s.iter().map(|w| format!("{w:016x}")).collect()
    }

    /// The generator from the text of [`Rng::to_hex`] (upper or lower case); an error
    /// says what is wrong with the text.
    pub fn from_hex(text: &str) -> Result<Rng, String> {
        if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "expected 64 hexadecimal digits, found {:?}",
                text.chars().take(80).collect::<String>()
            ));
        }
        let mut s = [0u64; 4];
        for (i, w) in s.iter_mut().enumerate() {
            *w = u64::from_str_radix(&text[i * 16..(i + 1) * 16], 16)
                .map_err(|e| format!("word {i}: {e}"))?;
        }
        Rng::from_state(s).ok_or_else(|| "the all-zero state is not a generator state".into())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
#[path = "tests/unit/rng.rs"]
mod tests;
