//! Doors and gates: open and closed states.

use alembic::{Error, Game, ThingId};

use crate::props::{GLYPH, IS_BLOCKING, IS_OPEN, IS_VIEW_BLOCKING};

/// Open or close a door: an open door neither blocks movement nor sight; a closed one
/// blocks movement, and sight too unless its kind is see-through (gates).
pub fn set_open(game: &mut Game, door: ThingId, open: bool) -> Result<(), Error> {
    let t = game.things().get(door)?;
    let closed_blocks_view = match t.proto().and_then(|p| game.library().get(p).ok()) {
        Some(p) => p.is(&IS_VIEW_BLOCKING),
        None => true,
    };
    let closed_glyph = match t.proto().and_then(|p| game.library().get(p).ok()) {
        Some(p) => p.get(&GLYPH).unwrap_or('+'),
        None => '+',
    };
    let mut t = t.clone();
    t.set_mut(&IS_OPEN, open);
    t.set_mut(&IS_BLOCKING, !open);
    t.set_mut(&IS_VIEW_BLOCKING, !open && closed_blocks_view);
    t.set_mut(&GLYPH, if open { '\'' } else { closed_glyph });
    game.update_thing_mut(t)
}
