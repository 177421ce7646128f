//! Field of view: Albert Ford's symmetric shadowcasting with exact integer slopes.
//!
//! The algorithm (<https://www.albertford.com/shadowcasting/>) scans each of the four
//! quadrants row by row, keeping the visible part of a row as a pair of rational slopes.
//! Slopes are kept as exact fractions (`num / den`, compared by cross-multiplication in
//! `i64`), so there is no floating-point drift and the result is:
//!
//! * **symmetric** for floor cells: if `b` is in the field of view from `a` (and both are
//!   transparent), then `a` is in the field of view from `b`;
//! * **wall-revealing**: opaque cells that bound a visible area are visible;
//! * **gap-free**: no dark cells in straight corridors or behind the corners of pillars.
//!
//! The radius is a Euclidean circle: a cell at offset `(dx, dy)` is inside when
//! `dx² + dy² ≤ r² + r` (the circle of radius `r + ½`, rounded, which gives the usual
//! roguelike "round" look without single-cell spikes at the four compass points).
//! The circle only filters what is reported; shadows are computed over the whole scanned
//! square, so cutting at the radius never breaks symmetry.

/// The largest radius [`Fov::compute_into`] accepts; larger values are clamped to it.
///
/// At this radius a [`VisibleSet`] holds `(2·1024 + 1)²` bits ≈ 512 KiB.
pub const MAX_FOV_RADIUS: u32 = 1024;

use crate::loc::Loc;

/// The cells seen from one origin: a bitset over the square `origin ± radius` on the origin's
/// level.
///
/// Membership is Θ(1); iteration is Θ(area of the square / 64 + visible cells).
/// Memory: `(2r + 1)²` bits. Reuse one value with [`Fov::compute_into`] to avoid allocating
/// per call.
///
/// ```
/// use alembic::{fov::field_of_view, Loc};
/// let seen = field_of_view(Loc::new(0, 0, 0), 3, |_| true);
/// assert!(seen.contains(Loc::new(3, 0, 0)));
/// assert!(!seen.contains(Loc::new(3, 3, 0))); // outside the circle
/// assert!(!seen.contains(Loc::new(0, 0, 1))); // another level
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VisibleSet {
    origin: Loc,
    radius: i32,
    side: i32,
    bits: Vec<u64>,
}

impl VisibleSet {
    /// An empty set (sees nothing, not even an origin).
    #[must_use]
    pub fn new() -> Self {
        VisibleSet::default()
    }

    /// The viewpoint of the last computation.
    #[must_use]
    pub fn origin(&self) -> Loc {
        self.origin
    }

    /// The radius of the last computation (after clamping to [`MAX_FOV_RADIUS`]).
    #[must_use]
    pub fn radius(&self) -> u32 {
        self.radius.unsigned_abs()
    }

    fn reset(&mut self, origin: Loc, radius: i32) {
        self.origin = origin;
        self.radius = radius;
        self.side = 2 * radius + 1;
        let words = (self.side as usize * self.side as usize).div_ceil(64);
        self.bits.clear();
        self.bits.resize(words, 0);
    }

    #[inline]
    fn index_of(&self, l: Loc) -> Option<usize> {
        if self.side == 0 || l.z != self.origin.z {
            return None;
        }
        let lx = i64::from(l.x) - i64::from(self.origin.x) + i64::from(self.radius);
        let ly = i64::from(l.y) - i64::from(self.origin.y) + i64::from(self.radius);
        let side = i64::from(self.side);
        if (0..side).contains(&lx) && (0..side).contains(&ly) {
            Some((ly * side + lx) as usize)
        } else {
            None
        }
    }

    #[inline]
    fn set_local(&mut self, idx: usize) {
        if let Some(w) = self.bits.get_mut(idx >> 6) {
            *w |= 1 << (idx & 63);
        }
    }

    /// Whether `l` is visible. Θ(1).
    #[must_use]
    #[inline]
    pub fn contains(&self, l: Loc) -> bool {
        self.index_of(l)
            .and_then(|i| self.bits.get(i >> 6).map(|w| w >> (i & 63) & 1 == 1))
            .unwrap_or(false)
    }

