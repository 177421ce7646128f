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
//! - **A small `Game`.** What is read of one part of the world is read through a view that
//!   borrows the game: [`game.things()`](Game::things) (where things are),
//!   [`game.schedule()`](Game::schedule), [`game.levels()`](Game::levels),
//!   [`game.indexes()`](Game::indexes), [`game.layers()`](Game::layers); the actor queue
//!   and the levels are changed through [`game.scheduler()`](Game::scheduler) and
//!   [`game.levels_mut()`](Game::levels_mut). Each view is a reference, Θ(1) to make, and
//!   each of its methods says its cost. `Game` keeps its own 46 methods for what changes
//!   the world and the reads every turn makes ([`Game::query`], [`Game::is`]).
//! - **Typed, data-driven things.** Properties are read through typed keys ([`Prop<T>`]) over
//!   an open, dynamic store, so data-defined prototypes carry anything while code reads with
//!   Rust types. Things inside other things can change how their holder reads
//!   ([`Modifier`](props::Modifier)s): a potion's effect, a worn ring.
//! - **Deterministic.** The RNG lives inside the value; the same seed and the same commands
//!   give equal games and equal [`Game::state_hash`]es on every machine. Behaviour hooks are
//!   referenced by name ([`Hooks`]), so a game value is plain data you can save with serde.
//! - **Pure.** No I/O, no global state, no terminal, window or UI code: the screens, widgets
//!   and the small `Frontend` trait live in the `alembic-ui` crate, which depends on this one.
//!
//! ## One naming rule
//!
//! Every value in the engine is persistent. The rule, stated as it holds:
//! - **A method without `_mut` never changes its receiver.** One that makes a changed value
//!   returns it (`m(&self, …) -> Self`, or `Result<Self, _>`) and is `#[must_use]`, so
//!   dropping the new value is a warning.
//! - **A method ending in `_mut` changes its receiver in place.** Not every `_mut` method has
//!   a persistent twin: the common ones do ([`Game::set`] and [`Game::set_mut`],
//!   [`Game::add_thing`] and [`Game::add_thing_mut`], [`Game::move_thing`],
//!   [`Game::update_thing`], [`Game::remove_thing`], [`Game::index_flag`],
//!   [`TileMap::with`](mapgen::TileMap::with) and
//!   [`TileMap::set_mut`](mapgen::TileMap::set_mut)); the turn machinery
//!   ([`Game::end_turn_mut`], [`Game::acted_mut`], [`Game::spawn_mut`], …) and the builders'
//!   edits ([`Library::define_tile_mut`], [`PropMap::insert_mut`](props::PropMap::insert_mut))
//!   are in place only. Clone first for a persistent step: a [`Game`] clones in Θ(1), so
//!   `let mut next = game.clone(); next.end_turn_mut(…)?;` leaves `game` as it was.
//!
//! The write views ([`Scheduler`](schedule::Scheduler), [`LevelsMut`](level::LevelsMut)),
//! like `HashMap::entry`, hold the game mutably, and each of their methods changes it:
//! `game.scheduler().add(rat, 0)?`, `game.levels_mut().link_stairs(a, b)`.
//!
//! The exceptions are the types that are not values of the world but tools working on one,
//! whose every method exists to advance them: the random generator
//! ([`GameRng::below`](rng::GameRng::below) draws), the per-call hook context
//! ([`HookCtx::spawn`]), the undo timeline's cursor ([`History::undo`](history::History::undo),
//! [`History::push`](history::History::push)), a recording being written
//! ([`Recording::push_command`](replay::Recording::push_command)) and reusable buffers
//! ([`Pathfinder::astar`](path::Pathfinder::astar),
//! [`Fov::compute_into`](fov::Fov::compute_into),
//! [`DijkstraMap::rebuild`](path::DijkstraMap::rebuild),
//! [`LightMap::add_light`](light::LightMap::add_light)); and accessors that lend a part
//! mutably ([`Game::rng`], [`HookCtx::scratch`], [`History::current_mut`](history::History::current_mut)).
//!
//! Property keys are passed by reference everywhere: `Props::new().with(&HP, 10)`,
//! `game.query(id, &HP)`, `Modifier::add(&ST, 3).while_flag(&WORN)`.
//!
//! ## Where things are
//!
//! The crate root holds only the core types: [`Game`], [`Error`], [`Library`], [`Thing`],
//! [`ThingId`], [`Place`], [`Prop`], [`Props`], [`Loc`], [`LocBox`], [`Dir`], [`Hooks`],
//! [`HookCtx`] and [`Rgb`] (and, hidden and deprecated until 0.3, the 0.1 paths of names that
//! moved into modules). [`prelude`] adds the two dozen names from the modules that a small game
//! uses: `use alembic::prelude::*;`. Everything else is in the module it belongs to, each
//! opening with what it is for and what it costs: [`grid`] (the persistent 3D grid), [`props`]
//! (keys, values, modifiers), [`library`] (prototypes, tiles, [`ABSTRACT`](library::ABSTRACT)),
//! [`thing`], [`things`] (where things are), [`hook`] (`ON_*` hook names), [`game`],
//! [`schedule`] (turn order), [`level`] (levels and stairs), [`indexes`] (flag indexes),
//! [`layer`] (typed overlays), [`fov`], [`light`], [`path`] (A*, Dijkstra maps), [`mapgen`],
//! [`dice`], [`rng`], [`history`] (undo and branches), [`save`] (saves by reference),
//! [`replay`] (the record format), [`wizard`] (console commands), [`hash`], [`loc`], [`colour`]
//! and [`error`].
//!
//! ```
//! use alembic::{Game, Library, Loc, Prop, Props};
//! use alembic::{library::ABSTRACT, library::IS_CONTAINER, props::Modifier};
//!
//! const ST: Prop<i32> = Prop::new("strength");
//! const WORN: Prop<bool> = Prop::with_default("worn", false);
//!
//! let lib = Library::new()
//!     .proclaim("base creature", None, Props::new().with(&IS_CONTAINER, true).with(&ABSTRACT, true))?
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
//! assert_eq!(worn.things().location(ring)?, Loc::new(1, 1, 0));
//! assert_eq!(worn.things().contents(hero)?, &[ring]);
//! worn.check_invariants()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod actors;
mod bounds;
mod cells;
mod chunk;
pub mod colour;
mod deprecated;
pub mod dice;
pub mod error;
pub mod fov;
pub mod game;
pub mod grid;
pub mod hash;
pub mod history;
pub mod hook;
mod id;
mod index;
pub mod indexes;
mod key;
mod keys;
pub mod layer;
pub mod level;
pub mod library;
pub mod light;
pub mod loc;
pub mod mapgen;
mod migrate;
pub mod path;
pub mod props;
mod pvec;
mod queue;
pub mod replay;
pub mod rng;
mod runq;
pub mod save;
pub mod schedule;
mod spawn;
pub mod thing;
pub mod things;
pub mod wizard;
mod words;

