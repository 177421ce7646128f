//! The Caves' prototype [`Library`]: tiles and creatures. Everything a creature is lives
//! here, inside the game value; everything it *does* is a hook named by its prototype and
//! registered in [`hooks`](super::hooks()).

use std::sync::Arc;

use alembic::{
    Error, Library, Props, Rgb, hook::ON_ACTION, hook::ON_USE, library::FREQ, library::LEVEL,
    props::Hook, schedule::SPEED,
};

use super::hooks::{HOOK_BAT, HOOK_BUNNY, HOOK_LICHEN, HOOK_SILVERFISH, HOOK_STING, HOOK_ZOMBIE};
use super::props::*;

// ----- the library ---------------------------------------------------------------------------

/// The name saves refer to the Caves' library by.
pub const LIBRARY_NAME: &str = "caves";
/// The library's version: raised when a change to it needs old saves migrated.
pub const LIBRARY_VERSION: u32 = 1;

fn creature(name: &str, glyph: char, colour: Rgb, hp: i32) -> Props {
    Props::new()
        .with(&NAME, Arc::from(name))
        .with(&GLYPH, glyph)
        .with(&FG, colour)
        .with(&HP, hp)
        .with(&MAX_HP, hp)
}

/// The Caves' prototypes and tiles.
///
/// # Errors
/// Engine errors from proclaiming (none for this fixed data).
pub fn library() -> Result<Library, Error> {
    let mut lib = Library::new();
    lib.define_tile_mut(
        FLOOR,
        Props::new()
            .with(&WALKABLE, true)
            .with(&TRANSPARENT, true)
            .with(&GLYPH, '.')
            .with(&FG, Rgb::new(150, 138, 115)),
    )?;
    lib.define_tile_mut(
        WALL,
        Props::new()
            .with(&DIGGABLE, true)
            .with(&GLYPH, '#')
            .with(&FG, Rgb::new(165, 140, 105)),
    )?;
    lib.define_tile_mut(
        STAIRS_DOWN,
        Props::new()
            .with(&WALKABLE, true)
            .with(&TRANSPARENT, true)
            .with(&STAIRS, 1)
            .with(&GLYPH, '>')
            .with(&FG, Rgb::new(235, 235, 235)),
    )?;
    lib.define_tile_mut(
        STAIRS_UP,
        Props::new()
            .with(&WALKABLE, true)
            .with(&TRANSPARENT, true)
            .with(&STAIRS, -1)
            .with(&GLYPH, '<')
            .with(&FG, Rgb::new(235, 235, 235)),
    )?;
    lib.define_tile_mut(
        EXIT_TILE,
        Props::new()
            .with(&WALKABLE, true)
            .with(&TRANSPARENT, true)
            .with(&EXIT, true)
            .with(&GLYPH, '>')
            .with(&FG, Rgb::new(255, 210, 60)),
    )?;
    let hook = |name: &str| Hook::new(name);
    lib.proclaim_mut(
        "player",
        None,
        creature("player", '@', Rgb::new(255, 240, 170), 40)
            .with(&ATTACK, 10)
            .with(&IS_HERO, true)
            .with(&RECEIVER, true),
    )?;
    lib.proclaim_mut(
        "lichen",
        None,
        creature("lichen", 'F', Rgb::new(90, 200, 80), 6)
            .with(&ATTACK, 2)
            .with(&VERB, Arc::from("stings"))
            .with(&SPORES, 3)
            .with(&ON_ACTION, hook(HOOK_LICHEN))
            .with(&ON_USE, hook(HOOK_STING)),
    )?;
    lib.proclaim_mut(
        "bunny",
        None,
        creature("bunny", 'v', Rgb::new(235, 220, 80), 4).with(&ON_ACTION, hook(HOOK_BUNNY)),
    )?;
    lib.proclaim_mut(
        "silverfish",
        None,
        creature("silverfish", '~', Rgb::new(120, 170, 255), 15)
            .with(&ON_ACTION, hook(HOOK_SILVERFISH)),
    )?;
    lib.proclaim_mut(
        "cave bat",
        None,
        creature("cave bat", 'b', Rgb::new(190, 120, 230), 8)
            .with(&ATTACK, 5)
            .with(&VERB, Arc::from("bites"))
            .with(&IS_HOSTILE, true)
            .with(&LEVEL, 1)
            .with(&ON_ACTION, hook(HOOK_BAT)),
    )?;
    lib.proclaim_mut(
        "zombie",
        None,
        creature("zombie", 'Z', Rgb::new(60, 220, 190), 18)
            .with(&ATTACK, 8)
            .with(&DEFENCE, 3)
            .with(&VERB, Arc::from("claws"))
            .with(&IS_HOSTILE, true)
            .with(&LEVEL, 2)
            .with(&FREQ, 70)
            .with(&SPEED, 50)
            .with(&ON_ACTION, hook(HOOK_ZOMBIE)),
    )?;
    Ok(lib.named(LIBRARY_NAME, LIBRARY_VERSION))
}
