//! Alembic: a roguelike engine whose whole game state is one persistent value.
//!
//! (Crate documentation is completed with the engine core.)
#![warn(missing_docs)]

mod loc;
mod rng;

pub use loc::{Dir, Loc, LocBox};
pub use rng::GameRng;
mod ui;

pub use ui::{
    App, Cell, ColourDepth, Control, Frame, Frontend, Input, Key, Mods, Rgb, TestFrontend,
    TestFrontendError, run,
};

mod dice;
mod fov;
mod light;
mod mapgen;
mod path;
mod queue;

pub use dice::{Dice, DiceError, d, poisson, weighted_choice, weighted_index};
pub use fov::{Fov, MAX_FOV_RADIUS, VisibleSet, field_of_view};
pub use light::{LightMap, LightSource};
pub use mapgen::{
    Adjacency, Bsp, BspSplit, Disconnected, Regions, TileMap, bsp_dungeon, random_room, retry,
};
pub use path::{
    DijkstraMap, MAX_SEARCH_CELLS, Path, PathError, Pathfinder, Search, astar, explore_targets,
};
