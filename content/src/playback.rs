//! Watching a recorded game, for every game: [`rebuild`] turns a recording into every state
//! it passed through (checking each checkpoint on the way), and [`Playback`] is the
//! viewer's controls over those states — play and pause, step back and forth (back is free:
//! every value is kept), speed, jumps — with the status bar that says "REPLAY turn N/M".
//!
//! A game's replay screen owns a [`Playback`], draws its own play view of
//! [`Playback::current`], and draws [`Playback::draw_bar`] over its top row.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use alembic::{Game, Rgb, replay::ReplayError, replay::ReplayHeader};
use alembic_ui::{Cell, Frame, Input, Key, Rect, fill, put_clipped, wheel_key};
use serde::de::DeserializeOwned;

use crate::record::{self, RecordError};

/// Why a recording cannot be watched.
#[derive(Debug, thiserror::Error)]
pub enum ReplayOpenError {
    /// Unreadable, not a recording, another game's, or from a newer version.
    #[error(transparent)]
    Read(#[from] RecordError),
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
    /// Another reason the recording does not replay (a line given on the wrong turn).
    #[error("the recording does not replay: {0}")]
    Replay(ReplayError),
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

/// Every state of the recording of `game_name` in `path`, first to last, checked against
/// every checkpoint: `start` makes the first state from the header (seed and modes), `step`
/// applies one command. Θ(commands) steps; the states share their structure, so keeping
/// them all costs only what each command changed.
///
/// # Errors
/// [`ReplayOpenError`].
pub fn rebuild<C: DeserializeOwned, E: fmt::Display>(
    path: &Path,
    game_name: &'static str,
    start: impl FnOnce(&ReplayHeader) -> Result<Game, alembic::Error>,
    mut step: impl FnMut(&Game, &C) -> Result<Game, E>,
) -> Result<Vec<Game>, ReplayOpenError> {
    let rec = record::read::<C>(path, game_name)?;
    let first = start(&rec.header).map_err(ReplayOpenError::Engine)?;
    let mut states = vec![first.clone()];
    // The engine's own verification, keeping every state it steps through.
    let keep = |game: &Game, command: &C| {
        let next = step(game, command)?;
        states.push(next.clone());
        Ok::<Game, E>(next)
    };
    match rec.verify(first, keep, Game::state_hash, Game::turn) {
        Ok(_) => Ok(states),
        Err(ReplayError::Rejected { line, turn, reason }) => {
            Err(ReplayOpenError::Refused { line, turn, reason })
        }
        Err(ReplayError::Diverged {
            line,
            turn,
            expected,
            actual,
        }) => Err(ReplayOpenError::Diverged {
            line,
            turn,
            expected,
            actual,
        }),
        Err(other) => Err(ReplayOpenError::Replay(other)),
    }
}

/// Playback speeds, slowest first: the wait between two commands.
const SPEEDS_MS: [u64; 6] = [800, 400, 200, 100, 40, 10];

/// What a key did to a [`Playback`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Another state is shown now: draw [`Playback::current`].
    Moved,
    /// Nothing to redraw but the bar (paused, speed changed, an unknown key).
    Stayed,
    /// The viewer wants to close.
    Quit,
}

/// The replay viewer's controls over the states of a recorded game.
#[derive(Debug)]
pub struct Playback {
    states: Vec<Game>,
    at: usize,
    playing: bool,
    speed: usize,
}

impl Playback {
    /// Controls over `states` (from [`rebuild`]), paused at the first.
    #[must_use]
    pub fn new(states: Vec<Game>) -> Self {
        Playback {
            states,
            at: 0,
            playing: false,
            speed: 2,
        }
    }

