//! Making worlds: cave levels by random fill and smoothing, stairs between connected regions,
//! the way out, the player and the creatures. Also [`arena`], a world drawn in ASCII for tests.

use std::sync::Arc;

use alembic::{
    Error, Game, HookCtx, Loc, ThingId, mapgen::Adjacency, mapgen::Cave, mapgen::Regions,
    mapgen::TileMap, path::DijkstraMap,
};

use super::hooks::hooks;
use super::props::{
    DEEPEST, DIGGABLE, EXIT_TILE, FLOOR, GEM_TILE, HP, LEVELS, MAX_HP, PLAYER, REINFORCEMENTS,
    SEED, SPAWN_COUNT, SPAWN_PER_DEPTH, SPAWN_RANK, SPORES, STAIRS_DOWN, STAIRS_UP, WALL, tile,
};
use super::rules;
pub use crate::geometry::{DEFAULT_LEVELS, HEIGHT, WIDTH, depth_of, is_inner, level_box, z_of};
use crate::geometry::{random_empty_floor, walkable};

/// Chance that a cell starts as floor before smoothing (the tutorial's coin flip).
const FLOOR_CHANCE: f64 = 0.5;
/// Smoothing rounds of the cellular automaton.
const SMOOTHING: usize = 3;
/// Regions smaller than this are filled in: pockets too small to matter.
const MIN_REGION: usize = 25;

/// A new world from `seed`: [`DEFAULT_LEVELS`] cave levels of 120 × 50, joined by stairs, with
/// the player on the top level and the way out on the bottom one.
///
/// # Errors
/// Engine errors (none are expected for valid data); never panics.
pub fn new_game(seed: u64) -> Result<Game, Error> {
    new_game_with_levels(seed, DEFAULT_LEVELS)
}

/// [`new_game`] on the prototypes and tiles of `library` (the Caves' data with mods, say).
///
/// # Errors
/// As [`new_game`].
pub fn new_game_on(seed: u64, library: &alembic::Library) -> Result<Game, Error> {
    new_world(seed, DEFAULT_LEVELS, library.clone())
}

/// Carve `levels` cave levels: random fill, three rounds of smoothing, small pockets
/// filled in, written into the game as floor and wall.
fn carve_levels(g: &mut Game, levels: i32) -> Result<(), Error> {
    let mut maps = Vec::new();
    for _ in 0..levels {
        let mut cave = Cave::new(WIDTH, HEIGHT)
            .floor_chance(FLOOR_CHANCE)
            .rounds(SMOOTHING)
            .build(g.rng())?;
        let regions = cave.regions(|&f| f, Adjacency::Eight);
        for l in level_box(0).iter() {
            if regions
                .label(l)
                .is_some_and(|r| regions.size(r) < MIN_REGION)
            {
                cave.set_mut(l, false);
            }
        }
        maps.push(cave);
    }
    let (floor, wall) = (tile(g, FLOOR)?, tile(g, WALL)?);
    for (d, cave) in maps.iter().enumerate() {
        let z = z_of(d as i32);
        g.fill_tiles_mut(level_box(z), wall)?;
        for (l, &open) in cave.iter() {
            if open {
                g.set_tile_mut(l.with_z(z), floor)?;
            }
        }
    }
    Ok(())
}

/// [`new_game`] with a chosen number of levels (at least 1).
///
/// # Errors
/// As [`new_game`].
pub fn new_game_with_levels(seed: u64, levels: i32) -> Result<Game, Error> {
    new_world(seed, levels, super::library::library()?)
}

