//! A stable 64-bit hasher for state hashes: the same value hashes the same on every run and
//! every machine (no random keys, lengths hashed as `u64`).

use std::hash::Hasher;

const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// A keyless, platform-independent hasher (a multiply–xorshift mix over 8-byte words).
///
/// Not for hash tables facing untrusted keys; for determinism checks and replays.
///
/// ```
/// use std::hash::{Hash, Hasher};
/// use alembic::hash::StableHasher;
/// let mut a = StableHasher::new();
/// "potion".hash(&mut a);
/// let mut b = StableHasher::new();
/// "potion".hash(&mut b);
/// assert_eq!(a.finish(), b.finish());
/// ```
#[derive(Clone, Debug)]
pub struct StableHasher {
    state: u64,
    pending: u64,
    pending_len: u32,
}

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher::new()
    }
}

impl StableHasher {
    /// A fresh hasher.
    #[must_use]
    pub fn new() -> Self {
        StableHasher {
            state: 0x243F_6A88_85A3_08D3,
            pending: 0,
            pending_len: 0,
        }
    }

    #[inline]
    fn mix(&mut self, word: u64) {
        let x = (self.state ^ word).wrapping_mul(K);
        self.state = x ^ (x >> 29) ^ (x << 17).wrapping_add(word.rotate_left(23));
    }
}

impl StableHasher {
    /// Append the low `n` bytes of `v` (1 ≤ n ≤ 8), least significant first, to the byte
    /// stream: the same as writing them one at a time, a word at a time.
    #[inline(always)]
    fn push(&mut self, v: u64, n: u32) {
        let used = self.pending_len;
        let room = 8 - used;
        if n < room {
            self.pending |= v << (8 * used);
            self.pending_len = used + n;
        } else {
            let w = self.pending | (v << (8 * used));
            self.mix(w);
            let rest = n - room;
            self.pending = if rest == 0 { 0 } else { v >> (8 * room) };
            self.pending_len = rest;
        }
    }
}

impl Hasher for StableHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.push(u64::from_le_bytes(w), 8);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.push(u64::from_le_bytes(w), rest.len() as u32);
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.push(u64::from(i), 1);
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.push(u64::from(i), 2);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.push(u64::from(i), 4);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.push(i, 8);
    }

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.push(i as u64, 8);
        self.push((i >> 64) as u64, 8);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn write_i8(&mut self, i: i8) {
        self.write_u8(i as u8);
    }

    #[inline]
    fn write_i16(&mut self, i: i16) {
        self.write_u16(i as u16);
    }

    #[inline]
    fn write_i32(&mut self, i: i32) {
        self.write_u32(i as u32);
    }

    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }

    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as i64 as u64);
    }

    fn finish(&self) -> u64 {
        let mut h = self.clone();
        let n = u64::from(h.pending_len);
        let p = h.pending;
        h.mix(p ^ (n << 56));
        let mut x = h.state;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn h<T: Hash>(v: &T) -> u64 {
        let mut s = StableHasher::new();
        v.hash(&mut s);
        s.finish()
    }

    /// The byte stream of the hasher as it was first written: one byte at a time.
    struct ByteAtATime(StableHasher);

    impl Hasher for ByteAtATime {
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                let h = &mut self.0;
                h.pending |= u64::from(b) << (8 * h.pending_len);
                h.pending_len += 1;
                if h.pending_len == 8 {
                    let w = h.pending;
                    h.mix(w);
                    h.pending = 0;
                    h.pending_len = 0;
                }
            }
        }
        fn write_u64(&mut self, i: u64) {
            self.write(&i.to_le_bytes());
        }
        fn write_usize(&mut self, i: usize) {
            self.write_u64(i as u64);
        }
        fn write_isize(&mut self, i: isize) {
            self.write_u64(i as i64 as u64);
        }
        fn finish(&self) -> u64 {
            self.0.finish()
        }
    }

    #[test]
    fn word_at_a_time_equals_byte_at_a_time() {
        // Every mix of widths and alignments hashes as the plain byte stream does.
        let mut x: u64 = 0x1234_5678_9abc_def0;
        for round in 0..2000u32 {
            let mut fast = StableHasher::new();
            let mut slow = ByteAtATime(StableHasher::new());
            for _ in 0..(round % 23) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % 9 {
                    0 => (x as u8).hash2(&mut fast, &mut slow),
                    1 => (x as u16).hash2(&mut fast, &mut slow),
                    2 => (x as u32).hash2(&mut fast, &mut slow),
                    3 => x.hash2(&mut fast, &mut slow),
                    4 => (x as i32).hash2(&mut fast, &mut slow),
                    5 => (u128::from(x) << 40 | 7).hash2(&mut fast, &mut slow),
                    6 => (x as usize).hash2(&mut fast, &mut slow),
                    7 => {
                        let s = "abcdefghijklmnopqrstuvwxyz";
                        s[..(x % 27) as usize].hash2(&mut fast, &mut slow);
                    }
                    _ => (x as i8, x as i16, x as i64).hash2(&mut fast, &mut slow),
                }
            }
            assert_eq!(fast.finish(), slow.finish(), "round {round}");
        }
    }

    trait Hash2 {
        fn hash2(&self, a: &mut StableHasher, b: &mut ByteAtATime);
    }

    impl<T: Hash + ?Sized> Hash2 for T {
        fn hash2(&self, a: &mut StableHasher, b: &mut ByteAtATime) {
            self.hash(a);
            self.hash(b);
        }
    }

    #[test]
    fn fixed_outputs() {
        // Pinned: saves and replay logs compare these across machines and releases.
        assert_eq!(h(&42u64), h(&42u64));
        assert_ne!(h(&1u64), h(&2u64));
        assert_ne!(h(&"ab"), h(&"ba"));
        assert_ne!(h(&(1u8, 2u8)), h(&(2u8, 1u8)));
        assert_eq!(h(&0u64), 0x7456_57dc_c858_d77c, "{:#x}", h(&0u64));
    }
}
