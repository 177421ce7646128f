//! A persistent vector indexed by `u64`, used for the id → thing index and the plain tables.
//!
//! Written by hand because its cost per write is a bar of its own: a persistent write copies
//! every node on the path to its slot, so the bytes a kept version costs are the sum of those
//! nodes' sizes. Each node here is a plain array of 8 child pointers in a `triomphe::Arc`
//! (one 8-byte count and no weak count, against `std::sync::Arc`'s two), and carries no
//! enum tag: a node's level is its type (`Leaf`, `Inner<Leaf>`, `Inner<Inner<Leaf>>`…),
//! and only the root says how tall the tree is. A node is therefore 72 bytes, and a write
//! at 10,000 slots (5 levels) keeps 360 bytes of path, against 608 for the 16-way enum
//! nodes it replaces (4 × 152 B). A read is one dispatch on the height, then one
//! array index a level, inlined.
//!
//! The fan is a parameter: 8 for the id → thing index, whose writes are the bar above; 32
//! for the plain tables' index (see `Game`), which a `query` walks and which a write
//! changes only when a thing gains its first override or loses its last (three levels, not
//! five, at 10,000 ids; its 16-byte entries make a path of 1,048 bytes there, not 360).
//!
//! The tree is at most ten levels tall (8¹⁰ = 2³⁰ slots at fan 8; a wider tree also stops
//! at 2³⁰, a narrower one at its ten levels' span); indices beyond, which only a game
//! that made a billion things or a hand-edited save can have, go to a persistent ordered map.
//! (A tree covering every `u64` would nest its node type 22 deep, past the depth to which
//! rustdoc checks the auto traits of a type holding a `Game`.)
//!
//! `rpds::Vector` and `im`/`imbl::Vector` are 32- or 64-way RRB trees: their nodes are
//! several times larger, so each kept write costs several times the bytes.

use rpds::RedBlackTreeMapSync;
use triomphe::Arc as NodeArc;

/// The fan of the thing index: 8 slots a node (see the module's notes).
pub(crate) const FAN: usize = 8;

/// log₂ of a fan (a power of two).
#[inline(always)]
const fn bits(fan: usize) -> u32 {
    fan.trailing_zeros()
}

/// One level of the tree: the leaves, or inner nodes over the level below.
trait Level<T>: Clone {
    /// The bits of an index below this level's slot bits.
    const SHIFT: u32;

    /// A node with every slot empty.
    fn empty() -> Self;

    /// The value at `i`, if present.
    fn get(&self, i: u64) -> Option<&T>;

    /// The value at `i`, mutable, with the path to it made unique.
    fn get_mut(&mut self, i: u64) -> Option<&mut T>;

    /// Store `value` at `i` (or clear it); the previous value.
    fn set(&mut self, i: u64, value: Option<T>) -> Option<T>;

    /// Every occupied (index, value) below this node, in index order.
    fn walk<'a>(&'a self, base: u64, out: &mut Vec<(u64, &'a T)>);
}

/// The bottom level: the values themselves, `F` slots.
#[derive(Clone)]
struct Leaf<T, const F: usize>([Option<T>; F]);

/// An inner level: up to `F` nodes of the level below, shared by reference count.
#[derive(Clone)]
struct Inner<C, const F: usize>([Option<NodeArc<C>>; F]);

impl<C, const F: usize> Inner<C, F> {
    /// A node whose first slot holds `first` (the old root, when the tree grows).
    fn holding(first: NodeArc<C>) -> Self {
        let mut first = Some(first);
        Inner(std::array::from_fn(|_| first.take()))
    }
}

/// The slot of index `i` in a node of `fan` slots whose level starts at bit `shift`.
#[inline(always)]
fn slot(i: u64, shift: u32, fan: usize) -> usize {
    // `shift` is below 64 at every level (the tallest tree's top shift is 27 at fan 8, 45
    // at fan 32).
    (i.checked_shr(shift).unwrap_or(0) & (fan as u64 - 1)) as usize
}

impl<T: Clone, const F: usize> Level<T> for Leaf<T, F> {
    const SHIFT: u32 = 0;

