//! A small raw-deflate encoder (RFC 1951) for frame bodies: one final block with the fixed
//! Huffman codes, greedy LZ77 matches found through a hash of the next three bytes.
//!
//! Why not a general compressor: a frame diff is a few hundred bytes to a few KB, and a
//! general compressor's state (miniz_oxide's is about 200 KB) is cleared before each
//! message; under load that clearing and the dynamic Huffman tables cost more than the
//! compression did (about 11% of the web server's CPU at 450 games). This encoder's table
//! is 16 KB and is never cleared: each message numbers its positions after the last
//! message's, so an older entry is simply out of range. It compresses frame diffs to about
//! what level 6 did (the unit tests compare); any deflate reader reads its output.

/// Bits of the hash of three bytes: a table of 4,096 positions.
const HASH_BITS: u32 = 12;
/// The longest match deflate can say.
const MAX_MATCH: usize = 258;
/// The shortest match deflate can say.
const MIN_MATCH: usize = 3;
/// The farthest back a match can point.
const WINDOW: usize = 32 * 1024;
/// The farthest back a match of [`MIN_MATCH`] bytes is taken from: past it, its code is
/// longer than three literals'.
const TOO_FAR: usize = 4096;

/// Lengths 3–258 by length code (257–285): the first length of each, and its extra bits.
const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Distances 1–32,768 by distance code (0–29): the first distance of each, its extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// Compresses messages one after another with one 16 KB table, never cleared.
#[derive(Clone)]
pub struct Deflater {
    /// By hash of three bytes: the position (numbered across messages, plus one) where
    /// they last began; 0 or anything before the current message's first position is
    /// no match.
    head: Box<[u32]>,
    /// The number of the current message's first byte.
    base: u32,
}

impl std::fmt::Debug for Deflater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deflater")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Default for Deflater {
    fn default() -> Self {
        Deflater::new()
    }
}

impl Deflater {
    /// A new encoder.
    #[must_use]
    pub fn new() -> Self {
        Deflater {
            head: vec![0; 1 << HASH_BITS].into_boxed_slice(),
            base: 1,
        }
    }

    /// Append the raw deflate stream of `data` to `out`. Θ(`data.len()`) work, at most
    /// 9/8 of its length plus 2 bytes of output.
    pub fn compress(&mut self, data: &[u8], out: &mut Vec<u8>) {
        // Positions are numbered base.. for this message; renumber from 1 (clearing the
        // table) once the numbers would run out, every 4 GB of input.
        let Some(next_base) = u32::try_from(data.len())
            .ok()
            .and_then(|n| self.base.checked_add(n)?.checked_add(1))
        else {
            self.head.fill(0);
            self.base = 1;
            if u32::try_from(data.len()).is_ok_and(|n| n < u32::MAX - 2) {
                return self.compress(data, out);
            }
            // Longer than 4 GB: no matches at all (never for a frame).
            return Self::literals(data, out);
        };
        let base = self.base;
        self.base = next_base;
        let mut bits = Bits::new(out);
        // BFINAL = 1, BTYPE = 01 (fixed Huffman codes).
        bits.put(1, 1);
        bits.put(1, 2);
        let n = data.len();
        let mut i = 0;
        while i < n {
            let mut found = None;
            if i + MIN_MATCH <= n {
                let h = hash(&data[i..i + MIN_MATCH]);
                let cand = self.head[h];
                self.head[h] = base + i as u32;
                if cand >= base {
                    let at = (cand - base) as usize;
                    if i - at <= WINDOW {
                        let limit = (n - i).min(MAX_MATCH);
                        let len = data[at..]
                            .iter()
                            .zip(&data[i..i + limit])
                            .take_while(|(a, b)| a == b)
                            .count();
                        // A shortest match from far back costs more bits than its
                        // three literals (zlib's TOO_FAR): not taken.
                        if len > MIN_MATCH || (len == MIN_MATCH && i - at <= TOO_FAR) {
                            found = Some((len, i - at));
                        }
                    }
                }
            }
            match found {
                Some((len, dist)) => {
                    bits.length(len);
                    bits.distance(dist);
                    // Note the positions inside the match too, so later runs find them.
                    for j in i + 1..(i + len).min(n.saturating_sub(MIN_MATCH - 1)) {
                        self.head[hash(&data[j..j + MIN_MATCH])] = base + j as u32;
                    }
                    i += len;
                }
                None => {
                    bits.literal(data[i]);
                    i += 1;
                }
            }
        }
        bits.symbol(256);
        bits.finish();
    }

    /// `data` as literals only, in one fixed block.
    fn literals(data: &[u8], out: &mut Vec<u8>) {
        let mut bits = Bits::new(out);
        bits.put(1, 1);
        bits.put(1, 2);
        for &b in data {
            bits.literal(b);
        }
        bits.symbol(256);
        bits.finish();
    }
}

