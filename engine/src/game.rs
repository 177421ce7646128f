//! `Game`: the whole world as one persistent value, and the small API that changes it.

use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rpds::{RedBlackTreeMapSync, VectorSync};
use serde::{Deserialize, Serialize};

use crate::cells::CellIndex;
use crate::error::{Error, InvariantError};
use crate::grid::Grid;
use crate::hash::StableHasher;

use crate::actors::{ActorQueue, ActorQueueRepr, Lane};
use crate::bounds::{LevelTable, LevelTableRepr};
use crate::index::FlagIndexes;
use crate::keys::{ACTS, ON_ACTION};
use crate::layer::{Layer, LayerCells, LayerValue, Layers};
use crate::library::{IS_CONTAINER, Library, TileDef, TileId};
use crate::loc::{Loc, LocBox};
use crate::migrate;
use crate::props::{FatTable, KeyIds, Modifier, Prop, PropKey, PropMap, PropType, Table, Value};
use crate::pvec::PVec;
use crate::rng::GameRng;
use crate::thing::{
    ABSENT, AddRun, Carried, FlagBits, HOLDS, IdList, Place, Thing, ThingId, holds_nothing,
};
use crate::words::Words;
use triomphe::Arc as ThingArc;

/// The version of the serialized form of [`Game`]; loading another version is an error.
pub const SAVE_FORMAT: u32 = 1;

/// Messages kept in the log; older ones are dropped.
const LOG_KEEP: usize = 500;

/// A reader of the things on map cells that remembers the chunk of its last read: see
/// [`Things::cursor`](crate::things::Things::cursor). `Send` but not `Sync` (the remembered chunk
/// is a `Cell`).
pub struct CellView<'a> {
    cursor: crate::cells::Cursor<'a>,
}

impl<'a> CellView<'a> {
    /// The things at `loc`, in arrival order: what [`Things::at`](crate::things::Things::at)
    /// gives. Θ(1), and no chunk lookup when `loc` is in the chunk of the last read.
    #[must_use]
    #[inline]
    pub fn things_at(&self, loc: Loc) -> &'a [ThingId] {
        self.cursor.get(loc)
    }
}

/// One line of the message log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    /// The game turn it was written on.
    pub turn: u64,
    /// The text.
    pub text: Arc<str>,
}

/// The whole world as one value: terrain, things and where they are, containment, the
/// prototype library, the RNG and the turn counter. (It still carries a message log for
/// code written before 0.3, deprecated and outside [`Game::state_hash`]: English is said of
/// the world, kept beside it.)
///
/// # Costs
/// - clone: Θ(1) — at most nine reference-count increments (up to three for the terrain, the
///   cell index, the thing index, the flag words, the plain tables, the per-turn parts and the
///   rarely written parts, each of the last two behind one pointer); the clone is fully
///   independent. 75 ns after 1,000 Alchemy bot commands, against 5 ns for one `Arc` clone
///   (`things/clone` in the `things` bench);
/// - [`things().get`](crate::things::Things::get): Θ(log₈ of the largest id);
///   [`query`](Game::query): that plus one property lookup (by the key's integer id: the
///   overrides, then one slot of the table) — for a thing with no overrides and no carried
///   modifiers, a read of the dense array of its tables by id (Θ(log₃₂ of the largest id), not
///   the thing record) and one slot; and Θ(keys modified + modifiers of the key) in the
///   holder's derived view of its carriers' active modifiers (Θ(1) for a run of additions);
/// - [`is`](Game::is): a bit test of the thing's derived flag word, read from the game's
///   dense array of flag words by id (Θ(log₃₂ of the largest id), not the thing record),
///   for the first 63 flag keys the game met on its things (others, a thing whose carried
///   modifiers change one of its flags, and a flag whose default is true where the thing
///   stores no `true`, go through `query`);
/// - putting a modifier carrier in or out of a holder, changing its modifiers, or setting a
///   flag one of them is switched by also rebuilds the holder's view: Θ(its carriers'
///   modifiers · log);
/// - persistent changes ([`set`](Game::set), [`add_thing`](Game::add_thing),
///   [`move_thing`](Game::move_thing)…): Θ(log n) path copies; every older value stays valid.
///   A kept [`set`](Game::set) at 10,000 things costs 480 bytes (the id index path and the
///   thing's 112-byte record with its 8-byte count; a write that changes a flag word also
///   copies that array's path, 792 bytes below 32,768 ids, and a write that gives a thing
///   its first override, or takes its last away, copies the plain tables' path, 1,048
///   bytes below 32,768 ids), a kept move where most cells are empty 1,184 bytes (`cargo
///   bench -p alembic-benches --bench things`, its `memory:` lines).
///
/// Each persistent method `m(&self, ..) -> Result<Game, Error>` has an in-place twin
/// `m_mut(&mut self, ..)`. A refused call (an [`Error`]) changes nothing in either form.
///
/// ```
/// use alembic::{Game, Loc, Prop, Props, Thing};
/// const HPS: Prop<i32> = Prop::new("hps");
/// let g0 = Game::new(1);
/// let (g1, rat) = g0.add_thing(Loc::new(2, 3, 0), Thing::new(Props::new().with(&HPS, 5))).unwrap();
/// let g2 = g1.set(rat, &HPS, 4).unwrap();
/// assert_eq!(g1.query(rat, &HPS), Ok(5)); // older values are untouched
/// assert_eq!(g2.query(rat, &HPS), Ok(4));
/// assert_eq!(g2.things().at(Loc::new(2, 3, 0)), &[rat]);
/// assert!(g0.things().get(rat).is_err());
/// ```
///
/// `Game` is `#[must_use]`: a persistent method returns the new value and leaves the old one
/// as it was, so dropping the result is almost always a bug, and a warning (an error here):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use alembic::{Game, Loc, Prop, Props, Thing};
/// const HP: Prop<i64> = Prop::new("hp");
/// fn hurt(g: &Game) -> Result<(), alembic::Error> {
///     let (g, rat) = g.add_thing(Loc::new(0, 0, 0), Thing::new(Props::new().with(&HP, 5)))?;
///     g.set(rat, &HP, 1)?; // the new game is dropped: nothing changed
///     Ok(())
/// }
/// ```
#[derive(Clone, PartialEq)]
#[must_use = "a persistent value: a method that returns one leaves the original unchanged"]
pub struct Game {
    terrain: Grid<TileId>,
    cells: CellIndex,
    /// The thing records, each behind a `triomphe` pointer (one count, no weak count: a kept
    /// `Game::set` copies 8 bytes less).
    things: PVec<ThingArc<Thing>>,
    /// Each thing's flag word (see [`FlagBits`]), by id, apart from the records: derived
    /// data, kept with every change, rebuilt on load, checked by `check_invariants`, never
    /// saved, hashed or compared. An id naming no thing holds [`ABSENT`].
    flag_words: FlagWords,
    /// The property table of each thing whose properties are that table alone (no
    /// overrides) and that carries no modifier view, by id, apart from the records: a
    /// [`query`](Game::query) of such a thing reads the table without waiting for the
    /// record. Derived data like `flag_words`: kept with every change, rebuilt on load,
    /// checked by `check_invariants`, never saved, hashed or compared.
    plain: PlainTables,
    next_id: u64,
    rng: GameRng,
    turn: u64,
    /// What a turn writes but most reads never touch, behind one pointer, so a clone copies
    /// one count for all of it: the message log, the game variables, the layers and the actor
    /// queue.
    pub(crate) turnly: Arc<Turnly>,
    /// What most turns never write, behind one pointer, so a clone copies one count for
    /// all of it: the library, the flag indexes and the levels.
    pub(crate) rare: Arc<Rare>,
}

/// The most overrides the game variables keep over their table before they are folded into
/// a new one. Most turns write the same one or two variables (a turn clock, a regeneration
/// counter): once those are overrides over a table holding the rest, a write in a new version
/// copies those few entries, not every variable (a kept turn of Alchemy copied seven, 408
/// bytes). Equality, the hash and saves read the merged map, so the layering shows nowhere.
/// Two measured best in Alchemy's history bench (bytes per kept turn: 4,624 with one, 3,934
/// with two, 3,978 with three).
const VAR_OVERRIDES: usize = 2;

