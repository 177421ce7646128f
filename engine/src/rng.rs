//! The deterministic random number generator carried inside every game value
//! (Xoshiro256++): the same seed gives the same numbers on every machine. Every draw is Θ(1);
//! the bounded helpers are unbiased.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// Xoshiro256++ state, owned by the [`Game`](crate::Game) value.
///
/// The same seed and the same sequence of calls give the same numbers on every machine.
/// All helpers are unbiased (rejection sampling) and never panic: an empty range yields its
/// lower bound. Size: 32 bytes; clone Θ(1); every draw Θ(1) expected.
///
/// ```
/// use alembic::rng::GameRng;
/// let mut a = GameRng::seed_from(7);
/// let mut b = GameRng::seed_from(7);
/// assert_eq!(a.range(1, 7), b.range(1, 7));
/// ```
///
/// Loading refuses the all-zero state: it is Xoshiro's fixed point (every draw is 0), so a
/// loop drawing until it sees a change would never end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawRng")]
pub struct GameRng(Xoshiro256PlusPlus);

/// The saved form of [`GameRng`], read before the state is checked (same shape as
/// `rand_xoshiro`'s own serde form).
#[derive(Deserialize)]
struct RawRng(RawState);

#[derive(Deserialize)]
struct RawState {
    s: [u64; 4],
}

impl TryFrom<RawRng> for GameRng {
    type Error = &'static str;

    fn try_from(raw: RawRng) -> Result<Self, Self::Error> {
        let s = raw.0.s;
        if s == [0; 4] {
            return Err("the random number generator's state is all zeros (a corrupt save)");
        }
        let mut seed = [0u8; 32];
        for (chunk, word) in seed.chunks_exact_mut(8).zip(s) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Ok(GameRng(Xoshiro256PlusPlus::from_seed(seed)))
    }
}

impl GameRng {
    /// A generator seeded from a single number (expanded with SplitMix64).
    #[must_use]
    pub fn seed_from(seed: u64) -> Self {
        GameRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// The next raw 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// The next raw 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A uniform number in `0..n`; `0` when `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        // Lemire's nearly-divisionless method with rejection: unbiased.
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// A uniform integer in `lo..=hi`; `lo` when `hi < lo`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = hi.abs_diff(lo);
        if span == u64::MAX {
            return self.next_u64() as i64;
        }
        lo.wrapping_add(self.below(span + 1) as i64)
    }

    /// A uniform index into a collection of `len` items; `None` when empty.
    pub fn index(&mut self, len: usize) -> Option<usize> {
        if len == 0 {
            None
        } else {
            Some(self.below(len as u64) as usize)
        }
    }

    /// A uniform float in `[0, 1)` with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p` (clamped to `[0, 1]`; NaN counts as 0).
    pub fn chance(&mut self, p: f64) -> bool {
        if p.is_nan() || p <= 0.0 {
            return false;
        }
        if p >= 1.0 {
            return true;
        }
        self.unit() < p
    }

    /// True with probability `num / den` (false when `den == 0`).
    pub fn one_in(&mut self, num: u64, den: u64) -> bool {
        den != 0 && self.below(den) < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = GameRng::seed_from(42);
        let mut b = GameRng::seed_from(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(GameRng::seed_from(1), GameRng::seed_from(2));
    }

    #[test]
    fn known_first_value_is_stable() {
        // Guards determinism across rand_xoshiro upgrades: saves and replays depend on it.
        let mut r = GameRng::seed_from(0);
        let first = r.next_u64();
        let mut again = GameRng::seed_from(0);
        assert_eq!(first, again.next_u64());
        assert_eq!(first, 0x53175d61490b23df, "stream changed: {first:#x}");
    }

    #[test]
    fn bounds_hold() {
        let mut r = GameRng::seed_from(9);
        for _ in 0..10_000 {
            let v = r.range(-3, 4);
            assert!((-3..=4).contains(&v));
            assert!(r.below(10) < 10);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(r.range(5, 2), 5);
        assert_eq!(r.below(0), 0);
        assert_eq!(r.index(0), None);
        let _ = r.range(i64::MIN, i64::MAX);
        assert!(!r.chance(f64::NAN));
        assert!(r.chance(1.0));
    }

    #[test]
    fn roughly_uniform() {
        let mut r = GameRng::seed_from(3);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }
}
