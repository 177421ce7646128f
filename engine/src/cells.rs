//! `CellIndex`: which things stand on which map cell, as a compact persistent sparse map.
//!
//! # Design
//! The index is a short sorted list of levels (z). Each level keeps its chunks of 16 × 16
//! cells in a two-level array over the level's box of chunks: an array of rows, one slot per
//! chunk row of the box, each slot holding nothing (no chunk of that row holds things) or a
//! row, an array of chunk pointers one slot per chunk column of the box, each slot holding
//! nothing (an empty chunk) or the chunk. A read is therefore the level lookup (one probe
//! when the levels are consecutive, else a binary search), one unsigned comparison per axis,
//! the row pointer, the chunk pointer, one bit test of the chunk's occupancy mask and one
//! table lookup for the cell's rank: no tree walk, no branch on whether the cell is occupied,
//! and the same few steps however large the level is.
//!
//! The rows are the second level of the array so that a persistent write stays small: a
//! level's flat array of `w × h` chunk pointers would be copied whole by every move (625
//! pointers, 5 KB, on a 400 × 400 level); with rows a move copies the chunk, the row array
//! (`h` pointers after a count, the level's sparse store and the length) and one row (`w`
//! pointers after a count and the length): `8 (w + h) + 40` bytes, 440 B on that level,
//! against the 2 × 2 tree's five 48-byte nodes (240 B) before. Rows and row arrays are thin
//! pointers (`triomphe::ThinArc`, the length in the allocation), so a slot of the row array
//! is 8 bytes, and a level in the list of levels (which a move copies too) 24: its z, its
//! box's first chunk and width, and the row array.
//!
//! A chunk stores only its occupied cells: a 256-bit occupancy mask, the number of occupied
//! cells before each of its 32 bytes (so a rank is one lookup in a 256-entry table of bit
//! counts: the default x86-64 target has no popcount instruction), the end of each occupied
//! cell's run of ids (none when every occupied cell holds one thing), and the ids themselves,
//! cell after cell, each cell's ids in arrival order. A chunk holding `k` things on `c` cells
//! takes `≈ 104 + 8k` bytes, plus `4c` when a cell holds more than one. Row arrays, rows and
//! chunks are `triomphe` `Arc`s (one 8-byte count, no weak count).
//!
//! A level's box grows to take a chunk written outside it as long as the grown box stays
//! dense enough (at most four slots per chunk, plus 64 slots, as the terrain grid's levels);
//! a chunk that would make it sparser (a thing far from the others) goes to the level's
//! sparse store instead, a persistent ordered map from chunk coordinates to chunks (`imbl`),
//! read only when a lookup falls outside the box and the store is not empty. Every chunk is
//! in exactly one place: when a box grows, the sparse chunks inside the new box move into it.
//! Chunks, rows and levels left empty are dropped, and equality compares contents, so two
//! indexes holding the same things at the same cells are equal whatever their boxes.

use std::cell::Cell;

use triomphe::Arc as NodeArc;

use crate::grid::{Grid, view_key};
use crate::loc::Loc;
use crate::thing::{IdList, ThingId};

/// log₂ of a chunk's side in cells.
const CHUNK_BITS: u32 = 4;
/// Side of a chunk in cells.
const SIDE: i32 = 1 << CHUNK_BITS;
/// Cell coordinate within a chunk.
const MASK: i32 = SIDE - 1;

/// A level's box may cover at most this many slots per chunk it holds, plus
/// [`LEVEL_SLACK`] slots; a chunk that would make it sparser goes to the sparse store.
const LEVEL_FILL: u64 = 4;
/// See [`LEVEL_FILL`].
const LEVEL_SLACK: u64 = 64;

/// Chunk coordinates (x / 16, y / 16) of a location, floored.
#[inline(always)]
fn chunk_of(loc: Loc) -> [i32; 2] {
    [loc.x >> CHUNK_BITS, loc.y >> CHUNK_BITS]
}

/// Index of `loc`'s cell within its chunk (row-major).
#[inline(always)]
fn cell_index(loc: Loc) -> usize {
    ((loc.y & MASK) * SIDE + (loc.x & MASK)) as usize
}

/// `a` made the sole owner of its slice (copied when shared), for writing.
fn unique<T: Clone>(a: &mut NodeArc<[T]>) -> Option<&mut [T]> {
    if !a.is_unique() {
        *a = NodeArc::from(a.to_vec());
    }
    NodeArc::get_mut(a)
}

