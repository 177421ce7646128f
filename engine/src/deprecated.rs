//! The old forms of what moved, each kept for one minor version with a deprecation warning
//! that names the new form, so that code written against the previous release still builds:
//! - the crate-root paths of the names that moved into their modules in 0.2.0 (removed in
//!   0.3.0). Traits (`LayerValue`, `PropType`) cannot be aliased on stable Rust:
//!   `scripts/migrate-names.sh` rewrites those paths;
//! - the methods of [`Game`] that moved into its views in 0.3.0 (`game.get_thing(id)` is
//!   `game.things().get(id)`; removed in 0.4.0), each running its new form's code. The module is
//!   the top of the engine's import layers: nothing in the crate calls these.
#![allow(missing_docs)]

use crate::loc::{Loc, LocBox};
use crate::*;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::ABSTRACT`")]
pub const ABSTRACT: Prop<bool> = library::ABSTRACT;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::Adjacency`")]
pub type Adjacency = mapgen::Adjacency;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::schedule::Advance`")]
pub type Advance = schedule::Advance;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::Arg`")]
pub type Arg = wizard::Arg;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::Args`")]
pub type Args = wizard::Args;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::grid::BoxIter`")]
pub type BoxIter<'a, T> = grid::BoxIter<'a, T>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::history::BranchInfo`")]
pub type BranchInfo<'a> = history::BranchInfo<'a>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::Bsp`")]
pub type Bsp = mapgen::Bsp;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::BspDungeon`")]
pub type BspDungeon = mapgen::BspDungeon;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::BspSplit`")]
pub type BspSplit = mapgen::BspSplit;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::history::Budget`")]
pub type Budget = history::Budget;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::Cave`")]
pub type Cave = mapgen::Cave;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::dice::Dice`")]
pub type Dice = dice::Dice;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::dice::DiceError`")]
pub type DiceError = dice::DiceError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::DijkstraMap`")]
pub type DijkstraMap = path::DijkstraMap;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::Disconnected`")]
pub type Disconnected = mapgen::Disconnected;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::Entry`")]
pub type Entry<C> = replay::Entry<C>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::FREQ`")]
pub const FREQ: Prop<i32> = library::FREQ;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::fov::Fov`")]
pub type Fov = fov::Fov;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::error::GameError`")]
pub type GameError = error::GameError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::rng::GameRng`")]
pub type GameRng = rng::GameRng;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::grid::Grid`")]
pub type Grid<T> = grid::Grid<T>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::grid::GridView`")]
pub type GridView<'a, T> = grid::GridView<'a, T>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::HandlerFn`")]
pub type HandlerFn<G> = wizard::HandlerFn<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::history::History`")]
pub type History<S, C> = history::History<S, C>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::history::HistoryError`")]
pub type HistoryError<E = std::convert::Infallible> = history::HistoryError<E>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::Hook`")]
pub type Hook = props::Hook;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::HookCall`")]
pub type HookCall = hook::HookCall;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::HookFn`")]
pub type HookFn = hook::HookFn;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::IS_CONTAINER`")]
pub const IS_CONTAINER: Prop<bool> = library::IS_CONTAINER;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::thing::IdList`")]
pub type IdList = thing::IdList;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::error::InvariantError`")]
pub type InvariantError = error::InvariantError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::LEVEL`")]
pub const LEVEL: Prop<i32> = library::LEVEL;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::layer::Layer`")]
pub type Layer<T> = layer::Layer<T>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::layer::LayerGrid`")]
pub type LayerGrid<T> = layer::LayerGrid<T>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::level::LevelMap`")]
pub type LevelMap = level::LevelMap;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::LibraryId`")]
pub type LibraryId = library::LibraryId;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::light::LightMap`")]
pub type LightMap = light::LightMap;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::light::LightSource`")]
pub type LightSource = light::LightSource;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::save::LoadError`")]
pub type LoadError = save::LoadError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::fov::MAX_FOV_RADIUS`")]
pub const MAX_FOV_RADIUS: u32 = fov::MAX_FOV_RADIUS;

#[deprecated(
    since = "0.2.0",
    note = "moved: use `alembic::replay::MAX_REPLAY_BYTES`"
)]
pub const MAX_REPLAY_BYTES: usize = replay::MAX_REPLAY_BYTES;

#[deprecated(
    since = "0.2.0",
    note = "moved: use `alembic::replay::MAX_REPLAY_ENTRIES`"
)]
pub const MAX_REPLAY_ENTRIES: usize = replay::MAX_REPLAY_ENTRIES;

#[deprecated(
    since = "0.2.0",
    note = "moved: use `alembic::replay::MAX_REPLAY_LINE`"
)]
pub const MAX_REPLAY_LINE: usize = replay::MAX_REPLAY_LINE;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::MAX_SEARCH_CELLS`")]
pub const MAX_SEARCH_CELLS: usize = path::MAX_SEARCH_CELLS;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::MapGenError`")]
pub type MapGenError = mapgen::MapGenError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::game::Message`")]
pub type Message = game::Message;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::ModOp`")]
pub type ModOp = props::ModOp;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::Modifier`")]
pub type Modifier = props::Modifier;