/// The parts of a [`Game`] that a turn writes once or twice (a first write in a new version
/// copies this record: a few pointers and the queue's counters).
#[derive(Clone, Default, PartialEq)]
pub(crate) struct Turnly {
    pub(crate) log: VectorSync<Message>,
    /// The game variables: a game's turn clock or regeneration counter is one, so most
    /// turns write them.
    pub(crate) vars: PropMap,
    pub(crate) layers: RedBlackTreeMapSync<Arc<str>, LayerCells>,
    pub(crate) schedule: ActorQueue,
}

/// The parts of a [`Game`] written rarely (a change copies this record: four pointers).
#[derive(Clone, Default, PartialEq)]
pub(crate) struct Rare {
    pub(crate) library: Library,
    pub(crate) indexes: FlagIndexes,
    pub(crate) levels: LevelTable,
    /// Which flags have a bit in every thing's flag word (derived: equal in every game).
    pub(crate) flag_bits: FlagBits,
}

/// The things' flag words by id (see [`Game`]'s field).
#[derive(Clone)]
struct FlagWords(Words<u64, 32>);

impl PartialEq for FlagWords {
    /// Always equal: the words are a cache of the things, not part of the value (equal
    /// games may even give the flags different positions).
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl FlagWords {
    fn new() -> Self {
        FlagWords(Words::new(ABSENT))
    }
}

/// See [`Game`]'s `plain` field.
#[derive(Clone)]
struct PlainTables(PVec<FatTable, 32>);

impl PartialEq for PlainTables {
    /// Always equal: a cache of the things, not part of the value.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The table that answers every query of `t`, if one does (see [`Game`]'s `plain` field).
#[inline]
fn plain_of(t: &Thing) -> Option<&Table> {
    if t.carried.is_some() {
        return None;
    }
    t.props.whole_table()
}

impl<T: PartialEq + Clone> PartialEq for PVec<T> {
    fn eq(&self, o: &Self) -> bool {
        self.ptr_eq(o) || (self.len() == o.len() && self.iter().eq(o.iter()))
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("turn", &self.turn)
            .field("things", &self.things.len())
            .field("next_id", &self.next_id)
            .field("prototypes", &self.rare.library.len())
            .field("terrain", &self.terrain)
            .field("state_hash", &format_args!("{:#018x}", self.state_hash()))
            .finish()
    }
}

impl Game {
    /// An empty world with an empty library and the RNG seeded from `seed`.
    pub fn new(seed: u64) -> Self {
        Game {
            terrain: Grid::new(TileId(0)),
            cells: CellIndex::new(),
            things: PVec::new(),
            flag_words: FlagWords::new(),
            plain: PlainTables(PVec::new()),
            next_id: 1,
            rng: GameRng::seed_from(seed),
            turn: 0,
            turnly: Arc::new(Turnly {
                log: VectorSync::new_sync(),
                vars: PropMap::new(),
                layers: RedBlackTreeMapSync::new_sync(),
                schedule: ActorQueue::default(),
            }),
            rare: Arc::new(Rare {
                library: Library::new(),
                indexes: FlagIndexes::default(),
                levels: LevelTable::default(),
                flag_bits: FlagBits::default(),
            }),
        }
    }

    // ----- library, rng, turn, log, game-wide variables -------------------------------------

    /// The prototype library.
    pub fn library(&self) -> &Library {
        &self.rare.library
    }

    /// The prototype library, to change in place.
    pub fn library_mut(&mut self) -> &mut Library {
        &mut Arc::make_mut(&mut self.rare).library
    }

    /// This game with another library.
    pub fn with_library(mut self, library: Library) -> Self {
        Arc::make_mut(&mut self.rare).library = library;
        self
    }

    /// The random number generator, to draw from (which changes this value's RNG state).
    pub fn rng(&mut self) -> &mut GameRng {
        &mut self.rng
    }

    /// Pick a prototype name at random with the game's own RNG: among those with `flag` set
    /// and a [`LEVEL`](crate::library::LEVEL) within `min_level..=max_level`, weighted by
    /// [`FREQ`](crate::library::FREQ). See [`Library::random_name`].
    pub fn random_name(
        &mut self,
        flag: &Prop<bool>,
        min_level: i32,
        max_level: i32,
    ) -> Result<Arc<str>, Error> {
        self.rare
            .library
            .random_name(&mut self.rng, flag, min_level, max_level)
    }
    /// [`Things::next_id`](crate::things::Things::next_id) (the implementation).
    pub(crate) fn next_free_id(&self) -> u64 {
        self.next_id
    }

    /// The turn counter: one for each [`Game::end_turn_mut`], which moves it on with the
    /// scheduler's [`Schedule::clock`](crate::schedule::Schedule::clock) (a game with a loop of
    /// its own sets it with [`Game::set_turn_mut`]).
    #[must_use]
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// Set the turn counter (games call this once a turn). Θ(1): the terrain has nothing to
    /// rebuild after a write.
    pub fn set_turn_mut(&mut self, turn: u64) {
        self.turn = turn;
    }

    /// Append a line to the message log (older lines beyond a few hundred are dropped).
    #[deprecated(
        since = "0.3.0",
        note = "English is not state: return typed events (a hook pushes them into `HookCtx::scratch`) and keep the words in a journal beside the game, as alembic-session's message log does; the log is not in `state_hash`"
    )]
    pub fn log_mut(&mut self, text: impl Into<Arc<str>>) {
        let turn = self.turn;
        let log = &mut Arc::make_mut(&mut self.turnly).log;
        log.push_back_mut(Message {
            turn,
            text: text.into(),
        });
        if log.len() > 2 * LOG_KEEP {
            let keep: Vec<Message> = log.iter().skip(LOG_KEEP).cloned().collect();
            *log = keep.into_iter().collect();
        }
    }