fn new_world(seed: u64, levels: i32, library: alembic::Library) -> Result<Game, Error> {
    let levels = levels.max(1);
    let hooks = &hooks()?;
    let mut g = Game::new(seed).with_library(library);
    g.set_var_mut(&SEED, seed as i64);
    g.set_var_mut(&LEVELS, levels);
    g.set_var_mut(&REINFORCEMENTS, true);

    // 1. Levels: random fill, three rounds of smoothing, small pockets filled in.
    carve_levels(&mut g, levels)?;
    let floor = tile(&g, FLOOR)?;

    // 2. The player, at one end of the longest walk across the top level's largest region.
    let top = walkable_regions(&g, z_of(0))?;
    let Some(anywhere) = top
        .largest()
        .and_then(|r| pick(&mut g, top.cells(r).collect()))
    else {
        return Err(Error::OutOfBounds(Loc::ORIGIN));
    };
    let in_top = |l: Loc| top.label(l).is_some() && top.label(l) == top.largest();
    let start = farthest_where(&walk_from(&g, &[anywhere]), in_top).map_or(anywhere, |(l, _)| l);
    let player = g.spawn_mut(&mut HookCtx::new(hooks), Figure::Player.proto(), start)?;
    g.set_var_mut(&PLAYER, player);
    g.set_var_mut(&DEEPEST, 0);

    // 3. Stairs: one staircase per level, far from where the player arrives (at least
    //    STAIRS_AWAY of the level's diameter) and onto a cell of the level below from which
    //    that level's own stairs can be as far again.
    let (down, up) = (tile(&g, STAIRS_DOWN)?, tile(&g, STAIRS_UP)?);
    let mut arrival = start;
    for d in 0..levels - 1 {
        let (z, below) = (z_of(d), z_of(d + 1));
        let from_arrival = walk_from(&g, &[arrival]);
        let span_here = diameter(&g, &from_arrival);
        let lower_floor = level_box(below).iter().find(|&l| g.tile(l) == floor);
        let (far_b, far_c, span_below) = match lower_floor {
            Some(l) => {
                let b = farthest(&walk_from(&g, &[l])).map_or(l, |(x, _)| x);
                let from_b = walk_from(&g, &[b]);
                let (c, span) = farthest(&from_b).unwrap_or((b, 0));
                (from_b, walk_from(&g, &[c]), span)
            }
            None => (
                DijkstraMap::new(level_box(below)),
                DijkstraMap::new(level_box(below)),
                0,
            ),
        };
        // How good a stair cell is: its share of the diameter above, and the share the next
        // stairs could reach below; the smaller of the two counts.
        let score = |l: Loc| -> Option<f64> {
            let here = from_arrival.get(l)? as f64 / span_here.max(1) as f64;
            let under = l.with_z(below);
            let ecc = far_b.get(under)?.max(far_c.get(under)?) as f64 / span_below.max(1) as f64;
            Some(here.min(ecc))
        };
        let mut good = Vec::new();
        let mut best: Option<(f64, Loc)> = None;
        for (l, _) in from_arrival.iter() {
            if g.tile(l) != floor || l == arrival {
                continue;
            }
            if let Some(s) = score(l) {
                if s >= STAIRS_AWAY + 0.05 {
                    good.push(l);
                }
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, l));
                }
            }
        }
        let at = match pick(&mut g, good) {
            Some(l) => l,
            None => match best {
                Some((_, l)) => l,
                // No cell lies over the level below's largest region: the farthest cell,
                // and a floor cut out under it.
                None => farthest_where(&from_arrival, |l| g.tile(l) == floor)
                    .map_or(arrival, |(l, _)| l),
            },
        };
        g.set_tile_mut(at.with_z(z), down)?;
        g.set_tile_mut(at.with_z(below), up)?;
        arrival = at.with_z(below);
    }

    // 4. The way out: on the bottom level, as far as possible from where the player arrives.
    let from_arrival = walk_from(&g, &[arrival]);
    let exit_at = farthest_where(&from_arrival, |l| g.tile(l) == floor).map_or(arrival, |(l, _)| l);
    g.set_tile_mut(exit_at, tile(&g, EXIT_TILE)?)?;

    // 5. Creatures, more dangerous deeper down, none right beside the player: each kind
    // with a `spawn_count` in the data, in `spawn_rank` order.
    let mut kinds: Vec<(i32, Arc<str>, i32, i32)> = g
        .library()
        .concrete()
        .filter(|p| {
            p.get(&SPAWN_COUNT).unwrap_or(0) > 0 || p.get(&SPAWN_PER_DEPTH).unwrap_or(0) > 0
        })
        .map(|p| {
            (
                p.get(&SPAWN_RANK).unwrap_or(0),
                Arc::from(p.name()),
                p.get(&SPAWN_COUNT).unwrap_or(0),
                p.get(&SPAWN_PER_DEPTH).unwrap_or(0),
            )
        })
        .collect();
    kinds.sort();
    for d in 0..levels {
        let z = z_of(d);
        for (_, name, first, more) in &kinds {
            let count = first
                .saturating_add(more.saturating_mul(d))
                .clamp(0, MAX_SPAWN);
            let name: &str = name;
            for _ in 0..count {
                if let Some(l) = random_empty_floor(&mut g, z, Some((start, 10)))? {
                    g.spawn_mut(&mut HookCtx::new(hooks), name, l)?;
                }
            }
        }
    }

    // 6. Gems, from a random stream of their own (the levels, stairs and creatures are as
    //    the seed made them before gems existed): on empty floor, never at the start.
    if let Ok(gem) = tile(&g, GEM_TILE) {
        let mut rng = alembic::rng::GameRng::seed_from(seed ^ GEM_STREAM);
        for d in 0..levels {
            let z = z_of(d);
            let mut cells: Vec<Loc> = level_box(z)
                .iter()
                .filter(|&l| g.tile(l) == floor && l != start && g.things().at(l).is_empty())
                .collect();
            for _ in 0..GEMS_PER_LEVEL {
                let Some(i) = rng.index(cells.len()) else {
                    break;
                };
                g.set_tile_mut(cells.swap_remove(i), gem)?;
            }
        }
    }

    hooks.check(&g)?;
    let z = g.things().location(player)?.z;
    g.scheduler().set_awake_levels([z])?;
    rules::remember_view(&mut g)?;
    Ok(g)
}

