//! Map-generation toolkit: a small owned 2D map ([`TileMap`]) and building blocks that games
//! compose — BSP subdivision with connection points, rooms, corridors (straight, L-shaped,
//! winding), cellular-automaton caves, drunkard's walk, flood-fill regions and a connectivity
//! checker.
//!
//! **Failure handling, the persistent way.** Every generation step comes in two forms, by the
//! engine's one naming rule: `carve_room(&self, …) -> Result<Self, MapGenError>` returns a
//! *new* map, and `carve_room_mut(&mut self, …) -> Result<(), MapGenError>` changes the map in
//! place. A step that cannot be applied (a room that does not fit, a point off the map) is a
//! [`MapGenError`] and changes nothing, so the caller can retry with other random choices or
//! keep what it had. [`retry`] is the typed form of the seed game's `or-loop`; chaining steps
//! with `?` is its `and-as->`. Whole levels come from builders: [`BspDungeon`] and [`Cave`].
//!
//! A finished [`TileMap`] is copied into the game's persistent grid, one level at a time.
//! Its coordinates are `Loc`s whose `z` is ignored (locations it produces have `z = 0`;
//! use [`Loc::with_z`] to place them).
//!
//! ```
//! use alembic::{mapgen::retry, rng::GameRng, LocBox, mapgen::TileMap};
//! let mut rng = GameRng::seed_from(1);
//! let map = TileMap::new(20, 10, false).unwrap();
//! // Try up to 10 random rooms; each failure leaves `map` as it was.
//! let with_room = retry(&mut rng, 10, |rng| {
//!     let x = rng.range(0, 19) as i32;
//!     map.carve_room(LocBox::rect(x, 2, 6, 4, 0), true)
//! });
//! assert!(with_room.is_ok());
//! assert_eq!(map.count(|&f| f), 0);
//! ```

use crate::loc::{Loc, LocBox};
use crate::rng::GameRng;

/// Why a map-generation step could not be applied. The step changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum MapGenError {
    /// A map's sides must be positive and its cells at most [`TileMap::MAX_CELLS`].
    #[error("a map needs positive sides and at most 16,777,216 cells")]
    BadSize,
    /// Rows of ASCII art must be non-empty and all of one length.
    #[error("the rows are empty or not all the same length")]
    RaggedRows,
    /// A point given is off the map.
    #[error("({x}, {y}) is off the map")]
    OffMap {
        /// Its x.
        x: i32,
        /// Its y.
        y: i32,
    },
    /// A room is empty or not entirely on the map.
    #[error("the room is empty or not entirely on the map")]
    RoomOffMap,
    /// No room of the smallest side fits in the area.
    #[error("no room of side {min_side} fits in the area")]
    NoRoomFits {
        /// The smallest side asked for.
        min_side: i32,
    },
    /// No cell is passable.
    #[error("no cell is passable")]
    NothingPassable,
    /// Every attempt of a [`retry`] failed.
    #[error("all {0} attempts failed")]
    GaveUp(usize),
}

/// Calls `step` until it succeeds, at most `attempts` times; the typed `or-loop`.
///
/// Each attempt gets the RNG, so retries make different random choices and the whole loop
/// stays deterministic for a given seed. [`MapGenError::GaveUp`] when every attempt failed.
pub fn retry<T>(
    rng: &mut GameRng,
    attempts: usize,
    mut step: impl FnMut(&mut GameRng) -> Result<T, MapGenError>,
) -> Result<T, MapGenError> {
    (0..attempts)
        .find_map(|_| step(rng).ok())
        .ok_or(MapGenError::GaveUp(attempts))
}

/// Which neighbours count as connected for flood fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjacency {
    /// The four orthogonal neighbours. This is also exactly the connectivity of 8-way
    /// movement under the pathfinding rule "no squeezing diagonally between two walls"
    /// (a legal diagonal always has an open orthogonal beside it), so use `Four` to check
    /// what [`astar`](crate::path::astar) and [`DijkstraMap`](crate::path::DijkstraMap) can reach.
    Four,
    /// All eight neighbours, diagonals always connected (for games whose movement may squeeze
    /// between two diagonal walls).
    Eight,
}

/// A `width × height` grid of `T`, row-major, owned and `Vec`-backed: the scratch space of
/// map generation. Out-of-range accesses return `None`; nothing here panics.
///
/// Memory: `width · height · size_of::<T>()`; clone Θ(cells).
///
/// `TileMap` is `#[must_use]`: [`TileMap::with`] returns the changed map (the in-place form is
/// [`TileMap::set_mut`]), so a dropped result is a warning (an error here):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use alembic::Loc;
/// use alembic::mapgen::{MapGenError, TileMap};
/// fn carve(m: &TileMap<bool>) -> Result<(), MapGenError> {
///     m.with(Loc::new(1, 1, 0), true)?; // the new map is dropped
///     Ok(())
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[must_use = "a persistent value: a method that returns one leaves the original unchanged"]
pub struct TileMap<T> {
    width: i32,
    height: i32,
    cells: Vec<T>,
}

impl<T: Clone> TileMap<T> {
    /// Largest number of cells a map may have.
    pub const MAX_CELLS: usize = 1 << 24;

