//! The actor queue's ordered store: a persistent sorted sequence of small blocks.
//!
//! A scheduler mostly takes the first entry and puts one back near the end: every action
//! reschedules its actor after everyone already waiting for the same tick. A B+tree pays a
//! node search and a shift of up to a node's entries for both. Here the entries are cut in
//! blocks of at most [`CAP`], in key order, each block behind its own reference count and
//! the list of blocks behind one more:
//! - taking the first entry moves the first block's start on (no shift; an emptied block
//!   leaves the list);
//! - putting an entry after every other one appends to the last block, or starts a block;
//! - any other insertion, removal or lookup finds its block: the first block when the key
//!   is at most its last (the scheduler's case: the actor acting now is first, and every
//!   action looks up and removes its key), else by binary search over the blocks' last keys
//!   (each probe a block away in memory); then it shifts at most [`CAP`] entries within that
//!   block (a full block splits).
//!
//! Persistence: a write copies the list of block pointers (one reference-count increment
//! per block) once per shared version, and each block it touches once; a block copy keeps
//! only its live entries. So a value kept in a history holds the blocks its turn changed
//! plus the pointer list.
//!
//! Costs (n entries, b = ⌈n / `CAP`⌉ blocks): first Θ(1); take first Θ(1) (plus Θ(b) when it
//! empties a block: the list shifts); insert, remove and get Θ(log b + `CAP`), Θ(`CAP`) in the
//! first block and Θ(1) for the first key or one below it; copy on the first
//! write after a clone Θ(b); iteration Θ(n).

use std::collections::VecDeque;
use std::sync::Arc;

use crate::thing::ThingId;

/// A queue key: (time it acts, order it was queued in).
pub(crate) type Key = (u64, u64);

/// Entries per block at most.
const CAP: usize = 32;

/// Consecutive entries in key order; those before `start` were taken and are dead.
#[derive(Debug)]
struct Block {
    start: usize,
    items: Vec<(Key, ThingId)>,
}

impl Clone for Block {
    /// A copy of the live entries only.
    fn clone(&self) -> Self {
        Block {
            start: 0,
            items: self.live().to_vec(),
        }
    }
}

impl Block {
    fn live(&self) -> &[(Key, ThingId)] {
        &self.items[self.start..]
    }

    /// The last key (a block in the list is never empty).
    fn last(&self) -> Key {
        self.items.last().map_or((0, 0), |e| e.0)
    }

    fn len(&self) -> usize {
        self.items.len() - self.start
    }

    /// Drop the dead entries, so that `items` is all live.
    fn compact(&mut self) {
        if self.start > 0 {
            self.items.drain(..self.start);
            self.start = 0;
        }
    }
}

/// A persistent sorted map from [`Key`] to actor; see the module documentation.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunQueue {
    blocks: Arc<VecDeque<Arc<Block>>>,
    len: usize,
}

impl PartialEq for RunQueue {
    fn eq(&self, o: &Self) -> bool {
        self.len == o.len && self.iter().eq(o.iter())
    }
}

impl RunQueue {
    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is held.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entry with the least key.
    #[inline]
    pub(crate) fn first(&self) -> Option<(Key, ThingId)> {
        self.blocks.front().and_then(|b| b.live().first().copied())
    }

