//! Saving and continuing Caves games, as Alchemy does: one JSON envelope (game name,
//! version, a checksum, the state), written atomically through [`alembic_session::storage`], checked on
//! the way back in (checksum, the engine's invariants, every hook name, the player).
//!
//! Since version 2 the state is the engine's [`SavedGame`]: the library by reference (its
//! name and version, [`LIBRARY_NAME`](super::LIBRARY_NAME)) plus only the prototypes play
//! changed, and each creature as its differences from its prototype, linked on load to this
//! build's library, so content fixes reach old saves; the checksum is a stable hash of the
//! state's exact bytes. Version 1 saves (the whole game value, library included, with the
//! engine's `state_hash` as the checksum) still load: they are moved onto this build's library
//! the same way, and the engine's actor queue, which they lack, is filled on the first turn.

use std::hash::Hasher;
use std::path::Path;

use alembic::{Game, hash::StableHasher, save::LoadError, save::SavedGame};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::hooks::hooks;
use super::library::CavesData;
use super::props::IS_HERO;
use super::view::player;
use alembic_session::gamedata::DataIdentity;
use alembic_session::storage;

/// The game name in saves and recordings.
pub const GAME_NAME: &str = "caves";
/// The save format this build writes for a game on the shipped data: 2, the library by
/// reference. It reads 1 to 3.
pub const SAVE_VERSION: u32 = 2;
/// The save format of a game on other data: version 2 plus the modes that name that data
/// (`mod:NAME`, `data:HASH`; see [`alembic_session::gamedata`]), under the checksum.
pub const DATA_SAVE_VERSION: u32 = 3;
/// The version that held the whole game value (read, never written).
pub const WHOLE_GAME_VERSION: u32 = 1;
/// The save file's name in the data directory.
pub const SAVE_FILE: &str = "caves.save";
/// Largest save read.
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

