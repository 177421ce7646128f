//! The Caves' typed property keys (creatures, tiles, game-wide variables), the remembered-map
//! layer and the tile names. What a key means is its doc; its default, if any, is in the key.

use std::sync::Arc;

use alembic::{Error, Game, Prop, Rgb, ThingId, layer::Layer, library::TileId};

use super::kinds::Outcome;

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
/// How many of a creature a new world places on its top level (none without it).
pub const SPAWN_COUNT: Prop<i32> = Prop::with_default("spawn_count", 0);
/// How many more of it each level further down holds.
pub const SPAWN_PER_DEPTH: Prop<i32> = Prop::with_default("spawn_per_depth", 0);
/// When its kind is placed while a level is populated: lower first (then by name). The
/// order decides which random cells each kind draws, so it is part of the world a seed makes.
pub const SPAWN_RANK: Prop<i32> = Prop::with_default("spawn_rank", 0);
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
/// A gem lies here: stepping here picks it up (the tile becomes floor, and the gem counts
/// to the score).
pub const GEM: Prop<bool> = Prop::with_default("gem", false);

// ----- game-wide variables -------------------------------------------------------------------

/// The player's id.
pub const PLAYER: Prop<ThingId> = Prop::new("caves.player");
/// How the game stands.
pub const OUTCOME: Prop<Outcome> = Prop::with_default("caves.outcome", Outcome::Playing);
/// What ended the game ("killed by a zombie"), empty while playing.
pub const CAUSE: Prop<Arc<str>> = Prop::new("caves.cause");
/// The name of the creature that killed the player (the cause of death is made from it,
/// in [`text`](crate::text), never kept as English in the game).
pub const KILLER: Prop<Arc<str>> = Prop::new("caves.killer");
/// Creatures the player has killed.
pub const KILLS: Prop<i64> = Prop::with_default("caves.kills", 0);
/// Gems the player has picked up.
pub const GEMS: Prop<i64> = Prop::with_default("caves.gems", 0);
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
/// A gem on the floor.
pub const GEM_TILE: &str = "gem";

/// The number of a tile by name (the library is the source of truth).
pub(crate) fn tile(g: &Game, name: &str) -> Result<TileId, Error> {
    g.library().tile_id(name)
}
