//! The Caves' library as the Rust code built it before issue 27 moved it to
//! `games/caves/data/caves.toml`: the baseline the `data` bench measures loading against, and
//! what `tests` below check the data still builds, prototype for prototype. It lives here,
//! not in the game, so the game defines no prototype in Rust.

use std::sync::Arc;

use alembic::hook::{ON_ACTION, ON_USE};
use alembic::library::{FREQ, LEVEL};
use alembic::props::Hook;
use alembic::schedule::SPEED;
use alembic::{Error, Library, Props, Rgb};
use alembic_games::caves::{
    ATTACK, DEFENCE, DIGGABLE, EXIT, EXIT_TILE, FG, FLOOR, GEM, GEM_TILE, GLYPH, HP, IS_HERO,
    IS_HOSTILE, LIBRARY_NAME, LIBRARY_VERSION, MAX_HP, NAME, RECEIVER, SPAWN_COUNT,
    SPAWN_PER_DEPTH, SPAWN_RANK, SPORES, STAIRS, STAIRS_DOWN, STAIRS_UP, TRANSPARENT, VERB,
    WALKABLE, WALL,
};

/// How many of a kind a new world places (see `caves::SPAWN_COUNT`).
fn spawn(p: Props, rank: i32, count: i32, per_depth: i32) -> Props {
    let p = p.with(&SPAWN_RANK, rank).with(&SPAWN_COUNT, count);
    if per_depth == 0 {
        p
    } else {
        p.with(&SPAWN_PER_DEPTH, per_depth)
    }
}

fn creature(name: &str, glyph: char, colour: Rgb, hp: i32) -> Props {
    Props::new()
        .with(&NAME, Arc::from(name))
        .with(&GLYPH, glyph)
        .with(&FG, colour)
        .with(&HP, hp)
        .with(&MAX_HP, hp)
}

/// The Caves' library as Rust code built it before issue 27.
///
/// # Errors
/// None in practice: the engine's errors for a malformed library.
pub fn from_code() -> Result<Library, Error> {
    let mut lib = Library::new();
    let tile = |walk: bool, glyph: char, fg: Rgb| {
        let p = Props::new().with(&GLYPH, glyph).with(&FG, fg);
        if walk {
            p.with(&WALKABLE, true).with(&TRANSPARENT, true)
        } else {
            p
        }
    };
    lib.define_tile_mut(FLOOR, tile(true, '.', Rgb::new(150, 138, 115)))?;
    lib.define_tile_mut(
        WALL,
        tile(false, '#', Rgb::new(165, 140, 105)).with(&DIGGABLE, true),
    )?;
    lib.define_tile_mut(
        STAIRS_DOWN,
        tile(true, '>', Rgb::new(235, 235, 235)).with(&STAIRS, 1),
    )?;
    lib.define_tile_mut(
        STAIRS_UP,
        tile(true, '<', Rgb::new(235, 235, 235)).with(&STAIRS, -1),
    )?;
    lib.define_tile_mut(
        EXIT_TILE,
        tile(true, '>', Rgb::new(255, 210, 60)).with(&EXIT, true),
    )?;
    lib.define_tile_mut(
        GEM_TILE,
        tile(true, '*', Rgb::new(111, 227, 255)).with(&GEM, true),
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
        spawn(creature("lichen", 'F', Rgb::new(90, 200, 80), 6), 1, 6, 2)
            .with(&ATTACK, 2)
            .with(&VERB, Arc::from("stings"))
            .with(&SPORES, 3)
            .with(&ON_ACTION, hook("caves.lichen"))
            .with(&ON_USE, hook("caves.sting")),
    )?;
    lib.proclaim_mut(
        "bunny",
        None,
        spawn(creature("bunny", 'v', Rgb::new(235, 220, 80), 4), 2, 5, 0)
            .with(&ON_ACTION, hook("caves.bunny")),
    )?;
    lib.proclaim_mut(
        "silverfish",
        None,
        spawn(
            creature("silverfish", '~', Rgb::new(120, 170, 255), 15),
            3,
            3,
            0,
        )
        .with(&ON_ACTION, hook("caves.silverfish")),
    )?;
    lib.proclaim_mut(
        "cave bat",
        None,
        spawn(
            creature("cave bat", 'b', Rgb::new(190, 120, 230), 8),
            4,
            2,
            1,
        )
        .with(&ATTACK, 5)
        .with(&VERB, Arc::from("bites"))
        .with(&IS_HOSTILE, true)
        .with(&LEVEL, 1)
        .with(&ON_ACTION, hook("caves.bat")),
    )?;
    lib.proclaim_mut(
        "zombie",
        None,
        spawn(creature("zombie", 'Z', Rgb::new(60, 220, 190), 18), 5, 1, 1)
            .with(&ATTACK, 8)
            .with(&DEFENCE, 3)
            .with(&VERB, Arc::from("claws"))
            .with(&IS_HOSTILE, true)
            .with(&LEVEL, 2)
            .with(&FREQ, 70)
            .with(&SPEED, 50)
            .with(&ON_ACTION, hook("caves.zombie")),
    )?;
    Ok(lib.named(LIBRARY_NAME, LIBRARY_VERSION))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data file builds exactly the library the Rust code built: same prototypes,
    /// tiles (and their numbers), values and name, so recorded games replay unchanged.
    #[test]
    fn the_data_builds_the_library_the_code_built() {
        let data = alembic_games::caves::library().unwrap();
        let code = from_code().unwrap();
        assert_eq!(data.len(), code.len());
        for p in code.prototypes() {
            assert_eq!(Ok(p), data.get(p.name()), "prototype {:?}", p.name());
        }
        let tiles = |l: &Library| l.tiles().map(|(i, t)| (i, t.clone())).collect::<Vec<_>>();
        assert_eq!(tiles(&data), tiles(&code));
        assert_eq!(data, code);
        assert_eq!(data.id(), code.id());
        assert!(data.warnings().is_empty(), "{:?}", data.warnings());
    }
}
