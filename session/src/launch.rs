//! What a launcher and a game share: the options a player starts a game with, why a game
//! could not start, where saves live, and how a session's end is reported.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What the player asked for on the command line (shared by every frontend).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchOptions {
    /// The game's name, one of the registry's games (`alembic-games`).
    pub game: String,
    /// Seed for a new game; `None` picks one from the clock.
    pub seed: Option<u64>,
    /// Continue from this save file instead of starting anew.
    pub load: Option<PathBuf>,
    /// Graphical tiles: `None` when the frontend cannot draw them (a terminal), else whether
    /// the map starts in tiles (`--tiles`); the player toggles them in game.
    pub tiles: Option<bool>,
    /// New games are practice games (`--practice`): undo with `U`, marked in the save and
    /// the recording, never scored.
    pub practice: bool,
    /// Watch this recording instead of playing.
    pub replay: Option<PathBuf>,
    /// New games are wizard games (`--wizard`): a console of wizard commands; marked in the
    /// save and the recording, never scored.
    pub wizard: bool,
    /// The data to play with: the shipped data or a data directory, and the mods.
    pub data: crate::gamedata::DataChoice,
}

/// Why a game could not be started.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// No game has that name.
    #[error("unknown game {name:?}; valid games: {known}")]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The valid names, comma-separated.
        known: String,
    },
    /// The save file could not be read.
    #[error("cannot read save file {}: {source}", path.display())]
    ReadSave {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The save file was read but is not a valid save of this game.
    #[error("{} is not a valid {game} save: {source}", path.display())]
    BadSave {
        /// The file.
        path: PathBuf,
        /// The game that tried to load it.
        game: String,
        /// What is wrong with it: the game's own save error (such as
        /// `CavesSaveError` of the Caves), to downcast.
        source: Cause,
    },
    /// The save is open in another window (its lock is held), or its lock cannot be taken
    /// (the game is never played unlocked).
    #[error("{0}")]
    Busy(crate::storage::StorageError),
    /// The recording cannot be watched (unreadable, another game's, newer, or it diverges).
    #[error("cannot replay {}: {source}", path.display())]
    BadReplay {
        /// The file.
        path: PathBuf,
        /// What is wrong with it: the game's own error, to downcast.
        source: Cause,
    },
    /// This game has no replay viewer.
    #[error(
        "{game} has no replay viewer yet (alembic-sim --replay FILE --verify checks its recordings)"
    )]
    NoReplay {
        /// The game asked for.
        game: String,
    },
    /// This game cannot play with other data yet (`--data`, `--mod` or the mods folder).
    #[error(
        "{game} cannot load mods or a data directory: its content is Rust code (alchemy \
         and caves can load them); start it without --data and --mod, with no mods in its \
         mods folder"
    )]
    NoMods {
        /// The game asked for.
        game: String,
    },
    /// The data files or mods have mistakes: every one, with `file:line:column`.
    #[error("cannot start {game}: its data has mistakes:\n{source}")]
    Data {
        /// The game.
        game: String,
        /// Every mistake.
        source: alembic_data::DataErrors,
    },
    /// The game could not be set up (a bug in its data or rules).
    #[error("cannot start {game}: {source}")]
    Setup {
        /// The game.
        game: String,
        /// What went wrong: the game's own error, to downcast.
        source: Cause,
    },
}

