//! The dungeon: 11 levels (z −1 … −11) of 71 × 51 with a rock border.
//!
//! Each level: a BSP subdivision of the interior with a connection point per split; each
//! leaf becomes a cave (cellular automaton), a corridor grid, or a room (lair, normal,
//! store room, lab, or a designer room with a fountain, pillars or a pool); every split is
//! joined by corridors through its connection point, with doors at room entrances; an
//! underground stream winds across. Then two stair pairs join adjacent levels, the exit
//! sits on level −1 where the hero starts, and the Philosopher's Stone lies on level −10.
//!
//! A level that fails a step (a leaf that cannot hold anything, scenery that would cut the
//! level in two) is rolled back the persistent way: the earlier value is kept and the step
//! retried with new random choices.

use std::sync::Arc;

use alembic::{
    Error, Game, HookCtx, Hooks, Loc, LocBox, Place, ThingId, library::TileId, mapgen::Adjacency,
    mapgen::Bsp, mapgen::Cave, mapgen::TileMap, mapgen::random_room, rng::GameRng,
};

use super::kinds::{DataError, data_fault};
use super::props::{
    DESTINATION, GAME_NAME, HERO, IS_CREATURE, IS_DOOR, IS_FOOD, IS_HERO as HERO_FLAG,
    IS_INGREDIENT, IS_ITEM, IS_POTION, POTION_CHANCE,
};
use super::rules::world::{LEVEL_HEIGHT, LEVEL_WIDTH, LEVELS, STONE_LEVEL, TileTable, level_box};

/// Local terrain while a level is being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum T {
    Rock,
    Wall,
    Floor,
    Cave,
    Moss,
    Stream,
    Shallow,
    Murky,
    Deep,
    Magma,
    CaveWall,
    Pillar,
    Gold,
}

impl T {
    fn walkable(self) -> bool {
        matches!(
            self,
            T::Floor | T::Cave | T::Moss | T::Stream | T::Shallow | T::Murky
        )
    }
    fn tile_name(self) -> &'static str {
        match self {
            T::Rock => "rock",
            T::Wall => "wall",
            T::Floor => "floor",
            T::Cave => "cave floor",
            T::Moss => "moss floor",
            T::Stream => "stream",
            T::Shallow => "shallow pool",
            T::Murky => "murky pool",
            T::Deep => "deep pool",
            T::Magma => "magma",
            T::CaveWall => "cave wall",
            T::Pillar => "pillar",
            T::Gold => "gold wall",
        }
    }
}

/// What a room is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoomKind {
    Normal,
    Lair,
    Store,
    Lab,
    Fountain,
    Pillars,
    Pool,
}

#[derive(Clone, Copy, Debug)]
struct Room {
    /// Floor cells (local coordinates).
    area: LocBox,
    kind: RoomKind,
}

/// A level's terrain plan in local coordinates (0..71, 0..51).
struct Plan {
    map: TileMap<T>,
    rooms: Vec<Room>,
    doors: Vec<Loc>,
}

fn to_world(l: Loc, z: i32) -> Loc {
    Loc::new(l.x - 35, l.y - 25, z)
}

fn box_rect(x: i32, y: i32, w: i32, h: i32) -> LocBox {
    LocBox::rect(x, y, w, h, 0)
}

/// One leaf as a cave: a cellular automaton, its largest region kept.
fn cave_leaf(map: &mut TileMap<T>, leaf: LocBox, rng: &mut GameRng) -> bool {
    let (w, h) = (leaf.width(), leaf.height());
    let Ok(mut cave) = Cave::new(w, h).floor_chance(0.56).rounds(4).build(rng) else {
        return false;
    };
    if cave
        .keep_largest_region_mut(|&f| f, Adjacency::Four, false)
        .is_err()
    {
        return false;
    }
    if cave.count(|&f| f) < 12 {
        return false;
    }
    for (l, &f) in cave.iter() {
        let at = Loc::new(leaf.min.x + l.x, leaf.min.y + l.y, 0);
        if f {
            let t = if rng.chance(0.1) { T::Moss } else { T::Cave };
            map.set_mut(at, t);
        } else if map.get(at) == Some(&T::Rock) && rng.chance(0.3) {
            map.set_mut(at, T::CaveWall);
        }
    }
    true
}

