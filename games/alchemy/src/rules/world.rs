//! Reading the world: the hero, who and what is where, what blocks, what is seen.

use std::cell::RefCell;

use alembic::{
    Error, Game, Loc, LocBox, ThingId, fov::Fov, fov::VisibleSet, fov::field_of_view,
    game::CellView, grid::GridView, library::TileColumn, library::TileId, path::Pathfinder,
};

use crate::props::{
    HERO, IS_BLOCKING, IS_CREATURE, IS_DANGEROUS, IS_FLOOR, IS_FLYING, IS_ITEM, IS_SCENERY,
    IS_VIEW_BLOCKING, Z_ORDER,
};

/// How far the hero sees.
pub const FOV_RADIUS: u32 = 12;
/// Level width (x from −35 to 35).
pub const LEVEL_WIDTH: i32 = 71;
/// Level height (y from −25 to 25).
pub const LEVEL_HEIGHT: i32 = 51;
/// Number of levels (z from −1 to −11).
pub const LEVELS: i32 = 11;
/// The level holding the Philosopher's Stone.
pub const STONE_LEVEL: i32 = -10;

/// The rectangle of level `z`, rock border included.
#[must_use]
pub fn level_box(z: i32) -> LocBox {
    LocBox::rect(-35, -25, LEVEL_WIDTH, LEVEL_HEIGHT, z)
}

/// Depth of level `z` for people: z −1 is depth 1, z −11 is depth 11.
#[must_use]
pub fn depth_of(z: i32) -> i32 {
    -z
}

/// The hero's id.
pub fn hero(game: &Game) -> Result<ThingId, Error> {
    game.var(&HERO)
}

/// The creature standing at `loc`, if any.
#[must_use]
pub fn creature_at(game: &Game, loc: Loc) -> Option<ThingId> {
    game.things()
        .at(loc)
        .iter()
        .copied()
        .find(|&t| game.is(t, &IS_CREATURE))
}

/// A blocking non-creature thing at `loc` (closed door, fountain, apparatus…).
#[must_use]
pub fn blocker_at(game: &Game, loc: Loc) -> Option<ThingId> {
    game.things()
        .at(loc)
        .iter()
        .copied()
        .find(|&t| !game.is(t, &IS_CREATURE) && game.is(t, &IS_BLOCKING))
}

/// The topmost scenery at `loc` (doors, stairs, decorations, apparatus).
#[must_use]
pub fn scenery_at(game: &Game, loc: Loc) -> Option<ThingId> {
    scenery_among(game, game.things().at(loc))
}

/// The topmost scenery among `things` (a cell's things, read once for several questions).
#[must_use]
pub fn scenery_among(game: &Game, things: &[ThingId]) -> Option<ThingId> {
    things
        .iter()
        .copied()
        .filter(|&t| game.is(t, &IS_SCENERY))
        .max_by_key(|&t| game.query(t, &Z_ORDER).unwrap_or(0))
}

/// Items lying at `loc`, in arrival order.
#[must_use]
pub fn items_at(game: &Game, loc: Loc) -> Vec<ThingId> {
    game.things()
        .at(loc)
        .iter()
        .copied()
        .filter(|&t| game.is(t, &IS_ITEM))
        .collect()
}

/// Whether the terrain at `loc` blocks movement (walls, rock, and the void outside levels).
#[must_use]
pub fn tile_blocks(game: &Game, loc: Loc) -> bool {
    match game.tile_def(loc) {
        Ok(t) => t.is(&IS_BLOCKING) || !(t.is(&IS_FLOOR) || t.is(&IS_DANGEROUS)),
        Err(_) => true,
    }
}

/// Whether the terrain at `loc` is deep water or magma.
#[must_use]
pub fn tile_dangerous(game: &Game, loc: Loc) -> bool {
    game.tile_def(loc).is_ok_and(|t| t.is(&IS_DANGEROUS))
}

/// Whether light passes `loc`.
#[must_use]
pub fn transparent(game: &Game, loc: Loc) -> bool {
    let tile_ok = game
        .tile_def(loc)
        .is_ok_and(|t| !t.is(&IS_VIEW_BLOCKING) && game.tile(loc).0 != 0);
    tile_ok
        && !game
            .things()
            .at(loc)
            .iter()
            .any(|&t| game.is(t, &IS_VIEW_BLOCKING))
}

/// Whether `mover` may step into `loc` now: terrain it can cross, no blocking thing, no
/// creature.
#[must_use]
pub fn can_enter(game: &Game, mover: ThingId, loc: Loc) -> bool {
    terrain_ok(game, mover, loc)
        && blocker_at(game, loc).is_none()
        && creature_at(game, loc).is_none()
}

/// Whether `mover` can cross the terrain at `loc` (flyers cross deep water and magma).
#[must_use]
pub fn terrain_ok(game: &Game, mover: ThingId, loc: Loc) -> bool {
    if tile_blocks(game, loc) {
        return false;
    }
    !tile_dangerous(game, loc) || game.is(mover, &IS_FLYING)
}