    /// Number of visible cells. Θ(words).
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when nothing is visible.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// Every visible location, row by row (north to south, west to east).
    pub fn iter(&self) -> impl Iterator<Item = Loc> + '_ {
        let side = self.side.max(1) as usize;
        VisibleIter {
            bits: &self.bits,
            word: 0,
            w: self.bits.first().copied().unwrap_or(0),
            side,
            row: 0,
            row_start: 0,
            corner: Loc::new(
                self.origin.x.wrapping_sub(self.radius),
                self.origin.y.wrapping_sub(self.radius),
                self.origin.z,
            ),
        }
    }
}

/// The cells of a [`VisibleSet`], row by row: each set bit's row is found by stepping on
/// from the previous one's (the bits come in order), not by a division.
struct VisibleIter<'a> {
    bits: &'a [u64],
    /// The word being read, and what is left of it.
    word: usize,
    w: u64,
    side: usize,
    /// The row of the last cell found, and the index of its first bit.
    row: usize,
    row_start: usize,
    /// The square's corner (its row 0, column 0).
    corner: Loc,
}

impl Iterator for VisibleIter<'_> {
    type Item = Loc;

    #[inline]
    fn next(&mut self) -> Option<Loc> {
        while self.w == 0 {
            self.word += 1;
            self.w = *self.bits.get(self.word)?;
        }
        let bit = self.w.trailing_zeros() as usize;
        self.w &= self.w - 1;
        let idx = self.word * 64 + bit;
        while idx >= self.row_start + self.side {
            self.row_start += self.side;
            self.row += 1;
        }
        // Both offsets are below the square's side, at most 2 · MAX_FOV_RADIUS + 1.
        let (dx, dy) = ((idx - self.row_start) as i32, self.row as i32);
        Some(Loc::new(
            self.corner.x.wrapping_add(dx),
            self.corner.y.wrapping_add(dy),
            self.corner.z,
        ))
    }
}

/// One row of a quadrant scan: depth and the visible slope interval `[start, end]`.
///
/// Slopes are `num / den` with `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i32,
    start_num: i32,
    start_den: i32,
    end_num: i32,
    end_den: i32,
}

/// Reusable field-of-view workspace: holds the scan stack so repeated calls do not allocate.
///
/// Cost per call: Θ(r²) predicate calls in open areas (each cell of the square `±r` is
/// looked at about once; cells on the two diagonals twice), far fewer in enclosed spaces.
/// No allocation once the workspace and the [`VisibleSet`] have grown to the radius used.
///
/// ```
/// use alembic::{fov::Fov, Loc, fov::VisibleSet};
/// let mut fov = Fov::new();
/// let mut seen = VisibleSet::new();
/// // A wall along x = 2.
/// fov.compute_into(Loc::new(0, 0, 0), 5, |l| l.x != 2, &mut seen);
/// assert!(seen.contains(Loc::new(2, 0, 0)));   // the wall itself is visible
/// assert!(!seen.contains(Loc::new(3, 0, 0)));  // behind it is not
/// ```
#[derive(Clone, Debug, Default)]
pub struct Fov {
    stack: Vec<Row>,
}

impl Fov {
    /// An empty workspace.
    #[must_use]
    pub fn new() -> Self {
        Fov::default()
    }

