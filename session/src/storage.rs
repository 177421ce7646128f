//! Files that survive crashes, races and hostile input: every file a game writes (saves,
//! and any later record of a game) goes through here.
//!
//! - [`write_atomic`]: the new bytes go to a uniquely named temporary file in the same
//!   directory (process id, time and a retry counter, created with `create_new`, so two
//!   processes never share one), which is flushed to disk, then renamed over the target; the
//!   directory is flushed after the rename. The temporary file is read back before it
//!   replaces anything, and the previous file is kept as `NAME.bak` until the new one is in
//!   place. At every instant the target holds either the whole old file or the whole new
//!   one: `kill -9` at any point cannot tear it, and neither can a second writer.
//! - [`read_bounded`]: refuses anything that is not a regular file (a FIFO or `/dev/zero`
//!   would block or never end) and anything over a size limit, and reads with that limit.
//! - [`SessionLock`]: an advisory lock (the standard library's `File::try_lock`, `flock` on
//!   Unix) held for as long as a game is open, so a second window on the same save refuses
//!   to start instead of overwriting the first one's progress.
//! - [`append_line`]: a line added to a log and flushed to disk before returning.
//!
//! Written by hand because each piece is a few lines of `std`; a crate such as `tempfile` or
//! `atomicwrites` would add the temp file but not the read-back check, the `.bak`, the
//! bounded read or the lock message.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest file [`read_bounded`] accepts by default: 64 MiB. A real Alchemy save is well
/// under 2 MiB; anything near this is not a save.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a file could not be written, read or locked.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The file system said no.
    #[error("cannot access {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// A FIFO, device, directory or socket where a file was expected.
    #[error("{} is not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Bigger than the limit.
    #[error("{} is too large: more than {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// The bytes read back after writing differ from the bytes written.
    #[error("{} did not read back as written; the previous copy is kept", path.display())]
    Unverified {
        /// The file.
        path: PathBuf,
    },
    /// Something other than a lock file of ours is where the lock goes: it is left alone.
    #[error(
        "{} is {what}, not a lock file; this save cannot be locked until it is removed",
        path.display()
    )]
    BadLock {
        /// The lock's path.
        path: PathBuf,
        /// What is there ("a symbolic link", "a directory").
        what: &'static str,
    },
    /// The lock could not be made or taken (an unwritable lock file or directory): the game
    /// is refused rather than played unlocked, where two windows could play one save.
    #[error(
        "cannot lock this save ({}: {source}); it is not played unlocked, where two windows could play it at once: fix the file's permissions or remove it",
        path.display()
    )]
    CannotLock {
        /// The lock's path (or the save's, when its directory cannot be reached).
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// A shared file's lock (the score table's) was still held by another process after
    /// waiting ([`lock_exclusive_within`]).
    #[error(
        "{} is still locked by another game after {} s (a game stuck or stopped while it wrote)",
        path.display(),
        waited.as_secs()
    )]
    Busy {
        /// The lock's path.
        path: PathBuf,
        /// How long it was waited for.
        waited: std::time::Duration,
    },
    /// Another process holds the lock.
    #[error("this game is already open in another window ({})", holder_text(*pid))]
    Locked {
        /// The locked file.
        path: PathBuf,
        /// The process holding it, when it wrote its id.
        pid: Option<u32>,
    },
}

