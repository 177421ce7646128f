//! Watching a recorded game (`--replay FILE`): the play screen over each recorded state, with
//! the shared [`Playback`] controls (play, pause, step back and forth, speed, jumps).
//!
//! [`open`] reads the file and makes only the first state (see [`alembic_session::playback`]): each
//! later state is made when the viewer reaches it, every checkpoint checked on the way, and
//! memory stays bounded whatever the length. A recording that diverges stops the viewer
//! there, with the turn said in the bar. [`rebuild`] makes and checks every state at once
//! (for tests and tools).

use std::convert::Infallible;

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use alembic::Game;
use alembic_ui::{Frame, Input, Rect, Screen, Transition};

use super::colours;
use super::play::draw_play;
use super::{AlchemyCtx, record};
use alembic_alchemy::{self as alchemy, Rules};
pub use alembic_session::playback::ReplayOpenError;
use alembic_session::playback::{Control, Playback};

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
        |header| alchemy::new_game_in_modes(header.seed, rules, &header.modes),
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
    Playback::open(
        path,
        record::GAME_NAME,
        start_rules.data_identity(),
        |header| alchemy::new_game_in_modes(header.seed, &start_rules, &header.modes),
        move |game: &Game, command: &alchemy::Command| {
            alchemy::apply(game, &rules, command.clone()).map(|o| o.game)
        },
    )
}

/// What the command into each state said, by the state's hash: the lines the message log
/// shows for that state (the game value keeps no English, so the viewer makes them as it
/// steps; a state shows the same lines however the viewer came to it).
pub type Said = Rc<RefCell<HashMap<u64, Vec<String>>>>;

/// States whose lines a viewer keeps at most (then it starts afresh; a state stepped into
/// again says its lines again).
const SAID_KEEP: usize = 100_000;

/// [`open`], also answering where the viewer puts what each command it applies says (for
/// [`ReplayScreen::saying`]).
///
/// # Errors
/// [`ReplayOpenError`].
pub fn open_said(path: &Path, rules: &Rules) -> Result<(Playback, Said), ReplayOpenError> {
    let said: Said = Rc::default();
    let (rules, start_rules, into) = (rules.clone(), rules.clone(), said.clone());
    let playback = Playback::open(
        path,
        record::GAME_NAME,
        start_rules.data_identity(),
        |header| alchemy::new_game_in_modes(header.seed, &start_rules, &header.modes),
        move |game: &Game, command: &alchemy::Command| {
            alchemy::apply(game, &rules, command.clone()).map(|o| {
                let mut said = into.borrow_mut();
                if said.len() >= SAID_KEEP {
                    said.clear();
                }
                said.insert(
                    o.game.state_hash(),
                    alchemy::text::all_lines(&o.game, &o.events),
                );
                o.game
            })
        },
    )?;
    Ok((playback, said))
}

/// The replay viewer.
#[derive(Debug)]
pub struct ReplayScreen {
    playback: Playback,
    said: Option<Said>,
}

impl ReplayScreen {
    /// A viewer over `states` (from [`rebuild`]), paused at the start; shows the first state.
    #[must_use]
    pub fn new(ctx: &mut AlchemyCtx, states: Vec<Game>) -> Self {
        let s = ReplayScreen {
            playback: Playback::new(states),
            said: None,
        };
        s.show(ctx);
        s
    }

    /// A viewer over an opened recording (from [`open`]), paused at the start.
    #[must_use]
    pub fn with_playback(ctx: &mut AlchemyCtx, playback: Playback) -> Self {
        let s = ReplayScreen {
            playback,
            said: None,
        };
        s.show(ctx);
        s
    }

    /// Show in the message log what each command says as the viewer steps forward
    /// (`said` from [`open_said`]).
    #[must_use]
    pub fn saying(mut self, said: Said) -> Self {
        self.said = Some(said);
        self
    }

    /// The viewer's controls (how many states it keeps, where it stopped).
    #[must_use]
    pub fn playback(&self) -> &Playback {
        &self.playback
    }

    /// The index of the state shown (0 = before the first command).
    #[must_use]
    pub fn position(&self) -> usize {
        self.playback.position()
    }

    /// How many commands the recording holds.
    #[must_use]
    pub fn commands(&self) -> usize {
        self.playback.commands()
    }

    fn show(&self, ctx: &mut AlchemyCtx) {
        if let Some(g) = self.playback.current() {
            ctx.show_replay(g.clone());
        }
        if let (Some(said), Some(g)) = (&self.said, self.playback.current()) {
            let lines = said.borrow().get(&g.state_hash()).cloned();
            for line in lines.unwrap_or_default() {
                ctx.push_line(super::Tone::Game, line);
            }
        }
    }

    fn follow(&self, ctx: &mut AlchemyCtx, control: Control) -> Transition<AlchemyCtx, Self> {
        match control {
            Control::Moved => {
                self.show(ctx);
                Transition::Stay
            }
            Control::Stayed => Transition::Stay,
            Control::Quit => {
                ctx.close_game();
                Transition::Pop(())
            }
        }
    }
}

impl Screen<AlchemyCtx> for ReplayScreen {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        draw_play(ctx, frame, area);
        self.playback.draw_bar(frame, area, colours::NOTE);
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        let control = self.playback.handle(&input);
        self.follow(ctx, control)
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.playback.tick_interval()
    }

    fn tick(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let control = self.playback.tick();
        self.follow(ctx, control)
    }

    fn on_quit(&mut self, ctx: &mut AlchemyCtx) {
        // Nothing to save: a replay never writes.
        ctx.close_game();
    }

    fn name(&self) -> &str {
        "replay"
    }
}
