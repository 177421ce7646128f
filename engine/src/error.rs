//! The engine's errors: each variant names the rule a call would have broken, in one line of
//! English. A refused call changes nothing. Errors are small to build and `Clone`.

use std::fmt;
use std::sync::Arc;

use crate::id::ThingId;
use crate::key::{PropKey, ValueKind};
use crate::loc::Loc;

/// Why an engine call was refused. A refused call changes nothing.
///
/// New rules bring new variants, so the enum is `#[non_exhaustive]`: a `match` outside the
/// engine keeps a `_` arm. A failed path search converts with `?`:
///
/// ```
/// use alembic::{Error, Loc, LocBox, path::Search, path::astar};
/// fn first_step(from: Loc, to: Loc) -> Result<Option<Loc>, Error> {
///     let walls = |_: Loc, _: Loc| -> Option<u32> { None };
///     let path = astar(from, to, &Search::new(LocBox::rect(0, 0, 9, 9, 0)), walls)?;
///     Ok(path.first_step())
/// }
/// let e = first_step(Loc::new(0, 0, 0), Loc::new(5, 5, 0)).unwrap_err();
/// assert!(matches!(e, Error::Path(_)));
/// assert!(e.to_string().starts_with("no path"));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A path search found no way (or hit its bound).
    #[error(transparent)]
    Path(#[from] crate::path::PathError),
    /// A map-generation step could not be applied.
    #[error(transparent)]
    MapGen(#[from] crate::mapgen::MapGenError),
    /// The id names no thing in this game value.
    #[error("no thing {0} in this game")]
    NoSuchThing(ThingId),
    /// Things can only be put into things flagged `is_container`.
    #[error("thing {0} is not a container")]
    NotAContainer(ThingId),
    /// A thing cannot end up inside itself.
    #[error("putting {thing} into {into} would put it inside itself")]
    ContainmentCycle {
        /// The thing being moved.
        thing: ThingId,
        /// The destination container.
        into: ThingId,
    },
    /// [`Game::add_thing`](crate::Game::add_thing) takes a fresh thing, not one already placed.
    #[error("thing {0} is already in the game; move it instead")]
    AlreadyPlaced(ThingId),
    /// No prototype of that name in the library.
    #[error("unknown prototype {0:?}")]
    UnknownPrototype(Arc<str>),
    /// A prototype of that name was already proclaimed.
    #[error("prototype {0:?} is already proclaimed")]
    DuplicatePrototype(Arc<str>),
    /// Abstract prototypes (flagged [`ABSTRACT`](crate::library::ABSTRACT)) are never created.
    #[error("prototype {0:?} is abstract and cannot be created")]
    AbstractPrototype(Arc<str>),
    /// No tile of that name.
    #[error("unknown tile {0:?}")]
    UnknownTile(Arc<str>),
    /// No tile with that number.
    #[error("unknown tile number {0}")]
    UnknownTileId(u16),
    /// The tile table holds at most 65,536 tiles.
    #[error("too many tiles")]
    TooManyTiles,
    /// The property exists but holds another kind of value.
    #[error("property {key}{owner} holds {found}, not {expected}")]
    WrongPropertyType {
        /// The property.
        key: PropKey,
        /// What the typed key expects.
        expected: ValueKind,
        /// What is stored.
        found: ValueKind,
        /// The thing read, when a thing was read.
        owner: Owner,
    },
    /// The property is absent and its key has no default.
    #[error("property {key} is missing{owner} and has no default")]
    MissingProperty {
        /// The property.
        key: PropKey,
        /// The thing read, when a thing was read.
        owner: Owner,
    },
    /// A hook name that no registered function answers to.
    #[error("unknown hook {0:?}")]
    UnknownHook(Arc<str>),
    /// A hook name registered twice.
    #[error("hook {0:?} is already registered")]
    DuplicateHook(Arc<str>),
    /// A hook refused (a game rule inside a hook).
    #[error("hook {hook:?} failed: {reason}")]
    HookFailed {
        /// The hook.
        hook: Arc<str>,
        /// Its reason.
        reason: Arc<str>,
    },
    /// Random creation found nothing matching the filter.
    #[error("no prototype matches {flag} within levels {min}..={max}")]
    NothingToCreate {
        /// The flag filtered on.
        flag: PropKey,
        /// Lowest level.
        min: i32,
        /// Highest level.
        max: i32,
    },
    /// Every thing id has been handed out (ids are never reused).
    #[error("no thing ids are left in this game")]
    IdsExhausted,
    /// The location is outside the range a caller allowed.
    #[error("location {0} is out of bounds")]
    OutOfBounds(Loc),
    /// A game's own error, carried through engine calls (a hook that fails by a game rule,
    /// say). Make one with [`Error::game`] and get it back with [`Error::game_error`].
    #[error(transparent)]
    Game(GameError),
    /// A save could not be read or linked, carried as an engine error so that one `?`
    /// reads a save in a function returning [`Error`].
    #[error(transparent)]
    Load(Box<LoadError>),
    /// A one-off error of a game's own, in a sentence: [`Error::msg`].
    #[error("{0}")]
    Msg(Arc<str>),
    /// The world was asked to advance while the actor whose turn it is has not acted since
    /// the scheduler stopped for it (see [`schedule`](crate::schedule)): a missing
    /// [`Game::acted_mut`](crate::Game::acted_mut), or a turn run twice.
    #[error("thing {0} must act before the world can advance")]
    NotActed(ThingId),
}

impl From<LoadError> for Error {
    fn from(e: LoadError) -> Self {
        Error::Load(Box::new(e))
    }
}

impl Error {
    /// A one-off error in a sentence, for a game that needs no error type of its own.
    ///
    /// ```
    /// use alembic::Error;
    /// let e = Error::msg(format!("the well at {} is dry", 3));
    /// assert_eq!(e.to_string(), "the well at 3 is dry");
    /// ```
    #[must_use]
    pub fn msg(message: impl fmt::Display) -> Error {
        Error::Msg(message.to_string().into())
    }

    /// Carry a game's own error through the engine.
    ///
    /// ```
    /// use alembic::Error;
    /// #[derive(Debug, thiserror::Error, PartialEq)]
    /// #[error("the door is locked")]
    /// struct Locked;
    /// let e = Error::game(Locked);
    /// assert_eq!(e.to_string(), "the door is locked");
    /// assert_eq!(e.game_error::<Locked>(), Some(&Locked));
    /// ```
    #[must_use]
    pub fn game(e: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::Game(GameError(Arc::new(e)))
    }

    /// The game's own error of type `E` inside, if this is one.
    #[must_use]
    pub fn game_error<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            Error::Game(GameError(e)) => e.downcast_ref(),
            _ => None,
        }
    }

    /// This error with the thing (and its prototype) that was being read, for property
    /// errors that do not name one yet.
    #[must_use]
    pub(crate) fn about(mut self, thing: ThingId, prototype: Option<&Arc<str>>) -> Error {
        if let Error::MissingProperty { owner, .. } | Error::WrongPropertyType { owner, .. } =
            &mut self
            && owner.thing.is_none()
        {
            *owner = Owner {
                thing: Some(thing),
                prototype: prototype.cloned(),
            };
        }
        self
    }
}

