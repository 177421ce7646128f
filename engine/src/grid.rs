//! `Grid<T>`: a persistent, sparse 3D grid over the whole `i32` range.
//!
//! # Design
//! Cells live in chunks of 16 × 16 cells on one level (`z`). Chunks hang off a sparse octree
//! (fan-out 2 × 2 × 2 over chunk coordinates) whose root sits at a movable origin and grows
//! upward as far-away cells are written, so untouched space costs nothing and a compact world
//! is only a few levels deep (a 128 × 128 × 16 world: 4 levels).
//!
//! Every node and chunk is behind an [`Arc`]; a clone of the grid shares all of them. Writing
//! through a shared path copies exactly that path (one chunk and one small node per level) and
//! leaves every older grid value untouched. Writing as the sole owner ([`Grid::set_mut`])
//! mutates in place. The octree itself (descent, growth, box walk) lives in `octree.rs`. (The
//! cell index, `cells.rs`, keeps its own 2D tree per level instead: a read of one level must
//! not depend on what other levels hold.)
//!
//! Reads are far more frequent than writes (terrain changes rarely), so a grid can carry a
//! read directory, built on request with [`Grid::build_directory_mut`]. When the chunks fill
//! their bounding box (a game's terrain), it is a flat (z, y, x) copy of the box's cells, kept
//! in the grid value beside its box, so a read is a box check and one load; when they fill
//! only part of it, a flat array of the box's chunks, so a read is one directory load and one
//! cell load. Clones share the directory; any write drops it first (so a sole owner still
//! writes in place). Chunks scattered too widely for a flat box (over four times their number plus 1,024
//! slots) get a hashed directory instead: an open-addressing table of chunk coordinates, so a
//! read is one hash, usually one probe and one cell load, not a walk down a tall tree. The
//! directory is plain data in the value: no lazy cell, no counter, nothing changes behind
//! `&self`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::loc::{Loc, LocBox};
use crate::octree::{CELLS, CHUNK_BITS, MASK, Node, SIDE, Tree, cell_index, chunk_of, corner};

#[derive(Clone)]
pub(crate) struct Chunk<T> {
    cells: [T; CELLS],
}

/// A persistent 3D grid of `T`, sparse over the whole `i32` range; unset cells read as the
/// grid's default value.
///
/// Costs (n = cells written, h = tree height ≈ log₂ of the world's extent in chunks, ≤ 33):
/// - clone: Θ(1) (a reference-count increment for the tree, and one for each directory);
/// - [`get`](Grid::get): Θ(1) through the directory (once
///   [`build_directory_mut`](Grid::build_directory_mut) built it: Θ(chunks)), else Θ(h)
///   pointer hops. With a flat copy of the cells (a compact grid such as the terrain) a read
///   is three subtractions, two multiplications, the row and level checks, the x check and
///   one load; in a loop along a row the row is sliced once, leaving one comparison per cell
///   besides the load;
/// - [`set`](Grid::set) (persistent): Θ(h) — copies one 256-cell chunk and h small nodes,
///   each taking a reference to its (at most 7) other children; dropping the new value
///   releases them again;
/// - [`set_mut`](Grid::set_mut): Θ(h), in place when this value is the sole owner of the path;
/// - memory: the written chunks (256 cells each) plus ≈ 1/7 of a node per chunk, and once
///   built, the directory (shared by clones): a second copy of the cells when the chunks
///   fill their bounding box (at most one blank chunk slot per chunk, plus 8), else one
///   pointer per chunk slot of the box, or for scattered chunks 24 bytes per slot of a hash
///   table at most half full.
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
    tree: Tree<Chunk<T>>,
    /// Chunks written so far (sizes the directory's build threshold).
    chunk_count: usize,
    /// The flat copy of the cells, when `build_directory_mut` made one (then `dir` is
    /// `None`): kept in the grid itself, so a read's box check uses the grid's own fields.
    flat: CellDir<T>,
    /// A directory of every chunk, built by `build_directory_mut`, shared by clones, dropped
    /// by every write. `None`: not built, or the cells are in `flat`.
    dir: Option<Arc<Directory<T>>>,
}

/// A grid's read directory: a flat copy of the cells of the chunks' bounding box when the
/// chunks fill most of it, a flat array of chunk pointers when they fill a good part of it,
/// a hash table of chunk coordinates when they are scattered.
enum Directory<T> {
    /// Every cell of the bounding box in one array: a read is one cell load.
    Cells(CellDir<T>),
    /// Every chunk of the bounding box in one array.
    Flat(Dir<T>),
    /// Only the written chunks, by chunk coordinates.
    Hashed(HashDir<T>),
}

impl<T: Clone> Directory<T> {
    #[inline(always)]
    fn get<'a>(&'a self, loc: Loc, default: &'a T) -> &'a T {
        match self {
            Directory::Cells(d) => d.get(loc).unwrap_or(default),
            Directory::Flat(d) => d.get(loc),
            Directory::Hashed(h) => h.get(loc).unwrap_or(default),
        }
    }
}

