//! The hero's memory of the map: remembered terrain and scenery per cell, kept in the game
//! value as engine layers. What is remembered is what was *seen*: a door seen closed is
//! remembered closed until the hero sees it again, a fountain that dried up out of sight is
//! still remembered flowing.

use alembic::{Game, Grid, Loc, Rgb, ThingId, TileId, VisibleSet};

use super::world::scenery_at;
use crate::alchemy::props::{FG, GLYPH};

/// Layer: remembered tile number + 1 (0 = never seen).
pub const SEEN_TILE: &str = "alchemy.seen_tile";
/// Layer: id of the remembered scenery thing (0 = none).
pub const SEEN_THING: &str = "alchemy.seen_thing";
/// Layer: how the remembered scenery looked when last seen — glyph and colour packed as
/// `1 << 48 | char << 24 | rgb` (0 = none).
pub const SEEN_LOOK: &str = "alchemy.seen_look";

/// Pack a glyph and colour for [`SEEN_LOOK`].
#[must_use]
pub fn pack_look(ch: char, fg: Rgb) -> u64 {
    (1 << 48)
        | (u64::from(u32::from(ch)) << 24)
        | (u64::from(fg.r) << 16)
        | (u64::from(fg.g) << 8)
        | u64::from(fg.b)
}

fn unpack_look(v: u64) -> Option<(char, Rgb)> {
    if v >> 48 != 1 {
        return None;
    }
    let ch = char::from_u32(u32::try_from((v >> 24) & 0xFF_FFFF).ok()?)?;
    let byte = |s: u32| u8::try_from((v >> s) & 0xFF).unwrap_or(0);
    Some((ch, Rgb::new(byte(16), byte(8), byte(0))))
}

/// Remember everything in `view`.
pub fn remember(game: &mut Game, view: &VisibleSet) {
    let cells: Vec<Loc> = view.iter().collect();
    remember_cells(game, cells);
}

/// Remember `cells` as they are now, seen or not (wizard mode's `reveal`).
pub fn remember_cells(game: &mut Game, cells: impl IntoIterator<Item = Loc>) {
    // The layers as they were before this call (Θ(1) clones), read without a lookup by name
    // per cell. Reading them instead of the layers being written is exact: what is written
    // for a cell depends only on the terrain and the things, which this does not change, so
    // a cell met twice is written the same value both times.
    let before = |name: &str| game.layer(name).cloned();
    let (tiles, things, looks) = (before(SEEN_TILE), before(SEEN_THING), before(SEEN_LOOK));
    let old = |g: &Option<Grid<u64>>, l: Loc| g.as_ref().map_or(0, |g| *g.get(l));
    for l in cells {
        let tile = u64::from(game.tile(l).0) + 1;
        if old(&tiles, l) != tile {
            game.set_layer_mut(SEEN_TILE, l, tile);
        }
        let thing = scenery_at(game, l);
        let id = thing.map_or(0, |t| t.0);
        if old(&things, l) != id {
            game.set_layer_mut(SEEN_THING, l, id);
        }
        let look = thing.map_or(0, |t| {
            pack_look(
                game.query(t, &GLYPH).unwrap_or('?'),
                game.query(t, &FG).unwrap_or(Rgb::new(200, 200, 200)),
            )
        });
        if old(&looks, l) != look {
            game.set_layer_mut(SEEN_LOOK, l, look);
        }
    }
}

/// The remembered tile at `l`, if the hero has seen it.
#[must_use]
pub fn remembered_tile(game: &Game, l: Loc) -> Option<TileId> {
    let v = game.layer_get(SEEN_TILE, l);
    (v > 0).then(|| TileId(u16::try_from(v - 1).unwrap_or(0)))
}

/// The remembered scenery at `l`, if any (and still in the game).
#[must_use]
pub fn remembered_thing(game: &Game, l: Loc) -> Option<ThingId> {
    let v = game.layer_get(SEEN_THING, l);
    (v > 0 && game.contains(ThingId(v))).then_some(ThingId(v))
}

/// How the scenery at `l` looked when the hero last saw it: glyph and colour.
#[must_use]
pub fn remembered_look(game: &Game, l: Loc) -> Option<(char, Rgb)> {
    unpack_look(game.layer_get(SEEN_LOOK, l))
}

/// Whether the hero has seen `l`.
#[must_use]
pub fn explored(game: &Game, l: Loc) -> bool {
    game.layer_get(SEEN_TILE, l) > 0
}
