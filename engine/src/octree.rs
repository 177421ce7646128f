//! The sparse octree [`Grid`](crate::grid::Grid) keeps its sparse or far 16 × 16 chunks in
//! (those outside every dense level's array): one descent, one growth rule, one box walk.
//! (The cell index keeps one 2D tree per level instead, in `cells.rs`.)
//!
//! Chunks are addressed by chunk coordinates (x / 16, y / 16, z), floored. The root sits at a
//! movable origin and covers 2^height chunks along each axis; it grows upward (doubling,
//! possibly shifting its corner) when a chunk outside it is written. Every node and chunk is
//! behind an [`Arc`]: writing through a shared path copies exactly that path.

use std::sync::Arc;

use crate::loc::Loc;

/// log₂ of a chunk's side in cells.
pub(crate) const CHUNK_BITS: u32 = 4;
/// Side of a chunk in cells.
pub(crate) const SIDE: i32 = 1 << CHUNK_BITS;
/// Cell coordinate within a chunk.
pub(crate) const MASK: i32 = SIDE - 1;
/// Cells per chunk.
pub(crate) const CELLS: usize = (SIDE * SIDE) as usize;
/// Largest tree height. Chunk coordinates span at most 2^32 per axis; growth doubles the root
/// and may shift its corner away from a later target, so covering any target from any origin
/// needs at most 35 levels. 40 leaves room; spans stay far inside `i64`.
pub(crate) const MAX_HEIGHT: u32 = 40;

/// Chunk coordinates of a location: (x / 16, y / 16, z), floored.
#[inline(always)]
pub(crate) fn chunk_of(loc: Loc) -> [i64; 3] {
    [
        i64::from(loc.x >> CHUNK_BITS),
        i64::from(loc.y >> CHUNK_BITS),
        i64::from(loc.z),
    ]
}

/// Index of `loc`'s cell within its chunk (row-major).
#[inline(always)]
pub(crate) fn cell_index(loc: Loc) -> usize {
    ((loc.y & MASK) * SIDE + (loc.x & MASK)) as usize
}

#[inline(always)]
fn slot(rel: [u64; 3], level: u32) -> usize {
    (((rel[0] >> level) & 1) | (((rel[1] >> level) & 1) << 1) | (((rel[2] >> level) & 1) << 2))
        as usize
}

fn child_rel(rel: [u64; 3], s: usize, level: u32) -> [u64; 3] {
    [
        rel[0] | (((s as u64) & 1) << level),
        rel[1] | ((((s as u64) >> 1) & 1) << level),
        rel[2] | ((((s as u64) >> 2) & 1) << level),
    ]
}

/// A node of the tree.
#[derive(Debug)]
pub(crate) enum Node<C> {
    /// Children are nodes one level down.
    Inner([Option<Arc<Node<C>>>; 8]),
    /// Level 0: children are chunks.
    Bottom([Option<Arc<C>>; 8]),
}

impl<C> Clone for Node<C> {
    fn clone(&self) -> Self {
        match self {
            Node::Inner(k) => Node::Inner(k.clone()),
            Node::Bottom(c) => Node::Bottom(c.clone()),
        }
    }
}

impl<C> Node<C> {
    fn empty(level: u32) -> Self {
        if level == 0 {
            Node::Bottom(Default::default())
        } else {
            Node::Inner(Default::default())
        }
    }
}

/// A sparse persistent octree of chunks `C`.
#[derive(Debug)]
pub(crate) struct Tree<C> {
    pub(crate) root: Option<Arc<Node<C>>>,
    /// Chunk coordinates of the root's corner.
    pub(crate) origin: [i64; 3],
    /// Levels of nodes; the root covers 2^height chunks along each axis.
    pub(crate) height: u32,
}

impl<C> Clone for Tree<C> {
    fn clone(&self) -> Self {
        Tree {
            root: self.root.clone(),
            origin: self.origin,
            height: self.height,
        }
    }
}

impl<C> Default for Tree<C> {
    fn default() -> Self {
        Tree {
            root: None,
            origin: [0; 3],
            height: 0,
        }
    }
}

impl<C> Tree<C> {
    /// `chunk` relative to the root's corner, or `None` outside the root.
    #[inline(always)]
    fn rel(&self, chunk: [i64; 3]) -> Option<[u64; 3]> {
        let span = 1u64 << self.height;
        let rx = chunk[0].wrapping_sub(self.origin[0]) as u64;
        let ry = chunk[1].wrapping_sub(self.origin[1]) as u64;
        let rz = chunk[2].wrapping_sub(self.origin[2]) as u64;
        // Negative offsets wrap to huge unsigned values: one comparison per axis.
        if (rx | ry | rz) >= span {
            return None;
        }
        Some([rx, ry, rz])
    }

    /// The chunk at `chunk` coordinates, if written.
    #[inline]
    pub(crate) fn find(&self, chunk: [i64; 3]) -> Option<&C> {
        let mut node = self.root.as_deref()?;
        let rel = self.rel(chunk)?;
        let mut level = self.height - 1;
        loop {
            match node {
                Node::Inner(kids) => {
                    node = kids[slot(rel, level)].as_deref()?;
                    level = level.wrapping_sub(1);
                }
                Node::Bottom(chunks) => return chunks[slot(rel, level)].as_deref(),
            }
        }
    }