#[deprecated(
    since = "0.2.0",
    note = "moved: use `alembic::schedule::NORMAL_ACTION`"
)]
pub const NORMAL_ACTION: u64 = schedule::NORMAL_ACTION;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_ACTION`")]
pub const ON_ACTION: Prop<props::Hook> = hook::ON_ACTION;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_CONSUME`")]
pub const ON_CONSUME: Prop<props::Hook> = hook::ON_CONSUME;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_CREATE`")]
pub const ON_CREATE: Prop<props::Hook> = hook::ON_CREATE;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_DEATH`")]
pub const ON_DEATH: Prop<props::Hook> = hook::ON_DEATH;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_HIT`")]
pub const ON_HIT: Prop<props::Hook> = hook::ON_HIT;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_TICK`")]
pub const ON_TICK: Prop<props::Hook> = hook::ON_TICK;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hook::ON_USE`")]
pub const ON_USE: Prop<props::Hook> = hook::ON_USE;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::error::Owner`")]
pub type Owner = error::Owner;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::Param`")]
pub type Param<G> = wizard::Param<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::ParamKind`")]
pub type ParamKind<G> = wizard::ParamKind<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::Path`")]
pub type Path = path::Path;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::PathError`")]
pub type PathError = path::PathError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::Pathfinder`")]
pub type Pathfinder = path::Pathfinder;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::PropKey`")]
pub type PropKey = props::PropKey;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::PropMap`")]
pub type PropMap = props::PropMap;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::Prototype`")]
pub type Prototype = library::Prototype;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::REPLAY_FORMAT`")]
pub const REPLAY_FORMAT: &str = replay::REPLAY_FORMAT;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::REPLAY_VERSION`")]
pub const REPLAY_VERSION: u32 = replay::REPLAY_VERSION;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::Recording`")]
pub type Recording<C> = replay::Recording<C>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::Regions`")]
pub type Regions = mapgen::Regions;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::ReplayError`")]
pub type ReplayError = replay::ReplayError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::ReplayHeader`")]
pub type ReplayHeader = replay::ReplayHeader;

