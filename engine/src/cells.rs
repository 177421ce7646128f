//! `CellIndex`: which things stand on which map cell, as a compact persistent sparse map.
//!
//! # Design
//! The map is cut into chunks of 16 × 16 cells on one level, like [`Grid`](crate::Grid), and
//! the chunks hang off the same kind of sparse octree with a movable root. Unlike a grid, a
//! chunk stores only its occupied cells: a 256-bit occupancy mask, the end of each occupied
//! cell's run of ids, and the ids themselves, cell after cell, each cell's ids in arrival
//! order. A chunk holding `k` things on `c` cells takes `≈ 96 + 4c + 8k` bytes, so moving a
//! thing copies a ~150-byte chunk and a few 80-byte nodes instead of a 6 KB grid chunk of
//! id lists. Chunks left empty are dropped, so the index stays canonical.
//!
//! Reads are a few pointer hops, one bit test (most cells are empty) and a popcount.

use std::sync::Arc;

use crate::grid::Grid;
use crate::loc::Loc;
use crate::thing::{IdList, ThingId};

const CHUNK_BITS: u32 = 4;
const SIDE: i32 = 1 << CHUNK_BITS;
const MASK: i32 = SIDE - 1;
/// Largest tree height (see the same bound in `grid.rs`).
const MAX_HEIGHT: u32 = 40;

/// The occupied cells of one 16 × 16 chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Leaf {
    /// Bit `i` set: cell `i` (row-major in the chunk) holds at least one thing.
    occupied: [u64; 4],
    /// Occupied cells in the words of `occupied` before each word (a rank in one popcount).
    before: [u16; 4],
    /// For the `r`-th occupied cell (in cell order), the end of its ids in `ids`; its ids
    /// start where the previous cell's end (or at 0).
    ends: Box<[u32]>,
    /// Every id in the chunk, grouped by cell in cell order, each cell in arrival order.
    ids: Box<[ThingId]>,
}

impl Leaf {
    #[inline(always)]
    fn has(&self, cell: usize) -> bool {
        self.occupied[cell >> 6] & (1 << (cell & 63)) != 0
    }

    /// A chunk from its parts, with the per-word counts filled in.
    fn from_parts(occupied: [u64; 4], ends: Vec<u32>, ids: Vec<ThingId>) -> Leaf {
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
        let start = if r == 0 { 0 } else { self.ends[r - 1] as usize };
        (start, self.ends[r] as usize)
    }

    #[inline]
    fn get(&self, cell: usize) -> &[ThingId] {
        if !self.has(cell) {
            return &[];
        }
        let r = self.rank(cell);
        if self.ids.len() == self.ends.len() {
            // One thing per occupied cell (the common case): no need to read the runs.
            return self.ids.get(r..=r).unwrap_or(&[]);
        }
        let (s, e) = self.run(r);
        self.ids.get(s..e).unwrap_or(&[])
    }

