//! `CellIndex`: which things stand on which map cell, as a compact persistent sparse map.
//!
//! # Design
//! The map is cut into chunks of 16 × 16 cells on one level, like [`Grid`](crate::grid::Grid), and
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
use crate::octree::{CHUNK_BITS, SIDE, Tree, cell_index, chunk_of, corner};
use crate::thing::{IdList, ThingId};

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

/// The things on each map cell, as a persistent sparse map from cell to an ordered list of
/// ids. Clone Θ(1); [`get`](CellIndex::get) Θ(h) with no allocation; [`push`](CellIndex::push)
/// and [`remove`](CellIndex::remove) copy one chunk's occupied cells and h small nodes
/// (h ≈ log₂ of the world's extent in chunks).
#[derive(Clone, Debug, Default)]
pub(crate) struct CellIndex {
    tree: Tree<Leaf>,
}

impl CellIndex {
    pub(crate) fn new() -> Self {
        CellIndex::default()
    }

    #[inline]
    fn find_leaf(&self, chunk: [i64; 3]) -> Option<&Leaf> {
        self.tree.find(chunk)
    }

    /// The ids at `loc`, in arrival order.
    #[inline]
    pub(crate) fn get(&self, loc: Loc) -> &[ThingId] {
        match self.find_leaf(chunk_of(loc)) {
            Some(l) => l.get(cell_index(loc)),
            None => &[],
        }
    }

    /// The leaf slot for `chunk`, its path made unique (nodes created as needed).
    fn leaf_slot(&mut self, chunk: [i64; 3]) -> &mut Option<Arc<Leaf>> {
        self.tree.slot_mut(chunk)
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
        let mut out: Vec<(Loc, &Leaf)> = self
            .tree
            .chunks()
            .into_iter()
            .map(|(at, l)| (corner(at), &**l))
            .collect();
        out.sort_unstable_by_key(|(l, _)| (l.z, l.y, l.x));
        out
    }

    /// Every occupied cell within `min..=max` (cell coordinates, inclusive) with its ids, in
    /// (z, y, x) order. Θ(chunks and nodes overlapping the box · h + occupied cells found).
    pub(crate) fn in_range(&self, min: [i64; 3], max: [i64; 3]) -> Vec<(Loc, &[ThingId])> {
        let cmin = [min[0] >> CHUNK_BITS, min[1] >> CHUNK_BITS, min[2]];
        let cmax = [max[0] >> CHUNK_BITS, max[1] >> CHUNK_BITS, max[2]];
        let mut out = Vec::new();
        for (at, leaf) in self.tree.chunks_in(cmin, cmax) {
            let cx = at[0] << CHUNK_BITS;
            let cy = at[1] << CHUNK_BITS;
            for (c, ids) in leaf.iter() {
                let x = cx + (c % SIDE as usize) as i64;
                let y = cy + (c / SIDE as usize) as i64;
                if (min[0]..=max[0]).contains(&x) && (min[1]..=max[1]).contains(&y) {
                    // Occupied cells always come from i32 locations.
                    out.push((Loc::new(x as i32, y as i32, at[2] as i32), ids));
                }
            }
        }
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
        self.tree.ptr_eq(&other.tree)
    }

    /// Verify the tree's structure and every chunk's bookkeeping.
    pub(crate) fn check_invariants(&self) -> Result<(), &'static str> {
        self.tree.check(Leaf::check)
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
}