#[deprecated(
    since = "0.2.0",
    note = "moved: use `alembic::save::SAVED_GAME_FORMAT`"
)]
pub const SAVED_GAME_FORMAT: u32 = save::SAVED_GAME_FORMAT;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::game::SAVE_FORMAT`")]
pub const SAVE_FORMAT: u32 = game::SAVE_FORMAT;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::schedule::SPEED`")]
pub const SPEED: Prop<i32> = schedule::SPEED;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::save::SavedGame`")]
pub type SavedGame = save::SavedGame;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::Search`")]
pub type Search = path::Search;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::hash::StableHasher`")]
pub type StableHasher = hash::StableHasher;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::TileDef`")]
pub type TileDef = library::TileDef;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::library::TileId`")]
pub type TileId = library::TileId;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::TileMap`")]
pub type TileMap<T> = mapgen::TileMap<T>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::Value`")]
pub type Value = props::Value;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::props::ValueKind`")]
pub type ValueKind = props::ValueKind;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::replay::Verified`")]
pub type Verified<S> = replay::Verified<S>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::fov::VisibleSet`")]
pub type VisibleSet = fov::VisibleSet;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::WizardCommands`")]
pub type WizardCommands<G> = wizard::WizardCommands<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::WizardError`")]
pub type WizardError = wizard::WizardError;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::WizardOutcome`")]
pub type WizardOutcome<G> = wizard::WizardOutcome<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::WizardSpec`")]
pub type WizardSpec<G> = wizard::WizardSpec<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::wizard::WordsFn`")]
pub type WordsFn<G> = wizard::WordsFn<G>;

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::astar`")]
pub fn astar(
    start: Loc,
    goal: Loc,
    search: &path::Search,
    cost: impl Fn(Loc, Loc) -> Option<u32>,
) -> Result<path::Path, path::PathError> {
    path::astar(start, goal, search, cost)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::bsp_dungeon`")]
pub fn bsp_dungeon(
    width: i32,
    height: i32,
    rng: &mut rng::GameRng,
) -> Result<mapgen::TileMap<bool>, mapgen::MapGenError> {
    mapgen::bsp_dungeon(width, height, rng)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::dice::d`")]
pub fn d(rng: &mut rng::GameRng, n: u32) -> u32 {
    dice::d(rng, n)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::path::explore_targets`")]
pub fn explore_targets(
    area: LocBox,
    explored: impl Fn(Loc) -> bool,
    passable: impl Fn(Loc) -> bool,
) -> Vec<Loc> {
    path::explore_targets(area, explored, passable)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::fov::field_of_view`")]
pub fn field_of_view(
    origin: Loc,
    radius: u32,
    transparent: impl Fn(Loc) -> bool,
) -> fov::VisibleSet {
    fov::field_of_view(origin, radius, transparent)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::dice::poisson`")]
pub fn poisson(rng: &mut rng::GameRng, lambda: f64) -> u64 {
    dice::poisson(rng, lambda)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::random_room`")]
pub fn random_room(
    area: LocBox,
    min_side: i32,
    max_side: i32,
    rng: &mut rng::GameRng,
) -> Result<LocBox, mapgen::MapGenError> {
    mapgen::random_room(area, min_side, max_side, rng)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::mapgen::retry`")]
pub fn retry<T>(
    rng: &mut rng::GameRng,
    attempts: usize,
    step: impl FnMut(&mut rng::GameRng) -> Result<T, mapgen::MapGenError>,
) -> Result<T, mapgen::MapGenError> {
    mapgen::retry(rng, attempts, step)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::dice::weighted_choice`")]
pub fn weighted_choice<'a, T>(rng: &mut rng::GameRng, items: &'a [(T, u32)]) -> Option<&'a T> {
    dice::weighted_choice(rng, items)
}

#[deprecated(since = "0.2.0", note = "moved: use `alembic::dice::weighted_index`")]
pub fn weighted_index(rng: &mut rng::GameRng, weights: &[u32]) -> Option<usize> {
    dice::weighted_index(rng, weights)
}

// The 0.2 methods of `Game` whose reads moved into views in 0.3 (`game.schedule()`,
// `game.levels()`, `game.indexes()`, `game.layers()`): deprecated, gone in 0.4.
impl Game {
    /// Deprecated: [`Schedule::clock`](schedule::Schedule::clock).
    #[deprecated(since = "0.3.0", note = "use game.schedule().clock()")]
    #[must_use]
    pub fn clock(&self) -> u64 {
        self.schedule().clock()
    }

    /// Deprecated: [`Schedule::is_scheduled`](schedule::Schedule::is_scheduled).
    #[deprecated(since = "0.3.0", note = "use game.schedule().is_scheduled(id)")]
    #[must_use]
    pub fn is_scheduled(&self, id: ThingId) -> bool {
        self.schedule().is_scheduled(id)
    }

    /// Deprecated: [`Schedule::actors`](schedule::Schedule::actors).
    #[deprecated(since = "0.3.0", note = "use game.schedule().actors()")]
    pub fn actors(&self) -> impl Iterator<Item = ThingId> + '_ {
        self.schedule().actors()
    }

    /// Deprecated: [`Schedule::next_actor`](schedule::Schedule::next_actor).
    #[deprecated(since = "0.3.0", note = "use game.schedule().next_actor()")]
    #[must_use]
    pub fn next_actor(&self) -> Option<ThingId> {
        self.schedule().next_actor()
    }

    /// Deprecated: [`Schedule::action_delay`](schedule::Schedule::action_delay).
    #[deprecated(since = "0.3.0", note = "use game.schedule().action_delay(id, cost)")]
    pub fn action_delay(&self, id: ThingId, cost: u64) -> Result<u64, Error> {
        self.schedule().action_delay(id, cost)
    }

    /// Deprecated: [`Schedule::takes_turns`](schedule::Schedule::takes_turns).
    #[deprecated(since = "0.3.0", note = "use game.schedule().takes_turns(id)")]
    #[must_use]
    pub fn takes_turns(&self, id: ThingId) -> bool {
        self.schedule().takes_turns(id)
    }

    /// Deprecated: [`Schedule::awake_levels`](schedule::Schedule::awake_levels).
    #[deprecated(since = "0.3.0", note = "use game.schedule().awake_levels()")]
    #[must_use]
    pub fn awake_levels(&self) -> Option<Vec<i32>> {
        self.schedule().awake_levels()
    }

    /// Deprecated: [`Levels::get`](level::Levels::get).
    #[deprecated(since = "0.3.0", note = "use game.levels().get(z)")]
    #[must_use]
    pub fn level(&self, z: i32) -> Option<LocBox> {
        self.levels().get(z)
    }

    /// Deprecated: [`Levels::stairs_at`](level::Levels::stairs_at).
    #[deprecated(since = "0.3.0", note = "use game.levels().stairs_at(at)")]
    #[must_use]
    pub fn stairs_at(&self, at: Loc) -> Option<Loc> {
        self.levels().stairs_at(at)
    }

    /// Deprecated: [`Levels::stair_links`](level::Levels::stair_links).
    #[deprecated(since = "0.3.0", note = "use game.levels().stair_links()")]
    pub fn stair_links(&self) -> impl Iterator<Item = (Loc, Loc)> + '_ {
        self.levels().stair_links()
    }

    /// Deprecated: [`Indexes::is_indexed`](indexes::Indexes::is_indexed).
    #[deprecated(since = "0.3.0", note = "use game.indexes().is_indexed(flag)")]
    #[must_use]
    pub fn is_indexed(&self, flag: &Prop<bool>) -> bool {
        self.indexes().is_indexed(flag)
    }

    /// Deprecated: [`Indexes::things_with`](indexes::Indexes::things_with).
    #[deprecated(since = "0.3.0", note = "use game.indexes().things_with(flag)")]
    #[must_use]
    pub fn things_with(&self, flag: &Prop<bool>) -> Vec<ThingId> {
        self.indexes().things_with(flag)
    }

    /// Deprecated: [`Indexes::things_with_on_level`](indexes::Indexes::things_with_on_level).
    #[deprecated(
        since = "0.3.0",
        note = "use game.indexes().things_with_on_level(flag, z)"
    )]
    #[must_use]
    pub fn things_with_on_level(&self, flag: &Prop<bool>, z: i32) -> Vec<ThingId> {
        self.indexes().things_with_on_level(flag, z)
    }

    /// Deprecated: [`Layers::get`](layer::Layers::get).
    #[deprecated(since = "0.3.0", note = "use game.layers().get(layer)")]
    #[must_use]
    pub fn layer<T: layer::LayerValue>(&self, layer: &layer::Layer<T>) -> layer::LayerGrid<T> {
        self.layers().get(layer)
    }

    /// Deprecated: [`Layers::at`](layer::Layers::at).
    #[deprecated(since = "0.3.0", note = "use game.layers().at(layer, loc)")]
    #[must_use]
    pub fn layer_get<T: layer::LayerValue>(&self, layer: &layer::Layer<T>, loc: Loc) -> T {
        self.layers().at(layer, loc)
    }

    /// Deprecated: [`Layers::names`](layer::Layers::names).
    #[deprecated(since = "0.3.0", note = "use game.layers().names()")]
    pub fn layer_names(&self) -> impl Iterator<Item = &str> {
        self.layers().names()
    }
}

