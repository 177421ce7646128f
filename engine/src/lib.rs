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
