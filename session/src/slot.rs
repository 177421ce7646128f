//! The save slot, for every game: whose save file it is, the autosave, and what the player
//! is told before anything of a saved game is replaced.
//!
//! A game started where another game's save waits (a new game over it, a `--seed`, practice
//! or wizard game) does not own that slot: nothing is written, replaced or renamed there, its
//! recording is held in memory ([`begin_recording`]) and it is never autosaved, until the
//! player saves it ([`Slot::saved`]); quitting it leaves the saved game and its recording
//! byte for byte as they were. A game that owns its slot is saved at once when it starts and
//! then every [`AUTOSAVE_EVERY`] commands ([`Slot::counted`]), and every command goes to its
//! recording as it is played: a crash or `kill -9` at any moment loses nothing (the
//! recording is the save's journal: [`crate::record::Recorder::journal`]).
//!
//! The saving sequence is the same for every game ([`before_save`]): a checkpoint of the
//! game in the recording, the recording written beside the save if it was held in memory,
//! then the save; so the recording always holds a checkpoint equal to the save on disk.

use std::path::Path;

use alembic::Game;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::record::{RecordError, Recorder};

/// A game that owns its slot saves itself every this many commands: a crash then costs at
/// most this many, and none while the recording beside the save is whole.
pub const AUTOSAVE_EVERY: usize = 100;

/// The question before a new game where a saved one waits: exactly what will happen.
pub const REPLACE_QUESTION: &str = "Start a new game? Your saved game and its recording stay as they are until you save the new one (S, or closing the window); that replaces them. Quitting it (Q) leaves them untouched.";

/// The quit question, for a game that `owns` its save slot or not. A quit is final, as a
/// death is (DCSS, Brogue CE): the game is scored once and cannot be continued; a game
/// over another game's save leaves that save as it is.
#[must_use]
pub fn quit_question(owns: bool) -> &'static str {
    if owns {
        "Quit this game? It ends here: it is scored as it stands and cannot be continued. (S saves and leaves instead.)"
    } else {
        "Quit this game? It ends here, scored as it stands; your saved game and its recording stay as they are. (S saves this one over it instead.)"
    }
}

/// Whose the save slot is and when the next autosave is due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    owns: bool,
    since_save: usize,
    /// Commands the first autosave comes sooner by ([`Slot::staggered`]); 0 once it came.
    phase: usize,
    /// Commands between autosaves ([`Slot::every`]).
    every: usize,
}

impl Default for Slot {
    fn default() -> Self {
        Slot {
            owns: false,
            since_save: 0,
            phase: 0,
            every: AUTOSAVE_EVERY,
        }
    }
}

impl Slot {
    /// The slot of a game starting now with its save at `save`: its own when nothing is
    /// there yet.
    #[must_use]
    pub fn new_game(save: Option<&Path>) -> Self {
        Slot {
            owns: !save.is_some_and(Path::exists),
            ..Slot::default()
        }
    }

    /// The slot of a game continued from its own save.
    #[must_use]
    pub fn loaded() -> Self {
        Slot {
            owns: true,
            ..Slot::default()
        }
    }

    /// Autosaves `n` commands apart (at least 1) instead of [`AUTOSAVE_EVERY`]: for a host
    /// that holds every move durably elsewhere (the web server's store), where a save only
    /// bounds how many moves a continue replays. Call before [`Slot::staggered`].
    #[must_use]
    pub fn every(mut self, n: usize) -> Self {
        self.every = n.max(1);
        self
    }

    /// The first autosave brought forward by `key` modulo the interval (key: the game's
    /// seed), later ones a whole interval apart as before. A save before it (the save a
    /// new game makes at once, the player's) keeps it brought forward. Games started or
    /// continued together (a server's games after a restart, or many players starting
    /// at once) then autosave at different moves instead of all on the same one: on a
    /// web server, 500 games saving within the same second held every move for about a
    /// second. The game itself is the same; only when its save is written moves.
    #[must_use]
    pub fn staggered(mut self, key: u64) -> Self {
        self.phase = (key % self.every as u64) as usize;
        self
    }

