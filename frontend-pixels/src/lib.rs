//! `alembic-pixels`: the native-window frontend.
//!
//! A minifb window implementing [`alembic::Frontend`]: every [`alembic::Cell`] is drawn as
//! anti-aliased Noto Sans Mono alpha-blended in its foreground colour over its background
//! (or, with [`Font::Bitmap8x8`], as an integer-scaled `font8x8` bitmap). Box-drawing and
//! block characters are drawn as geometry so they join, and [`alembic::Tile`] characters as
//! small pictures drawn in code. The cell size is the largest that shows at least 80×24
//! cells, chosen again on every resize, with the grid centred in the window. Keys arrive
//! through minifb's `InputCallback`, the mouse by polling, and both become the same
//! [`alembic::Input`]s the terminal frontend produces. Nothing here knows about any game.
//!
//! The pieces are usable without a window: [`font`] (8×8 glyph lookup), [`geometry`] (box
//! lines and blocks), [`tiles`] (pictures), [`raster`] (frame → pixel buffer) and [`input`]
//! (minifb key events → inputs).

#![warn(missing_docs)]

pub mod font;
#[cfg(all(unix, not(target_os = "macos")))]
pub mod fullscreen;
pub mod geometry;
pub mod input;
pub mod raster;
pub mod tiles;
mod window;

pub use raster::{Font, Layout, Placement, Rasterizer, render_frame};
pub use window::{PixelsError, PixelsFrontend, PixelsOptions};