/// Gems a new world scatters on each level (100 points each: a reason to explore a level
/// rather than dig straight to its stairs).
pub const GEMS_PER_LEVEL: usize = 4;

/// Mixed into the seed for the gems' random stream.
const GEM_STREAM: u64 = 0x6E45_C0DE_0000_0001;

/// At most this many of one kind on one level, whatever the data says (a level has about
/// 3,000 floor cells).
pub const MAX_SPAWN: i32 = 500;

/// How far the stairs down (and at the bottom, the way out) lie at least from where the
/// player arrives on a level, as a share of the level's diameter. Distances count turns
/// for a player who walks and digs: a step onto floor is one turn, a step into rock two.
pub const STAIRS_AWAY: f64 = 0.6;

/// Turns to cross the level of `from` to every cell (8-way): a step onto floor costs one
/// turn, a step into rock two (dig, then step), as the player moves. The rock border cannot
/// be dug.
fn walk_from(g: &Game, from: &[Loc]) -> DijkstraMap {
    let z = from.first().map_or(0, |l| l.z);
    let levels = g.var(&LEVELS).unwrap_or(1);
    DijkstraMap::build(level_box(z), from, |_, to| {
        if walkable(g, to) {
            Some(1)
        } else if is_inner(to, levels) && g.tile_def(to).is_ok_and(|d| d.is(&DIGGABLE)) {
            Some(2)
        } else {
            None
        }
    })
}

/// The farthest cell a distance map reaches, and its distance (the first of equals, in the
/// map's order, so the choice is deterministic).
fn farthest(map: &DijkstraMap) -> Option<(Loc, i64)> {
    farthest_where(map, |_| true)
}

/// [`farthest`] among the cells that pass `keep`.
fn farthest_where(map: &DijkstraMap, keep: impl Fn(Loc) -> bool) -> Option<(Loc, i64)> {
    let mut best: Option<(Loc, i64)> = None;
    for (l, d) in map.iter() {
        if best.is_none_or(|(_, b)| d > b) && keep(l) {
            best = Some((l, d));
        }
    }
    best
}

/// The diameter of the region a distance map covers: the longest walk between two of its
/// cells, by a double sweep (the farthest cell from the map's source, then the farthest from
/// that one). A lower bound, exact on most caves.
fn diameter(g: &Game, map: &DijkstraMap) -> i64 {
    farthest(map).map_or(0, |(far, _)| {
        farthest(&walk_from(g, &[far])).map_or(0, |(_, d)| d)
    })
}

/// A random one of `cells`, from the game's generator.
fn pick(g: &mut Game, cells: Vec<Loc>) -> Option<Loc> {
    let i = g.rng().index(cells.len())?;
    cells.get(i).copied()
}

/// Turns from `from` to `to` on one level, walking and digging (see [`STAIRS_AWAY`]), if
/// `to` can be reached.
#[must_use]
pub fn walk_distance(g: &Game, from: Loc, to: Loc) -> Option<i64> {
    walk_from(g, &[from]).get(to)
}

/// The diameter of the level of `l`, in turns of walking and digging (a step onto floor
/// costs one turn, into rock two): the longest such way between two of its cells, by a
/// double sweep from `l`.
#[must_use]
pub fn region_diameter(g: &Game, l: Loc) -> i64 {
    diameter(g, &walk_from(g, &[l]))
}

/// The connected walkable areas of level `z` (8-way, as the player moves), from the engine's
/// flood fill. Recompute it after digging.
///
/// # Errors
/// Only if the level size were invalid for a [`TileMap`] (it is a valid constant).
pub fn walkable_regions(g: &Game, z: i32) -> Result<Regions, Error> {
    let mut map = TileMap::new(WIDTH, HEIGHT, false)?;
    for l in level_box(z).iter() {
        if walkable(g, l) {
            map.set_mut(l.with_z(0), true);
        }
    }
    Ok(map.regions(|&f| f, Adjacency::Eight))
}

