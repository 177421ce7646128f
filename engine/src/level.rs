//! Levels and stairs: the bounds of each level, stair links as data, painting a generated
//! map onto a level, and distance maps that cross the stairs.
//!
//! A game's world is one 3D grid; a *level* is the box of cells at one depth `z`. The game
//! value records each level's bounds ([`LevelsMut::set`], [`Levels::get`]) and every
//! stair link ([`LevelsMut::link_stairs`]): taking the stairs at one cell brings you to a cell
//! of another level. With both as data, [`LevelMap`] builds one distance map over several
//! levels, so a monster can chase the hero down the stairs, and [`LevelMap::path`] walks it.
//!
//! Costs: bounds and links are persistent maps, Θ(log n) to read or write. A [`LevelMap`]
//! over L levels with S stair links costs a few single-level [`DijkstraMap`] builds per level
//! (it repeats until no stair improves a value, usually twice).

use std::sync::Arc;

use crate::error::Error;
use crate::game::Game;
use crate::library::TileId;
use crate::loc::{Loc, LocBox};
use crate::mapgen::TileMap;
use crate::path::{DijkstraMap, Path, PathError};

/// The levels of a game, to read: each level's bounds and every stair link
/// ([`Game::levels`]). A `Copy` view borrowing the game (Θ(1) to make); each method gives its
/// cost. Iterating it gives every level's bounds, shallowest first ([`Levels::iter`]).
///
/// ```
/// use alembic::{Game, Loc, LocBox};
/// let mut g = Game::new(1);
/// g.levels_mut().set(LocBox::rect(0, 0, 10, 1, 0));
/// g.levels_mut().link_stairs(Loc::new(9, 0, 0), Loc::new(9, 0, 1));
/// assert_eq!(g.levels().get(0), Some(LocBox::rect(0, 0, 10, 1, 0)));
/// assert_eq!(g.levels().stairs_at(Loc::new(9, 0, 0)), Some(Loc::new(9, 0, 1)));
/// assert_eq!(g.levels().iter().count(), 1);
/// ```
#[derive(Clone, Copy)]
pub struct Levels<'a> {
    game: &'a Game,
}

impl std::fmt::Debug for Levels<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Levels")
            .field("bounds", &self.iter().collect::<Vec<_>>())
            .field("stairs", &self.stair_links().collect::<Vec<_>>())
            .finish()
    }
}

impl<'a> Levels<'a> {
    /// The bounds of level `z`, if recorded. Θ(log levels).
    #[must_use]
    pub fn get(&self, z: i32) -> Option<LocBox> {
        self.game.rare.levels.bounds.get(&z).copied()
    }

    /// Every recorded level's bounds, shallowest `z` first. Θ(1) to start, Θ(1) a step.
    pub fn iter(&self) -> impl Iterator<Item = LocBox> + use<'a> {
        self.game.rare.levels.bounds.values().copied()
    }

    /// Where the stairs at `at` lead, if there are stairs there. Θ(log stair links).
    #[must_use]
    pub fn stairs_at(&self, at: Loc) -> Option<Loc> {
        self.game.rare.levels.stairs.get(&at).copied()
    }

    /// Every stair link (from, to), in location order. Θ(1) to start, Θ(1) a step.
    pub fn stair_links(&self) -> impl Iterator<Item = (Loc, Loc)> + use<'a> {
        self.game.rare.levels.stairs.iter().map(|(a, b)| (*a, *b))
    }
}

impl<'a> IntoIterator for Levels<'a> {
    type Item = LocBox;
    type IntoIter = Box<dyn Iterator<Item = LocBox> + 'a>;

    /// Every level's bounds, shallowest first, as [`Levels::iter`] (one allocation).
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl Game {
    /// The levels' bounds and stair links, to read ([`Levels`]). Θ(1); the view borrows
    /// the game. Since 0.3 a view rather than an iterator: iterate it (`for b in
    /// game.levels()`) or call [`Levels::iter`] for the bounds, as 0.2's `levels()` gave.
    #[must_use]
    pub fn levels(&self) -> Levels<'_> {
        Levels { game: self }
    }

    /// The levels' bounds and stair links, to change ([`LevelsMut`]). Θ(1); the view
    /// borrows the game mutably (like `HashMap::entry`, its methods change the game it
    /// holds).
    pub fn levels_mut(&mut self) -> LevelsMut<'_> {
        LevelsMut { game: self }
    }
}

