//! Watching a recorded game (`--replay FILE`): the play screen over each recorded state, with
//! play, pause, step back and forth (back is free: every value is kept), speed, and jumps.
//!
//! The whole game is rebuilt from the seed and the commands when the file is opened, and
//! every checkpoint in the file is checked on the way: a recording that does not replay is
//! refused with the turn where it diverges, before anything is shown.

use std::path::Path;
use std::time::Duration;

use alembic::{
    Entry, Frame, Game, Input, Key, Rect, Rgb, Screen, ScreenValue, Transition, fill, put_clipped,
    wheel_key,
};

use super::colours;
use super::play::draw_play;
use super::{AlchemyCtx, record};
use crate::alchemy::{self, Rules};

/// Why a recording cannot be watched.
#[derive(Debug, thiserror::Error)]
pub enum ReplayOpenError {
    /// Unreadable, not a recording, another game's, or from a newer version.
    #[error(transparent)]
    Read(#[from] record::RecordError),
    /// The game could not be rebuilt (a bug).
    #[error("cannot rebuild the game: {0}")]
    Engine(alembic::Error),
    /// A command the game refuses: the recording is not of this game as this version plays it.
    #[error(
        "the recording does not replay: the command on line {line} (turn {turn}) is refused: {reason}"
    )]
    Refused {
        /// The line in the file.
        line: usize,
        /// The turn it was given on.
        turn: u64,
        /// Why the game refused it.
        reason: String,
    },
    /// A checkpoint that does not match.
    #[error(
        "the recording diverges at turn {turn} (line {line}): it says state {expected:016x}, the game is in state {actual:016x}"
    )]
    Diverged {
        /// The line in the file.
        line: usize,
        /// The turn of the checkpoint.
        turn: u64,
        /// The hash the file holds.
        expected: u64,
        /// The hash the replayed game has.
        actual: u64,
    },
}

/// Every state of the recorded game in `path`, first to last, checked against every
/// checkpoint. Θ(commands) applications.
///
/// # Errors
/// [`ReplayOpenError`].
pub fn rebuild(path: &Path, rules: &Rules) -> Result<Vec<Game>, ReplayOpenError> {
    let rec = record::read(path)?;
    let mut game = alchemy::new_game_in_modes(rec.header.seed, rules, &rec.header.modes)
        .map_err(ReplayOpenError::Engine)?;
    let mut states = vec![game.clone()];
    for (i, entry) in rec.entries.iter().enumerate() {
        let line = i + 2;
        match entry {
            Entry::Command { turn, command } => {
                let out = alchemy::apply(&game, rules, command.clone()).map_err(|e| {
                    ReplayOpenError::Refused {
                        line,
                        turn: *turn,
                        reason: e.to_string(),
                    }
                })?;
                game = out.game;
                states.push(game.clone());
            }
            Entry::Checkpoint { turn, hash } => {
                let actual = game.state_hash();
                if actual != *hash || game.turn() != *turn {
                    return Err(ReplayOpenError::Diverged {
                        line,
                        turn: *turn,
                        expected: *hash,
                        actual,
                    });
                }
            }
        }
    }
    Ok(states)
}

/// Playback speeds, slowest first: the wait between two commands.
const SPEEDS_MS: [u64; 6] = [800, 400, 200, 100, 40, 10];

/// The replay viewer.
#[derive(Debug)]
pub struct ReplayScreen {
    states: Vec<Game>,
    at: usize,
    playing: bool,
    speed: usize,
}

impl ReplayScreen {
    /// A viewer over `states` (from [`rebuild`]), paused at the start; shows the first state.
    #[must_use]
    pub fn new(ctx: &mut AlchemyCtx, states: Vec<Game>) -> Self {
        let s = ReplayScreen {
            states,
            at: 0,
            playing: false,
            speed: 2,
        };
        s.show(ctx);
        s
    }

    /// The index of the state shown (0 = before the first command).
    #[must_use]
    pub fn position(&self) -> usize {
        self.at
    }

    /// How many commands the recording holds.
    #[must_use]
    pub fn commands(&self) -> usize {
        self.states.len().saturating_sub(1)
    }

    fn show(&self, ctx: &mut AlchemyCtx) {
        if let Some(g) = self.states.get(self.at) {
            ctx.show_replay(g.clone());
        }
    }

    fn go(&mut self, ctx: &mut AlchemyCtx, to: usize) {
        let to = to.min(self.commands());
        if to != self.at {
            self.at = to;
            self.show(ctx);
        }
        if self.at == self.commands() {
            self.playing = false;
        }
    }
}

impl Screen<AlchemyCtx> for ReplayScreen {
    fn render(&self, ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        draw_play(ctx, frame, area);
        let turn = self.states.get(self.at).map_or(0, Game::turn);
        let last = self.states.last().map_or(0, Game::turn);
        let state = if self.playing {
            format!("playing, {} ms a move", SPEEDS_MS[self.speed])
        } else {
            "paused".to_owned()
        };
        let line = format!(
            " REPLAY  turn {turn}/{last}  move {}/{}  {state}   space play/pause  \u{2190}\u{2192} step  +/- speed  Home/End  q quit ",
            self.at,
            self.commands()
        );
        let bar = Rect::new(area.x, area.y, area.width, 1);
        fill(
            frame,
            bar,
            alembic::Cell {
                ch: ' ',
                fg: Rgb::BLACK,
                bg: colours::NOTE,
            },
        );
        put_clipped(frame, bar, area.x, area.y, &line, Rgb::BLACK, colours::NOTE);
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx> {
        let key = match input {
            Input::Key { key, .. } => Some(key),
            _ => wheel_key(&input).map(|k| if k == Key::Up { Key::Left } else { Key::Right }),
        };
        let Some(key) = key else {
            return Transition::Stay;
        };
        match key {
            Key::Char(' ') => {
                self.playing = !self.playing && self.at < self.commands();
            }
            Key::Right | Key::Char('l' | '.') => {
                self.playing = false;
                self.go(ctx, self.at + 1);
            }
            Key::Left | Key::Char('h' | ',') => {
                self.playing = false;
                self.go(ctx, self.at.saturating_sub(1));
            }
            Key::PageDown => self.go(ctx, self.at + 100),
            Key::PageUp => self.go(ctx, self.at.saturating_sub(100)),
            Key::Char('+' | '=') => self.speed = (self.speed + 1).min(SPEEDS_MS.len() - 1),
            Key::Char('-') => self.speed = self.speed.saturating_sub(1),
            Key::Home | Key::Char('g') => self.go(ctx, 0),
            Key::End | Key::Char('G') => self.go(ctx, usize::MAX),
            Key::Char('q' | 'Q') | Key::Esc => {
                ctx.close_game();
                return Transition::Pop(ScreenValue::Done);
            }
            _ => {}
        }
        Transition::Stay
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.playing
            .then(|| Duration::from_millis(SPEEDS_MS[self.speed]))
    }

    fn tick(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx> {
        if self.playing {
            self.go(ctx, self.at + 1);
        }
        Transition::Stay
    }

    fn on_quit(&mut self, ctx: &mut AlchemyCtx) {
        // Nothing to save: a replay never writes.
        ctx.close_game();
    }

    fn name(&self) -> &str {
        "replay"
    }
}