/// The cells of a box of whole chunks, copied into one (z, y, x)-major array, like a flat
/// `Vec` indexed by location: what a compact grid that is read far more than it is written
/// (the game's terrain) reads through.
///
/// A read is three subtractions, the row check `dy < height`, the slicing of the row
/// (`dz · plane + dy · width`, `width` cells), whose bounds check is also the level check (it
/// is in bounds exactly when `dz` is below the number of levels; no overflow: `plane` ≤ 2³²,
/// so every index fits in a `u64`), and the row's own bounds check, which is the x check.
#[derive(Clone)]
struct CellDir<T> {
    /// The box's first cell.
    first: [i32; 3],
    /// Cells along x (0 when there is no copy).
    width: u32,
    /// Cells along y (0 when there is no copy).
    height: u32,
    /// Cells per level: `width · height`, at most 2³².
    plane: u64,
    /// The cells, shared by clones; `None` when there is no copy.
    cells: Option<Arc<[T]>>,
}

impl<T: Clone> CellDir<T> {
    /// No copy: every read misses. Θ(1), no allocation.
    fn none() -> Self {
        CellDir {
            first: [0; 3],
            width: 0,
            height: 0,
            plane: 0,
            cells: None,
        }
    }

    /// The cells of the chunks `found` over the box of chunks `lo..=hi` (`size` chunks along
    /// each axis); unwritten chunks of the box read as `default`. `None` when a level of the
    /// box would hold over 2³² cells (then the caller keeps the chunks instead).
    fn build(
        found: &[([i64; 3], &Arc<Chunk<T>>)],
        lo: [i64; 3],
        size: [u32; 3],
        default: &T,
    ) -> Option<Self> {
        let side = SIDE as usize;
        let width = u32::try_from(size[0] as usize * side).ok()?;
        let height = u32::try_from(size[1] as usize * side).ok()?;
        let plane = u64::from(width) * u64::from(height);
        if plane > 1 << 32 {
            return None;
        }
        let (w, h) = (width as usize, height as usize);
        let mut cells = vec![default.clone(); w.checked_mul(h)?.checked_mul(size[2] as usize)?];
        for (a, c) in found {
            let x0 = (a[0] - lo[0]) as usize * side;
            let y0 = (a[1] - lo[1]) as usize * side;
            let z = (a[2] - lo[2]) as usize;
            for (dy, row) in c.cells.chunks_exact(side).enumerate() {
                let start = (z * h + y0 + dy) * w + x0;
                if let Some(dst) = cells.get_mut(start..start + side) {
                    dst.clone_from_slice(row);
                }
            }
        }
        Some(CellDir {
            // Chunk coordinates of written cells come from i32 locations.
            first: [
                (lo[0] << CHUNK_BITS) as i32,
                (lo[1] << CHUNK_BITS) as i32,
                lo[2] as i32,
            ],
            width,
            height,
            plane,
            cells: Some(cells.into()),
        })
    }

    /// Whether there is a copy.
    #[inline(always)]
    fn is_some(&self) -> bool {
        self.cells.is_some()
    }

    /// The cell at `loc` when it lies in the box (always `None` without a copy).
    #[inline(always)]
    fn get(&self, loc: Loc) -> Option<&T> {
        let dx = loc.x.wrapping_sub(self.first[0]) as u32;
        let dy = loc.y.wrapping_sub(self.first[1]) as u32;
        let dz = loc.z.wrapping_sub(self.first[2]) as u32;
        let cells: &[T] = self.cells.as_deref().unwrap_or(&[]);
        // The row (dz, dy) as a slice, then the cell in it: in a loop along a row, the row's
        // checks and slicing are loop-invariant and hoisted, leaving the row's bounds check
        // (the x check) as the one comparison a cell. (Checking x, y and the whole index
        // instead costs two comparisons a cell in a scan: 2.9× a flat Vec, against 1.7–2.3×.)
        let start =
            (u64::from(dz) * self.plane).wrapping_add(u64::from(dy) * u64::from(self.width));
        let width = self.width as usize;
        let row = usize::try_from(start)
            .ok()
            .filter(|_| dy < self.height)
            // The level check is the row's bounds check (see the type's docs).
            .and_then(|s| cells.get(s..s.wrapping_add(width)));
        row.and_then(|r| r.get(dx as usize))
    }

    /// The cell at `loc`, or `default` outside the box (for a caller that knows the box holds
    /// every written cell, so a miss needs no call).
    #[inline(always)]
    fn get_or<'a>(&'a self, loc: Loc, default: &'a T) -> &'a T {
        self.get(loc).unwrap_or(default)
    }

    /// The cell at index `i` of the copy, with its location.
    fn loc_of(&self, i: usize) -> Loc {
        let (w, h) = (self.width as usize, self.height as usize);
        Loc::new(
            self.first[0].wrapping_add((i % w) as i32),
            self.first[1].wrapping_add((i / w % h) as i32),
            self.first[2].wrapping_add((i / (w * h)) as i32),
        )
    }
}

/// An open-addressing hash table (linear probing, at most half full) from chunk coordinates
/// to the grid's written chunks: a scattered grid's read is one hash, usually one probe and
/// one cell load, instead of a walk down a tall tree.
struct HashDir<T> {
    /// Chunk coordinates (x / 16, y / 16, z) of each slot; meaningful where `chunks` is set.
    keys: Box<[[i32; 3]]>,
    chunks: Box<[Option<Arc<Chunk<T>>>]>,
    /// `64 - log₂(slots)`: the hash's top bits pick the first slot.
    shift: u32,
}

