//! # Alembic session
//!
//! What every game on the Alembic engine gets for free, between the UI toolkit
//! (`alembic-ui`) and the games:
//!
//! | module | what |
//! |---|---|
//! | [`ruleset`] | the game contract: [`Ruleset`], one trait a game implements |
//! | [`play`] | the session every ruleset gets, in any frontend: [`play::launch`] |
//! | [`run`] | one game in play, whatever screens show it: save slot, recording, practice history, filing at its end |
//! | [`console`] | the wizard console: Tab completion, scrollback, over any screens ([`console::ConsoleHost`]) |
//! | [`savefile`] | save files of any ruleset, checked on the way in |
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
#![warn(missing_docs)]
#![warn(unnameable_types)]

pub mod console;
pub mod end;
pub mod gamedata;
pub mod journey;
pub mod keymap;
pub mod launch;
pub mod mapview;
pub mod play;
pub mod playback;
pub mod record;
pub mod ruleset;
pub mod run;
pub mod savefile;
pub mod scores;
pub mod slot;
pub mod start;
pub mod storage;

pub use launch::{
    Cause, LaunchError, LaunchOptions, LibraryCounts, clock_seed, read_save, report_session_end,
    save_dir, save_dir_from, seed_from_text,
};
pub use ruleset::{Ending, Goal, Outcome, Rejected, Ruleset, Status, Summary, View};