/// One leaf as a grid of corridors.
fn grid_leaf(map: &mut TileMap<T>, leaf: LocBox, rng: &mut GameRng) -> bool {
    let step = rng.range(3, 5) as i32;
    let (x0, y0) = (leaf.min.x + 1, leaf.min.y + 1);
    let (x1, y1) = (leaf.max.x - 2, leaf.max.y - 2);
    if x1 - x0 < 3 || y1 - y0 < 3 {
        return false;
    }
    for y in y0..=y1 {
        for x in x0..=x1 {
            if (x - x0) % step == 0 || (y - y0) % step == 0 {
                map.set_mut(Loc::new(x, y, 0), T::Floor);
            }
        }
    }
    true
}

/// One leaf as a room with walls; returns the room.
fn room_leaf(map: &mut TileMap<T>, leaf: LocBox, rng: &mut GameRng) -> Option<Room> {
    let inner = LocBox::new(leaf.min, leaf.max);
    let r = random_room(inner, 3, 12, rng).ok()?;
    let walls = box_rect(r.min.x - 1, r.min.y - 1, r.width() + 2, r.height() + 2);
    for l in walls.iter() {
        if map.get(l) == Some(&T::Rock) {
            let w = if rng.chance(0.02) { T::Gold } else { T::Wall };
            map.set_mut(l, w);
        }
    }
    for l in r.iter() {
        map.set_mut(l, T::Floor);
    }
    let roll = rng.below(100);
    let kind = match roll {
        0..=44 => RoomKind::Normal,
        45..=54 => RoomKind::Lair,
        55..=64 => RoomKind::Store,
        65..=74 => RoomKind::Lab,
        75..=83 => RoomKind::Fountain,
        84..=91 => RoomKind::Pillars,
        _ => RoomKind::Pool,
    };
    Some(Room { area: r, kind })
}

/// The floor cell inside `area` nearest to `to`.
fn nearest_floor(map: &TileMap<T>, area: LocBox, to: Loc) -> Option<Loc> {
    area.iter()
        .filter(|&l| map.get(l).is_some_and(|t| t.walkable()))
        .min_by_key(|&l| (l.x - to.x).abs() + (l.y - to.y).abs())
}

/// Carve an orthogonal corridor from `a` to `b` that turns rock and walls into floor;
/// remembers where it crosses a room wall (a doorway).
fn corridor(map: &mut TileMap<T>, a: Loc, b: Loc, hfirst: bool, doors: &mut Vec<Loc>) {
    let Ok(line) =
        TileMap::new(map.width(), map.height(), false).and_then(|m| m.carve_l(a, b, hfirst, true))
    else {
        return;
    };
    // An L from `a` to `b` stays within the box they span: visit that box alone, row by
    // row as the whole map's iteration goes (the doors are listed in that order).
    let carved = (a.y.min(b.y)..=a.y.max(b.y))
        .flat_map(|y| (a.x.min(b.x)..=a.x.max(b.x)).map(move |x| Loc::new(x, y, 0)))
        .filter(|&l| line.get(l) == Some(&true));
    for l in carved {
        match map.get(l) {
            Some(T::Rock | T::CaveWall) => {
                map.set_mut(l, T::Floor);
            }
            Some(T::Wall | T::Gold) => {
                map.set_mut(l, T::Floor);
                doors.push(l);
            }
            Some(T::Deep | T::Magma | T::Pillar) => {
                map.set_mut(l, T::Shallow);
            }
            _ => {}
        }
    }
}