    /// Every entry in key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Key, ThingId)> + '_ {
        self.blocks.iter().flat_map(|b| b.live().iter().copied())
    }

    /// The actor under `key`, if any. Θ(1) for the first key or one below it, else
    /// Θ(log b + log `CAP`).
    pub(crate) fn get(&self, key: Key) -> Option<ThingId> {
        // The scheduler asks of the first key (its actor's, still queued or taken since):
        // answered by the first entry, the least.
        match self.first() {
            Some((k, id)) if k == key => return Some(id),
            Some((k, _)) if key < k => return None,
            None => return None,
            _ => {}
        }
        let b = self.blocks.get(self.block_for(key))?;
        let live = b.live();
        live.binary_search_by(|e| e.0.cmp(&key))
            .ok()
            .map(|i| live[i].1)
    }

    /// `id`'s key, if it is held: a walk in key order, Θ(n).
    pub(crate) fn find(&self, id: ThingId) -> Option<Key> {
        self.iter().find(|e| e.1 == id).map(|e| e.0)
    }

    /// The index of the block where `key` belongs: the first whose last key is at least
    /// `key`, or the last block. Θ(1) for a key of the first block (the scheduler's: the
    /// actor acting now is first), else a binary search over the blocks, each probe a block
    /// away in memory.
    #[inline]
    fn block_for(&self, key: Key) -> usize {
        match self.blocks.front() {
            Some(b) if key <= b.last() => 0,
            _ => {
                let i = self.blocks.partition_point(|b| b.last() < key);
                i.min(self.blocks.len().saturating_sub(1))
            }
        }
    }

    /// Add `id` under `key` (replacing the entry under `key`, if any).
    pub(crate) fn insert(&mut self, key: Key, id: ThingId) {
        self.len += 1;
        let blocks = Arc::make_mut(&mut self.blocks);
        let Some(last) = blocks.back_mut() else {
            blocks.push_back(Arc::new(Block {
                start: 0,
                items: vec![(key, id)],
            }));
            return;
        };
        // The usual case: after every entry.
        if last.last() < key {
            if last.len() < CAP {
                let b = Arc::make_mut(last);
                b.compact();
                b.items.push((key, id));
            } else {
                let mut items = Vec::with_capacity(CAP);
                items.push((key, id));
                blocks.push_back(Arc::new(Block { start: 0, items }));
            }
            return;
        }
        let i = self.block_for(key);
        let blocks = Arc::make_mut(&mut self.blocks);
        let b = Arc::make_mut(&mut blocks[i]);
        b.compact();
        let at = b.items.partition_point(|e| e.0 < key);
        if b.items.get(at).is_some_and(|e| e.0 == key) {
            // Held already: the entry is replaced, as a map's would be.
            b.items[at].1 = id;
            self.len -= 1;
            return;
        }
        b.items.insert(at, (key, id));
        if b.items.len() > CAP {
            let tail = b.items.split_off(b.items.len() / 2);
            let mut items = Vec::with_capacity(CAP);
            items.extend(tail);
            blocks.insert(i + 1, Arc::new(Block { start: 0, items }));
        }
    }

    /// Take the entry under `key` out; whether it was held.
    pub(crate) fn remove(&mut self, key: Key) -> bool {
        let (i, at) = match self.first() {
            // The scheduler's case: the first entry, the least.
            Some((k, _)) if k == key => (0, 0),
            Some((k, _)) if key < k => return false,
            None => return false,
            _ => {
                let i = self.block_for(key);
                let Ok(at) = self.blocks[i].live().binary_search_by(|e| e.0.cmp(&key)) else {
                    return false;
                };
                (i, at)
            }
        };
        self.len -= 1;
        let blocks = Arc::make_mut(&mut self.blocks);
        if blocks[i].len() == 1 {
            blocks.remove(i);
            return true;
        }
        let b = Arc::make_mut(&mut blocks[i]);
        if at == 0 {
            // The first live entry: move the start on, shifting nothing (a copy made just
            // now has no dead entries, so this stays right).
            b.start += 1;
        } else {
            b.items.remove(b.start + at);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A small deterministic generator (xorshift), so the test needs no dependency.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// Random inserts and removals, mostly the scheduler's pattern (take the first, put
    /// one after the rest) and some anywhere, with `get`
    /// and `find` checked each step, against a `BTreeMap`; older versions kept and checked
    /// again at the end, so a write that changed a shared block shows.
    #[test]
    fn matches_an_ordered_map_and_keeps_old_versions() {
        let mut s = 0x9e37_79b9_7f4a_7c15_u64;
        let mut q = RunQueue::default();
        let mut m: BTreeMap<Key, ThingId> = BTreeMap::new();
        let mut seq = 0u64;
        let mut kept = Vec::new();
        for step in 0..20_000u64 {
            let r = next(&mut s) % 10;
            if r < 4 && !m.is_empty() {
                let (&k, &id) = m.iter().next().expect("first");
                assert_eq!(q.first(), Some((k, id)));
                assert!(q.remove(k));
                m.remove(&k);
                let nk = (k.0 + 100, seq);
                seq += 1;
                q.insert(nk, id);
                m.insert(nk, id);
            } else if r < 6 && !m.is_empty() {
                let n = usize::try_from(next(&mut s) % m.len() as u64).expect("index");
                let k = *m.keys().nth(n).expect("key");
                assert!(q.remove(k));
                m.remove(&k);
                assert!(!q.remove(k), "a key taken twice");
            } else {
                let k = (next(&mut s) % 500, seq);
                seq += 1;
                q.insert(k, ThingId(step));
                m.insert(k, ThingId(step));
            }
            if let Some((&k, &id)) = m.iter().nth(m.len() / 2) {
                assert_eq!(q.get(k), Some(id));
                assert_eq!(q.find(id), Some(k));
                assert_eq!(q.get((k.0, u64::MAX)), m.get(&(k.0, u64::MAX)).copied());
            }
            assert_eq!(q.find(ThingId(u64::MAX)), None);
            assert_eq!(q.len(), m.len());
            assert_eq!(q.is_empty(), m.is_empty());
            if step % 997 == 0 {
                kept.push((q.clone(), m.clone()));
            }
        }
        assert!(q.iter().eq(m.iter().map(|(k, v)| (*k, *v))));
        for (q, m) in &kept {
            assert!(q.iter().eq(m.iter().map(|(k, v)| (*k, *v))));
            assert_eq!(q.first(), m.iter().next().map(|(k, v)| (*k, *v)));
        }
        assert!(kept[3].0 != kept[4].0 && kept[3].0 == kept[3].0.clone());
    }
}
