//! Pathfinding: A* and nearest-target search, and Brogue-style Dijkstra maps.
//!
//! Everything works on one level (a `Loc`'s `z`) inside a caller-given rectangle, with 8-way
//! moves and a per-move cost callback `cost(from, to) -> Option<u32>` (`None` = cannot move
//! there). The same movement rule applies everywhere, so A*, nearest-target search, Dijkstra
//! maps and [`TileMap::regions`](crate::mapgen::TileMap::regions) with
//! [`Adjacency::Four`](crate::mapgen::Adjacency::Four) agree on what is reachable:
//!
//! **No corner cutting**: a diagonal step from `a` is allowed only if at least one of the two
//! orthogonal steps it passes between is possible (`cost(a, orthogonal)` is `Some`). Squeezing
//! between two blocking cells is forbidden; sliding past a single corner is fine.

use crate::loc::{Loc, LocBox};
use crate::queue::{RadixHeap, key_of, value_of};

/// Largest search area (cells) a [`Pathfinder`] or [`DijkstraMap`] accepts.
pub const MAX_SEARCH_CELLS: usize = 1 << 24;

/// Why a path search found no path. Every failure is explicit; nothing gives up silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum PathError {
    /// Every cell reachable from the start was explored and none was the target.
    #[error("no path: all {explored} reachable cells explored without reaching the target")]
    NoPath {
        /// Cells expanded before giving the answer.
        explored: usize,
    },
    /// The caller's exploration bound ([`Search::max_explored`]) was reached first; a path
    /// may or may not exist.
    #[error("search bound reached after exploring {explored} cells")]
    BoundReached {
        /// Cells expanded (equal to the bound).
        explored: usize,
    },
    /// The start or the goal is outside [`Search::bounds`] or on another level.
    #[error("start or goal outside the search bounds")]
    OutOfBounds,
    /// The search rectangle is empty or larger than [`MAX_SEARCH_CELLS`].
    #[error("search area is empty or larger than {MAX_SEARCH_CELLS} cells")]
    BadArea,
}

/// A found path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    /// Every location from the start to the goal, both included (just the start when they
    /// are equal).
    pub steps: Vec<Loc>,
    /// Sum of the move costs along `steps`.
    pub cost: u64,
}

impl Path {
    /// The first move to make (`None` when already at the goal).
    #[must_use]
    pub fn first_step(&self) -> Option<Loc> {
        self.steps.get(1).copied()
    }

    /// The final location.
    #[must_use]
    pub fn end(&self) -> Option<Loc> {
        self.steps.last().copied()
    }
}

/// Parameters of a search: where it may go, how far it may look, and the cheapest move
/// costs (for the A* octile heuristic).
///
/// ```
/// use alembic::{LocBox, path::Search};
/// let s = Search::new(LocBox::rect(0, 0, 80, 50, 0)).max_explored(500).move_costs(10, 14);
/// assert_eq!(s.max_explored, 500);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Search {
    /// Cells outside this rectangle are never entered; its `min.z` is the level searched.
    pub bounds: LocBox,
    /// The most cells the search may expand before answering
    /// [`PathError::BoundReached`].
    pub max_explored: usize,
    /// A lower bound on the cost of any orthogonal move.
    pub straight: u32,
    /// A lower bound on the cost of any diagonal move.
    pub diagonal: u32,
}

impl Search {
    /// No exploration bound; move costs at least 1 each way.
    #[must_use]
    pub const fn new(bounds: LocBox) -> Self {
        Search {
            bounds,
            max_explored: usize::MAX,
            straight: 1,
            diagonal: 1,
        }
    }

    /// Sets the exploration bound.
    #[must_use]
    pub const fn max_explored(mut self, n: usize) -> Self {
        self.max_explored = n;
        self
    }

    /// Sets the minimum orthogonal and diagonal move costs used by the heuristic. A* is
    /// optimal as long as no move is cheaper than these; too-high values make it faster
    /// but possibly suboptimal.
    #[must_use]
    pub const fn move_costs(mut self, straight: u32, diagonal: u32) -> Self {
        self.straight = straight;
        self.diagonal = diagonal;
        self
    }

    /// Octile distance between two points with this search's minimum costs.
    fn heuristic(&self, dx: u32, dy: u32) -> u64 {
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        let diag = u64::from(self.diagonal).min(2 * u64::from(self.straight));
        diag * u64::from(lo) + u64::from(self.straight) * u64::from(hi - lo)
    }
}

/// The rectangle of one level, validated: origin, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Area {
    x0: i32,
    y0: i32,
    z: i32,
    w: u32,
    h: u32,
}

impl Area {
    fn new(b: LocBox) -> Option<Area> {
        let w = i64::from(b.max.x) - i64::from(b.min.x);
        let h = i64::from(b.max.y) - i64::from(b.min.y);
        if w <= 0 || h <= 0 || b.max.z <= b.min.z || w * h > MAX_SEARCH_CELLS as i64 {
            return None;
        }
        Some(Area {
            x0: b.min.x,
            y0: b.min.y,
            z: b.min.z,
            w: w as u32,
            h: h as u32,
        })
    }

    fn len(&self) -> usize {
        self.w as usize * self.h as usize
    }

    #[inline]
    fn index(&self, l: Loc) -> Option<u32> {
        let x = i64::from(l.x) - i64::from(self.x0);
        let y = i64::from(l.y) - i64::from(self.y0);
        if l.z == self.z
            && (0..i64::from(self.w)).contains(&x)
            && (0..i64::from(self.h)).contains(&y)
        {
            Some((y * i64::from(self.w) + x) as u32)
        } else {
            None
        }
    }

    #[inline]
    fn loc(&self, i: u32) -> Loc {
        Loc::new(
            self.x0.wrapping_add((i % self.w) as i32),
            self.y0.wrapping_add((i / self.w) as i32),
            self.z,
        )
    }