/// Build one level's terrain. `None` when a step fails (the caller retries).
fn plan_level(rng: &mut GameRng, depth: i32) -> Option<Plan> {
    let mut map = TileMap::new(LEVEL_WIDTH, LEVEL_HEIGHT, T::Rock).ok()?;
    let interior = box_rect(1, 1, LEVEL_WIDTH - 2, LEVEL_HEIGHT - 2);
    let bsp = Bsp::new(interior, 9, 5, rng);
    let mut rooms = Vec::new();
    let mut doors = Vec::new();
    for leaf in &bsp.leaves {
        let roll = rng.below(100);
        let done = if roll < 22 {
            cave_leaf(&mut map, *leaf, rng)
        } else if roll < 30 {
            grid_leaf(&mut map, *leaf, rng)
        } else {
            false
        };
        if !done {
            match room_leaf(&mut map, *leaf, rng) {
                Some(r) => rooms.push(r),
                None => {
                    if !cave_leaf(&mut map, *leaf, rng) && !grid_leaf(&mut map, *leaf, rng) {
                        return None;
                    }
                }
            }
        }
    }
    // Join the two halves of every split through its connection point.
    for s in &bsp.splits {
        let (a, b) = s.door;
        let fa = nearest_floor(&map, s.first, a)?;
        let fb = nearest_floor(&map, s.second, b)?;
        let hfirst = rng.chance(0.5);
        corridor(&mut map, fa, a, hfirst, &mut doors);
        corridor(&mut map, a, b, true, &mut doors);
        corridor(&mut map, b, fb, !hfirst, &mut doors);
    }
    // The underground stream.
    if rng.chance(0.7) {
        let a = Loc::new(1 + rng.below(68) as i32, 1, 0);
        let b = Loc::new(1 + rng.below(68) as i32, LEVEL_HEIGHT - 2, 0);
        let stream = TileMap::new(LEVEL_WIDTH, LEVEL_HEIGHT, false)
            .and_then(|m| m.carve_winding(a, b, 0.4, rng, true))
            .ok()?;
        for (l, &on) in stream.iter() {
            if on && l.x > 0 && l.y > 0 && l.x < LEVEL_WIDTH - 1 && l.y < LEVEL_HEIGHT - 1 {
                map.set_mut(l, T::Stream);
            }
        }
    }
    // Designer rooms: features inside a floor ring, so they never cut a room in two.
    for r in &rooms {
        let core = box_rect(
            r.area.min.x + 1,
            r.area.min.y + 1,
            r.area.width() - 2,
            r.area.height() - 2,
        );
        if core.is_empty() {
            continue;
        }
        match r.kind {
            RoomKind::Pillars => {
                for l in core.iter() {
                    if (l.x - core.min.x) % 2 == 0 && (l.y - core.min.y) % 2 == 0 {
                        map.set_mut(l, T::Pillar);
                    }
                }
            }
            RoomKind::Pool => {
                let fill = if depth >= 8 && rng.chance(0.5) {
                    T::Magma
                } else {
                    [T::Deep, T::Murky, T::Shallow][rng.below(3) as usize]
                };
                for l in core.iter() {
                    let edge = l.x == core.min.x
                        || l.y == core.min.y
                        || l.x == core.max.x - 1
                        || l.y == core.max.y - 1;
                    map.set_mut(
                        l,
                        if edge && fill != T::Shallow {
                            T::Shallow
                        } else {
                            fill
                        },
                    );
                }
            }
            _ => {}
        }
    }
    doors.sort();
    doors.dedup();
    Some(Plan { map, rooms, doors })
}

fn tile_ids(game: &Game) -> Result<[(T, TileId); 13], Error> {
    let all = [
        T::Rock,
        T::Wall,
        T::Floor,
        T::Cave,
        T::Moss,
        T::Stream,
        T::Shallow,
        T::Murky,
        T::Deep,
        T::Magma,
        T::CaveWall,
        T::Pillar,
        T::Gold,
    ];
    let mut out = [(T::Rock, TileId(0)); 13];
    for (i, t) in all.into_iter().enumerate() {
        out[i] = (t, game.library().tile_id(t.tile_name())?);
    }
    Ok(out)
}