impl<T> HashDir<T> {
    /// The first slot to probe for chunk coordinates `k` (a multiplicative hash: fixed, so
    /// reads are deterministic; the table is a read cache and never hashed or saved).
    #[inline(always)]
    fn home(&self, k: [i32; 3]) -> usize {
        const M: u64 = 0x9E37_79B9_7F4A_7C15;
        let xy = u64::from(k[0] as u32) | (u64::from(k[1] as u32) << 32);
        let h = (xy ^ u64::from(k[2] as u32).wrapping_mul(M).rotate_left(29)).wrapping_mul(M);
        (h >> self.shift) as usize
    }

    /// The table of these chunks (coordinates from `i32` cells, each once).
    fn build(found: &[([i64; 3], &Arc<Chunk<T>>)]) -> Self {
        let slots = (2 * found.len()).next_power_of_two().max(2);
        let mut d = HashDir {
            keys: vec![[0; 3]; slots].into(),
            chunks: (0..slots).map(|_| None).collect(),
            shift: 64 - slots.trailing_zeros(),
        };
        let mask = slots - 1;
        for (a, c) in found {
            let k = [a[0] as i32, a[1] as i32, a[2] as i32];
            let mut i = d.home(k);
            while d.chunks[i].is_some() {
                i = (i + 1) & mask;
            }
            d.keys[i] = k;
            d.chunks[i] = Some(Arc::clone(c));
        }
        d
    }

    /// The cell at `loc`, or `None` when its chunk was never written.
    #[inline(always)]
    fn get(&self, loc: Loc) -> Option<&T> {
        let k = [loc.x >> CHUNK_BITS, loc.y >> CHUNK_BITS, loc.z];
        let mask = self.chunks.len() - 1;
        let mut i = self.home(k);
        // At most half full: an empty slot ends every probe.
        loop {
            match self.chunks.get(i) {
                Some(Some(c)) => {
                    if self.keys.get(i) == Some(&k) {
                        return Some(&c.cells[cell_index(loc)]);
                    }
                }
                _ => return None,
            }
            i = (i + 1) & mask;
        }
    }
}

impl<T: Clone> Clone for Grid<T> {
    fn clone(&self) -> Self {
        Grid {
            default: self.default.clone(),
            tree: self.tree.clone(),
            chunk_count: self.chunk_count,
            flat: self.flat.clone(),
            dir: self.dir.clone(),
        }
    }
}

/// Every chunk of a grid in one flat array over the chunks' bounding box, so a read is one
/// directory load and one cell load; cells outside the box are unwritten.
struct Dir<T> {
    /// Chunk coordinates (x, y) and level of the box's first chunk.
    first: [i32; 3],
    /// Chunks along x and y, and levels.
    size: [u32; 3],
    /// One entry per chunk of the box, (z, y, x)-major; unwritten chunks share one chunk
    /// of default values, so a read inside the box never branches on absence.
    chunks: Box<[Arc<Chunk<T>>]>,
    /// The grid's default, for reads outside the box.
    default: T,
}

impl<T: Clone> Dir<T> {
    /// The directory of `tree`'s chunks: their cells copied when the chunks fill their
    /// bounding box but for at most as many blank chunk slots as chunks (plus 8), else the
    /// chunks in a flat array when the box holds at most four times as many slots as chunks
    /// (plus 1,024), else hashed.
    fn build(tree: &Tree<Chunk<T>>, count: usize, default: &T) -> Directory<T> {
        let mut found = Vec::with_capacity(count);
        let mut lo = [i64::MAX; 3];
        let mut hi = [i64::MIN; 3];
        /// A node still to visit: the node, its level and its corner in chunk coordinates.
        type Pending<'t, T> = (&'t Node<Chunk<T>>, u32, [i64; 3]);
        let mut stack: Vec<Pending<'_, T>> = Vec::new();
        if let Some(r) = tree.root.as_deref() {
            stack.push((r, tree.height - 1, tree.origin));
        }
        while let Some((n, level, at)) = stack.pop() {
            let child = |s: usize| {
                [
                    at[0] + (((s & 1) as i64) << level),
                    at[1] + ((((s >> 1) & 1) as i64) << level),
                    at[2] + ((((s >> 2) & 1) as i64) << level),
                ]
            };
            match n {
                Node::Inner(kids) => {
                    for (s, k) in kids.iter().enumerate() {
                        if let Some(k) = k {
                            stack.push((k, level.wrapping_sub(1), child(s)));
                        }
                    }
                }
                Node::Bottom(chunks) => {
                    for (s, c) in chunks.iter().enumerate() {
                        if let Some(c) = c {
                            let a = child(s);
                            for i in 0..3 {
                                lo[i] = lo[i].min(a[i]);
                                hi[i] = hi[i].max(a[i]);
                            }
                            found.push((a, c));
                        }
                    }
                }
            }
        }
        if found.is_empty() {
            lo = [0; 3];
            hi = [-1; 3];
        }
        let span = |a: usize| u64::try_from(hi[a] - lo[a] + 1).unwrap_or(0);
        let slots = span(0).saturating_mul(span(1)).saturating_mul(span(2));
        if slots > 4 * found.len() as u64 + 1024 {
            return Directory::Hashed(HashDir::build(&found));
        }
        let size = [span(0) as u32, span(1) as u32, span(2) as u32];
        if slots <= 2 * found.len() as u64 + 8
            && let Some(cells) = CellDir::build(&found, lo, size, default)
        {
            return Directory::Cells(cells);
        }
        let blank = Arc::new(Chunk {
            cells: std::array::from_fn(|_| default.clone()),
        });
        let mut chunks = vec![blank; slots as usize];
        for (a, c) in found {
            let i = ((a[2] - lo[2]) as u64 * u64::from(size[1]) + (a[1] - lo[1]) as u64)
                * u64::from(size[0])
                + (a[0] - lo[0]) as u64;
            chunks[i as usize] = Arc::clone(c);
        }
        Directory::Flat(Dir {
            // Chunk coordinates of written cells come from i32 locations.
            first: [lo[0] as i32, lo[1] as i32, lo[2] as i32],
            size,
            chunks: chunks.into(),
            default: default.clone(),
        })
    }

    /// The cell at `loc` when it lies in the directory's box.
    #[inline(always)]
    fn get_in(&self, loc: Loc) -> Option<&T> {
        let dx = (loc.x >> CHUNK_BITS).wrapping_sub(self.first[0]) as u32;
        let dy = (loc.y >> CHUNK_BITS).wrapping_sub(self.first[1]) as u32;
        let dz = loc.z.wrapping_sub(self.first[2]) as u32;
        if dx < self.size[0] && dy < self.size[1] && dz < self.size[2] {
            let i = (dz * self.size[1] + dy) * self.size[0] + dx;
            if let Some(c) = self.chunks.get(i as usize) {
                return Some(&c.cells[cell_index(loc)]);
            }
        }
        None
    }

    /// The cell at `loc` (outside the box: the default, as the box holds every chunk).
    #[inline(always)]
    fn get(&self, loc: Loc) -> &T {
        self.get_in(loc).unwrap_or(&self.default)
    }
}

