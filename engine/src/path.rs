//! Pathfinding: A* and nearest-target search, and Brogue-style Dijkstra maps.
//!
//! Everything works on one level (a `Loc`'s `z`) inside a caller-given rectangle, with 8-way
//! moves and a per-move cost callback `cost(from, to) -> Option<u32>` (`None` = cannot move
//! there). The same movement rule applies everywhere, so A*, nearest-target search, Dijkstra
//! maps and [`TileMap::regions`](crate::TileMap::regions) with
//! [`Adjacency::Four`](crate::Adjacency::Four) agree on what is reachable:
//!
//! **No corner cutting**: a diagonal step from `a` is allowed only if at least one of the two
//! orthogonal steps it passes between is possible (`cost(a, orthogonal)` is `Some`). Squeezing
//! between two blocking cells is forbidden; sliding past a single corner is fine.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::loc::{Loc, LocBox};

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
/// use alembic::{LocBox, Search};
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

/// Neighbour index of `(x, y)` in direction `k`, if inside the area.
#[inline]
fn step(area: &Area, x: u32, y: u32, k: usize) -> Option<u32> {
    let nx = x as i64 + i64::from(DX[k]);
    let ny = y as i64 + i64::from(DY[k]);
    if nx < 0 || ny < 0 || nx >= i64::from(area.w) || ny >= i64::from(area.h) {
        None
    } else {
        Some((ny as u32) * area.w + nx as u32)
    }
}

/// Reusable search workspace for [`astar`](Pathfinder::astar) and
/// [`nearest`](Pathfinder::nearest): dense per-cell arrays invalidated by a generation stamp,
/// so a warmed-up workspace searches without allocating (except the returned path).
///
/// ```
/// use alembic::{Loc, LocBox, Pathfinder, PathError, Search};
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
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
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
        let h = |i: u32| {
            let (x, y) = area.xy(i);
            search.heuristic(x.abs_diff(gx), y.abs_diff(gy))
        };
        self.run(start, &area, search.max_explored, |i| i == goal_i, h, cost)
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
            |i| is_target(area.loc(i)),
            |_| 0,
            cost,
        )
    }

    fn run(
        &mut self,
        start: Loc,
        area: &Area,
        max_explored: usize,
        is_goal: impl Fn(u32) -> bool,
        h: impl Fn(u32) -> u64,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> Result<Path, PathError> {
        let start_i = area.index(start).ok_or(PathError::OutOfBounds)?;
        let (open, closed) = self.prepare(area.len());
        let si = start_i as usize;
        self.g[si] = 0;
        self.parent[si] = start_i;
        self.stamp[si] = open;
        self.heap.push(Reverse((h(start_i), 0, start_i)));
        let mut explored = 0usize;
        while let Some(Reverse((_, _, i))) = self.heap.pop() {
            let iu = i as usize;
            if self.stamp[iu] == closed {
                continue;
            }
            if is_goal(i) {
                return Ok(self.reconstruct(area, start_i, i));
            }
            if explored >= max_explored {
                return Err(PathError::BoundReached { explored });
            }
            explored += 1;
            self.stamp[iu] = closed;
            let here = area.loc(i);
            let (x, y) = area.xy(i);
            let g_here = self.g[iu];
            let mut orth_ok = [false; 4];
            // Orthogonals first (k = 0, 2, 4, 6), then diagonals, which need them.
            for k in [0usize, 2, 4, 6, 1, 3, 5, 7] {
                let Some(n) = step(area, x, y, k) else {
                    continue;
                };
                if k % 2 == 1 && !orth_ok[(k - 1) / 2] && !orth_ok[((k + 1) % 8) / 2] {
                    continue;
                }
                let nloc = Loc::new(
                    here.x.wrapping_add(DX[k]),
                    here.y.wrapping_add(DY[k]),
                    area.z,
                );
                let Some(c) = cost(here, nloc) else {
                    continue;
                };
                if k % 2 == 0 {
                    orth_ok[k / 2] = true;
                }
                let nu = n as usize;
                let ng = g_here.saturating_add(u64::from(c));
                let st = self.stamp[nu];
                if st == closed || (st == open && self.g[nu] <= ng) {
                    continue;
                }
                self.stamp[nu] = open;
                self.g[nu] = ng;
                self.parent[nu] = i;
                let hn = h(n);
                self.heap.push(Reverse((ng.saturating_add(hn), hn, n)));
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
/// `min over neighbours n of cost(x, n) + value(n)`, with the no-corner-cutting rule of the
/// [module](self). A cell gets a value whenever it can move toward a goal, so if `cost`
/// only looks at the destination, walls beside the floor get values too (harmless; check
/// `from` as well to avoid it). Building: Θ(A log A) for A reachable cells, about 8 cost calls per cell.
/// Memory: 8 bytes per cell of the area.
///
/// ```
/// use alembic::{DijkstraMap, Loc, LocBox};
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
    heap: BinaryHeap<Reverse<(i64, u32)>>,
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
            heap: BinaryHeap::new(),
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

    /// Recomputes the map from seeds with starting values (Brogue's desirability: a lower
    /// value is a more attractive goal; negative values are allowed).
    pub fn rebuild_weighted(
        &mut self,
        seeds: impl IntoIterator<Item = (Loc, i64)>,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) {
        self.dist.iter_mut().for_each(|d| *d = Self::UNREACHABLE);
        let Some(area) = self.area else { return };
        self.heap.clear();
        for (l, v) in seeds {
            if let Some(i) = area.index(l) {
                let slot = &mut self.dist[i as usize];
                if v < *slot {
                    *slot = v;
                    self.heap.push(Reverse((v, i)));
                }
            }
        }
        self.propagate(&area, cost);
    }

    /// Dijkstra from everything in the heap over `dist`.
    fn propagate(&mut self, area: &Area, cost: impl Fn(Loc, Loc) -> Option<u32>) {
        while let Some(Reverse((d, i))) = self.heap.pop() {
            if d != self.dist[i as usize] {
                continue; // stale entry
            }
            let here = area.loc(i);
            let (x, y) = area.xy(i);
            for k in 0..8 {
                let Some(n) = step(area, x, y, k) else {
                    continue;
                };
                let nu = n as usize;
                if self.dist[nu] <= d {
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
                if nd >= self.dist[nu] {
                    continue;
                }
                if k % 2 == 1 {
                    // Diagonal from `there` to `here`: one orthogonal must be open.
                    let o1 = Loc::new(here.x, there.y, area.z);
                    let o2 = Loc::new(there.x, here.y, area.z);
                    let ok = |o: Loc| area.index(o).is_some() && cost(there, o).is_some();
                    if !ok(o1) && !ok(o2) {
                        continue;
                    }
                }
                self.dist[nu] = nd;
                self.heap.push(Reverse((nd, n)));
            }
        }
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
                out.heap.push(Reverse((*d, i as u32)));
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
/// use alembic::{explore_targets, Loc, LocBox};
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