// The 0.2 methods of `Game` that read where things are, moved into `game.things()` in 0.3:
// deprecated, gone in 0.4.
impl Game {
    /// Deprecated: [`Things::get`](things::Things::get).
    #[deprecated(since = "0.3.0", note = "use game.things().get(id)")]
    #[inline]
    pub fn get_thing(&self, id: ThingId) -> Result<&Thing, Error> {
        self.thing_ref(id)
    }

    /// Deprecated: [`Things::contains`](things::Things::contains).
    #[deprecated(since = "0.3.0", note = "use game.things().contains(id)")]
    #[must_use]
    pub fn contains(&self, id: ThingId) -> bool {
        self.has_thing(id)
    }

    /// Deprecated: [`Things::count`](things::Things::count).
    #[deprecated(since = "0.3.0", note = "use game.things().count()")]
    #[must_use]
    pub fn thing_count(&self) -> usize {
        self.count_things()
    }

    /// Deprecated: [`Things::iter`](things::Things::iter).
    #[deprecated(since = "0.3.0", note = "use game.things().iter()")]
    pub fn all_things(&self) -> impl Iterator<Item = &Thing> {
        self.every_thing()
    }

    /// Deprecated: [`Things::at`](things::Things::at).
    #[deprecated(since = "0.3.0", note = "use game.things().at(loc)")]
    #[must_use]
    pub fn things_at(&self, loc: Loc) -> &[ThingId] {
        self.cell_things(loc)
    }

