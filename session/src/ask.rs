//! Questions a game asks the player before a command: which item, which direction, where
//! to throw, yes or no, how many, what to write. The game answers [`Questions`] (turned on by
//! [`crate::Ruleset::questions`]) and names the keys that ask in its board
//! (`Board::asks`); the session's play screen shows each question in every frontend (a
//! lettered list, a direction prompt, the targeting cursor with the path shown, a y/n box,
//! a number or a line of text) and hands the replies back until the game makes a command
//! of them.
//!
//! **Replays stay exact**: the replies end up inside the command the game makes
//! ([`Asked::Play`]), and that command is what the session plays and records. A replay
//! plays the recorded commands, so it never asks again.
//!
//! This module is headless (the rules side): the questions are data, and nothing here draws.
//!
//! ```
//! use alembic::{Game, Loc};
//! use alembic_session::ask::{Asked, Question, Questions, Reply};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! enum Cmd { Drop(u32) }
//! struct Purse;
//! impl Questions<Cmd> for Purse {
//!     fn ask(&self, _: &Game, _key: u32, replies: &[Reply]) -> Asked<Cmd> {
//!         match replies {
//!             [] => Asked::Ask(Question::number("Drop how many coins?", 1, 5)),
//!             [Reply::Number(n)] => Asked::Play(Cmd::Drop(*n)),
//!             _ => Asked::Say("Never mind.".into()),
//!         }
//!     }
//! }
//! let game = Game::new(1);
//! assert!(matches!(Purse.ask(&game, 0, &[]), Asked::Ask(Question::Number { max: 5, .. })));
//! assert_eq!(Purse.ask(&game, 0, &[Reply::Number(3)]), Asked::Play(Cmd::Drop(3)));
//! ```

use alembic::{Dir, Game, Loc, LocBox};
use serde::{Deserialize, Serialize};

/// One thing to choose in a [`Question::Item`]: its letter, what it is (a stack says how
/// many), and a description.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// Its own letter (an inventory letter that stays with the item); `None`: lettered by
    /// position, `a` to `z` on each page.
    pub letter: Option<char>,
    /// What is shown ("3 copper coins").
    pub name: String,
    /// One line about it, shown after the name; empty for none.
    pub about: String,
}

impl Choice {
    /// A choice lettered by position, with no description.
    pub fn new(name: impl Into<String>) -> Self {
        Choice {
            letter: None,
            name: name.into(),
            about: String::new(),
        }
    }

    /// The same choice with its own letter.
    #[must_use]
    pub fn with_letter(mut self, letter: char) -> Self {
        self.letter = Some(letter);
        self
    }

    /// The same choice with a description.
    #[must_use]
    pub fn with_about(mut self, about: impl Into<String>) -> Self {
        self.about = about.into();
        self
    }
}

/// What a game asks the player. Every question can be backed out of (Esc), which ends the
/// asking with nothing played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Choose one of a list (answered by [`Reply::Item`], its index in `choices`).
    Item {
        /// The list's title ("Drop what?").
        prompt: String,
        /// What can be chosen, in order.
        choices: Vec<Choice>,
    },
    /// Choose a direction (answered by [`Reply::Direction`]).
    Direction {
        /// The prompt ("Kick in which direction?").
        prompt: String,
    },
    /// Choose a place on the map with the targeting cursor (answered by [`Reply::Target`]).
    Target {
        /// The prompt ("Throw where?").
        prompt: String,
        /// Where the path is drawn from (the thrower), and where the cursor starts when
        /// there are no marks.
        from: Loc,
        /// Places the cursor cycles through with Tab, `+` and `-` (the creatures in view,
        /// nearest first); the cursor starts on the first.
        marks: Vec<Loc>,
        /// Where the cursor may go.
        bounds: LocBox,
        /// The places a throw stops at (walls, closed doors): the path is drawn dimmer past
        /// the first of them on the way ([`Question::with_stops`]; empty: none).
        stops: Vec<Loc>,
    },
    /// Yes or no (answered by [`Reply::Confirm`]; Esc is no).
    Confirm {
        /// The question, shown followed by "(y/n)".
        prompt: String,
    },
    /// A whole number from `min` to `max` (answered by [`Reply::Number`]); Enter on nothing
    /// typed answers `max`.
    Number {
        /// The prompt ("Drop how many?").
        prompt: String,
        /// The least allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// A line of text, at most `max` characters (answered by [`Reply::Text`]).
    Text {
        /// The prompt ("Write what?").
        prompt: String,
        /// The most characters.
        max: usize,
    },
}