impl<T: Clone + PartialEq> Grid<T> {
    /// An empty grid where every cell reads as `default`. Θ(1), no allocation.
    pub fn new(default: T) -> Self {
        Grid {
            default,
            tree: Tree::default(),
            chunk_count: 0,
            flat: CellDir::none(),
            dir: None,
        }
    }

    /// The value every unwritten cell reads as.
    #[must_use]
    pub fn default_value(&self) -> &T {
        &self.default
    }

    /// The cells of chunk `chunk` for iteration: from the flat copy when the grid carries
    /// one (it holds every written chunk, so a chunk outside its box is unwritten), else from
    /// the tree.
    fn chunk_rows(&self, chunk: [i64; 3]) -> Option<ChunkRows<'_, T>> {
        if let Some(cells) = self.flat.cells.as_deref() {
            let f = &self.flat;
            let dx = (chunk[0] << CHUNK_BITS) - i64::from(f.first[0]);
            let dy = (chunk[1] << CHUNK_BITS) - i64::from(f.first[1]);
            let dz = chunk[2] - i64::from(f.first[2]);
            let inside = (0..i64::from(f.width)).contains(&dx)
                && (0..i64::from(f.height)).contains(&dy)
                && dz >= 0;
            // Inside the box, dx < width, dy < height and the plane is at most 2³² cells.
            let start = inside
                .then(|| u64::try_from(dz).ok()?.checked_mul(f.plane))
                .flatten()
                .and_then(|s| s.checked_add(dy as u64 * u64::from(f.width) + dx as u64))
                .and_then(|s| usize::try_from(s).ok())
                .filter(|&s| s < cells.len());
            return start.map(|start| ChunkRows {
                cells,
                start,
                stride: f.width as usize,
            });
        }
        self.find_chunk(chunk).map(|c| ChunkRows {
            cells: &c.cells,
            start: 0,
            stride: SIDE as usize,
        })
    }

    #[inline(always)]
    fn find_chunk(&self, chunk: [i64; 3]) -> Option<&Chunk<T>> {
        self.tree.find(chunk)
    }

    /// The value at `loc` (the default when never written).
    #[inline]
    pub fn get(&self, loc: Loc) -> &T {
        if self.flat.is_some() {
            // The copy's box holds every written chunk: outside it, the default.
            return self.flat.get_or(loc, &self.default);
        }
        self.get_uncopied(loc.x, loc.y, loc.z)
    }

    /// A read without a flat copy of the cells: through the chunk directory, or the tree.
    /// Out of line, with the coordinates in registers, so that a loop of reads keeps its
    /// fast path tight.
    #[inline(never)]
    fn get_uncopied(&self, x: i32, y: i32, z: i32) -> &T {
        let loc = Loc::new(x, y, z);
        if let Some(dir) = &self.dir {
            return dir.get(loc, &self.default);
        }
        self.get_walking(loc)
    }

    /// Build the directory that makes [`get`](Grid::get) one directory load and one cell
    /// load: flat over the chunks' bounding box, or, when the chunks are too scattered for
    /// one, a hash table of their coordinates (one hash, usually one probe, one cell load).
    /// Θ(chunks); nothing to do when it is built already. Every write drops it, so build it after a batch of writes (the
    /// game does for its terrain when the turn advances).
    pub fn build_directory_mut(&mut self) {
        if !self.has_directory() && self.chunk_count > 0 {
            match Dir::build(&self.tree, self.chunk_count, &self.default) {
                Directory::Cells(c) => self.flat = c,
                d => self.dir = Some(Arc::new(d)),
            }
        }
    }

    /// Whether a directory is built.
    #[must_use]
    pub fn has_directory(&self) -> bool {
        self.dir.is_some() || self.flat.is_some()
    }

    /// A read through the tree.
    fn get_walking(&self, loc: Loc) -> &T {
        match self.find_chunk(chunk_of(loc)) {
            Some(c) => &c.cells[cell_index(loc)],
            None => &self.default,
        }
    }

    /// A new grid with `loc` set to `value`; `self` is unchanged.
    ///
    /// Rebuilds the path to the cell's chunk directly (one chunk copy and one node per level,
    /// each taking references to its other children), rather than cloning the grid and
    /// writing through it, which would check and drop references on the way.
    pub fn set(&self, loc: Loc, value: T) -> Self {
        if self.tree.root.is_none() && value == self.default {
            return self.clone();
        }
        let i = cell_index(loc);
        let default = &self.default;
        let mut added = false;
        let tree = self.tree.with_chunk(chunk_of(loc), |old| {
            let mut chunk = match old {
                Some(c) => Chunk::clone(c),
                None => {
                    added = true;
                    Chunk {
                        cells: std::array::from_fn(|_| default.clone()),
                    }
                }
            };
            chunk.cells[i] = value;
            Arc::new(chunk)
        });
        Grid {
            default: self.default.clone(),
            tree,
            chunk_count: self.chunk_count + usize::from(added),
            // The write changed a chunk the directory would share: the new value has none.
            flat: CellDir::none(),
            dir: None,
        }
    }

    /// Set `loc` to `value` in place (copying only the shared part of the path).
    pub fn set_mut(&mut self, loc: Loc, value: T) {
        if self.tree.root.is_none() && value == self.default {
            return;
        }
        let chunk = self.chunk_mut(chunk_of(loc));
        chunk.cells[cell_index(loc)] = value;
    }

    /// A new grid with `value` written to every cell of `area`.
    pub fn fill_box(&self, area: LocBox, value: T) -> Self {
        let mut g = self.clone();
        g.fill_box_mut(area, value);
        g
    }

    /// Write `value` to every cell of `area`, in place. Θ(cells in the box + chunks touched · h).
    pub fn fill_box_mut(&mut self, area: LocBox, value: T) {
        if area.is_empty() {
            return;
        }
        for z in area.min.z..area.max.z {
            let mut cy = area.min.y >> CHUNK_BITS;
            while cy <= (area.max.y - 1) >> CHUNK_BITS {
                let mut cx = area.min.x >> CHUNK_BITS;
                while cx <= (area.max.x - 1) >> CHUNK_BITS {
                    let x0 = area.min.x.max(cx << CHUNK_BITS);
                    let x1 = area.max.x.min((cx << CHUNK_BITS).saturating_add(SIDE));
                    let y0 = area.min.y.max(cy << CHUNK_BITS);
                    let y1 = area.max.y.min((cy << CHUNK_BITS).saturating_add(SIDE));
                    let chunk = self.chunk_mut([i64::from(cx), i64::from(cy), i64::from(z)]);
                    for y in y0..y1 {
                        let row = ((y & MASK) * SIDE) as usize;
                        chunk.cells[row + (x0 & MASK) as usize..=row + ((x1 - 1) & MASK) as usize]
                            .fill(value.clone());
                    }
                    cx += 1;
                }
                cy += 1;
            }
        }
    }

    /// The chunk at `chunk` coordinates, created and made unique along its path.
    fn chunk_mut(&mut self, chunk: [i64; 3]) -> &mut Chunk<T> {
        // The directory shares the chunks: drop it first, so a sole owner writes in place
        // (nothing to do, and no stores, when there is none).
        if self.dir.is_some() {
            self.dir = None;
        }
        if self.flat.is_some() {
            self.flat = CellDir::none();
        }
        let default = &self.default;
        let slot = self.tree.slot_mut(chunk);
        if slot.is_none() {
            self.chunk_count += 1;
        }
        let c = slot.get_or_insert_with(|| {
            Arc::new(Chunk {
                cells: std::array::from_fn(|_| default.clone()),
            })
        });
        Arc::make_mut(c)
    }

    /// A borrowed, read-only view of `area` with every chunk resolved once, so that a read
    /// inside the box is one directory load and one cell load (no tree walk): what FOV,
    /// pathfinding and AI callbacks should read through. Reads outside the box fall back to
    /// [`get`](Grid::get), so the view answers every location like the grid.
    ///
    /// Θ(chunks in the box · h) to build; one pointer per chunk (a 80 × 50 level: 20). A grid
    /// carrying a flat copy of its cells (see [`build_directory_mut`](Grid::build_directory_mut))
    /// shares it with the view instead: Θ(1).
    ///
    /// ```
    /// use alembic::{grid::Grid, Loc, LocBox};
    /// let g = Grid::new(0u8).set(Loc::new(3, 4, 0), 9);
    /// let v = g.view(LocBox::rect(0, 0, 80, 50, 0));
    /// assert_eq!(*v.get(Loc::new(3, 4, 0)), 9);
    /// assert_eq!(*v.get(Loc::new(500, 4, 7)), 0); // outside the box: still answered
    /// ```
    pub fn view(&self, area: LocBox) -> GridView<'_, T> {
        GridView::new(self, area)
    }

    /// Every cell of `area` with its value, chunk by chunk (within a chunk, row-major).
    ///
    /// Θ(cells in the box + chunks in the box · h); unwritten cells yield the default.
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
            row: [].iter(),
            defaults: 0,
            done: area.is_empty(),
        };
        if !it.done {
            it.enter_chunk();
        }
        it
    }

    /// Every written chunk as (its corner location, its 256 cells row-major), in a canonical
    /// order (z, then y, then x). Chunks that hold only default values are skipped.
    fn chunks_sorted(&self) -> Vec<(Loc, &[T; CELLS])> {
        let mut out: Vec<(Loc, &[T; CELLS])> = self
            .tree
            .chunks()
            .into_iter()
            .filter(|(_, c)| c.cells.iter().any(|v| *v != self.default))
            .map(|(at, c)| (corner(at), &c.cells))
            .collect();
        out.sort_unstable_by_key(|(l, _)| (l.z, l.y, l.x));
        out
    }

    /// Every cell whose value differs from the default, in canonical order (z, chunk row,
    /// chunk column, then row-major within the chunk). Θ(written chunks · 256).
    pub fn iter_set(&self) -> impl Iterator<Item = (Loc, &T)> + '_ {
        self.chunks_sorted()
            .into_iter()
            .flat_map(move |(corner, cells)| {
                cells
                    .iter()
                    .enumerate()
                    .filter(move |(_, v)| **v != self.default)
                    .map(move |(i, v)| {
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
        self.tree.ptr_eq(&other.tree)
    }

    /// Verify the tree's structure (bottom nodes exactly at level 0, height within bounds),
    /// the chunk count, and that a built directory holds exactly the tree's chunks.
    pub fn check_invariants(&self) -> Result<(), &'static str> {
        self.tree.check(|_| Ok(()))?;
        let chunks = self.tree.chunks();
        if chunks.len() != self.chunk_count {
            return Err("grid chunk count is stale");
        }
        if let Some(cells) = self.flat.cells.as_deref() {
            let d = &self.flat;
            if self.dir.is_some() {
                return Err("grid has two directories");
            }
            // The shape the read's folded level check relies on.
            let plane = u64::from(d.width) * u64::from(d.height);
            if d.plane != plane
                || plane == 0
                || plane > 1 << 32
                || !(cells.len() as u64).is_multiple_of(plane)
            {
                return Err("grid cell copy has the wrong shape");
            }
            // The copy holds every chunk, and every cell of its box reads as in the tree.
            if chunks.iter().any(|(at, _)| d.get(corner(*at)).is_none()) {
                return Err("grid directory misses a chunk");
            }
            for (i, v) in cells.iter().enumerate() {
                let loc = d.loc_of(i);
                if d.get(loc).map(std::ptr::from_ref) != Some(std::ptr::from_ref(v)) {
                    return Err("grid cell copy reads the wrong cell");
                }
                if *v != *self.get_walking(loc) {
                    return Err("grid directory and tree disagree");
                }
            }
        } else if let Some(dir) = self.dir.as_deref() {
            for (at, c) in chunks {
                if !std::ptr::eq(dir.get(corner(at), &self.default), &c.cells[0]) {
                    return Err("grid directory and tree disagree");
                }
            }
            match dir {
                Directory::Flat(dir) => {
                    // Every other slot is the one shared chunk of default values.
                    let mut distinct: Vec<*const Chunk<T>> =
                        dir.chunks.iter().map(Arc::as_ptr).collect();
                    distinct.sort_unstable();
                    distinct.dedup();
                    if distinct.len() > self.chunk_count + 1 {
                        return Err("grid directory holds chunks the tree does not");
                    }
                }
                Directory::Hashed(h) => {
                    if h.chunks.iter().flatten().count() != self.chunk_count {
                        return Err("grid directory holds chunks the tree does not");
                    }
                }
                Directory::Cells(_) => {}
            }
        }
        Ok(())
    }
}

const CELLS_PER_ROW: usize = SIDE as usize;

/// A read-only view of a box of a [`Grid`] with its chunks resolved: see [`Grid::view`].
pub struct GridView<'a, T> {
    grid: &'a Grid<T>,
    /// The grid's flat copy of its cells, when it carries one (then `dir` is empty).
    cells: CellDir<T>,
    /// The box's chunks (unwritten ones share one chunk of defaults).
    dir: Dir<T>,
}