/// The movement and sight flags of every tile kind, as the library keeps them
/// ([`Library::tile_column`](alembic::Library::tile_column): built when a tile is defined,
/// never per turn or per read), so hot loops (field of view, path costs, flood fills) index a
/// column instead of looking properties up per cell. Making one is four column lookups. It
/// also carries the turn's scratch buffers for sight checks and monsters' paths, so they are
/// reused within a turn without any global or thread-local.
#[derive(Clone, Debug)]
pub struct TileTable {
    blocking: TileColumn,
    floor: TileColumn,
    dangerous: TileColumn,
    view_blocking: TileColumn,
    /// Scratch for [`sees_with`]: reused field-of-view buffers.
    sight: RefCell<(Fov, VisibleSet)>,
    /// Scratch for monsters' A* searches.
    paths: RefCell<Pathfinder>,
}

impl TileTable {
    /// The table for `game`'s library.
    #[must_use]
    pub fn new(game: &Game) -> Self {
        TileTable::with_pathfinder(game, Pathfinder::new())
    }

    /// [`TileTable::new`] with a path-finding workspace used before. A workspace keeps the
    /// arrays it grew to, so the turn's first monster search does not allocate and clear
    /// arrays the size of the level again; what a search finds does not depend on the
    /// workspace's past.
    #[must_use]
    pub fn with_pathfinder(game: &Game, paths: Pathfinder) -> Self {
        let lib = game.library();
        TileTable {
            blocking: lib.tile_column(&IS_BLOCKING),
            floor: lib.tile_column(&IS_FLOOR),
            dangerous: lib.tile_column(&IS_DANGEROUS),
            view_blocking: lib.tile_column(&IS_VIEW_BLOCKING),
            sight: RefCell::new((Fov::new(), VisibleSet::new())),
            paths: RefCell::new(paths),
        }
    }

    /// The table's path-finding workspace, to be used again
    /// ([`with_pathfinder`](TileTable::with_pathfinder)).
    #[must_use]
    pub fn into_pathfinder(self) -> Pathfinder {
        self.paths.into_inner()
    }

    /// The table's reusable path-finding workspace (monsters' A*).
    pub fn pathfinder(&self) -> std::cell::RefMut<'_, Pathfinder> {
        self.paths.borrow_mut()
    }

    /// Same as [`tile_blocks`]: a blocking tile, one that is neither floor nor dangerous,
    /// or a tile number the library does not have.
    #[must_use]
    pub fn blocks(&self, game: &Game, l: Loc) -> bool {
        let id = game.tile(l);
        match self.blocking.get(id) {
            Some(b) => b || !(self.floor.has(id) || self.dangerous.has(id)),
            None => true,
        }
    }

    /// Same as [`tile_dangerous`].
    #[must_use]
    pub fn dangerous(&self, game: &Game, l: Loc) -> bool {
        self.dangerous.has(game.tile(l))
    }

    /// Same as this module's `transparent`: not a view-blocking tile, not the void (tile 0),
    /// not a tile number the library does not have, and nothing there blocks the view.
    #[must_use]
    pub fn transparent(&self, game: &Game, l: Loc) -> bool {
        self.lets_sight_through(game, game.tile(l), || game.things().at(l))
    }

    /// The rule both [`transparent`](TileTable::transparent) and the views of
    /// [`transparency`](TileTable::transparency) apply to a cell's tile and things. The
    /// things are read only when the tile lets sight through.
    #[inline(always)]
    fn lets_sight_through<'t>(
        &self,
        game: &Game,
        tile: TileId,
        things: impl FnOnce() -> &'t [ThingId],
    ) -> bool {
        tile.0 != 0
            && self.view_blocking.get(tile) == Some(false)
            && !things().iter().any(|&t| game.is(t, &IS_VIEW_BLOCKING))
    }

    /// [`transparent`](TileTable::transparent) for the many nearby cells a field of view
    /// asks about: the terrain and the cells' things are read through views that remember
    /// the chunk of the last read.
    pub fn transparency<'a>(&'a self, game: &'a Game) -> impl Fn(Loc) -> bool + 'a {
        let seen = Transparency {
            table: self,
            game,
            terrain: game.terrain().view(LocBox::rect(0, 0, 0, 0, 0)),
            cells: game.things().cursor(),
        };
        move |l| seen.at(l)
    }
}

/// [`TileTable::transparency`]'s reader.
struct Transparency<'a> {
    table: &'a TileTable,
    game: &'a Game,
    terrain: GridView<'a, TileId>,
    cells: CellView<'a>,
}

impl Transparency<'_> {
    /// Inlined into the field of view's scan (a closure that large is not).
    #[inline(always)]
    fn at(&self, l: Loc) -> bool {
        self.table
            .lets_sight_through(self.game, *self.terrain.get(l), || self.cells.things_at(l))
    }
}

