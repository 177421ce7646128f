//! Save files for every [`Ruleset`](crate::Ruleset): one JSON envelope (the game's name, its save version,
//! the seed, the modes such as `practice`, a checksum, the state), written atomically and
//! checked on the way back in (name, version, checksum, the engine's invariants after the
//! state is linked to this build's library and hooks). A bad file changes nothing.
//!
//! The state is the engine's [`SavedGame`]: the library by reference plus what play
//! changed, so content fixes reach old saves.

use std::hash::Hasher;

use alembic::{Game, Hooks, Library, hash::StableHasher, save::LoadError, save::SavedGame};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::modes::{Modes, UnknownMode};
use crate::storage::StorageError;

/// Largest save read.
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

/// Why a save could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The file system refused.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// Not JSON of the envelope's shape (truncated, or not a save).
    #[error("not a valid {game} save: it is corrupt or truncated ({why})")]
    Corrupt {
        /// The game that tried to read it.
        game: &'static str,
        /// What the parser said.
        why: String,
    },
    /// A save of another game.
    #[error("not a valid {wanted} save: it is a save of {found:?}")]
    WrongGame {
        /// The game that tried to read it.
        wanted: &'static str,
        /// The game it is a save of.
        found: String,
    },
    /// A save format this build does not read.
    #[error("not a valid {game} save: save version {found} (this build reads {reads})")]
    WrongVersion {
        /// The game.
        game: &'static str,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        reads: u32,
    },
    /// The state does not match the checksum written with it.
    #[error("not a valid {0} save: its checksum does not match (the file was changed or damaged)")]
    Checksum(&'static str),
    /// The state could not be linked to this build's library, or breaks the engine's rules.
    #[error("not a valid save: {0}")]
    Load(#[from] LoadError),
    /// A mode this version does not know (the file came from elsewhere).
    #[error("not a valid {game} save: {why}")]
    Modes {
        /// The game that tried to read it.
        game: &'static str,
        /// The mode.
        why: UnknownMode,
    },
    /// The engine refused (a bug in the game's data).
    #[error("not a valid save: {0}")]
    Engine(#[from] alembic::Error),
    /// The engine's invariants do not hold in the state read.
    #[error("not a valid save: {0}")]
    Invariant(#[from] alembic::error::InvariantError),
}

/// A save, read and checked.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The game.
    pub game: Game,
    /// Its seed, when the save keeps it (`None`: a format that does not, such as
    /// Alchemy's; the recording beside the save may still know it).
    pub seed: Option<u64>,
    /// Its modes (practice, wizard, data).
    pub modes: Modes,
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    game: &'a str,
    version: u32,
    seed: u64,
    checksum: u64,
    modes: &'a [String],
    state: &'a RawValue,
}

#[derive(Deserialize)]
struct EnvelopeIn<'a> {
    game: String,
    version: u32,
    seed: u64,
    checksum: u64,
    #[serde(default)]
    modes: Vec<String>,
    #[serde(borrow)]
    state: &'a RawValue,
}

/// The checksum of a save: a stable hash of its seed, modes and the state's exact bytes.
fn checksum(seed: u64, modes: &[String], state: &str) -> u64 {
    let mut h = StableHasher::new();
    h.write_u64(seed);
    for m in modes {
        h.write(m.as_bytes());
        h.write_u8(0);
    }
    h.write(state.as_bytes());
    h.finish()
}

/// The save text of `game`, a game of `name` (save format `version`) made from `library`.
/// What [`Ruleset::save_text`](crate::Ruleset::save_text) does unless a game has its own
/// format.
///
/// # Errors
/// The engine could not describe the game against the library (a bug).
pub fn to_text(
    name: &'static str,
    version: u32,
    library: &Library,
    game: &Game,
    seed: u64,
    modes: &Modes,
) -> Result<String, SaveError> {
    let modes = &modes.to_strings();
    let state = SavedGame::of(game, library)?.to_json()?;
    let raw = RawValue::from_string(state).map_err(|e| SaveError::Corrupt {
        game: name,
        why: e.to_string(),
    })?;
    let out = EnvelopeOut {
        game: name,
        version,
        seed,
        checksum: checksum(seed, modes, raw.get()),
        modes,
        state: &raw,
    };
    serde_json::to_string(&out).map_err(|e| SaveError::Corrupt {
        game: name,
        why: e.to_string(),
    })
}

/// Read a save text of a game of `name` (save format `version`), checked and linked to
/// `library` and `hooks`. What [`Ruleset::load_text`](crate::Ruleset::load_text) does unless
/// a game has its own format.
///
/// # Errors
/// [`SaveError`]: nothing is half-loaded.
pub fn from_text(
    name: &'static str,
    version: u32,
    library: &Library,
    hooks: &Hooks,
    text: &str,
) -> Result<Saved, SaveError> {
    let corrupt = |e: serde_json::Error| SaveError::Corrupt {
        game: name,
        why: e.to_string(),
    };
    let env: EnvelopeIn<'_> = serde_json::from_str(text).map_err(corrupt)?;
    if env.game != name {
        return Err(SaveError::WrongGame {
            wanted: name,
            found: env.game,
        });
    }
    if env.version != version {
        return Err(SaveError::WrongVersion {
            game: name,
            found: env.version,
            reads: version,
        });
    }
    if checksum(env.seed, &env.modes, env.state.get()) != env.checksum {
        return Err(SaveError::Checksum(name));
    }
    let modes = Modes::parse(&env.modes).map_err(|why| SaveError::Modes { game: name, why })?;
    let game = SavedGame::from_json(env.state.get(), library)?.link(library, hooks)?;
    game.check_invariants()?;
    Ok(Saved {
        game,
        seed: Some(env.seed),
        modes,
    })
}
