//! Alchemy's recordings opened for watching, with no screen: the session's [`Playback`]
//! over Alchemy's commands (the viewer itself, `--replay FILE`, is the session's, as for
//! every game).
//!
//! [`open`] reads the file and makes only the first state (see [`alembic_session::playback`]): each
//! later state is made when the viewer reaches it, every checkpoint checked on the way, and
//! memory stays bounded whatever the length. A jump starts from the last whole state the
//! recording holds before it (a save text every
//! [`STATE_EVERY`](alembic_session::record::STATE_EVERY) commands). A recording that diverges stops the viewer
//! there, with the turn said in the bar. [`rebuild`] makes and checks every state at once
//! (for tests and tools).

use std::path::Path;

use alembic::Game;

use super::record;
use alembic_alchemy::{self as alchemy, Rules};
use alembic_session::Modes;
use alembic_session::playback::Playback;
pub use alembic_session::playback::ReplayOpenError;

/// Every state of the recorded Alchemy game in `path`, first to last, checked against every
/// checkpoint. Θ(commands) applications.
///
/// # Errors
/// [`ReplayOpenError`].
pub fn rebuild(path: &Path, rules: &Rules) -> Result<Vec<Game>, ReplayOpenError> {
    alembic_session::playback::rebuild(
        path,
        record::GAME_NAME,
        rules.data_identity(),
        |header| alchemy::new_game_in_modes(header.seed, rules, &Modes::parse(&header.modes)?),
        |game, command: &alchemy::Command| {
            alchemy::apply(game, rules, command.clone()).map(|o| o.game)
        },
    )
}

/// The recorded Alchemy game in `path`, opened for watching (see [`Playback::open`]).
///
/// # Errors
/// [`ReplayOpenError`].
pub fn open(path: &Path, rules: &Rules) -> Result<Playback, ReplayOpenError> {
    // The viewer keeps its own rules for the commands it applies as it goes.
    let rules = rules.clone();
    let start_rules = rules.clone();
    Ok(Playback::open(
        path,
        record::GAME_NAME,
        start_rules.data_identity(),
        |header| {
            alchemy::new_game_in_modes(header.seed, &start_rules, &Modes::parse(&header.modes)?)
        },
        move |game: &Game, command: &alchemy::Command| {
            alchemy::apply(game, &rules, command.clone()).map(|o| o.game)
        },
    )?
    .with_states(restore(start_rules)))
}

/// Reads a recording's whole state (an Alchemy save text) back, for seeking.
fn restore(rules: Rules) -> impl Fn(&str) -> Result<Game, String> + 'static {
    move |text| alchemy::save::from_text(text, &rules).map_err(|e| e.to_string())
}

/// [`open`], the playback also keeping what each command it applies says (for
/// [`Viewer::saying`](alembic_session::playback::Viewer::saying)), by the state's index.
///
/// # Errors
/// [`ReplayOpenError`].
pub fn open_saying(path: &Path, rules: &Rules) -> Result<Playback, ReplayOpenError> {
    let (rules, start_rules) = (rules.clone(), rules.clone());
    Ok(Playback::open_saying(
        path,
        record::GAME_NAME,
        start_rules.data_identity(),
        |header| {
            alchemy::new_game_in_modes(header.seed, &start_rules, &Modes::parse(&header.modes)?)
        },
        move |game: &Game, command: &alchemy::Command| {
            alchemy::apply(game, &rules, command.clone()).map(|o| {
                let lines = alchemy::text::all_lines(&o.game, &o.events);
                (o.game, lines)
            })
        },
    )?
    .with_states(restore(start_rules)))
}