    /// The world location of local coordinates.
    #[inline]
    fn local(&self, x: u32, y: u32) -> Loc {
        Loc::new(
            self.x0.wrapping_add(x as i32),
            self.y0.wrapping_add(y as i32),
            self.z,
        )
    }

    #[inline]
    fn xy(&self, i: u32) -> (u32, u32) {
        (i % self.w, i / self.w)
    }

    fn bounds(&self) -> LocBox {
        LocBox::new(
            Loc::new(self.x0, self.y0, self.z),
            Loc::new(
                self.x0.wrapping_add(self.w as i32),
                self.y0.wrapping_add(self.h as i32),
                self.z.wrapping_add(1),
            ),
        )
    }
}

// Compass order: N, NE, E, SE, S, SW, W, NW. Orthogonals at even indices.
const DX: [i32; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
const DY: [i32; 8] = [-1, -1, 0, 1, 1, 1, 0, -1];

/// Neighbour of local `(x, y)` in direction `k`, if inside the area.
#[inline]
fn step(area: &Area, x: u32, y: u32, k: usize) -> Option<(u32, u32)> {
    let nx = x.wrapping_add_signed(DX[k]);
    let ny = y.wrapping_add_signed(DY[k]);
    // Wrapping below zero gives a huge value, so one comparison per axis suffices.
    (nx < area.w && ny < area.h).then_some((nx, ny))
}

/// Local coordinates packed into a queue value (no division needed to unpack).
#[inline]
fn pack(x: u32, y: u32) -> u64 {
    (u64::from(y) << 32) | u64::from(x)
}

#[inline]
fn unpack(v: u64) -> (u32, u32) {
    (v as u32, (v >> 32) as u32)
}

/// Reusable search workspace for [`astar`](Pathfinder::astar) and
/// [`nearest`](Pathfinder::nearest): dense per-cell arrays invalidated by a generation stamp,
/// so a warmed-up workspace searches without allocating (except the returned path).
///
/// ```
/// use alembic::{Loc, LocBox, path::Pathfinder, path::PathError, path::Search};
/// let area = LocBox::rect(0, 0, 10, 10, 0);
/// // A wall at x = 5 with a gap at y = 8.
/// let cost = |_: Loc, to: Loc| (to.x != 5 || to.y == 8).then_some(1);
/// let mut pf = Pathfinder::new();
/// let path = pf.astar(Loc::new(0, 0, 0), Loc::new(9, 0, 0), &Search::new(area), cost).unwrap();
/// assert!(path.steps.contains(&Loc::new(5, 8, 0)));
/// let walled = |_: Loc, to: Loc| (to.x != 5).then_some(1);
/// assert!(matches!(
///     pf.astar(Loc::new(0, 0, 0), Loc::new(9, 0, 0), &Search::new(area), walled),
///     Err(PathError::NoPath { .. })
/// ));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Pathfinder {
    g: Vec<u64>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    generation: u32,
    heap: RadixHeap,
}

impl Pathfinder {
    /// An empty workspace; it grows to the largest area searched.
    #[must_use]
    pub fn new() -> Self {
        Pathfinder::default()
    }

    /// Prepares the arrays for an area; returns the open and closed stamps.
    fn prepare(&mut self, len: usize) -> (u32, u32) {
        if self.g.len() < len {
            self.g.resize(len, 0);
            self.parent.resize(len, 0);
            self.stamp.resize(len, 0);
        }
        if self.generation >= u32::MAX - 2 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
        (self.generation, self.generation + 1)
    }

