//! `caves`: the game of Steve Losh's "The Caves of Clojure" (after Trystan Spangler's
//! roguelike tutorial), finished — with the stairs, sight and monsters that fight back that
//! the series stopped before.
//!
//! - Levels of 120 × 50 made by random fill and three rounds of the engine's cellular
//!   automaton; pockets under 25 cells are filled in. Five levels (level `d` at `z = −d`)
//!   are joined by stairs: one staircase per level, at least [`STAIRS_AWAY`] (60%) of the
//!   level's diameter from where the player arrives, counted in turns of walking and
//!   digging. The way out lies on the bottom level, as far as possible from the stairs
//!   that lead there.
//! - The player `@` (40 hp, attack 10) walks, digs (walking into rock) and attacks (walking
//!   into a creature). Lichens `F` grow and sting whoever touches them, bunnies `v` hop about,
//!   silverfish `~` swim through rock, cave bats `b` (Dijkstra maps) and zombies `Z` (A*) hunt
//!   the player. Damage is `1 + rand(max(0, attack − defence))`. Messages reach everyone
//!   within 7 cells ("The lichen grows.").
//! - Everything lives in the [`Game`](alembic::Game) value: the creatures are things made
//!   from the [`library`], their behaviour is hooks named by their prototypes and
//!   registered in [`hooks`], the player's memory of the map is a layer of the game, and
//!   the outcome, kills and so on are game variables. Same seed and same commands, same
//!   [`state_hash`](alembic::Game::state_hash).
//!
//! The rules are plain functions over the game value ([`new_game`], [`act`], [`status`]…),
//! and [`Caves`] puts them on the game contract: the session every game gets, and the
//! headless runner (`alembic-sim --game caves`) with the Caves' bot (`Ruleset::bot`).
//!
//! ```
//! use alembic::Dir;
//! use alembic_caves::{self as caves, Command, Outcome};
//!
//! let g0 = caves::new_game(7)?;
//! let g1 = caves::act(&g0, Command::Move(Dir::East))?;
//! assert_eq!(g1.turn(), 1);
//! assert_eq!(g0.turn(), 0); // the older value is untouched
//! assert_eq!(caves::outcome(&g1)?, Outcome::Playing);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bot;
mod command;
mod error;
mod events;
mod geometry;
mod hooks;
mod kinds;
#[cfg(feature = "board")]
mod launch;
mod library;
pub mod morgue;
mod props;
mod rules;
mod ruleset;
pub mod save;
mod text;
mod view;
mod wizard;
mod world;

pub use command::{Command, act, act_mut, play, play_mut};
pub use error::{Refusal, RuleError};
pub use events::Event;
pub use hooks::hooks;
pub use kinds::Outcome;
#[cfg(feature = "board")]
pub use launch::launch;
pub use library::{
    CavesData, DATA, DATA_FILE, LIBRARY_NAME, LIBRARY_VERSION, library, library_counts,
    load as load_data, schema,
};
pub use props::{
    ATTACK, DEFENCE, DIGGABLE, EXIT, EXIT_TILE, FG, FLOOR, GEM, GEM_TILE, GEMS, GLYPH, HP, IS_HERO,
    IS_HOSTILE, MAX_HP, NAME, RECEIVER, REINFORCEMENTS, SPAWN_COUNT, SPAWN_PER_DEPTH, SPAWN_RANK,
    SPORES, STAIRS, STAIRS_DOWN, STAIRS_UP, TRANSPARENT, VERB, WALKABLE, WALL,
};
pub use rules::{
    HEARING, LICHEN_GROWTH_ODDS, MAX_HUNTERS, REGEN_EVERY, REINFORCE_ODDS, VIEW_RADIUS,
};
pub use ruleset::{Caves, REGIONS};
pub use text::{death_cause, describe, with_article};
pub use view::{
    Status, creature_at, creatures_on, is_hostile, name_of, outcome, player, remembered, status,
    visible,
};
pub use wizard::wizard_commands;
pub use world::{
    DEFAULT_LEVELS, GEMS_PER_LEVEL, HEIGHT, STAIRS_AWAY, WIDTH, arena, depth_of, is_inner,
    level_box, new_game, new_game_on, new_game_with_levels, region_diameter, walk_distance,
    walkable_regions, z_of,
};

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