/// A game's own error inside an [`Error`]: shared, sendable, compared by its message.
#[derive(Clone, Debug)]
pub struct GameError(Arc<dyn std::error::Error + Send + Sync>);

impl PartialEq for GameError {
    fn eq(&self, o: &Self) -> bool {
        Arc::ptr_eq(&self.0, &o.0) || self.0.to_string() == o.0.to_string()
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// The thing a property error is about: written " on thing 5 (a \"rat\")", or nothing when
/// the read was not of a thing (a prototype, a game variable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owner {
    /// The thing.
    pub thing: Option<ThingId>,
    /// Its prototype, if it has one.
    pub prototype: Option<Arc<str>>,
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.thing, &self.prototype) {
            (Some(t), Some(p)) => write!(f, " on thing {t} (a {p:?})"),
            (Some(t), None) => write!(f, " on thing {t}"),
            _ => Ok(()),
        }
    }
}

/// A broken internal consistency rule, found by
/// [`Game::check_invariants`](crate::Game::check_invariants). Seeing one is an engine bug or
/// a corrupt save.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvariantError {
    /// The index holds a thing under an id that differs from its own.
    #[error("index slot {slot} holds thing {found:?}")]
    IndexIdMismatch {
        /// The slot.
        slot: ThingId,
        /// The id the thing carries.
        found: Option<ThingId>,
    },
    /// A thing in the index has no place.
    #[error("thing {0} has no place")]
    Unplaced(ThingId),
    /// A thing on the map is not listed (exactly once) in its cell.
    #[error("thing {0} is at {1} but that cell doesn't list it exactly once")]
    NotInCell(ThingId, Loc),
    /// A cell lists a thing that is elsewhere or missing.
    #[error("cell {0} lists thing {1}, which is not there")]
    StrayInCell(Loc, ThingId),
    /// A thing inside a container is not listed (exactly once) in its contents.
    #[error("thing {0} is in {1} but not listed exactly once in its contents")]
    NotInContents(ThingId, ThingId),
    /// A container lists a thing that is elsewhere or missing.
    #[error("container {0} lists thing {1}, which is not inside it")]
    StrayInContents(ThingId, ThingId),
    /// A container's list of modifier carriers doesn't match its contents.
    #[error("container {0} has a stale modifier list")]
    StaleModifiers(ThingId),
    /// A thing's derived flag word disagrees with its properties and modifiers.
    #[error("thing {0} has a stale flag word")]
    StaleFlags(ThingId),
    /// The game's derived record of a thing's plain property table (the table that answers
    /// every query of a thing with no overrides and no carried modifiers) is stale.
    #[error("thing {0} has a stale plain table")]
    StalePlainTable(ThingId),
    /// Following containers upward loops.
    #[error("thing {0} is inside itself")]
    Cycle(ThingId),
    /// An id at or above the next free id.
    #[error("thing {0} is at or above the next free id {1}")]
    IdAboveNext(ThingId, u64),
    /// Counts disagree between the index, the cells and the containers.
    #[error("{index} things indexed but {placed} placed")]
    CountMismatch {
        /// Things in the index.
        index: usize,
        /// Things found in cells and containers.
        placed: usize,
    },
    /// The terrain or cell grid's internal tree is malformed.
    #[error("grid structure: {0}")]
    Grid(&'static str),
    /// A flag index disagrees with a scan of the things.
    #[error("the index of flag {0} is stale")]
    StaleIndex(PropKey),
    /// The actor queue is malformed.
    #[error("actor queue: {0}")]
    Schedule(&'static str),
    /// The actor queue names a thing that is not in the game.
    #[error("actor queue names thing {0}, which is not in the game")]
    ScheduledMissing(ThingId),
    /// The library holds a likely mistake that 0.2 treats as an error (see
    /// [`Library::warnings`](crate::Library::warnings)).
    #[error("library: {0}")]
    Library(LibraryWarning),
    /// A terrain cell names a tile the library doesn't have.
    #[error("terrain at {0} names unknown tile {1}")]
    UnknownTile(Loc, u16),
    /// Two property names the game holds have the same integer id
    /// ([`PropKey::id`](crate::props::PropKey::id)), so a lookup could not tell them apart:
    /// rename one.
    #[error("property names {0:?} and {1:?} have the same id: rename one")]
    KeyIdCollision(PropKey, PropKey),
}

/// The format a [`SavedGame`](crate::save::SavedGame) writes (see
/// [`SAVED_GAME_FORMAT`](crate::save::SAVED_GAME_FORMAT)).
pub(crate) const SAVED_GAME_FORMAT: u32 = 3;

/// Why a saved game could not be read or linked. Nothing is half-loaded.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not a saved game.
    #[error("not a saved game: {0}")]
    Corrupt(String),
    /// A format this build cannot read.
    #[error("save format {0} is not supported (this build reads formats 1 to {SAVED_GAME_FORMAT})")]
    UnsupportedFormat(u64),
    /// The save was played with another game's library.
    #[error("the save is for library {saved:?}, not {current:?}")]
    WrongLibrary {
        /// The library the save names.
        saved: Arc<str>,
        /// The library it was linked against.
        current: Arc<str>,
    },
    /// A thing names a prototype the library does not have.
    #[error("thing {thing} is a {prototype:?}, which the library does not have")]
    UnknownPrototype {
        /// The thing.
        thing: ThingId,
        /// Its prototype.
        prototype: Arc<str>,
    },
    /// The linked game breaks an invariant.
    #[error("inconsistent game: {0}")]
    Inconsistent(String),
    /// The game names a hook that is not registered.
    #[error(transparent)]
    Hook(Error),
    /// The game disagrees with the running build's library: a thing of a prototype the library
    /// does not have, or a property held as another kind of value than the library's prototype
    /// declares ([`check_against_library`](crate::save::check_against_library)).
    #[error("it disagrees with this build's library: {0}")]
    Disagrees(String),
}