    /// The state shown.
    #[must_use]
    pub fn current(&self) -> Option<&Game> {
        self.states.get(self.at)
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

    /// Whether it is playing (not paused).
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    fn go(&mut self, to: usize) -> Control {
        let to = to.min(self.commands());
        if self.at == self.commands() || to == self.commands() {
            self.playing = false;
        }
        if to == self.at {
            return Control::Stayed;
        }
        self.at = to;
        Control::Moved
    }

    /// A key: space plays and pauses, ←/→ (h/l, `,`/`.`, the wheel) step, PgUp/PgDn jump
    /// 100, `+`/`-` change speed, Home/End (`g`/`G`) jump to the ends, `q`/Esc quit.
    pub fn handle(&mut self, input: &Input) -> Control {
        let key = match input {
            Input::Key { key, .. } => Some(*key),
            _ => wheel_key(input).map(|k| if k == Key::Up { Key::Left } else { Key::Right }),
        };
        let Some(key) = key else {
            return Control::Stayed;
        };
        match key {
            Key::Char(' ') => {
                self.playing = !self.playing && self.at < self.commands();
                Control::Stayed
            }
            Key::Right | Key::Char('l' | '.') => {
                self.playing = false;
                self.go(self.at + 1)
            }
            Key::Left | Key::Char('h' | ',') => {
                self.playing = false;
                self.go(self.at.saturating_sub(1))
            }
            Key::PageDown => self.go(self.at + 100),
            Key::PageUp => self.go(self.at.saturating_sub(100)),
            Key::Char('+' | '=') => {
                self.speed = (self.speed + 1).min(SPEEDS_MS.len() - 1);
                Control::Stayed
            }
            Key::Char('-') => {
                self.speed = self.speed.saturating_sub(1);
                Control::Stayed
            }
            Key::Home | Key::Char('g') => self.go(0),
            Key::End | Key::Char('G') => self.go(usize::MAX),
            Key::Char('q' | 'Q') | Key::Esc => Control::Quit,
            _ => Control::Stayed,
        }
    }

    /// How long until the next [`Playback::tick`] while playing; `None` when paused.
    #[must_use]
    pub fn tick_interval(&self) -> Option<Duration> {
        self.playing
            .then(|| Duration::from_millis(SPEEDS_MS[self.speed]))
    }

    /// One step of playing: the next state, if playing.
    pub fn tick(&mut self) -> Control {
        if self.playing {
            self.go(self.at + 1)
        } else {
            Control::Stayed
        }
    }

    /// The status bar over the top row of `area`: "REPLAY turn N/M move i/n", paused or
    /// playing and how fast, and the keys.
    pub fn draw_bar(&self, frame: &mut Frame, area: Rect, bg: Rgb) {
        let turn = self.current().map_or(0, Game::turn);
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
        fill(frame, bar, Cell::blank(Rgb::BLACK, bg));
        put_clipped(frame, bar, area.x, area.y, &line, Rgb::BLACK, bg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(n: u64) -> Vec<Game> {
        let mut g = Game::new(1);
        let mut out = vec![g.clone()];
        for _ in 0..n {
            g.set_turn_mut(g.turn() + 1);
            out.push(g.clone());
        }
        out
    }

    #[test]
    fn keys_step_jump_and_stop_at_the_ends() {
        let mut p = Playback::new(states(5));
        assert_eq!(p.handle(&Input::key(Key::Left)), Control::Stayed);
        assert_eq!(p.handle(&Input::key(Key::Right)), Control::Moved);
        assert_eq!(p.position(), 1);
        assert_eq!(p.handle(&Input::key(Key::End)), Control::Moved);
        assert_eq!(p.current().map(Game::turn), Some(5));
        assert_eq!(p.handle(&Input::key(Key::Right)), Control::Stayed);
        assert_eq!(p.handle(&Input::ch('g')), Control::Moved);
        assert_eq!(p.position(), 0);
        assert_eq!(p.handle(&Input::ch('q')), Control::Quit);
    }

    #[test]
    fn playing_ticks_forward_and_pauses_at_the_end() {
        let mut p = Playback::new(states(2));
        assert_eq!(p.tick_interval(), None);
        p.handle(&Input::ch(' '));
        assert!(p.is_playing());
        assert!(p.tick_interval().is_some());
        assert_eq!(p.tick(), Control::Moved);
        assert_eq!(p.tick(), Control::Moved);
        assert!(!p.is_playing(), "the last state pauses");
        assert_eq!(p.tick(), Control::Stayed);
    }
}
