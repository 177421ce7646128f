//! `Grid<T>`: a persistent, sparse 3D grid over the whole `i32` range.
//!
//! # Design
//! Cells live in chunks of 16 × 16 cells on one level (`z`), each behind a reference-counted
//! pointer. Where the chunks are dense (a game's terrain, its layers), a level keeps them in a
//! two-level array over the level's box of chunks: an array of rows, each row an array of
//! chunk pointers, one per chunk column (the primary index, not a copy). The grid holds one
//! such level per `z` of a compact range of levels, so a read is the level check, the row
//! pointer (its bounds check is the y check), the chunk pointer (its bounds check is the x
//! check) and the cell: each check one unsigned comparison, three dependent loads after the
//! level's entry, with no tree walk, and nothing to build first.
//!
//! The rows are there so that a persistent write stays small: a flat array of the level's
//! `w × h` chunk pointers would be copied whole by every write (64 pointers on a 128 × 128
//! level, one reference-count increment each); with rows a write copies the chunk, one row
//! (`w` pointers), the level's row array (`h` pointers) and the list of levels. Rows and row
//! arrays are behind thin pointers (`triomphe::ThinArc`, the length in the allocation), so a
//! row slot is 8 bytes and an entry of the list of levels 16.
//!
//! Chunks that would make a level's array too sparse (its box over four times the level's
//! chunks, plus 64 slots), and chunks on levels outside the compact range, live in a sparse
//! store instead: a persistent hash trie from chunk coordinates to chunks (`imbl`), so
//! untouched space costs nothing and an isolated or far chunk is one hash and a few node hops
//! away, however far apart the data are. A sparse chunk in which only one cell was ever
//! written (an isolated cell) is kept as that one cell, its index and value inline in the
//! trie's entry, not as a 256-cell chunk; a second cell written to it makes it a full chunk.
//! Every chunk is in exactly one place: in its level's array when it lies in the level's box,
//! else in the sparse store. When a level's box grows (a write next to it, when the level's
//! own chunks keep the grown box dense enough: the sparse store is not searched to decide),
//! sparse chunks that fall inside the new box move into the array (as full chunks).
//!
//! A clone of the grid shares everything. Writing through a shared grid copies the cell's
//! chunk, its row, that level's row array and the short list of levels (or, for a sparse chunk,
//! the trie's path to it), and leaves every older grid value untouched; writing as the sole
//! owner ([`Grid::set_mut`]) mutates in place. There is no derived state: nothing is dropped
//! by a write or rebuilt after one.

use std::cell::Cell;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use triomphe::{Arc as NodeArc, HeaderSlice, ThinArc};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::chunk::{CELLS, CHUNK_BITS, MASK, SIDE, cell_index, chunk_of, corner};
use crate::loc::{Loc, LocBox};

/// The sparse store: chunk coordinates to chunks, a persistent hash array mapped trie
/// (`imbl`), so a far or isolated chunk is one hash and a few node hops away however far
/// apart the data are, and a write copies one short path. A chunk in which one cell only
/// was ever written is kept as that cell ([`FarChunk::One`]).
type Far<T> = imbl::GenericHashMap<
    ChunkKey,
    FarChunk<T>,
    BuildHasherDefault<ChunkHasher>,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// Chunk coordinates (x / 16, y / 16, z) as a hash key.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ChunkKey([i32; 3]);

impl ChunkKey {
    /// The key of chunk coordinates `at` (which come from `i32` cells).
    fn of(at: [i64; 3]) -> Self {
        ChunkKey([at[0] as i32, at[1] as i32, at[2] as i32])
    }

    fn at(self) -> [i64; 3] {
        [
            i64::from(self.0[0]),
            i64::from(self.0[1]),
            i64::from(self.0[2]),
        ]
    }
}

impl Hash for ChunkKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(u64::from(self.0[0] as u32) | (u64::from(self.0[1] as u32) << 32));
        state.write_u32(self.0[2] as u32);
    }
}

/// A fixed multiplicative hash with a final mix (the trie takes its low bits first):
/// deterministic, so the store's shape never depends on a random seed (nothing observable
/// depends on its order anyway: iteration sorts).
#[derive(Default, Clone, Copy)]
struct ChunkHasher(u64);

impl Hasher for ChunkHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(23) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        x ^ (x >> 29)
    }
}

#[derive(Clone)]
pub(crate) struct Chunk<T> {
    cells: [T; CELLS],
}

/// A chunk behind a `triomphe` `Arc` (one 8-byte count, no weak count).
type ChunkArc<T> = NodeArc<Chunk<T>>;

/// A chunk of the sparse store. An isolated write (a cell alone in its chunk, far from any
/// level's box) is kept as the one cell, inline in the trie's entry, rather than as a
/// 256-cell chunk: 40,000 scattered cells then take the trie's entries, not 40,000 chunks,
/// and a read of one touches no chunk. A second cell written to the chunk (or any write
/// other than [`Grid::set_mut`]'s) turns it into a full chunk.
enum FarChunk<T> {
    /// The chunk's one written cell (its index in the chunk, row-major) and its value; every
    /// other cell holds the default.
    One(u8, T),
    /// A whole chunk.
    Full(ChunkArc<T>),
}

impl<T: Clone> Clone for FarChunk<T> {
    fn clone(&self) -> Self {
        match self {
            FarChunk::One(i, v) => FarChunk::One(*i, v.clone()),
            FarChunk::Full(c) => FarChunk::Full(NodeArc::clone(c)),
        }
    }
}

impl<T: Clone> FarChunk<T> {
    /// A borrowed view of the chunk, `default` in the cells a one-cell chunk does not hold.
    fn as_ref<'a>(&'a self, default: &'a T) -> ChunkRef<'a, T> {
        match self {
            FarChunk::One(i, v) => ChunkRef::One(*i, v, default),
            FarChunk::Full(c) => ChunkRef::Full(c),
        }
    }

    /// The whole chunk, made unique (a one-cell chunk turned into a full one first). `None`
    /// never happens.
    fn full_mut(&mut self, default: &T) -> Option<&mut Chunk<T>> {
        if let FarChunk::One(i, v) = self {
            let mut c = Chunk {
                cells: std::array::from_fn(|_| default.clone()),
            };
            std::mem::swap(&mut c.cells[usize::from(*i)], v);
            *self = FarChunk::Full(NodeArc::new(c));
        }
        match self {
            FarChunk::Full(c) => Some(NodeArc::make_mut(c)),
            FarChunk::One(..) => None,
        }
    }

    /// The whole chunk (a one-cell chunk turned into a full one).
    fn into_full(self, default: &T) -> ChunkArc<T> {
        match self {
            FarChunk::Full(c) => c,
            FarChunk::One(i, v) => {
                let mut c = Chunk {
                    cells: std::array::from_fn(|_| default.clone()),
                };
                c.cells[usize::from(i)] = v;
                NodeArc::new(c)
            }
        }
    }
}

/// A borrowed chunk, wherever it is kept: a whole chunk, or a sparse one-cell chunk (its
/// cell's index, its value and the grid's default for the other cells).
enum ChunkRef<'a, T> {
    Full(&'a Chunk<T>),
    One(u8, &'a T, &'a T),
}

impl<T> Clone for ChunkRef<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ChunkRef<'_, T> {}

impl<'a, T: PartialEq> ChunkRef<'a, T> {
    /// Cell `i` (row-major) of the chunk.
    #[inline]
    fn cell(self, i: usize) -> &'a T {
        match self {
            ChunkRef::Full(c) => &c.cells[i],
            ChunkRef::One(at, v, d) => {
                if i == usize::from(at) {
                    v
                } else {
                    d
                }
            }
        }
    }

    /// The cells holding a value other than `default`, with their indices, row-major.
    fn set_cells(self, default: &'a T) -> impl Iterator<Item = (usize, &'a T)> + 'a {
        let (cells, one): (&'a [T], _) = match self {
            ChunkRef::Full(c) => (&c.cells, None),
            ChunkRef::One(at, v, _) => (&[], Some((usize::from(at), v))),
        };
        cells
            .iter()
            .enumerate()
            .chain(one)
            .filter(move |(_, v)| *v != default)
    }

    /// Whether every cell holds `default`.
    fn is_default(self, default: &T) -> bool {
        self.set_cells(default).next().is_none()
    }

    /// Whether the two chunks hold the same cells (both with the same default).
    fn same_cells(self, other: Self) -> bool {
        match (self, other) {
            (ChunkRef::Full(a), ChunkRef::Full(b)) => std::ptr::eq(a, b) || a.cells == b.cells,
            (ChunkRef::One(i, v, d), ChunkRef::One(j, w, e)) => {
                if i == j {
                    v == w
                } else {
                    v == d && w == e
                }
            }
            _ => (0..CELLS).all(|i| self.cell(i) == other.cell(i)),
        }
    }
}

/// One chunk row of a level's box: a slot per chunk column (`width` of them). Behind a thin
/// pointer (the length lives in the allocation), so a slot of the level's row array, which
/// every write to the level copies, is 8 bytes.
type Row<T> = ThinArc<(), ChunkArc<T>>;

/// A level's rows, top to bottom, after a header holding the box's width in chunks (0 when
/// the level has no array). Behind a thin pointer, so an entry of the list of levels, which
/// every write copies, is 16 bytes.
type Rows<T> = ThinArc<u32, Row<T>>;

/// The list of levels, one entry per `z`, in one allocation behind the blank chunk (the
/// chunk of default values every unwritten slot of the levels' arrays shares, made with the
/// first array): a clone of the grid copies one count for both.
type Levels<T> = NodeArc<LevelList<T>>;

/// What [`Levels`] points to: the blank chunk, then one level per `z`.
type LevelList<T> = HeaderSlice<Option<ChunkArc<T>>, [Level<T>]>;

/// A list of levels behind `blank`.
fn new_levels<T>(blank: Option<ChunkArc<T>>, levels: Vec<Level<T>>) -> Levels<T> {
    NodeArc::from_header_and_iter(blank, levels.into_iter())
}

/// `a` made the sole owner of its list (copied when shared), for writing.
fn levels_mut<T>(a: &mut Levels<T>) -> Option<&mut LevelList<T>> {
    if !a.is_unique() {
        *a = NodeArc::from_header_and_iter(a.header.clone(), a.slice.iter().cloned());
    }
    NodeArc::get_mut(a)
}

/// `a`'s slots, made the sole owner of its allocation (copied when shared), handed to `f`.
/// `None` never happens (the allocation is unique once copied).
fn with_unique<H: Clone, E: Clone, U>(
    a: &mut ThinArc<H, E>,
    f: impl FnOnce(&mut [E]) -> U,
) -> Option<U> {
    if ThinArc::strong_count(a) != 1 {
        *a = ThinArc::from_header_and_iter(a.header.header.clone(), a.slice.iter().cloned());
    }
    a.with_arc_mut(|arc| NodeArc::get_mut(arc).map(|h| f(h.slice_mut())))
}

/// A level's array may cover at most this many times its chunks, plus [`LEVEL_SLACK`]
/// slots; a chunk that would make it sparser goes to the sparse store.
const LEVEL_FILL: u64 = 4;
/// See [`LEVEL_FILL`].
const LEVEL_SLACK: u64 = 64;
/// The list of levels may cover at most twice its levels with arrays, plus this many `z`
/// values; a chunk on a level further away goes to the sparse store.
const LEVELS_SLACK: i64 = 8;