impl Question {
    /// [`Question::Item`].
    pub fn item(prompt: impl Into<String>, choices: Vec<Choice>) -> Self {
        Question::Item {
            prompt: prompt.into(),
            choices,
        }
    }

    /// [`Question::Direction`].
    pub fn direction(prompt: impl Into<String>) -> Self {
        Question::Direction {
            prompt: prompt.into(),
        }
    }

    /// [`Question::Target`].
    pub fn target(prompt: impl Into<String>, from: Loc, marks: Vec<Loc>, bounds: LocBox) -> Self {
        Question::Target {
            prompt: prompt.into(),
            from,
            marks,
            bounds,
            stops: Vec::new(),
        }
    }

    /// The same question with the places a throw stops at, if it is a
    /// [`Question::Target`] (other questions are returned as they are).
    #[must_use]
    pub fn with_stops(mut self, at: Vec<Loc>) -> Self {
        if let Question::Target { stops, .. } = &mut self {
            *stops = at;
        }
        self
    }

    /// [`Question::Confirm`].
    pub fn confirm(prompt: impl Into<String>) -> Self {
        Question::Confirm {
            prompt: prompt.into(),
        }
    }

    /// [`Question::Number`].
    pub fn number(prompt: impl Into<String>, min: u32, max: u32) -> Self {
        Question::Number {
            prompt: prompt.into(),
            min,
            max,
        }
    }

    /// [`Question::Text`].
    pub fn text(prompt: impl Into<String>, max: usize) -> Self {
        Question::Text {
            prompt: prompt.into(),
            max,
        }
    }

    /// The prompt, whatever the kind.
    #[must_use]
    pub fn prompt(&self) -> &str {
        match self {
            Question::Item { prompt, .. }
            | Question::Direction { prompt }
            | Question::Target { prompt, .. }
            | Question::Confirm { prompt }
            | Question::Number { prompt, .. }
            | Question::Text { prompt, .. } => prompt,
        }
    }

    /// Whether `reply` answers this question: its kind, and within its bounds (an index in
    /// the list, a place inside the bounds, a number in range, text not too long). The
    /// session checks every reply with it before the game sees it.
    #[must_use]
    pub fn accepts(&self, reply: &Reply) -> bool {
        match (self, reply) {
            (Question::Item { choices, .. }, Reply::Item(i)) => *i < choices.len(),
            (Question::Direction { .. }, Reply::Direction(_))
            | (Question::Confirm { .. }, Reply::Confirm(_)) => true,
            (Question::Target { bounds, from, .. }, Reply::Target(l)) => {
                l.z == from.z && bounds.contains(*l)
            }
            (Question::Number { min, max, .. }, Reply::Number(n)) => (*min..=*max).contains(n),
            (Question::Text { max, .. }, Reply::Text(t)) => {
                t.chars().count() <= *max && !t.chars().any(char::is_control)
            }
            _ => false,
        }
    }
}

/// The player's answer to a [`Question`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reply {
    /// The index of the chosen [`Choice`].
    Item(usize),
    /// A direction.
    Direction(Dir),
    /// A place on the map.
    Target(Loc),
    /// Yes (`true`) or no.
    Confirm(bool),
    /// A number within the question's bounds.
    Number(u32),
    /// A line of text within the question's length.
    Text(String),
}

/// What a game makes of the replies so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked<C> {
    /// Play this command (it holds what the replies chose; it is what the recording keeps).
    Play(C),
    /// Ask this next; its reply is added to the ones before.
    Ask(Question),
    /// Nothing to play: say this, and no time passes ("You have no coins to drop."). Text
    /// of several lines (`\n` between them) opens a page over the map instead, its first
    /// line the title (a description, as DCSS's `x` then `v`); Esc closes it.
    Say(String),
    /// Travel to this place, as a click does (a game that answers the session's journeys,
    /// [`crate::Ruleset::journeys`]; the steps are recorded one by one).
    Travel(Loc),
}

/// The questions a game asks, an optional capability ([`crate::Ruleset::questions`]).
///
/// A key of the board's `asks` table starts the asking with its id and no replies; each
/// [`Asked::Ask`] shows a question, and its reply is appended to `replies` for the next
/// call, until the game answers [`Asked::Play`] or [`Asked::Say`]. Esc at any question
/// ends the asking with nothing played.
pub trait Questions<C>: Send + Sync {
    /// What the key with id `key` asks next, given the replies so far (in order).
    fn ask(&self, game: &Game, key: u32, replies: &[Reply]) -> Asked<C>;
}
