//! Saving and loading: the game as JSON inside an envelope naming the game, the envelope's
//! version and a checksum of the state.
//!
//! Since version 3 the state is the engine's [`SavedGame`]: the library by reference (only
//! what play changed in it, such as identified potions) and each thing as its differences
//! from its prototype, linked on load to this build's library, so content fixes reach old
//! saves. The checksum covers the state's exact bytes. Versions 1 and 2 (the whole game
//! value, library included, with the engine's `state_hash` as the checksum) still load, and
//! are held to this build's library ([`alembic::save::check_against_library`]): a thing
//! of a prototype it lacks, or a property of another kind than it declares, is refused.
//!
//! Writing goes through [`alembic_session::storage::write_atomic`]: a unique temporary file, flushed,
//! renamed over the old save, the directory flushed, the result read back. A crash or
//! `kill -9` at any moment leaves the old save or the new one, never a torn file.
//!
//! Loading never panics and never hangs. It reads only regular files of at most
//! [`MAX_SAVE_BYTES`], refuses other games and versions, recomputes the checksum, then
//! [`validate`]s the value: the engine's invariants, every hook known, and Alchemy's own
//! references and ranges (the hero exists and is the hero, counters and hit points are in
//! range, messages are of sane length). Anything that loads can be played.

use std::path::{Path, PathBuf};

use std::hash::Hasher;

use alembic::{Game, Hooks, ThingId, hash::StableHasher, save::LoadError, save::SavedGame};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::Rules;
use super::props::{
    DEEPEST, HERO, HPS, HPS_MAX, IS_CREATURE, IS_HERO, KILLS, MAX_HIT_POINTS, MSG_COUNT, REGEN_ACC,
    TIME,
};
use alembic_session::Modes;
use alembic_session::gamedata::DataIdentity;
use alembic_session::storage::{self, StorageError};

/// The envelope's version. Version 4 brings the modes under the checksum (a practice save
/// relabelled as a normal game no longer loads); version 3 saves the library by reference
/// ([`SavedGame`]); version 2 added the checksum; versions 1 to 3 still load, checked like
/// any other.
pub const SAVE_VERSION: u32 = 4;
/// The largest save file read: 64 MiB (a real save is under 2 MiB).
pub const MAX_SAVE_BYTES: u64 = storage::MAX_FILE_BYTES;
/// The longest message a save may hold, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;
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
    /// Not a file, too big, or not written back intact.
    #[error("{0}")]
    Storage(StorageError),
    /// Not a readable save (corrupt or truncated).
    #[error("the save is corrupt or truncated: {0}")]
    Corrupt(String),
    /// A save of another game.
    #[error("this is a save of {0:?}, not of {GAME_NAME:?}")]
    WrongGame(String),
    /// A save from another version.
    #[error("this save has version {found}; this build reads versions 1 to {SAVE_VERSION}")]
    WrongVersion {
        /// The version in the file.
        found: u32,
    },
    /// The state does not match the checksum written with it.
    #[error(
        "the save is corrupt: its checksum is {expected:016x} but its content hashes to {found:016x}"
    )]
    Checksum {
        /// The checksum in the envelope.
        expected: u64,
        /// The hash of the state read.
        found: u64,
    },
    /// The save names behaviour this build does not have.
    #[error("the save refers to unknown behaviour: {0}")]
    UnknownHook(String),
    /// The state is well formed but is not a playable Alchemy game.
    #[error("the save is not a playable game: {0}")]
    Invalid(String),
    /// The game value could not be written.
    #[error("cannot encode the game: {0}")]
    Encode(String),
    /// The save was played with other data (other mods, or changed data files): the
    /// sentence says what differs. The file is untouched.
    #[error("{0}")]
    OtherData(alembic_session::gamedata::OtherData),
}

impl From<StorageError> for SaveError {
    fn from(e: StorageError) -> Self {
        match e {
            StorageError::Io { path, source } => SaveError::Io { path, source },
            other => SaveError::Storage(other),
        }
    }
}

