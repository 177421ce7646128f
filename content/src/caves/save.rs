//! Saving and continuing Caves games, as Alchemy does: one JSON envelope (game name,
//! version, the state hash as a checksum, the game value), written atomically through
//! [`crate::storage`], checked on the way back in (checksum, the engine's invariants, every
//! hook name, the player).

use std::path::Path;

use alembic::Game;
use serde::{Deserialize, Serialize};

use super::data::{IS_HERO, hooks};
use super::rules::player;
use crate::storage;

/// The game name in saves and recordings.
pub const GAME_NAME: &str = "caves";
/// The save format this build writes and reads.
pub const SAVE_VERSION: u32 = 1;
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
    /// Not a Caves save of this version, or damaged.
    #[error("not a valid Caves save: {0}")]
    Invalid(String),
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    game: &'a str,
    version: u32,
    checksum: u64,
    state: &'a Game,
}

#[derive(Deserialize)]
struct EnvelopeIn {
    game: String,
    version: u32,
    checksum: u64,
    state: Game,
}

/// Write `game` to `path` atomically.
///
/// # Errors
/// [`CavesSaveError`].
pub fn save(game: &Game, path: &Path) -> Result<(), CavesSaveError> {
    let text = serde_json::to_string(&EnvelopeOut {
        game: GAME_NAME,
        version: SAVE_VERSION,
        checksum: game.state_hash(),
        state: game,
    })
    .map_err(|e| CavesSaveError::Invalid(e.to_string()))?;
    storage::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// Read a Caves game from `path`, checked.
///
/// # Errors
/// [`CavesSaveError`]; nothing is half-loaded.
pub fn load(path: &Path) -> Result<Game, CavesSaveError> {
    let bytes = storage::read_bounded(path, MAX_SAVE_BYTES)?;
    let env: EnvelopeIn =
        serde_json::from_slice(&bytes).map_err(|e| CavesSaveError::Invalid(e.to_string()))?;
    let invalid = |s: String| Err(CavesSaveError::Invalid(s));
    if env.game != GAME_NAME {
        return invalid(format!("it is a save of {:?}", env.game));
    }
    if env.version != SAVE_VERSION {
        return invalid(format!(
            "save version {} (this build reads {SAVE_VERSION})",
            env.version
        ));
    }
    let game = env.state;
    if game.state_hash() != env.checksum {
        return invalid("its checksum does not match (the file was changed or damaged)".into());
    }
    game.check_invariants()
        .map_err(|e| CavesSaveError::Invalid(e.to_string()))?;
    let hooks = &hooks().map_err(|e| CavesSaveError::Invalid(e.to_string()))?;
    game.check_hooks(hooks)
        .map_err(|e| CavesSaveError::Invalid(e.to_string()))?;
    let p = player(&game).map_err(|e| CavesSaveError::Invalid(format!("no player: {e}")))?;
    if !game.contains(p) || !game.is(p, &IS_HERO) {
        return invalid("the player is missing".into());
    }
    Ok(game)
}
