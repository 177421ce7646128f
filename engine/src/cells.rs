//! `CellIndex`: which things stand on which map cell, as a compact persistent sparse map.
//!
//! # Design
//! The index is a short sorted list of levels (z), each with its own 2D tree of chunks of
//! 16 × 16 cells, so a read is a binary search among the levels plus a walk whose depth
//! depends only on that level's extent: things on other levels never make it deeper. Each
//! level's tree has a fan-out of 2 × 2 and a movable origin (it grows upward, by ×2 per axis,
//! toward a chunk written outside it); an 80 × 21 level (5 × 2 chunks) is three nodes deep, a
//! 400 × 400 one (25 × 25 chunks) five.
//!
//! A chunk stores only its occupied cells: a 256-bit occupancy mask, the end of each occupied
//! cell's run of ids (none when every occupied cell holds one thing), and the ids themselves,
//! cell after cell, each cell's ids in arrival order. A chunk holding `k` things on `c` cells
//! takes `≈ 80 + 8k` bytes, plus `4c` when a cell holds more than one. Nodes and chunks are
//! `triomphe::Arc`s (one 8-byte count). Moving a thing therefore copies a chunk (~200 bytes
//! where 16 things stand), a 48-byte node per tree level and the level list (32 bytes a level)
//! instead of a 6 KB grid chunk of id lists: with the thing's own record and id index path,
//! a move on a level where one cell in 16 holds a thing keeps 992 bytes (the `things` bench's
//! memory line; a 4 × 4 fan-out kept 1,280, the path's three 152-byte nodes being most of the
//! difference). Chunks, nodes and levels left empty are dropped, and equality compares
//! contents, so the index stays canonical.
//!
//! Reads are a level lookup (one probe when the levels are consecutive, else a binary
//! search), a few pointer hops, one bit test (most cells
//! are empty) and a popcount.

use std::sync::Arc;

use triomphe::Arc as NodeArc;

use crate::grid::Grid;
use crate::loc::Loc;
use crate::thing::{IdList, ThingId};

/// log₂ of a chunk's side in cells.
const CHUNK_BITS: u32 = 4;
/// Side of a chunk in cells.
const SIDE: i32 = 1 << CHUNK_BITS;
/// Cell coordinate within a chunk.
const MASK: i32 = SIDE - 1;
/// Largest height of a level's tree. Chunk coordinates span at most 2^28 per axis; each
/// growth doubles the root's side and moves toward the target on every axis that needs it,
/// so covering any chunk from any origin takes at most 30 levels.
const MAX_HEIGHT: u32 = 32;

/// log₂ of a tree node's children along each axis: 2 × 2 children a node.
const FAN_BITS: u32 = 1;
/// A node's children along each axis.
const FAN_SIDE: usize = 1 << FAN_BITS;
/// A child's coordinate along one axis within its node.
const FAN_MASK: u64 = FAN_SIDE as u64 - 1;
/// Children of a node.
const KIDS: usize = FAN_SIDE * FAN_SIDE;

/// Chunk coordinates (x / 16, y / 16) of a location, floored.
#[inline(always)]
fn chunk_of(loc: Loc) -> [i64; 2] {
    [
        i64::from(loc.x >> CHUNK_BITS),
        i64::from(loc.y >> CHUNK_BITS),
    ]
}

/// Index of `loc`'s cell within its chunk (row-major).
#[inline(always)]
fn cell_index(loc: Loc) -> usize {
    ((loc.y & MASK) * SIDE + (loc.x & MASK)) as usize
}

/// The occupied cells of one 16 × 16 chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Leaf {
    /// Bit `i` set: cell `i` (row-major in the chunk) holds at least one thing.
    occupied: [u64; 4],
    /// Occupied cells in the words of `occupied` before each word (a rank in one popcount).
    before: [u16; 4],
    /// For the `r`-th occupied cell (in cell order), the end of its ids in `ids`; its ids
    /// start where the previous cell's end (or at 0). Empty when every occupied cell holds
    /// exactly one thing (the common case: then cell `r`'s id is `ids[r]`), so such a chunk
    /// keeps no run ends at all.
    ends: Box<[u32]>,
    /// Every id in the chunk, grouped by cell in cell order, each cell in arrival order.
    ids: Box<[ThingId]>,
}