    /// The cheapest 8-way path from `start` to `goal`.
    ///
    /// Returns the path with its cost, or says explicitly why there is none. Optimal when
    /// no move is cheaper than `search.straight` / `search.diagonal`. Cost:
    /// O(E log E) for E cells expanded (at most `search.max_explored`), 8 cost calls per
    /// expanded cell.
    pub fn astar(
        &mut self,
        start: Loc,
        goal: Loc,
        search: &Search,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> Result<Path, PathError> {
        let area = Area::new(search.bounds).ok_or(PathError::BadArea)?;
        let goal_i = area.index(goal).ok_or(PathError::OutOfBounds)?;
        let (gx, gy) = area.xy(goal_i);
        let h = |x: u32, y: u32| search.heuristic(x.abs_diff(gx), y.abs_diff(gy));
        self.run(
            start,
            &area,
            search.max_explored,
            |x, y| (x, y) == (gx, gy),
            h,
            cost,
        )
    }

    /// The cheapest path from `start` to the nearest location satisfying `is_target`
    /// (uniform-cost search: Dijkstra stopped at the first target). Use it for "nearest
    /// item", "nearest unexplored cell" and similar queries. Cost: as
    /// [`astar`](Pathfinder::astar) without the heuristic.
    pub fn nearest(
        &mut self,
        start: Loc,
        search: &Search,
        is_target: impl Fn(Loc) -> bool,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> Result<Path, PathError> {
        let area = Area::new(search.bounds).ok_or(PathError::BadArea)?;
        self.run(
            start,
            &area,
            search.max_explored,
            |x, y| is_target(area.local(x, y)),
            |_, _| 0,
            cost,
        )
    }

    fn run(
        &mut self,
        start: Loc,
        area: &Area,
        max_explored: usize,
        is_goal: impl Fn(u32, u32) -> bool,
        h: impl Fn(u32, u32) -> u64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> Result<Path, PathError> {
        let start_i = area.index(start).ok_or(PathError::OutOfBounds)?;
        let (sx, sy) = area.xy(start_i);
        let (open, closed) = self.prepare(area.len());
        let w = area.w;
        let si = start_i as usize;
        self.g[si] = 0;
        self.parent[si] = start_i;
        self.stamp[si] = open;
        self.heap.push(h(sx, sy), pack(sx, sy));
        let mut explored = 0usize;
        while let Some((_, v)) = self.heap.pop() {
            let (x, y) = unpack(v);
            let i = y * w + x;
            let iu = i as usize;
            if self.stamp[iu] == closed {
                continue;
            }
            if is_goal(x, y) {
                return Ok(self.reconstruct(area, start_i, i));
            }
            if explored >= max_explored {
                return Err(PathError::BoundReached { explored });
            }
            explored += 1;
            self.stamp[iu] = closed;
            let here = area.local(x, y);
            let g_here = self.g[iu];
            let mut orth_ok = [false; 4];
            // Orthogonals first (k = 0, 2, 4, 6), then diagonals, which need them.
            for k in [0usize, 2, 4, 6, 1, 3, 5, 7] {
                let Some((nx, ny)) = step(area, x, y, k) else {
                    continue;
                };
                let diagonal = k % 2 == 1;
                if diagonal && !orth_ok[(k - 1) / 2] && !orth_ok[((k + 1) % 8) / 2] {
                    continue;
                }
                let nu = (ny * w + nx) as usize;
                let st = self.stamp[nu];
                if diagonal && st == closed {
                    continue; // orthogonal results are needed even when closed
                }
                let nloc = Loc::new(
                    here.x.wrapping_add(DX[k]),
                    here.y.wrapping_add(DY[k]),
                    area.z,
                );
                let Some(c) = cost(here, nloc) else {
                    continue;
                };
                if !diagonal {
                    orth_ok[k / 2] = true;
                }
                let ng = g_here.saturating_add(u64::from(c));
                if st == closed || (st == open && self.g[nu] <= ng) {
                    continue;
                }
                self.stamp[nu] = open;
                self.g[nu] = ng;
                self.parent[nu] = i;
                self.heap.push(ng.saturating_add(h(nx, ny)), pack(nx, ny));
            }
        }
        Err(PathError::NoPath { explored })
    }

    fn reconstruct(&self, area: &Area, start: u32, end: u32) -> Path {
        let mut steps = vec![area.loc(end)];
        let mut i = end;
        while i != start {
            i = self.parent[i as usize];
            steps.push(area.loc(i));
        }
        steps.reverse();
        Path {
            steps,
            cost: self.g[end as usize],
        }
    }
}

/// Convenience wrapper: [`Pathfinder::astar`] with a fresh workspace (allocates Θ(area)).
pub fn astar(
    start: Loc,
    goal: Loc,
    search: &Search,
    cost: impl Fn(Loc, Loc) -> Option<u32>,
) -> Result<Path, PathError> {
    Pathfinder::new().astar(start, goal, search, cost)
}

/// A distance field over one level (the Brogue "Dijkstra map"): each cell holds the cost of
/// the cheapest way from it to the nearest goal. Monsters chase by rolling downhill
/// ([`next_step`](DijkstraMap::next_step)); a [`flee`](DijkstraMap::flee) map makes them run
/// away intelligently; goals placed on unexplored frontiers ([`explore_targets`]) give
/// auto-explore.
///
/// Costs are those of *moving from a cell towards the goal*: the value of `x` is
/// `min over neighbours n of cost(x, n) + value(n)`, with the same no-corner-cutting rule as
/// [`astar`]. A cell gets a value whenever it can move toward a goal, so if `cost`
/// only looks at the destination, walls beside the floor get values too (harmless; check
/// `from` as well to avoid it). For plain terrain costs use the faster
/// [`rebuild_terrain`](DijkstraMap::rebuild_terrain). Building: Θ(A log A) for A reachable
/// cells, about 5 cost calls per cell (80 × 50 cave, 10 goals: ≈ 130 µs).
/// Memory: 8 bytes per cell of the area.
///
/// ```
/// use alembic::{path::DijkstraMap, Loc, LocBox};
/// let area = LocBox::rect(0, 0, 10, 1, 0);
/// let open = |_: Loc, _: Loc| Some(1);
/// let map = DijkstraMap::build(area, &[Loc::new(0, 0, 0), Loc::new(9, 0, 0)], open);
/// assert_eq!(map.get(Loc::new(3, 0, 0)), Some(3));
/// assert_eq!(map.next_step(Loc::new(3, 0, 0), open), Some(Loc::new(2, 0, 0)));
/// let flee = map.flee(open);
/// assert_eq!(flee.next_step(Loc::new(3, 0, 0), open), Some(Loc::new(4, 0, 0)));
/// ```
#[derive(Clone, Debug)]
pub struct DijkstraMap {
    area: Option<Area>,
    dist: Vec<i64>,
    heap: RadixHeap,
    /// Scratch for [`rebuild_terrain`](DijkstraMap::rebuild_terrain): padded entry costs,
    /// padded distances and a bucket queue.
    enter: Vec<u32>,
    pdist: Vec<i64>,
    dial: DialQueue,
}

const BLOCKED: u32 = u32::MAX;

/// The priority queue interface the terrain search needs (keys are distances ≥ 0).
trait DistQueue {
    fn put(&mut self, d: i64, cell: usize);
    fn take(&mut self) -> Option<(i64, usize)>;
}

impl DistQueue for RadixHeap {
    #[inline]
    fn put(&mut self, d: i64, cell: usize) {
        self.push(key_of(d), cell as u64);
    }
    #[inline]
    fn take(&mut self) -> Option<(i64, usize)> {
        self.pop().map(|(k, v)| (value_of(k), v as usize))
    }
}

/// Dial's bucket queue: a ring of buckets indexed by exact distance, for small step costs.
/// Push and pop Θ(1) (plus skipping empty buckets, at most the largest step per pop).
#[derive(Clone, Debug, Default)]
struct DialQueue {
    ring: Vec<Vec<u32>>,
    mask: usize,
    cur: i64,
    len: usize,
}

impl DialQueue {
    /// Steps at or above this use the radix heap instead.
    const MAX_SPAN: u64 = 1 << 12;

    fn reset(&mut self, max_step: u64) {
        let size = (max_step as usize + 1).next_power_of_two();
        if self.ring.len() < size {
            self.ring.resize(size, Vec::new());
        }
        for b in &mut self.ring {
            b.clear();
        }
        self.mask = self.ring.len() - 1;
        self.cur = 0;
        self.len = 0;
    }
}

impl DistQueue for DialQueue {
    #[inline]
    fn put(&mut self, d: i64, cell: usize) {
        if let Some(b) = self.ring.get_mut(d as usize & self.mask) {
            b.push(cell as u32);
            self.len += 1;
        }
    }
    #[inline]
    fn take(&mut self) -> Option<(i64, usize)> {
        if self.len == 0 {
            return None;
        }
        loop {
            let slot = self.cur as usize & self.mask;
            if let Some(c) = self.ring.get_mut(slot).and_then(Vec::pop) {
                self.len -= 1;
                return Some((self.cur, c as usize));
            }
            self.cur += 1;
        }
    }
}

/// Dijkstra over a padded grid (border cells blocked) with terrain costs, from `seeds`
/// (padded cell, starting value). With a bucket queue the values must be ≥ 0.
fn terrain_search(
    q: &mut impl DistQueue,
    dist: &mut [i64],
    enter: &[u32],
    pw: usize,
    seeds: &[(usize, i64)],
    straight: u32,
    diagonal: u32,
) {
    for &(s, v) in seeds {
        if let Some(d) = dist.get_mut(s)
            && v < *d
        {
            *d = v;
            q.put(v, s);
        }
    }
    let pw = pw as isize;
    // N, E, S, W, then NE, SE, SW, NW with the indices of their two orthogonals.
    let orth = [-pw, 1, pw, -1];
    let diag = [
        (-pw + 1, 0, 1),
        (pw + 1, 2, 1),
        (pw - 1, 2, 3),
        (-pw - 1, 0, 3),
    ];
    let (straight, diagonal) = (u64::from(straight), u64::from(diagonal));
    while let Some((d, i)) = q.take() {
        let (Some(&di), Some(&e)) = (dist.get(i), enter.get(i)) else {
            continue;
        };
        if d != di || e == BLOCKED {
            continue; // stale, or a goal nobody can enter
        }
        let e = u64::from(e);
        let add =
            |step: u64| d.saturating_add(i64::try_from(e.saturating_mul(step)).unwrap_or(i64::MAX));
        let (ds, dd) = (add(straight), add(diagonal));
        let mut open = [false; 4];
        for (k, &off) in orth.iter().enumerate() {
            let n = i.wrapping_add_signed(off);
            let (Some(&en), Some(old)) = (enter.get(n), dist.get(n).copied()) else {
                continue;
            };
            if en == BLOCKED {
                continue;
            }
            open[k] = true;
            if ds < old {
                dist[n] = ds;
                q.put(ds, n);
            }
        }
        for &(off, a, b) in &diag {
            if !open[a] && !open[b] {
                continue;
            }
            let n = i.wrapping_add_signed(off);
            let (Some(&en), Some(old)) = (enter.get(n), dist.get(n).copied()) else {
                continue;
            };
            if en != BLOCKED && dd < old {
                dist[n] = dd;
                q.put(dd, n);
            }
        }
    }
}

impl PartialEq for DijkstraMap {
    fn eq(&self, other: &Self) -> bool {
        self.area == other.area && self.dist == other.dist
    }
}

impl Eq for DijkstraMap {}

impl DijkstraMap {
    /// The value of cells that cannot reach any goal.
    pub const UNREACHABLE: i64 = i64::MAX;

    /// A map of `area` (one level: `area.min.z`) with every cell unreachable. An empty or
    /// oversized area (more than [`MAX_SEARCH_CELLS`]) gives a map with no cells.
    #[must_use]
    pub fn new(area: LocBox) -> Self {
        let area = Area::new(area);
        DijkstraMap {
            area,
            dist: vec![Self::UNREACHABLE; area.map_or(0, |a| a.len())],
            heap: RadixHeap::default(),
            enter: Vec::new(),
            pdist: Vec::new(),
            dial: DialQueue::default(),
        }
    }

    /// A map whose goals all have value 0.
    #[must_use]
    pub fn build(area: LocBox, goals: &[Loc], cost: impl Fn(Loc, Loc) -> Option<u32>) -> Self {
        let mut m = DijkstraMap::new(area);
        m.rebuild(goals.iter().copied(), cost);
        m
    }

    /// Recomputes the map in place for new goals (value 0 each), reusing its memory.
    /// Goals outside the area are ignored.
    pub fn rebuild(
        &mut self,
        goals: impl IntoIterator<Item = Loc>,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        self.rebuild_weighted(goals.into_iter().map(|g| (g, 0)), cost);
    }

    /// Recomputes the map for new goals (value 0 each), but only as far as `max_value`:
    /// cells whose value would exceed it are left unreachable, so the work is bounded by
    /// the cells within that distance rather than by the area (a bot's "go to any of these,
    /// if it is at most 30 steps" reads one such map, built once a turn). Every value it
    /// does give equals [`rebuild`](DijkstraMap::rebuild)'s. Θ(C log C) for the C cells
    /// within `max_value`, plus Θ(area) to clear the map.
    ///
    /// ```
    /// use alembic::{path::DijkstraMap, Loc, LocBox};
    /// let area = LocBox::rect(0, 0, 10, 1, 0);
    /// let open = |_: Loc, _: Loc| Some(1);
    /// let mut map = DijkstraMap::new(area);
    /// map.rebuild_within([Loc::new(0, 0, 0)], 3, open);
    /// assert_eq!(map.get(Loc::new(3, 0, 0)), Some(3));
    /// assert_eq!(map.get(Loc::new(4, 0, 0)), None);
    /// ```
    pub fn rebuild_within(
        &mut self,
        goals: impl IntoIterator<Item = Loc>,
        max_value: i64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        self.seed_and_propagate(goals.into_iter().map(|g| (g, 0)), max_value, cost);
    }

    /// Recomputes the map from seeds with starting values (Brogue's desirability: a lower
    /// value is a more attractive goal; negative values are allowed).
    pub fn rebuild_weighted(
        &mut self,
        seeds: impl IntoIterator<Item = (Loc, i64)>,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        self.seed_and_propagate(seeds, i64::MAX, cost);
    }

    /// Clears the map, seeds it (seeds above `max_value` are left out) and propagates, giving
    /// no cell a value above `max_value`.
    fn seed_and_propagate(
        &mut self,
        seeds: impl IntoIterator<Item = (Loc, i64)>,
        max_value: i64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        self.dist.iter_mut().for_each(|d| *d = Self::UNREACHABLE);
        let Some(area) = self.area else { return };
        self.heap.clear();
        for (l, v) in seeds {
            if let Some(i) = area.index(l)
                && v <= max_value
            {
                let slot = &mut self.dist[i as usize];
                if v < *slot {
                    *slot = v;
                    let (x, y) = area.xy(i);
                    self.heap.push(key_of(v), pack(x, y));
                }
            }
        }
        self.propagate_within(&area, max_value, cost);
    }

    /// Recomputes the map for the common case of *terrain* costs, about three times as fast
    /// as [`rebuild`](DijkstraMap::rebuild) (80 × 50 cave, 10 goals: ≈ 45 µs).
    ///
    /// `enter(l)` is the cost factor of entering `l` (`None` = impassable), asked once per
    /// cell; an orthogonal step into `l` costs `straight · enter(l)`, a diagonal one
    /// `diagonal · enter(l)` (saturating), with the no-corner-cutting rule. Impassable cells
    /// get no value (goals always get 0). Equivalent to `rebuild` with
    /// `cost(a, b) = enter(a).and(enter(b)).map(|e| e · step)`. Θ(area) `enter` calls plus
    /// Θ(A) for A reachable cells when steps are small (a bucket queue), Θ(A log A) otherwise.
    ///
    /// ```
    /// use alembic::{path::DijkstraMap, Loc, LocBox};
    /// let area = LocBox::rect(0, 0, 5, 1, 0);
    /// let mut map = DijkstraMap::new(area);
    /// // Cell 2 is mud (costs 3 to enter), cell 4 a wall.
    /// let mud_and_wall = |l: Loc| match l.x {
    ///     2 => Some(3),
    ///     4 => None,
    ///     _ => Some(1),
    /// };
    /// map.rebuild_terrain([Loc::new(0, 0, 0)], 10, 14, mud_and_wall);
    /// assert_eq!(map.get(Loc::new(3, 0, 0)), Some(50));
    /// assert_eq!(map.get(Loc::new(4, 0, 0)), None);
    /// ```
    pub fn rebuild_terrain(
        &mut self,
        goals: impl IntoIterator<Item = Loc>,
        straight: u32,
        diagonal: u32,
        enter: impl Fn(Loc) -> Option<u32>,
    ) {
        self.dist.iter_mut().for_each(|d| *d = Self::UNREACHABLE);
        let Some(area) = self.area else { return };
        // Work on a copy padded with a one-cell blocked border: no bounds checks inside.
        let (w, h) = (area.w as usize, area.h as usize);
        let pw = w + 2;
        let plen = pw * (h + 2);
        let mut max_enter = 0u32;
        self.enter.clear();
        self.enter.resize(plen, BLOCKED);
        for y in 0..h {
            for x in 0..w {
                if let Some(e) = enter(area.local(x as u32, y as u32)) {
                    let e = e.min(BLOCKED - 1);
                    max_enter = max_enter.max(e);
                    self.enter[(y + 1) * pw + x + 1] = e;
                }
            }
        }
        let mut pdist = std::mem::take(&mut self.pdist);
        pdist.clear();
        pdist.resize(plen, Self::UNREACHABLE);
        let seeds: Vec<(usize, i64)> = goals
            .into_iter()
            .filter_map(|g| area.index(g))
            .map(|i| {
                let (x, y) = area.xy(i);
                ((y as usize + 1) * pw + x as usize + 1, 0)
            })
            .collect();
        let max_step = u64::from(max_enter) * u64::from(straight.max(diagonal));
        if max_step < DialQueue::MAX_SPAN {
            let mut q = std::mem::take(&mut self.dial);
            q.reset(max_step);
            terrain_search(
                &mut q,
                &mut pdist,
                &self.enter,
                pw,
                &seeds,
                straight,
                diagonal,
            );
            self.dial = q;
        } else {
            let mut q = std::mem::take(&mut self.heap);
            q.clear();
            terrain_search(
                &mut q,
                &mut pdist,
                &self.enter,
                pw,
                &seeds,
                straight,
                diagonal,
            );
            self.heap = q;
        }
        for y in 0..h {
            let src = &pdist[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
            self.dist[y * w..(y + 1) * w].copy_from_slice(src);
        }
        self.pdist = pdist;
    }

    /// Dijkstra from everything in the heap over `dist`.
    fn propagate(&mut self, area: &Area, cost: impl Fn(Loc, Loc) -> Option<u32>) {
        self.propagate_within(area, i64::MAX, cost);
    }

    /// Dijkstra from everything in the heap over `dist`, giving no cell a value above
    /// `max_value`.
    fn propagate_within(
        &mut self,
        area: &Area,
        max_value: i64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        while let Some((key, v)) = self.heap.pop() {
            self.relax(area, key, v, max_value, &cost);
        }
    }

    /// Settles the cell `v` popped with `key` (unless the entry is stale): offers each
    /// neighbour the value of the walk through it, never above `max_value`.
    #[inline]
    fn relax(
        &mut self,
        area: &Area,
        key: u64,
        v: u64,
        max_value: i64,
        cost: &impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        let (w, h) = (area.w, area.h);
        let d = value_of(key);
        let (x, y) = unpack(v);
        let i = (y * w + x) as usize;
        if d != self.dist[i] {
            return; // stale entry
        }
        let here = area.local(x, y);
        let interior = x > 0 && y > 0 && x + 1 < w && y + 1 < h;
        for k in 0..8 {
            let nu = if interior {
                // Index offset of direction `k`, for cells away from the edge.
                i.wrapping_add_signed(DY[k] as isize * w as isize + DX[k] as isize)
            } else {
                match step(area, x, y, k) {
                    Some((nx, ny)) => (ny * w + nx) as usize,
                    None => continue,
                }
            };
            let Some(&old) = self.dist.get(nu) else {
                continue;
            };
            if old <= d {
                continue;
            }
            // Moving from the neighbour `there` into `here`.
            let there = Loc::new(
                here.x.wrapping_add(DX[k]),
                here.y.wrapping_add(DY[k]),
                area.z,
            );
            let Some(c) = cost(there, here) else {
                continue;
            };
            let nd = d.saturating_add(i64::from(c));
            if nd >= old || nd > max_value {
                continue;
            }
            if k % 2 == 1 {
                // Diagonal from `there` to `here`: one orthogonal must be open. Both
                // orthogonals are neighbours of `here`, inside the area unless `here`
                // is on its edge.
                let o1 = Loc::new(here.x, there.y, area.z);
                let o2 = Loc::new(there.x, here.y, area.z);
                let (k1, k2) = (if DY[k] < 0 { 0 } else { 4 }, if DX[k] > 0 { 2 } else { 6 });
                let in1 = interior || step(area, x, y, k1).is_some();
                let in2 = interior || step(area, x, y, k2).is_some();
                let side_open =
                    (in1 && cost(there, o1).is_some()) || (in2 && cost(there, o2).is_some());
                if !side_open {
                    continue;
                }
            }
            self.dist[nu] = nd;
            let (nx, ny) = (x.wrapping_add_signed(DX[k]), y.wrapping_add_signed(DY[k]));
            self.heap.push(key_of(nd), pack(nx, ny));
        }
    }

    /// Starts a search from `goals` (value 0 each) that settles cells in order of value only
    /// as far as [`settle_until`](DijkstraMap::settle_until) asks: for a question such as
    /// "which of these targets is nearest?", which is answered as soon as the first target
    /// is settled, and for the next question of the same kind, which goes on from there.
    /// Until then only the goals have values. Θ(area) to clear the map.
    ///
    /// ```
    /// use alembic::{path::DijkstraMap, Loc, LocBox};
    /// let area = LocBox::rect(0, 0, 20, 1, 0);
    /// let open = |_: Loc, _: Loc| Some(1);
    /// let mut map = DijkstraMap::new(area);
    /// map.begin_search([Loc::new(0, 0, 0)]);
    /// // Settle until cell 5 or cell 9 has its value: cell 5 comes first.
    /// assert_eq!(map.settle_until(|l| l.x == 5 || l.x == 9, 100, open), Some(5));
    /// assert_eq!(map.get(Loc::new(5, 0, 0)), Some(5));
    /// // Cells beyond are not settled yet; the search goes on from where it stopped.
    /// assert_eq!(map.get(Loc::new(9, 0, 0)), None);
    /// assert_eq!(map.settle_until(|l| l.x == 9, 100, open), Some(9));
    /// // No cell within 12 stops it: every value up to 12 is now final.
    /// assert_eq!(map.settle_until(|l| l.x == 19, 12, open), None);
    /// assert_eq!(map.get(Loc::new(12, 0, 0)), Some(12));
    /// ```
    pub fn begin_search(&mut self, goals: impl IntoIterator<Item = Loc>) {
        self.dist.iter_mut().for_each(|d| *d = Self::UNREACHABLE);
        self.heap.clear();
        let Some(area) = self.area else { return };
        for l in goals {
            if let Some(i) = area.index(l) {
                let slot = &mut self.dist[i as usize];
                if 0 < *slot {
                    *slot = 0;
                    let (x, y) = area.xy(i);
                    self.heap.push(key_of(0), pack(x, y));
                }
            }
        }
    }

    /// Goes on with the search [`begin_search`](DijkstraMap::begin_search) started: settles
    /// cells in order of value, none above `max_value`, until a cell for which `stop` holds
    /// is settled, then every other cell of the same value, and returns that value; `None`
    /// when every cell of value at most `max_value` is settled and none of them stopped it.
    /// `stop` is asked once for each cell, as it is settled; `cost` must be the same function
    /// for the whole search.
    ///
    /// After it returns `Some(v)`, every cell whose value is at most `v` has its final value
    /// (the one [`rebuild`](DijkstraMap::rebuild) gives); after `None`, every cell whose
    /// value is at most `max_value` has. Any other cell reads as `None` or as a value above
    /// that, which a later call may still lower. So a [`next_step`](DijkstraMap::next_step)
    /// from a settled cell is the one the whole map gives. Θ(C log C) for the C cells this
    /// call settles.
    pub fn settle_until(
        &mut self,
        mut stop: impl FnMut(Loc) -> bool,
        max_value: i64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> Option<i64> {
        let area = self.area?;
        let mut last = key_of(max_value);
        let mut found = false;
        while let Some((key, v)) = self.heap.pop() {
            if key > last {
                // The first cell above the stopping value: left for the next call (it is
                // popped first again, its key being the heap's last).
                self.heap.push(key, v);
                break;
            }
            let (x, y) = unpack(v);
            let fresh = value_of(key) == self.dist[(y * area.w + x) as usize];
            self.relax(&area, key, v, i64::MAX, &cost);
            if fresh && !found && stop(area.local(x, y)) {
                found = true;
                last = key;
            }
        }
        found.then_some(value_of(last))
    }

    /// The area covered (`None` when the map was created with an invalid area).
    #[must_use]
    pub fn area(&self) -> Option<LocBox> {
        self.area.map(|a| a.bounds())
    }

    /// The value at `l`: `None` outside the area or when no goal is reachable from `l`.
    #[must_use]
    pub fn get(&self, l: Loc) -> Option<i64> {
        let area = self.area?;
        let d = *self.dist.get(area.index(l)? as usize)?;
        (d != Self::UNREACHABLE).then_some(d)
    }

    /// The best move from `from`: the allowed neighbour `n` minimising
    /// `cost(from, n) + value(n)`, provided that value is lower than `value(from)`. `None`
    /// at a goal, at a local minimum, or when `from` is unreachable. Ties go to the first
    /// direction clockwise from north. Θ(8) cost calls.
    #[must_use]
    pub fn next_step(&self, from: Loc, cost: impl Fn(Loc, Loc) -> Option<u32>) -> Option<Loc> {
        let here = self.get(from)?;
        let area = self.area?;
        let mut orth_ok = [false; 4];
        let mut best: Option<(i64, Loc)> = None;
        for k in [0usize, 2, 4, 6, 1, 3, 5, 7] {
            if k % 2 == 1 && !orth_ok[(k - 1) / 2] && !orth_ok[((k + 1) % 8) / 2] {
                continue;
            }
            let n = Loc::new(
                from.x.wrapping_add(DX[k]),
                from.y.wrapping_add(DY[k]),
                from.z,
            );
            if area.index(n).is_none() {
                continue;
            }
            let Some(c) = cost(from, n) else { continue };
            if k % 2 == 0 {
                orth_ok[k / 2] = true;
            }
            let Some(v) = self.get(n) else { continue };
            if v >= here {
                continue;
            }
            let total = v.saturating_add(i64::from(c));
            if best.is_none_or(|(b, _)| total < b) {
                best = Some((total, n));
            }
        }
        best.map(|(_, l)| l)
    }

    /// A flee map (Brogue's technique): every reachable value multiplied by −1.2, then
    /// re-propagated, so the minima are places far from the goals *and* with room to run,
    /// rather than dead ends that merely look far. Roll down it with
    /// [`next_step`](DijkstraMap::next_step). Returns a new map; `self` is unchanged.
    /// Cost: like [`build`](DijkstraMap::build).
    #[must_use]
    pub fn flee(&self, cost: impl Fn(Loc, Loc) -> Option<u32>) -> DijkstraMap {
        self.scaled(-6, 5, cost)
    }

    /// [`flee`](DijkstraMap::flee) for terrain costs, by the terrain search of
    /// [`rebuild_terrain`](DijkstraMap::rebuild_terrain): the same map as `flee(cost)` with
    /// `cost(a, b) = enter(a).and(enter(b)).map(|e| e · step)` (`straight` or `diagonal`).
    /// `enter` is asked once per cell; on the Alchemy bot's flee map (a 71 × 51 level) this
    /// runs about 40% fewer instructions than `flee` (callgrind). See
    /// [`scaled_terrain`](DijkstraMap::scaled_terrain).
    ///
    /// ```
    /// use alembic::{path::DijkstraMap, Loc, LocBox};
    /// let area = LocBox::rect(0, 0, 10, 1, 0);
    /// let open = |_: Loc| Some(1);
    /// let mut map = DijkstraMap::new(area);
    /// map.rebuild_terrain([Loc::new(0, 0, 0), Loc::new(9, 0, 0)], 1, 1, open);
    /// let flee = map.flee_terrain(1, 1, open);
    /// assert_eq!(flee, map.flee(|a, b| open(a).and(open(b))));
    /// ```
    #[must_use]
    pub fn flee_terrain(
        &self,
        straight: u32,
        diagonal: u32,
        enter: impl Fn(Loc) -> Option<u32>,
    ) -> DijkstraMap {
        self.scaled_terrain(-6, 5, straight, diagonal, enter)
    }

    /// [`scaled`](DijkstraMap::scaled) for terrain costs: every reachable value multiplied by
    /// `num / den` (rounded toward zero), then re-propagated by the terrain search, which
    /// gives what `scaled(num, den, cost)` gives with `cost(a, b) =
    /// enter(a).and(enter(b)).map(|e| e · step)`. `enter` is asked once per cell (`scaled`
    /// asks `cost` up to sixteen times a cell). A zero `den` gives a copy of `self`.
    /// Θ(area) `enter` calls plus Θ(A log A) for A reachable cells.
    #[must_use]
    pub fn scaled_terrain(
        &self,
        num: i64,
        den: i64,
        straight: u32,
        diagonal: u32,
        enter: impl Fn(Loc) -> Option<u32>,
    ) -> DijkstraMap {
        let mut out = self.clone();
        let Some(area) = self.area else { return out };
        if den == 0 {
            return out;
        }
        let (w, h) = (area.w as usize, area.h as usize);
        let pw = w + 2;
        let plen = pw * (h + 2);
        out.enter.clear();
        out.enter.resize(plen, BLOCKED);
        let mut seeds = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let p = (y + 1) * pw + x + 1;
                if let Some(e) = enter(area.local(x as u32, y as u32)) {
                    out.enter[p] = e.min(BLOCKED - 1);
                }
                let d = self.dist[y * w + x];
                if d != Self::UNREACHABLE {
                    seeds.push((p, d.saturating_mul(num) / den));
                }
            }
        }
        let mut pdist = std::mem::take(&mut out.pdist);
        pdist.clear();
        pdist.resize(plen, Self::UNREACHABLE);
        // The scaled values may be negative: the radix heap takes keys of either sign (the
        // bucket queue of `rebuild_terrain` does not).
        let mut q = std::mem::take(&mut out.heap);
        q.clear();
        terrain_search(
            &mut q, &mut pdist, &out.enter, pw, &seeds, straight, diagonal,
        );
        out.heap = q;
        for y in 0..h {
            let src = &pdist[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
            out.dist[y * w..(y + 1) * w].copy_from_slice(src);
        }
        out.pdist = pdist;
        out
    }

    /// Every reachable value multiplied by `num / den` (rounded toward zero), then
    /// re-propagated. [`flee`](DijkstraMap::flee) is `scaled(-6, 5, cost)`. A zero `den` gives
    /// a copy of `self`.
    #[must_use]
    pub fn scaled(
        &self,
        num: i64,
        den: i64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> DijkstraMap {
        let mut out = self.clone();
        let Some(area) = self.area else { return out };
        if den == 0 {
            return out;
        }
        out.heap.clear();
        for (i, d) in out.dist.iter_mut().enumerate() {
            if *d != Self::UNREACHABLE {
                *d = (*d).saturating_mul(num) / den;
                let (x, y) = area.xy(i as u32);
                out.heap.push(key_of(*d), pack(x, y));
            }
        }
        out.propagate(&area, cost);
        out
    }

    /// Every location with a finite value, with that value, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (Loc, i64)> + '_ {
        let area = self.area;
        self.dist.iter().enumerate().filter_map(move |(i, &d)| {
            let a = area?;
            (d != Self::UNREACHABLE).then(|| (a.loc(i as u32), d))
        })
    }
}

/// Auto-explore goals: every explored, passable location in `area` with at least one
/// unexplored neighbour (8-way). Build a [`DijkstraMap`] from them and roll down it; when the
/// list is empty, exploration is complete. Θ(area) predicate calls.
///
/// ```
/// use alembic::{path::explore_targets, Loc, LocBox};
/// let area = LocBox::rect(0, 0, 5, 1, 0);
/// let t = explore_targets(area, |l| l.x <= 2, |_| true);
/// assert_eq!(t, vec![Loc::new(2, 0, 0)]);
/// ```
#[must_use]
pub fn explore_targets(
    area: LocBox,
    explored: impl Fn(Loc) -> bool,
    passable: impl Fn(Loc) -> bool,
) -> Vec<Loc> {
    let Some(a) = Area::new(area) else {
        return Vec::new();
    };
    (0..a.len() as u32)
        .map(|i| a.loc(i))
        .filter(|&l| {
            explored(l)
                && passable(l)
                && l.neighbours8()
                    .any(|n| a.index(n).is_some() && !explored(n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(_: Loc, _: Loc) -> Option<u32> {
        Some(1)
    }

    #[test]
    fn straight_line_and_trivial_paths() {
        let s = Search::new(LocBox::rect(0, 0, 10, 10, 0));
        let p = astar(Loc::new(0, 0, 0), Loc::new(5, 5, 0), &s, open).unwrap();
        assert_eq!(p.cost, 5);
        assert_eq!(p.steps.len(), 6);
        let same = astar(Loc::new(2, 2, 0), Loc::new(2, 2, 0), &s, open).unwrap();
        assert_eq!(same.steps, vec![Loc::new(2, 2, 0)]);
        assert_eq!(same.first_step(), None);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let s = Search::new(LocBox::rect(0, 0, 10, 10, 0));
        let e = astar(Loc::new(-1, 0, 0), Loc::new(5, 5, 0), &s, open);
        assert_eq!(e, Err(PathError::OutOfBounds));
        let e = astar(Loc::new(1, 0, 0), Loc::new(5, 5, 1), &s, open);
        assert_eq!(e, Err(PathError::OutOfBounds));
        let huge = Search::new(LocBox::rect(i32::MIN, i32::MIN, i32::MAX, i32::MAX, 0));
        assert_eq!(
            astar(Loc::ORIGIN, Loc::ORIGIN, &huge, open),
            Err(PathError::BadArea)
        );
        let m = DijkstraMap::new(huge.bounds);
        assert_eq!(m.get(Loc::ORIGIN), None);
        assert_eq!(m.area(), None);
    }

    #[test]
    fn no_corner_cutting_between_two_walls() {
        // .#
        // #.
        let wall = |l: Loc| (l.x, l.y) == (1, 0) || (l.x, l.y) == (0, 1);
        let cost = |_: Loc, to: Loc| (!wall(to)).then_some(1);
        let s = Search::new(LocBox::rect(0, 0, 2, 2, 0));
        let e = astar(Loc::new(0, 0, 0), Loc::new(1, 1, 0), &s, cost);
        assert!(matches!(e, Err(PathError::NoPath { .. })), "{e:?}");
        let m = DijkstraMap::build(s.bounds, &[Loc::new(1, 1, 0)], cost);
        assert_eq!(m.get(Loc::new(0, 0, 0)), None);
        // One wall only: the diagonal is allowed.
        let one = |_: Loc, to: Loc| ((to.x, to.y) != (1, 0)).then_some(1);
        let p = astar(Loc::new(0, 0, 0), Loc::new(1, 1, 0), &s, one).unwrap();
        assert_eq!(p.cost, 1);
        let m = DijkstraMap::build(s.bounds, &[Loc::new(1, 1, 0)], one);
        assert_eq!(m.get(Loc::new(0, 0, 0)), Some(1));
    }

    #[test]
    fn generation_wrap_resets_stamps() {
        let mut pf = Pathfinder::new();
        let s = Search::new(LocBox::rect(0, 0, 4, 4, 0));
        pf.generation = u32::MAX - 3;
        for _ in 0..4 {
            let p = pf
                .astar(Loc::new(0, 0, 0), Loc::new(3, 0, 0), &s, open)
                .unwrap();
            assert_eq!(p.cost, 3);
        }
    }
}