/// One level's chunks in a two-level array over the level's box of chunks: rows of chunk
/// pointers. Every slot holds a chunk: where none was written, the grid's one blank chunk
/// (all default values), so a read never branches on absence.
struct Level<T> {
    /// Chunk coordinates (x / 16, y / 16) of the box's first chunk.
    first: [i32; 2],
    /// The box's rows (none when the level has no array), each `width` slots long, the
    /// width in the header.
    rows: Rows<T>,
}

impl<T> Clone for Level<T> {
    fn clone(&self) -> Self {
        Level {
            first: self.first,
            rows: self.rows.clone(),
        }
    }
}

impl<T> Level<T> {
    /// A level without an array.
    fn none() -> Self {
        Level {
            first: [0; 2],
            rows: Rows::from_header_and_iter(0, std::iter::empty()),
        }
    }

    /// Chunks along x; 0 when the level has no array (its chunks, if any, are sparse).
    fn width(&self) -> u32 {
        self.rows.header.header
    }

    /// Rows of the box.
    fn height(&self) -> u32 {
        // At most the box's slots, which the policy bounds by the chunks.
        self.rows.slice.len() as u32
    }

    /// The (row, column) slot of the chunk at chunk coordinates (`cx`, `cy`), when it lies
    /// in the box.
    fn index(&self, cx: i64, cy: i64) -> Option<(usize, usize)> {
        let dx = cx - i64::from(self.first[0]);
        let dy = cy - i64::from(self.first[1]);
        if (0..i64::from(self.width())).contains(&dx) && (0..i64::from(self.height())).contains(&dy)
        {
            Some((dy as usize, dx as usize))
        } else {
            None
        }
    }

    /// The chunk in slot (`y`, `x`), if the slot exists.
    fn slot(&self, (y, x): (usize, usize)) -> Option<&ChunkArc<T>> {
        self.rows.slice.get(y)?.slice.get(x)
    }

    /// Every slot with its (row, column).
    fn slots(&self) -> impl Iterator<Item = ((usize, usize), &ChunkArc<T>)> + '_ {
        self.rows
            .slice
            .iter()
            .enumerate()
            .flat_map(|(y, r)| r.slice.iter().enumerate().map(move |(x, c)| ((y, x), c)))
    }

    /// The box as (first chunk, last chunk), inclusive; `None` without an array.
    fn bounds(&self) -> Option<([i64; 2], [i64; 2])> {
        (self.width() > 0).then(|| {
            let lo = [i64::from(self.first[0]), i64::from(self.first[1])];
            (
                lo,
                [
                    lo[0] + i64::from(self.width()) - 1,
                    lo[1] + i64::from(self.height()) - 1,
                ],
            )
        })
    }

    /// Written chunks in the array (slots not holding `blank`).
    fn count(&self, blank: Option<&ChunkArc<T>>) -> usize {
        self.slots()
            .filter(|(_, c)| !blank.is_some_and(|b| NodeArc::ptr_eq(b, c)))
            .count()
    }
}

/// Where a chunk is kept: a slot of a level's array (the level's index in the list, the
/// slot's row and column), or the sparse store.
enum Place {
    Level(usize, (usize, usize)),
    Far,
}

/// A persistent 3D grid of `T`, sparse over the whole `i32` range; unset cells read as the
/// grid's default value.
///
/// Costs (L = levels in the grid's compact range of levels, at most twice its dense levels
/// plus 8; the written level's box is w × h chunks, and S = w · h its slots, at most four
/// times its chunks plus 64; F = sparse chunks, outside every level's box; h' = depth of the
/// sparse store's hash trie, ≈ log₃₂ F):
/// - clone: Θ(1): two reference-count increments at most (the list of levels, which holds
///   the blank chunk in its header, and the sparse store's root when it has one);
/// - [`get`](Grid::get): Θ(1) for a cell of a level's box: the level check, the row pointer
///   (y check), the chunk pointer (x check) and the cell, one unsigned comparison a check;
///   Θ(1) for any other cell when there are no sparse chunks, else one hash and Θ(h') node
///   hops (a sparse one-cell chunk: the trie's entry holds the cell, no chunk to load);
/// - [`set`](Grid::set) (persistent): Θ(L + w + h) for a cell of a level's box: copies one
///   256-cell chunk, its row's w chunk pointers, the level's h row pointers (one
///   reference-count increment each, 8 bytes each after a 16- and a 24-byte header) and the
///   list of L levels (16 bytes and one increment each); dropping the new value releases
///   them again. For a sparse chunk: Θ(h'), the chunk and the trie's path to it (a first
///   write to a sparse chunk stores just the cell; a second cell in it makes it a full chunk),
///   whatever the number F of sparse chunks: whether the level's box should grow over it is
///   decided by the level's own chunks, Θ(1) when its box could not be dense enough, else
///   Θ(S) to count them;
/// - [`set_mut`](Grid::set_mut): as `set`, in place (no copy) where this value is the sole
///   owner; a write that grows a level's box rebuilds its rows once, Θ(S), and takes in the
///   sparse chunks inside the new box (found in Θ(min(S, F)));
/// - memory: the written chunks (256 cells and an 8-byte header each), one blank chunk that
///   every unwritten slot shares, 8 bytes per slot of each level's box and 24 per row of it,
///   40 bytes per level of the range, and the hash trie's entries and nodes for the sparse
///   chunks. A sparse chunk where one cell only was written is no chunk at all: its trie
///   entry holds the 12-byte key, the cell's index and its value (no 256-cell chunk behind
///   it, which is 520 bytes for `u16` cells), plus its share of the trie's nodes.
///   Nothing else: no second copy of the cells, no cache.
///
/// `Grid` is `Send + Sync` when `T` is.
///
/// ```
/// use alembic::{grid::Grid, Loc};
/// let empty: Grid<u16> = Grid::new(0);
/// let one = empty.set(Loc::new(5, -3, 2), 7);
/// assert_eq!(*one.get(Loc::new(5, -3, 2)), 7);
/// assert_eq!(*empty.get(Loc::new(5, -3, 2)), 0); // the old value is unchanged
/// assert_eq!(*one.get(Loc::new(i32::MAX, i32::MIN, 0)), 0);
/// ```
///
/// `Grid` is `#[must_use]`: [`Grid::set`] returns the changed grid, so a dropped result is a
/// write that never happened, and a warning (an error here):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use alembic::Loc;
/// use alembic::grid::Grid;
/// let g = Grid::new(0u8);
/// g.set(Loc::new(1, 2, 0), 7); // the new grid is dropped: `g` is still all zeros
/// ```
#[must_use = "a persistent value: a method that returns one leaves the original unchanged"]
pub struct Grid<T> {
    default: T,
    /// The `z` of `levels[0]`.
    z0: i32,
    /// One entry per `z` from `z0`, each with its rows of chunk pointers (or none), behind
    /// the blank chunk.
    levels: Levels<T>,
    /// Chunks outside every level's box: sparse or far data.
    far: Far<T>,
    /// Chunks written so far, in the arrays and the sparse store.
    chunk_count: usize,
}

impl<T: Clone> Clone for Grid<T> {
    fn clone(&self) -> Self {
        Grid {
            default: self.default.clone(),
            z0: self.z0,
            levels: NodeArc::clone(&self.levels),
            far: self.far.clone(),
            chunk_count: self.chunk_count,
        }
    }
}

impl<T: Clone + PartialEq> Grid<T> {
    /// An empty grid where every cell reads as `default`. Θ(1).
    pub fn new(default: T) -> Self {
        Grid {
            default,
            z0: 0,
            levels: new_levels(None, Vec::new()),
            far: Far::default(),
            chunk_count: 0,
        }
    }

    /// The value every unwritten cell reads as.
    #[must_use]
    pub fn default_value(&self) -> &T {
        &self.default
    }

    /// The level at `z`, if the range of levels holds it.
    fn level_at(&self, z: i64) -> Option<&Level<T>> {
        usize::try_from(z - i64::from(self.z0))
            .ok()
            .and_then(|i| self.levels.slice.get(i))
    }

