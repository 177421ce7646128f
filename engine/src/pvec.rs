//! A persistent vector indexed by `u64`, used for the id → thing index.
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
//! `rpds::Vector` and `im`/`imbl::Vector` are 32- or 64-way RRB trees: their nodes are
//! several times larger, so each kept write costs several times the bytes.

use triomphe::Arc as NodeArc;

const BITS: u32 = 3;
const FAN: usize = 1 << BITS;
const MASK: u64 = FAN as u64 - 1;

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

/// The bottom level: the values themselves.
#[derive(Clone)]
struct Leaf<T>([Option<T>; FAN]);

/// An inner level: up to eight nodes of the level below, shared by reference count.
#[derive(Clone)]
struct Inner<C>([Option<NodeArc<C>>; FAN]);

impl<C> Inner<C> {
    /// A node whose first slot holds `first` (the old root, when the tree grows).
    fn holding(first: NodeArc<C>) -> Self {
        let mut kids: [Option<NodeArc<C>>; FAN] = Default::default();
        kids[0] = Some(first);
        Inner(kids)
    }
}

#[inline(always)]
fn slot(i: u64, shift: u32) -> usize {
    // `shift` is below 64 at every level (the tallest tree's top shift is 63).
    (i.checked_shr(shift).unwrap_or(0) & MASK) as usize
}

impl<T: Clone> Level<T> for Leaf<T> {
    const SHIFT: u32 = 0;

    fn empty() -> Self {
        Leaf(Default::default())
    }

    #[inline(always)]
    fn get(&self, i: u64) -> Option<&T> {
        self.0[slot(i, 0)].as_ref()
    }

    #[inline(always)]
    fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        self.0[slot(i, 0)].as_mut()
    }

    fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        std::mem::replace(&mut self.0[slot(i, 0)], value)
    }

    fn walk<'a>(&'a self, base: u64, out: &mut Vec<(u64, &'a T)>) {
        for (s, it) in self.0.iter().enumerate() {
            if let Some(it) = it {
                out.push((base | s as u64, it));
            }
        }
    }
}

impl<T: Clone, C: Level<T>> Level<T> for Inner<C> {
    const SHIFT: u32 = C::SHIFT + BITS;

    fn empty() -> Self {
        Inner(Default::default())
    }

    #[inline(always)]
    fn get(&self, i: u64) -> Option<&T> {
        self.0[slot(i, Self::SHIFT)].as_deref()?.get(i)
    }

