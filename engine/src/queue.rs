//! A radix heap: a monotone priority queue for integer keys.
//!
//! Dijkstra and A* with a consistent heuristic only ever push keys at least as large as the
//! last key popped; a radix heap exploits that with 65 buckets indexed by the highest bit in
//! which a key differs from the last popped key. Push is Θ(1); pop is amortised
//! Θ(log(key range)) moves per item, with no comparisons between items in the common case.
//! Items pushed below the last popped key (possible only with an inconsistent heuristic)
//! are clamped up to it, which keeps the structure valid and makes the search merely
//! non-optimal, never wrong about reachability.

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct RadixHeap {
    last: u64,
    len: usize,
    buckets: Vec<Vec<(u64, u64)>>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap {
            last: 0,
            len: 0,
            buckets: vec![Vec::new(); 65],
        }
    }
}

#[inline]
fn bucket(last: u64, key: u64) -> usize {
    (64 - (key ^ last).leading_zeros()) as usize
}

impl RadixHeap {
    /// Empties the heap, keeping its memory; the next keys may start anywhere.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.last = 0;
        self.len = 0;
    }

    /// Adds `value` with priority `key` (clamped up to the last popped key).
    #[inline]
    pub(crate) fn push(&mut self, key: u64, value: u64) {
        let key = key.max(self.last);
        let i = bucket(self.last, key);
        if let Some(b) = self.buckets.get_mut(i) {
            b.push((key, value));
            self.len += 1;
        }
    }

    /// Removes an item with the smallest key (the most recently pushed among equals).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, u64)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let i = self.buckets.iter().position(|b| !b.is_empty())?;
            let items = std::mem::take(&mut self.buckets[i]);
            self.last = items.iter().map(|&(k, _)| k).min()?;
            for &(k, v) in &items {
                let j = bucket(self.last, k);
                self.buckets[j].push((k, v));
            }
            // Give the (now empty) allocation back so it is reused.
            let mut items = items;
            items.clear();
            self.buckets[i] = items;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }
}

/// Maps an `i64` to a `u64` with the same order.
#[inline]
pub(crate) fn key_of(v: i64) -> u64 {
    (v as u64) ^ (1 << 63)
}

/// Inverse of [`key_of`].
#[inline]
pub(crate) fn value_of(k: u64) -> i64 {
    (k ^ (1 << 63)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_order_with_monotone_pushes() {
        let mut h = RadixHeap::default();
        for (k, v) in [(5, 0), (3, 1), (9, 2), (3, 3), (70, 4)] {
            h.push(k, v);
        }
        assert_eq!(h.pop(), Some((3, 3)));
        h.push(4, 5);
        let mut out = Vec::new();
        while let Some((k, _)) = h.pop() {
            out.push(k);
        }
        assert_eq!(out, vec![3, 4, 5, 9, 70]);
        h.clear();
        h.push(1, 0);
        assert_eq!(h.pop(), Some((1, 0)));
        assert_eq!(h.pop(), None);
    }

    #[test]
    fn order_preserving_signed_keys() {
        let vals = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        for w in vals.windows(2) {
            assert!(key_of(w[0]) < key_of(w[1]));
            assert_eq!(value_of(key_of(w[0])), w[0]);
        }
    }

    #[test]
    fn keys_below_last_are_clamped() {
        let mut h = RadixHeap::default();
        h.push(10, 0);
        assert_eq!(h.pop(), Some((10, 0)));
        h.push(3, 1);
        assert_eq!(h.pop(), Some((10, 1)));
    }
}