/// The cells of one level a walker can reach from a starting cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    area: LocBox,
    bits: Vec<bool>,
}

impl Reach {
    fn index(&self, l: Loc) -> Option<usize> {
        self.area.contains(l).then(|| {
            ((l.y - self.area.min.y) * self.area.width() + (l.x - self.area.min.x)) as usize
        })
    }

    /// Whether `l` is reachable.
    #[must_use]
    pub fn contains(&self, l: Loc) -> bool {
        self.index(l)
            .and_then(|i| self.bits.get(i).copied())
            .unwrap_or(false)
    }

    /// How many cells are reachable.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.iter().filter(|&&b| b).count()
    }

    /// Whether nothing is reachable.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn no_blocking_scenery(game: &Game, l: Loc) -> bool {
    !game.things().at(l).iter().any(|&t| blocks_walkers(game, t))
}

/// Whether thing `t` keeps walkers off its cell: blocking scenery other than a door (which
/// opens). Creatures do not count.
pub(crate) fn blocks_walkers(game: &Game, t: ThingId) -> bool {
    game.is(t, &super::props::IS_BLOCKING) && !game.is(t, &IS_DOOR) && !game.is(t, &IS_CREATURE)
}

/// Whether the terrain at `l` lets a walker cross (no wall, deep water or magma): the
/// tile half of [`walkable_with`].
pub(crate) fn walkable_tile(table: &TileTable, game: &Game, l: Loc) -> bool {
    !table.blocks(game, l) && !table.dangerous(game, l)
}

/// Whether a walker may cross `l` on the way somewhere, with a prepared tile table (for
/// loops over many cells): no wall, deep water or magma, and no blocking scenery other than
/// doors (which open). Creatures do not count.
#[must_use]
pub fn walkable_with(table: &TileTable, game: &Game, l: Loc) -> bool {
    walkable_tile(table, game, l) && no_blocking_scenery(game, l)
}

/// Flood fill (4-way, matching the engine's no-corner-cutting moves) of level `from.z` from
/// `from` over cells a walker may cross (see `walkable_with`). Θ(level cells).
#[must_use]
pub fn reachable(game: &Game, from: Loc) -> Reach {
    let area = level_box(from.z);
    let mut r = Reach {
        area,
        bits: vec![false; (area.width() * area.height()) as usize],
    };
    let table = TileTable::new(game);
    if !walkable_with(&table, game, from) {
        return r;
    }
    let mut stack = vec![from];
    if let Some(i) = r.index(from) {
        r.bits[i] = true;
    }
    while let Some(l) = stack.pop() {
        for n in l.neighbours4() {
            if let Some(i) = r.index(n)
                && !r.bits[i]
                && walkable_with(&table, game, n)
            {
                r.bits[i] = true;
                stack.push(n);
            }
        }
    }
    r
}

/// Doors at room entrances (a doorway between two walls), most of them plain doors.
fn place_doors(game: &mut Game, plan: &Plan, z: i32, rng: &mut GameRng) -> Result<(), Error> {
    for &d in &plan.doors {
        let w = |dx: i32, dy: i32| {
            plan.map
                .get(Loc::new(d.x + dx, d.y + dy, 0))
                .is_some_and(|t| matches!(t, T::Wall | T::Gold))
        };
        let doorway = (w(-1, 0) && w(1, 0)) || (w(0, -1) && w(0, 1));
        if doorway && rng.chance(0.7) {
            let kind = match rng.below(10) {
                0 => "heavy door",
                1 => "gate",
                _ => "door",
            };
            let t = game.library().create(kind)?;
            game.add_thing_mut(to_world(d, z), t)?;
        }
    }
    Ok(())
}