/// What a save file holds: which game, the envelope's version, the state's checksum (its
/// `state_hash`; absent in version 1) and the state. `G` is `&Game` when writing and `Game`
/// when reading. Any serde format can carry it (the `save_format` benchmark compares two).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Envelope<G> {
    /// The game's name, [`GAME_NAME`].
    pub game: String,
    /// [`SAVE_VERSION`] when written by this build.
    pub version: u32,
    /// The state's `state_hash`.
    #[serde(default)]
    pub checksum: Option<u64>,
    /// How the game is played, when not normally: `practice` (undo allowed), `wizard`; such
    /// games are never scored. Absent in saves before this field (read as none). Always
    /// written, so formats that are not self-describing (postcard) read it back.
    #[serde(default)]
    pub modes: Vec<String>,
    /// The game value.
    pub state: G,
}

/// The version of the whole-game form: the game value in full, library included, with its
/// `state_hash` as the checksum. This build still reads it; [`to_text`] writes version 3.
pub const WHOLE_GAME_VERSION: u32 = 2;

impl<'a> Envelope<&'a Game> {
    /// The whole-game envelope ([`WHOLE_GAME_VERSION`]) for `game`: what builds before
    /// version 3 wrote, and a format any serde format can carry.
    #[must_use]
    pub fn of(game: &'a Game) -> Self {
        Envelope {
            game: GAME_NAME.to_string(),
            version: WHOLE_GAME_VERSION,
            checksum: Some(game.state_hash()),
            modes: Vec::new(),
            state: game,
        }
    }
}

#[derive(Deserialize)]
struct Header {
    game: String,
    version: u32,
}

/// The save text of `game`, a game on the shipped data (a game on other data:
/// [`to_text_with_modes`] with its rules).
pub fn to_text(game: &Game) -> Result<String, SaveError> {
    let rules = Rules::new().map_err(|e| SaveError::Encode(e.to_string()))?;
    to_text_with_modes(game, &Modes::none(), &rules)
}

/// The save text of `game`, played under `rules`, marked with `modes`' practice and wizard
/// and with the identity of the rules' data (its mods and hash, when it is not the shipped
/// data alone; see [`alembic_session::gamedata`]; `modes.data` is not read). The envelope
/// lists `practice`, `wizard`, then the data's modes, as every version 4 save has.
pub fn to_text_with_modes(game: &Game, modes: &Modes, rules: &Rules) -> Result<String, SaveError> {
    let base = rules.base_library();
    let data_modes = rules.data_identity().to_modes();
    let modes: Vec<&str> = modes
        .game_modes()
        .into_iter()
        .chain(data_modes.iter().map(String::as_str))
        .collect();
    let modes = modes.as_slice();
    let state = SavedGame::of(game, base)
        .map_err(|e| SaveError::Encode(e.to_string()))?
        .to_json()
        .map_err(|e| SaveError::Encode(e.to_string()))?;
    let checksum = storage::modes_checksum(modes.iter().copied(), &state);
    envelope_around(checksum, modes, state)
}

/// The envelope's JSON with `state` (JSON text) as its last field: the envelope written
/// with a placeholder state, which `state` then replaces. The same bytes as writing it
/// with `state` as a `RawValue`, without parsing the state again to make one (a third of
/// the cost of writing a save).
fn envelope_around(checksum: u64, modes: &[&str], state: String) -> Result<String, SaveError> {
    let env = Envelope {
        game: GAME_NAME.to_string(),
        version: SAVE_VERSION,
        checksum: Some(checksum),
        modes: modes.iter().map(|m| (*m).to_owned()).collect(),
        state: 0u8,
    };
    let mut text = serde_json::to_string(&env).map_err(|e| SaveError::Encode(e.to_string()))?;
    const PLACEHOLDER: &str = "\"state\":0}";
    if !text.ends_with(PLACEHOLDER) {
        // Never with serde_json's field order; the checked way if it ever changes.
        let state = RawValue::from_string(state).map_err(|e| SaveError::Encode(e.to_string()))?;
        let env = Envelope {
            game: env.game,
            version: env.version,
            checksum: env.checksum,
            modes: env.modes,
            state,
        };
        return serde_json::to_string(&env).map_err(|e| SaveError::Encode(e.to_string()));
    }
    text.truncate(text.len() - 2);
    text.reserve(state.len() + 1);
    text.push_str(&state);
    text.push('}');
    Ok(text)
}

/// The checksum of a version 3 state: a stable hash of its exact bytes.
fn bytes_checksum(state: &str) -> u64 {
    let mut h = StableHasher::new();
    h.write(state.as_bytes());
    h.finish()
}

