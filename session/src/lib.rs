//! # Alembic session
//!
//! What every game on the Alembic engine gets for free, between the UI toolkit
//! (`alembic-rl-ui`) and the games:
//!
//! | module | what |
//! |---|---|
//! | [`ruleset`] | the game contract: [`Ruleset`], the headless rules a game implements; [`ruleset::Journeys`], the optional answers for rest, explore and travel |
//! | [`ask`] | questions a game asks before a command: which item, direction, target, yes or no, how many, what text ([`ask::Questions`]) |
//! | [`board`] | how the rules are shown and played: [`board::Board`], the keys and the drawing |
//! | [`play`] | the session every ruleset gets, in any frontend: [`play::launch`] |
//! | [`run`] | one game in play, whatever screens show it: save slot, recording, practice history, filing at its end |
//! | [`console`] | the wizard console: Tab completion, scrollback, over any screens ([`console::ConsoleHost`]) |
//! | [`savefile`] | save files of any ruleset, checked on the way in |
//! | [`plan`] | foresight: [`plan::Planner`] chooses a command by playing it out on clones of the game, over sampled futures, within a budget of nodes |
//! | [`journey`] | many steps with one key: rest, search, run, travel, auto-explore, for any game ([`journey::Walker`]) |
//! | [`mapview`] | the map view widget: field of view, memory, scrolling |
//! | [`launch`] | the options a game starts with ([`LaunchOptions`]), why it could not ([`LaunchError`]), where saves live ([`save_dir`]) |
//! | [`storage`] | files that survive crashes: atomic writes, bounded reads, one window per save ([`storage::SessionLock`]) |
//! | [`record`] | recordings with checkpoints: the save's journal |
//! | [`playback`] | the bounded replay viewer with step back |
//! | [`scores`] | morgue files and the top-20 score table |
//! | [`start`] | the start screen: new, practice, from a seed, continue, the scores inline, over any screens ([`start::StartHost`]) |
//! | [`slot`] | which save a session owns, autosaves |
//! | [`keymap`] | key tables with their help lines |
//! | [`end`] | the end screen: how it ended, the summary, the last messages, what was filed |
//! | [`gamedata`] | the data a game plays with: shipped, a data directory, mods |
//!
//! Nothing here knows a frontend: the terminal, the window and the browser run it unchanged.
//!
//! ## A whole game in a terminal
//!
//! A game implements [`Ruleset`]; [`play::launch`] makes the session's app over it (the
//! start screen with the scores, saves with their lock and autosave, the recording,
//! practice with undo, the wizard console, the morgue file), and any frontend plays that
//! app. The rats (`alembic-rl-rats`, the smallest game on the contract) in the terminal
//! (`alembic-rl-tui`, without its default features):
//!
//! ```no_run
//! use alembic_session::{LaunchOptions, play};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let rules = alembic_rats::Rats::new()?; // any `Ruleset`
//!     let opts = LaunchOptions {
//!         game: "rats".into(),
//!         seed: Some(7), // `None`: from the clock
//!         practice: true, // `U` takes a move back; never scored
//!         ..LaunchOptions::default()
//!     };
//!     let app = play::launch(rules, &opts)?; // continues the rats' save if there is one
//!     alembic_tui::run_app(app)?; // raw mode until the player quits; the game is saved
//!     Ok(())
//! }
//! ```
//!
//! `LaunchOptions::replay` watches a recording instead; the window frontend
//! (`alembic_pixels::run_app`) and the browser server take the same app.
#![warn(missing_docs)]
#![warn(unnameable_types)]

pub mod ask;
#[cfg(feature = "ui")]
pub mod board;
#[cfg(feature = "ui")]
pub mod console;
#[cfg(feature = "ui")]
pub mod end;
pub mod gamedata;
pub mod journey;
#[cfg(feature = "ui")]
pub mod keymap;
pub mod launch;
#[cfg(feature = "ui")]
mod layout;
#[cfg(feature = "ui")]
pub mod mapview;
pub mod modes;
pub mod plan;
#[cfg(feature = "ui")]
pub mod play;
#[cfg(feature = "ui")]
pub mod playback;
#[cfg(feature = "ui")]
mod question;
pub mod record;
pub mod ruleset;
pub mod run;
pub mod savefile;
pub mod scores;
pub mod slot;
#[cfg(feature = "ui")]
pub mod start;
pub mod storage;

#[cfg(feature = "ui")]
pub use board::Board;
pub use launch::{
    Cause, LaunchError, LaunchOptions, LibraryCounts, clock_seed, read_save, report_session_end,
    save_dir, save_dir_from, seed_from_text,
};
pub use modes::Modes;
pub use ruleset::{Ending, Foe, Goal, Journeys, Outcome, Rejected, Ruleset, Status, Summary, View};

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