    fn empty() -> Self {
        Leaf(std::array::from_fn(|_| None))
    }

    #[inline(always)]
    fn get(&self, i: u64) -> Option<&T> {
        self.0[slot(i, 0, F)].as_ref()
    }

    #[inline(always)]
    fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        self.0[slot(i, 0, F)].as_mut()
    }

    fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        std::mem::replace(&mut self.0[slot(i, 0, F)], value)
    }

    fn walk<'a>(&'a self, base: u64, out: &mut Vec<(u64, &'a T)>) {
        for (s, it) in self.0.iter().enumerate() {
            if let Some(it) = it {
                out.push((base | s as u64, it));
            }
        }
    }
}

impl<T: Clone, C: Level<T>, const F: usize> Level<T> for Inner<C, F> {
    const SHIFT: u32 = C::SHIFT + bits(F);

    fn empty() -> Self {
        Inner(std::array::from_fn(|_| None))
    }

    #[inline(always)]
    fn get(&self, i: u64) -> Option<&T> {
        self.0[slot(i, Self::SHIFT, F)].as_deref()?.get(i)
    }

    #[inline(always)]
    fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        NodeArc::make_mut(self.0[slot(i, Self::SHIFT, F)].as_mut()?).get_mut(i)
    }

    fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        match &mut self.0[slot(i, Self::SHIFT, F)] {
            Some(child) => NodeArc::make_mut(child).set(i, value),
            empty => {
                // Clearing an empty slot needs no node.
                value.as_ref()?;
                let mut child = C::empty();
                let old = child.set(i, value);
                *empty = Some(NodeArc::new(child));
                old
            }
        }
    }

    fn walk<'a>(&'a self, base: u64, out: &mut Vec<(u64, &'a T)>) {
        for (s, k) in self.0.iter().enumerate() {
            if let Some(k) = k {
                let at = (s as u64).checked_shl(Self::SHIFT).unwrap_or(0);
                k.walk(base | at, out);
            }
        }
    }
}

/// A radix tree's node types by level, named from the leaves up: the first name is
/// `Leaf<T, F>`, each next one an `Inner` over the one before, all of fan `F`. The `Leaf`
/// and `Inner` are the calling module's (this one's, and `words`').
macro_rules! level_types {
    ($l0:ident $($l:ident)*) => {
        type $l0<T, const F: usize> = Leaf<T, F>;
        $crate::pvec::level_types!(@over $l0 $($l)*);
    };
    (@over $below:ident $l:ident $($rest:ident)*) => {
        type $l<T, const F: usize> = Inner<$below<T, F>, F>;
        $crate::pvec::level_types!(@over $l $($rest)*);
    };
    (@over $top:ident) => {};
}
pub(crate) use level_types;

level_types!(L0 L1 L2 L3 L4 L5 L6 L7 L8 L9);

/// Whether index `i` lies within a tree of fan `fan` and `height` levels above the leaves.
#[inline(always)]
pub(crate) fn fits(i: u64, height: u32, fan: usize) -> bool {
    i.checked_shr(bits(fan) * (height + 1)).unwrap_or(0) == 0
}