impl Leaf {
    #[inline(always)]
    fn has(&self, cell: usize) -> bool {
        self.occupied[cell >> 6] & (1 << (cell & 63)) != 0
    }

    /// A chunk from its parts, with the per-word counts filled in (and the run ends dropped
    /// when every cell holds one thing, so equal contents give equal chunks).
    fn from_parts(occupied: [u64; 4], mut ends: Vec<u32>, ids: Vec<ThingId>) -> Leaf {
        if ends.len() == ids.len() {
            ends = Vec::new();
        }
        let mut before = [0u16; 4];
        for w in 1..4 {
            before[w] = before[w - 1] + occupied[w - 1].count_ones() as u16;
        }
        Leaf {
            occupied,
            before,
            ends: ends.into(),
            ids: ids.into(),
        }
    }

    /// Number of occupied cells before `cell`.
    #[inline(always)]
    fn rank(&self, cell: usize) -> usize {
        let word = cell >> 6;
        let below = self.occupied[word] & ((1u64 << (cell & 63)) - 1);
        usize::from(self.before[word]) + below.count_ones() as usize
    }

    /// The range of `ids` of the `r`-th occupied cell.
    #[inline(always)]
    fn run(&self, r: usize) -> (usize, usize) {
        if self.ends.is_empty() {
            return (r, r + 1);
        }
        let start = if r == 0 { 0 } else { self.ends[r - 1] as usize };
        (start, self.ends[r] as usize)
    }

    /// The run ends of every occupied cell, also when they are implicit.
    fn full_ends(&self) -> Vec<u32> {
        if self.ends.is_empty() {
            (1..=self.ids.len() as u32).collect()
        } else {
            self.ends.to_vec()
        }
    }

    #[inline]
    fn get(&self, cell: usize) -> &[ThingId] {
        if !self.has(cell) {
            return &[];
        }
        let r = self.rank(cell);
        if self.ends.is_empty() {
            // One thing per occupied cell (the common case): no runs to read.
            return self.ids.get(r..=r).unwrap_or(&[]);
        }
        let (s, e) = self.run(r);
        self.ids.get(s..e).unwrap_or(&[])
    }

    /// This chunk with `id` appended to `cell`'s list.
    fn with_pushed(&self, cell: usize, id: ThingId) -> Leaf {
        let r = self.rank(cell);
        let mut occupied = self.occupied;
        let old = self.full_ends();
        let mut ends: Vec<u32>;
        let at;
        if self.has(cell) {
            at = old[r] as usize;
            ends = old;
        } else {
            at = if r == 0 { 0 } else { old[r - 1] as usize };
            occupied[cell >> 6] |= 1 << (cell & 63);
            ends = Vec::with_capacity(old.len() + 1);
            ends.extend_from_slice(&old[..r]);
            ends.push(at as u32);
            ends.extend_from_slice(&old[r..]);
        }
        for e in &mut ends[r..] {
            *e += 1;
        }
        let mut ids = Vec::with_capacity(self.ids.len() + 1);
        ids.extend_from_slice(&self.ids[..at]);
        ids.push(id);
        ids.extend_from_slice(&self.ids[at..]);
        Leaf::from_parts(occupied, ends, ids)
    }

    /// This chunk without `id` in `cell`'s list, or `None` when it isn't there.
    fn with_removed(&self, cell: usize, id: ThingId) -> Option<Leaf> {
        if !self.has(cell) {
            return None;
        }
        let r = self.rank(cell);
        let (s, e) = self.run(r);
        let at = s + self.ids.get(s..e)?.iter().position(|&x| x == id)?;
        let mut occupied = self.occupied;
        let old = self.full_ends();
        let mut ends: Vec<u32> = Vec::with_capacity(old.len());
        ends.extend_from_slice(&old[..r]);
        if e - s > 1 {
            ends.push(old[r] - 1);
        } else {
            occupied[cell >> 6] &= !(1 << (cell & 63));
        }
        ends.extend(old[r + 1..].iter().map(|e| e - 1));
        let mut ids = Vec::with_capacity(self.ids.len() - 1);
        ids.extend_from_slice(&self.ids[..at]);
        ids.extend_from_slice(&self.ids[at + 1..]);
        Some(Leaf::from_parts(occupied, ends, ids))
    }

    fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Every occupied cell's index and ids, in cell order.
    fn iter(&self) -> impl Iterator<Item = (usize, &[ThingId])> + '_ {
        let cells = self.occupied.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        });
        cells.enumerate().map(|(r, c)| {
            let (s, e) = self.run(r);
            (c, self.ids.get(s..e).unwrap_or(&[]))
        })
    }

    fn check(&self) -> Result<(), &'static str> {
        let n: u32 = self.occupied.iter().map(|w| w.count_ones()).sum();
        if Leaf::from_parts(self.occupied, Vec::new(), Vec::new()).before != self.before {
            return Err("cell index chunk: stale occupancy counts");
        }
        if self.ends.is_empty() {
            if n as usize != self.ids.len() {
                return Err("cell index chunk: occupancy and ids disagree");
            }
        } else if n as usize != self.ends.len() {
            return Err("cell index chunk: occupancy and runs disagree");
        } else if self.ends.len() == self.ids.len() {
            return Err("cell index chunk: run ends kept though every cell holds one thing");
        }
        if self.is_empty() {
            return Err("cell index chunk is empty");
        }
        let mut prev = 0u32;
        for &e in self.full_ends().iter() {
            if e <= prev {
                return Err("cell index chunk: an occupied cell has no things");
            }
            prev = e;
        }
        if prev as usize != self.ids.len() {
            return Err("cell index chunk: runs and ids disagree");
        }
        Ok(())
    }
}

/// A node of a level's tree: 4 × 4 children, slot `x + 4 y`.
#[derive(Clone, Debug)]
enum Node {
    /// Children are nodes one level down.
    Inner([Option<NodeArc<Node>>; KIDS]),
    /// The lowest level: children are chunks.
    Bottom([Option<NodeArc<Leaf>>; KIDS]),
}

impl Node {
    fn empty(bottom: bool) -> Node {
        if bottom {
            Node::Bottom(Default::default())
        } else {
            Node::Inner(Default::default())
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Node::Inner(k) => k.iter().all(Option::is_none),
            Node::Bottom(k) => k.iter().all(Option::is_none),
        }
    }
}

/// The child slot of a chunk at `rel` (relative to the node's tree origin) in a node whose
/// children span `1 << shift` chunks per axis.
#[inline(always)]
fn slot(rel: [u64; 2], shift: u32) -> usize {
    (((rel[0] >> shift) & FAN_MASK) | (((rel[1] >> shift) & FAN_MASK) << FAN_BITS)) as usize
}

/// One level of the index: its z and the 2D tree of its chunks. The root covers
/// `4^height` chunks along each axis from `origin`.
#[derive(Clone, Debug)]
struct Plane {
    z: i32,
    height: u32,
    origin: [i64; 2],
    root: NodeArc<Node>,
}

impl Plane {
    /// An empty level at `z` whose root covers `chunk`.
    fn new(z: i32, chunk: [i64; 2]) -> Plane {
        Plane {
            z,
            height: 1,
            origin: chunk,
            root: NodeArc::new(Node::empty(true)),
        }
    }

    /// `chunk` relative to the root's corner, or `None` outside the root.
    #[inline(always)]
    fn rel(&self, chunk: [i64; 2]) -> Option<[u64; 2]> {
        let rx = chunk[0].wrapping_sub(self.origin[0]) as u64;
        let ry = chunk[1].wrapping_sub(self.origin[1]) as u64;
        // Negative offsets wrap to huge unsigned values: one test for both axes.
        if (rx | ry) >> (FAN_BITS * self.height) != 0 {
            return None;
        }
        Some([rx, ry])
    }

