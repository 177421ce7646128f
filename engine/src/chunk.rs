//! The chunk geometry [`Grid`](crate::grid::Grid) stores its cells in: 16 × 16 cells on one
//! level, addressed by chunk coordinates (x / 16, y / 16, z), floored.

use crate::loc::Loc;

/// log₂ of a chunk's side in cells.
pub(crate) const CHUNK_BITS: u32 = 4;
/// Side of a chunk in cells.
pub(crate) const SIDE: i32 = 1 << CHUNK_BITS;
/// Cell coordinate within a chunk.
pub(crate) const MASK: i32 = SIDE - 1;
/// Cells per chunk.
pub(crate) const CELLS: usize = (SIDE * SIDE) as usize;

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

/// The corner cell of the chunk at chunk coordinates `at` (which come from `i32` cells).
pub(crate) fn corner(at: [i64; 3]) -> Loc {
    Loc::new(
        (at[0] << CHUNK_BITS) as i32,
        (at[1] << CHUNK_BITS) as i32,
        at[2] as i32,
    )
}