/// The root by height, and what each operation does at each height: one arm a height.
macro_rules! roots {
    ($($h:literal: $v:ident($l:ident)),* ; grow $($from:ident => $to:ident),*) => {
        /// The tree by height: `H{h}` is a root `h` levels above the leaves, covering
        /// `F^(h+1)` slots (at fan 8 the tallest, `H9`, covers the indices below 2³⁰).
        #[derive(Clone)]
        enum Root<T, const F: usize> {
            Empty,
            $($v(NodeArc<$l<T, F>>),)*
        }

        impl<T: Clone, const F: usize> Root<T, F> {
            /// Levels above the leaves (`None` for the empty tree).
            fn height(&self) -> Option<u32> {
                match self {
                    Root::Empty => None,
                    $(Root::$v(_) => Some($h),)*
                }
            }

            #[inline(always)]
            fn get(&self, i: u64) -> Option<&T> {
                match self {
                    Root::Empty => None,
                    $(Root::$v(n) => fits(i, $h, F).then(|| n.get(i)).flatten(),)*
                }
            }

            fn get_mut(&mut self, i: u64) -> Option<&mut T> {
                match self {
                    Root::Empty => None,
                    $(Root::$v(n) => NodeArc::make_mut(n).get_mut(i),)*
                }
            }

            /// The same tree one level taller (the tallest stays as it is: the caller keeps
            /// the indices it does not cover elsewhere).
            fn grown(self) -> Self {
                match self {
                    Root::Empty => Root::H0(NodeArc::new(Leaf::empty())),
                    $(Root::$from(n) => Root::$to(NodeArc::new(Inner::holding(n))),)*
                    Root::H9(n) => Root::H9(n),
                }
            }

            fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
                match self {
                    Root::Empty => None,
                    $(Root::$v(n) => NodeArc::make_mut(n).set(i, value),)*
                }
            }

            fn walk<'a>(&'a self, out: &mut Vec<(u64, &'a T)>) {
                match self {
                    Root::Empty => {}
                    $(Root::$v(n) => n.walk(0, out),)*
                }
            }

            fn ptr_eq(&self, o: &Self) -> bool {
                match (self, o) {
                    (Root::Empty, Root::Empty) => true,
                    $((Root::$v(a), Root::$v(b)) => NodeArc::ptr_eq(a, b),)*
                    _ => false,
                }
            }
        }
    };
}

roots!(
    0: H0(L0), 1: H1(L1), 2: H2(L2), 3: H3(L3), 4: H4(L4),
    5: H5(L5), 6: H6(L6), 7: H7(L7), 8: H8(L8), 9: H9(L9);
    grow H0 => H1, H1 => H2, H2 => H3, H3 => H4, H4 => H5, H5 => H6, H6 => H7, H7 => H8,
    H8 => H9
);

/// The first index a tree of fan `fan` does not hold: what its tallest root (ten levels)
/// covers, at most 2³⁰ (at fan 8, exactly 2³⁰).
#[inline(always)]
const fn tree_end(fan: usize) -> u64 {
    let span = bits(fan) * 10;
    if span < 30 { 1 << span } else { 1 << 30 }
}

/// A sparse persistent array of fan `F` (a power of two from 2): clone Θ(1), get
/// Θ(log_F n), persistent set Θ(F · log_F n) (an 8-byte count and `F` slots kept a level:
/// 8-byte child pointers, and at the leaves `Option<T>`s; 72 bytes a level at fan 8 with
/// 8-byte values);
/// indices from `tree_end(F)` on (2³⁰ at fan 8 and above), Θ(log n) in an ordered map.
#[derive(Clone)]
pub(crate) struct PVec<T, const F: usize = FAN> {
    root: Root<T, F>,
    /// The values at the indices the tree does not cover (`tree_end(F)` and above).
    beyond: RedBlackTreeMapSync<u64, T>,
    len: usize,
}

impl<T: Clone, const F: usize> PVec<T, F> {
    pub(crate) fn new() -> Self {
        const {
            assert!(
                F.is_power_of_two() && F >= 2,
                "a fan is a power of two from 2"
            )
        };
        PVec {
            root: Root::Empty,
            beyond: RedBlackTreeMapSync::new_sync(),
            len: 0,
        }
    }

    /// Number of occupied slots.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Always inlined, with the ordered map's path out of line: `query` reads two of these
    /// (the plain tables, then the things), and left to itself the compiler called the
    /// plain tables' read out of line (the shared-prototype `query` 12.7 -> 13.5 ns).
    #[inline(always)]
    pub(crate) fn get(&self, i: u64) -> Option<&T> {
        if i < tree_end(F) {
            self.root.get(i)
        } else {
            self.get_beyond(i)
        }
    }

    /// A read at an index the tree does not cover.
    #[cold]
    #[inline(never)]
    fn get_beyond(&self, i: u64) -> Option<&T> {
        self.beyond.get(&i)
    }