    /// A map filled with `fill`; [`MapGenError::BadSize`] when a side is not positive or
    /// the map would exceed [`MAX_CELLS`](TileMap::MAX_CELLS). Θ(cells).
    pub fn new(width: i32, height: i32, fill: T) -> Result<Self, MapGenError> {
        if width <= 0 || height <= 0 {
            return Err(MapGenError::BadSize);
        }
        let n = (width as usize)
            .checked_mul(height as usize)
            .ok_or(MapGenError::BadSize)?;
        if n > Self::MAX_CELLS {
            return Err(MapGenError::BadSize);
        }
        Ok(TileMap {
            width,
            height,
            cells: vec![fill; n],
        })
    }

    /// A map from ASCII-art rows (one `&str` per row, all the same length in chars), each
    /// character turned into a cell by `f`. [`MapGenError::RaggedRows`] for no rows, empty or
    /// ragged rows.
    ///
    /// ```
    /// use alembic::{Loc, mapgen::TileMap};
    /// let m = TileMap::from_rows(&["#.#", "..."], |c| c == '.').unwrap();
    /// assert_eq!(m.get(Loc::new(1, 0, 0)), Some(&true));
    /// assert_eq!(m.render(|&f| if f { '.' } else { '#' }), "#.#\n...\n");
    /// ```
    pub fn from_rows(rows: &[&str], f: impl Fn(char) -> T) -> Result<Self, MapGenError> {
        let width = rows.first().ok_or(MapGenError::RaggedRows)?.chars().count();
        let mut cells = Vec::with_capacity(width.saturating_mul(rows.len()));
        for r in rows {
            if r.chars().count() != width {
                return Err(MapGenError::RaggedRows);
            }
            cells.extend(r.chars().map(&f));
        }
        let w = i32::try_from(width).map_err(|_| MapGenError::BadSize)?;
        let h = i32::try_from(rows.len()).map_err(|_| MapGenError::BadSize)?;
        if w == 0 {
            return Err(MapGenError::RaggedRows);
        }
        if cells.len() > Self::MAX_CELLS {
            return Err(MapGenError::BadSize);
        }
        Ok(TileMap {
            width: w,
            height: h,
            cells,
        })
    }

    /// `Ok` when `l` is on the map.
    fn on_map(&self, l: Loc) -> Result<(), MapGenError> {
        if self.contains(l) {
            Ok(())
        } else {
            Err(MapGenError::OffMap { x: l.x, y: l.y })
        }
    }