    /// Append a line to the message log as written on `turn` (a game that records what
    /// happened first and words it afterwards keeps each line's own turn).
    #[deprecated(
        since = "0.3.0",
        note = "English is not state: keep a journal beside the game (see `Game::log_mut`)"
    )]
    pub fn log_at_mut(&mut self, turn: u64, text: impl Into<Arc<str>>) {
        let now = self.turn;
        self.turn = turn;
        #[allow(deprecated)]
        self.log_mut(text);
        self.turn = now;
    }

    /// The message log, oldest first.
    #[deprecated(
        since = "0.3.0",
        note = "English is not state: keep a journal beside the game (see `Game::log_mut`)"
    )]
    pub fn messages(&self) -> impl DoubleEndedIterator<Item = &Message> + ExactSizeIterator {
        self.turnly.log.iter()
    }

    /// A game-wide variable, or its default, or [`Error::MissingProperty`].
    pub fn var<T: PropType>(&self, key: &Prop<T>) -> Result<T, Error> {
        self.turnly.vars.read(key)
    }

    /// Set a game-wide variable. When another version shares the variables, this copies
    /// only their overrides over a shared table: at most two entries, as a third folds them
    /// all into a new table.
    pub fn set_var_mut<T: PropType>(&mut self, key: &Prop<T>, value: T) {
        let vars = &mut Arc::make_mut(&mut self.turnly).vars;
        vars.insert_mut(key.key(), value.into_value());
        if vars.overrides() > VAR_OVERRIDES {
            *vars = vars.frozen();
        }
    }

    // ----- layers ----------------------------------------------------------------------------

    /// The layers, to read: a layer's value at a cell, a snapshot of a layer, the names
    /// ([`Layers`]). Θ(1); the view borrows the game.
    #[must_use]
    pub fn layers(&self) -> Layers<'_> {
        Layers::new(&self.turnly.layers)
    }

    /// Write `value` into `layer` at `loc`. In place when this value owns the path; older game
    /// values are untouched. Writing the zero value into a layer never written creates nothing.
    pub fn set_layer_mut<T: LayerValue>(&mut self, layer: &Layer<T>, loc: Loc, value: T) {
        let value = value.to_bits();
        if let Some(g) = self.turnly.layers.get(layer.name()) {
            if g.get(loc) != value
                && let Some(g) = Arc::make_mut(&mut self.turnly).layers.get_mut(layer.name())
            {
                g.set_mut(loc, value);
            }
            return;
        }
        if value == 0 {
            return;
        }
        Arc::make_mut(&mut self.turnly)
            .layers
            .insert_mut(Arc::from(layer.name()), LayerCells::new(loc, value));
    }

    // ----- terrain ---------------------------------------------------------------------------

    /// The tile at `loc` (tile 0, "void", where nothing was written).
    #[must_use]
    #[inline]
    pub fn tile(&self, loc: Loc) -> TileId {
        *self.terrain.get(loc)
    }

    /// The definition of the tile at `loc`.
    pub fn tile_def(&self, loc: Loc) -> Result<&TileDef, Error> {
        self.rare.library.tile(self.tile(loc))
    }

    /// A game with the tile at `loc` replaced.
    pub fn set_tile(&self, loc: Loc, tile: TileId) -> Result<Game, Error> {
        let mut g = self.clone();
        g.set_tile_mut(loc, tile)?;
        Ok(g)
    }

    /// Replace the tile at `loc` in place. The tile must exist in the library.
    pub fn set_tile_mut(&mut self, loc: Loc, tile: TileId) -> Result<(), Error> {
        self.rare.library.tile(tile)?;
        self.terrain.set_mut(loc, tile);
        Ok(())
    }

    /// Fill a box with one tile, in place.
    pub fn fill_tiles_mut(&mut self, area: LocBox, tile: TileId) -> Result<(), Error> {
        self.rare.library.tile(tile)?;
        self.terrain.fill_box_mut(area, tile);
        Ok(())
    }

    /// The terrain grid.
    pub fn terrain(&self) -> &Grid<TileId> {
        &self.terrain
    }

    // ----- reading things --------------------------------------------------------------------

    /// [`Things::get`](crate::things::Things::get) (the implementation).
    #[inline]
    pub(crate) fn thing_ref(&self, id: ThingId) -> Result<&Thing, Error> {
        // `ok_or_else`: an eager `ok_or` builds and drops an `Error` on every read.
        self.things
            .get(id.0)
            .map(|t| &**t)
            .ok_or_else(|| Error::NoSuchThing(id))
    }

    /// [`Things::prefetch`](crate::things::Things::prefetch) (the implementation): one read
    /// of each record's place, kept from the optimiser by `black_box` (the crate has no
    /// `unsafe`, so no prefetch instruction). The reads do not depend on one another, so
    /// the processor has many misses on their way at once.
    pub(crate) fn prefetch_things(&self, ids: &[ThingId]) {
        for id in ids {
            if let Some(t) = self.things.get(id.0) {
                std::hint::black_box(t.place);
            }
        }
    }

    /// [`Things::contains`](crate::things::Things::contains) (the implementation).
    #[must_use]
    pub(crate) fn has_thing(&self, id: ThingId) -> bool {
        self.things.get(id.0).is_some()
    }

    /// [`Things::count`](crate::things::Things::count) (the implementation).
    #[must_use]
    pub(crate) fn count_things(&self) -> usize {
        self.things.len()
    }

    /// [`Things::iter`](crate::things::Things::iter) (the implementation).
    pub(crate) fn every_thing(&self) -> impl Iterator<Item = &Thing> {
        self.things.iter().map(|(_, t)| &**t)
    }

    /// [`Things::at`](crate::things::Things::at) (the implementation).
    #[must_use]
    #[inline]
    pub(crate) fn cell_things(&self, loc: Loc) -> &[ThingId] {
        self.cells.get(loc)
    }

    /// [`Things::cursor`](crate::things::Things::cursor) (the implementation).
    #[must_use]
    pub(crate) fn cell_cursor(&self) -> CellView<'_> {
        CellView {
            cursor: self.cells.cursor(),
        }
    }

    /// [`Things::in_box`](crate::things::Things::in_box) (the implementation).
    #[must_use]
    pub(crate) fn cells_in_box(&self, area: LocBox) -> Vec<(Loc, &[ThingId])> {
        if area.is_empty() {
            return Vec::new();
        }
        let lo = |v: i32| i64::from(v);
        let hi = |v: i32| i64::from(v) - 1;
        self.cells.in_range(
            [lo(area.min.x), lo(area.min.y), lo(area.min.z)],
            [hi(area.max.x), hi(area.max.y), hi(area.max.z)],
        )
    }

    /// [`Things::on_level`](crate::things::Things::on_level) (the implementation).
    #[must_use]
    pub(crate) fn cells_on_level(&self, z: i32) -> Vec<(Loc, &[ThingId])> {
        let z = i64::from(z);
        self.cells.in_range(
            [i64::from(i32::MIN), i64::from(i32::MIN), z],
            [i64::from(i32::MAX), i64::from(i32::MAX), z],
        )
    }

    /// [`Things::ids_on_level`](crate::things::Things::ids_on_level) (the implementation).
    #[must_use]
    pub(crate) fn level_ids(&self, z: i32) -> Vec<ThingId> {
        self.cells.ids_on_level(z)
    }

    /// Every occupied map cell with its things, in the index's canonical order.
    pub(crate) fn cells_in_order(&self) -> Vec<(Loc, Vec<ThingId>)> {
        self.cells
            .iter()
            .map(|(l, ids)| (l, ids.to_vec()))
            .collect()
    }

    /// [`Things::contents`](crate::things::Things::contents) (the implementation).
    pub(crate) fn contents_of(&self, id: ThingId) -> Result<&[ThingId], Error> {
        // Most things hold nothing: their flag word says so without the record.
        if self.flag_words.0.get(id.0).is_some_and(holds_nothing) {
            return Ok(&[]);
        }
        Ok(self.thing_ref(id)?.contents())
    }

    /// [`Things::place`](crate::things::Things::place) (the implementation).
    pub(crate) fn place_of(&self, id: ThingId) -> Result<Place, Error> {
        let t = self.thing_ref(id)?;
        t.place.ok_or_else(|| Error::NoSuchThing(id))
    }

    /// [`Things::location`](crate::things::Things::location) (the implementation).
    pub(crate) fn location_of(&self, id: ThingId) -> Result<Loc, Error> {
        self.top_of(id).map(|(_, loc)| loc)
    }

    /// [`Things::outermost`](crate::things::Things::outermost) (the implementation).
    pub(crate) fn outermost_of(&self, id: ThingId) -> Result<ThingId, Error> {
        self.top_of(id).map(|(top, _)| top)
    }

    /// Follow containers up from `id` to the thing on the map, and where that is.
    fn top_of(&self, id: ThingId) -> Result<(ThingId, Loc), Error> {
        let mut cur = id;
        for _ in 0..=self.things.len() {
            match self.place_of(cur)? {
                Place::Map(l) => return Ok((cur, l)),
                Place::In(c) => cur = c,
            }
        }
        Err(Error::ContainmentCycle {
            thing: id,
            into: cur,
        })
    }

    /// A property of `id` with every active modifier of the things inside it applied, or the
    /// key's default, or [`Error::MissingProperty`].
    #[inline]
    pub fn query<T: PropType>(&self, id: ThingId, key: &Prop<T>) -> Result<T, Error> {
        match self.query_common(id, key) {
            Some(Some(x)) => Ok(x),
            Some(None) => match key.default_value() {
                Some(d) => Ok(d.clone()),
                None => self.query_full(id, key),
            },
            None => self.query_full(id, key),
        }
    }

    /// The common cases of a read, kept small so that they inline: a stored value with no
    /// modifier of its key, no value and no modifier of its key (`Some(None)`: the caller
    /// gives the default or `None`), or a stored integer under a run of additions. The index
    /// is read directly (an `Option` comes back in registers, `get_thing`'s `Result` through
    /// memory). `None` for everything else, errors included, which the out-of-line readers
    /// (`query_full`, `query_opt_full`) handle; they give the same results for these cases
    /// too.
    #[inline]
    fn query_common<T: PropType>(&self, id: ThingId, key: &Prop<T>) -> Option<Option<T>> {
        if let Some(table) = self.plain.0.get(id.0) {
            return match table.get(key.key()) {
                None => Some(None),
                Some(v) => T::from_value(v).map(Some),
            };
        }
        let t = self.things.get(id.0)?;
        let (mods, adds) = t
            .carried
            .as_deref()
            .map_or((&[][..], None), |c| c.for_key(key.key()));
        let stored = t.props.get(key.key());
        if mods.is_empty() {
            match stored {
                None => Some(None),
                Some(v) => T::from_value(v).map(Some),
            }
        } else if let (Some(a), Some(Value::Int(base))) = (adds, stored) {
            a.apply(*base)
                .and_then(|sum| T::from_value(&Value::Int(sum)))
                .map(Some)
        } else {
            None
        }
    }

    /// [`Game::query`] in full: every kind of value and modifier, and the errors.
    #[cold]
    #[inline(never)]
    fn query_full<T: PropType>(&self, id: ThingId, key: &Prop<T>) -> Result<T, Error> {
        match self.query_opt_full(id, key)? {
            Some(x) => Ok(x),
            None => key.missing().map_err(|e| self.about(e, id)),
        }
    }

    /// Like [`Game::query`], but `None` instead of the default or an error when absent.
    pub fn query_opt<T: PropType>(&self, id: ThingId, key: &Prop<T>) -> Result<Option<T>, Error> {
        match self.query_common(id, key) {
            Some(x) => Ok(x),
            None => self.query_opt_full(id, key),
        }
    }

    /// [`Game::query_opt`] in full: every kind of value and modifier, and the errors.
    #[cold]
    #[inline(never)]
    fn query_opt_full<T: PropType>(&self, id: ThingId, key: &Prop<T>) -> Result<Option<T>, Error> {
        let t = self.thing_ref(id)?;
        let (mods, adds) = t
            .carried
            .as_deref()
            .map_or((&[][..], None), |c| c.for_key(key.key()));
        let raw = if mods.is_empty() {
            t.props.get(key.key()).cloned()
        } else {
            modified(t, key, mods, adds)
        };
        raw.map(|v| key.decode(&v))
            .transpose()
            .map_err(|e| self.about(e, id))
    }

    /// `e` naming thing `id` and its prototype.
    fn about(&self, e: Error, id: ThingId) -> Error {
        let proto = self.things.get(id.0).and_then(|t| t.core.proto.as_ref());
        e.about(id, proto)
    }

    /// Whether flag `flag` reads true on `id` (modifiers applied). Missing things, missing
    /// flags and non-bool values read as false.
    ///
    /// Cost: for the flags in the game's flag word (the first 63 flag keys it met on its
    /// things), one read of the dense array of flag words by id (Θ(log₃₂ of the largest
    /// id): three array indexes below 32,768 ids, no thing record), one probe of the word's
    /// positions and a bit test, when no modifier the thing carries changes one of those
    /// flags (and, for a flag whose default is true, when the thing stores `true`);
    /// otherwise a [`query`](Game::query).
    #[must_use]
    #[inline]
    pub fn is(&self, id: ThingId, flag: &Prop<bool>) -> bool {
        if let Some(word) = self.flag_words.0.get(id.0)
            && let Some(answer) =
                self.rare
                    .flag_bits
                    .answer(word, flag.key().id(), flag.default_value())
        {
            return answer;
        }
        self.is_full(id, flag)
    }

    /// [`Game::is`] through [`Game::query`].
    #[cold]
    #[inline(never)]
    fn is_full(&self, id: ThingId, flag: &Prop<bool>) -> bool {
        self.query(id, flag).unwrap_or(false)
    }

    // ----- changing things -------------------------------------------------------------------

    /// A game where `id`'s base property `key` is `value`.
    pub fn set<T: PropType>(&self, id: ThingId, key: &Prop<T>, value: T) -> Result<Game, Error> {
        let mut g = self.clone();
        g.set_mut(id, key, value)?;
        Ok(g)
    }

    /// Set `id`'s base property `key` to `value`, in place.
    pub fn set_mut<T: PropType>(
        &mut self,
        id: ThingId,
        key: &Prop<T>,
        value: T,
    ) -> Result<(), Error> {
        let cur = self.thing_ref(id)?;
        let value = value.into_value();
        // Writing the value already there changes nothing: keep the thing (and the index
        // path to it) shared with older game values.
        if cur.props.get(key.key()) == Some(&value) {
            return Ok(());
        }
        // An indexed flag: keep the old record to compare with (Θ(1): an Arc).
        let old = self
            .rare
            .indexes
            .watches(key.key())
            .then(|| self.things.get(id.0).cloned())
            .flatten();
        // Copy only what other values share: the index path, the thing record and its
        // overrides; a sole owner writes in place.
        let t = self
            .things
            .get_mut(id.0)
            .ok_or_else(|| Error::NoSuchThing(id))?;
        let t = ThingArc::make_mut(t);
        let new_flag =
            matches!(value, Value::Bool(_)) && self.rare.flag_bits.would_assign(key.key().id());
        t.set_raw_mut(key.key(), value);
        let plain = plain_of(t).cloned();
        let word = self.flag_words.0.get(id.0).unwrap_or(ABSENT);
        let word = self.rare.flag_bits.rewrite(word, t, key.key().id());
        // The flag may switch one of its modifiers on or off in its holder.
        let holder = match t.place {
            Some(Place::In(c)) if t.switched_by(key.key()) => Some(c),
            _ => None,
        };
        self.flag_words.0.set(id.0, word);
        self.set_plain(id, plain);
        if let Some(old) = old {
            let new = self.things.get(id.0).cloned();
            self.update_indexes(id, Some(&old), new.as_deref());
        }
        if let Some(c) = holder {
            self.refresh_carried(c);
        }
        if new_flag {
            let mut bits = self.rare.flag_bits.clone();
            if bits.assign(key.key().id()) {
                Arc::make_mut(&mut self.rare).flag_bits = bits;
                self.rebuild_flag_words_mut();
            }
        }
        Ok(())
    }

    /// A game with `thing` added at `place` (a map location or inside a container), and the
    /// new thing's id.
    pub fn add_thing(
        &self,
        place: impl Into<Place>,
        thing: Thing,
    ) -> Result<(Game, ThingId), Error> {
        let mut g = self.clone();
        let id = g.add_thing_mut(place, thing)?;
        Ok((g, id))
    }

    /// Add a fresh `thing` at `place`, in place; returns its new id.
    pub fn add_thing_mut(
        &mut self,
        place: impl Into<Place>,
        mut thing: Thing,
    ) -> Result<ThingId, Error> {
        if let Some(id) = thing.core.id {
            return Err(Error::AlreadyPlaced(id));
        }
        let place = place.into();
        self.check_destination(None, place)?;
        let id = ThingId(self.next_id);
        self.next_id = self
            .next_id
            .checked_add(1)
            .ok_or_else(|| Error::IdsExhausted)?;
        Arc::make_mut(&mut thing.core).id = Some(id);
        thing.place = Some(place);
        thing.contents = IdList::default();
        thing.carried = None;
        let has_mods = thing.has_modifiers();
        self.update_indexes(id, None, Some(&thing));
        self.note_flags_mut(&thing);
        self.flag_words
            .0
            .set(id.0, self.rare.flag_bits.word(&thing));
        let plain = plain_of(&thing).cloned();
        self.things.set(id.0, Some(ThingArc::new(thing)));
        self.set_plain(id, plain);
        self.attach(id, place, has_mods);
        Ok(id)
    }

    /// A game without `id` and everything inside it.
    pub fn remove_thing(&self, id: ThingId) -> Result<Game, Error> {
        let mut g = self.clone();
        g.remove_thing_mut(id)?;
        Ok(g)
    }

    /// Remove `id` and everything inside it, in place; returns the removed thing as it was.
    pub fn remove_thing_mut(&mut self, id: ThingId) -> Result<Thing, Error> {
        let t = self.thing_ref(id)?.clone();
        let place = t.place.ok_or_else(|| Error::NoSuchThing(id))?;
        self.detach(id, place);
        let mut stack = vec![id];
        while let Some(x) = stack.pop() {
            if let Some(old) = self.things.set(x.0, None) {
                self.flag_words.0.set(x.0, ABSENT);
                self.set_plain(x, None);
                self.update_indexes(x, Some(&old), None);
                if self.turnly.schedule.slot.contains(x)
                    && let Some(place) = old.place
                {
                    Arc::make_mut(&mut self.turnly)
                        .schedule
                        .remove(x, Lane::of(place));
                }
                stack.extend_from_slice(old.contents.as_slice());
            }
        }
        Ok(t)
    }

    /// A game where the thing with `thing`'s id has `thing`'s prototype name, properties and
    /// modifiers. Its id, place and contents stay as the game has them.
    pub fn update_thing(&self, thing: Thing) -> Result<Game, Error> {
        let mut g = self.clone();
        g.update_thing_mut(thing)?;
        Ok(g)
    }

    /// In-place form of [`Game::update_thing`].
    pub fn update_thing_mut(&mut self, thing: Thing) -> Result<(), Error> {
        let Some(id) = thing.core.id else {
            return Err(Error::NoSuchThing(ThingId(0)));
        };
        let cur = self.thing_ref(id)?;
        if cur.core == thing.core && cur.props == thing.props {
            // Nothing changes: keep the thing shared with older game values.
            return Ok(());
        }
        let mut new = cur.clone();
        if new.core != thing.core {
            // The same id (it came from `thing`), another prototype name or modifiers.
            new.core = thing.core;
        }
        new.props = thing.props;
        // Only a change to its modifiers, or to a flag that switches one, changes what its
        // holder gets (an effect's ticking counter does not).
        let holder_sees_change = !new.applies_as(cur);
        let place = new.place;
        let old = self.things.get(id.0).cloned();
        self.update_indexes(id, old.as_deref(), Some(&new));
        self.note_flags_mut(&new);
        self.flag_words.0.set(id.0, self.rare.flag_bits.word(&new));
        let plain = plain_of(&new).cloned();
        self.things.set(id.0, Some(ThingArc::new(new)));
        self.set_plain(id, plain);
        if let (true, Some(Place::In(c))) = (holder_sees_change, place) {
            self.refresh_carried(c);
        }
        Ok(())
    }

    /// A game where `id` (with its contents) is at `to`.
    pub fn move_thing(&self, id: ThingId, to: impl Into<Place>) -> Result<Game, Error> {
        let mut g = self.clone();
        g.move_thing_mut(id, to)?;
        Ok(g)
    }

    /// Move `id` (with its contents) to `to`, in place.
    pub fn move_thing_mut(&mut self, id: ThingId, to: impl Into<Place>) -> Result<(), Error> {
        let to = to.into();
        let t = self.thing_ref(id)?;
        let from = t.place.ok_or_else(|| Error::NoSuchThing(id))?;
        let has_mods = t.has_modifiers();
        self.check_destination(Some(id), to)?;
        if from == to {
            return Ok(());
        }
        let step = match (from, to) {
            (Place::Map(a), Place::Map(b)) => Some((a, b)),
            _ => None,
        };
        match step {
            // A step on the map: one write of the cell index when both cells share a chunk.
            Some((a, b)) => self.cells.relocate(a, b, id),
            None => self.detach(id, from),
        }
        let mut t = self.thing_ref(id)?.clone();
        t.place = Some(to);
        self.things.set(id.0, Some(ThingArc::new(t)));
        if step.is_none() {
            self.attach(id, to, has_mods);
        }
        self.placed_mut(id, from, to)
    }

    /// Whether `id` takes turns (see
    /// [`Schedule::takes_turns`](crate::schedule::Schedule::takes_turns)).
    pub(crate) fn acts(&self, id: ThingId) -> bool {
        self.query(id, &ACTS).unwrap_or(false)
            || self.query_opt(id, &ON_ACTION).ok().flatten().is_some()
    }

    /// Put `id` in the actor queue to act `delay` ticks from now (see
    /// [`Scheduler::add`](crate::schedule::Scheduler::add)).
    pub(crate) fn queue_mut(&mut self, id: ThingId, delay: u64) -> Result<(), Error> {
        let lane = Lane::of(self.place_of(id)?);
        let at = self.turnly.schedule.clock.saturating_add(delay);
        Arc::make_mut(&mut self.turnly).schedule.put(id, at, lane);
        Ok(())
    }

    /// Keep the queue true to the awake levels, and `id` in its lane (its level, or
    /// carried), after it moved from `from` to `to`. Θ(1) for a move within a level; a
    /// queued actor that changes lanes is found in its lane (Θ(1) when it is the next to act).
    pub(crate) fn placed_mut(&mut self, id: ThingId, from: Place, to: Place) -> Result<(), Error> {
        let queued = self.turnly.schedule.slot.contains(id);
        if let (Some(awake), Place::Map(l)) = (&self.turnly.schedule.awake, to) {
            if !awake.contains(&l.z) {
                if queued {
                    Arc::make_mut(&mut self.turnly)
                        .schedule
                        .remove(id, Lane::of(from));
                }
                return Ok(());
            }
            if !queued && self.acts(id) {
                return self.queue_mut(id, 0);
            }
        }
        let (a, b) = (Lane::of(from), Lane::of(to));
        if queued && a != b {
            Arc::make_mut(&mut self.turnly)
                .schedule
                .change_lane(id, a, b);
        }
        Ok(())
    }

    /// Every indexed flag's set equals a fresh scan.
    pub(crate) fn check_indexes(&self) -> Result<(), InvariantError> {
        for key in self.rare.indexes.keys() {
            let mut fresh = FlagIndexes::default();
            fresh.build(key.clone(), self.every_thing());
            if fresh.get(key) != self.rare.indexes.get(key) {
                return Err(InvariantError::StaleIndex(key.clone()));
            }
        }
        Ok(())
    }

    // ----- internals: the only places that touch cells and contents --------------------------

    fn check_destination(&self, moving: Option<ThingId>, to: Place) -> Result<(), Error> {
        let Place::In(c) = to else { return Ok(()) };
        let container = self.thing_ref(c)?;
        if !container.is(&IS_CONTAINER) {
            return Err(Error::NotAContainer(c));
        }
        if let Some(id) = moving {
            // Walk up from the destination: reaching `id` means a cycle.
            let mut cur = c;
            for _ in 0..=self.things.len() {
                if cur == id {
                    return Err(Error::ContainmentCycle { thing: id, into: c });
                }
                match self.place_of(cur)? {
                    Place::Map(_) => return Ok(()),
                    Place::In(p) => cur = p,
                }
            }
            return Err(Error::ContainmentCycle { thing: id, into: c });
        }
        Ok(())
    }

    /// Add `id` to the list at `place`. The destination was checked.
    fn attach(&mut self, id: ThingId, place: Place, has_mods: bool) {
        match place {
            Place::Map(loc) => {
                self.cells.push(loc, id);
            }
            Place::In(c) => {
                if let Some(ct) = self.things.get_mut(c.0) {
                    ThingArc::make_mut(ct).contents.push(id);
                }
                self.note_holds(c);
                if has_mods {
                    self.refresh_carried(c);
                }
            }
        }
    }

    /// Remove `id` from the list at `place`.
    fn detach(&mut self, id: ThingId, place: Place) {
        match place {
            Place::Map(loc) => {
                self.cells.remove(loc, id);
            }
            Place::In(c) => {
                let mut carrier = false;
                if let Some(ct) = self.things.get_mut(c.0) {
                    let ct = ThingArc::make_mut(ct);
                    ct.contents.remove(id);
                    carrier = ct.modded_by().contains(&id);
                }
                self.note_holds(c);
                if carrier {
                    self.refresh_carried(c);
                }
            }
        }
    }

    /// Set or clear the [`HOLDS`] bit of `c`'s flag word to match its contents (after one
    /// came or went).
    fn note_holds(&mut self, c: ThingId) {
        let (Some(t), Some(word)) = (self.things.get(c.0), self.flag_words.0.get(c.0)) else {
            return;
        };
        if word == ABSENT {
            return;
        }
        let word = if t.contents.is_empty() {
            word & !HOLDS
        } else {
            word | HOLDS
        };
        self.flag_words.0.set(c.0, word);
    }

    /// Give a flag-word position to each flag of `t` that has none (while positions last),
    /// rebuilding every word when one is given. Θ(t's properties), plus Θ(things) on the
    /// rare call that assigns a position (at most 61 in a game's life).
    fn note_flags_mut(&mut self, t: &Thing) {
        if !self.rare.flag_bits.would_assign_any(t) {
            return;
        }
        let mut bits = self.rare.flag_bits.clone();
        if bits.assign_flags_of(t) {
            Arc::make_mut(&mut self.rare).flag_bits = bits;
            self.rebuild_flag_words_mut();
        }
    }

    /// Recompute every thing's flag word (after a flag got a position). Θ(things · flags);
    /// a thing is written only when its word changes.
    fn rebuild_flag_words_mut(&mut self) {
        let fresh: Vec<(u64, u64)> = self
            .things
            .iter()
            .map(|(i, t)| (i, self.rare.flag_bits.word(t)))
            .collect();
        for (i, w) in fresh {
            self.flag_words.0.set(i, w);
        }
    }

    /// Keep the flag indexes true when thing `id` changes from `old` to `new` (the shared
    /// record is copied only when some flag is indexed).
    fn update_indexes(&mut self, id: ThingId, old: Option<&Thing>, new: Option<&Thing>) {
        if !self.rare.indexes.is_empty() {
            Arc::make_mut(&mut self.rare).indexes.update(id, old, new);
        }
    }

    /// The modifiers `t`'s contents apply to it, computed afresh from the things inside.
    fn carried_of(&self, t: &Thing) -> Option<Arc<Carried>> {
        Carried::build(
            t.contents
                .as_slice()
                .iter()
                .filter_map(|&x| self.things.get(x.0).map(|ct| (x, &**ct))),
        )
    }

    /// Rebuild holder `c`'s derived modifier view after a carrier came, went or changed
    /// (Θ(its carriers' modifiers)); `c` is written only when the view changed.
    fn refresh_carried(&mut self, c: ThingId) {
        let Some(ct) = self.things.get(c.0) else {
            return;
        };
        let fresh = self.carried_of(ct);
        if fresh != ct.carried
            && let Some(ct) = self.things.get_mut(c.0)
        {
            let ct = ThingArc::make_mut(ct);
            ct.carried = fresh;
            let word = self.rare.flag_bits.word(ct);
            let plain = plain_of(ct).cloned();
            self.flag_words.0.set(c.0, word);
            self.set_plain(c, plain);
        }
    }

    /// Record `table` as thing `id`'s plain table (see the `plain` field), or that it has
    /// none; the array is written (its path copied) only when that changes.
    fn set_plain(&mut self, id: ThingId, table: Option<Table>) {
        let same = match (self.plain.0.get(id.0), &table) {
            (None, None) => true,
            (Some(a), Some(b)) => a.is(b),
            _ => false,
        };
        if !same {
            self.plain.0.set(id.0, table.map(|t| t.fat()));
        }
    }

    // ----- checking and hashing --------------------------------------------------------------

    /// Verify that the index, the cells and the containers agree, that nothing is inside
    /// itself, that the terrain names known tiles, and that the library holds none of the
    /// mistakes [`Library::warnings`] counts as errors (a `"base …"` parent that is not
    /// abstract, an engine key of the wrong kind). Θ(things + written cells + prototypes ·
    /// properties).
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        self.check_structure()?;
        if let Some(w) = self
            .rare
            .library
            .warnings()
            .into_iter()
            .find(|w| w.is_error())
        {
            return Err(InvariantError::Library(w));
        }
        Ok(())
    }

    /// [`Game::check_invariants`] without the library's warnings: what loading a value
    /// needs (a player's save loads whatever its game's library holds).
    pub(crate) fn check_structure(&self) -> Result<(), InvariantError> {
        self.terrain
            .check_invariants()
            .map_err(InvariantError::Grid)?;
        self.cells
            .check_invariants()
            .map_err(InvariantError::Grid)?;
        self.turnly.schedule.check(
            |id| self.has_thing(id),
            |id| match self.place_of(id) {
                Ok(Place::Map(l)) => Some(l.z),
                _ => None,
            },
        )?;
        self.check_indexes()?;
        self.check_key_ids()?;
        for g in self.turnly.layers.values() {
            g.check_invariants().map_err(InvariantError::Grid)?;
        }
        // Every occurrence of an id in a cell or a contents list must name a thing whose place
        // is that cell or container, and no id may occur twice. With the total count equal to
        // the index's size, every thing is then listed exactly once, where it is. Θ(n) with a
        // hash set, however things are piled into one cell or nested.
        let mut seen: HashSet<ThingId> = HashSet::with_capacity(self.things.len());
        let mut listed = 0usize;
        for (loc, list) in self.cells.iter() {
            for &id in list {
                match self.things.get(id.0) {
                    Some(t) if t.place == Some(Place::Map(loc)) => {}
                    _ => return Err(InvariantError::StrayInCell(loc, id)),
                }
                if !seen.insert(id) {
                    return Err(InvariantError::NotInCell(id, loc));
                }
            }
            listed += list.len();
        }
        for (slot, t) in self.things.iter() {
            let sid = ThingId(slot);
            if t.core.id != Some(sid) {
                return Err(InvariantError::IndexIdMismatch {
                    slot: sid,
                    found: t.core.id,
                });
            }
            if slot >= self.next_id {
                return Err(InvariantError::IdAboveNext(sid, self.next_id));
            }
            if t.place.is_none() {
                return Err(InvariantError::Unplaced(sid));
            }
            for &child in t.contents.as_slice() {
                match self.things.get(child.0) {
                    Some(ch) if ch.place == Some(Place::In(sid)) => {}
                    _ => return Err(InvariantError::StrayInContents(sid, child)),
                }
                if !seen.insert(child) {
                    return Err(InvariantError::NotInContents(child, sid));
                }
            }
            // The derived modifier view (carriers and active modifiers) against a fresh one.
            if self.carried_of(t) != t.carried {
                return Err(InvariantError::StaleModifiers(sid));
            }
            // The derived flag word against a fresh one.
            if Some(self.rare.flag_bits.word(t)) != self.flag_words.0.get(slot) && slot < 1 << 32 {
                return Err(InvariantError::StaleFlags(sid));
            }
            // The derived plain table: the thing's own when it has one, else none.
            let plain_ok = match (plain_of(t), self.plain.0.get(slot)) {
                (None, None) => true,
                (Some(a), Some(b)) => b.is(a),
                _ => false,
            };
            if !plain_ok {
                return Err(InvariantError::StalePlainTable(sid));
            }
            listed += t.contents.len();
        }
        for (slot, t) in self.things.iter() {
            let sid = ThingId(slot);
            if !seen.contains(&sid) {
                return Err(match t.place {
                    Some(Place::In(c)) => InvariantError::NotInContents(sid, c),
                    Some(Place::Map(loc)) => InvariantError::NotInCell(sid, loc),
                    None => InvariantError::Unplaced(sid),
                });
            }
        }
        // An id that names no thing has no plain table.
        for (i, _) in self.plain.0.iter() {
            if self.things.get(i).is_none() {
                return Err(InvariantError::StalePlainTable(ThingId(i)));
            }
        }
        // An id that names no thing holds the absent word (every flag false).
        for (i, _) in self.flag_words.0.written() {
            if self.things.get(i).is_none() {
                return Err(InvariantError::StaleFlags(ThingId(i)));
            }
        }
        if listed != self.things.len() {
            return Err(InvariantError::CountMismatch {
                index: self.things.len(),
                placed: listed,
            });
        }
        // No cycles: every chain of holders reaches the map. Each thing is walked once: a
        // walk stops at the first holder already known to reach the map. Θ(n).
        let mut grounded: HashSet<ThingId> = HashSet::with_capacity(self.things.len());
        let mut chain = Vec::new();
        for (slot, _) in self.things.iter() {
            let mut cur = ThingId(slot);
            chain.clear();
            loop {
                if grounded.contains(&cur) {
                    break;
                }
                chain.push(cur);
                if chain.len() > self.things.len() {
                    return Err(InvariantError::Cycle(ThingId(slot)));
                }
                match self.things.get(cur.0).and_then(|x| x.place) {
                    Some(Place::In(c)) => cur = c,
                    _ => break,
                }
            }
            grounded.extend(chain.iter().copied());
        }
        for (loc, tile) in self.terrain.iter_set() {
            if self.rare.library.tile(*tile).is_err() {
                return Err(InvariantError::UnknownTile(loc, tile.0));
            }
        }
        Ok(())
    }

    /// That no two property names the game holds share an integer id (lookups compare ids
    /// only). Θ(distinct tables' keys + overrides + modifiers).
    fn check_key_ids(&self) -> Result<(), InvariantError> {
        let mut ids = KeyIds::default();
        let mut note = || -> Result<(), (PropKey, PropKey)> {
            for p in self.rare.library.prototypes() {
                ids.note_map(p.props())?;
                ids.note_mods(p.modifiers())?;
            }
            for (_, t) in self.rare.library.tiles() {
                ids.note_map(t.props())?;
            }
            for t in self.every_thing() {
                ids.note_map(&t.props)?;
                ids.note_mods(&t.core.mods)?;
            }
            ids.note_map(&self.turnly.vars)?;
            for k in self.rare.indexes.keys() {
                ids.note(k)?;
            }
            Ok(())
        };
        note().map_err(|(a, b)| InvariantError::KeyIdCollision(a, b))
    }

    /// A 64-bit hash of the whole value, stable across runs and machines: equal games hash
    /// equally, and the same seed with the same commands gives the same hash.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = StableHasher::new();
        self.hash(&mut h);
        h.finish()
    }

    /// Whether `self` and `other` are the very same version of a game: every part shares its
    /// storage and the counters agree, so they are certainly equal. Equality (`==`) compares
    /// contents, and also finds equal games that were made apart; this never does. Θ(1): a
    /// few pointer and number comparisons.
    ///
    /// It keys a cache of something worked out from a game (a field of view, a path map) to
    /// the exact version it came from. Keep a clone of that version with the cache: while
    /// the clone lives, its storage is shared, so no write to either game can change it in
    /// place, and no other game can come to own the same storage.
    ///
    /// ```
    /// use alembic::{Game, Loc, Props, Thing};
    /// let mut game = Game::new(1);
    /// game.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
    /// let kept = game.clone();
    /// assert!(kept.ptr_eq(&game));
    /// game.set_turn_mut(game.turn() + 1);
    /// assert!(!kept.ptr_eq(&game));
    /// // Equal, but made apart: not the same version.
    /// assert_eq!(Game::new(1), Game::new(1));
    /// assert!(!Game::new(1).ptr_eq(&Game::new(1)));
    /// # Ok::<(), alembic::Error>(())
    /// ```
    #[must_use]
    pub fn ptr_eq(&self, other: &Game) -> bool {
        // The flag words and plain tables are derived from the things; the rest is here.
        self.terrain.ptr_eq(&other.terrain)
            && self.cells.ptr_eq(&other.cells)
            && self.things.ptr_eq(&other.things)
            && self.next_id == other.next_id
            && self.turn == other.turn
            && self.rng == other.rng
            && Arc::ptr_eq(&self.turnly, &other.turnly)
            && Arc::ptr_eq(&self.rare, &other.rare)
    }
}

