//! Alembic: a roguelike engine whose whole game state is one persistent value.
//!
//! (Crate documentation is completed with the engine core.)
#![warn(missing_docs)]

mod loc;
mod rng;

pub use loc::{Dir, Loc, LocBox};
pub use rng::GameRng;