    /// A copy with `l` set to `v`; [`MapGenError::OffMap`] when `l` is off the map. Θ(cells).
    pub fn with(&self, l: Loc, v: T) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.on_map(l)?;
        m.set_mut(l, v);
        Ok(m)
    }

    /// A copy with every cell of `room` set to `v` (see [`TileMap::carve_room_mut`]).
    /// Θ(cells).
    pub fn carve_room(&self, room: LocBox, v: T) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.carve_room_mut(room, v)?;
        Ok(m)
    }

    /// Set every cell of `room` to `v`, in place; [`MapGenError::RoomOffMap`] (and nothing
    /// changed) when `room` is empty or not entirely on the map (its `z` is ignored).
    /// Θ(room).
    pub fn carve_room_mut(&mut self, room: LocBox, v: T) -> Result<(), MapGenError> {
        let flat = LocBox::new(room.min.with_z(0), room.max.with_z(1));
        if flat.is_empty()
            || !self.contains(flat.min)
            || !self.contains(flat.max - Loc::new(1, 1, 1))
        {
            return Err(MapGenError::RoomOffMap);
        }
        for l in flat.iter() {
            self.set_mut(l, v.clone());
        }
        Ok(())
    }

    /// A copy with a 4-connected line from `a` to `b` set to `v`: a straight corridor when
    /// they share a row or column, otherwise a staircase that always moves orthogonally (so
    /// it stays walkable under the no-corner-cutting rule). `None` if either end is off the
    /// map. Θ(cells + length).
    pub fn carve_line(&self, a: Loc, b: Loc, v: T) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.carve_line_mut(a, b, v)?;
        Ok(m)
    }

    /// In-place form of [`TileMap::carve_line`]; nothing changes on an error. Θ(length).
    pub fn carve_line_mut(&mut self, a: Loc, b: Loc, v: T) -> Result<(), MapGenError> {
        self.on_map(a)?;
        self.on_map(b)?;
        let m = self;
        let (dx, dy) = (i64::from(b.x - a.x), i64::from(b.y - a.y));
        let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
        let (ax, ay) = (dx.abs(), dy.abs());
        let (mut x, mut y) = (a.x, a.y);
        // Walk the grid line: at each step move along the axis whose next boundary is
        // nearer (compare (ix + ½) / ax with (iy + ½) / ay by cross-multiplication).
        let (mut ix, mut iy) = (0i64, 0i64);
        m.set_mut(Loc::new(x, y, 0), v.clone());
        while ix < ax || iy < ay {
            if (1 + 2 * ix) * ay < (1 + 2 * iy) * ax {
                x += sx;
                ix += 1;
            } else {
                y += sy;
                iy += 1;
            }
            m.set_mut(Loc::new(x, y, 0), v.clone());
        }
        Ok(())
    }

    /// A copy with an L-shaped corridor from `a` to `b` (horizontal leg first when
    /// `horizontal_first`), set to `v`. [`MapGenError::OffMap`] if either end is off the map.
    /// Θ(cells).
    pub fn carve_l(
        &self,
        a: Loc,
        b: Loc,
        horizontal_first: bool,
        v: T,
    ) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.carve_l_mut(a, b, horizontal_first, v)?;
        Ok(m)
    }

    /// In-place form of [`TileMap::carve_l`]; nothing changes on an error. Θ(length).
    pub fn carve_l_mut(
        &mut self,
        a: Loc,
        b: Loc,
        horizontal_first: bool,
        v: T,
    ) -> Result<(), MapGenError> {
        self.on_map(a)?;
        self.on_map(b)?;
        let corner = if horizontal_first {
            Loc::new(b.x, a.y, 0)
        } else {
            Loc::new(a.x, b.y, 0)
        };
        self.carve_line_mut(a, corner, v.clone())?;
        self.carve_line_mut(corner, b, v)
    }

    /// A copy with a winding corridor from `a` to `b`, set to `v`: a walk that steps toward
    /// `b` and, with probability `wiggle` (clamped to `[0, 0.9]`), sideways instead; it stays
    /// within the rectangle spanned by `a` and `b` widened by 2 and on the map, and always
    /// arrives. [`MapGenError::OffMap`] if either end is off the map. Θ(cells + length).
    pub fn carve_winding(
        &self,
        a: Loc,
        b: Loc,
        wiggle: f64,
        rng: &mut GameRng,
        v: T,
    ) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.carve_winding_mut(a, b, wiggle, rng, v)?;
        Ok(m)
    }

    /// In-place form of [`TileMap::carve_winding`]; nothing changes on an error.
    /// Θ(length).
    pub fn carve_winding_mut(
        &mut self,
        a: Loc,
        b: Loc,
        wiggle: f64,
        rng: &mut GameRng,
        v: T,
    ) -> Result<(), MapGenError> {
        self.on_map(a)?;
        self.on_map(b)?;
        let wiggle = if wiggle.is_nan() {
            0.0
        } else {
            wiggle.clamp(0.0, 0.9)
        };
        let lo_x = a.x.min(b.x).saturating_sub(2).max(0);
        let hi_x = a.x.max(b.x).saturating_add(2).min(self.width - 1);
        let lo_y = a.y.min(b.y).saturating_sub(2).max(0);
        let hi_y = a.y.max(b.y).saturating_add(2).min(self.height - 1);
        let m = self;
        let mut p = Loc::new(a.x, a.y, 0);
        m.set_mut(p, v.clone());
        // A sideways step never moves away from b along the axis it uses more than 2
        // cells, and toward-steps happen with probability ≥ 0.1, so this ends; the step cap
        // is a guard that finishes with a straight line.
        let cap = 64 * (a.x.abs_diff(b.x) as usize + a.y.abs_diff(b.y) as usize + 4);
        for _ in 0..cap {
            if (p.x, p.y) == (b.x, b.y) {
                return Ok(());
            }
            let toward_x = (b.x - p.x).signum();
            let toward_y = (b.y - p.y).signum();
            let (mut sx, mut sy) = if toward_x != 0 && (toward_y == 0 || rng.chance(0.5)) {
                (toward_x, 0)
            } else {
                (0, toward_y)
            };
            if rng.chance(wiggle) {
                // Sideways: perpendicular to the chosen step.
                let sign = if rng.chance(0.5) { 1 } else { -1 };
                (sx, sy) = if sx != 0 { (0, sign) } else { (sign, 0) };
            }
            let q = Loc::new(p.x + sx, p.y + sy, 0);
            if (lo_x..=hi_x).contains(&q.x) && (lo_y..=hi_y).contains(&q.y) {
                p = q;
                m.set_mut(p, v.clone());
            }
        }
        m.carve_line_mut(p, b, v)
    }

    /// A copy after a drunkard's walk of `steps` orthogonal random steps from `start`,
    /// setting every visited cell to `v`. The walk stays off the outermost ring of the map
    /// (when the map is at least 3 × 3). [`MapGenError::OffMap`] if `start` is off the map.
    /// Θ(cells + steps).
    pub fn drunkard_walk(
        &self,
        start: Loc,
        steps: usize,
        rng: &mut GameRng,
        v: T,
    ) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.drunkard_walk_mut(start, steps, rng, v)?;
        Ok(m)
    }

    /// In-place form of [`TileMap::drunkard_walk`]; nothing changes on an error. Θ(steps).
    pub fn drunkard_walk_mut(
        &mut self,
        start: Loc,
        steps: usize,
        rng: &mut GameRng,
        v: T,
    ) -> Result<(), MapGenError> {
        self.on_map(start)?;
        let margin_x = i32::from(self.width >= 3);
        let margin_y = i32::from(self.height >= 3);
        let (lo_x, hi_x) = (margin_x, self.width - 1 - margin_x);
        let (lo_y, hi_y) = (margin_y, self.height - 1 - margin_y);
        let m = self;
        let mut p = Loc::new(start.x, start.y, 0);
        m.set_mut(p, v.clone());
        for _ in 0..steps {
            let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][rng.below(4) as usize];
            let q = Loc::new(
                (p.x + dx).clamp(lo_x, hi_x),
                (p.y + dy).clamp(lo_y, hi_y),
                0,
            );
            p = q;
            m.set_mut(p, v.clone());
        }
        Ok(())
    }

    /// A copy where every passable cell outside the largest region (by `adjacency`) is set
    /// to `fill`; [`MapGenError::NothingPassable`] when no cell is passable. Θ(cells).
    pub fn keep_largest_region(
        &self,
        passable: impl Fn(&T) -> bool,
        adjacency: Adjacency,
        fill: T,
    ) -> Result<Self, MapGenError> {
        let mut m = self.clone();
        m.keep_largest_region_mut(passable, adjacency, fill)?;
        Ok(m)
    }

    /// In-place form of [`TileMap::keep_largest_region`]; nothing changes on an error.
    pub fn keep_largest_region_mut(
        &mut self,
        passable: impl Fn(&T) -> bool,
        adjacency: Adjacency,
        fill: T,
    ) -> Result<(), MapGenError> {
        let regions = self.regions(passable, adjacency);
        let keep = regions.largest().ok_or(MapGenError::NothingPassable)?;
        for (c, &label) in self.cells.iter_mut().zip(&regions.labels) {
            if label != Regions::NONE && label as usize != keep {
                *c = fill.clone();
            }
        }
        Ok(())
    }
}

