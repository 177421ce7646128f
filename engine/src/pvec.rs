//! A persistent vector indexed by `u64`, used for the id → thing index.

use std::sync::Arc;

const BITS: u32 = 4;
const FAN: usize = 1 << BITS;
const MASK: u64 = FAN as u64 - 1;

#[derive(Clone)]
enum Node<T> {
    Inner([Option<Arc<Node<T>>>; FAN]),
    Leaf([Option<T>; FAN]),
}

/// A sparse persistent array: clone Θ(1), get Θ(log₁₆ n), persistent set Θ(16 · log₁₆ n).
#[derive(Clone)]
pub(crate) struct PVec<T> {
    root: Option<Arc<Node<T>>>,
    /// Levels below the root; the root covers 16^(height+1) slots.
    height: u32,
    len: usize,
}

impl<T: Clone> PVec<T> {
    pub(crate) fn new() -> Self {
        PVec {
            root: None,
            height: 0,
            len: 0,
        }
    }

    /// Number of occupied slots.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    fn capacity_bits(&self) -> u32 {
        (self.height + 1) * BITS
    }

    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<&T> {
        let mut node = self.root.as_deref()?;
        let bits = self.capacity_bits();
        if bits < 64 && i >> bits != 0 {
            return None;
        }
        let mut shift = self.height * BITS;
        loop {
            let s = ((i >> shift) & MASK) as usize;
            match node {
                Node::Inner(kids) => {
                    node = kids[s].as_deref()?;
                    shift -= BITS;
                }
                Node::Leaf(items) => return items[s].as_ref(),
            }
        }
    }

    /// The value at `i`, mutable, with the path to it made unique (copying only what is
    /// shared with other vectors); `None` when the slot is empty.
    pub(crate) fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        self.get(i)?;
        let mut shift = self.height * BITS;
        let mut node = Arc::make_mut(self.root.as_mut()?);
        loop {
            let s = ((i >> shift) & MASK) as usize;
            match node {
                Node::Inner(kids) => {
                    node = Arc::make_mut(kids[s].as_mut()?);
                    shift = shift.checked_sub(BITS)?;
                }
                Node::Leaf(items) => return items[s].as_mut(),
            }
        }
    }

    /// Store `value` at `i` (or clear it with `None`); returns the previous value.
    pub(crate) fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        if self.root.is_none() {
            value.as_ref()?;
            self.root = Some(Arc::new(Node::Leaf(Default::default())));
            self.height = 0;
        }
        while self.capacity_bits() < 64 && i >> self.capacity_bits() != 0 {
            let mut kids: [Option<Arc<Node<T>>>; FAN] = Default::default();
            kids[0] = self.root.take();
            self.root = Some(Arc::new(Node::Inner(kids)));
            self.height += 1;
        }
        let mut shift = self.height * BITS;
        let root = self.root.as_mut()?;
        let mut node = Arc::make_mut(root);
        loop {
            let s = ((i >> shift) & MASK) as usize;
            match node {
                Node::Inner(kids) => {
                    let below = shift - BITS;
                    let child = kids[s].get_or_insert_with(|| {
                        Arc::new(if below == 0 {
                            Node::Leaf(Default::default())
                        } else {
                            Node::Inner(Default::default())
                        })
                    });
                    node = Arc::make_mut(child);
                    shift = below;
                }
                Node::Leaf(items) => {
                    let old = std::mem::replace(&mut items[s], value);
                    match (&old, &items[s]) {
                        (None, Some(_)) => self.len += 1,
                        (Some(_), None) => self.len -= 1,
                        _ => {}
                    }
                    return old;
                }
            }
        }
    }

    /// Every occupied (index, value), in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, &T)> {
        let mut out = Vec::with_capacity(self.len);
        if let Some(r) = &self.root {
            walk(r, 0, self.height * BITS, &mut out);
        }
        out.into_iter()
    }

    pub(crate) fn ptr_eq(&self, o: &Self) -> bool {
        match (&self.root, &o.root) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

fn walk<'a, T>(n: &'a Node<T>, base: u64, shift: u32, out: &mut Vec<(u64, &'a T)>) {
    match n {
        Node::Inner(kids) => {
            for (s, k) in kids.iter().enumerate() {
                if let Some(k) = k {
                    walk(
                        k,
                        base | ((s as u64) << shift),
                        shift.saturating_sub(BITS),
                        out,
                    );
                }
            }
        }
        Node::Leaf(items) => {
            for (s, it) in items.iter().enumerate() {
                if let Some(it) = it {
                    out.push((base | s as u64, it));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn matches_a_btreemap() {
        let mut p = PVec::new();
        let mut o = BTreeMap::new();
        let mut x: u64 = 12345;
        let mut snapshots = Vec::new();
        for step in 0..3000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = if step.is_multiple_of(7) { x } else { x % 5000 };
            if x.is_multiple_of(5) {
                assert_eq!(p.set(i, None), o.remove(&i));
            } else {
                assert_eq!(p.set(i, Some(step)), o.insert(i, step));
            }
            if step.is_multiple_of(500) {
                snapshots.push((p.clone(), o.clone()));
            }
        }
        assert_eq!(p.len(), o.len());
        let all: Vec<(u64, u64)> = p.iter().map(|(i, v)| (i, *v)).collect();
        let want: Vec<(u64, u64)> = o.iter().map(|(i, v)| (*i, *v)).collect();
        assert_eq!(all, want);
        for (sp, so) in snapshots {
            let a: Vec<(u64, u64)> = sp.iter().map(|(i, v)| (i, *v)).collect();
            let b: Vec<(u64, u64)> = so.iter().map(|(i, v)| (*i, *v)).collect();
            assert_eq!(a, b);
        }
        assert_eq!(p.get(u64::MAX), o.get(&u64::MAX));
    }
}