impl<'a, T: Clone + PartialEq> GridView<'a, T> {
    fn new(grid: &'a Grid<T>, area: LocBox) -> Self {
        let empty = || Dir {
            first: [0; 3],
            size: [0; 3],
            chunks: Box::default(),
            default: grid.default.clone(),
        };
        if grid.flat.is_some() {
            // Every cell is one load already: share the copy, Θ(1).
            return GridView {
                grid,
                cells: grid.flat.clone(),
                dir: empty(),
            };
        }
        if area.is_empty() {
            return GridView {
                grid,
                cells: CellDir::none(),
                dir: empty(),
            };
        }
        let first = [
            area.min.x >> CHUNK_BITS,
            area.min.y >> CHUNK_BITS,
            area.min.z,
        ];
        let last = [
            (area.max.x - 1) >> CHUNK_BITS,
            (area.max.y - 1) >> CHUNK_BITS,
            area.max.z - 1,
        ];
        let span = |a: usize| (i64::from(last[a]) - i64::from(first[a]) + 1) as u64;
        // A box too large to resolve (over 2^22 chunks) reads through the grid.
        if span(0).saturating_mul(span(1)).saturating_mul(span(2)) > 1 << 22 {
            return GridView {
                grid,
                cells: CellDir::none(),
                dir: empty(),
            };
        }
        let size = [span(0) as u32, span(1) as u32, span(2) as u32];
        let blank = Arc::new(Chunk {
            cells: std::array::from_fn(|_| grid.default.clone()),
        });
        let mut chunks = vec![blank; (size[0] * size[1] * size[2]) as usize];
        let lo = [
            i64::from(first[0]),
            i64::from(first[1]),
            i64::from(first[2]),
        ];
        let hi = [i64::from(last[0]), i64::from(last[1]), i64::from(last[2])];
        for (at, c) in grid.tree.chunks_in(lo, hi) {
            let i = ((at[2] - lo[2]) as u64 * u64::from(size[1]) + (at[1] - lo[1]) as u64)
                * u64::from(size[0])
                + (at[0] - lo[0]) as u64;
            if let Some(slot) = chunks.get_mut(i as usize) {
                *slot = Arc::clone(c);
            }
        }
        GridView {
            grid,
            cells: CellDir::none(),
            dir: Dir {
                first,
                size,
                chunks: chunks.into(),
                default: grid.default.clone(),
            },
        }
    }