impl<T> TileMap<T> {
    /// Width in cells.
    #[must_use]
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    #[must_use]
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The map's rectangle placed on level `z`.
    #[must_use]
    pub fn bounds(&self, z: i32) -> LocBox {
        LocBox::rect(0, 0, self.width, self.height, z)
    }

    /// Whether `(l.x, l.y)` is on the map.
    #[must_use]
    #[inline]
    pub fn contains(&self, l: Loc) -> bool {
        (0..self.width).contains(&l.x) && (0..self.height).contains(&l.y)
    }

    #[inline]
    fn index(&self, l: Loc) -> Option<usize> {
        self.contains(l)
            .then(|| l.y as usize * self.width as usize + l.x as usize)
    }

    #[inline]
    fn loc(&self, i: usize) -> Loc {
        let w = self.width as usize;
        Loc::new((i % w) as i32, (i / w) as i32, 0)
    }

    /// The cell at `l`, `None` off the map. Θ(1).
    #[must_use]
    #[inline]
    pub fn get(&self, l: Loc) -> Option<&T> {
        self.cells.get(self.index(l)?)
    }

    /// The cell at `l` mutably, `None` off the map. Θ(1).
    #[must_use]
    pub fn get_mut(&mut self, l: Loc) -> Option<&mut T> {
        let i = self.index(l)?;
        self.cells.get_mut(i)
    }

    /// Sets the cell at `l` in place and returns its previous value; `None` (and no change)
    /// off the map. Θ(1).
    pub fn set_mut(&mut self, l: Loc, v: T) -> Option<T> {
        self.get_mut(l).map(|c| std::mem::replace(c, v))
    }

    /// All cells, row-major.
    #[must_use]
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// Every cell with its location (z = 0), row-major.
    pub fn iter(&self) -> impl Iterator<Item = (Loc, &T)> + '_ {
        self.cells.iter().enumerate().map(|(i, c)| (self.loc(i), c))
    }

    /// How many cells satisfy `pred`. Θ(cells).
    #[must_use]
    pub fn count(&self, pred: impl Fn(&T) -> bool) -> usize {
        self.cells.iter().filter(|c| pred(c)).count()
    }

    /// A map of the same shape with every cell converted by `f`. Θ(cells).
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> TileMap<U> {
        TileMap {
            width: self.width,
            height: self.height,
            cells: self.cells.iter().map(f).collect(),
        }
    }

    /// ASCII art, one line per row, each ending in `\n`. Θ(cells).
    #[must_use]
    pub fn render(&self, f: impl Fn(&T) -> char) -> String {
        let mut s = String::with_capacity(self.cells.len() + self.height as usize);
        for row in self.cells.chunks(self.width as usize) {
            s.extend(row.iter().map(&f));
            s.push('\n');
        }
        s
    }

    /// Labels the connected areas of passable cells (flood fill). Θ(cells).
    #[must_use]
    pub fn regions(&self, passable: impl Fn(&T) -> bool, adjacency: Adjacency) -> Regions {
        let open: Vec<bool> = self.cells.iter().map(&passable).collect();
        let (w, h) = (self.width as usize, self.height as usize);
        let mut labels = vec![Regions::NONE; open.len()];
        let mut sizes = Vec::new();
        let mut stack = Vec::new();
        let is_open = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && (x as usize) < w
                && (y as usize) < h
                && open[y as usize * w + x as usize]
        };
        for seed in 0..open.len() {
            if !open[seed] || labels[seed] != Regions::NONE {
                continue;
            }
            let id = sizes.len() as u32;
            let mut size = 0usize;
            labels[seed] = id;
            stack.push(seed);
            while let Some(i) = stack.pop() {
                size += 1;
                let (x, y) = ((i % w) as i64, (i / w) as i64);
                for (dx, dy) in [
                    (0, -1),
                    (1, 0),
                    (0, 1),
                    (-1, 0),
                    (1, -1),
                    (1, 1),
                    (-1, 1),
                    (-1, -1),
                ] {
                    if dx != 0 && dy != 0 && adjacency == Adjacency::Four {
                        continue;
                    }
                    let (nx, ny) = (x + dx, y + dy);
                    if is_open(nx, ny) {
                        let n = ny as usize * w + nx as usize;
                        if labels[n] == Regions::NONE {
                            labels[n] = id;
                            stack.push(n);
                        }
                    }
                }
            }
            sizes.push(size);
        }
        Regions {
            width: self.width,
            labels,
            sizes,
        }
    }

    /// Checks that every passable cell can be reached from `from` (by `adjacency`).
    ///
    /// `Ok(n)` with the number of passable cells when all are reachable; otherwise
    /// [`Disconnected`] lists the unreachable regions, each as its cells. If `from` is off
    /// the map or not passable, every passable cell counts as unreachable. Θ(cells).
    pub fn check_connected(
        &self,
        from: Loc,
        passable: impl Fn(&T) -> bool,
        adjacency: Adjacency,
    ) -> Result<usize, Disconnected> {
        let regions = self.regions(passable, adjacency);
        let home = regions.label(from);
        let unreachable: Vec<usize> = (0..regions.len()).filter(|&r| Some(r) != home).collect();
        if unreachable.is_empty() {
            return Ok(regions.sizes.iter().sum());
        }
        let mut cells = vec![Vec::new(); regions.len()];
        for (i, &label) in regions.labels.iter().enumerate() {
            if label != Regions::NONE && Some(label as usize) != home {
                cells[label as usize].push(self.loc(i));
            }
        }
        Err(Disconnected {
            regions: cells.into_iter().filter(|c| !c.is_empty()).collect(),
        })
    }
}