    /// Grow the root until it covers `chunk`.
    fn cover(&mut self, chunk: [i64; 3]) {
        if self.root.is_none() {
            self.origin = chunk;
            self.height = 1;
            self.root = Some(Arc::new(Node::empty(0)));
            return;
        }
        while self.rel(chunk).is_none() && self.height < MAX_HEIGHT {
            let span = 1i64 << self.height;
            let mut s = 0usize;
            for (axis, (c, o)) in chunk.iter().zip(self.origin.iter_mut()).enumerate() {
                if *c < *o {
                    *o -= span;
                    s |= 1 << axis;
                }
            }
            let mut kids: [Option<Arc<Node<C>>>; 8] = Default::default();
            kids[s] = self.root.take();
            self.root = Some(Arc::new(Node::Inner(kids)));
            self.height += 1;
        }
    }

    /// Every written chunk as (its chunk coordinates, the chunk), in tree order.
    pub(crate) fn chunks(&self) -> Vec<([i64; 3], &Arc<C>)> {
        self.chunks_in([i64::MIN; 3], [i64::MAX; 3])
    }

    /// Every written chunk whose chunk coordinates lie within `cmin..=cmax`, in tree order.
    /// Θ(nodes and chunks overlapping the box).
    pub(crate) fn chunks_in(&self, cmin: [i64; 3], cmax: [i64; 3]) -> Vec<([i64; 3], &Arc<C>)> {
        fn walk<'a, C>(
            node: &'a Node<C>,
            level: u32,
            rel: [u64; 3],
            q: &([i64; 3], [i64; 3], [i64; 3]),
            out: &mut Vec<([i64; 3], &'a Arc<C>)>,
        ) {
            let (origin, cmin, cmax) = q;
            let overlaps = |r: [u64; 3], size: i64| {
                (0..3).all(|a| {
                    let lo = origin[a] + r[a] as i64;
                    lo <= cmax[a] && lo.saturating_add(size) > cmin[a]
                })
            };
            match node {
                Node::Inner(kids) => {
                    for (s, k) in kids.iter().enumerate() {
                        if let Some(k) = k {
                            let r = child_rel(rel, s, level);
                            if overlaps(r, 1i64 << level) {
                                walk(k, level - 1, r, q, out);
                            }
                        }
                    }
                }
                Node::Bottom(chunks) => {
                    for (s, c) in chunks.iter().enumerate() {
                        let Some(c) = c else { continue };
                        let r = child_rel(rel, s, level);
                        if overlaps(r, 1) {
                            let at = [
                                origin[0] + r[0] as i64,
                                origin[1] + r[1] as i64,
                                origin[2] + r[2] as i64,
                            ];
                            out.push((at, c));
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        if let Some(root) = &self.root {
            walk(
                root,
                self.height - 1,
                [0; 3],
                &(self.origin, cmin, cmax),
                &mut out,
            );
        }
        out
    }

    /// Whether two trees share all their storage. Θ(1).
    pub(crate) fn ptr_eq(&self, other: &Self) -> bool {
        match (&self.root, &other.root) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) && self.origin == other.origin,
            (None, None) => true,
            _ => false,
        }
    }

    /// Verify the structure (bottom nodes exactly at level 0, height within bounds) and every
    /// chunk with `check`.
    pub(crate) fn check(
        &self,
        check: impl Fn(&C) -> Result<(), &'static str>,
    ) -> Result<(), &'static str> {
        fn walk<C>(
            n: &Node<C>,
            level: u32,
            check: &dyn Fn(&C) -> Result<(), &'static str>,
        ) -> Result<(), &'static str> {
            match (n, level) {
                (Node::Bottom(chunks), 0) => {
                    for c in chunks.iter().flatten() {
                        check(c)?;
                    }
                    Ok(())
                }
                (Node::Inner(kids), l) if l > 0 => {
                    for k in kids.iter().flatten() {
                        walk(k, l - 1, check)?;
                    }
                    Ok(())
                }
                _ => Err("octree node at the wrong level"),
            }
        }
        match &self.root {
            None => Ok(()),
            Some(r) if (1..=MAX_HEIGHT).contains(&self.height) => walk(r, self.height - 1, &check),
            Some(_) => Err("octree height out of range"),
        }
    }
}

impl<C: Clone> Tree<C> {
    /// The slot of the chunk at `chunk` coordinates, the root grown to cover it and the path
    /// to it made unique (nodes created as needed).
    pub(crate) fn slot_mut(&mut self, chunk: [i64; 3]) -> &mut Option<Arc<C>> {
        self.cover(chunk);
        // `cover` guarantees coverage (see MAX_HEIGHT).
        let rel = self.rel(chunk).unwrap_or([0; 3]);
        debug_assert!(self.rel(chunk).is_some(), "root does not cover {chunk:?}");
        let mut level = self.height - 1;
        let mut node = Arc::make_mut(
            self.root
                .get_or_insert_with(|| Arc::new(Node::empty(level))),
        );
        loop {
            let s = slot(rel, level);
            match node {
                Node::Inner(kids) => {
                    let child = kids[s].get_or_insert_with(|| Arc::new(Node::empty(level - 1)));
                    node = Arc::make_mut(child);
                    level -= 1;
                }
                Node::Bottom(chunks) => return &mut chunks[s],
            }
        }
    }
}

/// The corner cell of the chunk at chunk coordinates `at` (which come from `i32` cells).
pub(crate) fn corner(at: [i64; 3]) -> Loc {
    Loc::new(
        (at[0] << CHUNK_BITS) as i32,
        (at[1] << CHUNK_BITS) as i32,
        at[2] as i32,
    )
}