fn holder_text(pid: Option<u32>) -> String {
    pid.map_or_else(|| "another process".to_string(), |p| format!("pid {p}"))
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The path with `suffix` appended to its file name (`alchemy.save` → `alchemy.save.bak`).
#[must_use]
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Read at most `limit` bytes of the regular file at `path`: `alembic_data`'s
/// [`read_bounded`](alembic_data::read_bounded), the reader data files and mods go through.
///
/// # Errors
/// [`StorageError::NotAFile`] for FIFOs, devices and directories (checked before opening,
/// and the file opened without blocking, so a FIFO never blocks),
/// [`StorageError::TooLarge`] past `limit`, [`StorageError::Io`].
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, StorageError> {
    use alembic_data::ReadError;
    alembic_data::read_bounded(path, limit).map_err(|e| match e {
        ReadError::Io { path, source } => StorageError::Io { path, source },
        ReadError::NotAFile { path, .. } => StorageError::NotAFile { path },
        ReadError::TooLarge { path, limit } => StorageError::TooLarge { path, limit },
    })
}

/// A fresh temporary file beside `path`, named for this process and moment so no other
/// writer can share it.
fn create_temp(path: &Path) -> Result<(PathBuf, File), StorageError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let pid = std::process::id();
    let mut last = None;
    for attempt in 0..64u32 {
        let tmp = sibling(path, &format!(".{pid}-{nanos:09}-{attempt}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(io_err(&tmp)(e)),
        }
    }
    Err(io_err(path)(last.unwrap_or_else(|| {
        io::Error::other("no free temporary file name")
    })))
}

/// Whether the process `pid` is alive, when the platform can say (`/proc` on Linux);
/// `None` when it cannot.
fn process_alive(pid: u32) -> Option<bool> {
    let proc_dir = Path::new("/proc");
    proc_dir
        .join("self")
        .exists()
        .then(|| proc_dir.join(pid.to_string()).exists())
}

/// The process id in the name of one of [`write_atomic`]'s temporary files
/// (`NAME.<pid>-<nanos>-<attempt>.tmp`), if `name` is one.
fn temp_owner(name: &str) -> Option<u32> {
    let stem = name.strip_suffix(".tmp")?;
    let (rest, attempt) = stem.rsplit_once('-')?;
    let (rest, nanos) = rest.rsplit_once('-')?;
    let (_, pid) = rest.rsplit_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(attempt) && digits(nanos)).then_some(())?;
    pid.parse().ok()
}

/// Remove what [`write_atomic`] leaves in `dir` when a process dies in the middle of it: its
/// temporary files (only those named for a process that is no longer running) and `NAME.bak`
/// copies whose `NAME` is in place (a whole file: `write_atomic` never leaves it torn). Nothing else is touched, and nothing
/// at all where the platform cannot say which processes run. Returns how many files went.
pub fn sweep_leftovers(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let path = entry.path();
        let stale = if let Some(pid) = temp_owner(name) {
            pid != std::process::id() && process_alive(pid) == Some(false)
        } else if let Some(base) = name.strip_suffix(".bak") {
            // The file it backs up is always whole (renamed into place atomically, never
            // removed by a write): a copy beside it is redundant.
            dir.join(base).is_file()
        } else {
            false
        };
        if stale && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Flush a directory's entries (the rename) to disk. Not every platform can open a
/// directory; there the rename is as durable as the OS makes it.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Replace the file at `path` with `bytes`, atomically and durably (see the module docs).
///
/// # Errors
/// [`StorageError::Io`] when the directory refuses (full disk, read-only); the previous file
/// is then untouched and no temporary file is left behind. [`StorageError::Unverified`] when
/// the temporary file reads back different; the previous file is then untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StorageError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (tmp, mut file) = create_temp(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_err(&tmp));
    drop(file);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    // Read the temporary file back before it replaces anything. (Checking the target after
    // the rename would race with another writer's rename.)
    if !read_bounded(&tmp, bytes.len() as u64).is_ok_and(|back| back == bytes) {
        let _ = std::fs::remove_file(&tmp);
        return Err(StorageError::Unverified {
            path: path.to_path_buf(),
        });
    }
    // Keep the previous file as NAME.bak (a hard link: no copy, and `path` never vanishes)
    // until the new one is in place.
    let bak = sibling(path, ".bak");
    let had_old = path.is_file();
    if had_old {
        let _ = std::fs::remove_file(&bak);
        if std::fs::hard_link(path, &bak).is_err() {
            let _ = std::fs::copy(path, &bak);
        }
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        let _ = std::fs::remove_file(&bak);
        return Err(io_err(path)(e));
    }
    sync_dir(&dir);
    if had_old {
        let _ = std::fs::remove_file(&bak);
    }
    Ok(())
}

