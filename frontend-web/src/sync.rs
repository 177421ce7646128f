//! A game's files and the store: the games write their save and recording as files (the
//! same code as in the terminal and the window), and the server mirrors them into the
//! [`Store`] after every command, before the frame that answers it goes out. So the store
//! always holds every command a player has seen answered, and any server on the database
//! can write the files back ([`materialize`]) and continue the game: the recording is the
//! save's journal, and loading replays the commands made after the save.
//!
//! Costs per command: two `stat`s and, when something changed, a place in the server's next
//! group commit ([`GroupCommit`]: one transaction for every game's write waiting; in it, the
//! check that this server still holds the game, an `INSERT` per new recording line, the save
//! when its file changed: the games save every few dozen turns and on leaving).

use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::store::group::GroupCommit;
use crate::store::{MirrorWrite, Result, Store, StoreError};

/// Largest recording tail read at once (a recording line is a command: far smaller).
const MAX_TAIL: u64 = 16 << 20;

/// Which version of a file was last mirrored: its inode (an atomic rewrite is a new one),
/// length and modification time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::symlink_metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_file)?;
    Some(Stamp {
        ino: m.ino(),
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
    })
}

/// One game's save and recording files, mirrored into the store as game `id`.
#[derive(Debug)]
pub struct Mirror {
    id: u64,
    save: PathBuf,
    recording: PathBuf,
    save_seen: Option<Stamp>,
    /// The recording file mirrored so far: its inode and the bytes of whole lines sent.
    rec_ino: u64,
    rec_sent: u64,
    /// The last checkpoint (turn, state hash) among the recording lines stored, until taken.
    checkpoint: Option<(u64, u64)>,
}

/// The turn and state hash of a checkpoint line (`{"turn":N,"hash":"HEX"}`, as
/// [`alembic::replay::Entry::checkpoint_line`] writes it); `None` for any other line.
fn checkpoint_of(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("{\"turn\":")?;
    let (turn, rest) = rest.split_once(",\"hash\":\"")?;
    let hash = rest.strip_suffix("\"}")?;
    Some((turn.parse().ok()?, u64::from_str_radix(hash, 16).ok()?))
}

impl Mirror {
    /// The mirror of game `id` whose save is `save` (the recording sits beside it): the
    /// files as they are now are taken to be what the store holds (make it right after
    /// [`materialize`], before the game starts and writes).
    #[must_use]
    pub fn new(id: u64, save: &Path) -> Mirror {
        let recording = alembic_games::record::beside(save);
        let mut m = Mirror {
            id,
            save: save.to_path_buf(),
            recording,
            save_seen: None,
            rec_ino: 0,
            rec_sent: 0,
            checkpoint: None,
        };
        // Written by `materialize` from the store: already there.
        m.save_seen = stamp(&m.save);
        if let Some(r) = stamp(&m.recording) {
            m.rec_ino = r.ino;
            m.rec_sent = r.len;
        }
        m
    }

    /// The last checkpoint (turn, state hash) stored since the last call, if any: the game
    /// is in that state if its turn and hash say so (see [`crate::server::LiveGame::past`]).
    pub fn take_checkpoint(&mut self) -> Option<(u64, u64)> {
        self.checkpoint.take()
    }

    /// The recording's path.
    #[must_use]
    pub fn recording(&self) -> &Path {
        &self.recording
    }

    /// Send what changed in the files since the last call to the store through `commits`
    /// (its server's writer: in a transaction, with other games' moves, that first checks
    /// the server still holds the game), and wait until it is committed. `Ok(false)`:
    /// another server holds it now; nothing was written (and this game must stop here).
    ///
    /// # Errors
    /// The store failed, or the files could not be read (nothing was written; the next call
    /// sends it again).
    pub fn sync(&mut self, commits: &GroupCommit) -> Result<bool> {
        let Some((w, done)) = self.change()? else {
            return Ok(true);
        };
        if !commits.mirror(self.id, w.restart, w.lines, w.save)? {
            return Ok(false);
        }
        self.written(done);
        Ok(true)
    }

    /// What changed in the files since the last write the store committed ([`Mirror::written`]):
    /// the write for the store, and what to note once it is committed; `None`: nothing.
    ///
    /// # Errors
    /// The files could not be read.
    pub fn change(&self) -> Result<Option<(Change, Written)>> {
        let RecordingChange {
            restart,
            lines,
            next: rec_at,
        } = self.recording_change()?;
        let save_now = stamp(&self.save);
        let save = if save_now.is_some() && save_now != self.save_seen {
            Some(
                alembic_games::storage::read_bounded(
                    &self.save,
                    crate::store::MAX_SAVE_BYTES as u64,
                )
                .map_err(|e| StoreError::Invalid(format!("reading the save: {e}")))?,
            )
        } else {
            None
        };
        let w = MirrorWrite {
            restart_recording: restart,
            lines: &lines,
            save: save.as_deref(),
        };
        if w.is_empty() {
            return Ok(None);
        }
        let done = Written {
            rec_at,
            checkpoint: lines.iter().rev().find_map(|l| checkpoint_of(l)),
            save: save.is_some().then_some(save_now),
        };
        Ok(Some((
            Change {
                restart,
                lines,
                save,
            },
            done,
        )))
    }