/// The levels of a game, to change: bounds, stair links, painting a generated map
/// ([`Game::levels_mut`]). Each method changes the game the view borrows, in place; older
/// game values are untouched.
///
/// ```
/// use alembic::{Game, Loc, LocBox};
/// let mut g = Game::new(1);
/// let mut levels = g.levels_mut();
/// levels.set(LocBox::rect(0, 0, 10, 1, 0));
/// levels.link_stairs_both(Loc::new(9, 0, 0), Loc::new(9, 0, 1));
/// assert_eq!(g.levels().stairs_at(Loc::new(9, 0, 1)), Some(Loc::new(9, 0, 0)));
/// ```
pub struct LevelsMut<'a> {
    game: &'a mut Game,
}

impl std::fmt::Debug for LevelsMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.game.levels().fmt(f)
    }
}

impl LevelsMut<'_> {
    /// Record `area` (one depth: `area.min.z`) as the bounds of its level, replacing any. Θ(log
    /// levels).
    pub fn set(&mut self, area: LocBox) {
        let z = area.min.z;
        let one = LocBox::new(area.min, area.max.with_z(z + 1));
        Arc::make_mut(&mut self.game.rare)
            .levels
            .bounds
            .insert_mut(z, one);
    }

    /// Link stairs one way: taking the stairs at `from` brings you to `to`. Θ(log stair links).
    pub fn link_stairs(&mut self, from: Loc, to: Loc) {
        Arc::make_mut(&mut self.game.rare)
            .levels
            .stairs
            .insert_mut(from, to);
    }

    /// Link stairs both ways (`a` to `b` and `b` to `a`). Θ(log stair links).
    pub fn link_stairs_both(&mut self, a: Loc, b: Loc) {
        self.link_stairs(a, b);
        self.link_stairs(b, a);
    }

    /// Paint `map` onto level `z` with its corner at `origin` (x, y), turning each cell into
    /// a tile with `tile`; cells for which `tile` gives `None` are left as they are. Records
    /// the painted box as the level's bounds when none are recorded. Θ(map cells).
    pub fn paint<T>(
        &mut self,
        map: &TileMap<T>,
        origin: Loc,
        tile: impl Fn(&T) -> Option<TileId>,
    ) -> Result<(), Error> {
        for (l, v) in map.iter() {
            if let Some(t) = tile(v) {
                self.game
                    .set_tile_mut(Loc::new(origin.x + l.x, origin.y + l.y, origin.z), t)?;
            }
        }
        if self.game.levels().get(origin.z).is_none() {
            self.set(LocBox::rect(
                origin.x,
                origin.y,
                map.width(),
                map.height(),
                origin.z,
            ));
        }
        Ok(())
    }
}

/// A distance map over several levels joined by stairs: each cell holds the cost of the
/// cheapest way from it to the nearest goal, walking and taking stairs.
///
/// Build it from the game's levels and stair links ([`LevelMap::for_game`]) or from explicit
/// ones ([`LevelMap::build`]); roll down it with [`LevelMap::next_step`], whose answer is
/// the other end of the stairs when taking them is best.
///
/// ```
/// use alembic::{Game, level::LevelMap, Loc, LocBox};
/// let mut g = Game::new(1);
/// g.levels_mut().set(LocBox::rect(0, 0, 10, 1, 0));
/// g.levels_mut().set(LocBox::rect(0, 0, 10, 1, 1));
/// g.levels_mut().link_stairs_both(Loc::new(9, 0, 0), Loc::new(9, 0, 1));
/// let open = |_: Loc, _: Loc| Some(1);
/// let hero = Loc::new(0, 0, 1);
/// let map = LevelMap::for_game(&g, &[hero], 1, open);
/// // From (0, 0, 0): 9 steps to the stairs, 1 to take them, 9 back along level 1.
/// assert_eq!(map.get(Loc::new(0, 0, 0)), Some(19));
/// assert_eq!(map.next_step(Loc::new(9, 0, 0), open), Some(Loc::new(9, 0, 1)));
/// let path = map.path(Loc::new(0, 0, 0), open, 100).unwrap();
/// assert_eq!(path.end(), Some(hero));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelMap {
    maps: Vec<(i32, DijkstraMap)>,
    stairs: Vec<(Loc, Loc)>,
    stair_cost: u32,
}

