//! # Alembic
//!
//! A roguelike engine whose whole game state is **one persistent value**.
//!
//! Goals:
//! - **The world is a value.** A [`Game`] holds the terrain, every thing and where it is,
//!   containment, the prototype [`Library`], the RNG, the turn and the message log. Cloning it
//!   is Θ(1); every change gives a new value and leaves the older one valid, which gives undo,
//!   replay and safe look-ahead for free.
//! - **Consistent by construction.** Things are changed only through a small API —
//!   [`Game::query`], [`Game::set`], [`Game::add_thing`], [`Game::remove_thing`],
//!   [`Game::update_thing`], [`Game::move_thing`] — which keeps the id index, the map cells and
//!   the containers in agreement. [`Game::check_invariants`] proves it in tests.
//! - **Typed, data-driven things.** Properties are read through typed keys ([`Prop<T>`]) over
//!   an open, dynamic store, so data-defined prototypes carry anything while code reads with
//!   Rust types. Things inside other things can change how their holder reads
//!   ([`Modifier`]s): a potion's effect, a worn ring.
//! - **Deterministic.** The RNG lives inside the value; the same seed and the same commands
//!   give equal games and equal [`Game::state_hash`]es on every machine. Behaviour hooks are
//!   referenced by name ([`Hooks`]), so a game value is plain data you can save with serde.
//! - **Pure.** No I/O, no global state, no terminal, window or UI code: the screens, widgets
//!   and the small `Frontend` trait live in the `alembic-ui` crate, which depends on this one.
//!
//! ## One naming rule
//!
//! Every value in the engine is persistent, and every method that changes one comes in the
//! same two spellings:
//! - `m(&self, …) -> Self` (or `Result<Self, _>`) returns a changed copy and leaves the
//!   receiver as it was; it is `#[must_use]`, so dropping the new value is a warning.
//! - `m_mut(&mut self, …)` changes the receiver in place.
//!
//! So [`Game::set`] and [`Game::set_mut`], [`Thing::with`] and [`Thing::set_mut`],
//! [`TileMap::with`] and [`TileMap::set_mut`], [`Library::define_tile_mut`],
//! [`PropMap::insert_mut`]. A method without `_mut` never changes its receiver. The
//! exceptions are the types that are not values of the world but tools working on one, whose
//! every method exists to advance them: the random generator ([`GameRng::below`] draws),
//! the per-call hook context ([`HookCtx::spawn`]), the undo timeline's cursor
//! ([`History::undo`], [`History::push`]), a recording being written
//! ([`Recording::push_command`]) and reusable search buffers ([`Pathfinder::astar`],
//! [`Fov::compute_into`]); and accessors that lend a part mutably ([`Game::rng`]).
//!
//! Property keys are passed by reference everywhere: `Props::new().with(&HP, 10)`,
//! `game.query(id, &HP)`, `Modifier::add(&ST, 3).while_flag(&WORN)`.
//!
//! ```
//! use alembic::{Game, Library, Loc, Prop, Props, IS_CONTAINER, Modifier};
//!
//! const ST: Prop<i32> = Prop::new("strength");
//! const WORN: Prop<bool> = Prop::with_default("worn", false);
//!
//! let lib = Library::new()
//!     .proclaim("base creature", None, Props::new().with(&IS_CONTAINER, true))?
//!     .proclaim("hero", Some("base creature"), Props::new().with(&ST, 10))?
//!     .proclaim("ring of strength", None, Props::new().modifier(Modifier::add(&ST, 3).while_flag(&WORN)))?;
//! let game = Game::new(42).with_library(lib);
//!
//! let mut g = game.clone();
//! let hero = g.add_thing_mut(Loc::new(1, 1, 0), g.library().create("hero")?)?;
//! let ring = g.add_thing_mut(hero, g.library().create("ring of strength")?)?;
//! assert_eq!(g.query(hero, &ST)?, 10); // carried, not worn
//!
//! let worn = g.set(ring, &WORN, true)?;
//! assert_eq!(worn.query(hero, &ST)?, 13);
//! assert_eq!(g.query(hero, &ST)?, 10); // the older value is unchanged
//! assert_eq!(worn.location(ring)?, Loc::new(1, 1, 0));
//! worn.check_invariants()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod cells;
mod colour;
mod dice;
mod error;
mod fov;
mod game;
mod grid;
mod hash;
mod history;
mod hook;
mod index;
mod layer;
mod level;
mod library;
mod light;
mod loc;
mod mapgen;
mod octree;
mod path;
mod props;
mod pvec;
mod queue;
mod replay;
mod rng;
mod save;
mod schedule;
mod thing;
mod wizard;

pub use colour::Rgb;
pub use dice::{Dice, DiceError, d, poisson, weighted_choice, weighted_index};
pub use error::{Error, GameError, InvariantError, Owner};
pub use fov::{Fov, MAX_FOV_RADIUS, VisibleSet, field_of_view};
pub use game::{Game, Message, SAVE_FORMAT};
pub use grid::{BoxIter, Grid, GridView};
pub use hash::StableHasher;
pub use history::{BranchInfo, Budget, History, HistoryError};
pub use hook::{
    HookCall, HookCtx, HookFn, Hooks, ON_ACTION, ON_CONSUME, ON_CREATE, ON_DEATH, ON_HIT, ON_TICK,
    ON_USE,
};
pub use layer::{Layer, LayerGrid, LayerValue};
pub use level::LevelMap;
pub use library::{
    ABSTRACT, FREQ, IS_CONTAINER, LEVEL, Library, LibraryId, Prototype, TileDef, TileId,
};
pub use light::{LightMap, LightSource};
pub use loc::{Dir, Loc, LocBox};
pub use mapgen::{
    Adjacency, Bsp, BspDungeon, BspSplit, Cave, Disconnected, MapGenError, Regions, TileMap,
    bsp_dungeon, random_room, retry,
};
pub use path::{
    DijkstraMap, MAX_SEARCH_CELLS, Path, PathError, Pathfinder, Search, astar, explore_targets,
};
pub use props::{Hook, ModOp, Modifier, Prop, PropKey, PropMap, PropType, Props, Value, ValueKind};
pub use replay::{
    Entry, MAX_REPLAY_BYTES, MAX_REPLAY_ENTRIES, MAX_REPLAY_LINE, REPLAY_FORMAT, REPLAY_VERSION,
    Recording, ReplayError, ReplayHeader, Verified,
};
pub use rng::GameRng;
pub use save::{LoadError, SAVED_GAME_FORMAT, SavedGame};
pub use schedule::{Advance, NORMAL_ACTION, SPEED};
pub use thing::{IdList, Place, Thing, ThingId};
pub use wizard::{
    Arg, Args, HandlerFn, Param, ParamKind, WizardCommands, WizardError, WizardOutcome, WizardSpec,
    WordsFn,
};
