//! The record of every game: seed plus commands, as Brogue CE records games, in the engine's
//! replay format ([`alembic::replay::Recording`]), for any game whose commands serialise.
//!
//! The recording of the game in play sits beside its save (`alchemy.save` →
//! `alchemy.replay`). It is started when a game starts, and every accepted command is
//! appended (and flushed) as it is played, so a crash loses nothing. A checkpoint (the
//! state hash) is appended every [`CHECKPOINT_EVERY`] commands and at every save, which is how
//! a continued game proves the recording is its own. Every [`STATE_EVERY`] commands the whole state
//! follows a checkpoint, as the game's save text, so the replay viewer seeks from it rather
//! than replaying the game from its start. When the game ends the recording is
//! kept, moved to `records/` in the data directory.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use alembic::{Game, replay::Entry, replay::Recording, replay::ReplayHeader};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::modes::Modes;
use crate::storage::{self, StorageError};

/// A checkpoint after this many commands.
pub const CHECKPOINT_EVERY: usize = 50;
/// A whole state (the game's save text, [`alembic::replay::Entry::State`]) after this many
/// commands, for the viewer to seek from: on a 100,000-command Alchemy game, ten states of
/// about 300 KB each, and a jump replays at most this many commands.
pub const STATE_EVERY: usize = 10_000;
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

/// How many commands follow the last state line of `entries` (all of them when there is
/// none).
fn commands_since_state<C>(entries: &[Entry<C>]) -> usize {
    entries
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Entry::State { .. }))
        .filter(|e| matches!(e, Entry::Command { .. }))
        .count()
}

/// How many commands the recording at `path` holds after its last checkpoint that is the
/// saved game `save` reads (what a continue of it will replay); `None` when either cannot
/// be read or the recording does not reach the save. A recording under 100 KiB is not read,
/// nor the save: it holds too few commands to be worth counting (`Some(0)`). Θ(file).
#[must_use]
pub fn moves_after<C: DeserializeOwned>(
    path: &Path,
    game_name: &'static str,
    save: impl FnOnce() -> Option<Game>,
) -> Option<usize> {
    if std::fs::metadata(path).ok()?.len() < 100 * 1024 {
        return Some(0);
    }
    let save = save()?;
    let rec = read::<C>(path, game_name).ok()?;
    let want = (save.turn(), save.state_hash());
    let at = rec
        .entries
        .iter()
        .rposition(|e| e.checkpoint() == Some(want))?;
    Some(
        rec.entries[at..]
            .iter()
            .filter(|e| matches!(e, Entry::Command { .. }))
            .count(),
    )
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
    /// Commands between checkpoints ([`Recorder::set_checkpoint_every`]).
    checkpoint_every: usize,
    /// Commands since the last state line (counted over the whole recording, across
    /// continues).
    since_state: usize,
    /// The recording so far, while it is held in memory: a new game that would replace
    /// another game's save writes nothing beside that save until it is saved itself
    /// ([`Recorder::commit`]).
    pending: Option<String>,
    /// The recording's lines before a continued game's save, through the save's checkpoint
    /// (its turn and state hash first): a practice game continued and then taken back
    /// ([`Recorder::rewrite`]) keeps the game from its first turn, so the recording still
    /// replays from its seed.
    base: Option<(u64, u64, String)>,
    /// Lines a failed write left waiting, and where the file's whole lines end.
    written: Written,
    /// Appends are flushed to the disk ([`Recorder::set_flush`]).
    flush: bool,
    /// The version of the game the last checkpoint was made of, with its state hash
    /// ([`Recorder::checkpointed`]): a clone, so it shares its storage and costs what changed
    /// since.
    last_checkpoint: Option<(Game, u64)>,
    commands: PhantomData<fn(&C)>,
}

/// Most bytes of lines a recording holds in memory while its file cannot be written (a
/// full disk, a read-only directory); one more line and the recording stops.
pub const MAX_BACKLOG: usize = 32 << 20;

/// What of a recording on disk is written: lines that wait after a failed write, why the
/// write failed, and the file's length through the last line written whole.
#[derive(Debug, Default)]
struct Written {
    /// Whole lines (each with its newline) not yet in the file, oldest first.
    backlog: String,
    /// Why the last write failed, while lines wait.
    behind: Option<String>,
    /// The file's length through its last whole line, when known (read once before the
    /// first append; a failed write may leave part of a line after it, cut off on retry).
    len: Option<u64>,
}

