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
//!   ([`Modifier`](props::Modifier)s): a potion's effect, a worn ring.
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
//! [`TileMap::with`](mapgen::TileMap::with) and [`TileMap::set_mut`](mapgen::TileMap::set_mut),
//! [`Library::define_tile_mut`], [`PropMap::insert_mut`](props::PropMap::insert_mut). A method
//! without `_mut` never changes its receiver. The exceptions are the types that are not values
//! of the world but tools working on one, whose every method exists to advance them: the
//! random generator ([`GameRng::below`](rng::GameRng::below) draws), the per-call hook
//! context ([`HookCtx::spawn`]), the undo timeline's cursor
//! ([`History::undo`](history::History::undo), [`History::push`](history::History::push)), a
//! recording being written ([`Recording::push_command`](replay::Recording::push_command)) and
//! reusable buffers ([`Pathfinder::astar`](path::Pathfinder::astar),
//! [`Fov::compute_into`](fov::Fov::compute_into),
//! [`DijkstraMap::rebuild`](path::DijkstraMap::rebuild),
//! [`LightMap::add_light`](light::LightMap::add_light)); and accessors that lend a part
//! mutably ([`Game::rng`], [`HookCtx::scratch`]).
//!
//! Property keys are passed by reference everywhere: `Props::new().with(&HP, 10)`,
//! `game.query(id, &HP)`, `Modifier::add(&ST, 3).while_flag(&WORN)`.
//!
//! ## Where things are
//!
//! The crate root holds only the core types, the same names as [`prelude`]: [`Game`],
//! [`Error`], [`Library`], [`Thing`], [`ThingId`], [`Place`], [`Prop`], [`Props`], [`Loc`],
//! [`LocBox`], [`Dir`], [`Hooks`], [`HookCtx`] and [`Rgb`]. Everything else is in the module
//! it belongs to, each opening with what it is for and what it costs: [`grid`] (the persistent
//! 3D grid), [`props`] (keys, values, modifiers), [`library`] (prototypes, tiles,
//! [`ABSTRACT`](library::ABSTRACT)), [`thing`], [`hook`] (`ON_*` hook names), [`game`],
//! [`schedule`] (turn order), [`level`] (levels and stairs), [`layer`] (typed overlays),
//! [`fov`], [`light`], [`path`] (A*, Dijkstra maps), [`mapgen`], [`dice`], [`rng`],
//! [`history`] (undo and branches), [`save`] (saves by reference), [`replay`] (the record
//! format), [`wizard`] (console commands), [`hash`], [`loc`], [`colour`] and [`error`].
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
//! assert_eq!(worn.location(ring)?, Loc::new(1, 1, 0));
//! worn.check_invariants()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod cells;
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
mod index;
pub mod layer;
pub mod level;
pub mod library;
pub mod light;
pub mod loc;
pub mod mapgen;
mod migrate;
mod octree;
pub mod path;
pub mod props;
mod pvec;
mod queue;
pub mod replay;
pub mod rng;
pub mod save;
pub mod schedule;
pub mod thing;
pub mod wizard;

pub use colour::Rgb;
pub use error::Error;
pub use game::Game;
pub use hook::{HookCtx, Hooks};
pub use library::Library;
pub use loc::{Dir, Loc, LocBox};
pub use props::{Prop, Props};
pub use thing::{Place, Thing, ThingId};

// The 0.1 crate-root paths of names that moved into modules: deprecated, gone in 0.3.
#[doc(hidden)]
pub use deprecated::*;

/// The names nearly every game uses, for a glob import: `use alembic::prelude::*;`.
///
/// The world value ([`Game`]) and its errors, the prototype [`Library`], things and where they
/// are ([`Thing`], [`ThingId`], [`Place`], [`Loc`], [`LocBox`], [`Dir`]), typed properties
/// ([`Prop`], [`Props`]), behaviour ([`Hooks`], [`HookCtx`]) and colour ([`Rgb`]). These are
/// also the only names at the crate root; everything else lives in its module.
///
/// ```
/// use alembic::prelude::*;
/// const HP: Prop<i32> = Prop::new("hp");
/// let lib = Library::new().proclaim("rat", None, Props::new().with(&HP, 3))?;
/// let mut game = Game::new(7).with_library(lib);
/// let rat = game.spawn_mut(&mut HookCtx::new(&Hooks::new()), "rat", Place::Map(Loc::new(1, 2, 0)))?;
/// assert_eq!(game.query(rat, &HP)?, 3);
/// # Ok::<(), Error>(())
/// ```
pub mod prelude {
    pub use crate::{
        Dir, Error, Game, HookCtx, Hooks, Library, Loc, LocBox, Place, Prop, Props, Rgb, Thing,
        ThingId,
    };
}