/// Save text of version 3 or 4 with its checksum recomputed for what it holds now: for
/// tools and fuzzers that edit a save's state or modes and want the loader's own checks
/// (not the checksum) to judge it. The state's bytes are kept as they are.
///
/// # Errors
/// [`SaveError::Corrupt`] when the text is not a version 3 or 4 envelope.
pub fn reseal(text: &str) -> Result<String, SaveError> {
    let env: Envelope<Box<RawValue>> =
        serde_json::from_str(text).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    let state = env.state.get();
    let checksum = match env.version {
        3 => bytes_checksum(state),
        4 => storage::modes_checksum(env.modes.iter().map(String::as_str), state),
        v => return Err(SaveError::Corrupt(format!("cannot reseal version {v}"))),
    };
    let env = Envelope {
        checksum: Some(checksum),
        ..env
    };
    serde_json::to_string(&env).map_err(|e| SaveError::Encode(e.to_string()))
}

/// The modes a save is marked with (empty for a normal game, and for text that is not a
/// save: [`from_text`] reports those).
#[must_use]
pub fn modes_of(text: &str) -> Vec<String> {
    #[derive(Deserialize)]
    struct Modes {
        #[serde(default)]
        modes: Vec<String>,
    }
    serde_json::from_str::<Modes>(text)
        .map(|m| m.modes)
        .unwrap_or_default()
}

/// A game from save text, checked: right game, right version, the checksum, its modes
/// known ([`Modes::parse`]), then [`validate`].
///
/// # Errors
/// [`SaveError`] naming what is wrong; nothing is half-loaded.
pub fn from_text(text: &str, rules: &Rules) -> Result<Game, SaveError> {
    let hooks = rules.hooks();
    let header: Header =
        serde_json::from_str(text).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    if header.game != GAME_NAME {
        return Err(SaveError::WrongGame(header.game));
    }
    if !(1..=SAVE_VERSION).contains(&header.version) {
        return Err(SaveError::WrongVersion {
            found: header.version,
        });
    }
    if header.version >= 3 {
        return from_v3(text, header.version, rules);
    }
    // Versions 1 and 2 knew no mods: they were played on the shipped data.
    rules
        .data_identity()
        .check_save(&DataIdentity::shipped())
        .map_err(SaveError::OtherData)?;
    let corrupt = |e: serde_json::Error| SaveError::Corrupt(e.to_string());
    let env: Envelope<Box<RawValue>> = serde_json::from_str(text).map_err(corrupt)?;
    let raw = env.state.get();
    match env.checksum {
        Some(expected) => {
            // The state hash as written, before the engine's 0.2 migration renames keys.
            let found = alembic::save::written_state_hash(raw)
                .map_err(|e| SaveError::Corrupt(e.to_string()))?;
            if found != expected {
                return Err(SaveError::Checksum { expected, found });
            }
        }
        None if header.version >= 2 => {
            return Err(SaveError::Corrupt("the checksum is missing".into()));
        }
        None => {}
    }
    let state: Game = serde_json::from_str(raw).map_err(corrupt)?;
    validate(&state, hooks)?;
    // The whole game, its library copied in: held to this build's library as a save of
    // the current version is when it links.
    alembic::save::check_against_library(&state, rules.base_library())
        .map_err(|e| SaveError::Invalid(e.to_string()))?;
    Ok(state)
}

/// Read a version 3 or 4 save: check the checksum over the state's bytes (and, from version 4,
/// its modes), link the state to this
/// build's library (the engine checks invariants and hooks), then [`validate`].
fn from_v3(text: &str, version: u32, rules: &Rules) -> Result<Game, SaveError> {
    let hooks = rules.hooks();
    let env: Envelope<Box<RawValue>> =
        serde_json::from_str(text).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    let state = env.state.get();
    let Some(expected) = env.checksum else {
        return Err(SaveError::Corrupt("the checksum is missing".into()));
    };
    let found = if version >= 4 {
        storage::modes_checksum(env.modes.iter().map(String::as_str), state)
    } else {
        bytes_checksum(state)
    };
    if found != expected {
        return Err(SaveError::Checksum { expected, found });
    }
    // A mode this version does not know: refused, saying which (never dropped in silence).
    Modes::parse(&env.modes).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    // Played with other mods or data, it would link to other prototypes: refuse, saying how.
    rules
        .data_identity()
        .check_save(&DataIdentity::from_modes(&env.modes))
        .map_err(SaveError::OtherData)?;
    let base = rules.base_library();
    let game = SavedGame::from_json(state, base)
        .and_then(|s| s.link(base, hooks))
        .map_err(|e| match e {
            LoadError::Hook(e) => SaveError::UnknownHook(e.to_string()),
            LoadError::Corrupt(e) => SaveError::Corrupt(e),
            other => SaveError::Invalid(other.to_string()),
        })?;
    validate(&game, hooks)?;
    Ok(game)
}

