//! Reading files that may be anything: a path given on a command line, or found in a mods
//! folder, can name a FIFO (opening it blocks until a writer comes), a device (`/dev/zero`
//! never ends), a directory, a loop of symbolic links or a file far too big to be data.
//! [`read_bounded`] refuses all of them at once, with the path, and reads a regular file
//! up to a limit; [`read_sources`](crate::read_sources) reads data and mods through it, and
//! `alembic-session` reads saves through it.
//!
//! Written with `std` (and `libc`'s `O_NONBLOCK` on Unix): a crate for it would add no
//! check this needs.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The most [`read_sources`](crate::read_sources) reads from one path: 16 MiB, for a file
/// or for all the `.toml` files of a directory together. Alchemy's shipped data, the
/// largest, is about 52 KB.
pub const MAX_SOURCE_BYTES: u64 = 16 * 1024 * 1024;

/// Why [`read_bounded`] read nothing.
#[derive(Debug)]
pub enum ReadError {
    /// The file system said no: missing, no permission, a loop of symbolic links…
    Io {
        /// The path.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// Something other than a regular file is at the path: it is not opened (a FIFO, a
    /// device) or not read (a directory).
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What is there: "a directory", "a FIFO (named pipe)", "a character device"…
        what: &'static str,
    },
    /// The file holds more than the limit.
    TooLarge {
        /// The path.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
}

impl ReadError {
    /// The path the error is about.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            ReadError::Io { path, .. }
            | ReadError::NotAFile { path, .. }
            | ReadError::TooLarge { path, .. } => path,
        }
    }

    /// What went wrong, as a phrase without the path: "it is a FIFO (named pipe), not a
    /// regular file".
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            ReadError::Io { source, .. } => source.to_string(),
            ReadError::NotAFile { what, .. } => format!("it is {what}, not a regular file"),
            ReadError::TooLarge { limit, .. } => format!("it holds more than {limit} bytes"),
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot read {}: {}",
            self.path().display(),
            self.reason()
        )
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What a file of type `ft` is, said as a noun phrase, when it is not a regular file.
fn what(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else {
        "something other than a file"
    }
}

/// Refuse `meta` unless it is a regular file of at most `limit` bytes.
fn check(path: &Path, meta: &Metadata, limit: u64) -> Result<(), ReadError> {
    if !meta.is_file() {
        return Err(ReadError::NotAFile {
            path: path.to_path_buf(),
            what: what(meta.file_type()),
        });
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(())
}

/// Read at most `limit` bytes of the regular file at `path` (symbolic links followed).
///
/// Anything else is refused before it is opened: a FIFO never blocks, a device is never
/// read. The file is then opened without blocking (`O_NONBLOCK` on Unix) and the opened
/// handle checked again, so a FIFO swapped in between the check and the open is refused
/// too, and it is read through a cap of `limit` bytes, so a file that grows meanwhile is
/// refused rather than read without end.
///
/// ```
/// use alembic_data::{ReadError, read_bounded};
/// let err = read_bounded(std::path::Path::new("/dev/zero"), 1024).unwrap_err();
/// if cfg!(unix) {
///     assert!(matches!(err, ReadError::NotAFile { what: "a character device", .. }));
///     assert_eq!(
///         err.to_string(),
///         "cannot read /dev/zero: it is a character device, not a regular file"
///     );
/// }
/// ```
///
/// # Errors
/// [`ReadError::NotAFile`] for FIFOs, devices, sockets and directories;
/// [`ReadError::TooLarge`] past `limit`; [`ReadError::Io`] for the rest (a missing file, a
/// loop of symbolic links, no permission).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    check(path, &std::fs::metadata(path).map_err(io)?, limit)?;
    read_opened(path, limit)
}

/// Open the file at `path` without blocking, check the handle and read it with the cap:
/// the half of [`read_bounded`] that stays safe when the path changed after its check.
fn read_opened(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading waits for a writer; with O_NONBLOCK it returns at
        // once. On a regular file the flag changes nothing.
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file: File = opts.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check(path, &meta, limit)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fresh directory for one test.
    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("alembic-data-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// `f()` run on a thread, failing the test (instead of hanging it) when it has not
    /// returned within a minute: the reader this replaces blocked for ever on a FIFO.
    pub(crate) fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(t) => t,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("the read blocked: a FIFO or device was opened or read")
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the read panicked"),
        }
    }

    /// Make a FIFO with `mkfifo(1)`; `false` where there is none (not Unix).
    pub(crate) fn mkfifo(path: &Path) -> bool {
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success())
    }

    #[test]
    fn devices_directories_and_fifos_are_refused_without_opening_them() {
        let d = dir("kinds");
        for dev in ["/dev/zero", "/dev/urandom"] {
            let p = PathBuf::from(dev);
            let e = within_a_minute(move || read_bounded(&p, 1 << 20)).unwrap_err();
            assert!(
                matches!(
                    e,
                    ReadError::NotAFile {
                        what: "a character device",
                        ..
                    }
                ),
                "{e}"
            );
            assert_eq!(
                e.to_string(),
                format!("cannot read {dev}: it is a character device, not a regular file")
            );
        }
        let e = read_bounded(&d, 1 << 20).unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::NotAFile {
                    what: "a directory",
                    ..
                }
            ),
            "{e}"
        );
        let fifo = d.join("pipe");
        if mkfifo(&fifo) {
            let p = fifo.clone();
            let e = within_a_minute(move || read_bounded(&p, 1 << 20)).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "cannot read {}: it is a FIFO (named pipe), not a regular file",
                    fifo.display()
                )
            );
            // A FIFO swapped in after the path was checked: the open does not wait for a
            // writer, and the handle is refused.
            let p = fifo.clone();
            let e = within_a_minute(move || read_opened(&p, 1 << 20)).unwrap_err();
            assert!(
                matches!(
                    e,
                    ReadError::NotAFile {
                        what: "a FIFO (named pipe)",
                        ..
                    }
                ),
                "{e}"
            );
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_limit_is_kept_and_a_missing_file_or_a_link_loop_is_named() {
        let d = dir("limit");
        let p = d.join("a.toml");
        std::fs::write(&p, vec![b'#'; 100]).unwrap();
        assert_eq!(read_bounded(&p, 100).unwrap().len(), 100);
        let e = read_bounded(&p, 99).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { limit: 99, .. }), "{e}");
        assert!(e.to_string().contains("it holds more than 99 bytes"), "{e}");
        // The cap holds while reading, whatever the metadata said.
        let e = read_opened(&p, 50).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { limit: 50, .. }), "{e}");
        let missing = d.join("missing.toml");
        let e = read_bounded(&missing, 100).unwrap_err();
        assert!(matches!(e, ReadError::Io { .. }), "{e}");
        assert_eq!(e.path(), missing);
        #[cfg(unix)]
        {
            let (a, b) = (d.join("loop-a.toml"), d.join("loop-b.toml"));
            std::os::unix::fs::symlink(&b, &a).unwrap();
            std::os::unix::fs::symlink(&a, &b).unwrap();
            let e = read_bounded(&a, 100).unwrap_err();
            assert!(matches!(e, ReadError::Io { .. }), "{e}");
            assert!(
                e.to_string()
                    .starts_with(&format!("cannot read {}: ", a.display()))
            );
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