    /// The value at `loc`, as [`Grid::get`] gives it.
    #[inline]
    pub fn get(&self, loc: Loc) -> &T {
        if self.cells.is_some() {
            // The grid's own copy, holding every written chunk: what `Grid::get` reads.
            return self.cells.get_or(loc, &self.dir.default);
        }
        self.get_chunked(loc.x, loc.y, loc.z)
    }

    /// A read through the resolved chunks (no flat copy). Out of line, with the coordinates
    /// in registers: inlined beside the copy's read, it made a loop of reads through the
    /// copy spill and shuffle registers (35 instructions a read instead of 24).
    #[inline(never)]
    fn get_chunked(&self, x: i32, y: i32, z: i32) -> &T {
        let loc = Loc::new(x, y, z);
        match self.dir.get_in(loc) {
            Some(v) => v,
            None => self.outside(loc),
        }
    }

    #[cold]
    #[inline(never)]
    fn outside(&self, loc: Loc) -> &'a T {
        self.grid.get(loc)
    }

    /// The grid it views.
    pub fn grid(&self) -> &'a Grid<T> {
        self.grid
    }
}

/// Where an iterated chunk's cells are: a chunk of the tree (rows `SIDE` apart), or the
/// grid's flat copy of its cells (rows a copy's width apart), so that a grid carrying a copy
/// is iterated without a tree walk per chunk.
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
    row: std::slice::Iter<'a, T>,
    /// Cells of the current row still to yield as the default (unwritten chunk).
    defaults: usize,
    done: bool,
}

