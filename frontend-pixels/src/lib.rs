//! `alembic-pixels`: the native-window frontend.
//!
//! A minifb window implementing [`alembic::Frontend`]: every [`alembic::Cell`] is drawn as an
//! 8×8 bitmap glyph (`font8x8`, plus a few extra symbols) in its foreground colour on its
//! background, at an integer scale of 1×–4×. The grid follows the window size. Keys arrive
//! through minifb's `InputCallback` and become the same [`alembic::Input`]s the terminal
//! frontend produces. Nothing here knows about any game.
//!
//! The pieces are usable without a window: [`font`] (glyph lookup), [`raster`] (frame →
//! pixel buffer) and [`input`] (minifb key events → inputs).

pub mod font;
pub mod input;
pub mod raster;
mod window;

pub use raster::{Face, Layout, render_frame};
pub use window::{PixelsError, PixelsFrontend, PixelsOptions};