/// The value of `key` on `t` after `mods` (its holder view's run for `key`, in application
/// order, with their sum when they are all additions); `None` = absent with no default.
#[inline]
fn modified<T: PropType>(
    t: &Thing,
    key: &Prop<T>,
    mods: &[Modifier],
    adds: Option<&AddRun>,
) -> Option<Value> {
    // Integers (the common case) go through the modifiers as integers, with the same
    // results, and without copying the stored value; a value of another kind, or a `Set`
    // to one, goes on as a `Value`.
    let (mut int, start) = match t.props.get(key.key()) {
        Some(Value::Int(i)) => (Some(*i), None),
        Some(other) => (None, Some(other.clone())),
        None => match key.default_value().cloned().map(PropType::into_value) {
            Some(Value::Int(i)) => (Some(i), None),
            None => (None, None),
            other => (None, other),
        },
    };
    let mut rest = mods;
    let mut v = match start {
        Some(other) => Some(other),
        // A run of additions (non-empty: an addition makes a missing value 0 first).
        None if let Some(sum) = adds.and_then(|a| a.apply(int.unwrap_or(0))) => {
            rest = &[];
            Some(Value::Int(sum))
        }
        None => {
            while let Some((m, more)) = rest.split_first() {
                match m.apply_int(int) {
                    Some(next) => int = next,
                    None => break,
                }
                rest = more;
            }
            int.map(Value::Int)
        }
    };
    for m in rest {
        v = m.apply(v);
    }
    v
}