impl<'a, T: Clone + PartialEq> BoxIter<'a, T> {
    /// Set up the chunk at (cx, cy, z) and its first row.
    fn enter_chunk(&mut self) {
        let a = self.area;
        self.chunk =
            self.grid
                .chunk_rows([i64::from(self.cx), i64::from(self.cy), i64::from(self.z)]);
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
            }
        }
    }

    /// Move to the next row, chunk or level; false when the box is exhausted.
    #[cold]
    fn advance(&mut self) -> bool {
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
            // The rest of the current row.
            let (y, z, x) = (self.y, self.z, self.x);
            let row = std::mem::replace(&mut self.row, [].iter());
            acc = row
                .zip(x..)
                .fold(acc, |acc, (v, x)| f(acc, (Loc::new(x, y, z), v)));
            let d = &self.grid.default;
            for dx in 0..std::mem::take(&mut self.defaults) as i32 {
                acc = f(acc, (Loc::new(x + dx, y, z), d));
            }
            // The remaining rows of this chunk, as one run when they are full-width.
            let full_width = self.x0 & MASK == 0 && self.row_width() == SIDE as usize;
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
    /// Cell-by-cell equality (independent of how the trees are shaped). Θ(1) when both share
    /// storage, Θ(written cells) otherwise.
    fn eq(&self, other: &Self) -> bool {
        if self.default != other.default {
            return false;
        }
        if self.ptr_eq(other) {
            return true;
        }
        if let (true, Some(a), Some(b)) = (
            self.tree.origin == other.tree.origin && self.tree.height == other.tree.height,
            &self.tree.root,
            &other.tree.root,
        ) {
            return nodes_eq(a, b, &self.default);
        }
        self.iter_set().eq(other.iter_set())
    }
}

