//! Games built on the `alembic` engine's public API.
//!
//! - [`alchemy`]: the Alchemy roguelike, headless and complete.
//! - [`sim`]: the headless runner behind the `alembic-sim` binary, with a registry of games
//!   by name.

pub mod alchemy;
pub mod sim;