impl TileMap<bool> {
    /// A cellular-automaton cave (`true` = floor): each cell off the border starts as floor
    /// with probability `floor_chance`, then [`smooth`](TileMap::smooth) runs `rounds` times.
    /// The border is always wall. [`MapGenError::BadSize`] for bad dimensions (see
    /// [`TileMap::new`]). [`Cave`] is the same with named parameters.
    /// Θ(cells · (rounds + 1)); 80 × 50 with 4 rounds takes tens of µs.
    ///
    /// ```
    /// use alembic::{rng::GameRng, mapgen::TileMap};
    /// let cave = TileMap::cave(80, 50, 0.55, 4, &mut GameRng::seed_from(3)).unwrap();
    /// assert!(cave.count(|&f| f) > 1000);
    /// ```
    pub fn cave(
        width: i32,
        height: i32,
        floor_chance: f64,
        rounds: usize,
        rng: &mut GameRng,
    ) -> Result<Self, MapGenError> {
        let mut m = TileMap::new(width, height, false)?;
        let (w, h) = (width as usize, height as usize);
        for y in 1..h.saturating_sub(1) {
            for x in 1..w.saturating_sub(1) {
                m.cells[y * w + x] = rng.chance(floor_chance);
            }
        }
        let mut scratch = Vec::new();
        for _ in 0..rounds {
            m.smooth_in_place(&mut scratch);
        }
        Ok(m)
    }

    /// A maze (`true` = floor) by the recursive backtracker: cells on odd coordinates, joined
    /// so that every one is reachable from (1, 1) by exactly one path, then `loops` random
    /// cells off the border opened as well (ways round, so a maze is not a trap). Even
    /// sizes leave their last column or row as wall. [`MapGenError::BadSize`] for bad
    /// dimensions (see [`TileMap::new`]). Θ(cells).
    ///
    /// ```
    /// use alembic::{Loc, rng::GameRng, mapgen::{Adjacency, TileMap}};
    /// let maze = TileMap::maze(21, 11, 0, &mut GameRng::seed_from(7)).unwrap();
    /// // Every cell on odd coordinates is floor, and all of them are one region.
    /// assert!(maze.get(Loc::new(19, 9, 0)) == Some(&true));
    /// assert_eq!(maze.regions(|&f| f, Adjacency::Four).len(), 1);
    /// // A perfect maze: floor cells = 2 × cells − 1 (each cell but the first opened one wall).
    /// assert_eq!(maze.count(|&f| f), 2 * 10 * 5 - 1);
    /// ```
    pub fn maze(
        width: i32,
        height: i32,
        loops: usize,
        rng: &mut GameRng,
    ) -> Result<Self, MapGenError> {
        let mut m = TileMap::new(width, height, false)?;
        let inside = |l: Loc| l.x > 0 && l.y > 0 && l.x < width - 1 && l.y < height - 1;
        let start = Loc::new(1, 1, 0);
        if !inside(start) {
            return Ok(m);
        }
        m.set_mut(start, true);
        let mut stack = vec![start];
        while let Some(&c) = stack.last() {
            let next: Vec<Loc> = [(2, 0), (-2, 0), (0, 2), (0, -2)]
                .iter()
                .map(|&(dx, dy)| Loc::new(c.x + dx, c.y + dy, 0))
                .filter(|&l| inside(l) && m.get(l) == Some(&false))
                .collect();
            if next.is_empty() {
                stack.pop();
                continue;
            }
            let n = next[rng.below(next.len() as u64) as usize];
            m.set_mut(Loc::new((c.x + n.x) / 2, (c.y + n.y) / 2, 0), true);
            m.set_mut(n, true);
            stack.push(n);
        }
        for _ in 0..loops {
            let x = 1 + rng.below((width - 2).max(1) as u64) as i32;
            let y = 1 + rng.below((height - 2).max(1) as u64) as i32;
            m.set_mut(Loc::new(x, y, 0), true);
        }
        Ok(m)
    }

