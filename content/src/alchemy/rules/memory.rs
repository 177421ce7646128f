//! The hero's memory of the map: remembered terrain and scenery per cell, kept in the game
//! value as two engine layers.

use alembic::{Game, Loc, ThingId, TileId, VisibleSet};

use super::world::scenery_at;

/// Layer: remembered tile number + 1 (0 = never seen).
pub const SEEN_TILE: &str = "alchemy.seen_tile";
/// Layer: id of the remembered scenery thing (0 = none).
pub const SEEN_THING: &str = "alchemy.seen_thing";

/// Remember everything in `view`.
pub fn remember(game: &mut Game, view: &VisibleSet) {
    let cells: Vec<Loc> = view.iter().collect();
    for l in cells {
        let tile = u64::from(game.tile(l).0) + 1;
        if game.layer_get(SEEN_TILE, l) != tile {
            game.set_layer_mut(SEEN_TILE, l, tile);
        }
        let thing = scenery_at(game, l).map_or(0, |t| t.0);
        if game.layer_get(SEEN_THING, l) != thing {
            game.set_layer_mut(SEEN_THING, l, thing);
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

/// Whether the hero has seen `l`.
#[must_use]
pub fn explored(game: &Game, l: Loc) -> bool {
    game.layer_get(SEEN_TILE, l) > 0
}