    /// The chunk at `chunk` coordinates, if it holds things.
    #[inline]
    fn find(&self, chunk: [i64; 2]) -> Option<&Leaf> {
        let rel = self.rel(chunk)?;
        let mut node = &*self.root;
        let mut shift = FAN_BITS * (self.height - 1);
        loop {
            match node {
                Node::Inner(kids) => {
                    node = kids[slot(rel, shift)].as_deref()?;
                    shift = shift.wrapping_sub(FAN_BITS);
                }
                Node::Bottom(chunks) => return chunks[slot(rel, shift)].as_deref(),
            }
        }
    }

    /// Grow the root until it covers `chunk`.
    fn cover(&mut self, chunk: [i64; 2]) {
        while self.rel(chunk).is_none() && self.height < MAX_HEIGHT {
            let span = 1i64 << (FAN_BITS * self.height);
            let mut s = 0usize;
            for (axis, (c, o)) in chunk.iter().zip(self.origin.iter_mut()).enumerate() {
                if *c < *o {
                    *o -= (FAN_SIDE as i64 - 1) * span;
                    s |= (FAN_SIDE - 1) << (FAN_BITS as usize * axis);
                }
            }
            let mut kids: [Option<NodeArc<Node>>; KIDS] = Default::default();
            kids[s] = Some(self.root.clone());
            self.root = NodeArc::new(Node::Inner(kids));
            self.height += 1;
        }
    }

    /// Put `leaf` (or nothing) at `chunk`, copying the path to it, creating nodes on the way
    /// and dropping nodes left empty. Returns whether the level is now empty.
    fn set(&mut self, chunk: [i64; 2], leaf: Option<NodeArc<Leaf>>) -> bool {
        fn walk(node: &mut NodeArc<Node>, rel: [u64; 2], shift: u32, leaf: Option<NodeArc<Leaf>>) {
            let node = NodeArc::make_mut(node);
            let s = slot(rel, shift);
            match node {
                Node::Bottom(chunks) => chunks[s] = leaf,
                Node::Inner(kids) => {
                    if kids[s].is_none() && leaf.is_none() {
                        return;
                    }
                    let k =
                        kids[s].get_or_insert_with(|| NodeArc::new(Node::empty(shift == FAN_BITS)));
                    walk(k, rel, shift - FAN_BITS, leaf);
                    if k.is_empty() {
                        kids[s] = None;
                    }
                }
            }
        }
        if leaf.is_some() {
            self.cover(chunk);
        }
        // After `cover` the root covers `chunk` (see MAX_HEIGHT); a removal outside the root
        // has nothing to remove.
        if let Some(rel) = self.rel(chunk) {
            walk(&mut self.root, rel, FAN_BITS * (self.height - 1), leaf);
        }
        self.root.is_empty()
    }

    /// Every chunk whose chunk coordinates lie within `cmin..=cmax`, as (its chunk
    /// coordinates, the chunk), in tree order. Θ(nodes and chunks overlapping the box).
    fn chunks_in<'a>(
        &'a self,
        cmin: [i64; 2],
        cmax: [i64; 2],
        out: &mut Vec<([i64; 2], &'a Leaf)>,
    ) {
        fn walk<'a>(
            node: &'a Node,
            corner: [i64; 2],
            shift: u32,
            q: ([i64; 2], [i64; 2]),
            out: &mut Vec<([i64; 2], &'a Leaf)>,
        ) {
            let (cmin, cmax) = q;
            let size = 1i64 << shift;
            let child = |s: usize| {
                let lo = [
                    corner[0] + ((s as u64 & FAN_MASK) as i64) * size,
                    corner[1] + (((s >> FAN_BITS) as u64 & FAN_MASK) as i64) * size,
                ];
                let overlaps = (0..2).all(|a| lo[a] <= cmax[a] && lo[a] + size > cmin[a]);
                overlaps.then_some(lo)
            };
            match node {
                Node::Inner(kids) => {
                    for (s, k) in kids.iter().enumerate() {
                        if let (Some(k), Some(lo)) = (k, child(s)) {
                            walk(k, lo, shift - FAN_BITS, q, out);
                        }
                    }
                }
                Node::Bottom(chunks) => {
                    for (s, c) in chunks.iter().enumerate() {
                        if let (Some(c), Some(lo)) = (c, child(s)) {
                            out.push((lo, c));
                        }
                    }
                }
            }
        }
        walk(
            &self.root,
            self.origin,
            FAN_BITS * (self.height - 1),
            (cmin, cmax),
            out,
        );
    }