/// What [`Recorder::journal`] found when a saved game was continued.
#[derive(Debug)]
pub struct Journal<C> {
    /// The recorder, appending to the recording again.
    pub recorder: Recorder<C>,
    /// The game at the recording's last good command (the save itself when the recording
    /// ends at the save).
    pub game: Game,
    /// The commands replayed after the save, each with its turn, oldest first.
    pub replayed: Vec<(u64, C)>,
    /// A sentence when part of the recording after the save was dropped (it did not replay
    /// or its last line was cut off by a crash).
    pub dropped: Option<String>,
}

/// Why [`Recorder::journal`] could not continue a recording.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The recording could not be read.
    #[error(transparent)]
    Read(#[from] RecordError),
    /// No checkpoint in the recording is the saved game.
    #[error("its recording does not reach this save (no checkpoint at turn {turn} matches it)")]
    NoMatch {
        /// The save's turn.
        turn: u64,
    },
}

impl<C: Serialize + DeserializeOwned> Recorder<C> {
    /// Start the recording of a new game of `game_name` from `seed` at `path` (replacing any
    /// old one there), in the given `modes` (the header lists [`Modes::to_strings`]).
    ///
    /// # Errors
    /// The file could not be written.
    pub fn start(
        path: &Path,
        game_name: &str,
        seed: u64,
        modes: &Modes,
        game: &Game,
    ) -> Result<Self, RecordError> {
        let mut header = ReplayHeader::new(game_name, env!("CARGO_PKG_VERSION"), seed);
        for m in modes.to_strings() {
            header = header.with_mode(m);
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
            checkpoint_every: CHECKPOINT_EVERY,
            since_state: 0,
            pending: None,
            base: None,
            written: Written::default(),
            flush: true,
            last_checkpoint: None,
            commands: PhantomData,
        })
    }

    /// Start the recording of a new game as [`Recorder::start`] does, but hold it in memory:
    /// nothing is written at `path` until [`Recorder::commit`] (the new game's first save),
    /// so another game's recording there stays as it is until then.
    #[must_use]
    pub fn start_pending(
        path: &Path,
        game_name: &str,
        seed: u64,
        modes: &Modes,
        game: &Game,
    ) -> Self {
        let mut header = ReplayHeader::new(game_name, env!("CARGO_PKG_VERSION"), seed);
        for m in modes.to_strings() {
            header = header.with_mode(m);
        }
        let mut text = header.to_line();
        text += &Entry::checkpoint_line(game.turn(), game.state_hash());
        Recorder {
            path: path.to_path_buf(),
            header,
            since_checkpoint: 0,
            checkpoint_every: CHECKPOINT_EVERY,
            since_state: 0,
            pending: Some(text),
            base: None,
            written: Written::default(),
            flush: true,
            last_checkpoint: None,
            commands: PhantomData,
        }
    }

    /// Whether the recording is still held in memory (see [`Recorder::start_pending`]).
    #[must_use]
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Write a recording held in memory to its file (replacing what was there); from now on
    /// every line is appended to the file. Nothing happens for a recording already on disk.
    ///
    /// # Errors
    /// The file could not be written; the recording then stays in memory.
    pub fn commit(&mut self) -> Result<(), RecordError> {
        if let Some(text) = &self.pending {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| {
                    RecordError::Storage(StorageError::Io {
                        path: dir.to_path_buf(),
                        source: e,
                    })
                })?;
            }
            storage::write_atomic(&self.path, text.as_bytes())?;
            self.pending = None;
            self.written = Written::default();
        }
        Ok(())
    }

    /// Add one line (without its newline): to the file, flushed, or to the memory copy.
    /// When the file cannot be written (a full disk, a read-only directory) the line waits
    /// in memory with those before it, and every later line first writes them
    /// ([`Recorder::catch_up`]); [`Recorder::behind`] says so meanwhile. Only beyond
    /// [`MAX_BACKLOG`] bytes waiting is this an error (the recording then stops).
    fn add_line(&mut self, line: &str) -> Result<(), RecordError> {
        if let Some(text) = self.pending.as_mut() {
            text.push_str(line);
            text.push('\n');
            return Ok(());
        }
        self.written.backlog.push_str(line);
        self.written.backlog.push('\n');
        match self.catch_up() {
            Ok(()) => Ok(()),
            Err(_) if self.written.backlog.len() <= MAX_BACKLOG => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Why lines of the recording wait in memory (its file could not be written), if they
    /// do.
    #[must_use]
    pub fn behind(&self) -> Option<&str> {
        self.written.behind.as_deref()
    }

    /// A checkpoint every `n` commands (at least 1) instead of [`CHECKPOINT_EVERY`]: each
    /// hashes the whole game. Saves still add one each.
    pub fn set_checkpoint_every(&mut self, n: usize) {
        self.checkpoint_every = n.max(1);
    }

    /// Whether appends are flushed to the disk (`fdatasync`) before they count as written:
    /// yes unless turned off, which only a writer holding every line durably elsewhere may
    /// do ([`storage::append_at_flushing`]).
    pub fn set_flush(&mut self, on: bool) {
        self.flush = on;
    }

    /// Write the lines that wait (after a failed write) to the file, flushed: first cutting
    /// off whatever part of a line the failed write left, so the file holds whole lines
    /// only. Nothing to do when none waits.
    ///
    /// # Errors
    /// The file still cannot be written; the lines keep waiting.
    pub fn catch_up(&mut self) -> Result<(), RecordError> {
        if self.written.backlog.is_empty() {
            return Ok(());
        }
        let at = match self.written.len {
            Some(at) => at,
            // Read before anything is appended here, so the file ends with a whole line.
            None => match std::fs::metadata(&self.path) {
                Ok(m) => m.len(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
                Err(source) => {
                    self.written.behind = Some(source.to_string());
                    return Err(RecordError::Storage(StorageError::Io {
                        path: self.path.clone(),
                        source,
                    }));
                }
            },
        };
        self.written.len = Some(at);
        match storage::append_at_flushing(
            &self.path,
            at,
            self.written.backlog.as_bytes(),
            self.flush,
        ) {
            Ok(end) => {
                self.written.len = Some(end);
                self.written.backlog.clear();
                self.written.behind = None;
                Ok(())
            }
            Err(e) => {
                self.written.behind = Some(e.to_string());
                Err(e.into())
            }
        }
    }

    /// Continue the recording at `path` for `save`, a game just loaded: the recording is the
    /// save's journal. The last checkpoint equal to the save (turn and state hash) is found,
    /// the commands after it are replayed with `step`, each checkpoint's hash and each
    /// command's turn checked, and the game is brought to the last command that replays.
    /// Whatever follows that (a line cut off by a crash, a checkpoint that differs, a command
    /// refused) is dropped from the file, back to the last checkpoint that matched, and a
    /// checkpoint of the result is appended, so the recording goes on from there.
    /// Θ(entries) to read, plus one `step` per command after the save.
    ///
    /// # Errors
    /// [`JournalError::NoMatch`] when no checkpoint is the save (the recording is another
    /// game's, or older than the save); [`JournalError::Read`] when it cannot be read. The
    /// file is untouched then.
    pub fn journal<E: std::fmt::Display>(
        path: &Path,
        game_name: &'static str,
        save: &Game,
        step: impl FnMut(&Game, &C) -> Result<Game, E>,
    ) -> Result<Journal<C>, JournalError>
    where
        C: Clone,
    {
        Self::journal_reporting(path, game_name, save, step, &mut |_, _| {})
    }

    /// [`Recorder::journal`], telling `report` how many of the commands after the save have
    /// been replayed, of how many: every 1,000 and once at the end (not at all when none
    /// follows the save).
    ///
    /// # Errors
    /// As [`Recorder::journal`].
    pub fn journal_reporting<E: std::fmt::Display>(
        path: &Path,
        game_name: &'static str,
        save: &Game,
        mut step: impl FnMut(&Game, &C) -> Result<Game, E>,
        report: &mut dyn FnMut(usize, usize),
    ) -> Result<Journal<C>, JournalError>
    where
        C: Clone,
    {
        let rec = read::<C>(path, game_name)?;
        let want = (save.turn(), save.state_hash());
        let start = rec
            .entries
            .iter()
            .rposition(|e| matches!(e, Entry::Checkpoint { turn, hash } if (*turn, *hash) == want))
            .ok_or(JournalError::NoMatch { turn: save.turn() })?;
        // `good`: entries kept (an index past the last one kept), with the game there.
        let mut game = save.clone();
        let mut good = (start + 1, game.clone(), 0usize);
        let mut replayed: Vec<(u64, C)> = Vec::new();
        let mut problem = None;
        let total = rec.entries[start + 1..]
            .iter()
            .filter(|e| matches!(e, Entry::Command { .. }))
            .count();
        for (i, entry) in rec.entries.iter().enumerate().skip(start + 1) {
            match entry {
                Entry::Command { turn, command } => {
                    if game.turn() != *turn {
                        problem = Some(format!(
                            "a command of turn {turn} came at turn {}",
                            game.turn()
                        ));
                        break;
                    }
                    match step(&game, command) {
                        Ok(next) => game = next,
                        Err(e) => {
                            problem = Some(format!("the command of turn {turn} was refused: {e}"));
                            break;
                        }
                    }
                    replayed.push((*turn, command.clone()));
                    if replayed.len().is_multiple_of(1000) {
                        report(replayed.len(), total);
                    }
                }
                Entry::Checkpoint { turn, hash } => {
                    if (game.turn(), game.state_hash()) != (*turn, *hash) {
                        problem = Some(format!("the checkpoint of turn {turn} differs"));
                        break;
                    }
                    good = (i + 1, game.clone(), replayed.len());
                }
                _ => {}
            }
        }
        if total > 0 {
            report(replayed.len(), total);
        }
        let (keep, game) = if problem.is_some() {
            replayed.truncate(good.2);
            (good.0, good.1)
        } else {
            (rec.entries.len(), game)
        };
        let dropped = match (problem, rec.torn) {
            (Some(p), _) => Some(format!(
                "The recording after turn {} did not replay ({p}); the game goes on from there.",
                game.turn()
            )),
            (None, true) => Some(
                "The recording's last line was cut off (a crash while it was written); it was dropped."
                    .to_owned(),
            ),
            (None, false) => None,
        };
        // Everything up to the save's checkpoint: what a rewrite after an undo keeps.
        let mut base = String::new();
        for e in rec.entries.iter().take(start + 1) {
            base += &e.to_line().map_err(|source| RecordError::Replay {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let mut recorder = Recorder {
            path: path.to_path_buf(),
            header: rec.header.clone(),
            since_checkpoint: 0,
            checkpoint_every: CHECKPOINT_EVERY,
            since_state: commands_since_state(&rec.entries[..keep]),
            pending: None,
            base: Some((want.0, want.1, base)),
            written: Written::default(),
            flush: true,
            last_checkpoint: None,
            commands: PhantomData,
        };
        let ends_here = matches!(
            rec.entries.get(keep.wrapping_sub(1)),
            Some(Entry::Checkpoint { .. } | Entry::State { .. })
        );
        if keep < rec.entries.len() || rec.torn {
            // Rewrite without what is dropped, ending with a checkpoint of the game.
            let mut text = rec.header.to_line();
            for e in rec.entries.iter().take(keep) {
                text += &e.to_line().map_err(|source| RecordError::Replay {
                    path: path.to_path_buf(),
                    source,
                })?;
            }
            if !ends_here {
                text += &Entry::checkpoint_line(game.turn(), game.state_hash());
            }
            storage::write_atomic(path, text.as_bytes()).map_err(RecordError::from)?;
        } else if !ends_here {
            recorder.checkpoint(&game).map_err(JournalError::Read)?;
        }
        Ok(Journal {
            recorder,
            game,
            replayed,
            dropped,
        })
    }

    /// Continue the recording at `path` for a loaded `game`: only when the recording's last
    /// checkpoint is this very game (it was saved with it). `None` otherwise: the game plays
    /// on unrecorded rather than with a recording that would not replay.
    #[must_use]
    pub fn resume(path: &Path, game_name: &'static str, game: &Game) -> Option<Self> {
        let rec = read::<C>(path, game_name).ok()?;
        let last = rec.entries.iter().rev().find_map(Entry::checkpoint)?;
        let at_end = matches!(
            rec.entries.last(),
            Some(Entry::Checkpoint { .. } | Entry::State { .. })
        );
        (at_end && !rec.torn && last == (game.turn(), game.state_hash())).then(|| Recorder {
            path: path.to_path_buf(),
            since_state: commands_since_state(&rec.entries),
            header: rec.header,
            since_checkpoint: 0,
            checkpoint_every: CHECKPOINT_EVERY,
            pending: None,
            base: None,
            written: Written::default(),
            flush: true,
            last_checkpoint: None,
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
        self.add_line(line.trim_end())?;
        self.since_checkpoint += 1;
        self.since_state += 1;
        if self.since_checkpoint >= self.checkpoint_every {
            self.checkpoint(after)?;
        }
        Ok(())
    }

    /// Whether [`STATE_EVERY`] commands went by since the last state line: time for
    /// [`Recorder::state`].
    #[must_use]
    pub fn state_due(&self) -> bool {
        self.since_state >= STATE_EVERY
    }

    /// Append a checkpoint of `game`, then `game` whole as `save_text` (the game's save
    /// text of it): the replay viewer seeks from such states. Θ(size of the text).
    ///
    /// # Errors
    /// The file could not be appended to.
    pub fn state(&mut self, game: &Game, save_text: &str) -> Result<(), RecordError> {
        self.checkpoint(game)?;
        let line = Entry::state_line(game.turn(), save_text);
        self.add_line(line.trim_end())?;
        self.since_state = 0;
        Ok(())
    }

    /// Append a checkpoint of `game`.
    ///
    /// # Errors
    /// The file could not be appended to.
    pub fn checkpoint(&mut self, game: &Game) -> Result<(), RecordError> {
        let hash = game.state_hash();
        let line = Entry::checkpoint_line(game.turn(), hash);
        self.last_checkpoint = Some((game.clone(), hash));
        self.add_line(line.trim_end())?;
        self.since_checkpoint = 0;
        Ok(())
    }

    /// The state hash of `game` if the last checkpoint appended was made of this very
    /// version of it ([`Game::ptr_eq`]), so a caller that needs the hash of the checkpoint
    /// the game is at does not work it out again. Θ(1). `None` otherwise: work it out with
    /// [`Game::state_hash`].
    #[must_use]
    pub fn checkpointed(&self, game: &Game) -> Option<u64> {
        self.last_checkpoint
            .as_ref()
            .filter(|(g, _)| g.ptr_eq(game))
            .map(|(_, h)| *h)
    }

    /// Write the whole recording again from `commands` (each with its turn), ending at
    /// `game`: after an undo in practice mode, the recording is the shorter game. When
    /// `start` is the save a continued game began from ([`Recorder::journal`]), the lines
    /// before it are kept, so the recording still replays from its seed.
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
        match &self.base {
            Some((turn, hash, base)) if (*turn, *hash) == (start.turn(), start.state_hash()) => {
                text += base;
            }
            _ => text += &Entry::checkpoint_line(start.turn(), start.state_hash()),
        }
        let mut written = 0;
        for (turn, c) in commands {
            text += &Entry::command_line(turn, c).map_err(|source| RecordError::Replay {
                path: self.path.clone(),
                source,
            })?;
            written += 1;
        }
        self.since_state = self.since_state.min(written);
        text += &Entry::checkpoint_line(game.turn(), game.state_hash());
        match self.pending.as_mut() {
            Some(p) => *p = text,
            None => {
                storage::write_atomic(&self.path, text.as_bytes())?;
                // Everything is in the file now, whatever waited.
                self.written = Written::default();
            }
        }
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
        // Kept only whole: lines still waiting make it an error.
        self.catch_up()?;
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
        if let Some(text) = self.pending.take() {
            // Never written beside the save: it goes straight to `records/`.
            storage::write_atomic(&dest, text.as_bytes())?;
            return Ok(dest);
        }
        std::fs::rename(&self.path, &dest).map_err(|e| {
            RecordError::Storage(StorageError::Io {
                path: dest.clone(),
                source: e,
            })
        })?;
        Ok(dest)
    }
}

/// A last-resort save, called once as a window or terminal is lost: the save's path, or why
/// not. [`for_frontend`] makes it the `alembic_ui::EmergencySave` a frontend calls.
pub type EmergencySave = Box<dyn FnOnce() -> Result<String, EmergencySaveError> + Send>;

/// Why a last-resort save ([`EmergencySave`]) could not be written: its `Display` is the
/// sentence a frontend prints.
#[derive(Debug, thiserror::Error)]
pub enum EmergencySaveError {
    /// The save's directory could not be made.
    #[error("{}: {source}", dir.display())]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The game's own save failed (the sentence of its error).
    #[error("{0}")]
    Write(String),
}

#[cfg(feature = "ui")]
impl From<EmergencySaveError> for alembic_ui::EmergencySaveError {
    fn from(e: EmergencySaveError) -> Self {
        alembic_ui::EmergencySaveError(e.to_string())
    }
}

/// The last-resort save as the UI contract hands it to a frontend
/// ([`alembic_ui::App::emergency_save`]): the same save, the same sentences.
#[cfg(feature = "ui")]
#[must_use]
pub fn for_frontend(save: EmergencySave) -> alembic_ui::EmergencySave {
    Box::new(move || save().map_err(Into::into))
}

/// The last-resort save of a game in play (`alembic_ui::App::emergency_save`), as every
/// game makes it: `game` (a cheap clone of the persistent value), the recording it goes on
/// (when one is written beside the save), the save's `path`, and `write`, the game's own
/// save to that file. Called, it does what a save does, in the same order: a checkpoint of
/// `game` appended to the recording, the save's directory made, then the save written, so
/// the save is one of the recording's checkpoints and a continued game goes on from it. It
/// answers the save's path, or why not ([`EmergencySaveError`], whose sentence is `write`'s
/// error as it displays).
#[must_use]
pub fn emergency_save<E: std::fmt::Display>(
    game: Game,
    recording: Option<PathBuf>,
    path: PathBuf,
    write: impl FnOnce(&Game, &Path) -> Result<(), E> + Send + 'static,
) -> EmergencySave {
    Box::new(move || {
        let mut problem = None;
        if let Some(rec) = &recording {
            let line = Entry::checkpoint_line(game.turn(), game.state_hash());
            if let Err(e) = storage::append_line(rec, line.trim_end()) {
                problem = Some(format!("; its recording could not be marked ({e})"));
            }
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| EmergencySaveError::Dir {
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        write(&game, &path).map_err(|e| EmergencySaveError::Write(e.to_string()))?;
        Ok(format!("{}{}", path.display(), problem.unwrap_or_default()))
    })
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
    parse(path, &bytes, game_name)
}

/// [`read`] of bytes already read from `path`.
pub(crate) fn parse<C: DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
    game_name: &'static str,
) -> Result<Recording<C>, RecordError> {
    let rec = Recording::<C>::parse_bytes(bytes).map_err(|source| RecordError::Replay {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// An empty directory of this test process, `name` telling the tests apart.
    fn fresh_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("alembic-record-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Issue 52: an emergency save that fails says why, typed, in the sentence it said as
    /// a `String` before (the directory, then what the file system said).
    #[test]
    fn an_emergency_save_that_cannot_make_its_directory_says_which() {
        let dir = std::env::temp_dir().join(format!("alembic-emergency-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let blocker = dir.join("not-a-dir");
        std::fs::write(&blocker, "a file").unwrap();
        let path = blocker.join("sub").join("g.save");
        let save = emergency_save(Game::new(0), None, path, |_, _| Ok::<(), String>(()));
        let err = save().unwrap_err();
        let EmergencySaveError::Dir {
            dir: failed,
            source,
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(failed, &blocker.join("sub"));
        assert_eq!(err.to_string(), format!("{}: {source}", failed.display()));
        let write = emergency_save(Game::new(0), None, dir.join("g.save"), |_, _| {
            Err("the disk is full")
        });
        assert_eq!(write().unwrap_err().to_string(), "the disk is full");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_last_checkpoint_knows_its_own_version_of_the_game_only() {
        let dir = fresh_dir("memo");
        let path = dir.join("g.replay");
        let mut game = Game::new(0);
        game.add_thing_mut(
            alembic::Loc::new(1, 2, 0),
            alembic::Thing::new(alembic::Props::new()),
        )
        .unwrap();
        let mut r: Recorder<u8> = Recorder::start(&path, "g", 1, &Modes::none(), &game).unwrap();
        for _ in 0..CHECKPOINT_EVERY - 1 {
            r.command(0, &1, &game).unwrap();
        }
        let mut after = game.clone();
        after.set_turn_mut(1);
        assert_eq!(r.checkpointed(&after), None, "another version");
        // An equal game made apart is not the version hashed either.
        assert_eq!(r.checkpointed(&Game::new(0)), None);
        r.command(0, &1, &after).unwrap();
        assert_eq!(r.checkpointed(&after), Some(after.state_hash()));
        assert_eq!(r.checkpointed(&game), None);
        let text = std::fs::read_to_string(&path).unwrap();
        let want = Entry::checkpoint_line(1, after.state_hash());
        assert!(text.ends_with(&want), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn checkpoints_come_at_the_interval_set() {
        let dir = fresh_dir("every");
        let path = dir.join("g.replay");
        let game = Game::new(0);
        let mut r: Recorder<u8> = Recorder::start(&path, "g", 1, &Modes::none(), &game).unwrap();
        r.set_checkpoint_every(3);
        let line = Entry::checkpoint_line(game.turn(), game.state_hash());
        let checkpoints = || {
            let text = std::fs::read_to_string(&path).unwrap();
            text.lines().filter(|l| *l == line.trim_end()).count()
        };
        let at_start = checkpoints();
        for _ in 0..2 {
            r.command(0, &1, &game).unwrap();
        }
        assert_eq!(checkpoints(), at_start);
        r.command(0, &1, &game).unwrap();
        assert_eq!(checkpoints(), at_start + 1);
        for _ in 0..3 {
            r.command(0, &1, &game).unwrap();
        }
        assert_eq!(checkpoints(), at_start + 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_whole_state_follows_every_state_every_commands_across_continues() {
        let dir = fresh_dir("state");
        let path = dir.join("g.replay");
        let game = Game::new(0);
        let mut r: Recorder<u8> = Recorder::start(&path, "g", 1, &Modes::none(), &game).unwrap();
        for _ in 0..STATE_EVERY - 1 {
            r.command(0, &1, &game).unwrap();
        }
        assert!(!r.state_due());
        r.command(0, &1, &game).unwrap();
        assert!(r.state_due());
        r.state(&game, "the \"whole\" game").unwrap();
        assert!(!r.state_due());
        for _ in 0..7 {
            r.command(0, &1, &game).unwrap();
        }
        let rec = read::<u8>(&path, "g").unwrap();
        let states: Vec<usize> = (0..rec.entries.len())
            .filter(|&i| matches!(rec.entries[i], Entry::State { .. }))
            .collect();
        assert_eq!(states.len(), 1);
        assert_eq!(
            rec.entries[states[0]],
            Entry::State {
                turn: 0,
                state: "the \"whole\" game".to_owned()
            }
        );
        assert!(matches!(
            rec.entries[states[0] - 1],
            Entry::Checkpoint { .. }
        ));
        // Continued, the recorder counts on from the commands after that state.
        let j =
            Recorder::<u8>::journal(&path, "g", &game, |g, _| Ok::<_, String>(g.clone())).unwrap();
        let mut r = j.recorder;
        for _ in 0..STATE_EVERY - 8 {
            r.command(0, &1, &game).unwrap();
        }
        assert!(!r.state_due());
        r.command(0, &1, &game).unwrap();
        assert!(r.state_due());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lines_a_failed_write_leaves_wait_and_are_written_whole_once_it_can_be() {
        let dir = fresh_dir("behind");
        let path = dir.join("g.replay");
        let game = Game::new(0);
        let mut r: Recorder<u8> = Recorder::start(&path, "g", 1, &Modes::none(), &game).unwrap();
        r.command(0, &1, &game).unwrap();
        assert!(r.behind().is_none());
        // The file cannot be written (a directory in its place), and a failed write left
        // part of a line behind: the lines wait, and the part is cut off on retry.
        let aside = dir.join("aside");
        std::fs::rename(&path, &aside).unwrap();
        std::fs::create_dir(&path).unwrap();
        r.command(0, &2, &game).unwrap();
        r.command(0, &3, &game).unwrap();
        assert!(r.behind().is_some(), "the lines wait");
        assert!(r.catch_up().is_err());
        std::fs::remove_dir(&path).unwrap();
        std::fs::rename(&aside, &path).unwrap();
        storage::append_at(
            &path,
            std::fs::metadata(&path).unwrap().len(),
            b"{\"turn\":0,\"cm",
        )
        .unwrap();
        r.catch_up().unwrap();
        assert!(r.behind().is_none());
        let rec = read::<u8>(&path, "g").unwrap();
        assert!(!rec.torn, "whole lines only");
        let commands: Vec<u8> = rec
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Command { command, .. } => Some(*command),
                _ => None,
            })
            .collect();
        assert_eq!(commands, [1, 2, 3], "every line, once, in order");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