    /// The store committed the change [`Mirror::change`] gave with `done`.
    pub fn written(&mut self, done: Written) {
        if let Some((ino, at)) = done.rec_at {
            self.rec_ino = ino;
            self.rec_sent = at;
        }
        if done.checkpoint.is_some() {
            self.checkpoint = done.checkpoint;
        }
        if let Some(s) = done.save {
            self.save_seen = s;
        }
    }

    /// The id of the game mirrored.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The recording's whole new lines since the last sync.
    fn recording_change(&self) -> Result<RecordingChange> {
        let Some(st) = stamp(&self.recording) else {
            return Ok(RecordingChange::default());
        };
        // Written again from its start (an undo, a journal repaired): sent again whole.
        let restart = st.ino != self.rec_ino || st.len < self.rec_sent;
        let from = if restart { 0 } else { self.rec_sent };
        let none = RecordingChange {
            restart,
            lines: Vec::new(),
            next: Some((st.ino, from)),
        };
        if st.len == from {
            return Ok(none);
        }
        let read = || -> std::io::Result<Vec<u8>> {
            let mut f = std::fs::File::open(&self.recording)?;
            f.seek(SeekFrom::Start(from))?;
            let mut buf = Vec::new();
            f.take(MAX_TAIL).read_to_end(&mut buf)?;
            Ok(buf)
        };
        let buf = read().map_err(|e| StoreError::Invalid(format!("reading the recording: {e}")))?;
        // Whole lines only: a line being written is sent once it ends.
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
            return Ok(none);
        };
        let lines = buf[..end]
            .split(|&b| b == b'\n')
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        Ok(RecordingChange {
            restart,
            lines,
            next: Some((st.ino, from + end as u64 + 1)),
        })
    }
}

/// A change of a game's files for the store ([`Mirror::change`]), as
/// [`GroupCommit::submit`] takes it.
#[derive(Debug)]
pub struct Change {
    /// The recording was written again from its start: its stored lines are replaced.
    pub restart: bool,
    /// Its new whole lines.
    pub lines: Vec<String>,
    /// The save, when it changed.
    pub save: Option<Vec<u8>>,
}

/// What a [`Mirror`] notes once its [`Change`] is committed ([`Mirror::written`]).
#[derive(Debug)]
pub struct Written {
    rec_at: Option<(u64, u64)>,
    checkpoint: Option<(u64, u64)>,
    save: Option<Option<Stamp>>,
}

/// What a recording file gained since the last sync.
#[derive(Debug, Default)]
struct RecordingChange {
    /// It was written again from its start: its stored lines are replaced.
    restart: bool,
    /// Whole new lines.
    lines: Vec<String>,
    /// Its inode and the offset after those lines, once they are stored.
    next: Option<(u64, u64)>,
}

/// Write game `id`'s save and recording from `store` into `save` and the recording beside
/// it, replacing what is there; with no save in the store, remove both (the game starts
/// from its seed). The store is the truth: a file left by an earlier run, or by this server
/// before another took the game over, is stale.
///
/// # Errors
/// The store failed, or the files could not be written.
pub fn materialize(store: &dyn Store, id: u64, save: &Path) -> std::result::Result<(), String> {
    let recording = alembic_games::record::beside(save);
    let bytes = store.game_save(id).map_err(|e| e.to_string())?;
    let lines = store.recording(id).map_err(|e| e.to_string())?;
    let write = |path: &Path, data: &[u8]| {
        alembic_games::storage::write_atomic(path, data).map_err(|e| e.to_string())
    };
    match bytes {
        Some(b) => {
            write(save, &b)?;
            if lines.is_empty() {
                remove(&recording)?;
            } else {
                let mut text = lines.join("\n");
                text.push('\n');
                write(&recording, text.as_bytes())?;
            }
        }
        None => {
            remove(save)?;
            remove(&recording)?;
        }
    }
    Ok(())
}

fn remove(path: &Path) -> std::result::Result<(), String> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove {}: {e}", path.display())),
    }
}

/// The newest plain file in `dir` whose name starts with `prefix` and that was written at or
/// after `since` (a finished game's morgue or recording, named by its game and seed).
#[must_use]
pub fn newest_named(dir: &Path, prefix: &str, since: std::time::SystemTime) -> Option<PathBuf> {
    let rd = std::fs::read_dir(dir).ok()?;
    rd.filter_map(std::result::Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = e.metadata().ok()?;
            let t = meta.modified().ok()?;
            (meta.is_file() && name.starts_with(prefix) && t >= since).then(|| (t, e.path()))
        })
        .max()
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_lines_are_read_and_others_are_not() {
        let line = alembic::replay::Entry::checkpoint_line(1234, 0xdead_beef_0000_0042);
        assert_eq!(
            checkpoint_of(line.trim_end()),
            Some((1234, 0xdead_beef_0000_0042))
        );
        assert_eq!(checkpoint_of(r#"{"turn":3,"cmd":"Wait"}"#), None);
        assert_eq!(checkpoint_of(r#"{"turn":3,"state":"{}"}"#), None);
        assert_eq!(checkpoint_of(r#"{"turn":x,"hash":"00"}"#), None);
    }
}