    /// One automaton round: a cell off the border becomes floor when at least 5 of the 9
    /// cells of its 3 × 3 block (itself included) are floor, wall otherwise; the border
    /// becomes wall. Returns a new map. Θ(cells).
    pub fn smooth(&self) -> Self {
        let mut m = self.clone();
        m.smooth_in_place(&mut Vec::new());
        m
    }

    fn smooth_in_place(&mut self, rowsum: &mut Vec<u8>) {
        let (w, h) = (self.width as usize, self.height as usize);
        // rowsum[y·w + x] = floor count of (x−1..=x+1, y); then sum three rows.
        rowsum.clear();
        rowsum.resize(w * h, 0);
        for y in 0..h {
            let row = &self.cells[y * w..(y + 1) * w];
            let out = &mut rowsum[y * w..(y + 1) * w];
            for x in 0..w {
                let l = x.checked_sub(1).map_or(0, |i| u8::from(row[i]));
                let r = row.get(x + 1).map_or(0, |&c| u8::from(c));
                out[x] = l + u8::from(row[x]) + r;
            }
        }
        for y in 0..h {
            for x in 0..w {
                let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                self.cells[y * w + x] = !border
                    && rowsum[(y - 1) * w + x] + rowsum[y * w + x] + rowsum[(y + 1) * w + x] >= 5;
            }
        }
    }
}

/// Connected regions of a [`TileMap`], from [`TileMap::regions`]. Region ids are
/// `0..len()`, numbered in row-major order of their first cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Regions {
    width: i32,
    labels: Vec<u32>,
    sizes: Vec<usize>,
}

impl Regions {
    const NONE: u32 = u32::MAX;

    /// The region of `l`; `None` for impassable or off-map cells.
    #[must_use]
    pub fn label(&self, l: Loc) -> Option<usize> {
        if l.x < 0 || l.y < 0 || l.x >= self.width {
            return None;
        }
        let i = l.y as usize * self.width as usize + l.x as usize;
        self.labels
            .get(i)
            .filter(|&&v| v != Self::NONE)
            .map(|&v| v as usize)
    }

    /// Number of regions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.sizes.len()
    }

    /// True when there is no passable cell.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.sizes.is_empty()
    }

    /// Cells in region `id` (0 for an unknown id).
    #[must_use]
    pub fn size(&self, id: usize) -> usize {
        self.sizes.get(id).copied().unwrap_or(0)
    }

    /// The id of the largest region (the first on ties), `None` when there are none.
    #[must_use]
    pub fn largest(&self) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (i, &s) in self.sizes.iter().enumerate() {
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The cells of region `id` (z = 0), row-major. Θ(map cells).
    pub fn cells(&self, id: usize) -> impl Iterator<Item = Loc> + '_ {
        let w = self.width.max(1) as usize;
        self.labels
            .iter()
            .enumerate()
            .filter(move |&(_, &l)| l as usize == id && l != Self::NONE)
            .map(move |(i, _)| Loc::new((i % w) as i32, (i / w) as i32, 0))
    }
}

/// Some passable cells cannot be reached; from [`TileMap::check_connected`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{} unreachable region(s), {} cell(s) in all", regions.len(), regions.iter().map(Vec::len).sum::<usize>())]
pub struct Disconnected {
    /// Each unreachable region's cells (z = 0), row-major.
    pub regions: Vec<Vec<Loc>>,
}

/// One split of a [`Bsp`]: a box cut in two, and a pair of adjacent cells across the cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BspSplit {
    /// The box that was cut.
    pub area: LocBox,
    /// The west or north part.
    pub first: LocBox,
    /// The east or south part.
    pub second: LocBox,
    /// The connection point: a cell of `first` and the cell of `second` next to it across
    /// the cut. A corridor through both joins the halves.
    pub door: (Loc, Loc),
}

/// A binary space partition of a box: its leaves and every split with its connection
/// points (the seed game's approach: connect the two halves of every split, and the whole
/// is connected).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bsp {
    /// The undivided boxes, in depth-first order.
    pub leaves: Vec<LocBox>,
    /// Every split, parents before children.
    pub splits: Vec<BspSplit>,
}