impl Hash for Game {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash_world(state, false);
    }
}

impl Game {
    /// [`Game::state_hash`] as builds before 0.3 made it, the message log included: the
    /// checksum of saves that stored the whole value ([`crate::save::written_state_hash`]).
    pub(crate) fn state_hash_with_log(&self) -> u64 {
        let mut h = StableHasher::new();
        self.hash_world(&mut h, true);
        h.finish()
    }

    /// The world into `state`, and the message log too when `with_log` (see
    /// [`Game::state_hash_with_log`]).
    fn hash_world<H: Hasher>(&self, state: &mut H, with_log: bool) {
        SAVE_FORMAT.hash(state);
        self.terrain.hash(state);
        // Hashed as the `Grid<IdList>` it once was (the empty list, then every occupied
        // cell in canonical order), so state hashes don't depend on the index's layout.
        <[ThingId]>::hash(&[], state);
        for (loc, ids) in self.cells.iter() {
            loc.hash(state);
            ids.hash(state);
        }
        (self.things.len() as u64).hash(state);
        for (i, t) in self.things.iter() {
            i.hash(state);
            t.hash(state);
        }
        self.next_id.hash(state);
        self.rare.library.hash(state);
        // The RNG's state, observed through its next outputs (a pure function of the state).
        let mut r = self.rng.clone();
        for _ in 0..4 {
            r.next_u64().hash(state);
        }
        self.turn.hash(state);
        // The message log is not the world: English is said of it, and two games that say
        // different things of the same world are the same game. (An empty log added
        // nothing to this hash before, so state hashes of games without one are unchanged;
        // old whole-value saves are checked with it, as they were written.)
        if with_log {
            for m in self.turnly.log.iter() {
                m.hash(state);
            }
        }
        self.turnly.vars.hash(state);
        for (k, g) in self.turnly.layers.iter() {
            k.hash(state);
            g.hash(state);
        }
        // Hashed only when used, so games that never schedule or index keep their hashes.
        if !self.turnly.schedule.is_empty() {
            self.turnly.schedule.hash_into(state);
        }
        for k in self.rare.indexes.keys() {
            k.hash(state);
        }
        if !self.rare.levels.is_empty() {
            self.rare.levels.hash_into(state);
        }
    }
}