    /// The value at `i`, mutable, with the path to it made unique (copying only what is
    /// shared with other vectors); `None` when the slot is empty.
    pub(crate) fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        self.get(i)?;
        if i < tree_end(F) {
            self.root.get_mut(i)
        } else {
            self.beyond.get_mut(&i)
        }
    }

    /// Store `value` at `i` (or clear it with `None`); returns the previous value.
    pub(crate) fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        if value.is_none() && self.get(i).is_none() {
            return None;
        }
        if i >= tree_end(F) {
            let old = self.beyond.get(&i).cloned();
            match value {
                Some(v) => self.beyond.insert_mut(i, v),
                None => {
                    self.beyond.remove_mut(&i);
                }
            }
            match (old.is_some(), self.beyond.contains_key(&i)) {
                (false, true) => self.len += 1,
                (true, false) => self.len -= 1,
                _ => {}
            }
            return old;
        }
        while self.root.height().is_none_or(|h| !fits(i, h, F)) {
            let before = self.root.height();
            self.root = std::mem::replace(&mut self.root, Root::Empty).grown();
            if self.root.height() == before {
                break;
            }
        }
        let added = value.is_some();
        let old = self.root.set(i, value);
        match (old.is_some(), added) {
            (false, true) => self.len += 1,
            (true, false) => self.len -= 1,
            _ => {}
        }
        old
    }

    /// Every occupied (index, value), in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, &T)> {
        let mut out = Vec::with_capacity(self.len);
        self.root.walk(&mut out);
        // Every index here is above the tree's.
        out.extend(self.beyond.iter().map(|(i, v)| (*i, v)));
        out.into_iter()
    }

    pub(crate) fn ptr_eq(&self, o: &Self) -> bool {
        self.root.ptr_eq(&o.root) && self.beyond.ptr_eq(&o.beyond)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn matches_a_btreemap() {
        matches_a_btreemap_at::<8>();
    }

    /// The plain tables' fan.
    #[test]
    fn matches_a_btreemap_at_fan_32() {
        matches_a_btreemap_at::<32>();
    }

    #[test]
    fn matches_a_btreemap_at_fan_2() {
        matches_a_btreemap_at::<2>();
    }

    fn matches_a_btreemap_at<const F: usize>() {
        let mut p = PVec::<u64, F>::new();
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

    /// A write through `get_mut` copies the path to its slot and leaves every clone as it
    /// was; clearing and growing keep the count and the order.
    #[test]
    fn get_mut_copies_only_this_vector() {
        get_mut_copies_only_this_vector_at::<8>();
        get_mut_copies_only_this_vector_at::<32>();
    }

    fn get_mut_copies_only_this_vector_at<const F: usize>() {
        let mut p = PVec::<u64, F>::new();
        for i in 0..2000u64 {
            p.set(i * 3, Some(i));
        }
        let before = p.clone();
        for i in (0..2000u64).step_by(7) {
            if let Some(v) = p.get_mut(i * 3) {
                *v += 1_000_000;
            }
        }
        assert!(p.get_mut(1).is_none(), "an empty slot is not created");
        for i in 0..2000u64 {
            let bumped = if i.is_multiple_of(7) { 1_000_000 } else { 0 };
            assert_eq!(p.get(i * 3), Some(&(i + bumped)));
            assert_eq!(before.get(i * 3), Some(&i));
        }
        assert_eq!(p.len(), 2000);
        assert_eq!(p.set(3, None), Some(1));
        assert_eq!(p.set(3, None), None);
        assert_eq!(p.len(), 1999);
        // Growing to the top of the index space keeps what is there.
        assert_eq!(p.set(u64::MAX, Some(7)), None);
        assert_eq!(p.get(u64::MAX), Some(&7));
        assert_eq!(p.get(0), Some(&1_000_000));
        let order: Vec<u64> = p.iter().map(|(i, _)| i).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(order.len(), 2000);
        assert!(!p.ptr_eq(&before));
        assert!(before.ptr_eq(&before.clone()));
    }
}