/// Append `line` and a newline to the file at `path` (created if missing) and flush it to
/// disk before returning, so a crash right after loses nothing.
///
/// # Errors
/// [`StorageError::Io`].
pub fn append_line(path: &Path, line: &str) -> Result<(), StorageError> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.push(b'\n');
    f.write_all(&buf)
        .and_then(|()| f.sync_data())
        .map_err(io_err(path))
}

/// Write `bytes` (whole lines) into the file at `path` from offset `at`, the end of its last
/// whole line, and flush them to the disk: whatever follows `at` (part of a line a failed
/// write left) is cut off first; a file shorter than `at` (changed by someone else) is
/// appended to. Returns the file's new length.
///
/// # Errors
/// [`StorageError::Io`]: the file could not be opened, cut or written (a full disk, a
/// read-only directory); what was written of `bytes` is cut off again by the next call.
pub fn append_at(path: &Path, at: u64, bytes: &[u8]) -> Result<u64, StorageError> {
    append_at_flushing(path, at, bytes, true)
}

/// [`append_at`], flushing to the disk (`fdatasync`) only if `flush`. Only a writer that
/// holds every line durably elsewhere before it counts the line as written may pass
/// `false`: the web server, whose store commits (and flushes) each move before the move is
/// answered, and writes a game's files again from the store before the game continues.
/// Without the flush, a `kill -9` still loses nothing (the lines are in the system's
/// cache); a crash of the machine may lose the file's last lines, which the store has.
///
/// # Errors
/// As [`append_at`].
pub fn append_at_flushing(
    path: &Path,
    at: u64,
    bytes: &[u8],
    flush: bool,
) -> Result<u64, StorageError> {
    use std::io::{Seek, SeekFrom};
    let mut f = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(io_err(path))?;
    let len = f.metadata().map_err(io_err(path))?.len();
    if len > at {
        f.set_len(at).map_err(io_err(path))?;
    }
    let start = f.seek(SeekFrom::End(0)).map_err(io_err(path))?;
    f.write_all(bytes)
        .and_then(|()| if flush { f.sync_data() } else { Ok(()) })
        .map_err(io_err(path))?;
    Ok(start + bytes.len() as u64)
}

/// An advisory lock on a save, held until dropped (or the process ends, however it ends:
/// the OS releases it, so a crash never leaves a stale lock; the file a dead process leaves
/// is simply locked again).
#[derive(Debug)]
pub struct SessionLock {
    file: File,
    path: PathBuf,
    save: PathBuf,
}