    /// Computes the cells visible from `origin` within `radius` into `out` (whose previous
    /// contents are replaced).
    ///
    /// `transparent(l)` says whether light passes through `l` (floor, open door, glass);
    /// it is only asked about cells on `origin.z`, within `radius` (Chebyshev) of the origin.
    /// Return `false` for locations outside your map. The origin is always visible, whatever
    /// it is made of. `radius` is clamped to [`MAX_FOV_RADIUS`].
    pub fn compute_into(
        &mut self,
        origin: Loc,
        radius: u32,
        transparent: impl Fn(Loc) -> bool,
        out: &mut VisibleSet,
    ) {
        let r = radius.min(MAX_FOV_RADIUS) as i32;
        out.reset(origin, r);
        let side = out.side as isize;
        let centre = (r as isize) * side + r as isize;
        out.set_local(centre as usize);
        if r == 0 {
            return;
        }
        let limit = r * r + r;
        // Quadrants as (dx per column, dy per column, dx per depth, dy per depth).
        const QUADRANTS: [(i32, i32, i32, i32); 4] =
            [(1, 0, 0, -1), (0, 1, 1, 0), (1, 0, 0, 1), (0, 1, -1, 0)];
        for (cx, cy, rx, ry) in QUADRANTS {
            // Offsets within the bitset for one step in column / in depth.
            let col_step = cx as isize + cy as isize * side;
            let row_step = rx as isize + ry as isize * side;
            self.stack.clear();
            self.stack.push(Row {
                depth: 1,
                start_num: -1,
                start_den: 1,
                end_num: 1,
                end_den: 1,
            });
            while let Some(mut row) = self.stack.pop() {
                // Every product below is at most 2 · 1024 · 2049 in size (depths and columns
                // are within the clamped radius, slopes' parts within twice it): `i32` holds
                // them exactly.
                let d = row.depth;
                // min_col = round_ties_up(depth * start) = floor((2·d·sn + sd) / (2·sd)).
                let min_col = (2 * d * row.start_num + row.start_den).div_euclid(2 * row.start_den);
                // max_col = round_ties_down(depth * end) = ceil((2·d·en − ed) / (2·ed)).
                let max_col = -((row.end_den - 2 * d * row.end_num).div_euclid(2 * row.end_den));
                if min_col > max_col {
                    continue;
                }
                // The columns whose centre lies inside [start, end] (the symmetric test):
                // `col · sd ≥ d · sn` and `col · ed ≤ d · en`, as a range worked out once.
                let mut sym_lo = -((-d * row.start_num).div_euclid(row.start_den));
                let sym_hi = (d * row.end_num).div_euclid(row.end_den);
                // The columns within the circle: `col² ≤ room`.
                let room = limit - d * d;
                let mut prev_wall: Option<bool> = None;
                let row_base = centre + row_step * row.depth as isize;
                for col in min_col..=max_col {
                    let loc = Loc::new(
                        origin.x.wrapping_add(cx * col + rx * d),
                        origin.y.wrapping_add(cy * col + ry * d),
                        origin.z,
                    );
                    let wall = !transparent(loc);
                    let visible = wall || (sym_lo..=sym_hi).contains(&col);
                    if visible && col * col <= room {
                        out.set_local((row_base + col_step * col as isize) as usize);
                    }
                    match prev_wall {
                        Some(true) if !wall => {
                            // slope(tile) = (2·col − 1) / (2·depth), whose symmetric range
                            // starts at `col` itself.
                            row.start_num = 2 * col - 1;
                            row.start_den = 2 * d;
                            sym_lo = col;
                        }
                        Some(false) if wall && d < r => {
                            self.stack.push(Row {
                                depth: d + 1,
                                start_num: row.start_num,
                                start_den: row.start_den,
                                end_num: 2 * col - 1,
                                end_den: 2 * d,
                            });
                        }
                        _ => {}
                    }
                    prev_wall = Some(wall);
                }
                if prev_wall == Some(false) && d < r {
                    row.depth += 1;
                    self.stack.push(row);
                }
            }
        }
    }
}

/// Convenience wrapper: the cells visible from `origin` within `radius`, in a fresh
/// [`VisibleSet`]. Same semantics and cost as [`Fov::compute_into`], plus two allocations.
#[must_use]
#[inline]
pub fn field_of_view(origin: Loc, radius: u32, transparent: impl Fn(Loc) -> bool) -> VisibleSet {
    let mut out = VisibleSet::new();
    Fov::new().compute_into(origin, radius, transparent, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_field_is_a_disc() {
        let s = field_of_view(Loc::new(10, 10, 2), 4, |_| true);
        for l in crate::LocBox::rect(0, 0, 21, 21, 2).iter() {
            let dx = i64::from(l.x - 10);
            let dy = i64::from(l.y - 10);
            assert_eq!(s.contains(l), dx * dx + dy * dy <= 20, "{l}");
        }
        assert_eq!(s.iter().count(), s.len());
        assert!(s.iter().all(|l| s.contains(l)));
    }

    #[test]
    fn radius_zero_sees_only_origin() {
        let s = field_of_view(Loc::new(1, 1, 0), 0, |_| false);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Loc::new(1, 1, 0)]);
    }

    #[test]
    fn huge_radius_is_clamped() {
        let s = field_of_view(Loc::new(0, 0, 0), u32::MAX, |l| {
            l.x.abs() < 3 && l.y.abs() < 3
        });
        assert_eq!(s.radius(), MAX_FOV_RADIUS);
        assert!(s.contains(Loc::new(3, 0, 0)));
        assert!(!s.contains(Loc::new(5, 0, 0)));
    }

    #[test]
    fn extreme_coordinates_do_not_panic() {
        let o = Loc::new(i32::MAX, i32::MIN, 0);
        let s = field_of_view(o, 5, |_| true);
        assert!(s.contains(o));
        let _ = s.iter().count();
    }
}