impl From<InvariantError> for LoadError {
    fn from(e: InvariantError) -> Self {
        LoadError::Inconsistent(e.to_string())
    }
}

/// Something in a [`Library`](crate::Library) that is legal but most likely a mistake, found by
/// [`Library::warnings`](crate::Library::warnings). The first two kinds also fail
/// [`Game::check_invariants`](crate::Game::check_invariants), so a test that builds the game
/// notices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LibraryWarning {
    /// A prototype named "base …" that others derive from but that is not flagged
    /// [`ABSTRACT`](crate::library::ABSTRACT): before 0.2 the name made it abstract; now it can
    /// be created, by name and at random.
    #[error(
        "prototype {prototype:?} has {children} children and a \"base\" name but is not \
         abstract: add `.with(&alembic::library::ABSTRACT, true)` (0.2 no longer reads the name)"
    )]
    BaseNotAbstract {
        /// The prototype.
        prototype: Arc<str>,
        /// How many prototypes derive from it directly.
        children: usize,
    },
    /// A property in the engine's `alembic.` namespace that the engine does not know, or
    /// that holds another kind of value than the engine reads.
    #[error("prototype {prototype:?} sets {key}, {problem}")]
    EngineKey {
        /// The prototype.
        prototype: Arc<str>,
        /// The key.
        key: PropKey,
        /// What is wrong, in words: "which the engine reads as an integer".
        problem: String,
    },
    /// A property named as one of the engine's keys was before 0.2 (`speed`, `level`,
    /// `freq`, `abstract`, `on_action`): code or data written for 0.1 that the engine no
    /// longer reads. Only a warning: a game may mean its own key by that name.
    #[error(
        "prototype {prototype:?} sets {key:?}, the engine's name for it before 0.2; the \
         engine reads {now:?} now"
    )]
    LegacyKeyName {
        /// The prototype.
        prototype: Arc<str>,
        /// The old name.
        key: &'static str,
        /// The engine's key now.
        now: &'static str,
    },
}

impl LibraryWarning {
    /// Whether [`Game::check_invariants`](crate::Game::check_invariants) refuses it.
    #[must_use]
    pub fn is_error(&self) -> bool {
        !matches!(self, LibraryWarning::LegacyKeyName { .. })
    }
}