    /// The chunk at `chunk` coordinates, if written.
    fn find_chunk(&self, chunk: [i64; 3]) -> Option<ChunkRef<'_, T>> {
        if let Some(level) = self.level_at(chunk[2])
            && let Some(i) = level.index(chunk[0], chunk[1])
        {
            return level
                .slot(i)
                .filter(|c| !self.is_blank(c))
                .map(|c| ChunkRef::Full(&**c));
        }
        if self.far.is_empty() {
            return None;
        }
        self.far
            .get(&ChunkKey::of(chunk))
            .map(|c| c.as_ref(&self.default))
    }

    /// The blank chunk of unwritten slots (none before the first array).
    fn blank(&self) -> Option<&ChunkArc<T>> {
        self.levels.header.as_ref()
    }

    /// Whether `c` is the blank chunk of unwritten slots.
    fn is_blank(&self, c: &ChunkArc<T>) -> bool {
        self.blank().is_some_and(|b| NodeArc::ptr_eq(b, c))
    }

    /// The value at `loc` (the default when never written).
    #[inline]
    pub fn get(&self, loc: Loc) -> &T {
        match self.level_chunk(loc) {
            // An unwritten slot holds the blank chunk: no branch on absence.
            Some(c) => &c.cells[cell_index(loc)],
            None => self.get_far(loc.x, loc.y, loc.z),
        }
    }

    /// The chunk holding `loc` when it lies in a level's array (the blank chunk for an
    /// unwritten slot).
    #[inline]
    fn level_chunk(&self, loc: Loc) -> Option<&Chunk<T>> {
        // Each check is one unsigned comparison: a coordinate below the box wraps to a
        // large number. The rows' and the row's bounds checks are the y and x checks.
        let dz = loc.z.wrapping_sub(self.z0) as u32;
        let level = self.levels.slice.get(dz as usize)?;
        let dx = (loc.x >> CHUNK_BITS).wrapping_sub(level.first[0]) as u32;
        let dy = (loc.y >> CHUNK_BITS).wrapping_sub(level.first[1]) as u32;
        let row = level.rows.slice.get(dy as usize)?;
        row.slice.get(dx as usize).map(|c| &**c)
    }

    /// A read outside every level's box: through the sparse store. Out of line, with the
    /// coordinates in registers, so that a loop of reads keeps its fast path tight.
    #[inline(never)]
    fn get_far(&self, x: i32, y: i32, z: i32) -> &T {
        if self.far.is_empty() {
            return &self.default;
        }
        let loc = Loc::new(x, y, z);
        match self.far.get(&ChunkKey::of(chunk_of(loc))) {
            Some(FarChunk::Full(c)) => &c.cells[cell_index(loc)],
            Some(FarChunk::One(i, v)) if usize::from(*i) == cell_index(loc) => v,
            _ => &self.default,
        }
    }

    /// Does nothing: reads need no directory any more (each dense level's array of chunk
    /// pointers is the grid's own index, kept up to date by every write). Θ(1).
    #[deprecated(
        since = "0.3.0",
        note = "does nothing: a grid reads through its levels' chunk arrays, with nothing to build"
    )]
    pub fn build_directory_mut(&mut self) {}

    /// Always `false`: there is no read directory any more (see
    /// [`build_directory_mut`](Grid::build_directory_mut)). Θ(1).
    #[deprecated(
        since = "0.3.0",
        note = "always false: a grid reads through its levels' chunk arrays, with nothing to build"
    )]
    #[must_use]
    pub fn has_directory(&self) -> bool {
        false
    }

    /// A new grid with `loc` set to `value`; `self` is unchanged.
    pub fn set(&self, loc: Loc, value: T) -> Self {
        let mut g = self.clone();
        g.set_mut(loc, value);
        g
    }

    /// Set `loc` to `value` in place (copying only the shared part of the path).
    pub fn set_mut(&mut self, loc: Loc, value: T) {
        if self.chunk_count == 0 && value == self.default {
            return;
        }
        let chunk = chunk_of(loc);
        let i = cell_index(loc);
        match self.place(chunk) {
            Place::Level(dz, yx) => self.level_chunk_mut(dz, yx, |c| c.cells[i] = value),
            Place::Far => {
                let key = ChunkKey::of(chunk);
                // A cell index is below 256 (`CELLS`).
                let at = i as u8;
                match self.far.get_mut(&key) {
                    None => {
                        // A first cell in this sparse chunk: kept as the cell alone.
                        self.far.insert(key, FarChunk::One(at, value));
                        self.chunk_count += 1;
                    }
                    Some(FarChunk::One(j, v)) if *j == at => *v = value,
                    Some(c) => {
                        if let Some(c) = c.full_mut(&self.default) {
                            c.cells[i] = value;
                        }
                    }
                }
            }
        }
    }

    /// A new grid with `value` written to every cell of `area`.
    pub fn fill_box(&self, area: LocBox, value: T) -> Self {
        let mut g = self.clone();
        g.fill_box_mut(area, value);
        g
    }

    /// Write `value` to every cell of `area`, in place. Θ(cells in the box + chunks touched
    /// + the touched levels' slots).
    pub fn fill_box_mut(&mut self, area: LocBox, value: T) {
        if area.is_empty() {
            return;
        }
        let lo = [area.min.x >> CHUNK_BITS, area.min.y >> CHUNK_BITS];
        let hi = [
            (area.max.x - 1) >> CHUNK_BITS,
            (area.max.y - 1) >> CHUNK_BITS,
        ];
        for z in area.min.z..area.max.z {
            // Grow the level's box once for the whole area rather than chunk by chunk.
            self.reserve(z, lo, hi);
            let mut cy = lo[1];
            while cy <= hi[1] {
                let mut cx = lo[0];
                while cx <= hi[0] {
                    let x0 = area.min.x.max(cx << CHUNK_BITS);
                    let x1 = area.max.x.min((cx << CHUNK_BITS).saturating_add(SIDE));
                    let y0 = area.min.y.max(cy << CHUNK_BITS);
                    let y1 = area.max.y.min((cy << CHUNK_BITS).saturating_add(SIDE));
                    let value = &value;
                    self.chunk_mut([i64::from(cx), i64::from(cy), i64::from(z)], |chunk| {
                        for y in y0..y1 {
                            let row = ((y & MASK) * SIDE) as usize;
                            chunk.cells
                                [row + (x0 & MASK) as usize..=row + ((x1 - 1) & MASK) as usize]
                                .fill(value.clone());
                        }
                    });
                    cx += 1;
                }
                cy += 1;
            }
        }
    }

    /// Give level `z` an array covering chunks `lo..=hi` (x, y) when the policy allows.
    fn reserve(&mut self, z: i32, lo: [i32; 2], hi: [i32; 2]) {
        let Some(dz) = self.level_for_write(z) else {
            return;
        };
        let lo = [i64::from(lo[0]), i64::from(lo[1])];
        let hi = [i64::from(hi[0]), i64::from(hi[1])];
        let need = ((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1)) as u64;
        self.grow_level(dz, lo, hi, need);
    }

    /// The index in `levels` of level `z`, the list extended to it when the policy allows.
    fn level_for_write(&mut self, z: i32) -> Option<usize> {
        let len = self.levels.slice.len() as i64;
        if len == 0 {
            self.z0 = z;
            self.levels = new_levels(self.blank().cloned(), vec![Level::none()]);
            return Some(0);
        }
        let dz = i64::from(z) - i64::from(self.z0);
        if (0..len).contains(&dz) {
            return usize::try_from(dz).ok();
        }
        let first = i64::from(self.z0).min(i64::from(z));
        let last = (i64::from(self.z0) + len - 1).max(i64::from(z));
        let dense = self.levels.slice.iter().filter(|l| l.width() > 0).count() as i64;
        let new_len = last - first + 1;
        if new_len > 2 * (dense + 1) + LEVELS_SLACK {
            return None;
        }
        let shift = (i64::from(self.z0) - first) as usize;
        let mut v: Vec<Level<T>> = (0..new_len).map(|_| Level::none()).collect();
        for (i, l) in self.levels.slice.iter().enumerate() {
            v[shift + i] = l.clone();
        }
        // `first` is one of two i32 values.
        self.z0 = first as i32;
        self.levels = new_levels(self.blank().cloned(), v);
        usize::try_from(i64::from(z) - first).ok()
    }

    /// Grow level `dz`'s box (or give it one) to cover chunks `lo..=hi`, where `need` chunks
    /// are about to be written, when the grown box stays dense enough counting the level's
    /// own chunks (its array's and the `need` new ones); sparse chunks inside the new box
    /// then move into it. Returns whether the box covers `lo..=hi`.
    ///
    /// The sparse store is not searched to decide: a refusal costs Θ(1), or Θ(S) when the
    /// level's box of S slots could be dense enough and its chunks are counted, whatever the
    /// number of sparse chunks (a write to an isolated cell asks this every time). A box that
    /// grows is rebuilt, Θ(S') for its new S' slots; the sparse chunks moving in are found in
    /// Θ(min(S' − S, F)), probing the new slots or walking the store, whichever is smaller.
    fn grow_level(&mut self, dz: usize, lo: [i64; 2], hi: [i64; 2], need: u64) -> bool {
        let Some(level) = self.levels.slice.get(dz) else {
            return false;
        };
        let z = i64::from(self.z0) + dz as i64;
        let old = level.bounds();
        let (nlo, nhi) = match old {
            Some((a, b)) => {
                if a[0] <= lo[0] && a[1] <= lo[1] && hi[0] <= b[0] && hi[1] <= b[1] {
                    return true;
                }
                (
                    [a[0].min(lo[0]), a[1].min(lo[1])],
                    [b[0].max(hi[0]), b[1].max(hi[1])],
                )
            }
            None => (lo, hi),
        };
        let (w, h) = ((nhi[0] - nlo[0] + 1) as u64, (nhi[1] - nlo[1] + 1) as u64);
        let slots = w.saturating_mul(h);
        let old_slots = u64::from(level.width()) * u64::from(level.height());
        // Even with every slot of the old box written, too sparse: no need to count.
        if slots > LEVEL_FILL * old_slots.saturating_add(need) + LEVEL_SLACK
            || w > u64::from(u32::MAX)
        {
            return false;
        }
        let have = level.count(self.blank()) as u64 + need;
        if slots > LEVEL_FILL * have + LEVEL_SLACK {
            return false;
        }
        let in_old = |x: i64, y: i64| {
            old.is_some_and(|(a, b)| (a[0]..=b[0]).contains(&x) && (a[1]..=b[1]).contains(&y))
        };
        // The sparse chunks inside the new box (none inside the old one: every chunk of a
        // box is in its array).
        let moved: Vec<ChunkKey> = if self.far.is_empty() {
            Vec::new()
        } else if slots - old_slots <= self.far.len() as u64 {
            let mut v = Vec::new();
            for y in nlo[1]..=nhi[1] {
                for x in nlo[0]..=nhi[0] {
                    let k = ChunkKey::of([x, y, z]);
                    if !in_old(x, y) && self.far.contains_key(&k) {
                        v.push(k);
                    }
                }
            }
            v
        } else {
            let inside = |k: &ChunkKey| {
                let at = k.at();
                at[2] == z
                    && (nlo[0]..=nhi[0]).contains(&at[0])
                    && (nlo[1]..=nhi[1]).contains(&at[1])
            };
            self.far.keys().filter(|k| inside(k)).copied().collect()
        };
        let width = w as u32;
        let default = &self.default;
        let blank = self.blank().cloned().unwrap_or_else(|| {
            NodeArc::new(Chunk {
                cells: std::array::from_fn(|_| default.clone()),
            })
        });
        let mut slots_v: Vec<ChunkArc<T>> = vec![NodeArc::clone(&blank); slots as usize];
        let at = |cx: i64, cy: i64| ((cy - nlo[1]) as u64 * w + (cx - nlo[0]) as u64) as usize;
        if let Some((a, _)) = level.bounds() {
            for ((y, x), c) in level.slots() {
                slots_v[at(a[0] + x as i64, a[1] + y as i64)] = NodeArc::clone(c);
            }
        }
        for k in &moved {
            if let Some(c) = self.far.remove(k) {
                let m = k.at();
                slots_v[at(m[0], m[1])] = c.into_full(&self.default);
            }
        }
        let mut slots_v = slots_v.into_iter();
        let rows: Vec<Row<T>> = (0..h)
            .map(|_| Row::from_header_and_iter((), slots_v.by_ref().take(width as usize)))
            .collect();
        let Some(levels) = levels_mut(&mut self.levels) else {
            return false;
        };
        levels.header.get_or_insert(blank);
        let Some(level) = levels.slice.get_mut(dz) else {
            return false;
        };
        *level = Level {
            // Chunk coordinates of i32 cells fit an i32.
            first: [nlo[0] as i32, nlo[1] as i32],
            rows: Rows::from_header_and_iter(width, rows.into_iter()),
        };
        true
    }

    /// Where the chunk at `chunk` coordinates is kept, a level's box grown (or the list of
    /// levels extended) to hold it when the policy allows.
    fn place(&mut self, chunk: [i64; 3]) -> Place {
        // Chunk coordinates and levels of i32 cells fit an i32.
        let Some(dz) = self.level_for_write(chunk[2] as i32) else {
            return Place::Far;
        };
        if let Some(i) = self
            .levels
            .slice
            .get(dz)
            .and_then(|l| l.index(chunk[0], chunk[1]))
        {
            return Place::Level(dz, i);
        }
        let c = [chunk[0], chunk[1]];
        if self.grow_level(dz, c, c, 1)
            && let Some(i) = self
                .levels
                .slice
                .get(dz)
                .and_then(|l| l.index(chunk[0], chunk[1]))
        {
            return Place::Level(dz, i);
        }
        Place::Far
    }

    /// Hands `f` the whole chunk at `chunk` coordinates, created and made unique along its
    /// path (a sparse one-cell chunk turned into a full one).
    fn chunk_mut(&mut self, chunk: [i64; 3], f: impl FnOnce(&mut Chunk<T>)) {
        let slot = match self.place(chunk) {
            Place::Level(dz, yx) => return self.level_chunk_mut(dz, yx, f),
            Place::Far => ChunkKey::of(chunk),
        };
        if !self.far.contains_key(&slot) {
            self.chunk_count += 1;
        }
        let default = &self.default;
        let c = self.far.entry(slot).or_insert_with(|| {
            FarChunk::Full(NodeArc::new(Chunk {
                cells: std::array::from_fn(|_| default.clone()),
            }))
        });
        if let Some(c) = c.full_mut(default) {
            f(c);
        }
    }

    /// Hands `f` the chunk in slot (`y`, `x`) of level `dz`'s array, made unique along its
    /// path (the rows are behind thin pointers, which lend their slots only to a closure).
    fn level_chunk_mut(
        &mut self,
        dz: usize,
        (y, x): (usize, usize),
        f: impl FnOnce(&mut Chunk<T>),
    ) {
        let Some(HeaderSlice {
            header: blank,
            slice: levels,
        }) = levels_mut(&mut self.levels)
        else {
            return;
        };
        let blank = blank.as_ref();
        let Some(level) = levels.get_mut(dz) else {
            return;
        };
        let written = with_unique(&mut level.rows, |rows| {
            let row = rows.get_mut(y)?;
            with_unique(row, |row| {
                let slot = row.get_mut(x)?;
                let new = blank.is_some_and(|b| NodeArc::ptr_eq(b, slot));
                // The blank chunk is shared (the grid holds it too): this copies it.
                f(NodeArc::make_mut(slot));
                Some(new)
            })?
        });
        if written.flatten() == Some(true) {
            self.chunk_count += 1;
        }
    }

    /// A borrowed, read-only view for many reads near one another: what FOV, pathfinding
    /// and AI callbacks read through. It reads exactly like the grid (every location, inside
    /// `area` or not) and remembers the chunk of 16 × 16 cells its last read found, so a read
    /// in that chunk again (the next cell of a row, a field of view's neighbours) is one
    /// comparison and an index; any other read costs what [`Grid::get`] does, plus the
    /// comparison and remembering its chunk. So a view pays off for reads near one another
    /// and costs a little more than `get` for reads scattered at random (measured in
    /// `benches/README.md`). Θ(1) to make. `area` is the region the reads are expected in;
    /// nothing is built for it.
    ///
    /// ```
    /// use alembic::{grid::Grid, Loc, LocBox};
    /// let g = Grid::new(0u8).set(Loc::new(3, 4, 0), 9);
    /// let v = g.view(LocBox::rect(0, 0, 80, 50, 0));
    /// assert_eq!(*v.get(Loc::new(3, 4, 0)), 9);
    /// assert_eq!(*v.get(Loc::new(500, 4, 7)), 0); // outside the box: still answered
    /// ```
    pub fn view(&self, area: LocBox) -> GridView<'_, T> {
        let _ = area;
        GridView {
            grid: self,
            key: Cell::new((0, 0)),
            chunk: Cell::new(None),
        }
    }

    /// Every cell of `area` with its value, chunk by chunk (within a chunk, row-major).
    ///
    /// Θ(cells in the box + chunks in the box), plus a hash lookup for each chunk outside
    /// every level's box when there are sparse chunks; unwritten cells yield the default.
    pub fn iter_box(&self, area: LocBox) -> BoxIter<'_, T> {
        let mut it = BoxIter {
            grid: self,
            area,
            z: area.min.z,
            cy: area.min.y >> CHUNK_BITS,
            cx: area.min.x >> CHUNK_BITS,
            y: 0,
            y1: 0,
            x0: 0,
            x: 0,
            chunk: None,
            one: None,
            pending: None,
            row: [].iter(),
            defaults: 0,
            done: area.is_empty(),
        };
        if !it.done {
            it.enter_chunk();
        }
        it
    }

    /// Every written chunk as (its chunk coordinates, the chunk): the levels' arrays, then
    /// the sparse store.
    fn all_chunks(&self) -> Vec<([i64; 3], ChunkRef<'_, T>)> {
        let mut out = Vec::with_capacity(self.chunk_count);
        for (dz, level) in self.levels.slice.iter().enumerate() {
            let z = i64::from(self.z0) + dz as i64;
            for ((y, x), c) in level.slots() {
                if !self.is_blank(c) {
                    let at = [
                        i64::from(level.first[0]) + x as i64,
                        i64::from(level.first[1]) + y as i64,
                        z,
                    ];
                    out.push((at, ChunkRef::Full(&**c)));
                }
            }
        }
        out.extend(
            self.far
                .iter()
                .map(|(k, c)| (k.at(), c.as_ref(&self.default))),
        );
        out
    }

    /// Every written chunk as (its corner location, the chunk), in a canonical order (z, then
    /// y, then x). Chunks that hold only default values are skipped.
    fn chunks_sorted(&self) -> Vec<(Loc, ChunkRef<'_, T>)> {
        let mut out: Vec<(Loc, ChunkRef<'_, T>)> = self
            .all_chunks()
            .into_iter()
            .filter(|(_, c)| !c.is_default(&self.default))
            .map(|(at, c)| (corner(at), c))
            .collect();
        out.sort_unstable_by_key(|(l, _)| (l.z, l.y, l.x));
        out
    }

    /// Every cell whose value differs from the default, in canonical order (z, chunk row,
    /// chunk column, then row-major within the chunk). Θ(written chunks · 256).
    pub fn iter_set(&self) -> impl Iterator<Item = (Loc, &T)> + '_ {
        self.chunks_sorted()
            .into_iter()
            .flat_map(move |(corner, chunk)| {
                chunk.set_cells(&self.default).map(move |(i, v)| {
                    let dx = (i % CELLS_PER_ROW) as i32;
                    let dy = (i / CELLS_PER_ROW) as i32;
                    (Loc::new(corner.x + dx, corner.y + dy, corner.z), v)
                })
            })
    }

    /// The smallest box holding every written chunk (not trimmed to cells), or `None` when
    /// nothing was written.
    #[must_use]
    pub fn bounds(&self) -> Option<LocBox> {
        let chunks = self.chunks_sorted();
        let first = chunks.first()?.0;
        let mut b = LocBox::new(first, first);
        for (c, _) in &chunks {
            b.min = Loc::new(b.min.x.min(c.x), b.min.y.min(c.y), b.min.z.min(c.z));
            b.max = Loc::new(
                b.max.x.max(c.x.saturating_add(SIDE)),
                b.max.y.max(c.y.saturating_add(SIDE)),
                b.max.z.max(c.z.saturating_add(1)),
            );
        }
        Some(b)
    }

    /// Whether two grids share all their storage (then they are certainly equal). Θ(1).
    #[must_use]
    pub fn ptr_eq(&self, other: &Self) -> bool {
        let levels = NodeArc::ptr_eq(&self.levels, &other.levels)
            || (self.levels.slice.is_empty() && other.levels.slice.is_empty());
        let far = self.far.ptr_eq(&other.far) || (self.far.is_empty() && other.far.is_empty());
        levels && self.z0 == other.z0 && far
    }

    /// Verify the structure: every level's array (its shape, and no box sparser than the
    /// policy allows), that no chunk of the sparse store lies in a level's box (each chunk is
    /// in one place), that a sparse one-cell chunk's cell lies in the chunk, the blank chunk,
    /// and the chunk count.
    pub fn check_invariants(&self) -> Result<(), &'static str> {
        if i64::from(self.z0) + self.levels.slice.len() as i64 - 1 > i64::from(i32::MAX) {
            return Err("grid level list runs past i32::MAX");
        }
        let dense = self.levels.slice.iter().filter(|l| l.width() > 0).count() as i64;
        if self.levels.slice.len() as i64 > 2 * dense + 1 + LEVELS_SLACK {
            return Err("grid level list is sparser than its policy");
        }
        let mut count = 0;
        for level in self.levels.slice.iter() {
            if level.width() == 0 {
                if !level.rows.slice.is_empty() {
                    return Err("grid level without a width holds chunk rows");
                }
                continue;
            }
            let w = level.width() as usize;
            if level.rows.slice.is_empty() || level.rows.slice.iter().any(|r| r.slice.len() != w) {
                return Err("grid level array has the wrong shape");
            }
            let last_x = i64::from(level.first[0]) + w as i64 - 1;
            let last_y = i64::from(level.first[1]) + i64::from(level.height()) - 1;
            if last_x > i64::from(i32::MAX >> CHUNK_BITS)
                || last_y > i64::from(i32::MAX >> CHUNK_BITS)
            {
                return Err("grid level box runs past the i32 range");
            }
            if self.blank().is_none() {
                return Err("grid level array without a blank chunk");
            }
            let n = level.count(self.blank());
            if u64::from(level.width()) * u64::from(level.height())
                > LEVEL_FILL * n as u64 + LEVEL_SLACK
            {
                return Err("grid level array is sparser than its policy");
            }
            count += n;
        }
        for c in self.far.values() {
            if let FarChunk::One(i, _) = c
                && usize::from(*i) >= CELLS
            {
                return Err("grid one-cell sparse chunk's cell lies outside the chunk");
            }
        }
        let far: Vec<[i64; 3]> = self.far.keys().map(|k| k.at()).collect();
        for at in &far {
            if self
                .level_at(at[2])
                .and_then(|l| l.index(at[0], at[1]))
                .is_some()
            {
                return Err("grid chunk in the sparse store lies in a level's box");
            }
        }
        count += far.len();
        if let Some(b) = self.blank()
            && b.cells.iter().any(|v| *v != self.default)
        {
            return Err("grid blank chunk holds a value other than the default");
        }
        if count != self.chunk_count {
            return Err("grid chunk count is stale");
        }
        Ok(())
    }

    /// Whether the chunk at chunk coordinates `chunk` sits in a level's array (not in the
    /// sparse store).
    #[cfg(test)]
    fn in_level_array(&self, chunk: [i64; 3]) -> bool {
        self.level_at(chunk[2])
            .and_then(|l| l.index(chunk[0], chunk[1]))
            .is_some()
    }
}

