//! A dense persistent array of small `Copy` values indexed by thing id. It holds the things'
//! derived flag words apart from the thing records, so that [`Game::is`](crate::Game::is)
//! reads 8 bytes from a compact tree (80 KB of words at 10,000 things, cache-resident like a
//! `Vec<u64>`) instead of following the id index to a 128-byte record; and the actor
//! queue's key of each actor, by id.
//!
//! Each node is a plain array of `F` slots (a power of two) in a `triomphe::Arc` (one
//! 8-byte count): the leaves hold the values themselves, the inner nodes `F` child
//! pointers. As in [`PVec`](crate::pvec), a node's level is its type and only the root says
//! how tall the tree is, so a read is one dispatch on the height, then one array index a
//! level. A wider fan makes reads shallower and each persistent write's copied path larger.
//! A slot never written reads as the fill value the array was made with; indices from 2³²
//! on (2²⁴ at fan 8) are not held (`get` gives `None`; the caller answers another way).

use triomphe::Arc as NodeArc;

use crate::pvec::fits;

/// The first index a tree of fan `fan` does not hold: 2³², or the tallest tree's span if
/// that is less (`fan`⁸: 2²⁴ at fan 8).
#[inline(always)]
const fn end(fan: usize) -> u64 {
    let span = 1u64 << (fan.trailing_zeros() * 8);
    if span < 1 << 32 { span } else { 1 << 32 }
}

/// The slot of index `i` in a node of `fan` slots whose level starts at bit `shift`.
#[inline(always)]
fn slot(i: u64, shift: u32, fan: usize) -> usize {
    (i >> shift) as usize & (fan - 1)
}

/// One level of the tree.
trait Level<T>: Clone {
    /// The bits of an index below this level's slot bits.
    const SHIFT: u32;

    /// A node every slot of which reads as `fill`.
    fn filled(fill: T) -> Self;

    /// The value at `i` (`fill` where nothing was written).
    fn get(&self, i: u64, fill: T) -> T;

    /// Store `w` at `i`, copying the shared nodes on the path.
    fn set(&mut self, i: u64, w: T, fill: T);

    /// Every index below this node whose value is not `fill`, with its value, in order.
    fn walk(&self, base: u64, fill: T, out: &mut Vec<(u64, T)>);
}

/// The bottom level: the values.
#[derive(Clone)]
struct Leaf<T, const F: usize>([T; F]);

/// An inner level: up to `F` nodes of the level below (an empty slot reads as all fill).
#[derive(Clone)]
struct Inner<C, const F: usize>([Option<NodeArc<C>>; F]);

impl<T: Copy + PartialEq, const F: usize> Level<T> for Leaf<T, F> {
    const SHIFT: u32 = 0;

    fn filled(fill: T) -> Self {
        Leaf([fill; F])
    }

    #[inline(always)]
    fn get(&self, i: u64, _: T) -> T {
        self.0[slot(i, 0, F)]
    }

    fn set(&mut self, i: u64, w: T, _: T) {
        self.0[slot(i, 0, F)] = w;
    }

    fn walk(&self, base: u64, fill: T, out: &mut Vec<(u64, T)>) {
        for (s, &w) in self.0.iter().enumerate() {
            if w != fill {
                out.push((base | s as u64, w));
            }
        }
    }
}

impl<T: Copy + PartialEq, C: Level<T>, const F: usize> Level<T> for Inner<C, F> {
    const SHIFT: u32 = C::SHIFT + F.trailing_zeros();

    fn filled(_: T) -> Self {
        Inner(std::array::from_fn(|_| None))
    }

    #[inline(always)]
    fn get(&self, i: u64, fill: T) -> T {
        match &self.0[slot(i, Self::SHIFT, F)] {
            Some(c) => c.get(i, fill),
            None => fill,
        }
    }

    fn set(&mut self, i: u64, w: T, fill: T) {
        let child =
            self.0[slot(i, Self::SHIFT, F)].get_or_insert_with(|| NodeArc::new(C::filled(fill)));
        NodeArc::make_mut(child).set(i, w, fill);
    }

    fn walk(&self, base: u64, fill: T, out: &mut Vec<(u64, T)>) {
        for (s, c) in self.0.iter().enumerate() {
            if let Some(c) = c {
                c.walk(base | ((s as u64) << Self::SHIFT), fill, out);
            }
        }
    }
}

impl<C, const F: usize> Inner<C, F> {
    /// A node whose first slot holds `first` (the old root, when the tree grows).
    fn holding(first: NodeArc<C>) -> Self {
        let mut kids: [Option<NodeArc<C>>; F] = std::array::from_fn(|_| None);
        kids[0] = Some(first);
        Inner(kids)
    }
}

crate::pvec::level_types!(L0 L1 L2 L3 L4 L5 L6 L7);

