//! The hero's memory of the map: remembered terrain and scenery per cell, kept in the game
//! value as engine layers. What is remembered is what was *seen*: a door seen closed is
//! remembered closed until the hero sees it again, a fountain that dried up out of sight is
//! still remembered flowing.

use alembic::{Game, Loc, LocBox, Rgb, ThingId, fov::VisibleSet, layer::Layer, library::TileId};

use super::world::scenery_among;
use crate::props::{FG, GLYPH};

/// Layer: the remembered tile (`None` = never seen).
pub const SEEN_TILE: Layer<Option<TileId>> = Layer::new("alchemy.seen_tile");
/// Layer: the remembered scenery thing, if any.
pub const SEEN_THING: Layer<Option<ThingId>> = Layer::new("alchemy.seen_thing");
/// Layer: how the remembered scenery looked when last seen: glyph and colour.
pub const SEEN_LOOK: Layer<Option<(char, Rgb)>> = Layer::new("alchemy.seen_look");

/// Remember everything in `view`.
pub fn remember(game: &mut Game, view: &VisibleSet) {
    remember_cells(game, view.iter());
}

/// What one cell of the map memory is to become.
enum Memory {
    Tile(Option<TileId>),
    Thing(Option<ThingId>),
    Look(Option<(char, Rgb)>),
}

/// Remember `cells` as they are now, seen or not (wizard mode's `reveal`).
pub fn remember_cells(game: &mut Game, cells: impl IntoIterator<Item = Loc>) {
    for (l, memory) in changed_memories(game, cells) {
        match memory {
            Memory::Tile(tile) => game.set_layer_mut(&SEEN_TILE, l, tile),
            Memory::Thing(thing) => game.set_layer_mut(&SEEN_THING, l, thing),
            Memory::Look(look) => game.set_layer_mut(&SEEN_LOOK, l, look),
        }
    }
}

/// The writes that remembering `cells` makes, in order. They are worked out from the game
/// as it is (the memory layers as they were before any of them), which is exact: what is
/// written for a cell depends only on the terrain and the things, which remembering does
/// not change, so a cell met twice is written the same value both times. Reading the game
/// unchanged lets every grid be read through a view that remembers its last chunk (the
/// cells come row by row, so most reads fall in the same chunk as the one before).
fn changed_memories(game: &Game, cells: impl IntoIterator<Item = Loc>) -> Vec<(Loc, Memory)> {
    let (tiles, things, looks) = (
        game.layers().get(&SEEN_TILE),
        game.layers().get(&SEEN_THING),
        game.layers().get(&SEEN_LOOK),
    );
    let (tiles, things, looks) = (tiles.view(), things.view(), looks.view());
    let terrain = game.terrain().view(LocBox::rect(0, 0, 0, 0, 0));
    let at = game.things().cursor();
    let mut out = Vec::new();
    for l in cells {
        let tile = Some(*terrain.get(l));
        if tiles.get(l) != tile {
            out.push((l, Memory::Tile(tile)));
        }
        let thing = scenery_among(game, at.things_at(l));
        let remembered = things.get(l);
        if remembered != thing {
            out.push((l, Memory::Thing(thing)));
        } else if thing.is_none() {
            // No scenery now and none remembered: no look is remembered either (this
            // function writes a cell's thing and look together, the look `None` exactly
            // when the thing is), so there is nothing to compare.
            debug_assert_eq!(
                looks.get(l),
                None,
                "a look remembered without a thing at {l}"
            );
            continue;
        }
        let look = thing.map(|t| {
            (
                game.query(t, &GLYPH).unwrap_or('?'),
                game.query(t, &FG).unwrap_or(Rgb::new(200, 200, 200)),
            )
        });
        if looks.get(l) != look {
            out.push((l, Memory::Look(look)));
        }
    }
    out
}

/// The remembered tile at `l`, if the hero has seen it.
#[must_use]
pub fn remembered_tile(game: &Game, l: Loc) -> Option<TileId> {
    game.layers().at(&SEEN_TILE, l)
}

/// The remembered scenery at `l`, if any (and still in the game).
#[must_use]
pub fn remembered_thing(game: &Game, l: Loc) -> Option<ThingId> {
    game.layers()
        .at(&SEEN_THING, l)
        .filter(|&t| game.things().contains(t))
}

/// How the scenery at `l` looked when the hero last saw it: glyph and colour (read by the
/// board: without the `board` feature, nothing does).
#[must_use]
#[cfg_attr(not(feature = "board"), allow(dead_code))]
pub fn remembered_look(game: &Game, l: Loc) -> Option<(char, Rgb)> {
    game.layers().at(&SEEN_LOOK, l)
}

/// Whether the hero has seen `l`.
#[must_use]
pub fn explored(game: &Game, l: Loc) -> bool {
    game.layers().at(&SEEN_TILE, l).is_some()
}

/// [`explored`] for many cells of one game: the layer is looked up once, not by name for
/// every cell (the explore bot asks about each cell it searches and its eight neighbours).
pub fn explored_cells(game: &Game) -> impl Fn(Loc) -> bool + use<> {
    let seen = game.layers().get(&SEEN_TILE);
    move |l| seen.get(l).is_some()
}
