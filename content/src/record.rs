//! The record of every game: seed plus commands, as Brogue CE records games, in the engine's
//! replay format ([`alembic::replay::Recording`]), for any game whose commands serialise.
//!
//! The recording of the game in play sits beside its save (`alchemy.save` →
//! `alchemy.replay`). It is started when a game starts, and every accepted command is
//! appended (and flushed) as it is played, so a crash loses nothing. A checkpoint (the
//! state hash) is appended every [`CHECKPOINT_EVERY`] commands and at every save, which is how
//! a continued game proves the recording is its own. When the game ends the recording is
//! kept, moved to `records/` in the data directory.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use alembic::{Game, replay::Entry, replay::Recording, replay::ReplayHeader};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::storage::{self, StorageError};

/// A checkpoint after this many commands.
pub const CHECKPOINT_EVERY: usize = 50;
/// Largest recording read back (the engine's own limit).
pub const MAX_RECORDING_BYTES: u64 = alembic::replay::MAX_REPLAY_BYTES as u64;

/// Why a recording could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file system refused.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The file is not a readable Alchemy recording (the path is said by the caller).
    #[error("{source}")]
    Replay {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: alembic::replay::ReplayError,
    },
    /// A recording of another game.
    #[error("{path} records a game of {found:?}, not {wanted:?}")]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it names.
        found: String,
        /// The game that tried to read it.
        wanted: &'static str,
    },
}

/// The recording beside a save file.
#[must_use]
pub fn beside(save: &Path) -> PathBuf {
    save.with_extension("replay")
}

/// Appends the game in play to its recording; `C` is the game's command type.
#[derive(Debug)]
pub struct Recorder<C> {
    path: PathBuf,
    header: ReplayHeader,
    since_checkpoint: usize,
    commands: PhantomData<fn(&C)>,
}