/// Check that a loaded value is a game Alchemy can play: the engine's invariants (the
/// deserializer has checked them already), every hook name known to `hooks`, and Alchemy's
/// own rules: a non-empty library; the hero variable names a thing on the map that is a
/// creature and the hero; hit points, time and counters within their ranges; messages of at
/// most [`MAX_MESSAGE_BYTES`].
///
/// # Errors
/// [`SaveError::UnknownHook`] or [`SaveError::Invalid`], naming the first problem found.
#[allow(deprecated)] // the message log, deprecated: English is not state
pub fn validate(game: &Game, hooks: &Hooks) -> Result<(), SaveError> {
    let invalid = |what: String| Err(SaveError::Invalid(what));
    game.check_invariants()
        .map_err(|e| SaveError::Invalid(e.to_string()))?;
    hooks
        .check(game)
        .map_err(|e| SaveError::UnknownHook(e.to_string()))?;
    if game.library().is_empty() {
        return invalid("its library of prototypes is empty".into());
    }
    let hero: ThingId = match game.var(&HERO) {
        Ok(h) => h,
        Err(e) => return invalid(format!("no hero: {e}")),
    };
    if !game.contains(hero) {
        return invalid(format!("the hero {hero} does not exist"));
    }
    if !game.is(hero, &IS_CREATURE) || !game.is(hero, &IS_HERO) {
        return invalid(format!(
            "the hero variable names {hero}, which is not the hero"
        ));
    }
    if game.location(hero).is_err() || !matches!(game.place(hero), Ok(alembic::Place::Map(_))) {
        return invalid("the hero is not on the map".into());
    }
    let z = game.location(hero).map(|l| l.z).unwrap_or(0);
    if !(-11..=-1).contains(&z) {
        return invalid(format!("the hero is on level {z}, outside the dungeon"));
    }
    // Typed reads: a value stored as the wrong kind (hit points as text) is an error here.
    let in_range = |what: &str, v: i64, lo: i64, hi: i64| -> Result<(), SaveError> {
        if (lo..=hi).contains(&v) {
            Ok(())
        } else {
            Err(SaveError::Invalid(format!(
                "{what} is {v}, outside {lo}..={hi}"
            )))
        }
    };
    let read = |r: Result<i64, alembic::Error>, what: &str| {
        r.map_err(|e| SaveError::Invalid(format!("{what}: {e}")))
    };
    let hps = read(game.query(hero, &HPS).map(i64::from), "hit points")?;
    let max = read(
        game.query(hero, &HPS_MAX).map(i64::from),
        "maximum hit points",
    )?;
    let most = i64::from(MAX_HIT_POINTS);
    in_range("the hero's maximum hit points", max, 1, most)?;
    in_range("the hero's hit points", hps, -most, max)?;
    // Every other creature too: past the limit, the rules that raise hit points could not
    // keep the game one a save can hold.
    for t in game.all_things().filter(|t| t.is(&IS_CREATURE)) {
        let (Some(id), name) = (t.id(), t.proto().unwrap_or("creature")) else {
            continue;
        };
        if id == hero {
            continue;
        }
        let what = |of: &str| format!("the {name} {id}'s {of}");
        let hps = read(game.query(id, &HPS).map(i64::from), &what("hit points"))?;
        let max = read(
            game.query(id, &HPS_MAX).map(i64::from),
            &what("maximum hit points"),
        )?;
        in_range(&what("maximum hit points"), max, 1, most)?;
        in_range(&what("hit points"), hps, -most, most)?;
    }
    // Ranges leave room for any honest game (a won game is about 10,000 turns).
    const LIMIT: i64 = 1 << 40;
    in_range(
        "the turn",
        i64::try_from(game.turn()).unwrap_or(i64::MAX),
        0,
        LIMIT,
    )?;
    in_range(
        "the time",
        read(game.var(&TIME), "the time")?,
        0,
        LIMIT * 1000,
    )?;
    // Saves before 0.3 count their messages; later games keep no English.
    if let Ok(n) = game.var(&MSG_COUNT) {
        in_range("the message count", n, 0, LIMIT)?;
    }
    in_range(
        "the healing counter",
        read(game.var(&REGEN_ACC), "the healing counter")?,
        0,
        LIMIT,
    )?;
    in_range(
        "the kill count",
        read(game.var(&KILLS), "the kill count")?,
        0,
        LIMIT,
    )?;
    in_range(
        "the next thing id",
        i64::try_from(game.next_id()).unwrap_or(i64::MAX),
        1,
        LIMIT * 256,
    )?;
    let deepest = read(game.var(&DEEPEST).map(i64::from), "the deepest level")?;
    in_range("the deepest level", deepest, 1, 11)?;
    if let Some(m) = game.messages().find(|m| m.text.len() > MAX_MESSAGE_BYTES) {
        return invalid(format!(
            "a message of {} bytes (at most {MAX_MESSAGE_BYTES})",
            m.text.len()
        ));
    }
    Ok(())
}