/// The number of set bits of each byte value. The default x86-64 target has no popcount
/// instruction: a software popcount of a 64-bit word was the longest chain of a read, where
/// one lookup in this table (in L1 on any hot path) ranks a cell within its byte.
static POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// Sets (`on`) or clears `cell`'s occupancy bit, and moves the counts of occupied cells
/// before each later byte by one to match. The bit must change: `cell` is empty when `on`
/// and occupied when not.
#[inline(always)]
fn mark(occupied: &mut [u8; 32], before: &mut [u8; 32], cell: usize, on: bool) {
    let bit = 1 << (cell & 7);
    debug_assert_eq!(occupied[cell >> 3] & bit == 0, on);
    occupied[cell >> 3] ^= bit;
    for count in &mut before[(cell >> 3) + 1..] {
        *count = if on { *count + 1 } else { *count - 1 };
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Leaf {
    /// Bit `i % 8` of byte `i / 8` set: cell `i` (row-major in the chunk) holds at least one
    /// thing.
    occupied: [u8; 32],
    /// Occupied cells in the bytes of `occupied` before each byte (at most 248), so a rank is
    /// one table lookup.
    before: [u8; 32],
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
        // The cell's row of 16 bits, little-endian, in one load: bit `x` is cell `x` of the
        // row. Fewer instructions than a byte and a bit of it, on the read of every empty
        // cell (most reads).
        let (rows, _) = self.occupied.as_chunks::<2>();
        let bits = u16::from_le_bytes(rows[(cell >> 4) & 15]);
        (bits >> (cell & 15)) & 1 != 0
    }

    /// A chunk from its parts, with the per-word counts filled in (and the run ends dropped
    /// when every cell holds one thing, so equal contents give equal chunks).
    fn from_parts(occupied: [u8; 32], mut ends: Vec<u32>, ids: Vec<ThingId>) -> Leaf {
        if ends.len() == ids.len() {
            ends = Vec::new();
        }
        let mut before = [0u8; 32];
        for b in 1..32 {
            before[b] = before[b - 1] + POP8[usize::from(occupied[b - 1])];
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
        let byte = cell >> 3;
        let below = self.occupied[byte] & ((1u8 << (cell & 7)) - 1);
        usize::from(self.before[byte]) + usize::from(POP8[usize::from(below)])
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

    /// The ids of `cell`. An empty cell (most cells) is answered by its occupancy bit
    /// alone; an occupied one reads its run at its rank.
    #[inline(always)]
    fn get(&self, cell: usize) -> &[ThingId] {
        if !self.has(cell) {
            return &[];
        }
        let bit = 1usize;
        let r = self.rank(cell);
        let (s, e) = if self.ends.is_empty() {
            // One thing per occupied cell (the common case): no runs to read.
            (r, r + bit)
        } else {
            // `r - 1` wraps to a missing index at the chunk's first occupied cell.
            let s = self.ends.get(r.wrapping_sub(1)).map_or(0, |&e| e as usize);
            let e = self.ends.get(r).map_or(s, |&e| e as usize);
            (s, s + (e.wrapping_sub(s) & bit.wrapping_neg()))
        };
        self.ids.get(s..e).unwrap_or(&[])
    }

    /// This chunk with `id` appended to `cell`'s list.
    fn with_pushed(&self, cell: usize, id: ThingId) -> Leaf {
        let r = self.rank(cell);
        if self.ends.is_empty() && !self.has(cell) {
            // One thing per occupied cell before and after (the common case): the id goes
            // in at the cell's rank, and there are no run ends to write.
            let (mut occupied, mut before) = (self.occupied, self.before);
            mark(&mut occupied, &mut before, cell, true);
            let mut ids = Vec::with_capacity(self.ids.len() + 1);
            ids.extend_from_slice(&self.ids[..r]);
            ids.push(id);
            ids.extend_from_slice(&self.ids[r..]);
            return Leaf {
                occupied,
                before,
                ends: Box::default(),
                ids: ids.into(),
            };
        }
        let mut occupied = self.occupied;
        let old = self.full_ends();
        let mut ends: Vec<u32>;
        let at;
        if self.has(cell) {
            at = old[r] as usize;
            ends = old;
        } else {
            at = if r == 0 { 0 } else { old[r - 1] as usize };
            occupied[cell >> 3] |= 1 << (cell & 7);
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
        if self.ends.is_empty() {
            // One thing per occupied cell (the common case): the cell empties, and there are
            // still no run ends to write.
            let mut before = self.before;
            mark(&mut occupied, &mut before, cell, false);
            let mut ids = Vec::with_capacity(self.ids.len() - 1);
            ids.extend_from_slice(&self.ids[..at]);
            ids.extend_from_slice(&self.ids[at + 1..]);
            return Some(Leaf {
                occupied,
                before,
                ends: Box::default(),
                ids: ids.into(),
            });
        }
        let old = self.full_ends();
        let mut ends: Vec<u32> = Vec::with_capacity(old.len());
        ends.extend_from_slice(&old[..r]);
        if e - s > 1 {
            ends.push(old[r] - 1);
        } else {
            occupied[cell >> 3] &= !(1 << (cell & 7));
        }
        ends.extend(old[r + 1..].iter().map(|e| e - 1));
        let mut ids = Vec::with_capacity(self.ids.len() - 1);
        ids.extend_from_slice(&self.ids[..at]);
        ids.extend_from_slice(&self.ids[at + 1..]);
        Some(Leaf::from_parts(occupied, ends, ids))
    }

    /// This chunk with `id` moved from `from`'s list to the end of `to`'s: exactly
    /// [`with_removed`](Leaf::with_removed) then [`with_pushed`](Leaf::with_pushed), and
    /// `None` when `id` is not at `from`. A step between two cells that hold one thing each
    /// before and after (the common case) builds one chunk, not two.
    fn with_moved(&self, from: usize, to: usize, id: ThingId) -> Option<Leaf> {
        if !(self.ends.is_empty() && self.has(from) && !self.has(to) && from != to) {
            return self.with_removed(from, id).map(|l| l.with_pushed(to, id));
        }
        let a = self.rank(from);
        if self.ids.get(a) != Some(&id) {
            return None;
        }
        // Where the id goes among the others once it has left `from`.
        let b = self.rank(to) - usize::from(from < to);
        let (mut occupied, mut before) = (self.occupied, self.before);
        mark(&mut occupied, &mut before, from, false);
        mark(&mut occupied, &mut before, to, true);
        let mut ids = self.ids.clone();
        if a <= b {
            ids[a..=b].rotate_left(1);
        } else {
            ids[b..=a].rotate_right(1);
        }
        Some(Leaf {
            occupied,
            before,
            ends: Box::default(),
            ids,
        })
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
                Some(w * 8 + b)
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

/// One chunk row of a level's box: a slot per chunk column, `None` where no thing stands.
/// Behind a thin pointer (the length lives in the allocation), so that a slot of the row
/// array, which every write copies, is 8 bytes rather than 16.
type Row = triomphe::ThinArc<(), Option<NodeArc<Leaf>>>;

/// A row holding `slots`.
fn new_row(slots: Vec<Option<NodeArc<Leaf>>>) -> Row {
    Row::from_header_and_iter((), slots.into_iter())
}

/// A level's sparse store: chunk coordinates as `[y, x]` (so its order is the canonical
/// chunk-row-then-column order) to the chunks outside the level's box.
type Far = imbl::OrdMap<[i32; 2], NodeArc<Leaf>>;

/// A level's array of rows, one slot per chunk row of the box, top to bottom (`None` where
/// the row's chunks are all empty), after a header holding the level's sparse store, if any
/// (never an empty map). A thin pointer: the list of levels, which every move copies, keeps
/// 24 bytes a level, not 40 (the store would take a pointer and the slice's length
/// another word). A read in the box reads the length and the slot, both behind the pointer
/// it follows anyway; only a read outside the box reads the store.
type Rows = triomphe::ThinArc<Option<NodeArc<Far>>, Option<Row>>;

/// One level of the index: its z, its box of chunks as rows of chunk pointers, and the
/// chunks outside the box.
#[derive(Clone, Debug)]
struct Plane {
    z: i32,
    /// Chunks along x in the box (every row's length).
    width: u32,
    /// Chunk coordinates (x / 16, y / 16) of the box's first chunk.
    first: [i32; 2],
    /// The rows, and the chunks outside the box ([`Rows`]).
    rows: Rows,
}

/// [`Rows`], written: `header_mut` is the sparse store, `slice_mut` the slots.
type RowsMut = triomphe::HeaderSliceWithLengthProtected<Option<NodeArc<Far>>, Option<Row>>;

// The list of levels holds 24 bytes a level (see [`Rows`]).
const _: () = assert!(std::mem::size_of::<Plane>() == 24);

/// New rows over `slots` with the sparse store `far`.
fn new_rows(far: Option<NodeArc<Far>>, slots: Vec<Option<Row>>) -> Rows {
    Rows::from_header_and_iter(far, slots.into_iter())
}

/// Put `leaf` (or nothing) in slot `x` of row `y` of `rows` (rows `width` slots long),
/// copying that row when it is shared and dropping it when it is left empty. Returns whether
/// it was.
fn set_slot(
    rows: &mut [Option<Row>],
    y: usize,
    x: usize,
    width: usize,
    leaf: Option<NodeArc<Leaf>>,
) -> bool {
    let Some(row) = rows.get_mut(y) else {
        return false;
    };
    let Some(r) = row else {
        if leaf.is_some() {
            let mut v = vec![None; width];
            v[x] = leaf;
            *row = Some(new_row(v));
        }
        return false;
    };
    if Row::strong_count(r) != 1 {
        *r = Row::from_header_and_iter((), r.slice.iter().cloned());
    }
    // The row is unique now: `get_mut` succeeds.
    let emptied = r.with_arc_mut(|a| match NodeArc::get_mut(a) {
        Some(h) => {
            let slots = h.slice_mut();
            if let Some(s) = slots.get_mut(x) {
                *s = leaf;
            }
            slots.iter().all(Option::is_none)
        }
        None => false,
    });
    if emptied {
        *row = None;
    }
    emptied
}

impl Plane {
    /// A level at `z` holding `leaf` at chunk `c`, its box that one chunk.
    fn new(z: i32, c: [i32; 2], leaf: NodeArc<Leaf>) -> Plane {
        let row = new_row(vec![Some(leaf)]);
        Plane {
            z,
            width: 1,
            first: c,
            rows: new_rows(None, vec![Some(row)]),
        }
    }

    /// The rows of the box.
    #[inline(always)]
    fn rows(&self) -> &[Option<Row>] {
        &self.rows.slice
    }

    /// The chunks outside the box, if any.
    #[inline(always)]
    fn far(&self) -> Option<&NodeArc<Far>> {
        self.rows.header.header.as_ref()
    }

    /// The sparse store (the header) and the rows (the slots), made the sole owner of their
    /// allocation (copied when shared), handed to `f`. `None` never happens (the allocation
    /// is unique once copied).
    fn with_rows_mut<U>(&mut self, f: impl FnOnce(&mut RowsMut) -> U) -> Option<U> {
        if Rows::strong_count(&self.rows) != 1 {
            self.rows = Rows::from_header_and_iter(
                self.rows.header.header.clone(),
                self.rows.slice.iter().cloned(),
            );
        }
        self.rows.with_arc_mut(|a| NodeArc::get_mut(a).map(f))
    }

    /// The (row, column) slot of chunk `c`, when it lies in the box. One unsigned comparison
    /// per axis: a coordinate below the box wraps to a large number.
    #[inline(always)]
    fn slot(&self, c: [i32; 2]) -> Option<(usize, usize)> {
        let dx = c[0].wrapping_sub(self.first[0]) as u32;
        let dy = c[1].wrapping_sub(self.first[1]) as u32 as usize;
        (dx < self.width && dy < self.rows().len()).then_some((dy, dx as usize))
    }

    /// The chunk at chunk coordinates `c`, if it holds things.
    #[inline(always)]
    fn find(&self, c: [i32; 2]) -> Option<&Leaf> {
        // The row's own length is the x check (every row is `width` long): one comparison
        // an axis on the way to a chunk. Below the box a coordinate wraps to a large number.
        let dx = c[0].wrapping_sub(self.first[0]) as u32 as usize;
        let dy = c[1].wrapping_sub(self.first[1]) as u32 as usize;
        match self.rows().get(dy) {
            Some(Some(row)) => match row.slice.get(dx) {
                Some(slot) => slot.as_deref(),
                None => self.find_far(c),
            },
            // A row with no chunk holding things.
            Some(None) if dx < self.width as usize => None,
            _ => self.find_far(c),
        }
    }

    /// The ids at `loc` (on this level): [`Plane::find`] and the chunk's cell, with the
    /// lookup outside the box and its read in one call out of line. A read in the box then
    /// goes from the chunk to its bit test with the cell's coordinates still in registers:
    /// through `find`, the compiled loop reloaded them from the stack, where they were kept
    /// across the out-of-line call whose path it shared.
    #[inline(always)]
    fn ids_at(&self, loc: Loc) -> &[ThingId] {
        let c = chunk_of(loc);
        let dx = c[0].wrapping_sub(self.first[0]) as u32 as usize;
        let dy = c[1].wrapping_sub(self.first[1]) as u32 as usize;
        match self.rows().get(dy) {
            Some(Some(row)) => match row.slice.get(dx) {
                Some(Some(leaf)) => leaf.get(cell_index(loc)),
                Some(None) => &[],
                None => self.ids_far(loc),
            },
            Some(None) if dx < self.width as usize => &[],
            _ => self.ids_far(loc),
        }
    }

    /// [`Plane::ids_at`] outside the box.
    #[inline(never)]
    fn ids_far(&self, loc: Loc) -> &[ThingId] {
        self.find_far(chunk_of(loc))
            .map_or(&[], |l| l.get(cell_index(loc)))
    }

    /// A lookup outside the box: through the sparse store. Out of line, so that reads in the
    /// box keep a tight path.
    #[inline(never)]
    fn find_far(&self, c: [i32; 2]) -> Option<&Leaf> {
        self.far()?.get(&[c[1], c[0]]).map(|l| &**l)
    }

    /// The box as (first chunk, last chunk), inclusive.
    fn bounds(&self) -> ([i64; 2], [i64; 2]) {
        let lo = [i64::from(self.first[0]), i64::from(self.first[1])];
        (
            lo,
            [
                lo[0] + i64::from(self.width) - 1,
                lo[1] + self.rows().len() as i64 - 1,
            ],
        )
    }

    /// Whether the level holds no chunk. Θ(rows).
    fn is_empty(&self) -> bool {
        self.far().is_none() && self.rows().iter().all(Option::is_none)
    }

    /// Grow the box to cover chunk `c` (about to be written) when the grown box stays dense
    /// enough, moving the sparse chunks inside the new box into it. Returns whether the box
    /// covers `c`. Θ(slots of the new box + sparse chunks).
    fn grow(&mut self, c: [i32; 2]) -> bool {
        let (a, b) = self.bounds();
        let p = [i64::from(c[0]), i64::from(c[1])];
        let lo = [a[0].min(p[0]), a[1].min(p[1])];
        let hi = [b[0].max(p[0]), b[1].max(p[1])];
        let (w, h) = ((hi[0] - lo[0] + 1) as u64, (hi[1] - lo[1] + 1) as u64);
        let slots = w.saturating_mul(h);
        let far_len = self.far().map_or(0, |f| f.len()) as u64;
        let have: u64 = self
            .rows()
            .iter()
            .flatten()
            .map(|r| r.slice.iter().flatten().count() as u64)
            .sum::<u64>()
            + 1;
        // Even with every sparse chunk moving in, too sparse: no need to look for them.
        if slots > LEVEL_FILL * (have + far_len) + LEVEL_SLACK {
            return false;
        }
        let inside = |k: &[i32; 2]| {
            (lo[1]..=hi[1]).contains(&i64::from(k[0])) && (lo[0]..=hi[0]).contains(&i64::from(k[1]))
        };
        let moved: Vec<[i32; 2]> = self
            .far()
            .into_iter()
            .flat_map(|f| f.keys())
            .filter(|k| inside(k))
            .copied()
            .collect();
        if slots > LEVEL_FILL * (have + moved.len() as u64) + LEVEL_SLACK {
            return false;
        }
        let (w, h) = (w as usize, h as usize);
        let mut grid: Vec<Vec<Option<NodeArc<Leaf>>>> = vec![Vec::new(); h];
        let mut put = |cx: i64, cy: i64, leaf: NodeArc<Leaf>| {
            let row = &mut grid[(cy - lo[1]) as usize];
            if row.is_empty() {
                row.resize(w, None);
            }
            row[(cx - lo[0]) as usize] = Some(leaf);
        };
        for (y, row) in self.rows().iter().enumerate() {
            for (x, leaf) in row.iter().flat_map(|r| r.slice.iter().enumerate()) {
                if let Some(l) = leaf {
                    put(a[0] + x as i64, a[1] + y as i64, l.clone());
                }
            }
        }
        let mut far = self.far().cloned();
        if let Some(f) = far.as_mut() {
            let f = NodeArc::make_mut(f);
            for k in &moved {
                if let Some(l) = f.remove(k) {
                    put(i64::from(k[1]), i64::from(k[0]), l);
                }
            }
        }
        if far.as_ref().is_some_and(|f| f.is_empty()) {
            far = None;
        }
        let rows: Vec<Option<Row>> = grid
            .into_iter()
            .map(|r| (!r.is_empty()).then(|| new_row(r)))
            .collect();
        // Chunk coordinates of i32 cells, and the box's width (at most the slots, which the
        // policy bounds by the chunks), fit 32 bits.
        self.first = [lo[0] as i32, lo[1] as i32];
        self.width = w as u32;
        self.rows = new_rows(far, rows);
        true
    }

    /// Put `leaf` (or nothing) at chunk `c`, growing the box or using the sparse store, and
    /// dropping a row left empty. Returns whether the level is now empty.
    fn set(&mut self, c: [i32; 2], leaf: Option<NodeArc<Leaf>>) -> bool {
        if leaf.is_some() && self.slot(c).is_none() && !self.grow(c) {
            // Too far from the box: the sparse store.
            self.with_rows_mut(|r| {
                let far = NodeArc::make_mut(r.header_mut().get_or_insert_with(Default::default));
                if let Some(l) = leaf {
                    far.insert([c[1], c[0]], l);
                }
            });
            return false;
        }
        let Some((y, x)) = self.slot(c) else {
            // A removal outside the box: from the sparse store.
            if self.far().is_some() {
                self.with_rows_mut(|r| {
                    let far = r.header_mut();
                    if let Some(f) = far.as_mut() {
                        NodeArc::make_mut(f).remove(&[c[1], c[0]]);
                        if f.is_empty() {
                            *far = None;
                        }
                    }
                });
            }
            return self.is_empty();
        };
        let width = self.width as usize;
        let emptied = self.with_rows_mut(|r| set_slot(r.slice_mut(), y, x, width, leaf));
        emptied == Some(true) && self.is_empty()
    }

    /// Every chunk whose chunk coordinates lie within `cmin..=cmax`, as (its chunk
    /// coordinates, the chunk), in the canonical order (chunk row, then chunk column).
    /// Θ(rows and slots of the box overlapping the range + sparse chunks in its rows).
    fn chunks_in(&self, cmin: [i64; 2], cmax: [i64; 2]) -> Vec<([i64; 2], &Leaf)> {
        let mut out = Vec::new();
        let (a, b) = self.bounds();
        let (x0, x1) = (cmin[0].max(a[0]), cmax[0].min(b[0]));
        let (y0, y1) = (cmin[1].max(a[1]), cmax[1].min(b[1]));
        if x0 <= x1 && y0 <= y1 {
            let rows = (y0 - a[1]) as usize..=(y1 - a[1]) as usize;
            let cols = (x0 - a[0]) as usize..=(x1 - a[0]) as usize;
            for (y, row) in self
                .rows()
                .get(rows.clone())
                .into_iter()
                .flatten()
                .enumerate()
            {
                let Some(slots) = row.as_ref().and_then(|r| r.slice.get(cols.clone())) else {
                    continue;
                };
                for (x, leaf) in slots.iter().enumerate() {
                    if let Some(l) = leaf {
                        out.push(([x0 + x as i64, y0 + y as i64], &**l));
                    }
                }
            }
        }
        if let Some(far) = self.far() {
            let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            if cmin[0] <= cmax[0] && cmin[1] <= cmax[1] {
                let range = [clamp(cmin[1]), i32::MIN]..=[clamp(cmax[1]), i32::MAX];
                out.extend(
                    far.range(range)
                        .filter(|(k, _)| (cmin[0]..=cmax[0]).contains(&i64::from(k[1])))
                        .map(|(k, l)| ([i64::from(k[1]), i64::from(k[0])], &**l)),
                );
                out.sort_unstable_by_key(|(at, _)| (at[1], at[0]));
            }
        }
        out
    }

    /// Verify the box (rows as wide as the box, no empty row or chunk), the sparse store
    /// (not empty, only chunks outside the box) and every chunk.
    fn check(&self) -> Result<(), &'static str> {
        if self.width == 0 || self.rows().is_empty() {
            return Err("cell index: a level with an empty box");
        }
        for row in self.rows().iter().flatten() {
            if row.slice.len() != self.width as usize {
                return Err("cell index: a row as wide as the box");
            }
            if row.slice.iter().all(Option::is_none) {
                return Err("cell index: an empty row kept");
            }
            for leaf in row.slice.iter().flatten() {
                leaf.check()?;
            }
        }
        if let Some(far) = self.far() {
            if far.is_empty() {
                return Err("cell index: an empty sparse store kept");
            }
            for (k, leaf) in far.iter() {
                if self.slot([k[1], k[0]]).is_some() {
                    return Err("cell index: a sparse chunk inside the level's box");
                }
                leaf.check()?;
            }
        }
        if self.is_empty() {
            return Err("cell index: an empty level kept");
        }
        Ok(())
    }
}

/// The things on each map cell, as a persistent sparse map from cell to an ordered list of
/// ids. Clone Θ(1); [`get`](CellIndex::get) Θ(1) with no allocation for a cell of its level's
/// box (the level lookup, then a row pointer, a chunk pointer and a bit test), one ordered-map
/// search outside the box when the level has sparse chunks; [`push`](CellIndex::push) and
/// [`remove`](CellIndex::remove) copy the level list, one chunk's occupied cells, that level's
/// row array and one row (`w + h` pointers for a box of `w × h` chunks), or for a sparse
/// chunk the ordered map's path to it.
#[derive(Clone, Debug)]
pub(crate) struct CellIndex {
    /// The levels holding things, sorted by z.
    levels: NodeArc<[Plane]>,
}

/// A reader of a [`CellIndex`] that remembers the chunk of its last read (or that the
/// chunk holds no things), so a read in the same chunk again is one comparison, a bit test
/// and a rank.
pub(crate) struct Cursor<'a> {
    index: &'a CellIndex,
    /// The chunk key ([`view_key`]) of the last read (`None` before the first).
    key: Cell<Option<(u64, i32)>>,
    /// That chunk, when it holds things.
    leaf: Cell<Option<&'a Leaf>>,
}

impl<'a> Cursor<'a> {
    /// The ids at `loc`, in arrival order, as [`CellIndex::get`] gives them.
    #[inline]
    pub(crate) fn get(&self, loc: Loc) -> &'a [ThingId] {
        let key = view_key(loc);
        let leaf = if self.key.get() == Some(key) {
            self.leaf.get()
        } else {
            self.find(loc, key)
        };
        leaf.map_or(&[], |l| l.get(cell_index(loc)))
    }

    /// The chunk holding `loc`, remembered. Out of line, so that a loop of reads keeps its
    /// fast path tight.
    #[inline(never)]
    fn find(&self, loc: Loc, key: (u64, i32)) -> Option<&'a Leaf> {
        let index: &'a CellIndex = self.index;
        let leaf = index.level(loc.z).and_then(|p| p.find(chunk_of(loc)));
        self.key.set(Some(key));
        self.leaf.set(leaf);
        leaf
    }
}

impl Default for CellIndex {
    fn default() -> Self {
        CellIndex {
            levels: NodeArc::from(Vec::new()),
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
        let guess = z.wrapping_sub(first) as u32 as usize;
        if let Some(p) = levels.get(guess).filter(|p| p.z == z) {
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
        self.level(loc.z).map_or(&[], |p| p.ids_at(loc))
    }

    /// A reader for many reads near one another: it remembers the chunk of its last read.
    pub(crate) fn cursor(&self) -> Cursor<'_> {
        Cursor {
            index: self,
            key: Cell::new(None),
            leaf: Cell::new(None),
        }
    }

    /// Replace the chunk holding `loc` by `leaf` (or nothing), adding or dropping its level
    /// as needed.
    fn set_leaf(&mut self, loc: Loc, leaf: Option<Leaf>) {
        let chunk = chunk_of(loc);
        let leaf = leaf.filter(|l| !l.is_empty()).map(NodeArc::new);
        match self.levels.binary_search_by_key(&loc.z, |p| p.z) {
            Ok(i) => {
                let Some(levels) = unique(&mut self.levels) else {
                    return;
                };
                if levels.get_mut(i).is_some_and(|p| p.set(chunk, leaf)) {
                    let mut v = levels.to_vec();
                    v.remove(i);
                    self.levels = NodeArc::from(v);
                }
            }
            Err(i) => {
                let Some(leaf) = leaf else {
                    return;
                };
                let mut v = Vec::with_capacity(self.levels.len() + 1);
                v.extend_from_slice(&self.levels[..i]);
                v.push(Plane::new(loc.z, chunk, leaf));
                v.extend_from_slice(&self.levels[i..]);
                self.levels = NodeArc::from(v);
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

    /// Move `id` from the list at `from` to the end of the list at `to`: exactly [`remove`]
    /// then [`push`], with one write of the chunk when both cells are in the same chunk
    /// (most steps), rather than a write for each.
    ///
    /// [`remove`]: CellIndex::remove
    /// [`push`]: CellIndex::push
    pub(crate) fn relocate(&mut self, from: Loc, to: Loc, id: ThingId) {
        let moved = (from.z == to.z && chunk_of(from) == chunk_of(to))
            .then(|| {
                self.leaf_at(from)?
                    .with_moved(cell_index(from), cell_index(to), id)
            })
            .flatten();
        match moved {
            Some(leaf) => self.set_leaf(to, Some(leaf)),
            None => {
                // Another chunk (or `id` was not at `from`: then the removal does nothing).
                self.remove(from, id);
                self.push(to, id);
            }
        }
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
    /// inclusive) with its ids, appended to `out` in chunk order.
    fn plane_in_range<'a>(
        plane: &'a Plane,
        min: [i64; 2],
        max: [i64; 2],
        out: &mut Vec<(Loc, &'a [ThingId])>,
    ) {
        // The chunks come in (chunk row, chunk column) order: walking each chunk row cell
        // row by cell row, and each cell row's chunks left to right, lists the cells in
        // (y, x) order with no sort.
        let chunks = plane.chunks_in(
            [min[0] >> CHUNK_BITS, min[1] >> CHUNK_BITS],
            [max[0] >> CHUNK_BITS, max[1] >> CHUNK_BITS],
        );
        // At most one entry per id: one allocation.
        out.reserve(chunks.iter().map(|(_, l)| l.ids.len()).sum());
        let mut rest = &chunks[..];
        while let Some(((first, _), _)) = rest.split_first() {
            let n = rest.iter().take_while(|(at, _)| at[1] == first[1]).count();
            let (row, after) = rest.split_at(n);
            rest = after;
            let cy = first[1] << CHUNK_BITS;
            for dy in 0..SIDE as usize {
                let y = cy + dy as i64;
                if y < min[1] || y > max[1] {
                    continue;
                }
                for (at, leaf) in row {
                    let cx = at[0] << CHUNK_BITS;
                    let lo = leaf.occupied.get(2 * dy).copied().unwrap_or(0);
                    let hi = leaf.occupied.get(2 * dy + 1).copied().unwrap_or(0);
                    let mut bits = u32::from(lo) | (u32::from(hi) << 8);
                    while bits != 0 {
                        let dx = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let x = cx + dx as i64;
                        if (min[0]..=max[0]).contains(&x) {
                            // Occupied cells always come from i32 locations.
                            out.push((
                                Loc::new(x as i32, y as i32, plane.z),
                                leaf.get(dy * SIDE as usize + dx),
                            ));
                        }
                    }
                }
            }
        }
    }

    /// Every occupied cell within `min..=max` (cell coordinates, inclusive) with its ids, in
    /// (z, y, x) order. Θ(log levels + per level in the box: rows and slots overlapping the
    /// box, sparse chunks in its rows, 16 cell rows of each chunk found, occupied cells
    /// found).
    pub(crate) fn in_range(&self, min: [i64; 3], max: [i64; 3]) -> Vec<(Loc, &[ThingId])> {
        let levels = &*self.levels;
        let from = levels.partition_point(|p| i64::from(p.z) < min[2]);
        let mut out = Vec::new();
        for plane in levels[from..]
            .iter()
            .take_while(|p| i64::from(p.z) <= max[2])
        {
            CellIndex::plane_in_range(plane, [min[0], min[1]], [max[0], max[1]], &mut out);
        }
        debug_assert!(
            out.windows(2)
                .all(|w| (w[0].0.z, w[0].0.y, w[0].0.x) < (w[1].0.z, w[1].0.y, w[1].0.x)),
            "cells listed out of order"
        );
        out
    }

    /// The ids on level `z`, in canonical order (chunk row, chunk column, then row-major
    /// within the chunk, each cell in arrival order). Θ(log levels + the level's rows and
    /// slots + sparse chunks + ids).
    pub(crate) fn ids_on_level(&self, z: i32) -> Vec<ThingId> {
        let Some(plane) = self.level(z) else {
            return Vec::new();
        };
        let chunks = plane.chunks_in([i64::MIN; 2], [i64::MAX; 2]);
        let mut out = Vec::with_capacity(chunks.iter().map(|(_, l)| l.ids.len()).sum());
        for (_, leaf) in chunks {
            out.extend_from_slice(&leaf.ids);
        }
        out
    }

    /// Every occupied cell with its ids, in canonical order (z, chunk row, chunk column,
    /// then row-major within the chunk): the order of `Grid::iter_set`.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Loc, &[ThingId])> + '_ {
        self.levels.iter().flat_map(|plane| {
            let chunks = plane.chunks_in([i64::MIN; 2], [i64::MAX; 2]);
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
    pub(crate) fn ptr_eq(&self, other: &Self) -> bool {
        NodeArc::ptr_eq(&self.levels, &other.levels)
    }

    /// Verify the level list (sorted, no empty level) and every level's box, sparse store
    /// and chunks.
    pub(crate) fn check_invariants(&self) -> Result<(), &'static str> {
        if self.levels.windows(2).any(|w| w[0].z >= w[1].z) {
            return Err("cell index: levels out of order");
        }
        self.levels.iter().try_for_each(Plane::check)
    }

    /// Level `z`'s box as (first chunk, chunks along x, chunk rows), and its number of
    /// sparse chunks; `None` when the level holds nothing.
    #[cfg(test)]
    fn level_shape(&self, z: i32) -> Option<([i32; 2], u32, usize, usize)> {
        self.level(z).map(|p| {
            (
                p.first,
                p.width,
                p.rows().len(),
                p.far().map_or(0, |f| f.len()),
            )
        })
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
    /// Cell-by-cell equality, independent of the levels' boxes.
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other) || self.iter().eq(other.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// `relocate` leaves exactly what `remove` then `push` leave: chunk for chunk (the
    /// derived `Leaf` equality: occupancy, counts, run ends, ids), for steps within a chunk
    /// and across, onto and off crowded cells, and for an id that is not where it is said
    /// to be.
    #[test]
    fn relocate_is_remove_then_push() {
        let mut one = CellIndex::new();
        let mut two = CellIndex::new();
        let mut at: Vec<(ThingId, Loc)> = Vec::new();
        let mut x: u64 = 7;
        let mut same_chunk = 0;
        for step in 0..3000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let near = |v: u64| Loc::new((v % 24) as i32, ((v >> 8) % 24) as i32, 0);
            if at.len() < 60 || x.is_multiple_of(5) {
                let l = near(x);
                one.push(l, ThingId(step));
                two.push(l, ThingId(step));
                at.push((ThingId(step), l));
                continue;
            }
            let i = (x >> 12) as usize % at.len();
            let (id, here) = at[i];
            // Now and then a wrong `from`: both must do nothing but the push.
            let from = if x.is_multiple_of(41) {
                near(x >> 3)
            } else {
                here
            };
            let to = near(x >> 24);
            if from == here && chunk_of(from) == chunk_of(to) {
                same_chunk += 1;
            }
            one.relocate(from, to, id);
            two.remove(from, id);
            two.push(to, id);
            if from == here {
                at[i].1 = to;
            } else {
                at.push((id, to));
            }
            one.check_invariants().unwrap();
            let (a, b) = (one.level(0).unwrap(), two.level(0).unwrap());
            let chunks = |p: &Plane| -> Vec<([i64; 2], Leaf)> {
                p.chunks_in([i64::MIN; 2], [i64::MAX; 2])
                    .into_iter()
                    .map(|(c, l)| (c, l.clone()))
                    .collect()
            };
            assert_eq!(chunks(a), chunks(b), "step {step}");
        }
        assert!(same_chunk > 300, "{same_chunk} steps within a chunk");
    }

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
        // Level 0 holds a small 80 × 21 map; its box must not change when the other
        // levels fill up, spread far and empty again.
        c.push(Loc::new(0, 0, 0), ThingId(u64::MAX));
        c.push(Loc::new(79, 20, 0), ThingId(u64::MAX - 1));
        let shape0 = c.level_shape(0);
        assert_eq!(shape0, Some(([0, 0], 5, 2, 0)));
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
                c.level_shape(0),
                shape0,
                "level 0's box depends on other levels"
            );
            assert_eq!(c.get(Loc::new(79, 20, 0)), &[ThingId(u64::MAX - 1)]);
            if step.is_multiple_of(400) {
                snapshots.push((c.clone(), o.clone()));
            }
        }
        let levels: std::collections::BTreeSet<i32> = o.keys().map(|l| l.z).collect();
        for z in -20..=41 {
            if z != 0 {
                assert_eq!(c.level_shape(z).is_some(), levels.contains(&z), "level {z}");
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

    #[test]
    fn a_far_chunk_is_sparse_until_the_box_grows_over_it() {
        let mut c = CellIndex::new();
        let at = |cx: i32, cy: i32| Loc::new(cx * SIDE + 3, cy * SIDE + 5, 0);
        c.push(at(0, 0), ThingId(0));
        assert_eq!(c.level_shape(0), Some(([0, 0], 1, 1, 0)));
        // 101 slots for 2 chunks: too sparse for the box (4 × 2 + 64 = 72).
        c.push(at(100, 0), ThingId(100));
        assert_eq!(c.level_shape(0), Some(([0, 0], 1, 1, 1)));
        c.push(at(-5000, 7), ThingId(5000));
        assert_eq!(c.level_shape(0), Some(([0, 0], 1, 1, 2)));
        let before = c.clone();
        c.remove(at(-5000, 7), ThingId(5000));
        assert_eq!(c.level_shape(0), Some(([0, 0], 1, 1, 1)));
        assert_eq!(before.get(at(-5000, 7)), &[ThingId(5000)]);
        assert_eq!(c.get(at(-5000, 7)), &[] as &[ThingId]);
        for x in 1..=8 {
            c.push(at(x, 0), ThingId(x as u64));
            assert_eq!(c.level_shape(0), Some(([0, 0], x as u32 + 1, 1, 1)));
            c.check_invariants().unwrap();
        }
        // 102 slots for 11 chunks with the sparse one: dense enough (4 × 11 + 64 = 108), and
        // the sparse chunk moves into the box.
        c.push(at(101, 0), ThingId(101));
        assert_eq!(c.level_shape(0), Some(([0, 0], 102, 1, 0)));
        c.check_invariants().unwrap();
        for x in (0..=8).chain([100, 101]) {
            assert_eq!(c.get(at(x, 0)), &[ThingId(x as u64)], "chunk {x}");
        }
        assert_eq!(before.get(at(100, 0)), &[ThingId(100)]);
        assert_eq!(before.get(at(101, 0)), &[] as &[ThingId]);
        // Emptying a row drops it; emptying the level drops the level.
        for x in (0..=8).chain([100, 101]) {
            c.remove(at(x, 0), ThingId(x as u64));
            c.check_invariants().unwrap();
        }
        assert_eq!(c.level_shape(0), None);
        assert_eq!(c, CellIndex::new());
        assert_eq!(before.iter().count(), 3);
    }

    /// An operation of the model test: add a new thing at a cell, move the `pick`-th live
    /// thing to a cell, or remove the `pick`-th live thing.
    #[derive(Clone, Debug)]
    enum Op {
        Add(Loc),
        Move(usize, Loc),
        Remove(usize),
    }

    fn any_loc() -> impl proptest::strategy::Strategy<Value = Loc> {
        use proptest::prelude::*;
        prop_oneof![
            12 => (-40i32..40, -40i32..40, -2i32..2).prop_map(|(x, y, z)| Loc::new(x, y, z)),
            3 => (-3i32..3, -3i32..3, -1i32..1).prop_map(|(x, y, z)| Loc::new(x, y, z)),
            1 => (any::<i32>(), any::<i32>(), -2i32..2).prop_map(|(x, y, z)| Loc::new(x, y, z)),
        ]
    }

    fn any_op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            4 => any_loc().prop_map(Op::Add),
            4 => (any::<usize>(), any_loc()).prop_map(|(p, l)| Op::Move(p, l)),
            1 => any::<usize>().prop_map(Op::Remove),
        ]
    }

    /// The model's cells in the index's canonical order (z, chunk row, chunk column, then
    /// row-major in the chunk).
    fn canonical(o: &BTreeMap<Loc, Vec<ThingId>>) -> Vec<(Loc, Vec<ThingId>)> {
        let mut v: Vec<(Loc, Vec<ThingId>)> = o.iter().map(|(l, ids)| (*l, ids.clone())).collect();
        v.sort_by_key(|(l, _)| (l.z, l.y >> CHUNK_BITS, l.x >> CHUNK_BITS, l.y, l.x));
        v
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Random adds, moves and removes against a `BTreeMap` of cells to id lists: the
        /// same lists in the same order, every kept version unchanged, equality by contents.
        #[test]
        fn matches_a_btreemap_model(ops in proptest::collection::vec(any_op(), 1..300)) {
            let mut c = CellIndex::new();
            let mut o: BTreeMap<Loc, Vec<ThingId>> = BTreeMap::new();
            let mut live: Vec<(ThingId, Loc)> = Vec::new();
            let mut versions = Vec::new();
            for (n, op) in ops.iter().enumerate() {
                match *op {
                    Op::Add(l) => {
                        let id = ThingId(n as u64);
                        c.push(l, id);
                        o.entry(l).or_default().push(id);
                        live.push((id, l));
                    }
                    Op::Move(p, to) if !live.is_empty() => {
                        let k = p % live.len();
                        let (id, from) = live[k];
                        c.remove(from, id);
                        c.push(to, id);
                        let list = o.entry(from).or_default();
                        list.retain(|&i| i != id);
                        if list.is_empty() {
                            o.remove(&from);
                        }
                        o.entry(to).or_default().push(id);
                        live[k] = (id, to);
                    }
                    Op::Remove(p) if !live.is_empty() => {
                        let (id, from) = live.swap_remove(p % live.len());
                        c.remove(from, id);
                        let list = o.entry(from).or_default();
                        list.retain(|&i| i != id);
                        if list.is_empty() {
                            o.remove(&from);
                        }
                    }
                    Op::Move(..) | Op::Remove(_) => {}
                }
                proptest::prop_assert_eq!(c.check_invariants(), Ok(()));
                versions.push((c.clone(), o.clone()));
            }
            for (c, o) in &versions {
                for (l, ids) in o {
                    proptest::prop_assert_eq!(c.get(*l), ids.as_slice());
                    // The cells around an occupied one read as the model says.
                    for d in [Loc::new(1, 0, 0), Loc::new(0, -1, 0), Loc::new(0, 0, 1)] {
                        let n = Loc::new(l.x.wrapping_add(d.x), l.y.wrapping_add(d.y), l.z + d.z);
                        proptest::prop_assert_eq!(
                            c.get(n),
                            o.get(&n).map_or(&[] as &[ThingId], Vec::as_slice)
                        );
                    }
                }
                let got: Vec<(Loc, Vec<ThingId>)> =
                    c.iter().map(|(l, v)| (l, v.to_vec())).collect();
                proptest::prop_assert_eq!(&got, &canonical(o));
                // The same contents built in another order compare equal.
                let mut other = CellIndex::new();
                for (l, ids) in canonical(o).into_iter().rev() {
                    for id in ids {
                        other.push(l, id);
                    }
                }
                proptest::prop_assert!(&other == c);
                proptest::prop_assert!(&CellIndex::from_grid(&c.to_grid()) == c);
            }
        }
    }
}