pub use colour::Rgb;
pub use error::Error;
pub use game::Game;
pub use hook::{HookCtx, Hooks};
pub use library::Library;
pub use loc::{Dir, Loc, LocBox};
pub use props::{Prop, Props};
pub use thing::{Place, Thing, ThingId};

/// The crate README's code, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// The 0.1 crate-root paths of names that moved into modules: deprecated, gone in 0.3.
#[doc(hidden)]
pub use deprecated::*;

/// The names nearly every game uses, for a glob import: `use alembic::prelude::*;`.
///
/// The crate root's core types — the world value ([`Game`]) and its errors, the prototype
/// [`Library`], things and where they are ([`Thing`], [`ThingId`], [`Place`], [`Loc`],
/// [`LocBox`], [`Dir`]), typed properties ([`Prop`], [`Props`]), behaviour ([`Hooks`],
/// [`HookCtx`]) and colour ([`Rgb`]) — and, from their modules, what a small game needs
/// next: turns ([`NORMAL_ACTION`](schedule::NORMAL_ACTION), [`SPEED`](schedule::SPEED),
/// [`TurnEnd`](schedule::TurnEnd), [`ACTS`](schedule::ACTS)), hooks
/// ([`HookCall`](hook::HookCall), [`Hook`](props::Hook), [`ON_ACTION`](hook::ON_ACTION)),
/// [`ABSTRACT`](library::ABSTRACT), [`Modifier`](props::Modifier), map memory
/// ([`Layer`](layer::Layer)), sight ([`field_of_view`](fov::field_of_view)), paths
/// ([`astar`](path::astar), [`Search`](path::Search)), the random generator
/// ([`GameRng`](rng::GameRng)), map building ([`TileMap`](mapgen::TileMap)), undo
/// ([`History`](history::History)) and saves ([`SavedGame`](save::SavedGame)).
///
/// ```
/// use alembic::prelude::*;
/// const HP: Prop<i32> = Prop::new("hp");
/// let lib = Library::new().proclaim("rat", None, Props::new().with(&HP, 3))?;
/// let mut game = Game::new(7).with_library(lib);
/// let rat = game.spawn_mut(&mut HookCtx::new(&Hooks::new()), "rat", Place::Map(Loc::new(1, 2, 0)))?;
/// assert_eq!(game.query(rat, &HP)?, 3);
/// let mut undo = History::with_undo_depth(game.clone(), 20);
/// undo.push((), game.set(rat, &HP, 2)?);
/// assert_eq!(undo.undo().map(|g| g.query(rat, &HP)), Some(Ok(3)));
/// # Ok::<(), Error>(())
/// ```
pub mod prelude {
    pub use crate::fov::field_of_view;
    pub use crate::history::History;
    pub use crate::hook::{HookCall, ON_ACTION};
    pub use crate::layer::Layer;
    pub use crate::library::ABSTRACT;
    pub use crate::mapgen::TileMap;
    pub use crate::path::{Search, astar};
    pub use crate::props::{Hook, Modifier};
    pub use crate::rng::GameRng;
    pub use crate::save::SavedGame;
    pub use crate::schedule::{ACTS, NORMAL_ACTION, SPEED, TurnEnd};
    pub use crate::{
        Dir, Error, Game, HookCtx, Hooks, Library, Loc, LocBox, Place, Prop, Props, Rgb, Thing,
        ThingId,
    };
}
