//! The Caves' data: property keys, tiles, creature prototypes and the hook registry.
//!
//! Everything a creature is lives in the prototype [`Library`] inside the game value;
//! everything it *does* is a hook named by its prototype ([`ON_ACTION`] for its turn,
//! [`ON_USE`] for what happens when something touches it) and registered in [`hooks`].
//! An unregistered name is an error ([`Game::check_hooks`] runs when a game is made), never
//! a silent fallback.

use std::sync::Arc;

use alembic::{
    Error, Game, Hooks, Library, Prop, Props, Rgb, ThingId, hook::ON_ACTION, hook::ON_USE,
    layer::Layer, library::FREQ, library::LEVEL, library::TileId, props::Hook, schedule::SPEED,
};

use super::kinds::Outcome;
use super::rules;

// ----- creature properties -------------------------------------------------------------------

/// What the creature is called in messages ("lichen", "cave bat").
pub const NAME: Prop<Arc<str>> = Prop::new("name");
/// The character drawn for it.
pub const GLYPH: Prop<char> = Prop::new("glyph");
/// The colour it is drawn in (the name Alchemy uses; stored as `colour`, as saves have it).
pub const FG: Prop<Rgb> = Prop::with_default("colour", Rgb::new(200, 200, 200));
/// Hit points left; at 0 or below the creature dies.
pub const HP: Prop<i32> = Prop::new("hp");
/// Hit points when unhurt.
pub const MAX_HP: Prop<i32> = Prop::new("max_hp");
/// Attack value: a blow does `1 + rand(max(0, attack − defence))` damage.
pub const ATTACK: Prop<i32> = Prop::with_default("attack", 1);
/// Defence value, subtracted from an attacker's attack.
pub const DEFENCE: Prop<i32> = Prop::with_default("defence", 0);
/// The verb for its blows, third person ("bites" → "The cave bat bites you").
pub const VERB: Prop<Arc<str>> = Prop::new("verb");
/// How many more times a lichen may grow (each child gets one fewer, so growth is bounded).
pub const SPORES: Prop<i32> = Prop::with_default("spores", 0);
/// The one thing the keyboard drives: the player's hero (the name Alchemy uses; stored as
/// `is_player`, as saves have it).
pub const IS_HERO: Prop<bool> = Prop::with_default("is_player", false);
/// Hunts the player (the name Alchemy uses; drawn in the status line as a threat; the bot fights these first).
pub const IS_HOSTILE: Prop<bool> = Prop::with_default("hostile", false);
/// Receives messages said nearby (the player's inbox is the game's message log).
pub const RECEIVER: Prop<bool> = Prop::with_default("receiver", false);

// ----- tile properties -----------------------------------------------------------------------

/// Creatures can stand here.
pub const WALKABLE: Prop<bool> = Prop::with_default("walkable", false);
/// Light passes through.
pub const TRANSPARENT: Prop<bool> = Prop::with_default("transparent", false);
/// Walking into it digs it out (becomes floor).
pub const DIGGABLE: Prop<bool> = Prop::with_default("diggable", false);
/// Stairs: `1` leads down a level, `-1` up, `0` neither.
pub const STAIRS: Prop<i32> = Prop::with_default("stairs", 0);
/// Stepping here wins the game.
pub const EXIT: Prop<bool> = Prop::with_default("exit", false);

// ----- game-wide variables -------------------------------------------------------------------

/// The player's id.
pub const PLAYER: Prop<ThingId> = Prop::new("caves.player");
/// How the game stands.
pub const OUTCOME: Prop<Outcome> = Prop::with_default("caves.outcome", Outcome::Playing);
/// What ended the game ("killed by a zombie"), empty while playing.
pub const CAUSE: Prop<Arc<str>> = Prop::new("caves.cause");
/// Creatures the player has killed.
pub const KILLS: Prop<i64> = Prop::with_default("caves.kills", 0);
/// The deepest level reached (0 = the top).
pub const DEEPEST: Prop<i32> = Prop::with_default("caves.deepest", 0);
/// The number of levels of this world.
pub const LEVELS: Prop<i32> = Prop::new("caves.levels");
/// Whether new hunters keep arriving (on in [`new_game`](super::new_game), off in
/// [`arena`](super::arena)s so scenarios stay as drawn).
pub const REINFORCEMENTS: Prop<bool> = Prop::with_default("caves.reinforcements", false);
/// The seed the world was made from (its bits, as an integer property).
pub const SEED: Prop<i64> = Prop::new("caves.seed");

/// The layer holding the player's memory of the map: tile number + 1 where seen, 0 unseen.
pub const SEEN_LAYER: Layer<Option<TileId>> = Layer::new("caves.seen");

// ----- tiles ---------------------------------------------------------------------------------

/// Tile names.
pub const FLOOR: &str = "floor";
/// Rock that can be dug.
pub const WALL: &str = "wall";
/// Stairs to the level below.
pub const STAIRS_DOWN: &str = "stairs down";
/// Stairs to the level above.
pub const STAIRS_UP: &str = "stairs up";
/// The way out, on the bottom level.
pub const EXIT_TILE: &str = "exit";

/// The number of a tile by name (the library is the source of truth).
pub(crate) fn tile(g: &Game, name: &str) -> Result<TileId, Error> {
    g.library().tile_id(name)
}

// ----- hooks ---------------------------------------------------------------------------------

/// Hook names, as the prototypes reference them.
pub(crate) const HOOK_LICHEN: &str = "caves.lichen";
pub(crate) const HOOK_BUNNY: &str = "caves.bunny";
pub(crate) const HOOK_SILVERFISH: &str = "caves.silverfish";
pub(crate) const HOOK_BAT: &str = "caves.bat";
pub(crate) const HOOK_ZOMBIE: &str = "caves.zombie";
pub(crate) const HOOK_STING: &str = "caves.sting";

/// The Caves' behaviour registry: every hook a Caves prototype names. Built on each call
/// (six entries in a small map, about a microsecond): no registry lives in a global; the
/// caller keeps it for as long as it needs it and passes it to every call that may run a
/// hook.
///
/// # Errors
/// Only if two hooks were registered under one name (a programming error, reported rather
/// than panicking).
pub fn hooks() -> Result<Hooks, Error> {
    Hooks::new()
        .register(HOOK_LICHEN, rules::lichen_turn)?
        .register(HOOK_BUNNY, rules::bunny_turn)?
        .register(HOOK_SILVERFISH, rules::silverfish_turn)?
        .register(HOOK_BAT, rules::bat_turn)?
        .register(HOOK_ZOMBIE, rules::zombie_turn)?
        .register(HOOK_STING, rules::lichen_sting)
}

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
        creature("silverfish", '~', Rgb::new(200, 210, 235), 15)
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
        creature("zombie", 'Z', Rgb::new(140, 190, 150), 18)
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