/// The canonical path of the save at `save`: symbolic links and `..` resolved, so every
/// name of one file gets the same lock. A save that does not exist yet is named through its
/// canonical directory. Creates nothing.
///
/// # Errors
/// [`StorageError::Io`] when the directory does not exist; [`StorageError::NotAFile`] when
/// something other than a regular file is there (a device, a FIFO, a directory).
pub fn canonical_save(save: &Path) -> Result<PathBuf, StorageError> {
    match std::fs::canonicalize(save) {
        Ok(p) => {
            if std::fs::metadata(&p).map_err(io_err(&p))?.is_file() {
                Ok(p)
            } else {
                Err(StorageError::NotAFile { path: p })
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let name = save.file_name().ok_or_else(|| StorageError::NotAFile {
                path: save.to_path_buf(),
            })?;
            let dir = match save.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let dir = std::fs::canonicalize(dir).map_err(io_err(dir))?;
            Ok(dir.join(name))
        }
        Err(e) => Err(io_err(save)(e)),
    }
}

/// Hold an exclusive lock on the lock file at `path` (made if missing, never followed
/// through a symbolic link) for a short read-modify-write of a file that several games
/// share, such as the score table: two games ending at once, in two processes or two
/// threads of one server, then update it one after the other instead of one overwriting the
/// other's row. Blocks until the lock is free; released when the returned file is dropped.
///
/// # Errors
/// The lock file cannot be made or locked, or something other than a regular file is there.
pub fn lock_exclusive(path: &Path) -> Result<File, StorageError> {
    let file = open_lock_file(path)?;
    file.lock().map_err(io_err(path))?;
    Ok(file)
}

/// [`lock_exclusive`], waiting at most `wait` for another holder to let go: a game that
/// ends while another process holds the score table's lock (stuck, or stopped with
/// Ctrl-Z) is told so instead of waiting for ever.
///
/// # Errors
/// As [`lock_exclusive`], and [`StorageError::Busy`] when the lock is still held after
/// `wait`.
pub fn lock_exclusive_within(path: &Path, wait: std::time::Duration) -> Result<File, StorageError> {
    let file = open_lock_file(path)?;
    let until = std::time::Instant::now() + wait;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < until => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StorageError::Busy {
                    path: path.to_path_buf(),
                    waited: wait,
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_err(path)(e)),
        }
    }
}

/// Open the lock file at `path` for reading and writing without following a symbolic link
/// and without truncating anything, creating it if missing; refuse anything at `path` that
/// is not a regular file of its own.
fn open_lock_file(path: &Path) -> Result<File, StorageError> {
    let refuse = |what: &'static str| StorageError::BadLock {
        path: path.to_path_buf(),
        what,
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => return Err(refuse("a symbolic link")),
        Ok(m) if m.is_dir() => return Err(refuse("a directory")),
        Ok(m) if !m.is_file() => return Err(refuse("not a regular file")),
        _ => {}
    }
    let mut opts = OpenOptions::new();
    opts.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A symbolic link put there after the check above is refused by the kernel (ELOOP),
        // and a FIFO does not block the open.
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(|e| {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            refuse("a symbolic link")
        } else {
            io_err(path)(e)
        }
    })?;
    let meta = file.metadata().map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(refuse("not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // The file opened is the one at the path now (not swapped in between).
        let now = std::fs::symlink_metadata(path).map_err(io_err(path))?;
        if (now.dev(), now.ino()) != (meta.dev(), meta.ino()) {
            return Err(refuse("replaced while it was opened"));
        }
    }
    Ok(file)
}

impl SessionLock {
    /// Lock the save at `save` through the sibling `SAVE.lock` of its canonical path (so a
    /// symbolic link to a save shares the save's lock), writing this process's id into it.
    /// The lock file is opened without following links and never truncated before it is
    /// locked. Nothing is created unless the save's directory exists and the save (if it
    /// exists) is a regular file.
    ///
    /// # Errors
    /// [`StorageError::Locked`] (with the holder's pid) when another process holds it;
    /// [`StorageError::BadLock`] when a directory, a symbolic link or anything but a regular
    /// file is at the lock's path (it is left as it is); [`StorageError::NotAFile`] for a
    /// save that is not a regular file; [`StorageError::CannotLock`] when the lock cannot
    /// be made, opened or written (an unwritable file or directory).
    pub fn acquire(save: &Path) -> Result<SessionLock, StorageError> {
        let cannot = |e: StorageError| match e {
            StorageError::Io { path, source } => StorageError::CannotLock { path, source },
            other => other,
        };
        let canonical = canonical_save(save).map_err(cannot)?;
        let path = sibling(&canonical, ".lock");
        let mut file = open_lock_file(&path).map_err(cannot)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = (&file).take(32).read_to_string(&mut text);
                return Err(StorageError::Locked {
                    pid: text.trim().parse().ok(),
                    path,
                });
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(StorageError::CannotLock { path, source: e });
            }
        }
        let pid = std::process::id().to_string();
        if let Err(source) = file
            .set_len(0)
            .and_then(|()| file.write_all(pid.as_bytes()))
            .and_then(|()| file.flush())
        {
            return Err(StorageError::CannotLock { path, source });
        }
        Ok(SessionLock {
            file,
            path,
            save: canonical,
        })
    }

    /// The lock file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The canonical path of the save it locks.
    #[must_use]
    pub fn save(&self) -> &Path {
        &self.save
    }
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