impl Bsp {
    /// Recursively cuts `area` (its `z` range is kept) into boxes at least `min_size` on each
    /// side, at most `max_depth` levels deep. A box is cut across its longer side (either way
    /// when square-ish) at a random position leaving both parts ≥ `min_size`; a box too small
    /// to cut is a leaf. `min_size` below 1 counts as 1. Θ(leaves).
    ///
    /// ```
    /// use alembic::{mapgen::Bsp, rng::GameRng, LocBox};
    /// let area = LocBox::rect(0, 0, 80, 50, 0);
    /// let bsp = Bsp::new(area, 8, 4, &mut GameRng::seed_from(5));
    /// assert_eq!(bsp.splits.len() + 1, bsp.leaves.len());
    /// assert!(bsp.splits.iter().all(|s| s.area.contains(s.door.0) && s.area.contains(s.door.1)));
    /// ```
    #[must_use]
    pub fn new(area: LocBox, min_size: i32, max_depth: u32, rng: &mut GameRng) -> Bsp {
        let mut bsp = Bsp {
            leaves: Vec::new(),
            splits: Vec::new(),
        };
        let mut stack = vec![(area, 0u32)];
        let min = min_size.max(1);
        while let Some((b, depth)) = stack.pop() {
            match (depth < max_depth).then(|| split(b, min, rng)).flatten() {
                Some(s) => {
                    bsp.splits.push(s);
                    stack.push((s.second, depth + 1));
                    stack.push((s.first, depth + 1));
                }
                None => {
                    if !b.is_empty() {
                        bsp.leaves.push(b);
                    }
                }
            }
        }
        bsp
    }
}

fn split(b: LocBox, min: i32, rng: &mut GameRng) -> Option<BspSplit> {
    if b.is_empty() {
        return None;
    }
    let w = i64::from(b.max.x) - i64::from(b.min.x);
    let h = i64::from(b.max.y) - i64::from(b.min.y);
    let can_v = w >= 2 * i64::from(min);
    let can_h = h >= 2 * i64::from(min);
    let vertical = match (can_v, can_h) {
        (false, false) => return None,
        (true, false) => true,
        (false, true) => false,
        _ if w * 4 > h * 5 => true,
        _ if h * 4 > w * 5 => false,
        _ => rng.chance(0.5),
    };
    let (lo, hi) = if vertical {
        (b.min.x, b.max.x)
    } else {
        (b.min.y, b.max.y)
    };
    let cut = rng.range(
        i64::from(lo) + i64::from(min),
        i64::from(hi) - i64::from(min),
    ) as i32;
    let (first, second, door) = if vertical {
        let y = rng
            .range(i64::from(b.min.y) + 1, i64::from(b.max.y) - 2)
            .clamp(i64::from(b.min.y), i64::from(b.max.y) - 1) as i32;
        (
            LocBox::new(b.min, Loc::new(cut, b.max.y, b.max.z)),
            LocBox::new(Loc::new(cut, b.min.y, b.min.z), b.max),
            (Loc::new(cut - 1, y, b.min.z), Loc::new(cut, y, b.min.z)),
        )
    } else {
        let x = rng
            .range(i64::from(b.min.x) + 1, i64::from(b.max.x) - 2)
            .clamp(i64::from(b.min.x), i64::from(b.max.x) - 1) as i32;
        (
            LocBox::new(b.min, Loc::new(b.max.x, cut, b.max.z)),
            LocBox::new(Loc::new(b.min.x, cut, b.min.z), b.max),
            (Loc::new(x, cut - 1, b.min.z), Loc::new(x, cut, b.min.z)),
        )
    };
    Some(BspSplit {
        area: b,
        first,
        second,
        door,
    })
}

/// A random room inside `area` keeping a one-cell margin from its edges, each side between
/// `min_side` and the space available (capped at `max_side`); [`MapGenError::NoRoomFits`]
/// when even `min_side` does not fit. Θ(1).
pub fn random_room(
    area: LocBox,
    min_side: i32,
    max_side: i32,
    rng: &mut GameRng,
) -> Result<LocBox, MapGenError> {
    let min_side = min_side.max(1);
    let avail_w = (i64::from(area.max.x) - i64::from(area.min.x) - 2).min(i64::from(max_side));
    let avail_h = (i64::from(area.max.y) - i64::from(area.min.y) - 2).min(i64::from(max_side));
    if avail_w < i64::from(min_side) || avail_h < i64::from(min_side) {
        return Err(MapGenError::NoRoomFits { min_side });
    }
    let w = rng.range(i64::from(min_side), avail_w);
    let h = rng.range(i64::from(min_side), avail_h);
    let x = rng.range(i64::from(area.min.x) + 1, i64::from(area.max.x) - 1 - w);
    let y = rng.range(i64::from(area.min.y) + 1, i64::from(area.max.y) - 1 - h);
    Ok(LocBox::rect(
        x as i32, y as i32, w as i32, h as i32, area.min.z,
    ))
}

/// A complete rooms-and-corridors level built from the toolkit (`true` = floor): a
/// [`Bsp`] of the map, a [`random_room`] in each leaf, and for every split L-shaped
/// corridors from its door cells to a room on each side. Connected by construction.
///
/// Parameters, with their defaults: leaves of at least [`leaf`](BspDungeon::leaf) 8 cells a
/// side, split at most [`depth`](BspDungeon::depth) 5 times, rooms of
/// [`room_sides`](BspDungeon::room_sides) 3 to 12.
///
/// ```
/// use alembic::{mapgen::Adjacency, mapgen::BspDungeon, rng::GameRng};
/// let level = BspDungeon::new(80, 50).leaf(10).room_sides(4, 9).build(&mut GameRng::seed_from(9))?;
/// let start = level.iter().find(|(_, f)| **f).map(|(l, _)| l).unwrap();
/// assert!(level.check_connected(start, |&f| f, Adjacency::Four).is_ok());
/// # Ok::<(), alembic::mapgen::MapGenError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub struct BspDungeon {
    width: i32,
    height: i32,
    leaf: i32,
    depth: u32,
    min_side: i32,
    max_side: i32,
}