/// Write `game` to `path` atomically and durably (see [`alembic_session::storage::write_atomic`]).
///
/// # Errors
/// [`SaveError::Io`] when the file system refuses; the previous save is then untouched.
pub fn save(game: &Game, path: &Path) -> Result<(), SaveError> {
    let text = to_text(game)?;
    storage::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// Write `game`, played under `rules`, to `path`, marked with `modes`, writing only what loads: the new bytes are read back through
/// [`from_text`] (checksum, link to this build's library, [`validate`]) before they replace
/// anything, so a game is never written that the next continue would refuse; the previous
/// save is kept when they fail.
///
/// # Errors
/// [`SaveError`]: the loader's own error when the bytes do not load back.
pub fn save_checked(
    game: &Game,
    path: &Path,
    modes: &Modes,
    rules: &Rules,
) -> Result<(), SaveError> {
    let text = to_text_with_modes(game, modes, rules)?;
    let _loaded = from_text(&text, rules)
        .map_err(|e| SaveError::Invalid(format!("not saved, it would not load back ({e})")))?;
    storage::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// Read a game from `path` (see [`from_text`] for the checks). Only regular files of at most
/// [`MAX_SAVE_BYTES`] are read, so a FIFO or `/dev/zero` is an error, not a hang.
///
/// # Errors
/// [`SaveError`].
pub fn load(path: &Path, rules: &Rules) -> Result<Game, SaveError> {
    load_with_modes(path, rules).map(|(g, _)| g)
}

/// [`load`], with the modes the save is marked with.
///
/// # Errors
/// [`SaveError`]; [`SaveError::Corrupt`] for a mode this version does not know.
pub fn load_with_modes(path: &Path, rules: &Rules) -> Result<(Game, Modes), SaveError> {
    let bytes = storage::read_bounded(path, MAX_SAVE_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| SaveError::Corrupt("not UTF-8 text".into()))?;
    let game = from_text(&text, rules)?;
    let modes = Modes::parse(modes_of(&text)).map_err(|e| SaveError::Corrupt(e.to_string()))?;
    Ok((game, modes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_is_the_same_bytes_as_with_a_raw_value() {
        let rules = Rules::new().expect("rules");
        let game = crate::new_game(7, &rules).expect("game");
        for modes in [&[][..], &["practice"][..], &["wizard", "mod:x\"y"][..]] {
            let state = SavedGame::of(&game, rules.base_library())
                .expect("repr")
                .to_json()
                .expect("state");
            let checksum = storage::modes_checksum(modes.iter().copied(), &state);
            let ours = envelope_around(checksum, modes, state.clone()).expect("envelope");
            let raw = RawValue::from_string(state).expect("raw");
            let theirs = serde_json::to_string(&Envelope {
                game: GAME_NAME.to_string(),
                version: SAVE_VERSION,
                checksum: Some(checksum),
                modes: modes.iter().map(|m| (*m).to_owned()).collect(),
                state: raw,
            })
            .expect("json");
            assert_eq!(ours, theirs);
        }
        // And it loads back to the game.
        let text = to_text_with_modes(&game, &Modes::none(), &rules).expect("text");
        assert_eq!(from_text(&text, &rules).expect("loads"), game);
    }
}