/// The chance that an ordinary room at `depth` is lit by a candelabra: 55% at depth 1,
/// five points less each depth down, never under 10%.
fn lit_room_chance(depth: i32) -> f64 {
    (0.6 - 0.05 * f64::from(depth)).max(0.1)
}

/// Furnish room `r` (of its own kind) on level `z`.
fn furnish_room(
    game: &mut Game,
    hooks: &Hooks,
    r: Room,
    z: i32,
    rng: &mut GameRng,
) -> Result<(), Error> {
    let depth = -z;
    let cells: Vec<Loc> = r.area.iter().map(|l| to_world(l, z)).collect();
    let lib = game.library().clone();
    let pick = |rng: &mut GameRng, flag: &alembic::Prop<bool>, lo: i32, hi: i32| {
        lib.random_name(rng, flag, lo, hi)
    };
    let spot = |rng: &mut GameRng| cells[rng.below(cells.len() as u64) as usize];
    // Items go only where no scenery stands (never on a workbench, lab or statue).
    let item_spot = |game: &Game, rng: &mut GameRng| {
        let open: Vec<Loc> = cells
            .iter()
            .copied()
            .filter(|&l| !super::rules::world::has_scenery(game, l))
            .collect();
        rng.index(open.len()).map(|i| open[i])
    };
    match r.kind {
        RoomKind::Lab => {
            let c = r.area;
            let corner1 = to_world(c.min, z);
            let corner2 = to_world(Loc::new(c.max.x - 1, c.max.y - 1, 0), z);
            let t = game.library().create("alchemy workbench")?;
            game.add_thing_mut(corner1, t)?;
            if corner2 != corner1 {
                let t = game.library().create("analysis lab")?;
                game.add_thing_mut(corner2, t)?;
            }
            for _ in 0..rng.range(1, 4) {
                let n = pick(rng, &IS_POTION, 1, depth + 1)?;
                let t = game.library().create(&n)?;
                if let Some(l) = item_spot(game, rng) {
                    game.add_thing_mut(l, t)?;
                }
            }
            for _ in 0..rng.range(1, 3) {
                let n = pick(rng, &IS_INGREDIENT, 1, depth + 2)?;
                let t = game.library().create(&n)?;
                if let Some(l) = item_spot(game, rng) {
                    game.add_thing_mut(l, t)?;
                }
            }
        }
        RoomKind::Store => {
            for _ in 0..rng.range(3, 7) {
                let n = pick(rng, &IS_ITEM, 1, depth + 1)?;
                let t = game.library().create(&n)?;
                if let Some(l) = item_spot(game, rng) {
                    game.add_thing_mut(l, t)?;
                }
            }
        }
        RoomKind::Lair => {
            let n = pick(rng, &IS_CREATURE, (depth - 2).max(1), depth)?;
            for _ in 0..rng.range(2, 4) {
                let l = spot(rng);
                if super::rules::world::creature_at(game, l).is_none() {
                    game.spawn_mut(&mut HookCtx::new(hooks), &n, l)?;
                }
            }
            let food = pick(rng, &IS_FOOD, 1, 11)?;
            let t = game.library().create(&food)?;
            if let Some(l) = item_spot(game, rng) {
                game.add_thing_mut(l, t)?;
            }
        }
        RoomKind::Fountain => {
            let c = r.area;
            let mid = to_world(
                Loc::new(c.min.x + c.width() / 2, c.min.y + c.height() / 2, 0),
                z,
            );
            let t = game.library().create("fountain of healing")?;
            game.add_thing_mut(mid, t)?;
        }
        RoomKind::Normal => {
            // Light that matters (`rules::light`): shallow rooms are often lit by a
            // candelabra, deep ones seldom, as Brogue's dungeon darkens going down.
            if rng.chance(lit_room_chance(depth)) {
                let t = game.library().create("candelabra")?;
                game.add_thing_mut(spot(rng), t)?;
            } else if rng.chance(0.3) {
                let deco = ["gravestone", "candelabra", "rune", "statue"][rng.below(4) as usize];
                let t = game.library().create(deco)?;
                game.add_thing_mut(spot(rng), t)?;
            }
        }
        RoomKind::Pillars | RoomKind::Pool => {}
    }
    Ok(())
}