impl BspDungeon {
    /// A `width × height` dungeon with the default parameters.
    pub const fn new(width: i32, height: i32) -> Self {
        BspDungeon {
            width,
            height,
            leaf: 8,
            depth: 5,
            min_side: 3,
            max_side: 12,
        }
    }

    /// The smallest side of a BSP leaf.
    pub const fn leaf(mut self, side: i32) -> Self {
        self.leaf = side;
        self
    }

    /// The most times the map is split.
    pub const fn depth(mut self, depth: u32) -> Self {
        self.depth = depth;
        self
    }

    /// The smallest and largest side of a room.
    pub const fn room_sides(mut self, min: i32, max: i32) -> Self {
        self.min_side = min;
        self.max_side = max;
        self
    }

    /// Generate the level. [`MapGenError::BadSize`] for bad dimensions,
    /// [`MapGenError::NoRoomFits`] when a leaf cannot hold a room (maps under about 10 × 10
    /// with the defaults).
    pub fn build(&self, rng: &mut GameRng) -> Result<TileMap<bool>, MapGenError> {
        let mut map = TileMap::new(self.width, self.height, false)?;
        let area = LocBox::rect(0, 0, self.width, self.height, 0);
        let bsp = Bsp::new(area, self.leaf, self.depth, rng);
        let mut rooms = Vec::with_capacity(bsp.leaves.len());
        for leaf in &bsp.leaves {
            let room = random_room(*leaf, self.min_side, self.max_side, rng)?;
            map.carve_room_mut(room, true)?;
            rooms.push(room);
        }
        for s in &bsp.splits {
            for (half, door) in [(s.first, s.door.0), (s.second, s.door.1)] {
                let inside: Vec<&LocBox> = rooms
                    .iter()
                    .filter(|r| half.contains(r.min) && half.contains(r.max - Loc::new(1, 1, 1)))
                    .collect();
                let room = rng.index(inside.len()).and_then(|i| inside.get(i)).ok_or(
                    MapGenError::NoRoomFits {
                        min_side: self.min_side,
                    },
                )?;
                let centre = Loc::new(
                    room.min.x + room.width() / 2,
                    room.min.y + room.height() / 2,
                    0,
                );
                map.carve_l_mut(door.with_z(0), centre, rng.chance(0.5), true)?;
            }
        }
        Ok(map)
    }
}

/// [`BspDungeon::new`]`(width, height).build(rng)`: a rooms-and-corridors level with the
/// default parameters.
pub fn bsp_dungeon(
    width: i32,
    height: i32,
    rng: &mut GameRng,
) -> Result<TileMap<bool>, MapGenError> {
    BspDungeon::new(width, height).build(rng)
}

/// A cellular-automaton cave with named parameters: each cell off the border starts as floor
/// with probability [`floor_chance`](Cave::floor_chance) (default 0.55), then
/// [`rounds`](Cave::rounds) (default 4) rounds of smoothing. See [`TileMap::cave`].
///
/// ```
/// use alembic::{mapgen::Cave, rng::GameRng};
/// let cave = Cave::new(80, 50).floor_chance(0.5).rounds(5).build(&mut GameRng::seed_from(3))?;
/// assert!(cave.count(|&f| f) > 1000);
/// # Ok::<(), alembic::mapgen::MapGenError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[must_use]
pub struct Cave {
    width: i32,
    height: i32,
    floor_chance: f64,
    rounds: usize,
}

impl Cave {
    /// A `width × height` cave with the default parameters.
    pub const fn new(width: i32, height: i32) -> Self {
        Cave {
            width,
            height,
            floor_chance: 0.55,
            rounds: 4,
        }
    }

    /// The chance that a cell starts as floor.
    pub const fn floor_chance(mut self, chance: f64) -> Self {
        self.floor_chance = chance;
        self
    }

    /// How many smoothing rounds run.
    pub const fn rounds(mut self, rounds: usize) -> Self {
        self.rounds = rounds;
        self
    }

    /// Generate the cave.
    pub fn build(&self, rng: &mut GameRng) -> Result<TileMap<bool>, MapGenError> {
        TileMap::cave(self.width, self.height, self.floor_chance, self.rounds, rng)
    }
}

impl<T> TileMap<T> {
    /// Debug helper: the labels of a [`Regions`] as ASCII (`'a'..='z'` cycling, `' '` for
    /// impassable cells). Θ(cells).
    #[must_use]
    pub fn render_regions(&self, regions: &Regions) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let c = regions
                    .label(Loc::new(x, y, 0))
                    .map_or(' ', |r| char::from(b'a' + (r % 26) as u8));
                s.push(c);
            }
            s.push('\n');
        }
        s
    }
}
