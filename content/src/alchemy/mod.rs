//! **Alchemy**: descend ten levels, fetch the Philosopher's Stone and climb back out.
//!
//! A remake of the 2013 Clojure 7DRL on the `alembic` engine: the whole game is one
//! persistent [`Game`] value; [`apply`] is the single pure funnel from a [`Command`] to the
//! next value; [`view`] is what a user interface reads; [`save`] writes and reads it.
//!
//! ```
//! use alembic_content::alchemy::{self, Command, Rules};
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

pub mod bot;
pub mod command;
pub mod dungeon;
pub mod error;
pub mod events;
pub mod hooks;
pub mod kinds;
pub mod library;
pub mod props;
pub mod rules;
pub mod save;
pub mod text;
pub mod ui;
pub mod view;
pub mod wizard;

use alembic::{Error, Game};

pub use command::{Command, Outcome, apply};
pub use error::{Refusal, RuleError};
pub use events::{Event, Noun};
pub use hooks::Rules;
pub use kinds::{DataError, Fate};
pub use view::{Summary, summary};

/// A new game from `seed` in the given modes (as a recording's header lists them): in
/// `wizard` mode the game accepts [`Command::Wizard`] lines. Other modes (`practice`) change
/// nothing in the game value.
///
/// # Errors
/// As [`new_game`].
pub fn new_game_in_modes<S: AsRef<str>>(
    seed: u64,
    rules: &Rules,
    modes: impl IntoIterator<Item = S>,
) -> Result<Game, Error> {
    let mut game = new_game(seed, rules)?;
    if modes.into_iter().any(|m| m.as_ref() == "wizard") {
        game.set_var_mut(&props::WIZARD_MODE, true);
    }
    Ok(game)
}

/// A new game from `seed`: the library with this game's potion looks and recipes, all 11
/// levels, the hero at the exit on level −1.
pub fn new_game(seed: u64, rules: &Rules) -> Result<Game, Error> {
    let mut game = Game::new(seed);
    let mut lib = library::base_library()?;
    library::randomise(&mut lib, game.rng())?;
    game = game.with_library(lib);
    dungeon::generate(&mut game, rules.hooks())?;
    let hero = rules::world::hero(&game)?;
    rules::items::assign_letters(&mut game, hero)?;
    let turn = game.turn();
    text::record(&mut game, &[(turn, events::Event::Entered)]);
    let view = rules::world::hero_view(&game)?;
    rules::memory::remember(&mut game, &view);
    Ok(game)
}
