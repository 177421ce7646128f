//! [`Rules`]: the hook registry a game runs with ([`hooks::build`](crate::hooks::build)) and
//! the data it is played on (the base library, and where it came from).

use std::fmt;
use std::sync::{Arc, Mutex};

use alembic::{Error, Game, Hooks, Library, fov::VisibleSet, path::Pathfinder};
use alembic_data::{DataErrors, Loaded};
use alembic_session::gamedata::{DataChoice, DataIdentity, DataSources};

use crate::hooks::build;

/// The rule set: the registered hooks the library names, and the data the game is played
/// with (the base library new games start from and saves are written against, and where it
/// came from: the shipped data or a data directory, and the mods).
#[derive(Clone, Debug)]
pub struct Rules {
    hooks: Hooks,
    data: Arc<RulesData>,
    /// The hero's view of the game the last command returned, shared by every clone.
    sight: Arc<Sight>,
    /// Path-finding workspaces that turns have used and given back, for the next turns.
    paths: Arc<Mutex<Vec<Pathfinder>>>,
}

/// Workspaces kept at most: one a game played at once is plenty.
const KEPT_PATHFINDERS: usize = 8;

/// The hero's field of view of the last game a command returned, with that very game
/// (see [`Rules::last_hero_view`]). The clone of the game keeps its storage shared, which is
/// what makes [`Game::ptr_eq`] a sound key.
#[derive(Default)]
struct Sight(Mutex<Option<(Game, VisibleSet)>>);

impl fmt::Debug for Sight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sight")
    }
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
            sight: Arc::default(),
            paths: Arc::default(),
        })
    }

    /// The Alchemy rules on the data `choice` asks for: the shipped data or a data
    /// directory, then the mods.
    ///
    /// # Errors
    /// [`RulesError::Data`] with every mistake of every file; nothing is half-built.
    pub fn with_data(choice: &DataChoice) -> Result<Rules, RulesError> {
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
        Ok(Rules::on_loaded(choice, &sources, &loaded)?)
    }

    /// The Alchemy rules on data already read (`sources`, as `choice` asked for it) and
    /// loaded ([`library::load`](super::library::load)): [`with_data`](Self::with_data)
    /// without reading the files again, for a tool that reports on the files it read (such
    /// as `alembic-sim --check-data`).
    ///
    /// # Errors
    /// The rules themselves could not be built (a bug).
    pub fn on_loaded(
        choice: &DataChoice,
        sources: &DataSources,
        loaded: &Loaded,
    ) -> Result<Rules, Error> {
        Ok(Rules {
            hooks: build()?,
            data: Arc::new(RulesData {
                library: super::library::library_from(loaded),
                identity: DataIdentity::of(sources, loaded.hash()),
                choice: choice.clone(),
            }),
            sight: Arc::default(),
            paths: Arc::default(),
        })
    }

    /// The same rules on the data files read again from disk (the wizard's `reload`).
    ///
    /// # Errors
    /// [`RulesError::Data`] with every mistake; these rules stay as they are.
    pub fn reloaded(&self) -> Result<Rules, RulesError> {
        Rules::with_data(&self.data.choice)
    }

    /// The hook registry (for [`Hooks::check`](alembic::Hooks::check) and loading).
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

    /// The hero's field of view in `game`, when `game` is the very version
    /// ([`Game::ptr_eq`]) that the last command applied with these rules (or a clone of
    /// them) returned: that command's turn worked it out, so a bot or a map reading the game
    /// next need not work it out again. `None` for any other game (then
    /// [`hero_view`](crate::rules::hero_view) works it out). Θ(1) and a copy of the view's
    /// bits; it holds the last returned game (one version, its storage shared) until the
    /// next command.
    #[must_use]
    pub fn last_hero_view(&self, game: &Game) -> Option<VisibleSet> {
        let kept = self.sight.0.lock().ok()?;
        let (seen_in, view) = kept.as_ref()?;
        seen_in.ptr_eq(game).then(|| view.clone())
    }

    /// A path-finding workspace for a turn: one a turn gave back, or a new one.
    pub(crate) fn take_pathfinder(&self) -> Pathfinder {
        self.paths
            .lock()
            .ok()
            .and_then(|mut kept| kept.pop())
            .unwrap_or_default()
    }

    /// Give a turn's path-finding workspace back for the next turns.
    pub(crate) fn give_back_pathfinder(&self, paths: Pathfinder) {
        if let Ok(mut kept) = self.paths.lock()
            && kept.len() < KEPT_PATHFINDERS
        {
            kept.push(paths);
        }
    }

    /// Keep `view` as the hero's view of `game`, the game a command is returning.
    pub(crate) fn keep_hero_view(&self, game: &Game, view: VisibleSet) {
        debug_assert_eq!(
            crate::rules::hero_view(game).ok().as_ref(),
            Some(&view),
            "the view kept must be the hero's view of the game returned"
        );
        // A lock poisoned by a panic elsewhere only loses the shortcut.
        if let Ok(mut kept) = self.sight.0.lock() {
            *kept = Some((game.clone(), view));
        }
    }
}