    /// Verify the tree's structure (bottom nodes exactly at the lowest level, no empty node,
    /// height within bounds) and every chunk.
    fn check(&self) -> Result<(), &'static str> {
        fn walk(n: &Node, level: u32) -> Result<(), &'static str> {
            if n.is_empty() {
                return Err("cell index: an empty node");
            }
            match (n, level) {
                (Node::Bottom(chunks), 0) => {
                    for c in chunks.iter().flatten() {
                        c.check()?;
                    }
                    Ok(())
                }
                (Node::Inner(kids), l) if l > 0 => {
                    for k in kids.iter().flatten() {
                        walk(k, l - 1)?;
                    }
                    Ok(())
                }
                _ => Err("cell index: a node at the wrong level"),
            }
        }
        if !(1..=MAX_HEIGHT).contains(&self.height) {
            return Err("cell index: tree height out of range");
        }
        walk(&self.root, self.height - 1)
    }
}

/// The things on each map cell, as a persistent sparse map from cell to an ordered list of
/// ids. Clone Θ(1); [`get`](CellIndex::get) Θ(log levels + h) with no allocation, where h is
/// the height of that level's tree (≈ log₄ of the level's extent in chunks, whatever the other
/// levels hold); [`push`](CellIndex::push) and [`remove`](CellIndex::remove) copy the level
/// list, one chunk's occupied cells and h small nodes.
#[derive(Clone, Debug)]
pub(crate) struct CellIndex {
    /// The levels holding things, sorted by z.
    levels: Arc<[Plane]>,
}

impl Default for CellIndex {
    fn default() -> Self {
        CellIndex {
            levels: Arc::from(Vec::new()),
        }
    }
}

impl CellIndex {
    pub(crate) fn new() -> Self {
        CellIndex::default()
    }

    /// The level at `z`, if it holds things.
    #[inline(always)]
    fn level(&self, z: i32) -> Option<&Plane> {
        let levels = &*self.levels;
        // Levels are usually consecutive (a dungeon's 1..=n): try z's offset from the first
        // level before searching.
        let first = levels.first()?.z;
        let guess = usize::try_from(i64::from(z) - i64::from(first)).ok();
        if let Some(p) = guess.and_then(|i| levels.get(i)).filter(|p| p.z == z) {
            return Some(p);
        }
        levels
            .binary_search_by_key(&z, |p| p.z)
            .ok()
            .and_then(|i| levels.get(i))
    }

    /// The ids at `loc`, in arrival order.
    #[inline]
    pub(crate) fn get(&self, loc: Loc) -> &[ThingId] {
        match self.level(loc.z).and_then(|p| p.find(chunk_of(loc))) {
            Some(l) => l.get(cell_index(loc)),
            None => &[],
        }
    }

    /// Replace the chunk holding `loc` by `leaf` (or nothing), adding or dropping its level
    /// as needed.
    fn set_leaf(&mut self, loc: Loc, leaf: Option<Leaf>) {
        let chunk = chunk_of(loc);
        let leaf = leaf.filter(|l| !l.is_empty()).map(NodeArc::new);
        match self.levels.binary_search_by_key(&loc.z, |p| p.z) {
            Ok(i) => {
                if Arc::get_mut(&mut self.levels).is_none() {
                    self.levels = Arc::from(self.levels.to_vec());
                }
                // Unique now: the list was just copied if it was shared.
                let Some(levels) = Arc::get_mut(&mut self.levels) else {
                    return;
                };
                if levels[i].set(chunk, leaf) {
                    let mut v = levels.to_vec();
                    v.remove(i);
                    self.levels = Arc::from(v);
                }
            }
            Err(i) => {
                if leaf.is_none() {
                    return;
                }
                let mut plane = Plane::new(loc.z, chunk);
                plane.set(chunk, leaf);
                let mut v = Vec::with_capacity(self.levels.len() + 1);
                v.extend_from_slice(&self.levels[..i]);
                v.push(plane);
                v.extend_from_slice(&self.levels[i..]);
                self.levels = Arc::from(v);
            }
        }
    }

