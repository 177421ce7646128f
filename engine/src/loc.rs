//! Locations and directions in the 3D world: `Loc` (x, y, z, with z the level), `Dir` (the
//! eight compass steps) and `LocBox` (a half-open box). All are `Copy` and every operation is
//! Θ(1), except iterating a box (Θ(cells)) and `line_to` (Θ(length)).

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// A point in the world: `x` east, `y` south, `z` the dungeon level.
///
/// `Loc` is also used as an offset (see [`Dir::offset`]); arithmetic is component-wise and
/// wrapping, so no operation on a `Loc` can panic. Size: 12 bytes; every operation Θ(1).
///
/// ```
/// use alembic::{Dir, Loc};
/// let here = Loc::new(3, 4, -1);
/// assert_eq!(here + Dir::East, Loc::new(4, 4, -1));
/// assert_eq!(here.chebyshev(Loc::new(6, 5, -1)), 3);
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Loc {
    /// West (−) to east (+).
    pub x: i32,
    /// North (−) to south (+).
    pub y: i32,
    /// Dungeon level; deeper levels are more negative by convention in the games.
    pub z: i32,
}

impl Loc {
    /// The origin `(0, 0, 0)`.
    pub const ORIGIN: Loc = Loc { x: 0, y: 0, z: 0 };