/// The game's own error inside a [`LaunchError`]: typed (downcast it with
/// `downcast_ref`), shown by its `Display`.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// A game's library in numbers: `(what, how many)` in the game's own order.
pub type LibraryCounts = Vec<(&'static str, usize)>;

/// Read a save file through the bounded reader, as text: the errors a launcher reports.
///
/// # Errors
/// [`LaunchError::ReadSave`] or [`LaunchError::BadSave`].
pub fn read_save(path: &Path, game: &str) -> Result<String, LaunchError> {
    // The bounded reader: a FIFO or a device is refused at once, a huge file is not read.
    let bytes = crate::storage::read_bounded(path, crate::storage::MAX_FILE_BYTES).map_err(
        |e| match e {
            crate::storage::StorageError::Io { path, source } => {
                LaunchError::ReadSave { path, source }
            }
            other => LaunchError::BadSave {
                path: path.to_path_buf(),
                game: game.to_string(),
                source: Box::new(other),
            },
        },
    )?;
    String::from_utf8(bytes).map_err(|e| LaunchError::BadSave {
        path: path.to_path_buf(),
        game: game.to_string(),
        source: Box::new(e.utf8_error()),
    })
}

/// From how many moves brought back a continue is announced first ("Bringing back the
/// 12000 moves recorded after the save…"), the screen drawn before the work starts (and
/// `--load` reports its progress on stderr, [`continue_progress`]).
pub const LONG_CONTINUE: usize = 5_000;

/// The progress of a long continue on stderr, for a launcher before its terminal or
/// window opens ([`crate::run::Run::load_reporting`]): nothing for fewer than 5,000 moves
/// (well under a second), else "bringing back the moves ... N of M" on one line rewritten
/// in place, ended when all are back. Write errors are ignored (a closed stderr).
pub fn continue_progress(done: usize, total: usize) {
    use std::io::Write;
    if total < LONG_CONTINUE {
        return;
    }
    let mut err = std::io::stderr();
    let _ = write!(
        err,
        "\rBringing back the {total} moves recorded after the save: {done} of {total}"
    );
    if done >= total {
        let _ = writeln!(err);
    }
    let _ = err.flush();
}

/// A seed from the clock, for games started without `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 ^ d.as_secs().rotate_left(32))
        .unwrap_or(0x5EED)
}

/// The directory for save files: `$XDG_DATA_HOME/alembic`, else `$HOME/.local/share/alembic`;
/// `None` when neither variable is usable. (Not created here.)
#[must_use]
pub fn save_dir() -> Option<PathBuf> {
    save_dir_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

/// [`save_dir`] from given values of `XDG_DATA_HOME` and `HOME`. Per the XDG spec an empty or
/// relative `XDG_DATA_HOME` is ignored.
#[must_use]
pub fn save_dir_from(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let usable = |v: Option<OsString>| {
        v.map(PathBuf::from)
            .filter(|p| !p.as_os_str().is_empty() && p.is_absolute())
    };
    if let Some(xdg) = usable(xdg_data_home) {
        return Some(xdg.join("alembic"));
    }
    usable(home).map(|h| h.join(".local").join("share").join("alembic"))
}

/// A seed from what a player typed: a number is itself, any other text is hashed (FNV-1a,
/// stable across runs and platforms), so "bob" is always the same game.
#[must_use]
pub fn seed_from_text(text: &str) -> u64 {
    let t = text.trim();
    t.parse::<u64>().unwrap_or_else(|_| {
        t.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    })
}

/// Print how a session ended, for a frontend once its terminal or window is gone: the app's
/// farewell (where the game was saved, or why saving failed), then the frontend's own error,
/// each as a `program: …` line on stderr (`farewell`'s error is the app's
/// [`alembic_ui::FarewellError`] where there are screens). Returns whether all went well
/// (exit status 0).
/// A stderr that cannot be written (the terminal it was is gone) is no reason to panic, as
/// `eprintln!` would: the lines are lost, the status stands.
pub fn report_session_end<F: std::fmt::Display, E: std::fmt::Display>(
    program: &str,
    farewell: Result<Option<String>, F>,
    run: Result<(), E>,
) -> bool {
    use std::io::Write as _;
    let mut stderr = std::io::stderr().lock();
    let mut ok = true;
    match farewell {
        Ok(Some(line)) => {
            let _ = writeln!(stderr, "{program}: {line}");
        }
        Ok(None) => {}
        Err(e) => {
            let _ = writeln!(stderr, "{program}: error: {e}");
            ok = false;
        }
    }
    if let Err(e) = run {
        let _ = writeln!(stderr, "{program}: error: {e}");
        ok = false;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_dir_respects_xdg_then_home() {
        let d = save_dir_from(Some("/x/data".into()), Some("/home/a".into()));
        assert_eq!(d, Some(PathBuf::from("/x/data/alembic")));
        let d = save_dir_from(Some("relative".into()), Some("/home/a".into()));
        assert_eq!(d, Some(PathBuf::from("/home/a/.local/share/alembic")));
        let d = save_dir_from(Some("".into()), Some("/home/a".into()));
        assert_eq!(d, Some(PathBuf::from("/home/a/.local/share/alembic")));
        assert_eq!(save_dir_from(None, None), None);
    }
}
