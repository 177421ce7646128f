//! Games built on the `alembic` engine's public API, and [`launch()`], where every frontend gets
//! its game from.
//!
//! - [`alchemy`]: the Alchemy roguelike; [`alchemy::ui`]: its screens.
//! - [`caves`]: the Caves of Clojure game, finished.
//! - [`sim`]: the headless runner behind the `alembic-sim` binary, with a registry of games
//!   by name.
//! - [`storage`], [`record`], [`playback`]: files that survive crashes, recordings (the
//!   save's journal) and the bounded replay viewer; [`campaign`]: the reliability
//!   campaign's structure-aware cases.

// A game's private modules are reached through its one `pub use` list: whatever a public
// item exposes must be in that list too.
#![warn(unnameable_types)]

pub mod alchemy;
pub mod campaign;
pub mod caves;
pub mod demo;
pub mod gamedata;
pub mod keymap;
pub mod launch;
pub mod playback;
pub mod record;
pub mod scores;
pub mod sim;
pub mod slot;
pub mod storage;

pub use launch::{
    Cause, GAMES, GameArgs, GameEntry, LaunchError, LaunchOptions, LibraryCounts, default_game,
    game, games, launch, list_games, print_games, report_session_end, save_dir,
};
