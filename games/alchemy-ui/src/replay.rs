//! Watching a recorded game (`--replay FILE`): the session's generic viewer
//! ([`alembic_session::playback::Viewer`]) over Alchemy's play screen ([`Watch`] for
//! [`AlchemyCtx`]), with the shared [`Playback`] controls (play, pause, step back and forth,
//! speed, jumps); leaving it goes back to the start screen.
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
use alembic_ui::{Frame, Rect};

use super::play::draw_play;
use super::{AlchemyCtx, record};
use alembic_alchemy::{self as alchemy, Rules};
use alembic_session::Modes;
pub use alembic_session::playback::ReplayOpenError;
use alembic_session::playback::{Playback, Said, Watch};

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

/// [`open_saying`], with an empty [`Said`] for
/// [`Viewer::new`](alembic_session::playback::Viewer::new) (kept for callers of the earlier
/// form; the lines are in the playback).
///
/// # Errors
/// [`ReplayOpenError`].
#[deprecated(since = "0.3.0", note = "use `open_saying` and `Viewer::saying`")]
pub fn open_said(path: &Path, rules: &Rules) -> Result<(Playback, Said), ReplayOpenError> {
    Ok((open_saying(path, rules)?, Said::default()))
}

impl Watch for AlchemyCtx {
    fn show_state(&mut self, game: &Game, said: &[String]) {
        self.show_replay(game.clone());
        for line in said {
            self.push_line(super::Tone::Game, line.clone());
        }
    }

    fn draw_state(&self, frame: &mut Frame, area: Rect) {
        draw_play(self, frame, area);
    }

    /// Back to the start screen, the game closed: nothing was saved or recorded.
    fn leave_replay(&mut self) -> bool {
        self.close_game();
        false
    }
}
