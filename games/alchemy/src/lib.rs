//! **Alchemy**: descend ten levels, fetch the Philosopher's Stone and climb back out.
//!
//! A remake of the 2013 Clojure 7DRL on the `alembic` engine: the whole game is one
//! persistent [`Game`] value; [`apply`] is the single pure funnel from a [`Command`] to the
//! next value; the [`view`] functions ([`view::status`], [`view::visible`],
//! [`view::cell_view`], [`view::describe`]…) are what a user interface reads; [`save`] writes
//! and reads it.
//!
//! # What is public
//!
//! The crate root holds the entry points: [`Rules`], [`new_game`], [`apply`] with its
//! [`Command`], [`Outcome`], [`Event`] and errors. Everything else a test, bench, binary,
//! frontend or example uses sits in one of a few modules named for what it holds:
//!
//! - [`command`]: what the player asks for and the funnel that answers it;
//! - [`events`]: what happened, typed ([`events::Event`], [`events::Noun`], the cause of a
//!   death);
//! - [`view`]: what a user interface reads (status, cells, glyphs, look, inventory, legend);
//! - [`rules`]: the rules a test or the bot calls directly (world queries, combat, effects,
//!   items, memory, [`rules::progress`]);
//! - [`props`]: the property keys the data and the tests read or set, and the kinds of
//!   value they hold ([`props::DamageType`], [`props::Stat`]…);
//! - [`library`]: the game's data and the library built from it;
//! - [`text`]: the English of names and events;
//! - [`bot`]: the explore policy; [`planbot`]: the plan policy (the explorer, fighting by
//!   search);
//! - [`wizard`]: the wizard-mode commands;
//! - [`save`]: writing and reading a game.
//!
//! The rest stays inside the crate, so an item nobody uses is dead code and the compiler
//! says so. The screens are another crate, `alembic-alchemy-ui`: they read the game only
//! through this face (the cell and thing questions of [`view`]: [`view::door_at`],
//! [`view::stairs_at`], [`view::look_at`]…), and the compiler, not a test, keeps them from
//! reaching further.
//!
//! ```
//! use alembic_alchemy::{self as alchemy, Command, Rules};
//! use alembic::Dir;
//! let rules = Rules::new()?;
//! let game = alchemy::new_game(7, &rules)?;
//! let next = match alchemy::apply(&game, &rules, Command::Wait) {
//!     Ok(o) => o.game,
//!     Err(e) => panic!("{e}"),
//! };
//! assert_eq!(next.turn(), game.turn() + 1);
//! assert_eq!(alchemy::view::status(&next)?.depth, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![warn(unnameable_types)]

pub mod asks;
pub mod bot;
pub mod command;
pub mod contract;
mod dungeon;
mod error;
pub mod events;
mod hooks;
pub mod journeys;
mod kinds;
pub mod library;
pub mod morgue;
pub mod planbot;
pub mod props;
mod rulebook;
pub mod rules;
pub mod save;
pub mod text;
pub mod view;
pub mod wizard;

use alembic::{Error, Game};

pub use command::{Command, Outcome, Refusal, RuleError, apply};
pub use contract::{Alchemy, Happened, random_command};
pub use events::Event;
pub use rulebook::{Rules, RulesError};

/// A new game from `seed` in the given modes (a recording's header lists them as strings:
/// [`Modes::parse`](alembic_session::Modes::parse)): a wizard game takes the wizard
/// console's lines (the session's). Practice changes nothing in the game value; the data a game
/// was played with ([`Modes::data`](alembic_session::Modes::data), see
/// [`alembic_session::gamedata`]) must match the rules' data.
///
/// # Errors
/// As [`new_game`]; [`Error::Msg`] with one sentence when the modes name other data than
/// the rules were built on (a recording made with other mods).
pub fn new_game_in_modes(
    seed: u64,
    rules: &Rules,
    modes: &alembic_session::Modes,
) -> Result<Game, Error> {
    rules
        .data_identity()
        .check_save(&modes.data)
        .map_err(|e| Error::Msg(e.to_string().into()))?;
    let mut game = new_game(seed, rules)?;
    if modes.wizard {
        game.set_var_mut(&props::WIZARD_MODE, true);
    }
    Ok(game)
}

/// A new game from `seed`: the library with this game's potion looks and recipes, all 11
/// levels, the hero at the exit on level −1.
pub fn new_game(seed: u64, rules: &Rules) -> Result<Game, Error> {
    let mut game = Game::new(seed);
    let mut lib = rules.base_library().clone();
    library::randomise(&mut lib, game.rng())?;
    game = game.with_library(lib);
    dungeon::generate(&mut game, rules.hooks())?;
    let hero = rules::world::hero(&game)?;
    rules::items::assign_letters(&mut game, hero)?;
    let view = rules::world::hero_view(&game)?;
    rules::memory::remember(&mut game, &view);
    Ok(game)
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