/// The serialized form of a game.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct GameRepr {
    pub(crate) format: u32,
    pub(crate) turn: u64,
    pub(crate) next_id: u64,
    pub(crate) rng: GameRng,
    pub(crate) library: Library,
    pub(crate) vars: PropMap,
    pub(crate) terrain: Grid<TileId>,
    pub(crate) cells: Grid<IdList>,
    pub(crate) things: Vec<Thing>,
    pub(crate) log: Vec<Message>,
    /// Absent in saves written before layers existed.
    #[serde(default)]
    pub(crate) layers: Vec<(Arc<str>, Grid<u64>)>,
    /// The actor queue; `None` when nothing was ever scheduled (and absent in older saves).
    /// Always written, so formats that are not self-describing (postcard) read it back.
    #[serde(default)]
    pub(crate) schedule: Option<ActorQueueRepr>,
    /// The indexed flags (absent in older saves). The indexes are rebuilt on load.
    #[serde(default)]
    pub(crate) indexed: Vec<PropKey>,
    /// Level bounds and stair links; `None` when none are recorded (absent in older saves).
    #[serde(default)]
    pub(crate) levels: Option<LevelTableRepr>,
    /// The generation of the engine's key names (absent, 0, before 0.2: the keys are renamed
    /// on load; see `migrate`).
    #[serde(default)]
    pub(crate) key_names: u32,
}