    /// A location from its three coordinates.
    #[must_use]
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Loc { x, y, z }
    }

    /// The same `x` and `y` on level `z`.
    #[must_use]
    pub const fn with_z(self, z: i32) -> Self {
        Loc {
            x: self.x,
            y: self.y,
            z,
        }
    }

    /// The cells of the straight line from `self` to `to` on `self`'s level (Bresenham),
    /// both ends included, in order: the path of a thrown object or a bolt. A line to
    /// itself is one cell. Θ(length).
    ///
    /// ```
    /// use alembic::Loc;
    /// let l = Loc::new(0, 0, 0).line_to(Loc::new(4, 2, 0));
    /// assert_eq!(l.first(), Some(&Loc::new(0, 0, 0)));
    /// assert_eq!(l.last(), Some(&Loc::new(4, 2, 0)));
    /// assert_eq!(l.len(), 5);
    /// ```
    #[must_use]
    pub fn line_to(self, to: Loc) -> Vec<Loc> {
        let (x0, y0) = (i64::from(self.x), i64::from(self.y));
        let (x1, y1) = (i64::from(to.x), i64::from(to.y));
        let dx = (x1 - x0).abs();
        let dy = -(y1 - y0).abs();
        let sx = if x0 < x1 { 1 } else { -1 };
        let sy = if y0 < y1 { 1 } else { -1 };
        let mut err = dx + dy;
        let (mut x, mut y) = (x0, y0);
        let mut out = Vec::with_capacity((dx.max(-dy) + 1) as usize);
        loop {
            out.push(Loc::new(x as i32, y as i32, self.z));
            if x == x1 && y == y1 {
                return out;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// Chebyshev (king-move) distance on the plane; levels are ignored unless they differ,
    /// in which case the level difference counts too.
    #[must_use]
    pub fn chebyshev(self, other: Loc) -> u32 {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        let dz = self.z.abs_diff(other.z);
        dx.max(dy).max(dz)
    }

    /// Manhattan (taxicab) distance over all three axes.
    #[must_use]
    pub fn manhattan(self, other: Loc) -> u64 {
        u64::from(self.x.abs_diff(other.x))
            + u64::from(self.y.abs_diff(other.y))
            + u64::from(self.z.abs_diff(other.z))
    }

    /// Squared Euclidean distance over all three axes (exact, no floating point).
    #[must_use]
    pub fn euclidean_sq(self, other: Loc) -> u64 {
        let dx = u64::from(self.x.abs_diff(other.x));
        let dy = u64::from(self.y.abs_diff(other.y));
        let dz = u64::from(self.z.abs_diff(other.z));
        dx * dx + dy * dy + dz * dz
    }

    /// The eight neighbours on the same level, in [`Dir::COMPASS`] order.
    pub fn neighbours8(self) -> impl Iterator<Item = Loc> {
        Dir::COMPASS.into_iter().map(move |d| self + d)
    }

    /// The four orthogonal neighbours on the same level (N, E, S, W).
    pub fn neighbours4(self) -> impl Iterator<Item = Loc> {
        [Dir::North, Dir::East, Dir::South, Dir::West]
            .into_iter()
            .map(move |d| self + d)
    }

    /// The direction one step from `self` toward `other` on the plane (sign of each axis),
    /// or `None` when both are at the same `x`/`y`.
    #[must_use]
    pub fn dir_to(self, other: Loc) -> Option<Dir> {
        let dx = (other.x.wrapping_sub(self.x)).signum();
        let dy = (other.y.wrapping_sub(self.y)).signum();
        Dir::from_offset(dx, dy)
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

impl From<(i32, i32, i32)> for Loc {
    fn from((x, y, z): (i32, i32, i32)) -> Self {
        Loc { x, y, z }
    }
}

impl Add for Loc {
    type Output = Loc;
    fn add(self, o: Loc) -> Loc {
        Loc::new(
            self.x.wrapping_add(o.x),
            self.y.wrapping_add(o.y),
            self.z.wrapping_add(o.z),
        )
    }
}

impl Sub for Loc {
    type Output = Loc;
    fn sub(self, o: Loc) -> Loc {
        Loc::new(
            self.x.wrapping_sub(o.x),
            self.y.wrapping_sub(o.y),
            self.z.wrapping_sub(o.z),
        )
    }
}

impl AddAssign for Loc {
    fn add_assign(&mut self, o: Loc) {
        *self = *self + o;
    }
}

impl SubAssign for Loc {
    fn sub_assign(&mut self, o: Loc) {
        *self = *self - o;
    }
}

impl Neg for Loc {
    type Output = Loc;
    fn neg(self) -> Loc {
        Loc::new(
            self.x.wrapping_neg(),
            self.y.wrapping_neg(),
            self.z.wrapping_neg(),
        )
    }
}

impl Mul<i32> for Loc {
    type Output = Loc;
    fn mul(self, k: i32) -> Loc {
        Loc::new(
            self.x.wrapping_mul(k),
            self.y.wrapping_mul(k),
            self.z.wrapping_mul(k),
        )
    }
}

impl Add<Dir> for Loc {
    type Output = Loc;
    fn add(self, d: Dir) -> Loc {
        self + d.offset()
    }
}

impl AddAssign<Dir> for Loc {
    fn add_assign(&mut self, d: Dir) {
        *self = *self + d;
    }
}

/// One step: the eight compass directions plus up and down a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    /// −y.
    North,
    /// +x −y.
    NorthEast,
    /// +x.
    East,
    /// +x +y.
    SouthEast,
    /// +y.
    South,
    /// −x +y.
    SouthWest,
    /// −x.
    West,
    /// −x −y.
    NorthWest,
    /// +z (towards the surface in the games' convention).
    Up,
    /// −z (deeper).
    Down,
}

impl Dir {
    /// The eight directions on a level, clockwise from north.
    pub const COMPASS: [Dir; 8] = [
        Dir::North,
        Dir::NorthEast,
        Dir::East,
        Dir::SouthEast,
        Dir::South,
        Dir::SouthWest,
        Dir::West,
        Dir::NorthWest,
    ];

    /// All ten directions.
    pub const ALL: [Dir; 10] = [
        Dir::North,
        Dir::NorthEast,
        Dir::East,
        Dir::SouthEast,
        Dir::South,
        Dir::SouthWest,
        Dir::West,
        Dir::NorthWest,
        Dir::Up,
        Dir::Down,
    ];

    /// The unit offset of this direction.
    #[must_use]
    pub const fn offset(self) -> Loc {
        let (x, y, z) = match self {
            Dir::North => (0, -1, 0),
            Dir::NorthEast => (1, -1, 0),
            Dir::East => (1, 0, 0),
            Dir::SouthEast => (1, 1, 0),
            Dir::South => (0, 1, 0),
            Dir::SouthWest => (-1, 1, 0),
            Dir::West => (-1, 0, 0),
            Dir::NorthWest => (-1, -1, 0),
            Dir::Up => (0, 0, 1),
            Dir::Down => (0, 0, -1),
        };
        Loc { x, y, z }
    }

    /// The compass direction with this planar offset (each of `dx`, `dy` in −1..=1).
    #[must_use]
    pub const fn from_offset(dx: i32, dy: i32) -> Option<Dir> {
        Some(match (dx, dy) {
            (0, -1) => Dir::North,
            (1, -1) => Dir::NorthEast,
            (1, 0) => Dir::East,
            (1, 1) => Dir::SouthEast,
            (0, 1) => Dir::South,
            (-1, 1) => Dir::SouthWest,
            (-1, 0) => Dir::West,
            (-1, -1) => Dir::NorthWest,
            _ => return None,
        })
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::NorthEast => Dir::SouthWest,
            Dir::East => Dir::West,
            Dir::SouthEast => Dir::NorthWest,
            Dir::South => Dir::North,
            Dir::SouthWest => Dir::NorthEast,
            Dir::West => Dir::East,
            Dir::NorthWest => Dir::SouthEast,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
        }
    }

    /// True for the four diagonal compass directions.
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        matches!(
            self,
            Dir::NorthEast | Dir::SouthEast | Dir::SouthWest | Dir::NorthWest
        )
    }
}

/// An axis-aligned box of locations, inclusive of `min` and exclusive of `max` on every axis.
///
/// An empty box (any `max` ≤ `min`) contains nothing. Θ(1) size and operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LocBox {
    /// The smallest corner (inclusive).
    pub min: Loc,
    /// The largest corner (exclusive).
    pub max: Loc,
}

