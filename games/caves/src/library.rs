//! The Caves' prototype [`Library`]: tiles and creatures, read from the data file
//! `games/caves/data/caves.toml` (compiled in) through [`alembic_data`] against the Caves'
//! [`schema`]. Everything a creature is lives there, inside the game value; everything it
//! *does* is a hook named by its prototype and registered in [`hooks`](super::hooks()).

use std::sync::Arc;

use alembic::{Error, Library, hook::ON_USE};
use alembic_data::{DataErrors, Loaded, Loader, Schema};

use alembic_session::gamedata::{DataChoice, DataIdentity};

use super::props::*;

// ----- the library ---------------------------------------------------------------------------

/// The name saves refer to the Caves' library by.
pub const LIBRARY_NAME: &str = "caves";
/// The library's version: raised when a change to it needs old saves migrated.
pub const LIBRARY_VERSION: u32 = 1;

/// The Caves' data, as shipped: `games/caves/data/caves.toml`.
pub const DATA: &str = include_str!("../data/caves.toml");
/// The name errors in the shipped data are reported under.
pub const DATA_FILE: &str = "games/caves/data/caves.toml";

/// Every property key the Caves' data may set, with its type and meaning (what
/// `alembic-sim --list-keys --game caves` prints).
#[must_use]
pub fn schema() -> Schema {
    Schema::new()
        .with_engine_keys()
        .key(
            &NAME,
            "what the creature is called in messages (\"cave bat\")",
        )
        .key(&GLYPH, "the character drawn for it")
        .key(&FG, "the colour it is drawn in")
        .key(&HP, "hit points left; at 0 or below the creature dies")
        .key(&MAX_HP, "hit points when unhurt")
        .key(
            &ATTACK,
            "attack: a blow does 1 + rand(max(0, attack - defence)) damage",
        )
        .key(&DEFENCE, "defence, subtracted from an attacker's attack")
        .key(&VERB, "the verb for its blows, third person (\"bites\")")
        .key(&SPORES, "how many more times a lichen may grow")
        .key(
            &SPAWN_COUNT,
            "how many of it a new world places on its top level (0: none)",
        )
        .key(
            &SPAWN_PER_DEPTH,
            "how many more of it each deeper level holds",
        )
        .key(
            &SPAWN_RANK,
            "when its kind is placed on a new level: lower first, then by name",
        )
        .key(
            &IS_HERO,
            "the one thing the keyboard drives: the player's hero",
        )
        .key(&IS_HOSTILE, "hunts the player")
        .key(&RECEIVER, "receives messages said nearby")
        .hook(&ON_USE, "the hook run when something touches it")
        .key(&WALKABLE, "tile: creatures can stand here")
        .key(&TRANSPARENT, "tile: light passes through")
        .key(
            &DIGGABLE,
            "tile: walking into it digs it out (becomes floor)",
        )
        .key(&STAIRS, "tile: 1 leads down a level, -1 up, 0 neither")
        .key(&EXIT, "tile: stepping here wins the game")
        .key(
            &GEM,
            "tile: a gem lies here; stepping here picks it up (the tile becomes floor)",
        )
}

/// The Caves' data read from `sources` (name and text, the shipped data first, then
/// mods), checked against [`schema`] and the registered [`hooks`](super::hooks()).
///
/// # Errors
/// Every mistake of every source, with its place.
pub fn load<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Loaded, DataErrors> {
    let schema = schema();
    // The registry cannot fail to build (its names are distinct constants); without it,
    // hook names go unchecked here and `Hooks::check` still refuses a stranger.
    let hooks = super::hooks().ok();
    let mut loader = Loader::new(&schema);
    if let Some(h) = &hooks {
        loader = loader.hooks(h.names());
    }
    for (name, text) in sources {
        loader = loader.source(name, text);
    }
    loader.load()
}

/// The Caves' data as played: the library every new game starts from and saves are
/// written against, and where it came from (the shipped data or a data directory, and the
/// mods; see [`alembic_session::gamedata`]).
#[derive(Clone, Debug)]
pub struct CavesData {
    /// The prototypes and tiles.
    pub library: Library,
    /// Which data it is, as saves and recordings carry it.
    pub identity: DataIdentity,
}

impl CavesData {
    /// The shipped data.
    ///
    /// # Errors
    /// As [`library`].
    pub fn shipped() -> Result<Self, Error> {
        Ok(CavesData {
            library: library()?,
            identity: DataIdentity::shipped(),
        })
    }

    /// The data `choice` asks for: the shipped data or a data directory, then the mods.
    ///
    /// # Errors
    /// Every mistake of every file, with its place.
    pub fn from_choice(choice: &DataChoice) -> Result<Self, DataErrors> {
        let sources = choice.read((DATA_FILE, DATA))?;
        let loaded = load(sources.files.iter().map(|(n, t)| (n.as_str(), t.as_str())))?;
        Ok(CavesData {
            identity: DataIdentity::of(&sources, loaded.hash()),
            library: loaded.library.named(LIBRARY_NAME, LIBRARY_VERSION),
        })
    }
}

/// The Caves' prototypes and tiles, from the shipped data.
///
/// # Errors
/// [`Error::Msg`] with every data error, one a line (none for the shipped data: a test
/// loads it).
pub fn library() -> Result<Library, Error> {
    load([(DATA_FILE, DATA)])
        .map(|l| l.library.named(LIBRARY_NAME, LIBRARY_VERSION))
        .map_err(|e| Error::Msg(Arc::from(e.to_string())))
}

/// The Caves' library in numbers: creatures (hunters among them) and tiles (the engine's
/// void included).
///
/// # Errors
/// Engine errors building the library (none for this fixed data).
pub fn library_counts() -> Result<Vec<(&'static str, usize)>, Error> {
    let lib = library()?;
    let creatures = lib.prototypes().count();
    let hunters = lib.prototypes().filter(|p| p.is(&IS_HOSTILE)).count();
    Ok(vec![
        ("creatures", creatures),
        ("hunters", hunters),
        ("tiles", lib.tiles().count()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mod_changes_the_caves_and_bad_data_changes_nothing() {
        let modded = load([
            (DATA_FILE, DATA),
            (
                "mod.toml",
                "[proto.zombie]\nextend = true\nhp = 30\nmax_hp = 30\n",
            ),
        ])
        .unwrap();
        let z = modded.library.get("zombie").unwrap();
        assert_eq!((z.get(&HP), z.get(&ATTACK)), (Ok(30), Ok(8)));
        let shipped = load([(DATA_FILE, DATA)]).unwrap();
        assert_ne!(modded.hash(), shipped.hash());
        let bad = load([
            (DATA_FILE, DATA),
            (
                "mod.toml",
                "[proto.zombie]\nextend = true\nalembic.on_action = \"caves.zombi\"\n",
            ),
        ])
        .unwrap_err();
        assert_eq!(
            bad.to_string(),
            "mod.toml:3:21: \"alembic.on_action\" names hook \"caves.zombi\", which is not registered; did you mean \"caves.zombie\"?"
        );
    }
}
