//! Roguelike content as data: TOML files read into an [`alembic::Library`].
//!
//! A game declares its property keys once in a [`Schema`] (type and a line of
//! documentation each); a [`Loader`] reads sources in order — the game's base data, then
//! each mod — and returns a new library, or every mistake of every source with
//! `file:line:column` and a "did you mean" where a near name exists. Bad data never panics
//! and changes nothing.
//!
//! The format (the full rules, with examples, are in `docs/modding.md`):
//!
//! ```toml
//! [tile.floor]
//! walkable = true
//! glyph = "."
//! colour = "#968A73"
//!
//! [proto."base goblinoid"]
//! alembic.abstract = true     # engine keys are dotted: alembic.level, alembic.freq …
//! hps = 5
//!
//! [proto.goblin]
//! parent = "base goblinoid"   # inherits every property and modifier
//! hps = 8
//! modifiers = [{ key = "attack", add = 2, while = "wielded" }]
//!
//! # In a mod, loaded after the base:
//! [proto.goblin]
//! extend = true               # change only the fields named here
//! hps = 9
//!
//! [proto."goblin chief"]
//! copy-from = "goblin"        # a new prototype starting as a copy
//!
//! [proto.kobold]
//! delete = true
//! ```
//!
//! Why TOML: it is the Rust ecosystem's format for hand-written files (`Cargo.toml`), it has
//! comments, and its tables (`[proto.goblin]`) read as one entry each, with no braces to
//! balance. Every key and value keeps its place in the file, so errors point at it.
//!
//! ```
//! use alembic::Prop;
//! use alembic_data::{ErrorKind, Loader, Schema};
//! const HPS: Prop<i32> = Prop::new("hps");
//! let schema = Schema::new().key(&HPS, "hit points at full health");
//! let bad = "[proto.rat]\nhps = \"many\"\n\n[proto.bat]\nparent = \"rta\"\n";
//! let errors = Loader::new(&schema).source("bad.toml", bad).load().unwrap_err();
//! let kinds: Vec<_> = errors.errors().iter().map(|e| (e.kind, e.line, e.column)).collect();
//! assert_eq!(kinds, [(ErrorKind::WrongType, 2, 7), (ErrorKind::UnknownParent, 5, 10)]);
//! assert!(errors.to_string().ends_with("did you mean \"rat\"?"));
//! ```

#![warn(missing_docs)]

mod error;
mod file;
mod hash;
mod load;
mod schema;

pub use error::{DataError, DataErrors, ErrorKind};
pub use file::{MAX_SOURCE_BYTES, ReadError, read_bounded};
pub use hash::DataHash;
pub use load::{Loaded, Loader, MAX_RANGED_SCALE, RESERVED};
pub use schema::{KeyInfo, Schema};