const CELLS_PER_ROW: usize = SIDE as usize;

/// A read-only view of a [`Grid`] that remembers the chunk of its last read: see
/// [`Grid::view`]. `Send` (when `T` is `Sync`) but not `Sync`: the remembered chunk is a
/// [`Cell`], so each thread makes its own view (Θ(1)).
pub struct GridView<'a, T> {
    grid: &'a Grid<T>,
    /// The chunk key ([`view_key`]) of the last read that found its chunk in a level's
    /// array (the key of no chunk before that).
    key: Cell<(u64, i32)>,
    /// That chunk.
    chunk: Cell<Option<&'a Chunk<T>>>,
}

/// The key of the chunk holding `loc` in a view: its chunk coordinates (x / 16, y / 16)
/// packed in one word, and its level.
#[inline(always)]
pub(crate) fn view_key(loc: Loc) -> (u64, i32) {
    let cx = u64::from((loc.x >> CHUNK_BITS) as u32);
    let cy = u64::from((loc.y >> CHUNK_BITS) as u32);
    ((cx << 32) | cy, loc.z)
}

impl<'a, T: Clone + PartialEq> GridView<'a, T> {
    /// The value at `loc`, as [`Grid::get`] gives it. Θ(1): one comparison and an index in
    /// the chunk of the last read, else a read of the grid (remembering its chunk when it
    /// lies in a level's array).
    #[inline]
    pub fn get(&self, loc: Loc) -> &'a T {
        let key = view_key(loc);
        if self.key.get() == key
            && let Some(c) = self.chunk.get()
        {
            return &c.cells[cell_index(loc)];
        }
        self.get_other(loc, key)
    }

    /// A read outside the remembered chunk.
    #[inline]
    fn get_other(&self, loc: Loc, key: (u64, i32)) -> &'a T {
        let grid: &'a Grid<T> = self.grid;
        match grid.level_chunk(loc) {
            Some(c) => {
                self.key.set(key);
                self.chunk.set(Some(c));
                &c.cells[cell_index(loc)]
            }
            None => grid.get_far(loc.x, loc.y, loc.z),
        }
    }

    /// The grid it views.
    pub fn grid(&self) -> &'a Grid<T> {
        self.grid
    }
}

