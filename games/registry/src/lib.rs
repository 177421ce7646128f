//! Games built on the `alembic` engine's public API, and [`launch()`], where every frontend gets
//! its game from.
//!
//! - [`alchemy`]: the Alchemy roguelike; [`alchemy::ui`]: its screens.
//! - [`caves`]: the Caves of Clojure game, finished.
//! - [`host`]: what a server running many games at once (the browser's) needs of each.
//! - [`sim`]: the headless runner behind the `alembic-sim` binary, with a registry of games
//!   by name.
//! - [`storage`], [`record`], [`playback`]: files that survive crashes, recordings (the
//!   save's journal) and the bounded replay viewer; [`campaign`]: the reliability
//!   campaign's structure-aware cases.

// A game's private modules are reached only through its public face (Alchemy's grouped
// modules, the Caves' `pub use` list): whatever a public item exposes must be nameable there.
#![warn(unnameable_types)]

pub mod campaign;
pub mod host;
pub mod launch;
pub use alembic_sim as sim;

pub mod alchemy {
    //! The Alchemy roguelike (`alembic-alchemy`), everything it makes public, and [`ui`], its
    //! screens (`alembic-alchemy-ui`), under one name: `alchemy::new_game`,
    //! `alchemy::view::status`, `alchemy::save`, `alchemy::ui::app`.
    //!
    //! The screens are their own crate so that the compiler keeps them to the game's public
    //! face; here they sit where frontends, tests and benches have always found them.

    pub use alembic_alchemy::*;
    pub use alembic_alchemy_ui as ui;
}
pub use alembic_caves as caves;
pub use alembic_rats as rats;
pub use alembic_session::{
    board, end, gamedata, keymap, play, playback, record, ruleset, run, savefile, scores, slot,
    storage,
};

pub use alembic_session::{
    Cause, LaunchError, LaunchOptions, LibraryCounts, report_session_end, save_dir,
};
pub use launch::{
    GAMES, GameArgs, GameEntry, default_game, game, game_of, games, launch, launch_of, list_games,
    list_games_of, print_games, print_games_of,
};

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