/// Write a plan into the game and furnish it: doors, decorations, apparatus, monsters,
/// items. Returns the free floor cells of the level's main region.
fn furnish(
    game: &mut Game,
    hooks: &Hooks,
    plan: &Plan,
    z: i32,
    rng: &mut GameRng,
) -> Result<Option<Vec<Loc>>, Error> {
    let ids = tile_ids(game)?;
    let id_of = |t: T| ids.iter().find(|(k, _)| *k == t).map_or(TileId(0), |x| x.1);
    for (l, &t) in plan.map.iter() {
        game.set_tile_mut(to_world(l, z), id_of(t))?;
    }
    let depth = -z;
    place_doors(game, plan, z, rng)?;
    // Room contents.
    let lib = game.library().clone();
    let pick = |rng: &mut GameRng, flag: &alembic::Prop<bool>, lo: i32, hi: i32| {
        lib.random_name(rng, flag, lo, hi)
    };
    let mut lab_done = false;
    for (i, r) in plan.rooms.iter().enumerate() {
        let mut kind = r.kind;
        // Every level gets at least one lab (apparatus + potions).
        if !lab_done && i + 1 == plan.rooms.len() {
            kind = RoomKind::Lab;
        }
        if kind == RoomKind::Lab {
            lab_done = true;
        }
        furnish_room(game, hooks, Room { area: r.area, kind }, z, rng)?;
    }
    // Scenery must not cut the level: keep the largest walkable region and put everything
    // else only there.
    let start = plan
        .map
        .iter()
        .filter(|(_, t)| t.walkable())
        .map(|(l, _)| to_world(l, z))
        .find(|&l| super::rules::world::blocker_at(game, l).is_none());
    let Some(start) = start else { return Ok(None) };
    let reach = reachable(game, start);
    let total = plan.map.count(|t| t.walkable());
    let mut free: Vec<Loc> = plan
        .map
        .iter()
        .filter(|(_, t)| t.walkable())
        .map(|(l, _)| to_world(l, z))
        .filter(|&l| reach.contains(l))
        .collect();
    // A level where most floor is cut off is rebuilt.
    if free.len() * 10 < total * 8 {
        return Ok(None);
    }
    free.retain(|&l| game.things().at(l).is_empty());
    // Wandering population and loot.
    for _ in 0..(8 + depth) {
        let Some(i) = rng.index(free.len()) else {
            break;
        };
        let l = free.swap_remove(i);
        let n = pick(rng, &IS_CREATURE, (depth - 3).max(1), depth)?;
        game.spawn_mut(&mut HookCtx::new(hooks), &n, l)?;
    }
    for _ in 0..(6 + depth / 2) {
        let Some(i) = rng.index(free.len()) else {
            break;
        };
        let l = free.swap_remove(i);
        let n = pick(rng, &IS_ITEM, 1, depth + 1)?;
        let t = game.library().create(&n)?;
        game.add_thing_mut(l, t)?;
    }
    Ok(Some(free))
}

/// Each creature of level `z` (in id order) whose kind has a [`POTION_CHANCE`] carries, with
/// that chance, one of the potions a lab of this depth could hold: a cunning-by-necessity
/// monster (it plans while it carries one: `rules::cunning`; the potion breaks when it dies). `rng`
/// is a stream of its own, so the levels, the stairs and the hero's place are what they
/// were before monsters carried potions.
fn give_potions(game: &mut Game, z: i32, rng: &mut GameRng) -> Result<(), Error> {
    let depth = -z;
    for m in super::rules::world::creatures_on_level(game, z) {
        if game.is(m, &HERO_FLAG) {
            continue;
        }
        let chance = game.query(m, &POTION_CHANCE).unwrap_or(0.0);
        if chance <= 0.0 || !rng.chance(chance) {
            continue;
        }
        let name = game.library().random_name(rng, &IS_POTION, 1, depth + 1)?;
        let potion = game.library().create(&name)?;
        game.add_thing_mut(m, potion)?;
    }
    Ok(())
}