    #[inline(always)]
    fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        NodeArc::make_mut(self.0[slot(i, Self::SHIFT)].as_mut()?).get_mut(i)
    }

    fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        match &mut self.0[slot(i, Self::SHIFT)] {
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

type L0<T> = Leaf<T>;
type L1<T> = Inner<L0<T>>;
type L2<T> = Inner<L1<T>>;
type L3<T> = Inner<L2<T>>;
type L4<T> = Inner<L3<T>>;
type L5<T> = Inner<L4<T>>;
type L6<T> = Inner<L5<T>>;
type L7<T> = Inner<L6<T>>;
type L8<T> = Inner<L7<T>>;
type L9<T> = Inner<L8<T>>;
type L10<T> = Inner<L9<T>>;
type L11<T> = Inner<L10<T>>;
type L12<T> = Inner<L11<T>>;
type L13<T> = Inner<L12<T>>;
type L14<T> = Inner<L13<T>>;
type L15<T> = Inner<L14<T>>;
type L16<T> = Inner<L15<T>>;
type L17<T> = Inner<L16<T>>;
type L18<T> = Inner<L17<T>>;
type L19<T> = Inner<L18<T>>;
type L20<T> = Inner<L19<T>>;
type L21<T> = Inner<L20<T>>;

/// The tree by height: `H{h}` is a root `h` levels above the leaves, covering
/// `8^(h+1)` slots (the tallest covers every `u64`).
#[derive(Clone)]
enum Root<T> {
    Empty,
    H0(NodeArc<L0<T>>),
    H1(NodeArc<L1<T>>),
    H2(NodeArc<L2<T>>),
    H3(NodeArc<L3<T>>),
    H4(NodeArc<L4<T>>),
    H5(NodeArc<L5<T>>),
    H6(NodeArc<L6<T>>),
    H7(NodeArc<L7<T>>),
    H8(NodeArc<L8<T>>),
    H9(NodeArc<L9<T>>),
    H10(NodeArc<L10<T>>),
    H11(NodeArc<L11<T>>),
    H12(NodeArc<L12<T>>),
    H13(NodeArc<L13<T>>),
    H14(NodeArc<L14<T>>),
    H15(NodeArc<L15<T>>),
    H16(NodeArc<L16<T>>),
    H17(NodeArc<L17<T>>),
    H18(NodeArc<L18<T>>),
    H19(NodeArc<L19<T>>),
    H20(NodeArc<L20<T>>),
    H21(NodeArc<L21<T>>),
}

/// Whether index `i` lies within a tree of `height` levels above the leaves.
#[inline(always)]
fn fits(i: u64, height: u32) -> bool {
    i.checked_shr(BITS * (height + 1)).unwrap_or(0) == 0
}

impl<T: Clone> Root<T> {
    /// Levels above the leaves (`None` for the empty tree).
    fn height(&self) -> Option<u32> {
        match self {
            Root::Empty => None,
            Root::H0(_) => Some(0),
            Root::H1(_) => Some(1),
            Root::H2(_) => Some(2),
            Root::H3(_) => Some(3),
            Root::H4(_) => Some(4),
            Root::H5(_) => Some(5),
            Root::H6(_) => Some(6),
            Root::H7(_) => Some(7),
            Root::H8(_) => Some(8),
            Root::H9(_) => Some(9),
            Root::H10(_) => Some(10),
            Root::H11(_) => Some(11),
            Root::H12(_) => Some(12),
            Root::H13(_) => Some(13),
            Root::H14(_) => Some(14),
            Root::H15(_) => Some(15),
            Root::H16(_) => Some(16),
            Root::H17(_) => Some(17),
            Root::H18(_) => Some(18),
            Root::H19(_) => Some(19),
            Root::H20(_) => Some(20),
            Root::H21(_) => Some(21),
        }
    }

    #[inline]
    fn get(&self, i: u64) -> Option<&T> {
        match self {
            Root::Empty => None,
            Root::H0(n) => {
                if fits(i, 0) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H1(n) => {
                if fits(i, 1) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H2(n) => {
                if fits(i, 2) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H3(n) => {
                if fits(i, 3) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H4(n) => {
                if fits(i, 4) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H5(n) => {
                if fits(i, 5) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H6(n) => {
                if fits(i, 6) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H7(n) => {
                if fits(i, 7) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H8(n) => {
                if fits(i, 8) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H9(n) => {
                if fits(i, 9) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H10(n) => {
                if fits(i, 10) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H11(n) => {
                if fits(i, 11) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H12(n) => {
                if fits(i, 12) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H13(n) => {
                if fits(i, 13) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H14(n) => {
                if fits(i, 14) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H15(n) => {
                if fits(i, 15) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H16(n) => {
                if fits(i, 16) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H17(n) => {
                if fits(i, 17) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H18(n) => {
                if fits(i, 18) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H19(n) => {
                if fits(i, 19) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H20(n) => {
                if fits(i, 20) {
                    n.get(i)
                } else {
                    None
                }
            }
            Root::H21(n) => {
                if fits(i, 21) {
                    n.get(i)
                } else {
                    None
                }
            }
        }
    }

    fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        match self {
            Root::Empty => None,
            Root::H0(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H1(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H2(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H3(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H4(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H5(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H6(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H7(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H8(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H9(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H10(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H11(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H12(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H13(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H14(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H15(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H16(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H17(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H18(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H19(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H20(n) => NodeArc::make_mut(n).get_mut(i),
            Root::H21(n) => NodeArc::make_mut(n).get_mut(i),
        }
    }

    /// The same tree one level taller (the tallest stays as it is).
    fn grown(self) -> Self {
        match self {
            Root::Empty => Root::H0(NodeArc::new(Leaf::empty())),
            Root::H0(n) => Root::H1(NodeArc::new(Inner::holding(n))),
            Root::H1(n) => Root::H2(NodeArc::new(Inner::holding(n))),
            Root::H2(n) => Root::H3(NodeArc::new(Inner::holding(n))),
            Root::H3(n) => Root::H4(NodeArc::new(Inner::holding(n))),
            Root::H4(n) => Root::H5(NodeArc::new(Inner::holding(n))),
            Root::H5(n) => Root::H6(NodeArc::new(Inner::holding(n))),
            Root::H6(n) => Root::H7(NodeArc::new(Inner::holding(n))),
            Root::H7(n) => Root::H8(NodeArc::new(Inner::holding(n))),
            Root::H8(n) => Root::H9(NodeArc::new(Inner::holding(n))),
            Root::H9(n) => Root::H10(NodeArc::new(Inner::holding(n))),
            Root::H10(n) => Root::H11(NodeArc::new(Inner::holding(n))),
            Root::H11(n) => Root::H12(NodeArc::new(Inner::holding(n))),
            Root::H12(n) => Root::H13(NodeArc::new(Inner::holding(n))),
            Root::H13(n) => Root::H14(NodeArc::new(Inner::holding(n))),
            Root::H14(n) => Root::H15(NodeArc::new(Inner::holding(n))),
            Root::H15(n) => Root::H16(NodeArc::new(Inner::holding(n))),
            Root::H16(n) => Root::H17(NodeArc::new(Inner::holding(n))),
            Root::H17(n) => Root::H18(NodeArc::new(Inner::holding(n))),
            Root::H18(n) => Root::H19(NodeArc::new(Inner::holding(n))),
            Root::H19(n) => Root::H20(NodeArc::new(Inner::holding(n))),
            Root::H20(n) => Root::H21(NodeArc::new(Inner::holding(n))),
            Root::H21(n) => Root::H21(n),
        }
    }

    fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        match self {
            Root::Empty => None,
            Root::H0(n) => NodeArc::make_mut(n).set(i, value),
            Root::H1(n) => NodeArc::make_mut(n).set(i, value),
            Root::H2(n) => NodeArc::make_mut(n).set(i, value),
            Root::H3(n) => NodeArc::make_mut(n).set(i, value),
            Root::H4(n) => NodeArc::make_mut(n).set(i, value),
            Root::H5(n) => NodeArc::make_mut(n).set(i, value),
            Root::H6(n) => NodeArc::make_mut(n).set(i, value),
            Root::H7(n) => NodeArc::make_mut(n).set(i, value),
            Root::H8(n) => NodeArc::make_mut(n).set(i, value),
            Root::H9(n) => NodeArc::make_mut(n).set(i, value),
            Root::H10(n) => NodeArc::make_mut(n).set(i, value),
            Root::H11(n) => NodeArc::make_mut(n).set(i, value),
            Root::H12(n) => NodeArc::make_mut(n).set(i, value),
            Root::H13(n) => NodeArc::make_mut(n).set(i, value),
            Root::H14(n) => NodeArc::make_mut(n).set(i, value),
            Root::H15(n) => NodeArc::make_mut(n).set(i, value),
            Root::H16(n) => NodeArc::make_mut(n).set(i, value),
            Root::H17(n) => NodeArc::make_mut(n).set(i, value),
            Root::H18(n) => NodeArc::make_mut(n).set(i, value),
            Root::H19(n) => NodeArc::make_mut(n).set(i, value),
            Root::H20(n) => NodeArc::make_mut(n).set(i, value),
            Root::H21(n) => NodeArc::make_mut(n).set(i, value),
        }
    }

    fn walk<'a>(&'a self, out: &mut Vec<(u64, &'a T)>) {
        match self {
            Root::Empty => {}
            Root::H0(n) => n.walk(0, out),
            Root::H1(n) => n.walk(0, out),
            Root::H2(n) => n.walk(0, out),
            Root::H3(n) => n.walk(0, out),
            Root::H4(n) => n.walk(0, out),
            Root::H5(n) => n.walk(0, out),
            Root::H6(n) => n.walk(0, out),
            Root::H7(n) => n.walk(0, out),
            Root::H8(n) => n.walk(0, out),
            Root::H9(n) => n.walk(0, out),
            Root::H10(n) => n.walk(0, out),
            Root::H11(n) => n.walk(0, out),
            Root::H12(n) => n.walk(0, out),
            Root::H13(n) => n.walk(0, out),
            Root::H14(n) => n.walk(0, out),
            Root::H15(n) => n.walk(0, out),
            Root::H16(n) => n.walk(0, out),
            Root::H17(n) => n.walk(0, out),
            Root::H18(n) => n.walk(0, out),
            Root::H19(n) => n.walk(0, out),
            Root::H20(n) => n.walk(0, out),
            Root::H21(n) => n.walk(0, out),
        }
    }

    fn ptr_eq(&self, o: &Self) -> bool {
        match (self, o) {
            (Root::Empty, Root::Empty) => true,
            (Root::H0(a), Root::H0(b)) => NodeArc::ptr_eq(a, b),
            (Root::H1(a), Root::H1(b)) => NodeArc::ptr_eq(a, b),
            (Root::H2(a), Root::H2(b)) => NodeArc::ptr_eq(a, b),
            (Root::H3(a), Root::H3(b)) => NodeArc::ptr_eq(a, b),
            (Root::H4(a), Root::H4(b)) => NodeArc::ptr_eq(a, b),
            (Root::H5(a), Root::H5(b)) => NodeArc::ptr_eq(a, b),
            (Root::H6(a), Root::H6(b)) => NodeArc::ptr_eq(a, b),
            (Root::H7(a), Root::H7(b)) => NodeArc::ptr_eq(a, b),
            (Root::H8(a), Root::H8(b)) => NodeArc::ptr_eq(a, b),
            (Root::H9(a), Root::H9(b)) => NodeArc::ptr_eq(a, b),
            (Root::H10(a), Root::H10(b)) => NodeArc::ptr_eq(a, b),
            (Root::H11(a), Root::H11(b)) => NodeArc::ptr_eq(a, b),
            (Root::H12(a), Root::H12(b)) => NodeArc::ptr_eq(a, b),
            (Root::H13(a), Root::H13(b)) => NodeArc::ptr_eq(a, b),
            (Root::H14(a), Root::H14(b)) => NodeArc::ptr_eq(a, b),
            (Root::H15(a), Root::H15(b)) => NodeArc::ptr_eq(a, b),
            (Root::H16(a), Root::H16(b)) => NodeArc::ptr_eq(a, b),
            (Root::H17(a), Root::H17(b)) => NodeArc::ptr_eq(a, b),
            (Root::H18(a), Root::H18(b)) => NodeArc::ptr_eq(a, b),
            (Root::H19(a), Root::H19(b)) => NodeArc::ptr_eq(a, b),
            (Root::H20(a), Root::H20(b)) => NodeArc::ptr_eq(a, b),
            (Root::H21(a), Root::H21(b)) => NodeArc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// A sparse persistent array: clone Θ(1), get Θ(log₈ n), persistent set Θ(8 · log₈ n)
/// (72 bytes kept a level).
#[derive(Clone)]
pub(crate) struct PVec<T> {
    root: Root<T>,
    len: usize,
}

impl<T: Clone> PVec<T> {
    pub(crate) fn new() -> Self {
        PVec {
            root: Root::Empty,
            len: 0,
        }
    }

    /// Number of occupied slots.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<&T> {
        self.root.get(i)
    }

    /// The value at `i`, mutable, with the path to it made unique (copying only what is
    /// shared with other vectors); `None` when the slot is empty.
    pub(crate) fn get_mut(&mut self, i: u64) -> Option<&mut T> {
        self.get(i)?;
        self.root.get_mut(i)
    }

    /// Store `value` at `i` (or clear it with `None`); returns the previous value.
    pub(crate) fn set(&mut self, i: u64, value: Option<T>) -> Option<T> {
        if value.is_none() && self.get(i).is_none() {
            return None;
        }
        while self.root.height().is_none_or(|h| !fits(i, h)) {
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
        out.into_iter()
    }

    pub(crate) fn ptr_eq(&self, o: &Self) -> bool {
        self.root.ptr_eq(&o.root)
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

    /// A write through `get_mut` copies the path to its slot and leaves every clone as it
    /// was; clearing and growing keep the count and the order.
    #[test]
    fn get_mut_copies_only_this_vector() {
        let mut p = PVec::new();
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