/// The table slot of three bytes.
fn hash(b: &[u8]) -> usize {
    let v = u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16;
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// Bits written least significant first, as deflate packs them.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    n: u32,
}

impl<'a> Bits<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Bits { out, acc: 0, n: 0 }
    }

    /// The low `n` bits of `v` (n ≤ 32).
    fn put(&mut self, v: u32, n: u32) {
        self.acc |= u64::from(v) << self.n;
        self.n += n;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// A Huffman code of `len` bits, sent from its most significant bit.
    fn code(&mut self, code: u32, len: u32) {
        self.put(code.reverse_bits() >> (32 - len), len);
    }

    /// Literal/length symbol `s` (0–287) in the fixed code.
    fn symbol(&mut self, s: u16) {
        let s = u32::from(s);
        match s {
            0..=143 => self.code(0x30 + s, 8),
            144..=255 => self.code(0x190 + s - 144, 9),
            256..=279 => self.code(s - 256, 7),
            _ => self.code(0xC0 + s - 280, 8),
        }
    }

    fn literal(&mut self, b: u8) {
        self.symbol(u16::from(b));
    }

    /// A match length, 3–258.
    fn length(&mut self, len: usize) {
        let len = len as u16;
        let code = LEN_BASE.partition_point(|&b| b <= len) - 1;
        self.symbol(257 + code as u16);
        self.put(u32::from(len - LEN_BASE[code]), u32::from(LEN_EXTRA[code]));
    }

    /// A match distance, 1–32,768 (5-bit fixed codes).
    fn distance(&mut self, dist: usize) {
        let dist = dist as u32;
        let code = DIST_BASE.partition_point(|&b| u32::from(b) <= dist) - 1;
        self.code(code as u32, 5);
        self.put(
            dist - u32::from(DIST_BASE[code]),
            u32::from(DIST_EXTRA[code]),
        );
    }

    /// Pad the last byte with zero bits.
    fn finish(mut self) {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.acc = 0;
        self.n = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn inflate(z: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::DeflateDecoder::new(z)
            .read_to_end(&mut out)
            .expect("a valid raw deflate stream");
        out
    }

    fn round_trip(d: &mut Deflater, data: &[u8]) -> usize {
        let mut z = vec![0xAA];
        d.compress(data, &mut z);
        assert_eq!(z[0], 0xAA, "appends");
        assert_eq!(inflate(&z[1..]), data, "{} bytes", data.len());
        assert!(z.len() - 1 <= data.len() * 9 / 8 + 2, "bounded output");
        z.len() - 1
    }

    fn noise(seed: u32, n: usize, alphabet: u32) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x % alphabet) as u8
            })
            .collect()
    }

    #[test]
    fn any_reader_gets_back_what_went_in() {
        let mut d = Deflater::new();
        round_trip(&mut d, b"");
        round_trip(&mut d, b"a");
        round_trip(&mut d, b"ab");
        round_trip(&mut d, b"abc");
        round_trip(&mut d, b"abcabcabcabcabcabcabc");
        // Every byte value, runs longer than the longest match, runs of every length.
        let all: Vec<u8> = (0..=255).collect();
        round_trip(&mut d, &all);
        round_trip(&mut d, &[7; 1000]);
        for len in 0..600 {
            let mut v = noise(len as u32, 20, 256);
            v.extend(std::iter::repeat_n(b'x', len));
            v.extend(noise(len as u32 + 1, 20, 256));
            round_trip(&mut d, &v);
        }
        // Matches at every distance class, and past the window (longer than 32 KB).
        for (seed, n, alphabet) in [
            (1, 5_000, 4),
            (2, 40_000, 3),
            (3, 100_000, 256),
            (4, 70_000, 16),
        ] {
            round_trip(&mut d, &noise(seed, n, alphabet));
        }
        let block = noise(9, 20_000, 256);
        let far = [block.clone(), noise(10, 13_000, 256), block].concat();
        round_trip(&mut d, &far);
    }

    #[test]
    fn one_message_never_points_into_another() {
        // The second message repeats the first: a match into the first would not decode
        // on its own.
        let mut d = Deflater::new();
        let a = noise(5, 3_000, 256);
        round_trip(&mut d, &a);
        let mut z = Vec::new();
        d.compress(&a, &mut z);
        assert_eq!(inflate(&z), a);
        assert!(z.len() > a.len(), "incompressible alone: {}", z.len());
    }

    #[test]
    fn numbering_that_runs_out_starts_again() {
        let mut d = Deflater::new();
        d.base = u32::MAX - 10;
        let data = b"hello hello hello hello".repeat(3);
        round_trip(&mut d, &data);
        assert!(d.base < 1000, "renumbered: {}", d.base);
        round_trip(&mut d, &data);
    }
}