    /// The chunk holding `loc`, if any.
    fn leaf_at(&self, loc: Loc) -> Option<&Leaf> {
        self.level(loc.z).and_then(|p| p.find(chunk_of(loc)))
    }

    /// Append `id` to the list at `loc`.
    pub(crate) fn push(&mut self, loc: Loc, id: ThingId) {
        let cell = cell_index(loc);
        let leaf = match self.leaf_at(loc) {
            Some(l) => l.with_pushed(cell, id),
            None => Leaf::default().with_pushed(cell, id),
        };
        self.set_leaf(loc, Some(leaf));
    }

    /// Remove `id` from the list at `loc` (nothing happens when it isn't there).
    pub(crate) fn remove(&mut self, loc: Loc, id: ThingId) {
        let Some(leaf) = self
            .leaf_at(loc)
            .and_then(|l| l.with_removed(cell_index(loc), id))
        else {
            return;
        };
        self.set_leaf(loc, Some(leaf));
    }

    /// Every occupied cell of `plane` within `min..=max` (x and y in cell coordinates,
    /// inclusive) with its ids, appended to `out` in chunk-tree order.
    fn plane_in_range<'a>(
        plane: &'a Plane,
        min: [i64; 2],
        max: [i64; 2],
        out: &mut Vec<(Loc, &'a [ThingId])>,
    ) {
        let mut chunks = Vec::new();
        plane.chunks_in(
            [min[0] >> CHUNK_BITS, min[1] >> CHUNK_BITS],
            [max[0] >> CHUNK_BITS, max[1] >> CHUNK_BITS],
            &mut chunks,
        );
        for (at, leaf) in chunks {
            let cx = at[0] << CHUNK_BITS;
            let cy = at[1] << CHUNK_BITS;
            for (c, ids) in leaf.iter() {
                let x = cx + (c % SIDE as usize) as i64;
                let y = cy + (c / SIDE as usize) as i64;
                if (min[0]..=max[0]).contains(&x) && (min[1]..=max[1]).contains(&y) {
                    // Occupied cells always come from i32 locations.
                    out.push((Loc::new(x as i32, y as i32, plane.z), ids));
                }
            }
        }
    }

    /// Every occupied cell within `min..=max` (cell coordinates, inclusive) with its ids, in
    /// (z, y, x) order. Θ(log levels + per level in the box: chunks and nodes overlapping the
    /// box + occupied cells found, sorted).
    pub(crate) fn in_range(&self, min: [i64; 3], max: [i64; 3]) -> Vec<(Loc, &[ThingId])> {
        let levels = &*self.levels;
        let from = levels.partition_point(|p| i64::from(p.z) < min[2]);
        let mut out = Vec::new();
        for plane in levels[from..]
            .iter()
            .take_while(|p| i64::from(p.z) <= max[2])
        {
            let start = out.len();
            CellIndex::plane_in_range(plane, [min[0], min[1]], [max[0], max[1]], &mut out);
            if let Some(found) = out.get_mut(start..) {
                found.sort_unstable_by_key(|(l, _)| (l.y, l.x));
            }
        }
        out
    }