impl LevelMap {
    /// The map over every level and stair link recorded in `game`, towards `goals`; taking
    /// stairs costs `stair_cost`. See [`LevelMap::build`].
    #[must_use]
    pub fn for_game(
        game: &Game,
        goals: &[Loc],
        stair_cost: u32,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> LevelMap {
        let levels: Vec<LocBox> = game.levels().iter().collect();
        let stairs: Vec<(Loc, Loc)> = game.levels().stair_links().collect();
        LevelMap::build(&levels, &stairs, goals, stair_cost, cost)
    }

    /// The map over `levels` (one box per depth) joined by `stairs` (from, to), towards
    /// `goals` (value 0). `cost(a, b)` is the cost of a step within a level, as for
    /// [`DijkstraMap::build`]; taking stairs costs `stair_cost`.
    #[must_use]
    pub fn build(
        levels: &[LocBox],
        stairs: &[(Loc, Loc)],
        goals: &[Loc],
        stair_cost: u32,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
    ) -> LevelMap {
        let mut maps: Vec<(i32, DijkstraMap)> = levels
            .iter()
            .map(|b| (b.min.z, DijkstraMap::new(*b)))
            .collect();
        let mut values: Vec<Vec<(Loc, i64)>> = vec![Vec::new(); maps.len()];
        // Each pass rebuilds every level from its goals plus what its stairs offer; stop when
        // no stair offers anything better (at most one pass per level, plus one to settle).
        for _ in 0..=maps.len() {
            let mut changed = false;
            for (k, (z, map)) in maps.iter_mut().enumerate() {
                let mut seeds: Vec<(Loc, i64)> = goals
                    .iter()
                    .filter(|g| g.z == *z)
                    .map(|&g| (g, 0))
                    .collect();
                for &(from, to) in stairs.iter().filter(|(f, _)| f.z == *z) {
                    if let Some(v) = values
                        .iter()
                        .flatten()
                        .filter(|(l, _)| *l == to)
                        .map(|(_, v)| *v)
                        .min()
                    {
                        seeds.push((from, v.saturating_add(i64::from(stair_cost))));
                    }
                }
                map.rebuild_weighted(seeds, &cost);
                let fresh: Vec<(Loc, i64)> = stairs
                    .iter()
                    .filter(|(_, t)| t.z == *z)
                    .filter_map(|&(_, t)| map.get(t).map(|v| (t, v)))
                    .collect();
                if fresh != values[k] {
                    values[k] = fresh;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        LevelMap {
            maps,
            stairs: stairs.to_vec(),
            stair_cost,
        }
    }

    fn level(&self, z: i32) -> Option<&DijkstraMap> {
        self.maps.iter().find(|(lz, _)| *lz == z).map(|(_, m)| m)
    }

    /// The cost from `at` to the nearest goal, if it can reach one.
    #[must_use]
    pub fn get(&self, at: Loc) -> Option<i64> {
        self.level(at.z)?
            .get(at)
            .filter(|&v| v != DijkstraMap::UNREACHABLE)
    }

    /// The best move from `from`: a neighbouring cell on its level, or the other end of the
    /// stairs at `from` when taking them is cheaper. `None` at a goal or where no move helps.
    #[must_use]
    pub fn next_step(&self, from: Loc, cost: impl Fn(Loc, Loc) -> Option<u32>) -> Option<Loc> {
        let here = self.get(from)?;
        let walk = self.level(from.z)?.next_step(from, &cost);
        let walk_value = walk.and_then(|l| {
            let step = i64::from(cost(from, l)?);
            Some(self.get(l)?.saturating_add(step))
        });
        let climb = self
            .stairs
            .iter()
            .filter(|(f, _)| *f == from)
            .filter_map(|&(_, to)| {
                Some((to, self.get(to)?.saturating_add(i64::from(self.stair_cost))))
            })
            .min_by_key(|(_, v)| *v);
        match (walk.zip(walk_value), climb) {
            (Some((_, wv)), Some((to, cv))) if cv < wv && cv <= here => Some(to),
            (None, Some((to, cv))) if cv <= here => Some(to),
            (Some((w, _)), _) => Some(w),
            _ => None,
        }
    }

    /// The whole way from `from` to a goal, following [`LevelMap::next_step`] (at most
    /// `max_steps` steps).
    pub fn path(
        &self,
        from: Loc,
        cost: impl Fn(Loc, Loc) -> Option<u32>,
        max_steps: usize,
    ) -> Result<Path, PathError> {
        let Some(total) = self.get(from) else {
            return Err(PathError::NoPath { explored: 0 });
        };
        let mut steps = vec![from];
        let mut at = from;
        while self.get(at) != Some(0) {
            if steps.len() > max_steps {
                return Err(PathError::BoundReached {
                    explored: steps.len(),
                });
            }
            let Some(next) = self.next_step(at, &cost) else {
                return Err(PathError::NoPath {
                    explored: steps.len(),
                });
            };
            steps.push(next);
            at = next;
        }
        Ok(Path {
            steps,
            cost: u64::try_from(total).unwrap_or(0),
        })
    }
}
