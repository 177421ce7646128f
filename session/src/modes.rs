//! A game's modes, typed: practice, wizard and the data it was played with. Saves and
//! recordings carry them as strings (`"practice"`, `"wizard"`, `"mod:NAME"`,
//! `"data:HASH"`), and a save's checksum is taken over those strings
//! ([`storage::modes_checksum`](crate::storage::modes_checksum)); [`Modes::to_strings`] is
//! that text, the same as every earlier version wrote, so old saves and recordings verify
//! and load unchanged. A string this version does not know is an [`UnknownMode`] error, never
//! dropped in silence.
//!
//! ```
//! use alembic_session::Modes;
//!
//! let modes = Modes::parse(["practice", "wizard"])?;
//! assert!(modes.practice && modes.wizard && modes.data.is_shipped());
//! assert_eq!(modes.to_strings(), ["practice", "wizard"]);
//! assert_eq!(modes.to_string(), "practice, wizard");
//! assert!(Modes::parse(["cheat"]).is_err());
//! # Ok::<(), alembic_session::modes::UnknownMode>(())
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::gamedata::DataIdentity;

/// The mode of a practice game (saves and recordings say `"practice"`).
pub const PRACTICE: &str = "practice";
/// The mode of a wizard game (saves and recordings say `"wizard"`).
pub const WIZARD: &str = "wizard";

/// A game's modes: whether it is a practice game, a wizard game, and the data it is played
/// with. The default is a normal game on the shipped data (no modes at all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modes {
    /// A practice game (`"practice"`): its moves can be taken back (`U`), and it is not
    /// scored.
    pub practice: bool,
    /// A wizard game: it accepts wizard commands (`"wizard"`).
    pub wizard: bool,
    /// The data it is played with: the shipped data, or mods (`"mod:NAME"`, `"data:HASH"`).
    pub data: DataIdentity,
}

/// A mode string that this version does not know, read from a save or a recording. Its
/// `Display` says which and what is known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode {0:?} (this version knows practice, wizard, mod:NAME and data:HASH)")]
pub struct UnknownMode(pub String);

impl Modes {
    /// No modes: a normal game on the shipped data.
    #[must_use]
    pub fn none() -> Self {
        Modes::default()
    }

    /// The modes of a game on `data`, practice and wizard or not.
    #[must_use]
    pub fn new(practice: bool, wizard: bool, data: DataIdentity) -> Self {
        Modes {
            practice,
            wizard,
            data,
        }
    }

    /// Whether there are none (a normal game on the shipped data).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.practice && !self.wizard && self.data.is_shipped()
    }

    /// The modes as saves and recordings write them, and as a save's checksum is taken:
    /// the data's ([`DataIdentity::to_modes`]), then `practice`, then `wizard`.
    #[must_use]
    pub fn to_strings(&self) -> Vec<String> {
        let mut m = self.data.to_modes();
        m.extend(self.game_modes().iter().map(|s| (*s).to_owned()));
        m
    }

    /// The modes that are the game's own, not the data's: `practice`, then `wizard` (for a
    /// save format that writes the data's modes from its own rules, as Alchemy's does).
    #[must_use]
    pub fn game_modes(&self) -> Vec<&'static str> {
        let mut m = Vec::new();
        if self.practice {
            m.push(PRACTICE);
        }
        if self.wizard {
            m.push(WIZARD);
        }
        m
    }

    /// The modes that `strings` name, in any order (a save's list, a recording header's
    /// set). The data's modes are read as [`DataIdentity::from_modes`] reads them.
    ///
    /// # Errors
    /// [`UnknownMode`]: the first string that is none of `practice`, `wizard`,
    /// `mod:NAME`, `data:HASH`.
    pub fn parse<S: AsRef<str>>(strings: impl IntoIterator<Item = S>) -> Result<Self, UnknownMode> {
        let strings: Vec<S> = strings.into_iter().collect();
        let mut modes = Modes {
            data: DataIdentity::from_modes(&strings),
            ..Modes::default()
        };
        for s in &strings {
            match s.as_ref() {
                PRACTICE => modes.practice = true,
                WIZARD => modes.wizard = true,
                m if DataIdentity::is_data_mode(m) => {}
                m => return Err(UnknownMode(m.to_owned())),
            }
        }
        Ok(modes)
    }
}

/// An unknown mode where the engine's errors are expected (a recording's header read to
/// start its game): [`alembic::Error::Msg`] with the sentence.
impl From<UnknownMode> for alembic::Error {
    fn from(e: UnknownMode) -> Self {
        alembic::Error::Msg(e.to_string().into())
    }
}

/// The modes as a morgue file lists them: `practice, wizard` (empty with none).
impl fmt::Display for Modes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_strings().join(", "))
    }
}

/// A list of strings, [`Modes::to_strings`].
impl Serialize for Modes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_strings().serialize(serializer)
    }
}

/// A list of strings, read by [`Modes::parse`]: an unknown one is an error.
impl<'de> Deserialize<'de> for Modes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let strings = Vec::<String>::deserialize(deserializer)?;
        Modes::parse(&strings).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use alembic_data::DataHash;

    #[test]
    fn the_strings_are_what_earlier_versions_wrote() {
        let data = DataIdentity {
            mods: vec!["bats".into()],
            hash: Some(DataHash(0xdead_beef)),
        };
        let m = Modes::new(true, true, data.clone());
        let mut old = data.to_modes();
        old.extend(["practice".to_owned(), "wizard".to_owned()]);
        assert_eq!(m.to_strings(), old);
        // Any order reads back as the same modes (recordings keep theirs sorted).
        let mut sorted = old.clone();
        sorted.sort();
        assert_eq!(Modes::parse(&sorted).unwrap(), m);
        assert_eq!(Modes::parse(&old).unwrap(), m);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            serde_json::to_string(&old).unwrap()
        );
        assert!(Modes::parse(Vec::<String>::new()).unwrap().is_empty());
    }

    #[test]
    fn an_unknown_mode_is_an_error_that_names_it() {
        let e = Modes::parse(["practice", "godmode"]).unwrap_err();
        assert_eq!(e, UnknownMode("godmode".into()));
        assert!(e.to_string().contains("\"godmode\""), "{e}");
        assert!(serde_json::from_str::<Modes>(r#"["godmode"]"#).is_err());
    }
}