/// Where an iterated chunk's cells are (rows `stride` apart).
struct ChunkRows<'a, T> {
    cells: &'a [T],
    /// Index of the chunk's first cell (its corner) in `cells`.
    start: usize,
    /// Cells from one row of the chunk to the next.
    stride: usize,
}

impl<T> Clone for ChunkRows<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ChunkRows<'_, T> {}

impl<'a, T> ChunkRows<'a, T> {
    /// The cells of row `y & MASK` of the chunk from column `x & MASK`, `width` of them.
    #[inline]
    fn row(self, y: i32, x: i32, width: usize) -> &'a [T] {
        let r = self.start + (y & MASK) as usize * self.stride + (x & MASK) as usize;
        &self.cells[r..r + width]
    }
}

/// Iterator over a box of a [`Grid`]: see [`Grid::iter_box`].
pub struct BoxIter<'a, T> {
    grid: &'a Grid<T>,
    area: LocBox,
    z: i32,
    cy: i32,
    cx: i32,
    y: i32,
    y1: i32,
    x0: i32,
    x: i32,
    chunk: Option<ChunkRows<'a, T>>,
    /// The current chunk's one cell (its index and value) when it is a sparse one-cell chunk
    /// (`chunk` is then `None`).
    one: Option<(usize, &'a T)>,
    /// In a row through a one-cell chunk's cell: the cell, and the defaults after it, to
    /// yield once the defaults before it are done.
    pending: Option<(&'a T, usize)>,
    row: std::slice::Iter<'a, T>,
    /// Cells of the current row still to yield as the default (unwritten chunk).
    defaults: usize,
    done: bool,
}

impl<'a, T: Clone + PartialEq> BoxIter<'a, T> {
    /// Set up the chunk at (cx, cy, z) and its first row.
    fn enter_chunk(&mut self) {
        let a = self.area;
        let found =
            self.grid
                .find_chunk([i64::from(self.cx), i64::from(self.cy), i64::from(self.z)]);
        (self.chunk, self.one) = match found {
            Some(ChunkRef::Full(c)) => (
                Some(ChunkRows {
                    cells: &c.cells,
                    start: 0,
                    stride: SIDE as usize,
                }),
                None,
            ),
            Some(ChunkRef::One(i, v, _)) => (None, Some((usize::from(i), v))),
            None => (None, None),
        };
        self.x0 = a.min.x.max(self.cx << CHUNK_BITS);
        self.y = a.min.y.max(self.cy << CHUNK_BITS);
        self.y1 = a.max.y.min((self.cy << CHUNK_BITS).saturating_add(SIDE));
        self.load_row();
    }

    fn row_width(&self) -> usize {
        let x1 = self
            .area
            .max
            .x
            .min((self.cx << CHUNK_BITS).saturating_add(SIDE));
        (x1 - self.x0).max(0) as usize
    }

    fn load_row(&mut self) {
        let width = self.row_width();
        self.x = self.x0;
        match self.chunk {
            Some(c) => self.row = c.row(self.y, self.x0, width).iter(),
            None => {
                self.row = [].iter();
                self.defaults = width;
                // A row through a one-cell chunk's cell: the defaults before the cell, then
                // (from `advance`) the cell and the defaults after it.
                if let Some((i, v)) = self.one
                    && i / CELLS_PER_ROW == (self.y & MASK) as usize
                {
                    let first = (self.x0 & MASK) as usize;
                    let col = i % CELLS_PER_ROW;
                    if (first..first + width).contains(&col) {
                        self.defaults = col - first;
                        self.pending = Some((v, first + width - col - 1));
                    }
                }
            }
        }
    }

    /// Move to the next row, chunk or level; false when the box is exhausted.
    #[cold]
    fn advance(&mut self) -> bool {
        if let Some((v, after)) = self.pending.take() {
            self.row = std::slice::from_ref(v).iter();
            self.defaults = after;
            return true;
        }
        if self.done {
            return false;
        }
        self.y += 1;
        if self.y < self.y1 {
            self.load_row();
            return true;
        }
        let a = self.area;
        self.cx += 1;
        if self.cx > (a.max.x - 1) >> CHUNK_BITS {
            self.cx = a.min.x >> CHUNK_BITS;
            self.cy += 1;
            if self.cy > (a.max.y - 1) >> CHUNK_BITS {
                self.cy = a.min.y >> CHUNK_BITS;
                if self.z >= a.max.z - 1 {
                    self.done = true;
                    return false;
                }
                self.z += 1;
            }
        }
        self.enter_chunk();
        true
    }
}

impl<'a, T: Clone + PartialEq> Iterator for BoxIter<'a, T> {
    type Item = (Loc, &'a T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(v) = self.row.next() {
                let l = Loc::new(self.x, self.y, self.z);
                self.x += 1;
                return Some((l, v));
            }
            if self.defaults > 0 {
                self.defaults -= 1;
                let l = Loc::new(self.x, self.y, self.z);
                self.x += 1;
                return Some((l, &self.grid.default));
            }
            if !self.advance() {
                return None;
            }
        }
    }

    /// Internal iteration (what `for_each`, `sum`, `count`… use): whole chunks at a time when
    /// the box spans a chunk's full width, row slices otherwise.
    fn fold<B, F>(mut self, init: B, mut f: F) -> B
    where
        F: FnMut(B, Self::Item) -> B,
    {
        let mut acc = init;
        loop {
            // The rest of the current row (or of its part before a one-cell chunk's cell).
            let (y, z) = (self.y, self.z);
            let row = std::mem::replace(&mut self.row, [].iter());
            let x = self.x + row.len() as i32;
            acc = row
                .zip(self.x..)
                .fold(acc, |acc, (v, x)| f(acc, (Loc::new(x, y, z), v)));
            let d = &self.grid.default;
            let defaults = std::mem::take(&mut self.defaults) as i32;
            for dx in 0..defaults {
                acc = f(acc, (Loc::new(x + dx, y, z), d));
            }
            self.x = x + defaults;
            // The remaining rows of this chunk, as one run when they are full-width (a
            // one-cell chunk goes row by row).
            let full_width =
                self.x0 & MASK == 0 && self.row_width() == SIDE as usize && self.one.is_none();
            if full_width && self.y + 1 < self.y1 {
                let (y0, y1, x0) = (self.y + 1, self.y1, self.x0);
                if let Some(c) = self.chunk {
                    for y in y0..y1 {
                        acc = c
                            .row(y, x0, SIDE as usize)
                            .iter()
                            .zip(x0..)
                            .fold(acc, |acc, (v, x)| f(acc, (Loc::new(x, y, z), v)));
                    }
                } else {
                    let d = &self.grid.default;
                    for i in 0..(y1 - y0) * SIDE {
                        acc = f(
                            acc,
                            (Loc::new(x0 + (i & MASK), y0 + (i >> CHUNK_BITS), z), d),
                        );
                    }
                }
                self.y = y1 - 1;
            }
            if !self.advance() {
                return acc;
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let here = self.row.len() + self.defaults;
        if self.done {
            (here, Some(here))
        } else {
            (here, None)
        }
    }
}

impl<T: Clone + PartialEq + Default> Default for Grid<T> {
    fn default() -> Self {
        Grid::new(T::default())
    }
}

impl<T: Clone + PartialEq> PartialEq for Grid<T> {
    /// Cell-by-cell equality (independent of where each grid keeps its chunks). Θ(1) when
    /// both share storage; else a level whose array both share is skipped whole, and every
    /// other chunk is looked up in the other grid, a shared chunk compared by address and any
    /// other cell by cell.
    fn eq(&self, other: &Self) -> bool {
        if self.default != other.default {
            return false;
        }
        if self.ptr_eq(other) {
            return true;
        }
        // A level whose box and array both grids share holds the same chunks in both: its
        // chunks need no comparison (chunks of its z outside the box are compared below).
        let shared = |at: [i64; 3]| match (self.level_at(at[2]), other.level_at(at[2])) {
            (Some(a), Some(b)) => {
                a.width() > 0
                    && a.first == b.first
                    && std::ptr::eq(&a.rows.header, &b.rows.header)
                    && a.index(at[0], at[1]).is_some()
            }
            _ => false,
        };
        let blank = |c: ChunkRef<'_, T>| c.is_default(&self.default);
        for (at, c) in self.all_chunks() {
            if shared(at) {
                continue;
            }
            let same = match other.find_chunk(at) {
                Some(o) => o.same_cells(c),
                None => blank(c),
            };
            if !same {
                return false;
            }
        }
        other
            .all_chunks()
            .into_iter()
            .all(|(at, c)| shared(at) || self.find_chunk(at).is_some() || blank(c))
    }
}

impl<T: Clone + PartialEq + Hash> Hash for Grid<T> {
    /// Hashes the default and every non-default cell in canonical order, so equal grids hash
    /// equally whatever their layouts.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.default.hash(state);
        for (corner, chunk) in self.chunks_sorted() {
            for (i, v) in chunk.set_cells(&self.default) {
                let x = corner.x + (i % CELLS_PER_ROW) as i32;
                let y = corner.y + (i / CELLS_PER_ROW) as i32;
                // The bytes `Loc::hash` writes (x, y, z as i32, little end first), with x
                // and y in one word.
                state.write_u64(u64::from(x as u32) | (u64::from(y as u32) << 32));
                state.write_i32(corner.z);
                v.hash(state);
            }
        }
    }
}

impl<T: Clone + PartialEq + fmt::Debug> fmt::Debug for Grid<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Grid")
            .field("default", &self.default)
            .field("written_chunks", &self.chunks_sorted().len())
            .field("bounds", &self.bounds())
            .finish()
    }
}

/// Serialized form: the default and the non-default chunks in canonical order.
#[derive(Serialize, Deserialize)]
struct GridRepr<T> {
    default: T,
    chunks: Vec<ChunkRepr<T>>,
}

#[derive(Serialize, Deserialize)]
struct ChunkRepr<T> {
    x: i32,
    y: i32,
    z: i32,
    cells: Vec<T>,
}

impl<T: Clone + PartialEq + Serialize> Serialize for Grid<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let repr = GridRepr {
            default: self.default.clone(),
            chunks: self
                .chunks_sorted()
                .into_iter()
                .map(|(c, chunk)| ChunkRepr {
                    x: c.x,
                    y: c.y,
                    z: c.z,
                    // A one-cell chunk as the whole chunk it stands for: the same bytes.
                    cells: (0..CELLS).map(|i| chunk.cell(i).clone()).collect(),
                })
                .collect(),
        };
        repr.serialize(s)
    }
}