fn nodes_eq<T: PartialEq>(a: &Arc<Node<Chunk<T>>>, b: &Arc<Node<Chunk<T>>>, default: &T) -> bool {
    if Arc::ptr_eq(a, b) {
        return true;
    }
    let is_default_node = |n: &Node<Chunk<T>>| -> bool {
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            match n {
                Node::Inner(k) => stack.extend(k.iter().flatten().map(|a| &**a)),
                Node::Bottom(c) => {
                    if c.iter()
                        .flatten()
                        .any(|c| c.cells.iter().any(|v| v != default))
                    {
                        return false;
                    }
                }
            }
        }
        true
    };
    match (&**a, &**b) {
        (Node::Inner(ka), Node::Inner(kb)) => ka.iter().zip(kb.iter()).all(|pair| match pair {
            (Some(x), Some(y)) => nodes_eq(x, y, default),
            (Some(x), None) | (None, Some(x)) => is_default_node(x),
            (None, None) => true,
        }),
        (Node::Bottom(ca), Node::Bottom(cb)) => ca.iter().zip(cb.iter()).all(|pair| match pair {
            (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x.cells == y.cells,
            (Some(x), None) | (None, Some(x)) => x.cells.iter().all(|v| v == default),
            (None, None) => true,
        }),
        _ => false,
    }
}

impl<T: Clone + PartialEq + Hash> Hash for Grid<T> {
    /// Hashes the default and every non-default cell in canonical order, so equal grids hash
    /// equally whatever their tree shapes.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.default.hash(state);
        for (corner, cells) in self.chunks_sorted() {
            for (i, v) in cells.iter().enumerate() {
                if *v == self.default {
                    continue;
                }
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
                .map(|(c, cells)| ChunkRepr {
                    x: c.x,
                    y: c.y,
                    z: c.z,
                    cells: cells.to_vec(),
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
            let chunk = g.chunk_mut(chunk_of(Loc::new(c.x, c.y, c.z)));
            for (dst, src) in chunk.cells.iter_mut().zip(c.cells) {
                *dst = src;
            }
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
        // Equal regardless of tree shape: a default write far away grows the tree.
        let d = a.set(Loc::new(100_000, 0, 5), 0);
        assert_eq!(a, d);
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
        // The compact grid with its flat copy of the cells, which views share.
        let mut compact = g.clone();
        compact.build_directory_mut();
        assert!(compact.flat.cells.is_some());
        g.set_mut(Loc::new(i32::MAX, i32::MIN, 1), 5);
        for (g, far_value) in [(&g, 5), (&compact, 0)] {
            for area in [
                LocBox::rect(-17, -9, 50, 33, 0),
                LocBox::new(Loc::new(-40, -30, -1), Loc::new(50, 40, 3)),
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
                let far = Loc::new(i32::MAX, i32::MIN, 1);
                assert_eq!(*v.get(far), far_value);
            }
        }
        // Reads through the copy match reads through the tree.
        for y in -45..55 {
            for x in -55..65 {
                for z in -2..4 {
                    let l = Loc::new(x, y, z);
                    assert_eq!(compact.get(l), compact.get_walking(l), "{l}");
                }
            }
        }
        compact.check_invariants().unwrap();
    }

    #[test]
    fn reads_through_the_directory_match_a_map_across_writes_and_versions() {
        use std::collections::HashMap;
        let mut g = Grid::new(0u32);
        let mut o: HashMap<Loc, u32> = HashMap::new();
        let mut x: u64 = 11;
        let mut versions = Vec::new();
        for step in 0..40u32 {
            // A burst of writes; the directory is built after the reads below.
            for k in 0..50 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let l = if step >= 30 && (k == 0 || x.is_multiple_of(89)) {
                    Loc::new(x as i32, (x >> 32) as i32, (x >> 8) as i32 % 4)
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
            let read_all = |g: &Grid<u32>| {
                for y in -60..70 {
                    for x in -60..60 {
                        for z in -3..4 {
                            let l = Loc::new(x, y, z);
                            assert_eq!(*g.get(l), o.get(&l).copied().unwrap_or(0), "{l}");
                        }
                    }
                }
                for (l, v) in &o {
                    assert_eq!(g.get(*l), v, "{l}");
                }
            };
            assert!(!g.has_directory());
            read_all(&g);
            // Compact writes get a flat directory; scattered ones (from step 30) a hashed one.
            g.build_directory_mut();
            assert!(g.has_directory());
            let hashed = matches!(g.dir.as_deref(), Some(Directory::Hashed(_)));
            assert_eq!(hashed, step >= 30, "step {step}");
            if step == 0 {
                // A few scattered writes in a box: the chunk pointers.
                assert!(matches!(g.dir.as_deref(), Some(Directory::Flat(_))));
            }
            if step == 29 {
                // The box filled up: its cells copied.
                assert!(g.flat.cells.is_some());
            }
            read_all(&g);
            g.check_invariants().unwrap();
            versions.push((g.clone(), o.clone()));
        }
        for (g, o) in &versions {
            for (l, v) in o {
                assert_eq!(g.get(*l), v, "{l}");
            }
            g.check_invariants().unwrap();
        }
    }

    #[test]
    fn grid_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Grid<u16>>();
        check::<Grid<Arc<str>>>();
    }
}
