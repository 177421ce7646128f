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
//! - **Pure.** No I/O, no global state, no terminal or window code: frontends implement the
//!   small [`Frontend`] trait.
//!
//! ```
//! use alembic::{Game, Library, Loc, Prop, Props, IS_CONTAINER, Modifier};
//!
//! const ST: Prop<i32> = Prop::new("strength");
//! const WORN: Prop<bool> = Prop::with_default("worn", false);
//!
//! let lib = Library::new()
//!     .proclaim("base creature", None, Props::new().with(IS_CONTAINER, true))?
//!     .proclaim("hero", Some("base creature"), Props::new().with(ST, 10))?
//!     .proclaim("ring of strength", None, Props::new().modifier(Modifier::add(ST, 3).while_flag(WORN)))?;
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
mod path;
mod props;
mod pvec;
mod queue;
mod replay;
mod rng;
mod save;
mod schedule;
mod screens;
mod thing;
mod ui;
mod wizard;

pub use dice::{Dice, DiceError, d, poisson, weighted_choice, weighted_index};
pub use error::{Error, GameError, InvariantError, Owner};
pub use fov::{Fov, MAX_FOV_RADIUS, VisibleSet, field_of_view};
pub use game::{Game, Message, SAVE_FORMAT};
pub use grid::{BoxIter, Grid};
pub use hash::StableHasher;
pub use history::{BranchInfo, Budget, History, HistoryError};
pub use hook::{
    HookCall, HookCtx, HookFn, Hooks, ON_ACTION, ON_CONSUME, ON_CREATE, ON_DEATH, ON_HIT, ON_TICK,
    ON_USE,
};
pub use layer::{Layer, LayerGrid, LayerValue};
pub use level::LevelMap;
pub use library::{FREQ, IS_CONTAINER, LEVEL, Library, LibraryId, Prototype, TileDef, TileId};
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
pub use screens::{
    Confirm, DIRECTION_KEYS, Farewell, ItemList, ListEntry, MessageLogScreen, MinSize, Palette,
    Rect, Screen, ScreenStack, ScreenValue, TextScreen, Title, Transition, direction_key, draw_box,
    draw_item_list, draw_message_log, draw_too_small, fade_for_age, fill, is_cancel, item_letter,
    page_count, plain_char, plain_key, put_centred, put_clipped, wheel_key, wrap_text,
};
pub use thing::{IdList, Place, Thing, ThingId};
pub use ui::{
    App, Cell, ColourDepth, Control, Frame, Frontend, Input, Key, Mods, MouseButton, MouseKind,
    Rgb, TEST_TICK_LIMIT, TestFrontend, TestFrontendError, Tile, TileSpan, TileSupport, run,
};
pub use wizard::{
    Arg, Args, HandlerFn, Param, ParamKind, WizardCommands, WizardError, WizardOutcome, WizardSpec,
    WordsFn,
};

/// The README's code blocks, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