    /// Deprecated: [`Things::cursor`](things::Things::cursor).
    #[deprecated(since = "0.3.0", note = "use game.things().cursor()")]
    #[must_use]
    pub fn cell_view(&self) -> game::CellView<'_> {
        self.cell_cursor()
    }

    /// Deprecated: [`Things::in_box`](things::Things::in_box).
    #[deprecated(since = "0.3.0", note = "use game.things().in_box(area)")]
    #[must_use]
    pub fn things_in_box(&self, area: LocBox) -> Vec<(Loc, &[ThingId])> {
        self.cells_in_box(area)
    }

    /// Deprecated: [`Things::on_level`](things::Things::on_level).
    #[deprecated(since = "0.3.0", note = "use game.things().on_level(z)")]
    #[must_use]
    pub fn things_on_level(&self, z: i32) -> Vec<(Loc, &[ThingId])> {
        self.cells_on_level(z)
    }

    /// Deprecated: [`Things::ids_on_level`](things::Things::ids_on_level).
    #[deprecated(since = "0.3.0", note = "use game.things().ids_on_level(z)")]
    #[must_use]
    pub fn ids_on_level(&self, z: i32) -> Vec<ThingId> {
        self.level_ids(z)
    }

    /// Deprecated: [`Things::contents`](things::Things::contents).
    #[deprecated(since = "0.3.0", note = "use game.things().contents(id)")]
    pub fn contents(&self, id: ThingId) -> Result<&[ThingId], Error> {
        self.contents_of(id)
    }

    /// Deprecated: [`Things::place`](things::Things::place).
    #[deprecated(since = "0.3.0", note = "use game.things().place(id)")]
    pub fn place(&self, id: ThingId) -> Result<Place, Error> {
        self.place_of(id)
    }

    /// Deprecated: [`Things::location`](things::Things::location).
    #[deprecated(since = "0.3.0", note = "use game.things().location(id)")]
    pub fn location(&self, id: ThingId) -> Result<Loc, Error> {
        self.location_of(id)
    }

    /// Deprecated: [`Things::outermost`](things::Things::outermost).
    #[deprecated(since = "0.3.0", note = "use game.things().outermost(id)")]
    pub fn outermost(&self, id: ThingId) -> Result<ThingId, Error> {
        self.outermost_of(id)
    }
}

// The 0.2 methods of `Game` that changed levels and ran hooks, moved in 0.3: deprecated,
// gone in 0.4.
impl Game {
    /// Deprecated: [`LevelsMut::set`](level::LevelsMut::set).
    #[deprecated(since = "0.3.0", note = "use game.levels_mut().set(area)")]
    pub fn set_level_mut(&mut self, area: LocBox) {
        self.levels_mut().set(area);
    }

