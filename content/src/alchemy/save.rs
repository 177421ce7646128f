//! Saving and loading: the whole game value as JSON inside an envelope naming the game and
//! the envelope's version. Saves go to a temporary file that is then renamed over the old
//! save, so a crash mid-save never loses the previous one. Loading never panics: corrupt,
//! truncated, other-game and other-version files, and unknown hook names, are clear errors.

use std::io::Write;
use std::path::{Path, PathBuf};

use alembic::{Game, Hooks};
use serde::{Deserialize, Serialize};

/// The envelope's version; loading another is refused.
pub const SAVE_VERSION: u32 = 1;
/// The name written in Alchemy saves.
pub const GAME_NAME: &str = "alchemy";

/// Why a save could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The file system said no.
    #[error("cannot access save file {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not a readable save (corrupt or truncated).
    #[error("the save is corrupt or truncated: {0}")]
    Corrupt(String),
    /// A save of another game.
    #[error("this is a save of {0:?}, not of {GAME_NAME:?}")]
    WrongGame(String),
    /// A save from another version.
    #[error("this save has version {found}; this build reads version {SAVE_VERSION}")]
    WrongVersion {
        /// The version in the file.
        found: u32,
    },
    /// The save names behaviour this build does not have.
    #[error("the save refers to unknown behaviour: {0}")]
    UnknownHook(String),
    /// The game value could not be written.
    #[error("cannot encode the game: {0}")]
    Encode(String),
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    game: &'a str,
    version: u32,
    state: &'a Game,
}

#[derive(Deserialize)]
struct Header {
    game: String,
    version: u32,
}

#[derive(Deserialize)]
struct EnvelopeIn {
    state: Game,
}

/// The save text of `game`.
pub fn to_text(game: &Game) -> Result<String, SaveError> {
    serde_json::to_string(&EnvelopeOut {
        game: GAME_NAME,
        version: SAVE_VERSION,
        state: game,
    })
    .map_err(|e| SaveError::Encode(e.to_string()))
}

/// A game from save text, checked: right game, right version, consistent value (the
/// engine verifies its invariants), every hook known to `hooks`.
pub fn from_text(text: &str, hooks: &Hooks) -> Result<Game, SaveError> {
    let header: Header =
        serde_json::from_str(text).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    if header.game != GAME_NAME {
        return Err(SaveError::WrongGame(header.game));
    }
    if header.version != SAVE_VERSION {
        return Err(SaveError::WrongVersion {
            found: header.version,
        });
    }
    let env: EnvelopeIn =
        serde_json::from_str(text).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    env.state
        .check_hooks(hooks)
        .map_err(|e| SaveError::UnknownHook(e.to_string()))?;
    Ok(env.state)
}

/// Write `game` to `path` atomically (temporary file, flush, rename).
pub fn save(game: &Game, path: &Path) -> Result<(), SaveError> {
    let text = to_text(game)?;
    let tmp = path.with_extension("tmp");
    let io = |source| SaveError::Io {
        path: tmp.clone(),
        source,
    };
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|source| SaveError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Read a game from `path` (see [`from_text`] for the checks).
pub fn load(path: &Path, hooks: &Hooks) -> Result<Game, SaveError> {
    let bytes = std::fs::read(path).map_err(|source| SaveError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| SaveError::Corrupt("not UTF-8 text".into()))?;
    from_text(&text, hooks)
}