impl GameRepr {
    /// Read a value written before 0.2: the engine's keys get their `alembic.` names, a
    /// `"base …"` prototype is abstract as its name made it, and a game that never had an
    /// actor queue gets one holding every thing that takes turns (0.1's games ran their
    /// actors themselves; without this, nothing would ever act).
    fn migrate_keys_mut(&mut self) {
        self.library = migrate::library(&self.library);
        for t in &mut self.things {
            t.props = migrate::map(&t.props);
            if t.core.mods.iter().any(|m| migrate::modifier(m) != *m) {
                let core = Arc::make_mut(&mut t.core);
                core.mods = migrate::modifiers(&core.mods);
            }
        }
        self.vars = migrate::map(&self.vars);
        for k in &mut self.indexed {
            *k = migrate::key(k);
        }
        self.key_names = migrate::KEY_NAMES;
    }
}

impl Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_repr().serialize(s)
    }
}

impl Game {
    /// The saved form of this game, library and things in full.
    pub(crate) fn to_repr(&self) -> GameRepr {
        GameRepr {
            format: SAVE_FORMAT,
            turn: self.turn,
            next_id: self.next_id,
            rng: self.rng.clone(),
            library: self.rare.library.clone(),
            vars: self.turnly.vars.clone(),
            terrain: self.terrain.clone(),
            cells: self.cells.to_grid(),
            things: self.every_thing().cloned().collect(),
            log: self.turnly.log.iter().cloned().collect(),
            layers: self
                .turnly
                .layers
                .iter()
                .map(|(k, g)| (k.clone(), g.to_wide()))
                .collect(),
            schedule: (!self.turnly.schedule.is_empty()).then(|| self.turnly.schedule.to_repr()),
            indexed: self.rare.indexes.keys().cloned().collect(),
            levels: (!self.rare.levels.is_empty()).then(|| self.rare.levels.to_repr()),
            key_names: migrate::KEY_NAMES,
        }
    }
}