/// Why a Caves save could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CavesSaveError {
    /// The file system refused.
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
    /// Not JSON of the envelope's shape (truncated or not a save).
    #[error("not a valid Caves save: it is corrupt or truncated ({0})")]
    Corrupt(String),
    /// A save of another game.
    #[error("not a valid Caves save: it is a save of {0:?}")]
    WrongGame(String),
    /// A save format this build does not read.
    #[error("not a valid Caves save: save version {0} (this build reads 1 to {DATA_SAVE_VERSION})")]
    WrongVersion(u32),
    /// The state does not match the checksum written with it.
    #[error(
        "not a valid Caves save: its checksum does not match (the file was changed or damaged)"
    )]
    Checksum,
    /// The state could not be rebuilt on this build's library, or breaks the engine's rules.
    #[error("not a valid Caves save: {0}")]
    Load(#[from] LoadError),
    /// The engine refused (the state breaks its invariants, or a bug in the Caves' data).
    #[error("not a valid Caves save: {0}")]
    Engine(#[from] alembic::Error),
    /// The engine's invariants do not hold in the state read.
    #[error("not a valid Caves save: {0}")]
    Invariant(#[from] alembic::error::InvariantError),
    /// The player variable names nobody, or someone who is not the player.
    #[error("not a valid Caves save: the player is missing")]
    NoPlayer,
    /// The game could not be written as JSON (a bug).
    #[error("cannot encode the game: {0}")]
    Encode(String),
    /// The save was played with other data (other mods, or changed data files): the
    /// sentence says what differs. The file is untouched.
    #[error("{0}")]
    OtherData(alembic_session::gamedata::OtherData),
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    game: &'a str,
    version: u32,
    checksum: u64,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    modes: &'a [String],
    state: &'a RawValue,
}

#[derive(Deserialize)]
struct Header {
    game: String,
    version: u32,
}

#[derive(Deserialize)]
struct Envelope<S> {
    checksum: u64,
    #[serde(default)]
    modes: Vec<String>,
    state: S,
}

/// The checksum of a version 2 state: a stable hash of its exact bytes.
fn bytes_checksum(state: &str) -> u64 {
    let mut h = StableHasher::new();
    h.write(state.as_bytes());
    h.finish()
}

/// The save text of `game` (version [`SAVE_VERSION`]).
///
/// # Errors
/// [`CavesSaveError::Encode`] or an engine error (a bug).
pub fn to_text(game: &Game) -> Result<String, CavesSaveError> {
    to_text_on(game, &CavesData::shipped()?)
}

/// The save text of `game`, played on `data`: version [`SAVE_VERSION`] on the shipped
/// data, else [`DATA_SAVE_VERSION`] with the data's identity.
///
/// # Errors
/// As [`to_text`].
pub fn to_text_on(game: &Game, data: &CavesData) -> Result<String, CavesSaveError> {
    to_text_with(game, data, &data.identity.to_modes())
}

/// The save text of `game` played on `data`, with `modes`: the data's identity
/// ([`DataIdentity::to_modes`]) and the session's own modes (`practice`, `wizard`), kept
/// under the checksum. Version [`SAVE_VERSION`] without modes, else [`DATA_SAVE_VERSION`].
///
/// # Errors
/// As [`to_text`].
pub fn to_text_with(
    game: &Game,
    data: &CavesData,
    modes: &[String],
) -> Result<String, CavesSaveError> {
    let state = SavedGame::of(game, &data.library)?.to_json()?;
    let (version, checksum) = if modes.is_empty() {
        (SAVE_VERSION, bytes_checksum(&state))
    } else {
        (
            DATA_SAVE_VERSION,
            storage::modes_checksum(modes.iter().map(String::as_str), &state),
        )
    };
    let state = RawValue::from_string(state).map_err(|e| CavesSaveError::Encode(e.to_string()))?;
    serde_json::to_string(&EnvelopeOut {
        game: GAME_NAME,
        version,
        checksum,
        modes,
        state: &state,
    })
    .map_err(|e| CavesSaveError::Encode(e.to_string()))
}

/// Write `game` to `path` atomically, once its bytes load back through [`from_text`].
///
/// # Errors
/// [`CavesSaveError`]: the loader's own error when the bytes would not load; the previous
/// save is kept then.
pub fn save(game: &Game, path: &Path) -> Result<(), CavesSaveError> {
    save_on(game, path, &CavesData::shipped()?)
}

/// [`save`] for a game played on `data`.
///
/// # Errors
/// As [`save`].
pub fn save_on(game: &Game, path: &Path, data: &CavesData) -> Result<(), CavesSaveError> {
    let text = to_text_on(game, data)?;
    // Write only what loads: the bytes go through the loader's own checks before they
    // replace anything, so the next continue never refuses a game this wrote.
    let _loaded = from_text_on(&text, data)?;
    storage::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// A Caves game from save text, checked; versions 1 and 2.
///
/// # Errors
/// [`CavesSaveError`]; nothing is half-loaded.
pub fn from_text(text: &str) -> Result<Game, CavesSaveError> {
    from_text_on(text, &CavesData::shipped()?)
}

/// [`from_text`] for a game played on `data`: a save made on other data is refused with
/// one sentence ([`CavesSaveError::OtherData`]).
///
/// # Errors
/// As [`from_text`].
pub fn from_text_on(text: &str, data: &CavesData) -> Result<Game, CavesSaveError> {
    from_text_with(text, data).map(|(game, _)| game)
}

/// [`from_text_on`], also answering the save's modes (the data's and the session's).
///
/// # Errors
/// As [`from_text_on`].
pub fn from_text_with(text: &str, data: &CavesData) -> Result<(Game, Vec<String>), CavesSaveError> {
    let corrupt = |e: serde_json::Error| CavesSaveError::Corrupt(e.to_string());
    let header: Header = serde_json::from_str(text).map_err(corrupt)?;
    if header.game != GAME_NAME {
        return Err(CavesSaveError::WrongGame(header.game));
    }
    let (base, hooks) = (&data.library, hooks()?);
    let other_data = |modes: &[String]| {
        data.identity
            .check_save(&DataIdentity::from_modes(modes))
            .map_err(CavesSaveError::OtherData)
    };
    let mut kept = Vec::new();
    let game = match header.version {
        WHOLE_GAME_VERSION => {
            other_data(&[])?;
            let env: Envelope<Box<RawValue>> = serde_json::from_str(text).map_err(corrupt)?;
            // The checksum is the state hash as written, before the engine's 0.2 migration.
            if alembic::save::written_state_hash(env.state.get())? != env.checksum {
                return Err(CavesSaveError::Checksum);
            }
            let state: Game = serde_json::from_str(env.state.get()).map_err(corrupt)?;
            state.check_invariants()?;
            // Onto this build's library: each creature as its differences from the prototype
            // it was made from, then rebuilt on today's prototype.
            let old = state.library().clone();
            let game = SavedGame::of(&state, &old)?.link(base, &hooks)?;
            // Linked, and held to today's library as a save of this version is.
            alembic::save::check_against_library(&game, base)?;
            game
        }
        SAVE_VERSION | DATA_SAVE_VERSION => {
            let env: Envelope<Box<RawValue>> = serde_json::from_str(text).map_err(corrupt)?;
            let state = env.state.get();
            let found = if header.version == SAVE_VERSION {
                bytes_checksum(state)
            } else {
                storage::modes_checksum(env.modes.iter().map(String::as_str), state)
            };
            if found != env.checksum {
                return Err(CavesSaveError::Checksum);
            }
            let modes = if header.version == SAVE_VERSION {
                &[][..]
            } else {
                &env.modes[..]
            };
            other_data(modes)?;
            kept = modes.to_vec();
            SavedGame::from_json(state, base)?.link(base, &hooks)?
        }
        other => return Err(CavesSaveError::WrongVersion(other)),
    };
    let p = player(&game).map_err(|_| CavesSaveError::NoPlayer)?;
    if !game.things().contains(p) || !game.is(p, &IS_HERO) {
        return Err(CavesSaveError::NoPlayer);
    }
    Ok((game, kept))
}

/// Read a Caves game from `path`, checked (see [`from_text`]).
///
/// # Errors
/// [`CavesSaveError`]; nothing is half-loaded.
pub fn load(path: &Path) -> Result<Game, CavesSaveError> {
    load_on(path, &CavesData::shipped()?)
}

/// [`load`] for a game played on `data`.
///
/// # Errors
/// As [`load`]; [`CavesSaveError::OtherData`] for a save made on other data.
pub fn load_on(path: &Path, data: &CavesData) -> Result<Game, CavesSaveError> {
    let bytes = storage::read_bounded(path, MAX_SAVE_BYTES)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CavesSaveError::Corrupt("not UTF-8 text".to_string()))?;
    from_text_on(&text, data)
}