impl<C: Serialize + DeserializeOwned> Recorder<C> {
    /// Start the recording of a new game of `game_name` from `seed` at `path` (replacing any
    /// old one there), in the given `modes` (such as `practice`).
    ///
    /// # Errors
    /// The file could not be written.
    pub fn start(
        path: &Path,
        game_name: &str,
        seed: u64,
        modes: &[&str],
        game: &Game,
    ) -> Result<Self, RecordError> {
        let mut header = ReplayHeader::new(game_name, env!("CARGO_PKG_VERSION"), seed);
        for m in modes {
            header = header.with_mode(*m);
        }
        let mut text = header.to_line();
        text += &Entry::checkpoint_line(game.turn(), game.state_hash());
        // A first game on a fresh machine starts before the first save made the directory.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                RecordError::Storage(StorageError::Io {
                    path: dir.to_path_buf(),
                    source: e,
                })
            })?;
        }
        storage::write_atomic(path, text.as_bytes())?;
        Ok(Recorder {
            path: path.to_path_buf(),
            header,
            since_checkpoint: 0,
            commands: PhantomData,
        })
    }

    /// Continue the recording at `path` for a loaded `game`: only when the recording's last
    /// checkpoint is this very game (it was saved with it). `None` otherwise: the game plays
    /// on unrecorded rather than with a recording that would not replay.
    #[must_use]
    pub fn resume(path: &Path, game_name: &'static str, game: &Game) -> Option<Self> {
        let rec = read::<C>(path, game_name).ok()?;
        let last = rec.entries.iter().rev().find_map(|e| match e {
            Entry::Checkpoint { turn, hash } => Some((*turn, *hash)),
            Entry::Command { .. } => None,
        })?;
        let at_end = matches!(rec.entries.last(), Some(Entry::Checkpoint { .. }));
        (at_end && !rec.torn && last == (game.turn(), game.state_hash())).then(|| Recorder {
            path: path.to_path_buf(),
            header: rec.header,
            since_checkpoint: 0,
            commands: PhantomData,
        })
    }

    /// The recording's file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The recording's header (seed and modes).
    #[must_use]
    pub fn header(&self) -> &ReplayHeader {
        &self.header
    }

    /// Append `command`, given on `turn`, that turned the game into `after`.
    ///
    /// # Errors
    /// The file could not be appended to.
    pub fn command(&mut self, turn: u64, command: &C, after: &Game) -> Result<(), RecordError> {
        let line = Entry::command_line(turn, command).map_err(|source| RecordError::Replay {
            path: self.path.clone(),
            source,
        })?;
        storage::append_line(&self.path, line.trim_end())?;
        self.since_checkpoint += 1;
        if self.since_checkpoint >= CHECKPOINT_EVERY {
            self.checkpoint(after)?;
        }
        Ok(())
    }

    /// Append a checkpoint of `game`.
    ///
    /// # Errors
    /// The file could not be appended to.
    pub fn checkpoint(&mut self, game: &Game) -> Result<(), RecordError> {
        let line = Entry::checkpoint_line(game.turn(), game.state_hash());
        storage::append_line(&self.path, line.trim_end())?;
        self.since_checkpoint = 0;
        Ok(())
    }

    /// Write the whole recording again from `commands` (each with its turn), ending at
    /// `game`: after an undo in practice mode, the recording is the shorter game.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn rewrite<'a>(
        &mut self,
        start: &Game,
        commands: impl IntoIterator<Item = (u64, &'a C)>,
        game: &Game,
    ) -> Result<(), RecordError>
    where
        C: 'a,
    {
        let mut text = self.header.to_line();
        text += &Entry::checkpoint_line(start.turn(), start.state_hash());
        for (turn, c) in commands {
            text += &Entry::command_line(turn, c).map_err(|source| RecordError::Replay {
                path: self.path.clone(),
                source,
            })?;
        }
        text += &Entry::checkpoint_line(game.turn(), game.state_hash());
        storage::write_atomic(&self.path, text.as_bytes())?;
        self.since_checkpoint = 0;
        Ok(())
    }

    /// The game ended: close the recording with a checkpoint of the final `game` and move
    /// it into `records/` beside it, named by seed and time. Returns where it went.
    ///
    /// # Errors
    /// The file could not be written or moved.
    pub fn finish(mut self, game: &Game, unix_secs: u64) -> Result<PathBuf, RecordError> {
        self.checkpoint(game)?;
        let dir = self
            .path
            .parent()
            .map_or_else(|| PathBuf::from("records"), |d| d.join("records"));
        std::fs::create_dir_all(&dir).map_err(|e| {
            RecordError::Storage(StorageError::Io {
                path: dir.clone(),
                source: e,
            })
        })?;
        let modes: Vec<&str> = self.header.modes.iter().map(String::as_str).collect();
        let tag = if modes.is_empty() {
            String::new()
        } else {
            format!("-{}", modes.join("-"))
        };
        let dest = dir.join(format!(
            "{}-seed{}-{unix_secs}{tag}.replay",
            self.header.game, self.header.seed
        ));
        std::fs::rename(&self.path, &dest).map_err(|e| {
            RecordError::Storage(StorageError::Io {
                path: dest.clone(),
                source: e,
            })
        })?;
        Ok(dest)
    }
}

/// Read a recording of `game_name`.
///
/// # Errors
/// Unreadable, not a recording, a newer format, or another game's.
pub fn read<C: DeserializeOwned>(
    path: &Path,
    game_name: &'static str,
) -> Result<Recording<C>, RecordError> {
    let bytes = storage::read_bounded(path, MAX_RECORDING_BYTES)?;
    let rec = Recording::<C>::parse_bytes(&bytes).map_err(|source| RecordError::Replay {
        path: path.to_path_buf(),
        source,
    })?;
    if rec.header.game != game_name {
        return Err(RecordError::OtherGame {
            path: path.to_path_buf(),
            found: rec.header.game,
            wanted: game_name,
        });
    }
    Ok(rec)
}
