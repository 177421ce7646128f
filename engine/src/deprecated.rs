//! The old crate-root paths of the names that moved into their modules in 0.2.0, kept for
//! one minor version so that code written against 0.1 still builds, with a deprecation
//! warning that names the new path. Removed in 0.3.0. Traits (`LayerValue`, `PropType`) cannot
//! be aliased on stable Rust: `scripts/migrate-names.sh` rewrites those paths.
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