    /// Deprecated: [`LevelsMut::link_stairs`](level::LevelsMut::link_stairs).
    #[deprecated(since = "0.3.0", note = "use game.levels_mut().link_stairs(from, to)")]
    pub fn link_stairs_mut(&mut self, from: Loc, to: Loc) {
        self.levels_mut().link_stairs(from, to);
    }

    /// Deprecated: [`LevelsMut::link_stairs_both`](level::LevelsMut::link_stairs_both).
    #[deprecated(since = "0.3.0", note = "use game.levels_mut().link_stairs_both(a, b)")]
    pub fn link_stairs_both_mut(&mut self, a: Loc, b: Loc) {
        self.levels_mut().link_stairs_both(a, b);
    }

    /// Deprecated: [`LevelsMut::paint`](level::LevelsMut::paint).
    #[deprecated(
        since = "0.3.0",
        note = "use game.levels_mut().paint(map, origin, tile)"
    )]
    pub fn paint_mut<T>(
        &mut self,
        map: &mapgen::TileMap<T>,
        origin: Loc,
        tile: impl Fn(&T) -> Option<library::TileId>,
    ) -> Result<(), Error> {
        self.levels_mut().paint(map, origin, tile)
    }

    /// Deprecated: [`HookCtx::run`].
    #[deprecated(since = "0.3.0", note = "use ctx.run(game, event, call)")]
    pub fn run_hook_mut(
        &mut self,
        ctx: &mut HookCtx<'_>,
        event: &Prop<props::Hook>,
        call: hook::HookCall,
    ) -> Result<bool, Error> {
        ctx.run(self, event, call)
    }

    /// Deprecated: [`Hooks::check`].
    #[deprecated(since = "0.3.0", note = "use hooks.check(game)")]
    pub fn check_hooks(&self, hooks: &Hooks) -> Result<(), Error> {
        hooks.check(self)
    }
}

// The 0.2 methods of `Game` that changed the actor queue, moved into `game.scheduler()` in
// 0.3, and `next_id`, moved into `game.things()`: deprecated, gone in 0.4.
impl Game {
    /// Deprecated: [`Scheduler::add`](schedule::Scheduler::add).
    #[deprecated(since = "0.3.0", note = "use game.scheduler().add(id, delay)")]
    pub fn schedule_mut(&mut self, id: ThingId, delay: u64) -> Result<(), Error> {
        self.scheduler().add(id, delay)
    }

    /// Deprecated: [`Scheduler::remove`](schedule::Scheduler::remove).
    #[deprecated(since = "0.3.0", note = "use game.scheduler().remove(id)")]
    pub fn unschedule_mut(&mut self, id: ThingId) {
        self.scheduler().remove(id);
    }

    /// Deprecated: [`Scheduler::set_awake_levels`](schedule::Scheduler::set_awake_levels).
    #[deprecated(
        since = "0.3.0",
        note = "use game.scheduler().set_awake_levels(levels)"
    )]
    pub fn set_awake_levels_mut(
        &mut self,
        levels: impl IntoIterator<Item = i32>,
    ) -> Result<(), Error> {
        self.scheduler().set_awake_levels(levels)
    }

    /// Deprecated: [`Scheduler::advance_until`](schedule::Scheduler::advance_until).
    #[deprecated(
        since = "0.3.0",
        note = "use game.scheduler().advance_until(ctx, max_actions, stop)"
    )]
    pub fn advance_until_mut(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
    ) -> Result<schedule::Advance, Error> {
        self.scheduler().advance_until(ctx, max_actions, stop)
    }

    /// Deprecated: [`Scheduler::take_turns`](schedule::Scheduler::take_turns).
    #[deprecated(
        since = "0.3.0",
        note = "use game.scheduler().take_turns(ctx, max_actions, stop, act)"
    )]
    pub fn take_turns_mut(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
        act: impl FnMut(&mut Game, &mut HookCtx<'_>, ThingId) -> Result<(), Error>,
    ) -> Result<schedule::Advance, Error> {
        self.scheduler().take_turns(ctx, max_actions, stop, act)
    }

    /// Deprecated: [`Things::next_id`](things::Things::next_id).
    #[deprecated(since = "0.3.0", note = "use game.things().next_id()")]
    #[must_use]
    pub fn next_id(&self) -> u64 {
        self.things().next_id()
    }
}
