//! The shape of the Caves' levels: their size, which `z` each lies at, what is inside the
//! border, where creatures can stand. Plain functions of coordinates and tiles that the
//! world, the rules, the view and the bot all share (so none of them imports another for it).

use alembic::{Error, Game, Loc, LocBox};

use crate::props::{FLOOR, WALKABLE, tile};

/// Width of every level, in cells.
pub const WIDTH: i32 = 120;
/// Height of every level, in cells.
pub const HEIGHT: i32 = 50;
/// How many levels a new world has. Level `d` (0 at the top) lies at `z = −d`: the engine's
/// [`Dir::Down`](alembic::Dir::Down) lowers `z`.
pub const DEFAULT_LEVELS: i32 = 5;
/// The rectangle of level `z`.
#[must_use]
pub fn level_box(z: i32) -> LocBox {
    LocBox::rect(0, 0, WIDTH, HEIGHT, z)
}

/// Whether `l` is strictly inside the level's rock border (the border cannot be dug).
#[must_use]
pub fn is_inner(l: Loc, levels: i32) -> bool {
    l.x > 0
        && l.y > 0
        && l.x < WIDTH - 1
        && l.y < HEIGHT - 1
        && (0..levels).contains(&depth_of(l.z))
}

/// The `z` of level `depth` (0 = the top).
#[must_use]
pub const fn z_of(depth: i32) -> i32 {
    -depth
}

/// The level number (0 = the top) of a `z`.
#[must_use]
pub const fn depth_of(z: i32) -> i32 {
    -z
}

/// Whether creatures can stand on the tile at `l`.
pub(crate) fn walkable(g: &Game, l: Loc) -> bool {
    g.tile_def(l).is_ok_and(|d| d.is(&WALKABLE))
}

/// A random floor cell of level `z` with nothing on it and, if `away` is given, more than
/// that distance from that place. `None` after a bounded number of tries.
pub(crate) fn random_empty_floor(
    g: &mut Game,
    z: i32,
    away: Option<(Loc, u32)>,
) -> Result<Option<Loc>, Error> {
    let floor = tile(g, FLOOR)?;
    for _ in 0..2000 {
        let x = g.rng().range(1, i64::from(WIDTH - 2)) as i32;
        let y = g.rng().range(1, i64::from(HEIGHT - 2)) as i32;
        let l = Loc::new(x, y, z);
        if g.tile(l) == floor
            && g.things().at(l).is_empty()
            && away.is_none_or(|(p, d)| p.z != z || p.chebyshev(l) > d)
        {
            return Ok(Some(l));
        }
    }
    Ok(None)
}