impl<'de, T: Clone + PartialEq + Deserialize<'de>> Deserialize<'de> for Grid<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let repr = GridRepr::<T>::deserialize(d)?;
        let mut g = Grid::new(repr.default);
        for c in repr.chunks {
            if c.cells.len() != CELLS {
                return Err(D::Error::custom(format!(
                    "grid chunk at ({}, {}, {}) has {} cells, expected {CELLS}",
                    c.x,
                    c.y,
                    c.z,
                    c.cells.len()
                )));
            }
            if c.x & MASK != 0 || c.y & MASK != 0 {
                return Err(D::Error::custom(format!(
                    "grid chunk corner ({}, {}) is not aligned to {SIDE}",
                    c.x, c.y
                )));
            }
            let at = chunk_of(Loc::new(c.x, c.y, c.z));
            let mut set = c.cells.iter().enumerate().filter(|(_, v)| **v != g.default);
            if let (Some((i, v)), None) = (set.next(), set.next())
                && g.find_chunk(at).is_none()
            {
                // One cell set in a new chunk: written as `set_mut` would (a sparse chunk
                // keeps just the cell).
                let (dx, dy) = ((i % CELLS_PER_ROW) as i32, (i / CELLS_PER_ROW) as i32);
                g.set_mut(Loc::new(c.x + dx, c.y + dy, c.z), v.clone());
                continue;
            }
            g.chunk_mut(at, |chunk| {
                for (dst, src) in chunk.cells.iter_mut().zip(c.cells) {
                    *dst = src;
                }
            });
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_apart_writes_stay_sparse() {
        let mut g = Grid::new(0u8);
        let corners = [
            Loc::new(i32::MIN, i32::MIN, i32::MIN),
            Loc::new(i32::MAX, i32::MAX, i32::MAX),
            Loc::new(0, 0, 0),
            Loc::new(-1, -1, -1),
        ];
        for (i, l) in corners.iter().enumerate() {
            g.set_mut(*l, i as u8 + 1);
        }
        for (i, l) in corners.iter().enumerate() {
            assert_eq!(*g.get(*l), i as u8 + 1, "{l}");
        }
        assert_eq!(*g.get(Loc::new(1, 1, 1)), 0);
        assert_eq!(g.iter_set().count(), 4);
        g.check_invariants().unwrap();
    }

    #[test]
    fn persistence_and_equality() {
        let a = Grid::new(0i32).fill_box(LocBox::rect(-20, -20, 50, 40, 0), 3);
        let b = a.set(Loc::new(1, 1, 0), 9);
        assert_eq!(*a.get(Loc::new(1, 1, 0)), 3);
        assert_eq!(*b.get(Loc::new(1, 1, 0)), 9);
        assert_ne!(a, b);
        let c = b.set(Loc::new(1, 1, 0), 3);
        assert_eq!(a, c);
        // Equal regardless of layout: a default write far away adds a sparse chunk.
        let d = a.set(Loc::new(100_000, 0, 5), 0);
        assert_eq!(a, d);
        // Several levels, most shared between versions: a change on one level (or outside a
        // shared level's box) is seen, and undoing it gives an equal grid again.
        let e =
            Grid::new(0i32).fill_box(LocBox::new(Loc::new(-20, -20, -2), Loc::new(30, 20, 3)), 1);
        for (l, v) in [
            (Loc::new(5, 5, 1), 4),
            (Loc::new(-20, 19, -2), 0),
            (Loc::new(500, 500, 0), 6),
            (Loc::new(i32::MIN, 0, 2), 7),
        ] {
            let f = e.set(l, v);
            assert_ne!(e, f, "{l}");
            assert_ne!(f, e, "{l}");
            let old = *e.get(l);
            assert_eq!(e, f.set(l, old), "{l}");
            assert_eq!(f.set(l, old), e, "{l}");
        }
    }

    #[test]
    fn iter_box_visits_every_cell_once() {
        let g = Grid::new(0u32).set(Loc::new(17, 3, 0), 5);
        let area = LocBox::rect(-3, -2, 40, 20, 0);
        let cells: Vec<(Loc, u32)> = g.iter_box(area).map(|(l, v)| (l, *v)).collect();
        assert_eq!(cells.len() as u64, area.volume());
        let mut locs: Vec<Loc> = cells.iter().map(|c| c.0).collect();
        locs.sort();
        locs.dedup();
        assert_eq!(locs.len() as u64, area.volume());
        assert!(cells.contains(&(Loc::new(17, 3, 0), 5)));
        assert_eq!(cells.iter().filter(|c| c.1 == 5).count(), 1);
    }

    #[test]
    fn fold_over_whole_chunks_matches_next() {
        let mut g = Grid::new(0u32);
        for (i, l) in LocBox::rect(-16, 0, 48, 32, 0).iter().enumerate() {
            if l.x < 16 || l.y >= 16 {
                g.set_mut(l, i as u32 + 1);
            }
        }
        for area in [
            LocBox::rect(-32, -16, 96, 64, 0),
            LocBox::new(Loc::new(-16, 0, -1), Loc::new(32, 32, 2)),
            LocBox::rect(-5, 3, 40, 30, 0),
            LocBox::rect(16, 0, 16, 16, 0),
        ] {
            let by_next: Vec<(Loc, u32)> = g.iter_box(area).map(|(l, v)| (l, *v)).collect();
            let mut by_fold = Vec::new();
            g.iter_box(area).for_each(|(l, v)| by_fold.push((l, *v)));
            assert_eq!(by_fold, by_next);
            // Folding after a few steps: the started chunk is not taken whole.
            let mut it = g.iter_box(area);
            let mut late: Vec<(Loc, u32)> = it.by_ref().take(3).map(|(l, v)| (l, *v)).collect();
            it.for_each(|(l, v)| late.push((l, *v)));
            assert_eq!(late, by_next);
        }
    }

    #[test]
    fn serde_round_trip_and_bad_input() {
        let g = Grid::new(0u16)
            .fill_box(LocBox::rect(-5, -5, 30, 30, -1), 2)
            .set(Loc::new(3, 3, 4), 7);
        let json = serde_json::to_string(&g).unwrap();
        let back: Grid<u16> = serde_json::from_str(&json).unwrap();
        assert_eq!(g, back);
        let bad = r#"{"default":0,"chunks":[{"x":0,"y":0,"z":0,"cells":[1,2]}]}"#;
        let err = serde_json::from_str::<Grid<u16>>(bad).unwrap_err();
        assert!(err.to_string().contains("expected 256"), "{err}");
        let unaligned = format!(
            r#"{{"default":0,"chunks":[{{"x":3,"y":0,"z":0,"cells":{:?}}}]}}"#,
            vec![0; 256]
        );
        assert!(serde_json::from_str::<Grid<u16>>(&unaligned).is_err());
    }

    #[test]
    fn hash_is_the_default_then_every_set_cell() {
        // The hash streams the same bytes as hashing each (location, value) in turn.
        use crate::hash::StableHasher;
        let g = Grid::new(0u16)
            .fill_box(LocBox::rect(-40, -30, 75, 50, -3), 2)
            .set(Loc::new(i32::MIN, i32::MAX, 4), 7)
            .set(Loc::new(-1, -1, -1), 0);
        let mut want = StableHasher::new();
        0u16.hash(&mut want);
        for (l, v) in g.iter_set() {
            l.hash(&mut want);
            v.hash(&mut want);
        }
        let mut got = StableHasher::new();
        g.hash(&mut got);
        assert_eq!(got.finish(), want.finish());
    }

    #[test]
    fn a_view_reads_like_the_grid_inside_and_outside_its_box() {
        let mut g = Grid::new(0u32);
        let mut x: u64 = 7;
        for i in 0..3000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let l = Loc::new(
                (x % 90) as i32 - 40,
                ((x >> 8) % 70) as i32 - 30,
                (x >> 16) as i32 % 3,
            );
            g.set_mut(l, i + 1);
        }
        g.set_mut(Loc::new(i32::MAX, i32::MIN, 1), 5);
        for area in [
            LocBox::rect(-17, -9, 50, 33, 0),
            LocBox::rect(3, 3, 0, 5, 0),
            LocBox::new(
                Loc::new(i32::MIN, i32::MIN, 0),
                Loc::new(i32::MAX, i32::MAX, 2),
            ),
        ] {
            let v = g.view(area);
            for y in -45..55 {
                for x in -55..65 {
                    for z in -2..4 {
                        let l = Loc::new(x, y, z);
                        assert_eq!(v.get(l), g.get(l), "{l} in view of {area:?}");
                    }
                }
            }
            assert_eq!(*v.get(Loc::new(i32::MAX, i32::MIN, 1)), 5);
        }
        g.check_invariants().unwrap();
    }

    /// A read through `find_chunk` (the chunk-level lookup iteration uses), the reference
    /// `get`'s fast path must agree with.
    fn walk<T: Clone + PartialEq>(g: &Grid<T>, l: Loc) -> &T {
        g.find_chunk(chunk_of(l))
            .map_or(&g.default, |c| c.cell(cell_index(l)))
    }

    #[test]
    fn reads_match_a_map_across_writes_versions_and_layouts() {
        use std::collections::HashMap;
        let mut g = Grid::new(0u32);
        let mut o: HashMap<Loc, u32> = HashMap::new();
        let mut x: u64 = 11;
        let mut versions = Vec::new();
        let mut far: Vec<Loc> = Vec::new();
        for step in 0..40u32 {
            for k in 0..50 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // From step 30, some writes land anywhere in the i32 range (sparse chunks,
                // one-cell ones first), and some in the chunk of an earlier such write (the
                // same cell again, or another one, which makes the chunk full).
                let l = if step >= 30 && (k == 0 || x.is_multiple_of(89)) {
                    let l = Loc::new(x as i32, (x >> 32) as i32, (x >> 8) as i32 % 4);
                    far.push(l);
                    l
                } else if step >= 30 && k % 5 == 3 && !far.is_empty() {
                    let p = far[(x >> 20) as usize % far.len()];
                    let (dx, dy) = if x.is_multiple_of(3) {
                        (0, 0)
                    } else {
                        ((x >> 4) as i32 & MASK, (x >> 12) as i32 & MASK)
                    };
                    Loc::new(p.x ^ dx, p.y ^ dy, p.z)
                } else {
                    Loc::new(
                        (x % 100) as i32 - 50,
                        ((x >> 8) % 60) as i32 - 9,
                        (x >> 16) as i32 % 3,
                    )
                };
                let v = (x >> 40) as u32 % 7;
                if step % 2 == 0 {
                    g = g.set(l, v);
                } else {
                    g.set_mut(l, v);
                }
                o.insert(l, v);
            }
            for y in -60..70 {
                for x in -60..60 {
                    for z in -3..4 {
                        let l = Loc::new(x, y, z);
                        assert_eq!(*g.get(l), o.get(&l).copied().unwrap_or(0), "{l}");
                        assert_eq!(g.get(l), walk(&g, l), "{l}");
                    }
                }
            }
            for (l, v) in &o {
                assert_eq!(g.get(*l), v, "{l}");
                assert_eq!(walk(&g, *l), v, "{l}");
            }
            // Equal to (and hashed as) the same cells written as boxes, in another order:
            // no one-cell chunks there.
            let mut boxes = Grid::new(0u32);
            for (l, v) in g.iter_set().collect::<Vec<_>>().into_iter().rev() {
                boxes.fill_box_mut(LocBox::rect(l.x, l.y, 1, 1, l.z), *v);
            }
            assert!(boxes.far.values().all(|c| matches!(c, FarChunk::Full(_))));
            assert_eq!(g, boxes, "step {step}");
            assert_eq!(stable_hash(&g), stable_hash(&boxes), "step {step}");
            // The compact part is in the levels' arrays.
            assert!(g.in_level_array([0, 0, 0]), "step {step}");
            g.check_invariants().unwrap();
            versions.push((g.clone(), o.clone()));
        }
        for (g, o) in &versions {
            for (l, v) in o {
                assert_eq!(g.get(*l), v, "{l}");
            }
            g.check_invariants().unwrap();
        }
        // Both kinds of sparse chunk were made.
        let last = &versions[versions.len() - 1].0;
        assert!(last.far.values().any(|c| matches!(c, FarChunk::One(..))));
        assert!(last.far.values().any(|c| matches!(c, FarChunk::Full(_))));
    }

    #[test]
    fn sparse_chunks_move_into_a_level_array_as_it_fills() {
        let mut g = Grid::new(0u8);
        // Two chunks far apart on level -2: the second is too far for the first's array.
        g.set_mut(Loc::new(-1, -1, -2), 1);
        g.set_mut(Loc::new(16 * 40 + 5, 16 * 30 + 5, -2), 2);
        assert!(g.in_level_array([-1, -1, -2]));
        assert!(!g.in_level_array([40, 30, -2]));
        g.check_invariants().unwrap();
        let sparse = g.clone();
        // Filling the space between them (up to the far chunk's corner cell) grows the array
        // until it takes the far chunk in.
        g.fill_box_mut(
            LocBox::new(
                Loc::new(-16, -16, -2),
                Loc::new(16 * 40 + 1, 16 * 30 + 1, -1),
            ),
            3,
        );
        assert!(g.in_level_array([40, 30, -2]));
        assert!(g.far.is_empty(), "the sparse store emptied");
        g.check_invariants().unwrap();
        assert_eq!(*g.get(Loc::new(16 * 40 + 5, 16 * 30 + 5, -2)), 2);
        assert_eq!(*g.get(Loc::new(16 * 40, 16 * 30, -2)), 3);
        assert_eq!(*g.get(Loc::new(-1, -1, -2)), 3);
        assert_eq!(*g.get(Loc::new(16 * 40 + 16, 0, -2)), 0);
        // The older value still reads as it did, its far chunk still sparse.
        assert_eq!(*sparse.get(Loc::new(16 * 40 + 5, 16 * 30 + 5, -2)), 2);
        assert_eq!(*sparse.get(Loc::new(0, 0, -2)), 0);
        assert!(!sparse.in_level_array([40, 30, -2]));
        sparse.check_invariants().unwrap();
        // Levels far from the others go to the sparse store; the near ones stay in arrays.
        for z in [i32::MIN, i32::MAX, 1_000_000] {
            g.set_mut(Loc::new(i32::MIN, i32::MAX, z), 4);
            assert!(!g.in_level_array(chunk_of(Loc::new(i32::MIN, i32::MAX, z))));
            assert_eq!(*g.get(Loc::new(i32::MIN, i32::MAX, z)), 4);
            assert_eq!(*g.get(Loc::new(i32::MAX, i32::MIN, z)), 0);
        }
        assert!(g.in_level_array([0, 0, -2]));
        g.check_invariants().unwrap();
        // Equal to the same cells written in another order (another layout).
        let mut h = Grid::new(0u8);
        for (l, v) in g.iter_set().collect::<Vec<_>>().into_iter().rev() {
            h.set_mut(l, *v);
        }
        assert_eq!(g, h);
        h.check_invariants().unwrap();
    }

    #[test]
    fn a_level_written_in_scattered_order_ends_in_its_array() {
        // One cell in each chunk of a 48 × 48-chunk level, in a scattered order: chunks far
        // from the level's box go to the sparse store first, and the box, growing as its
        // own chunks allow, takes them all in by the end.
        let n = 48i64;
        let mut order: Vec<i64> = (0..n * n).collect();
        let mut seed = 0x9E37_79B9u64;
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let mut g = Grid::new(0u16);
        let mut most_far = 0;
        for (k, c) in order.iter().enumerate() {
            let l = Loc::new((c % n * 16 + 3) as i32, (c / n * 16 + 5) as i32, 1);
            g.set_mut(l, k as u16 + 1);
            most_far = most_far.max(g.far.len());
        }
        g.check_invariants().unwrap();
        assert!(g.far.is_empty(), "{} chunks left sparse", g.far.len());
        // Most of them in the array all along (415 sparse at most when this was written).
        assert!(most_far < (n * n / 4) as usize, "{most_far}");
        for (k, c) in order.iter().enumerate() {
            let l = Loc::new((c % n * 16 + 3) as i32, (c / n * 16 + 5) as i32, 1);
            assert_eq!(*g.get(l), k as u16 + 1);
        }
    }

    /// Whether the chunk of `l` is a sparse one-cell chunk.
    fn is_one<T: Clone + PartialEq>(g: &Grid<T>, l: Loc) -> bool {
        matches!(
            g.far.get(&ChunkKey::of(chunk_of(l))),
            Some(FarChunk::One(..))
        )
    }

    /// Whether the chunk of `l` is a full chunk of the sparse store.
    fn is_full_far<T: Clone + PartialEq>(g: &Grid<T>, l: Loc) -> bool {
        matches!(
            g.far.get(&ChunkKey::of(chunk_of(l))),
            Some(FarChunk::Full(..))
        )
    }

    /// A grid with a level array at the origin and one isolated cell far from it (a sparse
    /// one-cell chunk), with the cell.
    fn origin_and_one_far_cell() -> (Grid<u16>, Loc) {
        let mut g = Grid::new(0u16);
        g.set_mut(Loc::new(1, 2, 0), 1);
        let far = Loc::new(16 * 1000 + 5, 16 * 3 + 7, 0);
        g.set_mut(far, 7);
        (g, far)
    }

    fn stable_hash<T: Hash>(v: &T) -> u64 {
        let mut h = crate::hash::StableHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn an_isolated_sparse_cell_is_kept_as_the_cell() {
        let (mut g, far) = origin_and_one_far_cell();
        assert!(g.in_level_array([0, 0, 0]));
        assert!(!g.in_level_array(chunk_of(far)));
        assert!(is_one(&g, far));
        assert_eq!(g.chunk_count, 2);
        g.check_invariants().unwrap();
        assert_eq!(*g.get(far), 7);
        assert_eq!(walk(&g, far), &7);
        // The rest of its chunk, and the chunks around it, read as the default.
        let corner = Loc::new(far.x & !MASK, far.y & !MASK, 0);
        for dy in -1..=SIDE {
            for dx in -1..=SIDE {
                let l = Loc::new(corner.x + dx, corner.y + dy, 0);
                if l != far {
                    assert_eq!(*g.get(l), 0, "{l}");
                    assert_eq!(walk(&g, l), &0, "{l}");
                }
            }
        }
        assert_eq!(*g.get(Loc::new(far.x, far.y, 1)), 0);
        // Writing the same cell again keeps it one cell, in place and persistently.
        let before = g.clone();
        g.set_mut(far, 9);
        assert!(is_one(&g, far));
        assert_eq!(*g.get(far), 9);
        assert_eq!(*before.get(far), 7);
        let h = g.set(far, 11);
        assert!(is_one(&h, far));
        assert_eq!((*g.get(far), *h.get(far)), (9, 11));
        assert_eq!(g.chunk_count, 2);
        assert_eq!(h.chunk_count, 2);
        // Writing the default there leaves a one-cell chunk of the default: no set cell.
        g.set_mut(far, 0);
        assert!(is_one(&g, far));
        assert_eq!(*g.get(far), 0);
        assert_eq!(
            g.iter_set().map(|(l, v)| (l, *v)).collect::<Vec<_>>(),
            vec![(Loc::new(1, 2, 0), 1)]
        );
        assert_eq!(g.bounds(), Some(LocBox::rect(0, 0, 16, 16, 0)));
        for v in [&before, &g, &h] {
            v.check_invariants().unwrap();
        }
        assert_eq!(
            h.iter_set().map(|(l, v)| (l, *v)).collect::<Vec<_>>(),
            vec![(Loc::new(1, 2, 0), 1), (far, 11)]
        );
        assert_eq!(
            h.bounds(),
            Some(LocBox::new(
                Loc::new(0, 0, 0),
                Loc::new(16 * 1001, 16 * 4, 1)
            ))
        );
        // A far level is sparse too.
        let top = Loc::new(-3, 4, 1_000_000);
        let k = h.set(top, 3);
        assert!(is_one(&k, top));
        assert_eq!(*k.get(top), 3);
        assert_eq!(*k.get(Loc::new(-2, 4, 1_000_000)), 0);
        k.check_invariants().unwrap();
        assert!(format!("{k:?}").contains("written_chunks: 3"), "{k:?}");
    }

    #[test]
    fn a_second_cell_turns_a_one_cell_chunk_full() {
        let (a, far) = origin_and_one_far_cell();
        let next = Loc::new(far.x - 5, far.y + 8, 0);
        assert_eq!(chunk_of(next), chunk_of(far));
        // Persistently, then in place: the same cells, the older value unchanged.
        let b = a.set(next, 4);
        let mut c = a.clone();
        c.set_mut(next, 4);
        for g in [&b, &c] {
            assert!(is_full_far(g, far));
            assert_eq!((*g.get(far), *g.get(next)), (7, 4));
            assert_eq!(walk(g, far), &7);
            assert_eq!(walk(g, next), &4);
            assert_eq!(*g.get(Loc::new(far.x + 1, far.y, 0)), 0);
            assert_eq!(g.chunk_count, 2);
            g.check_invariants().unwrap();
        }
        assert_eq!(b, c);
        assert!(is_one(&a, far));
        assert_eq!((*a.get(far), *a.get(next)), (7, 0));
        a.check_invariants().unwrap();
        // A box written over a one-cell chunk (even one cell of it) makes it full too.
        let d = a.fill_box(LocBox::rect(far.x + 1, far.y, 1, 1, 0), 5);
        assert!(is_full_far(&d, far));
        assert_eq!(*d.get(far), 7);
        assert_eq!(*d.get(Loc::new(far.x + 1, far.y, 0)), 5);
        assert_eq!(d.chunk_count, 2);
        d.check_invariants().unwrap();
        assert!(is_one(&a, far));
    }

    #[test]
    fn one_cell_chunks_compare_and_hash_like_full_ones() {
        let (a, far) = origin_and_one_far_cell();
        // The same cells, the far one written by a box (a full chunk), in the other order.
        let mut b = Grid::new(0u16);
        b.fill_box_mut(LocBox::rect(far.x, far.y, 1, 1, 0), 7);
        b.set_mut(Loc::new(1, 2, 0), 1);
        assert!(b.in_level_array(chunk_of(far)) || is_full_far(&b, far));
        // Or in a full sparse chunk where a second cell was written and cleared again.
        let other = Loc::new(far.x + 1, far.y, 0);
        let c = a.set(other, 3).set(other, 0);
        assert!(is_full_far(&c, far));
        for g in [&b, &c] {
            g.check_invariants().unwrap();
            assert_eq!(&a, g);
            assert_eq!(g, &a);
            assert_eq!(stable_hash(&a), stable_hash(g));
        }
        // Another value, or the value at another cell of the chunk: different.
        for (l, v) in [(far, 8), (other, 7)] {
            let mut d = Grid::new(0u16);
            d.set_mut(Loc::new(1, 2, 0), 1);
            d.set_mut(l, v);
            assert!(is_one(&d, far));
            for g in [&a, &b, &c] {
                assert_ne!(&d, g, "{l}");
                assert_ne!(g, &d, "{l}");
                assert_ne!(stable_hash(&d), stable_hash(g), "{l}");
            }
        }
        // A one-cell chunk of the default is no chunk at all.
        let e = a.set(Loc::new(-16 * 500, 3, 0), 0);
        assert!(is_one(&e, Loc::new(-16 * 500, 3, 0)));
        assert_eq!(e, a);
        assert_eq!(a, e);
        assert_eq!(stable_hash(&e), stable_hash(&a));
        // Two one-cell chunks at different cells, both of the default: equal.
        let f = a.set(Loc::new(-16 * 500 + 1, 3, 0), 0);
        assert_eq!(e, f);
        // One cell against the same chunk holding it and another: different.
        let g = a.set(Loc::new(far.x, far.y + 1, 0), 2);
        assert_ne!(a, g);
        assert_ne!(g, a);
    }

    #[test]
    fn iter_box_through_a_one_cell_chunk_reads_like_get() {
        let (mut g, far) = origin_and_one_far_cell();
        // A second level holding the same far cell, and a level below holding a one-cell
        // chunk of the default there (each level's array at the origin).
        g.set_mut(Loc::new(0, 0, 1), 3);
        g.set_mut(Loc::new(far.x, far.y, 1), 6);
        g.set_mut(Loc::new(0, 0, -1), 2);
        g.set_mut(Loc::new(far.x + 1, far.y, -1), 0);
        g.check_invariants().unwrap();
        assert!(is_one(&g, Loc::new(far.x, far.y, 1)));
        assert!(is_one(&g, Loc::new(far.x, far.y, -1)));
        let cx = far.x & !MASK;
        let cy = far.y & !MASK;
        for area in [
            LocBox::new(Loc::new(cx - 20, cy - 3, -1), Loc::new(cx + 40, cy + 30, 2)),
            LocBox::rect(cx, cy, 16, 16, 0),
            LocBox::rect(cx, cy - 16, 16, 48, 0),
            LocBox::rect(cx - 16, cy, 48, 16, 1),
            LocBox::rect(far.x, far.y, 1, 1, 0),
            LocBox::rect(far.x, far.y, 3, 1, 0),
            LocBox::rect(far.x - 2, far.y, 3, 1, 0),
            LocBox::rect(far.x + 1, cy, 4, 16, 0),
            LocBox::rect(cx, far.y + 1, 16, 4, 0),
            LocBox::rect(far.x - 3, far.y - 3, 7, 7, 0),
        ] {
            let want: Vec<(Loc, u16)> = {
                let mut v: Vec<(Loc, u16)> = area.iter().map(|l| (l, *g.get(l))).collect();
                v.sort();
                v
            };
            // By hand (`next`: a `for` loop).
            let mut by_next = Vec::new();
            for (l, v) in g.iter_box(area) {
                assert_eq!(v, g.get(l), "{l}");
                by_next.push((l, *v));
            }
            let mut sorted = by_next.clone();
            sorted.sort();
            assert_eq!(sorted, want, "{area:?}");
            // Internally (`fold`): the same order, and the sum.
            let mut by_fold = Vec::new();
            g.iter_box(area).for_each(|(l, v)| by_fold.push((l, *v)));
            assert_eq!(by_fold, by_next, "{area:?}");
            let sum: u64 = g.iter_box(area).map(|(_, v)| u64::from(*v)).sum();
            assert_eq!(sum, want.iter().map(|(_, v)| u64::from(*v)).sum::<u64>());
            // Folding after some steps, also just before and after the one cell.
            for k in [0, 1, 2, 5, 17, 100] {
                let mut it = g.iter_box(area);
                let mut late: Vec<(Loc, u16)> = it.by_ref().take(k).map(|(l, v)| (l, *v)).collect();
                it.for_each(|(l, v)| late.push((l, *v)));
                assert_eq!(late, by_next, "{area:?} after {k}");
            }
            // Just before, at and after the one cell: `next` up to it, `fold` from there.
            if let Some(at) = by_next.iter().position(|(l, _)| *l == far) {
                for k in [at.saturating_sub(1), at, at + 1] {
                    let mut it = g.iter_box(area);
                    let head: Vec<(Loc, u16)> = it.by_ref().take(k).map(|(l, v)| (l, *v)).collect();
                    let rest: u64 = it.map(|(_, v)| u64::from(*v)).sum();
                    let before: u64 = head.iter().map(|(_, v)| u64::from(*v)).sum();
                    assert_eq!(before + rest, sum, "{area:?} after {k}");
                    let mut it = g.iter_box(area);
                    let mut late: Vec<(Loc, u16)> =
                        it.by_ref().take(k).map(|(l, v)| (l, *v)).collect();
                    it.for_each(|(l, v)| late.push((l, *v)));
                    assert_eq!(late, by_next, "{area:?} after {k}");
                }
            }
            assert_eq!(
                sum > 0,
                area.contains(far) || area.contains(Loc::new(far.x, far.y, 1))
            );
        }
    }

    #[test]
    fn a_one_cell_chunk_saves_as_its_full_chunk() {
        let (a, far) = origin_and_one_far_cell();
        let mut b = Grid::new(0u16);
        b.set_mut(Loc::new(1, 2, 0), 1);
        b.fill_box_mut(LocBox::rect(far.x, far.y, 1, 1, 0), 7);
        assert!(is_one(&a, far));
        assert!(is_full_far(&b, far));
        let json_a = serde_json::to_string(&a).unwrap();
        let json_b = serde_json::to_string(&b).unwrap();
        assert_eq!(json_a, json_b);
        let mut cells = vec![0u16; CELLS];
        cells[cell_index(far)] = 7;
        let chunk = format!(
            r#"{{"x":{},"y":{},"z":0,"cells":{}}}"#,
            far.x & !MASK,
            far.y & !MASK,
            serde_json::to_string(&cells).unwrap()
        );
        assert!(json_a.contains(&chunk), "{json_a}");
        assert_eq!(
            serde_json::to_vec_pretty(&a).unwrap(),
            serde_json::to_vec_pretty(&b).unwrap()
        );
        // Loaded back: equal, and the isolated cell is one cell again.
        for json in [&json_a, &json_b] {
            let back: Grid<u16> = serde_json::from_str(json).unwrap();
            back.check_invariants().unwrap();
            assert_eq!(back, a);
            assert_eq!(back, b);
            assert_eq!(*back.get(far), 7);
            assert!(is_one(&back, far));
            assert_eq!(serde_json::to_string(&back).unwrap(), json_a);
        }
        // A chunk with two cells loads as a full chunk.
        let two = a.set(Loc::new(far.x + 1, far.y, 0), 2);
        let back: Grid<u16> = serde_json::from_str(&serde_json::to_string(&two).unwrap()).unwrap();
        assert!(is_full_far(&back, far));
        assert_eq!(back, two);
        back.check_invariants().unwrap();
    }

    #[test]
    fn a_level_growing_over_a_one_cell_chunk_takes_it_in_full() {
        let mut g = Grid::new(0u16);
        g.set_mut(Loc::new(0, 0, 0), 1);
        let far = Loc::new(16 * 100 + 9, 3, 0);
        g.set_mut(far, 7);
        assert!(is_one(&g, far));
        let old = g.clone();
        // Filling the chunk row below it grows the level's box over the far chunk.
        g.fill_box_mut(LocBox::rect(0, 16, 16 * 102, 16, 0), 2);
        assert!(g.in_level_array(chunk_of(far)));
        assert!(g.far.is_empty());
        assert_eq!(*g.get(far), 7);
        assert_eq!(walk(&g, far), &7);
        assert_eq!(*g.get(Loc::new(far.x + 1, far.y, 0)), 0);
        assert_eq!(*g.get(Loc::new(far.x, 16, 0)), 2);
        assert_eq!(g.chunk_count, 1 + 102 + 1);
        g.check_invariants().unwrap();
        // The chunk is a full chunk of the array now: another cell in it is a plain write.
        g.set_mut(Loc::new(far.x + 1, far.y, 0), 5);
        assert_eq!((*g.get(far), *g.get(Loc::new(far.x + 1, far.y, 0))), (7, 5));
        g.check_invariants().unwrap();
        // The older value still holds it as one sparse cell.
        assert!(is_one(&old, far));
        assert_eq!(*old.get(far), 7);
        assert_eq!(*old.get(Loc::new(far.x, 16, 0)), 0);
        old.check_invariants().unwrap();
        // And it equals the same cells written the other way round.
        let mut h = Grid::new(0u16);
        for (l, v) in g.iter_set().collect::<Vec<_>>().into_iter().rev() {
            h.set_mut(l, *v);
        }
        assert_eq!(g, h);
        assert_eq!(stable_hash(&g), stable_hash(&h));
    }

    #[test]
    fn edges_of_the_i32_range_read_and_write() {
        let mut g = Grid::new(0u16);
        let edges = [
            i32::MIN,
            i32::MIN + 15,
            i32::MIN + 16,
            -17,
            -16,
            -1,
            0,
            15,
            16,
            i32::MAX - 16,
            i32::MAX,
        ];
        let mut n = 0;
        for &x in &edges {
            for &y in &edges {
                n += 1;
                g.set_mut(Loc::new(x, y, 0), n);
            }
        }
        g.check_invariants().unwrap();
        let mut n = 0;
        for &x in &edges {
            for &y in &edges {
                n += 1;
                assert_eq!(*g.get(Loc::new(x, y, 0)), n, "({x}, {y})");
                assert_eq!(*g.get(Loc::new(x, y, 1)), 0);
                assert_eq!(*g.get(Loc::new(x, y, -1)), 0);
            }
        }
        // A dense level at the top corner of the range.
        let corner = LocBox::new(
            Loc::new(i32::MAX - 40, i32::MAX - 40, i32::MAX - 1),
            Loc::new(i32::MAX, i32::MAX, i32::MAX),
        );
        let g = Grid::new(0u8).fill_box(corner, 9);
        assert!(g.in_level_array(chunk_of(Loc::new(i32::MAX - 1, i32::MAX - 1, i32::MAX - 1))));
        assert_eq!(
            *g.get(Loc::new(i32::MAX - 1, i32::MAX - 1, i32::MAX - 1)),
            9
        );
        assert_eq!(*g.get(Loc::new(i32::MAX, i32::MAX - 1, i32::MAX - 1)), 0);
        assert_eq!(*g.get(Loc::new(i32::MAX - 1, i32::MAX - 1, i32::MAX)), 0);
        g.check_invariants().unwrap();
    }

    #[test]
    #[allow(deprecated)]
    fn the_deprecated_directory_calls_do_nothing() {
        let mut g = Grid::new(0u8).set(Loc::new(1, 2, 0), 3);
        let before = g.clone();
        g.build_directory_mut();
        assert!(!g.has_directory());
        assert!(g.ptr_eq(&before));
        assert_eq!(*g.get(Loc::new(1, 2, 0)), 3);
    }

    #[test]
    fn grid_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Grid<u16>>();
        check::<Grid<std::sync::Arc<str>>>();
        // A view remembers its last chunk in a `Cell`: each thread makes its own.
        fn check_send<T: Send>() {}
        check_send::<GridView<'static, u16>>();
    }
}