    /// This chunk with `id` appended to `cell`'s list.
    fn with_pushed(&self, cell: usize, id: ThingId) -> Leaf {
        let r = self.rank(cell);
        let mut occupied = self.occupied;
        let mut ends: Vec<u32>;
        let at;
        if self.has(cell) {
            at = self.ends[r] as usize;
            ends = self.ends.to_vec();
        } else {
            at = if r == 0 { 0 } else { self.ends[r - 1] as usize };
            occupied[cell >> 6] |= 1 << (cell & 63);
            ends = Vec::with_capacity(self.ends.len() + 1);
            ends.extend_from_slice(&self.ends[..r]);
            ends.push(at as u32);
            ends.extend_from_slice(&self.ends[r..]);
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
        let mut ends: Vec<u32> = Vec::with_capacity(self.ends.len());
        ends.extend_from_slice(&self.ends[..r]);
        if e - s > 1 {
            ends.push(self.ends[r] - 1);
        } else {
            occupied[cell >> 6] &= !(1 << (cell & 63));
        }
        ends.extend(self.ends[r + 1..].iter().map(|e| e - 1));
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
        if n as usize != self.ends.len() {
            return Err("cell index chunk: occupancy and runs disagree");
        }
        if self.is_empty() {
            return Err("cell index chunk is empty");
        }
        let mut prev = 0u32;
        for &e in self.ends.iter() {
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

#[derive(Clone, Debug)]
enum Node {
    /// Children are nodes one level down.
    Inner([Option<Arc<Node>>; 8]),
    /// Level 0: children are chunks.
    Bottom([Option<Arc<Leaf>>; 8]),
}

#[inline(always)]
fn chunk_of(loc: Loc) -> [i64; 3] {
    [
        i64::from(loc.x >> CHUNK_BITS),
        i64::from(loc.y >> CHUNK_BITS),
        i64::from(loc.z),
    ]
}

#[inline(always)]
fn cell_index(loc: Loc) -> usize {
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

/// The things on each map cell, as a persistent sparse map from cell to an ordered list of
/// ids. Clone Θ(1); [`get`](CellIndex::get) Θ(h) with no allocation; [`push`](CellIndex::push)
/// and [`remove`](CellIndex::remove) copy one chunk's occupied cells and h small nodes
/// (h ≈ log₂ of the world's extent in chunks).
#[derive(Clone, Debug, Default)]
pub(crate) struct CellIndex {
    root: Option<Arc<Node>>,
    /// Chunk coordinates of the root's corner.
    origin: [i64; 3],
    /// Levels of nodes; the root covers 2^height chunks along each axis.
    height: u32,
}

impl CellIndex {
    pub(crate) fn new() -> Self {
        CellIndex::default()
    }

    #[inline(always)]
    fn rel(&self, chunk: [i64; 3]) -> Option<[u64; 3]> {
        let span = 1i64 << self.height;
        let rx = chunk[0] - self.origin[0];
        let ry = chunk[1] - self.origin[1];
        let rz = chunk[2] - self.origin[2];
        if (rx | ry | rz) < 0 || rx >= span || ry >= span || rz >= span {
            return None;
        }
        Some([rx as u64, ry as u64, rz as u64])
    }

    #[inline]
    fn find_leaf(&self, chunk: [i64; 3]) -> Option<&Leaf> {
        let mut node = self.root.as_deref()?;
        let rel = self.rel(chunk)?;
        let mut level = self.height - 1;
        loop {
            match node {
                Node::Inner(kids) => {
                    node = kids[slot(rel, level)].as_deref()?;
                    level = level.wrapping_sub(1);
                }
                Node::Bottom(leaves) => return leaves[slot(rel, level)].as_deref(),
            }
        }
    }

    /// The ids at `loc`, in arrival order.
    #[inline]
    pub(crate) fn get(&self, loc: Loc) -> &[ThingId] {
        match self.find_leaf(chunk_of(loc)) {
            Some(l) => l.get(cell_index(loc)),
            None => &[],
        }
    }

    /// Grow the root until it covers `chunk`.
    fn cover(&mut self, chunk: [i64; 3]) {
        if self.root.is_none() {
            self.origin = chunk;
            self.height = 1;
            self.root = Some(Arc::new(Node::Bottom(Default::default())));
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
            let mut kids: [Option<Arc<Node>>; 8] = Default::default();
            kids[s] = self.root.take();
            self.root = Some(Arc::new(Node::Inner(kids)));
            self.height += 1;
        }
    }

    /// The leaf slot for `chunk`, its path made unique (nodes created as needed).
    fn leaf_slot(&mut self, chunk: [i64; 3]) -> &mut Option<Arc<Leaf>> {
        self.cover(chunk);
        // `cover` guarantees coverage (see MAX_HEIGHT).
        let rel = self.rel(chunk).unwrap_or([0; 3]);
        debug_assert!(
            self.rel(chunk).is_some(),
            "cell index does not cover {chunk:?}"
        );
        let mut level = self.height - 1;
        let mut node = Arc::make_mut(self.root.get_or_insert_with(|| {
            Arc::new(if level == 0 {
                Node::Bottom(Default::default())
            } else {
                Node::Inner(Default::default())
            })
        }));
        loop {
            let s = slot(rel, level);
            match node {
                Node::Inner(kids) => {
                    let child = kids[s].get_or_insert_with(|| {
                        Arc::new(if level == 1 {
                            Node::Bottom(Default::default())
                        } else {
                            Node::Inner(Default::default())
                        })
                    });
                    node = Arc::make_mut(child);
                    level -= 1;
                }
                Node::Bottom(leaves) => return &mut leaves[s],
            }
        }
    }

    /// Append `id` to the list at `loc`.
    pub(crate) fn push(&mut self, loc: Loc, id: ThingId) {
        let cell = cell_index(loc);
        let slot = self.leaf_slot(chunk_of(loc));
        let leaf = match slot {
            Some(l) => l.with_pushed(cell, id),
            None => Leaf::default().with_pushed(cell, id),
        };
        *slot = Some(Arc::new(leaf));
    }

    /// Remove `id` from the list at `loc` (nothing happens when it isn't there).
    pub(crate) fn remove(&mut self, loc: Loc, id: ThingId) {
        if !self.get(loc).contains(&id) {
            return;
        }
        let cell = cell_index(loc);
        let slot = self.leaf_slot(chunk_of(loc));
        if let Some(leaf) = slot.as_deref().and_then(|l| l.with_removed(cell, id)) {
            *slot = if leaf.is_empty() {
                None
            } else {
                Some(Arc::new(leaf))
            };
        }
    }

    /// Every non-empty chunk as (its corner, the chunk), in canonical order (z, then y, then
    /// x): the order in which a `Grid` lists its chunks.
    fn leaves_sorted(&self) -> Vec<(Loc, &Leaf)> {
        fn collect<'a>(
            node: &'a Node,
            level: u32,
            rel: [u64; 3],
            origin: [i64; 3],
            out: &mut Vec<(Loc, &'a Leaf)>,
        ) {
            match node {
                Node::Inner(kids) => {
                    for (s, k) in kids.iter().enumerate() {
                        if let Some(k) = k {
                            collect(k, level - 1, child_rel(rel, s, level), origin, out);
                        }
                    }
                }
                Node::Bottom(leaves) => {
                    for (s, l) in leaves.iter().enumerate() {
                        if let Some(l) = l {
                            let r = child_rel(rel, s, level);
                            // Chunk coordinates of written cells always come from i32
                            // locations.
                            let corner = Loc::new(
                                ((origin[0] + r[0] as i64) << CHUNK_BITS) as i32,
                                ((origin[1] + r[1] as i64) << CHUNK_BITS) as i32,
                                (origin[2] + r[2] as i64) as i32,
                            );
                            out.push((corner, &**l));
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        if let Some(root) = &self.root {
            collect(root, self.height - 1, [0; 3], self.origin, &mut out);
        }
        out.sort_unstable_by_key(|(l, _)| (l.z, l.y, l.x));
        out
    }

    /// Every occupied cell within `min..=max` (cell coordinates, inclusive) with its ids, in
    /// (z, y, x) order. Θ(chunks and nodes overlapping the box · h + occupied cells found).
    pub(crate) fn in_range(&self, min: [i64; 3], max: [i64; 3]) -> Vec<(Loc, &[ThingId])> {
        let mut out = Vec::new();
        let Some(root) = &self.root else {
            return out;
        };
        let cmin = [min[0] >> CHUNK_BITS, min[1] >> CHUNK_BITS, min[2]];
        let cmax = [max[0] >> CHUNK_BITS, max[1] >> CHUNK_BITS, max[2]];
        let q = Query {
            min,
            max,
            cmin,
            cmax,
            origin: self.origin,
        };
        q.walk(root, self.height - 1, [0; 3], &mut out);
        out.sort_unstable_by_key(|(l, _)| (l.z, l.y, l.x));
        out
    }

    /// Every occupied cell with its ids, in canonical order (z, chunk row, chunk column,
    /// then row-major within the chunk): the order of `Grid::iter_set`.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Loc, &[ThingId])> + '_ {
        self.leaves_sorted().into_iter().flat_map(|(corner, leaf)| {
            leaf.iter().map(move |(c, ids)| {
                let dx = (c % SIDE as usize) as i32;
                let dy = (c / SIDE as usize) as i32;
                (Loc::new(corner.x + dx, corner.y + dy, corner.z), ids)
            })
        })
    }

    /// Whether two indexes share all their storage. Θ(1).
    fn ptr_eq(&self, other: &Self) -> bool {
        match (&self.root, &other.root) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) && self.origin == other.origin,
            (None, None) => true,
            _ => false,
        }
    }

    /// Verify the tree's structure and every chunk's bookkeeping.
    pub(crate) fn check_invariants(&self) -> Result<(), &'static str> {
        fn walk(n: &Node, level: u32) -> Result<(), &'static str> {
            match (n, level) {
                (Node::Bottom(leaves), 0) => {
                    for l in leaves.iter().flatten() {
                        l.check()?;
                    }
                    Ok(())
                }
                (Node::Inner(kids), l) if l > 0 => {
                    for k in kids.iter().flatten() {
                        walk(k, l - 1)?;
                    }
                    Ok(())
                }
                _ => Err("cell index node at the wrong level"),
            }
        }
        match &self.root {
            None => Ok(()),
            Some(r) if (1..=MAX_HEIGHT).contains(&self.height) => walk(r, self.height - 1),
            Some(_) => Err("cell index height out of range"),
        }
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

/// A box query over the octree: cell bounds and chunk bounds, inclusive.
struct Query {
    min: [i64; 3],
    max: [i64; 3],
    cmin: [i64; 3],
    cmax: [i64; 3],
    origin: [i64; 3],
}

impl Query {
    /// Whether the chunks `rel .. rel + size` (per axis) overlap the box's chunks.
    fn overlaps(&self, rel: [u64; 3], size: i64) -> bool {
        (0..3).all(|a| {
            let lo = self.origin[a] + rel[a] as i64;
            lo <= self.cmax[a] && lo + size > self.cmin[a]
        })
    }

    fn walk<'a>(
        &self,
        node: &'a Node,
        level: u32,
        rel: [u64; 3],
        out: &mut Vec<(Loc, &'a [ThingId])>,
    ) {
        match node {
            Node::Inner(kids) => {
                for (s, k) in kids.iter().enumerate() {
                    if let Some(k) = k {
                        let r = child_rel(rel, s, level);
                        if self.overlaps(r, 1i64 << level) {
                            self.walk(k, level - 1, r, out);
                        }
                    }
                }
            }
            Node::Bottom(leaves) => {
                for (s, l) in leaves.iter().enumerate() {
                    let Some(l) = l else { continue };
                    let r = child_rel(rel, s, level);
                    if !self.overlaps(r, 1) {
                        continue;
                    }
                    let cx = (self.origin[0] + r[0] as i64) << CHUNK_BITS;
                    let cy = (self.origin[1] + r[1] as i64) << CHUNK_BITS;
                    let z = self.origin[2] + r[2] as i64;
                    for (c, ids) in l.iter() {
                        let x = cx + (c % SIDE as usize) as i64;
                        let y = cy + (c / SIDE as usize) as i64;
                        if (self.min[0]..=self.max[0]).contains(&x)
                            && (self.min[1]..=self.max[1]).contains(&y)
                        {
                            // Occupied cells always come from i32 locations.
                            out.push((Loc::new(x as i32, y as i32, z as i32), ids));
                        }
                    }
                }
            }
        }
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
}