/// The checksum of a save marked with modes: the modes (their number, then each with its
/// length), then the state's exact bytes, so neither can be edited alone. Alchemy's saves
/// from version 4 and the Caves' version 3 use it.
#[must_use]
pub fn modes_checksum<'a>(modes: impl IntoIterator<Item = &'a str>, state: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = alembic::hash::StableHasher::new();
    let modes: Vec<&str> = modes.into_iter().collect();
    h.write_u64(modes.len() as u64);
    for m in modes {
        h.write_u64(m.len() as u64);
        h.write(m.as_bytes());
    }
    h.write(state.as_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("alembic-storage-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn write_replaces_and_leaves_no_temp_or_bak() {
        let d = dir("write");
        let p = d.join("a.save");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.save")]);
    }

    #[test]
    fn a_read_only_directory_keeps_the_old_file() {
        let d = dir("ro");
        let p = d.join("a.save");
        write_atomic(&p, b"old").unwrap();
        let missing = d.join("no-such-dir").join("a.save");
        assert!(write_atomic(&missing, b"new").is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
    }

    #[test]
    fn bounded_reads_refuse_devices_fifos_and_big_files() {
        let d = dir("read");
        assert!(matches!(
            read_bounded(Path::new("/dev/zero"), 1024),
            Err(StorageError::NotAFile { .. })
        ));
        assert!(matches!(
            read_bounded(&d, 1024),
            Err(StorageError::NotAFile { .. })
        ));
        let p = d.join("big");
        std::fs::write(&p, vec![b'x'; 2000]).unwrap();
        assert!(matches!(
            read_bounded(&p, 1000),
            Err(StorageError::TooLarge { .. })
        ));
        assert_eq!(read_bounded(&p, 2000).unwrap().len(), 2000);
        let fifo = d.join("fifo");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            assert!(matches!(
                read_bounded(&fifo, 1024),
                Err(StorageError::NotAFile { .. })
            ));
        }
    }

    #[test]
    fn a_second_lock_is_refused_with_the_holders_pid() {
        let d = dir("lock");
        let p = d.join("a.save");
        let first = SessionLock::acquire(&p).unwrap();
        let err = SessionLock::acquire(&p).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("pid {}", std::process::id())),
            "{msg}"
        );
        drop(first);
        assert!(SessionLock::acquire(&p).is_ok());
    }

    #[test]
    fn leftovers_of_dead_processes_are_swept_and_nothing_else() {
        let d = dir("sweep");
        let dead = d.join("a.save.999999999-000000001-0.tmp");
        let mine = d.join(format!("a.save.{}-000000001-0.tmp", std::process::id()));
        let other = d.join("a.save.tmp");
        for p in [&dead, &mine, &other] {
            std::fs::write(p, "x").unwrap();
        }
        assert_eq!(
            temp_owner("a.save.999999999-000000001-0.tmp"),
            Some(999_999_999)
        );
        assert_eq!(temp_owner("a.save.tmp"), None);
        let expected = usize::from(Path::new("/proc/self").exists());
        assert_eq!(sweep_leftovers(&d), expected);
        assert_eq!(dead.exists(), expected == 0);
        assert!(mine.exists() && other.exists());
    }

    #[test]
    fn appended_lines_accumulate() {
        let d = dir("append");
        let p = d.join("log");
        append_line(&p, "a").unwrap();
        append_line(&p, "b").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a\nb\n");
    }
}
