//! `alembic-pixels`: the native-window frontend.
//!
//! A minifb window implementing [`alembic_ui::Frontend`]: every [`alembic_ui::Cell`] is drawn as
//! anti-aliased Noto Sans Mono alpha-blended in its foreground colour over its background
//! (or, with [`Font::Bitmap8x8`], as an integer-scaled `font8x8` bitmap). Box-drawing and
//! block characters are drawn as geometry so they join, and [`alembic_ui::Tile`] characters as
//! small pictures drawn in code. With Noto and a grid the app asks for
//! (`App::preferred_grid`: a whole level, as Brogue CE shows it), the rows are the tallest at
//! which the frame's map area ([`alembic_ui::Frame::map_area`]), in square cells, and the
//! text beside it, at the font's own advance, show that grid ([`choose_layout`]); without one,
//! or on a window too small for it, the cells are the largest that show 80×24. They are
//! chosen again on every resize, with the grid centred in the window. Keys arrive
//! through minifb's `InputCallback`, the mouse by polling (with, on X11, XInput 2 raw button
//! events so a tap shorter than a poll is not lost), and both become the same
//! [`alembic_ui::Input`]s the terminal frontend produces. Nothing here knows about any game.
//!
//! The pieces are usable without a window: [`font`] (8×8 glyph lookup), [`geometry`] (box
//! lines and blocks), [`tiles`] (pictures), [`raster`] (frame → pixel buffer) and [`input`]
//! (minifb key events → inputs).
//!
//! As a library it holds no game code and depends only on `alembic-ui` (and the engine):
//! [`run_app`] plays any [`alembic_ui::App`] in a new window, closes it when the app quits and
//! returns the app's output.
//! The binary (feature `bin`, on by default) adds the games of `alembic-games` and the
//! command line; depend on this crate with `default-features = false` to leave them out.
//!
//! ```no_run
//! use alembic_ui::{App, Control, Frame, Input, Rgb};
//!
//! struct Hello;
//! impl App for Hello {
//!     fn render(&mut self, frame: &mut Frame) {
//!         frame.put_str(0, 0, "Hello! Any key quits.", Rgb::WHITE, Rgb::BLACK);
//!     }
//!     fn handle(&mut self, _input: Input) -> Control {
//!         Control::Quit
//!     }
//! }
//! alembic_pixels::run_app(Hello)?;
//! # Ok::<(), alembic_ui::SessionError<(), alembic_pixels::PixelsError>>(())
//! ```

#![warn(missing_docs)]
// Only `xlost` (Xlib's I/O error handler) may use `unsafe`; its docs say why.
#![deny(unsafe_code)]

#[cfg(all(unix, not(target_os = "macos")))]
mod clicks;
#[cfg(feature = "bin")]
mod games;
#[cfg(feature = "bin")]
pub use games::run_games;
pub mod font;
#[cfg(all(unix, not(target_os = "macos")))]
pub mod fullscreen;
pub mod geometry;
pub mod input;
pub mod raster;
pub mod tiles;
mod window;
pub mod xlost;

pub use alembic_ui::SessionError;
pub use raster::{Font, Layout, Placement, Rasterizer, render_frame};
pub use window::{FitWish, PixelsError, PixelsFrontend, PixelsOptions, choose_layout};
pub use xlost::SaveOnXLoss;

/// Play `app` in a new window with the default [`PixelsOptions`] until the app quits or the
/// window is closed (the app is offered [`alembic_ui::Input::Quit`] first, so it can save),
/// and close the window (on return and on panic, by its `Drop`). The common case;
/// [`run_app_then`] also returns what the app ends with.
///
/// # Errors
/// [`SessionError`]: the window could not be opened, or failed during the session.
pub fn run_app<A: alembic_ui::App>(app: A) -> Result<(), SessionError<(), PixelsError>> {
    run_app_then(app, |_| ())
}

/// [`run_app`], returning the app's output: what `output` makes of the app at the end
/// (`ScreenStack::into_ctx`, [`alembic_ui::App::farewell`]).
///
/// # Errors
/// As [`run_app`]; the app's output is inside the error all the same.
pub fn run_app_then<A: alembic_ui::App, T>(
    app: A,
    output: impl FnOnce(A) -> T,
) -> Result<T, SessionError<T, PixelsError>> {
    run_app_with(&PixelsOptions::default(), app, output)
}

/// [`run_app_then`] with options (title, font, scale).
///
/// # Errors
/// As [`run_app`].
pub fn run_app_with<A: alembic_ui::App, T>(
    opts: &PixelsOptions,
    app: A,
    output: impl FnOnce(A) -> T,
) -> Result<T, SessionError<T, PixelsError>> {
    match PixelsFrontend::open(opts) {
        // The game is saved if the X connection dies ([`xlost`]).
        Ok(mut frontend) => alembic_ui::run_to_end(&mut frontend, SaveOnXLoss::new(app), |a| {
            output(a.into_inner())
        }),
        Err(error) => Err(SessionError {
            error,
            output: output(app),
        }),
    }
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