/// Load every `.toml` file of `dir`, sorted by name, as one source each (the loader's own
/// order rules then apply). A path to one file loads that file.
///
/// Files are read through [`read_bounded`]: a FIFO, a device, a directory named `*.toml`, a
/// loop of symbolic links or a file that is not UTF-8 is refused at once, never waited on,
/// and the path's files may hold at most [`MAX_SOURCE_BYTES`] together.
///
/// # Errors
/// Each file that cannot be read is reported as a [`DataError`] of kind
/// [`ErrorKind::Invalid`] at line 1, column 1 of that path ("cannot read: it is a FIFO
/// (named pipe), not a regular file"); a directory whose files hold too much, at the
/// directory's path.
pub fn read_sources(path: &std::path::Path) -> Result<Vec<(String, String)>, DataErrors> {
    let refuse = |p: &std::path::Path, message: String| DataError {
        file: p.display().to_string(),
        line: 1,
        column: 1,
        offset: 0,
        kind: ErrorKind::Invalid,
        key: None,
        message,
        suggestion: None,
    };
    let too_much = format!(
        "cannot read: it holds more than {} MiB, the most data read from one path",
        MAX_SOURCE_BYTES >> 20
    );
    let mut files = Vec::new();
    if path.is_dir() {
        let io = |e| DataErrors(vec![refuse(path, format!("cannot read: {e}"))]);
        for entry in std::fs::read_dir(path).map_err(io)? {
            let p = entry.map_err(io)?.path();
            if p.extension().is_some_and(|x| x == "toml") {
                files.push(p);
            }
        }
        files.sort();
    } else {
        files.push(path.to_path_buf());
    }
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    let mut left = MAX_SOURCE_BYTES;
    for p in files {
        match read_bounded(&p, left) {
            Ok(bytes) => {
                left -= bytes.len() as u64;
                match String::from_utf8(bytes) {
                    Ok(text) => sources.push((p.display().to_string(), text)),
                    Err(e) => errors.push(refuse(
                        &p,
                        format!(
                            "cannot read: it is not UTF-8 text (byte {} is not)",
                            e.utf8_error().valid_up_to()
                        ),
                    )),
                }
            }
            // The directory's files together are over the limit: said of the directory.
            Err(ReadError::TooLarge { .. }) if left < MAX_SOURCE_BYTES => {
                errors.push(refuse(path, too_much));
                break;
            }
            Err(ReadError::TooLarge { .. }) => errors.push(refuse(&p, too_much.clone())),
            Err(e) => errors.push(refuse(e.path(), format!("cannot read: {}", e.reason()))),
        }
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(DataErrors(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::tests::{mkfifo, within_a_minute};
    use std::path::{Path, PathBuf};

    /// A fresh directory for one test.
    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("alembic-data-src-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// `read_sources(path)` on a thread that fails the test if it blocks.
    fn read(path: &Path) -> Result<Vec<(String, String)>, DataErrors> {
        let p = path.to_path_buf();
        within_a_minute(move || read_sources(&p))
    }

    /// The one error of `result`, as the loader prints it.
    fn one_error(result: Result<Vec<(String, String)>, DataErrors>) -> String {
        let e = result.unwrap_err();
        assert_eq!(e.errors().len(), 1, "{e}");
        assert_eq!(e.errors()[0].kind, ErrorKind::Invalid);
        e.to_string()
    }

    #[test]
    fn fifos_are_refused_as_a_path_and_inside_a_directory() {
        let d = dir("fifo");
        let fifo = d.join("pipe.toml");
        if !mkfifo(&fifo) {
            return; // no mkfifo here (not Unix): nothing to refuse
        }
        let said = format!(
            "{}:1:1: cannot read: it is a FIFO (named pipe), not a regular file",
            fifo.display()
        );
        assert_eq!(one_error(read(&fifo)), said);
        std::fs::write(d.join("a.toml"), "[tile.floor]\n").unwrap();
        assert_eq!(one_error(read(&d)), said);
        // A FIFO not named *.toml is not data: never opened, the rest is read.
        std::fs::remove_file(&fifo).unwrap();
        assert!(mkfifo(&d.join("pipe")));
        let read = read(&d).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].1, "[tile.floor]\n");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn devices_and_directories_where_a_file_is_expected_are_refused() {
        for dev in ["/dev/zero", "/dev/urandom"] {
            if Path::new(dev).exists() {
                assert_eq!(
                    one_error(read(Path::new(dev))),
                    format!("{dev}:1:1: cannot read: it is a character device, not a regular file")
                );
            }
        }
        let d = dir("dirs");
        std::fs::create_dir_all(d.join("sub.toml")).unwrap();
        let e = one_error(read(&d));
        assert_eq!(
            e,
            format!(
                "{}:1:1: cannot read: it is a directory, not a regular file",
                d.join("sub.toml").display()
            )
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn too_much_data_is_refused_before_it_is_read() {
        let d = dir("big");
        // Sparse files: the size is there, the disk blocks are not.
        let big = d.join("big.toml");
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(MAX_SOURCE_BYTES + 1))
            .unwrap();
        let e = one_error(read(&big));
        assert_eq!(
            e,
            format!(
                "{}:1:1: cannot read: it holds more than 16 MiB, the most data read from one path",
                big.display()
            )
        );
        // Two files under the limit each, over it together: said of the directory.
        std::fs::remove_file(&big).unwrap();
        for name in ["a.toml", "b.toml"] {
            std::fs::File::create(d.join(name))
                .and_then(|f| f.set_len(MAX_SOURCE_BYTES / 2 + 1))
                .unwrap();
        }
        let e = one_error(read(&d));
        assert!(
            e.starts_with(&format!(
                "{}:1:1: cannot read: it holds more than",
                d.display()
            )),
            "{e}"
        );
        // At the limit exactly, it is read.
        std::fs::remove_file(d.join("b.toml")).unwrap();
        std::fs::File::create(d.join("a.toml"))
            .and_then(|f| f.set_len(MAX_SOURCE_BYTES))
            .unwrap();
        let read = read(&d).unwrap();
        assert_eq!(read[0].1.len() as u64, MAX_SOURCE_BYTES);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn every_unreadable_file_of_a_directory_is_named() {
        let d = dir("many");
        std::fs::write(d.join("a.toml"), [0xff, 0xfe]).unwrap();
        std::fs::create_dir_all(d.join("b.toml")).unwrap();
        std::fs::write(d.join("c.toml"), "# fine").unwrap();
        let e = read(&d).unwrap_err();
        let files: Vec<&str> = e.errors().iter().map(|e| e.file.as_str()).collect();
        let (a, b) = (d.join("a.toml"), d.join("b.toml"));
        assert_eq!(files, [a.display().to_string(), b.display().to_string()]);
        assert!(
            e.errors()[0]
                .message
                .contains("not UTF-8 text (byte 0 is not)"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
