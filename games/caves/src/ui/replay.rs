//! Watching a recorded Caves game (`--replay FILE`): the play screen over each recorded
//! state, with the shared [`Playback`] controls. The recording is rebuilt and every
//! checkpoint checked before anything is shown.

use std::convert::Infallible;
use std::path::Path;
use std::time::Duration;

use alembic::Rgb;
use alembic_ui::{Frame, Input, Rect, Screen, ScreenStack, Transition};

use super::{CavesUi, PlayScreen};
use crate::command::{Command, act};
use crate::save::GAME_NAME;
use crate::world::new_game_on;
use alembic_session::playback::{Control, Playback, ReplayOpenError};

/// The replay viewer: [`PlayScreen`]'s view of the state [`Playback`] points at.
struct ReplayScreen {
    playback: Playback,
}

impl ReplayScreen {
    fn follow(&self, ui: &mut CavesUi, control: Control) -> Transition<CavesUi, Self> {
        match control {
            Control::Moved => {
                if let Some(g) = self.playback.current() {
                    ui.show_replay_state(g.clone());
                }
                Transition::Stay
            }
            Control::Stayed => Transition::Stay,
            Control::Quit => Transition::Quit,
        }
    }
}

impl Screen<CavesUi> for ReplayScreen {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, ui: &CavesUi, frame: &mut Frame, area: Rect) {
        PlayScreen::default().render(ui, frame, area);
        self.playback.draw_bar(frame, area, Rgb::new(240, 200, 90));
    }

    fn handle(&mut self, ui: &mut CavesUi, input: Input) -> Transition<CavesUi, Self> {
        let control = self.playback.handle(&input);
        self.follow(ui, control)
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.playback.tick_interval()
    }

    fn tick(&mut self, ui: &mut CavesUi) -> Transition<CavesUi, Self> {
        let control = self.playback.tick();
        self.follow(ui, control)
    }

    fn name(&self) -> &str {
        "caves-replay"
    }
}

/// A Caves app that plays back the recording in `path` (paused at the start; `q` quits).
///
/// # Errors
/// [`ReplayOpenError`]: unreadable, not a Caves recording, from a newer version, or a
/// recording that does not replay (the line and turn where it diverges).
pub fn replay_app(path: &Path) -> Result<ScreenStack<CavesUi>, ReplayOpenError> {
    let data = crate::CavesData::shipped().map_err(ReplayOpenError::Engine)?;
    replay_app_on(path, &data)
}

/// [`replay_app`] on `data` (a data directory, mods): a recording made on other data is
/// refused with one sentence saying what differs.
///
/// # Errors
/// As [`replay_app`].
pub fn replay_app_on(
    path: &Path,
    data: &crate::CavesData,
) -> Result<ScreenStack<CavesUi>, ReplayOpenError> {
    let mut seed = 0;
    let playback = Playback::open(
        path,
        GAME_NAME,
        &data.identity,
        |header| {
            seed = header.seed;
            new_game_on(header.seed, &data.library)
        },
        |game, command: &Command| act(game, *command),
    )?;
    // The first state is always made; a fresh world stands in if that ever breaks.
    let first = playback
        .current()
        .cloned()
        .unwrap_or_else(|| alembic::Game::new(seed));
    let ui = CavesUi::with_game(seed, first);
    Ok(ScreenStack::new(ui, ReplayScreen { playback })
        .with_farewell(CavesUi::farewell)
        .with_grid(CavesUi::whole_level))
}