/// What the hero sees now: the engine's symmetric field of view from the hero's cell.
pub fn hero_view(game: &Game) -> Result<VisibleSet, Error> {
    hero_view_with(game, &TileTable::new(game))
}

/// [`hero_view`] with the game's tile table already at hand.
pub fn hero_view_with(game: &Game, table: &TileTable) -> Result<VisibleSet, Error> {
    let at = game.things().location(hero(game)?)?;
    Ok(field_of_view(at, FOV_RADIUS, table.transparency(game)))
}

/// The cells within the hero's sight radius of `at` (on its level) that hold a thing that
/// blocks sight. With the same terrain, the same origin and the same answer here, the
/// field of view from `at` is the same: the field of view only asks about cells in this
/// square, and a cell's transparency ([`TileTable::transparent`]) depends only on its tile
/// and on whether such a thing stands on it.
#[must_use]
pub fn sight_blockers_near(game: &Game, at: Loc) -> Vec<Loc> {
    let r = i32::try_from(FOV_RADIUS).unwrap_or(i32::MAX);
    let square = LocBox::new(
        Loc::new(at.x.saturating_sub(r), at.y.saturating_sub(r), at.z),
        Loc::new(
            at.x.saturating_add(r).saturating_add(1),
            at.y.saturating_add(r).saturating_add(1),
            at.z.saturating_add(1),
        ),
    );
    game.things()
        .in_box(square)
        .into_iter()
        .filter(|(_, ids)| ids.iter().any(|&t| game.is(t, &IS_VIEW_BLOCKING)))
        .map(|(l, _)| l)
        .collect()
}

/// Whether the hero can see `loc` — for messages: exactly whether `loc` is in the hero's
/// field of view ([`hero_view`]), computed only as far out as `loc`.
#[must_use]
pub fn hero_sees(game: &Game, loc: Loc) -> bool {
    let Ok(h) = hero(game) else { return false };
    let Ok(at) = game.things().location(h) else {
        return false;
    };
    sees(game, at, loc, FOV_RADIUS)
}

/// Whether `to` is in the field of view of radius `radius` from `from` (the engine's
/// symmetric shadowcasting, same level). The scan stops at `to`'s distance: shadows at a
/// depth depend only on nearer rows, so the answer equals membership in the full
/// field of view, at a fraction of the cost for nearby cells.
#[must_use]
pub fn sees(game: &Game, from: Loc, to: Loc, radius: u32) -> bool {
    sees_with(game, &TileTable::new(game), from, to, radius)
}

/// [`sees`] with the game's tile table already at hand.
#[must_use]
pub fn sees_with(game: &Game, table: &TileTable, from: Loc, to: Loc, radius: u32) -> bool {
    if from.z != to.z {
        return false;
    }
    let d2 = from.euclidean_sq(to);
    let r = u64::from(radius);
    if d2 > r * r + r {
        return false;
    }
    if from == to {
        return true;
    }
    // Smallest scan radius whose reporting circle holds `to`.
    let mut k = u32::try_from(d2.isqrt()).unwrap_or(radius).min(radius);
    if u64::from(k) * u64::from(k) + u64::from(k) < d2 {
        k = (k + 1).min(radius);
    }
    let mut sight = table.sight.borrow_mut();
    let (fov, seen) = &mut *sight;
    fov.compute_into(from, k, table.transparency(game), seen);
    seen.contains(to)
}

/// Every creature standing on level `z` (not carried), in id order.
///
/// Reads the level's things from the game's cell index
/// ([`Things::ids_on_level`](alembic::things::Things::ids_on_level)), not every
/// thing in the game.
#[must_use]
pub fn creatures_on_level(game: &Game, z: i32) -> Vec<ThingId> {
    let mut out = game.things().ids_on_level(z);
    out.retain(|&id| game.is(id, &IS_CREATURE));
    out.sort_unstable();
    out
}

/// Random floor cells of level `z` where `ok` holds; tries `tries` times.
pub fn random_floor(
    game: &mut Game,
    z: i32,
    tries: usize,
    ok: impl Fn(&Game, Loc) -> bool,
) -> Option<Loc> {
    let b = level_box(z);
    for _ in 0..tries {
        let x = game.rng().range(i64::from(b.min.x), i64::from(b.max.x) - 1) as i32;
        let y = game.rng().range(i64::from(b.min.y), i64::from(b.max.y) - 1) as i32;
        let l = Loc::new(x, y, z);
        if game
            .tile_def(l)
            .is_ok_and(|t| t.is(&IS_FLOOR) && !t.is(&IS_DANGEROUS))
            && blocker_at(game, l).is_none()
            && creature_at(game, l).is_none()
            && ok(game, l)
        {
            return Some(l);
        }
    }
    None
}

/// Whether any scenery is at `l`.
#[must_use]
pub fn has_scenery(game: &Game, l: Loc) -> bool {
    game.things().at(l).iter().any(|&t| game.is(t, &IS_SCENERY))
}