/// The per-level places left for stairs (main region, free floor).
struct Level {
    free: Vec<Loc>,
}

/// Generate all 11 levels into `game` (which holds the library), place the stairs, the
/// exit, the Stone and the hero. Returns the hero's id.
pub fn generate(game: &mut Game, hooks: &Hooks) -> Result<ThingId, Error> {
    let seed = game.rng().next_u64();
    let mut rng = GameRng::seed_from(seed);
    let mut levels = Vec::new();
    for depth in 1..=LEVELS {
        let z = -depth;
        let mut built = None;
        for _ in 0..20 {
            let Some(plan) = plan_level(&mut rng, depth) else {
                continue;
            };
            // Roll back by keeping the earlier value: furnish a copy.
            let mut attempt = game.clone();
            if let Some(free) = furnish(&mut attempt, hooks, &plan, z, &mut rng)?
                && free.len() >= 8
            {
                *game = attempt;
                built = Some(Level { free });
                break;
            }
        }
        levels.push(built.ok_or_else(|| data_fault(DataError::LevelNotBuilt { z }))?);
    }
    let take = |levels: &mut Vec<Level>, i: usize, rng: &mut GameRng| -> Result<Loc, Error> {
        let free = &mut levels[i].free;
        let k = rng
            .index(free.len())
            .ok_or_else(|| data_fault(DataError::NoRoomLeft))?;
        Ok(free.swap_remove(k))
    };
    // Two stair pairs between adjacent levels.
    for i in 0..(LEVELS as usize - 1) {
        for _ in 0..2 {
            let down = take(&mut levels, i, &mut rng)?;
            let up = take(&mut levels, i + 1, &mut rng)?;
            let d = game.library().create("stairs down")?.with(&DESTINATION, up);
            let u = game.library().create("stairs up")?.with(&DESTINATION, down);
            game.add_thing_mut(down, d)?;
            game.add_thing_mut(up, u)?;
        }
    }
    // The exit and the hero on level −1, the Stone on level −10.
    let start = take(&mut levels, 0, &mut rng)?;
    let exit = game.library().create("exit")?.with(&DESTINATION, start);
    game.add_thing_mut(start, exit)?;
    let stone_at = take(&mut levels, (-STONE_LEVEL - 1) as usize, &mut rng)?;
    let stone = game.library().create("the Philosopher's Stone")?;
    game.add_thing_mut(stone_at, stone)?;
    // Some monsters carry a potion: drawn from a stream of their own (see `give_potions`).
    let mut potions = GameRng::seed_from(seed.rotate_left(29) ^ 0x706F_7469_6F6E);
    for depth in 1..=LEVELS {
        give_potions(game, -depth, &mut potions)?;
    }
    // No monster starts next to the hero.
    for l in start.neighbours8().chain(std::iter::once(start)) {
        if let Some(c) = super::rules::world::creature_at(game, l) {
            game.remove_thing_mut(c)?;
        }
    }
    let hero = game.spawn_mut(&mut HookCtx::new(hooks), "you", Place::Map(start))?;
    // A modest start: a dagger and a healing potion.
    let dagger = game
        .library()
        .create("dagger")?
        .with(&super::props::IS_WIELDED, true);
    game.add_thing_mut(hero, dagger)?;
    let potion = game.library().create("potion of healing")?;
    game.add_thing_mut(hero, potion)?;
    game.set_var_mut(&HERO, hero);
    game.set_var_mut(&GAME_NAME, Arc::from("alchemy"));
    Ok(hero)
}
