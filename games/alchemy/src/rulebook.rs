//! [`Rules`]: the hook registry a game runs with ([`hooks::build`](crate::hooks::build)) and
//! the data it is played on (the base library, and where it came from).

use std::sync::Arc;

use alembic::{Error, Hooks, Library};
use alembic_data::DataErrors;
use alembic_session::gamedata::{DataChoice, DataIdentity};

use crate::hooks::build;

/// The rule set: the registered hooks the library names, and the data the game is played
/// with (the base library new games start from and saves are written against, and where it
/// came from: the shipped data or a data directory, and the mods).
#[derive(Clone, Debug)]
pub struct Rules {
    hooks: Hooks,
    data: Arc<RulesData>,
}

#[derive(Debug)]
struct RulesData {
    library: Library,
    identity: DataIdentity,
    choice: DataChoice,
}

/// Why the rules could not be built on the data asked for.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The data or a mod has mistakes (every one of them, with its place).
    #[error("{0}")]
    Data(DataErrors),
    /// The rules themselves could not be built (a bug).
    #[error(transparent)]
    Engine(#[from] Error),
}

impl Rules {
    /// The Alchemy rules on the shipped data.
    pub fn new() -> Result<Rules, Error> {
        Ok(Rules {
            hooks: build()?,
            data: Arc::new(RulesData {
                library: super::library::base_library()?,
                identity: DataIdentity::shipped(),
                choice: DataChoice::default(),
            }),
        })
    }

    /// The Alchemy rules on the data `choice` asks for: the shipped data or a data
    /// directory, then the mods.
    ///
    /// # Errors
    /// [`RulesError::Data`] with every mistake of every file; nothing is half-built.
    pub fn with_data(choice: &DataChoice) -> Result<Rules, RulesError> {
        let hooks = build()?;
        let sources = choice
            .read((super::library::DATA_FILE, super::library::DATA))
            .map_err(RulesError::Data)?;
        let loaded = super::library::load(
            sources
                .files
                .iter()
                .map(|(name, text)| (name.as_str(), text.as_str())),
        )
        .map_err(RulesError::Data)?;
        let identity = DataIdentity::of(&sources, loaded.hash());
        Ok(Rules {
            hooks,
            data: Arc::new(RulesData {
                library: super::library::library_from(&loaded),
                identity,
                choice: choice.clone(),
            }),
        })
    }

    /// The same rules on the data files read again from disk (the wizard's `reload`).
    ///
    /// # Errors
    /// [`RulesError::Data`] with every mistake; these rules stay as they are.
    pub fn reloaded(&self) -> Result<Rules, RulesError> {
        Rules::with_data(&self.data.choice)
    }

    /// The hook registry (for [`Game::check_hooks`](alembic::Game::check_hooks) and loading).
    #[must_use]
    pub fn hooks(&self) -> &Hooks {
        &self.hooks
    }

    /// The library every new game starts from (before its potions are randomised) and
    /// saves are written against.
    pub fn base_library(&self) -> &Library {
        &self.data.library
    }

    /// Which data these rules play with (carried in the modes of saves and recordings).
    #[must_use]
    pub fn data_identity(&self) -> &DataIdentity {
        &self.data.identity
    }

    /// Where the data comes from, as asked.
    #[must_use]
    pub fn data_choice(&self) -> &DataChoice {
        &self.data.choice
    }
}