    /// Every occupied cell with its ids, in canonical order (z, chunk row, chunk column,
    /// then row-major within the chunk): the order of `Grid::iter_set`.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Loc, &[ThingId])> + '_ {
        self.levels.iter().flat_map(|plane| {
            let mut chunks = Vec::new();
            plane.chunks_in([i64::MIN; 2], [i64::MAX; 2], &mut chunks);
            chunks.sort_unstable_by_key(|(at, _)| (at[1], at[0]));
            chunks.into_iter().flat_map(move |(at, leaf)| {
                let cx = (at[0] << CHUNK_BITS) as i32;
                let cy = (at[1] << CHUNK_BITS) as i32;
                leaf.iter().map(move |(c, ids)| {
                    let dx = (c % SIDE as usize) as i32;
                    let dy = (c / SIDE as usize) as i32;
                    (Loc::new(cx + dx, cy + dy, plane.z), ids)
                })
            })
        })
    }

    /// Whether two indexes share all their storage. Θ(1).
    fn ptr_eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.levels, &other.levels)
    }

    /// Verify the level list (sorted, no empty level) and every level's tree and chunks.
    pub(crate) fn check_invariants(&self) -> Result<(), &'static str> {
        if self.levels.windows(2).any(|w| w[0].z >= w[1].z) {
            return Err("cell index: levels out of order");
        }
        self.levels.iter().try_for_each(Plane::check)
    }

    /// The height of level `z`'s tree (0 when the level holds nothing).
    #[cfg(test)]
    fn level_height(&self, z: i32) -> u32 {
        self.level(z).map_or(0, |p| p.height)
    }

    /// The same map as a grid of id lists (the saved form).
    pub(crate) fn to_grid(&self) -> Grid<IdList> {
        let mut g = Grid::new(IdList::default());
        for (loc, ids) in self.iter() {
            g.set_mut(loc, IdList::from_vec(ids.to_vec()));
        }
        g
    }

    /// The index of a grid of id lists (the saved form).
    pub(crate) fn from_grid(g: &Grid<IdList>) -> Self {
        let mut c = CellIndex::new();
        for (loc, ids) in g.iter_set() {
            for &id in ids.as_slice() {
                c.push(loc, id);
            }
        }
        c
    }
}