impl<'de> Deserialize<'de> for Game {
    /// Loads and then verifies the game: a value that breaks any invariant (a hand-edited or
    /// corrupt save) is refused with the broken rule in the message.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let r = GameRepr::deserialize(d)?;
        Game::from_repr(r).map_err(D::Error::custom)
    }
}

impl Game {
    /// The game a saved form describes, verified; the error is the broken rule in English.
    pub(crate) fn from_repr(r: GameRepr) -> Result<Game, String> {
        Game::from_repr_with(r, true)
    }

    /// [`Game::from_repr`], optionally leaving a pre-0.2 value's keys as they were written
    /// (only to compute the state hash it was written with).
    pub(crate) fn from_repr_with(mut r: GameRepr, migrate: bool) -> Result<Game, String> {
        if r.format != SAVE_FORMAT {
            return Err(format!(
                "save format {} is not supported (this build reads format {SAVE_FORMAT})",
                r.format
            ));
        }
        // A 0.1 game with no actor queue: its games ran their actors themselves.
        let unqueued_legacy = migrate && r.key_names < migrate::KEY_NAMES && r.schedule.is_none();
        if migrate && r.key_names < migrate::KEY_NAMES {
            r.migrate_keys_mut();
        }
        let mut things = PVec::new();
        for t in &r.things {
            let id = t
                .core
                .id
                .ok_or_else(|| "a saved thing has no id".to_string())?;
            let mut t = t.clone();
            // Share the prototype's table again, keeping only the thing's own overrides
            // (the same map, so the same hash and the same save).
            if let Some(p) = t.core.proto.as_deref().and_then(|p| r.library.get(p).ok()) {
                t.props = t.props.rebased(p.props());
            }
            if things.set(id.0, Some(ThingArc::new(t))).is_some() {
                return Err(format!("thing {id} is saved twice"));
            }
        }
        // Rebuild each container's derived modifier view from its contents.
        for t in &r.things {
            if t.contents.is_empty() {
                continue;
            }
            let carried = Carried::build(
                t.contents
                    .as_slice()
                    .iter()
                    .filter_map(|&c| things.get(c.0).map(|x: &ThingArc<Thing>| (c, &**x))),
            );
            if let Some(nt) = t.core.id.and_then(|id| things.get_mut(id.0)) {
                ThingArc::make_mut(nt).carried = carried;
            }
        }
        let g = Game {
            terrain: r.terrain,
            cells: CellIndex::from_grid(&r.cells),
            things,
            flag_words: FlagWords::new(),
            plain: PlainTables(PVec::new()),
            next_id: r.next_id,
            rng: r.rng,
            turn: r.turn,
            turnly: Arc::new(Turnly {
                log: r.log.into_iter().collect(),
                vars: r.vars,
                layers: r
                    .layers
                    .into_iter()
                    .map(|(k, g)| (k, LayerCells::from_wide(g)))
                    .collect(),
                schedule: r.schedule.map(ActorQueue::from_repr).unwrap_or_default(),
            }),
            rare: Arc::new(Rare {
                library: r.library,
                indexes: FlagIndexes::default(),
                levels: r.levels.map(LevelTable::from_repr).unwrap_or_default(),
                flag_bits: FlagBits::default(),
            }),
        };
        let mut g = g;
        // Each queued actor in its lane: its level, or carried.
        if !g.turnly.schedule.is_empty() {
            let things = &g.things;
            Arc::make_mut(&mut g.turnly).schedule.relane(|id| {
                match things.get(id.0).and_then(|t| t.place) {
                    Some(Place::Map(l)) => Lane::Level(l.z),
                    _ => Lane::Off,
                }
            });
        }
        // The flag words: positions for the flags met, in id order, then every word.
        let mut bits = FlagBits::default();
        for t in g.every_thing() {
            bits.assign_flags_of(t);
        }
        Arc::make_mut(&mut g.rare).flag_bits = bits;
        g.rebuild_flag_words_mut();
        let plain: Vec<(u64, FatTable)> = g
            .things
            .iter()
            .filter_map(|(i, t)| plain_of(t).map(|tab| (i, tab.fat())))
            .collect();
        for (i, tab) in plain {
            g.plain.0.set(i, Some(tab));
        }
        if unqueued_legacy {
            let mut actors: Vec<ThingId> = g
                .every_thing()
                .filter(|t| matches!(t.place, Some(Place::Map(_))))
                .filter_map(|t| t.core.id)
                .collect();
            actors.sort_unstable();
            for id in actors {
                if g.acts(id) {
                    g.queue_mut(id, 0).map_err(|e| e.to_string())?;
                }
            }
        }
        for key in r.indexed {
            let mut indexes = g.rare.indexes.clone();
            indexes.build(key, g.every_thing());
            Arc::make_mut(&mut g.rare).indexes = indexes;
        }
        g.check_structure()
            .map_err(|e| format!("inconsistent game: {e}"))?;
        Ok(g)
    }
}