macro_rules! roots {
    ($($h:literal: $v:ident($l:ident)),* ; grow $($from:ident => $to:ident),*) => {
        /// The tree by height: `H{h}` is a root `h` levels above the leaves, covering
        /// `F^(h+1)` slots (the tallest, `H7`, covers the indices below [`end`]).
        #[derive(Clone)]
        enum Root<T, const F: usize> {
            Empty,
            $($v(NodeArc<$l<T, F>>),)*
        }

        impl<T: Copy + PartialEq, const F: usize> Root<T, F> {
            fn height(&self) -> Option<u32> {
                match self {
                    Root::Empty => None,
                    $(Root::$v(_) => Some($h),)*
                }
            }

            /// The value at `i`, which the caller checked is below [`end`].
            #[inline(always)]
            fn get(&self, i: u64, fill: T) -> T {
                match self {
                    Root::Empty => fill,
                    $(Root::$v(n) => if fits(i, $h, F) { n.get(i, fill) } else { fill },)*
                }
            }

            /// The same tree one level taller (never called on the tallest).
            fn grown(self, fill: T) -> Self {
                match self {
                    Root::Empty => Root::H0(NodeArc::new(Leaf::filled(fill))),
                    $(Root::$from(n) => Root::$to(NodeArc::new(Inner::holding(n))),)*
                    Root::H7(n) => Root::H7(n),
                }
            }

            fn set(&mut self, i: u64, w: T, fill: T) {
                match self {
                    Root::Empty => {}
                    $(Root::$v(n) => NodeArc::make_mut(n).set(i, w, fill),)*
                }
            }

            fn walk(&self, fill: T, out: &mut Vec<(u64, T)>) {
                match self {
                    Root::Empty => {}
                    $(Root::$v(n) => n.walk(0, fill, out),)*
                }
            }
        }
    };
}

roots!(
    0: H0(L0), 1: H1(L1), 2: H2(L2), 3: H3(L3), 4: H4(L4), 5: H5(L5), 6: H6(L6), 7: H7(L7);
    grow H0 => H1, H1 => H2, H2 => H3, H3 => H4, H4 => H5, H5 => H6, H6 => H7
);

/// A persistent array of small `Copy` values indexed below `end(F)` (2³² from `F` = 16 on),
/// `F` (8 or more, a power of two) to a node: clone Θ(1), get Θ(log_F n), a persistent set Θ(F · log_F n) (a node of
/// `F` slots plus an 8-byte count kept a level; nothing when the value is unchanged).
#[derive(Clone)]
pub(crate) struct Words<T, const F: usize> {
    root: Root<T, F>,
    /// What an index never written reads as.
    fill: T,
}

impl<T: Copy + PartialEq, const F: usize> Words<T, F> {
    /// An array every index of which reads as `fill`.
    pub(crate) fn new(fill: T) -> Self {
        const {
            assert!(F.is_power_of_two() && F >= 8);
        }
        Words {
            root: Root::Empty,
            fill,
        }
    }

    /// The value at `i`; `None` from `end(F)` on, where the array holds nothing.
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<T> {
        (i < end(F)).then(|| self.root.get(i, self.fill))
    }

    /// Store `w` at `i` (ignored from `end(F)` on). Copies nothing when `i` already holds `w`.
    pub(crate) fn set(&mut self, i: u64, w: T) {
        if self.get(i).is_none_or(|old| old == w) {
            return;
        }
        while self.root.height().is_none_or(|h| !fits(i, h, F)) {
            self.root = std::mem::replace(&mut self.root, Root::Empty).grown(self.fill);
        }
        self.root.set(i, w, self.fill);
    }

    /// Every index whose value is not the fill value, with its value, in index order.
    pub(crate) fn written(&self) -> Vec<(u64, T)> {
        let mut out = Vec::new();
        self.root.walk(self.fill, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn matches_a_btreemap_and_keeps_old_versions() {
        check::<8>();
        check::<16>();
        check::<32>();
    }

    fn check<const F: usize>() {
        const FILL: u64 = 0xffff_ffff;
        let mut w: Words<u64, F> = Words::new(FILL);
        let mut o = BTreeMap::new();
        let mut x: u64 = 987_654_321;
        let mut snapshots = Vec::new();
        for step in 0..4000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = match step % 11 {
                0 => x % end(F),
                1 => x,
                _ => x % 6000,
            };
            let v = if step.is_multiple_of(5) { FILL } else { step };
            w.set(i, v);
            if i < end(F) {
                if v == FILL {
                    o.remove(&i);
                } else {
                    o.insert(i, v);
                }
            }
            if step.is_multiple_of(700) {
                snapshots.push((w.clone(), o.clone()));
            }
        }
        snapshots.push((w, o));
        for (sw, so) in snapshots {
            let got = sw.written();
            let want: Vec<(u64, u64)> = so.iter().map(|(i, v)| (*i, *v)).collect();
            assert_eq!(got, want);
            for (i, v) in &so {
                assert_eq!(sw.get(*i), Some(*v));
            }
            assert_eq!(sw.get(6001), Some(FILL));
            let end = end(F);
            assert_eq!(sw.get(end - 1), so.get(&(end - 1)).copied().or(Some(FILL)));
            assert_eq!(sw.get(end), None);
            assert_eq!(sw.get(u64::MAX), None);
        }
    }
}