impl LocBox {
    /// The box `min..max` (half-open on each axis).
    #[must_use]
    pub const fn new(min: Loc, max: Loc) -> Self {
        LocBox { min, max }
    }

    /// A `w × h` rectangle on level `z` with its top-left corner at (`x`, `y`).
    #[must_use]
    pub const fn rect(x: i32, y: i32, w: i32, h: i32, z: i32) -> Self {
        LocBox {
            min: Loc::new(x, y, z),
            max: Loc::new(
                x.saturating_add(w),
                y.saturating_add(h),
                z.saturating_add(1),
            ),
        }
    }

    /// True when the box holds no location.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.max.x <= self.min.x || self.max.y <= self.min.y || self.max.z <= self.min.z
    }

    /// Whether `l` lies inside the box.
    #[must_use]
    pub const fn contains(&self, l: Loc) -> bool {
        l.x >= self.min.x
            && l.x < self.max.x
            && l.y >= self.min.y
            && l.y < self.max.y
            && l.z >= self.min.z
            && l.z < self.max.z
    }

    /// Number of locations in the box.
    #[must_use]
    pub fn volume(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        u64::from(self.max.x.abs_diff(self.min.x))
            * u64::from(self.max.y.abs_diff(self.min.y))
            * u64::from(self.max.z.abs_diff(self.min.z))
    }

    /// Width along x.
    #[must_use]
    #[inline]
    pub fn width(&self) -> i32 {
        (self.max.x - self.min.x).max(0)
    }

    /// Height along y.
    #[must_use]
    #[inline]
    pub fn height(&self) -> i32 {
        (self.max.y - self.min.y).max(0)
    }

    /// Every location in the box, z-major then y then x (row-major per level).
    pub fn iter(&self) -> impl Iterator<Item = Loc> + use<> {
        let b = *self;
        let empty = b.is_empty();
        (b.min.z..if empty { b.min.z } else { b.max.z }).flat_map(move |z| {
            (b.min.y..b.max.y).flat_map(move |y| (b.min.x..b.max.x).map(move |x| Loc::new(x, y, z)))
        })
    }

    /// The overlap of two boxes (possibly empty).
    #[must_use]
    pub fn intersect(&self, o: &LocBox) -> LocBox {
        LocBox {
            min: Loc::new(
                self.min.x.max(o.min.x),
                self.min.y.max(o.min.y),
                self.min.z.max(o.min.z),
            ),
            max: Loc::new(
                self.max.x.min(o.max.x),
                self.max.y.min(o.max.y),
                self.max.z.min(o.max.z),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_round_trip() {
        for d in Dir::COMPASS {
            let o = d.offset();
            assert_eq!(Dir::from_offset(o.x, o.y), Some(d));
            assert_eq!(d.opposite().offset(), -o);
        }
        assert_eq!(Dir::from_offset(0, 0), None);
        assert_eq!(Dir::from_offset(2, 0), None);
    }

    #[test]
    fn distances() {
        let a = Loc::new(0, 0, 0);
        let b = Loc::new(3, -4, 0);
        assert_eq!(a.chebyshev(b), 4);
        assert_eq!(a.manhattan(b), 7);
        assert_eq!(a.euclidean_sq(b), 25);
        let far = Loc::new(i32::MIN, i32::MAX, 0);
        assert_eq!(
            far.manhattan(Loc::new(i32::MAX, i32::MIN, 0)),
            2 * u64::from(u32::MAX)
        );
    }

    #[test]
    fn arithmetic_never_panics() {
        let m = Loc::new(i32::MAX, i32::MIN, i32::MAX);
        let _ = m + Dir::East + Dir::North + Dir::Up;
        let _ = -Loc::new(i32::MIN, 0, 0);
        let _ = m * 7;
    }

    #[test]
    fn box_iteration_order_and_volume() {
        let b = LocBox::rect(1, 2, 3, 2, 5);
        let v: Vec<Loc> = b.iter().collect();
        assert_eq!(v.len() as u64, b.volume());
        assert_eq!(v[0], Loc::new(1, 2, 5));
        assert_eq!(v[1], Loc::new(2, 2, 5));
        assert_eq!(v[3], Loc::new(1, 3, 5));
        assert!(LocBox::rect(0, 0, 0, 5, 0).iter().next().is_none());
    }
}