    /// Whether the save file is this game's own: only then is it autosaved, or removed when
    /// the game ends.
    #[must_use]
    pub fn owns(&self) -> bool {
        self.owns
    }

    /// One command was played; whether an autosave is due now (the slot is the game's, the
    /// game goes on, and [`AUTOSAVE_EVERY`] commands passed since the last save, fewer
    /// before the first autosave of a [`Slot::staggered`] slot).
    pub fn counted(&mut self, over: bool) -> bool {
        self.since_save += 1;
        let due = self.owns && !over && self.since_save + self.phase >= self.every;
        if due {
            self.phase = 0;
        }
        due
    }

    /// The game was saved: the slot is its own from now on, and the count starts again.
    pub fn saved(&mut self) {
        self.owns = true;
        self.since_save = 0;
    }
}

/// Start the recording of a new game beside its save: on disk when the slot is the game's
/// own, held in memory otherwise (until [`before_save`] writes it).
///
/// # Errors
/// The file could not be written.
pub fn begin_recording<C: Serialize + DeserializeOwned>(
    slot: &Slot,
    path: &Path,
    game_name: &str,
    seed: u64,
    modes: &crate::modes::Modes,
    game: &Game,
) -> Result<Recorder<C>, RecordError> {
    if slot.owns() {
        Recorder::start(path, game_name, seed, modes, game)
    } else {
        Ok(Recorder::start_pending(path, game_name, seed, modes, game))
    }
}

/// What goes before writing a save of `game`: a checkpoint of it in the recording, and the
/// recording written beside the save if it was held in memory. A recording that cannot be
/// written is stopped (`recorder` emptied) and the sentence returned, for the player.
pub fn before_save<C: Serialize + DeserializeOwned>(
    recorder: &mut Option<Recorder<C>>,
    game: &Game,
) -> Option<String> {
    let rec = recorder.as_mut()?;
    match rec.checkpoint(game).and_then(|()| rec.commit()) {
        Ok(()) => None,
        Err(e) => {
            *recorder = None;
            Some(format!("The recording stopped: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staggered_slot_saves_first_sooner_then_every_hundred_commands() {
        let mut slot = Slot::new_game(None).staggered(1_000_037);
        // The save a new game makes at once does not undo it.
        slot.saved();
        let first = (1..=AUTOSAVE_EVERY).find(|_| slot.counted(false));
        assert_eq!(first, Some(AUTOSAVE_EVERY - 37));
        slot.saved();
        assert!((1..AUTOSAVE_EVERY).all(|_| !slot.counted(false)));
        assert!(slot.counted(false));
        // Keys spread the first saves over every move of the hundred.
        let firsts: std::collections::BTreeSet<usize> = (0..1_000u64)
            .map(|k| {
                let mut s = Slot::loaded().staggered(k * 7_919);
                (1..=AUTOSAVE_EVERY).find(|_| s.counted(false)).unwrap_or(0)
            })
            .collect();
        assert_eq!(firsts.len(), AUTOSAVE_EVERY);
        // Another interval: its first save brought forward within it, then whole ones.
        let mut slot = Slot::loaded().every(500).staggered(1_234);
        let first = (1..=500).find(|_| slot.counted(false));
        assert_eq!(first, Some(500 - 234));
        slot.saved();
        assert!((1..500).all(|_| !slot.counted(false)));
        assert!(slot.counted(false));
    }

    #[test]
    fn a_slot_autosaves_only_its_own_game_every_hundred_commands() {
        let mut own = Slot::loaded();
        let due: Vec<usize> = (1..=250).filter(|_| own.counted(false)).collect();
        assert_eq!(due.len(), 151, "due from the 100th command until saved");
        own.saved();
        assert!((1..AUTOSAVE_EVERY).all(|_| !own.counted(false)));
        assert!(own.counted(false));
        assert!(!own.counted(true), "a game over is not autosaved");
        let dir = std::env::temp_dir();
        let mut other = Slot::new_game(Some(&dir));
        assert!(!other.owns());
        assert!((0..300).all(|_| !other.counted(false)));
        other.saved();
        assert!(other.owns());
        assert!(Slot::new_game(Some(&dir.join("alembic-no-such-save"))).owns());
    }
}
