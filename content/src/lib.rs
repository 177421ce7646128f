//! Games built on the `alembic` engine's public API, and [`launch()`], where every frontend gets
//! its game from.

pub mod caves;
pub mod demo;
pub mod launch;

pub use launch::{LaunchError, LaunchOptions, default_game, games, launch, save_dir};