impl PartialEq for CellIndex {
    /// Cell-by-cell equality, independent of the trees' shapes.
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other) || self.iter().eq(other.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn matches_a_map_and_old_values_stay() {
        let mut c = CellIndex::new();
        let mut o: BTreeMap<Loc, Vec<ThingId>> = BTreeMap::new();
        let mut x: u64 = 99;
        let mut snapshots = Vec::new();
        for step in 0..4000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let loc = if step.is_multiple_of(97) {
                Loc::new(x as i32, (x >> 32) as i32, (x >> 16) as i32)
            } else {
                Loc::new(
                    (x % 40) as i32 - 20,
                    ((x >> 8) % 40) as i32 - 20,
                    -(((x >> 16) % 3) as i32),
                )
            };
            let list = o.entry(loc).or_default();
            if x.is_multiple_of(3) && !list.is_empty() {
                let id = list[(x >> 20) as usize % list.len()];
                list.retain(|&i| i != id);
                c.remove(loc, id);
            } else {
                list.push(ThingId(step));
                c.push(loc, ThingId(step));
            }
            if list.is_empty() {
                o.remove(&loc);
            }
            c.check_invariants().unwrap();
            if step.is_multiple_of(500) {
                snapshots.push((c.clone(), o.clone()));
            }
        }
        for (c, o) in snapshots
            .iter()
            .chain(std::iter::once(&(c.clone(), o.clone())))
        {
            for (l, ids) in o {
                assert_eq!(c.get(*l), ids.as_slice());
            }
            let grid = c.to_grid();
            let want: Vec<(Loc, Vec<ThingId>)> = grid
                .iter_set()
                .map(|(l, v)| (l, v.as_slice().to_vec()))
                .collect();
            let got: Vec<(Loc, Vec<ThingId>)> = c.iter().map(|(l, v)| (l, v.to_vec())).collect();
            assert_eq!(got, want, "same canonical order as the grid");
            assert_eq!(got.len(), o.len());
            assert_eq!(&CellIndex::from_grid(&grid), c);
            // Box queries list exactly the occupied cells in the box, in (z, y, x) order.
            for (min, max) in [
                ([-7i64, -5, -2], [9i64, 12, 0]),
                ([-20, -20, -1], [-20, 19, -1]),
                ([i64::from(i32::MIN); 3], [i64::from(i32::MAX); 3]),
            ] {
                let mut want: Vec<(Loc, Vec<ThingId>)> = o
                    .iter()
                    .filter(|(l, _)| {
                        let p = [i64::from(l.x), i64::from(l.y), i64::from(l.z)];
                        (0..3).all(|a| min[a] <= p[a] && p[a] <= max[a])
                    })
                    .map(|(l, v)| (*l, v.clone()))
                    .collect();
                want.sort_by_key(|(l, _)| (l.z, l.y, l.x));
                let got: Vec<(Loc, Vec<ThingId>)> = c
                    .in_range(min, max)
                    .into_iter()
                    .map(|(l, v)| (l, v.to_vec()))
                    .collect();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn many_levels_match_a_map_and_stay_independent() {
        let mut c = CellIndex::new();
        let mut o: BTreeMap<Loc, Vec<ThingId>> = BTreeMap::new();
        let mut x: u64 = 7;
        let mut snapshots = Vec::new();
        // Level 0 holds a small 80 × 21 map; its tree height must not change when the other
        // levels fill up, spread far and empty again.
        c.push(Loc::new(0, 0, 0), ThingId(u64::MAX));
        c.push(Loc::new(79, 20, 0), ThingId(u64::MAX - 1));
        let h0 = c.level_height(0);
        for step in 0..6000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let z = 1 + (x % 40) as i32 - 20 * i32::from(x.is_multiple_of(5));
            let z = if z == 0 { 41 } else { z };
            let loc = if step.is_multiple_of(61) {
                Loc::new((x >> 8) as i32, (x >> 40) as i32, z)
            } else {
                Loc::new(((x >> 8) % 90) as i32 - 5, ((x >> 20) % 30) as i32 - 5, z)
            };
            let list = o.entry(loc).or_default();
            // Remove more than add in the second half, so levels empty and are dropped.
            let removing = if step < 3000 {
                x.is_multiple_of(3)
            } else {
                !x.is_multiple_of(4)
            };
            if removing && !list.is_empty() {
                let id = list[(x >> 30) as usize % list.len()];
                list.retain(|&i| i != id);
                c.remove(loc, id);
            } else if !removing {
                list.push(ThingId(step));
                c.push(loc, ThingId(step));
            }
            if list.is_empty() {
                o.remove(&loc);
            }
            c.check_invariants().unwrap();
            assert_eq!(
                c.level_height(0),
                h0,
                "level 0's tree depends on other levels"
            );
            assert_eq!(c.get(Loc::new(79, 20, 0)), &[ThingId(u64::MAX - 1)]);
            if step.is_multiple_of(400) {
                snapshots.push((c.clone(), o.clone()));
            }
        }
        let levels: std::collections::BTreeSet<i32> = o.keys().map(|l| l.z).collect();
        for z in -20..=41 {
            if z != 0 {
                assert_eq!(c.level_height(z) > 0, levels.contains(&z), "level {z}");
            }
        }
        for (c, o) in snapshots
            .iter()
            .chain(std::iter::once(&(c.clone(), o.clone())))
        {
            let got: Vec<(Loc, Vec<ThingId>)> = c
                .iter()
                .filter(|(l, _)| l.z != 0)
                .map(|(l, v)| (l, v.to_vec()))
                .collect();
            let mut want: Vec<(Loc, Vec<ThingId>)> =
                o.iter().map(|(l, v)| (*l, v.clone())).collect();
            want.sort_by_key(|(l, _)| (l.z, l.y >> 4, l.x >> 4, l.y, l.x));
            assert_eq!(got, want);
            for z in [-19, 3, 41] {
                let on: Vec<(Loc, Vec<ThingId>)> = c
                    .in_range(
                        [i64::from(i32::MIN), i64::from(i32::MIN), i64::from(z)],
                        [i64::from(i32::MAX), i64::from(i32::MAX), i64::from(z)],
                    )
                    .into_iter()
                    .map(|(l, v)| (l, v.to_vec()))
                    .collect();
                let mut want: Vec<(Loc, Vec<ThingId>)> = o
                    .iter()
                    .filter(|(l, _)| l.z == z)
                    .map(|(l, v)| (*l, v.clone()))
                    .collect();
                want.sort_by_key(|(l, _)| (l.y, l.x));
                assert_eq!(on, want);
            }
        }
    }
}