/// The creatures the code itself places by kind (the player, a lichen's offspring, the
/// arena's art): a closed set, matched exhaustively, each the name of a prototype the data
/// must define (a test loads the shipped data and finds every one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Figure {
    /// The player.
    Player,
    /// A lichen (it grows).
    Lichen,
    /// A bunny.
    Bunny,
    /// A silverfish (it lives in rock).
    Silverfish,
    /// A cave bat.
    Bat,
    /// A zombie.
    Zombie,
}

impl Figure {
    /// Every figure.
    #[cfg(test)]
    const ALL: [Figure; 6] = [
        Figure::Player,
        Figure::Lichen,
        Figure::Bunny,
        Figure::Silverfish,
        Figure::Bat,
        Figure::Zombie,
    ];

    /// Its prototype in the library.
    pub(crate) const fn proto(self) -> &'static str {
        match self {
            Figure::Player => "player",
            Figure::Lichen => "lichen",
            Figure::Bunny => "bunny",
            Figure::Silverfish => "silverfish",
            Figure::Bat => "cave bat",
            Figure::Zombie => "zombie",
        }
    }
}

/// A one-level world drawn in ASCII, for tests and experiments: `#` rock, `.` floor, `>` `<`
/// stairs, `X` the way out, `*` a gem, `@` the player (on floor), `F` lichen, `v` bunny, `~` silverfish
/// (in rock), `b` cave bat, `Z` zombie (each on floor). The art is placed at the top-left of
/// a 120 × 50 level of rock; rows may be shorter than the level. Each entry of `levels` is one
/// level, top first (level `d` at `z = −d`). Lichens drawn here have no spores (they never grow) unless the test
/// sets [`SPORES`].
///
/// # Errors
/// [`Error::OutOfBounds`] for art larger than a level, no `@` or more than one, or an
/// unknown character; engine errors otherwise.
pub fn arena(seed: u64, levels: &[&[&str]]) -> Result<Game, Error> {
    let hooks = &hooks()?;
    let mut g = Game::new(seed).with_library(super::library::library()?);
    let n = levels.len().max(1) as i32;
    g.set_var_mut(&SEED, seed as i64);
    g.set_var_mut(&LEVELS, n);
    g.set_var_mut(&DEEPEST, 0);
    let wall = tile(&g, WALL)?;
    for d in 0..n {
        g.fill_tiles_mut(level_box(z_of(d)), wall)?;
    }
    let mut player: Option<ThingId> = None;
    for (z, rows) in levels.iter().enumerate() {
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let l = Loc::new(x as i32, y as i32, z_of(z as i32));
                if x as i32 >= WIDTH || y as i32 >= HEIGHT {
                    return Err(Error::OutOfBounds(l));
                }
                let (tile_name, figure) = match c {
                    '#' => (WALL, None),
                    '.' => (FLOOR, None),
                    '>' => (STAIRS_DOWN, None),
                    '<' => (STAIRS_UP, None),
                    'X' => (EXIT_TILE, None),
                    '*' => (GEM_TILE, None),
                    '@' => (FLOOR, Some(Figure::Player)),
                    'F' => (FLOOR, Some(Figure::Lichen)),
                    'v' => (FLOOR, Some(Figure::Bunny)),
                    '~' => (WALL, Some(Figure::Silverfish)),
                    'b' => (FLOOR, Some(Figure::Bat)),
                    'Z' => (FLOOR, Some(Figure::Zombie)),
                    _ => return Err(Error::OutOfBounds(l)),
                };
                g.set_tile_mut(l, tile(&g, tile_name)?)?;
                let Some(figure) = figure else { continue };
                let id = g.spawn_mut(&mut HookCtx::new(hooks), figure.proto(), l)?;
                match figure {
                    Figure::Player => {
                        if player.is_some() {
                            return Err(Error::OutOfBounds(l));
                        }
                        player = Some(id);
                    }
                    Figure::Lichen => g.set_mut(id, &SPORES, 0)?,
                    Figure::Bunny | Figure::Silverfish | Figure::Bat | Figure::Zombie => {}
                }
            }
        }
    }
    let Some(p) = player else {
        return Err(Error::OutOfBounds(Loc::ORIGIN));
    };
    g.set_var_mut(&PLAYER, p);
    let hp = g.query(p, &MAX_HP)?;
    g.set_mut(p, &HP, hp)?;
    g.set_var_mut(&DEEPEST, depth_of(g.things().location(p)?.z));
    hooks.check(&g)?;
    let z = g.things().location(p)?.z;
    g.scheduler().set_awake_levels([z])?;
    rules::remember_view(&mut g)?;
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_the_code_places_is_a_creature_of_the_shipped_data() {
        let lib = super::super::library::library().unwrap();
        for f in Figure::ALL {
            let p = lib.get(f.proto());
            assert!(p.is_ok_and(|p| p.get(&MAX_HP).is_ok()), "{f:?}");
        }
    }
}
